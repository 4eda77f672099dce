"""The game master's tools (`pbem gm`): deadlines, players, observers, pause, end and roll-back."""

from __future__ import annotations

import secrets
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlmodel import Session

from adjudicator.archive import Archive
from adjudicator.archive import queries as db
from adjudicator.archive.models import GameRow, ObserverRow, TurnRow
from adjudicator.errors import PbemError
from adjudicator.mail.inbound import address_problem
from adjudicator.orders.keywords import written
from adjudicator.render.i18n import N_, gettext
from adjudicator.services.bots import take_back
from adjudicator.services.chain import chain_head
from adjudicator.services.clock import SYSTEM_CLOCK, Clock, parse_time, timestamp
from adjudicator.services.game_reads import current_game, game_folder, game_ruleset
from adjudicator.services.news import drop_withdrawn_reports, mail_dropped_turns, reported_upto
from adjudicator.services.notices import REPORT_SUBJECT, deadline_text, mail_to_seat, queue_welcome, tell_seat
from adjudicator.services.passwords import hash_password


def extend_deadline(archive: Archive, name: str, hours: int, *, clock: Clock = SYSTEM_CLOCK) -> str:
    with archive.session() as session:
        game = db.find_game(session, name, lock=True)
        moment = (parse_time(game.deadline) if game.deadline else clock.now()) + timedelta(hours=hours)
        _refuse_past(moment, f"the deadline {game.deadline} plus {hours} hours", clock=clock)
        _announce_deadline(session, game, moment, N_("Deadline extended"), clock=clock)
    return game.deadline


def set_deadline(archive: Archive, name: str, when: str, *, clock: Clock = SYSTEM_CLOCK) -> str:
    """`pbem gm deadline`: the deadline at a fixed time (ISO 8601, e.g. 2026-12-01T18:00Z; UTC when no zone is
    given), which must lie ahead; every seat is told."""
    try:
        moment = datetime.fromisoformat(when.strip())
    except ValueError:
        raise PbemError(f"{when!r} is not a time: write e.g. 2026-12-01T18:00Z (ISO 8601, UTC)") from None
    moment = (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).astimezone(UTC)
    _refuse_past(moment, when, clock=clock)
    with archive.session() as session:
        game = db.find_game(session, name, lock=True)
        if game.status != "running":
            raise PbemError(f"game {name} has ended; it has no deadline")
        _announce_deadline(session, game, moment, N_("New deadline"), clock=clock)
    return game.deadline


def _announce_deadline(session: Session, game: GameRow, moment: datetime, subject: str, *, clock: Clock) -> None:
    """Set the game's deadline and tell every seat (`subject`: a message of the catalogue)."""
    game.deadline = moment.isoformat(timespec="seconds")
    session.add(game)
    for seat in db.game_seats(session, game):
        tell_seat(
            session,
            game,
            seat,
            subject,
            N_("The deadline is now %(deadline)s (UTC)."),
            deadline=game.deadline,
            clock=clock,
        )


def _refuse_past(moment: datetime, what: str, *, clock: Clock) -> None:
    """A deadline in the past would let the next tick adjudicate at once, cutting every seat's time short."""
    if moment <= clock.now():
        raise PbemError(f"{what} is {moment.isoformat(timespec='seconds')}, which is past: a deadline must lie ahead")


def replace_player(
    archive: Archive, name: str, seat_name: str, email: str, language: str | None = None, *, clock: Clock = SYSTEM_CLOCK
) -> str:
    """A new player takes a seat: new address, new password (returned). The old player is told; the new one gets
    a welcome in his language (`language`, else the seat's) with the position and his orders template."""
    _check_address(email)
    password = secrets.token_urlsafe(9)
    with archive.session() as session:
        game, ruleset, _ = current_game(session, name, lock=True)
        seat = db.find_seat(session, game, seat_name)
        if seat.email.lower() != email.lower():
            tell_seat(
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
                clock=clock,
            )
        seat.email, seat.password_hash, seat.missed = email, hash_password(password), 0
        take_back(session, seat)  # the new player plays the seat, not the bot
        seat.pending_password_hash = ""  # a reset password the old player asked for must not let him in
        seat.resigned = seat.pending_email = seat.email_token_hash = ""  # the seat is played again, from this address
        seat.language = language or seat.language
        session.add(seat)
        queue_welcome(session, ruleset, game, db.latest_turn(session, game), seat, password, clock=clock)
    return password


def _check_address(email: str) -> None:
    """Refuse an address that could never be sent to (a CR or LF in it would also split the mail's header)."""
    problem = address_problem(email)
    if problem is not None:
        raise PbemError(f"{email!r} is not a mail address: {problem}")


def set_observer(
    archive: Archive, name: str, email: str, add: bool = True, language: str = "en", *, clock: Clock = SYSTEM_CLOCK
) -> bool:
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
            row = row or ObserverRow(game_id=game.id, email=email.lower(), since=timestamp(clock))
            row.language, row.since, row.confirmed, row.token_hash = language, timestamp(clock), True, ""
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
        db.queue_mail(session, email, f"[{name}] {subject}", body + "\n", timestamp(clock), name)
    return True


def set_paused(archive: Archive, name: str, paused: bool) -> None:
    with archive.session() as session:
        game = db.find_game(session, name, lock=True)
        game.paused = paused
        session.add(game)


def end_game(archive: Archive, name: str, *, clock: Clock = SYSTEM_CLOCK) -> None:
    with archive.session() as session:
        game = db.find_game(session, name, lock=True)
        game.status = "ended"
        session.add(game)
        for seat in db.game_seats(session, game):
            tell_seat(
                session, game, seat, N_("The game has been ended"), N_("The moderator has ended the game."), clock=clock
            )


def rollback(archive: Archive, data: Path, name: str, to: int, *, clock: Clock = SYSTEM_CLOCK) -> list[int]:
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
        for decision in db.decisions_after(session, game, to):
            session.delete(decision)
        for orders in db.order_sets_after(session, game, to):
            if orders.turn <= later[-1].number:  # orders sent ahead for a later turn stand, checked when it opens
                orders.replaced = True
                session.add(orders)
        game.status = "running"  # the turn after `to` is due again, with a whole deadline (none while paused)
        game.deadline = (
            None if game.paused else (clock.now() + timedelta(hours=game.turn_hours)).isoformat("T", "seconds")
        )
        session.add(game)
        dropped = drop_withdrawn_reports(session, game, later)  # before observers are told of the reports they had
        turns = ", ".join(str(t.number) for t in later)
        for seat in db.game_seats(session, game):
            say = seat.language
            told = gettext(
                say,
                "The moderator rolled the game back to the position after turn %(turn)s; turns %(turns)s are "
                "withdrawn. Orders for them must be sent again.",
                turn=to,
                turns=turns,
            )
            subject = gettext(say, "Rolled back to turn %(turn)s", turn=to)
            mail_to_seat(session, game, seat, subject, f"{told}\n{deadline_text(game, seat)}", clock=clock)
        _tell_observers_of_rollback(session, game, to, later, clock=clock)
        mail_dropped_turns(session, game, game_ruleset(game), dropped, later, clock=clock)  # after the notices
    folder = game_folder(data, name)
    for row in later:
        old = folder / f"turn-{row.number:04d}"
        if old.exists():
            k = 1
            while (folder / f"{old.name}-withdrawn-{k}").exists():
                k += 1
            old.rename(folder / f"{old.name}-withdrawn-{k}")
    return [t.number for t in later]


def _tell_observers_of_rollback(
    session: Session, game: GameRow, to: int, later: list[TurnRow], *, clock: Clock
) -> None:
    """An observer who was mailed the report of a withdrawn turn learns that it is withdrawn (one who never got one
    is not troubled): a mail to him names the turn or a later one (a report mail reports the turns since his mail
    before it, news.reported_upto), or a report mail's subject names it (queued by an older pbem)."""
    for watcher in db.observers(session, game):
        say = watcher.language
        subjects = set(db.subjects_mailed_to(session, game, watcher.email))
        upto = reported_upto(session, game, {watcher.email}, later)[watcher.email]
        seen = [
            row.number
            for row in later
            if row.number <= upto or f"[{game.name}] " + gettext(say, REPORT_SUBJECT, turn=row.number) in subjects
        ]
        if not seen:
            continue
        db.queue_mail(
            session,
            watcher.email,
            f"[{game.name}] " + gettext(say, "Rolled back to turn %(turn)s", turn=to),
            gettext(
                say,
                "The moderator rolled game %(game)s back to the position after turn %(turn)s. The reports you were "
                "sent of later turns are withdrawn (turns %(turns)s); those turns will be played again.",
                game=game.name,
                turn=to,
                turns=", ".join(map(str, seen)),
            )
            + "\n",
            timestamp(clock),
            game.name,
        )
