"""Decisions taken outside one's own turn (C-15): an answer, else a standing order, else the default.

Every decision taken is an event naming its source. With the game option "ask", a decision that has
neither an answer nor a standing order is also listed as pending, so that the player can be asked.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from adjudicator.engine.orders import Captives, FreedTo, Order, Priority, RetreatRule
from adjudicator.engine.turn import Turn
from adjudicator.engine.vocabulary import N_, UNIT_KINDS

T = TypeVar("T")

UNIT_WORDS = {"inf": "infantry", "infantry": "infantry", "cav": "cavalry", "cavalry": "cavalry",
              "cat": "catapult", "catapult": "catapult", "catapults": "catapult"}


class BadAnswer(ValueError):
    pass


def decide(turn: Turn, seat: str, key: str, question: str, default: T, standing: T | None,
           parse: Callable[[str], T], rule: str, show: Callable[[T], str] = str) -> T:
    """Take one decision of `seat`: answer for `key`, else standing order, else default (C-15)."""
    answer = turn.answers.get(seat, {}).get(key)
    value: T
    if answer is not None:
        try:
            value, source = parse(answer), "answer"
        except BadAnswer as bad:
            turn.event("answer_refused", seat, key=key, answer=answer, reason=str(bad))
            answer = None
    if answer is None:
        if standing is not None:
            value, source = standing, "standing order"
        else:
            value, source = default, "default"
            if turn.ask and (seat, key) not in turn.settled:
                # where the turn stood when the question arose (events and dice before it), so that a notice
                # can show the turn up to this point and nothing after it
                turn.pending.append({"seat": seat, "key": key, "question": question, "default": show(default),
                                     "rule": rule, "event": len(turn.events), "rolls": len(turn.dice.log)})
    turn.event("decision", seat, key=key, question=question, choice=show(value), source=source, rule=rule)
    return value


def parse_unit_priority(text: str) -> list[str]:
    """'cav, inf, cat' -> ['cavalry', 'infantry', 'catapult'] (missing kinds follow in the usual order)."""
    kinds = []
    for word in text.replace(",", " ").split():
        kind = UNIT_WORDS.get(word.casefold())
        if kind is None:
            raise BadAnswer(N_("%(word)s is not a unit kind (INF, CAV, CAT)", word=repr(word)))
        kinds.append(kind)
    return complete_priority(kinds)


def complete_priority(kinds: Sequence[str]) -> list[str]:
    """A priority naming some unit kinds, the others appended in the order INF, CAV, CAT."""
    seen = list(dict.fromkeys(k for k in kinds if k in UNIT_KINDS))
    return seen + [k for k in UNIT_KINDS if k not in seen]


def show_priority(kinds: Sequence[str]) -> str:
    return ", ".join(kinds)


def standing(turn: Turn, seat: str, kind: str) -> Any:
    """A seat's standing order of one kind (None when it gave none)."""
    return turn.state.players[seat].standing.get(kind)


def record_standing_order(standing: dict[str, Any], order: Order) -> None:
    """Keep a standing order in a player's `standing` dict, replacing the earlier one of its kind (C-15)."""
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
