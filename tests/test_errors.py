"""One error base: every error a user can cause is a PbemError, and the CLI turns any of them,
from any command, into one line and exit status 1, without loading the archive for commands on files alone."""

from __future__ import annotations

import importlib
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

import adjudicator.services
from adjudicator.archive.store import ArchiveError
from adjudicator.engine.chance import DiceError
from adjudicator.errors import PbemError
from adjudicator.mail.clock import UnknownZone
from adjudicator.mail.inbound import MailError
from adjudicator.mail.sources import MailSourceError
from adjudicator.orders.keywords import UnknownLanguage
from adjudicator.rulesets import UnknownRuleset
from adjudicator.rulesets.coe.state import SnapshotError
from adjudicator.rulesets.coe.turn import NotDue
from tests.conftest import Pbem

Write = Callable[[str, str | bytes], Path]

# Each user error with the base it had before (code elsewhere catches it by that base).
USER_ERRORS = [
    (ArchiveError, LookupError),
    (UnknownRuleset, LookupError),
    (SnapshotError, ValueError),
    (DiceError, ValueError),
    (NotDue, ValueError),
    (MailError, ValueError),
    (UnknownLanguage, ValueError),
    (UnknownZone, ValueError),
    (MailSourceError, Exception),
]


@pytest.mark.parametrize(("error", "base"), USER_ERRORS, ids=[e.__name__ for e, _ in USER_ERRORS])
def test_every_user_error_is_a_pbem_error_and_keeps_its_base(error: type[Exception], base: type[Exception]) -> None:
    assert issubclass(error, PbemError) and issubclass(error, base)


def test_the_services_raise_the_one_pbem_error_and_define_no_other_error() -> None:
    for path in sorted((Path(adjudicator.services.__file__).parent).glob("*.py")):
        module = importlib.import_module(f"adjudicator.services.{path.stem}")
        errors = [v for v in vars(module).values() if isinstance(v, type) and issubclass(v, Exception)]
        assert all(e is PbemError or e.__module__ != module.__name__ for e in errors), path.name
        assert getattr(module, "PbemError", PbemError) is PbemError, path.name


def test_errors_of_commands_and_game_master_commands_are_one_line_and_change_nothing(pbem: Pbem) -> None:
    pbem.new_game()
    before = pbem.dump()
    for command in (["verify", "nosuch"], ["gm", "pause", "nosuch"], ["gm", "end", "nosuch"]):
        result = pbem(*command)
        assert result.exit_code == 1, (command, result.output)
        said = result.output.strip()
        assert said == "error: unknown game 'nosuch'; games in this archive: rome1", (command, result.output)
    result = pbem("site", "rome1", "--out", str(pbem.data.parent / "site"), "--language", "xx")
    assert result.exit_code == 1 and result.output.startswith("error: ") and "'xx'" in result.output
    assert "Traceback" not in result.output and not (pbem.data.parent / "site").exists()
    assert pbem.dump() == before


def test_check_on_files_alone_fails_in_one_line_without_loading_the_archive(write: Write) -> None:
    state = write("state.json", '{"schema": 1,')
    orders = write("orders.txt", "GAME x TURN 1 PLAYER Egyptus PASSWORD x\nBUY 1 INF\n")
    program = (
        "import sys\n"
        "from adjudicator.cli import main\n"
        f"sys.argv = ['pbem', 'check', '--state', {str(state)!r}, {str(orders)!r}]\n"
        "try:\n"
        "    main()\n"
        "except SystemExit as end:\n"
        "    print('exit', end.code, 'archive loaded:', 'sqlmodel' in sys.modules or 'sqlalchemy' in sys.modules)\n"
    )
    run = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=False, timeout=60)
    assert run.stdout.strip() == "exit 1 archive loaded: False", run.stdout + run.stderr
    assert run.stderr.startswith("error: "), run.stderr
    assert "not JSON" in run.stderr and "Traceback" not in run.stderr and len(run.stderr.splitlines()) == 1
