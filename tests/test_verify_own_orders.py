"""A player checks from his own receipts that each of his turns was resolved with the orders the moderator
confirmed (services/verify_reports.py): the receipt prints the fingerprint of the text stored, the report the
turn's commitment, and the seed that the game's end reveals links the two (engine/chance.py
fingerprints_commitment). The moderator's `pbem verify` cannot see orders changed before the turn was resolved:
his archive is consistent with them. The game is the one of two seats that one turn ends (C-5.31, C-8.8)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest

from adjudicator.archive import Archive
from adjudicator.archive.store import close_archives
from adjudicator.engine.chance import chain_checkpoints, orders_digest, orders_fingerprint, turn_key
from adjudicator.mail.inbound import read_message
from adjudicator.render.i18n import translations
from adjudicator.services.clock import FixedClock
from adjudicator.services.mailbox import ingest
from adjudicator.services.verify_reports import FINGERPRINT_LINE, SEED_LINES
from tests.conftest import Pbem, read_eml
from tests.test_orders_commitment import CAPTURE, TWO, caesar_capture_game
from tests.test_verify_reports import check, problems

SEAT = "Egyptus"
NOON = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
REFUSED = "BUY 1 INF AT EGY"  # refused once the capture has ended the game (C-14.1): the set still stands


def order_mail(pbem: Pbem, at: datetime, *lines: str) -> bytes:
    """Egyptus's mail of his orders, sent at `at`."""
    message = EmailMessage()
    message["From"], message["To"] = TWO[SEAT], "gm@example.org"
    message["Subject"], message["Message-ID"] = "orders", f"<{at.timestamp():.0f}.{len(lines)}@players.example.org>"
    header = f"GAME rome1 TURN 1 PLAYER {SEAT} PASSWORD {pbem.passwords[SEAT]}"
    message.set_content("Hello,\n\n" + "\n".join([header, *lines]) + "\n-- \nEgyptus\n")
    return bytes(message)


def received(pbem: Pbem, mail: bytes, at: datetime) -> None:
    """The moderator's archive takes the mail at `at`."""
    ingest(Archive.open(pbem.data, None), read_message(mail), clock=FixedClock(at))


def mail_orders(pbem: Pbem, at: datetime, *lines: str) -> None:
    """Egyptus mails his orders; the moderator's archive takes them at `at`."""
    received(pbem, order_mail(pbem, at, *lines), at)


def kept_mails(pbem: Pbem, into: Path) -> Path:
    """Everything the game mailed Egyptus (receipts, reports), as he saved it."""
    sent = pbem("send", "--no-png", "--eml-dir", str(into))
    assert sent.exit_code == 0, sent.output
    for path in into.glob("*.eml"):
        if TWO[SEAT] not in str(read_eml(path)["To"]):
            path.unlink()
    return into


def stored_text(pbem: Pbem) -> str:
    (text,) = pbem.sql("SELECT text FROM orderset WHERE replaced = 0 AND seat = 'Egyptus'")[0]
    return str(text)


def resolved(pbem: Pbem) -> None:
    """The moderator resolves the turn, which ends the game: its report reveals the seed."""
    assert pbem("adjudicate", "rome1").exit_code == 0
    close_archives()


def test_the_receipt_prints_the_fingerprint_of_the_text_stored_and_when(tmp_path: Path) -> None:
    pbem = caesar_capture_game(tmp_path)
    mail_orders(pbem, NOON, CAPTURE)
    (receipt,) = [m for m in pbem.sent() if "Receipt" in str(m["Subject"])]
    body = receipt.get_content()
    line = re.search(
        r"^Fingerprint of the orders of (\S+) for turn (\d+) of game (\S+), stored (\S+): (\w+)$", body, re.M
    )
    assert line, body
    assert line.groups() == (SEAT, "1", "rome1", NOON.isoformat(), orders_fingerprint(stored_text(pbem)))
    assert "pbem verify --from-reports" in body


@pytest.mark.parametrize("language", ["en", "de", "it", "nl"])
def test_a_turn_resolved_with_the_orders_the_receipt_confirmed_passes(tmp_path: Path, language: str) -> None:
    """In the player's language: his receipts and reports are read in each language the catalogues have."""
    pbem = caesar_capture_game(tmp_path, "--language", f"{SEAT}={language}")
    mail_orders(pbem, NOON, CAPTURE)
    resolved(pbem)
    kept = kept_mails(pbem, tmp_path / "kept")
    fingerprint = translations(language).gettext(FINGERPRINT_LINE).split("%(")[0]  # "Fingerabdruck der Befehle von "
    assert fingerprint != "Fingerprint of the orders of " or language == "en"
    texts = [read_eml(mail).get_body(preferencelist=("plain",)).get_content() for mail in kept.glob("*.eml")]
    assert any(fingerprint in text for text in texts)  # his receipt, in his language
    result = check(kept)
    assert result.exit_code == 0, result.output
    assert (
        "ok       game rome1: 1 turn(s) resolved with the orders your last receipt of each confirmed" in result.output
    )


def test_orders_changed_by_the_moderator_before_the_turn_are_caught_by_the_players_receipt(tmp_path: Path) -> None:
    pbem = caesar_capture_game(tmp_path)
    mail_orders(pbem, NOON, CAPTURE)
    pbem.sql(f"UPDATE orderset SET text = text || char(10) || '{REFUSED}' WHERE seat = '{SEAT}'")  # receipt sent
    resolved(pbem)
    verified = pbem("verify", "rome1")
    assert verified.exit_code == 0 and "0 problems" in verified.output  # his archive agrees with itself
    result = check(kept_mails(pbem, tmp_path / "kept"))
    assert result.exit_code == 1
    assert [
        p
        for p in problems(result)
        if "game rome1 turn 1: its orders hash is not the commitment to the orders of Egyptus this receipt confirmed"
        in p
    ], result.output


def test_a_turn_resolved_with_the_set_the_player_had_replaced_is_named_with_both_times(tmp_path: Path) -> None:
    pbem = caesar_capture_game(tmp_path)
    mail_orders(pbem, NOON, CAPTURE, REFUSED)
    mail_orders(pbem, NOON + timedelta(minutes=5), CAPTURE)
    pbem.sql(f"UPDATE orderset SET replaced = 1 WHERE seat = '{SEAT}' AND text NOT LIKE '%BUY%'")
    pbem.sql(f"UPDATE orderset SET replaced = 0 WHERE seat = '{SEAT}' AND text LIKE '%BUY%'")
    resolved(pbem)
    found = problems(check(kept_mails(pbem, tmp_path / "kept")))
    assert [
        p
        for p in found
        if "game rome1 turn 1: resolved with the orders of Egyptus stored 2026-11-29T12:00:00+00:00, which the orders "
        "stored 2026-11-29T12:05:00+00:00 had replaced" in p
    ], found


@pytest.mark.parametrize("greeting", ["Hello,", "Game on, Hispania!"])  # the second begins with a header's word
def test_a_receipt_confirms_the_orders_of_the_mail_it_answers(tmp_path: Path, greeting: str) -> None:
    pbem = caesar_capture_game(tmp_path)
    sent = order_mail(pbem, NOON, CAPTURE).replace(b"Hello,", greeting.encode())
    received(pbem, sent, NOON)
    kept = kept_mails(pbem, tmp_path / "kept")
    (kept / "sent-orders.eml").write_bytes(sent)  # the player keeps what he sent, as his mail program does
    result = check(kept)
    assert result.exit_code == 0, result.output
    assert "ok       game rome1: 1 receipt(s) confirm the orders of the mail you sent" in result.output


def test_orders_stored_other_than_the_mail_sent_are_caught_by_the_receipt_that_answers_it(tmp_path: Path) -> None:
    """The moderator takes the mail in with a line of his own: the receipt is consistent with what he stored (and
    so, at the end, is the turn's commitment), but not with the mail the player kept."""
    pbem = caesar_capture_game(tmp_path)
    sent = order_mail(pbem, NOON, CAPTURE)
    doctored = sent.replace(CAPTURE.encode(), f"{CAPTURE}\n{REFUSED}".encode())  # the same Message-ID
    assert doctored != sent
    received(pbem, doctored, NOON)
    kept = kept_mails(pbem, tmp_path / "kept")
    (kept / "sent-orders.eml").write_bytes(sent)
    found = problems(check(kept))
    assert [
        p
        for p in found
        if "game rome1 turn 1: the receipt confirms other orders of Egyptus than the mail it answers (sent-orders.eml)"
        in p
    ], found


def test_the_answer_to_myorders_restates_the_stored_orders_and_is_not_held_to_the_mail_that_asked(
    tmp_path: Path,
) -> None:
    pbem = caesar_capture_game(tmp_path)
    sent, asked = order_mail(pbem, NOON, CAPTURE), order_mail(pbem, NOON + timedelta(minutes=1), "MYORDERS")
    received(pbem, sent, NOON)
    received(pbem, asked, NOON + timedelta(minutes=1))
    kept = kept_mails(pbem, tmp_path / "kept")
    (kept / "sent-orders.eml").write_bytes(sent)
    (kept / "sent-myorders.eml").write_bytes(asked)
    stored = f"stored {NOON.isoformat()}: {orders_fingerprint(stored_text(pbem))}"
    texts = [read_eml(mail).get_body(preferencelist=("plain",)).get_content() for mail in kept.glob("[0-9]*.eml")]
    assert sum(stored in text for text in texts) == 2  # the receipt, and the answer to MYORDERS
    result = check(kept)
    assert result.exit_code == 0, result.output
    assert "ok       game rome1: 1 receipt(s) confirm the orders of the mail you sent" in result.output


@pytest.mark.parametrize("sets", [((CAPTURE, REFUSED), (CAPTURE,)), ((CAPTURE,), (CAPTURE, REFUSED))])
def test_two_sets_stored_in_the_same_second_are_both_last_and_either_may_be_the_one_resolved(
    tmp_path: Path, sets: tuple[tuple[str, ...], ...]
) -> None:
    """The archive keeps times to the second: a set and its correction taken in one second leave two receipts that
    are both the last one the player holds; the turn resolved with the later one is no problem, whichever it is."""
    pbem = caesar_capture_game(tmp_path)
    for lines in sets:
        received(pbem, order_mail(pbem, NOON, *lines), NOON)
    resolved(pbem)
    result = check(kept_mails(pbem, tmp_path / "kept"))
    assert result.exit_code == 0, result.output
    assert "game rome1: 1 turn(s) resolved with the orders your last receipt of each confirmed" in result.output


def test_a_fingerprint_line_outside_a_receipt_proves_nothing(tmp_path: Path) -> None:
    """Another player may write a receipt's line in his press: only a receipt's own line, in a text that begins
    with the receipt's title, is read."""
    pbem = caesar_capture_game(tmp_path)
    mail_orders(pbem, NOON, CAPTURE)
    resolved(pbem)
    kept = kept_mails(pbem, tmp_path / "kept")
    forged = (
        f"Fingerprint of the orders of {SEAT} for turn 1 of game rome1, stored 2099-01-01T00:00:00+00:00: {'ab' * 32}"
    )
    (kept / "press.txt").write_text(f"Press from Hispania to {SEAT}:\n{forged}\n{forged[:40]}\n", encoding="utf-8")
    result = check(kept)
    assert result.exit_code == 0, result.output
    assert "game rome1: 1 turn(s) resolved with the orders your last receipt of each confirmed" in result.output


def test_a_withdraw_takes_the_seat_back_from_the_bot_so_that_the_turn_is_resolved_with_no_orders(
    tmp_path: Path,
) -> None:
    """Left on the bot, a seat with no orders gets the bot's: the player's WITHDRAW (a receipt of no orders) would
    then be contradicted by the turn. His WITHDRAW is his own act: the seat is his again."""
    pbem = caesar_capture_game(tmp_path)
    assert pbem("gm", "bot", "rome1", SEAT).exit_code == 0
    mail_orders(pbem, NOON, "WITHDRAW")
    assert pbem.sql(f"SELECT run_by_bot FROM seat WHERE seat = '{SEAT}' AND game_id = 2") == [(0,)]
    assert pbem("adjudicate", "rome1", "--now").exit_code == 0  # no orders: resolved now, past the deadline
    report = (pbem.data / "games/rome1/turn-0001/report.txt").read_text(encoding="utf-8")
    assert "given by the bot" not in report and f"No orders received from {SEAT}" in report, report


def test_a_game_of_unkeyed_orders_hashes_checks_a_receipt_against_the_hash_of_its_fingerprint(tmp_path: Path) -> None:
    """A game begun by an older version publishes orders_digest, SHA-256 of the texts' SHA-256s; its last report
    says so beside the seed. The files below are what such a game prints; the check uses that formula."""
    seed, text = bytes(range(32)), "GAME rome1 TURN 1 PLAYER Egyptus PASSWORD [removed]\nBUY 1 INF\n"
    key = turn_key(seed, 1, chain_checkpoints(seed)).hex()
    folder = tmp_path / "kept"
    folder.mkdir()
    seed_line = translations("en").gettext(SEED_LINES[1]) % {"seed": seed.hex()}
    report = f"Game rome1 - public report\n=== Turn 1: {SEAT} (round 1) ===\nDice: turn key {key}\n"
    report += f"      orders hash {orders_digest([text])}; no dice were rolled\n{seed_line}\n"
    (folder / "report.txt").write_text(report, encoding="utf-8")
    receipt = f"Receipt: game rome1, turn 1, {SEAT}\nYour order set is stored.\n"
    receipt += f"Fingerprint of the orders of {SEAT} for turn 1 of game rome1, stored {NOON.isoformat()}: "
    (folder / "receipt.txt").write_text(receipt + orders_fingerprint(text) + "\n", encoding="utf-8")
    result = check(folder)
    assert result.exit_code == 0, result.output
    assert "game rome1: 1 turn(s) resolved with the orders your last receipt of each confirmed" in result.output
    (folder / "receipt.txt").write_text(receipt + orders_fingerprint(text + "x") + "\n", encoding="utf-8")
    assert [p for p in problems(check(folder)) if "turn 1: its orders hash is not the commitment" in p]
