"""Conqueror: Empire Rises: rules already built but not yet named by a test (tests.rule_coverage). Each test sets
up a position with the real setup on our own example data (games/conqueror-er/example-data, invented for pbem),
resolves it through the engine and checks what the rule demands, refusals included.

Dice (ER-0.4): a dice-file number i gives face [1, 1, 2, 3, 4, 4][i - 1]; FOUR (5) is a 4, ONE (1) is a 1."""

from __future__ import annotations

from adjudicator.rulesets.conqueror.state import Army, standard_units
from tests.test_conqueror_politics import plans_position, verdict
from tests.test_conqueror_politics import play as play_plans
from tests.test_conqueror_setup import run
from tests.test_conqueror_state import example, set_up

# -- the map and its resources (ER-2) -------------------------------------------------------------------------------


def test_ER_2_5_taxation_pays_the_coins_of_areas_won_and_of_an_uncontested_empty_capital() -> None:
    rules, state = set_up(4)
    side = example().map_for(4)
    assert side.areas["AUR"].capital == "aurel" and side.areas["BRE"].coins == 2  # the example map (tests below)
    state.army.pop("AUR")  # the capital left without units: still aurel's (ER-2.3)
    state.army["BRE"] = Army("aurel", {"cavalry": 1, "infantry": 2, "archer": 1})  # an area won
    state.phase = "taxation"
    state, events = run(rules, state)
    # base income 3 (example board) + AUR 2 + BRE 2
    assert state.players["aurel"].coins == 3 + 2 + 2
    assert next(e for e in events if e.kind == "taxes" and e.seat == "aurel").data["coins"] == 7


def test_ER_2_5_an_enemy_in_the_capital_takes_its_resources() -> None:
    rules, state = set_up(4)
    kesh = state.players["kesh"].coins
    state.army["AUR"] = Army("kesh", {"infantry": 1})  # aurel's units gone, kesh holds the capital
    state.army["KES"].add("infantry", -1)
    state.phase = "taxation"
    state, _ = run(rules, state)
    assert state.players["aurel"].coins == 3  # base income only
    assert state.players["kesh"].coins == kesh + 3 + 3 + 2  # base, KES 3, AUR 2


def test_ER_2_9_food_supply_follows_the_areas_held_at_once() -> None:
    from adjudicator.rulesets.conqueror.state import food_supply

    rules, state = set_up(4)
    side = example().map_for(4)
    before = food_supply(state, side, "aurel")
    state.army["MIR"] = Army("aurel", {"infantry": 1})  # MIR: 2 food symbols
    assert food_supply(state, side, "aurel") == before + 2
    state.army["MIR"] = Army("kesh", {"infantry": 1})
    assert food_supply(state, side, "aurel") == before and food_supply(state, side, "kesh") >= 2


# -- turn order (ER-4.2) --------------------------------------------------------------------------------------------


def test_ER_4_2_turn_order_set_in_new_year_stays_for_the_round() -> None:
    rules, state = set_up(3)
    state.phase = "new_year"
    while state.phase != "campaign":
        step = rules.due(state)
        assert step is not None
        if step.seats:
            from tests.test_conqueror_politics import play as plans_play

            state = plans_play(rules, state, {}).state
        else:
            state, _ = run(rules, state)
    order = list(state.turn_order)
    first = order[0]
    # the first seat conquers forts in its campaign turn: the order of the round does not change (ER-4.2)
    state.army["BRE"] = Army(first, {"infantry": 1})
    state.army["SOL"] = Army(first, {"infantry": 1})
    step = rules.due(state)
    assert step is not None and step.seats == (first,)
    from adjudicator.engine.chance import GivenDice
    from adjudicator.engine.steps import resolve_step

    after = resolve_step(rules, state, step, {}, GivenDice(values=[])).state
    assert after.turn_order == order
    assert rules.due(after).seats == (order[1],)  # type: ignore[union-attr]


# -- Preparation (ER-6) ---------------------------------------------------------------------------------------------


def test_ER_6_1_ER_6_6_recruitment_in_any_order_standard_units_free_elite_and_hero_for_coins() -> None:
    rules, state = plans_position()
    state.players["aurel"].coins = 10
    state.players["aurel"].food_bonus = 3
    text = "RECRUIT 1 INF 1 ARC AT AUR\nRECRUIT ELITE"
    result = play_plans(rules, state, {"aurel": text})
    assert verdict(result, "aurel", 2).accepted and verdict(result, "aurel", 3).accepted
    army = result.state.army["AUR"]
    assert army.units["infantry"] == 3 and army.units["archer"] == 2 and army.count("elite") == 1
    assert result.state.players["aurel"].coins == 10 - 4  # the elite's cost only: standard units are free (ER-6.6)
    rules, state = plans_position()
    state.players["aurel"].coins = 0
    state.players["aurel"].food_bonus = 3
    free = play_plans(rules, state, {"aurel": "RECRUIT 2 INF AT AUR"})
    assert verdict(free, "aurel").accepted and free.state.players["aurel"].coins == 0  # ER-6.6: no coins needed
    broke = play_plans(rules, state, {"aurel": "RECRUIT ELITE"})
    assert not verdict(broke, "aurel").accepted  # ER-6.1: only while coins last


def test_ER_6_8_the_elite_needs_no_food_and_is_not_an_excess_unit() -> None:
    rules, state = plans_position()
    state.army["KES"].add("elite", 1)
    state.players["kesh"].elite = "recruited"
    assert standard_units(state, "kesh") == 4  # kesh's food 1 allows 4 standard units: exactly full
    result = play_plans(rules, state, {})
    assert not [e for e in result.events if e.kind == "excess_removed" and e.seat == "kesh"]
    assert result.state.army["KES"].count("elite") == 1 and result.state.army["KES"].total == 5
