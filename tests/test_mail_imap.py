"""IMAP over TLS against a real Dovecot on loopback: unseen mail is fetched without being marked, then marked seen.

The test starts its own Dovecot (Debian: apt-get install dovecot-imapd) with a minimal configuration, a self-signed
certificate and one user whose mail is a Maildir. Without Dovecot the tests are skipped, or fail when CI is set.
"""

from __future__ import annotations

import grp
import imaplib
import os
import pwd
import shutil
import socket
import ssl
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path
from typing import NoReturn

import pytest

from adjudicator.mail import Incoming, MailError, MailSourceError, from_imap

USER, PASSWORD = "player", "s3cret-Passw0rd"
HEADER = "GAME rome1 TURN 3 PLAYER Egyptus PASSWORD s3cret"


def unavailable(reason: str) -> NoReturn:
    """Skip without Dovecot on a developer machine; in CI (CI set) its absence is a failure."""
    if os.environ.get("CI"):
        pytest.fail(f"IMAP test needs Dovecot in CI: {reason}", pytrace=False)
    pytest.skip(f"IMAP test needs Dovecot: {reason}")


@dataclass
class Dovecot:
    """A running Dovecot: where it listens, who may log in, where the mail is."""

    process: subprocess.Popen[bytes]
    tls_port: int
    starttls_port: int
    maildir: Path
    cafile: Path
    log: Path
    owner: tuple[int, int]  # uid, gid of the mail files
    delivered: int = 0

    def context(self) -> ssl.SSLContext:
        """A client TLS context that trusts the test certificate (and verifies it)."""
        return ssl.create_default_context(cafile=str(self.cafile))

    def deliver(self, message: EmailMessage | bytes) -> None:
        """Deliver as an MTA would: write into tmp/, then move into new/ (every other one with CRLF line ends)."""
        data = message if isinstance(message, bytes) else message.as_bytes()
        self.delivered += 1
        name = f"{int(time.time())}.P{os.getpid()}Q{self.delivered}.pbem-test"
        tmp = self.maildir / "tmp" / name
        tmp.write_bytes(data.replace(b"\n", b"\r\n") if self.delivered % 2 else data)
        if os.geteuid() == 0:
            os.chown(tmp, *self.owner)
        tmp.rename(self.maildir / "new" / name)

    def flags(self) -> dict[str, set[str]]:
        """Message-ID -> its flags and keywords, read over a separate read-only (EXAMINE) connection."""
        conn = imaplib.IMAP4_SSL("127.0.0.1", self.tls_port, ssl_context=self.context(), timeout=30)
        try:
            conn.login(USER, PASSWORD)
            conn.select("INBOX", readonly=True)
            typ, data = conn.uid("FETCH", "1:*", "(FLAGS BODY.PEEK[HEADER.FIELDS (MESSAGE-ID)])")
            assert typ == "OK", data
            found = {}
            for item in data:
                if isinstance(item, tuple):
                    meta, header = item[0].decode(), item[1].decode()
                    listed = meta[meta.index("FLAGS (") + 7 : meta.index(")", meta.index("FLAGS ("))]
                    found[header.partition(":")[2].strip() or "(none)"] = set(listed.split())
            return found
        finally:
            conn.logout()

    def seen(self) -> dict[str, bool]:
        """Message-ID -> whether it has the \\Seen flag."""
        return {mid: "\\Seen" in listed for mid, listed in self.flags().items()}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def make_certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for localhost and 127.0.0.1, valid for a day."""
    cert, key = folder / "cert.pem", folder / "key.pem"
    openssl = shutil.which("openssl")
    if openssl is None:
        unavailable("openssl is not installed (it makes the test certificate)")
    subprocess.run(
        [openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost", "-days", "1",
         "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    return cert, key


def dovecot_config(work: Path, user: pwd.struct_passwd, version: str, tls_port: int, starttls_port: int) -> str:
    """A minimal configuration: IMAP on loopback, TLS required, one passwd-file user with a Maildir."""
    common = f"""
protocols = imap
listen = 127.0.0.1
base_dir = {work}/run
state_dir = {work}/state
log_path = {work}/dovecot.log
default_internal_user = {user.pw_name}
default_internal_group = {grp.getgrgid(user.pw_gid).gr_name}
default_login_user = {user.pw_name}
first_valid_uid = {user.pw_uid}
first_valid_gid = {user.pw_gid}
ssl = required
auth_mechanisms = plain
auth_failure_delay = 0
service imap-login {{
  chroot =
  inet_listener imap {{
    address = 127.0.0.1
    port = {starttls_port}
  }}
  inet_listener imaps {{
    address = 127.0.0.1
    port = {tls_port}
    ssl = yes
  }}
}}
service anvil {{
  chroot =
}}
"""
    if tuple(int(p) for p in version.split(".")[:2]) >= (2, 4):  # the 2.4 setting names
        return f"""dovecot_config_version = {".".join(version.split(".")[:3])}
dovecot_storage_version = {".".join(version.split(".")[:3])}
{common}
ssl_server_cert_file = {work}/cert.pem
ssl_server_key_file = {work}/key.pem
passdb passwd-file {{
  passwd_file_path = {work}/passwd
}}
userdb static {{
  fields {{
    uid = {user.pw_uid}
    gid = {user.pw_gid}
    home = {work}/home
  }}
}}
mail_driver = maildir
mail_path = {work}/Maildir
"""
    return f"""{common}
ssl_cert = <{work}/cert.pem
ssl_key = <{work}/key.pem
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {work}/passwd
}}
userdb {{
  driver = static
  args = uid={user.pw_uid} gid={user.pw_gid} home={work}/home
}}
mail_location = maildir:{work}/Maildir
"""


def _run_user() -> pwd.struct_passwd:
    """Who runs Dovecot: the current user; as root an unprivileged one (Dovecot serves no mail as root)."""
    if os.geteuid() != 0:
        return pwd.getpwuid(os.geteuid())
    for name in ("dovecot", "nobody"):
        try:
            return pwd.getpwnam(name)
        except KeyError:
            continue
    unavailable("running as root, and there is no 'dovecot' or 'nobody' user to run Dovecot as")


@pytest.fixture
def dovecot(tmp_path: Path) -> Iterator[Dovecot]:
    """A Dovecot of our own on two free loopback ports, stopped afterwards."""
    binary = shutil.which("dovecot") or shutil.which("dovecot", path="/usr/sbin:/usr/local/sbin")
    if binary is None:
        unavailable("the dovecot program is not installed (apt-get install dovecot-imapd)")
    version = subprocess.run([binary, "--version"], capture_output=True, text=True).stdout.split()[0]
    user = _run_user()
    # As root, the unprivileged server cannot reach pytest's private tmp_path: use a folder it owns.
    work = Path(tempfile.mkdtemp(prefix="pbem-dovecot-")) if os.geteuid() == 0 else tmp_path / "dovecot"
    work.mkdir(exist_ok=True)
    process: subprocess.Popen[bytes] | None = None
    try:
        for sub in ("run", "state", "home", "Maildir/new", "Maildir/cur", "Maildir/tmp"):
            (work / sub).mkdir(parents=True)
        cert, _ = make_certificate(work)
        (work / "passwd").write_text(f"{USER}:{{PLAIN}}{PASSWORD}::::::\n")
        tls_port, starttls_port = free_port(), free_port()
        (work / "dovecot.conf").write_text(dovecot_config(work, user, version, tls_port, starttls_port))
        if os.geteuid() == 0:
            for path in [work, *work.rglob("*")]:
                os.chown(path, user.pw_uid, user.pw_gid)
        extra = {"user": user.pw_uid, "group": user.pw_gid, "extra_groups": []} if os.geteuid() == 0 else {}
        process = subprocess.Popen(
            [binary, "-F", "-c", str(work / "dovecot.conf")],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            **extra,  # type: ignore[call-overload]
        )
        server = Dovecot(process, tls_port, starttls_port, work / "Maildir", cert, work / "dovecot.log",
                         (user.pw_uid, user.pw_gid))  # fmt: skip
        _wait_until_listening(server)
        yield server
    finally:
        if process is not None:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if os.geteuid() == 0:
            shutil.rmtree(work, ignore_errors=True)


def _wait_until_listening(server: Dovecot, seconds: float = 20.0) -> None:
    """Wait until both ports accept connections; say why not when Dovecot stops or takes too long."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            output = server.process.stdout.read().decode(errors="replace") if server.process.stdout else ""
            unavailable(f"dovecot stopped at once (exit {server.process.returncode}): {output}{_log(server)}")
        try:
            for port in (server.tls_port, server.starttls_port):
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    unavailable(f"dovecot did not listen within {seconds} s{_log(server)}")


def _log(server: Dovecot) -> str:
    return f"\n{server.log.read_text(errors='replace')[-3000:]}" if server.log.exists() else ""


def order_mail(n: int, seat: str) -> EmailMessage:
    m = EmailMessage()
    m["From"] = f"{seat} Player <{seat.upper()}@Example.org>"
    m["To"] = "moderator@example.net"
    m["Subject"] = f"orders {n}"
    m["Message-ID"] = f"<orders-{n}@example.org>"
    m.set_content(f"Hello,\n\n{HEADER}\nMOVE G1 WITH 2 INF: Ägypten -> ALX\n\n-- \n{seat}\n", cte="quoted-printable")
    return m


def test_unseen_mail_is_fetched_over_tls_and_marked_seen_only_by_mark_done(dovecot: Dovecot) -> None:
    dovecot.deliver(order_mail(1, "Egyptus"))
    dovecot.deliver(order_mail(2, "Hispania"))
    assert dovecot.seen() == {"<orders-1@example.org>": False, "<orders-2@example.org>": False}

    got = []
    for delivery in from_imap("127.0.0.1", dovecot.tls_port, USER, PASSWORD, ssl_context=dovecot.context()):
        got.append(delivery)
        assert dovecot.seen()[delivery.incoming_or_error.message_id] is False  # BODY.PEEK: still unseen
    incoming = [d.incoming_or_error for d in got]
    assert all(isinstance(i, Incoming) for i in incoming)
    assert [(i.message_id, i.sender, i.text) for i in incoming if isinstance(i, Incoming)] == [
        ("<orders-1@example.org>", "egyptus@example.org", f"{HEADER}\nMOVE G1 WITH 2 INF: Ägypten -> ALX"),
        ("<orders-2@example.org>", "hispania@example.org", f"{HEADER}\nMOVE G1 WITH 2 INF: Ägypten -> ALX"),
    ]
    assert set(dovecot.seen().values()) == {False}

    got[0].mark_done()  # after the iterator ended: it logs in again for this
    assert dovecot.seen() == {"<orders-1@example.org>": True, "<orders-2@example.org>": False}

    again = list(from_imap("127.0.0.1", dovecot.tls_port, USER, PASSWORD, ssl_context=dovecot.context()))
    assert [d.incoming_or_error.message_id for d in again] == ["<orders-2@example.org>"]

    for delivery in from_imap(
        "127.0.0.1", dovecot.starttls_port, USER, PASSWORD, ssl_context=dovecot.context(), starttls=True
    ):
        delivery.mark_done()  # while the connection is open, as the mail loop does after its commit
        delivery.mark_done()
    assert dovecot.seen() == {"<orders-1@example.org>": True, "<orders-2@example.org>": True}
    assert list(from_imap("127.0.0.1", dovecot.tls_port, USER, PASSWORD, ssl_context=dovecot.context())) == []


def test_garbage_over_imap_is_a_mail_error_naming_the_uid(dovecot: Dovecot) -> None:
    dovecot.deliver(b"\x00\x01 this is not a mail \xff\n")
    [(error, mark_done)] = list(from_imap("127.0.0.1", dovecot.tls_port, USER, PASSWORD, ssl_context=dovecot.context()))
    assert isinstance(error, MailError) and "UID 1" in str(error) and "no header fields" in str(error)
    mark_done()  # the caller files the bad mail too, so it is not read again
    assert list(from_imap("127.0.0.1", dovecot.tls_port, USER, PASSWORD, ssl_context=dovecot.context())) == []


def test_imap_refuses_an_untrusted_certificate_a_wrong_password_and_a_missing_mailbox(dovecot: Dovecot) -> None:
    with pytest.raises(MailSourceError, match="certificate verify failed"):
        list(from_imap("127.0.0.1", dovecot.tls_port, USER, PASSWORD))  # the system trust store
    with pytest.raises(MailSourceError, match="cannot open the mailbox"):
        list(from_imap("127.0.0.1", dovecot.tls_port, USER, PASSWORD, "No Such Box", ssl_context=dovecot.context()))
    with pytest.raises(MailSourceError, match="cannot connect"):
        list(from_imap("127.0.0.1", free_port(), USER, PASSWORD, ssl_context=dovecot.context(), timeout=5))
    # last: after a failed login Dovecot delays further logins from the address
    with pytest.raises(MailSourceError, match="login failed"):
        list(from_imap("127.0.0.1", dovecot.tls_port, USER, "wrong", ssl_context=dovecot.context()))


@pytest.mark.usefixtures("database")  # on SQLite and PostgreSQL
def test_pbem_ingest_imap_stores_orders_and_marks_them_seen_after_the_commit(
    dovecot: Dovecot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from typer.testing import CliRunner

    from adjudicator.cli import app

    runner = CliRunner()
    data = str(tmp_path / "data")
    created = runner.invoke(
        app, ["new", "nile", "--seat", "Egyptus=egy@example.org", "--seat", "Hispania=his@example.org", "--data", data]
    )
    assert created.exit_code == 0, created.output
    password = next(line.split()[1] for line in created.output.splitlines() if line.split()[:1] == ["Egyptus"])
    message = EmailMessage()
    message["From"] = "Egyptus <egy@example.org>"
    message["To"] = "moderator@example.net"
    message["Subject"] = "my orders"
    message["Message-ID"] = "<nile-1@example.org>"
    message.set_content(f"GAME nile TURN 1 PLAYER Ägypten PASSWORD {password}\nMOVE G1 WITH 2 INF: EGY -> PAL\n")
    dovecot.deliver(message)
    monkeypatch.setenv("PBEM_IMAP_PASSWORD", PASSWORD)
    args = [
        "ingest",
        "--imap",
        "127.0.0.1",
        "--imap-port",
        str(dovecot.tls_port),
        "--imap-user",
        USER,
        "--imap-cafile",
        str(dovecot.cafile),
        "--data",
        data,
    ]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "<nile-1@example.org> from egy@example.org: orders stored" in result.output
    assert dovecot.seen() == {"<nile-1@example.org>": True}
    assert runner.invoke(app, args).output == ""  # nothing unseen is left


@pytest.mark.usefixtures("database")
def test_pbem_ingest_imap_reports_an_unreadable_mail_once_and_flags_it(
    dovecot: Dovecot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The unreadable mail is flagged \\Seen and $PbemRejected after its first report."""
    from typer.testing import CliRunner

    from adjudicator.cli import app

    dovecot.deliver(b"\x00\x01 this is not a mail \xff\n")
    monkeypatch.setenv("PBEM_IMAP_PASSWORD", PASSWORD)
    args = [
        "ingest",
        "--imap",
        "127.0.0.1",
        "--imap-port",
        str(dovecot.tls_port),
        "--imap-user",
        USER,
        "--imap-cafile",
        str(dovecot.cafile),
        "--data",
        str(tmp_path / "data"),
    ]
    first = CliRunner().invoke(app, args)
    assert first.exit_code == 0 and first.output.count("unreadable: IMAP") == 1, first.output
    assert dovecot.flags() == {"(none)": {"\\Seen", "$PbemRejected"}}
    again = CliRunner().invoke(app, args)
    assert again.exit_code == 0 and again.output == ""


def test_an_imap_mail_over_the_size_limit_is_fetched_as_its_header_only(dovecot: Dovecot) -> None:
    """The size is asked first (RFC822.SIZE); of a mail over the limit only the header comes."""
    from adjudicator.mail.inbound import MAX_MAIL_BYTES

    big = order_mail(3, "Egyptus")
    big.add_attachment(
        b"\x02" * (MAX_MAIL_BYTES + 1), maintype="application", subtype="octet-stream", filename="big.bin"
    )
    dovecot.deliver(big)
    [delivery] = list(from_imap("127.0.0.1", dovecot.tls_port, USER, PASSWORD, ssl_context=dovecot.context()))
    mail = delivery.incoming_or_error
    assert isinstance(mail, Incoming) and mail.message_id == "<orders-3@example.org>" and mail.text == ""
    assert mail.unread.startswith("the mail is ") and len(mail.raw) < 2000
    delivery.mark_done()
    assert dovecot.seen() == {"<orders-3@example.org>": True}
