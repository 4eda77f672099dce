"""Where a command's start-up goes: a ladder of imports, each step a fresh process interleaved with bare
`python -c pass` in every round (bench/measure.py), then the work of `pbem check --state`, `check --game` and
`ingest` after the imports, phase by phase, each phase timed (CPU) in a fresh process, on the inputs of
bench/cli_startup.py (the demo game at turn 12 and Macedonia's 8 orders for turn 13).

Run from the repository root: python -m bench.startup_map [--runs 7]
Compare the figures with each other within one run, not across runs: the machine is shared.
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
from bench.cli_startup import demo_game, order_mail, order_text
from bench.measure import Command, interleave, print_load

# Each step imports what the step before it did, and more: the difference is what the new modules cost.
CLI = "import adjudicator.cli as c; c.only_command(['check'])"
STEPS = [
    ("typer", "import typer"),
    ("+ adjudicator.cli, the check command built", CLI),
    ("+ adjudicator.services.orders (engine, lark)", "import adjudicator.services.orders"),
    ("+ the coe ruleset loaded", "import adjudicator.rulesets as r; r.load_ruleset('coe-classic')"),
    ("+ jinja2, babel (1st render)", "import jinja2, babel.support"),
    ("+ sqlalchemy.orm", "import sqlalchemy.orm"),
    ("+ sqlmodel", "import sqlmodel"),
    ("+ adjudicator.archive.store (the table classes)", "import adjudicator.archive.store"),
    ("+ adjudicator.services.mailbox (mail, email)", "import adjudicator.services.mailbox"),
]
LADDER = [(name, "; ".join(code for _, code in STEPS[: i + 1])) for i, (name, _) in enumerate(STEPS)]

# The work of the commands after every import, phase by phase (in a fresh process each).
PHASES = """
import json, sys, time
from pathlib import Path
import adjudicator.cli, adjudicator.services.orders, adjudicator.archive.store, adjudicator.services.mailbox
import jinja2, babel.support
from adjudicator.services import mailbox, orders, passwords
from adjudicator.archive import Archive, lean
from adjudicator.mail.sources import from_file
from adjudicator.orders import parse_orders
from adjudicator.rulesets import load_ruleset
folder = Path(sys.argv[1]); data = folder / "data"; kind = sys.argv[2]
times = {}
def lap(name, began):
    now = time.process_time(); times[name] = (now - began) * 1000; return now
t = time.process_time()
text = (folder / "orders.txt").read_text()
if kind == "state":
    ruleset = load_ruleset("coe-classic"); t = lap("load the ruleset (TOML, board)", t)
    parse_orders("GAME b TURN 1 PLAYER Macedonia PASSWORD x\\n", ruleset); t = lap("build the order parser (lark)", t)
    receipt = orders.check_state_orders((folder / "state.json").read_text(), text)
    t = lap("check the orders (snapshot, parse, rules)", t)
    receipt.text; t = lap("render the receipt (jinja environment, template)", t)
elif kind == "game":
    found = lean.current_game(data, "demo"); t = lap("read the game (sqlite3)", t)
    ruleset = load_ruleset(found.ruleset); t = lap("load the ruleset (TOML, board)", t)
    parse_orders("GAME b TURN 1 PLAYER Macedonia PASSWORD x\\n", ruleset); t = lap("build the order parser (lark)", t)
    receipt = orders.check_stored_orders(data, None, "demo", text)
    t = lap("check the orders (snapshot, parse, rules)", t)
    receipt.text; t = lap("render the receipt (jinja environment, template)", t)
else:
    archive = Archive.in_folder(data); t = lap("open the archive (engine, create_all, schema check)", t)
    ((mail, done),) = list(from_file(folder / f"mail-{sys.argv[3]}.eml")); t = lap("read the .eml", t)
    ruleset = load_ruleset("coe-classic"); t = lap("load the ruleset (TOML, board)", t)
    parse_orders("GAME b TURN 1 PLAYER Macedonia PASSWORD x\\n", ruleset); t = lap("build the order parser (lark)", t)
    passwords.hash_password("x"); t = lap("one scrypt (n=2**14): the password check", t)
    outcome = mailbox.ingest(archive, mail); t = lap("ingest (its scrypt, queries, store, queue the receipt)", t)
    assert outcome.reason is mailbox.Reason.ORDERS_STORED, outcome
print(json.dumps(times))
"""


def phases(folder: Path, kind: str, runs: int, mail: list[int]) -> dict[str, float]:
    """Median CPU ms of each phase over `runs` fresh processes."""
    found: dict[str, list[float]] = {}
    for _ in range(runs):
        command = [sys.executable, "-c", PHASES, str(folder), kind, str(mail[0])]
        mail[0] += 1
        done = subprocess.run(command, capture_output=True, text=True, check=False, env=COMMAND_ENV)
        if done.returncode:
            raise SystemExit(done.stderr)
        for name, took in json.loads(done.stdout).items():
            found.setdefault(name, []).append(took)
    return {name: statistics.median(times) for name, times in found.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=7)
    runs = parser.parse_args().runs
    measures = {"python -c pass": Command(lambda run: [sys.executable, "-c", "pass"])}
    measures |= {name: Command(lambda run, code=code: [sys.executable, "-c", code]) for name, code in LADDER}
    rows = interleave(measures, runs, baseline="python -c pass")
    print(f"== imports (each line a fresh process, {runs} rounds interleaved; the step adds what its line names)")
    print_load()
    print(f"{'':50} {'wall':>8} {'cpu':>8} {'x pass':>6}   {'cpu added':>9}")
    before = 0.0
    for name, got in rows.items():
        cpu = got.cpu * 1000
        print(f"{name:50} {got.wall * 1000:5.0f} ms {cpu:5.0f} ms {got.cpu_ratio:5.1f}x   {cpu - before:+6.0f} ms")
        before = cpu
    base = rows["python -c pass"].cpu * 1000
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        data = folder / "data"
        password = demo_game(data)
        (folder / "state.json").write_text((data / "games" / "demo" / "turn-0012" / "snapshot.json").read_text())
        (folder / "orders.txt").write_text(order_text(password))
        for run in range(runs):
            order_mail(folder, run, password)
        mail = [0]
        for kind, title in (("state", "check --state"), ("game", "check --game"), ("ingest", "ingest of 1 mail")):
            print(f"== pbem {title}: the work after the imports (cpu, fresh process each, median of {runs})")
            for phase, took in phases(folder, kind, runs, mail if kind == "ingest" else [0]).items():
                print(f"  {phase:58} {took:7.1f} ms {took / base:5.1f}x pass")
    print_load()


if __name__ == "__main__":
    main()
