"""The canonical snapshot text (engine/canonical.py) is json.dumps(ensure_ascii=False, sort_keys=True, indent=1)
character for character: for any JSON value, for the values json.dumps writes by other rules (floats, integer
keys, subclasses), and for the snapshots of a real Conqueror game."""

from __future__ import annotations

import json
from enum import IntEnum
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.engine.canonical import canonical_text
from adjudicator.rulesets import load_ruleset
from adjudicator.services.selfplay import playable, selfplay_seats


def dumped(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, indent=1)


plain = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=30,
)
any_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.tuples(inner, inner)
        | st.dictionaries(st.text(max_size=4), inner, max_size=3)
        | st.dictionaries(st.integers(), inner, max_size=3)
    ),
    max_leaves=20,
)


@settings(max_examples=300, derandomize=True, database=None, deadline=None)
@given(plain)
def test_plain_values_are_written_as_json_dumps_writes_them(value: Any) -> None:
    assert canonical_text(value) == dumped(value)


@settings(max_examples=300, derandomize=True, database=None, deadline=None)
@given(any_json)
def test_other_values_fall_back_to_json_dumps(value: Any) -> None:
    assert canonical_text(value) == dumped(value)


class Small(IntEnum):
    ONE = 1


def test_escapes_subclasses_and_empty_containers() -> None:
    for value in [
        {'é\n\t"\\': "\u2028\x01\x7f", "": [[], {}, ()]},
        {"n": Small.ONE, "b": [True, False, None], "i": -(10**30)},
        {1: "integer keys", 2: {"x": 1.5}},
        [float("nan"), float("inf")],
        "alone",
        7,
    ]:
        assert canonical_text(value) == dumped(value)


def test_a_conqueror_games_snapshots() -> None:
    rules, _ = playable(load_ruleset("conqueror-er"))
    state = rules.initial_state("g", selfplay_seats(rules, 4))
    for viewer in [None, *state.players]:
        snapshot = rules.snapshot(state, viewer) if viewer else rules.snapshot(state)
        assert canonical_text(snapshot) == dumped(snapshot)


def test_a_part_shared_by_two_values_is_written_for_each_as_json_dumps_writes_it() -> None:
    part = {"army": {"A": {"units": {"infantry": 2}}}, "round": 1}
    first, second = {"public": part, "step": 1}, {"private": {"s": {"hand": []}}, "public": dict(part), "step": 2}
    assert canonical_text(first) == dumped(first) and canonical_text(second) == dumped(second)
    twins = {"x": {"n": (1, 2)}}, {"x": {"n": [1, 2]}}  # one compact text, one indented text
    assert [canonical_text(v) for v in twins] == [dumped(v) for v in twins]
