"""The game-neutral board: typed links, free area attributes, errors naming file and key; and
Conquest of the Empire's board on it (straits C-2.3/C-2.4/O-2.3, split coasts C-2.6)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from adjudicator.engine.board import (
    BRIDGE,
    COAST,
    LAND_BORDER,
    MOUNTAIN,
    RIVER,
    SEA_LANE,
    STRAIT,
    Board,
)
from adjudicator.engine.ruleset_source import RulesetDataError, RulesetSource
from adjudicator.resources import resource_dir
from adjudicator.rulesets import load_ruleset
from adjudicator.rulesets.coe.board import PRINTED_STRAIT, CoeBoard
from adjudicator.rulesets.coe.ruleset import load

# A made-up valley: two lands over a mountain pass, a river with a bridge beside it, an island over a strait,
# two seas, and a ruleset's own kind ("portage"). Free keys (fort, capital, food, toll) belong to the ruleset.
VALLEY = """
[[area]]
code = "VAL"
name = "Vale"
kind = "land"
value = 3
aliases = ["Green Vale"]
adjacent = ["HIL", "BAY"]
fort = "small"
capital = "Red"
food = 2

[[area]]
code = "HIL"
name = "Hills"
kind = "land"
adjacent = []

[[area]]
code = "FRD"
name = "Ford"
kind = "land"
adjacent = ["BAY"]
fort = "none"

[[area]]
code = "ISL"
name = "Isle"
kind = "land"
adjacent = ["DEP"]

[[area]]
code = "BAY"
name = "Bay"
kind = "sea"
adjacent = ["DEP"]

[[area]]
code = "DEP"
name = "Deep"
kind = "sea"
adjacent = []

[[link]]
between = ["VAL", "FRD"]
kind = "mountain"
pass = "Red Gate"

[[link]]
between = ["HIL", "FRD"]
kind = "river"
name = "Danube"

[[link]]
between = ["HIL", "FRD"]
kind = "bridge"
toll = 1

[[link]]
between = ["FRD", "ISL"]
kind = "strait"

[[link]]
between = ["ISL", "DEP"]
kind = "portage"
"""


def valley(tmp_path: Path, text: str = VALLEY) -> Board:
    (tmp_path / "board.toml").write_text(text, encoding="utf-8")
    return Board.read(RulesetSource.open(tmp_path, "board.toml"))


def test_the_adjacent_lists_give_land_borders_coasts_and_sea_lanes(tmp_path: Path) -> None:
    board = valley(tmp_path)
    assert board.link_kind("VAL", "HIL") == LAND_BORDER and board.link_kind("HIL", "VAL") == LAND_BORDER
    assert board.link_kind("VAL", "BAY") == COAST and board.link_kind("BAY", "FRD") == COAST
    assert board.link_kind("BAY", "DEP") == SEA_LANE
    assert board.link_kind("VAL", "DEP") is None
    # the plain adjacency holds only these three kinds, both ways
    assert board.adjacency["VAL"] == {"HIL", "BAY"} and board.adjacency["HIL"] == {"VAL"}
    assert board.adjacency["DEP"] == {"BAY", "ISL"}
    assert board.sea_neighbours("FRD") == {"BAY"}


def test_typed_links_are_asked_for_by_kind(tmp_path: Path) -> None:
    board = valley(tmp_path)
    assert board.link_kind("FRD", "VAL") == MOUNTAIN and board.link_kind("FRD", "ISL") == STRAIT
    assert board.link_kind("HIL", "FRD") == RIVER  # the first link of the pair in board order
    assert [link.kind for link in board.links_of("FRD")] == [COAST, MOUNTAIN, RIVER, BRIDGE, STRAIT]
    assert board.neighbours("FRD") == {"BAY", "VAL", "HIL", "ISL"}
    assert board.neighbours("FRD", [BRIDGE]) == {"HIL"}
    assert board.neighbours("FRD", (MOUNTAIN, STRAIT)) == {"VAL", "ISL"}
    assert board.neighbours("ISL", ["portage"]) == {"DEP"}  # a ruleset's own kind
    assert board.neighbours("VAL", [RIVER]) == frozenset()
    assert "FRD" not in board.adjacency["VAL"]  # a mountain is no plain link


def test_free_keys_pass_through_as_attributes(tmp_path: Path) -> None:
    board = valley(tmp_path)
    assert dict(board.attributes("VAL")) == {"fort": "small", "capital": "Red", "food": 2}
    assert dict(board.attributes("FRD")) == {"fort": "none"} and dict(board.attributes("HIL")) == {}
    assert board.value("VAL") == 3 and board.name("VAL") == "Vale" and board.lookup("green") == ["VAL"]
    (pass_, river, bridge) = [board.links_of("FRD", [kind])[0] for kind in (MOUNTAIN, RIVER, BRIDGE)]
    assert dict(pass_.attributes) == {"pass": "Red Gate"} and pass_.other("FRD") == "VAL"
    assert dict(river.attributes) == {"name": "Danube"} and dict(bridge.attributes) == {"toll": 1}


def test_the_same_data_without_a_file_is_named_board_data() -> None:
    with pytest.raises(RulesetDataError, match=re.escape("board data: area[0].name: missing")):
        Board.from_data({"area": [{"code": "A", "kind": "land"}]})


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('adjacent = ["HIL", "BAY"]', 'adjacent = ["HIL", "BAX"]', "area[0].adjacent[1]: 'BAX' is no other area"),
        (
            'adjacent = ["DEP"]\n\n[[area]]\ncode = "BAY"',
            'adjacent = ["ISL"]\n\n[[area]]\ncode = "BAY"',
            "area[3].adjacent[0]",
        ),
        (
            'kind = "land"\nvalue = 3',
            'kind = "hill"\nvalue = 3',
            "area[0].kind: expected one of land, sea, found 'hill'",
        ),
        ("value = 3", 'value = "3"', "area[0].value: expected an integer, found str '3'"),
        ('name = "Hills"', "", "area[1].name: missing"),
        ('code = "HIL"', 'code = "VAL"', "area[1].code: 'VAL' is given twice (also area[0])"),
        ('between = ["VAL", "FRD"]', 'between = ["VAL", "XXX"]', "link[0].between[1]: 'XXX' is no area"),
        ('between = ["VAL", "FRD"]', 'between = ["VAL"]', "link[0].between: expected two different area codes"),
        ('kind = "mountain"', "", "link[0].kind: missing"),
        ('kind = "river"', "kind = 7", "link[1].kind: expected a string, found int 7"),
    ],
)
def test_bad_board_data_is_an_error_naming_the_file_and_key(tmp_path: Path, old: str, new: str, message: str) -> None:
    assert old in VALLEY
    with pytest.raises(RulesetDataError, match=re.escape(message)) as raised:
        valley(tmp_path, VALLEY.replace(old, new, 1))
    assert str(tmp_path / "board.toml") in str(raised.value)


# -- Conquest of the Empire's board --------------------------------------------------------------------------


def test_C_2_3_C_2_4_classic_straits_are_typed_links_carrying_their_edition_flag() -> None:
    board = load_ruleset("coe-classic").board
    assert isinstance(board, CoeBoard)
    assert board.link_kind("THR", "ASI") == STRAIT and board.link_kind("BRI", "BEL") == STRAIT
    assert board.link_kind("SAR", "COR") == PRINTED_STRAIT  # C-2.4: drawn, not adjacent
    (sar_cor,) = board.links_of("SAR", [PRINTED_STRAIT])
    assert dict(sar_cor.attributes) == {"classic_adjacent": False}
    assert board.straits == {frozenset(p) for p in (("THR", "ASI"), ("SIC", "NEA"), ("BRI", "BEL"), ("BAE", "TIN"))}
    assert "ASI" in board.land_neighbours("THR") and not board.land_border("THR", "ASI")
    assert "COR" not in board.land_neighbours("SAR") and "COR" not in board.adjacency["SAR"]
    assert board.land_border("MAC", "THR") and board.link_kind("MAC", "THR") == LAND_BORDER
    assert board.link_kind("ITA", "ADR") == COAST and board.link_kind("ADR", "EPI") == SEA_LANE
    assert dict(board.attributes("HIS")) == {"home_1984": True} and dict(board.attributes("MES")) == {}


def test_O_2_3_no_strait_of_the_1984_board_is_crossable() -> None:
    board = load_ruleset("coe-1984").board
    assert board.straits == frozenset() and board.neighbours("THR", [STRAIT]) == frozenset()
    assert board.link_kind("THR", "ASI") == PRINTED_STRAIT and "ASI" not in board.land_neighbours("THR")


def test_C_2_6_split_coasts_answer_as_before() -> None:
    board = load_ruleset("coe-classic").board
    assert board.coasts("ITA") == (frozenset({"TYR", "NRB"}), frozenset({"ADR"}))
    assert board.coast_of("ITA", "NRB") == "NRB" and board.coast_of("ITA", "ADR") == "ADR"
    assert board.coast_of("HIS", "MBA") == "MBA" and board.coast_of("MAC", "ION") is None
    assert board.coasts("EGY") == (frozenset({"ALX", "PEL"}),) and board.coasts("MES") == ()


def broken_board(tmp_path: Path, old: str, new: str) -> Path:
    copy = tmp_path / "coe-classic"
    shutil.copytree(resource_dir("games") / "coe-classic", copy)
    text = (copy / "board.toml").read_text(encoding="utf-8")
    assert old in text
    (copy / "board.toml").write_text(text.replace(old, new, 1), encoding="utf-8")
    return copy


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('between = ["THR", "ASI"]', 'between = ["THR", "ASX"]', "board.toml: strait[0].between[1]: 'ASX' is no area"),
        ("classic_adjacent = true", 'classic_adjacent = "yes"', "board.toml: strait[0].classic_adjacent: expected"),
        ('province = "HIS"', 'province = "HIX"', "board.toml: split_coast[0].province: 'HIX' is no area"),
        ('coasts = [["CNT"]', 'coasts = [["GAL"]', "board.toml: split_coast[0].coasts[0]: 'GAL' is no sea zone"),
        ('code = "BRI"', "", "board.toml: area[0].code: missing"),
    ],
)
def test_bad_coe_board_data_is_an_error_naming_the_file_and_key(
    tmp_path: Path, old: str, new: str, message: str
) -> None:
    folder = broken_board(tmp_path, old, new)
    with pytest.raises(RulesetDataError, match=re.escape(message)) as raised:
        load(RulesetSource.open(folder))
    assert str(folder / "board.toml") in str(raised.value)
