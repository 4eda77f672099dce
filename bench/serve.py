"""Order mails a second through one running `pbem serve` (LMTP), against `pbem ingest` as a mail filter runs it (a
new process a mail), alone and handing its mail to a running `pbem serve`, interleaved round by round with bare
`python -c pass`.

`pbem ingest` rows: Macedonia's 8 orders for turn 13 of the Classic demo game (bench/cli_startup.py's mail, a new
Message-ID each run: password checked, orders stored, receipt queued), as a new process: on the one-shot path (no
listener; with --before also the older tree's), and handed to a `pbem serve` of its archive (its wall time holds the
listener's work; the listener's CPU for it is read from /proc and printed apart).

LMTP rows: every mail is a real order mail for a real Classic game, from one of its three seats in turn, with the
seat's password (scrypt-checked on every mail), stored and answered with a receipt. A round delivers BATCH mails to
each listener through Python's LMTP client: one listener with one worker over one connection, and one with two
workers over two connections at once (a mail server delivers over several). The listeners' CPU time is read from
/proc (the bench's own measure counts only this process and its finished children).

Targets: 10 mails a second or more through one listener; `pbem ingest` of one mail at most 25x bare Python (wall,
the listener's work included). With --imports, first what importing the one-shot path's storage libraries alone
costs a new process (SQLAlchemy Core, its ORM, sqlmodel, the archive, the mailbox service), as ratios to bare Python:
why the one-shot path stays far above 25x whichever of them it kept. Run from the repository root:
    python -m bench.serve [--runs 5] [--batch 10] [--before ../wt-lead] [--imports]
"""

from __future__ import annotations

import argparse
import itertools
import os
import re
import shutil
import smtplib
import statistics
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from email.message import EmailMessage
from pathlib import Path

from bench import COMMAND_ENV
from bench.cli_startup import demo_game, paired_ratio, tree_pbem
from bench.cli_startup import order_mail as demo_mail
from bench.measure import PBEM, Call, Command, interleave, print_load, print_rows

TARGET = 10.0  # mails a second through one listener
INGEST_TARGET = 25.0  # `pbem ingest` of one mail: wall ratio to bare Python
SEATS = {"Macedonia": "mac@example.org", "Egyptus": "egy@example.org", "Hispania": "his@example.org"}
TURNS = {"Macedonia": 1, "Egyptus": 2, "Hispania": 3}  # each seat's coming player-turn in a new game
ORDERS = "BUY 1 INF\n# my orders for this turn\n"


def order_mail(name: str, number: int, passwords: dict[str, str]) -> bytes:
    """An order mail as a mail program sends it, from the seats in turn, with its own Message-ID."""
    seat = list(SEATS)[number % len(SEATS)]
    message = EmailMessage()
    message["From"] = f"{seat} <{SEATS[seat]}>"
    message["To"] = "moderator@example.org"
    message["Subject"] = f"orders {number}"
    message["Message-ID"] = f"<{name}{number}.{seat.lower()}@players.example.org>"
    text = f"GAME bench TURN {TURNS[seat]} PLAYER {seat} PASSWORD {passwords[seat]}\n{ORDERS}"
    message.set_content(f"Hello moderator,\n\n{text}\n-- \n{seat}\n", charset="utf-8", cte="quoted-printable")
    return bytes(message)


def cpu_of(pid: int) -> float:
    """User and system seconds of a running process."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@contextmanager
def listener(data: Path, workers: int) -> Iterator[tuple[int, int]]:
    """A running `pbem serve` on a free port (and on the hand-off socket in `data`): its pid and port."""
    argv = [*PBEM, "serve", "--port", "0", "--workers", str(workers), "--data", str(data)]
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, text=True, env=COMMAND_ENV)
    try:
        first = process.stdout.readline() if process.stdout else ""
        found = re.search(r":(\d+) \(LMTP\)", first)
        if not found:
            raise SystemExit(f"pbem serve did not start: {first}")
        # its printed lines are read away, so that a full pipe never stops it
        threading.Thread(target=lambda: process.stdout and process.stdout.read(), daemon=True).start()
        yield process.pid, int(found.group(1))
    finally:
        process.terminate()
        if process.wait(timeout=60) != 0:
            raise SystemExit("pbem serve did not stop cleanly")


class Deliveries:
    """BATCH mails a round through `connections` LMTP connections to one listener, each mail's reply checked."""

    def __init__(self, name: str, pid: int, port: int, connections: int, batch: int, passwords: dict[str, str]):
        self.name, self.pid, self.batch = name, pid, batch
        self.clients = [smtplib.LMTP("127.0.0.1", port) for _ in range(connections)]
        self.numbers = itertools.count()
        self.passwords = passwords
        self.cpus: list[float] = []  # the listener's CPU seconds a round

    def deliver(self, client: smtplib.LMTP, mails: list[bytes]) -> None:
        for mail in mails:
            refused = client.sendmail("player@example.org", ["moderator@example.org"], mail.replace(b"\n", b"\r\n"))
            if refused:
                raise SystemExit(f"a mail was not taken: {refused}")

    def round(self, run: int) -> None:
        mails = [order_mail(self.name, next(self.numbers), self.passwords) for _ in range(self.batch)]
        shares = [mails[i :: len(self.clients)] for i in range(len(self.clients))]
        before = cpu_of(self.pid)
        senders = [threading.Thread(target=self.deliver, args=pair) for pair in zip(self.clients, shares, strict=True)]
        for sender in senders:
            sender.start()
        for sender in senders:
            sender.join()
        if run:
            self.cpus.append(cpu_of(self.pid) - before)


class HandedBatch:
    """BATCH `pbem ingest` processes a round, two at once (as a mail server runs its filters), each handing its mail
    (the LMTP rows' kind, from the three seats in turn) to the listener: the mails a second a `.forward` set-up takes
    with a listener running."""

    def __init__(self, argv: Callable[[int], list[str]], batch: int) -> None:
        self.argv, self.batch = argv, batch

    def run(self, numbers: list[int]) -> None:
        for number in numbers:
            done = subprocess.run(self.argv(number), capture_output=True, text=True, env=COMMAND_ENV)
            if done.returncode != 0 or "orders stored" not in done.stdout:
                raise SystemExit(f"a handed mail failed (exit {done.returncode}): {done.stdout}{done.stderr}")

    def round(self, run: int) -> None:
        numbers = [1000 * (run + 1) + n for n in range(self.batch)]
        senders = [threading.Thread(target=self.run, args=(numbers[i::2],)) for i in range(2)]
        for sender in senders:
            sender.start()
        for sender in senders:
            sender.join()


IMPORTS = {
    "sqlalchemy (Core)": "import sqlalchemy",
    "sqlalchemy.orm": "import sqlalchemy.orm",
    "sqlmodel": "import sqlmodel",
    "the archive (store.py)": "import adjudicator.archive.store",
    "the mailbox service": "import adjudicator.services.mailbox",
}


def print_imports(runs: int) -> None:
    """What each import alone costs a new process, as ratios to bare Python."""
    measures = {"python -c pass": Command(lambda run: [sys.executable, "-c", "pass"])}
    for label, code in IMPORTS.items():
        measures[f"import {label}"] = Command(lambda run, code=code: [sys.executable, "-c", code])
    figures = interleave(measures, runs=runs, baseline="python -c pass")
    print("imports alone, each a new process:")
    print_load()
    print_rows(figures, ratio="cpu")
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--batch", type=int, default=10, help="mails a round through each listener")
    parser.add_argument(
        "--before", type=Path, help="an older checkout with its own .venv whose one-shot `pbem ingest` is timed too"
    )
    parser.add_argument("--imports", action="store_true", help="first time the storage libraries' imports alone")
    options = parser.parse_args()
    if options.imports:
        print_imports(options.runs)
    if options.runs > 50:  # each demo mail holds a PRESS line, and a seat may send 60 for one turn
        parser.error("at most 50 runs")
    from adjudicator.archive import Archive
    from adjudicator.services.games import NewGameOptions, new_game

    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        data = {kind: folder / kind for kind in ("serve1", "serve2", "batch")}
        passwords = {}
        for kind, where in data.items():
            archive = Archive.in_folder(where)
            passwords[kind] = new_game(archive, where, NewGameOptions("bench", "coe-classic", SEATS)).passwords
            archive.close()
        demo = {kind: folder / kind for kind in ("ingest", "old", "handed")}
        password = demo_game(demo["ingest"])
        for kind in ("old", "handed"):
            shutil.copytree(demo["ingest"], demo[kind])
        files = folder / "mails"
        files.mkdir()

        def ingest(kind: str, pbem: list[str]) -> Command:
            def argv(run: int) -> list[str]:
                return [*pbem, "ingest", str(demo_mail(files, run, password, kind)), "--data", str(demo[kind])]

            return Command(argv, expect="orders stored")

        def batch_argv(number: int) -> list[str]:
            path = files / f"batch-{number}.eml"
            path.write_bytes(order_mail("batch", number, passwords["batch"]))
            return [*tree_pbem(None), "ingest", str(path), "--data", str(data["batch"])]

        with (
            listener(data["serve1"], 1) as one,
            listener(data["serve2"], 2) as two,
            listener(demo["handed"], 2) as (handed_pid, _),
            listener(data["batch"], 2),
        ):
            handed = ingest("handed", tree_pbem(None))
            serial = Deliveries("one", *one, 1, options.batch, passwords["serve1"])
            parallel = Deliveries("two", *two, 2, options.batch, passwords["serve2"])
            measures: dict[str, Command | Call] = {
                "python -c pass": Command(lambda run: [sys.executable, "-c", "pass"]),
                "pbem ingest (1 mail)": ingest("ingest", tree_pbem(None)),
            }
            if options.before:
                measures["old pbem ingest (1 mail)"] = ingest("old", tree_pbem(options.before))
            batch = HandedBatch(batch_argv, options.batch)
            measures |= {
                "pbem ingest, handed (1 mail)": handed,
                f"ingest handed, 2 at once ({options.batch} mails)": Call(batch.round),
                f"serve, 1 worker ({options.batch} mails)": Call(serial.round),
                f"serve, 2 workers ({options.batch} mails)": Call(parallel.round),
            }
            # the listener's first mail loads the ruleset and checks the password with scrypt: not counted
            subprocess.run(handed.argv(-1), capture_output=True, check=True, env=COMMAND_ENV)
            handed_cpu = cpu_of(handed_pid)
            figures = interleave(measures, runs=options.runs, baseline="python -c pass")
            handed_cpu = (cpu_of(handed_pid) - handed_cpu) / (options.runs + 1)  # the warm-up round's mail too
            for client in serial.clients + parallel.clients:
                client.quit()
    print_load()
    print_rows(figures, {"pbem ingest, handed (1 mail)": INGEST_TARGET})
    print("(serve rows: wall time of the batch; their cpu is this client's. The listener's own CPU is below.)")
    for label in ("pbem ingest (1 mail)", "old pbem ingest (1 mail)", "pbem ingest, handed (1 mail)"):
        if label not in figures:
            continue
        got = figures[label]
        print(
            f"{label}: {1 / got.wall:5.1f} mails/s, {got.cpu * 1000:4.0f} ms CPU a mail in its process "
            f"({got.wall_ratio:.1f}x bare python wall, {got.cpu_ratio:.1f}x CPU)"
        )
    if "old pbem ingest (1 mail)" in figures:
        new, old = figures["pbem ingest (1 mail)"], figures["old pbem ingest (1 mail)"]
        print(
            f"  one-shot new / old, round by round (medians): cpu {paired_ratio(new, old, True):.2f}, "
            f"wall {paired_ratio(new, old, False):.2f}"
        )
    got = figures["pbem ingest, handed (1 mail)"]
    print(
        f"  handed: the listener's CPU {handed_cpu * 1000:.0f} ms a mail (mean); both processes "
        f"{(got.cpu + handed_cpu) * 1000:.0f} ms; target wall <= {INGEST_TARGET:g}x bare python: "
        f"{'met' if got.wall_ratio <= INGEST_TARGET else 'NOT met'} ({got.wall_ratio:.1f}x)"
    )
    got = figures[f"ingest handed, 2 at once ({options.batch} mails)"]
    print(f"pbem ingest handed, 2 processes at once: {options.batch / got.wall:5.1f} mails/s")
    ingest_rate = figures["pbem ingest (1 mail)"]
    for deliveries, label in ((serial, "1 worker "), (parallel, "2 workers")):
        got = figures[f"serve, {label.strip()} ({options.batch} mails)"]
        rate = options.batch / got.wall
        cpu = statistics.median(deliveries.cpus) / options.batch
        print(
            f"pbem serve, {label}: {rate:5.1f} mails/s, {cpu * 1000:4.0f} ms listener CPU a mail, "
            f"{rate * ingest_rate.wall:.1f}x pbem ingest's rate; "
            f"target >= {TARGET:g} mails/s: {'met' if rate >= TARGET else 'NOT met'}"
        )
    # what the CPU figures allow where the cores are the listener's own (the wall rates above share them)
    cpu = statistics.median(serial.cpus) / options.batch
    print(
        f"listener CPU a mail {cpu * 1000:.0f} ms: {1 / cpu:.1f} mails/s on one idle core (pbem ingest: "
        f"{1 / ingest_rate.cpu:.1f}); see the load above"
    )


if __name__ == "__main__":
    main()
