"""Conquest of the Empire, money and building (rulesets/coe/economy.py) pinned where a mutation run found them
unpinned: each BUY item and city destruction is played as a real turn, and the verdict's order text, rule and
reason are asserted whole, at the limit a rule names and one past it. Macedonia is the active player."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from adjudicator.rulesets.coe.orders import Purchase
from adjudicator.rulesets.coe.state import GameState
from tests.helpers import buy, force, place, play, start
from tests.test_coe_1984_economy import away, destroy, game, legion, own, rich

MAC = "Macedonia"
FIVE = ["Macedonia", "Mesopotamia", "Egyptus", "Hispania", "Italia"]


def classic() -> GameState:
    return rich(start(), 500, MAC)


def with_thr(city: str | None = None) -> GameState:
    state = place(classic(), "THR", MAC)
    state.area("THR").city = city
    return state


def mesopotamia(*held: str) -> GameState:
    state = start(FIVE)
    state.active = "Mesopotamia"
    state.players["Mesopotamia"].treasury = 500
    for code in held:
        place(state, code, "Mesopotamia")
    return state


def home_lost() -> GameState:
    state = classic()
    state.areas["THR"] = state.areas.pop("MAC")  # Macedonia's army stands in Thracia; Egyptus holds MAC
    state.area("MAC").owner = "Egyptus"
    return state


def verdicts(state: GameState, *items: Purchase) -> list[tuple[str, bool, str, str]]:
    result = play(state, buy(*items))
    return [(r.text, r.accepted, r.rule, r.reason) for r in result.order_results]


CASES: list[tuple[str, Callable[[], GameState], Purchase, tuple[str, bool, str, str]]] = [
    # C-12.3: galleys at home, on one of its coasts (the first in the board data by default, C-15.16)
    (
        "C_12_3_galleys_at_home_only",
        classic,
        Purchase("galley", 1, at="THR"),
        ("BUY 1 GALLEY AT THR", False, "C-12.3", "new galleys are placed in your home province MAC, not THR"),
    ),
    (
        "C_12_3_a_coast_the_home_lacks",
        classic,
        Purchase("galley", 2, coast="RHO"),
        ("BUY 2 GALLEY COAST RHO", False, "C-12.3", "MAC has no coast on RHO"),
    ),
    (
        "C_12_3_a_named_coast",
        classic,
        Purchase("galley", 1, coast="AEG"),
        ("BUY 1 GALLEY COAST AEG", True, "", "20 talents, placed MAC (coast AEG)"),
    ),
    (
        "C_15_16_the_first_coast_by_default",
        classic,
        Purchase("galley", 1, at="MAC"),
        ("BUY 1 GALLEY AT MAC", True, "", "20 talents, placed MAC (coast EPI)"),
    ),
    # C-12.4: Mesopotamia's galleys in Syria or Armenia, whichever it controls
    (
        "C_12_4_neither_site_held",
        mesopotamia,
        Purchase("galley", 1),
        ("BUY 1 GALLEY", False, "C-12.4", "you control none of SYR, ARM, so you cannot place galleys"),
    ),
    (
        "C_12_4_not_a_site",
        lambda: mesopotamia("ARM"),
        Purchase("galley", 1, at="EGY"),
        ("BUY 1 GALLEY AT EGY", False, "C-12.4", "your galleys are placed in SYR or ARM, not EGY"),
    ),
    (
        "C_12_4_a_site_not_held",
        lambda: mesopotamia("ARM"),
        Purchase("galley", 1, at="SYR"),
        ("BUY 1 GALLEY AT SYR", False, "C-12.4", "you do not control SYR"),
    ),
    (
        "C_12_4_the_site_held",
        lambda: mesopotamia("ARM"),
        Purchase("galley", 1, at="ARM"),
        ("BUY 1 GALLEY AT ARM", True, "", "20 talents, placed ARM"),
    ),
    # C-12.5, C-12.2: new pieces need the home province
    (
        "C_12_5_no_galleys_without_home",
        home_lost,
        Purchase("galley", 1),
        (
            "BUY 1 GALLEY",
            False,
            "C-12.5",
            "new galleys are placed only in your home province MAC, which you do not control",
        ),
    ),
    (
        "C_12_5_no_units_without_home",
        home_lost,
        Purchase("cavalry", 1),
        (
            "BUY 1 CAV",
            False,
            "C-12.5",
            "new combat units are placed only in your home province MAC, which you do not control",
        ),
    ),
    (
        "C_12_2_units_at_home_only",
        classic,
        Purchase("infantry", 2, at="THR"),
        ("BUY 2 INF AT THR", False, "C-12.2", "new combat units are placed in your home province MAC, not THR"),
    ),
    (
        "C_12_2_units_at_home_named",
        classic,
        Purchase("catapult", 1, at="MAC"),
        ("BUY 1 CAT AT MAC", True, "", "30 talents, placed MAC"),
    ),
    # C-12.6: cities
    (
        "C_15_16_a_city_names_its_site",
        with_thr,
        Purchase("city"),
        ("BUY CITY", False, "C-15.16", "name the site: CITY AT <province>"),
    ),
    (
        "C_12_6_no_city_at_sea",
        with_thr,
        Purchase("city", at="AEG"),
        ("BUY CITY AT AEG", False, "C-12.6", "AEG is a sea zone"),
    ),
    (
        "C_12_6_no_city_in_anothers_province",
        with_thr,
        Purchase("city", at="EGY"),
        ("BUY CITY AT EGY", False, "C-12.6", "you do not control EGY"),
    ),
    (
        "C_12_6_one_city_per_province",
        with_thr,
        Purchase("city", at="MAC"),
        ("BUY CITY AT MAC", False, "C-12.6", "MAC already has a city"),
    ),
    (
        "C_12_6_one_fortified_city_per_item",
        with_thr,
        Purchase("fortified_city", 2, at="THR"),
        ("BUY FORTIFIED CITY AT THR", False, "C-12.6", "buy one fortified city per site, naming its site"),
    ),
    (
        "C_12_6_a_fortified_city",
        with_thr,
        Purchase("fortified_city", 1, at="THR"),
        ("BUY FORTIFIED CITY AT THR", True, "", "50 talents, placed THR"),
    ),
    # C-12.7: fortifications
    (
        "C_12_7_a_fortification_needs_a_city",
        with_thr,
        Purchase("fortification", at="THR"),
        ("BUY FORTIFICATION AT THR", False, "C-12.7", "THR has no city to fortify"),
    ),
    (
        "C_12_7_one_fortification_per_city",
        with_thr,
        Purchase("fortification", at="MAC"),
        ("BUY FORTIFICATION AT MAC", False, "C-12.7", "the city in MAC is already fortified"),
    ),
    (
        "C_15_16_a_fortification_names_its_site",
        with_thr,
        Purchase("fortification"),
        ("BUY FORTIFICATION", False, "C-15.16", "name the site: FORTIFICATION AT <province>"),
    ),
    (
        "C_12_7_a_fortification_under_an_own_city",
        lambda: with_thr("city"),
        Purchase("fortification", at="THR"),
        ("BUY FORTIFICATION AT THR", True, "", "20 talents, placed THR"),
    ),
    # C-12.8: roads
    (
        "C_15_16_a_road_names_both_cities",
        lambda: with_thr("city"),
        Purchase("road", at="MAC"),
        ("BUY ROAD MAC-None", False, "C-15.16", "name both cities: ROAD <province>-<province>"),
    ),
    (
        "C_12_8_a_road_between_own_cities",
        lambda: with_thr("city"),
        Purchase("road", at="MAC", to="EGY"),
        ("BUY ROAD MAC-EGY", False, "C-12.8", "you do not control EGY"),
    ),
    (
        "C_12_8_a_road_needs_a_city_at_each_end",
        with_thr,
        Purchase("road", at="MAC", to="THR"),
        ("BUY ROAD MAC-THR", False, "C-12.8", "THR has no city"),
    ),
    (
        "C_12_8_a_road",
        lambda: with_thr("city"),
        Purchase("road", at="MAC", to="THR"),
        ("BUY ROAD MAC-THR", True, "", "10 talents, placed MAC-THR"),
    ),
]


@pytest.mark.parametrize(("case", "position", "item", "expected"), CASES, ids=[c[0] for c in CASES])
def test_C_11_C_12_each_buy_item_is_placed_or_refused_naming_the_rule(
    case: str, position: Callable[[], GameState], item: Purchase, expected: tuple[str, bool, str, str]
) -> None:
    state = position()
    seat = state.active
    assert seat is not None
    before = state.players[seat].treasury
    result = play(state, buy(item))
    (verdict,) = result.order_results
    assert (verdict.text, verdict.accepted, verdict.rule, verdict.reason) == expected
    tribute = result.state.players[seat].tribute
    if not expected[1]:  # a refused item costs nothing (C-11.5)
        assert result.state.players[seat].treasury == before + tribute, case


def test_C_12_8_a_second_road_between_the_same_cities_is_refused() -> None:
    state = with_thr("city")
    assert verdicts(state, Purchase("road", at="MAC", to="THR"), Purchase("road", at="THR", to="MAC")) == [
        ("BUY ROAD MAC-THR", True, "", "10 talents, placed MAC-THR"),
        ("BUY ROAD THR-MAC", False, "C-12.8", "a road already joins THR and MAC"),
    ]


# -- C-10.1: only an own city is destroyed -------------------------------------------------------------------------
def test_C_10_1_there_must_be_a_city_and_it_must_be_ones_own() -> None:
    result = play(with_thr(), destroy("THR", line=1), destroy("EGY", line=2))
    assert [(r.accepted, r.rule, r.reason) for r in result.order_results] == [
        (False, "C-10.1", "there is no city in THR"),
        (False, "C-10.1", "the city in EGY is not yours"),
    ]


# -- O-9.2, O-11.2 (1984): the city that leads units, the room at home ---------------------------------------------
@pytest.mark.parametrize(("units", "refused"), [(7, False), (8, True)])
def test_O_9_2_a_city_leading_units_beyond_seven_per_leader_stays(units: int, refused: bool) -> None:
    state = legion(own(game(), "ACH", city="city"), "ACH", 2, inf=units)
    result = play(state, destroy("ACH"))
    (verdict,) = result.order_results
    assert (verdict.accepted, verdict.rule) == ((False, "O-9.2") if refused else (True, ""))
    assert (result.state.areas["ACH"].city == "city") is refused
    if refused:
        assert verdict.reason == (
            "the city in ACH leads your combat units there: 8 combat units with 1 Caesar or general(s) would break "
            "the limit of 7 per leader (O-5.7)"
        )


@pytest.mark.parametrize(("count", "refused"), [(3, False), (4, True)])
def test_O_11_2_new_units_at_home_fill_the_room_and_one_more_is_refused(count: int, refused: bool) -> None:
    state = rich(away(game()), 200, MAC)  # MAC: the fortified city leads 4 infantry
    result = play(state, buy(Purchase("infantry", count)))
    (verdict,) = result.order_results
    assert (verdict.accepted, verdict.rule) == ((False, "O-11.2") if refused else (True, ""))
    assert force(result, "MAC", MAC).infantry == (4 if refused else 7)
    if refused:
        assert verdict.reason == (
            "MAC has room for 3 more combat units: 4 there with 1 leader(s), at most 7 per leader, your city "
            "counting as one (O-5.7)"
        )
