"""The canonical JSON text of a snapshot: json.dumps(value, ensure_ascii=False, sort_keys=True, indent=1), character
for character, written faster.

With an indent json.dumps runs its pure-Python encoder (a generator per nesting level), which costs more than the
rest of a Conqueror step's bookkeeping: a step writes the archive's snapshot and each seat's view of it. This writes
the same text for the plain data of a snapshot (dicts with string keys, lists, tuples, strings, integers, booleans,
null) and leaves anything else (floats, other keys, subclasses) to json.dumps itself."""

from __future__ import annotations

import json
from typing import Any

_encode_string = json.encoder.encode_basestring  # what json.dumps(ensure_ascii=False) writes a string with


class _NotPlain(Exception):
    """A value _text does not write itself: json.dumps writes the whole text instead."""


def canonical_text(value: Any) -> str:
    """json.dumps(value, ensure_ascii=False, sort_keys=True, indent=1), character for character."""
    try:
        return _text(value, "\n")
    except (_NotPlain, RecursionError):
        return json.dumps(value, ensure_ascii=False, sort_keys=True, indent=1)


def _text(value: Any, newline: str) -> str:
    """`value` as json.dumps writes it at the indentation of `newline` ("\n" and one space a level)."""
    kind = type(value)
    if kind is str:
        return _encode_string(value)
    if kind is dict:
        if not value:
            return "{}"
        inner = newline + " "
        parts = []
        for key, item in sorted(value.items()):  # sort_keys sorts the items before it writes a key
            if type(key) is not str:
                raise _NotPlain
            parts.append(_encode_string(key) + ": " + _text(item, inner))
        return "{" + inner + ("," + inner).join(parts) + newline + "}"
    if kind is list or kind is tuple:
        if not value:
            return "[]"
        inner = newline + " "
        return "[" + inner + ("," + inner).join([_text(item, inner) for item in value]) + newline + "]"
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if kind is int:
        return int.__repr__(value)
    raise _NotPlain
