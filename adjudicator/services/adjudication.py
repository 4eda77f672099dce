"""Adjudication: resolving the due player-turns of an archived game from its stored orders (and a turn file's
blocks), asking the decisions a turn needs, and queueing the reports and receipts it brings.

Every operation that stores something does it in one archive transaction, and writes files only after the
commit, so that a failure leaves the archive as it was."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from adjudicator.engine.decisions import Pending
from adjudicator.engine.steps import StepResult
from adjudicator.errors import PbemError
from adjudicator.orders import parse_orders, parse_turn_file
from adjudicator.orders.sets import OrderError
from adjudicator.render.i18n import gettext
from adjudicator.rulesets import Ruleset
from adjudicator.services.bot_orders import order_for_bots
from adjudicator.services.chain import link_turn
from adjudicator.services.clock import SYSTEM_CLOCK, Clock, timestamp
from adjudicator.services.game_reads import (
    current_game,
    due_steps,
    due_turns,
    expected_turn,
    game_checkpoints,
    game_folder,
)
from adjudicator.services.orders import Receipt, check_against, store_order_set
from adjudicator.services.passwords import authenticate, redacted, without_passwords
from adjudicator.services.repair import write_missing_files
from adjudicator.services.reports import write_decision_notices, write_turn_files
from adjudicator.services.turn import (
    play,
    questions_now,
    settled_questions,
    step_seat,
    turn_inputs,
    turn_row,
)

# The archive (sqlmodel, SQLAlchemy: a large part of a command's start-up time) is imported by the functions
# that use it, so that the commands that work on files alone (`pbem check --state`) do not load it.
if TYPE_CHECKING:
    from sqlmodel import Session

    from adjudicator.archive import Archive
    from adjudicator.archive.models import DecisionRow, GameRow, SeatRow, TurnRow


@dataclass
class Adjudication:
    game: GameRow
    ruleset: Ruleset
    turns: list[TurnRow] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)
    stored_blocks: list[str] = field(default_factory=list)
    waiting: list[DecisionRow] = field(default_factory=list)  # decisions asked for; the turn waits for them
    waiting_on: tuple[int, StepResult] | None = None  # the turn that waits, as far as it got
    languages: dict[str, str] = field(default_factory=dict)  # seat -> language of its reports and notices
    before: str | None = None  # the snapshot text before the first turn resolved (for the battle headers)
    not_understood: list[tuple[str, OrderError]] = field(default_factory=list)  # lines of the turn file's blocks
    repaired: list[Path] = field(default_factory=list)  # files of earlier turns that the disk lacked, written now
    news: list[str] = field(default_factory=list)  # what was queued for the players (reports)
    seats: list[SeatRow] = field(default_factory=list)  # the game's seats, read in the adjudication's transaction
    bots: dict[int, list[str]] = field(default_factory=dict)  # turn -> the seats whose orders the bot gave

    def write_files(self, data: Path) -> list[Path]:
        """The reports of the turns resolved and the notices of the decisions asked (after the commit)."""
        folder = game_folder(data, self.game.name)
        self.files = write_turn_files(
            folder, self.ruleset, self.game, self.turns, self.languages, self.before, bots=self.bots
        )
        if self.waiting_on is not None:
            before = self.turns[-1].state_json if self.turns else self.before
            self.files += write_decision_notices(
                folder, self.ruleset, self.game, *self.waiting_on, self.waiting, self.languages, before
            )
        return self.files


def adjudicate(
    archive: Archive,
    data: Path,
    name: str,
    turn_file: str | None = None,
    defaults: bool = False,
    early: bool = True,
    *,
    clock: Clock = SYSTEM_CLOCK,
    repair: bool = True,
    order_sets: Sequence[str] = (),
) -> Adjudication:
    """Resolve the due player-turn(s) from stored orders (and a turn file's blocks), in one transaction that holds
    the game's lock and also queues the report mails; write the files after the commit. Without `early`, a game
    whose deadline has not passed while due seats have no orders stored is refused (the moderator's `--now`
    allows it). Without `repair`, the files of earlier turns are not looked for: a caller that made the game and
    wrote every turn's files itself (self-play; a failed write stops it) knows that none lacks. `order_sets` are
    stored first in the same transaction, each as `submit` takes it (password, checks; a refused one stores
    nothing at all): self-play's seats, with one commit for their orders and the step."""
    from adjudicator.archive import queries as db
    from adjudicator.services.news import mail_news, queue_news  # deadlines builds on this module

    # files of a turn whose writer died after its commit (each turn's folder is listed: a cost that grows with
    # the game)
    repaired = write_missing_files(archive, data, name, clock=clock) if repair else []
    with archive.session() as session:
        game, ruleset, state = current_game(session, name, lock=True)
        for text in order_sets:
            orders = parse_orders(text, ruleset)
            seat = authenticate(session, game, orders)
            store_order_set(session, game, ruleset, state, orders, seat, "file", clock=clock, with_odds=False)
        # the due seats' orders and those sent ahead, which the steps and the recheck ask for seat by seat, in one
        # query (as the tick reads them)
        if due := due_turns(ruleset, state, game.pace):
            db.read_current_orders(session, game, min(n for n, _ in due))
        _, seats = order_for_bots(session, game, ruleset, state, due, clock=clock)  # seats run by the bot
        done = adjudicate_locked(
            session, game, ruleset, state, turn_file, defaults, early=early, clock=clock, seats=seats
        )
        # the reports and NMR counts go in the turn's own transaction, as the tick's do
        done.news, questions = queue_news(session, game, ruleset, clock=clock, seats=done.seats, resolved=done.turns)
    done.write_files(data)
    done.repaired = repaired
    if questions:
        done.news += mail_news(archive, data, name, clock=clock)
    return done


def adjudicate_locked(
    session: Session,
    game: GameRow,
    ruleset: Ruleset,
    state: Any,
    turn_file: str | None = None,
    defaults: bool = False,
    early: bool = True,
    *,
    clock: Clock = SYSTEM_CLOCK,
    seats: list[SeatRow] | None = None,
) -> Adjudication:
    """The work of `adjudicate` inside the caller's transaction, which holds the game's lock. When turns are
    resolved, the next deadline is set from the clock's time in the same transaction. `seats`: the game's seats,
    when the caller read them in this transaction (read here otherwise).

    In a game that asks for decisions, a turn that needs an unanswered decision is not stored: the questions
    are (Adjudication.write_files writes the notices), and a later call resolves the turn again from the same
    inputs with the answers (or, with `defaults` or once the waiting time is over, with the defaults).
    """
    from adjudicator.archive import queries as db

    seats = db.game_seats(session, game) if seats is None else seats
    done = Adjudication(game, ruleset, languages={s.seat: s.language for s in seats}, seats=seats)
    if ruleset.due(state) is None:
        raise PbemError(f"game {game.name} has ended")
    due = due_turns(ruleset, state, game.pace)
    done.before = ruleset.snapshot_text(state)
    if turn_file is not None:
        for block in parse_turn_file(turn_file, ruleset):
            seat = authenticate(session, game, block).seat
            assert block.header is not None
            if seat not in {s for _, s in due}:
                raise PbemError(
                    f"line {block.header.line}: the turn file has orders for {seat}, whose "
                    f"player-turn is not due (due: {', '.join(f'{n} {s}' for n, s in due)})"
                )
            number = expected_turn(ruleset, state, game.pace, seat, block.header.turn)
            db.store_orders(session, game, number, seat, without_passwords(block.source), timestamp(clock), "turn-file")
            done.stored_blocks.append(seat)
            done.not_understood += [(seat, e) for e in redacted(block).errors]
    if not early:
        refuse_before_deadline(session, game, due, clock=clock)
    seed, checkpoints = bytes.fromhex(game.seed), game_checkpoints(game)
    planned = due_steps(ruleset, state, game.pace)
    away = seats_away(seats, clock.now())
    while (step := ruleset.due(state)) is not None:
        if planned and step == planned[0]:
            planned.pop(0)
        elif step.seats and not (done.turns and set(step.seats) <= away):
            break  # the due steps are done (or a seat was eliminated earlier in the round)
        # else a step nobody orders in (Conqueror's New Year, Taxation, end of round), or only seats away (AWAY,
        # RESIGN: their standing orders or the bot play it): it resolves in the same run as the step before it, so
        # that it neither waits for a deadline nor mails a report of its own
        number, seat = step.number, step_seat(step)
        text, asked, answers, dice = turn_inputs(session, game, seed, number, step.seats, checkpoints)
        result = play(
            ruleset,
            state,
            text,
            dice,
            answers,
            ask=game.decisions == "ask" and not defaults,
            settled=settled_questions(game, asked, clock=clock),
        )
        if result.pending:
            done.waiting = _ask(session, game, number, asked, questions_now(result.pending), clock=clock)
            done.waiting_on = (number, result)
            break
        row = turn_row(ruleset, game, number, seat, ruleset.round_of(state), text, result, dice, answers, clock=clock)
        link_turn(session, game, row)
        session.add(row)
        done.turns.append(row)
        state = result.state
    if done.turns and any(s.run_by_bot for s in seats):  # the bot ordered for its seats (bot_orders.order_for_bots)
        with session.no_autoflush:  # the turns stay unflushed until their reports are queued (below)
            done.bots = db.bot_seats(session, game, [row.number for row in done.turns])
    if done.turns:
        game.deadline = (clock.now() + timedelta(hours=game.turn_hours)).isoformat(timespec="seconds")
        if game.pace == "turn":
            # what it reads (orders, order mails) is flushed already: the turns stay unflushed until their reports
            # are queued, which stores them as mailed (news.queue_news) instead of updating them after
            with session.no_autoflush:
                recheck_orders_sent_ahead(session, game, ruleset, state, clock=clock)
    if ruleset.due(state) is None:
        game.status = "ended"
    session.add(game)
    return done


def seats_away(seats: list[SeatRow], moment: datetime) -> frozenset[str]:
    """The seats nobody will order for before the deadline: away on the moment's day (AWAY, in UTC dates), or given
    up (RESIGN) and not yet given to a new player; while some seat is played: a game of absent seats only waits for
    its deadlines rather than playing itself to its end."""
    today = moment.date().isoformat()
    away = frozenset(s.seat for s in seats if s.away_from <= today <= s.away_until or s.resigned)
    return away if len(away) < len(seats) else frozenset()


def refuse_before_deadline(session: Session, game: GameRow, due: list[tuple[int, str]], *, clock: Clock) -> None:
    """Adjudicating before the deadline while due seats have sent no orders would cut their time short: refused,
    naming them (the moderator may insist with `pbem adjudicate --now`)."""
    from adjudicator.archive import queries as db

    if game.deadline is None or clock.now() >= datetime.fromisoformat(game.deadline):
        return
    missing = [
        f"{seat} (turn {number})" for number, seat in due if db.current_orders(session, game, number, seat) is None
    ]
    if missing:
        raise PbemError(
            f"the deadline {game.deadline} (UTC) has not passed and no orders are stored for "
            f"{', '.join(missing)}; wait, or adjudicate with --now to resolve without them"
        )


def recheck_orders_sent_ahead(session: Session, game: GameRow, ruleset: Ruleset, state: Any, *, clock: Clock) -> None:
    """Orders sent ahead for a player-turn that has just opened are checked again against the position as it
    now stands, and the seat gets a fresh receipt, queued in the adjudication's transaction. Like the first
    receipt it answers the seat's order mail and ends with the deadline of the step it opens."""
    from adjudicator.archive import queries as db
    from adjudicator.services.notices import deadline_text

    threads: dict[str, Any] | None = None
    for number, seat_name in due_turns(ruleset, state, game.pace):
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
            source=stored.text,
        )
        receipt.fingerprint_stored(stored.text, stored.received)
        if threads is None:
            threads = db.last_order_mails(session, game)
        mail = threads.get(seat_name) if stored.source == "mail" else None
        say = seat.language
        db.queue_mail(
            session,
            seat.email,
            f"[{game.name}] " + gettext(say, "Receipt for turn %(turn)s", turn=number),
            receipt.text_in(say) + "\n" + deadline_text(game, seat),
            timestamp(clock),
            game.name,
            **({"in_reply_to": mail.message_id, "thread": mail.message_id} if mail else {}),
        )


def _ask(
    session: Session,
    game: GameRow,
    number: int,
    asked: list[DecisionRow],
    pending: list[Pending],
    *,
    clock: Clock,
) -> list[DecisionRow]:
    """Store the decisions the turn needs (once each) and return those still unanswered."""
    from adjudicator.archive.models import DecisionRow

    known = {(d.seat, d.key): d for d in asked}
    waiting = []
    for need in pending:
        decision = known.get((need.seat, need.key))
        if decision is None:
            assert game.id is not None
            decision = DecisionRow(
                game_id=game.id,
                turn=number,
                seat=need.seat,
                key=need.key,
                question=need.question,
                default=need.default,
                rule=need.rule,
                asked=timestamp(clock),
            )
            session.add(decision)
        waiting.append(decision)
    return waiting
