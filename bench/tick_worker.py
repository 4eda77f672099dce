"""One `pbem tick` of a prepared data folder, timed inside the process: what the tick itself costs, without the
start-up. bench/tick.py runs this file with each tree's interpreter (the old tree lacks it), so that it imports
nothing but the standard library and the tree's `adjudicator`.

    python bench/tick_worker.py DATA OUT.json [--journal wal|delete]

Writes to OUT.json: the CPU and wall seconds of the tick (and the CPU's user and system parts: the system's is mostly
the disk's file system making the turns' files and the journal), the games it resolved, the commits made (every commit
of a connection, and those that changed something), the SQL statements run (BEGIN and the like included), and its
report's lines.
"""

from __future__ import annotations

import json
import os
import resource
import sys
import time
from pathlib import Path
from typing import Any


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
    used = resource.getrusage(resource.RUSAGE_SELF)
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
