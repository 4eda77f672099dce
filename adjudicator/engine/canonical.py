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
        if type(value) is dict and value:
            return _outer(value)
        return _text(value, "\n")
    except (_NotPlain, RecursionError):
        return json.dumps(value, ensure_ascii=False, sort_keys=True, indent=1)


# The parts of a snapshot that its views share (a step writes the public part in the archive's snapshot, the
# public view and each seat's): the text of a part at the first level, by its compact JSON, which the C encoder
# writes several times faster. Only whitespace tells the two texts apart, so equal compact texts have equal
# indented texts. Oldest first, bounded.
_PARTS: dict[str, str] = {}
PARTS_KEPT = 64
_compact = json.JSONEncoder(ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode


def _outer(value: dict[str, Any]) -> str:
    """A dict at the top level: each dict in it by way of _PARTS."""
    parts = []
    for key, item in sorted(value.items()):
        if type(key) is not str:
            raise _NotPlain
        if type(item) is dict and item:
            try:
                compact = _compact(item)
            except (TypeError, ValueError):
                raise _NotPlain from None
            text = _PARTS.get(compact)
            if text is None:
                text = _PARTS[compact] = _text(item, "\n ")
                if len(_PARTS) > PARTS_KEPT:
                    del _PARTS[next(iter(_PARTS))]
        else:
            text = _text(item, "\n ")
        parts.append(_encode_string(key) + ": " + text)
    return "{\n " + ",\n ".join(parts) + "\n}"


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
