"""Empires of the Ancient World by mail, where the receipts must tell what the step will do, as the rule demands it:
- a placement list naming an area that can never be taken (an unnamed sea, EAW-2.11): the receipt and the step agree
  on what is carried out (the rest of the list, EAW-12.13), and the seas that may be taken are named;
- an attack's stack, or a standing STACK plan, that the battle would refuse (EAW-8.21): the receipt and the orders
  template say so, with the rule, and the odds are the default stack's;
- a card copy written as the reports show it (`e_swords#2`): read as the card, not cut at the `#` (EAW-12.6).

Test map and cards: tests/eaw_helpers.py (north: GAL RAE GER ITA SIC; south: AFR NUM EGY CRE; Mediterranean seas MOC
MCE MOR; PON, made unnamed here)."""

from __future__ import annotations

from dataclasses import replace

from adjudicator.engine.chance import GivenDice
from adjudicator.orders import parse_orders
from adjudicator.rulesets.empires.battle_stacks import read_cards
from adjudicator.rulesets.empires.data import GameData
from adjudicator.rulesets.empires.orders import Attack, Disband, LossesOrder, PlanLine, Recruit, StackOrder
from adjudicator.rulesets.empires.orders_template import Template
from adjudicator.rulesets.empires.parse import language_of
from adjudicator.rulesets.empires.state import PLACEMENT, PLANS, GameState
from tests.eaw_helpers import SEATS, position, small_data
from tests.test_eaw_setup import bound, dealt, orders, place, placed, start
from tests.test_receipt_odds_empires import border_war, odds_of


def unnamed_pontus(**options: object) -> GameData:
    """The test map with PON unnamed (EAW-2.11): the named seas are the Mediterranean ones, MCE MOC MOR."""
    data = small_data(**options)
    areas = dict(data.map.areas)
    areas["PON"] = replace(areas["PON"], named=False)
    return replace(data, map=replace(data.map, areas=areas))


def read(text: str, data: GameData | None = None) -> list[object]:
    parsed = parse_orders(f"GAME g TURN 5 PLAYER red PASSWORD x\n{text}\n", language_of(data or small_data(), SEATS))
    assert parsed.errors == (), [e.located for e in parsed.errors]
    return list(parsed.orders)


# -- 1. placement: the verdict says what the step carries out (EAW-2.11, EAW-3.9, EAW-12.13) ---------------------------
def test_EAW_12_13_EAW_2_11_an_unnamed_sea_in_a_place_list_is_rejected_alone_and_the_rest_is_placed() -> None:
    game = bound(unnamed_pontus(start_markers={3: 3}))  # 2 further markers each
    state = dealt(game)
    given = orders(start("GER"), place("PON", "RAE", "GAL", line=2))
    verdicts = game.check_orders(state, "red", 2, given, GivenDice())
    placing = [(v.text, v.accepted, v.rule) for v in verdicts if v.line == 2]
    assert placing == [("PLACE RAE, GAL", True, "EAW-3.9"), ("PON", False, "EAW-2.11")]
    why = next(v.reason for v in verdicts if v.line == 2 and not v.accepted)
    assert "PON is an unnamed sea" in why and "the seas that may be taken at setup: MCE, MOC, MOR" in why
    result = placed(game, state, {"red": given, "blue": None, "green": None}, [1, 1, 1, 1])
    reds = [(e.data["area"], e.data["source"]) for e in result.events if e.kind == "setup_marker" and e.seat == "red"]
    assert reds == [("RAE", "order"), ("GAL", "order")]  # what the accepted part names, in its order


def test_EAW_12_13_a_place_list_of_nothing_that_can_be_taken_is_rejected_whole_and_the_default_places() -> None:
    game = bound(unnamed_pontus(start_markers={3: 2}))
    state = dealt(game)
    given = orders(start("GER"), place("PON", line=2))
    [verdict] = [v for v in game.check_orders(state, "red", 2, given, GivenDice()) if v.line == 2]
    assert (verdict.accepted, verdict.rule) == (False, "EAW-2.11")
    result = placed(game, state, {"red": given, "blue": None, "green": None}, [1, 1, 1, 1])
    [marker] = [e for e in result.events if e.kind == "setup_marker" and e.seat == "red"]
    assert marker.data["source"] == "default" and marker.data["area"] != "PON"


def test_EAW_2_11_the_placement_template_names_the_seas_that_may_be_taken_and_those_that_may_not() -> None:
    data = unnamed_pontus()
    state = position(data, phase=PLACEMENT)
    template = Template(data, data.options, state, "red", "en").make(2, PLACEMENT)
    lines = [line for section in template.sections for line in (section.title, *section.lines)]
    assert any("MCE, MOC, MOR" in line and "EAW-2.11" in line for line in lines), lines
    assert any("PON Pontus" in line and "unnamed" in line.casefold() for line in lines), lines


def standing_lines(data: GameData, state: GameState) -> list[str]:
    """The lines of red's orders template on its standing battle plans (EAW-12.4 to EAW-12.8)."""
    template = Template(data, data.options, state, "red", "en").make(7, PLANS)
    return next(s.lines for s in template.sections if s.title.startswith("Standing battle plans"))


# -- 2. a stack the battle would refuse (EAW-8.21, EAW-8.1, EAW-12.6) --------------------------------------------------
def test_EAW_8_21_the_receipt_says_a_written_attack_stack_would_be_refused_and_which_stack_fights() -> None:
    rules, state = border_war()  # red holds six cards it may stack
    given = parse_orders("GAME t TURN 5 PLAYER red PASSWORD x\nATTACK RAE FROM GAL WITH horse_a, pike\n", rules)
    [verdict] = rules.check_orders(state, "red", 5, given, GivenDice())
    assert verdict.accepted
    assert "a stack of 2 cards where 5 can be stacked (EAW-8.1)" in verdict.reason
    assert "the default stack would fight: archer, blade, pike, guard_a, guard_a (EAW-8.21)" in verdict.reason


def test_EAW_8_21_the_odds_of_a_refused_stack_are_the_default_stacks_and_say_so() -> None:
    rules, state = border_war()
    [refused] = odds_of(rules, state, "ATTACK RAE FROM GAL WITH horse_a, pike")
    [default] = odds_of(rules, state, "ATTACK RAE FROM GAL")
    assert refused[3:] == default[3:]
    assert refused[1] == "archer, blade, pike, guard_a, guard_a (the default stack, EAW-8.21)"


def test_EAW_8_21_a_legal_attack_stack_gets_no_warning() -> None:
    rules, state = border_war()
    stack = "archer, horse_a, guard_a, pike, blade"
    given = parse_orders(f"GAME t TURN 5 PLAYER red PASSWORD x\nATTACK RAE FROM GAL WITH {stack}\n", rules)
    [verdict] = rules.check_orders(state, "red", 5, given, GivenDice())
    assert verdict.accepted and "EAW-8.21" not in verdict.reason


def test_EAW_8_21_a_standing_stack_a_fifth_card_made_short_is_warned_in_the_template_and_receipt() -> None:
    data = small_data()
    hand = ["pike", "archer", "guard_a", "horse_a"]
    state = position(data, control={"RAE": "red", "GAL": "blue"}, hands={"red": hand}, phase=PLANS)
    state.players["red"].standing = {"stacks": {"open.defend": ["archer", "horse_a", "pike", "guard_a"]}}
    assert not [line for line in standing_lines(data, state) if "EAW-8.21" in line]  # four cards of four: legal
    state.players["red"].hand.append("blade")  # a fifth card recruited
    assert "Yours now: STACK OPEN DEFEND: archer, horse_a, pike, guard_a" in standing_lines(data, state)
    assert (
        "STACK OPEN DEFEND: archer, horse_a, pike, guard_a: as your hand stands now a battle would refuse it: a stack "
        "of 4 cards where 5 can be stacked (EAW-8.1); the default stack would fight (EAW-8.21)"
    ) in standing_lines(data, state)
    rules = bound(data)
    given = parse_orders(
        "GAME t TURN 5 PLAYER red PASSWORD x\nSTACK OPEN DEFEND: archer, horse_a, pike, guard_a\n", rules
    )
    [verdict] = rules.check_orders(state, "red", 5, given, GivenDice())
    assert verdict.accepted and "a stack of 4 cards where 5 can be stacked (EAW-8.1)" in verdict.reason


# -- 3. a card copy as the reports write it (EAW-12.6, EAW-7.21, EAW-12.3, EAW-12.8) -----------------------------------
def test_EAW_12_6_a_card_copy_written_as_reports_show_it_is_the_card_and_the_line_is_read_whole() -> None:
    [line] = read("ATTACK RAE FROM GAL WITH pike, blade#2, archer, guard_a")
    assert isinstance(line, PlanLine)
    assert line.alternatives == (Attack("RAE", "GAL", stack=("pike", "blade", "archer", "guard_a")),)
    [stack] = read("STACK OPEN: pike #2, archer")  # a space before the copy, the list going on: still a copy
    assert isinstance(stack, StackOrder) and stack.cards == ("pike", "archer")


def test_EAW_12_3_EAW_7_21_EAW_12_8_copies_in_recruit_disband_and_losses() -> None:
    [recruit, disband, losses] = read("RECRUIT galley#3, best\nDISBAND pike#2\nLOSSES guard_a#2, pike")
    assert isinstance(recruit, PlanLine) and recruit.alternatives == (Recruit(("galley", "best")),)
    assert isinstance(disband, PlanLine) and disband.alternatives == (Disband("pike"),)
    assert isinstance(losses, LossesOrder) and losses.cards == ("guard_a", "pike")


def test_EAW_12_6_a_comment_after_a_card_stays_a_comment() -> None:
    [line] = read("ATTACK RAE FROM GAL WITH pike, archer # 2 more next round")
    assert isinstance(line, PlanLine) and line.alternatives[0].stack == ("pike", "archer")  # type: ignore[attr-defined]
    [line] = read("ATTACK RAE FROM GAL WITH pike #1 choice")
    assert isinstance(line, PlanLine) and line.alternatives[0].stack == ("pike",)  # type: ignore[attr-defined]


def test_EAW_12_6_an_answer_names_a_copy_as_the_reports_do() -> None:
    assert read_cards(small_data(), "guard_a#2, pike, blade #2") == ("guard_a", "pike", "blade")
