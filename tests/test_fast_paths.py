"""The fast paths of issue 6 (benchmarks) do exactly what the plain code they replace did: the state copy is
copy.deepcopy's, the snapshot text is json.dumps', the fused parser loop gives Lark's results and errors, a
turn played in place (as verify plays it) ends as one played on a copy, and the one-pass invariant check lists what
the per-seat passes listed."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from functools import cache
from typing import Any

import pytest
from lark.exceptions import UnexpectedInput

from adjudicator.engine.dice import KeyedDice, orders_digest
from adjudicator.engine.state import GameState, _json_text, from_snapshot, snapshot_text, to_snapshot
from adjudicator.engine.turn import resolve
from adjudicator.engine.vocabulary import UNIT_KINDS
from adjudicator.orders import parse_orders
from adjudicator.orders.parser import _entry
from adjudicator.rulesets import Ruleset, load_ruleset
from adjudicator.rulesets.coe.economy import shared_on_board, shared_units, tribute_value, units_on_board
from adjudicator.rulesets.coe.invariants import broken_invariants
from adjudicator.selfplay import SelfPlayResult, play_game, random_orders
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
        {}, [], (), "x", 0, -7, None, True, [[], {}, [[]]], {"ä\n\"\\": "ü\u2028\x00", "": [None, False]},
        {"float": 1.5, "nan": float("nan")}, {1: "int key", "b": {True: None}}, {"t": (1, (2, []))},
        [10**30, -(10**30)], {"deep": [[[{"x": [1, {"y": []}]}]]]},
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
    found += ["MOVE G1 WTH 3 INF: ITA -> NAR", "HELLO there", "\x00\x00garbage", 'NAVAL "Mare', "BUY 2 ROAD NAR-ITA",
              "MOVE G1 WITH", "PRESS TO Egyptus:   ", "RETREAT WHEN UNITS > 3", "CONCEDE TO M", "MOVE G1: ITA -> Mare"]
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
        assert (in_place.events, in_place.order_results, in_place.dice) == (on_copy.events, on_copy.order_results,
                                                                           on_copy.dice)


# -- invariants ----------------------------------------------------------------------------------------------------


def _invariants_per_seat(ruleset: Ruleset, state: GameState) -> list[str]:
    """broken_invariants as it was before its one pass over the areas: passes per seat and count."""
    board, limits = ruleset.board, ruleset.data["limits"]
    units_per_galley = ruleset.data["movement"]["units_per_leader"]
    shared = shared_units(ruleset)
    problems = []
    for seat, player in state.players.items():
        if player.treasury < 0:
            problems.append(f"{seat}: treasury {player.treasury} is negative")
        if not player.eliminated and player.tribute != tribute_value(ruleset, state, seat):
            problems.append(f"{seat}: tribute {player.tribute} is not provinces + cities "
                            f"({tribute_value(ruleset, state, seat)}) (C-9.1)")
        if player.eliminated and any(seat in a.units for a in state.areas.values()):
            problems.append(f"{seat}: eliminated but still has pieces on the board (C-8.8)")
        for kind in UNIT_KINDS if not shared else ():
            count = sum(getattr(a.units[seat], kind) for a in state.areas.values() if seat in a.units)
            if count > limits[kind] + player.inherited.get(kind, 0):
                problems.append(f"{seat}: {count} {kind} exceed the limit {limits[kind]} (C-1.1)")
        galleys = [g for a in state.areas.values() if seat in a.units for g in a.units[seat].galleys]
        if len(galleys) > limits["galley"] + player.inherited.get("galley", 0):
            problems.append(f"{seat}: {len(galleys)} galleys exceed the limit (C-1.1)")
        for number, times in Counter(galleys).items():
            if times > 1:
                problems.append(f"{seat}: galley {number} is in {times} places")
        generals = [g for a in state.areas.values() if seat in a.units for g in a.units[seat].generals]
        generals += [c.general for p in state.players.values() for c in p.captives if c.owner == seat]
        for number, times in Counter(generals).items():
            if times > 1:
                problems.append(f"{seat}: general G{number} is in {times} places")
        caesars = sum(a.units[seat].caesar for a in state.areas.values() if seat in a.units)
        if caesars > 1 or (caesars == 0 and not player.eliminated) or (caesars and player.eliminated):
            problems.append(f"{seat}: {caesars} Caesars on the board")
        if any(c.owner == seat for c in player.captives):
            problems.append(f"{seat}: holds his own general prisoner (C-8.9)")
    for kind in UNIT_KINDS if shared else ():  # O-1.2: one supply of uncoloured units for all players
        if units_on_board(state, kind) > limits[kind]:
            problems.append(f"{units_on_board(state, kind)} {kind} exceed the shared supply of {limits[kind]} "
                            "(O-1.2)")
    for kind in ("city", "fortification", "road"):
        if shared_on_board(state, kind) > limits[kind]:
            problems.append(f"{shared_on_board(state, kind)} {kind} pieces exceed the pool of {limits[kind]} (C-1.2)")
    for code, area in state.areas.items():
        land = board.is_land(code)
        if area.owner is not None and not land:
            problems.append(f"{code}: a sea zone has an owner (C-0.8)")
        if area.city and not land:
            problems.append(f"{code}: a city at sea")
        for other in area.roads:
            if code not in state.area(other).roads or not area.city or not state.area(other).city:
                problems.append(f"{code}: road to {other} is not between two cities (C-9.7)")
        armies = [s for s, f in area.units.items() if f.units]
        if land and len(armies) > 1:
            problems.append(f"{code}: combat units of {', '.join(armies)} after the turn (C-6.1)")
        for seat, force in area.units.items():
            if force.galleys and land and not board.coasts(code):
                problems.append(f"{code}: {seat}'s galleys in a province without coast (C-5.16)")
            for number, cargo in force.aboard.items():
                if number not in force.galleys:
                    problems.append(f"{code}: {seat}'s cargo aboard a galley {number} that is not there")
                if cargo.units > units_per_galley:
                    problems.append(f"{code}: {seat}'s galley {number} carries {cargo.units} units (C-5.22)")
                if cargo.units and not (cargo.caesar or cargo.generals):
                    problems.append(f"{code}: {seat}'s galley {number} carries units without a leader (C-5.23)")
            if not land:
                aboard = {k: sum(getattr(c, k) for c in force.aboard.values()) for k in UNIT_KINDS}
                leaders = sorted(g for c in force.aboard.values() for g in c.generals)
                if any(aboard[k] != getattr(force, k) for k in UNIT_KINDS) or leaders != sorted(force.generals) \
                        or sum(c.caesar for c in force.aboard.values()) != force.caesar:
                    problems.append(f"{code}: {seat}'s land pieces at sea are not all aboard galleys (C-5.17)")
            elif force.aboard and any(not c.is_empty() for c in force.aboard.values()):
                problems.append(f"{code}: {seat}'s pieces still aboard in a province (C-5.26)")
    return problems


@pytest.mark.parametrize("ruleset", RULESETS)
def test_one_pass_invariants_list_what_the_passes_per_seat_listed(ruleset: str) -> None:
    rules = load_ruleset(ruleset)
    rng = random.Random(9)
    found = 0
    for state in states(ruleset):
        state = state.copy()
        assert broken_invariants(rules, state) == _invariants_per_seat(rules, state)
        for _ in range(3):  # break things: too many units, doubled galleys and generals, Caesars, debts
            area = rng.choice(list(state.areas.values()))
            for force in area.units.values():
                force.infantry += rng.randint(0, 30)
                force.galleys.append(rng.randint(1, 3))
                force.generals.append(rng.randint(1, 4))
                force.caesar += rng.randint(0, 1)
            player = rng.choice(list(state.players.values()))
            player.eliminated, player.treasury = rng.random() < 0.3, player.treasury - rng.randint(0, 3)
            problems = broken_invariants(rules, state)
            assert problems == _invariants_per_seat(rules, state)
            found += len(problems)
    assert found > 100
