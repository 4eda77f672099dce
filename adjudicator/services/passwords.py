"""Seat passwords: stored only as scrypt hashes, checked on every order set, and removed from every text
that is stored or shown."""

from __future__ import annotations

import base64
import hashlib
import hmac
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

    from adjudicator.archive.models import GameRow, SeatRow


def hash_password(password: str) -> str:
    """A slow salted hash (scrypt); the password itself is never stored."""
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode(), salt=salt, n=2**14, r=8, p=1)
    return f"scrypt$16384$8$1${base64.b64encode(salt).decode()}${base64.b64encode(digest).decode()}"


def password_matches(password: str, stored: str) -> bool:
    if password == PASSWORD_MARK:
        return False  # the mark stands for a password removed from a stored text: it is never one itself
    _, n, r, p, salt, digest = stored.split("$")
    candidate = hashlib.scrypt(password.encode(), salt=base64.b64decode(salt), n=int(n), r=int(r), p=int(p))
    return hmac.compare_digest(candidate, base64.b64decode(digest))


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


def accept_password(session: Session, seat: SeatRow, which: str | None) -> bool:
    """Whether the password matched; a reset password's first use makes it the seat's password, and only then
    does the old one stop working (a forged reset locks nobody out)."""
    if which == "pending":
        seat.password_hash, seat.pending_password_hash = seat.pending_password_hash, ""
        session.add(seat)
    return which is not None
