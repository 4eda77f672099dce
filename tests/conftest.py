"""Shared fixtures: a real archive (a SQLite file in a temporary folder, or a fresh database on a private
PostgreSQL server), driven through the real CLI.

Tests that use the `database` fixture (directly, or through `pbem` and `archive`) run once per backend:
test_x[sqlite] and test_x[postgresql]. The PostgreSQL server is started once per session
(tests/postgres.py), or taken from PBEM_TEST_POSTGRES (a URL of a server's maintenance database).

The suite runs on every core with pytest-xdist (pyproject.toml): each worker is its own session, with its own
servers on free ports and its own temporary folders, so no test may write a fixed path.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path

import pytest
from sqlalchemy import text
from typer.testing import CliRunner, Result

from adjudicator.archive import Archive
from adjudicator.archive.store import close_archives
from adjudicator.cli import app
from tests.postgres import fresh_database, private_server


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto`: one worker per core this process may use (taskset and container limits count); on one core the
    tests run in-process, as without xdist. PYTEST_XDIST_AUTO_NUM_WORKERS still decides when set."""
    given = os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS", "")
    if given.isdigit():
        return int(given)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return cores if cores > 1 else 0


def pytest_configure(config: pytest.Config) -> None:
    """Hypothesis keeps a cache in ./.hypothesis (the source tree), written as soon as the fuzz tests are
    collected: this run keeps it in a temporary folder of its own instead (its xdist workers inherit it)."""
    if not os.environ.get("HYPOTHESIS_STORAGE_DIRECTORY"):
        folder = tempfile.mkdtemp(prefix="pbem-hypothesis-")
        os.environ["HYPOTHESIS_STORAGE_DIRECTORY"] = folder
        config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))


SEATS = {"Macedonia": "mac@example.org", "Egyptus": "egy@example.org", "Hispania": "his@example.org"}


def read_eml(path: Path) -> EmailMessage:
    return BytesParser(policy=policy.default).parsebytes(path.read_bytes())  # type: ignore[return-value]


def sent_map(message: EmailMessage) -> str:
    """The map.svg a sent mail carries ("" for none)."""
    found = [p for p in message.iter_attachments() if p.get_filename() == "map.svg"]  # type: ignore[misc]
    return found[0].get_content().decode("utf-8") if found else ""  # an image part's content is bytes


class Pbem:
    """Runs `pbem` commands against one data folder, as a moderator would."""

    def __init__(self, data: Path, db: str | None = None) -> None:
        self.data = data
        self.db = db  # the archive's URL; None for the SQLite file in the data folder (the CLI's default)
        self.runner = CliRunner()
        self.passwords: dict[str, str] = {}

    def __call__(self, *args: str, data: bool = True) -> Result:
        extra = ["--data", str(self.data)] if data else []
        extra += ["--db", self.db] if data and self.db else []
        return self.runner.invoke(app, [*args, *extra])

    def new_game(self, name: str = "rome1", pace: str = "turn", seats: dict[str, str] | None = None) -> Result:
        seat_args = [a for seat, mail in (seats or SEATS).items() for a in ("--seat", f"{seat}={mail}")]
        result = self("new", name, "--ruleset", "coe-classic", "--pace", pace, *seat_args)
        assert result.exit_code == 0, result.output
        for line in result.output.splitlines():
            parts = line.split()
            if len(parts) == 2 and parts[0] in (seats or SEATS):
                self.passwords[parts[0]] = parts[1]
        return result

    def orders(self, seat: str, turn: int, *lines: str, game: str = "rome1", password: str | None = None) -> Path:
        """Write an order file for `seat` with a correct header (unless a password is given)."""
        path = self.data.parent / f"orders-{seat}-{turn}-{len(list(self.data.parent.glob('orders-*')))}.txt"
        header = f"GAME {game} TURN {turn} PLAYER {seat} PASSWORD {password or self.passwords[seat]}"
        path.write_text("\n".join([header, *lines]) + "\n", encoding="utf-8")
        return path

    def dump(self) -> list[tuple[str, tuple[object, ...]]]:
        """Every row of the archive, to show that a refused command changed nothing."""
        return Archive.open(self.data, self.db).dump()

    def sent(self) -> list[EmailMessage]:
        """The mails `pbem send --eml-dir` delivers now (SVG maps only), parsed, in the order sent."""
        folder = self.data.parent / f"sent-{len(list(self.data.parent.glob('sent-*')))}"
        result = self("send", "--no-png", "--eml-dir", str(folder))
        assert result.exit_code == 0, result.output
        return [read_eml(path) for path in sorted(folder.glob("*.eml"), key=lambda p: int(p.name.split("-")[0]))]

    def sql(self, statement: str) -> list[tuple[object, ...]]:
        """Run one SQL statement on the archive (committed); the rows it gives, if any."""
        with Archive.open(self.data, self.db).engine.begin() as connection:
            result = connection.execute(text(statement))
            return [tuple(row) for row in result] if result.returns_rows else []


def _missing_server(reason: str) -> None:
    """Skip without a PostgreSQL server on a developer machine; in CI (CI set) its absence is a failure."""
    if os.environ.get("CI"):
        pytest.fail(f"PostgreSQL tests need a server in CI: {reason}", pytrace=False)
    pytest.skip(f"PostgreSQL tests need a server: {reason}")


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[tuple[str | None, str]]:
    """(URL of a PostgreSQL server's maintenance database, "") or (None, why there is none)."""
    given = os.environ.get("PBEM_TEST_POSTGRES")
    if given:
        yield given, ""
        return
    with ExitStack() as stack:
        try:
            url = stack.enter_context(private_server())
        except (OSError, subprocess.SubprocessError) as trouble:
            detail = getattr(trouble, "stderr", b"") or b""
            yield None, f"{trouble} {detail.decode(errors='replace')}".strip()
            return
        yield url, ""


@pytest.fixture(autouse=True)
def _close_archives() -> Iterator[None]:
    """Each test's archives are closed after it (the engines are shared within a process)."""
    yield
    close_archives()


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str | None]:
    """The archive URL for one test: None (SQLite file in the data folder) or a fresh PostgreSQL database.
    PBEM_DB is set to it too, so that CLI runs and subprocesses use the same archive."""
    if request.param == "sqlite":
        monkeypatch.delenv("PBEM_DB", raising=False)
        yield None
        return
    server, trouble = request.getfixturevalue("postgres_server")
    if server is None:
        _missing_server(trouble)
    with fresh_database(server) as url:
        monkeypatch.setenv("PBEM_DB", url)
        yield url
        close_archives(url)  # the pooled connections go before the database does


@pytest.fixture
def pbem(tmp_path: Path, database: str | None) -> Pbem:
    return Pbem(tmp_path / "data", database)


@pytest.fixture
def archive(tmp_path: Path, database: str | None) -> Archive:
    return Archive.open(tmp_path, database)


@pytest.fixture(scope="session")
def conqueror_demo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Result]:
    """`pbem demo --ruleset conqueror-er --mode conquest` played once a session (a whole game by mail, the longest
    run of the suite): its data folder and the command's result. The tests that share it only read it."""
    folder = tmp_path_factory.mktemp("conqueror-demo") / "demo"
    result = CliRunner().invoke(app, ["demo", "--ruleset", "conqueror-er", "--mode", "conquest", "--data", str(folder)])
    return folder, result


@pytest.fixture
def demo(conqueror_demo: tuple[Path, Result], tmp_path: Path) -> Path:
    """A copy of the Conqueror demo's data folder (archive, mails, turn files), which a test may edit."""
    folder, result = conqueror_demo
    assert result.exit_code == 0, result.output
    return Path(shutil.copytree(folder, tmp_path / "demo"))


@pytest.fixture(scope="session")
def empires_demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`pbem demo --ruleset empires-aw` played once a session: its data folder, which the tests only read."""
    folder = tmp_path_factory.mktemp("empires") / "demo"
    played = CliRunner().invoke(app, ["demo", "--ruleset", "empires-aw", "--data", str(folder)])
    assert played.exit_code == 0, played.output
    return folder


MailGame = tuple[Archive, Path, dict[str, str]]  # the archive, the data folder, the seats' passwords


@pytest.fixture
def game(tmp_path: Path, archive: Archive) -> MailGame:
    """rome1, three seats, with a moderator's address (the mail tests' game)."""
    from adjudicator.services.games import NewGameOptions, new_game

    created = new_game(
        archive, tmp_path, NewGameOptions("rome1", "coe-classic", SEATS, mail={"moderator": "gm@example.org"})
    )
    return archive, tmp_path, created.passwords


@pytest.fixture
def write(tmp_path: Path) -> Callable[[str, str | bytes], Path]:
    def write_file(name: str, content: str | bytes) -> Path:
        path = tmp_path / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        return path

    return write_file
