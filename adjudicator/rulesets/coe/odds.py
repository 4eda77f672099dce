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

The parts: odds_forces.py reads the forces and standing orders, odds_chain.py counts dice and tallies the chain,
odds_classic.py and odds_shots.py evaluate the Classic and the 1984 battles; this module puts them together and
writes the text `pbem odds` prints.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from adjudicator.errors import PbemError
from adjudicator.rulesets.coe.battle import retreat_wanted
from adjudicator.rulesets.coe.naval import ROUNDS
from adjudicator.rulesets.coe.odds_chain import Odds
from adjudicator.rulesets.coe.odds_classic import ClassicSide, classic_land, classic_naval
from adjudicator.rulesets.coe.odds_forces import (
    Comp,
    Prob,
    as_force,
    describe,
    describe_fleet,
    is_1984,
    kind_priority,
    minus,
    read_army,
    read_fleet,
    retreat_areas,
    retreat_rule,
    rules_of,
    standing_from_orders,
)
from adjudicator.rulesets.coe.odds_shots import FleetSide, Galley, LandSide, shot_battle
from adjudicator.rulesets.coe.ruleset import CoeRuleset, coe_ruleset
from adjudicator.rulesets.coe.vocabulary import UNIT_ABBREVIATIONS, UNIT_KINDS

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
    after_round: Mapping[tuple[Comp, Comp], Prob] | None = None,
) -> Odds:
    """Exact odds of a land battle. attacker/defender: {"infantry", "cavalry", "catapult", "leaders" (Caesar and
    generals together), "caesar": bool, the defender's "fortified": bool (a fortified city he controls there),
    1984 attacker's "by_sea": {kind: count} (units that came by sea this turn, O-6.17)}. Standing orders: the
    Player.standing dict ("battlelegion", "losses", "pursuit", "retreat" (Classic) / "targets", "retreat" (1984)).
    area: the battle province, for RETREAT FROM <area> orders. *_can_retreat: whether the side has a retreat
    destination (Classic C-6.17: an adjacent land province without enemy combat units; 1984 O-6.16: an adjacent
    province the attacker controls). exact: Fractions instead of floats. after_round: the battle goes on after a
    round (Classic) or shots (1984) of it already fought, from the forces they left, (infantry, cavalry, catapults) of
    each side, with their chances; its losses are counted from the forces given, as they were before."""
    rules = rules_of(ruleset)
    att, dfn = read_army(attacker, "attacker"), read_army(defender, "defender")
    if not sum(att.comp) or not sum(dfn.comp):
        raise ValueError("a land battle needs combat units on both sides")
    att_standing, def_standing = attacker_standing or {}, defender_standing or {}
    if not is_1984(rules):
        a_side = ClassicSide(att, att_standing, area, attacker_can_retreat)
        d_side = ClassicSide(dfn, def_standing, area, defender_can_retreat)
        tally, states = classic_land(att, dfn, a_side, d_side, exact, after_round)
    else:
        base = rules.data["targets"]
        a_shot = LandSide(att, False, base, kind_priority(def_standing.get("targets")), exact)
        d_shot = LandSide(dfn, True, base, kind_priority(att_standing.get("targets")), exact)
        rule = retreat_rule(att_standing, area)
        all_by_sea = sum(att.by_sea) == sum(att.comp)

        def retreats(a: Comp, d: Comp) -> bool:
            """O-6.15 to O-6.17, O-14.6: the attacker's standing RETREAT condition, when a retreat is possible."""
            if rule is None or not attacker_can_retreat or all_by_sea or not a_shot.land_borne(a):
                return False
            if rule.get("condition") == "enemy_advantage_at_least":
                return max(0, d_shot.strength(d) - a_shot.strength(a)) >= int(rule.get("threshold") or 0)
            return retreat_wanted(rule, as_force(a, att.caesar), as_force(d, False))

        lost = (lambda a: minus(att.comp, a)), (lambda d: minus(dfn.comp, d))
        tally, states = shot_battle(
            a_shot, d_shot, att.comp, dfn.comp, exact, list(UNIT_KINDS), lost, retreats, after_round
        )
    return tally.odds(rules, "land", describe(attacker), describe(defender), states)


def naval_odds(
    ruleset: str | CoeRuleset,
    attacker_galleys: int | Sequence[Mapping[str, Any]],
    defender_galleys: int | Sequence[Mapping[str, Any]],
    attacker_standing: Mapping[str, Any] | None = None,
    defender_standing: Mapping[str, Any] | None = None,
    *,
    exact: bool = False,
    rounds: int = ROUNDS,
    after_round: Mapping[tuple[tuple[Galley, ...], tuple[Galley, ...]], Prob] | None = None,
) -> Odds:
    """Exact odds of a naval battle. Galleys: a number of empty galleys, or one dict per galley (numbered 1.. in
    that order) with what it carries: infantry, cavalry, catapult, generals, caesar. Classic: cargo only decides
    which galleys are lost first (C-15.10, standing "naval_losses") and what sinks with them; 1984: cargo fights
    and is shot first (O-6.24, standing "targets"). A sunk Caesar ends his side's battle (O-7.5, C-8.13). `rounds`
    (Classic): the rounds left to fight (C-7.5: three in all). `after_round` (1984): the battle goes on after shots
    already fought, from these fleets (each galley's units aboard, in the order given, None once sunk) with these
    chances, its losses counted from the galleys given."""
    rules = rules_of(ruleset)
    fleets = (read_fleet(attacker_galleys, "attacker"), read_fleet(defender_galleys, "defender"))
    if not fleets[0] or not fleets[1]:
        raise ValueError("a naval battle needs galleys on both sides")
    standings = (attacker_standing or {}, defender_standing or {})
    if not is_1984(rules):
        tally, states = classic_naval(fleets, standings, exact, rounds)
    else:
        base = rules.data["targets"]
        a_side = FleetSide(fleets[0], base, kind_priority(standings[1].get("targets")), exact)
        d_side = FleetSide(fleets[1], base, kind_priority(standings[0].get("targets")), exact)
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

        tally, states = shot_battle(
            a_side,
            d_side,
            a0,
            d0,
            exact,
            [*UNIT_KINDS, "galley"],
            (lost(a0), lost(d0)),
            lambda a, d: False,
            after_round,
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
        f"Expected {'cycles' if is_1984(rules) else 'rounds'}  {float(odds.rounds):.2f}",
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
