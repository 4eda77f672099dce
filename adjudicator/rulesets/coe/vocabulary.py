"""Conquest of the Empire's words: its piece kinds, its leaders' names, and which of its events are private."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from adjudicator.engine.vocabulary import N_, Event, visible_to

if TYPE_CHECKING:
    from adjudicator.rulesets.coe.turn import Turn

# The titles of games/coe-*/ruleset.toml, for the catalogue: reports give them in the reader's language.
TITLES = (N_("Conquest of the Empire, Classic edition (2005)"), N_("Conquest of the Empire, original edition (1984)"))
# The keyword table of both editions: coe-1984's ruleset.toml names games/coe-classic/keywords.toml.
WORDS = "coe-classic"
UNIT_KINDS = ("infantry", "cavalry", "catapult")  # land combat units (C-0.4)
PIECES = ("infantry", "cavalry", "catapult", "galley", "city", "fortification", "fortified_city", "road")
UNIT_ABBREVIATIONS = {"infantry": "INF", "cavalry": "CAV", "catapult": "CAT"}

# A standing order, a decision (its source, a priority list or an answer's text are the seat's own; what it made
# happen is public through the events that follow it) and a refused answer are the seat's own.
SEAT_PRIVATE_KINDS = ("standing_order", "decision", "answer_refused")


def leader_name(number: int) -> str:
    return "Caesar" if number == 0 else f"G{number}"


def visibility(kind: str, seat: str | None, data: Mapping[str, Any]) -> frozenset[str] | None:
    """Who may read an event of this kind: press to one seat only that seat (C-15.19), the seat's own kinds only
    the seat, everything else everybody (None)."""
    if kind == "press":
        return visible_to([data["to"]]) if data.get("to") else None
    if kind in SEAT_PRIVATE_KINDS:
        return visible_to([seat] if seat is not None else [])
    return None


def add_event(turn: Turn, kind: str, seat: str | None = None, **data: Any) -> None:
    """Add an event whose visibility its kind gives (visibility above); the archive stores it as before
    `visible_to` existed, so that every stored turn still replays byte for byte."""
    turn.events.append(Event(kind, seat, data, visibility(kind, seat, data), visible_by_kind=True))


def stored_event(stored: Mapping[str, Any]) -> Event:
    """An event as the archive holds it: CoE events carry no `visible_to`; their kind gives it."""
    event = Event.from_json(stored)
    if "visible_to" in stored:
        return event
    return replace(event, visible_to=visibility(event.kind, event.seat, event.data), visible_by_kind=True)
