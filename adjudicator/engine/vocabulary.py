"""The words every game shares: events with their visibility, order verdicts and the rejection every rule check
raises. A game's own words (its pieces, its leaders) live in its ruleset (e.g. rulesets/coe/vocabulary.py)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any


def N_(msgid: str, **values: object) -> str:  # noqa: N802 (the gettext mark, so that pybabel extracts msgid)
    """An engine text in English: `msgid` with its %(name)s placeholders filled. The archive stores this English;
    the renderer translates it by matching it against the msgids (adjudicator/render/i18n.py `engine_text`)."""
    return msgid % values if values else msgid


@dataclass(frozen=True)
class Event:
    """One thing that happened; reports are rendered from these (DESIGN.md).

    `visible_to` is None for a public event (every player, observer and the site may read it), or the seats that
    may read it (a hand drawn, a decision's reasons, press to one seat): the public report, site, snapshot and
    mail leave it out, and those seats' private reports show it; everything is revealed when the game ends.
    `visible_by_kind`: the ruleset derives `visible_to` from the event's kind when it reads the event back, so it
    is not written (Conquest of the Empire's archives predate `visible_to`: rulesets/coe/vocabulary.py).
    """

    kind: str
    seat: str | None = None
    data: dict[str, Any] = field(default_factory=dict)
    visible_to: frozenset[str] | None = None
    visible_by_kind: bool = False

    def to_json(self) -> dict[str, Any]:
        """The event as the archive stores it: a public event (or one whose visibility its kind gives) has no
        `visible_to`."""
        stored: dict[str, Any] = {"kind": self.kind, "seat": self.seat, "data": self.data}
        if self.visible_to is not None and not self.visible_by_kind:
            stored["visible_to"] = sorted(self.visible_to)
        return stored

    @classmethod
    def from_json(cls, stored: Mapping[str, Any]) -> Event:
        """An event as to_json stored it (without `visible_to`: public, unless the ruleset's reader says otherwise)."""
        seats = stored.get("visible_to")
        return cls(stored["kind"], stored["seat"], stored["data"], None if seats is None else visible_to(seats))

    @property
    def public(self) -> bool:
        """Whether every player may read it."""
        return self.visible_to is None

    def private_to(self, seat: str) -> bool:
        """Whether it belongs in `seat`'s private report: it is not public, and `seat` may read it."""
        return self.visible_to is not None and seat in self.visible_to


def visible_to(seats: Iterable[str]) -> frozenset[str]:
    """The visibility of an event that only `seats` may read."""
    return frozenset(seats)


@dataclass(frozen=True)
class AttackOdds:
    """The exact odds of one battle an order set brings about, as the orderer can know them (a receipt prints them):
    the forces as text, the probability that the attack wins, and each side's expected losses in pieces; where the
    defender holds hidden cards he could play, the same figures if he plays them (`if_played`)."""

    area: str
    attacker: str
    defender: str
    wins: float
    attacker_losses: float
    defender_losses: float
    if_played: HandOdds | None = None


@dataclass(frozen=True)
class HandOdds:
    """A battle's odds if the defender plays the cards he may hold, averaged exactly over every hand he could hold
    on what the attacker can see (the ruleset says which cards he is taken to play): `cards`, the number of cards in
    his hand; `helps`, the chance that it holds at least one he would play; `sets`, the distinct sets of cards he
    could so play, each weighed. The figures are None where there were more such sets than a receipt weighs
    (`sets` is then that limit). `heroes`: where the ruleset weighs heroes too (cards held face down, which he
    chose), how many he holds so; None where no hero is weighed."""

    cards: int
    helps: float
    sets: int
    wins: float | None = None
    attacker_losses: float | None = None
    defender_losses: float | None = None
    heroes: int | None = None


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
