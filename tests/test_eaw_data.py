"""The moderator's data of Empires of the Ancient World (EAW-11): the example data checks clean and covers what the
rules read; every check of the data at its boundary and one past it, on a copy of the example data with one value
changed; EAW-10.9's split between what refuses a game ((a) to (c)) and what is a note ((d) to (g))."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from adjudicator.engine.chance import KeyedDice
from adjudicator.engine.steps import resolve_step
from adjudicator.errors import PbemError
from adjudicator.rulesets import load_ruleset
from adjudicator.rulesets.empires import loader, template
from adjudicator.rulesets.empires.data import (
    CATEGORIES,
    EFFECT_CODES,
    EMPIRE,
    NORTH,
    PERSONALITY,
    PERSONALITY_TYPES,
    PLAYERS,
    SOUTH,
    GameData,
    Options,
)
from adjudicator.rulesets.empires.loader import FILES, RESOLUTIONS, check_folder, load_folder, read_files
from adjudicator.rulesets.empires.options import OPTION_RULES
from adjudicator.rulesets.empires.state import ENDED
from adjudicator.rulesets.empires.template import write_template
from tests.eaw_data_helpers import (
    EXAMPLE,
    REMOVE,
    add_connection,
    change_area,
    change_card,
    copy_example,
    drop_connection,
    index_of,
    notes,
    problems,
    replace_text,
)
from tests.rule_coverage import rule_ids, rules_spec


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return copy_example(tmp_path / "data")


@pytest.fixture(scope="module")
def example() -> GameData:
    return load_folder(EXAMPLE)


def area_key(folder: Path, ident: str) -> str:
    return f"map.toml: area[{index_of(folder, 'map.toml', 'area', ident)}]"


def card_key(folder: Path, ident: str) -> str:
    return f"cards.toml: card[{index_of(folder, 'cards.toml', 'card', ident)}]"


# -- the example data ---------------------------------------------------------------------------------------------
def test_EAW_11_1_to_EAW_11_7_the_example_data_checks_clean_without_a_note() -> None:
    report = check_folder(EXAMPLE)
    assert [p.text() for p in report.problems] == [] and [n.text() for n in report.notes] == []


def test_EAW_0_7_the_example_data_says_in_every_file_that_it_is_invented(example: GameData) -> None:
    assert example.example is True
    for file in FILES:
        assert (EXAMPLE / file).read_text(encoding="utf-8").startswith("# EXAMPLE DATA, invented for pbem: NOT the")
    assert tomllib.loads((EXAMPLE / "game-data.toml").read_text(encoding="utf-8"))["example"] is True


def test_EAW_1_1_EAW_2_1_EAW_2_2_EAW_2_7_EAW_2_9_EAW_2_10_EAW_2_11_the_example_map_has_every_feature(
    example: GameData,
) -> None:
    game_map = example.map
    areas = game_map.areas.values()
    assert 25 <= len(game_map.areas) <= 35
    assert len(game_map.mediterranean_seas) == 3 and all(
        game_map.areas[s].value == 8 for s in game_map.mediterranean_seas
    )
    seas = [a for a in areas if a.is_sea]
    assert any(not a.mediterranean and a.named for a in seas) and any(not a.named for a in seas)
    provinces = [a for a in areas if a.is_province]
    assert {a.half for a in provinces} == {NORTH, SOUTH}
    assert any(a.amphora for a in provinces) and any(a.mediterranean_coast for a in provinces)
    edge = [a for a in provinces if a.northern_edge]
    assert edge and all(a.value == 2 for a in edge)
    kinds = {kind for c in game_map.connections for kind in c.kinds}
    assert kinds == {"land", "mountain", "strait", "sea", "coast", "water"}
    lanes = [c for c in game_map.connections if "sea" in c.kinds]
    assert lanes and all(c.sea in game_map.areas and game_map.areas[c.sea].is_sea for c in lanes)
    assert any(c.kinds == frozenset({"strait", "sea"}) for c in game_map.connections)  # EAW-13.2
    assert all(0 < a.x <= 1000 and 0 < a.y <= 1000 for a in areas)  # placed for the drawn map


def test_EAW_3_1_EAW_3_9_the_example_map_has_room_for_3_to_5_players(example: GameData) -> None:
    game_map = example.map
    takeable = [a for a in game_map.areas.values() if a.is_province or a.named]
    for players in PLAYERS:
        assert players * Options().start_markers[players] <= len(takeable)
        assert Options().start_markers[players] == 10 - players
    assert example.pieces.control_markers >= max(Options().start_markers.values())


def test_EAW_1_3_EAW_1_4_EAW_8_5_EAW_9_1_the_example_cards_cover_every_attribute(example: GameData) -> None:
    cards = example.cards.values()
    fighting = [c for c in cards if c.kind != PERSONALITY]
    assert {c.category for c in fighting} == set(CATEGORIES)
    assert {c.speed for c in fighting} == {"fast", "slow"}
    assert any(c.mounted for c in fighting) and any(c.melee for c in fighting)
    assert any(c.value_vs for c in fighting)
    assert any(c.value_roll and set(c.value_roll) == {1, 2, 3, 4, 5, 6} for c in fighting)  # a table
    assert any(c.roll_mod is not None for c in fighting)  # a modifier
    assert {c.label for c in fighting} == {"N", "S", None}
    assert {c.vp_cost for c in cards} >= {0, 1, 2, 3}
    assert {c.personality for c in cards if c.kind == PERSONALITY} == set(PERSONALITY_TYPES)
    assert {e.code for c in cards for e in c.effects} == set(EFFECT_CODES)
    for group in "ABCDEF":
        assert example.home_army(group)
    assert all(c.home_group for c in cards if c.kind == EMPIRE)
    assert len(example.general_deck) >= 6


def test_EAW_11_6_the_example_cards_load_every_attribute_as_written(example: GameData) -> None:
    fire, reed = example.cards["fire_ships"], example.cards["reed_skirmishers"]
    assert dict(fire.value_roll) == {1: 1, 2: 1, 3: 2, 4: 3, 5: 5, 6: 7} and fire.roll_mod is None
    assert fire.value_against("galley", 6) == 7 and fire.speed == "fast" and fire.category == "galley"
    assert reed.roll_mod == 0 and reed.value_against("sword", 4) == 5 and reed.label == "S"
    archers = example.cards["river_archers"]
    assert archers.value_against("mounted") == 5 and archers.value_against("spear") == 3 and archers.count == 3
    diplomat = example.cards["silver_tongue"]
    remove = next(e for e in diplomat.effects if e.code == "diplomacy_remove")
    assert dict(remove.args) == {"target": 6, "per_marker": 1, "max_markers": 3}
    assert example.general_deck.count("silver_tongue") == 1 and "silver_tongue#2" in example.general_deck


def test_EAW_11_2_EAW_5_1_the_example_revolt_tables_load(example: GameData) -> None:
    revolts = example.revolts
    assert set(revolts.table_of) == {1, 2, 3, 4, 5, 6} and set(revolts.table_of.values()) == {NORTH, SOUTH}
    for half in (NORTH, SOUTH):
        assert set(revolts.tables[half]) == {1, 2, 3, 4, 5, 6}
        for listed in revolts.tables[half].values():
            assert all(example.map.areas[a].half == half for a in listed)
    assert revolts.tables[NORTH][1] == ("FRO", "VEL") and revolts.tables[NORTH][6] == ()


def test_EAW_11_4_EAW_11_7_the_example_pieces_and_options_load(example: GameData) -> None:
    pieces, options = example.pieces, example.options
    assert (pieces.control_markers, pieces.trade_markers, pieces.forts, pieces.hand_limit) == (20, 40, 4, None)
    assert options.plunder_vp == 1 and options.changed() == {"plunder_vp": "1"}


def test_EAW_11_the_ruleset_loads_the_data_files_a_game_stores(example: GameData) -> None:
    files = read_files(EXAMPLE)
    assert sorted(files) == sorted(FILES)
    member = load_ruleset("empires-aw").game_data
    assert member.load_files(files) == example


# -- map.toml -----------------------------------------------------------------------------------------------------
def test_EAW_2_2_two_mediterranean_seas_are_refused_three_taken_four_refused(folder: Path) -> None:
    assert problems(folder) == []
    change_area(folder, "WMS", mediterranean=REMOVE)
    assert "map.toml: area (EAW-2.2): exactly three Mediterranean sea areas, found 2: CMS, EMS" in problems(folder)
    change_area(folder, "WMS", mediterranean=True)
    change_area(folder, "NRW", mediterranean=True, value=8)
    change_area(folder, "PEL", mediterranean_coast=True)
    change_area(folder, "HYR", mediterranean_coast=True)
    assert problems(folder) == [
        "map.toml: area (EAW-2.2): exactly three Mediterranean sea areas, found 4: CMS, EMS, NRW, WMS"
    ]


def test_EAW_2_9_a_mediterranean_sea_worth_7_is_refused_8_taken(folder: Path) -> None:
    change_area(folder, "CMS", value=7)
    key = area_key(folder, "CMS")
    assert problems(folder) == [
        f"{key}.value (EAW-2.9): a Mediterranean sea area is worth 8 (the highest value), not 7"
    ]
    change_area(folder, "CMS", value=8)
    assert problems(folder) == []


def test_EAW_2_9_a_northern_edge_province_worth_3_is_refused_2_taken(folder: Path) -> None:
    change_area(folder, "VEL", value=3)
    key = area_key(folder, "VEL")
    assert problems(folder) == [
        f"{key}.value (EAW-2.9): a province on the northern edge is worth 2 (the lowest value), not 3"
    ]
    change_area(folder, "VEL", value=2)
    assert problems(folder) == []


def test_EAW_2_9_EAW_2_6_area_values_run_from_2_to_8(folder: Path) -> None:
    change_area(folder, "TAL", value=1)
    change_area(folder, "NLR", value=9)
    assert problems(folder) == [
        f"{area_key(folder, 'TAL')}.value (EAW-2.9): 1 is out of range: 2 to 8",
        f"{area_key(folder, 'NLR')}.value (EAW-2.9): 9 is out of range: 2 to 8",
    ]
    change_area(folder, "TAL", value=2)
    change_area(folder, "NLR", value=8)
    assert problems(folder) == []


def test_EAW_2_10_EAW_0_6_a_province_without_half_is_refused_and_a_sea_area_has_none(folder: Path) -> None:
    change_area(folder, "TAL", half=REMOVE)
    change_area(folder, "OCN", half="north")
    assert problems(folder) == [
        f"{area_key(folder, 'TAL')}.half (EAW-2.10): a province needs its half: north or south",
        f"{area_key(folder, 'OCN')}.half (EAW-2.10): a sea area belongs to neither half; remove half",
    ]
    change_area(folder, "TAL", half="east")
    assert f"{area_key(folder, 'TAL')}.half (EAW-2.10): 'east' is not one of north, south" in problems(folder)


def test_EAW_2_10_a_half_without_any_province_is_refused(folder: Path) -> None:
    for ident in ("LUS", "MAU", "SAB", "GET", "KYR", "DSA", "NLR", "THB", "CRS", "OPH", "LVT"):
        change_area(folder, ident, half="north")
    found = problems(folder)
    assert "map.toml: area (EAW-2.10): the south half has no province" in found


def test_EAW_2_1_a_sea_lane_without_its_crossed_sea_is_refused(folder: Path) -> None:
    replace_text(
        folder,
        "map.toml",
        'a = "SIL"\nb = "SAB"\nkinds = ["sea"]\nsea = "CMS"\n',
        'a = "SIL"\nb = "SAB"\nkinds = ["sea"]\n',
    )
    index = tomllib.loads((folder / "map.toml").read_text(encoding="utf-8"))["connection"]
    position = [(c["a"], c["b"]) for c in index].index(("SIL", "SAB"))
    assert problems(folder) == [
        f'map.toml: connection[{position}].sea (EAW-2.1): a sea lane names the sea area it crosses: sea = "<sea area '
        'id>"'
    ]


def test_EAW_2_1_a_crossed_sea_must_be_a_known_sea_area_on_a_sea_lane(folder: Path) -> None:
    add_connection(folder, "GET", "THB", ["land"], sea="CMS")
    add_connection(folder, "FRO", "TAL", ["sea"], sea="ORS")
    add_connection(folder, "VEL", "ORS", ["sea"], sea="XXX")
    count = len(tomllib.loads((folder / "map.toml").read_text(encoding="utf-8"))["connection"])
    assert problems(folder) == [
        f"map.toml: connection[{count - 3}].sea (EAW-2.1): only a sea lane crosses a sea area; this connection is no "
        "sea lane",
        f"map.toml: connection[{count - 2}].sea (EAW-2.1): 'ORS' is a province, not a sea area",
        f"map.toml: connection[{count - 1}].sea (EAW-2.1): 'XXX' is no area of map.toml",
    ]


def test_EAW_2_1_an_adjacency_listed_twice_in_either_order_or_to_an_unknown_area_is_refused(folder: Path) -> None:
    count = len(tomllib.loads((folder / "map.toml").read_text(encoding="utf-8"))["connection"])
    add_connection(folder, "VEL", "FRO", ["mountain"])  # FRO-VEL is listed already: symmetric, once
    add_connection(folder, "FRO", "VEL", ["land"])
    add_connection(folder, "FRO", "NOWHERE", ["land"])
    add_connection(folder, "TAL", "TAL", ["land"])
    assert problems(folder) == [
        f"map.toml: connection[{count}].b (EAW-2.1): VEL and FRO are connected already (connection[0]); give every "
        "kind in one connection",
        f"map.toml: connection[{count + 1}].b (EAW-2.1): FRO and VEL are connected already (connection[0]); give "
        "every kind in one connection",
        f"map.toml: connection[{count + 2}].b (EAW-2.1): 'NOWHERE' is no area of map.toml",
        f"map.toml: connection[{count + 3}].b (EAW-2.1): an area cannot border itself",
    ]


def test_EAW_2_1_adjacency_is_symmetric_each_pair_listed_once_serves_both_ways(example: GameData) -> None:
    game_map = example.map
    for link in game_map.connections:
        assert game_map.connection(link.a, link.b) is game_map.connection(link.b, link.a) is link
        assert link.b in game_map.neighbours(link.a) and link.a in game_map.neighbours(link.b)


def test_EAW_2_1_each_connection_kind_joins_its_kind_of_areas(folder: Path) -> None:
    count = len(tomllib.loads((folder / "map.toml").read_text(encoding="utf-8"))["connection"])
    add_connection(folder, "FRO", "TAL", ["coast"])
    add_connection(folder, "GET", "OUT", ["water"])
    add_connection(folder, "OUT", "RDG", ["land"])
    add_connection(folder, "GET", "THB", ["tunnel"])
    assert problems(folder) == [
        f"map.toml: connection[{count}].kinds (EAW-2.1): a coast connection joins a province and a sea area; TAL is a "
        "province",
        f"map.toml: connection[{count + 1}].kinds (EAW-2.1): a water connection joins two sea areas; GET is a province",
        f"map.toml: connection[{count + 2}].kinds (EAW-2.1): a land connection joins two provinces; OUT is a sea area",
        f"map.toml: connection[{count + 2}].kinds (EAW-2.1): a land connection joins two provinces; RDG is a sea area",
        f"map.toml: connection[{count + 3}].kinds[0] (EAW-2.1): 'tunnel' is not one of land, mountain, strait, sea, "
        "coast, water",
    ]


def test_EAW_2_1_an_area_without_any_connection_is_refused(folder: Path) -> None:
    for a, b in (("LUS", "OUT"), ("MAU", "OUT"), ("OCN", "OUT")):
        drop_connection(folder, a, b)
    assert problems(folder) == [f"{area_key(folder, 'OUT')} (EAW-2.1): OUT has no connection"]


def test_EAW_2_2_EAW_2_3_the_mediterranean_coast_flag_must_match_the_coasts(folder: Path) -> None:
    change_area(folder, "ORS", mediterranean_coast=REMOVE)
    change_area(folder, "TAL", mediterranean_coast=True)
    assert problems(folder) == [
        f"{area_key(folder, 'ORS')}.mediterranean_coast (EAW-2.2): ORS borders the Mediterranean sea area WMS: set "
        "mediterranean_coast = true",
        f"{area_key(folder, 'TAL')}.mediterranean_coast (EAW-2.2): TAL borders no Mediterranean sea area: it cannot "
        "be mediterranean_coast",
    ]


def test_EAW_2_7_EAW_2_11_province_flags_and_sea_flags_stay_on_their_kind(folder: Path) -> None:
    change_area(folder, "OCN", amphora=True)
    change_area(folder, "TAL", named=False, mediterranean=False)
    assert problems(folder) == [
        f"{area_key(folder, 'TAL')}.mediterranean (EAW-2.2): mediterranean is a flag of sea areas; TAL is a province",
        f"{area_key(folder, 'TAL')}.named (EAW-2.11): named is a flag of sea areas; TAL is a province",
        f"{area_key(folder, 'OCN')}.amphora (EAW-2.7): amphora is a flag of provinces; OCN is a sea area",
    ]


def test_EAW_2_11_a_sea_area_is_named_unless_the_data_says_otherwise(folder: Path, example: GameData) -> None:
    areas = example.map.areas
    assert areas["OCN"].named and not areas["OUT"].named and not areas["PLB"].named
    change_area(folder, "OUT", named=REMOVE)
    assert load_folder(folder).map.areas["OUT"].named  # EAW-2.11: no flag, named


def test_EAW_2_7_amphora_and_positions_load(example: GameData) -> None:
    areas = example.map.areas
    assert {a.id for a in areas.values() if a.amphora} == {"BRE", "PEL", "SAB", "NLR", "OPH"}
    assert (areas["FRO"].x, areas["FRO"].y) == (100, 60)


def test_EAW_11_1_an_area_without_a_position_is_a_note(folder: Path) -> None:
    change_area(folder, "TAL", x=REMOVE, y=REMOVE)
    change_area(folder, "VEL", x=1001)
    assert problems(folder) == [f"{area_key(folder, 'VEL')}.x (EAW-11.1): 1001 is out of range: 0 to 1000"]
    assert notes(folder) == [
        f"{area_key(folder, 'TAL')}.x (EAW-11.1): TAL has no position (x, y): the map draws it at 0, 0"
    ]


def test_EAW_11_1_an_area_id_twice_a_bad_id_and_an_unknown_key_are_refused(folder: Path) -> None:
    change_area(folder, "TAL", colour="red")
    change_area(folder, "VEL", kind="lake")
    second = index_of(folder, "map.toml", "area", "DSA")
    replace_text(folder, "map.toml", 'id = "GET"', 'id = "DSA"')
    found = problems(folder)
    assert (
        f"{area_key(folder, 'TAL')}.colour (EAW-11.1): unknown key (known here: id, name, kind, value, half, amphora, "
        "mediterranean_coast, mediterranean, named, northern_edge, x, y)" in found
    )
    assert f"{area_key(folder, 'VEL')}.kind (EAW-2.1): 'lake' is not one of province, sea" in found
    assert f"map.toml: area[{second}].id (EAW-11.1): 'DSA' is given twice" in found


# -- revolts.toml -------------------------------------------------------------------------------------------------
def test_EAW_5_3_a_sea_area_in_a_revolt_table_is_refused(folder: Path) -> None:
    replace_text(folder, "revolts.toml", '2 = ["TAL"]', '2 = ["TAL", "WMS"]')
    assert problems(folder) == ["revolts.toml: north.2[1] (EAW-5.3): 'WMS' is a sea area: only provinces revolt"]


def test_EAW_5_1_a_revolt_table_without_all_six_results_is_refused_six_taken_seven_refused(folder: Path) -> None:
    replace_text(folder, "revolts.toml", '[south]\n1 = ["MAU", "GET"]\n', "[south]\n")
    assert problems(folder) == [
        "revolts.toml: south (EAW-5.1): a revolt table lists all six results, 1 to 6; missing: 1"
    ]
    replace_text(folder, "revolts.toml", "[south]\n", '[south]\n1 = ["MAU", "GET"]\n')
    assert problems(folder) == []
    replace_text(folder, "revolts.toml", "[south]\n", '[south]\n7 = ["MAU"]\n')
    assert problems(folder) == ["revolts.toml: south.7 (EAW-5.1): unknown key (known here: 1, 2, 3, 4, 5, 6)"]


def test_EAW_5_1_the_first_die_must_select_a_table_for_every_result(folder: Path) -> None:
    replace_text(folder, "revolts.toml", ', 6 = "south" }', " }")
    assert problems(folder) == [
        "revolts.toml: table_of (EAW-5.1): each first-die result 1 to 6 selects the north or the south table; "
        "missing: 6"
    ]
    replace_text(folder, "revolts.toml", '4 = "south", 5 = "south" }', '4 = "north", 5 = "north", 6 = "north" }')
    assert problems(folder) == ["revolts.toml: table_of (EAW-5.1): no first-die result selects the south table"]


def test_EAW_5_1_EAW_5_2_a_revolt_table_lists_known_provinces_of_its_half_once(folder: Path) -> None:
    replace_text(folder, "revolts.toml", '4 = ["KYR"]', '4 = ["KYR", "KYR", "TAL", "XYZ"]')
    assert problems(folder) == [
        "revolts.toml: south.4[1] (EAW-5.2): 'KYR' is given twice",
        "revolts.toml: south.4[2] (EAW-5.1): 'TAL' lies in the north half, not in this table's half",
        "revolts.toml: south.4[3] (EAW-5.1): 'XYZ' is no area of map.toml",
    ]


# -- cards.toml ---------------------------------------------------------------------------------------------------
def test_EAW_1_4_a_home_army_that_is_empty_is_refused_one_card_taken(folder: Path) -> None:
    change_card(folder, "e_swords", home_group="D")
    change_card(folder, "e_slingers", home_group="D")
    change_card(folder, "e_galleys", home_group="F")
    assert problems(folder) == ["cards.toml: card (EAW-1.4): home army E has no card"]
    change_card(folder, "e_galleys", home_group="E")
    assert problems(folder) == []
    assert load_folder(folder).home_army("E") == ("e_galleys",)


def test_EAW_1_4_EAW_7_23_an_empire_card_in_the_wrong_halfs_group_is_refused(folder: Path) -> None:
    change_card(folder, "a_horse", label="S")
    change_card(folder, "e_galleys", label="N")
    assert problems(folder) == [
        f"{card_key(folder, 'a_horse')}.home_group (EAW-1.4): a card labelled S belongs to the south; home army A is "
        "a group of the north half",
        f"{card_key(folder, 'e_galleys')}.home_group (EAW-1.4): a card labelled N belongs to the north; home army E "
        "is a group of the south half",
    ]
    change_card(folder, "a_horse", label="N")
    change_card(folder, "e_galleys", label="none")
    assert problems(folder) == []


def test_EAW_1_4_an_empire_card_needs_a_home_group_and_an_army_card_has_none(folder: Path) -> None:
    change_card(folder, "f_galleys", home_group=REMOVE)
    change_card(folder, "war_galleys", home_group="A")
    change_card(folder, "a_bows", home_group="G")
    found = problems(folder)
    assert (
        f"{card_key(folder, 'f_galleys')}.home_group (EAW-1.4): an empire card belongs to a home army: home_group A "
        "to F" in found
    )
    assert (
        f"{card_key(folder, 'war_galleys')}.home_group (EAW-11.6): unknown key (known here: id, name, kind, category, "
        "speed, mounted, melee, value, value_vs, value_roll, label, vp_cost, count, effects)" in found
    )
    assert f"{card_key(folder, 'a_bows')}.home_group (EAW-1.4): 'G' is not one of A, B, C, D, E, F" in found


def test_EAW_8_5_a_card_value_missing_is_refused(folder: Path) -> None:
    change_card(folder, "hill_spearmen", value=REMOVE)
    change_card(folder, "a_pikes", value="")
    assert problems(folder) == [
        f"{card_key(folder, 'hill_spearmen')}.value (EAW-8.5): a card value is missing: an army card needs value",
        f"{card_key(folder, 'a_pikes')}.value (EAW-8.5): still empty: fill it in",
    ]


def test_EAW_8_5_a_value_roll_covering_1_to_5_is_refused_1_to_6_taken(folder: Path) -> None:
    change_card(folder, "fire_ships", value_roll={"1": 1, "2": 1, "3": 2, "4": 3, "5": 5})
    assert problems(folder) == [
        f"{card_key(folder, 'fire_ships')}.value_roll (EAW-8.5): value_roll gives a value for every d6 result 1 to 6; "
        "missing: 6"
    ]
    change_card(folder, "fire_ships", value_roll={"1": 1, "2": 1, "3": 2, "4": 3, "5": 5, "6": 6})
    assert problems(folder) == []
    change_card(folder, "fire_ships", value_roll={"0": 1, "1": 1, "2": 1, "3": 2, "4": 3, "5": 5, "6": 6})
    assert problems(folder) == [
        f"{card_key(folder, 'fire_ships')}.value_roll.0 (EAW-8.5): unknown key (known here: mod, 1, 2, 3, 4, 5, 6)"
    ]


def test_EAW_8_5_a_value_roll_is_a_table_or_a_modifier_not_both(folder: Path) -> None:
    change_card(folder, "fire_ships", value_roll={"mod": 1, "1": 1})
    assert problems(folder) == [
        f"{card_key(folder, 'fire_ships')}.value_roll (EAW-8.5): value_roll is either a table of the six results or "
        "{ mod = n }, not both"
    ]
    change_card(folder, "fire_ships", value_roll={"mod": -2})
    assert problems(folder) == [] and load_folder(folder).cards["fire_ships"].roll_mod == -2


def test_EAW_8_5_EAW_1_3_value_vs_names_categories_and_attributes_their_choices(folder: Path) -> None:
    change_card(folder, "river_archers", value_vs={"cavalry": 5}, speed="quick", category="bow")
    key = card_key(folder, "river_archers")
    categories = ", ".join(CATEGORIES)
    assert problems(folder) == [
        f"{key}.category (EAW-1.3): 'bow' is not one of {categories}",
        f"{key}.speed (EAW-8.1): 'quick' is not one of fast, slow",
        f"{key}.value_vs.cavalry (EAW-8.5): unknown key (known here: {categories})",
    ]


def test_EAW_10_5_a_vp_cost_of_3_is_taken_4_refused(folder: Path) -> None:
    change_card(folder, "tusked_beasts", vp_cost=4)
    assert problems(folder) == [f"{card_key(folder, 'tusked_beasts')}.vp_cost (EAW-10.5): 4 is out of range: 0 to 3"]
    change_card(folder, "tusked_beasts", vp_cost=3)
    assert problems(folder) == []


def test_EAW_11_6_an_unknown_effect_code_or_argument_is_refused(folder: Path) -> None:
    change_card(folder, "wall_builder", effects=[{"code": "fort_discount", "n": 2}])
    change_card(folder, "salt_trader", effects=[{"code": "trade_income"}, {"code": "trade_place", "n": 1, "m": 2}])
    change_card(folder, "sapper_chief", effects=[{"code": "roll_mod", "roll": "siege", "n": 1}])
    change_card(folder, "marshal_of_hills", effects=[{"code": "card_value", "n": 1, "if": "always"}])
    codes = ", ".join(EFFECT_CODES)
    assert problems(folder) == [
        f"{card_key(folder, 'marshal_of_hills')}.effects[0].if (EAW-11.6): 'always' is not one of melee, ambush",
        f"{card_key(folder, 'wall_builder')}.effects[0].code (EAW-11.6): unknown effect code 'fort_discount' (known: "
        f"{codes})",
        f"{card_key(folder, 'sapper_chief')}.effects[0].roll (EAW-11.6): 'siege' is not one of sea_move, neutral, "
        "mountain, diplomacy, displace",
        f"{card_key(folder, 'salt_trader')}.effects[0].n (EAW-11.6): effect trade_income needs the argument n",
        f"{card_key(folder, 'salt_trader')}.effects[1].m (EAW-11.6): effect trade_place takes no argument m (it "
        "takes: n)",
    ]


def test_EAW_9_1_a_personality_needs_its_type(folder: Path) -> None:
    change_card(folder, "wall_builder", personality="architect")
    change_card(folder, "salt_trader", personality=REMOVE)
    assert problems(folder) == [
        f"{card_key(folder, 'wall_builder')}.personality (EAW-9.1): 'architect' is not one of leader, engineer, "
        "diplomat, merchant",
        f"{card_key(folder, 'salt_trader')}.personality (EAW-9.1): a personality card needs its type: leader, "
        "engineer, diplomat, merchant",
    ]


def test_EAW_11_6_a_card_id_twice_and_a_count_of_0_are_refused(folder: Path) -> None:
    replace_text(folder, "cards.toml", 'id = "oath_guard"', 'id = "iron_swordsmen"')
    change_card(folder, "war_galleys", count=0)
    assert problems(folder) == [
        f"cards.toml: card[{index_of(folder, 'cards.toml', 'card', 'iron_swordsmen') + 1}].id (EAW-11.6): "
        "'iron_swordsmen' is given twice",
        f"{card_key(folder, 'war_galleys')}.count (EAW-1.2): 0 is out of range: 1 to 30",
    ]


def test_EAW_7_20_a_general_deck_of_5_cards_is_refused_6_taken(tmp_path: Path) -> None:
    folder = copy_example(tmp_path / "data")
    text = (folder / "cards.toml").read_text(encoding="utf-8")
    head, _, rest = text.partition("\n# -- the general deck: army cards")
    homes = rest[rest.index("# -- the home armies") :]
    deck = '[[card]]\nid = "pikes"\nname = "Pikes"\nkind = "army"\ncategory = "spear"\nspeed = "slow"\n'
    deck += "value = 3\ncount = 5\n"
    (folder / "cards.toml").write_text(f"{head}\n{deck}\n{homes}", encoding="utf-8")
    assert problems(folder) == ["cards.toml: card (EAW-7.20): the general deck has 5 cards; the display alone shows 6"]
    (folder / "cards.toml").write_text(f"{head}\n{deck.replace('count = 5', 'count = 6')}\n{homes}", encoding="utf-8")
    assert problems(folder) == []


# -- game-data.toml -----------------------------------------------------------------------------------------------
def test_EAW_11_7_unknown_option_values_are_refused(folder: Path) -> None:
    replace_text(folder, "game-data.toml", 'trade_reach = "chain"', 'trade_reach = "anywhere"')
    replace_text(folder, "game-data.toml", "action_rounds_first = 10", "action_rounds_first = 3")
    replace_text(folder, "game-data.toml", "plunder_vp = 1 ", "plunder_vp = 11 ")
    replace_text(folder, "game-data.toml", "{ 3 = 7, 4 = 6, 5 = 5 }", "{ 3 = 7, 6 = 4 }")
    replace_text(folder, "game-data.toml", "[options]", "[options]\nspeed = 2")
    assert problems(folder) == [
        f"game-data.toml: options.speed (EAW-11.7): unknown key (known here: {', '.join(OPTION_RULES)})",
        "game-data.toml: options.start_markers.6 (EAW-3.4): unknown key (known here: 3, 4, 5)",
        "game-data.toml: options.action_rounds_first (EAW-4.3): 3 is out of range: 4 to 20",
        "game-data.toml: options.trade_reach (EAW-7.30): 'anywhere' is not one of chain, controlled_only",
        "game-data.toml: options.plunder_vp (EAW-10.6): 11 is out of range: 0 to 10",
    ]


def test_EAW_4_3_EAW_10_6_number_options_at_their_bounds_are_taken(folder: Path) -> None:
    replace_text(folder, "game-data.toml", "action_rounds_first = 10", "action_rounds_first = 4")
    replace_text(folder, "game-data.toml", "plunder_vp = 1 ", "plunder_vp = 10 ")
    options = load_folder(folder).options
    assert (options.action_rounds_first, options.plunder_vp, options.action_rounds(4)) == (4, 10, 1)


def test_EAW_3_1_control_markers_fewer_than_the_start_markers_are_refused(folder: Path) -> None:
    replace_text(folder, "game-data.toml", "control_markers = 20", "control_markers = 6")
    assert problems(folder) == [
        "game-data.toml: pieces.control_markers (EAW-3.1): 6 control markers per player; 3 players start with 7 each"
    ]
    replace_text(folder, "game-data.toml", "control_markers = 6", "control_markers = 7")
    assert problems(folder) == []


def test_EAW_11_the_folder_must_be_of_ruleset_empires_aw(folder: Path) -> None:
    replace_text(folder, "game-data.toml", 'ruleset = "empires-aw"', 'ruleset = "conqueror-er"')
    assert problems(folder) == [
        "game-data.toml: ruleset (EAW-11): this folder holds data of ruleset 'conqueror-er', not empires-aw"
    ]


def test_EAW_11_a_file_that_is_no_toml_names_the_line(folder: Path) -> None:
    replace_text(folder, "revolts.toml", '2 = ["TAL"]', '2 = ["TAL"')
    found = problems(folder)
    assert len(found) == 1 and found[0].startswith("revolts.toml (EAW-11.2): not valid TOML (") and "line 9" in found[0]


@pytest.mark.parametrize(
    ("file", "rule"), [("map.toml", "EAW-11.1"), ("revolts.toml", "EAW-11.2"), ("cards.toml", "EAW-11.3")]
)
def test_EAW_10_9_a_b_c_without_the_map_the_revolt_tables_or_the_cards_the_game_does_not_start(
    folder: Path, file: str, rule: str
) -> None:
    (folder / file).unlink()
    assert problems(folder) == [f"{file} ({rule}): the file is missing"]
    with pytest.raises(PbemError) as refused:
        load_folder(folder)
    assert f"the game data has 1 problems:\n{file} ({rule}): the file is missing" in str(refused.value)


def test_EAW_10_9_d_to_g_EAW_11_5_and_EAW_0_7_values_left_out_are_notes_naming_the_resolution(folder: Path) -> None:
    text = (folder / "game-data.toml").read_text(encoding="utf-8")
    (folder / "game-data.toml").write_text(text[: text.index("confirmed = ")] + "\n", encoding="utf-8")
    assert problems(folder) == []
    found = notes(folder)
    assert (
        "game-data.toml: options.plunder_vp (EAW-10.6): not given: plunder scores 0 and every scoring report lists "
        "each player's plunder" in found
    )
    assert "game-data.toml: options.tie_break (EAW-10.8): not given: the resolution shared applies" in found  # (d)
    assert (
        "game-data.toml: options.leader_melee_bonus (EAW-8.2): not given: the resolution ambush applies" in found
    )  # (e)
    assert "game-data.toml: pieces.forts (EAW-1.2): not given: unlimited" in found  # (f)
    assert "game-data.toml: pieces.hand_limit (EAW-11.3): not given: no hand limit" in found
    # (g): the points resting on one secondary source or on our resolution
    for rule, option in (("EAW-8.8", "loss_selection"), ("EAW-7.30", "trade_reach"), ("EAW-10.5", "upkeep_timing")):
        assert any(line.startswith(f"game-data.toml: options.{option} ({rule}): not given") for line in found)
    assert any(line.startswith("game-data.toml: options.start_markers_count (EAW-3.9)") for line in found)
    assert any(line.startswith("game-data.toml: options.plunder_spendable (EAW-8.13)") for line in found)
    assert (
        "game-data.toml: confirmed (EAW-7.13): to confirm: the diplomat's removal costs 0 to 3 markers paid, +1 each, "
        "success on 6+" in found
    )
    assert "game-data.toml: confirmed (EAW-8.20): to confirm: a naval stack holds up to 5 cards" in found
    data = load_folder(folder)  # the game starts with the resolutions
    assert data.options == Options() and data.options.plunder_vp is None and data.pieces.forts is None


def test_EAW_10_9_g_a_confirmed_resolution_is_no_note_and_an_unknown_one_is_refused(folder: Path) -> None:
    replace_text(folder, "game-data.toml", '"EAW-8.20"]', '"EAW-8.20", "EAW-9.9"]')
    assert problems(folder) == [
        "game-data.toml: confirmed[5] (EAW-10.9): 'EAW-9.9' is none of the resolutions to confirm: EAW-7.13, "
        "EAW-7.20, EAW-8.1, EAW-8.3, EAW-8.20"
    ]
    replace_text(folder, "game-data.toml", ', "EAW-8.20", "EAW-9.9"]', "]")
    assert notes(folder) == ["game-data.toml: confirmed (EAW-8.20): to confirm: a naval stack holds up to 5 cards"]


def test_EAW_1_2_EAW_11_4_pieces_given_and_a_hand_limit_of_0_is_none(folder: Path) -> None:
    replace_text(folder, "game-data.toml", "hand_limit = 0", "hand_limit = 8")
    replace_text(folder, "game-data.toml", "forts = 4", "forts = 0")
    assert problems(folder) == ["game-data.toml: pieces.forts (EAW-1.2): 0 is out of range: 1 to 200"]
    replace_text(folder, "game-data.toml", "forts = 0", "forts = 1")
    assert load_folder(folder).pieces == load_folder(folder).pieces.__class__(20, 40, 1, 8)


def test_EAW_11_3_load_folder_lists_every_problem_at_once(folder: Path) -> None:
    change_area(folder, "VEL", value=3)
    change_card(folder, "hill_spearmen", value=REMOVE)
    replace_text(folder, "revolts.toml", '2 = ["TAL"]', '2 = ["WMS"]')
    with pytest.raises(PbemError) as refused:
        load_folder(folder)
    message = str(refused.value)
    assert "the game data has 3 problems:" in message
    assert "(EAW-2.9)" in message and "(EAW-8.5)" in message and "(EAW-5.3)" in message


def test_EAW_11_1_a_data_file_beyond_the_size_limit_is_refused_not_parsed(folder: Path) -> None:
    with (folder / "map.toml").open("a", encoding="utf-8") as out:
        out.write("# padding\n" * 30000)
    found = problems(folder)
    size = (folder / "map.toml").stat().st_size
    assert found == [f"map.toml (EAW-11.1): the file is {size} bytes; a data file is at most 262144 bytes"]
    with pytest.raises(PbemError) as refused:
        read_files(folder)
    assert str(refused.value).startswith(f"{folder}: map.toml (EAW-11): the file is ")


def test_EAW_3_7_a_half_of_3_provinces_is_taken_2_refused(folder: Path) -> None:
    for ident in ("FRO", "VEL", "KAR", "DUN", "ORS", "TAL", "BRE", "SIL"):
        change_area(folder, ident, half="south")
    assert not [line for line in problems(folder) if "(EAW-3.7)" in line]  # PEL, HYR, COR are left
    change_area(folder, "PEL", half="south")
    assert "map.toml: area (EAW-3.7): the north half has 2 provinces; up to 3 players start there" in problems(folder)


def test_EAW_11_1_EAW_11_6_no_id_or_name_names_two_areas_or_two_cards(folder: Path) -> None:
    change_area(folder, "TAL", name="orsenna")  # another area's name, in any case
    change_area(folder, "VEL", name="fro")  # another area's id
    change_card(folder, "oath_guard", name="Iron Swordsmen")
    assert problems(folder) == [
        f"{area_key(folder, 'VEL')}.name (EAW-11.1): 'fro' already names FRO: orders could not tell them apart",
        f"{area_key(folder, 'TAL')}.name (EAW-11.1): 'orsenna' already names ORS: orders could not tell them apart",
        f"{card_key(folder, 'oath_guard')}.name (EAW-11.6): 'Iron Swordsmen' already names iron_swordsmen: orders "
        "could not tell them apart",
    ]


def test_EAW_2_1_a_sea_lane_across_a_sea_that_one_end_does_not_border_is_a_note(folder: Path) -> None:
    drop_connection(folder, "SAB", "CMS")
    found = notes(folder)
    lanes = tomllib.loads((folder / "map.toml").read_text(encoding="utf-8"))["connection"]
    position = [(c["a"], c["b"]) for c in lanes].index(("SIL", "SAB"))
    assert found == [
        f"map.toml: connection[{position}] (EAW-2.1): the sea lane SIL-SAB crosses CMS, which SAB does not border "
        "(no coast connection)"
    ]
    assert problems(folder) == []


@pytest.mark.parametrize("players", PLAYERS)
def test_EAW_3_4_the_example_data_plays_a_whole_game_at_3_4_and_5_players(example: GameData, players: int) -> None:
    """The example data is usable as it stands: every seat on the EAW-12 defaults, from the deal to the end."""
    rules = load_ruleset("empires-aw").with_data(example)
    state = rules.initial_state("g", ["red", "blue", "green", "yellow", "white"][:players])
    steps = 0
    while (step := rules.due(state)) is not None:
        steps += 1
        dice = KeyedDice(key=bytes([players * 16 + steps % 16]) * 32, orders_hash=f"h{steps}", hidden_key=b"s" * 32)
        state = resolve_step(rules, state, step, dict.fromkeys(step.seats), dice).state
        assert rules.broken_invariants(state) == []
    assert state.phase == ENDED and set(state.winners) <= set(state.seats)


def test_EAW_8_13_plunder_spendable_may_be_written_as_true_or_false(folder: Path) -> None:
    replace_text(folder, "game-data.toml", 'plunder_spendable = "false"', "plunder_spendable = true")
    assert problems(folder) == [] and load_folder(folder).options.plunder_spendable == "true"
    replace_text(folder, "game-data.toml", "plunder_spendable = true", "plunder_spendable = 1")
    assert problems(folder) == ["game-data.toml: options.plunder_spendable (EAW-8.13): expected a string, found 1"]


def rule_texts() -> dict[str, str]:
    """Each rule of the spec with its text (up to the next rule)."""
    text = rules_spec("empires-aw").read_text(encoding="utf-8")
    parts = re.split(r"^(?:- |\| )(EAW-\d+\.\d+)\b", text, flags=re.MULTILINE)
    found: dict[str, str] = {}
    for rule, body in zip(parts[1::2], parts[2::2], strict=True):
        found[rule] = found.get(rule, "") + body
    return found


def test_EAW_0_1_every_rule_the_data_check_cites_is_a_rule_of_the_spec(tmp_path: Path) -> None:
    write_template(tmp_path / "template")
    report = check_folder(tmp_path / "template")
    cited = {p.rule for p in report.problems + report.notes} | set(OPTION_RULES.values()) | set(RESOLUTIONS)
    source = Path(loader.__file__).read_text(encoding="utf-8") + Path(template.__file__).read_text(encoding="utf-8")
    cited |= set(re.findall(r"EAW-\d+\.\d+", source))
    assert cited and cited <= set(rule_ids("empires-aw")), cited - set(rule_ids("empires-aw"))


def test_EAW_0_2_each_resolution_the_moderator_may_change_is_an_option_its_rule_names_or_one_to_confirm() -> None:
    texts = rule_texts()
    for option, rule in OPTION_RULES.items():
        assert f"`{option}`" in texts[rule], f"{rule} does not name the option {option}"
    for rule in RESOLUTIONS:
        assert "**Resolution" in texts[rule], f"{rule} holds no resolution to confirm"


def test_EAW_11_6_effect_numbers_at_their_bounds_are_taken_one_past_refused(folder: Path) -> None:
    change_card(folder, "wall_builder", effects=[{"code": "fort_cost", "n": 6}, {"code": "capture_fort"}])
    change_card(folder, "silver_tongue", effects=[{"code": "diplomacy_takeover", "cost": 0, "roll": 6}])
    assert problems(folder) == []
    change_card(folder, "wall_builder", effects=[{"code": "fort_cost", "n": 7}])
    change_card(folder, "silver_tongue", effects=[{"code": "diplomacy_takeover", "cost": -1, "roll": 7}])
    assert problems(folder) == [
        f"{card_key(folder, 'wall_builder')}.effects[0].n (EAW-11.6): 7 is out of range: -6 to 6",
        f"{card_key(folder, 'silver_tongue')}.effects[0].cost (EAW-11.6): -1 is out of range: 0 to 10",
        f"{card_key(folder, 'silver_tongue')}.effects[0].roll (EAW-11.6): 7 is out of range: 0 to 6",
    ]
