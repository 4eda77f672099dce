"""Conqueror: Empire Rises: the game state, its derived rules, snapshots and invariants (ER-1, ER-2, ER-5.30).

Positions are made by the real setup on our own example data (games/conqueror-er/example-data, invented for
pbem), then changed where a rule needs it."""

from __future__ import annotations

import json
from functools import cache

import pytest

from adjudicator.engine.chance import KeyedDice
from adjudicator.engine.protocol import EVERYONE, PUBLIC
from adjudicator.engine.steps import resolve_step
from adjudicator.errors import PbemError
from adjudicator.resources import resource_dir
from adjudicator.rulesets import load_ruleset
from adjudicator.rulesets.conqueror.data import GameData
from adjudicator.rulesets.conqueror.game import ConquerorGame
from adjudicator.rulesets.conqueror.loader import load_folder
from adjudicator.rulesets.conqueror.setup import game_options
from adjudicator.rulesets.conqueror.state import (
    FOOD_IN_USE,
    INDEPENDENT,
    Army,
    GameState,
    controller,
    food_limit,
    food_supply,
    fort_count,
    fort_of,
)


@cache
def example() -> GameData:
    return load_folder(resource_dir("games") / "conqueror-er" / "example-data")


def game(mode: str = "imperator", **options: str) -> ConquerorGame:
    ruleset = load_ruleset("conqueror-er")
    data = example()
    return ruleset.with_data(data, game_options(data, mode, options))  # type: ignore[attr-defined]


def dice(tag: str = "t") -> KeyedDice:
    return KeyedDice(key=f"key {tag}".encode(), hidden_key=f"hidden {tag}".encode())


def set_up(players: int = 4, mode: str = "imperator", tag: str = "t") -> tuple[ConquerorGame, GameState]:
    """A game of `players` after its setup step."""
    rules = game(mode)
    seats = list(example().setup.factions_by_players[players])
    state = rules.initial_state("g1", seats)
    step = rules.due(state)
    assert step is not None and step.phase == "setup" and step.seats == ()
    return rules, resolve_step(rules, state, step, {}, dice(tag)).state


def test_ER_2_3_control_by_units_and_own_capital() -> None:
    rules, state = set_up(4)
    side = example().map_for(4)
    capital = side.capital_of("aurel")
    assert capital is not None and controller(state, side, capital) == "aurel"
    state.army.pop(capital)  # no units: still the owner's (ER-2.3)
    assert controller(state, side, capital) == "aurel"
    state.army[capital] = Army("kesh", {"infantry": 1})  # an enemy in it controls it
    assert controller(state, side, capital) == "kesh"
    state.army.pop(capital)  # ER-2.3's Resolution: control returns at once when the enemy leaves
    assert controller(state, side, capital) == "aurel"


def test_ER_2_3_empty_area_without_capital_is_nobodys() -> None:
    rules, state = set_up(4)
    side = example().map_for(4)
    empty = next(a for a in side.areas if a not in state.army and side.areas[a].capital is None)
    assert controller(state, side, empty) is None


def test_ER_2_4_invariant_refuses_units_of_a_stranger_and_independents_at_sea() -> None:
    rules, state = set_up(4)
    assert rules.broken_invariants(state) == []
    sea = next(a for a, area in example().map_for(4).areas.items() if not area.land)
    state.army[sea] = Army(INDEPENDENT, {"infantry": 1})
    state.army["AUR"] = Army("varun", {"infantry": 1})  # varun is not in a 4-player game
    problems = " ".join(rules.broken_invariants(state))
    assert "independent army at sea" in problems and "varun, which is not in the game" in problems


def test_ER_2_7_blank_covers_a_printed_fort_all_game() -> None:
    rules, state = set_up(3)
    side = example().map_for(3)
    blanked = side.blanked[3][0]
    assert side.areas[blanked].fort != "none" and fort_of(state, side, blanked) == "none"
    state.fort_markers.append(blanked)  # ER-2.7's Resolution: a fort marker may be built there
    state.supply.fort_markers -= 1
    assert fort_of(state, side, blanked) == "small" and rules.broken_invariants(state) == []


def test_ER_2_8_fort_count_counts_controlled_forts_and_built_ones() -> None:
    rules, state = set_up(4)
    side = example().map_for(4)
    before = fort_count(state, side, "aurel")
    open_land = next(
        a for a, area in side.areas.items() if area.land and fort_of(state, side, a) == "none" and a not in state.army
    )
    state.army[open_land] = Army("aurel", {"infantry": 1})
    assert fort_count(state, side, "aurel") == before  # no fort there
    state.fort_markers.append(open_land)
    state.supply.fort_markers -= 1
    assert fort_count(state, side, "aurel") == before + 1


def test_ER_2_8_temporary_capital_adds_no_fort() -> None:
    rules, state = set_up(4)
    side = example().map_for(4)
    free = [a for a, x in side.areas.items() if x.land and a not in state.army]
    area = next(a for a in free if fort_of(state, side, a) == "none")
    state.army[area] = Army("aurel", {"infantry": 1})
    before = fort_count(state, side, "aurel")
    state.players["aurel"].temporary_capital = area
    assert fort_count(state, side, "aurel") == before


def test_ER_5_30_food_supply_sums_areas_granaries_temporary_capital_and_stored_food() -> None:
    rules, state = set_up(4)
    side = example().map_for(4)
    areas = [a for a in side.areas if controller(state, side, a) == "aurel"]
    base = sum(side.areas[a].food for a in areas)
    assert food_supply(state, side, "aurel") == base
    player = state.players["aurel"]
    player.districts["granary"] = 1
    player.temporary_capital = areas[0]
    player.stored_food = FOOD_IN_USE
    assert food_supply(state, side, "aurel") == base + 3
    assert food_limit(state, example(), "aurel") == example().tracks.max_units(base + 3)  # ER-5.31


def test_ER_1_2_invariants_hold_supply_limits_and_one_elite() -> None:
    rules, state = set_up(5)
    assert rules.broken_invariants(state) == []
    state.supply.districts["bazaar"] -= 1  # a card vanished
    state.army["AUR"].add("elite", 1)  # an elite never recruited
    problems = " ".join(rules.broken_invariants(state))
    assert "bazaar cards" in problems and "elite" in problems


def test_ER_1_1_invariant_refuses_more_units_than_the_barracks() -> None:
    rules, state = set_up(4)
    barracks = example().factions["aurel"].standard.barracks
    state.army["AUR"].units["cavalry"] = barracks.cavalry + 1
    assert any("barracks" in p for p in rules.broken_invariants(state))


def test_ER_6_10_snapshot_views_hide_hands_and_decks() -> None:
    rules, state = set_up(4)
    hand = state.players["aurel"].hand
    public = rules.snapshot(state, PUBLIC)
    assert "private" not in public and "secret" not in public
    assert public["public"]["factions"]["aurel"]["hand_size"] == 1
    assert "hand" not in public["public"]["factions"]["aurel"]
    own = rules.snapshot(state, "aurel")
    assert own["private"] == {"aurel": {"hand": hand, "heroes_down": []}} and "secret" not in own
    whole = rules.snapshot(state, EVERYONE)
    assert set(whole["private"]) == set(state.seating) and len(whole["secret"]["tactics"]) == 38 - 4


def test_snapshot_round_trips() -> None:
    rules, state = set_up(6, "conquest")
    text = rules.snapshot_text(state)
    again = rules.read_snapshot(json.loads(text))
    assert rules.snapshot_text(again) == text and again == state


def mutable_parts(value: object) -> list[object]:
    """The dicts, lists and state objects inside a state, itself included."""
    if isinstance(value, dict):
        return [value, *(part for item in value.values() for part in mutable_parts(item))]
    if isinstance(value, (list, tuple)):
        return [value] * isinstance(value, list) + [part for item in value for part in mutable_parts(item)]
    if hasattr(value, "__dataclass_fields__"):
        return [value, *(part for item in vars(value).values() for part in mutable_parts(item))]
    return []


def test_a_copy_equals_the_state_and_shares_nothing_it_could_change() -> None:
    """A check plays its orders on a copy (plans.check_plans): nothing the copy changes may reach the position."""
    rules, state = set_up(6, "conquest")
    state.army["KES"] = Army("kesh", {"infantry": 2}, {"infantry": 1})
    state.final_scores = {"kesh": {"areas": {"count": 3, "vp": 3}}}
    copy = state.copy()
    assert copy == state and rules.snapshot_text(copy) == rules.snapshot_text(state)
    assert not {id(part) for part in mutable_parts(copy)} & {id(part) for part in mutable_parts(state)}
    copy.army["KES"].units["infantry"] = 5
    copy.players["kesh"].hand.append("x")
    copy.decks.tactics.clear()
    assert state.army["KES"].units == {"infantry": 2} and "x" not in state.players["kesh"].hand
    assert state.decks.tactics


def test_read_snapshot_names_a_missing_key() -> None:
    rules, state = set_up(3)
    data = rules.snapshot(state)
    del data["public"]["hourglass"]
    with pytest.raises(PbemError, match="hourglass"):
        rules.read_snapshot(data)
