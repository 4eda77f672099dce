"""The mail commands (adjudicator/mail/commands.py): HELP, PASSWORD RESET, OBSERVE, UNOBSERVE, LIST and the
confirmation of SET ADDRESS without the order header; STATUS, TIMEZONE and those of services/player_commands.py
(MYORDERS, REPORT, HISTORY, RESIGN, SET ADDRESS) of an authenticated seat."""

from __future__ import annotations

import hmac
import secrets
from datetime import timedelta
from typing import Any

from sqlmodel import Session

from adjudicator.archive import queries as db
from adjudicator.archive.models import GameRow, MessageRow, ObserverRow, SeatRow
from adjudicator.mail.clock import UnknownZone, zone_name
from adjudicator.mail.commands import Command
from adjudicator.mail.inbound import Incoming, address_problem
from adjudicator.orders.keywords import written
from adjudicator.render import render
from adjudicator.render.i18n import N_, gettext
from adjudicator.services import floods, player_commands
from adjudicator.services.clock import Clock, parse_time, timestamp
from adjudicator.services.notices import (
    STRANGER,
    answer_asked,
    answer_registered,
    answer_unknown_game,
    deadline_text,
    mail_to_seat,
    tell_seat,
    thread_headers,
)
from adjudicator.services.passwords import hash_password
from adjudicator.services.status import game_status, status_text


def commands_without_header(
    session: Session, mail: Incoming, record: MessageRow, commands: list[Command], *, clock: Clock
) -> str:
    """HELP, PASSWORD RESET, OBSERVE and UNOBSERVE need no password. What they can trigger is bounded: a
    stranger gets nothing but one OBSERVE confirmation a day per address and game (observing starts only when
    that address sends its token back), and a new password only ever goes to the seat's registered address,
    the old one working until the new one is used. Each kind is answered once per mail and a few times a day
    (services/floods.py), so that forged mail cannot flood anybody."""
    outcomes = []
    seen: set[str] = set()
    for command in commands:
        if command.name in seen:  # one answer per kind and mail: ten HELPs in a mail are one HELP
            outcomes.append(f"not answered again in the same mail: {command.name}")
            continue
        seen.add(command.name)
        if command.name == "RESET":
            outcomes.append(_reset_password(session, mail, record, command, clock=clock))
        elif command.name in ("OBSERVE", "UNOBSERVE"):
            outcomes.append(_observe(session, mail, record, command, clock=clock))
        elif command.name == "HELP":
            outcomes.append(_help(session, mail, command, clock=clock))
        elif command.name == "LIST":
            outcomes.append(player_commands.list_without_header(session, mail, command, clock=clock))
        elif command.name == "ADDRESS":
            outcomes.append(player_commands.confirm_address(session, mail, record, command, clock=clock))
        else:  # a seat's commands (STATUS, MYORDERS, ...), which need the order header and its password
            outcomes.append(
                answer_registered(
                    session,
                    mail,
                    f"line {command.line}: {command.name} needs the order header with your password "
                    "above it: GAME <game> TURN <n> PLAYER <seat> PASSWORD <password>",
                    f"refused: {command.name} without a header",
                    clock=clock,
                )
            )
    return "; ".join(outcomes)


def _help(session: Session, mail: Incoming, command: Command, *, clock: Clock) -> str:
    say = command.language
    return answer_asked(
        session,
        mail,
        "HELP",
        floods.HELP,
        say,
        gettext(say, "How to write to the PBEM moderator"),
        lambda: render("help.txt.j2", say, rulesets=help_rulesets(session, db.games_of_address(session, mail.sender))),
        clock=clock,
    )


def help_rulesets(session: Session, games: list[str]) -> list[dict[str, str]]:
    """The rulesets of `games`, each once, for HELP's order forms: its title and template folder."""
    from sqlmodel import select

    from adjudicator.render import ruleset_templates
    from adjudicator.rulesets import load_ruleset

    names = sorted({row.ruleset for row in session.exec(select(GameRow)).all() if row.name in games})
    found = []
    for name in names:
        ruleset = load_ruleset(name)
        folder = ruleset_templates(ruleset)
        if folder is not None:
            found.append({"title": ruleset.title, "templates": folder})
    return found


def _reset_password(session: Session, mail: Incoming, record: MessageRow, command: Command, *, clock: Clock) -> str:
    """PASSWORD RESET <game> <seat>: only from the seat's registered address, and the new password goes to that
    address alone, so a forger learns nothing. The new password is pending: the old one keeps working until the
    new one is first used (`authenticate`), so a forged reset cannot lock the player out before a deadline."""
    usage = ("write PASSWORD RESET <game> <seat>", "refused: PASSWORD RESET needs a game and a seat")
    game = player_commands.named_game(session, mail, record, command, usage, clock=clock)
    if isinstance(game, str):
        return game
    seat = next((s for s in db.game_seats(session, game) if s.seat.casefold() == command.args[1].casefold()), None)
    if seat is None or seat.email.lower() != mail.sender.lower():
        return STRANGER + "refused: PASSWORD RESET not from the seat's registered address"
    record.seat = seat.seat
    verdict = floods.verdict(session, floods.RESET, clock=clock, sender=mail.sender, game=game.name)
    if verdict != "answer":  # the pending password stays as it was
        to = [(seat.email, seat.language)]
        return floods.held(
            session, verdict, f"PASSWORD RESET for {seat.seat}", floods.RESET, to, game.name, clock=clock
        )
    password = secrets.token_urlsafe(9)
    seat.pending_password_hash = hash_password(password)  # a later reset replaces an unused earlier one
    session.add(seat)
    tell_seat(
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
        clock=clock,
    )
    return f"password reset for {seat.seat}"


def _header_line(language: str, game: str, seat: str, password: str) -> str:
    return render("_header.txt.j2", language, game=game, seat=seat, password=password).strip()


CONFIRMATION_HOURS = 24  # at most one OBSERVE confirmation per address and game in this time: no flooding


def _observe(session: Session, mail: Incoming, record: MessageRow, command: Command, *, clock: Clock) -> str:
    """OBSERVE <game>: the sender receives the public reports (never private ones). Open games take anybody:
    the public report holds nothing that `pbem site` would not publish; closed games take only the moderator's
    choice (`pbem gm observe`). A From can be forged, so observing starts only when the address sends back the
    token of the one confirmation mailed to it (double opt-in): OBSERVE <game> <token>."""
    if len(command.args) not in ((1, 2) if command.name == "OBSERVE" else (1,)):
        return answer_registered(
            session,
            mail,
            f"line {command.line}: write {command.name} <game>",
            f"refused: {command.name} needs a game",
            clock=clock,
        )
    try:
        game = db.find_game(session, command.args[0], lock=True)
    except LookupError:
        return answer_unknown_game(session, mail, command.args[0], clock=clock)
    record.game = game.name
    if address_problem(mail.sender) is not None:  # nothing could ever be sent to it
        return STRANGER + f"refused: {command.name} from an address that cannot be mailed"
    say = command.language
    row = db.observer(session, game, mail.sender)
    if command.name == "UNOBSERVE":
        return _unobserve(session, mail, game, row, say, clock=clock)
    if row is not None and row.confirmed:
        verdict = floods.verdict(session, floods.OBSERVING, clock=clock, sender=mail.sender, game=game.name)
        if verdict != "answer":
            to = [(mail.sender, say)]
            return floods.held(session, verdict, "observer already", floods.OBSERVING, to, game.name, clock=clock)
        _tell_observing(session, game, mail.sender, say, mail, clock=clock)
        return "observer already"
    if game.observers != "open":
        return answer_registered(
            session,
            mail,
            gettext(say, "Game %(game)s takes observers only by the moderator's invitation.", game=game.name),
            "refused: observers are closed",
            clock=clock,
        )
    if len(command.args) == 2:
        return _confirm_observer(session, mail, game, row, command, clock=clock)
    return _ask_confirmation(session, mail, game, row, say, clock=clock)


def _unobserve(
    session: Session, mail: Incoming, game: GameRow, row: ObserverRow | None, say: str, *, clock: Clock
) -> str:
    """UNOBSERVE <game>: a confirmed observer stops. A pending request stays until it is old, so that OBSERVE and
    UNOBSERVE in turn cannot mail one confirmation after another."""
    if row is None or not row.confirmed:
        return answer_registered(
            session,
            mail,
            gettext(say, "You do not observe game %(game)s.", game=game.name),
            "refused: UNOBSERVE by an address that does not observe",
            clock=clock,
        )
    session.delete(row)
    body = gettext(say, "You no longer receive the reports of game %(game)s.", game=game.name)
    db.queue_mail(
        session,
        mail.sender,
        f"[{game.name}] " + gettext(say, "Observing ended"),
        body + "\n",
        timestamp(clock),
        game.name,
        **thread_headers(mail),
    )
    return "observer removed"


def _ask_confirmation(
    session: Session, mail: Incoming, game: GameRow, row: ObserverRow | None, say: str, *, clock: Clock
) -> str:
    """Store a pending observer with a new token and mail the token to the address; not again within
    CONFIRMATION_HOURS (the address may be a victim's, forged)."""
    moment = timestamp(clock)
    if row is not None and parse_time(moment) - parse_time(row.since) < timedelta(hours=CONFIRMATION_HOURS):
        return STRANGER + f"refused: OBSERVE, a confirmation was mailed less than {CONFIRMATION_HOURS} hours ago"
    verdict = floods.verdict(session, floods.CONFIRMATION, clock=clock, game=game.name)
    if verdict != "answer":  # many addresses at once, likely forged: the moderator hears of it, once a day
        to = [(game.moderator, "en")] if game.moderator else []
        return floods.held(session, verdict, "OBSERVE confirmation", floods.CONFIRMATION, to, game.name, clock=clock)
    token = secrets.token_hex(8)
    if row is None:
        assert game.id is not None
        row = ObserverRow(game_id=game.id, email=mail.sender.lower(), since=moment, confirmed=False)
    row.language, row.since, row.token_hash = say, moment, player_commands.token_hash(token)
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
        **thread_headers(mail),
    )
    return "confirmation of OBSERVE mailed"


def _confirm_observer(
    session: Session, mail: Incoming, game: GameRow, row: ObserverRow | None, command: Command, *, clock: Clock
) -> str:
    """OBSERVE <game> <token> from the address the token was mailed to: observing begins."""
    given = player_commands.token_hash(command.args[1])
    if row is None or not row.token_hash or not hmac.compare_digest(row.token_hash, given):
        return player_commands.wrong_token(session, mail, game, command, clock=clock)
    row.confirmed, row.token_hash, row.since = True, "", timestamp(clock)
    session.add(row)
    _tell_observing(session, game, mail.sender, command.language, mail, clock=clock)
    return "observer added"


def _tell_observing(
    session: Session, game: GameRow, address: str, say: str, mail: Incoming | None, *, clock: Clock
) -> None:
    body = gettext(
        say,
        "You observe game %(game)s: its public reports will come to this address. To stop, send %(command)s %(game)s.",
        game=game.name,
        command=written(say, "UNOBSERVE"),
    )
    db.queue_mail(
        session,
        address,
        f"[{game.name}] " + gettext(say, "Observing"),
        body + "\n",
        timestamp(clock),
        game.name,
        **thread_headers(mail),
    )


def seat_commands(
    session: Session,
    game: GameRow,
    state: Any,
    seat: SeatRow,
    mail: Incoming,
    commands: list[Command],
    with_orders: bool,
    *,
    clock: Clock,
) -> str:
    """The commands of an authenticated seat (`with_orders`: its mail also holds orders), answered in one mail to
    its registered address, a few times a day (floods.SEAT_COMMANDS). Returns "" or the mark of a mail over that
    limit, whose commands are not taken."""
    held = floods.commands_held(session, game, seat, clock=clock)
    if held is not None:
        return held
    say, address = seat.language, seat.email  # RESIGN gives the seat's mail to the moderator: this is the player's
    answers = []
    asked: set[str] = set()
    for command in commands:
        if command.name in asked and command.name in ONCE_A_MAIL:
            continue  # answered once per mail
        asked.add(command.name)
        answers.append(_seat_command(session, game, state, seat, command, with_orders, clock=clock))
    mail_to_seat(
        session,
        game,
        seat,
        gettext(say, floods.COMMANDS_SUBJECT),
        "\n".join(a.rstrip("\n") + "\n" for a in answers),
        reply_to=mail,
        clock=clock,
        at=address,
    )
    return ""


ONCE_A_MAIL = (
    "STATUS",
    "HELP",
    "MYORDERS",
    "HISTORY",
    "LIST",
    "RESIGN",
)  # READY, WAIT: the last one counts  # the same answer twice is no use


def _seat_command(
    session: Session, game: GameRow, state: Any, seat: SeatRow, command: Command, with_orders: bool, *, clock: Clock
) -> str:
    """The answer to one command of an authenticated seat, in its language."""
    say = seat.language
    if command.name == "TIMEZONE":
        return _set_zone(session, game, seat, command, clock=clock)
    if command.name == "STATUS":
        return status_text(say, game_status(session, game, state), seat.timezone)
    if command.name == "HELP":
        return render("help.txt.j2", say, rulesets=help_rulesets(session, [game.name]))
    if command.name == "MYORDERS":
        return player_commands.my_orders(session, game, state, seat)
    if command.name == "REPORT":
        return player_commands.past_report(session, game, seat, command)
    if command.name == "HISTORY":
        return player_commands.history(session, game, seat)
    if command.name == "LIST":
        return player_commands.games_list(session, seat.email, say)
    if command.name in ("READY", "WAIT"):
        return player_commands.ready_or_wait(session, game, state, seat, command)
    if command.name == "AWAY":
        return player_commands.away(session, game, seat, command, clock=clock)
    if command.name == "RESIGN":
        return player_commands.resign(session, game, seat, command, with_orders, clock=clock)
    if command.name == "ADDRESS" and len(command.args) != 2:  # the confirmation <game> <token> comes without header
        return player_commands.ask_address(session, game, seat, command, clock=clock)
    # OBSERVE, UNOBSERVE, PASSWORD RESET, the confirmation of SET ADDRESS: written without the header
    return gettext(
        say,
        "line %(line)s: %(command)s is written in a mail without the order header.",
        line=command.line,
        command=command.name,
    )


def _set_zone(session: Session, game: GameRow, seat: SeatRow, command: Command, *, clock: Clock) -> str:
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
    return gettext(say, "Your time zone is now %(zone)s.", zone=seat.timezone) + "\n" + deadline_text(game, seat)
