"""Order sets: checked against a game's position or a snapshot file (verdicts only), stored for the coming
player-turn, and the answers to the decisions a turn waits for."""

from __future__ import annotations

import secrets
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from adjudicator.engine.chance import KeyedDice, orders_fingerprint
from adjudicator.engine.protocol import game_data_of
from adjudicator.engine.vocabulary import AttackOdds, HandOdds, OrderResult
from adjudicator.errors import PbemError
from adjudicator.orders import parse_orders
from adjudicator.orders.sets import NOT_GAME_ORDERS, Language, OrderError, OrderSet, Withdraw
from adjudicator.orders.sets import Answer as AnswerOrder
from adjudicator.render import render
from adjudicator.render.i18n import gettext, item_echo
from adjudicator.rulesets import Ruleset, load_ruleset
from adjudicator.services.game_reads import current_game, expected_turn, game_ruleset, load_snapshot
from adjudicator.services.passwords import authenticate, redacted
from adjudicator.services.positions import stored_state

# The archive (sqlmodel, SQLAlchemy: a large part of a command's start-up time) is imported by the functions
# that use it, so that the commands that work on files alone (`pbem check --state`) do not load it.
if TYPE_CHECKING:
    from sqlmodel import Session

    from adjudicator.archive import Archive
    from adjudicator.archive.lean_mail import LeanSession
    from adjudicator.archive.models import GameRow, SeatRow
    from adjudicator.services.clock import Clock


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
    """The verdicts on an order set and what became of it (stored, replacing, withdrawn, checked only); `text_in`
    writes it for the player. (A docstring also spares dataclasses making one of the signature at every start.)"""

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
    source: str = ""  # the order text as sent (password removed): each line is echoed as the player wrote it
    kept: bool = False  # the set holds no game orders (press, LANGUAGE, nothing understood): earlier orders stay
    withdrawn: bool = False  # WITHDRAW: the seat's orders for the turn are taken back
    had_orders: bool = False  # (kept, withdrawn) the seat had orders stored for the turn
    withdraw_refused: int = 0  # the line of a WITHDRAW sent beside orders: refused, nothing stored
    shown: str = ""  # (MYORDERS) when the stored set shown again was received (UTC, to the minute)
    odds: list[AttackOdds] = field(default_factory=list)  # the battles the orders would fight, as the seat knows them
    # the seat's orders for the turn as the archive now holds them (stored, withdrawn: none, rechecked, MYORDERS):
    # their orders_fingerprint and when they were stored, which the player keeps to check the turn's commitment
    fingerprint: str = ""
    received: str = ""

    @property
    def lines(self) -> list[VerdictLine]:
        """(line, the line as written, its verdicts) for every line that got one, in line order (verdict_lines)."""
        return verdict_lines([*self.errors, *self.results], self.source)

    @property
    def text(self) -> str:
        return self.text_in("en")

    def fingerprint_stored(self, text: str, received: str) -> None:
        """Print the fingerprint of `text`, the seat's orders as stored at `received` (the archive's ISO time)."""
        self.fingerprint, self.received = orders_fingerprint(text), received

    def text_in(self, language: str) -> str:
        return render(
            "receipt.txt.j2",
            language,
            **{**self.__dict__, "odds": odds_rows(self.odds)},
            lines=in_language(self.lines, language),
            accepted=sum(r.accepted for r in self.results),
            rejected=sum(not r.accepted for r in self.results),
        )


def odds_rows(odds: Sequence[AttackOdds]) -> list[tuple[str, ...]]:
    """The receipt's odds lines as plain values (the lean renderer looks up no attributes): area, forces, the chance
    to win in per cent, the expected losses of each side; then, where the defender holds hidden cards he could play
    (AttackOdds.if_played), their number, the chance that one would change the battle and the sets weighed, the
    same three figures if he plays them ("" where the sets were too many to weigh) and the heroes he holds face down
    where they are weighed too ("" where not); else seven "" (no such line)."""
    return [
        (
            o.area,
            o.attacker,
            o.defender,
            *_figures(o.wins, o.attacker_losses, o.defender_losses),
            *_if_played(o.if_played),
        )
        for o in odds
    ]


def _figures(wins: float | None, attacker_losses: float | None, defender_losses: float | None) -> tuple[str, ...]:
    if wins is None or attacker_losses is None or defender_losses is None:
        return ("", "", "")
    return (_percent(wins), f"{attacker_losses:.2f}", f"{defender_losses:.2f}")


def _if_played(played: HandOdds | None) -> tuple[str, ...]:
    if played is None:
        return ("",) * 7
    figures = _figures(played.wins, played.attacker_losses, played.defender_losses)
    heroes = "" if played.heroes is None else str(played.heroes)
    return (str(played.cards), _percent(played.helps), str(played.sets), *figures, heroes)


def _percent(chance: float) -> str:
    """A chance in per cent, one decimal; a chance that is not nil or certain never reads as 0.0% or 100.0%."""
    if 0 < chance < 0.0005:
        return "<0.1%"
    if 0.9995 <= chance < 1:
        return ">99.9%"
    return f"{100 * chance:.1f}%"


# (line, the line as written, [(the item's name or "", its verdict)]): what a receipt or report shows of a line
VerdictLine = tuple[int, str, list[tuple[str, OrderResult | OrderError]]]


def verdict_lines(items: Sequence[OrderResult | OrderError], source: str = "") -> list[VerdictLine]:
    """The verdicts of an order set grouped by line, in line order, each line echoed as written in `source` (the
    order text sent; else the text of its first verdict). A line of several items (`BUY 2 INF, 1 CAT`, `RECRUIT
    2 INF AT AUR, HERO aurel-2`) gets one verdict per item, each named by the item's text (in English keywords:
    `item_echo` writes them in the reader's); a line of one item has an empty name."""
    written = written_lines(source)
    by_line: dict[int, list[OrderResult | OrderError]] = {}
    for item in items:
        by_line.setdefault(item.line, []).append(item)
    found: list[VerdictLine] = []
    for line, verdicts in sorted(by_line.items()):
        named = [(item.text if len(verdicts) > 1 else "", item) for item in verdicts]
        found.append((line, written.get(line) or verdicts[0].text, named))
    return found


def in_language(lines: list[VerdictLine], language: str) -> list[VerdictLine]:
    """The items' names in the reader's order keywords (the lines stay as written)."""
    return [(line, text, [(item_echo(language, name), v) for name, v in named]) for line, text, named in lines]


def written_lines(source: str) -> dict[int, str]:
    """Line number -> the line as the player wrote it (numbered and normalised as the parser reads it)."""
    text = source[1:] if source.startswith("\ufeff") else source
    return {
        number: unicodedata.normalize("NFC", line.rstrip("\r")).strip()
        for number, line in enumerate(text.split("\n"), 1)
    }


def check_against(ruleset: Ruleset, state: Any, orders: OrderSet, seat: str, number: int) -> list[OrderResult]:
    """Verdicts for `seat`'s orders for step `number` as the position stands, with throwaway dice (nothing is
    stored, and no other seat's orders are read). A WITHDRAW line is the services' to act on, no ruleset's."""
    return ruleset.check_orders(state, seat, number, _for_ruleset(orders), KeyedDice(key=secrets.token_bytes(32)))


def _for_ruleset(orders: OrderSet) -> OrderSet:
    """The order set without its WITHDRAW line, which is the services' to act on, no ruleset's."""
    return replace(orders, orders=tuple(o for o in orders.orders if not isinstance(o, Withdraw)))


def odds_of(ruleset: Ruleset, state: Any, orders: OrderSet, seat: str, number: int) -> list[AttackOdds]:
    """The odds of the battles `seat`'s orders would fight, as the ruleset computes them on what the seat can know."""
    return ruleset.attack_odds(state, seat, number, _for_ruleset(orders))


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
        return Receipt(
            name, "?", ruleset.steps_done(state) + 1, list(orders.errors), [], check_only=True, source=orders.source
        )
    seat = orders.header.player
    if seat not in ruleset.seats_of(state):
        raise PbemError(f"{seat} is not a seat of game {name}; seats: {', '.join(ruleset.seats_of(state))}")
    number = expected_turn(ruleset, state, pace, seat, orders.header.turn)
    return checked_receipt(name, pace, ruleset, state, orders, seat, number, check_only=True)


def checked_receipt(
    name: str,
    pace: str,
    ruleset: Ruleset,
    state: Any,
    orders: OrderSet,
    seat: str,
    number: int,
    with_odds: bool = True,
    **marks: Any,
) -> Receipt:
    """The verdicts on `seat`'s order set for step `number` against the position as it stands (nothing is stored),
    with the odds of its battles unless not `with_odds`; `marks`: the receipt's other fields (check_only, shown)."""
    later = number != ruleset.steps_done(state) + 1
    return Receipt(
        name,
        seat,
        number,
        list(orders.errors),
        check_against(ruleset, state, orders, seat, number),
        provisional=later and pace == "round",
        ahead=later and pace == "turn",
        source=orders.source,
        odds=odds_of(ruleset, state, orders, seat, number) if with_odds else [],
        **marks,
    )


def check_state_orders(state_text: str, text: str, game_data: Path | None = None) -> Receipt:
    """`pbem check --state`: verdicts against a snapshot file; header checks are the file's own. A ruleset whose
    data the moderator supplies reads the snapshot with the data folder `game_data`."""
    state, ruleset = load_snapshot(state_text, game_data)
    orders = redacted(parse_orders(text, ruleset))
    if orders.header is None:
        number = ruleset.steps_done(state) + 1
        return Receipt(state.game, "?", number, list(orders.errors), [], check_only=True, source=orders.source)
    seat = orders.header.player
    number = expected_turn(ruleset, state, "round", seat, orders.header.turn)
    return Receipt(
        state.game,
        seat,
        number,
        list(orders.errors),
        check_against(ruleset, state, orders, seat, number),
        check_only=True,
        source=orders.source,
        odds=odds_of(ruleset, state, orders, seat, number),
    )


def _clock(clock: Clock | None) -> Clock:
    """The clock given, else the system's (services/clock.py is imported where the time is read: `pbem check` reads
    none, and datetime was a part of its start-up)."""
    from adjudicator.services.clock import SYSTEM_CLOCK

    return SYSTEM_CLOCK if clock is None else clock


def _timestamp(clock: Clock) -> str:
    from adjudicator.services.clock import timestamp

    return timestamp(clock)


def submit(archive: Archive, name: str, text: str, source: str = "file", *, clock: Clock | None = None) -> Receipt:
    """Authenticate an order set, check it and store it (replacing an earlier set for the same turn)."""
    clock = _clock(clock)
    with archive.session() as session:
        game, ruleset, state = current_game(session, name, lock=True)
        orders = parse_orders(text, ruleset)
        seat = authenticate(session, game, orders)
        return store_order_set(session, game, ruleset, state, orders, seat, source, clock=clock)


def submit_for(archive: Archive, name: str, seat_name: str, text: str, *, clock: Clock | None = None) -> Receipt:
    """`pbem submit --for SEAT`: orders the moderator enters for a seat without its password (orders given by
    phone). They are checked and stored like the seat's own, marked "moderator" in the archive, and the seat
    gets the receipt by mail, so that it sees what was entered in its name. The header's password is not
    checked (any word will do) and is not stored."""
    from adjudicator.archive import queries as db

    clock = _clock(clock)

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
        if receipt.stored or receipt.withdrawn:
            say = seat.language
            db.queue_mail(
                session,
                seat.email,
                f"[{game.name}] " + gettext(say, "Receipt for turn %(turn)s", turn=receipt.turn),
                receipt.text_in(say),
                _timestamp(clock),
                game.name,
            )
        return receipt


def store_order_set(
    session: Session | LeanSession,
    game: GameRow,
    ruleset: Ruleset,
    state: Any,
    orders: OrderSet,
    seat: SeatRow,
    source: str,
    *,
    clock: Clock,
    with_odds: bool = True,
) -> Receipt:
    """Check an authenticated order set and store it in place of the seat's earlier set for the turn. A set without
    game orders (only press, LANGUAGE, or nothing understood) leaves the earlier set as it is; WITHDRAW alone takes
    it back. A LANGUAGE order takes effect at once: this receipt already comes in the new language. Without
    `with_odds` (a receipt nobody reads: the bot's orders, a turn file's order sets) its battles' odds are not
    computed, which cost more than the verdicts."""
    from adjudicator.archive.lean_mail import queries_for

    db = queries_for(session)
    assert orders.header is not None
    orders = redacted(orders)  # what is stored and shown holds the mark, never the password
    number = expected_turn(ruleset, state, game.pace, seat.seat, orders.header.turn)
    game_orders = [o for o in orders.orders if not isinstance(o, NOT_GAME_ORDERS)]
    withdraw = next((o for o in orders.orders if isinstance(o, Withdraw)), None)
    if (game_orders or withdraw) and db.decisions(game, number):
        # the turn's dice are keyed by its orders: new orders now would roll again what the notice has shown
        rule = f" ({ruleset.decisions_rule})" if ruleset.decisions_rule else ""
        raise PbemError(
            f"turn {number} is waiting for decisions and is resolved with the orders it was asked "
            f"with: they cannot be replaced now; only ANSWER lines are taken{rule}"
        )
    receipt = checked_receipt(game.name, game.pace, ruleset, state, orders, seat.seat, number, with_odds=with_odds)
    if withdraw is not None and game_orders:
        receipt.withdraw_refused = withdraw.line  # which did the player mean? Nothing changes; the receipt asks
        return receipt
    received = _timestamp(clock)
    earlier = db.current_orders(game, number, seat.seat) is not None
    # a header alone, with nothing stored yet, is a seat's "nothing this turn": stored, so that it counts as sent
    passing = not orders.orders and not orders.errors and not earlier
    if withdraw is not None:
        receipt.withdrawn = True
        receipt.had_orders = db.withdraw_orders(game, number, seat.seat, orders.source, received, source)
    elif not game_orders and not passing:
        # press or a LANGUAGE line is no new set of orders: the earlier set stays (a mail that only talks must not
        # cost the turn, nor count as the turn's orders); press is kept on record for the turn's press count
        receipt.kept, receipt.had_orders = True, earlier
        if orders.orders:
            db.store_orders(game, number, seat.seat, orders.source, received, source, current=False)
    else:
        receipt.replaced = db.store_orders(game, number, seat.seat, orders.source, received, source)
        receipt.stored = True
    if receipt.stored or receipt.withdrawn:
        receipt.fingerprint_stored(orders.source if receipt.stored else "", received)
        # the seat's own orders, or its own WITHDRAW (the bot would order again for a seat left with none): its
        # player is back, and his receipt's fingerprint is what the turn is resolved with
        if seat.run_by_bot and source != "bot":
            from adjudicator.services.bots import take_back

            take_back(session, seat)
    receipt.ahead = receipt.ahead and receipt.stored  # the notes on when orders are checked are for stored orders
    receipt.provisional = receipt.provisional and receipt.stored
    for order in orders.orders:
        if isinstance(order, Language):
            seat.language = order.code
            db.save(seat)
    return receipt


@dataclass
class AnswerReceipt:
    """What became of a seat's ANSWER lines: the answers stored, the problems, the decisions still open."""

    game: str
    seat: str
    turn: int
    stored: list[str]
    problems: list[str]
    open: list[str]


def answer(archive: Archive, name: str, text: str, *, clock: Clock | None = None) -> AnswerReceipt:
    """`pbem answer`: store a seat's answers to the decisions asked for the turn being resolved."""
    clock = _clock(clock)
    with archive.session() as session:
        game, ruleset, state = current_game(session, name, lock=True)
        orders = parse_orders(text, ruleset)
        seat = authenticate(session, game, orders).seat
        return store_answers(session, game, state, orders, seat, clock=clock)


def store_answers(
    session: Session | LeanSession, game: GameRow, state: Any, orders: OrderSet, seat: str, *, clock: Clock
) -> AnswerReceipt:
    """Record an authenticated seat's ANSWER lines for the decisions asked of it."""
    from adjudicator.archive.lean_mail import queries_for

    db = queries_for(session)
    assert orders.header is not None
    number = game_ruleset(game).steps_done(state) + 1
    if orders.header.turn != number:
        raise PbemError(
            f"line {orders.header.line}: answers are for the turn being resolved, turn {number}, "
            f"not TURN {orders.header.turn}"
        )
    asked = {d.key: d for d in db.decisions(game, number) if d.seat == seat}
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
            decision.answer, decision.answered = order.value, _timestamp(clock)
            db.save(decision)
            stored.append(order.key)
    still_open = [k for k, d in asked.items() if d.answer is None]
    return AnswerReceipt(game.name, seat, number, stored, problems, still_open)
