"""Empires of the Ancient World as a player reads it in German, Italian and Dutch, on real positions:
- a card copy has one name everywhere: copies are alike (EAW-13.17), so the receipt, the orders template, the
  standing plans and the reports name every copy by its card's id, never by a copy number (`pike#2`), and a copy
  number written from an older report is read as the card (EAW-12.6);
- the group a naval stack may hold one card of is said in the reader's language (EAW-8.20);
- a count agrees in number: "Je plan bevat 1 actie", "1 controlemarker" (plural forms of the catalogue).

Test map and cards: tests/eaw_helpers.py (pike, blade, galley and the guards have copies)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from adjudicator.engine.chance import GivenDice
from adjudicator.engine.protocol import PUBLIC
from adjudicator.engine.vocabulary import Event
from adjudicator.orders import parse_orders
from adjudicator.render import render
from adjudicator.rulesets.empires import standing
from adjudicator.rulesets.empires.game import EmpiresGame
from adjudicator.rulesets.empires.orders_template import Template
from adjudicator.rulesets.empires.state import PLANS, GameState
from adjudicator.services.orders import checked_receipt
from tests.test_eaw_rounds import placed_game, plan, step_of, to_plans
from tests.test_receipt_odds_empires import border_war

COPY = re.compile(r"\w#\d")  # a card named by its copy number (pike#2)


def receipt(rules: EmpiresGame, state: GameState, language: str, *lines: str) -> str:
    """Red's receipt for `lines` in `language`, checked against `state` (nothing stored); its standing plans are then
    kept in `state`, as the step would keep them (EAW-12.4 to EAW-12.8)."""
    orders = parse_orders("\n".join(["GAME t TURN 5 PLAYER red PASSWORD x", *lines]) + "\n", rules)
    assert orders.errors == (), orders.errors
    text = checked_receipt("t", "round", rules, state, orders, "red", 5, with_odds=False).text_in(language)
    for order in orders.orders:
        standing.store(state.players["red"], order)
    return text


def reports(rules: EmpiresGame, state: GameState, language: str, events: Sequence[Event] = ()) -> tuple[str, str]:
    """The public report and red's private report (its orders template at the end) in `language`, with `events`."""
    turn: dict[str, Any] = {"number": 7, "seat": None, "round": 1, "turn_key": "k", "senders": [], "silent": []}
    turn |= {"events": list(events), "results": [], "orders_hash": "h", "dice": [], "chain": "", "ordering": []}
    turn |= {"lines_of": {}, "bots": []}
    common = {"ruleset": rules, "title": rules.title, "game": "t", "turns": [turn], "commitment": "c"}
    common["seats"] = list(state.seats)
    public = render("report.txt.j2", language, **common, state=rules.snapshot(state, PUBLIC))
    own = rules.snapshot(state, "red")
    seat = render("report-seat.txt.j2", language, seat="red", **common, state=own, **rules.report_context(state))
    return public, seat


def copies_held() -> tuple[EmpiresGame, GameState]:
    """The border war (red in Gallia next to blue's Raetia) with two copies of pike and of guard_a in red's hand, and
    two of blade and rider in the display."""
    rules, state = border_war()
    state.players["red"].hand = ["pike", "pike#2", "blade", "guard_a", "guard_a#2", "horse_a", "galley"]
    state.display = ["blade#2", "rider", "rider#2"]
    state.phase = PLANS
    return rules, state


# -- 1. one name per card copy (EAW-13.17, EAW-12.6) -------------------------------------------------------------------
def test_EAW_13_17_EAW_12_6_a_copy_is_named_alike_in_the_german_receipt_standing_plans_template_and_reports() -> None:
    rules, state = copies_held()
    german = receipt(
        rules, state, "de", "ANGRIFF RAE VON GAL MIT pike#2, pike, blade, guard_a#2, guard_a", "VERLUSTE pike#2, blade"
    )
    assert "(ANGRIFF RAE AUS GAL MIT pike, pike, blade, guard_a, guard_a)" in german  # the copy is its card
    public, own = reports(rules, state, "de")
    template = own[own.index("\n--- ") :]
    hand = own[: own.index("\n--- ")]
    assert not COPY.search(public) and not COPY.search(own), [line for line in own.splitlines() if COPY.search(line)]
    # the report names each copy as the receipt and the template do, the name a player copies into his orders
    assert hand.count("Pike [pike]: ") == 2 and hand.count("Guard A [guard_a]: ") == 2
    assert template.count("#     pike: Wert 4") == 2 and template.count("#     guard_a: Wert 3") == 2
    assert "Blade [blade]: " in public and public.count("Rider [rider]: ") == 2  # the display (EAW-7.20)
    assert template.count("#   rider: Wert 4") == 2
    assert "Verluste, zuerst abgegeben: pike, blade (EAW-12.8)" in own
    assert "VERLUSTE pike, blade" in template


def test_EAW_13_17_the_cards_of_the_deal_and_a_recruit_are_named_by_their_card_in_the_report() -> None:
    rules, state = copies_held()
    events = [
        Event("deal", None, {"display": ["blade#2", "rider", "rider#2"], "deck": 9, "rule": "EAW-3.5"}),
        Event("card_recruited", "red", {"card": "rider#2", "personality": False, "rule": "EAW-7.20"}),
        Event("display_refilled", None, {"cards": ["pike#3"], "short": False, "rule": "EAW-7.20"}),
    ]
    public, _ = reports(rules, state, "de", events)
    assert "blade, rider, rider" in public and "red rekrutiert rider" in public, public
    assert not COPY.search(public)


# -- 2. the naval group in the reader's words (EAW-8.20) ---------------------------------------------------------------
def test_EAW_8_20_the_naval_group_a_stack_breaks_is_said_in_the_readers_language() -> None:
    expected = {"de": "Schwert oder Speer", "it": "spada o lancia", "nl": "zwaard of speer"}
    naval = {"de": "STAPEL SEESCHLACHT", "it": "PILA NAVALE", "nl": "STAPEL ZEESLAG"}
    for language, group in expected.items():
        rules, state = copies_held()
        text = receipt(rules, state, language, f"{naval[language]}: galley, pike, blade")
        assert group in text and "sword or spear" not in text, text
        template = Template(rules.data, rules.options, state, "red", language).make(5, PLANS)
        lines = [line for section in template.sections for line in section.lines]
        assert any(group in line and "EAW-8.20" in line for line in lines), lines


def test_EAW_8_20_the_foot_and_archer_group_is_named_as_the_reports_name_its_categories() -> None:
    rules, state = copies_held()
    state.players["red"].hand += ["archer", "slinger"]
    text = receipt(rules, state, "de", "STAPEL SEESCHLACHT: galley, archer, slinger")
    assert "höchstens eine Karte der Gruppe Fußsoldat oder Bogenschütze auf See (EAW-8.20)" in text, text


# -- 3. counts agree in number -----------------------------------------------------------------------------------------
def test_EAW_12_2_a_plan_of_one_action_and_one_marker_read_in_the_singular_in_dutch_german_and_italian() -> None:
    game, state = placed_game()
    state = to_plans(game, state)
    result = step_of(game, state, {"red": plan("ITA"), "blue": None, "green": None})
    kept = [e for e in result.events if e.kind == "plan_kept" and e.seat == "red"]
    assert [e.data["lines"] for e in kept] == [1]
    assert any(held.markers == 1 for held in result.state.control.values())  # an area of one control marker
    said = {
        "nl": ("Je plan bevat 1 actie (EAW-12.2).", "Je plan voor deze ronde, nog 1 actie,", "1 controlemarker"),
        "de": ("Dein Plan enthält 1 Aktion (EAW-12.2).", "noch 1 Aktion, in Reihenfolge", "1 Kontrollmarker"),
        "it": ("Il tuo piano contiene 1 azione (EAW-12.2).", "1 azione rimasta", "1 segnalino di controllo"),
    }
    for language, (plan_kept, plan_left, marker) in said.items():
        public, own = reports(game, result.state, language, result.events)
        assert plan_kept in own and plan_left in own, own
        assert f", {marker}" in public, public
    _, dutch = reports(game, result.state, "nl", result.events)
    assert "1 acties" not in dutch and "1 controlemarkers" not in dutch


def test_EAW_8_1_a_stack_of_one_card_reads_in_the_singular() -> None:
    rules, state = copies_held()
    dutch = receipt(rules, state, "nl", "AANVAL RAE VANUIT GAL MET pike")
    assert "een stapel van één kaart waar er 5 gestapeld kunnen worden (EAW-8.1)" in dutch, dutch
    given = parse_orders("GAME t TURN 5 PLAYER red PASSWORD x\nATTACK RAE FROM GAL WITH pike\n", rules)
    [verdict] = rules.check_orders(state, "red", 5, given, GivenDice())
    assert "a stack of one card where 5 can be stacked (EAW-8.1)" in verdict.reason
