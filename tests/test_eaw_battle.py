"""The open battle of Empires of the Ancient World (EAW-8.1 to EAW-8.13, EAW-12.4 to EAW-12.8, EAW-13.6 to
EAW-13.16): each test builds a position on the small test map (tests/eaw_helpers.py), fights the real battle
(battle.fight) with given dice and checks what the rule demands. Red attacks Raetia (blue) from Gallia unless a
test says otherwise.

Test cards (eaw_helpers): pike spear slow melee 4; blade sword slow melee 5; archer fast 3 (5 against mounted);
rider mounted fast 4; slinger foot fast 1 + d6; guard_a empire spear melee 3; guard_b 4; horse_a empire mounted
fast 3; general: military leader (free order, ambush, melee +1); builder: engineer (keeps a captured fort)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

import pytest

from adjudicator.engine.chance import GivenDice
from adjudicator.rulesets.empires import standing
from adjudicator.rulesets.empires.battle import BattleOutcome, fight, loss_order
from adjudicator.rulesets.empires.battle_stacks import OPEN, default, eligible, read_cards
from adjudicator.rulesets.empires.data import MOUNTAIN, Effect, GameData
from adjudicator.rulesets.empires.orders import (
    AmbushOrder,
    Attack,
    DefendOrder,
    LossesOrder,
    MarkersOrder,
    StackOrder,
)
from adjudicator.rulesets.empires.play import Play
from adjudicator.rulesets.empires.state import GameState
from tests.eaw_helpers import play, position, small_data

# five distinct attacker cards and five defender cards, each a known value
WEAK = ["guard_a", "guard_a#2", "horse_a"]  # empire cards: 3, 3, 3


def battle(
    hands: Mapping[str, Iterable[str]],
    *,
    data: GameData | None = None,
    target: str = "RAE",
    origin: str = "GAL",
    control: Mapping[str, Any] | None = None,
    stack: Iterable[str] = (),
    plans: Mapping[str, Iterable[Any]] | None = None,
    dice: Iterable[int] = (),
    crossing: Iterable[str] = (),
    answers: Mapping[str, Mapping[str, str]] | None = None,
    ask: bool = False,
    **more: Any,
) -> tuple[BattleOutcome, Play, GameState]:
    """Red attacks `target` from `origin`; `plans`: standing orders by seat; `more`: position() arguments."""
    data = data or small_data()
    state = position(data, control=control or {"GAL": "red", "RAE": "blue"}, hands=hands, **more)
    for seat, orders in (plans or {}).items():
        for order in orders:
            assert standing.store(state.players[seat], order)
    game = play(state, data, dice=dice, answers=answers or {}, ask=ask)
    outcome = fight(game, "red", target, Attack(target, origin, tuple(stack)), frozenset(crossing))
    assert isinstance(game.dice, GivenDice) and game.dice.unused == 0, "every die given is used"
    return outcome, game, state


def kinds(game: Play, kind: str) -> list[dict[str, Any]]:
    return [e.data | {"seat": e.seat, "public": e.public} for e in game.events if e.kind == kind]


def revealed(game: Play, seat: str) -> list[str]:
    return [e.data["card"] for e in game.events if e.kind == "card_revealed" and e.seat == seat]


def stack_of(game: Play, seat: str) -> list[str]:
    return next(e.data["cards"] for e in game.events if e.kind == "stack_formed" and e.seat == seat)


# -- EAW-8.1: the open stack ------------------------------------------------------------------------------------
SIX = ["rider", "archer", "pike", "pike#2", "blade", "blade#2"]


def test_EAW_8_1_an_open_stack_of_5_is_taken_and_one_of_6_is_refused_for_the_default() -> None:
    five = ["rider", "archer", "pike", "pike", "blade"]
    _, game, _ = battle({"red": SIX, "blue": WEAK}, stack=five, dice=[1, 1])
    assert stack_of(game, "red") == five
    assert not kinds(game, "stack_refused")
    _, game, _ = battle({"red": SIX, "blue": WEAK}, stack=[*five, "blade"], dice=[1, 1])
    refused = kinds(game, "stack_refused")
    assert [(r["seat"], r["public"], r["rule"]) for r in refused] == [("red", True, "EAW-8.21")]
    reason = kinds(game, "stack_refused_reason")[0]
    assert not reason["public"] and "more than 5" in reason["reason"]
    # the default (EAW-12.6): the five of highest value, fast first, each highest first
    assert stack_of(game, "red") == ["rider", "blade", "blade", "pike", "pike"]


def test_EAW_8_1_fast_cards_go_above_slow_ones_unless_a_military_leader_orders_freely() -> None:
    slow_first = ["pike", "rider", "archer", "blade", "blade"]
    _, game, _ = battle({"red": SIX, "blue": WEAK}, stack=slow_first, dice=[1, 1])
    assert kinds(game, "stack_refused") and "fast cards" in kinds(game, "stack_refused_reason")[0]["reason"]
    _, game, _ = battle({"red": SIX, "blue": WEAK}, stack=slow_first, personalities={"red": ["general"]}, dice=[1, 1])
    assert not kinds(game, "stack_refused") and stack_of(game, "red") == slow_first


def test_EAW_8_1_a_short_stack_holds_every_eligible_card_and_one_card_fewer_is_refused() -> None:
    three = ["pike", "archer", "blade"]
    _, game, _ = battle({"red": three, "blue": WEAK}, stack=["archer", "pike", "blade"], dice=[1, 1])
    assert stack_of(game, "red") == ["archer", "pike", "blade"] and not kinds(game, "stack_refused")
    _, game, _ = battle({"red": three, "blue": WEAK}, stack=["archer", "pike"], dice=[1, 1])
    assert "2 cards where 3" in kinds(game, "stack_refused_reason")[0]["reason"]


def test_EAW_8_1_personality_cards_are_never_eligible() -> None:
    data = small_data()
    assert eligible(data, ["general", "pike", "builder", "guard_a"], OPEN) == ["pike", "guard_a"]
    _, game, _ = battle({"red": ["pike", "general"], "blue": WEAK}, stack=["general"], dice=[1])
    assert kinds(game, "stack_refused") and stack_of(game, "red") == ["pike"]


def test_EAW_8_1_an_empty_position_loses_to_any_card_and_two_empty_positions_move_nothing() -> None:
    outcome, game, _ = battle({"red": ["blade"], "blue": ["guard_a"]}, dice=[])
    comparisons = kinds(game, "comparison")
    assert len(comparisons) == 1 and comparisons[0]["winner"] == "red"
    outcome, game, _ = battle({"red": ["pike"], "blue": ["guard_a", "guard_a#2", "horse_a"]}, dice=[1])
    assert [c["winner"] for c in kinds(game, "comparison")] == ["red", "blue", "blue"]
    assert [c["values"]["red"] for c in kinds(game, "comparison")][1:] == [None, None]
    # push_first: blue pushed two centre markers to its side, defender wins
    assert outcome.markers == (-1, 1, 1) and outcome.winner == "blue"


# -- EAW-8.2: ambush ----------------------------------------------------------------------------------------------
def test_EAW_8_2_an_ambush_gives_the_defenders_melee_cards_the_leaders_bonus() -> None:
    hands = {"red": ["pike"], "blue": ["guard_a"]}  # pike 4 against guard 3
    outcome, game, _ = battle(hands, personalities={"blue": ["general"]})
    assert outcome.winner == "red" and not kinds(game, "ambush_laid")  # default: no ambush (EAW-12.5)
    outcome, game, _ = battle(hands, personalities={"blue": ["general"]}, plans={"blue": [AmbushOrder(True)]})
    assert kinds(game, "ambush_laid")[0]["bonus"] == 1
    assert kinds(game, "comparison")[0]["values"] == {"red": 4, "blue": 4}  # 3 + 1: equal, nothing moves
    assert outcome.winner == "blue"  # EAW-8.7: 0-0, the defender


def test_EAW_8_2_ambush_scope_mountain_crossing_allows_it_only_across_a_mountain() -> None:
    data = small_data(ambush_scope="mountain_crossing")
    hands = {"red": ["pike"], "blue": ["guard_a"]}
    laid = {"personalities": {"blue": ["general"]}, "plans": {"blue": [AmbushOrder(True)]}, "data": data}
    _, game, _ = battle(hands, **laid)
    assert not kinds(game, "ambush_laid")
    _, game, _ = battle(hands, crossing=[MOUNTAIN], **laid)
    assert kinds(game, "ambush_laid")


def test_EAW_8_2_no_ambush_without_a_military_leader_and_none_asked() -> None:
    _, game, _ = battle({"red": ["pike"], "blue": ["guard_a"]}, plans={"blue": [AmbushOrder(True)]}, ask=True)
    assert not kinds(game, "ambush_laid")
    assert [p.key for p in game.pending] == ["stack.RAE", "stack.RAE"]


def test_EAW_8_2_leader_melee_bonus_always_helps_every_melee_card_of_a_leaders_owner() -> None:
    data = small_data(leader_melee_bonus="always")
    outcome, game, _ = battle({"red": ["pike"], "blue": ["pike#2"]}, personalities={"red": ["general"]}, data=data)
    assert kinds(game, "comparison")[0]["values"] == {"red": 5, "blue": 4} and outcome.winner == "red"
    _, game, _ = battle({"red": ["archer"], "blue": ["pike#2"]}, personalities={"red": ["general"]}, data=data)
    assert kinds(game, "comparison")[0]["values"]["red"] == 3  # an archer is no melee card


def test_EAW_8_2_a_card_value_effect_if_ambush_counts_only_in_the_ambush_whatever_the_option() -> None:
    data = small_data(leader_melee_bonus="always")
    general = data.cards["general"]
    effects = (Effect("stack_order_free"), Effect("ambush"), Effect("card_value", {"n": 2, "if": "ambush"}))
    data = replace(data, cards={**data.cards, "general": replace(general, effects=effects)})
    hands = {"red": ["pike"], "blue": ["pike#2"]}
    _, game, _ = battle(hands, personalities={"red": ["general"], "blue": ["general"]}, data=data)
    assert kinds(game, "comparison")[0]["values"] == {"red": 4, "blue": 4}  # no ambush: no bonus for either
    laid = {"blue": [AmbushOrder(True)]}
    _, game, _ = battle(hands, personalities={"red": ["general"], "blue": ["general"]}, data=data, plans=laid)
    assert kinds(game, "comparison")[0]["values"] == {"red": 4, "blue": 6}


# -- EAW-8.3, EAW-8.4: combat markers --------------------------------------------------------------------------------
def test_EAW_8_3_the_three_markers_start_in_the_centre() -> None:
    _, game, _ = battle({"red": ["pike"], "blue": ["guard_a"]})
    assert kinds(game, "marker_moved")[0]["markers"] == [-1, 0, 0]


ALTERNATE = {"red": ["pike", "pike#2"], "blue": ["blade", "guard_a"]}  # blue wins 1, red wins 2


def test_EAW_8_4_push_first_pushes_a_centre_marker_when_the_winner_could_pull() -> None:
    outcome, game, _ = battle(ALTERNATE, stack=["pike", "pike"], dice=[1, 1])
    assert [m["move"] for m in kinds(game, "marker_moved")] == ["push", "push"]
    assert sorted(outcome.markers) == [-1, 0, 1]  # EAW-13.7: 1-1 with one in the centre


def test_EAW_8_4_pull_first_and_the_markers_plan_pull_the_opponents_marker_back() -> None:
    outcome, game, _ = battle(ALTERNATE, stack=["pike", "pike"], data=small_data(marker_choice="pull_first"))
    assert [m["move"] for m in kinds(game, "marker_moved")] == ["push", "pull"] and outcome.markers == (0, 0, 0)
    outcome, game, _ = battle(ALTERNATE, stack=["pike", "pike"], plans={"red": [MarkersOrder(push=False)]})
    assert outcome.markers == (0, 0, 0)


def test_EAW_8_4_winner_chooses_asks_only_when_both_moves_can_be_made() -> None:
    data = small_data(marker_choice="winner_chooses")
    _, game, _ = battle(ALTERNATE, stack=["pike", "pike"], data=data, ask=True, dice=[1, 1])
    assert [p.key for p in game.pending] == ["stack.RAE", "marker.RAE.2"]  # comparison 1 had only a push
    outcome, game, _ = battle(
        ALTERNATE, stack=["pike", "pike"], data=data, answers={"red": {"marker.RAE.2": "pull"}}, ask=True
    )
    assert outcome.markers == (0, 0, 0) and [p.key for p in game.pending] == ["stack.RAE"]


def test_EAW_8_4_equal_cards_move_nothing() -> None:
    outcome, game, _ = battle({"red": ["guard_b"], "blue": ["pike"]})
    assert kinds(game, "comparison")[0]["winner"] is None and not kinds(game, "marker_moved")
    assert outcome.winner == "blue"


# -- EAW-8.5: card values ------------------------------------------------------------------------------------------
def test_EAW_8_5_a_value_against_a_class_is_looked_up_by_the_opposing_cards_category() -> None:
    _, game, _ = battle({"red": ["archer"], "blue": ["horse_a"]})
    assert kinds(game, "comparison")[0]["values"] == {"red": 5, "blue": 3}


def test_EAW_8_5_card_dice_are_rolled_as_cards_are_revealed_the_attackers_first() -> None:
    data = small_data()
    table = replace(
        data.cards["slinger"], id="sling_table", roll_mod=None, value_roll={1: 1, 2: 2, 3: 3, 4: 4, 5: 6, 6: 8}
    )
    data = replace(data, cards={**data.cards, table.id: table})
    outcome, game, _ = battle({"red": ["slinger"], "blue": ["sling_table"]}, data=data, dice=[2, 5])
    rolls = kinds(game, "roll")
    assert [(r["seat"], r["value"], r["rule"]) for r in rolls] == [("red", 2, "EAW-8.5"), ("blue", 5, "EAW-8.5")]
    assert kinds(game, "comparison")[0]["values"] == {"red": 3, "blue": 6}  # 1 + 2; the table's 5 -> 6
    kinds_in_order = [e.kind for e in game.events if e.kind in ("card_revealed", "roll")]
    assert kinds_in_order == ["card_revealed", "card_revealed", "roll", "roll"]
    assert outcome.winner == "blue"


# -- EAW-8.6, EAW-8.7 ------------------------------------------------------------------------------------------------
def test_EAW_8_6_every_card_is_revealed_when_nobody_routs() -> None:
    five = ["rider", "archer", "pike", "pike", "blade"]
    blue = ["horse_b", "guard_b", "guard_b#2", "blade#2", "guard_a"]
    _, game, _ = battle({"red": SIX, "blue": blue}, stack=five, dice=[1, 1, 1])
    assert len(kinds(game, "comparison")) == 5 and not kinds(game, "routed")
    assert revealed(game, "red") == five


def test_EAW_8_7_more_markers_win_and_equal_markers_go_to_the_defender() -> None:
    outcome, game, _ = battle(
        {"red": ["blade", "pike"], "blue": ["guard_a", "guard_b"]}, stack=["blade", "pike"], dice=[1]
    )
    assert outcome.winner == "red" and kinds(game, "battle_won")[0]["markers"] == {"red": 2, "blue": 0}
    outcome, _, _ = battle(ALTERNATE, stack=["pike", "pike"], dice=[1, 1])
    assert outcome.winner == "blue" and outcome.captured is False  # 1-1


def test_EAW_13_7_markers_ending_1_1_give_the_defender_the_win_and_each_side_one_loss() -> None:
    outcome, game, state = battle(ALTERNATE, stack=["pike", "pike"], dice=[2, 1])
    assert outcome.winner == "blue"
    assert outcome.lost == {"red": ("pike#2",), "blue": ("blade",)}
    assert state.controller("RAE") == "blue"


def test_EAW_13_7_markers_ending_0_0_give_the_defender_the_win_and_no_losses() -> None:
    outcome, game, _ = battle({"red": ["guard_b"], "blue": ["pike"]})
    assert outcome.winner == "blue" and outcome.lost == {"red": (), "blue": ()}
    assert not kinds(game, "card_lost")


# -- EAW-8.8: losses -------------------------------------------------------------------------------------------------
def test_EAW_8_8_random_losses_draw_once_per_loss_among_revealed_cards_the_attackers_first() -> None:
    # red wins the 1st and 3rd comparisons, blue the 2nd: markers -1, 1, -1 -> red loses 1, blue 2
    red = ["archer", "pike", "blade"]
    blue = ["horse_a", "blade#2", "guard_a"]
    outcome, game, state = battle({"red": red, "blue": blue}, stack=red, dice=[3, 2, 1])
    assert game.dice.log == [("loss red 1/1", 3), ("loss blue 1/2", 2), ("loss blue 2/2", 1)]
    assert outcome.lost == {"red": ("blade",), "blue": ("blade#2",)}
    assert outcome.absorbed == {"red": (), "blue": ("horse_a",)}
    assert state.discards == ["blade", "blade#2"]
    assert "horse_a" in state.players["blue"].hand  # an empire card absorbs the loss and stays


def test_EAW_8_8_a_pick_among_one_candidate_draws_nothing_and_losses_beyond_the_revealed_are_ignored() -> None:
    outcome, game, state = battle({"red": ["blade", "pike"], "blue": ["pike#2"]}, stack=["blade", "pike"])
    # red won twice (2 markers on red's side): blue owes 2 but revealed 1 card
    assert game.dice.log == [] and outcome.lost == {"red": (), "blue": ("pike#2",)}
    assert kinds(game, "losses_ignored")[0]["count"] == 1


def test_EAW_13_8_the_winner_loses_cards_too_for_markers_on_the_opponents_side() -> None:
    red = ["archer", "pike", "blade"]
    outcome, _, _ = battle({"red": red, "blue": ["horse_a", "blade#2", "guard_a"]}, stack=red, dice=[1, 1, 1])
    assert outcome.winner == "red" and outcome.lost["red"] == ("archer",)


def test_EAW_13_16_random_losses_cannot_be_steered_onto_empire_cards_but_each_picked_one_absorbs() -> None:
    red = ["guard_b", "blade"]
    outcome, _, state = battle(
        {"red": red, "blue": ["blade#2", "pike"]}, stack=red, plans={"red": [LossesOrder(("guard_b",))]}, dice=[2, 1]
    )
    # guard_b 4 against blade 5: blue; blade 5 against pike 4: red -> one loss each
    assert outcome.lost["red"] == ("blade",)  # the die, not the LOSSES order, picked


def test_EAW_13_16_owner_chooses_may_assign_every_loss_to_empire_cards() -> None:
    data = small_data(loss_selection="owner_chooses")
    red = ["guard_b", "blade"]
    hands = {"red": red, "blue": ["blade#2", "pike"]}
    outcome, game, state = battle(hands, stack=red, data=data, plans={"red": [LossesOrder(("guard_b",))]})
    assert outcome.lost["red"] == () and outcome.absorbed["red"] == ("guard_b",)
    assert sorted(state.players["red"].hand) == ["blade", "guard_b"]


def test_EAW_12_8_the_loss_default_is_empire_cards_first_then_the_lowest_army_cards_and_asked_in_ask_mode() -> None:
    data = small_data(loss_selection="owner_chooses")
    assert loss_order(data, ["blade", "pike", "guard_a", "archer"]) == ["guard_a", "archer", "pike", "blade"]
    red = ["archer", "pike", "blade"]
    hands = {"red": red, "blue": ["horse_a", "blade#2", "guard_a"]}
    outcome, game, _ = battle(hands, stack=red, data=data, ask=True)
    assert sorted(p.key for p in game.pending) == ["losses.RAE", "losses.RAE", "stack.RAE"]
    assert outcome.lost == {"red": ("archer",), "blue": ()}  # blue: both losses on its empire cards
    assert outcome.absorbed["blue"] == ("guard_a", "horse_a")
    outcome, _, _ = battle(hands, stack=red, data=data, answers={"red": {"losses.RAE": "blade"}})
    assert outcome.lost["red"] == ("blade",)


# -- EAW-8.9 to EAW-8.13: after the battle --------------------------------------------------------------------
WIN = {"red": ["blade", "pike", "pike#2"], "blue": ["guard_a", "guard_a#2"]}


def test_EAW_8_9_a_winning_attacker_removes_every_defender_marker_and_places_one() -> None:
    outcome, game, state = battle(
        WIN, stack=["blade", "pike", "pike"], dice=[1], control={"GAL": "red", "RAE": ("blue", 2)}
    )
    assert outcome.captured and state.control["RAE"].seat == "red" and state.control["RAE"].markers == 1
    assert kinds(game, "area_captured")[0]["markers"] == 2


def test_EAW_8_9_markers_go_back_to_their_stocks() -> None:
    data = small_data()
    state = position(data, control={"GAL": "red", "RAE": ("blue", 2)}, hands=WIN)
    state.players["red"].stock_control, state.players["blue"].stock_control = 4, 1
    fight(play(state, data, dice=[1]), "red", "RAE", Attack("RAE", "GAL", ("blade", "pike", "pike")), frozenset())
    assert (state.players["red"].stock_control, state.players["blue"].stock_control) == (3, 3)


def test_EAW_13_11_capturing_a_fort_without_an_engineer_destroys_it_back_to_its_owners_stock() -> None:
    plans = {"blue": [DefendOrder(siege=False)]}
    data = small_data()
    state = position(data, control={"GAL": "red", "RAE": "blue"}, hands=WIN, forts={"RAE": "blue"})
    state.players["blue"].stock_forts = 0
    standing.store(state.players["blue"], plans["blue"][0])
    game = play(state, data, dice=[1])
    fight(game, "red", "RAE", Attack("RAE", "GAL", ("blade", "pike", "pike")), frozenset())
    assert "RAE" not in state.forts and state.players["blue"].stock_forts == 1
    assert [e.seat for e in game.events if e.kind == "fort_destroyed"] == ["blue"]


def test_EAW_13_11_capturing_a_fort_with_an_engineer_keeps_it_for_the_attacker() -> None:
    outcome, game, state = battle(
        WIN,
        stack=["blade", "pike", "pike"],
        dice=[1],
        forts={"RAE": "blue"},
        personalities={"red": ["builder"]},
        plans={"blue": [DefendOrder(siege=False)]},
    )
    assert outcome.captured and state.forts == {"RAE": "blue"} and kinds(game, "fort_captured")
    assert state.controller("RAE") == "red"


def test_EAW_8_10_and_EAW_13_6_a_rout_after_the_third_comparison_returns_two_cards_unseen() -> None:
    red = ["blade", "pike", "pike#2", "archer", "rider"]
    blue = ["guard_a", "guard_a#2", "horse_a", "horse_b", "guard_c"]
    order = ["archer", "rider", "blade", "pike", "pike"]  # archer 5 vs horse, rider 4 vs horse 3, blade 5 vs guard
    outcome, game, state = battle(
        {"red": red, "blue": blue},
        stack=order,
        plans={"blue": [StackOrder(("horse_a", "horse_b", "guard_a", "guard_a", "guard_c"))]},
        dice=[1, 1],
    )
    assert outcome.routed == "blue" and outcome.rout_by_attacker and outcome.markers == (-1, -1, -1)
    assert [r["n"] for r in kinds(game, "routed")] == [3]
    assert revealed(game, "red") == ["archer", "rider", "blade"]
    returned = kinds(game, "cards_returned")
    assert {r["seat"]: r["cards"] for r in returned} == {"red": ["pike", "pike"], "blue": ["guard_a", "guard_c"]}
    assert not any(r["public"] for r in returned)
    assert [(u["seat"], u["count"], u["public"]) for u in kinds(game, "stack_unrevealed")] == [
        ("red", 2, True),
        ("blue", 2, True),
    ]
    # the routed player loses 3 (empire cards absorb), the other none
    assert outcome.lost["red"] == () and len(outcome.absorbed["blue"]) == 3 and outcome.lost["blue"] == ()
    public = " ".join(str(e.data) for e in game.events if e.public and e.kind != "card_revealed")
    assert "guard_c" not in public  # never revealed, never public


def test_EAW_8_11_a_routing_attacker_earns_the_free_action_a_routing_defender_takes_2_markers() -> None:
    outcome, _, _ = battle(
        {"red": ["blade", "pike", "pike#2"], "blue": ["guard_a"]}, stack=["blade", "pike", "pike"], dice=[]
    )
    assert outcome.routed == "blue" and outcome.rout_by_attacker
    outcome, game, state = battle(
        {"red": ["guard_a", "guard_a#2", "horse_a"], "blue": ["blade", "blade#2", "pike"]},
        warehouse={"red": 5},
        dice=[1, 1],
    )
    assert outcome.routed == "red" and not outcome.rout_by_attacker and outcome.winner == "blue"
    assert state.players["red"].warehouse == 3 and state.players["blue"].plunder == {"red": 2}
    assert state.players["blue"].warehouse == 0  # kept apart as plunder (EAW-8.13 option plunder_spendable)


def test_EAW_13_10_a_routing_defender_takes_the_one_marker_an_attacker_has() -> None:
    outcome, game, state = battle(
        {"red": ["guard_a", "guard_a#2", "horse_a"], "blue": ["blade", "blade#2", "pike"]},
        warehouse={"red": 1},
        dice=[1, 1],
    )
    assert state.players["red"].warehouse == 0 and state.players["blue"].plunder == {"red": 1}
    assert kinds(game, "rout_payment")[0]["markers"] == 1


def test_EAW_8_12_a_winning_defender_changes_nothing_on_the_map() -> None:
    trade = {"RAE": {"blue": 1, "green": 1}}
    outcome, game, state = battle(
        {"red": ["guard_a"], "blue": ["blade"]},
        trade=trade,
        forts={"RAE": "blue"},
        plans={"blue": [DefendOrder(False)]},
    )
    assert outcome.winner == "blue" and kinds(game, "defence_held")
    assert state.trade == trade and state.forts == {"RAE": "blue"} and state.controller("RAE") == "blue"


def test_EAW_8_13_and_EAW_13_15_plunder_takes_every_other_players_markers_in_the_area() -> None:
    trade = {"RAE": {"blue": 2, "green": 1, "red": 1}}
    outcome, game, state = battle(WIN, stack=["blade", "pike", "pike"], dice=[1], trade=trade)
    assert state.trade == {"RAE": {"red": 1}}
    assert state.players["red"].plunder == {"blue": 2, "green": 1}
    assert kinds(game, "plundered")[0]["taken"] == {"blue": 2, "green": 1}


def test_EAW_13_25_plundered_markers_lie_apart_from_the_warehouse() -> None:
    _, _, state = battle(
        WIN, stack=["blade", "pike", "pike"], dice=[1], trade={"RAE": {"blue": 2}}, warehouse={"red": 1}
    )
    assert state.players["red"].warehouse == 1 and state.players["red"].plunder == {"blue": 2}
    _, _, state = battle(
        WIN,
        stack=["blade", "pike", "pike"],
        dice=[1],
        trade={"RAE": {"blue": 2}},
        data=small_data(plunder_spendable="true"),
    )
    assert state.players["red"].plunder == {"blue": 2}  # spendable or not, plunder stays apart by owner


# -- EAW-12.6: stacks by plan, answer and default ----------------------------------------------------------------
def test_EAW_12_6_stacks_come_from_the_attack_then_the_standing_plan_then_the_default() -> None:
    plan = StackOrder(("blade", "pike"), situation="open", side="defend")
    _, game, _ = battle(
        {"red": ["pike", "blade"], "blue": ["pike#2", "blade#2"]},
        stack=["pike", "blade"],
        plans={"blue": [plan]},
        dice=[1, 1],
    )
    assert stack_of(game, "red") == ["pike", "blade"] and stack_of(game, "blue") == ["blade", "pike"]
    sources = {e.seat: e.data["source"] for e in game.events if e.kind == "stack_formed"}
    assert sources == {"red": "orders", "blue": "decision"}
    siege_plan = StackOrder(("blade", "pike"), situation="siege")
    _, game, _ = battle({"red": ["pike"], "blue": ["pike#2", "blade#2"]}, plans={"blue": [siege_plan]})
    assert stack_of(game, "blue") == ["blade", "pike"]  # an open battle: the siege plan does not apply


def test_EAW_12_6_in_ask_mode_both_stacks_are_sealed_pending_decisions_and_an_answer_is_a_card_list() -> None:
    hands = {"red": ["pike", "blade"], "blue": ["pike#2", "blade#2"]}
    _, game, _ = battle(hands, ask=True)
    assert [(p.seat, p.key) for p in game.pending] == [("red", "stack.RAE"), ("blue", "stack.RAE")]
    assert all(not e.public for e in game.events if e.kind == "decision")
    _, game, _ = battle(hands, answers={"red": {"stack.RAE": "Pike, Blade"}, "blue": {"stack.RAE": "pike blade"}})
    assert stack_of(game, "red") == ["pike", "blade"] and stack_of(game, "blue") == ["pike", "blade"]


def test_EAW_12_6_an_answer_naming_no_card_is_refused_and_the_default_decides() -> None:
    _, game, _ = battle({"red": ["pike", "blade"], "blue": ["pike#2"]}, answers={"red": {"stack.RAE": "pike, dragon"}})
    assert kinds(game, "answer_refused") and stack_of(game, "red") == ["blade", "pike"]


def test_EAW_12_6_a_stack_naming_cards_not_held_is_refused_as_a_whole() -> None:
    _, game, _ = battle({"red": ["pike", "blade"], "blue": ["pike#2"]}, stack=["pike", "pike"])
    assert kinds(game, "stack_refused_reason")[0]["reason"] == "pike: not in hand (EAW-8.21)"  # the second pike
    assert stack_of(game, "red") == ["blade", "pike"]


def test_EAW_12_6_stacks_stay_private_until_each_card_is_revealed() -> None:
    _, game, _ = battle({"red": ["pike", "blade"], "blue": ["pike#2", "guard_a"]}, dice=[1])
    for event in game.events:
        if event.kind in ("stack_formed", "decision"):
            assert event.visible_to == frozenset({event.seat})
    first_reveal = next(i for i, e in enumerate(game.events) if e.kind == "card_revealed")
    public_before = [e for e in game.events[:first_reveal] if e.public]
    assert not any("pike" in str(e.data) or "blade" in str(e.data) for e in public_before)


def test_EAW_12_6_the_default_stack_takes_the_legal_cards_of_highest_value_fast_first() -> None:
    data = small_data()
    hand = ["pike", "guard_a", "archer", "blade", "rider", "horse_a", "slinger"]
    assert default(data, hand, OPEN, free_order=False) == ("rider", "archer", "blade", "pike", "guard_a")
    assert default(data, hand, OPEN, free_order=True) == ("blade", "pike", "rider", "archer", "guard_a")


def test_EAW_12_6_card_lists_read_ids_names_commas_and_spaces() -> None:
    data = small_data()
    assert read_cards(data, "pike pike, Archer;Guard A") == ("pike", "pike", "archer", "guard_a")
    assert read_cards(data, "blad, cata") == ("blade", "catapult")  # unique prefixes, as the order language
    with pytest.raises(ValueError, match="unknown card 'dragon'"):
        read_cards(data, "pike dragon")
    with pytest.raises(ValueError, match=r"unknown card 'pikes' \(did you mean pike"):
        read_cards(data, "pikes")


# -- EAW-12.4, EAW-12.5: decisions of the defender ---------------------------------------------------------------
def test_EAW_12_4_the_fort_holders_choice_defaults_to_an_open_battle_and_is_asked_in_ask_mode() -> None:
    hands = {"red": ["pike"], "blue": ["guard_a"]}
    outcome, game, _ = battle(hands, forts={"RAE": "blue"}, ask=True)
    assert outcome.kind == OPEN and "siege.RAE" in [p.key for p in game.pending]
    assert kinds(game, "siege_chosen")[0] == {
        "area": "RAE",
        "siege": False,
        "rule": "EAW-12.4",
        "seat": "blue",
        "public": True,
    }
    outcome, _, _ = battle(hands, forts={"RAE": "blue"}, answers={"blue": {"siege.RAE": "SIEGE"}})
    assert outcome.kind == "siege"
    outcome, _, _ = battle(hands, forts={"RAE": "blue"}, plans={"blue": [DefendOrder(True, area="RAE")]})
    assert outcome.kind == "siege"
    outcome, _, _ = battle(hands, forts={"RAE": "blue"}, plans={"blue": [DefendOrder(True, area="ITA")]})
    assert outcome.kind == OPEN  # a standing order for another province does not apply


def test_EAW_12_5_the_ambush_is_the_defenders_decision_default_no() -> None:
    hands = {"red": ["pike"], "blue": ["guard_a"]}
    _, game, _ = battle(hands, personalities={"blue": ["general"]}, ask=True)
    assert "ambush.RAE" in [p.key for p in game.pending] and not kinds(game, "ambush_laid")
    _, game, _ = battle(hands, personalities={"blue": ["general"]}, answers={"blue": {"ambush.RAE": "yes"}})
    assert kinds(game, "ambush_laid")


def test_EAW_12_7_a_markers_plan_is_the_winners_push_or_pull() -> None:
    outcome, _, _ = battle(ALTERNATE, stack=["pike", "pike"], plans={"red": [MarkersOrder(push=True)]}, dice=[1, 1])
    assert sorted(outcome.markers) == [-1, 0, 1]


def test_EAW_9_3_no_faction_abilities_the_battle_reads_only_cards_and_personalities() -> None:
    one, _, _ = battle({"red": ["blade", "pike"], "blue": ["guard_b", "pike#2"]}, stack=["blade", "pike"], dice=[1])
    data = small_data()
    state = position(
        data,
        seats=("green", "blue", "red"),
        control={"GAL": "green", "RAE": "blue"},
        hands={"green": ["blade", "pike"], "blue": ["guard_b", "pike#2"]},
    )
    game = play(state, data, dice=[1])
    other = fight(game, "green", "RAE", Attack("RAE", "GAL", ("blade", "pike")), frozenset())
    assert (one.markers, one.lost["blue"]) == (other.markers, other.lost["blue"])


def test_battle_refuses_an_area_not_held_by_another_player() -> None:
    data = small_data()
    state = position(data, control={"GAL": "red"}, hands={"red": ["pike"]})
    with pytest.raises(ValueError, match="EAW-7.4"):
        fight(play(state, data), "red", "RAE", Attack("RAE", "GAL"), frozenset())


def test_every_battle_event_has_a_sentence_naming_its_rule() -> None:
    from adjudicator.render import environment

    template = environment("en").from_string(
        '{% from "empires/events_battle.j2" import sentence, kinds %}'
        "{% for e in events %}{{ sentence(e) }}|{% endfor %}@{{ kinds | join(',') }}"
    )
    events = []
    for hands, more in (
        (
            WIN,
            {"stack": ["blade", "pike", "pike"], "dice": [1], "trade": {"RAE": {"blue": 1}}, "forts": {"RAE": "blue"}},
        ),
        ({"red": ["guard_a", "guard_a#2", "horse_a"], "blue": ["blade", "blade#2", "pike"]}, {"dice": [1, 1]}),
        (ALTERNATE, {"stack": ["pike", "pike#2"], "dice": [1], "personalities": {"blue": ["general"]}}),
    ):
        plans = {"blue": [DefendOrder(False), AmbushOrder(True)]}
        _, game, _ = battle(hands, plans=plans, **more)
        events += [e for e in game.events if e.kind not in ("decision", "roll")]
    _, game, _ = battle({"red": ["pike", "blade"], "blue": ["pike#2"]}, stack=["pike", "pike"])
    events += [e for e in game.events if e.kind.startswith("stack_refused") or e.kind == "losses_ignored"]
    text, listed = template.render(events=events).split("@")
    sentences = text.split("|")[:-1]
    assert {e.kind for e in events} <= set(listed.split(","))
    for event, line in zip(events, sentences, strict=True):
        assert event.data["rule"] in line and not line.startswith(f"{event.kind} {{"), line


def test_the_games_sentences_tell_a_whole_battle_with_its_dice_and_decisions() -> None:
    from adjudicator.render import environment

    module = environment("en").get_template("empires/events.j2").module
    assert module.battle_opening == ["battle_begins"]  # type: ignore[attr-defined]
    data = small_data(loss_selection="owner_chooses")
    _, game, _ = battle(
        {"red": ["slinger", "pike"], "blue": ["guard_a", "blade"]},
        data=data,
        personalities={"blue": ["general"]},
        forts={"RAE": "blue"},
        dice=[6],
        answers={"blue": {"siege.RAE": "maybe"}},
    )
    assert {"roll", "decision", "answer_refused"} <= {e.kind for e in game.events}
    for event in game.events:
        text = module.sentence(event)  # type: ignore[attr-defined]
        assert "EAW-" in text and not text.startswith(f"{event.kind} "), text
