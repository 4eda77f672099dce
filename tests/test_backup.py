"""The SQLite archive in WAL mode (PBEM_SQLITE_JOURNAL) and `pbem backup`: SQLite's online backup copies the commits
that still sit in the -wal file, which a plain copy of archive.sqlite lacks."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from adjudicator.archive import Archive
from adjudicator.archive.store import close_archives
from tests.conftest import Pbem, _missing_server
from tests.postgres import fresh_database


def journal_of(path: Path) -> str:
    with sqlite3.connect(path) as connection:
        return str(connection.execute("PRAGMA journal_mode").fetchone()[0])


def games_in(path: Path) -> list[str]:
    """The games of an archive file, read as the tool reads an archive."""
    archive = Archive(f"sqlite:///{path}")
    try:
        with archive.session() as session:
            from adjudicator.archive import queries as db

            return sorted(db.game_names(session))
    finally:
        archive.close()


@pytest.fixture
def wal_pbem(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Pbem:
    monkeypatch.delenv("PBEM_DB", raising=False)
    monkeypatch.setenv("PBEM_SQLITE_JOURNAL", "wal")
    return Pbem(tmp_path / "data")


def test_a_backup_of_a_wal_archive_holds_the_commits_not_checkpointed(wal_pbem: Pbem, tmp_path: Path) -> None:
    wal_pbem.new_game("rome1")
    wal_pbem.new_game("rome2", pace="round")
    archive_file = wal_pbem.data / "archive.sqlite"
    wal = archive_file.with_name("archive.sqlite-wal")
    assert journal_of(archive_file) == "wal"
    # the process's pooled connection is open: the games' commits are in the -wal file, not yet in archive.sqlite
    assert wal.stat().st_size > 0
    plain = tmp_path / "plain.sqlite"
    shutil.copyfile(archive_file, plain)
    assert games_in(plain) != ["rome1", "rome2"]  # what `cp archive.sqlite` would have kept

    done = wal_pbem("backup", str(tmp_path / "backup.sqlite"))
    assert done.exit_code == 0, done.output
    assert done.output == f"backed up the archive to {tmp_path / 'backup.sqlite'} (2 games)\n"
    assert wal.stat().st_size > 0  # the archive was not checkpointed for it: the copy read through the WAL
    assert journal_of(tmp_path / "backup.sqlite") == "delete"  # one self-contained file
    assert not (tmp_path / "backup.sqlite-wal").exists()
    assert games_in(tmp_path / "backup.sqlite") == ["rome1", "rome2"]
    assert not list(tmp_path.glob(".backup.sqlite.partial"))

    # the copy is an archive the tool runs: its games' files written again from it
    restore = tmp_path / "restore"
    restore.mkdir()
    shutil.copyfile(tmp_path / "backup.sqlite", restore / "archive.sqlite")
    repaired = Pbem(restore)("repair", "rome1")
    assert repaired.exit_code == 0, repaired.output
    assert (restore / "games" / "rome1" / "turn-0000" / "report.txt").read_bytes() == (
        wal_pbem.data / "games" / "rome1" / "turn-0000" / "report.txt"
    ).read_bytes()


def test_the_journal_mode_stays_with_the_file_and_switches_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("PBEM_DB", raising=False)
    monkeypatch.setenv("PBEM_SQLITE_JOURNAL", "wal")
    pbem = Pbem(tmp_path / "data")
    pbem.new_game("rome1")
    close_archives()
    archive_file = pbem.data / "archive.sqlite"
    monkeypatch.delenv("PBEM_SQLITE_JOURNAL")
    assert pbem("games").exit_code == 0
    assert journal_of(archive_file) == "wal"  # set once, kept by the file
    close_archives()
    monkeypatch.setenv("PBEM_SQLITE_JOURNAL", "delete")
    assert pbem("games").exit_code == 0
    close_archives()
    assert journal_of(archive_file) == "delete"
    assert not archive_file.with_name("archive.sqlite-wal").exists()


def test_a_bad_journal_or_destination_is_named_and_nothing_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("PBEM_DB", raising=False)
    pbem = Pbem(tmp_path / "data")
    pbem.new_game("rome1")
    taken = tmp_path / "taken.sqlite"
    taken.write_bytes(b"an older backup")
    refused = pbem("backup", str(taken))
    assert refused.exit_code == 1
    assert refused.output == f"error: {taken} exists: name a new file for the backup (nothing was copied)\n"
    assert taken.read_bytes() == b"an older backup"
    nowhere = pbem("backup", str(tmp_path / "no-such-folder" / "b.sqlite"))
    assert nowhere.exit_code == 1 and "is not a folder" in nowhere.output
    close_archives()
    monkeypatch.setenv("PBEM_SQLITE_JOURNAL", "memory")
    bad = pbem("games")
    assert bad.exit_code == 1
    assert bad.output == "error: PBEM_SQLITE_JOURNAL='memory': the SQLite journal is one of wal, delete\n"


def test_a_postgresql_archive_is_backed_up_with_pg_dump(
    postgres_server: tuple[str | None, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    server, trouble = postgres_server
    if server is None:
        _missing_server(trouble)
    with fresh_database(server) as url:
        monkeypatch.setenv("PBEM_DB", url)
        pbem = Pbem(tmp_path / "data", url)
        pbem.new_game("rome1")
        said = pbem("backup", str(tmp_path / "b.sqlite"))
        close_archives(url)
    assert said.exit_code == 1
    assert "pg_dump" in said.output and "postgresql" in said.output
    assert not (tmp_path / "b.sqlite").exists()
