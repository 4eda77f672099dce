"""Sending the outbox: by SMTP (STARTTLS, TLS or plain) or as .eml files; each mail is marked sent once delivered."""

from __future__ import annotations

import base64
import hashlib
import os
import re
import smtplib
import ssl
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import format_datetime, parseaddr
from pathlib import Path

from sqlmodel import Session, select

from adjudicator import VERSION_HEADER
from adjudicator.archive.models import OutboxRow
from adjudicator.archive.queries import queue_mail
from adjudicator.archive.store import Archive
from adjudicator.orders.sets import PASSWORD_MARK
from adjudicator.render import with_map, write_atomically
from adjudicator.render.pngmap import map_png
from adjudicator.resources import release

SECURITY_MODES = ("starttls", "tls", "none")
DEFAULT_PORTS = {"starttls": 587, "tls": 465, "none": 25}
MAX_ERROR_TEXT = 2000


@dataclass
class SmtpSettings:
    """Where and how to deliver mail by SMTP."""

    host: str
    port: int = 587
    security: str = "starttls"  # "starttls" | "tls" (SMTP over TLS, "SMTPS") | "none"
    user: str | None = None
    password: str | None = None
    sender: str = "pbem@localhost"
    ssl_context: ssl.SSLContext | None = None  # None: the system's default, verifying the server certificate
    timeout: float = 30

    def __post_init__(self) -> None:
        if self.security not in SECURITY_MODES:
            raise ValueError(f"SMTP security must be one of {', '.join(SECURITY_MODES)}, not {self.security!r}")


def smtp_settings_from_env(environ: dict[str, str] | None = None) -> SmtpSettings | None:
    """SMTP settings from PBEM_SMTP_HOST/PORT/SECURITY/USER/PASSWORD/FROM; None when PBEM_SMTP_HOST is unset."""
    env = os.environ if environ is None else environ
    host = env.get("PBEM_SMTP_HOST", "").strip()
    if not host:
        return None
    security = env.get("PBEM_SMTP_SECURITY", "").strip().lower() or "starttls"
    if security not in SECURITY_MODES:
        raise ValueError(f"PBEM_SMTP_SECURITY must be one of {', '.join(SECURITY_MODES)}, not {security!r}")
    port_text = env.get("PBEM_SMTP_PORT", "").strip()
    try:
        port = int(port_text) if port_text else DEFAULT_PORTS[security]
    except ValueError:
        raise ValueError(f"PBEM_SMTP_PORT must be a number, not {port_text!r}") from None
    return SmtpSettings(
        host=host,
        port=port,
        security=security,
        user=env.get("PBEM_SMTP_USER") or None,
        password=env.get("PBEM_SMTP_PASSWORD") or None,
        sender=env.get("PBEM_SMTP_FROM") or "pbem@localhost",
    )


def now() -> str:
    """The current time in UTC, ISO format, to the second."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def message_id(row: OutboxRow, sender: str) -> str:
    """A Message-ID fixed by the outbox row, so that a mail sent again after a crash can be recognised."""
    domain = parseaddr(sender)[1].rpartition("@")[2] or "localhost"
    digest = hashlib.sha256(f"{row.id}|{row.created}|{row.to}|{row.subject}".encode()).hexdigest()[:16]
    return f"<pbem.{row.id}.{digest}@{domain}>"


RECORD_ATTACHMENT = "record.json.gz"  # the game's record a player's last report mail carries (game_record.py)


def build_message(
    row: OutboxRow, sender: str, with_png: bool = True, map_svg: str | None = None, record: bytes | None = None
) -> EmailMessage:
    """The mail for an outbox row: To, From, Subject, Date, Message-ID and a plain UTF-8 body; with an HTML
    alternative and the map attached as map.svg when the row has them (plain text stays for text-only readers),
    and as map.png too unless `with_png` is false (for readers and webmail that show no SVG). `map_svg`: the map
    drawn for a row that names its turn (services.reports.queued_maps); by default the row's own. `record`: the
    game's record the row carries, gzipped (services.reports.queued_records), attached as record.json.gz."""
    if map_svg is None:
        map_svg = row.map_svg
    message = EmailMessage()
    message["From"] = sender
    message["To"] = row.to
    message["Subject"] = " ".join(row.subject.split())  # no line breaks in a header
    message["Date"] = format_datetime(datetime.now(UTC))
    message["Message-ID"] = message_id(row, sender)
    if row.game:
        message["X-PBEM-Game"] = row.game
    message[VERSION_HEADER] = release()
    if row.in_reply_to:  # threads with the player's mail (RFC 5322 section 3.6.4)
        message["In-Reply-To"] = row.in_reply_to
        message["References"] = row.thread or row.in_reply_to
    body = row.body if row.body.endswith("\n") else row.body + "\n"
    if body.isascii():
        message.set_content(body, charset="utf-8")
    else:  # quoted-printable: readable, and safe through servers without 8BITMIME
        message.set_content(body, charset="utf-8", cte="quoted-printable")
    if row.html:
        message.add_alternative(with_map(row.html, map_svg), subtype="html", charset="utf-8", cte="quoted-printable")
    if map_svg:
        message.add_attachment(map_svg.encode("utf-8"), maintype="image", subtype="svg+xml", filename="map.svg")
    if map_svg and with_png:
        message.add_attachment(map_png(map_svg), maintype="image", subtype="png", filename="map.png")
    if record is not None:
        message.add_attachment(record, maintype="application", subtype="gzip", filename=RECORD_ATTACHMENT)
    return message


def queue(session: Session, to: str, subject: str, body: str, game: str | None = None) -> OutboxRow:
    """Put a mail in the outbox now; the caller's transaction commits it."""
    return queue_mail(session, to, subject, body, now(), game)


@dataclass
class SendReport:
    """What one run of `send_outbox` did."""

    sent: int = 0
    failed: int = 0
    errors: list[str] = field(default_factory=list)  # "#<id> <to>: <error>" for each failure


def eml_name(row: OutboxRow) -> str:
    """The file name of an outbox row written as .eml: `<id>-<to>.eml`, the address made safe for a file name."""
    safe = re.sub(r"[^A-Za-z0-9@._+-]+", "_", row.to).strip("._") or "unknown"
    return f"{row.id}-{safe[:100]}.eml"


class _SmtpLink:
    """One SMTP connection for a batch, opened when first needed and dropped after any failure."""

    def __init__(self, settings: SmtpSettings) -> None:
        self.settings = settings
        self.client: smtplib.SMTP | None = None

    def _connect(self) -> smtplib.SMTP:
        s = self.settings
        context = s.ssl_context or ssl.create_default_context()
        client: smtplib.SMTP
        if s.security == "tls":
            client = smtplib.SMTP_SSL(s.host, s.port, timeout=s.timeout, context=context)
        else:
            client = smtplib.SMTP(s.host, s.port, timeout=s.timeout)
        try:
            client.ehlo()
            if s.security == "starttls":
                client.starttls(context=context)
                client.ehlo()
            if s.user:
                _login(client, s.user, s.password or "")
        except BaseException:
            _close(client)
            raise
        return client

    def send(self, message: EmailMessage) -> dict[str, tuple[int, bytes]]:
        """Send one message; returns the refused recipients when some (not all) were refused."""
        if self.client is None:
            self.client = self._connect()
        return self.client.send_message(message, from_addr=parseaddr(self.settings.sender)[1] or None)

    def drop(self) -> None:
        """Forget the connection (after a failure), so that the next mail reconnects."""
        if self.client is not None:
            _close(self.client)
            self.client = None

    def quit(self) -> None:
        """End the batch politely."""
        if self.client is not None:
            try:
                self.client.quit()
            except (smtplib.SMTPException, OSError):
                pass
            finally:
                _close(self.client)
                self.client = None


def _login(client: smtplib.SMTP, user: str, password: str) -> None:
    """AUTH; smtplib's own login encodes as ASCII only, so a non-ASCII user or password goes as UTF-8 here."""
    if (user + password).isascii():
        client.login(user, password)
        return
    client.ehlo_or_helo_if_needed()
    if not client.has_extn("auth"):
        raise smtplib.SMTPNotSupportedError("SMTP AUTH extension not supported by server.")
    mechanisms = client.esmtp_features["auth"].upper().split()

    def b64(text: str) -> str:
        return base64.b64encode(text.encode("utf-8")).decode("ascii")

    if "PLAIN" in mechanisms:
        code, reply = client.docmd("AUTH", "PLAIN " + b64(f"\0{user}\0{password}"))
    elif "LOGIN" in mechanisms:
        code, reply = client.docmd("AUTH", "LOGIN " + b64(user))
        if code == 334:
            code, reply = client.docmd(b64(password))
    else:
        raise smtplib.SMTPException(f"no AUTH mechanism for a non-ASCII user or password among {mechanisms}")
    if code not in (235, 503):  # 503: already authenticated
        raise smtplib.SMTPAuthenticationError(code, reply)


def _close(client: smtplib.SMTP) -> None:
    try:
        client.close()
    except OSError:
        pass


def _error_text(error: BaseException) -> str:
    if isinstance(error, smtplib.SMTPResponseException):
        reply = error.smtp_error
        if isinstance(reply, bytes):
            reply = reply.decode("utf-8", "replace")
        text = f"{type(error).__name__}: {error.smtp_code} {reply}"
    elif isinstance(error, smtplib.SMTPRecipientsRefused):
        refused = "; ".join(
            f"{to}: {code} {reply.decode('utf-8', 'replace')}" for to, (code, reply) in error.recipients.items()
        )
        text = f"{type(error).__name__}: {refused}"
    else:
        text = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
    return " ".join(text.split())[:MAX_ERROR_TEXT]


def forget_secret(row: OutboxRow) -> None:
    """A delivered mail keeps no password in the archive: the player has it, the archive only its hash."""
    if row.secret:
        row.body = row.body.replace(row.secret, PASSWORD_MARK)
        row.html = row.html.replace(row.secret, PASSWORD_MARK)
        row.secret = ""


def send_outbox(
    archive: Archive, smtp: SmtpSettings | None, eml_dir: Path | None, limit: int | None = None, with_png: bool = True
) -> SendReport:
    """Deliver the unsent outbox rows in id order (as .eml files when eml_dir is given), committing each one; the
    maps (drawn now for the rows that name their turn) go as map.png too unless `with_png` is false (build_message)."""
    # the rulesets, the map and the records: only when mail is sent
    from adjudicator.services.reports import queued_maps, queued_records

    if smtp is None and eml_dir is None:
        raise ValueError("nowhere to send the outbox: give SMTP settings or a folder for .eml files")
    sender = smtp.sender if smtp is not None else "pbem@localhost"
    with archive.session() as session:
        query = select(OutboxRow.id).where(OutboxRow.sent == None).order_by(OutboxRow.id)  # noqa: E711 (SQL)
        if limit is not None:
            query = query.limit(limit)
        ids = list(session.exec(query).all())
    report = SendReport()
    maps, records = queued_maps(archive), queued_records(archive)
    link = _SmtpLink(smtp) if eml_dir is None and smtp is not None else None
    try:
        for row_id in ids:
            with archive.session() as session:
                row = session.get(OutboxRow, row_id)
            if row is None or row.sent is not None:  # delivered meanwhile by another run
                continue
            refused: dict[str, tuple[int, bytes]] = {}
            try:
                message = build_message(row, sender, with_png, maps(row), records(row))
                if eml_dir is not None:
                    write_atomically(eml_dir / eml_name(row), message.as_string())
                else:
                    assert link is not None
                    refused = link.send(message)
            except Exception as error:  # every failure keeps the mail queued
                if link is not None:
                    link.drop()
                text = _error_text(error)
                with archive.session() as session:
                    stored = session.get(OutboxRow, row_id)
                    if stored is not None:
                        stored.attempts += 1
                        stored.error = text
                        session.add(stored)
                report.failed += 1
                report.errors.append(f"#{row_id} {row.to}: {text}")
                continue
            with archive.session() as session:  # committed at once: a crash later must not send it twice
                stored = session.get(OutboxRow, row_id)
                if stored is not None:
                    stored.sent = now()
                    forget_secret(stored)
                    stored.error = _error_text(smtplib.SMTPRecipientsRefused(refused)) if refused else ""
                    session.add(stored)
            report.sent += 1
    finally:
        if link is not None:
            link.quit()
    return report
