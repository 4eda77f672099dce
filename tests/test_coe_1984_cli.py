"""A 1984 game and a Classic game side by side in one archive, through the real CLI: creation (O-3.1, O-3.4),
orders, receipts citing each edition's own rule IDs (O-0.1), adjudication, `pbem verify` and `pbem rulesets`."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from typer.testing import Result

from tests.conftest import Pbem

Write = Callable[[str, str | bytes], Path]
MAC, EGY, HIS = "Macedonia", "Egyptus", "Hispania"
SEATS = {MAC: "mac@example.org", EGY: "egy@example.org", HIS: "his@example.org"}
TITLE_1984 = "Conquest of the Empire, original edition (1984)"


def create(pbem: Pbem, name: str, ruleset: str, *options: str) -> dict[str, str]:
    """`pbem new` for the three seats; the passwords it prints once."""
    seats = [a for seat, mail in SEATS.items() for a in ("--seat", f"{seat}={mail}")]
    result = pbem("new", name, "--ruleset", ruleset, *seats, *options)
    assert result.exit_code == 0, result.output
    return {
        line.split()[0]: line.split()[1]
        for line in result.output.splitlines()
        if len(line.split()) == 2 and line.split()[0] in SEATS
    }


def submit(pbem: Pbem, game: str, passwords: dict[str, str], seat: str, turn: int, *lines: str) -> str:
    result = pbem("submit", game, str(pbem.orders(seat, turn, *lines, game=game, password=passwords[seat])))
    assert result.exit_code == 0, result.output
    return result.output


def adjudicate(pbem: Pbem, game: str, turn: int, seat: str) -> Result:
    result = pbem("adjudicate", game)
    assert result.exit_code == 0 and f"Turn {turn} ({seat}) resolved" in result.output, result.output
    return result


def snapshot(pbem: Pbem, game: str, turn: int) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((pbem.data / f"games/{game}/turn-{turn:04d}/snapshot.json").read_text())
    return data


def report(pbem: Pbem, game: str, turn: int) -> str:
    return (pbem.data / f"games/{game}/turn-{turn:04d}/report.txt").read_text()


def cited(receipt: str) -> list[str]:
    return re.findall(r"rejected \(([A-Z]-\d+\.\d+)\)", receipt)


def verdict(receipt: str, order: str) -> str:
    """The verdict a receipt gives the order written as `order`."""
    lines = receipt.splitlines()
    (index,) = [i for i, line in enumerate(lines) if line.rstrip().endswith(order)]
    return lines[index + 1].strip()


def test_rulesets_lists_both_editions(pbem: Pbem) -> None:
    result = pbem("rulesets", data=False)
    assert result.exit_code == 0, result.output
    lines = {line.split()[0]: line for line in result.output.splitlines() if line.strip()}
    assert "Classic edition (2005)" in lines["coe-classic"]
    assert "original 1984 edition" in lines["coe-1984"] and "2-6 players" in lines["coe-1984"]


def test_O_3_1_O_3_4_a_1984_game_and_a_classic_game_side_by_side(pbem: Pbem) -> None:
    old = create(pbem, "rome84", "1984")  # the alias of coe-1984
    new = create(pbem, "rome05", "coe-classic")
    start84, start05 = snapshot(pbem, "rome84", 0), snapshot(pbem, "rome05", 0)
    assert (start84["ruleset"], start05["ruleset"]) == ("coe-1984", "coe-classic")
    home84, home05 = start84["areas"]["MAC"]["units"][MAC], start05["areas"]["MAC"]["units"][MAC]
    assert (home84["generals"], home84["infantry"]) == ([1, 2, 3, 4, 5, 6], 4)  # O-3.4
    assert (home05["generals"], home05["infantry"]) == ([1, 2, 3, 4], 5)
    assert report(pbem, "rome84", 0).startswith(TITLE_1984)

    # round 1, the two games' turns interleaved in the one archive
    receipt = submit(
        pbem, "rome84", old, MAC, 1, "MOVE G5 WITH 2 INF: MAC -> THR", "MOVE G6: MAC -> MOE", "BUY 1 CAV", "BUY 1 INF"
    )
    assert cited(receipt) == ["O-10.1"]  # cavalry costs 25 in 1984 (O-10.2); the treasury holds 20
    assert verdict(receipt, "MOVE G6: MAC -> MOE") == "accepted: MAC -> MOE"  # six generals (O-3.3)
    receipt = submit(pbem, "rome05", new, MAC, 1, "MOVE G1 WITH 2 INF: MAC -> THR", "MOVE G5: MAC -> MOE", "BUY 1 INF")
    assert not verdict(receipt, "MOVE G5: MAC -> MOE").startswith("accepted")  # Classic has four generals
    assert all(rule.startswith("C-") for rule in cited(receipt))
    adjudicate(pbem, "rome84", 1, MAC)
    adjudicate(pbem, "rome05", 1, MAC)
    for game, passwords in (("rome84", old), ("rome05", new)):
        submit(pbem, game, passwords, EGY, 2, "MOVE G1 WITH 2 INF: EGY -> PAL")
        adjudicate(pbem, game, 2, EGY)
        submit(pbem, game, passwords, HIS, 3, "MOVE G1 WITH 1 INF: HIS -> BAE", "BUY 1 INF")
        adjudicate(pbem, game, 3, HIS)

    # round 2: Thracia-Asia is a strait only the Classic edition crosses on foot (O-2.3)
    receipt = submit(pbem, "rome84", old, MAC, 4, "MOVE G5 WITH 2 INF: THR -> ASI")
    assert cited(receipt) and all(rule.startswith("O-") for rule in cited(receipt))
    receipt = submit(pbem, "rome05", new, MAC, 4, "MOVE G1 WITH 2 INF: THR -> ASI")
    assert cited(receipt) == []
    adjudicate(pbem, "rome84", 4, MAC)
    adjudicate(pbem, "rome05", 4, MAC)

    after84, after05 = snapshot(pbem, "rome84", 4), snapshot(pbem, "rome05", 4)
    assert after84["areas"]["THR"]["units"][MAC]["generals"] == [5] and "ASI" not in after84["areas"]
    assert after05["areas"]["ASI"]["owner"] == MAC
    assert {c: after84["areas"][c]["owner"] for c in ("THR", "MOE", "PAL", "BAE")} == {
        "THR": MAC,
        "MOE": None,
        "PAL": EGY,
        "BAE": HIS,
    }
    # tribute: MAC 15 + THR 5 = 20 in turns 1 and 4, less 10 for the infantry; Classic adds ASI (10) in turn 4
    assert after84["players"][MAC]["treasury"] == 20 - 10 + 20
    assert after05["players"][MAC]["treasury"] == 20 - 10 + 30
    assert report(pbem, "rome84", 4).startswith(TITLE_1984) and not report(pbem, "rome05", 4).startswith(TITLE_1984)
    for game in ("rome84", "rome05"):
        result = pbem("verify", game)
        assert result.exit_code == 0 and "7 checks passed, 0 problems" in result.output, result.output


def test_O_3_1_a_1984_game_refuses_seats_not_in_play(pbem: Pbem) -> None:
    result = pbem(
        "new",
        "g",
        "--ruleset",
        "coe-1984",
        "--seat",
        "Italia=a@x.org",
        "--seat",
        "Egyptus=b@x.org",
        "--seat",
        "Hispania=c@x.org",
    )
    assert result.exit_code == 1 and "(O-3.1)" in result.output and "C-3.1" not in result.output
    result = pbem("new", "g", "--ruleset", "coe-1984", "--seat", "Mesopotamia=a@x.org", "--seat", "Egyptus=b@x.org")
    assert result.exit_code == 1 and "unknown seat 'Mesopotamia'" in result.output  # O-2.1: no such seat
    assert not (pbem.data / "games" / "g").exists()
    assert create(pbem, "g", "coe-1984")  # the right seats are welcome


def test_O_6_13_a_1984_battle_with_the_games_own_dice_verifies(pbem: Pbem, write: Write) -> None:
    create(pbem, "template", "coe-1984")
    position = snapshot(pbem, "template", 0)
    areas = position["areas"]
    areas["MAC"]["units"][MAC]["generals"] = [2, 3, 4, 5, 6]
    areas["MAC"]["units"][MAC]["infantry"] = 1
    areas["MOE"] = {
        "owner": MAC,
        "city": None,
        "roads": [],
        "units": {MAC: {"caesar": 0, "generals": [1], "infantry": 3, "cavalry": 1, "catapult": 0, "galleys": []}},
    }
    areas["EGY"]["units"][EGY]["generals"] = [2, 3, 4, 5, 6]
    areas["EGY"]["units"][EGY]["infantry"] = 2
    areas["THR"] = {
        "owner": EGY,
        "city": None,
        "roads": [],
        "units": {EGY: {"caesar": 0, "generals": [1], "infantry": 2, "cavalry": 0, "catapult": 0, "galleys": []}},
    }
    position["players"][MAC]["tribute"] = 20
    position["players"][EGY]["tribute"] = 20
    passwords = create(pbem, "battle84", "coe-1984", "--from-snapshot", str(write("p.json", json.dumps(position))))
    submit(pbem, "battle84", passwords, MAC, 1, "MOVE G1 WITH 3 INF 1 CAV: MOE -> THR", "CAPTIVES KILL")
    adjudicate(pbem, "battle84", 1, MAC)
    after = snapshot(pbem, "battle84", 1)["areas"]["THR"]
    armies = [
        seat for seat, force in after["units"].items() if force["infantry"] + force["cavalry"] + force["catapult"]
    ]
    assert len(armies) == 1 and after["owner"] == armies[0]  # fought to the end: one side holds Thracia
    verify = pbem("verify", "battle84")
    assert verify.exit_code == 0 and "0 problems" in verify.output, verify.output
    rolled = re.search(r"turn 1 \(Macedonia\): replay matches \((\d+) dice\)", verify.output)
    assert rolled and int(rolled.group(1)) >= 1
