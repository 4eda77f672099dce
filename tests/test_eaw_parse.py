"""The order language of Empires of the Ancient World (EAW-12): every line form parses to its order (one test per form,
named after its rule), names resolve against the game's data (areas by id or name prefix, cards by id or name, seats
by colour), and bad lines get errors with line, column and "did you mean" in the writer's keywords.

Names come from the small test map of tests/eaw_helpers.py: areas GAL Gallia, RAE Raetia, GER Germania, ITA Italia,
SIC Sicilia, AFR Africa, NUM Numidia, EGY Aegyptus, CRE Creta; seas MOC MCE MOR (Mare ...), PON Pontus; cards pike,
blade, archer, rider, camel, catapult, galley, slinger, personalities general, builder, envoy, trader.
"""

from __future__ import annotations

from functools import cache

import pytest

from adjudicator.orders import KEYWORD_LANGUAGES, parse_orders
from adjudicator.orders.keywords import keyword_of, keyword_table
from adjudicator.orders.parser import shadowed_names
from adjudicator.orders.sets import Answer, Language, Order, OrderSet, Press
from adjudicator.rulesets import load_ruleset
from adjudicator.rulesets.empires.orders import (
    REFRESH_IF_NONE,
    REFRESH_NO,
    REFRESH_YES,
    AmbushOrder,
    Attack,
    BuildFort,
    DefendOrder,
    Diplomacy,
    Disband,
    FortChoice,
    LossesOrder,
    MarkersOrder,
    PlaceChoice,
    PlaceControl,
    PlaceTrade,
    PlanLine,
    Recruit,
    StackOrder,
    StartChoice,
    TradeTarget,
)
from adjudicator.rulesets.empires.parse import (
    RULESET,
    BadActionLine,
    OrderLanguage,
    language_of,
    read_action_line,
    written_in,
)
from tests.eaw_helpers import small_data

HEADER = "GAME eaw1 TURN 3 PLAYER red PASSWORD s3cret"


@cache
def language() -> OrderLanguage:
    return OrderLanguage(small_data(), seats=("red", "blue", "green"))


def parsed(*lines: str, header: str = HEADER) -> OrderSet:
    return parse_orders("\n".join([header, *lines]) + "\n", language())


def one(line: str) -> Order:
    result = parsed(line)
    assert not result.errors, [e.located for e in result.errors]
    assert len(result.orders) == 1
    return result.orders[0]


def plan(line: str) -> tuple[object, ...]:
    order = one(line)
    assert isinstance(order, PlanLine)
    assert order.text == line and order.line == 2
    return order.alternatives


def error(line: str, header: str = HEADER) -> str:
    result = parsed(line, header=header)
    assert not result.orders, result.orders
    assert len(result.errors) == 1
    return result.errors[0].located


# -- the header and every game's orders -----------------------------------------------------------------------------
def test_header_names_the_seat_by_colour_prefix() -> None:
    result = parsed("CONTROL GAL", header="GAME eaw1 TURN 3 PLAYER Gre PASSWORD s3cret")
    assert result.header is not None and result.header.player == "green" and result.header.turn == 3


def test_press_answer_and_language_come_from_the_shared_grammar() -> None:
    result = parsed("PRESS TO blue, green: let us share Gallia", "ANSWER free.GAL: TRADE GAL", "LANGUAGE de")
    assert not result.errors
    assert result.orders[0] == Press(to="blue", message="let us share Gallia", line=2, text=result.orders[0].text)
    assert isinstance(result.orders[1], Press) and result.orders[1].to == "green"
    assert isinstance(result.orders[2], Answer) and (result.orders[2].key, result.orders[2].value) == (
        "free.GAL",
        "TRADE GAL",
    )
    assert isinstance(result.orders[3], Language) and result.orders[3].code == "de"


# -- placement (EAW-12.1, EAW-12.13, EAW-12.14) -----------------------------------------------------------------------
def test_EAW_12_1_start_lists_starting_provinces_most_wanted_first() -> None:
    assert one("START ITA, gallia AND Sic") == StartChoice(
        ("ITA", "GAL", "SIC"), line=2, text="START ITA, gallia AND Sic"
    )


def test_EAW_3_7_a_starting_province_is_a_land_province() -> None:
    assert "a starting province is a land province, not MCE (EAW-3.7)" in error("START ITA, MCE")


def test_EAW_12_13_place_lists_the_further_markers_areas_in_order() -> None:
    assert one("PLACE MCE, SIC, GAL") == PlaceChoice(("MCE", "SIC", "GAL"), line=2, text="PLACE MCE, SIC, GAL")


def test_EAW_12_13_an_area_listed_twice_is_refused() -> None:
    assert error("PLACE SIC, GAL, SIC").endswith("SIC is listed twice")


def test_EAW_12_14_fort_with_a_list_is_the_starting_fort_in_order() -> None:
    order = one("FORT ITA, GAL")
    assert order == FortChoice(("ITA", "GAL"), line=2, text="FORT ITA, GAL")
    # the placement step reads the starting fort's list, a plan a fort in the first that can take one (EAW-7.25)
    assert isinstance(order, FortChoice) and order.areas == ("ITA", "GAL")
    assert isinstance(order, PlanLine) and order.alternatives == (BuildFort("ITA"), BuildFort("GAL"))


def test_EAW_12_14_fort_with_one_area_is_the_starting_fort_or_the_action() -> None:
    order = one("FORT ITA")
    assert isinstance(order, FortChoice) and order.areas == ("ITA",)
    assert isinstance(order, PlanLine) and order.alternatives == (BuildFort("ITA"),)
    # with a fall-back it is a plan line alone
    assert type(one("FORT ITA ELSE CONTROL ITA")) is PlanLine


# -- actions (EAW-7, EAW-12.2, EAW-12.3, EAW-12.9 to EAW-12.12, EAW-12.15) --------------------------------------------
def test_EAW_7_1_attack_names_target_and_origin() -> None:
    assert plan("ATTACK GAL FROM RAE") == (Attack("GAL", "RAE"),)


def test_EAW_7_1_an_attack_from_its_own_target_is_refused() -> None:
    assert "an attack comes from another area than its target (EAW-7.1)" in error("ATTACK GAL FROM Gallia")


def test_EAW_12_6_attack_with_its_battle_stack_top_first() -> None:
    assert plan("ATTACK GAL FROM RAE WITH pike, pike, archer") == (Attack("GAL", "RAE", ("pike", "pike", "archer")),)


def test_EAW_12_6_a_stack_of_five_is_taken_and_of_six_refused() -> None:
    five = "ATTACK GAL FROM RAE WITH pike, pike, pike, archer, archer"
    assert plan(five)[0] == Attack("GAL", "RAE", ("pike", "pike", "pike", "archer", "archer"))
    assert "at most 5 cards, not 6 (EAW-8.1)" in error(five + ", rider")


def test_EAW_12_9_the_free_action_after_a_rout_is_stated_with_the_attack() -> None:
    assert plan("ATTACK GAL FROM RAE WITH blade THEN TRADE GAL OR RECRUIT BEST ELSE CONTROL RAE") == (
        Attack(
            "GAL",
            "RAE",
            ("blade",),
            then=(PlaceTrade((TradeTarget("GAL"),)), Recruit(("best",))),
        ),
        PlaceControl("RAE"),
    )


def test_EAW_13_9_a_free_attack_earns_no_second_free_action() -> None:
    assert plan("ATTACK GAL FROM RAE THEN ATTACK ITA FROM GAL")[0] == Attack("GAL", "RAE", then=(Attack("ITA", "GAL"),))
    assert error("ATTACK GAL FROM RAE THEN ATTACK ITA FROM GAL THEN CONTROL GAL") == (
        "line 2, column 46: a free action earns no other free action (EAW-13.9)"
    )
    with pytest.raises(BadActionLine, match=r"a free action earns no other free action \(EAW-13.9\)"):
        read_action_line("ATTACK ITA FROM GAL THEN CONTROL GAL", language())


def test_EAW_12_2_alternatives_with_else_are_kept_in_order() -> None:
    assert plan("ATTACK GAL FROM RAE ELSE TRADE GAL ELSE RECRUIT archer") == (
        Attack("GAL", "RAE"),
        PlaceTrade((TradeTarget("GAL"),)),
        Recruit(("archer",)),
    )


def test_EAW_7_10_diplomacy_takes_over_a_neutral_area() -> None:
    assert plan("DIPLOMACY NUM") == (Diplomacy("NUM"),)


def test_EAW_12_10_the_diplomats_removal_pays_0_to_3_markers() -> None:
    assert plan("DIPLOMACY REMOVE NUM PAY 3") == (Diplomacy("NUM", remove=True, pay=3),)
    assert plan("DIPLOMACY REMOVE NUM PAY 0") == (Diplomacy("NUM", remove=True, pay=0),)
    assert plan("DIPLOMACY REMOVE NUM") == (Diplomacy("NUM", remove=True, pay=None),)  # 3 if available
    assert "a diplomat pays 0 to 3 trade markers, not 4 (EAW-7.11)" in error("DIPLOMACY REMOVE NUM PAY 4")


def test_EAW_12_3_recruit_a_priority_list_with_refresh_if_none() -> None:
    assert plan("RECRUIT archer, spear, BEST REFRESH IF NONE") == (
        Recruit(("archer", "spear", "best"), refresh=REFRESH_IF_NONE),
    )


def test_EAW_12_3_recruit_refresh_first_or_never() -> None:
    assert plan("RECRUIT REFRESH") == (Recruit((), refresh=REFRESH_YES),)
    assert plan("RECRUIT") == (Recruit((), refresh=REFRESH_NO),)
    # a card by its name, a personality type, a category
    assert plan("RECRUIT Catapult, diplomat, galley, mounted") == (
        Recruit(("catapult", "diplomat", "galley", "mounted")),
    )


def test_EAW_7_21_disband_names_a_card_of_the_hand() -> None:
    assert plan("DISBAND pike") == (Disband("pike"),)


def test_EAW_7_25_fort_in_a_province() -> None:
    assert plan("FORT GAL") == (BuildFort("GAL"),)
    assert "a fort stands in a province, not in PON (EAW-7.25)" in error("FORT Pontus")


def test_EAW_2_5_a_fort_at_sea_with_a_fall_back_is_read_and_left_to_the_receipt() -> None:
    # only the alternative that can never be taken is the receipt's to name (checks.py); the fall-back stands
    assert plan("FORT MOC ELSE CONTROL GAL") == (BuildFort("MOC"), PlaceControl("GAL"))
    assert plan("CONTROL GAL ELSE FORT Pontus") == (PlaceControl("GAL"), BuildFort("PON"))


def test_EAW_12_11_trade_targets_in_order_and_EAW_12_15_displace_names_the_owner() -> None:
    assert plan("TRADE GAL, RAE DISPLACE blue, ITA DISPLACE") == (
        PlaceTrade((TradeTarget("GAL"), TradeTarget("RAE", "blue"), TradeTarget("ITA", ""))),
    )


def test_EAW_12_12_fort_and_control_name_their_site_and_fall_back_in_order() -> None:
    assert plan("FORT Ital ELSE FORT GAL ELSE CONTROL Sicilia") == (
        BuildFort("ITA"),
        BuildFort("GAL"),
        PlaceControl("SIC"),
    )
    assert error("CONTROL") == "line 2, column 8: incomplete order: expected an area or a quoted name after 'CONTROL'"


def test_EAW_7_40_control_adds_a_marker() -> None:
    assert plan("CONTROL GAL") == (PlaceControl("GAL"),)


# -- standing battle plans (EAW-12.4 to EAW-12.8) ---------------------------------------------------------------------
def test_EAW_12_4_defend_siege_or_open_per_province_or_everywhere() -> None:
    assert one("DEFEND SIEGE AT GAL") == DefendOrder(True, "GAL", line=2, text="DEFEND SIEGE AT GAL")
    assert one("DEFEND OPEN") == DefendOrder(False, None, line=2, text="DEFEND OPEN")


def test_EAW_12_5_ambush_yes_or_no() -> None:
    assert one("AMBUSH YES AT ITA") == AmbushOrder(True, "ITA", line=2, text="AMBUSH YES AT ITA")
    assert one("AMBUSH NO") == AmbushOrder(False, None, line=2, text="AMBUSH NO")


def test_EAW_12_6_stack_plans_per_battle_type_and_side() -> None:
    line = "STACK NAVAL DEFEND: galley, galley, catapult"
    assert one(line) == StackOrder(("galley", "galley", "catapult"), "naval", "defend", line=2, text=line)
    assert one("STACK: pike") == StackOrder(("pike",), None, None, line=2, text="STACK: pike")
    assert one("STACK ATTACK: rider") == StackOrder(("rider",), None, "attack", line=2, text="STACK ATTACK: rider")


def test_EAW_8_15_a_siege_stack_of_three_is_taken_and_of_four_refused() -> None:
    three = "STACK SIEGE: pike, pike, archer"
    assert isinstance(one(three), StackOrder)
    assert "at most 3 cards, not 4 (EAW-8.15)" in error(three + ", archer")


def test_EAW_12_7_markers_push_or_pull() -> None:
    assert one("MARKERS PUSH") == MarkersOrder(True, line=2, text="MARKERS PUSH")
    assert one("MARKERS PULL") == MarkersOrder(False, line=2, text="MARKERS PULL")


def test_EAW_12_8_losses_priority_by_card() -> None:
    assert one("LOSSES pike, Archer") == LossesOrder(("pike", "archer"), line=2, text="LOSSES pike, Archer")


# -- names -------------------------------------------------------------------------------------------------------------
def test_EAW_12_2_areas_by_name_prefix_and_an_ambiguous_prefix_names_the_candidates() -> None:
    assert plan("CONTROL aegy") == (PlaceControl("EGY"),)
    found = error("CONTROL Mare")
    assert found.startswith("line 2, column 9: area 'Mare' is ambiguous")
    assert all(name in found for name in ("MOC Mare Occidentale", "MCE Mare Centrale", "MOR Mare Orientale"))


def test_EAW_12_2_a_misspelt_area_gets_did_you_mean() -> None:
    assert error("CONTROL Galia") == "line 2, column 9: unknown area 'Galia' (did you mean GAL Gallia?)"


def test_EAW_12_6_cards_by_name_prefix_and_did_you_mean() -> None:
    assert plan("DISBAND cata") == (Disband("catapult"),)
    assert error("DISBAND pikke") == "line 2, column 9: unknown card 'pikke' (did you mean pike?)"
    assert "card 'guard' is ambiguous" in error("DISBAND guard")


def test_EAW_12_15_seats_by_colour_and_did_you_mean() -> None:
    assert plan("TRADE GAL DISPLACE bl") == (PlaceTrade((TradeTarget("GAL", "blue"),)),)
    assert error("TRADE GAL DISPLACE bleu") == "line 2, column 20: unknown seat 'bleu' (did you mean blue?)"


# -- misspelt keywords, in the writer's language -----------------------------------------------------------------------
def test_EAW_12_2_a_misspelt_english_keyword_gets_did_you_mean() -> None:
    assert error("ATTAK GAL FROM RAE") == "line 2, column 1: unexpected 'ATTAK' (did you mean ATTACK?)"
    assert error("ATTACK GAL FROM RAE ESLE CONTROL GAL") == (
        "line 2, column 21: unexpected 'ESLE' (did you mean ELSE?)"
    )


def test_EAW_12_2_a_misspelt_german_keyword_gets_the_german_word() -> None:
    header = "SPIEL eaw1 ZUG 3 SPIELER red PASSWORT s3cret"
    assert error("ANGRIF GAL AUS RAE", header=header) == (
        "line 2, column 1: unexpected 'ANGRIF' (did you mean ANGRIFF?)"
    )
    assert error("ANGRIFF GAL AUS RAE SONTS HANDEL GAL", header=header) == (
        "line 2, column 21: unexpected 'SONTS' (did you mean SONST?)"
    )


def test_EAW_12_2_an_incomplete_line_says_what_is_missing() -> None:
    assert error("ATTACK GAL") == "line 2, column 11: incomplete order: expected FROM after 'GAL'"


# -- whole plans mails in German, Italian and Dutch --------------------------------------------------------------------
ENGLISH_PLAN = [
    PlanLine((Attack("GAL", "RAE", ("pike", "archer"), then=(PlaceTrade((TradeTarget("GAL"),)),)),)),
    PlanLine((Diplomacy("NUM", remove=True, pay=2), Recruit(("archer", "best"), REFRESH_IF_NONE))),
    PlanLine((PlaceTrade((TradeTarget("GAL"), TradeTarget("RAE", "blue"))), BuildFort("ITA"))),
    PlanLine((Disband("pike"), PlaceControl("ITA"))),
    DefendOrder(True, "ITA"),
    AmbushOrder(False),
    StackOrder(("pike", "archer"), "siege", "defend"),
    MarkersOrder(False),
    LossesOrder(("archer", "pike")),
]
MAILS = {
    "de": """SPIEL eaw1 ZUG 3 SPIELER red PASSWORT s3cret
ANGRIFF GAL AUS RAE MIT pike, archer DANN HANDEL GAL
DIPLOMATIE ENTFERNE NUM ZAHLE 2 SONST WIRB archer, BESTE ERNEUERE WENN KEINE
HANDEL GAL, RAE VERDRÄNGE blue SONST FESTUNG ITA
ENTLASSE pike SONST KONTROLLE ITA
VERTEIDIGE BELAGERUNG IN ITA
HINTERHALT NEIN
STAPEL BELAGERUNG VERTEIDIGE: pike, archer
MARKER ZIEHE
VERLUSTE archer, pike
""",
    "it": """PARTITA eaw1 TURNO 3 GIOCATORE red PASSWORD s3cret
ATTACCA GAL DA RAE CON pike, archer POI COMMERCIO GAL
DIPLOMAZIA RIMUOVI NUM PAGA 2 ALTRIMENTI RECLUTA archer, MIGLIORE RINNOVA SE NESSUNA
COMMERCIO GAL, RAE SCACCIA blue ALTRIMENTI FORTE ITA
CONGEDA pike ALTRIMENTI CONTROLLO ITA
DIFENDI ASSEDIO IN ITA
IMBOSCATA NO
PILA ASSEDIO DIFENDI: pike, archer
SEGNALINI TIRA
PERDITE archer, pike
""",
    "nl": """SPEL eaw1 BEURT 3 SPELER red WACHTWOORD s3cret
AANVAL GAL UIT RAE MET pike, archer DAN HANDEL GAL
DIPLOMATIE VERWIJDER NUM BETAAL 2 ANDERS WERF archer, BESTE VERNIEUW ALS GEEN
HANDEL GAL, RAE VERDRING blue ANDERS FORT ITA
ONTBIND pike ANDERS CONTROLE ITA
VERDEDIG BELEG BIJ ITA
HINDERLAAG NEE
STAPEL BELEG VERDEDIG: pike, archer
MARKERS TREK
VERLIEZEN archer, pike
""",
}


@pytest.mark.parametrize("code", sorted(MAILS))
def test_EAW_12_2_a_whole_plans_mail_in_each_language(code: str) -> None:
    result = parse_orders(MAILS[code], language())
    assert not result.errors, [e.located for e in result.errors]
    assert result.header is not None and result.header.player == "red"
    assert [_bare(o) for o in result.orders] == ENGLISH_PLAN


def _bare(order: Order) -> Order:
    """The order without its line and text, to compare with the expected one."""
    from dataclasses import replace

    return replace(order, line=0, text="")


# -- ANSWER texts (EAW-12.9) ----------------------------------------------------------------------------------------
def test_EAW_12_9_an_answer_text_is_read_as_one_action_line() -> None:
    assert read_action_line("TRADE GAL ELSE RECRUIT BEST", language()) == (
        PlaceTrade((TradeTarget("GAL"),)),
        Recruit(("best",)),
    )
    assert read_action_line("  HANDEL GAL SONST KONTROLLE RAE ", language()) == (
        PlaceTrade((TradeTarget("GAL"),)),
        PlaceControl("RAE"),
    )


def test_EAW_12_9_an_answer_that_is_no_action_line_is_refused_naming_the_problem() -> None:
    with pytest.raises(BadActionLine, match="column 9: unknown area 'Galia'"):
        read_action_line("CONTROL Galia", language())
    with pytest.raises(BadActionLine, match="the answer is one action"):
        read_action_line("MARKERS PUSH", language())


# -- the keyword table -------------------------------------------------------------------------------------------------
def test_every_keyword_has_a_spelling_in_every_language() -> None:
    table = keyword_table(RULESET)
    assert all(table[name][code] for name in table for code in KEYWORD_LANGUAGES)


def test_no_keyword_hides_an_area_or_a_seat_of_the_test_map() -> None:
    assert shadowed_names(language()) == []


def test_no_keyword_hides_an_area_seat_or_card_of_the_example_data() -> None:
    ruleset = load_ruleset(RULESET)
    example = OrderLanguage(ruleset.game_data.load(ruleset.example_data))
    assert shadowed_names(example) == []
    spelt = keyword_of(RULESET)
    names = {n.casefold() for c in example.data.cards.values() for n in (c.id, c.name)}
    names |= {n.casefold() for a in example.data.map.areas.values() for n in (a.id, a.name)}
    assert sorted(names & set(spelt)) == []


def test_one_language_is_kept_per_game_data_and_seats() -> None:
    data = small_data()
    assert language_of(data, ("red", "blue")) is language_of(data, ("red", "blue"))
    assert language_of(data, ("red", "blue")) is not language_of(data, ("red", "green"))
    assert language_of(small_data(), ("red", "blue")) is not language_of(data, ("red", "blue"))


def test_EAW_12_2_a_line_is_quoted_back_in_the_keywords_it_was_written_in() -> None:
    # receipts quote an alternative in the player's own keywords (checks.py); a line of shared spellings is English
    assert written_in("ANGRIFF GAL AUS RAE DANN HANDEL GAL ODER REKRUTIERE BESTE") == "de"
    assert written_in("attacca GAL da RAE altrimenti controllo GAL") == "it"
    assert written_in("AANVAL GAL UIT RAE") == "nl"
    assert written_in("ATTACK GAL FROM RAE") == "en"
    assert written_in("GAL") == "en"
