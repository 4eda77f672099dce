"""The base class of every ruleset: the defaults of the Ruleset protocol (engine/protocol.py), so that a ruleset
writes only what its game does differently (DESIGN.md, "What a ruleset is").

A ruleset subclasses RulesetBase, sets `info` (its RulesetInfo, which gives name, title, description, aliases and
folder) and writes the members of its game: seats (`seat_names`, `lookup_seat`), `initial_state`, `due`,
`play_step`, `check_orders`, `broken_invariants`, `seats_of`, `snapshot`, `read_snapshot`, `grammar_files` and
`order_builder`. A member it does not write refuses with NotImplementedError naming it, or, on a ruleset whose
games are played with the moderator's data and that is not bound to any yet, with one NeedsGameData that says how
to give the data.

The defaults, each overridden where a game differs:
- the steps: `steps_done` reads `state.steps_done`, `round_of` reads `state.round` (0 for a state without one);
  `coming_steps` is the due step alone and `next_steps` gives it to every seat of the game;
- snapshots: `snapshot_text` is `snapshot` as the envelope's canonical text (engine/envelope.py);
  `read_stored_snapshot` reads an archived text with every check of `read_snapshot`;
- events and reports: stored events carry their own visibility, reports tell the events as they are, and the
  report context names the coming steps;
- the demo: ruleset.toml's [demo] table (none: `pbem demo` lets its bot play); the help texts read [help];
- optional facts: no hidden information, a report mail per step, numbers only in dice files, a six-sided die, no
  templates, map, bot or odds;
- game data: none. A ruleset whose printed facts the moderator supplies sets `game_data` (its data format) and
  overrides `with_game_data`, which returns the ruleset bound to one game's data; for every other ruleset binding is
  the identity.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from adjudicator.engine.protocol import EVERYONE
from adjudicator.engine.vocabulary import Event
from adjudicator.errors import PbemError

if TYPE_CHECKING:
    from adjudicator.engine.chance import Dice
    from adjudicator.engine.protocol import BattleOdds, Bot, GameDataFormat, Ruleset
    from adjudicator.engine.ruleset_source import RulesetInfo
    from adjudicator.engine.steps import Step, StepResult
    from adjudicator.engine.vocabulary import AttackOdds, OrderResult


class NeedsGameData(PbemError):
    """A member of play was called on a ruleset whose games are played with the moderator's data (ER-13) before it
    was bound to a game's data."""


class RulesetBase:
    """The defaults of the Ruleset protocol; a ruleset overrides what its game does differently."""

    info: RulesetInfo

    # -- who it is: ruleset.toml's keys -----------------------------------------------------------------------------
    @property
    def name(self) -> str:
        return self.info.name

    @property
    def title(self) -> str:
        return self.info.title

    @property
    def description(self) -> str:
        return self.info.description

    @property
    def aliases(self) -> tuple[str, ...]:
        return self.info.aliases

    @property
    def decisions_rule(self) -> str:
        return self.info.decisions_rule

    @property
    def folder(self) -> Path:
        return self.info.folder

    @property
    def demo(self) -> Mapping[str, Any]:
        """Its scripted demo game ([demo] of ruleset.toml); empty: `pbem demo` lets its bot play."""
        return self.info.demo

    @property
    def symbol_dice(self) -> bool:
        """A ruleset whose dice files may write words for draws rolls dice with symbols."""
        return bool(self.dice_words)

    # -- facts with a default ---------------------------------------------------------------------------------------
    hidden_information: bool = False
    grouped_reports: bool = False
    shared_steps: bool = False
    dice_words: Mapping[str, int] = MappingProxyType({})  # a dice file holds numbers only
    largest_draw: int = 6  # a six-sided die
    templates: Path | None = None
    map_layers: Any = None
    bot: Bot | None = None
    odds: BattleOdds | None = None

    # -- game data: none unless the ruleset's printed facts are the moderator's to supply ---------------------------
    game_data: GameDataFormat | None = None
    example_data: Path | None = None
    data_digest: str = ""  # the digest of the data files a bound ruleset plays with (engine/envelope.py)

    @property
    def takes_game_data(self) -> bool:
        return self.game_data is not None

    def with_game_data(
        self, files: Mapping[str, str], mode: str | None = None, options: Mapping[str, str] | None = None
    ) -> Ruleset:
        """A ruleset whose data ships with it is its own binding."""
        if self.takes_game_data:
            raise NotImplementedError(f"ruleset {self.name} takes game data but does not implement with_game_data")
        return self

    def cannot_play(self, member: str) -> Exception:
        """The refusal of a member of play the ruleset does not write: an unbound data ruleset names its data."""
        if self.takes_game_data:
            return NeedsGameData(
                f"{self.name}: a game is played with its data: `pbem new --ruleset {self.name} --game-data DIR`"
            )
        return NotImplementedError(f"ruleset {self.name} does not implement {member} (engine/protocol.py)")

    # -- what every game writes -------------------------------------------------------------------------------------
    @property
    def seat_names(self) -> tuple[str, ...]:
        raise self.cannot_play("seat_names")

    def lookup_seat(self, text: str) -> list[str]:
        raise self.cannot_play("lookup_seat")

    def seat_title(self, seat: str) -> str:
        return seat

    seats_by_players: Mapping[int, tuple[str, ...]] = MappingProxyType({})  # any seats of seat_names

    def initial_state(self, game: str, seats: list[str]) -> Any:
        raise self.cannot_play("initial_state")

    def due(self, state: Any) -> Step | None:
        raise self.cannot_play("due")

    def play_step(self, state: Any, step: Step, *given: Any, **options: Any) -> StepResult:
        """Its signature is the protocol's (engine/protocol.py)."""
        raise self.cannot_play("play_step")

    def check_orders(self, state: Any, seat: str, number: int, orders: Any, chance: Dice) -> list[OrderResult]:
        raise self.cannot_play("check_orders")

    def attack_odds(self, state: Any, seat: str, number: int, orders: Any) -> list[AttackOdds]:
        return []  # a ruleset without odds prints none in its receipts

    def decision_odds(self, state: Any, seat: str, key: str, point: Any = None) -> list[tuple[str, AttackOdds]]:
        return []  # nor in its decision notices

    def broken_invariants(self, state: Any) -> list[str]:
        raise self.cannot_play("broken_invariants")

    def seats_of(self, state: Any) -> tuple[str, ...]:
        raise self.cannot_play("seats_of")

    def snapshot(self, state: Any, viewer: str | None = EVERYONE) -> dict[str, Any]:
        raise self.cannot_play("snapshot")

    def read_snapshot(self, data: Any) -> Any:
        raise self.cannot_play("read_snapshot")

    @property
    def grammar_files(self) -> tuple[Path, ...]:
        raise self.cannot_play("grammar_files")

    def order_builder(self) -> Any:
        raise self.cannot_play("order_builder")

    # -- the steps --------------------------------------------------------------------------------------------------
    def steps_done(self, state: Any) -> int:
        return state.steps_done

    def round_of(self, state: Any) -> int:
        return getattr(state, "round", 0)

    def coming_steps(self, state: Any) -> list[Step]:
        """The due step alone: a game whose rounds are longer says which steps are still to come."""
        step = self.due(state)
        return [step] if step is not None else []

    def next_steps(self, state: Any) -> dict[str, int]:
        """Every seat of the game orders next in the due step."""
        step = self.due(state)
        return dict.fromkeys(self.seats_of(state), step.number) if step is not None else {}

    # -- snapshots and events ---------------------------------------------------------------------------------------
    def snapshot_text(self, state: Any, viewer: str | None = EVERYONE) -> str:
        from adjudicator.engine.envelope import envelope_text  # here: `pbem check` writes none (its start-up)

        return envelope_text(self.snapshot(state, viewer))

    def read_stored_snapshot(self, text: str) -> Any:
        return self.read_snapshot(json.loads(text))

    def read_event(self, stored: Mapping[str, Any]) -> Event:
        return Event.from_json(stored)

    # -- reports ----------------------------------------------------------------------------------------------------
    def report_events(self, events: list[Event], before: Mapping[str, Any] | None) -> list[Event]:
        return events

    def report_context(self, state: Any) -> dict[str, Any]:
        return {"coming": self.next_steps(state)}
