"""`pbem tick` over many games due at once (deadline passed), as a moderator's cron pays it: games with orders and
battles first (copies of self-play positions in which the due seat's bot orders march into enemy armies), the
empty-turn figure after it on request.

One archive is made once (by this tree) and every run ticks a fresh copy of it, with this tree and with the old
tree (--old, default /work/wt-lead) in turn, interleaved (bench/measure.py), for several rounds:
- the tick in a process (bench/tick_worker.py): CPU (with its user and system parts: the system's is mostly the file
  system making the turns' files and the journal) and wall per game of the tick alone, and commits per game counted
  with an SQLAlchemy event (all, and those that changed rows: each waits for the disk), and the SQL statements a game;
- the whole `pbem tick` as a new process, start-up included, per game;
- the disk's commit floor: one small row committed at a time with the archive's settings (rollback journal, or WAL
  with synchronous=FULL), on the same disk, in the same rounds;
- this tree with the archive in WAL mode (PBEM_SQLITE_JOURNAL=wal), against the WAL floor.
Medians; the load is printed with the figures, and whether each target is met.

Targets: at most 10 ms CPU a game (the tick in a process); one commit a game; wall a game at most 1.5 times the
commit floor measured in the same run.

Run from the repository root: python -m bench.tick [--games 200] [--positions 50] [--rounds 5] [--old DIR] [--empty]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sqlite3
import statistics
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlmodel import Session, select

from adjudicator.archive import Archive
from adjudicator.archive.models import GameRow, OrderSetRow, SeatRow, TurnRow
from adjudicator.engine.chance import chain_checkpoints
from adjudicator.rulesets import load_ruleset
from adjudicator.rulesets.coe.bot import BATTLE_EVENTS, play_game, random_orders, seats_in_play, turn_rng
from adjudicator.rulesets.coe.state import GameState, snapshot_text
from adjudicator.services.deadlines import tick
from adjudicator.services.game_reads import checkpoints_text, game_folder
from adjudicator.services.games import NewGameOptions, new_game
from adjudicator.services.orders import submit
from bench.measure import Call, Command, Figures, interleave, load_text

RULESET = "coe-classic"
SEATS = {"Macedonia": "mac@example.org", "Egyptus": "egy@example.org", "Hispania": "his@example.org"}
TARGET_CPU = 10.0  # ms of CPU a game, the tick in a process
TARGET_COMMITS = 1.0  # commits a game
TARGET_FLOOR = 1.5  # wall a game, as a multiple of the disk's commit floor
POSITIONS = 50  # distinct self-play positions the games with battles are copied from
HERE = Path(__file__).resolve().parent.parent
FLOOR_COMMITS = 20


@dataclass
class Position:
    """A self-play position, its due seat and the bot's random stream for that seat's orders (which fought)."""

    state: GameState
    seat: str
    seed: int
    number: int


def battle_positions(count: int, seats: list[str]) -> list[Position]:
    """`count` positions from self-play games (one or two from each, after the opening) where the due seat's bot
    orders led to at least one battle."""
    found: list[Position] = []
    seed = 0
    while len(found) < count:
        seed += 1
        game = play_game(RULESET, seats, seed, max_turns=40)
        states = game.states
        fought = [(i, t) for i, t in enumerate(game.turns) if t.battles and t.number > 6]
        for i, turn in fought[:: max(1, len(fought) // 2)][:2]:
            found.append(Position(states[i], turn.seat, seed, turn.number))
    return found[:count]


def mark_due(session: Session, game: GameRow) -> None:
    game.deadline = (datetime.now(UTC) - timedelta(hours=1)).isoformat(timespec="seconds")
    session.add(game)


def copy_game(session: Session, data: Path, model: GameRow, name: str, seed: int) -> None:
    """A copy of `model`'s rows under `name` with its own dice seed (password hashing is slow by design), and of
    its files: `pbem new` writes the turn-0 files of a game, without which every tick would write them (repair)."""
    shutil.copytree(game_folder(data, model.name), game_folder(data, name))
    seats = session.exec(select(SeatRow).where(SeatRow.game_id == model.id)).all()
    (turn,) = session.exec(select(TurnRow).where(TurnRow.game_id == model.id)).all()
    orders = session.exec(select(OrderSetRow).where(OrderSetRow.game_id == model.id)).all()
    secret = seed.to_bytes(32, "big")
    chain = chain_checkpoints(secret)  # as `pbem new` stores them with a game
    mine = {"name": name, "seed": secret.hex(), "commitment": chain[0].hex(), "checkpoints": checkpoints_text(chain)}
    game = GameRow(**{**model.model_dump(exclude={"id"}), **mine})
    session.add(game)
    session.flush()
    for seat in seats:
        session.add(SeatRow(**{**seat.model_dump(exclude={"id"}), "game_id": game.id}))
    state_json = turn.state_json.replace(f'"game": "{model.name}"', f'"game": "{name}"')
    session.add(TurnRow(**{**turn.model_dump(exclude={"id"}), "game_id": game.id, "state_json": state_json}))
    for stored in orders:
        text = stored.text.replace(f"GAME {model.name} ", f"GAME {name} ", 1)
        session.add(OrderSetRow(**{**stored.model_dump(exclude={"id"}), "game_id": game.id, "text": text}))


def populate_empty(archive: Archive, data: Path, games: int) -> None:
    """One real game at turn 0, then copies of its rows under other names."""
    new_game(archive, data, NewGameOptions("g0", RULESET, SEATS))
    with archive.session() as session:
        model = session.exec(select(GameRow).where(GameRow.name == "g0")).one()
        mark_due(session, model)
        for n in range(1, games):
            copy_game(session, data, model, f"g{n}", n)


def populate_orders(archive: Archive, data: Path, games: int, distinct: int = POSITIONS) -> None:
    """A real game for each of `distinct` battle positions with the due seat's bot orders submitted (password
    checked, stored), then copies of these games' rows under other names."""
    ruleset = load_ruleset(RULESET)
    positions = battle_positions(min(distinct, games), list(SEATS))
    for k, position in enumerate(positions):
        name = f"g{k}"
        made = new_game(archive, data, NewGameOptions(name, RULESET, SEATS, position=snapshot_text(position.state)))
        position.state.game = name
        rng = turn_rng(position.seed, position.number)
        submit(archive, name, random_orders(ruleset, position.state, position.seat, rng, made.passwords[position.seat]))
    with archive.session() as session:
        models = [session.exec(select(GameRow).where(GameRow.name == f"g{k}")).one() for k in range(len(positions))]
        for model in models:
            mark_due(session, model)
        for n in range(len(positions), games):
            copy_game(session, data, models[n % len(models)], f"g{n}", n)


def battles_fought(archive: Archive) -> int:
    with archive.session() as session:
        rows = session.exec(select(TurnRow).where(TurnRow.seat != None)).all()  # noqa: E711 (SQL)
        return sum(e["kind"] in BATTLE_EVENTS for row in rows for e in json.loads(row.events_json))


def commit_floor(folder: Path, journal: str) -> Callable[[int], object]:
    """FLOOR_COMMITS commits of one small row each, on the disk of `folder`, with the archive's settings: the least a
    commit of the archive waits for."""
    path = folder / f"floor-{journal}.sqlite"
    with sqlite3.connect(path) as made:
        made.execute(f"PRAGMA journal_mode={journal}")
        made.execute("CREATE TABLE IF NOT EXISTS floor (n INTEGER)")

    def work(run: int) -> None:
        connection = sqlite3.connect(path, isolation_level=None)
        connection.execute("PRAGMA synchronous=FULL")
        for n in range(FLOOR_COMMITS):
            connection.execute("BEGIN IMMEDIATE")
            connection.execute("INSERT INTO floor VALUES (?)", (n,))
            connection.execute("COMMIT")
        connection.close()

    return work


class Copies:
    """A fresh copy of the prepared data folder for each run of a measure (made before the run's clock starts), the
    previous run's copy removed; the worker's figures file of each run."""

    def __init__(self, template: Path, scratch: Path, name: str) -> None:
        self.template, self.scratch, self.name = template, scratch, name
        self.outs: list[Path] = []

    def fresh(self, run: int) -> tuple[Path, Path]:
        old = self.scratch / f"{self.name}-{run - 1}"
        shutil.rmtree(old, ignore_errors=True)
        folder = self.scratch / f"{self.name}-{run}"
        shutil.copytree(self.template, folder)
        out = self.scratch / f"{self.name}-{run}.json"
        if run:  # the warm-up run's figures are not kept
            self.outs.append(out)
        return folder, out

    def worker(self, run: int, python: str, *journal: str) -> list[str]:
        folder, out = self.fresh(run)
        return [python, str(HERE / "bench" / "tick_worker.py"), str(folder), str(out), *journal]

    def process(self, run: int, python: str, journal: str | None = None) -> list[str]:
        folder, _ = self.fresh(run)
        env = ["env", f"PBEM_SQLITE_JOURNAL={journal}"] if journal else []
        return [*env, python, "-m", "adjudicator.cli", "tick", "--data", str(folder)]

    def worker_figures(self) -> list[dict[str, Any]]:
        return [json.loads(out.read_text(encoding="utf-8")) for out in self.outs]


def python_of(tree: Path) -> str:
    found = tree / ".venv" / "bin" / "python"
    return str(found) if found.exists() else sys.executable


def verdict(ok: bool) -> str:
    return "met" if ok else "NOT met"


def measure(kind: str, template: Path, scratch: Path, games: int, rounds: int, old: Path | None) -> None:
    """Interleave the measures of one prepared archive and print them."""
    trees = {"new": HERE, **({"old": old} if old else {})}
    workers: dict[str, Copies] = {}
    measures: dict[str, Command | Call] = {
        "commit floor, rollback journal": Call(commit_floor(scratch, "delete")),
        "commit floor, WAL": Call(commit_floor(scratch, "wal")),
    }
    for tree, journal in [*((tree, None) for tree in trees), ("new", "wal")]:
        label = f"{tree} tree{', WAL' if journal else ''}"
        worker = workers[label] = Copies(template, scratch, f"{tree}-{journal}-worker")
        process = Copies(template, scratch, f"{tree}-{journal}-process")
        python, folder = python_of(trees[tree]), str(trees[tree])
        flag = ("--journal", journal) if journal else ()
        # each tree's interpreter, started in that tree's folder, imports that tree's adjudicator
        measures[f"{label}: tick in a process"] = Command(
            lambda run, w=worker, p=python, f=folder, j=flag: ["env", "-C", f, *w.worker(run, p, *j)]
        )
        measures[f"{label}: pbem tick, new process"] = Command(
            lambda run, c=process, p=python, f=folder, j=journal: ["env", "-C", f, *c.process(run, p, j)]
        )
    figures = interleave(measures, runs=rounds)
    floor = {
        "delete": figures["commit floor, rollback journal"].wall / FLOOR_COMMITS * 1000,
        "wal": figures["commit floor, WAL"].wall / FLOOR_COMMITS * 1000,
    }
    print(f"== {kind}: {games} games due, SQLite archive; {rounds} rounds, medians; {load_text()}")
    print(
        f"commit floor (one small row a commit, synchronous=FULL): rollback journal {floor['delete']:.1f} ms, "
        f"WAL {floor['wal']:.1f} ms"
    )
    rows = {label: worker_row(copies.worker_figures(), games) for label, copies in workers.items()}
    for label, row in rows.items():
        wall_floor = row["wall"] / floor["wal" if "WAL" in label else "delete"]
        print(
            f"{label + ': tick in a process':36} cpu {row['cpu']:6.1f} ms a game ({verdict(row['cpu'] <= TARGET_CPU)}: "
            f"<= {TARGET_CPU:g}; user {row['user']:.1f}, system {row['system']:.1f}), wall {row['wall']:6.1f} ms = "
            f"{wall_floor:4.1f}x the floor "
            f"({verdict(wall_floor <= TARGET_FLOOR)}: <= {TARGET_FLOOR:g}x), {row['commits']:.2f} commits a game "
            f"({row['writing']:.2f} writing; {verdict(row['commits'] <= TARGET_COMMITS + 1 / games)}: <= "
            f"{TARGET_COMMITS:g}, besides the one that lists the games due), "
            f"{row['statements']:.1f} statements a game, {row['resolved']:.0f} turns resolved"
        )
    for label, got in figures.items():
        if "new process" in label:
            print(
                f"{label:36} cpu {got.cpu / games * 1000:6.1f} ms a game, wall {got.wall / games * 1000:6.1f} ms a "
                f"game (spread {got.spread:4.0%})"
            )
    if "old tree" in rows:
        new, was = rows["new tree"], rows["old tree"]
        process = {label.split(":")[0]: got for label, got in figures.items() if "new process" in label}
        print(
            f"new tree / old tree: tick in a process cpu {new['cpu'] / was['cpu']:.2f}, wall "
            f"{new['wall'] / was['wall']:.2f}; pbem tick process cpu "
            f"{ratio_by_run(process['new tree'], process['old tree'])}"
        )


def ratio_by_run(new: Figures, old: Figures) -> str:
    """The median of the runs' CPU ratios (each run's pair taken in the same round)."""
    return f"{statistics.median(n / o for n, o in zip(new.cpus, old.cpus, strict=True)):.2f}"


def worker_row(found: list[dict[str, Any]], games: int) -> dict[str, float]:
    """Medians of a tree's in-process runs: CPU (and its user and system parts) and wall ms a game, commits a game
    (all, and writing)."""
    return {
        "cpu": statistics.median(f["cpu"] for f in found) / games * 1000,
        "user": statistics.median(f["user"] for f in found) / games * 1000,
        "system": statistics.median(f["system"] for f in found) / games * 1000,
        "wall": statistics.median(f["wall"] for f in found) / games * 1000,
        "commits": statistics.median(f["commits"]["all"] for f in found) / games,
        "writing": statistics.median(f["commits"]["writing"] for f in found) / games,
        "resolved": statistics.median(f["resolved"] for f in found),
        "statements": statistics.median(f["statements"] for f in found) / games,
    }


def prepare(kind: str, folder: Path, games: int, positions: int) -> None:
    """The archive every run ticks a copy of; the battles its tick fights are counted on one more copy."""
    archive = Archive.open(folder, None)
    if kind == "empty turns":
        populate_empty(archive, folder, games)
    else:
        populate_orders(archive, folder, games, positions)
    archive.close()
    trial = folder.parent / "trial"
    shutil.copytree(folder, trial)
    archive = Archive.open(trial, None)
    tick(archive, trial)
    fought = battles_fought(archive)
    archive.close()
    shutil.rmtree(trial)
    distinct = positions if kind != "empty turns" else 1
    print(f"{kind}: {games} games copied from {distinct} position(s); {fought / games:.2f} battles a game")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--positions", type=int, default=POSITIONS, help="distinct self-play positions (orders)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--old", type=Path, default=Path("/work/wt-lead"), help="the old tree (none: '')")
    parser.add_argument("--empty", action="store_true", help="measure games with empty turns too")
    options = parser.parse_args()
    old = options.old if options.old and str(options.old) and options.old.exists() else None
    assert list(SEATS) == seats_in_play(load_ruleset(RULESET), len(SEATS))
    kinds = ["orders and battles", *(["empty turns"] if options.empty else [])]
    for kind in kinds:
        with tempfile.TemporaryDirectory(dir=os.environ.get("PBEM_BENCH_DIR")) as scratch:
            template = Path(scratch) / "template"
            prepare(kind, template, options.games, options.positions)
            measure(kind, template, Path(scratch), options.games, options.rounds, old)


if __name__ == "__main__":
    main()
