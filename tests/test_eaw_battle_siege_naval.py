"""Sieges and naval battles of Empires of the Ancient World (EAW-8.15, EAW-8.20, EAW-8.21, EAW-9.1, EAW-9.2,
EAW-13.12, EAW-13.13): the real battle (battle.fight) on the small test map with given dice. A siege: red attacks
fortified Raetia (blue, DEFEND SIEGE) from Gallia; a naval battle: red attacks Mare Centrale (blue) from Italia."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import pytest

from adjudicator.engine.chance import GivenDice
from adjudicator.rulesets.empires import standing
from adjudicator.rulesets.empires.battle import BattleOutcome, fight
from adjudicator.rulesets.empires.battle_stacks import NAVAL, OPEN, SIEGE, default, plan_problem, problem
from adjudicator.rulesets.empires.data import GameData
from adjudicator.rulesets.empires.orders import AmbushOrder, Attack, DefendOrder, StackOrder
from adjudicator.rulesets.empires.play import Play
from adjudicator.rulesets.empires.state import GameState
from tests.eaw_helpers import play, position, small_data


def siege(
    hands: Mapping[str, Iterable[str]],
    *,
    stack: Iterable[str] = (),
    plans: Iterable[Any] = (),
    dice: Iterable[int] = (),
    data: GameData | None = None,
    **more: Any,
) -> tuple[BattleOutcome, Play, GameState]:
    data = data or small_data()
    state = position(data, control={"GAL": "red", "RAE": "blue"}, forts={"RAE": "blue"}, hands=hands, **more)
    for order in (DefendOrder(siege=True), *plans):
        standing.store(state.players["blue"], order)
    game = play(state, data, dice=dice)
    outcome = fight(game, "red", "RAE", Attack("RAE", "GAL", tuple(stack)), frozenset())
    assert isinstance(game.dice, GivenDice) and game.dice.unused == 0
    return outcome, game, state


def naval(
    hands: Mapping[str, Iterable[str]],
    *,
    stack: Iterable[str] = (),
    dice: Iterable[int] = (),
    **more: Any,
) -> tuple[BattleOutcome, Play, GameState]:
    data = small_data()
    state = position(data, control={"ITA": "red", "MCE": "blue", "SIC": "blue"}, hands=hands, **more)
    game = play(state, data, dice=dice)
    outcome = fight(game, "red", "MCE", Attack("MCE", "ITA", tuple(stack)), frozenset())
    assert isinstance(game.dice, GivenDice) and game.dice.unused == 0
    return outcome, game, state


def stack_of(game: Play, seat: str) -> list[str]:
    return next(e.data["cards"] for e in game.events if e.kind == "stack_formed" and e.seat == seat)


def refusal(game: Play) -> str | None:
    return next((e.data["reason"] for e in game.events if e.kind == "stack_refused_reason"), None)


def values(game: Play) -> list[dict[str, int | None]]:
    return [e.data["values"] for e in game.events if e.kind == "comparison"]


# -- EAW-8.15: the siege -------------------------------------------------------------------------------------------
RED = ["pike", "pike#2", "blade", "archer", "rider"]
BLUE = ["guard_a", "guard_a#2", "horse_a"]


def test_EAW_8_15_a_siege_stack_of_3_in_any_order_is_taken_and_one_of_4_refused() -> None:
    outcome, game, _ = siege({"red": RED, "blue": BLUE}, stack=["pike", "archer", "blade"], dice=[1])
    assert outcome.kind == SIEGE and stack_of(game, "red") == ["pike", "archer", "blade"] and refusal(game) is None
    _, game, _ = siege({"red": RED, "blue": BLUE}, stack=["pike", "archer", "blade", "pike"], dice=[1])
    assert "more than 3" in (refusal(game) or "")
    assert stack_of(game, "red") == ["blade", "pike", "pike"]  # the default: value order, no mounted card


def test_EAW_8_15_a_siege_admits_no_mounted_card_on_either_side() -> None:
    _, game, _ = siege({"red": RED, "blue": BLUE}, stack=["rider", "pike", "blade"], dice=[1])
    assert "Rider cannot be stacked" in (refusal(game) or "")
    assert "horse_a" not in stack_of(game, "blue")


def test_EAW_13_12_a_siege_defender_without_3_legal_cards_stacks_fewer() -> None:
    outcome, game, _ = siege({"red": ["pike", "pike#2", "blade"], "blue": ["guard_a", "horse_a"]}, dice=[])
    assert stack_of(game, "blue") == ["guard_a"]
    assert outcome.winner == "red" and outcome.routed == "blue"  # empty positions lose (EAW-8.1)


def test_EAW_8_15_a_siege_rout_needs_all_three_comparisons_won() -> None:
    outcome, game, _ = siege({"red": RED, "blue": BLUE}, stack=["blade", "pike", "pike"], dice=[1])
    routs = [e.data["n"] for e in game.events if e.kind == "routed"]
    assert routs == [3] and outcome.rout_by_attacker
    outcome, game, _ = siege(
        {"red": RED, "blue": ["guard_b", "guard_a", "guard_a#2"]}, stack=["pike", "blade", "pike"], dice=[1, 1]
    )
    assert outcome.routed is None and outcome.winner == "red"  # pike 4 = guard_b 4: two won of three


def test_EAW_8_15_a_siege_has_no_ambush_and_uses_the_siege_stack_plan() -> None:
    plans = [AmbushOrder(True), StackOrder(("guard_a", "guard_a"), situation="siege"), StackOrder(("horse_a",))]
    _, game, _ = siege({"red": ["pike"], "blue": BLUE}, personalities={"blue": ["general"]}, plans=plans, dice=[1])
    assert not [e for e in game.events if e.kind == "ambush_laid"]
    assert stack_of(game, "blue") == ["guard_a", "guard_a"]


# -- EAW-8.20: the naval battle ----------------------------------------------------------------------------------------
SEA_RED = ["blade", "blade#2", "pike", "galley", "galley#2", "archer", "slinger", "catapult", "rider"]
SEA_BLUE = ["galley#3", "guard_a"]


def test_EAW_8_20_one_sword_is_allowed_at_sea_and_EAW_13_13_two_are_refused_for_the_default() -> None:
    _, game, _ = naval({"red": SEA_RED, "blue": SEA_BLUE}, stack=["blade", "galley", "galley"], dice=[1])
    assert refusal(game) is None and stack_of(game, "red") == ["blade", "galley", "galley"]
    _, game, _ = naval({"red": SEA_RED, "blue": SEA_BLUE}, stack=["blade", "blade", "galley"], dice=[1])
    assert "at most one sword or spear" in (refusal(game) or "")
    assert stack_of(game, "red") == ["blade", "archer", "galley", "galley", "catapult"]


@pytest.mark.parametrize(
    ("stack", "legal", "dice"),
    [
        (["blade", "pike"], False, [1]),  # one sword or spear, not both
        (["archer", "slinger"], False, [1]),  # one foot soldier or archer
        (["archer", "galley"], True, []),
        (["catapult", "galley", "galley"], True, [1]),
        (["rider", "galley"], False, [1]),  # mounted cards stay ashore
    ],
)
def test_EAW_8_20_naval_stacks_allow_one_card_of_each_limited_group(
    stack: list[str], legal: bool, dice: list[int]
) -> None:
    _, game, _ = naval({"red": SEA_RED, "blue": SEA_BLUE}, stack=stack, dice=dice)
    assert (refusal(game) is None) is legal


def test_EAW_8_20_a_naval_stack_holds_up_to_5_cards_and_6_are_refused() -> None:
    five = ["galley", "galley", "blade", "archer", "catapult"]
    hand = [*SEA_RED, "galley#3"]
    _, game, _ = naval({"red": hand, "blue": ["guard_a"]}, stack=five, dice=[])
    assert refusal(game) is None and stack_of(game, "red") == five
    _, game, _ = naval({"red": hand, "blue": ["guard_a"]}, stack=[*five, "galley"], dice=[])
    assert "more than 5" in (refusal(game) or "")
    _, game, _ = naval({"red": hand, "blue": ["guard_a"]}, stack=["galley"], dice=[])
    assert refusal(game) is None  # "up to 5": fewer is allowed at sea


def test_EAW_8_20_artillery_counts_every_opposing_card_as_a_galley() -> None:
    _, game, _ = naval({"red": ["catapult"], "blue": ["guard_a"]}, dice=[])
    assert values(game)[0] == {"red": 6, "blue": 3}  # the catapult's value against galleys
    data = small_data()
    state = position(data, control={"GAL": "red", "RAE": "blue"}, hands={"red": ["catapult"], "blue": ["guard_a"]})
    game = play(state, data, dice=[])
    fight(game, "red", "RAE", Attack("RAE", "GAL"), frozenset())
    assert values(game)[0] == {"red": 2, "blue": 3}  # on land it is not


def test_EAW_8_20_a_winning_naval_attacker_takes_the_sea_area_and_its_plunder() -> None:
    outcome, game, state = naval(
        {"red": ["galley", "galley#2", "blade"], "blue": ["guard_a"]},
        stack=["blade", "galley", "galley"],
        trade={"MCE": {"blue": 1, "green": 2}},
    )
    assert outcome.kind == NAVAL and outcome.captured and state.controller("MCE") == "red"
    assert state.players["red"].plunder == {"blue": 1, "green": 2} and "MCE" not in state.trade


# -- EAW-8.21, EAW-9.1, EAW-9.2 --------------------------------------------------------------------------------------
def test_EAW_8_21_free_order_defaults_rank_cards_by_their_base_value() -> None:
    data = small_data()
    # the catapult is worth 6 against galleys, but its base value 2 ranks it last
    assert default(data, ["catapult", "galley", "archer", "galley#2"], NAVAL, True) == (
        "archer",
        "galley",
        "galley#2",
        "catapult",
    )
    assert default(data, ["pike", "blade", "archer", "rider"], SIEGE, True) == ("blade", "pike", "archer")


@pytest.mark.parametrize(
    ("kind", "stack", "free", "legal"),
    [
        (OPEN, ["archer", "pike", "pike", "blade", "blade"], False, True),
        (OPEN, ["pike", "archer", "pike", "blade", "blade"], False, False),  # fast before slow
        (OPEN, ["pike", "archer", "pike", "blade", "blade"], True, True),  # a leader orders freely
        (SIEGE, ["pike", "archer", "blade"], False, True),  # any order
        (SIEGE, ["pike", "rider", "blade"], False, False),  # no mounted
        (NAVAL, ["galley", "galley", "galley", "blade", "archer"], False, True),
        (NAVAL, ["galley", "blade", "pike"], False, False),
    ],
)
def test_EAW_9_2_stack_restrictions_by_battle_type(kind: str, stack: list[str], free: bool, legal: bool) -> None:
    data = small_data()
    hand = ["pike", "pike#2", "blade", "blade#2", "archer", "rider", "galley", "galley#2", "galley#3"]
    taken = list(hand)
    chosen = []
    for card_id in stack:
        instance = next(i for i in taken if i.split("#")[0] == card_id)
        taken.remove(instance)
        chosen.append(instance)
    assert (problem(data, hand, kind, chosen, free) is None) is legal


def test_EAW_9_1_the_leader_and_the_engineer_act_in_battle() -> None:
    # the military leader's free order and ambush: test_eaw_battle.py (EAW-8.1, EAW-8.2)
    outcome, game, _ = siege(
        {"red": ["pike", "blade", "pike#2"], "blue": ["guard_a", "guard_a#2"]},
        stack=["blade", "pike", "pike"],
        personalities={"red": ["builder"]},
        dice=[1],
    )
    # the engineer: the winning attacker keeps the captured fort
    assert outcome.captured and [e.kind for e in game.events if e.kind.startswith("fort_")] == ["fort_captured"]


@pytest.mark.parametrize(
    ("cards", "situation", "found"),
    [
        (["pike", "pike", "archer"], "siege", None),
        (["pike", "pike", "archer", "blade"], "siege", "more than 3"),  # EAW-8.15: 3 is the boundary
        (["rider"], "siege", "Rider cannot be stacked"),
        (["blade", "galley"], "naval", None),
        (["blade", "blade", "galley"], "naval", "at most one sword or spear"),  # EAW-13.13
        (["pike"] * 5, "open", None),
        (["pike"] * 6, "open", "more than 5"),
        (["general", "pike"], None, "General cannot be stacked"),  # EAW-7.22: never stacked
    ],
)
def test_EAW_8_21_a_receipt_names_what_breaks_a_standing_stack_plan(
    cards: list[str], situation: str | None, found: str | None
) -> None:
    reason = plan_problem(small_data(), cards, situation)
    assert reason is None if found is None else found in (reason or "")
