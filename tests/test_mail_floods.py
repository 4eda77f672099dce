"""Floods of mail the tool answers: HELP, PASSWORD RESET, refused order mails and OBSERVE, each answered a few times
a day per address and game, then one digest, then nothing; every mail still stored and listed by `pbem log`.
Real RFC 822 mails through `ingest`, against a real archive, with a clock moved by hand."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlmodel import select

from adjudicator.archive import Archive
from adjudicator.archive.models import MessageRow, OutboxRow
from adjudicator.services.clock import FixedClock
from adjudicator.services.floods import DAILY_ANSWERS, DAILY_CONFIRMATIONS
from adjudicator.services.gm import set_observer
from adjudicator.services.mailbox import ingest
from tests.conftest import MailGame, Pbem
from tests.test_mail_commands import last_id, letter, orders, queued

START = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
FLOOD = 30


def at(minutes: float) -> FixedClock:
    return FixedClock(START + timedelta(minutes=minutes))


def mailed_to(archive: Archive, address: str, since: int) -> list[OutboxRow]:
    return [row for row in queued(archive, since) if row.to == address]


def digests(rows: list[OutboxRow]) -> list[OutboxRow]:
    return [row for row in rows if "Too many mails of one kind" in row.subject]


def all_logged(game: MailGame, database: str | None, ids: list[str]) -> None:
    """Nothing is lost: every mail of the flood is stored and `pbem log` lists it."""
    archive, folder, _ = game
    with archive.session() as session:
        stored = {row.message_id for row in session.exec(select(MessageRow)).all()}
    assert set(ids) <= stored
    log = Pbem(folder, database)("log", "--limit", "1000")
    assert log.exit_code == 0, log.output
    assert all(mid in log.output for mid in ids)


@pytest.fixture
def flood_ids() -> list[str]:
    return [f"<flood{i}@players.example.org>" for i in range(FLOOD)]


def test_a_flood_of_HELP_gets_three_answers_one_digest_and_then_nothing_for_a_day(
    game: MailGame, database: str | None, flood_ids: list[str]
) -> None:
    archive, _, _ = game
    mark = last_id(archive)
    outcomes = [
        ingest(archive, letter("egy@example.org", "HELP", mid=f"flood{i}"), clock=at(i)).text for i in range(FLOOD)
    ]
    sent = mailed_to(archive, "egy@example.org", mark)
    assert len(sent) == DAILY_ANSWERS + 1 and len(digests(sent)) == 1
    assert "pbem log" in digests(sent)[0].body
    assert outcomes[:DAILY_ANSWERS] == ["HELP answered"] * DAILY_ANSWERS
    assert all("not answered: over the daily limit" in o for o in outcomes[DAILY_ANSWERS:])
    all_logged(game, database, flood_ids)
    # a day after the first answers, HELP is answered again
    later = last_id(archive)
    assert (
        ingest(archive, letter("egy@example.org", "HELP", mid="later"), clock=at(24 * 60 + 5)).text == "HELP answered"
    )
    assert len(mailed_to(archive, "egy@example.org", later)) == 1


def test_one_mail_with_ten_HELPs_gets_one_answer(game: MailGame) -> None:
    archive, _, _ = game
    mark = last_id(archive)
    outcome = ingest(archive, letter("egy@example.org", *["HELP"] * 10), clock=at(0)).text
    assert outcome.startswith("HELP answered") and len(queued(archive, mark)) == 1


def test_a_seat_mail_with_ten_HELPs_and_STATUSes_gets_each_once(game: MailGame) -> None:
    archive, _, passwords = game
    mark = last_id(archive)
    ingest(archive, orders("Egyptus", passwords["Egyptus"], *["HELP", "STATUS"] * 5, turn=2), clock=at(0))
    ingest(archive, orders("Egyptus", passwords["Egyptus"], "HELP", "STATUS", turn=2, mid="2"), clock=at(0))
    (flooded, once) = queued(archive, mark)
    assert flooded.body == once.body


def test_a_flood_of_PASSWORD_RESET_gives_three_new_passwords_and_one_digest(
    game: MailGame, database: str | None, flood_ids: list[str]
) -> None:
    archive, _, _ = game
    mark = last_id(archive)
    for i in range(FLOOD):
        ingest(archive, letter("mac@example.org", "PASSWORD RESET rome1 Macedonia", mid=f"flood{i}"), clock=at(i))
    sent = mailed_to(archive, "mac@example.org", mark)
    assert len(sent) == DAILY_ANSWERS + 1 and len(digests(sent)) == 1
    assert sum("new password" in row.body for row in sent) == DAILY_ANSWERS
    all_logged(game, database, flood_ids)


def test_a_flood_of_wrong_passwords_gives_three_notices_and_one_digest_to_seat_and_moderator(
    game: MailGame, database: str | None, flood_ids: list[str]
) -> None:
    archive, _, _ = game
    mark = last_id(archive)
    for i in range(FLOOD):
        mail = orders("Macedonia", "guess", "BUY 1 INF", mid=f"flood{i}", sender="who@example.net")
        assert ingest(archive, mail, clock=at(i)).text.startswith("refused: a wrong password")
    for address in ("mac@example.org", "gm@example.org"):
        sent = mailed_to(archive, address, mark)
        assert len(sent) == DAILY_ANSWERS + 1 and len(digests(sent)) == 1, address
    assert mailed_to(archive, "who@example.net", mark) == []
    all_logged(game, database, flood_ids)


def test_a_flood_of_forged_From_gives_three_notices_and_one_digest(
    game: MailGame, database: str | None, flood_ids: list[str]
) -> None:
    archive, _, passwords = game
    mark = last_id(archive)
    for i in range(FLOOD):
        mail = orders("Macedonia", passwords["Macedonia"], "BUY 1 INF", mid=f"flood{i}", sender="who@example.net")
        assert ingest(archive, mail, clock=at(i)).text.startswith("refused: an address that is not yours")
    for address in ("mac@example.org", "gm@example.org"):
        sent = mailed_to(archive, address, mark)
        assert len(sent) == DAILY_ANSWERS + 1 and len(digests(sent)) == 1, address
    all_logged(game, database, flood_ids)


def test_a_flood_of_OBSERVE_from_many_addresses_is_confirmed_ten_times_and_the_moderator_told_once(
    game: MailGame, database: str | None, flood_ids: list[str]
) -> None:
    archive, _, _ = game
    mark = last_id(archive)
    for i in range(FLOOD):
        ingest(archive, letter(f"fan{i}@example.net", "OBSERVE rome1", mid=f"flood{i}"), clock=at(i))
    sent = queued(archive, mark)
    confirmations = [row for row in sent if "Confirm observing" in row.subject]
    assert len(confirmations) == DAILY_CONFIRMATIONS
    assert [row.to for row in digests(sent)] == ["gm@example.org"] and len(sent) == DAILY_CONFIRMATIONS + 1
    all_logged(game, database, flood_ids)


def test_thirty_order_mails_from_the_player_each_get_their_receipt(game: MailGame) -> None:
    archive, _, passwords = game
    mark = last_id(archive)
    for i in range(FLOOD):
        mail = orders("Egyptus", passwords["Egyptus"], f"BUY {1 + i % 3} INF", turn=2, mid=f"flood{i}")
        assert ingest(archive, mail, clock=at(i)).text == "orders stored"
    receipts = [row for row in mailed_to(archive, "egy@example.org", mark) if "Receipt" in row.subject]
    assert len(receipts) == FLOOD


def test_the_digest_speaks_the_language_of_the_command(game: MailGame) -> None:
    archive, _, _ = game
    mark = last_id(archive)
    for i in range(DAILY_ANSWERS + 2):
        ingest(archive, letter("egy@example.org", "HILFE", mid=f"flood{i}"), clock=at(i))
    sent = mailed_to(archive, "egy@example.org", mark)
    assert len(sent) == DAILY_ANSWERS + 1 and digests(sent) == []  # no English digest
    assert "Zu viele Mails derselben Art" in sent[-1].subject and "HILFE-Anfragen" in sent[-1].body


@pytest.mark.parametrize(
    "lines",
    [
        ("Hello, where do I send my orders?",),  # no header
        ("GAME rome9 TURN 1 PLAYER Egyptus PASSWORD x",),  # an unknown game
        ("STATUS",),  # a seat's command without the header
        ("GAME rome1 TURN 1 PLAYER Nobody PASSWORD x",),  # an unknown seat
    ],
)
def test_a_flood_of_unusable_mail_from_a_registered_address_gets_three_answers_and_one_digest(
    game: MailGame, database: str | None, flood_ids: list[str], lines: tuple[str, ...]
) -> None:
    archive, _, _ = game
    mark = last_id(archive)
    for i in range(FLOOD):
        assert ingest(archive, letter("egy@example.org", *lines, mid=f"flood{i}"), clock=at(i)).text.startswith(
            "refused"
        )
    sent = mailed_to(archive, "egy@example.org", mark)
    assert len(sent) == DAILY_ANSWERS + 1 and len(digests(sent)) == 1
    all_logged(game, database, flood_ids)


def test_a_flood_of_OBSERVE_from_an_observer_gets_three_answers_and_one_digest(
    game: MailGame, database: str | None, flood_ids: list[str]
) -> None:
    archive, _, _ = game
    set_observer(archive, "rome1", "fan@example.net", clock=at(-1))
    mark = last_id(archive)
    for i in range(FLOOD):
        ingest(archive, letter("fan@example.net", "OBSERVE rome1", mid=f"flood{i}"), clock=at(i))
    sent = mailed_to(archive, "fan@example.net", mark)
    assert len(sent) == DAILY_ANSWERS + 1 and len(digests(sent)) == 1
    all_logged(game, database, flood_ids)


def test_a_flood_of_mails_reusing_a_Message_ID_gives_the_seat_three_notices(game: MailGame) -> None:
    archive, _, passwords = game
    ingest(archive, orders("Macedonia", passwords["Macedonia"], "BUY 1 INF", mid="same"), clock=at(0))
    mark = last_id(archive)
    for i in range(FLOOD):
        forged = orders("Macedonia", "guess", f"BUY {i + 2} INF", mid="same")  # from the seat's address, forged
        assert ingest(archive, forged, clock=at(1 + i)).text.startswith("refused: the Message-ID of an earlier mail")
    assert len(mailed_to(archive, "mac@example.org", mark)) == DAILY_ANSWERS


def test_a_flood_of_mails_reusing_a_Message_ID_gives_a_registered_sender_three_answers_and_one_digest(
    game: MailGame,
) -> None:
    archive, _, passwords = game
    ingest(archive, orders("Macedonia", passwords["Macedonia"], "BUY 1 INF", mid="same"), clock=at(0))
    mark = last_id(archive)
    for i in range(FLOOD):
        forged = orders("Macedonia", "guess", f"BUY {i + 2} INF", mid="same", sender="egy@example.org")
        assert ingest(archive, forged, clock=at(1 + i)).text.startswith("refused: the Message-ID of an earlier mail")
    sent = mailed_to(archive, "egy@example.org", mark)
    assert len(sent) == DAILY_ANSWERS + 1 and len(digests(sent)) == 1
    assert mailed_to(archive, "mac@example.org", mark) == []


def test_the_limit_counts_mails_not_lines_and_each_kind_apart(game: MailGame) -> None:
    archive, _, _ = game
    mark = last_id(archive)
    ingest(archive, letter("egy@example.org", *["HELP"] * 10, mid="ten"), clock=at(0))
    for i in range(DAILY_ANSWERS - 1):  # the mail of ten HELPs was one HELP: two more are answered
        assert (
            ingest(archive, letter("egy@example.org", "HELP", mid=f"help{i}"), clock=at(1 + i)).text == "HELP answered"
        )
    ingest(archive, letter("egy@example.org", "HELP", mid="over"), clock=at(5))
    assert len(digests(mailed_to(archive, "egy@example.org", mark))) == 1
    # HELP is over its limit, a mail without a header is another kind: answered
    assert ingest(archive, letter("egy@example.org", "Hello?", mid="hello"), clock=at(6)).text == "refused: no header"
    assert len(mailed_to(archive, "egy@example.org", mark)) == DAILY_ANSWERS + 2
