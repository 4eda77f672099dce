"""Placing trade markers (EAW-7.30, EAW-7.31, EAW-2.6, EAW-12.11, EAW-12.15, EAW-13.19, EAW-13.20, EAW-13.25) on the
small test map of tests/eaw_helpers.py."""

from __future__ import annotations

from typing import Any

from adjudicator.engine.chance import DiceError
from adjudicator.rulesets.empires import actions
from adjudicator.rulesets.empires.orders import PlaceTrade, PlanLine, TradeTarget
from adjudicator.rulesets.empires.play import Play
from tests.eaw_helpers import play, position, small_data


def trade(*targets: str | tuple[str, str]) -> PlanLine:
    found = tuple(TradeTarget(t) if isinstance(t, str) else TradeTarget(*t) for t in targets)
    return PlanLine((PlaceTrade(found),), line=2, text="TRADE")


def events(p: Play, kind: str) -> list[dict[str, Any]]:
    return [e.data for e in p.events if e.kind == kind]


def test_EAW_7_30_two_markers_one_at_a_time_the_third_target_left() -> None:
    state = position(control={"GAL": "red"}, warehouse={"red": 5})
    p = play(state)
    actions.take_action(p, "red", trade("GAL", "RAE", "MOC"))
    assert state.trade == {"GAL": {"red": 1}, "RAE": {"red": 1}}
    assert state.players["red"].warehouse == 3


def test_EAW_7_30_a_merchant_places_a_third_and_not_a_fourth() -> None:
    state = position(control={"GAL": "red"}, warehouse={"red": 5}, personalities={"red": ["trader"]})
    p = play(state)
    actions.take_action(p, "red", trade("GAL", "RAE", "MOC", "GAL"))
    assert state.trade == {"GAL": {"red": 1}, "RAE": {"red": 1}, "MOC": {"red": 1}}


def test_EAW_7_30_a_warehouse_of_one_places_one() -> None:
    state = position(control={"GAL": "red"}, warehouse={"red": 1})
    actions.take_action(play(state), "red", trade("GAL", "RAE"))
    assert state.trade == {"GAL": {"red": 1}} and state.players["red"].warehouse == 0


def test_EAW_13_25_plunder_is_never_placed_an_empty_warehouse_is_refused() -> None:
    state = position(control={"GAL": "red"}, warehouse={"red": 0})
    state.players["red"].plunder = {"blue": 3}
    p = play(state, small_data(plunder_spendable="true"))
    found = actions.refusal(p, "red", PlaceTrade((TradeTarget("GAL"),)))
    assert found is not None and found.rule == "EAW-7.30"


def test_EAW_7_30_a_refused_target_keeps_its_marker_for_the_next() -> None:
    state = position(control={"GAL": "red"}, warehouse={"red": 5})
    p = play(state)
    actions.take_action(p, "red", trade("EGY", "GAL", "ITA"))
    assert state.trade == {"GAL": {"red": 1}, "ITA": {"red": 1}}
    assert events(p, "trade_skipped")[0]["rule"] == "EAW-7.30"


def test_EAW_13_19_chain_reach_goes_on_from_the_marker_just_placed() -> None:
    state = position(control={"GER": "red"}, warehouse={"red": 5})
    actions.take_action(play(state), "red", trade("RAE", "GAL"))  # GAL is two steps from GER
    assert state.trade == {"RAE": {"red": 1}, "GAL": {"red": 1}}


def test_EAW_7_30_controlled_only_reach_stops_at_the_players_areas() -> None:
    state = position(control={"GER": "red"}, warehouse={"red": 5})
    p = play(state, small_data(trade_reach="controlled_only"))
    actions.take_action(p, "red", trade("RAE", "GAL"))
    assert state.trade == {"RAE": {"red": 1}}


def test_EAW_7_30_chain_reach_starts_from_an_earlier_trade_marker() -> None:
    state = position(control={"GER": "red"}, warehouse={"red": 5}, trade={"ITA": {"red": 1}})
    actions.take_action(play(state), "red", trade("SIC"))
    assert state.trade["SIC"] == {"red": 1}


def test_EAW_7_30_trade_never_uses_the_mediterranean_rule() -> None:
    state = position(control={"GAL": "red"}, warehouse={"red": 5})
    p = play(state)
    actions.take_action(p, "red", trade("EGY"))
    assert "EGY" not in state.trade and events(p, "default_action")


def test_EAW_2_6_an_area_takes_markers_up_to_its_value_of_all_players_together() -> None:
    state = position(control={"RAE": "red"}, warehouse={"red": 5}, trade={"RAE": {"blue": 1}})
    p = play(state)
    actions.take_action(p, "red", trade("RAE", "RAE"))  # RAE is worth 2: one more fits
    assert state.trade["RAE"] == {"blue": 1, "red": 1}
    assert events(p, "trade_skipped")[0]["rule"] == "EAW-12.11"


def test_EAW_2_7_an_amphora_does_not_change_an_areas_trade_capacity() -> None:
    state = position(control={"ITA": "red"}, warehouse={"red": 5}, trade={"ITA": {"blue": 3}})
    p = play(state)
    actions.take_action(p, "red", trade("ITA", "ITA"))  # ITA: amphora, worth 4
    assert state.trade["ITA"] == {"blue": 3, "red": 1} and state.players["red"].warehouse == 4


def test_EAW_13_20_an_area_worth_2_holds_two_a_third_needs_the_displacement_roll() -> None:
    state = position(control={"RAE": "red"}, warehouse={"red": 5}, trade={"RAE": {"blue": 2}})
    state.players["blue"].stock_trade = 0
    p = play(state, dice=[5])
    actions.take_action(p, "red", trade(("RAE", "blue")))
    assert state.trade["RAE"] == {"blue": 1, "red": 1} and state.players["blue"].stock_trade == 1
    assert [e["value"] for e in events(p, "roll")] == [5]


def test_EAW_7_31_a_displacement_roll_of_4_fails_and_the_marker_goes_to_stock() -> None:
    state = position(control={"RAE": "red"}, warehouse={"red": 5}, trade={"RAE": {"blue": 2}})
    state.players["red"].stock_trade = 0
    p = play(state, dice=[4])
    actions.take_action(p, "red", trade(("RAE", "blue"), "GER"))
    assert state.trade["RAE"] == {"blue": 2} and state.players["red"].stock_trade == 1
    assert state.trade["GER"] == {"red": 1} and state.players["red"].warehouse == 3
    assert events(p, "trade_lost") == [{"area": "RAE", "rule": "EAW-7.31"}]


def test_EAW_7_31_a_merchant_adds_one_to_the_displacement_roll() -> None:
    state = position(
        control={"RAE": "red"}, warehouse={"red": 5}, trade={"RAE": {"blue": 2}}, personalities={"red": ["trader"]}
    )
    p = play(state, dice=[4])
    actions.take_action(p, "red", trade(("RAE", "blue")))
    assert state.trade["RAE"] == {"blue": 1, "red": 1}


def test_EAW_12_11_a_full_area_is_skipped_without_a_roll_unless_displace_is_ordered() -> None:
    state = position(control={"RAE": "red"}, warehouse={"red": 5}, trade={"RAE": {"blue": 2}})
    p = play(state)  # no dice: a roll would raise DiceError
    actions.take_action(p, "red", trade("RAE", "GER"))
    assert state.trade == {"RAE": {"blue": 2}, "GER": {"red": 1}}
    p = play(state)
    try:
        actions.take_action(p, "red", trade(("RAE", "")))
    except DiceError:
        pass
    else:
        raise AssertionError("a displacement must roll")


def test_EAW_12_15_the_default_owner_has_most_markers_ties_go_to_the_next_seat_after_the_placer() -> None:
    state = position(control={"ITA": "green"}, warehouse={"green": 5}, trade={"ITA": {"red": 2, "blue": 2}})
    p = play(state, dice=[6])
    actions.take_action(p, "green", trade(("ITA", "")))
    assert events(p, "trade_displaced")[0]["owner"] == "red"  # seats red, blue, green: after green comes red
    state = position(control={"ITA": "red"}, warehouse={"red": 5}, trade={"ITA": {"blue": 1, "green": 3}})
    p = play(state, dice=[6])
    actions.take_action(p, "red", trade(("ITA", "")))
    assert state.trade["ITA"] == {"blue": 1, "green": 2, "red": 1}


def test_EAW_12_15_the_named_owner_loses_the_marker() -> None:
    state = position(control={"ITA": "red"}, warehouse={"red": 5}, trade={"ITA": {"blue": 1, "green": 3}})
    p = play(state, dice=[5])
    actions.take_action(p, "red", trade(("ITA", "blue")))
    assert state.trade["ITA"] == {"green": 3, "red": 1}


def test_EAW_7_31_an_area_full_of_the_placers_own_markers_is_refused() -> None:
    state = position(control={"RAE": "red"}, warehouse={"red": 5}, trade={"RAE": {"red": 2}})
    found = actions.refusal(play(state), "red", PlaceTrade((TradeTarget("RAE", ""),)))
    assert found is not None and found.rule == "EAW-7.31"
