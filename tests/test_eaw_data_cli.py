"""`pbem data template|check` for Empires of the Ancient World through the CLI (EAW-11): the template writes every
value EAW-11 names with the rule IDs that read it, and its check names each empty value by file, key and rule;
the example data checks clean; a filled-in folder passes once its last value is given."""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterator
from dataclasses import fields
from pathlib import Path
from typing import Any

from adjudicator.archive import Archive
from adjudicator.archive import queries as db
from adjudicator.rulesets.empires.data import EFFECT_CODES, OPTION_CHOICES, Area, Card
from adjudicator.rulesets.empires.loader import FILES, RESOLUTIONS, check_folder
from adjudicator.rulesets.empires.options import OPTION_RULES
from adjudicator.services.game_data import check_data
from tests.conftest import Pbem
from tests.eaw_data_helpers import EXAMPLE, change_area, copy_example

OPTIONAL_EMPTY = {"title", "sea"}  # values the template leaves empty that the game can do without entirely


def empty_values(data: Any, prefix: str = "") -> Iterator[str]:
    """The key path of every "" in a template file (a list item as key[i])."""
    if isinstance(data, dict):
        for key, value in data.items():
            yield from empty_values(value, f"{prefix}{key}." if isinstance(value, dict) else f"{prefix}{key}")
        return
    if isinstance(data, list):
        for index, item in enumerate(data):
            path = f"{prefix}[{index}]"
            yield from empty_values(item, path + "." if isinstance(item, dict) else path)
        return
    if data == "" and prefix.rsplit(".", 1)[-1] not in OPTIONAL_EMPTY:
        yield prefix.rstrip(".")


def test_EAW_11_pbem_data_check_says_the_example_data_is_complete(pbem: Pbem) -> None:
    result = pbem("data", "check", str(EXAMPLE), data=False)
    assert result.exit_code == 0, result.output
    assert result.output == f"{EXAMPLE}: the data is complete (empires-aw)\n"


def test_EAW_11_1_to_EAW_11_7_the_template_checks_with_a_problem_or_note_naming_every_empty_value(
    pbem: Pbem, tmp_path: Path
) -> None:
    folder = tmp_path / "mine"
    written = pbem("data", "template", "eaw", str(folder), data=False)  # found by its alias
    assert written.exit_code == 0, written.output
    assert f"Wrote 4 files into {folder}" in written.output
    assert sorted(p.name for p in folder.iterdir()) == sorted(FILES)
    checked = pbem("data", "check", str(folder), data=False)
    assert checked.exit_code == 1
    lines = checked.output.splitlines()
    report = check_folder(folder)
    for file in FILES:
        data = tomllib.loads((folder / file).read_text(encoding="utf-8"))
        said = report.notes if file == "game-data.toml" else report.problems  # EAW-10.9 (d)-(g) are notes
        keys = {(p.file, p.key) for p in said}
        missing = [key for key in empty_values(data) if (file, key) not in keys]
        assert missing == [], f"{file}: no problem names {missing}"
    assert "map.toml: area[0].value (EAW-2.9): still empty: fill it in" in lines
    assert "map.toml: area[0].half (EAW-2.10): a province needs its half: north or south" in lines
    assert "map.toml: area (EAW-2.2): exactly three Mediterranean sea areas, found 0: none" in lines
    assert "revolts.toml: north.3 (EAW-5.1): still empty: fill it in" in lines
    assert "cards.toml: card[0].value (EAW-8.5): still empty: fill it in" in lines
    assert "cards.toml: card[1].effects[0] (EAW-11.6): still empty: fill it in" in lines
    assert "note: game-data.toml: options.plunder_vp (EAW-10.6): not given: plunder scores 0 and every " in "\n".join(
        lines
    )
    problems = [line for line in lines if "(EAW-" in line and not line.startswith("note: ")]
    assert lines[-1] == f"{folder}: problems found: {len(problems)}" and len(problems) > 70


def test_EAW_11_the_template_writes_every_value_EAW_11_names_with_its_rule_ids(tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    from adjudicator.rulesets.empires.template import write_template

    write_template(folder)
    texts = {file: (folder / file).read_text(encoding="utf-8") for file in FILES}
    header = tomllib.loads(texts["game-data.toml"])
    assert header["ruleset"] == "empires-aw" and header["example"] is False
    assert set(header["options"]) == set(OPTION_RULES) >= set(OPTION_CHOICES)  # EAW-11.7
    assert set(header["pieces"]) == {"control_markers", "trade_markers", "forts", "hand_limit"}  # EAW-11.4
    for option, rule in OPTION_RULES.items():
        (line,) = [line for line in texts["game-data.toml"].splitlines() if line.startswith(f"{option} = ")]
        assert rule in line  # each commented with the rule that reads it
    areas = tomllib.loads(texts["map.toml"])["area"]
    assert {key for area in areas for key in area} == {f.name for f in fields(Area)}  # EAW-11.1
    cards = tomllib.loads(texts["cards.toml"])["card"]
    card_keys = {f.name for f in fields(Card)} - {"roll_mod"}  # the modifier is value_roll = { mod = n }
    assert {key for card in cards for key in card} == card_keys  # EAW-11.3, EAW-11.6
    assert {card.get("home_group") for card in cards} == {None, "A", "B", "C", "D", "E", "F"}
    assert all(code in texts["cards.toml"] for code in EFFECT_CODES)
    assert all(rule in texts["game-data.toml"] for rule in RESOLUTIONS)
    for file, text in texts.items():  # every key carries its rule where it first appears
        if file == "revolts.toml":  # its rows are die results, described once above them
            continue
        first: dict[str, str] = {}
        for line in text.splitlines():
            if " = " in line and not line.startswith(("#", " ")):
                first.setdefault(line.split(" = ")[0], line)
        assert [line for key, line in first.items() if "EAW-" not in line and key not in ("name", "y")] == []


def test_EAW_11_a_filled_in_folder_passes_once_its_last_value_is_given(pbem: Pbem, tmp_path: Path) -> None:
    folder = copy_example(tmp_path / "mine")
    change_area(folder, "ORS", value="")
    assert pbem("data", "check", str(folder), data=False).output.splitlines() == [
        "map.toml: area[4].value (EAW-2.9): still empty: fill it in",
        f"{folder}: problems found: 1",
    ]
    change_area(folder, "ORS", value=4)
    assert pbem("data", "check", str(folder), data=False).exit_code == 0


def test_EAW_10_9_pbem_data_check_prints_the_notes_of_values_left_out(pbem: Pbem, tmp_path: Path) -> None:
    folder = copy_example(tmp_path / "mine")
    text = (folder / "game-data.toml").read_text(encoding="utf-8")
    (folder / "game-data.toml").write_text(text.replace("plunder_vp = 1 ", "# plunder_vp = 1 "), encoding="utf-8")
    result = pbem("data", "check", str(folder), data=False)
    assert result.exit_code == 0, result.output
    assert "note: game-data.toml: options.plunder_vp (EAW-10.6): not given: plunder scores 0" in result.output


def test_EAW_11_pbem_data_template_refuses_to_overwrite_a_file(pbem: Pbem, tmp_path: Path) -> None:
    (tmp_path / "map.toml").write_text("# mine\n", encoding="utf-8")
    refused = pbem("data", "template", "empires-aw", str(tmp_path), data=False)
    assert refused.exit_code == 1 and "map.toml already exist; choose an empty folder" in refused.output
    assert (tmp_path / "map.toml").read_text(encoding="utf-8") == "# mine\n"
    assert not (tmp_path / "cards.toml").exists()


def test_EAW_11_pbem_data_check_with_the_ruleset_given_names_each_missing_file(pbem: Pbem, tmp_path: Path) -> None:
    result = pbem("data", "check", str(tmp_path), "--ruleset", "empires", data=False)
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        "game-data.toml (EAW-11): the file is missing",
        "map.toml (EAW-11.1): the file is missing",
        "revolts.toml (EAW-11.2): the file is missing",
        "cards.toml (EAW-11.3): the file is missing",
        f"{tmp_path}: problems found: 4",
    ]


def test_EAW_11_the_service_checks_the_example_through_the_registry() -> None:
    result = check_data(EXAMPLE)
    assert result.complete and result.ruleset == "empires-aw" and result.notes == []


# -- pbem new --game-data (EAW-10.9, EAW-11.7) ---------------------------------------------------------------------
SEATS = ("--seat", "red=r@example.org", "--seat", "blue=b@example.org", "--seat", "green=g@example.org")


def stored_options(pbem: Pbem, game: str) -> dict[str, str]:
    with Archive.open(pbem.data, pbem.db).session() as session:
        row = db.game_named(session, game)
        assert row is not None
        return json.loads(row.game_data)["options"]


def test_EAW_11_7_pbem_new_plays_the_example_data_with_the_options_given(pbem: Pbem) -> None:
    args = ("new", "eaw1", "--ruleset", "empires-aw", "--game-data", str(EXAMPLE), *SEATS)
    result = pbem(*args, "--option", "trade_reach=controlled_only", "--option", "start_markers=3:6")
    assert result.exit_code == 0, result.output
    assert stored_options(pbem, "eaw1") == {"trade_reach": "controlled_only", "start_markers": "3:6"}


def test_EAW_11_7_pbem_new_names_every_wrong_option_and_stores_nothing(pbem: Pbem) -> None:
    args = ("new", "eaw1", "--ruleset", "empires-aw", "--game-data", str(EXAMPLE), *SEATS)
    result = pbem(*args, "--option", "trade_reach=nowhere", "--option", "plunder_vp=11", "--mode", "conquest")
    assert result.exit_code == 1
    assert "trade_reach=nowhere: choose one of chain, controlled_only (EAW-7.30)" in result.output
    assert "plunder_vp=11: write a whole number from 0 to 10 (EAW-10.6)" in result.output
    assert "mode 'conquest': Empires of the Ancient World has no modes" in result.output
    assert not (pbem.data / "games" / "eaw1").exists()


def test_EAW_10_9_pbem_new_refuses_data_without_its_map_and_stores_nothing(pbem: Pbem, tmp_path: Path) -> None:
    folder = copy_example(tmp_path / "mine")
    (folder / "revolts.toml").unlink()
    change_area(folder, "VEL", value=3)
    result = pbem("new", "eaw1", "--ruleset", "empires-aw", "--game-data", str(folder), *SEATS)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "revolts.toml (EAW-11.2): the file is missing" in result.output
    assert "map.toml: area[1].value (EAW-2.9): a province on the northern edge is worth 2" in result.output
    assert not (pbem.data / "games" / "eaw1").exists()
    with Archive.open(pbem.data, pbem.db).session() as session:
        assert db.game_named(session, "eaw1") is None
