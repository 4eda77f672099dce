"""The order language: one test per order kind, the languages, and the errors players see."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import adjudicator.orders
from adjudicator.mail.commands import COMMANDS, PAIRS, WITHOUT_HEADER
from adjudicator.orders import KEYWORD_LANGUAGES, parse_orders, parse_turn_file, split_blocks
from adjudicator.orders.keywords import keyword_table
from adjudicator.orders.parser import MISSING_HEADER, shadowed_names
from adjudicator.resources import resource_dir
from adjudicator.rulesets import load_ruleset
from adjudicator.rulesets.coe.orders import (
    CAESAR,
    BattleOrder,
    Buy,
    Captives,
    Concede,
    DestroyCity,
    FreedTo,
    Header,
    Homes,
    Move,
    NavalBattle,
    Order,
    OrderSet,
    Press,
    Priority,
    Purchase,
    RansomAccept,
    RansomOffer,
    RetreatRule,
    Sail,
    Step,
    Troops,
)

RULES = load_ruleset("coe-classic")
HEADER = "GAME rome1 TURN 3 PLAYER Italia PASSWORD s3cret"


def parse(*lines: str) -> OrderSet:
    return parse_orders("\n".join([HEADER, *lines]), RULES)


def one(line: str) -> Order:
    """The single order a line gives, without its line/text bookkeeping checked."""
    result = parse(line)
    assert not result.errors, result.errors
    (order,) = result.orders
    assert order.line == 2 and order.text == line.strip()
    return order


def error(line: str) -> str:
    result = parse(line)
    assert not result.orders
    (problem,) = result.errors
    return problem.located


def same(order: Order, expected: Order) -> None:
    """Compare ignoring line and text."""
    assert type(order) is type(expected)
    assert {k: v for k, v in vars(order).items() if k not in ("line", "text")} == {
        k: v for k, v in vars(expected).items() if k not in ("line", "text")
    }


# -- header -------------------------------------------------------------------------------------------


def test_header() -> None:
    assert parse().header == Header("rome1", 3, "Italia", "s3cret", line=1)


def test_header_any_case_home_code_and_prefix() -> None:
    result = parse_orders("# my orders\n\ngame rome1 turn 3 player ita password PaSs#1  # note\n", RULES)
    assert result.header == Header("rome1", 3, "Italia", "PaSs#1", line=3)
    assert parse_orders("GAME g TURN 1 PLAYER Egy PASSWORD x", RULES).header.player == "Egyptus"


def test_dutch_header() -> None:
    result = parse_orders("SPEL rome1 BEURT 4 SPELER Hispania WACHTWOORD geheim", RULES)
    assert result.header == Header("rome1", 4, "Hispania", "geheim", line=1)
    assert not result.errors


@pytest.mark.parametrize("text", ["", "   \n", "# only a comment\n\n# and another"])
def test_missing_header(text: str) -> None:
    result = parse_orders(text, RULES)
    assert result.header is None and result.orders == ()
    assert [e.located for e in result.errors] == [f"line 1, column 1: {MISSING_HEADER}"]
    assert result.source == text


def test_missing_header_keeps_the_orders() -> None:
    result = parse_orders("MOVE G1: ITA -> NAR\nCAPTIVES KILL", RULES)
    assert result.header is None
    assert len(result.orders) == 2
    assert MISSING_HEADER in result.errors[0].message


def test_bad_seat_in_header() -> None:
    result = parse_orders("GAME rome1 TURN 3 PLAYER Itlaia PASSWORD x", RULES)
    assert result.header is None
    assert "unknown seat 'Itlaia' (did you mean Italia?)" in result.errors[0].message


# -- orders, one per kind -----------------------------------------------------------------------------


def test_move() -> None:
    same(
        one("MOVE G2 WITH 3 INF 2 CAV: ITA -> NAR -> GER"),
        Move(Troops((2,), infantry=3, cavalry=2), "ITA", (Step("land", "NAR"), Step("land", "GER"))),
    )


def test_move_several_leaders_roads_and_long_words() -> None:
    same(
        one("MOVE CAESAR, G1 AND GENERAL 3 WITH 9 INFANTRY, 1 CATAPULTS: ITA -> NAR => HIS"),
        Move(Troops((CAESAR, 1, 3), infantry=9, catapult=1), "ITA", (Step("land", "NAR"), Step("road", "HIS"))),
    )
    same(one("MOVE CAESAR: ITA => NEA"), Move(Troops((CAESAR,)), "ITA", (Step("road", "NEA"),)))


def test_C_8_8_generals_taken_over_are_numbered_on_and_can_be_ordered() -> None:
    (order,) = parse("MOVE G5 WITH 2 INF: ITA -> NAR").orders
    assert isinstance(order, Move) and order.troops.leaders == (5,)


def test_move_without_leader_parses() -> None:
    # the engine rejects it (C-5.5); the parser must not
    same(one("MOVE 3 INF: ITA -> NAR"), Move(Troops(infantry=3), "ITA", (Step("land", "NAR"),)))


def test_sail() -> None:
    same(
        one("SAIL GALLEY 1: ITA -> TYR -> SIC CARRYING G1 WITH 4 INF"),
        Sail((1,), "ITA", ("TYR", "SIC"), Troops((1,), infantry=4)),
    )
    same(one("SAIL GALLEYS 1, 2: ITA -> TYR"), Sail((1, 2), "ITA", ("TYR",), None))


def test_naval_battle() -> None:
    same(one("NAVAL TYR"), NavalBattle("TYR"))
    same(one("NAVAL TYR VS Egyptus"), NavalBattle("TYR", "Egyptus"))


def test_battle_order_and_destroy() -> None:
    same(one("BATTLES NAR, GER"), BattleOrder(("NAR", "GER")))
    same(one("DESTROY CITY NEA"), DestroyCity("NEA"))


def test_buy() -> None:
    same(
        one("BUY 4 INF, 1 GALLEY, CITY AT NAR, ROAD NAR-ITA"),
        Buy(
            (
                Purchase("infantry", 4),
                Purchase("galley", 1),
                Purchase("city", 1, at="NAR"),
                Purchase("road", 1, at="NAR", to="ITA"),
            )
        ),
    )


def test_buy_sites() -> None:
    order = one(
        "BUY 2 GALLEY AT ITA COAST ADR, 1 GALLEY AT SYR, FORTIFIED CITY AT NAR, FORT AT NEA, "
        "FORTIFICATION AT HIS, ROAD NAR ITA, ROAD FROM NAR TO ITA, 2 CAV, CATAPULT"
    )
    assert isinstance(order, Buy)
    assert order.items == (
        Purchase("galley", 2, at="ITA", coast="ADR"),
        Purchase("galley", 1, at="SYR"),
        Purchase("fortified_city", 1, at="NAR"),
        Purchase("fortification", 1, at="NEA"),
        Purchase("fortification", 1, at="HIS"),
        Purchase("road", 1, at="NAR", to="ITA"),
        Purchase("road", 1, at="NAR", to="ITA"),
        Purchase("cavalry", 2),
        Purchase("catapult", 1),
    )


def test_priorities() -> None:
    same(one("LOSSES INF, CAV, CAT"), Priority("losses", ("infantry", "cavalry", "catapult")))
    same(one("BATTLELEGION CAV, INF, CAT"), Priority("battlelegion", ("cavalry", "infantry", "catapult")))
    same(one("PURSUIT CAT, CAV, INF"), Priority("pursuit", ("catapult", "cavalry", "infantry")))
    same(
        one("NAVAL LOSSES EMPTY, LOADED, GENERALS, CAESAR"),
        Priority("naval_losses", ("empty", "loaded", "generals", "caesar")),
    )


def test_retreat() -> None:
    same(one("RETREAT NEVER"), RetreatRule("never"))
    same(one("RETREAT FROM NAR TO ITA, RAE WHEN UNITS < 3"), RetreatRule("units_below", 3, "NAR", ("ITA", "RAE")))
    same(one("RETREAT WHEN UNITS < ENEMY"), RetreatRule("below_enemy"))
    same(one("RETREAT TO ITA WHEN CAESAR AND UNITS < 4"), RetreatRule("caesar_and_units_below", 4, None, ("ITA",)))


def test_captives_freed_homes() -> None:
    same(one("CAPTIVES RANSOM"), Captives("ransom"))
    same(one("CAPTIVES KILL OF Egyptus"), Captives("kill", "Egyptus"))
    same(one("FREED TO ITA, NAR"), FreedTo(("ITA", "NAR")))
    same(one("HOMES ITA, HIS"), Homes(("ITA", "HIS")))


def test_ransom() -> None:
    same(one("RANSOM OFFER Egyptus G2 FOR 30"), RansomOffer("Egyptus", 2, talents=30))
    same(
        one("RANSOM OFFER Egyptus G2 FOR 30 AND Italia G1"),
        RansomOffer("Egyptus", 2, talents=30, prisoners=(("Italia", 1),)),
    )
    same(one("RANSOM OFFER Egyptus G2 FOR Italia G1"), RansomOffer("Egyptus", 2, prisoners=(("Italia", 1),)))
    same(one("RANSOM ACCEPT Italia G1 MIN 20"), RansomAccept("Italia", 1, 20))
    same(one("RANSOM ACCEPT Italia G1"), RansomAccept("Italia", 1, 0))


def test_concede() -> None:
    same(one("CONCEDE TO Italia"), Concede("Italia"))


def test_press_text_is_verbatim() -> None:
    same(one("PRESS TO Egyptus: any free text here"), Press("Egyptus", "any free text here"))
    same(one("BROADCAST: Ave! # not a comment -> MOVE"), Press(None, "Ave! # not a comment -> MOVE"))
    result = parse("PRESS TO Egyptus, Hispania:  Let us share the sea.  ")
    assert [(p.to, p.message) for p in result.orders] == [
        ("Egyptus", "Let us share the sea."),
        ("Hispania", "Let us share the sea."),
    ]


# -- names, case, comments, languages -----------------------------------------------------------------


def test_case_insensitive_keywords_and_comments() -> None:
    result = parse(
        "  move g2 With 3 inf: ita -> nar   # to the west",
        "# a comment line",
        "",
        "captives Kill\t ",
    )
    assert not result.errors
    assert [o.line for o in result.orders] == [2, 5]
    assert result.orders[0].text == "move g2 With 3 inf: ita -> nar   # to the west"


def test_area_prefixes_aliases_and_quotes() -> None:
    same(
        one('MOVE G1: Ital -> "Narbonensis" -> Germ'),
        Move(Troops((1,)), "ITA", (Step("land", "NAR"), Step("land", "GER"))),
    )
    same(one("NAVAL Tyrr"), NavalBattle("TYR"))
    same(one('NAVAL "Mare Tyrrhenum"'), NavalBattle("TYR"))
    same(one("HOMES Ägypten, spain"), Homes(("EGY", "HIS")))


def test_german_move() -> None:
    same(
        one("ZIEHE G1 MIT 3 INFANTERIE UND 2 REITEREI: Italia -> NAR => HIS"),
        Move(Troops((1,), infantry=3, cavalry=2), "ITA", (Step("land", "NAR"), Step("road", "HIS"))),
    )
    same(
        one("Kaufe 1 Straße NAR-ITA, 1 strasse von NAR nach ITA".replace("von", "aus")),
        Buy((Purchase("road", at="NAR", to="ITA"), Purchase("road", at="NAR", to="ITA"))),
    )
    same(one("ZERSTÖRE STADT NEA"), DestroyCity("NEA"))
    same(one("BEWEGE CÄSAR: ITA -> NAR"), Move(Troops((CAESAR,)), "ITA", (Step("land", "NAR"),)))


def test_italian_buy() -> None:
    same(
        one("COMPRA 2 FANTERIA, 1 CAVALLERIA, CITTÀ IN NAR, STRADA NAR-ITA"),
        Buy(
            (
                Purchase("infantry", 2),
                Purchase("cavalry", 1),
                Purchase("city", at="NAR"),
                Purchase("road", at="NAR", to="ITA"),
            )
        ),
    )
    same(
        one("muovi cesare con 2 fanteria: ITA -> NAR"),
        Move(Troops((CAESAR,), infantry=2), "ITA", (Step("land", "NAR"),)),
    )


def test_dutch_orders() -> None:
    same(one("VERPLAATS G1 MET 2 CAVALERIE: ITA -> NAR"), Move(Troops((1,), cavalry=2), "ITA", (Step("land", "NAR"),)))
    same(one("KOOP 1 GALEI, STAD BIJ NAR"), Buy((Purchase("galley"), Purchase("city", at="NAR"))))
    same(one("VAAR GALEI 1: ITA -> TYR"), Sail((1,), "ITA", ("TYR",)))


def test_mixed_languages() -> None:
    same(
        one("MOVE G1 MIT 3 FANTERIA EN 1 CAV: ITA -> NAR"),
        Move(Troops((1,), infantry=3, cavalry=1), "ITA", (Step("land", "NAR"),)),
    )


# -- errors -------------------------------------------------------------------------------------------


def test_misspelled_keyword_with_line_and_column() -> None:
    result = parse("MOVE G1: ITA -> NAR", "", "      MOEV G1: ITA -> NAR")
    (problem,) = result.errors
    assert (problem.line, problem.column, problem.kind) == (4, 7, "invalid")
    assert problem.located == "line 4, column 7: unexpected 'MOEV' (did you mean MOVE?)"
    assert problem.text == "MOEV G1: ITA -> NAR"


def test_unknown_area_suggests() -> None:
    result = parse("MOVE G1: ITA -> Itlia")
    (problem,) = result.errors
    assert problem.located == "line 2, column 17: unknown area 'Itlia' (did you mean ITA Italia?)"
    assert problem.kind == "invalid"


def test_ambiguous_area() -> None:
    (problem,) = parse("NAVAL Mare").errors
    assert problem.kind == "ambiguous"
    assert "area 'Mare' is ambiguous: EUX Mare Pontus Euxinus, ADR Mare Adriaticum," in problem.message


def test_ambiguous_seat() -> None:
    (problem,) = parse("CONCEDE TO M").errors
    assert problem.kind == "ambiguous"
    assert "seat 'M' is ambiguous: Macedonia, Mesopotamia" in problem.message


@pytest.mark.parametrize(
    ("line", "fragment"),
    [
        ("MOVE G29: ITA -> NAR", "column 6: unknown leader 'G29': generals are G1 to G4 (G5 to G28 when taken over)"),
        ("MOVE GENERAL 0: ITA -> NAR", "unknown leader 'GENERAL 0': generals are G1 to G4"),
        ("MOVE G1 WTH 3 INF: ITA -> NAR", "unexpected 'WTH' (did you mean WITH?)"),
        ("MOVE G1 3 INF ITA -> NAR", "unexpected 'ITA': expected a number or one of: AND, ',', :"),
        ("MOVE G1 WITH 3 INF: ITA NAR", "unexpected 'NAR': expected one of: ->, =>"),
        ("MOVE G1 WITH", "column 13: incomplete order: expected a number after 'WITH'"),
        ("MOVE G1 WITH 0 INF: ITA -> NAR", "'0' is not a positive number"),
        ("MOVE G1 WITH -2 INF: ITA -> NAR", "'-2' is not a positive number"),
        ("MOVE G1 WITH 99999999999999999999 INF: ITA -> NAR", "is too large"),
        ("MOVE G1, G1: ITA -> NAR", "leader G1 is named twice"),
        ("MOVE G1: ITA -> NAR; NAR -> GER", "unexpected ';'"),
        ("BUY 3 INF AT ITA KOAST ADR", "unexpected 'KOAST' (did you mean COAST?)"),
        ("BUY CITY AT NAR COAST ADR", "COAST names the coast of a new galley, not a CITY"),
        ("BUY 2 ROAD NAR-ITA", "buy one road per item"),
        ("LOSSES INF, INF", "'INF' is listed twice"),
        ("NAVAL LOSES EMPTY", "unknown area 'LOSES' (did you mean LOSSES?)"),
        ("RETREAT WHEN UNITS > 3", "unexpected '>': expected <"),
        ("CONCEDE TO Rome", "unknown seat 'Rome'; the seats are Macedonia, Galatia,"),
        ("NAVAL TYR VS Egyptos", "unknown seat 'Egyptos' (did you mean Egyptus?)"),
        ("RANSOM OFFER Egyptus G2 FOR 30 AND 40", "talents are given twice"),
        ("PRESS TO Egyptus", "expected ':' and the message or one of: AND, ',' after 'Egyptus'"),
        ("PRESS TO Egyptus:   ", "the message after ':' is empty"),
        ("HELLO there", "unexpected 'HELLO': expected one of: ANSWER, BATTLELEGION, BATTLES, BROADCAST, BUY"),
        ("\x00\x00garbage", r"column 1: unexpected '\x00\x00garbage'"),
        ('NAVAL "Mare', "unexpected '\"Mare'"),
        ("GAME rome1 TURN 4 PLAYER Italia PASSWORD x", "a second header"),
    ],
)
def test_error_messages(line: str, fragment: str) -> None:
    message = error(line)
    assert message.startswith("line 2, column ")
    assert fragment in message


def test_one_bad_line_does_not_hide_the_others() -> None:
    result = parse(
        "MOVE G1: ITA -> NAR", "MOVE G1 WITH 3 INF ITA -> NAR", "BATTLES NAR", "BUY 3 HORSES", "CAPTIVES KILL"
    )
    assert [o.line for o in result.orders] == [2, 4, 6]
    assert [e.line for e in result.errors] == [3, 5]


def test_binary_garbage_does_not_crash() -> None:
    text = HEADER + "\n" + bytes(range(256)).decode("latin-1") + "\n\x00\n\ufffd\ufeff\u2028MOVE\n"
    result = parse_orders(text, RULES)
    assert result.header is not None and result.orders == ()
    assert all(e.kind == "invalid" for e in result.errors)


# -- turn files ---------------------------------------------------------------------------------------


TURN_FILE = """\
# turn 3 orders, collected by the moderator

GAME rome1 TURN 3 PLAYER Italia PASSWORD a
MOVE G1: ITA -> NAR
GAME rome1 TURN 3 PLAYER Egyptus PASSWORD b
# Egyptus stays put
CAPTIVES KILL
GAME rome1 TURN 3 PLAYER His PASSWORD c
"""


def test_turn_file_blocks() -> None:
    sets = parse_turn_file(TURN_FILE, RULES)
    assert [s.header.player for s in sets if s.header] == ["Italia", "Egyptus", "Hispania"]
    assert [[o.line for o in s.orders] for s in sets] == [[4], [7], []]
    assert all(not s.errors for s in sets)
    assert sets[1].source == "GAME rome1 TURN 3 PLAYER Egyptus PASSWORD b\n# Egyptus stays put\nCAPTIVES KILL"
    assert [first for first, _ in split_blocks(TURN_FILE)] == [3, 5, 8]


def test_turn_file_text_before_first_header() -> None:
    sets = parse_turn_file("Dear moderator,\n" + TURN_FILE, RULES)
    assert len(sets) == 3
    (problem,) = sets[0].errors
    assert problem.line == 1 and "before the GAME header" in problem.message


def test_turn_file_without_header() -> None:
    (only,) = parse_turn_file("MOVE G1: ITA -> NAR\n", RULES)
    assert only.header is None and len(only.orders) == 1
    assert MISSING_HEADER in only.errors[0].message


# -- the keyword table --------------------------------------------------------------------------------


def test_keyword_table_covers_every_language() -> None:
    table = keyword_table()
    assert KEYWORD_LANGUAGES == ("en", "de", "it", "nl")
    assert {"MOVE", "WITH", "BUY", "GAME", "PASSWORD", "BROADCAST"} <= set(table)
    assert all(table[name][lang] for name in table for lang in KEYWORD_LANGUAGES)


def test_no_keyword_hides_an_area_or_seat() -> None:
    assert shadowed_names(RULES) == []


def test_the_shared_parser_knows_no_game() -> None:
    """adjudicator/orders is every game's: a ruleset's grammar files and builder come through its hooks."""
    shared = Path(adjudicator.orders.__file__).parent
    imports = [line for path in shared.glob("*.py") for line in path.read_text().splitlines() if "rulesets." in line]
    assert imports == []
    assert RULES.hooks.GRAMMAR_FILES == ("common.lark", "coe.lark")
    assert "header:" in (resource_dir("grammar") / "common.lark").read_text()


# -- every keyword in every language, the end mark, what reports print parses back --------------------

# One English sample per order form; together they use every keyword of the table.
KEYWORD_SAMPLES = (
    HEADER,
    "MOVE G1 AND GENERAL 2 WITH 3 INFANTRY 2 CAVALRY 1 CATAPULT: ITA -> NAR",
    "MOVE CAESAR WITH 4 INF: ITA => NEA LEAVING 2 INF => NAR",
    "SAIL GALLEY 1: ITA -> TYR CARRYING G1 WITH 4 INF",
    "NAVAL TYR VS Egyptus",
    "NAVAL LOSSES EMPTY, LOADED, GENERALS, CAESAR",
    "BATTLES NAR, TYR",
    "DESTROY CITY NEA",
    "BUY 4 INF, 1 GALLEY AT ITA COAST ADR, FORTIFIED CITY AT NAR, FORTIFICATION AT NEA, ROAD FROM NAR TO ITA",
    "LOSSES 4 CAV, INF, CAT",
    "BATTLELEGION CAV, INF",
    "PURSUIT CAT, CAV",
    "TARGETS CAT, GALLEY",
    "RETREAT FROM NAR TO ITA WHEN UNITS < 3",
    "RETREAT NEVER",
    "RETREAT WHEN UNITS < ENEMY",
    "RETREAT WHEN CAESAR AND UNITS < 3",
    "RETREAT FROM NAR WHEN ENEMY ADVANTAGE >= 2",
    "CAPTIVES RANSOM OF Egyptus",
    "CAPTIVES KILL",
    "FREED TO ITA, NAR",
    "HOMES ITA",
    "RANSOM OFFER Egyptus G2 FOR 30 TALENTS AND Egyptus G1",
    "RANSOM ACCEPT Egyptus G1 MIN 20 TALENTS",
    "CONCEDE TO Egyptus",
    "PRESS TO Egyptus: x1",
    "BROADCAST: x1",
    "LANGUAGE de",
    "ANSWER battle.NAR.1.retreat: continue",
    "WITHDRAW",
    "END",
)


def _keyword_words(line: str) -> list[tuple[int, str]]:
    """(index, keyword name) of the whitespace-separated words of `line` that are keywords (a ',' or ':'
    after the word allowed); text after a ':' that ends a word is a message and not looked at."""
    from adjudicator.orders.keywords import keyword_of

    found = []
    for index, word in enumerate(line.split()):
        name = keyword_of().get(word.rstrip(",:").casefold())
        if name is not None:
            found.append((index, name))
        if word.endswith(":") and "." in word or word == "BROADCAST:" or word == "Egyptus:":
            break
    return found


def _translated(line: str, language: str, choice: dict[str, str]) -> str:
    words = line.split()
    for index, name in _keyword_words(line):
        word = words[index]
        tail = word[len(word.rstrip(",:")) :]
        words[index] = choice.get(name, keyword_table()[name][language][0]) + tail
    return " ".join(words)


def _parsed(line: str) -> object:
    if (
        line.split()[0]
        in keyword_table()["GAME"]["en"]
        + keyword_table()["GAME"]["de"]
        + keyword_table()["GAME"]["it"]
        + keyword_table()["GAME"]["nl"]
    ):
        result = parse_orders(line, RULES)
        assert not result.errors, result.errors
        return result.header
    result = parse_orders(f"{HEADER}\n{line}", RULES)
    assert not result.errors, (line, result.errors)
    return [{k: v for k, v in vars(o).items() if k not in ("line", "text")} for o in result.orders]


def test_samples_use_every_keyword_of_the_table() -> None:
    used = {name for line in KEYWORD_SAMPLES for _, name in _keyword_words(line)}
    # read by the mailroom, not the grammar (PASSWORD, the first word of PASSWORD RESET, also heads the order header)
    mail_commands = {*COMMANDS, *WITHOUT_HEADER, *PAIRS} - {"PASSWORD"}
    answer_words = {"CONTINUE"}  # read in an ANSWER's text (C-15.7: rulesets/coe/decisions.py), not by the grammar
    assert used == set(keyword_table()) - mail_commands - answer_words - _other_games_keywords()


def _other_games_keywords() -> set[str]:
    """Keywords only another game's grammar reads (Conqueror's and Empires': their own tests cover them)."""
    coe = " ".join((resource_dir("grammar") / name).read_text() for name in RULES.hooks.GRAMMAR_FILES)
    other = " ".join(path.read_text() for path in sorted(resource_dir("games").glob("*/orders.lark")))
    return {name for name in keyword_table() if re.search(rf"\b{name}\b", other) and not re.search(rf"\b{name}\b", coe)}


@pytest.mark.parametrize("language", ["de", "it", "nl"])
def test_every_keyword_spelling_of_every_language_parses_like_english(language: str) -> None:
    for line in KEYWORD_SAMPLES:
        english = _parsed(line)
        for _, name in _keyword_words(line):
            for spelling in keyword_table()[name][language]:
                translated = _translated(line, language, {name: spelling})
                assert _parsed(translated) == english, translated


@pytest.mark.parametrize(
    "line",
    [
        "NACHRICHT AN Egyptus: ciao",
        "MESSAGGIO A Egyptus: ciao",
        "BERICHT AAN Egyptus: ciao",
        "KAPITULIERE AN Egyptus",
        "CONCEDI A Egyptus",
    ],
)
def test_press_and_concede_read_naturally_in_german_italian_and_dutch(line: str) -> None:
    order = one(line)
    assert isinstance(order, Press | Concede)


@pytest.mark.parametrize("mark", ["END", "ende", "FINE", "Einde", "END."])
def test_an_end_mark_ends_the_orders_and_a_signature_after_it_is_not_read(mark: str) -> None:
    result = parse("MOVE G1: ITA -> NAR", mark, "-- ", "Marcus Aurelius", "GAME over, see you", "Tel. 555 1234")
    assert not result.errors
    assert [type(o) for o in result.orders] == [Move]


def test_an_end_mark_in_a_turn_file_ends_its_block_only() -> None:
    text = (
        f"{HEADER}\nMOVE G1: ITA -> NAR\nEND\nregards, the Italia player\n"
        "GAME rome1 TURN 3 PLAYER Egyptus PASSWORD pw\nBROADCAST: hi\nENDE\nGruss\n"
    )
    first, second = parse_turn_file(text, RULES)
    assert not first.errors and not second.errors
    assert [type(o) for o in first.orders] == [Move] and [type(o) for o in second.orders] == [Press]


@pytest.mark.parametrize(
    ("line", "leaders", "infantry"),
    [
        ("MOVE G2 G3 G4: ITA -> NAR", (2, 3, 4), 0),
        ("MOVE G2, G3: ITA -> NAR", (2, 3), 0),
        ("MOVE CAESAR G2 G3 WITH 5 INF: ITA -> NAR", (CAESAR, 2, 3), 5),
        ("MOVE G2 G3 5 INFANTRY: ITA -> NAR", (2, 3), 5),
        ("MOVE G2, G3 with 2 INF: ITA -> NAR", (2, 3), 2),
    ],
)
def test_troop_lists_as_reports_print_them_parse_back(line: str, leaders: tuple[int, ...], infantry: int) -> None:
    order = one(line)
    assert isinstance(order, Move) and order.troops == Troops(leaders, infantry)


@pytest.mark.parametrize(
    "line", ["SAIL GALLEYS 1 2: ITA -> TYR", "SAIL GALLEY 1, GALLEY 2: ITA -> TYR", "SAIL GALLEYS 1, 2: ITA -> TYR"]
)
def test_galley_lists_as_reports_print_them_parse_back(line: str) -> None:
    order = one(line)
    assert isinstance(order, Sail) and order.galleys == (1, 2)


def test_C_5_12_a_road_journey_drops_units_at_a_city_it_passes() -> None:
    order = one("MOVE G1 WITH 4 INF: ITA => NEA LEAVING 2 INF => NAR")
    assert isinstance(order, Move)
    assert order.steps == (Step("road", "NEA", Troops(infantry=2)), Step("road", "NAR"))


def test_C_5_12_leaving_at_the_end_of_a_move_is_refused_naming_the_place() -> None:
    assert error("MOVE G1 WITH 4 INF: ITA => NEA LEAVING 2 INF") == (
        "line 2, column 32: LEAVING drops pieces on the way; at the end of the move every piece stops anyway"
    )


def test_C_6_9_losses_with_counts() -> None:
    same(one("LOSSES 4 INF 1 CAV"), Priority(kind="losses", values=("infantry", "cavalry"), counts=(4, 1)))
    same(
        one("LOSSES 4 INF, INF, CAV"),
        Priority(kind="losses", values=("infantry", "infantry", "cavalry"), counts=(4, None, None)),
    )
    same(
        one("BATTLELEGION 1 CAV, INF"), Priority(kind="battlelegion", values=("cavalry", "infantry"), counts=(1, None))
    )
    assert error("LOSSES INF, 2 INF") == "line 2, column 15: 'INF' is listed twice"
    assert "is not a positive number" in error("LOSSES 0 INF")


def test_the_tool_writes_the_first_spelling_or_its_abbreviation_and_only_reads_the_others() -> None:
    from adjudicator.orders.keywords import written

    assert [written("de", "TO"), written("it", "TO"), written("nl", "TO")] == ["NACH", "VERSO", "NAAR"]
    assert [written("en", "INFANTRY"), written("de", "CAVALRY"), written("en", "WHEN")] == ["INF", "KAV", "WHEN"]
