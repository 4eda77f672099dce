"""Limits on a moderator's data file, checked before it is parsed: a file too large for what play can use, or
lists and tables nested so deep that a parser would recurse past Python's stack, is refused with a message that
names the problem (and the line), never a traceback. Game-neutral: a ruleset's loader and the services use it
for TOML data files and for the JSON the archive stores them in."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Final


def _(msgid: str) -> str:
    """Marks a msgid for extraction; the reader's command translates it where it is shown."""
    return msgid


# A data file of a printed game (the map of one board side, every card with a short text of one's own) is some
# 10-50 kB; 256 KiB leaves room for long private wordings and keeps an archive's stored copy small.
FILE_MOST_BYTES: Final = 256 * 1024
# The deepest data a game reads is an effect's condition list inside an effect list inside a table (3 levels),
# the header of an array of tables 2: 10 leaves room and keeps a recursive parser far from Python's limit.
NESTING_MOST: Final = 10

TOO_LARGE = _("the file is %(size)s bytes; a data file is at most %(most)s bytes")
TOO_DEEP = _("lists and tables nest more than %(most)s deep at line %(line)s")

# Strings and comments (whose brackets do not nest), each bracket or brace, and line ends. TOML's multi-line
# strings come first; JSON is read the same way (it has no comments or single quotes outside its strings).
_TOKENS = re.compile(
    r'#[^\n]*|"""(?:\\.|[^\\])*?"""|\'\'\'.*?\'\'\'|"(?:\\.|[^"\\\n])*"|\'[^\'\n]*\'|[\[\]{}\n]',
    re.DOTALL,
)


class DataFileRefused(ValueError):
    """A data file beyond the limits: its message as a msgid with values, for the reader's language."""

    def __init__(self, msgid: str, **values: Any) -> None:
        super().__init__(msgid % values)
        self.msgid = msgid
        self.values = values


def check_size(size: int, most: int = FILE_MOST_BYTES) -> None:
    """Refuse `size` bytes beyond `most`."""
    if size > most:
        raise DataFileRefused(TOO_LARGE, size=size, most=most)


def check_nesting(text: str, most: int = NESTING_MOST) -> None:
    """Refuse text whose brackets and braces (outside strings and comments) nest deeper than `most`, naming the
    line where they first do; scanned without recursion, before any parser sees the text."""
    depth, line = 0, 1
    for token in _TOKENS.finditer(text):
        found = token.group()
        if found in ("[", "{"):
            depth += 1
            if depth > most:
                raise DataFileRefused(TOO_DEEP, most=most, line=line)
        elif found in ("]", "}"):
            depth = max(0, depth - 1)
        else:
            line += found.count("\n")


def read_data_file(path: Path, most_bytes: int = FILE_MOST_BYTES, most_nesting: int = NESTING_MOST) -> str:
    """The text of `path` once its size (before reading it) and its nesting are within the limits; OSError and
    UnicodeDecodeError as reading raises them."""
    check_size(path.stat().st_size, most_bytes)
    text = path.read_text(encoding="utf-8")
    check_nesting(text, most_nesting)
    return text
