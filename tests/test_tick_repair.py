"""What a tick writes of the files a game's stored turns lack: every turn folder gone, and the lacking files of the
newest turns (those a writer may have died writing), looking at the game's folder and its newest turns alone, not at
every turn's folder (a long game's tick would pay for its whole history)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import Pbem
from tests.test_verify_chain import three_turns


def files_of(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


def test_a_tick_looks_at_the_games_folder_and_its_newest_turn_not_at_every_turn(
    pbem: Pbem, monkeypatch: pytest.MonkeyPatch
) -> None:
    three_turns(pbem)
    games = pbem.data / "games/rome1"
    listed: list[str] = []
    scandir = os.scandir

    def listing(path: str | os.PathLike[str]) -> Iterator[os.DirEntry[str]]:
        if Path(path).is_relative_to(games):
            listed.append(Path(path).relative_to(games).as_posix())
        return scandir(path)

    monkeypatch.setattr(os, "scandir", listing)
    result = pbem("tick")
    assert result.exit_code == 0 and "rome1: waiting for Macedonia" in result.output, result.output
    assert sorted(listed) == [".", "turn-0003"]


def test_a_tick_writes_every_turn_folder_gone_and_the_lacking_files_of_the_newest_turns(pbem: Pbem) -> None:
    three_turns(pbem)
    games = pbem.data / "games/rome1"
    written = {n: files_of(games / f"turn-{n:04d}") for n in range(4)}
    shutil.rmtree(games / "turn-0001")  # a folder gone: written, whatever its age
    (games / "turn-0002/map.svg").unlink()  # a writer that died writing turns 2 and 3
    (games / "turn-0003/report.txt").unlink()
    result = pbem("tick")
    assert result.exit_code == 0, result.output
    assert "turn-0001/report.txt" in result.output and "turn-0002/map.svg" in result.output
    assert "turn-0003/report.txt" in result.output
    assert {n: files_of(games / f"turn-{n:04d}") for n in range(4)} == written
    (games / "turn-0001/map.svg").unlink()  # deleted by hand below a whole turn: `pbem repair` writes it
    assert "wrote missing" not in pbem("tick").output
    assert "map.svg" in pbem("repair", "rome1").output
    assert {n: files_of(games / f"turn-{n:04d}") for n in range(4)} == written
