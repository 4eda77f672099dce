"""Decisions of the campaign step (ER-14: answer > standing order > default, by the engine's take) and the `manual`
battle effect (ER-13.6) that must be ruled on before the battle's result. The ruling (given by the moderator
for the card's owner, key `manual.<card>.<effect key>`) is `none` or one battle effect `strength N`,
`casualties N`, `shields N` for the owner's side; without an answer the documented default applies: the effect
does nothing. In ask mode such a decision is also listed as pending (adjudicator/engine/decisions.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, TypeVar

from adjudicator.engine.decisions import Asking, BadAnswer, Decision, take
from adjudicator.engine.vocabulary import N_, Event
from adjudicator.rulesets.conqueror.battle_types import Pending
from adjudicator.rulesets.conqueror.data import Effect, Effects
from adjudicator.rulesets.conqueror.vocabulary import Trigger

RULED_OPS: Final = ("strength", "casualties", "shields")  # what a ruling may be, besides none
NO_EFFECT: Final = "none"


T = TypeVar("T")


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

    def decision(self, default: T, standing: T | None, read: Callable[[str], T]) -> Decision[T]:
        """The decision for the engine's take: an answer is shown as the seat wrote it, the standing order and the
        default as their order lines; its events are the seat's alone."""
        return Decision(
            seat=self.seat,
            key=self.key,
            question=self.question,
            rule=self.rule,
            default=default,
            standing=standing,
            read=read,
            show=self.show,
            as_written=True,
            visible_to=self.visible,
        )


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
    pendings: tuple[Pending, ...], asking: Asking, events_so_far: int, rolls: int
) -> tuple[dict[str, Effects], list[Event]]:
    """The rulings for the blocking `manual` effects (ER-13.6), taken by the engine's take: the answer, else the
    default (no effect), listed as pending in ask mode. Every ruling is a public event naming its source."""
    rulings: dict[str, Effects] = {}
    events: list[Event] = []
    for pending in pendings:
        key = key_of(pending)
        ruling = Decision(
            seat=pending.player,
            key=key,
            question=f"{pending.source}: {pending.text}",
            rule="ER-13.6",
            default=(),
            read=lambda text, effect=pending.key: read_ruling(text, effect),
            show=lambda _: NO_EFFECT,
        )
        taken = take(ruling, asking, (events_so_far + len(events), rolls))
        rulings[pending.key] = taken.value
        events += [taken.refusal] if taken.refusal is not None else []
        data = {
            "source": pending.source,
            "text": pending.text,
            "key": key,
            "ruling": taken.answer if taken.answer is not None else NO_EFFECT,
            "from": taken.source,
        }
        events.append(Event("battle_manual_ruled", pending.player, data))
    return rulings, events
