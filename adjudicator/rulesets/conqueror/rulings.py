"""A `manual` battle effect (ER-13.6) that must be ruled on before the battle's result: the decision of the
campaign step. The answer (given by the moderator for the card's owner, key `manual.<card>.<effect key>`) is
`none` or one battle effect `strength N`, `casualties N`, `shields N` for the owner's side; without an answer
the documented default applies: the effect does nothing. In ask mode such a decision is also listed as pending
(the engine's decisions mechanism, as Conquest of the Empire's decisions.py does it)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from adjudicator.engine.vocabulary import Event
from adjudicator.rulesets.conqueror.battle_types import Pending
from adjudicator.rulesets.conqueror.data import Effect, Effects
from adjudicator.rulesets.conqueror.vocabulary import Trigger

RULED_OPS: Final = ("strength", "casualties", "shields")  # what a ruling may be, besides none
NO_EFFECT: Final = "none"


class BadRuling(ValueError):
    pass


def key_of(pending: Pending) -> str:
    return f"manual.{pending.source}.{pending.key}"


def read_ruling(text: str, effect_key: str) -> Effects:
    """`none`, or `strength N` / `casualties N` / `shields N` (N a whole number, strength may be negative)."""
    words = text.strip().casefold().split()
    if words == [NO_EFFECT]:
        return ()
    if len(words) != 2 or words[0] not in RULED_OPS or not words[1].lstrip("-").isdigit():
        raise BadRuling(f"{text!r}: a ruling is none, or one of {', '.join(RULED_OPS)} with a number (ER-13.6)")
    n = int(words[1])
    if words[0] != "strength" and n < 0:
        raise BadRuling(f"{text!r}: {words[0]} cannot be negative (ER-13.6)")
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
            except BadRuling as bad:
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
