"""Order sets: checked against a game's position or a snapshot file (verdicts only), stored for the coming
player-turn, and the answers to the decisions a turn waits for."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from adjudicator.engine.chance import KeyedDice
from adjudicator.engine.protocol import game_data_of
from adjudicator.engine.vocabulary import OrderResult
from adjudicator.errors import PbemError
from adjudicator.orders import parse_orders
from adjudicator.orders.sets import Answer as AnswerOrder
from adjudicator.orders.sets import Language, OrderError, OrderSet
from adjudicator.render import render
from adjudicator.render.i18n import gettext
from adjudicator.rulesets import Ruleset, load_ruleset
from adjudicator.services.clock import SYSTEM_CLOCK, Clock, timestamp
from adjudicator.services.games import current_game, expected_turn, game_ruleset, load_snapshot
from adjudicator.services.passwords import authenticate, redacted
from adjudicator.services.positions import stored_state

# The archive (sqlmodel, SQLAlchemy: a large part of a command's start-up time) is imported by the functions
# that use it, so that the commands that work on files alone (`pbem check --state`) do not load it.
if TYPE_CHECKING:
    from sqlmodel import Session

    from adjudicator.archive import Archive
    from adjudicator.archive.models import GameRow, SeatRow


MAX_ORDER_BYTES = 256 * 1024


def read_text_file(path: Path, what: str = "order file", limit: int = MAX_ORDER_BYTES) -> str:
    """Read a user's text file, refusing missing, empty, oversized, binary or non-UTF-8 ones clearly."""
    if not path.is_file():
        raise PbemError(f"{what} {path}: no such file")
    size = path.stat().st_size
    if size > limit:
        raise PbemError(f"{what} {path}: {size} bytes is too large (the limit is {limit // 1024} KB)")
    data = path.read_bytes()
    if b"\0" in data:
        line = data[: data.index(b"\0")].count(b"\n") + 1
        raise PbemError(f"{what} {path}: line {line} holds a NUL byte: this is a binary file, not text")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as bad:
        line = data[: bad.start].count(b"\n") + 1
        raise PbemError(f"{what} {path}: line {line} is not UTF-8 text") from None
    if not text.strip():
        raise PbemError(f"{what} {path}: the file is empty")
    return text


@dataclass
class Receipt:
    game: str
    seat: str
    turn: int
    errors: list[OrderError]
    results: list[OrderResult]
    stored: bool = False
    replaced: bool = False
    provisional: bool = False
    check_only: bool = False
    ahead: bool = False  # sent ahead for the seat's next player-turn (turn pace): checked again when it opens
    rechecked: bool = False  # orders sent ahead, checked again now that their turn is open
    by_moderator: bool = False  # entered for the seat by the moderator (`pbem submit --for`)

    @property
    def lines(self) -> list[tuple[int, str, OrderResult | OrderError]]:
        """(line, order text, result or error) for every order and every line not understood, in line order."""
        items: list[tuple[int, str, OrderResult | OrderError]] = [(e.line, e.text, e) for e in self.errors]
        items += [(r.line, r.text, r) for r in self.results]
        return sorted(items, key=lambda item: item[0])

    @property
    def text(self) -> str:
        return self.text_in("en")

    def text_in(self, language: str) -> str:
        return render(
            "receipt.txt.j2",
            language,
            **self.__dict__,
            lines=self.lines,
            accepted=sum(r.accepted for r in self.results),
            rejected=sum(not r.accepted for r in self.results),
        )


def check_against(ruleset: Ruleset, state: Any, orders: OrderSet, seat: str, number: int) -> list[OrderResult]:
    """Verdicts for `seat`'s orders for step `number` as the position stands, with throwaway dice (nothing is
    stored, and no other seat's orders are read)."""
    return ruleset.check_orders(state, seat, number, orders, KeyedDice(key=secrets.token_bytes(32)))


def check_stored_orders(data: Path, db: str | None, name: str, text: str) -> Receipt:
    """`pbem check --game` on the archive of data folder `data` (or at URL `db`): the default SQLite archive is
    read without SQLAlchemy (archive/lean.py) where that reader can answer, else through the archive."""
    from adjudicator.archive import lean

    stored = lean.current_game(data, name) if db is None else None
    ruleset = load_ruleset(stored.ruleset) if stored is not None else None
    if stored is None or ruleset is None or game_data_of(ruleset) is not None:  # a game's data is in the archive
        from adjudicator.archive import Archive

        return check_game_orders(Archive.open(data, db), name, text)
    return _check_game(name, stored.pace, ruleset, stored_state(ruleset, stored.state_json), text)


def check_game_orders(archive: Archive, name: str, text: str) -> Receipt:
    """`pbem check --game`: verdicts against the game's current position; the password is not needed."""
    with archive.session() as session:
        game, ruleset, state = current_game(session, name)
    return _check_game(name, game.pace, ruleset, state, text)


def _check_game(name: str, pace: str, ruleset: Ruleset, state: Any, text: str) -> Receipt:
    orders = redacted(parse_orders(text, ruleset))
    if orders.header is None:
        return Receipt(name, "?", ruleset.steps_done(state) + 1, list(orders.errors), [], check_only=True)
    seat = orders.header.player
    if seat not in ruleset.seats_of(state):
        raise PbemError(f"{seat} is not a seat of game {name}; seats: {', '.join(ruleset.seats_of(state))}")
    number = expected_turn(ruleset, state, pace, seat, orders.header.turn)
    results = check_against(ruleset, state, orders, seat, number)
    later = number != ruleset.steps_done(state) + 1
    return Receipt(
        name,
        seat,
        number,
        list(orders.errors),
        results,
        check_only=True,
        provisional=later and pace == "round",
        ahead=later and pace == "turn",
    )


def check_state_orders(state_text: str, text: str, game_data: Path | None = None) -> Receipt:
    """`pbem check --state`: verdicts against a snapshot file; header checks are the file's own. A ruleset whose
    data the moderator supplies reads the snapshot with the data folder `game_data`."""
    state, ruleset = load_snapshot(state_text, game_data)
    orders = redacted(parse_orders(text, ruleset))
    if orders.header is None:
        return Receipt(state.game, "?", ruleset.steps_done(state) + 1, list(orders.errors), [], check_only=True)
    seat = orders.header.player
    number = expected_turn(ruleset, state, "round", seat, orders.header.turn)
    return Receipt(
        state.game,
        seat,
        number,
        list(orders.errors),
        check_against(ruleset, state, orders, seat, number),
        check_only=True,
    )


def submit(archive: Archive, name: str, text: str, source: str = "file", *, clock: Clock = SYSTEM_CLOCK) -> Receipt:
    """Authenticate an order set, check it and store it (replacing an earlier set for the same turn)."""
    with archive.session() as session:
        game, ruleset, state = current_game(session, name, lock=True)
        orders = parse_orders(text, ruleset)
        seat = authenticate(session, game, orders)
        return store_order_set(session, game, ruleset, state, orders, seat, source, clock=clock)


def submit_for(archive: Archive, name: str, seat_name: str, text: str, *, clock: Clock = SYSTEM_CLOCK) -> Receipt:
    """`pbem submit --for SEAT`: orders the moderator enters for a seat without its password (orders given by
    phone). They are checked and stored like the seat's own, marked "moderator" in the archive, and the seat
    gets the receipt by mail, so that it sees what was entered in its name. The header's password is not
    checked (any word will do) and is not stored."""
    from adjudicator.archive import queries as db

    with archive.session() as session:
        game, ruleset, state = current_game(session, name, lock=True)
        seat = db.find_seat(session, game, seat_name)
        orders = parse_orders(text, ruleset)
        header = orders.header
        if header is None:
            number = ruleset.next_steps(state).get(seat.seat, ruleset.steps_done(state) + 1)
            problems = "; ".join(e.located for e in orders.errors)
            raise PbemError(
                f"the order file needs a header line such as 'GAME {game.name} TURN {number} PLAYER "
                f"{seat.seat} PASSWORD -' (with --for the password is not checked): {problems}"
            )
        if header.game.casefold() != game.name.casefold():
            raise PbemError(f"line {header.line}: the header names game {header.game!r}, not {game.name!r}")
        if db.find_seat(session, game, header.player).seat != seat.seat:
            raise PbemError(
                f"line {header.line}: the header names {header.player}, but the orders are entered --for {seat.seat}"
            )
        receipt = store_order_set(session, game, ruleset, state, orders, seat, "moderator", clock=clock)
        receipt.by_moderator = True
        if receipt.stored:
            say = seat.language
            db.queue_mail(
                session,
                seat.email,
                f"[{game.name}] " + gettext(say, "Receipt for turn %(turn)s", turn=receipt.turn),
                receipt.text_in(say),
                timestamp(clock),
                game.name,
            )
        return receipt


def store_order_set(
    session: Session,
    game: GameRow,
    ruleset: Ruleset,
    state: Any,
    orders: OrderSet,
    seat: SeatRow,
    source: str,
    *,
    clock: Clock,
) -> Receipt:
    """Check an authenticated order set and store it, unless nothing in it was understood. A LANGUAGE order
    takes effect at once: this receipt already comes in the new language."""
    from adjudicator.archive import queries as db

    assert orders.header is not None
    orders = redacted(orders)  # item 3: what is stored and shown holds the mark, never the password
    number = expected_turn(ruleset, state, game.pace, seat.seat, orders.header.turn)
    if db.decisions(session, game, number):
        # the turn's dice are keyed by its orders: new orders now would roll again what the notice has shown
        raise PbemError(
            f"turn {number} is waiting for decisions and is resolved with the orders it was asked "
            "with: they cannot be replaced now; only ANSWER lines are taken (C-15)"
        )
    results = check_against(ruleset, state, orders, seat.seat, number)
    later = number != ruleset.steps_done(state) + 1
    receipt = Receipt(
        game.name,
        seat.seat,
        number,
        list(orders.errors),
        results,
        provisional=later and game.pace == "round",
        ahead=later and game.pace == "turn",
    )
    if orders.errors and not orders.orders:
        return receipt  # nothing understood: an earlier set stays as it was
    receipt.replaced = db.store_orders(session, game, number, seat.seat, orders.source, timestamp(clock), source)
    receipt.stored = True
    for order in orders.orders:
        if isinstance(order, Language):
            seat.language = order.code
            session.add(seat)
    return receipt


@dataclass
class AnswerReceipt:
    game: str
    seat: str
    turn: int
    stored: list[str]
    problems: list[str]
    open: list[str]


def answer(archive: Archive, name: str, text: str, *, clock: Clock = SYSTEM_CLOCK) -> AnswerReceipt:
    """`pbem answer`: store a seat's answers to the decisions asked for the turn being resolved."""
    with archive.session() as session:
        game, ruleset, state = current_game(session, name, lock=True)
        orders = parse_orders(text, ruleset)
        seat = authenticate(session, game, orders).seat
        return store_answers(session, game, state, orders, seat, clock=clock)


def store_answers(
    session: Session, game: GameRow, state: Any, orders: OrderSet, seat: str, *, clock: Clock
) -> AnswerReceipt:
    """Record an authenticated seat's ANSWER lines for the decisions asked of it."""
    from adjudicator.archive import queries as db

    assert orders.header is not None
    number = game_ruleset(game).steps_done(state) + 1
    if orders.header.turn != number:
        raise PbemError(
            f"line {orders.header.line}: answers are for the turn being resolved, turn {number}, "
            f"not TURN {orders.header.turn}"
        )
    asked = {d.key: d for d in db.decisions(session, game, number) if d.seat == seat}
    stored, problems = [], [e.located for e in orders.errors]
    for order in orders.orders:
        if not isinstance(order, AnswerOrder):
            problems.append(f"line {order.line}: only ANSWER lines are taken here ({order.text})")
        elif order.key not in asked:
            problems.append(
                f"line {order.line}: no decision {order.key!r} is asked of {seat}; asked: {', '.join(asked) or 'none'}"
            )
        else:
            decision = asked[order.key]
            decision.answer, decision.answered = order.value, timestamp(clock)
            session.add(decision)
            stored.append(order.key)
    still_open = [k for k, d in asked.items() if d.answer is None]
    return AnswerReceipt(game.name, seat, number, stored, problems, still_open)
