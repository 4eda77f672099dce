"""Battle odds (odds.py), the arithmetic: dice counted by multinomial counts, and the tally of a battle's
Markov chain into outcome probabilities and expected losses (Odds)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import comb, factorial
from typing import Any

from adjudicator.rulesets.coe.odds_forces import (
    Prob,
)
from adjudicator.rulesets.coe.ruleset import CoeRuleset


@dataclass(frozen=True)
class Odds:
    """Outcome probabilities and expected losses of one battle (probabilities: attacker_wins + defender_holds +
    draw == 1; the other probabilities break these down).

    Land: attacker_wins = the defender is eliminated or retreats (the attacker conquers); defender_holds = the
    attacker is eliminated (both sides at once included, C-6.14 c) or retreats; draw = 0.
    Naval: attacker_wins = the defender has no galley left (or lost his Caesar) and the attacker has; defender_holds
    the reverse; draw = both fleets remain after the third Classic round, or both are sunk in the same round."""

    ruleset: str
    battle: str  # "land" | "naval"
    attacker: str  # the forces at the start, as text
    defender: str
    attacker_wins: Prob
    defender_holds: Prob
    draw: Prob
    attacker_retreats: Prob
    defender_retreats: Prob
    both_eliminated: Prob
    attacker_losses: dict[str, Prob]  # expected pieces lost, by kind (pursuit included; galleys at sea)
    defender_losses: dict[str, Prob]
    rounds: Prob  # expected number of rounds (Classic) or cycles of two shots (1984)
    states: int  # battle states evaluated

    @property
    def retreat(self) -> Prob:
        """Probability that a retreat ends the battle."""
        return self.attacker_retreats + self.defender_retreats


# -- arithmetic ----------------------------------------------------------------------------------------------------


def number_type(exact: bool) -> Callable[[int, int], Prob]:
    if exact:
        return Fraction
    return lambda a, b: a / b


@cache
def _faces(n: int) -> tuple[tuple[int, int, int, int], ...]:
    """(infantry, cavalry, catapult faces, number of ways out of 6**n) for every split of n symbol dice: faces 1, 2
    infantry, 3 cavalry, 4 catapult, 5 galley, 6 blank (C-6.8)."""
    fact = [factorial(i) for i in range(n + 1)]
    found = []
    for i in range(n + 1):
        for c in range(n - i + 1):
            head = fact[n] // (fact[i] * fact[c]) << i
            for k in range(n - i - c + 1):
                rest = n - i - c - k
                found.append((i, c, k, head // (fact[k] * fact[rest]) << rest))
    return tuple(found)


@cache
def symbol_hits(n: int, inf: int, cav: int, cat: int, exact: bool) -> tuple[Prob, ...]:
    """Distribution of the matched hits of n symbol dice (C-6.8): min(infantry faces, inf) + min(cavalry faces,
    cav) + min(catapult faces, cat)."""
    weights = [0] * (min(n, inf + cav + cat) + 1)
    for i, c, k, ways in _faces(n):
        weights[(i if i < inf else inf) + (c if c < cav else cav) + (k if k < cat else cat)] += ways
    number = number_type(exact)
    return tuple(number(w, 6**n) for w in weights)


@cache
def binomial(n: int, exact: bool) -> tuple[Prob, ...]:
    """Distribution of the number of one given face on n dice (1/6 each)."""
    number = number_type(exact)
    return tuple(number(comb(n, h) * 5 ** (n - h), 6**n) for h in range(n + 1))


def capped(dist: Sequence[Prob], cap: int) -> list[Prob]:
    """Hits beyond `cap` are lost."""
    if len(dist) <= cap + 1:
        return list(dist)
    return [*dist[:cap], sum(dist[cap:], dist[0] * 0)]


class Tally:
    """Terminal outcomes: the probability of each outcome and of each side's final state (its losses are worked
    out once per final state, at the end)."""

    def __init__(
        self,
        zero: Prob,
        kinds: Sequence[str],
        lost: tuple[Callable[[Any], Sequence[int]], Callable[[Any], Sequence[int]]],
    ) -> None:
        self.zero, self.kinds, self.lost = zero, list(kinds), lost
        self.outcome: dict[str, Prob] = {}
        self.finals: tuple[dict[Any, Prob], dict[Any, Prob]] = ({}, {})
        self.rounds = zero

    def end(self, outcome: str, p: Prob, a_final: Any, d_final: Any) -> None:
        zero = self.zero
        self.outcome[outcome] = self.outcome.get(outcome, zero) + p
        finals = self.finals
        finals[0][a_final] = finals[0].get(a_final, zero) + p
        finals[1][d_final] = finals[1].get(d_final, zero) + p

    def losses(self, side: int) -> dict[str, Prob]:
        expected = {k: self.zero for k in self.kinds}
        for final, p in self.finals[side].items():
            for kind, n in zip(self.kinds, self.lost[side](final), strict=True):
                if n:
                    expected[kind] += p * n
        return expected

    def odds(self, rules: CoeRuleset, battle: str, attacker: str, defender: str, states: int) -> Odds:
        get = self.outcome.get
        z = self.zero
        both = get("both", z)
        if battle == "land":
            wins = get("attacker", z) + get("defender_retreats", z)
            holds, draw = get("defender", z) + both + get("attacker_retreats", z), get("undecided", z)
        else:
            wins, holds, draw = get("attacker", z), get("defender", z), both + get("undecided", z)
        return Odds(
            rules.name,
            battle,
            attacker,
            defender,
            wins,
            holds,
            draw,
            get("attacker_retreats", z),
            get("defender_retreats", z),
            both,
            self.losses(0),
            self.losses(1),
            self.rounds,
            states,
        )
