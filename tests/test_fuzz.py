"""The fuzz campaign against hostile input as repeatable tests: random order texts, dice files and mutated snapshots
go into the real parser, `pbem check --state`, `pbem resolve` and `pbem new --from-snapshot`. Every input gives a
result or a clear refusal (PbemError and its kin, naming the problem), never a traceback; a refused snapshot stores
nothing.

The seed is fixed (derandomize) and the example counts bounded, so that a run is the same every time and the file
takes seconds. PBEM_FUZZ_SCALE=20 multiplies the counts for a longer campaign (the README gives its figures)."""

from __future__ import annotations

import json
import os
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from adjudicator.engine.chance import DiceError, parse_dice_file
from adjudicator.errors import PbemError
from adjudicator.orders import parse_orders, parse_turn_file
from adjudicator.orders.keywords import keyword_table
from adjudicator.rulesets import UnknownRuleset, load_ruleset
from adjudicator.rulesets.coe.bot import play_game, seats_in_play
from adjudicator.rulesets.coe.dice import COMBAT_DIE_SYMBOLS
from adjudicator.rulesets.coe.state import SnapshotError, snapshot_text
from adjudicator.rulesets.coe.turn import NotDue
from adjudicator.services.game_reads import load_snapshot
from adjudicator.services.orders import check_state_orders
from adjudicator.services.turn_files import resolve_files
from tests.conftest import SEATS, Pbem

SCALE = int(os.environ.get("PBEM_FUZZ_SCALE", "1"))
CLEAR = (PbemError, SnapshotError, DiceError, UnknownRuleset, NotDue)  # the refusals the CLI prints as "error:"
RULESETS = ("coe-classic", "coe-1984")


def fuzz(examples: int) -> settings:
    """A fixed seed, a bounded number of examples, no example database (nothing written beside the tests)."""
    return settings(
        max_examples=examples * SCALE,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )


# -- order texts -----------------------------------------------------------------------------------------------


@cache
def words() -> list[str]:
    """Every spelling of every keyword, every area code and name, every seat, some punctuation."""
    spelled = [s for langs in keyword_table().values() for spellings in langs.values() for s in spellings]
    board = load_ruleset("coe-classic").board
    places = [w for code, info in board.areas.items() for w in (code, info.name)]
    return sorted(set(spelled + places + list(SEATS) + [":", "->", "=>", ",", "-", "G1", "G9", "WITH", "#"]))


NUMBERS = st.one_of(
    st.integers(-3, 30).map(str),
    st.integers(0, 10**40).map(str),
    st.sampled_from(["²", "٣", "1.5", "0x10", "9" * 5000, "1e9", "Ⅻ", "−1"]),
)
JUNK = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)


ORDER_FORMS = [
    "MOVE G{n} WITH {n} INF {n} CAV: {a} -> {a}",
    "MOVE CAESAR: {a} => {a} -> {a}",
    "BUY {n} INF, {n} GALLEY",
    "BUY CITY AT {a}, ROAD {a}-{a}",
    "SAIL GALLEY {n}: {a} -> {a} CARRYING G{n} WITH {n} INF",
    "LOSSES {n} INF, CAV",
    "RETREAT FROM {a} TO {a} WHEN UNITS < {n}",
    "CAPTIVES KILL OF {s}",
    "RANSOM ACCEPT {s} G{n} MIN {n}",
    "DESTROY CITY {a}",
    "PRESS TO {s}: {j}",
    "FREED TO {a}, {a}",
    "ANSWER {j} {j}",
    "CONCEDE TO {s}",
    "TARGETS CAT, GALLEY",
    "NAVAL LOSSES EMPTY, CAESAR",
    "END",
]


@st.composite
def order_line(draw: st.DrawFn) -> str:
    """An order of a real form with areas, seats, numbers and junk put in; or words at random."""
    if draw(st.booleans()):
        token = st.one_of(st.sampled_from(words()), NUMBERS, JUNK)
        return " ".join(draw(st.lists(token, max_size=10)))
    form = draw(st.sampled_from(ORDER_FORMS))
    places = st.one_of(st.sampled_from(sorted(load_ruleset("coe-classic").board.areas)), JUNK)
    fill = {"n": NUMBERS, "a": places, "s": st.sampled_from([*SEATS, "Italia", "Nobody", ""]), "j": JUNK}
    for key, values in fill.items():
        while "{" + key + "}" in form:
            form = form.replace("{" + key + "}", draw(values), 1)
    return form


@st.composite
def order_text(draw: st.DrawFn) -> str:
    """A header (usually right for the position: turn 10, Macedonia's) and lines of orders, words and junk."""
    lines = draw(st.lists(order_line(), max_size=8))
    seat = draw(st.sampled_from([*SEATS, "Nobody", "mac"]))
    header = draw(
        st.sampled_from(
            [
                *["GAME fuzz TURN 10 PLAYER Macedonia PASSWORD x"] * 4,
                f"GAME fuzz TURN 1 PLAYER {seat} PASSWORD x",
                "GAME fuzz",
                "",
                "GAME \x00",
            ]
        )
    )
    return "\n".join([header, *lines]) + draw(st.sampled_from(["\n", "", "\r\n", "\x0b"]))


@cache
def position(ruleset: str, turns: int) -> str:
    """The snapshot text of a self-played 3-seat game after `turns` player-turns."""
    seats = seats_in_play(load_ruleset(ruleset), 3)
    turns_played = play_game(ruleset, seats, 7, turns).turns
    state = turns_played[-1].state if turns_played else load_ruleset(ruleset).initial_state("fuzz", seats)
    snapshot = json.loads(snapshot_text(state))
    snapshot["game"] = "fuzz"
    return json.dumps(snapshot, indent=1) + "\n"


@pytest.mark.parametrize("ruleset", RULESETS)
@fuzz(examples=150)
@given(text=order_text())
def test_random_order_texts_are_parsed_and_checked_never_a_traceback(ruleset: str, text: str) -> None:
    rules = load_ruleset(ruleset)
    parsed = parse_orders(text, rules)
    assert all(error.line >= 1 for error in parsed.errors)  # every problem names its line
    parse_turn_file(text, rules)
    try:
        receipt = check_state_orders(position(ruleset, 9), text)  # what `pbem check --state` runs
    except CLEAR as refused:
        assert str(refused)
        event("refused")
    else:
        assert receipt.game == "fuzz"
        event(
            f"checked: {sum(r.accepted for r in receipt.results)} orders accepted"
            if receipt.results
            else "checked: no order understood"
        )


# -- dice files ------------------------------------------------------------------------------------------------

DICE_WORDS = st.one_of(
    st.sampled_from(
        [
            "1",
            "2",
            "3",
            "4",
            "5",
            "6",
            "inf",
            "CAV",
            "cat",
            "gal",
            "blank",
            "0",
            "7",
            "06",
            "#",
            "# 3 4",
            "²",
            "٣",
            "\x00",
            "-1",
            "9" * 5000,
            "\u00a0",
            "\u2028",
        ]
    ),
    NUMBERS,
    JUNK,
)


@fuzz(examples=300)
@given(text=st.lists(st.lists(DICE_WORDS, max_size=6).map(" ".join), max_size=6).map("\n".join))
def test_random_dice_files_are_rolls_or_a_refusal_naming_the_line(text: str) -> None:
    try:
        rolls = parse_dice_file(text, COMBAT_DIE_SYMBOLS)
    except DiceError as refused:
        assert str(refused).startswith("dice file line ")
        line = int(str(refused).split()[3].rstrip(":"))
        assert 1 <= line <= text.count("\n") + 1
        event("refused")
    else:
        assert all(1 <= roll <= 6 for roll in rolls)
        event("read")


@fuzz(examples=40)
@given(
    dice=st.one_of(
        st.lists(st.sampled_from([*"123456", "inf", "blank"]), min_size=8, max_size=60),
        st.lists(st.sampled_from([*"123456", "inf", "blank", "x", "²", "0", "7"]), max_size=60),
    )
)
def test_random_dice_files_resolve_a_battle_or_are_refused(tmp_path: Path, dice: list[str]) -> None:
    """`pbem resolve` with a battle to fight: the dice fit, run out, are left over, or are not dice."""
    snapshot = json.loads(position("coe-classic", 0))
    snapshot["areas"]["THR"] = {
        "owner": "Egyptus",
        "city": None,
        "roads": [],
        "units": {"Egyptus": {"caesar": 0, "generals": [1], "infantry": 3, "cavalry": 0, "catapult": 0, "galleys": []}},
    }
    snapshot["areas"]["EGY"]["units"]["Egyptus"]["generals"].remove(1)
    orders = "GAME fuzz TURN 1 PLAYER Macedonia PASSWORD x\nMOVE G1 WITH 5 INF: MAC -> THR\n"
    out = tmp_path / "out"
    try:
        done = resolve_files(json.dumps(snapshot), orders, " ".join(dice), out, strict_dice=len(dice) % 3 == 0)
    except CLEAR as refused:
        assert str(refused)
        event("refused: " + str(refused).split(":")[0][:30])
    else:
        assert done.turns and (out / "snapshot.json").is_file()
        event("resolved")


# -- snapshots -------------------------------------------------------------------------------------------------

JSON_VALUES = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-5, 10**31),
        st.floats(allow_nan=True),
        st.sampled_from(
            [
                "MAC",
                "EGY",
                "SYR",
                "ZZZ",
                "Macedonia",
                "Egyptus",
                "Italia",
                "Nobody",
                "*",
                "infantry",
                "galley",
                "never",
                "units_below",
                "fortified",
                "1",
                "",
            ]
        ),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(
            st.sampled_from(["kind", "count", "from", "to", "condition", "threshold", "owner", "general", "1", "x"]),
            inner,
            max_size=3,
        ),
    ),
    max_leaves=6,
)


def paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in the JSON data: the keys and indexes that lead to it."""
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += paths(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found += paths(item, (*path, i))
    return found


@st.composite
def mutated_snapshot(draw: st.DrawFn) -> str:
    """A real position (both editions, several stages) with one to three places replaced, dropped or added to."""
    data = json.loads(position(draw(st.sampled_from(RULESETS)), draw(st.sampled_from([0, 9, 30]))))
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(paths(data)[1:]))
        parent = data
        for step in path[:-1]:
            parent = parent[step]
        action = draw(st.sampled_from(["nudge", "nudge", "replace", "drop", "add"]))
        if action == "nudge" and type(parent[path[-1]]) is int:  # a number near the real one: often still valid
            parent[path[-1]] += draw(st.integers(-3, 3))
        elif action in ("nudge", "replace"):
            parent[path[-1]] = draw(JSON_VALUES)
        elif action == "drop":
            del parent[path[-1]]
        elif isinstance(parent, dict):
            parent[draw(st.sampled_from(["x", "MAC", "Italia", "2", "kind"]))] = draw(JSON_VALUES)
        else:
            parent.append(draw(JSON_VALUES))
    return json.dumps(data)


@fuzz(examples=250)
@given(text=mutated_snapshot())
def test_mutated_snapshots_are_refused_or_play_a_turn(text: str) -> None:
    """`--state`: a snapshot is refused with the field it names, or it is a position the engine can play."""
    try:
        state, ruleset = load_snapshot(text)
    except CLEAR as refused:
        assert "snapshot" in str(refused) or "state file" in str(refused) or "ruleset" in str(refused)
        event("refused")
        return
    event("accepted")
    if state.active is None:
        return  # the game has ended: nothing to play
    orders = (
        f"GAME fuzz TURN {state.turn + 1} PLAYER {state.active} PASSWORD x\nBUY 1 INF\nLOSSES CAV, INF\n"
        f"MOVE CAESAR WITH 1 INF: {state.players[state.active].home} -> SYR\n"
    )
    try:
        check_state_orders(text, orders)
        with tempfile.TemporaryDirectory() as out:
            resolve_files(text, orders, None, Path(out))
    except CLEAR:
        pass


@fuzz(examples=40)
@given(text=mutated_snapshot())
def test_mutated_snapshots_given_to_new_are_refused_storing_nothing(
    tmp_path_factory: pytest.TempPathFactory, text: str
) -> None:
    folder = tmp_path_factory.mktemp("fuzz-new")
    pbem = Pbem(folder / "data")
    path = folder / "snapshot.json"
    path.write_text(text, encoding="utf-8")
    before = pbem.dump()
    data = json.loads(text)
    ruleset = data.get("ruleset") if isinstance(data.get("ruleset"), str) else "coe-classic"
    players = data.get("players") if isinstance(data.get("players"), dict) else SEATS
    seats = [a for seat in players for a in ("--seat", f"{seat}=a@b.org")]
    result = pbem("new", "copy", "--ruleset", ruleset, "--from-snapshot", str(path), *seats)
    assert isinstance(result.exception, SystemExit) or result.exception is None, result.exception
    if result.exit_code != 0:
        assert result.output.startswith("error: ") and pbem.dump() == before, result.output
        assert not (folder / "data/games/copy").exists()
    event("created" if result.exit_code == 0 else "refused")


def test_the_fuzzed_positions_are_real_ones() -> None:
    """The snapshots mutated above are accepted as they are (else every mutation would be refused anyway)."""
    for ruleset in RULESETS:
        for turns in (0, 9, 30):
            state, _ = load_snapshot(position(ruleset, turns))
            assert state.turn <= turns
