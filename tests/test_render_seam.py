"""The renderers know no game: the map draws whatever a ruleset's map layers say, and the shared
report layouts take a ruleset's sentences from its own template folder."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from adjudicator.engine.board import Board
from adjudicator.engine.vocabulary import Event
from adjudicator.render import render, templates_of
from adjudicator.render.site import SiteTurn, battles
from adjudicator.render.svgmap import (
    SPARE_COLOURS,
    AreaLayer,
    Arrow,
    Fight,
    MapLayers,
    Pieces,
    Translate,
    render_map,
)
from adjudicator.rulesets import load_ruleset
from adjudicator.rulesets.coe.state import snapshot_text
from tests.helpers import start

SVG = "{http://www.w3.org/2000/svg}"


def horse_race(board: Board, snapshot: Mapping[str, Any], events: list[dict[str, Any]], tr: Translate) -> MapLayers:
    """The map layers of a made-up game on the CoE board: riders instead of armies, no cities, no roads."""
    return MapLayers(
        seats=["Red", "Blue"],
        fixed_colours={"Red": "#ff0000"},
        areas={"MAC": AreaLayer("Red", "", "the paddock"), "EGY": AreaLayer("Blue", "city", "the stables")},
        roads=[],
        pieces=[Pieces("MAC", [("Red", "3 riders")], "three riders")],
        moves=[Arrow("Blue", ["EGY", "SYR"], "land", "Blue gallops")],
        battles=[Fight("SYR", "land-battle", "a photo finish")],
        legend_seats=[("Red", False), ("Blue", True)],
        legend_symbols=(("land", "gallop", 90),),
        details=["horse race", f"{len(events)} events"],
    )


def element(svg: ET.Element, ident: str) -> ET.Element:
    [found] = [e for e in svg.iter() if e.get("id") == ident]
    return found


def test_the_map_draws_a_rulesets_layers_and_nothing_of_conquest_of_the_empire() -> None:
    board = load_ruleset("coe-classic").board
    text = render_map(board, {"game": "derby", "turn": 3}, [], layers=horse_race)
    svg = ET.fromstring(text)
    paddock = element(svg, "area-MAC").find(SVG + "rect[@class='shape']")
    assert paddock is not None and paddock.get("fill") == "#ff0000"  # the ruleset's own colour
    stables = element(svg, "area-EGY")
    assert stables.find(SVG + "rect[@class='shape']").get("fill") == SPARE_COLOURS[0]  # type: ignore[union-attr]
    assert stables.find(SVG + "circle[@class='city']") is not None  # its marker
    assert [t.text for t in element(svg, "forces-MAC").iter(SVG + "text")] == ["3 riders"]
    [arrow] = [g for g in svg.iter(SVG + "g") if g.get("data-path") == "EGY SYR"]
    assert arrow.find(SVG + "title").text == "Blue gallops"  # type: ignore[union-attr]
    assert [g.get("data-area") for g in svg.iter(SVG + "g") if "battle" in (g.get("class") or "").split()] == ["SYR"]
    assert "derby — turn 3" in text and "horse race · 0 events" in text
    assert "Blue (eliminated)" in text and "gallop" in text
    shown = " ".join(e.text or "" for e in svg.iter() if e.tag in (SVG + "text", SVG + "title"))
    for words in ("C Caesar", "galley", "road", "fortified city", "province worth", "sea zone"):  # CoE's layers' words
        assert words not in shown


def test_conquest_of_the_empire_sentences_come_from_its_template_folder() -> None:
    assert templates_of({"state": {"ruleset": "coe-1984"}}) == "coe"
    assert templates_of({"ruleset": "classic"}) == "coe"
    # a title names no ruleset: nothing is guessed (guessing loaded every ruleset, a broken one failing the render)
    assert templates_of({"title": load_ruleset("coe-classic").title}) is None
    event = Event("victory", "Egyptus", {"rule": "C-8.11"})
    assert render("_sentence.txt.j2", event=event, ruleset_templates="coe").strip() == "Egyptus wins the game [C-8.11]"


def test_a_ruleset_folder_outside_the_package_words_its_own_events_and_battles(tmp_path: Path) -> None:
    folder = tmp_path / "sealed_bids"
    folder.mkdir()
    (folder / "events.j2").write_text(
        '{% set battle_opening = ["bid_war"] %}\n{% set battle_kinds = ["bid_war", "bid"] %}\n'
        "{% macro sentence(e) -%}\n{{ e.seat }} {{ e.kind | replace('_', ' ') }}s {{ e.data.card }}\n{%- endmacro %}\n"
    )
    events = [Event("bid_war", "Red", {"card": "all"}), Event("bid", "Blue", {"card": "7"}), Event("other", None, {})]
    turn = SiteTurn(1, "Red", 1, "", "", events, "", "", [], "keyed")
    assert battles(turn, "en", str(folder)) == [["Red bid wars all", "Blue bids 7"]]


def test_the_public_report_of_a_coe_game_is_worded_by_the_coe_sentences() -> None:
    state = start()
    state.winner, state.active = "Egyptus", None
    snapshot = json.loads(snapshot_text(state))
    turn = {
        "number": 1,
        "seat": "Egyptus",
        "round": 1,
        "senders": [],
        "bots": [],
        "silent": ["Egyptus"],
        "events": [Event("victory", "Egyptus", {"rule": "C-8.11"})],
        "turn_key": "",
        "orders_hash": "h",
        "dice": [],
        "chain": "",
        "results": [],
    }
    text = render("report.txt.j2", title="t", game="g", turns=[turn], state=snapshot)
    assert "  Egyptus wins the game [C-8.11]" in text
    assert "The game has ended: Egyptus wins." in text
