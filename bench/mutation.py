"""Mutation run over one rule module with the tests that name its rules (mutmut 3, not a project dependency).

Run from the repository root: python -m bench.mutation MODULE [TEST...] [--children 2] [--show]
e.g. python -m bench.mutation adjudicator/rulesets/conqueror/battle_losses.py
(without TEST, the module's tests in TESTS below). Needs `pip install mutmut` in the venv (3.8 made the figures
below). The tracked files are copied to a scratch folder (mutmut writes its mutants/ beside the
sources, and the whole package must be copied or the editable install shadows the mutants); the run prints the
survivors and the surviving share. Mutants in EQUIVALENT cannot change what the module does: they are listed
with why, and counted neither as survivors nor in the total. --show prints each survivor's diff.

`--again FOLDER` runs again, in the work folder of an earlier run, only the mutants that survived it, with the
test files as they are now (tests were added, the module was not changed: a killed mutant stays killed).

One module at a time: a run of ~800 mutants takes 3 to 25 minutes on 2 shared cores (rounds.py is the slow one).

Surviving share (survivors / mutants less the equivalent ones), before and after the threshold tests:
    conqueror/battle_losses.py  9.9% (78/789)                      no new tests
    conqueror/rounds.py        20.2% (177/876)  ->  2.1% (18/842)
    conqueror/politics.py      41.9% (491/1171) ->  8.0% (93/1157)
    conqueror/purchases.py     13.0% (30/230)   ->  0.0% (0/223)
    coe/economy.py             24.0% (253/1055) ->  3.9% (41/1055)
    coe/battle.py              14.8% (151/1017) ->  8.5% (86/1017)
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COPIED = ("adjudicator/", "docs/", "games/", "templates/", "locale/", "grammar/")

# The test files that name each module's rules (the threshold files pin the numbers and comparisons).
CONQUEROR = "adjudicator/rulesets/conqueror/"
COE = "adjudicator/rulesets/coe/"
TESTS: dict[str, tuple[str, ...]] = {
    f"{CONQUEROR}battle_losses.py": ("tests/test_conqueror_battle.py", "tests/test_thresholds_conqueror.py"),
    f"{CONQUEROR}rounds.py": (
        "tests/test_conqueror_setup.py",
        "tests/test_conqueror_final_scores.py",
        "tests/test_conqueror_rules_more.py",
        "tests/test_conqueror_rules_rest.py",
        "tests/test_thresholds_conqueror.py",
        "tests/test_thresholds_conqueror_rounds.py",
    ),
    f"{CONQUEROR}politics.py": (
        "tests/test_conqueror_politics.py",
        "tests/test_thresholds_conqueror.py",
        "tests/test_thresholds_conqueror_politics.py",
    ),
    f"{CONQUEROR}purchases.py": (
        "tests/test_conqueror_purchases.py",
        "tests/test_thresholds_conqueror.py",
        "tests/test_thresholds_conqueror_purchases.py",
    ),
    f"{COE}economy.py": (
        "tests/test_coe_classic_rules.py",
        "tests/test_coe_1984_economy.py",
        "tests/test_coe_classic_general.py",
        "tests/test_thresholds_coe.py",
        "tests/test_thresholds_coe_economy.py",
    ),
    f"{COE}battle.py": (
        "tests/test_coe_classic_battles.py",
        "tests/test_coe_1984_battles.py",
        "tests/test_thresholds_coe.py",
        "tests/test_thresholds_coe_battle.py",
    ),
}

# Mutants that cannot change behaviour (mutmut's name without the module prefix -> why). Names are stable while
# the module's text is: re-read this list when the module changes.
EQUIVALENT: dict[str, dict[str, str]] = {
    f"{CONQUEROR}battle_losses.py": {},
    f"{CONQUEROR}rounds.py": {
        **dict.fromkeys(
            ("x_hourglass_holder__mutmut_25", "x_hourglass_holder__mutmut_29", "x_hourglass_holder__mutmut_30"),
            "the hourglass is always a seat (setup.py, ER-3.9), so the branch for a holder outside the seating "
            "never runs",
        ),
        "x_hourglass_holder__mutmut_36": "seating[: start + 2] only repeats the seat clockwise's first place "
        "already holds, and the first tied seat is taken",
        **dict.fromkeys(
            ("x_play_new_year__mutmut_28", "x_play_new_year__mutmut_31"),
            "the game resolves New Year with no wishes (game.py, ER-14.3): ORDER is applied by the plans step",
        ),
        **dict.fromkeys(
            [f"x_play_new_year__mutmut_{n}" for n in (65, 66, *range(69, 89))],
            "the game resolves New Year with no dynasty triggers (game.py, ER-14.4): DYNASTY is applied by the "
            "plans step, so this branch's body never runs",
        ),
        **dict.fromkeys(
            ("x_play_end_of_round__mutmut_19", "x_play_end_of_round__mutmut_56", "x_eliminate__mutmut_32"),
            "Event(kind, seat) without data has the same empty data {} (its default)",
        ),
        **dict.fromkeys(
            ("x_best_by_score__mutmut_4", "x_best_by_score__mutmut_6", "x_best_by_score__mutmut_7"),
            "scores always hold every seat compared (final_scores of the seats in play), so the default of "
            "scores.get is never used",
        ),
    },
    f"{CONQUEROR}politics.py": dict.fromkeys(
        [f"x_play_politics__mutmut_{n}" for n in (4, 6, 9, 11, 18, 20, 36, 38, 46, 48, 63, 65, 95, 97)],
        "the plans step gives play_politics every seat in play in `given` and in `results` (plans.py), so the "
        "defaults of given.get and results.setdefault are never used",
    ),
    f"{CONQUEROR}purchases.py": {
        **dict.fromkeys(
            ("x_buying_order__mutmut_5", "x_buying_order__mutmut_9"),
            "the hourglass is always a seat (setup.py, ER-3.9), so the branch for a start player outside the "
            "seating never runs",
        ),
        **dict.fromkeys(
            ("x__elsewhere__mutmut_12", "x__elsewhere__mutmut_14", "x_buy__mutmut_16", "x_buy__mutmut_42"),
            "keyword names are read case-blind (orders/keywords.py: written, in_english)",
        ),
        "x__noted__mutmut_3": "every verdict on a BUY line has a reason (the price paid, or the refusal's), so the "
        "note without one is never used",
    },
    f"{COE}economy.py": {},
    f"{COE}battle.py": {},
}


def workspace(module: str, tests: list[str]) -> Path:
    """A scratch copy of the tracked files (and test files not yet committed) with mutmut's setup.cfg."""
    folder = Path(tempfile.mkdtemp(prefix="pbem-mutation-"))
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, check=True, capture_output=True, text=True).stdout
    for name in [*tracked.splitlines(), *tests]:
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, target)
    configure(folder, module, tests)
    return folder


def configure(folder: Path, module: str, tests: list[str]) -> None:
    """mutmut's setup.cfg: the module, and the tests it runs against each mutant."""
    # -n 0: mutmut records which tests reach each function in its own process, which xdist workers are not
    lines = ["[mutmut]", f"source_paths = {module}", "pytest_add_cli_args = -n 0"]
    lines += ["pytest_add_cli_args_test_selection ="] + [f"    {t}" for t in tests]
    lines += ["also_copy ="] + [f"    {c}" for c in COPIED]
    (folder / "setup.cfg").write_text("\n".join(lines) + "\n")


def statuses(mutmut: str, folder: Path) -> dict[str, str]:
    """Every mutant's status (killed, survived, no tests, timeout, ...) as `mutmut results --all` gives it."""
    out = subprocess.run([mutmut, "results", "--all", "true"], cwd=folder, capture_output=True, text=True).stdout
    found = {}
    for line in out.splitlines():
        name, _, status = line.strip().partition(": ")
        if status:
            found[name] = status
    return found


def again(mutmut: str, folder: Path, module: str, tests: list[str], children: int) -> subprocess.CompletedProcess[str]:
    """Copy the current test files into an earlier run's folder and run its survivors again with `tests`."""
    configure(folder, module, tests)
    shutil.copy2(folder / "setup.cfg", folder / "mutants" / "setup.cfg")
    for copy in (folder, folder / "mutants"):
        for test in (ROOT / "tests").glob("*.py"):
            shutil.copy2(test, copy / "tests" / test.name)
    (folder / "mutants" / "mutmut-stats.json").unlink(missing_ok=True)  # new tests: which functions they reach
    names = [n for n, s in statuses(mutmut, folder).items() if s == "survived"]
    return subprocess.run(
        [mutmut, "run", "--max-children", str(children), *names], cwd=folder, capture_output=True, text=True
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("module")
    parser.add_argument("tests", nargs="*")
    parser.add_argument("--children", type=int, default=2)
    parser.add_argument("--again", type=Path, help="an earlier run's work folder: run its survivors again")
    parser.add_argument("--show", action="store_true", help="print each survivor's diff")
    args = parser.parse_args()
    mutmut = shutil.which("mutmut") or str(Path(sys.executable).parent / "mutmut")
    tests = args.tests or [t for t in TESTS[args.module] if (ROOT / t).exists()]
    if args.again:
        folder = args.again
        run = again(mutmut, folder, args.module, tests, args.children)
    else:
        folder = workspace(args.module, tests)
        run = subprocess.run(
            [mutmut, "run", "--max-children", str(args.children)], cwd=folder, capture_output=True, text=True
        )
    found = statuses(mutmut, folder)
    if not found:
        print(run.stdout[-2000:], run.stderr[-2000:], sep="\n")
        return 1
    prefix = args.module.removesuffix(".py").replace("/", ".") + "."
    equivalent = EQUIVALENT.get(args.module, {})
    for name, why in sorted(equivalent.items()):
        print(f"equivalent {name} ({found.get(prefix + name, 'not found')}): {why}")
    counted = {n: s for n, s in found.items() if n.removeprefix(prefix) not in equivalent}
    survivors = sorted(n for n, s in counted.items() if s == "survived")
    for name in survivors:
        print(f"survived {name.removeprefix(prefix)}")
        if args.show:
            print(subprocess.run([mutmut, "show", name], cwd=folder, capture_output=True, text=True).stdout)
    tally = Counter(counted.values())
    total, survived = len(counted), tally["survived"]
    print(f"{args.module}: {total} mutants ({len(equivalent)} equivalent left out), {tally['killed']} killed, ", end="")
    print(f"{survived} survived, {tally['no tests']} not covered, {tally['timeout']} timed out; ", end="")
    print(f"surviving share {survived / total:.1%} (work folder {folder})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
