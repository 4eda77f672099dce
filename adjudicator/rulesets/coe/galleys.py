"""Phase 1, galleys and transport (C-5.15 to C-5.27, C-2.6 split coasts): the SAIL order.

A SAIL order moves one or more galleys of the mover together along a route, each leg costing every galley
1 MP (C-5.18). Cargo named with CARRYING embarks at the start when the galleys lie in a land province
(C-5.24), or must already be aboard when they are at sea. When the route ends in a land province everything
aboard the galleys disembarks there (a landing, if combat units come ashore); when it ends at sea the pieces
stay aboard. Pieces aboard are counted in the force of the area where their galley is and listed in
`Force.aboard` (rulesets/coe/state.py).

A route ends where it enters a land province holding other players' combat units (C-5.9): the pieces aboard
land there and fight after movement. The emptied galley may put out to sea again with its MP left, in a
later SAIL order (C-16.10: such a galley is then not destroyed if the attack fails); the landed pieces may not
re-embark there (C-5.9). A route may pass through an own or neutral province; pieces aboard stay aboard.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from adjudicator.engine.vocabulary import N_, Rejected
from adjudicator.rulesets.coe.movement import MovementPoints, ashore, record_entry, troops_text
from adjudicator.rulesets.coe.orders import Sail, Troops
from adjudicator.rulesets.coe.refusals import (
    refuse_absent_leader,
    refuse_enemy_army,
    refuse_leader_twice,
    refuse_missing_units,
    refuse_not_adjacent,
    refuse_pinned,
    refuse_unknown_area,
)
from adjudicator.rulesets.coe.state import Cargo, Force, GameState
from adjudicator.rulesets.coe.turn import Turn
from adjudicator.rulesets.coe.vocabulary import UNIT_KINDS, leader_name

if TYPE_CHECKING:
    from adjudicator.rulesets.coe.ruleset import CoeRuleset


def cargo_troops(cargoes: list[Cargo]) -> Troops:
    """What several galleys carry, as one group of pieces."""
    leaders = sorted(({0} if any(c.caesar for c in cargoes) else set()) | {g for c in cargoes for g in c.generals})
    return Troops(tuple(leaders), *(sum(getattr(c, k) for c in cargoes) for k in UNIT_KINDS))


def add_to(cargo: Cargo, leaders: list[int], kinds: list[str]) -> None:
    for leader in leaders:
        if leader == 0:
            cargo.caesar = 1
        else:
            cargo.generals.append(leader)
    for kind in kinds:
        setattr(cargo, kind, getattr(cargo, kind) + 1)


def load_galleys(
    ruleset: CoeRuleset, galleys: list[int], existing: dict[int, Cargo], troops: Troops
) -> dict[int, Cargo]:
    """Spread embarking pieces over the galleys (C-5.22: at most 7 combat units each; C-5.23: combat units only
    on a galley with one of their leaders). Deterministic: galleys that already carry a leader first, then the
    emptiest, then by number; each is filled with infantry, cavalry, catapults in that order and takes the next
    named leader if it needs one; leaders not needed go to the first galley loaded."""
    per_galley: int = ruleset.data["movement"]["units_per_leader"]
    leaders = list(troops.leaders)
    units = [k for k in UNIT_KINDS for _ in range(getattr(troops, k))]
    loads = {g: Cargo() for g in galleys}
    room = {g: per_galley - existing[g].units for g in galleys}
    capacity = (
        N_("one legion per galley: 1 to %(most)s combat units with a Caesar or general aboard", most=per_galley)
        if ruleset.edition("galley_capacity") == "one_legion"
        else N_("%(most)s per galley", most=per_galley)
    )
    if len(units) > sum(max(r, 0) for r in room.values()):
        raise Rejected(
            ruleset.rule("5.22"),
            N_(
                "galley(s) %(galleys)s can carry at most %(room)s more combat units (%(capacity)s), not %(units)s",
                galleys=", ".join(map(str, galleys)),
                room=sum(max(r, 0) for r in room.values()),
                capacity=capacity,
                units=len(units),
            ),
        )

    def led(g: int) -> bool:
        return bool(existing[g].caesar or existing[g].generals or loads[g].caesar or loads[g].generals)

    order = sorted(galleys, key=lambda g: (not led(g), -room[g], g))
    for galley in order:
        if not units:
            break
        if room[galley] <= 0:
            continue
        if not led(galley):
            if not leaders:
                break
            add_to(loads[galley], [leaders.pop(0)], [])
        add_to(loads[galley], [], units[: room[galley]])
        units = units[room[galley] :]
    if units:
        raise Rejected(
            ruleset.rule("5.23"),
            N_(
                "combat units travel only on a galley with one of their leaders: "
                "%(units)s combat units on %(count)s galley(s) (%(capacity)s) need "
                "more leaders than %(leaders)s",
                units=troops.units,
                count=len(galleys),
                capacity=capacity,
                leaders=len(troops.leaders),
            ),
        )
    add_to(loads[order[0]], leaders, [])
    return loads


def _check_embarking(ruleset: CoeRuleset, points: MovementPoints, start: str, force: Force, cargo: Troops) -> None:
    """Pieces boarding in `start` must be there, ashore, and must not have made a land move (C-5.24, C-5.25)."""
    rule = ruleset.rule
    present = ashore(force)
    refuse_leader_twice(rule("5.3"), cargo.leaders)
    for leader in cargo.leaders:
        refuse_absent_leader(rule("5.24"), leader, present, start, embarking=True)
        if points.land_moved_leader(leader):
            raise Rejected(
                rule("5.25"), N_("%(leader)s made a land move this turn and may not embark", leader=leader_name(leader))
            )
    for kind in UNIT_KINDS:
        wanted = getattr(cargo, kind)
        refuse_missing_units(rule("5.24"), kind, wanted, present, start, embarking=True)
        able = points.embarkable_units(start, kind, getattr(present, kind))
        if wanted > able:
            raise Rejected(
                rule("5.25"),
                N_(
                    "only %(count)s %(kind)s in %(area)s may embark: the others made a land move this turn",
                    count=able,
                    kind=kind,
                    area=start,
                ),
            )


def _check_aboard(ruleset: CoeRuleset, start: str, galleys: list[int], aboard: Troops, cargo: Troops) -> None:
    """At sea, the cargo named must already be aboard these galleys (C-5.24)."""
    missing = [leader_name(n) for n in cargo.leaders if n not in aboard.leaders]
    missing += [f"{getattr(cargo, k)} {k}" for k in UNIT_KINDS if getattr(cargo, k) > getattr(aboard, k)]
    if missing:
        raise Rejected(
            ruleset.rule("5.24"),
            N_(
                "%(pieces)s not aboard galley(s) %(galleys)s in %(area)s; pieces never board or leave a galley at sea",
                pieces=", ".join(missing),
                galleys=", ".join(map(str, galleys)),
                area=start,
            ),
        )


def _coast_seas(ruleset: CoeRuleset, province: str, coast: str | None) -> frozenset[str]:
    """The sea zones a galley lying in `province` on `coast` may put out into (C-2.6, C-5.20)."""
    board = ruleset.board
    coasts = board.coasts(province)
    if len(coasts) > 1 and coast is not None:
        for seas in coasts:
            if coast in seas:  # a coast is named after one of its sea zones (rulesets/coe/board.py coast_name)
                return seas
    return board.sea_neighbours(province)


def sail(turn: Turn, points: MovementPoints, order: Sail) -> str:
    """One SAIL order (C-5.15 to C-5.27): checked completely first, then carried out."""
    ruleset, state, seat = turn.rules, turn.state, turn.seat
    galleys = list(order.galleys)
    force = _sailing_force(ruleset, state, seat, order, galleys)
    _check_galleys_mp(ruleset, points, galleys, len(order.route))
    existing, loads = _cargo_loads(ruleset, points, order, galleys, force)
    carried = cargo_troops([*existing.values(), *loads.values()])
    coasts = {g: force.galley_coasts.get(g) if ruleset.board.is_land(order.start) else None for g in galleys}
    path = _chart(turn, order, galleys, coasts, carried)
    _embark(points, order.start, force, existing, loads)
    landed = _arrive(turn, points, order, force, path[-1], coasts, carried)
    state.area(order.start).prune()
    text = troops_text(carried) if carried != Troops() else ""
    turn.event("sailed", seat, galleys=sorted(galleys), path=path, cargo=text, landed=landed)
    note = " -> ".join(path)
    if text:
        note = (
            N_("%(path)s, landing %(troops)s", path=note, troops=text)
            if landed
            else N_("%(path)s, carrying %(troops)s", path=note, troops=text)
        )
    return note


def _sailing_force(ruleset: CoeRuleset, state: GameState, seat: str, order: Sail, galleys: list[int]) -> Force:
    """The mover's force where the named galleys lie (C-2.2, C-5.3, C-5.15, C-5.18); cargo does not leave a
    province holding others' combat units (C-5.9), though the galley itself may put out again (C-16.10)."""
    rule = ruleset.rule
    if not galleys:
        raise Rejected(rule("5.15"), N_("name the galleys that sail"))
    if len(set(galleys)) != len(galleys):
        raise Rejected(rule("5.3"), N_("a galley is named twice"))
    refuse_unknown_area(rule("2.2"), ruleset.board, order.start)
    here = state.areas.get(order.start)
    force = here.units.get(seat) if here else None
    for galley in galleys:
        if force is None or galley not in force.galleys:
            raise Rejected(
                rule("5.3"), N_("you have no galley %(galley)s in %(area)s", galley=galley, area=order.start)
            )
    assert force is not None
    if not order.route:
        raise Rejected(rule("5.18"), N_("the route names no destination"))
    if ruleset.board.is_land(order.start) and order.cargo is not None:
        refuse_pinned(rule("5.9"), state, seat, order.start)
    return force


def _check_galleys_mp(ruleset: CoeRuleset, points: MovementPoints, galleys: list[int], legs: int) -> None:
    """Each galley has the MP for every leg (C-5.18) and did not have to stop among others' galleys (O-5.28)."""
    rule = ruleset.rule
    for galley in galleys:
        if galley in points.stopped_galleys:
            raise Rejected(
                rule("5.19"),
                N_(
                    "galley %(galley)s entered a sea zone holding other players' galleys "
                    "this turn and must end its movement there",
                    galley=galley,
                ),
            )
        if points.galley_left(galley) < legs:
            raise Rejected(
                rule("5.2"),
                N_(
                    "galley %(galley)s has %(left)s MP left, the route needs %(cost)s (each leg costs 1 MP, %(rule)s)",
                    galley=galley,
                    left=points.galley_left(galley),
                    cost=legs,
                    rule=rule("5.18"),
                ),
            )


def _cargo_loads(
    ruleset: CoeRuleset, points: MovementPoints, order: Sail, galleys: list[int], force: Force
) -> tuple[dict[int, Cargo], dict[int, Cargo]]:
    """What the galleys carry already, and what boards them in a province (C-5.22 to C-5.25); at sea the cargo
    named must already be aboard (C-5.24)."""
    existing = {g: force.aboard.get(g, Cargo()) for g in galleys}
    loads: dict[int, Cargo] = {}
    if order.cargo is not None:
        if ruleset.board.is_land(order.start):
            _check_embarking(ruleset, points, order.start, force, order.cargo)
            loads = load_galleys(ruleset, galleys, existing, order.cargo)
        else:
            _check_aboard(ruleset, order.start, galleys, cargo_troops(list(existing.values())), order.cargo)
    return existing, loads


def _chart(turn: Turn, order: Sail, galleys: list[int], coasts: dict[int, str | None], carried: Troops) -> list[str]:
    """The route, leg by leg (C-5.18 to C-5.21): the areas it passes; `coasts` follows the coast each galley lies
    on (C-2.6)."""
    board = turn.rules.board
    path = [order.start]
    for number, to in enumerate(order.route, 1):
        current, last = path[-1], number == len(order.route)
        _check_leg(turn.rules, current, to)
        if board.is_land(current):
            _put_out(turn.rules, current, to, galleys, coasts)
        if not board.is_land(to):
            _check_sea_stop(turn, to, last)
        else:
            _check_landing(turn, to, last, carried)
            if len(board.coasts(to)) > 1:
                for galley in galleys:
                    coasts[galley] = board.coast_of(to, current)
        path.append(to)
    return path


def _check_leg(ruleset: CoeRuleset, current: str, to: str) -> None:
    """One leg joins adjacent areas, never two land provinces (C-2.2, C-5.18)."""
    board, rule = ruleset.board, ruleset.rule
    refuse_unknown_area(rule("2.2"), board, to)
    if board.is_land(current) and board.is_land(to):
        raise Rejected(
            rule("5.18"),
            N_(
                "a galley never moves from one land province to another (%(area)s to "
                "%(other)s), not even across a strait: it must put out to sea first",
                area=current,
                other=to,
            ),
        )
    refuse_not_adjacent(rule("5.18"), board, to, current)


def _put_out(ruleset: CoeRuleset, current: str, to: str, galleys: list[int], coasts: dict[int, str | None]) -> None:
    """A galley in a province puts out only into a sea zone of the coast it lies on (C-2.6, C-5.20)."""
    for galley in galleys:
        seas = _coast_seas(ruleset, current, coasts[galley])
        if to not in seas:
            raise Rejected(
                ruleset.rule("5.20"),
                N_(
                    "galley %(galley)s lies on the coast of %(area)s facing "
                    "%(seas)s and can put out only there, not into %(other)s",
                    galley=galley,
                    area=current,
                    seas=", ".join(sorted(seas)),
                    other=to,
                ),
            )
        coasts[galley] = None


def _check_sea_stop(turn: Turn, to: str, last: bool) -> None:
    """1984: galleys end their movement in a sea zone holding others' galleys (O-5.28)."""
    if stops_at_enemy_galleys(turn, to) and not last:
        raise Rejected(
            turn.rules.rule("5.19"),
            N_(
                "the galleys must end their movement in %(area)s, which holds %(seats)s's galleys",
                area=to,
                seats=", ".join(stops_at_enemy_galleys(turn, to)),
            ),
        )


def _check_landing(turn: Turn, to: str, last: bool, carried: Troops) -> None:
    """A galley enters another's province only to land combat units at the end of its route (C-5.21); a
    province holding others' combat units ends the route (C-5.9), and leaders alone do not land there (C-5.10)."""
    state, seat, rule = turn.state, turn.seat, turn.rules.rule
    landing = last and carried.units > 0
    owner = state.areas[to].owner if to in state.areas else None
    if owner not in (seat, None) and not landing:
        raise Rejected(
            rule("5.21"),
            N_(
                "%(area)s is controlled by %(seat)s: a galley enters it only to land "
                "combat units there, at the end of its route",
                area=to,
                seat=owner,
            ),
        )
    refuse_enemy_army(rule, state, seat, to, not last, bool(carried.leaders and not carried.units), by_sea=True)


def _embark(
    points: MovementPoints, start: str, force: Force, existing: dict[int, Cargo], loads: dict[int, Cargo]
) -> None:
    """The boarding pieces go aboard; they may make no land move this turn (C-5.24, C-5.25)."""
    for galley, load in loads.items():
        force.aboard[galley] = cargo = existing[galley]
        add_to(
            cargo,
            [*([0] if load.caesar else []), *load.generals],
            [k for k in UNIT_KINDS for _ in range(getattr(load, k))],
        )
        points.shipped_leaders.update(([0] if load.caesar else []) + load.generals)
        for kind in UNIT_KINDS:
            points.embark_units(start, kind, getattr(load, kind))


def _arrive(
    turn: Turn,
    points: MovementPoints,
    order: Sail,
    force: Force,
    destination: str,
    coasts: dict[int, str | None],
    carried: Troops,
) -> bool:
    """The galleys go to the end of the route with what they carry, spending 1 MP a leg (C-5.18); in a province
    the cargo goes ashore (C-5.24; a landing when combat units come). True when pieces landed."""
    board, seat = turn.rules.board, turn.seat
    target = turn.state.force(destination, seat)
    for galley in order.galleys:
        force.galleys.remove(galley)
        force.galley_coasts.pop(galley, None)
        cargo = force.aboard.pop(galley, Cargo())
        _shift(force, target, cargo)
        target.galleys.append(galley)
        coast = coasts[galley]
        if coast is not None:
            target.galley_coasts[galley] = coast
        if not cargo.is_empty():
            target.aboard[galley] = cargo
        points.galleys[galley] = points.galley_left(galley) - len(order.route)
        if stops_at_enemy_galleys(turn, destination):
            points.stopped_galleys.add(galley)
    turn.scratch.setdefault("entered_zones", set()).update(to for to in order.route if not board.is_land(to))
    if not board.is_land(destination):
        return False
    record_entry(turn, "by_sea", destination, carried)
    for galley in order.galleys:
        cargo = target.aboard.pop(galley, Cargo())
        points.shipped_leaders.update(([0] if cargo.caesar else []) + cargo.generals)
        for kind in UNIT_KINDS:
            points.disembark_units(destination, kind, getattr(cargo, kind))
    return carried != Troops()


def stops_at_enemy_galleys(turn: Turn, zone: str) -> list[str]:
    """1984 (O-5.28): the other players whose galleys lie in the sea zone `zone`; a galley entering it must end
    its movement there (and fight, O-6.2). Classic galleys pass freely (C-5.19): always empty."""
    ruleset = turn.rules
    if not ruleset.edition("galleys_stop_at_enemy") or ruleset.board.is_land(zone):
        return []
    area = turn.state.areas.get(zone)
    return sorted(s for s, f in area.units.items() if s != turn.seat and f.galleys) if area else []


def _shift(source: Force, target: Force, cargo: Cargo) -> None:
    """The pieces aboard a galley go with it from one area's force to another's."""
    if cargo.caesar:
        source.caesar, target.caesar = 0, 1
    for general in cargo.generals:
        source.generals.remove(general)
        target.generals.append(general)
    for kind in UNIT_KINDS:
        count = getattr(cargo, kind)
        setattr(source, kind, getattr(source, kind) - count)
        setattr(target, kind, getattr(target, kind) + count)


def disembark_in_provinces(turn: Turn) -> None:
    """End of Phase 1: pieces aboard a galley lying in a land province go ashore there (C-5.26)."""
    ruleset, areas = turn.rules, turn.state.areas
    loaded = [code for code, area in areas.items() if any(force.aboard for force in area.units.values())]
    for code in sorted(loaded):  # the others have nothing aboard to go ashore or to clear
        if not ruleset.board.is_land(code):
            continue
        for seat, force in sorted(areas[code].units.items()):
            for galley, cargo in sorted(force.aboard.items()):
                if not cargo.is_empty():
                    turn.event(
                        "disembarked",
                        seat,
                        area=code,
                        galleys=[galley],
                        troops=troops_text(cargo_troops([cargo])),
                        rule=ruleset.rule("5.26"),
                    )
            force.aboard.clear()
