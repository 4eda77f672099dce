"""`pbem verify` cannot be fooled by an edited archive (dice marked as given or
imported after the first turn, a deleted, moved or changed turn), names every damaged row and goes on to the end,
and the files of a turn whose writer died after its commit are written by the next repair, adjudicate or tick.

Each case edits a real archive (SQLite and PostgreSQL) with SQL, as somebody with access to the database would."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

from sqlalchemy import text
from typer.testing import Result

from adjudicator.archive import Archive
from adjudicator.archive.store import close_archives
from tests.conftest import SEATS, Pbem
from tests.test_decisions_cli import contested_position, new_from
from tests.test_tick_and_files import played_position

Write = Callable[[str, str | bytes], Path]


def three_turns(pbem: Pbem) -> None:
    """rome1 with turns 1-3 resolved: Macedonia moves and buys, Egyptus moves, Hispania sends nothing."""
    pbem.new_game()
    assert (
        pbem(
            "submit", "rome1", str(pbem.orders("Macedonia", 1, "MOVE G1 WITH 2 INF: MAC -> THR", "BUY 1 INF"))
        ).exit_code
        == 0
    )
    assert pbem("adjudicate", "rome1").exit_code == 0
    assert pbem("submit", "rome1", str(pbem.orders("Egyptus", 2, "MOVE G1 WITH 2 INF: EGY -> PAL"))).exit_code == 0
    assert pbem("adjudicate", "rome1").exit_code == 0
    assert pbem("adjudicate", "rome1", "--now").exit_code == 0


def sql(pbem: Pbem, statement: str, **values: object) -> list[tuple[object, ...]]:
    """One SQL statement with bound values on the archive (committed)."""
    with Archive.open(pbem.data, pbem.db).engine.begin() as connection:
        result = connection.execute(text(statement), values)
        return [tuple(row) for row in result] if result.returns_rows else []


def verified(pbem: Pbem) -> Result:
    """`pbem verify rome1`, which must end with its summary line and never with a traceback."""
    result = pbem("verify", "rome1")
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "checks passed" in result.output.splitlines()[-1], result.output
    return result


def problems(result: Result) -> list[str]:
    return [line.removeprefix("PROBLEM  ") for line in result.output.splitlines() if line.startswith("PROBLEM")]


def test_verify_passes_an_untouched_game_and_names_its_chain_head(pbem: Pbem) -> None:
    three_turns(pbem)
    result = verified(pbem)
    assert result.exit_code == 0 and "0 problems" in result.output, result.output
    head = sql(pbem, "select chain_head from game where name = 'rome1'")[0][0]
    assert f"chain head after turn 3: {head}" in result.output


def test_verify_refuses_dice_given_from_a_file_after_turn_0_and_the_site_says_so(pbem: Pbem, tmp_path: Path) -> None:
    """Nothing stores dice from a file, so a turn marked so was edited: its dice are the editor's."""
    three_turns(pbem)
    sql(pbem, "update turn set dice_source = 'given', given_dice = '', turn_key = '' where number = 2")
    result = verified(pbem)
    assert result.exit_code == 1
    assert any(p.startswith("turn 2: its dice are marked as given from a dice file") for p in problems(result))
    assert pbem("site", "rome1", "--out", str(tmp_path / "site")).exit_code == 0
    page = (tmp_path / "site" / "turn-0002.html").read_text()
    assert "Warning: the archive marks this turn" in page and "dice as given from a dice file" in page
    assert "dice-warning" not in (tmp_path / "site" / "turn-0001.html").read_text()


def test_verify_refuses_an_imported_position_after_the_first_turn(pbem: Pbem, tmp_path: Path) -> None:
    """An imported position is only ever a game's first stored turn (`pbem new --from-snapshot`)."""
    three_turns(pbem)
    sql(pbem, "update turn set dice_source = 'imported' where number = 2")
    result = verified(pbem)
    assert result.exit_code == 1
    assert any(p.startswith("turn 2: marked as an imported position") for p in problems(result)), result.output
    assert pbem("site", "rome1", "--out", str(tmp_path / "site")).exit_code == 0
    page = (tmp_path / "site" / "turn-0002.html").read_text()
    assert "Warning: the archive marks this turn as an imported position" in page


def test_a_game_started_from_an_imported_position_verifies(pbem: Pbem) -> None:
    made = pbem(
        "new",
        "rome1",
        "--from-snapshot",
        str(played_position(pbem)),
        *[a for seat, mail in SEATS.items() for a in ("--seat", f"{seat}={mail}")],
    )
    pbem.passwords = {
        line.split()[0]: line.split()[1]
        for line in made.output.splitlines()
        if len(line.split()) == 2 and line.split()[0] in SEATS
    }
    assert pbem("submit", "rome1", str(pbem.orders("Egyptus", 2, "BUY 1 INF"))).exit_code == 0
    assert pbem("adjudicate", "rome1").exit_code == 0
    result = verified(pbem)
    assert result.exit_code == 0 and "turn 1: the game starts from an imported position" in result.output
    assert "turn 2 (Egyptus): replay matches" in result.output


def test_verify_names_a_deleted_last_turn(pbem: Pbem) -> None:
    """The game row keeps the chain head and the number of its turn, set with each turn stored."""
    three_turns(pbem)
    sql(pbem, "delete from turn where number = 3")
    result = verified(pbem)
    assert result.exit_code == 1
    found = problems(result)
    assert len(found) == 2 and "chain head is that of turn 3" in found[0] and "ends at turn 2" in found[0], found
    assert found[1].startswith("turn 3: published with archive chain") and "the archive has no turn 3" in found[1]


def test_verify_names_a_deleted_turn_in_the_middle(pbem: Pbem) -> None:
    three_turns(pbem)
    sql(pbem, "delete from turn where number = 2")
    found = problems(verified(pbem))
    assert "turn 3: follows turn 1; the turns between are missing" in found
    assert any(p.startswith("turn 3: the chain is broken here") for p in found), found


def test_verify_names_a_changed_seat_or_round(pbem: Pbem) -> None:
    """Seat and round do not change the replay, but they are in the chain, and the position before names them."""
    three_turns(pbem)
    named = {
        "round": "turn 1: stored in round 7, but it was played in round 1: the turn was edited",
        "seat": "turn 2: stored as the step of Hispania, but the step due was Egyptus's: the turn was edited",
    }
    for column, value, number in (("round", 7, 1), ("seat", "Hispania", 2)):
        (before,) = sql(pbem, f"select {column} from turn where number = {number}")[0]
        sql(pbem, f"update turn set {column} = :value where number = {number}", value=value)
        found = problems(verified(pbem))
        assert found == [
            named[column],
            f"turn {number}: the chain is broken here: this turn was edited, or it does not follow "
            f"turn {number - 1} as stored (a turn edited, deleted or moved)",
        ], (column, found)
        sql(pbem, f"update turn set {column} = :value where number = {number}", value=before)
    assert verified(pbem).exit_code == 0


def test_verify_names_turns_moved_and_turns_rechained_without_the_head(pbem: Pbem) -> None:
    three_turns(pbem)
    sql(pbem, "update turn set number = -2 where number = 2")
    sql(pbem, "update turn set number = 2 where number = 3")
    sql(pbem, "update turn set number = 3 where number = -2")
    found = problems(verified(pbem))
    assert any(p.startswith("turn 2: the chain is broken here") for p in found), found
    assert any(p.startswith("turn 3: the chain is broken here") for p in found), found


def test_verify_names_an_edited_turn_whose_own_link_was_recomputed(pbem: Pbem) -> None:
    """An editor who recomputes the edited turn's link breaks the next one, and the head its reports published
    names the turn itself (one who recomputes every link: tests/test_verify_published.py)."""
    from adjudicator.services.chain import DIGESTED, chain_hash

    three_turns(pbem)
    sql(pbem, "update turn set round = 9 where number = 2")
    with Archive.open(pbem.data, pbem.db).session() as session:
        from sqlmodel import select

        from adjudicator.archive.models import TurnRow

        rows = {row.number: row for row in session.exec(select(TurnRow))}
        rows[2].chain = chain_hash(rows[1].chain, rows[2], DIGESTED)  # a game begun by this version
        session.add(rows[2])
    found = problems(verified(pbem))
    assert [p.split(":")[0] for p in found] == ["turn 2", "turn 3", "turn 2"], found  # its round, the chain, its head
    assert found[2].startswith("turn 2: published with archive chain"), found


def test_every_report_publishes_its_chain_head(pbem: Pbem) -> None:
    """Report.txt and the report mails carry the chain head after their turn."""
    three_turns(pbem)
    chains = dict(sql(pbem, "select number, chain from turn order by number"))
    assert len(set(chains.values())) == 4 and all(len(c) == 64 for c in chains.values())  # type: ignore[arg-type]
    for number, chain in chains.items():
        folder = pbem.data / f"games/rome1/turn-{number:04d}"
        assert f"Archive chain after this turn: {chain}" in (folder / "report.txt").read_text()
    assert pbem("tick").exit_code == 0
    bodies = [body for (body,) in sql(pbem, "select body from outbox where subject like '%Report, turn 3%'")]
    assert bodies and all(f"Archive chain after this turn: {chains[3]}" in body for body in bodies)
    german = pbem("report", "rome1", "--turn", "3", "--language", "de").output
    assert f"Archivkette nach diesem Zug: {chains[3]}" in german


def test_rollback_keeps_the_chain_verifiable(pbem: Pbem) -> None:
    """A roll-back withdraws turns legitimately; the head goes back to the turn rolled back to."""
    three_turns(pbem)
    (chain_1,) = sql(pbem, "select chain from turn where number = 1 and superseded = false")[0]
    assert pbem("gm", "rollback", "rome1", "--to", "1").exit_code == 0
    assert sql(pbem, "select chain_head, chain_turn from game") == [(chain_1, 1)]
    assert verified(pbem).exit_code == 0
    assert pbem("submit", "rome1", str(pbem.orders("Egyptus", 2, "BUY 1 INF"))).exit_code == 0
    assert pbem("adjudicate", "rome1").exit_code == 0
    result = verified(pbem)
    assert result.exit_code == 0 and "0 problems" in result.output, result.output
    (chain_2,) = sql(pbem, "select chain from turn where number = 2 and superseded = false")[0]
    assert sql(pbem, "select chain_head, chain_turn from game") == [(chain_2, 2)]


def test_an_archive_of_an_older_version_verifies_and_goes_on_chaining(pbem: Pbem) -> None:
    """Archives made before the chain lack its columns: they are added (empty), verify computes the chain and says
    it was not stored without failing, and the turns resolved from then on are chained to the computed head."""
    three_turns(pbem)
    for table, column in (("turn", "chain"), ("game", "chain_head"), ("game", "chain_turn")):
        sql(pbem, f"alter table {table} drop column {column}")
    # as such a version made it: unkeyed orders hashes, and mails that printed no chain head
    sql(pbem, "update game set orders_hash_version = 0")
    sql(pbem, "delete from outbox")
    for report in (pbem.data / "games/rome1").glob("turn-*/report.txt"):
        lines = report.read_text().splitlines(keepends=True)
        report.write_text("".join(line for line in lines if not line.startswith("Archive chain after this turn")))
    close_archives()
    result = verified(pbem)
    assert result.exit_code == 0 and "turns 0-3: no chain hash stored" in result.output, result.output
    assert pbem("submit", "rome1", str(pbem.orders("Macedonia", 4, "BUY 1 INF"))).exit_code == 0
    assert pbem("adjudicate", "rome1").exit_code == 0
    result = verified(pbem)
    assert result.exit_code == 0 and "0 problems" in result.output, result.output
    assert "turns 0-3: no chain hash stored" in result.output
    (published,) = sql(pbem, "select chain from turn where number = 4")[0]  # its report printed it
    sql(pbem, "update turn set chain = '', round = 9 where number = 4")  # its link blanked: the game's head names it
    assert [p[:50] for p in problems(verified(pbem))] == [
        "turn 4: stored in round 9, but it was played in ro",
        "the game's chain head is that of turn 4, but the c",
        "turn 4: published with archive chain " + str(published)[:13],
    ]


def test_damaged_rows_are_named_by_turn_and_verify_goes_on(pbem: Pbem) -> None:
    """Whatever is wrong with a stored row, verify names its turn, checks the others and never crashes."""
    three_turns(pbem)
    cases = {
        "state not JSON": ("turn", "state_json", "{not json", 1),
        "state not a snapshot": ("turn", "state_json", '{"schema": 1}', 1),
        "state a list": ("turn", "state_json", "[1, 2]", 2),
        "events not JSON": ("turn", "events_json", "[{", 2),
        "answers not JSON": ("turn", "answers_json", "nope", 2),
        "answers a list": ("turn", "answers_json", "[1]", 2),
        "turn key not hex": ("turn", "turn_key", "zz", 2),
        "unknown dice source": ("turn", "dice_source", "weird", 2),
        "bad given dice": ("turn", "given_dice", "7 x\u00b2", 2),
        "number beyond the dice chain": ("turn", "number", 99_999, 3),
        "negative number": ("turn", "number", -5, 1),
    }
    for name, (table, column, value, number) in cases.items():
        (before,) = sql(pbem, f"select {column} from {table} where number = {number}")[0]
        sql(pbem, f"update {table} set {column} = :value where number = {number}", value=value)
        result = verified(pbem)
        assert result.exit_code == 1, name
        shown = value if column == "number" else number
        assert any(p.startswith(f"turn {shown}") for p in problems(result)), (name, result.output)
        assert "turn 3 (Hispania)" in result.output or number == 3 or column == "state_json", (name, result.output)
        where = "number = :value" if column == "number" else f"number = {number}"
        sql(pbem, f"update {table} set {column} = :before where {where}", before=before, value=value)
    (seed,) = sql(pbem, "select seed from game")[0]
    sql(pbem, "update game set seed = 'zz'")
    result = verified(pbem)
    assert "the game's dice seed is not readable" in problems(result)[0] and "turn 3" in result.output
    sql(pbem, "update game set seed = :seed", seed=seed)
    assert verified(pbem).exit_code == 0


def test_a_state_not_json_names_its_turn_and_the_next_is_not_replayed(pbem: Pbem) -> None:
    three_turns(pbem)
    sql(pbem, "update turn set state_json = '{not json' where number = 1")
    found = problems(verified(pbem))
    assert found[0] == "turn 1: the stored state does not match its hash"
    assert found[1].startswith("turn 1: the stored state cannot be read (JSONDecodeError")
    assert found[2] == "turn 2: not replayed, the position before it is missing or unreadable"
    assert len(found) == 3  # turn 3 is replayed from turn 2's stored state


# -- files of a turn whose writer died after its commit -----------------------------------------------------
# The turn's files are written only after its commit (adjudication.adjudicate), so a process killed between the two
# leaves exactly this: the turn in the archive, its folder missing. Deleting the folder after the commit makes that
# state every time, where a kill -9 would need a hook in the code to land between the commit and the first write.


def files_of(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


def test_repair_writes_the_files_of_a_turn_whose_folder_was_never_written(pbem: Pbem) -> None:
    three_turns(pbem)
    games = pbem.data / "games/rome1"
    written = {n: files_of(games / f"turn-{n:04d}") for n in (1, 2)}
    shutil.rmtree(games / "turn-0002")
    (games / "turn-0001/report-Egyptus.txt").unlink()
    (games / "turn-0001/map.svg").unlink()
    before = pbem.dump()
    result = pbem("repair", "rome1")
    assert result.exit_code == 0, result.output
    assert "rome1: 8 missing file(s) written" in result.output
    assert f"wrote {games / 'turn-0001/report-Egyptus.txt'}" in result.output
    assert {n: files_of(games / f"turn-{n:04d}") for n in (1, 2)} == written
    assert pbem.dump() == before  # repair stores nothing
    again = pbem("repair")
    assert again.exit_code == 0 and again.output == "rome1: no file missing\n"


def test_adjudicate_and_tick_write_what_the_disk_lacks(pbem: Pbem) -> None:
    three_turns(pbem)
    games = pbem.data / "games/rome1"
    turn_3 = files_of(games / "turn-0003")
    shutil.rmtree(games / "turn-0003")
    assert pbem("submit", "rome1", str(pbem.orders("Macedonia", 4, "BUY 1 INF"))).exit_code == 0
    result = pbem("adjudicate", "rome1")
    assert result.exit_code == 0 and "Turn 4 (Macedonia) resolved" in result.output
    assert f"wrote {games / 'turn-0003/report.txt'} (missing" in result.output
    assert files_of(games / "turn-0003") == turn_3
    turn_4 = files_of(games / "turn-0004")
    shutil.rmtree(games / "turn-0004")
    result = pbem("tick")
    assert result.exit_code == 0, result.output
    assert "rome1: wrote missing turn-0004/snapshot.json, turn-0004/report.txt" in result.output
    assert files_of(games / "turn-0004") == turn_4


def test_repair_writes_the_notice_of_a_turn_waiting_for_decisions(pbem: Pbem, write: Write) -> None:
    new_from(pbem, contested_position(pbem, write), "--decisions", "ask")
    result = pbem("adjudicate", "rome1")
    assert "Waiting for" in result.output
    seat = result.output.split("Waiting for ")[1].split(":")[0]
    notice = pbem.data / f"games/rome1/outbox/decisions-turn-0001-{seat}.txt"
    text = notice.read_text()
    notice.unlink()
    snapshot = json.loads((pbem.data / "games/rome1/turn-0000/snapshot.json").read_text())
    shutil.rmtree(pbem.data / "games/rome1/turn-0000")
    result = pbem("repair", "rome1")
    assert result.exit_code == 0 and f"wrote {notice}" in result.output, result.output
    assert notice.read_text() == text
    assert json.loads((pbem.data / "games/rome1/turn-0000/snapshot.json").read_text()) == snapshot
    assert pbem("repair", "rome1").output == "rome1: no file missing\n"


def test_a_turn_whose_files_could_not_be_written_after_its_commit_gets_them_later(pbem: Pbem) -> None:
    """The other way to lose a turn's files: writing them fails after the commit (here a file stands where the
    turn's folder goes). The turn stays stored, and the next adjudicate writes its files once the disk allows."""
    pbem.new_game()
    assert pbem("submit", "rome1", str(pbem.orders("Macedonia", 1, "BUY 1 INF"))).exit_code == 0
    obstacle = pbem.data / "games/rome1/turn-0001"
    obstacle.write_text("in the way")
    failed = pbem("adjudicate", "rome1")
    assert failed.exit_code != 0
    assert sql(pbem, "select number from turn where superseded = false order by number") == [(0,), (1,)]
    obstacle.unlink()
    result = pbem("adjudicate", "rome1", "--now")
    assert result.exit_code == 0 and "Turn 2 (Egyptus) resolved" in result.output, result.output
    assert f"wrote {obstacle / 'report.txt'} (missing" in result.output
    assert "Archive chain after this turn" in (obstacle / "report.txt").read_text()
    assert verified(pbem).exit_code == 0
