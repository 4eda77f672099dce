"""The board: areas joined by typed links, with free attributes per area, read from a ruleset's board TOML.

Game-neutral: the core reads an area's code, name, kind (land or sea), value, aliases, drawing position and
`adjacent` list, and keeps every other key of its table as attributes that only the ruleset interprets (a
fort slot, a capital, food symbols). Links have a kind: the `adjacent` lists give land borders (land-land),
coasts (land-sea) and sea lanes (sea-sea); a `[[link]]` table gives any kind (`between = ["A", "B"]`,
`kind = "..."`, free extra keys as the link's attributes). The common kinds are named below; a ruleset may
use its own. No file access here: the ruleset hands over the file as a RulesetSource, so errors name it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, NamedTuple

from adjudicator.engine.ruleset_source import RulesetSource

LAND_BORDER = "land_border"
MOUNTAIN = "mountain"
STRAIT = "strait"
SEA_LANE = "sea_lane"
RIVER = "river"
BRIDGE = "bridge"
COAST = "coast"

# the kinds an `adjacent` list gives, by how many of the two areas are land; `Board.adjacency` holds these
PLAIN_KINDS = (SEA_LANE, COAST, LAND_BORDER)
AREA_KINDS = ("land", "sea")
# the keys of an area's table the core reads itself; every other key is an attribute
CORE_AREA_KEYS = frozenset({"code", "name", "kind", "value", "aliases", "x", "y", "adjacent"})
NO_ATTRIBUTES: Mapping[str, Any] = MappingProxyType({})


@dataclass(frozen=True)
class AreaInfo:
    code: str
    name: str
    kind: str  # "land" | "sea"
    value: int = 0
    aliases: tuple[str, ...] = ()
    x: int = 0
    y: int = 0
    attributes: Mapping[str, Any] = field(default_factory=lambda: NO_ATTRIBUTES, hash=False)

    @property
    def is_land(self) -> bool:
        return self.kind == "land"


class Link(NamedTuple):
    """Two areas joined by a link of `kind`; `attributes` holds the extra keys of its `[[link]]` table."""

    a: str
    b: str
    kind: str
    attributes: Mapping[str, Any] = NO_ATTRIBUTES

    def other(self, code: str) -> str:
        return self.b if code == self.a else self.a


@dataclass
class Board:
    areas: dict[str, AreaInfo]
    links: tuple[Link, ...] = ()
    adjacency: dict[str, frozenset[str]] = field(init=False)  # areas joined by a plain link (PLAIN_KINDS)
    _links_by_area: dict[str, tuple[Link, ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_area: dict[str, list[Link]] = {code: [] for code in self.areas}
        plain: dict[str, set[str]] = {code: set() for code in self.areas}
        for link in self.links:
            by_area[link.a].append(link)
            by_area[link.b].append(link)
            if link.kind in PLAIN_KINDS:
                plain[link.a].add(link.b)
                plain[link.b].add(link.a)
        self._links_by_area = {code: tuple(found) for code, found in by_area.items()}
        self.adjacency = {code: frozenset(found) for code, found in plain.items()}

    @classmethod
    def from_data(cls, data: Mapping[str, Any], source: RulesetSource | None = None) -> Board:
        """Build from board TOML data; `source` (the file it came from) names the file in errors."""
        folder, file = (Path("."), "board data") if source is None else (source.folder, source.file)
        return cls.read(RulesetSource(folder, data, file))

    @classmethod
    def read(cls, source: RulesetSource) -> Board:
        """Build from a board file; a RulesetDataError names the file and the key of any missing or wrong value."""
        areas = read_areas(source)
        return cls(areas, read_links(source, areas))

    # -- links ------------------------------------------------------------------------------------------------

    def links_of(self, code: str, kinds: Iterable[str] | None = None) -> tuple[Link, ...]:
        """The links of area `code`, in board order; only those of `kinds` when given."""
        found = self._links_by_area[code]
        if kinds is None:
            return found
        wanted = frozenset(kinds)
        return tuple(link for link in found if link.kind in wanted)

    def neighbours(self, code: str, kinds: Iterable[str] | None = None) -> frozenset[str]:
        """The areas joined to `code` by a link (of `kinds` when given)."""
        return frozenset(link.other(code) for link in self.links_of(code, kinds))

    def link_kind(self, a: str, b: str) -> str | None:
        """The kind of the first link between `a` and `b` in board order, or None when they are not linked."""
        return next((link.kind for link in self._links_by_area[a] if link.other(a) == b), None)

    def attributes(self, code: str) -> Mapping[str, Any]:
        """The keys of area `code`'s table that the core does not read (the ruleset interprets them)."""
        return self.areas[code].attributes

    # -- areas ------------------------------------------------------------------------------------------------

    def is_land(self, code: str) -> bool:
        return self.areas[code].is_land

    def value(self, code: str) -> int:
        return self.areas[code].value

    def name(self, code: str) -> str:
        return self.areas[code].name

    def sea_neighbours(self, code: str) -> frozenset[str]:
        """The sea areas joined to `code` by a plain link (a coast or a sea lane)."""
        return frozenset(a for a in self.adjacency[code] if not self.areas[a].is_land)

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


def plain_kind(areas: Mapping[str, AreaInfo], a: str, b: str) -> str:
    """The kind an `adjacent` entry gives: land border, coast or sea lane by how many of the two are land."""
    return PLAIN_KINDS[areas[a].is_land + areas[b].is_land]


def read_areas(source: RulesetSource) -> dict[str, AreaInfo]:
    """The `[[area]]` tables; every key the core does not read becomes an attribute of the area."""
    areas: dict[str, AreaInfo] = {}
    for table in source.tables("area"):
        code = _checked(table, "code", str)
        if code in areas:
            raise table.error("code", f"{code!r} is given twice (also area[{list(areas).index(code)}])")
        kind = _checked(table, "kind", str)
        if kind not in AREA_KINDS:
            raise table.error("kind", f"expected one of {', '.join(AREA_KINDS)}, found {kind!r}")
        areas[code] = AreaInfo(
            code,
            _checked(table, "name", str),
            kind,
            _checked(table, "value", int, 0),
            _strings(table, "aliases"),
            _checked(table, "x", int, 0),
            _checked(table, "y", int, 0),
            MappingProxyType({k: v for k, v in table.data.items() if k not in CORE_AREA_KEYS}),
        )
    return areas


def _checked(table: RulesetSource, key: str, kind: type, *default: Any) -> Any:
    """table.value(key, kind, *default), without its checks when the value is plainly right: a ruleset loads on
    every command (start-up time counts), and the checks of 60 areas cost more than the rest of it."""
    value = table.data.get(key, *default)
    return value if type(value) is kind else table.value(key, kind, *default)


def _strings(table: RulesetSource, key: str) -> tuple[str, ...]:
    """table.strings(key, ()), by the same plain-value short cut."""
    items = table.data.get(key, ())
    if type(items) is list and all(type(item) is str for item in items):
        return tuple(items)
    return table.strings(key, ())


def read_links(source: RulesetSource, areas: Mapping[str, AreaInfo]) -> tuple[Link, ...]:
    """The plain links of the `adjacent` lists (each pair once, in board order), then the `[[link]]` tables."""
    links: list[Link] = []
    seen: set[tuple[str, str]] = set()
    for table in source.tables("area"):
        code = _checked(table, "code", str)
        for position, other in enumerate(_strings(table, "adjacent")):
            if other not in areas or other == code:
                raise table.error(f"adjacent[{position}]", f"{other!r} is no other area of the board")
            pair = (code, other) if code < other else (other, code)
            if pair not in seen:
                seen.add(pair)
                links.append(Link(code, other, plain_kind(areas, code, other)))
    if "link" in source.data:
        links += [read_link(table, areas) for table in source.tables("link")]
    return tuple(links)


def read_link(table: RulesetSource, areas: Mapping[str, AreaInfo], kind: str | None = None) -> Link:
    """One link table: `between` two areas, its `kind` (or the `kind` given, for a ruleset's own tables such
    as CoE's `[[strait]]`), every other key an attribute."""
    between = table.strings("between")
    if len(between) != 2 or between[0] == between[1]:
        raise table.error("between", f"expected two different area codes, found {list(between)!r}")
    for position, code in enumerate(between):
        if code not in areas:
            raise table.error(f"between[{position}]", f"{code!r} is no area of the board")
    attributes = {k: v for k, v in table.data.items() if k not in ("between", "kind")}
    return Link(between[0], between[1], table.text("kind") if kind is None else kind, MappingProxyType(attributes))
