"""The examples at the end of a Conquest of the Empire orders template are orders a player can send once he names
the area: they use the pieces his seat holds (C-5.3), and offer no galley he does not have."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

from tests.conftest import SEATS, Pbem


def examples(report: str) -> list[str]:
    """The example orders of a private report's template, without their '#' and their notes."""
    found = report.split("Examples:", 1)[1].splitlines()[1:]
    return [line[1:].split("#")[0].strip() for line in found if line.startswith("#   ")]


def test_C_5_3_a_templates_move_example_moves_no_more_units_than_the_leader_has_and_is_taken(
    pbem: Pbem, write: Callable[[str, str | bytes], Path]
) -> None:
    """Macedonia's G1 stands in MAC with a single infantry: the example moves that one, and `pbem check` takes it
    once the area is named. Nobody holds a galley at the start: no SAIL example."""
    pbem.new_game(name="template")
    snapshot = json.loads((pbem.data / "games/template/turn-0000/snapshot.json").read_text())
    snapshot["areas"]["MAC"]["units"]["Macedonia"]["infantry"] = 1
    seats = [a for seat, mail in SEATS.items() for a in ("--seat", f"{seat}={mail}")]
    created = pbem("new", "rome1", "--from-snapshot", str(write("one.json", json.dumps(snapshot))), *seats)
    assert created.exit_code == 0, created.output
    report = next((pbem.data / "games/rome1").glob("turn-*/report-Macedonia.txt")).read_text(encoding="utf-8")
    shown = examples(report)
    move = next(line for line in shown if line.startswith("MOVE"))
    assert move == "MOVE G1 WITH 1 INF: MAC -> <area>", shown
    assert not any(line.startswith("SAIL") for line in shown), shown
    pbem.passwords = {
        line.split()[0]: line.split()[1] for line in created.output.splitlines() if len(line.split()) == 2
    }
    filled = pbem.orders("Macedonia", 1, move.replace("<area>", "THR"))
    checked = pbem("check", "--game", "rome1", str(filled))
    assert re.search(r"MOVE G1 WITH 1 INF: MAC -> THR\n +accepted", checked.output), checked.output


def test_C_11_7_a_template_gives_the_prices_of_its_turn_when_inflation_rises_as_it_begins(
    pbem: Pbem, write: Callable[[str, str | bytes], Path]
) -> None:
    """Hispania's tribute triggered inflation level 1: it takes effect as Hispania's next turn begins (C-11.7), so
    its template prices that turn at twice the price; Macedonia's turn comes first, at today's prices."""
    pbem.new_game(name="template")
    snapshot = json.loads((pbem.data / "games/template/turn-0000/snapshot.json").read_text())
    snapshot["inflation_pending"] = [{"level": 1, "seat": "Hispania"}]
    seats = [a for seat, mail in SEATS.items() for a in ("--seat", f"{seat}={mail}")]
    created = pbem("new", "rome1", "--from-snapshot", str(write("rising.json", json.dumps(snapshot))), *seats)
    assert created.exit_code == 0, created.output
    folder = pbem.data / "games/rome1/turn-0000"
    hispania = (folder / "report-Hispania.txt").read_text(encoding="utf-8")
    macedonia = (folder / "report-Macedonia.txt").read_text(encoding="utf-8")
    assert "# Prices in your turn (inflation rises as it begins, C-11.7): infantry 20," in hispania, hispania
    assert "# Prices now: infantry 10," in macedonia
