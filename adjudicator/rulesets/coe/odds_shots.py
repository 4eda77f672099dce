"""Battle odds (odds.py) of the 1984 edition: battles of alternating shots (O-6), on land and at sea."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from adjudicator.rulesets.coe.battle1984 import TIES
from adjudicator.rulesets.coe.odds_chain import Tally, number_type
from adjudicator.rulesets.coe.odds_forces import (
    Army,
    Comp,
    Prob,
)
from adjudicator.rulesets.coe.vocabulary import UNIT_KINDS

# -- 1984 shot battles (O-6) ---------------------------------------------------------------------------------------


def _hit_chance(needed: int, exact: bool) -> Prob:
    """One die reaching `needed` (O-6.7): automatic at 1 or less."""
    if needed <= 1:
        return Fraction(1) if exact else 1.0
    return number_type(exact)(max(0, 7 - needed), 6)


class _ShotSide:
    """One side of a 1984 battle: what it is, what the enemy shoots at in it, what a hit leaves."""

    def __init__(self, base: Mapping[str, int], targets: list[str] | None, exact: bool) -> None:
        self.base, self.targets, self.exact = base, targets, exact  # `targets`: the ENEMY's standing TARGETS
        self.cache: dict[tuple[Any, int], tuple[Prob, Any, bool]] = {}

    def strength(self, state: Any) -> int:
        raise NotImplementedError

    def size(self, state: Any) -> int:
        raise NotImplementedError

    def candidates(self, state: Any, advantage: int) -> list[tuple[tuple[Any, ...], str, Any, bool]]:
        """(rank, kind, state after the hit, battle over) of every target, in the O-14.4 default order."""
        raise NotImplementedError

    def shot_at(self, state: Any, advantage: int) -> tuple[Prob, Any, bool]:
        """(hit chance, state after a hit, whether the hit ends the battle) of the enemy's next shot."""
        key = (state, advantage)
        found = self.cache.get(key)
        if found is None:
            ranked = sorted(self.candidates(state, advantage), key=lambda c: c[0])
            chosen = ranked[0]
            for kind in self.targets or []:  # O-14.4, O-14.5: the standing TARGETS order, else the default
                matching = [c for c in ranked if c[1] == kind]
                if matching:
                    chosen = matching[0]
                    break
            found = self.cache[key] = (_hit_chance(chosen[0][0], self.exact), chosen[2], chosen[3])
        return found


class LandSide(_ShotSide):
    def __init__(
        self, army: Army, defending: bool, base: Mapping[str, int], targets: list[str] | None, exact: bool
    ) -> None:
        super().__init__(base, targets, exact)
        self.army, self.defending = army, defending

    def strength(self, state: Comp) -> int:
        """Catapults, +1 for the defender's fortified city (O-6.5)."""
        return state[2] + int(self.defending and self.army.fortified)

    def size(self, state: Comp) -> int:
        return sum(state)

    def candidates(self, state: Comp, advantage: int) -> list[tuple[tuple[Any, ...], str, Any, bool]]:
        found = []
        for index, kind in enumerate(UNIT_KINDS):
            if state[index]:
                after = tuple(n - (i == index) for i, n in enumerate(state))
                rank = (max(1, self.base[kind] - advantage), TIES.index(kind))
                found.append((rank, kind, after, sum(after) == 0))
        return found

    def land_borne(self, state: Comp) -> int:
        """Units that came by land: the defender's shots take them before those that came by sea (module
        docstring of battle1984), so min(by sea, left) of each kind came by sea."""
        return sum(n - min(s, n) for n, s in zip(state, self.army.by_sea, strict=True))


Galley = tuple[int, int, int] | None  # the combat units aboard, None once sunk


class FleetSide(_ShotSide):
    """Galleys numbered 1.. in the order given; each carries units and leaders (O-6.24)."""

    def __init__(self, cargo: Sequence[Army], base: Mapping[str, int], targets: list[str] | None, exact: bool) -> None:
        super().__init__(base, targets, exact)
        self.cargo = list(cargo)

    def strength(self, state: tuple[Galley, ...]) -> int:
        """Catapults aboard (O-6.5, O-6.23)."""
        return sum(g[2] for g in state if g is not None)

    def size(self, state: tuple[Galley, ...]) -> int:
        return sum(1 + sum(g) for g in state if g is not None)

    def candidates(self, state: tuple[Galley, ...], advantage: int) -> list[tuple[tuple[Any, ...], str, Any, bool]]:
        """Units aboard, or a galley that carries none (O-6.24); rank as Combat.rank at sea (O-14.4)."""
        found = []
        for number, galley in enumerate(state):
            if galley is None:
                continue
            army = self.cargo[number]
            tie = (-int(army.caesar), -army.generals, number + 1)
            if sum(galley):
                for index, kind in enumerate(UNIT_KINDS):
                    if galley[index]:
                        left = tuple(n - (i == index) for i, n in enumerate(galley))
                        after = state[:number] + (left,) + state[number + 1 :]
                        base = self.base["cavalry_at_sea" if kind == "cavalry" else kind]
                        found.append(((max(1, base - advantage), TIES.index(kind), *tie), kind, after, False))
            else:
                after = state[:number] + (None,) + state[number + 1 :]
                over = army.caesar or all(g is None for g in after)  # a sunk Caesar ends his side (O-7.5, O-7.6)
                found.append(
                    ((max(1, self.base["galley"] - advantage), TIES.index("galley"), *tie), "galley", after, over)
                )
        return found


def shot_battle(
    att: _ShotSide,
    dfn: _ShotSide,
    a0: Any,
    d0: Any,
    exact: bool,
    kinds: list[str],
    lost: tuple[Callable[[Any], Sequence[int]], Callable[[Any], Sequence[int]]],
    retreats: Callable[[Any, Any], bool],
    after_cycle: Mapping[tuple[Any, Any], Prob] | None = None,
) -> tuple[Tally, int]:
    """The O-6.8 cycle: the attacker shoots; unless that ends it, the defender shoots; unless that ends it, the
    attacker may retreat (land). Each cycle removes at most one unit of each side. after_cycle: the battle goes on
    after shots already fought, from these states with these chances (a side left with nothing has lost, O-6.14;
    else the attacker's retreat first, O-6.8 step 9), losses counted from (a0, d0)."""
    zero: Prob = Fraction(0) if exact else 0.0
    tally = Tally(zero, kinds, lost)
    start = (a0, d0) if after_cycle is None else None
    buckets: dict[int, dict[tuple[Any, Any], Prob]] = {}
    states = 0

    end = tally.end

    def arrive(a: Any, d: Any, p: Prob) -> None:
        bucket = buckets.setdefault(att.size(a) + dfn.size(d), {})
        bucket[(a, d)] = bucket.get((a, d), zero) + p

    for (a, d), p in (after_cycle or {(a0, d0): zero + 1}).items():
        if att.size(a) and dfn.size(d):
            arrive(a, d, p)
        else:
            end("attacker" if att.size(a) else "defender", p, a, d)
    while buckets:
        total = max(buckets)
        for (a, d), m in buckets.pop(total).items():
            states += 1
            initial = (a, d) == start
            if not initial and retreats(a, d):
                end("attacker_retreats", m, a, d)
                continue
            sa, sd = att.strength(a), dfn.strength(d)
            p_a, d_hit, a_wins = dfn.shot_at(d, max(0, sa - sd))  # O-6.6: the advantage before every shot
            p_d0, a_hit0, d_wins0 = att.shot_at(a, max(0, sd - sa))  # the defender's reply after a miss
            stay = (1 - p_a) * (1 - p_d0)
            if initial and retreats(a, d):
                end("attacker_retreats", m * stay, a, d)
                visits = m
            else:
                visits = m / (1 - stay)
            tally.rounds += visits
            if p_a:
                if a_wins:
                    end("attacker", visits * p_a, a, d_hit)
                else:
                    p_d, a_hit, d_wins = att.shot_at(a, max(0, dfn.strength(d_hit) - sa))
                    if p_d:
                        if d_wins:
                            end("defender", visits * p_a * p_d, a_hit, d_hit)
                        else:
                            arrive(a_hit, d_hit, visits * p_a * p_d)
                    if p_d != 1:
                        arrive(a, d_hit, visits * p_a * (1 - p_d))
            if p_d0 and p_a != 1:
                if d_wins0:
                    end("defender", visits * (1 - p_a) * p_d0, a_hit0, d)
                else:
                    arrive(a_hit0, d, visits * (1 - p_a) * p_d0)
    return tally, states
