"""CLI cold start, as a ratio to bare `python -c pass` measured in the same run: `pbem --help`, `pbem check --state`
on a small file, `pbem check --game` against an archived game, and `pbem ingest` of one order mail (a new .eml for a
real game each run, as a mail filter delivers it: password checked, orders stored, receipt queued).

Targets: --help at most 4x, check --state at most 8x, check --game and ingest at most 15x.
Run from the repository root: python -m bench.cli_startup [--runs 10]
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from email.message import EmailMessage
from pathlib import Path

from bench import COMMAND_ENV

TARGETS = {"pbem --help": 4.0, "pbem check --state": 8.0, "pbem check --game": 15.0, "pbem ingest (1 mail)": 15.0}
SEATS = {"Macedonia": "mac@example.org", "Egyptus": "egy@example.org", "Hispania": "his@example.org"}
ORDERS = "MOVE G1 WITH 2 INF: MAC -> THR\nBUY 1 INF\n"


def children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def timed_both(command: Callable[[int], list[str]], runs: int, expect: str = "") -> tuple[float, float]:
    """Median wall time and median CPU time (user + system) of `command(run)` over `runs` runs, after one warm-up
    run (number 0) for the file cache. CPU time varies less than wall time on a busy machine. Every run fails the
    benchmark if the command does or does not print `expect`."""
    walls, cpus = [], []
    for run in range(runs + 1):
        cpu, start = children_cpu(), time.perf_counter()
        done = subprocess.run(command(run), capture_output=True, text=True, check=False, env=COMMAND_ENV)
        wall, cpu = time.perf_counter() - start, children_cpu() - cpu
        if done.returncode != 0 or expect not in done.stdout:
            raise SystemExit(f"{' '.join(command(run))} failed:\n{done.stdout}{done.stderr}")
        if run:
            walls.append(wall)
            cpus.append(cpu)
    return statistics.median(walls), statistics.median(cpus)


def timed(command: Callable[[int], list[str]], runs: int, expect: str = "") -> float:
    """Median wall time of `command(run)` (see timed_both)."""
    return timed_both(command, runs, expect)[0]


def order_mail(folder: Path, run: int, password: str) -> Path:
    """Macedonia's orders for turn 1 in a new message (its own Message-ID) written to a .eml file."""
    message = EmailMessage()
    message["From"] = f"Macedonia <{SEATS['Macedonia']}>"
    message["To"] = "moderator@example.org"
    message["Subject"] = f"orders {run}"
    message["Message-ID"] = f"<bench{run}.macedonia@players.example.org>"
    text = f"GAME bench TURN 1 PLAYER Macedonia PASSWORD {password}\n{ORDERS}"
    message.set_content(f"Hello moderator,\n\n{text}\n-- \nMacedonia\n", charset="utf-8", cte="quoted-printable")
    path = folder / f"mail-{run}.eml"
    path.write_bytes(bytes(message))
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=10)
    runs = parser.parse_args().runs
    from adjudicator.archive import Archive
    from adjudicator.rulesets import load_ruleset
    from adjudicator.rulesets.coe.state import snapshot_text
    from adjudicator.services.games import NewGameOptions, new_game

    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        state, orders, data = folder / "state.json", folder / "orders.txt", folder / "data"
        initial = load_ruleset("coe-classic").initial_state("bench", list(SEATS))
        state.write_text(snapshot_text(initial))
        orders.write_text(f"GAME bench TURN 1 PLAYER Macedonia PASSWORD x\n{ORDERS}")
        archive = Archive.in_folder(data)
        password = new_game(archive, data, NewGameOptions("bench", "coe-classic", SEATS)).passwords["Macedonia"]
        archive.close()
        mails = [order_mail(folder, run, password) for run in range(runs + 1)]
        cli = [sys.executable, "-m", "adjudicator.cli"]
        base, base_cpu = timed_both(lambda run: [sys.executable, "-c", "pass"], runs)
        took = {
            "pbem --help": timed_both(lambda run: [*cli, "--help"], runs),
            "pbem check --state": timed_both(
                lambda run: [*cli, "check", "--state", str(state), str(orders)], runs, expect="2 accepted"
            ),
            "pbem check --game": timed_both(
                lambda run: [*cli, "check", "--game", "bench", str(orders), "--data", str(data)], runs, "2 accepted"
            ),
            "pbem ingest (1 mail)": timed_both(
                lambda run: [*cli, "ingest", str(mails[run]), "--data", str(data)], runs, expect="orders stored"
            ),
        }
    print(
        f"{'python -c pass':21} {base * 1000:7.1f} ms  (median of {runs} runs each; cpu: median user + system time, "
        f"steadier on a busy machine: {base_cpu * 1000:.1f} ms)"
    )
    for command, (seconds, cpu) in took.items():
        ratio, target = seconds / base, TARGETS[command]
        print(
            f"{command:21} {seconds * 1000:7.1f} ms  ratio {ratio:4.1f}x (target <= {target:g}x: "
            f"{'met' if ratio <= target else 'NOT met'}; cpu {cpu * 1000:.0f} ms, {cpu / base_cpu:.1f}x)"
        )


if __name__ == "__main__":
    main()
