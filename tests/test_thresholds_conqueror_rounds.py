"""Conqueror: Empire Rises, the round's steps without orders (rounds.py) pinned where a mutation run found them
unpinned: New Year (ER-4.4), the end of the round (ER-4.6, ER-11.4, ER-5.33) and the final scores (ER-10.3,
ER-10.5). Each test resolves the real step of a real 4-seat game on our example data, at the boundary and one
step past it."""

from __future__ import annotations

import pytest

from adjudicator.rulesets.conqueror.game import ConquerorGame
from adjudicator.rulesets.conqueror.rounds import may_trigger_dynasty
from adjudicator.rulesets.conqueror.setup import options_from_json
from adjudicator.rulesets.conqueror.state import (
    DYNASTY_ACTIVE,
    DYNASTY_FLIPPED,
    DYNASTY_UNUSED,
    FOOD_IN_USE,
    FOOD_NONE,
    Army,
    GameState,
    food_supply,
    fort_count,
    fort_of,
)
from tests.test_conqueror_seas import sod_game
from tests.test_conqueror_setup import run
from tests.test_conqueror_state import example, game, set_up
from tests.test_thresholds_conqueror import take


def tied(state: GameState) -> None:
    """Every seat ties on forts (its capital) and food (ER-4.4.1's first two keys)."""
    side = example().map_for(state.players_count)
    foods = {f: food_supply(state, side, f) for f in state.in_play()}
    for faction in state.in_play():
        state.players[faction].food_bonus = max(foods.values()) - foods[faction]


def new_year(round_: int) -> tuple[ConquerorGame, GameState]:
    rules, state = set_up(4)
    state.round, state.phase = round_, "new_year"
    return rules, state


def of(events: list, kind: str) -> list[tuple[object, object]]:
    return [(e.seat, e.data) for e in events if e.kind == kind]


# -- ER-4.4: New Year from round 2 on ----------------------------------------------------------------------------
def test_ER_4_4_new_year_of_round_2_passes_the_hourglass_keeps_the_order_and_calls_the_agents_home() -> None:
    rules, state = new_year(2)
    tied(state)
    seating, order = list(state.seating), list(state.turn_order)
    state.hourglass = seating[2]
    for faction in state.in_play():
        state.players[faction].agent = "trade"
    card = state.decks.chronicles.pop(0)
    state.decks.chronicle, top = card, state.decks.chronicles[0]
    data, options = example(), options_from_json(state.options)
    assert any(may_trigger_dynasty(state, data, options, f) for f in state.in_play())
    after, events = run(rules, state)
    assert after.hourglass == seating[3]  # ER-4.4.1: the first tied one clockwise after the holder
    assert of(events, "hourglass_passed") == [(seating[3], {"from": seating[2]})]
    assert of(events, "turn_order_set") == [(seating[3], {"order": order})]  # ER-14.3: no ORDER, no change
    assert after.turn_order == order
    assert all(after.players[f].agent is None for f in after.in_play())  # ER-4.4.3
    assert after.decks.chronicles_done[-1] == card and after.decks.chronicle == top  # ER-4.4.4
    assert of(events, "chronicle_drawn") == [(None, {"card": top, "round": 2})]
    # ER-14.4: no DYNASTY answer, no dynasty card triggered, though the seats may
    assert not of(events, "dynasty_triggered") and all(p.dynasty == DYNASTY_UNUSED for p in after.players.values())
    assert after.phase == "taxation"


def test_ER_4_4_1_a_holder_who_keeps_the_hourglass_passes_nothing() -> None:
    rules, state = new_year(2)
    tied(state)
    seating = list(state.seating)
    state.hourglass = seating[1]
    for faction in seating:
        state.players[faction].food_bonus += faction != seating[1]  # the holder alone has the lowest food
    after, events = run(rules, state)
    assert after.hourglass == seating[1] and not of(events, "hourglass_passed")
    assert of(events, "turn_order_set") == [(seating[1], {"order": list(state.turn_order)})]


def test_ER_4_4_1_fewest_forts_come_before_the_lowest_food() -> None:
    rules, state = new_year(2)
    tied(state)
    seating = list(state.seating)
    side = example().map_for(4)
    for faction in seating[1:]:
        take(state, faction, "small", 1)
    state.players[seating[0]].food_bonus += 5  # the most food, but the fewest forts
    assert fort_count(state, side, seating[0]) < min(fort_count(state, side, f) for f in seating[1:])
    after, _ = run(rules, state)
    assert after.hourglass == seating[0]


def test_ER_4_5_round_1s_new_year_draws_the_chronicle_only() -> None:
    rules, state = new_year(1)
    tied(state)
    seating, order = list(state.seating), list(state.turn_order)
    state.hourglass = seating[2]  # round 2 would pass it to seating[3]
    after, events = run(rules, state)
    assert after.hourglass == seating[2] and after.turn_order == order
    assert not of(events, "hourglass_passed") and not of(events, "turn_order_set")
    assert of(events, "chronicle_drawn") == [(None, {"card": after.decks.chronicle, "round": 1})]


@pytest.mark.parametrize("in_force", [False, True])
def test_ER_4_4_4_the_chronicle_in_force_is_set_aside_and_an_empty_deck_draws_none(in_force: bool) -> None:
    rules, state = new_year(2)
    done = list(state.decks.chronicles_done)
    card = state.decks.chronicles.pop(0)
    state.decks.chronicle = card if in_force else None
    if not in_force:
        done.append(card)
        state.decks.chronicles_done.append(card)
    state.decks.chronicles_done += state.decks.chronicles
    done += state.decks.chronicles
    state.decks.chronicles = []
    after, events = run(rules, state)
    assert after.decks.chronicle is None and not of(events, "chronicle_drawn")
    assert after.decks.chronicles_done == done + ([card] if in_force else [])


# -- ER-4.6 (ER-5.33): stored food in use is used up at the end of the round ---------------------------------------
def test_ER_5_33_stored_food_in_use_is_used_up_at_the_end_of_the_round_and_held_food_is_kept() -> None:
    rules, state = set_up(4)
    state.phase = "end_of_round"
    state.players["aurel"].stored_food = FOOD_IN_USE
    state.supply.food_markers -= 1
    markers = state.supply.food_markers
    after, events = run(rules, state)
    assert of(events, "stored_food_used_up") == [("aurel", {})]
    assert after.players["aurel"].stored_food == FOOD_NONE and after.supply.food_markers == markers + 1


# -- ER-11.4: the temporary capital returns when its player regains a large fort ------------------------------------
@pytest.mark.parametrize(("fort", "returned"), [("small", False), ("large", True)])
def test_ER_11_4_a_small_fort_keeps_the_temporary_capital_and_a_large_fort_returns_it(
    fort: str, returned: bool
) -> None:
    rules, state = set_up(4)
    side = example().map_for(4)
    capital = side.capital_of("aurel")
    assert capital is not None
    state.army[capital] = Army("thal", {"infantry": 1})  # aurel's capital held by thal
    state.players["aurel"].temporary_capital = "SOL"
    state.army["SOL"] = Army("aurel", {"infantry": 1})
    assert fort_of(state, side, "SOL") == "small"
    take(state, "aurel", fort, 1)  # another area aurel controls: a small fort, or a large one
    state.phase = "end_of_round"
    after, events = run(rules, state)
    assert (after.players["aurel"].temporary_capital is None) is returned
    assert of(events, "temporary_capital_returned") == ([("aurel", {"area": "SOL"})] if returned else [])


# -- ER-4.1, ER-3.11, ER-4.5: the steps of the round and each seat's next step ---------------------------------------
def test_ER_4_1_from_the_second_campaign_turn_the_steps_left_and_each_seats_next_step() -> None:
    rules, state = set_up(4)
    state.phase, state.campaign_index, state.steps_done = "campaign", 1, 7
    order = state.in_play()
    steps = rules.coming_steps(state)
    assert [(s.number, s.phase, s.seats) for s in steps] == [
        (8, "campaign", (order[1],)),
        (9, "campaign", (order[2],)),
        (10, "campaign", (order[3],)),
        (11, "end_of_round", ()),
    ]
    # the first seat's campaign turn is over: its next step is the plans step after New Year and Taxation (ER-4.6)
    assert rules.next_steps(state) == {order[0]: 14, order[1]: 8, order[2]: 9, order[3]: 10}


@pytest.mark.parametrize(("mode", "last"), [("imperator", 10), ("conquest", 5)])
def test_ER_10_2_in_the_last_round_a_seat_whose_turn_is_over_has_no_next_step(mode: str, last: int) -> None:
    rules, state = set_up(4, mode)
    state.phase, state.campaign_index, state.steps_done = "campaign", 1, 7
    first = state.in_play()[0]
    for round_, more in ((last - 1, True), (last, False)):
        state.round = round_
        assert (first in rules.next_steps(state)) is more, (mode, round_)
        assert len(rules.next_steps(state)) == 3 + more


@pytest.mark.parametrize(
    ("mode", "options", "phase", "phases"),
    [
        ("imperator", {}, "setup", ["setup", "taxation"]),
        ("imperator", {"chronicle_round1": "on"}, "setup", ["setup", "new_year", "taxation"]),
        ("conquest", {}, "setup", ["setup", "purchases", "new_year", "taxation"]),
        ("conquest", {"chronicle_round1": "off"}, "setup", ["setup", "purchases", "taxation"]),
        ("conquest", {}, "purchases", ["purchases", "new_year", "taxation"]),
    ],
)
def test_ER_3_11_ER_4_5_the_steps_before_round_1s_plans(
    mode: str, options: dict[str, str], phase: str, phases: list[str]
) -> None:
    rules = game(mode, **options)
    state = rules.initial_state("g1", list(example().setup.factions_by_players[4]))
    state.phase = phase
    steps = rules.coming_steps(state)
    assert [s.phase for s in steps] == [*phases, "plans", *["campaign"] * 4, "end_of_round"]
    assert [s.number for s in steps] == list(range(1, len(steps) + 1))
    assert [s.sealed for s in steps] == [p in ("plans", "purchases") for p in [s.phase for s in steps]]


# -- ER-4.6: the end of the round's events ---------------------------------------------------------------------------
def test_ER_4_6_ER_11_6_the_round_ends_with_the_dynasty_flipped_and_the_next_round_announced() -> None:
    rules, state = set_up(4)
    side = example().map_for(4)
    state.phase = "end_of_round"
    state.players["aurel"].dynasty = DYNASTY_ACTIVE
    take(state, "kesh", "small", 1)
    after, events = run(rules, state)
    assert of(events, "dynasty_flipped") == [("aurel", {})] and after.players["aurel"].dynasty == DYNASTY_FLIPPED
    forts = {f: fort_count(after, side, f) for f in after.in_play()}
    assert forts["kesh"] == forts["aurel"] + 1
    assert of(events, "round_begins") == [(None, {"round": 2, "forts": forts})]


def test_ER_10_2_the_last_round_ends_the_game_and_names_the_winners() -> None:
    rules, state = set_up(4, "conquest")
    state.phase, state.round = "end_of_round", 4
    after, events = run(rules, state)
    assert not after.ended and of(events, "round_begins")
    after.phase = "end_of_round"
    ended, events = run(rules, after)
    (won,) = [e for e in events if e.kind == "game_won"]
    assert ended.ended and won.data["winners"] == ended.winners and won.data["forts"] is False


# -- ER-10.3, ER-10.5: the final score sheet and the winner by VP -------------------------------------------------
def test_ER_10_3_ER_10_5_a_large_fort_a_temporary_capital_and_the_most_vp_win_over_the_most_forts() -> None:
    rules, state = set_up(4, "conquest")
    data = example()
    side = data.map_for(4)
    capital = side.capital_of("aurel")
    assert capital is not None
    state.army[capital] = Army("thal", {"infantry": 1})  # aurel plays on from a temporary capital (ER-11.1)
    state.players["aurel"].temporary_capital = "SOL"
    state.army["SOL"] = Army("aurel", {"infantry": 1})
    take(state, "kesh", "large", 1)  # BRE, the example map's one large fort that is no capital
    take(state, "kesh", "small", 1)
    state.players["aurel"].vp = 40
    state.round, state.phase = data.tracks.rounds["conquest"], "end_of_round"
    forts = {f: fort_count(state, side, f) for f in state.in_play()}
    assert forts["kesh"] > max(v for f, v in forts.items() if f != "kesh")
    after, events = run(rules, state)
    sheets = after.final_scores
    assert sheets["kesh"]["large_forts"] == {"count": 1, "vp": 6}
    assert sheets["aurel"]["temporary_capital"] == {"count": 1, "vp": data.tracks.scoring.temporary_capital_vp}
    assert data.tracks.scoring.temporary_capital_vp != 0
    assert after.winners == ["aurel"]  # ER-10.5: most VP first; kesh has the most forts


def test_ER_12_6_ER_12_7_megaproject_cards_count_as_districts_or_upgrades_by_slot_and_score_their_vp() -> None:
    rules, state = sod_game(4)
    assert state.seas is not None
    wonder = next(c for c in state.seas.cards if c.startswith("wonder"))
    temple = next(c for c in state.seas.cards if c.startswith("temple"))
    state.seas.cards = [c for c in state.seas.cards if c not in (wonder, temple)]
    state.seas.built["aurel"] = {wonder: "district", temple: "upgrade"}
    state.seas.wonders = [wonder]
    aurel = state.players["aurel"]
    state.round, state.phase = 10, "end_of_round"
    after, _ = run(rules, state)
    sheet = after.final_scores["aurel"]
    assert sheet["districts"]["count"] == sum(aurel.districts.values()) + 1
    assert sheet["upgrades"]["count"] == len(aurel.upgrades) + 1
    assert sheet["megaprojects"] == {"count": 2, "vp": 15}  # the first wonder (ER-12.7); the temple's VP: its effect
    assert "kesh" in after.final_scores and after.final_scores["kesh"]["megaprojects"] == {"count": 0, "vp": 0}


# -- ER-4.7: elimination -------------------------------------------------------------------------------------------
def test_ER_4_7_a_player_without_units_and_areas_is_out_and_its_hand_joins_the_discards() -> None:
    rules, state = set_up(4)
    side = example().map_for(4)
    capital = side.capital_of("aurel")
    assert capital is not None
    for area in [a for a, army in state.army.items() if army.owner == "aurel"]:
        del state.army[area]
    state.army[capital] = Army("thal", {"infantry": 1})
    hand, discards = list(state.players["aurel"].hand), list(state.decks.tactic_discards)
    assert hand  # cards to discard (ER-4.7)
    state.decks.tactic_discards.append("kept")
    after, events = run(rules, state)
    assert of(events, "eliminated") == [("aurel", {})] and after.players["aurel"].eliminated
    assert after.decks.tactic_discards == [*discards, "kept", *hand] and after.players["aurel"].hand == []
    assert "aurel" not in after.turn_order and "kesh" in after.turn_order
