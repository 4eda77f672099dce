"""Start-up of the per-mail commands: `pbem` builds only the command it runs, and a command
run that way behaves exactly as in the whole group (help, errors, output)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.main import get_command_name, get_group
from typer.testing import CliRunner

from adjudicator.cli import app, only_command
from tests.conftest import Pbem

COMMANDS = [c.name or get_command_name(c.callback.__name__) for c in app.registered_commands]  # type: ignore[union-attr]
GROUPS = {g.name: g.typer_instance for g in app.registered_groups}  # gm, data
GROUP_COMMANDS = [
    [group, c.name or get_command_name(c.callback.__name__)]  # type: ignore[union-attr]
    for group, typer_app in GROUPS.items()
    for c in typer_app.registered_commands  # type: ignore[union-attr]
]


def said(command: Any, args: list[str]) -> tuple[int, str]:
    """Exit status and output (stdout and stderr) of the click command `command` run with `args`."""
    with CliRunner().isolation() as (out, err, _):
        try:
            command.main(args, prog_name="pbem")
            status = 0
        except SystemExit as end:
            status = end.code if isinstance(end.code, int) else 1
        return status, out.getvalue().decode() + err.getvalue().decode()


@pytest.mark.parametrize(
    "args",
    [[name, "--help"] for name in COMMANDS]
    + [[*names, "--help"] for names in GROUP_COMMANDS]
    + [["gm", "--help"], ["check"], ["gm", "extend"], ["adjudicate", "--no-such-option"], ["gm", "nosuch"]]
    + [["data", "--help"], ["data", "check"], ["data", "nosuch"]],
)
def test_a_command_alone_says_what_the_whole_group_says(args: list[str]) -> None:
    alone = only_command(args)
    assert [*alone.commands] == [args[0]]  # only the command named was built
    assert said(alone, args) == said(get_group(app), args)


@pytest.mark.parametrize("args", [[], ["--help"], ["nosuch"], ["--data", "x", "check"]])
def test_no_command_named_gets_the_whole_group(args: list[str]) -> None:
    whole = only_command(args)
    assert [*whole.commands] == [*COMMANDS, *GROUPS]
    assert said(whole, args) == said(get_group(app), args)
    assert said(whole, args)[0] in (0, 2)


def test_the_program_runs_a_command_alone_as_in_the_group(pbem: Pbem, tmp_path: Path) -> None:
    """`python -m adjudicator.cli` (the `pbem` entry point) checks orders as CliRunner on the whole app does."""
    pbem.new_game()
    orders = tmp_path / "orders.txt"
    orders.write_text("GAME rome1 TURN 1 PLAYER Macedonia PASSWORD x\nBUY 1 INF\nMOVE G1: MAC -> nowhere\n")
    args = ["check", "--game", "rome1", str(orders), "--data", str(pbem.data), *(["--db", pbem.db] if pbem.db else [])]
    run = subprocess.run(
        [sys.executable, "-m", "adjudicator.cli", *args], capture_output=True, text=True, check=False, timeout=60
    )
    whole = pbem(*args, data=False)  # the whole app, as every other test runs it
    assert (run.returncode, run.stdout) == (whole.exit_code, whole.output)
    assert "1 accepted" in run.stdout and "not understood" in run.stdout
