"""The map of Conqueror: Empire Rises (rulesets/conqueror/mapping.py on render/svgmap.py): every area of the game's
board side, who controls it, its fort or capital, every army's units, ships at wharves, the Danube and the bridges
drawn in their own line styles, public information only; and the shared map's typed links (river, bridge,
mountain), game-neutral, while a board without them keeps its bytes.

Positions are set up by the real setup step on our own example data (tests/test_conqueror_state.py)."""

from __future__ import annotations

import json
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from adjudicator.engine.board import MOUNTAIN, Board, Link
from adjudicator.engine.protocol import PUBLIC
from adjudicator.render.svgmap import AreaLayer, MapLayers, Translate, render_map, render_map_for_turn
from adjudicator.resources import resource_dir
from adjudicator.rulesets import load_ruleset
from adjudicator.rulesets.conqueror import mapping
from adjudicator.rulesets.conqueror import problems as p
from adjudicator.rulesets.conqueror.game import ConquerorGame
from adjudicator.rulesets.conqueror.loader import check_folder
from adjudicator.rulesets.conqueror.state import INDEPENDENT, Army, GameState, controller, fort_of
from tests.conftest import Pbem
from tests.test_conqueror_data import found
from tests.test_conqueror_state import set_up

SVG = "{http://www.w3.org/2000/svg}"
UNIT_LETTERS = {"cavalry": "C", "infantry": "I", "archer": "A", "elite": "E", "siege": "X"}


def draw(rules: ConquerorGame, state: GameState) -> str:
    """The map of `state` as an archived turn draws it: from the whole snapshot's stored text."""
    return render_map_for_turn(rules, rules.snapshot_text(state), "[]", title="er")


def with_class(svg: ET.Element, tag: str, *classes: str) -> list[ET.Element]:
    return [e for e in svg.iter(SVG + tag) if set(classes) <= set((e.get("class") or "").split())]


def by_id(svg: ET.Element, ident: str) -> ET.Element:
    [element] = [e for e in svg.iter() if e.get("id") == ident]
    return element


def marker_of(area: ET.Element) -> str:
    """The fort/capital class of an area's corner marker ("" for none)."""
    marks = [e for e in area.iter() if "fort" in (e.get("class") or "").split()]
    assert len(marks) <= 1
    return " ".join(c for c in marks[0].get("class", "").split() if c != "fort") if marks else ""


def labels(svg: ET.Element, code: str) -> list[tuple[str, str]]:
    """The (seat, text) lines of an area's army label."""
    return [(t.get("data-seat", ""), t.text or "") for t in by_id(svg, f"forces-{code}").iter(SVG + "text")]


def expected_marker(rules: ConquerorGame, state: GameState, code: str) -> str:
    side = rules.data.map_for(state.players_count)
    if side.areas[code].capital in state.players:
        return "capital"
    if code in state.fort_markers:
        return "built"
    if code in side.blanked.get(state.players_count, ()):
        return "blanked"
    return {"none": ""}.get(fort_of(state, side, code), fort_of(state, side, code))


@pytest.mark.parametrize("players", [3, 6])
def test_ER_3_2_map_of_the_setup_holds_every_area_army_and_fort_of_the_state(players: int) -> None:
    rules, state = set_up(players)
    side = rules.data.map_for(players)
    svg = ET.fromstring(draw(rules, state))
    drawn = {e.get("id", "")[5:] for e in with_class(svg, "g", "area")}
    assert drawn == set(side.areas)  # ER-3.2: the side of this player count, every area and no other
    for code, area in side.areas.items():
        shape = by_id(svg, f"area-{code}")
        assert ("land" in shape.get("class", "").split()) == area.land
        assert shape.get("data-owner") == controller(state, side, code)  # ER-2.3
        assert marker_of(shape) == expected_marker(rules, state, code)  # ER-2.6, ER-2.7
    assert any(army.owner == INDEPENDENT for army in state.army.values())  # ER-3.8: independents are set up
    forces = {e.get("id", "")[7:] for e in with_class(svg, "g", "forces")}
    assert forces == {code for code, army in state.army.items() if army.total}
    for code, army in state.army.items():  # ER-0.3: each army's units by type, in its owner's name
        text = " ".join(f"{army.count(k)}{letter}" for k, letter in UNIT_LETTERS.items() if army.count(k))
        assert labels(svg, code) == [(army.owner, text)]


def test_ER_2_7_blanked_fort_ER_5_14_built_fort_and_ER_11_1_temporary_capital_markers() -> None:
    rules, state = set_up(3)
    side = rules.data.map_for(3)
    blanked = side.blanked[3]
    assert len(blanked) == 2 and all(side.areas[code].fort != "none" for code in blanked)
    plain = next(c for c, a in sorted(side.areas.items()) if a.land and a.fort == "none")
    state.fort_markers.append(plain)  # ER-5.14: a fort marker built where none was printed
    state.supply.fort_markers -= 1
    faction = state.turn_order[0]
    temporary = next(c for c, a in sorted(side.areas.items()) if a.land and a.fort == "small" and c != plain)
    state.players[faction].temporary_capital = temporary  # ER-11.1
    svg = ET.fromstring(draw(rules, state))
    assert [marker_of(by_id(svg, f"area-{code}")) for code in blanked] == ["blanked", "blanked"]
    assert marker_of(by_id(svg, f"area-{plain}")) == "built"
    assert marker_of(by_id(svg, f"area-{temporary}")) == "capital"
    assert f"capital of {faction}" in (by_id(svg, f"area-{temporary}").findtext(SVG + "title") or "")


def test_ER_12_9_ships_at_a_wharf_get_a_line_of_their_own_and_a_fleet_at_sea_is_counted() -> None:
    rules, state = set_up(3)
    side = rules.data.map_for(3)
    faction = state.turn_order[0]
    capital = side.capital_of(faction)
    assert capital is not None and side.areas[capital].wharf_site
    state.army[capital].add("ship", 2)  # ER-12.9: ships at the wharf of the capital
    sea = next(c for c, a in sorted(side.areas.items()) if not a.land and c not in state.army)
    state.army[sea] = Army(faction, {"ship": 3, "infantry": 1})
    state.army[capital].exhausted = {"infantry": 1}  # ER-7.2: told in the tooltip
    svg = ET.fromstring(draw(rules, state))
    lines = labels(svg, capital)
    assert len(lines) == 2 and lines[1] == (faction, "\u2693 2S") and "S" not in lines[0][1]
    assert labels(svg, sea) == [(faction, "1I 3S")]
    tooltip = by_id(svg, f"forces-{capital}").findtext(SVG + "title") or ""
    assert "2 ships" in tooltip and "1 exhausted" in tooltip


def test_ER_2_3_control_colours_follow_the_faction_and_an_empty_capital_stays_its_owners() -> None:
    rules, state = set_up(3)
    side = rules.data.map_for(3)
    faction = state.turn_order[1]
    capital = side.capital_of(faction)
    assert capital is not None
    del state.army[capital]  # ER-2.3: an empty capital is still controlled by its faction
    independent = next(code for code, army in sorted(state.army.items()) if army.owner == INDEPENDENT)
    state.army[independent] = Army(faction, {"cavalry": 1})  # ER-2.3: the faction's units control the area now
    svg = ET.fromstring(draw(rules, state))
    colour = {e.get("data-owner"): e.find(SVG + "rect[@class='shape']") for e in with_class(svg, "g", "area")}
    for code in (capital, independent):
        shape = by_id(svg, f"area-{code}")
        assert shape.get("data-owner") == faction
        assert shape.find(f"{SVG}rect[@class='shape']").get("stroke") == colour[faction].get("stroke")  # type: ignore[union-attr]
    legend = [t.text for t in svg.iter(SVG + "text") if t.text in state.turn_order or t.text == INDEPENDENT]
    assert legend[-4:] == [*state.turn_order, INDEPENDENT]


def tooltips(rules: ConquerorGame, state: GameState, language: str = "en") -> dict[str, str]:
    layers = mapping.map_layers(rules.data, rules.snapshot(state, PUBLIC), Translate(language))
    return {code: area.tooltip for code, area in layers.areas.items()}


def test_ER_2_3_a_tooltip_drawn_again_follows_the_area_holder_its_capital_and_the_language() -> None:
    """Tooltips are kept between maps (an area mostly stays as it was): each tells what it shows now."""
    rules, state = set_up(3)
    side = rules.data.map_for(3)
    first = tooltips(rules, state)
    assert first == {code: mapping.area_tooltip(state, side, code, *held(rules, state, code)) for code in first}
    independent = next(code for code, army in sorted(state.army.items()) if army.owner == INDEPENDENT)
    faction = state.turn_order[1]
    state.army[independent] = Army(faction, {"cavalry": 1})  # ER-2.3: its units control the area now
    capital = side.capital_of(state.turn_order[0])
    assert capital is not None
    state.army[capital] = Army(faction, {"infantry": 1})  # ER-2.6: a capital taken, still its owner's capital
    again = tooltips(rules, state)
    assert f"held by {faction}" in again[independent] and "held by the independents" in first[independent]
    assert f"held by {faction}" in again[capital] and f"capital of {state.turn_order[0]}" in again[capital]
    assert {code for code in first if first[code] != again[code]} == {independent, capital}
    assert tooltips(rules, state, "de")[independent] != again[independent]  # the reader's language


def held(rules: ConquerorGame, state: GameState, code: str) -> tuple[str, str, Translate]:
    side = rules.data.map_for(state.players_count)
    return controller(state, side, code) or "", mapping.area_marker(state, side, code), Translate("en")


def test_ER_6_10_the_map_shows_public_information_only() -> None:
    rules, state = set_up(3)
    whole = draw(rules, state)
    public = render_map_for_turn(rules, json.dumps(rules.snapshot(state, PUBLIC)), "[]", title="er")
    assert whole == public  # drawn from the public part alone: the same bytes without hands and decks
    for player in state.players.values():
        assert player.hand and not any(card in whole for card in player.hand)


def test_ER_2_2_the_river_and_the_bridges_are_drawn_in_their_own_styles_with_legend_entries() -> None:
    for players in (3, 6):
        rules, state = set_up(players)
        board = rules.data.map_for(players).board
        text = draw(rules, state)
        svg = ET.fromstring(text)
        [links] = with_class(svg, "g", "links")
        for kind in ("river", "bridge"):
            pairs = {tuple(sorted((link.a, link.b))) for link in board.links if link.kind == kind}
            assert pairs, kind
            assert len([line for line in links if kind in line.get("class", "").split()]) == len(pairs)
            assert f".link.{kind} {{" in text  # its line style
            [legend] = with_class(svg, "g", "legend")
            sample = [line for line in legend.iter(SVG + "line") if line.get("class") == f"link {kind}"]
            assert len(sample) == 1 and any(t.text == kind for t in legend.iter(SVG + "text"))
        assert ".link.mountain" not in text  # no mountain pass on this board: no style for one


def test_a_mountain_link_of_any_board_is_drawn_with_its_style() -> None:
    board = Board.from_data(
        {
            "area": [
                {"code": "HI", "name": "Highland", "kind": "land", "x": 600, "y": 600, "adjacent": ["LO"]},
                {"code": "LO", "name": "Lowland", "kind": "land", "x": 1400, "y": 600, "adjacent": ["HI"]},
                {"code": "PK", "name": "Peak", "kind": "land", "x": 1000, "y": 1300},
            ],
            "link": [{"between": ["HI", "PK"], "kind": MOUNTAIN}],
        }
    )
    assert Link("HI", "PK", MOUNTAIN) in board.links

    def layers(board: Board, snapshot: object, events: object, tr: object) -> MapLayers:
        areas = {code: AreaLayer() for code in board.areas}
        symbols = (("mountain", "mountain pass", 80),)
        return MapLayers([], {}, areas, [], [], [], [], [], symbols, [])

    text = render_map(board, {"game": "g", "turn": 1}, [], layers=layers)
    svg = ET.fromstring(text)
    [links] = with_class(svg, "g", "links")
    assert [line.get("class") for line in links] == ["link border", "link mountain"]
    assert ".link.mountain {" in text and ".link.river" not in text and ".link.bridge" not in text
    [legend] = with_class(svg, "g", "legend")
    assert [line.get("class") for line in legend.iter(SVG + "line")][-1:] == ["link mountain"]


def test_coe_maps_have_no_style_of_a_link_kind_they_lack() -> None:
    ruleset = load_ruleset("coe-classic")
    assert not {link.kind for link in ruleset.board.links} & {"river", "bridge", "mountain"}
    text = render_map(ruleset.board, {"ruleset": "coe-classic", "game": "g", "turn": 0}, [])  # kept byte for byte by
    assert ".link.strait {" in text  # the demo's diff and tests/test_map.py; here: no new style slips in
    assert not any(f".link.{kind}" in text for kind in ("river", "bridge", "mountain"))
    assert "fort-" not in text and 'class="fort' not in text


def test_ER_13_1_the_data_check_names_a_drawing_position_off_the_map(tmp_path: Path) -> None:
    folder = tmp_path / "er-data"
    shutil.copytree(resource_dir("games") / "conqueror-er" / "example-data", folder)
    board = folder / "board-3-4.toml"
    text = board.read_text(encoding="utf-8")
    first_x = next(line for line in text.splitlines() if line.startswith("x = "))
    board.write_text(text.replace(first_x, "x = 5000", 1), encoding="utf-8")
    problem = found(check_folder(folder).problems, "board-3-4.toml", "area[0].x", "ER-13.1", p.OUT_OF_RANGE)
    assert "5000" in problem.text()


def test_the_site_of_a_conqueror_game_has_its_map(pbem: Pbem, tmp_path: Path) -> None:
    data = resource_dir("games") / "conqueror-er" / "example-data"
    seats = ("--seat", "kesh=k@example.org", "--seat", "aurel=a@example.org", "--seat", "thal=t@example.org")
    result = pbem("new", "er1", "--ruleset", "conqueror-er", "--game-data", str(data), *seats)
    assert result.exit_code == 0, result.output
    result = pbem("site", "er1", "--out", str(tmp_path / "site"))
    assert result.exit_code == 0, result.output
    page = (tmp_path / "site" / "turn-0001.html").read_text(encoding="utf-8")
    for code in load_ruleset("conqueror-er").game_data.load(data).map_for(3).areas:  # type: ignore[attr-defined]
        assert f'id="area-{code}"' in page
    assert 'class="link river"' in page and 'class="fort capital"' in page
    assert (pbem.data / "games" / "er1" / "turn-0001" / "map.svg").exists()  # the turn's report files too
