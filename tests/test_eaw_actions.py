"""The actions of Empires of the Ancient World that need no dice (EAW-7.25, EAW-7.40, EAW-7.41), the board's reach
(EAW-2.1, EAW-2.3, EAW-2.5, EAW-2.8), payments (EAW-6.3), a plan line's fall-backs and the EAW-12.2 default
(EAW-12.2, EAW-12.12), on the small test map of tests/eaw_helpers.py."""

from __future__ import annotations

from typing import Any

from adjudicator.orders import parse_orders
from adjudicator.rulesets.empires import actions, board
from adjudicator.rulesets.empires.orders import (
    Action,
    Attack,
    BuildFort,
    Diplomacy,
    PlaceControl,
    PlaceTrade,
    PlanLine,
    Recruit,
    TradeTarget,
)
from adjudicator.rulesets.empires.parse import language_of
from adjudicator.rulesets.empires.play import Play
from adjudicator.rulesets.empires.state import GameState
from tests.eaw_helpers import SEATS, Pieces, play, position, small_data


def line(*alternatives: Action) -> PlanLine:
    return PlanLine(tuple(alternatives), line=3, text=" ELSE ".join(actions.order_text(a) for a in alternatives))


def events(p: Play, kind: str) -> list[dict[str, Any]]:
    return [e.data for e in p.events if e.kind == kind]


def refused_rules(p: Play) -> list[str]:
    return [e["rule"] for e in events(p, "alternative_refused")]


def rejected(state: GameState, seat: str, action: Action, **options: Any) -> str | None:
    found = actions.refusal(play(state, small_data(**options)), seat, action)
    return None if found is None else found.rule


# -- EAW-2.1, EAW-2.3: reach -----------------------------------------------------------------------------------
def test_EAW_2_1_ordinary_adjacency_has_the_connection_kinds() -> None:
    game_map = small_data().map
    route = board.ordinary_route(game_map, "ITA", "SIC")
    assert route is not None and route.rolled_crossing and route.sea_lane and route.sea == "MCE"
    assert board.ordinary_route(game_map, "GAL", "AFR") is None


def test_EAW_2_3_mediterranean_rule_joins_coastal_provinces_and_the_three_seas_for_attacks() -> None:
    game_map = small_data().map
    route = board.attack_route(game_map, "GAL", "EGY")
    assert route is not None and route.mediterranean
    assert board.attack_route(game_map, "GAL", "MOR") is not None
    assert board.attack_route(game_map, "GAL", "NUM") is None  # NUM does not border the Mediterranean
    assert board.attack_route(game_map, "GER", "PON") is not None and board.attack_route(game_map, "GAL", "PON") is None


def test_EAW_2_3_mediterranean_rule_reaches_diplomacy_only_by_option_and_never_trade() -> None:
    game_map = small_data().map
    assert board.diplomacy_route(game_map, "GAL", "EGY", "mediterranean") is not None
    assert board.diplomacy_route(game_map, "GAL", "EGY", "land_only") is None
    assert board.diplomacy_route(game_map, "ITA", "SIC", "land_only") is None  # a strait that is a sea lane
    assert board.diplomacy_route(game_map, "RAE", "GAL", "land_only") is not None
    assert not board.touches(game_map, "EGY", ["GAL"])  # trade: ordinary adjacency only (EAW-7.30)


# -- EAW-7.40, EAW-7.41: a control marker ----------------------------------------------------------------------
def test_EAW_7_40_a_control_marker_goes_into_an_area_the_player_controls() -> None:
    state = position(control={"GAL": "red", "MOC": "red"})
    p = play(state)
    actions.take_action(p, "red", line(PlaceControl("MOC")))
    assert state.markers("MOC") == 2 and events(p, "marker_added")[0]["rule"] == "EAW-7.40"


def test_EAW_7_40_a_control_marker_is_refused_in_an_area_of_another_or_neutral() -> None:
    state = position(control={"GAL": "red", "ITA": "blue"})
    assert rejected(state, "red", PlaceControl("ITA")) == "EAW-7.40"
    assert rejected(state, "red", PlaceControl("RAE")) == "EAW-7.40"


def test_EAW_7_40_the_last_control_marker_in_stock_is_placed_and_none_after_it() -> None:
    data = small_data(pieces=Pieces(control_markers=3))
    state = position(data, control={"GAL": "red"})
    state.players["red"].stock_control = 1
    p = play(state, data)
    assert actions.refusal(p, "red", PlaceControl("GAL")) is None
    actions.take_action(p, "red", line(PlaceControl("GAL")))
    assert state.players["red"].stock_control == 0
    found = actions.refusal(p, "red", PlaceControl("GAL"))
    assert found is not None and found.rule == "EAW-1.2"


def test_EAW_7_41_five_actions_and_no_other() -> None:
    state = position(control={"GAL": "red"})
    found = actions.refusal(play(state), "red", "PASS")  # type: ignore[arg-type]
    assert found is not None and found.rule == "EAW-7.41"


# -- EAW-7.25, EAW-2.5, EAW-6.3: a fort ------------------------------------------------------------------------
def test_EAW_7_25_a_fort_costs_4_trade_markers_with_4_in_the_warehouse() -> None:
    state = position(control={"GAL": "red"}, warehouse={"red": 4})
    state.players["red"].stock_trade = 10
    p = play(state)
    actions.take_action(p, "red", line(BuildFort("GAL")))
    assert state.forts == {"GAL": "red"}
    assert state.players["red"].warehouse == 0
    assert state.players["red"].stock_trade == 14  # EAW-6.3: paid markers go back to stock


def test_EAW_7_25_a_fort_is_refused_with_3_in_the_warehouse() -> None:
    state = position(control={"GAL": "red"}, warehouse={"red": 3})
    assert rejected(state, "red", BuildFort("GAL")) == "EAW-7.25"


def test_EAW_7_25_an_engineer_builds_for_2_and_not_for_1() -> None:
    state = position(control={"GAL": "red"}, warehouse={"red": 2}, personalities={"red": ["builder"]})
    p = play(state)
    actions.take_action(p, "red", line(BuildFort("GAL")))
    assert state.forts == {"GAL": "red"} and events(p, "fort_built")[0]["cost"] == 2
    state = position(control={"GAL": "red"}, warehouse={"red": 1}, personalities={"red": ["builder"]})
    assert rejected(state, "red", BuildFort("GAL")) == "EAW-7.25"


def test_EAW_2_5_a_fort_is_refused_at_sea_in_a_fortified_province_and_outside_the_players_areas() -> None:
    state = position(control={"GAL": "red", "MOC": "red", "ITA": "blue"}, forts={"GAL": "red"}, warehouse={"red": 9})
    assert rejected(state, "red", BuildFort("MOC")) == "EAW-2.5"
    assert rejected(state, "red", BuildFort("GAL")) == "EAW-2.5"
    assert rejected(state, "red", BuildFort("ITA")) == "EAW-7.25"


def test_EAW_6_3_plunder_pays_only_with_plunder_spendable_and_goes_back_to_its_owner() -> None:
    state = position(control={"GAL": "red"}, warehouse={"red": 2})
    state.players["red"].plunder = {"blue": 2}
    state.players["blue"].stock_trade = 0
    assert rejected(state, "red", BuildFort("GAL")) == "EAW-7.25"
    p = play(state, small_data(plunder_spendable="true"))
    actions.take_action(p, "red", line(BuildFort("GAL")))
    assert state.forts == {"GAL": "red"} and state.players["red"].plunder == {}
    assert state.players["blue"].stock_trade == 2
    assert events(p, "paid")[0] == {"markers": 4, "plunder": 2, "warehouse": 0, "purpose": "fort", "rule": "EAW-7.25"}


# -- EAW-12.2, EAW-12.12: fall-backs and the default -----------------------------------------------------------
def test_EAW_12_2_the_first_legal_alternative_is_taken_and_the_refused_ones_are_told_to_the_seat_alone() -> None:
    state = position(control={"GAL": "red", "RAE": "red"}, warehouse={"red": 4})
    p = play(state)
    actions.take_action(p, "red", line(BuildFort("MOC"), PlaceControl("ITA"), BuildFort("RAE"), PlaceControl("GAL")))
    assert state.forts == {"RAE": "red"} and state.markers("GAL") == 1
    refused = [e for e in p.events if e.kind == "alternative_refused"]
    assert [e.data["index"] for e in refused] == [1, 2]
    assert all(e.visible_to == frozenset({"red"}) for e in refused)
    assert refused_rules(p) == ["EAW-2.5", "EAW-7.40"]


def test_EAW_12_2_without_a_legal_alternative_a_marker_goes_to_the_province_with_fewest_markers_lowest_id() -> None:
    state = position(control={"GAL": ("red", 2), "RAE": "red", "SIC": "red", "MOC": "red"})
    p = play(state)
    actions.take_action(p, "red", line(BuildFort("RAE")))  # no trade markers: refused
    assert events(p, "default_action") == [{"why": "all_refused", "action": "CONTROL RAE", "rule": "EAW-12.2"}]
    assert state.markers("RAE") == 2 and state.markers("SIC") == 1


def test_EAW_12_2_a_seat_without_a_plan_gets_the_default() -> None:
    state = position(control={"GAL": "red", "ITA": ("red", 3)})
    p = play(state)
    actions.take_action(p, "red", None)
    assert state.markers("GAL") == 2 and events(p, "default_action")[0]["why"] == "no_plan"


def test_EAW_12_2_a_player_with_only_sea_areas_reinforces_a_sea_and_one_with_nothing_loses_the_action() -> None:
    state = position(control={"MOR": ("red", 2), "MOC": "red"})
    p = play(state)
    actions.take_action(p, "red", None)
    assert state.markers("MOC") == 2
    p = play(position(control={"GAL": "blue"}))
    actions.take_action(p, "red", None)
    assert events(p, "action_lost") == [{"why": "no_plan", "rule": "EAW-12.2"}]


def test_EAW_12_12_fort_and_control_sites_fall_back_to_the_default() -> None:
    state = position(control={"GAL": "red", "RAE": ("red", 2)}, warehouse={"red": 9})
    p = play(state)
    actions.take_action(p, "red", line(BuildFort("ITA"), PlaceControl("ITA")))
    assert state.markers("GAL") == 2 and refused_rules(p) == ["EAW-7.25", "EAW-7.40"]


def test_EAW_12_2_order_texts_read_as_plan_lines() -> None:
    written = (
        Attack("GAL", "RAE", ("pike",), (PlaceTrade((TradeTarget("GAL"),)), Recruit(("best",)))),
        Diplomacy("NUM", remove=True, pay=2),
        Recruit(("archer", "best"), "if_none"),
        PlaceTrade((TradeTarget("GAL", "blue"), TradeTarget("ITA", ""))),
    )
    texts = [actions.order_text(a) for a in written]
    assert texts == [
        "ATTACK GAL FROM RAE WITH pike THEN TRADE GAL OR RECRUIT BEST",  # the free action's fall-backs: OR (EAW-12.9)
        "DIPLOMACY REMOVE NUM PAY 2",
        "RECRUIT archer, BEST REFRESH IF NONE",
        "TRADE GAL DISPLACE blue, ITA DISPLACE",
    ]
    language = language_of(small_data(), SEATS)
    for action in written:
        german = actions.order_text(action, "de")
        parsed = parse_orders(f"GAME g TURN 1 PLAYER red PASSWORD x\n{german}\n", language)
        assert [o.alternatives for o in parsed.orders if isinstance(o, PlanLine)] == [(action,)], german


# -- EAW-2.2, EAW-2.4, EAW-2.9, EAW-2.10: what the actions read of the map ----------------------------------
def test_EAW_2_2_the_three_mediterranean_seas_join_the_coast_and_a_sea_outside_does_not() -> None:
    game_map = small_data().map
    assert game_map.mediterranean_seas == ("MCE", "MOC", "MOR")
    assert all(board.in_mediterranean(game_map, s) for s in game_map.mediterranean_seas)
    assert not board.in_mediterranean(game_map, "PON") and not board.in_mediterranean(game_map, "NUM")


def test_EAW_2_4_an_area_never_holds_markers_of_two_players() -> None:
    state = position(control={"GAL": "red", "ITA": "blue", "SIC": "blue"}, warehouse={"red": 5})
    for action in (PlaceControl("ITA"), Diplomacy("ITA")):
        assert rejected(state, "red", action) in ("EAW-7.40", "EAW-7.10")


def test_EAW_2_9_a_mediterranean_sea_worth_8_takes_8_trade_markers_and_not_9() -> None:
    state = position(control={"MOC": "red"}, warehouse={"red": 5}, trade={"MOC": {"blue": 7}})
    p = play(state)
    actions.take_action(p, "red", line(PlaceTrade((TradeTarget("MOC"), TradeTarget("MOC")))))
    assert state.trade["MOC"] == {"blue": 7, "red": 1}
    assert events(p, "trade_skipped")[0]["rule"] == "EAW-12.11"


def test_EAW_2_10_a_sea_area_belongs_to_no_half_for_card_labels() -> None:
    state = position(control={"MOC": "red", "MCE": "red"}, display=["rider", "camel"])
    assert rejected(state, "red", Recruit(("rider",))) == "EAW-12.3"
    assert rejected(state, "red", Recruit(("camel",))) == "EAW-12.3"
