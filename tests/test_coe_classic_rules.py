"""Rule tests for the Classic edition: each sets up a position, resolves a turn and checks what the rule
demands. Test names carry the rule IDs of ../shared/rules/coe-classic.md."""

from __future__ import annotations

import pytest

from adjudicator.rulesets.coe.orders import Purchase
from adjudicator.rulesets.coe.setup import SetupError
from adjudicator.rulesets.coe.state import Force
from tests.helpers import THREE, buy, classic, force, march, place, play, start, verdicts

# -- C-1, C-2, C-3: components, board, setup ---------------------------------------------------------------


def test_C_2_8_board_data_satisfies_the_facts() -> None:
    board = classic().board
    assert len(board.areas) == 60
    assert sum(a.is_land for a in board.areas.values()) == 42
    homes = {"HIS", "ITA", "MAC", "GAL", "NUM", "MES", "EGY"}
    assert all(board.value(h) == 10 for h in homes)  # C-2.1
    assert all(board.value(c) in (5, 10) for c, a in board.areas.items() if a.is_land)
    for code, links in board.adjacency.items():
        assert all(code in board.adjacency[other] for other in links)


def test_C_2_3_straits_are_adjacent_for_land_moves() -> None:
    board = classic().board
    for a, b in [("THR", "ASI"), ("SIC", "NEA"), ("BRI", "BEL"), ("BAE", "TIN")]:
        assert b in board.land_neighbours(a) and a in board.land_neighbours(b)
        assert not board.land_border(a, b)  # but not for roads (C-12.8)


def test_C_2_4_sardinia_corsica_not_adjacent() -> None:
    assert "COR" not in classic().board.land_neighbours("SAR")


def test_C_2_6_split_coasts_and_C_2_7_mesopotamia_has_no_coast() -> None:
    board = classic().board
    assert board.coasts("ITA") == (frozenset({"TYR", "NRB"}), frozenset({"ADR"}))
    assert len(board.coasts("HIS")) == 2 and len(board.coasts("MAC")) == 2
    assert board.coasts("MES") == ()
    assert board.coasts("SYR") and board.coasts("ARM")


@pytest.mark.parametrize("count", [2, 3, 4, 5, 6])
def test_C_3_1_home_provinces_by_player_count(count: int) -> None:
    homes = classic().data["setup"]["homes"][str(count)]
    seats = [classic().seat_of_home(h) for h in homes]
    state = classic().initial_state("g", seats)
    assert sorted(p.home for p in state.players.values()) == sorted(homes)


def test_C_3_1_wrong_seats_are_refused() -> None:
    with pytest.raises(SetupError, match="C-3.1"):
        classic().initial_state("g", ["Italia", "Egyptus", "Hispania"])
    with pytest.raises(SetupError, match="C-1.6"):
        classic().initial_state("g", ["Italia"])


def test_C_3_4_and_C_3_5_starting_pieces_and_tribute() -> None:
    state = start()
    for seat, player in state.players.items():
        home = state.areas[player.home]
        assert home.owner == seat and home.city == "fortified"
        assert home.units[seat] == Force(caesar=1, generals=[1, 2, 3, 4], infantry=5)
        assert player.tribute == 15 and player.treasury == 0
    assert sum(1 for a in state.areas.values() if a.owner) == 3  # C-3.6: everything else neutral


def test_C_4_1_turn_order_starts_with_macedonia_and_skips_absent_seats() -> None:
    state = start()
    assert list(state.players) == ["Macedonia", "Egyptus", "Hispania"] and state.active == "Macedonia"
    for expected in ["Egyptus", "Hispania", "Macedonia"]:
        state = play(state).state
        assert state.active == expected
    assert state.round == 2 and state.turn == 3


# -- C-5: movement -----------------------------------------------------------------------------------------


def test_C_5_1_infantry_has_one_movement_point() -> None:
    result = play(start(), march((1,), "MAC", "THR", "AEG", inf=1))
    assert verdicts(result) == [(False, "C-5.17")]
    result = play(start(), march((1,), "MAC", "MOE", "DAC", inf=1))
    assert verdicts(result) == [(False, "C-5.2")]
    assert force(result, "MAC", "Macedonia").infantry == 5


def test_C_5_4_orders_run_in_written_order_against_the_position_so_far() -> None:
    state = place(start(), "MAC", "Macedonia", cavalry=1)
    result = play(
        state,
        march((1,), "MAC", "THR", cav=1, line=1),
        march((1,), "THR", "ASI", cav=1, line=2),
        march((1,), "ASI", "BIT", cav=1, line=3),
    )
    assert verdicts(result) == [(True, ""), (True, ""), (False, "C-5.2")]
    assert force(result, "ASI", "Macedonia") == Force(generals=[1], cavalry=1)


def test_C_5_5_combat_units_need_a_leader() -> None:
    result = play(start(), march((), "MAC", "THR", inf=2))
    assert verdicts(result) == [(False, "C-5.5")]


def test_C_5_6_seven_units_per_leader() -> None:
    state = place(start(), "MAC", "Macedonia", infantry=15)
    result = play(state, march((1,), "MAC", "THR", inf=8, line=1), march((1, 2), "MAC", "THR", inf=14, line=2))
    assert verdicts(result) == [(False, "C-5.6"), (True, "")]
    assert force(result, "THR", "Macedonia").infantry == 14


def test_C_5_7_leader_moves_alone_and_conquers_nothing_C_5_29() -> None:
    result = play(start(), march((2,), "MAC", "MOE", "DAC"))
    assert verdicts(result) == [(True, "")]
    assert force(result, "DAC", "Macedonia").generals == [2]
    assert result.state.areas["DAC"].owner is None


def test_C_5_8_units_keep_their_own_movement_points() -> None:
    state = place(start(), "MAC", "Macedonia", cavalry=1)
    # G1 brings 2 INF to THR; G2 (fresh) cannot take those infantry further: they spent their 1 MP.
    result = play(
        state,
        march((1,), "MAC", "THR", inf=2, line=1),
        march((2,), "MAC", "THR", line=2),
        march((2,), "THR", "ASI", inf=1, line=3),
    )
    assert verdicts(result) == [(True, ""), (True, ""), (False, "C-5.2")]


def test_C_5_9_move_stops_on_entering_enemy_combat_units() -> None:
    state = place(start(), "THR", "Egyptus", infantry=1)
    result = play(state, march((1,), "MAC", "THR", "ASI", inf=2))
    assert verdicts(result) == [(False, "C-5.9")]


def test_C_5_10_leaders_alone_may_not_enter_enemy_units() -> None:
    state = place(start(), "THR", "Egyptus", infantry=1)
    result = play(state, march((1,), "MAC", "THR"))
    assert verdicts(result) == [(False, "C-5.10")]


def test_C_5_11_passing_through_does_not_conquer_C_5_28() -> None:
    state = place(start(), "MAC", "Macedonia", cavalry=3)
    result = play(state, march((1,), "MAC", "THR", "ASI", cav=3))
    assert result.state.areas["ASI"].owner == "Macedonia"
    assert result.state.areas.get("THR") is None or result.state.areas["THR"].owner is None


def test_C_5_11_leaders_pass_through_enemy_leaders_and_C_5_9_do_not_stop() -> None:
    state = place(start(), "MOE", "Egyptus", owner=False, generals=[3])
    state.force("EGY", "Egyptus").generals.remove(3)
    result = play(state, march((1,), "MAC", "MOE", "DAC"))
    assert verdicts(result) == [(True, "")]


def test_C_5_27_land_pieces_cross_straits_without_a_galley() -> None:
    state = place(start(), "THR", "Macedonia", generals=[], infantry=0)
    state.force("MAC", "Macedonia").generals.remove(1)
    state.force("THR", "Macedonia").generals.append(1)
    state.force("THR", "Macedonia").infantry = 2
    state.force("MAC", "Macedonia").infantry = 3
    result = play(state, march((1,), "THR", "ASI", inf=2))
    assert verdicts(result) == [(True, "")]
    assert result.state.areas["ASI"].owner == "Macedonia"


def test_C_5_28_conquest_of_an_empty_province_raises_tribute() -> None:
    result = play(start(), march((1,), "MAC", "ACH", inf=1))
    assert result.state.areas["ACH"].owner == "Macedonia"
    assert result.state.players["Macedonia"].tribute == 25
    assert result.state.players["Macedonia"].treasury == 25  # C-9.3 collected after the conquest


def test_C_5_28_conquest_of_another_players_empty_province() -> None:
    state = place(start(), "THR", "Egyptus", owner=True)
    state.areas["THR"].units.clear()
    state.area("THR").city = "city"
    result = play(state, march((1,), "MAC", "THR", inf=1))
    assert result.state.areas["THR"].owner == "Macedonia" and result.state.areas["THR"].city == "city"  # C-8.1
    assert result.state.players["Macedonia"].tribute == 25 and result.state.players["Egyptus"].tribute == 15


def test_C_5_3_only_own_pieces_move() -> None:
    result = play(start(), march((1,), "EGY", "PAL", inf=1))
    assert verdicts(result) == [(False, "C-5.3")]
    assert force(result, "EGY", "Egyptus").infantry == 5


# -- C-9, C-10: tribute and city destruction ---------------------------------------------------------------


def test_C_9_1_tribute_is_provinces_plus_five_per_city() -> None:
    state = place(start(), "ACH", "Macedonia", owner=True)
    state.area("ACH").city = "fortified"
    result = play(state)
    assert result.state.players["Macedonia"].tribute == 15 + 10 + 5


def test_C_9_4_treasury_carries_over() -> None:
    state = start()
    state.players["Macedonia"].treasury = 7
    assert play(state).state.players["Macedonia"].treasury == 22


# -- C-11, C-12: purchase and placement --------------------------------------------------------------------


def test_C_11_9_base_prices_and_C_12_2_units_at_home() -> None:
    state = start()
    state.players["Macedonia"].treasury = 85  # + 15 tribute = 100
    result = play(
        state, buy(Purchase("infantry", 2), Purchase("cavalry", 1), Purchase("catapult", 1), Purchase("galley", 1))
    )
    assert all(ok for ok, _ in verdicts(result))
    home = force(result, "MAC", "Macedonia")
    assert (home.infantry, home.cavalry, home.catapult, home.galleys) == (7, 1, 1, [1])
    assert result.state.players["Macedonia"].treasury == 100 - 20 - 20 - 30 - 20


def test_C_11_1_cannot_spend_more_than_the_treasury() -> None:
    result = play(start(), buy(Purchase("infantry", 1), Purchase("cavalry", 1)))
    assert verdicts(result) == [(True, ""), (False, "C-11.1")]
    assert result.state.players["Macedonia"].treasury == 5


def test_C_11_4_supply_limits_purchases() -> None:
    state = place(start(), "MAC", "Macedonia", infantry=19)
    state.players["Macedonia"].treasury = 500
    result = play(state, buy(Purchase("infantry", 2), Purchase("infantry", 1)))
    assert verdicts(result) == [(False, "C-11.4"), (True, "")]
    assert force(result, "MAC", "Macedonia").infantry == 20  # C-1.1


def test_C_11_4_shared_pool_of_cities() -> None:
    state = place(start(), "ACH", "Macedonia")
    state.players["Macedonia"].treasury = 500
    empty = [c for c, a in classic().board.areas.items() if a.is_land and not state.area(c).city and c != "ACH"]
    for code in empty[:13]:  # 3 home cities + 13 = all 16 cities of the pool (C-1.2)
        state.area(code).city = "city"
    result = play(state, buy(Purchase("city", at="ACH")))
    assert verdicts(result) == [(False, "C-11.4")]
    state.area(empty[0]).city = None
    result = play(state, buy(Purchase("city", at="ACH")))
    assert verdicts(result) == [(True, "")]


def test_C_11_6_and_C_11_7_inflation_takes_effect_at_the_triggering_players_next_turn() -> None:
    state = start()
    for code in ["THR", "MOE", "DAC", "PAN", "ACH", "ASI", "BIT", "GAL", "CAP", "CIL", "SYR"]:
        place(state, code, "Macedonia")  # 15 + 75 = 90 tribute, ...
    state.players["Macedonia"].treasury = 100
    result = play(state, march((1,), "MAC", "EPI"), march((2,), "MAC", "DAL", inf=1))  # + DAL 5 = 95
    assert result.state.players["Macedonia"].tribute == 95 and not result.state.inflation_pending
    place(state, "ARM", "Macedonia")
    place(state, "CYP", "Macedonia")  # 100
    result = play(state, march((2,), "MAC", "DAL", inf=1), buy(Purchase("infantry", 1)))  # 105: triggers
    assert result.state.inflation_pending == [{"level": 1, "seat": "Macedonia"}]
    assert result.state.inflation == 0
    assert any(e.kind == "bought" and e.data["cost"] == 10 for e in result.events)  # still old prices
    egyptus = result.state
    egyptus.players["Egyptus"].treasury = 100
    after = play(egyptus, buy(Purchase("infantry", 1)))  # C-11.7: one last turn at the old prices
    assert any(e.kind == "bought" and e.data["cost"] == 10 for e in after.events)
    state = play(after.state).state
    result = play(state, buy(Purchase("infantry", 1)))  # Macedonia's next turn: doubled
    assert result.state.inflation == 1
    assert any(e.kind == "bought" and e.data["cost"] == 20 for e in result.events)


def test_C_12_5_no_new_units_without_the_home_province() -> None:
    state = start()
    state.areas["THR"] = state.areas.pop("MAC")  # Macedonia's army stands in Thracia; Egyptus holds MAC
    state.area("MAC").owner = "Egyptus"
    state.players["Macedonia"].treasury = 100
    result = play(state, buy(Purchase("infantry", 1), Purchase("galley", 1)))
    assert verdicts(result) == [(False, "C-12.5"), (False, "C-12.5")]
    assert result.state.players["Macedonia"].treasury == 110  # nothing paid (100 + THR tribute 10)


def test_C_12_3_galleys_on_a_named_coast_of_the_home_province() -> None:
    state = start(["Macedonia", "Mesopotamia", "Egyptus", "Hispania", "Italia"])
    state.active = "Italia"
    state.players["Italia"].treasury = 100
    result = play(
        state, buy(Purchase("galley", 1, coast="ADR"), Purchase("galley", 1), Purchase("galley", 1, coast="AEG"))
    )
    assert verdicts(result) == [(True, ""), (True, ""), (False, "C-12.3")]
    italy = force(result, "ITA", "Italia")
    assert italy.galleys == [1, 2] and italy.galley_coasts == {1: "ADR", 2: "NRB"}


def test_C_12_4_mesopotamia_builds_galleys_in_syria_or_armenia() -> None:
    state = start(["Macedonia", "Mesopotamia", "Egyptus", "Hispania", "Italia"])
    state.active = "Mesopotamia"
    state.players["Mesopotamia"].treasury = 100
    result = play(state, buy(Purchase("galley", 1)))
    assert verdicts(result) == [(False, "C-12.4")]
    place(state, "ARM", "Mesopotamia")
    state.areas["MES"].owner = "Egyptus"  # control of Mesopotamia itself is not needed
    result = play(state, buy(Purchase("galley", 1), Purchase("galley", 1, at="SYR")))
    assert verdicts(result) == [(True, ""), (False, "C-12.4")]
    assert force(result, "ARM", "Mesopotamia").galleys == [1]


def test_C_12_6_city_in_a_controlled_province_raises_tribute_at_once() -> None:
    state = place(start(), "THR", "Macedonia")
    state.players["Macedonia"].treasury = 100
    result = play(
        state, buy(Purchase("city", at="THR"), Purchase("city", at="THR"), Purchase("city", at="ACH"), Purchase("city"))
    )
    assert verdicts(result) == [(True, ""), (False, "C-12.6"), (False, "C-12.6"), (False, "C-15.16")]
    assert result.state.areas["THR"].city == "city"
    assert result.state.players["Macedonia"].tribute == 25


def test_C_12_7_fortification_only_under_an_own_unfortified_city() -> None:
    state = place(start(), "THR", "Macedonia")
    state.players["Macedonia"].treasury = 200
    result = play(
        state,
        buy(
            Purchase("fortification", at="THR"),
            Purchase("city", at="THR"),
            Purchase("fortification", at="THR"),
            Purchase("fortification", at="MAC"),
            Purchase("fortified_city", at="MOE"),
        ),
    )
    assert verdicts(result) == [(False, "C-12.7"), (True, ""), (True, ""), (False, "C-12.7"), (False, "C-12.6")]
    assert result.state.areas["THR"].city == "fortified"


def test_C_12_9_a_city_placed_this_phase_gets_a_road_the_same_phase() -> None:
    state = place(start(), "MOE", "Macedonia")
    state.players["Macedonia"].treasury = 100
    result = play(state, buy(Purchase("city", at="MOE"), Purchase("road", at="MOE", to="MAC")))
    assert verdicts(result) == [(True, ""), (True, "")]


def test_C_5_3_and_C_11_result_is_deterministic() -> None:
    orders = (march((1,), "MAC", "THR", inf=2), buy(Purchase("infantry", 1)))
    first, second = play(start(), *orders), play(start(), *orders)
    assert first.state == second.state and first.events == second.events
    assert THREE == list(first.state.players)
