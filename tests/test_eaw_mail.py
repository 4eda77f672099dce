"""Empires of the Ancient World by mail (EAW-12.2: a plan a round, so a round by mail is one plans mail per seat): the
bots' orders are RFC 5322 mails from the players' addresses through `ingest`, `tick` adjudicates, the reports are
queued in the outbox. A game with a short first round (action_rounds_first = 4, EAW-4.3) is made once per module
and played to the second round's plans step; each case copies its folder."""

from __future__ import annotations

import hashlib
import random
import shutil
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path

import pytest

from adjudicator.archive import Archive
from adjudicator.archive import queries as db
from adjudicator.engine.chance import turn_dice
from adjudicator.engine.steps import resolve_step
from adjudicator.mail.inbound import read_message
from adjudicator.orders import parse_orders
from adjudicator.rulesets import load_ruleset
from adjudicator.rulesets.empires.bot import BOT, EmpiresBot
from adjudicator.rulesets.empires.state import ACTION, PLANS
from adjudicator.services.bot_demo import final_score
from adjudicator.services.deadlines import tick
from adjudicator.services.game_reads import current_game, due_turns
from adjudicator.services.games import NewGameOptions, new_game
from adjudicator.services.mailbox import ingest
from adjudicator.services.selfplay import header, playable, step_rng

GAME = "mailed"
SEATS = ("red", "blue", "green")
OPTIONS = {"action_rounds_first": "4"}  # EAW-4.3: 4, 3, 2, 1 action rounds: a short game
SHORT = "red"  # its first plans mail holds 3 lines of the round's 4 (EAW-12.2)


@contextmanager
def fixed_secrets(name: str) -> Iterator[None]:
    """The game's secret seed made from a counter (as tests/test_conformance.py does), so that its dice repeat."""
    made = iter(range(10_000))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(
            "adjudicator.services.games.secrets.token_bytes",
            lambda n=32: hashlib.sha256(f"{name}:{next(made)}".encode()).digest()[:n],
        )
        yield


@dataclass
class Mailed:
    data: Path
    passwords: dict[str, str]
    sent: Counter[tuple[int, str]]  # (game round, seat) -> order mails
    texts: list[tuple[str, str, str]]  # (seat, phase, text) of each mail, in order


def addresses() -> dict[str, str]:
    return {seat: f"{seat}@example.org" for seat in SEATS}


def message(seat: str, number: int, text: str, n: int) -> bytes:
    mail = EmailMessage()
    mail["From"] = f"{seat}@example.org"
    mail["To"] = "pbem@example.org"
    mail["Subject"] = f"{GAME} step {number}"
    mail["Message-ID"] = f"<{GAME}-{number}-{seat}-{n}@example.org>"
    mail.set_content(text)
    return bytes(mail)


def position(data: Path) -> object:
    with Archive.open(data, None).session() as session:
        return current_game(session, GAME)[2]


def mail_due(mailed: Mailed, bots: dict[str, EmpiresBot], seed: int = 3) -> list[str]:
    """Every seat due mails its bot's orders through ingest; the outcomes."""
    archive = Archive.open(mailed.data, None)
    ruleset = current_ruleset(mailed.data)
    state = position(mailed.data)
    outcomes = []
    for number, seat in due_turns(ruleset, state, "turn"):
        bot = bots.get(seat, BOT)
        text = bot.orders(
            ruleset, state, seat, header(GAME, number, seat, mailed.passwords[seat]), step_rng(seed, number)
        )
        mailed.sent[(ruleset.round_of(state), seat)] += 1
        mailed.texts.append((seat, ruleset.due(state).phase, text))
        outcome = ingest(archive, read_message(message(seat, number, text, len(mailed.texts))))
        outcomes.append(outcome.text)
    return outcomes


def current_ruleset(data: Path) -> object:
    with Archive.open(data, None).session() as session:
        return current_game(session, GAME)[1]


def reports_to(data: Path, seat: str, after: int = 0) -> list[str]:
    """The report mails queued for `seat` after outbox id `after` (receipts and welcomes aside)."""
    with Archive.open(data, None).session() as session:
        return [
            m.body for m in db.outbox_after(session, after) if m.to == f"{seat}@example.org" and "Report" in m.subject
        ]


def outbox_size(data: Path) -> int:
    with Archive.open(data, None).session() as session:
        return db.outbox_size(session)


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Mailed:
    """The game by mail up to the step where red's short plan has run out: placement mails, then the round's plans
    mails (red's of 3 lines), tick after each round of mails."""
    data = tmp_path_factory.mktemp("eaw-mail") / "data"
    archive = Archive.in_folder(data)
    ruleset, folder = playable(load_ruleset("empires-aw"), None, None, OPTIONS)
    with fixed_secrets("eaw-mail"):  # the game's dice repeat run after run
        done = new_game(
            archive, data, NewGameOptions(GAME, ruleset.name, addresses(), game_data=folder, ruleset_options=OPTIONS)
        )
    mailed = Mailed(data, dict(done.passwords), Counter(), [])
    bots = {SHORT: EmpiresBot(plan_lines=3)}
    for _ in range(3):  # the placement mails, then the plans mails of round I (red's is short)
        state = position(data)
        if ruleset.due(state).seats == (SHORT,):
            break
        assert all(text == "orders stored" for text in mail_due(mailed, bots)), mailed.texts[-1]
        assert not tick(archive, data).failures
    return mailed


def copied(made: Mailed, tmp_path: Path) -> Mailed:
    data = tmp_path / "data"
    shutil.copytree(made.data, data)
    return Mailed(data, made.passwords, Counter(made.sent), list(made.texts))


def test_EAW_12_2_a_seat_whose_plan_ran_out_is_mailed_and_the_game_waits_for_it(made: Mailed, tmp_path: Path) -> None:
    mailed = copied(made, tmp_path)
    ruleset = current_ruleset(mailed.data)
    state = position(mailed.data)
    step = ruleset.due(state)
    assert step is not None and step.phase == ACTION and step.seats == (SHORT,)  # the game waits for red
    assert state.round == 1 and state.players[SHORT].actions_taken == 3  # after its 3 planned actions
    others = [s for s in SEATS if s != SHORT]
    assert state.action_round == 4  # its fourth action of four (EAW-4.3)
    told = reports_to(mailed.data, SHORT)[-1]  # its report mail of the round's steps so far, with its orders form
    assert "Your plan for this round is used up" in told
    assert "your action now in round 1: your plan has run out" in told
    assert not any("Your plan for this round is used up" in body for s in others for body in reports_to(mailed.data, s))
    # red mails the rest (the waiting step's orders: this action), the game goes on to round II's plans
    before = outbox_size(mailed.data)
    assert mail_due(mailed, {}) == ["orders stored"]
    assert mailed.texts[-1][1] == ACTION and mailed.texts[-1][0] == SHORT
    assert not tick(Archive.open(mailed.data, None), mailed.data).failures
    after = position(mailed.data)
    assert after.round == 2 and ruleset.due(after).phase == PLANS
    assert after.players[SHORT].actions_taken == 0  # a new round
    assert all(reports_to(mailed.data, seat, before) for seat in SEATS)  # each is mailed its report for round II


def test_EAW_12_2_the_report_mail_of_several_steps_tells_each_steps_private_events(made: Mailed) -> None:
    """One tick resolved the round's steps up to red's waiting action; red's report mail covers them all and must
    carry the private events of each (its plan ran out, EAW-12.2; its stacks, refused alternatives), as the turn
    folders' private reports do. services/news.py mails only the last step's private report when every seat's mail
    covers exactly the tick's steps (`grouped` is false, so `privates` is rendered from the last step alone)."""
    body = reports_to(made.data, SHORT)[-1]
    ran_out = next(
        path for path in sorted((made.data / "games" / GAME).glob("turn-*/report-red.txt"))
        if "Your plan has run out" in path.read_text(encoding="utf-8")
    )  # fmt: skip
    assert "Your plan has run out with 1 action left this round" in ran_out.read_text(encoding="utf-8")
    assert "Your plan has run out with 1 action left this round" in body


def test_EAW_12_2_by_mail_a_seat_sends_at_most_two_order_mails_a_round_and_one_with_a_full_plan(
    made: Mailed, tmp_path: Path
) -> None:
    mailed = copied(made, tmp_path)
    mail_due(mailed, {})  # red's rest of round I
    assert not tick(Archive.open(mailed.data, None), mailed.data).failures
    ruleset = current_ruleset(mailed.data)
    while ruleset.due(state := position(mailed.data)) is not None and state.round <= 2:
        mail_due(mailed, {})
        assert not tick(Archive.open(mailed.data, None), mailed.data).failures
    assert mailed.sent[(0, SHORT)] == 1  # the placement mail
    assert mailed.sent[(1, SHORT)] == 2  # the short plan and the rest
    for seat in SEATS:
        assert mailed.sent[(2, seat)] == 1  # a full plan: one mail for the round
        if seat != SHORT:
            assert mailed.sent[(1, seat)] == 1
    assert max(mailed.sent.values()) <= 3  # the pace by mail: at most 3 mails a player a round


def test_EAW_10_8_the_demo_prints_the_final_score_and_the_winners() -> None:
    """`pbem demo` prints the final score from the last event that names `scores` (services/bot_demo.py
    final_score), as Conqueror's game_won does; the end of an EAW game (game_ended, EAW-10.8) must carry them."""
    rules, _ = playable(load_ruleset("empires-aw"), None, None, OPTIONS)
    state = rules.initial_state("g", list(SEATS))
    events: list[dict[str, object]] = []
    while (step := rules.due(state)) is not None:
        rng = random.Random(step.number)
        orders = {
            seat: parse_orders(BOT.orders(rules, state, seat, f"GAME g TURN {step.number} PLAYER {seat}", rng), rules)
            for seat in step.seats
        }
        result = resolve_step(rules, state, step, orders, turn_dice(b"k", str(step.number), b"h"))
        state, events = result.state, [{"kind": e.kind, "data": e.data} for e in result.events]
    lines = final_score(events)
    assert lines[0].startswith("Final score (winner: "), lines
    assert all(seat in "\n".join(lines) for seat in SEATS)


def test_EAW_4_3_the_reports_count_the_action_rounds_of_the_games_options(made: Mailed) -> None:
    """The game was made with action_rounds_first = 4 (EAW-4.3, EAW-11.7): 4 action rounds in round I, which the
    game plays (the seats acted 4 times); the position of the reports must say so, not the data's default of 10
    (templates/empires/position.j2 reads the data's options, not the game's)."""
    report = (made.data / "games" / GAME / "turn-0004" / "report.txt").read_text(encoding="utf-8")
    assert "Game round 1 begins: 4 action rounds (EAW-4.3)." in (
        made.data / "games" / GAME / "turn-0003" / "report.txt"
    ).read_text(encoding="utf-8")
    assert "Action round 1 of 4 (EAW-4.3)." in report
