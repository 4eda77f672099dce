"""The archive's queries: small named functions that read and write its rows inside the caller's transaction
(`Archive.session()`); the services build no SQL themselves."""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from functools import cache, wraps
from typing import Any, TypeVar

from sqlalchemy import Boolean, bindparam, func, insert, literal_column, or_
from sqlmodel import Session, col, select

from adjudicator.archive.lean import unknown_game, unknown_seat
from adjudicator.archive.lean_mail import LeanSession, mail_fields
from adjudicator.archive.models import (
    DecisionRow,
    GameRow,
    MessageRow,
    ObserverRow,
    OrderSetRow,
    OutboxRow,
    SeatRow,
    TurnRow,
)
from adjudicator.archive.store import ArchiveError

# The statements of the queries a tick makes for every game are built once per process, with bound parameters:
# building a statement and its cache key cost SQLAlchemy about as much as running it on SQLite.

# SQLite reads through a partial index (one live turn, one current order set: models._unique_where) only when the
# query states the index's condition as the index does, "= false"; SQLAlchemy writes False as 0 for SQLite, which
# leaves it to walk every turn of the game, the long snapshot texts of each included, and to sort them.
_LIVE_TURN = TurnRow.superseded == literal_column("false", Boolean())
_CURRENT_ORDERS = OrderSetRow.replaced == literal_column("false", Boolean())


@cache
def _game_named(lock: bool) -> Any:
    query = select(GameRow).where(GameRow.name == bindparam("name"))
    return query.with_for_update() if lock else query


@cache
def _seats_of() -> Any:
    return select(SeatRow).where(SeatRow.game_id == bindparam("game")).order_by(SeatRow.id)  # type: ignore[arg-type]


@cache
def _seat_named() -> Any:
    return select(SeatRow).where(SeatRow.game_id == bindparam("game"), SeatRow.seat == bindparam("seat"))


@cache
def _live_turns() -> Any:
    return select(TurnRow).where(TurnRow.game_id == bindparam("game"), _LIVE_TURN)


@cache
def _turns_numbered() -> Any:
    numbers = TurnRow.number.in_(bindparam("numbers", expanding=True))  # type: ignore[attr-defined]
    return _live_turns().where(numbers).order_by(TurnRow.number)


@cache
def _turn_states() -> Any:
    numbers = TurnRow.number.in_(bindparam("numbers", expanding=True))  # type: ignore[attr-defined]
    live = (TurnRow.game_id == bindparam("game"), _LIVE_TURN)
    return select(TurnRow.number, TurnRow.state_json).where(*live, numbers)


@cache
def _unmailed_turns() -> Any:
    first = select(func.min(TurnRow.number)).where(TurnRow.game_id == bindparam("game"), _LIVE_TURN)
    return _turn_numbers().where(TurnRow.number > first.scalar_subquery(), TurnRow.mailed == False)  # noqa: E712 (SQL)


@cache
def _latest_turn() -> Any:
    return _live_turns().order_by(TurnRow.number.desc()).limit(1)  # type: ignore[attr-defined]


@cache
def _latest_state() -> Any:
    live = (TurnRow.game_id == bindparam("game"), _LIVE_TURN)
    return select(TurnRow.number, TurnRow.state_json).where(*live).order_by(TurnRow.number.desc()).limit(1)  # type: ignore[attr-defined]


@cache
def _turn_numbers() -> Any:
    query = select(TurnRow.number).where(TurnRow.game_id == bindparam("game"), _LIVE_TURN)
    return query.order_by(TurnRow.number)


@cache
def _current_orders() -> Any:
    return select(OrderSetRow).where(
        OrderSetRow.game_id == bindparam("game"),
        OrderSetRow.turn == bindparam("turn"),
        OrderSetRow.seat == bindparam("seat"),
        _CURRENT_ORDERS,
    )


@cache
def _decisions_of_turn() -> Any:
    query = select(DecisionRow).where(DecisionRow.game_id == bindparam("game"), DecisionRow.turn == bindparam("turn"))
    return query.order_by(DecisionRow.id)  # type: ignore[arg-type]


@cache
def _observers(addresses_only: bool = False) -> Any:
    chosen = select(ObserverRow.email, ObserverRow.language) if addresses_only else select(ObserverRow)
    query = chosen.where(ObserverRow.game_id == bindparam("game"), ObserverRow.confirmed == True)  # noqa: E712 (SQL)
    return query.order_by(ObserverRow.id)  # type: ignore[arg-type]


@cache
def _unanswered(unasked: bool) -> Any:
    query = select(DecisionRow.id).where(DecisionRow.game_id == bindparam("game"), DecisionRow.answer == None)  # noqa: E711 (SQL)
    return (query.where(DecisionRow.notified == False) if unasked else query).limit(1)  # noqa: E712 (SQL)


@cache
def _last_order_mails(ids_only: bool = False) -> Any:
    stored = (MessageRow.game == bindparam("game"), MessageRow.outcome == "orders stored")
    latest = select(func.max(MessageRow.id)).where(*stored).group_by(MessageRow.seat)
    chosen = select(MessageRow.seat, MessageRow.message_id) if ids_only else select(MessageRow)
    return chosen.where(MessageRow.id.in_(latest))  # type: ignore[union-attr]


F = TypeVar("F", bound=Callable[..., Any])


def _lean_too(query: F) -> F:
    """A query of a tick that its lean session (lean_tick.py, on the default SQLite archive) makes itself: given one,
    the function hands it to the session's method of the same name."""
    name = query.__name__

    @wraps(query)
    def either(session: Any, *arguments: Any, **options: Any) -> Any:
        if isinstance(session, LeanSession):
            return getattr(session, name)(*arguments, **options)
        return query(session, *arguments, **options)

    return either  # type: ignore[return-value]


def _plain(session: Session, statement: Any, params: dict[str, Any]) -> Any:
    """The rows of plain values (no rows as objects) of a prepared `statement`, flushed first as every query of the
    session is: run on the session's connection, past the ORM's result handling, which cost a tick's small queries
    more than SQLite took to answer them."""
    session._autoflush()  # what Session.execute does before an ORM query
    return session.connection().execute(statement, params)


def _values(session: Session, statement: Any, params: dict[str, Any]) -> Any:
    """The first column of _plain's rows."""
    return _plain(session, statement, params).scalars()


@_lean_too
def find_game(session: Session, name: str, lock: bool = False) -> GameRow:
    """The game named `name`; with `lock`, also take the game's lock until the transaction ends."""
    game = session.exec(_game_named(lock), params={"name": name}).first()
    if game is None:
        raise ArchiveError(unknown_game(name, game_names(session)))
    return game


@_lean_too
def game_seats(session: Session, game: GameRow) -> list[SeatRow]:
    return list(session.exec(_seats_of(), params={"game": game.id}).all())


@_lean_too
def find_seat(session: Session, game: GameRow, seat: str) -> SeatRow:
    row = session.exec(_seat_named(), params={"game": game.id, "seat": seat}).first()
    if row is None:
        raise ArchiveError(unknown_seat(seat, game.name, [s.seat for s in game_seats(session, game)]))
    return row


@_lean_too
def turns(session: Session, game: GameRow) -> list[TurnRow]:
    """The game's turns in order (without those withdrawn by a roll-back)."""
    return list(session.exec(_live_turns().order_by(TurnRow.number), params={"game": game.id}).all())


def turn_of_chain(session: Session, game: GameRow, chain: str) -> TurnRow | None:
    """The game's turn whose chain head is `chain` (withdrawn or not: a mail about a turn rolled back since tells of
    that turn), or None."""
    return session.exec(select(TurnRow).where(TurnRow.game_id == game.id, TurnRow.chain == chain)).first()


@_lean_too
def turn_numbers(session: Session, game: GameRow) -> list[int]:
    """The numbers of the game's turns in order (without those withdrawn), the turns themselves left unread."""
    return list(_values(session, _turn_numbers(), {"game": game.id}).all())


@_lean_too
def turn_seats(session: Session, game: GameRow) -> list[tuple[int, str | None]]:
    """(number, seat) of the game's turns in order (without those withdrawn), the turns themselves left unread."""
    query = select(TurnRow.number, TurnRow.seat).where(TurnRow.game_id == game.id, _LIVE_TURN)
    return [(number, seat) for number, seat in session.exec(query.order_by(TurnRow.number)).all()]


@_lean_too
def turns_numbered(session: Session, game: GameRow, numbers: Collection[int]) -> list[TurnRow]:
    """The game's turns of these numbers, in order (a long game's other turns are not read)."""
    if not numbers:
        return []
    return list(session.exec(_turns_numbered(), params={"game": game.id, "numbers": list(numbers)}).all())


STATES_READ = "snapshot texts read"  # session.info: (game id, turn number) -> the snapshot text of that live turn


@_lean_too
def turn_states(session: Session, game: GameRow, numbers: Collection[int]) -> dict[int, str]:
    """The snapshot texts of the game's turns of these numbers (number -> text), the turns themselves left unread;
    those this transaction read already (latest_state) are not read again."""
    known = session.info.get(STATES_READ, {})
    found = {number: known[(game.id, number)] for number in numbers if (game.id, number) in known}
    if rest := [number for number in numbers if number not in found]:
        found |= dict(_plain(session, _turn_states(), {"game": game.id, "numbers": rest}).all())
    return found


@_lean_too
def bot_seats(session: Session, game: GameRow, numbers: Collection[int]) -> dict[int, list[str]]:
    """The seats whose orders for these turns the bot gave (number -> seats, in name order; a turn without any is
    left out): the reports say so (services/bots.py)."""
    if not numbers:
        return {}
    query = select(OrderSetRow.turn, OrderSetRow.seat).where(
        OrderSetRow.game_id == game.id,
        OrderSetRow.turn.in_(sorted(numbers)),  # type: ignore[attr-defined]
        OrderSetRow.source == "bot",
        _CURRENT_ORDERS,
    )
    found: dict[int, list[str]] = {}
    for number, seat in session.exec(query.order_by(OrderSetRow.turn, OrderSetRow.seat)).all():  # type: ignore[arg-type]
        found.setdefault(number, []).append(seat)
    return found


@_lean_too
def latest_state(session: Session, game: GameRow) -> str:
    """The snapshot text of the game's latest live turn, the turn itself left unread, and kept for turn_states: a
    live turn's text never changes (a roll-back withdraws turns, and reads no position before it does)."""
    found = _plain(session, _latest_state(), {"game": game.id}).first()
    if found is None:
        raise ArchiveError(f"game {game.name} has no turns stored")
    number, text = found
    session.info.setdefault(STATES_READ, {})[(game.id, number)] = text
    return str(text)


@_lean_too
def unmailed_turns(session: Session, game: GameRow) -> list[TurnRow]:
    """The game's turns after its first (the setup, or a position imported) whose reports were not queued yet, in
    order; a step nobody ordered in (a deal) is news too. Their numbers are read first: as a rule there are none
    (a tick stores its turns as mailed)."""
    return turns_numbered(session, game, list(_values(session, _unmailed_turns(), {"game": game.id}).all()))


@_lean_too
def latest_turn(session: Session, game: GameRow) -> TurnRow:
    row = session.exec(_latest_turn(), params={"game": game.id}).first()
    if row is None:
        raise ArchiveError(f"game {game.name} has no turns stored")
    return row


def get_turn(session: Session, game: GameRow, number: int) -> TurnRow:
    row = session.exec(_live_turns().where(TurnRow.number == number), params={"game": game.id}).first()
    if row is None:
        raise ArchiveError(f"game {game.name} has no turn {number}")
    return row


@cache
def _current_orders_from() -> Any:
    return select(OrderSetRow).where(
        OrderSetRow.game_id == bindparam("game"),
        OrderSetRow.turn >= bindparam("turn"),
        _CURRENT_ORDERS,
    )


ORDERS_READ = "current orders read"  # session.info: (game id, first turn, (turn, seat) -> the current order set)


@_lean_too
def read_current_orders(session: Session, game: GameRow, turn: int) -> None:
    """Read the game's current order sets of `turn` and later in one query, for current_orders to answer from until
    this transaction stores orders: a tick asks for the same seats' orders several times a game."""
    rows = session.exec(_current_orders_from(), params={"game": game.id, "turn": turn}).all()
    session.info[ORDERS_READ] = (game.id, turn, {(row.turn, row.seat): row for row in rows})


@_lean_too
def current_orders(session: Session, game: GameRow, turn: int, seat: str) -> OrderSetRow | None:
    read = session.info.get(ORDERS_READ)
    if read is not None and read[0] == game.id and turn >= read[1]:
        return read[2].get((turn, seat))  # type: ignore[no-any-return]
    return session.exec(_current_orders(), params={"game": game.id, "turn": turn, "seat": seat}).first()  # type: ignore[no-any-return]


def latest_orders(session: Session, game: GameRow, seat: str, before: int) -> OrderSetRow | None:
    """The seat's current order set of the latest turn before `before` (none: it sent none)."""
    query = select(OrderSetRow).where(
        OrderSetRow.game_id == game.id, OrderSetRow.seat == seat, OrderSetRow.turn < before, _CURRENT_ORDERS
    )
    return session.exec(query.order_by(col(OrderSetRow.turn).desc()).limit(1)).first()


@_lean_too
def store_orders(
    session: Session,
    game: GameRow,
    turn: int,
    seat: str,
    text: str,
    received: str,
    source: str,
    *,
    current: bool = True,
) -> bool:
    """Store an order set; returns True when it replaced an earlier set for the same seat and turn. A set stored
    with `current` False (press without orders, a WITHDRAW) is kept for the record and the turn's press count but is
    never the seat's orders; it replaces nothing."""
    session.info.pop(ORDERS_READ, None)  # what read_current_orders read is no longer all there is
    earlier = current_orders(session, game, turn, seat) if current else None
    if earlier is not None:
        earlier.replaced = True
        session.add(earlier)
        session.flush()  # the earlier set stops being current before the new one is (unique index)
    assert game.id is not None
    row = OrderSetRow(game_id=game.id, turn=turn, seat=seat, text=text, received=received, source=source)
    row.replaced = not current
    session.add(row)
    return earlier is not None


@_lean_too
def withdraw_orders(
    session: Session, game: GameRow, turn: int, seat: str, text: str, received: str, source: str
) -> bool:
    """The seat takes back its orders for a turn (WITHDRAW): its current set stops being current, and the
    withdrawing text is kept for the record. Returns True when there was a set to take back."""
    session.info.pop(ORDERS_READ, None)
    earlier = current_orders(session, game, turn, seat)
    if earlier is not None:
        earlier.replaced = True
        session.add(earlier)
    store_orders(session, game, turn, seat, text, received, source, current=False)
    return earlier is not None


@_lean_too
def decisions(session: Session, game: GameRow, turn: int) -> list[DecisionRow]:
    return list(session.exec(_decisions_of_turn(), params={"game": game.id, "turn": turn}).all())


def unsent_reports(session: Session, game: str, chains: Collection[str]) -> list[OutboxRow]:
    """The game's mails not sent yet that carry the map or the record of a turn whose chain head is one of `chains`,
    but no password: the report mails of those turns."""
    query = select(OutboxRow).where(OutboxRow.game == game, OutboxRow.sent == None)  # noqa: E711 (SQL)
    named = or_(col(OutboxRow.map_turn).in_(list(chains)), col(OutboxRow.record_turn).in_(list(chains)))
    # a welcome names its turn's map too, but carries the seat's password: it goes whatever its map shows
    return list(session.exec(query.where(named, OutboxRow.secret == "")).all())


def map_turns_mailed(session: Session, game: str, addresses: Collection[str]) -> list[tuple[str, str]]:
    """(address, chain head) of each mail of the game's to `addresses`, sent or not, that names a turn's map."""
    query = select(OutboxRow.to, OutboxRow.map_turn).where(OutboxRow.game == game, OutboxRow.map_turn != "")
    return list(session.exec(query.where(col(OutboxRow.to).in_(list(addresses)))).all())


@_lean_too
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
    map_turn: tuple[str, str] | None = None,
    record_turn: str = "",
) -> OutboxRow:
    """Put a mail in the outbox (sent later by `pbem send`); the caller's transaction commits it. `in_reply_to`
    and `thread` (the References: Message-IDs) thread it with the player's mail. `secret`: a password the body
    carries (welcome, reset), which `pbem send` removes from the stored body once the mail is delivered. `map_turn`,
    `record_turn`: what the mail carries, made when it is sent (mail_fields)."""
    row = OutboxRow(
        **mail_fields(
            to, subject, body, created, game, html, map_svg, in_reply_to, thread, secret, map_turn, record_turn
        )
    )
    session.add(row)
    return row


@_lean_too
def queue_mails(session: Session, mails: list[dict[str, Any]]) -> None:
    """Put mails (mail_fields each) in the outbox in one statement, after what the session holds unwritten (mails
    queued before them among it), so that they are queued in the order given, as queue_mail one by one would:
    without an object a mail, which cost a tick's report mails (one a seat, each with the map) more than storing
    them."""
    if mails:
        session.flush()
        session.execute(insert(OutboxRow), mails)


def outbox_size(session: Session) -> int:
    """The id of the latest mail queued (0 for none): outbox_after(it) lists those queued since."""
    return session.exec(select(func.max(OutboxRow.id))).one() or 0


def outbox_after(session: Session, after: int) -> list[OutboxRow]:
    """The mails queued after the one of id `after`, in order."""
    return list(session.exec(select(OutboxRow).where(OutboxRow.id > after).order_by(OutboxRow.id)).all())  # type: ignore[operator, arg-type]


def message_seen(session: Session, message_id: str) -> bool:
    return find_message(session, message_id) is not None


@_lean_too
def observers(session: Session, game: GameRow) -> list[ObserverRow]:
    """The confirmed observers of a game (those who get its public reports)."""
    return list(session.exec(_observers(), params={"game": game.id}).all())


@_lean_too
def observer_addresses(session: Session, game: GameRow) -> list[tuple[str, str]]:
    """(address, language) of each confirmed observer of a game, in order (observers without the rows, which mailing
    them the reports needs no more of)."""
    rows = _plain(session, _observers(addresses_only=True), {"game": game.id})
    return [(email, language) for email, language in rows]


def observer(session: Session, game: GameRow, address: str) -> ObserverRow | None:
    """The observer row of `address` in a game, confirmed or pending."""
    return session.exec(
        select(ObserverRow).where(ObserverRow.game_id == game.id, ObserverRow.email == address.lower())
    ).first()


@_lean_too
def games_of_address(session: Session, address: str) -> list[str]:
    """The games in which `address` is registered: as a seat's player, a confirmed observer or the moderator."""
    wanted = address.lower()
    found = {g.name for g in session.exec(select(GameRow)).all() if g.moderator.lower() == wanted}
    seats = session.exec(select(GameRow.name, SeatRow.email).join(SeatRow, SeatRow.game_id == GameRow.id)).all()  # type: ignore[arg-type]
    found |= {name for name, email in seats if email.lower() == wanted}
    watching = session.exec(
        select(GameRow.name, ObserverRow.email)
        .join(ObserverRow, ObserverRow.game_id == GameRow.id)  # type: ignore[arg-type]
        .where(ObserverRow.confirmed == True)  # noqa: E712 (SQL); a pending one is nobody
    ).all()
    found |= {name for name, email in watching if email.lower() == wanted}
    return sorted(found)


def messages(session: Session, game: str | None = None, limit: int = 50) -> list[MessageRow]:
    """The latest stored messages (of one game, or of all and of none), newest last: the moderator's log."""
    query = select(MessageRow)
    if game is not None:
        query = query.where(MessageRow.game == game)
    rows = session.exec(query.order_by(MessageRow.id.desc()).limit(limit)).all()  # type: ignore[union-attr]
    return list(reversed(rows))


def game_names(session: Session) -> list[str]:
    """The names of every game in the archive, in order."""
    return sorted(session.exec(select(GameRow.name)).all())


def game_named(session: Session, name: str) -> GameRow | None:
    return session.exec(select(GameRow).where(GameRow.name == name)).first()


def games_to_tick(session: Session) -> list[str]:
    """The names of the running games, but self-play games (the bot's: never ticked)."""
    running = select(GameRow).where(GameRow.status == "running", GameRow.selfplay == False)  # noqa: E712 (SQL)
    return [g.name for g in session.exec(running).all()]


@dataclass(frozen=True)
class Claim:
    """A game as one of several tick workers listed it: its deadline, latest turn and count of claimed ticks then,
    one of which changes when another worker ticks it (a tick of a game that is only waiting changes nothing else)
    or an ingest resolves its turn; with `wait`, its lock is waited for."""

    name: str
    deadline: str | None
    chain_turn: int
    ticks: int
    wait: bool = False

    @property
    def listed(self) -> tuple[str | None, int, int]:
        return self.deadline, self.chain_turn, self.ticks


class GameHeld(Exception):
    """A claimed game that another transaction holds (another worker ticks it): this worker comes back to it."""


class GameTicked(GameHeld):
    """A claimed game that changed since it was listed (another worker ticked it): this worker leaves it."""


_CLAIM_COLUMNS = (GameRow.name, GameRow.deadline, GameRow.chain_turn, GameRow.ticks)


def games_to_claim(session: Session) -> list[Claim]:
    """games_to_tick's games, each with what tells whether another worker ticked it after this listing."""
    running = select(*_CLAIM_COLUMNS).where(GameRow.status == "running", GameRow.selfplay == False)  # noqa: E712 (SQL)
    return [Claim(*row) for row in session.exec(running).all()]


def unticked(session: Session, claims: list[Claim]) -> list[Claim]:
    """The claims whose game has not changed since it was listed (another worker ticked the others), in order; a
    game gone since stays, for claim_game to name."""
    now: dict[str, tuple[str | None, int, int]] = {}
    for start in range(0, len(claims), 5000):  # a statement's parameters are limited (65,535 in PostgreSQL's)
        names = [c.name for c in claims[start : start + 5000]]
        query = select(*_CLAIM_COLUMNS).where(GameRow.name.in_(names))  # type: ignore[attr-defined]
        now |= {name: (deadline, chain_turn, ticks) for name, deadline, chain_turn, ticks in session.exec(query).all()}
    return [c for c in claims if now.get(c.name, c.listed) == c.listed]


def claim_game(session: Session, claim: Claim) -> GameRow:
    """The claimed game with its lock taken until the transaction ends; GameHeld while another transaction holds
    it (`SELECT ... FOR UPDATE SKIP LOCKED`, unless the claim waits) or when it changed since it was listed. A
    claim that waited reads the row as the holder committed it (PostgreSQL re-reads a row whose lock it waited
    for), so a worker never ticks again a game another ticked while it waited (see count_tick).
    Only for PostgreSQL: SQLite has no SKIP LOCKED (its transactions take the one write lock when they begin)."""
    query = select(GameRow).where(GameRow.name == claim.name)
    game = session.exec(query.with_for_update(skip_locked=not claim.wait)).first()
    if game is None:
        find_game(session, claim.name)  # deleted since it was listed: named as unknown
        raise GameHeld(f"{claim.name}: held by another tick")
    if (game.deadline, game.chain_turn, game.ticks) != claim.listed:
        raise GameTicked(f"{claim.name}: ticked by another tick since it was listed")
    return game


def count_tick(session: Session, game: GameRow, claim: Claim) -> None:
    """Show the other workers that the claimed game was ticked: a tick that neither moved its deadline on nor
    stored a turn (the game only waits) counts on the row, in the tick's transaction (seen once it commits, never
    if it rolls back); a tick that changed them is seen by them, and writes the row once."""
    if (game.deadline, game.chain_turn) == (claim.deadline, claim.chain_turn):
        game.ticks += 1
        session.add(game)


def order_texts(session: Session, game: GameRow, turn: int, seat: str) -> list[str]:
    """The texts of every order set a seat sent for a turn, those replaced too."""
    query = select(OrderSetRow.text).where(
        OrderSetRow.game_id == game.id, OrderSetRow.seat == seat, OrderSetRow.turn == turn
    )
    return list(session.exec(query).all())


def order_sets_after(session: Session, game: GameRow, turn: int) -> list[OrderSetRow]:
    """The order sets stored for the turns after `turn`."""
    return list(session.exec(select(OrderSetRow).where(OrderSetRow.game_id == game.id, OrderSetRow.turn > turn)).all())


@_lean_too
def has_unanswered_decisions(session: Session, game: GameRow) -> bool:
    """Whether the game has questions not answered yet (of any turn)."""
    return _values(session, _unanswered(False), {"game": game.id}).first() is not None


@_lean_too
def has_unasked_decisions(session: Session, game: GameRow) -> bool:
    """Whether the game has questions neither answered nor mailed yet (of any turn)."""
    return _values(session, _unanswered(True), {"game": game.id}).first() is not None


def decisions_after(session: Session, game: GameRow, turn: int) -> list[DecisionRow]:
    """The decisions asked for the turns after `turn`."""
    return list(session.exec(select(DecisionRow).where(DecisionRow.game_id == game.id, DecisionRow.turn > turn)).all())


def find_message(session: Session, message_id: str) -> MessageRow | None:
    return session.exec(select(MessageRow).where(MessageRow.message_id == message_id)).first()


def last_order_mail(session: Session, game: GameRow, seat: str) -> MessageRow | None:
    """The seat's latest order mail that was stored (a report answers it)."""
    query = select(MessageRow).where(
        MessageRow.game == game.name, MessageRow.seat == seat, MessageRow.outcome == "orders stored"
    )
    return session.exec(query.order_by(MessageRow.id.desc())).first()  # type: ignore[union-attr]


@_lean_too
def last_order_mails(session: Session, game: GameRow) -> dict[str, MessageRow]:
    """Each seat's latest order mail that was stored (last_order_mail of every seat, in one query)."""
    rows = session.exec(_last_order_mails(), params={"game": game.name})
    return {row.seat: row for row in rows if row.seat is not None}


@_lean_too
def last_order_mail_ids(session: Session, game: GameRow) -> dict[str, str]:
    """The Message-ID of each seat's latest order mail that was stored (last_order_mails without the mails, which
    threading a report needs no more of)."""
    rows = _plain(session, _last_order_mails(ids_only=True), {"game": game.name})
    return {seat: message_id for seat, message_id in rows if seat is not None}


def subjects_mailed_to(session: Session, game: GameRow, address: str) -> list[str]:
    """The subjects of the game's mails queued to an address (an observer's reports, say)."""
    query = select(OutboxRow.subject).where(OutboxRow.game == game.name, OutboxRow.to == address)
    return list(session.exec(query).all())


def recent_outcomes(
    session: Session, since: str, *, sender: str | None = None, game: str | None = None, seat: str | None = None
) -> list[str]:
    """The outcomes of the mails received at `since` or later, from `sender`, for `game` and `seat` (each when
    given): what the answers to a flood of mail are counted by."""
    query = select(MessageRow.outcome).where(MessageRow.received >= since)
    if sender is not None:
        query = query.where(MessageRow.sender == sender.lower())
    if game is not None:
        query = query.where(MessageRow.game == game)
    if seat is not None:
        query = query.where(MessageRow.seat == seat)
    return list(session.exec(query).all())


def recent_mails_to(
    session: Session, to: str, since: str, subjects: Collection[str], containing: str | None = None
) -> int:
    """How many mails were queued to `to` at `since` or later whose subject ends with one of `subjects` (and whose
    body holds `containing`, when given)."""
    query = select(func.count()).where(func.lower(OutboxRow.to) == to.lower(), OutboxRow.created >= since)
    query = query.where(or_(*(OutboxRow.subject.endswith(s) for s in subjects)))  # type: ignore[attr-defined]
    if containing is not None:
        query = query.where(OutboxRow.body.contains(containing))  # type: ignore[attr-defined]
    return session.exec(query).one()


def turn_dates(session: Session, game: GameRow) -> list[tuple[int, str | None, str]]:
    """(number, seat, when it was resolved) of the game's turns in order (without those withdrawn), the turns
    themselves left unread."""
    query = select(TurnRow.number, TurnRow.seat, TurnRow.created)
    query = query.where(TurnRow.game_id == game.id, TurnRow.superseded == False)  # noqa: E712 (SQL)
    return [(number, seat, created) for number, seat, created in session.exec(query.order_by(TurnRow.number)).all()]


def seats_of_address(session: Session, address: str) -> list[tuple[GameRow, SeatRow]]:
    """The seats played from `address`, with their games, in the order of the games' names."""
    query = select(GameRow, SeatRow).join(SeatRow, SeatRow.game_id == GameRow.id)  # type: ignore[arg-type]
    query = query.where(func.lower(SeatRow.email) == address.lower())
    return [(game, seat) for game, seat in session.exec(query.order_by(GameRow.name, SeatRow.seat)).all()]


def open_seats(session: Session) -> list[tuple[GameRow, SeatRow]]:
    """The seats given up (RESIGN) in running games, which the moderator may give to a new player."""
    query = select(GameRow, SeatRow).join(SeatRow, SeatRow.game_id == GameRow.id)  # type: ignore[arg-type]
    query = query.where(SeatRow.resigned != "", GameRow.status == "running", GameRow.selfplay == False)  # noqa: E712
    return [(game, seat) for game, seat in session.exec(query.order_by(GameRow.name, SeatRow.seat)).all()]
