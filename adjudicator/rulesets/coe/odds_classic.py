"""Battle odds (odds.py) of the Classic edition: the land battle round by round (C-6.4 to C-6.21) and the
naval battle of up to three rounds (C-7.3 to C-7.5)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from adjudicator.rulesets.coe.battle import default_legion, fill, fortress_dice, retreat_wanted
from adjudicator.rulesets.coe.decisions import Pick, complete_choice
from adjudicator.rulesets.coe.naval import CATEGORIES, ROUNDS
from adjudicator.rulesets.coe.odds_chain import Tally, binomial, capped, symbol_hits
from adjudicator.rulesets.coe.odds_forces import (
    PURSUIT_DEFAULT,
    Army,
    Comp,
    Prob,
    category,
    comp_of,
    minus,
    read_picks,
    retreat_rule,
    units_of,
)
from adjudicator.rulesets.coe.state import Force
from adjudicator.rulesets.coe.vocabulary import UNIT_KINDS

# -- Classic land battle (C-6) ---------------------------------------------------------------------------------


def _one_by_one(pool: Comp, priority: Sequence[str | Pick]) -> list[Comp]:
    """What fill(pool, h, priority) takes, for h = 0 .. all of the pool: units one by one in priority order (an
    entry with a count takes at most that many of its kind)."""
    taken = [0, 0, 0]
    found = [(0, 0, 0)]
    for entry in priority:
        kind, limit = (entry, None) if isinstance(entry, str) else entry
        index = UNIT_KINDS.index(kind)
        left = pool[index] - taken[index]
        for _ in range(left if limit is None else min(limit, left)):
            taken[index] += 1
            found.append((taken[0], taken[1], taken[2]))
    return found


@dataclass
class ClassicSide:
    """One side of a Classic land battle. Its compositions get numbers (ids); since a side's losses depend only on
    its own battle legion and the number of hits it takes (C-6.9, C-15.6), every composition it can reach is
    known before the battle is evaluated."""

    army: Army
    standing: Mapping[str, Any]
    area: str | None
    can_retreat: bool
    legion_priority: list[Pick] | None = None
    loss_priority: list[str | Pick] = field(default_factory=list)
    pursuit_priority: list[str | Pick] = field(default_factory=list)
    retreat: dict[str, Any] | None = None
    ids: dict[Comp, int] = field(default_factory=dict)
    comps: list[Comp] = field(default_factory=list)
    totals: list[int] = field(default_factory=list)
    infos: dict[int, tuple[Comp, int, list[int]]] = field(default_factory=dict)
    pursuits: dict[int, list[int]] = field(default_factory=dict)  # ids left after h pursuit hits
    pursuit_by: list[str | Pick] = field(default_factory=list)  # the enemy's PURSUIT priority

    def __post_init__(self) -> None:
        legion = read_picks(self.standing.get("battlelegion"))
        self.legion_priority = complete_choice(legion) if legion else None
        self.loss_priority = loss_priority(self.standing)
        pursuit = read_picks(self.standing.get("pursuit"))
        self.pursuit_priority = list(complete_choice(pursuit)) if pursuit else list(PURSUIT_DEFAULT)  # C-15.9
        self.retreat = retreat_rule(self.standing, self.area)

    def ident(self, comp: Comp) -> int:
        found = self.ids.get(comp)
        if found is None:
            found = self.ids[comp] = len(self.comps)
            self.comps.append(comp)
            self.totals.append(sum(comp))
        return found

    def info(self, ident: int) -> tuple[Comp, int, list[int]]:
        """The battle legion (C-6.5, C-15.5, as LandBattle.battle_legion), its size, and the id of what is left
        after h hits on it for h = 0..size, lost by the owner's priority (C-15.6, as choose_units)."""
        found = self.infos.get(ident)
        if found is None:
            comp = self.comps[ident]
            units, total = units_of(comp), sum(comp)
            size = min(total, 5 + self.army.leaders)
            if size == total or sum(1 for n in comp if n) == 1 or self.legion_priority is None:
                chosen = default_legion(units, size)
            else:
                chosen = fill(units, size, self.legion_priority)
            legion = comp_of(chosen)
            after = [self.ident(minus(comp, lost)) for lost in _one_by_one(legion, self.loss_priority)]
            found = self.infos[ident] = (legion, size, after)
        return found

    def reachable(self) -> list[tuple[Comp, int, list[int]]]:
        """info() of every composition this side can reach, by id."""
        queue = list(range(len(self.comps)))
        while queue:
            ident = queue.pop()
            known = len(self.comps)
            self.info(ident)
            queue += range(known, len(self.comps))
        return [self.infos[i] for i in range(len(self.comps))]

    def retreat_table(self, own_max: int, foe_max: int) -> list[list[bool]] | None:
        """Whether the standing RETREAT rule sends this side away (C-15.7), by own and enemy units (the only
        things the conditions read besides the Caesar); None: never (no rule, or no destination, C-15.8)."""
        if not self.can_retreat or self.retreat is None:
            return None
        return [
            [
                retreat_wanted(self.retreat, Force(caesar=int(self.army.caesar), infantry=own), Force(infantry=foe))
                for foe in range(foe_max + 1)
            ]
            for own in range(own_max + 1)
        ]

    def pursued(self, fleeing: int) -> list[int]:
        """C-6.16, C-15.9: the ids this side is left with after h = 0, 1, ... pursuit hits, by the pursuer's
        PURSUIT priority (set in `pursuit_by`)."""
        found = self.pursuits.get(fleeing)
        if found is None:
            comp = self.comps[fleeing]
            found = self.pursuits[fleeing] = [
                self.ident(minus(comp, lost)) for lost in _one_by_one(comp, self.pursuit_by)
            ]
        return found


def loss_priority(standing: Mapping[str, Any]) -> list[str | Pick]:
    """The order in which a side loses the units of its battle legion: its standing LOSSES, else the default INF,
    CAV, CAT (C-15.6, as choose_units)."""
    losses = read_picks(standing.get("losses"))
    return list(complete_choice(losses)) if losses else list(UNIT_KINDS)


def classic_land(
    attacker: Army,
    defender: Army,
    att: ClassicSide,
    dfn: ClassicSide,
    exact: bool,
    after_round: Mapping[tuple[Comp, Comp], Prob] | None = None,
) -> tuple[Tally, int]:
    """C-6.4 to C-6.21, round by round (see _LandChain); returns the tally and the number of states visited.
    after_round: the battle goes on after a round already fought, from these forces left with these chances (step 3
    first, C-6.13), its losses counted from the forces at the start."""
    chain = _LandChain(attacker, defender, att, dfn, exact, after_round)
    chain.run()
    return chain.tally(), chain.states


class _LandChain:
    """A Classic land battle as a Markov chain. A battle state is a pair of composition ids (ia, id), its
    probability kept in mass[id][ia] (a round's moves into one defender composition then update one list); states
    are visited in order of decreasing number of units. The mass starts in the state of the forces given, or, after
    a round already fought, spread over the states it left (none of them the battle's first)."""

    def __init__(
        self,
        attacker: Army,
        defender: Army,
        att: ClassicSide,
        dfn: ClassicSide,
        exact: bool,
        after_round: Mapping[tuple[Comp, Comp], Prob] | None = None,
    ) -> None:
        self.exact = exact
        self.zero: Prob = Fraction(0) if exact else 0.0
        self.a0, self.d0 = attacker.comp, defender.comp
        self.att, self.dfn = att, dfn
        att.pursuit_by, dfn.pursuit_by = dfn.pursuit_priority, att.pursuit_priority
        self.ia0, self.id0 = att.ident(self.a0), dfn.ident(self.d0)
        start = {(att.ident(a), dfn.ident(d)): p for (a, d), p in after_round.items()} if after_round else {}
        if start:
            self.ia0 = self.id0 = -1  # no state is the first round's
        self.a_info, self.d_info = att.reachable(), dfn.reachable()
        na, nd = len(self.a_info), len(self.d_info)
        self.a_by_total: dict[int, list[int]] = {}
        self.d_by_total: dict[int, list[int]] = {}
        for ident in range(na):
            self.a_by_total.setdefault(att.totals[ident], []).append(ident)
        for ident in range(nd):
            self.d_by_total.setdefault(dfn.totals[ident], []).append(ident)
        self.a_retreats = att.retreat_table(sum(self.a0), sum(self.d0))
        self.d_retreats = dfn.retreat_table(sum(self.d0), sum(self.a0))
        self.fortress = [fortress_dice(defender.fortified, c[2]) for c in att.comps[:na]]  # C-6.7
        self.mass: list[list[Prob]] = [[self.zero] * na for _ in range(nd)]  # by defender id, then attacker id
        for (ia, id_), p in (start or {(self.ia0, self.id0): 1}).items():
            self.mass[id_][ia] += p
        self.to_def_cache: dict[int, list[Prob]] = {}
        self.to_att_cache: dict[int, list[Prob]] = {}
        self.outcome: dict[str, Prob] = {}
        self.a_final: dict[int, Prob] = {}
        self.d_final: dict[int, Prob] = {}
        self.pursuit_dist: dict[tuple[int, int], list[tuple[int, Prob]]] = {}
        self.rounds: Prob = self.zero
        self.states = 0

    def run(self) -> None:
        """Push the probability mass through every state, the largest first."""
        a0, d0, mass = self.a0, self.d0, self.mass
        for total in range(sum(a0) + sum(d0), -1, -1):
            for ta, a_ids in self.a_by_total.items():
                td = total - ta
                d_ids = self.d_by_total.get(td)
                if not d_ids:
                    continue
                over = not ta or not td  # C-6.14
                leaves = self.leaves(ta, td)
                for ia in a_ids:
                    for id_ in d_ids:
                        m = mass[id_][ia]
                        if not m:
                            continue
                        self.states += 1
                        if over:
                            self.end("attacker" if ta else "defender" if td else "both", m, ia, id_)
                            continue
                        initial = ia == self.ia0 and id_ == self.id0
                        if leaves and not initial:
                            self.step3(ia, id_, m)
                            continue
                        self.fight(ia, id_, m, initial and leaves)

    def leaves(self, ta: int, td: int) -> bool:
        """Whether a standing RETREAT sends one side away with these numbers of units (C-15.7)."""
        d_retreats, a_retreats = self.d_retreats, self.a_retreats
        return (d_retreats is not None and d_retreats[td][ta]) or (a_retreats is not None and a_retreats[ta][td])

    def fight(self, ia: int, id_: int, m: Prob, then_step3: bool) -> None:
        """One round from the state (ia, id_) holding mass m (C-6.8 to C-6.12); a round that changes nothing is
        summed as a geometric series, unless step 3 follows round 1 (`then_step3`)."""
        (a_inf, a_cav, _), a_size, a_after = self.a_info[ia]
        (d_inf, d_cav, _), d_size, d_after = self.d_info[id_]
        to_def = self.to_defender(ia, a_size, a_inf, a_cav, d_size)
        to_att = self.to_attacker(id_, a_size, self.fortress[ia], d_inf, d_cav, d_size)
        stay = to_def[0] * to_att[0]
        if then_step3:  # round 1 changed nothing, then step 3
            self.step3(ia, id_, m * stay)
            visits = m
        else:
            visits = m / (1 - stay)
        self.rounds += visits
        moves = [(a_after[h], p) for h, p in enumerate(to_att) if p]
        hits_only = moves[1:] if to_att[0] else moves
        for h_d, p_d in enumerate(to_def):
            if p_d:
                column = self.mass[d_after[h_d]]
                pv = visits * p_d
                for a_next, p in moves if h_d else hits_only:
                    column[a_next] += pv * p

    def to_defender(self, ia: int, a_size: int, a_inf: int, a_cav: int, d_size: int) -> list[Prob]:
        """The hits the attacker scores, capped at the defender's legion; catapults in reserve score too (C-6.8)."""
        key = ia * 64 + d_size
        found = self.to_def_cache.get(key)
        if found is None:
            a_cat = self.att.comps[ia][2]
            found = self.to_def_cache[key] = capped(
                symbol_hits(a_size, a_inf, a_cav, min(a_cat, a_size), self.exact), d_size
            )
        return found

    def to_attacker(self, id_: int, a_size: int, fort: int, d_inf: int, d_cav: int, d_size: int) -> list[Prob]:
        """The hits the defender scores, a fortified city's dice added (C-6.7), capped at the attacker's legion."""
        key = (id_ * 64 + a_size) * 4 + fort
        found = self.to_att_cache.get(key)
        if found is None:
            n = d_size + fort
            d_cat = self.dfn.comps[id_][2]
            found = self.to_att_cache[key] = capped(symbol_hits(n, d_inf, d_cav, min(d_cat, n), self.exact), a_size)
        return found

    def end(self, kind: str, p: Prob, ia: int, id_: int) -> None:
        """The battle ends in (ia, id_) with probability p (C-6.14)."""
        zero = self.zero
        self.outcome[kind] = self.outcome.get(kind, zero) + p
        self.a_final[ia] = self.a_final.get(ia, zero) + p
        self.d_final[id_] = self.d_final.get(id_, zero) + p

    def step3(self, ia: int, id_: int, p: Prob) -> bool:
        """C-6.13: the defender declares first, then the attacker."""
        ta, td = self.att.totals[ia], self.dfn.totals[id_]
        if self.d_retreats is not None and self.d_retreats[td][ta]:
            self.retreat("defender_retreats", p, ia, id_, self.att.comps[ia], self.dfn, (self.a_final, self.d_final))
            return True
        if self.a_retreats is not None and self.a_retreats[ta][td]:
            self.retreat("attacker_retreats", p, id_, ia, self.dfn.comps[id_], self.att, (self.d_final, self.a_final))
            return True
        return False

    def retreat(
        self,
        kind: str,
        p: Prob,
        stays: int,
        flees: int,
        pursuer: Comp,
        side: ClassicSide,
        finals: tuple[dict[int, Prob], dict[int, Prob]],
    ) -> None:
        """The fleeing side is pursued (C-6.16): one die per pursuing unit, matched cavalry faces hit."""
        zero = self.zero
        self.outcome[kind] = self.outcome.get(kind, zero) + p
        finals[0][stays] = finals[0].get(stays, zero) + p
        key = (sum(pursuer), min(pursuer[1], side.totals[flees]))  # hits up to his cavalry and the fleeing units
        dist = self.pursuit_dist.get(key)
        if dist is None:
            dist = self.pursuit_dist[key] = [
                (h, q) for h, q in enumerate(capped(binomial(key[0], self.exact), key[1])) if q
            ]
        left = side.pursued(flees) if pursuer[1] else [flees]
        for h, q in dist:
            finals[1][left[h]] = finals[1].get(left[h], zero) + p * q

    def tally(self) -> Tally:
        a0, d0 = self.a0, self.d0
        tally = Tally(self.zero, UNIT_KINDS, (lambda c: minus(a0, c), lambda c: minus(d0, c)))
        tally.outcome, tally.rounds = self.outcome, self.rounds
        tally.finals[0].update((self.att.comps[i], p) for i, p in self.a_final.items())
        tally.finals[1].update((self.dfn.comps[i], p) for i, p in self.d_final.items())
        return tally


# -- Classic naval battle (C-7) -------------------------------------------------------------------------------


def classic_naval(
    fleets: tuple[list[Army], list[Army]],
    standings: tuple[Mapping[str, Any], Mapping[str, Any]],
    exact: bool,
    rounds: int = ROUNDS,
) -> tuple[Tally, int]:
    """C-7.3 to C-7.5: up to 3 rounds (`rounds`: those left of a battle already fought); 2 dice per galley, each
    galley face sinks one galley, chosen by its owner (C-15.10). The order in which a side loses its galleys is
    fixed, so a state is the number each has lost."""
    zero: Prob = Fraction(0) if exact else 0.0
    orders = []
    for fleet, standing in zip(fleets, standings, strict=True):
        preset = [str(v).casefold() for v in standing.get("naval_losses") or []]
        priority = list(dict.fromkeys([*preset, *CATEGORIES]))
        order = sorted(
            range(len(fleet)), key=lambda g, f=fleet, p=priority: (p.index(category(f[g])), sum(f[g].comp), g)
        )
        orders.append([fleet[g] for g in order])
    sizes = [len(f) for f in fleets]
    lost = [
        [[*(sum(g.comp[i] for g in order[:sunk]) for i in range(3)), sunk] for sunk in range(len(order) + 1)]
        for order in orders
    ]  # what a side has lost with its first `sunk` galleys
    tally = Tally(zero, [*UNIT_KINDS, "galley"], (lost[0].__getitem__, lost[1].__getitem__))
    caesar = [next((n for n, g in enumerate(order, 1) if g.caesar), len(order) + 1) for order in orders]
    ends: dict[tuple[str, int, int], Prob] = {}
    layer: dict[tuple[int, int], Prob] = {(0, 0): zero + 1}
    states = 0
    for number in range(1, rounds + 1):
        following: dict[tuple[int, int], Prob] = {}
        for (sa, sd), m in layer.items():
            states += 1
            tally.rounds += m
            ga, gd = sizes[0] - sa, sizes[1] - sd
            to_def = capped(binomial(2 * ga, exact), gd)
            to_att = capped(binomial(2 * gd, exact), ga)
            for h_d, p_d in enumerate(to_def):
                for h_a, p_a in enumerate(to_att):
                    p = m * p_d * p_a
                    if not p:
                        continue
                    key = (sa + h_a, sd + h_d)
                    a_gone, d_gone = key[0] == sizes[0], key[1] == sizes[1]
                    if a_gone and d_gone:
                        outcome = "both"
                    elif key[0] >= caesar[0]:  # C-8.13: the attacker's losses come first; his Caesar ends him
                        outcome = "defender"
                    elif key[1] >= caesar[1]:  # the captor takes over the rest (C-8.8)
                        outcome = "attacker"
                    elif a_gone or d_gone:
                        outcome = "defender" if a_gone else "attacker"
                    elif number == rounds:
                        outcome = "undecided"
                    else:
                        following[key] = following.get(key, zero) + p
                        continue
                    end = (outcome, *key)
                    ends[end] = ends.get(end, zero) + p
        layer = following
    for (outcome, sa, sd), p in ends.items():
        tally.end(outcome, p, sa, sd)
    return tally, states
