"""The mail commands judge users expect (njudge, DPjudge): MYORDERS, REPORT n and HISTORY, LIST, RESIGN and SET
ADDRESS, through `ingest` as `pbem ingest` reads a mail, the answers read back from the outbox; in every ruleset,
in more than one language; nothing for a stranger or a forged password."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from adjudicator.archive import Archive
from adjudicator.archive import queries as db
from adjudicator.archive.models import OutboxRow
from adjudicator.rulesets import load_ruleset
from adjudicator.services.adjudication import adjudicate
from adjudicator.services.clock import FixedClock
from adjudicator.services.deadlines import tick
from adjudicator.services.game_reads import current_game, due_turns
from adjudicator.services.games import NewGameOptions, new_game
from adjudicator.services.gm import replace_player
from adjudicator.services.mailbox import ingest
from adjudicator.services.player_commands import history
from adjudicator.services.selfplay import bot_of, header, playable, selfplay_seats, step_rng
from tests.conftest import SEATS, MailGame, Pbem
from tests.test_mail_commands import last_id, letter, orders, queued, without_messages

# -- MYORDERS ----------------------------------------------------------------------------------------------------


def test_myorders_answers_the_stored_orders_checked_again_and_nothing_before_any(game: MailGame) -> None:
    archive, _, passwords = game
    mark = last_id(archive)
    assert ingest(archive, orders("Macedonia", passwords["Macedonia"], "MYORDERS")).text == "commands: MYORDERS"
    (answer,) = queued(archive, mark)
    assert answer.to == "mac@example.org" and "No orders of yours are stored for turn 1." in answer.body
    ingest(archive, orders("Macedonia", passwords["Macedonia"], "MOVE G1 WITH 2 INF: MAC -> THR", "BUY 9 CAV", mid="2"))
    mark = last_id(archive)
    assert (
        ingest(archive, orders("Macedonia", passwords["Macedonia"], "MYORDERS", mid="3")).text == "commands: MYORDERS"
    )
    (answer,) = queued(archive, mark)
    assert answer.subject == "[rome1] Your commands" and answer.in_reply_to == "<3@players.example.org>"
    assert "The orders stored for you for turn 1 (received " in answer.body
    assert "line   2  MOVE G1 WITH 2 INF: MAC -> THR" in answer.body and "line   3  BUY 9 CAV" in answer.body
    assert "1 accepted, 1 rejected, 0 not understood." in answer.body


def test_myorders_in_german_for_orders_sent_ahead(game: MailGame) -> None:
    archive, _, passwords = game
    ingest(archive, orders("Egyptus", passwords["Egyptus"], "SPRACHE de", "BUY 1 INF", turn=2))
    mark = last_id(archive)
    assert ingest(archive, orders("Egyptus", passwords["Egyptus"], "MEINEBEFEHLE", turn=2, mid="2")).text == (
        "commands: MYORDERS"
    )
    (answer,) = queued(archive, mark)
    assert answer.subject == "[rome1] Deine Befehle an die Spielleitung"
    assert "Die für dich gespeicherten Befehle für Zug 2" in answer.body and "Zeile   3  BUY 1 INF" in answer.body


def test_myorders_between_a_seats_turns_shows_the_last_orders_it_sent(game: MailGame) -> None:
    """Macedonia's turn 1 is resolved; its next is turn 4, for which it sent nothing yet."""
    archive, data, passwords = game
    ingest(archive, orders("Macedonia", passwords["Macedonia"], "BUY 1 INF"))
    assert adjudicate(archive, data, "rome1").turns
    mark = last_id(archive)
    asked = orders("Macedonia", passwords["Macedonia"], "MYORDERS", turn=4, mid="2")
    assert ingest(archive, asked).text == "commands: MYORDERS"
    (answer,) = queued(archive, mark)
    assert "No orders of yours are stored for turn 4.\n" in answer.body
    assert "The last orders of yours stored are for turn 1, received " in answer.body
    assert "\n  BUY 1 INF\n" in answer.body


def test_a_forged_password_gets_no_stored_orders_and_a_stranger_no_answer(game: MailGame) -> None:
    archive, _, passwords = game
    ingest(archive, orders("Macedonia", passwords["Macedonia"], "BUY 1 INF"))
    mark = last_id(archive)
    forged = orders("Macedonia", "guess", "MYORDERS", "REPORT 0", "HISTORY", mid="2", sender="spy@example.net")
    assert ingest(archive, forged).text == "refused: a wrong password"
    warned = queued(archive, mark)  # the seat and the moderator hear of the forged mail, and nothing else
    assert [m.subject for m in warned] == [
        "[rome1] Orders for your seat were refused",
        "[rome1] refused mail for Macedonia",
    ]
    assert all("BUY 1 INF" not in m.body and m.to != "spy@example.net" for m in warned)
    before, mark = without_messages(archive), last_id(archive)
    assert ingest(archive, letter("spy@example.net", "LIST", mid="3")).text == "not answered (stranger): LIST"
    assert queued(archive, mark) == [] and without_messages(archive) == before


# -- REPORT and HISTORY ------------------------------------------------------------------------------------------


def test_report_and_history_by_mail_in_italian_with_a_bad_turn_named(game: MailGame) -> None:
    archive, data, passwords = game
    ingest(archive, orders("Macedonia", passwords["Macedonia"], "MOVE G1 WITH 2 INF: MAC -> THR"))
    tick(archive, data)
    ingest(archive, orders("Egyptus", passwords["Egyptus"], "LINGUA it", turn=2, mid="2"))
    mark = last_id(archive)
    mail = orders("Egyptus", passwords["Egyptus"], "RAPPORTO 1", "STORIA", "RAPPORTO 7", turn=2, mid="3")
    assert ingest(archive, mail).text == "commands: REPORT, HISTORY, REPORT"
    (answer,) = queued(archive, mark)
    assert "Partita rome1 - rapporto pubblico\n=== Turno 1: Macedonia (giro 1) ===" in answer.body
    assert "Partita rome1 - rapporto privato per Egyptus" in answer.body  # in the seat's language now
    assert "rapporto privato per Macedonia" not in answer.body
    assert "I turni della partita rome1:" in answer.body
    assert "     1  " in answer.body and "  Macedonia\n" in answer.body
    assert "riga 4: scrivi RAPPORTO <n>, n un turno di questa partita da 0 a 1." in answer.body


def test_history_calls_only_the_first_turn_the_setup_and_names_the_steps_nobody_orders_in(empires_demo: Path) -> None:
    """Empires' income, revolts and action rounds are steps of the rules (EAW-6): no seat's, and no setup."""
    with Archive.in_folder(empires_demo).session() as session:
        game = db.find_game(session, "demo")
        seat = db.game_seats(session, game)[0]
        answer = history(session, game, seat).splitlines()
    turns = [line for line in answer if line.startswith("  ")]
    assert turns[0].endswith("  the setup") and sum(line.endswith("the setup") for line in turns) == 1
    nobody = [line for line in turns if line.endswith("  played without new orders")]
    assert nobody and all(not line.startswith("     0") for line in nobody)


@pytest.mark.parametrize("name", ["coe-classic", "coe-1984", "conqueror-er", "empires-aw"])
def test_myorders_and_report_by_mail_in_every_ruleset(name: str, tmp_path: Path) -> None:
    """Every due seat mails its bot's orders and asks MYORDERS (its order lines come back, checked again); after the
    tick a seat asks REPORT n and gets the turn's public report and its own private one, as the files hold them."""
    ruleset, folder = playable(load_ruleset(name))
    seats = selfplay_seats(ruleset, 3)
    addresses = {seat: f"p{i}@example.org" for i, seat in enumerate(seats)}
    archive = Archive.open(tmp_path, None)
    made = new_game(archive, tmp_path, NewGameOptions("g1", ruleset.name, addresses, game_data=folder))
    with archive.session() as session:
        _, bound, state = current_game(session, "g1")
    for i, (number, seat) in enumerate(due_turns(bound, state, "turn")):
        top = header("g1", number, seat, made.passwords[seat])
        text = bot_of(bound).orders(bound, state, seat, top, step_rng(1, number))
        assert ingest(archive, letter(addresses[seat], *text.splitlines(), mid=f"o{i}")).text == "orders stored"
        receipt = queued(archive)[-1].body
        mark = last_id(archive)
        assert ingest(archive, letter(addresses[seat], top, "MYORDERS", mid=f"m{i}")).text == "commands: MYORDERS"
        (answer,) = queued(archive, mark)
        assert "The orders stored for you for turn" in answer.body
        assert _verdicts(receipt) == _verdicts(answer.body)
    assert not tick(archive, tmp_path).failures
    with archive.session() as session:
        game = db.find_game(session, "g1")
        latest = db.turn_numbers(session, game)[-1]
        _, bound, state = current_game(session, "g1")
    number, seat = next(iter(due_turns(bound, state, "turn")))
    mark = last_id(archive)
    top = header("g1", number, seat, made.passwords[seat])
    assert ingest(archive, letter(addresses[seat], top, f"REPORT {latest}", mid="r")).text == "commands: REPORT"
    (answer,) = queued(archive, mark)
    turn = tmp_path / "games" / "g1" / f"turn-{latest:04d}"
    assert (turn / "report.txt").read_text() in answer.body
    assert (turn / f"report-{seat}.txt").read_text().rstrip("\n") in answer.body
    other = next(s for s in seats if s != seat)
    assert f"private report for {other}" not in answer.body


def _verdicts(receipt: str) -> list[str]:
    """The order lines a receipt echoes, and its count of verdicts."""
    return [line for line in receipt.splitlines() if line.startswith("  line ") or " accepted, " in line]


# -- LIST ----------------------------------------------------------------------------------------------------------


def test_list_names_the_senders_games_and_seats_in_dutch_without_a_header(game: MailGame, tmp_path: Path) -> None:
    archive, _, _ = game
    seats = {"Macedonia": "x@example.org", "Egyptus": "y@example.org", "Hispania": "his@example.org"}
    new_game(archive, tmp_path, NewGameOptions("rome2", "coe-classic", seats))
    mark = last_id(archive)
    assert ingest(archive, letter("his@example.org", "LIJST")).text == "LIST answered"
    (answer,) = queued(archive, mark)
    assert answer.to == "his@example.org" and answer.subject == "Je spellen"
    assert "rome1: je speelt Hispania; beurt 0" in answer.body and "rome2: je speelt Hispania" in answer.body
    assert "Vrije plaatsen" not in answer.body and "Macedonia" not in answer.body
    assert ingest(archive, letter("gm@example.org", "LIST", mid="2")).text == "LIST answered"
    assert "rome1: you moderate it" in queued(archive)[-1].body


def test_list_is_answered_three_times_a_day_then_one_digest(game: MailGame) -> None:
    archive, _, _ = game
    outcomes = [ingest(archive, letter("his@example.org", "LIST", mid=str(i))).text for i in range(5)]
    assert outcomes[:3] == ["LIST answered"] * 3
    assert outcomes[3:] == [
        "LIST (not answered: over the daily limit, digest mailed)",
        "LIST (not answered: over the daily limit)",
    ]


# -- RESIGN ----------------------------------------------------------------------------------------------------------


def test_resign_tells_the_moderator_locks_the_password_and_opens_the_seat_until_replaced(game: MailGame) -> None:
    archive, data, passwords = game
    mark = last_id(archive)
    refused = orders("Hispania", passwords["Hispania"], "RESIGN now", turn=3)
    assert ingest(archive, refused).text == "commands: RESIGN"
    assert (
        "line 2: write RESIGN alone on its line, in a mail without orders; nothing was changed."
        in queued(archive, mark)[-1].body
    )
    mark = last_id(archive)
    assert ingest(archive, orders("Hispania", passwords["Hispania"], "RESIGN", turn=3, mid="2")).text == (
        "commands: RESIGN"
    )
    told, answer = queued(archive, mark)
    assert told.to == "gm@example.org" and told.subject == "[rome1] Hispania resigned"
    assert "pbem gm replace rome1 Hispania <address>" in told.body
    assert answer.to == "his@example.org" and "This cannot be taken back" in answer.body
    again = orders("Hispania", passwords["Hispania"], "BUY 1 INF", turn=3, mid="3")
    assert ingest(archive, again).text == "refused: a wrong password"
    assert "rome1: Hispania" in _list_answer(archive, "mac@example.org", "4")
    replace_player(archive, "rome1", "Hispania", "new@example.org")
    assert "Open seats" not in _list_answer(archive, "mac@example.org", "5")
    with archive.session() as session:
        seat = db.find_seat(session, db.find_game(session, "rome1"), "Hispania")
        assert (seat.email, seat.resigned) == ("new@example.org", "")


def test_a_round_does_not_wait_for_a_seat_given_up_until_a_new_player_takes_it(tmp_path: Path) -> None:
    """Nobody can send a resigned seat's orders (its password is locked): the round is resolved once the other
    seats' orders are in, its turn played by its standing orders, as an absent seat's is."""
    archive = Archive.open(tmp_path, None)
    start = datetime(2026, 11, 28, 8, tzinfo=UTC)
    options = NewGameOptions("rome1", "coe-classic", SEATS, pace="round", mail={"moderator": "gm@example.org"})
    made = new_game(archive, tmp_path, options, clock=FixedClock(start))
    clock = FixedClock(start)
    resigned = orders("Hispania", made.passwords["Hispania"], "RESIGN", turn=3)
    assert ingest(archive, resigned, clock=clock).text == "commands: RESIGN"
    for turn, seat in ((1, "Macedonia"), (2, "Egyptus")):
        sent = orders(seat, made.passwords[seat], "BUY 1 INF", turn=turn, mid=seat)
        assert ingest(archive, sent, clock=clock).text == "orders stored"
    lines = tick(archive, tmp_path, clock=FixedClock(start + timedelta(hours=1))).lines
    assert "rome1: turn 3 (Hispania) resolved" in lines, lines


def _list_answer(archive: Archive, address: str, mid: str) -> str:
    assert ingest(archive, letter(address, "LIST", mid=mid)).text == "LIST answered"
    return queued(archive)[-1].body


# -- SET ADDRESS -------------------------------------------------------------------------------------------------------


def test_set_address_changes_the_address_only_when_the_new_one_sends_its_token_back(game: MailGame) -> None:
    archive, _, passwords = game
    mark = last_id(archive)
    asked = orders("Egyptus", passwords["Egyptus"], "SET ADDRESS egypt@example.net", turn=2)
    assert ingest(archive, asked).text == "commands: ADDRESS"
    confirmation, answer = queued(archive, mark)
    assert confirmation.to == "egypt@example.net" and answer.to == "egy@example.org"
    token = confirmation.body.split("SET ADDRESS rome1 ")[1].split()[0]
    assert confirmation.secret == token
    # a stranger with a wrong token, or the right token from another address: nothing, and no answer
    assert ingest(archive, letter("egypt@example.net", "SET ADDRESS rome1 0000", mid="2")).text == (
        "not answered (stranger): refused: ADDRESS with a wrong token"
    )
    assert ingest(archive, letter("spy@example.net", f"SET ADDRESS rome1 {token}", mid="3")).text.startswith(
        "not answered (stranger)"
    )
    mark = last_id(archive)
    assert ingest(archive, letter("egypt@example.net", f"SET ADDRESS rome1 {token}", mid="4")).text == (
        "address changed for Egyptus"
    )
    assert {m.to for m in queued(archive, mark)} == {"egy@example.org", "egypt@example.net"}
    assert ingest(archive, orders("Egyptus", passwords["Egyptus"], "BUY 1 INF", turn=2, mid="5")).text == (
        "refused: an address that is not yours (egy@example.org)"
    )
    moved = orders("Egyptus", passwords["Egyptus"], "BUY 1 INF", turn=2, mid="6", sender="egypt@example.net")
    assert ingest(archive, moved).text == "orders stored"


def test_set_address_in_german_names_a_bad_address_and_mails_one_confirmation_a_day(game: MailGame) -> None:
    archive, _, passwords = game
    ingest(archive, orders("Egyptus", passwords["Egyptus"], "SPRACHE de", turn=2))
    mark = last_id(archive)
    ingest(archive, orders("Egyptus", passwords["Egyptus"], "ÄNDERE ADRESSE nicht-gültig", turn=2, mid="2"))
    (answer,) = queued(archive, mark)
    assert "Zeile 2: schreibe ÄNDERE ADRESSE <Adresse>, mit einer Mailadresse; nichts wurde geändert." in answer.body
    for mid in ("3", "4"):
        ingest(archive, orders("Egyptus", passwords["Egyptus"], "ÄNDERE ADRESSE e@example.net", turn=2, mid=mid))
    assert [m.to for m in queued(archive, mark)].count("e@example.net") == 1
    assert "vor weniger als 24 Stunden" in queued(archive)[-1].body


# -- flood limits of a seat's commands ---------------------------------------------------------------------------------


def test_a_seats_commands_are_answered_ten_times_a_day_then_one_digest(game: MailGame) -> None:
    archive, _, passwords = game
    clock = FixedClock(datetime(2026, 11, 28, 10, tzinfo=UTC))
    outcomes = [
        ingest(archive, orders("Egyptus", passwords["Egyptus"], "HISTORY", turn=2, mid=str(i)), clock=clock).text
        for i in range(12)
    ]
    assert outcomes[:10] == ["commands: HISTORY"] * 10
    assert outcomes[10:] == [
        "commands: HISTORY (not answered: over the daily limit, digest mailed)",
        "commands: HISTORY (not answered: over the daily limit)",
    ]
    mails: list[OutboxRow] = [m for m in queued(archive) if m.to == "egy@example.org"]
    assert sum("Your commands" in m.subject for m in mails) == 10 and "Too many mails" in mails[-1].subject


# -- READY and WAIT --------------------------------------------------------------------------------------------------


def test_wait_holds_a_turn_whose_orders_are_in_until_ready_takes_it_back(game: MailGame) -> None:
    archive, data, passwords = game
    tick(archive, data)  # the deadline is set
    mark = last_id(archive)
    assert ingest(archive, orders("Macedonia", passwords["Macedonia"], "BUY 1 INF", "WARTE")).text == "orders stored"
    assert (
        "Turn 1 waits for its deadline, even when every order is in; READY takes it back."
        in queued(archive, mark)[0].body
    )
    assert [line for line in tick(archive, data).lines if "resolved" in line or "waiting" in line] == [
        "rome1: waiting for Macedonia (READY, WAIT) until " + _deadline(archive)
    ]
    assert ingest(archive, orders("Macedonia", passwords["Macedonia"], "READY", mid="2")).text == "commands: READY"
    assert "rome1: turn 1 (Macedonia) resolved" in tick(archive, data).lines


def test_a_game_resolved_early_once_all_are_ready_waits_for_ready_not_for_orders(tmp_path: Path) -> None:
    archive = Archive.open(tmp_path, None)
    seats = {"Macedonia": "mac@example.org", "Egyptus": "egy@example.org", "Hispania": "his@example.org"}
    made = new_game(
        archive,
        tmp_path,
        NewGameOptions("rome1", "coe-classic", seats, mail={"early": "ready"}, languages={"Macedonia": "it"}),
    )
    tick(archive, tmp_path)
    mac = made.passwords["Macedonia"]
    assert ingest(archive, orders("Macedonia", mac, "BUY 1 INF")).text == "orders stored"
    assert not any("resolved" in line for line in tick(archive, tmp_path).lines)
    mark = last_id(archive)
    assert ingest(archive, orders("Macedonia", mac, "PRONTO", mid="2")).text == "commands: READY"
    assert "Sei pronto per il turno 1" in queued(archive, mark)[0].body
    assert "rome1: turn 1 (Macedonia) resolved" in tick(archive, tmp_path).lines
    # READY without orders is a seat's "nothing this turn": resolved at once, a turn missed
    assert ingest(archive, orders("Egyptus", made.passwords["Egyptus"], "READY", turn=2, mid="3")).text == (
        "commands: READY"
    )
    assert "rome1: turn 2 (Egyptus) resolved" in tick(archive, tmp_path).lines


def test_pbem_new_refuses_an_unknown_early_option(pbem: Pbem) -> None:
    seats = [a for seat, mail in SEATS.items() for a in ("--seat", f"{seat}={mail}")]
    result = pbem("new", "rome1", *seats, "--early", "never")
    assert result.exit_code != 0 and "early 'never': choose 'orders'" in result.output


def _deadline(archive: Archive) -> str:
    with archive.session() as session:
        deadline = db.find_game(session, "rome1").deadline
    assert deadline is not None
    return deadline


# -- the grace period -------------------------------------------------------------------------------------------------


def test_a_grace_period_takes_late_orders_after_the_deadline_then_resolves_without_them(tmp_path: Path) -> None:
    archive = Archive.open(tmp_path, None)
    start = datetime(2026, 11, 28, 8, tzinfo=UTC)
    options = NewGameOptions("rome1", "coe-classic", SEATS, mail={"grace_hours": 12, "turn_hours": 24})
    made = new_game(archive, tmp_path, options, clock=FixedClock(start))
    late = FixedClock(start + timedelta(hours=25))
    assert tick(archive, tmp_path, clock=late).lines == [
        "rome1: waiting for Macedonia in the grace period until 2026-11-29T20:00:00+00:00"
    ]
    assert ingest(archive, orders("Macedonia", made.passwords["Macedonia"], "BUY 1 INF"), clock=late).text == (
        "orders stored"
    )
    assert "rome1: turn 1 (Macedonia) resolved" in tick(archive, tmp_path, clock=late).lines
    # turn 2's deadline runs from then; its grace period ends, and Egyptus's turn is resolved without orders
    after = FixedClock(late.now() + timedelta(hours=24 + 12))
    assert "rome1: turn 2 (Egyptus) resolved" in tick(archive, tmp_path, clock=after).lines


# -- AWAY ------------------------------------------------------------------------------------------------------------


def test_a_turn_of_a_seat_away_is_resolved_without_waiting_for_its_deadline(tmp_path: Path) -> None:
    """Its standing orders or the bot play an absent seat's turns: nobody is waited for, nor reminded."""
    archive = Archive.open(tmp_path, None)
    start = datetime(2026, 11, 28, 8, tzinfo=UTC)
    made = new_game(archive, tmp_path, NewGameOptions("rome1", "coe-classic", SEATS), clock=FixedClock(start))
    away = orders("Macedonia", made.passwords["Macedonia"], "AWAY 2026-11-28 2026-12-02")
    assert ingest(archive, away, clock=FixedClock(start)).text == "commands: AWAY"
    first = tick(archive, tmp_path, clock=FixedClock(start + timedelta(hours=1))).lines
    assert "rome1: turn 1 (Macedonia) resolved" in first
    second = tick(archive, tmp_path, clock=FixedClock(start + timedelta(hours=2))).lines
    assert second[0].startswith("rome1: waiting for Egyptus until "), second  # Egyptus is not away


def test_the_turn_of_a_seat_away_after_the_one_resolved_is_resolved_in_the_same_run(tmp_path: Path) -> None:
    """Egyptus is away: once Macedonia's turn 1 is resolved, Egyptus's turn 2 follows at once, with one report mail;
    Hispania's turn 3 waits for Hispania. Everybody away: the game waits for its deadlines, it does not play itself."""
    archive = Archive.open(tmp_path, None)
    start = datetime(2026, 11, 28, 8, tzinfo=UTC)
    made = new_game(archive, tmp_path, NewGameOptions("rome1", "coe-classic", SEATS), clock=FixedClock(start))
    clock = FixedClock(start)
    ingest(archive, orders("Egyptus", made.passwords["Egyptus"], "AWAY 2026-11-28 2026-12-02", turn=2), clock=clock)
    ingest(archive, orders("Macedonia", made.passwords["Macedonia"], "BUY 1 INF", mid="2"), clock=clock)
    lines = tick(archive, tmp_path, clock=FixedClock(start + timedelta(hours=1))).lines
    assert lines[:3] == [
        "rome1: turn 1 (Macedonia) resolved",
        "rome1: turn 2 (Egyptus) resolved",
        "rome1: reports of turn(s) 1, 2 queued",
    ], lines
    for seat in ("Macedonia", "Hispania"):
        away = orders(seat, made.passwords[seat], "AWAY 2026-11-28 2026-12-02", turn=3, mid=f"a{seat}")
        assert ingest(archive, away, clock=clock).text == "commands: AWAY"
    waiting = tick(archive, tmp_path, clock=FixedClock(start + timedelta(hours=2))).lines
    assert waiting[0].startswith("rome1: waiting for Hispania until "), waiting


def test_the_turns_of_an_announced_absence_are_not_counted_missed(tmp_path: Path) -> None:
    archive = Archive.open(tmp_path, None)
    start = datetime(2026, 11, 28, 8, tzinfo=UTC)
    made = new_game(archive, tmp_path, NewGameOptions("rome1", "coe-classic", SEATS), clock=FixedClock(start))
    mac, clock = made.passwords["Macedonia"], FixedClock(start)
    mark = last_id(archive)
    ingest(archive, orders("Macedonia", mac, "AFWEZIG 2026-11-28 2026-12-31"), clock=clock)  # over 14 days
    assert "line 2: write AWAY <from> <to>, two dates such as 2026-12-24 2027-01-02" in queued(archive, mark)[0].body
    assert ingest(archive, orders("Macedonia", mac, "AWAY 2026-11-28 2026-12-02", mid="2"), clock=clock).text == (
        "commands: AWAY"
    )
    assert "You are away from 2026-11-28 to 2026-12-02 (UTC)" in queued(archive)[-1].body
    assert (
        "rome1: turn 1 (Macedonia) resolved"
        in tick(archive, tmp_path, clock=FixedClock(start + timedelta(hours=73))).lines
    )
    assert (
        "rome1: turn 2 (Egyptus) resolved"
        in tick(archive, tmp_path, clock=FixedClock(start + timedelta(hours=146))).lines
    )
    with archive.session() as session:
        missed = {seat.seat: seat.missed for seat in db.game_seats(session, db.find_game(session, "rome1"))}
    assert missed == {"Macedonia": 0, "Egyptus": 1, "Hispania": 0}
