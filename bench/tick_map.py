"""Where a `pbem tick` over games with orders and battles spends its time: the games of bench/tick.py, ticked once
with timers around named functions (wall time, inclusive; the rows overlap where one function calls another, as
the indentation shows). Cheaper than cProfile (which inflates the Python-heavy parts several times): what a row
says is close to what removing the work would save.

Run from the repository root: python -m bench.tick_map [--games 200] [--only orders|empty] [--wal normal|full]
--wal: the SQLite archive in WAL mode, with synchronous=FULL (what PBEM_SQLITE_JOURNAL=wal gives: one wait for the
disk per commit instead of the rollback journal's several) or NORMAL (a what-if: no wait at commit; a power cut may
lose the last commits, never the archive's consistency).
A function that moved is reported as missing: update its dotted name below.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from pathlib import Path
from typing import Any

from adjudicator.archive import Archive
from adjudicator.services.deadlines import tick
from bench.tick import battles_fought, populate_empty, populate_orders

# (label, dotted name of the function or method); two leading spaces per level of nesting
TIMED = [
    ("adjudicate: decide and resolve under the lock", "adjudicator.services.adjudication.adjudicate_locked"),
    ("  turn_key (dice chain walk)", "adjudicator.engine.chance.turn_key"),
    ("  resolve (the rules)", "adjudicator.rulesets.coe.turn.resolve"),
    ("  turn_row (snapshot text, hashes, chain)", "adjudicator.services.turn.turn_row"),
    ("write the turn's files after the commit", "adjudicator.services.adjudication.Adjudication.write_files"),
    ("repair check: missing_files (in the transaction)", "adjudicator.services.repair.missing_files"),
    ("  and MissingFiles.write (after the commit)", "adjudicator.services.repair.MissingFiles.write"),
    ("queue the reports in the turn's transaction", "adjudicator.services.news._queue_reports"),
    ("  _mail_reports (texts shared with the files)", "adjudicator.services.news._mail_reports"),
    ("mail_news: questions of decisions, if any", "adjudicator.services.news.mail_news"),
    ("anywhere: turn_reports (report texts)", "adjudicator.services.reports.turn_reports"),
    ("anywhere: render_map_for_turn (the SVG map)", "adjudicator.render.svgmap.render_map_for_turn"),
    ("  _place_labels", "adjudicator.render.svgmap._place_labels"),
    ("anywhere: write_atomically (file writes)", "adjudicator.render.write_atomically"),
    ("anywhere: from_snapshot (JSON -> state)", "adjudicator.rulesets.coe.state.from_snapshot"),
    ("  snapshot_problems (schema check)", "adjudicator.rulesets.coe.snapshot_check.snapshot_problems"),
    ("anywhere: current_game (lock, read position)", "adjudicator.services.game_reads.current_game"),
    ("anywhere: Session.exec (queries)", "sqlmodel.Session.exec"),
    ("anywhere: Session.commit (commits)", "sqlalchemy.orm.Session.commit"),
]


@dataclass
class Bucket:
    label: str
    calls: int = 0
    seconds: float = 0.0
    depth: int = 0  # a recursive call is counted once


def resolve_name(dotted: str) -> tuple[Any, str, Any] | None:
    """(owner, attribute, function) for a dotted name of a module's function or a class's method; None if gone."""
    parts = dotted.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        try:
            owner: Any = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        try:
            for part in parts[cut:-1]:
                owner = getattr(owner, part)
            return owner, parts[-1], getattr(owner, parts[-1])
        except AttributeError:
            return None
    return None


def timer(function: Callable[..., Any], bucket: Bucket) -> Callable[..., Any]:
    @wraps(function)
    def timed(*args: Any, **kwargs: Any) -> Any:
        bucket.depth += 1
        began = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            bucket.depth -= 1
            if not bucket.depth:
                bucket.calls += 1
                bucket.seconds += time.perf_counter() - began

    return timed


def install(buckets: list[Bucket]) -> list[str]:
    """Wrap each named function where it is defined and wherever a module imported it by name; the missing names."""
    missing = []
    for bucket, (_, dotted) in zip(buckets, TIMED, strict=True):
        found = resolve_name(dotted)
        if found is None:
            missing.append(dotted)
            continue
        owner, attribute, function = found
        wrapped = timer(function, bucket)
        setattr(owner, attribute, wrapped)
        for module in list(sys.modules.values()):
            if getattr(module, "__name__", "").startswith("adjudicator"):
                for name, value in list(vars(module).items()):
                    if value is function:
                        setattr(module, name, wrapped)
    return missing


def use_wal(archive: Archive, synchronous: str) -> None:
    """Switch the SQLite archive to WAL with `synchronous` for the connections opened from now on."""
    from sqlalchemy import event

    def pragmas(connection: Any, _record: Any) -> None:
        cursor = connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA synchronous={synchronous}")
        cursor.close()

    event.listen(archive.engine, "connect", pragmas)
    archive.engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--only", choices=["orders", "empty"], default="orders")
    parser.add_argument("--wal", choices=["normal", "full"], help="SQLite in WAL mode with this synchronous (what if)")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder)
        archive = Archive.open(data, None)
        (populate_orders if options.only == "orders" else populate_empty)(archive, data, options.games)
        if options.wal:
            use_wal(archive, options.wal.upper())
        buckets = [Bucket(label) for label, _ in TIMED]
        missing = install(buckets)
        began = time.perf_counter()
        report = tick(archive, data)
        elapsed = time.perf_counter() - began
        fought = battles_fought(archive)
        archive.close()
    resolved = sum("resolved" in line for line in report.lines)
    repaired = sum("wrote missing" in line for line in report.lines)
    print(
        f"pbem tick (SQLite{f', WAL {options.wal}' if options.wal else ''}) of {options.games} games ({options.only}): "
        f"{elapsed:.2f} s, "
        f"{elapsed / options.games * 1000:.1f} ms a game; {resolved} turns resolved, {fought} battles, "
        f"{repaired} games repaired"
    )
    print(f"{'':52} {'calls':>6} {'total s':>8} {'ms/game':>8} {'share':>6}")
    for bucket in buckets:
        print(
            f"{bucket.label:52} {bucket.calls:6d} {bucket.seconds:8.2f} {bucket.seconds / options.games * 1000:8.1f} "
            f"{bucket.seconds / elapsed:6.0%}"
        )
    for dotted in missing:
        print(f"missing (moved?): {dotted}")


if __name__ == "__main__":
    main()
