"""Empires of the Ancient World: the new game, the deal and the placement (EAW-3, EAW-12.1, EAW-12.13, EAW-12.14),
played by the real steps (engine.steps.resolve_step) on the test map of tests/eaw_helpers.py."""

from __future__ import annotations

from typing import Any

import pytest

from adjudicator.engine.chance import GivenDice, KeyedDice
from adjudicator.engine.steps import resolve_step
from adjudicator.errors import PbemError
from adjudicator.orders.sets import OrderSet
from adjudicator.rulesets import load_ruleset
from adjudicator.rulesets.empires.data import GameData, Pieces
from adjudicator.rulesets.empires.game import EmpiresGame
from adjudicator.rulesets.empires.orders import (
    DefendOrder,
    FortChoice,
    PlaceChoice,
    PlaceControl,
    PlanLine,
    StartChoice,
)
from adjudicator.rulesets.empires.state import PLACEMENT, REVOLT, GameState
from tests.eaw_helpers import small_data

DECK = 21  # general deck instances of the test data: a shuffle of 20 draws (EAW-3.5)


def bound(data: GameData | None = None) -> EmpiresGame:
    data = data or small_data()
    return EmpiresGame(load_ruleset("empires-aw").info, data, data.options)


def dealt(game: EmpiresGame, seats: tuple[str, ...] = ("red", "blue", "green"), first: int = 1) -> GameState:
    """A new game after its deal: the shuffle's draws all 1, then the first setup player's roll."""
    state = game.initial_state("g", list(seats))
    step = game.due(state)
    assert step is not None and step.phase == "setup" and step.seats == ()
    return resolve_step(game, state, step, {}, GivenDice(values=[1] * (DECK - 1) + [first])).state


def orders(*given: Any) -> OrderSet:
    return OrderSet(None, tuple(given))


def start(*areas: str, line: int = 1) -> StartChoice:
    return StartChoice(tuple(areas), line=line, text="START " + ", ".join(areas))


def place(*areas: str, line: int = 2) -> PlaceChoice:
    return PlaceChoice(tuple(areas), line=line, text="PLACE " + ", ".join(areas))


def fort(*areas: str, line: int = 3) -> FortChoice:
    return FortChoice(tuple(areas), line=line, text="FORT " + ", ".join(areas))


def placed(game: EmpiresGame, state: GameState, given: dict[str, OrderSet | None], dice: list[int]) -> Any:
    step = game.due(state)
    assert step is not None and step.phase == PLACEMENT and step.sealed
    return resolve_step(game, state, step, given, GivenDice(values=dice))


# -- EAW-3.4, EAW-3.5, EAW-3.6 ------------------------------------------------------------------------------------


def test_EAW_3_4_three_to_five_players_and_no_other_count() -> None:
    game = bound()
    for seats in (["red", "blue", "green"], ["red", "blue", "green", "yellow", "white"]):
        assert game.initial_state("g", seats).seats == seats
    for seats in (["red", "blue"], ["red", "blue", "green", "yellow", "white", "black"]):
        with pytest.raises(PbemError, match=r"3 to 5 players.*EAW-3\.4"):
            game.initial_state("g", seats)


def test_EAW_3_3_seating_order_is_the_order_given_and_seats_by_prefix() -> None:
    game = bound()
    assert game.initial_state("g", ["green", "red", "blue"]).seats == ["green", "red", "blue"]
    assert game.lookup_seat("Gr") == ["green"] and game.lookup_seat("bl") == ["blue"]
    assert game.lookup_seat("purple") == []


def test_EAW_3_5_deal_6_cards_face_up_from_a_hidden_shuffle_and_EAW_3_6_first_setup_player_EAW_0_5() -> None:
    game = bound()
    state = game.initial_state("g", ["red", "blue", "green"])
    dice = GivenDice(values=[1] * (DECK - 1) + [2])
    result = resolve_step(game, state, game.due(state), {}, dice)  # type: ignore[arg-type]
    after = result.state
    assert len(after.display) == 6 and len(after.deck) == DECK - 6
    assert sorted(after.display + after.deck) == sorted(game.data.general_deck)
    # EAW-0.5: the shuffle first, from the hidden stream; then the first setup player, in the public log
    assert len(dice.hidden_log) == DECK - 1 and all(p.startswith("shuffle general deck") for p, _ in dice.hidden_log)
    assert result.dice == [("first setup player", 2)]
    assert after.first_setup_player == "blue" and after.setup_order() == ["blue", "green", "red"]
    assert after.phase == PLACEMENT and game.due(after).seats == ("red", "blue", "green")  # type: ignore[union-attr]
    kinds = [e.kind for e in result.events]
    assert kinds == ["deal", "roll", "first_setup_player"]
    assert all(e.public for e in result.events) and "deck" not in str(result.events[0].data.get("display"))
    assert game.broken_invariants(after) == []


def test_EAW_3_5_the_same_keyed_stream_deals_the_same_cards() -> None:
    game = bound()
    state = game.initial_state("g", ["red", "blue", "green"])

    def keyed() -> KeyedDice:
        return KeyedDice(key=b"k" * 32, orders_hash="h", hidden_key=b"s" * 32)

    one = resolve_step(game, state, game.due(state), {}, keyed()).state  # type: ignore[arg-type]
    two = resolve_step(game, state, game.due(state), {}, keyed()).state  # type: ignore[arg-type]
    assert one.display == two.display and one.deck == two.deck and state.deck == []


# -- EAW-3.7 to EAW-3.12 ------------------------------------------------------------------------------------------


def test_EAW_3_7_start_in_order_of_the_lists_and_EAW_3_8_home_army_of_that_half() -> None:
    game = bound(small_data(start_markers={3: 1}))  # no further markers: the starts alone
    state = dealt(game, first=1)  # setup order red, blue, green
    given = {"red": orders(start("ITA", "GAL")), "blue": orders(start("ITA", "Afr")), "green": orders(start("EGY"))}
    # hidden picks: red among A B C (2 -> B), blue among D E F (3 -> F), green among D E (1 -> D); start player 3
    result = placed(game, state, given, [2, 3, 1, 3])
    after = result.state
    assert {a: c.seat for a, c in after.control.items()} == {"ITA": "red", "AFR": "blue", "EGY": "green"}
    assert [after.players[s].home_group for s in ("red", "blue", "green")] == ["B", "F", "D"]
    assert after.players["blue"].hand == list(game.data.home_army("F"))  # EAW-3.12: the home army only
    assert after.home_groups == {"north": ["A", "C"], "south": ["E"]}
    private = [e for e in result.events if e.kind == "home_army"]
    assert [sorted(e.visible_to or ()) for e in private] == [["red"], ["blue"], ["green"]]
    hidden = set(game.data.home_army("F"))
    assert all("group" not in e.data and not hidden & set(map(str, e.data.values())) for e in result.events if e.public)
    assert after.start_player == "green" and after.phase == REVOLT and after.round == 1  # EAW-3.11
    assert all(p.warehouse == 0 for p in after.players.values())  # EAW-3.12
    assert game.broken_invariants(after) == []


def test_EAW_3_7_a_province_held_or_a_sea_is_skipped_for_the_next_on_the_list() -> None:
    game = bound(small_data(start_markers={3: 1}))
    state = dealt(game)
    given = {"red": orders(start("GAL")), "blue": orders(start("GAL", "MOC", "SIC")), "green": orders(start("NUM"))}
    after = placed(game, state, given, [1, 1, 1, 1]).state
    assert after.controller("SIC") == "blue" and after.controller("MOC") is None


def test_EAW_3_7_EAW_13_23_EAW_2_10_five_players_three_in_the_north_then_the_south() -> None:
    game = bound(small_data(start_markers={5: 1}))
    seats = ("red", "blue", "green", "yellow", "white")
    state = dealt(game, seats)
    north = orders(start("GAL", "RAE", "GER", "ITA", "SIC"))
    result = placed(game, state, dict.fromkeys(seats, north), [1, 1, 1, 1, 1])  # group picks A, B, C(one), D, E(one)
    after = result.state
    halves = [after.players[s].half for s in seats]
    assert halves == ["north", "north", "north", "south", "south"]
    assert [after.players[s].home_group for s in seats] == ["A", "B", "C", "D", "E"]
    # the fourth wanted only northern provinces: the default gives the southern one of the highest value (EAW-12.1)
    fourth = next(e for e in result.events if e.kind == "start_province" and e.seat == "yellow")
    assert fourth.data["area"] == "EGY" and fourth.data["source"] == "default"
    assert game.broken_invariants(after) == []


def test_EAW_12_1_no_orders_the_free_province_of_the_highest_value() -> None:
    game = bound(small_data(start_markers={3: 1}))
    after = placed(game, dealt(game), {"red": None, "blue": None, "green": None}, [1, 1, 1, 1]).state
    # EGY 5, then ITA 4 and AFR 4 (lowest id first)
    assert {a: c.seat for a, c in after.control.items()} == {"EGY": "red", "AFR": "blue", "ITA": "green"}


def test_EAW_3_9_markers_go_round_next_to_own_areas_EAW_12_13_EAW_2_4_never_into_anothers() -> None:
    game = bound(small_data(start_markers={3: 3}))  # total 3: 2 further markers each (EAW-3.9 `total`)
    state = dealt(game)
    given = {
        "red": orders(start("ITA"), place("GER", "SIC", "GAL", "RAE")),  # GER is not next to ITA: skipped
        "blue": orders(start("SIC"), place("MCE", "ITA")),
        "green": orders(start("EGY"), place("PON")),  # PON is far: the default
    }
    result = placed(game, state, given, [1, 1, 1, 1])
    markers = [(e.seat, e.data["area"], e.data["source"]) for e in result.events if e.kind == "setup_marker"]
    assert markers == [
        ("red", "GAL", "order"),  # GER is not next to ITA, SIC is blue's
        ("blue", "MCE", "order"),
        ("green", "MOR", "default"),  # PON is far: the neutral area next to EGY of the highest value
        ("red", "RAE", "order"),
        ("blue", "MOC", "default"),  # ITA is red's: MOC (8) before AFR (4)
        ("green", "CRE", "default"),  # CRE (3) before NUM (2); MCE is blue's
    ]
    counts = {s: sum(c.markers for c in result.state.control.values() if c.seat == s) for s in ("red", "blue", "green")}
    assert counts == {"red": 3, "blue": 3, "green": 3}


def test_EAW_3_9_start_markers_count_additional_places_the_full_number_after_the_start() -> None:
    game = bound(small_data(start_markers={3: 2}, start_markers_count="additional"))
    after = placed(game, dealt(game), dict.fromkeys(("red", "blue", "green")), [1, 1, 1, 1]).state
    counts = {s: sum(c.markers for c in after.control.values() if c.seat == s) for s in ("red", "blue", "green")}
    assert counts == {"red": 3, "blue": 3, "green": 3}


def test_EAW_3_1_default_start_markers_ten_minus_players_and_EAW_3_9_a_full_map_reinforces_own_areas() -> None:
    game = bound()  # 3 players: 7 markers each, 21 in all on a map of 13 areas
    after = placed(game, dealt(game), dict.fromkeys(("red", "blue", "green")), [1, 1, 1, 1]).state
    counts = {s: sum(c.markers for c in after.control.values() if c.seat == s) for s in ("red", "blue", "green")}
    assert counts == {"red": 7, "blue": 7, "green": 7}
    assert game.broken_invariants(after) == []


def test_EAW_2_11_an_unnamed_sea_is_not_taken_at_setup() -> None:
    from dataclasses import replace

    data = small_data(start_markers={3: 2})
    areas = dict(data.map.areas)
    areas["PON"] = replace(areas["PON"], named=False)
    data = replace(data, map=replace(data.map, areas=areas))
    game = bound(data)
    given = {"red": orders(start("GER"), place("PON", "RAE")), "blue": None, "green": None}
    after = placed(game, dealt(game), given, [1, 1, 1, 1]).state
    assert after.controller("PON") is None and after.controller("RAE") == "red"


def test_EAW_3_10_fort_from_the_list_else_EAW_12_14_the_best_controlled_province() -> None:
    game = bound(small_data(start_markers={3: 2}))
    given = {
        "red": orders(start("ITA"), place("GAL"), fort("SIC", "GAL")),  # SIC is not red's
        "blue": orders(start("SIC"), place("MCE"), fort("MCE")),  # a sea: the default SIC
        "green": None,
    }
    result = placed(game, dealt(game), given, [1, 1, 1, 1])
    assert result.state.forts == {"GAL": "red", "SIC": "blue", "EGY": "green"}
    assert game.broken_invariants(result.state) == []


def test_EAW_1_2_pieces_per_player_limit_the_setup_markers() -> None:
    game = bound(small_data(pieces=Pieces(control_markers=2, trade_markers=10, forts=0)))
    result = placed(game, dealt(game), dict.fromkeys(("red", "blue", "green")), [1, 1, 1, 1])
    after = result.state
    assert all(p.stock_control == 0 and p.stock_forts == 0 for p in after.players.values())
    assert sum(c.markers for c in after.control.values()) == 6 and after.forts == {}
    assert any(e.kind == "setup_marker_skipped" for e in result.events)
    assert game.broken_invariants(after) == []


def test_EAW_3_7_receipts_name_a_sea_or_an_unknown_area_and_keep_standing_plans() -> None:
    game = bound()
    state = dealt(game)
    given = orders(
        start("MOC", line=1),
        start("XYZ", line=2),
        place("MOC", line=3),
        DefendOrder(True, line=4, text="DEFEND SIEGE"),
        PlanLine((PlaceControl("ITA"),), line=5, text="CONTROL ITA"),
    )
    verdicts = game.check_orders(state, "red", 2, given, GivenDice())
    assert [(v.line, v.accepted, v.rule) for v in verdicts] == [
        (1, False, "EAW-3.7"),
        (2, False, "EAW-3.7"),
        (3, True, "EAW-3.9"),
        (4, True, "EAW-12"),
        (5, False, "EAW-3.7"),
    ]
    after = placed(game, state, {"red": given, "blue": None, "green": None}, [1, 1, 1, 1]).state
    assert after.players["red"].standing == {"defend": {"*": "siege"}}


def test_EAW_3_2_the_setup_is_the_deal_then_one_sealed_placement_step() -> None:
    game = bound()
    state = game.initial_state("g", ["red", "blue", "green"])
    assert [(s.phase, s.seats, s.sealed) for s in game.coming_steps(state)] == [
        ("setup", (), False),
        ("placement", ("red", "blue", "green"), True),
    ]
    assert game.next_steps(state) == dict.fromkeys(("red", "blue", "green"), 2)


def test_EAW_3_11_the_start_player_is_rolled_apart_from_the_setup_order_EAW_3_12_warehouses_empty() -> None:
    game = bound(small_data(start_markers={3: 1}))
    state = dealt(game, first=2)  # blue sets up first
    result = placed(game, state, dict.fromkeys(("red", "blue", "green")), [1, 1, 1, 1])  # 3 hidden picks; start 1
    assert result.dice == [("start player", 1)]  # the home-army picks are hidden draws (EAW-0.5)
    after = result.state
    assert after.first_setup_player == "blue" and after.start_player == "red"
    assert after.action_order() == ["red", "blue", "green"]
    assert [p.warehouse for p in after.players.values()] == [0, 0, 0]
    assert all(len(p.hand) == len(game.data.home_army(p.home_group or "")) for p in after.players.values())


def test_EAW_12_14_a_mailed_FORT_of_one_province_is_the_starting_fort_in_the_placement_step() -> None:
    from adjudicator.orders import parse_orders

    game = bound(small_data(start_markers={3: 2}))
    state = dealt(game)
    text = "GAME g TURN 2 PLAYER red PASSWORD x\nSTART ITA\nPLACE GAL\nFORT GAL\n"
    given = parse_orders(text, game)
    assert not given.errors
    verdicts = game.check_orders(state, "red", 2, given, GivenDice())
    assert [(v.line, v.accepted, v.rule) for v in verdicts] == [(2, True, "EAW-3.7"), (3, True, "EAW-3.9"),
                                                               (4, True, "EAW-3.10")]  # fmt: skip
    after = placed(game, state, {"red": given, "blue": None, "green": None}, [1, 1, 1, 1]).state
    assert after.forts["GAL"] == "red"
