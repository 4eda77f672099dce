"""Conquest of the Empire rules pinned at their thresholds: each test plays a real turn through the ruleset at the
boundary the rule names and one step past it, so a changed number or comparison fails here. Macedonia is the
active player; battles use the helpers of tests/test_coe_classic_battles.py."""

from __future__ import annotations

import pytest

from adjudicator.orders import parse_orders
from adjudicator.rulesets import load_ruleset
from adjudicator.rulesets.coe.orders import Concede, Purchase
from tests.helpers import buy, force, place, play, start, verdicts
from tests.test_coe_classic_battles import ATT_RETREATS, BLANK, CAT, DEF, contest, rounds

MAC, EGY, HIS = "Macedonia", "Egyptus", "Hispania"


# -- C-6.8: a catapult face matches a catapult of the battle legion or of the reserve ---------------------------------
@pytest.mark.parametrize(("reserve", "hits"), [(1, 1), (2, 2)])
def test_C_6_8_catapult_faces_match_catapults_in_reserve_one_die_each(reserve: int, hits: int) -> None:
    """Five infantry fill the battle legion (C-6.5, no leader); the catapults stay in reserve and roll nothing."""
    state = contest(att={"infantry": 5, "catapult": reserve}, dfn={"infantry": 3})
    result = play(state, dice=[CAT, CAT, BLANK, BLANK, BLANK] + [BLANK] * 3, answers=ATT_RETREATS)
    (first,) = rounds(result)
    assert first["attacker_legion"] == "5 INF" and first["attacker_hits"] == hits
    assert force(result, "THR", DEF).infantry == 3 - hits


def test_C_6_8_without_a_catapult_on_its_side_a_catapult_face_scores_nothing() -> None:
    state = contest(att={"infantry": 5}, dfn={"infantry": 3})
    result = play(state, dice=[CAT, CAT, BLANK, BLANK, BLANK] + [BLANK] * 3, answers=ATT_RETREATS)
    (first,) = rounds(result)
    assert first["attacker_hits"] == 0 and force(result, "THR", DEF).infantry == 3


# -- C-11.9: prices ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("piece", "inflation", "price"),
    [("city", 0, 30), ("city", 1, 60), ("city", 2, 90), ("fortified_city", 0, 50), ("catapult", 0, 30)],
)
def test_C_11_9_a_piece_is_bought_with_exactly_its_price_and_refused_one_talent_short(
    piece: str, inflation: int, price: int
) -> None:
    for treasury, bought in ((price, True), (price - 1, False)):
        state = place(start(), "THR", MAC)
        state.inflation = inflation
        state.players[MAC].treasury = treasury - 20  # + 20 tribute (MAC 15, THR 5) at the start of the turn
        site = "THR" if piece.endswith("city") else None
        result = play(state, buy(Purchase(piece, at=site)))
        assert verdicts(result) == [(True, "") if bought else (False, "C-11.1")], (piece, treasury)
        assert result.state.players[MAC].treasury == (0 if bought else treasury)
        if piece.endswith("city"):
            assert (result.state.areas["THR"].city is not None) is bought
        else:
            assert force(result, "MAC", MAC).catapult == int(bought)


# -- C-15.18 (C-14.2): the game ends only when every other remaining player concedes to the same one ---------------
def test_C_15_18_C_14_2_one_concession_short_the_game_goes_on_and_the_last_ends_it() -> None:
    first = play(start(), Concede(HIS, line=1, text="concede"))
    assert verdicts(first) == [(True, "")] and first.state.winner is None
    assert first.state.players[MAC].conceded_to == HIS
    assert first.state.active == EGY
    last = play(first.state, Concede(HIS, line=1, text="concede"))
    assert verdicts(last) == [(True, "")] and last.state.winner == HIS
    other = play(first.state, Concede(MAC, line=1, text="concede"))  # not the same player: the game goes on
    assert verdicts(other) == [(True, "")] and other.state.winner is None


def test_C_15_18_C_14_2_a_concession_to_oneself_is_refused() -> None:
    result = play(start(), Concede(MAC, line=1, text="concede"))
    assert verdicts(result) == [(False, "C-14.2")] and result.state.players[MAC].conceded_to is None
    assert "yourself" in result.order_results[0].reason


# -- O-10.5: Caesars and generals are never bought ---------------------------------------------------------------
@pytest.mark.parametrize("leader", ["GENERAL", "CAESAR"])
def test_O_10_5_a_leader_cannot_be_bought_and_a_combat_unit_can(leader: str) -> None:
    rules = load_ruleset("coe-1984")
    text = f"GAME g1 TURN 1 PLAYER Macedonia PASSWORD x\nBUY 2 INF\nBUY 1 {leader}"
    found = parse_orders(text, rules)
    (error,) = found.errors
    assert (error.line, error.message) == (3, "Caesars and generals are never bought (O-10.5)")
    # one step back: the same BUY with a combat unit reads
    fine = parse_orders(text.replace(f"BUY 1 {leader}", "BUY 1 CAV"), rules)
    assert fine.errors == () and len(fine.orders) == 2


# -- C-11.6: the first inflation is triggered when a tribute marker passes 100 (reaches 105) --------------------------
@pytest.mark.parametrize(("extra", "tribute", "triggered"), [((), 100, False), (("DAL",), 105, True)])
def test_C_11_6_a_tribute_of_100_triggers_nothing_and_105_triggers_the_first_inflation(
    extra: tuple[str, ...], tribute: int, triggered: bool
) -> None:
    state = start()
    for code in ["THR", "MOE", "DAC", "PAN", "ACH", "ASI", "BIT", "GAL", "CAP", "CIL", "SYR", "ARM", "CYP", *extra]:
        place(state, code, MAC)  # 15 + 85 (+ DAL 5)
    result = play(state)
    assert result.state.players[MAC].tribute == tribute
    assert result.state.inflation_pending == ([{"level": 1, "seat": MAC}] if triggered else [])
    assert [e.data["threshold"] for e in result.events if e.kind == "inflation_triggered"] == (
        [105] if triggered else []
    )


# -- C-11.1, C-11.4, C-12.6: what one BUY item may ask --------------------------------------------------------------
def test_C_11_1_at_least_one_piece_and_the_receipt_line_of_a_purchase() -> None:
    state = start()
    state.players[MAC].treasury = 15  # + 15 tribute
    result = play(state, buy(Purchase("infantry", 0), Purchase("infantry", 1)))
    assert verdicts(result) == [(False, "C-11.1"), (True, "")]
    assert "at least 1" in result.order_results[0].reason
    (bought,) = [e for e in result.events if e.kind == "bought"]
    assert bought.seat == MAC
    assert {k: bought.data[k] for k in ("piece", "count", "cost", "treasury")} == {
        "piece": "infantry",
        "count": 1,
        "cost": 10,
        "treasury": 20,
    }
    assert bought.data["where"] and force(result, "MAC", MAC).infantry == 6


def test_C_12_6_one_city_per_site_but_several_galleys_in_one_item() -> None:
    state = place(start(), "THR", MAC)
    state.players[MAC].treasury = 200
    result = play(state, buy(Purchase("city", 2, at="THR"), Purchase("galley", 2)))
    assert verdicts(result) == [(False, "C-12.6"), (True, "")]
    assert result.state.areas["THR"].city is None and len(force(result, "MAC", MAC).galleys) == 2


def test_C_11_4_the_sixteenth_fortification_is_still_in_the_pool() -> None:
    state = place(start(), "THR", MAC)
    state.area("THR").city = "city"
    board = load_ruleset("coe-classic").board
    others = [c for c, a in board.areas.items() if a.is_land and not state.area(c).city and c != "THR"]
    homes = [c for c, a in state.areas.items() if a.city and c != "THR"]
    for code in [*homes, *others][:15]:
        state.area(code).city = "fortified"  # 15 fortifications on the board (C-1.2's pool holds 16)
    state.players[MAC].treasury = 100
    result = play(state, buy(Purchase("fortification", at="THR")))
    assert verdicts(result) == [(True, "")] and result.state.areas["THR"].city == "fortified"
