"""Where order mail comes from: bytes (a .eml file, stdin), an mbox, a Maildir, an IMAP mailbox.

Every source yields Delivery(incoming_or_error, mark_done) per message. The caller archives the message and
calls mark_done only after the archive commit; a message not marked done comes again next time (the caller
deduplicates by Message-ID anyway).
"""

from __future__ import annotations

import imaplib
import mailbox
import os
import re
import ssl
from collections.abc import Callable, Iterator
from glob import escape as glob_escape
from pathlib import Path
from typing import NamedTuple

from adjudicator.mail.inbound import Incoming, MailError, read_message


class MailSourceError(Exception):
    """A mail source cannot be read at all: missing mailbox, refused connection, failed login, ..."""


class Delivery(NamedTuple):
    """One message from a source, read or not, and how to tell the source it has been dealt with."""

    incoming_or_error: Incoming | MailError
    mark_done: Callable[[], None]


def _nothing() -> None:
    """Nothing to mark: the source keeps no read state."""


def _read(data: bytes, where: str) -> Incoming | MailError:
    """The message read from data, or the MailError saying why not, naming where it came from."""
    try:
        return read_message(data)
    except MailError as e:
        return MailError(e.reason, where=where, data=data)


def from_bytes(data: bytes, where: str = "message") -> Iterator[Delivery]:
    """The one message in data (a .eml file, or stdin from a mail filter)."""
    yield Delivery(_read(data, where), _nothing)


def from_mbox(path: str | os.PathLike[str]) -> Iterator[Delivery]:
    """Every message of an mbox file, in file order; mark_done does nothing (mbox keeps no seen state here)."""
    path = Path(path)
    if not path.is_file():
        raise MailSourceError(f"no mbox file at {path}")
    box = mailbox.mbox(path, create=False)
    try:
        for number, key in enumerate(box.iterkeys(), start=1):
            yield Delivery(_read(box.get_bytes(key), f"mbox {path} message {number}"), _nothing)
    finally:
        box.close()


# Maildir: new/ holds unread mail named <unique>; cur/ holds mail named <unique><colon>2,<flags>.
_COLON = ":" if os.name != "nt" else "!"


def _flags(name: str) -> str:
    """The Maildir flags of a file name in cur/ ("" when it has none)."""
    _, sep, info = name.rpartition(_COLON)
    return info[2:] if sep and info.startswith("2,") else ""


def _unique(name: str) -> str:
    return name.rpartition(_COLON)[0] if _COLON + "2," in name else name


def from_maildir(path: str | os.PathLike[str]) -> Iterator[Delivery]:
    """Unseen messages of a Maildir (new/, and cur/ without the S or T flag); mark_done files them as seen."""
    root = Path(path)
    if not all((root / sub).is_dir() for sub in ("new", "cur", "tmp")):
        raise MailSourceError(f"no Maildir at {root} (it needs the folders new, cur and tmp)")
    files = [f for f in (root / "new").iterdir() if not f.name.startswith(".") and f.is_file()]
    files += [
        f
        for f in (root / "cur").iterdir()
        if not f.name.startswith(".") and f.is_file() and not {"S", "T"} & set(_flags(f.name))
    ]
    files.sort(key=lambda f: (_mtime(f), f.name))
    for file in files:
        try:
            data = file.read_bytes()
        except FileNotFoundError:  # taken by another reader meanwhile
            continue
        yield Delivery(_read(data, f"Maildir {root} file {file.name}"), _seen_marker(root, file))


def _mtime(file: Path) -> float:
    try:
        return file.stat().st_mtime
    except FileNotFoundError:
        return 0.0


def _seen_marker(root: Path, file: Path) -> Callable[[], None]:
    """A mark_done that moves the message to cur/ with the S (seen) flag; doing it twice does no harm."""

    def mark_done() -> None:
        unique = _unique(file.name)
        current = file
        if not current.exists():  # another mail reader may have moved it to cur/ meanwhile
            moved = list((root / "cur").glob(f"{glob_escape(unique)}{_COLON}2,*"))
            if not moved:
                raise MailSourceError(f"Maildir {root}: message {unique} vanished before it could be marked seen")
            current = moved[0]
        flags = "".join(sorted(set(_flags(current.name)) | {"S"}))
        target = root / "cur" / f"{unique}{_COLON}2,{flags}"
        if current != target:
            current.rename(target)

    return mark_done


# ---------------------------------------------------------------- IMAP


def _quote(mailbox_name: str) -> str:
    """An IMAP mailbox name as a quoted string."""
    if not mailbox_name.isascii():
        raise MailSourceError(f"IMAP mailbox names must be ASCII here: {mailbox_name!r}")
    return '"' + mailbox_name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _text(data: object) -> str:
    """An imaplib response as text for error messages."""
    if isinstance(data, list):
        return " ".join(_text(d) for d in data if d is not None)
    if isinstance(data, bytes):
        return data.decode("utf-8", "replace")
    return str(data)


class _ImapSession:
    """One logged-in IMAP connection with a mailbox selected read-write; reconnects when it was closed."""

    def __init__(
        self,
        host: str,
        port: int,
        user: str,
        password: str,
        mailbox_name: str,
        ssl_context: ssl.SSLContext | None,
        starttls: bool,
        timeout: float,
    ) -> None:
        self.host, self.port, self.user, self.password = host, port, user, password
        self.mailbox = mailbox_name
        self.context = ssl_context or ssl.create_default_context()
        self.starttls, self.timeout = starttls, timeout
        self.conn: imaplib.IMAP4 | None = None
        self.uidvalidity: bytes | None = None

    @property
    def where(self) -> str:
        return f"IMAP {self.user}@{self.host}:{self.port} {self.mailbox}"

    def open(self) -> imaplib.IMAP4:
        """The connection, opened, secured, logged in and with the mailbox selected."""
        if self.conn is not None:
            return self.conn
        try:
            if self.starttls:
                conn = imaplib.IMAP4(self.host, self.port, timeout=self.timeout)
                try:
                    conn.starttls(ssl_context=self.context)
                except BaseException:
                    conn.shutdown()
                    raise
            else:
                conn = imaplib.IMAP4_SSL(self.host, self.port, ssl_context=self.context, timeout=self.timeout)
        except ssl.SSLError as e:
            raise MailSourceError(f"{self.where}: TLS failed: {e}") from e
        except (OSError, imaplib.IMAP4.error) as e:
            raise MailSourceError(f"{self.where}: cannot connect: {e}") from e
        try:
            try:
                conn.login(self.user, self.password)
            except imaplib.IMAP4.error as e:
                raise MailSourceError(f"{self.where}: login failed: {_text(e.args[0] if e.args else e)}") from e
            typ, data = conn.select(_quote(self.mailbox))
            if typ != "OK":
                raise MailSourceError(f"{self.where}: cannot open the mailbox: {_text(data)}")
            validity = conn.response("UIDVALIDITY")[1][0]
            if self.uidvalidity is not None and validity != self.uidvalidity:
                raise MailSourceError(f"{self.where}: the mailbox was rebuilt (UIDVALIDITY changed); read it again")
            self.uidvalidity = validity
        except imaplib.IMAP4.error as e:
            conn.shutdown()
            raise MailSourceError(f"{self.where}: {_text(e.args[0] if e.args else e)}") from e
        except BaseException:
            conn.shutdown()
            raise
        self.conn = conn
        return conn

    def command(self, *args: str) -> list[object]:
        """Run a UID command; its data, or MailSourceError when the server says no or the link broke."""
        conn = self.open()
        try:
            typ, data = conn.uid(*args)
        except (OSError, imaplib.IMAP4.abort) as e:
            self.conn = None  # broken: the next command connects again
            raise MailSourceError(f"{self.where}: connection lost during UID {args[0]}: {e}") from e
        except imaplib.IMAP4.error as e:
            raise MailSourceError(f"{self.where}: UID {args[0]} failed: {_text(e.args[0] if e.args else e)}") from e
        if typ != "OK":
            raise MailSourceError(f"{self.where}: UID {args[0]} failed: {_text(data)}")
        return data

    def unseen(self) -> list[bytes]:
        """UIDs of the unseen messages, oldest first."""
        data = self.command("SEARCH", "UNSEEN")
        return sorted((uid for d in data if isinstance(d, bytes) for uid in d.split()), key=int)

    def fetch(self, uid: bytes) -> bytes | None:
        """The whole message without setting \\Seen (BODY.PEEK[]); None when it was expunged meanwhile."""
        for item in self.command("FETCH", uid.decode(), "(BODY.PEEK[])"):
            if isinstance(item, tuple) and re.search(rb"BODY\[\]", item[0]):
                return item[1]
        return None

    def mark_seen(self, uid: bytes) -> None:
        """Set \\Seen on the message."""
        self.command("STORE", uid.decode(), "+FLAGS.SILENT", "(\\Seen)")

    def close(self) -> None:
        """Log out (politely; a dead connection is just dropped)."""
        conn, self.conn = self.conn, None
        if conn is None:
            return
        try:
            conn.logout()
        except (OSError, imaplib.IMAP4.error):
            conn.shutdown()


def from_imap(
    host: str,
    port: int,
    user: str,
    password: str,
    mailbox: str = "INBOX",
    ssl_context: ssl.SSLContext | None = None,
    starttls: bool = False,
    timeout: float = 60.0,
) -> Iterator[Delivery]:
    """Unseen messages of an IMAP mailbox over TLS (or STARTTLS); fetching leaves them unseen, mark_done sets \\Seen.

    The connection stays open while the iterator runs; a mark_done called after it ended connects again.
    """
    session = _ImapSession(host, port, user, password, mailbox, ssl_context, starttls, timeout)
    try:
        for uid in session.unseen():
            data = session.fetch(uid)
            if data is None:
                continue
            where = f"{session.where} UID {uid.decode()}"
            yield Delivery(_read(data, where), _imap_marker(session, uid))
    finally:
        session.close()


def _imap_marker(session: _ImapSession, uid: bytes) -> Callable[[], None]:
    """A mark_done that sets \\Seen on the message with this UID, and logs out again if it had to log in."""

    def mark_done() -> None:
        reconnect = session.conn is None
        try:
            session.mark_seen(uid)
        finally:
            if reconnect:
                session.close()

    return mark_done
