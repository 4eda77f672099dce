"""CLI cold start: `pbem --help` and `pbem check --state` on a small file, as a ratio to bare `python -c pass`.

Target (issue 6): at most 3x. Run from the repository root: python -m bench.cli_startup [--runs 10]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench import COMMAND_ENV

TARGET = 3.0  # at most this many times the start of a bare interpreter


def timed(command: list[str], runs: int) -> float:
    """Median wall time of `command` over `runs` runs (after one warm-up run for the file cache)."""
    subprocess.run(command, capture_output=True, check=False, env=COMMAND_ENV)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, capture_output=True, check=False, env=COMMAND_ENV)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=10)
    runs = parser.parse_args().runs
    from adjudicator.rulesets import load_ruleset

    with tempfile.TemporaryDirectory() as folder:
        state = Path(folder) / "state.json"
        orders = Path(folder) / "orders.txt"
        from adjudicator.rulesets.coe.state import snapshot_text

        initial = load_ruleset("coe-classic").initial_state("bench", ["Macedonia", "Egyptus", "Hispania"])
        state.write_text(snapshot_text(initial))
        orders.write_text("GAME bench TURN 1 PLAYER Macedonia PASSWORD x\nMOVE G1 WITH 2 INF: MAC -> THR\nBUY 1 INF\n")
        base = timed([sys.executable, "-c", "pass"], runs)
        cli = [sys.executable, "-m", "adjudicator.cli"]
        help_time = timed([*cli, "--help"], runs)
        check_time = timed([*cli, "check", "--state", str(state), str(orders)], runs)
    print(f"python -c pass      {base * 1000:7.1f} ms")
    for name, took in (("pbem --help", help_time), ("pbem check --state", check_time)):
        ratio = took / base
        print(
            f"{name:19} {took * 1000:7.1f} ms  ratio {ratio:4.1f}x (target <= {TARGET:g}x: "
            f"{'met' if ratio <= TARGET else 'NOT met'})"
        )


if __name__ == "__main__":
    main()
