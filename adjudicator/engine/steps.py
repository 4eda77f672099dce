"""Steps: what is due in a game, the order sets a step collects, and the game-neutral step function.

A game is a sequence of steps. A step in turn order is one seat's (Conquest of the Empire's player-turn); a
sealed step has several seats who order at once: it waits for all of them (or the deadline), keeps each seat's
orders from every other seat until it resolves, and resolves them together (DESIGN.md, "The core").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from adjudicator.engine.vocabulary import Event, OrderResult
from adjudicator.errors import PbemError

if TYPE_CHECKING:
    from adjudicator.engine.chance import Dice
    from adjudicator.engine.decisions import Pending
    from adjudicator.engine.protocol import Ruleset


@dataclass(frozen=True)
class Step:
    """One step of a game: its number (1 for the first), its phase, the seats that order in it, and whether
    they order sealed (all at once) or, for a single seat, in turn order. Steps of the phase SETUP that no seat
    orders in (shuffles, a deal) are resolved when the game is created, so that its first reports show them."""

    number: int
    phase: str
    seats: tuple[str, ...]
    sealed: bool = False


SETUP = "setup"  # the phase of the steps resolved with the game's creation


@dataclass
class StepResult:
    """What resolving a step gives: the new state, the events in order, the verdicts on each seat's orders,
    the decisions still to be asked, and the dice log (purpose, value)."""

    state: Any
    events: list[Event]
    order_results: dict[str, list[OrderResult]]
    pending: list[Pending] = field(default_factory=list)
    dice: list[tuple[str, int]] = field(default_factory=list)


class NotDue(PbemError, ValueError):
    """Orders for a step, or a seat, that is not the one being resolved."""


class StepNotReady(PbemError, ValueError):
    """A sealed step asked to resolve while seats still owe orders and the deadline has not passed."""


@dataclass
class StepOrders:
    """The order sets one step collects, one per seat; the latest set a seat sends replaces its earlier one."""

    step: Step
    received: dict[str, Any] = field(default_factory=dict)

    def submit(self, seat: str, orders: Any) -> None:
        if seat not in self.step.seats:
            raise NotDue(f"{seat} does not order in step {self.step.number} ({self.step.phase})")
        self.received[seat] = orders

    @property
    def waiting_for(self) -> tuple[str, ...]:
        """The seats whose orders are still missing, in the step's order."""
        return tuple(seat for seat in self.step.seats if seat not in self.received)

    def visible_to(self, seat: str) -> dict[str, Any]:
        """The order sets `seat` may read before the step resolves: only its own (in a sealed step nobody may see
        another's orders first; in a player-turn they are the mover's until the report shows what they did)."""
        return {seat: self.received[seat]} if seat in self.received else {}

    def for_resolution(self, deadline_passed: bool = False) -> dict[str, Any | None]:
        """Every seat of the step -> its orders (None: it sent none). A sealed step resolves once every seat's
        orders are in, or the deadline has passed; one seat's step resolves with what it has."""
        if self.step.sealed and self.waiting_for and not deadline_passed:
            raise StepNotReady(
                f"step {self.step.number} ({self.step.phase}) still waits for {', '.join(self.waiting_for)}"
            )
        return {seat: self.received.get(seat) for seat in self.step.seats}


def resolve_step(
    ruleset: Ruleset,
    state: Any,
    step: Step,
    orders_by_seat: Mapping[str, Any | None],
    chance: Dice,
    answers: Mapping[str, Mapping[str, str]] | None = None,
    *,
    ask: bool = False,
    settled: frozenset[tuple[str, str]] = frozenset(),
    in_place: bool = False,
) -> StepResult:
    """Resolve the step due in `state` with one order set per seat of the step (a seat left out, or None: it
    sent none). Pure: the ruleset plays the step on a copy of `state` (on `state` itself with `in_place`)."""
    due = ruleset.due(state)
    if due is None:
        raise NotDue("the game has ended; there is no step to resolve")
    if step != due:
        raise NotDue(f"step {step.number} ({step.phase}) is not the one due: step {due.number} ({due.phase})")
    strangers = sorted(seat for seat in orders_by_seat if seat not in step.seats)
    if strangers:
        raise NotDue(f"{', '.join(strangers)} do(es) not order in step {step.number} ({step.phase})")
    orders = {seat: orders_by_seat.get(seat) for seat in step.seats}
    return ruleset.play_step(state, step, orders, chance, answers or {}, ask=ask, settled=settled, in_place=in_place)
