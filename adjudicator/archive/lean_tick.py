"""The reads and writes of a tick's game (services/deadlines.py and what it calls) on the default SQLite archive with
the standard `sqlite3` module: SQLAlchemy's handling of a game's some 15 statements and its flush cost a tick more
CPU than SQLite took to run them. The services are the same code either way: queries.py's functions of the tick
hand a `LeanTickSession` to its method of the same name, and the session takes the archive session's `add`, `flush`,
`no_autoflush` and `info` as they are, so that the same rows are written in the same order
(tests/test_lean_tick.py holds every table's rows alike after ticks of the same games).

As the archive's session it keeps what the services change until the next query or the commit (autoflush), one
object per row read (its identity map), and writes a row read before when one of its values changed since (whether
or not it was added again), then the new rows, table by table in the order of tables.py, each in the order added.
A query it does not know (any other function of queries.py) steps aside: nothing is stored, and the tick takes that
game through the archive (`StepAside`, lean_mail.py)."""

from __future__ import annotations

import sqlite3
from collections.abc import Collection, Iterator
from contextlib import contextmanager
from functools import cache
from operator import attrgetter
from types import SimpleNamespace
from typing import Any

from adjudicator.archive.lean_mail import LeanSession, StepAside
from adjudicator.archive.tables import COLUMNS, DECISION, MESSAGE, OBSERVER, ORDER_SET, OUTBOX, TURN

# As queries.py: live turns and current order sets are read through their partial indexes only with "= false".
_LIVE = "game_id = ? AND superseded = false"
ORDERS_READ = "current orders read"  # info: (game id, first turn, (turn, seat) -> the current order set)
STATES_READ = "snapshot texts read"  # info: (game id, turn number) -> the snapshot text of that live turn


class LeanTickSession(LeanSession):
    """One tick transaction of a game on the default SQLite archive, the queries of queries.py that a tick makes
    (each without its session argument) and the archive session's unit of work."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        super().__init__(connection)
        self.info: dict[str, Any] = {}
        self._flushing = True  # before each query (the archive session's autoflush)
        self._new: list[Any] = []  # rows to insert, in the order added
        self._rows_read: dict[tuple[str, int], tuple[Any, tuple[Any, ...]]] = {}  # -> (row, its values as written)

    # -- the archive session's unit of work

    def add(self, row: Any) -> None:
        """Keep a row to write: a new one is inserted at the next flush; one read before is written when changed."""
        if row.id is None:
            if not any(row is new for new in self._new):
                self._new.append(row)
        elif (row.__tablename__, row.id) not in self._rows_read:
            raise StepAside(f"a {row.__tablename__} row not read in this transaction")

    def save(self, row: Any) -> None:
        self.add(row)

    @property
    @contextmanager
    def no_autoflush(self) -> Iterator[None]:
        """The queries of the block do not write first what the session holds (as the archive session's)."""
        kept, self._flushing = self._flushing, False
        try:
            yield
        finally:
            self._flushing = kept

    def flush(self) -> None:
        """Write the changed rows read before, then the new rows, table by table (as the archive's unit of work)."""
        changed = {key: (row, now) for key, (row, was) in self._rows_read.items() if (now := _values(row)) != was}
        new, self._new = self._new, []
        if not changed and not new:
            return
        for table, columns in COLUMNS.items():
            for (kind, row_id), (row, now) in sorted(changed.items()):
                if kind == table:
                    was = self._rows_read[(kind, row_id)][1]
                    names = [column for column, old, value in zip(columns, was, now, strict=True) if old != value]
                    settings = ", ".join(f'"{column}" = ?' for column in names)
                    values = [getattr(row, column) for column in names]
                    self.connection.execute(f"UPDATE {table} SET {settings} WHERE id = ?", (*values, row_id))
                    self._rows_read[(kind, row_id)] = (row, now)
            fields = columns[1:]  # every column but the id, which the insert gives
            for row in new:
                if row.__tablename__ == table:
                    values = [getattr(row, column) for column in fields]
                    row.id = self.connection.execute(_insert_statement(table), values).lastrowid
                    self._rows_read[(table, row.id)] = (row, _values(row))

    def _rows(self, table: str, where: str, parameters: tuple[Any, ...]) -> list[Any]:
        """The rows selected, written first what the session holds; a row read before is that same object."""
        self._autoflush_now()
        found = []
        for row in super()._rows(table, where, parameters):
            known = self._rows_read.get((table, row.id))
            if known is None:
                self._rows_read[(table, row.id)] = (row, _values(row))
            found.append(row if known is None else known[0])
        return found

    def _run(self, query: str, parameters: Collection[Any] = ()) -> sqlite3.Cursor:
        self._autoflush_now()
        return super()._run(query, parameters)

    def _autoflush_now(self) -> None:
        if self._flushing:
            self.flush()

    def _insert(self, table: str, fields: dict[str, Any]) -> Any:
        """A new row of `table`, inserted at the next flush (as the archive session's add)."""
        row = SimpleNamespace(id=None, **fields)
        row.__tablename__ = table
        self.add(row)
        return row

    def exec(self, *_: Any, **__: Any) -> Any:
        """Any other query of queries.py (through the archive session's exec or execute) is the archive's."""
        raise StepAside("a query the lean tick does not make")

    execute = get = delete = exec
    _autoflush = exec  # what queries.py's plain reads (_plain) ask of the archive's session first

    # -- the queries of a tick (queries.py's of the same names)

    def latest_state(self, game: Any) -> str:
        query = f"SELECT number, state_json FROM {TURN} WHERE {_LIVE} ORDER BY number DESC LIMIT 1"
        row = self._run(query, (game.id,)).fetchone()
        if row is None:
            raise StepAside(f"game {game.name} has no turns")  # the archive says so in its words
        number, text = row
        self.info.setdefault(STATES_READ, {})[(game.id, number)] = text
        return str(text)

    def turn_states(self, game: Any, numbers: Collection[int]) -> dict[int, str]:
        known = self.info.get(STATES_READ, {})
        found = {number: known[(game.id, number)] for number in numbers if (game.id, number) in known}
        if rest := [number for number in numbers if number not in found]:
            marks = ", ".join("?" for _ in rest)
            query = f"SELECT number, state_json FROM {TURN} WHERE {_LIVE} AND number IN ({marks})"
            found |= dict(self._run(query, (game.id, *rest)).fetchall())
        return found

    def turn_numbers(self, game: Any) -> list[int]:
        query = f"SELECT number FROM {TURN} WHERE {_LIVE} ORDER BY number"
        return [number for (number,) in self._run(query, (game.id,))]

    def turn_seats(self, game: Any) -> list[tuple[int, str | None]]:
        query = f"SELECT number, seat FROM {TURN} WHERE {_LIVE} ORDER BY number"
        return [(number, seat) for number, seat in self._run(query, (game.id,))]

    def turns(self, game: Any) -> list[Any]:
        return self._rows(TURN, f"{_LIVE} ORDER BY number", (game.id,))

    def turns_numbered(self, game: Any, numbers: Collection[int]) -> list[Any]:
        if not numbers:
            return []
        marks = ", ".join("?" for _ in numbers)
        return self._rows(TURN, f"{_LIVE} AND number IN ({marks}) ORDER BY number", (game.id, *numbers))

    def unmailed_turns(self, game: Any) -> list[Any]:
        first = f"SELECT min(number) FROM {TURN} WHERE {_LIVE}"
        query = f"SELECT number FROM {TURN} WHERE {_LIVE} AND number > ({first}) AND mailed = 0 ORDER BY number"
        return self.turns_numbered(game, [number for (number,) in self._run(query, (game.id, game.id))])

    def bot_seats(self, game: Any, numbers: Collection[int]) -> dict[int, list[str]]:
        if not numbers:
            return {}
        marks = ", ".join("?" for _ in numbers)
        query = (
            f"SELECT turn, seat FROM {ORDER_SET} WHERE game_id = ? AND turn IN ({marks}) AND source = 'bot'"
            " AND replaced = false ORDER BY turn, seat"
        )
        found: dict[int, list[str]] = {}
        for number, seat in self._run(query, (game.id, *sorted(numbers))):
            found.setdefault(number, []).append(seat)
        return found

    def read_current_orders(self, game: Any, turn: int) -> None:
        rows = self._rows(ORDER_SET, "game_id = ? AND turn >= ? AND replaced = false", (game.id, turn))
        self.info[ORDERS_READ] = (game.id, turn, {(row.turn, row.seat): row for row in rows})

    def current_orders(self, game: Any, turn: int, seat: str) -> Any | None:
        read = self.info.get(ORDERS_READ)
        if read is not None and read[0] == game.id and turn >= read[1]:
            return read[2].get((turn, seat))
        return super().current_orders(game, turn, seat)

    def store_orders(
        self, game: Any, turn: int, seat: str, text: str, received: str, source: str, *, current: bool = True
    ) -> bool:
        self.info.pop(ORDERS_READ, None)  # what read_current_orders read is no longer all there is
        # the earlier set stops being current before the new one is (unique index): a flush updates before it inserts
        return super().store_orders(game, turn, seat, text, received, source, current=current)

    def withdraw_orders(self, game: Any, turn: int, seat: str, text: str, received: str, source: str) -> bool:
        self.info.pop(ORDERS_READ, None)
        return super().withdraw_orders(game, turn, seat, text, received, source)

    def queue_mails(self, mails: list[dict[str, Any]]) -> None:
        if mails:
            self.flush()
            values = [[mail[column] for column in COLUMNS[OUTBOX][1:]] for mail in mails]
            self.connection.executemany(_insert_statement(OUTBOX), values)

    def observer_addresses(self, game: Any) -> list[tuple[str, str]]:
        query = f"SELECT email, language FROM {OBSERVER} WHERE game_id = ? AND confirmed = 1 ORDER BY id"
        return [(email, language) for email, language in self._run(query, (game.id,))]

    def last_order_mails(self, game: Any) -> dict[str, Any]:
        rows = self._rows(MESSAGE, f"id IN ({_LATEST_ORDER_MAILS})", (game.name, "orders stored"))
        return {row.seat: row for row in rows if row.seat is not None}

    def last_order_mail_ids(self, game: Any) -> dict[str, str]:
        query = f"SELECT seat, message_id FROM {MESSAGE} WHERE id IN ({_LATEST_ORDER_MAILS})"
        return {seat: found for seat, found in self._run(query, (game.name, "orders stored")) if seat is not None}

    def has_unanswered_decisions(self, game: Any) -> bool:
        query = f"SELECT id FROM {DECISION} WHERE game_id = ? AND answer IS NULL LIMIT 1"
        return self._run(query, (game.id,)).fetchone() is not None

    def has_unasked_decisions(self, game: Any) -> bool:
        query = f"SELECT id FROM {DECISION} WHERE game_id = ? AND answer IS NULL AND notified = 0 LIMIT 1"
        return self._run(query, (game.id,)).fetchone() is not None


_LATEST_ORDER_MAILS = f"SELECT max(id) FROM {MESSAGE} WHERE game = ? AND outcome = ? GROUP BY seat"


@cache
def _insert_statement(table: str) -> str:
    """The insert of a new row of `table` with every column but the id."""
    fields = COLUMNS[table][1:]
    quoted, marks = ", ".join(f'"{column}"' for column in fields), ", ".join("?" for _ in fields)
    return f"INSERT INTO {table} ({quoted}) VALUES ({marks})"


def _values(row: Any) -> tuple[Any, ...]:
    """Every column's value of a row, in the order of tables.py (compared at each flush: most find no change)."""
    return _COLUMNS_OF[row.__tablename__](row)  # type: ignore[no-any-return]


_COLUMNS_OF = {table: attrgetter(*columns) for table, columns in COLUMNS.items()}
