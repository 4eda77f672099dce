"""The CPU time of one step of a conqueror-er game in self-play, against the tree before the change (--baseline,
default /work/wt-lead), interleaved: each round plays the same seeded games with each tree's Python in a fresh
process, old and new in turn; the figures are medians over the rounds, with the load and the ratio new/old taken
round by round.

Two measures of a step:
- archived: the step as `pbem selfplay` plays it in process (services/selfplay.py): the bot's orders, each
  seat's order set checked with its password and stored, the step adjudicated in the same transaction, its
  reports, snapshots and map written and stored, the invariants checked. The password checks (scrypt; a seat
  whose password this process hashed or already matched pays none) are also shown apart, and the step without
  them.
- memory: the game's own work alone: the bot's orders, their parsing, the step resolved, the invariants
  checked, the snapshot written and read back.
Steps are split by kind (Conquest mode's purchases, the sealed plans step, a campaign turn). Target: a step
in self-play at most 20 ms CPU. The archived step's time in the kernel is shown apart: it is mostly the disk
making the turn's new files (about 12 a turn, each a new inode), from 0.01 ms to 0.8 ms a file on the development
machine's ext4 depending on the load (6 µs on tmpfs), so it swings while the rest holds.

Each tree's games must be the same, byte for byte: the files of each archived game (reports, snapshots, map) and
the snapshot texts of each game in memory are hashed, and a difference stops the bench (with --outputs-differ, for
trees between which the reports gained a line, each tree's games must be the same in every round). The games' secrets
(dice key, passwords) are made from the seed here, so that both trees play the same game.

Run from the repository root:
    python -m bench.conqueror_step [--rounds 3] [--games 2] [--turns 40] [--seats 4] [--baseline /work/wt-lead]
    python -m bench.conqueror_step --rounds 1 --modes archived --parts     # and where the step goes (this tree)
The child mode (--child) runs with either tree's Python as a script, so it imports nothing from bench/.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent
TARGET = 0.020  # seconds of CPU per step


class SeededSecrets:
    """Stands in for the `secrets` module of services/games.py: the same dice key and passwords in every run."""

    def __init__(self, seed: int) -> None:
        self.random = random.Random(f"bench-secrets:{seed}")

    def token_bytes(self, n: int = 32) -> bytes:
        return self.random.randbytes(n)

    def token_urlsafe(self, n: int = 32) -> str:
        return self.random.randbytes(n).hex()


def play_archived(seed: int, turns: int, seats: int) -> dict[str, Any]:
    """One seeded game through the services; each step's CPU, its password checks' CPU, its kind; a digest."""
    import adjudicator.services.games as games
    import adjudicator.services.passwords as passwords
    import adjudicator.services.selfplay as selfplay
    from adjudicator.archive import Archive
    from adjudicator.rulesets import load_ruleset
    from adjudicator.services.selfplay import play_archived_game, playable, selfplay_seats

    games.secrets = SeededSecrets(seed)  # type: ignore[assignment]
    checking = [0.0]
    matches = passwords.password_matches

    def timed_match(password: str, stored: str) -> bool:
        began = time.process_time()
        try:
            return matches(password, stored)
        finally:
            checking[0] += time.process_time() - began

    passwords.password_matches = timed_match  # type: ignore[assignment]
    adjudicate = selfplay.adjudicate

    def new_batch(*args: Any, **kwargs: Any) -> Any:
        batch[0] = False
        return adjudicate(*args, **kwargs)

    selfplay.adjudicate = new_batch  # type: ignore[assignment]
    batch = [False]  # whether a step was reported since the last adjudication (the rest come with it)
    rules, _ = playable(load_ruleset("conqueror-er"))
    folder = Path(tempfile.mkdtemp(prefix="conqueror-step-"))
    try:
        archive = Archive.in_folder(folder)
        cpu, checks, kinds, starts, kernel = [], [], [], [], []
        state = [rules.initial_state("g", selfplay_seats(rules, seats))]
        last = [time.process_time(), 0.0, kernel_time()]

        def on_turn(step: Any) -> None:
            now, in_kernel = time.process_time(), kernel_time()
            starts.append(not batch[0])
            batch[0] = True
            cpu.append(now - last[0])
            checks.append(checking[0] - last[1])
            kernel.append(in_kernel - last[2])
            due = rules.due(state[0])
            kinds.append(due.phase if due is not None else "")
            state[0] = step.state
            last[0], last[1], last[2] = time.process_time(), checking[0], kernel_time()

        play_archived_game(archive, folder, "g", "conqueror-er", selfplay_seats(rules, seats), seed, turns, on_turn)
        digest = hashlib.sha256()
        for path in sorted((folder / "games").rglob("*")):
            if path.is_file():
                digest.update(str(path.relative_to(folder)).encode() + b"\0" + path.read_bytes())
        found = {"cpu": cpu, "passwords": checks, "kinds": kinds, "starts": starts, "kernel": kernel}
        return found | {"digest": digest.hexdigest()}
    finally:
        shutil.rmtree(folder, ignore_errors=True)


# Where an archived step's CPU goes: (label, module, attribute) wrapped with a CPU counter; an attribute "A.b" is a
# method b of class A. Indented labels are parts of the one above. Only this tree's names: the new tree alone.
PARTS = (
    ("adjudication with the order sets, less the password checks", "adjudicator.services.selfplay", "adjudicate"),
    ("password checks", "adjudicator.services.passwords", "password_matches"),
    ("  the position read", "adjudicator.services.adjudication", "current_game"),
    ("  order sets checked and stored", "adjudicator.services.adjudication", "store_order_set"),
    ("  the step resolved and stored", "adjudicator.services.adjudication", "adjudicate_locked"),
    ("  reports rendered", "adjudicator.services.reports", "turn_reports"),
    ("    orders templates (rulesets/conqueror)", "adjudicator.rulesets.conqueror.orders_template", "Template.make"),
    ("  the map drawn", "adjudicator.services.reports", "turn_map"),
    ("  files written", "adjudicator.services.reports", "write_atomically"),
)


def kernel_time() -> float:
    """The process's CPU seconds in the kernel so far (system calls: the turn files' new inodes most)."""
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_stime


def play_parts(seed: int, turns: int, seats: int) -> dict[str, float]:
    """One archived game (play_archived) with the functions of PARTS counting their CPU: each part's ms a step."""
    import importlib

    spent = dict.fromkeys([label for label, _, _ in PARTS], 0.0)
    running: set[str] = set()

    def counted(label: str, work: Any) -> Any:
        def run(*args: Any, **kwargs: Any) -> Any:
            if label in running:  # a call within itself is counted once
                return work(*args, **kwargs)
            running.add(label)
            began = time.process_time()
            try:
                return work(*args, **kwargs)
            finally:
                spent[label] += time.process_time() - began
                running.discard(label)

        return run

    for label, module_name, attribute in PARTS:
        owner: Any = importlib.import_module(module_name)
        if "." in attribute:
            class_name, attribute = attribute.split(".")
            owner = getattr(owner, class_name)
        setattr(owner, attribute, counted(label, getattr(owner, attribute)))
    import adjudicator.services.selfplay as selfplay

    take = selfplay._take
    taken = [0]

    def counted_from_the_second_batch(*args: Any, **kwargs: Any) -> Any:
        found = take(*args, **kwargs)
        taken[0] += 1
        if taken[0] == 1:  # the first batch makes the game: left out, as the step's figures leave it out
            spent.update(dict.fromkeys(spent, 0.0))
        return found

    selfplay._take = counted_from_the_second_batch  # type: ignore[assignment]
    run = play_archived(seed, turns, seats)
    spent[PARTS[0][0]] -= spent[PARTS[1][0]]  # the password checks are made within the adjudication
    spent["all"] = sum(run["cpu"][1:])
    return {label: cpu / (len(run["cpu"]) - 1) for label, cpu in spent.items()}


def play_in_memory(seed: int, turns: int, seats: int) -> dict[str, Any]:
    """One seeded game in memory (keyed dice); each step's CPU and kind; a digest of the snapshot texts."""
    from adjudicator.engine.chance import turn_dice
    from adjudicator.engine.steps import resolve_step
    from adjudicator.orders import parse_orders
    from adjudicator.rulesets import load_ruleset
    from adjudicator.services.selfplay import header, playable, selfplay_seats, step_rng

    rules, _ = playable(load_ruleset("conqueror-er"))
    bot = rules.bot
    state = rules.initial_state("g", selfplay_seats(rules, seats))
    cpu, kinds, digest = [], [], hashlib.sha256()
    while (step := rules.due(state)) is not None and len(cpu) < turns:
        began = time.process_time()
        rng = step_rng(seed, step.number)
        orders = {}
        for seat in step.seats:
            text = bot.orders(rules, state, seat, header("g", step.number, seat, "x"), rng)
            orders[seat] = parse_orders(text, rules)
        dice = turn_dice(f"bench:{seed}:{step.number}".encode(), str(step.number), b"hidden")
        state = resolve_step(rules, state, step, orders, dice).state
        if rules.broken_invariants(state):
            raise SystemExit(f"step {step.number}: an invariant broke")
        text = rules.snapshot_text(state)
        state = rules.read_stored_snapshot(text)
        cpu.append(time.process_time() - began)
        kinds.append(step.phase)
        digest.update(text.encode())
    return {"cpu": cpu, "kinds": kinds, "digest": digest.hexdigest()}


def child(options: argparse.Namespace) -> None:
    play = play_archived if options.child == "archived" else play_in_memory
    games = [play(options.seed + k, options.turns, options.seats) for k in range(options.games)]
    merged: dict[str, Any] = {"cpu": [], "passwords": [], "kinds": [], "starts": [], "kernel": [], "digest": []}
    for game in games:  # each game's first step holds the start-up and the new game: left out
        for key in ("cpu", "passwords", "kinds", "starts", "kernel"):
            merged[key] += game.get(key, [])[1:]
        merged["digest"].append(game["digest"])
    print(json.dumps(merged))


def figures(run: dict[str, Any]) -> dict[str, float]:
    """One round's figures. The archive resolves a step's automatic followers (taxation, New Year, the end of a
    round) with it, so the CPU of each step taken is given to the first step of its batch: "per step" is all
    the CPU over all the steps; each kind of step is the median of its batches."""
    cpu, kinds, checks = run["cpu"], run["kinds"], run["passwords"]
    starts = run["starts"] or [True] * len(cpu)
    found = {"per step": sum(cpu) / len(cpu)}
    batches: dict[str, list[float]] = {}
    taken: list[float] = []
    for c, k, first in zip(cpu, kinds, starts, strict=True):
        if first or not taken:
            taken = batches.setdefault(k, [])
            taken.append(0.0)
        taken[-1] += c
    for kind, found_cpu in sorted(batches.items()):
        found[f"  {kind} (median of {len(found_cpu)}, with its followers)"] = statistics.median(found_cpu)
    if run.get("kernel"):  # the disk's cost of a new file swings with the machine's load: shown apart
        found["  of which in the kernel"] = sum(run["kernel"]) / len(cpu)
    if checks:
        found["  password checks per step"] = sum(checks) / len(cpu)
        found["per step less password checks"] = (sum(cpu) - sum(checks)) / len(cpu)
    return found


def compare(options: argparse.Namespace) -> None:
    from bench import COMMAND_ENV
    from bench.measure import Call, interleave, load_text

    trees = {"new": HERE}
    if (options.baseline / ".venv/bin/python").exists() and options.baseline.resolve() != HERE:
        trees = {"old": options.baseline, "new": HERE}
    print(
        f"trees: {', '.join(f'{k} {v}' for k, v in trees.items())}; {options.rounds} rounds of {options.games} "
        f"games of {options.seats} seats, at most {options.turns} steps each, seeds from {options.seed}"
    )
    args = ["--games", str(options.games), "--turns", str(options.turns), "--seats", str(options.seats)]
    args += ["--seed", str(options.seed)]

    def run_child(label: str, mode: str) -> dict[str, Any]:
        python = str(trees[label] / ".venv/bin/python")
        command = [python, str(Path(__file__).resolve()), "--child", mode, *args]
        done = subprocess.run(command, capture_output=True, text=True, env=COMMAND_ENV, cwd=trees[label], check=False)
        if done.returncode != 0:
            raise SystemExit(f"{label} {mode}: {done.stderr[-3000:]}")
        return dict(json.loads(done.stdout))

    for mode in options.modes.split(","):
        taken: dict[str, list[dict[str, Any]]] = {label: [] for label in trees}
        measures = {
            label: Call(lambda run, label=label, taken=taken, mode=mode: taken[label].append(run_child(label, mode)))
            for label in trees
        }
        interleave(measures, options.rounds)
        runs = {label: found[1:] for label, found in taken.items()}  # round 0 is the warm-up
        digests = {label: {json.dumps(r["digest"]) for r in found} for label, found in runs.items()}
        same = {d for found in digests.values() for d in found} if not options.outputs_differ else set()
        if len(same) > 1 or any(len(found) != 1 for found in digests.values()):
            raise SystemExit(f"{mode}: the trees' games differ: {digests}")
        print(f"\n{mode} step, CPU ms: medians over {options.rounds} rounds")
        print(load_text())
        rows = {label: [figures(r) for r in found] for label, found in runs.items()}
        names = list(rows["new"][0])
        print(f"{'':52}" + "".join(f"{label:>10}" for label in trees) + ("     ratio" if "old" in trees else ""))
        for name in names:
            line = f"{name:52}"
            for label in trees:
                line += f"{statistics.median(r[name] for r in rows[label]) * 1000:10.1f}"
            if "old" in trees:
                pairs = zip(rows["new"], rows["old"], strict=True)
                line += f"{statistics.median(n[name] / o[name] for n, o in pairs):9.2f}x"
            if not name.startswith(" "):
                got = statistics.median(r[name] for r in rows["new"])
                line += f"  target <= {TARGET * 1000:.0f} ms: {'met' if got <= TARGET else 'NOT met'}"
            print(line)


def print_parts(options: argparse.Namespace) -> None:
    """Where this tree's archived step goes, in a child process per game (the counters slow it a little)."""
    found: list[dict[str, float]] = []
    for k in range(options.games):
        command = [sys.executable, str(Path(__file__).resolve()), "--child", "parts"]
        command += ["--seed", str(options.seed + k), "--turns", str(options.turns), "--seats", str(options.seats)]
        done = subprocess.run(command, capture_output=True, text=True, cwd=HERE, check=False)
        if done.returncode != 0:
            raise SystemExit(f"parts: {done.stderr[-3000:]}")
        found.append(json.loads(done.stdout))
    print(f"\nwhere this tree's archived step goes, CPU ms a step (mean of {options.games} games; counted in process)")
    for label in found[0]:
        print(f"{label:60}{statistics.mean(f[label] for f in found) * 1000:8.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--games", type=int, default=2, help="seeded games a round plays in each tree")
    parser.add_argument("--turns", type=int, default=40, help="steps a game plays at most")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--modes", default="archived,memory", help="archived, memory or both (comma)")
    parser.add_argument("--baseline", type=Path, default=Path("/work/wt-lead"), help="the tree before the change")
    parser.add_argument("--parts", action="store_true", help="also say where this tree's archived step goes")
    parser.add_argument(
        "--outputs-differ",
        action="store_true",
        help="the trees write different files for the same games (a report line added between them): each tree's "
        "games must still be the same in every round",
    )
    parser.add_argument("--child", choices=["archived", "memory", "parts"], default=None)
    options = parser.parse_args()
    if options.child == "parts":
        sys.path.insert(0, str(HERE))
        print(json.dumps(play_parts(options.seed, options.turns, options.seats)))
    elif options.child:
        child(options)
    else:
        compare(options)
        if options.parts:
            print_parts(options)


if __name__ == "__main__":
    sys.exit(main())
