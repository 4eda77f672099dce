"""The refusals that MOVE and SAIL orders share (Phase 1, C-5): one check each, so that the same fault gets the
same words whichever order shows it. Each raises Rejected; the wording is stored in archives, so it never changes.
"""

from __future__ import annotations

from collections.abc import Callable

from adjudicator.engine.vocabulary import N_, Rejected
from adjudicator.rulesets.coe.board import CoeBoard
from adjudicator.rulesets.coe.orders import Troops
from adjudicator.rulesets.coe.state import GameState
from adjudicator.rulesets.coe.vocabulary import leader_name


def enemy_armies(state: GameState, code: str, seat: str) -> list[str]:
    """Other players with combat units in `code` (they stop movement there, C-5.9)."""
    area = state.areas.get(code)
    return sorted(s for s, f in area.units.items() if s != seat and f.units) if area else []


def refuse_unknown_area(rule: str, board: CoeBoard, code: str) -> None:
    """Every area an order names is one of the board's (C-2.2)."""
    if code not in board.areas:
        raise Rejected(rule, N_("%(area)s is not an area of the board", area=code))


def refuse_sea(rule: str, code: str) -> None:
    """Land pieces never enter a sea zone by land (C-5.17)."""
    raise Rejected(rule, N_("%(area)s is a sea zone: land pieces go to sea only aboard a galley", area=code))


def refuse_not_adjacent(rule: str, board: CoeBoard, code: str, other: str, land: bool = False) -> None:
    """A step goes to an adjacent area (by land: across a land border, C-2.2; a galley's leg, C-5.18)."""
    neighbours = board.land_neighbours(other) if land else board.adjacency[other]
    if code not in neighbours:
        raise Rejected(rule, N_("%(area)s is not adjacent to %(other)s", area=code, other=other))


def refuse_pinned(rule: str, state: GameState, seat: str, code: str) -> None:
    """Pieces in a province holding other players' combat units stay there (C-5.9)."""
    enemies = enemy_armies(state, code, seat)
    if enemies:
        raise Rejected(
            rule,
            N_(
                "your pieces in %(area)s must stay there: it holds %(seats)s's combat units",
                area=code,
                seats=", ".join(enemies),
            ),
        )


def refuse_leader_twice(rule: str, leaders: tuple[int, ...]) -> None:
    """A leader is one piece: an order names him once (C-5.3)."""
    if len(set(leaders)) != len(leaders):
        raise Rejected(rule, N_("a leader is named twice"))


def refuse_absent_leader(rule: str, leader: int, present: Troops, area: str, embarking: bool = False) -> None:
    """A leader the order names is ashore in `area` (moving: C-5.3; boarding a galley there: C-5.24)."""
    if leader in present.leaders:
        return
    name = leader_name(leader)
    raise Rejected(
        rule,
        N_("your %(leader)s is not in %(area)s to embark there", leader=name, area=area)
        if embarking
        else N_("your %(leader)s is not in %(area)s", leader=name, area=area),
    )


def refuse_missing_units(
    rule: str, kind: str, wanted: int, present: Troops, area: str, embarking: bool = False
) -> None:
    """The order names no more units of `kind` than are ashore in `area` (moving: C-5.3; boarding: C-5.24)."""
    have = getattr(present, kind)
    if wanted <= have:
        return
    raise Rejected(
        rule,
        N_("you have only %(count)s %(kind)s in %(area)s to embark", count=have, kind=kind, area=area)
        if embarking
        else N_("you have only %(count)s %(kind)s in %(area)s", count=have, kind=kind, area=area),
    )


def refuse_leaderless(rule: str, troops: Troops, where: str | None = None) -> None:
    """Combat units move only with a leader (C-5.5); `where`: the place pieces dropped on the way go on from."""
    if troops.units and not troops.leaders:
        raise Rejected(
            rule,
            N_("combat units move only together with a leader")
            if where is None
            else N_("the combat units going on from %(area)s have no leader with them", area=where),
        )


def refuse_too_many_units(rule: str, troops: Troops, per_leader: int, where: str | None = None) -> None:
    """A leader moves at most 7 combat units (C-5.6); `where`: the place pieces dropped on the way go on from."""
    most = per_leader * len(troops.leaders)
    if troops.units <= most:
        return
    raise Rejected(
        rule,
        N_(
            "%(leaders)s leader(s) can move at most %(most)s combat units, not %(units)s",
            leaders=len(troops.leaders),
            most=most,
            units=troops.units,
        )
        if where is None
        else N_(
            "%(leaders)s leader(s) can move at most %(limit)s combat units on from %(area)s, not %(count)s",
            leaders=len(troops.leaders),
            limit=most,
            area=where,
            count=troops.units,
        ),
    )


def refuse_enemy_army(
    rule: Callable[[str], str], state: GameState, seat: str, to: str, going_on: bool, alone: bool, by_sea: bool
) -> None:
    """Other players' combat units in `to` end a move or a galley route there (C-5.9), and leaders without combat
    units neither enter nor land there (C-5.10); `alone`: the pieces arriving are leaders only. A MOVE is refused
    for the leaders first, a SAIL for the stop first."""
    enemies = enemy_armies(state, to, seat)
    if not enemies:
        return
    seats = ", ".join(enemies)
    if by_sea:
        stop = N_("the galleys must stop in %(area)s, which holds %(seats)s's combat units", area=to, seats=seats)
        leaders = N_(
            "leaders without combat units may not land in %(area)s, held by %(seats)s's combat units",
            area=to,
            seats=seats,
        )
    else:
        stop = N_("the move must stop in %(area)s, which holds %(seats)s's combat units", area=to, seats=seats)
        leaders = N_(
            "leaders without combat units may not enter %(area)s, held by %(seats)s's combat units",
            area=to,
            seats=seats,
        )
    checks = [(going_on, "5.9", stop), (alone, "5.10", leaders)]
    for refused, rule_id, reason in checks if by_sea else checks[::-1]:
        if refused:
            raise Rejected(rule(rule_id), reason)
