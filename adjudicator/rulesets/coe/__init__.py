"""Conquest of the Empire: one player-turn as the six phases of C-4.2, each a named step."""

from __future__ import annotations

from adjudicator.engine.orders import (
    BattleOrder,
    Buy,
    Captives,
    Concede,
    DestroyCity,
    FreedTo,
    Homes,
    NavalBattle,
    Order,
    Press,
    Priority,
    RansomAccept,
    RansomOffer,
    RetreatRule,
)
from adjudicator.engine.turn import Turn, next_seat
from adjudicator.engine.vocabulary import NotSupportedYet
from adjudicator.rulesets.coe.economy import buy, collect_tribute, destroy_city, refresh_tribute, start_inflation
from adjudicator.rulesets.coe.movement import conquer_empty_provinces, movement_phase
from adjudicator.rulesets.coe.setup import initial_state

__all__ = ["initial_state", "play_turn"]

STANDING = (Priority, RetreatRule, Captives, FreedTo)

# Orders the parser understands whose rules come with the next version: (rule number, what).
NOT_YET: dict[type[Order], tuple[str, str]] = {
    NavalBattle: ("7.1", "naval battles"),
    BattleOrder: ("6.2", "land battles and their order"),
    RansomOffer: ("13.1", "ransom agreements"),
    RansomAccept: ("13.1", "ransom agreements"),
    Concede: ("14.2", "concession"),
}


def play_turn(turn: Turn) -> None:
    """One player-turn (C-4.2): the phases in order, every phase gone through even if empty (C-4.4)."""
    record_standing_orders(turn)
    start_inflation(turn)
    movement_phase(turn)
    conquer_empty_provinces(turn)
    combat_phase(turn)
    collect_tribute(turn)
    destroy_cities_phase(turn)
    buy_and_place_phase(turn)
    relay_press(turn)
    reject_unsupported(turn)
    end_turn(turn)


def record_standing_orders(turn: Turn) -> None:
    """Standing orders are kept until replaced and answer decisions outside one's turn (C-15)."""
    standing = turn.state.players[turn.seat].standing
    for order in turn.of_kind(*STANDING):
        if isinstance(order, Priority):
            standing[order.kind] = list(order.values)
        elif isinstance(order, RetreatRule):
            rules = [r for r in standing.get("retreat", []) if r.get("from") != order.origin]
            rules.append({"from": order.origin, "condition": order.condition, "threshold": order.threshold,
                          "to": list(order.destinations)})
            standing["retreat"] = rules
        elif isinstance(order, Captives):
            standing.setdefault("captives", {})[order.owner or "*"] = order.choice
        elif isinstance(order, FreedTo):
            standing["freed"] = list(order.areas)
        turn.accept(order, "standing order recorded")
        turn.event("standing_order", turn.seat, text=order.text)
    for order in turn.of_kind(Homes):
        turn.reject(order, turn.rules.rule("15.1"), "home provinces are assigned when the game is created")


def combat_phase(turn: Turn) -> None:
    """Phase 2 (C-6, C-7). Moves that would start a battle are rejected in this version, so none arise."""
    turn.event("phase", turn.seat, number=2, name="combat")


def destroy_cities_phase(turn: Turn) -> None:
    """Phase 4 (C-10)."""
    turn.event("phase", turn.seat, number=4, name="destroy cities")
    for order in turn.of_kind(DestroyCity):
        turn.attempt(order, lambda order=order: destroy_city(turn, order))


def buy_and_place_phase(turn: Turn) -> None:
    """Phases 5 and 6 (C-11, C-12): each item is bought and placed at once, in the order written."""
    turn.event("phase", turn.seat, number=5, name="buy and place")
    for order in turn.of_kind(Buy):
        buy(turn, order)


def relay_press(turn: Turn) -> None:
    """Press goes into the reports: broadcasts publicly, the rest to the addressee only (C-15.19)."""
    for order in turn.of_kind(Press):
        turn.event("press", turn.seat, to=order.to, message=order.message)
        turn.accept(order, "relayed" if order.to is None else f"relayed to {order.to}")


def reject_unsupported(turn: Turn) -> None:
    for order in turn.orders:
        known = NOT_YET.get(type(order))
        if known:
            number, what = known
            no = NotSupportedYet(turn.rules.rule(number), f"{what} are not supported yet by this adjudicator")
            turn.reject(order, no.rule, no.reason)


def end_turn(turn: Turn) -> None:
    """Hand the turn to the next seat in turn order (C-4.1)."""
    state = turn.state
    refresh_tribute(turn)
    state.turn += 1
    following, new_round = next_seat(state)
    state.active = following
    if new_round:
        state.round += 1
    turn.event("turn_end", turn.seat, next=following, round=state.round)


