"""Seat passwords are checked with scrypt; a process that checks the same seat's password again (`pbem serve`,
self-play) remembers a match under its own key instead of paying scrypt per mail, and never remembers a miss."""

from __future__ import annotations

import pytest

from adjudicator.services.passwords import MATCHED, hash_password, password_matches


@pytest.fixture
def stored() -> str:
    MATCHED.pairs.clear()
    return hash_password("ivory-gate")


def test_the_right_password_matches_again_from_what_the_process_remembers(stored: str) -> None:
    assert password_matches("ivory-gate", stored)
    assert MATCHED.tag("ivory-gate", stored) in MATCHED.pairs
    assert password_matches("ivory-gate", stored)


def test_a_hash_this_process_made_is_remembered_as_matching_its_password(stored: str) -> None:
    assert MATCHED.tag("ivory-gate", stored) in MATCHED.pairs  # self-play's own seats pay scrypt once, not twice
    assert not password_matches("ivory-gatf", stored)
    assert password_matches("ivory-gate", stored)


def test_a_wrong_password_is_refused_after_the_right_one_matched_and_is_never_remembered(stored: str) -> None:
    assert password_matches("ivory-gate", stored)
    assert not password_matches("ivory-gatf", stored)
    assert not password_matches("ivory-gate ", stored)
    assert MATCHED.tag("ivory-gatf", stored) not in MATCHED.pairs
    assert len(MATCHED.pairs) == 1


def test_a_new_hash_of_the_seat_does_not_take_the_old_password_from_what_was_remembered(stored: str) -> None:
    assert password_matches("ivory-gate", stored)
    replaced = hash_password("bronze-door")  # `pbem gm replace` gives the seat a new password
    assert not password_matches("ivory-gate", replaced)
    assert password_matches("bronze-door", replaced)


def test_what_is_remembered_holds_no_password_and_is_emptied_at_its_limit(
    stored: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    hashes = [(password, hash_password(password)) for password in ("one", "two", "three")]
    MATCHED.pairs.clear()  # hashing remembered each pair: the checks alone fill the table here
    monkeypatch.setattr(MATCHED, "LIMIT", 2)
    for password, hashed in hashes:
        assert password_matches(password, hashed)
    assert len(MATCHED.pairs) == 1  # emptied when the third came
    assert all(b"one" not in tag and b"three" not in tag for tag in MATCHED.pairs)
