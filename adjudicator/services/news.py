"""News: what the players are mailed once turns are resolved (the reports, with the NMR count and alert) and once a
turn waits for answers (the decisions' questions, with their notices), queued in the archive's outbox."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from functools import cache
from pathlib import Path
from typing import Any

from sqlmodel import Session

from adjudicator.archive import Archive
from adjudicator.archive import queries as db
from adjudicator.archive.models import DecisionRow, GameRow, SeatRow, TurnRow
from adjudicator.engine.protocol import groups_reports
from adjudicator.render import report_mail_html
from adjudicator.render.i18n import gettext
from adjudicator.rulesets import Ruleset
from adjudicator.services.bots import after_missed, bot_notes, take_back_note
from adjudicator.services.clock import SYSTEM_CLOCK, Clock, timestamp
from adjudicator.services.game_reads import current_game, game_folder
from adjudicator.services.game_record import press_turns
from adjudicator.services.notices import RECORD_NOTE, REPORT_SUBJECT, deadline_text
from adjudicator.services.positions import stored_state
from adjudicator.services.reports import mail_map, seat_report, turn_reports
from adjudicator.services.turn import step_seats


def drop_withdrawn_reports(session: Session, game: GameRow, withdrawn: Sequence[TurnRow]) -> set[str]:
    """A roll-back: the report mails of the withdrawn turns that were not sent yet are dropped (a game's end would
    mail its seed and its record, while the game goes on); the addresses they were for. A mail is named by the last
    turn it reports: one that also reported kept turns goes with it, and mail_dropped_turns mails those again."""
    dropped = db.unsent_reports(session, game.name, [turn.chain for turn in withdrawn if turn.chain])
    for row in dropped:
        session.delete(row)
    session.flush()
    return {row.to for row in dropped}


def reported_upto(
    session: Session, game: GameRow, addresses: set[str], withdrawn: Sequence[TurnRow] = ()
) -> dict[str, int]:
    """The last turn each address's mails of the game name, sent or queued (0: none), among the live turns and the
    turns `withdrawn` by a roll-back under way: a report mail names the last turn it reports, and reports every turn
    after the one its address's mail before named; a welcome names the position it shows."""
    numbers = {row.chain: row.number for row in [*db.turns(session, game), *withdrawn] if row.chain}
    found = dict.fromkeys(addresses, 0)
    for address, chain in db.map_turns_mailed(session, game.name, addresses):
        if chain in numbers:
            found[address] = max(found[address], numbers[chain])
    return found


def mail_dropped_turns(
    session: Session, game: GameRow, ruleset: Ruleset, dropped: set[str], withdrawn: Sequence[TurnRow], *, clock: Clock
) -> None:
    """After a roll-back dropped the unsent report mails to the addresses `dropped`: each is mailed the kept turns
    that no other mail of its named, as when they were resolved. A ruleset that groups its reports in turn pace
    needs none: a seat's next mail covers every step since its own."""
    if not dropped or (groups_reports(ruleset) and game.pace == "turn"):
        return
    kept = [row for row in db.turns(session, game) if row.number > 0 and row.mailed]  # the others are news to come
    last = max((row.number for row in kept), default=0)
    since: dict[int, set[str]] = {}
    for address, number in reported_upto(session, game, dropped, withdrawn).items():
        since.setdefault(min(number, last), set()).add(address)
    seats = db.game_seats(session, game)
    for number, addresses in sorted(since.items()):
        lost = [row for row in kept if row.number > number]
        if lost:
            _mail_reports(session, game, ruleset, lost, seats, clock=clock, again=addresses)


def mail_news(archive: Archive, data: Path, name: str, *, clock: Clock = SYSTEM_CLOCK) -> list[str]:
    """Queue what the archive holds but the players were not sent yet: reports of resolved turns (with the NMR
    count) and questions of pending decisions. The flags are set in the same transaction as the queueing,
    so a crash between an adjudication and its mail loses nothing and sends nothing twice."""
    with archive.session() as session:
        game, ruleset, state = current_game(session, name, lock=True)
        if game.selfplay:
            return []  # the bot's game: nobody to mail
        lines = _queue_reports(session, game, ruleset, None, (), clock=clock)
        _queue_questions(session, game, ruleset, state, game_folder(data, name), clock=clock)
    return lines


def queue_news(
    session: Session,
    game: GameRow,
    ruleset: Ruleset,
    *,
    clock: Clock,
    seats: list[SeatRow] | None = None,
    resolved: Sequence[TurnRow] = (),
) -> tuple[list[str], bool]:
    """Queue the reports of the turns just resolved (with the NMR count) in the caller's transaction, the one that
    resolved them, whichever command did; and whether questions wait to be asked: they are mailed with their
    notices (mail_news), which are written after the commit. `seats`: the game's seats, when the caller read them
    in this transaction (read here otherwise); `resolved`: the turns the caller stored in it."""
    if game.selfplay:
        return [], False  # the bot's game: nobody to mail
    # its first query flushes the caller's turns and questions
    lines = _queue_reports(session, game, ruleset, seats, resolved, clock=clock)
    with session.no_autoflush:  # what it changed since (NMR counts, turns mailed, mails) is no question
        return lines, db.has_unasked_decisions(session, game)


def _queue_reports(
    session: Session,
    game: GameRow,
    ruleset: Ruleset,
    seats: list[SeatRow] | None,
    resolved: Sequence[TurnRow],
    *,
    clock: Clock,
) -> list[str]:
    """Queue the reports of the resolved turns not mailed yet, with the NMR count (and alert), and mark them mailed,
    in the caller's transaction, which holds the game's lock; `seats`: the game's seats, if the caller read them;
    `resolved`: the turns the caller stored in this transaction, which are news."""
    name = game.name
    seats = {s.seat: s for s in (db.game_seats(session, game) if seats is None else seats)}
    for row in resolved:
        row.mailed = True  # before they are flushed: inserted as mailed, not updated after (a rewrite of the row)
    # the first turn is the setup or a position imported with `pbem new --from-snapshot`: no news
    news = sorted([*db.unmailed_turns(session, game), *resolved], key=lambda row: row.number)
    for row, seat in ((turn, seats[name]) for turn in news for name in step_seats(turn)):
        # a sealed step's row holds every seat's orders: whether this seat sent any is its order set's
        sent = row.orders_text if row.seat == seat.seat else db.current_orders(session, game, row.number, seat.seat)
        if not sent and seat.away_from <= row.created[:10] <= seat.away_until:
            continue  # an absence announced with AWAY: not a turn missed
        missed = 0 if sent else seat.missed + 1
        if missed != seat.missed:  # an unchanged seat is left out of the flush
            seat.missed = missed
            after_missed(game, ruleset, seat)
            session.add(seat)
        if seat.missed >= game.nmr_alert and game.moderator:
            db.queue_mail(
                session,
                game.moderator,
                f"[{name}] {seat.seat} missed {seat.missed} turns",
                f"{seat.seat} ({seat.email}) sent no orders for {seat.missed} player-turns in a row "
                "(NMR: the seat does nothing in such a turn).\n",
                timestamp(clock),
                name,
            )
    for row in news:
        row.mailed = True
    if not news:
        return []
    _mail_reports(session, game, ruleset, news, list(seats.values()), clock=clock)
    for seat in seats.values():
        if seat.back_from_bot:  # said in these reports
            seat.back_from_bot = False
            session.add(seat)
    return [f"{name}: reports of turn(s) {', '.join(str(r.number) for r in news)} queued"]


def _queue_questions(
    session: Session, game: GameRow, ruleset: Ruleset, state: Any, folder: Path, *, clock: Clock
) -> None:
    """Queue the questions of the due step not asked by mail yet, each seat's with its notice (in `folder`)."""
    seats = {s.seat: s for s in db.game_seats(session, game)}
    due = ruleset.steps_done(state) + 1
    unasked = [d for d in db.decisions(session, game, due) if not d.notified and d.answer is None]
    for seat_name in sorted({d.seat for d in unasked}):
        questions = [d for d in unasked if d.seat == seat_name]
        notice = folder / "outbox" / f"decisions-turn-{due:04d}-{seat_name}.txt"
        body = _notice_text(notice, questions, clock=clock)
        if body is None:
            continue  # the process that asked writes the notice after its commit: the next tick mails it
        subject, body = _notice_mail(body, game.name, due, seats[seat_name].language)
        db.queue_mail(session, seats[seat_name].email, subject, body, timestamp(clock), game.name)
        for decision in questions:
            decision.notified = True
            session.add(decision)


def _notice_mail(text: str, game: str, turn: int, language: str) -> tuple[str, str]:
    """The subject and body of a decisions mail: the notice file starts with its own To: and Subject: lines,
    which belong in the mail's header, not its text."""
    head, _, rest = text.partition("\n\n")
    fields = dict(line.split(": ", 1) for line in head.splitlines() if ": " in line)
    if head.startswith("To: ") and "Subject" in fields:
        return fields["Subject"], rest
    return f"[{game}] " + gettext(language, "Turn %(turn)s: your decisions are needed", turn=turn), text


def _notice_text(notice: Path, questions: list[DecisionRow], *, clock: Clock) -> str | None:
    """The decisions notice written when the questions were asked (it tells the turn so far); None while it is
    not written yet. A notice older than the questions is from an earlier, rolled-back asking; when none comes
    within 10 minutes (its writer died after the commit), the bare questions are sent."""
    asked = max(datetime.fromisoformat(d.asked) for d in questions)
    if notice.exists() and datetime.fromtimestamp(notice.stat().st_mtime, UTC) >= asked - timedelta(seconds=1):
        return notice.read_text(encoding="utf-8")
    if clock.now() - asked < timedelta(minutes=10):
        return None
    return "".join(f"ANSWER {d.key}: {d.default}\n    # {d.question} ({d.rule})\n" for d in questions)


def _mail_reports(
    session: Session,
    game: GameRow,
    ruleset: Ruleset,
    news: list[TurnRow],
    seats: list[SeatRow],
    *,
    clock: Clock,
    again: set[str] | None = None,
) -> None:
    """Each seat gets the public reports of the turns its mail covers (_covered) and its private report of them
    (rendered from the archive, so a report file not yet written by another process is no obstacle; texts the
    turn's files were just rendered with are not rendered again, reports.turn_reports), with the new deadline,
    threaded with its latest order mail; each observer gets the public reports only. `seats`: the game's seats (read
    by the caller in this transaction); `again`: older turns mailed again to these addresses (seats and observers)
    only."""
    with session.no_autoflush:  # the caller's changes (NMR counts, turns mailed) are none of what is read here
        return _mail_reports_read(session, game, ruleset, news, seats, clock=clock, again=again)


def _mail_reports_read(
    session: Session,
    game: GameRow,
    ruleset: Ruleset,
    news: list[TurnRow],
    seats: list[SeatRow],
    *,
    clock: Clock,
    again: set[str] | None,
) -> None:
    watchers = [(a, say) for a, say in db.observer_addresses(session, game) if again is None or a in again]
    covered, watched = _covered(session, game, ruleset, news, [seat.seat for seat in seats])
    record = _record_turn(session, game, ruleset, news[-1])
    rows = {row.number: row for found in [*covered.values(), watched] for row in found}
    to = [seat for seat in seats if again is None or seat.email in again]
    languages = {seat.language for seat in to if covered.get(seat.seat)}
    languages |= {language for _, language in watchers} if watched else set()
    maps = {say: mail_map(ruleset, game, news[-1], say) for say in languages}
    bots = _bot_turns(session, game, seats, list(rows), again is not None)
    # the battle headers name leaders: the positions before the turns (of those not mailed, only the texts)
    states = db.turn_states(session, game, {number - 1 for number in rows} - set(rows))
    states |= {row.number: row.state_json for row in rows.values()}

    @cache
    def public(number: int, say: str) -> str:
        before = states.get(number - 1)
        return turn_reports(ruleset, game, rows[number], {}, say, before, bots=bots.get(number, ()))["report.txt"]

    def publics(found: list[TurnRow], say: str) -> str:
        return "\n".join(public(row.number, say) for row in found) + bot_notes(seats, say)

    # a mail of several turns tells each turn's private events, not only the last turn's report
    grouped = len(news) > 1 or any(found != news for found in covered.values())
    # rendered from the same inputs as the turn's files (the position before it too): the same texts, once
    privates = (
        {}
        if grouped
        else turn_reports(
            ruleset,
            game,
            news[-1],
            {s.seat: s.language for s in seats},
            None,
            states.get(news[-1].number - 1),
            bots=bots.get(news[-1].number, ()),
        )
    )
    threads = db.last_order_mail_ids(session, game)
    mails = []
    for seat in to:
        found = covered.get(seat.seat, [])
        if not found:
            continue  # its news waits for its next step (ER-4)
        say = seat.language
        private = (
            privates[f"report-{seat.seat}.txt"]
            if not grouped
            else seat_report(ruleset, game, found, states, seat.seat, say, bots)
        )
        subject = f"[{game.name}] " + gettext(say, REPORT_SUBJECT, turn=news[-1].number)
        body = _report_body(game, seat, publics(found, say), private, bool(record))
        html = report_mail_html(say, subject, body)
        mails.append(
            db.mail_fields(
                seat.email,
                subject,
                body,
                timestamp(clock),
                game.name,
                html=html,
                **maps[say],
                **_thread_of(threads.get(seat.seat)),
                record_turn=record,
            )
        )
    for address, say in watchers if watched else []:
        subject = f"[{game.name}] " + gettext(say, REPORT_SUBJECT, turn=news[-1].number)
        text = publics(watched, say)
        html = report_mail_html(say, subject, text)
        mails.append(db.mail_fields(address, subject, text, timestamp(clock), game.name, html=html, **maps[say]))
    db.queue_mails(session, mails)  # in the order of the seats, then the observers


def _record_turn(session: Session, game: GameRow, ruleset: Ruleset, last: TurnRow) -> str:
    """The chain head of the turn whose record a report mail carries: `last`'s once the game is over by its rules
    (each player's last report mail, game_record.py), unless its orders hold private press, which the record would
    publish; "" for none."""
    over = ruleset.due(stored_state(ruleset, last.state_json)) is None
    return last.chain if over and not press_turns(ruleset, game, db.turns(session, game)) else ""


def _bot_turns(
    session: Session, game: GameRow, seats: list[SeatRow], numbers: list[int], again: bool
) -> dict[int, list[str]]:
    """The seats whose orders the bot gave in these turns, which the public reports name: read only in a game with a
    seat on the bot, or when older turns are mailed `again` (the bot may have left the seat since)."""
    if again or any(s.run_by_bot or s.back_from_bot for s in seats):
        return db.bot_seats(session, game, numbers)
    return {}


def _report_body(game: GameRow, seat: SeatRow, publics: str, private: str, record: bool) -> str:
    """A seat's report mail: the public reports, the bot's note, its private report, the deadline while the game
    runs, and the record's note when the mail carries it."""
    return (
        publics
        + take_back_note(seat)
        + "\n"
        + private
        + ("\n" + deadline_text(game, seat) if game.status == "running" else "")
        + ("\n" + gettext(seat.language, RECORD_NOTE) + "\n" if record else "")
    )


def _covered(
    session: Session, game: GameRow, ruleset: Ruleset, news: list[TurnRow], seats: list[str]
) -> tuple[dict[str, list[TurnRow]], list[TurnRow]]:
    """The turns each seat's report mail covers now (none: no mail yet), and the observers'. As a rule every
    mail covers the news. A ruleset that groups its reports (Conqueror, ER-4: a player orders in two steps a
    round) mails a seat only when a step of its own is due or the game has ended, covering every step since
    the last one it ordered in (whose report it got when that step was due); a seat out of play and the
    observers get theirs when a step of several seats is due (once a round), covering every step since the
    last such step. In round pace every seat orders at every deadline: each gets the news."""
    if not groups_reports(ruleset) or game.pace != "turn":
        return {seat: news for seat in seats}, news
    state = stored_state(ruleset, news[-1].state_json)
    due = ruleset.due(state)
    ordering = set(ruleset.next_steps(state)) if due is not None else set(seats)
    steps = [(number, seat.split(", ") if seat else []) for number, seat in db.turn_seats(session, game)]
    first = steps[0][0] + 1  # the setup (or an imported position) is no news

    def since(own: Callable[[list[str]], bool]) -> int:
        return max((number for number, found in steps if own(found)), default=first)

    def since_own(seat: str) -> int:
        return since(lambda found: seat in found)  # the last step the seat ordered in

    shared = since(lambda found: len(found) > 1)  # the last step of several seats
    starts: dict[str, int] = {}
    for seat in seats:
        own = since_own(seat)
        if due is None or seat in due.seats:
            starts[seat] = own
        elif seat not in ordering and len(due.seats) > 1:
            starts[seat] = max(own, shared)
    watched = due is None or len(due.seats) > 1
    wanted = set(range(min([*starts.values(), shared if watched else first]), news[-1].number + 1))
    found = {row.number: row for row in news}
    found |= {row.number: row for row in db.turns_numbered(session, game, wanted - set(found))}
    rows = [found[number] for number in sorted(found) if number in wanted]
    covered = {seat: [row for row in rows if row.number >= start] for seat, start in starts.items()}
    return covered, [row for row in rows if row.number >= shared] if watched else []


def _thread_of(message_id: str | None) -> dict[str, str]:
    """The headers that thread a mail with the player's mail of this Message-ID (none: unthreaded)."""
    return {"in_reply_to": message_id, "thread": message_id} if message_id is not None else {}
