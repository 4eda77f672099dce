"""Where the shipped data folders (grammar/, templates/, games/) are, installed or in a source tree; and the TOML
files of those folders read through a cache of their parsed tables."""

from __future__ import annotations

import hashlib
import marshal
import os
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

_PACKAGE = Path(__file__).resolve().parent


@cache  # asked by every report's render (its ruleset's templates): two stat calls each
def resource_dir(name: str) -> Path:
    """The folder `name`: inside the installed package, else beside it in the source tree."""
    for candidate in (_PACKAGE / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"data folder {name!r} is missing from the installation ({_PACKAGE})")


# What writes the texts pbem mails: its code, templates, catalogues, grammars and rulesets (the data folders shipped
# inside the package when installed, beside it in a source tree; games/ holds each ruleset's templates and words)
TEXT_FOLDERS = ("templates", "locale", "grammar", "games")
TEXT_SUFFIXES = frozenset({".py", ".j2", ".po", ".mo", ".lark", ".toml"})


@cache
def release() -> str:
    """This pbem's version and a digest of everything that writes its texts, e.g. '0.1.0+1a2b3c4d5e6f': two
    installations of the same release give the same, a changed template or sentence another. Every mail names it
    (VERSION_HEADER), so that a player's check compares a text only with what its own code would write."""
    from adjudicator import __version__

    digest = hashlib.sha256()
    code = (p for p in _PACKAGE.rglob("*.py") if p.relative_to(_PACKAGE).parts[0] not in TEXT_FOLDERS)
    files = [(p.relative_to(_PACKAGE).as_posix(), p) for p in code]
    for name in TEXT_FOLDERS:
        folder = resource_dir(name)
        files += [
            (f"{name}/{p.relative_to(folder).as_posix()}", p) for p in folder.rglob("*") if p.suffix in TEXT_SUFFIXES
        ]
    for name, path in sorted(files):
        digest.update(f"{name}\0{path.stat().st_size}\0".encode() + path.read_bytes())
    return f"{__version__}+{digest.hexdigest()[:12]}"


def cache_dir() -> Path:
    """The user's cache folder of this tool (XDG_CACHE_HOME, else ~/.cache): compiled artefacts a command would
    otherwise rebuild in every process. Nothing in it is needed: a missing or unwritable folder costs time only."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "pbem"


# Values of the cache folder by kind and digest, marshalled: loads gives each caller its own copy to change.
_KEPT: dict[tuple[str, str], bytes] = {}


def kept(kind: str, source: bytes, make: Callable[[], Any]) -> Any:
    """`make()`, a value made of `source` (plain data: str, bytes, numbers, lists, tuples, dicts), from the cache
    folder when a process of this user made it before from the same source.

    The entry is found by the digest of `source` (and this Python's marshal format), so a changed source is made
    again; it holds marshal data, which runs no code when loaded. A value marshal cannot hold is made every
    time; a damaged entry is made again."""
    key = hashlib.sha256(f"{kind}:{sys.version_info[:2]}:{marshal.version}\0".encode() + source).hexdigest()
    packed = _KEPT.get((kind, key))
    if packed is not None:
        return marshal.loads(packed)
    path = cache_dir() / kind / f"{key}.marshal"
    try:
        packed = path.read_bytes()
        _KEPT[kind, key] = packed
        return marshal.loads(packed)
    except (OSError, EOFError, ValueError, TypeError):
        pass
    value = make()
    try:
        packed = marshal.dumps(value)
    except ValueError:  # not plain data (a TOML date, say)
        return value
    _store(path, packed)
    _KEPT[kind, key] = packed
    return value


def toml_table(text: str) -> dict[str, Any]:
    """`tomllib.loads(text)`, kept in the cache folder (`kept`): tomllib is pure Python, and importing it alone cost
    a per-mail command more than parsing its order mail; the rulesets' and keywords' files are read through here.
    Bad TOML raises tomllib's error (TOMLDecodeError below), as before."""

    def parsed() -> dict[str, Any]:
        import tomllib

        return tomllib.loads(text)

    return kept("toml", text.encode(), parsed)


def __getattr__(name: str) -> Any:
    """`resources.TOMLDecodeError` is tomllib's, imported only when an `except` clause asks for it."""
    if name == "TOMLDecodeError":
        import tomllib

        return tomllib.TOMLDecodeError
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _store(path: Path, packed: bytes) -> None:
    """Write a cache file whole (a temporary file renamed), or not at all."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        temporary.write_bytes(packed)
        os.replace(temporary, path)
    except OSError:
        pass
