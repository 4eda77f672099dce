"""Real `pbem` processes running at once on one archive (SQLite and PostgreSQL): ingests racing each other, and
ticks racing ingests. Nothing may be lost or stored twice, and every game is adjudicated by one process at a time.
(On SQLite every transaction takes the write lock at its start, so the unique Message-ID's "duplicate" path after a
failed commit is reached on PostgreSQL only; there, without the game lock (FOR UPDATE), these tests fail.)
"""

from __future__ import annotations

import mailbox
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

from sqlmodel import select

from adjudicator.archive import Archive
from adjudicator.archive.models import GameRow, MessageRow, OrderSetRow, OutboxRow, TurnRow
from adjudicator.services.game_reads import current_game, due_turns
from adjudicator.services.games import NewGameOptions, new_game
from adjudicator.services.verification import verify

SEATS = {"Macedonia": "mac@example.org", "Egyptus": "egy@example.org", "Hispania": "his@example.org"}


def order_mail(game: str, seat: str, turn: int, password: str, order: str, mid: str) -> bytes:
    message = EmailMessage()
    message["From"] = SEATS[seat]
    message["To"] = "moderator@example.org"
    message["Subject"] = "orders"
    message["Message-ID"] = f"<{mid}@players.example.org>"
    message.set_content(f"GAME {game} TURN {turn} PLAYER {seat} PASSWORD {password}\n{order}\n")
    return bytes(message)


def run_at_once(data: Path, *commands: list[str]) -> list[str]:
    """Start every `pbem` command before waiting for any; returns their outputs (each must succeed)."""
    started = [
        subprocess.Popen(
            [sys.executable, "-m", "adjudicator.cli", *command, "--data", str(data)],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for command in commands
    ]
    outputs = []
    try:
        for process in started:
            output, _ = process.communicate(timeout=300)
            assert process.returncode == 0, output
            outputs.append(output)
    finally:
        for process in started:
            if process.poll() is None:
                process.kill()
    return outputs


def test_concurrent_ingests_store_every_message_once(tmp_path: Path, archive: Archive) -> None:
    data = tmp_path
    passwords = new_game(archive, data, NewGameOptions("rome1", "coe-classic", SEATS, pace="round")).passwords
    with archive.session() as session:
        _, ruleset, state = current_game(session, "rome1")
    due = {seat: number for number, seat in due_turns(ruleset, state, "round")}
    boxes = [mailbox.Maildir(tmp_path / f"inbox{k}", create=True) for k in range(4)]
    mails = [(seat, k) for seat in SEATS for k in range(1, 6)]
    for i, (seat, k) in enumerate(mails):  # every message reaches two of the four mailboxes
        mail = order_mail("rome1", seat, due[seat], passwords[seat], f"BUY {k} INF", f"{seat}.{k}")
        boxes[i % 4].add(mail)
        boxes[(i + 1) % 4].add(mail)

    outputs = run_at_once(data, *[["ingest", "--maildir", str(tmp_path / f"inbox{k}")] for k in range(4)])

    outcomes = [line.rsplit(": ", 1)[1] for output in outputs for line in output.splitlines()]
    assert outcomes.count("orders stored") == len(mails) and outcomes.count("duplicate") == len(mails)
    with archive.session() as session:
        assert len(session.exec(select(MessageRow)).all()) == len(mails)
        order_sets = session.exec(select(OrderSetRow)).all()
        receipts = session.exec(select(OutboxRow).where(OutboxRow.subject.startswith("[rome1] Receipt"))).all()  # type: ignore[attr-defined]
    assert len(order_sets) == len(mails) and len(receipts) == len(mails)
    current = [o for o in order_sets if not o.replaced]
    assert sorted(o.seat for o in current) == sorted(SEATS)  # one current set per seat, none lost


def test_ticks_racing_an_ingest_resolve_each_turn_once_with_or_without_the_late_orders(
    tmp_path: Path, archive: Archive
) -> None:
    data = tmp_path
    games = [f"g{n}" for n in range(8)]
    inbox = mailbox.Maildir(tmp_path / "inbox", create=True)
    for name in games:
        password = new_game(
            archive, data, NewGameOptions(name, "coe-classic", SEATS, mail={"turn_hours": 72})
        ).passwords["Macedonia"]
        inbox.add(order_mail(name, "Macedonia", 1, password, "BUY 1 INF", f"{name}.orders"))
    past = (datetime.now(UTC) - timedelta(minutes=1)).isoformat(timespec="seconds")
    with archive.session() as session:
        for game in session.exec(select(GameRow)).all():
            game.deadline = past  # every game is due: the ticks adjudicate whatever orders are in by then
            session.add(game)

    run_at_once(data, ["tick"], ["ingest", "--maildir", str(tmp_path / "inbox")], ["tick"])

    with archive.session() as session:
        outcome = {m.game: m.outcome for m in session.exec(select(MessageRow)).all()}
        turns = session.exec(select(TurnRow).where(TurnRow.number > 0)).all()
        reports = session.exec(select(OutboxRow).where(OutboxRow.subject.endswith("Report, turn 1"))).all()  # type: ignore[attr-defined]
        game_names = {g.id: g.name for g in session.exec(select(GameRow)).all()}
    # Each game's turn 1 was resolved once, and the turn after it was not (the first tick moved the deadline on).
    assert sorted(game_names[t.game_id] for t in turns) == sorted(games)
    assert len(reports) == 3 * len(games)  # each seat got the report once
    for row in turns:
        name = game_names[row.game_id]
        if outcome[name] == "orders stored":  # in before the tick took the game: the turn used them
            assert "BUY 1 INF" in row.orders_text, name
        else:  # after: the player was told they were late, and the turn was resolved without them
            assert outcome[name] == "refused: late" and row.orders_text == "", (name, outcome[name])
        passed, problems = verify(archive, name)
        assert not problems, problems
