"""`pbem ingest` handing its one mail to a running `pbem serve` of the same archive.

A mail piped to `pbem ingest` pays a new process's start-up, most of it the archive's libraries (sqlmodel,
SQLAlchemy, pydantic) and the mail parser. When `pbem serve` runs, it listens on a Unix socket in its data folder
(SOCKET_NAME); `pbem ingest` of one mail (a .eml file or stdin) finds that socket in its own data folder, sends the
mail's bytes, and prints what the listener answers: the line and exit status the one-shot path would have given
(lmtp.py reads and stores the mail with the functions run_ingest calls, and words its line alike). This module is
the client's whole side, so it imports the standard library alone (no email parsing, no archive, no typer).

Nothing is lost on the way: the listener stores a mail in one transaction with its Message-ID, as `pbem ingest`
does, so a mail it did not answer for (no listener, one of another archive or settings, a listener stopping or
dying, its archive busy past its wait, an error on its side) is handled by this process after all, on the one-shot
path, with the bytes already read: it is then stored, or found a duplicate when the listener had stored it before it
died. Only a listener that takes a mail and then stays silent past ANSWER_SECONDS ends the command with exit status
EX_TEMPFAIL, which a mail filter (procmail, .forward) treats as "try again later".

The protocol, on a stream socket: the request is GREETING and then fields, each its length in ASCII digits, a
newline and its bytes: the archive (data folder and database URL), the settings that change how a mail is
handled, where the mail came from (as the one-shot path names it), its size and its bytes (its beginning only when
it is over the read limit). The answer is DONE with the exit status and the text printed, or BACK (handled by the
client) with the listener's reason."""

from __future__ import annotations

import os
import socket
import sys
from pathlib import Path
from typing import NamedTuple

from adjudicator.mail.limits import HEAD_BYTES, MAX_MAIL_BYTES, limited

SOCKET_NAME = "ingest.sock"  # in the data folder
GREETING = b"PBEM-HANDOFF 1\n"
DONE = b"DONE\n"
BACK = b"BACK\n"
# Beside the archive, what decides how a mail is handled: the listener takes a mail only when these are the same
# in both processes (PBEM_HOME and PBEM_DB are read into the archive's data folder and URL).
VARIABLES = ("PBEM_RULESETS", "PBEM_SQLITE_JOURNAL")
CONNECT_SECONDS = 5.0
# The listener waits for a busy archive up to its --lock-wait (30 s by default) before it hands the mail back; this
# is far beyond any answer of a working listener.
ANSWER_SECONDS = 600.0
EX_TEMPFAIL = 75  # sysexits.h: a temporary failure; the mail filter tries again later
MAX_REQUEST = MAX_MAIL_BYTES + HEAD_BYTES  # the mail and its few fields


class Mail(NamedTuple):
    """A mail as the one-shot path reads it (limits.limited): its bytes, or its beginning, its size, and where it came
    from ("stdin" or the file's path as given)."""

    data: bytes
    size: int
    where: str


class Handed(NamedTuple):
    """The listener's answer for the mail: the exit status and the line to print, or the error to print when no
    answer came."""

    status: int
    out: str
    error: str = ""


class Request(NamedTuple):
    archive: str
    settings: str
    mail: Mail


def archive_key(data: Path | str, db: str | None) -> str:
    """Which archive a process works on: its data folder (resolved) and its database URL."""
    return f"{os.path.realpath(data)}\n{db or ''}"


def settings_key() -> str:
    return "\n".join(f"{name}={os.environ.get(name, '')}" for name in VARIABLES)


def pack(*fields: bytes) -> bytes:
    return b"".join(b"%d\n%s" % (len(field), field) for field in fields)


def unpack(data: bytes, count: int) -> list[bytes] | None:
    """`count` fields of `data` (as `pack` made them), or None when it is not that."""
    fields, at = [], 0
    for _ in range(count):
        end = data.find(b"\n", at, at + 12)
        if end < 0 or not data[at:end].isdigit():
            return None
        at, size = end + 1, int(data[at:end])
        if at + size > len(data):
            return None
        fields.append(data[at : at + size])
        at += size
    return fields if at == len(data) else None


def read_request(data: bytes) -> Request | None:
    """The request the listener got, or None when it is not one."""
    if not data.startswith(GREETING):
        return None
    fields = unpack(data[len(GREETING) :], 5)
    if fields is None or not fields[3].isdigit():
        return None
    archive, settings, where, size, mail = fields
    return Request(_text(archive), _text(settings), Mail(mail, int(size), _text(where)))


def done(status: int, out: str) -> bytes:
    """The answer for a mail handled: the exit status, and the line the one-shot path prints."""
    return DONE + pack(str(status).encode(), _bytes(out))


def back(reason: str) -> bytes:
    """The answer for a mail the client is to handle itself, and why."""
    return BACK + pack(_bytes(reason))


# Any str goes through as it is, lone surrogates too (a path or a header field not in UTF-8): the client prints
# exactly what the one-shot path would.
def _bytes(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")


def _text(data: bytes) -> str:
    return data.decode("utf-8", "surrogatepass")


def hand_off(data: Path, db: str | None, eml: Path | None) -> Handed | Mail | None:
    """The listener's answer for the mail of `eml` (else stdin); the mail as read when the listener did not answer
    for it (this process then handles it); None when no listener was reached and nothing was read."""
    path = os.path.join(data, SOCKET_NAME)
    if not os.path.exists(path) or (eml is None and sys.stdin is None):
        return None
    try:
        line = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    except OSError:  # no descriptor left, say: the one-shot path needs no socket
        return None
    try:
        line.settimeout(CONNECT_SECONDS)
        try:
            line.connect(path)
        except OSError:  # a socket left by a listener that died, or a path too long for a socket
            return None
        try:
            mail = _read(eml)
        except OSError:
            return None  # the one-shot path reads it again and says why it cannot
        fields = (_bytes(archive_key(data, db)), _bytes(settings_key()), _bytes(mail.where), b"%d" % mail.size)
        try:
            line.sendall(GREETING + pack(*fields, mail.data))
            line.shutdown(socket.SHUT_WR)
        except OSError:  # not all sent (a timeout too): the listener handles no part of a mail
            return mail
        try:
            line.settimeout(ANSWER_SECONDS)
            answer = _receive(line)
        except TimeoutError:
            return Handed(
                EX_TEMPFAIL,
                "",
                f"error: the listener on {path} took the mail but did not answer in {ANSWER_SECONDS:g} s; "
                "the mail filter tries again later",
            )
        except OSError:
            return mail  # the listener stopped or died: whatever it did is undone or known by the Message-ID
    finally:
        line.close()
    if answer.startswith(DONE):
        status, out = unpack(answer[len(DONE) :], 2) or (b"", b"")
        if status.isdigit():
            return Handed(int(status), _text(out))
    return mail


def _read(eml: Path | None) -> Mail:
    if eml is None:
        data, size = limited(sys.stdin.buffer)
        return Mail(data, size, "stdin")
    with open(eml, "rb") as stream:
        data, size = limited(stream)
    return Mail(data, size, str(eml))


def _receive(line: socket.socket) -> bytes:
    pieces = []
    while piece := line.recv(65536):
        pieces.append(piece)
    return b"".join(pieces)
