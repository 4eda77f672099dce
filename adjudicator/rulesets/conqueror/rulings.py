"""Decisions of the campaign step (ER-14: answer > standing order > default; Decisions.take) and the `manual`
battle effect (ER-13.6) that must be ruled on before the battle's result. The ruling (given by the moderator
for the card's owner, key `manual.<card>.<effect key>`) is `none` or one battle effect `strength N`,
`casualties N`, `shields N` for the owner's side; without an answer the documented default applies: the effect
does nothing. In ask mode such a decision is also listed as pending (the engine's decisions mechanism, as
Conquest of the Empire's decisions.py does it)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, TypeVar

from adjudicator.engine.vocabulary import N_, Event
from adjudicator.rulesets.conqueror.battle_types import Pending
from adjudicator.rulesets.conqueror.data import Effect, Effects
from adjudicator.rulesets.conqueror.vocabulary import Trigger

RULED_OPS: Final = ("strength", "casualties", "shields")  # what a ruling may be, besides none
NO_EFFECT: Final = "none"


T = TypeVar("T")


class BadAnswer(ValueError):
    """An answer that cannot be read or does not fit its decision; the reason names the rule."""


@dataclass(kw_only=True)
class Decisions:
    """The answers to a step's decisions, ask mode, the decisions already settled (their waiting time is over),
    and the decisions still to ask (`pending`, each with the event and the roll it arose at)."""

    answers: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    ask: bool = False
    settled: frozenset[tuple[str, str]] = frozenset()
    pending: list[dict[str, Any]] = field(default_factory=list)

    def answer(self, seat: str, key: str) -> str | None:
        return self.answers.get(seat, {}).get(key)

    def take(
        self,
        need: Need,
        standing: T | None,
        default: T,
        read: Callable[[str], T],
        where: tuple[int, int],
    ) -> tuple[T, list[Event]]:
        """One decision (ER-14): the answer, else the standing order, else the default (asked in ask mode unless
        settled). `where`: the index the first event returned will have in the step, and the rolls made so far.
        Returns the choice and its events: a refused answer, then the decision (every decision is an event)."""
        events: list[Event] = []
        text = self.answer(need.seat, need.key)
        if text is not None:
            try:
                value = read(text)
                events.append(need.event(text, "answer"))
                return value, events
            except BadAnswer as bad:
                data = {"key": need.key, "answer": text, "reason": str(bad)}
                events.append(Event("answer_refused", need.seat, data, visible_to=need.visible))  # the seat's mail
        if standing is not None:
            return standing, [*events, need.event(need.show(standing), "standing order")]
        if self.ask and (need.seat, need.key) not in self.settled:
            self.pending.append(
                {
                    "seat": need.seat,
                    "key": need.key,
                    "question": need.question,
                    "default": need.show(default),
                    "rule": need.rule,
                    "event": where[0] + len(events),
                    "rolls": where[1],
                }
            )
        return default, [*events, need.event(need.show(default), "default")]


@dataclass(frozen=True)
class Need:
    """A decision of ER-14 that a seat takes: its key (the ANSWER line names it), the question, the rule and how a
    choice is written (`show`: as the answer's order line)."""

    seat: str
    key: str
    question: str
    rule: str
    show: Callable[[Any], str] = str

    @property
    def visible(self) -> frozenset[str]:
        """Only the seat sees its decision: its source and choice would tell its standing orders (private, state.py
        PRIVATE_FIELDS); the others see what the decision does (the battle, the capital placed)."""
        return frozenset({self.seat})

    def event(self, choice: str, source: str) -> Event:
        data = {"key": self.key, "question": self.question, "choice": choice, "source": source, "rule": self.rule}
        return Event("decision", self.seat, data, visible_to=self.visible)


def key_of(pending: Pending) -> str:
    return f"manual.{pending.source}.{pending.key}"


def read_ruling(text: str, effect_key: str) -> Effects:
    """`none`, or `strength N` / `casualties N` / `shields N` (N a whole number, strength may be negative)."""
    words = text.strip().casefold().split()
    if words == [NO_EFFECT]:
        return ()
    if len(words) != 2 or words[0] not in RULED_OPS or not words[1].lstrip("-").isdigit():
        raise BadAnswer(
            N_(
                "%(answer)s: a ruling is none, or one of %(ops)s with a number (ER-13.6)",
                answer=repr(text),
                ops=", ".join(RULED_OPS),
            )
        )
    n = int(words[1])
    if words[0] != "strength" and n < 0:
        raise BadAnswer(N_("%(answer)s: %(op)s cannot be negative (ER-13.6)", answer=repr(text), op=words[0]))
    when = "battle.casualties" if words[0] != "strength" else "battle.melee"
    return (Effect(words[0], {"n": n}, Trigger(when), key=f"{effect_key}.ruled"),)


def rule_on(
    pendings: tuple[Pending, ...],
    answers: Mapping[str, Mapping[str, str]],
    ask: bool,
    settled: frozenset[tuple[str, str]],
    asked: list[dict[str, Any]],
    events_so_far: int,
    rolls: int,
) -> tuple[dict[str, Effects], list[Event]]:
    """The rulings for the blocking `manual` effects: the answer, else the default (no effect), listed as
    pending in ask mode. Every ruling is a public event naming its source."""
    rulings: dict[str, Effects] = {}
    events: list[Event] = []
    for pending in pendings:
        key = key_of(pending)
        answer = answers.get(pending.player, {}).get(key)
        source = "default"
        rulings[pending.key] = ()
        if answer is not None:
            try:
                rulings[pending.key], source = read_ruling(answer, pending.key), "answer"
            except BadAnswer as bad:
                events.append(
                    Event("answer_refused", pending.player, {"key": key, "answer": answer, "reason": str(bad)})
                )
        if source == "default" and ask and (pending.player, key) not in settled:
            asked.append(
                {
                    "seat": pending.player,
                    "key": key,
                    "question": f"{pending.source}: {pending.text}",
                    "default": NO_EFFECT,
                    "rule": "ER-13.6",
                    "event": events_so_far + len(events),
                    "rolls": rolls,
                }
            )
        data = {
            "source": pending.source,
            "text": pending.text,
            "key": key,
            "ruling": answer if source == "answer" else NO_EFFECT,
            "from": source,
        }
        events.append(Event("battle_manual_ruled", pending.player, data))
    return rulings, events
