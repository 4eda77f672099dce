"""Exact battle odds for Conqueror (issue 14 item 7): hand-computed cases, the automa deck, refusals, and a
seeded simulation of the real battle that must agree with the enumeration."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from adjudicator.engine.chance import KeyedDice
from adjudicator.rulesets.conqueror.battle import resolve_battle
from adjudicator.rulesets.conqueror.battle_types import DEFENDER, BattleError, Plan, Reinforcement
from adjudicator.rulesets.conqueror.data import Units
from adjudicator.rulesets.conqueror.odds import battle_odds, odds_text
from tests.test_conqueror_battle import army, battle, independent


def test_ER_0_4_odds_of_one_die_against_one_die() -> None:
    odds = battle_odds(battle(army("a", "O", infantry=1), army("d", "X", infantry=1)), {})
    # faces 1,1,2,3,4,4: P(a > d) = (1*2 + 1*3 + 2*4) / 36
    assert (odds.attacker_wins, odds.tie, odds.defender_wins) == (Fraction(13, 36), Fraction(10, 36), Fraction(13, 36))
    assert odds.attacker_wins + odds.defender_wins + odds.tie == 1


def test_ER_8_31_odds_over_the_unknown_automa_card() -> None:
    b = replace(
        independent(Units(infantry=1), automa_deck=("weak", "mid", "strong")), attacker=army("a", "O", cavalry=1)
    )
    odds = battle_odds(b, {})
    # 2 + die against 1 + 1, 1 + 2, 1 + 3 (unblockable casualties do not change the winner)
    assert (odds.attacker_wins, odds.tie, odds.defender_wins) == (Fraction(13, 18), Fraction(1, 6), Fraction(1, 9))


def test_ER_8_10_odds_include_the_volley_and_expected_losses() -> None:
    b = battle(army("a", "O", infantry=1), army("d", "X", archer=1))
    odds = battle_odds(b, {})
    # the defender's archer hits with 2/6 and wipes out the attacking army (ER-8.26); else 1 + die vs die
    melee = Fraction(1, 36) * sum(1 for a in (1, 1, 2, 3, 4, 4) for d in (1, 1, 2, 3, 4, 4) if 1 + a > d)
    assert odds.attacker_wins == Fraction(4, 6) * melee
    beaten = Fraction(1, 36) * sum(1 for a in (1, 1, 2, 3, 4, 4) for d in (1, 1, 2, 3, 4, 4) if 1 + a < d)
    assert odds.expected_losses["a"] == Fraction(2, 6) + Fraction(4, 6) * beaten  # no casualty on a tie


def test_ER_13_6_odds_refused_while_a_manual_effect_waits_for_a_ruling() -> None:
    b = battle(army("a", "O", infantry=1, heroes={"sage": 0}), army("d", "X", infantry=1))
    with pytest.raises(BattleError, match="ER-13.6"):
        battle_odds(b, {"a": Plan(heroes=("sage",))})


def test_odds_agree_with_a_seeded_simulation_of_the_real_battle() -> None:
    attacker = army("a", "O", archer=2, infantry=3, cavalry=1, upgrades=frozenset({"rapid_aim"}), heroes={"gambler": 0})
    defender = army("d", "X", archer=1, infantry=3, upgrades=frozenset({"deadly_aim", "discipline"}), hand=("wall",))
    ally = Reinforcement(army("c", "N", cavalry=1), DEFENDER)
    b = battle(attacker, defender, fort="small", reinforcements=(ally,))
    plans = {"a": Plan(heroes=("gambler",)), "d": Plan(tactics=("wall",))}
    odds = battle_odds(b, plans)
    assert odds.attacker_wins + odds.defender_wins + odds.tie == 1
    runs = 3000
    wins = sum(
        resolve_battle(b, plans, {}, KeyedDice(key=b"seeded simulation", orders_hash=str(i))).winner == "attacker"
        for i in range(runs)
    )
    p = float(odds.attacker_wins)
    sigma = (p * (1 - p) / runs) ** 0.5
    assert abs(wins / runs - p) < 4 * sigma, (wins / runs, p)
    assert "attacker wins" in odds_text(odds)
