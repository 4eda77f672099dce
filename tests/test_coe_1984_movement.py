"""Rule tests for movement in the original 1984 edition (games/coe-1984/rules.md section 5 and the edge cases
O-15.13, O-15.17 to O-15.20): stacking with cities as leaders, one road journey per piece, one legion per
galley, galleys stopping at other players' galleys. Macedonia is the active player; test names carry the rule
IDs (O-x.y) they check."""

from __future__ import annotations

from adjudicator.engine.chance import GivenDice
from adjudicator.rulesets import load_ruleset
from adjudicator.rulesets.coe.capture import end_of_movement
from adjudicator.rulesets.coe.movement import movement_phase
from adjudicator.rulesets.coe.orders import CAESAR, Header, Order, OrderSet
from adjudicator.rulesets.coe.state import Cargo, Force, GameState
from adjudicator.rulesets.coe.turn import Turn
from tests.helpers import force, legion, march, own, place, play, road, sail, start, verdicts

OK = (True, "")
MAC, EGY = "Macedonia", "Egyptus"


def game() -> GameState:
    """A fresh three-player 1984 game: Macedonia, Egyptus, Hispania, each with Caesar, G1-G6, 4 INF and a
    fortified city at home (O-3.4); Macedonia moves first."""
    return start(ruleset="coe-1984")


def galley(state: GameState, area: str, *numbers: int, coast: str | None = None, seat: str = MAC) -> GameState:
    """Put galleys of `seat` in `area` (on `coast` if it is a split-coast province)."""
    mine = state.force(area, seat)
    mine.galleys.extend(numbers)
    if coast:
        mine.galley_coasts.update({n: coast for n in numbers})
    return state


def at_sea(state: GameState, zone: str, number: int, *leaders: int, inf: int = 0, seat: str = MAC) -> GameState:
    """A galley of `seat` in the sea zone `zone` carrying `leaders` (taken from home) and new infantry."""
    legion(state, zone, *leaders, inf=inf, seat=seat, owner=False)
    state.force(zone, seat).galleys.append(number)
    state.force(zone, seat).aboard[number] = Cargo(
        caesar=int(CAESAR in leaders), generals=[n for n in leaders if n], infantry=inf
    )
    return state


def movement_only(state: GameState, *orders: Order) -> Turn:
    """Phase 1 and the conquests at its end, without the combat phase (for positions that end in a battle)."""
    ruleset = load_ruleset(state.ruleset)
    assert state.active is not None
    order_set = OrderSet(Header("test", state.turn + 1, state.active, "x"), orders)
    turn = Turn(ruleset, state.copy(), state.active, order_set.orders, GivenDice(values=[]), {})
    movement_phase(turn)
    end_of_movement(turn)
    return turn


def results(turn: Turn) -> list[tuple[bool, str]]:
    return [(r.accepted, r.rule) for r in sorted(turn.results, key=lambda r: r.line)]


# -- O-5.1 to O-5.3: allowances and order of execution -----------------------------------------------------------


def test_O_5_3_orders_run_as_written_and_a_rejected_one_changes_nothing() -> None:
    state = legion(game(), "MAC", cav=2)
    result = play(
        state,
        march((1,), "THR", "MOE", cav=2, line=1),
        march((1,), "MAC", "THR", cav=2, line=2),
        march((1,), "THR", "MOE", cav=2, line=3),
    )
    assert verdicts(result) == [(False, "O-4.3"), OK, OK]  # line 1: G1 is not in THR yet
    assert force(result, "MOE", MAC) == Force(generals=[1], cavalry=2)


# -- O-5.4 to O-5.9: leaders, legions, stacking -------------------------------------------------------------------


def test_O_5_4_a_city_leads_the_units_left_with_it_but_never_moves_them() -> None:
    state = game()
    every = (CAESAR, 1, 2, 3, 4, 5, 6)
    result = play(
        state, *(march((n,), "MAC", "THR", line=n + 1) for n in every), march((), "MAC", "MOE", inf=1, line=9)
    )
    assert verdicts(result) == [OK] * 7 + [(False, "O-5.5")]
    assert force(result, "MAC", MAC) == Force(infantry=4)  # 4 INF stay with the fortified city alone


def test_O_5_5_and_O_5_6_units_whose_only_leader_is_a_city_stay_until_a_general_leads_them() -> None:
    state = own(legion(game(), "THR", inf=3), "THR", city="city")
    result = play(
        state,
        march((), "THR", "MOE", inf=3, line=1),
        march((1,), "MAC", "THR", line=2),
        march((1,), "THR", "MOE", inf=3, line=3),
    )
    assert verdicts(result) == [(False, "O-5.5"), OK, OK]  # the units still have their 1 MP, G1 has 1 left
    assert force(result, "MOE", MAC) == Force(generals=[1], infantry=3)


def test_O_5_7_in_every_move_at_most_seven_units_per_moving_leader() -> None:
    state = legion(game(), "MAC", inf=12)  # 16 INF at home with the Caesar, G1-G6 and the city
    result = play(state, march((1,), "MAC", "THR", inf=8, line=1), march((1, 2), "MAC", "THR", inf=14, line=2))
    assert verdicts(result) == [(False, "O-5.7"), OK]
    assert force(result, "THR", MAC).infantry == 14


def test_O_5_7_units_may_not_stay_in_a_province_without_a_leader() -> None:
    result = play(game(), march((1,), "MAC", "THR", inf=2, line=1), march((1,), "THR", "MOE", line=2))
    assert verdicts(result) == [OK, (False, "O-5.7")]  # line 2 would leave 2 INF alone in THR
    assert force(result, "THR", MAC) == Force(generals=[1], infantry=2)
    assert "MOE" not in result.state.areas or not force(result, "MOE", MAC).generals
    rejected = next(r for r in result.order_results if not r.accepted)
    assert "THR" in rejected.reason and "2 of your combat units" in rejected.reason


def test_O_5_7_drop_offs_and_pick_ups_during_the_phase_are_allowed() -> None:
    state = legion(game(), "MAC", cav=2)
    result = play(
        state,
        march((1,), "MAC", "THR", cav=2, line=1),  # G1 drops the cavalry in THR ...
        march((1,), "THR", "MOE", line=2),  # ... and goes on alone: for a moment THR has no leader
        march((2,), "MAC", "THR", line=3),
    )  # G2 comes to lead them
    assert verdicts(result) == [OK, OK, OK]
    assert force(result, "THR", MAC) == Force(generals=[2], cavalry=2)


def test_O_5_7_the_last_order_causing_the_breach_is_rejected_and_the_phase_replayed_without_it() -> None:
    state = legion(game(), "MAC", inf=3)  # 7 INF at home
    result = play(
        state,
        march((1,), "MAC", "THR", inf=7, line=1),
        march((1,), "THR", "MOE", line=2),  # leaves 7 INF without a leader in THR: rejected
        march((1,), "MOE", "DAC", line=3),  # in the replay G1 never reached MOE
        march((2,), "MAC", "ACH", line=4),
    )
    assert verdicts(result) == [OK, (False, "O-5.7"), (False, "O-4.3"), OK]
    assert force(result, "THR", MAC) == Force(generals=[1], infantry=7)
    assert [e.data["path"] for e in result.events if e.kind == "moved"] == [["MAC", "THR"], ["MAC", "ACH"]]


def test_O_5_7_units_brought_in_beyond_the_limit_are_rejected() -> None:
    state = legion(own(game(), "THR", city="city"), "THR", inf=5)  # THR: 5 INF led by the city alone
    state = legion(state, "MAC", cav=2)
    result = play(state, march((1,), "MAC", "THR", cav=2, line=1), march((1,), "THR", "MOE", line=2))
    # 7 units with the city are fine; line 2 takes G1 away and leaves 7 with the city: fine as well
    assert verdicts(result) == [OK, OK]
    state = legion(own(game(), "THR", city="city"), "THR", inf=6)
    state = legion(state, "MAC", cav=2)
    result = play(
        state,
        march((1,), "MAC", "THR", cav=2, line=1),
        march((1,), "THR", "MOE", line=2),
        march((2,), "MAC", "ACH", line=3),
    )
    assert verdicts(result) == [OK, (False, "O-5.7"), OK]  # 8 units with the city alone: G1 must stay
    assert force(result, "THR", MAC) == Force(generals=[1], infantry=6, cavalry=2)


def test_O_5_7_a_city_conquered_in_this_phase_already_leads_and_O_5_31_conquest_at_the_end() -> None:
    state = legion(game(), "MAC", inf=3)
    state.area("THR").city = "city"  # a neutral city
    result = play(state, march((1,), "MAC", "THR", inf=7, line=1), march((1,), "THR", "MOE", line=2))
    assert verdicts(result) == [OK, OK]
    assert result.state.areas["THR"].owner == MAC and force(result, "THR", MAC) == Force(infantry=7)
    assert result.state.areas["MOE"].owner is None  # G1 alone conquers nothing (O-5.34)


def test_O_5_8_caesar_and_generals_may_move_alone() -> None:
    result = play(game(), march((CAESAR,), "MAC", "THR", "MOE", line=1), march((5, 6), "MAC", "ACH", line=2))
    assert verdicts(result) == [OK, OK]
    assert force(result, "MOE", MAC).caesar == 1 and force(result, "ACH", MAC).generals == [5, 6]


def test_O_5_9_reorganising_leaders_hand_units_over() -> None:
    state = legion(game(), "MAC", cav=2)
    result = play(
        state,
        march((1,), "MAC", "THR", cav=2, line=1),
        march((2,), "MAC", "THR", line=2),
        march((2,), "THR", "MOE", cav=2, line=3),
    )
    assert verdicts(result) == [OK, OK, OK]
    assert force(result, "MOE", MAC) == Force(generals=[2], cavalry=2)
    assert force(result, "THR", MAC) == Force(generals=[1])


# -- O-5.10 to O-5.12: other players' units ----------------------------------------------------------------------


def test_O_5_11_leaders_without_units_may_not_enter_other_players_units() -> None:
    state = legion(game(), "THR", 1, seat=EGY, inf=1)
    result = play(state, march((1,), "MAC", "THR", line=1), march((CAESAR,), "MAC", "THR", line=2))
    assert verdicts(result) == [(False, "O-5.11"), (False, "O-5.11")]


def test_O_5_12_a_legion_passes_through_provinces_without_other_players_units_and_conquers_nothing_there() -> None:
    state = own(game(), "THR", seat=EGY)
    state = legion(state, "MAC", cav=1)
    result = play(state, march((1,), "MAC", "THR", "MOE", cav=1))
    assert verdicts(result) == [OK]
    assert result.state.areas["THR"].owner == EGY and result.state.areas["MOE"].owner == MAC


# -- O-5.13 to O-5.16: roads ------------------------------------------------------------------------------------


def road_net() -> GameState:
    """Macedonia holds Moesia, Dacia and Pannonia, with cities and roads MAC - MOE - DAC - PAN."""
    return road(own(game(), "MOE", "DAC", "PAN"), "MAC", "MOE", "DAC", "PAN")


def test_O_5_14_the_road_journey_is_the_whole_move_of_infantry_and_catapults() -> None:
    state = legion(road_net(), "MAC", cat=1)
    result = play(
        state,
        march((1,), "MAC", "=DAC", inf=1, cat=1, line=1),
        march((1,), "DAC", "PAN", inf=1, line=2),
        march((1,), "DAC", "PAN", cat=1, line=3),
        march((1,), "DAC", "PAN", line=4),
    )
    assert verdicts(result) == [OK, (False, "O-5.2"), (False, "O-5.2"), OK]
    assert force(result, "DAC", MAC) == Force(infantry=1, catapult=1)  # the city of DAC leads them


def test_O_5_15_a_road_journey_and_an_ordinary_move_in_either_order_but_only_one_road_journey() -> None:
    state = legion(road_net(), "MAC", cav=3)
    result = play(
        state,
        march((1,), "MAC", "=DAC", "PAN", cav=1, line=1),  # road, then ordinary move
        march((2,), "MAC", "MOE", "=PAN", cav=1, line=2),  # ordinary move, then road
        march((3,), "MAC", "=MOE", "=PAN", cav=1, line=3),  # two road journeys
        march((4,), "MAC", "=MOE", line=4),
        march((4,), "MOE", "=PAN", line=5),
    )  # two, in two orders
    assert verdicts(result) == [OK, OK, (False, "O-5.15"), OK, (False, "O-5.15")]
    assert force(result, "PAN", MAC) == Force(generals=[1, 2], cavalry=2)


def test_O_5_15_a_cavalry_unit_that_made_a_road_journey_makes_no_second_one() -> None:
    state = legion(legion(road_net(), "MAC", cav=1), "MOE", CAESAR)
    result = play(
        state,
        march((1,), "MAC", "=MOE", cav=1, line=1),
        march((CAESAR,), "MOE", "=DAC", cav=1, line=2),
        march((CAESAR,), "MOE", "DAC", cav=1, line=3),
    )
    assert verdicts(result) == [OK, (False, "O-5.15"), OK]  # its second move may be an ordinary one
    assert force(result, "DAC", MAC) == Force(caesar=1, cavalry=1)


# -- O-5.17 to O-5.30: galleys ----------------------------------------------------------------------------------


def test_O_5_17_and_O_5_20_a_galley_moves_without_a_leader_only_when_empty() -> None:
    state = galley(game(), "MAC", 1, 2, coast="AEG")
    result = play(state, sail((1,), "MAC", "AEG", "EUX", line=1), sail((2,), "MAC", "AEG", inf=2, line=2))
    assert verdicts(result) == [OK, (False, "O-5.20")]
    assert force(result, "EUX", MAC).galleys == [1]


def test_O_5_20_one_legion_per_galley() -> None:
    state = legion(galley(game(), "MAC", 1, 2, 3, coast="AEG"), "MAC", inf=10)  # 14 INF at home
    result = play(
        state,
        sail((1,), "MAC", "AEG", leaders=(1,), inf=8, line=1),
        sail((1, 2), "MAC", "AEG", leaders=(1,), inf=8, line=2),
        sail((1, 2), "MAC", "AEG", leaders=(1, 2), inf=14, line=3),
        sail((3,), "MAC", "AEG", leaders=(CAESAR, 3), line=4),
    )  # leaders alone
    assert verdicts(result) == [(False, "O-5.20"), (False, "O-5.20"), OK, OK]
    sea = force(result, "AEG", MAC)
    assert {g: (c.units, len(c.generals) + c.caesar) for g, c in sea.aboard.items()} == {
        1: (7, 1),
        2: (7, 1),
        3: (0, 2),
    }


def test_O_5_21_pieces_board_and_leave_galleys_only_in_a_land_province() -> None:
    state = at_sea(game(), "AEG", 1, 1, inf=2)
    state = galley(state, "AEG", 2)
    result = play(state, sail((2,), "AEG", "THR", leaders=(1,), line=1), sail((1,), "AEG", "THR", line=2))
    assert verdicts(result) == [(False, "O-5.21"), OK]
    assert force(result, "THR", MAC) == Force(generals=[1], infantry=2, galleys=[1])


def test_O_5_22_land_or_sea_not_both() -> None:
    state = galley(legion(game(), "THR", 1, inf=2), "THR", 1)
    result = play(
        state, sail((1,), "THR", "AEG", "ASI", leaders=(1,), inf=2, line=1), march((1,), "ASI", "GAL", inf=2, line=2)
    )
    assert verdicts(result) == [OK, (False, "O-5.22")]
    state = galley(legion(game(), "MAC", 1, inf=2), "THR", 1)
    result = play(state, march((1,), "MAC", "THR", inf=2, line=1), sail((1,), "THR", "AEG", leaders=(1,), line=2))
    assert verdicts(result) == [OK, (False, "O-5.22")]


def test_O_5_23_galley_moves_put_out_and_sail_on_or_land_or_pick_up_and_put_out() -> None:
    state = galley(galley(galley(game(), "MAC", 1, coast="AEG"), "AEG", 2), "AEG", 3)
    state = legion(state, "THR", 1, inf=3)
    result = play(
        state,
        sail((1,), "MAC", "AEG", "EUX", line=1),  # put out, sail into a second zone
        sail((2,), "AEG", "EUX", "MOE", line=2),  # sail one zone and land
        sail((3,), "AEG", "THR", line=3),
        sail((3,), "THR", "AEG", leaders=(1,), inf=3, line=4),
    )
    assert verdicts(result) == [OK, OK, OK, OK]
    assert force(result, "EUX", MAC).galleys == [1] and force(result, "MOE", MAC).galleys == [2]
    assert force(result, "AEG", MAC).aboard[3] == Cargo(generals=[1], infantry=3)


def test_O_5_23_and_O_15_18_a_galley_that_sails_through_two_sea_zones_cannot_land() -> None:
    state = galley(galley(game(), "AEG", 1), "MAC", 2, coast="AEG")
    result = play(
        state,
        sail((1,), "AEG", "EUX", "AMI", "BIT", line=1),  # at sea: two zones, then no landing
        sail((2,), "MAC", "AEG", "EUX", "MOE", line=2),  # on a coast: put out, one more zone, stop
        sail((2,), "MAC", "AEG", "EUX", line=3),
        sail((2,), "EUX", "MOE", line=4),
    )
    assert verdicts(result) == [(False, "O-5.2"), (False, "O-5.2"), OK, (False, "O-5.2")]
    assert force(result, "EUX", MAC).galleys == [2]


def test_O_5_25_and_O_5_26_and_O_15_19_galleys_put_out_from_any_coast_except_a_split_one() -> None:
    state = own(galley(game(), "NUM", 1), "NUM")  # arrived in Numidia from Mare Numidia
    state = own(galley(state, "ITA", 2, coast="ADR"), "ITA")  # landed on the Adriatic coast of Italia
    result = play(
        state,
        sail((1,), "NUM", "SAB", line=1),
        sail((2,), "ITA", "TYR", line=2),
        sail((2,), "ITA", "NRB", line=3),
        sail((2,), "ITA", "ADR", line=4),
    )
    assert verdicts(result) == [OK, (False, "O-5.26"), (False, "O-5.26"), OK]


def test_O_5_27_legions_need_galleys_for_the_five_crossings() -> None:
    state = own(game(), "THR", "SIC", "BAE", "SAR", "BRI")
    for code in ("SIC", "BAE", "SAR", "BRI"):
        legion(state, code, inf=1)
    state = legion(state, "THR", 1, inf=1)
    for number, code in enumerate(("SIC", "BAE", "SAR", "BRI"), 2):
        legion(state, code, number)
    result = play(
        state,
        march((1,), "THR", "ASI", inf=1, line=1),
        march((2,), "SIC", "NEA", inf=1, line=2),
        march((3,), "BAE", "TIN", inf=1, line=3),
        march((4,), "SAR", "COR", inf=1, line=4),
        march((5,), "BRI", "BEL", inf=1, line=5),
    )
    assert verdicts(result) == [(False, "O-2.2")] * 5
    state = galley(legion(own(game(), "THR"), "THR", 1, inf=1), "THR", 1)
    result = play(state, sail((1,), "THR", "EUX", "ASI", leaders=(1,), inf=1))
    assert verdicts(result) == [OK]
    assert result.state.areas["ASI"].owner == MAC


def test_O_5_28_and_O_15_20_a_galley_entering_other_players_galleys_cannot_pass_through() -> None:
    state = galley(galley(game(), "MAC", 1, coast="AEG"), "AEG", 4, seat=EGY)
    result = play(state, sail((1,), "MAC", "AEG", "EUX", line=1))
    assert verdicts(result) == [(False, "O-5.28")]
    assert force(result, "MAC", MAC).galleys == [1]
    assert "EUX" not in result.state.areas or not force(result, "EUX", MAC).galleys


def test_O_5_28_and_O_15_20_the_galley_stops_in_the_zone_and_moves_no_more() -> None:
    state = galley(galley(game(), "MAC", 1, coast="AEG"), "AEG", 4, seat=EGY)
    turn = movement_only(state, sail((1,), "MAC", "AEG", line=1), sail((1,), "AEG", "THR", line=2))
    assert results(turn) == [OK, (False, "O-5.28")]
    assert turn.state.areas["AEG"].units[MAC].galleys == [1]
    assert turn.scratch["entered_zones"] == {"AEG"}  # the compulsory naval battle of O-6.2 is fought there


def test_O_5_29_an_empty_galley_enters_another_players_province_only_to_land() -> None:
    state = own(galley(game(), "AEG", 1, 2), "THR", seat=EGY)
    state = at_sea(state, "AEG", 3, 1, inf=1)
    result = play(
        state, sail((1,), "AEG", "THR", line=1), sail((2,), "AEG", "ACH", line=2), sail((3,), "AEG", "THR", line=3)
    )
    assert verdicts(result) == [(False, "O-5.29"), OK, OK]
    assert result.state.areas["THR"].owner == MAC  # the landing conquered the empty province


def test_O_5_30_pieces_aboard_land_automatically_in_a_province_and_may_stay_aboard_at_sea() -> None:
    state = galley(legion(game(), "THR", 1, 2, inf=4), "THR", 1, 2)
    state.area("THR").owner = MAC
    result = play(
        state,
        sail((1,), "THR", "AEG", leaders=(1,), inf=2, line=1),
        sail((2,), "THR", "EUX", "MOE", leaders=(2,), inf=2, line=2),
    )
    assert verdicts(result) == [OK, OK]
    assert force(result, "AEG", MAC).aboard[1] == Cargo(generals=[1], infantry=2)
    assert force(result, "MOE", MAC) == Force(generals=[2], infantry=2, galleys=[2])  # ashore, nothing aboard


# O-5.31 to O-5.34 (conquest without battle) are rule cases: games/coe-classic/cases/ (docs/rule-cases.md).


# -- O-15.13: the stacking edge case; bookkeeping for the combat phase ---------------------------------------


def test_O_15_13_an_eighth_unit_left_with_a_city_makes_the_order_that_left_it_illegal() -> None:
    state = legion(own(game(), "THR", city="city"), "THR", 1, inf=8)
    result = play(state, march((1,), "THR", "MOE", inf=1))
    assert verdicts(result) == [OK]  # 7 stay with the city
    assert force(result, "THR", MAC) == Force(infantry=7)
    state = legion(own(game(), "THR", city="city"), "THR", 1, inf=8)
    result = play(state, march((1,), "THR", "MOE", line=1))
    assert verdicts(result) == [(False, "O-5.7")]


def test_O_6_17_bookkeeping_units_entering_by_land_and_by_sea_are_counted() -> None:
    state = legion(legion(game(), "THR", 3, seat=EGY, inf=2), "MAC", cav=1)
    state = at_sea(state, "AEG", 1, 1, inf=3)
    turn = movement_only(state, march((2,), "MAC", "THR", inf=2, cav=1, line=1), sail((1,), "AEG", "THR", line=2))
    assert results(turn) == [OK, OK]
    assert turn.scratch["by_land"] == {"THR": {"infantry": 2, "cavalry": 1, "catapult": 0}}
    assert turn.scratch["by_sea"] == {"THR": {"infantry": 3, "cavalry": 0, "catapult": 0}}


def test_C_5_6_classic_has_no_static_stacking_limit() -> None:
    state = start()  # Classic: units may stay anywhere without a leader (C-5.5)
    result = play(state, march((1,), "MAC", "THR", inf=2, line=1), march((1,), "THR", "MOE", line=2))
    assert verdicts(result) == [OK, OK]
    assert force(result, "THR", "Macedonia") == Force(infantry=2)


def test_C_5_14_classic_pieces_make_two_road_journeys() -> None:
    state = road(own(start(), "MOE", "DAC", "PAN"), "MAC", "MOE", "DAC", "PAN")
    place(state, "MAC", MAC, cavalry=1)
    result = play(state, march((1,), "MAC", "=MOE", cav=1, line=1), march((1,), "MOE", "=PAN", cav=1, line=2))
    assert verdicts(result) == [OK, OK]


def test_C_5_19_classic_galleys_pass_other_galleys() -> None:
    state = galley(galley(start(), "MAC", 1, coast="AEG"), "AEG", 4, seat=EGY)
    result = play(state, sail((1,), "MAC", "AEG", "EUX"))
    assert verdicts(result) == [OK]


def test_O_5_28_and_O_15_20_the_galley_that_stopped_must_fight_there() -> None:
    state = galley(galley(game(), "MAC", 1, coast="AEG"), "AEG", 4, seat=EGY)
    result = play(state, sail((1,), "MAC", "AEG"), dice=[3])  # an empty galley is hit on 3+ (O-6.7)
    assert verdicts(result) == [OK]
    assert len(result.dice) == 1 and force(result, "AEG", EGY) == Force()
    assert force(result, "AEG", MAC).galleys == [1]
