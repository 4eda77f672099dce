"""The SVG map of Empires of the Ancient World (rulesets/empires/mapping.py on render/svgmap.py): owners, control
marker counts, forts, trade markers per player, the Mediterranean seas and the connections of the moderator's map,
and nothing hidden."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from adjudicator.engine.board import RIVER, STRAIT
from adjudicator.engine.protocol import EVERYONE
from adjudicator.render.svgmap import render_map
from adjudicator.rulesets.empires.data import GameData, GameMap
from adjudicator.rulesets.empires.mapping import EmpiresMap
from tests.eaw_helpers import position, small_data
from tests.test_eaw_reports import bound

# where the test map's areas lie (0-1000), roughly as on a map of the Mediterranean
PLACES = {
    "GER": (450, 40),
    "RAE": (380, 180),
    "GAL": (200, 220),
    "ITA": (420, 360),
    "SIC": (430, 560),
    "AFR": (330, 760),
    "NUM": (150, 860),
    "EGY": (820, 900),
    "CRE": (700, 640),
    "MOC": (150, 480),
    "MCE": (520, 470),
    "MOR": (760, 430),
    "PON": (850, 120),
}


@pytest.fixture(scope="module")
def data() -> GameData:
    found = small_data()
    areas = {a.id: replace(a, x=PLACES[a.id][0], y=PLACES[a.id][1]) for a in found.map.areas.values()}
    return replace(found, map=GameMap(areas, found.map.connections))


@pytest.fixture(scope="module")
def svg(data: GameData) -> str:
    state = position(
        data,
        control={"GAL": ("red", 2), "ITA": "blue", "MCE": "green"},
        forts={"GAL": "red"},
        trade={"GAL": {"red": 1, "blue": 2}, "MCE": {"green": 3, "red": 0}},
        hands={"red": ["blade", "guard_a"], "blue": ["catapult"]},
        display=["archer"],
        deck=["rider", "camel"],
        game_round=2,
    )
    state.players["red"].plan = [{"line": 1, "text": "ATTACK ITA FROM GAL", "alternatives": []}]
    layers = EmpiresMap(data)
    return render_map(layers.board, bound(data).snapshot(state, EVERYONE), [], layers=layers)


def _area(svg: str, code: str) -> str:
    return svg.split(f'id="area-{code}"', 1)[1].split("</g>", 1)[0]


def _labels(svg: str, code: str) -> list[tuple[str, str]]:
    block = svg.split(f'id="forces-{code}"', 1)[1].split("</g>", 1)[0]
    return re.findall(r'data-seat="([^"]*)">([^<]*)</text>', block)


def test_EAW_2_4_each_area_is_drawn_in_its_controllers_colour_and_neutral_ones_plain(svg: str) -> None:
    assert 'data-owner="red"' in _area(svg, "GAL") and "#b03a2e" in _area(svg, "GAL")
    assert 'data-owner="blue"' in _area(svg, "ITA") and 'data-owner="green"' in _area(svg, "MCE")
    assert "data-owner" not in _area(svg, "NUM")
    assert "neutral" in _area(svg, "NUM")  # its tooltip


def test_EAW_7_40_and_EAW_2_6_control_marker_counts_and_each_players_trade_markers(svg: str) -> None:
    assert _labels(svg, "GAL") == [("red", "2C"), ("blue", "2T"), ("red", "1T")]
    assert _labels(svg, "ITA") == [("blue", "1C")]
    assert _labels(svg, "MCE") == [("green", "1C"), ("green", "3T")]  # a count of 0 is no marker
    assert 'id="forces-NUM"' not in svg


def test_EAW_2_5_a_fort_is_marked_in_its_province(svg: str) -> None:
    assert 'class="fort large"' in _area(svg, "GAL") and "fort of red" in _area(svg, "GAL")
    assert 'class="fort' not in _area(svg, "ITA")


def test_EAW_2_2_the_mediterranean_seas_are_named_and_marked(svg: str) -> None:
    assert "Mediterranean: MCE, MOC, MOR" in svg
    assert "a Mediterranean sea" in _area(svg, "MOR") and "a Mediterranean sea" not in _area(svg, "PON")
    assert "on the Mediterranean" in _area(svg, "AFR")


def test_EAW_2_1_connections_are_drawn_by_kind(data: GameData) -> None:
    board = EmpiresMap(data).board
    kinds = {(link.a, link.b): link.kind for link in board.links}
    assert kinds[("ITA", "SIC")] in (STRAIT, RIVER)  # a strait that is also a sea connection: both drawn
    assert {link.kind for link in board.links if {link.a, link.b} == {"ITA", "SIC"}} == {STRAIT, RIVER}
    assert kinds[("AFR", "SIC")] == RIVER
    assert "AFR" in board.adjacency["MCE"] and "MOR" in board.adjacency["MCE"]


def test_the_map_shows_no_hidden_card_or_plan_of_the_whole_snapshot_it_is_drawn_from(svg: str) -> None:
    for hidden in ("blade", "guard_a", "catapult", "rider", "camel", "ATTACK", "archer"):
        assert hidden not in svg, hidden


def test_EAW_7_1_and_EAW_8_the_steps_public_attacks_and_battles_are_drawn_and_private_events_are_not(
    data: GameData,
) -> None:
    state = position(data, control={"GAL": "red", "ITA": "blue", "AFR": "green", "MCE": "blue"}, game_round=1)
    events = [
        {"kind": "attack", "seat": "red", "data": {"target": "ITA", "origin": "GAL", "crossing": ["mountain"]}},
        {"kind": "battle_begins", "seat": "red", "data": {"area": "ITA", "defender": "blue", "battle": "open"}},
        {"kind": "attack", "seat": "green", "data": {"target": "MCE", "origin": "AFR", "crossing": ["coast"]}},
        {"kind": "battle_begins", "seat": "green", "data": {"area": "MCE", "defender": "blue", "battle": "naval"}},
        {"kind": "stack_formed", "seat": "red", "data": {"cards": ["blade"]}, "visible_to": ["red"]},
        {"kind": "attack", "seat": "red", "data": {"target": "SIC", "origin": "ITA"}, "visible_to": ["red"]},
    ]
    layers = EmpiresMap(data)
    svg = render_map(layers.board, bound(data).snapshot(state, EVERYONE), events, layers=layers)
    moves = re.findall(r'<g class="move (\w+)" data-path="([^"]*)"', svg)
    assert moves == [("land", "GAL ITA"), ("sea", "AFR MCE")]
    assert re.findall(r'<g class="battle ([\w-]+)" data-area="(\w+)"', svg) == [
        ("land-battle", "ITA"),
        ("naval-battle", "MCE"),
    ]
    assert "red attacks ITA from GAL" in svg and "battle in MCE: green against blue" in svg
    assert "blade" not in svg and "SIC from" not in svg
