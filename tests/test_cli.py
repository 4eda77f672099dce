"""The moderator's commands end to end: the real CLI against a real archive (SQLite and PostgreSQL) and real files."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from typer.testing import CliRunner

from adjudicator.cli import app
from tests.conftest import Pbem

Write = Callable[[str, str | bytes], Path]


def test_rulesets_lists_classic(pbem: Pbem) -> None:
    result = pbem("rulesets", data=False)
    assert result.exit_code == 0
    assert "coe-classic" in result.output and "Classic edition" in result.output


def test_new_game_writes_turn_zero_and_welcome_messages(pbem: Pbem) -> None:
    result = pbem.new_game()
    assert set(pbem.passwords) == {"Macedonia", "Egyptus", "Hispania"}
    folder = pbem.data / "games" / "rome1"
    snapshot = json.loads((folder / "turn-0000" / "snapshot.json").read_text())
    assert snapshot["schema"] == 1 and snapshot["turn"] == 0 and snapshot["active"] == "Macedonia"
    assert snapshot["areas"]["MAC"]["units"]["Macedonia"]["infantry"] == 5
    report = (folder / "turn-0000" / "report.txt").read_text()
    assert "Dice commitment:" in report
    welcome = (folder / "outbox" / "welcome-Egyptus.txt").read_text()
    assert "egy@example.org" in welcome and "[removed]" in welcome  # the password is in the queued mail only
    assert not any(password in welcome for password in pbem.passwords.values())
    assert "Passwords" in result.output
    hashes = [row[0] for row in pbem.sql("select password_hash from seat")]
    assert all(h.startswith("scrypt$") and pbem.passwords["Egyptus"] not in h for h in hashes)


def test_new_game_refuses_wrong_seats_C_3_1(pbem: Pbem) -> None:
    result = pbem("new", "g", "--seat", "Italia=a@x.org", "--seat", "Egyptus=b@x.org", "--seat", "Hispania=c@x.org")
    assert result.exit_code == 1 and "C-3.1" in result.output
    result = pbem("new", "g", "--seat", "Rome=a@x.org", "--seat", "Egyptus=b@x.org")
    assert result.exit_code == 1 and "unknown seat 'Rome'" in result.output
    result = pbem("new", "g", "--seat", "Egyptus")
    assert result.exit_code == 1 and "SEAT=EMAIL" in result.output
    result = pbem("new", "g", "--ruleset", "chess", "--seat", "Egyptus=a@x.org", "--seat", "Hispania=b@x.org")
    assert result.exit_code == 1 and "unknown ruleset 'chess'" in result.output


def test_new_game_name_taken(pbem: Pbem) -> None:
    pbem.new_game()
    before = pbem.dump()
    seats = [a for s in ("Egyptus", "Hispania") for a in ("--seat", f"{s}=x@y.org")]
    result = pbem("new", "rome1", *seats)
    assert result.exit_code == 1 and "already exists" in result.output
    assert pbem.dump() == before


def test_submit_stores_and_a_later_set_replaces(pbem: Pbem) -> None:
    pbem.new_game()
    first = pbem("submit", "rome1", str(pbem.orders("Macedonia", 1, "MOVE G1 WITH 2 INF: MAC -> THR")))
    assert first.exit_code == 0, first.output
    assert "stored" in first.output and "accepted" in first.output and "replaces" not in first.output
    second = pbem("submit", "rome1", str(pbem.orders("Macedonia", 1, "MOVE G1 WITH 2 INF: MAC -> MOE")))
    assert second.exit_code == 0 and "replaces the set you sent earlier" in second.output
    assert pbem("adjudicate", "rome1").exit_code == 0
    snapshot = json.loads((pbem.data / "games/rome1/turn-0001/snapshot.json").read_text())
    assert snapshot["areas"]["MOE"]["owner"] == "Macedonia" and "THR" not in snapshot["areas"]


def test_receipt_gives_each_order_its_verdict_and_rule(pbem: Pbem) -> None:
    pbem.new_game()
    path = pbem.orders(
        "Macedonia",
        1,
        "MOVE G1 WITH 2 INF: MAC -> THR",
        "MOVE G2 WITH 3 INF: MAC -> MOE -> DAC",
        "MOVE G3 WITH 1 INF: EGY -> PAL",
        "MOEV G4: MAC -> THR",
        "BUY 1 CAT",
    )
    result = pbem("submit", "rome1", str(path))
    assert result.exit_code == 0, result.output
    out = result.output
    assert "line   2  MOVE G1 WITH 2 INF: MAC -> THR\n             accepted" in out
    assert "rejected (C-5.2)" in out  # infantry has 1 MP
    assert "rejected (C-5.3)" in out  # another seat's pieces
    assert (
        "line   5  MOEV G4: MAC -> THR\n             not understood (column 1): unexpected 'MOEV' (did you mean MOVE?)"
    ) in out
    assert "rejected (C-11.1)" in out  # 30 talents, 15 in the treasury
    assert "1 accepted, 3 rejected, 1 not understood" in out


def test_bad_input_is_refused_and_the_archive_is_unchanged(pbem: Pbem, write: Write) -> None:
    pbem.new_game()
    pbem("submit", "rome1", str(pbem.orders("Macedonia", 1, "BUY 1 INF")))
    before = pbem.dump()
    cases = {
        "wrong password": (
            ["submit", "rome1", str(pbem.orders("Macedonia", 1, "BUY 1 INF", password="nope"))],
            "wrong password for Macedonia",
        ),
        "unknown game": (
            ["submit", "carthago", str(pbem.orders("Macedonia", 1, "BUY 1 INF"))],
            "unknown game 'carthago'",
        ),
        "wrong game in header": (
            ["submit", "rome1", str(pbem.orders("Macedonia", 1, "BUY 1 INF", game="x"))],
            "names game 'x'",
        ),
        "unknown seat": (
            ["submit", "rome1", str(write("seat.txt", "GAME rome1 TURN 1 PLAYER Italia PASSWORD x\n"))],
            "Italia",
        ),
        "beyond the seat's next turn": (
            ["submit", "rome1", str(pbem.orders("Egyptus", 5, "BUY 1 INF"))],
            "header says TURN 5, but Egyptus's coming player-turn is turn 2",
        ),
        "wrong turn": (
            ["submit", "rome1", str(pbem.orders("Macedonia", 4, "BUY 1 INF"))],
            "header says TURN 4, but Macedonia's coming player-turn is turn 1",
        ),
        "empty file": (["submit", "rome1", str(write("empty.txt", "  \n\n"))], "the file is empty"),
        "binary file": (["submit", "rome1", str(write("bin.txt", b"\x89PNG\r\n\x1a\n\0\0\0"))], "binary file"),
        "huge file": (["submit", "rome1", str(write("huge.txt", "# x\n" * 2_700_000))], "too large"),
        "missing file": (["submit", "rome1", "/nonexistent/orders.txt"], "no such file"),
        "no header": (["submit", "rome1", str(write("nohead.txt", "BUY 1 INF\n"))], "no valid header"),
        "not utf-8": (
            ["submit", "rome1", str(write("latin1.txt", "GAME rome1\nBUY 1 INF \xe4\n".encode("latin-1")))],
            "line 2 is not UTF-8",
        ),
        "nothing understood": (
            ["submit", "rome1", str(pbem.orders("Macedonia", 1, "garble garble"))],
            "Nothing was stored",
        ),
    }
    for name, (args, message) in cases.items():
        result = pbem(*args)
        assert result.exit_code != 0, name
        assert message in result.output, (name, result.output)
        assert pbem.dump() == before, name


def test_check_stores_nothing(pbem: Pbem) -> None:
    pbem.new_game()
    before = pbem.dump()
    result = pbem("check", "--game", "rome1", str(pbem.orders("Macedonia", 1, "MOVE G1 WITH 2 INF: MAC -> THR")))
    assert result.exit_code == 0 and "accepted" in result.output and "Nothing was stored (check only)" in result.output
    result = pbem("check", "--game", "rome1", str(pbem.orders("Macedonia", 1, "MOVE G1 WITH 2 INF: MAC -> EGY")))
    assert result.exit_code == 1 and "rejected (C-2.2)" in result.output
    assert pbem.dump() == before


def test_check_against_a_state_file_and_bad_state_files(pbem: Pbem, write: Write) -> None:
    pbem.new_game()
    state = pbem.data / "games/rome1/turn-0000/snapshot.json"
    orders = pbem.orders("Macedonia", 1, "MOVE G1 WITH 2 INF: MAC -> THR", "BUY 1 INF")
    result = pbem("check", "--state", str(state), str(orders), data=False)
    assert result.exit_code == 0 and result.output.count("accepted") >= 2
    good = json.loads(state.read_text())
    broken = {
        "not json": ('{"schema": 1,', "not JSON"),
        "wrong schema": (json.dumps({**good, "schema": 7}), "unsupported schema 7"),
        "bad field": (json.dumps({**good, "inflation": "high"}), "snapshot.inflation"),
        "unknown area": (json.dumps({**good, "areas": {"ATLANTIS": {}}}), "unknown area code 'ATLANTIS'"),
        "truncated": (state.read_text()[:200], "not JSON"),
    }
    for name, (text, message) in broken.items():
        result = pbem("check", "--state", str(write(f"{name}.json", text)), str(orders), data=False)
        assert result.exit_code == 1 and message in result.output, (name, result.output)


def test_adjudicate_writes_reports_and_verify_replays(pbem: Pbem) -> None:
    pbem.new_game()
    pbem(
        "submit",
        "rome1",
        str(
            pbem.orders(
                "Macedonia",
                1,
                "MOVE G1 WITH 2 INF: MAC -> THR",
                "BUY 1 INF",
                "PRESS TO Egyptus: a secret",
                "BROADCAST: hello all",
            )
        ),
    )
    result = pbem("adjudicate", "rome1")
    assert result.exit_code == 0 and "Turn 1 (Macedonia) resolved" in result.output
    folder = pbem.data / "games/rome1/turn-0001"
    report = (folder / "report.txt").read_text()
    assert "Macedonia moves G1 with 2 INF: MAC -> THR" in report and "conquers THR" in report
    assert "hello all" in report and "a secret" not in report
    assert "a secret" in (folder / "report-Egyptus.txt").read_text()
    assert "a secret" not in (folder / "report-Hispania.txt").read_text()
    result = pbem("adjudicate", "rome1", "--now")  # Egyptus sent nothing: the seat does nothing this turn
    assert result.exit_code == 0 and "no orders received" in result.output
    result = pbem("verify", "rome1")
    assert result.exit_code == 0 and "0 problems" in result.output, result.output
    assert pbem("report", "rome1", "--turn", "1").output == report


def test_verify_finds_a_tampered_turn(pbem: Pbem) -> None:
    pbem.new_game()
    pbem("submit", "rome1", str(pbem.orders("Macedonia", 1, "BUY 1 INF")))
    pbem("adjudicate", "rome1")
    pbem.sql("update turn set orders_text = replace(orders_text, 'BUY 1 INF', 'BUY 1 CAV') where number = 1")
    result = pbem("verify", "rome1")
    assert result.exit_code == 1 and "turn 1 (Macedonia): replay differs" in result.output


def test_round_pace_turn_file_resolves_the_round_in_turn_order(pbem: Pbem, write: Write) -> None:
    pbem.new_game(pace="round")
    blocks = [
        f"GAME rome1 TURN 2 PLAYER Egyptus PASSWORD {pbem.passwords['Egyptus']}",
        "MOVE G1 WITH 2 INF: EGY -> PAL",
        f"GAME rome1 TURN 1 PLAYER Macedonia PASSWORD {pbem.passwords['Macedonia']}",
        "MOVE G1 WITH 2 INF: MAC -> THR",
        f"GAME rome1 TURN 3 PLAYER Hispania PASSWORD {pbem.passwords['Hispania']}",
        "MOVE G1 WITH 2 INF: HIS -> LUS",
    ]
    result = pbem("adjudicate", "rome1", "--turn-file", str(write("turn.txt", "\n".join(blocks) + "\n")))
    assert result.exit_code == 0, result.output
    assert [line.split()[1] for line in result.output.splitlines() if line.startswith("Turn")] == ["1", "2", "3"]
    snapshot = json.loads((pbem.data / "games/rome1/turn-0003/snapshot.json").read_text())
    assert {c: snapshot["areas"][c]["owner"] for c in ("THR", "PAL", "LUS")} == {
        "THR": "Macedonia",
        "PAL": "Egyptus",
        "LUS": "Hispania",
    }
    assert snapshot["round"] == 2 and snapshot["active"] == "Macedonia"


def test_round_order_made_impossible_by_an_earlier_turn_is_rejected_C_5_10(
    pbem: Pbem, write: Write, tmp_path: Path
) -> None:
    pbem.new_game()
    snapshot = json.loads((pbem.data / "games/rome1/turn-0000/snapshot.json").read_text())
    snapshot["areas"]["MOE"] = {
        "owner": "Egyptus",
        "city": None,
        "roads": [],
        "units": {"Egyptus": {"caesar": 0, "generals": [1], "infantry": 0, "cavalry": 0, "catapult": 0, "galleys": []}},
    }
    snapshot["areas"]["EGY"]["units"]["Egyptus"]["generals"].remove(1)  # G1 is in MOE (one place, C-1.1)
    snapshot["players"]["Egyptus"]["tribute"] += 5  # and MOE counts in Egyptus's tribute (C-9.1)
    state = write("state.json", json.dumps(snapshot))
    egyptus = "GAME rome1 TURN 2 PLAYER Egyptus PASSWORD p\nMOVE G1: MOE -> THR\n"
    check = pbem("check", "--state", str(state), str(write("egy.txt", egyptus)), data=False)
    assert check.exit_code == 0 and "accepted" in check.output  # as the position stands now
    macedonia = "GAME rome1 TURN 1 PLAYER Macedonia PASSWORD p\nMOVE G1 WITH 2 INF: MAC -> THR\n"
    out = tmp_path / "out"
    result = pbem(
        "resolve",
        "--state",
        str(state),
        "--orders",
        str(write("t.txt", macedonia + egyptus)),
        "--out",
        str(out),
        data=False,
    )
    assert result.exit_code == 0, result.output
    report = (out / "report-Egyptus.txt").read_text()  # the verdicts are the seat's own
    assert "MOVE G1: MOE -> THR\n             rejected (C-5.10)" in report


def test_turn_file_with_a_forged_block_stores_nothing(pbem: Pbem, write: Write) -> None:
    pbem.new_game(pace="round")
    before = pbem.dump()
    text = (
        f"GAME rome1 TURN 1 PLAYER Macedonia PASSWORD {pbem.passwords['Macedonia']}\nBUY 1 INF\n"
        "GAME rome1 TURN 2 PLAYER Egyptus PASSWORD forged\nBUY 1 INF\n"
    )
    result = pbem("adjudicate", "rome1", "--turn-file", str(write("t.txt", text)))
    assert result.exit_code == 1 and "wrong password for Egyptus" in result.output
    assert pbem.dump() == before
    assert not (pbem.data / "games/rome1/turn-0001").exists()


def test_resolve_from_files_alone(pbem: Pbem, write: Write, tmp_path: Path) -> None:
    pbem.new_game()
    state = pbem.data / "games/rome1/turn-0000/snapshot.json"
    orders = write(
        "t.txt", "GAME rome1 TURN 1 PLAYER Macedonia PASSWORD unchecked\nMOVE G1 WITH 2 INF: MAC -> THR\nBUY 1 INF\n"
    )
    out = tmp_path / "out"
    result = pbem("resolve", "--state", str(state), "--orders", str(orders), "--out", str(out), data=False)
    assert result.exit_code == 0, result.output
    snapshot = json.loads((out / "snapshot.json").read_text())
    assert snapshot["turn"] == 1 and snapshot["areas"]["THR"]["owner"] == "Macedonia"
    assert "conquers THR" in (out / "report.txt").read_text()
    again = tmp_path / "again"
    pbem("resolve", "--state", str(state), "--orders", str(orders), "--out", str(again), data=False)
    assert (again / "report.txt").read_text() == (out / "report.txt").read_text()  # deterministic


def test_resolve_refuses_bad_files(pbem: Pbem, write: Write, tmp_path: Path) -> None:
    pbem.new_game()
    state = str(pbem.data / "games/rome1/turn-0000/snapshot.json")
    out = str(tmp_path / "out")
    cases = {
        "wrong game": ("GAME other TURN 1 PLAYER Macedonia PASSWORD p\nBUY 1 INF\n", None, "game 'other'"),
        "seat not due": ("GAME rome1 TURN 4 PLAYER Macedonia PASSWORD p\nBUY 1 INF\n", None, "TURN 4"),
        "bad dice": ("GAME rome1 TURN 1 PLAYER Macedonia PASSWORD p\nBUY 1 INF\n", "1 2 seven", "'seven'"),
    }
    for name, (orders, dice, message) in cases.items():
        args = ["resolve", "--state", state, "--orders", str(write(f"{name}.txt", orders)), "--out", out]
        if dice:
            args += ["--dice", str(write(f"{name}.dice", dice))]
        result = pbem(*args, data=False)
        assert result.exit_code == 1 and message in result.output, (name, result.output)
    assert not (tmp_path / "out").exists()


def test_demo_plays_and_verifies(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["demo", "--data", str(tmp_path / "demo")])
    assert result.exit_code == 0, result.output
    assert "0 problems" in result.output
    assert (tmp_path / "demo/games/demo/turn-0012/report.txt").is_file()


def test_selfplay_plays_a_game_that_verifies(pbem: Pbem) -> None:
    result = pbem("selfplay", "auto", "--players", "4", "--turns", "6", "--seed", "3")
    assert result.exit_code == 0, result.output
    assert result.output.count(" orders accepted") == 6 and "Game auto: 6 player-turns played" in result.output
    verified = pbem("verify", "auto")
    assert verified.exit_code == 0 and "9 checks passed, 0 problems" in verified.output
    refused = pbem("selfplay", "crowd", "--players", "9")
    assert refused.exit_code == 1 and "coe-classic is for 2 to 6 players, not 9" in refused.output
