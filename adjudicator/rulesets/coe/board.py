"""Conquest of the Empire's board: the core's typed board plus CoE's straits (C-2.3, C-2.4, O-2.3) and split
coasts (C-2.6, O-2.5), read from board.toml's `[[strait]]` and `[[split_coast]]` tables."""

from __future__ import annotations

from dataclasses import dataclass, field

from adjudicator.engine.board import STRAIT, AreaInfo, Board, Link, read_areas, read_link, read_links
from adjudicator.engine.ruleset_source import RulesetSource

# a crossing arrow printed on the board that this edition's land moves may not cross (C-2.4, O-2.3); the
# straits an edition lets land pieces cross (its `straits_adjacent` flag) are links of the core's kind STRAIT
PRINTED_STRAIT = "printed_strait"


@dataclass
class CoeBoard(Board):
    split_coasts: dict[str, tuple[frozenset[str], ...]] = field(default_factory=dict)
    straits: frozenset[frozenset[str]] = field(init=False)  # land pairs crossable without a galley (C-2.3)
    _land_neighbours: dict[str, frozenset[str]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        super().__post_init__()
        self.straits = frozenset(frozenset((link.a, link.b)) for link in self.links if link.kind == STRAIT)
        self._land_neighbours = {code: self._walkable(code) for code in self.areas}

    @classmethod
    def read_coe(cls, source: RulesetSource, straits_adjacent: str | None) -> CoeBoard:
        """board.toml of an edition whose `[[strait]]` flag `straits_adjacent` makes a strait crossable."""
        areas = read_areas(source)
        links = read_links(source, areas) + _strait_links(source, areas, straits_adjacent)
        return cls(areas, links, _split_coasts(source, areas))

    def _walkable(self, code: str) -> frozenset[str]:
        border = {a for a in self.adjacency[code] if self.areas[a].is_land}
        border |= {a for pair in self.straits if code in pair for a in pair if a != code}
        return frozenset(border)

    def land_neighbours(self, code: str) -> frozenset[str]:
        """Land areas a land piece can walk into: land borders plus crossable straits (C-2.3)."""
        return self._land_neighbours[code]

    def land_border(self, a: str, b: str) -> bool:
        """A real land border (roads need one; straits do not count, C-12.8)."""
        return b in self.adjacency[a] and self.is_land(a) and self.is_land(b)

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


def coast_name(board: CoeBoard, province: str, coast: frozenset[str]) -> str:
    """A stable name for a coast: the alphabetically first sea zone on it."""
    return min(coast)


def _strait_links(source: RulesetSource, areas: dict[str, AreaInfo], straits_adjacent: str | None) -> tuple[Link, ...]:
    """Each `[[strait]]` as a link, crossable (STRAIT) when the edition's flag is set on it; the flags stay as
    the link's attributes."""
    if "strait" not in source.data:
        return ()
    links = []
    for table in source.tables("strait"):
        crossable = bool(straits_adjacent) and table.value(str(straits_adjacent), bool, False)
        links.append(read_link(table, areas, STRAIT if crossable else PRINTED_STRAIT))
    return tuple(links)


def _split_coasts(source: RulesetSource, areas: dict[str, AreaInfo]) -> dict[str, tuple[frozenset[str], ...]]:
    """Provinces with separate coasts, each coast the sea zones it touches (C-2.6)."""
    if "split_coast" not in source.data:
        return {}
    split = {}
    for table in source.tables("split_coast"):
        province = table.text("province")
        if province not in areas:
            raise table.error("province", f"{province!r} is no area of the board")
        coasts = tuple(_coast(table, index, coast, areas) for index, coast in enumerate(table.value("coasts", list)))
        split[province] = coasts
    return split


def _coast(table: RulesetSource, index: int, coast: object, areas: dict[str, AreaInfo]) -> frozenset[str]:
    """One coast of a split province: a list of sea zones of the board."""
    if not isinstance(coast, list) or not coast:
        raise table.error(f"coasts[{index}]", f"expected a list of sea zones, found {coast!r}")
    for sea in coast:
        if sea not in areas or areas[sea].is_land:
            raise table.error(f"coasts[{index}]", f"{sea!r} is no sea zone of the board")
    return frozenset(coast)
