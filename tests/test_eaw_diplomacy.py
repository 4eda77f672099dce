"""Diplomatic attacks (EAW-7.10 to EAW-7.13, EAW-12.10, EAW-13.14, EAW-2.8, EAW-6.3) on the small test map of
tests/eaw_helpers.py; the diplomat's effects come from the card data (EAW-11.6)."""

from __future__ import annotations

from typing import Any

from adjudicator.rulesets.empires import actions
from adjudicator.rulesets.empires.orders import Diplomacy, PlanLine
from adjudicator.rulesets.empires.play import Play
from adjudicator.rulesets.empires.state import GameState
from tests.eaw_helpers import play, position, small_data


def diplomacy(target: str, remove: bool = False, pay: int | None = None) -> PlanLine:
    return PlanLine((Diplomacy(target, remove, pay),), line=5, text="DIPLOMACY")


def events(p: Play, kind: str) -> list[dict[str, Any]]:
    return [e.data for e in p.events if e.kind == kind]


def rejected(state: GameState, seat: str, action: Diplomacy, **options: Any) -> str | None:
    found = actions.refusal(play(state, small_data(**options)), seat, action)
    return None if found is None else found.rule


# -- EAW-7.10 ------------------------------------------------------------------------------------------------
def test_EAW_7_10_pay_2_then_roll_2_to_take_a_neutral_area() -> None:
    state = position(control={"RAE": "red"}, warehouse={"red": 2})
    p = play(state, dice=[2])
    actions.take_action(p, "red", diplomacy("GER"))
    assert state.controller("GER") == "red" and state.players["red"].warehouse == 0
    assert [e.kind for e in p.events][:3] == ["diplomacy", "paid", "roll"]  # payment before the roll


def test_EAW_7_10_a_roll_of_1_fails_and_the_payment_is_lost() -> None:
    state = position(control={"RAE": "red"}, warehouse={"red": 3})
    p = play(state, dice=[1])
    actions.take_action(p, "red", diplomacy("GER"))
    assert state.controller("GER") is None and state.players["red"].warehouse == 1
    assert events(p, "diplomacy_failed") == [{"target": "GER", "rule": "EAW-7.10"}]


def test_EAW_7_10_with_1_in_the_warehouse_diplomacy_is_refused() -> None:
    state = position(control={"RAE": "red"}, warehouse={"red": 1})
    assert rejected(state, "red", Diplomacy("GER")) == "EAW-7.10"


def test_EAW_7_10_only_a_neutral_area_is_taken_over() -> None:
    state = position(control={"RAE": "red", "GER": "blue", "NUM": "blue"}, warehouse={"red": 5})
    assert rejected(state, "red", Diplomacy("GER")) == "EAW-7.10"


# -- EAW-7.11 (a): the diplomat's takeover -------------------------------------------------------------------
def test_EAW_7_11_a_diplomat_takes_over_for_1_without_a_roll() -> None:
    state = position(control={"RAE": "red"}, warehouse={"red": 1}, personalities={"red": ["envoy"]})
    p = play(state)  # no dice: a roll would fail the test
    actions.take_action(p, "red", diplomacy("GER"))
    assert state.controller("GER") == "red" and state.players["red"].warehouse == 0
    state = position(control={"RAE": "red"}, warehouse={"red": 0}, personalities={"red": ["envoy"]})
    assert rejected(state, "red", Diplomacy("GER")) == "EAW-7.11"


# -- EAW-7.11 (b), EAW-12.10, EAW-13.14: the diplomat's removal ---------------------------------------------
def test_EAW_7_11_removal_needs_a_diplomat() -> None:
    state = position(control={"RAE": "red", "GER": "blue", "NUM": "blue"}, warehouse={"red": 5})
    assert rejected(state, "red", Diplomacy("GER", remove=True)) == "EAW-7.11"


def test_EAW_12_10_by_default_3_are_paid_and_3_plus_3_reaches_6() -> None:
    state = position(
        control={"RAE": "red", "GER": "blue", "NUM": "blue"}, warehouse={"red": 5}, personalities={"red": ["envoy"]}
    )
    p = play(state, dice=[3])
    actions.take_action(p, "red", diplomacy("GER", remove=True))
    assert state.controller("GER") == "red" and state.players["red"].warehouse == 2
    assert events(p, "roll")[0]["bonus"] == 3


def test_EAW_12_10_the_default_pays_what_the_warehouse_holds_below_3() -> None:
    state = position(
        control={"RAE": "red", "GER": "blue", "NUM": "blue"}, warehouse={"red": 1}, personalities={"red": ["envoy"]}
    )
    p = play(state, dice=[4])
    actions.take_action(p, "red", diplomacy("GER", remove=True))
    assert state.controller("GER") == "blue" and events(p, "diplomacy_failed")  # 4 + 1 = 5
    assert state.players["red"].warehouse == 0


def test_EAW_7_11_paying_2_a_roll_of_4_succeeds_and_of_3_fails() -> None:
    for die, owner in ((4, "red"), (3, "blue")):
        state = position(
            control={"RAE": "red", "GER": "blue", "NUM": "blue"}, warehouse={"red": 5}, personalities={"red": ["envoy"]}
        )
        actions.take_action(play(state, dice=[die]), "red", diplomacy("GER", remove=True, pay=2))
        assert state.controller("GER") == owner and state.players["red"].warehouse == 3


def test_EAW_7_11_paying_0_needs_a_6_and_paying_4_is_refused() -> None:
    state = position(
        control={"RAE": "red", "GER": "blue", "NUM": "blue"}, warehouse={"red": 5}, personalities={"red": ["envoy"]}
    )
    assert rejected(state, "red", Diplomacy("GER", True, 4)) == "EAW-7.11"
    assert rejected(state, "red", Diplomacy("GER", True, 3)) is None
    p = play(state, dice=[6])
    actions.take_action(p, "red", diplomacy("GER", remove=True, pay=0))
    assert state.controller("GER") == "red" and state.players["red"].warehouse == 5


def test_EAW_6_3_the_diplomat_cannot_pay_more_than_the_warehouse_holds() -> None:
    state = position(
        control={"RAE": "red", "GER": "blue", "NUM": "blue"}, warehouse={"red": 1}, personalities={"red": ["envoy"]}
    )
    assert rejected(state, "red", Diplomacy("GER", True, 2)) == "EAW-6.3"


def test_EAW_13_14_removing_one_of_two_markers_leaves_the_province_with_its_owner() -> None:
    state = position(
        control={"RAE": "red", "GER": ("blue", 2), "NUM": "blue"},
        warehouse={"red": 5},
        personalities={"red": ["envoy"]},
    )
    state.players["blue"].stock_control = 0
    p = play(state, dice=[6])
    actions.take_action(p, "red", diplomacy("GER", remove=True, pay=0))
    assert state.controller("GER") == "blue" and state.markers("GER") == 1
    assert state.players["blue"].stock_control == 1
    assert events(p, "marker_removed")[0]["rule"] == "EAW-13.14"


def test_EAW_2_8_the_diplomat_cannot_remove_from_an_only_province_unless_battle_only() -> None:
    state = position(control={"RAE": "red", "GER": "blue"}, warehouse={"red": 5}, personalities={"red": ["envoy"]})
    assert rejected(state, "red", Diplomacy("GER", True)) == "EAW-2.8"
    assert rejected(state, "red", Diplomacy("GER", True), last_province="battle_only") is None


# -- EAW-7.12, EAW-7.13: reach and no rolls of movement ------------------------------------------------------
def test_EAW_7_12_diplomacy_reaches_across_the_mediterranean_by_default_without_sea_rolls() -> None:
    state = position(control={"GAL": "red"}, warehouse={"red": 2})
    p = play(state, dice=[2])
    actions.take_action(p, "red", diplomacy("EGY"))
    assert state.controller("EGY") == "red" and [e["purpose"] for e in events(p, "roll")] == ["diplomacy"]


def test_EAW_7_12_land_only_reach_refuses_the_sea_and_the_strait() -> None:
    state = position(control={"GAL": "red", "ITA": "red"}, warehouse={"red": 2})
    assert rejected(state, "red", Diplomacy("EGY"), diplomacy_reach="land_only") == "EAW-7.12"
    assert rejected(state, "red", Diplomacy("SIC"), diplomacy_reach="land_only") == "EAW-7.12"
    assert rejected(state, "red", Diplomacy("MOC"), diplomacy_reach="land_only") == "EAW-7.12"
    assert rejected(state, "red", Diplomacy("RAE"), diplomacy_reach="land_only") is None


def test_EAW_7_13_the_diplomat_removes_one_marker_only_and_takes_over_a_province_left_neutral() -> None:
    state = position(
        control={"RAE": "red", "GER": "blue", "NUM": "blue"}, warehouse={"red": 3}, personalities={"red": ["envoy"]}
    )
    p = play(state, dice=[3])
    actions.take_action(p, "red", diplomacy("GER", remove=True))
    assert state.control["GER"].seat == "red" and state.control["GER"].markers == 1
    assert [e["rule"] for e in events(p, "marker_added")] == ["EAW-7.11"]
