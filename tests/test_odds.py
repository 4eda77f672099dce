"""Exact battle odds (rulesets/coe/odds.py): tiny cases worked out by hand, the symbol dice against brute force,
and a Monte Carlo check against the real engine (play() with random dice) for both editions, land and naval.
Macedonia (the active player) attacks, Egyptus defends, as in the battle rule tests."""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from adjudicator.rulesets.coe.odds import Odds, land_odds, naval_odds, odds_text, standing_from_orders
from adjudicator.rulesets.coe.odds_chain import symbol_hits
from adjudicator.rulesets.coe.orders import NavalBattle, Order, Priority, RetreatRule
from adjudicator.rulesets.coe.state import Cargo, GameState
from adjudicator.rulesets.coe.turn import TurnResult
from adjudicator.rulesets.coe.vocabulary import UNIT_KINDS
from tests.helpers import place, play, sail, start

ATT, DEF = "Macedonia", "Egyptus"
F = Fraction


def retreat(condition: str, threshold: int | None = None) -> dict[str, Any]:
    return {"retreat": [{"from": None, "condition": condition, "threshold": threshold, "to": []}]}


def total(odds: Odds) -> Fraction | float:
    return odds.attacker_wins + odds.defender_holds + odds.draw


# -- Classic land (C-6), by hand ------------------------------------------------------------------------------------


def test_classic_one_infantry_each() -> None:
    # Each side hits with an infantry face (2/6); both hit together in 1/9 of the rounds, nobody in 4/9.
    odds = land_odds("coe-classic", {"infantry": 1}, {"infantry": 1}, exact=True)
    hit, stay = F(1, 3), F(4, 9)
    assert odds.attacker_wins == hit * (1 - hit) / (1 - stay) == F(2, 5)
    assert odds.both_eliminated == hit * hit / (1 - stay) == F(1, 5)  # C-6.14 (c): the defender keeps it
    assert odds.defender_holds == F(3, 5) and odds.draw == 0 and odds.retreat == 0
    assert odds.attacker_losses == odds.defender_losses == {"infantry": F(3, 5), "cavalry": 0, "catapult": 0}
    assert odds.rounds == 1 / (1 - stay)


def test_classic_fortress_dice_match_only_the_defenders_own_units() -> None:
    # C-6.7: 1 + 2 fortress dice; only infantry faces hit (one infantry in the legion): 1 - (4/6)**3 = 19/27.
    odds = land_odds("coe-classic", {"cavalry": 1}, {"infantry": 1, "fortified": True}, exact=True)
    a, d = F(1, 6), F(19, 27)
    assert odds.attacker_wins == a * (1 - d) / (1 - (1 - a) * (1 - d))
    # an attacking catapult (in the legion or not) leaves one fortress die: 1 - (4/6)**2 = 5/9
    odds = land_odds("coe-classic", {"catapult": 1}, {"infantry": 1, "fortified": True}, exact=True)
    a, d = F(1, 6), F(5, 9)
    assert odds.attacker_wins == a * (1 - d) / (1 - (1 - a) * (1 - d))


def test_classic_losses_cheapest_first_or_by_standing_order() -> None:
    # 1 INF 1 CAV against 1 INF: the attacker hits unless both dice miss (3/4), the defender with 1/3.
    # After a defender's hit alone, 1 CAV (default LOSSES: infantry first) or 1 INF (LOSSES CAV) is left.
    first = F(3, 4) * F(2, 3) + F(3, 4) * F(1, 3)  # the defender is gone after the round
    again = F(1, 4) * F(1, 3)  # only the attacker lost a unit
    norm = 1 - F(1, 4) * F(2, 3)
    cav_alone = F(1, 6) * F(2, 3) / (1 - F(5, 6) * F(2, 3))  # 1 CAV against 1 INF (both gone: defender keeps)
    inf_alone = F(2, 5)
    default = land_odds("coe-classic", {"infantry": 1, "cavalry": 1}, {"infantry": 1}, exact=True)
    assert default.attacker_wins == (first + again * cav_alone) / norm == F(37, 40)
    ordered = land_odds("coe-classic", {"infantry": 1, "cavalry": 1}, {"infantry": 1}, {"losses": ["cav"]}, exact=True)
    assert ordered.attacker_wins == (first + again * inf_alone) / norm == F(47, 50)
    assert default.attacker_losses["infantry"] > 0 and default.attacker_losses["cavalry"] > 0


def test_classic_retreat_and_pursuit() -> None:
    # Egyptus (3 INF) retreats after every round (RETREAT WHEN UNITS < 10). Round 1: 1 CAV hits with 1/6; 3 dice
    # hit the cavalry unless no infantry face (8/27 survive). Then the pursuit: one die, a cavalry face kills one.
    odds = land_odds("coe-classic", {"cavalry": 1}, {"infantry": 3}, None, retreat("units_below", 10), exact=True)
    assert odds.defender_retreats == odds.attacker_wins == F(8, 27)
    assert odds.defender_holds == F(19, 27) and odds.rounds == 1
    assert odds.defender_losses["infantry"] == F(1, 6) + F(8, 27) * F(1, 6)
    assert odds.attacker_losses["cavalry"] == F(19, 27)
    # without a destination there is no retreat (C-15.8: never into C-6.20)
    stays = land_odds(
        "coe-classic",
        {"cavalry": 1},
        {"infantry": 3},
        None,
        retreat("units_below", 10),
        defender_can_retreat=False,
        exact=True,
    )
    assert stays.retreat == 0 and stays == land_odds("coe-classic", {"cavalry": 1}, {"infantry": 3}, exact=True)
    # RETREAT FROM another province does not apply here
    elsewhere = {"retreat": [{"from": "MOE", "condition": "units_below", "threshold": 10, "to": []}]}
    assert land_odds("coe-classic", {"cavalry": 1}, {"infantry": 3}, None, elsewhere, area="THR").retreat == 0


@pytest.mark.parametrize("n", range(0, 7))
def test_classic_symbol_dice_against_every_roll(n: int) -> None:
    rolled: dict[tuple[int, int, int], int] = {}  # (infantry, cavalry, catapult faces): rolls
    for roll in itertools.product(range(1, 7), repeat=n):
        faces = (sum(f in (1, 2) for f in roll), roll.count(3), roll.count(4))
        rolled[faces] = rolled.get(faces, 0) + 1
    for inf, cav, cat in itertools.product(range(4), repeat=3):
        counts = [0] * (n + 1)
        for (i, c, k), ways in rolled.items():
            counts[min(i, inf) + min(c, cav) + min(k, cat)] += ways
        while len(counts) > 1 and not counts[-1]:
            counts.pop()
        assert list(symbol_hits(n, inf, cav, cat, True)) == [F(c, 6**n) for c in counts]


# -- 1984 land (O-6), by hand ---------------------------------------------------------------------------------------


def test_1984_alternating_shots() -> None:
    odds = land_odds("coe-1984", {"infantry": 1}, {"infantry": 1}, exact=True)
    assert odds.attacker_wins == F(1, 2) / (1 - F(1, 4)) == F(2, 3)  # the attacker shoots first
    assert odds.both_eliminated == 0 and odds.rounds == F(4, 3)
    # a fortified city gives the defender +1: infantry 3+ against the attacker; cavalry 5+ for the attacker
    odds = land_odds("coe-1984", {"infantry": 1}, {"cavalry": 1, "fortified": True}, exact=True)
    assert odds.attacker_wins == F(1, 3) / (1 - F(2, 3) * F(1, 3)) == F(3, 7)
    # +4 against infantry is automatic: no reply
    odds = land_odds("coe-1984", {"catapult": 4}, {"infantry": 1}, exact=True)
    assert odds.attacker_wins == 1 and odds.attacker_losses["catapult"] == 0


def test_1984_retreat_condition() -> None:
    # 2 INF each, RETREAT WHEN UNITS < 2: after a cycle (stay 1/4) one third each: both hit (retreat), only the
    # defender hit (then 2/3 win, 1/3 retreat), only the attacker hit (retreat).
    odds = land_odds("coe-1984", {"infantry": 2}, {"infantry": 2}, retreat("units_below", 2), exact=True)
    assert odds.attacker_wins == F(2, 9) and odds.attacker_retreats == F(7, 9) == odds.defender_holds
    assert odds.attacker_losses["infantry"] == F(7, 9) and odds.defender_losses["infantry"] == F(8, 9)
    plain = land_odds("coe-1984", {"infantry": 2}, {"infantry": 2}, exact=True)
    for cannot in (
        land_odds(
            "coe-1984",
            {"infantry": 2},
            {"infantry": 2},
            retreat("units_below", 2),
            attacker_can_retreat=False,
            exact=True,
        ),
        land_odds(
            "coe-1984", {"infantry": 2, "by_sea": {"inf": 2}}, {"infantry": 2}, retreat("units_below", 2), exact=True
        ),
    ):  # O-6.17: all came by sea
        assert cannot.retreat == 0 and cannot.attacker_wins == plain.attacker_wins
    # O-6.17: 1 came by sea, 1 by land; the defender shoots the one that came by land first: no retreat after
    by_sea = land_odds(
        "coe-1984", {"infantry": 2, "by_sea": {"inf": 1}}, {"infantry": 2}, retreat("units_below", 2), exact=True
    )
    assert by_sea.attacker_retreats == 0 and by_sea.attacker_wins == plain.attacker_wins
    # the defender's advantage (catapult + fortified city = 2): retreat after cycle 1 unless it ended the battle
    odds = land_odds(
        "coe-1984",
        {"infantry": 3},
        {"catapult": 1, "fortified": True},
        retreat("enemy_advantage_at_least", 2),
        exact=True,
    )
    assert odds.rounds == 1 and odds.attacker_retreats == F(5, 6) and odds.attacker_wins == F(1, 6)


def test_1984_targets_default_and_standing() -> None:
    # 1 INF against 1 INF + 1 CAT (the catapult gives Egyptus +1: 3+ against infantry).
    # Default: the lowest number, infantry (4+) before the catapult (6+).
    f_cat = F(1, 6) / (1 - F(5, 6) * F(1, 3))  # the catapult alone: 6+ against 3+
    default = land_odds("coe-1984", {"infantry": 1}, {"infantry": 1, "catapult": 1}, exact=True)
    assert default.attacker_wins == F(1, 2) * F(1, 3) * f_cat / (1 - F(1, 2) * F(1, 3)) == F(3, 65)
    # TARGETS CAT: first the catapult, then the infantry (4+ both ways, 2/3)
    aimed = land_odds(
        "coe-1984", {"infantry": 1}, {"infantry": 1, "catapult": 1}, {"targets": ["catapult"]}, exact=True
    )
    assert aimed.attacker_wins == F(1, 6) * F(1, 2) * F(2, 3) / (1 - F(5, 6) * F(1, 3)) == F(1, 13)


# -- naval, by hand -------------------------------------------------------------------------------------------------


def test_classic_naval_three_rounds() -> None:
    q = 1 - F(25, 36)  # a galley face on two dice
    r = (1 - q) ** 2  # nobody sinks
    odds = naval_odds("coe-classic", 1, 1, exact=True)
    assert odds.attacker_wins == odds.defender_holds == q * (1 - q) * (1 + r + r * r)
    assert odds.both_eliminated == q * q * (1 + r + r * r)
    assert odds.draw == odds.both_eliminated + r**3 and total(odds) == 1
    assert odds.rounds == 1 + r + r * r and odds.attacker_losses["galley"] == q * (1 + r + r * r)


def test_classic_naval_losses_empty_first_cargo_sinks_with_its_galley() -> None:
    # 1 galley each side with 1 INF aboard the defender's second galley: one hit sinks the empty one first.
    odds = naval_odds("coe-classic", 1, [{"infantry": 1, "generals": 1}, {}], exact=True)
    ordered = naval_odds(
        "coe-classic", 1, [{"infantry": 1, "generals": 1}, {}], None, {"naval_losses": ["generals"]}, exact=True
    )
    assert odds.attacker_wins == ordered.attacker_wins
    assert ordered.defender_losses["infantry"] > odds.defender_losses["infantry"] > 0


def test_1984_naval_cargo_first_then_the_galley() -> None:
    both_empty = naval_odds("coe-1984", 1, 1, exact=True)
    assert both_empty.attacker_wins == F(2, 3) / (1 - F(1, 9)) == F(3, 4)
    # the attacker's galley carries 1 INF: Egyptus must shoot it (4+) before the galley (3+)
    odds = naval_odds("coe-1984", [{"infantry": 1, "generals": 1}], 1, exact=True)
    assert odds.attacker_wins == (F(2, 3) + F(1, 3) * F(1, 2) * F(3, 4)) / (1 - F(1, 3) * F(1, 2)) == F(19, 20)
    # O-14.4: the galley carrying the Caesar first; sinking it ends Egyptus (O-7.5, O-7.6)
    caesar = naval_odds("coe-1984", 1, [{}, {"caesar": True}], exact=True)
    assert caesar.attacker_wins == F(3, 4) and caesar.defender_losses["galley"] == F(3, 4)
    assert naval_odds("coe-1984", 1, 2, exact=True).attacker_wins < F(3, 4)


def test_probabilities_sum_to_one_and_text() -> None:
    cases = [
        land_odds(
            r,
            {"infantry": 4, "cavalry": 2, "catapult": 1, "leaders": 1},
            {"infantry": 5, "cavalry": 1, "fortified": True},
            retreat("units_below", 3),
            retreat("below_enemy"),
            exact=True,
        )
        for r in ("coe-classic", "coe-1984")
    ]
    cases += [naval_odds(r, [{"infantry": 2, "generals": 1}, {}], 3, exact=True) for r in ("coe-classic", "coe-1984")]
    for odds in cases:
        assert total(odds) == 1
        assert odds.attacker_wins >= odds.defender_retreats and odds.defender_holds >= odds.attacker_retreats
        text = odds_text(odds)
        assert "Attacker wins" in text and "Expected losses" in text
    fast = land_odds("coe-classic", {"infantry": 20, "leaders": 2}, {"infantry": 20, "cavalry": 3, "leaders": 1})
    assert math.isclose(float(total(fast)), 1.0, abs_tol=1e-12)


def test_standing_from_orders() -> None:
    orders = [
        Priority("losses", ("cavalry", "infantry"), line=1, text="LOSSES CAV, INF"),
        RetreatRule("units_below", 3, None, ("MAC",), line=2, text="RETREAT TO MAC WHEN UNITS < 3"),
    ]
    assert standing_from_orders(orders) == {
        "losses": ["cavalry", "infantry"],
        "retreat": [{"from": None, "condition": "units_below", "threshold": 3, "to": ["MAC"]}],
    }


def test_bad_input() -> None:
    with pytest.raises(ValueError):
        land_odds("coe-classic", {"infantry": 1}, {"leaders": 1})
    with pytest.raises(ValueError):
        land_odds("coe-classic", {"infantry": 1, "elephants": 2}, {"infantry": 1})
    with pytest.raises(ValueError):
        naval_odds("coe-1984", 0, 1)


# -- Monte Carlo against the engine ---------------------------------------------------------------------------------

BATTLES = 2000
TOLERANCE = 4  # standard errors


def pieces(state: GameState, seat: str) -> dict[str, int]:
    """All of a seat's combat units and galleys on the board."""
    counts = dict.fromkeys([*UNIT_KINDS, "galley"], 0)
    for area in state.areas.values():
        force = area.units.get(seat)
        if force is not None:
            for kind in UNIT_KINDS:
                counts[kind] += getattr(force, kind)
            counts["galley"] += len(force.galleys)
    return counts


def outcome(result: TurnResult, naval: bool) -> str:
    """attacker / defender / both / undecided / attacker_retreats / defender_retreats, from the engine's events."""
    retreats = [e.seat for e in result.events if e.kind == "retreat"]
    if retreats:
        return "attacker_retreats" if retreats[0] == ATT else "defender_retreats"
    if naval:
        ended = [e.data.get("winner") for e in result.events if e.kind == "naval_end"]
        if ended and ended[0] is not None:  # 1984: to the end
            return "attacker" if ended[0] == ATT else "defender"
        fleets = [
            len(result.state.areas["AEG"].units[s].galleys) if s in result.state.areas["AEG"].units else 0
            for s in (ATT, DEF)
        ]
        return {(True, True): "undecided", (True, False): "attacker", (False, True): "defender"}.get(
            (fleets[0] > 0, fleets[1] > 0), "both"
        )
    end = next(e.data for e in result.events if e.kind == "battle_end")
    left = result.state.areas["THR"].units.get(DEF)
    if end["winner"] == DEF and not (left and left.units):
        return "both"
    return "attacker" if end["winner"] == ATT else "defender"


def monte_carlo(odds: Odds, build: Callable[[], tuple[GameState, list[Order]]], naval: bool, seed: int) -> None:
    """Fight the position BATTLES times with random dice in the real engine; every probability and expected loss
    of `odds` must lie within TOLERANCE standard errors of the sample."""
    rng = random.Random(seed)
    counts: dict[str, int] = {}
    losses: dict[tuple[str, str], list[int]] = {}
    for _ in range(BATTLES):
        state, orders = build()
        before = {seat: pieces(state, seat) for seat in (ATT, DEF)}
        result = play(state, *orders, dice=rng.choices(range(1, 7), k=600))
        key = outcome(result, naval)
        counts[key] = counts.get(key, 0) + 1
        for seat in (ATT, DEF):
            after = pieces(result.state, seat)
            for kind in before[seat]:
                losses.setdefault((seat, kind), []).append(before[seat][kind] - after[kind])
    exact = {
        "attacker": odds.attacker_wins - odds.defender_retreats,
        "defender": odds.defender_holds - odds.attacker_retreats - (0 if naval else odds.both_eliminated),
        "both": odds.both_eliminated,
        "attacker_retreats": odds.attacker_retreats,
        "defender_retreats": odds.defender_retreats,
        "undecided": odds.draw - (odds.both_eliminated if naval else 0),
    }
    report = []
    for key, p in exact.items():
        p = float(p)
        seen = counts.get(key, 0) / BATTLES
        error = math.sqrt(max(p * (1 - p), 1 / BATTLES) / BATTLES)
        report.append((key, p, seen, error))
    for (seat, kind), sample in losses.items():
        expected = float((odds.attacker_losses if seat == ATT else odds.defender_losses).get(kind, 0))
        mean = sum(sample) / BATTLES
        var = sum((x - mean) ** 2 for x in sample) / (BATTLES - 1)
        report.append((f"{seat} {kind} lost", expected, mean, math.sqrt(max(var, 1 / BATTLES) / BATTLES)))
    bad = [r for r in report if abs(r[1] - r[2]) > TOLERANCE * r[3]]
    assert not bad, "exact vs sampled (standard error): " + "; ".join(
        f"{k} {p:.4f} vs {s:.4f} ({e:.4f})" for k, p, s, e in bad
    )
    assert sum(counts.values()) == BATTLES and set(counts) <= set(exact)


def land_position(
    ruleset: str,
    att: dict[str, Any],
    dfn: dict[str, Any],
    fortified: bool,
    standing: tuple[dict[str, Any], dict[str, Any]],
) -> Callable[[], tuple[GameState, list[Order]]]:
    """Macedonia's pieces `att` against Egyptus's `dfn` in Thracia (Egyptus's; leaders taken from home)."""

    def build() -> tuple[GameState, list[Order]]:
        state = start(ruleset=ruleset)
        for seat, pieces_, orders in ((ATT, att, standing[0]), (DEF, dfn, standing[1])):
            home = state.force(state.players[seat].home, seat)
            for number in pieces_.get("generals", []):
                home.generals.remove(number)
            place(state, "THR", seat, owner=False, **pieces_)
            state.players[seat].standing.update(orders)
        state.area("THR").owner = DEF
        state.area("THR").city = "fortified" if fortified else None
        return state, []

    return build


def as_odds_force(pieces_: dict[str, Any], fortified: bool = False) -> dict[str, Any]:
    return {
        **{k: v for k, v in pieces_.items() if k in UNIT_KINDS},
        "leaders": len(pieces_.get("generals", [])),
        "fortified": fortified,
    }


LAND = [
    (
        "coe-classic",
        {"generals": [1], "infantry": 4, "cavalry": 2, "catapult": 1},
        {"infantry": 5, "cavalry": 1},
        True,
        ({}, {}),
    ),
    (
        "coe-classic",
        {"infantry": 6, "cavalry": 2},
        {"generals": [1], "infantry": 4, "cavalry": 3, "catapult": 1},
        False,
        (
            {"losses": ["cavalry"], "pursuit": ["infantry"], **retreat("units_below", 4)},
            {"battlelegion": ["catapult", "cavalry"], **retreat("below_enemy")},
        ),
    ),
    (
        "coe-1984",
        {"generals": [1], "infantry": 3, "cavalry": 2, "catapult": 1},
        {"generals": [1], "infantry": 3, "cavalry": 1, "catapult": 1},
        True,
        ({}, {}),
    ),
    (
        "coe-1984",
        {"generals": [1], "infantry": 4, "cavalry": 2},
        {"generals": [1], "infantry": 3, "catapult": 2},
        False,
        ({"targets": ["catapult"], **retreat("units_below", 3)}, {"targets": ["cavalry"]}),
    ),
]


@pytest.mark.parametrize("case", range(len(LAND)))
def test_land_odds_agree_with_the_engine(case: int) -> None:
    ruleset, att, dfn, fortified, standing = LAND[case]
    odds = land_odds(ruleset, as_odds_force(att), as_odds_force(dfn, fortified), standing[0], standing[1])
    assert math.isclose(float(total(odds)), 1.0, abs_tol=1e-12)
    monte_carlo(odds, land_position(ruleset, att, dfn, fortified, standing), naval=False, seed=case)


def classic_fleets() -> tuple[GameState, list[Order]]:
    """Macedonia: galley 1 (G1, 2 INF), galleys 2, 3 empty; Egyptus: galley 1 (G2, 1 INF, 1 CAV), galley 2."""
    state = start()
    for seat, cargo in ((ATT, [(1, 2, 0), None, None]), (DEF, [(2, 1, 1), None])):
        home, sea = state.force(state.players[seat].home, seat), state.force("AEG", seat)
        for number, load in enumerate(cargo, 1):
            sea.galleys.append(number)
            if load:
                general, inf, cav = load
                home.generals.remove(general)
                sea.generals.append(general)
                sea.infantry += inf
                sea.cavalry += cav
                sea.aboard[number] = Cargo(generals=[general], infantry=inf, cavalry=cav)
    return state, [NavalBattle("AEG", None, line=1, text="NAVAL AEG")]


def fleet_1984() -> tuple[GameState, list[Order]]:
    """Macedonia sails galley 1 (G1, 2 INF, 1 CAT) and empty galley 2 into the Aegean; Egyptus has galley 1 there
    (G2, 2 INF, 1 CAV) and empty galley 2."""
    state = start(ruleset="coe-1984")
    mac = state.force("MAC", ATT)
    mac.catapult = 1
    for number in (1, 2):
        mac.galleys.append(number)
        mac.galley_coasts[number] = "AEG"
    home, sea = state.force(state.players[DEF].home, DEF), state.force("AEG", DEF)
    home.generals.remove(2)
    sea.generals.append(2)
    sea.infantry, sea.cavalry, sea.galleys = 2, 1, [1, 2]
    sea.aboard[1] = Cargo(generals=[2], infantry=2, cavalry=1)
    return state, [sail((1,), "MAC", "AEG", leaders=(1,), inf=2, cat=1, line=1), sail((2,), "MAC", "AEG", line=2)]


def test_naval_odds_agree_with_the_engine() -> None:
    odds = naval_odds(
        "coe-classic", [{"generals": 1, "infantry": 2}, {}, {}], [{"generals": 1, "infantry": 1, "cavalry": 1}, {}]
    )
    monte_carlo(odds, classic_fleets, naval=True, seed=10)
    odds = naval_odds(
        "coe-1984",
        [{"generals": 1, "infantry": 2, "catapult": 1}, {}],
        [{"generals": 1, "infantry": 2, "cavalry": 1}, {}],
    )
    monte_carlo(odds, fleet_1984, naval=True, seed=11)


def test_caesar_aboard_in_the_engine_ends_the_battle() -> None:
    # O-7.5, O-7.6 as the odds model them: one hit on the Caesar's empty galley wins.
    state, orders = start(ruleset="coe-1984"), []
    mac = state.force("MAC", ATT)
    mac.galleys.append(1)
    mac.galley_coasts[1] = "AEG"
    home, sea = state.force(state.players[DEF].home, DEF), state.force("AEG", DEF)
    home.caesar, sea.caesar, sea.galleys = 0, 1, [1, 2]
    sea.aboard[1] = Cargo(caesar=1)
    orders = [sail((1,), "MAC", "AEG", line=1)]
    result = play(state, *orders, dice=[3])
    assert outcome(result, naval=True) == "attacker"


def test_pbem_odds_prints_the_exact_odds(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from adjudicator.cli import app

    orders = tmp_path / "standing.txt"
    orders.write_text("LOSSES CAV, INF\nRETREAT WHEN UNITS < 3\n")
    result = CliRunner().invoke(
        app,
        [
            "odds",
            "--attacker",
            "4 INF 2 CAV 1 LEADER",
            "--defender",
            "5 INF FORTIFIED",
            "--attacker-orders",
            str(orders),
        ],
    )
    assert result.exit_code == 0, result.output
    expected = land_odds(
        "coe-classic",
        {"infantry": 4, "cavalry": 2, "leaders": 1},
        {"infantry": 5, "fortified": True},
        {
            "losses": ["cavalry", "infantry"],
            "retreat": [{"from": None, "condition": "units_below", "threshold": 3, "to": []}],
        },
    )
    assert result.output == odds_text(expected) + "\n"
    bad = CliRunner().invoke(app, ["odds", "--attacker", "four INF", "--defender", "5 INF"])
    assert bad.exit_code == 1 and "'four' is not understood" in bad.output


def _pbem_odds(*args: str) -> Any:
    from typer.testing import CliRunner

    from adjudicator.cli import app

    return CliRunner().invoke(app, ["odds", *args])


def test_pbem_odds_reads_retreat_from_as_the_readme_writes_it_C_15_7(tmp_path: Path) -> None:
    """`RETREAT FROM SYR TO PAL WHEN UNITS < 2` counts: the battle is taken to be in the one area the
    RETREAT FROM orders name, or in --area."""
    forces = ["--attacker", "6 INF 2 CAV 1 LEADER", "--defender", "4 INF 1 LEADER"]
    with_from, without_from = tmp_path / "from.txt", tmp_path / "plain.txt"
    with_from.write_text("RETREAT FROM SYR TO PAL WHEN UNITS < 2\n")
    without_from.write_text("RETREAT TO PAL WHEN UNITS < 2\n")
    plain = _pbem_odds(*forces, "--defender-orders", str(without_from))
    named = _pbem_odds(*forces, "--defender-orders", str(with_from))
    assert plain.exit_code == 0 and named.exit_code == 0, named.output
    assert named.output == plain.output and "defender retreats" in plain.output
    assert _pbem_odds(*forces, "--defender-orders", str(with_from), "--area", "Syria").output == plain.output
    elsewhere = _pbem_odds(*forces, "--defender-orders", str(with_from), "--area", "EGY")
    assert elsewhere.exit_code == 0 and elsewhere.output == _pbem_odds(*forces).output
    both = tmp_path / "both.txt"
    both.write_text("RETREAT FROM SYR WHEN UNITS < 2\nRETREAT FROM EGY WHEN UNITS < 3\n")
    several = _pbem_odds(*forces, "--defender-orders", str(both))
    assert several.exit_code == 1 and "--area" in several.output


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--attacker", "4 GALLEYS", "--defender", "3 GALLEYS"], "add --naval"),
        (["--attacker", "4 INF 1 LEADER", "--defender", "3 GALLEYS"], "add --naval"),
        (["--naval", "--attacker", "4 INF", "--defender", "3 GALLEYS"], "without --naval"),
        (["--attacker", "4 INF 1 LEADERZ", "--defender", "3 INF"], "'1 LEADERZ' is not understood; write e.g."),
    ],
)
def test_pbem_odds_errors_name_the_forms_and_options_the_command_takes(args: list[str], says: str) -> None:
    result = _pbem_odds(*args)
    assert result.exit_code == 1 and says in result.output
    assert "by_sea" not in result.output and "unknown key" not in result.output


def test_pbem_odds_help_shows_the_accepted_forms() -> None:
    shown = " ".join(_pbem_odds("--help").output.split())
    for form in ("'N GALLEYS'", "FORTIFIED", "CAESAR", "RETREAT [FROM <area>] [TO <areas>] WHEN UNITS < 3", "--area"):
        assert form in shown
