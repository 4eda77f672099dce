"""`pbem resolve` (files only): every order line gets a verdict, and a dice file's spare rolls are reported."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from tests.conftest import Pbem

Write = Callable[[str, str | bytes], Path]

HEADER = "GAME rome1 TURN 1 PLAYER Macedonia PASSWORD unchecked"


def start_snapshot(pbem: Pbem) -> Path:
    pbem.new_game()
    return pbem.data / "games/rome1/turn-0000/snapshot.json"


def resolve(pbem: Pbem, state: Path, orders: Path, out: Path, *extra: str):  # type: ignore[no-untyped-def]
    return pbem("resolve", "--state", str(state), "--orders", str(orders), "--out", str(out), *extra, data=False)


def test_a_line_not_understood_gets_its_verdict_in_the_report_and_the_output(
    pbem: Pbem, write: Write, tmp_path: Path
) -> None:
    state = start_snapshot(pbem)
    garbled = write("t.txt", f"{HEADER}\nMOVE G1 WITH 2 INF: MAC -> THR\nMOEV G2: MAC -> MOE\nBUY 1 INF\n")
    clean = write("c.txt", f"{HEADER}\nMOVE G1 WITH 2 INF: MAC -> THR\nBUY 1 INF\n")
    result = resolve(pbem, state, garbled, tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert "Macedonia, orders file line 3: not understood" in result.output and "MOEV G2: MAC -> MOE" in result.output
    report = (tmp_path / "out/report.txt").read_text()
    assert "line   3  MOEV G2: MAC -> MOE\n             not understood (column 1)" in report
    assert "line   2  MOVE G1 WITH 2 INF: MAC -> THR\n             accepted" in report  # in line order
    assert resolve(pbem, state, clean, tmp_path / "clean").exit_code == 0
    # the snapshot is what it was: a line not understood does nothing
    assert (tmp_path / "out/snapshot.json").read_text() == (tmp_path / "clean/snapshot.json").read_text()


def test_spare_dice_are_reported_and_strict_dice_refuses_them(pbem: Pbem, write: Write, tmp_path: Path) -> None:
    state = start_snapshot(pbem)
    orders = write("t.txt", f"{HEADER}\nBUY 1 INF\n")  # no battle: no die is needed
    dice = write("d.txt", "3 4\n6 # three rolls\n")
    result = resolve(pbem, state, orders, tmp_path / "out", "--dice", str(dice))
    assert result.exit_code == 0, result.output
    assert "warning: 3 rolls of the dice file were not used" in result.output
    assert "3 rolls of the dice file were not used." in (tmp_path / "out/report.txt").read_text()
    assert json.loads((tmp_path / "out/snapshot.json").read_text())["turn"] == 1
    strict = resolve(pbem, state, orders, tmp_path / "strict", "--dice", str(dice), "--strict-dice")
    assert strict.exit_code == 1 and "3 rolls of the dice file were not used" in strict.output
    assert not (tmp_path / "strict").exists()  # nothing written


def test_a_dice_file_used_up_exactly_passes_strict_dice_C_6_12(pbem: Pbem, write: Write, tmp_path: Path) -> None:
    pbem.new_game()
    snapshot = json.loads((pbem.data / "games/rome1/turn-0000/snapshot.json").read_text())
    snapshot["areas"]["THR"] = {
        "owner": "Egyptus",
        "city": None,
        "roads": [],
        "units": {"Egyptus": {"caesar": 0, "generals": [1], "infantry": 1, "cavalry": 0, "catapult": 0, "galleys": []}},
    }
    snapshot["areas"]["EGY"]["units"]["Egyptus"]["generals"].remove(1)  # G1 is in THR (one place, C-1.1)
    snapshot["players"]["Egyptus"]["tribute"] += 5  # and THR counts in Egyptus's tribute (C-9.1)
    state = write("state.json", json.dumps(snapshot))
    orders = write("t.txt", f"{HEADER}\nMOVE G1 WITH 1 INF: MAC -> THR\n")
    # one round: the attacker's die (1 = inf: a hit), then the defender's (6 = blank: no hit)
    dice = write("d.txt", "1 6\n")
    result = resolve(pbem, state, orders, tmp_path / "out", "--dice", str(dice), "--strict-dice")
    assert result.exit_code == 0, result.output
    assert "not used" not in result.output
    assert json.loads((tmp_path / "out/snapshot.json").read_text())["areas"]["THR"]["owner"] == "Macedonia"
