"""Phase 2 of the 1984 edition: single shots at named targets with target numbers and combat advantage
(O-6.1 to O-6.27; decisions O-14.4 to O-14.7; edge cases O-15.1 to O-15.12).

A battle is a sequence of cycles (O-6.8): the attacker names a target and shoots, then the defender, then
the attacker may retreat (land only). Every combat unit of both sides takes part (O-6.4); the advantage is
recalculated before every shot (O-6.6); a battle ends at once when a side has nothing left (O-6.14, O-15.2).

Dice order (the contract for dice files, O-6.13): one die per shot that needs a roll, in the order of the
shots: attacker, defender, attacker, defender, ... A shot whose target number is lowered to 1 or less hits
automatically and consumes no die (O-6.7, O-15.1). Battles follow each other in the order of combat_phase
(O-6.3). A die's purpose reads "<area> cycle <n>: attacker" or "<area> cycle <n>: defender".

Decision keys (answers, O-14): "battle.<area>.<cycle>.target" and "naval.<zone>.<cycle>.target" for the
target of the seat answering (attacker or defender: each answers for his own shot), answered by a unit kind
("cav"), at sea optionally with the galley number ("inf 2", "galley 3"), on land optionally with "sea" or
"land" for the attacker's units of one kind that came both ways; "battle.<area>.<cycle>.retreat" answered
CONTINUE or RETREAT [TO] <area>. A target decision is taken only when there is more than one target to
choose from, a retreat decision only when a retreat is possible (otherwise a "retreat_impossible" event says
why, once per battle and reason).

Retreat destinations (O-14.7): the default is the adjacent province he controls from which most attacking
units entered the battle province this turn (recorded by movement in turn.scratch["came_from"]), then the
one with most of his units, then the highest value, then the area code. A standing RETREAT ... TO list
restricts the destinations; when none of them is open the battle continues, as in the Classic edition
(C-15.7).

At sea each side shoots once per cycle as long as it has a galley in the zone (galleys fight at sea, O-0.4),
whether or not combat units are aboard; a side whose galleys are all gone has lost (O-6.26).

Resolution (O-6.17, which units came by sea): the attacker's units of one kind are interchangeable pieces,
but O-6.11 lets the shooter name the unit he shoots. A defender's target may therefore be a unit "that came
by land" or one "that came by sea" when the attacker has both of that kind; by default the defender aims at
a unit that came by land, because taking away the attacker's retreat (the rest of O-6.17, O-15.9) can never
harm the defender. The units that came by sea are those turn.scratch["by_sea"][area] counts (the movement
bookkeeping of movement.py); every other attacking unit (units that were already there included) counts as
having come by land.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from adjudicator.engine.vocabulary import N_
from adjudicator.rulesets.coe.battle import retreat_wanted, units_of, units_text
from adjudicator.rulesets.coe.capture import capture_leaders, conquer, destroy_galleys, others_with_units, remove_units
from adjudicator.rulesets.coe.decisions import UNIT_WORDS, Point, bad_answer, decide, retreat_answer, standing
from adjudicator.rulesets.coe.naval import sink
from adjudicator.rulesets.coe.state import Cargo, Force
from adjudicator.rulesets.coe.turn import Turn
from adjudicator.rulesets.coe.vocabulary import UNIT_KINDS, WORDS

if TYPE_CHECKING:
    pass

TIES = ("catapult", "cavalry", "galley", "infantry")  # O-14.4: equal target numbers
TARGET_WORDS = {**UNIT_WORDS, "gal": "galley", "galley": "galley", "galleys": "galley"}
CONTINUE = "continue"


def target_word(word: str) -> str | None:
    """The kind a target answer names (O-6.11): inf, cavalry, galley, or a keyword of any language (KAV, GALEA), as
    the reader's notice shows it."""
    from adjudicator.orders.keywords import keyword_of

    kind = TARGET_WORDS.get(word) or keyword_of(WORDS).get(word, "").lower()
    return kind if kind in TIES else None


@dataclass(frozen=True)
class Target:
    """What one shot aims at: a unit kind (at sea: aboard `galley`), or the empty galley `galley` itself."""

    kind: str  # "infantry" | "cavalry" | "catapult" | "galley"
    galley: int | None = None
    origin: str = ""  # the attacker's units of a kind that came both ways on land: "land" | "sea"

    def show(self) -> str:
        if self.kind == "galley":
            return N_("galley %(number)s", number=self.galley)
        text = (
            self.kind
            if self.galley is None
            else N_("%(kind)s aboard galley %(number)s", kind=self.kind, number=self.galley)
        )
        return N_("%(target)s (came by %(way)s)", target=text, way=self.origin) if self.origin else text


class Combat:
    """What land and naval battles share: strengths, targets, shots (O-6.5 to O-6.13, O-6.23, O-6.24)."""

    at_sea = False
    prefix = "battle"

    def __init__(self, turn: Turn, area: str, attacker: str, defender: str) -> None:
        self.turn, self.area, self.attacker, self.defender = turn, area, attacker, defender
        self.ruleset = turn.rules
        self.rule = self.ruleset.rule
        self.base: dict[str, int] = self.ruleset.data["targets"]

    def force(self, seat: str) -> Force:
        return self.turn.state.area(self.area).units.get(seat) or Force()

    def enemy(self, seat: str) -> str:
        return self.defender if seat == self.attacker else self.attacker

    # -- O-6.5, O-6.6: strength and advantage, from the units present now ------------------------------------

    def strength(self, seat: str) -> int:
        raise NotImplementedError

    def advantage(self, seat: str) -> int:
        return max(0, self.strength(seat) - self.strength(self.enemy(seat)))

    # -- O-6.7, O-6.24, O-14.4, O-14.5: targets -----------------------------------------------------------

    def targets(self, seat: str) -> list[Target]:
        """What `seat` may shoot at: the enemy's combat units (at sea also his galleys carrying none)."""
        raise NotImplementedError

    def base_number(self, target: Target) -> int:
        if target.kind == "cavalry" and self.at_sea:
            return self.base["cavalry_at_sea"]  # O-6.7, O-15.7
        return self.base[target.kind]

    def rank(self, target: Target, advantage: int, owner: str) -> tuple[int, ...]:
        """O-14.4 default order: lowest target number for this shot (automatic counts as 1), ties catapult,
        cavalry, galley, infantry; at sea the Caesar's galley, then most generals, then the lowest galley
        number; on land a unit that came by land before one that came by sea (module docstring)."""
        cargo = self.cargo(owner, target.galley)
        return (
            max(1, self.base_number(target) - advantage),
            TIES.index(target.kind),
            -cargo.caesar,
            -len(cargo.generals),
            target.galley or 0,
            target.origin == "sea",
        )

    def cargo(self, seat: str, galley: int | None) -> Cargo:
        if galley is None:
            return Cargo()
        return self.force(seat).aboard.get(galley) or Cargo()

    def ranked_targets(self, seat: str, advantage: int | None = None) -> list[Target]:
        """What `seat` may shoot at now, in the O-14.4 default order (the first is the default)."""
        advantage = self.advantage(seat) if advantage is None else advantage
        return sorted(self.targets(seat), key=lambda t: self.rank(t, advantage, self.enemy(seat)))

    def choose_target(self, seat: str, cycle: int, advantage: int) -> Target:
        """The shooter names his target (O-6.8 steps 2 and 6): answer, standing TARGETS order, default."""
        candidates = self.ranked_targets(seat, advantage)
        if len(candidates) == 1:
            return candidates[0]  # nothing to choose
        preset = None
        for kind in standing(self.turn, seat, "targets") or []:
            matching = [t for t in candidates if t.kind == kind]
            if matching:
                preset = matching[0]
                break

        def parse(text: str) -> Target:
            # also as Target.show writes it: "infantry aboard galley 2", "cavalry (came by sea)"
            words = text.replace(",", " ").replace("(", " ").replace(")", " ").casefold().split()
            kind = target_word(words[0]) if words else None
            if kind is None:
                raise bad_answer(N_("name one of: %(targets)s", targets=", ".join(t.show() for t in candidates)))
            numbers = [int(w) for w in words[1:] if w.isdigit()]
            origins = [w for w in words[1:] if w in ("land", "sea")]
            matching = [
                t
                for t in candidates
                if t.kind == kind
                and (not numbers or t.galley == numbers[0])
                and (not origins or t.origin in ("", origins[0]))
            ]
            if not matching:
                raise bad_answer(
                    N_(
                        "%(answer)s is no target now; name one of: %(targets)s",
                        answer=repr(text.strip()),
                        targets=", ".join(t.show() for t in candidates),
                    )
                )
            return matching[0]

        rule = "O-14.4" if seat == self.attacker else "O-14.5"
        return decide(
            self.turn,
            seat,
            f"{self.prefix}.{self.area}.{cycle}.target",
            N_(
                "what does your shot at %(seat)s in %(area)s aim at? (%(targets)s)",
                seat=self.enemy(seat),
                area=self.area,
                targets=", ".join(t.show() for t in candidates),
            ),
            candidates[0],
            preset,
            parse,
            rule,
            Target.show,
            self.point(),
        )

    def point(self) -> Callable[[], Point] | None:
        """What a target question keeps beside the position, for the odds of its answers (decision_odds.py)."""
        return None

    def copy(self) -> Combat:
        """The same battle on a copy of the position (what a shot does to it leaves this one as it is)."""
        return type(self)(
            Turn(self.ruleset, self.turn.state.copy(), self.attacker, (), self.turn.dice, {}),
            self.area,
            self.attacker,
            self.defender,
        )

    # -- O-6.8: one shot ----------------------------------------------------------------------------------

    def shoot(self, seat: str, cycle: int) -> None:
        role = "attacker" if seat == self.attacker else "defender"
        advantage = self.advantage(seat)  # O-6.6: recalculated before every shot
        target = self.choose_target(seat, cycle, advantage)
        needed = self.base_number(target) - advantage
        if needed <= 1:  # O-6.7, O-15.1: automatic, no die
            die: int | str = "automatic"
            hit = True
        else:
            die = self.turn.dice.roll(f"{self.area} cycle {cycle}: {role}")
            hit = die >= needed
        self.turn.event(
            "shot",
            seat,
            area=self.area,
            cycle=cycle,
            role=role,
            shooter=seat,
            target_owner=self.enemy(seat),
            target=target.kind,
            galley=target.galley,
            origin=target.origin,
            advantage=advantage,
            needed=needed,
            die=die,
            hit=hit,
            rule="O-6.24" if self.at_sea else "O-6.7",
        )
        if hit:  # O-6.9: a miss changes nothing; O-6.10: one unit at most
            self.remove(self.enemy(seat), target, seat)

    def remove(self, seat: str, target: Target, shooter: str) -> None:
        raise NotImplementedError


class LandBattle1984(Combat):
    """A land battle (O-6.1 to O-6.22): alternate shots, retreat of the attacker only, no pursuit."""

    def __init__(self, turn: Turn, code: str, attacker: str, defender: str) -> None:
        super().__init__(turn, code, attacker, defender)
        force = self.force(attacker)
        sea = self.came_by_sea()
        self.sea_borne = {k: min(sea.get(k, 0), getattr(force, k)) for k in UNIT_KINDS}
        self.all_by_sea = force.units > 0 and sum(self.sea_borne.values()) == force.units
        self.told: set[str] = set()

    def point(self) -> Callable[[], Point]:
        """The position and the attacking units that came by sea and are left (O-6.17)."""
        return lambda: Point(self.turn.state.copy(), dict(self.sea_borne))

    def copy(self) -> LandBattle1984:
        """As Combat.copy, the attacking units that came by sea and are left with it (O-6.17)."""
        turn = Turn(self.ruleset, self.turn.state.copy(), self.attacker, (), self.turn.dice, {})
        turn.scratch["by_sea"] = {self.area: dict(self.sea_borne)}
        return LandBattle1984(turn, self.area, self.attacker, self.defender)

    def came_by_sea(self) -> dict[str, int]:
        """The attacker's units that landed in the battle province from galleys this turn (O-6.17), as the
        movement phase counted them; without that bookkeeping every unit counts as having come by land."""
        return dict(self.turn.scratch.get("by_sea", {}).get(self.area, {}))

    def came_from(self) -> dict[str, int]:
        """Attacking units per adjacent province they entered the battle province from (O-14.7), as
        movement recorded them in turn.scratch["came_from"]."""
        neighbours = self.ruleset.board.land_neighbours(self.area)
        came = self.turn.scratch.get("came_from", {}).get(self.area, {})
        return {origin: count for origin, count in came.items() if origin in neighbours}

    def strength(self, seat: str) -> int:
        """Own catapults, +1 for the defender with a fortified city he controls here (O-6.5)."""
        area = self.turn.state.area(self.area)
        fortress = seat == self.defender and area.city == "fortified" and area.owner == self.defender
        return self.force(seat).catapult + int(fortress)

    def targets(self, seat: str) -> list[Target]:
        enemy = self.force(self.enemy(seat))
        found = []
        for kind in UNIT_KINDS:
            count = getattr(enemy, kind)
            if not count:
                continue
            sea = self.sea_borne[kind] if seat == self.defender else 0
            if 0 < sea < count:  # both ways: the shooter names which (O-6.11)
                found += [Target(kind, origin="land"), Target(kind, origin="sea")]
            else:
                found.append(Target(kind))
        return found

    def remove(self, seat: str, target: Target, shooter: str) -> None:
        force = self.force(seat)
        if seat == self.attacker:
            land = getattr(force, target.kind) - self.sea_borne[target.kind]
            if target.origin == "sea" or (not target.origin and land == 0):
                self.sea_borne[target.kind] -= 1
        remove_units(self.turn.state, seat, force, target.kind, 1)  # back to the supply (O-1.5)

    def land_borne(self) -> int:
        force = self.force(self.attacker)
        return sum(getattr(force, k) - self.sea_borne[k] for k in UNIT_KINDS)

    def fight(self) -> None:
        turn, code = self.turn, self.area
        if not self.force(self.attacker).units or not self.force(self.defender).units:
            return  # an earlier battle of this phase changed the position
        turn.event(
            "battle",
            self.attacker,
            area=code,
            defender=self.defender,
            attacker_forces=units_text(units_of(self.force(self.attacker))),
            defender_forces=units_text(units_of(self.force(self.defender))),
            attacker_strength=self.strength(self.attacker),
            defender_strength=self.strength(self.defender),
            rule=self.rule("6.1"),
        )
        cycle = 0
        while True:
            cycle += 1
            self.shoot(self.attacker, cycle)
            if not self.force(self.defender).units:  # O-6.8 step 4, O-15.2: no reply
                self.attacker_wins()
                return
            self.shoot(self.defender, cycle)
            if not self.force(self.attacker).units:  # O-6.8 step 8
                self.defender_wins()
                return
            destination = self.continue_or_retreat(cycle)  # O-6.8 step 9, O-6.15
            if destination != CONTINUE:
                self.retreat(destination)
                return

    # -- O-6.15 to O-6.17, O-14.6, O-14.7: retreat -------------------------------------------------------

    def destinations(self) -> list[str]:
        """Adjacent land provinces the attacker controls (O-6.16, O-15.10), in the O-14.7 default order:
        most attacking units came from there, then most of his units, then highest value, then area code."""
        state, board = self.turn.state, self.ruleset.board
        came = self.came_from()
        eligible = [
            c
            for c in board.land_neighbours(self.area)
            if state.area(c).owner == self.attacker and not others_with_units(state, c, self.attacker)
        ]
        return sorted(
            eligible,
            key=lambda c: (-came.get(c, 0), -state.area(c).units.get(self.attacker, Force()).units, -board.value(c), c),
        )

    def no_retreat(self, eligible: list[str]) -> tuple[str, str] | None:
        """Why the attacker cannot retreat now (rule, reason), or None."""
        if self.all_by_sea:
            return "O-6.17", N_("every attacking unit came by sea: the battle is fought to the end")
        if not self.land_borne():
            return "O-6.17", N_("every attacking unit that came by land is eliminated: no retreat any more")
        if not eligible:
            return "O-6.16", N_("no adjacent province of %(seat)s's to retreat into", seat=self.attacker)
        return None

    def continue_or_retreat(self, cycle: int) -> str:
        eligible = self.destinations()
        impossible = self.no_retreat(eligible)
        if impossible is not None:
            rule, reason = impossible
            if reason not in self.told:  # said once per battle, not after every shot
                self.told.add(reason)
                self.turn.event("retreat_impossible", self.attacker, area=self.area, reason=reason, rule=rule)
            return CONTINUE
        own, foe = self.force(self.attacker), self.force(self.defender)
        preset = None
        orders = standing(self.turn, self.attacker, "retreat") or []
        for order in sorted(orders, key=lambda r: r.get("from") is None):  # FROM this province first
            if order.get("from") not in (None, self.area):
                continue
            if order.get("condition") == "enemy_advantage_at_least":
                wanted = self.advantage(self.defender) >= int(order.get("threshold") or 0)
            else:
                wanted = retreat_wanted(order, own, foe)
            if wanted:  # a TO list restricts the destinations; none of them open: continue (as C-15.7)
                wished = [c for c in order.get("to") or [] if c in eligible] or ([] if order.get("to") else eligible)
                preset = wished[0] if wished else CONTINUE
            else:
                preset = CONTINUE
            break

        def parse(text: str) -> str:
            named = retreat_answer(text)
            if named is None:
                return CONTINUE
            if not named:
                return eligible[0]
            if named[0] not in eligible:
                raise bad_answer(
                    N_(
                        "%(area)s is no retreat destination from %(origin)s: %(areas)s",
                        area=named[0],
                        origin=self.area,
                        areas=", ".join(eligible),
                    )
                )
            return named[0]

        return decide(
            self.turn,
            self.attacker,
            f"battle.{self.area}.{cycle}.retreat",
            N_("continue the battle in %(area)s or retreat (to %(areas)s)?", area=self.area, areas=", ".join(eligible)),
            CONTINUE,
            preset,
            parse,
            "O-14.6",
            lambda v: v if v == CONTINUE else N_("retreat to %(area)s", area=v),
            at=lambda: replace(self.point()(), retreat_to=eligible[0]),
        )

    def retreat(self, destination: str) -> None:
        """O-6.16: all surviving units and leaders together into one province; O-6.18: galleys left on the
        coast destroyed; O-6.19: no pursuit; O-6.14 B: the defender keeps the province."""
        turn, state = self.turn, self.turn.state
        force, target = self.force(self.attacker), state.force(destination, self.attacker)
        turn.event("retreat", self.attacker, area=self.area, to=destination, rule=self.rule("6.17"))
        force.move_land_pieces_to(target)
        destroy_galleys(turn, self.area, [self.attacker], self.rule("6.24"))
        state.area(self.area).prune()
        for other, lone in list(state.area(destination).units.items()):  # O-7.1: lone leaders there
            if other != self.attacker and lone.leaders and not lone.units:
                capture_leaders(turn, self.attacker, destination, other, lone.leaders, self.rule("8.3"))
        turn.event("battle_end", self.attacker, area=self.area, winner=self.defender, how="retreat")

    # -- O-6.14 A and C ----------------------------------------------------------------------------------

    def attacker_wins(self) -> None:
        """O-6.14 C: the attacker conquers (O-6.22) and captures the defender's leaders there."""
        self.turn.event("battle_end", self.attacker, area=self.area, winner=self.attacker, how="elimination")
        conquer(self.turn, self.attacker, self.area, self.rule("6.14"))

    def defender_wins(self) -> None:
        """O-6.14 A: the defender keeps the province; the attacker's galleys there are destroyed (O-6.18),
        then his leaders there are captured (before, so that a captured Caesar's galleys are not taken over)."""
        self.turn.event("battle_end", self.attacker, area=self.area, winner=self.defender, how="elimination")
        destroy_galleys(self.turn, self.area, [self.attacker], self.rule("6.24"))
        leaders = self.force(self.attacker).leaders
        if leaders:
            capture_leaders(self.turn, self.defender, self.area, self.attacker, leaders, self.rule("6.14"))


class NavalBattle1984(Combat):
    """A naval battle (O-6.23 to O-6.27): the same cycle at sea, no retreat, to the end."""

    at_sea = True
    prefix = "naval"

    def point(self) -> Callable[[], Point]:
        """The position and the enemy fleet's owner."""
        return lambda: Point(self.turn.state.copy(), defender=self.defender)

    def strength(self, seat: str) -> int:
        """Catapults aboard (O-6.5, O-6.23); a fortified city never counts at sea."""
        return sum(c.catapult for c in self.force(seat).aboard.values())

    def targets(self, seat: str) -> list[Target]:
        """Combat units aboard the enemy's galleys, or a galley carrying none (O-6.24, O-15.6)."""
        enemy = self.force(self.enemy(seat))
        found = []
        for galley in sorted(enemy.galleys):
            cargo = enemy.aboard.get(galley) or Cargo()
            if cargo.units:
                found += [Target(kind, galley) for kind in UNIT_KINDS if getattr(cargo, kind)]
            else:
                found.append(Target("galley", galley))
        return found

    def remove(self, seat: str, target: Target, shooter: str) -> None:
        force = self.force(seat)
        assert target.galley is not None
        if target.kind == "galley":  # O-6.25: its leaders are captured by the sinker
            sink(self.turn, self.area, seat, force, [target.galley], shooter)
            return
        cargo = force.aboard[target.galley]
        setattr(cargo, target.kind, getattr(cargo, target.kind) - 1)
        remove_units(self.turn.state, seat, force, target.kind, 1)

    def fleet(self, seat: str) -> int:
        return len(self.force(seat).galleys)

    def fight(self) -> None:
        turn, zone = self.turn, self.area
        if not self.fleet(self.attacker) or not self.fleet(self.defender):
            turn.event(
                "battle_skipped",
                self.attacker,
                area=zone,
                defender=self.defender,
                reason=N_(
                    "%(seat)s has no galley there any more",
                    seat=self.attacker if not self.fleet(self.attacker) else self.defender,
                ),
                rule=self.rule("7.1"),
            )
            return
        turn.event("naval_battle", self.attacker, area=zone, defender=self.defender, rule=self.rule("7.1"))
        cycle, winner = 0, None
        while winner is None:
            cycle += 1
            self.shoot(self.attacker, cycle)
            if not self.fleet(self.defender):  # O-6.8 step 4 at sea, O-6.26
                winner = self.attacker
                break
            self.shoot(self.defender, cycle)
            if not self.fleet(self.attacker):
                winner = self.defender
        # a sunk Caesar (O-7.5) hands the loser's fleet to the winner (O-7.6): the winner holds the zone
        turn.event("naval_end", self.attacker, area=zone, defender=self.defender, winner=winner, rule="O-6.26")


def fight_land_battle(turn: Turn, code: str, attacker: str, defender: str) -> None:
    """A 1984 land battle (O-6.4 to O-6.22)."""
    LandBattle1984(turn, code, attacker, defender).fight()


def fight_naval_battle(turn: Turn, zone: str, attacker: str, defender: str) -> None:
    """A 1984 naval battle (O-6.23 to O-6.27)."""
    NavalBattle1984(turn, zone, attacker, defender).fight()
