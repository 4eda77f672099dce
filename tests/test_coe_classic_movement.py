"""Rule tests for Classic movement: roads (C-5.12 to C-5.14), galleys and transport (C-5.15 to C-5.27), split
coasts (C-2.6) and the edge cases of section 16 that concern movement. Test names carry the rule IDs of
../shared/rules/coe-classic.md."""

from __future__ import annotations

from adjudicator.rulesets.coe.orders import CAESAR
from adjudicator.rulesets.coe.state import Cargo, Force, GameState
from tests.helpers import force, march, own, place, play, road, sail, start, verdicts

OK = (True, "")
MAC = "Macedonia"


def galley(state: GameState, area: str, *numbers: int, coast: str | None = None, seat: str = MAC) -> GameState:
    """Put galleys of `seat` in `area` (on `coast` if it is a split-coast province)."""
    mine = state.force(area, seat)
    mine.galleys.extend(numbers)
    if coast:
        mine.galley_coasts.update({n: coast for n in numbers})
    return state


def at_sea(
    state: GameState,
    zone: str,
    number: int,
    leaders: tuple[int, ...] = (),
    inf: int = 0,
    cav: int = 0,
    seat: str = MAC,
    home: str = "MAC",
) -> GameState:
    """A galley of `seat` in the sea zone `zone` with pieces aboard, taken from the home province."""
    base, sea = state.force(home, seat), state.force(zone, seat)
    cargo = Cargo(caesar=1 if CAESAR in leaders else 0, generals=[n for n in leaders if n], infantry=inf, cavalry=cav)
    for leader in leaders:
        if leader == CAESAR:
            base.caesar, sea.caesar = 0, 1
        else:
            base.generals.remove(leader)
            sea.generals.append(leader)
    base.infantry -= inf
    base.cavalry -= cav
    sea.infantry += inf
    sea.cavalry += cav
    sea.galleys.append(number)
    sea.aboard[number] = cargo
    return state


def sailed(result: object) -> list[dict[str, object]]:
    return [e.data for e in result.events if e.kind == "sailed"]  # type: ignore[attr-defined]


# -- C-5.12 to C-5.14, C-16.18, C-16.19: roads -------------------------------------------------------------------


def road_net() -> GameState:
    """Macedonia holds Moesia, Dacia and Pannonia, with cities and roads MAC - MOE - DAC - PAN."""
    return road(own(start(), "MOE", "DAC", "PAN"), "MAC", "MOE", "DAC", "PAN")


def test_C_5_12_the_journey_starts_and_ends_in_cities_of_the_mover() -> None:
    state = road_net()
    place(state, "THR", MAC, generals=[1])
    state.force("MAC", MAC).generals.remove(1)
    state.area("PAN").owner = "Egyptus"
    result = play(
        state,
        march((1,), "THR", "=MOE", line=1),
        march((2,), "MAC", "=PAN", line=2),
        march((3,), "MAC", "=THR", line=3),
        march((4,), "MAC", "=DAC", line=4),
    )
    assert verdicts(result) == [(False, "C-5.12"), (False, "C-5.12"), (False, "C-5.12"), OK]


def test_C_5_12_separate_groups_may_leave_the_road_at_different_cities() -> None:
    result = play(
        road_net(),
        march((1,), "MAC", "=MOE", inf=2, line=1),
        march((2,), "MAC", "=DAC", inf=2, line=2),
        march((1,), "MOE", "=PAN", inf=2, line=3),
    )
    assert verdicts(result) == [OK, OK, (False, "C-5.2")]  # the infantry dropped in MOE has spent its 1 MP
    assert force(result, "MOE", MAC).infantry == 2 and force(result, "DAC", MAC).infantry == 2


def test_C_5_13_no_journey_without_a_road() -> None:
    state = own(start(), "ACH")
    state.area("ACH").city = "city"
    result = play(state, march((1,), "MAC", "=ACH", inf=1))
    assert verdicts(result) == [(False, "C-5.13")]


def test_C_16_18_a_road_between_two_controllers_is_usable_again_once_one_player_holds_both() -> None:
    state = road_net()
    state.area("MOE").owner = "Egyptus"
    assert verdicts(play(state, march((1,), "MAC", "=DAC", inf=1))) == [(False, "C-5.13")]
    state.area("MOE").owner = MAC
    assert verdicts(play(state, march((1,), "MAC", "=DAC", inf=1))) == [OK]


def test_C_5_14_road_journeys_and_ordinary_moves_combine_as_mp_allow() -> None:
    state = place(road_net(), "MAC", MAC, cavalry=4)
    result = play(
        state,
        march((1,), "MAC", "=DAC", "NOR", cav=1, line=1),  # NOR is not adjacent to DAC
        march((1,), "MAC", "=DAC", "MOE", cav=1, line=2),  # road journey, then ordinary move
        march((2,), "MAC", "MOE", "=PAN", cav=1, line=3),  # ordinary move, then road journey
        march((3,), "MAC", "=MOE", "=PAN", cav=1, line=4),  # two road journeys
        march((4,), "MAC", "=DAC", "PAN", inf=1, line=5),
    )  # infantry: one journey or one move
    assert verdicts(result) == [(False, "C-2.2"), OK, OK, OK, (False, "C-5.2")]
    assert force(result, "PAN", MAC).cavalry == 2 and force(result, "MOE", MAC).cavalry == 1


def test_C_5_9_a_road_journey_stops_at_other_players_combat_units() -> None:
    state = place(road_net(), "MOE", "Egyptus", owner=False, infantry=1)
    state.force("EGY", "Egyptus").infantry -= 1
    result = play(
        state,
        march((1,), "MAC", "=DAC", inf=3, line=1),
        march((1,), "MAC", "=MOE", "DAC", inf=3, line=2),
        march((2,), "MAC", "=MOE", line=3),
        march((1,), "MAC", "=MOE", inf=3, line=4),
        dice=[1, 1, 1, 6],
    )
    assert verdicts(result) == [(False, "C-5.9"), (False, "C-5.9"), (False, "C-5.10"), OK]
    assert force(result, "MOE", MAC).infantry == 3 and "Egyptus" not in result.state.areas["MOE"].units


def test_C_5_25_no_road_journey_after_disembarking() -> None:
    state = road_net()
    galley(state, "MAC", 1, coast="AEG")
    place(state, "THR", MAC, owner=True)
    road(state, "THR", "MAC")
    result = play(
        state, sail((1,), "MAC", "AEG", "THR", leaders=(1,), inf=2, line=1), march((1,), "THR", "=MOE", inf=2, line=2)
    )
    assert verdicts(result) == [OK, (False, "C-5.25")]


# -- C-5.9, C-5.31, C-6.1: moves into other players' pieces are now adjudicated ---------------------------------


def test_C_5_31_combat_units_may_end_where_other_players_have_only_leaders_or_galleys() -> None:
    state = place(start(), "THR", "Egyptus", owner=False, generals=[3], galleys=[1])
    state.force("EGY", "Egyptus").generals.remove(3)
    result = play(state, march((1,), "MAC", "THR", inf=1))
    assert verdicts(result) == [OK]
    assert "Egyptus" not in result.state.areas["THR"].units  # G3 captured, galley destroyed (C-8.1)
    assert any(e.kind == "captured" and e.data["leader"] == "G3" for e in result.events)


# -- C-5.15 to C-5.27: galleys and transport --------------------------------------------------------------------


def test_C_5_15_galleys_move_without_a_leader_alone_or_together() -> None:
    state = galley(start(), "MAC", 1, 2, coast="AEG")
    result = play(state, sail((1, 2), "MAC", "AEG", "THR"))
    assert verdicts(result) == [OK]
    assert force(result, "THR", MAC).galleys == [1, 2] and not force(result, "MAC", MAC).galleys
    assert result.state.areas["THR"].owner is None  # C-5.29: galleys conquer nothing
    assert sailed(result) == [{"galleys": [1, 2], "path": ["MAC", "AEG", "THR"], "cargo": "", "landed": False}]


def test_C_5_15_only_own_galleys_where_they_are() -> None:
    state = galley(start(), "MAC", 1, coast="AEG")
    galley(state, "EGY", 1, seat="Egyptus")
    result = play(
        state, sail((2,), "MAC", "AEG", line=1), sail((1,), "EGY", "ALX", line=2), sail((1, 1), "MAC", "AEG", line=3)
    )
    assert verdicts(result) == [(False, "C-5.3"), (False, "C-5.3"), (False, "C-5.3")]


def test_C_5_17_land_pieces_at_sea_move_only_aboard_and_carrying_costs_no_mp() -> None:
    state = place(galley(start(), "MAC", 1, coast="AEG"), "MAC", MAC, infantry=7)
    result = play(
        state, sail((1,), "MAC", "AEG", "EUX", leaders=(1,), inf=7, line=1), march((1,), "EUX", "THR", inf=7, line=2)
    )
    assert verdicts(result) == [OK, (False, "C-5.17")]
    assert force(result, "EUX", MAC) == Force(
        generals=[1], infantry=7, galleys=[1], aboard={1: Cargo(generals=[1], infantry=7)}
    )


def test_C_5_18_each_leg_costs_the_galley_one_mp() -> None:
    state = galley(start(), "MAC", 1, 2, 3, coast="AEG")
    result = play(
        state,
        sail((1,), "MAC", "AEG", "EPI", line=1),
        sail((1,), "EPI", "ADR", line=2),
        sail((2,), "MAC", "AEG", "EPI", "ADR", line=3),
        sail((3,), "MAC", "AEG", line=4),
        sail((3,), "AEG", "EPI", line=5),
    )
    assert verdicts(result) == [OK, (False, "C-5.2"), (False, "C-5.2"), OK, OK]
    assert force(result, "EPI", MAC).galleys == [1, 3]
    result = play(state, sail((1,), "MAC", "AEG", "ADR", line=1))  # not adjacent
    assert verdicts(result) == [(False, "C-5.18")]


def test_C_5_19_galleys_do_not_stop_for_other_galleys() -> None:
    state = galley(start(), "MAC", 1, coast="AEG")
    galley(state, "AEG", 1, 2, seat="Egyptus")
    result = play(state, sail((1,), "MAC", "AEG", "EUX"))
    assert verdicts(result) == [OK]
    assert force(result, "EUX", MAC).galleys == [1] and force(result, "AEG", "Egyptus").galleys == [1, 2]


def test_C_5_20_elsewhere_a_galley_puts_out_into_any_adjacent_sea() -> None:
    state = galley(start(), "ACH", 1)
    own(state, "ACH")
    result = play(state, sail((1,), "ACH", "EPI", line=1))
    assert verdicts(result) == [OK]
    state = galley(start(), "ACH", 1)
    assert verdicts(play(state, sail((1,), "ACH", "AEG"))) == [OK]


def test_C_2_6_a_galley_arrives_on_the_coast_touching_the_sea_it_came_from() -> None:
    state = galley(start(), "EPI", 1)
    result = play(
        state, sail((1,), "EPI", "MAC", line=1), sail((1,), "MAC", "AEG", line=2), sail((1,), "MAC", "EPI", line=3)
    )
    assert verdicts(result) == [OK, (False, "C-5.20"), OK]
    state = galley(start(), "EPI", 1)
    result = play(state, sail((1,), "EPI", "MAC"))
    assert force(result, "MAC", MAC).galley_coasts == {1: "EPI"}


def test_C_2_6_italia_has_a_western_and_an_adriatic_coast() -> None:
    state = galley(start(), "NRB", 1)
    galley(state, "ADR", 2)
    result = play(
        state,
        sail((1,), "NRB", "ITA", "TYR", line=1),
        sail((2,), "ADR", "ITA", "TYR", line=2),
        sail((2,), "ADR", "ITA", line=3),
    )
    assert verdicts(result) == [OK, (False, "C-5.20"), OK]
    assert force(result, "ITA", MAC).galley_coasts == {2: "ADR"}
    assert force(result, "TYR", MAC).galleys == [1] and not force(result, "TYR", MAC).galley_coasts


def test_C_5_21_a_galley_enters_another_players_province_only_to_land_combat_units() -> None:
    state = galley(start(), "MAC", 1, 2, 3, coast="AEG")
    own(state, "ACH", seat="Egyptus")
    result = play(
        state,
        sail((1,), "MAC", "AEG", "ACH", line=1),
        sail((2,), "MAC", "AEG", "ACH", leaders=(1,), line=2),
        sail((3,), "MAC", "AEG", "ACH", leaders=(2,), inf=2, line=3),
    )
    assert verdicts(result) == [(False, "C-5.21"), (False, "C-5.21"), OK]
    assert result.state.areas["ACH"].owner == MAC  # conquered without battle at the end of movement
    assert force(result, "ACH", MAC) == Force(generals=[2], infantry=2, galleys=[3])
    assert sailed(result)[0]["landed"] is True and sailed(result)[0]["cargo"] == "G2 with 2 INF"


def test_C_5_21_no_landing_half_way() -> None:
    state = at_sea(start(), "AEG", 1, (1,), inf=2)
    own(state, "ACH", seat="Egyptus")
    result = play(state, sail((1,), "AEG", "ACH", "EPI"))
    assert verdicts(result) == [(False, "C-5.21")]


def test_C_5_21_own_and_neutral_provinces_are_open_to_any_galley() -> None:
    state = galley(own(start(), "THR"), "MAC", 1, coast="AEG")
    galley(state, "MAC", 2, coast="AEG")
    result = play(state, sail((1,), "MAC", "AEG", "THR", line=1), sail((2,), "MAC", "AEG", "ASI", line=2))
    assert verdicts(result) == [OK, OK]


def test_C_5_21_a_landing_among_other_players_combat_units_ends_the_route_and_is_fought() -> None:
    state = galley(start(), "MAC", 1, 2, coast="AEG")
    place(state, "ACH", "Egyptus", owner=False, infantry=1)
    state.force("EGY", "Egyptus").infantry -= 1
    result = play(
        state,
        sail((1,), "MAC", "AEG", "ACH", leaders=(1,), line=1),
        sail((1,), "MAC", "AEG", "ACH", leaders=(1,), inf=3, line=2),
        dice=[1, 1, 1, 6],
    )
    assert verdicts(result) == [(False, "C-5.10"), OK]
    assert result.state.areas["ACH"].owner == MAC and force(result, "ACH", MAC).galleys == [1]
    state = at_sea(state, "AEG", 3, (2,), inf=3)
    result = play(state, sail((3,), "AEG", "ACH", "EPI"))
    assert verdicts(result) == [(False, "C-5.9")]


def test_C_5_22_seven_combat_units_per_galley_plus_any_leaders() -> None:
    state = place(galley(start(), "MAC", 1, 2, coast="AEG"), "MAC", MAC, infantry=9)
    result = play(
        state,
        sail((1,), "MAC", "AEG", leaders=(CAESAR, 1, 2), inf=8, line=1),
        sail((1, 2), "MAC", "AEG", leaders=(CAESAR, 1, 2), inf=9, line=2),
    )
    assert verdicts(result) == [(False, "C-5.22"), OK]
    aboard = force(result, "AEG", MAC).aboard
    assert aboard == {1: Cargo(caesar=1, generals=[2], infantry=7), 2: Cargo(generals=[1], infantry=2)}


def test_C_5_23_combat_units_need_a_leader_on_the_same_galley() -> None:
    state = place(galley(start(), "MAC", 1, 2, coast="AEG"), "MAC", MAC, infantry=9)
    result = play(
        state,
        sail((1,), "MAC", "AEG", inf=2, line=1),
        sail((1, 2), "MAC", "AEG", leaders=(1,), inf=8, line=2),
        sail((1, 2), "MAC", "AEG", leaders=(1,), inf=7, line=3),
    )
    assert verdicts(result) == [(False, "C-5.23"), (False, "C-5.23"), OK]
    assert force(result, "AEG", MAC).aboard == {1: Cargo(generals=[1], infantry=7)}
    assert force(result, "MAC", MAC).infantry == 2


def test_C_5_24_pieces_board_where_the_galley_lies_and_never_at_sea() -> None:
    state = galley(start(), "MAC", 1, coast="AEG")
    state = at_sea(state, "EPI", 2, (2,), inf=1)
    result = play(
        state,
        sail((1,), "MAC", "AEG", leaders=(1,), cav=1, line=1),
        sail((2,), "EPI", "ACH", leaders=(2,), inf=2, line=2),
        sail((2,), "EPI", "ACH", leaders=(2,), inf=1, line=3),
    )
    assert verdicts(result) == [(False, "C-5.24"), (False, "C-5.24"), OK]
    assert force(result, "ACH", MAC) == Force(generals=[2], infantry=1, galleys=[2])
    assert result.state.areas["ACH"].owner == MAC


def test_C_5_24_pieces_aboard_at_sea_land_with_one_leg() -> None:
    state = at_sea(start(), "AEG", 1, (CAESAR, 3), inf=2)
    result = play(state, sail((1,), "AEG", "THR"))
    assert verdicts(result) == [OK]
    assert force(result, "THR", MAC) == Force(caesar=1, generals=[3], infantry=2, galleys=[1])
    assert "Macedonia" not in result.state.areas["AEG"].units


def test_C_5_25_a_piece_that_moved_by_land_may_not_embark() -> None:
    state = galley(start(), "MAC", 1, coast="AEG")
    place(state, "THR", MAC, owner=True, infantry=1)
    state.force("MAC", MAC).generals.remove(1)
    state.force("THR", MAC).generals.append(1)
    result = play(
        state,
        march((1,), "THR", "MAC", inf=1, line=1),  # MAC now: 6 INF, one of them moved
        sail((1,), "MAC", "AEG", leaders=(1,), line=2),
        sail((1,), "MAC", "AEG", leaders=(2,), inf=6, line=3),
        sail((1,), "MAC", "AEG", leaders=(2,), inf=5, line=4),
    )
    assert verdicts(result) == [OK, (False, "C-5.25"), (False, "C-5.25"), OK]
    assert force(result, "MAC", MAC).infantry == 1


def test_C_5_25_a_piece_that_embarked_or_disembarked_may_make_no_land_move() -> None:
    state = galley(start(), "MAC", 1, coast="AEG")
    result = play(
        state,
        sail((1,), "MAC", "AEG", "THR", leaders=(1,), inf=2, line=1),
        march((1,), "THR", "MOE", line=2),
        march((2,), "MAC", "THR", inf=1, line=3),
        march((2,), "THR", "MOE", inf=1, line=4),
        march((3,), "MAC", "ACH", inf=2, line=5),
    )
    assert verdicts(result) == [OK, (False, "C-5.25"), OK, (False, "C-5.2"), OK]
    result = play(
        state,
        sail((1,), "MAC", "AEG", "THR", leaders=(1,), inf=2, line=1),
        march((3,), "MAC", "THR", cav=0, line=2),
        march((3,), "THR", "MOE", inf=1, line=3),
    )
    assert verdicts(result) == [OK, OK, (False, "C-5.25")]  # the 2 INF in THR came by sea


def test_C_16_20_embark_in_one_province_and_disembark_in_another_but_no_land_move() -> None:
    state = galley(start(), "MAC", 1, coast="AEG")
    result = play(
        state, sail((1,), "MAC", "AEG", "ACH", leaders=(1,), inf=3, line=1), march((1,), "ACH", "MAC", inf=3, line=2)
    )
    assert verdicts(result) == [OK, (False, "C-5.25")]
    assert result.state.areas["ACH"].owner == MAC
    assert force(result, "ACH", MAC) == Force(generals=[1], infantry=3, galleys=[1])


def test_C_5_26_pieces_may_stay_aboard_at_sea_and_never_in_a_province() -> None:
    state = galley(start(), "MAC", 1, coast="AEG")
    result = play(state, sail((1,), "MAC", "AEG", leaders=(1,), inf=2))
    assert force(result, "AEG", MAC).aboard == {1: Cargo(generals=[1], infantry=2)}
    assert force(result, "AEG", MAC).infantry == 2 and force(result, "MAC", MAC).infantry == 3
    state = start()  # a galley found lying in a province with pieces aboard: they go ashore
    mac = state.force("MAC", MAC)
    mac.galleys, mac.galley_coasts, mac.aboard = [1], {1: "AEG"}, {1: Cargo(generals=[1], infantry=2)}
    result = play(state)
    assert force(result, "MAC", MAC).aboard == {} and force(result, "MAC", MAC).infantry == 5
    assert any(e.kind == "disembarked" and e.data["rule"] == "C-5.26" for e in result.events)


def test_C_5_27_galleys_ignore_the_straits() -> None:
    state = galley(own(start(), "THR"), "THR", 1)
    place(state, "THR", MAC, generals=[])
    state.force("MAC", MAC).generals.remove(1)
    state.force("THR", MAC).generals.append(1)
    result = play(state, sail((1,), "THR", "ASI", line=1), march((1,), "THR", "ASI", line=2))
    assert verdicts(result) == [(False, "C-5.18"), OK]


def test_C_16_10_a_galley_that_put_out_again_is_not_left_in_the_battle_province() -> None:
    state = at_sea(start(), "AEG", 1, (1,), inf=1)
    place(state, "ACH", "Egyptus", infantry=3)
    state.force("EGY", "Egyptus").infantry -= 3
    # G1 lands with 1 INF (sea zone, province), the galley puts out again (sea zone); the attack fails.
    result = play(state, sail((1,), "AEG", "ACH", line=1), sail((1,), "ACH", "AEG", line=2), dice=[6, 1, 1, 1])
    assert verdicts(result) == [OK, OK]
    assert result.state.areas["ACH"].owner == "Egyptus"
    assert force(result, "AEG", MAC).galleys == [1]
    result = play(state, sail((1,), "AEG", "ACH", line=1), dice=[6, 1, 1, 1])
    assert any(e.kind == "galleys_destroyed" and e.data["rule"] == "C-6.24" for e in result.events)
    assert not force(result, "ACH", MAC).galleys


def test_C_16_10_pieces_landed_among_enemies_may_not_re_embark() -> None:
    state = at_sea(start(), "AEG", 1, (1,), inf=3)
    place(state, "ACH", "Egyptus", infantry=1)
    state.force("EGY", "Egyptus").infantry -= 1
    result = play(
        state,
        sail((1,), "AEG", "ACH", line=1),
        sail((1,), "ACH", "AEG", leaders=(1,), inf=3, line=2),
        dice=[1, 1, 1, 6],
    )
    assert verdicts(result) == [OK, (False, "C-5.9")]


def test_C_16_29_land_pieces_cross_sicilia_neapolis_but_not_sardinia_corsica() -> None:
    state = start()
    for code in ("SIC", "SAR"):
        place(state, code, MAC, owner=True, generals=[], infantry=1)
    mac = state.force("MAC", MAC)
    mac.generals.remove(1)
    mac.generals.remove(2)
    state.force("SIC", MAC).generals.append(1)
    state.force("SAR", MAC).generals.append(2)
    mac.infantry = 3
    result = play(state, march((1,), "SIC", "NEA", inf=1, line=1), march((2,), "SAR", "COR", inf=1, line=2))
    assert verdicts(result) == [OK, (False, "C-2.2")]


def test_C_5_4_sailings_and_moves_run_in_the_written_order() -> None:
    state = galley(start(), "MAC", 1, coast="AEG")
    result = play(
        state,
        march((4,), "MAC", "THR", line=1),
        sail((1,), "MAC", "AEG", "ACH", leaders=(4,), inf=5, line=2),  # G4 has left
        sail((1,), "MAC", "AEG", "ACH", leaders=(3,), inf=5, line=3),
        sail((1,), "ACH", "AEG", line=4),
    )  # the galley has spent its 2 MP
    assert verdicts(result) == [OK, (False, "C-5.24"), OK, (False, "C-5.2")]
    assert force(result, "ACH", MAC) == Force(generals=[3], infantry=5, galleys=[1])


# -- C-5.12: drop-offs within one road journey -------------------------------------------------------------------


def moves(*lines: str) -> list[object]:
    """MOVE orders as a player writes them (through the parser), numbered from line 2."""
    from adjudicator.orders import parse_orders
    from tests.helpers import classic

    parsed = parse_orders("\n".join(["GAME g TURN 1 PLAYER Macedonia PASSWORD x", *lines]), classic())
    assert not parsed.errors, parsed.errors
    return list(parsed.orders)


def test_C_5_12_a_leader_drops_units_at_a_city_he_passes_and_the_journey_costs_one_mp() -> None:
    result = play(
        road_net(), *moves("MOVE G1 WITH 4 INF: MAC => MOE LEAVING 2 INF => PAN", "MOVE G1: PAN -> NOR")
    )  # G1 has 1 MP left for an ordinary move
    assert verdicts(result) == [OK, OK]
    assert force(result, "MOE", MAC) == Force(infantry=2)
    assert force(result, "PAN", MAC) == Force(infantry=2) and force(result, "NOR", MAC) == Force(generals=[1])
    moved = next(e.data for e in result.events if e.kind == "moved")
    assert moved["path"] == ["MAC", "MOE", "PAN"] and moved["route"] == "MAC => MOE leaving 2 INF => PAN"


def test_C_5_12_two_journeys_written_without_leaving_still_cost_two_mp() -> None:
    result = play(road_net(), *moves("MOVE G1: MAC => MOE => PAN", "MOVE G1: PAN -> NOR"))
    assert verdicts(result) == [OK, (False, "C-5.2")]


def test_C_5_12_and_C_5_8_several_drops_and_an_ordinary_move_after_the_journey() -> None:
    state = place(road_net(), "MAC", MAC, cavalry=2)
    result = play(
        state,
        *moves("MOVE G1 AND G2 WITH 3 INF 2 CAV: MAC => MOE LEAVING 1 INF => DAC LEAVING G2 WITH 2 INF => PAN -> NOR"),
    )
    assert verdicts(result) == [OK]
    assert force(result, "MOE", MAC) == Force(infantry=1) and force(result, "DAC", MAC) == Force(
        generals=[2], infantry=2
    )
    assert force(result, "NOR", MAC) == Force(generals=[1], cavalry=2)


def test_C_5_12_infantry_dropped_after_an_ordinary_move_has_no_mp_for_a_road_journey() -> None:
    result = play(road_net(), *moves("MOVE G1 WITH 2 INF: MAC -> MOE LEAVING 1 INF => PAN"))
    assert verdicts(result) == [(False, "C-5.2")]
    assert force(result, "MAC", MAC).infantry == 5 and force(result, "MOE", MAC) == Force()


def test_C_5_5_C_5_6_and_C_5_3_drops_that_leave_an_illegal_group_are_refused_and_change_nothing() -> None:
    state = place(road_net(), "MAC", MAC, infantry=10)
    before = state.copy()
    result = play(
        state,
        *moves(
            "MOVE G1 WITH 2 INF: MAC => MOE LEAVING G1 => PAN",  # units without a leader
            "MOVE G1 AND G2 WITH 9 INF: MAC => MOE LEAVING G2 => PAN",  # 9 units, 1 leader
            "MOVE G1 WITH 2 INF: MAC => MOE LEAVING 3 INF => PAN",  # more than travel
            "MOVE G1 WITH 2 INF: MAC => MOE LEAVING G3 => PAN",
        ),
    )  # G3 does not travel
    assert verdicts(result) == [(False, "C-5.5"), (False, "C-5.6"), (False, "C-5.3"), (False, "C-5.3")]
    assert result.state.areas["MAC"].units[MAC] == before.areas["MAC"].units[MAC]


def test_C_5_12_in_the_1984_edition_a_journey_with_drops_is_its_one_road_journey_O_5_13_O_5_15() -> None:
    state = road(own(start(ruleset="coe-1984"), "MOE", "DAC", "PAN"), "MAC", "MOE", "DAC", "PAN")
    result = play(
        state, *moves("MOVE G1 WITH 2 INF: MAC => MOE LEAVING 1 INF => PAN", "MOVE G2: MAC => MOE => PAN")
    )  # two journeys: one too many (O-5.15)
    assert verdicts(result) == [OK, (False, "O-5.15")]
    assert force(result, "MOE", MAC) == Force(infantry=1) and force(result, "PAN", MAC) == Force(
        generals=[1], infantry=1
    )
