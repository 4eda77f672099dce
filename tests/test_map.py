"""The turn's map (map.svg): every board area drawn with its owner's colour and its pieces, the turn's
moves as arrows and its battles marked, text escaped, the same bytes for the same inputs."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from adjudicator.render.svgmap import NEUTRAL_FILL, layout, render_map, render_map_for_turn
from adjudicator.rulesets import load_ruleset
from adjudicator.rulesets.coe.mapping import SEAT_COLOURS
from adjudicator.rulesets.coe.orders import NavalBattle
from adjudicator.rulesets.coe.state import Cargo, GameState, snapshot_text
from adjudicator.rulesets.coe.turn import TurnResult
from tests.helpers import march, own, place, play, road, start

SVG = "{http://www.w3.org/2000/svg}"
MAC, EGY, HIS = "Macedonia", "Egyptus", "Hispania"
BLANK, INF = 6, 1


def snapshot(state: GameState) -> dict[str, Any]:
    """The snapshot JSON data exactly as an archived turn stores it."""
    return json.loads(snapshot_text(state))


def events_of(result: TurnResult) -> list[dict[str, Any]]:
    return [e.to_json() for e in result.events]


def draw(state: GameState, events: list[dict[str, Any]] | None = None, **options: Any) -> ET.Element:
    """The map of `state` parsed as XML (parsing fails on a document that is not well-formed)."""
    board = load_ruleset(state.ruleset).board
    return ET.fromstring(render_map(board, snapshot(state), events or [], **options))


def by_id(svg: ET.Element, ident: str) -> ET.Element:
    found = [e for e in svg.iter() if e.get("id") == ident]
    assert len(found) == 1, f"{len(found)} elements with id {ident!r}"
    return found[0]


def with_class(svg: ET.Element, tag: str, *classes: str) -> list[ET.Element]:
    return [e for e in svg.iter(SVG + tag) if set(classes) <= set((e.get("class") or "").split())]


def layer(svg: ET.Element, name: str) -> ET.Element:
    """One layer of the map ("links", "roads", "moves", "battles"...), without the legend's samples."""
    [found] = with_class(svg, "g", name)
    return found


def title_of(element: ET.Element) -> str:
    title = element.find(SVG + "title")
    assert title is not None and title.text is not None
    return title.text


def shape_fill(svg: ET.Element, code: str) -> str:
    shape = with_class(by_id(svg, f"area-{code}"), "rect", "shape")
    assert len(shape) == 1
    return shape[0].get("fill") or ""


def label_texts(svg: ET.Element, code: str) -> list[tuple[str, str]]:
    """(text, colour) of each army label drawn for an area."""
    return [(t.text or "", t.get("fill") or "") for t in by_id(svg, f"forces-{code}").iter(SVG + "text")]


def points(text: str) -> list[tuple[float, float]]:
    return [(float(x), float(y)) for x, y in (p.split(",") for p in text.split())]


def fight_in_thracia() -> TurnResult:
    """Macedonia's G1 and G2 march with 3 INF from their home into Thracia, held by 2 Egyptian INF, and win."""
    state = start()
    place(state, "THR", EGY, infantry=2)
    return play(state, march((1, 2), "MAC", "THR", inf=3), dice=[INF, INF, INF, BLANK, BLANK] * 4)


# -- what a fresh game shows ------------------------------------------------------------------------------------


def test_a_fresh_classic_map_has_every_board_area_with_its_id_and_kind() -> None:
    svg = draw(start())
    board = load_ruleset("coe-classic").board
    assert len(board.areas) == 60
    for code, info in board.areas.items():
        group = by_id(svg, f"area-{code}")
        assert group.get("class") == f"area {info.kind}"
        assert title_of(group).startswith(f"{info.name} ({code})")
    assert len(with_class(svg, "g", "area")) == 60


def test_the_document_has_a_title_and_a_viewbox_so_that_it_scales() -> None:
    svg = draw(start(), title="rome1, turn 0")
    assert svg.tag == SVG + "svg"
    assert svg.get("viewBox", "").startswith("0 0 3800 ")
    assert title_of(svg) == "rome1, turn 0"


def test_the_owners_colours_fill_their_home_provinces_and_the_rest_is_neutral() -> None:
    svg = draw(start())
    assert shape_fill(svg, "MAC") == SEAT_COLOURS[MAC]
    assert shape_fill(svg, "EGY") == SEAT_COLOURS[EGY]
    assert shape_fill(svg, "HIS") == SEAT_COLOURS[HIS]
    assert shape_fill(svg, "ITA") == NEUTRAL_FILL  # Italia is no seat of a 3-player game
    legend = " ".join(t.text or "" for t in with_class(svg, "g", "legend")[0].iter(SVG + "text"))
    assert all(seat in legend for seat in (MAC, EGY, HIS))


def test_the_home_label_lists_caesar_the_generals_and_the_units_in_the_seats_colour() -> None:
    svg = draw(start())
    assert label_texts(svg, "MAC") == [("C G1 G2 G3 G4 · 5 INF", SEAT_COLOURS[MAC])]
    tooltip = title_of(by_id(svg, "area-MAC"))
    assert "owner Macedonia" in tooltip and "fortified city" in tooltip
    assert "Macedonia: Caesar, G1, G2, G3, G4, 5 infantry" in tooltip


def test_a_fortified_city_a_city_and_roads_are_drawn() -> None:
    state = road(own(start(), "MOE"), "MAC", "MOE")  # MOE gets a city, MAC keeps its fortified one
    svg = draw(state)
    assert with_class(by_id(svg, "area-MAC"), "use", "city", "fortified")
    assert with_class(by_id(svg, "area-MOE"), "circle", "city")
    assert [line.get("data-between") for line in with_class(layer(svg, "roads"), "line", "road")] == ["MAC-MOE"]


def test_galleys_at_sea_and_in_port_are_labelled_with_their_numbers() -> None:
    state = place(start(), "AEG", MAC, owner=False, galleys=[1, 2])
    place(state, "EGY", EGY, galleys=[3])
    svg = draw(state)
    assert label_texts(svg, "AEG") == [("gals 1 2", SEAT_COLOURS[MAC])]
    assert label_texts(svg, "EGY") == [("C G1 G2 G3 G4 · 5 INF · gal 3", SEAT_COLOURS[EGY])]


def test_every_army_label_is_placed_on_the_picture() -> None:
    svg = draw(start(["Macedonia", "Galatia", "Egyptus", "Numidia", "Hispania", "Italia"]))
    width, height = (float(v) for v in svg.get("viewBox", "").split()[2:])
    for rect in (r for g in with_class(svg, "g", "forces") for r in g.iter(SVG + "rect")):
        left, top = float(rect.get("x", "-1")), float(rect.get("y", "-1"))
        assert 0 <= left and left + float(rect.get("width", "0")) <= width
        assert 0 <= top and top + float(rect.get("height", "0")) <= height


# -- the last turn ----------------------------------------------------------------------------------------------


def test_a_move_is_drawn_as_an_arrow_along_its_path_in_the_movers_colour() -> None:
    state = road(own(start(), "MOE", "DAC"), "MAC", "MOE")
    result = play(state, march((0,), "MAC", "=MOE", "DAC"))
    assert [e["path"] for e in (e.data for e in result.events if e.kind == "moved")] == [["MAC", "MOE", "DAC"]]
    svg = draw(result.state, events_of(result))
    [arrow] = [g for g in with_class(layer(svg, "moves"), "g", "move") if g.get("data-path") == "MAC MOE DAC"]
    line = with_class(arrow, "polyline", "move-line")[0]
    assert line.get("stroke") == SEAT_COLOURS[MAC]
    spots = layout(load_ruleset("coe-classic").board)
    drawn = points(line.get("points", ""))
    assert len(drawn) == 3  # one leg per step
    assert math.dist(drawn[0], (spots["MAC"].x, spots["MAC"].y)) < 40  # from Macedonia
    assert math.dist(drawn[1], (spots["MOE"].x, spots["MOE"].y)) < 40  # through Moesia
    [head] = [p for p in with_class(svg, "polygon", "move-head") if p.get("data-path") == "MAC MOE DAC"]
    tip = points(head.get("points", ""))[0]
    assert math.dist(tip, (spots["DAC"].x, spots["DAC"].y)) < 140  # the head at Dacia's outline
    assert "Macedonia move: MAC → MOE → DAC (Caesar)" in title_of(arrow)
    assert label_texts(svg, "DAC") == [("C", SEAT_COLOURS[MAC])]  # Caesar is in Dacia now


def test_a_map_without_events_has_no_arrows_and_no_battle_marks() -> None:
    svg = draw(start())
    assert not with_class(layer(svg, "moves"), "g", "move") and not with_class(layer(svg, "battles"), "g", "battle")


def test_a_land_battle_area_is_marked_with_a_ring_and_crossed_swords() -> None:
    result = fight_in_thracia()
    svg = draw(result.state, events_of(result))
    [mark] = with_class(layer(svg, "battles"), "g", "battle")
    assert mark.get("data-area") == "THR" and "battle in THR: Macedonia attacked Egyptus" in title_of(mark)
    assert with_class(mark, "ellipse", "battle-ring") and with_class(mark, "use", "swords")
    tooltip = title_of(by_id(svg, "area-THR"))
    assert "battle this turn: Macedonia attacked Egyptus" in tooltip and "conquered this turn by Macedonia" in tooltip
    assert shape_fill(svg, "THR") == SEAT_COLOURS[MAC]


def test_a_retreat_is_drawn_as_an_arrow_back_and_the_move_there_too() -> None:
    state = place(start(), "THR", EGY, infantry=2)
    result = play(
        state,
        march((1, 2), "MAC", "THR", inf=3),
        dice=[BLANK] * 5,
        answers={MAC: {"battle.THR.1.retreat": "retreat to MAC"}},
    )
    svg = draw(result.state, events_of(result))
    arrows = {(g.get("class"), g.get("data-path")) for g in with_class(layer(svg, "moves"), "g", "move")}
    assert arrows == {("move land", "MAC THR"), ("move retreat", "THR MAC")}
    lines = {
        g.get("data-path"): points(with_class(g, "polyline", "move-line")[0].get("points", ""))
        for g in with_class(layer(svg, "moves"), "g", "move")
    }
    spots = layout(load_ruleset("coe-classic").board)
    (ax, ay), (bx, by) = (spots["MAC"].x, spots["MAC"].y), (spots["THR"].x, spots["THR"].y)

    def side(point: tuple[float, float]) -> float:  # signed distance from the line between the two centres
        return ((bx - ax) * (point[1] - ay) - (by - ay) * (point[0] - ax)) / math.dist((ax, ay), (bx, by))

    assert side(lines["MAC THR"][0]) * side(lines["THR MAC"][0]) < 0  # side by side, not on top of each other
    assert label_texts(svg, "MAC") == [("C G1 G2 G3 G4 · 5 INF", SEAT_COLOURS[MAC])]  # all back home


def test_a_naval_battle_is_marked_in_its_sea_zone() -> None:
    state = start()
    for seat, number in ((MAC, 1), (EGY, 1)):
        sea = state.force("AEG", seat)
        sea.galleys.append(number)
        sea.aboard[number] = Cargo()
    result = play(state, NavalBattle("AEG", None, line=1, text="NAVAL AEG"), dice=[BLANK] * 12)
    svg = draw(result.state, events_of(result))
    [mark] = with_class(layer(svg, "battles"), "g", "battle")
    assert mark.get("data-area") == "AEG" and "naval-battle" in (mark.get("class") or "")
    assert "naval battle this turn" in title_of(by_id(svg, "area-AEG"))


# -- text, bytes, editions ---------------------------------------------------------------------------------------


def test_seat_names_and_the_title_are_escaped_and_the_document_parses() -> None:
    odd = 'Pompey <the "Great"> & Co'
    data = snapshot(start())
    text = json.dumps(data).replace(json.dumps(MAC)[1:-1], odd.replace('"', '\\"'))  # rename the seat everywhere
    renamed = json.loads(text)
    assert odd in renamed["players"]
    title = "<script>alert('x')</script> & turn 1"
    svg_text = render_map(load_ruleset("coe-classic").board, renamed, [], title=title)
    assert "<script>" not in svg_text and odd not in svg_text
    svg = ET.fromstring(svg_text)
    assert title_of(svg) == title
    assert f"owner {odd}" in title_of(by_id(svg, "area-MAC"))
    assert [t.get("data-seat") for t in by_id(svg, "forces-MAC").iter(SVG + "text")] == [odd]


def test_colours_can_be_given_per_seat() -> None:
    svg = draw(start(), colours={MAC: "#000080"})
    assert shape_fill(svg, "MAC") == "#000080"
    assert shape_fill(svg, "EGY") == SEAT_COLOURS[EGY]


def test_the_same_inputs_give_the_same_bytes() -> None:
    result = fight_in_thracia()
    board = load_ruleset("coe-classic").board
    first = render_map(board, snapshot(result.state), events_of(result), title="t")
    assert render_map(board, snapshot(result.state), events_of(result), title="t") == first


def test_the_same_bytes_whatever_the_string_hash_seed() -> None:
    """Sets of area codes iterate in another order under another PYTHONHASHSEED: the map must not."""
    script = (
        "import hashlib, json\n"
        "from adjudicator.rulesets.coe.state import snapshot_text\n"
        "from adjudicator.render.svgmap import render_map_for_turn\n"
        "from adjudicator.rulesets import load_ruleset\n"
        "state = load_ruleset('coe-classic').initial_state('g', ['Macedonia', 'Egyptus', 'Hispania'])\n"
        "print(hashlib.sha256(render_map_for_turn('coe-classic', snapshot_text(state), '[]', 'g').encode())"
        ".hexdigest())\n"
    )
    root = Path(__file__).resolve().parent.parent
    digests = {
        subprocess.run(
            [sys.executable, "-c", script],
            cwd=root,
            check=True,
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
        ).stdout
        for seed in ("1", "2")
    }
    assert len(digests) == 1


def test_render_map_for_turn_reads_the_stored_json_strings() -> None:
    result = fight_in_thracia()
    events_json = json.dumps(events_of(result), ensure_ascii=False)
    ruleset = load_ruleset("coe-classic")
    text = render_map_for_turn(ruleset, snapshot_text(result.state), events_json, "test, turn 1")
    assert text == render_map(ruleset.board, snapshot(result.state), events_of(result), title="test, turn 1")
    assert render_map_for_turn("coe-classic", snapshot_text(result.state), events_json, "test, turn 1") == text


def test_a_1984_game_renders_too() -> None:
    state = start(ruleset="coe-1984")
    svg = draw(state)
    assert len(with_class(svg, "g", "area")) == 60
    assert shape_fill(svg, "EGY") == SEAT_COLOURS[EGY]
    assert label_texts(svg, "HIS")[0][0].startswith("C G1")
    assert not with_class(layer(svg, "links"), "line", "strait")  # no strait is crossable in the 1984 edition


def test_layout_kept_between_processes_is_the_computed_one(tmp_path: Path, monkeypatch: Any) -> None:
    """The board's layout read back from the cache folder is the one the pushing apart computes, bit for bit."""
    from adjudicator import resources
    from adjudicator.render import svgmap

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    board = load_ruleset("coe-classic").board
    svgmap._kept_layout.cache_clear()
    resources._KEPT.clear()
    made = layout(board)
    assert list((tmp_path / "pbem" / "map-layout").iterdir())
    svgmap._kept_layout.cache_clear()
    resources._KEPT.clear()  # read from the file, as a new process does
    read = layout(board)
    key = tuple((a.code, a.name, a.is_land, a.x, a.y) for a in sorted(board.areas.values(), key=lambda a: a.code))
    computed = svgmap._layout(key)
    assert read == made == computed
    assert [repr(s.hw) for s in read.values()] == [repr(s.hw) for s in computed.values()]
    svgmap._kept_layout.cache_clear()
