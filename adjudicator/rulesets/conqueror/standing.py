"""The standing orders of battle (ER-14.11 to ER-14.19) as the battle reads them: a seat's defence plan, loss
priority, casualty order, retreat priorities, Free Men and reinforcements, from the lines the plans step keeps
(`Player.standing`: canonical order lines by key, plans.py), else the defaults of ER-14.

A standing plan naming a card the seat no longer holds plays the rest of it (ER-14.14: the cards held)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from adjudicator.orders.sets import Order
from adjudicator.rulesets.conqueror import battle_types as bt
from adjudicator.rulesets.conqueror.data import GameData
from adjudicator.rulesets.conqueror.orders import (
    BattlePlan,
    CasualtyOrder,
    DefencePlan,
    FreeMen,
    LossPriority,
    Reinforce,
    RetreatPriority,
)
from adjudicator.rulesets.conqueror.state import GameState

_LANGUAGES: dict[int, tuple[GameData, Any]] = {}  # id(data) -> (data, its OrderLanguage): parsed once per edition


def language(data: GameData) -> Any:
    from adjudicator.rulesets.conqueror.parse import OrderLanguage

    kept = _LANGUAGES.get(id(data))
    if kept is None or kept[0] is not data:
        kept = _LANGUAGES[id(data)] = (data, OrderLanguage(data))
    return kept[1]


def standing_orders(state: GameState, data: GameData, faction: str) -> list[Order]:
    """The seat's standing orders, parsed from the lines kept in the state (none kept: none)."""
    lines = list(getattr(state.players[faction], "standing", {}).values())
    if not lines:
        return []
    text = "\n".join([f"GAME {state.game} TURN 1 PLAYER {faction} PASSWORD x", *lines])
    return list(_parsed(language(data), text))


@lru_cache(maxsize=256)
def _parsed(language: Any, text: str) -> tuple[Order, ...]:
    """The orders of `text` (frozen: one parse serves every battle and check that reads the same lines)."""
    from adjudicator.orders import parse_orders

    return tuple(parse_orders(text, language).orders)


def defence_plan(state: GameState, data: GameData, faction: str, area: str) -> bt.Plan:
    """ER-14.14 (SO): the plan for `area`, else the general one, else play nothing; ER-14.15: Free Men."""
    orders = standing_orders(state, data, faction)
    plans = [o for o in orders if isinstance(o, DefencePlan)]
    chosen = next((o.plan for o in plans if o.area == area), None) or next(
        (o.plan for o in plans if o.area is None), BattlePlan()
    )
    free_men = any(isinstance(o, FreeMen) and o.use for o in orders) or chosen.free_men
    return playable(state, faction, chosen, free_men)


def playable(state: GameState, faction: str, plan: BattlePlan, free_men: bool) -> bt.Plan:
    """The cards of `plan` the seat can still play: recruited heroes not used twice, tactic cards in hand."""
    player = state.players[faction]
    heroes = tuple(h for h in dict.fromkeys(plan.heroes) if h in player.heroes_down or h in player.heroes_up)
    hand = list(player.hand)
    tactics = []
    for card in plan.tactics:
        if card in hand:
            hand.remove(card)
            tactics.append(card)
    return bt.Plan(heroes, tuple(tactics), free_men=free_men)


def battle_standing(state: GameState, data: GameData, faction: str, area: str) -> bt.Standing:
    """ER-14.13, ER-14.16 to ER-14.19 (SO) for a battle in `area`: loss priority, casualty order, retreat lists
    (the one for this area first, else the general one)."""
    orders = standing_orders(state, data, faction)
    losses = next((o.kinds for o in orders if isinstance(o, LossPriority) and o.scope == "losses"), bt.LOSS_PRIORITY)
    assign = next((o.seats for o in orders if isinstance(o, CasualtyOrder)), ())
    retreats = [o for o in orders if isinstance(o, RetreatPriority)]

    def targets(ships: bool) -> tuple[str, ...]:
        mine = [o for o in retreats if o.ships == ships]
        here = next((o.targets for o in mine if o.origin == area), None)
        return here if here is not None else next((o.targets for o in mine if o.origin is None), ())

    return bt.Standing(tuple(losses), tuple(assign), targets(False), targets(True))


def reinforcements(state: GameState, data: GameData, faction: str, area: str | None = None) -> list[Reinforce]:
    """ER-14.12 (SO): the seat's standing reinforcements (REINFORCE NEVER: none); defending in `area`, the
    reinforcement of its defence plan there comes first (ER-14.14)."""
    orders = standing_orders(state, data, faction)
    found = [o for o in orders if isinstance(o, Reinforce)]
    own: list[Reinforce] = []
    if area is not None:
        plans = [o for o in orders if isinstance(o, DefencePlan)]
        plan = next((o.plan for o in plans if o.area == area), None) or next(
            (o.plan for o in plans if o.area is None), None
        )
        if plan is not None and plan.reinforce is not None:
            own = [Reinforce(faction, plan.reinforce.origin, plan.reinforce.troops)]
    return own + ([] if any(o.never for o in found) else found)
