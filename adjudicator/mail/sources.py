"""Where order mail comes from: bytes (a .eml file, stdin), an mbox, a Maildir, an IMAP mailbox.

Every source yields Delivery(incoming_or_error, mark_done) per message. The caller archives the message and
calls mark_done only after the archive commit; a message not marked done comes again next time (the caller
deduplicates by Message-ID anyway). For a message that cannot be read, mark_done sets it aside once the caller has
reported it (Maildir: the folder rejected/ beside new/ and cur/; IMAP: \\Seen and the keyword $PbemRejected), so that
it is not reported again on every run. A message larger than MAX_MAIL_BYTES is never read whole: only its header.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from glob import escape as glob_escape
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, NamedTuple

from adjudicator.errors import PbemError
from adjudicator.mail.inbound import MAX_MAIL_BYTES, Incoming, MailError, read_message
from adjudicator.mail.limits import limited

# mailbox, imaplib and ssl are imported by the functions that read an mbox or IMAP: one mail from a filter (a .eml,
# stdin) needs none of them, and loading them was a tenth of its command's start-up.
if TYPE_CHECKING:
    import imaplib
    import ssl


class MailSourceError(PbemError):
    """A mail source cannot be read at all: missing mailbox, refused connection, failed login, ..."""


class Delivery(NamedTuple):
    """One message from a source, read or not, and how to tell the source it has been dealt with."""

    incoming_or_error: Incoming | MailError
    mark_done: Callable[[], None]


def _nothing() -> None:
    """Nothing to mark: the source keeps no read state."""


def _read(data: bytes, where: str, size: int | None = None) -> Incoming | MailError:
    """The message read from data (its whole, or only its beginning when `size` says it is larger), or the
    MailError saying why not, naming where it came from."""
    try:
        return read_message(data, size)
    except MailError as e:
        return MailError(e.reason, where=where, data=data)


def from_bytes(data: bytes, where: str = "message") -> Iterator[Delivery]:
    """The one message in data (a .eml file, or stdin from a mail filter)."""
    yield Delivery(_read(data, where), _nothing)


def from_stream(stream: BinaryIO, where: str) -> Iterator[Delivery]:
    """The one message of a stream (a .eml file, or stdin from a mail filter), read no further than needed."""
    data, size = limited(stream)
    yield from from_limited(data, size, where)


def from_limited(data: bytes, size: int, where: str) -> Iterator[Delivery]:
    """The one message of a stream already read by limits.limited (its bytes, or its beginning, and its size)."""
    yield Delivery(_read(data, where, size), _nothing)


def from_file(path: str | os.PathLike[str]) -> Iterator[Delivery]:
    """The one message of a .eml file, read no further than needed."""
    with open(path, "rb") as stream:
        yield from from_stream(stream, str(path))


def from_mbox(path: str | os.PathLike[str]) -> Iterator[Delivery]:
    """Every message of an mbox file, in file order; mark_done does nothing (mbox keeps no seen state here)."""
    path = Path(path)
    if not path.is_file():
        raise MailSourceError(f"no mbox file at {path}")
    import mailbox

    box = mailbox.mbox(path, create=False)
    try:
        for number, key in enumerate(box.iterkeys(), start=1):
            with box.get_file(key) as stream:
                data, size = limited(stream)  # type: ignore[arg-type]
            yield Delivery(_read(data, f"mbox {path} message {number}", size), _nothing)
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
            with file.open("rb") as stream:
                data, size = limited(stream)
        except FileNotFoundError:  # taken by another reader meanwhile
            continue
        message = _read(data, f"Maildir {root} file {file.name}", size)
        done = _set_aside(root, file) if isinstance(message, MailError) else _seen_marker(root, file)
        yield Delivery(message, done)


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


def _set_aside(root: Path, file: Path) -> Callable[[], None]:
    """A mark_done for a message that cannot be read: it moves to rejected/ beside new/ and cur/ (made when
    needed), where the moderator finds it and no source reads it again; doing it twice does no harm."""

    def mark_done() -> None:
        rejected = root / "rejected"
        rejected.mkdir(exist_ok=True)
        try:
            file.rename(rejected / _unique(file.name))
        except FileNotFoundError:  # moved by another reader meanwhile, or already set aside
            pass

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
        import ssl

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
        import imaplib
        import ssl

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
        import imaplib

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

    def fetch(self, uid: bytes) -> tuple[bytes, int] | None:
        """The message without setting \\Seen (BODY.PEEK[]), or only its header (BODY.PEEK[HEADER]) when it is larger
        than MAX_MAIL_BYTES, and its size; None when it was expunged meanwhile."""
        size = None
        for item in self.command("FETCH", uid.decode(), "(RFC822.SIZE)"):
            found = re.search(rb"RFC822\.SIZE (\d+)", item if isinstance(item, bytes) else b"")
            size = int(found.group(1)) if found else size
        if size is None:
            return None
        part = "BODY.PEEK[HEADER]" if size > MAX_MAIL_BYTES else "BODY.PEEK[]"
        for item in self.command("FETCH", uid.decode(), f"({part})"):
            if isinstance(item, tuple) and re.search(rb"BODY\[(HEADER)?\]", item[0]):
                return item[1], size
        return None

    def mark_seen(self, uid: bytes, *keywords: str) -> None:
        """Set \\Seen (and `keywords`) on the message."""
        flags = " ".join(("\\Seen", *keywords))
        self.command("STORE", uid.decode(), "+FLAGS.SILENT", f"({flags})")

    def close(self) -> None:
        """Log out (politely; a dead connection is just dropped)."""
        import imaplib

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
            fetched = session.fetch(uid)
            if fetched is None:
                continue
            message = _read(fetched[0], f"{session.where} UID {uid.decode()}", fetched[1])
            keywords = (REJECTED_KEYWORD,) if isinstance(message, MailError) else ()
            yield Delivery(message, _imap_marker(session, uid, *keywords))
    finally:
        session.close()


REJECTED_KEYWORD = "$PbemRejected"  # the IMAP keyword of a message that could not be read (set with \\Seen)


def _imap_marker(session: _ImapSession, uid: bytes, *keywords: str) -> Callable[[], None]:
    """A mark_done that sets \\Seen (and `keywords`) on the message with this UID, and logs out again if it had to
    log in."""

    def mark_done() -> None:
        reconnect = session.conn is None
        try:
            session.mark_seen(uid, *keywords)
        finally:
            if reconnect:
                session.close()

    return mark_done
