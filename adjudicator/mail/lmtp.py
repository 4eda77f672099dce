"""`pbem serve`: a long-running LMTP listener (RFC 2033) that a mail server delivers order mail to.

A mail piped to `pbem ingest` pays the start-up of a new process; here the process, the archive's connections and
everything the first mail loads stay, and each mail costs only its handling. Each mail goes to the same function
as `pbem ingest` (services.mailbox.ingest), with the same checks, the same all-or-nothing transaction and the same
answers queued; the listener knows nothing of games. Its LMTP reply tells the mail server what to do with it:

    250  taken: stored with its outcome, whatever that was (a player whose orders were refused gets the refusal
         mail, as with `pbem ingest`); the same mail again (its Message-ID known) is taken too and changes nothing
    451  not taken this time (the archive busy past the wait, an error on this side, the listener stopping):
         nothing of it was stored, and the mail server tries again later
    550  never to be taken: not a mail message (`pbem ingest` says "unreadable" and stores nothing either)
    552  larger than MAX_DELIVERY_BYTES (aiosmtpd's own reply)

One recipient per delivery (a second RCPT gets 452, which makes the mail server send it again on its own): a
reply after DATA then always stands for exactly one recipient, as LMTP needs, on every path of aiosmtpd's.

Beside LMTP it takes mail from `pbem ingest` itself (handoff.py): on the Unix socket SOCKET_NAME in its data folder,
a `pbem ingest` of the same archive and settings hands its one mail over and prints the answer, the same line and
exit status as its one-shot path, without loading the archive's libraries. Whatever this side does not finish (it
is stopping, the archive is busy past the wait, an error) it hands back, and `pbem ingest` handles the mail itself.
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import stat
import sys
import threading
import traceback
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aiosmtpd.lmtp import LMTP
from aiosmtpd.smtp import Envelope
from aiosmtpd.smtp import Session as SmtpSession
from sqlalchemy import event
from sqlalchemy.exc import OperationalError

from adjudicator.archive import Archive
from adjudicator.errors import PbemError
from adjudicator.mail import handoff
from adjudicator.mail.inbound import MAX_MAIL_BYTES, MailError
from adjudicator.mail.sources import from_bytes, from_limited
from adjudicator.services.mailbox import ingest

# A mail up to MAX_MAIL_BYTES is read whole; a larger one up to this size is taken and refused unread with its
# header read, as `pbem ingest` does; beyond it the mail server gets 552 (its own default limit, Postfix's
# message_size_limit, is 10 MB: such a mail rarely comes this far).
MAX_DELIVERY_BYTES = 32 * 1024 * 1024
DEFAULT_PORT = 2003

TAKEN = "250 2.0.0 taken"
BUSY = "451 4.3.0 the archive is busy or unreachable; try again later"
FAILED = "451 4.3.0 the mail could not be handled (see the listener's log); try again later"
STOPPING = "451 4.3.2 the listener is stopping; try again later"
ONE_RECIPIENT = "452 4.5.3 one recipient per delivery; send the others again"


class ListenError(PbemError):
    """The listener cannot start: the address is taken, the socket path is in use, ..."""


@dataclass(frozen=True)
class Where:
    """Where to listen: a TCP host and port, or a Unix socket (`path`)."""

    host: str = "127.0.0.1"
    port: int = DEFAULT_PORT
    path: Path | None = None


@dataclass(frozen=True)
class Handoff:
    """Where `pbem ingest` hands mail over: the listener's data folder (its socket is SOCKET_NAME there) and database
    URL, which a handed mail's archive must match."""

    data: Path
    db: str | None = None

    @property
    def path(self) -> Path:
        return self.data / handoff.SOCKET_NAME


def _one_line(text: str) -> str:
    """Text fit for an SMTP reply: one line of printable ASCII."""
    flat = " ".join(text.split())
    return flat.encode("ascii", "backslashreplace").decode("ascii")[:400]


class _Lmtp(LMTP):
    """aiosmtpd's LMTP session, which tells the handler when a DATA command (its reply included) is over, so that
    a stop waits for the mails in hand; lines as long as a whole mail may have are taken (not refused by 500)."""

    line_length_limit = MAX_MAIL_BYTES

    async def smtp_DATA(self, arg: str) -> None:
        try:
            await super().smtp_DATA(arg)
        finally:
            self.event_handler.replied(self)

    def connection_lost(self, error: Exception | None) -> None:
        super().connection_lost(error)
        self.event_handler.sessions.discard(self)


class _Handler:
    """The aiosmtpd handler: each mail's bytes to `ingest` in a worker thread (the password check, scrypt,
    releases the GIL, so two workers use two cores), its outcome printed as `pbem ingest` prints it."""

    def __init__(self, archive: Archive, workers: int, say: Callable[[str], None], taking: Handoff | None) -> None:
        self.archive = archive
        # what a handed mail's archive and settings must be (handoff.py); read once, as the archive was opened
        self.archive_key = handoff.archive_key(taking.data, taking.db) if taking else None
        self.settings_key = handoff.settings_key()
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="pbem-lmtp")
        self.say_lock = threading.Lock()
        self.output = say
        self.sessions: set[_Lmtp] = set()
        self.in_hand: set[object] = set()  # the LMTP sessions and hand-off connections with a mail in hand
        self.idle = asyncio.Event()
        self.idle.set()
        self.stopping = False

    def say(self, line: str) -> None:
        with self.say_lock:
            self.output(line)

    async def handle_RCPT(
        self, server: _Lmtp, session: SmtpSession, envelope: Envelope, address: str, options: list[str]
    ) -> str:
        if envelope.rcpt_tos:
            return ONE_RECIPIENT
        envelope.rcpt_tos.append(address)
        envelope.rcpt_options.extend(options)
        return "250 2.1.5 OK"

    async def handle_DATA(self, server: _Lmtp, session: SmtpSession, envelope: Envelope) -> str:
        if self.stopping:
            return STOPPING
        self.in_hand.add(server)
        self.idle.clear()
        # SMTP's line ends are CRLF; a mail piped to `pbem ingest` by the mail server has LF (a mail without a
        # Message-ID gets one from the hash of its bytes, so they must be the same bytes)
        data = (envelope.original_content or b"").replace(b"\r\n", b"\n")
        # a TCP client's host and port; a Unix socket's has none
        peer = ":".join(map(str, session.peer[:2])) if isinstance(session.peer, tuple) else ""
        return await asyncio.get_running_loop().run_in_executor(self.pool, self.deliver, data, peer)

    def replied(self, server: object) -> None:
        self.in_hand.discard(server)
        if not self.in_hand:
            self.idle.set()

    def deliver(self, data: bytes, peer: str) -> str:
        """One mail handled as `pbem ingest` handles it; its LMTP reply. Whatever fails here is this side's fault
        (a 451: the mail server keeps the mail), never the mail's: aiosmtpd would answer an exception with a 500."""
        try:
            message, _ = next(from_bytes(data, f"LMTP from {peer}" if peer else "LMTP"))
            if isinstance(message, MailError):
                self.say(f"unreadable: {message}")
                return f"550 5.6.0 unreadable: {_one_line(message.reason)}"
            named = f"{message.message_id} from {message.sender}"
            try:
                outcome = ingest(self.archive, message)
            except OperationalError as problem:  # locked past the wait, or the database gone: rolled back whole
                self.say(f"{named}: not taken, try again: {_one_line(str(problem.orig))}")
                return BUSY
            self.say(f"{named}: {outcome.text}")
            return TAKEN
        except Exception:  # rolled back whole (ingest is one transaction); the mail server tries again later
            self.say(f"a mail from LMTP {peer}: not taken, try again: an error (its trace is on stderr)")
            print(traceback.format_exc(), file=sys.stderr, flush=True)
            return FAILED

    async def take_handed(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """One connection of `pbem ingest`: its mail handled (or handed back) and answered."""
        try:
            request = await _request(reader)
            # in hand once read (a stop waits for it), not before: a client that sends nothing holds no stop up
            self.in_hand.add(writer)
            self.idle.clear()
            if request is None:
                answer = handoff.back("not a hand-off request")
            elif self.stopping:
                answer = handoff.back("the listener is stopping")
            elif request.archive != self.archive_key or request.settings != self.settings_key:
                answer = handoff.back("another archive or other settings")
            else:
                answer = await asyncio.get_running_loop().run_in_executor(self.pool, self.handed, request.mail)
            writer.write(answer)
            await writer.drain()
        except OSError:
            pass  # the client left: it handles the mail itself (whatever was stored is known by its Message-ID)
        finally:
            writer.close()
            self.replied(writer)

    def handed(self, mail: handoff.Mail) -> bytes:
        """A mail handed over by `pbem ingest`, handled as its one-shot path handles it (cli run_ingest): the same
        line and exit status; anything not finished is handed back (ingest is one transaction: nothing stays)."""
        try:
            message, _ = next(from_limited(mail.data, mail.size, mail.where))
            if isinstance(message, MailError):
                line = f"unreadable: {message}"
                self.say(line)
                return handoff.done(1, line)
            named = f"{message.message_id} from {message.sender}"
            try:
                outcome = ingest(self.archive, message)
            except OperationalError as problem:  # busy past the wait: `pbem ingest` waits as it always does
                self.say(f"{named}: handed back to pbem ingest: {_one_line(str(problem.orig))}")
                return handoff.back("the archive is busy")
            line = f"{named}: {outcome.text}"
            self.say(line)
            return handoff.done(0, line)
        except Exception:  # `pbem ingest` meets the same error and reports it as it always does
            self.say(f"a mail handed over ({mail.where}): handed back to pbem ingest: an error (see stderr)")
            print(traceback.format_exc(), file=sys.stderr, flush=True)
            return handoff.back("an error")


async def _request(reader: asyncio.StreamReader) -> handoff.Request | None:
    """The request of a hand-off connection, read to its end; None when it is none (or too large to be one)."""
    pieces, size = [], 0
    while piece := await reader.read(65536):
        size += len(piece)
        if size > handoff.MAX_REQUEST:
            return None
        pieces.append(piece)
    return handoff.read_request(b"".join(pieces))


def wait_for_locks(archive: Archive, seconds: float) -> None:
    """Let a transaction wait at most `seconds` for the archive's lock (SQLite's busy timeout, PostgreSQL's
    lock_timeout) before it fails, so that a mail is deferred (451) rather than holding its worker for long."""
    engine = archive.engine
    millis = max(1, int(seconds * 1000))
    if engine.dialect.name == "sqlite":
        statement = f"PRAGMA busy_timeout={millis}"
    elif engine.dialect.name == "postgresql":
        statement = f"SET lock_timeout = {millis}"
    else:
        return

    def connected(connection: Any, _record: Any) -> None:
        cursor = connection.cursor()
        cursor.execute(statement)
        cursor.close()
        if engine.dialect.name == "postgresql":
            connection.commit()  # else the pool's rollback on return would undo the SET

    event.listen(engine, "connect", connected)  # after the archive's own, so that this wait wins
    engine.dispose()  # connections opened before take it too: they are opened again


def _free_socket_path(path: Path) -> None:
    """Remove a socket left by a listener that died; refuse a path in use or one that is not a socket."""
    if not path.exists() and not path.is_symlink():
        return
    if not stat.S_ISSOCK(path.lstat().st_mode):
        raise ListenError(f"{path} exists and is not a socket: give another --socket path")
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        probe.connect(str(path))
    except OSError:
        path.unlink()  # nobody listens there
        return
    finally:
        probe.close()
    raise ListenError(f"another listener is on {path}")


async def _handoff_server(handler: _Handler, taking: Handoff) -> asyncio.AbstractServer | None:
    """The Unix socket `pbem ingest` hands mail to; None (said on stderr) when it cannot be made: `pbem ingest` then
    handles its mails itself, as it does without a listener."""
    try:
        _free_socket_path(taking.path)
        return await asyncio.start_unix_server(handler.take_handed, str(taking.path))
    except ListenError as problem:
        why = str(problem).removesuffix(": give another --socket path")
    except OSError as problem:
        why = f"cannot listen on {taking.path}: {problem}"
    print(f"pbem serve: pbem ingest hands no mail over here: {why}", file=sys.stderr, flush=True)
    return None


async def _serve(
    archive: Archive, where: Where, workers: int, say: Callable[[str], None], taking: Handoff | None
) -> None:
    loop = asyncio.get_running_loop()
    handler = _Handler(archive, workers, say, taking)
    hostname = socket.getfqdn()  # once: aiosmtpd would look it up for every connection

    def session() -> _Lmtp:
        made = _Lmtp(
            handler,
            data_size_limit=MAX_DELIVERY_BYTES,
            enable_SMTPUTF8=True,
            hostname=hostname,
            ident="pbem LMTP",
            loop=loop,
        )
        handler.sessions.add(made)
        return made

    try:
        if where.path is not None:
            _free_socket_path(where.path)
            server = await loop.create_unix_server(session, str(where.path))
            shown = f"unix socket {where.path}"
        else:
            server = await loop.create_server(session, where.host, where.port)
            host, port = server.sockets[0].getsockname()[:2]
            shown = f"{host}:{port}"
    except OSError as problem:
        raise ListenError(f"cannot listen on {where.path or f'{where.host}:{where.port}'}: {problem}") from None
    handed = await _handoff_server(handler, taking) if taking is not None else None
    stop = asyncio.Event()
    for number in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(number, stop.set)
    say(f"pbem serve: listening on {shown} (LMTP), pid {os.getpid()}")
    try:
        await stop.wait()
        handler.stopping = True
        server.close()  # no new connections; the mails in hand are finished and answered first
        if handed is not None:
            handed.close()
        await handler.idle.wait()
        for made in list(handler.sessions):
            if made.transport is not None:
                made.transport.close()
        await server.wait_closed()
        if handed is not None:
            await handed.wait_closed()
    finally:
        for number in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(number)
        await loop.run_in_executor(None, handler.pool.shutdown)  # a mail whose client left is finished too
        if where.path is not None:
            where.path.unlink(missing_ok=True)
        if handed is not None and taking is not None:
            taking.path.unlink(missing_ok=True)
    say("pbem serve: stopped")


def serve(
    archive: Archive,
    where: Where,
    *,
    workers: int = 2,
    lock_wait: float = 30.0,
    say: Callable[[str], None] = print,
    taking: Handoff | None = None,
) -> None:
    """Listen for LMTP deliveries until SIGTERM or SIGINT; each mail is handled as `pbem ingest` handles it. With
    `taking`, `pbem ingest` of the same archive hands its mail over too (handoff.py)."""
    wait_for_locks(archive, lock_wait)
    try:
        asyncio.run(_serve(archive, where, workers, say, taking))
    finally:
        archive.close()
