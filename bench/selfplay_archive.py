"""Build an archived game of N player-turns by self-play (for benchmarking `pbem verify`), and time it.

Every turn goes through the moderator's operations as a real game's would (services/selfplay.py): the ruleset's bot's
orders (rulesets/coe/bot.py) are submitted with the seat's password, then adjudicated (reports and snapshot written),
and the invariants are checked. Prints the time per turn.
A game that ends (somebody wins) before N player-turns is kept and another is started, until one has N turns.

Then times `pbem verify` of the game as a new process (each tree's own installed `pbem`, as a moderator runs it),
interleaved with bare `python -c pass` and with the old tree's `pbem verify` of the same archive (--against, default
/work/wt-lead when it is there): medians of --runs rounds after a warm-up, each a ratio to bare Python run by run,
with the spread and the load. Target: under 2 s (CPU) for 200 player-turns.

Run from the repository root:
    python -m bench.selfplay_archive --data /tmp/pbem-bench [--turns 200] [--seats 6] [--ruleset coe-classic]
    python -m bench.selfplay_archive --data /tmp/pbem-bench --time-only     # time verify of the game built before
    [--runs 5] [--against /work/wt-lead | --against '']
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from adjudicator.archive import Archive
from adjudicator.rulesets import load_ruleset
from adjudicator.services.selfplay import SelfPlayStep, bot_of, play_archived_game, selfplay_seats
from adjudicator.services.verification import verify
from bench.measure import Command, interleave, print_load, print_rows

ATTEMPTS = 5
TARGET = 2.0  # CPU seconds of `pbem verify` of a game of 200 player-turns, as a new process
OLD_TREE = Path("/work/wt-lead")


def time_pbem_verify(data: Path, name: str, runs: int, against: str = "") -> int:
    """Time `pbem verify NAME --data DATA` as a new process (each tree's own installed `pbem`, as a moderator runs
    it), interleaved with bare `python -c pass` and, with `against`, the old tree's `pbem verify` of the same
    archive: medians of `runs` rounds after a warm-up, ratios to bare Python run by run, the load. Returns 1 if a
    tree has no venv; a verify that fails stops the bench (bench/measure.py prints what it printed)."""
    trees = {"this tree": Path(__file__).resolve().parent.parent}
    if against:
        trees["old tree"] = Path(against).resolve()
    measures = {"bare python": Command(lambda run: [sys.executable, "-c", "pass"])}
    for label, tree in trees.items():
        pbem = tree / ".venv" / "bin" / "pbem"
        if not pbem.exists():
            print(f"{tree} has no .venv/bin/pbem: make its venv as the README says, or give --against ''")
            return 1
        command = [str(pbem), "verify", name, "--data", str(data)]
        # every run must verify (exit 0, no problem), else the bench stops: a figure of a failing verify would lie
        measures[f"pbem verify, {label}"] = Command(lambda run, command=command: command, expect=" 0 problems\n")
    runs = max(1, runs)
    rows = interleave(measures, runs=runs, baseline="bare python")
    for label in trees:
        print(f"pbem verify {name}, {label}: 0 problems in each of {runs + 1} runs (the warm-up included)")
    print_load()
    print_rows(rows)
    got = rows["pbem verify, this tree"]
    print(
        f"pbem verify {name}: median wall {got.wall:.2f} s, cpu {got.cpu:.2f} s; target < {TARGET:g} s (cpu): "
        f"{'met' if got.cpu < TARGET else 'NOT met'}"
    )
    if "old tree" in trees:
        old = rows["pbem verify, old tree"]
        print(
            f"this tree / old tree ({trees['old tree']}): wall {got.wall / old.wall:.2f}, cpu {got.cpu / old.cpu:.2f}"
        )
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, required=True, help="folder of the archive (must be empty or new)")
    parser.add_argument("--turns", type=int, default=200, help="player-turns to play (default 200)")
    parser.add_argument("--ruleset", default="coe-classic")
    parser.add_argument("--seats", type=int, default=6, help="number of seats (Classic: 2 to 6; default 6)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the bot's orders (the dice are the game's own)")
    parser.add_argument("--name", default="selfplay", help="game name (default selfplay)")
    parser.add_argument("--pace", choices=["turn", "round"], default="turn")
    parser.add_argument("--verify", action="store_true", help="also time the moderator's verify in this process")
    parser.add_argument("--runs", type=int, default=5, help="runs of `pbem verify` to time (default 5; 0: none)")
    parser.add_argument(
        "--against", default=str(OLD_TREE) if OLD_TREE.is_dir() else "", help="the old tree to compare ('': none)"
    )
    parser.add_argument("--time-only", action="store_true", help="only time `pbem verify` of the game in --data")
    args = parser.parse_args(argv)
    if args.time_only:
        return time_pbem_verify(args.data, args.name, args.runs, args.against)

    if args.data.exists() and any(args.data.iterdir()):
        parser.error(f"{args.data} is not empty: choose a new folder")
    ruleset = load_ruleset(args.ruleset)
    try:
        seats = selfplay_seats(ruleset, args.seats)
    except ValueError as wrong:
        parser.error(str(wrong))
    archive = Archive.in_folder(args.data)
    print(
        f"{ruleset.name}, {len(seats)} seats ({', '.join(seats)}), {args.turns} player-turns, pace {args.pace}, "
        f"into {args.data}"
    )

    for attempt in range(ATTEMPTS):
        name = args.name if attempt == 0 else f"{args.name}-{attempt + 1}"
        times: list[float] = []
        clock = [time.perf_counter()]

        def lap(turn: SelfPlayStep, times: list[float] = times, clock: list[float] = clock) -> None:
            now = time.perf_counter()
            times.append(now - clock[0])
            clock[0] = now
            if turn.number % 25 == 0:
                print(
                    f"  turn {turn.number:4}: {statistics.mean(times[-25:]) * 1000:7.1f} ms/turn (last 25)", flush=True
                )

        begin = time.perf_counter()
        turns = play_archived_game(
            archive,
            args.data,
            name,
            ruleset.name,
            seats,
            args.seed + attempt,
            args.turns,
            on_turn=lap,
            pace=args.pace,
            check_archive=False,  # timed below, as `pbem verify`
        )
        total = time.perf_counter() - begin
        accepted, rejected = sum(t.accepted for t in turns), sum(t.rejected for t in turns)
        print(
            f"game {name}: {len(turns)} player-turns in {total:.1f} s, {total / max(len(turns), 1) * 1000:.1f} ms "
            f"per turn (median {statistics.median(times or [0]) * 1000:.1f} ms, incl. new game); "
            f"{accepted} orders accepted, {rejected} rejected, {sum(t.battles for t in turns)} battles"
        )
        if len(turns) >= args.turns:
            break
        winner = bot_of(ruleset).winner(ruleset, turns[-1].state) if turns else None
        print(f"  the game ended early ({winner} won); starting another")
    else:
        print(f"no game reached {args.turns} player-turns in {ATTEMPTS} attempts", file=sys.stderr)
        return 1

    if args.verify:
        begin = time.perf_counter()
        passed, problems = verify(archive, name)
        took = time.perf_counter() - begin
        print(
            f"verify {name}: {len(passed)} checks passed, {len(problems)} problems in {took:.2f} s "
            f"({took / len(turns) * 1000:.1f} ms per turn)"
        )
        if problems:
            print("\n".join(problems[:10]), file=sys.stderr)
            return 1
    return time_pbem_verify(args.data, name, args.runs, args.against) if args.runs else 0


if __name__ == "__main__":
    sys.exit(main())
