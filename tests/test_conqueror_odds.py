"""Exact battle odds for Conqueror: hand-computed cases, the automa deck, refusals, and a
seeded simulation of the real battle that must agree with the enumeration."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from adjudicator.cli import app
from adjudicator.engine.chance import KeyedDice
from adjudicator.resources import resource_dir
from adjudicator.rulesets.conqueror.battle import resolve_battle
from adjudicator.rulesets.conqueror.battle_types import DEFENDER, BattleError, Plan, Reinforcement, Standing
from adjudicator.rulesets.conqueror.data import Units
from adjudicator.rulesets.conqueror.loader import load_folder
from adjudicator.rulesets.conqueror.odds import BattleOdds, ConquerorOdds, battle_odds, odds_text
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


# -- `pbem odds --ruleset conqueror-er` (the protocol's odds member) ----------------------------------------------

EXAMPLE = resource_dir("games") / "conqueror-er" / "example-data"


def pbem_odds(*args: str) -> Result:
    return CliRunner().invoke(app, ["odds", "--ruleset", "conqueror-er", *args])


def expected_text(attacker: Fraction, defender: Fraction, tie: Fraction, losses: dict[str, Fraction]) -> str:
    return odds_text(BattleOdds(attacker, defender, tie, losses, 0)) + "\n"


def test_ER_8_16_pbem_odds_hand_computed_cavalry_against_a_large_fort() -> None:
    result = pbem_odds("--attacker", "2 CAV 1 INF", "--defender", "2 INF LARGE FORT")
    assert result.exit_code == 0, result.output
    # ER-8.16: 2*2 + 1 + a against 2 + 2 (large fort, ER-8.16d) + d: the attacker wins when a >= d, ties when
    # a + 1 == d; the loser of the melee loses 1 unit (ER-8.20). Faces 1,1,2,3,4,4 (ER-0.4).
    faces = (1, 1, 2, 3, 4, 4)
    wins = Fraction(sum(1 for a in faces for d in faces if a >= d), 36)
    ties = Fraction(sum(1 for a in faces for d in faces if a + 1 == d), 36)
    assert (wins, ties) == (Fraction(23, 36), Fraction(5, 36))
    lost = 1 - wins - ties
    assert result.output == expected_text(wins, lost, ties, {"attacker": lost, "defender": wins})


def test_ER_8_16_pbem_odds_with_the_game_data_option_and_the_brief_example() -> None:
    plain = pbem_odds("--attacker", "2 CAV 3 INF 1 ARCHER", "--defender", "4 INF LARGE FORT")
    with_data = pbem_odds(
        "--attacker", "2 CAV 3 INF 1 ARCHER", "--defender", "4 INF LARGE FORT", "--game-data", str(EXAMPLE)
    )
    assert plain.exit_code == 0 and with_data.exit_code == 0, plain.output + with_data.output
    assert plain.output == with_data.output
    data = load_folder(EXAMPLE)
    b = battle(army("attacker", "A", cavalry=2, infantry=3, archer=1), army("defender", "X", infantry=4), fort="large")
    b = replace(b, cards=data.cards, options=data.options)
    assert plain.output == odds_text(battle_odds(b, {})) + "\n"


def test_ER_8_31_pbem_odds_against_an_independent_army_over_the_example_automa_deck() -> None:
    result = pbem_odds("--attacker", "1 CAV", "--defender", "INDEPENDENT 1 INF")
    assert result.exit_code == 0, result.output
    deck = load_folder(EXAMPLE).cards.automa
    faces = (1, 1, 2, 3, 4, 4)
    # 2 + a against 1 + the automa card's strength, each card of the deck equally likely (ER-8.31)
    wins = sum(Fraction(sum(1 for a in faces if 2 + a > 1 + c.strength), 6 * len(deck)) for c in deck)
    ties = sum(Fraction(sum(1 for a in faces if 2 + a == 1 + c.strength), 6 * len(deck)) for c in deck)
    assert result.output.startswith(expected_text(wins, 1 - wins - ties, ties, {}).splitlines()[0] + "\n")


def test_ER_14_13_pbem_odds_reads_a_loss_priority_file(tmp_path: Path) -> None:
    orders = tmp_path / "defender.txt"
    orders.write_text("LOSSES CAV, INF\n", encoding="utf-8")
    base = ["--attacker", "3 CAV", "--defender", "1 CAV 1 INF"]
    result = pbem_odds(*base, "--defender-orders", str(orders))
    assert result.exit_code == 0, result.output
    forces = ConquerorOdds().read_forces(None, "3 CAV", "1 CAV 1 INF", False)
    cavalry_first = Standing(loss_priority=("cavalry", "infantry", "archer", "siege", "ship", "elite"))
    assert result.output == odds_text(battle_odds(forces.battle, {}, {"defender": cavalry_first})) + "\n"
    bad = tmp_path / "bad.txt"
    bad.write_text("LOSSES CAV\nRETREAT NEVER\n", encoding="utf-8")
    refused = pbem_odds(*base, "--defender-orders", str(bad))
    assert refused.exit_code == 1 and "bad.txt line 2" in refused.output and "LOSSES" in refused.output


def test_pbem_odds_refuses_unreadable_forces_naming_the_option() -> None:
    refused = pbem_odds("--attacker", "2 HORSES", "--defender", "1 INF")
    assert refused.exit_code == 1 and "--attacker" in refused.output and "'horses'" in refused.output
    refused = pbem_odds("--attacker", "1 INF", "--defender", "LARGE FORT")
    assert refused.exit_code == 1 and "--defender: no units" in refused.output
    refused = pbem_odds("--attacker", "1 INF LARGE FORT", "--defender", "1 INF")
    assert refused.exit_code == 1 and "--attacker" in refused.output
    refused = pbem_odds("--attacker", "1 INF", "--defender", "INDEPENDENT 1 SIEGE")
    assert refused.exit_code == 1 and "ER-8.31" in refused.output
    refused = pbem_odds("--attacker", "1 INF", "--defender", "1 INF", "--game-data", "/nonexistent-er")
    assert refused.exit_code == 1 and "the game data has problems" in refused.output
