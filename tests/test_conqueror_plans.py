"""The sealed plans step as a whole: New Year answers (ER-4.4.2, ER-11.5), standing orders kept
private until changed (ER-14.11 to ER-14.19), coin transfers (ER-0.7), orders of another step refused, ER-14's
defaults for a silent seat, and `check_orders`' verdicts before the step resolves."""

from __future__ import annotations

from adjudicator.orders.parser import parse_orders
from adjudicator.rulesets.conqueror.state import DYNASTY_ACTIVE
from tests.test_conqueror_politics import plans_position, play, verdict
from tests.test_conqueror_state import dice


def test_ER_4_4_2_ER_14_3_only_the_hourglass_holder_sets_the_turn_order() -> None:
    rules, state = plans_position()
    assert state.hourglass == "kesh"
    result = play(rules, state, {"kesh": "ORDER thal, kesh, aurel", "aurel": "ORDER aurel, kesh, thal"})
    assert result.state.turn_order == ["thal", "kesh", "aurel"]
    refused = verdict(result, "aurel")
    assert not refused.accepted and refused.rule == "ER-4.4.2" and "hourglass" in refused.reason
    half = play(rules, state, {"kesh": "ORDER thal, kesh"})
    assert half.state.turn_order == ["kesh", "aurel", "thal"] and verdict(half, "kesh").rule == "ER-4.4.2"


def test_ER_4_4_2_the_new_turn_order_governs_politics_at_once() -> None:
    rules, state = plans_position()
    texts = {"kesh": "ORDER thal, kesh, aurel\nAGENT TRADE WITH aurel", "thal": "AGENT TRADE WITH aurel"}
    result = play(rules, state, texts)
    assert result.state.players["thal"].agent == "trade:aurel"  # thal went first
    assert result.state.players["kesh"].agent is None and "ER-5.5" in verdict(result, "kesh", 3).reason


def test_ER_11_5_ER_14_4_dynasty_from_its_first_round_only() -> None:
    rules, state = plans_position()
    result = play(rules, state, {"aurel": "DYNASTY"})
    refused = verdict(result, "aurel")
    assert not refused.accepted and refused.rule == "ER-11.5"
    state.round = 2
    result = play(rules, state, {"aurel": "DYNASTY"})
    assert verdict(result, "aurel").accepted and result.state.players["aurel"].dynasty == DYNASTY_ACTIVE


def test_ER_14_14_standing_orders_are_kept_privately_until_changed() -> None:
    rules, state = plans_position()
    card = state.players["kesh"].hand[0]
    text = f"DEFENCE TACTICS {card}\nLOSSES INF, ARC\nRETREAT FROM KES TO MIR\nCASUALTIES aurel, thal\nBLOCK NEVER"
    result = play(rules, state, {"kesh": text})
    standing = result.state.players["kesh"].standing
    assert standing["DEFENCE"].endswith(card) and standing["LOSSES"] == "LOSSES INF, ARC"
    assert set(standing) == {"DEFENCE", "LOSSES", "RETREAT@KES", "CASUALTIES", "BLOCK"}
    assert all(verdict(result, "kesh", n).accepted for n in range(2, 7))
    assert "standing" not in rules.snapshot(result.state, None)["public"]["factions"]["kesh"]
    assert rules.snapshot(result.state, "kesh")["private"]["kesh"]["standing"] == standing
    (kept,) = [e for e in result.events if e.kind == "standing_orders_kept"]
    assert kept.visible_to == frozenset({"kesh"})
    after = result.state
    after.phase = "plans"
    again = play(rules, after, {"kesh": "LOSSES CAV"})
    assert again.state.players["kesh"].standing["LOSSES"] == "LOSSES CAV"
    assert again.state.players["kesh"].standing["DEFENCE"] == standing["DEFENCE"]
    back = rules.read_snapshot(rules.snapshot(again.state))  # the whole snapshot keeps them
    assert back.players["kesh"].standing == again.state.players["kesh"].standing


def test_ER_0_7_ER_14_20_coins_paid_before_politics() -> None:
    rules, state = plans_position()
    state.players["aurel"].coins = 0
    result = play(rules, state, {"kesh": "PAY 3 COINS TO aurel\nPAY 9 COINS TO thal", "aurel": "AGENT BAZAAR"})
    assert result.state.players["aurel"].districts == {"bazaar": 1} and result.state.players["aurel"].coins == 0
    assert result.state.players["kesh"].coins == 3
    assert not verdict(result, "kesh", 3).accepted and verdict(result, "kesh", 3).rule == "ER-0.7"


def test_ER_4_1_orders_of_the_campaign_step_are_refused_in_the_plans_step() -> None:
    rules, state = plans_position()
    result = play(rules, state, {"kesh": "MOVE 1 INF: KES -> MIR"})
    refused = verdict(result, "kesh")
    assert not refused.accepted and refused.rule == "ER-4.1" and "campaign" in refused.reason
    assert result.state.army["KES"].count("infantry") == 2


def test_check_orders_judges_each_order_now_and_says_fall_backs_are_tried_again() -> None:
    rules, state = plans_position()
    step = rules.due(state)
    assert step is not None
    text = f"GAME g1 TURN {step.number} PLAYER aurel PASSWORD x\nAGENT UPGRADE CAVALRY ELSE TRADE WITH kesh\n"
    text += "RECRUIT 1 CAV AT KES\nRECRUIT 2 INF AT AUR"
    results = rules.check_orders(state, "aurel", step.number, parse_orders(text, rules), dice())
    assert [r.accepted for r in results] == [True, False, True]
    assert "ER-5.20" in results[0].reason and "tried again when the seat's turn comes (ER-14.6)" in results[0].reason
    assert results[1].rule == "ER-6.3"
    assert state.players["aurel"].trade == 1 and state.army["AUR"].count("infantry") == 2  # nothing changed


def test_ER_5_9_ER_13_6_a_trade_space_effects_apply_partner_coin_and_hidden_draw() -> None:
    rules, state = plans_position()
    state.players["kesh"].trade = 3  # the next space: 2 coins, and 1 more coin for the partner (on_trade)
    state.players["aurel"].trade = 5  # the next space: draw 1 tactic card (immediate)
    top = state.decks.tactics[0]
    result = play(rules, state, {"kesh": "AGENT TRADE WITH thal", "aurel": "AGENT TRADE WITH INDEPENDENTS"})
    after = result.state
    assert after.players["thal"].coins == 5 + 1 + 1  # ER-5.10a and the space's effect
    assert after.players["kesh"].coins == 6 + 2
    assert after.players["aurel"].hand[-1] == top and len(after.decks.tactics) == len(state.decks.tactics) - 1
    (drawn,) = [e for e in result.events if e.kind == "tactic_drawn"]
    assert drawn.visible_to == frozenset({"aurel"}) and drawn.data["card"] == top


def test_ER_11_5_ER_13_6_a_triggered_dynasty_applies_its_bonuses_or_names_the_manual_ones() -> None:
    rules, state = plans_position()
    state.round = 2
    coins, food = state.players["aurel"].coins, state.players["aurel"].food_bonus
    result = play(rules, state, {"aurel": "DYNASTY"})
    after = result.state.players["aurel"]
    assert after.coins == coins + 2 and after.food_bonus == food + 1  # forts_le(large=1, small=2) holds
    assert not [e for e in result.events if e.kind == "manual_effect"]  # every bonus is applied (ER-13.6)
    # its recruit: 1 infantry from the barracks in the capital (within the food limit)
    assert result.state.army["AUR"].count("infantry") == state.army["AUR"].count("infantry") + 1
