"""The fast paths taken for the benchmarks do exactly what the plain code they replace did: the state copy is
copy.deepcopy's, the snapshot text is json.dumps', the fused parser loop gives Lark's results and errors, a
turn played in place (as verify plays it) ends as one played on a copy, and the one-pass invariant check still
finds each seat's breaches."""

from __future__ import annotations

import copy
import json
import random
from functools import cache
from typing import Any

import pytest
from lark.exceptions import UnexpectedInput

from adjudicator.engine.chance import KeyedDice, orders_digest
from adjudicator.orders import parse_orders
from adjudicator.orders.parser import _entry
from adjudicator.rulesets import load_ruleset
from adjudicator.rulesets.coe.bot import SelfPlayResult, play_game, random_orders
from adjudicator.rulesets.coe.invariants import broken_invariants
from adjudicator.rulesets.coe.state import GameState, _json_text, from_snapshot, snapshot_text, to_snapshot
from adjudicator.rulesets.coe.turn import resolve
from tests.helpers import place, start
from tests.test_orders_parser import TURN_FILE


@cache
def game(ruleset: str) -> SelfPlayResult:
    """A seeded self-play game of 5 seats: positions with battles, galleys, captives and standing orders."""
    rules = load_ruleset(ruleset)
    seats = [rules.seat_of_home(home) or home for home in rules.data["setup"]["homes"]["5"]]
    return play_game(ruleset, seats, 3, 40)


def states(ruleset: str) -> list[GameState]:
    return game(ruleset).states


RULESETS = ["coe-classic", "coe-1984"]


# -- GameState.copy ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", RULESETS)
def test_copy_equals_deepcopy(ruleset: str) -> None:
    for state in states(ruleset):
        copied = state.copy()
        assert copied == copy.deepcopy(state) == state and copied is not state
        assert snapshot_text(copied) == snapshot_text(state)
        assert all(copied.areas[c] is not a for c, a in state.areas.items())


def test_copy_keeps_what_is_shared_shared_as_deepcopy_does() -> None:
    state = start()
    shared = [1, 2]
    place(state, "THR", "Macedonia", generals=shared, infantry=2)
    place(state, "MOE", "Macedonia", generals=shared, infantry=1)
    state.players["Egyptus"].standing = {"losses": ["cavalry"], "extra": (1, [2])}
    state.players["Hispania"].standing = state.players["Egyptus"].standing
    for copied in (state.copy(), copy.deepcopy(state)):
        assert copied.areas["THR"].units["Macedonia"].generals is copied.areas["MOE"].units["Macedonia"].generals
        assert copied.areas["THR"].units["Macedonia"].generals is not shared
        assert copied.players["Egyptus"].standing is copied.players["Hispania"].standing
        assert copied.players["Egyptus"].standing["extra"] == (1, [2])
        assert copied.players["Egyptus"].standing["extra"][1] is not state.players["Egyptus"].standing["extra"][1]


# -- snapshot text ------------------------------------------------------------------------------------------------


def test_json_text_equals_json_dumps() -> None:
    for ruleset in RULESETS:
        for state in states(ruleset):
            data = to_snapshot(state)
            assert _json_text(data) == json.dumps(data, indent=1, ensure_ascii=False)
    odd: list[Any] = [
        {},
        [],
        (),
        "x",
        0,
        -7,
        None,
        True,
        [[], {}, [[]]],
        {'ä\n"\\': "ü\u2028\x00", "": [None, False]},
        {"float": 1.5, "nan": float("nan")},
        {1: "int key", "b": {True: None}},
        {"t": (1, (2, []))},
        [10**30, -(10**30)],
        {"deep": [[[{"x": [1, {"y": []}]}]]]},
    ]
    for data in odd:
        assert _json_text(data) == json.dumps(data, indent=1, ensure_ascii=False), data


# -- the parser's fused loop ---------------------------------------------------------------------------------------


def _outcome(run: Any) -> Any:
    """What a parse gives, comparably: the orders it makes (partials), or the error it raises."""
    try:
        made = run()
    except UnexpectedInput as e:
        return type(e).__name__, str(e), e.line, e.column, sorted(getattr(e, "expected", None) or [])
    except Exception as e:  # noqa: BLE001 - any other error must be the same too
        return type(e).__name__, str(e)
    items = made if isinstance(made, list) else [made]
    return [(m.func, m.args, m.keywords) for m in items]


def _lines() -> list[str]:
    rng = random.Random(6)
    found = [line for line in TURN_FILE.splitlines() if line.strip() and not line.startswith("#")]
    for ruleset in RULESETS:
        for turn in game(ruleset).turns:
            found += turn.orders.splitlines()[1:]
    words = " ".join(found).split()
    found += [" ".join(rng.choice(words) for _ in range(rng.randint(1, 8))) for _ in range(400)]  # mostly errors
    found += [
        "MOVE G1 WTH 3 INF: ITA -> NAR",
        "HELLO there",
        "\x00\x00garbage",
        'NAVAL "Mare',
        "BUY 2 ROAD NAR-ITA",
        "MOVE G1 WITH",
        "PRESS TO Egyptus:   ",
        "RETREAT WHEN UNITS > 3",
        "CONCEDE TO M",
        "MOVE G1: ITA -> Mare",
    ]
    return found


@pytest.mark.parametrize("ruleset", RULESETS)
def test_driver_parses_as_lark(ruleset: str) -> None:
    _, lark, driver = _entry(load_ruleset(ruleset))
    lines = _lines()
    assert len(lines) > 500
    for line in lines:
        for start_rule in ("order", "header"):
            ours = _outcome(lambda line=line, start_rule=start_rule: driver.parse(line, start_rule))
            theirs = _outcome(lambda line=line, start_rule=start_rule: lark.parse(line, start=start_rule))
            assert ours == theirs, line


# -- verify --------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_turn_played_in_place_ends_as_on_a_copy(ruleset: str) -> None:
    rules = load_ruleset(ruleset)
    for number, state in enumerate(states(ruleset)[:20], 1):
        if state.active is None:
            break
        text = random_orders(rules, state, state.active, random.Random(number))
        orders = parse_orders(text, rules)
        dice = [KeyedDice(key=bytes([number]) * 32, orders_hash=orders_digest([text])) for _ in range(2)]
        loaded = from_snapshot(json.loads(snapshot_text(state)))
        on_copy = resolve(rules, loaded, orders, dice[0])
        in_place = resolve(rules, loaded, orders, dice[1], in_place=True)
        assert in_place.state is loaded
        assert snapshot_text(in_place.state) == snapshot_text(on_copy.state)
        assert (in_place.events, in_place.order_results, in_place.dice) == (
            on_copy.events,
            on_copy.order_results,
            on_copy.dice,
        )


# -- invariants ----------------------------------------------------------------------------------------------------


def test_the_one_pass_invariant_check_still_finds_each_seats_breaches() -> None:
    rules = load_ruleset("coe-classic")
    state = rules.initial_state("g", ["Macedonia", "Egyptus", "Hispania"])
    state.force("MAC", "Macedonia").infantry += 20  # 25 of a supply of 20
    state.force("EGY", "Egyptus").generals.append(1)  # G1 twice at home
    state.force("EGY", "Egyptus").caesar += 1
    state.players["Hispania"].treasury = -5
    assert broken_invariants(rules, state) == [
        "Macedonia: 25 infantry exceed the limit 20 (C-1.1)",
        "Egyptus: general G1 is in 2 places",
        "Egyptus: 2 Caesars on the board",
        "Hispania: treasury -5 is negative",
    ]
