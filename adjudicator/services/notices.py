"""Mail to the players: replies and notices to a seat's registered address (threaded with the mail they
answer), answers to a registered sender, and the welcome with a seat's password."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from adjudicator.archive.lean_mail import LeanSession, queries_for
from adjudicator.mail.clock import deadline_line
from adjudicator.mail.inbound import Incoming
from adjudicator.render import render, ruleset_templates
from adjudicator.render.i18n import N_, gettext
from adjudicator.rulesets import Ruleset
from adjudicator.services import floods
from adjudicator.services.clock import Clock, timestamp
from adjudicator.services.positions import stored_state

# The archive's session and rows are named for their types only (archive/lean_mail.py: the lean way has its own).
if TYPE_CHECKING:
    from sqlmodel import Session

    from adjudicator.archive.models import GameRow, SeatRow, TurnRow

STRANGER = "not answered (stranger): "  # the outcome of a mail whose sender is registered nowhere


QUOTED_CHARS = 60  # of a stranger's Subject quoted in a notice: enough to know the mail, too little to pose as us


def quoted(words: str) -> str:
    """What a sender wrote (a Subject), as a notice may quote it: one line, at most QUOTED_CHARS characters, in
    quotes, so that a forged Subject never reads as the judge's own words."""
    line = " ".join(words.split())
    if len(line) > QUOTED_CHARS:
        line = line[: QUOTED_CHARS - 1].rstrip() + "…"
    return f"“{line}”"


def thread_headers(mail: Incoming | None) -> dict[str, str]:
    """In-Reply-To and References of an answer to `mail`, so that it threads with the player's mail."""
    if mail is None:
        return {}
    return {"in_reply_to": mail.message_id, "thread": f"{mail.references} {mail.message_id}".strip()}


REPORT_SUBJECT = N_("Report, turn %(turn)s")  # a report mail's subject, after "[game] "
# the line of a player's last report mail, whose attachment is the game's record (mail/outbound.py RECORD_ATTACHMENT)
RECORD_NOTE = N_(
    "The game is over. Attached is its record (record.json.gz): every turn's orders, answers, keys and positions. "
    "Keep this mail with your other mails of the game: `pbem verify --from-reports FOLDER` replays the whole game "
    "from the record and holds it to the reports you received."
)


def deadline_text(game: GameRow, seat: SeatRow) -> str:
    """The deadline line every receipt and report ends with: UTC and the seat's time zone."""
    return deadline_line(seat.language, game.deadline, seat.timezone) + "\n"


def answer_unknown_game(session: Session | LeanSession, mail: Incoming, name: str, *, clock: Clock) -> str:
    """A registered address learns that the game is unknown and which games are its own; a stranger nothing
    (the list of games is nobody else's business)."""
    own = queries_for(session).games_of_address(mail.sender)
    if not own:
        return STRANGER + "refused: unknown game"
    if (held := floods.answer_held(session, mail.sender, "refused: unknown game", clock=clock)) is not None:
        return held
    queries_for(session).queue_mail(
        mail.sender,
        "Your mail to the PBEM moderator",
        f"There is no game {name!r} here. Your games: {', '.join(own)}.\n",
        timestamp(clock),
        **thread_headers(mail),
    )
    return "refused: unknown game"


def answer_registered(session: Session | LeanSession, mail: Incoming, text: str, outcome: str, *, clock: Clock) -> str:
    """Answer a refused command to a registered sender; a stranger gets nothing."""
    if not queries_for(session).games_of_address(mail.sender):
        return STRANGER + outcome
    if (held := floods.answer_held(session, mail.sender, outcome, clock=clock)) is not None:
        return held
    queries_for(session).queue_mail(
        mail.sender, "Your mail to the PBEM moderator", text + "\n", timestamp(clock), **thread_headers(mail)
    )
    return outcome


def answer_asked(
    session: Session,
    mail: Incoming,
    name: str,
    kind: floods.Kind,
    say: str,
    subject: str,
    body: Callable[[], str],
    *,
    clock: Clock,
) -> str:
    """A command that needs no header (HELP, LIST) answered to its registered sender in `say`, a few times a day
    (`kind` of services/floods.py); a stranger gets nothing. `body` is made only when it is mailed."""
    db = queries_for(session)
    if not db.games_of_address(mail.sender):
        return STRANGER + name
    verdict = floods.verdict(session, kind, clock=clock, sender=mail.sender)
    if verdict != "answer":
        return floods.held(session, verdict, name, kind, [(mail.sender, say)], clock=clock)
    db.queue_mail(mail.sender, subject, body(), timestamp(clock), **thread_headers(mail))
    return f"{name} answered"


def mail_to_seat(
    session: Session | LeanSession,
    game: GameRow,
    seat: SeatRow,
    subject: str,
    body: str,
    reply_to: Incoming | None = None,
    secret: str = "",
    *,
    clock: Clock,
    at: str = "",
) -> None:
    """A mail to the seat's registered address (or `at`, the seat's address before or after a change); `reply_to`:
    the seat's own mail it answers (threaded); `secret`: the password it carries, kept in the archive only until the
    mail is sent."""
    queries_for(session).queue_mail(
        at or seat.email,
        f"[{game.name}] {subject}",
        body,
        timestamp(clock),
        game.name,
        **thread_headers(reply_to),
        secret=secret,
    )


def tell_seat(
    session: Session | LeanSession,
    game: GameRow,
    to: SeatRow,
    subject: str,
    body: str,
    /,
    reply_to: Incoming | None = None,
    *,
    clock: Clock,
    at: str = "",
    **values: object,
) -> None:
    """A short notice to a seat in its language (at its address, or `at`): `subject` and `body` are messages of the
    catalogue."""
    mail_to_seat(
        session,
        game,
        to,
        gettext(to.language, subject, **values),
        gettext(to.language, body, **values) + "\n",
        reply_to,
        secret=str(values.get("password", "")),
        clock=clock,
        at=at,
    )


def queue_welcome(
    session: Session | LeanSession,
    ruleset: Ruleset,
    game: GameRow,
    row: TurnRow,
    seat: SeatRow,
    password: str,
    welcome: str | None = None,
    *,
    clock: Clock,
    earlier: Sequence[TurnRow] = (),
) -> None:
    """Queue the welcome mail with the password to the seat's registered address: the welcome, the position (the
    public report of turn `row`), the seat's private report with its orders template, and the deadline. `earlier`:
    the turns before `row` it reports too, a new game's setup and the steps played at once after it, so that the
    player's reports hold every turn from the commitment on (verify_reports.py follows their chain heads)."""
    say = seat.language
    if welcome is None:
        welcome = render_welcome(ruleset, game, row, seat, password)
    heading, _, text = welcome.partition("\n\n")
    subject = next(
        (line[len("Subject:") :].strip() for line in heading.split("\n") if line.startswith("Subject:")),
        f"[{game.name}] {seat.seat}",
    )
    # imported here: the maps and reports it loads are no part of a receipt (an order mail's command start-up)
    from adjudicator.services.reports import mail_map, seat_report, turn_reports

    if earlier:  # the reports of every turn, then the private report of them all, as a report mail of several turns
        rows = [*earlier, row]
        states = {turn.number: turn.state_json for turn in rows}
        publics = [turn_reports(ruleset, game, t, {}, say, states.get(t.number - 1))["report.txt"] for t in rows]
        private = seat_report(ruleset, game, rows, states, seat.seat, say)
    else:
        reports = turn_reports(ruleset, game, row, {seat.seat: say}, say)
        publics, private = [reports["report.txt"]], reports[f"report-{seat.seat}.txt"]
    body = "\n".join([text.rstrip("\n") + "\n", *publics, private])  # the welcome's text states the deadline
    # the board, attached as the reports attach it: a first turn cannot be planned without it
    queries_for(session).queue_mail(
        seat.email, subject, body, timestamp(clock), game.name, secret=password, **mail_map(ruleset, game, row, say)
    )


def players_guide(ruleset: Ruleset) -> str | None:
    """Where the player's guide of a shipped ruleset is: docs/players-<its template folder>.md (None for a ruleset
    plugged in from elsewhere, whose guide this distribution does not hold)."""
    folder = ruleset_templates(ruleset)
    if folder is None or "/" in folder or "\\" in folder:
        return None
    return f"docs/players-{folder}.md"


def render_welcome(ruleset: Ruleset, game: GameRow, row: TurnRow, seat: SeatRow, password: str) -> str:
    """welcome.txt.j2 in the seat's language: To: and Subject: lines, a blank line, the text."""
    state = stored_state(ruleset, row.state_json)
    return render(
        "welcome.txt.j2",
        seat.language,
        ruleset=ruleset,
        email=seat.email,
        game=game.name,
        title=ruleset.title,
        seat=seat.seat,
        position=ruleset.snapshot(state, seat.seat),  # the seat's own view: its seat-start.txt.j2 reads its start
        seats=list(ruleset.seats_of(state)),
        pace=game.pace,
        password=password,
        commitment=game.commitment,
        deadline=deadline_line(seat.language, game.deadline, seat.timezone),
        has_map=ruleset.map_layers is not None,
        guide=players_guide(ruleset),
    )
