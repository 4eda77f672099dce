"""Verifiable dice (DESIGN.md): a reverse hash chain of turn keys and an HMAC stream per turn.

The game's secret seed is hashed CHAIN_LENGTH times; the last value is the public commitment. The key of
player-turn t is the seed hashed CHAIN_LENGTH - t times, so revealing it lets anybody check
sha256(key_t) == key_(t-1) (key_0 is the commitment) while later keys stay unknown. Each roll is
HMAC-SHA256(turn key, "<orders hash>|<context>|<counter>") read byte by byte, rejecting bytes >= 252 so
that every face is equally likely.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable
from dataclasses import dataclass, field

from adjudicator.errors import PbemError

CHAIN_LENGTH = 10_000
FACES = 6
SYMBOLS = {"inf": 1, "infantry": 1, "cav": 3, "cavalry": 3, "cat": 4, "catapult": 4, "gal": 5, "galley": 5, "blank": 6}


class DiceError(PbemError, ValueError):
    pass


def _h(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def commitment(seed: bytes) -> str:
    """The public commitment to a seed: key 0 of its chain."""
    return turn_key(seed, 0).hex()


def turn_key(seed: bytes, turn: int) -> bytes:
    """Key of player-turn `turn` (1-based; 0 is the commitment)."""
    if not 0 <= turn < CHAIN_LENGTH:
        raise DiceError(f"turn {turn} is outside the dice chain (0..{CHAIN_LENGTH - 1})")
    key, sha256 = seed, hashlib.sha256  # a tight loop: up to 10,000 hashes for every turn resolved
    for _ in range(CHAIN_LENGTH - turn):
        key = sha256(key).digest()
    return key


def chain_keys(seed: bytes, last_turn: int) -> list[bytes]:
    """Keys 0..last_turn in one pass (for verifying a whole game)."""
    keys = [b""] * (last_turn + 1)
    key = seed
    for t in range(CHAIN_LENGTH, -1, -1):
        if t <= last_turn:
            keys[t] = key
        if t:
            key = _h(key)
    return keys


def key_follows(key: str, previous: str) -> bool:
    """Whether a revealed turn key hashes to the previous one (what a player checks)."""
    return _h(bytes.fromhex(key)).hex() == previous


@dataclass
class Dice:
    """A source of die rolls; records every roll with its purpose (the dice log of the turn)."""

    log: list[tuple[str, int]] = field(default_factory=list)

    def roll(self, purpose: str) -> int:
        value = self._next(purpose)
        self.log.append((purpose, value))
        return value

    def _next(self, purpose: str) -> int:
        raise NotImplementedError


@dataclass
class KeyedDice(Dice):
    """The verifiable stream of one player-turn."""

    key: bytes = b""
    orders_hash: str = ""
    counter: int = 0

    def _next(self, purpose: str) -> int:
        while True:
            message = f"{self.orders_hash}|{purpose}|{self.counter}".encode()
            self.counter += 1
            for byte in hmac.new(self.key, message, hashlib.sha256).digest():
                if byte < 252:  # 252 = 42 * 6: no modulo bias
                    return byte % FACES + 1


@dataclass
class GivenDice(Dice):
    """Rolls given in a dice file, used in order."""

    values: list[int] = field(default_factory=list)
    position: int = 0

    def _next(self, purpose: str) -> int:
        if self.position >= len(self.values):
            raise DiceError(
                f"the dice file ran out: {len(self.values)} rolls given, roll {self.position + 1} needed for {purpose}"
            )
        self.position += 1
        return self.values[self.position - 1]

    @property
    def unused(self) -> int:
        """Rolls given but not needed (a dice file that does not fit the battles fought)."""
        return len(self.values) - self.position


# The faces as written: str.isdigit() also takes '²' or '٣', which int() refuses or reads as another number
FACE_WORDS = frozenset(str(face) for face in range(1, FACES + 1))


def parse_dice_file(text: str) -> list[int]:
    """Integers 1-6 (or the Classic symbol words), whitespace separated; '#' starts a comment."""
    values = []
    for number, line in enumerate(text.split("\n"), 1):  # lines as an editor counts them
        for word in line.split("#", 1)[0].split():
            token = word.casefold()
            if token in SYMBOLS:
                values.append(SYMBOLS[token])
            elif token.lstrip("0") in FACE_WORDS:
                values.append(int(token.lstrip("0")))
            else:
                shown = repr(word) if len(word) <= 20 else repr(word[:17]) + "..."  # a 10,000-digit word too
                raise DiceError(f"dice file line {number}: {shown} is not a die roll (1-6 or inf cav cat gal blank)")
    return values


def orders_digest(texts: Iterable[str]) -> str:
    """Hash of a turn's received order texts, mixed into every roll of the turn."""
    h = hashlib.sha256()
    for text in texts:
        h.update(hashlib.sha256(text.encode()).digest())
    return h.hexdigest()
