"""Exact battle odds (`pbem odds`): the outcome probabilities and expected losses of one land or naval battle of
either edition, for given forces and standing orders, computed without sampling.

A battle is a Markov chain over battle states (the units of both sides; at sea the galleys and what they carry).
Every step removes units or changes nothing, so the states are visited once each in order of decreasing size:
the probability mass entering a state is pushed forward through one round (Classic) or one cycle of two shots
(1984), a round that changes nothing being summed as a geometric series. Dice are enumerated by multinomial
counts. With exact=True every number is a Fraction; otherwise floats (the same arithmetic, rounded).

Every decision follows the engine's rules for a player who gives no answer: his standing order of the kind
(the same dict shape as Player.standing: "battlelegion", "losses", "pursuit", "retreat", "targets",
"naval_losses"), else the default (C-15.5 to C-15.10, O-14.4 to O-14.7). The functions that decide are the
engine's own where they can be shared (battle legion, priorities, retreat conditions).

What the position does not say is an option: whether a side has a retreat destination (can_retreat), the area
(for RETREAT FROM <area> orders), which attacking units came by sea (1984, O-6.17). A RETREAT ... TO <list> is
assumed to find one of its provinces open.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from math import comb, factorial
from typing import Any

from adjudicator.errors import PbemError
from adjudicator.rulesets.coe.battle import default_legion, fill, retreat_wanted
from adjudicator.rulesets.coe.battle1984 import TIES
from adjudicator.rulesets.coe.decisions import UNIT_WORDS, Pick, complete_choice, record_standing_order
from adjudicator.rulesets.coe.naval import CATEGORIES, ROUNDS
from adjudicator.rulesets.coe.orders import Order
from adjudicator.rulesets.coe.ruleset import CoeRuleset, coe_ruleset
from adjudicator.rulesets.coe.state import Force
from adjudicator.rulesets.coe.vocabulary import UNIT_ABBREVIATIONS, UNIT_KINDS

Prob = Fraction | float
Comp = tuple[int, int, int]  # infantry, cavalry, catapult
PURSUIT_DEFAULT = ["catapult", "cavalry", "infantry"]  # C-15.9
KIND_WORDS = {**UNIT_WORDS, "gal": "galley", "galley": "galley", "galleys": "galley"}


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


# -- input ------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Army:
    infantry: int = 0
    cavalry: int = 0
    catapult: int = 0
    leaders: int = 0
    caesar: bool = False
    generals: int = 0
    fortified: bool = False
    by_sea: Comp = (0, 0, 0)

    @property
    def comp(self) -> Comp:
        return self.infantry, self.cavalry, self.catapult


def _army(pieces: Mapping[str, Any] | None, what: str) -> _Army:
    """A force from a dict: infantry, cavalry, catapult (or inf, cav, cat), leaders (Caesar and generals
    together; or generals + caesar), caesar (bool), fortified (defender), by_sea (1984 attacker: units per kind
    that came by sea this turn)."""
    pieces = dict(pieces or {})
    counts = {kind: 0 for kind in UNIT_KINDS}
    extra: dict[str, Any] = {}
    for key, value in pieces.items():
        word = key.casefold()
        if word in UNIT_WORDS:
            counts[UNIT_WORDS[word]] += int(value)
        elif word in ("leaders", "generals", "caesar", "fortified"):
            extra[word] = value
        elif word == "by_sea":
            extra["by_sea"] = value
        else:
            raise ValueError(
                f"{what}: unknown key {key!r} (infantry, cavalry, catapult, leaders, generals, caesar, "
                "fortified, by_sea)"
            )
    if any(n < 0 for n in counts.values()):
        raise ValueError(f"{what}: negative unit count")
    caesar = bool(extra.get("caesar", False))
    leaders = int(extra["leaders"]) if "leaders" in extra else int(extra.get("generals", 0)) + caesar
    leaders = max(leaders, int(caesar))
    generals = int(extra["generals"]) if "generals" in extra else leaders - caesar
    if leaders < 0 or generals < 0:
        raise ValueError(f"{what}: negative leader count")
    sea = {UNIT_WORDS[k.casefold()]: int(v) for k, v in dict(extra.get("by_sea") or {}).items()}
    by_sea = tuple(min(sea.get(kind, 0), counts[kind]) for kind in UNIT_KINDS)
    return _Army(
        counts["infantry"],
        counts["cavalry"],
        counts["catapult"],
        leaders,
        caesar,
        generals,
        bool(extra.get("fortified", False)),
        by_sea,
    )  # type: ignore[arg-type]


def _ruleset(ruleset: str | CoeRuleset) -> CoeRuleset:
    return coe_ruleset(ruleset) if isinstance(ruleset, str) else ruleset


def _is_1984(rules: CoeRuleset) -> bool:
    return rules.edition("combat") == "target_number"


def _priority(values: Iterable[str] | None) -> list[str] | None:
    """A standing priority of unit kinds (long or short words), or None when none was given."""
    if not values:
        return None
    return [KIND_WORDS.get(str(v).casefold(), str(v).casefold()) for v in values]


def _picks(values: Iterable[Any] | None) -> list[Pick] | None:
    """A standing LOSSES, BATTLELEGION or PURSUIT priority as picks (an entry with a count is kept as {"kind",
    "count"} in Player.standing, C-6.9), or None when none was given."""
    if not values:
        return None

    def kind(word: Any) -> str:
        return KIND_WORDS.get(str(word).casefold(), str(word).casefold())

    return [(kind(v["kind"]), int(v["count"])) if isinstance(v, dict) else (kind(v), None) for v in values]


def _retreat_rule(standing: Mapping[str, Any], area: str | None) -> dict[str, Any] | None:
    """The RETREAT rule the engine applies: one FROM this area first, else the general one (C-15.7)."""
    for rule in sorted(standing.get("retreat") or [], key=lambda r: r.get("from") is None):
        if rule.get("from") in (None, area):
            return dict(rule)
    return None


def _force(comp: Comp, caesar: bool) -> Force:
    return Force(caesar=int(caesar), infantry=comp[0], cavalry=comp[1], catapult=comp[2])


def _units(comp: Comp) -> dict[str, int]:
    return dict(zip(UNIT_KINDS, comp, strict=True))


def _comp(units: Mapping[str, int]) -> Comp:
    return units["infantry"], units["cavalry"], units["catapult"]


def _minus(a: Comp, b: Comp) -> Comp:
    return a[0] - b[0], a[1] - b[1], a[2] - b[2]


def describe(pieces: Mapping[str, Any] | None) -> str:
    """'10 INF 5 CAV 2 CAT, 2 leaders (Caesar), fortified city' for a force dict."""
    return _describe(_army(pieces, "force"))


def _describe(army: _Army) -> str:
    text = " ".join(f"{n} {UNIT_ABBREVIATIONS[k]}" for k, n in zip(UNIT_KINDS, army.comp, strict=True) if n)
    text = text or "no units"
    if army.leaders:
        text += f", {army.leaders} leader{'s' if army.leaders > 1 else ''}" + (" (Caesar)" if army.caesar else "")
    if army.fortified:
        text += ", fortified city"
    if any(army.by_sea):
        text += ", by sea: " + " ".join(
            f"{n} {UNIT_ABBREVIATIONS[k]}" for k, n in zip(UNIT_KINDS, army.by_sea, strict=True) if n
        )
    return text


def retreat_areas(standing: Mapping[str, Any]) -> set[str]:
    """The areas that RETREAT FROM <area> orders of a standing dict name."""
    return {rule["from"] for rule in standing.get("retreat") or [] if rule.get("from")}


def standing_from_orders(orders: Iterable[Order]) -> dict[str, Any]:
    """Standing orders (parsed LOSSES, BATTLELEGION, PURSUIT, TARGETS, NAVAL LOSSES, RETREAT orders) as the dict
    Player.standing holds, the later order of a kind replacing the earlier one (as in a turn, C-15)."""
    standing: dict[str, Any] = {}
    for order in orders:
        record_standing_order(standing, order)
    return standing


# -- arithmetic ----------------------------------------------------------------------------------------------------


def _number(exact: bool) -> Callable[[int, int], Prob]:
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
def _symbol_hits(n: int, inf: int, cav: int, cat: int, exact: bool) -> tuple[Prob, ...]:
    """Distribution of the matched hits of n symbol dice (C-6.8): min(infantry faces, inf) + min(cavalry faces,
    cav) + min(catapult faces, cat)."""
    weights = [0] * (min(n, inf + cav + cat) + 1)
    for i, c, k, ways in _faces(n):
        weights[(i if i < inf else inf) + (c if c < cav else cav) + (k if k < cat else cat)] += ways
    number = _number(exact)
    return tuple(number(w, 6**n) for w in weights)


@cache
def _binomial(n: int, exact: bool) -> tuple[Prob, ...]:
    """Distribution of the number of one given face on n dice (1/6 each)."""
    number = _number(exact)
    return tuple(number(comb(n, h) * 5 ** (n - h), 6**n) for h in range(n + 1))


def _capped(dist: Sequence[Prob], cap: int) -> list[Prob]:
    """Hits beyond `cap` are lost."""
    if len(dist) <= cap + 1:
        return list(dist)
    return [*dist[:cap], sum(dist[cap:], dist[0] * 0)]


class _Tally:
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
class _ClassicSide:
    """One side of a Classic land battle. Its compositions get numbers (ids); since a side's losses depend only on
    its own battle legion and the number of hits it takes (C-6.9, C-15.6), every composition it can reach is
    known before the battle is evaluated."""

    army: _Army
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
        legion = _picks(self.standing.get("battlelegion"))
        self.legion_priority = complete_choice(legion) if legion else None
        losses = _picks(self.standing.get("losses"))
        self.loss_priority = list(complete_choice(losses)) if losses else list(UNIT_KINDS)  # C-15.6
        pursuit = _picks(self.standing.get("pursuit"))
        self.pursuit_priority = list(complete_choice(pursuit)) if pursuit else list(PURSUIT_DEFAULT)  # C-15.9
        self.retreat = _retreat_rule(self.standing, self.area)

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
            units, total = _units(comp), sum(comp)
            size = min(total, 5 + self.army.leaders)
            if size == total or sum(1 for n in comp if n) == 1 or self.legion_priority is None:
                chosen = default_legion(units, size)
            else:
                chosen = fill(units, size, self.legion_priority)
            legion = _comp(chosen)
            after = [self.ident(_minus(comp, lost)) for lost in _one_by_one(legion, self.loss_priority)]
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
                self.ident(_minus(comp, lost)) for lost in _one_by_one(comp, self.pursuit_by)
            ]
        return found


def _classic_land(
    attacker: _Army, defender: _Army, att: _ClassicSide, dfn: _ClassicSide, exact: bool
) -> tuple[_Tally, int]:
    """C-6.4 to C-6.21, round by round. A battle state is a pair of composition ids (ia, id), its probability
    kept in mass[id][ia] (a round's moves into one defender composition then update one list); states are visited
    in order of decreasing number of units."""
    zero: Prob = Fraction(0) if exact else 0.0
    one = zero + 1
    a0, d0 = attacker.comp, defender.comp
    att.pursuit_by, dfn.pursuit_by = dfn.pursuit_priority, att.pursuit_priority
    ia0, id0 = att.ident(a0), dfn.ident(d0)
    a_info, d_info = att.reachable(), dfn.reachable()
    na, nd = len(a_info), len(d_info)
    a_comps, d_comps, a_totals, d_totals = att.comps, dfn.comps, att.totals, dfn.totals
    a_by_total: dict[int, list[int]] = {}
    d_by_total: dict[int, list[int]] = {}
    for ident in range(na):
        a_by_total.setdefault(a_totals[ident], []).append(ident)
    for ident in range(nd):
        d_by_total.setdefault(d_totals[ident], []).append(ident)
    a_retreats = att.retreat_table(sum(a0), sum(d0))
    d_retreats = dfn.retreat_table(sum(d0), sum(a0))
    fortress = [(1 if c[2] else 2) if defender.fortified else 0 for c in a_comps[:na]]  # C-6.7
    mass: list[list[Prob]] = [[zero] * na for _ in range(nd)]  # by defender id, then attacker id
    mass[id0][ia0] = one
    to_def_cache: dict[int, list[Prob]] = {}
    to_att_cache: dict[int, list[Prob]] = {}
    outcome: dict[str, Prob] = {}
    a_final: dict[int, Prob] = {}
    d_final: dict[int, Prob] = {}
    pursuit_dist: dict[tuple[int, int], list[tuple[int, Prob]]] = {}
    rounds, states = zero, 0

    def end(kind: str, p: Prob, ia: int, id_: int) -> None:
        outcome[kind] = outcome.get(kind, zero) + p
        a_final[ia] = a_final.get(ia, zero) + p
        d_final[id_] = d_final.get(id_, zero) + p

    def retreat(
        kind: str,
        p: Prob,
        stays: int,
        flees: int,
        pursuer: Comp,
        side: _ClassicSide,
        finals: tuple[dict[int, Prob], dict[int, Prob]],
    ) -> None:
        """The fleeing side is pursued (C-6.16): one die per pursuing unit, matched cavalry faces hit."""
        outcome[kind] = outcome.get(kind, zero) + p
        finals[0][stays] = finals[0].get(stays, zero) + p
        key = (sum(pursuer), min(pursuer[1], side.totals[flees]))  # hits up to his cavalry and the fleeing units
        dist = pursuit_dist.get(key)
        if dist is None:
            dist = pursuit_dist[key] = [(h, q) for h, q in enumerate(_capped(_binomial(key[0], exact), key[1])) if q]
        left = side.pursued(flees) if pursuer[1] else [flees]
        for h, q in dist:
            finals[1][left[h]] = finals[1].get(left[h], zero) + p * q

    def step3(ia: int, id_: int, p: Prob) -> bool:
        """C-6.13: the defender declares first, then the attacker."""
        ta, td = a_totals[ia], d_totals[id_]
        if d_retreats is not None and d_retreats[td][ta]:
            retreat("defender_retreats", p, ia, id_, a_comps[ia], dfn, (a_final, d_final))
            return True
        if a_retreats is not None and a_retreats[ta][td]:
            retreat("attacker_retreats", p, id_, ia, d_comps[id_], att, (d_final, a_final))
            return True
        return False

    for total in range(sum(a0) + sum(d0), -1, -1):
        for ta, a_ids in a_by_total.items():
            td = total - ta
            d_ids = d_by_total.get(td)
            if not d_ids:
                continue
            over = not ta or not td  # C-6.14
            leaves = (d_retreats is not None and d_retreats[td][ta]) or (a_retreats is not None and a_retreats[ta][td])
            for ia in a_ids:
                (a_inf, a_cav, _), a_size, a_after = a_info[ia]
                a_cat = a_comps[ia][2]
                fort = fortress[ia]
                for id_ in d_ids:
                    m = mass[id_][ia]
                    if not m:
                        continue
                    states += 1
                    if over:
                        end("attacker" if ta else "defender" if td else "both", m, ia, id_)
                        continue
                    initial = ia == ia0 and id_ == id0
                    if leaves and not initial:
                        step3(ia, id_, m)
                        continue
                    (d_inf, d_cav, _), d_size, d_after = d_info[id_]
                    to_def = to_def_cache.get(ia * 64 + d_size)
                    if to_def is None:  # C-6.8: catapults in reserve score too
                        to_def = to_def_cache[ia * 64 + d_size] = _capped(
                            _symbol_hits(a_size, a_inf, a_cav, min(a_cat, a_size), exact), d_size
                        )
                    key = (id_ * 64 + a_size) * 4 + fort
                    to_att = to_att_cache.get(key)
                    if to_att is None:
                        n = d_size + fort
                        to_att = to_att_cache[key] = _capped(
                            _symbol_hits(n, d_inf, d_cav, min(d_comps[id_][2], n), exact), a_size
                        )
                    stay = to_def[0] * to_att[0]
                    if initial and leaves:  # round 1 changed nothing, then step 3
                        step3(ia, id_, m * stay)
                        visits = m
                    else:
                        visits = m / (1 - stay)
                    rounds += visits
                    moves = [(a_after[h], p) for h, p in enumerate(to_att) if p]
                    hits_only = moves[1:] if to_att[0] else moves
                    for h_d, p_d in enumerate(to_def):
                        if p_d:
                            column = mass[d_after[h_d]]
                            pv = visits * p_d
                            for a_next, p in moves if h_d else hits_only:
                                column[a_next] += pv * p
    tally = _Tally(zero, UNIT_KINDS, (lambda c: _minus(a0, c), lambda c: _minus(d0, c)))
    tally.outcome, tally.rounds = outcome, rounds
    tally.finals[0].update((a_comps[i], p) for i, p in a_final.items())
    tally.finals[1].update((d_comps[i], p) for i, p in d_final.items())
    return tally, states


# -- 1984 shot battles (O-6) ---------------------------------------------------------------------------------------


def _hit_chance(needed: int, exact: bool) -> Prob:
    """One die reaching `needed` (O-6.7): automatic at 1 or less."""
    if needed <= 1:
        return Fraction(1) if exact else 1.0
    return _number(exact)(max(0, 7 - needed), 6)


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


class _LandSide(_ShotSide):
    def __init__(
        self, army: _Army, defending: bool, base: Mapping[str, int], targets: list[str] | None, exact: bool
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


class _FleetSide(_ShotSide):
    """Galleys numbered 1.. in the order given; each carries units and leaders (O-6.24)."""

    def __init__(self, cargo: Sequence[_Army], base: Mapping[str, int], targets: list[str] | None, exact: bool) -> None:
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


def _shot_battle(
    att: _ShotSide,
    dfn: _ShotSide,
    a0: Any,
    d0: Any,
    exact: bool,
    kinds: list[str],
    lost: tuple[Callable[[Any], Sequence[int]], Callable[[Any], Sequence[int]]],
    retreats: Callable[[Any, Any], bool],
) -> tuple[_Tally, int]:
    """The O-6.8 cycle: the attacker shoots; unless that ends it, the defender shoots; unless that ends it, the
    attacker may retreat (land). Each cycle removes at most one unit of each side."""
    zero: Prob = Fraction(0) if exact else 0.0
    tally = _Tally(zero, kinds, lost)
    start = (a0, d0)
    buckets: dict[int, dict[tuple[Any, Any], Prob]] = {att.size(a0) + dfn.size(d0): {start: zero + 1}}
    states = 0

    end = tally.end

    def arrive(a: Any, d: Any, p: Prob) -> None:
        bucket = buckets.setdefault(att.size(a) + dfn.size(d), {})
        bucket[(a, d)] = bucket.get((a, d), zero) + p

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


# -- public API ------------------------------------------------------------------------------------------------


def land_odds(
    ruleset: str | CoeRuleset,
    attacker: Mapping[str, Any],
    defender: Mapping[str, Any],
    attacker_standing: Mapping[str, Any] | None = None,
    defender_standing: Mapping[str, Any] | None = None,
    *,
    area: str | None = None,
    attacker_can_retreat: bool = True,
    defender_can_retreat: bool = True,
    exact: bool = False,
) -> Odds:
    """Exact odds of a land battle. attacker/defender: {"infantry", "cavalry", "catapult", "leaders" (Caesar and
    generals together), "caesar": bool, the defender's "fortified": bool (a fortified city he controls there),
    1984 attacker's "by_sea": {kind: count} (units that came by sea this turn, O-6.17)}. Standing orders: the
    Player.standing dict ("battlelegion", "losses", "pursuit", "retreat" (Classic) / "targets", "retreat" (1984)).
    area: the battle province, for RETREAT FROM <area> orders. *_can_retreat: whether the side has a retreat
    destination (Classic C-6.17: an adjacent land province without enemy combat units; 1984 O-6.16: an adjacent
    province the attacker controls). exact: Fractions instead of floats."""
    rules = _ruleset(ruleset)
    att, dfn = _army(attacker, "attacker"), _army(defender, "defender")
    if not sum(att.comp) or not sum(dfn.comp):
        raise ValueError("a land battle needs combat units on both sides")
    att_standing, def_standing = attacker_standing or {}, defender_standing or {}
    if not _is_1984(rules):
        a_side = _ClassicSide(att, att_standing, area, attacker_can_retreat)
        d_side = _ClassicSide(dfn, def_standing, area, defender_can_retreat)
        tally, states = _classic_land(att, dfn, a_side, d_side, exact)
    else:
        base = rules.data["targets"]
        a_shot = _LandSide(att, False, base, _priority(def_standing.get("targets")), exact)
        d_shot = _LandSide(dfn, True, base, _priority(att_standing.get("targets")), exact)
        rule = _retreat_rule(att_standing, area)
        all_by_sea = sum(att.by_sea) == sum(att.comp)

        def retreats(a: Comp, d: Comp) -> bool:
            """O-6.15 to O-6.17, O-14.6: the attacker's standing RETREAT condition, when a retreat is possible."""
            if rule is None or not attacker_can_retreat or all_by_sea or not a_shot.land_borne(a):
                return False
            if rule.get("condition") == "enemy_advantage_at_least":
                return max(0, d_shot.strength(d) - a_shot.strength(a)) >= int(rule.get("threshold") or 0)
            return retreat_wanted(rule, _force(a, att.caesar), _force(d, False))

        lost = (lambda a: _minus(att.comp, a)), (lambda d: _minus(dfn.comp, d))
        tally, states = _shot_battle(a_shot, d_shot, att.comp, dfn.comp, exact, list(UNIT_KINDS), lost, retreats)
    return tally.odds(rules, "land", describe(attacker), describe(defender), states)


def _fleet(galleys: int | Sequence[Mapping[str, Any]], what: str) -> list[_Army]:
    if isinstance(galleys, int):
        if galleys < 0:
            raise ValueError(f"{what}: negative galley count")
        return [_Army() for _ in range(galleys)]
    return [_army(cargo, f"{what} galley {n}") for n, cargo in enumerate(galleys, 1)]


def describe_fleet(galleys: int | Sequence[Mapping[str, Any]]) -> str:
    fleet = _fleet(galleys, "fleet")
    loaded = [f"galley {n}: {_describe(g)}" for n, g in enumerate(fleet, 1) if sum(g.comp) or g.leaders]
    text = f"{len(fleet)} galle{'ys' if len(fleet) != 1 else 'y'}"
    return text + (f" ({'; '.join(loaded)})" if loaded else "")


def _category(army: _Army) -> str:
    """C-15.10 categories, as naval.category."""
    if not (sum(army.comp) or army.leaders):
        return "empty"
    if army.caesar:
        return "caesar"
    return "generals" if army.leaders else "loaded"


def _classic_naval(
    fleets: tuple[list[_Army], list[_Army]], standings: tuple[Mapping[str, Any], Mapping[str, Any]], exact: bool
) -> tuple[_Tally, int]:
    """C-7.3 to C-7.5: up to 3 rounds; 2 dice per galley, each galley face sinks one galley, chosen by its owner
    (C-15.10). The order in which a side loses its galleys is fixed, so a state is the number each has lost."""
    zero: Prob = Fraction(0) if exact else 0.0
    orders = []
    for fleet, standing in zip(fleets, standings, strict=True):
        preset = [str(v).casefold() for v in standing.get("naval_losses") or []]
        priority = list(dict.fromkeys([*preset, *CATEGORIES]))
        order = sorted(
            range(len(fleet)), key=lambda g, f=fleet, p=priority: (p.index(_category(f[g])), sum(f[g].comp), g)
        )
        orders.append([fleet[g] for g in order])
    sizes = [len(f) for f in fleets]
    lost = [
        [[*(sum(g.comp[i] for g in order[:sunk]) for i in range(3)), sunk] for sunk in range(len(order) + 1)]
        for order in orders
    ]  # what a side has lost with its first `sunk` galleys
    tally = _Tally(zero, [*UNIT_KINDS, "galley"], (lost[0].__getitem__, lost[1].__getitem__))
    caesar = [next((n for n, g in enumerate(order, 1) if g.caesar), len(order) + 1) for order in orders]
    ends: dict[tuple[str, int, int], Prob] = {}
    layer: dict[tuple[int, int], Prob] = {(0, 0): zero + 1}
    states = 0
    for number in range(1, ROUNDS + 1):
        following: dict[tuple[int, int], Prob] = {}
        for (sa, sd), m in layer.items():
            states += 1
            tally.rounds += m
            ga, gd = sizes[0] - sa, sizes[1] - sd
            to_def = _capped(_binomial(2 * ga, exact), gd)
            to_att = _capped(_binomial(2 * gd, exact), ga)
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
                    elif number == ROUNDS:
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


def naval_odds(
    ruleset: str | CoeRuleset,
    attacker_galleys: int | Sequence[Mapping[str, Any]],
    defender_galleys: int | Sequence[Mapping[str, Any]],
    attacker_standing: Mapping[str, Any] | None = None,
    defender_standing: Mapping[str, Any] | None = None,
    *,
    exact: bool = False,
) -> Odds:
    """Exact odds of a naval battle. Galleys: a number of empty galleys, or one dict per galley (numbered 1.. in
    that order) with what it carries: infantry, cavalry, catapult, generals, caesar. Classic: cargo only decides
    which galleys are lost first (C-15.10, standing "naval_losses") and what sinks with them; 1984: cargo fights
    and is shot first (O-6.24, standing "targets"). A sunk Caesar ends his side's battle (O-7.5, C-8.13)."""
    rules = _ruleset(ruleset)
    fleets = (_fleet(attacker_galleys, "attacker"), _fleet(defender_galleys, "defender"))
    if not fleets[0] or not fleets[1]:
        raise ValueError("a naval battle needs galleys on both sides")
    standings = (attacker_standing or {}, defender_standing or {})
    if not _is_1984(rules):
        tally, states = _classic_naval(fleets, standings, exact)
    else:
        base = rules.data["targets"]
        a_side = _FleetSide(fleets[0], base, _priority(standings[1].get("targets")), exact)
        d_side = _FleetSide(fleets[1], base, _priority(standings[0].get("targets")), exact)
        a0 = tuple(g.comp for g in fleets[0])
        d0 = tuple(g.comp for g in fleets[1])

        def lost(start: tuple[Galley, ...]) -> Callable[[tuple[Galley, ...]], list[int]]:
            def counts(now: tuple[Galley, ...]) -> list[int]:
                found = [0, 0, 0, 0]
                for before, after in zip(start, now, strict=True):
                    left = after or (0, 0, 0)
                    for i in range(3):
                        found[i] += before[i] - left[i]
                    found[3] += after is None
                return found

            return counts

        tally, states = _shot_battle(
            a_side, d_side, a0, d0, exact, [*UNIT_KINDS, "galley"], (lost(a0), lost(d0)), lambda a, d: False
        )
    return tally.odds(rules, "naval", describe_fleet(attacker_galleys), describe_fleet(defender_galleys), states)


# -- text ----------------------------------------------------------------------------------------------------------


def _pct(p: Prob) -> str:
    return "<0.1%" if 0 < p < 0.0005 else f"{100 * float(p):.1f}%"


def _losses(losses: Mapping[str, Prob]) -> str:
    units = {k: float(v) for k, v in losses.items() if k != "galley"}
    text = f"{sum(units.values()):.2f} units"
    parts = [f"{UNIT_ABBREVIATIONS[k]} {v:.2f}" for k, v in units.items() if v]
    text += f" ({', '.join(parts)})" if parts else ""
    return (f"{float(losses['galley']):.2f} galleys, " if "galley" in losses else "") + text


def _breakdown(parts: Iterable[tuple[str, Prob]]) -> str:
    shown = [f"{label} {_pct(p)}" for label, p in parts if p]
    return f"  ({', '.join(shown)})" if shown else ""


def odds_text(odds: Odds) -> str:
    """The odds as a few lines of text for a player."""
    rules = coe_ruleset(odds.ruleset)
    lines = [
        f"{odds.battle.capitalize()} battle ({rules.title})",
        f"  attacker: {odds.attacker}",
        f"  defender: {odds.defender}",
    ]
    if odds.battle == "land":
        eliminated = odds.defender_holds - odds.attacker_retreats - odds.both_eliminated
        lines += [
            f"Attacker wins    {_pct(odds.attacker_wins):>6}"
            + _breakdown([("defender retreats", odds.defender_retreats)]),
            f"Defender holds   {_pct(odds.defender_holds):>6}"
            + _breakdown(
                [
                    ("attacker eliminated", eliminated),
                    ("both eliminated", odds.both_eliminated),
                    ("attacker retreats", odds.attacker_retreats),
                ]
            ),
        ]
        if odds.retreat:
            lines.append(f"Retreat ends it  {_pct(odds.retreat):>6}")
    else:
        lines += [
            f"Attacker wins    {_pct(odds.attacker_wins):>6}  (the defender's fleet is gone)",
            f"Defender holds   {_pct(odds.defender_holds):>6}  (the attacker's fleet is gone)",
        ]
        if odds.draw:
            lines.append(
                f"No winner        {_pct(odds.draw):>6}" + _breakdown([("both fleets sunk", odds.both_eliminated)])
            )
    lines += [
        f"Expected losses  attacker {_losses(odds.attacker_losses)}",
        f"                 defender {_losses(odds.defender_losses)}",
        f"Expected {'cycles' if _is_1984(rules) else 'rounds'}  {float(odds.rounds):.2f}",
    ]
    return "\n".join(lines)


# -- `pbem odds`: the Ruleset protocol's member `odds` ---------------------------------------------------------------

FORCE_WORDS = {
    "inf": "infantry",
    "infantry": "infantry",
    "cav": "cavalry",
    "cavalry": "cavalry",
    "cat": "catapult",
    "catapult": "catapult",
    "catapults": "catapult",
    "leader": "leaders",
    "leaders": "leaders",
    "galley": "galleys",
    "galleys": "galleys",
}
STANDING_HEADER = "GAME odds TURN 1 PLAYER Egyptus PASSWORD x\n"  # the parser reads an order set under a header


@dataclass(frozen=True)
class Forces:
    """The two sides of a battle as `pbem odds` gives them: the dicts land_odds takes, or galleys at sea."""

    attacker: dict[str, int | bool]
    defender: dict[str, int | bool]
    naval: bool


@dataclass(frozen=True)
class CoeOdds:
    """The odds as the Ruleset protocol's member `odds` (engine/protocol.py BattleOdds)."""

    def read_forces(self, ruleset: CoeRuleset, attacker: str, defender: str, naval: bool) -> Forces:
        return Forces(force_spec(attacker, "attacker", naval), force_spec(defender, "defender", naval), naval)

    def read_standing(self, ruleset: CoeRuleset, name: str, text: str) -> dict[str, Any]:
        """Standing orders (LOSSES, BATTLELEGION, PURSUIT, RETREAT, TARGETS, NAVAL LOSSES; C-15, O-14)."""
        from adjudicator.orders import parse_orders

        parsed = parse_orders(STANDING_HEADER + text, ruleset)
        for error in parsed.errors:
            raise PbemError(f"{name}: {error.located}")
        return standing_from_orders(parsed.orders)

    def battle_text(self, ruleset: CoeRuleset, forces: Forces, standing: tuple[Any, Any], area: str | None) -> str:
        a, d = forces.attacker, forces.defender
        if forces.naval:
            return odds_text(naval_odds(ruleset, int(a.get("galleys", 0)), int(d.get("galleys", 0)), *standing))
        return odds_text(land_odds(ruleset, a, d, *standing, area=battle_area(ruleset, area, list(standing))))


def force_spec(text: str, what: str, naval: bool) -> dict[str, int | bool]:
    """'10 INF 7 CAV 3 CAT 2 LEADERS FORTIFIED CAESAR' (or at sea '4 GALLEYS') -> the dict the odds take;
    anything else is refused with the form the option --`what` takes."""
    form = (
        "'4 GALLEYS' (a naval battle of empty galleys)"
        if naval
        else "e.g. '10 INF 7 CAV 3 CAT 2 LEADERS' (also CAESAR; the defender also FORTIFIED)"
    )
    force: dict[str, int | bool] = {}
    words = text.replace(",", " ").split()
    i = 0
    while i < len(words):
        word = words[i].casefold()
        if word in ("fortified", "caesar"):
            force[word] = True
            i += 1
        elif word.isdigit() and i + 1 < len(words) and words[i + 1].casefold() in FORCE_WORDS:
            force[FORCE_WORDS[words[i + 1].casefold()]] = int(word)
            i += 2
        else:
            bad = " ".join(words[i : i + 2]) if word.isdigit() else words[i]  # a count names what it counts
            raise PbemError(f"--{what} {text!r}: {bad!r} is not understood; write {form}")
    if "galleys" in force and not naval:
        raise PbemError(
            f"--{what} {text!r}: galleys fight at sea: add --naval for a naval battle ('4 GALLEYS' on both sides)"
        )
    if naval and set(force) - {"galleys"}:
        raise PbemError(
            f"--{what} {text!r}: with --naval write only {form}; units and leaders fight on land (without --naval)"
        )
    return force


def battle_area(ruleset: CoeRuleset, given: str | None, standings: list[Mapping[str, Any] | None]) -> str | None:
    """The battle province for RETREAT FROM <area> orders: the one given (--area), else the one area they name."""
    if given is not None:
        found = ruleset.board.lookup(given)
        if len(found) != 1:
            raise PbemError(f"--area {given!r}: {'ambiguous: ' + ', '.join(found) if found else 'no such area'}")
        return found[0]
    named = sorted(set().union(*(retreat_areas(s) for s in standings if s)))
    if len(named) > 1:
        raise PbemError(
            f"the standing orders say RETREAT FROM {' and '.join(named)}: name the battle province with --area"
        )
    return named[0] if named else None
