"""What a tick's report mails cost the archive and `pbem send`, against the old tree: the mails of this tree name
their turn's map and `pbem send` draws it (once per turn and language), where older trees stored a copy of the map
in every mail.

One archive of games with orders and battles (bench/tick.py's), its welcome mails sent, is ticked once by each tree
(each tree's own `pbem tick`); then, interleaved (bench/measure.py), each tree's `pbem send --no-png --eml-dir` of
a fresh copy of its own ticked archive, a new process per run (start-up included, as the moderator's cron pays it).
Printed: the archive's growth per game ticked, the send's CPU and wall per mail (medians, and the CPU ratio taken
round by round), and whether both trees sent the same mails (To, Subject and every part, the maps included,
compared after parsing: the MIME boundaries and Date differ from run to run).

Run from the repository root: python -m bench.send [--games 100] [--positions 25] [--rounds 5] [--old DIR]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import tempfile
from email import policy
from email.parser import BytesParser
from pathlib import Path
from typing import Any

from adjudicator.archive import Archive
from bench import COMMAND_ENV
from bench.measure import Command, interleave, load_text
from bench.tick import HERE, populate_orders, python_of


def pbem(tree: Path, *args: str) -> list[str]:
    """`pbem` of `tree` (its own interpreter, started in its folder, imports its own adjudicator)."""
    return ["env", "-C", str(tree), python_of(tree), "-m", "adjudicator.cli", *args]


def run(argv: list[str]) -> None:
    done = subprocess.run(argv, capture_output=True, text=True, check=False, env=COMMAND_ENV)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed (exit {done.returncode}):\n{done.stdout}{done.stderr}")


def mails(folder: Path) -> dict[str, Any]:
    """The .eml files of a folder by name: To, Subject and every part's type, file name and content."""
    found = {}
    for path in folder.glob("*.eml"):
        message = BytesParser(policy=policy.default).parsebytes(path.read_bytes())
        parts = [
            (p.get_content_type(), p.get_filename(), p.get_content()) for p in message.walk() if not p.is_multipart()
        ]
        found[path.name] = (message["To"], message["Subject"], parts)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--positions", type=int, default=25, help="distinct self-play positions")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--old", type=Path, default=Path("/work/wt-lead"), help="the old tree")
    options = parser.parse_args()
    trees = {"new": HERE, "old": options.old}
    if not options.old.exists():
        raise SystemExit(f"no old tree at {options.old}: give --old")
    with tempfile.TemporaryDirectory(dir=os.environ.get("PBEM_BENCH_DIR")) as scratch_name:
        scratch = Path(scratch_name)
        template = scratch / "template"
        archive = Archive.open(template, None)
        populate_orders(archive, template, options.games, options.positions)
        archive.close()
        run(pbem(HERE, "send", "--no-png", "--eml-dir", str(scratch / "welcomes"), "--data", str(template)))
        before = (template / "archive.sqlite").stat().st_size
        ticked, growth = {}, {}
        for name, tree in trees.items():
            ticked[name] = scratch / f"ticked-{name}"
            shutil.copytree(template, ticked[name])
            run(pbem(tree, "tick", "--data", str(ticked[name])))
            growth[name] = ((ticked[name] / "archive.sqlite").stat().st_size - before) / options.games / 1000

        def send(name: str, run_number: int) -> list[str]:
            copy, out = scratch / f"send-{name}-{run_number}", scratch / f"eml-{name}-{run_number}"
            shutil.rmtree(scratch / f"send-{name}-{run_number - 1}", ignore_errors=True)
            shutil.rmtree(scratch / f"eml-{name}-{run_number - 1}", ignore_errors=True)
            shutil.copytree(ticked[name], copy)
            return pbem(trees[name], "send", "--no-png", "--eml-dir", str(out), "--data", str(copy))

        measures = {
            f"{name} tree: pbem send": Command(lambda r, n=name: send(n, r), " sent, 0 failed") for name in trees
        }
        figures = interleave(measures, runs=options.rounds)
        sent = {name: mails(scratch / f"eml-{name}-{options.rounds}") for name in trees}
    count = len(sent["new"])
    same = sum(sent["new"][key] == sent["old"].get(key) for key in sent["new"])
    print(f"== {options.games} games ticked, {count} mails sent; {options.rounds} rounds, medians; {load_text()}")
    for name in trees:
        got = figures[f"{name} tree: pbem send"]
        print(
            f"{name} tree: the archive grows {growth[name]:6.1f} kB a game ticked; pbem send --no-png: cpu "
            f"{got.cpu * 1000 / count:5.2f} ms a mail ({got.cpu:.2f} s), wall {got.wall * 1000 / count:5.2f} ms a mail"
        )
    ratio = statistics.median(
        n / o for n, o in zip(figures["new tree: pbem send"].cpus, figures["old tree: pbem send"].cpus, strict=True)
    )
    print(f"new / old: archive growth {growth['new'] / growth['old']:.2f}, send cpu {ratio:.2f} (round by round)")
    print(f"the same mails from both trees (To, Subject, every part): {same} of {count}")


if __name__ == "__main__":
    main()
