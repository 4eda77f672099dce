"""The mail pace: what the adjudication queues for the players and the moderator, whichever command resolved the
turn (`pbem adjudicate`, `pbem tick`), and how many mails a player of a Conqueror game receives per round."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

from sqlmodel import select
from typer.testing import Result

from adjudicator.archive import Archive
from adjudicator.archive import queries as db
from adjudicator.archive.models import OrderSetRow, OutboxRow
from tests.conftest import SEATS, Pbem
from tests.test_conqueror_asks import thal_attacks_pel
from tests.test_conqueror_new import data_copy, new_er
from tests.test_conqueror_plans_cli import SEATS3


def _outbox(pbem: Pbem) -> list[tuple[str, str]]:
    """(to, subject) of every queued or sent mail, in order, the welcomes left out."""
    rows = pbem.sql('select "to", subject from outbox order by id')
    return [(str(to), str(subject)) for to, subject in rows if "Welcome to" not in str(subject)]


def test_adjudicate_now_queues_the_reports_and_send_delivers_them(pbem: Pbem, tmp_path: Path) -> None:
    pbem.new_game()
    forced = pbem("adjudicate", "rome1", "--now")
    assert forced.exit_code == 0, forced.output
    assert "Turn 1 (Macedonia) resolved" in forced.output and "reports of turn(s) 1 queued" in forced.output
    reports = [to for to, subject in _outbox(pbem) if subject == "[rome1] Report, turn 1"]
    assert sorted(reports) == sorted(SEATS.values())  # C-4: every seat learns what the player-turn did
    sent = pbem("send", "--eml-dir", str(tmp_path / "sent"))
    assert sent.exit_code == 0 and "0 failed" in sent.output, sent.output
    delivered = [p.read_text(encoding="utf-8") for p in (tmp_path / "sent").glob("*.eml")]
    assert sum("Report, turn 1" in text for text in delivered) == 3
    ticked = pbem("tick")
    assert "reports of turn(s)" not in ticked.output  # queued once, by the command that resolved the turn


def test_turns_forced_by_the_moderator_count_as_missed_and_raise_the_nmr_alert(pbem: Pbem) -> None:
    seats = [a for seat, mail in SEATS.items() for a in ("--seat", f"{seat}={mail}")]
    made = pbem("new", "rome1", *seats, "--moderator", "gm@example.org", "--nmr-alert", "2")
    assert made.exit_code == 0, made.output
    for _ in range(4):  # Macedonia, Egyptus, Hispania, Macedonia: none sent orders
        assert pbem("adjudicate", "rome1", "--now").exit_code == 0
    missed = dict(pbem.sql("select seat, missed from seat"))
    assert missed == {"Macedonia": 2, "Egyptus": 1, "Hispania": 1}
    alerts = [subject for to, subject in _outbox(pbem) if to == "gm@example.org"]
    assert alerts == ["[rome1] Macedonia missed 2 turns"]
    # Conquest of the Empire's reports are not grouped: every seat reads every player-turn as it is resolved
    reports = Counter(to for to, subject in _outbox(pbem) if "Report, turn" in subject)
    assert reports == Counter({address: 4 for address in SEATS.values()})


def _er_game(pbem: Pbem, tmp_path: Path) -> None:
    """er1: a Conqueror game of three seats on the example data (step 1, the setup, resolved with it)."""
    created = new_er(pbem, data_copy(tmp_path), seats=SEATS3)
    assert created.startswith("0\n"), created
    for line in created.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] in SEATS3:
            pbem.passwords[parts[0]] = parts[1]


def _phases(pbem: Pbem) -> list[tuple[int, str]]:
    """(number, phase due after it) of every stored step of er1."""
    rows = pbem.sql("select number, state_json from turn where superseded = false order by number")
    return [(int(str(n)), json.loads(str(s))["public"]["phase"]) for n, s in rows]


def test_ER_4_steps_without_orders_resolve_in_the_run_of_the_step_before_them(pbem: Pbem, tmp_path: Path) -> None:
    _er_game(pbem, tmp_path)
    runs = [pbem("adjudicate", "er1", "--now") for _ in range(5)]  # taxation, plans, three campaign turns
    assert all(run.exit_code == 0 for run in runs), [run.output for run in runs]
    last = runs[-1].output
    # ER-4.6 end of round, ER-4.4 New Year, ER-5.2 Taxation: no orders, so no deadline of their own
    assert all(f"Turn {n} resolved" in last for n in (7, 8, 9)), last  # steps nobody orders in: no seat named
    assert _phases(pbem)[-1] == (9, "plans") and "Turn 10" not in last  # the plans step waits for its orders
    assert [n for n, _ in _phases(pbem)] == list(range(10))


def test_ER_4_a_conqueror_player_sends_and_receives_at_most_two_mails_a_round(
    conqueror_demo: tuple[Path, Result],
) -> None:
    """The bots of `pbem demo --ruleset conqueror-er` play a whole game by mail (ingest, tick); counted from the
    outbox: per round and player at most 2 order mails sent and 2 report mails received (receipts aside), each
    report inviting orders for a step of the player's own, and one more at the game's end."""
    folder, result = conqueror_demo  # the demo is played once a session (tests/conftest.py)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    with Archive.in_folder(folder).session() as session:
        game = db.find_game(session, "demo")
        turns = db.turns(session, game)
        # a step's round; Conquest mode's purchases come before round 1 (ER-3.11): round 0, as the setup
        rounds = {
            row.number: 0 if json.loads(before.state_json)["public"]["phase"] == "purchases" else row.round
            for before, row in zip(turns, turns[1:], strict=False)
        }
        seats = {seat.email: seat.seat for seat in db.game_seats(session, game)}
        sent = Counter(
            (rounds[order.turn], order.seat)
            for order in session.exec(select(OrderSetRow).where(OrderSetRow.game_id == game.id))
            if order.source == "mail"
        )
        mails = list(session.exec(select(OutboxRow).where(OutboxRow.game == "demo")))
    last = max(rounds)
    received: Counter[tuple[int, str]] = Counter()
    final: Counter[str] = Counter()
    for mail in mails:
        found = re.fullmatch(r"\[demo\] Report, turn (\d+)", mail.subject)
        if found and mail.to in seats:  # a report names the last step resolved; it asks for the next one's orders
            number = int(found.group(1))
            if number == last:
                final[seats[mail.to]] += 1
            else:
                received[(rounds[number + 1], seats[mail.to])] += 1
    assert max(rounds.values()) >= 2 and sent and received
    assert max(sent.values()) <= 2, sent
    assert max(received.values()) <= 2, received
    assert set(final.values()) == {1} and set(final) == set(seats.values())  # the final score, once each
    start = next(n for n, line in enumerate(lines) if line.startswith("Mails per player and round"))
    end = next(n for n, line in enumerate(lines) if n > start and line.startswith("  at most "))
    tally = "\n".join(lines[start : end + 1])  # the demo's tally, header to its last line
    assert "and 2 received in a round; at the end 3" in tally  # the demo's own count says the same


def _mails(pbem: Pbem, address: str) -> list[tuple[str, str]]:
    rows = pbem.sql(f"select subject, body from outbox where \"to\" = '{address}' order by id")
    return [(str(subject), str(body)) for subject, body in rows if "Report, turn" in str(subject)]


def test_ER_4_a_seat_is_mailed_when_its_own_step_is_due_with_its_private_news_and_observers_once_a_round(
    pbem: Pbem, tmp_path: Path
) -> None:
    _er_game(pbem, tmp_path)
    observed = pbem("gm", "observe", "er1", "fan@example.net")
    assert observed.exit_code == 0, observed.output
    assert pbem("adjudicate", "er1", "--now").exit_code == 0  # taxation (ER-5.2): the plans step is due
    assert {address: len(_mails(pbem, address)) for address in [*SEATS3.values(), "fan@example.net"]} == {
        address: 1 for address in [*SEATS3.values(), "fan@example.net"]
    }
    plans = {"kesh": "RECRUIT HERO Harro", "aurel": "RECRUIT HERO Maren", "thal": "LOSSES INF"}
    for seat, order in plans.items():
        assert pbem("submit", "er1", str(pbem.orders(seat, 3, order, game="er1"))).exit_code == 0
    assert pbem("adjudicate", "er1", "--now").exit_code == 0  # the plans step (ER-5)
    first, second, third = json.loads(str(pbem.sql("select state_json from turn where number = 3")[0][0]))["public"][
        "turn_order"
    ]
    # ER-7.1: only the first campaign seat is mailed now; the others when their own campaign turns are due
    assert len(_mails(pbem, SEATS3[first])) == 2 and len(_mails(pbem, SEATS3[second])) == 1
    assert len(_mails(pbem, "fan@example.net")) == 1
    assert pbem("adjudicate", "er1", "--now").exit_code == 0  # the first campaign turn
    subject, body = _mails(pbem, SEATS3[second])[-1]
    assert subject == "[er1] Report, turn 4"
    assert "=== Turn 3: kesh, aurel, thal ===" in body and "=== Turn 4:" in body  # everything since its last mail
    assert f"private report for {second}" in body and "private report for" not in body.replace(f"for {second}", "")
    private = body.split("private report for")[1]
    assert re.search(rf"line +\d+  {plans[second]}\n +accepted", private), body  # its verdict on its plans
    if second == "aurel":  # its own news of the plans step: the hero it recruited face down (ER-5.20)
        assert "Maren Shieldwife" in body
    assert all("Maren Shieldwife" not in text for seat in ("kesh", "thal") for _, text in _mails(pbem, SEATS3[seat]))
    assert len(_mails(pbem, SEATS3[third])) == 1 and len(_mails(pbem, "fan@example.net")) == 1
    assert pbem("adjudicate", "er1", "--now").exit_code == 0  # the second campaign turn
    assert pbem("adjudicate", "er1", "--now").exit_code == 0  # the third, the end of round 1 and round 2's start
    counts = {address: len(_mails(pbem, address)) for address in [*SEATS3.values(), "fan@example.net"]}
    assert counts == {**{address: 3 for address in SEATS3.values()}, "fan@example.net": 2}
    subject, watched = _mails(pbem, "fan@example.net")[-1]
    assert subject == "[er1] Report, turn 9" and "private report" not in watched
    assert all(f"=== Turn {n}" in watched for n in range(3, 10))  # the whole round, public reports only


def test_ER_14_12_a_question_to_a_seat_whose_step_is_not_due_is_mailed_by_adjudicate(
    pbem: Pbem, tmp_path: Path
) -> None:
    """The reports of a Conqueror seat wait for its own step; the decisions asked of it in another's step do not."""
    number = thal_attacks_pel(pbem, tmp_path)
    before = len(pbem.sql("select id from outbox"))
    waiting = pbem("adjudicate", "er1", "--now")
    assert waiting.exit_code == 0 and "Waiting for kesh: battle.PEL.1.reinforce" in waiting.output, waiting.output
    queued = [
        (str(to), str(subject), str(body))
        for _, to, subject, body in pbem.sql(
            f'select id, "to", subject, body from outbox where id > {before} order by id'
        )
    ]
    assert [(to, subject) for to, subject, _ in queued] == [
        (SEATS3["kesh"], f"[er1] Turn {number}: your decisions are needed")
    ]
    assert "ANSWER battle.PEL.1.reinforce: REINFORCE NEVER" in queued[0][2]
