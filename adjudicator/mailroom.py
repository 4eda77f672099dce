"""Play by mail: order mail in, receipts and reports out (to the outbox), deadlines, game-master tools.

Every incoming message is handled in one archive transaction together with the record of its Message-ID,
so that the same message again changes nothing and a crash in the middle leaves no trace to repair.
Replies go to the seat's registered address, never to the sender of a refused message; an address registered
nowhere (no seat, observer or moderator of any game) gets no answer at all: its mail is stored with its outcome,
which `pbem ingest` prints and `pbem log` lists. Answers thread with the mail they answer (In-Reply-To).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
import traceback
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from functools import cache
from pathlib import Path
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from adjudicator.archive import Archive
from adjudicator.archive import store as db
from adjudicator.archive.models import Decision, Game, Message, Observer, OrderSet, Seat, Turn
from adjudicator.mail.clock import UnknownZone, deadline_line, zone_name
from adjudicator.mail.commands import Command, split_commands
from adjudicator.mail.inbound import HEAD_BYTES, Incoming, address_problem
from adjudicator.moderator import (
    MAX_ORDER_BYTES,
    PASSWORD_MARK,
    PbemError,
    accept_password,
    adjudicate_locked,
    chain_head,
    current_game,
    due_turns,
    expected_turn,
    game_folder,
    hash_password,
    matching_password,
    now,
    passwords_in,
    store_answers,
    store_order_set,
    turn_map,
    turn_reports,
    without_passwords,
    write_missing_files,
)
from adjudicator.orders import parse_orders
from adjudicator.orders.keywords import spellings, written
from adjudicator.render import markup_environment, render
from adjudicator.render.i18n import N_, gettext
from adjudicator.rulesets import Ruleset, load_ruleset
from adjudicator.rulesets.coe.orders import Answer, Press
from adjudicator.rulesets.coe.orders import OrderSet as ParsedOrders
from adjudicator.rulesets.coe.state import GameState

HEADER_WORD = re.compile(r"^\s*(GAME|SPIEL|PARTITA|SPEL)\s+(\S+)", re.IGNORECASE | re.MULTILINE)

# Limits of one order mail (issue 12), beside the size and MIME limits of adjudicator/mail/inbound.py and the size
# of its order text (MAX_ORDER_BYTES, as for an order file). A whole player-turn of orders fits with room to spare;
# a mail over a limit is refused whole, with a receipt to the seat's registered address. Constants, not game
# options: they bound what one mail can cost the site and the other players, which no game needs to loosen.
MAX_TEXT_LINES = 1000  # lines of the order text (comments and blank lines included)
MAX_ORDERS = 300  # lines that are not blank, a comment or the header: orders, press, answers, commands
MAX_COMMANDS = 10  # mail commands (HELP, STATUS, OBSERVE, ...): each is answered by a mail
MAX_PRESS = 20  # PRESS and BROADCAST lines in one mail (each relayed to one or more seats)
MAX_PRESS_PER_TURN = 60  # PRESS and BROADCAST lines a seat sends with its orders for one of its player-turns
MAX_PRESS_CHARS = 4000  # characters of one press message or broadcast
KEPT_CHARS = 32 * 1024  # of an order text over MAX_ORDER_BYTES, the archive keeps the beginning only

Problem = tuple[str, dict[str, Any]]  # a catalogue message and its values: why a mail is refused


@cache
def _press_line() -> re.Pattern[str]:
    """A line that is a PRESS or BROADCAST order (first word in any language)."""
    words = "|".join(map(re.escape, spellings("PRESS") + spellings("BROADCAST")))
    # any white space but a line break may stand before it, as the order grammar allows
    return re.compile(rf"^[^\S\n]*(?:{words})(?![\w])(.*)$", re.IGNORECASE | re.MULTILINE)


def over_limits(text: str, commands: list[Command]) -> Problem | None:
    """The first limit an order text is over, read before it is parsed (parsing a huge text costs seconds)."""
    size, lines = len(text.encode()), text.split("\n")
    if size > MAX_ORDER_BYTES:
        return N_("the order text is %(size)s bytes long, more than the %(limit)s KB a mail may hold"), {
            "size": size,
            "limit": MAX_ORDER_BYTES // 1024,
        }
    if len(lines) > MAX_TEXT_LINES:
        return N_("the order text has %(count)s lines, more than the %(limit)s a mail may hold"), {
            "count": len(lines),
            "limit": MAX_TEXT_LINES,
        }
    orders = sum(
        1 for line in lines if line.strip() and not line.lstrip().startswith("#") and not HEADER_WORD.match(line)
    )
    if orders > MAX_ORDERS:
        return N_("it holds %(count)s orders, more than the %(limit)s a mail may hold"), {
            "count": orders,
            "limit": MAX_ORDERS,
        }
    if len(commands) > MAX_COMMANDS:
        return N_("it holds %(count)s mail commands, more than the %(limit)s a mail may hold"), {
            "count": len(commands),
            "limit": MAX_COMMANDS,
        }
    press = list(_press_line().finditer(text))
    if len(press) > MAX_PRESS:
        return N_("it holds %(count)s PRESS and BROADCAST lines, more than the %(limit)s a mail may hold"), {
            "count": len(press),
            "limit": MAX_PRESS,
        }
    for found in press:
        message = found.group(1).partition(":")[2].strip()
        if len(message) > MAX_PRESS_CHARS:
            return N_(
                "line %(line)s: the message is %(count)s characters long, more than the %(limit)s a press "
                "message may have"
            ), {"line": text.count("\n", 0, found.start()) + 1, "count": len(message), "limit": MAX_PRESS_CHARS}
    return None


@dataclass(frozen=True)
class Reading:
    """What is read of a mail before the archive is locked (the slow part: the lock is then held only to store):
    its text and commands, the game its header names, the first limit it is over, its orders parsed with that
    game's ruleset (only the header line when it is over a limit), and the password checked against the hash."""

    text: str
    commands: list[Command]
    game: str | None = None  # the name the header line gives
    problem: Problem | None = None
    orders: ParsedOrders | None = None  # None when the game is unknown
    # (the seat's password hashes, current and pending, it was checked against; which one it matched, if any)
    password: tuple[tuple[str, str], str | None] | None = None


def read_mail(archive: Archive, mail: Incoming) -> Reading:
    """Read a mail outside the archive's lock: limits first, then (in a short read of the game's ruleset and
    password hashes) the parse and the password check."""
    text, commands = split_commands(mail.text)
    header = HEADER_WORD.search(text)
    # an unread mail has no text, so no header: its problem goes only to a registered sender, in English
    problem: Problem | None = ("%(why)s", {"why": mail.unread}) if mail.unread else over_limits(text, commands)
    if header is None:
        return Reading(text, commands, None, problem)
    with archive.session() as session:
        try:
            game = db.find_game(session, header.group(2))
        except LookupError:
            return Reading(text, commands, header.group(2), problem)
        hashes = {seat.seat: (seat.password_hash, seat.pending_password_hash) for seat in db.game_seats(session, game)}
    start, end = text.rfind("\n", 0, header.start()) + 1, text.find("\n", header.end())
    header_line = text[start : end if end >= 0 else len(text)]
    orders = parse_orders(text if problem is None else header_line, load_ruleset(game.ruleset))
    checked = None
    if orders.header is not None and orders.header.player in hashes:
        stored = hashes[orders.header.player]
        checked = (stored, matching_password(orders.header.password, *stored))
    return Reading(text, commands, header.group(2), problem, orders, checked)


def _time(text: str) -> datetime:
    return datetime.fromisoformat(text)


def _later(hours: int) -> str:
    return (datetime.now(UTC) + timedelta(hours=hours)).isoformat(timespec="seconds")


def ingest(archive: Archive, mail: Incoming) -> str:
    """Handle one order mail; returns what became of it ("duplicate" when its Message-ID is known).

    Two processes reading the same message at once (two IMAP pollers, a filter and a cron job) cannot both
    store it: the Message-ID is unique in the archive, so the later commit fails and is rolled back whole."""
    secrets = passwords_in(mail.text)
    mail = replace(mail, subject=_without(mail.subject, secrets))  # the order text keeps its password: checked
    reading = read_mail(archive, mail)
    try:
        with archive.session() as session:
            known = session.exec(select(Message).where(Message.message_id == mail.message_id)).first()
            if known is not None:
                return _duplicate(session, mail, known, reading, archived_raw(mail, secrets))
            record = Message(
                message_id=mail.message_id,
                received=now(),
                sender=mail.sender.lower(),
                subject=mail.subject,
                raw=archived_raw(mail, secrets),
            )
            session.add(record)
            record.outcome = _handle(session, mail, record, reading)
    except IntegrityError:
        with archive.session() as session:
            if db.message_seen(session, mail.message_id):
                return "duplicate"
        raise
    return record.outcome


def archived_raw(mail: Incoming, secrets: set[str]) -> str:
    """What the archive keeps of a mail (item 3): its header fields as received and the order text read from it,
    with the passwords replaced by the mark. The body as sent is not kept: whatever its encoding
    (quoted-printable, base64, HTML) it holds the password, and so may the earlier mails it quotes."""
    head, blank, _ = mail.raw[:HEAD_BYTES].replace("\r\n", "\n").partition("\n\n")
    text = without_passwords(mail.text)
    if len(text) > MAX_ORDER_BYTES:  # refused as too long: its beginning shows the moderator what it was
        text = f"{text[:KEPT_CHARS]}\n[... {len(text) - KEPT_CHARS} more characters not kept]"
    return f"{_without(head, secrets) if blank or mail.unread else ''}\n\n{text}"


def _duplicate(session: Session, mail: Incoming, known: Message, reading: Reading, raw: str) -> str:
    """A Message-ID already stored: the same mail again changes nothing; another mail under that ID (other content)
    is not used either, and the seat its header names (else a registered sender) is told so."""
    if known.raw.partition("\n\n")[2] == raw.partition("\n\n")[2]:
        return "duplicate"
    outcome = "refused: the Message-ID of an earlier mail, with other content"
    header = reading.orders.header if reading.orders is not None else None
    seat = None
    if header is not None and reading.game is not None:
        try:
            game = db.find_game(session, reading.game)
        except LookupError:
            game = None
        seat = next((s for s in db.game_seats(session, game) if s.seat == header.player), None) if game else None
    trusted = reading.password is not None and reading.password[1] is not None
    if seat is not None and not trusted and mail.sender.lower() != seat.email.lower():
        seat = None  # neither the seat's password nor its address: nobody is told on a stranger's word
    if seat is None:
        return _answer_registered(
            session,
            mail,
            f"Your mail {mail.subject!r} carried the Message-ID "
            f"{mail.message_id} of an earlier mail, but other content: it was not used and "
            "nothing of it was stored. Send it again as a new mail.",
            outcome,
        )
    _tell(
        session,
        game,
        seat,
        N_("A mail for %(seat)s was not used"),
        N_(
            "A mail for %(seat)s (from %(sender)s, subject %(subject)s) carried the Message-ID %(id)s of an earlier "
            "mail, but other content: it was not used and nothing of it was stored. If you sent it, send it again "
            "as a new mail."
        ),
        seat=seat.seat,
        sender=mail.sender,
        subject=repr(mail.subject),
        id=mail.message_id,
    )
    return outcome


def _without(text: str, secrets: set[str]) -> str:
    """`text` with every word that is one of `secrets` replaced by the mark."""
    for secret in secrets:
        text = re.sub(rf"(?<!\S){re.escape(secret)}(?!\S)", PASSWORD_MARK, text)
    return text


def _handle(session: Session, mail: Incoming, record: Message, reading: Reading) -> str:
    text, commands, problem = reading.text, reading.commands, reading.problem
    if reading.game is None:
        if problem is not None:
            why = gettext("en", problem[0], **problem[1])
            return _answer_registered(
                session,
                mail,
                f"Your mail {mail.subject!r} was not used: {why}. Nothing of it was stored.",
                f"refused: {why}",
            )
        if commands:
            return _commands_without_header(session, mail, record, commands)
        if not db.games_of_address(session, mail.sender):
            return STRANGER + "refused: no header"  # a stranger gets nothing (the moderator sees it: pbem log)
        db.queue_mail(
            session,
            mail.sender,
            "Your mail to the PBEM moderator",
            "No order header was found in your mail. Orders start with a line\n"
            "  GAME <game> TURN <n> PLAYER <seat> PASSWORD <password>\n"
            "A mail with the single word HELP is answered with what one can write.\n",
            now(),
            **_thread(mail),
        )
        return "refused: no header"
    try:
        game, ruleset, state = current_game(session, reading.game, lock=True)
    except LookupError:
        return _unknown_game(session, mail, reading.game)
    record.game = game.name
    if game.selfplay:
        return STRANGER + "refused: a self-play game takes no mail"
    orders = reading.orders or parse_orders(text, ruleset)  # parsed here only for a game made since the reading
    if orders.header is None:
        return _refuse_openly(
            session, mail, game, "the header line is not complete: " + "; ".join(e.located for e in orders.errors)
        )
    try:
        seat_row = db.find_seat(session, game, orders.header.player)
    except LookupError as unknown:
        return _refuse_openly(session, mail, game, str(unknown))
    record.seat = seat_row.seat
    if not _authentic(session, game, seat_row, orders, reading):
        return _warn_seat(session, game, seat_row, mail, N_("a wrong password"), show_sender=False)
    if game.check_sender and mail.sender.lower() != seat_row.email.lower():
        return _warn_seat(session, game, seat_row, mail, N_("an address that is not yours"))
    problem = problem or _press_over_turn_limit(session, game, state, seat_row, orders, text)
    if problem is not None:
        say = seat_row.language
        why = gettext(say, problem[0], **problem[1])
        _reply(
            session,
            game,
            seat_row,
            gettext(say, "Your mail was not used"),
            gettext(
                say,
                "Your mail (subject %(subject)s) was not used: %(problem)s. Nothing of it was stored.",
                subject=repr(mail.subject),
                problem=why,
            )
            + "\n"
            + _deadline(game, seat_row),
            reply_to=mail,
        )
        return f"refused: {gettext('en', problem[0], **problem[1])}"
    if commands:  # first, so that a TIMEZONE command already shapes the receipt of the same mail
        _seat_commands(session, game, state, seat_row, mail, commands)
        if not orders.orders and not orders.errors:
            return "commands: " + ", ".join(c.name for c in commands)
    if orders.header.turn <= state.turn and not all(isinstance(o, Answer) for o in orders.orders):
        _tell(
            session,
            game,
            seat_row,
            N_("Late orders for turn %(turn)s"),
            N_(
                "Your orders for turn %(turn)s arrived after that turn was resolved; nothing was stored. The turn "
                "now open for your orders is announced in the latest report."
            ),
            turn=orders.header.turn,
            reply_to=mail,
        )
        return "refused: late"
    try:
        if orders.orders and all(isinstance(o, Answer) for o in orders.orders):
            receipt = store_answers(session, game, state, orders, seat_row.seat)
            say = seat_row.language
            lines = [gettext(say, "stored   %(key)s", key=k) for k in receipt.stored]
            lines += [gettext(say, "refused  %(problem)s", problem=p) for p in receipt.problems]
            lines.append(gettext(say, "Still open: %(keys)s", keys=", ".join(receipt.open) or gettext(say, "nothing")))
            _reply(
                session,
                game,
                seat_row,
                gettext(say, "Answers received for turn %(turn)s", turn=receipt.turn),
                "\n".join(lines) + "\n" + _deadline(game, seat_row),
                reply_to=mail,
            )
            return "answers"
        receipt = store_order_set(session, game, ruleset, state, orders, seat_row, "mail")
    except PbemError as problem:
        _reply(
            session,
            game,
            seat_row,
            gettext(seat_row.language, "Your orders were not stored"),
            f"{problem}\n" + _deadline(game, seat_row),
            reply_to=mail,
        )
        return f"refused: {problem}"
    _reply(
        session,
        game,
        seat_row,
        gettext(seat_row.language, "Receipt for turn %(turn)s", turn=receipt.turn),
        receipt.text_in(seat_row.language) + "\n" + _deadline(game, seat_row),
        reply_to=mail,
    )
    if receipt.stored:
        relay_press(session, game, seat_row.seat, [o for o in orders.orders if isinstance(o, Press)])
    return "orders stored" if receipt.stored else "orders not understood"


STRANGER = "not answered (stranger): "  # the outcome of a mail whose sender is registered nowhere


def _authentic(session: Session, game: Game, seat: Seat, orders: ParsedOrders, reading: Reading) -> bool:
    """The header names this game and the seat's password (checked before the lock, unless the seat's password
    was changed since: then again)."""
    assert orders.header is not None
    if orders.header.game.casefold() != game.name.casefold():
        return False
    hashes = (seat.password_hash, seat.pending_password_hash)
    if reading.password is not None and reading.password[0] == hashes:
        which = reading.password[1]
    else:
        which = matching_password(orders.header.password, *hashes)
    return accept_password(session, seat, which)


def _press_over_turn_limit(
    session: Session, game: Game, state: GameState, seat: Seat, orders: ParsedOrders, text: str
) -> Problem | None:
    """Press over MAX_PRESS_PER_TURN, counting the PRESS and BROADCAST lines of the seat's order sets stored for the
    same player-turn (those replaced too: their press was relayed)."""
    count = len(_press_line().findall(text))
    assert orders.header is not None
    if not count:
        return None
    try:
        number = expected_turn(state, game.pace, seat.seat, orders.header.turn)
    except PbemError:
        return None  # refused for its turn anyway, with nothing relayed
    stored = session.exec(
        select(OrderSet.text).where(OrderSet.game_id == game.id, OrderSet.seat == seat.seat, OrderSet.turn == number)
    ).all()
    sent = sum(len(_press_line().findall(t)) for t in stored)
    if sent + count <= MAX_PRESS_PER_TURN:
        return None
    return N_(
        "it holds %(count)s PRESS and BROADCAST lines, and %(sent)s were sent for turn %(turn)s before: a seat "
        "may send %(limit)s for one turn"
    ), {"count": count, "sent": sent, "turn": number, "limit": MAX_PRESS_PER_TURN}


def _thread(mail: Incoming | None) -> dict[str, str]:
    """In-Reply-To and References of an answer to `mail`, so that it threads with the player's mail."""
    if mail is None:
        return {}
    return {"in_reply_to": mail.message_id, "thread": f"{mail.references} {mail.message_id}".strip()}


def _deadline(game: Game, seat: Seat) -> str:
    """The deadline line every receipt and report ends with: UTC and the seat's time zone."""
    return deadline_line(seat.language, game.deadline, seat.timezone) + "\n"


def _unknown_game(session: Session, mail: Incoming, name: str) -> str:
    """A registered address learns that the game is unknown and which games are its own; a stranger nothing
    (the list of games is nobody else's business)."""
    own = db.games_of_address(session, mail.sender)
    if not own:
        return STRANGER + "refused: unknown game"
    db.queue_mail(
        session,
        mail.sender,
        "Your mail to the PBEM moderator",
        f"There is no game {name!r} here. Your games: {', '.join(own)}.\n",
        now(),
        **_thread(mail),
    )
    return "refused: unknown game"


# -- mail commands (adjudicator/mail/commands.py) ----------------------------------------------------------


def _commands_without_header(session: Session, mail: Incoming, record: Message, commands: list[Command]) -> str:
    """HELP, PASSWORD RESET, OBSERVE and UNOBSERVE need no password. What they can trigger is bounded: a
    stranger gets nothing but one OBSERVE confirmation a day per address and game (observing starts only when
    that address sends its token back), and a new password only ever goes to the seat's registered address,
    the old one working until the new one is used."""
    outcomes = []
    for command in commands:
        if command.name == "RESET":
            outcomes.append(_reset_password(session, mail, record, command))
        elif command.name in ("OBSERVE", "UNOBSERVE"):
            outcomes.append(_observe(session, mail, record, command))
        elif command.name == "HELP":
            outcomes.append(_help(session, mail, command))
        else:  # STATUS, TIMEZONE: a seat's commands, which need the order header and its password
            outcomes.append(
                _answer_registered(
                    session,
                    mail,
                    f"line {command.line}: {command.name} needs the order header with your password "
                    "above it: GAME <game> TURN <n> PLAYER <seat> PASSWORD <password>",
                    f"refused: {command.name} without a header",
                )
            )
    return "; ".join(outcomes)


def _answer_registered(session: Session, mail: Incoming, text: str, outcome: str) -> str:
    """Answer a refused command to a registered sender; a stranger gets nothing."""
    if not db.games_of_address(session, mail.sender):
        return STRANGER + outcome
    db.queue_mail(session, mail.sender, "Your mail to the PBEM moderator", text + "\n", now(), **_thread(mail))
    return outcome


def _help(session: Session, mail: Incoming, command: Command) -> str:
    if not db.games_of_address(session, mail.sender):
        return STRANGER + "HELP"
    say = command.language
    db.queue_mail(
        session,
        mail.sender,
        gettext(say, "How to write to the PBEM moderator"),
        render("help.txt.j2", say),
        now(),
        **_thread(mail),
    )
    return "HELP answered"


def _reset_password(session: Session, mail: Incoming, record: Message, command: Command) -> str:
    """PASSWORD RESET <game> <seat>: only from the seat's registered address, and the new password goes to that
    address alone, so a forger learns nothing. The new password is pending: the old one keeps working until the
    new one is first used (`authenticate`), so a forged reset cannot lock the player out before a deadline."""
    if len(command.args) != 2:
        return _answer_registered(
            session,
            mail,
            f"line {command.line}: write PASSWORD RESET <game> <seat>",
            "refused: PASSWORD RESET needs a game and a seat",
        )
    try:
        game = db.find_game(session, command.args[0], lock=True)
    except LookupError:
        return _unknown_game(session, mail, command.args[0])
    record.game = game.name
    seat = next((s for s in db.game_seats(session, game) if s.seat.casefold() == command.args[1].casefold()), None)
    if seat is None or seat.email.lower() != mail.sender.lower():
        return STRANGER + "refused: PASSWORD RESET not from the seat's registered address"
    record.seat = seat.seat
    password = secrets.token_urlsafe(9)
    seat.pending_password_hash = hash_password(password)  # a later reset replaces an unused earlier one
    session.add(seat)
    _tell(
        session,
        game,
        seat,
        N_("A new password for %(seat)s"),
        N_(
            "As asked, %(seat)s in game %(game)s has a new password: %(password)s\nYour old password keeps "
            "working until you first use the new one; from then on only the new one works. If you did not ask for "
            "it, ignore this mail and keep your old password. Head your order mails with:\n  %(header)s"
        ),
        reply_to=mail,
        seat=seat.seat,
        game=game.name,
        password=password,
        header=_header_line(seat.language, game.name, seat.seat, password),
    )
    return f"password reset for {seat.seat}"


def _header_line(language: str, game: str, seat: str, password: str) -> str:
    return render("_header.txt.j2", language, game=game, seat=seat, password=password).strip()


CONFIRMATION_HOURS = 24  # at most one OBSERVE confirmation per address and game in this time: no flooding


def _observe(session: Session, mail: Incoming, record: Message, command: Command) -> str:
    """OBSERVE <game>: the sender receives the public reports (never private ones). Open games take anybody:
    the public report holds nothing that `pbem site` would not publish; closed games take only the moderator's
    choice (`pbem gm observe`). A From can be forged, so observing starts only when the address sends back the
    token of the one confirmation mailed to it (double opt-in): OBSERVE <game> <token>."""
    if len(command.args) not in ((1, 2) if command.name == "OBSERVE" else (1,)):
        return _answer_registered(
            session, mail, f"line {command.line}: write {command.name} <game>", f"refused: {command.name} needs a game"
        )
    try:
        game = db.find_game(session, command.args[0], lock=True)
    except LookupError:
        return _unknown_game(session, mail, command.args[0])
    record.game = game.name
    if address_problem(mail.sender) is not None:  # nothing could ever be sent to it
        return STRANGER + f"refused: {command.name} from an address that cannot be mailed"
    say = command.language
    row = db.observer(session, game, mail.sender)
    if command.name == "UNOBSERVE":
        return _unobserve(session, mail, game, row, say)
    if row is not None and row.confirmed:
        _tell_observing(session, game, mail.sender, say, mail)
        return "observer already"
    if game.observers != "open":
        return _answer_registered(
            session,
            mail,
            gettext(say, "Game %(game)s takes observers only by the moderator's invitation.", game=game.name),
            "refused: observers are closed",
        )
    if len(command.args) == 2:
        return _confirm_observer(session, mail, game, row, command)
    return _ask_confirmation(session, mail, game, row, say)


def _unobserve(session: Session, mail: Incoming, game: Game, row: Observer | None, say: str) -> str:
    """UNOBSERVE <game>: a confirmed observer stops. A pending request stays until it is old, so that OBSERVE and
    UNOBSERVE in turn cannot mail one confirmation after another."""
    if row is None or not row.confirmed:
        return _answer_registered(
            session,
            mail,
            gettext(say, "You do not observe game %(game)s.", game=game.name),
            "refused: UNOBSERVE by an address that does not observe",
        )
    session.delete(row)
    body = gettext(say, "You no longer receive the reports of game %(game)s.", game=game.name)
    db.queue_mail(
        session,
        mail.sender,
        f"[{game.name}] " + gettext(say, "Observing ended"),
        body + "\n",
        now(),
        game.name,
        **_thread(mail),
    )
    return "observer removed"


def _ask_confirmation(session: Session, mail: Incoming, game: Game, row: Observer | None, say: str) -> str:
    """Store a pending observer with a new token and mail the token to the address; not again within
    CONFIRMATION_HOURS (the address may be a victim's, forged)."""
    moment = now()
    if row is not None and _time(moment) - _time(row.since) < timedelta(hours=CONFIRMATION_HOURS):
        return STRANGER + f"refused: OBSERVE, a confirmation was mailed less than {CONFIRMATION_HOURS} hours ago"
    token = secrets.token_hex(8)
    if row is None:
        assert game.id is not None
        row = Observer(game_id=game.id, email=mail.sender.lower(), since=moment, confirmed=False)
    row.language, row.since, row.token_hash = say, moment, _token_hash(token)
    session.add(row)
    body = gettext(
        say,
        "Somebody, perhaps you, asked that the public reports of game %(game)s be mailed to this "
        "address. To receive them, reply with this line:\n  %(line)s\nIf it was not you, ignore this "
        "mail: nothing more will come.",
        game=game.name,
        line=f"{written(say, 'OBSERVE')} {game.name} {token}",
    )
    db.queue_mail(
        session,
        mail.sender,
        f"[{game.name}] " + gettext(say, "Confirm observing"),
        body + "\n",
        moment,
        game.name,
        secret=token,
        **_thread(mail),
    )
    return "confirmation of OBSERVE mailed"


def _confirm_observer(session: Session, mail: Incoming, game: Game, row: Observer | None, command: Command) -> str:
    """OBSERVE <game> <token> from the address the token was mailed to: observing begins."""
    given = _token_hash(command.args[1].lower())
    if row is None or not row.token_hash or not hmac.compare_digest(row.token_hash, given):
        return _answer_registered(
            session,
            mail,
            gettext(
                command.language,
                "line %(line)s: that is not the token mailed to this address for game %(game)s; nothing was changed.",
                line=command.line,
                game=game.name,
            ),
            "refused: OBSERVE with a wrong token",
        )
    row.confirmed, row.token_hash, row.since = True, "", now()
    session.add(row)
    _tell_observing(session, game, mail.sender, command.language, mail)
    return "observer added"


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _tell_observing(session: Session, game: Game, address: str, say: str, mail: Incoming | None) -> None:
    body = gettext(
        say,
        "You observe game %(game)s: its public reports will come to this address. To stop, send %(command)s %(game)s.",
        game=game.name,
        command=written(say, "UNOBSERVE"),
    )
    db.queue_mail(
        session, address, f"[{game.name}] " + gettext(say, "Observing"), body + "\n", now(), game.name, **_thread(mail)
    )


def _seat_commands(
    session: Session, game: Game, state: GameState, seat: Seat, mail: Incoming, commands: list[Command]
) -> None:
    """The commands of an authenticated seat, answered in one mail to its registered address."""
    say = seat.language
    answers = []
    for command in commands:
        if command.name == "TIMEZONE":
            answers.append(_set_zone(session, game, seat, command))
        elif command.name == "STATUS":
            answers.append(status_text(say, game_status(session, game, state), seat.timezone))
        elif command.name == "HELP":
            answers.append(render("help.txt.j2", say))
        else:  # OBSERVE, UNOBSERVE, PASSWORD RESET: written without the header
            answers.append(
                gettext(
                    say,
                    "line %(line)s: %(command)s is written in a mail without the order header.",
                    line=command.line,
                    command=command.name,
                )
            )
    _reply(
        session,
        game,
        seat,
        gettext(say, "Your commands"),
        "\n".join(a.rstrip("\n") + "\n" for a in answers),
        reply_to=mail,
    )


def _set_zone(session: Session, game: Game, seat: Seat, command: Command) -> str:
    say = seat.language
    try:
        if len(command.args) != 1:
            raise UnknownZone("one zone name is needed")
        seat.timezone = zone_name(command.args[0])
    except UnknownZone:
        return gettext(
            say, "line %(line)s: write an IANA time zone such as Europe/Berlin; nothing was changed.", line=command.line
        )
    session.add(seat)
    return gettext(say, "Your time zone is now %(zone)s.", zone=seat.timezone) + "\n" + _deadline(game, seat)


# -- the game's status: the STATUS mail, `pbem status` and `pbem games` --------------------------------------


@dataclass
class SeatStatus:
    seat: str
    email: str
    language: str
    timezone: str
    missed: int
    due: int | None  # the number of the seat's player-turn open for orders now, if any
    orders: str | None  # when its orders for that turn arrived; None when none are stored


@dataclass
class GameStatus:
    game: str
    ruleset: str
    turn: int  # the last resolved player-turn
    status: str  # running | paused | ended | waiting for decisions
    deadline: str | None
    seats: list[SeatStatus]
    observers: list[str]
    selfplay: bool

    @property
    def due(self) -> list[SeatStatus]:
        return [s for s in self.seats if s.due is not None]

    @property
    def missing(self) -> list[SeatStatus]:
        return [s for s in self.due if s.orders is None]


def game_status(session: Session, game: Game, state: GameState) -> GameStatus:
    """Deadline, due player-turns and whose orders are in, missed turns, observers."""
    due = {seat: number for number, seat in due_turns(state, game.pace)} if state.active else {}
    seats = []
    for row in db.game_seats(session, game):
        number = due.get(row.seat)
        stored = db.current_orders(session, game, number, row.seat) if number is not None else None
        seats.append(
            SeatStatus(
                row.seat, row.email, row.language, row.timezone, row.missed, number, stored.received if stored else None
            )
        )
    waiting = any(d.answer is None for d in db.decisions(session, game, state.turn + 1))
    status = "paused" if game.paused and game.status == "running" else game.status
    if status == "running" and waiting:
        status = "waiting for decisions"
    return GameStatus(
        game.name,
        game.ruleset,
        state.turn,
        status,
        game.deadline,
        seats,
        [o.email for o in db.observers(session, game)],
        game.selfplay,
    )


def status_text(language: str, status: GameStatus, zone: str) -> str:
    """The STATUS answer: what every player may know (no addresses)."""
    return render("status.txt.j2", language, s=status, deadline=deadline_line(language, status.deadline, zone))


def read_status(archive: Archive, name: str) -> GameStatus:
    with archive.session() as session:
        game, _, state = current_game(session, name)
        return game_status(session, game, state)


def all_games(archive: Archive) -> list[GameStatus]:
    """`pbem games`: every game's status, by name."""
    with archive.session() as session:
        found = []
        for name in sorted(session.exec(select(Game.name)).all()):
            game, _, state = current_game(session, name)
            found.append(game_status(session, game, state))
    return found


def message_log(archive: Archive, game: str | None, limit: int) -> list[Message]:
    """`pbem log`: the latest mails received and what became of each (a stranger's mail included)."""
    with archive.session() as session:
        return db.messages(session, game, limit)


def _reply(
    session: Session,
    game: Game,
    seat: Seat,
    subject: str,
    body: str,
    reply_to: Incoming | None = None,
    secret: str = "",
) -> None:
    """A mail to the seat's registered address; `reply_to`: the seat's own mail it answers (threaded); `secret`: the
    password it carries, kept in the archive only until the mail is sent."""
    db.queue_mail(
        session, seat.email, f"[{game.name}] {subject}", body, now(), game.name, **_thread(reply_to), secret=secret
    )


def _tell(
    session: Session,
    game: Game,
    to: Seat,
    subject: str,
    body: str,
    /,
    reply_to: Incoming | None = None,
    **values: object,
) -> None:
    """A short notice to a seat in its language: `subject` and `body` are messages of the catalogue."""
    _reply(
        session,
        game,
        to,
        gettext(to.language, subject, **values),
        gettext(to.language, body, **values) + "\n",
        reply_to,
        secret=str(values.get("password", "")),
    )


def _refuse_openly(session: Session, mail: Incoming, game: Game, why: str) -> str:
    """No seat could be identified: a registered sender learns why (he cannot be impersonating anybody); a
    stranger learns nothing."""
    if not db.games_of_address(session, mail.sender):
        return STRANGER + f"refused: {why}"
    db.queue_mail(
        session,
        mail.sender,
        f"[{game.name}] Your mail could not be read",
        f"{why}\n",
        now(),
        game.name,
        **_thread(mail),
    )
    return f"refused: {why}"


def _warn_seat(session: Session, game: Game, seat: Seat, mail: Incoming, what: str, show_sender: bool = True) -> str:
    """A forged or mistaken mail: the seat's registered address is told, the sender learns nothing."""
    _tell(
        session,
        game,
        seat,
        N_("Orders for your seat were refused"),
        N_(
            "A mail with orders for %(seat)s arrived with %(what)s (from %(sender)s, subject %(subject)s). Nothing "
            "was stored. If it was you, send your orders again from your registered address with your password."
        ),
        seat=seat.seat,
        what=gettext(seat.language, what),
        sender=mail.sender,
        subject=repr(mail.subject),
    )
    if game.moderator:
        db.queue_mail(
            session,
            game.moderator,
            f"[{game.name}] refused mail for {seat.seat}",
            f"From {mail.sender}: {what}.\n",
            now(),
            game.name,
        )
    return f"refused: {what} ({mail.sender})" if show_sender else f"refused: {what}"


def relay_press(session: Session, game: Game, sender: str, press: list[Press]) -> None:
    """Press goes to its addressee(s) at once; anonymous games do not name the sender."""
    seats = db.game_seats(session, game)
    for item in press:
        for seat in seats:
            if seat.seat != sender and (item.to is None or item.to == seat.seat):
                signed = gettext(seat.language, "Anonymous") if game.anonymous_press else sender
                subject = N_("Broadcast from %(seat)s") if item.to is None else N_("Press from %(seat)s")
                _reply(session, game, seat, gettext(seat.language, subject, seat=signed), f"{item.message}\n")


# -- deadlines ---------------------------------------------------------------------------------------------


@dataclass
class TickReport:
    lines: list[str] = field(default_factory=list)
    failures: dict[str, str] = field(default_factory=dict)  # game -> traceback of what stopped it


def tick(archive: Archive, data: Path, at: datetime | None = None) -> TickReport:
    """Adjudicate every game whose deadline passed or whose orders are all in; send reminders (for cron).

    Games are ticked one by one, each in its own transactions: a game that fails (a damaged archive row, a
    bug) is rolled back and reported with its name, and the other games are ticked all the same."""
    moment = at or datetime.now(UTC)
    report = TickReport()
    with archive.session() as session:
        running = select(Game).where(Game.status == "running", Game.selfplay == False)  # noqa: E712 (SQL)
        names = [g.name for g in session.exec(running).all()]  # self-play games are the bot's: never ticked
    for name in names:
        try:
            report.lines += _tick_game(archive, data, name, moment)
        except Exception as failure:  # noqa: BLE001 (one game's failure must not stop the others)
            report.lines.append(f"{name}: FAILED ({type(failure).__name__}: {failure})")
            report.failures[name] = traceback.format_exc()
    return report


def _tick_game(archive: Archive, data: Path, name: str, moment: datetime) -> list[str]:
    """Remind or adjudicate one game, deciding and acting under the game's lock: a second tick running at the
    same time waits, then finds the turn resolved and its deadline moved on."""
    done = None
    with archive.session() as session:
        game, ruleset, state = current_game(session, name, lock=True)
        if game.paused or game.status != "running":
            return [f"{name}: {'paused' if game.paused else game.status}"]
        if game.deadline is None:
            game.deadline = (moment + timedelta(hours=game.turn_hours)).isoformat(timespec="seconds")
            session.add(game)
        due = due_turns(state, game.pace)
        missing = [(n, s) for n, s in due if db.current_orders(session, game, n, s) is None]
        deadline = _time(game.deadline)
        if missing and moment < deadline:
            lines = _remind(session, game, missing, moment, deadline)
        else:
            done = adjudicate_locked(session, game, ruleset, state, defaults=moment >= deadline, moment=moment)
            lines = [f"{name}: turn {row.number} ({row.seat}) resolved" for row in done.turns]
            lines = lines or [f"{name}: waiting for decisions" if done.waiting else f"{name}: nothing to do"]
    if done is not None:
        done.write_files(data)
    return lines + _repair_lines(archive, data, name) + mail_news(archive, data, name)


def _repair_lines(archive: Archive, data: Path, name: str) -> list[str]:
    """Write the files of stored turns that the disk lacks (their writer died after its commit), saying which."""
    folder = game_folder(data, name)
    written = write_missing_files(archive, data, name)
    return [f"{name}: wrote missing {', '.join(str(path.relative_to(folder)) for path in written)}"] if written else []


def mail_news(archive: Archive, data: Path, name: str) -> list[str]:
    """Queue what the archive holds but the players were not sent yet: reports of resolved turns (with the NMR
    count) and questions of pending decisions. The flags are set in the same transaction as the queueing,
    so a crash between an adjudication and its mail loses nothing and sends nothing twice."""
    lines = []
    with archive.session() as session:
        game, ruleset, state = current_game(session, name, lock=True)
        if game.selfplay:
            return lines  # the bot's game: nobody to mail
        seats = {s.seat: s for s in db.game_seats(session, game)}
        # a turn without a seat is the setup or a position imported with `pbem new --from-snapshot`: no news
        news = [row for row in db.turns(session, game) if row.seat is not None and not row.mailed]
        for row in news:
            seat = seats[row.seat]
            seat.missed = 0 if row.orders_text else seat.missed + 1
            session.add(seat)
            if seat.missed >= game.nmr_alert and game.moderator:
                db.queue_mail(
                    session,
                    game.moderator,
                    f"[{name}] {seat.seat} missed {seat.missed} turns",
                    f"{seat.seat} ({seat.email}) sent no orders for {seat.missed} player-turns in a row "
                    "(NMR: the seat does nothing in such a turn).\n",
                    now(),
                    name,
                )
            row.mailed = True
            session.add(row)
        if news:
            _mail_reports(session, game, ruleset, news)
            lines.append(f"{name}: reports of turn(s) {', '.join(str(r.number) for r in news)} queued")
        unasked = [d for d in db.decisions(session, game, state.turn + 1) if not d.notified and d.answer is None]
        for seat_name in sorted({d.seat for d in unasked}):
            questions = [d for d in unasked if d.seat == seat_name]
            notice = game_folder(data, name) / "outbox" / f"decisions-turn-{state.turn + 1:04d}-{seat_name}.txt"
            body = _notice_text(notice, questions)
            if body is None:
                continue  # the process that asked writes the notice after its commit: the next tick mails it
            subject = gettext(seats[seat_name].language, "decisions needed")
            db.queue_mail(session, seats[seat_name].email, f"[{name}] {subject}", body, now(), name)
            for decision in questions:
                decision.notified = True
                session.add(decision)
    return lines


def _notice_text(notice: Path, questions: list[Decision]) -> str | None:
    """The decisions notice written when the questions were asked (it tells the turn so far); None while it is
    not written yet. A notice older than the questions is from an earlier, rolled-back asking; when none comes
    within 10 minutes (its writer died after the commit), the bare questions are sent."""
    asked = max(datetime.fromisoformat(d.asked) for d in questions)
    if notice.exists() and datetime.fromtimestamp(notice.stat().st_mtime, UTC) >= asked - timedelta(seconds=1):
        return notice.read_text(encoding="utf-8")
    if datetime.now(UTC) - asked < timedelta(minutes=10):
        return None
    return "".join(f"ANSWER {d.key}: {d.default}\n    # {d.question} ({d.rule})\n" for d in questions)


def _remind(
    session: Session, game: Game, missing: list[tuple[int, str]], moment: datetime, deadline: datetime
) -> list[str]:
    if moment < deadline - timedelta(hours=game.reminder_hours):
        return [f"{game.name}: waiting for {', '.join(s for _, s in missing)} until {game.deadline}"]
    lines = []
    for number, seat_name in missing:
        seat = db.find_seat(session, game, seat_name)
        if seat.reminded_for == number:
            continue
        seat.reminded_for = number
        session.add(seat)
        say = seat.language
        _reply(
            session,
            game,
            seat,
            gettext(say, "Reminder: orders for turn %(turn)s are due", turn=number),
            gettext(
                say,
                "No orders of yours are stored for turn %(turn)s; the deadline is %(deadline)s (UTC).",
                turn=number,
                deadline=game.deadline,
            )
            + "\n"
            + _deadline(game, seat),
        )
        lines.append(f"{game.name}: reminded {seat_name} (turn {number})")
    return lines or [f"{game.name}: waiting for {', '.join(s for _, s in missing)} until {game.deadline}"]


def _mail_reports(session: Session, game: Game, ruleset: Ruleset, news: list[Turn]) -> None:
    """Each seat gets the public report of every resolved turn and its private report of the last one
    (rendered from the archive, so a report file not yet written by another process is no obstacle), with the
    new deadline, threaded with its latest order mail; each observer gets the public reports only."""
    seats = db.game_seats(session, game)
    watchers = db.observers(session, game)
    languages = {seat.language for seat in seats} | {o.language for o in watchers}
    maps = {say: turn_map(ruleset, game, news[-1], say) for say in languages}
    states = {row.number: row.state_json for row in db.turns(session, game)}  # the battle headers name leaders
    publics = {
        say: "\n".join(
            turn_reports(ruleset, game, row, {}, say, states.get(row.number - 1))["report.txt"] for row in news
        )
        for say in languages
    }
    for seat in seats:
        say = seat.language
        map_svg, public = maps[say], publics[say]
        private = turn_reports(ruleset, game, news[-1], {seat.seat: say}, None)[f"report-{seat.seat}.txt"]
        subject = f"[{game.name}] " + gettext(say, "Report, turn %(turn)s", turn=news[-1].number)
        body = public + "\n" + private + ("\n" + _deadline(game, seat) if game.status == "running" else "")
        html = markup_environment(say).get_template("report-mail.html.j2").render(subject=subject, text=body)
        db.queue_mail(
            session,
            seat.email,
            subject,
            body,
            now(),
            game.name,
            html=html,
            map_svg=map_svg,
            **_thread_of(_last_order_mail(session, game, seat)),
        )
    for watcher in watchers:
        say = watcher.language
        subject = f"[{game.name}] " + gettext(say, "Report, turn %(turn)s", turn=news[-1].number)
        html = markup_environment(say).get_template("report-mail.html.j2").render(subject=subject, text=publics[say])
        db.queue_mail(session, watcher.email, subject, publics[say], now(), game.name, html=html, map_svg=maps[say])


def _last_order_mail(session: Session, game: Game, seat: Seat) -> Message | None:
    """The seat's latest order mail that was stored: its report answers it."""
    query = select(Message).where(
        Message.game == game.name, Message.seat == seat.seat, Message.outcome == "orders stored"
    )
    return session.exec(query.order_by(Message.id.desc())).first()  # type: ignore[union-attr]


def _thread_of(message: Message | None) -> dict[str, str]:
    return {"in_reply_to": message.message_id, "thread": message.message_id} if message else {}


# -- game-master tools ---------------------------------------------------------------------------------------


def extend_deadline(archive: Archive, name: str, hours: int) -> str:
    with archive.session() as session:
        game = db.find_game(session, name, lock=True)
        moment = (_time(game.deadline) if game.deadline else datetime.now(UTC)) + timedelta(hours=hours)
        _refuse_past(moment, f"the deadline {game.deadline} plus {hours} hours")
        _announce_deadline(session, game, moment, N_("Deadline extended"))
    return game.deadline


def set_deadline(archive: Archive, name: str, when: str) -> str:
    """`pbem gm deadline`: the deadline at a fixed time (ISO 8601, e.g. 2026-12-01T18:00Z; UTC when no zone is
    given), which must lie ahead; every seat is told."""
    try:
        moment = datetime.fromisoformat(when.strip())
    except ValueError:
        raise PbemError(f"{when!r} is not a time: write e.g. 2026-12-01T18:00Z (ISO 8601, UTC)") from None
    moment = (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).astimezone(UTC)
    _refuse_past(moment, when)
    with archive.session() as session:
        game = db.find_game(session, name, lock=True)
        if game.status != "running":
            raise PbemError(f"game {name} has ended; it has no deadline")
        _announce_deadline(session, game, moment, N_("New deadline"))
    return game.deadline


def _announce_deadline(session: Session, game: Game, moment: datetime, subject: str) -> None:
    """Set the game's deadline and tell every seat (`subject`: a message of the catalogue)."""
    game.deadline = moment.isoformat(timespec="seconds")
    session.add(game)
    for seat in db.game_seats(session, game):
        _tell(session, game, seat, subject, N_("The deadline is now %(deadline)s (UTC)."), deadline=game.deadline)


def _refuse_past(moment: datetime, what: str) -> None:
    """A deadline in the past would let the next tick adjudicate at once, cutting every seat's time short."""
    if moment <= datetime.now(UTC):
        raise PbemError(f"{what} is {moment.isoformat(timespec='seconds')}, which is past: a deadline must lie ahead")


def replace_player(archive: Archive, name: str, seat_name: str, email: str, language: str | None = None) -> str:
    """A new player takes a seat: new address, new password (returned). The old player is told; the new one gets
    a welcome in his language (`language`, else the seat's) with the position and his orders template."""
    _check_address(email)
    password = secrets.token_urlsafe(9)
    with archive.session() as session:
        game, ruleset, _ = current_game(session, name, lock=True)
        seat = db.find_seat(session, game, seat_name)
        if seat.email.lower() != email.lower():
            _tell(
                session,
                game,
                seat,
                N_("You no longer play %(seat)s"),
                N_(
                    "The moderator has given %(seat)s in game %(game)s to another player. Thank you for playing; "
                    "no more mail of this game will come to you."
                ),
                seat=seat.seat,
                game=name,
            )
        seat.email, seat.password_hash, seat.missed = email, hash_password(password), 0
        seat.pending_password_hash = ""  # a reset password the old player asked for must not let him in
        seat.language = language or seat.language
        session.add(seat)
        queue_welcome(session, ruleset, game, db.latest_turn(session, game), seat, password)
    return password


def _check_address(email: str) -> None:
    """Refuse an address that could never be sent to (a CR or LF in it would also split the mail's header)."""
    problem = address_problem(email)
    if problem is not None:
        raise PbemError(f"{email!r} is not a mail address: {problem}")


def queue_welcome(
    session: Session, ruleset: Ruleset, game: Game, row: Turn, seat: Seat, password: str, welcome: str | None = None
) -> None:
    """Queue the welcome mail with the password to the seat's registered address: the welcome, the position (the
    public report of the latest turn), the seat's private report with its orders template, and the deadline."""
    say = seat.language
    if welcome is None:
        welcome = render_welcome(ruleset, game, row, seat, password)
    heading, _, text = welcome.partition("\n\n")
    subject = next(
        (line[len("Subject:") :].strip() for line in heading.split("\n") if line.startswith("Subject:")),
        f"[{game.name}] {seat.seat}",
    )
    reports = turn_reports(ruleset, game, row, {seat.seat: say}, say)
    parts = [text.rstrip("\n") + "\n", reports["report.txt"], reports[f"report-{seat.seat}.txt"]]
    body = "\n".join(parts + ([_deadline(game, seat)] if game.deadline else []))
    db.queue_mail(session, seat.email, subject, body, now(), game.name, secret=password)


def render_welcome(ruleset: Ruleset, game: Game, row: Turn, seat: Seat, password: str) -> str:
    """welcome.txt.j2 in the seat's language: To: and Subject: lines, a blank line, the text."""
    players = json.loads(row.state_json)["players"]
    return render(
        "welcome.txt.j2",
        seat.language,
        email=seat.email,
        game=game.name,
        title=ruleset.title,
        seat=seat.seat,
        home=players[seat.seat]["home"],
        seats=list(players),
        pace=game.pace,
        password=password,
        commitment=game.commitment,
    )


def set_observer(archive: Archive, name: str, email: str, add: bool = True, language: str = "en") -> bool:
    """`pbem gm observe`: the moderator adds (or removes) an observer, in open and closed games alike; the
    observer is told. He needs no confirmation (a pending OBSERVE of the address is confirmed), and removing an
    address also drops its pending request. Returns False when there was nothing to do."""
    _check_address(email)
    with archive.session() as session:
        game = db.find_game(session, name, lock=True)
        row = db.observer(session, game, email)
        watching = row if row is not None and row.confirmed else None
        if add == (watching is not None):
            if not add and row is not None:
                session.delete(row)  # a pending request: nothing was mailed to confirm, so nobody is told
            return False
        if watching is not None:
            session.delete(watching)
            say, body = (
                watching.language,
                gettext(watching.language, "You no longer receive the reports of game %(game)s.", game=name),
            )
        else:
            assert game.id is not None
            row = row or Observer(game_id=game.id, email=email.lower(), since=now())
            row.language, row.since, row.confirmed, row.token_hash = language, now(), True, ""
            session.add(row)
            say, body = (
                language,
                gettext(
                    language,
                    "You observe game %(game)s: its public reports will come to this "
                    "address. To stop, send %(command)s %(game)s.",
                    game=name,
                    command=written(language, "UNOBSERVE"),
                ),
            )
        subject = gettext(say, "Observing") if add else gettext(say, "Observing ended")
        db.queue_mail(session, email, f"[{name}] {subject}", body + "\n", now(), name)
    return True


def set_paused(archive: Archive, name: str, paused: bool) -> None:
    with archive.session() as session:
        game = db.find_game(session, name, lock=True)
        game.paused = paused
        session.add(game)


def end_game(archive: Archive, name: str) -> None:
    with archive.session() as session:
        game = db.find_game(session, name, lock=True)
        game.status = "ended"
        session.add(game)
        for seat in db.game_seats(session, game):
            _tell(session, game, seat, N_("The game has been ended"), N_("The moderator has ended the game."))


def rollback(archive: Archive, data: Path, name: str, to: int) -> list[int]:
    """Return the game to the position after turn `to`: later turns stay archived, marked superseded, and
    their files are kept under turn-NNNN-withdrawn-K."""
    with archive.session() as session:
        game = db.find_game(session, name, lock=True)
        later = [t for t in db.turns(session, game) if t.number > to]
        if not later:
            raise PbemError(f"game {name} has no turn after {to} to roll back")
        db.get_turn(session, game, to)  # the turn rolled back to must exist
        for row in later:
            row.superseded = True
            session.add(row)
        session.flush()  # the withdrawn turns leave the live chain: its head is again the link of turn `to`
        game.chain_head, game.chain_turn = "", to
        game.chain_head = chain_head(session, game)
        for decision in session.exec(select(Decision).where(Decision.game_id == game.id, Decision.turn > to)):
            session.delete(decision)
        for orders in session.exec(select(OrderSet).where(OrderSet.game_id == game.id, OrderSet.turn > to)):
            orders.replaced = True
            session.add(orders)
        game.status, game.deadline = "running", None
        session.add(game)
        for seat in db.game_seats(session, game):
            _tell(
                session,
                game,
                seat,
                N_("Rolled back to turn %(turn)s"),
                N_(
                    "The moderator rolled the game back to the position after turn %(turn)s; turns %(turns)s are "
                    "withdrawn. Orders for them must be sent again."
                ),
                turn=to,
                turns=", ".join(str(t.number) for t in later),
            )
    folder = game_folder(data, name)
    for row in later:
        old = folder / f"turn-{row.number:04d}"
        if old.exists():
            k = 1
            while (folder / f"{old.name}-withdrawn-{k}").exists():
                k += 1
            old.rename(folder / f"{old.name}-withdrawn-{k}")
    return [t.number for t in later]
