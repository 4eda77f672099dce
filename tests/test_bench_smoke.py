"""The bench scripts still run: each, with its smallest arguments, as a new process from the repository root, exits 0
and prints its figures and the load. Nothing here is timed (the figures are the benches' own business); a bench
that rots (an import gone, an API changed) fails here instead of on the day its figures are wanted."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LOAD = r"^load \d+\.\d+ \(1 min\) \d+\.\d+ \(5 min\) on \d+ cores$"

# script -> (its arguments, the lines (regular expressions) its figures must print); {tmp} is a fresh folder
SMOKE: dict[str, tuple[list[str], list[str]]] = {
    "parse": (
        ["--mails", "2", "--runs", "1"],
        [
            rf"^  {ruleset} +2 mails, \d+\.\d orders a mail: .* orders/s cpu .*target \(cpu\): (met|NOT met)$"
            for ruleset in ("coe-classic", "coe-1984", "conqueror-er", "empires-aw")
        ]
        + [r"^  empires-aw +\d+\.\d ms a mail \(cpu \d+\.\d ms; median of 1 runs"],
    ),
    "turn": (
        ["--runs", "1", "--against", ""],
        [
            r"with 2 land battles .* in this process: median wall \d+\.\d ms, cpu \d+\.\d ms .*target < 50 ms",
            r"^bare python +wall +\d+\.\d ms",
            r"^pbem adjudicate, this tree +wall +\d+\.\d ms +cpu +\d+\.\d ms +ratio wall +\d+\.\dx",
        ],
    ),
    "selfplay_archive": (
        ["--data", "{tmp}/archive", "--turns", "3", "--seats", "2", "--runs", "1", "--against", ""],
        [
            r"^game selfplay: 3 player-turns in ",
            r"^pbem verify selfplay, this tree: 0 problems in each of 2 runs",
            r"^pbem verify, this tree +wall +\d+\.\d ms +cpu +\d+\.\d ms +ratio wall",
            r"^pbem verify selfplay: median wall \d+\.\d\d s, cpu \d+\.\d\d s; target < 2 s \(cpu\): (met|NOT met)$",
        ],
    ),
    "resolve_replay": (
        ["--data", "{tmp}/replay", "--players", "3", "--turns", "2"],
        [
            r"^\d+ steps resolved from files: median wall \d+ ms, cpu \d+ ms a step",
            r"^(\d+) of \1 steps reproduced byte for byte$",
        ],
    ),
    "verify_reports": (
        ["--data", "{tmp}/reports", "--runs", "1"],
        [
            rf"^{ruleset} {what}: \d+\.\d\d s CPU \(target <= 2 s: (met|NOT met)\)$"
            for ruleset, what in (("conqueror-er", "aurel's mails"), ("empires-aw", "site"))
        ],
    ),
    "eaw_selfplay": (
        ["--games", "1", "--memory"],
        [r"^1 games, \d+ steps \(\d+ a game\), \d+ battles, .*median \d+\.\d\d s a game.*, 0 problems$"],
    ),
}


@pytest.mark.parametrize("script", sorted(SMOKE))
def test_a_bench_runs_with_its_smallest_arguments_and_prints_its_figures(script: str, tmp_path: Path) -> None:
    arguments, figures = SMOKE[script]
    command = [sys.executable, "-m", f"bench.{script}", *(a.replace("{tmp}", str(tmp_path)) for a in arguments)]
    env = {k: v for k, v in os.environ.items() if k != "PBEM_HOME"}
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False, env=env, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    for figure in [LOAD, *figures]:
        assert re.search(figure, done.stdout, re.MULTILINE), f"no line matches {figure!r} in:\n{done.stdout}"
