"""Several `pbem tick` workers against one PostgreSQL database: 10,000 due games ticked by 1, 2 and 4 worker
processes at once, each run on a fresh copy of the same database (CREATE DATABASE ... TEMPLATE) and data folder.

The games: mostly copies of one game at turn 0 whose due seat sent nothing (empty turns), and a share (--orders,
20% by default) of copies of self-play positions whose due seat's bot orders are stored (bench/tick.py's kinds);
every deadline has passed. The server is a private PostgreSQL cluster on loopback with fsync ON (PostgreSQL's
defaults, tests/postgres.py). Each run starts its workers as real `pbem tick --db ...` processes at once and ends
when the last exits; every game must be resolved exactly once across the workers' outputs, else the bench stops.

Printed per worker count: wall time, games a second, the workers' CPU (and the server's backends' CPU) a game,
and the scaling (games a second over one worker's, run by run), medians of the rounds, with the load. The
machine has 2 cores shared with others (and with the server): more than 2 workers cannot add CPU.

Run from the repository root: python -m bench.workers [--games 10000] [--orders 0.2] [--workers 1,2,4] [--rounds 1]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from sqlalchemy import insert
from sqlmodel import Session, select

from adjudicator.archive import Archive
from adjudicator.archive.models import GameRow, OrderSetRow, SeatRow, TurnRow
from adjudicator.engine.chance import chain_checkpoints
from adjudicator.rulesets import load_ruleset
from adjudicator.rulesets.coe.bot import random_orders, turn_rng
from adjudicator.rulesets.coe.state import snapshot_text
from adjudicator.services.game_reads import checkpoints_text, game_folder
from adjudicator.services.games import NewGameOptions, new_game
from adjudicator.services.orders import submit
from bench.measure import PBEM, Command, interleave, load_text, print_load, print_rows
from bench.tick import RULESET, SEATS, battle_positions, mark_due

TEMPLATE = "workers_template"
RUN = "workers_run"


def models(archive: Archive, data: Path, positions: int) -> list[str]:
    """The games the others are copied from: g0 (turn 0, nothing sent) and o0.. (self-play positions whose due
    seat's bot orders are stored, password checked), each made by `pbem new`'s code with its files."""
    new_game(archive, data, NewGameOptions("g0", RULESET, SEATS))
    ruleset = load_ruleset(RULESET)
    names = ["g0"]
    for k, position in enumerate(battle_positions(positions, list(SEATS))):
        name = f"o{k}"
        made = new_game(archive, data, NewGameOptions(name, RULESET, SEATS, position=snapshot_text(position.state)))
        position.state.game = name
        rng = turn_rng(position.seed, position.number)
        submit(archive, name, random_orders(ruleset, position.state, position.seat, rng, made.passwords[position.seat]))
        names.append(name)
    return names


def clone(session: Session, data: Path, model: GameRow, names: list[str], seeds: list[bytes | None]) -> None:
    """Copies of `model`'s rows under `names` in bulk (row by row would take minutes for 10,000 games), each with
    its own dice seed where one is given (the model's where None: an empty turn throws no dice), and of its files
    as hard links (the tick writes new files beside them and never rewrites them)."""
    seats = session.exec(select(SeatRow).where(SeatRow.game_id == model.id)).all()
    (turn,) = session.exec(select(TurnRow).where(TurnRow.game_id == model.id)).all()
    orders = session.exec(select(OrderSetRow).where(OrderSetRow.game_id == model.id)).all()
    base = model.model_dump(exclude={"id"})
    games = []
    for name, seed in zip(names, seeds, strict=True):
        row = {**base, "name": name}
        if seed is not None:
            chain = chain_checkpoints(seed)  # as `pbem new` stores them with a game
            row |= {"seed": seed.hex(), "commitment": chain[0].hex(), "checkpoints": checkpoints_text(chain)}
        games.append(row)
    session.execute(insert(GameRow), games)
    ids = dict(session.exec(select(GameRow.name, GameRow.id).where(GameRow.name.in_(names))).all())  # type: ignore[attr-defined]
    session.execute(
        insert(SeatRow), [{**s.model_dump(exclude={"id"}), "game_id": ids[n]} for n in names for s in seats]
    )
    old = f'"game": "{model.name}"'
    session.execute(
        insert(TurnRow),
        [
            {
                **turn.model_dump(exclude={"id"}),
                "game_id": ids[n],
                "state_json": turn.state_json.replace(old, f'"game": "{n}"'),
            }
            for n in names
        ],
    )
    if orders:
        session.execute(
            insert(OrderSetRow),
            [
                {
                    **o.model_dump(exclude={"id"}),
                    "game_id": ids[n],
                    "text": o.text.replace(f"GAME {model.name} ", f"GAME {n} ", 1),
                }
                for n in names
                for o in orders
            ],
        )
    for name in names:
        shutil.copytree(game_folder(data, model.name), game_folder(data, name), copy_function=os.link)


def build_template(url: str, data: Path, games: int, share: float, positions: int) -> None:
    """The template database and data folder: `games` due games, a `share` of them with orders."""
    archive = Archive(url)
    made = models(archive, data, positions)
    with_orders = round(games * share)
    with archive.session() as session:
        rows = {n: session.exec(select(GameRow).where(GameRow.name == n)).one() for n in made}
        for row in rows.values():
            mark_due(session, row)
    with archive.session() as session:
        rows = {n: session.exec(select(GameRow).where(GameRow.name == n)).one() for n in made}
        ordered = [f"o{k}" for k in range(positions, with_orders)]
        for k, model in enumerate(made[1:]):
            names = ordered[k :: len(made) - 1]
            if names:
                clone(session, data, rows[model], names, [n.encode().rjust(32, b"\0") for n in names])
        empty = [f"g{n}" for n in range(1, games - max(with_orders, positions))]
        for start in range(0, len(empty), 1000):
            clone(session, data, rows["g0"], empty[start : start + 1000], [None] * len(empty[start : start + 1000]))
    archive.close()


def server_cpu(url: str) -> float:
    """CPU seconds of the server's ended backends (the postmaster's reaped children), from /proc."""
    import psycopg

    with psycopg.connect(url) as connection:  # its backend lives while it is open
        (backend,) = connection.execute("select pg_backend_pid()").fetchone()  # type: ignore[misc]
        status = Path(f"/proc/{backend}/status").read_text()
    postmaster = int(next(line.split()[1] for line in status.splitlines() if line.startswith("PPid:")))
    fields = Path(f"/proc/{postmaster}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[13]) + int(fields[14])) / os.sysconf("SC_CLK_TCK")  # cutime + cstime


def launch(count: int, url: str, data: str, games: int) -> None:
    """(A run's process.) Start `count` workers at once, wait for all, and check every game was resolved once."""
    started = [
        subprocess.Popen([*PBEM, "tick", "--db", url, "--data", data], stdout=subprocess.PIPE, text=True)
        for _ in range(count)
    ]
    outputs = [process.communicate()[0] for process in started]
    if any(process.returncode for process in started):
        raise SystemExit(f"a worker failed: {[p.returncode for p in started]}")
    resolved = [line.split(":")[0] for output in outputs for line in output.splitlines() if "resolved" in line]
    if len(resolved) != games or len(set(resolved)) != games:
        raise SystemExit(f"{len(resolved)} turns resolved ({len(set(resolved))} games), not {games} once each")
    print(f"resolved {games} games once each")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--orders", type=float, default=0.2, help="share of the games with orders (default 0.2)")
    parser.add_argument("--positions", type=int, default=10, help="self-play positions the games with orders copy")
    parser.add_argument("--workers", default="1,2,4", help="worker counts, comma-separated (the first is the base)")
    parser.add_argument("--rounds", type=int, default=1, help="rounds after the warm-up round (default 1)")
    parser.add_argument("--launch", nargs=4, help=argparse.SUPPRESS)  # count url data games: one run's workers
    options = parser.parse_args()
    if options.launch:
        count, url, data, games = options.launch
        launch(int(count), url, data, int(games))
        return
    from tests.postgres import private_server

    counts = [int(c) for c in options.workers.split(",")]
    with private_server(durable=True) as server, tempfile.TemporaryDirectory() as folder:
        base = server.rsplit("/", 1)[0]
        template_data, run_data = Path(folder) / "template", Path(folder) / "run"
        _sql(server, f"CREATE DATABASE {TEMPLATE}")
        print(f"building {options.games} due games ({options.orders:.0%} with orders) ...", flush=True)
        build_template(f"{base}/{TEMPLATE}", template_data, options.games, options.orders, options.positions)
        server_cpus: dict[str, list[float]] = {}
        last: list[tuple[str, float]] = []

        def settle() -> None:
            """Charge the server CPU since the last run began to that run's measure."""
            if last:
                name, before = last.pop()
                server_cpus.setdefault(name, []).append(server_cpu(server) - before)

        def run(count: int) -> Callable[[int], list[str]]:
            def argv(round_: int) -> list[str]:  # untimed: a fresh copy of the database and the data folder
                settle()
                _sql(server, f"DROP DATABASE IF EXISTS {RUN} WITH (FORCE)")
                _sql(server, f"CREATE DATABASE {RUN} TEMPLATE {TEMPLATE}")
                shutil.rmtree(run_data, ignore_errors=True)
                shutil.copytree(template_data, run_data, copy_function=os.link)
                last.append((_name(count), server_cpu(server)))
                launcher = [sys.executable, "-m", "bench.workers", "--launch"]
                return [*launcher, str(count), f"{base}/{RUN}", str(run_data), str(options.games)]

            return argv

        measures = {_name(c): Command(run(c), expect="once each") for c in counts}
        figures = interleave(measures, runs=options.rounds, baseline=_name(counts[0]))
        settle()
    print(f"== {options.games} due games ({options.orders:.0%} with orders), PostgreSQL private server, fsync on")
    print_load()
    print_rows(figures)
    print(f"machine: {os.cpu_count()} cores, shared with other users and with the server ({load_text()})")
    for name, got in figures.items():
        server = sorted(server_cpus.get(name, [0.0]))[len(server_cpus.get(name, [0.0])) // 2]
        print(
            f"{name:10}  {options.games / got.wall:7.1f} games/s  workers' cpu {got.cpu / options.games * 1000:5.1f} "
            f"ms a game  server backends' cpu {server / options.games * 1000:5.1f} ms a game  "
            f"scaling {1 / got.wall_ratio:4.2f}x over {_name(counts[0])}"
        )


def _name(count: int) -> str:
    return f"{count} worker" + ("s" if count > 1 else "")


def _sql(server: str, statement: str) -> None:
    import psycopg

    with psycopg.connect(server, autocommit=True) as connection:
        connection.execute(statement)  # type: ignore[arg-type]


if __name__ == "__main__":
    main()
