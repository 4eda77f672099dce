"""Deadlines (`pbem tick`, for cron): adjudicating due games, reminders, and the reports, NMR alerts
and decision questions queued for the players."""

from __future__ import annotations

import traceback
from collections import deque
from contextlib import AbstractContextManager
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Literal

from sqlmodel import Session

from adjudicator.archive import Archive
from adjudicator.archive import queries as db
from adjudicator.archive.lean_mail import LeanArchive, StepAside
from adjudicator.archive.lean_tick import LeanTickSession
from adjudicator.archive.models import GameRow, SeatRow
from adjudicator.errors import PbemError
from adjudicator.render.i18n import gettext
from adjudicator.services.adjudication import adjudicate_locked, seats_away
from adjudicator.services.bot_orders import answer_for_bots, order_for_bots
from adjudicator.services.clock import SYSTEM_CLOCK, Clock, FixedClock, parse_time
from adjudicator.services.frozen import objects_made_frozen
from adjudicator.services.game_reads import current_game, due_turns, game_folder
from adjudicator.services.news import mail_news, queue_news
from adjudicator.services.notices import deadline_text, mail_to_seat
from adjudicator.services.repair import missing_files
from adjudicator.services.turn import turn_name


@dataclass
class TickReport:
    lines: list[str] = field(default_factory=list)
    failures: dict[str, str] = field(default_factory=dict)  # game -> what stopped it (a bug: its traceback)


def tick(archive: Archive, data: Path, *, clock: Clock = SYSTEM_CLOCK) -> TickReport:
    """Adjudicate every game whose deadline passed or whose orders are all in; send reminders (for cron).

    Games are ticked one by one, each in its own transactions: a game that fails (a damaged archive row, a
    bug) is rolled back and reported with its name, and the other games are ticked all the same."""
    clock = FixedClock(clock.now())  # every game of the tick is ticked at the moment it began
    report = TickReport()
    with objects_made_frozen():  # the games' ticks
        if archive.backend == "postgresql":
            _tick_claimed(archive, data, report, clock=clock)
            return report
        with archive.session() as session:  # SQLite: one writer at a time, every game is waited for in turn
            names = db.games_to_tick(session)
        lean = archive.lean()  # the games' transactions without SQLAlchemy (archive/lean_tick.py)
        try:
            for name in names:
                _tick_listed(archive, data, name, None, report, clock=clock, lean=lean)
        finally:
            if lean is not None:
                lean.close()
    return report


def _tick_claimed(archive: Archive, data: Path, report: TickReport, *, clock: Clock) -> None:
    """Tick the games as one of several workers that may run at once: claim only the games no other holds, leave
    a game another ticked since this list was made, and come back at the end to the games found held, waiting
    for their locks then (an ingest may have held one). A worker that dies releases its game with its connection.
    """
    with archive.session() as session:
        pending = deque(db.games_to_claim(session))
    held: list[db.Claim] = []
    while pending:
        claim = pending.popleft()
        outcome = _tick_listed(archive, data, claim.name, claim, report, clock=clock)
        if outcome == "held":
            held.append(claim)
        elif outcome == "ticked" and pending:  # others work ahead: leave what they ticked, one query for many
            ahead = [pending.popleft() for _ in range(min(LOOK_AHEAD, len(pending)))]
            with archive.session() as session:
                pending.extendleft(reversed(db.unticked(session, ahead)))
    if held:
        with archive.session() as session:
            held = db.unticked(session, held)
    for claim in held:
        _tick_listed(archive, data, claim.name, replace(claim, wait=True), report, clock=clock)


LOOK_AHEAD = 200  # listed games checked at once for another worker's tick


def _tick_listed(
    archive: Archive,
    data: Path,
    name: str,
    claim: db.Claim | None,
    report: TickReport,
    *,
    clock: Clock,
    lean: LeanArchive | None = None,
) -> Literal["done", "held", "ticked"]:
    """Tick one game of the list into `report`; "held" while another worker holds it (this one comes back to it),
    "ticked" when another worker ticked it since the list was made. `lean`: the default SQLite archive, opened with
    `sqlite3` (a game the lean way cannot tick as the archive would is ticked through the archive)."""
    try:
        if lean is not None:
            try:
                report.lines += _tick_game(lean.session(LeanTickSession), archive, data, name, clock=clock)
                return "done"
            except StepAside:
                pass  # nothing was stored: the archive ticks the game
        report.lines += _tick_game(archive.session(), archive, data, name, clock=clock, claim=claim)
    except db.GameTicked:
        return "ticked"
    except db.GameHeld:
        return "held"
    except PbemError as damaged:  # a damaged row of the game's: named, no traceback
        report.lines.append(f"{name}: FAILED ({damaged})")
        report.failures[name] = str(damaged)
    except Exception as failure:  # noqa: BLE001 (one game's failure must not stop the others)
        report.lines.append(f"{name}: FAILED ({type(failure).__name__}: {failure})")
        report.failures[name] = traceback.format_exc()
    return "done"


def _tick_game(
    transaction: AbstractContextManager[Session],
    archive: Archive,
    data: Path,
    name: str,
    *,
    clock: Clock,
    claim: db.Claim | None = None,
) -> list[str]:
    """Remind or adjudicate one game in `transaction` (the archive's or a lean one), deciding and acting under the
    game's lock: on SQLite a second tick running at the same time waits, then finds the turn resolved and its
    deadline moved on; on PostgreSQL, with `claim`, it skips a game another worker holds (SKIP LOCKED) and comes back
    to it at the end."""
    done, moment = None, clock.now()
    with transaction as session:
        game, ruleset, state = current_game(session, name, lock=True, claim=claim)
        if game.paused or game.status != "running":
            return [f"{name}: {'paused' if game.paused else game.status}"]
        if game.deadline is None:
            game.deadline = (moment + timedelta(hours=game.turn_hours)).isoformat(timespec="seconds")
            session.add(game)
        due = due_turns(ruleset, state, game.pace)
        if due:  # the due seats' orders, and those sent ahead that a resolved turn makes due, in one query
            db.read_current_orders(session, game, min(n for n, _ in due))
        missing, seats = order_for_bots(session, game, ruleset, state, due, clock=clock)  # seats run by the bot
        # an absent seat's turns are played by its standing orders or the bot (AWAY, RESIGN): nobody waits for it
        away = seats_away(seats, moment) if seats is not None else frozenset()
        missing = [(number, seat) for number, seat in missing if seat not in away]
        answer_for_bots(session, game, ruleset, state, clock=clock)
        deadline = parse_time(game.deadline)
        grace = deadline + timedelta(hours=game.grace_hours)
        waited = _waited_for(session, game, due, missing, moment) if moment < deadline else []
        if missing and waited:
            assert seats is not None  # read when orders are missing
            lines = _remind(session, game, missing, seats, moment, deadline, clock=clock)
        elif waited:
            lines = [f"{name}: waiting for {', '.join(waited)} (READY, WAIT) until {game.deadline}"]
        elif missing and deadline <= moment < grace:  # the grace period: late orders are still taken
            late = ", ".join(seat for _, seat in missing)
            lines = [f"{name}: waiting for {late} in the grace period until {grace.isoformat(timespec='seconds')}"]
        else:
            done = adjudicate_locked(
                session, game, ruleset, state, defaults=moment >= deadline, clock=clock, seats=seats
            )
            lines = [f"{name}: {turn_name(row)} resolved" for row in done.turns]
            lines = lines or [f"{name}: waiting for decisions" if done.waiting else f"{name}: nothing to do"]
        news, questions = queue_news(
            session, game, ruleset, clock=clock, seats=done.seats if done else None, resolved=done.turns if done else ()
        )
        if claim is not None:
            db.count_tick(session, game, claim)
        # the files of stored turns that the disk lacks (their writer died after its commit), read in the same
        # transaction, so that a game takes one commit; this tick's own turns and questions are written below
        # without flushing what queue_news changed (NMR counts, turns mailed, mails): its first query flushed the
        # turns and questions, all these queries read of this transaction's changes (self-play is never ticked)
        with session.no_autoflush:
            missing = missing_files(
                session,
                data,
                name,
                clock=clock,
                written_by_caller={row.number for row in done.turns} if done else (),
                notices_by_caller=done is not None and done.waiting_on is not None,
                game=game,
                languages=done.languages if done is not None else None,
                newest=True,
            )
    lines += _repair_lines(missing.write(), game_folder(data, name), name) + news  # older turns first (repair.py)
    if done is not None:
        done.write_files(data)
    return lines + (mail_news(archive, data, name, clock=clock) if questions else [])


def _waited_for(
    session: Session, game: GameRow, due: list[tuple[int, str]], missing: list[tuple[int, str]], moment: datetime
) -> list[str]:
    """The due seats a turn waits for before its deadline: in a game resolved early once all orders are in (the
    default), those without orders and those that said WAIT for it; in a game resolved early once all are ready
    (`early` "ready"), those that have not said READY for it and are not away."""
    if game.early == "orders" and missing:
        return [seat for _, seat in missing]
    if not due or (game.early == "orders" and min(number for number, _ in due) > game.wait_turn):
        return []  # no seat said WAIT for a due turn: the seats are not read (a tick of many games must be fast)
    seats = {row.seat: row for row in db.game_seats(session, game)}
    if game.early == "ready":
        away = seats_away(list(seats.values()), moment)
        return [seat for number, seat in due if seats[seat].ready_for != number and seat not in away]
    return [seat for number, seat in due if seats[seat].wait_for == number]


def _repair_lines(written: list[Path], folder: Path, name: str) -> list[str]:
    """The line saying which files of stored turns the disk lacked and were written."""
    return [f"{name}: wrote missing {', '.join(str(path.relative_to(folder)) for path in written)}"] if written else []


def _remind(
    session: Session,
    game: GameRow,
    missing: list[tuple[int, str]],
    seats: list[SeatRow],
    moment: datetime,
    deadline: datetime,
    *,
    clock: Clock,
) -> list[str]:
    if moment < deadline - timedelta(hours=game.reminder_hours):
        return [f"{game.name}: waiting for {', '.join(s for _, s in missing)} until {game.deadline}"]
    lines = []
    by_name = {seat.seat: seat for seat in seats}
    for number, seat_name in missing:
        seat = by_name[seat_name]
        if seat.reminded_for == number:
            continue
        seat.reminded_for = number
        session.add(seat)
        say = seat.language
        mail_to_seat(
            session,
            game,
            seat,
            gettext(say, "Reminder: orders for turn %(turn)s are due", turn=number),
            gettext(say, "No orders of yours are stored for turn %(turn)s.", turn=number)
            + "\n"
            + deadline_text(game, seat),
            clock=clock,
        )
        lines.append(f"{game.name}: reminded {seat_name} (turn {number})")
    return lines or [f"{game.name}: waiting for {', '.join(s for _, s in missing)} until {game.deadline}"]
