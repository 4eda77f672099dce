"""engine/chance.py: dice of any faces, face tables and deck shuffles from one keyed stream, every draw logged and
drivable by a dice file; turn keys from checkpoints."""

from __future__ import annotations

import hashlib
import hmac
from collections import Counter

import pytest

from adjudicator.engine.chance import (
    CHAIN_LENGTH,
    DiceError,
    GivenDice,
    KeyedDice,
    chain_checkpoints,
    chain_keys,
    chunk_size,
    commitment,
    hidden_turn_key,
    key_follows,
    orders_digest,
    parse_dice_file,
    rejection_bound,
    turn_key,
)
from adjudicator.rulesets.coe.dice import COMBAT_DIE_SYMBOLS

KEY = hashlib.sha256(b"a turn key").digest()
CONQUEROR_DIE = (1, 1, 2, 3, 4, 4)
TACTICS = [f"tactic {n}" for n in range(1, 13)]


def first_version_rolls(key: bytes, orders_hash: str, purposes: list[str]) -> list[int]:
    """The six-sided stream as the first version wrote it (every stored turn rolled this way)."""
    rolls, counter = [], 0
    for purpose in purposes:
        found = None
        while found is None:
            message = f"{orders_hash}|{purpose}|{counter}".encode()
            counter += 1
            found = next((b % 6 + 1 for b in hmac.new(key, message, hashlib.sha256).digest() if b < 252), None)
        rolls.append(found)
    return rolls


def test_the_six_sided_stream_is_the_first_versions_byte_for_byte() -> None:
    purposes = [f"THR round {n // 8 + 1}: attacker" for n in range(400)]
    dice = KeyedDice(key=KEY, orders_hash="abc")
    assert [dice.roll(p) for p in purposes] == first_version_rolls(KEY, "abc", purposes)
    assert dice.log == list(zip(purposes, first_version_rolls(KEY, "abc", purposes), strict=True))


@pytest.mark.parametrize("faces", [1, 2, 3, 4, 7, 12, 20, 100, 256, 257, 1000, 70_000])
def test_a_die_of_any_faces_rolls_every_face_and_no_other(faces: int) -> None:
    dice = KeyedDice(key=KEY, orders_hash="x")
    rolls = [dice.roll(f"d{faces} {n}", faces) for n in range(max(60, 8 * faces) if faces <= 1000 else 500)]
    assert all(1 <= r <= faces for r in rolls)
    if faces <= 100:
        assert set(rolls) == set(range(1, faces + 1))
    assert [purpose for purpose, _ in dice.log][:2] == [f"d{faces} 0", f"d{faces} 1"]


@pytest.mark.parametrize(
    ("faces", "size", "bound"),
    [(6, 1, 252), (2, 1, 256), (7, 1, 252), (100, 1, 200), (256, 1, 256), (257, 2, 65_535), (65_537, 3, 255 * 65_537)],
)
def test_no_modulo_bias_the_rejection_bound_is_the_largest_multiple_the_chunk_holds(
    faces: int, size: int, bound: int
) -> None:
    assert (chunk_size(faces), rejection_bound(faces)) == (size, bound)
    assert bound % faces == 0 and bound + faces > 256**size  # a multiple, and the largest one
    if faces <= 257:  # every face comes from as many chunk values as every other
        assert len(set(Counter(chunk % faces for chunk in range(bound)).values())) == 1


def test_a_byte_at_the_bound_is_rejected_and_the_next_byte_rolls() -> None:
    """Find a stream whose first byte is 252..255: the six-sided roll is the first byte below 252."""
    orders_hash = next(
        h for h in map(str, range(10_000)) if hmac.new(KEY, f"{h}|roll|0".encode(), hashlib.sha256).digest()[0] >= 252
    )
    digest = hmac.new(KEY, f"{orders_hash}|roll|0".encode(), hashlib.sha256).digest()
    expected = next(b for b in digest if b < 252) % 6 + 1
    assert KeyedDice(key=KEY, orders_hash=orders_hash).roll("roll") == expected


def test_conquerors_die_is_a_face_table() -> None:
    given = GivenDice(values=[1, 2, 3, 4, 5, 6])
    assert [given.roll_face("council of war", CONQUEROR_DIE) for _ in range(6)] == [1, 1, 2, 3, 4, 4]
    keyed = KeyedDice(key=KEY, orders_hash="x")
    faces = Counter(keyed.roll_face(f"tax {n}", CONQUEROR_DIE) for n in range(600))
    assert set(faces) == {1, 2, 3, 4} and faces[1] > faces[2] and faces[4] > faces[3]  # 1 and 4 on two faces each
    assert keyed.log[0][0] == "tax 0" and all(1 <= value <= 6 for _, value in keyed.log)  # the face rolled is logged


def test_a_shuffle_is_reproducible_from_the_turn_key_and_logged_draw_by_draw() -> None:
    first = KeyedDice(key=KEY, orders_hash="x")
    deck = first.shuffle(TACTICS, "tactics")
    assert sorted(deck) == sorted(TACTICS) and deck != TACTICS
    assert KeyedDice(key=KEY, orders_hash="x").shuffle(TACTICS, "tactics") == deck  # anybody with the key
    assert KeyedDice(key=KEY, orders_hash="y").shuffle(TACTICS, "tactics") != deck  # other orders, other order
    assert [purpose for purpose, _ in first.log] == [f"shuffle tactics {k}/11" for k in range(1, 12)]
    assert all(1 <= value <= 13 - k for k, (_, value) in enumerate(first.log, 1))  # draw k is in 1..n-k+1
    replayed = GivenDice(values=[value for _, value in first.log])  # the logged draws give the same order
    assert replayed.shuffle(TACTICS, "tactics") == deck and replayed.unused == 0


def test_a_dice_file_drives_a_shuffle_in_the_documented_order() -> None:
    """Draw 1 (1..4) picks the card for position 4, draw 2 (1..3) the card for position 3, draw 3 (1..2) for 2."""
    dice = GivenDice(values=parse_dice_file("3 1 # the second draw\n2", largest=4))
    assert dice.shuffle(["a", "b", "c", "d"], "deck") == ["d", "b", "a", "c"]
    assert dice.log == [("shuffle deck 1/3", 3), ("shuffle deck 2/3", 1), ("shuffle deck 3/3", 2)]
    assert GivenDice().shuffle(["only"], "deck") == ["only"] and GivenDice().shuffle([], "deck") == []


def test_a_dice_file_that_runs_out_or_does_not_fit_a_draw_is_a_clear_error() -> None:
    with pytest.raises(DiceError, match=r"the dice file ran out: 1 rolls given, roll 2 needed for shuffle deck 2/2"):
        GivenDice(values=[1]).shuffle(["a", "b", "c"], "deck")
    with pytest.raises(DiceError, match=r"the dice file's roll 2 is 3, but shuffle deck 2/2 needs 1-2"):
        GivenDice(values=[3, 3]).shuffle(["a", "b", "c"], "deck")
    with pytest.raises(DiceError, match=r"roll 1 is 6, but council needs 1-4"):
        GivenDice(values=[6]).roll("council", 4)


def test_a_dice_file_reads_the_rulesets_words_and_numbers_up_to_its_largest_draw() -> None:
    assert parse_dice_file("12 07 1", largest=12) == [12, 7, 1]
    with pytest.raises(DiceError, match=r"dice file line 2: '13' is not a die roll \(1-12\)$"):
        parse_dice_file("1\n13", largest=12)
    with pytest.raises(DiceError, match=r"'7' is not a die roll \(1-6\)$"):
        parse_dice_file("7")
    with pytest.raises(DiceError, match=r"'inf' is not a die roll \(1-6\)$"):
        parse_dice_file("inf")  # the words are the ruleset's: none without them
    with pytest.raises(DiceError, match=r"'7' is not a die roll \(1-6 or inf cav cat gal blank\)$"):
        parse_dice_file("Cav 7", COMBAT_DIE_SYMBOLS)


SEED = hashlib.sha256(b"a game's seed").digest()


def test_turn_keys_from_checkpoints_are_the_walks_keys() -> None:
    checkpoints = chain_checkpoints(SEED)
    assert sorted(checkpoints) == list(range(0, CHAIN_LENGTH, 100))
    walked = chain_keys(SEED, CHAIN_LENGTH - 1)
    assert all(checkpoints[t] == walked[t] for t in checkpoints)
    turns = [0, 1, 2, 98, 99, 100, 101, 199, 200, 4321, 9899, 9900, 9901, 9998, 9999, *range(0, CHAIN_LENGTH, 37)]
    for turn in turns:
        assert turn_key(SEED, turn, checkpoints) == walked[turn] == turn_key(SEED, turn), turn
    assert commitment(SEED) == checkpoints[0].hex()
    assert key_follows(turn_key(SEED, 51, checkpoints).hex(), turn_key(SEED, 50, checkpoints).hex())


@pytest.mark.parametrize("every", [1, 7, 250, CHAIN_LENGTH])
def test_checkpoints_at_any_distance_give_the_same_keys(every: int) -> None:
    checkpoints = chain_checkpoints(SEED, every)
    walked = chain_keys(SEED, CHAIN_LENGTH - 1)
    for turn in [0, 1, 6, 7, 8, 249, 250, 251, 5000, 9999]:
        assert turn_key(SEED, turn, checkpoints) == walked[turn], (every, turn)
    assert turn_key(SEED, 3, {}) == walked[3]  # no checkpoint: the walk from the seed


def test_the_kept_walk_gives_each_seed_its_own_keys_in_the_walks_order() -> None:
    other = hashlib.sha256(b"another game's seed").digest()
    for seed in (SEED, other, other, SEED):
        checkpoints = chain_checkpoints(seed)
        assert list(checkpoints) == list(range(CHAIN_LENGTH - 100, -1, -100))  # as the walk from the seed met them
        keys = chain_keys(seed, 120)
        assert len(keys) == 121 and [keys[t] for t in (0, 1, 120)] == [turn_key(seed, t) for t in (0, 1, 120)]
        assert checkpoints[9900] == turn_key(seed, 9900)
    assert chain_keys(SEED, -1) == [] and chain_keys(SEED, CHAIN_LENGTH + 1)[-2:] == [SEED, b""]  # the seed ends it


def test_a_turn_outside_the_chain_or_checkpoints_at_no_distance_are_refused() -> None:
    with pytest.raises(DiceError, match="turn 10000 is outside the dice chain"):
        turn_key(SEED, CHAIN_LENGTH, chain_checkpoints(SEED))
    with pytest.raises(DiceError, match="at least 1"):
        chain_checkpoints(SEED, 0)


# Hidden draws: a deal into secret hands must not be recomputable from what the report reveals


def _keyed(turn_key_bytes: bytes, hidden_key: bytes = b"") -> KeyedDice:
    return KeyedDice(key=turn_key_bytes, orders_hash=orders_digest(["orders"]), hidden_key=hidden_key)


def test_a_hidden_shuffle_depends_on_the_hidden_key_alone_not_on_the_revealed_turn_key() -> None:
    seed = b"s" * 32
    hidden = hidden_turn_key(seed, 3)
    deck = [f"card{i}" for i in range(12)]
    dealt = _keyed(turn_key(seed, 3), hidden).shuffle(deck, "deck", hidden=True)
    assert dealt == _keyed(b"another turn key" * 2, hidden).shuffle(deck, "deck", hidden=True)
    assert dealt != _keyed(turn_key(seed, 3)).shuffle(deck, "deck")  # the revealed key's stream deals otherwise
    assert sorted(dealt) == sorted(deck)


def test_hidden_draws_are_logged_apart_from_the_public_rolls() -> None:
    dice = _keyed(b"k" * 32, hidden_turn_key(b"s" * 32, 1))
    dice.roll("attack")
    dice.shuffle(["a", "b", "c"], "hand", hidden=True)
    dice.roll_face("volley", (1, 1, 2, 3, 4, 4))
    assert [purpose for purpose, _ in dice.log] == ["attack", "volley"]
    assert [purpose for purpose, _ in dice.hidden_log] == ["shuffle hand 1/2", "shuffle hand 2/2"]


def test_a_hidden_draw_without_a_hidden_stream_is_refused_instead_of_using_the_turn_key() -> None:
    with pytest.raises(DiceError, match="no hidden stream"):
        _keyed(b"k" * 32).shuffle(["a", "b"], "deck", hidden=True)


def test_hidden_turn_keys_differ_by_turn_and_from_the_chain() -> None:
    seed = b"s" * 32
    keys = {hidden_turn_key(seed, t) for t in range(50)}
    assert len(keys) == 50 and not keys & {turn_key(seed, t) for t in range(50)}


def test_a_dice_file_drives_hidden_draws_in_the_order_they_are_made() -> None:
    dice = GivenDice(values=[2, 1, 5])
    assert dice.shuffle(["a", "b", "c"], "hand", hidden=True) == ["c", "a", "b"]
    assert dice.roll("attack") == 5
    assert dice.hidden_log == [("shuffle hand 1/2", 2), ("shuffle hand 2/2", 1)]
