"""A game's data read from its stored files once per user: the checked GameData kept in the cache folder
(resources.kept) as plain marshal data, keyed by the files and by the source of the code that reads them (ER-13).

Every command that loads a conqueror-er game (a mail, a tick, `pbem verify`) reads and checks the data files the
archive stores with it, the same files each time: some 25 ms of a new process. The reading is a function of the
files and of the reading code, so its result is kept; a change to either reads the files again. The kept form is
plain data (lists, dicts, strings, numbers) whose objects are rebuilt as instances of the data's own classes
alone (DATA_CLASSES), so that loading it runs no other code. Data with anything else is read every time."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import fields
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from adjudicator.engine import board as board_module
from adjudicator.rulesets.conqueror import data as data_module
from adjudicator.rulesets.conqueror import vocabulary as vocabulary_module
from adjudicator.rulesets.conqueror.data import GameData

KIND = "conqueror-data"
# The code whose result is kept: the data's classes and everything that reads and checks the files.
READERS = ("data", "loader", "reader", "maps", "factions", "problems", "vocabulary", "effects")
SCALARS = (str, int, float, bool, type(None))


class _NotPlain(Exception):
    """A value of the data that the kept form does not hold."""


@cache
def data_classes() -> dict[str, type]:
    """The classes whose instances the kept form rebuilds: the dataclasses of the data and the board's links."""
    found: dict[str, type] = {"Link": board_module.Link}
    for module in (data_module, vocabulary_module, board_module):
        for name, value in vars(module).items():
            if (
                isinstance(value, type)
                and value.__module__ == module.__name__
                and hasattr(value, "__dataclass_fields__")
            ):
                found[name] = value
    return found


@cache
def readers_digest() -> bytes | None:
    """The source of the reading code (READERS and engine/board.py, engine/datafile.py); None when it cannot be
    read (an installation without sources): then nothing is kept."""
    import hashlib

    here = Path(data_module.__file__).parent
    paths = [here / f"{name}.py" for name in READERS] + [
        Path(board_module.__file__).with_name(n) for n in ("board.py", "datafile.py")
    ]
    digest = hashlib.sha256()
    try:
        for path in paths:
            digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    except OSError:
        return None
    return digest.digest()


def kept_data(files: Mapping[str, str], read: Callable[[], GameData]) -> GameData:
    """`read()`, the data of `files`, from the cache folder when this user's processes read the same files with
    the same code before."""
    from adjudicator.resources import kept

    readers = readers_digest()
    if readers is None:
        return read()
    source = readers + json.dumps(dict(files), ensure_ascii=False, sort_keys=True).encode()
    made: list[GameData] = []

    def plain() -> Any:
        made.append(read())
        try:
            return _plain(made[0])
        except _NotPlain:
            return None

    stored = kept(KIND, source, plain)
    if made:  # read just now: its own result, not the copy
        return made[0]
    if stored is None:
        return read()
    return _rebuilt(stored)  # type: ignore[no-any-return]


def _plain(value: Any) -> Any:
    """The kept form: each container a list headed by its kind."""
    kind = type(value)
    if kind in SCALARS:
        return value
    if kind is tuple:
        return ["t", *(_plain(v) for v in value)]
    if kind is list:
        return ["l", *(_plain(v) for v in value)]
    if kind is frozenset:
        return ["f", *(_plain(v) for v in value)]
    if kind is dict or kind is MappingProxyType:
        return ["d" if kind is dict else "m", [_plain(k) for k in value], [_plain(v) for v in value.values()]]
    name = kind.__name__
    if data_classes().get(name) is not kind:
        raise _NotPlain(name)
    if name == "Link":
        return ["n", name, *(_plain(v) for v in value)]
    return ["o", name, {k: _plain(v) for k, v in vars(value).items()}]


def _rebuilt(value: Any) -> Any:
    if type(value) is not list:
        return value
    kind = value[0]
    if kind == "t":
        return tuple(_rebuilt(v) for v in value[1:])
    if kind == "l":
        return [_rebuilt(v) for v in value[1:]]
    if kind == "f":
        return frozenset(_rebuilt(v) for v in value[1:])
    if kind in ("d", "m"):
        found = {_rebuilt(k): _rebuilt(v) for k, v in zip(value[1], value[2], strict=True)}
        return found if kind == "d" else MappingProxyType(found)
    cls = data_classes()[value[1]]
    if kind == "n":
        return cls(*(_rebuilt(v) for v in value[2:]))
    made = object.__new__(cls)
    made.__dict__.update({k: _rebuilt(v) for k, v in value[2].items()})
    return made


def same_fields(a: Any, b: Any) -> bool:
    """Whether two data values are equal field by field, the fields that take no part in == included (tests)."""
    if type(a) is not type(b):
        return False
    if hasattr(a, "__dataclass_fields__"):
        return (
            all(same_fields(getattr(a, f.name), getattr(b, f.name)) for f in fields(a))
            and vars(a).keys() == vars(b).keys()
        )
    if isinstance(a, (tuple, list, frozenset)) and not isinstance(a, str):
        if isinstance(a, frozenset):
            return a == b
        return len(a) == len(b) and all(same_fields(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, (dict, MappingProxyType)):
        return list(a) == list(b) and all(same_fields(a[k], b[k]) for k in a)
    return bool(a == b)
