"""Play by mail: an order mail in, its receipt, answers or press out (to the outbox).

Every incoming message is handled in one archive transaction together with the record of its Message-ID,
so that the same message again changes nothing and a crash in the middle leaves no trace to repair.
Replies go to the seat's registered address, never to the sender of a refused message; an address registered
nowhere (no seat, observer or moderator of any game) gets no answer at all: its mail is stored with its outcome,
which `pbem ingest` prints and `pbem log` lists. Answers thread with the mail they answer (In-Reply-To)."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from enum import Enum
from functools import cache
from typing import TYPE_CHECKING, Any

from adjudicator.archive.lean_mail import LeanArchive, LeanSession, StepAside, conflicts, queries_for
from adjudicator.errors import PbemError
from adjudicator.mail.commands import Command, split_commands
from adjudicator.mail.inbound import HEAD_BYTES, Incoming
from adjudicator.orders import parse_orders
from adjudicator.orders.keywords import spellings
from adjudicator.orders.sets import PASSWORD_MARK, Answer, Press
from adjudicator.orders.sets import OrderSet as ParsedOrders
from adjudicator.render.i18n import N_, gettext
from adjudicator.rulesets import Ruleset
from adjudicator.services import floods
from adjudicator.services.clock import SYSTEM_CLOCK, Clock, timestamp
from adjudicator.services.game_reads import current_game, expected_turn, game_ruleset
from adjudicator.services.notices import (
    STRANGER,
    answer_registered,
    answer_unknown_game,
    deadline_text,
    mail_to_seat,
    quoted,
    tell_seat,
    thread_headers,
)
from adjudicator.services.orders import MAX_ORDER_BYTES, Receipt, store_answers, store_order_set
from adjudicator.services.passwords import (
    accept_password,
    generated_passwords_in,
    matching_password,
    offered_passwords,
    passwords_in,
    without_passwords,
)

# The archive's session and rows are named for their types only: a one-shot `pbem ingest` on the default SQLite
# archive handles its mail without SQLAlchemy (archive/lean_mail.py), through the same code.
if TYPE_CHECKING:
    from sqlmodel import Session

    from adjudicator.archive import Archive
    from adjudicator.archive.models import GameRow, MessageRow, SeatRow

HEADER_WORD = re.compile(r"^\s*(GAME|SPIEL|PARTITA|SPEL)\s+(\S+)", re.IGNORECASE | re.MULTILINE)


# Limits of one order mail, beside the size and MIME limits of adjudicator/mail/inbound.py and the size
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


class Fate(Enum):
    """What became of a mail, in short."""

    ACCEPTED = "accepted"  # used: its orders, answers or commands were taken (a receipt or answer tells the seat)
    REFUSED = "refused"  # not used: nothing of it was stored; the reason says why
    IGNORED = "ignored"  # the same mail again (its Message-ID and content known): nothing was done


class Reason(Enum):
    """Why a mail was refused, or what an accepted one brought: the step of the handling that ended it."""

    ORDERS_STORED = "orders stored"
    ORDERS_WITHDRAWN = "orders withdrawn"
    ORDERS_KEPT = "no game orders"  # press or comments only: the stored orders stay
    ANSWERS_STORED = "answers"
    COMMANDS = "commands"  # mail commands alone, each answered on its own (the text tells each one's outcome)
    DUPLICATE = "duplicate"
    OVER_LIMIT = "over a limit"
    NO_HEADER = "no header"
    UNKNOWN_GAME = "unknown game"
    SELF_PLAY = "self-play game"
    HEADER_INCOMPLETE = "header incomplete"
    UNKNOWN_SEAT = "unknown seat"
    WRONG_PASSWORD = "wrong password"
    WRONG_ADDRESS = "not the seat's address"
    LATE = "late"
    NOT_STORED = "not stored"  # the store refused it (a turn not open, a bad answer)
    WITHDRAW_BESIDE_ORDERS = "WITHDRAW beside orders"
    NOT_UNDERSTOOD = "orders not understood"
    REUSED_MESSAGE_ID = "Message-ID of another mail"

    @property
    def fate(self) -> Fate:
        if self in _ACCEPTING:
            return Fate.ACCEPTED
        return Fate.IGNORED if self is Reason.DUPLICATE else Fate.REFUSED


_ACCEPTING = frozenset(
    {Reason.ORDERS_STORED, Reason.ORDERS_WITHDRAWN, Reason.ORDERS_KEPT, Reason.ANSWERS_STORED, Reason.COMMANDS}
)


@dataclass(frozen=True)
class MailOutcome:
    """What became of one mail: the reason (and so its fate), and the text the archive's log keeps of it (`pbem
    log`, `pbem ingest` print it; the flood limits count it)."""

    reason: Reason
    text: str

    @property
    def fate(self) -> Fate:
        return self.reason.fate

    @property
    def answered(self) -> bool:
        """Whether anybody was mailed an answer: not so to a stranger, nor over the day's limit of answers."""
        return not self.text.startswith(STRANGER) and not self.text.endswith((floods.HELD, floods.DIGESTED))

    def __str__(self) -> str:
        return self.text


DUPLICATE = MailOutcome(Reason.DUPLICATE, "duplicate")  # the same mail again: nothing is done


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
        return N_(
            "it holds %(count)s %(kw_press)s and %(kw_broadcast)s lines, more than the %(limit)s a mail may hold"
        ), {
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
    secrets: frozenset[str] = frozenset()  # what the mail offers as a password: kept out of every answer


def read_mail(archive: Archive | LeanArchive, mail: Incoming) -> Reading:
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
            game = queries_for(session).find_game(header.group(2))
        except LookupError:
            return Reading(text, commands, header.group(2), problem)
        hashes = {
            seat.seat: (seat.password_hash, seat.pending_password_hash)
            for seat in queries_for(session).game_seats(game)
        }
    start, end = text.rfind("\n", 0, header.start()) + 1, text.find("\n", header.end())
    header_line = text[start : end if end >= 0 else len(text)]
    orders = parse_orders(text if problem is None else header_line, game_ruleset(game))
    checked = None
    if orders.header is not None and orders.header.player in hashes:
        stored = hashes[orders.header.player]
        checked = (stored, matching_password(orders.header.password, *stored))
    return Reading(text, commands, header.group(2), problem, orders, checked)


def ingest(archive: Archive | LeanArchive, mail: Incoming, *, clock: Clock = SYSTEM_CLOCK) -> MailOutcome:
    """Handle one order mail; returns what became of it (ignored as a duplicate when its Message-ID is known).

    Two processes reading the same message at once (two IMAP pollers, a filter and a cron job) cannot both
    store it: the Message-ID is unique in the archive, so the later commit fails and is rolled back whole."""
    secrets = _secrets(archive, mail)
    mail = replace(mail, subject=_without(mail.subject, secrets))  # the order text keeps its password: checked
    reading = replace(read_mail(archive, mail), secrets=frozenset(secrets))
    try:
        with archive.session() as session:
            known = queries_for(session).find_message(mail.message_id)
            if known is not None:
                return _duplicate(session, mail, known, reading, archived_raw(mail, secrets), clock=clock)
            record = queries_for(session).new_message(
                message_id=mail.message_id,
                received=timestamp(clock),
                sender=mail.sender.lower(),
                subject=mail.subject,
                raw=archived_raw(mail, secrets),
            )
            handled = _handle(session, mail, record, reading, clock=clock)
            outcome = replace(handled, text=_without(handled.text, secrets))
            record.outcome = outcome.text
            queries_for(session).save(record)  # with the game, seat and outcome the handling gave it
    except conflicts(archive):
        with archive.session() as session:
            if queries_for(session).message_seen(mail.message_id):
                return DUPLICATE
        raise
    return outcome


def ingest_lean(archive: LeanArchive, mail: Incoming, *, clock: Clock = SYSTEM_CLOCK) -> MailOutcome | None:
    """`ingest` on the default SQLite archive without SQLAlchemy (archive/lean_mail.py); None, with nothing stored,
    for a mail the archive is to handle: one of mail commands (their answers read much of the archive), or one the
    lean way cannot handle as the archive would (StepAside)."""
    if split_commands(mail.text)[1]:
        return None
    try:
        return ingest(archive, mail, clock=clock)
    except StepAside:
        return None


def _secrets(archive: Archive | LeanArchive, mail: Incoming) -> set[str]:
    """Every string the mail offers as a password, to be kept out of every stored or printed text: those of its
    header lines; when no header line holds one (a misspelt keyword, the password on the next line, the header in
    the Subject), every word after a password keyword or a near miss of one, and any word that is a seat's password
    of the game the mail names."""
    secrets = passwords_in(mail.text) | offered_passwords(mail.subject)
    if passwords_in(mail.text):
        return secrets
    secrets |= offered_passwords(mail.text)
    named = HEADER_WORD.search(mail.text) or HEADER_WORD.search(mail.subject)
    if named is None:
        return secrets
    with archive.session() as session:
        try:
            game = queries_for(session).find_game(named.group(2))
        except LookupError:
            return secrets
        hashes = [
            h
            for seat in queries_for(session).game_seats(game)
            for h in (seat.password_hash, seat.pending_password_hash)
        ]
    return secrets | generated_passwords_in(f"{mail.subject}\n{mail.text}", hashes)


def archived_raw(mail: Incoming, secrets: set[str]) -> str:
    """What the archive keeps of a mail: its header fields as received and the order text read from it,
    with the passwords replaced by the mark. The body as sent is not kept: whatever its encoding
    (quoted-printable, base64, HTML) it holds the password, and so may the earlier mails it quotes."""
    head, blank, _ = mail.raw[:HEAD_BYTES].replace("\r\n", "\n").partition("\n\n")
    text = _without(without_passwords(mail.text), secrets)
    # the Subject as read (RFC 2047 decoded) and cleaned: an encoded one would hide its password from _without
    head = re.sub(r"^Subject:.*(?:\n[ \t].*)*", lambda _: f"Subject: {mail.subject}", head, flags=re.M | re.I)
    if len(text) > MAX_ORDER_BYTES:  # refused as too long: its beginning shows the moderator what it was
        text = f"{text[:KEPT_CHARS]}\n[... {len(text) - KEPT_CHARS} more characters not kept]"
    return f"{_without(head, secrets) if blank or mail.unread else ''}\n\n{text}"


def _duplicate(
    session: Session | LeanSession, mail: Incoming, known: MessageRow, reading: Reading, raw: str, *, clock: Clock
) -> MailOutcome:
    """A Message-ID already stored: the same mail again changes nothing; another mail under that ID (other content)
    is not used either, and the seat its header names (else a registered sender) is told so."""
    if known.raw.partition("\n\n")[2] == raw.partition("\n\n")[2]:
        return DUPLICATE
    outcome = "refused: the Message-ID of an earlier mail, with other content"
    header = reading.orders.header if reading.orders is not None else None
    seat = None
    if header is not None and reading.game is not None:
        try:
            game = queries_for(session).find_game(reading.game)
        except LookupError:
            game = None
        seat = (
            next((s for s in queries_for(session).game_seats(game) if s.seat == header.player), None) if game else None
        )
    trusted = reading.password is not None and reading.password[1] is not None
    if seat is not None and not trusted and mail.sender.lower() != seat.email.lower():
        seat = None  # neither the seat's password nor its address: nobody is told on a stranger's word
    if seat is not None and floods.duplicate_held(session, game, seat, clock=clock):
        return MailOutcome(Reason.REUSED_MESSAGE_ID, outcome + floods.HELD)
    if seat is None:
        text = answer_registered(
            session,
            mail,
            f"Your mail {quoted(mail.subject)} carried the Message-ID "
            f"{mail.message_id} of an earlier mail, but other content: it was not used and "
            "nothing of it was stored. Send it again as a new mail.",
            outcome,
            clock=clock,
        )
        return MailOutcome(Reason.REUSED_MESSAGE_ID, text)
    tell_seat(
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
        subject=quoted(mail.subject),
        id=mail.message_id,
        clock=clock,
    )
    return MailOutcome(Reason.REUSED_MESSAGE_ID, outcome)


def _without(text: str, secrets: set[str]) -> str:
    """`text` with every word that is one of `secrets` replaced by the mark."""
    for secret in secrets:  # a whole word, also quoted ('x') or after = or : (PASSWORD=x)
        text = re.sub(rf"(?<![\w-]){re.escape(secret)}(?![\w-])", PASSWORD_MARK, text)
    return text


@dataclass(frozen=True)
class Seated:
    """An order mail whose game and seat are found, with the game's lock held: what the later steps work on."""

    game: GameRow
    ruleset: Ruleset
    state: Any
    seat: SeatRow
    orders: ParsedOrders


def _handle(
    session: Session | LeanSession, mail: Incoming, record: MessageRow, reading: Reading, *, clock: Clock
) -> MailOutcome:
    """The steps of one mail read outside the lock (read_mail): find its game and seat, check the password and the
    limits, take its commands, check that it is not late, store it and answer; the first step with an outcome ends
    it."""
    if reading.game is None:
        return _without_header(session, mail, record, reading, clock=clock)
    found = _find_seat(session, mail, record, reading, clock=clock)
    if isinstance(found, MailOutcome):
        return found
    steps = (_check_password, _check_limits, _take_commands, _check_lateness)
    for step in steps:
        outcome = step(session, mail, found, reading, clock=clock)
        if outcome is not None:
            return outcome
    if found.orders.orders and all(isinstance(o, Answer) for o in found.orders.orders):
        return _store_answers(session, mail, found, clock=clock)
    return _store_orders(session, mail, found, clock=clock)


def _without_header(
    session: Session | LeanSession, mail: Incoming, record: MessageRow, reading: Reading, *, clock: Clock
) -> MailOutcome:
    """A mail whose text names no game: over a limit, mail commands alone, or no header at all."""
    if reading.problem is not None:
        why = gettext("en", reading.problem[0], **reading.problem[1])
        text = answer_registered(
            session,
            mail,
            f"Your mail {quoted(mail.subject)} was not used: {why}. Nothing of it was stored.",
            f"refused: {why}",
            clock=clock,
        )
        return MailOutcome(Reason.OVER_LIMIT, text)
    if reading.commands:
        from adjudicator.services.mail_commands import commands_without_header  # a command's mail alone needs it

        return MailOutcome(
            Reason.COMMANDS, commands_without_header(session, mail, record, reading.commands, clock=clock)
        )
    if not queries_for(session).games_of_address(mail.sender):
        # a stranger gets nothing (the moderator sees it: pbem log)
        return MailOutcome(Reason.NO_HEADER, STRANGER + "refused: no header")
    if (held := floods.answer_held(session, mail.sender, "refused: no header", clock=clock)) is not None:
        return MailOutcome(Reason.NO_HEADER, held)
    queries_for(session).queue_mail(
        mail.sender,
        "Your mail to the PBEM moderator",
        "No order header was found in your mail. Orders start with a line\n"
        "  GAME <game> TURN <n> PLAYER <seat> PASSWORD <password>\n"
        "A mail with the single word HELP is answered with what one can write.\n",
        timestamp(clock),
        **thread_headers(mail),
    )
    return MailOutcome(Reason.NO_HEADER, "refused: no header")


def _find_seat(
    session: Session | LeanSession, mail: Incoming, record: MessageRow, reading: Reading, *, clock: Clock
) -> Seated | MailOutcome:
    """The game the header names (locked until the transaction ends) and the seat it names; noted on the record."""
    assert reading.game is not None
    try:
        game, ruleset, state = current_game(session, reading.game, lock=True)
    except LookupError:
        return MailOutcome(Reason.UNKNOWN_GAME, answer_unknown_game(session, mail, reading.game, clock=clock))
    record.game = game.name
    if game.selfplay:
        return MailOutcome(Reason.SELF_PLAY, STRANGER + "refused: a self-play game takes no mail")
    orders = reading.orders or parse_orders(reading.text, ruleset)  # parsed here only for a game made since the reading
    if orders.header is None:
        why = "the header line is not complete: " + "; ".join(e.located for e in orders.errors)
        return MailOutcome(
            Reason.HEADER_INCOMPLETE, _refuse_openly(session, mail, game, why, reading.secrets, clock=clock)
        )
    try:
        seat = queries_for(session).find_seat(game, orders.header.player)
    except LookupError as unknown:
        return MailOutcome(
            Reason.UNKNOWN_SEAT, _refuse_openly(session, mail, game, str(unknown), reading.secrets, clock=clock)
        )
    record.seat = seat.seat
    return Seated(game, ruleset, state, seat, orders)


def _check_password(
    session: Session | LeanSession, mail: Incoming, found: Seated, reading: Reading, *, clock: Clock
) -> MailOutcome | None:
    """The seat's password, and with the game's check_sender its registered address: else the seat is warned."""
    game, seat = found.game, found.seat
    if not _authentic(session, game, seat, found.orders, reading):
        text = _warn_seat(session, game, seat, mail, N_("a wrong password"), show_sender=False, clock=clock)
        return MailOutcome(Reason.WRONG_PASSWORD, text)
    if game.check_sender and mail.sender.lower() != seat.email.lower():
        return MailOutcome(
            Reason.WRONG_ADDRESS, _warn_seat(session, game, seat, mail, N_("an address that is not yours"), clock=clock)
        )
    return None


def _check_limits(
    session: Session | LeanSession, mail: Incoming, found: Seated, reading: Reading, *, clock: Clock
) -> MailOutcome | None:
    """The limits of one mail (over_limits) and of the press a seat sends for one player-turn: a mail over one is
    not used, and the seat is told why."""
    game, seat = found.game, found.seat
    problem = reading.problem or _press_over_turn_limit(
        session, game, found.ruleset, found.state, seat, found.orders, reading.text
    )
    if problem is None:
        return None
    say = seat.language
    mail_to_seat(
        session,
        game,
        seat,
        gettext(say, "Your mail was not used"),
        gettext(
            say,
            "Your mail (subject %(subject)s) was not used: %(problem)s. Nothing of it was stored.",
            subject=quoted(mail.subject),
            problem=gettext(say, problem[0], **problem[1]),
        )
        + "\n"
        + deadline_text(game, seat),
        reply_to=mail,
        clock=clock,
    )
    return MailOutcome(Reason.OVER_LIMIT, f"refused: {gettext('en', problem[0], **problem[1])}")


def _take_commands(
    session: Session | LeanSession, mail: Incoming, found: Seated, reading: Reading, *, clock: Clock
) -> MailOutcome | None:
    """The mail commands beside the header, taken first, so that a TIMEZONE command already shapes the receipt of
    the same mail; a mail of commands alone ends here."""
    if not reading.commands:
        return None
    from adjudicator.services.mail_commands import seat_commands  # an order mail without commands needs none of it

    with_orders = bool(found.orders.orders or found.orders.errors)
    held = seat_commands(session, found.game, found.state, found.seat, mail, reading.commands, with_orders, clock=clock)
    if with_orders:
        return None
    return MailOutcome(Reason.COMMANDS, "commands: " + ", ".join(c.name for c in reading.commands) + held)


def _check_lateness(
    session: Session | LeanSession, mail: Incoming, found: Seated, reading: Reading, *, clock: Clock
) -> MailOutcome | None:
    """Orders for a turn already resolved are not stored (answers to its decisions may still come)."""
    orders = found.orders
    assert orders.header is not None
    if orders.header.turn > found.ruleset.steps_done(found.state) or all(isinstance(o, Answer) for o in orders.orders):
        return None
    tell_seat(
        session,
        found.game,
        found.seat,
        N_("Late orders for turn %(turn)s"),
        N_(
            "Your orders for turn %(turn)s arrived after that turn was resolved; nothing was stored. The turn "
            "now open for your orders is announced in the latest report."
        ),
        turn=orders.header.turn,
        reply_to=mail,
        clock=clock,
    )
    return MailOutcome(Reason.LATE, "refused: late")


def _store_answers(session: Session | LeanSession, mail: Incoming, found: Seated, *, clock: Clock) -> MailOutcome:
    """A mail of ANSWER lines alone: the answers stored, and the seat told which, and which are still open."""
    game, seat = found.game, found.seat
    try:
        receipt = store_answers(session, game, found.state, found.orders, seat.seat, clock=clock)
    except PbemError as problem:
        return _not_stored(session, mail, found, problem, clock=clock)
    say = seat.language
    lines = [gettext(say, "stored   %(key)s", key=k) for k in receipt.stored]
    lines += [gettext(say, "refused  %(problem)s", problem=p) for p in receipt.problems]
    lines.append(gettext(say, "Still open: %(keys)s", keys=", ".join(receipt.open) or gettext(say, "nothing")))
    mail_to_seat(
        session,
        game,
        seat,
        gettext(say, "Answers received for turn %(turn)s", turn=receipt.turn),
        "\n".join(lines) + "\n" + deadline_text(game, seat),
        reply_to=mail,
        clock=clock,
    )
    return MailOutcome(Reason.ANSWERS_STORED, "answers")


def _store_orders(session: Session | LeanSession, mail: Incoming, found: Seated, *, clock: Clock) -> MailOutcome:
    """The order set stored (or refused by the order checks), the receipt mailed, and its press relayed."""
    game, seat, orders = found.game, found.seat, found.orders
    try:
        receipt = store_order_set(session, game, found.ruleset, found.state, orders, seat, "mail", clock=clock)
    except PbemError as problem:
        return _not_stored(session, mail, found, problem, clock=clock)
    mail_to_seat(
        session,
        game,
        seat,
        gettext(seat.language, "Receipt for turn %(turn)s", turn=receipt.turn),
        receipt.text_in(seat.language) + "\n" + deadline_text(game, seat),
        reply_to=mail,
        clock=clock,
    )
    if receipt.stored or receipt.kept or receipt.withdrawn:
        relay_press(session, game, seat.seat, [o for o in orders.orders if isinstance(o, Press)], clock=clock)
    return _outcome(receipt, orders)


def _not_stored(
    session: Session | LeanSession, mail: Incoming, found: Seated, problem: PbemError, *, clock: Clock
) -> MailOutcome:
    """Orders or answers the store refused (a turn not open, a bad answer): the seat is told why."""
    mail_to_seat(
        session,
        found.game,
        found.seat,
        gettext(found.seat.language, "Your orders were not stored"),
        f"{problem}\n" + deadline_text(found.game, found.seat),
        reply_to=mail,
        clock=clock,
    )
    return MailOutcome(Reason.NOT_STORED, f"refused: {problem}")


def _outcome(receipt: Receipt, orders: ParsedOrders) -> MailOutcome:
    """What became of an order mail, for the log (`pbem log`, `pbem ingest`)."""
    if receipt.stored:
        return MailOutcome(Reason.ORDERS_STORED, "orders stored")
    if receipt.withdrawn:
        return MailOutcome(Reason.ORDERS_WITHDRAWN, "orders withdrawn")
    if receipt.withdraw_refused:
        return MailOutcome(Reason.WITHDRAW_BESIDE_ORDERS, "refused: WITHDRAW beside orders")
    if receipt.kept and not orders.errors:
        return MailOutcome(Reason.ORDERS_KEPT, "no game orders: the stored orders stay")
    return MailOutcome(Reason.NOT_UNDERSTOOD, "orders not understood")


def _authentic(
    session: Session | LeanSession, game: GameRow, seat: SeatRow, orders: ParsedOrders, reading: Reading
) -> bool:
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
    session: Session | LeanSession,
    game: GameRow,
    ruleset: Ruleset,
    state: Any,
    seat: SeatRow,
    orders: ParsedOrders,
    text: str,
) -> Problem | None:
    """Press over MAX_PRESS_PER_TURN, counting the PRESS and BROADCAST lines of the seat's order sets stored for the
    same player-turn (those replaced too: their press was relayed)."""
    count = len(_press_line().findall(text))
    assert orders.header is not None
    if not count:
        return None
    try:
        number = expected_turn(ruleset, state, game.pace, seat.seat, orders.header.turn)
    except PbemError:
        return None  # refused for its turn anyway, with nothing relayed
    stored = queries_for(session).order_texts(game, number, seat.seat)
    sent = sum(len(_press_line().findall(t)) for t in stored)
    if sent + count <= MAX_PRESS_PER_TURN:
        return None
    return N_(
        "it holds %(count)s %(kw_press)s and %(kw_broadcast)s lines, and %(sent)s were sent for turn %(turn)s before: "
        "a seat may send %(limit)s for one turn"
    ), {"count": count, "sent": sent, "turn": number, "limit": MAX_PRESS_PER_TURN}


def _refuse_openly(
    session: Session | LeanSession, mail: Incoming, game: GameRow, why: str, secrets: frozenset[str], *, clock: Clock
) -> str:
    """No seat could be identified: a registered sender learns why (he cannot be impersonating anybody); a
    stranger learns nothing."""
    why = _without(why, secrets)
    if not queries_for(session).games_of_address(mail.sender):
        return STRANGER + f"refused: {why}"
    if (held := floods.answer_held(session, mail.sender, f"refused: {why}", clock=clock)) is not None:
        return held
    queries_for(session).queue_mail(
        mail.sender,
        f"[{game.name}] Your mail could not be read",
        f"{why}\n",
        timestamp(clock),
        game.name,
        **thread_headers(mail),
    )
    return f"refused: {why}"


def _warn_seat(
    session: Session | LeanSession,
    game: GameRow,
    seat: SeatRow,
    mail: Incoming,
    what: str,
    show_sender: bool = True,
    *,
    clock: Clock,
) -> str:
    """A forged or mistaken mail: the seat's registered address is told, the sender learns nothing; a few times a
    day at most (floods.REFUSED), so that forged mails cannot flood the seat and the moderator."""
    outcome = f"refused: {what} ({mail.sender})" if show_sender else f"refused: {what}"
    verdict = floods.verdict(session, floods.REFUSED, clock=clock, game=game.name, seat=seat.seat)
    if verdict != "answer":
        to = [(seat.email, seat.language)] + ([(game.moderator, "en")] if game.moderator else [])
        return floods.held(session, verdict, outcome, floods.REFUSED, to, game.name, clock=clock)
    tell_seat(
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
        subject=quoted(mail.subject),
        clock=clock,
    )
    if game.moderator:
        queries_for(session).queue_mail(
            game.moderator,
            f"[{game.name}] refused mail for {seat.seat}",
            f"From {mail.sender}: {what}.\n",
            timestamp(clock),
            game.name,
        )
    return outcome


def relay_press(
    session: Session | LeanSession, game: GameRow, sender: str, press: list[Press], *, clock: Clock
) -> None:
    """Press goes to its addressee(s) at once; anonymous games do not name the sender. A BROADCAST is public, so
    the confirmed observers get it too; press to a seat never leaves its addressee."""
    seats = queries_for(session).game_seats(game)
    watchers = queries_for(session).observers(game) if any(item.to is None for item in press) else []
    for item in press:
        for seat in seats:
            if seat.seat != sender and (item.to is None or item.to == seat.seat):
                signed = gettext(seat.language, "Anonymous") if game.anonymous_press else sender
                subject = N_("Broadcast from %(seat)s") if item.to is None else N_("Press from %(seat)s")
                mail_to_seat(
                    session, game, seat, gettext(seat.language, subject, seat=signed), f"{item.message}\n", clock=clock
                )
        for watcher in watchers if item.to is None else []:
            signed = gettext(watcher.language, "Anonymous") if game.anonymous_press else sender
            subject = gettext(watcher.language, "Broadcast from %(seat)s", seat=signed)
            queries_for(session).queue_mail(
                watcher.email, f"[{game.name}] {subject}", f"{item.message}\n", timestamp(clock), game.name
            )
