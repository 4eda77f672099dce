"""`pbem verify` as a moderator runs it: a new process per run, on archived self-played games of two sizes per
ruleset, interleaved with bare Python and with the old tree's `pbem verify` of a copy of the same archive.

The cost of verify is taken as a straight line through the medians of the two sizes: a cost per stored turn
(player-turn, step) and a fixed cost (start-up, imports, set-up; bare Python's start-up included, as the user pays
it). Targets (judged on CPU time, which swings less than wall time on this shared machine; wall is printed too):
  coe-classic:  at most 1.5 ms a turn and 0.3 s fixed
  conqueror-er: 0.3 s fixed
  empires-aw:   no slower than the old tree

The games are built once (self-play through the moderator's operations, services/selfplay.py) into --data and
reused when present; a game that ends early is replaced by one of the next seed. A tree older than the turns'
digests (GameRow.chain_version 1) cannot verify games this tree builds: run the bench from the older tree then, with
--old naming this one, so that both verify games of the older chain.

Run from the repository root:
    python -m bench.verify --data /tmp/pbem-bench-verify [--runs 7] [--old /work/wt-lead/.venv/bin/python]
    python -m bench.verify --data /tmp/pbem-bench-verify --rulesets coe-classic --runs 3     # quick
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path

from bench.measure import PBEM, Command, Figures, interleave, print_load, print_rows

# ruleset -> (seats, the two sizes in stored turns)
GAMES: dict[str, tuple[int, tuple[int, int]]] = {
    "coe-classic": (6, (50, 200)),
    "conqueror-er": (4, (20, 75)),  # a whole game of 4 seats is about 80 steps
    "empires-aw": (3, (30, 100)),  # a whole game of 3 seats is about 115 steps
}
# ruleset -> (most ms a turn, most s fixed), None where no absolute target is set
TARGETS: dict[str, tuple[float | None, float | None]] = {
    "coe-classic": (1.5, 0.3),
    "conqueror-er": (None, 0.3),
    "empires-aw": (None, None),
}
SEEDS = 3  # seeds tried for a game that reaches its size (else the longest is kept)


@dataclass(frozen=True)
class Game:
    ruleset: str
    size: int  # stored turns asked for
    folder: Path  # the data folder (archive and turn files)
    name: str
    turns: int  # stored turns it has

    @property
    def old_folder(self) -> Path:
        return self.folder.with_name(self.folder.name + "-old")


def build(data: Path, ruleset_name: str, seats: int, size: int) -> Game:
    """The game of `size` turns in data/RULESET-SIZE, played now unless it is there (its turn count in `turns`)."""
    folder = data / f"{ruleset_name}-{size}"
    mark = folder / "bench-game.txt"
    if not mark.exists():
        from adjudicator.archive import Archive
        from adjudicator.rulesets import load_ruleset
        from adjudicator.services.selfplay import play_archived_game, playable, selfplay_seats

        ruleset, _ = playable(load_ruleset(ruleset_name))  # bound to its example data, if it takes data
        shutil.rmtree(folder, ignore_errors=True)
        archive = Archive.in_folder(folder)
        longest: tuple[int, str] = (0, "")
        for seed in range(1, SEEDS + 1):  # a game that ended early stays in the archive: verify checks it too
            name = f"bench{seed}"
            print(f"building {ruleset_name} game of {size} turns (seed {seed}) in {folder}", file=sys.stderr)
            steps = play_archived_game(
                archive,
                folder,
                name,
                ruleset.name,
                selfplay_seats(ruleset, seats),
                seed,
                size,
                check_archive=False,  # verify is what is timed
            )
            longest = max(longest, (len(steps), name))
            if len(steps) >= size:
                break
        mark.write_text(f"{longest[1]} {longest[0]}\n")
    name, turns = mark.read_text().split()
    game = Game(ruleset_name, size, folder, name, int(turns))
    if not game.old_folder.exists():  # the old tree verifies its own copy: neither run can touch the other's files
        shutil.copytree(folder, game.old_folder)
    return game


def verify_command(python: list[str], game: Game, folder: Path) -> Command:
    return Command(lambda run: [*python, "verify", game.name, "--data", str(folder)], expect=" 0 problems")


def line(small: Figures, large: Figures, small_turns: int, large_turns: int, cpu: bool) -> tuple[float, float]:
    """ms a turn and s fixed: the straight line through the two sizes' medians."""
    low, high = (small.cpu, large.cpu) if cpu else (small.wall, large.wall)
    per_turn = (high - low) / (large_turns - small_turns)
    return per_turn * 1000, low - per_turn * small_turns


def round_by_round(small: Figures, large: Figures, small_turns: int, large_turns: int) -> float:
    """CPU ms a turn as the median of each round's line through its two runs (both sizes run in the same round, so a
    busy moment falls on both): swings less than the line through the medians."""
    lines = [(high - low) / (large_turns - small_turns) for low, high in zip(small.cpus, large.cpus, strict=True)]
    return statistics.median(lines) * 1000


def verdict(got: float, most: float | None) -> str:
    return "" if most is None else f"  (target <= {most:g}: {'met' if got <= most else 'NOT met'})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, required=True, help="folder of the built games (made, then reused)")
    parser.add_argument("--runs", type=int, default=7, help="rounds of the interleaved loop (default 7)")
    parser.add_argument("--rulesets", default=",".join(GAMES), help="comma-separated (default: all three)")
    parser.add_argument("--old", default="/work/wt-lead/.venv/bin/python", help="the old tree's Python ('' for none)")
    args = parser.parse_args(argv)
    # -P: the old tree's package is the one its Python has installed, not the one in this folder
    old = [args.old, "-P", "-m", "adjudicator.cli"] if args.old else []
    games = {
        ruleset: [build(args.data, ruleset, GAMES[ruleset][0], size) for size in GAMES[ruleset][1]]
        for ruleset in args.rulesets.split(",")
    }
    measures: dict[str, Command] = {"bare python": Command(lambda run: [sys.executable, "-c", "pass"])}
    for built in games.values():
        for game in built:
            label = f"{game.ruleset} {game.turns} turns"
            measures[f"{label} new"] = verify_command(PBEM, game, game.folder)
            if old:
                measures[f"{label} old"] = verify_command(old, game, game.old_folder)
    rows = interleave(measures, args.runs, baseline="bare python")
    print_load()
    print_rows(rows)
    print()
    for ruleset, (small, large) in games.items():
        most_turn, most_fixed = TARGETS[ruleset]
        for tree in ("new", "old") if old else ("new",):
            got = [rows[f"{ruleset} {game.turns} turns {tree}"] for game in (small, large)]
            for cpu in (True, False):
                per_turn, fixed = line(*got, small.turns, large.turns, cpu)
                by_round = round_by_round(*got, small.turns, large.turns)
                rounds = f"; {by_round:5.2f} ms a turn, round by round" if cpu else ""
                judged = cpu and tree == "new"
                print(
                    f"{ruleset} {tree} ({'cpu ' if cpu else 'wall'}): {per_turn:5.2f} ms a turn"
                    f"{verdict(per_turn, most_turn) if judged else ''}, {fixed:5.3f} s fixed"
                    f"{verdict(fixed, most_fixed) if judged else ''}" + rounds
                )
        if old:
            # each round's new run to the old run of the same round, the median of those: a busy moment of this
            # shared machine falls on both runs of a round, so this swings less than a ratio of the two medians
            ratios = [
                statistics.median(
                    n / o
                    for n, o in zip(
                        rows[f"{ruleset} {g.turns} turns new"].cpus,
                        rows[f"{ruleset} {g.turns} turns old"].cpus,
                        strict=True,
                    )
                )
                for g in (small, large)
            ]
            no_slower = f"  (no slower than old: {'met' if max(ratios) <= 1.0 else 'NOT met'})"
            print(
                f"{ruleset} new/old cpu (median of the rounds' ratios): {ratios[0]:.2f} ({small.turns} turns), "
                f"{ratios[1]:.2f} ({large.turns} turns)"
                + (no_slower if most_turn is None and most_fixed is None else "")
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
