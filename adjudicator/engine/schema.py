"""The documented snapshot files' JSON Schemas (docs/snapshot.schema.json for Conquest of the Empire,
docs/snapshot-conqueror.schema.json for Conqueror) checked: by a validator compiled once per process (jsonschema-rs)
for the answer, and, only for data it refuses, by the subset below that names every problem by its field path, with
short values (the messages players and moderators get)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from functools import cache
from typing import Any

JSON_TYPES = {
    dict: "object",
    list: "array",
    str: "string",
    int: "integer",
    bool: "boolean",
    type(None): "null",
    float: "number",
}  # what json.loads makes, by Python type


def shown(value: Any) -> str:
    """A short repr for a message: a 100,000-deep list or a 5,000-digit number is named, not printed."""
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, int):  # repr() itself refuses more than 4,300 digits
        return repr(value) if abs(value) < 10**12 else f"a number of about {value.bit_length() * 3 // 10} digits"
    if isinstance(value, (dict, list)):
        return (
            f"{'an object' if isinstance(value, dict) else 'a list'} of {len(value)} entries"
            if value
            else ("{}" if isinstance(value, dict) else "[]")
        )
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def schema_problems(
    value: Any, schema: dict[str, Any], root: dict[str, Any], where: str = "snapshot", *, plain: bool = False
) -> list[str]:
    """What breaks `schema` in `value`: the subset of JSON Schema that docs/snapshot.schema.json uses ($ref, type,
    const, enum, pattern, minimum, maximum, properties, required, additionalProperties, propertyNames, items,
    uniqueItems, anyOf). It descends only as deep as the schema does, so a deep array costs one type check.
    A whole document (`schema` is `root`) is first put to the compiled validator: what it accepts, the subset
    accepts too (see _fits), and only a refused one is walked here, for its messages. The first whole document of
    a schema in a process is walked at once: a command that reads one snapshot (`pbem check`) would pay more to
    load and compile the validator (some 13 ms) than the walk costs (under 1 ms on a Classic position), and the
    answer is the walk's either way. `plain`: `value` is known to hold nothing _plain refuses (plain_text), so it
    is not walked for that."""
    if schema is root and _walked_before(root) and _fits(value, root, plain):
        return []
    return _problems(value, schema, root, where)


def _walked_before(root: dict[str, Any]) -> bool:
    """Whether a whole document of `root` was checked before in this process (this call counts as one)."""
    key = _Schema(root)
    if key in _SEEN:
        return True
    _SEEN.add(key)
    return False


def _fits(value: Any, root: dict[str, Any], plain: bool = False) -> bool:
    """Whether the compiled validator accepts `value`. It reads JSON as the standard does, where 1.0 is an integer
    and equals 1; the subset above takes the types json.loads makes as they are (1.0 is no integer). So a value with
    anything but strings, integers, booleans, null, lists and string-keyed objects (a float), or with an integer
    beyond what a double holds exactly (the validator misreads a 5,000-digit one), is left to the subset."""
    if not plain and not _plain(value):
        return False
    try:
        return _validator(_Schema(root))(value)
    except Exception:  # noqa: BLE001 (what the validator cannot take, a lone surrogate say, the subset explains)
        return False


def _plain(value: Any) -> bool:
    """Whether `value` holds only what the validator and the subset read alike (no float, no other type, no huge
    integer)."""
    stack = [value]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is dict:
            if not all(type(key) is str for key in item):
                return False
            stack.extend(item.values())
        elif kind is list:
            stack.extend(item)
        elif kind is int:
            if not -_EXACT < item < _EXACT:
                return False
        elif kind not in _PLAIN:
            return False
    return True


def plain_text(text: str) -> bool:
    """Whether what json.loads makes of JSON text `text` is plain (_plain), from the text alone, some times faster
    than walking the value: json.loads makes only plain types but floats (a digit before ".", "e" or "E"; NaN,
    Infinity) and integers of any size (16 digits or more may be too large). With every digit made 0 and every
    "e" and "E" made ".", each shows as a fixed string ("0." for the three marks of a float: four searches, not
    six). A string value that holds one makes it say False, and the value is walked: never a wrong True."""
    zeroed = text.encode().translate(_ZEROED)
    return b"0." not in zeroed and b"0" * 16 not in zeroed and b"NaN" not in zeroed and b"Infinity" not in zeroed


_ZEROED = bytes.maketrans(b"123456789eE", b"000000000..")
_PLAIN = frozenset({str, bool, type(None)})
_EXACT = 2**53  # integers a double holds exactly


class _Schema:
    """A schema document as a key of the validator cache: by identity (the schemas are read once, functools.cache),
    kept alive with its validator so that its id is not reused."""

    def __init__(self, schema: dict[str, Any]) -> None:
        self.schema = schema

    def __hash__(self) -> int:
        return id(self.schema)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Schema) and other.schema is self.schema


_SEEN: set[_Schema] = set()  # the schemas a whole document was checked against (kept alive: keyed by identity)


@cache
def _validator(key: _Schema) -> Callable[[Any], bool]:
    """The schema compiled once per process (jsonschema-rs: Rust, some 30 times faster than the subset walk on a
    whole snapshot; imported here, as only a command that reads a snapshot needs it)."""
    import jsonschema_rs

    return jsonschema_rs.validator_for(key.schema).is_valid


def _problems(value: Any, schema: dict[str, Any], root: dict[str, Any], where: str) -> list[str]:
    """schema_problems without the compiled validator: every problem of `value`, by its path."""
    if "$ref" in schema:
        return _problems(value, root["$defs"][schema["$ref"].split("/")[-1]], root, where)
    if "anyOf" in schema:
        tried = [_problems(value, option, root, where) for option in schema["anyOf"]]
        if any(not found for found in tried):
            return []
        return [f"{where}: {shown(value)} fits none of the documented forms"]
    kinds = schema.get("type")
    if kinds is not None:
        kinds = [kinds] if isinstance(kinds, str) else kinds
        if JSON_TYPES.get(type(value)) not in kinds:
            return [f"{where}: {shown(value)} is not of type {' or '.join(kinds)}"]
    found: list[str] = []
    if "const" in schema and not _same(value, schema["const"]):
        found.append(f"{where}: {shown(value)} is not {schema['const']!r}")
    if "enum" in schema and not any(_same(value, option) for option in schema["enum"]):
        found.append(f"{where}: {shown(value)} is not one of {', '.join(map(json.dumps, schema['enum']))}")
    if isinstance(value, str) and "pattern" in schema and not _compiled(schema["pattern"]).search(value):
        found.append(f"{where}: {shown(value)} is not of the form {schema['pattern']}")
    if isinstance(value, int) and not isinstance(value, bool):
        if value < schema.get("minimum", value):
            found.append(f"{where}: {shown(value)} is below {schema['minimum']}")
        if value > schema.get("maximum", value):
            found.append(f"{where}: {shown(value)} is above {schema['maximum']}")
    if isinstance(value, dict):
        found += _object_problems(value, schema, root, where)
    if isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            found += _problems(item, schema["items"], root, f"{where}[{i}]")
        if schema.get("uniqueItems") and not found and len(set(value)) != len(value):  # numbers or codes
            found.append(f"{where}: an entry is listed twice")
    return found


@cache
def _compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


def _same(value: Any, option: Any) -> bool:
    """JSON equality: true is not 1 and 1.0 is not 1, as Python's == would have it."""
    return type(value) is type(option) and value == option


def _object_problems(value: dict[str, Any], schema: dict[str, Any], root: dict[str, Any], where: str) -> list[str]:
    found = [f"{where}: {name!r} is missing" for name in schema.get("required", []) if name not in value]
    for name, item in value.items():
        if "propertyNames" in schema:  # a bad key is named by the object's path: "snapshot.areas: 'X' is not..."
            found += _problems(name, schema["propertyNames"], root, where)
        if name in schema.get("properties", {}):
            found += _problems(item, schema["properties"][name], root, f"{where}.{name}")
        elif schema.get("additionalProperties") is False:
            found.append(f"{where}.{name}: not documented")
        elif isinstance(schema.get("additionalProperties"), dict):
            found += _problems(item, schema["additionalProperties"], root, f"{where}.{name}")
    return found
