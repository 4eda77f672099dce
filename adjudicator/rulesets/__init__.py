"""Ruleset registry: a ruleset is a folder <name>/ of data (ruleset.toml) plus a module implementing the
Ruleset protocol (adjudicator/engine/protocol.py, where the whole contract is documented).

The folders are the package's games/ and those named by PBEM_RULESETS (os.pathsep-separated), so that a
moderator, and the tests, can add rulesets without touching the package."""

from __future__ import annotations

import importlib
import os
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from adjudicator.engine.ruleset_source import RulesetDataError, RulesetInfo, RulesetSource
from adjudicator.errors import PbemError
from adjudicator.resources import resource_dir
from adjudicator.settings import DEFAULT_RULESET  # the help texts give its words first

__all__ = [
    "DEFAULT_RULESET",
    "Ruleset",
    "RulesetDataError",
    "UnknownRuleset",
    "load_ruleset",
    "ruleset_folders",
    "ruleset_infos",
    "ruleset_names",
]

if TYPE_CHECKING:
    from adjudicator.engine.protocol import Ruleset

EXTRA_FOLDERS = "PBEM_RULESETS"  # the environment variable naming folders of more rulesets


def __getattr__(name: str) -> Any:
    """`Ruleset` (the protocol) is imported by those who name it: the help texts read the registry without it."""
    if name == "Ruleset":
        from adjudicator.engine.protocol import Ruleset

        return Ruleset
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class UnknownRuleset(PbemError, LookupError):
    pass


def ruleset_folders() -> dict[str, Path]:
    """Every ruleset's name -> its folder: the package's games/ first, then the PBEM_RULESETS folders."""
    return dict(_folders(os.environ.get(EXTRA_FOLDERS, "")))


@cache  # looked up per snapshot read and map drawn: the folders are listed once per value of PBEM_RULESETS
def _folders(extra: str) -> tuple[tuple[str, Path], ...]:
    # absolute: the renderer reads a ruleset's templates by absolute path, whatever the working folder
    roots = [resource_dir("games")] + [Path(p).absolute() for p in extra.split(os.pathsep) if p]
    found: dict[str, Path] = {}
    for root in roots:
        if root.is_dir():
            for folder in sorted(root.iterdir()):
                if (folder / "ruleset.toml").is_file():
                    found.setdefault(folder.name, folder)
    return tuple(found.items())


def ruleset_names() -> list[str]:
    return sorted(ruleset_folders())


def ruleset_infos() -> tuple[RulesetInfo, ...]:
    """The ruleset.toml keys of every ruleset whose file reads (its code is not imported), DEFAULT_RULESET first, then
    by name: what the help texts say of each (`[help]`, `[demo]`). A folder that does not read is left out here;
    `pbem rulesets` names its problem."""
    return _infos(os.environ.get(EXTRA_FOLDERS, ""))


@cache
def _infos(extra: str) -> tuple[RulesetInfo, ...]:
    found = []
    for _, folder in _folders(extra):
        try:
            found.append(RulesetInfo.read(RulesetSource.open(folder)))
        except RulesetDataError:
            continue
    return tuple(sorted(found, key=lambda info: (info.name != DEFAULT_RULESET, info.name)))


def load_ruleset(name: str) -> Ruleset:
    """Find a ruleset by name or alias; raise UnknownRuleset naming the known ones."""
    return _load(name, os.environ.get(EXTRA_FOLDERS, ""))


@cache
def _load(name: str, extra: str) -> Ruleset:
    folders = _folders(extra)
    for candidate, folder in folders:
        source = RulesetSource.open(folder)
        if name == candidate or name in source.data.get("aliases", ()):
            return _built(source)
    known = ", ".join(sorted(candidate for candidate, _ in folders))
    raise UnknownRuleset(f"unknown ruleset {name!r}; known rulesets: {known}")


_BUILT: dict[Path, Ruleset] = {}  # one object per ruleset folder, whatever name or alias found it


def _built(source: RulesetSource) -> Ruleset:
    if source.folder not in _BUILT:
        _BUILT[source.folder] = importlib.import_module(RulesetInfo.read(source).module).load(source)
    return _BUILT[source.folder]
