"""Conquest mode's purchases before round 1 (ER-3.11, ER-14.2): each player may buy up to 2 civil districts or unit
upgrades with the 10 coins of setup.

By mail this is one sealed "purchases" step between setup and round 1, in Conquest mode only: every seat sends its
BUY line at once (none: it buys nothing, ER-14.2's default). The step then takes the seats one by one in seating
order from the start player (Carthage, ER-3.9, ER-3.10), each seat's items in the order written, so the shared
supply (district cards, ER-15.12; fort markers, ER-5.13) goes to the earlier buyer as at the table. This replaces
ER-14.2's pending decision in turn without changing any outcome, except that a player cannot react to what an
earlier buyer took.

Prices and conditions are politics.py's (ER-3.11's Resolution): the player's nth build of a district type (ER-5.16)
or nth upgrade of a unit type (ER-5.22), without the second-space surcharge, as no agent is placed; a free slot,
no upgrade owned twice, a fort on a controlled land area without a fort (ER-5.13, ER-5.14, ER-5.20, ER-5.23).
Unspent coins are kept. A purchase is a build: it counts for later prices, and effects that trigger on a build
apply (ER-13.6).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from adjudicator.engine.vocabulary import N_, Event, OrderResult
from adjudicator.orders.keywords import in_english, written
from adjudicator.orders.sets import Language, Press
from adjudicator.rulesets.conqueror import rounds
from adjudicator.rulesets.conqueror.data import GameData, Options
from adjudicator.rulesets.conqueror.orders import Build, Purchase, Upgrade
from adjudicator.rulesets.conqueror.plans import orders_of
from adjudicator.rulesets.conqueror.politics import Refused, build_district, buy_upgrade
from adjudicator.rulesets.conqueror.state import GameState

MAX_PURCHASES: Final = 2  # ER-3.11
CHECK_NOTE: Final = N_("judged as the position stands now; players before you in seating order buy first (ER-3.11)")


def buying_order(state: GameState) -> list[str]:
    """ER-3.11: the players in seating order (ER-3.10), starting with the start player (ER-3.9)."""
    seating = [f for f in state.seating if f in state.in_play()]
    start = seating.index(state.hourglass) if state.hourglass in seating else 0
    return seating[start:] + seating[:start]


def play_purchases(
    state: GameState, data: GameData, options: Options, orders: Mapping[str, Any | None]
) -> tuple[list[Event], dict[str, list[OrderResult]]]:
    """Resolve the purchases step in place, then begin round 1; the events and every seat's verdicts."""
    given = {faction: orders_of(orders.get(faction)) for faction in state.in_play()}
    results: dict[str, list[OrderResult]] = {faction: [] for faction in given}
    events: list[Event] = []
    for faction in buying_order(state):
        events += buy(state, data, faction, given[faction], results[faction])
    for faction, sent in given.items():
        results[faction] += [_elsewhere(order) for order in sent if not isinstance(order, (Purchase, Press, Language))]
        results[faction] += [OrderResult(o.line, o.text, True) for o in sent if isinstance(o, (Press, Language))]
    state.phase = rounds.first_phase(state, options)
    return events, {faction: sorted(found, key=lambda r: r.line) for faction, found in results.items()}


def check_purchases(
    state: GameState, data: GameData, options: Options, faction: str, orders: Any | None
) -> list[OrderResult]:
    """A seat's verdicts as if the step resolved now with no other seat's orders (nothing is stored)."""
    _, results = play_purchases(state.copy(), data, options, {faction: orders})
    buys = {o.line for o in orders_of(orders) if isinstance(o, Purchase)}
    return [_noted(r) if r.line in buys else r for r in results[faction]]


def buy(
    state: GameState, data: GameData, faction: str, orders: Sequence[Any], results: list[OrderResult]
) -> list[Event]:
    """The seat's first BUY line, item by item in the order written, each with its own verdict (as a BUY order of
    any game); a later BUY line is refused (ER-3.11: 2 items in all)."""
    lines = [order for order in orders if isinstance(order, Purchase)]
    for later in lines[1:]:
        why = N_(
            "one %(kw_buy)s line before round 1, of at most %(most)s items: line %(line)s is the one",
            most=MAX_PURCHASES,
            line=lines[0].line,
            **in_english("buy"),
        )
        results.append(OrderResult(later.line, later.text, False, why, "ER-3.11"))
    if not lines:
        return []
    events: list[Event] = []
    for item in lines[0].items:
        text = f"{written('en', 'BUY')} {item.text(_english)}"
        try:
            bought = _one(state, data, faction, item)
        except Refused as no:
            results.append(OrderResult(lines[0].line, text, False, no.reason, no.rule))
            continue
        events += bought
        coins = state.players[faction].coins
        paid = N_("%(price)s coins paid, %(coins)s left (ER-3.11)", price=bought[0].data["price"], coins=coins)
        results.append(OrderResult(lines[0].line, text, True, paid))
    return events


def _english(name: str) -> str:
    return written("en", name)


def _one(state: GameState, data: GameData, faction: str, item: Build | Upgrade) -> list[Event]:
    """One purchase at ER-3.11's price: no agent space, so no surcharge (politics.py's checks and build)."""
    if isinstance(item, Build):
        return build_district(state, data, faction, item, None)
    return buy_upgrade(state, data, faction, item, None)


def _elsewhere(order: Any) -> OrderResult:
    """Orders of round 1's steps: refused, naming what this step takes."""
    why = N_(
        "before round 1 only %(kw_buy)s orders are taken (and %(kw_press)s); send the others with the plans of round 1",
        **in_english("buy", "press"),
    )
    return OrderResult(order.line, order.text, False, why, "ER-3.11")


def _noted(result: OrderResult) -> OrderResult:
    reason = (
        N_(
            "%(reason)s; judged as the position stands now; players before you in seating order buy first (ER-3.11)",
            reason=result.reason,
        )
        if result.reason
        else CHECK_NOTE
    )
    return OrderResult(result.line, result.text, result.accepted, reason, result.rule)
