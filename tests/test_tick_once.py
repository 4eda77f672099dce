"""A tick reads and renders a turn once: its reports are queued in the transaction that stores
the turn, and a failure after that commit neither loses nor repeats them."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator.services.adjudication import Adjudication
from tests.conftest import SEATS, Pbem, sent_map


def report_mails(pbem: Pbem, address: str) -> list[tuple[object, ...]]:
    return pbem.sql(f"select body from outbox where \"to\" = '{address}' and subject like '%Report%'")


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
        ((body,),) = report_mails(pbem, address)
        private = (turn / f"report-{seat}.txt").read_text(encoding="utf-8")
        assert str(body).startswith(public + "\n" + private), seat
    reports = [mail for mail in pbem.sent() if "Report" in mail["Subject"]]
    assert [mail["To"] for mail in reports] == list(SEATS.values())
    assert all(sent_map(mail) == (turn / "map.svg").read_text(encoding="utf-8") for mail in reports)


def test_each_report_mail_carries_its_own_turns_map_drawn_when_sent_and_the_archive_keeps_no_copy(pbem: Pbem) -> None:
    pbem.new_game()
    for seat, number, line in [("Macedonia", 1, "MOVE G1 WITH 2 INF: MAC -> THR"), ("Egyptus", 2, "BUY 1 INF")]:
        assert pbem("submit", "rome1", str(pbem.orders(seat, number, line))).exit_code == 0
        assert pbem("tick").exit_code == 0
    assert pbem.sql("select count(*) from outbox where map_svg != ''") == [(0,)]  # one map a turn, not a seat
    game = pbem.data / "games/rome1"
    maps = {number: (game / f"turn-{number:04d}" / "map.svg").read_text(encoding="utf-8") for number in (0, 1, 2)}
    assert len(set(maps.values())) == 3
    sent = pbem.sent()  # both turns' reports, sent after the second turn: each with the map of the turn it reports
    for number in (1, 2):
        reports = [mail for mail in sent if mail["Subject"].endswith(f"Report, turn {number}")]
        assert len(reports) == len(SEATS) and {sent_map(mail) for mail in reports} == {maps[number]}
    welcomes = [mail for mail in sent if "Report" not in mail["Subject"] and sent_map(mail)]
    assert len(welcomes) == len(SEATS) and {sent_map(mail) for mail in welcomes} == {maps[0]}  # the board to plan on


def test_a_mail_whose_turn_the_archive_no_longer_holds_stays_queued_with_the_reason(pbem: Pbem) -> None:
    pbem.new_game()
    assert pbem("submit", "rome1", str(pbem.orders("Macedonia", 1, "BUY 1 INF"))).exit_code == 0
    assert pbem("tick").exit_code == 0
    pbem.sql("update turn set chain = 'edited' where number = 1")
    result = pbem("send", "--no-png", "--eml-dir", str(pbem.data.parent / "sent"))
    assert result.exit_code == 1
    assert "3 failed (still queued)" in result.output and "is not in the archive" in result.output
    assert pbem.sql("select count(*) from outbox where sent is null and error like '%not in the archive%'") == [(3,)]
