"""Empires of the Ancient World: scoring and the end (EAW-10), played by the real scoring step on the test map of
tests/eaw_helpers.py."""

from __future__ import annotations

from typing import Any

from adjudicator.engine.chance import GivenDice
from adjudicator.engine.protocol import PUBLIC
from adjudicator.engine.steps import resolve_step
from adjudicator.rulesets import load_ruleset
from adjudicator.rulesets.empires.data import GameData
from adjudicator.rulesets.empires.game import EmpiresGame
from adjudicator.rulesets.empires.state import ENDED, REVOLT, SCORING, GameState
from tests.eaw_helpers import position, small_data


def bound(data: GameData | None = None) -> EmpiresGame:
    data = data or small_data()
    return EmpiresGame(load_ruleset("empires-aw").info, data, data.options)


def scored(game: EmpiresGame, state: GameState) -> Any:
    step = game.due(state)
    assert step is not None and step.phase == SCORING and step.seats == ()
    return resolve_step(game, state, step, {}, GivenDice())


def scoring_position(game_round: int = 2, **given: Any) -> GameState:
    return position(phase=SCORING, game_round=game_round, **given)


def test_EAW_10_3_control_scores_the_full_value_of_every_area_held_seas_too_markers_and_forts_add_nothing() -> None:
    game = bound()
    state = scoring_position(control={"ITA": ("red", 3), "MCE": "red", "GAL": "blue"}, forts={"ITA": "red"})
    result = scored(game, state)
    red = result.state.players["red"].scores[-1]
    assert red["control"] == {"vp": 12, "areas": {"ITA": 4, "MCE": 8}}
    assert result.state.players["red"].vp == 12 and result.state.players["blue"].vp == 3


def test_EAW_10_4_trade_majority_scores_half_the_value_rounded_down_EAW_13_21_a_tie_scores_nothing() -> None:
    game = bound()
    trade = {"EGY": {"red": 2, "blue": 1}, "ITA": {"red": 3, "blue": 3}, "GAL": {"blue": 1}}
    result = scored(game, scoring_position(control={"ITA": "green"}, trade=trade))
    sheets = {s: result.state.players[s].scores[-1] for s in ("red", "blue", "green")}
    assert sheets["red"]["trade"] == {"vp": 2, "areas": {"EGY": 2}}  # 5 // 2
    assert sheets["blue"]["trade"] == {"vp": 1, "areas": {"GAL": 1}}  # 3 // 2
    assert sheets["green"]["trade"]["vp"] == 0 and sheets["green"]["control"]["vp"] == 4  # EAW-13.21: control stays


def test_EAW_10_6_plunder_unset_scores_0_and_is_reported_and_a_set_rate_counts_each_marker() -> None:
    state = scoring_position(control={"ITA": "red"})
    state.players["red"].plunder = {"blue": 3}
    result = scored(bound(), state)
    red = result.state.players["red"].scores[-1]
    assert red["plunder"] == {"markers": 3, "rate": None, "vp": 0}
    assert next(e for e in result.events if e.kind == "scoring").data["plunder_vp_unset"] is True
    result = scored(bound(small_data(plunder_vp=2)), state)
    assert result.state.players["red"].scores[-1]["plunder"] == {"markers": 3, "rate": 2, "vp": 6}
    assert result.state.players["red"].plunder == {"blue": 3}  # kept after the scoring (EAW-10.6)


def test_EAW_10_5_upkeep_of_hand_and_personalities_told_privately_and_VP_may_fall_below_zero() -> None:
    hands = {"red": ["blade", "catapult", "pike"]}
    state = scoring_position(control={"RAE": "red"}, hands=hands, personalities={"red": ["general"]})
    result = scored(bound(), state)
    red = result.state.players["red"]
    assert red.scores[-1]["upkeep"] == {"vp": -4} and red.scores[-1]["total"] == -2 and red.vp == -2
    upkeep = next(e for e in result.events if e.kind == "upkeep")
    assert upkeep.visible_to == frozenset({"red"}) and upkeep.data["cards"] == {"blade": 1, "catapult": 2, "general": 1}
    public = str([e.data for e in result.events if e.public])
    assert "blade" not in public and "catapult" not in public  # the scoring names no card of the hand


def test_EAW_13_26_a_card_disbanded_before_the_scoring_costs_nothing() -> None:
    state = scoring_position(control={"RAE": "red"}, hands={"red": ["pike"]})
    state.discards = ["blade"]  # recruited and disbanded during the round (EAW-7.21)
    assert scored(bound(), state).state.players["red"].scores[-1]["upkeep"] == {"vp": 0}


def test_EAW_10_7_the_sheet_lists_control_trade_plunder_upkeep_in_order_and_the_snapshot_keeps_it() -> None:
    game = bound()
    state = scoring_position(control={"ITA": "red"}, trade={"ITA": {"red": 1}}, hands={"red": ["blade"]})
    result = scored(game, state)
    sheet = result.state.players["red"].scores[-1]
    assert list(sheet) == ["round", "control", "trade", "plunder", "upkeep", "total"]
    assert sheet["total"] == 4 + 2 + 0 - 1
    public = game.snapshot(result.state, PUBLIC)["public"]["players"]["red"]
    assert public["scores"] == [sheet] and public["vp"] == 5


def test_EAW_10_2_points_add_up_over_the_scorings_of_rounds_2_to_4_EAW_10_1() -> None:
    game = bound()
    state = scoring_position(control={"ITA": "red"})
    for expected_round, vp in ((2, 4), (3, 8), (4, 12)):
        state.phase, state.round = SCORING, expected_round
        state = scored(game, state).state
        assert state.players["red"].vp == vp and state.players["red"].scores[-1]["round"] == expected_round
    assert state.phase == ENDED and game.due(state) is None


def test_EAW_10_8_the_most_VP_wins_after_round_4_and_a_tie_is_shared() -> None:
    game = bound()
    result = scored(game, scoring_position(4, control={"ITA": "red", "AFR": "blue", "GAL": "green"}))
    assert result.state.winners == ["red", "blue"] and result.state.phase == ENDED
    ended = next(e for e in result.events if e.kind == "game_ended")
    assert ended.data["winners"] == ["red", "blue"] and ended.data["vp"] == {"red": 4, "blue": 4, "green": 3}
    assert ended.data["scores"] == ended.data["vp"]  # the demo's final score reads `scores`


def test_EAW_10_8_tie_break_most_trade_decides_among_the_tied() -> None:
    game = bound(small_data(tie_break="most_trade"))
    state = scoring_position(4, control={"SIC": "red", "ITA": "blue"}, trade={"GAL": {"red": 1}})
    assert scored(game, state).state.winners == ["red"]  # red 3 + 1 trade, blue 4: tied at 4, red has more trade


def test_EAW_10_2_round_3_scoring_leads_to_round_4_revolt() -> None:
    after = scored(bound(), scoring_position(3, control={"ITA": "red"})).state
    assert after.phase == REVOLT and after.round == 4 and after.winners == []
