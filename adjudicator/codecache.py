"""The methods `dataclasses` writes for each dataclass (__init__, __eq__, __repr__, __hash__ ...), compiled once per
user instead of in every process.

The standard library makes them by compiling a small source text per method (Python 3.11: one `exec` each), and
the package defines some two hundred dataclasses: compiling their methods was a fifth of the CPU time of a
`pbem verify` of a Conqueror game. The same source text always compiles to the same code, so the code objects
are kept in the cache folder (resources.cache_dir), marshalled, in one file per Python build (its sys.version),
keyed by their exact source text; a text not found there is compiled as before. The methods made are the ones
`dataclasses` would make, character for character of their source. Nothing in the file is needed: a missing,
damaged or unwritable file costs time only."""

from __future__ import annotations

import atexit
import builtins
import dataclasses
import marshal
import os
import sys
from types import CodeType
from typing import Any

KIND = "dataclass-code"
MOST = 5000  # entries kept in the file: the newest (the package's own are some thousand)

_codes: dict[str, CodeType] = {}
_added: list[str] = []  # texts compiled by this process that the file did not hold
_loaded: list[bool] = []  # whether the file was read


def cache_file() -> str:
    """This Python build's file of compiled dataclass methods."""
    import hashlib

    from adjudicator.resources import cache_dir

    build = hashlib.sha256(f"{sys.version}:{marshal.version}".encode()).hexdigest()[:16]
    return os.path.join(cache_dir(), KIND, f"{sys.implementation.cache_tag}-{build}.marshal")


def install() -> None:
    """Route the `exec` of `dataclasses` through the kept code, once per process (before any dataclass of the
    package is defined)."""
    if vars(dataclasses).get("exec") is _exec:
        return
    dataclasses.exec = _exec  # type: ignore[attr-defined]  # a module global shadows the builtin there alone
    atexit.register(_save)


def _exec(source: Any, globals: dict[str, Any] | None = None, locals: dict[str, Any] | None = None) -> None:
    """`exec` as dataclasses calls it, with the code of a source text compiled once."""
    if type(source) is str:
        if not _loaded:  # read on the first dataclass made: a process that makes none does not pay for it
            _loaded.append(True)
            _codes.update(_read(cache_file()))
        code = _codes.get(source)
        if code is None:
            # no __future__ flags of this module: the code exec compiles within dataclasses, which has none
            code = _codes[source] = compile(source, "<string>", "exec", dont_inherit=True)
            _added.append(source)
        source = code
    builtins.exec(source, globals, locals)


def _read(path: str) -> dict[str, CodeType]:
    try:
        with open(path, "rb") as kept:
            found = marshal.loads(kept.read())
    except (OSError, EOFError, ValueError, TypeError):
        return {}
    if not isinstance(found, dict):
        return {}
    return {text: code for text, code in found.items() if type(text) is str and type(code) is CodeType}


def _save() -> None:
    """Write the file again with what this process compiled (the newest MOST entries), whole or not at all."""
    if not _added:
        return
    path = cache_file()
    kept = _read(path) | {text: _codes[text] for text in _added}
    packed = marshal.dumps(dict(list(kept.items())[-MOST:]))
    temporary = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(temporary, "wb") as out:
            out.write(packed)
        os.replace(temporary, path)
    except OSError:
        pass
    _added.clear()
