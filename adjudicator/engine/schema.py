"""A JSON Schema subset for the documented snapshot files (docs/snapshot.schema.json for Conquest of the Empire,
docs/snapshot-conqueror.schema.json for Conqueror): every problem named by its field path, with short values."""

from __future__ import annotations

import json
import re
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


def schema_problems(value: Any, schema: dict[str, Any], root: dict[str, Any], where: str = "snapshot") -> list[str]:
    """What breaks `schema` in `value`: the subset of JSON Schema that docs/snapshot.schema.json uses ($ref, type,
    const, enum, pattern, minimum, maximum, properties, required, additionalProperties, propertyNames, items,
    uniqueItems, anyOf). It descends only as deep as the schema does, so a deep array costs one type check."""
    if "$ref" in schema:
        return schema_problems(value, root["$defs"][schema["$ref"].split("/")[-1]], root, where)
    if "anyOf" in schema:
        tried = [schema_problems(value, option, root, where) for option in schema["anyOf"]]
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
            found += schema_problems(item, schema["items"], root, f"{where}[{i}]")
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
            found += schema_problems(name, schema["propertyNames"], root, where)
        if name in schema.get("properties", {}):
            found += schema_problems(item, schema["properties"][name], root, f"{where}.{name}")
        elif schema.get("additionalProperties") is False:
            found.append(f"{where}.{name}: not documented")
        elif isinstance(schema.get("additionalProperties"), dict):
            found += schema_problems(item, schema["additionalProperties"], root, f"{where}.{name}")
    return found
