"""Reproduce a whole self-played Conqueror game through the file interface, step by step, and time it: the longer
run of tests/test_conqueror_resolve_files.py (which plays two rounds). For each stored step, `pbem resolve` gets the
whole snapshot before it, its stored orders (one file per seat of a sealed step), its turn keys and `--game-data`,
and the snapshot it writes must be the archived one byte for byte. Prints the steps that differ and the time per
step; exits 1 if any differs.

The time of a step is `pbem resolve` run in this process (CliRunner: its start-up is not paid, see
bench/cli_startup.py), wall and CPU; printed are the medians over the steps, the middle half's spread, the slowest
step and the load.

Run from the repository root:
    python -m bench.resolve_replay --data /tmp/pbem-replay [--players 4] [--seed 1] [--game-data DIR] [--option K=V]
        [--turns N: only the game's first N steps]
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from pathlib import Path

from typer.testing import CliRunner

from adjudicator.archive import Archive
from adjudicator.archive import queries as db
from adjudicator.cli import app
from bench.measure import Figures, print_load

EXAMPLE = Path(__file__).resolve().parent.parent / "games/conqueror-er/example-data"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, required=True, help="a folder for the archive and the files (emptied)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game-data", type=Path, default=EXAMPLE)
    parser.add_argument("--turns", type=int, default=10000, help="steps to play (default: the whole game)")
    parser.add_argument("--option", action="append", default=[], help="KEY=VALUE, e.g. seas_of_destiny=true")
    args = parser.parse_args()
    shutil.rmtree(args.data, ignore_errors=True)
    runner = CliRunner()
    started = time.perf_counter()
    played = runner.invoke(
        app,
        ["selfplay", "replay", "--ruleset", "conqueror-er", "--players", str(args.players), "--seed", str(args.seed)]
        + ["--turns", str(args.turns), "--game-data", str(args.game_data), "--data", str(args.data / "moderator")]
        + [a for option in args.option for a in ("--option", option)],
    )
    if played.exit_code != 0:
        print(played.output)
        return 1
    print(f"self-play: {time.perf_counter() - started:.1f} s")
    with Archive.open(args.data / "moderator", None).session() as session:
        game = db.find_game(session, "replay")
        rows = db.turns(session, game)
        orders = {}
        for row in rows:
            for seat in row.seat.split(", ") if row.seat else []:
                stored = db.current_orders(session, game, row.number, seat)
                orders[row.number, seat] = stored.text if stored else ""
    times, differ = Figures(), []
    for before, row in zip(rows, rows[1:], strict=False):
        folder = args.data / f"step-{row.number}"
        folder.mkdir(parents=True)
        (folder / "before.json").write_text(before.state_json, encoding="utf-8")
        command = ["resolve", "--state", str(folder / "before.json"), "--out", str(folder / "out")]
        for seat in row.seat.split(", ") if row.seat else []:
            if not orders[row.number, seat]:
                command += ["--no-orders", seat]  # the seat sent nothing by the deadline
                continue
            (folder / f"{seat}.txt").write_text(orders[row.number, seat], encoding="utf-8")
            command += ["--orders", str(folder / f"{seat}.txt")]
        command += ["--key", f"{row.number}={row.turn_key}", "--game-data", str(args.game_data)]
        command += ["--hidden-key", f"{row.number}={row.hidden_key}"] if row.hidden_key else []
        command += ["--orders-key", f"{row.number}={row.orders_key}"] if row.orders_key else []
        cpu, start = time.process_time(), time.perf_counter()
        done = runner.invoke(app, command)
        times.walls.append(time.perf_counter() - start)
        times.cpus.append(time.process_time() - cpu)
        written = folder / "out" / "snapshot.json"
        if done.exit_code != 0 or written.read_text(encoding="utf-8") != row.state_json:
            differ.append(f"step {row.number}: {done.output.strip() or 'the snapshot differs'}")
    steps = len(times.walls)
    print_load()
    if steps:
        print(
            f"{steps} steps resolved from files: median wall {times.wall * 1000:.0f} ms, cpu {times.cpu * 1000:.0f} ms "
            f"a step (spread {times.spread:.0%}; slowest {max(times.walls) * 1000:.0f} ms)"
        )
    for line in differ:
        print(f"DIFFERS  {line}")
    print(f"{steps - len(differ)} of {steps} steps reproduced byte for byte")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
