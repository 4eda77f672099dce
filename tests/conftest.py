"""Shared fixtures: a real SQLite archive in a temporary folder, driven through the real CLI."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from adjudicator.cli import app

SEATS = {"Macedonia": "mac@example.org", "Egyptus": "egy@example.org", "Hispania": "his@example.org"}


class Pbem:
    """Runs `pbem` commands against one data folder, as a moderator would."""

    def __init__(self, data: Path) -> None:
        self.data = data
        self.runner = CliRunner()
        self.passwords: dict[str, str] = {}

    def __call__(self, *args: str, data: bool = True) -> Result:
        extra = ["--data", str(self.data)] if data else []
        return self.runner.invoke(app, [*args, *extra])

    def new_game(self, name: str = "rome1", pace: str = "turn", seats: dict[str, str] | None = None) -> Result:
        seat_args = [a for seat, mail in (seats or SEATS).items() for a in ("--seat", f"{seat}={mail}")]
        result = self("new", name, "--ruleset", "coe-classic", "--pace", pace, *seat_args)
        assert result.exit_code == 0, result.output
        for line in result.output.splitlines():
            parts = line.split()
            if len(parts) == 2 and parts[0] in (seats or SEATS):
                self.passwords[parts[0]] = parts[1]
        return result

    def orders(self, seat: str, turn: int, *lines: str, game: str = "rome1", password: str | None = None) -> Path:
        """Write an order file for `seat` with a correct header (unless a password is given)."""
        path = self.data.parent / f"orders-{seat}-{turn}-{len(list(self.data.parent.glob('orders-*')))}.txt"
        header = f"GAME {game} TURN {turn} PLAYER {seat} PASSWORD {password or self.passwords[seat]}"
        path.write_text("\n".join([header, *lines]) + "\n", encoding="utf-8")
        return path

    def dump(self) -> list[str]:
        """Every row of the archive, to show that a refused command changed nothing."""
        with sqlite3.connect(self.data / "archive.sqlite") as connection:
            return list(connection.iterdump())


@pytest.fixture
def pbem(tmp_path: Path) -> Pbem:
    return Pbem(tmp_path / "data")


@pytest.fixture
def write(tmp_path: Path) -> Callable[[str, str | bytes], Path]:
    def write_file(name: str, content: str | bytes) -> Path:
        path = tmp_path / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        return path

    return write_file
