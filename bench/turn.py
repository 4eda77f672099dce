"""One 6-seat Classic player-turn with two land battles: resolve + render + archive commit (SQLite).

Two figures, each the median of --runs rounds (after a warm-up round) with its spread, and the load:
- in this process: `adjudicate` of the turn on a fresh archive (made untimed before each run): what a long-running
  process (the tick) pays for the turn. Target: under 50 ms, judged on CPU time (wall time swings with the load).
- as a moderator runs it: `pbem adjudicate bench --now` as a new process, start-up included, interleaved with bare
  `python -c pass` and with the same command of the old tree (--against, default /work/wt-lead when it is there;
  its archives made by its own code), each as a ratio to bare Python taken round by round. No target of its own.

Run from the repository root: python -m bench.turn [--runs 15] [--against /work/wt-lead | --against '']
(The Classic edition has at most 6 seats, C-1.6, so the "7-seat" target is measured with 6.)
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

from adjudicator.archive import Archive
from adjudicator.rulesets import load_ruleset
from adjudicator.rulesets.coe.economy import tribute_value
from adjudicator.rulesets.coe.state import snapshot_text
from adjudicator.services.adjudication import adjudicate
from adjudicator.services.games import NewGameOptions, new_game
from adjudicator.services.orders import submit
from bench import COMMAND_ENV
from bench.measure import Call, Command, interleave, print_load, print_rows

TARGET_MS = 50.0
SEATS = ["Macedonia", "Galatia", "Egyptus", "Numidia", "Hispania", "Italia"]
ORDERS = ["MOVE G1 WITH 4 INF 2 CAV: MOE -> THR", "MOVE G2 WITH 4 INF 1 CAT: DAL -> PAN", "BUY 1 INF"]
OLD_TREE = Path("/work/wt-lead")

# Makes the game with Macedonia's orders stored in each folder named, with the code of the tree whose Python runs it
# (`-I`: the tree's own installed package, whatever the working folder).
PREPARE = """
import sys
from pathlib import Path
from adjudicator.archive import Archive
from adjudicator.services.games import NewGameOptions, new_game
from adjudicator.services.orders import submit
position, orders, seats = Path(sys.argv[1]).read_text(encoding="utf-8"), sys.argv[2], sys.argv[3].split(",")
for folder in sys.argv[4:]:
    data = Path(folder)
    archive = Archive.in_folder(data)
    options = NewGameOptions("bench", "coe-classic", {s: s + "@x.org" for s in seats}, position=position)
    game = new_game(archive, data, options)
    header = "GAME bench TURN 1 PLAYER Macedonia PASSWORD " + game.passwords["Macedonia"]
    submit(archive, "bench", header + "\\n" + orders)
"""


def position() -> str:
    """Macedonia, to move, stands next to two enemy armies (Galatia's in Thracia, Italia's in Pannonia)."""
    state = load_ruleset("coe-classic").initial_state("bench", SEATS)
    mac = state.force("MAC", "Macedonia")
    for general, area, units in (
        (1, "MOE", {"infantry": 4, "cavalry": 2}),
        (2, "DAL", {"infantry": 4, "catapult": 1}),
        (3, "ACH", {"infantry": 3}),
    ):
        mac.generals.remove(general)
        force = state.force(area, "Macedonia")
        force.generals.append(general)
        for kind, count in units.items():
            setattr(force, kind, count)
        state.area(area).owner = "Macedonia"
    for seat, area, infantry in (("Galatia", "THR", 4), ("Italia", "PAN", 3)):
        enemy = state.force(area, seat)
        enemy.infantry = infantry
        enemy.generals.append(4)
        state.force(state.players[seat].home, seat).generals.remove(4)
        state.area(area).owner = seat
    ruleset = load_ruleset("coe-classic")
    for seat, player in state.players.items():
        player.tribute = tribute_value(ruleset, state, seat)
    return snapshot_text(state)


def prepare_folders(python: Path, snapshot: Path, folders: list[Path]) -> None:
    """The game with Macedonia's orders in each of `folders`, made by `python`'s tree."""
    command = [str(python), "-I", "-c", PREPARE, str(snapshot), "\n".join(ORDERS), ",".join(SEATS)]
    done = subprocess.run([*command, *map(str, folders)], capture_output=True, text=True, check=False, env=COMMAND_ENV)
    if done.returncode != 0:
        raise SystemExit(f"could not make the bench games with {python}:\n{done.stderr}")


def adjudicate_command(pbem: str, folders: list[Path]) -> Command:
    """`pbem adjudicate` of run `run`'s game, in its own folder."""
    return Command(lambda run: [pbem, "adjudicate", "bench", "--now", "--data", str(folders[run])])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=15, help="rounds after one warm-up (default 15)")
    parser.add_argument("--against", default=str(OLD_TREE) if OLD_TREE.is_dir() else "", help="the old tree ('': none)")
    options = parser.parse_args(argv)
    runs = max(1, options.runs)
    trees = {"this tree": Path(__file__).resolve().parent.parent}
    if options.against:
        trees["old tree"] = Path(options.against).resolve()
    with tempfile.TemporaryDirectory(prefix="bench-turn-") as name:
        folder = Path(name)
        snapshot = folder / "position.json"
        snapshot.write_text(position(), encoding="utf-8")
        text = snapshot.read_text(encoding="utf-8")
        battles = [0]
        archives: dict[int, Archive] = {}

        def make_game(data: Path) -> Archive:
            archive = Archive.in_folder(data)
            options = NewGameOptions("bench", "coe-classic", {s: f"{s}@x.org" for s in SEATS}, position=text)
            game = new_game(archive, data, options)
            header = f"GAME bench TURN 1 PLAYER Macedonia PASSWORD {game.passwords['Macedonia']}\n"
            submit(archive, "bench", header + "\n".join(ORDERS))
            return archive

        def fresh(run: int) -> None:
            archives[run] = make_game(folder / f"in-process-{run}")  # opened untimed: a tick opens its archive once

        def turn(run: int) -> None:
            data = folder / f"in-process-{run}"
            done = adjudicate(archives.pop(run), data, "bench")
            battles[0] = done.turns[0].events_json.count('"battle"')

        in_process = interleave({"adjudicate in this process": Call(turn, prepare=fresh)}, runs=runs)

        measures: dict[str, Command] = {"bare python": Command(lambda run: [sys.executable, "-c", "pass"])}
        for label, tree in trees.items():
            python = tree / ".venv" / "bin" / "python"
            if not python.exists():
                raise SystemExit(f"{tree} has no .venv: make it as the README says, or give --against ''")
            folders = [folder / label.replace(" ", "-") / str(run) for run in range(runs + 1)]
            if label == "this tree":
                for data in folders:
                    make_game(data).close()  # this tree's code is loaded here already: no process to start
            else:
                prepare_folders(python, snapshot, folders)
            pbem = str(tree / ".venv" / "bin" / "pbem")  # the tree's own installed command, as a moderator runs it
            measures[f"pbem adjudicate, {label}"] = adjudicate_command(pbem, folders)
        processes = interleave(measures, runs=runs, baseline="bare python")

    print_load()
    got = in_process["adjudicate in this process"]
    cpu_ms = got.cpu * 1000
    print(
        f"6-seat Classic player-turn with {battles[0]} land battles (resolve + render + SQLite commit), in this "
        f"process: median wall {got.wall * 1000:.1f} ms, cpu {cpu_ms:.1f} ms (spread {got.spread:.0%}, "
        f"{len(got.walls)} runs); target < {TARGET_MS:g} ms (cpu): {'met' if cpu_ms < TARGET_MS else 'NOT met'}"
    )
    print("As a new process, against bare Python run by run:")
    print_rows(processes)
    if "old tree" in trees:
        new, old = processes["pbem adjudicate, this tree"], processes["pbem adjudicate, old tree"]
        print(
            f"this tree / old tree ({trees['old tree']}): wall {new.wall / old.wall:.2f}, cpu {new.cpu / old.cpu:.2f} "
            f"(ratios to bare Python {new.wall_ratio:.1f}x / {old.wall_ratio:.1f}x)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
