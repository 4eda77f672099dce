"""Standing battle plans (EAW-12.4 to EAW-12.8): kept in the player's private `standing` (state.py) as JSON, until
the player replaces them. An order for one area comes before the player's order for every area ("*")."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from adjudicator.rulesets.empires.orders import AmbushOrder, DefendOrder, LossesOrder, MarkersOrder, StackOrder
from adjudicator.rulesets.empires.state import Player

if TYPE_CHECKING:
    from adjudicator.rulesets.empires.data import GameData

ANY = "*"
SIDES = ("attack", "defend")  # EAW-12.6: a STACK plan's sides


def store(player: Player, order: Any) -> bool:
    """Keep one standing order (replacing the one it supersedes); False for an order that is not one."""
    standing = player.standing
    if isinstance(order, DefendOrder):
        standing.setdefault("defend", {})[order.area or ANY] = "siege" if order.siege else "open"
    elif isinstance(order, AmbushOrder):
        standing.setdefault("ambush", {})[order.area or ANY] = order.ambush
    elif isinstance(order, StackOrder):
        standing.setdefault("stacks", {})[f"{order.situation or ANY}.{order.side or ANY}"] = list(order.cards)
    elif isinstance(order, MarkersOrder):
        standing["markers"] = "push" if order.push else "pull"
    elif isinstance(order, LossesOrder):
        standing["losses"] = list(order.cards)
    else:
        return False
    return True


def _by_area(player: Player, key: str, area: str) -> Any:
    table = player.standing.get(key, {})
    return table.get(area, table.get(ANY))


def defends_with_siege(player: Player, area: str) -> bool | None:
    """EAW-12.4: True for a siege, False for an open battle, None without a standing order."""
    found = _by_area(player, "defend", area)
    return None if found is None else found == "siege"


def lays_ambush(player: Player, area: str) -> bool | None:
    """EAW-12.5: the standing order for an ambush in `area`, None without one."""
    return _by_area(player, "ambush", area)


def stack_plan(player: Player, situation: str, side: str) -> tuple[str, ...] | None:
    """EAW-12.6: the standing stack (card ids, top first) for a battle type ("open", "siege", "naval") and side
    ("attack", "defend"): the most specific one given, None without one."""
    stacks = player.standing.get("stacks", {})
    for key in (f"{situation}.{side}", f"{situation}.{ANY}", f"{ANY}.{side}", f"{ANY}.{ANY}"):
        if key in stacks:
            return tuple(stacks[key])
    return None


def stack_refusal(data: GameData, player: Player, order: StackOrder, free_order: bool) -> str | None:
    """EAW-8.21: why a battle would refuse the standing STACK plan `order` with the player's hand as it stands, in a
    battle type and side it is the plan for (`stack_plan`: a more specific plan comes first); None when none would."""
    from adjudicator.rulesets.empires.battle_stacks import SIZES, refusal

    for kind in (order.situation,) if order.situation else tuple(SIZES):
        for side in (order.side,) if order.side else SIDES:
            if stack_plan(player, kind, side) != tuple(order.cards):
                continue
            why = refusal(data, player.hand, kind, order.cards, free_order)
            if why is not None:
                return why
    return None


def marker_plan(player: Player) -> str | None:
    """EAW-12.7: "push" or "pull", None without a standing order."""
    return player.standing.get("markers")


def loss_priority(player: Player) -> tuple[str, ...]:
    """EAW-12.8: card ids in the order the player gives them up (empty: the default)."""
    return tuple(player.standing.get("losses", ()))
