"""Conqueror: Empire Rises on the shared board drawing (adjudicator/render/svgmap.py): what map.svg shows of a
position. Public information only: the snapshot's public part (no hand, no face-down hero, no deck order).

Shown: every area of the game's board side (ER-3.2) at its data position (ER-13.1), land or sea; who controls it
(ER-2.3) in the faction's colour, independents (ER-3.8) in grey; its fort (ER-2.6, ER-2.7: large, small, a built
marker, or a printed fort under a blank marker) or capital (ER-2.6, ER-11.1: a temporary capital too); each
army's units by type (ER-0.3), ships at a wharf on land (ER-12.9) on a line of their own, a wharf marker without
ships as an anchor alone (ER-12.14); the Danube and the
bridges (ER-2.2) as the board's typed links. The map of a game is drawn on its own data: a game bound to its data
(game.py) hands `ConquerorMap(data)` over as its `map_layers`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from adjudicator.engine.board import BRIDGE, RIVER, Board
from adjudicator.render.svgmap import AreaLayer, MapLayers, Pieces, Translate
from adjudicator.rulesets import EXTRA_FOLDERS
from adjudicator.rulesets.conqueror.data import GameData, MapSide
from adjudicator.rulesets.conqueror.state import (
    INDEPENDENT,
    Army,
    GameState,
    capital_owner,
    controller,
    read_state,
)


def _(msgid: str) -> str:
    """Marks a message of the map for pybabel (its default keyword `_`); the map translates it when drawn. Not N_,
    the marker of engine texts that archives store in English (rulesets/conqueror/problems.py does the same)."""
    return msgid


# A colour per faction, in the data's faction order (the data give none): dark enough for text on white.
PALETTE = ("#b03a2e", "#1f5fbf", "#2e8b57", "#a67c00", "#7b3fa0", "#d35400", "#138d90", "#8e2f5d")
INDEPENDENT_COLOUR = "#6b6b6b"  # ER-0.3: the independents' white units, grey on the white map

# ER-0.3: the letter of each unit type on the map, in label order (the legend's key names them).
UNIT_LETTERS = (("cavalry", "C"), ("infantry", "I"), ("archer", "A"), ("elite", "E"), ("siege", "X"))
UNIT_WORDS = {
    "cavalry": _("cavalry"),
    "infantry": _("infantry"),
    "archer": _("archers"),
    "elite": _("elite"),
    "ship": _("ships"),
    "siege": _("siege engines"),
}
WHARF_SIGN = "\u2693"  # an anchor: ships at a wharf (ER-12.9)

MARKERS = {"large": "fort-large", "small": "fort-small"}
FORT_WORDS = {
    "capital": _("capital of %(faction)s"),
    "fort-large": _("large fort"),
    "fort-small": _("small fort"),
    "fort-built": _("built fort"),
    "fort-blanked": _("fort covered by a blank"),
}
FORT_SYMBOLS: tuple[tuple[str, str, int], ...] = (
    ("capital", _("capital"), 40),
    ("fort-large", _("large fort"), 40),
    ("fort-small", _("small fort"), 40),
    ("fort-built", _("built fort"), 40),
    ("fort-blanked", _("blanked fort"), 40),
)
KEY = ("key", _("C cavalry · I infantry · A archers · E elite · X siege · S ships (⚓ at a wharf)"), -16)


class ConquerorMap:
    """The `map_layers` of a game bound to its data: called as svgmap's layers function, and telling the board
    side a position is drawn on (`board_of`, ER-3.2)."""

    def __init__(self, data: GameData) -> None:
        self.data = data

    def board_of(self, snapshot: Mapping[str, Any]) -> Board:
        return self.data.map_for(snapshot["public"]["players"]).board

    def __call__(
        self, board: Board, snapshot: Mapping[str, Any], events: list[dict[str, Any]], tr: Translate
    ) -> MapLayers:
        return map_layers(self.data, snapshot, tr)


def faction_colours(data: GameData) -> dict[str, str]:
    """A fixed colour per faction of the data (its order in factions.toml), grey for the independents."""
    colours = {faction: PALETTE[i % len(PALETTE)] for i, faction in enumerate(data.factions)}
    return {**colours, INDEPENDENT: INDEPENDENT_COLOUR}


def public_state(snapshot: Mapping[str, Any]) -> GameState:
    """The position of the snapshot's public part alone: hands and decks stay empty (nothing hidden is read)."""
    return read_state(snapshot.get("game", ""), snapshot.get("step", 0), snapshot["public"], {}, {})


def map_layers(data: GameData, snapshot: Mapping[str, Any], tr: Translate) -> MapLayers:
    """What a position of Empire Rises shows (module docstring)."""
    state = public_state(snapshot)
    side = data.map_for(state.players_count)
    areas, pieces = {}, []
    for code in sorted(side.areas):
        marker = area_marker(state, side, code)
        owner = controller(state, side, code) or ""
        areas[code] = AreaLayer(owner, marker, kept_tooltip(state, side, code, owner, marker, tr))
        army = state.army.get(code)
        lines = army_lines(army, side.areas[code].land) if army is not None and army.total > 0 else []
        words = army_words(army, tr) if army is not None and army.total > 0 else ""
        wharf = wharf_marker(state, code)
        if wharf is not None and not any(WHARF_SIGN in line for _seat, line in lines):
            lines.append((wharf, WHARF_SIGN))  # ER-12.9, ER-12.14: the marker, with no ship on it
        if wharf is not None:
            words = "\n".join(w for w in (words, tr("wharf of %(seat)s", seat=wharf)) if w)
        if lines:
            pieces.append(Pieces(code, lines, words))
    kinds = {link.kind for link in side.board.links}
    links = tuple((kind, word, 80) for kind, word in ((RIVER, _("river")), (BRIDGE, _("bridge"))) if kind in kinds)
    details = [tr("round %(round)s", round=state.round), tr("%(count)s players", count=state.players_count)]
    if state.winners:
        details.append(tr("winner: %(seat)s", seat=", ".join(state.winners)))
    return MapLayers(
        seats=[*state.seating, INDEPENDENT],
        fixed_colours=faction_colours(data),
        areas=areas,
        roads=[],
        pieces=pieces,
        moves=[],
        battles=[],
        legend_seats=[*((f, state.players[f].eliminated) for f in state.turn_order), (INDEPENDENT, False)],
        legend_symbols=(*FORT_SYMBOLS, *links, KEY),
        details=details,
        seat_names={INDEPENDENT: _owner(INDEPENDENT, tr)},
    )


def wharf_marker(state: GameState, code: str) -> str | None:
    """Whose wharf marker stands in `code` (Seas of Destiny, ER-12.9); it stays when the area is taken (ER-12.14)."""
    if state.seas is None:
        return None
    return next((faction for faction, area in state.seas.wharves.items() if area == code), None)


def area_marker(state: GameState, side: MapSide, code: str) -> str:
    """The corner marker: a capital in play (ER-2.6; a temporary one, ER-11.1), a built fort marker (ER-5.14), a
    printed fort under a blank (ER-3.4, ER-2.7), else the printed fort (ER-2.6); "" for none."""
    if capital_owner(state, side, code) is not None:
        return "capital"
    if code in state.fort_markers:
        return "fort-built"
    if code in side.blanked.get(state.players_count, ()):
        return "fort-blanked"
    return MARKERS.get(side.areas[code].fort, "")


def army_lines(army: Army, land: bool) -> list[tuple[str, str]]:
    """The label lines of an army: its units by type letter (ER-0.3); ships on land are at a wharf (ER-12.9),
    on a line of their own; at sea the ships are the fleet, on the one line."""
    letters = [f"{army.count(kind)}{letter}" for kind, letter in UNIT_LETTERS if army.count(kind)]
    ships = army.count("ship")
    lines = []
    if ships and not land:
        letters.append(f"{ships}S")
    if letters:
        lines.append((army.owner, " ".join(letters)))
    if ships and land:
        lines.append((army.owner, f"{WHARF_SIGN} {ships}S"))
    return lines


def _owner(owner: str, tr: Translate) -> str:
    """A faction, or the independents as the reader orders them (ER-0.3; INDEPENDENTS)."""
    return tr.keyword("independents").lower() if owner == INDEPENDENT and tr.language != "en" else owner


def army_words(army: Army, tr: Translate) -> str:
    """The army's tooltip: its owner and its units in words, exhausted ones counted (ER-7.2)."""
    words = [f"{army.count(kind)} {tr(word)}" for kind, word in UNIT_WORDS.items() if army.count(kind)]
    text = f"{_owner(army.owner, tr)}: {', '.join(words)}"
    tired = sum(army.exhausted.values())
    if tired:
        text += " (" + tr("%(count)s exhausted", count=tired) + ")"
    return text


# Area tooltips by all they show: (the side's id, area, holder, marker, the capital's faction, the reader's
# Translate, PBEM_RULESETS) -> (the side, the text). A map draws every area each turn and most stay as they were.
# Oldest first, bounded.
_TOOLTIPS: dict[tuple[Any, ...], tuple[MapSide, str]] = {}
TOOLTIPS_KEPT = 2048


def kept_tooltip(state: GameState, side: MapSide, code: str, owner: str, marker: str, tr: Translate) -> str:
    """area_tooltip, made once per process for what it shows."""
    capital = capital_owner(state, side, code) if marker == "capital" else None
    key = (id(side), code, owner, marker, capital, tr, os.environ.get(EXTRA_FOLDERS, ""))
    found = _TOOLTIPS.get(key)
    if found is not None and found[0] is side:
        return found[1]
    text = area_tooltip(state, side, code, owner, marker, tr)
    _TOOLTIPS[key] = (side, text)
    if len(_TOOLTIPS) > TOOLTIPS_KEPT:
        del _TOOLTIPS[next(iter(_TOOLTIPS))]
    return text


def area_tooltip(state: GameState, side: MapSide, code: str, owner: str, marker: str, tr: Translate) -> str:
    """The area's name and code, who controls it (ER-2.3), its fort or capital, food and coins (ER-2.5), the
    Danube and bridges (ER-2.2)."""
    area = side.areas[code]
    held = tr("held by %(seat)s", seat=owner) if owner else tr("held by nobody")
    if owner == INDEPENDENT:
        held = tr("held by the independents")
    lines = [f"{area.name} ({code})", held]
    if marker == "capital":
        lines.append(tr(FORT_WORDS[marker], faction=capital_owner(state, side, code)))
    elif marker:
        lines.append(tr(FORT_WORDS[marker]))
    if area.land:
        lines.append(tr("food %(food)s, coins %(coins)s", food=area.food, coins=area.coins))
    for link in side.board.links_of(code, (RIVER, BRIDGE)):
        word = _("on the river to %(area)s") if link.kind == RIVER else _("bridge to %(area)s")
        lines.append(tr(word, area=link.other(code)))
    return "\n".join(lines)
