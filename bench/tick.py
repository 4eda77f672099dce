"""`pbem tick` over many games due at once (deadline passed): adjudicate, write reports, queue the mail.

Two figures, each on a fresh archive:
- empty turns: copies of one game at turn 0 whose due seat sent nothing (what the first benchmark measured);
- orders and battles: copies of self-play positions in which the due seat's bot orders (rulesets/coe/bot.py,
  stored before the tick as a submitted order set) march into enemy armies; the battles fought are counted.

Target: 1,000 due games with orders and battles in at most 10 s (empty turns: 60 s).
Run from the repository root: python -m bench.tick [--games 1000] [--only empty|orders]
    [--db postgresql://... | --postgres [--fsync on|off]]
(Without --db or --postgres a SQLite archive in a temporary folder is used; --postgres starts a private PostgreSQL
cluster on loopback, as the tests do, with fsync on by default: --fsync off measures the tests' setting.)
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

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

RULESET = "coe-classic"
SEATS = {"Macedonia": "mac@example.org", "Egyptus": "egy@example.org", "Hispania": "his@example.org"}
TARGET_EMPTY = 60.0  # seconds for 1,000 games with empty turns
TARGET_BATTLES = 10.0  # seconds for 1,000 games with orders and battles
POSITIONS = 20  # distinct self-play positions the games with battles are copied from


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


def populate_orders(archive: Archive, data: Path, games: int) -> None:
    """A real game for each battle position with the due seat's bot orders submitted (password checked, stored),
    then copies of these games' rows under other names."""
    ruleset = load_ruleset(RULESET)
    positions = battle_positions(min(POSITIONS, games), list(SEATS))
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


def run(kind: str, populate: Callable[[Archive, Path, int], None], games: int, db: str | None, target: float) -> None:
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder)
        archive = Archive.open(data, db)
        start = time.perf_counter()
        populate(archive, data, games)
        setup = time.perf_counter() - start
        start = time.perf_counter()
        report = tick(archive, data)
        elapsed = time.perf_counter() - start
        fought = battles_fought(archive)
        archive.close()
    resolved = sum(1 for line in report.lines if "resolved" in line)
    allowed = target * games / 1000
    verdict = "met" if resolved == games and elapsed <= allowed else "NOT met"
    battles = f", {fought} battles fought ({fought / max(resolved, 1):.2f} a game)"
    print(
        f"{kind:18} set up {games} games in {setup:.1f} s; pbem tick resolved {resolved} turns in {elapsed:.1f} s "
        f"({elapsed / max(resolved, 1) * 1000:.1f} ms a game{battles}; target {target:g} s for 1,000 games: "
        f"{verdict})",
        flush=True,
    )
    if report.failures:
        print(next(iter(report.failures.values())))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--only", choices=["empty", "orders"], default=None, help="tick one kind of game only")
    parser.add_argument("--db", default=None, help="SQLAlchemy URL of an empty database (default: SQLite)")
    parser.add_argument("--postgres", action="store_true", help="use a private PostgreSQL server (tests/postgres.py)")
    parser.add_argument("--fsync", choices=["on", "off"], default="on", help="the private server's fsync (default on)")
    options = parser.parse_args()
    if options.db and not options.only:
        parser.error("--db holds one kind of game: add --only empty or --only orders (or use --postgres)")
    assert list(SEATS) == seats_in_play(load_ruleset(RULESET), len(SEATS))
    kinds = [
        ("empty turns", populate_empty, TARGET_EMPTY),
        ("orders and battles", populate_orders, TARGET_BATTLES),
    ]
    with ExitStack() as stack:
        if options.postgres:
            from tests.postgres import fresh_database, private_server

            server = stack.enter_context(private_server(durable=options.fsync == "on"))
        backend = "SQLite" if not options.db and not options.postgres else "PostgreSQL"
        if options.postgres:
            backend += f" (private server, fsync {options.fsync})"
        print(f"== {backend}")
        for kind, populate, target in kinds:
            if options.only and not kind.startswith(options.only):
                continue
            if options.postgres:
                with fresh_database(server) as url:
                    run(kind, populate, options.games, url, target)
            else:
                run(kind, populate, options.games, options.db, target)


if __name__ == "__main__":
    main()
