"""What a moderator's per-mail commands cost as new processes, as ratios to bare `python -c pass` interleaved in
every round (bench/measure.py): `pbem --help`, `pbem check --state`, `pbem check --game` and `pbem ingest` of one
order mail, each with realistic inputs: the Classic demo game played to turn 12 (pbem demo's order files), and
Macedonia's 8 orders for turn 13 (moves, a road move, standing orders, purchases, press), checked
against the archived game and against its turn-12 snapshot, and mailed as a new .eml each round (its own
Message-ID: password checked, orders stored, receipt queued), as a mail filter delivers it; `ingest --db` names the
same SQLite archive by its URL, which goes through the archive (sqlmodel) as every `--db` archive does.

With --instructions, each command also runs once under valgrind (cachegrind, no cache simulation) after the timed
rounds: the instructions it executes, as a ratio to bare Python's, do not swing with the load of the machine (they
are no time: a command waiting on the disk or held up by a busy cache costs more time than its count says).

With --old TREE (a checkout of an older version with its own .venv, e.g. /work/wt-lead) the same commands of that
tree run in the same rounds, on their own copy of the archive, so that before and after come from one run.

Targets (ratio to bare Python, medians): check --state and check --game at most 10x, ingest at most 25x; --help
no slower than the older tree.
Run from the repository root: python -m bench.cli_startup [--runs 15] [--old /work/wt-lead] [--instructions]
"""

from __future__ import annotations

import argparse
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from email.message import EmailMessage
from pathlib import Path

from bench import COMMAND_ENV
from bench.measure import PBEM, Command, Figures, interleave, print_load, print_rows

TARGETS = {"check --state": 10.0, "check --game": 10.0, "ingest (1 mail)": 25.0}
GAME, SEAT, TURN = "demo", "Macedonia", 13
# Macedonia's orders for turn 13 of the demo game: 8 orders, all accepted whatever the dice of turn 11 did.
ORDERS = """MOVE G2 WITH 2 INF: DAC -> PAN
MOVE CAESAR WITH 1 INF: DAL -> PAN
MOVE G4 WITH 3 INF: MOE => MAC
MOVE G3 WITH 1 INF: ACH -> MAC
LOSSES INF, CAV, CAT
RETREAT FROM PAN TO DAC WHEN UNITS < 2
BUY 2 INF, 1 CAV
PRESS TO Hispania: Agreed. Egypt must be stopped.
"""
ACCEPTED = "9 accepted, 0 rejected"  # the purchase line holds two


def demo_game(data: Path) -> str:
    """The demo game played into `data` to turn 12 (as `pbem demo` plays it, without the site); Macedonia's
    password."""
    from adjudicator.archive import Archive
    from adjudicator.rulesets import load_ruleset
    from adjudicator.services.adjudication import adjudicate
    from adjudicator.services.demo import demo_orders, demo_seats
    from adjudicator.services.games import NewGameOptions, new_game
    from adjudicator.services.orders import submit

    rules = load_ruleset("coe-classic")
    archive = Archive.in_folder(data)
    game = new_game(archive, data, NewGameOptions(GAME, rules.name, demo_seats(rules)))
    for path in demo_orders(rules):
        seat = path.stem.split("-", 1)[1]
        submit(archive, GAME, path.read_text(encoding="utf-8").replace("{password}", game.passwords[seat]))
        adjudicate(archive, data, GAME)
    archive.close()
    return game.passwords[SEAT]


def order_text(password: str) -> str:
    return f"GAME {GAME} TURN {TURN} PLAYER {SEAT} PASSWORD {password}\n{ORDERS}"


def order_mail(folder: Path, run: int, password: str, tag: str = "") -> Path:
    """Macedonia's orders in a new message (its own Message-ID), quoted-printable as mail clients send it."""
    message = EmailMessage()
    message["From"] = f"{SEAT} <mac@example.org>"
    message["To"] = "moderator@example.org"
    message["Subject"] = f"orders turn {TURN}"
    message["Message-ID"] = f"<bench{tag}{run}.macedonia@players.example.org>"
    message.set_content(
        f"Hello moderator,\n\n{order_text(password)}\n-- \n{SEAT}\n", charset="utf-8", cte="quoted-printable"
    )
    path = folder / f"mail{tag}-{run}.eml"
    path.write_bytes(bytes(message))
    return path


def tree_pbem(tree: Path | None) -> list[str]:
    """The `pbem` command of a tree's .venv (the console script a user runs), or of this Python."""
    if tree is None:
        script = Path(sys.executable).parent / "pbem"
        return [str(script)] if script.exists() else PBEM
    return [str(tree / ".venv" / "bin" / "pbem")]


def commands(pbem: list[str], folder: Path, data: Path, password: str, tag: str) -> dict[str, Command]:
    state, orders, db = folder / "state.json", folder / "orders.txt", data / "archive.sqlite"
    return {
        "--help": Command(lambda run: [*pbem, "--help"], "Commands"),
        "check --state": Command(lambda run: [*pbem, "check", "--state", str(state), str(orders)], ACCEPTED),
        "check --game": Command(
            lambda run: [*pbem, "check", "--game", GAME, str(orders), "--data", str(data)], ACCEPTED
        ),
        "ingest (1 mail)": Command(
            lambda run: [*pbem, "ingest", str(order_mail(folder, run, password, tag)), "--data", str(data)],
            "orders stored",
        ),
        # the same archive named by its URL: the archive's way (sqlmodel), which every --db archive takes
        "ingest --db": Command(
            lambda run: [
                *pbem,
                "ingest",
                str(order_mail(folder, run, password, f"{tag}db")),
                "--db",
                f"sqlite:///{db}",
            ],
            "orders stored",
        ),
    }


def paired_ratio(new: Figures, old: Figures, cpu: bool) -> float:
    """The median of the round-by-round ratios new/old (both ran in the same round)."""
    pairs = zip(new.cpus, old.cpus, strict=True) if cpu else zip(new.walls, old.walls, strict=True)
    return statistics.median(a / b for a, b in pairs)


def instructions(argv: list[str]) -> int:
    """The instructions `argv` executes (valgrind's cachegrind without cache simulation)."""
    done = subprocess.run(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null", *argv],
        capture_output=True,
        text=True,
        check=False,
        env=COMMAND_ENV,
    )
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"{' '.join(argv)} under valgrind failed (exit {done.returncode}):\n{done.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def count_instructions(measures: dict[str, Command], run: int) -> dict[str, int]:
    """One run of each measure under valgrind: the instructions it executes."""
    return {name: instructions(command.argv(run)) for name, command in measures.items()}


def print_instructions(counts: dict[str, int]) -> None:
    print("instructions executed (one run each under valgrind: no time, but steady under any load):")
    base = counts["python -c pass"]
    for name, count in counts.items():
        line = f"  {name:20} {count / 1e6:8.0f} M  ratio {count / base:5.1f}x"
        if name.startswith("new ") and name.removeprefix("new ") in TARGETS:
            line += f"  (target <= {TARGETS[name.removeprefix('new ')]:g}x is judged on time)"
        print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--old", type=Path, help="an older tree (with its .venv) to measure in the same rounds")
    parser.add_argument("--instructions", action="store_true", help="also count instructions under valgrind")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        data = folder / "data"
        password = demo_game(data)
        (folder / "state.json").write_text((data / "games" / GAME / "turn-0012" / "snapshot.json").read_text())
        (folder / "orders.txt").write_text(order_text(password))
        measures: dict[str, Command] = {"python -c pass": Command(lambda run: [sys.executable, "-c", "pass"])}
        if args.old is not None:
            old_data = folder / "old-data"
            shutil.copytree(data, old_data)
            old = commands(tree_pbem(args.old), folder, old_data, password, "old")
            measures |= {f"old {key}": command for key, command in old.items()}
        measures |= {
            f"new {key}": command for key, command in commands(tree_pbem(None), folder, data, password, "").items()
        }
        rows = interleave(measures, args.runs, baseline="python -c pass")
        counts = count_instructions(measures, args.runs + 1) if args.instructions else {}  # its own mail to ingest
    print(f"`pbem` cold starts, each a new process, {args.runs} rounds after a warm-up; ratios to python -c pass")
    print_load()
    targets = {f"new {key}": target for key, target in TARGETS.items()}
    print_rows(rows, targets, ratio="cpu")
    for key, target in TARGETS.items():
        got = rows[f"new {key}"]
        print(
            f"  new {key}: wall ratio {got.wall_ratio:.1f}x, target <= {target:g}x (wall): "
            f"{'met' if got.wall_ratio <= target else 'NOT met'}"
        )
    if args.old is not None:
        print("new / old, round by round (medians):")
        for key in commands([], folder, data, password, ""):
            new, old_figures = rows[f"new {key}"], rows[f"old {key}"]
            cpu, wall = paired_ratio(new, old_figures, True), paired_ratio(new, old_figures, False)
            line = f"  {key:16} cpu {cpu:5.2f}  wall {wall:5.2f}"
            if key == "--help":
                line += f"  (target: no slower: {'met' if cpu <= 1.05 else 'NOT met'} by cpu)"
            print(line)
    if counts:
        print_instructions(counts)


if __name__ == "__main__":
    main()
