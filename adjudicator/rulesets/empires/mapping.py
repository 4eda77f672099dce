"""Empires of the Ancient World on the shared board drawing (adjudicator/render/svgmap.py): what map.svg shows of a
position. Public information only: the snapshot's public part (no hand, no home army, no plan, no deck order).

Shown: every area of the moderator's map (EAW-11.1) at its data position (x, y from 0 to 1000, scaled to the
drawing), provinces as land and sea areas as sea; who controls it (EAW-2.4) in the player's colour; its fort
(EAW-2.5); the count of control markers (EAW-7.40) and each player's trade markers there (EAW-2.6); the three
Mediterranean seas (EAW-2.2) named in the heading and in their tooltips; the connections (EAW-2.1): land borders,
coasts, mountains and straits in the board's line styles, sea connections (the rules' blue lines) in the blue
line style svgmap draws for rivers. A game bound to its data hands `EmpiresMap(data)` over as its `map_layers`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from adjudicator.engine.board import COAST as BOARD_COAST
from adjudicator.engine.board import LAND_BORDER, RIVER, AreaInfo, Board, Link
from adjudicator.engine.board import MOUNTAIN as BOARD_MOUNTAIN
from adjudicator.engine.board import SEA_LANE as BOARD_SEA_LANE
from adjudicator.engine.board import STRAIT as BOARD_STRAIT
from adjudicator.render.svgmap import MAP_HEIGHT, WIDTH, AreaLayer, Arrow, Fight, MapLayers, Pieces, Translate
from adjudicator.rulesets.empires.data import COAST, LAND, MOUNTAIN, SEA_LANE, STRAIT, WATER, GameData


def _(msgid: str) -> str:
    """Marks a message of the map for pybabel; the map translates it when drawn (as conqueror/mapping.py does)."""
    return msgid


# The data's connection kinds (EAW-2.1) as the board drawing's link kinds: a sea connection is the rules' blue line,
# drawn in the blue style of a river; two sea areas that touch are a plain sea lane.
LINK_KINDS: Mapping[str, str] = {
    LAND: LAND_BORDER,
    MOUNTAIN: BOARD_MOUNTAIN,
    STRAIT: BOARD_STRAIT,
    SEA_LANE: RIVER,
    COAST: BOARD_COAST,
    WATER: BOARD_SEA_LANE,
}
# A seat named after a colour is drawn in it; other seats get svgmap's spare colours.
COLOURS: Mapping[str, str] = {
    "red": "#b03a2e",
    "blue": "#1f5fbf",
    "green": "#2e8b57",
    "yellow": "#a67c00",
    "purple": "#7b3fa0",
    "orange": "#d35400",
    "black": "#333333",
    "white": "#8a8a8a",
    "brown": "#7a5230",
}
FORT = "fort-large"  # EAW-1.1: a fort is a black disc; svgmap's dark fortress
# the drawing's margins: the heading above, room for labels below
LEFT, TOP, SPAN_X, SPAN_Y = 160, 200, WIDTH - 320, MAP_HEIGHT - 380
SYMBOLS: tuple[tuple[str, str, int], ...] = (
    (FORT, _("fort"), 40),
    ("mountain", _("mountain border"), 80),
    ("strait", _("strait"), 80),
    ("river", _("sea connection"), 80),
    ("land", _("attack"), 90),
    ("sea", _("attack by sea"), 90),
    ("battle", _("battle"), 60),
    ("key", _("C control markers · T trade markers"), -16),
)


class EmpiresMap:
    """The `map_layers` of a game bound to its data: svgmap's layers function, drawn on the data's own board."""

    def __init__(self, data: GameData) -> None:
        self.data = data
        self.board = board(data)

    def board_of(self, snapshot: Mapping[str, Any]) -> Board:
        return self.board

    def __call__(
        self, board: Board, snapshot: Mapping[str, Any], events: list[dict[str, Any]], tr: Translate
    ) -> MapLayers:
        return map_layers(self.data, snapshot, tr, events)


def board(data: GameData) -> Board:
    """The data's map (EAW-11.1) as the drawing's board: positions scaled from 0-1000 to the picture."""
    areas = {
        a.id: AreaInfo(
            a.id,
            a.name,
            "land" if a.is_province else "sea",
            a.value,
            x=LEFT + round(a.x * SPAN_X / 1000),
            y=TOP + round(a.y * SPAN_Y / 1000),
        )
        for a in data.map.areas.values()
    }
    links = tuple(
        Link(c.a, c.b, LINK_KINDS[kind]) for c in data.map.connections for kind in sorted(c.kinds) if kind in LINK_KINDS
    )
    return Board(areas, links)


def map_layers(
    data: GameData, snapshot: Mapping[str, Any], tr: Translate, events: list[dict[str, Any]] | None = None
) -> MapLayers:
    """What a position shows (module docstring): read from the snapshot's public part alone; the step's public
    attacks and battles (`events` as the archive stores them) as arrows and battle marks."""
    public = snapshot["public"]
    seats: list[str] = list(public.get("seats") or public.get("players", {}))
    control: Mapping[str, Mapping[str, Any]] = public.get("control", {})
    forts: Mapping[str, str] = public.get("forts", {})
    trade: Mapping[str, Mapping[str, int]] = public.get("trade", {})
    shown = [e for e in events or () if "visible_to" not in e]  # public events only (Event.to_json)
    areas: dict[str, AreaLayer] = {}
    pieces: list[Pieces] = []
    for code in sorted(data.map.areas):
        held = control.get(code)
        owner = str(held["seat"]) if held else ""
        markers = int(held["markers"]) if held else 0
        traders = [(seat, n) for seat, n in sorted(trade.get(code, {}).items()) if n]
        areas[code] = AreaLayer(owner, FORT if code in forts else "", tooltip(data, code, owner, markers, forts, tr))
        lines = [(owner, f"{markers}C")] if owner else []
        lines += [(seat, f"{n}T") for seat, n in traders]
        if lines:
            words = [tr("%(seat)s: %(n)s control marker(s)", seat=owner, n=markers)] if owner else []
            words += [tr("%(seat)s: %(n)s trade marker(s)", seat=seat, n=n) for seat, n in traders]
            pieces.append(Pieces(code, lines, "\n".join(words)))
    return MapLayers(
        seats=seats,
        fixed_colours={seat: COLOURS[seat.lower()] for seat in seats if seat.lower() in COLOURS},
        areas=areas,
        roads=[],
        pieces=pieces,
        moves=attacks(data, shown, tr),
        battles=battles(data, shown, tr),
        legend_seats=[(seat, False) for seat in seats],
        legend_symbols=SYMBOLS,
        details=details(data, public, tr),
    )


def attacks(data: GameData, events: list[dict[str, Any]], tr: Translate) -> list[Arrow]:
    """EAW-7.1: each attack of the step, from its origin to its target; by sea when it crossed a sea connection or
    relied on the Mediterranean rule (EAW-2.3, EAW-7.3)."""
    found = []
    for e in events:
        d = e.get("data", {})
        if e.get("kind") != "attack" or d.get("origin") not in data.map.areas or d.get("target") not in data.map.areas:
            continue
        by_sea = d.get("mediterranean") or SEA_LANE in d.get("crossing", ()) or data.map.areas[d["target"]].is_sea
        words = tr(
            "%(seat)s attacks %(target)s from %(origin)s", seat=e.get("seat"), target=d["target"], origin=d["origin"]
        )
        found.append(Arrow(str(e.get("seat")), [d["origin"], d["target"]], "sea" if by_sea else "land", words))
    return found


def battles(data: GameData, events: list[dict[str, Any]], tr: Translate) -> list[Fight]:
    """EAW-8: each battle of the step in its area (a naval battle at sea, EAW-8.20), once per area."""
    found: dict[str, Fight] = {}
    for e in events:
        d = e.get("data", {})
        if e.get("kind") != "battle_begins" or d.get("area") not in data.map.areas or d["area"] in found:
            continue
        words = tr(
            "battle in %(area)s: %(seat)s against %(defender)s",
            area=d["area"],
            seat=e.get("seat"),
            defender=d.get("defender"),
        )
        kind = "naval-battle" if d.get("battle") == "naval" else "land-battle"
        found[d["area"]] = Fight(d["area"], kind, words)
    return list(found.values())


def details(data: GameData, public: Mapping[str, Any], tr: Translate) -> list[str]:
    """The heading's second line: the game round and action round (EAW-4.3), the Mediterranean seas (EAW-2.2), the
    winners once the game has ended (EAW-10.8)."""
    found = []
    if public.get("round"):
        found.append(tr("game round %(round)s", round=public["round"]))
    if public.get("phase") == "action" and public.get("action_round"):
        found.append(tr("action round %(n)s", n=public["action_round"]))
    if data.map.mediterranean_seas:
        found.append(tr("Mediterranean: %(seas)s", seas=", ".join(data.map.mediterranean_seas)))
    if public.get("winners"):
        found.append(tr("winner: %(seat)s", seat=", ".join(public["winners"])))
    return found


def tooltip(data: GameData, code: str, owner: str, markers: int, forts: Mapping[str, str], tr: Translate) -> str:
    """The area's name and code, its VP value (EAW-2.9), who controls it (EAW-2.4), its fort (EAW-2.5), its half
    (EAW-2.10), amphora (EAW-2.7) and whether it is a Mediterranean sea or coast (EAW-2.2)."""
    area = data.map.areas[code]
    lines = [f"{area.name} ({code})", tr("%(value)s VP", value=area.value)]
    lines.append(tr("held by %(seat)s", seat=owner) if owner else tr("neutral"))
    if code in forts:
        lines.append(tr("fort of %(seat)s", seat=forts[code]))
    if area.half:
        lines.append(tr("north") if area.half == "north" else tr("south"))
    if area.amphora:
        lines.append(tr("amphora"))
    if area.mediterranean:
        lines.append(tr("a Mediterranean sea"))
    elif area.mediterranean_coast:
        lines.append(tr("on the Mediterranean"))
    return "\n".join(lines)
