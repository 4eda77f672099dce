"""`pbem verify` holds the archive against what has left it: the chain heads the reports printed in the turn files
on disk, in the outbox's mails and in the .eml files `pbem send --eml-dir` wrote. It also checks the stored rows
the turns' chain does not cover: the dice checkpoints against the seed, the order sets against the orders each turn
resolved, the seat rows against the seats the snapshots name.

Each case edits a copy of a real game (a real SQLite archive, its turn files and the mails `pbem send` wrote) as a
moderator with access to the database or the disk could, and runs the real `pbem verify`. The game is played once
per module."""

from __future__ import annotations

import json
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import Result

from adjudicator.archive import Archive
from adjudicator.archive import queries as db
from adjudicator.engine.chance import chain_checkpoints
from adjudicator.services.chain import chain_hash
from tests.conftest import SEATS, Pbem
from tests.test_conqueror_repair_verify import played
from tests.test_sealed_bids_game import RULESETS, Table
from tests.test_sealed_bids_game import SEATS as BID_SEATS

GAME = "rome1"


def play_coe(root: Path) -> Pbem:
    """rome1 (Classic, Egyptus reads German) with turns 1-3 resolved, every report mailed as .eml files to
    root/eml: Macedonia moves and buys, Egyptus moves, Hispania sends nothing."""
    pbem = Pbem(root / "data")
    seats = [a for seat, mail in SEATS.items() for a in ("--seat", f"{seat}={mail}")]
    made = pbem("new", GAME, "--ruleset", "coe-classic", *seats, "--language", "Egyptus=de")
    assert made.exit_code == 0, made.output
    pbem.passwords = {p[0]: p[1] for p in (line.split() for line in made.output.splitlines()) if len(p) == 2}
    for seat, turn, order in (("Macedonia", 1, "MOVE G1 WITH 2 INF: MAC -> THR"), ("Egyptus", 2, "BUY 1 INF")):
        assert pbem("submit", GAME, str(pbem.orders(seat, turn, order))).exit_code == 0
        assert pbem("adjudicate", GAME).exit_code == 0
    assert pbem("adjudicate", GAME, "--now").exit_code == 0
    assert pbem("tick").exit_code == 0
    sent = pbem("send", "--eml-dir", str(root / "eml"))
    assert sent.exit_code == 0 and "0 failed" in sent.output, sent.output
    return pbem


@pytest.fixture(scope="module")
def coe_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return play_coe(tmp_path_factory.mktemp("coe")).data.parent


@pytest.fixture
def game(coe_game: Path, tmp_path: Path) -> Iterator[Pbem]:
    """A copy of the module's game for one case to edit."""
    shutil.copytree(coe_game, tmp_path / "game")
    yield Pbem(tmp_path / "game" / "data")


def sql(pbem: Pbem, statement: str, *values: object) -> list[tuple[object, ...]]:
    with sqlite3.connect(pbem.data / "archive.sqlite") as connection:
        return list(connection.execute(statement, values).fetchall())


def verified(pbem: Pbem, eml: bool = False, name: str = GAME) -> Result:
    """`pbem verify` (`eml`: with the folder of .eml files `pbem send` wrote), which must end with its summary
    line."""
    folder = ["--eml-dir", str(pbem.data.parent / "eml")] if eml else []
    result = pbem("verify", name, *folder)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "checks passed" in result.output.splitlines()[-1], result.output
    return result


def problems(result: Result) -> list[str]:
    return [line.removeprefix("PROBLEM  ") for line in result.output.splitlines() if line.startswith("PROBLEM")]


def notes(result: Result) -> list[str]:
    return [line.removeprefix("note     ") for line in result.output.splitlines() if line.startswith("note")]


def chains(pbem: Pbem) -> dict[int, str]:
    return {int(n): str(c) for n, c in sql(pbem, "SELECT number, chain FROM turn WHERE superseded = 0")}  # type: ignore[call-overload]


def delete_last_turn(pbem: Pbem) -> str:
    """Delete turn 3 and set the game's head back to turn 2's stored link, as an editor who knows the chain
    would; the deleted turn's chain head is returned."""
    deleted = chains(pbem)[3]
    sql(pbem, "DELETE FROM turn WHERE number = 3")
    sql(pbem, "UPDATE game SET chain_head = ?, chain_turn = 2", chains(pbem)[2])
    return deleted


def rehash(pbem: Pbem) -> None:
    """Recompute every turn's link and the game's head, as an editor who knows the chain would after an edit."""
    with Archive.open(pbem.data, None).session() as session:
        stored = db.find_game(session, GAME)
        link = stored.commitment
        for row in db.turns(session, stored):
            row.chain = link = chain_hash(link, row, stored.chain_version)
            session.add(row)
        stored.chain_head = link
        session.add(stored)


def test_an_untouched_game_verifies_clean_with_every_published_head_checked(game: Pbem) -> None:
    result = verified(game, eml=True)
    assert result.exit_code == 0 and problems(result) == [] and notes(result) == [], result.output
    # welcome mails carry the setup's report; Egyptus's German mails print "Archivkette nach diesem Zug"
    assert (
        "ok       rows outside the chain: seats, dice checkpoints and 2 order set(s) agree with the turns; "
        "published chain heads (12 in mails, 4 in turn files, 12 in .eml files) agree with the archive"
    ) in result.output
    german = [body for (body,) in sql(game, "SELECT body FROM outbox WHERE \"to\" = 'egy@example.org'")]
    assert any(f"Archivkette nach diesem Zug: {chains(game)[3]}" in str(body) for body in german)


def test_a_deleted_last_turn_with_the_head_set_back_is_named_by_the_mails_the_files_and_the_eml_files(
    game: Pbem,
) -> None:
    """The archive agrees with itself once the head is set back: only what left it names the deleted turn."""
    deleted = delete_last_turn(game)
    found = problems(verified(game, eml=True))
    assert len(found) == 1, found
    assert found[0].startswith(f"turn 3: published with archive chain {deleted} (mail ")
    assert "games/rome1/turn-0003/report.txt" in found[0] and ".eml" in found[0]
    assert found[0].endswith("but the archive has no turn 3: a turn that left the archive was deleted")


def test_a_deleted_last_turn_is_named_by_the_outbox_mails_alone(game: Pbem) -> None:
    deleted = delete_last_turn(game)
    shutil.rmtree(game.data / "games/rome1/turn-0003")
    found = problems(verified(game))
    assert found == [
        f"turn 3: published with archive chain {deleted} (mail 10 to mac@example.org, mail 11 to egy@example.org, "
        "mail 12 to his@example.org), but the archive has no turn 3: a turn that left the archive was deleted"
    ]


def test_a_deleted_last_turn_is_named_by_the_turn_files_alone(game: Pbem) -> None:
    deleted = delete_last_turn(game)
    sql(game, "DELETE FROM outbox")
    found = problems(verified(game))
    assert found == [
        f"turn 3: published with archive chain {deleted} (games/rome1/turn-0003/report.txt), but the archive "
        "has no turn 3: a turn that left the archive was deleted"
    ]


def test_a_deleted_last_turn_is_named_by_the_eml_files_alone(game: Pbem) -> None:
    deleted = delete_last_turn(game)
    sql(game, "DELETE FROM outbox")
    shutil.rmtree(game.data / "games/rome1/turn-0003")
    found = problems(verified(game, eml=True))
    assert len(found) == 1 and found[0].startswith(f"turn 3: published with archive chain {deleted} ("), found
    assert "10-mac@example.org.eml" in found[0] and "11-egy@example.org.eml" in found[0]  # German too


def test_a_turn_edited_and_the_whole_chain_rehashed_is_named_by_its_published_heads(game: Pbem) -> None:
    """Every link and the head recomputed after an edit: only the published heads disagree, from that turn on."""
    sql(game, "UPDATE turn SET round = 9 WHERE number = 2")
    rehash(game)
    assert verified(game).output.count("chain is broken") == 0
    found = problems(verified(game))
    assert [p.split(":")[0] for p in found] == ["turn 2", "turn 2", "turn 3"], found  # its round, then its heads
    assert "but the archive's turn 2 has chain" in found[1] and "edited and rehashed" in found[1]


def test_an_edited_report_file_is_named_with_its_turn_and_path(game: Pbem) -> None:
    report = game.data / "games/rome1/turn-0002/report.txt"
    report.write_text(report.read_text().replace(chains(game)[2], "0" * 64))
    found = problems(verified(game))
    assert found == [
        f"turn 2: published with archive chain {'0' * 64} (games/rome1/turn-0002/report.txt), but the archive's "
        f"turn 2 has chain {chains(game)[2]}: the turn was edited and rehashed, or what was published was edited"
    ]


def test_an_outgoing_mail_whose_chain_line_was_edited_is_named(game: Pbem) -> None:
    mails = "SELECT id FROM outbox WHERE instr(body, ?) > 0 AND \"to\" = 'egy@example.org'"
    (mail,) = sql(game, mails, chains(game)[2])[0]  # Egyptus's German report of turn 2
    sql(game, "UPDATE outbox SET body = replace(body, ?, ?) WHERE id = ?", chains(game)[2], "f" * 64, mail)
    found = problems(verified(game))
    assert len(found) == 1 and found[0].startswith(f"turn 2: published with archive chain {'f' * 64} (mail {mail} ")


def test_a_seat_row_given_another_label_is_named(game: Pbem) -> None:
    sql(game, "UPDATE seat SET seat = 'Aegyptus' WHERE seat = 'Egyptus'")
    found = problems(verified(game))
    assert (
        "turn 3: the game has a seat row 'Aegyptus', which no seat of the stored snapshots is "
        "(Macedonia, Egyptus, Hispania): the seat row was renamed"
    ) in found
    assert "turn 3: seat 'Egyptus' of the stored snapshots has no seat row" in found


def test_a_seat_renamed_in_its_row_and_its_turns_with_the_chain_rehashed_is_named(game: Pbem) -> None:
    """Seat rows and turn rows agree, the chain is rehashed: the snapshots still name the seat's old name."""
    sql(game, "UPDATE seat SET seat = 'Aegyptus' WHERE seat = 'Egyptus'")
    sql(game, "UPDATE turn SET seat = 'Aegyptus' WHERE seat = 'Egyptus'")
    sql(game, "UPDATE orderset SET seat = 'Aegyptus' WHERE seat = 'Egyptus'")
    rehash(game)
    found = problems(verified(game))
    assert "turn 2: stored as 'Aegyptus''s, which is not a seat of the game" in found, found
    assert any(p.startswith("turn 3: the game has a seat row 'Aegyptus'") for p in found), found
    assert any(p.startswith("turn 2: published with archive chain") for p in found), found


def test_a_dice_checkpoint_whose_key_was_changed_is_named(game: Pbem) -> None:
    (seed,) = sql(game, "SELECT seed FROM game")[0]
    stored = {str(turn): key.hex() for turn, key in chain_checkpoints(bytes.fromhex(str(seed))).items()}
    assert json.loads(str(sql(game, "SELECT checkpoints FROM game")[0][0])) == stored
    stored["100"] = "ab" * 32  # turn 0's key still the commitment: adjudicate would use the edited key
    sql(game, "UPDATE game SET checkpoints = ?", json.dumps(stored))
    found = problems(verified(game))
    assert found == [
        "turn 100: the stored dice checkpoint (game.checkpoints) is not the seed's key: it was edited, and the "
        "turns up to 100 would be resolved with keys that are not the chain's"
    ]


def test_an_order_set_row_changed_after_its_turn_is_named(game: Pbem) -> None:
    sql(game, "UPDATE orderset SET text = replace(text, 'BUY 1 INF', 'BUY 9 INF') WHERE turn = 2")
    found = problems(verified(game))
    assert found == [
        "turn 2 (Egyptus): the stored order set of Egyptus differs from the orders the turn resolved: an order "
        "set row was edited, added or removed after the turn"
    ]


def test_an_order_set_row_added_for_a_turn_resolved_without_orders_is_named(game: Pbem) -> None:
    (game_id,) = sql(game, "SELECT id FROM game")[0]
    sql(
        game,
        "INSERT INTO orderset (game_id, turn, seat, text, received, replaced, source) VALUES (?, 3, 'Hispania', "
        "'GAME rome1 TURN 3 PLAYER Hispania PASSWORD x\nBUY 1 INF\n', '2026-01-01T00:00:00+00:00', 0, 'file')",
        game_id,
    )
    assert [p.split(":")[0] for p in problems(verified(game))] == ["turn 3 (Hispania)"]


def test_missing_turn_files_and_folders_are_said_not_failed(game: Pbem) -> None:
    shutil.rmtree(game.data / "games/rome1/turn-0001")
    shutil.rmtree(game.data.parent / "eml")
    result = verified(game, eml=True)
    assert result.exit_code == 0 and problems(result) == [], result.output
    assert any(n.startswith("turn files not available for turn(s) 1 (") for n in notes(result)), result.output
    unavailable = "not available: its mails not checked"
    assert any(n.startswith("mail folder ") and n.endswith(unavailable) for n in notes(result)), result.output


def test_a_roll_back_after_the_reports_were_mailed_verifies_clean(game: Pbem) -> None:
    """`pbem gm rollback` withdraws turns whose reports left: their heads are a withdrawn turn's, not a problem."""
    assert game("gm", "rollback", GAME, "--to", "1").exit_code == 0
    assert (game.data / "games/rome1/turn-0002-withdrawn-1/report.txt").is_file()
    result = verified(game)
    assert result.exit_code == 0 and problems(result) == [], result.output


# -- a Conqueror game (ER-13: its setup report publishes the data digest and the chain head) ------------------------


@pytest.fixture(scope="module")
def er_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    data = played(tmp_path_factory.mktemp("er"))
    assert Pbem(data)("tick").exit_code == 0
    return data


def test_ER_13_an_untouched_conqueror_game_verifies_clean_and_a_deleted_step_is_named(
    er_game: Path, tmp_path: Path
) -> None:
    pbem = Pbem(shutil.copytree(er_game, tmp_path / "data"))
    result = verified(pbem, name="er1")
    assert result.exit_code == 0 and problems(result) == [] and notes(result) == [], result.output
    assert "ok       rows outside the chain: seats, dice checkpoints and" in result.output
    last = max(int(n) for (n,) in sql(pbem, "SELECT number FROM turn"))  # type: ignore[call-overload]
    links = dict(sql(pbem, "SELECT number, chain FROM turn"))
    sql(pbem, "DELETE FROM turn WHERE number = ?", last)
    sql(pbem, "UPDATE game SET chain_head = ?, chain_turn = ?", links[last - 1], last - 1)
    found = problems(verified(pbem, name="er1"))
    assert found and all(f"but the archive has no turn {last}" in p for p in found), found


# -- a sealed step: each seat's order set is a part of the step's orders ---------------------------------------------


@pytest.fixture(scope="module")
def bids_game(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The core's sealed-bids test game (tests/rulesets/sealed_bids/) with its deal and its first sealed step
    resolved, every seat's bid mailed in and ingested."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PBEM_RULESETS", str(RULESETS))
        root = tmp_path_factory.mktemp("bids")
        table = Table(root / "data")
        table.new()
        assert "resolved" in table.run("tick")  # step 1, the deal (B-1)
        hands = table.hands(1)
        for seat in BID_SEATS:
            assert "orders stored" in table.mail_bid(seat, 2, hands[seat][0], root)
        table.run("adjudicate", "bids1")
        yield root / "data"


def test_B_2_an_order_set_of_a_sealed_step_changed_after_it_resolved_is_named_with_its_seat(
    bids_game: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PBEM_RULESETS", str(RULESETS))
    pbem = Pbem(shutil.copytree(bids_game, tmp_path / "data"))
    result = verified(pbem, name="bids1")
    assert result.exit_code == 0 and problems(result) == [], result.output
    assert "and 3 order set(s) agree with the turns" in result.output
    sql(pbem, "UPDATE orderset SET text = text || 'BID Dragon' || char(10) WHERE turn = 2 AND seat = 'East'")
    found = problems(verified(pbem, name="bids1"))
    assert found == [
        "turn 2 (North, East, South): the stored order set of East differs from the orders the turn resolved: "
        "an order set row was edited, added or removed after the turn"
    ]


def test_an_order_mail_whose_stored_row_was_deleted_is_named_by_the_order_set_it_stored(
    bids_game: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PBEM_RULESETS", str(RULESETS))
    pbem = Pbem(shutil.copytree(bids_game, tmp_path / "data"))
    sql(pbem, "DELETE FROM message WHERE seat = 'South'")
    found = problems(verified(pbem, name="bids1"))
    assert len(found) == 1 and found[0].startswith("turn 2 (North, East, South): the order set of South came by mail")
    assert found[0].endswith(
        "but no stored mail of South's orders was received then: the mail's row was deleted or edited"
    )
