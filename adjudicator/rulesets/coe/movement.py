"""Phase 1, movement on land (C-5.1 to C-5.14), and what the end of movement brings (C-5.28 to C-5.31)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from adjudicator.engine.orders import Move, Sail, Troops
from adjudicator.engine.turn import Turn
from adjudicator.engine.vocabulary import UNIT_ABBREVIATIONS, UNIT_KINDS, NotSupportedYet, Rejected, leader_name
from adjudicator.rulesets.coe.economy import refresh_tribute

if TYPE_CHECKING:
    from adjudicator.rulesets import Ruleset


def troops_text(troops: Troops) -> str:
    """'G2 with 3 INF 2 CAV', as reports write a group of pieces."""
    leaders = ", ".join(leader_name(n) for n in troops.leaders)
    units = " ".join(f"{getattr(troops, k)} {UNIT_ABBREVIATIONS[k]}" for k in UNIT_KINDS if getattr(troops, k))
    if leaders and units:
        return f"{leaders} with {units}"
    return leaders or units or "nothing"


@dataclass
class MovementPoints:
    """MP left to the active seat's pieces this phase (C-5.1, C-5.2, C-5.8: MP never pass between pieces)."""

    allowance: dict[str, int]
    leaders: dict[int, int] = field(default_factory=dict)
    moved_units: dict[tuple[str, str], list[int]] = field(default_factory=lambda: defaultdict(list))

    def leader_left(self, leader: int) -> int:
        return self.leaders.get(leader, self.allowance["caesar" if leader == 0 else "general"])

    def units_able(self, area: str, kind: str, present: int, cost: int) -> int:
        """How many of the `present` units of `kind` in `area` still have `cost` MP."""
        moved = self.moved_units[(area, kind)]
        fresh = present - len(moved)
        return (fresh if self.allowance[kind] >= cost else 0) + sum(1 for mp in moved if mp >= cost)

    def spend_units(self, origin: str, destination: str, kind: str, count: int, present: int, cost: int) -> None:
        """Move `count` units, taking those with the fewest sufficient MP first to keep fresh ones fresh."""
        full = self.allowance[kind]
        moved = self.moved_units[(origin, kind)]
        pool = [mp for mp in moved if mp >= cost] + [full] * (present - len(moved))
        for mp in sorted(pool)[:count]:
            if mp < full:  # a unit that moved before this order (moved units always have less than full MP)
                moved.remove(mp)
            self.moved_units[(destination, kind)].append(mp - cost)


def move(turn: Turn, points: MovementPoints, order: Move) -> str:
    """One MOVE order: a group of leaders and combat units walking along a path (C-5.2 to C-5.11)."""
    ruleset: Ruleset = turn.rules  # type: ignore[assignment]
    board, state, seat = ruleset.board, turn.state, turn.seat
    troops = order.troops
    rule = ruleset.rule
    if not board.is_land(order.start):
        raise NotSupportedYet(rule("5.17"), f"pieces in the sea zone {order.start} move only aboard galleys "
                                            "(SAIL), which is not supported yet")
    here = state.areas.get(order.start)
    force = here.units.get(seat) if here else None
    if force is None or force.is_empty():
        raise Rejected(rule("5.3"), f"you have no pieces in {order.start}")
    for leader in troops.leaders:
        if leader not in force.leaders:
            raise Rejected(rule("5.3"), f"your {leader_name(leader)} is not in {order.start}")
    if len(set(troops.leaders)) != len(troops.leaders):
        raise Rejected(rule("5.3"), "a leader is named twice")
    for kind in UNIT_KINDS:
        if getattr(troops, kind) > getattr(force, kind):
            raise Rejected(rule("5.3"), f"you have only {getattr(force, kind)} {kind} in {order.start}")
    if troops.units and not troops.leaders:
        raise Rejected(rule("5.5"), "combat units move only together with a leader")
    if troops.units > ruleset.data["movement"]["units_per_leader"] * len(troops.leaders):
        raise Rejected(rule("5.6"), f"{len(troops.leaders)} leader(s) can move at most "
                                    f"{ruleset.data['movement']['units_per_leader'] * len(troops.leaders)} "
                                    f"combat units, not {troops.units}")
    if not order.steps:
        raise Rejected(rule("5.2"), "the move names no destination")
    cost = len(order.steps)
    path = [order.start]
    for number, step in enumerate(order.steps, 1):
        if step.kind == "road":
            raise NotSupportedYet(rule("5.12"), "road journeys (=>) are not supported yet")
        current = path[-1]
        if step.to in board.sea_neighbours(current):
            raise Rejected(rule("5.17"), f"{step.to} is a sea zone: land pieces go to sea only aboard a galley")
        if step.to not in board.land_neighbours(current):
            raise Rejected(rule("2.2"), f"{step.to} is not adjacent to {current}")
        enemies = [s for s, f in state.area(step.to).units.items() if s != seat and f.units]
        if enemies:
            if not troops.units:
                raise Rejected(rule("5.10"), f"leaders without combat units may not enter {step.to}, "
                                             f"held by {', '.join(enemies)}'s combat units")
            if number < len(order.steps):
                raise Rejected(rule("5.9"), f"the move must stop in {step.to}, which holds "
                                            f"{', '.join(enemies)}'s combat units")
            raise NotSupportedYet(rule("6.1"), f"entering {step.to}, held by {', '.join(enemies)}'s combat "
                                               "units, starts a land battle; land battles are not supported yet")
        path.append(step.to)
    destination = path[-1]
    others = [s for s, f in state.area(destination).units.items() if s != seat and not f.is_empty()]
    if troops.units and others:
        raise NotSupportedYet(rule("5.31"), f"combat units ending in {destination} would capture "
                                            f"{', '.join(others)}'s leaders or galleys there; capture is not "
                                            "supported yet")
    for leader in troops.leaders:
        if points.leader_left(leader) < cost:
            raise Rejected(rule("5.2"), f"{leader_name(leader)} has {points.leader_left(leader)} MP left, "
                                        f"the move needs {cost}")
    for kind in UNIT_KINDS:
        wanted = getattr(troops, kind)
        if wanted and points.units_able(order.start, kind, getattr(force, kind), cost) < wanted:
            raise Rejected(rule("5.2"), f"only {points.units_able(order.start, kind, getattr(force, kind), cost)} "
                                        f"{kind} in {order.start} have the {cost} MP this move needs "
                                        f"({kind} move {ruleset.data['movement'][kind]})")

    target = state.force(destination, seat)
    for leader in troops.leaders:
        points.leaders[leader] = points.leader_left(leader) - cost
        if leader == 0:
            force.caesar, target.caesar = 0, 1
        else:
            force.generals.remove(leader)
            target.generals.append(leader)
    for kind in UNIT_KINDS:
        count = getattr(troops, kind)
        if count:
            points.spend_units(order.start, destination, kind, count, getattr(force, kind), cost)
            setattr(force, kind, getattr(force, kind) - count)
            setattr(target, kind, getattr(target, kind) + count)
    state.area(order.start).prune()
    turn.event("moved", seat, troops=troops_text(troops), path=path)
    return " -> ".join(path)


def movement_phase(turn: Turn) -> None:
    """Phase 1 (C-5): moves and sailings in the order written, each checked against the position so far
    (C-5.4)."""
    ruleset: Ruleset = turn.rules  # type: ignore[assignment]
    turn.event("phase", turn.seat, number=1, name="movement")
    points = MovementPoints(ruleset.data["movement"])
    for order in turn.of_kind(Move, Sail):
        if isinstance(order, Move):
            turn.attempt(order, lambda order=order: move(turn, points, order))
        else:
            turn.reject(order, ruleset.rule("5.18"), "galley movement and transport are not supported yet")


def conquer_empty_provinces(turn: Turn) -> None:
    """End of Phase 1: own combat units alone in a province not yet controlled conquer it (C-5.28, C-8.1)."""
    ruleset: Ruleset = turn.rules  # type: ignore[assignment]
    seat = turn.seat
    for code in sorted(turn.state.areas):
        area = turn.state.areas[code]
        mine = area.units.get(seat)
        if not ruleset.board.is_land(code) or mine is None or not mine.units or area.owner == seat:
            continue
        if any(f.units for s, f in area.units.items() if s != seat):
            continue  # a battle decides this province (C-6.1)
        previous = area.owner
        area.owner = seat
        turn.event("conquered", seat, area=code, previous=previous, value=ruleset.board.value(code),
                   city=area.city, rule=ruleset.rule("5.28"))
    refresh_tribute(turn)
