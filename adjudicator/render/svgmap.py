"""A schematic SVG map of one position (`map.svg`): areas at their board centres, owners, pieces, the turn's moves.

There is no picture of the board to draw on, so the map is drawn from board.toml alone: land areas as rounded
rectangles and sea zones as ellipses at their centres, borders and coasts as thin lines, roads as thick ones.
The geometry is computed here; templates/map.svg.j2 writes the elements, escaping every text, but for the army
labels, which _forces_layer writes in one pass (escaping their texts too): they were half the template's time.
Same inputs, same bytes: nothing below depends on set or hash order, and every coordinate is rounded.

This module knows no game. What a position puts on the board comes from its ruleset's map layers: a function
`map_layers(board, snapshot, events, tr) -> MapLayers`, the protocol's `map_layers` (e.g.
adjudicator/rulesets/coe/mapping.py). MapLayers names, in the board's terms, each area's
owner (its colour), its corner marker and tooltip, the lines drawn between areas (roads), the pieces' labels, the
turn's arrows and fights, the legend's seats and symbols and the heading's details. The symbols a ruleset may
use are the ones map.svg.j2 draws: markers "city" and "fortified", arrow styles "land", "sea" and "retreat",
fights "land-battle" and "naval-battle", legend samples of those plus "road", "strait" and "battle" (any other
legend kind is written as text).

The board's typed links (engine/board.py) are drawn each in a line style of its own: straits, rivers, bridges and
mountain passes; a ruleset names them in its legend as "strait", "river", "bridge" and "mountain". The fort
markers "fort-large", "fort-small", "fort-built" and "fort-blanked" and the marker "capital" are drawn too (and
have legend samples). A style is written into the map only when its board has such a link, so a board without
them keeps its bytes.

A ruleset whose board depends on the position (one board side per player count) gives its map layers function
an attribute `board_of(snapshot) -> Board`; the map of a stored turn is then drawn on that board.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from adjudicator.engine.board import BRIDGE, MOUNTAIN, RIVER, STRAIT, Board
from adjudicator.render import markup_environment
from adjudicator.render.i18n import engine_data, gettext
from adjudicator.resources import kept
from adjudicator.rulesets import Ruleset, load_ruleset

if TYPE_CHECKING:
    from markupsafe import Markup

# The typed links drawn over the plain ones, in this order, each with a line style of map.svg.j2 (class "link
# <kind>"): a strait (CoE), a river, a bridge, a mountain pass.
TYPED_LINKS = (STRAIT, RIVER, BRIDGE, MOUNTAIN)

# The picture the board's x/y were measured on (board.toml), plus a band below it for the legend.
WIDTH, MAP_HEIGHT, LEGEND_HEIGHT = 3800, 2000, 170
HEIGHT = MAP_HEIGHT + LEGEND_HEIGHT

# For seats without a colour of their ruleset (or renamed ones): handed out in turn order, after the named ones.
SPARE_COLOURS = ("#8e2f5d", "#4d5d1a", "#2c3e8f", "#8a4b08", "#006d6f", "#6b2fb3", "#555555")
NEUTRAL_FILL, NEUTRAL_STROKE = "#e6e2d8", "#a39e92"
BATTLE_RED = "#d0021b"

CODE_FONT, NAME_FONT, SEA_NAME_FONT, LABEL_FONT = 42, 27, 25, 32
LABEL_LINE = 42  # the height of one army label line


@dataclass(frozen=True)
class Translate:
    """gettext of the map's language: tr(msgid, **values); tr.keyword(name): keyword `name` as its reader writes
    it, for the labels that show what he orders with (2 INF, 1 KAV)."""

    language: str = "en"

    def __call__(self, msgid: str, **values: object) -> str:
        return gettext(self.language, msgid, **values)

    def keyword(self, name: str) -> str:
        from adjudicator.orders.keywords import written

        return written(self.language, name)


@dataclass(frozen=True)
class AreaLayer:
    """What a ruleset shows of one area: who holds it (its colour; "" for nobody), the marker in its corner
    ("" for none) and its tooltip."""

    owner: str = ""
    marker: str = ""
    tooltip: str = ""


@dataclass(frozen=True)
class Pieces:
    """The label lines of the pieces in one area, (seat, text) each, with their tooltip."""

    code: str
    texts: list[tuple[str, str]]
    tooltip: str


@dataclass(frozen=True)
class Arrow:
    """A way travelled in the turn: through the areas of `path`, drawn in `style` in the seat's colour."""

    seat: str
    path: list[str]
    style: str
    tooltip: str


@dataclass(frozen=True)
class Fight:
    """An area fought over in the turn (`kind`: "land-battle" or "naval-battle")."""

    area: str
    kind: str
    tooltip: str


@dataclass(frozen=True)
class MapLayers:
    """Everything a ruleset puts on the board drawing (see the module's docstring)."""

    seats: list[str]  # every seat to colour, in the order spare colours are handed out
    fixed_colours: Mapping[str, str]  # the ruleset's own colour of a seat name
    areas: dict[str, AreaLayer]
    roads: list[tuple[str, str]]  # pairs of areas, each once
    pieces: list[Pieces]  # in the order their labels are placed
    moves: list[Arrow]
    battles: list[Fight]
    legend_seats: list[tuple[str, bool]]  # (seat, eliminated) in the legend's order
    legend_symbols: tuple[tuple[str, str, int], ...]  # (symbol, msgid, the sample's width)
    details: list[str]  # the heading's second line, translated
    seat_names: Mapping[str, str] = field(default_factory=dict)  # a legend seat in the reader's words, if not its name


LayersOf = Callable[[Board, Mapping[str, Any], list[dict[str, Any]], Translate], MapLayers]


@dataclass(frozen=True)
class Spot:
    """Where an area is drawn: its centre after overlap removal and its shape's half width and height."""

    code: str
    x: float
    y: float
    hw: float
    hh: float
    land: bool

    def edge(self, ux: float, uy: float) -> float:
        """Distance from the centre to the shape's outline in the unit direction (ux, uy)."""
        if self.land:
            return min(self.hw / abs(ux) if ux else math.inf, self.hh / abs(uy) if uy else math.inf)
        return 1 / math.hypot(ux / self.hw, uy / self.hh)


def _text_width(text: str, size: float, bold: bool = False) -> float:
    """A rough width of a line of sans-serif text (no font metrics here; enough to size boxes)."""
    return len(text) * size * (0.62 if bold else 0.56)


def _shape_size(name: str, land: bool) -> tuple[float, float]:
    if land:
        return max(95.0, _text_width(name, NAME_FONT) / 2 + 20), 52.0
    return max(125.0, _text_width(name, SEA_NAME_FONT) / 2 + 34), 58.0


@cache
def _layout(areas: tuple[tuple[str, str, bool, int, int], ...]) -> dict[str, Spot]:
    """Centres moved apart until no two shapes (with room for a label line below) overlap.

    Depends on the board only, so that an area stays in the same place on every turn's map. Some board
    centres nearly coincide (Britannia lies inside Oceanus Britannicus), hence the pushing."""
    pad_x, pad_y, apart = 26.0, 58.0, 270.0
    sizes = [_shape_size(name, land) for _, name, land, _, _ in areas]
    xs = [float(x) for *_, x, _ in areas]
    ys = [float(y) for *_, y in areas]
    for _ in range(400):
        moved = False
        for i in range(len(areas)):
            for j in range(i + 1, len(areas)):
                dx, dy = xs[j] - xs[i], ys[j] - ys[i]
                over_x = sizes[i][0] + sizes[j][0] + pad_x - abs(dx)
                over_y = sizes[i][1] + sizes[j][1] + pad_y - abs(dy)
                if over_x <= 0 or over_y <= 0:
                    # no overlap, but centres this close leave no room for an arrow between diagonal neighbours:
                    # move both apart along the line joining them
                    distance = math.hypot(dx, dy)
                    if 0 < distance < apart - 0.5:
                        step = (apart - distance) / 2 / distance
                        xs[i], ys[i] = xs[i] - dx * step, ys[i] - dy * step
                        xs[j], ys[j] = xs[j] + dx * step, ys[j] + dy * step
                        moved = True
                    continue
                moved = True
                # push along the axis that needs the smaller move, half each, the way they already lie;
                # sideways a little more readily, as the shapes are wider than tall
                if over_x * 0.6 < over_y:
                    step = (over_x / 2 + 0.5) * (1 if dx >= 0 else -1)
                    xs[i], xs[j] = xs[i] - step, xs[j] + step
                else:
                    step = (over_y / 2 + 0.5) * (1 if dy >= 0 else -1)
                    ys[i], ys[j] = ys[i] - step, ys[j] + step
        for i, (hw, hh) in enumerate(sizes):  # keep everything on the picture, below the heading
            xs[i] = min(max(xs[i], hw + 12), WIDTH - hw - 12)
            ys[i] = min(max(ys[i], hh + 100), MAP_HEIGHT - hh - 60)
        if not moved:
            break
    return {
        code: Spot(code, round(xs[i]), round(ys[i]), sizes[i][0], sizes[i][1], land)
        for i, (code, _, land, _, _) in enumerate(areas)
    }


def layout(board: Board) -> dict[str, Spot]:
    """Where each area of `board` is drawn (cached per board data)."""
    key = tuple((a.code, a.name, a.is_land, a.x, a.y) for a in sorted(board.areas.values(), key=lambda a: a.code))
    return _kept_layout(key)


@cache
def _kept_layout(areas: tuple[tuple[str, str, bool, int, int], ...]) -> dict[str, Spot]:
    """_layout's spots, kept in the cache folder between processes: the pushing apart costs a tick or a map
    command a third of a second in pure Python, and its result depends on the board and this file alone (the
    digest covers both; floats keep their bits in marshal)."""
    source = Path(__file__).read_bytes() + b"\0" + repr(areas).encode()
    spots = kept(
        "map-layout",
        source,
        lambda: [(s.code, s.x, s.y, s.hw, s.hh, s.land) for s in _layout(areas).values()],
    )
    return {code: Spot(code, x, y, hw, hh, land) for code, x, y, hw, hh, land in spots}


def seat_colours(
    seats: Iterable[str], colours: Mapping[str, str] | None = None, fixed: Mapping[str, str] | None = None
) -> dict[str, str]:
    """A colour for every seat: the caller's, else the seat name's `fixed` one (the ruleset's), else a spare one in
    order."""
    chosen: dict[str, str] = {}
    spare = iter(SPARE_COLOURS)
    for seat in seats:
        if seat in chosen:
            continue
        if colours and seat in colours:
            chosen[seat] = colours[seat]
        elif fixed and seat in fixed:
            chosen[seat] = fixed[seat]
        else:
            chosen[seat] = next(spare, "#555555")
    return chosen


# -- geometry -----------------------------------------------------------------------------------------------------


def _point(x: float, y: float) -> str:
    return f"{round(x)},{round(y)}"


def _links(board: Board, spots: Mapping[str, Spot]) -> list[dict[str, Any]]:
    """Borders (land-land), coasts (land-sea) and sea lanes (sea-sea), each pair once; then the typed links
    (straits, rivers, bridges, mountain passes), kind by kind."""
    out = []
    for a in sorted(board.adjacency):
        for b in sorted(board.adjacency[a]):
            if a >= b or a not in spots or b not in spots:
                continue
            lands = board.is_land(a) + board.is_land(b)
            kind = {2: "border", 1: "coast", 0: "lane"}[lands]
            out.append({"kind": kind, "x1": spots[a].x, "y1": spots[a].y, "x2": spots[b].x, "y2": spots[b].y})
    for kind in TYPED_LINKS:
        for a, b in sorted(tuple(sorted((link.a, link.b))) for link in board.links if link.kind == kind):
            if a in spots and b in spots:
                out.append({"kind": kind, "x1": spots[a].x, "y1": spots[a].y, "x2": spots[b].x, "y2": spots[b].y})
    return out


def link_kinds(board: Board) -> frozenset[str]:
    """The typed link kinds other than straits that `board` has: the line styles its map needs (a board without
    them, CoE's, keeps its bytes)."""
    return frozenset(link.kind for link in board.links if link.kind in TYPED_LINKS and link.kind != STRAIT)


def _roads(roads: list[tuple[str, str]], spots: Mapping[str, Spot]) -> list[dict[str, Any]]:
    return [
        {"x1": spots[a].x, "y1": spots[a].y, "x2": spots[b].x, "y2": spots[b].y, "between": f"{a}-{b}"}
        for a, b in roads
        if a in spots and b in spots
    ]


def _arrow(path: list[Spot], shift: float) -> tuple[str, str] | None:
    """The polyline and arrowhead of a move along `path`: through the centres to the last shape's outline,
    moved sideways by `shift` so that moves along the same line stay apart."""
    if len(path) < 2:
        return None
    points = [[float(s.x), float(s.y)] for s in path]
    if shift:
        normals = []
        for (x1, y1), (x2, y2) in zip(points, points[1:], strict=False):
            length = math.hypot(x2 - x1, y2 - y1) or 1.0
            normals.append(((y1 - y2) / length, (x2 - x1) / length))
        for i, point in enumerate(points):
            near = [normals[j] for j in (i - 1, i) if 0 <= j < len(normals)]
            nx, ny = sum(n[0] for n in near), sum(n[1] for n in near)
            length = math.hypot(nx, ny) or 1.0
            point[0] += shift * nx / length
            point[1] += shift * ny / length
    # the line runs beneath the shapes from centre to centre (hidden inside the areas it passes) and ends at the
    # destination's outline, where its head is drawn above the shapes, so that a short hop still shows
    dx, dy = points[-1][0] - points[-2][0], points[-1][1] - points[-2][1]
    length = math.hypot(dx, dy)
    if length < 1:
        return None
    ux, uy = dx / length, dy / length
    cut = min(path[-1].edge(ux, uy) + 6, length - 50)
    points[-1][0] -= ux * cut
    points[-1][1] -= uy * cut
    (x1, y1), (x2, y2) = points[-2], points[-1]
    length = math.hypot(x2 - x1, y2 - y1) or 1.0
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    head_length, half = 52.0, 17.0
    bx, by = x2 - ux * head_length, y2 - uy * head_length
    points[-1] = [x2 - ux * head_length * 0.6, y2 - uy * head_length * 0.6]  # the line stops inside the head
    head = " ".join(_point(*p) for p in ((x2, y2), (bx - uy * half, by + ux * half), (bx + uy * half, by - ux * half)))
    return " ".join(_point(*p) for p in points), head


def _moves(arrows: list[Arrow], spots: Mapping[str, Spot], colour: Mapping[str, str]) -> list[dict[str, Any]]:
    """The drawn arrows, in the mover's colour."""
    out = []
    used: dict[tuple[str, str], int] = {}
    for arrow in arrows:
        codes = [c for c in arrow.path if c in spots]
        if len(codes) < 2:
            continue
        # beside the line between the areas, not on it, so that the road or border under it stays visible: every
        # arrow keeps to one side of its way (a move there and a retreat back lie side by side), and a further
        # arrow the same way lies further out
        key = (codes[0], codes[-1])
        count = used.get(key, 0)
        used[key] = count + 1
        shift = 16.0 + 20.0 * count
        drawn = _arrow([spots[c] for c in codes], shift)
        if drawn is None:
            continue
        out.append(
            {
                "points": drawn[0],
                "head": drawn[1],
                "colour": colour.get(arrow.seat, NEUTRAL_STROKE),
                "style": arrow.style,
                "path": " ".join(codes),
                "tooltip": arrow.tooltip,
            }
        )
    return out


def _battles(fights: list[Fight], spots: Mapping[str, Spot]) -> list[dict[str, Any]]:
    """A red ring and crossed swords on every area fought over."""
    out: list[dict[str, Any]] = []
    for fight in fights:
        if fight.area not in spots:
            continue
        s = spots[fight.area]
        out.append(
            {
                "area": fight.area,
                "x": s.x,
                "y": s.y,
                "rx": round(s.hw + 20),
                "ry": round(s.hh + 20),
                "sx": round(s.x - s.hw - 2),
                "sy": round(s.y - s.hh - 4),
                "kind": fight.kind,
                "tooltip": fight.tooltip,
            }
        )
    return out


def _legend(
    seats: list[tuple[str, str, bool]], symbols: Iterable[tuple[str, str, int]], tr: Callable[[str], str]
) -> list[dict[str, Any]]:
    """Legend entries in two rows, left to right: the seats' colours, then the ruleset's symbols (words translated
    by `tr` before they are measured)."""
    out: list[dict[str, Any]] = []
    x = 40.0
    for seat, colour, eliminated in seats:
        text = seat + (f" ({tr('eliminated')})" if eliminated else "")
        out.append({"kind": "seat", "x": round(x), "y": -34, "text": text, "colour": colour})
        x += 76 + _text_width(text, 30) + 44
    out.append({"kind": "neutral", "x": round(x), "y": -34, "text": tr("neutral"), "colour": ""})
    x = 40.0
    for kind, text, width in symbols:
        text = tr(text)
        out.append({"kind": kind, "x": round(x), "y": 34, "text": text, "colour": ""})
        x += width + 16 + _text_width(text, 30) + 44
    return out


def points_of(text: str) -> list[tuple[float, float]]:
    """The points of an SVG points attribute."""
    return [(float(x), float(y)) for x, y in (p.split(",") for p in text.split())]


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    """The area two boxes (left, top, right, bottom) share."""
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[1], b[1]))


Box = tuple[float, float, float, float]  # left, top, right, bottom
GRID_CELL = 100.0  # px: the cell of _BoxIndex's grid


class _BoxIndex:
    """Boxes kept in a grid of cells, so that the boxes near one are found without looking at all of them."""

    def __init__(self, boxes: Iterable[Box] = ()) -> None:
        self.boxes: list[Box] = []
        self.cells: dict[tuple[int, int], list[int]] = {}
        for box in boxes:
            self.add(box)

    def add(self, box: Box) -> None:
        for cell in _cells(box):
            self.cells.setdefault(cell, []).append(len(self.boxes))
        self.boxes.append(box)

    def near(self, cells: list[tuple[int, int]]) -> list[Box]:
        """The boxes that share one of a box's `cells` (_cells: every box it overlaps), in the order they were added:
        a sum of overlaps over them is the sum over all boxes, whose other terms are 0.0."""
        found = {i for cell in cells for i in self.cells.get(cell, ())}
        return [self.boxes[i] for i in sorted(found)]


class _LayeredIndex:
    """A board's index of its areas' shapes and the heading (built once per board) with the turn's own boxes
    (battles, arrowheads) added after them: near() lists the board's boxes first, then the turn's, each in the
    order added, the order one index of them all gives (so sums of overlaps keep their bits)."""

    def __init__(self, board: _BoxIndex, turn: Iterable[Box]) -> None:
        self.board, self.turn = board, _BoxIndex(turn)

    def near(self, cells: list[tuple[int, int]]) -> list[Box]:
        return self.board.near(cells) + self.turn.near(cells)


# board layout -> the index of its shapes and the heading: the same on every turn's map
_BOARD_OBSTACLES: dict[int, tuple[Mapping[str, Spot], _BoxIndex]] = {}


def _board_obstacles(spots: Mapping[str, Spot]) -> _BoxIndex:
    """The obstacles no position moves (the areas' shapes, the heading), indexed once per layout (layouts are
    cached per board, so `spots` is the same object for every map of a board)."""
    found = _BOARD_OBSTACLES.get(id(spots))
    if found is not None and found[0] is spots:
        return found[1]
    obstacles = [(s.x - s.hw, s.y - s.hh, s.x + s.hw, s.y + s.hh) for s in spots.values()]
    obstacles.append((0.0, 0.0, 1000.0, 125.0))  # the heading
    index = _BoxIndex(obstacles)
    _BOARD_OBSTACLES[id(spots)] = (spots, index)
    if len(_BOARD_OBSTACLES) > LINKS_KEPT:
        del _BOARD_OBSTACLES[next(iter(_BOARD_OBSTACLES))]
    return index


def _cells(box: Box) -> list[tuple[int, int]]:
    left, top, right, bottom = (math.floor(v / GRID_CELL) for v in box)
    return [(x, y) for x in range(left, right + 1) for y in range(top, bottom + 1)]


def _place_labels(
    forces: list[dict[str, Any]],
    spots: Mapping[str, Spot],
    colour: Mapping[str, str],
    battles: list[dict[str, Any]],
    moves: list[dict[str, Any]],
) -> None:
    """Put each area's army labels below its shape, or above, right or left of it, wherever they cover the
    least of the other shapes and of the labels placed before (areas in code order, so always the same)."""
    obstacles = [(b["sx"] - 32.0, b["sy"] - 32.0, b["sx"] + 32.0, b["sy"] + 32.0) for b in battles]  # swords
    for move in moves:  # arrowheads: a short hop between neighbours may show nothing else
        head = points_of(move["head"])
        obstacles.append(
            (min(x for x, _ in head), min(y for _, y in head), max(x for x, _ in head), max(y for _, y in head))
        )
    near_obstacles, placed = _LayeredIndex(_board_obstacles(spots), obstacles), _BoxIndex()
    for block in forces:
        s = spots[block["code"]]
        widths = [_text_width(text, LABEL_FONT, bold=True) + 18 for _, text in block["texts"]]
        width, height = max(widths), len(widths) * LABEL_LINE
        candidates = [  # (left, top) of the block, in order of preference
            (s.x - width / 2, s.y + s.hh + 6),
            (s.x - width / 2, s.y - s.hh - 6 - height),
            (s.x + s.hw + 8, s.y - height / 2),
            (s.x - s.hw - 8 - width, s.y - height / 2),
        ]
        best: tuple[float, int, float, float] | None = None
        own = (s.x - s.hw, s.y - s.hh, s.x + s.hw, s.y + s.hh)
        for rank, (left, top) in enumerate(candidates):
            left = min(max(left, 6.0), WIDTH - width - 6)
            top = min(max(top, 6.0), MAP_HEIGHT - height - 6)
            box = (left, top, left + width, top + height)
            cells = _cells(box)  # the grid cells it lies in, found once for both indexes
            cost = sum(_overlap(box, o) for o in near_obstacles.near(cells) if o != own) + sum(
                _overlap(box, p) for p in placed.near(cells)
            )
            cost += _overlap(box, own) * 4  # a label clamped onto its own area hides its name
            if best is None or (cost, rank) < best[:2]:
                best = (cost, rank, left, top)
            if best[0] == 0.0:
                break  # covers nothing: no later candidate (no cost below 0, a lower preference) can win
        assert best is not None
        _, _, left, top = best
        placed.add((left, top, left + width, top + height))
        block["lines"] = [
            {
                "text": text,
                "seat": seat,
                "colour": colour.get(seat, NEUTRAL_STROKE),
                "x": round(left + width / 2),
                "y": round(top + i * LABEL_LINE + LABEL_LINE / 2 + LABEL_FONT * 0.35),
                "left": round(left + (width - w) / 2),
                "top": round(top + i * LABEL_LINE + 2),
                "w": round(w),
                "h": LABEL_LINE - 4,
            }
            for i, ((seat, text), w) in enumerate(zip(block["texts"], widths, strict=True))
        ]


# -- the map -------------------------------------------------------------------------------------------------------


def render_map(
    board: Board,
    snapshot: dict[str, Any],
    events: list[dict[str, Any]],
    colours: dict[str, str] | None = None,
    title: str = "",
    language: str = "en",
    layers: LayersOf | None = None,
) -> str:
    """The SVG map of `snapshot` on `board`, with what `layers` (default: the map layers of the snapshot's
    ruleset) make of it and of `events` (the turn's stored events); the legend and heading in `language`."""
    spots = layout(board)

    tr = Translate(language)
    events = [{**e, "data": engine_data(language, e)} for e in events]  # troop lists in the reader's language
    drawn = (layers or layers_of(snapshot))(board, snapshot, events, tr)
    colour = seat_colours(drawn.seats, colours, drawn.fixed_colours)
    forces = [{"code": p.code, "texts": p.texts, "tooltip": p.tooltip} for p in drawn.pieces if p.code in spots]
    battles, moves = _battles(drawn.battles, spots), _moves(drawn.moves, spots, colour)
    _place_labels(forces, spots, colour, battles, moves)

    heading = title or f"{snapshot.get('game', '')} — turn {snapshot.get('turn', '')}"
    legend_seats = [
        (drawn.seat_names.get(seat, seat), colour[seat], eliminated) for seat, eliminated in drawn.legend_seats
    ]
    return (
        markup_environment(language)
        .get_template("map.svg.j2")
        .render(
            width=WIDTH,
            height=HEIGHT,
            map_height=MAP_HEIGHT,
            heading=heading,
            details=" · ".join(drawn.details),
            links=_links_layer(board, spots),
            link_kinds=link_kinds(board),
            roads=_fields(_roads(drawn.roads, spots)),
            areas=_areas_layer(board, spots, drawn.areas, colour),
            forces=_forces_layer(forces),
            moves=_fields(moves),
            battles=_fields(battles),
            legend=_fields(_legend(legend_seats, drawn.legend_symbols, tr)),
            legend_y=MAP_HEIGHT + LEGEND_HEIGHT // 2,
            battle_red=BATTLE_RED,
            neutral_fill=NEUTRAL_FILL,
            neutral_stroke=NEUTRAL_STROKE,
        )
    )


def _forces_layer(forces: list[dict[str, Any]]) -> Markup:
    """The army labels of map.svg.j2's forces layer (an area's block: its tooltip, then a framed line of text per
    seat), written in one pass: a map's some 20 lines of 9 values each were half its template's time, each value
    looked up and escaped in turn. The texts are escaped here; the coordinates are whole numbers (_place_labels)."""
    from markupsafe import Markup, escape

    parts = []
    for block in forces:
        parts.append(f'<g id="forces-{escape(block["code"])}" class="forces">\n')
        parts.append(f"<title>{escape(block['tooltip'])}</title>\n")
        for line in block["lines"]:
            colour = escape(line["colour"])
            parts.append(
                f'<rect x="{line["left"]}" y="{line["top"]}" width="{line["w"]}" height="{line["h"]}" rx="10" '
                f'stroke="{colour}"/>\n<text x="{line["x"]}" y="{line["y"]}" fill="{colour}" '
                f'data-seat="{escape(line["seat"])}">{escape(line["text"])}</text>\n'
            )
        parts.append("</g>\n")
    return Markup("".join(parts))  # noqa: S704 (every text above is escaped)


def _fields(items: list[dict[str, Any]]) -> list[SimpleNamespace]:
    """The template's elements as objects: Jinja reads `a.code` of an object at once, while of a dict it first
    tries (and fails) an attribute; the map's some 2,000 lookups took half its time that way."""
    return [SimpleNamespace(**item) for item in items]


# The links layer of a board (borders, coasts, lanes, straits), which no position changes: drawn once per board.
# board id -> (the board, kept so that its id is not reused while the entry lives; the SVG lines)
_LINKS_DRAWN: dict[int, tuple[Board, Markup]] = {}
LINKS_KEPT = 8


def _links_layer(board: Board, spots: Mapping[str, Spot]) -> Markup:
    """The links layer's lines (templates/map-links.svg.j2), drawn the first time a board is mapped."""
    from markupsafe import Markup  # with Jinja: commands that draw no map need not load it

    found = _LINKS_DRAWN.get(id(board))
    if found is not None and found[0] is board:
        return found[1]
    macro = markup_environment().get_template("map-links.svg.j2").module.links  # type: ignore[attr-defined]
    drawn = Markup(macro(_fields(_links(board, spots))))  # noqa: S704 (made by our own escaping template)
    _LINKS_DRAWN[id(board)] = (board, drawn)
    if len(_LINKS_DRAWN) > LINKS_KEPT:
        del _LINKS_DRAWN[next(iter(_LINKS_DRAWN))]
    return drawn


# The areas drawn in this process: an area's fields (_shape's values, always in the same order) -> its SVG. Most
# areas look alike turn after turn (nobody's, or held the same way), so most are found here. Oldest first, bounded.
_AREAS_DRAWN: dict[tuple[Any, ...], Markup] = {}
AREAS_KEPT = 4096


# What _shape makes an area's fields of, on a board and its layout: (board id, layout id, code, the area's layer,
# its fill and stroke) -> (the board and layout, kept so that their ids are not reused while the entry lives; the
# area's SVG). Found here, an area's fields are not made at all.
_AREAS_BY_MARK: dict[tuple[Any, ...], tuple[Board, Mapping[str, Spot], Markup]] = {}


def _areas_layer(
    board: Board, spots: Mapping[str, Spot], marks: Mapping[str, AreaLayer], colour: Mapping[str, str]
) -> Markup:
    """The areas layer (templates/map-area.svg.j2 for each area of the board, in code order, filled in its owner's
    colour), each area drawn once for the same fields."""
    from markupsafe import Markup

    macro = markup_environment().get_template("map-area.svg.j2").module.area  # type: ignore[attr-defined]
    parts = []
    for code in sorted(board.areas):
        mark = marks.get(code, AreaLayer())
        owner = mark.owner
        fill = colour.get(owner, NEUTRAL_FILL) if owner else NEUTRAL_FILL
        stroke = colour.get(owner, NEUTRAL_STROKE) if owner else NEUTRAL_STROKE
        by_mark = (id(board), id(spots), code, mark, fill, stroke)
        known = _AREAS_BY_MARK.get(by_mark)
        if known is not None and known[0] is board and known[1] is spots:
            parts.append(known[2])
            continue
        shape = _shape(board, code, spots[code], mark, colour)
        key = tuple(shape.values())
        drawn = _AREAS_DRAWN.get(key)
        if drawn is None:
            drawn = _AREAS_DRAWN[key] = Markup(macro(SimpleNamespace(**shape)))  # noqa: S704 (our escaping template)
            if len(_AREAS_DRAWN) > AREAS_KEPT:
                del _AREAS_DRAWN[next(iter(_AREAS_DRAWN))]
        _AREAS_BY_MARK[by_mark] = (board, spots, drawn)
        if len(_AREAS_BY_MARK) > AREAS_KEPT:
            del _AREAS_BY_MARK[next(iter(_AREAS_BY_MARK))]
        parts.append(drawn)
    return Markup("".join(parts))  # noqa: S704 (made by our own escaping template)


def _shape(board: Board, code: str, s: Spot, mark: AreaLayer, colour: Mapping[str, str]) -> dict[str, Any]:
    """One area's shape, filled in its owner's colour."""
    owner = mark.owner
    return {
        "code": code,
        "name": board.areas[code].name,
        "land": board.areas[code].is_land,
        "x": s.x,
        "y": s.y,
        "left": round(s.x - s.hw),
        "top": round(s.y - s.hh),
        "w": round(2 * s.hw),
        "h": round(2 * s.hh),
        "rx": round(s.hw),
        "ry": round(s.hh),
        "owned": bool(owner),
        "fill": colour.get(owner, NEUTRAL_FILL) if owner else NEUTRAL_FILL,
        "stroke": colour.get(owner, NEUTRAL_STROKE) if owner else NEUTRAL_STROKE,
        "owner": owner,
        "marker": mark.marker,
        "cx": round(s.x + s.hw - 4),
        "cy": round(s.y - s.hh + 4),
        "tooltip": mark.tooltip,
    }


def layers_of(snapshot: Mapping[str, Any]) -> LayersOf:
    """The map layers of the ruleset the snapshot names."""
    return map_layers(load_ruleset(snapshot["ruleset"]))


def map_layers(ruleset: Ruleset) -> LayersOf:
    """A ruleset's map layers: the protocol's `map_layers` (adjudicator/engine/protocol.py)."""
    layers = ruleset.map_layers
    if layers is None:
        raise ValueError(f"the ruleset {ruleset.name} draws no map")
    return layers  # type: ignore[no-any-return]


def render_map_for_turn(
    ruleset: Ruleset | str,
    state_json: str,
    events_json: str,
    title: str = "",
    language: str = "en",
    *,
    snapshot: dict[str, Any] | None = None,
) -> str:
    """The map of a stored turn (the archive's Turn row: state_json, events_json); `ruleset` is a Ruleset or its
    name. `snapshot`: the data of `state_json`, when the caller read it already (the map only reads it)."""
    if isinstance(ruleset, str):
        ruleset = load_ruleset(ruleset)
    layers, snapshot = map_layers(ruleset), json.loads(state_json) if snapshot is None else snapshot
    return render_map(
        board_of(ruleset, layers, snapshot),
        snapshot,
        json.loads(events_json or "[]"),
        title=title,
        language=language,
        layers=layers,
    )


def board_of(ruleset: Ruleset, layers: LayersOf, snapshot: Mapping[str, Any]) -> Board:
    """The board a position is drawn on: its layers' `board_of(snapshot)` where the board depends on the position
    (a side per player count), else the ruleset's one board."""
    choose = getattr(layers, "board_of", None)
    return choose(snapshot) if choose is not None else ruleset.board  # type: ignore[no-any-return]
