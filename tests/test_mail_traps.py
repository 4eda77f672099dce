"""Traps of play by mail that cost a player his turn, through the real mail path (ingest into a real archive, the
outbox rows, `pbem tick`): a mail without game orders keeps the stored orders, WITHDRAW takes them back."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default as default_policy
from pathlib import Path

import pytest
from sqlmodel import select

from adjudicator.archive import Archive
from adjudicator.archive import queries as db
from adjudicator.archive.models import OutboxRow
from adjudicator.mail.inbound import Incoming
from adjudicator.mail.outbound import send_outbox
from adjudicator.render.i18n import gettext
from adjudicator.services.adjudication import adjudicate
from adjudicator.services.bots import set_bot
from adjudicator.services.clock import FixedClock
from adjudicator.services.deadlines import tick
from adjudicator.services.games import NewGameOptions, new_game
from adjudicator.services.gm import replace_player, rollback, set_observer
from adjudicator.services.mailbox import ingest
from adjudicator.services.verify_reports import verify_reports
from tests.conftest import Pbem
from tests.test_conqueror_asks import due_step
from tests.test_conqueror_plans_cli import SEATS3
from tests.test_conqueror_receipts_i18n import start

SEATS = {"Macedonia": "mac@example.org", "Egyptus": "egy@example.org", "Hispania": "his@example.org"}


@pytest.fixture
def game(tmp_path: Path, archive: Archive) -> tuple[Archive, Path, dict[str, str]]:
    created = new_game(
        archive, tmp_path, NewGameOptions("rome1", "coe-classic", SEATS, mail={"moderator": "gm@example.org"})
    )
    return archive, tmp_path, created.passwords


def mail(seat: str, password: str, *lines: str, turn: int = 1, mid: str = "1", game: str = "rome1") -> Incoming:
    text = "\n".join([f"GAME {game} TURN {turn} PLAYER {seat} PASSWORD {password}", *lines]) + "\n"
    return Incoming(f"<{mid}@test>", SEATS.get(seat, f"{seat.lower()}@example.org"), "", "orders", text, text)


def outbox(archive: Archive) -> list[OutboxRow]:
    """The queued mails in order, without the welcome mails."""
    with archive.session() as session:
        rows = list(session.exec(select(OutboxRow).order_by(OutboxRow.id)).all())  # type: ignore[arg-type]
    return [m for m in rows if "Welcome to" not in m.subject]


def stored(archive: Archive, seat: str, turn: int = 1, game: str = "rome1") -> str | None:
    """The text of the seat's current order set for the turn, None when it has none."""
    with archive.session() as session:
        row = db.current_orders(session, db.find_game(session, game), turn, seat)
        return row.text if row is not None else None


# -- a mail without game orders leaves the stored orders as they are -----------------------------------------


GUIDE = (
    "How to write every order, with examples and the board's areas: the player's guide, %(guide)s in the pbem "
    "distribution (the moderator can send it to you)."
)
KEPT = "This mail holds no orders for the game: the orders you sent earlier for turn %(turn)s stay as they were."


@pytest.mark.parametrize(
    ("lines", "language"),
    [
        (("PRESS TO Egyptus: hello",), "en"),
        (("BROADCAST: peace to all", "LANGUAGE de"), "de"),
        (("LANGUAGE it",), "it"),
        (("TIMEZONE Europe/Berlin", "PRESS TO Egyptus: hello"), "en"),
        (("STATUS", "Hi, how are you?"), "en"),
        (("HELP",), None),  # a command alone is answered, with no receipt
        ((), "en"),
    ],
    ids=["press", "broadcast-language", "language", "timezone-press", "status-greeting", "help", "header-only"],
)
def test_a_mail_without_game_orders_keeps_the_stored_orders(
    game: tuple[Archive, Path, dict[str, str]], lines: tuple[str, ...], language: str | None
) -> None:
    archive, _, passwords = game
    assert ingest(archive, mail("Macedonia", passwords["Macedonia"], "BUY 1 INF AT MAC")).text == "orders stored"
    before = len(outbox(archive))
    ingest(archive, mail("Macedonia", passwords["Macedonia"], *lines, mid="2"))
    assert "BUY 1 INF AT MAC" in (stored(archive, "Macedonia") or "")
    answers = [m for m in outbox(archive)[before:] if m.to == "mac@example.org"]
    assert answers, "the seat is answered"
    assert not any("replaces the set you sent earlier" in m.body for m in answers)
    if language is not None:  # the receipt says that the earlier orders stay, in the seat's language
        kept = gettext(language, KEPT, turn=1)
        assert language == "en" or kept != gettext("en", KEPT, turn=1)
        assert any(kept in m.body for m in answers), [m.body for m in answers]


def test_a_press_mail_after_orders_keeps_the_purchase_through_the_turn(
    game: tuple[Archive, Path, dict[str, str]],
) -> None:
    """The case seen in a real game: BUY accepted, then a mail with the same header and only PRESS; the turn must be
    resolved with the purchase."""
    archive, data, passwords = game
    ingest(archive, mail("Macedonia", passwords["Macedonia"], "BUY 1 INF AT MAC"))
    assert ingest(archive, mail("Macedonia", passwords["Macedonia"], "PRESS TO Egyptus: hello", mid="2")).text == (
        "no game orders: the stored orders stay"
    )
    relayed = [m for m in outbox(archive) if m.to == "egy@example.org"]
    assert [m.body.strip() for m in relayed] == ["hello"]  # the press itself is relayed
    (done,) = adjudicate(archive, data, "rome1").turns
    assert "BUY 1 INF AT MAC" in done.orders_text


def test_press_lines_of_a_mail_without_game_orders_count_against_the_turns_press_limit(
    game: tuple[Archive, Path, dict[str, str]],
) -> None:
    archive, _, passwords = game
    for n in range(3):
        lines = [f"PRESS TO Egyptus: note {n}.{i}" for i in range(20)]
        assert ingest(archive, mail("Macedonia", passwords["Macedonia"], *lines, mid=f"p{n}")).text.startswith(
            "no game"
        )
    refused = ingest(archive, mail("Macedonia", passwords["Macedonia"], "PRESS TO Egyptus: one more", mid="p4")).text
    assert refused.startswith("refused: it holds 1 PRESS and BROADCAST lines, and 60 were sent for turn 1")


# -- WITHDRAW ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("word", ["WITHDRAW", "widerrufen", "Widerruf", "ANNULLA", "Intrekken"])
def test_withdraw_takes_back_the_stored_orders_in_every_language(
    game: tuple[Archive, Path, dict[str, str]], word: str
) -> None:
    archive, _, passwords = game
    ingest(archive, mail("Macedonia", passwords["Macedonia"], "BUY 1 INF AT MAC"))
    assert ingest(archive, mail("Macedonia", passwords["Macedonia"], word, mid="2")).text == "orders withdrawn"
    assert stored(archive, "Macedonia") is None
    receipt = outbox(archive)[-1]
    assert receipt.to == "mac@example.org"
    assert "Your orders for turn 1 are withdrawn" in receipt.body


def test_withdrawn_orders_count_as_none_sent_and_new_orders_count_again(
    game: tuple[Archive, Path, dict[str, str]],
) -> None:
    archive, data, passwords = game
    ingest(archive, mail("Macedonia", passwords["Macedonia"], "BUY 1 INF AT MAC"))
    ingest(archive, mail("Macedonia", passwords["Macedonia"], "WITHDRAW", mid="2"))
    (done,) = adjudicate(archive, data, "rome1").turns
    assert "BUY" not in done.orders_text
    ingest(archive, mail("Egyptus", passwords["Egyptus"], "BUY 1 INF AT EGY", turn=2, mid="3"))
    ingest(archive, mail("Egyptus", passwords["Egyptus"], "WITHDRAW", turn=2, mid="4"))
    ingest(archive, mail("Egyptus", passwords["Egyptus"], "BUY 2 INF AT EGY", turn=2, mid="5"))
    assert "BUY 2 INF AT EGY" in (stored(archive, "Egyptus", 2) or "")
    receipt = outbox(archive)[-1]
    assert "Your order set is stored." in receipt.body and "replaces" not in receipt.body


def test_withdraw_with_nothing_stored_says_so(game: tuple[Archive, Path, dict[str, str]]) -> None:
    archive, _, passwords = game
    assert ingest(archive, mail("Macedonia", passwords["Macedonia"], "WITHDRAW")).text == "orders withdrawn"
    assert "No orders of yours were stored for turn 1: there was nothing to withdraw" in outbox(archive)[-1].body


def test_withdraw_beside_new_orders_is_refused_and_changes_nothing(
    game: tuple[Archive, Path, dict[str, str]],
) -> None:
    archive, _, passwords = game
    ingest(archive, mail("Macedonia", passwords["Macedonia"], "BUY 1 INF AT MAC"))
    outcome = ingest(archive, mail("Macedonia", passwords["Macedonia"], "WITHDRAW", "BUY 2 INF AT MAC", mid="2")).text
    assert outcome == "refused: WITHDRAW beside orders"
    assert "BUY 1 INF AT MAC" in (stored(archive, "Macedonia") or "")
    assert "Line 2: WITHDRAW takes back the orders you sent" in outbox(archive)[-1].body


# -- the same for every ruleset --------------------------------------------------------------------------------

RULESETS = Path(__file__).parent / "rulesets"
EXAMPLE = Path(__file__).parent.parent / "games" / "conqueror-er" / "example-data"


def _table(
    ruleset: str, tmp_path: Path, archive: Archive, monkeypatch: pytest.MonkeyPatch
) -> tuple[dict[str, str], str, int, str, str]:
    """A new game of `ruleset` at the first step a seat orders in: (passwords, seat, step, a game order, a line
    without game orders)."""
    if ruleset == "sealed-bids":
        monkeypatch.setenv("PBEM_RULESETS", str(RULESETS))
        seats = {"North": "north@example.org", "East": "east@example.org", "South": "south@example.org"}
        created = new_game(archive, tmp_path, NewGameOptions("g1", ruleset, seats))
        return created.passwords, "North", 1, "BID A", ""  # the test ruleset has no press: a header alone
    if ruleset == "conqueror-er":
        seats = {"kesh": "kesh@example.org", "aurel": "aurel@example.org", "thal": "thal@example.org"}
        created = new_game(archive, tmp_path, NewGameOptions("g1", ruleset, seats, game_data=EXAMPLE))
        adjudicate(archive, tmp_path, "g1")  # taxation (ER-5.2): the plans step is due
        return created.passwords, "kesh", 3, "FOOD USE", "PRESS TO aurel: hello"
    created = new_game(archive, tmp_path, NewGameOptions("g1", ruleset, SEATS))
    return created.passwords, "Macedonia", 1, "BUY 1 INF AT MAC", "BROADCAST: hello"


@pytest.mark.parametrize("ruleset", ["coe-classic", "coe-1984", "conqueror-er", "sealed-bids"])
def test_every_ruleset_keeps_orders_against_a_mail_without_them_and_takes_them_back_on_withdraw(
    ruleset: str, tmp_path: Path, archive: Archive, monkeypatch: pytest.MonkeyPatch
) -> None:
    passwords, seat, step, order, talk = _table(ruleset, tmp_path, archive, monkeypatch)

    def send(mid: str, *lines: str) -> str:
        message = mail(seat, passwords[seat], *lines, turn=step, mid=mid, game="g1")
        return ingest(archive, message).text

    assert send("1", order) == "orders stored"
    send("2", talk)
    assert order in (stored(archive, seat, step, "g1") or ""), "a mail without game orders keeps the stored ones"
    assert any(gettext("en", KEPT, turn=step) in m.body for m in outbox(archive) if "Receipt" in m.subject)
    assert send("3", "WITHDRAW") == "orders withdrawn"
    assert stored(archive, seat, step, "g1") is None
    assert send("4", order) == "orders stored"
    assert order in (stored(archive, seat, step, "g1") or "")


# -- the deadline is set when the game is created, and the welcome states it ------------------------------------

START = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def test_the_deadline_is_set_at_creation_and_stated_in_the_welcome_and_first_receipt(
    tmp_path: Path, archive: Archive
) -> None:
    created = new_game(
        archive,
        tmp_path,
        NewGameOptions(
            "rome1",
            "coe-classic",
            SEATS,
            mail={"turn_hours": 48},
            languages={"Egyptus": "de"},
            timezones={"Macedonia": "Asia/Tokyo"},
        ),
        clock=FixedClock(START),
    )
    with archive.session() as session:
        assert db.find_game(session, "rome1").deadline == "2026-12-03T12:00:00+00:00"
        welcomes = {m.to: m.body for m in session.exec(select(OutboxRow)).all() if m.subject.startswith("[rome1] ")}
    tokyo = "Deadline: 2026-12-03 12:00 UTC (Asia/Tokyo: 2026-12-03 21:00 JST)."
    assert tokyo in welcomes["mac@example.org"]
    assert welcomes["mac@example.org"].count("Deadline:") == 1
    assert gettext("de", "Deadline: %(utc)s.", utc="2026-12-03 12:00 UTC") in welcomes["egy@example.org"]
    copy = (tmp_path / "games" / "rome1" / "outbox" / "welcome-Macedonia.txt").read_text()
    assert tokyo in copy  # the moderator's copy of the welcome says what the player was told
    ingest(archive, mail("Macedonia", created.passwords["Macedonia"], "BUY 1 INF AT MAC"), clock=FixedClock(START))
    assert tokyo in outbox(archive)[-1].body and "none yet" not in outbox(archive)[-1].body


# -- observers: BROADCAST press, and a notice of a roll-back of turns they were sent ----------------------------

FAN, LATECOMER = "fan@example.org", "late@example.org"


def test_observers_get_broadcast_press_but_never_private_press(game: tuple[Archive, Path, dict[str, str]]) -> None:
    archive, _, passwords = game
    set_observer(archive, "rome1", FAN, language="it")
    sent = mail("Macedonia", passwords["Macedonia"], "PRESS TO Egyptus: attack Hispania", "BROADCAST: peace to all")
    ingest(archive, sent)
    to_fan = [(m.subject, m.body.strip()) for m in outbox(archive) if m.to == FAN]
    broadcast = gettext("it", "Broadcast from %(seat)s", seat="Macedonia")
    assert (f"[rome1] {broadcast}", "peace to all") in to_fan
    assert not any("Hispania" in body for _, body in to_fan)


def test_a_pending_observer_gets_no_press(game: tuple[Archive, Path, dict[str, str]]) -> None:
    archive, _, passwords = game
    ingest(archive, Incoming("<o@test>", FAN, "", "observe", "OBSERVE rome1\n", "OBSERVE rome1\n"))
    ingest(archive, mail("Macedonia", passwords["Macedonia"], "BROADCAST: peace to all", mid="2"))
    assert not any("peace" in m.body for m in outbox(archive) if m.to == FAN)


def test_observers_are_told_when_turns_they_were_sent_are_rolled_back(tmp_path: Path, archive: Archive) -> None:
    clock = FixedClock(START)
    passwords = new_game(archive, tmp_path, NewGameOptions("rome1", "coe-classic", SEATS), clock=clock).passwords
    set_observer(archive, "rome1", FAN, clock=clock)
    ingest(archive, mail("Macedonia", passwords["Macedonia"], "BUY 1 INF AT MAC"), clock=clock)
    later = FixedClock(START + timedelta(hours=1))
    assert "turn 1 (Macedonia) resolved" in "\n".join(tick(archive, tmp_path, clock=later).lines)
    assert any(m.to == FAN and "Report, turn 1" in m.subject for m in outbox(archive))
    assert send_outbox(archive, None, tmp_path / "sent", with_png=False).sent  # the report went out
    set_observer(archive, "rome1", LATECOMER, language="de", clock=FixedClock(START + timedelta(hours=2)))
    rollback(archive, tmp_path, "rome1", 0, clock=FixedClock(START + timedelta(hours=3)))
    notices = [m for m in outbox(archive) if "Rolled back" in m.subject or "Zurückgesetzt" in m.subject]
    (to_fan,) = [m for m in notices if m.to == FAN]
    assert to_fan.subject == "[rome1] Rolled back to turn 0"
    assert "The reports you were sent of later turns are withdrawn (turns 1)" in to_fan.body
    observing = f"[rome1] {gettext('de', 'Observing')}"
    assert [m.subject for m in outbox(archive) if m.to == LATECOMER] == [observing]  # he was never sent turn 1
    assert {m.to for m in notices} == {FAN, *SEATS.values()}


def test_a_roll_back_before_the_reports_went_out_mails_the_kept_turns_again(tmp_path: Path, archive: Archive) -> None:
    """Turns 1-3 resolved at one deadline share one unsent report mail, named by turn 3. Rolled back to turn 2, that
    mail is dropped (it reports a withdrawn turn), and each seat and observer is sent the kept turns' reports."""
    clock = FixedClock(START)
    options = NewGameOptions("rome1", "coe-classic", SEATS, pace="round")
    passwords = new_game(archive, tmp_path, options, clock=clock).passwords
    set_observer(archive, "rome1", FAN, clock=clock)
    for turn, seat in enumerate(SEATS, 1):
        ingest(archive, mail(seat, passwords[seat], "BUY 1 INF", turn=turn, mid=seat), clock=clock)
    later = FixedClock(START + timedelta(hours=1))
    assert "rome1: reports of turn(s) 1, 2, 3 queued" in tick(archive, tmp_path, clock=later).lines
    rollback(archive, tmp_path, "rome1", 2, clock=FixedClock(START + timedelta(hours=2)))
    reports = [m for m in outbox(archive) if "Report, turn" in m.subject]
    assert [m.subject for m in reports] == ["[rome1] Report, turn 2"] * (len(SEATS) + 1)
    for report in reports:
        assert "=== Turn 1:" in report.body and "=== Turn 2:" in report.body, report.to
        assert "=== Turn 3:" not in report.body, report.to
    notices = [m.id for m in outbox(archive) if "Rolled back" in m.subject]
    assert max(notices) < min(m.id for m in reports)  # the notice first, then the reports it announces
    sent = tmp_path / "sent"
    assert send_outbox(archive, None, sent, with_png=False).sent
    egyptus = tmp_path / "egyptus"
    egyptus.mkdir()
    for kept in sent.glob(f"*-{SEATS['Egyptus']}.eml"):
        kept.rename(egyptus / kept.name)
    checked = verify_reports(egyptus)  # the player's check of what he got: turns 1 and 2, their chain heads
    assert not checked.problems, checked.problems
    assert [(ok, line.split(":")[0]) for ok, line in checked.turns] == [
        (True, f"game rome1 turn {n}") for n in (0, 1, 2)
    ]


def test_a_roll_back_keeps_orders_sent_ahead_for_a_turn_after_the_withdrawn_ones_and_names_the_deadline(
    tmp_path: Path, archive: Archive
) -> None:
    """Turns 1 and 2 resolved, Macedonia's orders for turn 4 sent ahead; rolled back to turn 1, only turn 2 is
    withdrawn: Egyptus must send turn 2's orders again, Macedonia's for turn 4 stand (checked again when it opens).
    Every seat's notice gives the new deadline, which the game has from then on."""
    passwords = new_game(
        archive, tmp_path, NewGameOptions("rome1", "coe-classic", SEATS), clock=FixedClock(START)
    ).passwords
    clock = FixedClock(START + timedelta(hours=1))
    ingest(archive, mail("Macedonia", passwords["Macedonia"], "BUY 1 INF"), clock=clock)
    ingest(archive, mail("Egyptus", passwords["Egyptus"], "BUY 1 INF", turn=2, mid="2"), clock=clock)
    assert adjudicate(archive, tmp_path, "rome1", clock=clock).turns
    assert adjudicate(archive, tmp_path, "rome1", clock=clock).turns
    ingest(archive, mail("Macedonia", passwords["Macedonia"], "BUY 2 INF", turn=4, mid="3"), clock=clock)
    assert stored(archive, "Macedonia", 4) is not None
    rolled = FixedClock(START + timedelta(hours=2))
    assert rollback(archive, tmp_path, "rome1", 1, clock=rolled) == [2]
    assert stored(archive, "Egyptus", 2) is None and stored(archive, "Macedonia", 4) is not None
    with archive.session() as session:
        deadline = db.find_game(session, "rome1").deadline
    assert deadline is not None and deadline > rolled.now().isoformat()
    notices = [m for m in outbox(archive) if "Rolled back" in m.subject]
    assert len(notices) == len(SEATS)
    assert all(f"Deadline: {deadline[:16].replace('T', ' ')} UTC." in m.body for m in notices), notices[0].body


def round_game(tmp_path: Path, archive: Archive) -> dict[str, str]:
    """rome1 in round pace with the observer FAN: every seat orders at each deadline (turns 1-3 a round)."""
    options = NewGameOptions("rome1", "coe-classic", SEATS, pace="round")
    passwords = new_game(archive, tmp_path, options, clock=FixedClock(START)).passwords
    set_observer(archive, "rome1", FAN, clock=FixedClock(START))
    return passwords


def play_round(archive: Archive, data: Path, passwords: dict[str, str], first: int, hours: int) -> None:
    """Each seat's BUY for turns first..first+2, resolved at one tick `hours` after the start."""
    clock = FixedClock(START + timedelta(hours=hours))
    for turn, seat in enumerate(SEATS, first):
        ingest(archive, mail(seat, passwords[seat], "BUY 1 INF", turn=turn, mid=f"{seat}{turn}"), clock=clock)
    assert f"turn {first + 2} (Hispania) resolved" in "\n".join(tick(archive, data, clock=clock).lines)


def unsent_reports(archive: Archive) -> dict[str, list[list[int]]]:
    """The turns of each unsent report mail, by address."""
    found: dict[str, list[list[int]]] = {}
    for row in outbox(archive):
        if row.sent is None and "Report, turn" in row.subject:
            turns = {int(n) for n in re.findall(r"^=== Turn (\d+):", row.body, re.M)}  # public and private
            found.setdefault(row.to, []).append(sorted(turns))
    return found


def send(archive: Archive, data: Path, limit: int | None = None) -> list[str]:
    """`pbem send --eml-dir` of the unsent mails (the first `limit`); the addresses sent to."""
    before = {row.id for row in outbox(archive) if row.sent is None}
    send_outbox(archive, None, data / "sent", limit, with_png=False)
    return [row.to for row in outbox(archive) if row.id in before and row.sent is not None]


def test_an_observer_is_told_of_every_withdrawn_turn_a_sent_mail_reported(tmp_path: Path, archive: Archive) -> None:
    passwords = round_game(tmp_path, archive)
    play_round(archive, tmp_path, passwords, 1, 1)
    send(archive, tmp_path)  # turns 1-3 in one mail, named by turn 3
    rollback(archive, tmp_path, "rome1", 1, clock=FixedClock(START + timedelta(hours=2)))
    (notice,) = [m for m in outbox(archive) if m.to == FAN and "Rolled back" in m.subject]
    assert "The reports you were sent of later turns are withdrawn (turns 2, 3)" in notice.body
    assert not unsent_reports(archive)  # turn 1 was sent: nothing to mail again


def test_a_roll_back_mails_the_kept_turns_only_to_those_whose_mail_it_dropped(tmp_path: Path, archive: Archive) -> None:
    passwords = round_game(tmp_path, archive)
    play_round(archive, tmp_path, passwords, 1, 1)
    send(archive, tmp_path)
    play_round(archive, tmp_path, passwords, 4, 2)  # turns 4-6 in one mail each, named by turn 6
    receipts = len([row for row in outbox(archive) if row.sent is None and "Report" not in row.subject])
    sent = send(archive, tmp_path, limit=receipts + 2)[receipts:]  # two reports went out before the roll-back
    assert len(set(sent)) == 2
    rollback(archive, tmp_path, "rome1", 5, clock=FixedClock(START + timedelta(hours=3)))
    dropped = {*SEATS.values(), FAN} - set(sent)
    assert unsent_reports(archive) == {address: [[4, 5]] for address in dropped}


def test_a_roll_back_mails_nothing_again_when_the_mail_it_dropped_reported_no_kept_turn(
    tmp_path: Path, archive: Archive
) -> None:
    passwords = round_game(tmp_path, archive)
    play_round(archive, tmp_path, passwords, 1, 1)
    send(archive, tmp_path)
    play_round(archive, tmp_path, passwords, 4, 2)  # queued, not sent
    rollback(archive, tmp_path, "rome1", 2, clock=FixedClock(START + timedelta(hours=3)))
    assert not unsent_reports(archive)  # turns 1 and 2 went out in the mail of turns 1-3


def test_a_report_mailed_again_says_whose_orders_the_bot_gave(tmp_path: Path, archive: Archive) -> None:
    """The bot gave Macedonia's turn 4, and Macedonia took his seat back at turn 7 before the roll-back."""
    passwords = round_game(tmp_path, archive)
    play_round(archive, tmp_path, passwords, 1, 1)
    send(archive, tmp_path)
    assert set_bot(archive, "rome1", "Macedonia")
    later = FixedClock(START + timedelta(hours=2))
    for turn, seat in ((5, "Egyptus"), (6, "Hispania")):
        ingest(archive, mail(seat, passwords[seat], "BUY 1 INF", turn=turn, mid=f"{seat}{turn}"), clock=later)
    tick(archive, tmp_path, clock=later)
    play_round(archive, tmp_path, passwords, 7, 3)
    rollback(archive, tmp_path, "rome1", 4, clock=FixedClock(START + timedelta(hours=4)))
    (again,) = [m for m in outbox(archive) if m.to == FAN and m.sent is None and "Report, turn 4" in m.subject]
    assert "The orders of Macedonia were given by the bot." in again.body, again.body


def test_a_roll_back_keeps_the_unsent_welcome_of_a_new_player(tmp_path: Path, archive: Archive) -> None:
    passwords = round_game(tmp_path, archive)
    play_round(archive, tmp_path, passwords, 1, 1)
    send(archive, tmp_path)
    clock = FixedClock(START + timedelta(hours=2))
    password = replace_player(archive, "rome1", "Hispania", "new@example.org", clock=clock)
    rollback(archive, tmp_path, "rome1", 2, clock=FixedClock(START + timedelta(hours=3)))
    with archive.session() as session:
        mails = session.exec(select(OutboxRow).where(OutboxRow.to == "new@example.org")).all()
    (welcome,) = [m for m in mails if "Welcome to" in m.subject]
    assert welcome.sent is None and password in welcome.secret
    assert not unsent_reports(archive)  # the others had turns 1-3; the new player's welcome shows his position


# -- the welcome carries the map and names the player's guide -----------------------------------------------------


def _welcomes(pbem: Pbem, folder: Path) -> dict[str, EmailMessage]:
    """The welcome mails `pbem send --eml-dir` writes, by addressee."""
    assert pbem("send", "--eml-dir", str(folder)).exit_code == 0
    mails = [message_from_bytes(path.read_bytes(), policy=default_policy) for path in folder.rglob("*.eml")]
    return {str(m["To"]): m for m in mails if "Welcome" in str(m["Subject"]) or "Willkommen" in str(m["Subject"])}


def test_the_welcome_attaches_the_map_and_names_the_players_guide(pbem: Pbem, tmp_path: Path) -> None:
    seats = [a for seat, address in SEATS.items() for a in ("--seat", f"{seat}={address}")]
    created = pbem("new", "rome1", "--ruleset", "coe-classic", *seats, "--language", "Egyptus=de")
    assert created.exit_code == 0, created.output
    welcomes = _welcomes(pbem, tmp_path / "eml")
    assert sorted(welcomes) == sorted(SEATS.values())
    for address, message in welcomes.items():
        (attached,) = [part for part in message.iter_attachments() if part.get_filename() == "map.svg"]
        assert attached.get_content_type() == "image/svg+xml"
        assert b'id="area-MAC"' in attached.get_payload(decode=True)
        text = message.get_body(("plain",)).get_content()
        assert "docs/players-coe.md" in text, address
    english = welcomes["mac@example.org"].get_body(("plain",)).get_content()
    assert gettext("en", GUIDE, guide="docs/players-coe.md") in english
    german = welcomes["egy@example.org"].get_body(("plain",)).get_content()
    assert gettext("de", GUIDE, guide="docs/players-coe.md") in german
    assert gettext("de", GUIDE, guide="x") != gettext("en", GUIDE, guide="x")


def test_a_conqueror_welcome_attaches_its_map_and_names_its_guide(pbem: Pbem, tmp_path: Path) -> None:
    seats = ["--seat", "kesh=kesh@example.org", "--seat", "aurel=aurel@example.org", "--seat", "thal=t@example.org"]
    created = pbem("new", "er1", "--ruleset", "conqueror-er", "--game-data", str(EXAMPLE), *seats)
    assert created.exit_code == 0, created.output
    welcome = _welcomes(pbem, tmp_path / "eml")["kesh@example.org"]
    assert [part.get_filename() for part in welcome.iter_attachments()] == ["map.svg", "map.png"]
    assert "docs/players-conqueror.md" in welcome.get_body(("plain",)).get_content()


def test_ER_13_a_conqueror_welcome_reports_the_setup_too_so_the_players_chain_starts_at_the_commitment(
    pbem: Pbem, tmp_path: Path
) -> None:
    """The setup (turn 0, with the game data's digest) and the first step the game plays at once (turn 1): the
    welcome reports both, the private report covers both, and the player's check links turn 1 to turn 0."""
    seats = ["--seat", "kesh=kesh@example.org", "--seat", "aurel=aurel@example.org", "--seat", "thal=t@example.org"]
    created = pbem("new", "er1", "--ruleset", "conqueror-er", "--game-data", str(EXAMPLE), *seats)
    assert created.exit_code == 0, created.output
    folder = tmp_path / "eml"
    text = _welcomes(pbem, folder)["kesh@example.org"].get_body(("plain",)).get_content()
    assert "=== Turn 0: setup ===" in text and "Game data digest: " in text and "=== Turn 1" in text
    kept = tmp_path / "kesh"
    kept.mkdir()
    for mail in folder.rglob("*-kesh@example.org.eml"):
        mail.rename(kept / mail.name)
    checked = verify_reports(kept)
    assert not checked.problems, checked.problems
    assert [line.split(":")[0] for _, line in checked.turns] == ["game er1 turn 0", "game er1 turn 1"]
    assert not any("not linked" in note for note in checked.notes), checked.notes


# -- orders sent ahead: one rule for every ruleset -----------------------------------------------------------------


def test_ER_4_1_conqueror_orders_sent_ahead_for_the_next_rounds_plans_are_stored_and_rechecked(
    pbem: Pbem, tmp_path: Path
) -> None:
    """A seat whose campaign turn of the round is over sends its plans for the next round (ER-4.1: New Year and
    taxation take no orders): stored for that step, and re-checked with a fresh receipt when it opens."""
    start(pbem, tmp_path)  # the plans step of round 1 is due
    while due_step(pbem)[1] != "campaign":
        assert pbem("adjudicate", "er1", "--now").exit_code == 0
    number, _, (first,) = due_step(pbem)
    say = {"kesh": "de", "aurel": "it"}.get(first, "en")  # as `start` made them
    assert pbem("adjudicate", "er1", "--now").exit_code == 0  # the first seat's campaign turn is over
    plans = number + 6  # after two campaign turns, the end of the round, New Year and taxation (ER-4.1)
    archive = Archive.open(pbem.data, pbem.db)
    text = f"GAME er1 TURN {plans} PLAYER {first} PASSWORD {pbem.passwords[first]}\nFOOD USE\n"
    outcome = ingest(archive, Incoming("<ahead@test>", SEATS3[first], "", "plans", text, text)).text
    assert outcome == "orders stored"
    ahead = (
        "These orders are for your next player-turn, turn %(turn)s: they are stored for it and will be checked again"
    )
    receipt = outbox(archive)[-1]
    assert receipt.to == SEATS3[first] and gettext(say, ahead, turn=plans) in receipt.body
    while due_step(pbem)[0] < plans:
        assert pbem("adjudicate", "er1", "--now").exit_code == 0
    assert due_step(pbem)[:2] == (plans, "plans")
    again = "Your turn %(turn)s is open now: the orders you sent ahead were checked again against the position"
    assert any(gettext(say, again, turn=plans) in m.body for m in outbox(archive) if m.to == SEATS3[first])
    assert "FOOD USE" in (stored(archive, first, plans, "er1") or "")


def test_help_and_the_orders_template_name_withdraw_in_the_seats_language(tmp_path: Path, archive: Archive) -> None:
    passwords = new_game(
        archive, tmp_path, NewGameOptions("rome1", "coe-classic", SEATS, languages={"Egyptus": "de"})
    ).passwords
    ingest(archive, mail("Macedonia", passwords["Macedonia"], "HELP"))
    (help_text,) = [m.body for m in outbox(archive) if m.to == "mac@example.org"]
    assert "  WITHDRAW\n" in help_text
    folder = tmp_path / "games" / "rome1" / "turn-0000"
    assert "#   WITHDRAW  " in (folder / "report-Macedonia.txt").read_text()
    assert "#   WIDERRUF  " in (folder / "report-Egyptus.txt").read_text()  # the seat's keywords


def test_a_header_alone_with_nothing_stored_is_a_seats_nothing_this_turn(
    game: tuple[Archive, Path, dict[str, str]],
) -> None:
    """A seat that has nothing to order sends the header alone: stored, so that it counts as sent; the same mail
    after orders keeps them (above), and press alone never counts as sent."""
    archive, data, passwords = game
    assert ingest(archive, mail("Macedonia", passwords["Macedonia"], "PRESS TO Egyptus: hi")).text == (
        "no game orders: the stored orders stay"
    )
    assert stored(archive, "Macedonia") is None  # press alone: the turn still waits for his orders
    assert (
        ingest(archive, mail("Macedonia", passwords["Macedonia"], "# nothing this turn", mid="2")).text
        == "orders stored"
    )
    assert stored(archive, "Macedonia") is not None
    assert "turn 1 (Macedonia) resolved" in "\n".join(tick(archive, data).lines)  # all due orders are in


def test_an_anonymous_games_broadcast_reaches_observers_unsigned(tmp_path: Path, archive: Archive) -> None:
    passwords = new_game(
        archive, tmp_path, NewGameOptions("rome1", "coe-classic", SEATS, mail={"anonymous_press": True})
    ).passwords
    set_observer(archive, "rome1", FAN)
    ingest(archive, mail("Macedonia", passwords["Macedonia"], "BROADCAST: peace to all"))
    (to_fan,) = [m for m in outbox(archive) if m.to == FAN and "Broadcast" in m.subject]
    assert to_fan.subject == "[rome1] Broadcast from Anonymous" and "Macedonia" not in to_fan.body
