"""`pbem new --ruleset conqueror-er --game-data DIR`: the data checked (every problem named), stored with the
game, the setup step resolved from the committed key chain (ER-3), turn-0 reports that keep every hand private,
and every later step and `pbem verify` reading the stored data, never the folder."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from adjudicator.archive import Archive
from adjudicator.archive import queries as db
from adjudicator.archive.store import close_archives
from adjudicator.resources import resource_dir
from tests.conftest import Pbem

EXAMPLE = resource_dir("games") / "conqueror-er" / "example-data"
SEATS4 = {"aurel": "a@example.org", "kesh": "k@example.org", "thal": "t@example.org", "sunmar": "s@example.org"}


def data_copy(tmp_path: Path) -> Path:
    folder = tmp_path / "er-data"
    shutil.copytree(EXAMPLE, folder)
    return folder


def new_er(pbem: Pbem, folder: Path, *extra: str, name: str = "er1", seats: dict[str, str] = SEATS4) -> str:
    seat_args = [a for seat, mail in seats.items() for a in ("--seat", f"{seat}={mail}")]
    result = pbem("new", name, "--ruleset", "conqueror-er", "--game-data", str(folder), *seat_args, *extra)
    return f"{result.exit_code}\n{result.output}"


def nothing_stored(pbem: Pbem, name: str = "er1") -> bool:
    if (pbem.data / "games" / name).exists():
        return False
    with Archive.open(pbem.data, pbem.db).session() as session:
        return db.game_named(session, name) is None


def whole_snapshot(pbem: Pbem, turn: int, name: str = "er1") -> dict:
    with Archive.open(pbem.data, pbem.db).session() as session:
        game = db.find_game(session, name)
        row = next(r for r in db.turns(session, game) if r.number == turn)
        return json.loads(row.state_json)


def test_ER_3_pbem_new_stores_the_data_and_resolves_the_setup_step(pbem: Pbem, tmp_path: Path) -> None:
    folder = data_copy(tmp_path)
    assert new_er(pbem, folder, "--mode", "conquest").startswith("0\nGame er1 created (4 seats)")
    with Archive.open(pbem.data, pbem.db).session() as session:
        game = db.find_game(session, "er1")
        stored = json.loads(game.game_data)
        assert stored["mode"] == "conquest" and set(stored["files"]) >= {"cards.toml", "board-3-4.toml"}
        assert stored["files"]["cards.toml"] == (folder / "cards.toml").read_text(encoding="utf-8")
        assert [row.number for row in db.turns(session, game)] == [0, 1]
    after = whole_snapshot(pbem, 1)
    assert after["public"]["mode"] == "conquest" and after["public"]["phase"] == "purchases"  # ER-3.11
    assert all(len(part["hand"]) == 1 for part in after["private"].values())  # ER-3.5
    assert len(after["secret"]["chronicles"]) == 5  # ER-3.6
    report = (pbem.data / "games" / "er1" / "turn-0001" / "report.txt").read_text(encoding="utf-8")
    assert "every player draws 1 card; 34 cards remain" in report and "coins 10" in report  # ER-3.11


def test_leak_no_card_of_a_hand_in_public_outputs_or_another_seats(pbem: Pbem, tmp_path: Path) -> None:
    from adjudicator.rulesets.conqueror.loader import load_folder

    assert new_er(pbem, data_copy(tmp_path)).startswith("0\n")
    names = {t.id: t.name for t in load_folder(EXAMPLE).cards.tactics}
    hands = {seat: part["hand"] for seat, part in whole_snapshot(pbem, 1)["private"].items()}
    game = pbem.data / "games" / "er1"
    public = [game / turn / file for turn in ("turn-0000", "turn-0001") for file in ("report.txt", "snapshot.json")]
    site = tmp_path / "site"
    assert pbem("site", "er1", "--out", str(site)).exit_code == 0  # the public web site too
    public += [path for path in site.rglob("*") if path.is_file()]
    seat_files = {p: p.stem.split("-", 1)[1] for p in game.rglob("*") if p.is_file() and "-" in p.name}
    checked = 0
    for seat, hand in hands.items():
        own = (game / "turn-0001" / f"report-{seat}.txt").read_text(encoding="utf-8")
        assert all(names[card] in own and card in own for card in hand)  # its own hand, by name and id
        # no hand card in a public file; none in another seat's files unless that seat holds the same card
        files = public + [p for p, owner in seat_files.items() if owner in hands and owner != seat]
        for path in files:
            text = path.read_text(encoding="utf-8")
            owner = seat_files.get(path)
            for card in hand:
                if owner is None or card not in hands[owner]:
                    assert names[card] not in text and card not in text, f"{card} of {seat} in {path}"
                    checked += 1
    assert checked >= len(hands) * len(public)  # every hand against every public file, at least
    assert '"hand"' not in (game / "turn-0001" / "snapshot.json").read_text(encoding="utf-8")


def test_ER_13_later_steps_and_verify_use_the_stored_data_not_the_folder(pbem: Pbem, tmp_path: Path) -> None:
    folder = data_copy(tmp_path)
    assert new_er(pbem, folder).startswith("0\n")
    shutil.rmtree(folder)  # the folder is gone: the game plays on from its stored copy
    adjudicated = pbem("adjudicate", "er1", "--now")
    assert adjudicated.exit_code == 0, adjudicated.output
    assert whole_snapshot(pbem, 2)["public"]["phase"] == "plans"  # ER-5.2 taxation resolved
    verified = pbem("verify", "er1")
    assert verified.exit_code == 0, verified.output
    assert "turn 0: setup matches the setup rules" in verified.output and "0 problems" in verified.output
    assert "turn 1: replay matches" in verified.output and "turn 2: replay matches" in verified.output


def test_ER_4_1_a_whole_round_without_orders_is_played_by_the_defaults_and_verifies(pbem: Pbem, tmp_path: Path) -> None:
    """Taxation, the sealed plans step, one campaign turn per seat in turn order, the end of the round and the next
    New Year: every step resolves by the ER-14 defaults when nobody orders, and `pbem verify` replays them all."""
    assert new_er(pbem, data_copy(tmp_path)).startswith("0\n")
    phases = []
    for turn in range(2, 2 + 2 + len(SEATS4)):  # taxation, plans, 4 campaign turns
        adjudicated = pbem("adjudicate", "er1", "--now")
        assert adjudicated.exit_code == 0, adjudicated.output
        phases.append(whole_snapshot(pbem, turn)["public"]["phase"])
    assert phases[:2] == ["plans", "campaign"] and phases[-1] == "end_of_round"
    # the end of the round, the New Year and the Taxation take no orders: they resolve in the last campaign's run
    after = [whole_snapshot(pbem, n)["public"]["phase"] for n in range(turn + 1, turn + 4)]
    assert after == ["new_year", "taxation", "plans"]
    assert whole_snapshot(pbem, turn + 3)["public"]["round"] == 2
    verified = pbem("verify", "er1")
    assert verified.exit_code == 0 and "0 problems" in verified.output, verified.output


def test_ER_13_broken_data_is_refused_naming_every_problem_and_nothing_is_stored(pbem: Pbem, tmp_path: Path) -> None:
    folder = data_copy(tmp_path)
    tracks = (folder / "tracks.toml").read_text(encoding="utf-8")
    (folder / "tracks.toml").write_text(tracks.replace("vp_per_district = 2", 'vp_per_district = ""'), encoding="utf-8")
    header = (folder / "game-data.toml").read_text(encoding="utf-8")
    (folder / "game-data.toml").write_text(header.replace("edition = ", "edition = '' #"), encoding="utf-8")
    output = new_er(pbem, folder)
    assert output.startswith("1\n") and "the game data has 2 problem(s)" in output
    assert "tracks.toml: scoring.vp_per_district (ER-10.3): still empty" in output
    assert "game-data.toml: edition (ER-13)" in output
    assert nothing_stored(pbem)


def test_ER_3_13_mode_emperor_is_imperator_and_a_wrong_mode_or_option_is_refused(pbem: Pbem, tmp_path: Path) -> None:
    folder = data_copy(tmp_path)
    output = new_er(pbem, folder, "--mode", "kaiser")
    assert output.startswith("1\n") and "unknown mode 'kaiser'" in output and nothing_stored(pbem)
    output = new_er(pbem, folder, "--option", "hand_limit=many", "--option", "colour=red")
    assert "hand_limit=many: write a whole number" in output and "colour: no such option" in output
    assert nothing_stored(pbem)
    assert new_er(pbem, folder, "--mode", "emperor", "--option", "hand_limit=7").startswith("0\n")
    public = whole_snapshot(pbem, 1)["public"]
    assert public["mode"] == "imperator" and public["options"]["hand_limit"] == 7


def test_ER_3_3_wrong_factions_for_the_player_count_are_refused(pbem: Pbem, tmp_path: Path) -> None:
    seats = {"aurel": "a@example.org", "kesh": "k@example.org", "varun": "v@example.org"}
    output = new_er(pbem, data_copy(tmp_path), seats=seats)
    assert output.startswith("1\n") and "at 3 players the factions are" in output and nothing_stored(pbem)


def test_a_ruleset_without_game_data_refuses_the_options(pbem: Pbem, tmp_path: Path) -> None:
    result = pbem("new", "rome1", "--seat", "Italia=i@example.org", "--game-data", str(tmp_path))
    assert result.exit_code == 1 and "coe-classic takes no --game-data, --mode or --option" in result.output
    assert nothing_stored(pbem, "rome1")


def test_an_old_archive_gains_the_game_data_column(pbem: Pbem, tmp_path: Path, database: str | None) -> None:
    if database is not None:
        pytest.skip("the column is dropped with SQLite's own tool")
    pbem.new_game()
    close_archives()
    connection = sqlite3.connect(pbem.data / "archive.sqlite")
    connection.execute("ALTER TABLE game DROP COLUMN game_data")
    connection.commit()
    connection.close()
    result = pbem("status", "rome1")
    assert result.exit_code == 0, result.output
    connection = sqlite3.connect(pbem.data / "archive.sqlite")
    assert "game_data" in {row[1] for row in connection.execute("PRAGMA table_info(game)")}
    connection.close()


def test_pbem_check_game_reads_the_stored_data_and_judges_a_campaign_order(pbem: Pbem, tmp_path: Path) -> None:
    """`pbem check --game` of a game with stored data goes through the archive (not the lean reader) and reads the
    first campaign seat's orders with the names of the game's own map: an area it lacks is named, with the column."""
    assert new_er(pbem, data_copy(tmp_path)).startswith("0\n")
    assert pbem("adjudicate", "er1", "--now").exit_code == 0  # taxation
    assert pbem("adjudicate", "er1", "--now").exit_code == 0  # the plans step, by the defaults
    seat = whole_snapshot(pbem, 3)["public"]["turn_order"][0]
    orders = tmp_path / "orders.txt"
    orders.write_text(f"GAME er1 TURN 4 PLAYER {seat} PASSWORD x\nMOVE 1 INF: NOWHERE -> THA\n", encoding="utf-8")
    result = pbem("check", "--game", "er1", str(orders))
    assert result.exit_code == 1, result.output
    assert "not understood (column 13): unknown area 'NOWHERE'" in result.output and f"turn 4, {seat}" in result.output
