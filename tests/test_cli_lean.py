"""The lean route of `pbem check` and `pbem ingest` (adjudicator/cli/__init__.py): a plain command line runs
without typer, and says and stores exactly what the typer app says and stores for it; anything else goes to typer."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from email.message import EmailMessage
from pathlib import Path

import pytest
from typer.core import TyperArgument, TyperOption
from typer.main import get_group
from typer.models import TyperPath
from typer.testing import CliRunner

from adjudicator.archive import Archive
from adjudicator.archive.store import close_archives
from adjudicator.cli import DEFAULTS, ENVVARS, LEAN, app, lean_call
from tests.conftest import Pbem

# `pbem` as a mail filter runs it; writes to the file named by PBEM_TEST_MARK whether typer was loaded.
PROGRAM = (
    "import atexit, os, sys\n"
    "atexit.register(lambda: open(os.environ['PBEM_TEST_MARK'], 'w').write(str('typer' in sys.modules)))\n"
    "sys.argv[0] = 'pbem'\n"
    "from adjudicator.cli import main\n"
    "main()\n"
)


def by_program(args: list[str], mark: Path) -> tuple[int, str, str, bool]:
    """Exit status, stdout, stderr of `pbem args` as a new process, and whether it loaded typer."""
    env = {k: v for k, v in os.environ.items() if k not in ("PBEM_HOME", "PBEM_DB")} | {"PBEM_TEST_MARK": str(mark)}
    run = subprocess.run(
        [sys.executable, "-c", PROGRAM, *args], capture_output=True, text=True, check=False, timeout=60, env=env
    )
    return run.returncode, run.stdout, run.stderr, mark.read_text() == "True"


def by_typer(args: list[str]) -> tuple[int, str, str]:
    """Exit status, stdout and stderr of the whole typer app run with `args`."""
    with CliRunner().isolation() as (out, err, _):
        try:
            get_group(app).main(args, prog_name="pbem")
            status = 0
        except SystemExit as end:
            status = end.code if isinstance(end.code, int) else 1
        said = status, out.getvalue().decode(), err.getvalue().decode()
    close_archives()
    return said


@pytest.fixture
def played(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Pbem:
    """A new game rome1 in a SQLite archive (the default a mail filter uses)."""
    monkeypatch.delenv("PBEM_DB", raising=False)
    monkeypatch.delenv("PBEM_HOME", raising=False)
    pbem = Pbem(tmp_path / "data")
    pbem.new_game()
    close_archives()
    return pbem


def plain_path(kind: object) -> bool:
    """A path as the lean route reads it: any path, not resolved, refused by typer only when it cannot be read."""
    return isinstance(kind, TyperPath) and not (kind.exists or kind.resolve_path or kind.allow_dash or kind.writable)


def test_the_lean_forms_take_the_typer_commands_own_options() -> None:
    commands = get_group(app).commands
    for name, lean in LEAN.items():
        params = {p.name: p for p in commands[name].params}
        argument = params[lean.argument]
        assert isinstance(argument, TyperArgument) and argument.required == lean.required
        assert plain_path(argument.type)
        for option, kind in lean.options.items():
            param = params[option.removeprefix("--").replace("-", "_")]
            assert isinstance(param, TyperOption) and param.opts == [option] and not param.is_flag
            assert plain_path(param.type) if kind is Path else param.type.name == "str", option
            assert param.envvar == ENVVARS.get(option), option
            assert param.default == DEFAULTS.get(option), option


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["nosuch", "x"],
        ["check"],
        ["check", "--help"],
        ["check", "x", "--help"],
        ["check", "x", "y"],
        ["check", "--game", "a", "--game", "b", "x"],
        ["check", "--game", "-x", "x"],
        ["check", "--game"],
        ["check", "x", "--data="],
        ["check", "x", "--no-such-option", "y"],
        ["check", "", "--game", "a"],
        ["check", "--", "x"],
        ["ingest", "--mbox", "box"],
        ["ingest", "--imap", "host"],
        ["ingest", "a.eml", "b.eml"],
        ["ingest", "-"],
    ],
)
def test_any_other_form_goes_to_typer(args: list[str]) -> None:
    assert lean_call(args) is None


def test_an_empty_variable_goes_to_typer(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_HOME", "")
    assert lean_call(["check", "--game", "g", "x"]) is None
    assert lean_call(["check", "--game", "g", "x", "--data", "d"]) is not None


def test_check_says_the_same_both_ways(played: Pbem, tmp_path: Path) -> None:
    data = str(played.data)
    orders = played.orders("Macedonia", 1, "BUY 1 INF", "MOVE G1: MAC -> nowhere")
    good = played.orders("Macedonia", 1, "BUY 1 INF")
    snapshot = str(next(played.data.glob("games/rome1/turn-*/snapshot.json")))
    cases = [
        ["check", "--game", "rome1", str(orders), "--data", data],
        ["check", str(good), "--game=rome1", f"--data={data}"],
        ["check", "--state", snapshot, str(orders)],
        ["check", "--state", snapshot, str(good), "--data", data],
        ["check", str(orders), "--data", data],
        ["check", "--game", "rome1", "--state", snapshot, str(orders)],
        ["check", "--game", "rome1", "--game-data", data, str(orders), "--data", data],
        ["check", "--game", "nosuch", str(orders), "--data", data],
        ["check", "--game", "rome1", str(tmp_path / "missing.txt"), "--data", data],
        ["check", "--state", str(orders), str(orders)],
    ]
    for number, args in enumerate(cases):
        assert lean_call(args) is not None, args
        *said, typer_loaded = by_program(args, tmp_path / f"mark{number}")
        assert not typer_loaded, args
        assert tuple(said) == by_typer(args), args
    results = [by_typer(args)[0] for args in cases]
    assert results == [1, 0, 1, 0, 1, 1, 1, 1, 1, 1]  # the cases hold what they say: good, refused and wrong


def order_mail(path: Path, password: str) -> Path:
    message = EmailMessage()
    message["From"] = "mac@example.org"
    message["To"] = "moderator@example.org"
    message["Subject"] = "orders"
    message["Message-ID"] = f"<{path.stem}@players.example.org>"
    message.set_content(f"GAME rome1 TURN 1 PLAYER Macedonia PASSWORD {password}\nBUY 1 INF\n")
    path.write_bytes(bytes(message))
    return path


def test_ingest_says_and_stores_the_same_both_ways(played: Pbem, tmp_path: Path) -> None:
    typer_data = tmp_path / "typer-data"
    shutil.copytree(played.data, typer_data)
    mails = [
        order_mail(tmp_path / "good.eml", played.passwords["Macedonia"]),
        order_mail(tmp_path / "wrong.eml", "not-the-password"),
        tmp_path / "good.eml",  # again: a duplicate
        tmp_path / "missing.eml",
    ]
    (tmp_path / "unreadable.eml").write_bytes(b"\x00" * 10)
    mails.append(tmp_path / "unreadable.eml")
    outputs = []
    for number, mail in enumerate(mails):
        lean = ["ingest", str(mail), "--data", str(played.data)]
        assert lean_call(lean) is not None
        *said, typer_loaded = by_program(lean, tmp_path / f"mark{number}")
        assert not typer_loaded
        assert tuple(said) == by_typer(["ingest", str(mail), "--data", str(typer_data)]), mail.name
        outputs.append(said)
    assert [status for status, _, _ in outputs] == [0, 0, 0, 1, 1]
    assert outputs[0][1].endswith(": orders stored\n") and outputs[2][1].endswith(": duplicate\n")
    assert "wrong password" in outputs[1][1] and "unreadable" in outputs[4][1]
    lean_rows, typer_rows = Archive.open(played.data, None).dump(), Archive.open(typer_data, None).dump()
    close_archives()
    moment = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+]00:00")  # when each was stored differs
    assert moment.sub("T", repr(lean_rows)) == moment.sub("T", repr(typer_rows))
