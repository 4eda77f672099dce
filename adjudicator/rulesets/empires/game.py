"""Empires of the Ancient World bound to one game's data: the Ruleset protocol's play members (engine/protocol.py).

Steps (rounds.py): the deal (setup.py, resolved when the game is made), the sealed placement (setup.py), then per
game round the revolt check and income (revolts.py, economy.py), the sealed plans step, the action steps
(actions.take_action) and the scoring (scoring.py). Snapshots: snapshot.py."""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cached_property
from pathlib import Path
from typing import Any

from adjudicator.engine.chance import Dice
from adjudicator.engine.envelope import Envelope, EnvelopeError, read_envelope
from adjudicator.engine.protocol import EVERYONE, PUBLIC
from adjudicator.engine.ruleset_source import RulesetInfo
from adjudicator.engine.steps import Step, StepResult
from adjudicator.engine.vocabulary import N_, AttackOdds, OrderResult
from adjudicator.errors import PbemError
from adjudicator.rulesets.empires import economy, revolts, rounds, scoring, setup, snapshot
from adjudicator.rulesets.empires.data import GameData, Options
from adjudicator.rulesets.empires.play import Play
from adjudicator.rulesets.empires.ruleset import EmpiresRuleset
from adjudicator.rulesets.empires.state import (
    ACTION,
    DEAL,
    ENDED,
    PLACEMENT,
    PLANS,
    REVOLT,
    SCORING,
    GameState,
)

SHOWN_PROBLEMS = 12  # a broken file can have many; the first ones are enough to find the trouble


class EmpiresGame(EmpiresRuleset):
    """The ruleset `empires-aw` with a game's data: what the services play a game with."""

    def __init__(self, info: RulesetInfo, data: GameData, options: Options, data_digest: str = "") -> None:
        super().__init__(info)
        self.data, self.options = data, options
        self.data_digest = data_digest  # of the stored data files (EAW-11): every snapshot of its games names it

    @cached_property
    def bot(self) -> Any:
        """The self-play bot (bot.py): `pbem selfplay` and the demo by mail play with it."""
        from adjudicator.rulesets.empires.bot import BOT

        return BOT

    @cached_property
    def map_layers(self) -> Any:
        """The map of a position on this game's data (mapping.py: public information only)."""
        from adjudicator.rulesets.empires.mapping import EmpiresMap

        return EmpiresMap(self.data)

    def options_of(self, state: GameState) -> Options:
        """The options the game was made with (kept in the state), else the bound ones."""
        return setup.options_from_json(state.options, self.options)

    # -- seats --------------------------------------------------------------------------------------------------
    @property
    def seat_names(self) -> tuple[str, ...]:
        return setup.SEAT_COLOURS

    def lookup_seat(self, text: str) -> list[str]:
        """A colour by its name or a prefix of it (case does not matter)."""
        key = text.strip().casefold()
        if not key:
            return []
        exact = [s for s in self.seat_names if s == key]
        return exact or [s for s in self.seat_names if s.startswith(key)]

    def seats_of(self, state: GameState) -> tuple[str, ...]:
        return tuple(state.seats)

    @cached_property
    def largest_draw(self) -> int:
        """The largest draw a dice file may give: the general deck's shuffle (EAW-0.5), or the die's 6."""
        return max(6, len(self.data.general_deck))

    # -- the game -----------------------------------------------------------------------------------------------
    def initial_state(self, game: str, seats: list[str]) -> GameState:
        return setup.initial_state(self.data, self.options, game, seats, self.data_digest)

    def due(self, state: GameState) -> Step | None:
        return rounds.due(state)

    def coming_steps(self, state: GameState) -> list[Step]:
        return rounds.steps_of_round(state, self.options_of(state))

    def next_steps(self, state: GameState) -> dict[str, int]:
        return rounds.next_steps(state, self.options_of(state))

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
        state = state if in_place else state.copy()
        play = Play(state, self.data, self.options_of(state), chance, answers=answers, ask=ask, settled=settled)
        verdicts: dict[str, list[OrderResult]] = {}
        if step.phase == DEAL:
            setup.play_deal(play)
        elif step.phase == PLACEMENT:
            verdicts = {seat: setup.check_setup(self.data, orders.get(seat)) for seat in step.seats}
            setup.play_placement(play, orders)
        elif step.phase == REVOLT:
            rounds.round_begins(play)
            revolts.play_revolts(play)
            economy.play_income(play)
            state.phase = PLANS
        elif step.phase == PLANS:
            verdicts = rounds.play_plans(play, orders)
        elif step.phase == ACTION:
            verdicts = rounds.play_action(play, step, orders)
        elif step.phase == SCORING:
            scoring.play_scoring(play)
            rounds.next_round(state)
            if state.phase == ENDED:
                scoring.finish(play)
        else:
            raise PbemError(f"empires-aw: unknown phase {step.phase!r}")
        state.steps_done += 1
        results = {seat: verdicts.get(seat, []) for seat in step.seats}
        return StepResult(state, play.events, results, list(play.pending), list(chance.log))

    def check_orders(self, state: GameState, seat: str, number: int, orders: Any, chance: Dice) -> list[OrderResult]:
        """The receipt of `seat`'s orders for its coming step: placement lists (setup.py), or plan lines (checks.py
        of the actions) and standing battle plans."""
        step = next((s for s in self.coming_steps(state) if s.number == number), None)
        phase = step.phase if step is not None else (PLANS if state.phase != PLACEMENT else PLACEMENT)
        if phase == PLACEMENT:
            return setup.check_setup(self.data, orders)
        play = Play(state.copy(), self.data, self.options_of(state), chance)
        return rounds.check_lines(play, seat, orders)

    def attack_odds(self, state: GameState, seat: str, number: int, orders: Any) -> list[AttackOdds]:
        """The odds of the battles the plan's attacks would fight, on what the attacker can know (attack_odds.py)."""
        from adjudicator.rulesets.empires.attack_odds import attack_odds

        return attack_odds(self, state, seat, orders)

    def decision_odds(self, state: GameState, seat: str, key: str, point: Any = None) -> list[tuple[str, AttackOdds]]:
        """The odds of each choice of a defender's siege or ambush decision, asked before the battle, on the position
        before the step; of a stack or marker question, where it arose in the battle (attack_odds.py)."""
        from adjudicator.rulesets.empires.attack_odds import decision_odds, marker_odds, stack_choice_odds
        from adjudicator.rulesets.empires.battle import MarkerPoint, StackPoint

        if key.startswith("marker.") and isinstance(point, MarkerPoint):
            return marker_odds(self, state, seat, point)
        if key.startswith("stack.") and isinstance(point, StackPoint):
            return stack_choice_odds(self, state, seat, point)
        return decision_odds(self, state, seat, key)

    def broken_invariants(self, state: GameState) -> list[str]:
        return snapshot.problems(state, self.data)

    # -- snapshots: schema 2 ------------------------------------------------------------------------------------
    def envelope(self, state: GameState) -> Envelope:
        return Envelope(
            self.name,
            state.game,
            state.steps_done,
            snapshot.public_part(state, self.options_of(state), self.data),
            {seat: snapshot.private_part(p) for seat, p in state.players.items()},
            snapshot.secret_part(state),
            state.data_digest,
        )

    def snapshot(self, state: GameState, viewer: str | None = EVERYONE) -> dict[str, Any]:
        """PUBLIC: no hand, plan or deck order; a seat: its own hand, home army and plans besides; EVERYONE: all."""
        envelope = self.envelope(state)
        if viewer is PUBLIC:
            return envelope.public_snapshot()
        if viewer == EVERYONE:
            return envelope.whole_snapshot()
        return envelope.seat_snapshot(viewer)

    def read_snapshot(self, data: Any) -> GameState:
        """The state of a snapshot: its envelope, every field's type (named by its path), then its fit to the game's
        data and the invariants (the card counts only for the whole snapshot)."""
        envelope = read_envelope(data)
        if envelope.ruleset != self.name:
            raise EnvelopeError(f"snapshot: ruleset {envelope.ruleset!r}, not {self.name!r}")
        try:
            state = snapshot.read_state(
                envelope.game, envelope.step, envelope.public, envelope.private, envelope.secret
            )
        except snapshot.SnapshotError as wrong:
            raise PbemError(f"snapshot: {wrong}") from None
        state.data_digest = envelope.data_digest
        try:
            setup.options_from_json(state.options, self.options)
        except (AttributeError, TypeError, ValueError) as wrong:
            raise PbemError(f"snapshot: public.options: not the game's options ({wrong})") from None
        whole = "secret" in data and set(envelope.private) == set(state.players)
        found = [f"snapshot: {problem}" for problem in snapshot.problems(state, self.data, whole)]
        if found:
            more = f"; and {len(found) - SHOWN_PROBLEMS} more" if len(found) > SHOWN_PROBLEMS else ""
            raise PbemError("; ".join(found[:SHOWN_PROBLEMS]) + more)
        return state

    def read_stored_snapshot(self, text: str) -> GameState:
        return self.read_snapshot(json.loads(text))

    # -- orders (parse.py of the orders engineer) ---------------------------------------------------------------
    @cached_property
    def language(self) -> Any:
        try:
            from adjudicator.rulesets.empires.parse import OrderLanguage
        except ImportError:
            raise PbemError("empires-aw: the order language is not built yet") from None
        return OrderLanguage(self.data, self.seat_names)

    @property
    def grammar_files(self) -> tuple[Path, ...]:
        files: tuple[Path, ...] = self.language.grammar_files
        return files

    def order_builder(self) -> Any:
        return self.language.order_builder()

    # -- reports ------------------------------------------------------------------------------------------------
    def report_context(self, state: GameState) -> dict[str, Any]:
        """The private report's end: its next step (`coming`) and orders template (`orders_template(seat,
        language)`, orders_template.py); the site's `standings`; the score sheets (`scores`)."""
        context = {
            **super().report_context(state),
            "standings": self.standings(state),
            "scores": {seat: list(p.scores) for seat, p in state.players.items()},
        }
        try:
            from adjudicator.rulesets.empires import orders_template
        except ImportError:
            return context
        maker = getattr(orders_template, "TemplateMaker", None)
        if maker is not None:
            context["orders_template"] = maker(self, state)
        return context

    def standings(self, state: GameState) -> list[dict[str, Any]]:
        """Who holds what, for the site's index: each seat's areas, VP, warehouse and hand size (all public)."""
        return [
            {
                "seat": seat,
                "eliminated": False,
                "held": state.controlled(seat),
                "figures": [
                    (N_("Victory points"), player.vp),
                    (N_("Warehouse"), player.warehouse),
                    (N_("Cards"), len(player.hand)),
                ],
            }
            for seat, player in state.players.items()
        ]
