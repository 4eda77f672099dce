"""Ruleset registry: a ruleset is a folder games/<name>/ of data plus a small module of rule hooks."""

from __future__ import annotations

import importlib
import tomllib
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

from adjudicator.engine.board import Board
from adjudicator.errors import PbemError
from adjudicator.resources import resource_dir

if TYPE_CHECKING:  # the ruleset's own types; importing them here would import the game with the registry
    from adjudicator.engine.turn import Turn
    from adjudicator.rulesets.coe.state import GameState


@dataclass(frozen=True)
class SeatInfo:
    name: str
    home: str


@dataclass
class Ruleset:
    """A ruleset's data (from games/<name>/ruleset.toml and board.toml)."""

    name: str
    title: str
    description: str
    aliases: tuple[str, ...]
    board: Board
    seats: tuple[SeatInfo, ...]
    data: dict[str, Any] = field(repr=False)

    @property
    def seat_names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.seats)

    def seat(self, name: str) -> SeatInfo:
        for s in self.seats:
            if s.name == name:
                return s
        raise KeyError(name)

    def seat_of_home(self, home: str) -> str | None:
        return next((s.name for s in self.seats if s.home == home), None)

    def lookup_seat(self, text: str) -> list[str]:
        """Seat names matching `text`: a seat name, its home province's code, name or alias, or a prefix."""
        key = text.strip().casefold()
        exact = [s.name for s in self.seats if key in (s.name.casefold(), s.home.casefold())]
        if exact:
            return exact
        homes = [self.seat_of_home(code) for code in self.board.lookup(text)]  # "Ägypten": the home's alias
        named = [s.name for s in self.seats if s.name.casefold().startswith(key)]
        return list(dict.fromkeys(named + [h for h in homes if h]))

    def rule(self, number: str) -> str:
        """This ruleset's ID of a rule the engine cites by its Classic number: rule('5.3') -> 'C-5.3'.

        An edition whose numbering differs maps the Classic numbers to its own IDs ([rule_map])."""
        mapped = self.data.get("rule_map", {}).get(number)
        return mapped or f"{self.data['rules_prefix']}-{number}"

    def edition(self, switch: str, default: Any = None) -> Any:
        """An [edition] switch of ruleset.toml (absent: the Classic behaviour, `default`)."""
        return self.data.get("edition", {}).get(switch, default)

    @property
    def hooks(self) -> Any:
        """The module of rule functions named by `engine` in ruleset.toml."""
        return importlib.import_module(f"adjudicator.rulesets.{self.data['engine']}.play")

    def initial_state(self, game: str, seats: list[str]) -> GameState:
        """Turn 0 of a new game with these seats (raises ValueError on a seat list the setup rules refuse)."""
        return self.hooks.initial_state(self, game, seats)

    def play_turn(self, turn: Turn) -> None:
        self.hooks.play_turn(turn)

    def broken_invariants(self, state: GameState) -> list[str]:
        """What in `state` breaks the ruleset's invariants (piece limits, tribute, one place per piece...)."""
        return self.hooks.broken_invariants(self, state)


class UnknownRuleset(PbemError, LookupError):
    pass


def ruleset_names() -> list[str]:
    return sorted(p.name for p in resource_dir("games").iterdir() if (p / "ruleset.toml").is_file())


@cache
def load_ruleset(name: str) -> Ruleset:
    """Find a ruleset by name or alias; raise UnknownRuleset naming the known ones."""
    for candidate in ruleset_names():
        folder = resource_dir("games") / candidate
        data = tomllib.loads((folder / "ruleset.toml").read_text(encoding="utf-8"))
        if name == candidate or name in data.get("aliases", ()):
            board_data = tomllib.loads((folder / data["board"]).read_text(encoding="utf-8"))
            return Ruleset(
                name=data["name"],
                title=data["title"],
                description=data["description"],
                aliases=tuple(data.get("aliases", ())),
                board=Board.from_data(board_data, data.get("straits_adjacent")),
                seats=tuple(SeatInfo(s["name"], s["home"]) for s in data["seat"]),
                data=data,
            )
    raise UnknownRuleset(f"unknown ruleset {name!r}; known rulesets: {', '.join(ruleset_names())}")
