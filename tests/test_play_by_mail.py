"""Each game played by mail from the mails alone: `new_game` queues the welcomes, `pbem send --eml-dir` delivers
every mail as an .eml file, each player (tests/mail_player.py) reads the orders template at the end of his latest
welcome or report and fills in its forms with choices read from that same mail, his RFC 822 mail goes through
`ingest`, and `tick` runs on a clock the test moves past reminders and deadlines. Some mails carry the usual
mistakes (a typo'd keyword, an unknown area, a wrong password): the receipt (or the refusal) must name each
problem and its line, and the player corrects his orders from the receipt's suggestions. In ask mode each
decision notice is answered by mail with its ready-made ANSWER lines. Some seats play in German, Italian or
Dutch. After every step each mail a player got must be one he can act on, and at the end the archive verifies by
replay (`pbem verify`).

The orders template, as the player reads it (every ruleset's welcome and private report end with one; the
contract a new ruleset's template meets):

- a header line `GAME <game> TURN <n> PLAYER <seat> PASSWORD <your password>`, at the left margin: four keywords
  in the seat's language, each followed by its value, the password a placeholder in angle brackets. TURN is the
  next step the seat orders in (`Ruleset.next_steps`). The last such line of the mail starts the template.
- then comment lines: one at the left margin (`# Your pieces:`) is a heading, indented ones (`#   ...`) are
  what the heading introduces. The indented lines after the template's last heading that ends in ':' (`#
  Examples:`) are order forms: an order in the seat's language, where each word in angle brackets is a
  placeholder the player replaces (`<area>`); an explanation may follow after two spaces and '#'. A form
  without a placeholder is a whole order (a standing order, say) that the player may send as it stands, and
  that is understood as it stands.
- nothing follows but blank lines and the deadline line.

A Conquest of the Empire player (mail_player.coe_orders) reads his pieces, prices, treasury and tribute from
the mail, moves generals with infantry along the MOVE form to a neighbouring province of the printed board on the
way to the nearest enemy province (keeping to the stacking limit, O-5.7, and to units that have not moved yet),
buys along the BUY form what he can afford and the box still holds (C-1.1, O-1.2), and copies the standing
order form once. A player of a ruleset he knows nothing more of (mail_player.forms_as_they_stand: Conqueror)
sends the forms that need no filling in.
"""

from __future__ import annotations

import os
import random
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest
from typer.testing import CliRunner

from adjudicator.archive import Archive
from adjudicator.cli import app
from adjudicator.mail.inbound import read_message
from adjudicator.resources import resource_dir
from adjudicator.rulesets import load_ruleset
from adjudicator.rulesets.coe.economy import tribute_value
from adjudicator.services import games as games_service
from adjudicator.services.deadlines import tick
from adjudicator.services.game_reads import current_game
from adjudicator.services.games import NewGameOptions, new_game
from adjudicator.services.mailbox import ingest
from adjudicator.services.notices import quoted
from tests.helpers import legion, start
from tests.mail_player import (
    HEADER,
    PLACEHOLDER,
    MovableClock,
    Player,
    Postman,
    Template,
    Words,
    body_of,
    corrected,
    not_understood,
    read_template,
    receipt_problems,
)

GAME = "bymail"
MODERATOR = "gm@example.org"
TURN_HOURS, REMINDER_HOURS = 24, 6
# The moderator's clock starts a month ago: a decision notice counts as written for its questions when the file's
# time (the machine's clock) is not before the time they were asked (the moderator's clock) (deadlines.py)
START = datetime.now(UTC).replace(minute=0, second=0, microsecond=0) - timedelta(days=30)
COE_SEATS = {"Macedonia": "mac@example.org", "Egyptus": "egy@example.org", "Hispania": "his@example.org"}
REFUSED = (
    "A mail with orders for %(seat)s arrived with %(what)s (from %(sender)s, subject %(subject)s). Nothing was "
    "stored. If it was you, send your orders again from your registered address with your password."
)
ER_SEATS = {"aurel": "aurel@example.org", "kesh": "kesh@example.org", "thal": "thal@example.org"}


NOTICE = "Turn %(turn)s: your decisions are needed"  # the subject of a decision notice (C-15)


@dataclass
class Plan:
    """What a game by mail is to show: each seat's number of steps, and which of a seat's steps (counted from 1)
    carry mistakes or go without orders (NMR: the reminder, then the deadline passes)."""

    ruleset: str
    seats: dict[str, str]
    steps_per_seat: int
    mistakes: set[tuple[str, int]] = field(default_factory=set)
    silent: set[tuple[str, int]] = field(default_factory=set)
    wrong_password: set[tuple[str, int]] = field(default_factory=set)
    decisions: str = "default"  # or "ask": a turn that needs a decision waits for the answer by mail
    languages: dict[str, str] = field(default_factory=dict)  # seat -> the language it plays in (else English)
    position: str | None = None  # snapshot JSON of a position to start from (`pbem new --from-snapshot`)
    game_data: Path | None = None
    sealed_steps: bool = False  # whether a player answers each template at once (no "Next player-turn" line)


@pytest.fixture
def seeded(monkeypatch: pytest.MonkeyPatch) -> None:
    """The game's dice seed and passwords come from a seeded stream: each run plays the same game, so that a
    failure can be replayed (the dice are the game's own keyed stream all the same). PBEM_PLAY_BY_MAIL_SEED plays
    other games."""
    stream = random.Random(int(os.environ.get("PBEM_PLAY_BY_MAIL_SEED", "20270301")))
    monkeypatch.setattr(games_service.secrets, "token_bytes", lambda n=32: stream.randbytes(n or 32))


class Table:
    """The moderator's side: the archive, the clock, the postman; and the players."""

    def __init__(self, tmp_path: Path, plan: Plan, checked: bool = True) -> None:
        self.plan, self.checked = plan, checked
        self.data = tmp_path / "data"
        self.archive = Archive.open(self.data, None)
        self.clock = MovableClock(START)
        self.players = {
            seat: Player(
                GAME, plan.ruleset, seat, address, random.Random(f"{seat}-{n}"), Words(plan.languages.get(seat, "en"))
            )
            for n, (seat, address) in enumerate(plan.seats.items())
        }
        self.postman = Postman(self.data, tmp_path / "mails", self.players, MODERATOR)
        self.log: list[str] = []

    def start(self) -> None:
        new_game(
            self.archive,
            self.data,
            NewGameOptions(
                GAME,
                self.plan.ruleset,
                self.plan.seats,
                mail={
                    "turn_hours": TURN_HOURS,
                    "reminder_hours": REMINDER_HOURS,
                    "moderator": MODERATOR,
                    "nmr_alert": 1,
                },
                decisions=self.plan.decisions,
                position=self.plan.position,
                languages=self.plan.languages,
                game_data=self.plan.game_data,
            ),
            clock=self.clock,
        )
        self.deliver()
        self.tick()  # the clock starts: the first deadline is set

    def position(self) -> tuple[dict[str, int], bool]:
        """Each seat's next step (what its template must name) and whether the game has ended."""
        with self.archive.session() as session:
            _, ruleset, state = current_game(session, GAME)
        return ruleset.next_steps(state), ruleset.due(state) is None

    def waiting_step(self) -> int:
        with self.archive.session() as session:
            _, ruleset, state = current_game(session, GAME)
        return int(ruleset.steps_done(state)) + 1

    def answer_decisions(self) -> int:
        """Each player answers his unanswered decision notice with its ready-made ANSWER lines; how many did."""
        answered = 0
        for player in self.players.values():
            notice = player.unanswered_notice(player.words.pattern(NOTICE))
            if notice is None:
                continue
            mail, header, answers = notice
            player.answered.add(mail["Message-ID"])
            message_id, raw = player.mail(PLACEHOLDER.sub(player.password, header), answers, mail)
            assert ingest(self.archive, read_message(raw), clock=self.clock).text == "answers"
            (reply,) = [m for p, m in self.deliver() if p is player and m["In-Reply-To"] == message_id]
            stored = [player.words.text("stored   %(key)s", key=a.split()[1].rstrip(":")) for a in answers]
            assert all(line in body_of(reply).splitlines() for line in stored), body_of(reply)
            answered += 1
        return answered

    def tick(self) -> list[str]:
        ticked = tick(self.archive, self.data, clock=self.clock)
        assert not ticked.failures, ticked.failures
        self.log += ticked.lines
        self.deliver()
        return ticked.lines

    def deliver(self) -> list[tuple[Player, EmailMessage]]:
        """`pbem send`, then every new mail checked: each must be one its player can act on."""
        new = self.postman.deliver()
        coming, ended = self.position()
        for player, mail in new if self.checked else []:
            problem = unusable(player, mail, coming, ended, self.waiting_step())
            assert problem is None, f"{player.seat} got {mail['Subject']!r}: {problem}\n{body_of(mail)}"
        return new

    def send(self, player: Player, header: str, lines: list[str], answering: EmailMessage) -> tuple[str, str]:
        """The player's mail through `ingest`; his receipt (delivered at once) and the order text he sent."""
        message_id, raw = player.mail(header, lines, answering)
        outcome = ingest(self.archive, read_message(raw), clock=self.clock).text
        assert outcome in ("orders stored", "orders not understood"), outcome
        receipts = [m for p, m in self.deliver() if p is player and m["In-Reply-To"] == message_id]
        assert len(receipts) == 1, f"{player.seat}: no receipt for {message_id}"
        return body_of(receipts[0]), player.sent[message_id]


def unusable(player: Player, mail: EmailMessage, coming: dict[str, int], ended: bool, waiting: int) -> str | None:
    """Why `player` cannot act on `mail` (None when he can): it must be a receipt for a mail he sent (or the
    answer to his answers), a welcome or report ending with a template for his next step, a reminder of that step,
    a decision notice with the header and ANSWER lines for the waiting step, or the game's final report."""
    body, words = body_of(mail), player.words
    if mail["X-PBEM-Game"] != GAME:
        return f"it names game {mail['X-PBEM-Game']!r}"
    subject = mail["Subject"].removeprefix(f"[{GAME}] ")
    receipt = words.pattern("Receipt for turn %(turn)s").match(subject)
    if receipt:
        # threaded with the mail it answers; a fresh receipt of orders sent ahead names their turn
        turn = player.sent[mail["In-Reply-To"]].split()[3] if mail["In-Reply-To"] in player.sent else receipt["turn"]
        if not any(text.split()[3] == turn for text in player.sent.values()):
            return f"a receipt for turn {turn}, for which he sent nothing"
        expected = words.text("Receipt: game %(game)s, turn %(turn)s, %(seat)s", game=GAME, turn=turn, seat=player.seat)
        return None if body.startswith(expected + "\n") else f"a receipt that does not begin with {expected!r}"
    if subject == words.text("Orders for your seat were refused"):
        sent = {quoted(m["Subject"]) for m in player.mails}  # a notice quotes a Subject as the sender's words
        said = words.pattern(REFUSED).match(" ".join(body.split()))
        if said and said["sender"] == player.address and said["subject"] in sent:
            return None
        return "a refusal of a mail he did not send"
    answers = words.pattern("Answers received for turn %(turn)s").match(subject)
    if answers:
        return None if mail["In-Reply-To"] in player.sent else "an answer to answers he did not send"
    if words.pattern(NOTICE).match(subject):
        lines = [line.strip() for line in body.splitlines()]
        said = [m for line in lines if (m := HEADER.match(line))]
        if [(m[2], m[4], m[6]) for m in said] != [(GAME, str(waiting), player.seat)]:
            return f"a decision notice whose header is not for {GAME}/turn {waiting}/{player.seat}"
        ready = [line for line in lines if line.startswith(words.kw("answer") + " ")]
        return None if ready else "a decision notice with no ANSWER line"
    reminder = words.pattern("Reminder: orders for turn %(turn)s are due").match(subject)
    if reminder:
        turn = int(reminder["turn"])
        return None if turn == coming.get(player.seat) else f"a reminder of turn {turn}, not {coming.get(player.seat)}"
    if ended:
        ending = words.prefix("The game has ended: %(seat)s wins.")
        return None if ending in body else "the game has ended, and the mail does not say so"
    headers = [m for line in body.splitlines() if (m := HEADER.match(line))]
    if not headers:
        return "no orders template (no header line GAME .. TURN .. PLAYER .. PASSWORD <..>)"
    game, turn, seat = headers[-1].group(2), int(headers[-1].group(4)), headers[-1].group(6)
    if (game, seat, turn) != (GAME, player.seat, coming.get(player.seat)):
        return f"its template is for {game}/{seat}/turn {turn}, not {GAME}/{player.seat}/turn {coming[player.seat]}"
    template = read_template(body, GAME, player.seat)
    assert template is not None
    after = body.split(template.header, 1)[1].splitlines()[1:]
    deadline = player.words.prefix("Deadline: %(utc)s.")
    rest = [line for line in after if line.strip() and not line.startswith("#") and not line.startswith(deadline)]
    if rest:
        return f"the template is not the end of the mail: {rest[0]!r} follows it"
    return None if template.forms else "its template has no order forms"


def acts_now(plan: Plan, player: Player, mail: EmailMessage, template: Template) -> bool:
    """Whether the player writes his orders now: in turn order, when his mail says his player-turn is next."""
    said = player.words.pattern("Next player-turn: %(number)s, %(seat)s (round %(round)s)")
    return plan.sealed_steps or any(
        (m["number"], m["seat"]) == (str(template.turn), template.seat) for m in said.finditer(body_of(mail))
    )


def with_mistakes(lines: list[str]) -> tuple[list[str], dict[int, str]]:
    """The lines with a typo'd keyword (its second letter doubled) and an unknown area (a move's destination
    with an X added); the mistaken words by line number in the order text (the header is line 1)."""
    lines = list(lines)
    wrong = {}
    keyword = lines[0].split()[0]
    typo = keyword[:2] + keyword[1:]
    lines[0] = typo + lines[0][len(keyword) :]
    wrong[2] = typo
    moves = [i for i, line in enumerate(lines) if re.search(r"-> [A-Z]{3,4}$", line)]
    at = moves[-1] if moves and moves[-1] != 0 else len(lines) - 1
    lines[at] += "X"
    wrong[at + 2] = lines[at].split()[-1]
    return lines, wrong


def play_by_mail(tmp_path: Path, plan: Plan) -> Table:
    table = Table(tmp_path, plan)
    table.start()
    done: dict[str, list[int]] = {seat: [] for seat in plan.seats}  # the steps each seat ordered in (or let pass)
    for _ in range(plan.steps_per_seat * len(plan.seats) * 4):
        if min(len(turns) for turns in done.values()) >= plan.steps_per_seat or table.position()[1]:
            break
        silent = []
        for seat, player in table.players.items():
            latest = player.latest()
            assert latest is not None, f"{seat} has no template to answer"
            mail, template = latest
            if template.turn in done[seat] or not acts_now(plan, player, mail, template):
                continue
            done[seat].append(template.turn)
            nth = len(done[seat])
            if (seat, nth) in plan.silent:
                silent.append((seat, template.turn))
                continue
            _, template, lines = player.orders()
            header = template.with_password(player.password)
            if (seat, nth) in plan.wrong_password:  # the refusal reaches his registered address, naming why
                message_id, raw = player.mail(template.with_password(player.password[:-1]), lines, mail)
                assert ingest(table.archive, read_message(raw), clock=table.clock).text == "refused: a wrong password"
                (notice,) = [m for p, m in table.deliver() if p is player]
                said = player.words.pattern(REFUSED).match(" ".join(body_of(notice).split()))
                assert said and said["what"] == player.words.text("a wrong password"), body_of(notice)
            if (seat, nth) in plan.mistakes and lines:
                mistaken, wrong = with_mistakes(lines)
                receipt, text = table.send(player, header, mistaken, mail)
                problems = receipt_problems(receipt, player.words)
                assert sorted(problems) == sorted(wrong), receipt
                for number, word in wrong.items():
                    assert not_understood(problems[number], player.words) and f"'{word}'" in problems[number], receipt
                    echo = re.escape(text.splitlines()[number - 1])
                    assert re.search(rf"^  {re.escape(player.words.text('line'))} +{number}  {echo}$", receipt, re.M)
                fixed = corrected(text, problems, player.words).splitlines()[1:]
                assert fixed == lines  # the receipt's suggestions restore what he meant: he sends that
                lines = fixed
            receipt, text = table.send(player, header, lines, mail)
            verdicts = receipt_problems(receipt, player.words)
            if plan.ruleset.startswith("coe"):
                assert verdicts == {}, receipt  # every form he filled in from the mail is accepted
            else:
                assert not any(not_understood(v, player.words) for v in verdicts.values()), receipt
            player.turns_sent.append(template.turn)
        if silent:  # nobody writes: the reminder comes, then the deadline passes
            table.clock.advance(TURN_HOURS - REMINDER_HOURS + 1)
            table.tick()
            for seat, turn in silent:
                words = table.players[seat].words
                due = words.text("Reminder: orders for turn %(turn)s are due", turn=turn)
                reminders = [m for m in table.players[seat].inbox if m["Subject"] == f"[{GAME}] {due}"]
                assert reminders, f"{seat} was not reminded of turn {turn}"
            table.clock.advance(REMINDER_HOURS)
        else:
            table.clock.advance(1)
        lines = table.tick()
        for _ in range(20):  # ask mode: each decision asked by mail is answered by mail, and the turn goes on
            if not any(line.endswith("waiting for decisions") for line in lines):
                break
            assert table.answer_decisions(), f"the turn waits, and nobody was asked: {lines}"
            lines = table.tick()
        assert any("resolved" in line for line in lines), lines
    else:
        raise AssertionError(f"the game did not get far enough: {done}\n" + "\n".join(table.log))
    assert all(len(turns) >= plan.steps_per_seat for turns in done.values()) or table.position()[1], done
    verified = CliRunner().invoke(app, ["verify", GAME, "--data", str(table.data)])
    assert verified.exit_code == 0 and verified.output.rstrip().endswith(" 0 problems"), verified.output
    return table


@pytest.mark.usefixtures("seeded")
def test_coe_classic_played_by_mail_from_the_mails_alone(tmp_path: Path) -> None:
    """Five player-turns per seat (C-4.1), with typos, unknown areas, a wrong password and a missed turn (NMR)."""
    plan = Plan(
        "coe-classic",
        COE_SEATS,
        steps_per_seat=5,
        mistakes={("Egyptus", 2), ("Macedonia", 4)},
        silent={("Hispania", 3)},
        wrong_password={("Egyptus", 1)},
        decisions="ask",
        languages={"Egyptus": "de"},
    )
    table = play_by_mail(tmp_path, plan)
    alerts = [m["Subject"] for m in table.postman.moderators]
    assert alerts == [f"[{GAME}] refused mail for Egyptus", f"[{GAME}] Hispania missed 1 turns"]  # nmr_alert=1


@pytest.mark.usefixtures("seeded")
def test_coe_1984_played_by_mail_from_the_mails_alone(tmp_path: Path) -> None:
    """Three player-turns per seat, with mistakes and a missed turn."""
    plan = Plan(
        "coe-1984",
        COE_SEATS,
        steps_per_seat=3,
        mistakes={("Hispania", 2)},
        silent={("Macedonia", 2)},
        decisions="ask",
        languages={"Hispania": "it", "Macedonia": "nl"},
    )
    play_by_mail(tmp_path, plan)


@pytest.mark.usefixtures("seeded")
def test_conqueror_er_played_by_mail_from_the_mails_alone(tmp_path: Path) -> None:
    """Two whole rounds (per round: the sealed plans step ER-14, the campaign turns), answered from the template
    alone."""
    plan = Plan(
        "conqueror-er",
        ER_SEATS,
        steps_per_seat=4,
        game_data=resource_dir("games") / "conqueror-er" / "example-data",
        sealed_steps=True,
    )
    play_by_mail(tmp_path, plan)


def orders_sent_ahead(tmp_path: Path) -> tuple[Player, EmailMessage]:
    """Egyptus answers his welcome at once with orders for turn 2, his next player-turn, while turn 1 is still
    Macedonia's; then Macedonia plays and turn 2 opens. Egyptus's mail, and the fresh receipt of turn 2."""
    table = Table(tmp_path, Plan("coe-classic", COE_SEATS, steps_per_seat=1))
    table.start()
    egyptus, macedonia = table.players["Egyptus"], table.players["Macedonia"]
    for player in (egyptus, macedonia):
        mail, template, lines = player.orders()
        receipt, _ = table.send(player, template.with_password(player.password), lines, mail)
        assert receipt_problems(receipt) == {}, receipt
    assert "These orders are for your next player-turn, turn 2" in body_of(egyptus.inbox[-1])
    table.clock.advance(1)
    assert f"{GAME}: turn 1 (Macedonia) resolved" in table.tick()
    fresh = [m for m in egyptus.inbox if "Your turn 2 is open now" in body_of(m)]
    assert len(fresh) == 1 and fresh[0]["Subject"] == f"[{GAME}] Receipt for turn 2"
    return egyptus, fresh[0]


@pytest.mark.usefixtures("seeded")
def test_the_fresh_receipt_of_orders_sent_ahead_answers_their_mail(tmp_path: Path) -> None:
    egyptus, fresh = orders_sent_ahead(tmp_path)
    (sent,) = egyptus.sent
    assert fresh["In-Reply-To"] == sent and fresh["References"] == sent


@pytest.mark.usefixtures("seeded")
def test_the_fresh_receipt_of_orders_sent_ahead_states_the_deadline(tmp_path: Path) -> None:
    _, fresh = orders_sent_ahead(tmp_path)
    assert re.search(r"^Deadline: \d{4}-\d\d-\d\d \d\d:\d\d UTC\.$", body_of(fresh), re.MULTILINE), body_of(fresh)


@pytest.mark.xfail(
    strict=True,
    reason="conqueror-er's next_steps (rulesets/conqueror/game.py) looks only at the steps of the current round, "
    "though the protocol says 'this round or the next': a seat whose steps of the round are over gets a report "
    "saying 'The next step you order in: -.', and no template can name his next step",
)
@pytest.mark.usefixtures("seeded")
def test_ER_4_1_a_seat_whose_campaign_turn_is_over_is_told_his_next_step(tmp_path: Path) -> None:
    """Each seat mails an empty order set for the step its latest mail names (`The next step you order in: N.`,
    the header from `Head every order mail with:`) until the first seat's campaign turn is resolved."""
    plan = Plan("conqueror-er", ER_SEATS, 1, game_data=resource_dir("games") / "conqueror-er" / "example-data")
    table = Table(tmp_path, plan, checked=False)
    table.start()
    for _ in range(8):
        for player in table.players.values():
            step = re.findall(r"^The next step you order in: (\d+)\.$", body_of(player.inbox[-1]), re.MULTILINE)
            if step and int(step[-1]) not in player.turns_sent:
                header = re.search(r"^  (GAME .*)$", body_of(player.inbox[0]), re.MULTILINE)
                assert header is not None
                text = header.group(1).replace("TURN <n>", f"TURN {step[-1]}")
                table.send(player, text, [], player.inbox[-1])
                player.turns_sent.append(int(step[-1]))
        table.clock.advance(1)
        ticked = table.tick()
        campaign = [line for line in ticked if re.search(r"turn \d+ \(\w+\) resolved", line) and "None" not in line]
        if campaign:
            break
    seat = campaign[0].split("(")[1].split(")")[0]
    report = body_of(table.players[seat].inbox[-1])
    assert "private report for " + seat in report
    assert re.search(r"^The next step you order in: \d+\.$", report, re.MULTILINE), report


@pytest.mark.usefixtures("seeded")
def test_a_typo_of_a_german_keyword_is_suggested_the_keyword_meant(tmp_path: Path) -> None:
    table = Table(tmp_path, Plan("coe-classic", COE_SEATS, steps_per_seat=1, languages={"Egyptus": "de"}))
    table.start()
    egyptus = table.players["Egyptus"]
    mail, template, lines = egyptus.orders()
    move = next(line for line in lines if line.startswith("ZIEHE "))
    receipt, _ = table.send(egyptus, template.with_password(egyptus.password), ["ZIEEH" + move[5:]], mail)
    (verdict,) = receipt_problems(receipt, egyptus.words).values()
    assert not_understood(verdict, egyptus.words) and "'ZIEEH'" in verdict, receipt
    assert "ZIEHE" in verdict.split("did you mean", 1)[1], receipt


@pytest.mark.usefixtures("seeded")
def test_C_15_7_a_decision_notice_names_its_turn_in_the_subject_and_starts_with_its_text(tmp_path: Path) -> None:
    """Egyptus's legion stands in Thracia, next to Macedonia's home: Macedonia's player marches on it, and in
    ask mode the battle's first decision is asked by mail."""
    classic = load_ruleset("coe-classic")
    state = legion(start(list(COE_SEATS)), "THR", 1, inf=4, seat="Egyptus")
    state.players["Egyptus"].tribute = tribute_value(classic, state, "Egyptus")  # C-9.1
    position = classic.snapshot_text(state)
    table = Table(tmp_path, Plan("coe-classic", COE_SEATS, 1, decisions="ask", position=position))
    table.start()
    macedonia = table.players["Macedonia"]
    mail, template, lines = macedonia.orders()
    assert any(line.endswith(": MAC -> THR") for line in lines), lines  # towards the nearest enemy
    table.send(macedonia, template.with_password(macedonia.password), lines, mail)
    table.clock.advance(1)
    assert f"{GAME}: waiting for decisions" in table.tick()
    notices = [m for p in table.players.values() for m in p.inbox if "decisions are needed" in m["Subject"]]
    assert notices
    for notice in notices:
        assert notice["Subject"] == f"[{GAME}] Turn 1: your decisions are needed", notice["Subject"]
        assert body_of(notice).startswith(f"Conquest of the Empire, Classic edition (2005), game {GAME}: turn 1 ")


@pytest.mark.usefixtures("seeded")
def test_a_reminder_states_the_deadline_as_the_other_mails_do(tmp_path: Path) -> None:
    table = Table(tmp_path, Plan("coe-classic", COE_SEATS, steps_per_seat=1))
    table.start()
    table.clock.advance(TURN_HOURS - REMINDER_HOURS + 1)
    assert f"{GAME}: reminded Macedonia (turn 1)" in table.tick()
    (reminder,) = [m for m in table.players["Macedonia"].inbox if "Reminder" in m["Subject"]]
    assert not re.search(r"\dT\d\d:\d\d:\d\d", body_of(reminder)), body_of(reminder)
