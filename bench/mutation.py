"""Mutation run over one rule module with the tests that name its rules (mutmut 3, not a project dependency).

Run from the repository root: python -m bench.mutation MODULE TEST... [--children 2]
e.g. python -m bench.mutation adjudicator/rulesets/conqueror/battle_losses.py tests/test_conqueror_battle.py \
        tests/test_thresholds_conqueror.py
Needs `pip install mutmut` in the venv. The tracked files are copied to a scratch folder (mutmut writes its
mutants/ beside the sources, and the whole package must be copied or the editable install shadows the mutants);
the run prints mutmut's survivors and the surviving share. One module at a time: a run of ~800 mutants takes
3 to 5 minutes on 2 cores.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COPIED = ("adjudicator/", "docs/", "games/", "templates/", "locale/", "grammar/")


def workspace(module: str, tests: list[str]) -> Path:
    """A scratch copy of the tracked files with mutmut's setup.cfg."""
    folder = Path(tempfile.mkdtemp(prefix="pbem-mutation-"))
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, check=True, capture_output=True, text=True).stdout
    for name in tracked.splitlines():
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, target)
    lines = ["[mutmut]", f"paths_to_mutate = {module}", "tests_dir ="]
    lines += [f"    {t}" for t in tests] + ["also_copy ="] + [f"    {c}" for c in COPIED]
    (folder / "setup.cfg").write_text("\n".join(lines) + "\n")
    return folder


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("module")
    parser.add_argument("tests", nargs="+")
    parser.add_argument("--children", type=int, default=2)
    args = parser.parse_args()
    mutmut = shutil.which("mutmut") or str(Path(sys.executable).parent / "mutmut")
    folder = workspace(args.module, args.tests)
    run = subprocess.run(
        [mutmut, "run", "--max-children", str(args.children)], cwd=folder, capture_output=True, text=True
    )
    last = run.stdout.replace("\r", "\n").strip().splitlines()[-2:]
    counts = re.search(r"(\d+)/\1\s+🎉 (\d+) 🫥 (\d+)\s+⏰ (\d+)\s+🤔 (\d+)\s+🙁 (\d+)", " ".join(last))
    survivors = subprocess.run([mutmut, "results"], cwd=folder, capture_output=True, text=True).stdout
    print(survivors)
    if counts is None:
        print(run.stdout[-2000:], run.stderr[-2000:], sep="\n")
        return 1
    total, killed, untested, timeout, suspicious, survived = map(int, counts.groups())
    print(f"{args.module}: {total} mutants, {killed} killed, {survived} survived, {untested} not covered, ", end="")
    print(f"{timeout} timed out; surviving share {survived / total:.1%} (work folder {folder})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
