"""An archive written by an earlier version (main at stop 15, before the game-neutral core) still verifies,
reports and plays on with the current code: the archive is the game's record for years (DESIGN.md, Archive)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from adjudicator.cli import app
from adjudicator.rulesets import EXTRA_FOLDERS
from tests.registered import with_test_rulesets

FIXTURE = Path(__file__).parent / "fixtures" / "archive-stop15.sqlite"
GAMES = {"demo": 14, "old84": 12, "oldround": 11}  # game -> checks its verify passed when it was written


@pytest.fixture
def old_data(tmp_path: Path) -> Path:
    shutil.copy(FIXTURE, tmp_path / "archive.sqlite")
    return tmp_path


@pytest.mark.parametrize("game", sorted(GAMES))
def test_an_archive_of_the_old_main_verifies(old_data: Path, game: str) -> None:
    result = CliRunner().invoke(app, ["verify", game, "--data", str(old_data)])
    assert result.exit_code == 0, result.output
    # one check more today: the rows outside the chain and the heads published (services/verify_published.py)
    assert f"{GAMES[game] + 1} checks passed, 0 problems" in result.output


def test_an_old_report_is_shown_as_it_was_written(old_data: Path) -> None:
    result = CliRunner().invoke(app, ["report", "demo", "--turn", "11", "--data", str(old_data)])
    assert result.exit_code == 0, result.output
    assert "Egyptus conquers CIL (5) from Macedonia [C-6.14]" in result.output
    assert (
        "Archive chain after this turn: 5032a41328dd71a8b6ecbee7b77231ad1b6938b70dab3ce7590592911f696ab1"
        in result.output
    )


def test_an_old_game_plays_on(old_data: Path) -> None:
    runner = CliRunner()
    played = runner.invoke(app, ["adjudicate", "old84", "--now", "--data", str(old_data)])
    assert played.exit_code == 0, played.output
    assert "Turn 11 (Numidia) resolved" in played.output
    checked = runner.invoke(app, ["verify", "old84", "--data", str(old_data)])
    assert "14 checks passed, 0 problems" in checked.output and checked.exit_code == 0, checked.output


# An archive of every ruleset, written by the main of the keyed orders commitment (orders_hash_version 2), before
# the rulesets took their own words and decisions moved into the engine: selfplay games of each ruleset, one of
# them (bids1) ended, the others open.
EVERY_RULESET = Path(__file__).parent / "fixtures" / "archive-every-ruleset.sqlite"
PLAYED = {"classic1": 15, "old1984": 15, "conq1": 35, "seas1": 27, "bids1": 6, "bids2": 4}  # game -> checks passed


@pytest.fixture
def every_ruleset(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(EXTRA_FOLDERS, with_test_rulesets())
    shutil.copy(EVERY_RULESET, tmp_path / "archive.sqlite")
    return tmp_path


@pytest.mark.parametrize("game", sorted(PLAYED))
def test_an_archive_of_every_ruleset_verifies(every_ruleset: Path, game: str) -> None:
    result = CliRunner().invoke(app, ["verify", game, "--data", str(every_ruleset)])
    assert result.exit_code == 0, result.output
    assert f"{PLAYED[game]} checks passed, 0 problems" in result.output


@pytest.mark.parametrize("game", sorted(set(PLAYED) - {"bids1"}))
def test_an_open_game_of_every_ruleset_plays_on(every_ruleset: Path, game: str) -> None:
    runner = CliRunner()
    played = runner.invoke(app, ["adjudicate", game, "--now", "--data", str(every_ruleset)])
    assert played.exit_code == 0, played.output
    assert "resolved" in played.output
    checked = runner.invoke(app, ["verify", game, "--data", str(every_ruleset)])
    assert f"{PLAYED[game] + 1} checks passed, 0 problems" in checked.output, checked.output
