"""Rule tests for the 1984 edition outside movement and combat: components and shared pools (O-1), tribute
(O-8), city destruction (O-9), purchase and inflation (O-10), placement and roads (O-11) and the edge cases
O-15.14 to O-15.16 and O-15.21 to O-15.24. Macedonia is the active player unless a test says otherwise; test
names carry the rule IDs (O-x.y) they check."""

from __future__ import annotations

import pytest

from adjudicator.rulesets import Ruleset, load_ruleset
from adjudicator.rulesets.coe.economy import tribute_value
from adjudicator.rulesets.coe.orders import CAESAR, DestroyCity, Purchase, RansomOffer
from adjudicator.rulesets.coe.setup import SetupError
from adjudicator.rulesets.coe.state import Captive, Force, GameState
from adjudicator.rulesets.coe.turn import TurnResult
from adjudicator.rulesets.coe.vocabulary import PIECES
from tests.helpers import buy, force, legion, march, own, play, sail, start, verdicts

OK = (True, "")
MAC, EGY, HIS = "Macedonia", "Egyptus", "Hispania"
# Provinces worth 85 in all, far from Macedonia's home: with MAC (15) Macedonia's tribute is 100.
WORTH_85 = ["BRI", "BEL", "GER", "LUG", "AQU", "NAR", "RAE", "NOR", "CAE", "AFR", "SAR", "COR", "BLR"]


def game() -> GameState:
    """A fresh three-player 1984 game (Macedonia, Egyptus, Hispania); Macedonia moves first."""
    return start(ruleset="coe-1984")


def rules1984() -> Ruleset:
    return load_ruleset("coe-1984")


def away(state: GameState, seat: str = MAC, to: str = "THR") -> GameState:
    """Every leader of `seat` leaves home for `to`: the home city alone leads the 4 infantry there."""
    return legion(state, to, CAESAR, 1, 2, 3, 4, 5, 6, seat=seat)


def rich(state: GameState, talents: int = 1000, *seats: str) -> GameState:
    for seat in seats or tuple(state.players):
        state.players[seat].treasury = talents
    return state


def costs(result: TurnResult) -> list[int]:
    return [e.data["cost"] for e in result.events if e.kind == "bought"]


def treasury(result: TurnResult, seat: str = MAC) -> int:
    return result.state.players[seat].treasury


def destroy(area: str, line: int = 1) -> DestroyCity:
    return DestroyCity(area, line=line, text=f"destroy city {area}")


# -- O-1: components and limits ------------------------------------------------------------------------------------


def test_O_1_1_each_colour_has_a_caesar_six_generals_and_six_galleys() -> None:
    limits = rules1984().data["limits"]
    assert (limits["generals"], limits["galley"]) == (6, 6)
    state = game()
    assert force(play(state.copy()), "MAC", MAC).generals == [1, 2, 3, 4, 5, 6]
    state.force("AEG", MAC).galleys = [1, 2, 3, 4, 5]
    rich(state)
    result = play(state, buy(Purchase("galley", 1, coast="AEG"), Purchase("galley", 1, coast="AEG")))
    assert verdicts(result) == [OK, (False, "O-10.4")]
    assert "O-1.1" in result.order_results[1].reason
    assert force(result, "MAC", MAC).galleys == [6]


def test_O_1_2_and_O_10_4_infantry_cavalry_and_catapults_come_from_pools_shared_by_all_players() -> None:
    limits = rules1984().data["limits"]
    assert (limits["infantry"], limits["cavalry"], limits["catapult"]) == (60, 30, 20)
    state = rich(legion(game(), "EGY", seat=EGY, cat=18))  # Egyptus has 18 of the 20 catapults
    result = play(state, buy(Purchase("catapult", 3), Purchase("catapult", 2), Purchase("infantry", 40)))
    assert verdicts(result) == [(False, "O-10.4"), OK, OK]  # no colour limit: 44 infantry for Macedonia
    assert "O-1.2" in result.order_results[0].reason and "shared" in result.order_results[0].reason
    assert force(result, "MAC", MAC).infantry == 44 and force(result, "MAC", MAC).catapult == 2


def test_O_1_3_thirty_cities_sixteen_fortifications_thirty_four_roads() -> None:
    limits = rules1984().data["limits"]
    assert (limits["city"], limits["fortification"], limits["road"]) == (30, 16, 34)
    board = rules1984().board
    dropped = {"BRI", "SAR", "CYP", "BLR", "SIC", "CRE", "COR", "ACH", "TIN", "NEA", "BEL", "DAC"}
    cities = [c for c, a in board.areas.items() if a.is_land and c not in dropped]
    assert len(cities) == 30
    state = rich(own(game(), "MOE", "ACH"))
    for code in cities:
        state.area(code).city = state.area(code).city or "city"  # all 30 cities are on the board
    pairs = sorted(
        {tuple(sorted((a, b))) for a in cities for b in cities if a != b and board.land_border(a, b)} - {("MAC", "MOE")}
    )
    for a, b in pairs[:34]:  # all 34 roads
        state.area(a).roads.append(b)
        state.area(b).roads.append(a)
    result = play(state, buy(Purchase("road", at="MAC", to="MOE"), Purchase("city", at="ACH")))
    assert verdicts(result) == [(False, "O-10.4"), (False, "O-10.4")]
    assert "O-1.3" in result.order_results[0].reason and "O-1.3" in result.order_results[1].reason
    a, b = pairs[0]
    state.area(a).roads.remove(b)
    state.area(b).roads.remove(a)
    assert verdicts(play(state, buy(Purchase("road", at="MAC", to="MOE")))) == [OK]


def test_O_1_4_money_and_control_markers_are_unlimited() -> None:
    state = rich(game(), 5000, MAC)  # more than the coins in the box
    land = [c for c, a in rules1984().board.areas.items() if a.is_land and c not in ("EGY", "HIS")]
    own(state, *land)
    result = play(state, buy(Purchase("infantry", 20)))
    assert verdicts(result) == [OK]
    assert result.state.players[MAC].tribute == sum(rules1984().board.value(c) for c in land) + 5
    assert treasury(result) == 5000 + result.state.players[MAC].tribute - 200


def test_O_1_5_a_piece_leaving_the_board_returns_to_the_supply_at_once() -> None:
    board = rules1984().board
    state = rich(own(game(), "THR", "ACH", city="city"), 100, MAC)
    free = [c for c, a in board.areas.items() if a.is_land and not state.area(c).city]
    for code in free[:26]:
        state.area(code).city = "city"
    state.area("ACH").city = None  # 3 homes + THR + 26 others: the pool of 30 is empty
    state.area("THR").roads, state.area("MAC").roads = ["MAC"], ["THR"]
    assert verdicts(play(state.copy(), buy(Purchase("city", at="ACH")))) == [(False, "O-10.4")]
    result = play(state, destroy("THR", line=1), buy(Purchase("city", at="ACH"), line=2))
    assert verdicts(result) == [OK, OK]
    assert result.state.areas["ACH"].city == "city" and not result.state.areas["MAC"].roads


def test_O_1_6_the_owner_of_every_uncoloured_unit_is_recorded() -> None:
    state = rich(legion(game(), "THR", 1, inf=3, seat=EGY))
    result = play(state, buy(Purchase("infantry", 2)))
    assert force(result, "MAC", MAC).infantry == 6 and force(result, "THR", EGY).infantry == 3
    assert force(result, "EGY", EGY).infantry == 4


def test_O_1_7_and_O_10_5_leaders_are_never_bought_and_a_killed_general_is_not_replaced() -> None:
    assert not {"caesar", "general", "generals", "leader"} & set(PIECES)
    assert set(rules1984().data["prices"]) == set(PIECES)
    state = legion(game(), "THR", 3, seat=EGY)
    result = play(state, march((1,), "MAC", "THR", inf=1), answers={MAC: {"captive.Egyptus.G3": "kill"}})
    assert [e.data["choice"] for e in result.events if e.kind == "captured"] == ["kill"]
    state = result.state
    for _ in range(3):
        state = play(state).state
    generals = [g for a in state.areas.values() if EGY in a.units for g in a.units[EGY].generals]
    assert sorted(generals) == [1, 2, 4, 5, 6]


def test_O_1_8_two_to_six_players() -> None:
    ruleset = rules1984()
    with pytest.raises(SetupError, match="O-1.8"):
        ruleset.initial_state("g", [MAC])
    assert len(ruleset.initial_state("g", [EGY, HIS]).players) == 2
    assert len(ruleset.initial_state("g", list(ruleset.seat_names)).players) == 6


def test_O_1_9_one_ordinary_die_per_shot() -> None:
    state = legion(legion(game(), "THR", 1, inf=1), "THR", 1, inf=1, seat=EGY, owner=False)
    state.area("THR").owner = EGY
    result = play(state, dice=[3, 3, 4])  # miss (infantry needs 4+), the defender misses, then a hit
    assert [value for _, value in result.dice] == [3, 3, 4]
    assert result.state.areas["THR"].owner == MAC and force(result, "THR", EGY) == Force()


def test_O_1_10_taken_over_galleys_stay_outside_the_colour_limit_and_units_just_change_owner() -> None:
    state = legion(game(), "THR", CAESAR, seat=EGY)
    state.force("ALX", EGY).galleys = [1, 2, 3, 4, 5, 6]
    state.force("AEG", MAC).galleys = [1, 2, 3, 4, 5]
    rich(state, 200, MAC)
    result = play(
        state,
        march((1,), "MAC", "THR", inf=1, line=1),
        buy(Purchase("galley", 1, coast="AEG"), Purchase("galley", 1, coast="AEG"), Purchase("infantry", 2), line=2),
    )
    assert result.state.players[EGY].eliminated
    assert verdicts(result) == [OK, OK, (False, "O-10.4"), OK]  # own colour: 5 + 1; the 6 taken over are extra
    assert len(force(result, "ALX", MAC).galleys) == 6 and force(result, "EGY", MAC).infantry == 4
    assert result.state.players[MAC].inherited == {"galley": 6}  # the infantry just changed owner
    assert sum(f.infantry for a in result.state.areas.values() for f in a.units.values()) == 4 + 4 + 4 + 2


# -- O-8: tribute ----------------------------------------------------------------------------------------------


def test_O_8_1_tribute_is_provinces_plus_five_per_city_and_walls_add_nothing() -> None:
    state = own(game(), "THR", city="fortified")
    own(state, "ACH", city="city")
    own(state, "MOE")
    assert tribute_value(rules1984(), state, MAC) == 15 + 10 + 15 + 5


def test_O_8_2_the_marker_moves_with_provinces_and_cities_won_and_lost() -> None:
    state = rich(own(game(), "THR", seat=EGY, city="city"), 100, MAC)
    result = play(
        state,
        march((1,), "MAC", "THR", inf=1, line=1),
        buy(Purchase("city", at="THR"), line=2),
        buy(Purchase("city", at="MAC"), line=3),
    )
    assert verdicts(result) == [OK, (False, "O-11.4"), (False, "O-11.4")]  # both have a city already
    assert result.state.players[MAC].tribute == 15 + 10 and result.state.players[EGY].tribute == 15
    result = play(rich(own(game(), "ACH"), 100, MAC), buy(Purchase("city", at="ACH")))
    assert result.state.players[MAC].tribute == 15 + 10 + 5


def test_O_8_3_and_O_8_4_tribute_is_paid_in_phase_3_and_the_treasury_carries_over() -> None:
    state = rich(own(game(), "ACH"), 12, MAC)
    result = play(state, buy(Purchase("infantry", 2)))
    assert treasury(result) == 12 + 25 - 20
    assert [e.data["amount"] for e in result.events if e.kind == "tribute"] == [25]
    assert treasury(result, EGY) == 0  # only the active player collects
    again = play(play(result.state).state)  # Egyptus, Hispania; then Macedonia again
    again = play(again.state, buy(Purchase("infantry", 1)))
    assert treasury(again) == 17 + 25 - 10


def test_O_8_5_control_markers_only_record_control() -> None:
    state = legion(game(), "THR", 1, cav=1)
    result = play(state, march((1,), "THR", "MOE", "DAC", cav=1))
    assert result.state.areas["THR"].owner == MAC and not result.state.areas["THR"].units
    assert result.state.areas["MOE"].owner is None and result.state.areas["DAC"].owner == MAC


# -- O-9: destroying cities --------------------------------------------------------------------------------------


def test_O_9_1_own_cities_are_destroyed_with_walls_and_roads_tribute_falls_at_once() -> None:
    state = own(game(), "THR", "MOE", city="fortified")
    state.area("THR").roads, state.area("MOE").roads = ["MOE"], ["THR"]
    own(state, "ACH", seat=EGY, city="city")
    result = play(state, destroy("THR", line=1), destroy("ACH", line=2), destroy("DAC", line=3))
    assert verdicts(result) == [OK, (False, "O-9.1"), (False, "O-9.1")]
    assert result.state.areas["THR"].city is None and result.state.areas["THR"].owner == MAC
    assert not result.state.areas["MOE"].roads and result.state.players[MAC].tribute == 15 + 5 + 10
    assert treasury(result) == 15 + 10 + 10  # the tribute of Phase 3 was collected before


def test_O_9_2_and_O_15_24_a_city_that_leads_units_cannot_be_destroyed() -> None:
    state = legion(own(game(), "THR", "MOE", "ACH", city="city"), "THR", inf=2)
    legion(state, "MOE", 1, inf=7)
    legion(state, "ACH", 2, inf=8)
    result = play(state, destroy("THR", line=1), destroy("MOE", line=2), destroy("ACH", line=3))
    assert verdicts(result) == [(False, "O-9.2"), OK, (False, "O-9.2")]  # G2 alone leads only 7 of 8 in ACH
    assert result.state.areas["THR"].city == "city" and result.state.areas["MOE"].city is None
    assert result.order_results[0].reason.startswith("the city in THR leads")


# -- O-10: purchase and inflation ---------------------------------------------------------------------------------


def test_O_10_1_paid_from_the_treasury_only_for_what_is_in_supply_and_can_be_placed() -> None:
    state = rich(game(), 20, MAC)
    result = play(state, buy(Purchase("catapult", 1), Purchase("infantry", 2), Purchase("city", at="THR")))
    assert verdicts(result) == [(False, "O-10.1"), OK, (False, "O-11.4")]
    assert treasury(result) == 35 - 20


@pytest.mark.parametrize(("level", "factor"), [(0, 1), (1, 2), (2, 3)])
def test_O_10_2_prices(level: int, factor: int) -> None:
    state = rich(own(game(), "THR", "ACH", "MOE", city=None), 10_000, MAC)
    state.area("MOE").city = "city"
    state.inflation = level
    result = play(
        state,
        buy(
            Purchase("infantry", 1),
            Purchase("cavalry", 1),
            Purchase("galley", 1, coast="AEG"),
            Purchase("catapult", 1),
            Purchase("city", at="THR"),
            Purchase("fortified_city", at="ACH"),
            Purchase("fortification", at="MOE"),
            Purchase("road", at="MOE", to="THR"),
        ),
    )
    assert verdicts(result) == [OK] * 8
    assert costs(result) == [factor * p for p in (10, 25, 25, 40, 30, 55, 25)] + [0]


def test_O_10_3_a_fortification_for_a_city_bought_this_turn_or_later() -> None:
    state = rich(own(game(), "THR", "ACH"), 200, MAC)
    result = play(
        state,
        buy(
            Purchase("city", at="THR"),
            Purchase("fortification", at="THR"),
            Purchase("fortified_city", at="ACH"),
            Purchase("fortification", at="ACH"),
        ),
    )
    assert verdicts(result) == [OK, OK, OK, (False, "O-11.5")]
    assert costs(result) == [30, 25, 55]
    assert result.state.areas["THR"].city == result.state.areas["ACH"].city == "fortified"


def test_O_10_6_and_O_15_16_roads_are_free_built_in_phase_6_between_own_cities() -> None:
    state = own(game(), "THR", "MOE", "ASI", city="city")
    result = play(
        state,
        buy(
            Purchase("road", at="MAC", to="THR"),
            Purchase("road", at="THR", to="MOE"),
            Purchase("road", at="THR", to="ASI"),
        ),
    )
    assert verdicts(result) == [OK, OK, (False, "O-11.6")]  # never across Thracia-Asia
    assert costs(result) == [0, 0] and treasury(result) == result.state.players[MAC].tribute  # nothing paid
    assert sorted(result.state.areas["THR"].roads) == ["MAC", "MOE"]


def test_O_10_7_inflation_triggers_past_100_and_at_205_once_each() -> None:
    state = rich(own(game(), *WORTH_85), 100, MAC)  # Macedonia 100: not yet past 100
    assert tribute_value(rules1984(), state, MAC) == 100
    result = play(state)
    assert not result.state.inflation_pending
    result = play(state, buy(Purchase("city", at="BRI")))  # 105
    assert result.state.inflation_pending == [{"level": 1, "seat": MAC}]
    assert rules1984().data["inflation"]["thresholds"] == [105, 205]
    state.inflation = 1  # once in force, crossing the mark again triggers nothing
    result = play(state, buy(Purchase("city", at="BRI")))
    assert not result.state.inflation_pending and costs(result) == [60]


def test_O_10_8_and_O_15_21_the_trigger_player_buys_at_old_prices_the_next_player_pays_double() -> None:
    state = rich(own(game(), *WORTH_85[:-1]), 100)  # Macedonia 95
    legion(state, "ASI", 1, inf=1, owner=False)
    legion(state, "ASI", 1, inf=1, seat=EGY, owner=False)
    state.area("ASI").owner = EGY
    mac = play(state, buy(Purchase("infantry", 1)), dice=[4])  # Phase 2: Asia (10) conquered, tribute 105
    assert mac.state.players[MAC].tribute == 105 and mac.state.inflation_pending == [{"level": 1, "seat": MAC}]
    egy = play(mac.state, buy(Purchase("infantry", 1)))
    his = play(egy.state, buy(Purchase("infantry", 1)))
    assert (costs(mac), costs(egy), costs(his)) == ([10], [20], [20])
    assert egy.state.inflation == 1 and [e.seat for e in egy.events if e.kind == "inflation"] == [EGY]


def test_O_10_8_a_level_triggered_outside_the_triggering_players_turn_acts_from_the_next_turn() -> None:
    state = rich(game(), 100)
    state.inflation_pending = [{"level": 1, "seat": HIS}]  # triggered in an earlier turn, not Hispania's own
    mac = play(state, buy(Purchase("infantry", 1)))
    assert costs(mac) == [20] and mac.state.inflation == 1 and not mac.state.inflation_pending
    classic = rich(start(), 100)
    classic.inflation_pending = [{"level": 1, "seat": HIS}]
    assert costs(play(classic, buy(Purchase("infantry", 1)))) == [10]  # Classic: at Hispania's next turn (C-11.7)


def test_O_10_8_both_levels_at_once_mean_triple_prices_from_the_next_turn() -> None:
    state = rich(own(game(), *WORTH_85), 100)  # Macedonia: 100
    own(
        state,
        "SIC",
        "NEA",
        "DAL",
        "PAN",
        "DAC",
        "CYP",
        "CYR",
        "ARA",
        "PAL",
        "CIL",
        "CAP",
        "BIT",
        "SYR",
        "MOE",
        seat=EGY,
    )  # Egyptus: 100
    legion(state, "THR", CAESAR, seat=EGY, owner=False)
    mac = play(state, march((1,), "MAC", "THR", inf=1, line=1), buy(Purchase("infantry", 1), line=2))
    assert mac.state.players[EGY].eliminated and mac.state.players[MAC].tribute == 205
    assert sorted(p["level"] for p in mac.state.inflation_pending) == [1, 2]
    his = play(mac.state, buy(Purchase("infantry", 1)))
    assert (costs(mac), costs(his)) == ([10], [30]) and his.state.inflation == 2


# -- O-11: placement -------------------------------------------------------------------------------------------------


def test_O_11_1_new_units_and_galleys_at_home_on_a_named_coast_only_while_it_is_held() -> None:
    state = rich(own(game(), "THR"), 200, MAC)
    result = play(
        state,
        buy(
            Purchase("cavalry", 1, at="MAC"),
            Purchase("galley", 1, coast="EPI"),
            Purchase("galley", 1),
            Purchase("infantry", 1, at="THR"),
        ),
    )
    assert verdicts(result) == [OK, OK, OK, (False, "O-11.1")]
    assert force(result, "MAC", MAC).galley_coasts == {1: "EPI", 2: "EPI"}  # default: the first coast in the data
    state = rich(own(game(), "MAC", seat=EGY), 200, MAC)  # Macedonia lost his home (his infantry fell there)
    state.force("MAC", MAC).infantry = 0
    result = play(state, buy(Purchase("infantry", 1), Purchase("galley", 1)))
    assert verdicts(result) == [(False, "O-11.1"), (False, "O-11.1")]


def test_O_11_2_and_O_15_14_new_units_at_home_within_seven_per_leader() -> None:
    state = rich(away(game()), 200, MAC)  # MAC: the fortified city leads 4 infantry
    result = play(state, buy(Purchase("infantry", 4), Purchase("infantry", 3), Purchase("cavalry", 1)))
    assert verdicts(result) == [(False, "O-11.2"), OK, (False, "O-11.2")]
    assert force(result, "MAC", MAC).infantry == 7 and treasury(result) == 200 + 20 - 30  # MAC 15, THR 5
    state = rich(legion(game(), "THR", CAESAR, 2, 3, 4, 5, 6), 200, MAC)  # G1 at home with the city: 14
    result = play(state, buy(Purchase("infantry", 10), Purchase("infantry", 1)))
    assert verdicts(result) == [OK, (False, "O-11.2")]


def test_O_15_23_a_prisoner_in_the_captors_home_raises_no_limit() -> None:
    state = rich(away(game()), 200, MAC)
    state.force("EGY", EGY).generals.remove(1)
    state.players[MAC].captives.append(Captive(EGY, 1))  # held for ransom in Macedonia's home
    result = play(state, buy(Purchase("infantry", 4)))
    assert verdicts(result) == [(False, "O-11.2")]


def test_O_11_3_no_galley_sites_outside_the_home_province() -> None:
    assert "galley_sites" not in rules1984().data
    state = rich(own(game(), "SYR", "ARM"), 200, MAC)
    result = play(state, buy(Purchase("galley", 1, at="SYR"), Purchase("galley", 1, at="MAC", coast="AEG")))
    assert verdicts(result) == [(False, "O-11.1"), OK]


def test_O_11_4_and_O_11_5_new_cities_and_fortifications() -> None:
    state = rich(own(game(), "THR", "SAR"), 500, MAC)
    own(state, "ACH", seat=EGY)
    result = play(
        state,
        buy(
            Purchase("city", at="SAR"),
            Purchase("city", at="ACH"),
            Purchase("city", at="AEG"),
            Purchase("fortification", at="SAR"),
            Purchase("fortification", at="MAC"),
            Purchase("fortification", at="THR"),
        ),
    )
    assert verdicts(result) == [OK, (False, "O-11.4"), (False, "O-11.4"), OK, (False, "O-11.5"), (False, "O-11.5")]
    assert result.state.areas["SAR"].city == "fortified" and result.state.players[MAC].tribute == 15 + 5 + 5 + 5


def test_O_11_7_placements_in_any_order_within_the_phase() -> None:
    state = rich(own(game(), "THR", "MOE"), 200, MAC)
    result = play(
        state,
        buy(
            Purchase("city", at="THR"),
            Purchase("road", at="MAC", to="THR"),
            Purchase("fortified_city", at="MOE"),
            Purchase("road", at="MOE", to="THR"),
        ),
    )
    assert verdicts(result) == [OK, OK, OK, OK]
    assert sorted(result.state.areas["THR"].roads) == ["MAC", "MOE"]


def test_O_11_8_ransom_agreements_in_phase_6_after_the_purchases() -> None:
    state = game()
    state.force("EGY", EGY).generals.remove(1)
    state.players[MAC].captives.append(Captive(EGY, 1))
    state.players[EGY].treasury = 40
    state.players[EGY].standing["ransom_accept"] = [{"owner": EGY, "general": 1, "talents": 30}]
    result = play(state, RansomOffer(EGY, 1, 30, (), line=1, text="ransom offer"), buy(Purchase("infantry", 2), line=2))
    assert verdicts(result) == [OK, (False, "O-10.1")]  # the ransom comes in after the purchases
    assert treasury(result) == 15 + 30 and 1 in force(result, "EGY", EGY).generals
    kinds = [e.kind for e in result.events]
    assert kinds.index("ransomed") > max(i for i, k in enumerate(kinds) if k == "phase")


def test_O_15_15_a_conquest_removes_every_road_to_the_province_and_the_city_passes() -> None:
    state = own(game(), "THR", "MOE", "DAC", seat=EGY, city="city")
    for a, b in (("THR", "MOE"), ("MOE", "DAC")):
        state.area(a).roads.append(b)
        state.area(b).roads.append(a)
    result = play(state, march((1,), "MAC", "MOE", inf=2))
    assert verdicts(result) == [OK]
    areas = result.state.areas
    assert areas["MOE"].owner == MAC and areas["MOE"].city == "city"
    assert (areas["MOE"].roads, areas["THR"].roads, areas["DAC"].roads) == ([], [], [])
    assert [e.data["roads"] for e in result.events if e.kind == "roads_removed"] == [["DAC", "THR"]]


def test_C_9_7_classic_roads_outlive_a_conquest() -> None:
    state = start()
    for code in ("THR", "MOE"):
        state.area(code).owner, state.area(code).city = EGY, "city"
    state.area("THR").roads, state.area("MOE").roads = ["MOE"], ["THR"]
    result = play(state, march((1,), "MAC", "MOE", inf=2))
    assert result.state.areas["MOE"].owner == MAC and result.state.areas["MOE"].roads == ["THR"]


def test_O_15_22_all_thirty_cavalry_on_the_board_none_can_be_bought() -> None:
    state = rich(legion(legion(game(), "EGY", seat=EGY, cav=20), "MAC", cav=10))
    result = play(state, buy(Purchase("cavalry", 1)))
    assert verdicts(result) == [(False, "O-10.4")]
    state.force("EGY", EGY).cavalry -= 1  # one is eliminated
    assert verdicts(play(state, buy(Purchase("cavalry", 1)))) == [OK]


def test_O_11_2_galleys_are_no_combat_units_and_take_no_room_at_home() -> None:
    state = rich(away(game()), 200, MAC)
    state.force("AEG", MAC).galleys = [1]
    result = play(state, sail((1,), "AEG", "MAC", line=1), buy(Purchase("infantry", 3), line=2))
    assert verdicts(result) == [OK, OK]  # galleys are no combat units: the city still has room for 3
