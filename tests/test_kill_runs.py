"""Kill -9 runs: real `pbem ingest`, `pbem tick` and `pbem adjudicate` processes killed with SIGKILL at seeded
moments, on SQLite and on PostgreSQL. After every kill the archive holds no half turn (every game verifies: its
turns' rows, chain and head), no mail is lost (each is stored or still unread in the Maildir) and none is answered
twice; running the same command again completes the work and writes every stored turn's files.

The moments: a process is started through a small launcher that pauses it at the k-th call of a named point (a
transaction flushed but not committed, just committed, a file about to be renamed into place), chosen by a seeded
random stream; once it says it has paused, it is killed. The code it runs is the real command's."""

from __future__ import annotations

import mailbox
import os
import random
import signal
import subprocess
import sys
from collections import Counter
from datetime import UTC, datetime, timedelta
from email import message_from_bytes
from pathlib import Path

from sqlmodel import select

from adjudicator.archive import Archive
from adjudicator.archive.models import GameRow, MessageRow, OutboxRow, TurnRow
from adjudicator.mail.inbound import read_message
from adjudicator.services.games import NewGameOptions, new_game
from adjudicator.services.mailbox import ingest
from adjudicator.services.verification import verify
from tests.test_concurrency import SEATS, order_mail

# Runs `pbem` (sys.argv) with one pause: PBEM_TEST_PAUSE="point:k" stops the process at the k-th call of the point,
# after printing PAUSED, until it is killed.
LAUNCHER = """
import os, sys, time
import sqlalchemy.orm

point, wanted = os.environ["PBEM_TEST_PAUSE"].split(":")
calls = 0

def pause():
    global calls
    calls += 1
    if calls == int(wanted):
        print(f"PAUSED at {point} {calls}", flush=True)
        time.sleep(300)

from adjudicator.archive.lean_mail import LeanArchive

# a commit of the archive's session, or of a lean transaction (a tick's game: its rows are written before it commits)
commit, lean_commit, replace = sqlalchemy.orm.Session.commit, LeanArchive.commit, os.replace

def flushed(self):
    if not isinstance(self, LeanArchive):  # a lean transaction wrote its rows before its commit
        self.flush()
    pause()
    (lean_commit if isinstance(self, LeanArchive) else commit)(self)

def committed(self):
    (lean_commit if isinstance(self, LeanArchive) else commit)(self)
    pause()

def renamed(*args, **kwargs):
    pause()
    return replace(*args, **kwargs)  # on POSIX os.rename and os.replace are one call

if point == "flushed":
    sqlalchemy.orm.Session.commit = LeanArchive.commit = flushed
elif point == "committed":
    sqlalchemy.orm.Session.commit = LeanArchive.commit = committed
elif point == "renamed":  # a file moved into place: a turn's file, a mail marked seen in the Maildir
    os.replace = os.rename = renamed
from adjudicator.cli import main

main()
"""


def any_of(most: int) -> list[str]:
    """A moment at one of the first `most` calls of any point."""
    return [f"{point}:{k}" for point in ("flushed", "committed", "renamed") for k in range(1, most + 1)]


# `pbem adjudicate`: its first transaction writes the files a dead writer left out, its second stores the turns
# ("flushed:2": the turns' rows are in the database, uncommitted, when it dies)
BEFORE_ITS_COMMIT = ["flushed:1", "committed:1", "flushed:2"]
AFTER_ITS_COMMIT = ["committed:2", *(f"renamed:{k}" for k in range(1, 9))]
TICKED = [f"t{n}" for n in range(3)]  # turn pace, deadline passed: the tick adjudicates them
ROUND = "m"  # round pace, every seat's orders mailed in: the tick adjudicates it too
LATER = "a"  # round pace: adjudicated by `pbem adjudicate` once its orders are in


def pbem(data: Path, *command: str, pause: str | None = None) -> tuple[int, str]:
    """Run `pbem` in a new process; with `pause` ("point:k") kill it with SIGKILL once it has paused there.
    Returns its exit code (-9 when killed) and its output."""
    environment = {**os.environ, "PYTHONUNBUFFERED": "1", "PBEM_TEST_PAUSE": pause or "none:0"}
    process = subprocess.Popen(
        [sys.executable, "-c", LAUNCHER, *command, "--data", str(data)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=environment,
    )
    lines = []
    try:
        assert process.stdout is not None
        for line in process.stdout:
            lines.append(line)
            if pause and line.startswith("PAUSED"):
                process.send_signal(signal.SIGKILL)
                break
        process.wait(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    return process.returncode, "".join(lines)


def unread(inbox: Path) -> set[str]:
    """The Message-IDs of the Maildir's messages not marked seen (those a later ingest reads)."""
    files = list((inbox / "new").iterdir()) + [f for f in (inbox / "cur").iterdir() if "S" not in f.name.split(",")[-1]]
    return {str(message_from_bytes(f.read_bytes())["Message-ID"]) for f in files}


def whole(archive: Archive, inbox: Path, mails: set[str], games: list[str]) -> None:
    """No half turn, no mail lost, none answered twice."""
    for name in games:
        passed, problems = verify(archive, name)
        assert not problems, (name, problems)
    with archive.session() as session:
        stored = [m.message_id for m in session.exec(select(MessageRow)).all()]
        outbox = session.exec(select(OutboxRow)).all()
        played = Counter(
            game.name
            for game, turn in session.exec(select(GameRow, TurnRow).where(TurnRow.game_id == GameRow.id)).all()
            if turn.number > 0 and turn.mailed  # a turn's reports are queued in its own transaction
        )
        turns = len(session.exec(select(TurnRow).where(TurnRow.number > 0)).all())
    assert sum(played.values()) == turns  # no turn stored without its reports queued
    assert played[ROUND] in (0, len(SEATS)) and played[LATER] in (0, len(SEATS))  # a round: all or nothing
    assert mails <= set(stored) | unread(inbox)  # each mail is stored, or a later ingest reads it
    # a receipt, a report (it threads with the seat's orders) or a notice queued once
    queued = Counter((row.in_reply_to, row.to, row.subject) for row in outbox)
    assert max(queued.values(), default=1) == 1, queued
    assert {row.in_reply_to for row in outbox if row.in_reply_to} <= set(stored)


def files_written(archive: Archive, data: Path, games: list[str]) -> int:
    """Every stored turn of the games has its report and snapshot on disk, and its mails queued; their number."""
    with archive.session() as session:
        rows = [
            (game.name, turn)
            for game in session.exec(select(GameRow).where(GameRow.name.in_(games))).all()  # type: ignore[attr-defined]
            for turn in session.exec(select(TurnRow).where(TurnRow.game_id == game.id, TurnRow.number > 0)).all()
        ]
    for name, turn in rows:
        folder = data / "games" / name / f"turn-{turn.number:04d}"
        assert (folder / "report.txt").is_file() and (folder / "snapshot.json").is_file(), (name, turn.number)
        assert turn.mailed, (name, turn.number)
    return len(rows)


def test_pbem_killed_at_seeded_moments_leaves_no_half_turn_and_the_rerun_completes(
    tmp_path: Path, archive: Archive, database: str | None
) -> None:
    data, inbox = tmp_path, tmp_path / "inbox"
    moments = random.Random(f"kill-runs:{archive.backend}")
    box = mailbox.Maildir(inbox, create=True)
    passwords = {name: new_game(archive, data, NewGameOptions(name, "coe-classic", SEATS)).passwords for name in TICKED}
    for name in (ROUND, LATER):
        passwords[name] = new_game(archive, data, NewGameOptions(name, "coe-classic", SEATS, pace="round")).passwords
    mails = []
    for name in TICKED:
        mails.append(order_mail(name, "Macedonia", 1, passwords[name]["Macedonia"], "BUY 1 INF", f"{name}.1"))
    for k, seat in enumerate([*SEATS, *SEATS, *SEATS]):  # each seat's orders for the round, sent three times
        number = 1 + list(SEATS).index(seat)
        mails.append(order_mail(ROUND, seat, number, passwords[ROUND][seat], f"BUY {1 + k % 3} INF", f"{ROUND}.{k}"))
    for mail in mails:
        box.add(mail)
    ids = {str(message_from_bytes(mail)["Message-ID"]) for mail in mails}
    past = (datetime.now(UTC) - timedelta(minutes=1)).isoformat(timespec="seconds")
    with archive.session() as session:
        for game in session.exec(select(GameRow).where(GameRow.name.in_(TICKED))).all():  # type: ignore[attr-defined]
            game.deadline = past
            session.add(game)
    games = [*TICKED, ROUND, LATER]
    kills = 0

    def killed(*command: str, at: list[list[str]]) -> None:
        """Kill the command once per entry of `at`, at a moment drawn from that entry's."""
        nonlocal kills
        for choices in at:
            pause = moments.choice(choices)
            code, output = pbem(data, *command, pause=pause)
            assert code == -signal.SIGKILL, (pause, output)  # every run reached its pause
            kills += 1
            whole(archive, inbox, ids, games)

    # ingest: every mail stored once with its receipt, after kills in the middle of the Maildir
    killed("ingest", "--maildir", str(inbox), at=[any_of(3)] * 4)
    code, output = pbem(data, "ingest", "--maildir", str(inbox))
    assert code == 0, output
    whole(archive, inbox, ids, games)
    with archive.session() as session:
        assert sorted(m.message_id for m in session.exec(select(MessageRow)).all()) == sorted(ids)
    assert not unread(inbox)

    # tick: the due games adjudicated, each turn once, its files written (the rerun writes what a kill left out)
    killed("tick", at=[[f"flushed:{k}" for k in range(2, 6)], any_of(6), any_of(6)])
    code, output = pbem(data, "tick")
    assert code == 0, output
    whole(archive, inbox, ids, games)
    assert files_written(archive, data, [*TICKED, ROUND]) == len(TICKED) + len(SEATS)

    # adjudicate: the later round, once its orders are in
    for number, seat in enumerate(SEATS, start=1):
        mail = order_mail(LATER, seat, number, passwords[LATER][seat], "BUY 2 INF", f"{LATER}.{seat}")
        assert ingest(archive, read_message(mail)).text == "orders stored"
        ids.add(f"<{LATER}.{seat}@players.example.org>")
    killed("adjudicate", LATER, at=[["flushed:2"]])
    with archive.session() as session:  # its turns' rows were in the database, uncommitted: all gone
        later = session.exec(select(GameRow).where(GameRow.name == LATER)).one()
        assert session.exec(select(TurnRow).where(TurnRow.game_id == later.id, TurnRow.number > 0)).all() == []
    killed("adjudicate", LATER, at=[BEFORE_ITS_COMMIT, AFTER_ITS_COMMIT])
    code, output = pbem(data, "adjudicate", LATER)
    whole(archive, inbox, ids, games)
    assert files_written(archive, data, [LATER]) == len(SEATS), output
    assert code == 0 or "no orders" in output, output  # done again, or refused: a kill came after its commit

    assert kills >= 10
