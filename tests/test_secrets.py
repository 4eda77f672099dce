"""Passwords are kept nowhere but as their scrypt hash: stored order texts and stored mails carry a fixed mark
instead, wrong attempts included, and `pbem verify` still replays every turn from the stored texts."""

from __future__ import annotations

from email.message import EmailMessage
from email.policy import default as default_policy
from pathlib import Path

from sqlmodel import select

from adjudicator.archive import Archive
from adjudicator.archive.models import MessageRow, OrderSetRow, OutboxRow, TurnRow
from adjudicator.mail.inbound import read_message
from adjudicator.mail.outbound import send_outbox
from adjudicator.rulesets.coe.orders import PASSWORD_MARK
from adjudicator.services.deadlines import tick
from adjudicator.services.games import NewGameOptions, new_game
from adjudicator.services.mailbox import ingest
from adjudicator.services.verification import verify
from tests.conftest import SEATS, Pbem


def everything_stored(archive: Archive) -> str:
    return repr(archive.dump())


def new_game_welcomed(pbem: Pbem, pace: str = "turn") -> None:
    """A new game whose welcome mails (which carry the passwords until they are sent) are delivered."""
    pbem.new_game(pace=pace)
    assert pbem("send", "--eml-dir", str(pbem.data.parent / "sent")).exit_code == 0


def test_a_welcome_mail_holds_the_password_only_until_it_is_sent(pbem: Pbem) -> None:
    pbem.new_game()
    secret = pbem.passwords["Macedonia"]
    assert secret in repr(pbem.dump())  # queued: the mail must still carry it
    assert pbem("send", "--eml-dir", str(pbem.data.parent / "sent")).exit_code == 0
    (welcome,) = [p for p in (pbem.data.parent / "sent").iterdir() if "mac@example.org" in p.read_text()]
    assert secret in welcome.read_text()  # the player got it
    assert secret not in repr(pbem.dump())  # the archive kept only the mark
    ((body,),) = pbem.sql("select body from outbox where \"to\" = 'mac@example.org'")
    assert PASSWORD_MARK in str(body)


def order_mail(
    body: str, *, cte: str, html: bool = False, mid: str = "<m1@test>", sender: str = "mac@example.org"
) -> bytes:
    """A real mail of the shape mailers send: the orders quoted-printable or base64, maybe with an HTML part."""
    message = EmailMessage()
    message["From"] = sender
    message["To"] = "gm@example.org"
    message["Subject"] = "orders"
    message["Message-ID"] = mid
    message.set_content(body, cte=cte)
    if html:
        message.add_alternative(
            "<html><body>" + body.replace("\n", "<br>\n") + "</body></html>", subtype="html", cte=cte
        )
    return message.as_bytes(policy=default_policy)


def test_submitted_orders_are_stored_with_the_mark_and_verify_replays_them(pbem: Pbem) -> None:
    new_game_welcomed(pbem)
    secret = pbem.passwords["Macedonia"]
    result = pbem("submit", "rome1", str(pbem.orders("Macedonia", 1, "MOVE G1 WITH 2 INF: MAC -> THR")))
    assert result.exit_code == 0 and secret not in result.output
    assert pbem("adjudicate", "rome1").exit_code == 0
    (stored,) = pbem.sql("select text from orderset")
    (resolved,) = pbem.sql("select orders_text from turn where number = 1")
    assert f"PASSWORD {PASSWORD_MARK}" in str(stored[0]) and stored == resolved
    assert secret not in repr(pbem.dump())
    verified = pbem("verify", "rome1")
    assert verified.exit_code == 0 and "0 problems" in verified.output, verified.output


def test_a_turn_file_is_stored_with_the_mark(pbem: Pbem, write) -> None:  # type: ignore[no-untyped-def]
    new_game_welcomed(pbem, pace="round")
    blocks = "".join(
        f"GAME rome1 TURN {n} PLAYER {seat} PASSWORD {pbem.passwords[seat]}\nBUY 1 INF\n"
        for n, seat in enumerate(SEATS, 1)
    )
    assert pbem("adjudicate", "rome1", "--turn-file", str(write("turn.txt", blocks))).exit_code == 0
    dump = repr(pbem.dump())
    assert not any(password in dump for password in pbem.passwords.values())
    assert pbem("verify", "rome1").exit_code == 0


def test_the_mark_itself_never_authenticates(pbem: Pbem) -> None:
    pbem.new_game()
    before = pbem.dump()
    result = pbem("submit", "rome1", str(pbem.orders("Macedonia", 1, "BUY 1 INF", password=PASSWORD_MARK)))
    assert result.exit_code == 1 and "wrong password for Macedonia" in result.output
    assert pbem.dump() == before


def test_no_password_reaches_the_output_of_ingest(pbem: Pbem, write) -> None:  # type: ignore[no-untyped-def]
    new_game_welcomed(pbem)
    secret = pbem.passwords["Macedonia"]
    second_header = f"GAME rome1 TURN 1 PLAYER Macedonia PASSWORD {secret}"  # a second header: not understood
    body = f"GAME rome1 TURN 1 PLAYER Macedonia PASSWORD {secret}\nBUY 1 INF\n{second_header}\n"
    result = pbem("ingest", str(write("m.eml", order_mail(body, cte="base64"))))
    assert result.exit_code == 0 and "orders stored" in result.output and secret not in result.output
    wrong = pbem(
        "ingest", str(write("w.eml", order_mail(body.replace(secret, "s3cr3t-guess"), cte="base64", mid="<w@test>")))
    )
    assert "refused" in wrong.output and "s3cr3t-guess" not in wrong.output
    ((receipt,),) = pbem.sql("select body from outbox where subject like '%Receipt%'")
    assert "a second header" in str(receipt) and secret not in str(receipt)
    dump = repr(pbem.dump())
    assert secret not in dump and "s3cr3t-guess" not in dump


def test_mail_is_stored_without_the_password_whatever_its_encoding(tmp_path: Path, archive: Archive) -> None:
    secret = new_game(archive, tmp_path, NewGameOptions("rome1", "coe-classic", SEATS)).passwords["Macedonia"]
    send_outbox(archive, None, tmp_path / "sent")  # the welcome mails, which carry the passwords until sent
    orders = f"Hello,\nGAME rome1 TURN 1 PLAYER Macedonia PASSWORD {secret}\nBUY 1 INF\n"
    mails = [
        order_mail(orders, cte="quoted-printable", mid="<qp@test>"),
        order_mail(orders.replace("1 INF", "2 INF"), cte="base64", html=True, mid="<b64@test>"),
        order_mail(orders.replace(secret, "guessed-wrong"), cte="base64", mid="<wrong@test>"),
        order_mail(orders.replace(secret, PASSWORD_MARK), cte="7bit", mid="<mark@test>"),
    ]
    outcomes = [ingest(archive, read_message(raw)).text for raw in mails]
    assert outcomes == ["orders stored", "orders stored", "refused: a wrong password", "refused: a wrong password"]
    with archive.session() as session:
        raws = [m.raw for m in session.exec(select(MessageRow)).all()]
        texts = [o.text for o in session.exec(select(OrderSetRow)).all()]
    assert all("guessed-wrong" not in raw and secret not in raw for raw in raws)
    assert all(f"PASSWORD {PASSWORD_MARK}" in raw and "Message-ID:" in raw for raw in raws)
    assert "BUY 2 INF" in texts[-1] and all(PASSWORD_MARK in text for text in texts)
    tick(archive, tmp_path)
    with archive.session() as session:
        turn = session.exec(select(TurnRow).where(TurnRow.number == 1)).one()
        bodies = [m.body + m.html for m in session.exec(select(OutboxRow)).all()]
    assert "BUY 2 INF" in turn.orders_text and secret not in turn.orders_text
    assert bodies and not any(secret in body or "guessed-wrong" in body for body in bodies)
    passed, problems = verify(archive, "rome1")
    assert not problems and len(passed) == 4  # two turns, the chain head, the rows outside it
    assert secret not in everything_stored(archive)


def test_a_comment_naming_the_password_on_the_header_line_does_not_hide_it(pbem: Pbem) -> None:
    new_game_welcomed(pbem)
    secret = pbem.passwords["Macedonia"]
    orders = pbem.orders("Macedonia", 1, "BUY 1 INF")
    orders.write_text(orders.read_text().replace(secret, f"{secret}   # the password from the welcome mail", 1))
    assert pbem("submit", "rome1", str(orders)).exit_code == 0
    ((stored,),) = pbem.sql("select text from orderset")
    assert f"PASSWORD {PASSWORD_MARK}   # the password from the welcome mail" in str(stored)
    assert secret not in repr(pbem.dump())
