"""A Conqueror game's files and stored data: `pbem repair` writes back every file a stored turn has (its private
snapshots too), and damaged game data stored with a game is named as a problem by every command that reads it,
never a traceback. ER-n.m: games/conqueror-er/rules.md.

Each case plays a real game from the example data into a real SQLite archive, and edits it with SQL as somebody
with access to the database would."""

from __future__ import annotations

import shutil
from pathlib import Path

from typer.testing import CliRunner, Result

from adjudicator.cli import app

EXAMPLE = Path(__file__).resolve().parent.parent / "games/conqueror-er/example-data"
SEATS = ("kesh", "aurel", "thal")


def pbem(data: Path, *args: str) -> Result:
    return CliRunner().invoke(app, [*args, "--data", str(data)])


def played(tmp_path: Path) -> Path:
    """The data folder of game er1: three seats from the example data, its first steps resolved."""
    game_data, data = tmp_path / "game-data", tmp_path / "moderator"
    shutil.copytree(EXAMPLE, game_data)
    seats = [a for seat in SEATS for a in ("--seat", f"{seat}={seat}@example.org")]
    made = pbem(data, "new", "er1", "--ruleset", "conqueror-er", *seats, "--game-data", str(game_data))
    assert made.exit_code == 0, made.output
    done = pbem(data, "adjudicate", "er1", "--now")
    assert done.exit_code == 0, done.output
    return data


def files_of(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


def test_ER_13_repair_writes_back_every_file_of_a_turn_private_snapshots_too(tmp_path: Path) -> None:
    data = played(tmp_path)
    games = data / "games/er1"
    first = {n: files_of(games / f"turn-{n:04d}") for n in (0, 1)}
    assert {f"snapshot-{seat}.json" for seat in SEATS} <= set(first[1])
    # each kind of file lost: the public and a private report, both snapshots, the map; and a whole turn
    for name in ("report.txt", "report-kesh.txt", "snapshot.json", "snapshot-aurel.json", "map.svg"):
        (games / "turn-0001" / name).unlink()
    for seat in SEATS:
        (games / "turn-0000" / f"snapshot-{seat}.json").unlink()
    result = pbem(data, "repair", "er1")
    assert result.exit_code == 0, result.output
    assert "er1: 8 missing file(s) written" in result.output
    assert f"wrote {games / 'turn-0000/snapshot-thal.json'}" in result.output
    assert {n: files_of(games / f"turn-{n:04d}") for n in (0, 1)} == first
    shutil.rmtree(games / "turn-0001")
    assert pbem(data, "repair", "er1").exit_code == 0
    assert {n: files_of(games / f"turn-{n:04d}") for n in (0, 1)} == first
    assert pbem(data, "repair", "er1").output == "er1: no file missing\n"
