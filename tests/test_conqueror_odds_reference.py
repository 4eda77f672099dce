"""Exact battle odds for Conqueror played phase by phase (odds.py) against the plain enumeration kept here as the
reference: the whole battle (battle.resolve_battle) run again down every path of its dice, one run per branch
point. Both must give the same fractions and the same number of paths, on battles with volleys and their
re-rolls, forts, elites, cards, reinforcements, standing orders and the automa deck (ER-8, ER-9, ER-13.6)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any, TypeVar

import pytest

from adjudicator.engine.chance import Dice
from adjudicator.rulesets.conqueror.battle import resolve_battle
from adjudicator.rulesets.conqueror.battle_types import (
    ATTACKER,
    DEFENDER,
    Battle,
    BattleError,
    BattleOutcome,
    Plan,
    Reinforcement,
    Standing,
)
from adjudicator.rulesets.conqueror.data import Elite, Units
from adjudicator.rulesets.conqueror.odds import (
    BattleOdds,
    ConquerorOdds,
    automa_cases,
    battle_odds,
    hit_numbers,
    volley_classes,
)
from adjudicator.rulesets.conqueror.vocabulary import UPGRADES
from tests.test_conqueror_battle import CARDS, CHARIOT, COMPANIONS, FREE_MEN, IMMORTALS, army, battle, independent

T = TypeVar("T")
SIDES = (ATTACKER, DEFENDER)


class _Branch(Exception):
    def __init__(self, options: list[tuple[Any, int, int]]) -> None:
        super().__init__("branch")
        self.options = options


class _ReplayDice(Dice):
    """The values of a fixed path, then a _Branch at the first draw beyond it."""

    def __init__(self, path: Sequence[Any], thresholds: frozenset[int]) -> None:
        super().__init__()
        self.path, self.position, self.thresholds = path, 0, thresholds

    def roll_face(self, purpose: str, table: Sequence[T], *, hidden: bool = False) -> T:
        if self.position < len(self.path):
            self.position += 1
            return self.path[self.position - 1]  # type: ignore[no-any-return]
        counts = volley_classes(table, self.thresholds) if purpose.startswith("volley") else Counter(table)  # type: ignore[arg-type]
        raise _Branch([(value, n, len(table)) for value, n in counts.items()])

    def _next(self, purpose: str, faces: int, hidden: bool) -> int:
        raise BattleError(f"reference: the draw {purpose!r} is not a die of the battle")


def reference_outcomes(
    battle: Battle, plans: Mapping[str, Plan], orders: Mapping[str, Standing]
) -> Iterator[tuple[BattleOutcome, Fraction]]:
    thresholds = hit_numbers(battle)
    for deck_battle, deck_weight in automa_cases(battle):
        stack: list[tuple[tuple[Any, ...], Fraction]] = [((), deck_weight)]
        while stack:
            path, weight = stack.pop()
            try:
                outcome = resolve_battle(deck_battle, plans, orders, _ReplayDice(path, thresholds))
            except _Branch as branch:
                stack += [((*path, value), weight * Fraction(n, total)) for value, n, total in branch.options]
                continue
            if not outcome.finished:
                raise BattleError("ER-13.6: the odds need the moderator's ruling on the manual effects in play")
            yield outcome, weight


def reference_odds(
    battle: Battle, plans: Mapping[str, Plan], orders: Mapping[str, Standing] | None = None
) -> BattleOdds:
    wins: dict[str | None, Fraction] = {ATTACKER: Fraction(0), DEFENDER: Fraction(0), None: Fraction(0)}
    losses: dict[str, Fraction] = {}
    branches = 0
    for outcome, weight in reference_outcomes(battle, plans, orders or {}):
        branches += 1
        wins[outcome.winner] += weight
        for player, kinds in outcome.losses.items():
            losses[player] = losses.get(player, Fraction(0)) + weight * sum(kinds.values())
    return BattleOdds(wins[ATTACKER], wins[DEFENDER], wins[None], losses, branches)


def forces(attacker: str, defender: str) -> Battle:
    return ConquerorOdds().read_forces(None, attacker, defender, False).battle


HAND = ("wall", "aim")
CASES: dict[str, tuple[Battle, dict[str, Plan], dict[str, Standing]]] = {
    "10 v 8 with a large fort": (forces("4 CAV 4 INF 2 ARCHER", "4 INF 2 ARCHER 2 CAV LARGE FORT"), {}, {}),
    "archers with deadly and rapid aim, small fort": (
        forces("3 CAV 3 INF 2 ARCHER RAPID_AIM", "3 INF 2 ARCHER DEADLY_AIM DISCIPLINE SMALL FORT"),
        {},
        {},
    ),
    "aggression on a wide margin": (forces("6 CAV 1 ARCHER AGGRESSION", "2 INF 1 ARCHER"), {}, {}),
    "a volley that can wipe out the attacker": (forces("1 INF", "2 ARCHER DEADLY_AIM"), {}, {}),
    "the volley can wipe out the defender": (forces("2 ARCHER DEADLY_AIM 1 CAV", "1 INF"), {}, {}),
    "against an independent army over the automa deck": (
        forces("2 CAV 2 INF 1 ARCHER", "INDEPENDENT 2 INF 1 ARCHER"),
        {},
        {},
    ),
    "cards, elites and a reinforcement": (
        battle(
            army("a", "O", archer=2, infantry=3, cavalry=1, upgrades=frozenset({"rapid_aim"}), heroes={"gambler": 0}),
            army(
                "d", "X", archer=1, infantry=3, upgrades=frozenset({"deadly_aim", "discipline"}), hand=("wall", "aim")
            ),
            fort="small",
            reinforcements=(Reinforcement(army("c", "N", cavalry=1, archer=1), DEFENDER),),
        ),
        {"a": Plan(heroes=("gambler",), melee_reroll=True), "d": Plan(tactics=("wall", "aim"))},
        {"d": Standing(loss_priority=("cavalry", "infantry", "archer", "siege", "ship", "elite"))},
    ),
    "elites: free men, immortals, chariot": (
        battle(
            army("a", "O", infantry=3, archer=1, elite=IMMORTALS, heroes={"marksman": 0}, hand=("drill", "raid")),
            army("d", "X", infantry=2, cavalry=1, elite=FREE_MEN, hand=("charge",)),
            reinforcements=(Reinforcement(army("c", "N", cavalry=1, elite=CHARIOT), ATTACKER),),
        ),
        {"a": Plan(heroes=("marksman",), tactics=("drill", "raid")), "d": Plan(tactics=("charge",), free_men=True)},
        {},
    ),
    "automa deck with cards played": (
        replace(
            independent(Units(infantry=2, archer=1), automa_deck=("weak", "mid", "strong", "mid")),
            attacker=army("a", "O", cavalry=2, archer=1, heroes={"butcher": 0, "gambler": 1}, hand=("sap",)),
        ),
        {"a": Plan(heroes=("butcher", "gambler"), tactics=("sap",), melee_reroll=True)},
        {},
    ),
}


@pytest.mark.parametrize("name", list(CASES))
def test_ER_8_odds_by_phases_equal_the_branch_by_branch_enumeration(name: str) -> None:
    b, plans, orders = CASES[name]
    got, want = battle_odds(b, plans, orders), reference_odds(b, plans, orders)
    assert got == want
    assert got.attacker_wins + got.defender_wins + got.tie == 1


def test_ER_13_6_odds_by_phases_refuse_a_manual_effect_like_the_reference() -> None:
    b = battle(army("a", "O", infantry=1, heroes={"sage": 0}), army("d", "X", infantry=1))
    plans = {"a": Plan(heroes=("sage",))}
    for odds in (battle_odds, reference_odds):
        with pytest.raises(BattleError, match="ER-13.6"):
            odds(b, plans)


def random_battle(rng: random.Random) -> tuple[Battle, dict[str, Plan], dict[str, Standing]]:
    """A small battle drawn from `rng`: units, upgrades, forts, elites, cards in hand and played, an ally, an
    independent army over an automa deck, a standing loss priority."""

    def units() -> dict[str, int]:
        return {"cavalry": rng.randint(0, 3), "infantry": rng.randint(1, 3), "archer": rng.randint(0, 2)}

    def elite() -> Elite | None:
        return rng.choice([None, None, FREE_MEN, IMMORTALS, CHARIOT, COMPANIONS])

    def plan(heroes: list[str], tactics: list[str]) -> Plan:
        return Plan(tuple(heroes), tuple(tactics), free_men=rng.random() < 0.5, melee_reroll=rng.random() < 0.7)

    hero_ids = [h.id for h in CARDS.heroes if h.id != "sage"]  # sage waits for a ruling (ER-13.6)
    tactic_ids = [t.id for t in CARDS.tactics]
    a_heroes, a_tactics = rng.sample(hero_ids, rng.randint(0, 2)), rng.sample(tactic_ids, rng.randint(0, 2))
    attacker = army(
        "a",
        "O",
        **units(),
        elite=elite(),
        upgrades=frozenset(rng.sample(UPGRADES, rng.randint(0, 3))),
        heroes={h: rng.randint(0, 1) for h in a_heroes},
        hand=tuple(a_tactics),
    )
    ally = Reinforcement(army("c", "N", infantry=1, archer=rng.randint(0, 1), elite=elite()), rng.choice(SIDES))
    allies = (ally,) if rng.random() < 0.3 else ()
    plans = {"a": plan(a_heroes, a_tactics)}
    if rng.random() < 0.25:
        deck = tuple(rng.choices(["weak", "mid", "strong"], k=rng.randint(1, 4)))
        b = replace(
            independent(Units(**units()), automa_deck=deck),
            attacker=attacker,
            reinforcements=tuple(r for r in allies if r.side == ATTACKER),
        )
    else:
        d_heroes, d_tactics = rng.sample(hero_ids, rng.randint(0, 1)), rng.sample(tactic_ids, rng.randint(0, 2))
        defender = army(
            "d",
            "X",
            **units(),
            elite=elite(),
            upgrades=frozenset(rng.sample(UPGRADES, rng.randint(0, 3))),
            heroes=dict.fromkeys(d_heroes, 0),
            hand=tuple(d_tactics),
        )
        b = battle(attacker, defender, fort=rng.choice(["none", "small", "large"]), reinforcements=allies)
        plans["d"] = plan(d_heroes, d_tactics)
    kinds = ["cavalry", "infantry", "archer", "siege", "ship", "elite"]
    orders = {"d": Standing(loss_priority=tuple(rng.sample(kinds, 6)))} if rng.random() < 0.5 else {}
    return b, plans, orders


def test_ER_8_odds_by_phases_equal_the_reference_on_seeded_random_battles() -> None:
    rng = random.Random("conqueror odds reference")
    compared = 0
    while compared < 15:
        b, plans, orders = random_battle(rng)
        try:
            want = reference_odds(b, plans, orders)
        except BattleError as refused:  # a plan the rules refuse: refused alike, with the same rule
            with pytest.raises(BattleError) as also:
                battle_odds(b, plans, orders)
            assert str(also.value) == str(refused)
            continue
        assert battle_odds(b, plans, orders) == want
        compared += 1
