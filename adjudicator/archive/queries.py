"""The archive's queries: small named functions that read and write its rows inside the caller's transaction
(`Archive.session()`); the services build no SQL themselves."""

from __future__ import annotations

from sqlmodel import Session, select

from adjudicator.archive.models import Decision, Game, Message, Observer, OrderSet, Outbox, Seat, Turn
from adjudicator.archive.store import ArchiveError


def find_game(session: Session, name: str, lock: bool = False) -> Game:
    """The game named `name`; with `lock`, also take the game's lock until the transaction ends."""
    query = select(Game).where(Game.name == name)
    game = session.exec(query.with_for_update() if lock else query).first()
    if game is None:
        names = game_names(session)
        known = f"; games in this archive: {', '.join(names)}" if names else "; the archive has no games"
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
    return find_message(session, message_id) is not None


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


def game_names(session: Session) -> list[str]:
    """The names of every game in the archive, in order."""
    return sorted(session.exec(select(Game.name)).all())


def game_named(session: Session, name: str) -> Game | None:
    return session.exec(select(Game).where(Game.name == name)).first()


def games_to_tick(session: Session) -> list[str]:
    """The names of the running games, but self-play games (the bot's: never ticked)."""
    running = select(Game).where(Game.status == "running", Game.selfplay == False)  # noqa: E712 (SQL)
    return [g.name for g in session.exec(running).all()]


def order_texts(session: Session, game: Game, turn: int, seat: str) -> list[str]:
    """The texts of every order set a seat sent for a turn, those replaced too."""
    query = select(OrderSet.text).where(OrderSet.game_id == game.id, OrderSet.seat == seat, OrderSet.turn == turn)
    return list(session.exec(query).all())


def order_sets_after(session: Session, game: Game, turn: int) -> list[OrderSet]:
    """The order sets stored for the turns after `turn`."""
    return list(session.exec(select(OrderSet).where(OrderSet.game_id == game.id, OrderSet.turn > turn)).all())


def decisions_after(session: Session, game: Game, turn: int) -> list[Decision]:
    """The decisions asked for the turns after `turn`."""
    return list(session.exec(select(Decision).where(Decision.game_id == game.id, Decision.turn > turn)).all())


def find_message(session: Session, message_id: str) -> Message | None:
    return session.exec(select(Message).where(Message.message_id == message_id)).first()


def last_order_mail(session: Session, game: Game, seat: str) -> Message | None:
    """The seat's latest order mail that was stored (a report answers it)."""
    query = select(Message).where(Message.game == game.name, Message.seat == seat, Message.outcome == "orders stored")
    return session.exec(query.order_by(Message.id.desc())).first()  # type: ignore[union-attr]
