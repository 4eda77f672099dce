"""Reading one order mail: sender, Message-ID, subject and the order text found in it."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from email import errors as email_errors
from email.headerregistry import Address
from email.message import EmailMessage, Message
from email.parser import BytesParser
from email.policy import Policy
from email.policy import default as default_policy
from functools import cache
from typing import TypeVar, cast

from adjudicator.errors import PbemError
from adjudicator.mail.limits import HEAD_BYTES, MAX_MAIL_BYTES
from adjudicator.orders.keywords import spellings

T = TypeVar("T")


class MailError(PbemError, ValueError):
    """A mail that cannot be read as an order mail: garbage, truncated, or without a sender."""

    def __init__(self, reason: str, *, where: str = "", data: bytes | None = None) -> None:
        super().__init__(f"{where}: {reason}" if where else reason)
        self.reason = reason
        self.where = where  # which mail: "mbox /x/y message 3", "IMAP imap.x.org INBOX UID 17", ...
        self.data = data  # the bytes received, when the caller wants to keep or show them


@dataclass(frozen=True)
class Incoming:
    """One mail as the moderator needs it: who sent it, its Message-ID, and the order text it holds."""

    message_id: str
    sender: str  # bare address, lower case
    sender_name: str
    subject: str
    text: str  # the order text found (see order_text)
    raw: str  # the whole message as text (UTF-8, or Latin-1 when the bytes are not UTF-8), for the archive
    references: str = ""  # its References: header (Message-IDs, space separated), so that answers thread with it
    unread: str = ""  # why the body was not read (too large, too many parts): the mail is refused for it


# Limits of what is read of one mail (its size limits are in limits.py, with the reading of a stream).
MAX_PARTS = 50  # MIME parts (attachments, alternatives, attached mails) of one mail
MAX_DEPTH = 8  # multiparts nested in multiparts


# Structural defects the parser reports for input that is not a whole mail message.
_TRUNCATED = (
    email_errors.StartBoundaryNotFoundDefect,
    email_errors.CloseBoundaryNotFoundDefect,
    email_errors.MultipartInvariantViolationDefect,
    email_errors.NoBoundaryInMultipartDefect,
)
_BAD_BASE64 = (email_errors.InvalidBase64PaddingDefect, email_errors.InvalidBase64LengthDefect)


def read_message(data: bytes, size: int | None = None) -> Incoming:
    """Parse a mail given as bytes; MailError when it is empty, garbled, truncated or has no sender. A mail of
    more than MAX_MAIL_BYTES (`size`, when `data` is only its beginning), or of too many MIME parts, is not read
    beyond its header: it comes with `unread` saying why."""
    size = len(data) if size is None else size
    if size > MAX_MAIL_BYTES:
        return read_head(
            data[:HEAD_BYTES],
            f"the mail is {size} bytes long, more than the {MAX_MAIL_BYTES // 1024} "
            "KB a mail may have; it was not read",
        )
    if not data.strip():
        raise MailError("empty message")
    try:
        message = cast(EmailMessage, BytesParser(_class=_counted_parts(), policy=default_policy).parsebytes(data))
    except _TooManyParts:
        return read_head(data[:HEAD_BYTES], f"the mail has more than {MAX_PARTS} MIME parts; it was not read")
    except Exception as e:  # the parser is lenient; anything it still cannot take is garbage
        raise MailError(f"not a mail message ({e})") from e
    if _depth(message) > MAX_DEPTH:
        return read_head(
            data[:HEAD_BYTES], f"the mail's MIME parts are nested more than {MAX_DEPTH} deep; it was not read"
        )
    if not message.keys():
        raise MailError("not a mail message: it has no header fields")
    if any(isinstance(d, email_errors.MissingHeaderBodySeparatorDefect) for d in message.defects):
        raise MailError("the header ends in a line that is no header field: the mail is truncated or garbled")
    sender, sender_name, subject = _guarded(lambda: _header_fields(message))
    text = _guarded(lambda: order_text(message))
    for part in message.walk():
        for defect in part.defects:
            if isinstance(defect, _TRUNCATED):
                raise MailError(f"the MIME structure is broken, the mail is probably truncated ({_name(defect)})")
            if isinstance(defect, _BAD_BASE64):
                raise MailError(f"a base64 part ends early, the mail is probably truncated ({_name(defect)})")
    return Incoming(
        message_id=_no_nul(_message_id(message, data)),
        sender=_no_nul(sender),
        sender_name=_no_nul(sender_name),
        subject=_no_nul(subject),
        text=_no_nul(text),
        raw=_no_nul(_as_text(data)),
        references=_no_nul(_references(message)),
    )


class _TooManyParts(Exception):
    """Raised by the parser's part factory: the parse stops at once instead of building every part."""


def _counted_parts() -> Callable[..., EmailMessage]:
    """A message factory for the parser that refuses to make more than MAX_PARTS parts (a mail of 20,000 parts
    would otherwise take seconds to parse)."""
    made = 0

    def make(policy: Policy = default_policy) -> EmailMessage:
        nonlocal made
        made += 1
        if made > MAX_PARTS + 1:  # the message itself and its parts
            raise _TooManyParts
        return EmailMessage(policy=policy)

    return make


def _depth(part: Message) -> int:
    """How deep multiparts are nested in `part` (a single part: 0)."""
    if not part.is_multipart():
        return 0
    children = part.get_payload()
    return 1 + max((_depth(c) for c in children if isinstance(c, Message)), default=0)


def _guarded(read: Callable[[], T]) -> T:
    """`read()`, with any failure of the mail parser (malformed headers can make it fail) as a MailError."""
    try:
        return read()
    except MailError:
        raise
    except Exception as e:
        raise MailError(f"cannot read the mail: {type(e).__name__}: {e}") from e


def _header_fields(message: EmailMessage) -> tuple[str, str, str]:
    """The sender's address and name, and the subject on one line."""
    sender, sender_name = _sender(message)
    return sender, sender_name, " ".join(str(message.get("Subject", "")).split())


def read_head(head: bytes, why: str) -> Incoming:
    """A mail refused unread, from its beginning: the header fields (sender, Message-ID, subject) and `why`."""
    end = min((i for i in (head.find(b"\r\n\r\n"), head.find(b"\n\n")) if i >= 0), default=len(head))
    message = _guarded(
        lambda: cast(
            EmailMessage, BytesParser(policy=default_policy).parsebytes(head[:end] + b"\n\n", headersonly=True)
        )
    )
    if not message.keys():
        raise MailError("not a mail message: it has no header fields")
    sender, sender_name, subject = _guarded(lambda: _header_fields(message))
    references = _guarded(lambda: _references(message))
    return Incoming(
        message_id=_no_nul(_message_id(message, head)),
        sender=_no_nul(sender),
        sender_name=_no_nul(sender_name),
        subject=_no_nul(subject),
        text="",
        raw=_no_nul(_as_text(head[:end])),
        references=_no_nul(references),
        unread=why,
    )


_SPECIALS = set('<>()[]\\,;:"')


def address_problem(address: str) -> str | None:
    """Why `address` cannot be a seat's or an observer's mail address (None when it can): a control character
    (CR or LF would split the mail's header), a space or a special character, or not one local part, one '@' and
    a domain with a dot."""
    control = next((c for c in address if ord(c) < 32 or 127 <= ord(c) < 160), None)
    if control is not None:
        name = {"\r": "a carriage return (CR)", "\n": "a line feed (LF)", "\t": "a tab"}.get(control)
        return f"it holds {name or f'the control character U+{ord(control):04X}'}"
    if any(c.isspace() or c in _SPECIALS for c in address):
        return 'it holds a space or one of < > ( ) [ ] \\ , ; : "'
    local, at, domain = address.rpartition("@")
    if not at or not local or "@" in local:
        return "a mail address is name@domain, with one '@'"
    labels = domain.split(".")
    if len(labels) < 2 or not all(labels):
        return f"{domain!r} is not a mail domain (such as example.org)"
    return None


def _no_nul(text: str) -> str:
    """A garbled mail may hold NUL characters, which a PostgreSQL text column refuses: keep them as U+FFFD."""
    return text.replace("\0", "\ufffd")


def _name(defect: Exception) -> str:
    return type(defect).__name__


def _sender(message: EmailMessage) -> tuple[str, str]:
    """The first From: address (bare, lower case) and its display name."""
    header = message.get("From")
    if header is None:
        raise MailError("no From: header, so there is no sender to answer")
    addresses: tuple[Address, ...] = getattr(header, "addresses", ())
    for address in addresses:
        if address.username and address.domain:
            return address.addr_spec.lower(), address.display_name
    raise MailError(f"the From: header holds no usable address: {str(header)!r}")


def _message_id(message: EmailMessage, data: bytes) -> str:
    """The Message-ID as given; a stable one made from the bytes' SHA-256 when there is none."""
    given = " ".join(str(message.get("Message-ID", "")).split())
    return given or f"<sha256:{hashlib.sha256(data).hexdigest()}@pbem>"


def _references(message: EmailMessage) -> str:
    """The References: header as Message-IDs (the last 20: enough to thread, never a huge header)."""
    try:
        given = str(message.get("References", "") or "")
    except Exception:  # a malformed header is no reason to refuse the orders
        return ""
    return " ".join(re.findall(r"<[^<>\s]+>", given)[-20:])


def _as_text(data: bytes) -> str:
    """The bytes as text: UTF-8 (which covers 7-bit mail), else Latin-1, which keeps every byte."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


# ---------------------------------------------------------------- finding the text


def order_text(message: Message) -> str:
    """The order text of a mail, cut: the first text part with a GAME header line (a full one, GAME <name> TURN,
    before a line that only starts with GAME), looking at the plain parts first, then the HTML parts, then attached
    .txt files; else the body (plain preferred), else the first attachment with text."""
    parts, texts = _text_parts(message), {}
    for full in (True, False):
        for index, part in enumerate(parts):  # decoded only as far as needed: a damaged later part does not count
            if index not in texts:
                texts[index] = _cut(_part_text(part))
            if _header_index(texts[index].split("\n"), full) is not None:
                return texts[index]
    attachments = [_cut(_part_text(p)) for p in _txt_attachments(message)]
    body = _body(message)
    text = _cut(_part_text(body)) if body is not None else ""
    if not text and body is not None and body.get_content_type() == "text/plain" and isinstance(message, EmailMessage):
        html = message.get_body(preferencelist=("html",))  # some mailers send an empty plain alternative
        text = _cut(_part_text(html)) if html is not None else ""
    if not text and attachments:
        return next((t for t in attachments if t), "")
    return text


def _body(message: Message) -> Message | None:
    """The main text part: text/plain preferred over text/html."""
    if isinstance(message, EmailMessage):
        return message.get_body(preferencelist=("plain", "html"))
    candidates = [p for p in message.walk() if p.get_content_maintype() == "text" and not _is_attachment(p)]
    plain = [p for p in candidates if p.get_content_subtype() == "plain"]
    return (plain or candidates or [None])[0]


def _text_parts(message: Message) -> list[Message]:
    """Where orders may be: the plain text parts, then the HTML parts (attachments aside), then attached .txt files,
    each part once, in message order within each kind."""
    inline = [p for p in _own_parts(message) if p.get_content_maintype() == "text" and not _is_attachment(p)]
    found = [p for p in inline if p.get_content_subtype() == "plain"]
    found += [p for p in inline if p.get_content_subtype() == "html"]
    return found + [p for p in _txt_attachments(message) if all(p is not f for f in found)]


def _own_parts(part: Message) -> list[Message]:
    """The parts of a mail, not those of a mail attached to it (a forwarded welcome mail holds an orders header)."""
    if part.get_content_maintype() == "message":
        return []
    if not part.is_multipart():
        return [part]
    return [p for child in part.get_payload() if isinstance(child, Message) for p in _own_parts(child)]


def _is_attachment(part: Message) -> bool:
    return part.get_content_disposition() == "attachment"


def _txt_attachments(message: Message) -> list[Message]:
    """Attached files named *.txt (any disposition), in message order."""
    found = []
    for part in message.walk():
        if part.is_multipart() or part.get_content_maintype() not in ("text", "application"):
            continue
        name = part.get_filename() or ""
        if name.lower().endswith(".txt"):
            found.append(part)
    return found


def _part_text(part: Message) -> str:
    """A part's text: transfer encoding undone, charset decoded, HTML turned into text, flowed lines joined."""
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):
        return ""
    text = _decode(payload, part.get_content_charset())
    if part.get_content_type() == "text/html":
        return html_to_text(text)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if str(part.get_param("format") or "").lower() == "flowed":
        text = _unflow(text, delsp=str(part.get_param("delsp") or "").lower() == "yes")
    return text


def _decode(payload: bytes, charset: str | None) -> str:
    """Decode with the declared charset; when it is unknown or wrong, UTF-8, then Windows-1252, then Latin-1."""
    for candidate in (charset, "utf-8", "cp1252"):
        if not candidate:
            continue
        try:
            return payload.decode(candidate)
        except (LookupError, UnicodeDecodeError):
            continue
    return payload.decode("latin-1")


def _unflow(text: str, delsp: bool) -> str:
    """Undo format=flowed (RFC 3676): a line ending in a space continues on the next line of the same depth."""
    out: list[str] = []
    para: str | None = None
    para_depth = 0

    def emit() -> None:
        out.append(("> " * para_depth if para_depth else "") + (para or ""))

    for line in text.split("\n"):
        depth = len(line) - len(line.lstrip(">"))
        body = line[depth:]
        if body.startswith(" "):
            body = body[1:]  # space-stuffing
        if para is not None and depth != para_depth:
            emit()
            para = None
        flowed = body.endswith(" ") and body != "-- "
        piece = body[:-1] if flowed and delsp else body
        para = piece if para is None else para + piece
        para_depth = depth
        if not flowed:
            emit()
            para = None
    if para is not None:
        emit()
    return "\n".join(out)


@cache
def _html_text() -> type:
    """The HTML reader, made on first use: html.parser is loaded only for a mail without a plain text part."""
    from html.parser import HTMLParser

    class _HtmlText(HTMLParser):
        """Text of an HTML body: block elements and <br> break lines; quotes, scripts and styles are left out."""

        BLOCKS = frozenset(
            "p div tr li ul ol table h1 h2 h3 h4 h5 h6 pre hr dl dt dd address section article header footer".split()
        )
        SKIP = frozenset(("script", "style", "head", "title", "template"))

        def __init__(self) -> None:
            super().__init__(convert_charrefs=True)
            self.parts: list[str] = []
            self.skip = 0
            self.quote = 0
            self.pre = 0

        def _break(self, always: bool = False) -> None:
            """End the line: always for <br>, else only when it holds something (block boundaries)."""
            if always or (self.parts and not self.parts[-1].endswith("\n")):
                self.parts.append("\n")

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            if tag in self.SKIP:
                self.skip += 1
            elif tag == "body":
                self.skip = 0  # a <head> left open ends here
            elif tag == "br":
                self._break(always=not (self.skip or self.quote))
            elif tag == "blockquote":
                self.quote += 1
                self._break()
            elif tag in self.BLOCKS:
                self.pre += tag == "pre"
                self._break()

        def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            if tag == "br":
                self._break(always=not (self.skip or self.quote))
            elif tag in self.BLOCKS:
                self._break()

        def handle_endtag(self, tag: str) -> None:
            if tag in self.SKIP:
                self.skip = max(0, self.skip - 1)
            elif tag == "blockquote":
                self.quote = max(0, self.quote - 1)
                self._break()
            elif tag in self.BLOCKS:
                self.pre = max(0, self.pre - (tag == "pre"))
                self._break()

        def handle_data(self, data: str) -> None:
            if self.skip or self.quote:
                return
            if not self.pre:
                data = re.sub(r"[ \t\r\n\f]+", " ", data)
                if not self.parts or self.parts[-1].endswith("\n"):
                    data = data.lstrip(" ")
            if data:
                self.parts.append(data)

    return _HtmlText


def html_to_text(html: str) -> str:
    """Plain text of an HTML mail body, one line per block or <br>, entities unescaped."""
    parser = _html_text()()
    parser.feed(html)
    parser.close()
    text = "".join(parser.parts).replace("\xa0", " ")
    return "\n".join(line.rstrip() for line in text.split("\n")).strip("\n")


# ---------------------------------------------------------------- cutting


_QUOTED = re.compile(r"^\s*>")
_SIGNATURE = re.compile(r"^--\s*$")
_ORIGINAL = re.compile(r"^\s*-{2,}\s*(Original Message|Ursprüngliche Nachricht|Messaggio originale)\s*-{2,}\s*$", re.I)
_ATTRIBUTION_END = re.compile(r"(wrote|writes|schrieb|ha scritto|schreef|a écrit)\s*:\s*$", re.I)
_ATTRIBUTION_START = re.compile(r"^\s*(On|Am|Il|Op|Le)\s", re.I)
_OUTLOOK_FROM = re.compile(r"^\s*(From|Von|Da|Van):\s*\S", re.I)
_OUTLOOK_NEXT = re.compile(r"^\s*(Sent|Date|Gesendet|Datum|Inviato|Data|Verzonden):\s*\S", re.I)
_FIRST_WORD = re.compile(r"\s*(\w+)")


@cache
def _keywords(name: str) -> frozenset[str]:
    return frozenset(s.casefold() for s in spellings(name))


def _header_index(lines: list[str], full: bool = False) -> int | None:
    """The first GAME header line (its first word is GAME, SPIEL, ... as for the parser), preferring a full one
    (GAME <name> TURN ...); with `full`, only a full one."""
    starts = []
    for i, line in enumerate(lines):
        first = _FIRST_WORD.match(line)
        if first is None or first.group(1).casefold() not in _keywords("GAME"):
            continue
        tokens = line.split()
        if len(tokens) > 2 and tokens[2].casefold() in _keywords("TURN"):
            return i  # GAME <name> TURN ...: surely the header, not a greeting that starts with "Game"
        starts.append(i)
    return starts[0] if starts and not full else None


def _is_attribution(lines: list[str], i: int) -> int:
    """How many lines (0, 1 or 2) before and at line i form an "On ... wrote:" attribution."""
    if not _ATTRIBUTION_END.search(lines[i]):
        return 0
    if _ATTRIBUTION_START.match(lines[i]):
        return 1
    if i > 0 and _ATTRIBUTION_START.match(lines[i - 1]) and not _QUOTED.match(lines[i - 1]):
        return 2
    return 0


def _drop_attributions(lines: list[str]) -> list[str]:
    """Drop "On ... wrote:" lines that introduce quoted lines or end the text."""
    drop: set[int] = set()
    for i in range(len(lines)):
        size = _is_attribution(lines, i)
        if not size:
            continue
        following = next((line for line in lines[i + 1 :] if line.strip()), None)
        if following is None or _QUOTED.match(following):
            drop.update(range(i - size + 1, i + 1))
    return [line for i, line in enumerate(lines) if i not in drop]


def _cut(text: str) -> str:
    """Keep the orders: drop quoted lines, attributions, signature and reply history, and text before GAME."""
    text = text.lstrip("\ufeff").replace("\xa0", " ").replace("\r\n", "\n").replace("\r", "\n")
    lines = _drop_attributions([line.rstrip() for line in text.split("\n")])
    lines = [line for line in lines if not _QUOTED.match(line)]
    for i, line in enumerate(lines):
        outlook = _OUTLOOK_FROM.match(line) and i + 1 < len(lines) and _OUTLOOK_NEXT.match(lines[i + 1])
        if _SIGNATURE.match(line) or _ORIGINAL.match(line) or outlook:
            lines = lines[:i]
            break
    lines = _drop_attributions(lines)  # now those that end the text
    header = _header_index(lines)
    if header is not None:
        lines = lines[header:]
    while lines and not lines[-1].strip():
        lines.pop()
    while lines and not lines[0].strip():
        lines.pop(0)
    return "\n".join(lines)
