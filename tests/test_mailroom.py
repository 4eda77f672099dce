"""The mailroom against a real archive (SQLite and PostgreSQL): ingest, receipts, notices, deadlines."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlmodel import select

from adjudicator.archive import Archive
from adjudicator.archive.models import GameRow, MessageRow, OutboxRow, SeatRow
from adjudicator.mail.inbound import Incoming, read_message
from adjudicator.services.adjudication import adjudicate
from adjudicator.services.clock import FixedClock
from adjudicator.services.deadlines import tick
from adjudicator.services.games import NewGameOptions, new_game
from adjudicator.services.gm import extend_deadline, replace_player, rollback, set_paused
from adjudicator.services.mailbox import ingest
from adjudicator.services.verification import verify

SEATS = {"Macedonia": "mac@example.org", "Egyptus": "egy@example.org", "Hispania": "his@example.org"}


@pytest.fixture
def game(tmp_path: Path, archive: Archive) -> tuple[Archive, Path, dict[str, str]]:
    created = new_game(
        archive,
        tmp_path,
        NewGameOptions(
            "rome1",
            "coe-classic",
            SEATS,
            mail={"moderator": "gm@example.org", "turn_hours": 48, "reminder_hours": 12, "nmr_alert": 1},
        ),
    )
    return archive, tmp_path, created.passwords


def mail(seat: str, password: str, *lines: str, turn: int = 1, sender: str | None = None, mid: str = "1") -> Incoming:
    text = "\n".join([f"GAME rome1 TURN {turn} PLAYER {seat} PASSWORD {password}", *lines]) + "\n"
    return Incoming(
        message_id=f"<{mid}@test>", sender=sender or SEATS[seat], sender_name="", subject="orders", text=text, raw=text
    )


def outbox(archive: Archive, welcomes: bool = False) -> list[OutboxRow]:
    """The queued mails in order (without the welcome mails new_game queues, unless asked for)."""
    with archive.session() as session:
        rows = list(session.exec(select(OutboxRow).order_by(OutboxRow.id)).all())  # type: ignore[arg-type]
    return [m for m in rows if welcomes or "Welcome to" not in m.subject]


def test_orders_by_mail_get_a_receipt_to_the_registered_address(game: tuple[Archive, Path, dict[str, str]]) -> None:
    archive, _, passwords = game
    outcome = ingest(
        archive,
        mail("Macedonia", passwords["Macedonia"], "MOVE G1 WITH 2 INF: MAC -> THR", "MOVE G2 WITH 9 INF: MAC -> MOE"),
    ).text
    assert outcome == "orders stored"
    (receipt,) = outbox(archive)
    assert receipt.to == "mac@example.org" and "Receipt for turn 1" in receipt.subject
    assert "accepted: MAC -> THR" in receipt.body and "rejected (C-5.3)" in receipt.body


def test_the_same_message_twice_changes_nothing(game: tuple[Archive, Path, dict[str, str]]) -> None:
    archive, _, passwords = game
    message = mail("Macedonia", passwords["Macedonia"], "BUY 1 INF")
    assert ingest(archive, message).text == "orders stored"
    assert ingest(archive, message).text == "duplicate"
    assert len(outbox(archive)) == 1
    with archive.session() as session:
        assert len(session.exec(select(MessageRow)).all()) == 1


def test_a_forged_password_is_reported_to_the_seat_never_to_the_forger(
    game: tuple[Archive, Path, dict[str, str]],
) -> None:
    archive, _, _ = game
    outcome = ingest(archive, mail("Macedonia", "guess", "BUY 1 INF", sender="evil@example.net")).text
    assert outcome == "refused: a wrong password"
    recipients = [m.to for m in outbox(archive)]
    assert "evil@example.net" not in recipients
    assert "mac@example.org" in recipients and "gm@example.org" in recipients


def test_the_registered_sender_is_checked(game: tuple[Archive, Path, dict[str, str]]) -> None:
    archive, _, passwords = game
    outcome = ingest(archive, mail("Macedonia", passwords["Macedonia"], "BUY 1 INF", sender="other@example.net")).text
    assert outcome.startswith("refused: an address that is not yours")
    assert all(m.to != "other@example.net" for m in outbox(archive))


def test_press_is_relayed_and_can_be_anonymous(tmp_path: Path, archive: Archive) -> None:
    passwords = new_game(
        archive, tmp_path, NewGameOptions("rome1", "coe-classic", SEATS, mail={"anonymous_press": True})
    ).passwords
    ingest(
        archive,
        mail("Macedonia", passwords["Macedonia"], "PRESS TO Egyptus: meet me in Thracia", "BROADCAST: peace to all"),
    )
    relayed = [(m.to, m.subject, m.body.strip()) for m in outbox(archive) if "Receipt" not in m.subject]
    assert ("egy@example.org", "[rome1] Press from Anonymous", "meet me in Thracia") in relayed
    assert ("his@example.org", "[rome1] Broadcast from Anonymous", "peace to all") in relayed
    assert not any(to == "his@example.org" and "Thracia" in body for to, _, body in relayed)


def test_unknown_game_and_no_header_are_answered_to_a_registered_sender(
    game: tuple[Archive, Path, dict[str, str]],
) -> None:
    archive, _, _ = game
    stray = Incoming("<x@test>", "mac@example.org", "", "hi", "hello there\n", "hello there\n")
    assert ingest(archive, stray).text == "refused: no header"
    other = Incoming("<y@test>", "mac@example.org", "", "hi", "GAME carthago TURN 1 PLAYER Egyptus PASSWORD x\n", "")
    assert ingest(archive, other).text == "refused: unknown game"
    assert [m.to for m in outbox(archive)] == ["mac@example.org", "mac@example.org"]
    assert "Your games: rome1" in outbox(archive)[-1].body


def test_tick_adjudicates_when_all_orders_are_in_and_mails_the_reports(
    game: tuple[Archive, Path, dict[str, str]],
) -> None:
    archive, data, passwords = game
    ingest(archive, mail("Macedonia", passwords["Macedonia"], "MOVE G1 WITH 2 INF: MAC -> THR"))
    report = tick(archive, data)
    assert "rome1: turn 1 (Macedonia) resolved" in report.lines
    assert tick(archive, data).lines[-1] != "rome1: reports of turn(s) 1 queued"  # queued once only
    reports = [m for m in outbox(archive) if "Report, turn 1" in m.subject]
    assert sorted(m.to for m in reports) == sorted(SEATS.values())
    mac = next(m for m in reports if m.to == "mac@example.org")
    assert "conquers THR" in mac.body and "GAME rome1 TURN 4 PLAYER Macedonia" in mac.body


def test_late_orders_get_a_receipt_saying_so(game: tuple[Archive, Path, dict[str, str]]) -> None:
    archive, data, passwords = game
    ingest(archive, mail("Macedonia", passwords["Macedonia"], "BUY 1 INF"))
    tick(archive, data)
    outcome = ingest(archive, mail("Macedonia", passwords["Macedonia"], "BUY 1 CAV", mid="2")).text
    assert outcome == "refused: late"
    assert "arrived after that turn was resolved" in outbox(archive)[-1].body


def test_deadline_reminder_and_nmr(game: tuple[Archive, Path, dict[str, str]]) -> None:
    archive, data, _ = game
    with archive.session() as session:  # the deadline runs from the game's creation
        start = datetime.fromisoformat(session.exec(select(GameRow)).one().deadline or "") - timedelta(hours=48)
    assert tick(archive, data, clock=FixedClock(start)).lines == [
        f"rome1: waiting for Macedonia until {(start + timedelta(hours=48)).isoformat(timespec='seconds')}"
    ]
    reminded = tick(archive, data, clock=FixedClock(start + timedelta(hours=40))).lines
    assert reminded == ["rome1: reminded Macedonia (turn 1)"]
    assert (
        tick(archive, data, clock=FixedClock(start + timedelta(hours=41))).lines[0].startswith("rome1: waiting")
    )  # once only
    resolved = tick(archive, data, clock=FixedClock(start + timedelta(hours=49))).lines
    assert resolved == ["rome1: turn 1 (Macedonia) resolved", "rome1: reports of turn(s) 1 queued"]
    alerts = [m for m in outbox(archive) if m.to == "gm@example.org"]
    assert alerts and "Macedonia missed 1 turns" in alerts[0].subject
    with archive.session() as session:
        assert session.exec(select(SeatRow).where(SeatRow.seat == "Macedonia")).one().missed == 1


def test_game_master_tools(game: tuple[Archive, Path, dict[str, str]]) -> None:
    archive, data, passwords = game
    tick(archive, data)
    first = extend_deadline(archive, "rome1", 24)
    assert first > datetime.now(UTC).isoformat()
    new_password = replace_player(archive, "rome1", "Egyptus", "new@example.org")
    assert new_password != passwords["Egyptus"]
    set_paused(archive, "rome1", True)
    assert tick(archive, data).lines == ["rome1: paused"]
    set_paused(archive, "rome1", False)
    ingest(archive, mail("Macedonia", passwords["Macedonia"], "BUY 1 INF"))
    tick(archive, data)
    withdrawn = rollback(archive, data, "rome1", 0)
    assert withdrawn == [1]
    assert (data / "games/rome1/turn-0001-withdrawn-1/report.txt").exists()
    assert ingest(archive, mail("Macedonia", passwords["Macedonia"], "BUY 2 INF", mid="3")).text == "orders stored"
    tick(archive, data)
    passed, problems = verify(archive, "rome1")
    assert not problems and len(passed) == 4  # the withdrawn turn is not replayed (+ the chain head, the rows)


def test_a_turn_adjudicated_by_hand_is_mailed_at_once_and_not_again_by_the_next_tick(
    game: tuple[Archive, Path, dict[str, str]],
) -> None:
    archive, data, passwords = game
    ingest(archive, mail("Macedonia", passwords["Macedonia"], "BUY 1 INF"))
    done = adjudicate(archive, data, "rome1")  # the reports are queued in the turn's transaction, as a tick's
    assert done.news == ["rome1: reports of turn(s) 1 queued"]
    assert len([m for m in outbox(archive) if "Report, turn 1" in m.subject]) == 3
    assert "rome1: reports of turn(s) 1 queued" not in tick(archive, data).lines
    assert len([m for m in outbox(archive) if "Report, turn 1" in m.subject]) == 3


def test_a_failure_while_storing_leaves_no_trace_so_the_message_is_read_again(
    game: tuple[Archive, Path, dict[str, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    import adjudicator.services.mailbox as mailbox

    archive, _, passwords = game
    message = mail("Macedonia", passwords["Macedonia"], "BUY 1 INF")

    def crash(*args: object, **kwargs: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(mailbox, "store_order_set", crash)
    with pytest.raises(OSError):
        ingest(archive, message)
    with archive.session() as session:
        assert not session.exec(select(MessageRow)).all()
    assert not outbox(archive)
    monkeypatch.undo()
    assert ingest(archive, message).text == "orders stored"


def test_a_mail_with_nul_characters_is_stored_and_answered(game: tuple[Archive, Path, dict[str, str]]) -> None:
    archive, _, passwords = game
    raw = (
        f"From: {SEATS['Macedonia']}\r\nMessage-ID: <nul\0id@test>\r\nSubject: orders\0\r\n\r\n"
        f"GAME rome1 TURN 1 PLAYER Macedonia PASSWORD {passwords['Macedonia']}\r\nBUY 1 INF\r\nBUY\0 1 CAV\r\n"
    )
    mail = read_message(raw.encode())
    assert ingest(archive, mail).text == "orders stored"  # PostgreSQL text refuses NUL: it is kept as U+FFFD
    assert ingest(archive, read_message(raw.encode())).text == "duplicate"
    with archive.session() as session:
        stored = session.exec(select(MessageRow)).one()
    assert stored.message_id == "<nul\ufffdid@test>" and "BUY\ufffd 1 CAV" in stored.raw
    assert "not understood" in outbox(archive)[-1].body  # the garbled line is named in the receipt
