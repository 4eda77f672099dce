"""The order language of Conqueror: Empire Rises (ER-14): every written form parses to its order, writes back to
the same order in the four keyword languages, and bad lines get errors with line, column and "did you mean".

Names come from our own invented example data (games/conqueror-er/example-data): factions aurel, kesh, thal, ...;
areas AUR Aurelia, MIR Mirefield, SOL Solmarch, VAL Valdmoor, PEL Pelagon, THA Thalea; seas MSE, NSE.
"""

from __future__ import annotations

import re
import subprocess
import sys
from dataclasses import replace
from functools import cache

import pytest

from adjudicator.orders import KEYWORD_LANGUAGES, parse_orders
from adjudicator.orders.keywords import keyword_of, keyword_table
from adjudicator.orders.parser import shadowed_names
from adjudicator.orders.sets import Answer, Language, Order, OrderSet, Press
from adjudicator.resources import resource_dir
from adjudicator.rulesets.conqueror.data import GameData
from adjudicator.rulesets.conqueror.loader import load_folder
from adjudicator.rulesets.conqueror.orders import (
    INDEPENDENTS,
    WHARF,
    AgentAction,
    BattlePlan,
    BlockFilter,
    Build,
    CasualtyOrder,
    DefencePlan,
    Dynasty,
    Food,
    FreeMen,
    LossPriority,
    Megaproject,
    Move,
    Pay,
    Purchase,
    RecruitElite,
    RecruitHero,
    RecruitUnits,
    Reinforce,
    Reinforcement,
    RetreatPriority,
    TemporaryCapital,
    Trade,
    Transport,
    Troops,
    TurnOrder,
    Upgrade,
    canonical,
)
from adjudicator.rulesets.conqueror.parse import OrderLanguage, grammar_files

HEADER = "GAME er1 TURN 2 PLAYER aurel PASSWORD s3cret"


@cache
def data() -> GameData:
    return load_folder(resource_dir("games") / "conqueror-er" / "example-data")


@cache
def orders_language() -> OrderLanguage:
    return OrderLanguage(data())


def parsed(*lines: str) -> OrderSet:
    return parse_orders("\n".join([HEADER, *lines]), orders_language())  # type: ignore[arg-type]


def bare(order: Order) -> Order:
    """The order without the line and text it came from, to compare with an expected order."""
    return replace(order, line=0, text="")


def orders_of(line: str) -> list[Order]:
    result = parsed(line)
    assert result.errors == (), (line, result.errors)
    return [bare(o) for o in result.orders]


def one(line: str) -> Order:
    made = orders_of(line)
    assert len(made) == 1, made
    return made[0]


def error(line: str) -> str:
    """The one error of `line` (in an order set after the header) with its place."""
    result = parsed(line)
    assert len(result.errors) == 1 and result.orders == (), (line, result.orders, result.errors)
    return result.errors[0].located


def round_trips(order: Order) -> None:
    """The canonical text of `order` in every keyword language parses back to the same order."""
    for language in KEYWORD_LANGUAGES:
        text = canonical(order, language)
        assert one(text) == order, (language, text)


def check(line: str, expected: Order) -> None:
    """`line` parses to `expected`, and its canonical text round-trips in the four languages."""
    assert one(line) == expected
    round_trips(expected)


# -- the forms, one per decision of ER-14 ------------------------------------------------------------------------


def test_ER_14_6_agent_action_with_fall_backs_in_order() -> None:
    check(
        "AGENT BAZAAR ELSE ACADEMY ELSE TRADE WITH kesh",
        AgentAction((Build("bazaar"), Build("academy"), Trade("kesh"))),
    )
    check("agent trade with Independents", AgentAction((Trade(INDEPENDENTS),)))
    check('AGENT TRADE WITH "Keshite Thalassocracy"', AgentAction((Trade("kesh"),)))


def test_ER_5_4_agent_pass_keeps_the_agent_home() -> None:
    check("AGENT PASS", AgentAction(()))


def test_ER_5_14_fort_names_its_site_and_ER_5_12_the_space() -> None:
    check("AGENT FORT AT Valdmoor SPACE 2", AgentAction((Build("fort", site="VAL", space=2),)))
    assert "column 12: a fort is placed on a land area, not on MSE (ER-5.14)" in error("AGENT FORT AT MSE")
    assert "every agent action has spaces 1 and 2, not 3 (ER-5.12)" in error("AGENT GRANARY SPACE 3")


def test_ER_5_18_upgrades_of_every_unit_type() -> None:
    check(
        "AGENT UPGRADE CAV ELSE UPGRADE INF ELSE UPGRADE ARCHER SPACE 1 ELSE UPGRADE MARINE",
        AgentAction(
            (Upgrade("cavalry"), Upgrade("infantry"), Upgrade("archer", space=1), Upgrade("marine")),
        ),
    )


def test_ER_12_6_megaprojects_with_slot_and_ER_12_9_wharf_with_ships_site() -> None:
    check(
        "AGENT WONDER SLOT UPGRADE ELSE TEMPLE SLOT DISTRICT SPACE 2 ELSE PORT ELSE WHARF AT PEL SHIP MSE",
        AgentAction(
            (
                Megaproject("wonder", slot="upgrade"),
                Megaproject("temple", slot="district", space=2),
                Megaproject("port"),
                Megaproject("wharf", site="PEL", ships_at="MSE"),
            )
        ),
    )
    check("AGENT WHARF AT PEL", AgentAction((Megaproject("wharf", site="PEL"),)))
    assert "the wharf's ships go to a sea area, not to THA (ER-12.9)" in error("AGENT WHARF AT PEL SHIP THA")
    assert "a wharf stands on a coastal land area, not on MSE (ER-12.9)" in error("AGENT WHARF AT MSE")


def test_ER_14_6_the_same_choice_twice_is_refused() -> None:
    assert "column 14: the same choice is named twice" in error("AGENT BAZAAR ELSE BAZAAR")


def test_ER_14_7_extra_agent_action_given_in_advance() -> None:
    check("EXTRA AGENT ACADEMY ELSE TRADE WITH thal", AgentAction((Build("academy"), Trade("thal")), extra=True))
    check("EXTRA AGENT PASS", AgentAction((), extra=True))


def test_ER_14_2_conquest_purchases_before_round_1() -> None:
    check("BUY FORT AT VAL, BAZAAR", Purchase((Build("fort", site="VAL"), Build("bazaar"))))
    check("BUY UPGRADE CAV", Purchase((Upgrade("cavalry"),)))
    assert "at most 2 purchases before round 1, not 3 (ER-3.11)" in error("BUY BAZAAR, ACADEMY, GRANARY")
    assert "take no agent SPACE (ER-3.11)" in error("BUY BAZAAR SPACE 2")


def test_ER_14_9_recruitment_per_fort_elite_heroes_siege_engines() -> None:
    made = orders_of("RECRUIT 2 INF AT AUR, 1 INF 1 ARCHER AT SOL, ELITE, HERO aurel-2, 1 SIEGE AT AUR")
    assert made == [
        RecruitUnits("AUR", Troops(infantry=2)),
        RecruitUnits("SOL", Troops(infantry=1, archer=1)),
        RecruitElite(None),
        RecruitHero("aurel-2"),
        RecruitUnits("AUR", Troops(siege=1)),
    ]
    for order in made:
        round_trips(order)
    assert orders_of("RECRUIT 1 CAV ELITE AT MIR") == [RecruitElite("MIR"), RecruitUnits("MIR", Troops(cavalry=1))]
    check('RECRUIT HERO "Maren Shieldwife"', RecruitHero("aurel-2"))


def test_ER_12_9_ships_are_not_recruited_and_ER_6_7_one_elite() -> None:
    assert "column 9: ships are not recruited: they come with a wharf (ER-12.9)" in error("RECRUIT 1 SHIP AT AUR")
    assert "ELITE is recruited twice" in error("RECRUIT ELITE, ELITE AT AUR")
    assert "a faction has one elite unit" in error("RECRUIT ELITE ELITE AT AUR")
    assert "aurel-2 is recruited twice" in error("RECRUIT HERO aurel-2, HERO Maren")


def test_ER_1_4_ER_14_9_one_elite_may_be_counted_like_other_units() -> None:
    """`1 ELITE` reads as `ELITE` wherever units are named (a recruitment line, an army); another count is refused."""
    assert orders_of("RECRUIT 1 ELITE") == [RecruitElite(None)]
    assert orders_of("RECRUIT 1 ELITE AT MIR, 2 INF AT AUR") == [
        RecruitElite("MIR"),
        RecruitUnits("AUR", Troops(infantry=2)),
    ]
    assert orders_of("RECRUIT 1 CAV 1 ELITE AT MIR") == orders_of("RECRUIT 1 CAV ELITE AT MIR")
    assert one("MOVE 2 CAV 1 ELITE: AUR -> MIR") == Move(Troops(cavalry=2, elite=True), "AUR", ("MIR",))
    assert "column 9: a faction has one elite unit, not 2 (ER-1.4)" in error("RECRUIT 2 ELITE")
    assert "column 12: a faction has one elite unit, not 3 (ER-1.4)" in error("MOVE 1 INF 3 ELITE: AUR -> MIR")


def test_ER_5_32_and_ER_5_33_store_and_use_food() -> None:
    check("FOOD USE", Food("use"))
    check("FOOD STORE", Food("store"))
    check("FOOD NO STORE", Food("no_store"))


def test_ER_14_8_excess_units_priority_counts_only_standard_units() -> None:
    check("EXCESS ARCHER, INF, CAV", LossPriority("excess", ("archer", "infantry", "cavalry")))
    assert "only cavalry, infantry and archers count against the food limit" in error("EXCESS INF, SHIP")


def test_ER_14_13_and_ER_14_17_loss_priority() -> None:
    check(
        "LOSSES ARCHER, INF CAV SIEGE, SHIP AND ELITE",
        LossPriority("losses", ("archer", "infantry", "cavalry", "siege", "ship", "elite")),
    )
    assert "column 18: 'inf' is listed twice" in error("LOSSES INF, CAV, inf")


def test_ER_14_10_moves_and_thoroughbred_second_moves() -> None:
    check("MOVE 2 CAV ELITE: AUR -> MIR -> SOL", Move(Troops(cavalry=2, elite=True), "AUR", ("MIR", "SOL")))
    check("MOVE 3 INF 1 ARCHER: Aurelia -> Mirefield", Move(Troops(infantry=3, archer=1), "AUR", ("MIR",)))
    assert "a unit moves at most twice in a turn (Thoroughbred, ER-7.2, ER-7.3)" in error(
        "MOVE 2 CAV: AUR -> MIR -> SOL -> VAL"
    )
    assert "a battle plan goes with ATTACK, not MOVE (ER-14.10)" in error("MOVE 2 INF: AUR -> MIR HERO aurel-1")


def test_ER_14_10_attack_with_its_battle_plan_ER_14_14_and_ER_14_12() -> None:
    plan = BattlePlan(
        heroes=("aurel-1",),
        tactics=("charge", "shield-wall"),
        leave=Troops(infantry=1),
        reinforce=Reinforcement("SOL", Troops(infantry=2)),
        free_men=True,
    )
    check(
        'ATTACK 3 INF 1 CAV: AUR -> MIR LEAVING 1 INF HERO aurel-1 TACTICS charge, "Shield Wall" '
        "REINFORCE FROM SOL 2 INF FREEMEN",
        Move(Troops(cavalry=1, infantry=3), "AUR", ("MIR",), attack=True, plan=plan),
    )
    check(
        "ATTACK 2 CAV: AUR -> MIR -> SOL REINFORCE FROM VAL",
        Move(Troops(cavalry=2), "AUR", ("MIR", "SOL"), attack=True, plan=BattlePlan(reinforce=Reinforcement("VAL"))),
    )


def test_ER_8_24_the_attacker_leaves_at_most_one_unit_of_its_army() -> None:
    assert "an attacker leaves at most 1 unit behind (ER-8.24)" in error("ATTACK 3 INF: AUR -> MIR LEAVING 2 INF")
    assert "column 26: the unit left behind must be one of the attacking army (ER-8.24)" in error(
        "ATTACK 3 INF: AUR -> MIR LEAVING 1 CAV"
    )
    assert "this part of the battle plan is given twice" in error("ATTACK 3 INF: AUR -> MIR HERO aurel-1 HERO aurel-2")


def test_ER_8_12_heroes_and_ER_8_13_tactics_are_checked_against_the_cards() -> None:
    assert "unknown hero 'aurel-9' (did you mean" in error("ATTACK 1 INF: AUR -> MIR HERO aurel-9")
    assert "unknown tactic card 'chrage' (did you mean charge?)" in error("ATTACK 1 INF: AUR -> MIR TACTICS chrage")
    assert "hero aurel-1 is named twice" in error('ATTACK 1 INF: AUR -> MIR HERO aurel-1, "Cassan the Bold"')
    # a hero's id is no tactic card
    assert "unknown tactic card 'aurel-1'" in error("ATTACK 1 INF: AUR -> MIR TACTICS aurel-1")


def test_ER_12_12_transport_goes_land_sea_land() -> None:
    check("TRANSPORT 2 INF: PEL -> MSE -> THA", Transport(Troops(infantry=2), "PEL", "MSE", "THA"))
    check(
        "TRANSPORT 1 CAV: PEL -> MSE -> THA TACTICS charge",
        Transport(Troops(cavalry=1), "PEL", "MSE", "THA", plan=BattlePlan(tactics=("charge",))),
    )
    assert "a transport goes from land by a sea area to land (ER-12.12)" in error("TRANSPORT 2 INF: PEL -> THA -> MIR")
    assert "ships carry cavalry, infantry, archers and the elite (ER-12.12)" in error(
        "TRANSPORT 1 SHIP: PEL -> MSE -> THA"
    )


def test_ER_14_14_standing_defensive_battle_plan() -> None:
    check(
        "DEFENCE AT AUR HERO aurel-3 TACTICS shield-wall REINFORCE FROM MIR",
        DefencePlan("AUR", BattlePlan(heroes=("aurel-3",), tactics=("shield-wall",), reinforce=Reinforcement("MIR"))),
    )
    check("DEFENSE TACTICS rally", DefencePlan(None, BattlePlan(tactics=("rally",))))
    assert "only an attacker leaves a unit behind (ER-8.24)" in error("DEFENCE AT AUR LEAVING 1 INF")


def test_ER_14_18_retreat_priorities_per_area() -> None:
    check("RETREAT FROM AUR TO MIR, SOL", RetreatPriority("AUR", ("MIR", "SOL")))
    check("RETREAT TO MIR", RetreatPriority(None, ("MIR",)))
    assert "MIR is listed twice" in error("RETREAT TO MIR, MIR")


def test_ER_14_19_ship_retreat_to_sea_or_wharf() -> None:
    check("RETREAT SHIPS FROM MSE TO NSE, WHARF", RetreatPriority("MSE", ("NSE", WHARF), ships=True))
    assert "only ships retreat to their WHARF (ER-14.19)" in error("RETREAT FROM AUR TO WHARF")


def test_ER_14_12_standing_reinforcement() -> None:
    check("REINFORCE kesh FROM AUR 2 INF", Reinforce("kesh", "AUR", Troops(infantry=2)))
    check("REINFORCE AGAINST thal FROM AUR", Reinforce("thal", "AUR", against=True))
    check("REINFORCE NEVER", Reinforce(never=True))


def test_ER_14_11_persian_block_filters() -> None:
    check("BLOCK kesh, thal MAX 4 TO AUR, MIR", BlockFilter(("kesh", "thal"), 4, ("AUR", "MIR")))
    check("BLOCK", BlockFilter())
    check("BLOCK TO VAL", BlockFilter(targets=("VAL",)))
    check("BLOCK NEVER", BlockFilter(never=True))
    assert "AUR is listed twice" in error("BLOCK TO AUR, AUR")
    assert "kesh is listed twice" in error("BLOCK kesh, kesh")
    assert "column 11: only an army of strength 5 or less can be blocked (ER-12.5)" in error("BLOCK MAX 6")


def test_ER_14_16_casualty_assignment_among_a_side() -> None:
    check("CASUALTIES kesh, thal", CasualtyOrder(("kesh", "thal")))
    assert "kesh is listed twice" in error("CASUALTIES kesh, kesh")


def test_ER_14_15_free_men() -> None:
    check("FREEMEN USE", FreeMen(True))
    check("FREEMEN NEVER", FreeMen(False))


def test_ER_14_5_temporary_capital_list() -> None:
    check("CAPITAL SOL, MIR", TemporaryCapital(("SOL", "MIR")))
    assert "a temporary capital stands on a land area, not on MSE (ER-11.1)" in error("CAPITAL SOL, MSE")


def test_ER_14_3_turn_order_by_the_hourglass_holder() -> None:
    check("ORDER kesh, aurel AND thal", TurnOrder(("kesh", "aurel", "thal")))
    assert "aurel is listed twice" in error("ORDER aurel, kesh, aurel")


def test_ER_14_4_dynasty_trigger() -> None:
    check("DYNASTY", Dynasty())
    check("DYNASTY AT SOL", Dynasty("SOL"))


def test_ER_14_20_coin_transfer() -> None:
    check("PAY 3 COINS TO kesh", Pay(3, "kesh"))
    check("GIVE 1 TO Thal", Pay(1, "thal"))
    assert "'0' is not a positive number" in error("PAY 0 TO kesh")


def test_press_answer_and_language_like_every_game() -> None:
    check("PRESS TO kesh: let us trade", Press("kesh", "let us trade"))
    check("BROADCAST: peace", Press(None, "peace"))
    check("ANSWER battle.MIR.1.retreat: SOL", Answer("battle.MIR.1.retreat", "SOL"))
    check("LANGUAGE Deutsch", Language("de"))


# -- whole mails ---------------------------------------------------------------------------------------------------

PLANS_MAIL = f"""{HEADER}
# Politics (in turn order, with fall-backs)
AGENT BAZAAR ELSE ACADEMY ELSE TRADE WITH kesh
EXTRA AGENT UPGRADE CAV ELSE PASS_NOT_A_CHOICE
# Preparation (sealed)
RECRUIT 2 INF AT AUR, 1 CAV AT SOL, HERO aurel-2
FOOD USE
# New Year
ORDER aurel, kesh, thal
DYNASTY AT SOL
# standing orders
DEFENCE AT AUR HERO aurel-3 TACTICS shield-wall
DEFENCE TACTICS rally
LOSSES ARCHER, INF, CAV, SIEGE, SHIP, ELITE
EXCESS ARCHER, INF, CAV
RETREAT FROM AUR TO MIR, SOL
REINFORCE kesh FROM MIR 2 INF
CASUALTIES kesh, thal
CAPITAL SOL, MIR
FREEMEN USE
PAY 2 COINS TO kesh
END
signature lines are not read
"""

CAMPAIGN_MAIL = f"""{HEADER}
MOVE 2 CAV: SOL -> VAL -> MIR
ATTACK 3 INF 1 CAV: AUR -> MIR LEAVING 1 INF HERO aurel-1 TACTICS charge REINFORCE FROM SOL 2 INF
TRANSPORT 2 INF: PEL -> MSE -> THA TACTICS rally
PRESS TO kesh: as agreed
"""


def test_a_whole_plans_mail_parses_with_one_error_named() -> None:
    result = parse_orders(PLANS_MAIL, orders_language())  # type: ignore[arg-type]
    kinds = [type(o).__name__ for o in result.orders]
    assert kinds == [
        "AgentAction",
        "RecruitUnits",
        "RecruitUnits",
        "RecruitHero",
        "Food",
        "TurnOrder",
        "Dynasty",
        "DefencePlan",
        "DefencePlan",
        "LossPriority",
        "LossPriority",
        "RetreatPriority",
        "Reinforce",
        "CasualtyOrder",
        "TemporaryCapital",
        "FreeMen",
        "Pay",
    ]
    assert result.header is not None and result.header.player == "aurel"
    (bad,) = result.errors
    assert bad.line == 4 and bad.column == 30 and "PASS_NOT_A_CHOICE" in bad.message
    assert [o.line for o in result.orders][:2] == [3, 6]


def test_a_whole_campaign_mail_parses() -> None:
    result = parse_orders(CAMPAIGN_MAIL, orders_language())  # type: ignore[arg-type]
    assert result.errors == ()
    move, attack, transport, press = result.orders
    assert isinstance(move, Move) and move.path == ("VAL", "MIR") and not move.attack
    assert isinstance(attack, Move) and attack.attack and attack.plan.leave == Troops(infantry=1)
    assert isinstance(transport, Transport) and transport.plan.tactics == ("rally",)
    assert press == Press("kesh", "as agreed", line=5, text="PRESS TO kesh: as agreed")


# -- errors: line, column, did you mean, in four languages --------------------------------------------------------


HEADERS = {
    "en": HEADER,
    "de": "SPIEL er1 ZUG 2 SPIELER aurel PASSWORT s3cret",
    "it": "PARTITA er1 TURNO 2 GIOCATORE aurel PASSWORD s3cret",
    "nl": "SPEL er1 BEURT 2 SPELER aurel WACHTWOORD s3cret",
}


def error_in(language: str, *lines: str) -> str:
    """The one error of an order set whose header is written in `language`'s keywords."""
    result = parse_orders("\n".join([HEADERS[language], *lines]), orders_language())  # type: ignore[arg-type]
    assert len(result.errors) == 1, (lines, result.errors)
    return result.errors[0].located


@pytest.mark.parametrize(
    ("language", "line", "expected"),
    [
        ("en", "AGENT BAZZAR", "line 2, column 7: unexpected 'BAZZAR' (did you mean BAZAAR?)"),
        ("it", "AGENTE BAZZAR", "line 2, column 8: unexpected 'BAZZAR' (did you mean BAZAR?)"),
        ("de", "AGENT BASSAR", "line 2, column 7: unexpected 'BASSAR' (did you mean BASAR?)"),
        ("de", "REKRUTIRE 2 INF AT AUR", "line 2, column 1: unexpected 'REKRUTIRE' (did you mean REKRUTIERE?)"),
        (
            "it",
            "AGENTE ACCADEMIA ALTRIMENTI COMMERCA CON kesh",
            "line 2, column 29: unexpected 'COMMERCA' (did you mean COMMERCIA?)",
        ),
        ("nl", "AGENT ACADEMIE ANDERS HANDL MET kesh", "line 2, column 23: unexpected 'HANDL' (did you mean HANDEL?)"),
    ],
)
def test_misspelt_keywords_in_four_languages_get_did_you_mean(language: str, line: str, expected: str) -> None:
    assert error_in(language, line) == expected


def test_did_you_mean_suggests_from_the_writers_language_first() -> None:
    """The keywords of the set (header and lines) and a LANGUAGE line say which language a misspelling is of; a
    word close to no keyword of that language still gets the nearest of another."""
    assert "(did you mean BAZAAR?)" in error_in("en", "AGENT BAZZAR")
    assert "(did you mean BAZAR?)" in error_in("en", "LANGUAGE it", "AGENT BAZZAR")
    assert "(did you mean BAZAR?)" in error_in("it", "AGENT BAZZAR")
    assert "(did you mean BAZAAR?)" in error_in("nl", "AGENT BAZZAR")  # Dutch writes BAZAAR too
    assert "(did you mean KORNSPEICHER?)" in error_in("en", "AGENT KORNSPEICHR")  # no English word is that close


def test_unknown_names_get_did_you_mean_from_the_game_data() -> None:
    assert (
        error("MOVE 1 INF: AUR -> Mirfield")
        == "line 2, column 20: unknown area 'Mirfield' (did you mean MIR Mirefield?)"
    )
    assert (
        error("AGENT TRADE WITH kesch")
        == "line 2, column 18: unknown faction 'kesch' (did you mean kesh (Keshite Thalassocracy)?)"
    )
    assert "unknown hero 'Cassan the Bald' (did you mean aurel-1 (Cassan the Bold)?)" in error(
        'RECRUIT HERO "Cassan the Bald"'
    )


def test_ambiguous_names_are_refused_with_the_candidates() -> None:
    message = error("MOVE 1 INF: AUR -> M")
    assert "area 'M' is ambiguous" in message
    assert "MIR Mirefield" in message


def test_incomplete_lines_say_what_was_expected() -> None:
    assert error("ATTACK 2 INF: AUR ->") == (
        "line 2, column 21: incomplete order: expected an area or a quoted name after '->'"
    )
    assert error("AGENT TRADE WITH") == (
        "line 2, column 17: incomplete order: expected a faction, a quoted name or INDEPENDENTS after 'WITH'"
    )
    assert error("RETREAT SHIPS TO") == (
        "line 2, column 17: incomplete order: expected an area, a quoted name or WHARF after 'TO'"
    )
    assert "unexpected 'TRADE': expected one of: AGENT, ANSWER, ATTACK" in error("TRADE WITH kesh")


# -- the keywords ------------------------------------------------------------------------------------------------------


def _grammar_keywords() -> set[str]:
    """The keywords the Conqueror grammar files read."""
    text = " ".join(path.read_text() for path in grammar_files())
    return {name for name in keyword_table("conqueror-er") if re.search(rf"\b{name}\b", text)}


# One English line per form; together they use every keyword the Conqueror grammar reads.
SAMPLES = (
    "AGENT BAZAAR ELSE ACADEMY ELSE GRANARY ELSE TRADE WITH kesh",
    "EXTRA AGENT PASS",
    "AGENT FORT AT VAL SPACE 2 ELSE UPGRADE MARINE ELSE TRADE WITH INDEPENDENTS",
    "AGENT WONDER SLOT DISTRICT ELSE TEMPLE SLOT UPGRADE ELSE PORT ELSE WHARF AT PEL SHIP MSE",
    "BUY FORT AT VAL AND UPGRADE CAVALRY",
    "RECRUIT 2 INFANTRY AT AUR, ELITE, HERO aurel-2, 1 SIEGE AT AUR",
    "FOOD USE",
    "FOOD NO STORE",
    "LOSSES ARCHER, INFANTRY, CAVALRY, SIEGE, SHIP, ELITE",
    "EXCESS ARCHER, INFANTRY",
    "MOVE 2 CAVALRY: AUR -> MIR -> SOL",
    "ATTACK 2 INFANTRY: AUR -> MIR LEAVING 1 INFANTRY HERO aurel-1 TACTICS charge REINFORCE FROM SOL FREEMEN",
    "TRANSPORT 2 INFANTRY: PEL -> MSE -> THA",
    "DEFENCE AT AUR TACTICS rally",
    "RETREAT SHIP FROM MSE TO NSE, WHARF",
    "REINFORCE VS kesh FROM AUR",
    "REINFORCE NEVER",
    "BLOCK kesh MAX 4 TO AUR",
    "CASUALTIES kesh, thal",
    "FREEMEN NEVER",
    "CAPITAL SOL",
    "ORDER aurel, kesh",
    "DYNASTY AT SOL",
    "PAY 3 COINS TO kesh",
    "PRESS TO kesh: hi",
    "BROADCAST: hi",
    "LANGUAGE de",
    "ANSWER battle.MIR.1.retreat: SOL",
)


def _keywords_in(line: str) -> list[tuple[int, str]]:
    """(index, keyword) of the words of `line` before any ':' message that are keywords."""
    found = []
    for index, word in enumerate(
        line.split(":")[0].split() if "PRESS" in line or "BROADCAST" in line or "ANSWER" in line else line.split()
    ):
        name = keyword_of().get(word.rstrip(",:").casefold())
        if name is not None and word.rstrip(",:") not in ("kesh", "thal", "aurel"):
            found.append((index, name))
    return found


def test_samples_use_every_keyword_of_the_grammar() -> None:
    used = {name for line in SAMPLES for _, name in _keywords_in(line)}
    assert used == _grammar_keywords() - {"GAME", "TURN", "PLAYER", "PASSWORD"}


@pytest.mark.parametrize("language", ["de", "it", "nl"])
def test_every_keyword_spelling_of_every_language_parses_like_english(language: str) -> None:
    for line in SAMPLES:
        english = orders_of(line)
        for index, name in _keywords_in(line):
            for spelling in keyword_table("conqueror-er")[name][language]:
                words = line.split()
                tail = words[index][len(words[index].rstrip(",:")) :]
                words[index] = spelling + tail
                assert orders_of(" ".join(words)) == english, (language, words)


def test_no_keyword_hides_an_area_or_faction_of_the_example_data() -> None:
    assert shadowed_names(orders_language()) == []  # type: ignore[arg-type]
    for side in data().maps:
        assert shadowed_names(OrderLanguage(data(), side)) == []  # type: ignore[arg-type]


def test_conquest_of_the_empire_never_imports_the_conqueror_orders() -> None:
    """bench/parse.py and `check --state` start-up: CoE's paths load nothing of this game's order language."""
    code = (
        "import sys\n"
        "from adjudicator.rulesets import load_ruleset\n"
        "from adjudicator.orders import parse_orders\n"
        "rules = load_ruleset('coe-classic')\n"
        "parse_orders('GAME g TURN 1 PLAYER Italia PASSWORD x\\nBUY 1 INF', rules)\n"
        "print(sorted(m for m in sys.modules if m.startswith('adjudicator.rulesets.conqueror')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "conqueror.parse" not in out and "conqueror.orders" not in out, out
