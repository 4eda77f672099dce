"""`pbem serve`, the LMTP listener: a real `pbem serve` process on loopback (TCP, and a Unix socket) takes mails
from Python's LMTP client, and everything it stores and queues is what `pbem ingest` stores and queues for the same
mails delivered one by one into a copy of the same archive; a locked archive defers a mail (4xx) with nothing
stored; SIGTERM stops the listener after the mail in hand, with exit status 0; Dovecot's LMTP proxy delivers to it.

One real Classic game is made for the module; each test works on copies of its SQLite archive."""

from __future__ import annotations

import grp
import os
import pwd
import re
import shutil
import signal
import smtplib
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from sqlalchemy import text
from typer.testing import CliRunner

from adjudicator.archive import Archive
from adjudicator.archive.store import close_archives
from adjudicator.cli import app
from adjudicator.services.games import NewGameOptions, new_game
from tests import served_game
from tests.postgres import fresh_database
from tests.served_game import SEATS, STAMP, copy_of, made_game


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    return made_game(tmp_path_factory.mktemp("serve"))


def letter(number: int, body: str, sender: str = "mac@example.org", **fields: str) -> bytes:
    return served_game.letter("serve", number, body, sender, **fields)


@dataclass
class Listener:
    process: subprocess.Popen[str]
    address: str  # what it printed: "127.0.0.1:PORT" or "unix socket PATH"

    def client(self) -> smtplib.LMTP:
        """An LMTP client that has greeted the listener (LHLO)."""
        if self.address.startswith("unix socket "):
            client = smtplib.LMTP(self.address.removeprefix("unix socket "))
        else:
            host, port = self.address.rsplit(":", 1)
            client = smtplib.LMTP(host, int(port))
        client.ehlo()
        return client

    def stop(self, how: signal.Signals = signal.SIGTERM) -> tuple[int, str, str]:
        """SIGTERM (or SIGINT, Ctrl-C); its exit status and everything it printed."""
        self.process.send_signal(how)
        out, err = self.process.communicate(timeout=20)
        return self.process.returncode, out, err


@contextmanager
def listening(data: Path, *options: str) -> Iterator[Listener]:
    """A real `pbem serve` process on the archive in `data` (a free port unless --socket is given)."""
    where = list(options) if "--socket" in options else ["--port", "0", *options]
    command = [sys.executable, "-m", "adjudicator.cli", "serve", "--data", str(data), *where]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = process.stdout.readline() if process.stdout else ""
        found = re.match(r"pbem serve: listening on (.+) \(LMTP\), pid \d+$", first.strip())
        assert found, f"pbem serve did not start: {first}{process.stderr.read() if process.stderr else ''}"
        yield Listener(process, found.group(1))
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()


def wire(mail: bytes) -> bytes:
    """The mail as SMTP carries it: CRLF line ends (a mail server pipes it to `pbem ingest` with LF)."""
    return mail.replace(b"\n", b"\r\n")


def ingested(data: Path, mail: bytes) -> tuple[int, str]:
    """`pbem ingest` of one mail from stdin (as from .forward): its exit status and what it printed."""
    result = CliRunner().invoke(app, ["ingest", "--data", str(data)], input=mail)
    close_archives()
    return result.exit_code, result.output


def rows(data: Path) -> list[tuple[str, tuple[object, ...]]]:
    """Every row of the archive, its timestamps masked (the two deliveries are seconds apart)."""
    archive = Archive.in_folder(data)
    try:
        dump = archive.dump()
    finally:
        archive.close()
    return [(table, tuple(STAMP.sub("<time>", v) if isinstance(v, str) else v for v in row)) for table, row in dump]


def test_mails_in_one_session_are_stored_and_answered_as_ingest_does(
    made: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    """Orders (stored, receipt queued), a forged password (the seat and the moderator told), orders not understood,
    the same mail again, an unreadable mail, a mail over the 2 MB read (refused unread, the seat told), and a mail to
    two recipients (LMTP answers once per recipient after
    DATA: one is taken, the other deferred with 452 and sent again, a duplicate then): one LMTP session; `pbem
    ingest` of each delivery into a copy of the archive stores the same rows and prints the same lines."""
    served, piped = copy_of(made, tmp_path / "served"), copy_of(made, tmp_path / "piped")
    password = made[1]["Macedonia"]
    mails = [
        letter(1, f"GAME rome1 TURN 1 PLAYER Macedonia PASSWORD {password}\nBUY 1 INF\n"),
        letter(2, "GAME rome1 TURN 1 PLAYER Macedonia PASSWORD forged99\nBUY 9 INF\n", sender="spy@example.net"),
        letter(3, f"GAME rome1 TURN 1 PLAYER Macedonia PASSWORD {password}\nMARCH everywhere at once\n"),
        letter(1, f"GAME rome1 TURN 1 PLAYER Macedonia PASSWORD {password}\nBUY 1 INF\n"),
        b"this is not a mail\nat all\n",
        letter(4, f"GAME rome1 TURN 1 PLAYER Macedonia PASSWORD {password}\n" + "# a long comment line\n" * 120_000),
    ]
    egyptus = f"GAME rome1 TURN 2 PLAYER Egyptus PASSWORD {made[1]['Egyptus']}\nBUY 1 INF\n"
    both = letter(5, egyptus, "egy@example.org")
    with listening(served) as listener:
        client = listener.client()
        replies = []
        for mail in mails:
            client.mail("player@example.org")
            client.rcpt("pbem@example.org")
            replies.append(client.data(wire(mail)))
        # a mail larger than any taken (32 MB) is refused before its data is sent, when the client says its size
        assert client.mail("egy@example.org", ["SIZE=40000000"])[0] == 552
        client.rset()
        refused = client.sendmail("egy@example.org", ["pbem@example.org", "orders@example.org"], wire(both))
        again = client.sendmail("egy@example.org", ["orders@example.org"], wire(both))  # the mail server's retry
        client.quit()
        code, out, _ = listener.stop()
    assert code == 0
    assert [reply[0] for reply in replies] == [250, 250, 250, 250, 550, 250]
    assert replies[4][1].startswith(b"5.6.0 unreadable: not a mail message")
    assert refused == {"orders@example.org": (452, b"4.5.3 one recipient per delivery; send the others again")}
    assert again == {}

    piped_out = []
    for mail in [*mails, both, both]:
        status, printed = ingested(piped, mail)
        assert status == (1 if mail is mails[4] else 0)  # ingest of one unreadable mail fails; nothing stored
        piped_out.append(printed.strip())
    served_out = out.splitlines()[:-1]  # after "listening on" (read at the start), before "stopped"
    assert piped_out[:4] + piped_out[5:] == [
        "<serve1@players.example.org> from mac@example.org: orders stored",
        "<serve2@players.example.org> from spy@example.net: refused: a wrong password",
        "<serve3@players.example.org> from mac@example.org: orders not understood",
        "<serve1@players.example.org> from mac@example.org: duplicate",
        f"<serve4@players.example.org> from mac@example.org: refused: the mail is {len(mails[5])} bytes long, more "
        "than the 2048 KB a mail may have; it was not read",
        "<serve5@players.example.org> from egy@example.org: orders stored",
        "<serve5@players.example.org> from egy@example.org: duplicate",
    ]
    assert served_out[:4] + served_out[5:] == piped_out[:4] + piped_out[5:]
    # the unreadable mail: the same reason, each naming where it came from
    assert served_out[4].startswith("unreadable: LMTP from 127.0.0.1:") and piped_out[4].startswith("unreadable: stdin")
    assert served_out[4].split(": ", 2)[2] == piped_out[4].split(": ", 2)[2]
    assert rows(served) == rows(piped)
    assert len(rows(served)) > len(rows(made[0]))  # stored: the mails, 2 order sets, the answers


def test_a_unix_socket_listener_takes_mail_on_two_connections_at_once(
    made: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    """Postfix's lmtp:unix: delivers to a socket, over several connections at once: two connections deliver the same
    three mails together (two workers), and each is stored once, as by `pbem ingest`, the other copy a duplicate. A
    second listener on the same path is refused clearly; the socket is removed at the stop."""
    served, piped = copy_of(made, tmp_path / "served"), copy_of(made, tmp_path / "piped")
    path = tmp_path / "lmtp.sock"
    seats = [("Macedonia", 1, "mac@example.org"), ("Egyptus", 2, "egy@example.org"), ("Hispania", 3, "his@example.org")]
    mails = [
        letter(10 + n, f"GAME rome1 TURN {turn} PLAYER {seat} PASSWORD {made[1][seat]}\nBUY 1 INF\n", address)
        for n, (seat, turn, address) in enumerate(seats)
    ]
    with listening(served, "--socket", str(path), "--workers", "2") as listener:
        assert listener.address == f"unix socket {path}"
        clients = [listener.client(), listener.client()]
        refused: list[dict[str, tuple[int, bytes]]] = []

        def deliver(client: smtplib.LMTP) -> None:
            refused.extend(client.sendmail("player@example.org", ["pbem@example.org"], wire(m)) for m in mails)

        senders = [threading.Thread(target=deliver, args=(client,)) for client in clients]
        for sender in senders:
            sender.start()
        for sender in senders:
            sender.join(timeout=60)
        for client in clients:
            client.quit()
        second = subprocess.run(
            [sys.executable, "-m", "adjudicator.cli", "serve", "--socket", str(path), "--data", str(served)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        code, out, _ = listener.stop()
    assert (second.returncode, second.stderr) == (1, f"error: another listener is on {path}\n")
    assert code == 0 and not path.exists()
    assert refused == [{}] * 6
    lines = out.splitlines()[:-1]
    for n, (_, _, address) in enumerate(seats):
        named = f"<serve{10 + n}@players.example.org> from {address}: "
        said = sorted(line.removeprefix(named) for line in lines if line.startswith(named))
        assert said == ["duplicate", "orders stored"]
    assert [ingested(piped, mail)[0] for mail in mails] == [0, 0, 0]
    assert rows(served) == rows(piped)


def test_a_mail_while_the_archive_is_locked_is_deferred_with_nothing_stored(
    made: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    served = copy_of(made, tmp_path / "served")
    mail = letter(7, f"GAME rome1 TURN 2 PLAYER Egyptus PASSWORD {made[1]['Egyptus']}\nBUY 1 INF\n", "egy@example.org")
    before = rows(served)
    with listening(served, "--lock-wait", "0.5") as listener:
        lock = sqlite3.connect(served / "archive.sqlite", isolation_level=None)
        lock.execute("BEGIN IMMEDIATE")  # another writer (a tick, say) holds the archive
        client = listener.client()
        client.mail("egy@example.org")
        client.rcpt("pbem@example.org")
        code, text = client.data(wire(mail))
        assert (code, text) == (451, b"4.3.0 the archive is busy or unreachable; try again later")
        assert rows_while_locked(served) == before  # nothing of it, not even its Message-ID
        lock.execute("ROLLBACK")
        lock.close()
        assert client.sendmail("egy@example.org", ["pbem@example.org"], wire(mail)) == {}  # the mail server's retry
        client.quit()
        status, out, _ = listener.stop(signal.SIGINT)
    assert status == 0
    assert out.splitlines()[0].startswith("<serve7@players.example.org> from egy@example.org: not taken, try again")
    assert out.splitlines()[1] == "<serve7@players.example.org> from egy@example.org: orders stored"
    assert len(rows(served)) > len(before)


def rows_while_locked(data: Path) -> list[tuple[str, tuple[object, ...]]]:
    """The rows as a reader sees them beside the writer's lock (SQLite readers are not blocked by it)."""
    connection = sqlite3.connect(data / "archive.sqlite")
    try:
        names = [r[0] for r in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        dump = [(n, tuple(r)) for n in sorted(names) for r in connection.execute(f'SELECT * FROM "{n}" ORDER BY 1')]
    finally:
        connection.close()
    return [(t, tuple(STAMP.sub("<time>", v) if isinstance(v, str) else v for v in r)) for t, r in dump]


def threads(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/task"))


def test_sigterm_finishes_the_mail_in_hand_then_exits_0(made: tuple[Path, dict[str, str]], tmp_path: Path) -> None:
    """A mail waits for the archive's lock when SIGTERM comes: it is still stored and answered 250; new connections
    are refused meanwhile, and the listener exits 0."""
    served = copy_of(made, tmp_path / "served")
    mail = letter(8, f"GAME rome1 TURN 1 PLAYER Macedonia PASSWORD {made[1]['Macedonia']}\nBUY 1 INF\n")
    with listening(served, "--lock-wait", "20") as listener:
        lock = sqlite3.connect(served / "archive.sqlite", isolation_level=None)
        lock.execute("BEGIN IMMEDIATE")
        client = listener.client()
        reply: list[tuple[int, bytes]] = []
        client.mail("mac@example.org")
        client.rcpt("pbem@example.org")
        pid = listener.process.pid
        idle = threads(pid)
        sender = threading.Thread(target=lambda: reply.append(client.data(wire(mail))))
        sender.start()
        deadline = time.monotonic() + 20
        while threads(pid) == idle and time.monotonic() < deadline:  # its worker thread starts with the first mail
            time.sleep(0.01)
        listener.process.send_signal(signal.SIGTERM)
        host_port = listener.address
        refused = False
        for _ in range(200):  # the listening socket closes at once; the mail in hand keeps the process alive
            try:
                smtplib.LMTP(*host_port.rsplit(":", 1)).close()
            except OSError:
                refused = True
                break
            time.sleep(0.01)
        lock.execute("ROLLBACK")
        lock.close()
        sender.join(timeout=20)
        out, _ = listener.process.communicate(timeout=20)
        code = listener.process.returncode
    assert refused
    assert reply == [(250, b"2.0.0 taken")]
    assert code == 0
    assert out.splitlines() == [
        "<serve8@players.example.org> from mac@example.org: orders stored",
        "pbem serve: stopped",
    ]


def test_on_postgresql_a_locked_game_defers_the_mail_and_the_retry_is_stored(
    postgres_server: tuple[str | None, str], tmp_path: Path
) -> None:
    """On PostgreSQL the game's row lock (a tick holds it) makes a mail wait at most --lock-wait, then 451."""
    server, trouble = postgres_server
    if server is None and os.environ.get("CI"):
        pytest.fail(f"PostgreSQL tests need a server in CI: {trouble}")
    if server is None:
        pytest.skip(f"PostgreSQL tests need a server: {trouble}")
    with fresh_database(server) as url:
        archive = Archive(url)
        options = NewGameOptions("rome1", "coe-classic", SEATS, mail={"moderator": "gm@example.org"})
        password = new_game(archive, tmp_path, options).passwords["Macedonia"]
        mail = letter(9, f"GAME rome1 TURN 1 PLAYER Macedonia PASSWORD {password}\nBUY 1 INF\n")
        before = archive.dump()
        with listening(tmp_path, "--db", url, "--lock-wait", "0.5") as listener:
            with archive.engine.connect() as holder:
                holder.execute(text("SELECT id FROM game WHERE name = 'rome1' FOR UPDATE"))
                client = listener.client()
                client.mail("mac@example.org")
                client.rcpt("pbem@example.org")
                assert client.data(wire(mail)) == (451, b"4.3.0 the archive is busy or unreachable; try again later")
                holder.rollback()
            assert archive.dump() == before
            assert client.sendmail("mac@example.org", ["pbem@example.org"], wire(mail)) == {}
            client.quit()
            code, out, _ = listener.stop()
        stored = archive.dump()
        archive.close()
    assert code == 0
    assert "canceling statement due to lock timeout" in out.splitlines()[0]
    assert out.splitlines()[1] == "<serve9@players.example.org> from mac@example.org: orders stored"
    assert [row for table, row in stored if table == "message"][0][1] == "<serve9@players.example.org>"


def dovecot_proxy_config(work: Path, run_as: pwd.struct_passwd, port: int) -> str:
    """Dovecot (2.3) with only its LMTP server, on loopback, which proxies every recipient its passdb names."""
    return f"""
protocols = lmtp
listen = 127.0.0.1
base_dir = {work}/run
state_dir = {work}/state
log_path = {work}/dovecot.log
default_internal_user = {run_as.pw_name}
default_internal_group = {grp.getgrgid(run_as.pw_gid).gr_name}
default_login_user = {run_as.pw_name}
first_valid_uid = {run_as.pw_uid}
ssl = no
lmtp_proxy = yes
service lmtp {{
  inet_listener lmtp {{
    address = 127.0.0.1
    port = {port}
  }}
}}
service anvil {{
  chroot =
}}
passdb {{
  driver = passwd-file
  args = {work}/passwd
}}
userdb {{
  driver = static
  args = uid={run_as.pw_uid} gid={run_as.pw_gid} home={work}/home
}}
"""


def test_dovecot_delivers_to_the_listener_through_its_lmtp_proxy(
    made: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    """The moderator's guide's Dovecot set-up, run: Dovecot's LMTP server takes the mail for the game address and
    hands it on to `pbem serve` (its passdb entry: proxy=y host=127.0.0.1 port=...); the listener stores it."""
    binary = shutil.which("dovecot") or shutil.which("dovecot", path="/usr/sbin:/usr/local/sbin")
    if binary is None or not Path("/usr/lib/dovecot/lmtp").exists():
        missing = "Dovecot's LMTP server is not installed (apt-get install dovecot-lmtpd)"
        if os.environ.get("CI"):
            pytest.fail(missing)
        pytest.skip(missing)
    version = subprocess.run([binary, "--version"], capture_output=True, text=True).stdout.split()[0]
    if tuple(int(p) for p in version.split(".")[:2]) >= (2, 4):
        pytest.skip(f"the configuration here is Dovecot 2.3's, not {version}'s")
    run_as = pwd.getpwuid(os.geteuid()) if os.geteuid() else pwd.getpwnam("dovecot")
    # as root, the unprivileged server cannot reach pytest's private tmp_path: a folder it owns
    work = Path(tempfile.mkdtemp(prefix="pbem-dovecot-lmtp-"))
    served = copy_of(made, tmp_path / "served")
    mail = letter(20, f"GAME rome1 TURN 1 PLAYER Macedonia PASSWORD {made[1]['Macedonia']}\nBUY 1 INF\n")
    dovecot: subprocess.Popen[bytes] | None = None
    try:
        with listening(served) as listener:
            for sub in ("run", "state", "home"):
                (work / sub).mkdir()
            port = free_port()
            listener_port = listener.address.rsplit(":", 1)[1]
            # passwd-file: user:password:uid:gid:gecos:home:shell:extra fields
            (work / "passwd").write_text(f"pbem@example.org:::::::proxy=y host=127.0.0.1 port={listener_port}\n")
            (work / "dovecot.conf").write_text(dovecot_proxy_config(work, run_as, port))
            for path in [work, *work.rglob("*")]:
                os.chown(path, run_as.pw_uid, run_as.pw_gid)
            extra = {"user": run_as.pw_uid, "group": run_as.pw_gid, "extra_groups": []} if os.geteuid() == 0 else {}
            dovecot = subprocess.Popen(
                [binary, "-F", "-c", str(work / "dovecot.conf")],
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                **extra,  # type: ignore[call-overload]
            )
            client = connected_when_up(port, dovecot, work / "dovecot.log")
            assert client.sendmail("mac@example.org", ["pbem@example.org"], wire(mail)) == {}
            client.quit()
            code, out, _ = listener.stop()
        log = (work / "dovecot.log").read_text()
    finally:
        if dovecot is not None:
            dovecot.terminate()
            dovecot.wait(timeout=20)
        shutil.rmtree(work, ignore_errors=True)
    assert code == 0
    assert out.splitlines()[0] == "<serve20@players.example.org> from mac@example.org: orders stored"
    assert "250 2.0.0 taken" in log  # Dovecot's log of the proxied delivery: the listener's answer


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def connected_when_up(port: int, server: subprocess.Popen[bytes], log: Path) -> smtplib.LMTP:
    """An LMTP client of the server once it listens (it starts in well under a second; 30 s at most)."""
    deadline = time.monotonic() + 30
    while True:
        if server.poll() is not None:
            output = server.stdout.read().decode(errors="replace") if server.stdout else ""
            shown = log.read_text() if log.exists() else ""
            pytest.fail(f"dovecot stopped (exit {server.returncode}): {output}{shown}")
        try:
            client = smtplib.LMTP("127.0.0.1", port)
        except OSError:
            if time.monotonic() > deadline:
                pytest.fail("dovecot did not listen within 30 s")
            time.sleep(0.05)
            continue
        client.ehlo()
        return client
