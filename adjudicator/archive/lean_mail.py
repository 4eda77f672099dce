"""The reads and writes that the handling of an order mail makes (services/mailbox.py, notices.py, floods.py, the
order set and answers of orders.py), in two ways: through the archive's session (queries.py, sqlmodel), or on the
default SQLite archive with the standard `sqlite3` module (`LeanArchive`), without SQLAlchemy and sqlmodel, whose
import is most of a one-shot `pbem ingest`. `queries_for(session)` gives the one or the other; the mail handling is
the same code either way, so its receipts, answers and stored rows are the same.

The lean way writes what the archive writes, in the same order and in one transaction begun as the archive begins
its own on SQLite (BEGIN IMMEDIATE: the write lock at once), with the archive's connection settings. It only works on
an archive that is whole: whenever it cannot be sure to do what the archive would do (no archive file, a table,
column or index missing, a journal mode it does not know, any SQLite error) it steps aside (`StepAside`, or None from
`LeanArchive.open`) with nothing stored, and the caller goes through the archive, which makes, upgrades or explains
as it always did."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Collection, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from adjudicator.archive.lean import (
    ARCHIVE_FILE,
    BUSY_SECONDS,
    JOURNAL_VARIABLE,
    JOURNALS,
    ArchiveError,
    read_rows,
    unknown_game,
    unknown_seat,
)
from adjudicator.archive.tables import (
    COLUMNS,
    DECISION,
    GAME,
    INDEXES,
    MESSAGE,
    OBSERVER,
    ORDER_SET,
    OUTBOX,
    SEAT,
    TURN,
)

if TYPE_CHECKING:
    from sqlmodel import Session

# The columns of a new message row that the mail handling fills in later (models.MessageRow's defaults).
MESSAGE_DEFAULTS: dict[str, Any] = {"game": None, "seat": None, "outcome": ""}


def mail_fields(
    to: str,
    subject: str,
    body: str,
    created: str,
    game: str | None = None,
    html: str = "",
    map_svg: str = "",
    in_reply_to: str = "",
    thread: str = "",
    secret: str = "",
    map_turn: tuple[str, str] | None = None,
    record_turn: str = "",
) -> dict[str, Any]:
    """Every field of the outbox row queue_mail stores for these arguments (queue_mails stores them). `map_turn`:
    the chain head of the turn whose map the mail carries and the map's language, drawn when the mail is sent (a turn
    without a chain head, of an older archive, gives its map drawn as `map_svg`). `record_turn`: the chain head of
    the last turn of the game's record the mail carries, made when it is sent."""
    return {
        "game": game,
        "to": to,
        "subject": subject,
        "body": body,
        "html": html,
        "map_svg": map_svg,
        "created": created,
        "sent": None,
        "attempts": 0,
        "error": "",
        "secret": secret,
        "in_reply_to": in_reply_to,
        "thread": thread,
        "map_turn": map_turn[0] if map_turn else "",
        "map_language": map_turn[1] if map_turn else "",
        "record_turn": record_turn,
    }


class StepAside(Exception):
    """The lean way cannot answer as the archive would (a SQLite error, a game without turns): nothing was stored,
    and the caller goes through the archive."""


class LeanArchive:
    """The default SQLite archive of a data folder, read and written with `sqlite3`, one transaction at a time."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self.connection = connection

    @classmethod
    def open(cls, folder: Path) -> LeanArchive | None:
        """The archive of data folder `folder` with the archive's connection settings (store.py), or None when the
        archive must open it: no archive file, an unknown PBEM_SQLITE_JOURNAL, or an archive lacking a table, column
        or index (made by an older version: the archive upgrades it), or no archive at all."""
        return cls.at(folder / ARCHIVE_FILE)

    @classmethod
    def at(cls, path: Path) -> LeanArchive | None:
        """The SQLite archive file `path`, as open() opens a data folder's."""
        journal = os.environ.get(JOURNAL_VARIABLE, "").strip().lower()
        if not path.is_file() or (journal and journal not in JOURNALS):
            return None
        try:
            connection = sqlite3.connect(path, timeout=BUSY_SECONDS, isolation_level=None)
        except sqlite3.Error:
            return None
        try:
            connection.execute("PRAGMA foreign_keys=ON")
            connection.execute(f"PRAGMA busy_timeout={BUSY_SECONDS * 1000}")
            if journal:
                connection.execute(f"PRAGMA journal_mode={journal}")
                connection.execute("PRAGMA synchronous=FULL")
            if _whole(connection):
                return cls(connection)
        except sqlite3.Error:
            pass
        connection.close()
        return None

    @contextmanager
    def session(self, kind: type[LeanSession] | None = None) -> Iterator[Any]:
        """A transaction, as Archive.session(): committed when the block ends normally (what the session holds
        unwritten written first), rolled back on any exception; a SQLite error is StepAside. `kind`: the session's
        class (LeanSession, the queries of mail handling, by default)."""
        connection = self.connection
        try:
            connection.execute("BEGIN IMMEDIATE")
            session = (kind or LeanSession)(connection)
            yield session
            session.flush()
            self.commit()
        except BaseException as problem:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            if isinstance(problem, sqlite3.Error):
                raise StepAside(str(problem)) from problem
            raise

    def commit(self) -> None:
        self.connection.execute("COMMIT")

    def close(self) -> None:
        self.connection.close()


def _whole(connection: sqlite3.Connection) -> bool:
    """Whether the archive has every table, column and index of this version."""
    for table, columns in COLUMNS.items():
        have = {row[1] for row in connection.execute(f"PRAGMA table_info({table})")}
        indexes = {row[1] for row in connection.execute(f"PRAGMA index_list({table})")}
        if not set(columns) <= have or not INDEXES[table] <= indexes:
            return False
    return True


class LeanSession:
    """The queries of mail handling inside one transaction of a LeanArchive: each does what the function of the same
    name in queries.py does (without its session argument; tests/test_lean_ingest.py holds the signatures alike),
    and rows are plain objects with the archive rows' attributes. Rows are written when stored or saved, so that a
    later query of the transaction reads them, as the archive's session flushes before each query."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self.connection = connection

    def _rows(self, table: str, where: str, parameters: tuple[Any, ...]) -> list[Any]:
        """The rows of `table` that `where` selects (lean.read_rows)."""
        return read_rows(self.connection, table, where, parameters)

    def _run(self, query: str, parameters: Collection[Any] = ()) -> sqlite3.Cursor:
        """A statement's cursor."""
        return self.connection.execute(query, parameters)  # type: ignore[arg-type]

    def flush(self) -> None:
        """Nothing: this session writes each row when it is stored or saved."""

    def find_game(self, name: str, lock: bool = False) -> Any:
        # `lock` needs nothing more on SQLite: the transaction holds the write lock since it began
        found = self._rows(GAME, "name = ?", (name,))
        if not found:
            names = sorted(name for (name,) in self._run(f"SELECT name FROM {GAME}"))
            raise ArchiveError(unknown_game(name, names))
        return found[0]

    def game_seats(self, game: Any) -> list[Any]:
        return self._rows(SEAT, "game_id = ? ORDER BY id", (game.id,))

    def find_seat(self, game: Any, seat: str) -> Any:
        found = self._rows(SEAT, "game_id = ? AND seat = ?", (game.id, seat))
        if not found:
            raise ArchiveError(unknown_seat(seat, game.name, [s.seat for s in self.game_seats(game)]))
        return found[0]

    def latest_turn(self, game: Any) -> Any:
        # "= false" as the partial index one_live_turn states it (queries.py says why)
        found = self._rows(TURN, "game_id = ? AND superseded = false ORDER BY number DESC LIMIT 1", (game.id,))
        if not found:
            raise StepAside(f"game {game.name} has no turns")  # the archive says so in its words
        return found[0]

    def latest_state(self, game: Any) -> str:
        return str(self.latest_turn(game).state_json)

    def find_message(self, message_id: str) -> Any | None:
        found = self._rows(MESSAGE, "message_id = ?", (message_id,))
        return found[0] if found else None

    def message_seen(self, message_id: str) -> bool:
        return self.find_message(message_id) is not None

    def games_of_address(self, address: str) -> list[str]:
        wanted = address.lower()  # compared in Python, as queries.py compares
        registered = self._run(
            f"SELECT name, moderator FROM {GAME} "
            f"UNION ALL SELECT {GAME}.name, {SEAT}.email FROM {GAME} JOIN {SEAT} ON {SEAT}.game_id = {GAME}.id "
            f"UNION ALL SELECT {GAME}.name, {OBSERVER}.email FROM {GAME} "
            f"JOIN {OBSERVER} ON {OBSERVER}.game_id = {GAME}.id WHERE {OBSERVER}.confirmed = 1"
        )
        return sorted({name for name, email in registered if email.lower() == wanted})

    def queue_mail(self, *mail: Any, **fields: Any) -> Any:
        """queries.queue_mail: its arguments are those of mail_fields."""
        return self._insert(OUTBOX, mail_fields(*mail, **fields))

    def observers(self, game: Any) -> list[Any]:
        return self._rows(OBSERVER, "game_id = ? AND confirmed = 1 ORDER BY id", (game.id,))

    def order_texts(self, game: Any, turn: int, seat: str) -> list[str]:
        query = f"SELECT text FROM {ORDER_SET} WHERE game_id = ? AND seat = ? AND turn = ?"
        return [text for (text,) in self._run(query, (game.id, seat, turn))]

    def decisions(self, game: Any, turn: int) -> list[Any]:
        return self._rows(DECISION, "game_id = ? AND turn = ? ORDER BY id", (game.id, turn))

    def current_orders(self, game: Any, turn: int, seat: str) -> Any | None:
        where = "game_id = ? AND turn = ? AND seat = ? AND replaced = false"  # as the index one_current_order_set
        found = self._rows(ORDER_SET, where, (game.id, turn, seat))
        return found[0] if found else None

    def store_orders(
        self, game: Any, turn: int, seat: str, text: str, received: str, source: str, *, current: bool = True
    ) -> bool:
        earlier = self.current_orders(game, turn, seat) if current else None
        if earlier is not None:
            earlier.replaced = True
            self.save(earlier)  # the earlier set stops being current before the new one is (unique index)
        fields = {"game_id": game.id, "turn": turn, "seat": seat, "text": text, "received": received}
        self._insert(ORDER_SET, {**fields, "replaced": not current, "source": source})
        return earlier is not None

    def withdraw_orders(self, game: Any, turn: int, seat: str, text: str, received: str, source: str) -> bool:
        earlier = self.current_orders(game, turn, seat)
        if earlier is not None:
            earlier.replaced = True
            self.save(earlier)
        self.store_orders(game, turn, seat, text, received, source, current=False)
        return earlier is not None

    def recent_outcomes(
        self, since: str, *, sender: str | None = None, game: str | None = None, seat: str | None = None
    ) -> list[str]:
        where, values = ["received >= ?"], [since]
        for column, value in (("sender", None if sender is None else sender.lower()), ("game", game), ("seat", seat)):
            if value is not None:
                where.append(f"{column} = ?")
                values.append(value)
        query = f"SELECT outcome FROM {MESSAGE} WHERE {' AND '.join(where)}"
        return [outcome for (outcome,) in self._run(query, values)]

    def recent_mails_to(self, to: str, since: str, subjects: Collection[str], containing: str | None = None) -> int:
        # the SQL SQLAlchemy writes for queries.py's query (LIKE, as its endswith and contains)
        ends = " OR ".join("(subject LIKE '%' || ?)" for _ in subjects)
        query = f'SELECT count(*) FROM {OUTBOX} WHERE lower("to") = ? AND created >= ? AND ({ends})'
        values = [to.lower(), since, *subjects]
        if containing is not None:
            query += " AND (body LIKE '%' || ? || '%')"
            values.append(containing)
        (count,) = self._run(query, values).fetchone()
        return int(count)

    def new_message(self, **fields: Any) -> Any:
        """A received mail's row (models.MessageRow), stored."""
        return self._insert(MESSAGE, {**MESSAGE_DEFAULTS, **fields})

    def save(self, row: Any) -> None:
        """Write a row read or stored before with the values it has now (the archive's session.add)."""
        table = row.__tablename__
        columns = [column for column in COLUMNS[table] if column != "id"]
        settings = ", ".join(f'"{column}" = ?' for column in columns)
        values = [getattr(row, column) for column in columns]
        self._run(f"UPDATE {table} SET {settings} WHERE id = ?", (*values, row.id))

    def _insert(self, table: str, fields: dict[str, Any]) -> Any:
        """Store a new row of `table` with `fields` (every column but the id); the row with its id."""
        columns = [column for column in COLUMNS[table] if column != "id"]
        quoted, marks = ", ".join(f'"{column}"' for column in columns), ", ".join("?" for _ in columns)
        stored = self._run(f"INSERT INTO {table} ({quoted}) VALUES ({marks})", [fields[column] for column in columns])
        row = SimpleNamespace(id=stored.lastrowid, **fields)
        row.__tablename__ = table
        return row


class ArchiveQueries:
    """The same queries through the archive's session: the functions of queries.py with the session given."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def __getattr__(self, name: str) -> Any:
        from adjudicator.archive import queries

        return partial(getattr(queries, name), self.session)

    def new_message(self, **fields: Any) -> Any:
        from adjudicator.archive.models import MessageRow

        row = MessageRow(**fields)
        self.session.add(row)
        return row

    def save(self, row: Any) -> None:
        self.session.add(row)


def queries_for(session: Session | LeanSession) -> LeanSession | ArchiveQueries:
    """The queries of mail handling in the transaction `session` of either way."""
    return session if isinstance(session, LeanSession) else ArchiveQueries(session)


def conflicts(archive: object) -> tuple[type[BaseException], ...]:
    """The errors of a commit that a unique index refused (another process stored the same mail first): the
    archive's IntegrityError; none in the lean way, where any SQLite error steps aside to the archive."""
    if isinstance(archive, LeanArchive):
        return ()
    from sqlalchemy.exc import IntegrityError

    return (IntegrityError,)
