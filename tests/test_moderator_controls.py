"""Orders sent ahead in turn pace, and the moderator's controls: orders entered for a seat (by phone), a fixed
deadline, no deadline in the past, no adjudication before the deadline while seats are missing unless --now."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlmodel import select

from adjudicator.archive import Archive
from adjudicator.archive.models import OutboxRow
from adjudicator.mail.inbound import Incoming
from adjudicator.services.games import NewGameOptions, new_game
from adjudicator.services.mailbox import ingest
from tests.conftest import SEATS, Pbem

Write = Callable[[str, str | bytes], Path]


def mails_to(pbem: Pbem, address: str) -> list[tuple[str, str]]:
    """The mails queued for `address`, in order, without the welcome mail that `pbem new` queues."""
    return [
        (str(subject), str(body))
        for subject, body in pbem.sql(f"select subject, body from outbox where \"to\" = '{address}' order by id")
        if "Welcome to" not in str(subject)
    ]


def in_hours(hours: int) -> str:
    return (datetime.now(UTC) + timedelta(hours=hours)).strftime("%Y-%m-%dT%H:%MZ")


# -- orders ahead (turn pace) --------------------------------------------------------------------------------


def test_in_turn_pace_a_seat_sends_orders_ahead_for_its_next_player_turn(pbem: Pbem) -> None:
    pbem.new_game(pace="turn")
    ahead = pbem("submit", "rome1", str(pbem.orders("Egyptus", 2, "MOVE G1 WITH 2 INF: EGY -> PAL")))
    assert ahead.exit_code == 0, ahead.output
    assert "Your order set is stored" in ahead.output and "accepted" in ahead.output
    assert "These orders are for your next player-turn, turn 2: they are stored for it" in ahead.output
    assert pbem.sql("select turn, seat from orderset") == [(2, "Egyptus")]
    assert pbem("submit", "rome1", str(pbem.orders("Macedonia", 1, "BUY 1 INF"))).exit_code == 0
    assert pbem("adjudicate", "rome1").exit_code == 0
    # turn 2 is open now: the orders sent ahead were checked again, and the seat is told so by mail
    mails = mails_to(pbem, "egy@example.org")
    assert [subject for subject, _ in mails] == ["[rome1] Receipt for turn 2", "[rome1] Report, turn 1"]
    ((subject, body),) = [mail for mail in mails if "Receipt" in mail[0]]
    assert "Your turn 2 is open now: the orders you sent ahead were checked again" in body
    assert "MOVE G1 WITH 2 INF: EGY -> PAL\n             accepted" in body
    resolved = pbem("adjudicate", "rome1")  # Egyptus's orders are in: no --now needed
    assert resolved.exit_code == 0 and "Turn 2 (Egyptus) resolved" in resolved.output
    assert "no orders received" not in resolved.output
    snapshot = json.loads((pbem.data / "games/rome1/turn-0002/snapshot.json").read_text())
    assert snapshot["areas"]["PAL"]["owner"] == "Egyptus"


def test_orders_ahead_by_mail_get_a_receipt_saying_so(tmp_path: Path, archive: Archive) -> None:
    passwords = new_game(archive, tmp_path, NewGameOptions("rome1", "coe-classic", SEATS)).passwords
    text = f"GAME rome1 TURN 2 PLAYER Egyptus PASSWORD {passwords['Egyptus']}\nBUY 1 INF\n"
    assert (
        ingest(archive, Incoming("<ahead@test>", "egy@example.org", "", "orders", text, text)).text == "orders stored"
    )
    with archive.session() as session:
        (receipt,) = session.exec(select(OutboxRow).where(OutboxRow.subject.contains("Receipt"))).all()  # type: ignore[attr-defined]
    assert receipt.to == "egy@example.org" and receipt.subject == "[rome1] Receipt for turn 2"
    assert "These orders are for your next player-turn, turn 2" in receipt.body


def test_orders_for_a_turn_beyond_the_seats_next_are_refused(pbem: Pbem) -> None:
    pbem.new_game(pace="turn")
    before = pbem.dump()
    result = pbem("submit", "rome1", str(pbem.orders("Hispania", 6, "BUY 1 INF")))
    assert result.exit_code == 1
    assert "header says TURN 6, but Hispania's coming player-turn is turn 3" in result.output
    assert pbem.dump() == before


# -- orders entered by the moderator -------------------------------------------------------------------------


def test_the_moderator_enters_orders_for_a_seat_without_its_password(pbem: Pbem, write: Write) -> None:
    pbem.new_game()
    phoned = write("phone.txt", "GAME rome1 TURN 1 PLAYER Macedonia PASSWORD -\nMOVE G1 WITH 2 INF: MAC -> THR\n")
    result = pbem("submit", "rome1", str(phoned), "--for", "Macedonia")
    assert result.exit_code == 0, result.output
    assert "These orders were entered for you by the moderator." in result.output
    ((source, text),) = pbem.sql("select source, text from orderset")
    assert source == "moderator" and "PASSWORD [removed]" in str(text)
    ((subject, body),) = mails_to(pbem, "mac@example.org")  # the seat sees what was entered in its name
    assert subject == "[rome1] Receipt for turn 1" and "entered for you by the moderator" in body
    assert pbem("adjudicate", "rome1").exit_code == 0
    assert pbem("verify", "rome1").exit_code == 0


def test_orders_entered_for_a_seat_must_name_that_seat(pbem: Pbem, write: Write) -> None:
    pbem.new_game()
    before = pbem.dump()
    other = write("other.txt", "GAME rome1 TURN 1 PLAYER Macedonia PASSWORD -\nBUY 1 INF\n")
    result = pbem("submit", "rome1", str(other), "--for", "Egyptus")
    assert result.exit_code == 1
    assert "the header names Macedonia, but the orders are entered --for Egyptus" in result.output
    bare = write("bare.txt", "BUY 1 INF\n")
    result = pbem("submit", "rome1", str(bare), "--for", "Macedonia")
    assert result.exit_code == 1 and "'GAME rome1 TURN 1 PLAYER Macedonia PASSWORD -'" in result.output
    assert pbem.dump() == before


# -- deadlines -----------------------------------------------------------------------------------------------


def test_the_deadline_is_set_to_a_fixed_time_and_the_seats_are_told(pbem: Pbem) -> None:
    pbem.new_game()
    when = in_hours(100)
    result = pbem("gm", "deadline", "rome1", when)
    assert result.exit_code == 0, result.output
    stored = datetime.fromisoformat(str(pbem.sql("select deadline from game")[0][0]))
    assert stored == datetime.fromisoformat(when)
    for address in ("mac@example.org", "egy@example.org", "his@example.org"):
        ((subject, body),) = mails_to(pbem, address)
        assert subject == "[rome1] New deadline" and stored.isoformat() in body


def test_a_deadline_in_the_past_is_refused(pbem: Pbem) -> None:
    pbem.new_game()
    assert pbem("gm", "deadline", "rome1", in_hours(10)).exit_code == 0
    before = pbem.dump()
    past = pbem("gm", "deadline", "rome1", "2020-01-01T12:00Z")
    assert past.exit_code == 1 and "which is past" in past.output
    garbage = pbem("gm", "deadline", "rome1", "next friday")
    assert garbage.exit_code == 1 and "is not a time" in garbage.output
    shortened = pbem("gm", "extend", "rome1", "--hours", "-20")
    assert shortened.exit_code == 1 and "which is past" in shortened.output
    assert pbem.dump() == before
    assert pbem("gm", "extend", "rome1", "--hours", "-5").exit_code == 0  # shorter, but still ahead


def test_adjudicate_before_the_deadline_with_seats_missing_needs_now(pbem: Pbem) -> None:
    pbem.new_game(pace="round")
    assert pbem("gm", "deadline", "rome1", in_hours(48)).exit_code == 0
    assert pbem("submit", "rome1", str(pbem.orders("Macedonia", 1, "BUY 1 INF"))).exit_code == 0
    before = pbem.dump()
    early = pbem("adjudicate", "rome1")
    assert early.exit_code == 1
    assert "has not passed and no orders are stored for Egyptus (turn 2), Hispania (turn 3)" in early.output
    assert "--now" in early.output
    assert pbem.dump() == before and not (pbem.data / "games/rome1/turn-0001").exists()
    forced = pbem("adjudicate", "rome1", "--now")
    assert forced.exit_code == 0 and "Turn 3 (Hispania) resolved: no orders received" in forced.output
    assert not pbem.sql("select id from outbox where subject like '%Receipt%'")  # round pace: no orders ahead
