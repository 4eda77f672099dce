"""Reading and writing the archive. A SQLite file by default; any SQLAlchemy URL by option."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlmodel import Session, SQLModel, create_engine, select

from adjudicator.archive.models import Decision, Game, Message, OrderSet, Outbox, Seat, Turn


class ArchiveError(LookupError):
    pass


def _sqlite_pragmas(connection, _record) -> None:  # type: ignore[no-untyped-def]
    cursor = connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.close()


class Archive:
    """One archive database. Use `session()` for a unit of work that commits all or nothing."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine: Engine = create_engine(url)
        if url.startswith("sqlite"):
            event.listen(self.engine, "connect", _sqlite_pragmas)
        SQLModel.metadata.create_all(self.engine)

    @classmethod
    def in_folder(cls, folder: Path) -> Archive:
        folder.mkdir(parents=True, exist_ok=True)
        return cls(f"sqlite:///{folder / 'archive.sqlite'}")

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


def find_game(session: Session, name: str) -> Game:
    game = session.exec(select(Game).where(Game.name == name)).first()
    if game is None:
        names = session.exec(select(Game.name)).all()
        known = f"; games in this archive: {', '.join(sorted(names))}" if names else "; the archive has no games"
        raise ArchiveError(f"unknown game {name!r}{known}")
    return game


def game_seats(session: Session, game: Game) -> list[Seat]:
    return list(session.exec(select(Seat).where(Seat.game_id == game.id)).all())


def find_seat(session: Session, game: Game, seat: str) -> Seat:
    row = session.exec(select(Seat).where(Seat.game_id == game.id, Seat.seat == seat)).first()
    if row is None:
        raise ArchiveError(f"{seat!r} is not a seat of game {game.name}; seats: "
                           f"{', '.join(s.seat for s in game_seats(session, game))}")
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
        select(OrderSet).where(OrderSet.game_id == game.id, OrderSet.turn == turn, OrderSet.seat == seat,
                               OrderSet.replaced == False)  # noqa: E712 (SQL comparison)
    ).first()


def store_orders(session: Session, game: Game, turn: int, seat: str, text: str, received: str,
                 source: str) -> bool:
    """Store an order set; returns True when it replaced an earlier set for the same seat and turn."""
    earlier = current_orders(session, game, turn, seat)
    if earlier is not None:
        earlier.replaced = True
        session.add(earlier)
    assert game.id is not None
    session.add(OrderSet(game_id=game.id, turn=turn, seat=seat, text=text, received=received, source=source))
    return earlier is not None


def decisions(session: Session, game: Game, turn: int) -> list[Decision]:
    return list(session.exec(select(Decision).where(Decision.game_id == game.id, Decision.turn == turn)
                             .order_by(Decision.id)).all())  # type: ignore[arg-type]


def queue_mail(session: Session, to: str, subject: str, body: str, created: str, game: str | None = None) -> Outbox:
    """Put a mail in the outbox (sent later by `pbem send`); the caller's transaction commits it."""
    row = Outbox(game=game, to=to, subject=subject, body=body, created=created)
    session.add(row)
    return row


def message_seen(session: Session, message_id: str) -> bool:
    return session.exec(select(Message).where(Message.message_id == message_id)).first() is not None
