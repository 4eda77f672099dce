"""Conqueror: Empire Rises bound to one game's data: the Ruleset protocol's play members (engine/protocol.py).

Built: the state (state.py), setup (setup.py, ER-3) and the steps of the round that need no orders (rounds.py:
New Year ER-4.4, Taxation ER-5.2, end of round ER-4.6, victory ER-10, elimination ER-4.7). The sealed plans step
(plans.py: New Year answers, Politics ER-5, Preparation ER-6, standing orders) reads orders in the game's order
language (parse.py); the campaign steps are refused with one PbemError naming the phase until their rules are
built."""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache, cached_property
from pathlib import Path
from typing import Any

from adjudicator.engine.board import Board
from adjudicator.engine.chance import Dice
from adjudicator.engine.envelope import Envelope, EnvelopeError, read_envelope
from adjudicator.engine.protocol import EVERYONE, PUBLIC
from adjudicator.engine.ruleset_source import RulesetInfo
from adjudicator.engine.schema import schema_problems
from adjudicator.engine.steps import Step, StepResult
from adjudicator.engine.vocabulary import N_, AttackOdds, Event, OrderResult
from adjudicator.errors import PbemError
from adjudicator.resources import resource_dir
from adjudicator.rulesets.conqueror import campaign, plans, purchases, rounds, setup
from adjudicator.rulesets.conqueror.data import GameData, Options
from adjudicator.rulesets.conqueror.parse import OrderLanguage
from adjudicator.rulesets.conqueror.position import position_problems
from adjudicator.rulesets.conqueror.ruleset import ConquerorRuleset
from adjudicator.rulesets.conqueror.state import (
    GameState,
    broken,
    controllers,
    private_part,
    public_part,
    read_state,
    secret_part,
)

# Stored snapshot texts whose shape was checked in this process (oldest first, a bounded number).
_CHECKED: dict[str, None] = {}
CHECKED_KEPT = 64
SHOWN_PROBLEMS = 12  # a broken file can have thousands; the first ones are enough to find the trouble


@cache
def snapshot_schema() -> dict[str, Any]:
    """docs/snapshot-conqueror.schema.json (inside the installed package, or beside it in the source tree)."""
    return json.loads((resource_dir("docs") / "snapshot-conqueror.schema.json").read_text(encoding="utf-8"))


class ConquerorGame(ConquerorRuleset):
    """The ruleset `conqueror-er` with a game's data: what the services play a game with. The registry's ruleset
    (ruleset.py) gives it the facts that need no data: templates, odds, hidden information, grouped reports."""

    def __init__(self, info: RulesetInfo, data: GameData, options: Options, data_digest: str = "") -> None:
        super().__init__(info)
        self.data, self.options = data, options
        self.data_digest = data_digest  # of the stored data files (ER-13): every snapshot of its games names it

    @cached_property
    def bot(self) -> Any:
        """The self-play bot (rulesets/conqueror/bot.py)."""
        from adjudicator.rulesets.conqueror.bot import BOT

        return BOT

    @cached_property
    def map_layers(self) -> Any:
        """The map of a position on this game's board side (mapping.py: public information only)."""
        from adjudicator.rulesets.conqueror.mapping import ConquerorMap

        return ConquerorMap(self.data)

    # -- the order language (parse.py): every area of the edition's largest map side, as seats are not known here --
    @cached_property
    def language(self) -> OrderLanguage:
        return OrderLanguage(self.data)

    @property
    def grammar_files(self) -> tuple[Path, ...]:
        return self.language.grammar_files

    @property
    def board(self) -> Board:
        return self.language.board

    def order_builder(self) -> Any:
        return self.language.order_builder()

    # -- seats ------------------------------------------------------------------------------------------------
    @property
    def seat_names(self) -> tuple[str, ...]:
        return self.data.setup.turn_order

    def seat_title(self, seat: str) -> str:
        return self.data.factions[seat].name

    @property
    def seats_by_players(self) -> Mapping[int, tuple[str, ...]]:
        """ER-3.2: the factions in play by player count."""
        return dict(sorted(self.data.setup.factions_by_players.items()))

    def lookup_seat(self, text: str) -> list[str]:
        """A faction by its id or name, or a prefix of either (case does not matter)."""
        key = text.strip().casefold()
        factions = [self.data.factions[f] for f in self.seat_names]
        exact = [f.id for f in factions if key in (f.id.casefold(), f.name.casefold())]
        return exact or [f.id for f in factions if f.id.casefold().startswith(key) or f.name.casefold().startswith(key)]

    @cached_property
    def largest_draw(self) -> int:
        """The largest draw a dice file may give: the tactic deck's shuffle (ER-0.5), or the die's 6 (ER-0.4)."""
        return max(6, sum(t.count for t in self.data.cards.tactics), len(self.data.cards.chronicles))

    # -- the game ---------------------------------------------------------------------------------------------
    def initial_state(self, game: str, seats: list[str]) -> GameState:
        state = setup.initial_state(self.data, self.options, game, seats)
        state.data_digest = self.data_digest
        return state

    def due(self, state: GameState) -> Step | None:
        return rounds.due(state)

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
        options = setup.options_from_json(state.options)
        results: dict[str, list[OrderResult]] = {}  # verdicts per seat (the plans step; campaign returns its own)
        if step.phase == rounds.SETUP:
            events = setup.play_setup(state, self.data, options, chance)
            rounds.after_setup(state, options)
        elif step.phase == rounds.PURCHASES:
            events, results = purchases.play_purchases(state, self.data, options, orders)
        elif step.phase == rounds.NEW_YEAR:
            events = rounds.play_new_year(state, self.data, options, {}, set())  # ER-14.3, ER-14.4 defaults
        elif step.phase == rounds.TAXATION:
            events = rounds.play_taxation(state, self.data)
        elif step.phase == rounds.PLANS:
            events, results = plans.play_plans(state, self.data, options, orders)
        elif step.phase == rounds.END:
            events = rounds.play_end_of_round(state, self.data)
        elif step.phase == rounds.CAMPAIGN:
            seat = step.seats[0]
            turn = campaign.Turn(
                answers=answers, ask=ask, settled=settled, chance=chance, decisions_rule=self.decisions_rule
            )
            events, results = campaign.play_campaign(state, self.data, options, seat, orders.get(seat), turn)
            events += rounds.eliminate(state, self.data)
            state.steps_done += 1
            return StepResult(state, events, {seat: results}, turn.pending, list(chance.log))
        else:
            raise PbemError(f"conqueror-er: unknown phase {step.phase!r}")
        events += rounds.eliminate(state, self.data)
        state.steps_done += 1
        verdicts = {seat: results.get(seat, []) for seat in step.seats}
        return StepResult(state, events, verdicts, [], list(chance.log))

    def check_orders(self, state: GameState, seat: str, number: int, orders: Any, chance: Dice) -> list[OrderResult]:
        step = rounds.due(state)
        if step is not None and not step.seats:  # New Year or Taxation first (ER-4): orders sent ahead are for a
            # later step of the round, checked against the position as it stands
            step = next((later for later in rounds.steps_of_round(state) if later.number == number), None)
        if step is None or seat not in step.seats:
            return []
        options = setup.options_from_json(state.options)
        if step.phase == rounds.PLANS:
            return plans.check_plans(state, self.data, options, seat, orders)
        if step.phase == rounds.PURCHASES:
            return purchases.check_purchases(state, self.data, options, seat, orders)
        if step.phase == rounds.CAMPAIGN:
            return campaign.check_campaign(state, self.data, options, seat, campaign.orders_of(orders))
        return []

    def attack_odds(self, state: GameState, seat: str, number: int, orders: Any) -> list[AttackOdds]:
        """The odds of the battles the campaign orders would start, on what the attacker can know (attack_odds.py)."""
        from adjudicator.rulesets.conqueror.attack_odds import attack_odds

        return attack_odds(self, state, seat, orders)

    def decision_odds(self, state: GameState, seat: str, key: str, point: Any = None) -> list[tuple[str, AttackOdds]]:
        """The odds of each answer to a reinforcement or Free Men question, where it arose (decision_odds.py)."""
        from adjudicator.rulesets.conqueror.decision_odds import decision_odds

        return decision_odds(self, seat, key, point)

    def broken_invariants(self, state: GameState) -> list[str]:
        return broken(state, self.data)

    def seats_of(self, state: GameState) -> tuple[str, ...]:
        return state.seating

    def coming_steps(self, state: GameState) -> list[Step]:
        return rounds.steps_of_round(state)

    def next_steps(self, state: GameState) -> dict[str, int]:
        return rounds.next_steps(state, self.data)

    # -- snapshots: schema 2 ----------------------------------------------------------------------------------
    def envelope(self, state: GameState) -> Envelope:
        return Envelope(
            self.name,
            state.game,
            state.steps_done,
            public_part(state),
            {f: private_part(p) for f, p in state.players.items()},
            secret_part(state),
            state.data_digest,
        )

    def _view(self, state: GameState, private: dict[str, dict[str, Any]]) -> Envelope:
        return Envelope(self.name, state.game, state.steps_done, public_part(state), private, {}, state.data_digest)

    def snapshot(self, state: GameState, viewer: str | None = EVERYONE) -> dict[str, Any]:
        """PUBLIC: no hand, no deck order; a seat: its own hand and heroes besides; EVERYONE: all (the archive)."""
        # a view builds only the parts it shows: a turn's reports ask for the public and every seat's view
        if viewer is PUBLIC:
            return self._view(state, {}).public_snapshot()
        if viewer != EVERYONE and viewer in state.players:
            return self._view(state, {viewer: private_part(state.players[viewer])}).seat_snapshot(viewer)
        envelope = self.envelope(state)
        if viewer is PUBLIC:
            return envelope.public_snapshot()
        if viewer == EVERYONE:
            return envelope.whole_snapshot()
        return envelope.seat_snapshot(viewer)

    def read_snapshot(self, data: Any) -> GameState:
        envelope = read_envelope(data)
        if envelope.ruleset != self.name:
            raise EnvelopeError(f"snapshot: ruleset {envelope.ruleset!r}, not {self.name!r}")
        # the shape first (docs/snapshot-conqueror.md), then its fit to the game's data, then the rules' invariants:
        # a position edited by hand or in the archive is refused wherever it is read, every field named by its path
        problems = schema_problems(data, snapshot_schema(), snapshot_schema()) or position_problems(data, self.data)
        if not problems:
            state = self._state(envelope)
            whole = "secret" in data and set(data.get("private", {})) == set(state.players)
            # a public or one seat's view lacks the others' cards: the card counts hold only for the whole
            problems = [f"snapshot: {problem}" for problem in broken(state, self.data)] if whole else []
        if problems:
            more = f"; and {len(problems) - SHOWN_PROBLEMS} more" if len(problems) > SHOWN_PROBLEMS else ""
            raise PbemError("; ".join(problems[:SHOWN_PROBLEMS]) + more)
        return state

    def _state(self, envelope: Envelope) -> GameState:
        try:
            state = read_state(envelope.game, envelope.step, envelope.public, envelope.private, envelope.secret)
        except KeyError as missing:
            raise PbemError(f"snapshot: the key {missing} is missing") from None
        except (TypeError, AttributeError) as wrong:
            raise PbemError(f"snapshot: a wrong value ({wrong})") from None
        state.data_digest = envelope.data_digest
        return state

    def read_stored_snapshot(self, text: str) -> GameState:
        """A snapshot text the archive wrote: its shape is checked the first time this process reads that very text
        (a tick reads a game's position several times; services/positions.py)."""
        data = json.loads(text)
        state = self._state(read_envelope(data)) if text in _CHECKED else self.read_snapshot(data)
        _CHECKED[text] = None
        if len(_CHECKED) > CHECKED_KEPT:
            del _CHECKED[next(iter(_CHECKED))]
        return state

    # -- reports ----------------------------------------------------------------------------------------------
    def report_events(self, events: list[Event], before: Mapping[str, Any] | None) -> list[Event]:
        """A card revealed to all (played in battle, a chronicle drawn) is told with what it does (ER-13.6)."""
        from adjudicator.rulesets.conqueror.card_text import with_card_words

        return with_card_words(events, self.data)

    def report_context(self, state: GameState) -> dict[str, Any]:
        """The private report's end: its next step (`coming`), the seat's cards in words (`card_words`) and its
        orders template (`orders_template(seat, language)`, orders_template.py); the site's `standings`."""
        from adjudicator.rulesets.conqueror.card_text import CardWords
        from adjudicator.rulesets.conqueror.orders_template import TemplateMaker

        return {
            **super().report_context(state),  # `coming`: its next step (next_steps)
            "card_words": CardWords(self.data),
            "orders_template": TemplateMaker(self, state),
            "standings": self.standings(state),
        }

    def standings(self, state: GameState) -> list[dict[str, Any]]:
        """Who holds what, for the site's index (protocol.py, report_context): each faction's controlled areas
        (ER-2.3), coins and VP, all public (ER-6.10 hides only hands and decks)."""
        held = controllers(state, self.data.map_for(state.players_count))  # one pass for every faction
        # once the game has ended, its final score (ER-10.3), of which the victory points won in play are a part
        final = {faction: sum(item["vp"] for item in sheet.values()) for faction, sheet in state.final_scores.items()}
        return [
            {
                "seat": faction,
                "eliminated": player.eliminated,
                "held": sorted(area for area, holder in held.items() if holder == faction),
                "figures": [(N_("Coins"), player.coins), (N_("Victory points"), final.get(faction, player.vp))],
            }
            for faction, player in state.players.items()
        ]
