"""Play by mail: order mail in, receipts and reports out (to the outbox), deadlines, game-master tools.

Every incoming message is handled in one archive transaction together with the record of its Message-ID,
so that the same message again changes nothing and a crash in the middle leaves no trace to repair.
Replies go to the seat's registered address, never to the sender of a refused message.
"""

from __future__ import annotations

import re
import traceback
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from adjudicator.archive import Archive
from adjudicator.archive import store as db
from adjudicator.archive.models import Decision, Game, Message, OrderSet, Seat, Turn
from adjudicator.engine.orders import Answer, Press
from adjudicator.mail.inbound import Incoming
from adjudicator.moderator import (
    PASSWORD_MARK,
    PbemError,
    adjudicate_locked,
    authenticate,
    current_game,
    due_turns,
    game_folder,
    hash_password,
    now,
    passwords_in,
    store_answers,
    store_order_set,
    turn_map,
    turn_reports,
    without_passwords,
)
from adjudicator.orders import parse_orders
from adjudicator.render import markup_environment
from adjudicator.render.i18n import N_, gettext
from adjudicator.rulesets import Ruleset

HEADER_WORD = re.compile(r"^\s*(GAME|SPIEL|PARTITA|SPEL)\s+(\S+)", re.IGNORECASE | re.MULTILINE)


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
    try:
        with archive.session() as session:
            if db.message_seen(session, mail.message_id):
                return "duplicate"
            record = Message(message_id=mail.message_id, received=now(), sender=mail.sender.lower(),
                             subject=mail.subject, raw=archived_raw(mail, secrets))
            session.add(record)
            record.outcome = _handle(session, mail, record)
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
    head, blank, _ = mail.raw.replace("\r\n", "\n").partition("\n\n")
    return f"{_without(head, secrets) if blank else ''}\n\n{without_passwords(mail.text)}"


def _without(text: str, secrets: set[str]) -> str:
    """`text` with every word that is one of `secrets` replaced by the mark."""
    for secret in secrets:
        text = re.sub(rf"(?<!\S){re.escape(secret)}(?!\S)", PASSWORD_MARK, text)
    return text


def _handle(session: Session, mail: Incoming, record: Message) -> str:
    header = HEADER_WORD.search(mail.text)
    if header is None:
        db.queue_mail(session, mail.sender, "Your mail to the PBEM moderator",
                      "No order header was found in your mail. Orders start with a line\n"
                      "  GAME <game> TURN <n> PLAYER <seat> PASSWORD <password>\n", now())
        return "refused: no header"
    try:
        game, ruleset, state = current_game(session, header.group(2), lock=True)
    except LookupError as unknown:
        db.queue_mail(session, mail.sender, "Your mail to the PBEM moderator", f"{unknown}\n", now())
        return "refused: unknown game"
    record.game = game.name
    orders = parse_orders(mail.text, ruleset)
    if orders.header is None:
        return _refuse_openly(session, mail, game, "the header line is not complete: " +
                              "; ".join(e.located for e in orders.errors))
    try:
        seat_row = db.find_seat(session, game, orders.header.player)
    except LookupError as unknown:
        return _refuse_openly(session, mail, game, str(unknown))
    record.seat = seat_row.seat
    try:
        authenticate(session, game, orders)
    except PbemError:
        return _warn_seat(session, game, seat_row, mail, N_("a wrong password"), show_sender=False)
    if game.check_sender and mail.sender.lower() != seat_row.email.lower():
        return _warn_seat(session, game, seat_row, mail, N_("an address that is not yours"))
    if orders.header.turn <= state.turn and not all(isinstance(o, Answer) for o in orders.orders):
        _tell(session, game, seat_row, N_("Late orders for turn %(turn)s"),
              N_("Your orders for turn %(turn)s arrived after that turn was resolved; nothing was stored. The turn "
                 "now open for your orders is announced in the latest report."), turn=orders.header.turn)
        return "refused: late"
    try:
        if orders.orders and all(isinstance(o, Answer) for o in orders.orders):
            receipt = store_answers(session, game, state, orders, seat_row.seat)
            say = seat_row.language
            lines = [gettext(say, "stored   %(key)s", key=k) for k in receipt.stored]
            lines += [gettext(say, "refused  %(problem)s", problem=p) for p in receipt.problems]
            lines.append(gettext(say, "Still open: %(keys)s", keys=", ".join(receipt.open) or gettext(say, "nothing")))
            _reply(session, game, seat_row, gettext(say, "Answers received for turn %(turn)s", turn=receipt.turn),
                   "\n".join(lines) + "\n")
            return "answers"
        receipt = store_order_set(session, game, ruleset, state, orders, seat_row, "mail")
    except PbemError as problem:
        _reply(session, game, seat_row, gettext(seat_row.language, "Your orders were not stored"), f"{problem}\n")
        return f"refused: {problem}"
    _reply(session, game, seat_row, gettext(seat_row.language, "Receipt for turn %(turn)s", turn=receipt.turn),
           receipt.text_in(seat_row.language))
    if receipt.stored:
        relay_press(session, game, seat_row.seat, [o for o in orders.orders if isinstance(o, Press)])
    return "orders stored" if receipt.stored else "orders not understood"


def _reply(session: Session, game: Game, seat: Seat, subject: str, body: str) -> None:
    db.queue_mail(session, seat.email, f"[{game.name}] {subject}", body, now(), game.name)


def _tell(session: Session, game: Game, to: Seat, subject: str, body: str, /, **values: object) -> None:
    """A short notice to a seat in its language: `subject` and `body` are messages of the catalogue."""
    _reply(session, game, to, gettext(to.language, subject, **values), gettext(to.language, body, **values) + "\n")


def _refuse_openly(session: Session, mail: Incoming, game: Game, why: str) -> str:
    """No seat could be identified: the sender learns why (he cannot be impersonating anybody)."""
    db.queue_mail(session, mail.sender, f"[{game.name}] Your mail could not be read", f"{why}\n", now(), game.name)
    return f"refused: {why}"


def _warn_seat(session: Session, game: Game, seat: Seat, mail: Incoming, what: str, show_sender: bool = True) -> str:
    """A forged or mistaken mail: the seat's registered address is told, the sender learns nothing."""
    _tell(session, game, seat, N_("Orders for your seat were refused"),
          N_("A mail with orders for %(seat)s arrived with %(what)s (from %(sender)s, subject %(subject)s). Nothing "
             "was stored. If it was you, send your orders again from your registered address with your password."),
          seat=seat.seat, what=gettext(seat.language, what), sender=mail.sender, subject=repr(mail.subject))
    if game.moderator:
        db.queue_mail(session, game.moderator, f"[{game.name}] refused mail for {seat.seat}",
                      f"From {mail.sender}: {what}.\n", now(), game.name)
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
        names = [g.name for g in session.exec(select(Game).where(Game.status == "running")).all()]
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
    return lines + mail_news(archive, data, name)


def mail_news(archive: Archive, data: Path, name: str) -> list[str]:
    """Queue what the archive holds but the players were not sent yet: reports of resolved turns (with the NMR
    count) and questions of pending decisions. The flags are set in the same transaction as the queueing,
    so a crash between an adjudication and its mail loses nothing and sends nothing twice."""
    lines = []
    with archive.session() as session:
        game, ruleset, state = current_game(session, name, lock=True)
        seats = {s.seat: s for s in db.game_seats(session, game)}
        # a turn without a seat is the setup or a position imported with `pbem new --from-snapshot`: no news
        news = [row for row in db.turns(session, game) if row.seat is not None and not row.mailed]
        for row in news:
            seat = seats[row.seat]
            seat.missed = 0 if row.orders_text else seat.missed + 1
            session.add(seat)
            if seat.missed >= game.nmr_alert and game.moderator:
                db.queue_mail(session, game.moderator, f"[{name}] {seat.seat} missed {seat.missed} turns",
                              f"{seat.seat} ({seat.email}) sent no orders for {seat.missed} player-turns in a row "
                              "(NMR: the seat does nothing in such a turn).\n", now(), name)
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


def _remind(session: Session, game: Game, missing: list[tuple[int, str]], moment: datetime,
            deadline: datetime) -> list[str]:
    if moment < deadline - timedelta(hours=game.reminder_hours):
        return [f"{game.name}: waiting for {', '.join(s for _, s in missing)} until {game.deadline}"]
    lines = []
    for number, seat_name in missing:
        seat = db.find_seat(session, game, seat_name)
        if seat.reminded_for == number:
            continue
        seat.reminded_for = number
        session.add(seat)
        _tell(session, game, seat, N_("Reminder: orders for turn %(turn)s are due"),
              N_("No orders of yours are stored for turn %(turn)s; the deadline is %(deadline)s (UTC)."),
              turn=number, deadline=game.deadline)
        lines.append(f"{game.name}: reminded {seat_name} (turn {number})")
    return lines or [f"{game.name}: waiting for {', '.join(s for _, s in missing)} until {game.deadline}"]


def _mail_reports(session: Session, game: Game, ruleset: Ruleset, news: list[Turn]) -> None:
    """Each seat gets the public report of every resolved turn and its private report of the last one
    (rendered from the archive, so a report file not yet written by another process is no obstacle)."""
    seats = db.game_seats(session, game)
    languages = {seat.language for seat in seats}
    maps = {say: turn_map(ruleset, game, news[-1], say) for say in languages}
    publics = {say: "\n".join(turn_reports(ruleset, game, row, {}, say)["report.txt"] for row in news)
               for say in languages}
    for seat in seats:
        say = seat.language
        map_svg, public = maps[say], publics[say]
        private = turn_reports(ruleset, game, news[-1], {seat.seat: say}, None)[f"report-{seat.seat}.txt"]
        subject = f"[{game.name}] " + gettext(say, "Report, turn %(turn)s", turn=news[-1].number)
        body = public + "\n" + private
        html = markup_environment(say).get_template("report-mail.html.j2").render(subject=subject, text=body)
        db.queue_mail(session, seat.email, subject, body, now(), game.name, html=html, map_svg=map_svg)


# -- game-master tools ---------------------------------------------------------------------------------------

def extend_deadline(archive: Archive, name: str, hours: int) -> str:
    with archive.session() as session:
        game = db.find_game(session, name, lock=True)
        base = _time(game.deadline) if game.deadline else datetime.now(UTC)
        _refuse_past(base + timedelta(hours=hours), f"the deadline {game.deadline} plus {hours} hours")
        game.deadline = (base + timedelta(hours=hours)).isoformat(timespec="seconds")
        session.add(game)
        for seat in db.game_seats(session, game):
            _tell(session, game, seat, N_("Deadline extended"), N_("The deadline is now %(deadline)s (UTC)."),
                  deadline=game.deadline)
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
        game.deadline = moment.isoformat(timespec="seconds")
        session.add(game)
        for seat in db.game_seats(session, game):
            _tell(session, game, seat, N_("New deadline"), N_("The deadline is now %(deadline)s (UTC)."),
                  deadline=game.deadline)
    return game.deadline


def _refuse_past(moment: datetime, what: str) -> None:
    """A deadline in the past would let the next tick adjudicate at once, cutting every seat's time short."""
    if moment <= datetime.now(UTC):
        raise PbemError(f"{what} is {moment.isoformat(timespec='seconds')}, which is past: a deadline must lie "
                        "ahead")


def replace_player(archive: Archive, name: str, seat_name: str, email: str) -> str:
    """A new player takes a seat: new address, new password (returned, and mailed to him)."""
    import secrets

    if "@" not in email:
        raise PbemError(f"{email!r} is not a mail address")
    password = secrets.token_urlsafe(9)
    with archive.session() as session:
        game = db.find_game(session, name, lock=True)
        seat = db.find_seat(session, game, seat_name)
        seat.email, seat.password_hash, seat.missed = email, hash_password(password), 0
        session.add(seat)
        _tell(session, game, seat, N_("You now play %(seat)s"),
              N_("You take over %(seat)s in game %(game)s. Your password is: %(password)s"), seat=seat.seat,
              game=name, password=password)
    return password


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
        for decision in session.exec(select(Decision).where(Decision.game_id == game.id, Decision.turn > to)):
            session.delete(decision)
        for orders in session.exec(select(OrderSet).where(OrderSet.game_id == game.id, OrderSet.turn > to)):
            orders.replaced = True
            session.add(orders)
        game.status, game.deadline = "running", None
        session.add(game)
        for seat in db.game_seats(session, game):
            _tell(session, game, seat, N_("Rolled back to turn %(turn)s"),
                  N_("The moderator rolled the game back to the position after turn %(turn)s; turns %(turns)s are "
                     "withdrawn. Orders for them must be sent again."),
                  turn=to, turns=", ".join(str(t.number) for t in later))
    folder = game_folder(data, name)
    for row in later:
        old = folder / f"turn-{row.number:04d}"
        if old.exists():
            k = 1
            while (folder / f"{old.name}-withdrawn-{k}").exists():
                k += 1
            old.rename(folder / f"{old.name}-withdrawn-{k}")
    return [t.number for t in later]
