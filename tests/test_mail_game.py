"""A scripted game played through mail only: order mails into a real Maildir, `pbem ingest`, `pbem tick`,
and `pbem send` delivering receipts and reports to a real SMTP server on loopback (aiosmtpd)."""

from __future__ import annotations

import mailbox
import socket
from collections.abc import Iterator
from email.message import EmailMessage
from email.parser import BytesParser
from email.policy import default
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller
from typer.testing import CliRunner

from adjudicator.cli import app
from adjudicator.rulesets import load_ruleset
from adjudicator.services.demo import demo_orders, demo_seats

CLASSIC = load_ruleset("coe-classic")
SEATS = demo_seats(CLASSIC)  # the scripted demo's seats ([demo] of games/coe-classic/ruleset.toml)

pytestmark = pytest.mark.usefixtures("database")  # each test runs on SQLite and PostgreSQL


class Collect:
    """aiosmtpd handler keeping every delivered message."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []

    async def handle_DATA(self, server, session, envelope) -> str:  # type: ignore[no-untyped-def]  # noqa: N802
        self.messages.append(BytesParser(policy=default).parsebytes(envelope.content))  # type: ignore[arg-type]
        return "250 OK"


@pytest.fixture
def smtp(monkeypatch: pytest.MonkeyPatch) -> Iterator[Collect]:
    handler = Collect()
    with socket.socket() as probe:  # a free port on loopback
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    monkeypatch.setenv("PBEM_SMTP_HOST", "127.0.0.1")
    monkeypatch.setenv("PBEM_SMTP_PORT", str(port))
    monkeypatch.setenv("PBEM_SMTP_SECURITY", "none")
    yield handler
    controller.stop()


def order_mail(seat: str, text: str, number: int) -> bytes:
    message = EmailMessage()
    message["From"] = f"{seat} <{SEATS[seat]}>"
    message["To"] = "moderator@example.org"
    message["Subject"] = f"orders {number}"
    message["Message-ID"] = f"<turn{number}.{seat}@players.example.org>"
    message.set_content(f"Hello moderator,\n\n{text}\n-- \n{seat}\n", charset="utf-8", cte="quoted-printable")
    return bytes(message)


def new_demo_game(runner: CliRunner, data: str, *options: str) -> dict[str, str]:
    """`pbem new demo` with the three seats; the passwords it prints."""
    seats = [a for seat, mail in SEATS.items() for a in ("--seat", f"{seat}={mail}")]
    created = runner.invoke(app, ["new", "demo", *seats, *options, "--data", data])
    assert created.exit_code == 0, created.output
    return {
        line.split()[0]: line.split()[1]
        for line in created.output.splitlines()
        if len(line.split()) == 2 and line.split()[0] in SEATS
    }


def test_a_game_played_through_mail_only(tmp_path: Path, smtp: Collect) -> None:
    runner = CliRunner()
    data = str(tmp_path / "data")
    passwords = new_demo_game(runner, data, "--moderator", "gm@example.org")
    inbox = mailbox.Maildir(tmp_path / "inbox", create=True)
    for number, path in enumerate(demo_orders(CLASSIC)[:6], 1):
        seat = path.stem.split("-", 1)[1]
        inbox.add(order_mail(seat, path.read_text().replace("{password}", passwords[seat]), number))
        ingested = runner.invoke(app, ["ingest", "--maildir", str(tmp_path / "inbox"), "--data", data])
        assert ingested.exit_code == 0 and "orders stored" in ingested.output, ingested.output
        again = runner.invoke(app, ["ingest", "--maildir", str(tmp_path / "inbox"), "--data", data])
        assert "orders stored" not in again.output  # seen messages are not read twice
        ticked = runner.invoke(app, ["tick", "--data", data])
        assert f"turn {number} ({seat}) resolved" in ticked.output, ticked.output
        sent = runner.invoke(app, ["send", "--data", data])
        assert sent.exit_code == 0 and "0 failed" in sent.output, sent.output
    subjects = [(m["To"], m["Subject"]) for m in smtp.messages]
    assert ("mac@example.org", "[demo] Receipt for turn 1") in subjects
    assert sum(1 for to, subject in subjects if subject == "[demo] Report, turn 6") == 3
    his = next(m for m in smtp.messages if m["To"] == "his@example.org" and m["Subject"] == "[demo] Report, turn 6")
    assert "GAME demo TURN 9 PLAYER Hispania" in his.get_body(("plain",)).get_content()  # text for text readers
    html = his.get_body(("html",)).get_content()
    assert "<svg" in html and 'id="area-HIS"' in html and "GAME demo TURN 9 PLAYER Hispania" in html
    attached = [part for part in his.iter_attachments() if part.get_filename() == "map.svg"]
    assert attached and attached[0].get_content_type() == "image/svg+xml"
    verified = runner.invoke(app, ["verify", "demo", "--data", data])
    assert verified.exit_code == 0 and "0 problems" in verified.output


def test_welcomes_are_mailed_and_receipts_thread_with_the_order_mail_over_smtp(tmp_path: Path, smtp: Collect) -> None:
    """`pbem send` delivers the welcome (with the password) to each seat, and the receipt of an order
    mail answers it (In-Reply-To, References) and states the deadline in UTC and the seat's time zone."""
    runner = CliRunner()
    data = str(tmp_path / "data")
    passwords = new_demo_game(runner, data, "--timezone", "Macedonia=Asia/Tokyo")
    assert "0 failed" in runner.invoke(app, ["send", "--data", data]).output
    welcomes = {m["To"]: m.get_body(("plain",)).get_content() for m in smtp.messages}
    assert sorted(welcomes) == sorted(SEATS.values())
    assert all(f"PASSWORD {passwords[seat]}" in welcomes[mail] for seat, mail in SEATS.items())
    runner.invoke(app, ["tick", "--data", data])  # the clock starts: the deadline is set
    inbox = mailbox.Maildir(tmp_path / "inbox", create=True)
    seat = demo_orders(CLASSIC)[0].stem.split("-", 1)[1]
    inbox.add(order_mail(seat, demo_orders(CLASSIC)[0].read_text().replace("{password}", passwords[seat]), 1))
    ingested = runner.invoke(app, ["ingest", "--maildir", str(tmp_path / "inbox"), "--data", data])
    assert "orders stored" in ingested.output
    assert "0 failed" in runner.invoke(app, ["send", "--data", data]).output
    (receipt,) = [m for m in smtp.messages if m["Subject"] == "[demo] Receipt for turn 1"]
    assert receipt["To"] == SEATS[seat]
    assert receipt["In-Reply-To"] == f"<turn1.{seat}@players.example.org>" == receipt["References"]
    assert "UTC (Asia/Tokyo: " in receipt.get_body(("plain",)).get_content()
