"""The archive itself, on SQLite and PostgreSQL: upgrading an archive made by an earlier version."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import inspect, text

from adjudicator.archive import Archive
from adjudicator.archive.queries import mail_fields, queue_mail, queue_mails


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


def test_mails_queued_at_once_are_stored_as_if_queued_one_by_one(tmp_path: Path, database: str | None) -> None:
    """queue_mails (a tick's report mails) stores the rows queue_mail would, after the mails queued before them."""
    mails = [
        ("mac@example.org", "[g] Report, turn 3", "Turn 3\n", "<p>Turn 3</p>", "<svg/>", "<turn3.mac@x>"),
        ("egy@example.org", "[g] Report, turn 3", "Turn 3, Egyptus\n", "<p>Egyptus</p>", "<svg/>", ""),
    ]
    one_by_one = Archive.open(tmp_path / "one", database)
    with one_by_one.session() as session:
        queue_mail(session, "mod@example.org", "[g] Egyptus missed 3 turns", "NMR\n", "2026-01-01T00:00:00", "g")
        for to, subject, body, html, svg, thread in mails:
            queue_mail(session, to, subject, body, "2026-01-01T00:00:00", "g", html, svg, thread, thread)
    expected = one_by_one.dump()
    one_by_one.close()

    if database is not None:  # the same database again, emptied
        with Archive.open(tmp_path, database).engine.begin() as connection:
            connection.execute(text("DELETE FROM outbox"))
            connection.execute(text("ALTER SEQUENCE outbox_id_seq RESTART WITH 1"))
    at_once = Archive.open(tmp_path / "two", database)
    with at_once.session() as session:
        queue_mail(session, "mod@example.org", "[g] Egyptus missed 3 turns", "NMR\n", "2026-01-01T00:00:00", "g")
        with session.no_autoflush:  # as the tick queues its reports
            queue_mails(
                session,
                [
                    mail_fields(to, subject, body, "2026-01-01T00:00:00", "g", html, svg, thread, thread)
                    for to, subject, body, html, svg, thread in mails
                ],
            )
    assert at_once.dump() == expected
    assert [row[1][2] for row in expected] == ["mod@example.org", "mac@example.org", "egy@example.org"]


def test_a_version_older_than_the_mails_turn_maps_can_still_queue_mail_in_this_archive(
    tmp_path: Path, database: str | None
) -> None:
    archive = Archive.open(tmp_path, database)
    with archive.engine.begin() as connection:  # the columns an older pbem's insert names: no map_turn, map_language
        connection.execute(
            text(
                'INSERT INTO outbox (game, "to", subject, body, html, map_svg, created, attempts, error, secret, '
                "in_reply_to, thread) VALUES ('g1', 'a@example.org', 'Report', 'r', '', '<svg/>', '2026-01-01', 0, "
                "'', '', '', '')"
            )
        )
        rows = connection.execute(text("SELECT map_svg, map_turn, map_language FROM outbox")).all()
    assert [tuple(row) for row in rows] == [("<svg/>", "", "")]
