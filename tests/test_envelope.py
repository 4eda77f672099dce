"""engine/envelope.py: the game-neutral snapshot (schema 2, docs/snapshot.md): the public view carries no private
part, a seat's view only its own, the whole every seat's; the reader names a wrong key."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from adjudicator.engine.envelope import Envelope, EnvelopeError, envelope_from_text, envelope_text, read_envelope

HANDS = {"Roma": {"hand": ["Hannibal's elephants", "Scipio"]}, "Carthago": {"hand": ["Corvus boarding bridge"]}}
POSITION = Envelope("bidding-test", "g1", 3, {"discard": ["Aqueduct"], "scores": {"Roma": 2, "Carthago": 1}}, HANDS)
PRIVATE_NAMES = ("Hannibal's elephants", "Scipio", "Corvus boarding bridge")


def test_the_public_snapshot_has_no_private_part_at_all() -> None:
    public = POSITION.public_snapshot()
    assert public == {
        "schema": 2,
        "ruleset": "bidding-test",
        "game": "g1",
        "step": 3,
        "public": {"discard": ["Aqueduct"], "scores": {"Roma": 2, "Carthago": 1}},
    }
    text = envelope_text(public)
    assert not [name for name in PRIVATE_NAMES if name in text] and "private" not in text
    assert read_envelope(json.loads(text)) == Envelope("bidding-test", "g1", 3, public["public"], {})


def test_a_seats_snapshot_shows_its_own_private_part_and_no_other() -> None:
    own = envelope_text(POSITION.seat_snapshot("Carthago"))
    assert "Corvus boarding bridge" in own and "Hannibal" not in own and "Scipio" not in own
    assert read_envelope(json.loads(own)).private == {"Carthago": HANDS["Carthago"]}
    with pytest.raises(EnvelopeError, match=r"no seat 'Athenae' in 'private' \(seats: Carthago, Roma\)"):
        POSITION.seat_snapshot("Athenae")


def test_the_whole_reveals_every_seat_and_reads_back_the_same() -> None:
    text = envelope_text(POSITION.whole_snapshot())
    assert all(name in text for name in PRIVATE_NAMES)
    assert envelope_from_text(text) == POSITION
    assert text.endswith("}\n") and text == envelope_text(json.loads(text))  # canonical: keys sorted, a final newline


def changed(**fields: Any) -> dict[str, Any]:
    """The whole snapshot with `fields` changed; a field given as ... is left out."""
    snapshot = POSITION.whole_snapshot()
    snapshot.update(fields)
    return {k: v for k, v in snapshot.items() if v is not ...}


@pytest.mark.parametrize(
    ("snapshot", "message"),
    [
        (
            changed(turn=3),
            r"unknown key 'turn' \(a schema 2 snapshot has schema, ruleset, game, step, public, private, secret\)",
        ),
        (changed(step=...), r"the key 'step' is missing"),
        (changed(public=...), r"the key 'public' is missing"),
        (changed(schema=1), r"'schema' is 1, but this reader reads schema 2"),
        (changed(schema="2"), r"'schema' is '2'"),
        (changed(ruleset=""), r"'ruleset' must be a non-empty string"),
        (changed(game=7), r"'game' must be a non-empty string, not 7"),
        (changed(step=-1), r"'step' must be a whole number from 0, not -1"),
        (changed(step=True), r"'step' must be a whole number from 0, not True"),
        (changed(step=2.0), r"'step' must be a whole number from 0, not 2.0"),
        (changed(public=["Aqueduct"]), r"'public' must be an object, not list"),
        (changed(private=[]), r"'private' must be an object of seats, not list"),
        (changed(private={"Roma": ["Scipio"]}), r"'private.Roma' must be an object, not list"),
        ([POSITION.whole_snapshot()], r"a snapshot is a JSON object, not list"),
    ],
)
def test_the_reader_names_the_wrong_key(snapshot: Any, message: str) -> None:
    with pytest.raises(EnvelopeError, match=rf"^state.json: {message}"):
        read_envelope(snapshot, "state.json")


def test_text_that_is_not_json_is_named_with_its_line() -> None:
    with pytest.raises(EnvelopeError, match=r"^snapshot: not JSON \(line 2, column 1"):
        envelope_from_text('{"schema": 2,\n}')


def test_the_envelope_is_documented_beside_schema_1() -> None:
    doc = (Path(__file__).resolve().parent.parent / "docs" / "snapshot.md").read_text()
    section = doc[doc.index("## Schema 2") :]
    for words in ("`schema` | `2`", "`step`", "`public`", "`private`", "public snapshot", "own snapshot", "whole"):
        assert words in section, words
    assert doc.startswith("# The snapshot (`snapshot.json`, schema 1)")  # the CoE schema stays first and as it was


def test_the_secret_part_is_only_in_the_whole() -> None:
    deck = ["Aquila", "Ballista", "Testudo"]
    position = Envelope("bidding-test", "g1", 3, {"deck": 3}, HANDS, {"deck": deck})
    for view in (position.public_snapshot(), position.seat_snapshot("Roma")):
        assert "secret" not in view and "Ballista" not in envelope_text(view)
    whole = position.whole_snapshot()
    assert read_envelope(json.loads(envelope_text(whole))).secret == {"deck": deck}
    with pytest.raises(EnvelopeError, match=r"'secret' must be an object, not list"):
        read_envelope({**whole, "secret": deck})
