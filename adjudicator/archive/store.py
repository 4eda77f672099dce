"""Opening the archive. A SQLite file by default; PostgreSQL (or any SQLAlchemy URL) by option.

Concurrency: every operation that changes a game first takes that game's lock (`find_game(..., lock=True)`),
so two processes (an ingest and a tick, two ticks) never work on one game at once. On PostgreSQL the lock is
the game row's `SELECT ... FOR UPDATE`; on SQLite every transaction starts with `BEGIN IMMEDIATE`, which
takes the database's write lock at once, so writers queue (busy_timeout 30 s) instead of failing half-way.
Unique indexes (one Message-ID, one live turn per number, one current order set per seat and turn) back the
locks up: a race that slipped past them would fail and roll back rather than store a duplicate.

Journal: a SQLite archive keeps SQLite's rollback journal unless PBEM_SQLITE_JOURNAL=wal puts it in WAL mode, which
the file then keeps (=delete puts it back). A WAL commit waits for the disk once, not several times; commits stay
durable (synchronous=FULL). Its recent commits sit in archive.sqlite-wal until a checkpoint, so a copy of
archive.sqlite alone may lack them: `pbem backup` (Archive.backup) copies the archive whole at any time.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import event, inspect, literal, text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError, OperationalError, ProgrammingError
from sqlmodel import Session, SQLModel, create_engine

from adjudicator.archive import models  # noqa: F401 (its tables are the metadata that create_all makes)
from adjudicator.archive.lean import JOURNAL_VARIABLE, JOURNALS, ArchiveError
from adjudicator.archive.lean_mail import LeanArchive
from adjudicator.archive.models import PARTIAL_CONDITION


def database_url(url: str) -> str:
    """Accept the usual spellings of a PostgreSQL URL and use the psycopg (version 3) driver for them."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def sqlite_journal() -> str | None:
    """The journal mode asked for by PBEM_SQLITE_JOURNAL (None: the archive keeps the one it has)."""
    asked = os.environ.get(JOURNAL_VARIABLE, "").strip().lower()
    if not asked:
        return None
    if asked not in JOURNALS:
        raise ArchiveError(f"{JOURNAL_VARIABLE}={asked!r}: the SQLite journal is one of {', '.join(JOURNALS)}")
    return asked


def _sqlite_connect(journal: str | None) -> Callable[[Any, Any], None]:
    def connected(connection: Any, _record: Any) -> None:
        connection.isolation_level = None  # the driver's own BEGIN is replaced by _sqlite_begin's
        cursor = connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=30000")
        if journal is not None:
            # the mode is kept in the file; FULL makes a WAL commit durable too (NORMAL would not wait for the disk)
            cursor.execute(f"PRAGMA journal_mode={journal}")
            cursor.execute("PRAGMA synchronous=FULL")
        cursor.close()

    return connected


def _sqlite_begin(connection) -> None:  # type: ignore[no-untyped-def]
    connection.exec_driver_sql("BEGIN IMMEDIATE")


def _create_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        journal = sqlite_journal()  # a bad value is refused before the file is touched
        engine = create_engine(url)
        event.listen(engine, "connect", _sqlite_connect(journal))
        event.listen(engine, "begin", _sqlite_begin)
    elif url.startswith("postgresql"):
        engine = create_engine(url, pool_pre_ping=True)
    else:
        engine = create_engine(url)
    with_partial_conditions(engine.dialect.name)
    _create_tables(engine)
    return engine


def with_partial_conditions(dialect: str) -> None:
    """Give the partial indexes (models._unique_where) their condition for `dialect` (SQLite's is set already)."""
    if dialect == "sqlite":
        return
    for table in SQLModel.metadata.tables.values():
        for index in table.indexes:
            if PARTIAL_CONDITION in index.info:
                index.dialect_options[dialect]["where"] = text(index.info[PARTIAL_CONDITION])


def _create_tables(engine: Engine) -> None:
    """Create missing tables and columns. Two processes starting on a new PostgreSQL database may race here; the
    loser finds the tables made by the winner."""
    for attempt in range(3):
        try:
            SQLModel.metadata.create_all(engine)
            _add_missing_columns(engine)
            return
        except (IntegrityError, ProgrammingError, OperationalError):
            if attempt == 2:
                raise


def _add_missing_columns(engine: Engine) -> None:
    """An archive made by an earlier version lacks the columns and indexes added since (every new column has a
    default): add them, so that upgrading the tool keeps every game."""
    with engine.begin() as connection:
        inspector = inspect(connection)
        for table in SQLModel.metadata.sorted_tables:
            present = {column["name"] for column in inspector.get_columns(table.name)}
            for column in table.columns:
                if column.name in present:
                    continue
                default = column.default.arg if column.default is not None else None  # type: ignore[attr-defined]
                if default is None or callable(default):
                    raise ArchiveError(
                        f"the archive's table {table.name} lacks column {column.name}, which has no "
                        "default to fill it with"
                    )
                kind = column.type.compile(dialect=engine.dialect)
                value = literal(default).compile(dialect=engine.dialect, compile_kwargs={"literal_binds": True})
                connection.execute(
                    text(f"ALTER TABLE {table.name} ADD COLUMN {column.name} {kind} NOT NULL DEFAULT {value}")
                )
            indexes = {index["name"] for index in inspector.get_indexes(table.name)}
            for index in table.indexes:
                if index.name not in indexes:
                    try:
                        with connection.begin_nested():
                            index.create(connection)
                    except IntegrityError:
                        raise ArchiveError(
                            f"the archive's table {table.name} holds rows that break the rule of "
                            f"index {index.name}; repair them before using this version"
                        ) from None


_engines: dict[str, Engine] = {}


class Archive:
    """One archive database. Use `session()` for a unit of work that commits all or nothing.

    Archives of one URL share an engine (and its connection pool) within a process."""

    def __init__(self, url: str) -> None:
        self.url = database_url(url)
        if self.url not in _engines:
            try:
                _engines[self.url] = _create_engine(self.url)
            except OperationalError as down:
                raise ArchiveError(f"cannot open the archive database {url}: {down.orig}") from None
            except ModuleNotFoundError as missing:
                raise ArchiveError(f"the database driver for {url} is not installed ({missing.name})") from None
        self.engine: Engine = _engines[self.url]

    @classmethod
    def in_folder(cls, folder: Path) -> Archive:
        folder.mkdir(parents=True, exist_ok=True)
        return cls(f"sqlite:///{folder / 'archive.sqlite'}")

    @classmethod
    def open(cls, folder: Path, url: str | None) -> Archive:
        """The archive at `url`, or else the SQLite file in the data folder."""
        return cls(url) if url else cls.in_folder(folder)

    @property
    def backend(self) -> str:
        return self.engine.dialect.name

    def lean(self) -> LeanArchive | None:
        """This archive opened with the standard `sqlite3` module, when it is a SQLite file that the lean way can
        work on as the archive does (lean_mail.py); None otherwise."""
        path = self.engine.url.database if self.backend == "sqlite" else None
        return LeanArchive.at(Path(path)) if path and path != ":memory:" else None

    def close(self) -> None:
        """Close this URL's pooled connections (a later Archive of the URL opens new ones)."""
        close_archives(self.url)

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A transaction: committed when the block ends normally, rolled back on any exception."""
        with Session(self.engine, expire_on_commit=False) as session:
            try:
                yield session
                session.commit()
            except BaseException:
                session.rollback()
                raise

    def backup(self, dest: Path) -> int:
        """Copy a SQLite archive whole to the new file `dest` with SQLite's online backup, safe while other commands
        write it: the copy holds every commit, those still in the WAL file too, and is one file (rollback journal).
        It is made under a temporary name and renamed into place, so that `dest` never holds half a copy. Returns
        the number of games copied. A PostgreSQL archive is backed up with pg_dump."""
        if self.backend != "sqlite":
            raise ArchiveError(
                f"pbem backup copies a SQLite archive; this archive is on {self.backend}: back it up with its own "
                "tool, e.g. pg_dump -Fc -f pbem.dump DATABASE_URL"
            )
        source = self.engine.url.database
        if not source or source == ":memory:":
            raise ArchiveError("pbem backup copies an archive file; this archive is in memory")
        if dest.exists():
            raise ArchiveError(f"{dest} exists: name a new file for the backup (nothing was copied)")
        if not dest.parent.is_dir():
            raise ArchiveError(f"{dest.parent} is not a folder: make it first (nothing was copied)")
        if Path(source).resolve() == dest.resolve():
            raise ArchiveError(f"{dest} is the archive itself")
        partial = dest.with_name(f".{dest.name}.partial")
        partial.unlink(missing_ok=True)  # a backup that died half-way
        try:
            with closing(sqlite3.connect(source)) as live, closing(sqlite3.connect(partial)) as copy:
                live.execute("PRAGMA busy_timeout=30000")
                live.backup(copy)
                copy.execute("PRAGMA journal_mode=DELETE")  # the copy is one file, whatever the archive's mode
                (games,) = copy.execute("SELECT count(*) FROM game").fetchone()
            os.replace(partial, dest)
        except BaseException:
            partial.unlink(missing_ok=True)
            raise
        return int(games)

    def dump(self) -> list[tuple[str, tuple[object, ...]]]:
        """Every row of every table, in key order: to show that a refused command changed nothing."""
        rows = []
        with self.engine.connect() as connection:
            for table in SQLModel.metadata.sorted_tables:
                for row in connection.execute(table.select().order_by(*table.primary_key.columns)):
                    rows.append((table.name, tuple(row)))
        return rows


def close_archives(url: str | None = None) -> None:
    """Close the pooled connections of the archive at `url` (of every archive when None)."""
    for key in [database_url(url)] if url else list(_engines):
        engine = _engines.pop(key, None)
        if engine is not None:
            engine.dispose()
