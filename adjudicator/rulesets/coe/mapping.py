"""Conquest of the Empire's map layers: what map.svg shows of a CoE position on the shared board drawing.

adjudicator/render/svgmap.py draws any board (areas, links, arrows, labels, the legend); this module says what a
CoE snapshot and turn put on it: the seats' colours, owners and cities, roads, the armies and galleys (C-1.2),
the turn's moves, voyages and retreats, and its land and naval battles. The registry reaches it as
`map_layers` of the ruleset's module (rulesets/coe/play.py).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from adjudicator.engine.board import Board
from adjudicator.render.i18n import N_
from adjudicator.render.svgmap import AreaLayer, Arrow, Fight, MapLayers, Pieces, Translate

# A fixed colour per seat name, so that a seat keeps its colour from turn to turn and game to game.
# Dark enough to be read as text on white (army labels are written in them).
SEAT_COLOURS: dict[str, str] = {
    "Macedonia": "#1f5fbf",
    "Galatia": "#7b3fa0",
    "Mesopotamia": "#d35400",
    "Egyptus": "#a67c00",
    "Numidia": "#2e8b57",
    "Hispania": "#c0392b",
    "Italia": "#138d90",
}

# The legend's symbols after the seats: (the map's symbol, its words, the width of its sample).
LEGEND_SYMBOLS: tuple[tuple[str, str, int], ...] = (
    ("city", N_("city"), 40),
    ("fortified", N_("fortified city"), 40),
    ("road", N_("road"), 80),
    ("strait", N_("strait"), 80),
    ("land", N_("move"), 90),
    ("sea", N_("voyage"), 90),
    ("retreat", N_("retreat"), 90),
    ("battle", N_("battle"), 70),
    ("key", N_("C Caesar · G1 general 1 · gal galley"), -16),
)


def map_layers(board: Board, snapshot: Mapping[str, Any], events: list[dict[str, Any]], tr: Translate) -> MapLayers:
    """What a CoE position (snapshot schema 1) and its turn's events (data in the reader's language) show."""
    areas: dict[str, dict[str, Any]] = snapshot.get("areas", {})
    players: dict[str, dict[str, Any]] = snapshot.get("players", {})
    others = sorted(
        {a.get("owner") for a in areas.values() if a.get("owner")}
        | {seat for a in areas.values() for seat in a.get("units", {})}
        | {e.get("seat") for e in events if e.get("seat")}
    )
    notes = _notes(events, tr)
    marks, pieces = {}, []
    extra = os.environ.get("PBEM_RULESETS")  # read once per map: the quiet tooltips are remembered by it
    for code in sorted(board.areas):
        area = areas.get(code, {})
        units = area.get("units")
        if not units and code not in notes:
            tooltip = _quiet_tooltip(board, code, area, tr, extra)
            marks[code] = AreaLayer(area.get("owner") or "", area.get("city") or "", tooltip)
            continue
        # each force's words once, for the area's tooltip and its pieces' tooltip
        lines = [f"{seat}: {_army_words(force, tr)}" for seat, force in (units or {}).items()]
        tooltip = _area_tooltip(board, code, area, notes.get(code, []), tr, lines)
        marks[code] = AreaLayer(area.get("owner") or "", area.get("city") or "", tooltip)
        texts = [(seat, army_label(force, tr)) for seat, force in (units or {}).items()]
        texts = [(seat, text) for seat, text in texts if text]
        if texts:
            pieces.append(Pieces(code, texts, "\n".join(lines)))
    details = [f"{snapshot.get('ruleset', '')}", tr("round %(round)s", round=snapshot.get("round", ""))]
    if snapshot.get("active"):
        details.append(tr("next: %(seat)s", seat=snapshot["active"]))
    if snapshot.get("winner"):
        details.append(tr("winner: %(seat)s", seat=snapshot["winner"]))
    return MapLayers(
        seats=[*players, *others],
        fixed_colours=SEAT_COLOURS,
        areas=marks,
        roads=_roads(areas),
        pieces=pieces,
        moves=_moves(board, events, tr),
        battles=_battles(board, events, tr),
        legend_seats=[(seat, bool(p.get("eliminated"))) for seat, p in players.items()],
        legend_symbols=LEGEND_SYMBOLS,
        details=details,
    )


# -- texts --------------------------------------------------------------------------------------------------------


def _leaders(force: Mapping[str, Any]) -> list[str]:
    return (["C"] if force.get("caesar") else []) + [f"G{g}" for g in force.get("generals", [])]


def _units(force: Mapping[str, Any], tr: Translate) -> list[str]:
    """The units as the reader orders them: 5 INF 2 CAV in English, 5 INF 2 KAV in German."""
    return [f"{force[kind]} {tr.keyword(kind)}" for kind in ("infantry", "cavalry", "catapult") if force.get(kind)]


def army_label(force: Mapping[str, Any], tr: Translate) -> str:
    """One seat's pieces in one area, short: 'C G2 · 5 INF 2 CAV 1 CAT · gal 1 2'."""
    parts = [" ".join(_leaders(force)), " ".join(_units(force, tr))]
    galleys = force.get("galleys", [])
    if galleys:
        parts.append(("gal " if len(galleys) == 1 else "gals ") + " ".join(str(g) for g in galleys))
    return " · ".join(p for p in parts if p)


def _galleys(numbers: list[Any], tr: Translate) -> str:
    listed = ", ".join(str(g) for g in numbers)
    return tr("galley %(numbers)s", numbers=listed) if len(numbers) == 1 else tr("galleys %(numbers)s", numbers=listed)


def _army_words(force: Mapping[str, Any], tr: Translate) -> str:
    """The same in words, for tooltips."""
    leaders = [tr("Caesar") if n == "C" else n for n in _leaders(force)]
    units = [f"{force[kind]} {tr(kind)}" for kind in ("infantry", "cavalry", "catapult") if force.get(kind)]
    galleys = force.get("galleys", [])
    words = leaders + units
    if galleys:
        words.append(_galleys(galleys, tr))
    for number, cargo in sorted(force.get("aboard", {}).items()):
        aboard = _leaders(cargo) + _units(cargo, tr)
        if aboard:
            words.append(tr("aboard galley %(number)s: %(pieces)s", number=number, pieces=" ".join(aboard)))
    return ", ".join(words)


# The tooltips of areas without pieces or news, which most areas are on most turns: (board id, the area's fields, the
# language, the extra rulesets) -> (the board, kept so that its id is not reused while the entry lives; the tooltip).
_QUIET_TOOLTIPS: dict[tuple[Any, ...], tuple[Board, str]] = {}
QUIET_TOOLTIPS_KEPT = 4096


def _quiet_tooltip(board: Board, code: str, area: Mapping[str, Any], tr: Translate, extra: str | None) -> str:
    """_area_tooltip of an area without pieces or notes, made once per process for the same fields; `extra`: the
    extra rulesets in force (PBEM_RULESETS)."""
    roads = tuple(area.get("roads") or ())
    key = (id(board), code, area.get("owner"), area.get("city"), roads, tr.language, extra)
    found = _QUIET_TOOLTIPS.get(key)
    if found is not None and found[0] is board:
        return found[1]
    tooltip = _area_tooltip(board, code, area, [], tr)
    _QUIET_TOOLTIPS[key] = (board, tooltip)
    if len(_QUIET_TOOLTIPS) > QUIET_TOOLTIPS_KEPT:
        del _QUIET_TOOLTIPS[next(iter(_QUIET_TOOLTIPS))]
    return tooltip


def _area_tooltip(
    board: Board, code: str, area: Mapping[str, Any], notes: list[str], tr: Translate, forces: list[str] | None = None
) -> str:
    """An area's tooltip: its name, worth and owner, city, roads, each force's words (`forces`: made by the caller,
    else here) and what happened there this turn."""
    info = board.areas[code]
    if not info.is_land:
        head = tr("%(name)s (%(code)s), sea zone", name=info.name, code=code)
    elif area.get("owner"):
        head = tr(
            "%(name)s (%(code)s), province worth %(value)s; owner %(seat)s",
            name=info.name,
            code=code,
            value=info.value,
            seat=area["owner"],
        )
    else:
        head = tr("%(name)s (%(code)s), province worth %(value)s; neutral", name=info.name, code=code, value=info.value)
    lines = [head]
    if area.get("city"):
        lines.append(tr("fortified city") if area["city"] == "fortified" else tr("city"))
    if area.get("roads"):
        lines.append(tr("roads to %(areas)s", areas=", ".join(sorted(area["roads"]))))
    if forces is None:
        forces = [f"{seat}: {_army_words(force, tr)}" for seat, force in area.get("units", {}).items()]
    return "\n".join(lines + forces + notes)


def _roads(areas: Mapping[str, Mapping[str, Any]]) -> list[tuple[str, str]]:
    """Each road once, as the pair of areas it joins (C-2.6)."""
    return sorted({(min(code, other), max(code, other)) for code, a in areas.items() for other in a.get("roads", [])})


# -- the turn -----------------------------------------------------------------------------------------------------


def _moves(board: Board, events: list[dict[str, Any]], tr: Translate) -> list[Arrow]:
    """An arrow for every move, voyage and retreat of the turn, in the mover's colour."""
    out = []
    for event in events:
        kind, seat, data = event.get("kind"), event.get("seat") or "", event.get("data") or {}
        if kind in ("moved", "sailed"):
            codes = [c for c in data.get("path", []) if c in board.areas]
            what = data.get("troops") if kind == "moved" else _voyage(data, tr)
        elif kind == "retreat" and data.get("to") in board.areas and data.get("area") in board.areas:
            codes, what = [data["area"], data["to"]], ""
        else:
            continue
        if len(codes) < 2:
            continue
        style = {"moved": "land", "sailed": "sea", "retreat": "retreat"}[kind]
        verb = {
            "moved": N_("%(seat)s move: %(path)s"),
            "sailed": N_("%(seat)s voyage: %(path)s"),
            "retreat": N_("%(seat)s retreat: %(path)s"),
        }[kind]
        tooltip = tr(verb, seat=seat, path=" → ".join(codes)) + (f" ({what})" if what else "")
        out.append(Arrow(seat, codes, style, tooltip))
    return out


def _voyage(data: Mapping[str, Any], tr: Translate) -> str:
    text = _galleys(data.get("galleys", []), tr)
    if data.get("cargo"):
        text += (
            tr(", landing %(cargo)s", cargo=data["cargo"])
            if data.get("landed")
            else tr(", carrying %(cargo)s", cargo=data["cargo"])
        )
    return text


def _battles(board: Board, events: list[dict[str, Any]], tr: Translate) -> list[Fight]:
    """A mark on every area fought over this turn (land and naval battles), once per area."""
    out: list[Fight] = []
    seen: set[str] = set()
    for event in events:
        kind, data = event.get("kind"), event.get("data") or {}
        code = data.get("area")
        if kind not in ("battle", "naval_battle") or code not in board.areas or code in seen:
            continue
        seen.add(code)
        what = (
            N_("naval battle in %(area)s: %(seat)s attacked %(defender)s")
            if kind == "naval_battle"
            else N_("battle in %(area)s: %(seat)s attacked %(defender)s")
        )
        tooltip = tr(what, area=code, seat=event.get("seat"), defender=data.get("defender"))
        out.append(Fight(code, "naval-battle" if kind == "naval_battle" else "land-battle", tooltip))
    return out


def _notes(events: list[dict[str, Any]], tr: Translate) -> dict[str, list[str]]:
    """What happened in each area this turn, for its tooltip."""
    said = {
        "battle": N_("battle this turn: %(seat)s attacked %(defender)s"),
        "naval_battle": N_("naval battle this turn: %(seat)s attacked %(defender)s"),
        "conquered": N_("conquered this turn by %(seat)s"),
        "city_destroyed": N_("city destroyed this turn by %(seat)s"),
    }
    notes: dict[str, list[str]] = {}
    for event in events:
        kind, seat, data = event.get("kind"), event.get("seat"), event.get("data") or {}
        if kind in said:
            notes.setdefault(str(data.get("area")), []).append(tr(said[kind], seat=seat, defender=data.get("defender")))
    return notes
