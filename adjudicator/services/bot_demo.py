"""`pbem demo --ruleset R`: a whole game of a ruleset that has a bot (engine/protocol.py Bot), e.g. conqueror-er on
its example data, played into a fresh folder on the embedded SQLite archive as a moderator would run it by mail.

Each bot player mails its orders (an RFC 5322 message from its registered address) and the mail goes through
`ingest`, as `pbem ingest` takes it: password, sender, receipt. Then `pbem tick` adjudicates the due step (report
files, snapshots, maps) with the steps without orders after it, and queues the reports for the players; the mails
each player sent and received are counted per round. At the end the archive is verified by replay, the game
is written as a web site, and every queued mail (welcomes, receipts, reports) is written as an .eml file."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from adjudicator.archive import Archive
from adjudicator.archive import queries as db
from adjudicator.errors import PbemError
from adjudicator.mail.inbound import read_message
from adjudicator.mail.outbound import send_outbox
from adjudicator.render.i18n import gettext
from adjudicator.rulesets import Ruleset, load_ruleset
from adjudicator.services.clock import SYSTEM_CLOCK, FixedClock, parse_time
from adjudicator.services.deadlines import tick
from adjudicator.services.demo import fresh_folder
from adjudicator.services.game_reads import current_game, due_turns
from adjudicator.services.game_record import RECORD_FILE
from adjudicator.services.games import NewGameOptions, new_game
from adjudicator.services.mailbox import ingest
from adjudicator.services.notices import REPORT_SUBJECT
from adjudicator.services.positions import stored_state
from adjudicator.services.reports import write_game_site
from adjudicator.services.selfplay import bot_of, header, playable, step_rng
from adjudicator.services.verification import verify

GAME = "demo"
MODERATOR = "pbem@example.org"
# The most steps a demo plays unless told: conqueror-er's and empires-aw's bots end their games long before; the
# 1984 rules end a game only when one Caesar is left (O-13.1), which the random bots reach in some games only
MAX_STEPS = 1000


@dataclass
class BotDemo:
    """What a bot demo asks for: the ruleset, the number of seats, the mode (rulesets with game data), the seed
    of the bots' orders (the dice are the game's own secret stream), and `turns`: stop after that many steps (a
    game whose bots never end it, such as Conquest of the Empire's) instead of playing to the end."""

    ruleset: str
    seats: int = 3
    mode: str | None = None
    seed: int = 1
    turns: int | None = None


def run_bot_demo(data: Path, say: Callable[[str], None], demo: BotDemo) -> Path:
    """Play the whole demo game into `data`; the game's folder. A PbemError when a step does not resolve or the
    archive does not verify."""
    ruleset, folder = playable(load_ruleset(demo.ruleset), None, demo.mode)
    try:
        seats = bot_of(ruleset).seats(ruleset, demo.seats)
    except ValueError as problem:  # a seat count the game does not take (ER-3.2): said before anything is made
        raise PbemError(str(problem)) from None
    fresh_folder(data)
    archive = Archive.in_folder(data)
    addresses = {seat: f"{seat.casefold()}@example.org" for seat in seats}
    made = new_game(archive, data, NewGameOptions(GAME, ruleset.name, addresses, game_data=folder, mode=demo.mode))
    what = f"{ruleset.name}" + (f", {demo.mode} mode" if demo.mode else "") + (f", data {folder}" if folder else "")
    say(f"Created game {GAME} ({what}) with seats {', '.join(seats)} in {data}")
    played, pace = 0, MailPace()
    while played < (demo.turns or MAX_STEPS):
        state = _position(archive)
        if ruleset.due(state) is None:
            break
        phases = {step.number: step.phase for step in ruleset.coming_steps(state)}
        pace.sent.update((ruleset.round_of(state), seat) for _, seat in due_turns(ruleset, state, "turn"))
        _mail_orders(archive, ruleset, state, made.passwords, addresses, demo.seed, say)
        rows, late = _tick(archive, data, ruleset.steps_done(state), pace), ""
        if not rows:  # a seat mailed no game orders (press only, C-13): its turn waits for the deadline
            rows, late = _tick(archive, data, ruleset.steps_done(state), pace, at_deadline=True), " at the deadline"
        if not rows:
            raise PbemError(f"game {GAME}: step {ruleset.steps_done(state) + 1} was not resolved")
        for number, seat in rows:
            report = made.folder / f"turn-{number:04d}" / "report.txt"
            say(f"  step {number} ({phases.get(number, seat or 'no orders')}) resolved{late} -> {report}")
        played += len(rows)
    if ruleset.due(_position(archive)) is not None:
        why = "as asked: the game" if demo.turns else "the most a demo plays: the bots did not end the game, which"
        say(f"Stopped after {played} steps, {why} goes on")
    _finish(archive, data, ruleset, say)
    say(pace.text())
    return made.folder


@dataclass
class MailPace:
    """What the players mailed and were mailed, per (round, seat): order mails, and report mails (receipts aside;
    a report counts in the round of the step it asks orders for; the game's last report apart)."""

    sent: Counter[tuple[int, str]] = field(default_factory=Counter)
    reports: Counter[tuple[int, str]] = field(default_factory=Counter)
    final: Counter[str] = field(default_factory=Counter)

    def text(self) -> str:
        rounds = sorted({r for r, _ in self.sent} | {r for r, _ in self.reports})
        lines = ["Mails per player and round (order mails sent / report mails received, receipts aside):"]
        for round_ in rounds:
            seats = sorted({s for r, s in self.sent if r == round_} | {s for r, s in self.reports if r == round_})
            counts = ", ".join(f"{s} {self.sent[(round_, s)]}/{self.reports[(round_, s)]}" for s in seats)
            lines.append(f"  round {round_}: {counts}")
        sent, received = max(self.sent.values(), default=0), max(self.reports.values(), default=0)
        lines.append(f"  at most {sent} sent and {received} received in a round; at the end {sum(self.final.values())}")
        return "\n".join(lines)


def _tick(
    archive: Archive, data: Path, before: int, pace: MailPace, at_deadline: bool = False
) -> list[tuple[int, str | None]]:
    """`pbem tick` (every due seat's orders are in; with `at_deadline`, run when the game's deadline has come):
    the steps it resolved, as (number, seat); the report mails it queued are counted in `pace`."""
    with archive.session() as session:
        queued = db.outbox_size(session)
        deadline = current_game(session, GAME)[0].deadline
    clock = FixedClock(parse_time(deadline)) if at_deadline and deadline else SYSTEM_CLOCK
    ticked = tick(archive, data, clock=clock)
    if ticked.failures:
        raise PbemError(f"game {GAME}: the tick failed: {ticked.failures[GAME]}")
    with archive.session() as session:
        game, ruleset, state = current_game(session, GAME)
        rows = [(n, s) for n, s in db.turn_seats(session, game) if n > before]
        addresses = {seat.email: seat for seat in db.game_seats(session, game)}
        for mail in db.outbox_after(session, queued):
            seat = addresses.get(mail.to)
            report = gettext(seat.language, REPORT_SUBJECT, turn=rows[-1][0]) if seat and rows else None
            if seat is None or mail.subject != f"[{GAME}] {report}":
                continue
            if ruleset.due(state) is None:
                pace.final[seat.seat] += 1
            else:
                pace.reports[(ruleset.round_of(state), seat.seat)] += 1
    return rows


def _position(archive: Archive) -> Any:
    with archive.session() as session:
        return current_game(session, GAME)[2]


def _mail_orders(
    archive: Archive,
    ruleset: Ruleset,
    state: Any,
    passwords: dict[str, str],
    addresses: dict[str, str],
    seed: int,
    say: Callable[[str], None],
) -> None:
    """Each seat due mails its bot's orders (the seats of a sealed step draw from one stream, as in self-play)."""
    bot = bot_of(ruleset)
    rngs: dict[int, random.Random] = {}
    for number, seat in due_turns(ruleset, state, "turn"):
        rng = rngs.setdefault(number, step_rng(seed, number))
        text = bot.orders(ruleset, state, seat, header(GAME, number, seat, passwords[seat]), rng)
        outcome = ingest(archive, read_message(_message(addresses[seat], seat, number, text)))
        orders = max(0, len(text.strip().splitlines()) - 1)
        say(f"  {seat:10} mails {orders} order line(s) for step {number}: {outcome.text}")


def _message(sender: str, seat: str, number: int, text: str) -> bytes:
    mail = EmailMessage()
    mail["From"] = sender
    mail["To"] = MODERATOR
    mail["Subject"] = f"{GAME} step {number}"
    mail["Message-ID"] = f"<{GAME}-{number}-{seat}@example.org>"
    mail.set_content(text)
    return bytes(mail)


def _finish(archive: Archive, data: Path, ruleset: Ruleset, say: Callable[[str], None]) -> None:
    """The final score of a game that has ended, the verification by replay, the site and the outbox as .eml
    files."""
    with archive.session() as session:
        last = db.turns(session, db.find_game(session, GAME))[-1]
    state = stored_state(ruleset, last.state_json)
    if ruleset.due(state) is None:
        for line in final_score(json.loads(last.events_json), bot_of(ruleset).winner(ruleset, state)):
            say(line)
    passed, problems = verify(archive, GAME)
    say(f"Verified by replay: {len(passed)} checks passed, {len(problems)} problems")
    for problem in problems:
        say(f"  PROBLEM {problem}")
    if problems:
        raise PbemError("the demo game did not verify")
    told: list[str] = []  # a page written, or why the game gets no record
    site = write_game_site(archive, GAME, data / "site", progress=told.append)
    say(f"The game as a web site: {data / 'site' / 'index.html'}")
    if data / "site" / RECORD_FILE in site:
        say(f"The game's record, for the players to replay it: {data / 'site' / RECORD_FILE}")
    for refused in (text for text in told if not re.fullmatch(r"turn \d+", text)):
        say(f"No record on the site: {refused}")
    # SVG maps only: a whole game's mails are written at once, and a PNG per step would triple the demo's time
    sent = send_outbox(archive, None, data / "mail", with_png=False)
    say(f"The mails to the players (welcomes, receipts, reports): {sent.sent} .eml files in {data / 'mail'}")


def final_score(events: list[dict[str, Any]], winner: str | None = None) -> list[str]:
    """The lines of the final score: the last event that names winners and scores (Conqueror: game_won, ER-10), or
    else the `winner` the bot reads from the position (Conquest of the Empire's last Caesar, O-13.1)."""
    end = next((e for e in reversed(events) if "scores" in e.get("data", {})), None)
    if end is None:
        return [f"The game has ended: {winner} wins." if winner else "The game ended without a final score."]
    scores: dict[str, int] = end["data"]["scores"]
    lines = [f"Final score (winner: {', '.join(end['data'].get('winners', [])) or 'none'}):"]
    lines += [f"  {seat:10} {vp:3} VP" for seat, vp in sorted(scores.items(), key=lambda item: (-item[1], item[0]))]
    return lines
