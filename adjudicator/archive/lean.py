"""A game's current position read from the default SQLite archive with the standard `sqlite3` module: what
`pbem check --game` needs (the game's ruleset and pace, its latest live turn's position), without SQLAlchemy and
sqlmodel, whose import alone is about 25 times a bare Python start.

It only reads, in one transaction (one snapshot of the archive: a writer's half-done step is never seen), and it
answers only where the archive itself would answer the same: whenever it cannot (no archive file yet, no such
game, a game without turns, an archive older than the columns it reads, a file that is not an archive) it says
None, and the caller goes through the archive (store.py), which makes, upgrades or explains as it always did.
Table and column names come from tables.py, which models.py takes them from too."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any, NamedTuple, TypeVar

from adjudicator.archive.tables import BOOLEANS, COLUMNS, GAME, LEAN_COLUMNS, TURN
from adjudicator.errors import PbemError

ARCHIVE_FILE = "archive.sqlite"  # the archive of a data folder (store.py, Archive.in_folder)
BUSY_SECONDS = 30  # as long as the archive waits for a writer (store.py, busy_timeout)
JOURNAL_VARIABLE = "PBEM_SQLITE_JOURNAL"  # the journal mode a SQLite archive is put in (store.py)
JOURNALS = ("wal", "delete")
T = TypeVar("T")


class ArchiveError(PbemError, LookupError):
    """What the archive cannot do or find (store.py and queries.py raise it, lean_mail.py too)."""


_GAME_QUERY = f"SELECT {', '.join(LEAN_COLUMNS[GAME])} FROM {GAME} WHERE name = ?"
# "= false" as the partial index states it (one_live_turn, queries.py says why): "= 0" walks and sorts every turn
_TURN_QUERY = (
    f"SELECT {', '.join(LEAN_COLUMNS[TURN])} FROM {TURN} WHERE game_id = ? AND superseded = false "
    "ORDER BY number DESC LIMIT 1"
)


class CurrentGame(NamedTuple):
    """What `pbem check --game` reads of a game: its ruleset, its pace and its current position (snapshot text). (A
    named tuple: making a frozen dataclass's methods cost the command four times as much.)"""

    name: str
    ruleset: str
    pace: str
    state_json: str


def current_game(folder: Path, name: str) -> CurrentGame | None:
    """The game `name` of the SQLite archive in data folder `folder`, or None when the archive must answer."""
    return read_only(folder, lambda connection: _read(connection, name))


def read_only(folder: Path, read: Callable[[sqlite3.Connection], T | None]) -> T | None:
    """`read(connection)` on the SQLite archive of data folder `folder`, opened read-only, all in one transaction
    (one snapshot of the archive); None when there is no archive file, or when it is not one or is older than the
    tables and columns read (store.py then upgrades or explains)."""
    path = folder / ARCHIVE_FILE
    if not path.is_file():
        return None
    try:
        connection = sqlite3.connect(
            f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=BUSY_SECONDS, isolation_level=None
        )
    except sqlite3.Error:
        return None
    try:
        connection.execute("BEGIN")
        return read(connection)
    except sqlite3.Error:
        return None
    finally:
        connection.close()


def _read(connection: sqlite3.Connection, name: str) -> CurrentGame | None:
    game = connection.execute(_GAME_QUERY, (name,)).fetchone()
    if game is None:
        return None
    game_id, _, ruleset, pace = game
    turn = connection.execute(_TURN_QUERY, (game_id,)).fetchone()
    if turn is None:
        return None
    return CurrentGame(name, ruleset, pace, turn[-1])


def read_rows(connection: sqlite3.Connection, table: str, where: str, parameters: tuple[Any, ...]) -> list[Any]:
    """The rows of `table` that `where` selects, each with the attributes of the archive's row (and its table's
    name, as the archive's row classes have it)."""
    columns, booleans = COLUMNS[table], BOOLEANS[table]
    quoted = ", ".join(f'"{column}"' for column in columns)
    found = []
    for values in connection.execute(f"SELECT {quoted} FROM {table} WHERE {where}", parameters):
        row = SimpleNamespace(**dict(zip(columns, values, strict=True)))
        for column in booleans:  # as SQLAlchemy's Boolean reads SQLite's 0/1
            value = getattr(row, column)
            setattr(row, column, None if value is None else bool(value))
        row.__tablename__ = table
        found.append(row)
    return found


def unknown_game(name: str, names: list[str]) -> str:
    """Why no game `name` is found, among the archive's games `names`."""
    known = f"; games in this archive: {', '.join(names)}" if names else "; the archive has no games"
    return f"unknown game {name!r}{known}"


def unknown_seat(seat: str, game: str, seats: list[str]) -> str:
    """Why `seat` is no seat of game `game`, whose seats are `seats`."""
    return f"{seat!r} is not a seat of game {game}; seats: {', '.join(seats)}"
