"""Reading a board side's file `board-<side>.toml` (ER-13.1): areas with their attributes, the Danube and the
bridges as typed links of the engine board (engine/board.py), blanked forts (ER-3.4) and independent armies
(ER-3.8) per player count; every problem is collected."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from adjudicator.engine.board import AREA_KINDS, BRIDGE, RIVER, Board
from adjudicator.engine.ruleset_source import RulesetDataError, RulesetSource
from adjudicator.rulesets.conqueror import problems as p
from adjudicator.rulesets.conqueror.data import (
    COINS_MOST,
    FOOD_MOST,
    FORTS,
    LINK_KINDS,
    SIDE_OF,
    UNITS_MOST,
    Area,
    IndependentArmy,
    MapSide,
    Units,
    frozen,
)
from adjudicator.rulesets.conqueror.reader import Table

AREA_KEYS = ("code", "name", "kind", "aliases", "x", "y", "adjacent", "fort", "capital", "food", "coins", "europe")
AREA_KEYS += ("wharf",)
UNIT_KEYS = ("cavalry", "infantry", "archer")
# ER-13.1: an area's drawing position lies on the map's picture, 3800 x 2000 (adjudicator/render/svgmap.py)
DRAWING_WIDTH, DRAWING_HEIGHT = 3800, 2000


def board_file(side: str) -> str:
    return f"board-{side}.toml"


def counts_of(side: str) -> tuple[int, ...]:
    return tuple(n for n, s in SIDE_OF.items() if s == side)


def read_units(table: Table, rule: str, extra: tuple[str, ...] = ()) -> Units:
    table.only((*UNIT_KEYS, *extra), rule)
    return Units(*(table.number(kind, rule, 0, low=0, high=UNITS_MOST) for kind in UNIT_KEYS))


def read_map(table: Table, side: str, factions: frozenset[str]) -> MapSide | None:
    """One board side; None when its areas or links are too broken to build the board."""
    before = len(table.report.problems)
    table.only(("side", "area", "link", "blanked", "independent"), "ER-13.1")
    if table.text("side", "ER-3.2") not in ("", side):
        table.problem("side", "ER-3.2", p.NOT_ONE_OF, value=repr(table.data["side"]), choices=side)
    areas = _areas(table, factions)
    adjacency = _adjacency(table, areas)
    _links(table, areas, adjacency)
    blanked = _blanked(table, side, areas)
    independents = _independents(table, side, areas)
    try:  # with wrong values but sound areas and links the side is still built, for the checks across files
        board = Board.read(RulesetSource(Path("."), table.data, table.file))
    except RulesetDataError as error:
        if len(table.report.problems) == before:  # its cause is reported above, unless it is one not checked there
            table.problem(p.WHOLE_FILE, "ER-13.1", p.NOT_TOML, error=str(error))
        return None
    return MapSide(side, board, frozen(areas), frozen(blanked), frozen(independents))


def _areas(table: Table, factions: frozenset[str]) -> dict[str, Area]:
    areas: dict[str, Area] = {}
    for area in table.tables("area", "ER-2.1"):
        area.only(AREA_KEYS, "ER-13.1")
        code = area.ident("code", "ER-2.1")
        if code in areas:
            area.problem("code", "ER-2.1", p.TWICE, value=repr(code))
        kind = area.choice("kind", "ER-2.1", AREA_KINDS)
        capital = area.text("capital", "ER-2.6", "")
        if capital and factions and capital not in factions:
            area.problem("capital", "ER-2.6", p.UNKNOWN_FACTION, value=repr(capital))
        found = Area(
            code=code,
            name=area.text("name", "ER-2.1"),
            land=kind != "sea",
            fort=area.choice("fort", "ER-2.6", FORTS),
            capital=capital or None,
            food=area.number("food", "ER-5.30", low=0, high=FOOD_MOST),
            coins=area.number("coins", "ER-5.2", low=0, high=COINS_MOST),
            europe=area.flag("europe", "ER-2.10"),
            wharf_site=area.flag("wharf", "ER-12.9", False),
        )
        area.number("x", "ER-13.1", 0, low=0, high=DRAWING_WIDTH)
        area.number("y", "ER-13.1", 0, low=0, high=DRAWING_HEIGHT)
        area.strings("aliases", "ER-13.1", [])
        if capital and (not found.land or found.fort != "large"):
            area.problem("capital", "ER-2.6", p.CAPITAL_NOT_LARGE, kind=kind, fort=found.fort)
        if code:
            areas.setdefault(code, found)
    return areas


def _adjacency(table: Table, areas: Mapping[str, Area]) -> dict[str, tuple[str, ...]]:
    """Each area's `adjacent` list, checked: known areas, never itself, and symmetric (ER-2.1)."""
    lists: dict[str, tuple[str, ...]] = {}
    for area in table.tables("area", "ER-2.1"):
        code = area.data.get("code")
        listed = area.strings("adjacent", "ER-2.1")
        for index, other in enumerate(listed):
            if other == code:
                area.problem(f"adjacent[{index}]", "ER-2.1", p.SELF_ADJACENT)
            elif other not in areas:
                area.problem(f"adjacent[{index}]", "ER-2.1", p.NO_AREA, value=repr(other))
            elif other in listed[:index]:  # one border, listed once (the board would hold the link twice)
                area.problem(f"adjacent[{index}]", "ER-2.1", p.TWICE, value=repr(other))
        if isinstance(code, str) and code not in lists:
            lists[code] = listed
    for area in table.tables("area", "ER-2.1"):
        code = area.data.get("code")
        for index, other in enumerate(lists.get(code, ()) if isinstance(code, str) else ()):
            if other in lists and code not in lists[other]:
                area.problem(f"adjacent[{index}]", "ER-2.1", p.NOT_SYMMETRIC, area=code, other=other)
        if isinstance(code, str) and areas.get(code) is not None and areas[code].wharf_site:
            if not any(other in areas and not areas[other].land for other in lists.get(code, ())):
                area.problem("wharf", "ER-12.9", p.WHARF_NOT_COASTAL, area=code)
    return lists


def _links(table: Table, areas: Mapping[str, Area], adjacency: Mapping[str, tuple[str, ...]]) -> None:
    """The Danube (river links, its areas all joined to each other) and bridges (two land areas), ER-2.2."""
    river: list[tuple[str, str]] = []
    seen: set[frozenset[str]] = set()
    for link in table.tables("link", "ER-2.2", []):
        link.only(("between", "kind"), "ER-2.2")
        kind = link.text("kind", "ER-2.2")
        if kind and kind not in LINK_KINDS:
            link.problem("kind", "ER-2.2", p.LINK_KIND, value=repr(kind))
        between = link.strings("between", "ER-2.2")
        if link.data.get("between") == "":
            continue
        if len(between) != 2 or between[0] == between[1]:
            link.problem("between", "ER-2.2", p.COUNT, expected="2 different areas", found=repr(list(between)))
            continue
        pair = frozenset(between)
        if pair in seen or between[1] in adjacency.get(between[0], ()):  # ER-2.1: a border is joined once
            link.problem("between", "ER-2.2", p.TWICE, value=repr(list(between)))
        seen.add(pair)
        known = [code for code in between if code in areas]
        for index, code in enumerate(between):
            if code not in areas:
                link.problem(f"between[{index}]", "ER-2.2", p.NO_AREA, value=repr(code))
            elif kind == BRIDGE and not areas[code].land:
                link.problem(f"between[{index}]", "ER-2.2", p.BRIDGE_NOT_LAND, area=code)
        if kind == RIVER and len(known) == 2:
            river.append((between[0], between[1]))
    joined = {frozenset(pair) for pair in river}
    members = sorted({code for pair in river for code in pair})
    for index, a in enumerate(members):
        for b in members[index + 1 :]:
            if frozenset((a, b)) not in joined:
                table.problem("link", "ER-2.2", p.RIVER_NOT_MUTUAL, a=a, b=b)


def _blanked(table: Table, side: str, areas: Mapping[str, Area]) -> dict[int, tuple[str, ...]]:
    """ER-3.4: the 2 forts covered by blank markers, at 3 players (3-4 side) or 5 players (5-6 side)."""
    blanked = table.table("blanked", "ER-3.4")
    if blanked is None:
        return {}
    counts = {str(n) for n in counts_of(side) if n in (3, 5)}
    blanked.only(counts, "ER-3.4")
    found: dict[int, tuple[str, ...]] = {}
    for count in sorted(counts):
        codes = blanked.strings(count, "ER-3.4")
        if blanked.has(count) and blanked.data[count] != "" and len(codes) != 2:
            blanked.problem(count, "ER-3.4", p.BLANKS, found=len(codes), players=count)
        for index, code in enumerate(codes):
            if code not in areas:
                blanked.problem(f"{count}[{index}]", "ER-3.4", p.NO_AREA, value=repr(code))
            elif areas[code].fort == "none":
                blanked.problem(f"{count}[{index}]", "ER-2.7", p.BLANK_WITHOUT_FORT, area=code)
        found[int(count)] = codes
    return found


def _independents(table: Table, side: str, areas: Mapping[str, Area]) -> dict[int, tuple[IndependentArmy, ...]]:
    """ER-3.8: independent armies by player count."""
    found: dict[int, list[IndependentArmy]] = {}
    for army in table.tables("independent", "ER-3.8", []):
        players = army.number("players", "ER-3.8")
        if players and players not in counts_of(side):
            army.problem("players", "ER-3.8", p.WRONG_SIDE_COUNT, players=players, side=side)
        code = army.text("area", "ER-3.8")
        if code and code not in areas:
            army.problem("area", "ER-3.8", p.NO_AREA, value=repr(code))
        elif code and areas[code].capital:
            army.problem("area", "ER-3.8", p.INDEPENDENT_ON_CAPITAL, area=code)
        units = read_units(army, "ER-3.8", ("players", "area"))
        found.setdefault(players, []).append(IndependentArmy(code, units))
    return {count: tuple(armies) for count, armies in found.items()}
