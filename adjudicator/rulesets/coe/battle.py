"""Phase 2, land battles (C-6): battle legions, symbol dice, hits, continue or retreat, pursuit.

Dice order (the contract for dice files, C-6.12): in each round all the attacker's dice, then all the
defender's dice (fortress dice last); after a round in which a side retreats, the pursuer's dice.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from adjudicator.engine.vocabulary import N_
from adjudicator.rulesets.coe.capture import capture_leaders, conquer, destroy_galleys, others_with_units, remove_units
from adjudicator.rulesets.coe.decisions import (
    Pick,
    Point,
    bad_answer,
    check_choice,
    complete_choice,
    decide,
    parse_unit_choice,
    retreat_answer,
    show_choice,
    standing,
    standing_picks,
)
from adjudicator.rulesets.coe.state import Force
from adjudicator.rulesets.coe.turn import Turn
from adjudicator.rulesets.coe.vocabulary import UNIT_ABBREVIATIONS, UNIT_KINDS

if TYPE_CHECKING:
    pass

FACES = {1: "infantry", 2: "infantry", 3: "cavalry", 4: "catapult", 5: "galley", 6: "blank"}
Units = dict[str, int]


def units_of(force: Force) -> Units:
    return {k: getattr(force, k) for k in UNIT_KINDS}


def units_text(units: Units) -> str:
    return " ".join(f"{n} {UNIT_ABBREVIATIONS[k]}" for k, n in units.items() if n) or N_("none")


def legion_size(force: Force) -> int:
    """min(U, 5 + L): as large as possible, 5 plus one per leader present (C-6.5, C-16.28)."""
    return min(force.units, 5 + len(force.leaders))


def fill(units: Units, size: int, priority: Sequence[str | Pick]) -> Units:
    """Take `size` units from `units`, kinds in priority order; an entry (kind, n) takes at most n of its kind."""
    chosen = dict.fromkeys(UNIT_KINDS, 0)
    for entry in priority:
        kind, limit = (entry, None) if isinstance(entry, str) else entry
        take = min(units[kind] - chosen[kind], size - sum(chosen.values()))
        chosen[kind] += take if limit is None else min(take, limit)
    return chosen


def default_legion(units: Units, size: int) -> Units:
    """C-15.5 default: one cavalry if any, then infantry, then the other cavalry, then catapults."""
    first = min(units["cavalry"], 1, size)
    rest = fill({**units, "cavalry": units["cavalry"] - first}, size - first, ["infantry", "cavalry", "catapult"])
    return {**rest, "cavalry": rest["cavalry"] + first}


def matched_hits(faces: list[int], legion: Units, catapults: int) -> int:
    """Symbols count only when matched with own units (C-6.8): catapult faces with any own catapult."""
    rolled = Counter(FACES[f] for f in faces)
    return (
        min(rolled["infantry"], legion["infantry"])
        + min(rolled["cavalry"], legion["cavalry"])
        + min(rolled["catapult"], catapults)
    )


def choose_units(
    turn: Turn,
    seat: str,
    key: str,
    question: str,
    pool: Units,
    count: int,
    standing_kind: str,
    default_priority: list[str],
    rule: str,
    at: Callable[[], Point] | None = None,
) -> Units:
    """Which `count` of `pool` are lost: a priority of unit kinds, any of them with a count (C-6.9: "4 INF
    1 CAV"), by answer, standing order or default. `at`: the Point the question keeps, if asked (decide)."""
    if not has_choice(pool, count):
        return fill(pool, count, list(UNIT_KINDS))  # no choice to make
    preset = standing(turn, seat, standing_kind)

    def parse(text: str) -> list[Pick]:
        picks = parse_unit_choice(text)
        check_choice(
            picks, pool, count, N_("the retreating force") if standing_kind == "pursuit" else N_("your battle legion")
        )
        return complete_choice(picks)

    priority = decide(
        turn,
        seat,
        key,
        question,
        [(k, None) for k in default_priority],
        complete_choice(standing_picks(preset)) if preset else None,
        parse,
        rule,
        show_choice,
        at,
    )
    return fill(pool, count, priority)


def fortress_dice(fortified: bool, attacking_catapults: int) -> int:
    """2 extra defender dice for a fortified city he controls, 1 if the attacker has a catapult there (C-6.7)."""
    if not fortified:
        return 0
    return 1 if attacking_catapults else 2


def has_choice(pool: Units, count: int) -> bool:
    """Whether taking `count` of `pool` leaves a choice: some but not all, of two kinds or more (C-6.9)."""
    return 0 < count < sum(pool.values()) and sum(1 for n in pool.values() if n) > 1


class LandBattle:
    """One land battle in `code` between the active player (attacker) and the defender (C-6.1 to C-6.24)."""

    def __init__(self, turn: Turn, code: str, attacker: str, defender: str) -> None:
        self.turn, self.code, self.attacker, self.defender = turn, code, attacker, defender
        self.ruleset = turn.rules
        self.rule = self.ruleset.rule

    def force(self, seat: str) -> Force:
        return self.turn.state.area(self.code).units.get(seat) or Force()

    def roll(self, count: int, purpose: str) -> list[int]:
        return [self.turn.dice.roll(f"{self.code} {purpose}") for _ in range(count)]

    def fight(self) -> None:
        turn, code = self.turn, self.code
        turn.event(
            "battle",
            self.attacker,
            area=code,
            defender=self.defender,
            attacker_forces=units_text(units_of(self.force(self.attacker))),
            defender_forces=units_text(units_of(self.force(self.defender))),
            rule=self.rule("6.1"),
        )
        number = 0
        while True:
            number += 1
            attack, defence = self.force(self.attacker), self.force(self.defender)
            # Step 1 (C-6.5, C-6.6): the defender forms his battle legion first, then the attacker.
            d_legion = self.battle_legion(self.defender, defence, number)
            a_legion = self.battle_legion(self.attacker, attack, number)
            # Step 2 (C-6.7 to C-6.11).
            fortress = self.fortress_dice(attack)
            a_faces = self.roll(sum(a_legion.values()), f"round {number}: attacker")
            d_hits = min(matched_hits(a_faces, a_legion, attack.catapult), sum(d_legion.values()))
            d_losses = choose_units(
                turn,
                self.defender,
                f"battle.{code}.{number}.losses",
                N_("which units of your battle legion in %(area)s take %(hits)s hit(s)?", area=code, hits=d_hits),
                d_legion,
                d_hits,
                "losses",
                list(UNIT_KINDS),
                self.rule("15.6"),
                self.round_point(d_legion, d_hits),
            )
            d_faces = self.roll(sum(d_legion.values()) + fortress, f"round {number}: defender")
            a_hits = min(matched_hits(d_faces, d_legion, defence.catapult), sum(a_legion.values()))
            # the defender's losses, when he had no choice of legion or losses, are known to the attacker: his question
            # keeps them, for the odds of his answers (decision_odds.py)
            seen = not has_choice(units_of(defence), legion_size(defence)) and not has_choice(d_legion, d_hits)
            a_losses = choose_units(
                turn,
                self.attacker,
                f"battle.{code}.{number}.losses",
                N_("which units of your battle legion in %(area)s take %(hits)s hit(s)?", area=code, hits=a_hits),
                a_legion,
                a_hits,
                "losses",
                list(UNIT_KINDS),
                self.rule("15.6"),
                self.round_point(a_legion, a_hits, d_hits, d_losses if seen else None),
            )
            for seat, force, losses in ((self.defender, defence, d_losses), (self.attacker, attack, a_losses)):
                for kind, count in losses.items():
                    remove_units(turn.state, seat, force, kind, count)
            turn.event(
                "battle_round",
                self.attacker,
                area=code,
                round=number,
                defender=self.defender,
                attacker_legion=units_text(a_legion),
                defender_legion=units_text(d_legion),
                attacker_dice=a_faces,
                defender_dice=d_faces,
                fortress_dice=fortress,
                attacker_hits=d_hits,
                defender_hits=a_hits,
                defender_losses=units_text(d_losses),
                attacker_losses=units_text(a_losses),
            )
            # Step 3 (C-6.13): elimination ends the battle at once; else the defender, then the attacker.
            if not attack.units or not defence.units:
                self.end_by_elimination(attack.units > 0, defence.units > 0)
                return
            for seat, other in ((self.defender, self.attacker), (self.attacker, self.defender)):
                retreat, destination = self.continue_or_retreat(seat, other, number)
                if retreat:
                    self.retreat(seat, other, destination)
                    return

    def battle_legion(self, seat: str, force: Force, number: int) -> Units:
        units, size = units_of(force), legion_size(force)
        preset = standing(self.turn, seat, "battlelegion")
        default = default_legion(units, size)
        if not has_choice(units, size):
            return default  # every unit fights, or all are alike: no choice to make

        def parse(text: str) -> Units:  # a priority, or the legion itself: "6 INF 1 CAV" (C-6.5)
            picks = parse_unit_choice(text)
            check_choice(picks, units, size, N_("your force"))
            return fill(units, size, complete_choice(picks))

        return decide(
            self.turn,
            seat,
            f"battle.{self.code}.{number}.legion",
            N_("which %(count)s units form your battle legion in %(area)s?", count=size, area=self.code),
            default,
            fill(units, size, complete_choice(standing_picks(preset))) if preset else None,
            parse,
            self.rule("15.5"),
            units_text,
        )

    def round_point(
        self, legion: Units, hits: int, enemy_hits: int = 0, enemy_losses: Units | None = None
    ) -> Callable[[], Point]:
        """The Point a losses question keeps: the position, the asked seat's legion and its hits; the attacker's also
        the hits the defender took, and the defender's losses where the attacker saw them."""
        seen = dict(enemy_losses) if enemy_losses is not None else None
        state = self.turn.state
        return lambda: Point(state.copy(), legion=dict(legion), hits=hits, enemy_hits=enemy_hits, enemy_losses=seen)

    def fortress_dice(self, attack: Force) -> int:
        """The defender's fortress dice in this battle (C-6.7)."""
        area = self.turn.state.area(self.code)
        return fortress_dice(area.city == "fortified" and area.owner == self.defender, attack.catapult)

    def destinations(self, seat: str) -> list[str]:
        """Adjacent land provinces without other players' combat units, in C-15.8 default order (C-6.17)."""
        state, board = self.turn.state, self.ruleset.board
        eligible = [c for c in board.land_neighbours(self.code) if not others_with_units(state, c, seat)]
        return sorted(
            eligible,
            key=lambda c: (
                state.area(c).owner != seat,
                -state.area(c).units.get(seat, Force()).units,
                -board.value(c),
                c,
            ),
        )

    def continue_or_retreat(self, seat: str, enemy: str, number: int) -> tuple[bool, str | None]:
        """C-6.13, C-6.15, C-15.7, C-15.8: (retreat?, destination or None for C-6.20)."""
        own, foe = self.force(seat), self.force(enemy)
        eligible = self.destinations(seat)
        preset = standing_retreat(standing(self.turn, seat, "retreat"), self.code, own, foe, eligible)

        def parse(text: str) -> tuple[bool, str | None]:
            named = retreat_answer(text)
            if named is None:
                return False, None
            if not named:
                return True, eligible[0] if eligible else None
            if named[0] not in eligible:
                raise bad_answer(
                    N_(
                        "%(area)s is no retreat destination from %(origin)s: %(areas)s",
                        area=named[0],
                        origin=self.code,
                        areas=", ".join(eligible) or N_("none"),
                    )
                )
            return True, named[0]

        return decide(
            self.turn,
            seat,
            f"battle.{self.code}.{number}.retreat",
            N_(
                "continue the battle in %(area)s or retreat (to %(areas)s)?",
                area=self.code,
                areas=", ".join(eligible) or N_("nowhere"),
            ),
            (False, None),
            preset,
            parse,
            self.rule("15.7"),
            lambda v: (
                (N_("retreat to %(area)s", area=v[1]) if v[1] else N_("retreat to nowhere (C-6.20)"))
                if v[0]
                else N_("continue")
            ),
        )

    def retreat(self, seat: str, winner: str, destination: str | None) -> None:
        """C-6.15 to C-6.21: pursuit, then all survivors move together (or perish, C-6.20)."""
        turn, state, code = self.turn, self.turn.state, self.code
        force = self.force(seat)
        turn.event("retreat", seat, area=code, to=destination, rule=self.rule("6.17"))
        if destination is None:  # C-6.20: no eligible destination
            for kind in UNIT_KINDS:
                remove_units(state, seat, force, kind, getattr(force, kind))
            turn.event("retreat_failed", seat, area=code, rule=self.rule("6.20"))
            # C-6.23, C-6.24: the loser's galleys in the battle province are destroyed before his leaders are
            # captured (as in an end by elimination, C-6.14), so that a captured Caesar's galleys there are not
            # taken over by the winner (C-8.8).
            if seat == self.defender:
                destroy_galleys(
                    turn, code, [s for s in state.area(code).units if s != self.attacker], self.rule("6.23")
                )
            else:
                destroy_galleys(turn, code, [self.attacker], self.rule("6.24"))
            capture_leaders(turn, winner, code, seat, force.leaders, self.rule("6.20"), force=force)
        else:
            self.pursue(seat, winner)
            target = state.force(destination, seat)
            force.move_land_pieces_to(target)
            state.area(code).prune()
            # C-6.16, C-6.17: a pursuit may eliminate every retreating unit, leaving nothing to move; no empty
            # force may stay behind in the destination (the snapshot would then differ from its own reload).
            state.area(destination).prune()
            if target.units and state.area(destination).owner != seat:
                conquer(turn, seat, destination, self.rule("6.19"))
            elif target.units:  # C-8.3: other players' leaders alone there are captured by the units entering
                for other, lone in list(state.area(destination).units.items()):
                    if other != seat and lone.leaders and not lone.units:
                        capture_leaders(turn, seat, destination, other, lone.leaders, self.rule("8.3"))
        # C-6.21, C-6.24. A Caesar captured during the retreat (C-6.20, C-6.19, C-8.3) may have eliminated a
        # side: its captor now holds its pieces (C-8.8), and an eliminated player never conquers.
        if seat == self.defender:
            if self.holder(self.attacker) == self.attacker:  # else the defender took him over and keeps it
                conquer(turn, self.attacker, code, self.rule("6.21"))
        elif self.holder(self.defender) == self.defender:
            destroy_galleys(turn, code, [self.attacker], self.rule("6.24"))
        turn.event("battle_end", self.attacker, area=code, winner=winner, how="retreat")

    def holder(self, seat: str) -> str:
        """Who now plays `seat`'s pieces: the seat, or the captor who took it over (C-8.8)."""
        player = self.turn.state.players[seat]
        while player.eliminated and player.captor:
            seat = player.captor
            player = self.turn.state.players[seat]
        return seat

    def pursue(self, seat: str, winner: str) -> None:
        """C-6.16: one die per pursuing combat unit; matched cavalry faces eliminate retreating units."""
        pursuer, fleeing = self.force(winner), self.force(seat)
        if not pursuer.cavalry or not fleeing.units:
            return
        faces = self.roll(pursuer.units, "pursuit")
        hits = min(Counter(FACES[f] for f in faces)["cavalry"], pursuer.cavalry, fleeing.units)
        losses = choose_units(
            self.turn,
            winner,
            f"battle.{self.code}.pursuit",
            N_("which retreating units in %(area)s does your pursuit eliminate?", area=self.code),
            units_of(fleeing),
            hits,
            "pursuit",
            ["catapult", "cavalry", "infantry"],
            self.rule("15.9"),
        )
        for kind, count in losses.items():
            remove_units(self.turn.state, seat, fleeing, kind, count)
        self.turn.event(
            "pursuit", winner, area=self.code, dice=faces, hits=hits, losses=units_text(losses), rule=self.rule("6.16")
        )

    def end_by_elimination(self, attacker_left: bool, defender_left: bool) -> None:
        """C-6.14 (a) attacker conquers, (b) defender keeps, (c) both gone: the defender keeps it."""
        turn, code = self.turn, self.code
        if attacker_left:
            turn.event("battle_end", self.attacker, area=code, winner=self.attacker, how="elimination")
            conquer(turn, self.attacker, code, self.rule("6.14"))
            return
        turn.event("battle_end", self.attacker, area=code, winner=self.defender, how="elimination")
        destroy_galleys(turn, code, [self.attacker], self.rule("6.24"))
        leaders = self.force(self.attacker).leaders
        if leaders:
            capture_leaders(turn, self.defender, code, self.attacker, leaders, self.rule("6.14"))


def standing_retreat(
    rules: Sequence[dict[str, Any]] | None, code: str, own: Force, foe: Force, eligible: Sequence[str]
) -> tuple[bool, str | None] | None:
    """What a seat's standing RETREAT orders decide in the battle in `code` now (C-15.7): (retreat?, destination),
    the order for this province before one for any; None where none applies. `eligible`: the destinations in
    default order (C-6.17)."""
    for rule in sorted(rules or [], key=lambda r: r.get("from") is None):
        if rule.get("from") not in (None, code):
            continue
        if retreat_wanted(rule, own, foe):
            wished = [c for c in rule.get("to") or [] if c in eligible] or ([] if rule.get("to") else list(eligible))
            return (True, wished[0]) if wished else (False, None)  # never into C-6.20 by standing order
        return (False, None)
    return None


def retreat_wanted(rule: dict[str, object], own: Force, foe: Force) -> bool:
    """Whether a standing RETREAT rule's condition holds now (C-15.7)."""
    condition, threshold = rule.get("condition"), rule.get("threshold")
    if condition == "units_below":
        return own.units < int(threshold or 0)  # type: ignore[call-overload]
    if condition == "below_enemy":
        return own.units < foe.units
    if condition == "caesar_and_units_below":
        return bool(own.caesar) and own.units < int(threshold or 0)  # type: ignore[call-overload]
    return False
