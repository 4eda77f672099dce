"""Where the shipped data folders (grammar/, templates/, games/) are, installed or in a source tree; and the TOML
files of those folders read through a cache of their parsed tables."""

from __future__ import annotations

import hashlib
import marshal
import os
import sys
from pathlib import Path
from typing import Any

_PACKAGE = Path(__file__).resolve().parent


def resource_dir(name: str) -> Path:
    """The folder `name`: inside the installed package, else beside it in the source tree."""
    for candidate in (_PACKAGE / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"data folder {name!r} is missing from the installation ({_PACKAGE})")


def cache_dir() -> Path:
    """The user's cache folder of this tool (XDG_CACHE_HOME, else ~/.cache): compiled artefacts a command would
    otherwise rebuild in every process. Nothing in it is needed: a missing or unwritable folder costs time only."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "pbem"


# Parsed tables by the digest of their text, marshalled: loads gives each caller its own copy to change.
_TABLES: dict[str, bytes] = {}


def toml_table(text: str) -> dict[str, Any]:
    """`tomllib.loads(text)`, from the cache when this text was parsed before (by any process of this user).

    tomllib is pure Python, and importing it alone costs a per-mail command more than parsing its order mail: the
    rulesets' and keywords' files are read through here. The cache is keyed by the text's digest (and this
    Python's marshal format), so a changed file is parsed again; it holds marshal data, which loads no code. Bad
    TOML raises tomllib's error (TOMLDecodeError below), as before."""
    key = hashlib.sha256(f"{sys.version_info[:2]}:{marshal.version}\0{text}".encode()).hexdigest()
    packed = _TABLES.get(key)
    if packed is not None:
        return marshal.loads(packed)
    path = cache_dir() / "toml" / f"{key}.marshal"
    try:
        packed = path.read_bytes()
        table = marshal.loads(packed)
    except (OSError, EOFError, ValueError, TypeError):
        table = None
    if not isinstance(table, dict):
        import tomllib

        table = tomllib.loads(text)
        try:
            packed = marshal.dumps(table)
        except ValueError:  # a value marshal cannot hold (a TOML date): parsed every time
            return table
        _store(path, packed)
    _TABLES[key] = packed
    return table


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
