"""Conquest of the Empire, money and building (rulesets/coe/economy.py) pinned where a mutation run found them
unpinned: each BUY item and city destruction is played as a real turn, and the verdict's order text, rule and
reason are asserted whole, at the limit a rule names and one past it. Macedonia is the active player."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from adjudicator.rulesets import load_ruleset
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


# -- C-10.1, C-10.2: a destroyed city takes its fortification and roads ---------------------------------------------
def test_C_10_2_a_destroyed_fortified_city_takes_its_roads_from_both_ends() -> None:
    state = with_thr("fortified")
    state.area("MAC").roads, state.area("THR").roads = ["THR"], ["MAC"]
    result = play(state, destroy("THR"))
    assert [(r.accepted, r.reason) for r in result.order_results] == [(True, "city destroyed")]
    (gone,) = [(e.seat, e.data) for e in result.events if e.kind == "city_destroyed"]
    assert gone == (MAC, {"area": "THR", "fortified": True, "roads": ["MAC"]})
    assert result.state.areas["THR"].city is None and result.state.areas["MAC"].roads == []
    assert result.state.areas["THR"].roads == []


# -- C-11.4 with C-1.1, C-1.2, O-1.2: what is left in the supply ---------------------------------------------------
@pytest.mark.parametrize(
    ("ruleset", "piece", "left", "reason"),
    [
        ("coe-classic", "infantry", 15, "your supply has only 15 infantry left (limit 20, C-1.1)"),
        ("coe-classic", "galley", 8, "your supply has only 8 galley left (limit 8, C-1.1)"),
        ("coe-1984", "cavalry", 30, "the shared supply has only 30 cavalry left (limit 30, O-1.2)"),
    ],
)
def test_C_11_4_the_last_pieces_of_a_supply_are_bought_and_one_more_is_refused(
    ruleset: str, piece: str, left: int, reason: str
) -> None:
    state = rich(start(ruleset=ruleset) if ruleset == "coe-classic" else game(), 10000, MAC)
    result = play(state, buy(Purchase(piece, left + 1), Purchase(piece, left)))
    rule = "C-11.4" if ruleset == "coe-classic" else "O-10.4"
    assert [(r.accepted, r.rule, r.reason) for r in result.order_results][0] == (False, rule, reason)
    assert result.order_results[1].accepted


@pytest.mark.parametrize(("cities", "allowed"), [(15, True), (16, False)])
def test_C_11_4_C_1_2_the_shared_pool_of_sixteen_cities(cities: int, allowed: bool) -> None:
    state = with_thr()
    board = load_ruleset("coe-classic").board
    free = [c for c, a in sorted(board.areas.items()) if a.is_land and not state.area(c).city and c != "THR"]
    for code in free[: cities - sum(1 for a in state.areas.values() if a.city)]:
        state.area(code).city = "city"
    assert sum(1 for a in state.areas.values() if a.city) == cities
    (verdict,) = play(state, buy(Purchase("city", at="THR"))).order_results
    assert (verdict.accepted, verdict.rule) == ((True, "") if allowed else (False, "C-11.4"))
    if not allowed:
        assert verdict.reason == "the shared pool has only 0 city left (limit 16, C-1.2)"


# -- C-11.1: the price against the treasury ------------------------------------------------------------------------
def test_C_11_1_the_refusal_names_the_cost_and_the_treasury_and_a_count_below_one() -> None:
    state = start()
    state.players[MAC].treasury = 9  # + 15 tribute
    result = play(state, buy(Purchase("infantry", 3), Purchase("infantry", 0), Purchase("infantry", 2)))
    assert [(r.text, r.accepted, r.rule, r.reason) for r in result.order_results] == [
        ("BUY 3 INF", False, "C-11.1", "costs 30 talents, treasury holds 24"),
        ("BUY 0 INF", False, "C-11.1", "the number bought must be at least 1"),
        ("BUY 2 INF", True, "", "20 talents, placed MAC"),
    ]


# -- C-11.6, C-11.7: the inflation trigger and its taking effect -----------------------------------------------------
def test_C_11_6_C_11_7_the_trigger_and_the_new_level_are_told_with_their_rule() -> None:
    state = start()
    for code in ["THR", "MOE", "DAC", "PAN", "ACH", "ASI", "BIT", "GAL", "CAP", "CIL", "SYR", "ARM", "CYP", "DAL"]:
        place(state, code, MAC)  # tribute 105
    first = play(state)
    triggered = [(e.seat, e.data) for e in first.events if e.kind == "inflation_triggered"]
    assert triggered == [(MAC, {"level": 1, "threshold": 105, "tribute": 105, "rule": "C-11.6"})]
    (tribute,) = [(e.seat, e.data) for e in first.events if e.kind == "tribute"]
    assert tribute[0] == MAC
    later = first.state
    while later.active != MAC:
        later = play(later).state
    assert later.inflation == 0
    took = play(later)
    assert [(e.seat, e.data) for e in took.events if e.kind == "inflation"] == [(MAC, {"level": 1, "rule": "C-11.7"})]
    assert took.state.inflation == 1 and took.state.inflation_pending == []
