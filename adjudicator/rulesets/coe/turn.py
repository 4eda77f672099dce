"""Conquest of the Empire's player-turn: resolve(ruleset, state, orders, dice, answers) -> TurnResult, the case
of one seat per step (the game-neutral step function is adjudicator/engine/steps.py `resolve_step`; CoE's
`play_step` calls this); the services reach it only through the protocol.

No I/O, no clock, no global randomness: the same inputs give the same outputs, byte for byte.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from adjudicator.engine.chance import Dice
from adjudicator.engine.steps import NotDue
from adjudicator.engine.vocabulary import Event, OrderResult, Rejected
from adjudicator.rulesets.coe.orders import Order, OrderSet
from adjudicator.rulesets.coe.state import GameState

if TYPE_CHECKING:
    from adjudicator.engine.decisions import Pending
    from adjudicator.rulesets.coe.ruleset import CoeRuleset

__all__ = ["NotDue", "Turn", "TurnResult", "coming_turns", "next_seat", "resolve", "schedule"]


@dataclass
class Turn:
    """The working context of one player-turn: a copy of the state plus what the turn produced."""

    rules: CoeRuleset
    state: GameState
    seat: str
    orders: tuple[Order, ...]
    dice: Dice
    answers: Mapping[str, Mapping[str, str]]  # seat -> decision key -> answer text
    ask: bool = False  # a decision with no answer and no standing order is pending (else: default)
    settled: frozenset[tuple[str, str]] = frozenset()  # (seat, key) asked too long ago: the default, not pending
    events: list[Event] = field(default_factory=list)
    results: list[OrderResult] = field(default_factory=list)
    pending: list[Pending] = field(default_factory=list)  # decisions to ask (engine/decisions.py take)
    scratch: dict[str, Any] = field(default_factory=dict)  # the ruleset's bookkeeping within this turn

    @property
    def decisions_rule(self) -> str:
        """The rule of this edition's decisions (C-15, O-14), for the engine's take (an Asking)."""
        return self.rules.decisions_rule

    def event(self, kind: str, seat: str | None = None, **data: Any) -> None:
        self.events.append(Event(kind, seat, data))

    def accept(self, order: Order, note: str = "", text: str | None = None) -> None:
        self.results.append(OrderResult(order.line, text or order.text, True, note))

    def reject(self, order: Order, rule: str, reason: str, text: str | None = None) -> None:
        self.results.append(OrderResult(order.line, text or order.text, False, reason, rule))

    def attempt(self, order: Order, action: Callable[[], str | None], text: str | None = None) -> bool:
        """Run one order's action; a Rejected check becomes the order's verdict and changes nothing."""
        try:
            note = action()
        except Rejected as no:
            self.reject(order, no.rule, no.reason, text)
            return False
        self.accept(order, note or "", text)
        return True

    def of_kind(self, *kinds: type[Order]) -> list[Order]:
        return [o for o in self.orders if isinstance(o, kinds)]


@dataclass
class TurnResult:
    state: GameState
    events: list[Event]
    order_results: list[OrderResult]
    pending: list[Pending]
    dice: list[tuple[str, int]]


def resolve(
    rules: CoeRuleset,
    state: GameState,
    orders: OrderSet | None,
    dice: Dice,
    answers: Mapping[str, Mapping[str, str]] | None = None,
    ask: bool = False,
    *,
    in_place: bool = False,
    settled: frozenset[tuple[str, str]] = frozenset(),
) -> TurnResult:
    """Resolve the active seat's player-turn with its orders (None: no orders received).

    `answers` are players' answers to decisions (seat -> key -> text). With `ask`, a decision that has
    neither an answer nor a standing order is listed in `pending` (the default is used meanwhile), so
    that the caller can ask the player and resolve again from the same inputs. `settled` decisions (seat, key)
    were asked and their waiting time is over: they take the default without being pending again.

    The turn is played on a copy of `state`; with `in_place`, on `state` itself, which the turn changes:
    for a caller that never uses `state` again (`pbem verify` replays each turn from a freshly loaded
    position), so that the copy is saved.
    """
    if state.active is None:
        raise NotDue(f"game {state.game} has ended; there is no turn to resolve")
    seat = state.active
    if orders is not None and orders.header is not None and orders.header.player != seat:
        raise NotDue(f"orders are for {orders.header.player}, but the player-turn due is {seat}'s")
    turn = Turn(
        rules,
        state if in_place else state.copy(),
        seat,
        orders.orders if orders else (),
        dice,
        answers or {},
        ask,
        settled=settled,
    )
    rules.play_turn(turn)
    turn.results.sort(key=lambda r: r.line)
    return TurnResult(turn.state, turn.events, turn.results, turn.pending, list(dice.log))


def next_seat(state: GameState) -> tuple[str | None, bool]:
    """The seat after the active one in turn order, skipping eliminated seats; and whether a round ends."""
    seats = list(state.players)
    start = seats.index(state.active) if state.active in seats else -1
    for step in range(1, len(seats) + 1):
        index = (start + step) % len(seats)
        if not state.players[seats[index]].eliminated:
            return seats[index], start + step >= len(seats)
    return None, True


def schedule(state: GameState) -> list[tuple[int, str]]:
    """The coming player-turns of the current round: (turn number, seat), starting with the active seat."""
    if state.active is None:
        return []
    seats = [s for s in state.players if not state.players[s].eliminated]
    order = list(state.players)
    rest = [s for s in seats if order.index(s) >= order.index(state.active)]
    return [(state.turn + 1 + i, s) for i, s in enumerate(rest)]


def coming_turns(state: GameState) -> dict[str, int]:
    """Each seat still in play -> the number of its next player-turn (this round or the next)."""
    coming = {seat: number for number, seat in schedule(state)}
    last = max(coming.values(), default=state.turn)
    for seat in state.players:
        if seat not in coming and not state.players[seat].eliminated:
            last += 1
            coming[seat] = last
    return coming
