"""Reading and writing the archive. A SQLite file by default; PostgreSQL (or any SQLAlchemy URL) by option.

Concurrency: every operation that changes a game first takes that game's lock (`find_game(..., lock=True)`),
so two processes (an ingest and a tick, two ticks) never work on one game at once. On PostgreSQL the lock is
the game row's `SELECT ... FOR UPDATE`; on SQLite every transaction starts with `BEGIN IMMEDIATE`, which
takes the database's write lock at once, so writers queue (busy_timeout 30 s) instead of failing half-way.
Unique indexes (one Message-ID, one live turn per number, one current order set per seat and turn) back the
locks up: a race that slipped past them would fail and roll back rather than store a duplicate.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import event, inspect, literal, text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError, OperationalError, ProgrammingError
from sqlmodel import Session, SQLModel, create_engine, select

from adjudicator.archive.models import Decision, Game, Message, Observer, OrderSet, Outbox, Seat, Turn
from adjudicator.errors import PbemError


class ArchiveError(PbemError, LookupError):
    pass


def database_url(url: str) -> str:
    """Accept the usual spellings of a PostgreSQL URL and use the psycopg (version 3) driver for them."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def _sqlite_connect(connection, _record) -> None:  # type: ignore[no-untyped-def]
    connection.isolation_level = None  # the driver's own BEGIN is replaced by _sqlite_begin's
    cursor = connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.close()


def _sqlite_begin(connection) -> None:  # type: ignore[no-untyped-def]
    connection.exec_driver_sql("BEGIN IMMEDIATE")


def _create_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        engine = create_engine(url)
        event.listen(engine, "connect", _sqlite_connect)
        event.listen(engine, "begin", _sqlite_begin)
    elif url.startswith("postgresql"):
        engine = create_engine(url, pool_pre_ping=True)
    else:
        engine = create_engine(url)
    _create_tables(engine)
    return engine


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


def find_game(session: Session, name: str, lock: bool = False) -> Game:
    """The game named `name`; with `lock`, also take the game's lock until the transaction ends."""
    query = select(Game).where(Game.name == name)
    game = session.exec(query.with_for_update() if lock else query).first()
    if game is None:
        names = session.exec(select(Game.name)).all()
        known = f"; games in this archive: {', '.join(sorted(names))}" if names else "; the archive has no games"
        raise ArchiveError(f"unknown game {name!r}{known}")
    return game


def game_seats(session: Session, game: Game) -> list[Seat]:
    return list(session.exec(select(Seat).where(Seat.game_id == game.id).order_by(Seat.id)).all())  # type: ignore[arg-type]


def find_seat(session: Session, game: Game, seat: str) -> Seat:
    row = session.exec(select(Seat).where(Seat.game_id == game.id, Seat.seat == seat)).first()
    if row is None:
        raise ArchiveError(
            f"{seat!r} is not a seat of game {game.name}; seats: {', '.join(s.seat for s in game_seats(session, game))}"
        )
    return row


def _live(game: Game):  # type: ignore[no-untyped-def]
    return select(Turn).where(Turn.game_id == game.id, Turn.superseded == False)  # noqa: E712 (SQL)


def turns(session: Session, game: Game) -> list[Turn]:
    """The game's turns in order (without those withdrawn by a roll-back)."""
    return list(session.exec(_live(game).order_by(Turn.number)).all())


def latest_turn(session: Session, game: Game) -> Turn:
    row = session.exec(_live(game).order_by(Turn.number.desc())).first()  # type: ignore[attr-defined]
    if row is None:
        raise ArchiveError(f"game {game.name} has no turns stored")
    return row


def get_turn(session: Session, game: Game, number: int) -> Turn:
    row = session.exec(_live(game).where(Turn.number == number)).first()
    if row is None:
        raise ArchiveError(f"game {game.name} has no turn {number}")
    return row


def current_orders(session: Session, game: Game, turn: int, seat: str) -> OrderSet | None:
    return session.exec(
        select(OrderSet).where(
            OrderSet.game_id == game.id,
            OrderSet.turn == turn,
            OrderSet.seat == seat,
            OrderSet.replaced == False,  # noqa: E712 (SQL comparison)
        )
    ).first()


def store_orders(session: Session, game: Game, turn: int, seat: str, text: str, received: str, source: str) -> bool:
    """Store an order set; returns True when it replaced an earlier set for the same seat and turn."""
    earlier = current_orders(session, game, turn, seat)
    if earlier is not None:
        earlier.replaced = True
        session.add(earlier)
        session.flush()  # the earlier set stops being current before the new one is (unique index)
    assert game.id is not None
    session.add(OrderSet(game_id=game.id, turn=turn, seat=seat, text=text, received=received, source=source))
    return earlier is not None


def decisions(session: Session, game: Game, turn: int) -> list[Decision]:
    return list(
        session.exec(
            select(Decision).where(Decision.game_id == game.id, Decision.turn == turn).order_by(Decision.id)
        ).all()
    )  # type: ignore[arg-type]


def queue_mail(
    session: Session,
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
) -> Outbox:
    """Put a mail in the outbox (sent later by `pbem send`); the caller's transaction commits it. `in_reply_to`
    and `thread` (the References: Message-IDs) thread it with the player's mail. `secret`: a password the body
    carries (welcome, reset), which `pbem send` removes from the stored body once the mail is delivered."""
    row = Outbox(
        game=game,
        to=to,
        subject=subject,
        body=body,
        html=html,
        map_svg=map_svg,
        created=created,
        in_reply_to=in_reply_to,
        thread=thread,
        secret=secret,
    )
    session.add(row)
    return row


def message_seen(session: Session, message_id: str) -> bool:
    return session.exec(select(Message).where(Message.message_id == message_id)).first() is not None


def observers(session: Session, game: Game) -> list[Observer]:
    """The confirmed observers of a game (those who get its public reports)."""
    query = select(Observer).where(Observer.game_id == game.id, Observer.confirmed == True)  # noqa: E712 (SQL)
    return list(session.exec(query.order_by(Observer.id)).all())  # type: ignore[arg-type]


def observer(session: Session, game: Game, address: str) -> Observer | None:
    """The observer row of `address` in a game, confirmed or pending."""
    return session.exec(select(Observer).where(Observer.game_id == game.id, Observer.email == address.lower())).first()


def games_of_address(session: Session, address: str) -> list[str]:
    """The games in which `address` is registered: as a seat's player, a confirmed observer or the moderator."""
    wanted = address.lower()
    found = {g.name for g in session.exec(select(Game)).all() if g.moderator.lower() == wanted}
    seats = session.exec(select(Game.name, Seat.email).join(Seat, Seat.game_id == Game.id)).all()  # type: ignore[arg-type]
    found |= {name for name, email in seats if email.lower() == wanted}
    watching = session.exec(
        select(Game.name, Observer.email)
        .join(Observer, Observer.game_id == Game.id)  # type: ignore[arg-type]
        .where(Observer.confirmed == True)  # noqa: E712 (SQL); a pending one is nobody
    ).all()
    found |= {name for name, email in watching if email.lower() == wanted}
    return sorted(found)


def messages(session: Session, game: str | None = None, limit: int = 50) -> list[Message]:
    """The latest stored messages (of one game, or of all and of none), newest last: the moderator's log."""
    query = select(Message)
    if game is not None:
        query = query.where(Message.game == game)
    rows = session.exec(query.order_by(Message.id.desc()).limit(limit)).all()  # type: ignore[union-attr]
    return list(reversed(rows))
