"""Phase 1, movement on land and along roads (C-5.1 to C-5.14), the phase driver (C-5.4, C-5.26), and what the
end of movement brings (C-5.28 to C-5.31). Galleys and transport are in galleys.py."""

from __future__ import annotations

import copy
from collections import defaultdict, deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from adjudicator.engine.vocabulary import N_, Rejected
from adjudicator.orders.keywords import in_english
from adjudicator.rulesets.coe.orders import Move, Order, Sail, Troops
from adjudicator.rulesets.coe.refusals import (
    enemy_armies,
    refuse_absent_leader,
    refuse_enemy_army,
    refuse_leader_twice,
    refuse_leaderless,
    refuse_missing_units,
    refuse_not_adjacent,
    refuse_pinned,
    refuse_sea,
    refuse_too_many_units,
    refuse_unknown_area,
)
from adjudicator.rulesets.coe.state import Force, GameState
from adjudicator.rulesets.coe.turn import Turn
from adjudicator.rulesets.coe.vocabulary import UNIT_ABBREVIATIONS, UNIT_KINDS, leader_name

if TYPE_CHECKING:
    from adjudicator.rulesets.coe.ruleset import CoeRuleset


def troops_text(troops: Troops) -> str:
    """'G2 with 3 INF 2 CAV', as reports write a group of pieces."""
    leaders = ", ".join(leader_name(n) for n in troops.leaders)
    units = " ".join(f"{getattr(troops, k)} {UNIT_ABBREVIATIONS[k]}" for k in UNIT_KINDS if getattr(troops, k))
    if leaders and units:
        return N_("%(leaders)s with %(units)s", leaders=leaders, units=units)
    return leaders or units or N_("nothing")


@dataclass
class MovementPoints:
    """The active seat's movement book for this phase.

    MP left to pieces (C-5.1, C-5.2, C-5.8: MP never pass between pieces): leaders by number, galleys by
    number, combat units as (MP left, road journeys made) per (area, kind) since units of a kind are
    interchangeable. Only land moves (ordinary moves and road journeys) spend the MP of leaders and combat
    units, so a leader listed in `leaders` or a unit listed in `moved_units` has made a land move this turn.
    Pieces that embarked or disembarked this turn (C-5.25) are in `shipped_leaders` and, for units now ashore,
    `shipped_units`. `road_limit` is the number of road journeys a piece may make in a turn (None: as MP
    allow, C-5.14; 1984: one, O-5.15). Galleys that had to stop in a sea zone holding other players'
    galleys (O-5.28) are in `stopped_galleys`.
    """

    allowance: dict[str, int]
    road_limit: int | None = None
    leaders: dict[int, int] = field(default_factory=dict)
    leader_roads: dict[int, int] = field(default_factory=dict)
    moved_units: dict[tuple[str, str], list[tuple[int, int]]] = field(default_factory=lambda: defaultdict(list))
    galleys: dict[int, int] = field(default_factory=dict)
    shipped_leaders: set[int] = field(default_factory=set)
    shipped_units: dict[tuple[str, str], int] = field(default_factory=lambda: defaultdict(int))
    stopped_galleys: set[int] = field(default_factory=set)

    def leader_left(self, leader: int) -> int:
        return self.leaders.get(leader, self.allowance["caesar" if leader == 0 else "general"])

    def leader_may_take_roads(self, leader: int, roads: int) -> bool:
        return self.road_limit is None or self.leader_roads.get(leader, 0) + roads <= self.road_limit

    def galley_left(self, galley: int) -> int:
        return self.galleys.get(galley, self.allowance["galley"])

    def land_moved_leader(self, leader: int) -> bool:
        return leader in self.leaders

    def units_free(self, area: str, kind: str, ashore: int) -> int:
        """Units of `kind` ashore in `area` that neither embarked nor disembarked this turn (C-5.25)."""
        return ashore - self.shipped_units[(area, kind)]

    def _fits(self, mp: int, roads_made: int, cost: int, roads: int) -> bool:
        return mp >= cost and (self.road_limit is None or roads_made + roads <= self.road_limit)

    def units_able(self, area: str, kind: str, ashore: int, cost: int, roads: int = 0) -> int:
        """How many of the `ashore` units of `kind` in `area` may make a land move costing `cost` MP that
        includes `roads` road journeys."""
        moved = self.moved_units[(area, kind)]
        fresh = self.units_free(area, kind, ashore) - len(moved)
        return (fresh if self._fits(self.allowance[kind], 0, cost, roads) else 0) + sum(
            1 for mp, made in moved if self._fits(mp, made, cost, roads)
        )

    def spend_units(
        self, origin: str, destination: str, kind: str, count: int, ashore: int, cost: int, roads: int = 0
    ) -> None:
        """Move `count` units, taking those with the fewest sufficient MP (and, among them, the most road
        journeys made) first to keep fresh ones fresh."""
        full = self.allowance[kind]
        moved = self.moved_units[(origin, kind)]
        fresh = self.units_free(origin, kind, ashore) - len(moved)
        pool = [(mp, made, True) for mp, made in moved if self._fits(mp, made, cost, roads)]
        pool += [(full, 0, False)] * fresh
        for mp, made, before in sorted(pool, key=lambda p: (p[0], -p[1], p[2]))[:count]:
            if before:  # a unit that moved before this order
                moved.remove((mp, made))
            self.moved_units[(destination, kind)].append((mp - cost, made + roads))

    def embarkable_units(self, area: str, kind: str, ashore: int) -> int:
        """Units ashore in `area` that made no land move this turn and so may embark (C-5.25)."""
        return ashore - len(self.moved_units[(area, kind)])

    def embark_units(self, area: str, kind: str, count: int) -> None:
        """Units leave `area` aboard a galley: those that already landed this turn go first (C-5.25)."""
        shipped = self.shipped_units[(area, kind)]
        self.shipped_units[(area, kind)] = shipped - min(shipped, count)

    def disembark_units(self, area: str, kind: str, count: int) -> None:
        self.shipped_units[(area, kind)] += count


# -- what stands where ---------------------------------------------------------------------------------------


def ashore(force: Force | None) -> Troops:
    """The pieces of a force that are not aboard one of its galleys."""
    if force is None:
        return Troops()
    aboard = list(force.aboard.values())
    on_galleys = {g for c in aboard for g in c.generals} | ({0} if any(c.caesar for c in aboard) else set())
    return Troops(
        tuple(n for n in force.leaders if n not in on_galleys),
        *(getattr(force, k) - sum(getattr(c, k) for c in aboard) for k in UNIT_KINDS),
    )


# -- land moves and road journeys ----------------------------------------------------------------------------


def road_journey(ruleset: CoeRuleset, state: GameState, seat: str, origin: str, target: str) -> list[str]:
    """The cities a road journey from `origin` to `target` passes, ends included (C-5.12, C-5.13, C-16.18).

    Roads usable by the mover join two cities he controls; every city on the way must be his; a city holding
    other players' combat units stops the journey there (C-5.9)."""
    rule = ruleset.rule
    start = state.areas.get(origin)
    if start is None or not start.city or start.owner != seat:
        what = (
            N_("a road journey starts in a province with a city you control; %(area)s has no city", area=origin)
            if start is None or not start.city
            else N_(
                "a road journey starts in a province with a city you control; %(area)s has a city you do not control",
                area=origin,
            )
        )
        raise Rejected(rule("5.12"), what)
    if target == origin:
        raise Rejected(rule("5.12"), N_("the road journey ends where it starts, in %(area)s", area=origin))
    end = state.areas.get(target)
    if end is None or not end.city:
        raise Rejected(rule("5.12"), N_("%(area)s has no city: road journeys go from city to city", area=target))
    if end.owner != seat:
        raise Rejected(
            rule("5.12"),
            N_(
                "the city in %(area)s is not yours: every city of a road journey must be controlled by you", area=target
            ),
        )

    def search(stop_at_enemies: bool) -> list[str] | None:
        came_from: dict[str, str | None] = {origin: None}
        queue = deque([origin])
        while queue:
            city = queue.popleft()
            if city == target:
                chain = [city]
                while (previous := came_from[chain[-1]]) is not None:
                    chain.append(previous)
                return chain[::-1]
            if city != origin and stop_at_enemies and enemy_armies(state, city, seat):
                continue  # the journey would have to stop here (C-5.9)
            for other in sorted(state.areas[city].roads):
                far = state.areas.get(other)
                usable = far is not None and far.owner == seat and far.city  # C-5.13: both ends his
                if usable and other not in came_from:
                    came_from[other] = city
                    queue.append(other)
        return None

    chain = search(stop_at_enemies=True)
    if chain is None:
        if search(stop_at_enemies=False) is not None:
            raise Rejected(
                rule("5.9"),
                N_(
                    "the road journey to %(area)s would pass cities holding other players' "
                    "combat units, where it must stop",
                    area=target,
                ),
            )
        raise Rejected(
            rule("5.13"),
            N_(
                "no chain of roads between cities you control joins %(origin)s to %(target)s "
                "(a road serves only the player who controls both its cities)",
                origin=origin,
                target=target,
            ),
        )
    return chain


def move(turn: Turn, points: MovementPoints, order: Move) -> str:
    """One MOVE order: a group of leaders and combat units making ordinary moves and road journeys
    (C-5.2 to C-5.14, C-5.25)."""
    ruleset, state, seat = turn.rules, turn.state, turn.seat
    force = _starting_force(ruleset, state, seat, order.start)
    present = ashore(force)
    _check_group(ruleset, points, state, seat, order, present)
    path, route, groups = _trace(ruleset, state, seat, order)
    _check_leaders_mp(ruleset, points, groups)
    if len(groups) > 1:  # check on a copy first: a refused order changes nothing
        _spend_units(ruleset, copy.deepcopy(points), order.start, present, groups)
    _spend_units(ruleset, points, order.start, present, groups)
    for group in groups:
        _carry(turn, points, force, group)
    state.area(order.start).prune()
    turn.event("moved", seat, troops=troops_text(order.troops), path=path, route=route)
    return route


def _starting_force(ruleset: CoeRuleset, state: GameState, seat: str, start: str) -> Force:
    """The mover's force in the province a MOVE starts from (C-2.2, C-5.3; at sea pieces sail, C-5.17)."""
    rule = ruleset.rule
    refuse_unknown_area(rule("2.2"), ruleset.board, start)
    if not ruleset.board.is_land(start):
        raise Rejected(
            rule("5.17"),
            N_(
                "pieces in the sea zone %(area)s are aboard galleys and move only with them (%(kw_sail)s)",
                area=start,
                **in_english("sail"),
            ),
        )
    here = state.areas.get(start)
    force = here.units.get(seat) if here else None
    if force is None or force.is_empty():
        raise Rejected(rule("5.3"), N_("you have no pieces in %(area)s", area=start))
    return force


def _check_group(
    ruleset: CoeRuleset, points: MovementPoints, state: GameState, seat: str, order: Move, present: Troops
) -> None:
    """The pieces named are there and form a legion that may move this turn (C-5.2, C-5.3, C-5.5, C-5.6, C-5.9,
    C-5.25)."""
    rule, troops, start = ruleset.rule, order.troops, order.start
    cited = rule("5.3")  # the rule of the first checks, made once
    for leader in troops.leaders:
        refuse_absent_leader(cited, leader, present, start)
    refuse_leader_twice(cited, troops.leaders)
    for kind in UNIT_KINDS:
        refuse_missing_units(cited, kind, getattr(troops, kind), present, start)
    refuse_leaderless(rule("5.5"), troops)
    refuse_too_many_units(rule("5.6"), troops, ruleset.data["movement"]["units_per_leader"])
    if not order.steps:
        raise Rejected(rule("5.2"), N_("the move names no destination"))
    refuse_pinned(rule("5.9"), state, seat, start)
    _check_not_shipped(ruleset, points, troops, present, start)


def _check_not_shipped(
    ruleset: CoeRuleset, points: MovementPoints, troops: Troops, present: Troops, start: str
) -> None:
    """Pieces that embarked or disembarked this turn make no land move (C-5.25)."""
    rule = ruleset.rule
    for leader in troops.leaders:
        if leader in points.shipped_leaders:
            raise Rejected(
                rule("5.25"),
                N_(
                    "%(leader)s embarked or disembarked this turn and may make no land move", leader=leader_name(leader)
                ),
            )
    for kind in UNIT_KINDS:
        wanted, free = getattr(troops, kind), points.units_free(start, kind, getattr(present, kind))
        if wanted > free:
            raise Rejected(
                rule("5.25"),
                N_(
                    "only %(count)s %(kind)s in %(area)s may make a land move: the others "
                    "embarked or disembarked this turn",
                    count=free,
                    kind=kind,
                    area=start,
                ),
            )


def _trace(ruleset: CoeRuleset, state: GameState, seat: str, order: Move) -> tuple[list[str], str, list[_Group]]:
    """Follow the steps of a MOVE (C-5.2, C-5.8 to C-5.12): the areas reached, the route as the report writes
    it, and the groups of pieces with where each ends and what it spends."""
    path = [order.start]
    route = order.start
    moving, spent, journeys = order.troops, 0, 0  # the pieces still travelling, and what they have spent so far
    groups: list[_Group] = []  # pieces dropped on the way (LEAVING, C-5.8, C-5.12), then the rest
    for number, step in enumerate(order.steps, 1):
        current = path[-1]
        refuse_unknown_area(ruleset.rule("2.2"), ruleset.board, step.to)
        if step.kind == "road":
            chain = _road_step(ruleset, state, seat, current, step.to)
            route += f" => {step.to}"
            # C-5.12: after dropping pieces at a city passed, the same road journey goes on (no further MP)
            going_on = number > 1 and order.steps[number - 2].kind == "road" and order.steps[number - 2].leave
            spent += 0 if going_on else 1
            journeys += 0 if going_on else 1
        else:
            chain = _land_step(ruleset, current, step.to)
            route += f" -> {step.to}"
            spent += 1
        refuse_enemy_army(ruleset.rule, state, seat, step.to, number < len(order.steps), not moving.units, by_sea=False)
        for code in chain[1:]:
            state.area(code)  # every area passed has its entry in the state, as before
        path.append(chain[-1])
        if step.leave is not None:
            moving = _drop(ruleset, moving, step.leave, step.to)
            groups.append(_Group(step.leave, step.to, path[-2], spent, journeys))
            route += f" leaving {troops_text(step.leave)}"
    groups.append(_Group(moving, path[-1], path[-2], spent, journeys))
    return path, route, groups


def _road_step(ruleset: CoeRuleset, state: GameState, seat: str, current: str, to: str) -> list[str]:
    """A road journey step: the cities it passes (C-5.12, C-5.13); never into a sea zone (C-5.17)."""
    if not ruleset.board.is_land(to):
        refuse_sea(ruleset.rule("5.17"), to)
    return road_journey(ruleset, state, seat, current, to)


def _land_step(ruleset: CoeRuleset, current: str, to: str) -> list[str]:
    """An ordinary move across a land border (C-2.2); never into a sea zone, not even across a strait (C-5.17)."""
    board = ruleset.board
    if not board.is_land(to):  # `to` is an area of the board (_trace): a sea zone, adjacent or not
        refuse_sea(ruleset.rule("5.17"), to)
    refuse_not_adjacent(ruleset.rule("2.2"), board, to, current, land=True)
    return [current, to]


def _check_leaders_mp(ruleset: CoeRuleset, points: MovementPoints, groups: list[_Group]) -> None:
    """Each leader has the MP his group spends (C-5.2) and the road journeys left (C-5.14, O-5.15)."""
    rule = ruleset.rule
    for group in groups:
        for leader in group.troops.leaders:
            if points.leader_left(leader) < group.cost:
                raise Rejected(
                    rule("5.2"),
                    N_(
                        "%(leader)s has %(left)s MP left, the move needs %(cost)s",
                        leader=leader_name(leader),
                        left=points.leader_left(leader),
                        cost=group.cost,
                    ),
                )
            if not points.leader_may_take_roads(leader, group.roads):
                raise Rejected(
                    rule("5.14"),
                    N_(
                        "%(leader)s may make only %(limit)s road journey in a turn",
                        leader=leader_name(leader),
                        limit=points.road_limit,
                    ),
                )


def _carry(turn: Turn, points: MovementPoints, force: Force, group: _Group) -> None:
    """Carry one group of a checked MOVE to its destination and book what its leaders spent (C-5.2, C-5.14)."""
    seat = turn.seat
    target = turn.state.force(group.destination, seat)
    for leader in group.troops.leaders:
        points.leaders[leader] = points.leader_left(leader) - group.cost
        points.leader_roads[leader] = points.leader_roads.get(leader, 0) + group.roads
        if leader == 0:
            force.caesar, target.caesar = 0, 1
        else:
            force.generals.remove(leader)
            target.generals.append(leader)
    for kind in UNIT_KINDS:
        count = getattr(group.troops, kind)
        if count:
            setattr(force, kind, getattr(force, kind) - count)
            setattr(target, kind, getattr(target, kind) + count)
    record_entry(turn, "by_land", group.destination, group.troops)
    if group.troops.units:  # where the units entered from (the 1984 default retreat destination, O-14.7)
        came = turn.scratch.setdefault("came_from", {}).setdefault(group.destination, {})
        came[group.came_from] = came.get(group.came_from, 0) + group.troops.units


@dataclass(frozen=True)
class _Group:
    """Pieces of one MOVE order that end in one place: dropped on the way (LEAVING) or going to the end."""

    troops: Troops
    destination: str
    came_from: str  # the area they entered the destination from
    cost: int  # MP each piece of the group spends (C-5.2, C-5.12: a road journey costs 1 however far)
    roads: int  # road journeys each makes (C-5.14, O-5.15)


def _drop(ruleset: CoeRuleset, moving: Troops, leave: Troops, where: str) -> Troops:
    """The pieces going on after dropping `leave` at `where` (C-5.8, C-5.12); they must still be a legion that
    may move (C-5.5, C-5.6)."""
    rule = ruleset.rule
    for leader in leave.leaders:
        if leader not in moving.leaders:
            raise Rejected(
                rule("5.3"),
                N_("%(leader)s is not in the group that reaches %(area)s", leader=leader_name(leader), area=where),
            )
    for kind in UNIT_KINDS:
        if getattr(leave, kind) > getattr(moving, kind):
            raise Rejected(
                rule("5.3"),
                N_(
                    "only %(count)s %(kind)s of the group reach %(area)s: it cannot leave %(left)s",
                    count=getattr(moving, kind),
                    kind=kind,
                    area=where,
                    left=getattr(leave, kind),
                ),
            )
    rest = Troops(
        tuple(n for n in moving.leaders if n not in leave.leaders),
        *(getattr(moving, k) - getattr(leave, k) for k in UNIT_KINDS),
    )
    refuse_leaderless(rule("5.5"), rest, where)
    refuse_too_many_units(rule("5.6"), rest, ruleset.data["movement"]["units_per_leader"], where)
    return rest


def _spend_units(
    ruleset: CoeRuleset, points: MovementPoints, start: str, present: Troops, groups: list[_Group]
) -> None:
    """Spend the MP of the combat units of every group (C-5.2, C-5.12, C-5.14), the longest way first so that the
    units with most MP go furthest; raises Rejected when a kind has too few units with the MP needed."""
    rule = ruleset.rule
    taken = dict.fromkeys(UNIT_KINDS, 0)
    for group in sorted(groups, key=lambda g: (-g.cost, -g.roads)):
        cost, roads = group.cost, group.roads
        for kind in UNIT_KINDS:
            wanted = getattr(group.troops, kind)
            if not wanted:
                continue  # a kind the group does not take spends nothing
            ashore_now = getattr(present, kind) - taken[kind]
            able = points.units_able(start, kind, ashore_now, cost, roads)
            if able < wanted:
                if points.units_able(start, kind, ashore_now, cost) >= wanted:
                    raise Rejected(
                        rule("5.14"),
                        N_(
                            "only %(count)s %(kind)s in %(area)s may still make this move: "
                            "a piece makes at most %(limit)s road journey in a turn",
                            count=able,
                            kind=kind,
                            area=start,
                            limit=points.road_limit,
                        ),
                    )
                raise Rejected(
                    rule("5.2"),
                    N_(
                        "only %(count)s %(kind)s in %(area)s have the %(cost)s MP this move "
                        "needs (%(kind)s move %(points)s; a road journey costs 1)",
                        count=able,
                        kind=kind,
                        area=start,
                        cost=cost,
                        points=ruleset.data["movement"][kind],
                    ),
                )
            points.spend_units(start, group.destination, kind, wanted, ashore_now, cost, roads)
            taken[kind] += wanted


# -- bookkeeping for combat and the stacking limit (O-5.7) --------------------------------------------------


def record_entry(turn: Turn, key: str, area: str, troops: Troops) -> None:
    """Count the active seat's combat units entering a land area this turn, in turn.scratch[key]: "by_land"
    (ordinary move or road journey) or "by_sea" (landing from galleys). The 1984 combat asks how the
    attacking units came (O-6.17). Units in a battle province cannot leave it again this turn (C-5.9), so
    there the counts are exactly the units that came each way."""
    if not troops.units:
        return
    entry = turn.scratch.setdefault(key, {}).setdefault(area, dict.fromkeys(UNIT_KINDS, 0))
    for kind in UNIT_KINDS:
        entry[kind] += getattr(troops, kind)


def stacking_leaders(state: GameState, seat: str, code: str, city: bool = True) -> int:
    """The seat's leaders in `code` for the stacking limit (O-5.7): Caesar and generals there, plus 1 for a city
    he controls (`city`). Prisoners are off the board and count for nothing (O-7.2)."""
    area = state.areas.get(code)
    if area is None:
        return 0
    force = area.units.get(seat)
    return (len(force.leaders) if force else 0) + (1 if city and area.city and area.owner == seat else 0)


def stacking_breaches(ruleset: CoeRuleset, state: GameState, seat: str) -> dict[str, tuple[int, int]]:
    """Land provinces where the seat's combat units exceed 7 per leader at the end of the movement phase
    (O-5.7), as {code: (units, leaders)}. A city in a province the seat conquers without battle at the end of
    the phase (he has combat units there and nobody else has) already counts as his leader (O-5.31)."""
    per_leader: int = ruleset.data["movement"]["units_per_leader"]
    breaches = {}
    for code, area in state.areas.items():
        force = area.units.get(seat)
        if force is None or not force.units or not ruleset.board.is_land(code):
            continue
        conquers = not any(s != seat and f.units for s, f in area.units.items())
        leaders = len(force.leaders) + (1 if area.city and (area.owner == seat or conquers) else 0)
        if force.units > per_leader * leaders:
            breaches[code] = (force.units, leaders)
    return breaches


def _land_view(ruleset: CoeRuleset, state: GameState, seat: str) -> dict[str, tuple[int, int]]:
    """(combat units, Caesar and generals) of the seat in every land province where he has pieces."""
    return {
        code: (f.units, len(f.leaders))
        for code, area in state.areas.items()
        if (f := area.units.get(seat)) is not None and ruleset.board.is_land(code)
    }


# -- the phase -----------------------------------------------------------------------------------------------


def movement_phase(turn: Turn) -> None:
    """Phase 1 (C-5): moves and sailings in the order written, each checked against the position so far
    (C-5.4); an illegal order changes nothing. At the end, pieces aboard galleys lying in a province go
    ashore (C-5.26).

    With the stacking limit (1984, O-5.7) every province is checked once more at the end of the phase: while
    one holds more combat units than 7 per leader, the last accepted order that brought combat units into it
    or took leaders out of it is rejected and the phase is played again from its start without that order (the
    resolution of O-5.7: drop-offs and pick-ups during the phase stay possible)."""
    ruleset = turn.rules
    turn.event("phase", turn.seat, number=1, name="movement")
    orders = turn.of_kind(Move, Sail)
    if not ruleset.edition("stacking"):
        _run_movement(turn, orders, {}, track=False)  # no stacking limit: what each order touched is not asked
        return
    begin: tuple[GameState, int, int, dict[str, Any]] = (
        turn.state.copy(),
        len(turn.events),
        len(turn.results),
        copy.deepcopy(turn.scratch),
    )
    refused: dict[int, str] = {}
    per_leader = ruleset.data["movement"]["units_per_leader"]
    while True:
        touched = _run_movement(turn, orders, refused)
        breaches = stacking_breaches(ruleset, turn.state, turn.seat)
        culprit = next(
            (
                (index, sorted(areas & breaches.keys())[0])
                for index, areas in reversed(touched)
                if areas & breaches.keys()
            ),
            None,
        )
        if culprit is None:
            return
        index, code = culprit
        units, leaders = breaches[code]
        refused[index] = N_(
            "at the end of the movement phase %(area)s would hold %(units)s of your combat units "
            "with %(leaders)s leader(s): at most %(most)s per Caesar or general there, a city you "
            "control counting as one",
            area=code,
            units=units,
            leaders=leaders,
            most=per_leader,
        )
        state, events, results, scratch = begin
        turn.state = state.copy()
        del turn.events[events:]
        del turn.results[results:]
        turn.scratch = copy.deepcopy(scratch)


def _run_movement(
    turn: Turn, orders: list[Order], refused: dict[int, str], track: bool = True
) -> list[tuple[int, set[str]]]:
    """Carry out the orders (those in `refused` are rejected for the stacking limit); return, per accepted
    order, the land provinces it brought combat units into or took leaders out of (with `track`; else nothing
    is returned and the views that tell it are not made)."""
    from adjudicator.rulesets.coe.galleys import disembark_in_provinces, sail

    ruleset = turn.rules
    points = MovementPoints(ruleset.data["movement"], ruleset.edition("road_journeys_per_turn"))
    touched: list[tuple[int, set[str]]] = []
    view: dict[str, tuple[int, int]] | None = None  # the land view after the order before, if it was accepted
    for index, order in enumerate(orders):
        if index in refused:
            turn.reject(order, ruleset.rule("5.6"), refused[index])
            view = None
            continue
        # the state is as the last accepted order left it: its view after it is this order's view before
        before = (view if view is not None else _land_view(ruleset, turn.state, turn.seat)) if track else {}
        view = None
        if isinstance(order, Move):
            accepted = turn.attempt(order, lambda order=order: move(turn, points, order))
        else:
            assert isinstance(order, Sail)
            accepted = turn.attempt(order, lambda order=order: sail(turn, points, order))
        if accepted and track:
            after = view = _land_view(ruleset, turn.state, turn.seat)
            touched.append(
                (
                    index,
                    {
                        code
                        for code in before.keys() | after.keys()
                        if after.get(code, (0, 0))[0] > before.get(code, (0, 0))[0]
                        or after.get(code, (0, 0))[1] < before.get(code, (0, 0))[1]
                    },
                )
            )
    disembark_in_provinces(turn)
    return touched
