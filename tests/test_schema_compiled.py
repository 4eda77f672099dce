"""The snapshot schemas are checked by a compiled validator first and walked by the path-naming subset only for what
it refuses (engine/schema.py): both must give the same answer, so that the fast way neither lets through a snapshot
the subset refuses nor changes a message. Mutated real positions of both editions, and the values where the two
could part (floats that equal integers, booleans that equal numbers, huge numbers, lone surrogates, trailing
newlines against a pattern)."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given

from adjudicator.engine import schema as engine_schema
from adjudicator.rulesets import load_ruleset
from adjudicator.rulesets.coe.snapshot_check import snapshot_schema, with_reader_defaults
from adjudicator.rulesets.coe.state import SnapshotError, _check_fields, _json_text, from_snapshot, snapshot_text
from tests.test_fuzz import fuzz, mutated_snapshot, position


def both(data: Any) -> tuple[list[str], list[str]]:
    """(what schema_problems answers, what the subset walk alone finds)."""
    root = snapshot_schema()
    return engine_schema.schema_problems(data, root, root), engine_schema._problems(data, root, root, "snapshot")


@fuzz(examples=300)
@given(text=mutated_snapshot())
def test_the_compiled_validator_and_the_subset_agree_on_mutated_snapshots(text: str) -> None:
    data = with_reader_defaults(json.loads(text))
    fast, walked = both(data)
    assert fast == walked
    # a stored text is not walked for floats and huge integers when the text shows none (state.py)
    if engine_schema.plain_text(text):
        assert engine_schema._plain(data)
        root = snapshot_schema()
        assert engine_schema.schema_problems(data, root, root, plain=True) == walked


@pytest.mark.parametrize(
    ("text", "plain"),
    [
        ('{"a": [1, 2, "1.5"]}', False),  # a string that looks like a float: walked, not refused
        ('{"a": 1.5}', False),
        ('{"a": 1e3}', False),
        ('{"a": 1E-3}', False),
        ('{"a": ["G1e", "ITA"]}', False),  # a string with a digit before "e": walked, not refused
        ('{"e": "E.", "a": 12}', True),  # "e", "E" and "." after no digit
        ('{"a": -Infinity}', False),
        ('{"a": NaN}', False),
        ('{"a": 9007199254740993}', False),
        ('{"a": 900719925474099}', True),
        ('{"a": [true, null, "MAC"]}', True),
    ],
)
def test_plain_text_never_calls_a_float_plain(text: str, plain: bool) -> None:
    assert engine_schema.plain_text(text) is plain
    if plain:
        assert engine_schema._plain(json.loads(text))


def edited(change: str, value: Any) -> dict[str, Any]:
    """A real position (Classic, 9 player-turns in) with one place set to `value`."""
    data = with_reader_defaults(json.loads(position("coe-classic", 9)))
    area = next(a for a in data["areas"].values() if a["units"])
    force = next(iter(area["units"].values()))
    places: dict[str, tuple[dict[str, Any], str]] = {
        "turn": (data, "turn"),
        "schema": (data, "schema"),
        "inflation": (data, "inflation"),
        "caesar": (force, "caesar"),
        "infantry": (force, "infantry"),
        "game": (data, "game"),
        "active": (data, "active"),
    }
    parent, key = places[change]
    parent[key] = value
    return copy.deepcopy(data)


@pytest.mark.parametrize(
    ("change", "value"),
    [
        ("turn", 9.0),  # JSON Schema calls 9.0 an integer; the subset (json.loads's types) does not
        ("schema", 1.0),
        ("inflation", 1.0),
        ("caesar", True),  # equals 1 in Python, not in JSON
        ("infantry", False),
        ("infantry", 10**30),
        pytest.param("infantry", 10**5000, id="infantry-5000-digits"),
        ("infantry", float("nan")),
        ("game", "fuzz\ud800"),  # no UTF-8 text: the compiled validator cannot take it
        ("active", "Macedonia\n"),  # Python's $ matches before a final newline
        ("game", "fuzz\n"),
    ],
)
def test_values_where_json_and_python_part_get_the_subsets_answer(change: str, value: Any) -> None:
    fast, walked = both(edited(change, value))
    assert fast == walked


def test_a_valid_position_passes_without_the_subset_walk(monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiled validator answers alone for a valid snapshot (the subset is the refused one's explanation)."""
    data = with_reader_defaults(json.loads(position("coe-1984", 30)))
    walked: list[str] = []
    monkeypatch.setattr(engine_schema, "_problems", lambda *args: walked.append("walked") or [])
    assert engine_schema.schema_problems(data, snapshot_schema(), snapshot_schema()) == []
    assert not walked


def test_a_refused_snapshot_is_named_by_its_field_path() -> None:
    data = edited("infantry", -1)
    fast, walked = both(data)
    assert fast == walked and len(fast) == 1 and fast[0].startswith("snapshot.areas.") and "is below 0" in fast[0]


@fuzz(examples=150)
@given(text=mutated_snapshot())
def test_a_snapshot_the_rulesets_checks_accept_passes_every_field_check(text: str) -> None:
    """A snapshot that passed the schema and the ruleset's checks is read without the field-by-field checks
    (state.py _check_fields, which a file read by a board's codes still runs): none of them fails on it, and the
    file reader reads the same state."""
    data = json.loads(text)
    try:
        state = from_snapshot(data)
    except SnapshotError:
        return
    ruleset = load_ruleset(data["ruleset"])
    _check_fields(with_reader_defaults(data), set(ruleset.board.areas))  # raises nothing
    assert ruleset.read_snapshot(data) == state
    assert snapshot_text(state) == snapshot_text(ruleset.read_snapshot(json.loads(snapshot_text(state))))


def test_real_positions_are_read_alike_both_ways() -> None:
    for name in ("coe-classic", "coe-1984"):
        ruleset = load_ruleset(name)
        for turns in (0, 9, 30):
            data = json.loads(position(name, turns))
            _check_fields(with_reader_defaults(data), set(ruleset.board.areas))
            assert from_snapshot(data) == ruleset.read_snapshot(data)


def test_a_file_read_with_another_boards_codes_names_the_first_unknown_area() -> None:
    data = json.loads(position("coe-classic", 9))
    codes = set(load_ruleset("coe-classic").board.areas)
    first = next(iter(data["areas"]))
    with pytest.raises(SnapshotError, match=rf"^areas\.{first}: unknown area code '{first}'$"):
        from_snapshot(data, codes - {first, "ITA"})


def test_an_area_written_again_is_taken_from_the_kept_texts_and_stays_json_dumps() -> None:
    """state.py keeps the text of each area and player by its compact JSON: a second writing takes it from there,
    and values JSON writes alike (1 and True do not) never share a text."""
    data = json.loads(position("coe-classic", 30))
    for _ in range(2):
        assert _json_text(data) == json.dumps(data, indent=1, ensure_ascii=False)
    code = next(iter(data["areas"]))
    for odd in (1.5, True, 10**20, "ä\u2028", {"1": []}):
        data["areas"][code]["x"] = odd
        assert _json_text(data) == json.dumps(data, indent=1, ensure_ascii=False)
    data["areas"][code] = {1: "an integer key"}  # json.dumps writes it as "1"
    assert _json_text(data) == json.dumps(data, indent=1, ensure_ascii=False)
