"""Verifiable chance (DESIGN.md): a reverse hash chain of turn keys, and per turn one HMAC stream that rolls dice
of any number of faces, reads face tables and shuffles decks.

The game's secret seed is hashed CHAIN_LENGTH times; the last value is the public commitment. The key of
player-turn t is the seed hashed CHAIN_LENGTH - t times, so revealing it lets anybody check
sha256(key_t) == key_(t-1) (key_0 is the commitment) while later keys stay unknown. Checkpoints (the keys of
every 100th turn, as secret as the seed) let a turn's key be derived with at most 99 hashes instead of a walk
from the seed.

Every random number is a draw: a uniform number 1..n. A draw reads HMAC-SHA256(turn key,
"<orders hash>|<purpose>|<counter>") in chunks of as many bytes as n needs (one byte up to n = 256, two up to
65,536, ...), taking the first chunk below the largest multiple of n that the chunk can hold (252 = 42 * 6 for a
six-sided die) and mapping it to chunk % n + 1, so that every number is equally likely (no modulo bias). When
no chunk of a digest fits, the counter moves on and a new digest is read. Every draw is logged with its purpose.

- `roll(purpose, faces=6)` is one draw in 1..faces.
- `roll_face(purpose, table)` rolls a die of len(table) faces and reads the face from the table:
  Conqueror's die is the table (1, 1, 2, 3, 4, 4).
- `shuffle(items, purpose)` is a Fisher-Yates shuffle made of draws from the same stream, so that a deck's
  order is as verifiable as a die. A shuffle of n cards takes n - 1 draws, logged as "shuffle <purpose> k/n-1":
  the first draw is in 1..n and picks the card that goes last (position n), the second is in 1..n-1 and picks,
  among the cards left, the one that goes at position n-1, and so on down to the last draw in 1..2.
  Precisely, draw k (k = 1 .. n-1) is a number d in 1..m with m = n - k + 1, and swaps the cards at positions
  d and m (1-based) of the list as it stands.

Hidden draws: a draw whose outcome some seats may not learn (a deck dealt into hands, a face-down card) is made
with `hidden=True`. It comes from a second stream keyed by the turn's hidden key, HMAC-SHA256(seed,
"hidden|<turn>"), which stays secret while the game runs (the turn key, revealed in the report, would let
anybody recompute the deal), and it is logged apart (`hidden_log`) so that public reports never print it. When
the game ends the seed is revealed: anybody checks it against the commitment and recomputes every hidden draw.

The orders hash mixed into every draw, and printed in each turn's report, is a commitment to the turn's orders
that tells nothing of them while they are secret (a sealed plan, an order that failed and was never made public):
`orders_commitment` = HMAC-SHA256(orders key, SHA-256 of the order text), the turn's orders key being
`orders_key` = HMAC-SHA256(seed, "orders|<turn>"), secret while the game runs. An unkeyed hash of a short order
text is recovered by enumerating order forms in milliseconds. When the game ends the seed is revealed, and
anybody with the orders (the archive's) recomputes the key and checks every turn's commitment. Games made by
older versions keep the unkeyed `orders_digest` to their end (GameRow.orders_hash_version 0), so that their dice
stay the same; each stored turn keeps the orders key it was committed with (none for the unkeyed hash).

A step of several seats (sealed plans) commits seat by seat (`step_commitment`): each seat's commitment is
`orders_commitment` of its own text, and the step's orders hash is SHA-256 of the lines "<seat> <commitment>" in
the step's seat order. The report prints each seat's commitment, so that every seat checks its own orders from its
receipt (which prints SHA-256 of the text stored, `orders_fingerprint`) once the seed is revealed, without the
other seats' orders. Games begun before (orders_hash_version 1) commit to the seats' texts joined.

A dice file replaces the stream with given numbers, one per draw, consumed in the order the ruleset draws
(each ruleset documents its order); a shuffle consumes its n - 1 numbers as above. A number outside the
draw's range, or running out of numbers, is a clear error.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from adjudicator.errors import PbemError

CHAIN_LENGTH = 10_000
FACES = 6  # the die a roll has when its faces are not named
CHECKPOINT_EVERY = 100
ORDERS_KEYED = 1  # GameRow.orders_hash_version of a game that publishes orders_commitment (0: orders_digest)
ORDERS_BY_SEAT = 2  # ... of a game whose steps of several seats commit to each seat's orders (step_commitment)

T = TypeVar("T")


class DiceError(PbemError, ValueError):
    pass


def _h(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def commitment(seed: bytes) -> str:
    """The public commitment to a seed: key 0 of its chain."""
    return turn_key(seed, 0).hex()


def _check_turn(turn: int) -> None:
    if not 0 <= turn < CHAIN_LENGTH:
        raise DiceError(f"turn {turn} is outside the dice chain (0..{CHAIN_LENGTH - 1})")


def _hashed(key: bytes, times: int) -> bytes:
    sha256 = hashlib.sha256  # a tight loop
    for _ in range(times):
        key = sha256(key).digest()
    return key


def turn_key(seed: bytes, turn: int, checkpoints: Mapping[int, bytes] | None = None) -> bytes:
    """Key of player-turn `turn` (1-based; 0 is the commitment). With `checkpoints` (chain_checkpoints), the walk
    starts from the nearest checkpoint at or after the turn instead of from the seed: the same key, fewer hashes."""
    _check_turn(turn)
    start, key = CHAIN_LENGTH, seed  # the seed is the chain's position CHAIN_LENGTH
    for at, checkpoint in (checkpoints or {}).items():
        if turn <= at < start:
            start, key = at, checkpoint
    return _hashed(key, start - turn)


def orders_key(seed: bytes, turn: int) -> bytes:
    """The key of turn `turn`'s orders commitment: secret until the seed is revealed at the game's end."""
    _check_turn(turn)
    return hmac.digest(seed, f"orders|{turn}".encode(), "sha256")


def hidden_turn_key(seed: bytes, turn: int) -> bytes:
    """The key of turn `turn`'s hidden draws: secret until the seed is revealed at the game's end."""
    _check_turn(turn)
    return hmac.digest(seed, f"hidden|{turn}".encode(), "sha256")


def chain_checkpoints(seed: bytes, every: int = CHECKPOINT_EVERY) -> dict[int, bytes]:
    """The keys of turns 0, every, 2 * every, ... in one walk of the chain, for turn_key. They reveal every
    earlier turn's key: keep them as secret as the seed."""
    if every < 1:
        raise DiceError(f"checkpoints every {every} turns: the distance must be at least 1")
    keys = _chain(seed)
    return {t: keys[t] for t in range(CHAIN_LENGTH - 1, -1, -1) if t % every == 0}  # from the seed's end, as walked


def chain_keys(seed: bytes, last_turn: int) -> list[bytes]:
    """Keys 0..last_turn in one pass (for verifying a whole game)."""
    if last_turn < 0:
        return []
    keys = _chain(seed)[: last_turn + 1]
    return keys + [b""] * (last_turn + 1 - len(keys))  # past the chain's end: no key


_WALKED: list[tuple[bytes, list[bytes]]] = []  # the last seed walked, with its chain


def _chain(seed: bytes) -> list[bytes]:
    """Keys 0..CHAIN_LENGTH of the seed's chain (position CHAIN_LENGTH is the seed), in one walk. The last seed's
    chain is kept: verify asks for a game's keys and then for its checkpoints, each a walk of 10,000 hashes."""
    walked = _WALKED[0] if _WALKED else None
    if walked is not None and walked[0] == seed:
        return walked[1]
    keys = [b""] * (CHAIN_LENGTH + 1)
    key, sha256 = seed, hashlib.sha256
    for t in range(CHAIN_LENGTH, 0, -1):
        keys[t] = key
        key = sha256(key).digest()
    keys[0] = key
    _WALKED[:] = [(seed, keys)]
    return keys


def key_follows(key: str, previous: str) -> bool:
    """Whether a revealed turn key hashes to the previous one (what a player checks)."""
    return _h(bytes.fromhex(key)).hex() == previous


def chunk_size(count: int) -> int:
    """Bytes of the digest one draw in 1..count reads: enough to hold count - 1."""
    return max(1, ((count - 1).bit_length() + 7) // 8)


def rejection_bound(count: int) -> int:
    """Chunks at or above this are rejected: the largest multiple of `count` a chunk can hold (no modulo bias)."""
    return 256 ** chunk_size(count) // count * count


@dataclass
class Dice:
    """A source of chance for one turn; records every draw with its purpose (the dice log of the turn)."""

    log: list[tuple[str, int]] = field(default_factory=list)
    hidden_log: list[tuple[str, int]] = field(default_factory=list)  # draws no public output may print
    faces_log: list[int] = field(default_factory=list)  # the faces of each draw of `log`: reports print them
    hidden_faces_log: list[int] = field(default_factory=list)  # those of `hidden_log`: printed once the game ends

    def roll(self, purpose: str, faces: int = FACES, *, hidden: bool = False) -> int:
        """A die of `faces` faces: 1..faces; `hidden`: from the hidden stream, logged apart."""
        if faces < 1:
            raise DiceError(f"a die of {faces} faces cannot be rolled ({purpose})")
        value = self._next(purpose, faces, hidden)
        if hidden:
            self.hidden_log.append((purpose, value))
            self.hidden_faces_log.append(faces)
        else:  # a player recomputes a public draw from its purpose and its faces, both printed in the report
            self.log.append((purpose, value))
            self.faces_log.append(faces)
        return value

    def roll_face(self, purpose: str, table: Sequence[T], *, hidden: bool = False) -> T:
        """A die whose faces are `table`'s entries, e.g. (1, 1, 2, 3, 4, 4): the entry of the face rolled."""
        return table[self.roll(purpose, len(table), hidden=hidden) - 1]

    def shuffle(self, items: Iterable[T], purpose: str, *, hidden: bool = False) -> list[T]:
        """The items in a new order: a Fisher-Yates shuffle of n - 1 draws (the module docstring gives the order).
        A deck whose order some seat may not know is shuffled `hidden`."""
        cards = list(items)
        draws = len(cards) - 1
        for k in range(1, draws + 1):
            last = len(cards) - k  # 0-based position filled by draw k
            chosen = self.roll(f"shuffle {purpose} {k}/{draws}", last + 1, hidden=hidden) - 1
            cards[chosen], cards[last] = cards[last], cards[chosen]
        return cards

    def _next(self, purpose: str, faces: int, hidden: bool) -> int:
        raise NotImplementedError


@dataclass
class KeyedDice(Dice):
    """The verifiable stream of one player-turn."""

    key: bytes = b""
    orders_hash: str = ""
    counter: int = 0
    hidden_key: bytes = b""  # hidden_turn_key: none means this turn may make no hidden draw
    hidden_counter: int = 0
    orders_key: bytes = b""  # the key of orders_hash (orders_commitment); none for an unkeyed orders_digest
    by_seat: dict[str, str] = field(default_factory=dict)  # the seats' texts orders_hash commits to one by one

    def _next(self, purpose: str, faces: int, hidden: bool) -> int:
        if faces > 256:
            return self._wide(purpose, faces, hidden)
        bound = 256 // faces * faces  # rejection_bound: 252 = 42 * 6 for a six-sided die
        while True:  # byte by byte: the stream of every turn stored so far
            for byte in self._digest(purpose, hidden):
                if byte < bound:
                    return byte % faces + 1

    def _wide(self, purpose: str, faces: int, hidden: bool) -> int:
        """A draw in 1..faces for more than 256 faces: chunks of chunk_size bytes, big-endian."""
        size, bound = chunk_size(faces), rejection_bound(faces)
        while True:
            digest = self._digest(purpose, hidden)
            for start in range(0, len(digest) - size + 1, size):
                chunk = int.from_bytes(digest[start : start + size], "big")
                if chunk < bound:
                    return chunk % faces + 1

    def _digest(self, purpose: str, hidden: bool = False) -> bytes:
        if hidden:
            if not self.hidden_key:  # never fall back on the turn key: the report reveals it
                raise DiceError(f"no hidden stream for this turn, but {purpose} is a hidden draw")
            message = f"{self.orders_hash}|hidden|{purpose}|{self.hidden_counter}".encode()
            self.hidden_counter += 1
            return hmac.digest(self.hidden_key, message, "sha256")
        message = f"{self.orders_hash}|{purpose}|{self.counter}".encode()
        self.counter += 1
        return hmac.digest(self.key, message, "sha256")  # one call into OpenSSL: the HMAC object costs more


@dataclass
class GivenDice(Dice):
    """Numbers given in a dice file, used in order, one per draw."""

    values: list[int] = field(default_factory=list)
    position: int = 0

    def _next(self, purpose: str, faces: int, hidden: bool) -> int:
        if self.position >= len(self.values):
            raise DiceError(
                f"the dice file ran out: {len(self.values)} rolls given, roll {self.position + 1} needed for {purpose}"
            )
        value = self.values[self.position]
        if not 1 <= value <= faces:
            raise DiceError(f"the dice file's roll {self.position + 1} is {value}, but {purpose} needs 1-{faces}")
        self.position += 1
        return value

    @property
    def unused(self) -> int:
        """Rolls given but not needed (a dice file that does not fit the battles fought)."""
        return len(self.values) - self.position


def parse_dice_file(text: str, symbols: Mapping[str, int] | None = None, largest: int = FACES) -> list[int]:
    """Integers 1..largest (or the ruleset's symbol words, e.g. CoE's combat die), whitespace separated; '#' starts
    a comment. `largest` is the largest number a draw of the ruleset may take (6 for Conquest of the Empire)."""
    words = {word.casefold(): value for word, value in (symbols or {}).items()}
    values = []
    for number, line in enumerate(text.split("\n"), 1):  # lines as an editor counts them
        for word in line.split("#", 1)[0].split():
            token = word.casefold()
            if token in words:
                values.append(words[token])
            elif _is_number(token.lstrip("0"), largest):
                values.append(int(token.lstrip("0")))
            else:
                shown = repr(word) if len(word) <= 20 else repr(word[:17]) + "..."  # a 10,000-digit word too
                raise DiceError(f"dice file line {number}: {shown} is not a die roll ({_allowed(symbols, largest)})")
    return values


def _is_number(token: str, largest: int) -> bool:
    """Digits as written, 1..largest: str.isdigit() also takes '²' or '٣', which int() refuses or reads as another
    number; the length check keeps a 10,000-digit word from being converted."""
    return 0 < len(token) <= len(str(largest)) and all("0" <= c <= "9" for c in token) and int(token) <= largest


def _allowed(symbols: Mapping[str, int] | None, largest: int) -> str:
    """'1-6 or inf cav cat gal blank': the numbers, and the first word given for each face."""
    first_words = {value: word for word, value in reversed(list((symbols or {}).items()))}
    words = [first_words[value] for value in sorted(first_words)]
    return f"1-{largest}" + (f" or {' '.join(words)}" if words else "")


def orders_digest(texts: Iterable[str]) -> str:
    """The unkeyed hash of a turn's order texts, sha256 over their sha256s: what games of older versions mix into
    every roll and publish. It gives short order texts away to whoever enumerates them: new games publish
    orders_commitment instead."""
    h = hashlib.sha256()
    for text in texts:
        h.update(hashlib.sha256(text.encode()).digest())
    return h.hexdigest()


def orders_commitment(key: bytes, texts: Iterable[str]) -> str:
    """The keyed commitment to a turn's order texts: HMAC-SHA256(orders key, the texts' sha256s one after the
    other), for one text HMAC-SHA256(orders_key(seed, turn), sha256(text)). Without the key it tells nothing of
    the orders; with the seed revealed, anybody checks it."""
    return fingerprints_commitment(key, (orders_fingerprint(text) for text in texts))


def orders_fingerprint(text: str) -> str:
    """SHA-256 of an order text as stored: what a seat's receipt prints, so that the seat can check the turn's
    commitment without the text once the seed is revealed (fingerprints_commitment)."""
    return hashlib.sha256(text.encode()).hexdigest()


def fingerprints_commitment(key: bytes, fingerprints: Iterable[str]) -> str:
    """orders_commitment from the texts' fingerprints (hex): a player checks his own orders from his receipt."""
    mac = hmac.new(key, digestmod=hashlib.sha256)
    for fingerprint in fingerprints:
        mac.update(bytes.fromhex(fingerprint))
    return mac.hexdigest()


def seat_commitments(key: bytes, texts: Mapping[str, str]) -> dict[str, str]:
    """Each seat's commitment to its own order text ("" for none) in a step of several seats."""
    return {seat: orders_commitment(key, [text]) for seat, text in texts.items()}


def step_commitment(key: bytes, texts: Mapping[str, str]) -> str:
    """The orders hash of a step that commits seat by seat (seats_hash of its seat_commitments)."""
    return seats_hash(seat_commitments(key, texts))


def seats_hash(commitments: Mapping[str, str]) -> str:
    """SHA-256 of the lines "<seat> <commitment>\n" in the step's seat order: anybody checks a step's orders hash
    against the commitments its report prints."""
    return hashlib.sha256("".join(f"{seat} {value}\n" for seat, value in commitments.items()).encode()).hexdigest()


def turn_dice(
    key: bytes, text: str, hidden_key: bytes = b"", orders: bytes = b"", by_seat: Mapping[str, str] | None = None
) -> KeyedDice:
    """The keyed stream of a turn resolved from `text`: its orders hash is the commitment keyed by `orders` (the
    turn's orders_key), or with none the unkeyed orders_digest of the games of older versions. `by_seat`: the
    texts of a step of several seats that commits seat by seat (step_commitment), `text` being them joined."""
    if by_seat and orders:
        committed, texts = step_commitment(orders, by_seat), dict(by_seat)
        return KeyedDice(key=key, orders_hash=committed, hidden_key=hidden_key, orders_key=orders, by_seat=texts)
    committed = orders_commitment(orders, [text]) if orders else orders_digest([text])
    return KeyedDice(key=key, orders_hash=committed, hidden_key=hidden_key, orders_key=orders)
