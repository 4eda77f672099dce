"""A tick on the default SQLite archive works each game's transaction with `sqlite3` (archive/lean_tick.py): it must
leave the very rows the archive's way (SQLAlchemy) leaves, in every table, after ticks of the same games: orders and
battles, seats that missed their turn (NMR counts, the moderator's alert), reminders, orders sent ahead (their
receipts), the bot's seats (its orders), decisions asked, observers and the game's end; a game it cannot tick as the
archive would steps aside to the archive, with nothing stored of its own."""

from __future__ import annotations

import shutil
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from adjudicator.archive import Archive
from adjudicator.archive import queries as db
from adjudicator.archive.lean_mail import StepAside
from adjudicator.archive.lean_tick import LeanTickSession
from adjudicator.services.clock import FixedClock
from adjudicator.services.deadlines import tick
from bench.tick import populate_orders
from tests.conftest import SEATS, Pbem
from tests.registered import test_rulesets_registered as sealed_bids_registered
from tests.test_decisions_cli import ATTACK, contested_position

MOMENT = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)  # the ticks' clock (the first tick's; each later one an hour on)
TICKS = 3


def new_game(pbem: Pbem, name: str, *options: str, ruleset: str = "coe-classic", seats: dict[str, str] = SEATS) -> None:
    arguments = [a for seat, mail in seats.items() for a in ("--seat", f"{seat}={mail}")]
    result = pbem("new", name, "--ruleset", ruleset, *arguments, *options)
    assert result.exit_code == 0, result.output
    for line in result.output.splitlines():
        if len(parts := line.split()) == 2 and parts[0] in seats:
            pbem.passwords[parts[0]] = parts[1]


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data folder of games a tick finds in every state it handles."""
    data = tmp_path_factory.mktemp("games") / "data"
    archive = Archive.open(data, None)
    populate_orders(archive, data, 2, 2)  # g0, g1: a bot's orders that march into enemy armies (bench/tick.py)
    pbem = Pbem(data)
    new_game(pbem, "idle", "--moderator", "gm@example.org", "--nmr-alert", "1")  # nobody orders: NMR and alert
    new_game(pbem, "ahead")  # orders of the due seat and of the next one's turn, sent ahead
    assert pbem("submit", "ahead", str(pbem.orders("Macedonia", 1, "BUY 1 INF", game="ahead"))).exit_code == 0
    assert pbem("submit", "ahead", str(pbem.orders("Egyptus", 2, "BUY 2 INF", game="ahead"))).exit_code == 0
    new_game(pbem, "botted", "--bot-after", "1")  # Macedonia's seat run by the bot
    new_game(pbem, "soon", "--reminder-hours", "48")  # its deadline not passed: a reminder
    writes = data.parent / "positions"
    writes.mkdir()

    def write(name: str, text: str | bytes) -> Path:
        path = writes / name
        path.write_text(text if isinstance(text, str) else text.decode(), encoding="utf-8")
        return path

    position = contested_position(pbem, write)  # a battle whose decisions are asked
    new_game(pbem, "asks", "--from-snapshot", str(position), "--decisions", "ask")
    assert pbem("submit", "asks", str(pbem.orders("Macedonia", 1, *ATTACK, game="asks"))).exit_code == 0
    with sealed_bids_registered():  # sealed steps, hidden hands, an observer; it ends after its second round
        bidders = {"North": "north@example.org", "East": "east@example.org"}
        new_game(pbem, "bids", "--observers", "closed", "--bot-after", "1", ruleset="sealed-bids", seats=bidders)
        assert pbem("gm", "observe", "bids", "fan@example.org").exit_code == 0
    botted = "(select id from game where name = 'botted')"
    pbem.sql(f"update seat set run_by_bot = 1 where seat = 'Macedonia' and game_id = {botted}")
    pbem.sql("update seat set run_by_bot = 1 where seat = 'North'")
    archive.close()
    return data


def ticked(games: Path, folder: Path, lean: bool, monkeypatch: pytest.MonkeyPatch) -> tuple[list[list[str]], Path]:
    """TICKS ticks of a copy of the games (each with the deadlines passed, but those of "soon" and "asks", which
    are resolved early once their orders are in), the lean way or the archive's; their report lines."""
    data = folder / "data"
    shutil.copytree(games, data)
    pbem = Pbem(data)
    archive = Archive.open(data, None)
    lines = []
    with monkeypatch.context() as patched, sealed_bids_registered():
        if not lean:
            patched.setattr(Archive, "lean", lambda _: None)
        for n in range(TICKS):
            moment = MOMENT + timedelta(hours=n)
            past, soon = (moment - timedelta(hours=1)).isoformat(), (moment + timedelta(hours=2)).isoformat()
            pbem.sql(f"update game set deadline = '{past}' where name not in ('soon', 'asks')")
            pbem.sql(f"update game set deadline = '{soon}' where name in ('soon', 'asks')")
            report = tick(archive, data, clock=FixedClock(moment))
            assert not report.failures, report.failures
            lines.append(report.lines)
    archive.close()
    return lines, data


def rows(data: Path) -> list[tuple[str, tuple[object, ...]]]:
    archive = Archive.open(data, None)
    try:
        return archive.dump()
    finally:
        archive.close()


def test_a_lean_tick_stores_the_rows_the_archives_tick_stores(
    games: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lean_lines, lean = ticked(games, tmp_path / "lean", True, monkeypatch)
    archive_lines, by_archive = ticked(games, tmp_path / "archive", False, monkeypatch)
    assert lean_lines == archive_lines
    assert rows(lean) == rows(by_archive)
    # every state the games were to show was shown (so the comparison covers them)
    said = "\n".join(line for lines in lean_lines for line in lines)
    for game, words in [
        ("g0", "resolved"),
        ("idle", "resolved"),
        ("ahead", "resolved"),
        ("botted", "resolved"),
        ("soon", "reminded"),
        ("asks", "waiting for decisions"),
        ("bids", "resolved"),
    ]:
        assert f"{game}: " in said and words in said, (game, words)
    sql = Pbem(lean).sql
    assert sql("select status from game where name = 'bids'") == [("ended",)]
    assert sql("select count(distinct game_id) from orderset where source = 'bot'") == [(2,)]
    assert sql("select count(*) > 0 from decision") == [(1,)]
    assert sql("select count(*) > 0 from outbox where \"to\" in ('gm@example.org', 'fan@example.org')") == [(1,)]
    assert sql("select count(*) from outbox where subject like '%Receipt for turn 2'") == [(1,)]
    assert sql("select max(missed) > 0 from seat") == [(1,)]


def test_a_game_the_lean_way_cannot_tick_goes_through_the_archive_with_nothing_stored_of_its_own(
    games: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A SQLite error half-way (after the turn and the game's deadline were written, uncommitted) rolls the lean
    transaction back, and the archive ticks that game: the same rows as the archive's tick of all."""
    failed: list[str] = []

    def failing(self: LeanTickSession, game: object) -> list[tuple[str, str]]:
        failed.append(game.name)  # type: ignore[attr-defined]
        raise StepAside("no observers today")

    with monkeypatch.context() as patched:
        patched.setattr(LeanTickSession, "observer_addresses", failing)
        lean_lines, lean = ticked(games, tmp_path / "lean", True, monkeypatch)
    archive_lines, by_archive = ticked(games, tmp_path / "archive", False, monkeypatch)
    assert failed and lean_lines == archive_lines
    assert rows(lean) == rows(by_archive)


def test_a_query_the_lean_session_does_not_make_steps_aside(tmp_path: Path) -> None:
    """Any query of queries.py but a tick's (through the archive session's exec, execute or plain reads) stops the
    lean transaction, for the archive to tick the game."""
    session = LeanTickSession(sqlite3.connect(tmp_path / "any.sqlite"))
    for query in (db.game_names, db.outbox_size, lambda s: db._plain(s, None, {})):
        with pytest.raises(StepAside):
            query(session)
