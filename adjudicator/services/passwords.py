"""Seat passwords: stored only as scrypt hashes, checked on every order set, and removed from every text
that is stored or shown."""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import re
import secrets
from dataclasses import replace
from functools import lru_cache
from typing import TYPE_CHECKING

from adjudicator.errors import PbemError
from adjudicator.orders.sets import PASSWORD_MARK, OrderSet

# The archive (sqlmodel, SQLAlchemy: a large part of a command's start-up time) is imported by the functions
# that use it, so that the commands that work on files alone (`pbem check --state`) do not load it.
if TYPE_CHECKING:
    from sqlmodel import Session

    from adjudicator.archive.lean_mail import LeanSession
    from adjudicator.archive.models import GameRow, SeatRow


def hash_password(password: str) -> str:
    """A slow salted hash (scrypt); the password itself is never stored."""
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode(), salt=salt, n=2**14, r=8, p=1)
    stored = f"scrypt$16384$8$1${base64.b64encode(salt).decode()}${base64.b64encode(digest).decode()}"
    # the pair matches by construction: this process's own seats (self-play, the bot demo) skip a second scrypt
    MATCHED.remember(MATCHED.tag(password, stored))
    return stored


class _MatchedPasswords:
    """The (password, stored hash) pairs this process has found matching, so that a long-running process (`pbem
    serve`, self-play) pays scrypt once per seat, not once per mail. Only matches are kept: a wrong password pays
    scrypt every time, as guessing should. The pairs are kept as HMACs under a key of this process alone, never
    as passwords, and the table is bounded (emptied when full)."""

    LIMIT = 4096

    def __init__(self) -> None:
        self.key = os.urandom(32)
        self.pairs: set[bytes] = set()

    def tag(self, password: str, stored: str) -> bytes:
        return hmac.digest(self.key, f"{stored}\0{password}".encode(), "sha256")

    def remember(self, tag: bytes) -> None:
        if len(self.pairs) >= self.LIMIT:
            self.pairs.clear()
        self.pairs.add(tag)


MATCHED = _MatchedPasswords()


def password_matches(password: str, stored: str) -> bool:
    if password == PASSWORD_MARK:
        return False  # the mark stands for a password removed from a stored text: it is never one itself
    tag = MATCHED.tag(password, stored)
    if tag in MATCHED.pairs:
        return True
    _, n, r, p, salt, digest = stored.split("$")
    candidate = hashlib.scrypt(password.encode(), salt=base64.b64decode(salt), n=int(n), r=int(r), p=int(p))
    matches = hmac.compare_digest(candidate, base64.b64decode(digest))
    if matches:
        MATCHED.remember(tag)
    return matches


@lru_cache(maxsize=1)
def _header_password() -> re.Pattern[str]:
    """A header line (first word GAME in any language) up to its password word, and the password after it."""
    from adjudicator.orders.keywords import spellings

    game = "|".join(map(re.escape, spellings("GAME")))
    password = "|".join(map(re.escape, spellings("PASSWORD")))
    # the first password word after GAME: a comment later on the line may say "password" again
    return re.compile(
        rf"^(\ufeff?[ \t]*(?:{game})\b[^\n]*?\b(?:{password})[ \t]+)([^\s]+)", re.IGNORECASE | re.MULTILINE
    )


def without_passwords(text: str) -> str:
    """`text` with the password of each header line replaced by PASSWORD_MARK (everything else as it was)."""
    return _header_password().sub(lambda m: m.group(1) + PASSWORD_MARK, text)


def passwords_in(text: str) -> set[str]:
    """The passwords written in the header lines of `text` (right or wrong), to be removed wherever they are."""
    return {m.group(2) for m in _header_password().finditer(text)} - {PASSWORD_MARK}


def redacted(orders: OrderSet) -> OrderSet:
    """The order set as it may be stored and shown: no password in its text, its header or its errors."""
    header = replace(orders.header, password=PASSWORD_MARK) if orders.header is not None else None
    errors = tuple(replace(e, text=without_passwords(e.text)) for e in orders.errors)
    return replace(orders, header=header, errors=errors, source=without_passwords(orders.source))


def authenticate(session: Session, game: GameRow, orders: OrderSet) -> SeatRow:
    from adjudicator.archive import queries as db

    header = orders.header
    if header is None:
        problems = "; ".join(e.located for e in orders.errors) or "no header"
        raise PbemError(f"the order set has no valid header ({problems})")
    if header.game.casefold() != game.name.casefold():
        raise PbemError(f"line {header.line}: the header names game {header.game!r}, not {game.name!r}")
    seat = db.find_seat(session, game, header.player)
    if accept_password(
        session, seat, matching_password(header.password, seat.password_hash, seat.pending_password_hash)
    ):
        return seat
    raise PbemError(f"line {header.line}: wrong password for {seat.seat} in game {game.name}")


def matching_password(password: str, current: str, pending: str) -> str | None:
    """Which of a seat's password hashes `password` matches: "current", "pending" (a reset password not used yet)
    or None."""
    if password_matches(password, current):
        return "current"
    return "pending" if pending and password_matches(password, pending) else None


def accept_password(session: Session | LeanSession, seat: SeatRow, which: str | None) -> bool:
    """Whether the password matched; a reset password's first use makes it the seat's password, and only then
    does the old one stop working (a forged reset locks nobody out)."""
    if which == "pending":
        from adjudicator.archive.lean_mail import queries_for

        seat.password_hash, seat.pending_password_hash = seat.pending_password_hash, ""
        queries_for(session).save(seat)
    return which is not None


# Words said before a password in prose ("my password is x", "Passwort lautet x"), skipped to reach it.
_CONNECTORS = frozenset({"is", "ist", "lautet", "è", "e", "was", "=", ":", "-", "->"})
_TOKEN = re.compile(r"[^\s]+")
_GENERATED = re.compile(r"[A-Za-z0-9_-]{12}")  # the shape of every password the site makes (token_urlsafe(9))


def _distance(a: str, b: str) -> int:
    """Edit distance (insert, delete, substitute, swap two neighbours)."""
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        row = [i]
        for j, y in enumerate(b, 1):
            cost = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (x != y))
            if i > 1 and j > 1 and x == b[j - 2] and a[i - 2] == y:
                cost = min(cost, previous2[j - 2] + 1)
            row.append(cost)
        previous2, previous = previous, row
    return previous[-1]


@lru_cache(maxsize=1)
def _password_words() -> frozenset[str]:
    from adjudicator.orders.keywords import spellings

    return frozenset(s.casefold() for s in spellings("PASSWORD")) | {"pw", "pwd", "passwd"}


def _like_password_word(word: str) -> bool:
    """A password keyword of any language, or a near miss of one (PASWORD, KENWORT, WACHTWORD)."""
    word = word.casefold().strip(".,;:=\"'()[]<>*")
    if word in _password_words():
        return True
    return len(word) >= 5 and any(
        abs(len(word) - len(k)) <= 2 and _distance(word, k) <= (1 if len(k) < 8 else 2) for k in _password_words()
    )


def offered_passwords(text: str) -> set[str]:
    """Every word that follows a password keyword or a near miss of one, in any language, on its line or the next
    (prose words like "is" skipped): what a careless sender offered as a password, though no header was read."""
    from adjudicator.orders.keywords import keyword_of

    found: set[str] = set()
    tokens = _TOKEN.findall(text)
    for i, token in enumerate(tokens):
        word, sep, rest = token.partition("=") if "=" in token else token.partition(":")
        if not _like_password_word(word):
            continue
        if sep and rest:  # PASSWORD=x, Password:x
            found.add(rest)
            continue
        following = [t for t in tokens[i + 1 : i + 4] if t.casefold() not in _CONNECTORS]
        if following and keyword_of().get(following[0].casefold()) != "RESET":  # PASSWORD RESET: a command
            found.add(following[0])
    return found - {PASSWORD_MARK}


def generated_passwords_in(text: str, hashes: list[str], limit: int = 10) -> set[str]:
    """The words of `text` shaped like a site-made password that match one of `hashes`: a seat's password
    written without its keyword. Checked for the first `limit` candidates only (each check costs a hash)."""
    candidates = list(dict.fromkeys(t.strip(".,;:\"'()[]<>") for t in _TOKEN.findall(text)))
    candidates = [c for c in candidates if _GENERATED.fullmatch(c)][:limit]
    return {c for c in candidates if any(h and password_matches(c, h) for h in hashes)}
