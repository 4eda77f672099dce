"""What the reports tell beyond the stored events, derived from them at rendering time.

The stored events of a turn are what `pbem verify` replays byte for byte, so nothing is added to them; the
reports derive what they need instead: the heading of the tribute phase (C-4.2, O-4.2), in Classic land battles
the hits rolled beside the hits applied (C-6.8, C-6.9: a legion cannot lose more units than it has), and the
leaders on each side of a land battle (from the position before the turn and the turn's moves).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from adjudicator.engine.vocabulary import Event
from adjudicator.render.i18n import N_
from adjudicator.rulesets.coe.vocabulary import UNIT_ABBREVIATIONS

# Words templates/coe/events.j2 translates from event data (so no literal marks them there): extracted with
# `-k N_`.
EVENT_WORDS = (
    N_("movement"),
    N_("combat"),
    N_("destroy cities"),
    N_("buy and place"),  # phases
    N_("infantry"),
    N_("cavalry"),
    N_("catapult"),
    N_("galley"),
    N_("city"),
    N_("fortification"),
    N_("fortified city"),
    N_("road"),  # pieces bought, targets shot at
    N_("answer"),
    N_("standing order"),
    N_("default"),  # where a decision came from
    N_("land"),
    N_("sea"),  # how attacking units came (O-6.17)
    N_("kill"),
    N_("ransom"),  # what happens to a captured general (C-8.4)
)

FACES = {1: "infantry", 2: "infantry", 3: "cavalry", 4: "catapult", 5: "galley", 6: "blank"}  # C-1.8
KINDS = {abbreviation: kind for kind, abbreviation in UNIT_ABBREVIATIONS.items()}


def told(events: Iterable[Event], before: dict[str, Any] | None = None) -> list[Event]:
    """The events as the reports tell them: with every phase heading, the hits rolled in land battles and, given
    the position before the turn, the leaders in each land battle."""
    return with_leaders(with_rolled_hits(with_headings(events)), before)


def with_headings(events: Iterable[Event]) -> list[Event]:
    """Phase 3 (collect tribute) has no event of its own: its heading goes before the tribute (C-4.2)."""
    shown: list[Event] = []
    for event in events:
        if event.kind == "tribute":
            shown.append(Event("phase", event.seat, {"number": 3, "name": N_("collect tribute")}))
        shown.append(event)
    return shown


def units(text: str) -> dict[str, int]:
    """'4 INF 1 CAT' (the events' troop lists) -> {'infantry': 4, 'catapult': 1}."""
    words = text.split()
    found: dict[str, int] = {}
    for count, word in zip(words[::2], words[1::2], strict=False):
        if count.isdigit() and word in KINDS:
            found[KINDS[word]] = found.get(KINDS[word], 0) + int(count)
    return found


def rolled_hits(faces: list[int], legion: dict[str, int], catapults: int) -> int:
    """Symbols matched with own units (C-6.8): infantry and cavalry of the legion, catapults of the whole force."""
    rolled = Counter(FACES.get(f, "blank") for f in faces)
    return (
        min(rolled["infantry"], legion.get("infantry", 0))
        + min(rolled["cavalry"], legion.get("cavalry", 0))
        + min(rolled["catapult"], catapults)
    )


def with_rolled_hits(events: list[Event]) -> list[Event]:
    """Classic battle rounds get `attacker_rolled` and `defender_rolled`: the hits the dice gave, which exceed
    the hits applied when the other legion is smaller (C-6.9). Catapults count from the whole force (C-6.8), so
    each side's catapults are followed from the battle's start through the losses of each round."""
    shown: list[Event] = []
    catapults: dict[str, int] = {}
    for event in events:
        data = event.data
        if event.kind == "battle" and "attacker_forces" in data:
            catapults = {
                "attacker": units(data["attacker_forces"]).get("catapult", 0),
                "defender": units(data["defender_forces"]).get("catapult", 0),
            }
        if event.kind == "battle_round" and "attacker_dice" in data and catapults:
            extra: dict[str, Any] = {
                "attacker_rolled": rolled_hits(
                    data["attacker_dice"], units(data["attacker_legion"]), catapults["attacker"]
                ),
                "defender_rolled": rolled_hits(
                    data["defender_dice"], units(data["defender_legion"]), catapults["defender"]
                ),
            }
            catapults["attacker"] -= units(data["attacker_losses"]).get("catapult", 0)
            catapults["defender"] -= units(data["defender_losses"]).get("catapult", 0)
            event = Event(event.kind, event.seat, {**data, **extra})
        shown.append(event)
    return shown


def losses_of(seat: str, events: Iterable[Event]) -> dict[str, Any]:
    """What `seat` lost in a turn, for its private report: combat units by kind, galleys, leaders (captured or
    killed) and provinces, from the battle, naval and capture events."""
    book = _Losses(seat)
    for event in events:
        reader = _LOSS_READERS.get(event.kind)
        if reader is not None:
            reader(book, event.seat or "", event.data)
    book.lost["units"] = {kind: count for kind, count in book.lost["units"].items() if count}
    return book.lost


@dataclass
class _Losses:
    """One seat's losses, read event by event; `sides` and `left` follow the current land battle."""

    seat: str
    lost: dict[str, Any] = field(
        default_factory=lambda: {"units": Counter(), "galleys": [], "leaders": [], "provinces": []}
    )
    sides: dict[str, str] = field(default_factory=dict)  # seat -> the other side
    left: dict[str, Counter[str]] = field(default_factory=dict)  # each side's combat units still in the battle

    def battle(self, who: str, data: dict[str, Any]) -> None:
        """A land battle begins (C-6): both sides' forces."""
        self.sides = {who: data["defender"], data["defender"]: who}
        self.left = {
            who: Counter(units(data.get("attacker_forces", ""))),
            data["defender"]: Counter(units(data.get("defender_forces", ""))),
        }

    def battle_round(self, who: str, data: dict[str, Any]) -> None:
        """Each side's losses in a round (C-6.9)."""
        self.lose(who, units(data.get("attacker_losses", "")))
        self.lose(data.get("defender", ""), units(data.get("defender_losses", "")))

    def pursuit(self, who: str, data: dict[str, Any]) -> None:
        """The pursuer's hits fall on the other side (C-6.16)."""
        self.lose(self.sides.get(who, ""), units(data.get("losses", "")))

    def retreat_failed(self, who: str, data: dict[str, Any]) -> None:
        """A side that cannot retreat loses every unit it has left."""
        self.lose(who, {k: n for k, n in self.left.get(who, Counter()).items() if n > 0})

    def shot(self, who: str, data: dict[str, Any]) -> None:
        """1984: a unit or galley of the seat hit by a shot (O-6)."""
        if not (data.get("hit") and data.get("target_owner") == self.seat):
            return
        if data.get("target") == "galley":
            self.lost["galleys"].append(data.get("galley"))
        else:
            self.lost["units"][data.get("target")] += 1

    def naval_round(self, who: str, data: dict[str, Any]) -> None:
        """The seat's galleys sunk in a naval round (C-7)."""
        sunk = data.get("attacker_sunk", []) if who == self.seat else data.get("defender_sunk", [])
        self.lost["galleys"] += sunk if self.seat in (who, data.get("defender")) else []

    def galleys_sunk(self, who: str, data: dict[str, Any]) -> None:
        """The seat's galleys sunk or destroyed outside a naval round, each counted once."""
        if who == self.seat:
            self.lost["galleys"] += [g for g in data.get("galleys", []) if g not in self.lost["galleys"]]

    def captured(self, who: str, data: dict[str, Any]) -> None:
        """A general of the seat captured, held or killed (C-8.4)."""
        if data.get("owner") == self.seat:
            self.lost["leaders"].append({"leader": data.get("leader"), "killed": data.get("choice") == "kill"})

    def conquered(self, who: str, data: dict[str, Any]) -> None:
        """A province of the seat taken."""
        if data.get("previous") == self.seat:
            self.lost["provinces"].append(data.get("area"))

    def lose(self, side: str, units_lost: dict[str, int]) -> None:
        """Count one side's land losses (for the seat when it is that side) and take them off what it has left."""
        for kind, count in units_lost.items():
            if side in self.left:
                self.left[side][kind] -= count
            if side == self.seat:
                self.lost["units"][kind] += count


_LOSS_READERS: dict[str, Callable[[_Losses, str, dict[str, Any]], None]] = {
    "battle": _Losses.battle,
    "battle_round": _Losses.battle_round,
    "pursuit": _Losses.pursuit,
    "retreat_failed": _Losses.retreat_failed,
    "shot": _Losses.shot,
    "naval_round": _Losses.naval_round,
    "galleys_sunk": _Losses.galleys_sunk,
    "galleys_destroyed": _Losses.galleys_sunk,
    "captured": _Losses.captured,
    "conquered": _Losses.conquered,
}


def with_leaders(events: list[Event], before: dict[str, Any] | None) -> list[Event]:
    """Battle headers name each side's leaders (`attacker_leaders`, `defender_leaders`): those in the province
    when the turn began (`before`, the snapshot before it), less those the mover moved out of it, plus those he
    moved or shipped into it (the 'moved' and 'sailed' events). Without `before` the headers stay as stored."""
    if before is None:
        return events
    present: dict[tuple[str, str], list[str]] = {}
    for code, area in before.get("areas", {}).items():
        for seat, force in area.get("units", {}).items():
            present[(code, seat)] = ["Caesar"] * force.get("caesar", 0) + [f"G{g}" for g in force.get("generals", [])]
    shown: list[Event] = []
    for event in events:
        data = event.data
        path = data.get("path") or []
        if event.kind in ("moved", "sailed") and len(path) > 1:
            moving = leaders_in(data.get("troops") or data.get("cargo") or "")
            start = present.setdefault((path[0], event.seat or ""), [])
            present[(path[0], event.seat or "")] = [name for name in start if name not in moving]
            present.setdefault((path[-1], event.seat or ""), []).extend(moving)
        if event.kind == "battle":
            area = data.get("area", "")
            event = Event(
                event.kind,
                event.seat,
                {
                    **data,
                    "attacker_leaders": ", ".join(ordered(present.get((area, event.seat or ""), []))),
                    "defender_leaders": ", ".join(ordered(present.get((area, data.get("defender", "")), []))),
                },
            )
        shown.append(event)
    return shown


def leaders_in(troops: str) -> list[str]:
    """'Caesar, G2 with 3 INF' (the events' troop lists) -> ['Caesar', 'G2']."""
    return [
        word
        for word in troops.split(" with ")[0].replace(",", " ").split()
        if word == "Caesar" or (word[:1] == "G" and word[1:].isdigit())
    ]


def ordered(leaders: list[str]) -> list[str]:
    """Caesar first, then the generals by number, each once."""
    unique = set(leaders)
    return sorted(unique, key=lambda name: (name != "Caesar", int(name[1:]) if name != "Caesar" else 0))
