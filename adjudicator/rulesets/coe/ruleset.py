"""Conquest of the Empire's implementation of the Ruleset protocol (adjudicator/engine/protocol.py), for both
editions, on the engine's defaults (engine/ruleset_base.py): the data of games/<name>/ruleset.toml and board.toml,
and the rule steps (play.py), imported only when a game is played so that reading a ruleset stays cheap (a command
runs per mail)."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from adjudicator.engine.protocol import EVERYONE
from adjudicator.engine.ruleset_base import RulesetBase
from adjudicator.engine.ruleset_source import RulesetInfo, RulesetSource
from adjudicator.engine.steps import Step, StepResult
from adjudicator.engine.vocabulary import N_
from adjudicator.resources import resource_dir
from adjudicator.rulesets.coe.board import CoeBoard

if TYPE_CHECKING:
    from types import ModuleType

    from adjudicator.engine.chance import Dice
    from adjudicator.engine.protocol import BattleOdds, Bot
    from adjudicator.engine.vocabulary import AttackOdds, Event, OrderResult
    from adjudicator.rulesets.coe.state import GameState
    from adjudicator.rulesets.coe.turn import Turn

PLAYER_TURN = "player-turn"  # CoE's one kind of step: one seat's player-turn, its six phases (C-4.2)


@dataclass(frozen=True)
class SeatInfo:
    name: str
    home: str


@dataclass
class CoeRuleset(RulesetBase):
    """A Conquest of the Empire edition: its data (ruleset.toml, board.toml) and its rule steps."""

    info: RulesetInfo
    board: CoeBoard
    seats: tuple[SeatInfo, ...]
    data: dict[str, Any] = field(repr=False)

    @cached_property
    def seat_names(self) -> tuple[str, ...]:
        # made once: the snapshot checks and the invariants ask for it some hundred times a turn
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
        found = self._rule_ids.get(number)
        if found is None:
            found = self._rule_ids[number] = self.data.get("rule_map", {}).get(number) or (
                f"{self.data['rules_prefix']}-{number}"
            )
        return found

    @cached_property
    def _rule_ids(self) -> dict[str, str]:
        # rule() of each number asked, kept: the checks ask for their rules' IDs some forty times a turn, used or not
        return {}

    def edition(self, switch: str, default: Any = None) -> Any:
        """An [edition] switch of ruleset.toml (absent: the Classic behaviour, `default`)."""
        return self.data.get("edition", {}).get(switch, default)

    @property
    def hooks(self) -> ModuleType:
        """The module of rule steps (play.py)."""
        return importlib.import_module("adjudicator.rulesets.coe.play")

    # The game (the protocol's steps; CoE has one seat per step)

    def initial_state(self, game: str, seats: list[str]) -> GameState:
        """Turn 0 of a new game with these seats (raises ValueError on a seat list the setup rules refuse)."""
        return self.hooks.initial_state(self, game, seats)

    def due(self, state: GameState) -> Step | None:
        """The active seat's player-turn (C-4.1); None when the game has ended."""
        if state.active is None:
            return None
        return Step(state.turn + 1, PLAYER_TURN, (state.active,))

    def play_step(
        self,
        state: GameState,
        step: Step,
        orders: Mapping[str, Any | None],
        chance: Dice,
        answers: Mapping[str, Mapping[str, str]],
        *,
        ask: bool = False,
        settled: frozenset[tuple[str, str]] = frozenset(),
        in_place: bool = False,
    ) -> StepResult:
        """The step's one seat plays its player-turn (rulesets/coe/turn.py `resolve`)."""
        from adjudicator.rulesets.coe.turn import resolve

        (seat,) = step.seats
        turn = resolve(self, state, orders.get(seat), chance, answers, ask, in_place=in_place, settled=settled)
        return StepResult(turn.state, turn.events, {seat: turn.order_results}, turn.pending, turn.dice)

    def play_turn(self, turn: Turn) -> None:
        self.hooks.play_turn(turn)

    def check_orders(self, state: GameState, seat: str, number: int, orders: Any, chance: Dice) -> list[OrderResult]:
        """The seat's orders played as if its player-turn `number` came now."""
        from adjudicator.rulesets.coe.turn import resolve

        position = state.copy()
        position.active, position.turn = seat, number - 1
        return resolve(self, position, orders, chance).order_results

    def attack_odds(self, state: GameState, seat: str, number: int, orders: Any) -> list[AttackOdds]:
        """The odds of the battles the orders would fight, on what the mover can know (attack_odds.py)."""
        from adjudicator.rulesets.coe.orders import Move, NavalBattle, Sail

        if not any(isinstance(order, (Move, Sail, NavalBattle)) for order in orders.orders):
            return []  # a battle needs a move or a naval battle of the mover's: no position is played for none
        from adjudicator.rulesets.coe.attack_odds import attack_odds

        return attack_odds(self, state, seat, number, orders)

    def decision_odds(self, state: GameState, seat: str, key: str, point: Any = None) -> list[tuple[str, AttackOdds]]:
        """The odds of a battle question's answers, on the battle as it stood when it arose (decision_odds.py)."""
        from adjudicator.rulesets.coe.decision_odds import decision_odds

        return decision_odds(self, state, seat, key, point)

    def broken_invariants(self, state: GameState) -> list[str]:
        """What in `state` breaks the ruleset's invariants (piece limits, tribute, one place per piece...)."""
        return self.hooks.broken_invariants(self, state)

    def seats_of(self, state: GameState) -> tuple[str, ...]:
        return tuple(state.players)

    def steps_done(self, state: GameState) -> int:
        return state.turn

    def coming_steps(self, state: GameState) -> list[Step]:
        """The player-turns of the current round still to come, starting with the active seat's (C-4.1)."""
        from adjudicator.rulesets.coe.turn import schedule

        return [Step(number, PLAYER_TURN, (seat,)) for number, seat in schedule(state)]

    def next_steps(self, state: GameState) -> dict[str, int]:
        from adjudicator.rulesets.coe.turn import coming_turns

        return coming_turns(state)

    @property
    def dice_words(self) -> Mapping[str, int]:
        """The Classic combat die's symbols (C-1.8), which a dice file may write instead of numbers."""
        from adjudicator.rulesets.coe.dice import COMBAT_DIE_SYMBOLS

        return COMBAT_DIE_SYMBOLS

    @property
    def symbol_dice(self) -> bool:
        """Classic's combat die shows symbols (C-1.8); 1984's target-number combat reads numbers (O-6.13)."""
        return self.edition("combat") != "target_number"

    # Snapshots: CoE has no hidden information, so every viewer sees the whole (schema 1, docs/snapshot.md)

    def snapshot(self, state: GameState, viewer: str | None = EVERYONE) -> dict[str, Any]:
        from adjudicator.rulesets.coe.state import to_snapshot

        return to_snapshot(state)

    def read_snapshot(self, data: Any) -> GameState:
        from adjudicator.rulesets.coe.state import from_snapshot

        return from_snapshot(data, set(self.board.areas))

    def read_stored_snapshot(self, text: str) -> GameState:
        """A snapshot text the archive wrote: checked once per process (services/positions.py stored_state)."""
        from adjudicator.rulesets.coe.state import from_stored_snapshot

        return from_stored_snapshot(text)

    def read_replayed_snapshot(self, text: str) -> GameState:
        """The position of a text that `pbem verify`'s replay under this ruleset wrote byte for byte, of a position
        that kept the invariants: read without checking it again (state.py from_stored_snapshot `kept_by`)."""
        from adjudicator.rulesets.coe.state import from_stored_snapshot

        return from_stored_snapshot(text, kept_by=self)

    def snapshot_text(self, state: GameState, viewer: str | None = EVERYONE) -> str:
        from adjudicator.rulesets.coe.state import snapshot_text

        return snapshot_text(state)

    def read_event(self, stored: Mapping[str, Any]) -> Event:
        """CoE's stored events carry no `visible_to`: their kind gives it (old archives replay byte for byte)."""
        from adjudicator.rulesets.coe.vocabulary import stored_event

        return stored_event(stored)

    def report_events(self, events: list[Event], before: Mapping[str, Any] | None) -> list[Event]:
        """With the phase headings, the hits rolled and the leaders of each land battle (told.py)."""
        from adjudicator.rulesets.coe.told import told

        return told(events, dict(before) if before is not None else None)

    def report_context(self, state: GameState) -> dict[str, Any]:
        """What a seat's report needs: its losses, and for the orders template at its end the next turn numbers,
        the prices (now, and of a seat's next turn where inflation rises as it begins), and whether the standing
        battle order is TARGETS (1984, O-14.4) or LOSSES."""
        from adjudicator.rulesets.coe.economy import level_in_turn
        from adjudicator.rulesets.coe.told import losses_of

        def prices_at(level: int) -> dict[str, int]:
            multiplier = self.data["inflation"]["multipliers"][level]
            return {piece: price * multiplier for piece, price in self.data["prices"].items()}

        targets = self.edition("combat") == "target_number"
        # a level triggered but not in force yet raises the prices of the turns it takes effect in (C-11.7, O-10.8)
        later = {seat: level_in_turn(self, state, seat) for seat in state.players}
        return {
            **super().report_context(state),  # `coming`: the next turn numbers (next_steps)
            "prices": prices_at(state.inflation),
            "turn_prices": {seat: prices_at(level) for seat, level in later.items() if level != state.inflation},
            "inflation_rule": self.rule("11.7"),
            "targets": targets,
            "losses": losses_of,
            "standings": standings(state),
        }

    # Orders, reports, maps: the parser and render branches add these names to play.py; until they are
    # merged, the shared grammar files and template folder that exist today are named here

    @property
    def grammar_files(self) -> tuple[Path, ...]:
        names = getattr(self.hooks, "GRAMMAR_FILES", ("common.lark", "coe.lark"))
        return tuple(resource_dir("grammar") / name for name in names)

    def order_builder(self) -> Any:
        return self.hooks.order_builder(self)

    @property
    def templates(self) -> Path | None:
        folder = resource_dir("templates") / "coe"
        return folder if folder.is_dir() else None

    @property
    def map_layers(self) -> Any:
        return getattr(self.hooks, "map_layers", None)

    @cached_property
    def bot(self) -> Bot:
        """The self-play bot (bot.py), imported when asked for."""
        return importlib.import_module("adjudicator.rulesets.coe.bot").CoeBot()  # type: ignore[no-any-return]

    @cached_property
    def odds(self) -> BattleOdds:
        """The exact battle odds (odds.py), imported when asked for."""
        return importlib.import_module("adjudicator.rulesets.coe.odds").CoeOdds()  # type: ignore[no-any-return]


def coe_ruleset(name: str) -> CoeRuleset:
    """The Conquest of the Empire edition `name` (an alias too); UnknownRuleset when it is none."""
    from adjudicator.rulesets import UnknownRuleset, load_ruleset

    ruleset = load_ruleset(name)
    if not isinstance(ruleset, CoeRuleset):
        raise UnknownRuleset(f"{name!r} is no edition of Conquest of the Empire")
    return ruleset


def load(source: RulesetSource) -> CoeRuleset:
    """Read and check an edition's ruleset.toml and its board (a RulesetDataError names the file and key)."""
    info = RulesetInfo.read(source)
    source.text("rules_prefix")
    straits = source.text("straits_adjacent", None)
    board_file = source.read_toml("board")
    board = CoeBoard.read_coe(board_file, straits)
    seats = tuple(SeatInfo(seat.text("name"), seat.text("home")) for seat in source.tables("seat"))
    for index, seat in enumerate(seats):
        if seat.home not in board.areas:
            raise source.error(f"seat[{index}].home", f"{seat.home!r} is no area of {board_file.file}")
    return CoeRuleset(info=info, board=board, seats=seats, data=dict(source.data))


def standings(state: GameState) -> list[dict[str, Any]]:
    """Who holds what, for the site's index (protocol.py, report_context): each seat's provinces, treasury and
    tribute, as the public report's position shows them."""
    return [
        {
            "seat": seat,
            "eliminated": player.eliminated,
            "held": [code for code, area in state.areas.items() if area.owner == seat],
            "figures": [(N_("Treasury"), player.treasury), (N_("Tribute"), player.tribute)],
        }
        for seat, player in state.players.items()
    ]
