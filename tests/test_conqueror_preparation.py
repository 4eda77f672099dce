"""Preparation (ER-6, ER-5.32, ER-5.33) in the sealed plans step, seat by seat in turn order: excess units,
recruitment per fort, the elite unit, heroes held face down, stored food. Positions: the real 3-seat setup on our
own example data (kesh holds KES, aurel AUR, thal THA: large forts with 1 cavalry, 2 infantry, 1 archer each)."""

from __future__ import annotations

from adjudicator.rulesets.conqueror.state import (
    FOOD_HELD,
    FOOD_IN_USE,
    FOOD_NONE,
    Army,
    food_limit,
    standard_units,
)
from tests.test_conqueror_politics import plans_position, play, verdict
from tests.test_conqueror_state import example


def test_ER_6_2_ER_14_8_excess_units_leave_archers_first_by_default() -> None:
    rules, state = plans_position()
    state.army["KES"].add("infantry", 2)  # 6 standard units; kesh's food 1 allows 4
    result = play(rules, state, {})
    assert result.state.army["KES"].units == {"cavalry": 1, "infantry": 3}
    (removed,) = [e for e in result.events if e.kind == "excess_removed"]
    assert removed.data["units"] == {"archer": 1, "infantry": 1}


def test_ER_6_2_ER_14_8_an_excess_priority_sent_or_standing_is_followed() -> None:
    rules, state = plans_position()
    state.army["KES"].add("infantry", 1)  # 5 units, 1 too many
    result = play(rules, state, {"kesh": "EXCESS CAV"})
    assert result.state.army["KES"].units == {"infantry": 3, "archer": 1}
    later = result.state
    later.phase = "plans"
    later.army["KES"].add("cavalry", 1)
    again = play(rules, later, {})  # the priority stands until changed
    assert again.state.army["KES"].units == {"infantry": 3, "archer": 1}


def test_ER_5_33_ER_6_2_stored_food_used_counts_before_the_excess_check() -> None:
    rules, state = plans_position()
    state.army["KES"].add("infantry", 1)  # 5 units: food 1 allows 4, food 2 allows 6
    state.players["kesh"].stored_food = FOOD_HELD
    state.supply.food_markers -= 1
    result = play(rules, state, {"kesh": "FOOD USE"})
    assert verdict(result, "kesh").accepted and result.state.players["kesh"].stored_food == FOOD_IN_USE
    assert standard_units(result.state, "kesh") == 5 and not [e for e in result.events if e.kind == "excess_removed"]
    refused = play(rules, plans_position()[1], {"aurel": "FOOD USE"})
    assert not verdict(refused, "aurel").accepted and verdict(refused, "aurel").rule == "ER-5.33"


def test_ER_6_3_a_large_fort_makes_2_foot_or_1_cavalry_once_a_small_fort_1_foot() -> None:
    rules, state = plans_position()
    state.army["SOL"] = Army("aurel", {"infantry": 1})  # a small fort aurel holds (food 2+1: 8 units allowed)
    text = "RECRUIT 1 INF 1 ARC AT AUR\nRECRUIT 1 CAV AT AUR\nRECRUIT 2 INF AT SOL\nRECRUIT 1 ARC AT SOL"
    result = play(rules, state, {"aurel": text})
    assert verdict(result, "aurel", 2).accepted
    again = verdict(result, "aurel", 3)
    assert not again.accepted and again.rule == "ER-6.3" and "already produced" in again.reason
    mix = verdict(result, "aurel", 4)
    assert not mix.accepted and mix.rule == "ER-6.3" and "small fort" in mix.reason
    assert verdict(result, "aurel", 5).accepted
    assert result.state.army["AUR"].units == {"cavalry": 1, "infantry": 3, "archer": 2}
    assert result.state.army["SOL"].units == {"infantry": 1, "archer": 1}
    other = play(rules, state, {"kesh": "RECRUIT 1 CAV 1 INF AT KES\nRECRUIT 1 INF AT AUR\nRECRUIT 1 INF AT MIR"})
    assert [verdict(other, "kesh", n).rule for n in (2, 3, 4)] == ["ER-6.3", "ER-6.3", "ER-6.3"]


def test_ER_6_4_only_units_left_in_the_barracks_and_ER_6_5_the_food_limit() -> None:
    rules, state = plans_position()
    state.army["AUR"].add("cavalry", 3)  # all 4 of aurel's cavalry are on the map (example barracks)
    state.players["aurel"].food_bonus = 5
    result = play(rules, state, {"aurel": "RECRUIT 1 CAV AT AUR"})
    assert not verdict(result, "aurel").accepted and verdict(result, "aurel").rule == "ER-6.4"
    rules, state = plans_position()
    state.army["THA"].add("infantry", 2)  # 6 units: thal's food 2 allows 6, no more
    assert food_limit(state, example(), "thal") == 6
    result = play(rules, state, {"thal": "RECRUIT 1 INF AT THA"})
    assert not verdict(result, "thal").accepted and verdict(result, "thal").rule == "ER-6.5"


def test_ER_6_7_elite_in_the_capital_for_its_cost_else_another_controlled_area() -> None:
    rules, state = plans_position()
    state.players["aurel"].coins = 10
    result = play(rules, state, {"aurel": "RECRUIT ELITE"})
    assert result.state.army["AUR"].count("elite") == 1 and result.state.players["aurel"].coins == 10 - 4
    assert result.state.players["aurel"].elite == "recruited"
    rules, state = plans_position()
    state.players["kesh"].coins = 10
    state.army["KES"] = Army("thal", {"infantry": 1})  # kesh lost its capital
    state.army["MIR"] = Army("kesh", {"infantry": 1})
    result = play(rules, state, {"kesh": "RECRUIT ELITE"})
    assert result.state.army["MIR"].count("elite") == 1


def test_ER_6_9_a_lost_elite_returns_only_with_an_academy() -> None:
    rules, state = plans_position()
    state.players["aurel"].coins, state.players["aurel"].elite = 10, "lost"
    result = play(rules, state, {"aurel": "RECRUIT ELITE"})
    assert not verdict(result, "aurel").accepted and verdict(result, "aurel").rule == "ER-6.9"
    state.players["aurel"].districts = {"academy": 1}
    state.supply.districts["academy"] -= 1
    result = play(rules, state, {"aurel": "RECRUIT ELITE"})
    assert verdict(result, "aurel").accepted and result.state.army["AUR"].count("elite") == 1


def test_ER_6_10_a_hero_is_bought_and_held_face_down_privately() -> None:
    rules, state = plans_position()
    state.players["thal"].coins = 5
    result = play(rules, state, {"thal": "RECRUIT HERO Phoros\nRECRUIT HERO Lysa\nRECRUIT HERO aurel-2"})
    after = result.state.players["thal"]
    assert after.heroes_down == ["thal-1"] and after.coins == 5 - 3
    assert verdict(result, "thal", 3).rule == "ER-6.10" and "costs 3" in verdict(result, "thal", 3).reason
    assert verdict(result, "thal", 4).rule == "ER-6.10" and "not one of thal's" in verdict(result, "thal", 4).reason
    public = [e for e in result.events if e.kind == "hero_recruited"]
    private = [e for e in result.events if e.kind == "hero_recruited_private"]
    assert public[0].public and "thal-1" not in str(public[0].data) and "Phoros" not in str(public[0].data)
    assert private[0].visible_to == frozenset({"thal"}) and private[0].data["name"] == "Phoros"
    snapshot = rules.snapshot_text(result.state, None)  # the public snapshot names no face-down hero
    assert "thal-1" not in snapshot and '"heroes_down_count": 1' in snapshot


def test_ER_5_15_ER_6_12_academy_discount_and_discarded_heroes() -> None:
    rules, state = plans_position()
    thal = state.players["thal"]
    thal.coins, thal.districts = 10, {"academy": 1}
    state.supply.districts["academy"] -= 1
    thal.heroes_discarded = ["thal-1"]
    result = play(rules, state, {"thal": "RECRUIT HERO Phoros\nRECRUIT HERO thal-4"})
    assert verdict(result, "thal", 2).rule == "ER-6.12"  # not all 5 discarded yet
    assert verdict(result, "thal", 3).accepted and result.state.players["thal"].coins == 10 - (4 - 2)
    thal.heroes_discarded = ["thal-1", "thal-2", "thal-3", "thal-4", "thal-5"]
    result = play(rules, state, {"thal": "RECRUIT HERO Phoros"})
    assert verdict(result, "thal").accepted and result.state.players["thal"].heroes_discarded == [
        "thal-2",
        "thal-3",
        "thal-4",
        "thal-5",
    ]


def test_ER_5_32_ER_14_9_food_is_stored_when_allowed_unless_refused() -> None:
    rules, state = plans_position()
    state.players["thal"].food_bonus = 2  # food 4 for 4 units that need 1: a margin of 3
    result = play(rules, state, {})
    assert result.state.players["thal"].stored_food == FOOD_HELD and result.state.supply.food_markers == 2
    assert result.state.players["aurel"].stored_food == FOOD_NONE  # food 2, need 1: margin 1 (ER-5.32)
    result = play(rules, state, {"thal": "FOOD NO STORE", "aurel": "FOOD STORE"})
    assert result.state.players["thal"].stored_food == FOOD_NONE
    refused = verdict(result, "aurel")
    assert not refused.accepted and refused.rule == "ER-5.32" and "does not exceed" in refused.reason
