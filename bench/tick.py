"""`pbem tick` over many games due at once (deadline passed): adjudicate, write reports, queue the mail.

Target (issue 6): 1,000 games in under 60 s, on SQLite and on PostgreSQL.
Run from the repository root: python -m bench.tick [--games 1000] [--db postgresql://... | --postgres]
(Without either a SQLite archive in a temporary folder is used; --postgres starts a private PostgreSQL cluster
on loopback, as the tests do, and uses a fresh database on it.)
"""

from __future__ import annotations

import argparse
import tempfile
import time
from contextlib import ExitStack
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlmodel import select

from adjudicator.archive import Archive
from adjudicator.archive.models import GameRow, SeatRow, TurnRow
from adjudicator.services.deadlines import tick
from adjudicator.services.games import new_game

SEATS = {"Macedonia": "mac@example.org", "Egyptus": "egy@example.org", "Hispania": "his@example.org"}


def populate(archive: Archive, data: Path, games: int) -> None:
    """One real game, then copies of its rows under other names (password hashing is slow by design)."""
    new_game(archive, data, "g0", "coe-classic", SEATS)
    past = (datetime.now(UTC) - timedelta(hours=1)).isoformat(timespec="seconds")
    with archive.session() as session:
        model = session.exec(select(GameRow).where(GameRow.name == "g0")).one()
        seats = session.exec(select(SeatRow).where(SeatRow.game_id == model.id)).all()
        turn = session.exec(select(TurnRow).where(TurnRow.game_id == model.id)).one()
        model.deadline = past
        session.add(model)
        for n in range(1, games):
            game = GameRow(**{**model.model_dump(exclude={"id"}), "name": f"g{n}"})
            session.add(game)
            session.flush()
            for seat in seats:
                session.add(SeatRow(**{**seat.model_dump(exclude={"id"}), "game_id": game.id}))
            session.add(
                TurnRow(
                    **{
                        **turn.model_dump(exclude={"id"}),
                        "game_id": game.id,
                        "state_json": turn.state_json.replace('"game": "g0"', f'"game": "g{n}"'),
                    }
                )
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--db", default=None, help="SQLAlchemy URL of an empty database (default: SQLite)")
    parser.add_argument("--postgres", action="store_true", help="use a private PostgreSQL server (tests/postgres.py)")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder, ExitStack() as stack:
        if options.postgres:
            from tests.postgres import fresh_database, private_server

            options.db = stack.enter_context(fresh_database(stack.enter_context(private_server())))
        data = Path(folder)
        archive = Archive.open(data, options.db)
        start = time.perf_counter()
        populate(archive, data, options.games)
        setup = time.perf_counter() - start
        start = time.perf_counter()
        report = tick(archive, data)
        elapsed = time.perf_counter() - start
        archive.close()
    resolved = sum(1 for line in report.lines if "resolved" in line)
    backend = "PostgreSQL" if options.db else "SQLite"
    verdict = "met" if resolved == options.games and elapsed / options.games * 1000 < 60 else "NOT met"
    print(
        f"{backend}: set up {options.games} games in {setup:.1f} s; pbem tick resolved {resolved} turns in "
        f"{elapsed:.1f} s ({elapsed / max(resolved, 1) * 1000:.1f} ms a game; target: 1,000 games < 60 s: "
        f"{verdict})"
    )


if __name__ == "__main__":
    main()
