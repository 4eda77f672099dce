"""Conquest mode's purchases before round 1 (ER-3.11, ER-14.2): one sealed step after setup, resolved in seating
order from the start player, at the nth build's price without the second-space surcharge. Positions: the real setup
of a 3-seat Conquest game on our own example data (seating kesh, aurel, thal; kesh starts), changed where a rule
needs it; orders go through the real parser."""

from __future__ import annotations

from adjudicator.engine.steps import StepResult, resolve_step
from adjudicator.engine.vocabulary import OrderResult
from adjudicator.orders.parser import parse_orders
from adjudicator.rulesets.conqueror.game import ConquerorGame
from adjudicator.rulesets.conqueror.purchases import buying_order
from adjudicator.rulesets.conqueror.state import Army, GameState, fort_of
from tests.test_conqueror_state import dice, example, set_up


def purchases_position() -> tuple[ConquerorGame, GameState]:
    return set_up(3, "conquest")


def parsed(rules: ConquerorGame, state: GameState, seat: str, text: str):  # type: ignore[no-untyped-def]
    step = rules.due(state)
    assert step is not None
    found = parse_orders(f"GAME g1 TURN {step.number} PLAYER {seat} PASSWORD x\n{text}", rules)
    assert not found.errors, (seat, found.errors)
    return found


def play(rules: ConquerorGame, state: GameState, texts: dict[str, str]) -> StepResult:
    """The purchases step with each seat's order text (through the real parser)."""
    step = rules.due(state)
    assert step is not None and step.phase == "purchases"
    sets = {seat: parsed(rules, state, seat, text) for seat, text in texts.items()}
    return resolve_step(rules, state, step, sets, dice())


def verdicts(result: StepResult, seat: str) -> list[OrderResult]:
    return result.order_results[seat]


def test_ER_3_11_conquest_mode_has_one_sealed_purchases_step_before_round_1_and_ER_14_2_default_buys_nothing() -> None:
    rules, state = purchases_position()
    step = rules.due(state)
    assert step is not None and step.phase == "purchases" and step.sealed
    assert step.seats == ("kesh", "aurel", "thal")
    assert [s.phase for s in rules.coming_steps(state)][:3] == ["purchases", "new_year", "taxation"]  # ER-4.5
    result = play(rules, state, {})
    after = result.state
    assert after.phase == "new_year" and after.round == 1  # round 1 begins (ER-4.5: its chronicle in Conquest)
    assert all(p.coins == 10 and not p.districts and not p.upgrades for p in after.players.values())
    assert not [e for e in result.events if e.kind in ("district_built", "upgrade_bought")]
    _, imperator = set_up(3, "imperator")
    assert imperator.phase == "taxation"  # no purchases outside Conquest mode


def test_ER_3_11_prices_are_the_nth_build_without_the_second_space_surcharge() -> None:
    rules, state = purchases_position()
    texts = {
        "kesh": "BUY BAZAAR, BAZAAR",
        "aurel": "BUY UPGRADE discipline",
        "thal": "BUY UPGRADE rapid_aim AND UPGRADE deadly_aim",
    }
    result = play(rules, state, texts)
    after = result.state
    kesh = after.players["kesh"]
    assert kesh.coins == 10 - 3 - 4 and kesh.districts == {"bazaar": 2} and kesh.builds == {"bazaar": 2}
    assert after.supply.districts["bazaar"] == 1 and kesh.agent is None  # no agent is placed
    assert after.players["aurel"].coins == 4 and after.players["aurel"].upgrades == ["discipline"]
    thal = after.players["thal"]
    assert thal.upgrades == ["rapid_aim"] and thal.coins == 5  # 5 paid; the 2nd archer upgrade costs 8
    first, second = verdicts(result, "thal")
    assert first.accepted and first.text == "BUY UPGRADE rapid_aim" and "5 coins paid, 5 left (ER-3.11)" in first.reason
    assert not second.accepted and second.rule == "ER-5.20" and "costs 8 coins and thal holds 5" in second.reason
    built = [e.data["price"] for e in result.events if e.kind == "district_built" and e.seat == "kesh"]
    assert built == [3, 4]


def test_ER_15_12_the_supply_is_taken_in_seating_order_from_the_start_player() -> None:
    rules, state = purchases_position()
    state.supply.districts["academy"] = 1
    result = play(rules, state, {"aurel": "BUY ACADEMY", "kesh": "BUY ACADEMY"})
    assert result.state.players["kesh"].districts == {"academy": 1}  # kesh starts (ER-3.9)
    (refused,) = verdicts(result, "aurel")
    assert not refused.accepted and refused.rule == "ER-15.12" and "no academy card is left" in refused.reason
    assert result.state.players["aurel"].coins == 10 and result.state.supply.districts["academy"] == 0
    state.seating = ("aurel", "thal", "kesh")
    state.hourglass = "thal"
    assert buying_order(state) == ["thal", "kesh", "aurel"]  # clockwise from the start player (ER-3.10)


def test_ER_5_14_a_fort_bought_before_round_1_needs_a_controlled_land_area_without_a_fort() -> None:
    rules, state = purchases_position()
    result = play(rules, state, {"kesh": "BUY FORT AT DUN"})
    (refused,) = verdicts(result, "kesh")
    assert not refused.accepted and refused.rule == "ER-5.14"  # DUN has its printed fort
    state.army["MIR"] = Army("kesh", {"infantry": 1})
    result = play(rules, state, {"kesh": "BUY FORT AT MIR, GRANARY"})
    after = result.state
    assert after.fort_markers == ["MIR"] and fort_of(after, example().map_for(3), "MIR") == "small"
    assert after.players["kesh"].coins == 10 - 4 - 5 and after.supply.fort_markers == 2
    assert all(v.accepted for v in verdicts(result, "kesh"))


def test_ER_5_13_a_free_slot_and_ER_5_23_never_the_same_upgrade_twice_still_apply() -> None:
    rules, state = purchases_position()
    kesh = state.players["kesh"]
    kesh.districts = {"granary": 2, "academy": 2}
    aurel = state.players["aurel"]
    aurel.upgrades = ["heavy_cavalry", "thoroughbred", "aggression"]
    result = play(rules, state, {"kesh": "BUY BAZAAR", "aurel": "BUY UPGRADE CAVALRY"})
    (no_slot,) = verdicts(result, "kesh")
    assert not no_slot.accepted and no_slot.rule == "ER-5.13" and "slot" in no_slot.reason
    (owned,) = verdicts(result, "aurel")
    assert not owned.accepted and owned.rule == "ER-5.23"
    assert result.state.players["kesh"].coins == result.state.players["aurel"].coins == 10


def test_ER_3_11_one_buy_line_and_the_orders_of_round_1_are_refused() -> None:
    rules, state = purchases_position()
    result = play(rules, state, {"kesh": "BUY GRANARY\nBUY BAZAAR\nAGENT ACADEMY\nPRESS TO aurel: hello"})
    granary, later, agent, press = verdicts(result, "kesh")
    assert granary.accepted and result.state.players["kesh"].districts == {"granary": 1}
    assert not later.accepted and later.rule == "ER-3.11" and "line 2 is the one" in later.reason
    assert not agent.accepted and agent.rule == "ER-3.11" and press.accepted


def test_check_orders_judges_the_purchase_now_and_says_earlier_players_buy_first() -> None:
    rules, state = purchases_position()
    step = rules.due(state)
    assert step is not None
    found = parsed(rules, state, "aurel", "BUY BAZAAR, UPGRADE CAVALRY")
    first, second = rules.check_orders(state, "aurel", step.number, found, dice())
    assert first.accepted and "players before you in seating order buy first" in first.reason
    assert not second.accepted and second.rule == "ER-5.20"  # 8 coins with 7 left
    assert state.players["aurel"].coins == 10 and not state.players["aurel"].districts  # nothing stored
