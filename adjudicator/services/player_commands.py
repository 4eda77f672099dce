"""The mail commands of a player about his own seats (adjudicator/mail/commands.py): MYORDERS, REPORT, HISTORY,
RESIGN and SET ADDRESS under an order header with the seat's password; LIST, and the confirmation of SET ADDRESS
from the new address, without one. Each text is in the reader's language; services/mail_commands.py mails them."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from datetime import date, timedelta
from typing import Any

from sqlmodel import Session

from adjudicator.archive import queries as db
from adjudicator.archive.models import GameRow, MessageRow, SeatRow
from adjudicator.mail.clock import deadline_line
from adjudicator.mail.commands import Command
from adjudicator.mail.inbound import Incoming, address_problem
from adjudicator.orders import parse_orders
from adjudicator.orders.keywords import written
from adjudicator.render.i18n import N_, gettext
from adjudicator.services import floods
from adjudicator.services.clock import Clock, timestamp
from adjudicator.services.game_reads import game_ruleset, open_turn
from adjudicator.services.notices import (
    answer_asked,
    answer_registered,
    answer_unknown_game,
    tell_seat,
)
from adjudicator.services.orders import checked_receipt
from adjudicator.services.passwords import hash_password
from adjudicator.services.reports import turn_reports


def token_hash(token: str) -> str:
    """What the archive keeps of a token mailed for a confirmation (OBSERVE, SET ADDRESS): its sha256."""
    return hashlib.sha256(token.lower().encode()).hexdigest()


def named_game(
    session: Session, mail: Incoming, record: MessageRow, command: Command, usage: tuple[str, str], *, clock: Clock
) -> GameRow | str:
    """The game named first by a command without header that takes two words (PASSWORD RESET, the confirmation of
    SET ADDRESS), locked and noted on the record; else the outcome of a command written otherwise (`usage`: what a
    registered sender is told, and the outcome) or naming an unknown game."""
    if len(command.args) != 2:
        return answer_registered(session, mail, f"line {command.line}: {usage[0]}", usage[1], clock=clock)
    try:
        game = db.find_game(session, command.args[0], lock=True)
    except LookupError:
        return answer_unknown_game(session, mail, command.args[0], clock=clock)
    record.game = game.name
    return game


def wrong_token(session: Session, mail: Incoming, game: GameRow, command: Command, *, clock: Clock) -> str:
    """A confirmation (OBSERVE, SET ADDRESS) with a token that is not the one mailed to the sender: nothing changes,
    and only a registered sender is told."""
    return answer_registered(
        session,
        mail,
        gettext(
            command.language,
            "line %(line)s: that is not the token mailed to this address for game %(game)s; nothing was changed.",
            line=command.line,
            game=game.name,
        ),
        f"refused: {command.name} with a wrong token",
        clock=clock,
    )


def _minute(moment: str) -> str:
    """An archived ISO time (UTC) to the minute: 2026-11-28 12:00."""
    return moment[:16].replace("T", " ")


def _when(moment: str) -> str:
    """An archived ISO time as the answers write it: 2026-11-28 12:00 UTC."""
    return _minute(moment) + " UTC"


def my_orders(session: Session, game: GameRow, state: Any, seat: SeatRow) -> str:
    """MYORDERS: the order set stored for the seat's open turn, checked again against the position as it stands
    now (a fresh receipt; nothing is stored), or that none is stored."""
    say = seat.language
    ruleset = game_ruleset(game)
    number = open_turn(ruleset, state, game.pace, seat.seat)
    if number is None:
        return gettext(say, "No turn of yours is open for orders now.")
    stored = db.current_orders(session, game, number, seat.seat)
    if stored is None:
        none = gettext(say, "No orders of yours are stored for turn %(turn)s.", turn=number)
        # a plan sent for an earlier step may be what is in force now (Empires' action rounds, EAW-6)
        last = db.latest_orders(session, game, seat.seat, number)
        if last is None:
            return none
        sent = gettext(
            say,
            "The last orders of yours stored are for turn %(turn)s, received %(when)s:",
            turn=last.turn,
            when=_when(last.received),
        )
        return f"{none}\n{sent}\n" + "".join(f"  {line}\n" for line in last.text.splitlines())
    orders = parse_orders(stored.text, ruleset)
    shown = _minute(stored.received)
    receipt = checked_receipt(game.name, game.pace, ruleset, state, orders, seat.seat, number, shown=shown)
    receipt.fingerprint_stored(stored.text, stored.received)
    return receipt.text_in(say)


def past_report(session: Session, game: GameRow, seat: SeatRow, command: Command) -> str:
    """REPORT [n]: turn n's public report and the seat's private one, as its report mail gave them (default: the
    latest turn). Its own private part only: another seat's is never rendered here."""
    say = seat.language
    numbers = db.turn_numbers(session, game)
    wanted = command.args[0] if len(command.args) == 1 else None
    if len(command.args) > 1 or (wanted is not None and (not wanted.isdigit() or int(wanted) not in numbers)):
        return gettext(
            say,
            "line %(line)s: write %(command)s <n>, n a turn of this game from %(first)s to %(last)s.",
            line=command.line,
            command=written(say, "REPORT"),
            first=numbers[0],
            last=numbers[-1],
        )
    number = numbers[-1] if wanted is None else int(wanted)
    row = db.get_turn(session, game, number)
    before = db.turn_states(session, game, {number - 1}).get(number - 1)
    bots = db.bot_seats(session, game, [number]).get(number, ())  # the public report names the bot's orders
    reports = turn_reports(game_ruleset(game), game, row, {seat.seat: say}, say, before, bots=bots)
    return reports["report.txt"] + "\n" + reports[f"report-{seat.seat}.txt"]


def history(session: Session, game: GameRow, seat: SeatRow) -> str:
    """HISTORY: the game's turns, whose each was and when it was resolved, for REPORT n."""
    say = seat.language
    lines = [gettext(say, "The turns of game %(game)s:", game=game.name)]
    # a step without a seat: one of the rules (income, New Year), or one the plans sent before play (Empires' actions)
    setup, nobody = gettext(say, "the setup"), gettext(say, "played without new orders")
    for index, (number, whose, created) in enumerate(db.turn_dates(session, game)):
        lines.append(f"  {number:>4}  {_when(created)}  {whose or (setup if index == 0 else nobody)}")
    report = written(say, "REPORT")
    lines.append(gettext(say, "A turn's report: %(command)s <n> below the order header.", command=report))
    return "\n".join(lines)


def games_list(session: Session, address: str, say: str) -> str:
    """LIST: the games of `address` (its seats, the games it observes or moderates) and the open seats of running
    games (given up, waiting for the moderator to give them to a new player)."""
    lines = [gettext(say, "Your games:")]
    for game, seat in db.seats_of_address(session, address):
        turn = db.turn_numbers(session, game)[-1]
        lines.append(
            "  "
            + gettext(say, "%(game)s: you play %(seat)s; turn %(turn)s", game=game.name, seat=seat.seat, turn=turn)
            + (f"; {deadline_line(say, game.deadline, seat.timezone)}" if game.status == "running" else "")
        )
        if game.status != "running":
            lines.append("    " + gettext(say, "The game has ended."))
    played = {game.name for game, _ in db.seats_of_address(session, address)}
    for name in db.games_of_address(session, address):
        if name not in played:
            moderated = db.find_game(session, name).moderator.lower() == address.lower()
            what = N_("%(game)s: you moderate it") if moderated else N_("%(game)s: you observe it")
            lines.append("  " + gettext(say, what, game=name))
    open_seats = db.open_seats(session)
    if open_seats:
        lines.append(gettext(say, "Open seats (the moderator gives them to new players):"))
        lines += [f"  {game.name}: {seat.seat}" for game, seat in open_seats]
    return "\n".join(lines)


def list_without_header(session: Session, mail: Incoming, command: Command, *, clock: Clock) -> str:
    """LIST without a header: answered to a registered address only, a few times a day (services/floods.py)."""
    say = command.language

    def text() -> str:  # made only when it is mailed
        return games_list(session, mail.sender, say) + "\n"

    return answer_asked(session, mail, "LIST", floods.LIST, say, gettext(say, "Your games"), text, clock=clock)


def resign(session: Session, game: GameRow, seat: SeatRow, command: Command, with_orders: bool, *, clock: Clock) -> str:
    """RESIGN: the player gives the seat up for good. Its password stops working at once; from then on it is a seat
    that sends nothing (its turns are resolved without orders: standing orders and defaults apply) until the
    moderator gives it to a new player (`pbem gm replace`), and its mail goes to the moderator, who is told."""
    say = seat.language
    if command.args or with_orders:
        return gettext(
            say,
            "line %(line)s: write %(command)s alone on its line, in a mail without orders; nothing was changed.",
            line=command.line,
            command=written(say, "RESIGN"),
        )
    seat.resigned = timestamp(clock)
    # a password nobody knows: no mail can speak for the seat until the moderator gives it a new one
    seat.password_hash, seat.pending_password_hash = hash_password(secrets.token_urlsafe(32)), ""
    seat.pending_email = seat.email_token_hash = ""
    player = seat.email
    if game.moderator:
        seat.email = game.moderator
        db.queue_mail(
            session,
            game.moderator,
            f"[{game.name}] {seat.seat} resigned",
            f"The player of {seat.seat} ({player}) resigned at {_when(seat.resigned)}. The seat sends no orders from "
            "now on (its turns are resolved without orders) and its mail comes to you, until you give it to a new "
            f"player:\n  pbem gm replace {game.name} {seat.seat} <address>\n",
            timestamp(clock),
            game.name,
        )
    session.add(seat)
    return gettext(
        say,
        "You have resigned %(seat)s in game %(game)s. This cannot be taken back: your password no longer works, the "
        "moderator is told, and the seat plays on without orders until a new player takes it. Thank you for playing.",
        seat=seat.seat,
        game=game.name,
    )


ADDRESS_CONFIRMATION_HOURS = 24  # at most one confirmation a day to a new address: no flooding it


def ask_address(session: Session, game: GameRow, seat: SeatRow, command: Command, *, clock: Clock) -> str:
    """SET ADDRESS <address>: a token is mailed to the new address; the seat's address changes only when that
    address sends it back (confirm_address), so that a typing mistake cannot lose the seat its mail."""
    say = seat.language
    spelled = f"{written(say, 'SET')} {written(say, 'ADDRESS')}"
    if len(command.args) != 1 or address_problem(command.args[0]) is not None:
        return gettext(
            say,
            "line %(line)s: write %(command)s <address>, with one mail address; nothing was changed.",
            line=command.line,
            command=spelled,
        )
    new = command.args[0]
    if new.lower() == seat.email.lower():
        return gettext(say, "%(address)s is your address already; nothing was changed.", address=new)
    subject = f"[{game.name}] " + gettext(say, "Confirm a new address")
    since = floods.timestamp_before(clock, timedelta(hours=ADDRESS_CONFIRMATION_HOURS))
    if db.recent_mails_to(session, new, since, [subject]):
        return gettext(
            say,
            "A confirmation was mailed to %(address)s less than %(hours)s hours ago; nothing was mailed again.",
            address=new,
            hours=ADDRESS_CONFIRMATION_HOURS,
        )
    token = secrets.token_hex(8)
    seat.pending_email, seat.email_token_hash = new, token_hash(token)
    session.add(seat)
    body = gettext(
        say,
        "The player of %(seat)s in game %(game)s asked that the seat's mail come to this address from now on. To "
        "confirm, reply from this address with this line:\n  %(line)s\nIf it was not you, ignore this mail: nothing "
        "changes.",
        seat=seat.seat,
        game=game.name,
        line=f"{spelled} {game.name} {token}",
    )
    db.queue_mail(session, new, subject, body + "\n", timestamp(clock), game.name, secret=token)
    return gettext(
        say,
        "A confirmation was mailed to %(address)s. Your address changes when that address sends back the line the "
        "mail gives; until then your mail comes here.",
        address=new,
    )


def confirm_address(session: Session, mail: Incoming, record: MessageRow, command: Command, *, clock: Clock) -> str:
    """SET ADDRESS <game> <token> from the address the token was mailed to: it becomes the seat's address, and
    both addresses are told. A wrong token changes nothing, and a stranger learns nothing."""
    usage = (
        "SET ADDRESS <address> needs the order header with your password above it: "
        "GAME <game> TURN <n> PLAYER <seat> PASSWORD <password>",
        "refused: SET ADDRESS without a header",
    )
    game = named_game(session, mail, record, command, usage, clock=clock)
    if isinstance(game, str):
        return game
    given = token_hash(command.args[1])
    seat = next(
        (
            s
            for s in db.game_seats(session, game)
            if s.pending_email.lower() == mail.sender.lower() and hmac.compare_digest(s.email_token_hash, given)
        ),
        None,
    )
    if seat is None:
        return wrong_token(session, mail, game, command, clock=clock)
    record.seat = seat.seat
    old = seat.email
    seat.email, seat.pending_email, seat.email_token_hash = seat.pending_email, "", ""
    session.add(seat)
    for address in (old, seat.email):
        tell_seat(
            session,
            game,
            seat,
            N_("A new address for %(seat)s"),
            N_("From now on the mail of %(seat)s in game %(game)s goes to %(address)s, and orders come from there."),
            reply_to=mail if address == seat.email else None,
            at=address,
            seat=seat.seat,
            game=game.name,
            address=seat.email,
            clock=clock,
        )
    return f"address changed for {seat.seat}"


def ready_or_wait(session: Session, game: GameRow, state: Any, seat: SeatRow, command: Command) -> str:
    """READY: the seat's open turn may be resolved before its deadline as far as it goes (in a game resolved early
    once all are ready, `early` "ready", every due seat must say so); WAIT: not before the deadline, even when every
    order is in. Each takes the other back."""
    say = seat.language
    number = open_turn(game_ruleset(game), state, game.pace, seat.seat)
    if number is None:
        return gettext(say, "No turn of yours is open for orders now.")
    if command.args:
        return gettext(
            say,
            "line %(line)s: write %(command)s alone on its line; nothing was changed.",
            line=command.line,
            command=written(say, command.name),
        )
    ready = command.name == "READY"
    seat.ready_for, seat.wait_for = (number, 0) if ready else (0, number)
    session.add(seat)
    if not ready and number > game.wait_turn:
        game.wait_turn = number
        session.add(game)
    if not ready:
        return gettext(
            say,
            "Turn %(turn)s waits for its deadline, even when every order is in; %(ready)s takes it back.",
            turn=number,
            ready=written(say, "READY"),
        )
    if game.early == "ready":
        return gettext(
            say,
            "You are ready for turn %(turn)s: it is resolved before its deadline once every seat due is.",
            turn=number,
        )
    return gettext(
        say,
        "You are ready for turn %(turn)s: it is resolved before its deadline once every seat due has sent orders.",
        turn=number,
    )


def away(session: Session, game: GameRow, seat: SeatRow, command: Command, *, clock: Clock) -> str:
    """AWAY <from> <to>: an absence of at most the game's `away_days` days, whose turns are not counted missed (the
    seat's standing orders and the defaults play them, as in any turn without orders); AWAY alone ends it."""
    say = seat.language
    if not command.args:
        seat.away_from = seat.away_until = ""
        session.add(seat)
        return gettext(say, "You are no longer marked away.")
    try:
        first, last = (date.fromisoformat(word) for word in command.args)
    except ValueError:
        first = last = None
    today = clock.now().date()
    if first is None or last is None or last < max(first, today) or (last - first).days >= game.away_days:
        return gettext(
            say,
            "line %(line)s: write %(command)s <from> <to>, two dates such as 2026-12-24 2027-01-02, the last one not "
            "past, at most %(days)s days; nothing was changed.",
            line=command.line,
            command=written(say, "AWAY"),
            days=game.away_days,
        )
    seat.away_from, seat.away_until = first.isoformat(), last.isoformat()
    session.add(seat)
    return gettext(
        say,
        "You are away from %(first)s to %(last)s (UTC): the turns resolved then are not counted missed, and your "
        "standing orders apply in them. %(command)s alone ends it.",
        first=seat.away_from,
        last=seat.away_until,
        command=written(say, "AWAY"),
    )
