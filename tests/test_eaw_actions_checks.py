"""Receipts of plan lines (EAW-12.2): accepted with the alternative the position would take now, refused only when
the data rule out every alternative (EAW-2.1, EAW-2.3, EAW-2.5, EAW-7.11, EAW-7.12, EAW-7.21, EAW-12.3, EAW-12.15)."""

from __future__ import annotations

from typing import Any

from adjudicator.orders import parse_orders
from adjudicator.rulesets.empires.checks import check_plan_line
from adjudicator.rulesets.empires.orders import (
    Action,
    Attack,
    BuildFort,
    Diplomacy,
    Disband,
    PlaceControl,
    PlaceTrade,
    PlanLine,
    Recruit,
    TradeTarget,
)
from adjudicator.rulesets.empires.parse import OrderLanguage, language_of
from adjudicator.rulesets.empires.state import GameState
from tests.eaw_helpers import SEATS, play, position, small_data


def language() -> OrderLanguage:
    return language_of(small_data(), SEATS)


def receipt(state: GameState, *alternatives: Action, **options: Any) -> tuple[bool, str, str]:
    line = PlanLine(tuple(alternatives), line=7, text="the line")
    found = check_plan_line(play(state, small_data(**options)), "red", line)
    assert (found.line, found.text) == (7, "the line")
    return found.accepted, found.rule, found.reason


def test_EAW_12_2_the_receipt_names_the_alternative_the_position_takes_now() -> None:
    state = position(control={"GAL": "red"}, warehouse={"red": 4})
    accepted, rule, reason = receipt(state, PlaceControl("ITA"), BuildFort("GAL"))
    assert accepted and rule == "EAW-12.2"
    assert "alternative 2 (FORT GAL) would be taken" in reason and "judged again when its turn comes" in reason


def test_EAW_12_2_a_line_that_cannot_be_taken_now_is_accepted_it_may_be_later() -> None:
    state = position(control={"GAL": "red"}, warehouse={"red": 0})
    accepted, _, reason = receipt(state, BuildFort("GAL"), Attack("NUM", ""))
    assert accepted and "no alternative can be taken" in reason


def test_EAW_2_5_a_fort_at_sea_is_refused_for_good() -> None:
    state = position(control={"MOC": "red"}, warehouse={"red": 9})
    assert receipt(state, BuildFort("MOC"))[:2] == (False, "EAW-2.5")


def test_EAW_2_5_a_read_line_with_a_fort_at_sea_keeps_its_fall_back_and_names_the_fort() -> None:
    state = position(control={"GAL": "red"}, warehouse={"red": 9})
    orders = parse_orders(f"GAME g TURN 1 PLAYER red PASSWORD x\n{'FORT MOC ELSE CONTROL GAL'}\n", language())
    assert not orders.errors, [e.located for e in orders.errors]
    (line,) = orders.orders
    assert isinstance(line, PlanLine)
    found = check_plan_line(play(state, small_data()), "red", line)
    assert found.accepted and found.rule == "EAW-12.2"
    assert "alternative 1 can never be taken" in found.reason and "(EAW-2.5)" in found.reason
    assert "alternative 2 (CONTROL GAL) would be taken" in found.reason


def test_EAW_2_1_an_unknown_area_is_refused_and_a_known_alternative_keeps_the_line() -> None:
    state = position(control={"GAL": "red"})
    assert receipt(state, PlaceControl("XXX"))[:2] == (False, "EAW-2.1")
    accepted, _, reason = receipt(state, PlaceControl("XXX"), PlaceControl("GAL"))
    assert accepted and "alternative 1 can never be taken" in reason and "(EAW-2.1)" in reason


def test_EAW_2_3_an_origin_without_any_connection_to_the_target_is_refused() -> None:
    state = position(control={"RAE": "red"})
    assert receipt(state, Attack("EGY", "RAE"))[:2] == (False, "EAW-2.3")
    assert receipt(state, Attack("EGY", "GAL"))[0]  # GAL may be red's later; the Mediterranean rule joins them
    assert receipt(state, Attack("RAE", "RAE"))[:2] == (False, "EAW-7.1")


def test_EAW_7_11_a_removal_paying_4_is_refused_and_3_accepted() -> None:
    state = position(control={"RAE": "red"})
    assert receipt(state, Diplomacy("GER", True, 4))[:2] == (False, "EAW-7.11")
    assert receipt(state, Diplomacy("GER", True, 3))[0]


def test_EAW_7_12_land_only_diplomacy_refuses_an_area_without_a_land_border() -> None:
    state = position(control={"GAL": "red"})
    assert receipt(state, Diplomacy("CRE"), diplomacy_reach="land_only")[:2] == (False, "EAW-7.12")
    assert receipt(state, Diplomacy("CRE"))[0]


def test_EAW_12_3_a_recruit_list_naming_nothing_is_refused() -> None:
    state = position(control={"GAL": "red"})
    assert receipt(state, Recruit(("elephant",)))[:2] == (False, "EAW-12.3")
    assert receipt(state, Recruit(("pike", "sword", "diplomat", "BEST")))[0]


def test_EAW_7_21_disbanding_a_home_army_card_is_refused_for_good() -> None:
    state = position(control={"GAL": "red"})
    assert receipt(state, Disband("guard_a"))[:2] == (False, "EAW-7.21")
    assert receipt(state, Disband("pike"))[0]


def test_EAW_12_15_displacing_a_player_not_in_the_game_is_refused() -> None:
    state = position(control={"GAL": "red"})
    assert receipt(state, PlaceTrade((TradeTarget("GAL", "purple"),)))[:2] == (False, "EAW-12.15")
    assert receipt(state, PlaceTrade((TradeTarget("GAL", "blue"),)))[0]


def test_EAW_12_2_a_receipt_changes_nothing() -> None:
    state = position(control={"GAL": "red"}, warehouse={"red": 4})
    before = state.copy()
    receipt(state, BuildFort("GAL"))
    assert state == before
