"""Politics (ER-5.4 to ER-5.24) in the sealed plans step: agent actions with fall-backs resolved in turn order,
trade, civil districts, upgrades, the extra action. Positions: the real setup of a 3-seat game on our own example
data (turn order kesh, aurel, thal), changed where a rule needs it; orders go through the real parser."""

from __future__ import annotations

from adjudicator.engine.steps import StepResult, resolve_step
from adjudicator.engine.vocabulary import OrderResult
from adjudicator.orders.parser import parse_orders
from adjudicator.rulesets.conqueror.game import ConquerorGame
from adjudicator.rulesets.conqueror.state import Army, GameState, fort_of
from tests.test_conqueror_setup import to_phase
from tests.test_conqueror_state import dice, example, set_up


def plans_position(players: int = 3) -> tuple[ConquerorGame, GameState]:
    rules, state = set_up(players)
    return rules, to_phase(rules, state, "plans")


def play(rules: ConquerorGame, state: GameState, texts: dict[str, str]) -> StepResult:
    """The plans step with each seat's order text (through the real parser)."""
    step = rules.due(state)
    assert step is not None and step.phase == "plans"
    sets = {
        seat: parse_orders(f"GAME g1 TURN {step.number} PLAYER {seat} PASSWORD x\n{text}", rules)
        for seat, text in texts.items()
    }
    for seat, parsed in sets.items():
        assert not parsed.errors, (seat, parsed.errors)
    return resolve_step(rules, state, step, sets, dice())


def verdict(result: StepResult, seat: str, line: int = 2) -> OrderResult:
    return next(r for r in result.order_results[seat] if r.line == line)


def test_ER_5_4_ER_14_6_the_first_legal_alternative_is_taken_and_each_refusal_cites_its_rule() -> None:
    rules, state = plans_position()
    result = play(rules, state, {"kesh": "AGENT TRADE WITH kesh ELSE UPGRADE CAVALRY ELSE TRADE WITH aurel"})
    after = result.state
    assert after.players["kesh"].agent == "trade:aurel" and after.players["kesh"].trade == 2
    taken = verdict(result, "kesh")
    assert taken.accepted and "ER-5.7" in taken.reason and "ER-5.20" in taken.reason
    assert "choice 3 taken" in taken.reason
    assert after.phase == "campaign"


def test_ER_5_4_no_legal_alternative_and_no_orders_are_a_pass() -> None:
    rules, state = plans_position()
    state.players["kesh"].coins = 5
    result = play(rules, state, {"kesh": "AGENT UPGRADE CAVALRY ELSE ACADEMY SPACE 2"})  # 8 and 4+2 coins
    refused = verdict(result, "kesh")
    assert not refused.accepted and refused.rule == "ER-14.6" and "so a pass" in refused.reason
    assert result.state.players["kesh"].agent is None and result.state.players["kesh"].coins == 5
    passed = [e for e in result.events if e.kind == "agent_passed"]
    assert {e.seat for e in passed} == {"kesh", "aurel", "thal"}  # ER-14.6's default for the silent seats too


def test_ER_5_5_a_space_taken_earlier_in_turn_order_falls_back() -> None:
    rules, state = plans_position()
    result = play(
        rules,
        state,
        {"kesh": "AGENT TRADE WITH aurel", "thal": "AGENT TRADE WITH aurel ELSE TRADE WITH INDEPENDENTS"},
    )
    thal = verdict(result, "thal")
    assert thal.accepted and "ER-5.5" in thal.reason and result.state.players["thal"].agent == "trade:independents"


def test_ER_5_7_ER_5_10_partner_gains_a_coin_and_the_trader_is_banned_from_it() -> None:
    rules, state = plans_position()
    result = play(rules, state, {"kesh": "AGENT TRADE WITH aurel", "thal": "AGENT TRADE WITH INDEPENDENTS"})
    after = result.state
    assert after.players["kesh"].coins == 6 + 1 and after.players["aurel"].coins == 5 + 1  # space 2: 1 coin
    assert after.players["kesh"].trade_bans == ["aurel"] and after.players["aurel"].trade_bans == []
    assert after.players["thal"].coins == 5 + 1 and after.players["thal"].trade_bans == ["independents"]


def test_ER_5_8_ER_5_9_the_track_discount_and_the_last_space() -> None:
    rules, state = plans_position()
    state.players["kesh"].trade = 2  # the next space gives the discount (example tracks.toml)
    state.players["aurel"].trade = 7  # the next space is the last: its VP count at game end only
    state.players["thal"].trade = 8  # already on the last space: it stays, benefits again
    result = play(
        rules,
        state,
        {"kesh": "AGENT TRADE WITH thal", "aurel": "AGENT TRADE WITH kesh", "thal": "AGENT TRADE WITH aurel"},
    )
    after = result.state
    assert after.players["kesh"].discount and after.players["kesh"].trade == 3
    assert after.players["aurel"].trade == 8 and after.players["aurel"].vp == 0
    assert after.players["thal"].trade == 8 and after.players["thal"].vp == 0


def test_ER_5_9b_look_is_a_private_notice_to_the_trader() -> None:
    rules, state = plans_position()
    state.players["kesh"].trade = 4  # the next space lets the trader look at the partner's hand
    state.players["aurel"].heroes_down = ["aurel-2"]
    result = play(rules, state, {"kesh": "AGENT TRADE WITH aurel"})
    (seen,) = [e for e in result.events if e.kind == "hand_seen"]
    assert seen.visible_to == frozenset({"kesh"}) and seen.data["heroes"] == ["aurel-2"]
    assert seen.data["hand"] == state.players["aurel"].hand


def test_ER_5_6_extra_action_needs_the_last_space_and_another_space() -> None:
    rules, state = plans_position()
    state.players["kesh"].trade = 8
    state.players["kesh"].coins = 20
    text = "AGENT TRADE WITH aurel\nEXTRA AGENT TRADE WITH aurel ELSE GRANARY"
    result = play(rules, state, {"kesh": text, "aurel": "EXTRA AGENT TRADE WITH thal"})
    extra = verdict(result, "kesh", 3)
    assert extra.accepted and "ER-5.6" in extra.reason and result.state.players["kesh"].districts == {"granary": 1}
    assert result.state.players["kesh"].agent == "district:granary:1"
    refused = verdict(result, "aurel")
    assert not refused.accepted and refused.rule == "ER-5.6"


def test_ER_5_12_ER_5_16_district_price_by_builds_second_space_and_discount() -> None:
    rules, state = plans_position()
    aurel = state.players["aurel"]
    aurel.coins, aurel.builds, aurel.discount = 20, {"granary": 1}, True
    result = play(rules, state, {"aurel": "AGENT GRANARY SPACE 2"})
    after = result.state.players["aurel"]
    assert after.coins == 20 - (6 + 2 - 1)  # the 2nd build's price, +2 on space 2, -1 discount
    assert after.districts == {"granary": 1} and after.builds == {"granary": 2}
    assert result.state.supply.districts["granary"] == 2


def test_ER_5_13_no_free_slot_and_ER_5_17_two_builds_of_a_type_in_a_round() -> None:
    rules, state = plans_position()
    kesh = state.players["kesh"]
    kesh.coins, kesh.districts = 30, {"bazaar": 1, "academy": 1, "granary": 2}
    state.supply.districts["granary"] -= 2
    state.supply.districts["bazaar"] -= 1
    state.supply.districts["academy"] -= 1
    result = play(rules, state, {"kesh": "AGENT BAZAAR"})
    refused = verdict(result, "kesh")
    assert not refused.accepted and "ER-5.13" in refused.reason and "slot" in refused.reason


def test_ER_5_14_a_fort_needs_a_controlled_land_area_without_a_fort() -> None:
    rules, state = plans_position()
    state.players["kesh"].coins = 20
    result = play(rules, state, {"kesh": "AGENT FORTIFICATION AT AUR ELSE FORTIFICATION AT KES"})
    refused = verdict(result, "kesh")
    assert not refused.accepted and refused.reason.count("ER-5.14") == 2  # AUR is aurel's; KES has its fort
    state.army["MIR"] = Army("kesh", {"infantry": 1})
    result = play(rules, state, {"kesh": "AGENT FORTIFICATION AT MIR"})
    side = example().map_for(3)
    assert result.state.fort_markers == ["MIR"] and fort_of(result.state, side, "MIR") == "small"
    assert result.state.players["kesh"].coins == 20 - 4 and result.state.supply.fort_markers == 2


def test_ER_5_20_ER_5_22_upgrade_price_by_owned_of_the_type_and_ER_5_23_at_most_four() -> None:
    rules, state = plans_position()
    aurel = state.players["aurel"]
    aurel.coins, aurel.upgrades = 30, ["heavy_cavalry"]
    state.supply.upgrades["heavy_cavalry"] -= 1
    result = play(rules, state, {"aurel": "AGENT UPGRADE thoroughbred SPACE 2"})
    after = result.state.players["aurel"]
    assert after.upgrades == ["heavy_cavalry", "thoroughbred"] and after.coins == 30 - (12 + 2)  # no discount
    thal = state.players["thal"]
    thal.coins, thal.upgrades = 30, ["discipline", "long_spears", "rapid_aim", "naval_mastery"]
    for card in thal.upgrades:
        state.supply.upgrades[card] -= 1
    result = play(rules, state, {"thal": "AGENT UPGRADE CAVALRY"})
    refused = verdict(result, "thal")
    assert not refused.accepted and "ER-5.23" in refused.reason and result.state.players["thal"].coins == 30


def test_ER_5_24_ER_0_8_megaprojects_are_refused_in_a_game_without_seas_of_destiny() -> None:
    rules, state = plans_position()
    state.players["kesh"].coins = 30
    result = play(rules, state, {"kesh": "AGENT WONDER ELSE TRADE WITH thal"})
    taken = verdict(result, "kesh")
    assert taken.accepted and "ER-0.8" in taken.reason and result.state.players["kesh"].agent == "trade:thal"
