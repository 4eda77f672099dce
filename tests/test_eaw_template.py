"""The orders template of Empires of the Ancient World (orders_template.py): the choices of a seat's next step as the
position stands, in the reader's language, and example lines that parse back to the orders they show (and that the
step's checks accept, where they can judge them); the HELP mail's order forms parse in every language.

Positions are built on the small test map of tests/eaw_helpers.py (north: GAL RAE GER ITA SIC; south: AFR NUM EGY CRE;
Mediterranean seas MOC MCE MOR; PON)."""

from __future__ import annotations

from dataclasses import replace
from functools import cache

import pytest

from adjudicator.orders import KEYWORD_LANGUAGES, parse_orders
from adjudicator.orders.sets import Answer
from adjudicator.render import render
from adjudicator.rulesets.empires.data import GameData
from adjudicator.rulesets.empires.orders import (
    AmbushOrder,
    Attack,
    DefendOrder,
    Diplomacy,
    FortChoice,
    LossesOrder,
    PlaceControl,
    PlanLine,
    Recruit,
    StartChoice,
    canonical,
)
from adjudicator.rulesets.empires.orders_template import OrdersTemplate, Template
from adjudicator.rulesets.empires.parse import OrderLanguage, read_action_line
from adjudicator.rulesets.empires.state import ACTION, PLACEMENT, PLANS, Control, GameState
from tests.eaw_helpers import position, small_data

SEATS = ("red", "blue", "green")


@cache
def data() -> GameData:
    return small_data()


@cache
def language() -> OrderLanguage:
    return OrderLanguage(data(), SEATS)


def middle_game(**changes: object) -> GameState:
    """red holds RAE and ITA (2 markers, a fort); blue GAL and AFR, green MCE and EGY."""
    given: dict[str, object] = {
        "control": {"RAE": "red", "ITA": ("red", 2), "GAL": "blue", "AFR": "blue", "MCE": "green", "EGY": "green"},
        "forts": {"ITA": "red"},
        "hands": {"red": ["pike", "archer", "guard_a", "horse_a"]},
        "warehouse": {"red": 5},
        "display": ["pike#2", "rider", "envoy", "camel", "blade", "galley"],
        "trade": {"GAL": {"blue": 3}},
        "phase": PLANS,
    }
    given.update(changes)
    return position(data(), **given)  # type: ignore[arg-type]


def made(state: GameState, phase: str = PLANS, lang: str = "en", seat: str = "red") -> OrdersTemplate:
    return Template(data(), data().options, state, seat, lang).make(7, phase)


def lines(template: OrdersTemplate) -> list[str]:
    return [template.what] + [x for s in template.sections for x in (s.title, *s.lines)]


def has(template: OrdersTemplate, text: str) -> bool:
    return any(text in line for line in lines(template))


def read(examples: list[str], seat: str = "red") -> list[object]:
    """The example lines as the parser reads them (any language), without their line and text."""
    result = parse_orders("\n".join([f"GAME g TURN 7 PLAYER {seat} PASSWORD x", *examples]), language())
    assert not result.errors, [e.located for e in result.errors]
    return [replace(o, line=0, text="") for o in result.orders]


# -- the examples ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", KEYWORD_LANGUAGES)
def test_EAW_12_2_the_plan_examples_parse_to_the_same_orders_in_every_language(lang: str) -> None:
    english = made(middle_game()).examples
    written = made(middle_game(), lang=lang).examples
    assert len(english) >= 8
    assert read(written) == read(english)


def test_EAW_12_2_the_plan_examples_show_each_action_with_the_default_as_fall_back() -> None:
    orders = read(made(middle_game()).examples)
    plans = [o for o in orders if isinstance(o, PlanLine)]
    kinds = {type(a).__name__ for p in plans for a in p.alternatives}
    assert kinds >= {"Attack", "Diplomacy", "Recruit", "Disband", "BuildFort", "PlaceTrade", "PlaceControl"}
    # EAW-12.2's default falls back to the province of fewest markers: RAE (1) rather than ITA (2)
    assert PlanLine((PlaceControl("RAE"),)) in plans
    assert DefendOrder(True, "ITA") in orders  # a fortified province of red's (EAW-12.4)


def test_EAW_7_4_an_attack_example_on_a_neutral_area_takes_no_battle_stack() -> None:
    attacks = [a for o in read(made(middle_game()).examples) if isinstance(o, PlanLine) for a in o.alternatives]
    attack = next(a for a in attacks if isinstance(a, Attack))
    assert attack.stack == () and data().map.areas[attack.target] is not None
    assert middle_game().controller(attack.target) is None


def test_EAW_12_3_the_recruit_example_refreshes_only_with_a_marker_to_pay() -> None:
    rich = [o for o in read(made(middle_game()).examples) if isinstance(o, PlanLine)]
    poor = [o for o in read(made(middle_game(warehouse={"red": 0})).examples) if isinstance(o, PlanLine)]
    assert Recruit(("pike", "rider", "best"), "if_none") in [a for p in rich for a in p.alternatives]
    assert Recruit(("pike", "rider", "best"), "no") in [a for p in poor for a in p.alternatives]
    # and without markers there is no fort, trade nor diplomacy to show (EAW-7.10, EAW-7.25, EAW-7.30)
    kinds = {type(a).__name__ for p in poor for a in p.alternatives}
    assert not kinds & {"BuildFort", "PlaceTrade", "Diplomacy"}


# -- the choices shown -------------------------------------------------------------------------------------------------
def test_EAW_7_2_EAW_7_3_EAW_7_4_attack_targets_name_the_rolls_they_need() -> None:
    template = made(middle_game())
    assert has(
        template,
        "ATTACK SIC FROM ITA: crossing: 2+ (EAW-7.2); sea movement: 4+ with +1 (EAW-7.3); "
        "neutral province: 3+ (EAW-7.4)",
    )
    assert has(template, "ATTACK GER FROM RAE: crossing: 2+ (EAW-7.2); neutral province: 3+ (EAW-7.4)")
    assert has(template, "ATTACK MCE FROM ITA: sea movement: 4+ with +0 (EAW-7.3); naval battle against green")
    # EAW-2.3: from a Mediterranean province to another across the sea
    assert has(template, "ATTACK CRE FROM ITA: sea movement: 4+ with +0 (EAW-7.3); neutral province: 3+")


def test_EAW_7_3_a_controlled_sea_the_lane_crosses_adds_one_more() -> None:
    state = middle_game(control={"ITA": "red", "MCE": "red", "GAL": "blue", "AFR": "blue", "EGY": "green"})
    assert has(made(state), "ATTACK SIC FROM ITA: crossing: 2+ (EAW-7.2); sea movement: 4+ with +2 (EAW-7.3)")


def test_EAW_0_4_with_threshold_gt_the_rolls_read_more_than() -> None:
    state = middle_game()
    template = Template(data(), replace(data().options, threshold="gt"), state, "red", "en").make(7, PLANS)
    assert has(template, "ATTACK GER FROM RAE: crossing: more than 2 (EAW-7.2)")


def test_EAW_13_18_a_players_only_province_is_no_target_but_his_sea_is() -> None:
    state = middle_game(control={"RAE": "red", "ITA": "red", "GAL": "blue", "MOC": "blue", "EGY": "green"})
    template = made(state)
    assert not has(template, "ATTACK GAL FROM")
    assert has(template, "ATTACK MOC FROM ITA")


def test_EAW_7_23_a_card_labelled_for_the_other_half_is_marked_in_the_display() -> None:
    template = made(middle_game())
    assert has(template, "camel: value 3, mounted, fast, label S (not for you (EAW-7.22, EAW-7.23))")
    assert has(template, "rider: value 4, mounted, fast, label N") and not has(template, "label N (not for you")


def test_EAW_13_17_disband_only_a_card_without_an_identical_one_face_up() -> None:
    template = made(middle_game())
    assert has(template, "DISBAND archer: instead of recruiting (EAW-7.21)")
    assert not has(template, "DISBAND pike")  # a pike lies in the display


def test_EAW_7_25_an_engineer_halves_the_fort_cost() -> None:
    assert has(made(middle_game()), "FORT RAE: 4 trade markers (EAW-7.25)")
    assert has(made(middle_game(personalities={"red": ["builder"]})), "FORT RAE: 2 trade markers (EAW-7.25)")


def test_EAW_2_6_trade_room_shows_full_areas() -> None:
    assert has(made(middle_game()), "GAL 3/3 full, GER 0/2, ITA 0/4")


def test_EAW_7_11_a_diplomat_is_shown_the_takeover_for_one_marker_and_the_removal() -> None:
    template = made(middle_game(personalities={"red": ["envoy"]}))
    assert has(template, "DIPLOMACY CRE, GER, MOC, MOR, SIC: 1 trade marker, no roll (EAW-7.11)")
    assert has(template, "DIPLOMACY REMOVE AFR, GAL, MCE PAY 0-3: 6+, +1 per marker paid")
    assert has(made(middle_game()), "DIPLOMACY CRE, GER, MOC, MOR, SIC: 2 trade markers, then 2+ (EAW-7.10)")


def test_EAW_12_4_the_standing_plans_and_the_plan_left_are_shown_as_lines() -> None:
    state = middle_game()
    player = state.players["red"]
    player.standing = {"defend": {"ITA": "siege"}, "stacks": {"siege.defend": ["pike"]}, "markers": "pull"}
    player.plan = [PlanLine((Attack("GAL", "RAE"), PlaceControl("RAE"))).to_json()]
    template = made(state, lang="de")
    assert has(template, "VERTEIDIGE BELAGERUNG IN ITA; STAPEL BELAGERUNG VERTEIDIGE: pike; MARKER ZIEHE")
    assert has(template, "ANGRIFF GAL AUS RAE SONST KONTROLLE RAE")


def test_EAW_12_2_a_seat_whose_plan_ran_out_is_told_its_line_is_this_action() -> None:
    template = made(middle_game(phase=ACTION), phase=ACTION)
    assert "your plan has run out" in template.what and "(EAW-12.2)" in template.what
    assert template.step == 7 and template.examples


def test_EAW_12_2_the_template_is_written_in_the_readers_keywords() -> None:
    template = made(middle_game(), lang="it")
    assert has(template, "ATTACCA SIC DA ITA")
    assert any(line.startswith("RECLUTA ") for line in template.examples)


# -- placement ---------------------------------------------------------------------------------------------------------
def test_EAW_12_1_EAW_12_13_EAW_12_14_the_placement_examples_pick_free_provinces_and_parse() -> None:
    state = position(data(), phase=PLACEMENT)
    template = made(state, PLACEMENT)
    orders = read(template.examples)
    assert orders[0] == StartChoice(("EGY", "AFR", "ITA"))  # the highest values first
    assert orders[2] == FortChoice(("EGY", "AFR", "ITA"))
    assert has(template, "south: AFR (4), CRE (3), EGY (5), NUM (2)")
    for lang in KEYWORD_LANGUAGES:
        assert read(made(state, PLACEMENT, lang).examples) == orders


def test_EAW_3_7_a_half_with_three_starters_is_not_offered() -> None:
    state = position(data(), seats=("red", "blue", "green", "yellow"), phase=PLACEMENT)
    for seat in ("blue", "green", "yellow"):
        state.players[seat].half = "south"
    template = made(state, PLACEMENT)
    assert has(template, "south: -")
    assert read(template.examples)[0] == StartChoice(("ITA", "GAL", "SIC"))


def test_EAW_12_14_a_single_fort_example_is_the_fort_line() -> None:
    state = position(data(), phase=PLACEMENT)
    for area in ("GAL", "RAE", "GER", "ITA", "SIC", "AFR", "NUM", "CRE"):
        state.control[area] = Control("blue")
    orders = read(made(state, PLACEMENT).examples)
    assert orders[0] == StartChoice(("EGY",)) and orders[-1] == FortChoice(("EGY",))


# -- HELP --------------------------------------------------------------------------------------------------------------
def help_forms(lang: str) -> list[str]:
    """The example lines of the HELP mail's forms of this game (indented by four spaces)."""
    text = render("help.txt.j2", lang, rulesets=[{"title": "Empires of the Ancient World", "templates": "empires"}])
    forms = text.split("Empires of the Ancient World", 1)[1].splitlines()
    return [line.strip() for line in forms if line.startswith("    ")]


@pytest.mark.parametrize("lang", KEYWORD_LANGUAGES)
def test_the_help_mails_order_forms_parse_in_every_language(lang: str) -> None:
    examples = help_forms(lang)
    assert len(examples) == 18  # 3 placement, 9 plan, 5 standing forms and an answer
    orders, english = read(examples), read(help_forms("en"))
    assert orders[:-1] == english[:-1]
    assert canonical(orders[0]) == "START ITA, GAL, SIC"
    answer, english_answer = orders[-1], english[-1]
    assert isinstance(answer, Answer) and isinstance(english_answer, Answer)
    assert read_action_line(answer.value, language()) == read_action_line(english_answer.value, language())


def test_EAW_1_2_without_a_control_marker_in_stock_no_neutral_area_is_offered_to_attack() -> None:
    state = middle_game()
    state.players["red"].stock_control = 0
    template = made(state)
    assert not has(template, "ATTACK GER FROM RAE") and not has(template, "ATTACK SIC FROM ITA")
    attacks = [a for o in read(template.examples) if isinstance(o, PlanLine) for a in o.alternatives]
    assert all(state.controller(a.target) is not None for a in attacks if isinstance(a, Attack))
    assert has(made(middle_game()), "ATTACK GER FROM RAE")


def test_EAW_12_5_EAW_12_8_EAW_12_10_a_leader_a_diplomat_and_chosen_losses_get_their_examples() -> None:
    state = middle_game(personalities={"red": ["general", "envoy"]})
    chosen = replace(data().options, loss_selection="owner_chooses")
    template = Template(data(), chosen, state, "red", "en").make(7, PLANS)
    orders = read(template.examples)
    assert AmbushOrder(True) in orders
    assert LossesOrder(("guard_a", "pike", "horse_a", "archer")) in orders
    assert PlanLine((Diplomacy("AFR", remove=True, pay=3), PlaceControl("RAE"))) in orders
    plain = read(made(middle_game()).examples)
    assert not any(isinstance(o, (AmbushOrder, LossesOrder)) for o in plain)
