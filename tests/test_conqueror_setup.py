"""Conqueror: Empire Rises: setup (ER-3) and the round's steps that resolve without orders (ER-4, ER-5.2, ER-10).

Every game here is set up by the real setup step on our own example data, with keyed dice."""

from __future__ import annotations

import json

import pytest

from adjudicator.engine.chance import GivenDice
from adjudicator.engine.steps import resolve_step
from adjudicator.errors import PbemError
from adjudicator.rulesets.conqueror import rounds
from adjudicator.rulesets.conqueror.game import ConquerorGame
from adjudicator.rulesets.conqueror.setup import game_options
from adjudicator.rulesets.conqueror.state import (
    DYNASTY_ACTIVE,
    DYNASTY_FLIPPED,
    FOOD_IN_USE,
    FOOD_NONE,
    INDEPENDENT,
    Army,
    GameState,
    capital_owner,
    controlled_areas,
    fort_count,
    fort_of,
)
from tests.test_conqueror_state import dice, example, game, set_up


def run(rules: ConquerorGame, state: GameState, tag: str = "r") -> tuple[GameState, list]:
    """Resolve the step due, which must need no orders."""
    step = rules.due(state)
    assert step is not None and step.seats == ()
    result = resolve_step(rules, state, step, {}, dice(f"{tag}{step.number}"))
    return result.state, result.events


def to_phase(rules: ConquerorGame, state: GameState, phase: str) -> GameState:
    while state.phase != phase:
        state = buy_nothing(rules, state) if state.phase == "purchases" else run(rules, state)[0]
    return state


def buy_nothing(rules: ConquerorGame, state: GameState) -> GameState:
    """Conquest mode's purchases step (ER-3.11) with no orders: ER-14.2's default, nothing bought."""
    step = rules.due(state)
    assert step is not None and step.phase == "purchases"
    return resolve_step(rules, state, step, {}, dice(f"p{step.number}")).state


# -- ER-3 -------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_ER_3_3_factions_by_player_count_and_ER_3_2_board_side(players: int) -> None:
    rules, state = set_up(players)
    assert sorted(state.seating) == sorted(example().setup.factions_by_players[players])
    side = example().map_for(players)
    assert side.side == ("3-4" if players <= 4 else "5-6")
    assert all(area in side.areas for area in state.army)
    assert rules.broken_invariants(state) == []


def test_ER_3_2_refuses_two_or_seven_players_and_ER_3_3_wrong_factions() -> None:
    rules = game()
    with pytest.raises(PbemError, match="3 to 6 players"):
        rules.initial_state("g", ["aurel", "kesh"])
    with pytest.raises(PbemError, match=r"ER-3\.3"):
        rules.initial_state("g", ["aurel", "kesh", "varun"])


def test_ER_3_9_turn_order_and_hourglass_ER_3_10_seating() -> None:
    rules, state = set_up(4)
    order = [f for f in example().setup.turn_order if f in state.players]
    assert state.turn_order == order and list(state.seating) == order
    assert state.hourglass == example().setup.start_player


def test_ER_3_7_starting_units_per_mode_and_trade_marker() -> None:
    for mode in ("imperator", "conquest"):
        rules, state = set_up(4, mode)
        for start in example().factions["aurel"].standard.start[(mode, 4)]:
            army = state.army[start.area]
            assert army.owner == "aurel"
            assert [army.count(k) for k in ("cavalry", "infantry", "archer")] == [
                start.units.of(k) for k in ("cavalry", "infantry", "archer")
            ]
        assert all(p.trade == 1 and p.elite == "board" and p.agent is None for p in state.players.values())


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_ER_3_8_independent_armies_per_player_count(players: int) -> None:
    rules, state = set_up(players)
    placed = {a: x for a, x in state.army.items() if x.owner == INDEPENDENT}
    expected = example().map_for(players).independents.get(players, ())
    assert sorted(placed) == sorted(i.area for i in expected)
    for independent in expected:
        assert placed[independent.area].count("cavalry") == independent.units.cavalry
        assert placed[independent.area].count("infantry") == independent.units.infantry


def test_ER_3_4_blanks_at_three_players_only_where_the_data_says() -> None:
    _, state3 = set_up(3)
    _, state4 = set_up(4)
    blanked = example().map_for(3).blanked[3]
    side = example().map_for(3)
    assert all(fort_of(state3, side, a) == "none" for a in blanked)
    assert any(fort_of(state4, side, a) != "none" for a in blanked)


def test_ER_3_5_supply_and_one_tactic_card_each_drawn_hidden() -> None:
    rules = game()
    state = rules.initial_state("g", list(example().setup.factions_by_players[5]))
    step = rules.due(state)
    assert step is not None
    chance = dice("deal")
    result = resolve_step(rules, state, step, {}, chance)
    after = result.state
    assert after.supply.fort_markers == 5 and after.supply.food_markers == 5
    assert all(v == 5 for v in after.supply.districts.values()) and all(v == 5 for v in after.supply.upgrades.values())
    assert all(len(p.hand) == 1 for p in after.players.values())
    assert len(after.decks.tactics) == 38 - 5 and sorted(after.decks.automa) == sorted(
        a.id for a in example().cards.automa
    )
    assert chance.log == [] and chance.hidden_log  # every shuffle is a hidden draw
    private = [e for e in result.events if e.kind == "tactic_drawn"]
    assert all(e.visible_to == frozenset({e.seat}) for e in private) and len(private) == 5


def test_ER_3_6_chronicle_deck_per_mode_levels_stacked() -> None:
    levels = {c.id: c.level for c in example().cards.chronicles}
    for mode, size in (("imperator", 9), ("conquest", 5)):
        _, state = set_up(4, mode)
        deck = state.decks.chronicles
        assert len(deck) == size and len(set(deck)) == size
        assert [levels[c] for c in deck] == sorted(levels[c] for c in deck)  # I on top, then II, then III


def test_ER_0_5_setup_shuffles_in_order_from_a_dice_file() -> None:
    """A dice file's numbers go: chronicle levels I, II, III, then the tactic deck, then the automa deck; one
    number short is a clear error."""
    rules = game()
    state = rules.initial_state("g", list(example().setup.factions_by_players[3]))
    step = rules.due(state)
    assert step is not None
    sizes = [4, 3, 4, 38, 5]  # the example's chronicles per level, the tactic deck, the automa deck
    numbers = [1] * sum(size - 1 for size in sizes)
    chance = GivenDice(values=numbers)
    result = resolve_step(rules, state, step, {}, chance)
    purposes = [purpose.rsplit(" ", 1)[0] for purpose, _ in chance.hidden_log]
    expected = ["shuffle chronicles level 1"] * 3 + ["shuffle chronicles level 2"] * 2
    expected += ["shuffle chronicles level 3"] * 3 + ["shuffle tactic deck"] * 37 + ["shuffle automa deck"] * 4
    assert purposes == expected and chance.unused == 0
    tactics = [t.id for t in example().cards.tactics for _ in range(t.count)]
    dealt = [result.state.players[f].hand[0] for f in result.state.turn_order]
    assert sorted(dealt + result.state.decks.tactics) == sorted(tactics)
    with pytest.raises(PbemError, match="ran out"):
        resolve_step(rules, state, step, {}, GivenDice(values=numbers[:-1]))


def test_ER_3_11_conquest_gives_ten_coins() -> None:
    _, imperator = set_up(4, "imperator")
    _, conquest = set_up(4, "conquest")
    assert all(p.coins == 0 for p in imperator.players.values())
    assert all(p.coins == 10 for p in conquest.players.values())


def test_ER_3_13_emperor_is_a_synonym_and_unknown_mode_is_refused() -> None:
    assert game_options(example(), "emperor").mode == "imperator"
    with pytest.raises(PbemError, match="unknown mode 'kaiser'"):
        game_options(example(), "kaiser")
    with pytest.raises(PbemError, match="colour: no such option.*hand_limit=many: write a whole number"):
        game_options(example(), None, {"colour": "red", "hand_limit": "many"})


# -- the round (ER-4) -----------------------------------------------------------------------------------------


def test_ER_4_1_steps_of_a_round_and_the_mail_pace() -> None:
    rules, state = set_up(4)
    steps = rules.coming_steps(state)
    phases = [s.phase for s in steps]
    assert phases == ["taxation", "plans"] + ["campaign"] * 4 + ["end_of_round"]
    plans = steps[1]
    assert plans.sealed and sorted(plans.seats) == sorted(state.seating)
    assert [s.seats[0] for s in steps if s.phase == "campaign"] == state.turn_order
    per_seat = {seat: sum(seat in s.seats for s in steps) for seat in state.seating}
    assert set(per_seat.values()) == {2}  # at most two mails per player per round


def test_ER_4_1_a_round_without_orders_passes_plans_and_each_campaign_turn_by_the_defaults() -> None:
    rules, state = set_up(4)
    state = to_phase(rules, state, "plans")
    step = rules.due(state)
    assert step is not None and step.phase == "plans"
    state = resolve_step(rules, state, step, {}, dice()).state  # built: tests/test_conqueror_plans.py
    assert state.phase == "campaign"
    step = rules.due(state)
    assert step is not None
    after = resolve_step(rules, state, step, {}, dice()).state
    assert after.phase == "campaign" and after.campaign_index == 1


def test_ER_4_5_chronicle_in_round_one_by_mode_and_option() -> None:
    _, conquest = set_up(4, "conquest")
    assert conquest.phase == "purchases"  # ER-3.11 comes first, then round 1
    rules = game("conquest")
    conquest = buy_nothing(rules, conquest)
    assert conquest.phase == "new_year"
    state, events = run(rules, conquest)
    assert state.decks.chronicle is not None and len(state.decks.chronicles) == 4
    assert state.hourglass == conquest.hourglass  # round 1: no hourglass, only the chronicle
    _, imperator = set_up(4, "imperator")
    assert imperator.phase == "taxation"
    rules = game("imperator", chronicle_round1="on")
    state = rules.initial_state("g", list(example().setup.factions_by_players[4]))
    state, _ = run(rules, state)
    assert state.phase == "new_year"


def test_ER_5_2_taxation_base_income_area_coins_bazaars_temporary_capital() -> None:
    rules, state = set_up(4)
    side = example().map_for(4)
    player = state.players["aurel"]
    player.districts["bazaar"] = 1
    state.supply.districts["bazaar"] -= 1
    coins = sum(side.areas[a].coins for a in controlled_areas(state, side, "aurel"))
    state, events = run(rules, state)
    assert state.players["aurel"].coins == 3 + coins + 2
    assert state.phase == "plans"
    assert any(e.kind == "taxes" and e.seat == "aurel" for e in events)


def test_ER_4_4_1_hourglass_tie_passes_clockwise_holder_last() -> None:
    rules, state = set_up(4)
    data = example()
    side = data.map_for(4)
    assert len({fort_count(state, side, f) for f in state.in_play()}) == 1  # each holds its capital only
    foods = {f: rounds.food_supply(state, side, f) for f in state.in_play()}
    for faction in state.in_play():  # tie every player on food too
        state.players[faction].food_bonus = max(foods.values()) - foods[faction]
    holder = state.hourglass
    seating = list(state.seating)
    after = seating[(seating.index(holder) + 1) % 4]
    assert rounds.hourglass_holder(state, data) == after
    for faction in state.in_play():
        if faction != holder:
            state.players[faction].food_bonus += 1  # only the holder still has the lowest food
    assert rounds.hourglass_holder(state, data) == holder  # reached last, but the only one left


def test_ER_4_4_1_fewest_forts_wins_the_hourglass() -> None:
    rules, state = set_up(4)
    data = example()
    side = data.map_for(4)
    last = state.seating[-1]
    for faction in state.in_play():
        if faction == last:
            continue
        area = next(
            a
            for a, x in side.areas.items()
            if x.land
            and x.fort != "none"
            and a not in state.army
            and controlled_areas(state, side, faction)
            and fort_of(state, side, a) != "none"
            and capital_owner(state, side, a) is None
        )
        state.army[area] = Army(faction, {"infantry": 1})
    assert rounds.hourglass_holder(state, data) == last


def test_ER_4_4_1_lowest_food_breaks_a_fort_tie() -> None:
    rules, state = set_up(4)
    data = example()
    side = data.map_for(4)
    forts = {f: fort_count(state, side, f) for f in state.in_play()}
    fewest = [f for f in state.in_play() if forts[f] == min(forts.values())]
    for f in fewest:
        state.players[f].food_bonus = 10
    hungry = fewest[-1]
    state.players[hungry].food_bonus = -5
    assert rounds.hourglass_holder(state, data) == hungry


def test_ER_4_4_2_turn_order_a_permutation_else_unchanged() -> None:
    rules, state = set_up(4)
    order = list(reversed(state.turn_order))
    assert rounds.chosen_turn_order(state, order) == order
    assert rounds.chosen_turn_order(state, order[:3]) == state.turn_order  # ER-14.3: not a permutation
    assert rounds.chosen_turn_order(state, None) == state.turn_order


def test_ER_4_4_new_year_agents_home_chronicle_drawn() -> None:
    rules, state = set_up(4)
    state.players["aurel"].agent = "bazaar-1"
    state.round, state.phase = 2, "new_year"
    top = state.decks.chronicles[0]
    state, events = run(rules, state)
    assert state.players["aurel"].agent is None and state.decks.chronicle == top
    assert {"turn_order_set", "chronicle_drawn"} <= {e.kind for e in events}
    assert state.phase == "taxation"


def test_ER_11_5_dynasty_only_from_its_round_and_with_few_forts() -> None:
    rules, state = set_up(4)
    data, options = example(), rules.options
    assert not rounds.may_trigger_dynasty(state, data, options, "aurel")  # round 1
    state.round = 2
    assert rounds.may_trigger_dynasty(state, data, options, "aurel")
    state.players["aurel"].dynasty = DYNASTY_FLIPPED  # used once already
    assert not rounds.may_trigger_dynasty(state, data, options, "aurel")


def test_ER_4_6_end_of_round_stored_food_temporary_capital_dynasty_then_next_round() -> None:
    rules, state = set_up(4)
    player = state.players["aurel"]
    player.stored_food = FOOD_IN_USE
    state.supply.food_markers -= 1
    player.dynasty = DYNASTY_ACTIVE
    player.temporary_capital = "SOL"  # aurel still controls its capital (a large fort): ER-11.4 returns it
    state.phase = "end_of_round"
    state, events = run(rules, state)
    player = state.players["aurel"]
    assert player.stored_food == FOOD_NONE and state.supply.food_markers == 4  # ER-5.33
    assert player.temporary_capital is None and player.dynasty == DYNASTY_FLIPPED
    assert state.round == 2 and state.phase == "new_year" and not state.ended
    kinds = ["stored_food_used_up", "temporary_capital_returned", "effect_applied", "dynasty_flipped"]
    assert [e.kind for e in events][:4] == kinds  # (3) the dynasty's end-of-round loss, then the flip (ER-11.6)


def test_ER_10_1_fort_victory_at_end_of_round() -> None:
    rules, state = set_up(4, "conquest")
    data = example()
    side = data.map_for(4)
    forts = [a for a, x in side.areas.items() if x.land and x.fort != "none" and x.capital is None]
    for area in forts:
        if state.army.get(area, Army("aurel")).owner in ("aurel", INDEPENDENT):
            state.army[area] = Army("aurel", {"infantry": 1})
    assert fort_count(state, side, "aurel") >= 5
    state.phase = "end_of_round"
    state, events = run(rules, state)
    assert state.ended and state.winners == ["aurel"] and rules.due(state) is None
    assert events[-1].kind == "game_won" and events[-1].data["forts"] is True


def test_ER_10_2_last_round_scores_decide() -> None:
    rules, state = set_up(4, "conquest")
    state.round, state.phase = 5, "end_of_round"
    state.players["thal"].coins = 50  # ER-10.3: 1 VP per 5 coins
    state, events = run(rules, state)
    assert state.ended and state.winners == ["thal"]
    scores = events[-1].data["scores"]
    assert scores["thal"] == max(scores.values())


def test_ER_10_5_tie_most_forts_then_coins_then_shared() -> None:
    rules, state = set_up(4, "conquest")
    data = example()
    scores = dict.fromkeys(state.in_play(), 7)
    forts = {f: fort_count(state, data.map_for(4), f) for f in state.in_play()}
    tied = [f for f in state.in_play() if forts[f] == max(forts.values())]
    assert rounds.best_by_score(state, data, scores, state.in_play()) == tied
    state.players[tied[-1]].coins += 1
    assert rounds.best_by_score(state, data, scores, tied) == [tied[-1]]


def test_ER_4_7_elimination_removes_a_player_with_no_units_and_no_area() -> None:
    rules, state = set_up(4)
    side = example().map_for(4)
    capital = side.capital_of("thal")
    assert capital is not None
    for area in [a for a, x in state.army.items() if x.owner == "thal"]:
        state.army.pop(area)
    state.army[capital] = Army("kesh", {"infantry": 1})  # the capital taken: no unit, no area
    state, events = run(rules, state)  # the taxation step checks elimination after it
    assert state.players["thal"].eliminated and "thal" not in state.turn_order
    assert state.players["thal"].hand == [] and any(e.kind == "eliminated" for e in events)
    assert rules.broken_invariants(state) == []
    # the position after it is read back as written: the seating keeps thal, the turn order does not (ER-7.1)
    assert rules.read_snapshot(json.loads(rules.snapshot_text(state))) == state


def test_ER_4_7_own_capital_without_units_is_not_elimination() -> None:
    rules, state = set_up(4)
    for area in [a for a, x in state.army.items() if x.owner == "thal"]:
        state.army.pop(area)
    state, _ = run(rules, state)
    assert not state.players["thal"].eliminated


def test_whole_round_of_steps_keeps_the_invariants_and_the_key_chain_repeats() -> None:
    first = set_up(6, "conquest", tag="same")[1]
    again = set_up(6, "conquest", tag="same")[1]
    other = set_up(6, "conquest", tag="other")[1]
    assert first == again and first.decks.tactics != other.decks.tactics
    rules = game("conquest")
    state = to_phase(rules, first, "plans")
    assert rules.broken_invariants(state) == []
