"""Battles through the real steps of a game of Empires of the Ancient World: orders written as players write them
(the game's order language), the plans step and the action step resolved by the bound ruleset with keyed dice, in
ask mode the sealed stack decisions of both seats (EAW-12.6) pending and then answered, and after the battle the
invariants, the snapshot and the hidden cards (EAW-8.1, EAW-8.4: a stack is its owner's until revealed)."""

from __future__ import annotations

from typing import Any

import pytest

from adjudicator.engine.chance import KeyedDice
from adjudicator.engine.protocol import EVERYONE
from adjudicator.engine.steps import StepResult, resolve_step
from adjudicator.orders import parse_orders
from adjudicator.rulesets import load_ruleset
from adjudicator.rulesets.empires.data import Pieces
from adjudicator.rulesets.empires.game import EmpiresGame
from adjudicator.rulesets.empires.parse import OrderLanguage
from adjudicator.rulesets.empires.state import PLANS, GameState
from tests.eaw_helpers import position, small_data

SEATS = ("red", "blue", "green")
DATA = small_data(pieces=Pieces(control_markers=12, trade_markers=25, forts=2))
HANDS = {
    "red": ["rider", "archer", "blade", "pike", "pike#2", "slinger"],
    "blue": ["guard_a", "guard_a#2", "horse_a", "blade#2", "pike#3"],
    "green": ["galley", "galley#2"],
}


def keyed(number: int) -> KeyedDice:
    return KeyedDice(key=bytes([number % 256]) * 32, orders_hash=f"h{number}", hidden_key=b"s" * 32)


def start() -> tuple[EmpiresGame, GameState]:
    game = EmpiresGame(load_ruleset("empires-aw").info, DATA, DATA.options)
    state = position(
        DATA,
        seats=SEATS,
        control={"GAL": "red", "RAE": "blue", "ITA": "blue", "NUM": "green"},
        hands=HANDS,
        phase=PLANS,
    )
    state.options = {}
    held = {card for hand in HANDS.values() for card in hand}
    state.deck = [card for card in DATA.general_deck if card not in held]  # the rest of the deck, whole (EAW-1.4)
    state.players["blue"].home_group = "A"  # its empire cards are group A's (EAW-3.8)
    return game, state


def orders(game: EmpiresGame, seat: str, *lines: str) -> Any:
    parsed = parse_orders("\n".join([f"GAME t TURN 1 PLAYER {seat} PASSWORD x", *lines]), OrderLanguage(DATA, SEATS))
    assert not parsed.errors, parsed.errors
    return parsed


def to_battle(
    game: EmpiresGame, state: GameState, plans: dict[str, Any], **answering: Any
) -> tuple[GameState, StepResult]:
    """The plans step, then red's first action (the attack): the action step's result."""
    step = game.due(state)
    assert step is not None and step.phase == PLANS
    state = resolve_step(game, state, step, plans, keyed(1)).state
    step = game.due(state)
    assert step is not None and step.seats == ()  # red's plan has a line: no wait
    return state, resolve_step(game, state, step, {}, keyed(2), **answering)


def events_of(result: StepResult, kind: str) -> list[Any]:
    return [e for e in result.events if e.kind == kind]


@pytest.fixture(scope="module")
def asked() -> tuple[EmpiresGame, GameState, StepResult]:
    game, state = start()
    plans = {"red": orders(game, "red", "ATTACK RAE FROM GAL WITH rider, archer, blade, pike, pike")}
    before, result = to_battle(game, state, plans, ask=True)
    return game, before, result


def test_EAW_12_6_in_ask_mode_the_defenders_stack_is_a_pending_decision_of_the_battles_step(asked: Any) -> None:
    _, _, result = asked
    keys = [(p.seat, p.key) for p in result.pending]
    assert ("blue", "stack.RAE") in keys and ("red", "stack.RAE") not in keys  # red's stack came with the attack
    assert events_of(result, "battle_begins")[0].data["battle"] == "open"


def test_EAW_12_6_the_answer_is_a_card_list_and_the_step_resolved_again_uses_it(asked: Any) -> None:
    game, before, _ = asked
    step = game.due(before)
    assert step is not None
    answers = {"blue": {"stack.RAE": "horse_a, guard_a, guard_a, pike, blade"}}
    result = resolve_step(game, before, step, {}, keyed(2), answers, ask=True)
    assert not [p for p in result.pending if p.key.startswith("stack.")]
    formed = {e.seat: e.data["cards"] for e in events_of(result, "stack_formed")}
    assert formed == {
        "red": ["rider", "archer", "blade", "pike", "pike"],
        "blue": ["horse_a", "guard_a", "guard_a", "pike", "blade"],
    }
    assert all(e.visible_to == frozenset({e.seat}) for e in events_of(result, "stack_formed"))


def test_EAW_8_8_after_a_battle_the_invariants_hold_and_lost_cards_are_discarded(asked: Any) -> None:
    game, before, _ = asked
    step = game.due(before)
    assert step is not None
    result = resolve_step(game, before, step, {}, keyed(2))
    state = result.state
    assert game.broken_invariants(state) == []
    assert game.read_stored_snapshot(game.snapshot_text(state, EVERYONE)) == state
    lost = [e.data["card"] for e in events_of(result, "card_lost")]
    assert sorted(c.split("#")[0] for c in state.discards) == sorted(lost)
    held = sum(len(state.players[s].hand) for s in SEATS)
    assert held + len(state.discards) == sum(len(h) for h in HANDS.values())


def test_EAW_8_10_cards_left_unrevealed_by_a_rout_are_named_in_no_public_event() -> None:
    game, state = start()
    plans = {
        "red": orders(game, "red", "ATTACK RAE FROM GAL WITH archer, rider, blade, pike, pike"),
        "blue": orders(game, "blue", "STACK DEFEND: horse_a, guard_a, guard_a, pike, blade"),
    }
    _, result = to_battle(game, state, plans)
    assert [e.data["n"] for e in events_of(result, "routed")] == [3]  # 5 > 3, 4 > 3, 5 > 3
    returned = {e.seat: e.data["cards"] for e in events_of(result, "cards_returned")}
    assert returned == {"red": ["pike", "pike"], "blue": ["pike", "blade"]}
    assert all(not e.public for e in events_of(result, "cards_returned"))
    public = " ".join(str(e.data) for e in result.events if e.public)
    assert "pike" not in public and "'blade'" in public  # red's blade was revealed, nobody's pike


def test_EAW_12_4_standing_orders_by_mail_decide_the_siege_and_the_defenders_stack() -> None:
    game, state = start()
    state.forts = {"RAE": "blue"}
    plans = {
        "red": orders(game, "red", "ATTACK RAE FROM GAL WITH blade, pike, pike"),
        "blue": orders(game, "blue", "DEFEND SIEGE AT RAE", "STACK SIEGE DEFEND: blade, pike, guard_a"),
    }
    _, result = to_battle(game, state, plans, ask=True)
    assert result.pending == []
    assert events_of(result, "siege_chosen")[0].data["siege"] is True
    formed = {e.seat: e.data["cards"] for e in events_of(result, "stack_formed")}
    assert formed["blue"] == ["blade", "pike", "guard_a"]
