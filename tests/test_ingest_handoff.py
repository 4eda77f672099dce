"""`pbem ingest` handing its mail to a running `pbem serve` (adjudicator/mail/handoff.py): real `pbem ingest` processes
against a real listener print the same lines, exit with the same status and store the same rows and receipts as
`pbem ingest` without a listener on a copy of the archive; with no listener, a stopped or killed one, one of another
archive, a locked archive, or a listener that dies with the mail in hand, `pbem ingest` handles the mail itself; a
listener that takes the mail and stalls makes it exit 75 (the mail filter retries), and the mail is stored once.

One real Classic game is made for the module; each test works on copies of its SQLite archive."""

from __future__ import annotations

import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from adjudicator.archive import Archive
from adjudicator.mail import handoff
from adjudicator.mail.handoff import SOCKET_NAME
from adjudicator.services.games import NewGameOptions, new_game
from tests import served_game
from tests.postgres import fresh_database
from tests.served_game import SEATS, STAMP, copy_of, made_game

PBEM = [sys.executable, "-m", "adjudicator.cli"]


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    return made_game(tmp_path_factory.mktemp("handoff"))


def letter(number: int, body: str, sender: str = "mac@example.org") -> bytes:
    return served_game.letter("handoff", number, body, sender)


def orders(made: tuple[Path, dict[str, str]], number: int, seat: str = "Macedonia") -> bytes:
    turn = list(SEATS).index(seat) + 1
    body = f"GAME rome1 TURN {turn} PLAYER {seat} PASSWORD {made[1][seat]}\nBUY 1 INF\n"
    return letter(number, body, SEATS[seat])


@dataclass(frozen=True)
class Ran:
    status: int
    out: str
    err: str


def ingest(data: Path, mail: bytes | Path, *options: str, python: tuple[str, ...] = ()) -> Ran:
    """A real `pbem ingest` process of one mail: from stdin (bytes, as from .forward) or a .eml file; `python`: options
    of the interpreter."""
    pbem = [sys.executable, *python, *PBEM[1:]]
    argv = [*pbem, "ingest", *([str(mail)] if isinstance(mail, Path) else []), "--data", str(data), *options]
    done = subprocess.run(argv, input=mail if isinstance(mail, bytes) else b"", capture_output=True, timeout=120)
    return Ran(done.returncode, done.stdout.decode(), done.stderr.decode())


def started(data: Path, mail: bytes) -> subprocess.Popen[bytes]:
    """`pbem ingest` of one mail from stdin, running on."""
    process = subprocess.Popen([*PBEM, "ingest", "--data", str(data)], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert process.stdin is not None
    process.stdin.write(mail)
    process.stdin.close()
    return process


def finished(process: subprocess.Popen[bytes]) -> tuple[int, str]:
    out = process.stdout.read().decode() if process.stdout else ""
    return process.wait(timeout=120), out


def rows(data: Path) -> list[tuple[str, tuple[object, ...]]]:
    """Every row of the archive, its timestamps masked (the two deliveries are seconds apart)."""
    connection = sqlite3.connect(data / "archive.sqlite")
    try:
        names = [r[0] for r in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY 1")]
        dump = [(n, tuple(r)) for n in names for r in connection.execute(f'SELECT * FROM "{n}" ORDER BY 1')]
    finally:
        connection.close()
    return [(t, tuple(STAMP.sub("<time>", v) if isinstance(v, str) else v for v in r)) for t, r in dump]


def receipts(data: Path) -> list[tuple[object, ...]]:
    return [row for table, row in rows(data) if table == "outbox"]


@dataclass
class Listener:
    process: subprocess.Popen[str]

    def line(self) -> str:
        """The next line it prints (each mail's outcome, as `pbem ingest` prints it)."""
        assert self.process.stdout is not None
        return self.process.stdout.readline().rstrip("\n")

    def stop(self) -> tuple[int, str]:
        self.process.send_signal(signal.SIGTERM)
        out, _ = self.process.communicate(timeout=30)
        return self.process.returncode, out


@contextmanager
def listening(data: Path, *options: str) -> Iterator[Listener]:
    """A real `pbem serve` process on the archive in `data` (LMTP on a free port; ingest.sock in `data`)."""
    command = [*PBEM, "serve", "--data", str(data), "--port", "0", *options]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = process.stdout.readline() if process.stdout else ""
        problem = process.stderr.read() if process.stderr and not first else ""
        assert first.startswith("pbem serve: listening on "), f"pbem serve did not start: {first}{problem}"
        yield Listener(process)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()


def threads(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/task"))


def test_handed_mails_print_exit_and_store_as_the_one_shot_path(
    made: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    """Orders (stdin), a forged password (a .eml file; the seat and the moderator told), a mail over the 2 MB read
    (only its beginning is handed over; refused unread, the seat told), the same mail again, and a garbled mail (a
    file): each `pbem ingest` against the listener prints the same line on the same stream and exits as `pbem ingest`
    into a copy of the archive with no listener; the archives then hold the same rows, the same receipts among them.
    The listener's own log shows it handled each one."""
    served, piped = copy_of(made, tmp_path / "served"), copy_of(made, tmp_path / "piped")
    files = tmp_path / "mails"
    files.mkdir()
    forged = letter(2, "GAME rome1 TURN 1 PLAYER Macedonia PASSWORD forged99\nBUY 9 INF\n", "spy@example.net")
    (files / "forged.eml").write_bytes(forged)
    (files / "garbled.eml").write_bytes(b"\x00\x01 not a mail")
    password = made[1]["Macedonia"]
    big = letter(3, f"GAME rome1 TURN 1 PLAYER Macedonia PASSWORD {password}\n" + "# a long comment line\n" * 120_000)
    mails: list[bytes | Path] = [
        orders(made, 1),
        files / "forged.eml",
        big,
        orders(made, 1),
        files / "garbled.eml",
    ]
    with listening(served) as listener:
        assert (served / SOCKET_NAME).exists()
        handed = []
        for mail in mails:
            handed.append(ingest(served, mail))
            assert listener.line() == handed[-1].out.rstrip("\n")  # the listener handled it
        code, _ = listener.stop()
    assert code == 0 and not (served / SOCKET_NAME).exists()
    one_shot = [ingest(piped, mail) for mail in mails]
    assert handed == one_shot
    assert [ran.status for ran in one_shot] == [0, 0, 0, 0, 1]
    assert [ran.out for ran in one_shot] == [
        "<handoff1@players.example.org> from mac@example.org: orders stored\n",
        "<handoff2@players.example.org> from spy@example.net: refused: a wrong password\n",
        f"<handoff3@players.example.org> from mac@example.org: refused: the mail is {len(big)} bytes long, more "
        "than the 2048 KB a mail may have; it was not read\n",
        "<handoff1@players.example.org> from mac@example.org: duplicate\n",
        f"unreadable: {files / 'garbled.eml'}: not a mail message: it has no header fields\n",
    ]
    assert rows(served) == rows(piped)
    assert len(receipts(served)) >= 3  # the receipt, the forgery's warnings, the refusal


def test_without_a_listener_for_its_archive_ingest_handles_the_mail_itself(
    made: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    """A listener started with --no-handoff makes no socket; a listener for the same file named by another --db, a
    listener stopped between two mails (its socket removed, as with no listener) and one killed (its socket left
    behind): each mail is stored by `pbem ingest` itself, and no listener says anything of it. A handed mail's
    process loads none of the heavy libraries."""
    served = copy_of(made, tmp_path / "served")
    url = f"sqlite:///{served / 'archive.sqlite'}"
    mails = [orders(made, 10 + n, seat) for n, seat in enumerate(SEATS)]
    with listening(served, "--no-handoff") as listener:
        assert not (served / SOCKET_NAME).exists()
        assert listener.stop() == (0, "pbem serve: stopped\n")
    with listening(served) as listener:
        results = [ingest(served, mails[0], "--db", url)]  # the same file, but not the listener's archive
        code, out = listener.stop()  # between two mails
    assert (code, out) == (0, "pbem serve: stopped\n")
    results.append(ingest(served, mails[1]))
    with listening(served) as listener:
        listener.process.kill()
        listener.process.communicate()
    assert (served / SOCKET_NAME).exists()  # left by the killed listener: nobody answers on it
    results.append(ingest(served, mails[2]))
    assert results == [
        Ran(0, f"<handoff{10 + n}@players.example.org> from {address}: orders stored\n", "")
        for n, address in enumerate(SEATS.values())
    ]
    with listening(served) as listener:  # the next listener takes the socket over
        with socket.socket(socket.AF_UNIX) as stranger:  # not a hand-off request: handed back, nothing done
            stranger.connect(str(served / SOCKET_NAME))
            stranger.sendall(b"HELO example.org\r\n")
            stranger.shutdown(socket.SHUT_WR)
            assert stranger.recv(100) == b"BACK\n22\nnot a hand-off request"
        again = ingest(served, orders(made, 10), python=("-X", "importtime"))
        assert again.out == "<handoff10@players.example.org> from mac@example.org: duplicate\n"
        assert listener.line().endswith(": duplicate")
    # a handed mail's process loads no archive, mail parser, template or command-line library
    loaded = {line.rpartition("|")[2].strip().split(".")[0] for line in again.err.splitlines()}
    assert "socket" in loaded
    assert not loaded & {"sqlalchemy", "sqlmodel", "pydantic", "typer", "email", "jinja2", "lark", "babel"}


def test_a_locked_archive_gives_the_one_shot_answer(made: tuple[Path, dict[str, str]], tmp_path: Path) -> None:
    """Another writer holds the archive past the listener's --lock-wait: the listener hands the mail back, and `pbem
    ingest` waits for the lock as it does without a listener; once the writer is done, both store it alike."""
    served, piped = copy_of(made, tmp_path / "served"), copy_of(made, tmp_path / "piped")
    mail = orders(made, 20, "Egyptus")
    answers = []
    with listening(served, "--lock-wait", "0.2") as listener:
        for data in (served, piped):
            lock = sqlite3.connect(data / "archive.sqlite", isolation_level=None)
            lock.execute("BEGIN IMMEDIATE")  # another writer (a tick, say) holds the archive
            process = started(data, mail)
            if data == served:
                said = listener.line()
                assert said.startswith("<handoff20@players.example.org> from egy@example.org: handed back to pbem")
            lock.execute("ROLLBACK")
            lock.close()
            answers.append(finished(process))
        listener.stop()
    assert answers == [(0, "<handoff20@players.example.org> from egy@example.org: orders stored\n")] * 2
    assert rows(served) == rows(piped)


def test_a_listener_that_dies_with_the_mail_in_hand_loses_nothing(
    made: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    """The listener is killed while the handed mail waits for the archive's lock: `pbem ingest` sees it go and
    handles the mail itself; it is stored once, as without a listener."""
    served, piped = copy_of(made, tmp_path / "served"), copy_of(made, tmp_path / "piped")
    mail = orders(made, 30, "Hispania")
    with listening(served, "--lock-wait", "60") as listener:
        lock = sqlite3.connect(served / "archive.sqlite", isolation_level=None)
        lock.execute("BEGIN IMMEDIATE")
        pid = listener.process.pid
        idle = threads(pid)
        process = started(served, mail)
        deadline = time.monotonic() + 30
        while threads(pid) == idle and time.monotonic() < deadline:  # its worker thread starts with the mail
            time.sleep(0.01)
        assert threads(pid) > idle, "the listener never took the mail"
        listener.process.kill()
        listener.process.communicate()
        lock.execute("ROLLBACK")
        lock.close()
        answer = finished(process)
    assert answer == (0, "<handoff30@players.example.org> from his@example.org: orders stored\n")
    assert ingest(piped, mail).out == answer[1]
    assert rows(served) == rows(piped)


def test_on_postgresql_ingest_hands_its_mail_to_the_listener_of_the_same_database(
    postgres_server: tuple[str | None, str], tmp_path: Path
) -> None:
    """A listener and `pbem ingest` on one PostgreSQL database (the same --db): orders and a forged password are
    handed over, answered and stored as by `pbem ingest` alone."""
    server, trouble = postgres_server
    if server is None and os.environ.get("CI"):
        pytest.fail(f"PostgreSQL tests need a server in CI: {trouble}")
    if server is None:
        pytest.skip(f"PostgreSQL tests need a server: {trouble}")
    with fresh_database(server) as url:
        archive = Archive(url)
        options = NewGameOptions("rome1", "coe-classic", SEATS, mail={"moderator": "gm@example.org"})
        password = new_game(archive, tmp_path, options).passwords["Macedonia"]
        archive.close()
        mails = [
            letter(40, f"GAME rome1 TURN 1 PLAYER Macedonia PASSWORD {password}\nBUY 1 INF\n"),
            letter(41, "GAME rome1 TURN 1 PLAYER Macedonia PASSWORD forged99\nBUY 9 INF\n", "spy@example.net"),
        ]
        with listening(tmp_path, "--db", url) as listener:
            handed = [ingest(tmp_path, mail, "--db", url) for mail in mails]
            said = [listener.line() for _ in mails]
            listener.stop()
        archive = Archive(url)
        stored = [row[1] for table, row in archive.dump() if table == "message"]
        archive.close()
    assert handed == [
        Ran(0, "<handoff40@players.example.org> from mac@example.org: orders stored\n", ""),
        Ran(0, "<handoff41@players.example.org> from spy@example.net: refused: a wrong password\n", ""),
    ]
    assert said == [ran.out.rstrip("\n") for ran in handed]
    assert stored == ["<handoff40@players.example.org>", "<handoff41@players.example.org>"]


def test_a_listener_that_takes_the_mail_and_stalls_makes_ingest_exit_75_and_loses_nothing(
    made: tuple[Path, dict[str, str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The listener is stopped (SIGSTOP) once up: the mail is sent but no answer comes within the wait (shortened
    here from ten minutes), so the hand-off ends with EX_TEMPFAIL (75), which the mail filter retries. The listener,
    running again, stores the mail it was sent; the filter's retry is then a duplicate: stored once, never lost."""
    served = copy_of(made, tmp_path / "served")
    path = tmp_path / "mail.eml"
    path.write_bytes(orders(made, 50))
    monkeypatch.setattr(handoff, "ANSWER_SECONDS", 1.0)
    with listening(served) as listener:
        listener.process.send_signal(signal.SIGSTOP)
        try:
            stalled = handoff.hand_off(served, None, path)
        finally:
            listener.process.send_signal(signal.SIGCONT)
        assert listener.line() == "<handoff50@players.example.org> from mac@example.org: orders stored"
        retried = ingest(served, path)
        listener.stop()
    assert stalled == handoff.Handed(
        75,
        "",
        f"error: the listener on {served / SOCKET_NAME} took the mail but did not answer in 1 s; the mail filter "
        "tries again later",
    )
    assert retried == Ran(0, "<handoff50@players.example.org> from mac@example.org: duplicate\n", "")
