"""Mail that cannot flood or stall the site: limits on a mail, its orders and its
press, the parse before the archive's lock, unreadable mail set aside, addresses that can be mailed, a Message-ID
reused for other content, and MIME parts bounded. Against a real archive (SQLite and PostgreSQL)."""

from __future__ import annotations

import mailbox
import threading
import time
from email.message import EmailMessage
from pathlib import Path

import pytest
from sqlmodel import select

from adjudicator.archive import Archive
from adjudicator.archive.models import MessageRow, ObserverRow, OutboxRow
from adjudicator.mail.inbound import MAX_MAIL_BYTES, Incoming, read_message
from adjudicator.mail.sources import from_maildir
from adjudicator.services.games import NewGameOptions, new_game
from adjudicator.services.gm import set_paused
from adjudicator.services.mailbox import MAX_PRESS, MAX_PRESS_PER_TURN, ingest
from adjudicator.services.notices import STRANGER
from tests.conftest import SEATS, MailGame, Pbem


def letter_bytes(sender: str, body: str, mid: str = "1") -> bytes:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = "judge@example.org"
    message["Subject"] = "pbem"
    message["Message-ID"] = f"<{mid}@players.example.org>"
    message.set_content(body)
    return bytes(message)


def orders(password: str, *lines: str, seat: str = "Macedonia", mid: str = "1") -> Incoming:
    body = "\n".join([f"GAME rome1 TURN 1 PLAYER {seat} PASSWORD {password}", *lines]) + "\n"
    return read_message(letter_bytes(SEATS[seat], body, mid))


def queued(archive: Archive) -> list[OutboxRow]:
    with archive.session() as session:
        return list(session.exec(select(OutboxRow).order_by(OutboxRow.id)).all())  # type: ignore[arg-type]


def unchanged_part(archive: Archive) -> list[tuple[str, tuple[object, ...]]]:
    """The archive without the stored messages and the outbox: what a refused mail must leave as it was."""
    return [row for row in archive.dump() if row[0] not in ("message", "outbox")]


def stored_raw(archive: Archive, message_id: str) -> str:
    with archive.session() as session:
        record = session.exec(select(MessageRow).where(MessageRow.message_id == message_id)).one()
        return record.raw


def refused_with_one_receipt(archive: Archive, mail: Incoming, to: str) -> tuple[str, OutboxRow]:
    """Ingest a mail that must be refused: nothing changes but its message record and one receipt to `to`."""
    before, mails = unchanged_part(archive), len(queued(archive))
    outcome = ingest(archive, mail).text
    assert unchanged_part(archive) == before
    new = queued(archive)[mails:]
    assert [m.to for m in new] == [to], [(m.to, m.subject) for m in new]
    return outcome, new[0]


# -- limits ------------------------------------------------------------------------------------------------------


def test_a_mail_over_the_size_limit_is_refused_unread_with_a_receipt_to_the_registered_address(
    game: MailGame, tmp_path: Path
) -> None:
    archive, _, passwords = game
    message = EmailMessage()
    message["From"] = "mac@example.org"
    message["Subject"] = "orders with a film"
    message["Message-ID"] = "<big@players.example.org>"
    message.set_content(f"GAME rome1 TURN 1 PLAYER Macedonia PASSWORD {passwords['Macedonia']}\nBUY 1 INF\n")
    message.add_attachment(b"\x01" * (3 * 1024 * 1024), maintype="video", subtype="mp4", filename="film.mp4")
    box = mailbox.Maildir(tmp_path / "Maildir")
    box.add(bytes(message))
    [delivery] = list(from_maildir(tmp_path / "Maildir"))
    mail = delivery.incoming_or_error
    assert isinstance(mail, Incoming) and mail.text == "" and len(mail.raw) < 2000  # only the header was read
    assert mail.unread.startswith("the mail is ") and f"more than the {MAX_MAIL_BYTES // 1024} KB" in mail.unread

    outcome, receipt = refused_with_one_receipt(archive, mail, "mac@example.org")
    assert outcome.startswith("refused: the mail is ") and "it was not read" in outcome
    assert "was not used: the mail is" in receipt.body and "Nothing of it was stored" in receipt.body
    assert len(stored_raw(archive, "<big@players.example.org>")) < 2000


def test_a_strangers_mail_over_a_limit_gets_no_answer(game: MailGame) -> None:
    archive, _, _ = game
    mails = len(queued(archive))
    huge = read_message(letter_bytes("evil@example.net", "HELP\n" * 5000, mid="flood"))
    outcome = ingest(archive, huge).text
    assert outcome == STRANGER + "refused: the order text has 5000 lines, more than the 1000 a mail may hold"
    assert len(queued(archive)) == mails
    assert len(stored_raw(archive, "<flood@players.example.org>")) < 40_000


def test_too_many_press_lines_in_one_mail_are_refused_and_nothing_is_relayed(game: MailGame) -> None:
    archive, _, passwords = game
    press = [f"PRESS TO Egyptus: message {k}" for k in range(100)]
    outcome, receipt = refused_with_one_receipt(
        archive, orders(passwords["Macedonia"], "BUY 1 INF", *press), "mac@example.org"
    )
    assert outcome == f"refused: it holds 100 PRESS and BROADCAST lines, more than the {MAX_PRESS} a mail may hold"
    assert receipt.subject == "[rome1] Your mail was not used"
    assert "100 PRESS and BROADCAST lines" in receipt.body


def test_press_lines_are_counted_whatever_white_space_stands_before_them(game: MailGame) -> None:
    """The order grammar reads a PRESS line after any white space but a line break: so does the limit."""
    archive, _, passwords = game
    press = [f"{space}PRESS TO Egyptus: message {k}" for k, space in enumerate(["\u3000", "\f", "\u2002"] * 10)]
    outcome, _ = refused_with_one_receipt(
        archive, orders(passwords["Macedonia"], "BUY 1 INF", *press), "mac@example.org"
    )
    assert outcome == f"refused: it holds 30 PRESS and BROADCAST lines, more than the {MAX_PRESS} a mail may hold"


def test_press_per_seat_and_turn_is_bounded_over_all_its_mails(game: MailGame) -> None:
    archive, _, passwords = game
    for k in range(MAX_PRESS_PER_TURN // MAX_PRESS):
        lines = [f"PRESS TO Egyptus: {k}.{n}" for n in range(MAX_PRESS)]
        assert ingest(archive, orders(passwords["Macedonia"], "BUY 1 INF", *lines, mid=f"p{k}")).text == "orders stored"
    outcome, receipt = refused_with_one_receipt(
        archive, orders(passwords["Macedonia"], "BROADCAST: one more", mid="last"), "mac@example.org"
    )
    assert outcome == (
        f"refused: it holds 1 PRESS and BROADCAST lines, and {MAX_PRESS_PER_TURN} were sent for "
        f"turn 1 before: a seat may send {MAX_PRESS_PER_TURN} for one turn"
    )
    assert ingest(archive, orders(passwords["Macedonia"], "BUY 2 INF", mid="no-press")).text == "orders stored"


def test_a_long_broadcast_and_too_many_orders_are_refused(game: MailGame) -> None:
    archive, _, passwords = game
    long_one = orders(passwords["Macedonia"], "BUY 1 INF", "BROADCAST: " + "x" * 5000)
    outcome, _ = refused_with_one_receipt(archive, long_one, "mac@example.org")
    assert outcome == (
        "refused: line 3: the message is 5000 characters long, more than the 4000 a press message may have"
    )
    outcome, _ = refused_with_one_receipt(
        archive, orders(passwords["Macedonia"], *["BUY 1 INF"] * 301, mid="2"), "mac@example.org"
    )
    assert outcome == "refused: it holds 301 orders, more than the 300 a mail may hold"


def test_a_wrong_password_over_a_limit_warns_the_seat_as_ever(game: MailGame) -> None:
    archive, _, _ = game
    outcome = ingest(archive, orders("guess", *["PRESS TO Egyptus: hi"] * 50)).text
    assert outcome == "refused: a wrong password"
    assert not any(
        "Egyptus" in m.subject or m.to == "egy@example.org" for m in queued(archive) if "Welcome" not in m.subject
    )


def test_a_mail_of_200000_bad_lines_does_not_keep_another_game_waiting(tmp_path: Path, archive: Archive) -> None:
    """The parse and the checks run before the archive's lock is taken: another game's write waits only for the
    short transaction that stores the message (the figure is printed: pytest -s)."""
    passwords = new_game(archive, tmp_path, NewGameOptions("rome1", "coe-classic", SEATS)).passwords
    new_game(archive, tmp_path, NewGameOptions("rome2", "coe-classic", SEATS))
    for name, lines in (("200000 bad lines", 200_000), ("299 bad lines", 299)):
        mail = orders(passwords["Macedonia"], *["FLY"] * lines if lines > 1000 else ["FLY ELEPHANTS"] * lines, mid=name)
        outcomes: list[str] = []
        worker = threading.Thread(target=lambda m=mail, out=outcomes: out.append(ingest(archive, m).text))
        started = time.monotonic()
        worker.start()
        longest = 0.0
        while worker.is_alive():
            moment = time.monotonic()
            set_paused(archive, "rome2", False)  # another game's write
            longest = max(longest, time.monotonic() - moment)
        worker.join()
        print(
            f"\n{name}: ingest {time.monotonic() - started:.2f} s, longest wait of another game's write {longest:.3f} s"
        )
        if lines > 1000:
            [outcome] = outcomes
            assert outcome.startswith("refused: the order text is 800") and "more than the 256 KB" in outcome
        else:
            assert outcomes == ["orders not understood"]


# -- addresses and Message-IDs -----------------------------------------------------------------------------------

BAD_ADDRESSES = [
    "mac@example.org\r\nBcc: all@example.net",
    "mac@example.org\n",
    "mac\x1b@example.org",
    "mac@localhost",
    "mac",
    "mac@example..org",
    "Mac <mac@example.org>",
]


@pytest.mark.parametrize("address", BAD_ADDRESSES)
def test_pbem_new_refuses_an_address_that_cannot_be_mailed(pbem: Pbem, address: str) -> None:
    result = pbem(
        "new",
        "rome1",
        "--seat",
        f"Macedonia={address}",
        "--seat",
        "Egyptus=egy@example.org",
        "--seat",
        "Hispania=his@example.org",
    )
    assert result.exit_code != 0
    assert f"seat Macedonia: {address!r} is not a mail address: " in result.output
    assert pbem.dump() == []


def test_gm_replace_and_gm_observe_refuse_an_address_with_cr_or_lf(pbem: Pbem) -> None:
    pbem.new_game()
    before = pbem.dump()
    result = pbem("gm", "replace", "rome1", "Egyptus", "--email", "new@example.org\r\nBcc: x@example.net")
    assert result.exit_code != 0 and "is not a mail address: it holds a carriage return (CR)" in result.output
    result = pbem("gm", "observe", "rome1", "fan@example.org\n")
    assert result.exit_code != 0 and "is not a mail address: it holds a line feed (LF)" in result.output
    assert pbem.dump() == before


def test_observe_from_an_address_that_cannot_be_mailed_adds_nobody(game: MailGame) -> None:
    archive, _, _ = game
    mails = len(queued(archive))
    outcome = ingest(archive, read_message(letter_bytes("fan@localhost", "OBSERVE rome1\n", mid="fan"))).text
    assert outcome == STRANGER + "refused: OBSERVE from an address that cannot be mailed"
    with archive.session() as session:
        assert session.exec(select(ObserverRow)).all() == []
    assert len(queued(archive)) == mails


def test_a_known_message_id_with_other_content_is_not_used_and_the_seat_is_told(game: MailGame) -> None:
    archive, _, passwords = game
    assert ingest(archive, orders(passwords["Macedonia"], "BUY 1 INF", mid="7")).text == "orders stored"
    mails = len(queued(archive))
    assert ingest(archive, orders(passwords["Macedonia"], "BUY 1 INF", mid="7")).text == "duplicate"
    assert len(queued(archive)) == mails  # the same mail again: nothing at all
    before = archive.dump()
    outcome = ingest(archive, orders(passwords["Macedonia"], "BUY 9 CAV", mid="7")).text
    assert outcome == "refused: the Message-ID of an earlier mail, with other content"
    after = archive.dump()
    [notice] = [row for row in after if row not in before]
    assert notice[0] == "outbox"
    [mail] = queued(archive)[mails:]
    assert mail.to == "mac@example.org" and mail.subject == "[rome1] A mail for Macedonia was not used"
    assert "<7@players.example.org> of an earlier mail, but other content: it was not used" in mail.body


def test_a_strangers_mail_under_a_known_message_id_tells_no_seat(game: MailGame) -> None:
    """Neither the seat's password nor its address: a mail reusing a Message-ID mails nobody on its word."""
    archive, _, passwords = game
    assert ingest(archive, orders(passwords["Macedonia"], "BUY 1 INF", mid="8")).text == "orders stored"
    mails = len(queued(archive))
    for k in range(3):
        forged = read_message(
            letter_bytes("evil@example.net", f"GAME rome1 TURN 1 PLAYER Macedonia PASSWORD x{k}\n", mid="8")
        )
        assert (
            ingest(archive, forged).text == STRANGER + "refused: the Message-ID of an earlier mail, with other content"
        )
    assert len(queued(archive)) == mails


# -- MIME parts --------------------------------------------------------------------------------------------------


def multipart(parts: list[str], sender: str = "mac@example.org") -> bytes:
    """A multipart/mixed mail of the given parts (each: its header lines, a blank line, its body)."""
    head = (
        f"From: {sender}\nSubject: orders\nMessage-ID: <parts@players.example.org>\nMIME-Version: 1.0\n"
        'Content-Type: multipart/mixed; boundary="b"\n\n'
    )
    return (head + "".join(f"--b\n{part}\n" for part in parts) + "--b--\n").encode()


def test_a_mail_of_20000_mime_parts_is_refused_without_reading_them(game: MailGame) -> None:
    archive, _, _ = game
    data = multipart(["Content-Type: text/plain\n\nx"] * 20_000)
    assert len(data) < MAX_MAIL_BYTES
    started = time.monotonic()
    mail = read_message(data)
    print(f"\n20000 MIME parts read in {time.monotonic() - started:.3f} s")
    assert mail.unread == "the mail has more than 50 MIME parts; it was not read" and mail.text == ""
    outcome, receipt = refused_with_one_receipt(archive, mail, "mac@example.org")
    assert outcome == "refused: the mail has more than 50 MIME parts; it was not read"


def test_mime_parts_nested_too_deep_are_refused() -> None:
    data = b"From: mac@example.org\nMessage-ID: <deep@x>\nMIME-Version: 1.0\n"
    for level in range(12):
        data += f'Content-Type: multipart/mixed; boundary="b{level}"\n\n--b{level}\n'.encode()
    data += b"Content-Type: text/plain\n\nhello\n" + b"".join(f"--b{k}--\n".encode() for k in reversed(range(12)))
    assert read_message(data).unread == "the mail's MIME parts are nested more than 8 deep; it was not read"


def test_orders_are_found_in_any_text_part_plain_then_html_then_txt_attachments() -> None:
    header = "GAME rome1 TURN 1 PLAYER Macedonia PASSWORD x"
    plain, html = "Content-Type: text/plain\n\n", "Content-Type: text/html\n\n"
    attached = 'Content-Type: text/plain\nContent-Disposition: attachment; filename="orders.txt"\n\n'
    second_plain = read_message(multipart([plain + "Hello, my orders:", plain + f"{header}\nBUY 1 INF"]))
    assert second_plain.text == f"{header}\nBUY 1 INF"
    in_html = read_message(
        multipart([plain + "Hello", html + f"<p>{header}<br>BUY 2 INF</p>", attached + f"{header}\nBUY 3 INF"])
    )
    assert in_html.text == f"{header}\nBUY 2 INF"
    in_file = read_message(
        multipart([plain + "Hello", html + "<p>see the file</p>", attached + f"{header}\nBUY 3 INF"])
    )
    assert in_file.text == f"{header}\nBUY 3 INF"
    first = read_message(multipart([plain + f"{header}\nBUY 1 INF", plain + f"{header}\nBUY 4 INF"]))
    assert first.text == f"{header}\nBUY 1 INF"


# -- a mail that cannot be read is reported once -------------------------------------------------------------------


def test_an_unreadable_mail_in_a_maildir_is_reported_once_and_set_aside(pbem: Pbem, tmp_path: Path) -> None:
    pbem.new_game()
    box = mailbox.Maildir(tmp_path / "Maildir")
    box.add(b"\x01\x02 this is no mail\n")
    box.add(letter_bytes("evil@example.net", "hello\n", mid="s"))
    first = pbem("ingest", "--maildir", str(tmp_path / "Maildir"))
    assert first.exit_code == 0, first.output
    assert first.output.count("unreadable: Maildir") == 1 and "<s@players.example.org>" in first.output
    again = pbem("ingest", "--maildir", str(tmp_path / "Maildir"))
    assert again.exit_code == 0 and again.output == ""
    assert [f.read_bytes() for f in (tmp_path / "Maildir" / "rejected").iterdir()] == [b"\x01\x02 this is no mail\n"]


def test_an_orders_header_in_a_forwarded_mail_is_not_taken_for_orders() -> None:
    forwarded = (
        "Content-Type: message/rfc822\n\nFrom: judge@example.org\nSubject: welcome\n\n"
        "GAME rome1 TURN 1 PLAYER Macedonia PASSWORD secret\n"
    )
    mail = read_message(multipart(["Content-Type: text/plain\n\nWhat does this mean?", forwarded]))
    assert mail.text == "What does this mean?"
