"""Several `pbem tick` processes (workers) at once on one archive. On PostgreSQL each claims only the games no other
holds (SELECT ... FOR UPDATE SKIP LOCKED): every due turn is resolved once and its reports queued once, and a
worker killed while it holds a game (its turn flushed, not committed) releases it with its connection, so that
another worker ticks that game; a game that is only waiting is ticked by one worker too (each claim counts on the
game's row, which a worker that waited for the lock reads as the holder left it). On SQLite a tick waits for the
one write lock as before (the killed worker's test runs there too)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlmodel import select

from adjudicator.archive import Archive
from adjudicator.archive import queries as db
from adjudicator.archive.models import GameRow, OutboxRow, TurnRow
from adjudicator.services.games import NewGameOptions, new_game
from adjudicator.services.orders import submit
from adjudicator.services.verification import verify
from tests.postgres import fresh_database
from tests.test_concurrency import SEATS
from tests.test_kill_runs import LAUNCHER

RESUMABLE = LAUNCHER.replace("time.sleep(300)", "sys.stdin.readline()")  # its pause ends with a line on stdin


def due_games(archive: Archive, data: Path, count: int) -> list[str]:
    """`count` games whose deadline passed; every third with the due seat's orders stored (a turn with orders)."""
    names = [f"g{n}" for n in range(count)]
    for n, name in enumerate(names):
        passwords = new_game(archive, data, NewGameOptions(name, "coe-classic", SEATS)).passwords
        if n % 3 == 0:
            orders = f"GAME {name} TURN 1 PLAYER Macedonia PASSWORD {passwords['Macedonia']}\nBUY 1 INF\n"
            submit(archive, name, orders)
    past = (datetime.now(UTC) - timedelta(minutes=1)).isoformat(timespec="seconds")
    with archive.session() as session:
        for game in session.exec(select(GameRow)).all():
            game.deadline = past
            session.add(game)
    return names


def worker(data: Path, pause: str | None = None) -> subprocess.Popen[str]:
    """A real `pbem tick` process (PBEM_DB names the archive); with `pause` ("point:k", tests/test_kill_runs.py)
    it stops there, printing PAUSED, until a line comes on its stdin (or it is killed)."""
    environment = {**os.environ, "PYTHONUNBUFFERED": "1", "PBEM_TEST_PAUSE": pause or "none:0"}
    return subprocess.Popen(
        [
            sys.executable,
            "-c",
            LAUNCHER.replace("time.sleep(300)", "sys.stdin.readline()"),
            "tick",
            "--data",
            str(data),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=environment,
    )


def finished(process: subprocess.Popen[str]) -> str:
    output, _ = process.communicate(timeout=120)
    assert process.returncode == 0, output
    return output


def resolved_once(archive: Archive, names: list[str], outputs: list[str]) -> None:
    """Each game's turn 1 stored once, said resolved by one worker once, its reports queued once; each verifies."""
    said = Counter(line.split(":")[0] for output in outputs for line in output.splitlines() if "resolved" in line)
    assert said == Counter(names), outputs
    with archive.session() as session:
        ids = {g.id: g.name for g in session.exec(select(GameRow)).all()}
        turns = Counter(ids[t.game_id] for t in session.exec(select(TurnRow).where(TurnRow.number == 1)).all())
        reports = session.exec(select(OutboxRow).where(OutboxRow.subject.endswith("Report, turn 1"))).all()  # type: ignore[attr-defined]
    assert turns == Counter(names)
    assert Counter(r.game for r in reports) == Counter({name: len(SEATS) for name in names})
    for name in names:
        assert not verify(archive, name)[1], name


def test_workers_at_once_resolve_each_due_turn_once_and_queue_each_report_once(
    tmp_path: Path, postgres_archive: Archive
) -> None:
    archive = postgres_archive
    names = due_games(archive, tmp_path, 4)

    workers = [worker(tmp_path) for _ in range(3)]
    outputs = [finished(process) for process in workers]

    resolved_once(archive, names, outputs)


def held_games(archive: Archive) -> set[str]:
    """The games whose lock another transaction holds (PostgreSQL)."""
    with archive.engine.begin() as connection:
        free = connection.execute(text("select name from game for update skip locked")).scalars()
        return set(connection.execute(text("select name from game")).scalars()) - set(free)


def test_a_killed_worker_releases_its_game_to_another_worker(tmp_path: Path, archive: Archive) -> None:
    names = due_games(archive, tmp_path, 3)
    # the first worker stops at its second commit (the first is its list of games), its first game's turn flushed
    stuck = worker(tmp_path, pause="flushed:2")
    assert stuck.stdout is not None
    assert stuck.stdout.readline().startswith("PAUSED"), "the worker did not reach its pause"
    other = worker(tmp_path)
    try:
        if archive.backend == "postgresql":
            (held,) = held_games(archive)
            # the other worker ticks every other game meanwhile, then waits for the held one's lock
            for _ in range(600):
                with archive.session() as session:
                    done = {n for n in names if n != held and session.exec(_turn_one(n)).first() is not None}
                if len(done) == len(names) - 1 or other.poll() is not None:
                    break
                time.sleep(0.1)
            assert len(done) == len(names) - 1 and other.poll() is None
        stuck.send_signal(signal.SIGKILL)
        stuck.wait(timeout=60)
        output = finished(other)
    finally:
        for process in (stuck, other):
            if process.poll() is None:
                process.kill()
                process.wait()
    assert stuck.returncode == -signal.SIGKILL
    resolved_once(archive, names, [output])  # the killed worker's game too, by the other worker


def _turn_one(name: str):  # type: ignore[no-untyped-def]
    return (
        select(TurnRow.id)
        .join(GameRow, GameRow.id == TurnRow.game_id)
        .where(  # type: ignore[arg-type]
            GameRow.name == name, TurnRow.number == 1
        )
    )


@pytest.fixture
def postgres_archive(tmp_path: Path, postgres_server: tuple[str | None, str], monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    """An archive in a fresh PostgreSQL database, named by PBEM_DB for the workers."""
    server, trouble = postgres_server
    if server is None:
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL tests need a server in CI: {trouble}", pytrace=False)
        pytest.skip(f"PostgreSQL tests need a server: {trouble}")
    with fresh_database(server) as url:
        monkeypatch.setenv("PBEM_DB", url)
        archive = Archive(url)
        yield archive
        archive.close()


def test_a_waiting_game_is_ticked_by_one_worker_though_ticking_it_changes_nothing(
    tmp_path: Path, postgres_archive: Archive
) -> None:
    archive = postgres_archive
    names = [f"w{n}" for n in range(3)]
    for name in names:
        new_game(archive, tmp_path, NewGameOptions(name, "coe-classic", SEATS))
    later = (datetime.now(UTC) + timedelta(hours=72)).isoformat(timespec="seconds")
    with archive.session() as session:
        for game in session.exec(select(GameRow)).all():
            game.deadline = later  # no orders due yet, no reminder: a tick only says the game waits
            session.add(game)
    first = worker(tmp_path, pause="flushed:2")  # holds its first game, its list made
    assert first.stdout is not None and first.stdin is not None
    assert first.stdout.readline().startswith("PAUSED"), "the worker did not reach its pause"
    second = worker(tmp_path)
    try:
        # the second ticks the other games, then waits for the held one's lock
        for _ in range(600):
            if _waiting_for_a_lock(archive) or second.poll() is not None:
                break
            time.sleep(0.1)
        assert second.poll() is None
        first.stdin.write("go on\n")
        first.stdin.flush()
        outputs = [finished(first), finished(second)]
    finally:
        for process in (first, second):
            if process.poll() is None:
                process.kill()
                process.wait()
    said = Counter(line.split(":")[0] for output in outputs for line in output.splitlines() if "waiting" in line)
    assert said == Counter(names), outputs  # each game's line once: by the worker that ticked it
    assert len(outputs[0].splitlines()) == 1, outputs  # the first worker left what the second ticked meanwhile


def _waiting_for_a_lock(archive: Archive) -> bool:
    with archive.engine.begin() as connection:
        query = "select count(*) from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()"
        return bool(connection.execute(text(query)).scalar())


def test_a_claim_that_waited_for_the_lock_leaves_the_game_its_holder_ticked(
    tmp_path: Path, postgres_archive: Archive
) -> None:
    archive = postgres_archive
    new_game(archive, tmp_path, NewGameOptions("w", "coe-classic", SEATS))
    with archive.session() as session:
        (listed,) = db.games_to_claim(session)
    outcome: list[str] = []

    def waiting_claim() -> None:
        try:
            with archive.session() as session:
                db.claim_game(session, replace(listed, wait=True))
            outcome.append("claimed")
        except db.GameTicked:
            outcome.append("left")

    with archive.session() as holder:
        db.count_tick(holder, db.claim_game(holder, listed), listed)  # a tick that changes nothing: the game waits
        waiter = threading.Thread(target=waiting_claim)
        waiter.start()
        for _ in range(600):
            if _waiting_for_a_lock(archive):
                break
            time.sleep(0.01)
        assert not outcome, "the second claim did not wait for the lock"
    waiter.join(timeout=60)

    assert outcome == ["left"]
    with archive.session() as session:
        assert db.unticked(session, [listed]) == []  # a worker's look-ahead leaves it too
