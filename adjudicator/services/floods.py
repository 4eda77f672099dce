"""Floods of mail the tool answers: each kind of answer a mail can trigger without being a seat's authenticated
order mail (HELP, a new password, the notice of a refused order mail, an OBSERVE confirmation) goes out at most
a few times in 24 hours to one address and game. The first mail over the limit gets one digest instead (at most
one a day); later ones get nothing. Every mail is stored all the same, its outcome saying it was not answered,
and `pbem log` lists it. The counts are read from the stored outcomes, or from the outbox where the outcomes do
not tell (the many reasons a mail is refused, a mail reusing a Message-ID): no table of their own."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING, Literal

from adjudicator.archive.lean_mail import LeanSession, queries_for
from adjudicator.render.i18n import N_, gettext
from adjudicator.services.clock import Clock, timestamp

# The archive's session and rows are named for their types only (archive/lean_mail.py: the lean way has its own).
if TYPE_CHECKING:
    from sqlmodel import Session

    from adjudicator.archive.models import GameRow, SeatRow

WINDOW = timedelta(hours=24)
DAILY_ANSWERS = 3  # answers of one kind to one address and game in WINDOW
DAILY_CONFIRMATIONS = 10  # OBSERVE confirmations of one game in WINDOW, to all addresses together
HELD = " (not answered: over the daily limit)"  # the outcome of a mail over the limit
DIGESTED = " (not answered: over the daily limit, digest mailed)"  # ... of the one that got the digest


@dataclass(frozen=True)
class Kind:
    """One kind of answer: the outcomes of the mails that asked for it start with one of `outcomes`."""

    outcomes: tuple[str, ...]
    limit: int
    what: str  # catalogue message naming the kind in the digest


HELP = Kind(("HELP",), DAILY_ANSWERS, N_("%(kw_help)s requests"))
LIST = Kind(("LIST",), DAILY_ANSWERS, N_("%(kw_list)s requests"))
RESET = Kind(("password reset for", "PASSWORD RESET for"), DAILY_ANSWERS, N_("password reset requests"))
REFUSED = Kind(
    ("refused: a wrong password", "refused: an address that is not yours"),
    DAILY_ANSWERS,
    N_("refused order mails for a seat"),
)
# answers to a registered sender whose mail could not be used (no header, unknown game or seat, a seat's command
# without the header): counted by their subjects in the outbox, for their outcomes are as many as the reasons
ANSWER = Kind((), DAILY_ANSWERS, N_("mails that could not be used"))
ANSWER_SUBJECTS = ("Your mail to the PBEM moderator", "Your mail could not be read")
OBSERVING = Kind(("observer already",), DAILY_ANSWERS, N_("%(kw_observe)s requests"))  # from a confirmed observer
CONFIRMATION = Kind(
    ("confirmation of OBSERVE", "OBSERVE confirmation"), DAILY_CONFIRMATIONS, N_("%(kw_observe)s requests")
)

# the answers to an authenticated seat's mail commands (MYORDERS, REPORT, ...): counted in the outbox by their
# subject, for the same mail may store orders (its outcome then tells only of them)
DAILY_SEAT_ANSWERS = 10
SEAT_COMMANDS = Kind((), DAILY_SEAT_ANSWERS, N_("answers to mail commands"))
COMMANDS_SUBJECT = N_("Your commands")

DIGEST_SUBJECT = N_("Too many mails of one kind")
Verdict = Literal["answer", "digest", "hold"]


def verdict(
    session: Session | LeanSession,
    kind: Kind,
    *,
    clock: Clock,
    sender: str | None = None,
    game: str | None = None,
    seat: str | None = None,
) -> Verdict:
    """Whether a mail asking for `kind` is answered, gets the day's digest, or is held (stored, not answered),
    counting the mails of the last 24 hours from `sender`, for `game` and `seat` (each when given)."""
    since = timestamp_before(clock, WINDOW)
    parts = [
        part
        for outcome in queries_for(session).recent_outcomes(since, sender=sender, game=game, seat=seat)
        for part in outcome.split("; ")  # a mail of commands joins one outcome per command
        if part.startswith(kind.outcomes)
    ]
    if any(part.endswith(DIGESTED) for part in parts):
        return "hold"
    answered = sum(1 for part in parts if not part.endswith((HELD, DIGESTED)))
    return "answer" if answered < kind.limit else "digest"


def timestamp_before(clock: Clock, span: timedelta) -> str:
    return (clock.now() - span).isoformat(timespec="seconds")


def mail_digest(
    session: Session | LeanSession, to: str, language: str, kind: Kind, game: str | None = None, *, clock: Clock
) -> None:
    """The one mail a day that says why further mails of `kind` get no answer, and that none is lost."""
    until = (clock.now() + WINDOW).strftime("%Y-%m-%d %H:%M")
    body = gettext(
        language,
        "More than %(limit)s mails of one kind (%(what)s) arrived within 24 hours. The first %(limit)s were answered; "
        "this one and any more until %(until)s UTC get no answer and no further notice. None is lost: every one is "
        "stored, and the moderator lists them with pbem log.",
        limit=kind.limit,
        what=gettext(language, kind.what),
        until=until,
    )
    subject = gettext(language, DIGEST_SUBJECT)
    queries_for(session).queue_mail(to, f"[{game}] {subject}" if game else subject, body + "\n", timestamp(clock), game)


def held(
    session: Session | LeanSession,
    verdict: Verdict,
    outcome: str,
    kind: Kind,
    to: list[tuple[str, str]],
    game: str | None = None,
    *,
    clock: Clock,
) -> str:
    """The outcome of a mail over the limit of `kind`; the digest goes to each (address, language) of `to` when
    it is the day's first such mail."""
    if verdict != "digest":
        return outcome + HELD
    for address, language in to:
        mail_digest(session, address, language, kind, game, clock=clock)
    return outcome + DIGESTED


def answer_held(session: Session | LeanSession, address: str, outcome: str, *, clock: Clock) -> str | None:
    """None when a mail that could not be used may be answered to its (registered) sender `address`; else the
    outcome of one over the limit (the day's first such gets the digest, in English as these answers are). Both
    are counted in the outbox: a mail reusing a Message-ID is answered so but not stored."""
    since = timestamp_before(clock, WINDOW)
    if queries_for(session).recent_mails_to(address, since, [DIGEST_SUBJECT], containing=f"({ANSWER.what})"):
        return outcome + HELD  # until the digest is a day old, as it says
    if queries_for(session).recent_mails_to(address, since, ANSWER_SUBJECTS) < ANSWER.limit:
        return None
    return held(session, "digest", outcome, ANSWER, [(address, "en")], clock=clock)


def duplicate_held(session: Session | LeanSession, game: GameRow, seat: SeatRow, *, clock: Clock) -> bool:
    """Whether the seat was told DAILY_ANSWERS times in 24 hours of mails reusing a Message-ID: such a mail is not
    stored (its Message-ID is), so the notices are counted in the outbox, and no digest follows."""
    subject = gettext(seat.language, "A mail for %(seat)s was not used", seat=seat.seat)
    since = timestamp_before(clock, WINDOW)
    return queries_for(session).recent_mails_to(seat.email, since, [f"[{game.name}] {subject}"]) >= DAILY_ANSWERS


def commands_held(session: Session, game: GameRow, seat: SeatRow, *, clock: Clock) -> str | None:
    """None when an authenticated seat's mail commands may be answered; else the outcome's mark of a mail over the
    day's limit (the day's first such gets the digest, in the seat's language)."""
    since = timestamp_before(clock, WINDOW)
    say = seat.language
    digest = gettext(say, DIGEST_SUBJECT)
    db = queries_for(session)
    if db.recent_mails_to(seat.email, since, [digest], containing=f"({gettext(say, SEAT_COMMANDS.what)})"):
        return HELD
    answers = db.recent_mails_to(seat.email, since, [f"[{game.name}] " + gettext(say, COMMANDS_SUBJECT)])
    if answers < SEAT_COMMANDS.limit:
        return None
    mail_digest(session, seat.email, say, SEAT_COMMANDS, game.name, clock=clock)
    return DIGESTED
