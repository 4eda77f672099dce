"""The fast paths taken for the benchmarks do exactly what the plain code they replace did: the state copy is
copy.deepcopy's, the snapshot text is json.dumps', the fused parser loop gives Lark's results and errors, a
turn played in place (as verify plays it) ends as one played on a copy, and the one-pass invariant check still
finds each seat's breaches."""

from __future__ import annotations

import copy
import json
import random
from functools import cache
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import given
from lark.exceptions import UnexpectedInput

from adjudicator.archive import Archive
from adjudicator.engine.chance import KeyedDice, orders_digest
from adjudicator.orders import parse_orders
from adjudicator.orders.parser import _entry
from adjudicator.rulesets import load_ruleset
from adjudicator.rulesets.coe import state as state_module
from adjudicator.rulesets.coe.bot import SelfPlayResult, play_game, random_orders, seats_in_play
from adjudicator.rulesets.coe.invariants import _all_hold, _breaches, broken_invariants
from adjudicator.rulesets.coe.snapshot_check import _fits, _misfits, position_problems, with_reader_defaults
from adjudicator.rulesets.coe.state import (
    Captive,
    Cargo,
    Force,
    GameState,
    _json_text,
    from_snapshot,
    from_stored_snapshot,
    read_written,
    snapshot_text,
    to_snapshot,
)
from adjudicator.rulesets.coe.turn import resolve
from adjudicator.services.selfplay import play_archived_game
from adjudicator.services.verification import verify_stored
from tests.helpers import place, start
from tests.test_fuzz import fuzz, mutated_snapshot
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


def _written(state: GameState) -> str:
    return json.dumps(to_snapshot(state), indent=1, ensure_ascii=False) + "\n"


def test_snapshot_text_equals_json_dumps_of_its_data_with_its_areas_texts_kept() -> None:
    for ruleset in RULESETS:
        for state in states(ruleset):
            assert snapshot_text(state) == _written(state)
            assert snapshot_text(state) == _written(state)  # the second time from the kept areas' texts
    state = start()
    place(state, "THR", "Macedonia", generals=[2], infantry=1)
    place(state, "MOE", "Macedonia", infantry=0)  # an empty force, left out of the text
    state.area("SIC")  # an empty area, absent from the text
    assert snapshot_text(state) == _written(state)
    # values equal to those of a kept text as keys, written otherwise: each text as json.dumps writes it
    for odd in (True, 1.0, 10**30):
        state.areas["THR"].units["Macedonia"].infantry = odd
        assert snapshot_text(state) == _written(state), odd
    state.areas["THR"].units["Macedonia"].infantry = 1
    state.areas["THR"].units["Macedonia"].generals = [True]
    assert snapshot_text(state) == _written(state)
    state.areas["THR"].units["Macedonia"].generals = [2]
    state.areas["THR"].units["Macedonia"].galley_coasts = {True: "north"}
    state.areas["THR"].units["Macedonia"].galleys = [1]
    assert snapshot_text(state) == _written(state)
    state.areas.clear()
    assert snapshot_text(state) == _written(state)
    # a player's text is kept too: values equal as keys but of other types are written as json.dumps writes them
    player = next(iter(state.players.values()))
    for standing in ({"x": [1]}, {"x": [True]}, {"x": [1.0]}, {"x": (1,)}, {"x": [1]}, {"x": {1: 1}}, {"x": b"1"}):
        player.standing = standing
        try:
            expected = _written(state)
        except TypeError as no:  # not JSON at all: the same error
            with pytest.raises(TypeError, match=str(no)):
                snapshot_text(state)
        else:
            assert snapshot_text(state) == expected, standing


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


def _mutated(rules: Any, state: GameState, rng: random.Random) -> GameState:
    """`state` with one to three random edits, most of which break an invariant."""
    state = state.copy()
    seats = list(state.players)
    codes = list(rules.board.areas)
    for _ in range(rng.randint(1, 3)):
        code, seat = rng.choice(codes), rng.choice(seats)
        area, player = state.area(code), state.players[seat]
        force = rng.choice(list(area.units.values())) if area.units and rng.random() < 0.7 else area.force(seat)
        edit = rng.randrange(16)
        if edit == 0:
            setattr(force, rng.choice(["infantry", "cavalry", "catapult"]), rng.choice([-1, 1, 3, 25, 61]))
        elif edit == 1:
            force.caesar = rng.choice([0, 1, 2])
        elif edit == 2:
            force.generals.append(rng.randint(1, 12))
        elif edit == 3:
            mine = [g for a in state.areas.values() for g in a.units.get(seat, Force()).galleys]
            force.galleys += [rng.choice(mine or [1])] * rng.choice([1, 12])  # one twice, or too many
        elif edit == 4:
            area.owner = rng.choice([None, seat])
        elif edit == 5:
            area.city = rng.choice([None, "city", "fortified"])
        elif edit == 6:
            other = rng.choice(sorted(rules.board.adjacency[code]))
            area.roads.append(other)
            if rng.random() < 0.5:
                state.area(other).roads.append(code)
        elif edit == 7:
            player.treasury = rng.choice([-3, 0, 40])
        elif edit == 8:
            player.tribute += rng.choice([-1, 1])
        elif edit == 9:
            player.eliminated = not player.eliminated
        elif edit == 10:
            player.captives.append(Captive(rng.choice(seats), rng.randint(1, 12)))
        elif edit == 11:
            force.aboard[rng.choice(force.galleys or [rng.randint(1, 40)])] = Cargo(
                caesar=rng.choice([0, 1]), generals=rng.choice([[], [1]]), infantry=rng.choice([0, 2, 8])
            )
        elif edit == 12:
            player.inherited = {rng.choice(["infantry", "galley"]): rng.choice([0, 5])}
        elif edit == 13:
            area.units.pop(rng.choice(list(area.units)), None)
        elif edit == 14:
            force.galley_coasts = {}
            force.aboard = {}
        else:
            area.units[seat] = Force()  # an empty force: a seat with "pieces" there
    return state


def _found(run: Any) -> Any:
    """The breaches a check finds, or the error it raises (a road to an area the state lacks)."""
    try:
        return run()
    except Exception as e:  # noqa: BLE001 - the same error either way
        return type(e).__name__, str(e)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_invariants_all_hold_in_one_pass_exactly_when_no_check_finds_a_breach(ruleset: str) -> None:
    rules = load_ruleset(ruleset)
    rng = random.Random(11)
    held = broke = 0
    for state in states(ruleset):
        for edited in [state] + [_mutated(rules, state, rng) for _ in range(12)]:
            breaches = _found(lambda edited=edited: _breaches(rules, edited.copy()))  # a road to nowhere raises
            assert _all_hold(rules, edited) == (breaches == []), breaches
            assert _found(lambda edited=edited: broken_invariants(rules, edited)) == breaches
            held, broke = held + (not breaches), broke + bool(breaches)
    assert held > 40 and broke > 200  # both kinds were met


def _edited_snapshot(rules: Any, data: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Snapshot data (a copy) with one to three random edits, most of which do not fit the ruleset."""
    data = copy.deepcopy(data)
    players, areas = data["players"], data["areas"]
    seats, codes = list(players), list(areas)
    for _ in range(rng.randint(1, 3)):
        seat, code = rng.choice(seats), rng.choice(codes)
        player, area = players[seat], areas[code]
        force = rng.choice(list(area["units"].values())) if area["units"] else None
        someone = rng.choice([*seats, "Nobody", None])
        edit = rng.randrange(18)
        if edit == 0:
            data["players"] = dict(reversed(list(players.items())))
        elif edit == 1:
            player["home"] = rng.choice([player["home"], "ITA"])
        elif edit == 2:
            player[rng.choice(["captor", "conceded_to"])] = someone
        elif edit == 3:
            player["captives"].append({"owner": someone or seat, "general": rng.choice([0, 1, 2, 99])})
        elif edit == 4:
            rule = {"from": rng.choice([None, "ITA", "XXX"]), "condition": "below_enemy", "threshold": None}
            player["standing"].setdefault("retreat", []).append({**rule, "to": [rng.choice(["ITA", "XXX"])]})
        elif edit == 5:
            player["standing"][rng.choice(["freed", "captives", "ransom_accept"])] = rng.choice(
                [["XXX"], {"Nobody": "ransom", "*": "keep"}, [{"owner": someone, "general": rng.choice([0, 3])}]]
            )
        elif edit == 6:
            data[rng.choice(["active", "winner"])] = someone
        elif edit == 7:
            data["inflation_pending"].append({"seat": someone, "level": 1})
        elif edit == 8:
            area["owner"] = someone
        elif edit == 9:
            other = rng.choice([*sorted(rules.board.adjacency[code]), rng.choice(codes)])
            area["roads"].append(other)
            if rng.random() < 0.6 and other in areas:
                areas[other]["roads"].append(code)
        elif edit == 10:
            area["city"] = rng.choice([None, "city", "fortified"])
        elif edit == 11:
            area["units"][someone or "Nobody"] = dict(force or {}, generals=[], galleys=[])
        elif edit == 12 and force:
            force[rng.choice(["generals", "galleys"])].append(rng.choice([0, 1, 2, 3, 99]))
        elif edit == 13 and force:
            force[rng.choice(["caesar", "infantry", "cavalry", "catapult"])] = rng.choice([1, 2, 60, 200])
        elif edit == 14 and force:
            force["galley_coasts"] = {str(rng.choice(force["galleys"] or [7])): rng.choice(["MED", "TYR", "XXX"])}
        elif edit == 15 and force:
            cargo = {"caesar": 0, "generals": rng.choice([[], [99]]), "infantry": rng.choice([0, 1, 50])}
            force["aboard"] = {str(rng.choice(force["galleys"] or [7])): {**cargo, "cavalry": 0, "catapult": 0}}
        elif edit == 16:
            player["tribute"] += rng.choice([-5, 5])
        else:
            player["eliminated"] = not player["eliminated"]
    return data


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_snapshot_fits_in_one_pass_exactly_when_no_check_finds_a_misfit(ruleset: str) -> None:
    rules = load_ruleset(ruleset)
    rng = random.Random(12)
    fitted = misfit = 0
    for state in states(ruleset):
        data = with_reader_defaults(to_snapshot(state))
        for edited in [data] + [_edited_snapshot(rules, data, rng) for _ in range(12)]:
            found = _found(lambda edited=edited: _misfits(edited, rules))
            assert _fits(edited, rules) == (found == []), found
            assert _found(lambda edited=edited: position_problems(edited, rules)) == found
            fitted, misfit = fitted + (not found), misfit + bool(found)
    assert fitted > 40 and misfit > 200  # both kinds were met


def _read(data: Any) -> Any:
    """The snapshot text of the state read from `data`, or the error it raises."""
    try:
        return snapshot_text(from_snapshot(data))
    except Exception as e:  # noqa: BLE001 - the same error either way
        return type(e).__name__, str(e)


@fuzz(examples=200)
@given(text=mutated_snapshot())
def test_a_snapshot_that_lacks_nothing_is_read_as_through_the_filled_copy(text: str) -> None:
    """A snapshot with every field is read as it is, not through with_reader_defaults' copy: the same state, or the
    same problems named in the same order (the copy's key order), as when every snapshot went through the copy."""
    ours = _read(json.loads(text))
    with mock.patch.object(state_module, "lacks_nothing", lambda data: False):  # the way before
        before = _read(json.loads(text))
    assert ours == before


# -- verify's reading of the positions its replay wrote ---------------------------------------------------------------


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_text_the_replay_wrote_is_read_as_with_every_check(ruleset: str) -> None:
    rules = load_ruleset(ruleset)
    for state in states(ruleset):
        text = snapshot_text(state)
        # repr shows the order of every dict too, which the next turn's replay follows
        assert repr(rules.read_replayed_snapshot(text)) == repr(from_snapshot(json.loads(text)))


def _counting_checks() -> tuple[list[str], Any]:
    """A list that grows at each snapshot check ("fit" where it checks the fit to a ruleset too, "shape" for the shape
    of a text's head or of an area alone), and the patch that makes it grow."""
    checked: list[str] = []
    real, real_shape = state_module.snapshot_problems, state_module.shape_fits

    def counted(data: Any, ruleset: Any, **kwargs: Any) -> list[str]:
        checked.append("fit" if ruleset is not None else "shape")
        return real(data, ruleset, **kwargs)

    def counted_shape(*args: Any, **kwargs: Any) -> bool:
        checked.append("area" if kwargs.get("areas_only") else "shape")
        return real_shape(*args, **kwargs)

    return checked, mock.patch.multiple(
        state_module,
        snapshot_problems=counted,
        shape_fits=counted_shape,
        _CHECKED_TEXTS={},  # as in a new process: no text checked before (the self-play's own reads are)
        _AREA_DATA={},
    )


def test_verify_checks_the_fit_of_no_text_its_replay_wrote(tmp_path: Path) -> None:
    """Of a sound game, verify checks the setup's text (read for its seats and as the first position) and the last
    turn's (read for the seats the game goes on with, verify_published.py) fully: every other text is the one the
    replay wrote of a position that kept the invariants (its fit to the ruleset among them, tests/test_verify_fit.py),
    and only its shape is checked (the schema): its head's, and each area's once per area text."""
    rules = load_ruleset("coe-classic")
    archive = Archive.in_folder(tmp_path)
    seats = seats_in_play(rules, 4)
    turns = play_archived_game(archive, tmp_path, "fast", rules.name, seats, 5, 8, check_archive=False)
    checked, counting = _counting_checks()
    with counting:
        passed, problems = verify_stored(tmp_path, None, "fast")
    assert not problems and len(passed) == len(turns) + 3
    assert checked.count("fit") == 3 and checked.count("shape") == len(turns)  # before: 11 full checks
    assert 0 < checked.count("area") < 40 * len(turns) / 2  # each new area text once, not each area each turn


def test_a_replayed_text_of_another_edition_is_read_with_every_check() -> None:
    classic, text = load_ruleset("coe-classic"), snapshot_text(states("coe-1984")[3])
    checked, counting = _counting_checks()
    with counting:
        read = classic.read_replayed_snapshot(text)
    assert checked and snapshot_text(read) == text


def test_the_last_text_written_is_read_back_from_its_parts_as_json_reads_it() -> None:
    for state in states("coe-classic"):
        text = snapshot_text(state)
        assert read_written(text) == (json.loads(text), True)
        read = from_stored_snapshot(text, kept_by=load_ruleset("coe-classic"))
        for area in read.areas.values():  # a turn played on the position read changes none of the kept parts
            area.roads.append("ITA")
            for force in area.units.values():
                force.generals.append(99)
        assert read_written(text) == (json.loads(text), True)
        assert read_written(text + " ") is None  # another text: read as it is


@pytest.mark.parametrize("part", ["area", "player"])
def test_a_replayed_text_out_of_the_schemas_shape_is_read_with_every_check(part: str) -> None:
    """A rules fault that wrote a count the schema refuses (a negative one) is named as a stored text of it would be,
    in an area or in the head's players."""
    classic, state = load_ruleset("coe-classic"), states("coe-classic")[5].copy()
    if part == "area":
        next(force for area in state.areas.values() for force in area.units.values()).infantry = -1
    else:
        next(iter(state.players.values())).treasury = -1
    with pytest.raises(state_module.SnapshotError, match="-1"):
        classic.read_replayed_snapshot(snapshot_text(state))
