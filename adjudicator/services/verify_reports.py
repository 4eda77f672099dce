"""`pbem verify --from-reports DIR`: a player checks the moderator from what he received, with no archive and no
database (DESIGN.md "Randomness: verifiable dice").

The folder holds what a player kept, in any order and with gaps: his mails (.eml), report files (report.txt,
report-<seat>.txt) or a saved copy of the game's site (turn-NNNN.html, whose report is in its <pre id="report">).
Every public report section prints its turn's key, orders hash, draws (purpose, faces, value) and the archive's
chain head after the turn; from these it checks, game by game:

- every copy of a turn says the same (a report changed after it was sent, by an archive edited and re-published,
  disagrees with the copy the player kept);
- every revealed turn key hashes down to the key of the turn before it that the folder holds, and at last to the
  commitment (sha256 walks across gaps);
- every public draw, die or shuffle, recomputed from the key, the orders hash and the printed purposes and faces
  (engine/chance.py), gives the printed value, and the draws are the turn's rolls;
- the chain heads from turn to turn: in a game begun since reports print each turn's digest, every head must be
  SHA-256 of the head before it (the commitment before turn 0) followed by the turn's digest, so that a turn changed
  and published again breaks the link to the next head a player kept; one head per turn, none repeated. A digest
  covers the turn's orders, state and events as the archive stores them, which no report prints: that a digest
  fits its turn only `pbem verify` checks;
- a step of several seats' orders hash against the seats' commitments its report prints (step_commitment);
- each receipt against the order mail it answers, when the folder holds the mail the player sent: the receipt's
  fingerprint must be that of the mail's orders as the archive stores them;
- at the game's end, the revealed seed against the commitment and every turn key, the hidden draws that the
  site's turn pages then show, recomputed from the seed, and each turn of the player's seat against the
  fingerprint of his orders that his last receipt for it prints (the orders hash, or his seat's commitment, must
  be the commitment to it);
- the game's record, when the folder holds it (attached to the player's last report mail as record.json.gz, or a
  file whose name ends in record.json, which the site offers once the game is over: game_record.py): every turn
  replayed from it as `pbem verify` replays the archive, every hidden draw dealt again from the seed, every seat's
  orders held to the orders hashes, and each turn's chain head, key and orders hash held to those the reports
  printed, so that the record is the game the player was sent. Without it, the other seats' order texts and which
  cards the hidden draws dealt are named as unchecked. With it, each report the player's mails hold, public and
  private, is rendered again from the record and held to his mail's text (verify_rendered.py).

A roll-back notice (its subject and first line as services/gm.py writes them) sets aside what the player got of
the withdrawn turns before it: the order of the mails is read from the outbox place each pbem Message-ID names.

Each problem names the file and line. Reports are read in each language the catalogues have."""

from __future__ import annotations

import email
import email.policy
import hashlib
import html
import json
import re
import zlib
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache
from itertools import zip_longest
from pathlib import Path
from typing import TYPE_CHECKING, Any

from adjudicator import VERSION_HEADER
from adjudicator.engine.chance import (
    CHAIN_LENGTH,
    DiceError,
    KeyedDice,
    chain_keys,
    commitment,
    fingerprints_commitment,
    hidden_turn_key,
    orders_fingerprint,
    orders_key,
    seats_hash,
)
from adjudicator.errors import PbemError
from adjudicator.orders.keywords import KEYWORD_LANGUAGES, keyword_of
from adjudicator.render.i18n import PLACEHOLDER, message_pattern, translations
from adjudicator.resources import release
from adjudicator.services.chain import digest_link
from adjudicator.services.game_record import RECORD_FILE
from adjudicator.services.notices import REPORT_SUBJECT
from adjudicator.services.verify_published import spans
from adjudicator.services.verify_rendered import (
    PAGE,
    REPORT_MAIL,
    SITE_INDEX,
    MailShown,
    ReportCopy,
    check_rendered,
    report_copies,
)

if TYPE_CHECKING:
    from adjudicator.archive.verify_rows import GameRows

_HEX = re.compile(r"[0-9a-f]{64}")
_SUBJECT_GAME = re.compile(r"\[([^\]]+)\]")  # "[demo] Report, turn 4": the game a mail is about
_REPORT_PRE = re.compile(r'<pre id="report">(.*?)</pre>', re.S)
_REPORT_HTML = re.compile(r"<pre[^>]*>(.*?)</pre>", re.S)  # the text of a report mail's HTML part
_GENERATOR = re.compile(r'<meta name="generator" content="pbem ([^"]{1,80})">')
_HIDDEN_PRE = re.compile(r'<pre id="hidden-draws">(.*?)</pre>', re.S)  # a site's turn page once the game has ended
_PAGE_TURN = re.compile(r"turn-(\d+)\.html?\Z")
_PAGES = (".html", ".htm")
_READ = (".eml", ".txt", *_PAGES)

# The report lines read (templates/report.txt.j2, welcome.txt.j2), each with the fields it gives.
TITLES = (
    "Game %(game)s - public report",
    "Game %(game)s - moderator's report (every seat's orders and decisions)",
    "Game %(game)s - private report for %(seat)s",
)
COMMITMENTS = (
    "Dice commitment: %(commitment)s",
    "Dice commitment (check each turn's revealed key against it): %(commitment)s",
)
TURN_HEADINGS = ("Turn %(number)s: %(seat)s (round %(round)s)", "Turn %(number)s: setup", "Turn %(number)s")
KEY_LINE = "Dice: turn key %(key)s"
DICE_FILE = "(dice file)"
HASH_LINE = "orders hash %(hash)s"
SEAT_HASH_LINE = "orders commitment of %(seat)s: %(hash)s"  # a step of several seats: each seat's commitment
ROLLS = "rolls: %(rolls)s"
NO_ROLLS = "no dice were rolled"
DRAW_LINE = "draw %(number)s of 1-%(faces)s: %(value)s (%(purpose)s)"
CHAIN_LINE = "Archive chain after this turn: %(hash)s"
DIGEST_LINE = "Turn digest: %(digest)s"
# a receipt (templates/receipt.txt.j2): its first line, and its line of the seat's orders as the archive holds them
RECEIPT_TITLE = "Receipt: game %(game)s, turn %(turn)s, %(seat)s"
FINGERPRINT_LINE = (
    "Fingerprint of the orders of %(seat)s for turn %(turn)s of game %(game)s, stored %(received)s: %(fingerprint)s"
)
# the lines of a receipt that shows orders stored before, answering a later mail (orders sent ahead checked again,
# MYORDERS): its fingerprint is not that of the mail it answers
NO_ORDERS = orders_fingerprint("")  # what a receipt of WITHDRAW prints, and a turn of a seat with no orders commits
# the notice of a roll-back (services/gm.py): the turns it names were withdrawn, and the reports of them that the
# player got before it are set aside (each mail pbem sends names its place in the outbox in its Message-ID)
ROLLED_BACK = (
    "The moderator rolled the game back to the position after turn %(turn)s; turns %(turns)s are withdrawn. Orders "
    "for them must be sent again.",
    "The moderator rolled game %(game)s back to the position after turn %(turn)s. The reports you were sent of later "
    "turns are withdrawn (turns %(turns)s); those turns will be played again.",
)
ROLLED_SUBJECT = "Rolled back to turn %(turn)s"
RECORD_MOST_BYTES = 100 * 2**20  # a game's record read at most (a Classic game of 400 turns: 8 MB)
_QUEUED = re.compile(r"<pbem\.([0-9]{1,15})\.[0-9a-f]+@")
_NUMBER, _NUMBERS = re.compile(r"[0-9]{1,9}"), re.compile(r"[0-9]{1,9}(?:, [0-9]{1,9})*")
RESTATED = (
    "Your turn %(turn)s is open now: the orders you sent ahead were checked again against the position",
    "The orders stored for you for turn %(turn)s (received %(received)s UTC), checked again against the position as "
    "it stands now; nothing was changed.",
)
SEED_LINES = (
    "The game has ended: its dice seed is %(seed)s. With it anybody can check the commitment, recompute every hidden "
    'draw and check each turn\'s orders hash against the orders: HMAC-SHA256(HMAC-SHA256(seed, "orders|<turn>"), '
    "SHA-256 of the orders).",
    "The game has ended: its dice seed is %(seed)s. With it anybody can check the commitment and recompute every "
    "hidden draw.",
)


@dataclass
class TurnCopy:
    """One report's section of one turn, as one file printed it."""

    turn: int
    where: str  # "file:line" of the section's heading
    key: str = ""
    key_at: str = ""
    orders_hash: str = ""
    rolls: tuple[int, ...] | None = None  # None: the orders hash line was not read (a truncated report)
    draws: list[tuple[int, int, int, str]] = field(default_factory=list)  # number, faces, value, purpose
    draws_at: list[str] = field(default_factory=list)
    chain: str = ""
    chain_at: str = ""
    digest: str = ""
    heading: bool = False  # under a turn's own heading (other sections, "Position after turn n", print no dice)
    setup: bool = False  # the game's setup: turn 0, or the position a game was begun from (`pbem new --from-snapshot`)
    seats: tuple[str, ...] = ()  # the seats who ordered in the step, as its heading names them
    seat_hashes: dict[str, str] = field(default_factory=dict)  # each seat's commitment, in the step's seat order


@dataclass(frozen=True, order=True)
class Fingerprint:
    """A receipt's fingerprint of a seat's orders for a turn, as stored at `received` (ISO 8601, to the second)."""

    received: str
    value: str
    where: str = field(compare=False)


@dataclass
class GameCopies:
    """What the folder holds of one game."""

    turns: dict[int, list[TurnCopy]] = field(default_factory=dict)
    commitments: dict[str, list[str]] = field(default_factory=dict)  # commitment -> where printed
    seeds: dict[str, list[str]] = field(default_factory=dict)
    # the hidden draws a site page shows, by (turn, page): (number, faces, value, purpose, where)
    hidden: dict[tuple[int, str], list[tuple[int, int, int, str, str]]] = field(default_factory=dict)
    # the fingerprints the receipts print, by (turn, seat)
    fingerprints: dict[tuple[int, str], list[Fingerprint]] = field(default_factory=dict)
    unkeyed: bool = False  # its seed came with the line of a game whose orders hashes are unkeyed (orders_digest)
    record: str = ""  # where the folder holds the game's record (game_record.py), which the check replays
    rendered: list[ReportCopy] = field(default_factory=list)  # the reports as texts (verify_rendered.py)


@dataclass
class Checked:
    """The outcome: a line per turn, problems (each naming its file and line), and what could not be checked."""

    lines: list[str] = field(default_factory=list)  # what passed of each game as a whole
    turns: list[tuple[bool, str]] = field(default_factory=list)  # a line per turn in order, and whether it passed
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def verify_reports(folder: Path) -> Checked:
    """Read every report the folder holds and check each game in it (the module docstring says what)."""
    checked = Checked()
    if not folder.is_dir():
        checked.problems.append(f"{folder}: not a folder")
        return checked
    games: dict[str, GameCopies] = {}
    mails = Mails()
    for where, text, game in _texts(folder, mails):
        _read_report(text, where, game, games, checked.problems)
        mail = file_of(where)
        frame = REPORT_MAIL if mail in mails.reports else PAGE if where == mail and mail.endswith(_PAGES) else ""
        for copy in report_copies(where, text, mails.versions.get(mail, ""), frame):
            if not copy.game or (game and copy.game != game):
                about = f"of game {copy.game} in a mail about game {game}" if copy.game else "that names no game"
                checked.problems.append(f"{copy.where}: a report {about}")
                continue
            games.setdefault(copy.game, GameCopies()).rendered.append(copy)
    for where, text, turn in _hidden_texts(folder):
        _read_hidden(text, where, turn, games, checked.problems)
    _name_unnamed(games, checked.notes)
    if not games:
        checked.problems.append(f"{folder}: no report of any game found (.eml, .txt or .html files)")
    checked.problems += mails.problems
    _unread_reports(games, mails, checked.problems)  # before a roll-back sets some aside
    _set_aside_withdrawn(games, mails, checked.notes)
    records = list(_records(folder, games, mails, checked.problems))
    for name in sorted(games):
        _check_game(name, games[name], checked)
        _check_sent(name, games[name], mails, checked)
    for where, stored in records:
        _check_record(where, stored, games, mails, checked)
    for name, game in sorted(games.items()):
        if game.rendered and not game.record:
            checked.notes.append(
                f"game {name}: its {len(game.rendered)} report(s) are not held to the game's record: "
                + (
                    "the folder holds none, though the game is over (a game whose orders hold private press gets "
                    "none; observers are sent none, and the game's site may offer it as record.json)"
                    if game.seeds
                    else "the folder holds none (each player's last report mail carries it once the game is over)"
                )
            )
    return checked


def _set_aside_withdrawn(games: dict[str, GameCopies], mails: Mails, notes: list[str]) -> None:
    """A roll-back withdraws turns: what the player got of them before its notice (their reports, the receipts of
    orders for them, a record of the game's end) is set aside, since the turns played again are other turns of the
    same numbers, and named in a note."""
    for name, notice, turns, where in mails.rollbacks:
        game = games.get(name)
        if game is None:
            continue

        def before(place: str, notice: int = notice) -> bool:  # a mail pbem sent before the notice
            return mails.queued.get(file_of(place), notice) < notice

        aside = set()
        for number in turns:
            kept = [c for c in game.turns.get(number, []) if not before(c.where)]
            if len(kept) < len(game.turns.get(number, [])):
                aside.add(number)
                game.turns[number] = kept
            if not game.turns.get(number):
                game.turns.pop(number, None)  # no report of it left: the gap is named
            for key in [key for key in game.fingerprints if key[0] == number]:
                receipts = [f for f in game.fingerprints[key] if not before(f.where)]
                if len(receipts) < len(game.fingerprints[key]):
                    aside.add(number)
                game.fingerprints[key] = receipts
                if not receipts:
                    del game.fingerprints[key]
        withdrawn = [c for c in game.rendered if before(c.source) and set(c.turns) & set(turns)]
        aside |= {number for c in withdrawn for number in c.turns if number in turns}
        game.rendered = [c for c in game.rendered if c not in withdrawn]
        records = [r for r in mails.records if not (r[2] == name and before(r[0]))]
        if len(records) < len(mails.records):
            notes.append(
                f"game {name}: the record attached to a mail before the roll-back notice ({where}) is set aside"
            )
            mails.records = records
        if aside:
            notes.append(
                f"game {name}: turn(s) {spans(sorted(aside))}: the reports and receipts of them sent before the "
                f"roll-back notice ({where}) are set aside: the moderator withdrew those turns"
            )


def _unread_reports(games: dict[str, GameCopies], mails: Mails, problems: list[str]) -> None:
    """A report mail or a site page of this release whose reports cannot be read at all (their titles worded
    otherwise, a page's report hidden) is named, lest its texts escape the comparison with the record."""
    held = {file_of(copy.source) for game in games.values() for copy in game.rendered}
    pages = [
        name
        for name, version in mails.versions.items()
        if name.endswith(_PAGES) and version == release() and name not in mails.indexes
    ]
    for name in sorted({*pages, *(m for m in mails.reports if mails.versions[m] == release())} - held):
        problems.append(
            f"{name}: a {'site page' if name in pages else 'report mail'} without a report this check can read"
        )


def file_of(place: str) -> str:
    """The file a place names: "5-a@b.eml (mail text):12", "5-a@b.eml (record.json.gz)" and "report.txt:3" name
    5-a@b.eml and report.txt; a file's own name may hold " (" (a mail client saves "Report, turn 1 (5).eml")."""
    return re.sub(r" \([^()]*\)\Z", "", re.sub(r":\d+\Z", "", place))


def _name_unnamed(games: dict[str, GameCopies], notes: list[str]) -> None:
    """What a text printed before naming its game (a welcome file's commitment) is the folder's one game's."""
    unnamed = games.pop("", None)
    if unnamed is None:
        return
    if len(games) != 1:
        notes.append(f"{len(unnamed.commitments)} commitment(s) in texts that name no game: not used")
        return
    game = next(iter(games.values()))
    for value, where in unnamed.commitments.items():
        game.commitments.setdefault(value, []).extend(where)
    for value, where in unnamed.seeds.items():
        game.seeds.setdefault(value, []).extend(where)


# -- reading ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SentMail:
    """An order mail the player sent (kept in the folder), as the moderator's archive stores its orders."""

    game: str
    seat: str
    fingerprint: str
    where: str


@dataclass
class Mails:
    """The folder's mails: each one's In-Reply-To by file name (a receipt answers the order mail it is for), the
    order mails among them by Message-ID, and the receipts that show orders stored by an earlier mail."""

    replies: dict[str, str] = field(default_factory=dict)
    sent: dict[str, SentMail] = field(default_factory=dict)
    restated: set[str] = field(default_factory=set)
    # (where, file name, game its subject names or "", file) of the records attached
    records: list[tuple[str, str, str, bytes]] = field(default_factory=list)
    queued: dict[str, int] = field(default_factory=dict)  # each mail pbem sent: its place in the outbox, by file name
    # (game, place in the outbox, turns withdrawn, file) of each roll-back notice
    rollbacks: list[tuple[str, int, list[int], str]] = field(default_factory=list)
    versions: dict[str, str] = field(default_factory=dict)  # the pbem release each mail or page names, by file
    reports: dict[str, str] = field(default_factory=dict)  # the report mails (their subject says so): file -> game
    problems: list[str] = field(default_factory=list)  # what a mail as a whole shows wrong (its HTML part)
    shown: dict[str, MailShown] = field(default_factory=dict)  # each report mail's subject, HTML part and map
    pages: dict[str, tuple[str, str]] = field(default_factory=dict)  # each site page of a release, and its map
    indexes: dict[str, str] = field(default_factory=dict)  # each site index page of a release


def _texts(folder: Path, mails: Mails) -> Iterator[tuple[str, str, str]]:
    """(where, text, game named by the mail's subject or "") of each readable file; a mail gives its text parts,
    and what `mails` keeps of it."""
    for path in sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix.lower() in _READ):
        name = str(path.relative_to(folder))
        raw = path.read_bytes()
        if path.suffix.lower() == ".eml":
            message = email.message_from_bytes(raw, policy=email.policy.default)
            subject = _SUBJECT_GAME.match(str(message.get("Subject", "")))
            _keep_mail(name, raw, message, mails, subject.group(1) if subject else "")
            for part in message.walk():
                if part.get_content_type() == "text/plain":
                    text = _part_text(part)
                    yield f"{name} (mail text)", text, subject.group(1) if subject else ""
        elif path.suffix.lower() in (".html", ".htm"):
            page = raw.decode("utf-8", "replace")
            generator = _GENERATOR.search(page)  # a site page names the release that wrote it
            mails.versions[name] = generator.group(1) if generator else ""
            if generator and SITE_INDEX.search(page):  # the site's index: no report, held whole to the record
                mails.indexes[name] = page
            elif generator:
                drawn = path.with_suffix(".svg")  # the map the page shows
                mails.pages[name] = page, drawn.read_text("utf-8", "replace") if drawn.is_file() else ""
            for found in _REPORT_PRE.finditer(page):
                before = page.count("\n", 0, found.start(1))  # lines numbered as in the page
                yield name, "\n" * before + html.unescape(found.group(1)), ""
        else:
            yield name, raw.decode("utf-8", "replace"), ""


def _part_text(part: email.message.Message) -> str:
    """A mail part's text in the charset it names; in UTF-8 when that charset is unknown (a damaged header)."""
    payload = part.get_payload(decode=True)
    payload = payload if isinstance(payload, bytes) else b""
    try:
        return payload.decode(part.get_content_charset() or "utf-8", "replace")
    except LookupError:
        return payload.decode("utf-8", "replace")


def _keep_mail(name: str, raw: bytes, message: email.message.Message, mails: Mails, game: str = "") -> None:
    """Keep a mail's threading header, the game records attached to it (`game`: the game its subject names),
    whether it restates stored orders, and its orders if it holds an order set (read as `pbem ingest` reads a mail:
    adjudicator/mail/inbound.py)."""
    from adjudicator.mail.inbound import MailError, read_message

    mails.replies[name] = " ".join(str(message.get("In-Reply-To", "")).split())
    mails.versions[name] = str(message.get(VERSION_HEADER, "")).strip()
    if mails.versions[name]:
        mails.problems += _html_differs(name, message)
    if game and _match(REPORT_SUBJECT, str(message.get("Subject", "")).removeprefix(f"[{game}] ").strip())[0]:
        mails.reports[name] = game
        if isinstance(message, email.message.EmailMessage):
            markup = message.get_body(("html",))
            svg = next((p for p in message.iter_attachments() if p.get_filename() == "map.svg"), None)
            parts = (_part_text(part) if part is not None else "" for part in (markup, svg))
            mails.shown[f"{name} (mail text)"] = MailShown(str(message.get("Subject", "")), *parts)
    for part in message.iter_attachments() if message.is_multipart() else ():
        attached = part.get_filename() or ""
        if _is_record(attached):
            mails.records.append((f"{name} ({attached})", attached, game, part.get_payload(decode=True) or b""))
    try:
        mail = read_message(raw)
    except MailError:
        return  # a file that is no mail is named by the reading of the reports
    if any(_match(RESTATED, line.strip())[0] for line in mail.text.splitlines()):
        mails.restated.add(name)
    queued = _QUEUED.match(mail.message_id or "")
    if queued:
        mails.queued[name] = int(queued.group(1))
        withdrawn = _rolled_back(str(message.get("Subject", "")), mail.text, game)
        if withdrawn:
            mails.rollbacks.append((game, int(queued.group(1)), withdrawn, name))
    seat = _header_seat(mail.text)
    if seat is not None and mail.message_id:
        mails.sent[mail.message_id] = SentMail(*seat, orders_fingerprint(_stored_text(mail.text)), name)


def _html_differs(name: str, message: email.message.Message) -> list[str]:
    """A pbem mail's HTML part, which most mail programs show, holds the text part in its <pre>
    (report-mail.html.j2): where it says otherwise, the check of the text would not cover what the player read."""
    if not isinstance(message, email.message.EmailMessage):
        return []
    parts = Counter(part.get_content_type() for part in message.walk())
    if parts["text/plain"] > 1 or parts["text/html"] > 1:
        return [f"{name}: it has {parts['text/plain']} text and {parts['text/html']} HTML parts, where pbem writes one"]
    plain, markup = message.get_body(("plain",)), message.get_body(("html",))
    if plain is None or markup is None or plain is markup:
        return []
    shown = _REPORT_HTML.findall(_part_text(markup))
    text = _part_text(plain).rstrip("\r\n").splitlines()
    if len(shown) != 1:
        return [f"{name}: its HTML part holds {len(shown)} texts, where pbem writes one, its text part's"]
    for number, (line, seen) in enumerate(zip_longest(text, html.unescape(shown[0]).rstrip("\r\n").splitlines()), 1):
        if line != seen:
            return [
                f"{name}: its HTML part (what most mail programs show) differs from its text part at line {number}: "
                f"{seen!r} where the text reads {line!r}"
            ]
    return []


def _rolled_back(subject: str, text: str, game: str) -> list[int]:
    """The turns a roll-back notice withdraws ([] for a mail that is none): its subject names the game and the turn
    rolled back to, and its first line is the notice (services/gm.py), naming that turn and later ones."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not game or not lines or not subject.startswith(f"[{game}] "):
        return []
    titled = _match(ROLLED_SUBJECT, subject.removeprefix(f"[{game}] ").strip())[0]
    said = _match(ROLLED_BACK, lines[0])[0]
    if titled is None or said is None or titled.group("turn") != said.group("turn"):
        return []
    if not _NUMBER.fullmatch(said.group("turn")) or not _NUMBERS.fullmatch(said.group("turns")):
        return []
    turns = [int(turn) for turn in said.group("turns").split(", ")]
    return turns if all(turn > int(said.group("turn")) for turn in turns) else []


def _stored_text(text: str) -> str:
    """The order text the archive stores of a mail's text: its mail command lines blanked, the passwords replaced
    by the mark (services/mailbox.py read_mail, services/orders.py store_order_set)."""
    from adjudicator.mail.commands import split_commands
    from adjudicator.services.passwords import without_passwords

    return without_passwords(split_commands(text)[0])


def _header_seat(text: str) -> tuple[str, str] | None:
    """(game, seat) of the first header line of an order text, in any language; None without one. A line that
    only begins with the word (a greeting, "Game on!") is no header."""
    words = keyword_of()
    for line in text.splitlines():
        tokens = line.split()
        if tokens and words.get(tokens[0].casefold()) == "GAME":
            named = {words.get(key.casefold()): value for key, value in zip(tokens[::2], tokens[1::2], strict=False)}
            if named.get("GAME") and named.get("PLAYER"):
                return named["GAME"], named["PLAYER"]
    return None


def _gunzip(packed: bytes) -> bytes:
    """A gzip file's content, at most one byte over RECORD_MOST_BYTES (a small file may unpack to gigabytes)."""
    unpacker = zlib.decompressobj(wbits=31)
    content = unpacker.decompress(packed, RECORD_MOST_BYTES + 1)
    if len(content) <= RECORD_MOST_BYTES and not unpacker.eof:
        raise EOFError("the compressed data ends before its end mark")
    return content


def _is_record(name: str) -> bool:
    """Whether a file is a game record by its name: ending in record.json, or record.json.gz (a mail's)."""
    return name.lower().endswith((RECORD_FILE, RECORD_FILE + ".gz"))


def _records(
    folder: Path, games: dict[str, GameCopies], mails: Mails, problems: list[str]
) -> Iterator[tuple[str, GameRows]]:
    """(where, rows) of each game record the folder holds, as a file or attached to a mail; one that is no record
    is a problem naming it and its line."""
    from adjudicator.services.game_record import read_record

    files = [
        (str(p.relative_to(folder)), p.name, "", p.read_bytes())
        for p in sorted(folder.rglob("*"))
        if p.is_file() and _is_record(p.name)
    ]
    seen: set[str] = set()  # the records read (by their content's hash)
    for where, name, subject, raw in [*files, *mails.records]:
        try:
            content = _gunzip(raw) if name.lower().endswith(".gz") else raw
        except (OSError, EOFError, zlib.error) as bad:  # a gzip file cut short or damaged
            problems.append(f"{where}: not a gzip file, or cut short or damaged ({bad})")
            continue
        if len(content) > RECORD_MOST_BYTES:
            problems.append(f"{where}: over {RECORD_MOST_BYTES} bytes, too large for a game's record: not read")
            continue
        try:
            stored = read_record(content.decode("utf-8", "replace"))
        except PbemError as bad:
            problems.append(f"{where}: {bad}")
            continue
        if subject and subject != stored.game.name:
            problems.append(f"{where}: the record of game {stored.game.name}, attached to a mail of game {subject}")
            continue
        digest = hashlib.sha256(content).hexdigest()
        if digest in seen:
            continue  # the same record again (the site's and a mail's): replayed once
        seen.add(digest)
        if stored.game.name in games:
            games[stored.game.name].record = where
        yield where, stored


def _hidden_texts(folder: Path) -> Iterator[tuple[str, str, int]]:
    """(where, text, turn) of the hidden draws a saved site page shows once its game has ended."""
    for path in sorted(folder.rglob("turn-*.htm*")):
        turn = _PAGE_TURN.search(path.name)
        page = path.read_text("utf-8", "replace") if turn and path.is_file() else ""
        for found in _HIDDEN_PRE.finditer(page):
            before = page.count("\n", 0, found.start(1))
            yield str(path.relative_to(folder)), "\n" * before + html.unescape(found.group(1)), int(turn.group(1))


def _read_hidden(text: str, where: str, turn: int, games: dict[str, GameCopies], problems: list[str]) -> None:
    """A page's hidden draws: its game is the one its report names (the page's report is read first)."""
    named = [
        name for name, game in games.items() if any(c.where.startswith(f"{where}:") for c in game.turns.get(turn, []))
    ]
    if len(named) != 1:
        problems.append(f"{where}: hidden draws of turn {turn} on a page whose report names no game")
        return
    kept = games[named[0]].hidden.setdefault((turn, where), [])  # each page's draws apart: each is recomputed
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        draw = _draw(_match(DRAW_LINE, line)[0]) if line else None
        if draw is not None:
            kept.append((*draw, f"{where}:{number}"))
        elif line:
            problems.append(f"{where}:{number}: turn {turn}'s hidden draw line is garbled: {line[:90]!r}")


def _draw(found: re.Match[str] | None) -> tuple[int, int, int, str] | None:
    """A draw line's (number, faces, value, purpose); None when its numbers are not numbers."""
    numbers = [found.group(name) for name in ("number", "faces", "value")] if found else []
    if not numbers or not all(n.isdecimal() and n.isascii() and len(n) < 10 for n in numbers):
        return None
    number, faces, value = map(int, numbers)
    return number, faces, value, found.group("purpose") if found else ""


@dataclass(frozen=True)
class _Line:
    """A report line's pattern in one language: its text before the first field and a regex of the whole."""

    prefix: str
    pattern: re.Pattern[str]


@cache
def _lines(msgid: str) -> tuple[_Line, ...]:
    """The line `msgid` in every language the catalogues have (English first)."""
    found = []
    for language in KEYWORD_LANGUAGES:
        text = translations(language).gettext(msgid)
        line = _Line(PLACEHOLDER.split(text)[0], message_pattern(text, ("purpose", "rolls")))
        if line not in found:
            found.append(line)
    return tuple(found)


def _match(msgids: str | tuple[str, ...], line: str) -> tuple[re.Match[str] | None, bool]:
    """(the match, whether the line begins as one of them): a line that begins like it but does not match is
    garbled."""
    begins = False
    for msgid in (msgids,) if isinstance(msgids, str) else msgids:
        for known in _lines(msgid):
            if known.prefix and line.startswith(known.prefix):
                begins = True
                matched = known.pattern.match(line)
                if matched:
                    return matched, True
    return None, begins


def _read_report(text: str, source: str, mail_game: str, games: dict[str, GameCopies], problems: list[str]) -> None:
    """Add what one text prints to `games` (by game name); a garbled line is a problem named with its line."""
    game = mail_game
    current: TurnCopy | None = None
    public = False  # only a public (or moderator's) report's sections carry the dice
    receipt: re.Match[str] | None = None  # a receipt's title, when it is the text's first line
    first = True
    for number, raw in enumerate(text.splitlines(), 1):
        line, where = raw.strip(), f"{source}:{number}"
        if first and line:
            first, receipt = False, _match(RECEIPT_TITLE, line)[0]
        found, begins = _match(FINGERPRINT_LINE, line)
        if begins:  # a receipt's own line; quoted elsewhere (press, a reply) it proves nothing
            if receipt is not None:
                _keep_fingerprint(found, receipt, where, line, games, problems)
            continue
        title, _ = _match(TITLES, line)
        if title:
            game, public, current = title.group("game"), "seat" not in title.groupdict(), None
            continue
        if line.startswith("===") and line.endswith("==="):
            heading = re.search(r"\d+", line)
            current = None
            if public and heading:
                named = _match(TURN_HEADINGS, line.strip("= "))[0]
                seats = named.groupdict().get("seat") if named else None
                setup = _match(TURN_HEADINGS[1], line.strip("= "))[0] is not None
                current = TurnCopy(
                    int(heading.group()),
                    where,
                    heading=bool(named),
                    setup=setup,
                    seats=tuple(seats.split(", ")) if seats else (),
                )
                games.setdefault(game, GameCopies()).turns.setdefault(current.turn, []).append(current)
            continue
        _read_line(line, where, game, current, games, problems)


def _read_line(
    line: str, where: str, game: str, turn: TurnCopy | None, games: dict[str, GameCopies], problems: list[str]
) -> None:
    """One line of a report: a commitment, a seed, or one of a turn's dice or chain lines."""
    found, begins = _match(COMMITMENTS, line)
    if begins:
        _keep(found, "commitment", where, line, games.setdefault(game, GameCopies()).commitments, problems)
        return
    found, begins = _match(SEED_LINES, line)
    if not begins:
        found, begins = _seed_begun(line)
    if begins:
        copies = games.setdefault(game, GameCopies())
        _keep(found, "seed", where, line, copies.seeds, problems)
        copies.unkeyed = copies.unkeyed or bool(_match(SEED_LINES[1], line)[0])
        return
    if turn is not None:
        _read_turn_line(line, where, turn, problems)


def _keep(
    found: re.Match[str] | None, name: str, where: str, line: str, kept: dict[str, list[str]], problems: list[str]
) -> None:
    """Keep a game's commitment or revealed seed with where it was printed; a garbled one is a problem."""
    value = found.group(name) if found else ""
    if _HEX.fullmatch(value):
        kept.setdefault(value, []).append(where)
    else:
        problems.append(f"{where}: the dice {name} is garbled: {line[:90]!r}")


def _keep_fingerprint(
    found: re.Match[str] | None,
    receipt: re.Match[str],
    where: str,
    line: str,
    games: dict[str, GameCopies],
    problems: list[str],
) -> None:
    """Keep a receipt's fingerprint under its game, turn and seat, which its title names too; a garbled one, or
    one of another game, turn or seat than its receipt's, is a problem."""
    if found is None or not _HEX.fullmatch(found.group("fingerprint")) or not _stored_at(found.group("received")):
        problems.append(f"{where}: the receipt's orders fingerprint is garbled: {line[:90]!r}")
        return
    named = [found.group(name) for name in ("game", "turn", "seat")]
    if named != [receipt.group(name) for name in ("game", "turn", "seat")] or not named[1].isdecimal():
        problems.append(f"{where}: the fingerprint names another game, turn or seat than its receipt: {line[:90]!r}")
        return
    kept = games.setdefault(named[0], GameCopies()).fingerprints
    stored = Fingerprint(found.group("received"), found.group("fingerprint"), where)
    kept.setdefault((int(named[1]), named[2]), []).append(stored)


def _stored_at(text: str) -> bool:
    """Whether a receipt's time is the archive's ISO time."""
    try:
        return datetime.fromisoformat(text).tzinfo is not None
    except ValueError:
        return False


def _seed_begun(line: str) -> tuple[re.Match[str] | None, bool]:
    """A seed line cut short (a truncated report): it begins like one, the seed is read up to its full stop."""
    for msgid in SEED_LINES:
        for known in _lines(msgid):
            if line.startswith(known.prefix):
                return re.match(re.escape(known.prefix) + r"(?P<seed>[^.\s]*)", line), True
    return None, False


def _read_turn_line(line: str, where: str, turn: TurnCopy, problems: list[str]) -> None:
    found, begins = _match(KEY_LINE, line)
    if begins:
        value = found.group("key") if found else ""
        if _HEX.fullmatch(value) or any(value == translations(lang).gettext(DICE_FILE) for lang in KEYWORD_LANGUAGES):
            turn.key, turn.key_at = value, where
        else:
            problems.append(f"{where}: turn {turn.turn}'s key is garbled: {line[:90]!r}")
        return
    found, begins = _match(SEAT_HASH_LINE, line)
    if begins:
        value = found.group("hash") if found else ""
        if _HEX.fullmatch(value) and found is not None:
            turn.seat_hashes[found.group("seat")] = value
        else:
            problems.append(f"{where}: turn {turn.turn}'s commitment to a seat's orders is garbled: {line[:90]!r}")
        return
    found, begins = _match(HASH_LINE, line.split(";", 1)[0])
    if begins:
        _read_hash_line(line, where, turn, problems)
        return
    found, begins = _match(DRAW_LINE, line)
    if begins and turn.key_at:  # a draw line follows its turn's dice line; before it, an event may begin alike
        draw = _draw(found)
        if draw is None:
            problems.append(f"{where}: turn {turn.turn}'s draw line is garbled: {line[:90]!r}")
        else:
            turn.draws.append(draw)
            turn.draws_at.append(where)
        return
    found, begins = _match(CHAIN_LINE, line)
    if begins:
        value = found.group("hash") if found else ""
        if _HEX.fullmatch(value):
            turn.chain, turn.chain_at = value, where
        else:
            problems.append(f"{where}: turn {turn.turn}'s chain head is garbled: {line[:90]!r}")
        return
    found, begins = _match(DIGEST_LINE, line)
    if begins:
        value = found.group("digest") if found else ""
        if _HEX.fullmatch(value):
            turn.digest = value
        else:
            problems.append(f"{where}: turn {turn.turn}'s digest is garbled: {line[:90]!r}")


def _read_hash_line(line: str, where: str, turn: TurnCopy, problems: list[str]) -> None:
    """ "orders hash <hash>; rolls: 1 3 3" or "...; no dice were rolled"."""
    head, _, rest = line.partition(";")
    found, _ = _match(HASH_LINE, head.strip())
    value = found.group("hash") if found else ""
    rolls_found, _ = _match(ROLLS, rest.strip())
    none = any(rest.strip() == translations(lang).gettext(NO_ROLLS) for lang in KEYWORD_LANGUAGES)
    try:
        rolls = tuple(int(v) for v in rolls_found.group("rolls").split()) if rolls_found else None
    except ValueError:
        rolls = None
    if not _HEX.fullmatch(value) or (rolls is None and not none):
        problems.append(f"{where}: turn {turn.turn}'s orders hash line is garbled: {line[:90]!r}")
        return
    turn.orders_hash, turn.rolls = value, () if none else rolls


# -- checking ---------------------------------------------------------------------------------------------------


def _check_game(name: str, game: GameCopies, checked: Checked) -> None:
    problems, notes = checked.problems, checked.notes
    start = len(problems)
    anchor = _commitment(name, game, problems)
    if anchor is None:
        notes.append(f"game {name}: no dice commitment in the folder: the first key read is not anchored")
    keys: dict[int, str] = {0: anchor} if anchor else {}
    heads: dict[str, int] = {}
    for number in sorted(game.turns):
        if number >= CHAIN_LENGTH:  # a garbled turn number: named, not walked
            where = game.turns[number][0].where
            problems.append(f"{where}: game {name}: turn {number} is beyond the dice chain ({CHAIN_LENGTH} keys)")
            continue
        copies = [c for c in game.turns[number] if c.key or c.rolls is not None or c.chain or c.digest]
        if not _setup(game, number):  # every turn's own section prints its dice line: one without it was cut short
            cut = [c for c in game.turns[number] if c.heading and c not in copies]
            problems += [f"{c.where}: game {name} turn {number}: the report ends before its dice line" for c in cut]
        if not copies:
            continue
        found = len(problems)
        said = _check_turn(name, number, copies, keys, heads, checked)
        checked.turns.append((len(problems) == found, f"game {name} turn {number}: {said}"))
    _check_seed(name, game, keys, checked)
    _check_links(name, game, anchor, checked)
    numbers = sorted(n for n in game.turns if 0 < n < CHAIN_LENGTH)
    missing = sorted(set(range(numbers[0], numbers[-1] + 1)) - set(numbers)) if numbers else []
    if missing:
        notes.append(f"game {name}: no report of turn(s) {spans(missing)}: the key walks span them")
    if len(problems) == start:
        against = "with the dice commitment and " if anchor else ""
        checked.lines.append(f"game {name}: every report read agrees {against}with the others")


def _commitment(name: str, game: GameCopies, problems: list[str]) -> str | None:
    if len(game.commitments) > 1:
        places = "; ".join(f"{value} in {', '.join(where[:3])}" for value, where in game.commitments.items())
        problems.append(f"game {name}: the dice commitment differs between reports: {places}")
    return next(iter(game.commitments), None)


def _check_turn(
    name: str, number: int, copies: list[TurnCopy], keys: dict[int, str], heads: dict[str, int], checked: Checked
) -> str:
    """Check one turn's copies; returns the turn's line."""
    problems = checked.problems
    label = f"game {name} turn {number}"
    for what, value_of in (
        ("turn key", lambda c: c.key),
        ("orders hash", lambda c: c.orders_hash),
        ("seats' commitments", lambda c: " ".join(f"{seat} {value}" for seat, value in c.seat_hashes.items())),
        ("rolls", lambda c: " ".join(map(str, c.rolls)) if c.rolls is not None else ""),
        ("draws", lambda c: "; ".join(f"{n} {f} {v} {p}" for n, f, v, p in c.draws)),
        ("archive chain head", lambda c: c.chain),
        ("turn digest", lambda c: c.digest),
    ):
        _agree(label, what, [(value_of(c), c.where) for c in copies if value_of(c)], problems)
    problems += [problem for copy in copies for problem in _copy_problems(label, copy)]
    first = copies[0]
    revealed = {c.key: c.key_at for c in copies if _HEX.fullmatch(c.key)}  # each key printed, where first
    walks = [_check_key(label, number, key, where, keys) for key, where in revealed.items()]
    walks = walks or [_check_key(label, number, "", "", keys, number == 0 or any(c.setup for c in copies))]
    problems += [walk.removeprefix("PROBLEM ") for walk in walks if walk.startswith("PROBLEM")]
    walked = next((walk for walk in walks if walk.startswith("PROBLEM")), walks[0])
    if revealed:  # the turns after it walk down to a key that follows, where one does
        keys[number] = next(
            (k for k, w in zip(revealed, walks, strict=True) if not w.startswith("PROBLEM")), keys[number]
        )
    recomputed = 0
    for copy in {_draws_key(c): c for c in copies if c.draws or c.rolls}.values():
        recomputed = max(recomputed, _check_draws(label, copy, problems, checked.notes))
    head = next((c.chain for c in copies if c.chain), "")
    if head and heads.setdefault(head, number) != number:
        problems.append(f"{first.where}: {label}: its chain head {head} is turn {heads[head]}'s too")
    said = [
        walked if not walked.startswith("PROBLEM") else "its key does not follow",
        f"{recomputed} draw(s) recomputed",
    ]
    said.append(f"{len(copies)} cop{'y' if len(copies) == 1 else 'ies'} read")
    if head:
        said.append(f"chain head {head[:16]}...")
    return ", ".join(said)


def _copy_problems(label: str, copy: TurnCopy) -> list[str]:
    """One copy of a turn on its own: cut short before its orders hash line, or an orders hash that is not made
    from the seats' commitments it prints."""
    if copy.key and copy.rolls is None:
        return [f"{copy.where}: {label}: the report ends before its orders hash line (truncated?)"]
    if copy.seat_hashes and seats_hash(copy.seat_hashes) != copy.orders_hash:
        return [
            f"{copy.where}: {label}: its orders hash is not SHA-256 of its seats' commitments "
            "(engine/chance.py step_commitment)"
        ]
    return []


def _check_links(name: str, game: GameCopies, anchor: str | None, checked: Checked) -> None:
    """Each chain head printed with its turn's digest must be SHA-256 of the previous turn's head (the commitment
    before turn 0) followed by the digest: the heads follow one another. A game begun before reports printed
    digests has none: its heads are only held to one per turn."""
    heads = {n: next((c.chain for c in found if c.chain), "") for n, found in game.turns.items()}
    digests = {n: next((c.digest for c in found if c.digest), "") for n, found in game.turns.items()}
    followed, unlinked = 0, []
    for number in sorted(n for n in game.turns if heads[n] and digests[n]):
        previous = anchor if _setup(game, number) else heads.get(number - 1, "")
        if not previous:
            unlinked.append(number)
            continue
        if digest_link(previous, digests[number]) != heads[number]:
            where = next(c.chain_at for c in game.turns[number] if c.chain)
            before = "the commitment" if _setup(game, number) else f"turn {number - 1}'s head"
            checked.problems.append(
                f"{where}: game {name} turn {number}: its chain head does not follow from {before} and its digest"
            )
        followed += 1
    if followed or unlinked:
        checked.notes.append(
            f"game {name}: {followed} chain link(s) followed"
            + (f"; turn(s) {spans(unlinked)} not linked (the folder lacks the head before)" if unlinked else "")
            + "; each digest covers its turn's orders, state and events as the archive stores them, which "
            + (
                f"the replay of the record ({game.record}) recomputes"
                if game.record
                else "only `pbem verify` recomputes"
            )
        )
    elif any(heads.values()):
        checked.notes.append(
            f"game {name}: its reports print no turn digests (a game begun by an older version): the chain heads "
            "are held to one per turn, and recomputing them needs the archive (`pbem verify`)"
        )


def _setup(game: GameCopies, number: int) -> bool:
    """Whether the turn is the game's setup, whose chain head follows from the commitment: turn 0, or the position
    a game was begun from, which its reports head as the setup."""
    return number == 0 or any(copy.setup for copy in game.turns.get(number, []))


def _draws_key(copy: TurnCopy) -> tuple[object, ...]:
    return (copy.key, copy.orders_hash, copy.rolls, tuple(copy.draws))


def _agree(label: str, what: str, values: list[tuple[str, str]], problems: list[str]) -> None:
    """Every copy of a turn prints the same `what`: one that differs was changed after another was sent."""
    distinct: dict[str, list[str]] = {}
    for value, where in values:
        distinct.setdefault(value, []).append(where)
    if len(distinct) > 1:
        shown = "; ".join(f"{_short(value)} in {', '.join(where[:3])}" for value, where in distinct.items())
        problems.append(f"{label}: the reports do not agree on its {what} (one was changed after it was sent): {shown}")


def _short(value: str) -> str:
    return repr(value if len(value) <= 70 else value[:67] + "...")


def _check_key(label: str, number: int, key: str, where: str, keys: dict[int, str], setup: bool = False) -> str:
    """Walk the turn's key down to the nearest earlier key known (the commitment is turn 0's); `setup`: the game's
    setup, which has no key."""
    if not key:
        return "the setup, no turn key" if setup else "no turn key (dice file or none printed)"
    earlier = [t for t in keys if t < number]
    keys.setdefault(number, key)
    if not earlier:
        return "its key is not anchored (no earlier key or commitment read)"
    previous = max(earlier)
    walked = bytes.fromhex(key)
    for _ in range(number - previous):
        walked = hashlib.sha256(walked).digest()
    what = "the commitment" if previous == 0 else f"turn {previous}'s key"
    if walked.hex() != keys[previous]:
        return f"PROBLEM {where}: {label}: its key does not hash down to {what} ({number - previous} sha256)"
    return f"its key hashes down to {what}"


def _check_draws(label: str, copy: TurnCopy, problems: list[str], notes: list[str]) -> int:
    """Recompute a copy's draws from its key and orders hash; returns how many agree."""
    if not copy.draws:
        if copy.rolls:
            notes.append(
                f"{copy.where}: {label}: {len(copy.rolls)} roll(s) printed without their purposes (a report "
                "of an older version): not recomputed"
            )
        return 0
    if not _HEX.fullmatch(copy.key):
        notes.append(f"{copy.where}: {label}: dice from a dice file: not recomputed")
        return 0
    numbers = [n for n, _, _, _ in copy.draws]
    values = tuple(v for _, _, v, _ in copy.draws)
    if numbers != list(range(1, len(numbers) + 1)) or len(numbers) != len(copy.rolls or values):
        problems.append(
            f"{copy.draws_at[-1]}: {label}: {len(numbers)} draw line(s) for {len(copy.rolls or ())} roll(s): a draw "
            "line is missing (truncated?)"
        )
    elif copy.rolls is not None and values != copy.rolls:
        problems.append(f"{copy.draws_at[-1]}: {label}: its draws print other values than its rolls")
    dice = KeyedDice(key=bytes.fromhex(copy.key), orders_hash=copy.orders_hash)
    agreed = 0
    for (number, faces, value, purpose), where in zip(copy.draws, copy.draws_at, strict=True):
        try:
            drawn = dice.roll(purpose, faces)
        except DiceError as bad:
            problems.append(f"{where}: {label}: draw {number} cannot be made: {bad}")
            return agreed
        if drawn != value:
            problems.append(
                f"{where}: {label}: draw {number} ({purpose}, 1-{faces}) gives {drawn} from the turn's key and orders "
                f"hash, but the report prints {value}"
            )
        else:
            agreed += 1
    return agreed


def _check_seed(name: str, game: GameCopies, keys: dict[int, str], checked: Checked) -> None:
    """At the game's end the seed is revealed: it must make the commitment and every turn's key, and the hidden
    draws a saved site shows."""
    problems, notes = checked.problems, checked.notes
    if not game.seeds:
        notes.append(f"game {name}: no revealed seed (the game has not ended): hidden draws and orders hashes wait")
        return
    if len(game.seeds) > 1:
        problems.append(f"game {name}: the revealed seed differs between reports: {', '.join(game.seeds)}")
    for seed, where in game.seeds.items():
        secret = bytes.fromhex(seed)
        if keys.get(0) and commitment(secret) != keys[0]:
            problems.append(f"{where[0]}: game {name}: the revealed seed does not make the dice commitment")
            continue
        made = chain_keys(secret, min(max(keys, default=0), CHAIN_LENGTH - 1))
        wrong = [t for t, key in sorted(keys.items()) if 0 < t < len(made) and made[t].hex() != key]
        if wrong:
            problems.append(f"{where[0]}: game {name}: the revealed seed does not make the key of turn(s) {wrong}")
        else:
            checked.lines.append(f"game {name}: the revealed seed makes the dice commitment and every turn key read")
        _check_hidden(name, game, secret, checked)
        _check_own_orders(name, game, secret, checked)


def _check_hidden(name: str, game: GameCopies, seed: bytes, checked: Checked) -> None:
    """Recompute each turn's hidden draws from the revealed seed's hidden key of the turn (engine/chance.py)."""
    if not game.hidden and game.record:
        return  # the record's replay deals them again (_check_record)
    if not game.hidden:
        checked.notes.append(
            f"game {name}: no hidden draws read (the site's turn pages show them once the game has ended): "
            "not recomputed"
        )
        return
    agreed = 0
    for (turn, page), draws in sorted(game.hidden.items()):
        # the orders hash the page's own report prints (every copy's is held to the others' above)
        copies = sorted(game.turns.get(turn, []), key=lambda c: not c.where.startswith(f"{page}:"))
        orders_hash = next((c.orders_hash for c in copies if c.orders_hash), "")
        dice = KeyedDice(orders_hash=orders_hash)
        for number, faces, value, purpose, where in draws:
            try:
                dice.hidden_key = dice.hidden_key or hidden_turn_key(seed, turn)
                drawn = dice.roll(purpose, faces, hidden=True)
            except DiceError as bad:
                checked.problems.append(f"{where}: game {name} turn {turn}: hidden draw {number} cannot be made: {bad}")
                break
            if drawn != value:
                checked.problems.append(
                    f"{where}: game {name} turn {turn}: hidden draw {number} ({purpose}, 1-{faces}) gives {drawn} "
                    f"from the revealed seed, but the page prints {value}"
                )
            else:
                agreed += 1
    checked.lines.append(
        f"game {name}: {agreed} hidden draw(s) of {len({turn for turn, _ in game.hidden})} turn(s) recomputed from "
        "the revealed seed"
    )


def _check_own_orders(name: str, game: GameCopies, seed: bytes, checked: Checked) -> None:
    """Each turn was resolved with the orders the player's last receipt for it confirmed: with the revealed seed,
    the commitment to the receipt's fingerprint (engine/chance.py fingerprints_commitment) must be the orders hash
    of a step that seat alone ordered in, or the seat's line of a step of several seats. A turn of his seat with no
    receipt must have been resolved with none."""
    notes = checked.notes
    if not game.fingerprints:
        notes.append(
            f"game {name}: no receipt with an orders fingerprint in the folder (older versions printed none): the "
            "orders hashes are not checked against your orders"
        )
        return
    agreed, unchecked = 0, []
    for (turn, seat), kept in sorted(game.fingerprints.items()):
        committed = _seat_commitment(game.turns.get(turn, []), seat)
        if committed is None:
            unchecked.append(turn)
            continue
        problem = _turn_problem(name, turn, seat, kept, committed, _committer(game, seed, turn))
        if problem:
            checked.problems.append(problem)
        else:
            agreed += 1
    silent, unconfirmed = _unreceipted(game, {seat for _, seat in game.fingerprints}, seed)
    checked.lines.append(
        f"game {name}: {agreed} turn(s) resolved with the orders your last receipt of each confirmed"
        + (f"; {silent} turn(s) of your seat with no receipt resolved with no orders" if silent else "")
    )
    if unconfirmed:
        notes.append(
            f"game {name}: turn(s) {spans(unconfirmed)}: resolved with orders of your seat that no receipt in the "
            "folder confirms (the bot's orders, or a receipt you did not keep): not checked"
        )
    if unchecked:
        notes.append(
            f"game {name}: turn(s) {spans(sorted(set(unchecked)))}: the folder holds no report of the turn, or the "
            "step's orders hash commits to several seats' orders together (older versions): your receipt's "
            "fingerprint is not checked"
        )


def _committer(game: GameCopies, seed: bytes, turn: int) -> Callable[[str], str]:
    """The commitment to a fingerprint that turn `turn` prints: keyed by the turn's orders key, or in a game of an
    older version whose seed line says its hashes are unkeyed, orders_digest (SHA-256 of the fingerprint)."""
    if game.unkeyed:
        return lambda fingerprint: hashlib.sha256(bytes.fromhex(fingerprint)).hexdigest()
    key = orders_key(seed, turn)
    return lambda fingerprint: fingerprints_commitment(key, [fingerprint])


def _turn_problem(
    name: str, turn: int, seat: str, kept: list[Fingerprint], committed: str, commit: Callable[[str], str]
) -> str:
    """The problem with one turn of the seat ("" for none): the last receipts (those stored in the same second
    are all last: either may be) must confirm what the turn committed to."""
    kept = sorted(set(kept), reverse=True)
    last = [k for k in kept if k.received == kept[0].received]
    if any(commit(k.value) == committed for k in last):
        return ""
    replaced = next((k for k in kept[len(last) :] if commit(k.value) == committed), None)
    where, stored = last[0].where, last[0].received
    if replaced:
        return (
            f"{where}: game {name} turn {turn}: resolved with the orders of {seat} stored {replaced.received}, "
            f"which the orders stored {stored} had replaced"
        )
    return (
        f"{where}: game {name} turn {turn}: its orders hash is not the commitment to the orders of {seat} this "
        f"receipt confirmed (stored {stored}): the turn was resolved with other orders (orders you did not send, "
        "unless you sent a later set whose receipt is not in the folder)"
    )


def _seat_commitment(copies: list[TurnCopy], seat: str) -> str | None:
    """The commitment to `seat`'s orders that a turn's report prints: the orders hash of a step he alone ordered in,
    or his line of a step of several seats; None when the folder holds no such report of the turn."""
    for copy in copies:
        if copy.orders_hash and copy.seats == (seat,):
            return copy.orders_hash
        if seat in copy.seat_hashes:
            return copy.seat_hashes[seat]
    return None


def _unreceipted(game: GameCopies, seats: set[str], seed: bytes) -> tuple[int, list[int]]:
    """The seats' own steps for which the folder holds no receipt: how many were resolved with no orders, and
    the turns resolved with orders that no receipt confirms (the bot's, or receipts the player did not keep)."""
    silent, unconfirmed = 0, []
    for turn, copies in sorted(game.turns.items()):
        for seat in sorted(seats):
            committed = _seat_commitment(copies, seat) if (turn, seat) not in game.fingerprints else None
            if committed is None or not 0 < turn < CHAIN_LENGTH:
                continue
            if _committer(game, seed, turn)(NO_ORDERS) == committed:
                silent += 1
            else:
                unconfirmed.append(turn)
    return silent, unconfirmed


def _check_sent(name: str, game: GameCopies, mails: Mails, checked: Checked) -> None:
    """Each receipt that answers an order mail the folder holds confirms the orders of that mail: its fingerprint
    is that of the mail's orders as the archive stores them. A moderator who stored other orders than a player
    sent, and confirmed those, is caught here, before the game ends."""
    agreed = 0
    for (turn, seat), kept in sorted(game.fingerprints.items()):
        for receipt in kept:
            file = receipt.where.split(" (mail text)")[0]
            sent = mails.sent.get(mails.replies.get(file, "")) if file not in mails.restated else None
            if sent is None or (sent.game.casefold(), sent.seat.casefold()) != (name.casefold(), seat.casefold()):
                continue  # no order mail of this seat in the folder that the receipt answers with its own orders
            if receipt.value == NO_ORDERS:
                continue  # WITHDRAW: the receipt confirms no orders, whatever the mail said besides
            if receipt.value == sent.fingerprint:
                agreed += 1
            else:
                checked.problems.append(
                    f"{receipt.where}: game {name} turn {turn}: the receipt confirms other orders of {seat} than "
                    f"the mail it answers ({sent.where}) holds: the archive stored orders you did not send (unless "
                    "your mail system changed the mail after your copy was kept)"
                )
    if agreed:
        checked.lines.append(f"game {name}: {agreed} receipt(s) confirm the orders of the mail you sent")


def _check_record(where: str, stored: GameRows, games: dict[str, GameCopies], mails: Mails, checked: Checked) -> None:
    """A game's record (game_record.py) replayed as `pbem verify` replays the archive, and held to the reports: each
    turn a report printed must have that report's chain head, key and orders hash in the record."""
    from adjudicator.services.verification import replay_game

    name = stored.game.name
    try:
        passed, problems, rows = replay_game(stored)
    except Exception as broken:  # noqa: BLE001 (whatever a forged or damaged record holds, it is named, not a crash)
        checked.problems.append(f"{where}: game {name}: cannot be replayed ({type(broken).__name__}: {broken})")
        return
    checked.problems += [f"{where}: game {name}: {problem}" for problem in problems]
    game = games.get(name)
    if game is None:
        checked.notes.append(
            f"{where}: the record of game {name}, of which the folder holds no report: replayed, but not held to "
            "what you were sent"
        )
        return
    found = len(checked.problems)
    tied, untied = _tie_record(where, name, stored.game.commitment, rows, game, checked.problems)
    if problems or len(checked.problems) > found:
        return
    replayed = [row for row in rows if row.number > 0]  # the setup is held to the setup rules, not replayed
    hidden = sum(len(json.loads(row.hidden_dice_json or "[]")) for row in replayed)  # each one the replay dealt
    checked.lines.append(
        f"game {name}: its record ({where}) replays: {sum('replay matches' in p for p in passed)} turn(s) resolved "
        f"again from every seat's orders, answers and keys, {hidden} hidden draw(s) dealt again from the seed; it is "
        f"the game of the {tied} turn(s) your reports printed"
    )
    if untied:
        checked.notes.append(
            f"game {name}: turn(s) {spans(untied)} of the record ({where}): no report of them in the folder, so they "
            "are held to nothing you were sent"
        )
    lines, problems, notes = check_rendered(
        where,
        stored,
        game.rendered,
        mails.shown,
        mails.pages,
        {n: (p, mails.versions[n]) for n, p in mails.indexes.items()},
    )
    checked.lines += lines
    checked.problems += problems
    checked.notes += notes


def _tie_record(
    where: str, name: str, committed: str, rows: list[Any], game: GameCopies, problems: list[str]
) -> tuple[int, list[int]]:
    """The record against the reports: the same dice commitment, and each turn a report printed has in the record
    the chain head, key and orders hash that report printed (copies that disagree with each other are named by the
    reports' own check: one that agrees is enough). Returns how many turns agree, and the record's turns that no
    report in the folder prints."""
    if game.commitments and committed not in game.commitments:
        problems.append(f"{where}: game {name}: the record's dice commitment is not the one your reports printed")
    recorded = {row.number: row for row in rows}
    agreed = 0
    for number, copies in sorted(game.turns.items()):
        printed = [c for c in copies if c.chain or c.key or c.orders_hash]
        if not printed:
            continue
        row = recorded.get(number)
        if row is None:
            problems.append(f"{where}: game {name} turn {number}: not in the record, yet {printed[0].where} prints it")
            continue
        differ = [_record_differs(row, copy) for copy in printed]
        if all(differ):
            copy, what = next((c, d) for c, d in zip(printed, differ, strict=True))
            problems.append(
                f"{where}: game {name} turn {number}: the record's {what} is not the one {copy.where} printed: the "
                "record is not the game you were sent"
            )
        else:
            agreed += 1
    untied = sorted(
        n for n in recorded if n > 0 and not any(c.chain or c.key or c.orders_hash for c in game.turns.get(n, []))
    )
    return agreed, untied


def _record_differs(row: Any, copy: TurnCopy) -> str:
    """What of a turn's report copy the record's turn does not have ("" for nothing): its chain head, its turn key,
    its orders hash."""
    for what, printed, recorded in (
        ("chain head", copy.chain, row.chain),
        ("turn key", copy.key if _HEX.fullmatch(copy.key) else "", row.turn_key),
        ("orders hash", copy.orders_hash, row.orders_hash),
    ):
        if printed and printed != recorded:
            return what
    return ""
