"""What every rule of a step works with: the state (changed in place), the game's data and options, the dice, the
events so far and the decisions (answer, standing order, default: engine/decisions.py). One `Play` per step.

Dice (EAW-0.4, EAW-0.5): `succeeds(purpose, needed, bonus)` rolls one d6 and judges it "n+" by the option
`threshold`; each roll is an event, public, naming its purpose and the rule."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from adjudicator.engine.chance import Dice
from adjudicator.engine.decisions import Decision, Taken, take
from adjudicator.engine.decisions import Pending as PendingDecision
from adjudicator.engine.vocabulary import Event, visible_to
from adjudicator.rulesets.empires.data import Card, Effect, GameData, Options
from adjudicator.rulesets.empires.state import GameState

T = TypeVar("T")
DECISIONS_RULE = "EAW-12"


@dataclass
class Play:
    state: GameState
    data: GameData
    options: Options
    dice: Dice
    answers: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    ask: bool = False
    settled: frozenset[tuple[str, str]] = frozenset()
    events: list[Event] = field(default_factory=list)
    pending: list[PendingDecision] = field(default_factory=list)

    @property
    def decisions_rule(self) -> str:
        return DECISIONS_RULE

    # -- events -----------------------------------------------------------------------------------------------------
    def say(self, kind: str, seat: str | None = None, /, **data: Any) -> Event:
        """A public event."""
        event = Event(kind, seat, dict(data))
        self.events.append(event)
        return event

    def tell(
        self, seats: str | list[str] | tuple[str, ...], kind: str, seat: str | None = None, /, **data: Any
    ) -> Event:
        """An event only `seats` may read (a hand, a drawn card, a stack before it is revealed)."""
        event = Event(kind, seat, dict(data), visible_to([seats] if isinstance(seats, str) else seats))
        self.events.append(event)
        return event

    # -- dice -------------------------------------------------------------------------------------------------------
    def roll(self, purpose: str, rule: str, seat: str | None = None, faces: int = 6) -> int:
        """One die, reported (public); the dice keep the step's log (StepResult.dice)."""
        value = self.dice.roll(purpose, faces)
        self.say("roll", seat, purpose=purpose, value=value, rule=rule)
        return value

    def succeeds(self, purpose: str, needed: int, rule: str, seat: str | None = None, bonus: int = 0) -> bool:
        """EAW-0.4: one d6 plus `bonus` against "needed+" (`threshold` ge), or "more than needed" (gt)."""
        value = self.dice.roll(purpose, 6)
        total = value + bonus
        passed = total >= needed if self.options.threshold == "ge" else total > needed
        self.say(
            "roll",
            seat,
            purpose=purpose,
            value=value,
            bonus=bonus,
            needed=needed,
            threshold=self.options.threshold,
            success=passed,
            rule=rule,
        )
        return passed

    def pick(self, purpose: str, items: list[T], *, hidden: bool = False) -> T:
        """One of `items` at random (a uniform draw; one candidate draws nothing, EAW-8.8)."""
        if len(items) == 1:
            return items[0]
        value = self.dice.roll(purpose, len(items), hidden=hidden)
        return items[value - 1]

    def shuffle(self, items: list[T], purpose: str, *, hidden: bool = True) -> list[T]:
        """A shuffle from the same stream (DESIGN.md "Randomness"); hidden by default: a deck's order is secret."""
        return self.dice.shuffle(items, purpose, hidden=hidden)

    # -- decisions (EAW-12) -----------------------------------------------------------------------------------------
    def decide(
        self,
        seat: str,
        key: str,
        question: str,
        rule: str,
        default: T,
        standing: T | None = None,
        read: Callable[[str], T] | None = None,
        choices: tuple[str, ...] = (),
        show: Callable[[T], str] = str,
        position: Callable[[], Any] | None = None,
    ) -> T:
        """Answer, else standing order, else default (engine/decisions.py take); the decision events are the
        seat's alone (its choice would tell its plans). `position`: what a pending one keeps (engine Pending). A choice
        may be answered in any language's keyword for it (SCHIEBE, TIRA, JA)."""
        if choices and read is None:
            read = in_english  # type: ignore[assignment]
        decision = Decision(
            seat=seat,
            key=key,
            question=question,
            rule=rule,
            default=default,
            standing=standing,
            read=read,
            choices=choices,
            show=show,
            visible_to=frozenset({seat}),
        )
        taken: Taken[T] = take(decision, self, (len(self.events), len(self.dice.log)), position)
        self.events += taken.events
        return taken.value

    # -- what a player holds ----------------------------------------------------------------------------------------
    def cards_of(self, seat: str) -> list[Card]:
        return [self.data.card(i) for i in self.state.players[seat].hand]

    def personalities_of(self, seat: str) -> list[Card]:
        return [self.data.card(i) for i in self.state.players[seat].personalities]

    def has_personality(self, seat: str, kind: str) -> bool:
        return any(c.personality == kind for c in self.personalities_of(seat))

    def effects_of(self, seat: str, code: str) -> list[Effect]:
        """EAW-11.6: the effects `code` of the player's face-up personalities."""
        return [e for c in self.personalities_of(seat) for e in c.effects if e.code == code]

    def roll_bonus(self, seat: str, roll: str) -> int:
        """EAW-11.6 roll_mod: what the player's personalities add to a roll of that kind."""
        return sum(e.number() for e in self.effects_of(seat, "roll_mod") if e.args.get("roll") == roll)


def in_english(text: str) -> str:
    """A one-word answer as the game's English choice: a keyword of any language ("SCHIEBE" -> "push"), else as
    written."""
    from adjudicator.orders.keywords import keyword_of
    from adjudicator.rulesets.empires.loader import RULESET

    word = text.strip()
    name = keyword_of(RULESET).get(word.casefold())
    return name.lower() if name is not None else word
