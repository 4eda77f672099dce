"""Attacks (EAW-7.1 to EAW-7.4, EAW-0.5, EAW-2.3, EAW-2.8, EAW-13.1, EAW-13.2, EAW-13.18) and the free action after
a rout (EAW-8.11, EAW-12.9, EAW-13.9) on the small test map of tests/eaw_helpers.py.

Battles are the battles engineer's (battle.fight); these tests replace that module by a local stub that records
the call and returns the outcome a test asks for, so that what the attack does around a battle is tested alone."""

from __future__ import annotations

import sys
import types
from dataclasses import dataclass
from typing import Any

import pytest

from adjudicator.rulesets.empires import actions
from adjudicator.rulesets.empires.orders import Action, Attack, PlaceControl, PlaceTrade, PlanLine, TradeTarget
from adjudicator.rulesets.empires.play import Play
from adjudicator.rulesets.empires.state import Control, GameState
from tests.eaw_helpers import play, position, small_data


def attack(target: str, origin: str = "", then: tuple[Action, ...] = ()) -> PlanLine:
    return PlanLine((Attack(target, origin, (), then),), line=4, text=f"ATTACK {target}")


def events(p: Play, kind: str) -> list[dict[str, Any]]:
    return [e.data for e in p.events if e.kind == kind]


def rolls(p: Play) -> list[tuple[str, int]]:
    return [(e["purpose"], e["value"]) for e in events(p, "roll")]


def rejected(state: GameState, seat: str, action: Attack, **options: Any) -> str | None:
    found = actions.refusal(play(state, small_data(**options)), seat, action)
    return None if found is None else found.rule


@dataclass
class Outcome:
    winner: str
    rout_by_attacker: bool


@pytest.fixture
def battles(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """A stand-in for battle.py: the attacker routs the defender when the test's `rout` list says so (one entry per
    battle), and takes the area as EAW-8.9 says."""
    fought: list[dict[str, Any]] = []
    routs: list[bool] = []

    def fight(p: Play, attacker: str, target: str, order: Attack, crossing: frozenset[str]) -> Outcome:
        rout = routs.pop(0) if routs else False
        fought.append({"attacker": attacker, "target": target, "crossing": crossing, "rout": rout})
        if rout:
            p.state.control[target] = Control(attacker, 1)
        return Outcome(attacker if rout else p.state.controller(target) or "", rout)

    module = types.ModuleType("adjudicator.rulesets.empires.battle")
    module.fight = fight  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "adjudicator.rulesets.empires.battle", module)
    fought.append({"routs": routs})
    return fought


# -- EAW-7.1: the target -------------------------------------------------------------------------------------
def test_EAW_7_1_the_origin_must_be_the_players_and_the_target_not() -> None:
    state = position(control={"GAL": "red", "RAE": "red", "GER": "blue", "ITA": "blue", "SIC": "blue"})
    assert rejected(state, "red", Attack("GER", "RAE")) is None
    assert rejected(state, "red", Attack("GER", "ITA")) == "EAW-7.1"
    assert rejected(state, "red", Attack("RAE", "GAL")) == "EAW-7.1"


def test_EAW_7_1_a_target_next_to_none_of_the_players_areas_is_refused() -> None:
    state = position(control={"GER": "red"})
    assert rejected(state, "red", Attack("GAL", "")) == "EAW-7.1"
    assert rejected(state, "red", Attack("RAE", "")) is None


def test_EAW_2_3_a_named_origin_without_a_connection_or_the_mediterranean_rule_is_refused() -> None:
    state = position(control={"GAL": "red", "RAE": "red"})
    assert rejected(state, "red", Attack("NUM", "GAL")) == "EAW-2.3"
    assert rejected(state, "red", Attack("EGY", "RAE")) == "EAW-2.3"
    assert rejected(state, "red", Attack("EGY", "GAL")) is None


def test_EAW_7_1_without_an_origin_the_route_with_fewest_rolls_is_taken() -> None:
    state = position(control={"GAL": "red", "RAE": "red"})
    p = play(state, dice=[2, 3])
    actions.take_action(p, "red", attack("ITA"))  # GAL and RAE: a mountain each; the lowest id
    assert events(p, "attack")[0]["origin"] == "GAL"
    state = position(control={"RAE": "red", "ITA": "red"})
    p = play(state, dice=[3])
    actions.take_action(p, "red", attack("GAL"))  # RAE-GAL land: no crossing roll, rather than ITA's mountain
    assert events(p, "attack")[0]["origin"] == "RAE" and rolls(p) == [("neutral", 3)]


# -- EAW-7.2, EAW-13.1: mountains and straits ----------------------------------------------------------------
def test_EAW_7_2_a_mountain_crossing_goes_on_with_2() -> None:
    state = position(control={"RAE": "red"})
    p = play(state, dice=[2, 3])
    actions.take_action(p, "red", attack("ITA", "RAE"))
    assert state.controller("ITA") == "red" and rolls(p) == [("crossing", 2), ("neutral", 3)]


def test_EAW_7_2_a_mountain_crossing_fails_with_1_and_the_action_is_spent() -> None:
    state = position(control={"RAE": "red"})
    p = play(state, dice=[1])
    actions.take_action(p, "red", attack("ITA", "RAE"))
    assert state.controller("ITA") is None
    assert events(p, "attack_failed") == [{"target": "ITA", "roll": "crossing", "rule": "EAW-7.2"}]


def test_EAW_13_1_a_neutral_province_across_a_mountain_needs_2_then_3() -> None:
    state = position(control={"GER": "red"})
    p = play(state, dice=[2, 2])
    actions.take_action(p, "red", attack("RAE", "GER"))
    assert state.controller("RAE") is None and events(p, "attack_failed")[0]["roll"] == "neutral"


# -- EAW-7.3, EAW-13.2: sea movement -------------------------------------------------------------------------
def test_EAW_7_3_a_sea_area_needs_4_and_a_neutral_one_is_then_taken_without_another_roll() -> None:
    state = position(control={"GAL": "red"})
    p = play(state, dice=[4])
    actions.take_action(p, "red", attack("MOC", "GAL"))
    assert state.controller("MOC") == "red" and rolls(p) == [("sea_move", 4)]
    state = position(control={"GAL": "red"})
    p = play(state, dice=[3])
    actions.take_action(p, "red", attack("MOC", "GAL"))
    assert state.controller("MOC") is None and events(p, "attack_failed")[0]["rule"] == "EAW-7.3"


def test_EAW_7_3_next_to_a_controlled_sea_area_adds_1() -> None:
    state = position(control={"ITA": "red", "MOC": "red"})
    p = play(state, dice=[3])
    actions.take_action(p, "red", attack("MCE", "ITA"))  # MCE borders MOC
    assert state.controller("MCE") == "red"
    state = position(control={"ITA": "red", "MOR": "red", "EGY": "blue", "CRE": "blue"})
    p = play(state, dice=[2])
    actions.take_action(p, "red", attack("MCE", "ITA"))
    assert state.controller("MCE") is None


def test_EAW_13_2_a_strait_that_is_a_sea_lane_rolls_2_then_4_with_1_for_the_lane() -> None:
    state = position(control={"ITA": "red"})
    p = play(state, dice=[2, 3, 3])
    actions.take_action(p, "red", attack("SIC", "ITA"))
    assert state.controller("SIC") == "red"
    assert rolls(p) == [("crossing", 2), ("sea_move", 3), ("neutral", 3)]
    assert events(p, "roll")[1]["bonus"] == 1
    state = position(control={"ITA": "red"})
    p = play(state, dice=[2, 2])
    actions.take_action(p, "red", attack("SIC", "ITA"))
    assert state.controller("SIC") is None


def test_EAW_7_3_a_sea_lane_across_a_controlled_sea_adds_2() -> None:
    state = position(control={"AFR": "red", "MCE": "red"})
    p = play(state, dice=[2, 3])
    actions.take_action(p, "red", attack("SIC", "AFR"))
    assert state.controller("SIC") == "red" and events(p, "roll")[0]["bonus"] == 2


def test_EAW_7_3_the_mediterranean_rule_needs_sea_movement_without_the_lane_bonus() -> None:
    state = position(control={"GAL": "red"})
    p = play(state, dice=[4, 3])
    actions.take_action(p, "red", attack("EGY", "GAL"))
    assert state.controller("EGY") == "red" and events(p, "attack")[0]["mediterranean"]
    state = position(control={"GAL": "red"})
    p = play(state, dice=[3])
    actions.take_action(p, "red", attack("EGY", "GAL"))
    assert state.controller("EGY") is None


# -- EAW-7.4: outcome ----------------------------------------------------------------------------------------
def test_EAW_7_4_a_neutral_province_is_taken_on_3() -> None:
    state = position(control={"RAE": "red"})
    p = play(state, dice=[3])
    actions.take_action(p, "red", attack("GAL", "RAE"))
    assert state.controller("GAL") == "red" and events(p, "area_taken")[0]["rule"] == "EAW-7.4"


def test_EAW_7_4_a_neutral_province_stays_neutral_on_2() -> None:
    state = position(control={"RAE": "red"})
    p = play(state, dice=[2])
    actions.take_action(p, "red", attack("GAL", "RAE"))
    assert state.controller("GAL") is None


def test_EAW_0_5_attack_rolls_come_in_order_crossing_sea_movement_neutral() -> None:
    state = position(control={"ITA": "red"})
    p = play(state, dice=[6, 6, 6])
    actions.take_action(p, "red", attack("SIC", "ITA"))
    assert [purpose for purpose, _ in rolls(p)] == ["crossing", "sea_move", "neutral"]


def test_EAW_7_4_an_area_of_another_player_is_a_battle_with_the_crossing(battles: list[dict[str, Any]]) -> None:
    state = position(control={"RAE": "red", "ITA": "blue", "SIC": "blue"})
    p = play(state, dice=[2])
    actions.take_action(p, "red", attack("ITA", "RAE"))
    assert battles[1:] == [{"attacker": "red", "target": "ITA", "crossing": frozenset({"mountain"}), "rout": False}]
    assert rolls(p) == [("crossing", 2)]  # no neutral roll before a battle


def test_EAW_7_4_a_sea_area_of_another_player_is_a_naval_battle_after_sea_movement(
    battles: list[dict[str, Any]],
) -> None:
    state = position(control={"GAL": "red", "MOC": "blue"})
    p = play(state, dice=[4])
    actions.take_action(p, "red", attack("MOC", "GAL"))
    assert [b["target"] for b in battles[1:]] == ["MOC"]


# -- EAW-2.8, EAW-13.18: the last province -------------------------------------------------------------------
def test_EAW_13_18_the_only_province_of_a_player_cannot_be_attacked_its_sea_areas_can() -> None:
    state = position(control={"GAL": "red", "ITA": "blue", "MCE": "blue"})
    assert rejected(state, "red", Attack("ITA", "GAL")) == "EAW-2.8"
    assert rejected(state, "red", Attack("ITA", "GAL"), last_province="battle_only") == "EAW-2.8"
    assert rejected(state, "red", Attack("MCE", "GAL")) is None


def test_EAW_2_8_a_player_with_two_provinces_can_be_attacked_in_either() -> None:
    state = position(control={"GAL": "red", "ITA": "blue", "SIC": "blue"})
    assert rejected(state, "red", Attack("ITA", "GAL")) is None


# -- EAW-8.11, EAW-12.9, EAW-13.9: the free action -----------------------------------------------------------
def test_EAW_12_9_a_rout_plays_the_attacks_then_at_once(battles: list[dict[str, Any]]) -> None:
    battles[0]["routs"].append(True)
    state = position(control={"RAE": "red", "GAL": "blue", "ITA": "blue"}, warehouse={"red": 3})
    p = play(state)
    then = (PlaceTrade((TradeTarget("GAL"),)),)
    actions.take_action(p, "red", attack("GAL", "RAE", then))
    assert state.trade == {"GAL": {"red": 1}}
    assert events(p, "free_action") == [{"area": "GAL", "rule": "EAW-12.9"}]


def test_EAW_12_9_without_then_the_free_action_is_a_decision_whose_default_is_the_EAW_12_2_default(
    battles: list[dict[str, Any]],
) -> None:
    battles[0]["routs"].append(True)
    state = position(control={"RAE": ("red", 2), "GAL": "blue", "ITA": "blue"})
    p = play(state, ask=True)
    actions.take_action(p, "red", attack("GAL", "RAE"))
    decision = events(p, "decision")[0]
    assert decision["key"] == "free.GAL" and decision["choice"] == "CONTROL GAL" and decision["source"] == "default"
    assert [q.key for q in p.pending] == ["free.GAL"]
    assert state.markers("GAL") == 2  # GAL (1 marker after the capture) has fewer than RAE


def test_EAW_13_9_a_free_attack_that_routs_again_earns_no_second_free_action(battles: list[dict[str, Any]]) -> None:
    battles[0]["routs"].extend([True, True])
    state = position(control={"RAE": "red", "GAL": "blue", "ITA": "blue", "NUM": "blue"})
    p = play(state, dice=[2])
    second = (Attack("ITA", "GAL", (), (PlaceControl("GAL"),)),)
    actions.take_action(p, "red", attack("GAL", "RAE", second))
    assert [b["target"] for b in battles[1:]] == ["GAL", "ITA"]
    assert len(events(p, "free_action")) == 1
    assert events(p, "no_second_free_action") == [{"area": "ITA", "rule": "EAW-13.9"}]
    assert state.markers("GAL") == 1


def test_EAW_8_11_a_battle_the_defender_holds_earns_no_free_action(battles: list[dict[str, Any]]) -> None:
    state = position(control={"RAE": "red", "GAL": "blue", "ITA": "blue"}, warehouse={"red": 3})
    p = play(state)
    actions.take_action(p, "red", attack("GAL", "RAE", (PlaceTrade((TradeTarget("RAE"),)),)))
    assert not events(p, "free_action") and state.trade == {}


def test_EAW_1_2_an_attack_needs_a_control_marker_in_stock_for_a_neutral_or_a_held_target() -> None:
    state = position(control={"RAE": "red", "GAL": "blue", "ITA": "blue"})
    state.players["red"].stock_control = 1
    assert rejected(state, "red", Attack("GER", "RAE")) is None
    state.players["red"].stock_control = 0
    assert rejected(state, "red", Attack("GER", "RAE")) == "EAW-1.2"
    assert rejected(state, "red", Attack("GAL", "RAE")) == "EAW-1.2"


# -- with the battles of battle.py (EAW-8) -------------------------------------------------------------------
def routing_position() -> GameState:
    """red's five strong cards against blue's one archer: red routs blue in GAL without a die (EAW-8.10)."""
    return position(
        control={"RAE": "red", "GAL": "blue", "ITA": "blue"},
        hands={"red": ["blade", "blade#2", "pike", "pike#2", "pike#3"], "blue": ["archer"]},
        warehouse={"red": 3},
    )


def test_EAW_12_9_an_answer_names_the_free_action_after_a_rout_in_battle() -> None:
    state = routing_position()
    p = play(state, answers={"red": {"free.GAL": "TRADE GAL"}})
    actions.take_action(p, "red", attack("GAL", "RAE"))
    assert state.controller("GAL") == "red" and state.trade == {"GAL": {"red": 1}}
    decision = events(p, "decision")[-1]
    assert (decision["key"], decision["source"]) == ("free.GAL", "answer")


def test_EAW_12_9_an_unreadable_answer_is_refused_and_the_default_taken() -> None:
    state = routing_position()
    p = play(state, answers={"red": {"free.GAL": "FLY TO GAL"}})
    actions.take_action(p, "red", attack("GAL", "RAE"))
    refused = events(p, "answer_refused")
    assert refused and "EAW-12.9" in refused[0]["reason"]
    assert state.markers("GAL") == 2 and state.trade == {}


def test_EAW_12_9_with_no_marker_left_the_free_actions_default_as_shown_is_an_answer_taken() -> None:
    """EAW-12.9's default is EAW-12.2's, a control marker; with none left there is no action, and the question
    shows its default as "CONTROL". That answer was refused as an incomplete order (and the seat asked again, so
    self-play answering the defaults stopped with "still asks after 50 answers"); it is the default, taken."""
    state = routing_position()
    state.players["red"].stock_control = 1  # EAW-1.2: the attack may go; the capture places the last marker
    p = play(state, ask=True)
    actions.take_action(p, "red", attack("GAL", "RAE"))
    (asked,) = [q for q in p.pending if q.key == "free.GAL"]  # the battle stacks are asked too (EAW-12.6)
    assert asked.default == "CONTROL"
    state = routing_position()
    state.players["red"].stock_control = 1
    p = play(state, ask=True, answers={"red": {"free.GAL": asked.default}})
    actions.take_action(p, "red", attack("GAL", "RAE"))
    assert events(p, "answer_refused") == [] and "free.GAL" not in [q.key for q in p.pending]
    decision = events(p, "decision")[-1]
    assert (decision["key"], decision["choice"], decision["source"]) == ("free.GAL", "CONTROL", "answer")
    assert events(p, "action_lost") == [{"why": "no_plan", "rule": "EAW-12.2"}]
    assert state.controller("GAL") == "red" and state.players["red"].stock_control == 0
