"""Where an action can reach on the map (EAW-2.1, EAW-2.3): ordinary adjacency with its connection kinds, the
Mediterranean rule, and what a connection crosses (the rolls of EAW-7.2 and EAW-7.3).

Which adjacency each action uses:
- attacks (EAW-7.1): ordinary adjacency, or the Mediterranean rule (EAW-2.3);
- diplomacy (EAW-7.10 to 7.12): option `diplomacy_reach`: `mediterranean` (ordinary adjacency and the
  Mediterranean rule) | `land_only` (land, mountain and strait borders that are not sea lanes);
- trade (EAW-7.30) and setup (EAW-3.9): ordinary adjacency only, never the Mediterranean rule.

Makes no events. The refusals that the map alone decides (`unknown_area`, `unreachable`, `not_a_province`) serve
the actions' checks now (attack.py, diplomacy.py, trade.py, forts_control.py) and the receipts' checks for good
(checks.py) alike."""

from __future__ import annotations

from dataclasses import dataclass

from adjudicator.engine.vocabulary import N_, Rejected
from adjudicator.rulesets.empires.data import (
    LAND,
    MOUNTAIN,
    ROLLED_CROSSINGS,
    SEA_LANE,
    STRAIT,
    GameMap,
)
from adjudicator.rulesets.empires.state import GameState

MEDITERRANEAN = "mediterranean"  # the kind a route by the Mediterranean rule crosses (EAW-2.3)
LAND_KINDS = frozenset({LAND, MOUNTAIN, STRAIT})  # diplomacy_reach = land_only (EAW-7.12)


@dataclass(frozen=True)
class Route:
    """How an action gets from `origin` to `target`: the connection's kinds, the sea a sea lane crosses, and
    whether it is the Mediterranean rule (EAW-2.3; then `kinds` is {"mediterranean"})."""

    origin: str
    target: str
    kinds: frozenset[str]
    sea: str | None = None
    mediterranean: bool = False

    @property
    def rolled_crossing(self) -> bool:
        """EAW-7.2: a mountain border or a strait: a 2+ roll first."""
        return bool(self.kinds & ROLLED_CROSSINGS)

    @property
    def sea_lane(self) -> bool:
        """EAW-7.3: a sea connection (blue line)."""
        return SEA_LANE in self.kinds


def in_mediterranean(game_map: GameMap, area: str) -> bool:
    """EAW-2.3: a province bordering the Mediterranean, or one of its three sea areas."""
    found = game_map.areas.get(area)
    return found is not None and (found.mediterranean_coast or found.mediterranean)


def mediterranean_link(game_map: GameMap, origin: str, target: str) -> bool:
    """EAW-2.3, EAW-7.3: two different areas of the Mediterranean (coastal provinces and its three seas) count as
    adjacent for an attack."""
    return origin != target and in_mediterranean(game_map, origin) and in_mediterranean(game_map, target)


def ordinary_route(game_map: GameMap, origin: str, target: str) -> Route | None:
    """EAW-2.1: the connection of two areas as the data give it, or None."""
    link = game_map.connection(origin, target)
    if link is None or origin == target:
        return None
    return Route(origin, target, link.kinds, link.sea)


def attack_route(game_map: GameMap, origin: str, target: str) -> Route | None:
    """EAW-7.1: the ordinary connection when there is one, else the Mediterranean rule (EAW-2.3), else None."""
    found = ordinary_route(game_map, origin, target)
    if found is not None:
        return found
    if mediterranean_link(game_map, origin, target):
        return Route(origin, target, frozenset({MEDITERRANEAN}), mediterranean=True)
    return None


def unknown_area(game_map: GameMap, area: str) -> Rejected | None:
    """EAW-2.1: an area the data's map does not know."""
    if area in game_map.areas:
        return None
    return Rejected("EAW-2.1", N_("%(area)s is not an area of the map", area=area))


def unreachable(game_map: GameMap, origin: str, target: str) -> Rejected | None:
    """EAW-2.3: no connection and no Mediterranean rule from `origin` to `target` (attack_route is None)."""
    if attack_route(game_map, origin, target) is not None:
        return None
    return Rejected(
        "EAW-2.3",
        N_(
            "%(target)s is not adjacent to %(origin)s, not even by the Mediterranean rule", target=target, origin=origin
        ),
    )


def not_a_province(game_map: GameMap, area: str) -> Rejected | None:
    """EAW-2.5: forts stand only in provinces (an unknown area is no province either)."""
    found = game_map.areas.get(area)
    if found is not None and found.is_province:
        return None
    return Rejected("EAW-2.5", N_("%(area)s is not a province: forts are built only in provinces", area=area))


def diplomacy_route(game_map: GameMap, origin: str, target: str, reach: str) -> Route | None:
    """EAW-7.12: with `diplomacy_reach` = mediterranean as an attack reaches; with land_only across land, mountain
    and strait borders that are not sea lanes."""
    if reach == "mediterranean":
        return attack_route(game_map, origin, target)
    found = ordinary_route(game_map, origin, target)
    if found is None or found.sea_lane or not found.kinds <= LAND_KINDS:
        return None
    return found


def touches(game_map: GameMap, area: str, others: set[str] | list[str]) -> bool:
    """EAW-2.1, EAW-7.30: `area` is one of `others` or next to one of them (ordinary adjacency)."""
    held = set(others)
    return area in held or any(n in held for n in game_map.neighbours(area))


def provinces_of(state: GameState, game_map: GameMap, seat: str) -> list[str]:
    """The provinces `seat` controls (sea areas are not provinces, EAW-2.8), sorted by id."""
    return [a for a in state.controlled(seat) if game_map.areas[a].is_province]


def is_last_province(state: GameState, game_map: GameMap, area: str) -> bool:
    """EAW-2.8: `area` is its controller's only controlled province."""
    owner = state.controller(area)
    return owner is not None and provinces_of(state, game_map, owner) == [area]
