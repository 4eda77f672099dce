"""A tick reads and renders a turn once: its reports are queued in the transaction that stores
the turn, and a failure after that commit neither loses nor repeats them."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator.services.adjudication import Adjudication
from tests.conftest import SEATS, Pbem


def report_mails(pbem: Pbem, address: str) -> list[tuple[object, ...]]:
    return pbem.sql(f"select body, map_svg from outbox where \"to\" = '{address}' and subject like '%Report%'")


def test_a_turn_and_its_report_mails_are_stored_together_and_a_tick_dying_on_the_files_repeats_none(
    pbem: Pbem, monkeypatch: pytest.MonkeyPatch
) -> None:
    pbem.new_game()
    assert pbem("submit", "rome1", str(pbem.orders("Macedonia", 1, "BUY 1 INF"))).exit_code == 0

    def disk_full(self: Adjudication, data: Path) -> list[Path]:
        raise OSError(28, "No space left on device")

    with monkeypatch.context() as patch:  # the disk fails after the turn's commit, before its files
        patch.setattr(Adjudication, "write_files", disk_full)
        failed = pbem("tick")
    assert failed.exit_code == 1 and "rome1: FAILED (OSError" in failed.output
    turn = pbem.data / "games/rome1/turn-0001"
    assert not turn.exists()
    assert pbem.sql("select mailed from turn where number = 1") == [(1,)]
    assert all(len(report_mails(pbem, address)) == 1 for address in SEATS.values())

    again = pbem("tick")  # the files are written from the archive; the mails are not queued twice
    assert again.exit_code == 0, again.output
    assert "rome1: wrote missing" in again.output and "queued" not in again.output
    public = (turn / "report.txt").read_text(encoding="utf-8")
    for seat, address in SEATS.items():
        ((body, map_svg),) = report_mails(pbem, address)
        private = (turn / f"report-{seat}.txt").read_text(encoding="utf-8")
        assert str(body).startswith(public + "\n" + private), seat
        assert map_svg == (turn / "map.svg").read_text(encoding="utf-8")
