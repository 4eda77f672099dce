"""Movement in the campaign turn (ER-7, ER-12.11, ER-12.12): whether a MOVE or TRANSPORT order may be carried out
now, and what each step of it is (occupation, joining own units, or an attack, ER-2.4 and ER-7.4).

The checks read the state only; campaign.py carries the moves out, one order at a time in the order written
(ER-7.11). A Thoroughbred second move (ER-7.3, ER-15.8) is written as a two-step path in one order.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from adjudicator.engine.vocabulary import N_
from adjudicator.rulesets.conqueror.data import GameData
from adjudicator.rulesets.conqueror.effects_triggers import attack_forbidden, twice_kinds
from adjudicator.rulesets.conqueror.orders import Move, Transport, Troops
from adjudicator.rulesets.conqueror.state import INDEPENDENT, Army, GameState, capital_owner

MOVED: Final = ("cavalry", "infantry", "archer", "elite", "ship", "siege")  # ER-0.3
OCCUPY, JOIN, ATTACK = "occupy", "join", "attack"
SHIP_CAPACITY: Final = 2  # ER-12.12's Resolution: 2 units per ship


@dataclass(frozen=True)
class Refusal:
    """Why an order cannot be carried out, with the rule that says so."""

    rule: str
    reason: str


def wanted(troops: Troops) -> dict[str, int]:
    """The units an order names, by kind (the elite as one unit of kind `elite`)."""
    units = {kind: troops.of(kind) for kind in ("cavalry", "infantry", "archer", "ship", "siege")}
    units["elite"] = int(troops.elite)
    return {kind: n for kind, n in units.items() if n}


def active(army: Army | None, kind: str) -> int:
    """ER-7.2: the units of `kind` that may still move this turn."""
    if army is None:
        return 0
    return army.count(kind) - army.exhausted.get(kind, 0)


def kind_of_step(state: GameState, data: GameData, seat: str, area: str) -> str:
    """ER-2.4, ER-7.4: entering `area` joins own units, occupies an empty uncontrolled area, or is an attack
    (units of another faction or an independent army; another player's capital without units, ER-15.1)."""
    side = data.map_for(state.players_count)
    army = state.army.get(area)
    if army is not None and army.total > 0:
        return JOIN if army.owner == seat else ATTACK
    owner = capital_owner(state, side, area)
    return ATTACK if owner is not None and owner != seat else OCCUPY


def thoroughbred_units(state: GameState, data: GameData, seat: str) -> frozenset[str]:
    """ER-7.3: the kinds that may move twice: cavalry with Thoroughbred, the elite too if it is cavalry."""
    player = state.players[seat]
    granted = twice_kinds(state, data, seat)  # ER-13.6 move_twice (effects_triggers.py)
    if "thoroughbred" not in player.upgrades:
        return granted
    board = data.factions[seat].board(player.board) or data.factions[seat].standard
    return granted | frozenset({"cavalry", "elite"} if "cavalry" in board.elite.types else {"cavalry"})


def check_units(
    state: GameState, seat: str, start: str, units: dict[str, int], spare: Mapping[str, int] | None = None
) -> Refusal | None:
    """Own, active units in `start` (ER-7.2); `spare`: exhausted Thoroughbred units there that moved once this
    turn and may move once more (ER-7.3, ER-15.8)."""
    if not units:
        return Refusal("ER-7.2", N_("the order moves no unit"))
    army = state.army.get(start)
    if army is None or army.owner != seat:
        return Refusal("ER-7.2", N_("%(seat)s has no units in %(start)s", seat=seat, start=start))
    for kind, n in units.items():
        if army.count(kind) < n:
            return Refusal(
                "ER-7.2",
                N_(
                    "%(start)s holds %(count)s %(kind)s of %(seat)s, not %(n)s",
                    start=start,
                    count=army.count(kind),
                    kind=kind,
                    seat=seat,
                    n=n,
                ),
            )
        free = active(army, kind) + (spare or {}).get(kind, 0)
        if free < n:
            return Refusal(
                "ER-7.2",
                N_("only %(free)s %(kind)s in %(start)s are active (not exhausted)", free=free, kind=kind, start=start),
            )
    return None


def check_move(
    state: GameState, data: GameData, seat: str, order: Move, spare: Mapping[str, int] | None = None
) -> Refusal | None:
    """A MOVE or ATTACK order: own active units (or `spare` ones, check_units), each step to an adjacent area
    (ER-2.1, ER-2.2: river and bridges count), a second step only for Thoroughbred cavalry (ER-7.3) that have not
    moved yet this turn, ships only at sea (ER-12.11)."""
    side = data.map_for(state.players_count)
    units = wanted(order.troops)
    for area in (order.start, *order.path):
        if area not in side.areas:
            return Refusal("ER-2.1", N_("%(area)s is not an area of the %(side)s board", area=area, side=side.side))
    refused = check_units(state, seat, order.start, units, spare)
    if refused is not None:
        return refused
    if len(order.path) > 2:
        return Refusal("ER-7.2", N_("a unit moves one area per move, two with Thoroughbred (ER-7.3)"))
    if len(order.path) == 2:
        slow = sorted(set(units) - thoroughbred_units(state, data, seat))
        if slow:
            return Refusal(
                "ER-7.3", N_("only Thoroughbred cavalry may move twice; not %(kinds)s", kinds=", ".join(slow))
            )
        army = state.army[order.start]
        if any(active(army, kind) < n for kind, n in units.items()):
            return Refusal(
                "ER-7.3", N_("units in %(start)s that moved once this turn have one move left", start=order.start)
            )
    here = order.start
    for area in order.path:  # ER-15.8: a second step after an attack follows only if it is won (campaign.py)
        if area not in side.board.neighbours(here):
            return Refusal("ER-7.2", N_("%(area)s is not adjacent to %(other)s", area=area, other=here))
        if units.get("ship") and side.areas[area].land:
            return Refusal("ER-12.11", N_("ships move only into sea areas, not into %(area)s", area=area))
        here = area
    return None


def check_transport(state: GameState, data: GameData, seat: str, order: Transport) -> Refusal | None:
    """ER-12.12: an active ship of the seat in `sea` carries up to 2 units per ship from land `start` next to
    `sea` to land `end` next to it, as one move."""
    side = data.map_for(state.players_count)
    for area in (order.start, order.sea, order.end):
        if area not in side.areas:
            return Refusal("ER-2.1", N_("%(area)s is not an area of the %(side)s board", area=area, side=side.side))
    if side.areas[order.sea].land or not side.areas[order.start].land or not side.areas[order.end].land:
        return Refusal("ER-12.12", N_("a transport goes from a land area over a sea area to a land area"))
    for area in (order.start, order.end):
        if area not in side.board.neighbours(order.sea):
            return Refusal("ER-12.12", N_("%(area)s is not adjacent to %(other)s", area=area, other=order.sea))
    units = wanted(order.troops)
    if units.get("ship"):
        return Refusal("ER-12.12", N_("ships carry units; they are not carried"))
    refused = check_units(state, seat, order.start, units)
    if refused is not None:
        return refused
    fleet = state.army.get(order.sea)
    ships = active(fleet, "ship") if fleet is not None and fleet.owner == seat else 0
    if ships == 0:
        return Refusal("ER-12.12", N_("%(seat)s has no active ship in %(sea)s", seat=seat, sea=order.sea))
    if sum(units.values()) > SHIP_CAPACITY * ships:
        return Refusal(
            "ER-12.12",
            N_("%(ships)s ship(s) carry at most %(capacity)s units", ships=ships, capacity=SHIP_CAPACITY * ships),
        )
    return None


def take(state: GameState, area: str, units: dict[str, int]) -> None:
    """Lift `units` (active ones) out of `area`; an army left with no unit is gone."""
    army = state.army[area]
    for kind, n in units.items():
        army.add(kind, -n)
    if army.total == 0:
        del state.army[area]


def put(state: GameState, area: str, owner: str, units: dict[str, int], exhausted: dict[str, int]) -> None:
    """Place `units` of `owner` in `area`; `exhausted` of them are exhausted (ER-7.2). ER-2.4: the area holds
    no other owner's units (the caller made sure)."""
    units = {k: n for k, n in units.items() if n > 0}
    if not units:
        return
    army = state.army.get(area)
    if army is None or army.total == 0:
        army = state.army[area] = Army(owner)
    assert army.owner == owner, f"ER-2.4: {owner} entering {area} held by {army.owner}"
    for kind, n in units.items():
        army.add(kind, n)
        tired = min(n, exhausted.get(kind, 0))
        if tired:
            army.exhausted[kind] = army.exhausted.get(kind, 0) + tired


def exhaust(state: GameState, area: str, units: dict[str, int]) -> None:
    """Exhaust `units` of the army in `area` (reinforcing, ER-8.6; ships that transported, ER-12.12)."""
    army = state.army.get(area)
    if army is None:
        return
    for kind, n in units.items():
        army.exhausted[kind] = min(army.count(kind), army.exhausted.get(kind, 0) + n)


def ready(state: GameState, seat: str) -> None:
    """ER-7.1, ER-7.6: at the end of its campaign turn the player's units (only its own) are readied."""
    for army in state.army.values():
        if army.owner == seat:
            army.exhausted.clear()


def attack_ban(state: GameState, data: GameData, seat: str, area: str) -> Refusal | None:
    """ER-7.7, ER-5.10b, ER-15.4, ER-15.5: after trading with a player the seat may not attack it this round
    (unless that player attacked it first, which lifts the ban); after trading with the Independent Nations it
    may not attack an independent army."""
    if kind_of_step(state, data, seat, area) != ATTACK:
        return None
    bans = getattr(state.players[seat], "trade_bans", [])
    army = state.army.get(area)
    held_by = (
        army.owner if army is not None and army.total else capital_owner(state, data.map_for(state.players_count), area)
    )
    if held_by is not None and attack_forbidden(
        state, data, seat, "independents" if held_by == INDEPENDENT else "faction"
    ):
        return Refusal(
            "ER-13.6",
            N_("an effect in force forbids %(seat)s this attack on %(area)s this round", seat=seat, area=area),
        )
    if held_by == INDEPENDENT and "independents" in bans:
        return Refusal(
            "ER-15.5",
            N_("%(seat)s traded with the Independent Nations this round: no attack on %(area)s", seat=seat, area=area),
        )
    if held_by in bans:
        return Refusal(
            "ER-5.10b",
            N_(
                "%(seat)s traded with %(held_by)s this round and may not attack it (ER-15.4)",
                seat=seat,
                held_by=held_by,
            ),
        )
    return None
