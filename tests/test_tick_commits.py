"""A tick commits once per game it adjudicates: the turn, its report mails and the check for files a dead writer
left out share one transaction; the files are written after it (a missing one by the next tick)."""

from __future__ import annotations

from adjudicator.archive import Archive
from adjudicator.services.deadlines import tick
from tests.conftest import Pbem
from tests.test_tick_writes import statements_and_commits


def test_a_tick_commits_once_a_game_and_the_next_writes_what_the_disk_lost(pbem: Pbem) -> None:
    for name in ("rome1", "rome2"):
        pbem.new_game(name)
        order = pbem.orders("Macedonia", 1, "BUY 1 INF", game=name)
        assert pbem("submit", name, str(order)).exit_code == 0
    pbem.sql("update game set deadline = '2000-01-01T00:00:00+00:00'")
    archive = Archive.open(pbem.data, pbem.db)
    with statements_and_commits(archive) as (_, commits):
        report = tick(archive, pbem.data)
        assert report.lines == [
            "rome1: turn 1 (Macedonia) resolved",
            "rome1: reports of turn(s) 1 queued",
            "rome2: turn 1 (Macedonia) resolved",
            "rome2: reports of turn(s) 1 queued",
        ]
        assert len(commits) == 1 + 2  # the list of games due, then one a game
        assert pbem.sql("select count(*) from outbox where subject like '%Report, turn 1'") == [(6,)]

        lost = pbem.data / "games/rome2/turn-0001/report-Egyptus.txt"
        kept = lost.read_bytes()
        lost.unlink()
        commits.clear()
        again = tick(archive, pbem.data)  # nothing due: rome2's lost file is written again, in the same one commit
        assert again.lines[-1] == "rome2: wrote missing turn-0001/report-Egyptus.txt"
        assert lost.read_bytes() == kept
        assert len(commits) == 1 + 2
