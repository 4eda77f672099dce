"""One `pbem tick` of a prepared data folder, timed inside the process: what the tick itself costs, without the
start-up. bench/tick.py runs this file with each tree's interpreter (the old tree lacks it), so that it imports
nothing but the standard library and the tree's `adjudicator`.

    python bench/tick_worker.py DATA OUT.json [--journal wal|delete]

Writes to OUT.json: the CPU and wall seconds of the tick (and the CPU's user and system parts: the system's is mostly
the disk's file system making the turns' files and the journal), the games it resolved, the commits made (every commit
of a connection, and those that changed something), the SQL statements run (BEGIN and the like included), and its
report's lines. The statements and commits are counted through SQLAlchemy's events and, for the games a tree ticks
with `sqlite3` (archive/lean_tick.py), on that connection (lean_watched).
"""

from __future__ import annotations

import json
import os
import resource
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any


class WatchedConnection:
    """A `sqlite3` connection that tells `executed` each statement it runs (an executemany once, as SQLAlchemy's
    before_cursor_execute does) and `committed` each COMMIT with whether it wrote (its total_changes moved)."""

    def __init__(self, connection: Any, executed: Callable[[str], None], committed: Callable[[bool], None]) -> None:
        self.connection, self.executed, self.committed = connection, executed, committed
        self.changes = connection.total_changes

    def execute(self, statement: str, *parameters: Any) -> Any:
        if statement == "COMMIT":
            found = self.connection.execute(statement)
            self.committed(self.connection.total_changes != self.changes)
            self.changes = self.connection.total_changes
            return found
        self.executed(statement)
        return self.connection.execute(statement, *parameters)

    def executemany(self, statement: str, rows: Any) -> Any:
        self.executed(statement)
        return self.connection.executemany(statement, rows)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.connection, name)


@contextmanager
def lean_watched(executed: Callable[[str], None], committed: Callable[[bool], None]) -> Iterator[None]:
    """While the block runs, the statements and commits of the archives opened the lean way (a tick's games on the
    default SQLite archive, archive/lean_tick.py), told as WatchedConnection tells them. A tree without the lean
    tick opens none."""
    from adjudicator.archive import lean_mail

    opened = getattr(lean_mail.LeanArchive, "at", None)
    if opened is None:
        yield
        return

    def watched(path: Path) -> Any:
        archive = opened(path)
        if archive is not None:
            archive.connection = WatchedConnection(archive.connection, executed, committed)
        return archive

    lean_mail.LeanArchive.at = watched  # type: ignore[method-assign]
    try:
        yield
    finally:
        lean_mail.LeanArchive.at = opened  # type: ignore[method-assign]


def main() -> None:
    data, out = Path(sys.argv[1]), Path(sys.argv[2])
    if "--journal" in sys.argv:
        os.environ["PBEM_SQLITE_JOURNAL"] = sys.argv[sys.argv.index("--journal") + 1]
    from sqlalchemy import event

    from adjudicator.archive import Archive
    from adjudicator.services.deadlines import tick

    archive = Archive.open(data, None)
    commits = {"all": 0, "writing": 0}
    seen: dict[int, int] = {}

    def counted(connection: Any) -> None:
        # a commit that changed rows waits for the disk; one of a read-only transaction does not
        raw = connection.connection.dbapi_connection
        changes = raw.total_changes
        commits["all"] += 1
        commits["writing"] += changes != seen.get(id(raw), 0)
        seen[id(raw)] = changes

    def opened(raw: Any, _record: Any) -> None:
        seen[id(raw)] = raw.total_changes

    event.listen(archive.engine, "connect", opened)
    archive.engine.dispose()  # connections opened from now on are counted from their first change
    event.listen(archive.engine, "commit", counted)
    statements = 0

    def executed(*_: Any) -> None:
        nonlocal statements
        statements += 1

    event.listen(archive.engine, "before_cursor_execute", executed)

    def lean_committed(wrote: bool) -> None:
        commits["all"] += 1
        commits["writing"] += wrote

    used = resource.getrusage(resource.RUSAGE_SELF)
    with lean_watched(executed, lean_committed):
        cpu, wall = time.process_time(), time.perf_counter()
        report = tick(archive, data)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    after = resource.getrusage(resource.RUSAGE_SELF)
    user, system = after.ru_utime - used.ru_utime, after.ru_stime - used.ru_stime
    archive.close()
    resolved = sum("resolved" in line for line in report.lines)
    figures = {
        "cpu": cpu,
        "user": user,
        "system": system,
        "wall": wall,
        "resolved": resolved,
        "commits": commits,
        "statements": statements,
        "lines": report.lines,
    }
    out.write_text(json.dumps(figures), encoding="utf-8")
    if report.failures:
        raise SystemExit(next(iter(report.failures.values())))


if __name__ == "__main__":
    main()
