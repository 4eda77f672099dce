"""The mail loop: strangers, welcome mails, mail commands (HELP, STATUS, OBSERVE, UNOBSERVE,
PASSWORD RESET, TIMEZONE), the moderator's overview, replacing a player, deadlines and threading, self-play.
Against a real archive (SQLite and PostgreSQL) through `ingest`, `tick` and the CLI."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

from sqlalchemy import text
from sqlmodel import select

from adjudicator.archive import Archive
from adjudicator.archive import queries as db
from adjudicator.archive.models import MessageRow, ObserverRow, OutboxRow, SeatRow
from adjudicator.mail.inbound import Incoming, read_message
from adjudicator.mail.outbound import build_message
from adjudicator.services.clock import FixedClock
from adjudicator.services.deadlines import tick
from adjudicator.services.games import NewGameOptions, new_game
from adjudicator.services.gm import replace_player, set_observer
from adjudicator.services.mailbox import ingest
from adjudicator.services.reports import queued_maps
from adjudicator.services.selfplay import play_archived_game
from tests.conftest import SEATS, MailGame, Pbem


def letter(sender: str, *lines: str, mid: str = "1", references: str = "") -> Incoming:
    """A real mail message, read as `pbem ingest` reads it."""
    return read_message(letter_bytes(sender, *lines, mid=mid, references=references))


def letter_bytes(sender: str, *lines: str, mid: str = "1", references: str = "") -> bytes:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = "judge@example.org"
    message["Subject"] = "pbem"
    message["Message-ID"] = f"<{mid}@players.example.org>"
    if references:
        message["References"] = references
    message.set_content("\n".join(lines) + "\n")
    return bytes(message)


def orders(
    seat: str,
    password: str,
    *lines: str,
    turn: int = 1,
    mid: str = "1",
    sender: str | None = None,
    references: str = "",
) -> Incoming:
    return letter(
        sender or SEATS[seat],
        f"GAME rome1 TURN {turn} PLAYER {seat} PASSWORD {password}",
        *lines,
        mid=mid,
        references=references,
    )


def queued(archive: Archive, since: int = 0) -> list[OutboxRow]:
    with archive.session() as session:
        rows = session.exec(select(OutboxRow).where(OutboxRow.id > since).order_by(OutboxRow.id)).all()  # type: ignore[arg-type]
        return list(rows)


def last_id(archive: Archive) -> int:
    rows = queued(archive)
    return rows[-1].id or 0 if rows else 0


def stored_messages(archive: Archive) -> list[MessageRow]:
    with archive.session() as session:
        return list(session.exec(select(MessageRow).order_by(MessageRow.id)).all())  # type: ignore[arg-type]


def without_messages(archive: Archive) -> list[tuple[str, tuple[object, ...]]]:
    """Every row of the archive except the stored messages (a refused mail adds only its Message row)."""
    return [row for row in archive.dump() if row[0] != "message"]


def confirmation_token(mail: OutboxRow, game: str = "rome1") -> str:
    """The token of an OBSERVE confirmation mail: the line to send back is `OBSERVE <game> <token>`."""
    found = re.search(rf"^\s*\S+ {game} (\S+)$", mail.body, re.MULTILINE)
    assert found is not None, mail.body
    return found.group(1)


def observe_confirmed(archive: Archive, address: str, mid: str = "obs") -> None:
    """An address asks to observe rome1 and answers the confirmation mail with its token."""
    assert ingest(archive, letter(address, "OBSERVE rome1", mid=f"{mid}1")).text == "confirmation of OBSERVE mailed"
    token = confirmation_token(queued(archive)[-1])
    assert ingest(archive, letter(address, f"OBSERVE rome1 {token}", mid=f"{mid}2")).text == "observer added"


def reports_to(archive: Archive, address: str, since: int = 0) -> list[OutboxRow]:
    """The report mails (in any language: those with a map) queued for `address`."""
    return [m for m in queued(archive, since) if m.to == address and m.map_turn]


# -- strangers get nothing -----------------------------------------------------------------------------------


def test_a_strangers_mail_without_header_is_stored_and_logged_but_not_answered(game: MailGame) -> None:
    archive, _, _ = game
    before, mark = without_messages(archive), last_id(archive)
    outcome = ingest(archive, letter("spammer@example.net", "Cheap watches!")).text
    assert outcome == "not answered (stranger): refused: no header"
    assert queued(archive, mark) == [] and without_messages(archive) == before
    (stored,) = stored_messages(archive)
    assert stored.sender == "spammer@example.net" and stored.outcome == outcome


def test_a_stranger_writing_to_an_unknown_game_gets_no_list_of_games(game: MailGame) -> None:
    archive, _, _ = game
    mark = last_id(archive)
    outcome = ingest(archive, letter("who@example.net", "GAME carthago TURN 1 PLAYER Egyptus PASSWORD x")).text
    assert outcome == "not answered (stranger): refused: unknown game"
    assert queued(archive, mark) == []


def test_a_player_writing_to_an_unknown_game_is_told_only_his_own_games(game: MailGame, tmp_path: Path) -> None:
    archive, _, _ = game
    new_game(
        archive,
        tmp_path,
        NewGameOptions(
            "secret2",
            "coe-classic",
            {"Macedonia": "x@example.org", "Egyptus": "y@example.org", "Hispania": "z@example.org"},
        ),
    )
    mark = last_id(archive)
    assert (
        ingest(archive, letter("egy@example.org", "GAME carthago TURN 1 PLAYER Egyptus PASSWORD x")).text
        == "refused: unknown game"
    )
    (answer,) = queued(archive, mark)
    assert answer.to == "egy@example.org" and "rome1" in answer.body and "secret2" not in answer.body


def test_a_stranger_naming_an_unknown_seat_is_not_answered(game: MailGame) -> None:
    archive, _, _ = game
    mark = last_id(archive)
    outcome = ingest(archive, letter("who@example.net", "GAME rome1 TURN 1 PLAYER Nobody PASSWORD x")).text
    assert outcome.startswith("not answered (stranger): refused:") and queued(archive, mark) == []


def test_pbem_log_and_ingest_show_the_refused_strangers_mail(pbem: Pbem, tmp_path: Path) -> None:
    pbem.new_game()
    spam = tmp_path / "spam.eml"
    spam.write_bytes(letter_bytes("spammer@example.net", "Cheap watches!", mid="spam1"))
    ingested = pbem("ingest", str(spam))
    assert "<spam1@players.example.org> from spammer@example.net: not answered (stranger)" in ingested.output
    log = pbem("log")
    assert log.exit_code == 0 and "spammer@example.net - - <spam1@players.example.org>: not answered" in log.output


# -- welcome mails and PASSWORD RESET ------------------------------------------------------------------------


def test_new_game_queues_a_welcome_with_the_password_for_every_seat(game: MailGame) -> None:
    archive, _, passwords = game
    welcomes = queued(archive)
    assert sorted(m.to for m in welcomes) == sorted(SEATS.values())
    for mail in welcomes:
        seat = next(s for s, a in SEATS.items() if a == mail.to)
        assert "Welcome to" in mail.subject and f"PASSWORD {passwords[seat]}" in mail.body
        assert f"GAME rome1 TURN {1 + list(SEATS).index(seat)} PLAYER {seat}" in mail.body  # the orders template


def test_password_reset_mails_a_new_password_to_the_registered_address(game: MailGame) -> None:
    archive, _, passwords = game
    mark = last_id(archive)
    assert (
        ingest(archive, letter("MAC@example.org", "PASSWORD RESET rome1 Macedonia")).text
        == "password reset for Macedonia"
    )
    (mail,) = queued(archive, mark)
    assert mail.to == "mac@example.org" and mail.in_reply_to == "<1@players.example.org>"
    new_password = mail.body.split("new password: ")[1].split()[0]
    assert ingest(archive, orders("Macedonia", new_password, "BUY 1 INF", mid="3")).text == "orders stored"


def test_password_reset_from_another_address_changes_nothing_and_mails_nobody(game: MailGame) -> None:
    archive, _, passwords = game
    before, mark = without_messages(archive), last_id(archive)
    outcome = ingest(archive, letter("evil@example.net", "PASSWORD RESET rome1 Macedonia")).text
    assert outcome == "not answered (stranger): refused: PASSWORD RESET not from the seat's registered address"
    outcome = ingest(archive, letter("egy@example.org", "PASSWORD RESET rome1 Macedonia", mid="2")).text
    assert outcome.endswith("not from the seat's registered address")
    assert queued(archive, mark) == [] and without_messages(archive) == before


def test_a_forged_password_reset_leaves_the_old_password_working(game: MailGame) -> None:
    archive, _, passwords = game
    mark = last_id(archive)
    forged = letter("mac@example.org", "PASSWORD RESET rome1 Macedonia")  # a rival forging the seat's address
    assert ingest(archive, forged).text == "password reset for Macedonia"
    (mail,) = queued(archive, mark)
    assert mail.to == "mac@example.org" and "keeps working until you first use the new one" in mail.body
    assert ingest(archive, orders("Macedonia", passwords["Macedonia"], "BUY 1 INF", mid="2")).text == "orders stored"
    assert ingest(archive, orders("Macedonia", passwords["Macedonia"], "BUY 2 INF", mid="3")).text == "orders stored"


def test_the_new_password_replaces_the_old_one_when_it_is_first_used(game: MailGame) -> None:
    archive, _, passwords = game
    mark = last_id(archive)
    ingest(archive, letter("mac@example.org", "PASSWORD RESET rome1 Macedonia"))
    first = queued(archive, mark)[-1].body.split("new password: ")[1].split()[0]
    ingest(archive, letter("mac@example.org", "PASSWORD RESET rome1 Macedonia", mid="2"))
    second = queued(archive, mark)[-1].body.split("new password: ")[1].split()[0]
    assert ingest(archive, orders("Macedonia", first, "BUY 1 INF", mid="3")).text == "refused: a wrong password"
    assert ingest(archive, orders("Macedonia", second, "BUY 1 INF", mid="4")).text == "orders stored"
    assert (
        ingest(archive, orders("Macedonia", passwords["Macedonia"], "BUY 2 INF", mid="5")).text
        == "refused: a wrong password"
    )
    assert ingest(archive, orders("Macedonia", second, "BUY 2 INF", mid="6")).text == "orders stored"
    with archive.session() as session:
        assert db.find_seat(session, db.find_game(session, "rome1"), "Macedonia").pending_password_hash == ""


def test_a_replaced_player_cannot_use_a_reset_password_he_asked_for_before(game: MailGame) -> None:
    archive, _, _ = game
    mark = last_id(archive)
    ingest(archive, letter("his@example.org", "PASSWORD RESET rome1 Hispania"))
    pending = queued(archive, mark)[-1].body.split("new password: ")[1].split()[0]
    password = replace_player(archive, "rome1", "Hispania", "neu@example.org")
    assert (
        ingest(archive, orders("Hispania", pending, "BUY 1 INF", turn=3, mid="2", sender="neu@example.org")).text
        == "refused: a wrong password"
    )
    assert (
        ingest(archive, orders("Hispania", password, "BUY 1 INF", turn=3, mid="3", sender="neu@example.org")).text
        == "orders stored"
    )


# -- HELP, STATUS, OBSERVE / UNOBSERVE, TIMEZONE -------------------------------------------------------------


def test_help_is_answered_to_a_registered_address_in_the_keywords_language_and_to_no_stranger(game: MailGame) -> None:
    archive, _, _ = game
    mark = last_id(archive)
    assert ingest(archive, letter("stranger@example.net", "HELP")).text == "not answered (stranger): HELP"
    assert queued(archive, mark) == []
    assert ingest(archive, letter("his@example.org", "HILFE", mid="2")).text == "HELP answered"
    (answer,) = queued(archive, mark)
    assert answer.to == "his@example.org" and "BEOBACHTE <Partie>" in answer.body
    assert "PASSWORT ZURÜCKSETZEN <Partie> <Sitz>" in answer.body
    assert "Befehle für Conquest of the Empire, klassische Ausgabe (2005), einer pro Zeile" in answer.body  # its title


def test_status_tells_deadline_who_has_sent_orders_and_missed_turns(game: MailGame) -> None:
    archive, data, passwords = game
    tick(archive, data)  # starts the clock: the deadline is set
    mark = last_id(archive)
    outcome = ingest(archive, orders("Egyptus", passwords["Egyptus"], "STATUS", turn=2)).text
    assert outcome == "commands: STATUS"
    (answer,) = queued(archive, mark)
    assert answer.to == "egy@example.org" and answer.in_reply_to == "<1@players.example.org>"
    assert "Turn 1, Macedonia: no orders yet." in answer.body and "Deadline: " in answer.body
    assert "Macedonia 0, Egyptus 0, Hispania 0" in answer.body
    ingest(archive, orders("Macedonia", passwords["Macedonia"], "BUY 1 INF", mid="2"))
    ingest(archive, orders("Egyptus", passwords["Egyptus"], "STATUS", turn=2, mid="3"))
    assert "Turn 1, Macedonia: orders received." in queued(archive)[-1].body


def test_status_needs_the_password(game: MailGame) -> None:
    archive, _, _ = game
    before, mark = without_messages(archive), last_id(archive)
    assert ingest(archive, orders("Egyptus", "guess", "STATUS", turn=2)).text == "refused: a wrong password"
    assert all("Turn 1, Macedonia" not in m.body for m in queued(archive, mark))
    assert [row for row in without_messages(archive) if row[0] != "outbox"] == [
        row for row in before if row[0] != "outbox"
    ]


def test_an_observer_gets_the_public_reports_only_until_unobserve(game: MailGame) -> None:
    archive, data, passwords = game
    observe_confirmed(archive, "fan@example.net")
    assert "UNOBSERVE rome1" in queued(archive)[-1].body
    ingest(archive, orders("Macedonia", passwords["Macedonia"], "MOVE G1 WITH 2 INF: MAC -> THR", mid="2"))
    tick(archive, data)
    (report,) = [m for m in queued(archive) if m.to == "fan@example.net" and "Report, turn 1" in m.subject]
    assert "conquers THR" in report.body and "<svg" in queued_maps(archive)(report)
    assert "private report" not in report.body and "PASSWORD" not in report.body
    assert ingest(archive, letter("fan@example.net", "UNOBSERVE rome1", mid="3")).text == "observer removed"
    mark = last_id(archive)
    ingest(archive, orders("Egyptus", passwords["Egyptus"], "BUY 1 INF", turn=2, mid="4"))
    tick(archive, data)
    assert [m for m in queued(archive, mark) if "Report, turn 2" in m.subject and m.to == "fan@example.net"] == []


def test_a_closed_game_takes_no_observer_by_mail_but_by_the_moderator(pbem: Pbem, tmp_path: Path) -> None:
    seats = [a for seat, mail in SEATS.items() for a in ("--seat", f"{seat}={mail}")]
    assert pbem("new", "rome1", *seats, "--observers", "closed", "--timezone", "egy=europe/berlin").exit_code == 0
    archive = Archive.open(pbem.data, pbem.db)
    assert (
        ingest(archive, letter("fan@example.net", "OBSERVE rome1")).text
        == "not answered (stranger): refused: observers are closed"
    )
    added = pbem("gm", "observe", "rome1", "fan@example.net", "--language", "it")
    assert added.exit_code == 0 and "fan@example.net observes rome1" in added.output
    status = pbem("status", "rome1").output
    assert "observers: fan@example.net" in status and "egy@example.org (en, Europe/Berlin)" in status
    assert "DISISCRIVI rome1" in queued(archive)[-1].body


def test_a_forged_observe_subscribes_nobody_and_mails_one_confirmation_a_day(game: MailGame) -> None:
    archive, data, passwords = game
    mark = last_id(archive)
    assert ingest(archive, letter("victim@example.net", "OBSERVE rome1")).text == "confirmation of OBSERVE mailed"
    (confirmation,) = queued(archive, mark)
    assert confirmation.to == "victim@example.net" and "Confirm" in confirmation.subject
    assert f"OBSERVE rome1 {confirmation_token(confirmation)}" in confirmation.body
    assert "If it was not you, ignore this mail" in confirmation.body
    before, mark = without_messages(archive), last_id(archive)
    for n in range(5):  # more forged requests within 24 hours: no second confirmation, nothing stored
        assert ingest(archive, letter("Victim@example.net", "OBSERVE rome1", mid=f"again{n}")).text.startswith(
            "not answered (stranger): refused: OBSERVE"
        )
    assert ingest(archive, letter("victim@example.net", "UNOBSERVE rome1", mid="u")).text.startswith(
        "not answered (stranger)"
    )  # nor does UNOBSERVE clear the way for another confirmation
    assert ingest(archive, letter("victim@example.net", "OBSERVE rome1", mid="again")).text.startswith(
        "not answered (stranger)"
    )
    assert ingest(archive, letter("victim@example.net", "HELP", mid="h")).text == "not answered (stranger): HELP"
    assert queued(archive, mark) == [] and without_messages(archive) == before
    with archive.session() as session:
        assert db.games_of_address(session, "victim@example.net") == []
    ingest(archive, orders("Macedonia", passwords["Macedonia"], "BUY 1 INF", mid="o"))
    tick(archive, data)
    assert reports_to(archive, "victim@example.net") == []


def test_observing_starts_only_when_the_address_sends_back_its_token(game: MailGame) -> None:
    archive, data, passwords = game
    assert ingest(archive, letter("fan@example.net", "BEOBACHTE rome1")).text == "confirmation of OBSERVE mailed"
    confirmation = queued(archive)[-1]
    token = confirmation_token(confirmation)
    assert f"BEOBACHTE rome1 {token}" in confirmation.body and confirmation.secret == token  # German, as asked
    assert "Beobachtung bestätigen" in confirmation.subject
    before, mark = without_messages(archive), last_id(archive)
    assert (
        ingest(archive, letter("fan@example.net", "OBSERVE rome1 0123456789abcdef", mid="2")).text
        == "not answered (stranger): refused: OBSERVE with a wrong token"
    )
    assert (
        ingest(archive, letter("other@example.net", f"OBSERVE rome1 {token}", mid="3")).text
        == "not answered (stranger): refused: OBSERVE with a wrong token"
    )  # the token is for fan@ alone
    assert queued(archive, mark) == [] and without_messages(archive) == before
    assert (
        ingest(archive, letter("FAN@example.net", f"OBSERVE rome1 {token.upper()}", mid="4")).text == "observer added"
    )
    (welcome,) = queued(archive, mark)
    assert welcome.to == "fan@example.net" and "UNOBSERVE rome1" in welcome.body
    with archive.session() as session:
        assert db.games_of_address(session, "fan@example.net") == ["rome1"]
    assert ingest(archive, letter("fan@example.net", f"OBSERVE rome1 {token}", mid="5")).text == "observer already"
    ingest(archive, orders("Macedonia", passwords["Macedonia"], "BUY 1 INF", mid="o"))
    tick(archive, data)
    assert len(reports_to(archive, "fan@example.net")) == 1


def test_a_confirmation_may_be_mailed_again_after_24_hours_with_a_new_token(game: MailGame) -> None:
    archive, _, _ = game
    start = datetime.now(UTC)
    ingest(archive, letter("fan@example.net", "OBSERVE rome1"), clock=FixedClock(start))
    old_token = confirmation_token(queued(archive)[-1])
    mark = last_id(archive)
    later = FixedClock(start + timedelta(hours=25))  # the confirmation was mailed 25 hours ago
    assert (
        ingest(archive, letter("fan@example.net", "OBSERVE rome1", mid="2"), clock=later).text
        == "confirmation of OBSERVE mailed"
    )
    (again,) = queued(archive, mark)
    new_token = confirmation_token(again)
    assert new_token != old_token
    assert (
        ingest(archive, letter("fan@example.net", f"OBSERVE rome1 {old_token}", mid="3")).text
        == "not answered (stranger): refused: OBSERVE with a wrong token"
    )
    assert ingest(archive, letter("fan@example.net", f"OBSERVE rome1 {new_token}", mid="4")).text == "observer added"


def test_the_moderator_adds_a_confirmed_observer_also_over_a_pending_request(game: MailGame) -> None:
    archive, data, passwords = game
    ingest(archive, letter("fan@example.net", "OBSERVE rome1"))
    mark = last_id(archive)
    assert set_observer(archive, "rome1", "fan@example.net", language="it")
    (told,) = queued(archive, mark)
    assert told.to == "fan@example.net" and "DISISCRIVI rome1" in told.body
    assert not set_observer(archive, "rome1", "fan@example.net")  # nothing to do: it observes
    ingest(archive, orders("Macedonia", passwords["Macedonia"], "BUY 1 INF", mid="o"))
    tick(archive, data)
    assert len(reports_to(archive, "fan@example.net")) == 1
    with archive.session() as session:
        (row,) = session.exec(select(ObserverRow)).all()
        assert row.confirmed and row.token_hash == "" and row.language == "it"


def test_an_archive_made_before_the_opt_in_keeps_its_observers_and_passwords(
    tmp_path: Path, database: str | None
) -> None:
    archive = Archive.open(tmp_path, database)
    passwords = new_game(archive, tmp_path, NewGameOptions("rome1", "coe-classic", SEATS)).passwords
    set_observer(archive, "rome1", "fan@example.net")
    with archive.engine.begin() as connection:  # as the tables were before the opt-in
        for table, column in (("observer", "confirmed"), ("observer", "token_hash"), ("seat", "pending_password_hash")):
            connection.execute(text(f"ALTER TABLE {table} DROP COLUMN {column}"))
    archive.close()
    upgraded = Archive.open(tmp_path, database)
    with upgraded.session() as session:
        assert db.games_of_address(session, "fan@example.net") == ["rome1"]
    assert ingest(upgraded, orders("Macedonia", passwords["Macedonia"], "BUY 1 INF")).text == "orders stored"
    tick(upgraded, tmp_path)
    assert len(reports_to(upgraded, "fan@example.net")) == 1


def test_timezone_command_and_option_state_the_deadline_in_the_seats_time(game: MailGame) -> None:
    archive, data, passwords = game
    tick(archive, data)
    mark = last_id(archive)
    outcome = ingest(archive, orders("Macedonia", passwords["Macedonia"], "TIMEZONE Europe/Berlin", "BUY 1 INF")).text
    assert outcome == "orders stored"
    answer, receipt = queued(archive, mark)
    assert "Your time zone is now Europe/Berlin." in answer.body
    assert "UTC (Europe/Berlin: " in receipt.body and receipt.in_reply_to == "<1@players.example.org>"
    assert (
        ingest(archive, orders("Egyptus", passwords["Egyptus"], "TIMEZONE america/new_york", turn=2, mid="2")).text
        == "commands: TIMEZONE"
    )
    assert "America/New_York" in queued(archive)[-1].body
    with archive.session() as session:
        assert session.exec(select(SeatRow).where(SeatRow.seat == "Egyptus")).one().timezone == "America/New_York"
    ingest(archive, orders("Egyptus", passwords["Egyptus"], "TIMEZONE Mars/Olympus", turn=2, mid="3"))
    assert "write an IANA time zone" in queued(archive)[-1].body


def test_an_unknown_time_zone_is_refused_by_pbem_new(pbem: Pbem) -> None:
    seats = [a for seat, mail in SEATS.items() for a in ("--seat", f"{seat}={mail}")]
    result = pbem("new", "rome1", *seats, "--timezone", "Egyptus=Mars/Olympus")
    assert result.exit_code == 1 and "unknown time zone 'Mars/Olympus'" in result.output


# -- the moderator's overview --------------------------------------------------------------------------------


def test_pbem_games_and_pbem_status_show_turn_due_seats_deadline_and_missing_orders(pbem: Pbem) -> None:
    pbem.new_game()
    pbem.new_game("rome2", pace="round")
    pbem("tick")
    assert pbem("submit", "rome2", str(pbem.orders("Egyptus", 2, "BUY 1 INF", game="rome2"))).exit_code == 0
    listed = pbem("games").output.splitlines()
    assert listed[0].startswith("rome1: after turn 0; due 1 Macedonia; deadline 20")
    assert listed[0].endswith("missing orders: Macedonia; running")
    assert "due 1 Macedonia, 2 Egyptus, 3 Hispania;" in listed[1]
    assert "missing orders: Macedonia, Hispania;" in listed[1]
    status = pbem("status", "rome2").output
    assert "Egyptus      turn 2: orders received 20" in status and "Macedonia    turn 1: NO ORDERS YET" in status
    assert "egy@example.org (en)" in status


# -- replacing a player --------------------------------------------------------------------------------------


def test_a_replacing_player_is_welcomed_in_his_language_and_the_old_one_is_told(game: MailGame) -> None:
    archive, _, passwords = game
    mark = last_id(archive)
    password = replace_player(archive, "rome1", "Hispania", "neu@example.org", "de")
    old, new = queued(archive, mark)
    assert old.to == "his@example.org" and "no longer play Hispania" in old.subject
    assert new.to == "neu@example.org" and "Willkommen" in new.subject
    assert f"SPIELER Hispania PASSWORT {password}" in new.body  # his password, with German keywords
    assert "SPIEL rome1 ZUG 3 SPIELER Hispania PASSWORT <" in new.body  # the orders template
    assert "HIS [Hispania]" in new.body  # the position
    assert (
        ingest(archive, orders("Hispania", passwords["Hispania"], "BUY 1 INF", turn=3, sender="his@example.org")).text
        == "refused: a wrong password"
    )


# -- deadlines and threading in every receipt and report; self-play ----------------------------------------


def test_report_mails_state_the_deadline_and_thread_with_the_players_order_mail(game: MailGame) -> None:
    archive, data, passwords = game
    ingest(
        archive,
        orders(
            "Macedonia", passwords["Macedonia"], "TIMEZONE Europe/Berlin", "BUY 1 INF", mid="m1", references="<0@x>"
        ),
    )
    receipt = queued(archive)[-1]
    assert receipt.thread == "<0@x> <m1@players.example.org>"
    sent = build_message(receipt, "judge@example.org")
    assert sent["In-Reply-To"] == "<m1@players.example.org>"
    assert sent["References"] == "<0@x> <m1@players.example.org>"
    mark = last_id(archive)
    tick(archive, data)
    reports = {m.to: m for m in queued(archive, mark) if "Report, turn 1" in m.subject}
    assert reports["mac@example.org"].in_reply_to == "<m1@players.example.org>"
    assert "Deadline: 20" in reports["mac@example.org"].body and "Europe/Berlin" in reports["mac@example.org"].body
    assert "Deadline: 20" in reports["egy@example.org"].body and "Europe/Berlin" not in reports["egy@example.org"].body


def test_self_play_games_are_neither_ticked_nor_mailed(tmp_path: Path, archive: Archive) -> None:
    play_archived_game(archive, tmp_path, "bot", "coe-classic", ["Macedonia", "Egyptus", "Hispania"], 1, 2)
    assert queued(archive) == []
    assert tick(archive, tmp_path).lines == []
    assert queued(archive) == []


def test_an_archive_made_before_the_mail_loop_columns_is_upgraded_and_keeps_its_game(
    tmp_path: Path, database: str | None
) -> None:
    archive = Archive.open(tmp_path, database)
    passwords = new_game(archive, tmp_path, NewGameOptions("rome1", "coe-classic", SEATS)).passwords
    with archive.engine.begin() as connection:  # as the tables were before the mail commands came
        for table, column in (
            ("outbox", "in_reply_to"),
            ("outbox", "thread"),
            ("seat", "timezone"),
            ("game", "observers"),
            ("game", "selfplay"),
        ):
            connection.execute(text(f"ALTER TABLE {table} DROP COLUMN {column}"))
        connection.execute(text("DROP TABLE observer"))
    archive.close()
    upgraded = Archive.open(tmp_path, database)
    assert (
        ingest(upgraded, orders("Macedonia", passwords["Macedonia"], "TIMEZONE Europe/Rome", "BUY 1 INF")).text
        == "orders stored"
    )
    assert (
        ingest(upgraded, letter("fan@example.net", "OBSERVE rome1", mid="2")).text == "confirmation of OBSERVE mailed"
    )
    assert queued(upgraded)[-1].in_reply_to == "<2@players.example.org>"


def test_a_reminder_states_the_deadline_in_the_seats_time_zone(game: MailGame) -> None:
    archive, data, passwords = game
    start = datetime.now(UTC)
    tick(archive, data, clock=FixedClock(start))
    assert (
        ingest(archive, orders("Macedonia", passwords["Macedonia"], "TIMEZONE Asia/Tokyo")).text == "commands: TIMEZONE"
    )
    assert tick(archive, data, clock=FixedClock(start + timedelta(hours=71))).lines == [
        "rome1: reminded Macedonia (turn 1)"
    ]
    reminder = queued(archive)[-1]
    assert reminder.to == "mac@example.org" and "Reminder" in reminder.subject and "(Asia/Tokyo: " in reminder.body
