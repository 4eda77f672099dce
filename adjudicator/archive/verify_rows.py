"""The rows `pbem verify` reads of one game, read in one transaction: through the archive (sqlmodel), or from the
default SQLite archive with the standard `sqlite3` module, without SQLAlchemy, whose import is most of a verify's
start-up.

The lean way reads the same rows with the same SQL as queries.py and gives them as objects with the rows' attributes
(booleans as the archive gives them). It answers only where the archive would answer the same: when it cannot (no
archive file, no such game, a table or column missing from an archive made by an older version, a file that is no
archive) it says None, and the caller goes through the archive, which makes, upgrades or explains as it always did.
Table names come from tables.py; tests/test_verify_rows.py holds the columns below against models.py."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from adjudicator.archive.lean import read_only
from adjudicator.archive.tables import DECISION, GAME, MESSAGE, OBSERVER, ORDER_SET, OUTBOX, SEAT, TURN

if TYPE_CHECKING:
    from sqlmodel import Session

# The columns of each table read whole, and those of them that the archive gives as booleans (SQLite stores 0/1).
COLUMNS: dict[str, tuple[str, ...]] = {
    GAME: (
        *("id", "name", "ruleset", "pace", "seed", "commitment", "checkpoints", "status", "decisions"),
        *("decision_hours", "moderator", "deadline", "turn_hours", "reminder_hours", "check_sender"),
        *("anonymous_press", "nmr_alert", "paused", "created", "observers", "selfplay", "chain_head", "chain_turn"),
        *("game_data", "orders_hash_version", "bot_after"),
    ),
    SEAT: (
        *("id", "game_id", "seat", "email", "password_hash", "pending_password_hash", "language", "missed"),
        *("reminded_for", "timezone", "run_by_bot", "back_from_bot"),
    ),
    TURN: (
        *("id", "game_id", "number", "seat", "round", "orders_text", "orders_hash", "dice_source", "given_dice"),
        *("turn_key", "hidden_key", "hidden_dice_json", "orders_key", "state_json", "state_hash", "events_json"),
        *("results_json", "dice_json", "answers_json", "superseded", "mailed", "chain", "created"),
    ),
    ORDER_SET: ("id", "game_id", "turn", "seat", "text", "received", "replaced", "source"),
    DECISION: (
        *("id", "game_id", "turn", "seat", "key", "question", "default", "rule", "asked", "answer", "answered"),
        "notified",
    ),
    OBSERVER: ("id", "game_id", "email", "language", "since", "confirmed", "token_hash"),
}
BOOLEANS: dict[str, frozenset[str]] = {
    GAME: frozenset({"check_sender", "anonymous_press", "paused", "selfplay"}),
    SEAT: frozenset({"run_by_bot", "back_from_bot"}),
    TURN: frozenset({"superseded", "mailed"}),
    ORDER_SET: frozenset({"replaced"}),
    DECISION: frozenset({"notified"}),
    OBSERVER: frozenset({"confirmed"}),
}


@dataclass
class GameRows:
    """What verify reads of a game (services/verification.py, verify_published.py)."""

    game: Any  # GameRow, or its lean likeness
    turns: list[Any]  # the live turns in order
    seats: list[Any]  # in order of their rows
    decisions: list[Any]  # every decision asked
    withdrawn: set[tuple[int, str]]  # (number, chain) of the turns a roll-back withdrew, with a chain
    observers: list[Any]  # the confirmed ones
    order_sets: dict[tuple[int, str], Any]  # (turn, seat) -> the current order set
    order_mails: list[tuple[str | None, str]]  # (seat, received) of the mails that stored orders
    mails: list[tuple[int, str, str]]  # (id, to, body) of the game's mails, queued and sent


def orm_rows(session: Session, name: str) -> GameRows:
    """The game's rows through the archive (an unknown game is its ArchiveError)."""
    from sqlmodel import select

    from adjudicator.archive import queries as db
    from adjudicator.archive.models import MessageRow, OrderSetRow, OutboxRow, TurnRow

    game = db.find_game(session, name)
    withdrawn = select(TurnRow.number, TurnRow.chain).where(TurnRow.game_id == game.id, TurnRow.superseded == True)  # noqa: E712
    current = select(OrderSetRow).where(OrderSetRow.game_id == game.id, OrderSetRow.replaced == False)  # noqa: E712
    mails = select(MessageRow.seat, MessageRow.received).where(
        MessageRow.game == name, MessageRow.outcome == "orders stored"
    )
    outbox = select(OutboxRow.id, OutboxRow.to, OutboxRow.body).where(OutboxRow.game == name)
    return GameRows(
        game,
        db.turns(session, game),
        db.game_seats(session, game),
        db.decisions_after(session, game, -1),
        {(number, chain) for number, chain in session.exec(withdrawn).all() if chain},
        db.observers(session, game),
        {(row.turn, row.seat): row for row in session.exec(current).all()},
        [(seat, received) for seat, received in session.exec(mails).all()],
        [(int(i or 0), to, body) for i, to, body in session.exec(outbox.order_by(OutboxRow.id)).all()],  # type: ignore[arg-type]
    )


def lean_rows(folder: Path, name: str) -> GameRows | None:
    """The game's rows from the SQLite archive of data folder `folder`, or None when the archive must answer."""
    return read_only(folder, lambda connection: _read(connection, name))


def _read(connection: sqlite3.Connection, name: str) -> GameRows | None:
    for table, columns in COLUMNS.items():  # an archive of an older version lacks some: the archive adds them
        have = {row[1] for row in connection.execute(f"PRAGMA table_info({table})")}
        if not set(columns) <= have:
            return None
    games = _rows(connection, GAME, "name = ?", (name,))
    if not games:
        return None  # the archive names the games it has
    game = games[0]
    key = (game.id,)
    return GameRows(
        game,
        _rows(connection, TURN, "game_id = ? AND superseded = 0 ORDER BY number", key),
        _rows(connection, SEAT, "game_id = ? ORDER BY id", key),
        _rows(connection, DECISION, "game_id = ? AND turn > -1", key),
        {
            (number, chain)
            for number, chain in connection.execute(
                f"SELECT number, chain FROM {TURN} WHERE game_id = ? AND superseded = 1", key
            )
            if chain
        },
        _rows(connection, OBSERVER, "game_id = ? AND confirmed = 1 ORDER BY id", key),
        {(row.turn, row.seat): row for row in _rows(connection, ORDER_SET, "game_id = ? AND replaced = 0", key)},
        list(
            connection.execute(
                f"SELECT seat, received FROM {MESSAGE} WHERE game = ? AND outcome = 'orders stored'", (name,)
            )
        ),
        [
            (int(i or 0), to, body)
            for i, to, body in connection.execute(
                f'SELECT id, "to", body FROM {OUTBOX} WHERE game = ? ORDER BY id', (name,)
            )
        ],
    )


def _rows(connection: sqlite3.Connection, table: str, where: str, parameters: tuple[Any, ...]) -> list[Any]:
    """The rows of `table` that `where` selects, each with the attributes of the archive's row."""
    columns, booleans = COLUMNS[table], BOOLEANS[table]
    quoted = ", ".join(f'"{column}"' for column in columns)
    found = []
    for values in connection.execute(f"SELECT {quoted} FROM {table} WHERE {where}", parameters):
        row = SimpleNamespace(**dict(zip(columns, values, strict=True)))
        for column in booleans:  # as SQLAlchemy's Boolean reads SQLite's 0/1
            value = getattr(row, column)
            setattr(row, column, None if value is None else bool(value))
        found.append(row)
    return found
