"""`pbem verify --from-reports` as a player runs it at a game's end: a new process per run, on one seat's mails of a
whole demo game (which carry the game's record, so that every report in them is rendered again from it) and on the
game's whole site, interleaved with bare Python; with --old, also the same check of an older tree.

Targets (CPU time, which swings less than wall time on this shared machine; wall is printed too):
  one seat's mails of a whole game: at most 2 s
  a whole site: at most 2 s

The demo games are played once into --data (`pbem demo`, with new dice each time they are made) and reused while
the code is of the same release (resources.release(): a check compares only texts its own release wrote).

Run from the repository root:
    python -m bench.verify_reports --data /tmp/pbem-bench-reports [--runs 7] [--old /path/to/old/.venv/bin/python]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

from adjudicator.resources import release
from bench.measure import PBEM, Command, interleave, print_load, print_rows

GAMES = {"conqueror-er": "aurel", "empires-aw": "red"}  # ruleset -> the seat whose mails are checked
TARGET_S = 2.0


def build(data: Path, ruleset: str, seat: str) -> tuple[Path, Path]:
    """(the seat's kept mails, the game's site) of a whole demo game in data/RULESET, played now unless there."""
    folder = data / ruleset
    kept, site = folder / f"kept-{seat}", folder / "site"
    made = folder / "release.txt"  # the check compares only texts of its own release: a game of another is played anew
    if not kept.exists() or not made.is_file() or made.read_text(encoding="utf-8") != release():
        shutil.rmtree(folder, ignore_errors=True)
        print(f"playing the {ruleset} demo into {folder}", file=sys.stderr)
        subprocess.run([*PBEM, "demo", "--ruleset", ruleset, "--data", str(folder)], check=True, capture_output=True)
        kept.mkdir()
        for mail in (folder / "mail").glob(f"*-{seat}@*.eml"):
            shutil.copy(mail, kept / mail.name)
        made.write_text(release(), encoding="utf-8")
    return kept, site


def check(python: list[str], folder: Path) -> Command:
    # a check that passes (exit 0) and compared the texts with the record, not one that only noted another release
    return Command(lambda run: [*python, "verify", "--from-reports", str(folder)], expect="are the record's")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, required=True, help="folder of the demo games (made, then reused)")
    parser.add_argument("--runs", type=int, default=7, help="rounds of the interleaved loop (default 7)")
    parser.add_argument("--old", default="", help="an older tree's Python, to time its check of the same folders")
    args = parser.parse_args(argv)
    old = [args.old, "-P", "-m", "adjudicator.cli"] if args.old else []
    measures: dict[str, Command] = {"bare python": Command(lambda run: [sys.executable, "-c", "pass"])}
    for ruleset, seat in GAMES.items():
        kept, site = build(args.data, ruleset, seat)
        for what, folder in ((f"{seat}'s mails", kept), ("site", site)):
            measures[f"{ruleset} {what}"] = check(PBEM, folder)
            if old:
                measures[f"{ruleset} {what} old"] = check(old, folder)
    rows = interleave(measures, args.runs, baseline="bare python")
    print_load()
    print_rows(rows)
    for name, got in rows.items():
        if name != "bare python" and not name.endswith(" old"):
            print(
                f"{name}: {got.cpu:.2f} s CPU (target <= {TARGET_S:g} s: {'met' if got.cpu <= TARGET_S else 'NOT met'})"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
