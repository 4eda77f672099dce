"""What every ruleset's ruleset.toml holds, read with checks that name the file and the key: RulesetSource (one data
file), RulesetInfo (the keys every ruleset has), the [help] and [demo] tables. Apart from protocol.py, so that the
help texts read the rulesets' words without importing the protocol (adjudicator/engine/protocol.py documents the
whole contract)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from adjudicator import resources
from adjudicator.errors import PbemError


class RulesetDataError(PbemError, ValueError):
    """A ruleset's data file lacks a key or holds a wrong value: the message names the file and the key."""


_MISSING: Any = object()


@dataclass(frozen=True)
class RulesetSource:
    """One data file of a ruleset (ruleset.toml or a file it names), read with checks that name file and key."""

    folder: Path
    data: Mapping[str, Any]
    file: str = "ruleset.toml"

    @classmethod
    def open(cls, folder: Path, file: str = "ruleset.toml") -> RulesetSource:
        path = folder / file
        try:
            data = resources.toml_table(path.read_text(encoding="utf-8"))
        except OSError as error:
            raise RulesetDataError(f"{path}: cannot be read ({error.strerror or error})") from None
        except resources.TOMLDecodeError as error:
            raise RulesetDataError(f"{path}: not valid TOML ({error})") from None
        return cls(folder, data, file)

    def error(self, key: str, problem: str) -> RulesetDataError:
        return RulesetDataError(f"{self.folder / self.file}: {key}: {problem}")

    def value(self, key: str, kind: type | tuple[type, ...], default: Any = _MISSING) -> Any:
        """The value of `key` (dotted for nested tables), which must be of `kind`; `default` when absent."""
        value: Any = self.data
        for part in key.split("."):
            if not isinstance(value, Mapping) or part not in value:
                if default is not _MISSING:
                    return default
                raise self.error(key, "missing")
            value = value[part]
        if not isinstance(value, kind) or (isinstance(value, bool) and bool not in _kinds(kind)):
            raise self.error(key, f"expected {_kind_names(kind)}, found {type(value).__name__} {value!r}")
        return value

    def text(self, key: str, default: Any = _MISSING) -> str:
        return self.value(key, str, default)

    def strings(self, key: str, default: tuple[str, ...] | Any = _MISSING) -> tuple[str, ...]:
        """A list of strings."""
        items = self.value(key, list, default)
        for index, item in enumerate(items):
            if not isinstance(item, str):
                raise self.error(f"{key}[{index}]", f"expected a string, found {item!r}")
        return tuple(items)

    def table(self, key: str, default: Any = _MISSING) -> Mapping[str, Any]:
        return self.value(key, dict, default)

    def tables(self, key: str) -> list[RulesetSource]:
        """An array of tables ([[key]]), each as a source whose keys the errors name as `key[i].inner`."""
        items = self.value(key, list)
        found = []
        for index, item in enumerate(items):
            if not isinstance(item, dict):
                raise self.error(f"{key}[{index}]", f"expected a table, found {item!r}")
            found.append(_Nested(self.folder, item, self.file, f"{key}[{index}]."))
        return found

    def read_toml(self, key: str) -> RulesetSource:
        """The TOML file that `key` names, relative to the ruleset's folder."""
        return RulesetSource.open(self.folder, self.text(key))


@dataclass(frozen=True)
class _Nested(RulesetSource):
    prefix: str = ""

    def error(self, key: str, problem: str) -> RulesetDataError:
        return RulesetDataError(f"{self.folder / self.file}: {self.prefix}{key}: {problem}")


def _kinds(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)


def _kind_names(kind: type | tuple[type, ...]) -> str:
    names = {str: "a string", int: "an integer", list: "a list", dict: "a table", bool: "true or false"}
    return " or ".join(names.get(k, k.__name__) for k in _kinds(kind))


# The topics of a ruleset's [help] table: what `pbem`'s help texts say of the game (adjudicator/cli/commands.py).
HELP_TOPICS: Final = {
    "game": "the game's name where `pbem --help` names the game the tool is first for",
    "players": "the number of seats a game takes, e.g. '2 to 6'",
    "seat": "a seat's name, for the examples of `pbem new` (SEAT=EMAIL)",
    "other_seat": "another seat's name, for a second example",
    "modes": "the game's modes, e.g. 'short or long'",
    "option": "an example of a game option, KEY=VALUE, e.g. 'rounds=5'",
    "odds_attacker": "the forms of `pbem odds --attacker`",
    "odds_defender": "the forms of `pbem odds --defender`",
    "odds_orders": "the standing orders an odds orders file may hold",
    "odds_area": "what `pbem odds --area` names",
    "odds_naval": "what `pbem odds --naval` makes of the battle",
    "odds": "the forms of `pbem odds` in one paragraph, for a ruleset whose forms are not the options' own",
    "odds_game_data": "what `pbem odds --game-data` gives",
    "game_data": "what the game data a moderator supplies holds (`pbem data`)",
}


def read_help(source: RulesetSource) -> dict[str, str]:
    """The [help] table: each key a topic of HELP_TOPICS, each value a string."""
    table = source.table("help", {})
    for key in table:
        if key not in HELP_TOPICS:
            raise source.error(f"help.{key}", f"unknown help topic; known: {', '.join(HELP_TOPICS)}")
    return {key: source.text(f"help.{key}") for key in table}


def read_demo(source: RulesetSource) -> dict[str, Any]:
    """The [demo] table, checked: `orders` and `help` strings, `seats` a table of mail addresses, `game` a string."""
    if "demo" not in source.data:
        return {}
    seats = source.table("demo.seats")
    for seat in seats:
        source.text(f"demo.seats.{seat}")
    return {
        "orders": source.text("demo.orders"),
        "help": source.text("demo.help"),
        "game": source.text("demo.game", "demo"),
        "seats": dict(seats),
    }


@dataclass(frozen=True)
class RulesetInfo:
    """The keys of ruleset.toml that every ruleset has."""

    name: str
    title: str
    description: str
    aliases: tuple[str, ...]
    engine: str
    folder: Path
    decisions_rule: str = ""  # the rule ID of the game's decisions (answer, standing order, default), for messages
    help: Mapping[str, str] = field(default_factory=dict)  # [help]: topic -> text (HELP_TOPICS)
    demo: Mapping[str, Any] = field(default_factory=dict)  # [demo]: its scripted demo game, {} for none

    @classmethod
    def read(cls, source: RulesetSource) -> RulesetInfo:
        return cls(
            name=source.text("name"),
            title=source.text("title"),
            description=source.text("description"),
            aliases=source.strings("aliases", ()),
            engine=source.text("engine"),
            folder=source.folder,
            decisions_rule=source.text("decisions_rule", ""),
            help=read_help(source),
            demo=read_demo(source),
        )

    @property
    def module(self) -> str:
        """The dotted path of the engine module (a bare name is a package under adjudicator.rulesets)."""
        return self.engine if "." in self.engine else f"adjudicator.rulesets.{self.engine}.ruleset"
