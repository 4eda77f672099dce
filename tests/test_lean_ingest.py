"""A one-shot `pbem ingest` of one mail on the default SQLite archive handles it without SQLAlchemy
(archive/lean_mail.py) through the same mail handling: the same mails give the same outcomes, receipts and stored
rows either way, and every case the lean way cannot handle as the archive would goes through the archive, with
nothing stored by the lean way."""

from __future__ import annotations

import inspect
import signal
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from adjudicator.archive import Archive
from adjudicator.archive import queries as db
from adjudicator.archive.lean_mail import LeanArchive, LeanSession, mail_fields
from adjudicator.archive.lean_tick import LeanTickSession
from adjudicator.archive.tables import COLUMNS
from adjudicator.mail.inbound import read_message
from adjudicator.services.clock import FixedClock
from adjudicator.services.mailbox import ingest, ingest_lean
from adjudicator.services.passwords import hash_password
from tests.served_game import copy_of, letter, made_game

CLOCK = FixedClock(datetime(2026, 3, 1, 12, 0, tzinfo=UTC))


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    return made_game(tmp_path_factory.mktemp("lean-ingest"))


def mail(number: int, body: str, sender: str = "mac@example.org", **fields: str) -> bytes:
    return letter("lean", number, body, sender, **fields)


def rows(folder: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table, read with sqlite3 (the same reader for both ways)."""
    with sqlite3.connect(folder / "archive.sqlite") as connection:
        return {table: connection.execute(f"SELECT * FROM {table} ORDER BY id").fetchall() for table in COLUMNS}


def by_archive(folder: Path, data: bytes) -> str:
    archive = Archive.in_folder(folder)
    try:
        return ingest(archive, read_message(data), clock=CLOCK).text
    finally:
        archive.close()


def by_lean(folder: Path, data: bytes) -> str | None:
    archive = LeanArchive.open(folder)
    assert archive is not None
    try:
        outcome = ingest_lean(archive, read_message(data), clock=CLOCK)
    finally:
        archive.close()
    return None if outcome is None else outcome.text


def test_the_same_mails_store_the_same_rows_either_way(made: tuple[Path, dict[str, str]], tmp_path: Path) -> None:
    mac, egy = made[1]["Macedonia"], made[1]["Egyptus"]
    pending = hash_password("fresh-password")
    lean, orm = copy_of(made, tmp_path / "lean"), copy_of(made, tmp_path / "orm")
    for folder in (lean, orm):  # a password reset not used yet: its first use makes it the seat's password
        with sqlite3.connect(folder / "archive.sqlite") as connection:
            connection.execute("UPDATE seat SET pending_password_hash = ? WHERE seat = 'Hispania'", (pending,))
    header = f"GAME rome1 TURN 1 PLAYER Macedonia PASSWORD {mac}\n"
    mails = [
        mail(1, header + "BUY 1 INF\nPRESS TO Egyptus: hello\nBROADCAST: to all\n"),
        mail(2, header + "BUY 2 INF\n"),  # replaces the first set
        mail(2, header + "BUY 2 INF\n"),  # the same mail again
        mail(2, header + "BUY 3 INF\n"),  # another mail under that Message-ID
        mail(3, "GAME rome1 TURN 1 PLAYER Macedonia PASSWORD forged99\nBUY 9 INF\n", "spy@example.net"),
        mail(4, header + "MARCH everywhere at once\n"),
        mail(5, "GAME nosuch TURN 1 PLAYER Macedonia PASSWORD x\nBUY 1 INF\n"),
        mail(6, "GAME nosuch TURN 1 PLAYER Macedonia PASSWORD x\n", "stranger@example.net"),
        mail(7, "Dear moderator, what now?\n"),
        mail(8, "GAME rome1 TURN 1 PLAYER Nobody PASSWORD x\nBUY 1 INF\n"),
        mail(9, f"GAME rome1 TURN 2 PLAYER Egyptus PASSWORD {egy}\nBUY 1 INF\nLANGUAGE de\n", "egy@example.org"),
        mail(10, header + "WITHDRAW\n"),
        mail(11, header + "ANSWER x: y\n"),
        mail(12, "GAME rome1 TURN 3 PLAYER Hispania PASSWORD fresh-password\nBUY 1 INF\n", "his@example.org"),
        mail(13, header + "PRESS TO Egyptus: " + "x" * 5000 + "\n"),
        mail(14, "GAME rome1 TURN 1 PLAYER Macedonia PASSWORD forged99\nBUY 9 INF\n", "egy@example.org"),
        mail(15, "GAME rome1 TURN 1 PLAYER Galatia PASSWORD x\nBUY 1 INF\n"),  # a seat of the game's ruleset only
    ]
    said = [(by_lean(lean, data), by_archive(orm, data)) for data in mails]
    assert [lean_said for lean_said, _ in said] == [orm_said for _, orm_said in said]
    assert rows(lean) == rows(orm)
    outcomes = [orm_said for _, orm_said in said]
    assert outcomes[:4] == [
        "orders stored",
        "orders stored",
        "duplicate",
        "refused: the Message-ID of an earlier mail, with other content",
    ]
    assert "orders withdrawn" in outcomes and "refused: unknown game" in outcomes
    assert outcomes[-1].startswith("refused: 'Galatia' is not a seat of game rome1; seats: Macedonia, Egyptus")
    assert any(text.startswith("not answered (stranger)") for text in outcomes)
    stored = rows(orm)
    seats = {row[2]: row for row in stored["seat"]}
    assert seats["Hispania"][4:6] == (pending, "")  # the reset password, once used, is the seat's password
    assert seats["Egyptus"][6] == "de"  # LANGUAGE
    assert any(row[4] == "hello\n" for row in stored["outbox"])  # the press relayed


def test_mail_commands_and_what_the_lean_way_cannot_do_go_to_the_archive(
    made: tuple[Path, dict[str, str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = copy_of(made, tmp_path / "data")
    before = rows(folder)
    assert by_lean(folder, mail(1, "HELP\n")) is None  # mail commands: the archive answers them
    orders = mail(2, f"GAME rome1 TURN 1 PLAYER Macedonia PASSWORD {made[1]['Macedonia']}\nBUY 1 INF\n")

    def failing(*_: object, **__: object) -> None:
        raise sqlite3.OperationalError("disk I/O error")

    with monkeypatch.context() as patched:  # a SQLite error half-way: rolled back, the archive handles the mail
        patched.setattr(LeanSession, "queue_mail", failing)
        assert by_lean(folder, orders) is None
    assert rows(folder) == before
    assert by_lean(folder, orders) == "orders stored"


@pytest.mark.parametrize(
    "change",
    [
        "ALTER TABLE outbox DROP COLUMN thread",  # an archive made before a column: the archive adds it
        "DROP INDEX one_current_order_set",  # ... before an index
        "DROP TABLE observer",  # ... before a table
    ],
)
def test_an_archive_of_an_older_version_is_opened_by_the_archive(
    made: tuple[Path, dict[str, str]], tmp_path: Path, change: str
) -> None:
    folder = copy_of(made, tmp_path / "data")
    assert LeanArchive.open(folder) is not None
    with sqlite3.connect(folder / "archive.sqlite") as connection:
        connection.execute(change)
    assert LeanArchive.open(folder) is None


def test_no_archive_and_an_unknown_journal_are_the_archives(
    made: tuple[Path, dict[str, str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert LeanArchive.open(tmp_path / "nothing") is None  # the archive makes it
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "archive.sqlite").write_text("not a database")
    assert LeanArchive.open(tmp_path / "broken") is None  # the archive explains
    folder = copy_of(made, tmp_path / "data")
    monkeypatch.setenv("PBEM_SQLITE_JOURNAL", "memory")
    assert LeanArchive.open(folder) is None  # the archive refuses it
    monkeypatch.setenv("PBEM_SQLITE_JOURNAL", "wal")
    archive = LeanArchive.open(folder)
    assert archive is not None
    (mode,) = archive.connection.execute("PRAGMA journal_mode").fetchone()
    archive.close()
    assert mode == "wal"


@pytest.mark.parametrize("lean_session", [LeanSession, LeanTickSession])
def test_the_lean_queries_take_the_archives_arguments(lean_session: type[LeanSession]) -> None:
    """Each query of the lean ways (mail handling's, a tick's) has the signature of queries.py's function of its name,
    without the session (the lean queue_mail passes its arguments on to mail_fields)."""
    session_work = ("new_message", "save", "flush", "add", "exec", "execute", "get", "delete")
    for name, method in inspect.getmembers(lean_session, inspect.isfunction):
        if name.startswith("_") or name in session_work:
            continue
        lean = list(inspect.signature(mail_fields if name == "queue_mail" else method).parameters.values())
        lean = lean if name == "queue_mail" else lean[1:]
        archive = list(inspect.signature(getattr(db, name)).parameters.values())[1:]
        assert [(p.name, p.kind, p.default) for p in lean] == [(p.name, p.kind, p.default) for p in archive], name


def test_ingest_of_one_mail_starts_without_sqlalchemy(made: tuple[Path, dict[str, str]], tmp_path: Path) -> None:
    folder = copy_of(made, tmp_path / "data")
    eml = tmp_path / "orders.eml"
    eml.write_bytes(mail(1, f"GAME rome1 TURN 1 PLAYER Macedonia PASSWORD {made[1]['Macedonia']}\nBUY 1 INF\n"))
    program = (
        "import sys\n"
        "from adjudicator.cli import main\n"
        f"sys.argv = ['pbem', 'ingest', {str(eml)!r}, '--data', {str(folder)!r}]\n"
        "try:\n"
        "    main()\n"
        "except SystemExit as end:\n"
        "    print('exit', end.code, 'archive loaded:', 'sqlmodel' in sys.modules or 'sqlalchemy' in sys.modules)\n"
    )
    run = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=False, timeout=60)
    stored = "<lean1@players.example.org> from mac@example.org: orders stored\n"
    assert run.stdout == stored + "exit 0 archive loaded: False\n", run.stderr


# `pbem ingest` of one mail, killed with SIGKILL on the lean way once it has written its rows, before its commit.
KILLED_BEFORE_COMMIT = """
import os, sys, time
from adjudicator.archive import lean_mail

save = lean_mail.LeanSession.save

def saved_then_paused(self, row):
    save(self, row)
    if row.__tablename__ == "message":  # the last write of the mail's transaction
        print("PAUSED", flush=True)
        time.sleep(300)

lean_mail.LeanSession.save = saved_then_paused
from adjudicator.cli import main

main()
"""


def test_a_lean_ingest_killed_before_its_commit_stores_nothing(
    made: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    folder = copy_of(made, tmp_path / "data")
    before = rows(folder)
    eml = tmp_path / "orders.eml"
    eml.write_bytes(mail(1, f"GAME rome1 TURN 1 PLAYER Macedonia PASSWORD {made[1]['Macedonia']}\nBUY 1 INF\n"))
    command = [sys.executable, "-c", KILLED_BEFORE_COMMIT, "ingest", str(eml), "--data", str(folder)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        assert process.stdout.readline() == "PAUSED\n"
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert rows(folder) == before  # the written rows died with their transaction (SQLite's journal)
    again = subprocess.run(
        [sys.executable, "-m", "adjudicator.cli", "ingest", str(eml), "--data", str(folder)],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert again.stdout == "<lean1@players.example.org> from mac@example.org: orders stored\n", again.stderr
    assert len(rows(folder)["message"]) == len(before["message"]) + 1


def test_a_player_taking_his_seat_back_from_the_bot_is_stored_alike_either_way(
    made: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    """A seat run by the bot whose player mails orders again is his once more (the report says so): the lean way
    writes that as the archive does."""
    lean, orm = copy_of(made, tmp_path / "lean"), copy_of(made, tmp_path / "orm")
    for folder in (lean, orm):
        with sqlite3.connect(folder / "archive.sqlite") as connection:
            connection.execute("UPDATE seat SET run_by_bot = 1 WHERE seat = 'Macedonia'")
    orders = mail(1, f"GAME rome1 TURN 1 PLAYER Macedonia PASSWORD {made[1]['Macedonia']}\nBUY 1 INF\n")
    assert by_lean(lean, orders) == by_archive(orm, orders)
    assert rows(lean) == rows(orm)
    with sqlite3.connect(lean / "archive.sqlite") as connection:
        seat = connection.execute("SELECT run_by_bot, back_from_bot FROM seat WHERE seat = 'Macedonia'").fetchone()
    assert seat == (0, 1)
