"""Exact battle odds of Empires of the Ancient World (odds.py, `pbem odds --ruleset empires-aw`): a case computed
by hand, a Monte Carlo cross-check against the real battle (battle.fight) with a fixed seed, unknown stacks, the
standing orders and the force texts. The cards are those of tests/eaw_helpers.py."""

from __future__ import annotations

import random
import shutil
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace

import pytest
from typer.testing import CliRunner, Result

from adjudicator.cli import app
from adjudicator.engine.chance import Dice
from adjudicator.rulesets.empires import standing
from adjudicator.rulesets.empires.battle import fight
from adjudicator.rulesets.empires.battle_stacks import OPEN
from adjudicator.rulesets.empires.data import GameData
from adjudicator.rulesets.empires.odds import (
    EmpiresOdds,
    Forces,
    Side,
    battle_odds,
    candidate_stacks,
    stack_odds,
)
from adjudicator.rulesets.empires.orders import Attack, StackOrder
from adjudicator.rulesets.empires.play import Play
from tests.eaw_helpers import position, small_data


@dataclass
class SeededDice(Dice):
    """A fair die from a seeded generator: the Monte Carlo side of the cross-check."""

    rng: random.Random = field(default_factory=lambda: random.Random(7))

    def _next(self, purpose: str, faces: int, hidden: bool) -> int:
        return self.rng.randint(1, faces)


def test_EAW_8_5_odds_of_a_die_card_against_a_fixed_card_computed_by_hand() -> None:
    # slinger 1 + d6 against pike 4: faces 4-6 win (1/2), face 3 ties (1/6), faces 1-2 lose (1/3).
    # One comparison: the winner gets one marker and wins (EAW-8.7); a tie leaves 0-0: the defender wins.
    # Losses (EAW-8.8): the loser of the comparison loses its one revealed card.
    data = small_data()
    odds = stack_odds(data, OPEN, (["slinger"], ["pike"]))
    assert (odds.attacker_wins, odds.defender_wins) == (Fraction(1, 2), Fraction(1, 2))
    assert odds.cards_lost == {"attacker": Fraction(1, 3), "defender": Fraction(1, 2)}
    assert (odds.attacker_routs, odds.defender_routs) == (0, 0)


def test_EAW_8_10_odds_of_a_certain_rout_and_random_losses_computed_by_hand() -> None:
    # blade, pike, pike against guard_a, guard_a#2 (3 each): red wins 3 comparisons (the third against an empty
    # position) and routs; blue owes 3 losses but revealed 2 empire cards: both absorb, none is lost.
    data = small_data()
    odds = stack_odds(data, OPEN, (["blade", "pike", "pike#2"], ["guard_a", "guard_a#2"]))
    assert odds.attacker_wins == 1 and odds.attacker_routs == 1
    assert odds.cards_lost["defender"] == 0 and odds.absorbed["defender"] == 2
    # one army card among two revealed, one loss drawn at random: half a card on average
    odds = stack_odds(data, OPEN, (["blade"], ["guard_b", "pike"]))
    # blade 5 beats guard_b 4 (a marker to red), pike beats the empty position (push_first: a centre marker to
    # blue): 1-1, the defender wins; red loses its blade, blue one of guard_b (absorbed) and pike, each 1/2
    assert odds.defender_wins == 1 and odds.cards_lost == {"attacker": 1, "defender": Fraction(1, 2)}
    assert odds.absorbed["defender"] == Fraction(1, 2)


def _data_with_dice() -> GameData:
    data = small_data()
    table = replace(
        data.cards["slinger"],
        id="sling_table",
        name="Sling Table",
        roll_mod=None,
        value_roll=dict(enumerate((1, 2, 3, 5, 6, 7), 1)),
    )
    return replace(data, cards={**data.cards, table.id: table})


def test_EAW_8_8_odds_agree_with_the_real_battle_fought_many_times_seeded() -> None:
    data = _data_with_dice()
    red = ("slinger", "archer", "pike", "pike#2", "blade")
    blue = ("horse_a", "sling_table", "blade#2", "guard_b", "guard_a")
    exact = stack_odds(data, OPEN, (red, blue))
    runs = 2000
    dice = SeededDice()
    wins = routs = 0
    lost = {"red": 0, "blue": 0}
    for _ in range(runs):
        state = position(data, control={"GAL": "red", "RAE": "blue"}, hands={"red": red, "blue": blue})
        standing.store(state.players["blue"], StackOrder(tuple(i.split("#")[0] for i in blue)))
        game = Play(state, data, data.options, dice)
        outcome = fight(game, "red", "RAE", Attack("RAE", "GAL", tuple(i.split("#")[0] for i in red)), frozenset())
        wins += outcome.winner == "red"
        routs += outcome.rout_by_attacker
        for seat in lost:
            lost[seat] += len(outcome.lost[seat])
    assert 0.05 < float(exact.attacker_wins) < 0.95  # a case where chance matters
    assert abs(wins / runs - float(exact.attacker_wins)) < 0.035
    assert abs(routs / runs - float(exact.attacker_routs)) < 0.035
    assert abs(lost["red"] / runs - float(exact.cards_lost["attacker"])) < 0.06
    assert abs(lost["blue"] / runs - float(exact.cards_lost["defender"])) < 0.06


def test_EAW_12_6_an_unknown_stack_is_every_legal_stack_its_owner_could_form_equally_likely() -> None:
    data = small_data()
    assert candidate_stacks(data, ["pike", "archer", "rider"], OPEN, False) == [
        ("archer", "rider", "pike"),
        ("rider", "archer", "pike"),
    ]
    assert len(candidate_stacks(data, ["pike", "archer", "rider"], OPEN, True)) == 6  # a leader: free order
    assert candidate_stacks(data, ["pike", "pike#2", "archer"], OPEN, False) == [("archer", "pike", "pike#2")]
    forces = Forces(data, data.options, OPEN, Side(("blade",)), Side(("pike", "archer", "rider"), known=False))
    mixed = battle_odds(forces)
    one = stack_odds(data, OPEN, (["blade"], ["archer", "rider", "pike"]))
    other = stack_odds(data, OPEN, (["blade"], ["rider", "archer", "pike"]))
    assert mixed.cases == 2 and mixed.attacker_wins == (one.attacker_wins + other.attacker_wins) / 2


def test_EAW_12_8_odds_follow_the_owners_loss_order_when_the_owner_chooses() -> None:
    data = small_data(loss_selection="owner_chooses")
    plans = EmpiresOdds().read_standing(SimpleNamespace(data=data), "blue.txt", "LOSSES pike\n")
    # blade beats guard_b, pike ties pike: one marker on red's side, blue loses one of its two revealed cards
    forces = Forces(data, data.options, OPEN, Side(("blade", "pike")), Side(("guard_b", "pike")))
    chosen = battle_odds(forces, (None, plans))
    assert chosen.cards_lost["defender"] == 1 and chosen.absorbed["defender"] == 0
    default = battle_odds(forces)
    assert default.cards_lost["defender"] == 0 and default.absorbed["defender"] == 1  # EAW-12.8: empire first


def test_pbem_odds_reads_force_texts_standing_orders_and_prints_the_odds() -> None:
    data = small_data()
    ruleset = SimpleNamespace(data=data, options=data.options)
    computer = EmpiresOdds()
    forces = computer.read_forces(ruleset, "slinger", "Pike", naval=False)
    assert forces.kind == OPEN and forces.defender.cards == ("pike",)
    text = computer.battle_text(ruleset, forces, (None, None), None)
    assert "attacker wins 50.0%, defender wins 50.0%" in text and "attacker: 0.33 army cards lost" in text
    forces = computer.read_forces(ruleset, "pike, pike", "hand guard_a guard_b siege ambush general", naval=False)
    assert forces.kind == "siege" and not forces.defender.known and forces.defender.personalities == ("general",)
    plan = computer.read_standing(ruleset, "red.txt", "STACK SIEGE ATTACK: pike\nMARKERS PULL  # pull back\n")
    assert plan.markers == "pull" and plan.stacks_by_kind["siege.attack"] == ("pike",)
    assert "any legal stack from guard_a, guard_b" in computer.battle_text(ruleset, forces, (plan, None), None)


@pytest.mark.parametrize(
    ("attacker", "defender", "naval", "message"),
    [
        ("pike dragon", "pike", False, "--attacker: 'dragon' is no card"),
        ("pike", "galley siege", True, "a naval battle is no siege"),
        ("pike siege", "pike", False, "--attacker: 'siege' is no card"),
    ],
)
def test_pbem_odds_names_the_option_and_word_it_cannot_read(
    attacker: str, defender: str, naval: bool, message: str
) -> None:
    data = small_data()
    with pytest.raises(ValueError, match=message):
        EmpiresOdds().read_forces(SimpleNamespace(data=data, options=data.options), attacker, defender, naval)


def test_pbem_odds_standing_orders_name_the_file_and_line_they_cannot_read() -> None:
    data = small_data()
    odds = EmpiresOdds()
    with pytest.raises(ValueError, match=r"red.txt line 2: column 11: incomplete order"):
        odds.read_standing(SimpleNamespace(data=data), "red.txt", "MARKERS PUSH\nATTACK GAL\n")
    with pytest.raises(ValueError, match=r"red.txt line 2: 'CONTROL GAL' is no standing battle order \(EAW-12\)"):
        odds.read_standing(SimpleNamespace(data=data), "red.txt", "MARKERS PUSH\nCONTROL GAL\n")
    # the order language's other keyword languages read too
    plan = odds.read_standing(SimpleNamespace(data=data), "rot.txt", "MARKER ZIEHE\n")
    assert plan.markers == "pull"


def pbem_odds(*args: str) -> Result:
    return CliRunner().invoke(app, ["odds", "--ruleset", "empires-aw", *args])


def test_EAW_8_5_pbem_odds_on_the_example_data_hand_computed() -> None:
    # the example data's skirmishers are 1 + d6 (fast), the hill spearmen 4: as the slinger against the pike above
    result = pbem_odds("--attacker", "reed_skirmishers", "--defender", "Hill spearmen,")
    assert result.exit_code == 0, result.output
    assert "attacker wins 50.0%, defender wins 50.0% (EAW-8.7)" in result.output
    assert "attacker: 0.33 army cards lost on average" in result.output
    assert "defender: 0.50 army cards lost on average" in result.output


def test_EAW_8_1_pbem_odds_refuses_a_stack_the_battle_would_refuse_naming_the_rule() -> None:
    result = pbem_odds("--attacker", "hill_spearmen river_archers", "--defender", "hill_spearmen")
    assert result.exit_code != 0 and "--attacker: fast cards go above slow ones" in result.output
    assert "EAW-8.1" in result.output
    result = pbem_odds("--naval", "--attacker", "war_galleys iron_swordsmen oath_guard", "--defender", "war_galleys")
    assert result.exit_code != 0 and "at most one sword or spear card at sea (EAW-8.20)" in result.output


def test_pbem_odds_takes_the_games_data_and_standing_orders_files(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    shutil.copytree(Path(__file__).parent.parent / "games" / "empires-aw" / "example-data", folder)
    orders = tmp_path / "blue.txt"
    orders.write_text("STACK OPEN DEFEND: hill_spearmen, iron_swordsmen\n", encoding="utf-8")
    result = pbem_odds(
        "--game-data",
        str(folder),
        "--attacker",
        "oath_guard",
        "--defender",
        "hand iron_swordsmen hill_spearmen",
        "--defender-orders",
        str(orders),
    )
    assert result.exit_code == 0, result.output
    # the plan's stack: oath guard 6 beats the spearmen 4, the swordsmen 5 beat the empty position: 1-1, defender
    assert "defender wins 100.0%" in result.output and "pairs of stacks" not in result.output


def test_pbem_odds_asks_to_name_a_stack_when_too_many_pairs_of_stacks_could_be_formed() -> None:
    data = small_data()
    ruleset = SimpleNamespace(data=data, options=data.options)
    computer = EmpiresOdds()
    attacker = "hand general pike blade archer rider slinger catapult galley guard_a"  # 8 * 7 * 6 * 5 * 4 stacks
    forces = computer.read_forces(ruleset, attacker, "hand general guard_b horse_b camel pike", naval=False)
    with pytest.raises(ValueError, match="more than 50000 pairs of stacks: name one side's stack"):
        computer.battle_text(ruleset, forces, (None, None), None)
    forces = computer.read_forces(ruleset, attacker, "horse_b guard_b", naval=False)  # 6720 pairs: computed
    assert "6720 pairs of stacks" in computer.battle_text(ruleset, forces, (None, None), None)
