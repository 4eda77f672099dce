"""A Conqueror game's files and stored data: `pbem repair` writes back every file a stored turn has (its private
snapshots too), and damaged game data stored with a game is named as a problem by every command that reads it,
never a traceback. ER-n.m: games/conqueror-er/rules.md.

Each case plays a real game from the example data into a real SQLite archive, and edits it with SQL as somebody
with access to the database would."""

from __future__ import annotations

import json
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from adjudicator.cli import app
from adjudicator.engine.envelope import data_digest
from tests.conftest import Pbem
from tests.test_conqueror_asks import thal_attacks_pel

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


def damaged(data: Path, game_data: str) -> None:
    """Store `game_data` as the game's data, with SQL."""
    with sqlite3.connect(data / "archive.sqlite") as connection:
        connection.execute("UPDATE game SET game_data = ? WHERE name = 'er1'", (game_data,))


def stored_data(data: Path) -> dict[str, Any]:
    with sqlite3.connect(data / "archive.sqlite") as connection:
        return json.loads(connection.execute("SELECT game_data FROM game WHERE name = 'er1'").fetchone()[0])  # type: ignore[no-any-return]


def with_options(data: Path, **options: object) -> str:
    return json.dumps(stored_data(data) | {"options": options})


@pytest.mark.parametrize(
    ("damage", "named"),
    [
        (lambda data: "{oops", "its stored game data (game_data) is not readable JSON"),
        (lambda data: "[1, 2]", "its stored game data (game_data) is a JSON list, not an object"),
        (
            lambda data: with_options(data, temple_vp=5),
            "its stored game data (game_data.options['temple_vp']) is 5, not a text",
        ),
        (
            lambda data: json.dumps(stored_data(data) | {"files": {"tracks.toml": 7}}),
            "its stored game data (game_data.files['tracks.toml']) is a JSON int, not the file's text",
        ),
        (
            lambda data: json.dumps(stored_data(data) | {"mode": "nonsense"}),
            "its stored game data (game_data.mode) is refused: unknown mode 'nonsense'",
        ),
        (
            lambda data: json.dumps(
                stored_data(data) | {"files": stored_data(data)["files"] | {"tracks.toml": "imperator = ["}}
            ),
            "its stored game data (game_data.files) is refused: the game data has 1 problems:\n"
            "tracks.toml (ER-13): not valid TOML",
        ),
        (
            lambda data: with_options(data, oops="1"),
            "its stored game data (game_data.options) is refused: game options: oops: no such option",
        ),
    ],
    ids=["not-json", "not-an-object", "option-not-text", "file-not-text", "unknown-mode", "file-not-toml", "no-option"],
)
def test_ER_13_damaged_stored_game_data_is_named_by_every_command_never_a_traceback(
    tmp_path: Path, damage: Callable[[Path], str], named: str
) -> None:
    data = played(tmp_path)
    damaged(data, damage(data))
    problem = f"game er1: {named}"
    checked = pbem(data, "verify", "er1")
    assert checked.exit_code == 1
    assert f"PROBLEM  {problem}" in checked.output
    assert "no turn is replayed" in checked.output
    assert "chain head after turn" in checked.output  # the chain is still followed
    for command in (("status", "er1"), ("adjudicate", "er1", "--now"), ("report", "er1")):
        result = pbem(data, *command)
        assert result.exit_code == 1, (command, result.output)
        assert problem in result.output, (command, result.output)
        assert "Traceback" not in result.output and isinstance(result.exception, SystemExit), (command, result.output)
    ticked = pbem(data, "tick")
    assert ticked.exit_code == 1
    assert f"er1: FAILED ({problem}" in ticked.output
    assert "Traceback" not in ticked.output
    repaired = pbem(data, "repair", "er1")
    assert f"er1: FAILED ({problem}" in repaired.output and "Traceback" not in repaired.output


def test_ER_13_5_an_option_value_that_is_no_text_is_refused_naming_it() -> None:
    from adjudicator.rulesets import load_ruleset
    from adjudicator.rulesets.conqueror.setup import SetupError, game_options

    data = load_ruleset("conqueror-er").game_data.load(EXAMPLE)  # type: ignore[attr-defined]
    with pytest.raises(SetupError, match=r"temple_vp=5: not a text"):
        game_options(data, None, {"temple_vp": 5})  # type: ignore[dict-item]


def edited_files(data: Path, file: str, old: str, new: str) -> dict[str, str]:
    """The game's stored data with one edit in one file, stored back with SQL; the files as now stored."""
    stored = stored_data(data)
    assert old in stored["files"][file]
    stored["files"][file] = stored["files"][file].replace(old, new, 1)
    damaged(data, json.dumps(stored))
    return stored["files"]  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("file", "old", "new"),
    [
        ("cards.toml", 'op = "casualties", n = 1', 'op = "casualties", n = 9'),  # a hero's casualties
        ("board-3-4.toml", 'name = "Mirefield"', 'name = "Mirewold"'),  # an area's name
        ("tracks.toml", "\n", "\n# only a comment\n"),  # a comment: data changes even where play does not
    ],
    ids=["hero-casualties", "area-name", "comment"],
)
def test_ER_13_verify_names_a_change_of_the_stored_game_data_by_its_digest(
    tmp_path: Path, file: str, old: str, new: str
) -> None:
    data = played(tmp_path)
    first = data_digest(stored_data(data)["files"])
    clean = pbem(data, "verify", "er1")
    assert clean.exit_code == 0, clean.output
    assert f"ok       game data: digest {first}, as the first turn's snapshot names it" in clean.output
    now = data_digest(edited_files(data, file, old, new))
    checked = pbem(data, "verify", "er1")
    assert checked.exit_code == 1
    assert (
        f"PROBLEM  the game's stored data (game_data.files) has digest {now}, but the snapshot of turn 0 names "
        f"{first} (turns 0-2 name it): the data was changed after the game began" in checked.output
    )


def test_ER_13_the_first_public_report_names_the_digest_of_the_game_data(tmp_path: Path) -> None:
    data = played(tmp_path)
    digest = data_digest(stored_data(data)["files"])
    report = (data / "games/er1/turn-0000/report.txt").read_text(encoding="utf-8")
    assert f"Game data digest: {digest}" in report
    assert "Game data digest" not in (data / "games/er1/turn-0001/report.txt").read_text(encoding="utf-8")


def test_ER_14_12_repair_writes_back_the_notice_and_files_of_a_campaign_turn_waiting_for_an_answer(
    tmp_path: Path,
) -> None:
    """A turn that waits for kesh's answer (ER-14.12, as tests/test_conqueror_asks.py plays it): its notice and the
    files of the turn before are written back as they were first written."""
    pbem = Pbem(tmp_path / "moderator")
    number = thal_attacks_pel(pbem, tmp_path)
    assert pbem("adjudicate", "er1", "--now").exit_code == 0
    games = pbem.data / "games/er1"
    notice = games / "outbox" / f"decisions-turn-{number:04d}-kesh.txt"
    text = notice.read_bytes()
    before = files_of(games / f"turn-{number - 1:04d}")
    notice.unlink()
    shutil.rmtree(games / f"turn-{number - 1:04d}")
    result = pbem("repair", "er1")
    assert result.exit_code == 0 and f"wrote {notice}" in result.output, result.output
    assert notice.read_bytes() == text
    assert files_of(games / f"turn-{number - 1:04d}") == before
    assert pbem("repair", "er1").output == "er1: no file missing\n"
