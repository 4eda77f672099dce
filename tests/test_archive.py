"""The archive itself, on SQLite and PostgreSQL: upgrading an archive made by an earlier version."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import inspect, text

from adjudicator.archive import Archive
from adjudicator.archive.queries import queue_mail


def test_an_archive_of_an_earlier_version_gains_the_new_columns_and_keeps_its_rows(
    tmp_path: Path, database: str | None
) -> None:
    archive = Archive.open(tmp_path, database)
    with archive.session() as session:
        queue_mail(session, "mac@example.org", "Old mail", "queued by an earlier version\n", "2026-01-01T00:00:00")
    with archive.engine.begin() as connection:  # as the outbox was before it had an HTML part and a map
        connection.execute(text("ALTER TABLE outbox DROP COLUMN html"))
        connection.execute(text("ALTER TABLE outbox DROP COLUMN map_svg"))
    archive.close()

    upgraded = Archive.open(tmp_path, database)
    with upgraded.engine.connect() as connection:
        rows = connection.execute(text("SELECT subject, html, map_svg FROM outbox")).all()
    assert [tuple(row) for row in rows] == [("Old mail", "", "")]
    with upgraded.session() as session:
        queue_mail(session, "egy@example.org", "New mail", "text\n", "2026-01-02T00:00:00", html="<p>text</p>")
    assert len(upgraded.dump()) == 2


def test_an_archive_of_an_earlier_version_gains_the_unique_indexes(tmp_path: Path, database: str | None) -> None:
    archive = Archive.open(tmp_path, database)
    with archive.engine.begin() as connection:
        connection.execute(text("DROP INDEX one_live_turn"))
    archive.close()

    upgraded = Archive.open(tmp_path, database)
    assert "one_live_turn" in {index["name"] for index in inspect(upgraded.engine).get_indexes("turn")}
