"""The domain's words: piece kinds, events, order verdicts and the rejection every rule check raises."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

UNIT_KINDS = ("infantry", "cavalry", "catapult")  # land combat units (C-0.4)
PIECES = ("infantry", "cavalry", "catapult", "galley", "city", "fortification", "fortified_city", "road")
UNIT_ABBREVIATIONS = {"infantry": "INF", "cavalry": "CAV", "catapult": "CAT"}


def N_(msgid: str, **values: object) -> str:  # noqa: N802 (the gettext mark, so that pybabel extracts msgid)
    """An engine text in English: `msgid` with its %(name)s placeholders filled. The archive stores this English;
    the renderer translates it by matching it against the msgids (adjudicator/render/i18n.py `engine_text`)."""
    return msgid % values if values else msgid


def leader_name(number: int) -> str:
    return "Caesar" if number == 0 else f"G{number}"


@dataclass(frozen=True)
class Event:
    """One thing that happened; reports are rendered from these (DESIGN.md)."""

    kind: str
    seat: str | None = None
    data: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, "data": self.data}

    @property
    def public(self) -> bool:
        """Whether every player may read it: not press to one seat (C-15.19), not a standing order, not a
        decision (its source, a priority list or an answer's text are the seat's own; what it made happen is
        public through the events that follow it)."""
        return not (self.kind == "press" and self.data.get("to")) and self.kind not in PRIVATE_KINDS

    def private_to(self, seat: str) -> bool:
        """Whether it belongs in `seat`'s private report: press to it, its own standing orders and decisions."""
        if self.kind == "press":
            return self.data.get("to") == seat
        return self.kind in PRIVATE_KINDS and self.seat == seat


PRIVATE_KINDS = ("standing_order", "decision", "answer_refused")


@dataclass(frozen=True)
class OrderResult:
    """The verdict on one order (or one item of a BUY order)."""

    line: int
    text: str
    accepted: bool
    reason: str = ""
    rule: str = ""

    @property
    def verdict(self) -> str:
        if self.accepted:
            return "accepted" + (f": {self.reason}" if self.reason else "")
        return f"rejected ({self.rule}): {self.reason}" if self.rule else f"rejected: {self.reason}"

    def to_json(self) -> dict[str, Any]:
        return {
            "line": self.line,
            "text": self.text,
            "accepted": self.accepted,
            "reason": self.reason,
            "rule": self.rule,
        }


class Rejected(Exception):
    """An order is understood but not allowed: carries the rule ID and a reason a player understands."""

    def __init__(self, rule: str, reason: str) -> None:
        super().__init__(f"{rule}: {reason}")
        self.rule = rule
        self.reason = reason


class NotSupportedYet(Rejected):
    """An order the parser understands whose rules this version does not adjudicate yet."""
