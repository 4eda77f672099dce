"""Empires of the Ancient World: a whole game through the real steps with keyed dice, from the deal to the end
(EAW-3 to EAW-6, EAW-10): the invariants hold and the snapshot reads back after every step, no hidden card reaches a
public event, and every event of the flow has its sentence (events_round.j2).

The actions (actions.take_action) are replaced by a stub that only records the call, so that the flow is tested
without the actions' rules."""

from __future__ import annotations

from typing import Any

import pytest

from adjudicator.engine.chance import KeyedDice
from adjudicator.engine.protocol import EVERYONE, PUBLIC
from adjudicator.engine.steps import resolve_step
from adjudicator.engine.vocabulary import Event
from adjudicator.orders.sets import OrderSet
from adjudicator.render import environment
from adjudicator.rulesets import load_ruleset
from adjudicator.rulesets.empires import rounds
from adjudicator.rulesets.empires.data import Pieces
from adjudicator.rulesets.empires.game import EmpiresGame
from adjudicator.rulesets.empires.orders import FortChoice, PlaceChoice, PlaceControl, PlanLine, StartChoice
from adjudicator.rulesets.empires.play import Play
from adjudicator.rulesets.empires.state import ENDED, GameState
from tests.eaw_helpers import small_data

SEATS = ("red", "blue", "green", "yellow")
DATA = small_data(pieces=Pieces(control_markers=12, trade_markers=25, forts=2), action_rounds_first=4)


def keyed(number: int) -> KeyedDice:
    return KeyedDice(key=bytes([number % 256]) * 32, orders_hash=f"h{number}", hidden_key=b"s" * 32)


def orders_for(phase: str, seat: str) -> OrderSet | None:
    if phase == "placement":
        if seat == "yellow":
            return None  # the defaults of EAW-12.1, 12.13, 12.14
        return OrderSet(None, (StartChoice(("ITA", "AFR", "EGY")), PlaceChoice(("MCE", "SIC")), FortChoice(("ITA",))))
    if phase == "plans" and seat in ("red", "blue"):
        return OrderSet(None, (PlanLine((PlaceControl("ITA"),), line=2, text="CONTROL ITA"),))
    return None  # green and yellow send nothing: defaults without stopping; red and blue are waited for


@pytest.fixture(scope="module")
def played() -> tuple[EmpiresGame, list[GameState], list[Event], list[tuple[str, Any]]]:
    """The whole game of 4 seats: each state after each step, every event and every action taken."""
    game = EmpiresGame(load_ruleset("empires-aw").info, DATA, DATA.options)
    taken: list[tuple[str, Any]] = []

    def stub(play: Play, seat: str, line: PlanLine | None) -> None:
        taken.append((seat, None if line is None else line.text))

    kept = rounds.take_action
    rounds.take_action = stub  # type: ignore[assignment]
    try:
        state = game.initial_state("g", list(SEATS))
        states, events = [state], []
        while (step := game.due(state)) is not None:
            given = {seat: orders_for(step.phase, seat) for seat in step.seats}
            result = resolve_step(game, state, step, given, keyed(step.number))
            state = result.state
            states.append(state)
            events += result.events
    finally:
        rounds.take_action = kept  # type: ignore[assignment]
    return game, states, events, taken


def test_EAW_4_1_a_whole_game_runs_from_the_deal_to_the_end_EAW_10_8(played: Any) -> None:
    game, states, events, taken = played
    last = states[-1]
    assert last.phase == ENDED and last.round == 4 and last.winners
    assert len(taken) == 4 * (4 + 3 + 2 + 1)
    assert [e.data["round"] for e in events if e.kind == "scoring"] == [2, 3, 4]
    assert sum(1 for e in events if e.kind == "game_ended") == 1
    waited = {seat for seat, text in taken if text is None} & {"red", "blue"}
    assert waited == {"red", "blue"}  # their plans ran out: their waiting steps took the default with no mail


def test_the_invariants_hold_and_the_snapshot_reads_back_after_every_step(played: Any) -> None:
    game, states, _, _ = played
    for state in states:
        assert game.broken_invariants(state) == []
        assert game.read_stored_snapshot(game.snapshot_text(state, EVERYONE)) == state


def test_no_hidden_card_reaches_a_public_event_or_the_public_snapshot(played: Any) -> None:
    game, states, events, _ = played
    home = {card for state in states for p in state.players.values() for card in p.hand}
    public_text = " ".join(str(e.data) for e in events if e.public)
    public_text += " ".join(game.snapshot_text(s, PUBLIC) for s in states[:-1])
    assert home and not any(f"'{card}'" in public_text or f'"{card}"' in public_text for card in home)


def test_every_event_of_the_flow_has_its_sentence_with_its_rule(played: Any) -> None:
    _, _, events, _ = played
    env = environment()
    kinds = set(env.get_template("empires/events_round.j2").module.kinds)  # type: ignore[attr-defined]
    sentence = env.get_template("empires/events.j2").module.sentence  # type: ignore[attr-defined]
    assert {e.kind for e in events} - kinds == {"roll"}  # the dice are worded by events.j2
    for event in events:
        text = sentence(event)
        assert not text.startswith(event.kind + " ") and "EAW-" in text, (event.kind, text)


def test_EAW_0_1_every_rule_an_event_or_verdict_of_the_flow_cites_is_a_rule_ID_of_the_spec(played: Any) -> None:
    from tests.rule_coverage import rule_ids

    known = set(rule_ids("empires-aw")) | {"EAW-12"}  # EAW-12: the decisions section as a whole (ruleset.toml)
    _, _, events, _ = played
    cited = {e.data["rule"] for e in events if "rule" in e.data}
    assert cited and cited <= known, cited - known
