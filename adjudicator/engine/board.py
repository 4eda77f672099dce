"""The board: areas, adjacency, coasts and straits, built from ruleset data (no file access here)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class AreaInfo:
    code: str
    name: str
    kind: str  # "land" | "sea"
    value: int = 0
    aliases: tuple[str, ...] = ()
    x: int = 0
    y: int = 0

    @property
    def is_land(self) -> bool:
        return self.kind == "land"


@dataclass
class Board:
    areas: dict[str, AreaInfo]
    adjacency: dict[str, frozenset[str]]
    straits: frozenset[frozenset[str]] = frozenset()  # land pairs crossable without a galley
    split_coasts: dict[str, tuple[frozenset[str], ...]] = field(default_factory=dict)

    @classmethod
    def from_data(cls, data: dict[str, Any], straits_adjacent: str | None = None) -> Board:
        """Build from board.toml data; `straits_adjacent` names the strait flag that makes a pair adjacent."""
        areas = {
            a["code"]: AreaInfo(
                a["code"],
                a["name"],
                a["kind"],
                a.get("value", 0),
                tuple(a.get("aliases", ())),
                a.get("x", 0),
                a.get("y", 0),
            )
            for a in data["area"]
        }
        links: dict[str, set[str]] = {code: set() for code in areas}
        for a in data["area"]:
            for other in a["adjacent"]:
                links[a["code"]].add(other)
                links[other].add(a["code"])
        straits = frozenset(
            frozenset(s["between"])
            for s in data.get("strait", ())
            if straits_adjacent and s.get(straits_adjacent, False)
        )
        split = {s["province"]: tuple(frozenset(c) for c in s["coasts"]) for s in data.get("split_coast", ())}
        return cls(areas, {k: frozenset(v) for k, v in links.items()}, straits, split)

    def is_land(self, code: str) -> bool:
        return self.areas[code].is_land

    def value(self, code: str) -> int:
        return self.areas[code].value

    def name(self, code: str) -> str:
        return self.areas[code].name

    def land_neighbours(self, code: str) -> frozenset[str]:
        """Land areas a land piece can walk into: land borders plus adjacent straits (C-2.3)."""
        border = {a for a in self.adjacency[code] if self.areas[a].is_land}
        border |= {a for pair in self.straits if code in pair for a in pair if a != code}
        return frozenset(border)

    def land_border(self, a: str, b: str) -> bool:
        """A real land border (roads need one; straits do not count, C-12.8)."""
        return b in self.adjacency[a] and self.is_land(a) and self.is_land(b)

    def sea_neighbours(self, code: str) -> frozenset[str]:
        return frozenset(a for a in self.adjacency[code] if not self.areas[a].is_land)

    def coasts(self, province: str) -> tuple[frozenset[str], ...]:
        """The separate coasts of a province, each as the set of sea zones it touches (C-2.6)."""
        if province in self.split_coasts:
            return self.split_coasts[province]
        seas = self.sea_neighbours(province)
        return (seas,) if seas else ()

    def coast_of(self, province: str, sea: str) -> str | None:
        """The coast name (its first sea zone in board order) of `province` touching `sea`."""
        for coast in self.coasts(province):
            if sea in coast:
                return coast_name(self, province, coast)
        return None

    def lookup(self, text: str) -> list[str]:
        """Area codes matching `text`: a board code, or a unique prefix of a name/alias word."""
        key = text.strip().casefold()
        if key.upper() in self.areas:
            return [key.upper()]
        exact = [c for c, a in self.areas.items() if key in (n.casefold() for n in (a.name, *a.aliases))]
        if exact:
            return exact
        return [
            c
            for c, a in self.areas.items()
            if any(
                full.casefold().startswith(key) or any(w.casefold().startswith(key) for w in full.split())
                for full in (a.name, *a.aliases)
            )
        ]


def coast_name(board: Board, province: str, coast: frozenset[str]) -> str:
    """A stable name for a coast: the alphabetically first sea zone on it."""
    return min(coast)
