"""The game-neutral snapshot (schema 2, docs/snapshot.md): an envelope around a ruleset's own game part.

    {"schema": 2, "ruleset": "...", "game": "...", "step": 7,
     "public": {...},                       # what every player, observer and the site may see
     "private": {"<seat>": {...}, ...},     # each seat's hidden part (its hand, face-down cards): one per seat
     "secret": {...},                       # what no seat may see yet: the order of a deck, cards set aside
     "data_digest": "<64 hex digits>"}      # a game played with the moderator's data: which data (data_digest)

Three views of one envelope: the public snapshot (no "private" or "secret" key at all), a seat's own snapshot
(the public part and only that seat's private part) and the whole (every private part and the secret part: the
archive's, revealed when the game ends). What "public", each private part and the secret part hold is the
ruleset's. Conquest of the Empire keeps its schema 1.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from adjudicator.engine.canonical import canonical_text
from adjudicator.errors import PbemError

SCHEMA = 2
KEYS = ("schema", "ruleset", "game", "step", "public", "private", "secret")
REQUIRED = KEYS[:5]
DATA_KEY = "data_digest"  # optional: written only for a game played with the moderator's data


class EnvelopeError(PbemError, ValueError):
    """A snapshot whose envelope is not schema 2's shape: names the key."""


@dataclass(frozen=True)
class Envelope:
    """A position of a game: its public part and each seat's private part."""

    ruleset: str
    game: str
    step: int
    public: dict[str, Any]
    private: dict[str, dict[str, Any]] = field(default_factory=dict)
    secret: dict[str, Any] = field(default_factory=dict)  # no seat's: a deck's order, cards set aside
    data_digest: str = ""  # the data_digest of the game's data, "" for a game whose data ships with its ruleset

    def _head(self) -> dict[str, Any]:
        head = {"schema": SCHEMA, "ruleset": self.ruleset, "game": self.game, "step": self.step, "public": self.public}
        # written only when known, so that the snapshots of games made before it was kept read back the same
        return head | ({DATA_KEY: self.data_digest} if self.data_digest else {})

    def public_snapshot(self) -> dict[str, Any]:
        """What everybody may see: no private or secret part at all, not even the seats' names in it."""
        return self._head()

    def seat_snapshot(self, seat: str) -> dict[str, Any]:
        """What `seat` may see: the public part and its own private part."""
        if seat not in self.private:
            raise EnvelopeError(f"snapshot: no seat {seat!r} in 'private' (seats: {', '.join(sorted(self.private))})")
        return {**self._head(), "private": {seat: self.private[seat]}}

    def whole_snapshot(self) -> dict[str, Any]:
        """Everything, every seat's private part and the secret part included: for the archive, and revealed when
        the game ends."""
        return {**self._head(), "private": self.private, "secret": self.secret}


def envelope_text(snapshot: Mapping[str, Any]) -> str:
    """Canonical JSON text of a snapshot view (stable key order, so that equal positions hash equally)."""
    return canonical_text(snapshot) + "\n"  # json.dumps(ensure_ascii=False, sort_keys=True, indent=1), faster


def read_envelope(data: Any, source: str = "snapshot") -> Envelope:
    """An envelope from parsed JSON (any of the three views): checks its shape and names the first wrong key."""
    if not isinstance(data, dict):
        raise EnvelopeError(f"{source}: a snapshot is a JSON object, not {type(data).__name__}")
    unknown = sorted(set(data) - {*KEYS, DATA_KEY})
    if unknown:
        raise EnvelopeError(
            f"{source}: unknown key {unknown[0]!r} (a schema 2 snapshot has {', '.join(KEYS)}); "
            f"a game played with the moderator's data adds {DATA_KEY}"
        )
    missing = [key for key in REQUIRED if key not in data]
    if missing:
        raise EnvelopeError(f"{source}: the key {missing[0]!r} is missing")
    if type(data["schema"]) is not int or data["schema"] != SCHEMA:
        raise EnvelopeError(f"{source}: 'schema' is {data['schema']!r}, but this reader reads schema {SCHEMA}")
    for key in ("ruleset", "game"):
        if not isinstance(data[key], str) or not data[key]:
            raise EnvelopeError(f"{source}: {key!r} must be a non-empty string, not {data[key]!r}")
    if not isinstance(data["step"], int) or isinstance(data["step"], bool) or data["step"] < 0:
        raise EnvelopeError(f"{source}: 'step' must be a whole number from 0, not {data['step']!r}")
    if not isinstance(data["public"], dict):
        raise EnvelopeError(f"{source}: 'public' must be an object, not {type(data['public']).__name__}")
    private = data.get("private", {})
    if not isinstance(private, dict):
        raise EnvelopeError(f"{source}: 'private' must be an object of seats, not {type(private).__name__}")
    for seat, part in private.items():
        if not isinstance(part, dict):
            raise EnvelopeError(f"{source}: 'private.{seat}' must be an object, not {type(part).__name__}")
    secret = data.get("secret", {})
    if not isinstance(secret, dict):
        raise EnvelopeError(f"{source}: 'secret' must be an object, not {type(secret).__name__}")
    digest = data.get(DATA_KEY, "")
    if not isinstance(digest, str) or (digest and not _is_digest(digest)):
        raise EnvelopeError(f"{source}: {DATA_KEY!r} must be 64 hexadecimal digits, not {digest!r}")
    return Envelope(data["ruleset"], data["game"], data["step"], data["public"], private, secret, digest)


def data_digest(files: Mapping[str, str]) -> str:
    """The digest that names a game's data (file name -> text, as the archive stores it with the game): SHA-256 of
    the files' canonical JSON (keys sorted, no spaces, UTF-8), in hexadecimal. Equal data, equal digest."""
    text = json.dumps(dict(files), ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _is_digest(text: str) -> bool:
    return len(text) == 64 and all(c in "0123456789abcdef" for c in text)


def envelope_from_text(text: str, source: str = "snapshot") -> Envelope:
    """An envelope from snapshot text; JSON that does not parse is named with its line and column."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as bad:
        raise EnvelopeError(f"{source}: not JSON (line {bad.lineno}, column {bad.colno}: {bad.msg})") from None
    return read_envelope(data, source)
