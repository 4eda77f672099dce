"""The methods `dataclasses` writes for each dataclass (__init__, __eq__, __repr__, __hash__ ...), compiled once per
user instead of in every process.

The standard library makes them by compiling a small source text per method (Python 3.11: one `exec` each), and
the package defines some two hundred dataclasses: compiling their methods was a fifth of the CPU time of a
`pbem verify` of a Conqueror game. The same source text always compiles to the same code, so the code objects
are kept in the cache folder (resources.cache_dir), marshalled, in a folder per Python build (its sys.version)
with a file per module that defines dataclasses (read when that module makes its first one), keyed by their exact
source text; a text not found there is compiled as before. The methods made are the ones `dataclasses` would
make, character for character of their source. Nothing in the files is needed: a missing, damaged or unwritable
file costs time only."""

from __future__ import annotations

import atexit
import builtins
import dataclasses
import marshal
import os
import sys
from functools import cache
from types import CodeType
from typing import Any

KIND = "dataclass-code"
MOST = 1000  # entries kept in one module's file: the newest

_codes: dict[str, dict[str, CodeType]] = {}  # module -> source text -> its code
_added: dict[str, list[str]] = {}  # module -> texts compiled by this process that its file did not hold


@cache
def cache_folder() -> str:
    """This Python build's folder of compiled dataclass methods."""
    import hashlib

    from adjudicator.resources import cache_dir

    build = hashlib.sha256(f"{sys.version}:{marshal.version}".encode()).hexdigest()[:16]
    return os.path.join(cache_dir(), KIND, f"{sys.implementation.cache_tag}-{build}")


def cache_file(module: str) -> str:
    """The file of the dataclass methods of `module` (a module name; anything else is spelt safely)."""
    name = "".join(c if c.isalnum() or c in "._" else "-" for c in module)[:150] or "-"
    return os.path.join(cache_folder(), f"{name}.marshal")


def install() -> None:
    """Route the `exec` of `dataclasses` through the kept code, once per process (before any dataclass of the
    package is defined)."""
    if vars(dataclasses).get("exec") is _exec:
        return
    dataclasses.exec = _exec  # type: ignore[attr-defined]  # a module global shadows the builtin there alone
    atexit.register(_save)


def _exec(source: Any, globals: dict[str, Any] | None = None, locals: dict[str, Any] | None = None) -> None:
    """`exec` as dataclasses calls it (with the globals of the class's module), the code of a text compiled once."""
    if type(source) is str:
        module = str((globals or {}).get("__name__", ""))
        codes = _codes.get(module)
        if codes is None:
            codes = _codes[module] = _read(cache_file(module))
        code = codes.get(source)
        if code is None:
            # no __future__ flags of this module: the code exec compiles within dataclasses, which has none
            code = codes[source] = compile(source, "<string>", "exec", dont_inherit=True)
            _added.setdefault(module, []).append(source)
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
    """Write each module's file again with what this process compiled (the newest MOST), whole or not at all."""
    for module, texts in _added.items():
        path = cache_file(module)
        kept = _read(path) | {text: _codes[module][text] for text in texts}
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
