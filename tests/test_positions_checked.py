"""Positions and files are checked before use: a bad snapshot given to `pbem new
--from-snapshot`, `pbem check --state` or `pbem resolve --state`, or stored in the archive, is refused with a
message naming the field path; nothing is stored; no input file gives a traceback."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import Result

from tests.conftest import SEATS, Pbem

Write = Callable[[str, str | bytes], Path]
Snapshot = dict[str, Any]


def _force(data: Snapshot, code: str = "MAC", seat: str = "Macedonia") -> dict[str, Any]:
    return data["areas"][code]["units"][seat]


def _player(data: Snapshot, seat: str = "Macedonia") -> dict[str, Any]:
    return data["players"][seat]


def _set(where: Callable[[Snapshot], dict[str, Any]], key: str, value: Any) -> Callable[[Snapshot], None]:
    return lambda data: where(data).__setitem__(key, value)


# name -> (change to a good turn-0 position, what the error says); the first group are the checks' first cases
BAD_POSITIONS: dict[str, tuple[Callable[[Snapshot], None], str]] = {
    "general not a number": (
        _set(_force, "generals", ["x"]),
        "snapshot.areas.MAC.units.Macedonia.generals[0]: 'x' is not of type integer",
    ),
    "general 1.7 (was read as 1)": (_set(_force, "generals", [1.7]), "generals[0]: 1.7 is not of type integer"),
    "generals -3, 99": (_set(_force, "generals", [-3, 99]), "generals[0]: -3 is below 1"),
    "general 99": (_set(_force, "generals", [1, 99]), "generals: 99 is not a general number (1-28)"),
    "galley not a number": (_set(_force, "galleys", ["a"]), "galleys[0]: 'a' is not of type integer"),
    "roads not a list": (_set(lambda d: d["areas"]["MAC"], "roads", 5), "snapshot.areas.MAC.roads: 5 is not of type"),
    "units a list": (_set(lambda d: d["areas"]["MAC"], "units", []), "snapshot.areas.MAC.units: [] is not of type"),
    "standing a list": (_set(_player, "standing", []), "players.Macedonia.standing: [] is not of type object"),
    "inherited a list": (_set(_player, "inherited", [1]), "players.Macedonia.inherited: a list of 1 entries"),
    "inflation_pending a number": (lambda d: d.__setitem__("inflation_pending", 3), "snapshot.inflation_pending: 3"),
    "10^30 units": (_set(_force, "infantry", 10**30), "Macedonia.infantry: a number of about 30 digits is above"),
    "turn 10^30": (lambda d: d.__setitem__("turn", 10**30), "snapshot.turn: a number of about 30 digits is above"),
    "road to an unknown area": (
        _set(lambda d: d["areas"]["MAC"], "roads", ["ZZZ"]),
        "snapshot.areas.MAC.roads: 'ZZZ' is not a province with a land border to MAC",
    ),
    "home XXX": (_set(_player, "home", "XXX"), "players.Macedonia.home: 'XXX' is not Macedonia's home province MAC"),
    "winner 5": (lambda d: d.__setitem__("winner", 5), "snapshot.winner: 5 is not of type string or null"),
    "conceded to Nobody": (
        _set(_player, "conceded_to", "Nobody"),
        "players.Macedonia.conceded_to: 'Nobody' is not another player of this game",
    ),
    "captor 5": (_set(_player, "captor", 5), "players.Macedonia.captor: 5 is not of type string or null"),
    "treasury 10^30": (_set(_player, "treasury", 10**30), "players.Macedonia.treasury: a number of about 30 digits"),
    "standing retreat 'x'": (
        _set(_player, "standing", {"retreat": "x"}),
        "players.Macedonia.standing.retreat: 'x' is not of type array",
    ),
    "standing losses without a count": (
        _set(_player, "standing", {"losses": [{"kind": "infantry"}]}),
        "standing.losses[0]: an object of 1 entries fits none of the documented forms",
    ),
    # and what the rules allow beyond the shape
    "winner not a seat of the game": (
        lambda d: d.__setitem__("winner", "Italia"),
        "snapshot.winner: 'Italia' is not a player of this game",
    ),
    "a seat of no ruleset": (
        lambda d: d["players"].__setitem__("Atlantis", d["players"].pop("Hispania")),
        "snapshot.players key 'Atlantis': not a seat of coe-classic",
    ),
    "seats out of turn order": (
        lambda d: d["players"].__setitem__("Macedonia", d["players"].pop("Macedonia")),
        "the seats must be listed in turn order (C-4.1): Macedonia, Egyptus, Hispania",
    ),
    "a road without a land border": (
        _set(lambda d: d["areas"]["MAC"], "roads", ["EGY"]),
        "'EGY' is not a province with a land border to MAC (C-12.8)",
    ),
    "a general in two places": (
        lambda d: d["areas"].__setitem__(
            "THR",
            {
                "owner": "Macedonia",
                "city": None,
                "roads": [],
                "units": {
                    "Macedonia": {
                        "caesar": 0,
                        "generals": [1],
                        "infantry": 0,
                        "cavalry": 0,
                        "catapult": 0,
                        "galleys": [],
                    }
                },
            },
        ),
        "snapshot: Macedonia's general 1 is in 2 places",
    ),
    "a captive of a seat not in play": (
        _set(_player, "captives", [{"owner": "Italia", "general": 2}]),
        "captives[0].owner: 'Italia' is not another player of this game",
    ),
    "a galley coast inland": (_set(_force, "galley_coasts", {"1": "AEG"}), "galley_coasts key '1': no such galley"),
    "an undocumented field": (_set(_player, "gold", 5), "snapshot.players.Macedonia.gold: not documented"),
}

TEXTS = {  # the text itself cannot be read as JSON data
    "an array 100,000 deep": ("[" * 100_000 + "]" * 100_000, "state file line 1: arrays or objects nested too deeply"),
    "a number of 5,000 digits": ('{"schema": 1,\n "turn": ' + "9" * 5000 + "}", "state file line 2: a number of"),
}


def turn0(pbem: Pbem) -> Snapshot:
    pbem.new_game()
    return json.loads((pbem.data / "games/rome1/turn-0000/snapshot.json").read_text())


def refused(result: Result, message: str, name: str) -> None:
    """Exit status 1, the message, and no traceback (an exception other than the CLI's own exit)."""
    assert result.exit_code == 1 and message in result.output, (name, result.output)
    assert isinstance(result.exception, SystemExit), (name, result.exception)


def bad_files(good: Snapshot, write: Write) -> dict[str, tuple[Path, str]]:
    files = {}
    for i, (name, (change, message)) in enumerate(BAD_POSITIONS.items()):
        data = copy.deepcopy(good)
        change(data)
        files[name] = write(f"bad-{i}.json", json.dumps(data)), message
    for i, (name, (text, message)) in enumerate(TEXTS.items()):
        files[name] = write(f"text-{i}.json", text), message
    return files


def test_a_bad_position_is_refused_by_new_from_snapshot_naming_the_field_and_nothing_is_stored(
    pbem: Pbem, write: Write
) -> None:
    good = turn0(pbem)
    seats = [a for seat, mail in SEATS.items() for a in ("--seat", f"{seat}={mail}")]
    before = pbem.dump()
    for name, (path, message) in bad_files(good, write).items():
        refused(pbem("new", "copy", "--from-snapshot", str(path), *seats), message, name)
        assert pbem.dump() == before, name
    assert not (pbem.data / "games/copy").exists()
    result = pbem("new", "copy", "--from-snapshot", str(write("good.json", json.dumps(good))), *seats)
    assert result.exit_code == 0, result.output  # the unchanged position is taken


def test_a_bad_position_is_refused_by_check_and_resolve_state(tmp_path: Path, write: Write) -> None:
    pbem = Pbem(tmp_path / "data")
    good = turn0(pbem)
    orders = write("orders.txt", "GAME rome1 TURN 1 PLAYER Macedonia PASSWORD x\nMOVE G1 WITH 2 INF: MAC -> THR\n")
    for name, (path, message) in bad_files(good, write).items():
        refused(pbem("check", "--state", str(path), str(orders), data=False), message, name)
        out = tmp_path / "out"
        refused(
            pbem("resolve", "--state", str(path), "--orders", str(orders), "--out", str(out), data=False), message, name
        )
        assert not out.exists(), name


def test_a_stored_position_that_breaks_the_schema_is_named_not_a_traceback(pbem: Pbem) -> None:
    """A position edited in the archive is checked when it is read again, by the same checks."""
    pbem.new_game()
    pbem.sql(
        "update turn set state_json = replace(state_json, '\"inflation_pending\": []', '\"inflation_pending\": 3')"
    )  # today's main: TypeError, 'int' object is not iterable
    orders = pbem.orders("Macedonia", 1, "BUY 1 INF")
    before = pbem.dump()
    for args in (["check", "--game", "rome1", str(orders)], ["submit", "rome1", str(orders)]):
        refused(pbem(*args), "snapshot.inflation_pending: 3 is not of type array", args[0])
    assert pbem.dump() == before


@pytest.mark.parametrize(
    ("dice", "message"),
    [
        ("1 2\n3 ²\n", "dice file line 2: '²' is not a die roll"),
        ("٣\n", "dice file line 1: '٣' is not a die roll"),
        ("4\n\n" + "9" * 5000 + "\n", "dice file line 3: '99999999999999999'... is not a die roll"),
        ("1\n2\x003\n", "dice file line 2: '2\\x003' is not a die roll"),
    ],
)
def test_a_dice_file_with_strange_digits_is_refused_naming_the_line(
    tmp_path: Path, write: Write, dice: str, message: str
) -> None:
    from adjudicator.engine.chance import DiceError, parse_dice_file
    from adjudicator.rulesets.coe.dice import COMBAT_DIE_SYMBOLS

    with pytest.raises(DiceError, match=message.replace("\\", "\\\\").replace("(", "\\(").replace(".", "\\.")):
        parse_dice_file(dice, COMBAT_DIE_SYMBOLS)
    pbem = Pbem(tmp_path / "data")
    state = write("state.json", json.dumps(turn0(pbem)))
    orders = write("orders.txt", "GAME rome1 TURN 1 PLAYER Macedonia PASSWORD x\nMOVE G1 WITH 2 INF: MAC -> THR\n")
    out = tmp_path / "out"
    result = pbem(
        "resolve",
        "--state",
        str(state),
        "--orders",
        str(orders),
        "--dice",
        str(write("dice.txt", dice.encode())),
        "--out",
        str(out),
        data=False,
    )
    refused(result, "dice file", dice[:5])
    assert not out.exists()


def test_every_input_file_with_a_nul_byte_is_refused_naming_the_line(pbem: Pbem, write: Write, tmp_path: Path) -> None:
    state = write("state.json", json.dumps(turn0(pbem)))
    header = f"GAME rome1 TURN 1 PLAYER Macedonia PASSWORD {pbem.passwords['Macedonia']}\n".encode()
    bad = write("bad.txt", header + b"BUY 1 INF\nBUY\x00 1 CAV\n")
    good = pbem.orders("Macedonia", 1, "BUY 1 INF")
    out = str(tmp_path / "out")
    before = pbem.dump()
    nul_state, nul_snapshot = write("state0.json", b'{"schema": 1,\n\x00}'), write("snap.json", b"{\n\n\x00")
    runs = {  # what the message calls the file -> (the command, the file, the line of the NUL)
        "order file": (["submit", "rome1", str(bad)], bad, 3),
        "turn file": (["adjudicate", "rome1", "--turn-file", str(bad)], bad, 3),
        "answer file": (["answer", "rome1", str(bad)], bad, 3),
        "state file": (["check", "--state", str(nul_state), str(good)], nul_state, 2),
        "orders file": (["resolve", "--state", str(state), "--orders", str(bad), "--out", out], bad, 3),
        "dice file": (
            ["resolve", "--state", str(state), "--orders", str(good), "--dice", str(bad), "--out", out],
            bad,
            3,
        ),
        "snapshot": (
            ["new", "copy", "--from-snapshot", str(nul_snapshot), "--seat", "Egyptus=x@y.org"],
            nul_snapshot,
            3,
        ),
    }
    for what, (args, path, line) in runs.items():
        message = f"{what} {path}: line {line} holds a NUL byte: this is a binary file, not text"
        refused(pbem(*args, data=args[0] not in ("check", "resolve")), message, what)
    assert pbem.dump() == before


def test_a_position_with_only_the_contracts_fields_is_read_as_before(tmp_path: Path, write: Write) -> None:
    """Schema 1 as DESIGN.md gives it names fewer fields than this version writes: what a position made by hand
    or by another tool leaves out is read with its old default, and the verdicts are those of the full file."""
    pbem = Pbem(tmp_path / "data")
    full = turn0(pbem)
    lean = copy.deepcopy(full)
    for key in ("inflation_pending", "winner"):
        del lean[key]
    for player in lean["players"].values():
        for key in ("standing", "captor", "inherited", "conceded_to"):
            del player[key]
    for area in lean["areas"].values():
        for force in area["units"].values():
            for key in ("catapult", "galleys", "cavalry"):
                if not force[key]:
                    del force[key]
    orders = write(
        "orders.txt",
        "GAME rome1 TURN 1 PLAYER Macedonia PASSWORD x\nMOVE G1 WITH 2 INF: MAC -> THR\n"
        "MOVE G2 WITH 9 INF: MAC -> THR\n",
    )
    verdicts = [
        pbem("check", "--state", str(write(f"{name}.json", json.dumps(data))), str(orders), data=False)
        for name, data in (("full", full), ("lean", lean))
    ]
    assert verdicts[0].exit_code == verdicts[1].exit_code
    assert verdicts[0].output == verdicts[1].output and "rejected (C-5.3)" in verdicts[1].output
