"""The sealed plans step of a round: every seat's one mail for New Year answers, Politics,
Preparation and standing orders, resolved in this order:

1. the New Year answers: ORDER by the hourglass holder (ER-4.4.2, ER-14.3), DYNASTY (ER-11.5, ER-14.4);
2. the standing orders (DEFENCE, LOSSES, EXCESS, RETREAT, REINFORCE, BLOCK, CASUALTIES, CAPITAL, FREEMEN) are
   stored, private to the seat (a defensive plan names its cards, ER-14.14), and kept until changed;
3. coin transfers (ER-0.7, ER-14.20), in turn order;
4. Politics in turn order (politics.py, ER-5.4 to ER-5.24), then the extra actions (ER-5.6);
5. Preparation in turn order (preparation.py, ER-6, ER-5.32, ER-5.33).
A seat that sends nothing gets ER-14's defaults: pass, recruit nothing, store food if allowed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from adjudicator.engine.vocabulary import N_, Event, OrderResult, visible_to
from adjudicator.orders.sets import Answer, Language, Press
from adjudicator.rulesets.conqueror import politics, preparation
from adjudicator.rulesets.conqueror.data import GameData, Options
from adjudicator.rulesets.conqueror.effects_apply import apply_trigger
from adjudicator.rulesets.conqueror.orders import (
    AgentAction,
    BlockFilter,
    CasualtyOrder,
    DefencePlan,
    Dynasty,
    Food,
    FreeMen,
    LossPriority,
    Pay,
    RecruitElite,
    RecruitHero,
    RecruitUnits,
    Reinforce,
    RetreatPriority,
    TemporaryCapital,
    TurnOrder,
    canonical,
)
from adjudicator.rulesets.conqueror.rounds import CAMPAIGN, chosen_turn_order, may_trigger_dynasty, phase_begins
from adjudicator.rulesets.conqueror.state import DYNASTY_ACTIVE, GameState

STANDING = (
    DefencePlan,
    LossPriority,
    RetreatPriority,
    Reinforce,
    BlockFilter,
    CasualtyOrder,
    TemporaryCapital,
    FreeMen,
)
HANDLED = (AgentAction, Food, RecruitUnits, RecruitElite, RecruitHero, TurnOrder, Dynasty, Pay, Press, Language)
FALLBACK_NOTE = N_(
    "judged as the position stands now; alternatives are tried again when the seat's turn comes (ER-14.6)"
)


def orders_of(orders: Any | None) -> tuple[Any, ...]:
    """The orders of an order set (or of a plain sequence)."""
    return tuple(getattr(orders, "orders", orders) or ())


def play_plans(
    state: GameState, data: GameData, options: Options, orders: Mapping[str, Any | None], last: str | None = None
) -> tuple[list[Event], dict[str, list[OrderResult]]]:
    """Resolve the plans step in place; the events and every seat's verdicts (in the order of its lines). With
    `last`, Preparation stops after that seat's (a check of its orders: the seats after it cannot change them)."""
    given = {faction: orders_of(orders.get(faction)) for faction in state.in_play()}
    results: dict[str, list[OrderResult]] = {faction: [] for faction in given}
    events = phase_begins(state, data)  # ER-11.1: a temporary capital due is placed as the step begins
    events += new_year_answers(state, data, options, given, results)
    for faction in state.in_play():
        events += store_standing(state, faction, given[faction], results[faction])
    for faction in state.in_play():
        events += pay_coins(state, faction, given[faction], results[faction])
    events += politics.play_politics(state, data, given, results)
    events += preparation.play_preparation(state, data, given, results, last)
    for faction, sent in given.items():
        results[faction] += [_other(order) for order in sent if not isinstance(order, (*STANDING, *HANDLED))]
        results[faction] += [OrderResult(o.line, o.text, True) for o in sent if isinstance(o, (Press, Language))]
    state.phase, state.campaign_index = CAMPAIGN, 0
    return events, {faction: sorted(found, key=lambda r: r.line) for faction, found in results.items()}


def check_plans(
    state: GameState, data: GameData, options: Options, faction: str, orders: Any | None
) -> list[OrderResult]:
    """A seat's verdicts as if the step resolved now with no other seat's orders (nothing is stored)."""
    # Preparation goes in turn order and each seat's verdicts are made in its own (ER-6): the seats after this one
    # need not prepare for its verdicts to be known
    _, results = play_plans(state.copy(), data, options, {faction: orders}, last=faction)
    agent_lines = _agent_lines(orders)
    return [_noted(result) if result.line in agent_lines else result for result in results[faction]]


def _agent_lines(orders: Any | None) -> set[int]:
    """The lines of the agent action and the extra action that count (a later AGENT line is refused, ER-5.4)."""
    agents = [o for o in orders_of(orders) if isinstance(o, AgentAction)]
    return {next(o for o in agents if o.extra == extra).line for extra in {o.extra for o in agents}}


def _noted(result: OrderResult) -> OrderResult:
    reason = (
        N_(
            "%(reason)s; judged as the position stands now; "
            "alternatives are tried again when the seat's turn comes (ER-14.6)",
            reason=result.reason,
        )
        if result.reason
        else FALLBACK_NOTE
    )
    return OrderResult(result.line, result.text, result.accepted, reason, result.rule)


def _other(order: Any) -> OrderResult:
    """Orders that belong to another step: refused, naming where they belong."""
    if isinstance(order, Answer):
        return OrderResult(order.line, order.text, False, N_("no decision of this step has that key"), "ER-14")
    where = (
        N_("the campaign step (ER-7)")
        if type(order).__name__ in ("Move", "Transport")
        else N_("before round 1 (ER-3.11)")
    )
    return OrderResult(
        order.line, order.text, False, N_("this order belongs to %(where)s, not the plans step", where=where), "ER-4.1"
    )


# -- New Year answers (ER-4.4.2, ER-11.5, ER-14.3, ER-14.4) --------------------------------------------------------


def new_year_answers(
    state: GameState,
    data: GameData,
    options: Options,
    given: dict[str, Sequence[Any]],
    results: dict[str, list[OrderResult]],
) -> list[Event]:
    """ORDER from the hourglass holder sets this round's turn order; DYNASTY triggers a seat's dynasty card."""
    events: list[Event] = []
    for faction in list(state.in_play()):
        for order in (o for o in given[faction] if isinstance(o, TurnOrder)):
            events += _turn_order(state, faction, order, results[faction])
    for faction in state.in_play():  # ER-4.4.5: in the turn order now set
        for order in (o for o in given[faction] if isinstance(o, Dynasty)):
            if not may_trigger_dynasty(state, data, options, faction):
                why = N_("once per game, from its first round, with at most 1 large and 2 small forts")
                results[faction].append(OrderResult(order.line, order.text, False, why, "ER-11.5"))
                continue
            state.players[faction].dynasty = DYNASTY_ACTIVE
            results[faction].append(OrderResult(order.line, order.text, True))
            events.append(Event("dynasty_triggered", faction, {"round": state.round}))
            front = [(f"{faction} dynasty", e) for e in data.factions[faction].dynasty]  # its bonuses, at once
            events += apply_trigger(state, data, faction, "immediate", front)
    return events


def _turn_order(state: GameState, faction: str, order: TurnOrder, results: list[OrderResult]) -> list[Event]:
    if faction != state.hourglass:
        results.append(OrderResult(order.line, order.text, False, N_("only the hourglass holder sets it"), "ER-4.4.2"))
        return []
    wish = list(order.seats)
    if chosen_turn_order(state, wish) != wish:
        why = N_("it must name every player in play once")
        results.append(OrderResult(order.line, order.text, False, why, "ER-4.4.2"))
        return []
    state.turn_order = wish + [f for f in state.turn_order if f not in wish]  # eliminated seats stay out of play
    results.append(OrderResult(order.line, order.text, True))
    return [Event("turn_order_set", faction, {"order": list(state.in_play())})]


# -- standing orders (ER-14.11 to ER-14.19, ER-14.5, ER-14.8) ------------------------------------------------------


def standing_key(order: Any) -> str:
    """Where a standing order is kept: a later order with the same key replaces it."""
    if isinstance(order, DefencePlan):
        return f"DEFENCE@{order.area}" if order.area else "DEFENCE"
    if isinstance(order, LossPriority):
        return order.scope.upper()
    if isinstance(order, RetreatPriority):
        return ("RETREAT-SHIPS" if order.ships else "RETREAT") + (f"@{order.origin}" if order.origin else "")
    if isinstance(order, Reinforce):
        return "REINFORCE" if order.never else f"REINFORCE@{order.seat}/{order.origin}"
    names = {BlockFilter: "BLOCK", CasualtyOrder: "CASUALTIES", TemporaryCapital: "CAPITAL", FreeMen: "FREEMEN"}
    return names[type(order)]


def store_standing(state: GameState, faction: str, orders: Sequence[Any], results: list[OrderResult]) -> list[Event]:
    """Keep the seat's standing orders (canonical English lines) until it changes them; REINFORCE NEVER clears
    every standing reinforcement."""
    standing = state.players[faction].standing
    lines = []
    for order in (o for o in orders if isinstance(o, STANDING)):
        key = standing_key(order)
        if isinstance(order, Reinforce) and order.never:
            for old in [k for k in standing if k.startswith("REINFORCE@")]:
                del standing[old]
        standing[key] = canonical(order, "en")
        lines.append(standing[key])
        results.append(OrderResult(order.line, order.text, True, N_("kept as a standing order until changed")))
    if not lines:
        return []
    return [Event("standing_orders_kept", faction, {"orders": lines}, visible_to([faction]))]


# -- coin transfers (ER-0.7, ER-14.20) ------------------------------------------------------------------------------


def pay_coins(state: GameState, faction: str, orders: Sequence[Any], results: list[OrderResult]) -> list[Event]:
    events = []
    for order in (o for o in orders if isinstance(o, Pay)):
        player = state.players[faction]
        if order.to == faction or order.to not in state.players or state.players[order.to].eliminated:
            why = N_("%(to)s is no other player in play", to=order.to)
            results.append(OrderResult(order.line, order.text, False, why, "ER-0.7"))
        elif player.coins < order.coins:
            why = N_("%(faction)s holds %(coins)s coins", faction=faction, coins=player.coins)
            results.append(OrderResult(order.line, order.text, False, why, "ER-0.7"))
        else:
            player.coins -= order.coins
            state.players[order.to].coins += order.coins
            results.append(OrderResult(order.line, order.text, True))
            events.append(Event("coins_paid", faction, {"to": order.to, "coins": order.coins}))
    return events
