"""Sending the outbox to a real SMTP server on loopback (aiosmtpd): plain, STARTTLS, TLS, AUTH, failures, .eml files."""

from __future__ import annotations

import datetime as dt
import shutil
import socket
import ssl
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import select

from adjudicator.archive.models import OutboxRow
from adjudicator.archive.store import Archive
from adjudicator.mail import outbound
from adjudicator.mail.outbound import SendReport, SmtpSettings, build_message, queue, send_outbox

aiosmtpd_controller = pytest.importorskip("aiosmtpd.controller")
aiosmtpd_smtp = pytest.importorskip("aiosmtpd.smtp")
Controller = aiosmtpd_controller.Controller
AuthResult = aiosmtpd_smtp.AuthResult
LoginPassword = aiosmtpd_smtp.LoginPassword

HOST = "127.0.0.1"
SUBJECT = "Zug 3 — Ägypten fällt ✓ Αἴγυπτος"
BODY = "Grüße aus Alexandria!\nΟἱ Μακεδόνες νικῶσι.\nCæsar → Roma\n"


class Collector:
    """An aiosmtpd handler that keeps every envelope received, with the client's address."""

    def __init__(self, refuse: set[str] | None = None) -> None:
        self.envelopes: list[Any] = []
        self.peers: list[Any] = []
        self.refuse = refuse or set()

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):  # type: ignore[no-untyped-def]
        """Refuse the addresses in `refuse`, accept the others."""
        if address in self.refuse:
            return "550 5.1.1 no such mailbox here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):  # type: ignore[no-untyped-def]
        """Keep the envelope."""
        self.envelopes.append(envelope)
        self.peers.append(session.peer)
        return "250 Message accepted for delivery"

    def messages(self) -> list[EmailMessage]:
        """The received mails, parsed."""
        return [
            BytesParser(policy=policy.default).parsebytes(e.original_content or e.content)  # type: ignore[misc]
            for e in self.envelopes
        ]

    def bodies(self) -> list[str]:
        """The received bodies, decoded, with the wire's CRLF line ends made LF again."""
        return [m.get_content().replace("\r\n", "\n") for m in self.messages()]


class Authenticator:
    """Accepts one user and password; remembers the mechanisms tried."""

    def __init__(self, user: str = "moderator", password: str = "pässwörd") -> None:
        self.user, self.password = user.encode(), password.encode()
        self.mechanisms: list[str] = []

    def __call__(self, server, session, envelope, mechanism, auth_data):  # type: ignore[no-untyped-def]
        """The aiosmtpd authenticator hook."""
        self.mechanisms.append(mechanism)
        ok = isinstance(auth_data, LoginPassword) and (auth_data.login, auth_data.password) == (
            self.user,
            self.password,
        )
        return AuthResult(success=ok, handled=False)  # handled=False: aiosmtpd answers 535 itself


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


@contextmanager
def smtp_server(handler: Collector, port: int | None = None, **kwargs: Any) -> Iterator[Any]:
    controller = Controller(handler, hostname=HOST, port=port or free_port(), **kwargs)
    controller.start()
    try:
        yield controller
    finally:
        controller.stop()


@pytest.fixture(scope="session")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and localhost: (cert.pem, key.pem)."""
    folder = tmp_path_factory.mktemp("tls")
    cert, key = folder / "cert.pem", folder / "key.pem"
    try:
        _make_certificate_with_cryptography(cert, key)
    except ImportError:
        if shutil.which("openssl") is None:
            pytest.skip("neither the cryptography package nor openssl is available to make a test certificate")
        subprocess.run(
            [
                "openssl",
                "req",
                "-x509",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-days",
                "2",
                "-subj",
                "/CN=localhost",
                "-addext",
                f"subjectAltName=DNS:localhost,IP:{HOST}",
                "-keyout",
                str(key),
                "-out",
                str(cert),
            ],
            check=True,
            capture_output=True,
        )
    return cert, key


def _make_certificate_with_cryptography(cert: Path, key: Path) -> None:
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    private = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    start = dt.datetime.now(dt.UTC) - dt.timedelta(minutes=5)
    built = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(private.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(start)
        .not_valid_after(start + dt.timedelta(days=2))
        .add_extension(
            x509.SubjectAlternativeName([x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address(HOST))]),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(private, hashes.SHA256())
    )
    cert.write_bytes(built.public_bytes(serialization.Encoding.PEM))
    key.write_bytes(
        private.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
    )


def server_context(certificate: tuple[Path, Path]) -> ssl.SSLContext:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(*certificate)
    return context


def client_context(certificate: tuple[Path, Path]) -> ssl.SSLContext:
    """A client context that trusts only the test certificate, and checks the host name against it."""
    return ssl.create_default_context(cafile=str(certificate[0]))


def fill(archive: Archive, *mails: tuple[str, str, str]) -> list[int]:
    """Queue (to, subject, body) mails and commit; returns their ids."""
    with archive.session() as session:
        rows = [queue(session, to, subject, body, game="rome1") for to, subject, body in mails]
        session.flush()
        return [row.id for row in rows if row.id is not None]


def rows(archive: Archive) -> list[OutboxRow]:
    with archive.session() as session:
        return list(session.exec(select(OutboxRow).order_by(OutboxRow.id)).all())  # type: ignore[arg-type]


def three(archive: Archive) -> list[int]:
    return fill(
        archive,
        ("mac@example.org", SUBJECT, BODY),
        ("egy@example.org", "Report turn 3", "All quiet.\n"),
        ("his@example.org", "Receipt", "Orders accepted.\n"),
    )


# --- messages -------------------------------------------------------------------------------------------------


def test_build_message_has_the_headers_and_a_utf8_body(archive: Archive) -> None:
    fill(archive, ("mac@example.org", "Line\nbreak " + SUBJECT, BODY))
    row = rows(archive)[0]
    message = build_message(row, "PBEM Moderator <moderator@pbem.example>")
    assert message["To"] == "mac@example.org"
    assert message["From"] == "PBEM Moderator <moderator@pbem.example>"
    assert message["Subject"] == "Line break " + SUBJECT
    assert message["Date"] and message["Message-ID"].endswith("@pbem.example>")
    assert message["Message-ID"] == build_message(row, "moderator@pbem.example")["Message-ID"]  # stable per row
    assert message.get_content_type() == "text/plain" and message.get_content_charset() == "utf-8"
    assert message.get_content() == BODY
    wire = message.as_bytes()
    assert wire.isascii()  # encoded words and quoted-printable: no 8BITMIME or SMTPUTF8 needed
    assert BytesParser(policy=policy.default).parsebytes(wire)["Subject"] == "Line break " + SUBJECT


def test_queue_adds_an_unsent_row_that_the_caller_commits(archive: Archive) -> None:
    with archive.session() as session:
        row = queue(session, "a@example.org", "Hello", "Body\n")
        assert row in session.new
    [stored] = rows(archive)
    assert (stored.to, stored.subject, stored.body, stored.game, stored.sent, stored.attempts) == (
        "a@example.org",
        "Hello",
        "Body\n",
        None,
        None,
        0,
    )
    assert dt.datetime.fromisoformat(stored.created).tzinfo is not None


def test_settings_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("HOST", "PORT", "SECURITY", "USER", "PASSWORD", "FROM"):
        monkeypatch.delenv(f"PBEM_SMTP_{name}", raising=False)
    assert outbound.smtp_settings_from_env() is None
    monkeypatch.setenv("PBEM_SMTP_HOST", "smtp.example.org")
    assert outbound.smtp_settings_from_env() == SmtpSettings(host="smtp.example.org")
    monkeypatch.setenv("PBEM_SMTP_SECURITY", "TLS")
    monkeypatch.setenv("PBEM_SMTP_USER", "mod")
    monkeypatch.setenv("PBEM_SMTP_PASSWORD", "secret")
    monkeypatch.setenv("PBEM_SMTP_FROM", "Moderator <mod@example.org>")
    settings = outbound.smtp_settings_from_env()
    assert settings == SmtpSettings(
        host="smtp.example.org",
        port=465,
        security="tls",
        user="mod",
        password="secret",
        sender="Moderator <mod@example.org>",
    )
    monkeypatch.setenv("PBEM_SMTP_PORT", "2525")
    assert outbound.smtp_settings_from_env().port == 2525  # type: ignore[union-attr]
    monkeypatch.setenv("PBEM_SMTP_SECURITY", "ssl3")
    with pytest.raises(ValueError, match="PBEM_SMTP_SECURITY"):
        outbound.smtp_settings_from_env()


def test_nowhere_to_send_is_an_error(archive: Archive) -> None:
    with pytest.raises(ValueError, match="nowhere"):
        send_outbox(archive, None, None)


# --- SMTP -----------------------------------------------------------------------------------------------------


def test_plain_smtp_delivers_the_batch_on_one_connection_in_id_order(archive: Archive) -> None:
    ids = three(archive)
    handler = Collector()
    with smtp_server(handler) as server:
        settings = SmtpSettings(
            host=HOST, port=server.port, security="none", sender="Moderator <mod@pbem.example>", timeout=5
        )
        report = send_outbox(archive, settings, None)
    assert report == SendReport(sent=3, failed=0, errors=[])
    assert [e.rcpt_tos for e in handler.envelopes] == [["mac@example.org"], ["egy@example.org"], ["his@example.org"]]
    assert {e.mail_from for e in handler.envelopes} == {"mod@pbem.example"}
    assert len(set(handler.peers)) == 1  # one connection for the batch
    first = handler.messages()[0]
    assert first["Subject"] == SUBJECT and handler.bodies()[0] == BODY
    assert first["From"] == "Moderator <mod@pbem.example>" and first["X-PBEM-Game"] == "rome1"
    stored = rows(archive)
    assert [r.id for r in stored] == ids
    assert all(r.sent is not None and r.attempts == 0 and r.error == "" for r in stored)
    assert dt.datetime.fromisoformat(stored[0].sent).tzinfo is not None  # type: ignore[arg-type]
    with smtp_server(handler) as server:  # nothing left to send
        again = send_outbox(archive, SmtpSettings(host=HOST, port=server.port, security="none", timeout=5), None)
    assert again == SendReport() and len(handler.envelopes) == 3


def test_limit_sends_the_oldest_first(archive: Archive) -> None:
    three(archive)
    handler = Collector()
    with smtp_server(handler) as server:
        settings = SmtpSettings(host=HOST, port=server.port, security="none", timeout=5)
        assert send_outbox(archive, settings, None, limit=2).sent == 2
        assert [e.rcpt_tos[0] for e in handler.envelopes] == ["mac@example.org", "egy@example.org"]
        assert send_outbox(archive, settings, None, limit=2).sent == 1
    assert [e.rcpt_tos[0] for e in handler.envelopes][-1] == "his@example.org"


@pytest.mark.parametrize("mechanism", ["PLAIN", "LOGIN"])
def test_starttls_with_auth(archive: Archive, certificate: tuple[Path, Path], mechanism: str) -> None:
    three(archive)
    handler, authenticator = Collector(), Authenticator()
    other = {"PLAIN": "LOGIN", "LOGIN": "PLAIN"}[mechanism]
    with smtp_server(
        handler,
        tls_context=server_context(certificate),
        require_starttls=True,
        authenticator=authenticator,
        auth_required=True,
        auth_require_tls=True,
        auth_exclude_mechanism=[other],
    ) as server:
        settings = SmtpSettings(
            host=HOST,
            port=server.port,
            security="starttls",
            user="moderator",
            password="pässwörd",
            ssl_context=client_context(certificate),
            timeout=5,
        )
        report = send_outbox(archive, settings, None)
    assert report == SendReport(sent=3)
    assert authenticator.mechanisms == [mechanism]  # logged in once, on the one connection
    assert handler.messages()[0]["Subject"] == SUBJECT and handler.bodies()[0] == BODY


@pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS:UserWarning")
def test_smtp_over_tls_with_auth(archive: Archive, certificate: tuple[Path, Path]) -> None:
    three(archive)
    handler, authenticator = Collector(), Authenticator(password="s3cret")  # ASCII: smtplib's own login
    # aiosmtpd counts only STARTTLS as TLS for auth_require_tls, not a TLS listener, hence False here
    with smtp_server(
        handler,
        ssl_context=server_context(certificate),
        authenticator=authenticator,
        auth_required=True,
        auth_require_tls=False,
    ) as server:
        settings = SmtpSettings(
            host=HOST,
            port=server.port,
            security="tls",
            user="moderator",
            password="s3cret",
            ssl_context=client_context(certificate),
            timeout=5,
        )
        report = send_outbox(archive, settings, None)
    assert report == SendReport(sent=3)
    assert len(authenticator.mechanisms) == 1
    assert handler.bodies() == [BODY, "All quiet.\n", "Orders accepted.\n"]


def test_an_untrusted_certificate_is_refused_and_the_mail_stays_queued(
    archive: Archive, certificate: tuple[Path, Path]
) -> None:
    fill(archive, ("mac@example.org", "Hello", "Body\n"))
    handler = Collector()
    with smtp_server(handler, tls_context=server_context(certificate), require_starttls=True) as server:
        settings = SmtpSettings(host=HOST, port=server.port, security="starttls", timeout=5)  # system trust store
        report = send_outbox(archive, settings, None)
    assert (report.sent, report.failed) == (0, 1) and "CERTIFICATE_VERIFY_FAILED" in report.errors[0]
    assert handler.envelopes == [] and rows(archive)[0].sent is None


def test_refused_login_stays_queued_and_is_sent_once_later(archive: Archive, certificate: tuple[Path, Path]) -> None:
    three(archive)
    handler, authenticator = Collector(), Authenticator()
    with smtp_server(
        handler,
        tls_context=server_context(certificate),
        require_starttls=True,
        authenticator=authenticator,
        auth_required=True,
    ) as server:
        wrong = SmtpSettings(
            host=HOST,
            port=server.port,
            user="moderator",
            password="guess",
            ssl_context=client_context(certificate),
            timeout=5,
        )
        report = send_outbox(archive, wrong, None)
        assert (report.sent, report.failed) == (0, 3)
        assert authenticator.mechanisms == ["PLAIN", "LOGIN"] * 3  # smtplib tries both; a new connection each time
        assert all(r.sent is None and r.attempts == 1 and "535" in r.error for r in rows(archive))
        assert report.errors[0].startswith("#1 mac@example.org: SMTPAuthenticationError: 535")
        right = SmtpSettings(
            host=HOST,
            port=server.port,
            user="moderator",
            password="pässwörd",
            ssl_context=client_context(certificate),
            timeout=5,
        )
        assert send_outbox(archive, right, None) == SendReport(sent=3)
        assert send_outbox(archive, right, None) == SendReport()
    assert sorted(e.rcpt_tos[0] for e in handler.envelopes) == [
        "egy@example.org",
        "his@example.org",
        "mac@example.org",
    ]  # each exactly once
    assert all(r.sent is not None and r.attempts == 1 and r.error == "" for r in rows(archive))


def test_server_down_then_up_delivers_each_mail_exactly_once(archive: Archive) -> None:
    three(archive)
    port = free_port()
    settings = SmtpSettings(host=HOST, port=port, security="none", timeout=5)
    report = send_outbox(archive, settings, None)
    assert (report.sent, report.failed) == (0, 3) and "ConnectionRefusedError" in report.errors[0]
    assert all(r.sent is None and r.attempts == 1 and "Connection refused" in r.error for r in rows(archive))
    handler = Collector()
    with smtp_server(handler, port=port):
        assert send_outbox(archive, settings, None) == SendReport(sent=3)
        assert send_outbox(archive, settings, None) == SendReport()
    assert [e.rcpt_tos[0] for e in handler.envelopes] == ["mac@example.org", "egy@example.org", "his@example.org"]


def test_a_refused_recipient_fails_alone_and_the_batch_goes_on(archive: Archive) -> None:
    three(archive)
    handler = Collector(refuse={"egy@example.org"})
    with smtp_server(handler) as server:
        report = send_outbox(archive, SmtpSettings(host=HOST, port=server.port, security="none", timeout=5), None)
    assert (report.sent, report.failed) == (2, 1)
    assert "SMTPRecipientsRefused" in report.errors[0] and "550" in report.errors[0]
    assert [e.rcpt_tos[0] for e in handler.envelopes] == ["mac@example.org", "his@example.org"]
    assert len(set(handler.peers)) == 2  # reconnected after the failure
    failed = rows(archive)[1]
    assert failed.sent is None and failed.attempts == 1 and "no such mailbox" in failed.error


def test_a_crash_mid_batch_does_not_send_the_delivered_mails_again(
    archive: Archive, monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = three(archive)
    handler = Collector()
    real_build = outbound.build_message

    def crash_on_the_second(
        row: OutboxRow, sender: str, with_png: bool = True, map_svg: str = "", record: bytes | None = None
    ) -> EmailMessage:
        if row.id == ids[1]:
            raise KeyboardInterrupt
        return real_build(row, sender, with_png, map_svg, record)

    with smtp_server(handler) as server:
        settings = SmtpSettings(host=HOST, port=server.port, security="none", timeout=5)
        monkeypatch.setattr(outbound, "build_message", crash_on_the_second)
        with pytest.raises(KeyboardInterrupt):
            send_outbox(archive, settings, None)
        assert [r.sent is not None for r in rows(archive)] == [True, False, False]
        monkeypatch.setattr(outbound, "build_message", real_build)
        assert send_outbox(archive, settings, None) == SendReport(sent=2)
    assert [e.rcpt_tos[0] for e in handler.envelopes] == ["mac@example.org", "egy@example.org", "his@example.org"]


def test_an_international_address_goes_by_smtputf8(archive: Archive) -> None:
    fill(archive, ("jürgen@bücher.example", SUBJECT, BODY))
    handler = Collector()
    with smtp_server(handler) as server:  # the Controller announces SMTPUTF8
        report = send_outbox(archive, SmtpSettings(host=HOST, port=server.port, security="none", timeout=5), None)
    assert report == SendReport(sent=1)
    assert handler.envelopes[0].rcpt_tos == ["jürgen@bücher.example"]
    assert handler.messages()[0]["To"] == "jürgen@bücher.example"


# --- .eml files -----------------------------------------------------------------------------------------------


def test_eml_mode_writes_parseable_files_once(archive: Archive, tmp_path: Path) -> None:
    ids = three(archive)
    folder = tmp_path / "outbox"
    report = send_outbox(archive, None, folder)
    assert report == SendReport(sent=3)
    names = sorted(p.name for p in folder.iterdir())
    assert names == sorted(
        [f"{ids[0]}-mac@example.org.eml", f"{ids[1]}-egy@example.org.eml", f"{ids[2]}-his@example.org.eml"]
    )  # and no temporary files left
    parsed = BytesParser(policy=policy.default).parsebytes((folder / f"{ids[0]}-mac@example.org.eml").read_bytes())
    assert parsed["To"] == "mac@example.org" and parsed["Subject"] == SUBJECT and parsed.get_content() == BODY
    assert parsed["Message-ID"] and parsed["Date"] and parsed["From"] == "pbem@localhost"
    assert all(r.sent is not None for r in rows(archive))
    assert send_outbox(archive, None, folder) == SendReport()
    assert len(list(folder.iterdir())) == 3


def test_eml_file_names_are_safe(archive: Archive, tmp_path: Path) -> None:
    [row_id] = fill(archive, ("Jim <../../etc/passwd@example.org>", "Hi", "Body\n"))
    send_outbox(archive, SmtpSettings(host="unused.invalid", sender="mod@pbem.example"), tmp_path / "out")
    [written] = list((tmp_path / "out").iterdir())
    assert written.name.startswith(f"{row_id}-") and "/" not in written.name[len(str(row_id)) :]
    assert BytesParser(policy=policy.default).parsebytes(written.read_bytes())["From"] == "mod@pbem.example"
