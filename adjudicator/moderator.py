"""The moderator's operations: the glue between orders, engine, archive and rendering.

The CLI calls these and prints what they return; the engine below them knows nothing of files or databases.
Every operation that stores something does it in one archive transaction, and writes files only after the
commit, so that a failure leaves the archive as it was.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
import secrets
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from itertools import groupby
from pathlib import Path
from typing import TYPE_CHECKING, Any

from adjudicator.engine.chance import (
    CHAIN_LENGTH,
    GivenDice,
    KeyedDice,
    chain_keys,
    commitment,
    key_follows,
    orders_digest,
    parse_dice_file,
    turn_key,
)
from adjudicator.engine.turn import TurnResult, coming_turns, resolve, schedule
from adjudicator.engine.vocabulary import OrderResult
from adjudicator.errors import PbemError  # callers import it from here too
from adjudicator.orders import parse_orders, parse_turn_file
from adjudicator.orders.keywords import language_code
from adjudicator.render import render, write_atomically
from adjudicator.render.i18n import gettext
from adjudicator.render.svgmap import render_map_for_turn
from adjudicator.render.told import losses_of, told
from adjudicator.rulesets import Ruleset, load_ruleset
from adjudicator.rulesets.coe.dice import COMBAT_DIE_SYMBOLS
from adjudicator.rulesets.coe.orders import PASSWORD_MARK, Language, OrderError, OrderSet
from adjudicator.rulesets.coe.orders import Answer as AnswerOrder
from adjudicator.rulesets.coe.state import GameState, from_snapshot, snapshot_text, state_hash
from adjudicator.rulesets.coe.vocabulary import stored_event

# The archive (sqlmodel, SQLAlchemy: a large part of a command's start-up time) is imported by the functions
# that use it, so that the commands that work on files alone (`pbem check --state`) do not load it.
if TYPE_CHECKING:
    from sqlmodel import Session

    from adjudicator.archive import Archive
    from adjudicator.archive.models import Decision, Game, Seat, Turn

MAX_ORDER_BYTES = 256 * 1024
PACES = ("turn", "round")


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


# -- input -------------------------------------------------------------------------------------------------


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


# -- passwords ---------------------------------------------------------------------------------------------


def hash_password(password: str) -> str:
    """A slow salted hash (scrypt); the password itself is never stored."""
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode(), salt=salt, n=2**14, r=8, p=1)
    return f"scrypt$16384$8$1${base64.b64encode(salt).decode()}${base64.b64encode(digest).decode()}"


def password_matches(password: str, stored: str) -> bool:
    if password == PASSWORD_MARK:
        return False  # the mark stands for a password removed from a stored text: it is never one itself
    _, n, r, p, salt, digest = stored.split("$")
    candidate = hashlib.scrypt(password.encode(), salt=base64.b64decode(salt), n=int(n), r=int(r), p=int(p))
    return hmac.compare_digest(candidate, base64.b64decode(digest))


@lru_cache(maxsize=1)
def _header_password() -> re.Pattern[str]:
    """A header line (first word GAME in any language) up to its password word, and the password after it."""
    from adjudicator.orders.keywords import spellings

    game = "|".join(map(re.escape, spellings("GAME")))
    password = "|".join(map(re.escape, spellings("PASSWORD")))
    # the first password word after GAME: a comment later on the line may say "password" again
    return re.compile(
        rf"^(\ufeff?[ \t]*(?:{game})\b[^\n]*?\b(?:{password})[ \t]+)([^\s]+)", re.IGNORECASE | re.MULTILINE
    )


def without_passwords(text: str) -> str:
    """`text` with the password of each header line replaced by PASSWORD_MARK (everything else as it was)."""
    return _header_password().sub(lambda m: m.group(1) + PASSWORD_MARK, text)


def passwords_in(text: str) -> set[str]:
    """The passwords written in the header lines of `text` (right or wrong), to be removed wherever they are."""
    return {m.group(2) for m in _header_password().finditer(text)} - {PASSWORD_MARK}


def redacted(orders: OrderSet) -> OrderSet:
    """The order set as it may be stored and shown: no password in its text, its header or its errors."""
    header = replace(orders.header, password=PASSWORD_MARK) if orders.header is not None else None
    errors = tuple(replace(e, text=without_passwords(e.text)) for e in orders.errors)
    return replace(orders, header=header, errors=errors, source=without_passwords(orders.source))


# -- new game ----------------------------------------------------------------------------------------------


@dataclass
class NewGame:
    game: str
    passwords: dict[str, str]
    folder: Path
    files: list[Path]


def new_game(
    archive: Archive,
    data: Path,
    name: str,
    ruleset_name: str,
    seats: dict[str, str],
    pace: str = "turn",
    decisions: str = "default",
    decision_hours: int = 48,
    position: str | None = None,
    mail: dict[str, Any] | None = None,
    languages: dict[str, str] | None = None,
    timezones: dict[str, str] | None = None,
) -> NewGame:
    """Create a game: check the seats, make passwords and the dice seed, write turn 0 (report, snapshot).

    `languages` gives seats a language other than English (seat -> code or name, e.g. "de" or "Deutsch") for
    their welcome message, private reports, receipts and notices.

    `position` (snapshot JSON text) starts the game from a position played elsewhere, e.g. by hand.
    `mail` sets the mail options of the Game table (moderator, turn_hours, reminder_hours, check_sender,
    anonymous_press, nmr_alert, observers, selfplay). `timezones` (seat -> IANA zone) makes the seat's mails
    state deadlines in its own time too.

    The welcome messages (with the passwords) are queued in the outbox in the same transaction, except in a
    self-play game, which mails nobody.
    """
    from sqlmodel import select

    from adjudicator.archive.models import Game, Seat, Turn
    from adjudicator.mail.clock import zone_name
    from adjudicator.mail.inbound import address_problem
    from adjudicator.mailroom import queue_welcome, render_welcome

    ruleset = load_ruleset(ruleset_name)
    if pace not in PACES:
        raise PbemError(f"unknown pace {pace!r}: choose 'turn' (one player-turn per deadline) or 'round'")
    if decisions not in ("default", "ask"):
        raise PbemError(f"unknown decision mode {decisions!r}: choose 'default' (at once) or 'ask' (and wait)")
    if decision_hours < 1:
        raise PbemError("the waiting time for decisions must be at least 1 hour")
    if not name or not all(c.isalnum() or c in "-_" for c in name):
        raise PbemError(f"game name {name!r}: use letters, digits, '-' and '_' only")
    canonical = {}
    for seat, email in seats.items():
        matches = ruleset.lookup_seat(seat)
        if len(matches) != 1:
            raise PbemError(f"unknown seat {seat!r}; seats of {ruleset.name}: {', '.join(ruleset.seat_names)}")
        problem = address_problem(email)
        if problem is not None:  # issue 12: an address with CR or LF could never be sent to
            raise PbemError(f"seat {matches[0]}: {email!r} is not a mail address: {problem}")
        canonical[matches[0]] = email
    spoken = {seat: "en" for seat in canonical} | _seat_option(ruleset, canonical, languages, "language", language_code)
    zones = _seat_option(ruleset, canonical, timezones, "time zone", zone_name)
    if (mail or {}).get("observers", "open") not in ("open", "closed"):
        raise PbemError(f"observers {mail['observers']!r}: choose 'open' (anybody may OBSERVE) or 'closed'")  # type: ignore[index]
    if position is not None:
        state, imported = load_snapshot(position)
        if imported.name != ruleset.name:
            raise PbemError(f"the position is of ruleset {imported.name}, not {ruleset.name}")
        if sorted(state.players) != sorted(canonical):
            raise PbemError(f"the position's seats are {', '.join(state.players)}; name each once with --seat")
        broken = ruleset.broken_invariants(state)
        if broken:
            raise PbemError("the position breaks the rules: " + "; ".join(broken))
        state.game = name
    else:
        try:
            state = ruleset.initial_state(name, list(canonical))
        except ValueError as refused:
            raise PbemError(str(refused)) from None
    seed = secrets.token_bytes(32)
    passwords = {seat: secrets.token_urlsafe(9) for seat in state.players}
    with archive.session() as session:
        if session.exec(select(Game).where(Game.name == name)).first():
            raise PbemError(f"a game named {name!r} already exists in this archive")
        game = Game(
            name=name,
            ruleset=ruleset.name,
            pace=pace,
            seed=seed.hex(),
            commitment=commitment(seed),
            decisions=decisions,
            decision_hours=decision_hours,
            created=now(),
            **(mail or {}),
        )
        session.add(game)
        session.flush()
        assert game.id is not None
        seat_rows = [
            Seat(
                game_id=game.id,
                seat=seat,
                email=canonical[seat],
                language=spoken[seat],
                timezone=zones.get(seat, ""),
                password_hash=hash_password(passwords[seat]),
            )
            for seat in state.players
        ]
        session.add_all(seat_rows)
        row = Turn(
            game_id=game.id,
            number=state.turn,
            seat=None,
            round=0,
            state_json=snapshot_text(state),
            state_hash=state_hash(state),
            dice_source="imported" if position else "keyed",
            created=now(),
        )
        link_turn(None, game, row)
        session.add(row)
        welcomes = {s.seat: render_welcome(ruleset, game, row, s, passwords[s.seat]) for s in seat_rows}
        if not game.selfplay:  # issue 11: the players learn their passwords by mail (`pbem send`)
            for seat_row in seat_rows:
                queue_welcome(session, ruleset, game, row, seat_row, passwords[seat_row.seat], welcomes[seat_row.seat])
    folder = game_folder(data, name)
    files = write_turn_files(folder, ruleset, game, [row], spoken)
    for seat, text in welcomes.items():  # the moderator's copy: the password travels only in the queued mail
        path = folder / "outbox" / f"welcome-{seat}.txt"
        write_atomically(path, text.replace(passwords[seat], PASSWORD_MARK))
        files.append(path)
    return NewGame(name, passwords, folder, files)


def _seat_option(
    ruleset: Ruleset, seats: Mapping[str, str], given: Mapping[str, str] | None, what: str, read: Callable[[str], str]
) -> dict[str, str]:
    """A per-seat option of `pbem new` (seat or its alias -> value), each value checked by `read`."""
    values = {}
    for seat, value in (given or {}).items():
        matches = [s for s in ruleset.lookup_seat(seat) if s in seats]
        if len(matches) != 1:
            raise PbemError(f"a {what} is given for {seat!r}, which is not a seat of this game")
        try:
            values[matches[0]] = read(value)
        except ValueError as unknown:  # an unknown language or time zone
            raise PbemError(f"seat {matches[0]}: {unknown}") from None
    return values


# -- checking and storing orders ---------------------------------------------------------------------------


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


def due_turns(state: GameState, pace: str) -> list[tuple[int, str]]:
    """The player-turns open for orders: the active seat's, or the rest of the round (round pace)."""
    coming = schedule(state)
    return coming if pace == "round" else coming[:1]


def check_against(ruleset: Ruleset, state: GameState, orders: OrderSet, seat: str, number: int) -> list[OrderResult]:
    """Verdicts for `seat`'s orders as the position stands, with throwaway dice (nothing is stored)."""
    position = state.copy()
    position.active, position.turn = seat, number - 1
    result = resolve(ruleset, position, orders, KeyedDice(key=secrets.token_bytes(32)))
    return result.order_results


def expected_turn(state: GameState, pace: str, seat: str, header_turn: int) -> int:
    """The player-turn an order set is for: a due one, or in turn pace the seat's next player-turn (the one its
    report's orders template names), for which orders may be sent ahead; any other is refused."""
    due = dict((s, n) for n, s in due_turns(state, pace))
    if state.active is None:
        raise PbemError(f"game {state.game} has ended; no orders are taken")
    if pace == "turn" and seat not in due:
        due = coming_turns(state)  # orders ahead (item 8): only for the seat's very next player-turn
    if seat not in due:
        first_number, first_seat = due_turns(state, pace)[0]
        raise PbemError(
            f"{seat}: no player-turn of yours is open for orders now; the turn due is "
            f"turn {first_number}, {first_seat}'s"
        )
    if header_turn != due[seat]:
        raise PbemError(f"header says TURN {header_turn}, but {seat}'s coming player-turn is turn {due[seat]}")
    return due[seat]


def authenticate(session: Session, game: Game, orders: OrderSet) -> Seat:
    from adjudicator.archive import store as db

    header = orders.header
    if header is None:
        problems = "; ".join(e.located for e in orders.errors) or "no header"
        raise PbemError(f"the order set has no valid header ({problems})")
    if header.game.casefold() != game.name.casefold():
        raise PbemError(f"line {header.line}: the header names game {header.game!r}, not {game.name!r}")
    seat = db.find_seat(session, game, header.player)
    if accept_password(
        session, seat, matching_password(header.password, seat.password_hash, seat.pending_password_hash)
    ):
        return seat
    raise PbemError(f"line {header.line}: wrong password for {seat.seat} in game {game.name}")


def matching_password(password: str, current: str, pending: str) -> str | None:
    """Which of a seat's password hashes `password` matches: "current", "pending" (a reset password not used yet)
    or None."""
    if password_matches(password, current):
        return "current"
    return "pending" if pending and password_matches(password, pending) else None


def accept_password(session: Session, seat: Seat, which: str | None) -> bool:
    """Whether the password matched; a reset password's first use makes it the seat's password, and only then
    does the old one stop working (a forged reset locks nobody out)."""
    if which == "pending":
        seat.password_hash, seat.pending_password_hash = seat.pending_password_hash, ""
        session.add(seat)
    return which is not None


def current_game(session: Session, name: str, lock: bool = False) -> tuple[Game, Ruleset, GameState]:
    """The game, its ruleset and its current position; with `lock`, the game stays locked until the
    transaction ends (every operation that changes a game takes it first, before reading the position)."""
    from adjudicator.archive import store as db

    game = db.find_game(session, name, lock)
    ruleset = load_ruleset(game.ruleset)
    state = from_snapshot(json.loads(db.latest_turn(session, game).state_json))
    return game, ruleset, state


def check_game_orders(archive: Archive, name: str, text: str) -> Receipt:
    """`pbem check --game`: verdicts against the game's current position; the password is not needed."""
    with archive.session() as session:
        game, ruleset, state = current_game(session, name)
    orders = redacted(parse_orders(text, ruleset))
    if orders.header is None:
        return Receipt(name, "?", state.turn + 1, list(orders.errors), [], check_only=True)
    seat = orders.header.player
    if seat not in state.players:
        raise PbemError(f"{seat} is not a seat of game {name}; seats: {', '.join(state.players)}")
    number = expected_turn(state, game.pace, seat, orders.header.turn)
    results = check_against(ruleset, state, orders, seat, number)
    later = number != state.turn + 1
    return Receipt(
        name,
        seat,
        number,
        list(orders.errors),
        results,
        check_only=True,
        provisional=later and game.pace == "round",
        ahead=later and game.pace == "turn",
    )


def check_state_orders(state_text: str, text: str) -> Receipt:
    """`pbem check --state`: verdicts against a snapshot file; header checks are the file's own."""
    state, ruleset = load_snapshot(state_text)
    orders = redacted(parse_orders(text, ruleset))
    if orders.header is None:
        return Receipt(state.game, "?", state.turn + 1, list(orders.errors), [], check_only=True)
    seat = orders.header.player
    number = expected_turn(state, "round", seat, orders.header.turn)
    return Receipt(
        state.game,
        seat,
        number,
        list(orders.errors),
        check_against(ruleset, state, orders, seat, number),
        check_only=True,
    )


def submit(archive: Archive, name: str, text: str, source: str = "file") -> Receipt:
    """Authenticate an order set, check it and store it (replacing an earlier set for the same turn)."""
    with archive.session() as session:
        game, ruleset, state = current_game(session, name, lock=True)
        orders = parse_orders(text, ruleset)
        seat = authenticate(session, game, orders)
        return store_order_set(session, game, ruleset, state, orders, seat, source)


def submit_for(archive: Archive, name: str, seat_name: str, text: str) -> Receipt:
    """`pbem submit --for SEAT`: orders the moderator enters for a seat without its password (orders given by
    phone). They are checked and stored like the seat's own, marked "moderator" in the archive, and the seat
    gets the receipt by mail, so that it sees what was entered in its name. The header's password is not
    checked (any word will do) and is not stored."""
    from adjudicator.archive import store as db

    with archive.session() as session:
        game, ruleset, state = current_game(session, name, lock=True)
        seat = db.find_seat(session, game, seat_name)
        orders = parse_orders(text, ruleset)
        header = orders.header
        if header is None:
            number = coming_turns(state).get(seat.seat, state.turn + 1)
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
        receipt = store_order_set(session, game, ruleset, state, orders, seat, "moderator")
        receipt.by_moderator = True
        if receipt.stored:
            say = seat.language
            db.queue_mail(
                session,
                seat.email,
                f"[{game.name}] " + gettext(say, "Receipt for turn %(turn)s", turn=receipt.turn),
                receipt.text_in(say),
                now(),
                game.name,
            )
        return receipt


def store_order_set(
    session: Session, game: Game, ruleset: Ruleset, state: GameState, orders: OrderSet, seat: Seat, source: str
) -> Receipt:
    """Check an authenticated order set and store it, unless nothing in it was understood. A LANGUAGE order
    takes effect at once: this receipt already comes in the new language."""
    from adjudicator.archive import store as db

    assert orders.header is not None
    orders = redacted(orders)  # item 3: what is stored and shown holds the mark, never the password
    number = expected_turn(state, game.pace, seat.seat, orders.header.turn)
    if db.decisions(session, game, number):
        # the turn's dice are keyed by its orders: new orders now would roll again what the notice has shown
        raise PbemError(
            f"turn {number} is waiting for decisions and is resolved with the orders it was asked "
            "with: they cannot be replaced now; only ANSWER lines are taken (C-15)"
        )
    results = check_against(ruleset, state, orders, seat.seat, number)
    later = number != state.turn + 1
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
    receipt.replaced = db.store_orders(session, game, number, seat.seat, orders.source, now(), source)
    receipt.stored = True
    for order in orders.orders:
        if isinstance(order, Language):
            seat.language = order.code
            session.add(seat)
    return receipt


# -- adjudication ------------------------------------------------------------------------------------------


def game_folder(data: Path, name: str) -> Path:
    return data / "games" / name


def turn_context(row: Turn, before: str | None = None) -> dict[str, Any]:
    """What the report templates see of one stored turn; `before` (the snapshot text before it) names the leaders
    in its battles."""
    return {
        "number": row.number,
        "seat": row.seat,
        "round": row.round,
        "turn_key": row.turn_key,
        "orders_hash": row.orders_hash,
        "orders_received": bool(row.orders_text),
        "events": told(
            (stored_event(e) for e in json.loads(row.events_json)),
            json.loads(before) if before else None,
        ),
        "results": [OrderResult(**r) for r in json.loads(row.results_json)],
        "dice": json.loads(row.dice_json),
        "chain": row.chain,  # the game's chain head after this turn, published so that players can hold to it
    }


def symbol_dice(ruleset: Ruleset) -> bool:
    """Whether the edition rolls the symbol die (Classic, C-1.8) rather than numbers (1984, O-6.13)."""
    return ruleset.edition("combat") != "target_number"


def orders_template_context(ruleset: Ruleset, state: GameState) -> dict[str, Any]:
    """What the orders template at the end of each private report needs: next turn numbers, prices, and whether
    the edition's standing battle order is TARGETS (1984, O-14.4; LOSSES does nothing there) or LOSSES."""
    multiplier = ruleset.data["inflation"]["multipliers"][state.inflation]
    prices = {piece: price * multiplier for piece, price in ruleset.data["prices"].items()}
    return {"coming": coming_turns(state), "prices": prices, "targets": not symbol_dice(ruleset)}


def turn_reports(
    ruleset: Ruleset,
    game: Game,
    row: Turn,
    seats: Mapping[str, str] | None = None,
    language: str | None = "en",
    before: str | None = None,
) -> dict[str, str]:
    """A stored turn's files, rendered from the archive alone: report.txt (in `language`; none when None),
    snapshot.json and report-<seat>.txt for each of `seats` (seat -> language; default: every seat, in English).
    `before` is the snapshot text of the turn before (its battles then name their leaders)."""
    snapshot = json.loads(row.state_json)
    common = {
        "title": ruleset.title,
        "game": game.name,
        "turns": [turn_context(row, before)],
        "state": snapshot,
        "commitment": game.commitment,
        "seats": list(snapshot["players"]),
    }
    outputs = {"snapshot.json": row.state_json}
    if language is not None:
        outputs["report.txt"] = render("report.txt.j2", language, **common)
    template = orders_template_context(ruleset, from_snapshot(snapshot))
    for seat, spoken in (dict.fromkeys(snapshot["players"], "en") if seats is None else seats).items():
        outputs[f"report-{seat}.txt"] = render(
            "report-seat.txt.j2", spoken, seat=seat, losses=losses_of, **common, **template
        )
    return outputs


def turn_map(ruleset: Ruleset, game: Game, row: Turn, language: str = "en") -> str:
    """map.svg of a stored turn: the position after it, with the turn's moves and battles marked."""
    if row.seat:
        heading = gettext(
            language, "%(game)s, turn %(number)s (%(seat)s)", game=game.name, number=row.number, seat=row.seat
        )
    else:
        heading = gettext(language, "%(game)s, turn %(number)s (setup)", game=game.name, number=row.number)
    return _map(ruleset.name, row.state_json, row.events_json, heading, language)


@lru_cache(maxsize=8)
def _map(ruleset: str, state_json: str, events_json: str, heading: str, language: str) -> str:
    """The map is drawn for the turn's files and again for its report mails: once is enough."""
    return render_map_for_turn(ruleset, state_json, events_json, heading, language)


def write_turn_files(
    folder: Path,
    ruleset: Ruleset,
    game: Game,
    rows: list[Turn],
    languages: Mapping[str, str],
    before: str | None = None,
    only: Collection[str] | None = None,
) -> list[Path]:
    """Report, private reports (each in its seat's language), snapshot and map of each turn (written after the
    commit, atomically); `before` is the snapshot text before the first of them. `only`: just these file names."""
    written = []
    for row in rows:
        turn_folder = folder / f"turn-{row.number:04d}"
        seats = {seat: languages.get(seat, "en") for seat in json.loads(row.state_json)["players"]}
        outputs = {**turn_reports(ruleset, game, row, seats, before=before), "map.svg": turn_map(ruleset, game, row)}
        before = row.state_json
        for filename, text in outputs.items():
            if only is not None and filename not in only:
                continue
            # the public report and map follow the umask; private reports and the snapshot (which holds every
            # seat's standing orders) stay the moderator's
            write_atomically(turn_folder / filename, text, public=filename in ("report.txt", "map.svg"))
            written.append(turn_folder / filename)
    return written


Answers = dict[str, dict[str, str]]


def play(
    ruleset: Ruleset,
    state: GameState,
    orders_text: str,
    dice: KeyedDice | GivenDice,
    answers: Answers | None = None,
    ask: bool = False,
    settled: frozenset[tuple[str, str]] = frozenset(),
) -> TurnResult:
    orders = parse_orders(orders_text, ruleset) if orders_text else None
    return resolve(ruleset, state, orders, dice, answers or {}, ask, settled=settled)


def turn_row(
    game: Game,
    number: int,
    seat: str,
    round_: int,
    orders_text: str,
    result: TurnResult,
    dice: KeyedDice | GivenDice,
    answers: Answers | None = None,
) -> Turn:
    from adjudicator.archive.models import Turn

    assert game.id is not None
    state_json = snapshot_text(result.state)
    return Turn(
        game_id=game.id,
        number=number,
        seat=seat,
        round=round_,
        orders_text=orders_text,
        dice_source="keyed" if isinstance(dice, KeyedDice) else "given",
        given_dice=" ".join(str(v) for v in dice.values) if isinstance(dice, GivenDice) else "",
        turn_key=dice.key.hex() if isinstance(dice, KeyedDice) else "",
        state_json=state_json,
        **replayed_fields(orders_text, result, dice, state_json),
        answers_json=json.dumps(answers or {}, sort_keys=True),
        created=now(),
    )


def replayed_fields(
    orders_text: str, result: TurnResult, dice: KeyedDice | GivenDice, state_json: str
) -> dict[str, str]:
    """The fields of a stored turn that its replay must reproduce exactly (what `pbem verify` compares);
    `state_json` is the snapshot text of the resulting state."""
    return {
        "state_hash": hashlib.sha256(state_json.encode()).hexdigest(),
        "events_json": json.dumps([e.to_json() for e in result.events], ensure_ascii=False),
        "results_json": json.dumps([r.to_json() for r in result.order_results], ensure_ascii=False),
        "dice_json": json.dumps(result.dice),
        "orders_hash": dice.orders_hash if isinstance(dice, KeyedDice) else orders_digest([orders_text]),
    }


# What a turn's chain hash covers (item 2 of issue 12): its place, its inputs and its outputs. The state is covered
# by its hash, which verify checks against the stored state.
CHAINED = (
    "number",
    "seat",
    "round",
    "orders_text",
    "orders_hash",
    "dice_source",
    "given_dice",
    "turn_key",
    "answers_json",
    "state_hash",
    "events_json",
    "results_json",
    "dice_json",
)


def chain_hash(previous: str, row: Turn) -> str:
    """A turn's link in its game's chain: sha256 over the previous turn's link (the dice commitment before the first
    turn) and the turn's fields, so that editing, deleting or moving a turn breaks the links from there on."""
    fields = [previous, *(getattr(row, name) for name in CHAINED)]
    return hashlib.sha256(json.dumps(fields, ensure_ascii=False).encode()).hexdigest()


def chain_head(session: Session, game: Game) -> str:
    """The link of the game's latest live turn: stored in the game row, or computed (archives of older versions)."""
    from adjudicator.archive import store as db

    if game.chain_head:
        return game.chain_head
    link = game.commitment
    for row in db.turns(session, game):
        link = row.chain or chain_hash(link, row)
    return link


def link_turn(session: Session | None, game: Game, row: Turn) -> None:
    """Chain a new turn to the game's latest and make it the game's head, in the transaction that stores it
    (`session` None: the game's first turn)."""
    row.chain = chain_hash(chain_head(session, game) if session is not None else game.commitment, row)
    game.chain_head, game.chain_turn = row.chain, row.number


@dataclass
class Adjudication:
    game: Game
    ruleset: Ruleset
    turns: list[Turn] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)
    stored_blocks: list[str] = field(default_factory=list)
    waiting: list[Decision] = field(default_factory=list)  # decisions asked for; the turn waits for them
    waiting_on: tuple[int, TurnResult] | None = None  # the turn that waits, as far as it got
    languages: dict[str, str] = field(default_factory=dict)  # seat -> language of its reports and notices
    before: str | None = None  # the snapshot text before the first turn resolved (for the battle headers)
    not_understood: list[tuple[str, OrderError]] = field(default_factory=list)  # lines of the turn file's blocks
    repaired: list[Path] = field(default_factory=list)  # files of earlier turns that the disk lacked, written now

    def write_files(self, data: Path) -> list[Path]:
        """The reports of the turns resolved and the notices of the decisions asked (after the commit)."""
        folder = game_folder(data, self.game.name)
        self.files = write_turn_files(folder, self.ruleset, self.game, self.turns, self.languages, self.before)
        if self.waiting_on is not None:
            before = self.turns[-1].state_json if self.turns else self.before
            self.files += write_decision_notices(
                folder, self.ruleset, self.game, *self.waiting_on, self.waiting, self.languages, before
            )
        return self.files


def adjudicate(
    archive: Archive, data: Path, name: str, turn_file: str | None = None, defaults: bool = False, early: bool = True
) -> Adjudication:
    """Resolve the due player-turn(s) from stored orders (and a turn file's blocks), in one transaction
    that holds the game's lock; write the files after the commit. Without `early`, a game whose deadline has
    not passed while due seats have no orders stored is refused (the moderator's `--now` allows it)."""
    repaired = write_missing_files(archive, data, name)  # item 8: files of a turn whose writer died after its commit
    with archive.session() as session:
        game, ruleset, state = current_game(session, name, lock=True)
        done = adjudicate_locked(session, game, ruleset, state, turn_file, defaults, early=early)
    done.write_files(data)
    done.repaired = repaired
    return done


def adjudicate_locked(
    session: Session,
    game: Game,
    ruleset: Ruleset,
    state: GameState,
    turn_file: str | None = None,
    defaults: bool = False,
    moment: datetime | None = None,
    early: bool = True,
) -> Adjudication:
    """The work of `adjudicate` inside the caller's transaction, which holds the game's lock. When turns are
    resolved, the next deadline is set from `moment` (default now) in the same transaction.

    In a game that asks for decisions, a turn that needs an unanswered decision is not stored: the questions
    are (Adjudication.write_files writes the notices), and a later call resolves the turn again from the same
    inputs with the answers (or, with `defaults` or once the waiting time is over, with the defaults).
    """
    from adjudicator.archive import store as db

    done = Adjudication(game, ruleset, languages={s.seat: s.language for s in db.game_seats(session, game)})
    if state.active is None:
        raise PbemError(f"game {game.name} has ended")
    due = due_turns(state, game.pace)
    done.before = snapshot_text(state)
    if turn_file is not None:
        for block in parse_turn_file(turn_file, ruleset):
            seat = authenticate(session, game, block).seat
            assert block.header is not None
            if seat not in {s for _, s in due}:
                raise PbemError(
                    f"line {block.header.line}: the turn file has orders for {seat}, whose "
                    f"player-turn is not due (due: {', '.join(f'{n} {s}' for n, s in due)})"
                )
            number = expected_turn(state, game.pace, seat, block.header.turn)
            db.store_orders(session, game, number, seat, without_passwords(block.source), now(), "turn-file")
            done.stored_blocks.append(seat)
            done.not_understood += [(seat, e) for e in redacted(block).errors]
    if not early:
        refuse_before_deadline(session, game, due, moment)
    seed = bytes.fromhex(game.seed)
    for number, seat in due:
        if state.active != seat or state.turn + 1 != number:
            break  # a seat eliminated earlier in the round
        text, asked, answers, dice = _turn_inputs(session, game, seed, number, seat)
        result = play(
            ruleset,
            state,
            text,
            dice,
            answers,
            ask=game.decisions == "ask" and not defaults,
            settled=_settled(game, asked, moment),
        )
        if result.pending:
            done.waiting = _ask(session, game, number, asked, questions_now(result.pending))
            done.waiting_on = (number, result)
            break
        row = turn_row(game, number, seat, state.round, text, result, dice, answers)
        link_turn(session, game, row)
        session.add(row)
        done.turns.append(row)
        state = result.state
    if done.turns:
        game.deadline = ((moment or datetime.now(UTC)) + timedelta(hours=game.turn_hours)).isoformat(timespec="seconds")
        if game.pace == "turn":
            recheck_orders_sent_ahead(session, game, ruleset, state)
    if state.active is None:
        game.status = "ended"
    session.add(game)
    return done


def _turn_inputs(
    session: Session, game: Game, seed: bytes, number: int, seat: str
) -> tuple[str, list[Decision], Answers, KeyedDice]:
    """What a player-turn is resolved from: the seat's stored orders, the decisions asked with their answers, and
    the turn's dice stream."""
    from adjudicator.archive import store as db

    stored = db.current_orders(session, game, number, seat)
    text = stored.text if stored else ""
    asked = db.decisions(session, game, number)
    answers: Answers = {}
    for decision in asked:
        if decision.answer is not None:
            answers.setdefault(decision.seat, {})[decision.key] = decision.answer
    return text, asked, answers, KeyedDice(key=turn_key(seed, number), orders_hash=orders_digest([text]))


def write_missing_files(archive: Archive, data: Path, name: str) -> list[Path]:
    """Write what the archive holds and the disk lacks (item 8 of issue 12): the files of every stored turn and the
    decision notices of the turn waiting for answers, which a process that died after its commit never wrote.
    Nothing is stored; returns the files written."""
    from adjudicator.archive import store as db

    with archive.session() as session:
        game, ruleset, state = current_game(session, name)
        rows = db.turns(session, game)
        languages = {s.seat: s.language for s in db.game_seats(session, game)}
        folder = game_folder(data, name)
        unanswered = [d for d in db.decisions(session, game, state.turn + 1) if d.answer is None]
        # the turn is resolved again (as far as it gets) only when a notice is missing
        lacking_seats = {d.seat for d in unanswered if not _notice_written(folder, d)}
        waiting = _waiting_turn(session, game, ruleset, state) if lacking_seats else None
    names = {"report.txt", "snapshot.json", "map.svg", *(f"report-{seat}.txt" for seat in languages)}
    written: list[Path] = []
    before = None
    for row in rows:
        lacking = {n for n in names if not (folder / f"turn-{row.number:04d}" / n).exists()}
        if lacking:
            written += write_turn_files(folder, ruleset, game, [row], languages, before, only=lacking)
        before = row.state_json
    if waiting is not None:
        number, result, questions = waiting
        lacking = [d for d in questions if d.seat in lacking_seats]
        if lacking:
            written += write_decision_notices(folder, ruleset, game, number, result, lacking, languages, before)
    return written


def repair(archive: Archive, data: Path, name: str | None = None) -> tuple[dict[str, list[Path]], dict[str, str]]:
    """`pbem repair [GAME]`: write what the archive holds and the disk lacks, for one game or every game; returns
    the files written per game, and the games that could not be repaired with the reason."""
    from sqlmodel import select

    from adjudicator.archive import store as db
    from adjudicator.archive.models import Game

    with archive.session() as session:
        every = session.exec(select(Game.name).order_by(Game.name))  # type: ignore[arg-type]
        names = [db.find_game(session, name).name] if name else list(every)
    written, failed = {}, {}
    for game in names:
        try:
            written[game] = write_missing_files(archive, data, game)
        except Exception as trouble:  # noqa: BLE001 (a damaged game must not keep the others from their files)
            failed[game] = f"{type(trouble).__name__}: {trouble}"
    return written, failed


def _waiting_turn(
    session: Session, game: Game, ruleset: Ruleset, state: GameState
) -> tuple[int, TurnResult, list[Decision]] | None:
    """The turn that waits for answers, resolved again as far as it gets, with the questions asked now (as
    adjudicate_locked asks them); None when no turn waits."""
    number, seat = state.turn + 1, state.active
    if seat is None or game.decisions != "ask":
        return None
    text, asked, answers, dice = _turn_inputs(session, game, bytes.fromhex(game.seed), number, seat)
    if all(d.answer is not None for d in asked):
        return None
    result = play(ruleset, state, text, dice, answers, ask=True, settled=_settled(game, asked, None))
    now_asked = {(need["seat"], need["key"]) for need in questions_now(result.pending)}
    questions = [d for d in asked if d.answer is None and (d.seat, d.key) in now_asked]
    return (number, result, questions) if questions else None


def _notice_written(folder: Path, decision: Decision) -> bool:
    """Whether the seat's notice of the decision's turn was written when (or after) the decision was asked; an
    older one is from an asking that a roll-back withdrew."""
    notice = folder / "outbox" / f"decisions-turn-{decision.turn:04d}-{decision.seat}.txt"
    asked = datetime.fromisoformat(decision.asked) - timedelta(seconds=1)
    return notice.exists() and datetime.fromtimestamp(notice.stat().st_mtime, UTC) >= asked


def _settled(game: Game, asked: list[Decision], moment: datetime | None) -> frozenset[tuple[str, str]]:
    """The questions asked and left unanswered longer than the waiting time: they take their defaults (C-15),
    while the decisions after them are still asked in their turn."""
    late = (moment or datetime.now(UTC)) - timedelta(hours=game.decision_hours)
    return frozenset((d.seat, d.key) for d in asked if d.answer is None and datetime.fromisoformat(d.asked) <= late)


def questions_now(pending: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The decisions to ask now: the first one the turn needed, and those right after it with no die rolled and
    nothing else happening in between. A later decision may depend on a roll not yet made or on the first
    answer: asking it now would tell the players what the dice or the defaults did (issue 11, fairness)."""
    now_asked = pending[:1]
    for need in pending[1:]:
        last = now_asked[-1]
        if need["rolls"] != last["rolls"] or need["event"] != last["event"] + 1:
            break
        now_asked.append(need)
    return now_asked


def refuse_before_deadline(session: Session, game: Game, due: list[tuple[int, str]], moment: datetime | None) -> None:
    """Adjudicating before the deadline while due seats have sent no orders would cut their time short: refused,
    naming them (the moderator may insist with `pbem adjudicate --now`)."""
    from adjudicator.archive import store as db

    if game.deadline is None or (moment or datetime.now(UTC)) >= datetime.fromisoformat(game.deadline):
        return
    missing = [
        f"{seat} (turn {number})" for number, seat in due if db.current_orders(session, game, number, seat) is None
    ]
    if missing:
        raise PbemError(
            f"the deadline {game.deadline} (UTC) has not passed and no orders are stored for "
            f"{', '.join(missing)}; wait, or adjudicate with --now to resolve without them"
        )


def recheck_orders_sent_ahead(session: Session, game: Game, ruleset: Ruleset, state: GameState) -> None:
    """Orders sent ahead for a player-turn that has just opened are checked again against the position as it
    now stands, and the seat gets a fresh receipt, queued in the adjudication's transaction (item 8)."""
    from adjudicator.archive import store as db

    for number, seat_name in due_turns(state, game.pace):
        stored = db.current_orders(session, game, number, seat_name)
        if stored is None:
            continue
        seat = db.find_seat(session, game, seat_name)
        orders = parse_orders(stored.text, ruleset)
        receipt = Receipt(
            game.name,
            seat_name,
            number,
            list(orders.errors),
            check_against(ruleset, state, orders, seat_name, number),
            stored=True,
            rechecked=True,
        )
        say = seat.language
        db.queue_mail(
            session,
            seat.email,
            f"[{game.name}] " + gettext(say, "Receipt for turn %(turn)s", turn=number),
            receipt.text_in(say),
            now(),
            game.name,
        )


def _ask(
    session: Session, game: Game, number: int, asked: list[Decision], pending: list[dict[str, Any]]
) -> list[Decision]:
    """Store the decisions the turn needs (once each) and return those still unanswered."""
    from adjudicator.archive.models import Decision

    known = {(d.seat, d.key): d for d in asked}
    waiting = []
    for need in pending:
        decision = known.get((need["seat"], need["key"]))
        if decision is None:
            assert game.id is not None
            decision = Decision(
                game_id=game.id,
                turn=number,
                seat=need["seat"],
                key=need["key"],
                question=need["question"],
                default=need["default"],
                rule=need["rule"],
                asked=now(),
            )
            session.add(decision)
        waiting.append(decision)
    return waiting


def write_decision_notices(
    folder: Path,
    ruleset: Ruleset,
    game: Game,
    number: int,
    result: TurnResult,
    waiting: list[Decision],
    languages: Mapping[str, str],
    before: str | None = None,
) -> list[Path]:
    """One notice per asked seat, in its language: the turn up to the point where the first question arose and
    the questions, with how to answer them. Nothing after that point is shown, neither an event nor a die."""
    written = []
    point = result.pending[0]
    events = [e for e in told(result.events[: point["event"]], json.loads(before) if before else None) if e.public]
    rolls = [
        (purpose, [value for _, value in group])
        for purpose, group in groupby(result.dice[: point["rolls"]], key=lambda roll: roll[0])
    ]
    for seat in sorted({d.seat for d in waiting}):
        path = folder / "outbox" / f"decisions-turn-{number:04d}-{seat}.txt"
        write_atomically(
            path,
            render(
                "decisions.txt.j2",
                languages.get(seat, "en"),
                title=ruleset.title,
                game=game.name,
                turn=number,
                seat=seat,
                events=events,
                rolls=rolls,
                symbols=symbol_dice(ruleset),
                questions=[d for d in waiting if d.seat == seat],
                hours=game.decision_hours,
            ),
        )
        written.append(path)
    return written


@dataclass
class AnswerReceipt:
    game: str
    seat: str
    turn: int
    stored: list[str]
    problems: list[str]
    open: list[str]


def answer(archive: Archive, name: str, text: str) -> AnswerReceipt:
    """`pbem answer`: store a seat's answers to the decisions asked for the turn being resolved."""
    with archive.session() as session:
        game, ruleset, state = current_game(session, name, lock=True)
        orders = parse_orders(text, ruleset)
        seat = authenticate(session, game, orders).seat
        return store_answers(session, game, state, orders, seat)


def store_answers(session: Session, game: Game, state: GameState, orders: OrderSet, seat: str) -> AnswerReceipt:
    """Record an authenticated seat's ANSWER lines for the decisions asked of it."""
    from adjudicator.archive import store as db

    assert orders.header is not None
    number = state.turn + 1
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
            decision.answer, decision.answered = order.value, now()
            session.add(decision)
            stored.append(order.key)
    still_open = [k for k, d in asked.items() if d.answer is None]
    return AnswerReceipt(game.name, seat, number, stored, problems, still_open)


# -- files only --------------------------------------------------------------------------------------------


def snapshot_json(text: str) -> Any:
    """The JSON data of a state file, or a PbemError naming the line where it stops being JSON we can read."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as bad:
        raise PbemError(f"state file: not JSON (line {bad.lineno}, column {bad.colno}: {bad.msg})") from None
    except RecursionError:  # json.loads recurses once per level of nesting
        line = text.count("\n", 0, _deep_nesting(text)) + 1
        raise PbemError(
            f"state file line {line}: arrays or objects nested too deeply (a snapshot has 7 levels)"
        ) from None
    except ValueError:  # a number of more than 4,300 digits (Python's limit on converting text to int)
        found = re.search(r"\d{4300,}", text)
        line = text.count("\n", 0, found.start() if found else 0) + 1
        raise PbemError(f"state file line {line}: a number of more than 4,300 digits") from None


def _deep_nesting(text: str, limit: int = 100) -> int:
    """Where `text` opens its `limit`-th nested array or object (strings skipped), else its end."""
    depth, inside, escaped = 0, False, False
    for at, char in enumerate(text):
        if inside:
            escaped, inside = char == "\\" and not escaped, inside and (char != '"' or escaped)
        elif char == '"':
            inside = True
        elif char in "[{":
            depth += 1
            if depth >= limit:
                return at
        elif char in "]}":
            depth -= 1
    return len(text)


def load_snapshot(text: str) -> tuple[GameState, Ruleset]:
    """A snapshot file's state and ruleset, or a PbemError naming what breaks the schema."""
    data = snapshot_json(text)
    ruleset_name = data.get("ruleset") if isinstance(data, dict) else None
    if not isinstance(ruleset_name, str):
        raise PbemError("state file: missing field 'ruleset'")
    ruleset = load_ruleset(ruleset_name)
    return from_snapshot(data, set(ruleset.board.areas)), ruleset


@dataclass
class FileResolution:
    turns: list[Turn]
    files: list[Path]
    state: GameState
    not_understood: list[tuple[str, OrderError]] = field(default_factory=list)  # (seat, line of the turn file)
    spare_dice: int = 0  # rolls of the dice file that no battle needed


def resolve_files(
    state_text: str, orders_text: str, dice_text: str | None, out: Path, strict_dice: bool = False
) -> FileResolution:
    """`pbem resolve`: the due player-turns of a snapshot from a turn file, with no archive.

    Turns are resolved in turn order from the active seat up to the last seat of the round with an order
    block; seats in between without a block do nothing. Passwords cannot be checked without an archive.
    Without a dice file the dice stream is keyed by the snapshot's hash (reproducible, not secret).
    Lines not understood do nothing; the report gives them their verdict among the orders' verdicts. Rolls
    of the dice file left over are reported; with `strict_dice` they are an error and nothing is written.
    """
    from adjudicator.archive.models import Game

    state, ruleset = load_snapshot(state_text)
    blocks = parse_turn_file(orders_text, ruleset)
    coming = schedule(state)
    numbers = {s: n for n, s in coming}
    by_seat: dict[str, str] = {}
    not_understood = [(block.header.player, e) for block in map(redacted, blocks) if block.header for e in block.errors]
    for block in blocks:
        if block.header is None:
            raise PbemError("orders file: " + "; ".join(e.located for e in block.errors))
        seat = block.header.player
        if block.header.game.casefold() != state.game.casefold():
            raise PbemError(
                f"orders file line {block.header.line}: game {block.header.game!r}, but the state "
                f"is of game {state.game!r}"
            )
        if seat not in numbers:
            raise PbemError(
                f"orders file line {block.header.line}: {seat}'s player-turn is not due in this "
                f"round (due: {', '.join(f'{n} {s}' for n, s in coming)})"
            )
        if block.header.turn != numbers[seat]:
            raise PbemError(
                f"orders file line {block.header.line}: TURN {block.header.turn}, but {seat}'s "
                f"coming player-turn is turn {numbers[seat]}"
            )
        if seat in by_seat:
            raise PbemError(f"orders file line {block.header.line}: a second block for {seat}")
        by_seat[seat] = block.source
    last = max((numbers[s] for s in by_seat), default=coming[0][0] if coming else 0)
    given = GivenDice(values=parse_dice_file(dice_text, COMBAT_DIE_SYMBOLS)) if dice_text is not None else None
    game = Game(id=0, name=state.game, ruleset=ruleset.name, seed="", commitment="", created="")
    rows, befores = [], []
    for number, seat in coming:
        if number > last or state.active != seat:
            break
        befores.append(snapshot_text(state))
        text = by_seat.get(seat, "")
        dice = given or KeyedDice(key=bytes.fromhex(state_hash(state)), orders_hash=orders_digest([text]))
        result = play(ruleset, state, text, dice)
        rows.append(turn_row(game, number, seat, state.round, text, result, dice))
        state = result.state
    spare = given.unused if given is not None else 0
    if spare and strict_dice:
        raise PbemError(f"{spare} rolls of the dice file were not used (--strict-dice)")
    contexts = [
        with_lines_not_understood(turn_context(r, b), r.orders_text, ruleset)
        for r, b in zip(rows, befores, strict=True)
    ]
    common = {
        "title": ruleset.title,
        "game": state.game,
        "turns": contexts,
        "state": json.loads(snapshot_text(state)),
        "commitment": "",
        "seats": list(state.players),
    }
    # report.txt of `pbem resolve` is the moderator's (the interface keeps each seat's verdicts there); what the
    # public may read is public.txt, and each seat's orders, verdicts and decisions are in its private report
    outputs = {
        "report.txt": render("report.txt.j2", **common, moderator=True),
        "public.txt": render("report.txt.j2", **common),
        "snapshot.json": snapshot_text(state),
    }
    if spare:
        unused = gettext("en", "%(count)s rolls of the dice file were not used.", count=spare)
        outputs["report.txt"] += f"\n{unused}\n"
    template = orders_template_context(ruleset, state)
    for seat in state.players:
        outputs[f"report-{seat}.txt"] = render("report-seat.txt.j2", seat=seat, losses=losses_of, **common, **template)
    for filename, text in outputs.items():
        write_atomically(out / filename, text, public=filename == "public.txt")
    return FileResolution(rows, [out / filename for filename in outputs], state, not_understood, spare)


def with_lines_not_understood(context: dict[str, Any], orders_text: str, ruleset: Ruleset) -> dict[str, Any]:
    """A turn's report context whose verdicts include the lines of its order set that were not understood (they
    did nothing), in line order, so that every line sent gets a verdict."""
    errors = list(parse_orders(orders_text, ruleset).errors) if orders_text else []
    if errors:
        context["results"] = sorted([*context["results"], *errors], key=lambda item: item.line)
    return context


# -- verification ------------------------------------------------------------------------------------------


def verify(archive: Archive, name: str) -> tuple[list[str], list[str]]:
    """Replay every stored turn from its archived inputs and follow the turns' chain; returns (checks passed,
    problems found). A damaged row is a problem line naming its turn, and the check goes on to the end."""
    from adjudicator.archive import store as db

    with archive.session() as session:
        game = db.find_game(session, name)
        rows = db.turns(session, game)
        seats = [s.seat for s in db.game_seats(session, game)]
    ruleset = load_ruleset(game.ruleset)
    passed: list[str] = []
    problems: list[str] = []
    keys = _dice_keys(game, rows, problems)
    previous: GameState | None = None
    for index, row in enumerate(rows):
        try:
            _verify_turn(ruleset, game, seats, rows, index, previous, keys, passed, problems)
        except Exception as broken:  # noqa: BLE001 (a damaged row is a problem of its turn, not the end of verify)
            problems.append(f"turn {row.number}: cannot be replayed ({type(broken).__name__}: {broken})")
        previous = _stored_state(row, problems)
    _verify_chain(game, rows, passed, problems)
    return passed, problems


def _dice_keys(game: Game, rows: list[Turn], problems: list[str]) -> list[bytes]:
    """The game's turn keys up to its last turn (at most the chain's length); none when the seed is unreadable."""
    try:
        seed = bytes.fromhex(game.seed)
    except ValueError:
        problems.append("the game's dice seed is not readable: no turn key can be checked")
        return []
    last = min(max((row.number for row in rows), default=0), CHAIN_LENGTH - 1)
    keys = chain_keys(seed, max(last, 0))
    if keys[0].hex() != game.commitment:
        problems.append("the dice seed does not match the published commitment")
    return keys


def _stored_state(row: Turn, problems: list[str]) -> GameState | None:
    """The position a stored turn ends with (the start of the next turn's replay), or None when unreadable."""
    try:
        return from_snapshot(json.loads(row.state_json))
    except Exception as unreadable:  # noqa: BLE001 (whatever is wrong with the row, verify names it and goes on)
        problems.append(
            f"turn {row.number}: the stored state cannot be read ({type(unreadable).__name__}: "
            f"{unreadable}); the next turn is not replayed"
        )
        return None


def _verify_turn(
    ruleset: Ruleset,
    game: Game,
    seats: list[str],
    rows: list[Turn],
    index: int,
    previous: GameState | None,
    keys: list[bytes],
    passed: list[str],
    problems: list[str],
) -> None:
    """Check one stored turn: its state hash, its place in the sequence, where its dice came from, its replay."""
    row = rows[index]
    if hashlib.sha256(row.state_json.encode()).hexdigest() != row.state_hash:
        problems.append(f"turn {row.number}: the stored state does not match its hash")
    if index and row.number != rows[index - 1].number + 1:
        problems.append(f"turn {row.number}: follows turn {rows[index - 1].number}; the turns between are missing")
    # item 1 of issue 12: only `pbem new --from-snapshot` stores an imported position, as the game's first turn;
    # nothing stores dice from a file. Such a turn cannot be replayed from the verifiable dice: it was edited.
    if row.dice_source == "given":
        problems.append(
            f"turn {row.number}: its dice are marked as given from a dice file, which no stored turn "
            "can be: the turn was edited and its dice cannot be checked"
        )
        return
    if row.dice_source == "imported":
        if index:
            problems.append(
                f"turn {row.number}: marked as an imported position, which only a game's first turn "
                "can be: the turn was edited and cannot be checked"
            )
        else:
            passed.append(f"turn {row.number}: the game starts from an imported position (not replayed)")
        return
    if row.dice_source != "keyed":
        problems.append(f"turn {row.number}: unknown dice source {row.dice_source!r}")
        return
    if row.number == 0 and not index:
        expected = ruleset.initial_state(game.name, sorted(seats, key=ruleset.seat_names.index))
        same = state_hash(expected) == row.state_hash
        (passed if same else problems).append(f"turn 0: setup {'matches' if same else 'differs from'} the setup rules")
        return
    if not index:
        problems.append(f"turn {row.number}: the first stored turn is neither the setup nor an imported position")
        return
    if previous is None:
        problems.append(f"turn {row.number}: not replayed, the position before it is missing or unreadable")
        return
    if not 0 < row.number < len(keys):
        problems.append(f"turn {row.number}: outside the game's dice chain; not replayed")
        return
    if row.turn_key != keys[row.number].hex() or not key_follows(row.turn_key, keys[row.number - 1].hex()):
        problems.append(f"turn {row.number}: the revealed turn key is not the chain's")
    dice = KeyedDice(key=keys[row.number], orders_hash=orders_digest([row.orders_text]))
    answers = json.loads(row.answers_json)
    # as play(ruleset, previous, row.orders_text, dice, answers) does, but on `previous` itself, which is
    # a freshly loaded position that is not used again: no copy of it is needed
    orders = parse_orders(row.orders_text, ruleset) if row.orders_text else None
    result = resolve(ruleset, previous, orders, dice, answers, in_place=True)
    replay = replayed_fields(row.orders_text, result, dice, snapshot_text(result.state))
    differences = [what for what, value in replay.items() if value != getattr(row, what)]
    broken = ruleset.broken_invariants(result.state)
    if differences:
        problems.append(f"turn {row.number} ({row.seat}): replay differs in {', '.join(differences)}")
    elif broken:
        problems.append(f"turn {row.number} ({row.seat}): invariants broken: {'; '.join(broken)}")
    else:
        passed.append(f"turn {row.number} ({row.seat}): replay matches ({len(result.dice)} dice), invariants hold")


def _verify_chain(game: Game, rows: list[Turn], passed: list[str], problems: list[str]) -> None:
    """Follow the turns' chain (item 2 of issue 12): each stored link must cover its turn and the link before it,
    and the game's head must be the last turn's, so that an edited, deleted or moved turn is named. Turns stored
    by older versions have no link: it is computed, and they are not failed for it."""
    link, unstored, stored = game.commitment, [], False
    for index, row in enumerate(rows):
        own = chain_hash(link, row)
        if not row.chain:
            if stored:
                problems.append(f"turn {row.number}: its chain hash is missing, though earlier turns have theirs")
            else:
                unstored.append(row.number)
        elif row.chain != own:
            before = f"turn {rows[index - 1].number}" if index else "the dice commitment"
            problems.append(
                f"turn {row.number}: the chain is broken here: this turn was edited, or it does not "
                f"follow {before} as stored (a turn edited, deleted or moved)"
            )
        stored = stored or bool(row.chain)
        link = row.chain or own
    if unstored:
        passed.append(
            f"turns {unstored[0]}-{unstored[-1]}: no chain hash stored (an archive of an older version); computed"
        )
    if not rows:
        problems.append(f"the game has no stored turn (its chain head is turn {game.chain_turn}'s)")
        return
    last = rows[-1].number
    if not game.chain_head:
        if stored:
            problems.append("the game's chain head is missing, though its turns have chain hashes")
        passed.append(f"chain head (computed) after turn {last}: {link}")
    elif game.chain_head != link or game.chain_turn != last:
        problems.append(
            f"the game's chain head is that of turn {game.chain_turn}, but the chain of the stored turns "
            f"ends at turn {last} with another hash: a turn was deleted or edited "
            f"(head {game.chain_head}, stored turns {link})"
        )
    else:
        passed.append(f"chain head after turn {last}: {link} (the turn's report publishes it)")


def stored_report(
    archive: Archive, name: str, number: int | None, seat: str | None, language: str | None = None
) -> str:
    """Render a stored turn's public (or a seat's private) report again from the archive, in `language` (default:
    English, or the seat's language)."""
    from adjudicator.archive import store as db

    with archive.session() as session:
        game = db.find_game(session, name)
        row = db.latest_turn(session, game) if number is None else db.get_turn(session, game, number)
        before = next((r.state_json for r in reversed(db.turns(session, game)) if r.number < row.number), None)
        spoken = {}
        if seat is not None:
            found = db.find_seat(session, game, seat)
            seat, spoken = found.seat, {found.seat: language or found.language}
    reports = turn_reports(load_ruleset(game.ruleset), game, row, spoken, language or "en", before)
    return reports[f"report-{seat}.txt" if seat else "report.txt"]


def write_game_site(
    archive: Archive, name: str, out: Path, progress: Callable[[str], None] | None = None, language: str = "en"
) -> list[Path]:
    """`pbem site`: the game's public archive as static HTML (adjudicator/render/site.py) in `out`."""
    from adjudicator.archive import store as db
    from adjudicator.render.site import SiteTurn, write_site

    with archive.session() as session:
        game = db.find_game(session, name)
        rows = db.turns(session, game)
    ruleset = load_ruleset(game.ruleset)
    befores = [None, *(row.state_json for row in rows[:-1])]
    pages = [
        SiteTurn(
            number=row.number,
            seat=row.seat,
            round=row.round,
            report=turn_reports(ruleset, game, row, {}, language, before)["report.txt"],
            map_svg=turn_map(ruleset, game, row, language),
            events=[e for e in turn_context(row, before)["events"] if e.public],
            turn_key=row.turn_key,
            orders_hash=row.orders_hash,
            dice=json.loads(row.dice_json),
            dice_source=row.dice_source,
        )
        for row, before in zip(rows, befores, strict=True)
    ]
    about = {
        "name": game.name,
        "title": ruleset.title,
        "status": game.status,
        "commitment": game.commitment,
        "seats": list(json.loads(rows[-1].state_json)["players"]) if rows else [],
    }
    return write_site(out, about, pages, progress, language)
