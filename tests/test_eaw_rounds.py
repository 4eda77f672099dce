"""Empires of the Ancient World: the game round (EAW-4), the revolt check (EAW-5), income and the start player (EAW-6)
and the payments of EAW-6.3, played by the real steps on the test map of tests/eaw_helpers.py.

The action steps call actions.take_action (the actions' module); the tests of the step sequence replace it by a stub
that only records whose action it was and which line, so that they test the flow and not the actions."""

from __future__ import annotations

from typing import Any

import pytest

from adjudicator.engine.chance import DiceError, GivenDice
from adjudicator.engine.steps import Step, resolve_step
from adjudicator.engine.vocabulary import Rejected
from adjudicator.orders.sets import OrderSet
from adjudicator.rulesets import load_ruleset
from adjudicator.rulesets.empires import economy, rounds
from adjudicator.rulesets.empires.data import GameData, Pieces
from adjudicator.rulesets.empires.game import EmpiresGame
from adjudicator.rulesets.empires.orders import DefendOrder, PlaceControl, PlanLine
from adjudicator.rulesets.empires.play import Play
from adjudicator.rulesets.empires.state import ACTION, ENDED, PLANS, REVOLT, SCORING, GameState
from tests.eaw_helpers import play, position, small_data

SEATS = ("red", "blue", "green")


def bound(data: GameData | None = None) -> EmpiresGame:
    data = data or small_data()
    return EmpiresGame(load_ruleset("empires-aw").info, data, data.options)


def step_of(game: EmpiresGame, state: GameState, given: dict[str, Any] | None = None, dice: list[int] = ()) -> Any:
    step = game.due(state)
    assert step is not None
    return resolve_step(game, state, step, given or {}, GivenDice(values=list(dice)))


def line(area: str, n: int = 1) -> PlanLine:
    return PlanLine((PlaceControl(area),), line=n, text=f"CONTROL {area}")


def plan(*areas: str, standing: tuple[Any, ...] = ()) -> OrderSet:
    return OrderSet(None, (*standing, *(line(a, n) for n, a in enumerate(areas, 1))))


@pytest.fixture
def taken(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str | None]]:
    """The actions taken, (seat, the line's text or None for the EAW-12.2 default): a stub of actions.take_action."""
    calls: list[tuple[str, str | None]] = []

    def stub(play: Play, seat: str, given: PlanLine | None) -> None:
        calls.append((seat, None if given is None else given.text))

    monkeypatch.setattr(rounds, "take_action", stub)
    return calls


# -- EAW-5: revolts ---------------------------------------------------------------------------------------------


def revolt_position(**given: Any) -> GameState:
    state = position(phase=REVOLT, **given)
    state.action_round = 0
    return state


def test_EAW_5_1_table_die_then_column_die_EAW_0_5_and_EAW_5_2_each_province_loses_a_marker() -> None:
    game = bound()
    state = revolt_position(control={"GAL": "red", "ITA": ("red", 2), "RAE": "red", "SIC": "green"})
    result = step_of(game, state, dice=[3, 5])  # 1-3: the north table; column 5: GAL, ITA
    assert result.dice == [("revolt table", 3), ("revolt column", 5)]
    after = result.state
    assert after.controller("GAL") is None  # its only marker gone: neutral (EAW-5.2)
    assert after.markers("ITA") == 1 and after.controller("ITA") == "red"  # EAW-13.3: one of two removed
    roll = next(e for e in result.events if e.kind == "revolt_roll")
    assert roll.data == {"table": "north", "column": 5, "provinces": ["GAL", "ITA"], "rule": "EAW-5.1"}
    assert [(e.data["area"], e.data["markers"]) for e in result.events if e.kind == "revolt"] == [
        ("GAL", 0),
        ("ITA", 1),
    ]
    assert after.phase == PLANS


def test_EAW_13_3_two_markers_one_removed_and_EAW_13_4_a_fort_holds() -> None:
    game = bound()
    state = revolt_position(control={"GAL": "red", "ITA": ("red", 2), "RAE": "red"}, forts={"GAL": "red"})
    after = step_of(game, state, dice=[1, 5]).state
    assert after.markers("GAL") == 1 and after.markers("ITA") == 1


def test_EAW_13_5_EAW_2_8_a_revolt_never_takes_the_last_province() -> None:
    game = bound()
    state = revolt_position(control={"ITA": "red", "MCE": "red", "SIC": "blue", "GAL": "blue"})
    result = step_of(game, state, dice=[1, 3])  # north, column 3: ITA, red's only province (a sea is none)
    assert result.state.controller("ITA") == "red"
    held = next(e for e in result.events if e.kind == "revolt_held")
    assert held.data == {"area": "ITA", "reason": "last_province", "rule": "EAW-2.8"}


def test_EAW_2_8_last_province_battle_only_lets_a_revolt_take_it() -> None:
    game = bound(small_data(last_province="battle_only"))
    state = revolt_position(control={"ITA": "red", "SIC": "blue"})
    assert step_of(game, state, dice=[1, 3]).state.controller("ITA") is None


def test_EAW_5_2_the_last_province_is_judged_one_province_at_a_time() -> None:
    game = bound()
    state = revolt_position(control={"GAL": "red", "ITA": "red"})
    after = step_of(game, state, dice=[2, 5]).state  # GAL then ITA: GAL falls, ITA is then the last
    assert after.controller("GAL") is None and after.controller("ITA") == "red"


def test_EAW_5_2_a_neutral_province_and_an_empty_column_change_nothing() -> None:
    game = bound()
    result = step_of(game, revolt_position(control={"AFR": "red"}), dice=[6, 6])
    assert result.state.controller("AFR") == "red"
    assert [e.kind for e in result.events if e.kind.startswith("revolt")] == ["revolt_roll"]
    result = step_of(game, revolt_position(control={"AFR": "red", "CRE": "red"}), dice=[4, 2])  # NUM: nobody's
    assert [e.kind for e in result.events if e.kind.startswith("revolt")] == ["revolt_roll", "revolt_neutral"]


def test_EAW_1_2_a_marker_lost_to_a_revolt_returns_to_its_stock() -> None:
    game = bound(small_data(pieces=Pieces(control_markers=5)))
    state = revolt_position(control={"GAL": "red", "ITA": ("red", 2), "RAE": "red"}, deck=small_data().general_deck)
    for player in state.players.values():
        player.stock_control = 5 - sum(c.markers for c in state.control.values() if c.seat == player.seat)
    after = step_of(game, state, dice=[1, 5]).state
    assert after.players["red"].stock_control == 3 and game.broken_invariants(after) == []


# -- EAW-6: income and the start player -------------------------------------------------------------------------


def test_EAW_6_1_EAW_2_7_income_5_plus_amphorae_plus_merchants_and_EAW_6_2_no_pass_in_round_1() -> None:
    game = bound()
    state = revolt_position(
        control={"ITA": "red", "AFR": "red", "GAL": "red", "MOC": "blue", "EGY": "green"},
        personalities={"red": ["trader"], "blue": ["trader", "trader#2"]},
        warehouse={"green": 3},
    )
    result = step_of(game, state, dice=[6, 6])
    after = result.state
    assert [after.players[s].warehouse for s in SEATS] == [8, 7, 8]  # red 5+2+1, blue 5+2, green 3+5
    assert after.start_player == "red" and not any(e.kind == "start_player_passes" for e in result.events)


def test_EAW_6_1_a_short_stock_gives_what_is_left() -> None:
    game = bound(small_data(pieces=Pieces(trade_markers=6)))
    state = revolt_position(control={"ITA": "red", "SIC": "blue", "EGY": "green"}, deck=small_data().general_deck)
    for player in state.players.values():
        player.stock_trade = 6
    state.players["red"].stock_trade, state.players["red"].warehouse = 4, 2
    result = step_of(game, state, dice=[6, 6])
    income = {e.seat: (e.data["markers"], e.data["due"]) for e in result.events if e.kind == "income"}
    assert income == {"red": (4, 6), "blue": (5, 5), "green": (5, 5)}
    assert result.state.players["red"].stock_trade == 0 and result.state.players["red"].warehouse == 6
    assert game.broken_invariants(result.state) == []


def test_EAW_6_2_the_start_player_passes_to_the_left_from_round_2() -> None:
    game = bound()
    state = revolt_position(control={"ITA": "red", "SIC": "blue", "EGY": "green"})
    state.round, state.start_player = 2, "green"
    result = step_of(game, state, dice=[6, 6])
    assert result.state.start_player == "red"  # the next after green in seating order, round the table
    assert result.state.action_order() == ["red", "blue", "green"]


def test_EAW_6_3_payments_return_to_the_payers_stock_and_a_short_warehouse_is_refused() -> None:
    data = small_data(pieces=Pieces(trade_markers=10))
    state = position(data, warehouse={"red": 3})
    for player in state.players.values():
        player.stock_trade = 10 - player.warehouse
    p = play(state, data)
    economy.pay(p, "red", 2, "EAW-7.10", "diplomacy")
    assert state.players["red"].warehouse == 1 and state.players["red"].stock_trade == 9
    with pytest.raises(Rejected) as refused:
        economy.pay(p, "red", 2, "EAW-7.25")
    assert refused.value.rule == "EAW-7.25" and state.players["red"].warehouse == 1
    assert economy.take_to_warehouse(p, "red", 20) == 9 and state.players["red"].stock_trade == 0


def test_EAW_8_13_plunder_pays_only_when_plunder_spendable_and_goes_to_its_owners_stock() -> None:
    data = small_data(pieces=Pieces(trade_markers=10), plunder_spendable="true")
    state = position(data, warehouse={"red": 1})
    state.players["red"].plunder = {"blue": 2}
    for player in state.players.values():
        player.stock_trade = 10 - player.warehouse
    state.players["blue"].stock_trade = 8
    p = play(state, data)
    economy.pay(p, "red", 2, "EAW-7.10")
    assert state.players["red"].warehouse == 0 and state.players["red"].plunder == {"blue": 1}
    assert state.players["blue"].stock_trade == 9
    assert not economy.can_pay(play(state, small_data()), "red", 1)  # plunder_spendable false: none to pay with


# -- EAW-4: the steps of a round ---------------------------------------------------------------------------------


def placed_game(data: GameData | None = None) -> tuple[EmpiresGame, GameState]:
    """A game after its deal and placement (no orders: the defaults), at round I's revolt step."""
    game = bound(data)
    state = game.initial_state("g", list(SEATS))
    state = step_of(game, state, dice=[1] * 20 + [1]).state  # the deal; red sets up first
    state = step_of(game, state, dict.fromkeys(SEATS), dice=[1, 1, 1, 1]).state  # red starts (EAW-3.11)
    assert state.phase == REVOLT and state.start_player == "red"
    return game, state


def to_plans(game: EmpiresGame, state: GameState) -> GameState:
    return step_of(game, state, dice=[6, 6]).state  # north? 6 is south; column 6: nothing revolts


def test_EAW_4_2_every_seat_acts_once_per_action_round_from_the_start_player_EAW_4_3_ten_rounds(
    taken: list[Any],
) -> None:
    game, state = placed_game()
    state.start_player = "blue"
    state = to_plans(game, state)
    plans = game.due(state)
    assert plans == Step(state.steps_done + 1, PLANS, SEATS, sealed=True)
    state = step_of(game, state, dict.fromkeys(SEATS)).state  # nobody sends a plan: defaults, no stop
    while state.phase == ACTION:
        step = game.due(state)
        assert step is not None and step.seats == ()
        state = step_of(game, state).state
    assert taken == [(s, None) for _ in range(10) for s in ("blue", "green", "red")]
    assert state.phase == REVOLT and state.round == 2  # round I is not scored (EAW-10.2)


def test_EAW_12_2_a_seat_whose_plan_ran_out_is_the_steps_seat_and_its_mail_becomes_its_plan(
    taken: list[Any],
) -> None:
    game, state = placed_game()
    state = to_plans(game, state)
    number = state.steps_done + 1
    # in the plans phase the action steps are foreseen without waiting (no plan is in yet)
    assert all(not s.seats for s in game.coming_steps(state)[1:])
    given = {"red": plan("ITA"), "blue": None, "green": plan("GAL", "RAE", standing=(DefendOrder(True),))}
    result = step_of(game, state, given)
    state = result.state
    assert [v.accepted for v in result.order_results["red"]] == [True]
    assert state.players["green"].standing == {"defend": {"*": "siege"}}
    coming = game.coming_steps(state)
    waiting = [(s.number - number, s.seats) for s in coming if s.seats]
    assert waiting == [(4, ("red",)), (9, ("green",))]  # red's 2nd action, green's 3rd; blue never waits
    assert game.next_steps(state) == {"red": number + 4, "green": number + 9, "blue": coming[-1].number + 2}
    for _ in range(3):
        state = step_of(game, state).state
    assert taken == [("red", "CONTROL ITA"), ("blue", None), ("green", "CONTROL GAL")]
    assert game.due(state) == Step(number + 4, ACTION, ("red",))
    red_mail = plan("SIC", "AFR")
    result = step_of(game, state, {"red": red_mail})
    assert taken[-1] == ("red", "CONTROL SIC") and result.state.players["red"].plan == [line("AFR", 2).to_json()]
    assert [v.line for v in result.order_results["red"]] == [1, 2]
    state = result.state
    state = step_of(game, state).state  # blue: the default again
    state = step_of(game, state).state  # green: RAE, its last line
    ran_out = [e for e in result.events if e.kind == "plan_ran_out"]
    assert ran_out == []
    state = step_of(game, state).state  # red: AFR from its new plan
    assert taken[-3:] == [("blue", None), ("green", "CONTROL RAE"), ("red", "CONTROL AFR")]
    assert game.due(state) == Step(state.steps_done + 1, ACTION, ())  # blue sent nothing: never waits
    state = step_of(game, state).state
    assert game.due(state) == Step(state.steps_done + 1, ACTION, ("green",))
    result = step_of(game, state, {"green": None})  # the deadline passed without its mail: the default
    assert taken[-1] == ("green", None)


def test_EAW_12_2_the_report_says_privately_when_a_plan_ran_out(taken: list[Any]) -> None:
    game, state = placed_game()
    state = step_of(game, to_plans(game, state), {"red": plan("ITA"), "blue": None, "green": None}).state
    result = step_of(game, state)
    ran_out = [e for e in result.events if e.kind == "plan_ran_out"]
    assert len(ran_out) == 1 and ran_out[0].visible_to == frozenset({"red"}) and ran_out[0].data["actions_left"] == 9


def test_EAW_4_4_scoring_after_rounds_2_to_4_and_EAW_10_8_the_end(taken: list[Any]) -> None:
    game, state = placed_game(small_data(action_rounds_first=4))  # 4, 3, 2, 1 action rounds
    phases: list[tuple[int, str]] = []
    while game.due(state) is not None:
        step = game.due(state)
        assert step is not None
        phases.append((state.round, step.phase))
        given = dict.fromkeys(step.seats)
        dice = [6, 6] if step.phase == REVOLT else []
        state = step_of(game, state, given, dice).state
    assert state.phase == ENDED and game.coming_steps(state) == [] and game.next_steps(state) == {}
    scorings = [r for r, phase in phases if phase == SCORING]
    assert scorings == [2, 3, 4]
    assert [phases.count((r, ACTION)) for r in (1, 2, 3, 4)] == [12, 9, 6, 3]
    assert len(taken) == 30 and state.winners and game.broken_invariants(state) == []


def test_EAW_10_5_upkeep_every_round_adds_a_scoring_after_round_1(taken: list[Any]) -> None:
    game, state = placed_game(small_data(action_rounds_first=4, upkeep_timing="every_round"))
    state = step_of(game, to_plans(game, state), dict.fromkeys(SEATS)).state
    coming = game.coming_steps(state)
    assert coming[-1].phase == SCORING and len(coming) == 12 + 1
    while state.phase == ACTION:
        state = step_of(game, state).state
    assert state.phase == SCORING and state.round == 1


def test_EAW_4_3_coming_steps_list_the_round_and_next_steps_the_next_plans() -> None:
    game, state = placed_game()
    coming = game.coming_steps(state)
    assert [s.phase for s in coming[:2]] == [REVOLT, PLANS] and len(coming) == 2 + 30
    assert coming[-1].phase == ACTION and all(s.number == coming[0].number + i for i, s in enumerate(coming))
    assert game.next_steps(state) == dict.fromkeys(SEATS, coming[1].number)


# -- EAW-0.3, EAW-0.4: the dice of every roll (play.py) ---------------------------------------------------------


def test_EAW_0_4_a_roll_of_n_succeeds_at_n_by_default_and_only_above_n_with_threshold_gt_EAW_0_3() -> None:
    state = position()
    assert play(state, dice=[4]).succeeds("sea move", 4, "EAW-7.3")
    assert not play(state, dice=[3]).succeeds("sea move", 4, "EAW-7.3")
    assert play(state, dice=[3]).succeeds("sea move", 4, "EAW-7.3", bonus=1)
    gt = small_data(threshold="gt")
    assert not play(state, gt, dice=[4]).succeeds("sea move", 4, "EAW-7.3")
    assert play(state, gt, dice=[5]).succeeds("sea move", 4, "EAW-7.3")
    with pytest.raises(DiceError, match="1-6"):  # EAW-0.3: a six-sided die
        play(state, dice=[7]).roll("revolt table", "EAW-5.1")


def test_EAW_5_3_only_the_provinces_the_table_lists_revolt() -> None:
    game = bound()
    control = {"GAL": "red", "RAE": "red", "ITA": "blue", "SIC": "blue", "MCE": "green", "AFR": "green"}
    after = step_of(game, revolt_position(control=control), dice=[1, 2]).state  # north 2: RAE, GER
    assert {a: c.seat for a, c in after.control.items()} == {k: v for k, v in control.items() if k != "RAE"}
