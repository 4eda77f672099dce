"""A private PostgreSQL server on loopback for the tests: its own cluster in a temporary folder, started once
per test session and removed afterwards. Needs the PostgreSQL server programs (Debian: postgresql), which
`.ci/run` installs when they are missing. As root the server runs as the `postgres` user (initdb refuses root).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

USER = "pbem"


def server_programs() -> Path | None:
    """The folder of initdb/pg_ctl: Debian's newest /usr/lib/postgresql/N/bin, else the PATH."""
    debian = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: int(p.parent.parent.name))
    if debian:
        return debian[-1].parent
    found = shutil.which("initdb")
    return Path(found).parent if found else None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def private_server(durable: bool = False) -> Iterator[str]:
    """Start a throw-away cluster; yields the URL of its `postgres` database. Not `durable` (the tests): fsync,
    synchronous commit and full page writes are off; `durable` keeps PostgreSQL's defaults (bench/tick.py)."""
    programs = server_programs()
    if programs is None:
        raise FileNotFoundError("the PostgreSQL server programs (initdb, pg_ctl) are not installed")
    folder = Path(tempfile.mkdtemp(prefix="pbem-postgres-"))
    as_user: list[str] = []
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres", "postgres")
        as_user = ["runuser", "-u", "postgres", "--"]
    port = _free_port()
    data = folder / "data"

    def run(*args: str) -> None:
        subprocess.run([*as_user, *args], check=True, capture_output=True, timeout=120)

    try:
        run(str(programs / "initdb"), "-D", str(data), "-U", USER, "--auth=trust", "-E", "UTF8", "--no-locale")
        options = f"-c listen_addresses=127.0.0.1 -p {port} -k {folder} -c max_connections=300"
        if not durable:
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        run(str(programs / "pg_ctl"), "-D", str(data), "-l", str(folder / "server.log"), "-o", options, "-w", "start")
        try:
            yield f"postgresql://{USER}@127.0.0.1:{port}/postgres"
        finally:
            run(str(programs / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def fresh_database(server_url: str) -> Iterator[str]:
    """A new empty database on the server for one test; yields its URL and drops it afterwards."""
    import psycopg

    name = f"test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(server_url, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    try:
        yield server_url.rsplit("/", 1)[0] + f"/{name}"
    finally:
        with psycopg.connect(server_url, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
