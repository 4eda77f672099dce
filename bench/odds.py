"""Exact battle odds (`pbem odds`): the computing time of each battle below, and what a `pbem odds` command costs
as a process, each against the tree before the change (--baseline, default /work/wt-lead), interleaved.

Computing: each battle in a fresh process per tree and round (the dice tables one battle fills would flatter
the next), the data loaded before the clock starts; "first" is the first call in that process (what one
`pbem odds` command computes), "median" the median of --repeat calls after it; both CPU time. Each tree's odds
must be the same numbers: a difference stops the bench. Targets: CoE battles of 20 v 20 under 50 ms on the
first call; conqueror-er 10 v 8 units with a large fort (144 paths of the dice) at most 20 ms.

Process: `pbem odds --ruleset conqueror-er` of that battle and `pbem --help`, each tree's, against bare Python,
all interleaved (start-up paid as the user pays it); the line "odds over --help" is the CPU a conqueror-er odds
command costs beyond the CLI's own start-up.

Run from the repository root: python -m bench.odds [--rounds 5] [--repeat 9] [--baseline /work/wt-lead]
A round runs every measure once, old and new in turn; the figures are medians over the rounds, with the load.

The child mode (--case N) runs with either tree's Python as a script, so it imports nothing from bench/.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent
CONQUEROR_ATTACKER, CONQUEROR_DEFENDER = "4 CAV 4 INF 2 ARCHER", "4 INF 2 ARCHER 2 CAV LARGE FORT"
COE_TARGET = 0.050  # seconds, first call, every CoE battle
CONQUEROR_TARGET = 0.020  # seconds, the conqueror-er battle


def cases() -> list[tuple[str, Callable[[], Any], Callable[[Any], list[str]]]]:
    """(name, the computation, its figures as exact texts) for every battle; imports in the child only."""
    from adjudicator.rulesets.coe.odds import land_odds, naval_odds
    from adjudicator.rulesets.conqueror.odds import ConquerorOdds, battle_odds

    retreats = (
        {"losses": ["cavalry"], "retreat": [{"from": None, "condition": "units_below", "threshold": 6, "to": []}]},
        {
            "battlelegion": ["cavalry"],
            "retreat": [{"from": None, "condition": "below_enemy", "threshold": None, "to": []}],
        },
    )
    mixed = (
        {"infantry": 10, "cavalry": 7, "catapult": 3, "leaders": 2},
        {"infantry": 12, "cavalry": 6, "catapult": 2, "leaders": 1, "fortified": True},
    )
    plain = ({"infantry": 20, "leaders": 1}, {"infantry": 20, "leaders": 1})
    big = (
        {"infantry": 8, "cavalry": 8, "catapult": 4, "leaders": 5},
        {"infantry": 8, "cavalry": 8, "catapult": 4, "leaders": 5},
    )

    def coe(odds: Any) -> list[str]:
        return [str(odds.attacker_wins), str(odds.states)]

    def conqueror(odds: Any) -> list[str]:
        losses = sorted((k, str(v)) for k, v in odds.expected_losses.items())
        return [str(odds.attacker_wins), str(odds.defender_wins), str(odds.tie), str(losses), str(odds.branches)]

    forces = ConquerorOdds().read_forces(None, CONQUEROR_ATTACKER, CONQUEROR_DEFENDER, False)
    found: list[tuple[str, Callable[[], Any], Callable[[Any], list[str]]]] = [
        (
            "conqueror-er 10 v 8 units, large fort",
            lambda: battle_odds(forces.battle, {}),
            conqueror,
        )
    ]
    for ruleset in ("coe-classic", "coe-1984"):
        found += [
            (f"{ruleset} land 20 INF vs 20 INF", lambda r=ruleset: land_odds(r, *plain), coe),
            (f"{ruleset} land 20 mixed v 20 mixed, fortified", lambda r=ruleset: land_odds(r, *mixed), coe),
            (f"{ruleset} land 20 v 20, 5 leaders each", lambda r=ruleset: land_odds(r, *big), coe),
            (
                f"{ruleset} land 20 v 20, standing orders",
                lambda r=ruleset: land_odds(r, *mixed, retreats[0], retreats[1]),
                coe,
            ),
        ]
    found += [
        ("coe-classic naval 8 v 8 galleys", lambda: naval_odds("coe-classic", 8, 8), coe),
        (
            "coe-classic naval 8 v 8, 20 units aboard each",
            lambda: naval_odds(
                "coe-classic",
                [{"infantry": 3, "cavalry": 2, "generals": 1}] * 4 + [{}] * 4,
                [{"infantry": 4, "cavalry": 1, "generals": 1}] * 4 + [{}] * 4,
            ),
            coe,
        ),
        ("coe-1984 naval 6 v 6 galleys", lambda: naval_odds("coe-1984", 6, 6), coe),
        (
            "coe-1984 naval 6 v 6, 20 units aboard each",
            lambda: naval_odds(
                "coe-1984",
                [{"infantry": 3, "cavalry": 1, "generals": 1}] * 4
                + [{"infantry": 2, "cavalry": 1, "catapult": 1, "generals": 1}] * 2,
                [{"infantry": 3, "cavalry": 1, "catapult": 1, "generals": 1}] * 2
                + [{"infantry": 4, "cavalry": 1, "generals": 1}] * 2
                + [{}] * 2,
            ),
            coe,
        ),
    ]
    return found


def time_case(index: int, repeat: int) -> dict[str, Any]:
    """In this process: case `index`'s first call, then the median of `repeat` calls, CPU seconds."""
    from adjudicator.rulesets import load_ruleset

    load_ruleset("coe-classic"), load_ruleset("coe-1984")  # data files: not part of the computation
    name, run, figures = cases()[index]
    times = []
    for _ in range(1 + max(1, repeat)):
        began = time.process_time()
        odds = run()
        times.append(time.process_time() - began)
    return {"name": name, "first": times[0], "median": statistics.median(times[1:]), "odds": figures(odds)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=9, help="calls after the first, in each process")
    parser.add_argument("--baseline", type=Path, default=Path("/work/wt-lead"), help="the tree before the change")
    parser.add_argument("--only", default="", help="time only the battles whose name holds this text")
    parser.add_argument("--case", type=int, default=None, help="child: time this case (by index), print JSON")
    options = parser.parse_args()
    if options.case is not None:
        print(json.dumps(time_case(options.case, options.repeat)))
        return
    compare(options)


def compare(options: argparse.Namespace) -> None:
    from bench import COMMAND_ENV
    from bench.measure import Call, Command, Figures, interleave, load_text, print_rows

    trees = {"new": HERE}
    if (options.baseline / ".venv/bin/python").exists() and options.baseline.resolve() != HERE:
        trees = {"old": options.baseline, "new": HERE}
    python = {label: str(tree / ".venv/bin/python") for label, tree in trees.items()}
    print(f"trees: {', '.join(f'{k} {v}' for k, v in trees.items())}; {options.rounds} rounds")

    def child(label: str, index: int) -> dict[str, Any]:
        command = [python[label], str(Path(__file__).resolve()), "--case", str(index), "--repeat", str(options.repeat)]
        done = subprocess.run(command, capture_output=True, text=True, check=True, env=COMMAND_ENV, cwd=trees[label])
        return dict(json.loads(done.stdout))

    names = [name for name, _, _ in cases()]
    chosen = [i for i, name in enumerate(names) if options.only in name]
    taken: dict[tuple[str, int], list[dict[str, Any]]] = {(label, i): [] for label in trees for i in chosen}
    measures = {
        f"{label} {i}": Call(lambda run, label=label, i=i: taken[(label, i)].append(child(label, i)))
        for i in chosen
        for label in trees
    }
    interleave(measures, options.rounds)
    print(load_text())
    print(f"\ncomputing, CPU ms (fresh process per round; median of {options.repeat} calls after the first)")
    print(f"{'battle':48} {'tree':4} {'first':>8} {'median':>8} {'ratio':>6}  target")
    for i in chosen:
        runs = {label: taken[(label, i)][1:] for label in trees}  # round 0 is the warm-up
        answers = {label: {json.dumps(r["odds"]) for r in found} for label, found in runs.items()}
        if len({a for found in answers.values() for a in found}) != 1:
            raise SystemExit(f"{names[i]}: the trees' odds differ: {answers}")
        target = CONQUEROR_TARGET if names[i].startswith("conqueror") else COE_TARGET
        for label, found in runs.items():
            first = statistics.median(r["first"] for r in found)
            median = statistics.median(r["median"] for r in found)
            ratio = ""
            if "old" in runs and label == "new":
                pairs = zip(found, runs["old"], strict=True)
                ratio = f"{statistics.median(n['median'] / o['median'] for n, o in pairs):5.2f}x"
            judged = max(first, median)
            verdict = f"<= {target * 1000:.0f} ms: {'met' if judged <= target else 'NOT met'}"
            print(f"{names[i]:48} {label:4} {first * 1000:8.1f} {median * 1000:8.1f} {ratio:>6}  {verdict}")

    odds_args = ["odds", "--ruleset", "conqueror-er", "--attacker", CONQUEROR_ATTACKER]
    odds_args += ["--defender", CONQUEROR_DEFENDER]
    processes: dict[str, Command | Call] = {"bare python": Command(lambda run: [sys.executable, "-c", "pass"])}
    for label in trees:
        cli = [str(trees[label] / ".venv/bin/pbem")]  # by its path: the tree's own package, as installed
        processes[f"{label} pbem --help"] = Command(lambda run, cli=cli: [*cli, "--help"])
        processes[f"{label} pbem odds conqueror-er"] = Command(lambda run, cli=cli: [*cli, *odds_args], "attacker")
    rows: dict[str, Figures] = interleave(processes, options.rounds, baseline="bare python")
    print(f"\n`pbem odds --ruleset conqueror-er --attacker '{CONQUEROR_ATTACKER}' --defender '{CONQUEROR_DEFENDER}'`")
    print(load_text())
    print_rows(rows, ratio="cpu")
    for label in trees:
        odds, helped = rows[f"{label} pbem odds conqueror-er"].cpus, rows[f"{label} pbem --help"].cpus
        extra = statistics.median(o - h for o, h in zip(odds, helped, strict=True))
        print(f"{label} odds over --help: {extra * 1000:.0f} ms CPU (median of the rounds' differences)")


if __name__ == "__main__":
    main()
