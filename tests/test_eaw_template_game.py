"""The orders template and the order language of Empires of the Ancient World in a real game (game.py): the template
is made for the step each seat orders in next, its example lines are read by the game's own parser and accepted by the
game's receipts (setup.py's for the placement, the actions' checks.py for a plan), and the placement and the plans
resolved from those very lines do what they say.

One game of three seats on the small test map (tests/eaw_helpers.py), played with keyed dice once per module."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from adjudicator.engine.chance import KeyedDice
from adjudicator.engine.steps import resolve_step
from adjudicator.orders import parse_orders
from adjudicator.orders.sets import OrderSet
from adjudicator.rulesets import load_ruleset
from adjudicator.rulesets.empires.data import Pieces
from adjudicator.rulesets.empires.game import EmpiresGame
from adjudicator.rulesets.empires.orders import BuildFort, FortChoice, PlanLine
from adjudicator.rulesets.empires.orders_template import OrdersTemplate, TemplateMaker
from adjudicator.rulesets.empires.parse import read_action_line
from adjudicator.rulesets.empires.state import ENDED, PLACEMENT, PLANS, GameState
from tests.eaw_helpers import small_data

SEATS = ("red", "blue", "green")
DATA = small_data(pieces=Pieces(control_markers=12, trade_markers=25, forts=2))


def keyed(number: int) -> KeyedDice:
    return KeyedDice(key=bytes([number % 256]) * 32, orders_hash=f"h{number}", hidden_key=b"s" * 32)


def mail(template: OrdersTemplate, seat: str, lines: list[str] | None = None) -> str:
    return "\n".join([f"GAME g TURN {template.step} PLAYER {seat} PASSWORD x", *(lines or template.examples)]) + "\n"


@dataclass
class Played:
    """The game, its state before the placement and before round 1's plans, and the templates and mails sent."""

    game: EmpiresGame
    placement: GameState
    plans: GameState
    sent: dict[str, OrderSet]


@pytest.fixture(scope="module")
def played() -> Played:
    game = EmpiresGame(load_ruleset("empires-aw").info, DATA, DATA.options)
    state = game.initial_state("g", list(SEATS))
    placement = state
    sent: dict[str, OrderSet] = {}
    while (step := game.due(state)) is not None and step.phase != PLANS:
        if step.phase == PLACEMENT:
            placement = state
        given: dict[str, OrderSet | None] = {}
        for seat in step.seats:
            template = TemplateMaker(game, state)(seat)
            assert template is not None and template.step == step.number
            sent[seat] = given[seat] = parse_orders(mail(template, seat), game)
        state = resolve_step(game, state, step, given, keyed(step.number)).state
    return Played(game, placement, state, sent)


def test_EAW_12_1_the_placement_template_is_for_the_placement_step_and_its_lines_are_accepted(played: Played) -> None:
    game, state = played.game, played.placement
    step = game.due(state)
    assert step is not None and step.phase == PLACEMENT
    for seat in SEATS:
        template = TemplateMaker(game, state)(seat, "de")
        assert template is not None and template.phase == PLACEMENT and template.step == step.number
        parsed = parse_orders(mail(template, seat), game)
        assert not parsed.errors and len(parsed.orders) == 3
        results = game.check_orders(state, seat, step.number, parsed, keyed(1))
        assert [r.accepted for r in results] == [True, True, True], [r.verdict for r in results]


def test_EAW_12_14_the_placement_resolved_from_the_template_puts_each_fort_where_its_list_says(
    played: Played,
) -> None:
    state = played.plans
    for seat in SEATS:
        wanted = next(o for o in played.sent[seat].orders if isinstance(o, FortChoice))
        forts = [area for area, owner in state.forts.items() if owner == seat]
        assert len(forts) == 1
        held = [a for a in wanted.areas if state.controller(a) == seat]
        assert forts[0] == held[0]  # the first of its list it holds (EAW-12.14)


def test_EAW_12_14_a_fort_line_with_one_area_is_accepted_in_the_placement_and_in_a_plan(played: Played) -> None:
    game = played.game
    placement = game.due(played.placement)
    assert placement is not None
    text = "GAME g TURN 2 PLAYER red PASSWORD x\nSTART ITA\nFORT ITA\n"
    results = game.check_orders(played.placement, "red", placement.number, parse_orders(text, game), keyed(2))
    assert [(r.accepted, r.rule) for r in results] == [(True, "EAW-3.7"), (True, "EAW-3.10")]
    plans = game.due(played.plans)
    assert plans is not None and plans.phase == PLANS
    site = next(a for a in played.plans.controlled("red") if DATA.map.areas[a].is_province)
    parsed = parse_orders(f"GAME g TURN {plans.number} PLAYER red PASSWORD x\nFORT {site}\n", game)
    line = parsed.orders[0]
    assert isinstance(line, PlanLine) and line.alternatives == (BuildFort(site),)
    assert [r.accepted for r in game.check_orders(played.plans, "red", plans.number, parsed, keyed(3))] == [True]


@pytest.mark.parametrize("language", ["en", "de", "it", "nl"])
def test_EAW_12_2_the_plans_template_lines_are_accepted_by_the_actions_checks(played: Played, language: str) -> None:
    game, state = played.game, played.plans
    step = game.due(state)
    assert step is not None and step.phase == PLANS
    for seat in SEATS:
        template = TemplateMaker(game, state)(seat, language)
        assert template is not None and template.phase == PLANS and template.step == step.number
        assert len(template.examples) >= 5
        parsed = parse_orders(mail(template, seat), game)
        assert not parsed.errors, [e.located for e in parsed.errors]
        results = game.check_orders(state, seat, step.number, parsed, keyed(4))
        assert results and all(r.accepted for r in results), [r.verdict for r in results]


def test_EAW_12_9_an_answer_is_read_by_the_games_own_language(played: Played) -> None:
    area = played.plans.controlled("red")[0]
    assert read_action_line(f"KONTROLLE {area.lower()}", played.game)[0].area == area  # type: ignore[union-attr]


def test_the_template_of_an_ended_game_is_none(played: Played) -> None:
    state = played.plans.copy()
    state.phase = ENDED
    assert TemplateMaker(played.game, state)("red") is None


def test_the_report_context_gives_the_template(played: Played) -> None:
    made = played.game.report_context(played.plans)["orders_template"]("blue", "it")
    assert isinstance(made, OrdersTemplate) and made.phase == PLANS
