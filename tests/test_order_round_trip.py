"""What a report prints as a troop list parses when a player copies it into his orders."""

from __future__ import annotations

import re

import pytest

from tests.conftest import SEATS, Pbem


@pytest.mark.parametrize("language", ["en", "de", "it", "nl"])
def test_C_5_6_the_pieces_a_report_lists_move_together_when_copied_into_a_move(pbem: Pbem, language: str) -> None:
    seats = [a for seat, mail in SEATS.items() for a in ("--seat", f"{seat}={mail}")]
    made = pbem("new", "rome1", "--ruleset", "coe-classic", *seats, "--language", f"Macedonia={language}")
    assert made.exit_code == 0, made.output
    report = (pbem.data / "games/rome1/turn-0000/report-Macedonia.txt").read_text(encoding="utf-8")
    # the orders template lists the pieces as '#   MAC: CAESAR G1 G2 G3 G4 5 INF (fortified city)'
    (pieces,) = re.findall(r"^#\s+MAC: ([^(\n]+?)\s*(?:\(.*\))?$", report, re.MULTILINE)
    orders = pbem.data.parent / "orders.txt"
    orders.write_text(f"GAME rome1 TURN 1 PLAYER Macedonia PASSWORD x\nMOVE {pieces}: MAC -> THR\n", encoding="utf-8")
    checked = pbem("check", "--game", "rome1", str(orders))
    assert checked.exit_code == 0, checked.output
    assert "1 accepted, 0 rejected, 0 not understood" in checked.output, (pieces, checked.output)
