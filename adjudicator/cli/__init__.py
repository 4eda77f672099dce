"""The `pbem` command: argument parsing and printing only; the work is done in adjudicator.services.

The commands are a typer app (commands.py). A mail filter runs `pbem ingest` once per mail and a moderator's
script `pbem check` once per order file, so `main` first looks whether the command line is one of the plain forms
of those two that LEAN lists, and runs it without loading typer, which cost them about a fifth of their start-up.
Anything else (help, a flag, an unknown or repeated option, a value that looks like an option, no argument) goes to
the typer app, so that every usage message and exit code stays typer's own. Both ways run the same code
(`run_check`, `run_ingest`) and print the same way (`echo`)."""

from __future__ import annotations

import codecs
import errno
import gc
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from adjudicator.errors import PbemError

DEFAULT_DATA = Path("pbem-data")
DATA_ENV = "PBEM_HOME"  # --data
DB_ENV = "PBEM_DB"  # --db


class Lean:
    """The plain form of a command that `main` runs without typer: the options it takes, each with a value and the
    type typer gives it (its parameter is the option's name, as typer names it), and its one argument. (A plain
    class: a dataclass would cost `pbem --help` the making of its methods.)"""

    __slots__ = ("options", "argument", "required", "run")

    def __init__(self, options: dict[str, type], argument: str, required: bool, run: Callable[..., int]) -> None:
        self.options = options
        self.argument = argument  # the parameter of the one positional argument
        self.required = required  # whether the argument must be given
        self.run = run  # the command's work; returns the exit status


def run_check(
    file: Path, game: str | None, state: Path | None, game_data: Path | None, data: Path, db: str | None
) -> int:
    """`pbem check`: the receipt of an order file against a game or a snapshot; 1 when an order fails."""
    from adjudicator.services.orders import check_state_orders, check_stored_orders, read_text_file

    if (game is None) == (state is None):
        raise PbemError("give either --game GAME or --state SNAPSHOT.json")
    if game is not None and game_data is not None:
        raise PbemError("--game-data goes with --state: an archived game keeps its data")
    text = read_text_file(file, "order file")
    if game is not None:
        receipt = check_stored_orders(data, db, game, text)
    else:
        assert state is not None
        receipt = check_state_orders(read_text_file(state, "state file"), text, game_data)
    echo(receipt.text, nl=False)
    return 1 if receipt.errors or any(not r.accepted for r in receipt.results) else 0


def run_ingest(
    eml: Path | None,
    data: Path,
    db: str | None,
    mbox: Path | None = None,
    maildir: Path | None = None,
    imap: str | None = None,
    imap_port: int = 993,
    imap_user: str | None = None,
    imap_starttls: bool = False,
    imap_mailbox: str = "INBOX",
    imap_cafile: Path | None = None,
) -> int:
    """`pbem ingest`: each message read is checked and stored and its outcome printed; 1 when the one message of a
    file or of stdin could not be read. One message (a file, stdin) goes to a running `pbem serve` of the archive
    when there is one (mail/handoff.py), which answers as this function would, else it is handled here."""
    if sum(x is not None for x in (eml, mbox, maildir, imap)) > 1:
        raise PbemError("give one source: a .eml file, --mbox, --maildir or --imap")
    if imap and not imap_user:
        raise PbemError("--imap needs --imap-user (or PBEM_IMAP_USER) and PBEM_IMAP_PASSWORD")
    read = None
    lean = None
    if mbox is None and maildir is None and imap is None:
        from adjudicator.mail.handoff import Handed, hand_off

        read = hand_off(data, db, eml)
        if isinstance(read, Handed):
            if read.error:
                echo(read.error, err=True)
            else:
                echo(read.out)
            return read.status
        if db is None:  # one mail on the default SQLite archive: without SQLAlchemy where it can (lean_mail.py)
            from adjudicator.archive.lean_mail import LeanArchive

            lean = LeanArchive.open(data)

    from adjudicator.mail.inbound import MailError
    from adjudicator.mail.sources import from_file, from_imap, from_limited, from_maildir, from_mbox, from_stream
    from adjudicator.services.mailbox import ingest_lean

    try:
        archive = None if lean is not None else _archive(data, db)
        if read is not None:  # read already, for a listener that did not take it
            deliveries = from_limited(*read)
        elif mbox:
            deliveries = from_mbox(mbox)
        elif maildir:
            deliveries = from_maildir(maildir)
        elif imap:
            import ssl  # here: a mail from a filter needs no TLS

            context = ssl.create_default_context(cafile=str(imap_cafile)) if imap_cafile else None
            deliveries = from_imap(
                imap,
                imap_port,
                imap_user or "",
                os.environ.get("PBEM_IMAP_PASSWORD", ""),
                imap_mailbox,
                ssl_context=context,
                starttls=imap_starttls,
            )
        elif eml:
            deliveries = from_file(eml)
        else:
            deliveries = from_stream(sys.stdin.buffer, "stdin")
        unreadable = 0
        for message, mark_done in deliveries:
            if isinstance(message, MailError):
                unreadable += 1
                echo(f"unreadable: {message}")
                mark_done()  # reported once: set aside (Maildir rejected/, IMAP flagged), not read again
                continue
            outcome = ingest_lean(lean, message) if lean is not None else None
            if outcome is None:
                from adjudicator.services.mailbox import ingest as ingest_mail

                archive = archive or _archive(data, db)
                outcome = ingest_mail(archive, message)
            mark_done()
            echo(f"{message.message_id} from {message.sender}: {outcome.text}")
    except OSError as problem:
        raise PbemError(str(problem)) from None
    finally:
        if lean is not None:
            lean.close()
    return 1 if unreadable and not (mbox or maildir or imap) else 0


def _archive(data: Path, db: str | None) -> Any:
    """The archive of `pbem ingest` (store.py, with SQLAlchemy)."""
    from adjudicator.archive import Archive

    return Archive.open(data, db)


# The forms `main` runs without typer; the typer commands of the same names take these options with the same
# names, types and environment variables (tests/test_cli_startup.py checks it).
LEAN = {
    "check": Lean(
        {"--game": str, "--state": Path, "--game-data": Path, "--data": Path, "--db": str}, "file", True, run_check
    ),
    "ingest": Lean({"--data": Path, "--db": str}, "eml", False, run_ingest),
}
ENVVARS = {"--data": DATA_ENV, "--db": DB_ENV}  # an option not given takes its variable's value, as typer does
DEFAULTS: dict[str, Any] = {"--data": DEFAULT_DATA}  # else this, or None


def lean_call(argv: list[str]) -> Callable[[], int] | None:
    """The work of command line `argv` (without the program's name) when it is a plain form of LEAN, else None."""
    lean = LEAN.get(argv[0]) if argv else None
    if lean is None:
        return None
    given: dict[str, str] = {}
    argument: list[str] = []
    words = iter(argv[1:])
    for word in words:
        if word.startswith("-"):
            option, equals, value = word.partition("=")
            found = value if equals else next(words, "")
            if option not in lean.options or option in given or not found or found.startswith("-"):
                return None
            given[option] = found
        elif word and not argument:
            argument.append(word)
        else:
            return None
    if lean.required and not argument:
        return None
    values: dict[str, Any] = {lean.argument: Path(argument[0]) if argument else None}
    for option, kind in lean.options.items():
        text = given.get(option)
        if text is None and option in ENVVARS and ENVVARS[option] in os.environ:
            text = os.environ[ENVVARS[option]]
            if not text:  # typer's reading of an empty variable: left to it
                return None
        values[option.removeprefix("--").replace("-", "_")] = kind(text) if text is not None else DEFAULTS.get(option)
    if any(isinstance(v, Path) and os.path.exists(v) and not os.access(v, os.R_OK) for v in values.values()):
        return None  # typer refuses a path it cannot read with its usage message
    return lambda: lean.run(**values)


_ANSI = re.compile(r"\033\[[;?0-9]*[a-zA-Z]")  # what typer.echo strips from text not written to a terminal


def echo(text: str, *, nl: bool = True, err: bool = False) -> None:
    """Print `text` as typer.echo does: typer's own once typer is loaded (the whole app runs), else to a text
    stream typer would write to unchanged (`_plain`), its colour codes stripped unless it is a terminal, and
    flushed."""
    stream = sys.stderr if err else sys.stdout
    if "typer" in sys.modules or not _plain(stream):
        import typer

        typer.echo(text, nl=nl, err=err)
        return
    out = f"{text}\n" if nl else text
    if not out:
        stream.flush()
        return
    try:
        terminal = stream.isatty()
    except Exception:
        terminal = False
    stream.write(out if terminal else _ANSI.sub("", out))
    stream.flush()


def _plain(stream: Any) -> bool:
    """Whether typer.echo writes to `stream` as it is: a text stream whose encoding is not ASCII (typer writes UTF-8
    to that one), not on Windows (its console), not a notebook's."""
    if stream is None or sys.platform == "win32" or type(stream).__module__.startswith("ipykernel."):
        return False
    try:
        return codecs.lookup(getattr(stream, "encoding", None) or "ascii").name != "ascii"
    except LookupError:
        return True


def _run(work: Callable[[], int]) -> int:
    """The exit status of `work`, its errors reported as the typer app reports them (commands.py `_Commands` and
    typer's main loop)."""
    try:
        return work()
    except PbemError as problem:
        echo(f"error: {problem}", err=True)
        return 1
    except EOFError:
        echo("", err=True)
        echo("Aborted!", err=True)
        return 1
    except KeyboardInterrupt:
        return 130
    except OSError as problem:  # a closed pipe: quiet, status 1, as typer ends
        if problem.errno != errno.EPIPE:
            raise
        from typer._click.utils import PacifyFlushWrapper

        sys.stdout, sys.stderr = PacifyFlushWrapper(sys.stdout), PacifyFlushWrapper(sys.stderr)  # type: ignore[assignment]
        return 1


def main() -> None:
    os.environ.setdefault("PYTHONIOENCODING", "utf-8")
    work = lean_call(sys.argv[1:])
    if work is None or not (_plain(sys.stdout) and _plain(sys.stderr)):
        from adjudicator.cli.commands import main as whole

        whole()
        return
    # A plain form is one short process: collecting cyclic garbage while its modules load (some fifty times) cost
    # `pbem check` a tenth of its time, and the end of the process frees everything at once.
    gc.disable()
    sys.exit(_run(work))


def __getattr__(name: str) -> Any:
    """The typer app and its helpers (`adjudicator.cli.app`), loaded when first asked for."""
    if name.startswith("__"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    return getattr(import_module("adjudicator.cli.commands"), name)
