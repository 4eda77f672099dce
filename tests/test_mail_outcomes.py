"""What became of a mail, as a typed value: each step of the mailbox's handling (find the game and seat, check the
password and the limits, take the commands, check lateness, store, answer) ends a mail with its reason, and so its
fate, while the archive's log keeps the same text as ever (`pbem log`, `pbem ingest`, the flood limits read it).

One real game is made for the module; each case mails into a copy of its SQLite archive through `ingest`."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from sqlmodel import select

from adjudicator.archive import Archive
from adjudicator.archive.models import MessageRow
from adjudicator.mail.inbound import Incoming
from adjudicator.services.games import NewGameOptions, new_game
from adjudicator.services.mailbox import Fate, MailOutcome, Reason, ingest

SEATS = {"Macedonia": "mac@example.org", "Egyptus": "egy@example.org", "Hispania": "his@example.org"}


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """A Classic game that checks the sender's address, and a self-play game, in one SQLite archive."""
    folder = tmp_path_factory.mktemp("outcomes")
    archive = Archive.in_folder(folder)
    mail = {"moderator": "gm@example.org", "check_sender": True}
    passwords = new_game(archive, folder, NewGameOptions("rome1", "coe-classic", SEATS, mail=mail)).passwords
    new_game(archive, folder, NewGameOptions("bots", "coe-classic", SEATS, mail={"selfplay": True}))
    archive.close()
    return folder, passwords


@pytest.fixture
def game(made: tuple[Path, dict[str, str]], tmp_path: Path) -> tuple[Archive, dict[str, str]]:
    folder, passwords = made
    shutil.copy(folder / "archive.sqlite", tmp_path / "archive.sqlite")
    return Archive.in_folder(tmp_path), passwords


def letter(text: str, sender: str = "mac@example.org", mid: str = "1") -> Incoming:
    return Incoming(f"<{mid}@test>", sender, "", "orders", text, text)


def orders(password: str, *lines: str, seat: str = "Macedonia", turn: int = 1, mid: str = "1") -> Incoming:
    head = f"GAME rome1 TURN {turn} PLAYER {seat} PASSWORD {password}"
    return letter("\n".join([head, *lines]) + "\n", SEATS[seat], mid)


def logged(archive: Archive, mid: str = "1") -> str | None:
    """The outcome the archive's log keeps of the mail (what `pbem log` lists)."""
    with archive.session() as session:
        row = session.exec(select(MessageRow).where(MessageRow.message_id == f"<{mid}@test>")).first()
        return row.outcome if row is not None else None


def test_orders_stored_are_accepted_and_logged_with_the_same_text(game: tuple[Archive, dict[str, str]]) -> None:
    archive, passwords = game
    outcome = ingest(archive, orders(passwords["Macedonia"], "BUY 1 INF"))
    assert isinstance(outcome, MailOutcome)
    assert (outcome.fate, outcome.reason, outcome.text) == (Fate.ACCEPTED, Reason.ORDERS_STORED, "orders stored")
    assert outcome.answered and str(outcome) == logged(archive) == "orders stored"


def test_the_same_mail_again_is_ignored(game: tuple[Archive, dict[str, str]]) -> None:
    archive, passwords = game
    ingest(archive, orders(passwords["Macedonia"], "BUY 1 INF"))
    again = ingest(archive, orders(passwords["Macedonia"], "BUY 1 INF"))
    assert (again.fate, again.reason, again.text) == (Fate.IGNORED, Reason.DUPLICATE, "duplicate")
    other = ingest(archive, orders(passwords["Macedonia"], "BUY 2 INF"))  # the same Message-ID, other content
    assert (other.fate, other.reason) == (Fate.REFUSED, Reason.REUSED_MESSAGE_ID)
    assert other.text == "refused: the Message-ID of an earlier mail, with other content"


@pytest.mark.parametrize(
    ("mail", "reason", "text", "answered"),
    [
        (letter("Hello, when do we play?"), Reason.NO_HEADER, "refused: no header", True),
        (
            letter("Hello, when do we play?", sender="who@example.net"),
            Reason.NO_HEADER,
            "not answered (stranger): refused: no header",
            False,
        ),
        (
            letter("GAME carthago TURN 1 PLAYER Macedonia PASSWORD x\n"),
            Reason.UNKNOWN_GAME,
            "refused: unknown game",
            True,
        ),
        (
            letter("GAME bots TURN 1 PLAYER Macedonia PASSWORD x\n"),
            Reason.SELF_PLAY,
            "not answered (stranger): refused: a self-play game takes no mail",
            False,
        ),
        (letter("GAME rome1 TURN 1 PLAYER Italia PASSWORD x\n"), Reason.UNKNOWN_SEAT, None, True),
        (letter("GAME rome1 TURN 1 PLAYER Nobody PASSWORD x\n"), Reason.HEADER_INCOMPLETE, None, True),
        (letter("GAME rome1 TURN 1 PLAYER Macedonia PASSWORD x\nBUY 1 INF\n"), Reason.WRONG_PASSWORD, None, True),
    ],
    ids=["no-header", "stranger", "unknown-game", "self-play", "unknown-seat", "header-incomplete", "password"],
)
def test_a_mail_whose_game_or_seat_is_not_found_or_proven_is_refused_with_its_reason(
    game: tuple[Archive, dict[str, str]], mail: Incoming, reason: Reason, text: str | None, answered: bool
) -> None:
    archive, _ = game
    outcome = ingest(archive, mail)
    assert (outcome.fate, outcome.reason, outcome.answered) == (Fate.REFUSED, reason, answered)
    assert outcome.text.startswith("refused: ") or outcome.text.startswith("not answered (stranger): ")
    assert text is None or outcome.text == text
    assert logged(archive) == outcome.text


def test_orders_from_an_address_not_the_seats_are_refused(game: tuple[Archive, dict[str, str]]) -> None:
    archive, passwords = game
    head = f"GAME rome1 TURN 1 PLAYER Macedonia PASSWORD {passwords['Macedonia']}"
    outcome = ingest(archive, letter(f"{head}\nBUY 1 INF\n", sender="egy@example.org"))
    assert (outcome.fate, outcome.reason) == (Fate.REFUSED, Reason.WRONG_ADDRESS)
    assert outcome.text == "refused: an address that is not yours (egy@example.org)"


def test_a_mail_over_a_limit_is_refused(game: tuple[Archive, dict[str, str]]) -> None:
    archive, passwords = game
    press = [f"PRESS TO Egyptus: hello {n}" for n in range(21)]
    outcome = ingest(archive, orders(passwords["Macedonia"], "BUY 1 INF", *press))
    assert (outcome.fate, outcome.reason) == (Fate.REFUSED, Reason.OVER_LIMIT)
    assert outcome.text.startswith("refused: it holds 21 PRESS and BROADCAST lines")


def test_commands_alone_are_accepted(game: tuple[Archive, dict[str, str]]) -> None:
    archive, passwords = game
    outcome = ingest(archive, orders(passwords["Egyptus"], "STATUS", seat="Egyptus", turn=2))
    assert (outcome.fate, outcome.reason, outcome.text) == (Fate.ACCEPTED, Reason.COMMANDS, "commands: STATUS")
    helped = ingest(archive, letter("HELP", mid="2"))
    assert (helped.fate, helped.reason, helped.text) == (Fate.ACCEPTED, Reason.COMMANDS, "HELP answered")


def test_orders_for_a_turn_resolved_are_late(game: tuple[Archive, dict[str, str]]) -> None:
    archive, passwords = game
    outcome = ingest(archive, orders(passwords["Macedonia"], "BUY 1 INF", turn=0))
    assert (outcome.fate, outcome.reason, outcome.text) == (Fate.REFUSED, Reason.LATE, "refused: late")


def test_orders_for_a_turn_not_open_are_not_stored(game: tuple[Archive, dict[str, str]]) -> None:
    archive, passwords = game
    outcome = ingest(archive, orders(passwords["Egyptus"], "BUY 1 INF", seat="Egyptus", turn=5))
    assert (outcome.fate, outcome.reason) == (Fate.REFUSED, Reason.NOT_STORED)
    assert outcome.text.startswith("refused: header says TURN 5")


def test_what_a_receipt_tells_is_the_outcome(game: tuple[Archive, dict[str, str]]) -> None:
    archive, passwords = game
    secret = passwords["Macedonia"]
    cases = [
        (("FOO 1 INF",), Reason.NOT_UNDERSTOOD, Fate.REFUSED, "orders not understood"),
        (("BUY 1 INF",), Reason.ORDERS_STORED, Fate.ACCEPTED, "orders stored"),
        (("PRESS TO Egyptus: hello",), Reason.ORDERS_KEPT, Fate.ACCEPTED, "no game orders: the stored orders stay"),
        (("WITHDRAW", "BUY 1 INF"), Reason.WITHDRAW_BESIDE_ORDERS, Fate.REFUSED, "refused: WITHDRAW beside orders"),
        (("WITHDRAW",), Reason.ORDERS_WITHDRAWN, Fate.ACCEPTED, "orders withdrawn"),
    ]
    for n, (lines, reason, fate, text) in enumerate(cases):
        outcome = ingest(archive, orders(secret, *lines, mid=f"r{n}"))
        assert (outcome.reason, outcome.fate, outcome.text) == (reason, fate, text), lines
        assert logged(archive, f"r{n}") == text
