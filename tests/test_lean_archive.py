"""`pbem check --game` reads the default SQLite archive without SQLAlchemy (archive/lean.py): it sees exactly what
the archive (sqlmodel) sees, gives the same receipts and refusals, never a writer's half-done step, and leaves to
the archive every case it cannot answer the same way."""

from __future__ import annotations

import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from sqlmodel import SQLModel

from adjudicator.archive import Archive, lean, tables, verify_rows
from adjudicator.archive import queries as db
from adjudicator.archive.models import TurnRow
from adjudicator.errors import PbemError
from adjudicator.services.orders import check_game_orders, check_stored_orders
from tests.conftest import Pbem


@pytest.fixture
def game(tmp_path: Path) -> Pbem:
    """A SQLite game in its second player-turn, with a turn rolled back and played again (a superseded row)."""
    pbem = Pbem(tmp_path / "data")
    pbem.new_game()
    pbem("submit", "rome1", str(pbem.orders("Macedonia", 1, "MOVE G1 WITH 2 INF: MAC -> THR", "BUY 1 INF")))
    assert pbem("adjudicate", "rome1", "--now").exit_code == 0
    assert pbem("gm", "rollback", "rome1", "--to", "0").exit_code == 0
    pbem("submit", "rome1", str(pbem.orders("Macedonia", 1, "BUY 2 INF")))
    assert pbem("adjudicate", "rome1", "--now").exit_code == 0
    return pbem


def orm_reading(data: Path, name: str) -> tuple[str, str, str]:
    with Archive.in_folder(data).session() as session:
        row = db.find_game(session, name)
        return row.ruleset, row.pace, db.latest_turn(session, row).state_json


def test_the_names_read_are_the_rows_names() -> None:
    """tables.py is the one source of the names: the rows' tables are its tables, with the columns lean.py reads."""
    names = {getattr(tables, n) for n in dir(tables) if n.isupper() and isinstance(getattr(tables, n), str)}
    assert set(SQLModel.metadata.tables) == names
    for table, columns in tables.LEAN_COLUMNS.items():
        assert set(columns) <= set(SQLModel.metadata.tables[table].columns.keys()), table


def test_lean_reads_what_the_archive_reads(game: Pbem) -> None:
    stored = lean.current_game(game.data, "rome1")
    assert stored is not None
    assert (stored.ruleset, stored.pace, stored.state_json) == orm_reading(game.data, "rome1")
    with Archive.in_folder(game.data).session() as session:  # the rolled-back turn 1 is there, and not read
        rows = session.exec(db.select(TurnRow).where(TurnRow.number == 1)).all()  # type: ignore[attr-defined]
    assert sorted(row.superseded for row in rows) == [False, True]
    assert '"turn": 1' in stored.state_json


def outcome(pbem: Pbem, text: str, lean_path: bool) -> str:
    """The receipt, or the refusal, of checking `text` against rome1 by one path."""
    try:
        if lean_path:
            return check_stored_orders(pbem.data, None, "rome1", text).text
        return check_game_orders(Archive.in_folder(pbem.data), "rome1", text).text
    except PbemError as refused:
        return f"refused: {refused}"


@pytest.mark.parametrize(
    ("text", "expect"),
    [
        ("GAME rome1 TURN 2 PLAYER Egyptus PASSWORD x\nBUY 1 INF\nMOVE G1: MAC -> nowhere\n", "1 not understood"),
        ("GAME rome1 TURN 2 PLAYER Egyptus PASSWORD x\nBUY 99 INF\n", "0 accepted, 1 rejected"),
        ("GAME rome1 TURN 2 PLAYER Egyptus PASSWORD x\n", "0 accepted, 0 rejected"),
        ("BUY 1 INF\n", "missing header"),
        ("GAME rome1 TURN 2 PLAYER Nobody PASSWORD x\nBUY 1 INF\n", "Nobody"),
        ("GAME rome1 TURN 7 PLAYER Egyptus PASSWORD x\nBUY 1 INF\n", "refused: header says TURN 7"),
        ("GAME rome1 TURN 2 PLAYER Hispania PASSWORD x\nBUY 1 INF\n", "refused: header says TURN 2"),
        ("GAME rome1 TURN 3 PLAYER Hispania PASSWORD x\nBUY 1 INF\n", "1 accepted"),  # ahead (turn pace)
    ],
)
def test_the_same_receipt_or_refusal_either_way(game: Pbem, text: str, expect: str) -> None:
    said = outcome(game, text, lean_path=True)
    assert said == outcome(game, text, lean_path=False)
    assert expect in said, said


def test_what_lean_cannot_answer_the_archive_does(game: Pbem, tmp_path: Path) -> None:
    text = "GAME nosuch TURN 1 PLAYER Egyptus PASSWORD x\nBUY 1 INF\n"
    assert lean.current_game(game.data, "nosuch") is None  # its message names the games: the archive's
    with pytest.raises(PbemError, match="unknown game 'nosuch'; games in this archive: rome1"):
        check_stored_orders(game.data, None, "nosuch", text)
    assert lean.current_game(tmp_path / "empty", "rome1") is None  # no archive yet: the archive makes one
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "archive.sqlite").write_text("not a database")
    assert lean.current_game(broken, "rome1") is None
    failures = []
    for check in (
        lambda: check_stored_orders(broken, None, "rome1", text),
        lambda: check_game_orders(Archive.in_folder(broken), "rome1", text),
    ):
        with pytest.raises(Exception) as failed:  # noqa: PT011 (whatever the archive raises, both raise it)
            check()
        failures.append((type(failed.value), str(failed.value)))
    assert failures[0] == failures[1] and "file is not a database" in failures[0][1]


def test_an_archive_older_than_a_column_read_is_upgraded_by_the_archive(game: Pbem) -> None:
    before = game.dump()
    with sqlite3.connect(game.data / "archive.sqlite") as connection:
        connection.execute("ALTER TABLE game DROP COLUMN pace")  # as an archive made before paces
    Archive.in_folder(game.data).close()  # a new process: the archive opens it anew, and upgrades it
    assert lean.current_game(game.data, "rome1") is None
    text = "GAME rome1 TURN 2 PLAYER Egyptus PASSWORD x\nBUY 1 INF\n"
    assert "1 accepted" in check_stored_orders(game.data, None, "rome1", text).text
    assert game.dump() == before  # the archive added the column back, with its default
    assert lean.current_game(game.data, "rome1") is not None


def test_a_writers_step_is_seen_whole_or_not_at_all(game: Pbem) -> None:
    """While a writer (the archive, sqlmodel) holds a new turn uncommitted, the lean reader sees the turn before;
    once it commits, the new one."""
    before = lean.current_game(game.data, "rome1")
    assert before is not None
    archive = Archive.in_folder(game.data)
    with archive.session() as session:
        row = db.find_game(session, "rome1", lock=True)
        latest = db.latest_turn(session, row)
        copy = TurnRow(**{k: v for k, v in latest.model_dump().items() if k != "id"})
        copy.number, copy.state_json = latest.number + 1, latest.state_json.replace('"turn": 1', '"turn": 2')
        session.add(copy)
        session.flush()
        assert lean.current_game(game.data, "rome1") == before
    after = lean.current_game(game.data, "rome1")
    assert after is not None and after.state_json == copy.state_json != before.state_json


def test_check_game_starts_without_sqlalchemy(game: Pbem) -> None:
    orders = game.orders("Egyptus", 2, "BUY 1 INF")
    program = (
        "import sys\n"
        "from adjudicator.cli import main\n"
        f"sys.argv = ['pbem', 'check', '--game', 'rome1', {str(orders)!r}, '--data', {str(game.data)!r}]\n"
        "try:\n"
        "    main()\n"
        "except SystemExit as end:\n"
        "    print('exit', end.code, 'archive loaded:', 'sqlmodel' in sys.modules or 'sqlalchemy' in sys.modules)\n"
    )
    run = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=False, timeout=60)
    assert run.stdout.endswith("exit 0 archive loaded: False\n"), run.stdout + run.stderr
    assert "1 accepted, 0 rejected" in run.stdout


def test_live_turns_and_current_orders_are_read_through_their_partial_indexes(game: Pbem) -> None:
    """`check --game` and `verify` read a long game's live turns and current order sets by the partial indexes,
    not by walking (and sorting) the game's whole history."""
    read: list[str] = []
    with sqlite3.connect(game.data / "archive.sqlite") as connection:
        connection.set_trace_callback(read.append)
        assert lean._read(connection, "rome1") is not None
        assert verify_rows._read(connection, "rome1") is not None
        connection.set_trace_callback(None)
        live = [s for s in read if re.search(r"(superseded|replaced) = (0|false)", s)]
        assert len(live) == 3, read
        for statement in live:
            plan = " / ".join(row[3] for row in connection.execute(f"EXPLAIN QUERY PLAN {statement}"))
            assert plan.startswith("SEARCH") and "TEMP B-TREE" not in plan, (statement, plan)
            if "FROM turn" in statement:  # the game's orders sets are few, its turns grow with the game
                assert "USING INDEX one_live_turn" in plan, (statement, plan)
