"""What a tick writes for a game it adjudicates: the turn (stored as mailed, since its reports are queued in the same
transaction), the game's deadline and chain head, the report mails in one statement, and a seat's NMR count only
when it changes; in one commit, or nothing at all when the tick fails half-way. The queries of live turns and
current order sets read through their partial indexes, so that a long game's tick does not walk its whole history."""

from __future__ import annotations

import re
import sqlite3
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from sqlalchemy import event

from adjudicator.archive import Archive
from adjudicator.archive import queries as db
from adjudicator.services.deadlines import tick
from bench.tick_worker import lean_watched
from tests.conftest import SEATS, Pbem

WRITE = re.compile(r"\s*(INSERT INTO|UPDATE|DELETE FROM)\s+\"?(\w+)", re.IGNORECASE)


@contextmanager
def statements_and_commits(archive: Archive) -> Iterator[tuple[list[str], list[str]]]:
    """The statements run and the commits made while the block runs, through the archive or the lean way (a tick's
    games on the default SQLite archive: archive/lean_tick.py)."""
    statements: list[str] = []
    commits: list[str] = []

    def executed(_connection: Any, _cursor: Any, statement: str, *_: Any) -> None:
        statements.append(statement)

    def committed(*_: Any) -> None:
        commits.append("commit")

    event.listen(archive.engine, "before_cursor_execute", executed)
    event.listen(archive.engine, "commit", committed)
    try:
        with lean_watched(statements.append, committed):
            yield statements, commits
    finally:
        event.remove(archive.engine, "before_cursor_execute", executed)
        event.remove(archive.engine, "commit", committed)


@contextmanager
def writes_and_commits(archive: Archive) -> Iterator[tuple[Counter[tuple[str, str]], list[str]]]:
    """The statements that change rows, counted by (verb, table), and the commits, while the block runs."""
    writes: Counter[tuple[str, str]] = Counter()
    with statements_and_commits(archive) as (statements, commits):
        yield writes, commits
    for statement in statements:
        if found := WRITE.match(statement):
            writes[(found[1].split()[0].upper(), found[2])] += 1


def due_game(pbem: Pbem, *orders: str) -> Archive:
    """rome1 with Macedonia's turn 1 due (its deadline passed), with these orders of Macedonia's stored."""
    pbem.new_game()
    if orders:
        assert pbem("submit", "rome1", str(pbem.orders("Macedonia", 1, *orders))).exit_code == 0
    pbem.sql("update game set deadline = '2000-01-01T00:00:00+00:00'")
    return Archive.open(pbem.data, pbem.db)


def test_a_tick_stores_the_turn_as_mailed_and_rewrites_no_row_it_wrote(pbem: Pbem) -> None:
    archive = due_game(pbem, "BUY 1 INF")
    with writes_and_commits(archive) as (writes, commits):
        report = tick(archive, pbem.data)
    assert report.lines == ["rome1: turn 1 (Macedonia) resolved", "rome1: reports of turn(s) 1 queued"]
    # no update of the turn just inserted (mailed), nor of the seats whose NMR count stays 0
    assert writes == Counter({("INSERT", "turn"): 1, ("UPDATE", "game"): 1, ("INSERT", "outbox"): 1})
    assert len(commits) == 1 + 1  # the list of games due, then the game's
    assert pbem.sql("select number, mailed from turn order by number") == [(0, 0), (1, 1)]
    assert sorted(pbem.sql("select \"to\" from outbox where subject like '%Report, turn 1'")) == sorted(
        (address,) for address in SEATS.values()
    )


def test_orders_sent_ahead_get_their_receipt_and_the_turn_is_still_inserted_as_mailed(pbem: Pbem) -> None:
    archive = due_game(pbem, "BUY 1 INF")
    assert pbem("submit", "rome1", str(pbem.orders("Egyptus", 2, "BUY 1 INF"))).exit_code == 0
    with writes_and_commits(archive) as (writes, _):
        tick(archive, pbem.data)
    # the receipt of Egyptus's orders, checked again against the position they are now due in, then the reports
    assert writes == Counter({("INSERT", "turn"): 1, ("UPDATE", "game"): 1, ("INSERT", "outbox"): 2})
    receipts = "select count(*) from outbox where \"to\" = 'egy@example.org' and subject like '%Receipt for turn 2'"
    assert pbem.sql(receipts) == [(1,)]


def test_a_turn_without_orders_counts_its_seat_missed_and_only_that_seat(pbem: Pbem) -> None:
    archive = due_game(pbem)
    with writes_and_commits(archive) as (writes, _):
        tick(archive, pbem.data)
    assert writes == Counter(
        {("INSERT", "turn"): 1, ("UPDATE", "game"): 1, ("UPDATE", "seat"): 1, ("INSERT", "outbox"): 1}
    )
    missed = [("Egyptus", 0), ("Hispania", 0), ("Macedonia", 1)]
    assert pbem.sql("select seat, missed from seat order by seat") == missed
    assert pbem.sql("select mailed from turn where number = 1") == [(1,)]


def test_a_tick_reads_the_position_before_the_turn_once(pbem: Pbem) -> None:
    """The due position (current_game) is the one the battle headers of the reports start from."""
    archive = due_game(pbem, "BUY 1 INF")
    with statements_and_commits(archive) as (statements, _):
        tick(archive, pbem.data)
    read = [s for s in statements if s.startswith("SELECT") and "state_json" in s.split("FROM")[0]]
    assert len(read) == 1, read


def test_reports_of_turns_left_unmailed_are_queued_with_the_next_turn(pbem: Pbem) -> None:
    """A turn stored without its reports (an older version's adjudication) is mailed with the next one."""
    archive = due_game(pbem, "BUY 1 INF")
    tick(archive, pbem.data)
    pbem.sql("update turn set mailed = false where number = 1")
    pbem.sql("update game set deadline = '2000-01-01T00:00:00+00:00'")
    report = tick(archive, pbem.data)
    assert report.lines == ["rome1: turn 2 (Egyptus) resolved", "rome1: reports of turn(s) 1, 2 queued"]
    assert pbem.sql("select number, mailed from turn order by number") == [(0, 0), (1, 1), (2, 1)]


def test_a_tick_that_fails_half_way_stores_nothing(pbem: Pbem, monkeypatch: pytest.MonkeyPatch) -> None:
    archive = due_game(pbem, "BUY 1 INF")
    before = pbem.dump()

    def broken(*_: Any) -> None:
        raise RuntimeError("the outbox is broken")

    monkeypatch.setattr(db, "queue_mails", broken)  # after the turn and the game's deadline were flushed
    report = tick(archive, pbem.data)
    assert report.lines == ["rome1: FAILED (RuntimeError: the outbox is broken)"]
    assert pbem.dump() == before
    assert not (pbem.data / "games/rome1/turn-0001").exists()


@pytest.mark.parametrize("database", ["sqlite"], indirect=True)
def test_live_turns_and_current_orders_are_read_through_their_partial_indexes(pbem: Pbem) -> None:
    archive = due_game(pbem, "BUY 1 INF")
    tick(archive, pbem.data)
    read: list[tuple[str, Any]] = []

    def executed(_connection: Any, _cursor: Any, statement: str, parameters: Any, *_: Any) -> None:
        read.append((statement, parameters))

    event.listen(archive.engine, "before_cursor_execute", executed)
    try:
        with archive.session() as session:
            game = db.find_game(session, "rome1")
            read.clear()
            db.latest_turn(session, game)
            db.latest_state(session, game)
            db.turn_numbers(session, game)
            db.unmailed_turns(session, game)
            db.turns_numbered(session, game, [0, 1])
            db.turn_states(session, game, [1])
            db.current_orders(session, game, 2, "Egyptus")
            db.read_current_orders(session, game, 2)
    finally:
        event.remove(archive.engine, "before_cursor_execute", executed)
    with sqlite3.connect(pbem.data / "archive.sqlite") as connection:
        for statement, parameters in read:
            plan = " / ".join(row[3] for row in connection.execute(f"EXPLAIN QUERY PLAN {statement}", parameters))
            index = "one_current_order_set" if "FROM orderset" in statement else "one_live_turn"
            assert f"USING INDEX {index}" in plan and "TEMP B-TREE" not in plan, (statement, plan)
