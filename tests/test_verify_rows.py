"""`pbem verify` reads a SQLite archive's rows without SQLAlchemy (archive/verify_rows.py): the rows it reads are
those the archive reads, its verdicts are the archive's word for word (on a sound game and on edited ones), and every
case it cannot answer the same way (no such game, an archive of an older version) goes through the archive.

A real Classic game (tests/test_verify_published.py: three turns, mails sent as .eml files, a German reader) with a
turn rolled back and played again, and a real conqueror-er game."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import SQLModel

from adjudicator.archive import Archive
from adjudicator.archive.tables import BOOLEANS, COLUMNS, INDEXES
from adjudicator.archive.verify_rows import GameRows, lean_rows, orm_rows
from adjudicator.services.verification import verify_stored
from tests.conftest import Pbem
from tests.test_verify_published import GAME, play_coe


@pytest.fixture(scope="module")
def coe_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("rows")
    pbem = play_coe(root)
    assert pbem("gm", "rollback", GAME, "--to", "2").exit_code == 0  # a withdrawn turn, with its chain
    assert pbem("adjudicate", GAME, "--now").exit_code == 0
    return root


@pytest.fixture
def data(coe_game: Path, tmp_path: Path) -> Path:
    shutil.copytree(coe_game, tmp_path / "game")
    return tmp_path / "game" / "data"


def plain(rows: GameRows) -> dict[str, Any]:
    """The rows as plain values, to compare the two ways of reading them."""

    def row(value: Any) -> dict[str, Any]:
        return {
            column: getattr(value, column) for table in COLUMNS.values() for column in table if hasattr(value, column)
        }

    return {
        "game": row(rows.game),
        "turns": [row(r) for r in rows.turns],
        "seats": [row(r) for r in rows.seats],
        "decisions": [row(r) for r in rows.decisions],
        "withdrawn": rows.withdrawn,
        "observers": [row(r) for r in rows.observers],
        "order_sets": {key: row(r) for key, r in rows.order_sets.items()},
        "order_mails": [tuple(m) for m in rows.order_mails],
        "mails": rows.mails,
    }


def test_the_columns_read_are_the_rows_columns() -> None:
    """tables.py names every table's columns in the rows' order, its booleans and its indexes, as models.py has them."""
    assert set(COLUMNS) == set(BOOLEANS) == set(INDEXES) == set(SQLModel.metadata.tables)
    for table, columns in COLUMNS.items():
        model = SQLModel.metadata.tables[table]
        assert columns == tuple(model.columns.keys()), table
        assert BOOLEANS[table] == {c.name for c in model.columns if c.type.python_type is bool}, table
        assert INDEXES[table] == {index.name for index in model.indexes}, table


def test_lean_reads_what_the_archive_reads(data: Path) -> None:
    with sqlite3.connect(data / "archive.sqlite") as connection:  # an order mail, as `pbem ingest` stores it
        connection.execute(
            "INSERT INTO message (message_id, received, sender, subject, raw, game, seat, outcome) "
            "VALUES ('<1@x>', '2026-01-01T10:00:00+00:00', 'mac@example.org', '', '', ?, 'Macedonia', "
            "'orders stored')",
            (GAME,),
        )
    lean = lean_rows(data, GAME)
    assert lean is not None
    with Archive.in_folder(data).session() as session:
        orm = orm_rows(session, GAME)
    assert plain(lean) == plain(orm)
    assert lean.withdrawn and lean.mails and lean.order_mails and lean.order_sets  # the game has each kind of row
    assert all(type(turn.superseded) is bool and type(turn.number) is int for turn in lean.turns)


def both_ways(pbem: Pbem) -> tuple[str, str]:
    """`pbem verify` of the game read without SQLAlchemy and through the archive (--db names the same file)."""
    url = f"sqlite:///{pbem.data / 'archive.sqlite'}"
    lean = pbem("verify", GAME, "--eml-dir", str(pbem.data.parent / "eml"))
    orm = pbem("verify", GAME, "--eml-dir", str(pbem.data.parent / "eml"), "--db", url)
    assert lean.exit_code == orm.exit_code
    return lean.output, orm.output


def test_a_sound_game_verifies_the_same_both_ways(data: Path) -> None:
    lean, orm = both_ways(Pbem(data))
    assert lean == orm and lean.endswith(" 0 problems\n")


@pytest.mark.parametrize(
    ("edit", "caught"),
    [
        (
            "UPDATE turn SET state_json = replace(state_json, '\"treasury\": 2', '\"treasury\": 3') WHERE number = 2",
            True,
        ),
        ("UPDATE turn SET superseded = 1 WHERE number = 1", True),
        ("UPDATE orderset SET text = text || 'BUY 1 INF\n' WHERE turn = 1", True),
        ("DELETE FROM seat WHERE seat = 'Hispania'", True),
        ("UPDATE turn SET number = 'two' WHERE number = 2", True),
        # the mails' chain lines made unreadable: fewer heads are counted, none is wrong
        ("UPDATE outbox SET body = replace(body, 'chain after this turn: ', 'chain after this turn: f')", False),
        ("UPDATE game SET paused = 'yes'", False),  # no verdict depends on it: read as True both ways
    ],
)
def test_an_edited_game_gets_the_same_verdict_both_ways(data: Path, edit: str, caught: bool) -> None:
    with sqlite3.connect(data / "archive.sqlite") as connection:
        connection.execute(edit)
    lean, orm = both_ways(Pbem(data))
    assert lean == orm
    assert ("PROBLEM" in lean) is caught


def test_what_lean_cannot_answer_goes_through_the_archive(data: Path, tmp_path: Path) -> None:
    assert lean_rows(data, "nosuchgame") is None
    assert lean_rows(tmp_path / "nowhere", GAME) is None
    with pytest.raises(Exception, match="unknown game 'nosuchgame'; games in this archive: rome1"):
        verify_stored(data, None, "nosuchgame")
    with sqlite3.connect(data / "archive.sqlite") as connection:  # as an archive of an older version
        connection.execute("ALTER TABLE turn DROP COLUMN chain")
    assert lean_rows(data, GAME) is None
