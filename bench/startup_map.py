"""Where a command's start-up goes: a ladder of imports, each step timed in fresh processes (median of --runs),
then the work of `pbem check --state`, `check --game` and `ingest` after the imports, phase by phase, each phase
timed in a fresh process (cold caches, as a mail filter's command meets them).

Run from the repository root: python -m bench.startup_map [--runs 7]
Both wall and CPU (user + system) times are shown: on a shared machine the CPU time is the steadier; compare the
figures with each other within one run, not across runs.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench import COMMAND_ENV
from bench.cli_startup import ORDERS, SEATS, order_mail, timed_both

# Each step imports what the step before it did, and more: the difference is what the new modules cost.
BASE = "import adjudicator.cli as c, typer.main as t; t.get_command(c.app)"
LADDER = [
    ("python -c pass", "pass"),
    ("+ typer", "import typer"),
    ("+ adjudicator.cli (the command table)", "import adjudicator.cli"),
    ("+ build the click commands", BASE),
    ("+ pydantic, typer._adapters (1st option)", f"{BASE}; import typer._adapters"),
    ("+ adjudicator.services.orders (engine, lark)", f"{BASE}; import typer._adapters, adjudicator.services.orders"),
    (
        "+ jinja2, babel (1st render)",
        f"{BASE}; import typer._adapters, adjudicator.services.orders, jinja2, babel.support",
    ),
    (
        "+ sqlalchemy.orm",
        f"{BASE}; import typer._adapters, adjudicator.services.orders, jinja2, babel.support, sqlalchemy.orm",
    ),
    (
        "+ sqlalchemy dialects sqlite, postgresql",
        f"{BASE}; import typer._adapters, adjudicator.services.orders, jinja2, babel.support, sqlalchemy.orm"
        ", sqlalchemy.dialects.sqlite, sqlalchemy.dialects.postgresql",
    ),
    (
        "+ sqlmodel",
        f"{BASE}; import typer._adapters, adjudicator.services.orders, jinja2, babel.support, sqlalchemy.orm"
        ", sqlalchemy.dialects.sqlite, sqlalchemy.dialects.postgresql, sqlmodel",
    ),
    (
        "+ adjudicator.archive (the table classes)",
        f"{BASE}; import typer._adapters, adjudicator.services.orders, jinja2, babel.support, adjudicator.archive",
    ),
    (
        "+ adjudicator.services.mailbox (mail, email)",
        f"{BASE}; import typer._adapters, adjudicator.services.orders, jinja2, babel.support, adjudicator.archive"
        ", adjudicator.services.mailbox",
    ),
]

# The work of the commands after every import, phase by phase (run by `--phases` in a fresh process).
PHASES = """
import json, sys, time
from pathlib import Path
import typer._adapters, adjudicator.services.orders, adjudicator.archive, adjudicator.services.mailbox
from adjudicator.services import games, mailbox, orders, passwords
from adjudicator.archive import Archive
from adjudicator.mail.sources import from_file
from adjudicator.orders import parse_orders
from adjudicator.rulesets import load_ruleset
folder = Path(sys.argv[1]); data = folder / "data"; kind = sys.argv[2]
times = {}
def lap(name, began):
    now = time.process_time(); times[name] = (now - began) * 1000; return now
t = time.process_time()
if kind == "state":
    ruleset = load_ruleset("coe-classic"); t = lap("load the ruleset (TOML, board)", t)
    parse_orders("GAME b TURN 1 PLAYER Macedonia PASSWORD x\\n", ruleset); t = lap("build the order parser (lark)", t)
    receipt = orders.check_state_orders((folder / "state.json").read_text(), (folder / "orders.txt").read_text())
    t = lap("check the orders (snapshot, parse, rules)", t)
    receipt.text; t = lap("render the receipt (jinja environment, template)", t)
elif kind == "game":
    archive = Archive.in_folder(data); t = lap("open the archive (engine, create_all, schema check)", t)
    with archive.session() as session:
        games.current_game(session, "bench")
    t = lap("read the game (queries, ruleset, snapshot)", t)
    receipt = orders.check_game_orders(archive, "bench", (folder / "orders.txt").read_text())
    t = lap("check the orders (builds the parser; ruleset cached)", t)
    receipt.text; t = lap("render the receipt (jinja environment, template)", t)
else:
    archive = Archive.in_folder(data); t = lap("open the archive (engine, create_all, schema check)", t)
    ((mail, done),) = list(from_file(folder / f"mail-{sys.argv[3]}.eml")); t = lap("read the .eml", t)
    digest = passwords.hash_password("x"); t = lap("one scrypt (n=2**14): the password check", t)
    outcome = mailbox.ingest(archive, mail); t = lap("ingest (incl. its scrypt, queue the receipt)", t)
    assert outcome.reason is mailbox.Reason.ORDERS_STORED, outcome
print(json.dumps(times))
"""


def phases(folder: Path, kind: str, runs: int, mail: list[int]) -> dict[str, float]:
    """Median of each phase over `runs` fresh processes."""
    found: dict[str, list[float]] = {}
    for run in range(runs):
        command = [sys.executable, "-c", PHASES, str(folder), kind, str(mail[0] + run)]
        done = subprocess.run(command, capture_output=True, text=True, check=False, env=COMMAND_ENV)
        if done.returncode:
            raise SystemExit(done.stderr)
        for name, took in json.loads(done.stdout).items():
            found.setdefault(name, []).append(took)
    mail[0] += runs
    return {name: statistics.median(times) for name, times in found.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=7)
    runs = parser.parse_args().runs
    from adjudicator.archive import Archive
    from adjudicator.rulesets import load_ruleset
    from adjudicator.rulesets.coe.state import snapshot_text
    from adjudicator.services.games import NewGameOptions, new_game

    print(
        f"== imports (each line a fresh process, median of {runs}; the step adds what the line names; x: times "
        "python -c pass in this run, by cpu)"
    )
    print(f"{'':48} {'wall':>8} {'cpu':>8} {'x pass':>6}   {'cpu added':>9}")
    before = base = 0.0
    for name, code in LADDER:
        wall, cpu = (t * 1000 for t in timed_both(lambda run, code=code: [sys.executable, "-c", code], runs))
        base = base or cpu
        print(f"{name:48} {wall:5.0f} ms {cpu:5.0f} ms {cpu / base:5.1f}x   {cpu - before:+6.0f} ms")
        before = cpu
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        data = folder / "data"
        initial = load_ruleset("coe-classic").initial_state("bench", list(SEATS))
        (folder / "state.json").write_text(snapshot_text(initial))
        (folder / "orders.txt").write_text(f"GAME bench TURN 1 PLAYER Macedonia PASSWORD x\n{ORDERS}")
        archive = Archive.in_folder(data)
        password = new_game(archive, data, NewGameOptions("bench", "coe-classic", SEATS)).passwords["Macedonia"]
        archive.close()
        for run in range(3 * runs + 2):
            order_mail(folder, run, password)
        mail = [0]
        for kind, title in (("state", "check --state"), ("game", "check --game"), ("ingest", "ingest of 1 mail")):
            print(f"== pbem {title}: the work after the imports (cpu, fresh process each, median of {runs})")
            for phase, took in phases(folder, kind, runs, mail).items():
                print(f"  {phase:58} {took:7.1f} ms {took / base:5.1f}x pass")


if __name__ == "__main__":
    main()
