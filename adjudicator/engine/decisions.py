"""Decisions taken outside one's own turn (DESIGN.md "Decisions made outside one's own turn"): the seat's answer,
else its standing order, else the documented default. A ruleset declares each decision it needs (`Decision`: who
decides, the question and its key, the default, the standing order that applies, how an answer is read, the rule)
and one `take` makes it, for every game. Every decision taken is an event naming its source; in ask mode one that
fell to its default is also pending, so that the seat can be asked and the step resolved again from the same
inputs (until its waiting time is over: then it is settled and takes the default)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, Protocol, TypeVar, cast

from adjudicator.engine.vocabulary import N_, Event

T = TypeVar("T")
Source = Literal["answer", "standing order", "default"]  # as the decision event names it
Answers = Mapping[str, Mapping[str, str]]  # seat -> decision key -> answer text


class BadAnswer(ValueError):
    """An answer that cannot be read or does not fit its decision; the reason names the rule."""


@dataclass(frozen=True)
class Answer:
    """One seat's answer to one decision (an ANSWER line): the text as the seat wrote it."""

    seat: str
    key: str
    text: str


def answers_of(given: Iterable[Answer]) -> dict[str, dict[str, str]]:
    """The answers as a step is resolved with them: seat -> decision key -> text (a later answer replaces one)."""
    found: dict[str, dict[str, str]] = {}
    for answer in given:
        found.setdefault(answer.seat, {})[answer.key] = answer.text
    return found


@dataclass(frozen=True)
class Question:
    """A decision put to a seat: its key (the ANSWER line names it), the question, the default written as the
    answer that takes it, and the rule."""

    seat: str
    key: str
    question: str
    default: str
    rule: str


@dataclass(frozen=True)
class Pending(Question):
    """A decision that fell to its default in ask mode, to be asked; `event` and `rolls` say where the step stood
    when it arose (its events and dice before it), so that a notice shows the step up to there and nothing after.
    `position`: the ruleset's position at that point (a copy), where it keeps one: the odds of the decision's
    choices are reckoned on it (Ruleset.decision_odds), as the notice shows the step up to there."""

    event: int
    rolls: int
    position: Any = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, kw_only=True)
class Decision(Generic[T]):
    """A decision a seat takes: the answer `read` reads (a BadAnswer refuses it), else `standing` (None: the seat
    gave no standing order that applies), else `default`. With `choices` an answer must be one of them (any case);
    without `read` the choice is the answer so written. `show` writes a choice as its answer line (the decision
    event's choice, the question's default); with `as_written` an answer is shown as the seat wrote it. The events
    have the visibility given (`visible_by_kind`: the ruleset derives it from the kind when it reads them back)."""

    seat: str
    key: str
    question: str
    rule: str
    default: T
    standing: T | None = None
    read: Callable[[str], T] | None = None
    choices: tuple[str, ...] = ()
    show: Callable[[T], str] = str
    as_written: bool = False
    visible_to: frozenset[str] | None = None
    visible_by_kind: bool = False

    def event(self, kind: str, data: dict[str, object]) -> Event:
        return Event(kind, self.seat, data, self.visible_to, visible_by_kind=self.visible_by_kind)


@dataclass(frozen=True)
class Taken(Generic[T]):
    """A decision taken: the choice and its source, the answer used (its text), the refusal of a wrong answer (an
    event, or None) and the decision event; `pending` when it is to be asked."""

    value: T
    source: Source
    answer: str | None
    refusal: Event | None
    event: Event
    pending: Pending | None = None

    @property
    def events(self) -> list[Event]:
        """The refusal (if any), then the decision: every decision taken is an event."""
        return [*([self.refusal] if self.refusal is not None else []), self.event]


class Asking(Protocol):
    """What a step resolves its decisions with: the answers, ask mode, the decisions settled (asked and left
    unanswered past their waiting time), the decisions found pending so far, and the ruleset's decisions rule
    (`decisions_rule` of its ruleset.toml, cited when an answer is none of a decision's choices)."""

    @property
    def answers(self) -> Answers: ...
    @property
    def ask(self) -> bool: ...
    @property
    def settled(self) -> frozenset[tuple[str, str]]: ...
    @property
    def pending(self) -> list[Pending]: ...
    @property
    def decisions_rule(self) -> str: ...


@dataclass(kw_only=True)
class Decisions:
    """An `Asking` of its own, for a ruleset whose step context holds no other."""

    answers: Answers = field(default_factory=dict)
    ask: bool = False
    settled: frozenset[tuple[str, str]] = frozenset()
    pending: list[Pending] = field(default_factory=list)
    decisions_rule: str = ""


def answer_to(asking: Asking, seat: str, key: str) -> str | None:
    """`seat`'s answer to the decision `key`, as written; None when it sent none."""
    return asking.answers.get(seat, {}).get(key)


def take(
    decision: Decision[T], asking: Asking, where: tuple[int, int], position: Callable[[], Any] | None = None
) -> Taken[T]:
    """Take `decision`: the seat's answer, else its standing order, else the default, listed in `asking.pending`
    in ask mode unless settled. `where`: the index in the step's events the first event returned will have, and the
    rolls made so far; `position`: makes a copy of the ruleset's position as it stands, kept by a pending decision
    (called only for one)."""
    text = answer_to(asking, decision.seat, decision.key)
    refusal: Event | None = None
    if text is not None:
        try:
            value = read_answer(decision, text, asking.decisions_rule)
        except BadAnswer as bad:  # the seat's mail is refused; the standing order or default decides
            refusal = decision.event("answer_refused", {"key": decision.key, "answer": text, "reason": str(bad)})
        else:
            shown = text if decision.as_written else decision.show(value)
            return Taken(value, "answer", text, None, _decision_event(decision, shown, "answer"))
    if decision.standing is not None:
        kept = _decision_event(decision, decision.show(decision.standing), "standing order")
        return Taken(decision.standing, "standing order", None, refusal, kept)
    default = decision.show(decision.default)
    pending = None
    if asking.ask and (decision.seat, decision.key) not in asking.settled:
        at = where[0] + (1 if refusal is not None else 0)
        pending = Pending(
            decision.seat,
            decision.key,
            decision.question,
            default,
            decision.rule,
            at,
            where[1],
            position() if position is not None else None,
        )
        asking.pending.append(pending)
    return Taken(decision.default, "default", None, refusal, _decision_event(decision, default, "default"), pending)


def read_answer(decision: Decision[T], text: str, decisions_rule: str = "") -> T:
    """The choice an answer makes: read by the decision's `read` (which may spell a choice in the reader's keywords),
    and then one of its `choices`, if it has any (else refused, naming them and the game's decisions rule)."""
    value: Any = decision.read(text) if decision.read is not None else text.strip()
    if not decision.choices:
        return cast(T, value)
    chosen = next((c for c in decision.choices if c.casefold() == str(value).strip().casefold()), None)
    if chosen is None:
        raise BadAnswer(
            N_(
                "%(answer)s is not one of %(choices)s (%(rule)s)",
                answer=repr(text.strip()),
                choices=", ".join(decision.choices),
                rule=decisions_rule or decision.rule,
            )
        )
    return cast(T, chosen)


def _decision_event(decision: Decision[T], choice: str, source: Source) -> Event:
    data: dict[str, object] = {
        "key": decision.key,
        "question": decision.question,
        "choice": choice,
        "source": source,
        "rule": decision.rule,
    }
    return decision.event("decision", data)


def default_answers(header: str, asked: Sequence[Question]) -> str:
    """The answers of a player who reads the questions and agrees: each decision asked answered with its default
    (the documented default is always a legal answer), after the `header` line; for bots, self-play and demos."""
    return "\n".join([header, *(f"ANSWER {question.key}: {question.default}" for question in asked)]) + "\n"
