"""The words German, Italian and Dutch players type and read: the keyword table says what a reader understands,
and the word a report uses for a thing is a keyword the player can type for it."""

from __future__ import annotations

import re
import shutil
from functools import cache
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from adjudicator.archive import Archive
from adjudicator.archive import queries as db
from adjudicator.archive.models import GameRow
from adjudicator.engine.chance import GivenDice
from adjudicator.engine.vocabulary import Event
from adjudicator.mail.inbound import Incoming
from adjudicator.orders import parse_orders
from adjudicator.orders.keywords import KeywordTableError, keyword_of, keyword_table, written
from adjudicator.orders.sets import OrderSet
from adjudicator.render import environment
from adjudicator.render.i18n import engine_text, gettext, plural_gettext
from adjudicator.render.svgmap import render_map_for_turn
from adjudicator.resources import resource_dir
from adjudicator.rulesets import load_ruleset
from adjudicator.rulesets.coe.capture import parse_captive_choice
from adjudicator.rulesets.coe.decisions import BadAnswer, retreat_answer
from adjudicator.rulesets.coe.state import Cargo, GameState, snapshot_text
from adjudicator.rulesets.conqueror.battle_types import Plan
from adjudicator.rulesets.conqueror.loader import load_folder
from adjudicator.rulesets.conqueror.parse import OrderLanguage
from adjudicator.services.clock import SYSTEM_CLOCK
from adjudicator.services.deadlines import tick
from adjudicator.services.game_reads import game_ruleset
from adjudicator.services.games import NewGameOptions, new_game
from adjudicator.services.mailbox import ingest
from adjudicator.services.reports import stored_report, turn_map, turn_reports
from adjudicator.services.turn import play, turn_row
from tests.conftest import Pbem
from tests.helpers import legion, place, start
from tests.test_conqueror_battle import FREE_MEN, ONE, army, battle, run
from tests.test_conqueror_new import data_copy, new_er
from tests.test_conqueror_plans_cli import SEATS3
from tests.test_i18n import CATALOGUES, SEATS, mails_to, two_german_seats

READERS = ("de", "it", "nl")


@cache
def conqueror_language() -> OrderLanguage:
    return OrderLanguage(load_folder(resource_dir("games") / "conqueror-er" / "example-data"))


def conqueror_orders(language: str, *lines: str) -> OrderSet:
    header = " ".join(
        f"{written(language, word)} {value}"
        for word, value in (("game", "er1"), ("turn", "2"), ("player", "aurel"), ("password", "x"))
    )
    return parse_orders("\n".join([header, *lines]), conqueror_language())  # type: ignore[arg-type]


# -- keywords that mislead ----------------------------------------------------------------------------------------


def test_ER_8_1_german_attack_is_written_as_an_attack_and_grab_is_no_keyword() -> None:
    assert written("de", "attack") == "ANGRIFF"
    assert "greife" not in keyword_of()  # "grab": a German reader would not guess an attack
    orders = conqueror_orders("de", "ANGRIFF 2 INF: AUR -> MIR")
    assert not orders.errors and len(orders.orders) == 1


def test_ER_5_32_dutch_store_is_not_hit() -> None:
    assert written("nl", "store") == "OPSLAAN"
    assert "sla" not in keyword_of()  # "hit": a Dutch reader would not guess storing food
    orders = conqueror_orders("nl", "VOEDSEL OPSLAAN")
    assert not orders.errors and len(orders.orders) == 1


@pytest.mark.parametrize("language", READERS)
def test_ER_5_12_the_reports_word_for_an_agent_space_and_a_board_slot_is_its_keyword(language: str) -> None:
    space = gettext(language, "space %(wanted)s is taken by another player's agent", wanted=2).casefold()
    slot = gettext(language, "no free %(wanted)s slot on the player board", wanted="x").casefold()
    assert written(language, "space").casefold() in space
    assert written(language, "slot").casefold() not in space
    assert written(language, "slot").casefold() in slot
    assert written(language, "space").casefold() not in slot


@pytest.mark.parametrize("language", READERS)
def test_C_1_1_unit_kinds_are_abbreviated_alike_in_every_language(language: str) -> None:
    for kind in ("infantry", "cavalry", "catapult"):
        abbreviation = written(language, kind)
        assert len(abbreviation) <= 4, (kind, abbreviation)
        assert abbreviation in keyword_table()[kind.upper()][language]


# -- sentences of a real Classic report in the reader's language ----------------------------------------------


def classic_report(state: GameState, orders: str, dice: list[int], language: str) -> str:
    """The public report of Macedonia's turn 1 from `state`, played with the given dice, in `language`."""
    ruleset = load_ruleset("coe-classic")
    given = GivenDice(values=dice)
    result = play(ruleset, state, orders, given)
    game = GameRow(id=1, name="test", ruleset=ruleset.name, seed="", commitment="c0ffee", created="")
    row = turn_row(ruleset, game, 1, "Macedonia", 1, orders, result, given, clock=SYSTEM_CLOCK)
    return turn_reports(ruleset, game, row, seats={}, language=language, before=snapshot_text(state))["report.txt"]


def battle_without_losses(language: str) -> str:
    """Macedonia's G1 with 6 INF takes Thracia from Egyptus's 2 INF, who roll two blanks (C-6.8)."""
    state = start()
    legion(state, "MOE", 1, inf=6)
    legion(state, "THR", seat="Egyptus", inf=2)
    orders = "GAME test TURN 1 PLAYER Macedonia PASSWORD x\nMOVE G1 WITH 6 INF: MOE -> THR\nBUY 1 INF\n"
    return classic_report(state, orders, [1, 1, 1, 1, 1, 1, 6, 6], language)


@pytest.mark.parametrize("language", ("en", *READERS))
def test_C_6_8_a_side_that_loses_nothing_is_told_so_in_a_sentence(language: str) -> None:
    report = battle_without_losses(language)
    nothing = gettext(
        language,
        "%(seat)s rolls %(dice)s: %(count)s; %(other)s loses nothing",
        seat="Egyptus",
        dice="",
        count="",
        other="Macedonia",
    ).split(":")[-1]
    assert nothing.strip() in report
    assert gettext(language, "none") not in report.split(written(language, "infantry"))[0]
    assert f" {gettext(language, 'none')}\n" not in report


def test_C_12_6_the_italian_purchase_sentence_says_where_the_pieces_were_placed() -> None:
    report = battle_without_losses("it")
    assert "piazzamento in" not in report
    assert "piazzat" in report and "MAC" in report


@pytest.mark.parametrize("language", READERS)
def test_C_1_8_die_faces_are_shown_in_the_readers_words(language: str) -> None:
    report = battle_without_losses(language)
    assert "=blank" not in report
    assert f"1={written(language, 'infantry').lower()} " in report and f"6={gettext(language, 'blank')}" in report


# -- a Conqueror game with seats reading German, Italian and Dutch --------------------------------------------


@pytest.fixture
def conqueror_game(pbem: Pbem, tmp_path: Path) -> Pbem:
    """er1 at 3 seats, kesh reading German, aurel Italian, thal Dutch; setup and taxation resolved."""
    created = new_er(
        pbem,
        data_copy(tmp_path),
        "--language",
        "kesh=de",
        "--language",
        "aurel=it",
        "--language",
        "thal=nl",
        seats=SEATS3,
    )
    assert created.startswith("0\n"), created
    assert pbem("adjudicate", "er1", "--now").exit_code == 0  # taxation (ER-5.2)
    return pbem


def conqueror_report(pbem: Pbem, language: str, turn: int = 2) -> str:
    shown = pbem("report", "er1", "--turn", str(turn), "--language", language)
    assert shown.exit_code == 0, shown.output
    return shown.output


@pytest.mark.parametrize("language", READERS)
def test_ER_4_1_the_position_names_the_phase_units_and_independents_in_the_readers_words(
    conqueror_game: Pbem, language: str
) -> None:
    report = conqueror_report(conqueror_game, language)
    position = report.split("===")[-1]
    assert "plans" not in position and "infantry" not in position and "independent" not in position
    assert gettext(language, "plans (politics and preparation)") in position  # ER-4.1 phases 3 and 4
    assert f"1 {written(language, 'cavalry')}, 1 {written(language, 'infantry')}" in position  # an independent army
    assert f"{written(language, 'independents').lower()} 1 {written(language, 'cavalry')}" in position


# -- keywords inside instructions are the reader's own, and he may answer with them -------------------------------


def test_C_8_4_a_german_seat_answers_toete_and_the_captured_general_is_killed(tmp_path: Path) -> None:
    archive, passwords = two_german_seats(tmp_path)
    orders = f"SPIEL rome1 ZUG 1 SPIELER Macedonia PASSWORT {passwords['Macedonia']}\nZIEHE G3 MIT 1 INF: MAC -> DAL\n"
    assert (
        ingest(archive, Incoming("<o@test>", SEATS["Macedonia"], "", "Befehle", orders, orders)).text == "orders stored"
    )
    assert "waiting for decisions" in " ".join(tick(archive, tmp_path).lines)  # C-15: the capture is asked first
    notice = mails_to(archive, "Macedonia")[-1].body
    [key] = re.findall(r"ANTWORT (captive\S*): ", notice)
    assert f"ANTWORT {key}: {written('de', 'ransom')}\n" in notice  # the default, as he would write it (C-15.11)
    answer = f"SPIEL rome1 ZUG 1 SPIELER Macedonia PASSWORT {passwords['Macedonia']}\nANTWORT {key}: TÖTE\n"
    ingest(archive, Incoming("<a@test>", SEATS["Macedonia"], "", "Antwort", answer, answer))
    tick(archive, tmp_path)
    report = stored_report(archive, "rome1", 1, None, "de")
    killed = "%(seat)s captures %(owner)s's %(leader)s in %(area)s and kills him"
    assert gettext("de", killed, seat="Macedonia", owner="Egyptus", leader="G2", area="DAL") in report  # C-8.4


@pytest.mark.parametrize(
    ("language", "kill", "ransom"),
    [("de", "TÖTE", "LÖSEGELD"), ("it", "UCCIDI", "RISCATTO"), ("nl", "DOOD", "LOSGELD")],
)
def test_C_8_4_the_refusal_of_a_captive_answer_names_the_readers_keywords(
    language: str, kill: str, ransom: str
) -> None:
    assert parse_captive_choice(kill.lower()) == "kill" and parse_captive_choice(ransom) == "ransom"
    with pytest.raises(BadAnswer) as refused:
        parse_captive_choice("maybe")
    stored = str(refused.value)
    assert stored == "answer KILL or RANSOM"  # stored in English, as older archives hold it
    shown = engine_text(language, stored)
    assert kill in shown and ransom in shown and "KILL" not in shown


@pytest.mark.parametrize("language", READERS)
def test_C_15_7_a_retreat_answer_in_the_readers_keywords(language: str) -> None:
    word = {name: written(language, name) for name in ("continue", "retreat", "to")}
    assert retreat_answer(word["continue"].lower()) is None
    assert retreat_answer(f"{word['retreat']} {word['to']} mac") == ["MAC"]
    with pytest.raises(BadAnswer) as refused:
        retreat_answer("flee")
    shown = engine_text(language, str(refused.value))
    assert word["continue"] in shown and word["retreat"] in shown and "CONTINUE" not in shown


@pytest.mark.parametrize("folder", CATALOGUES, ids=lambda p: p.parent.name)
@pytest.mark.parametrize("language", READERS)
def test_every_keyword_in_an_instruction_is_a_placeholder_filled_from_the_keyword_table(
    language: str, folder: Path
) -> None:
    """No msgid or translation writes an order keyword itself: the reader's keywords are filled in (kw_<name>)."""
    english = {s.casefold() for names in keyword_table().values() for s in names["en"]}
    spelled = {s.casefold() for names in keyword_table().values() for s in names[language]}
    with (folder / language / "LC_MESSAGES" / "messages.po").open("rb") as source:
        catalogue = read_po(source, locale=language)
    for message in catalogue:
        if not message.id or not isinstance(message.id, str):
            continue
        for text, words in ((message.id, english), (message.string, spelled | english)):
            capitals = re.findall(r"\b[A-ZÄÖÜÀÈÉÌÒÙ]{2,}\b", re.sub(r"%\(\w+\)s|\(ER-[\d.]+\)|ER-[\d.]+", "", text))
            assert not [w for w in capitals if w.casefold() in words and w not in ALLOWED_CAPITALS], text


ALLOWED_CAPITALS = {"VP", "PV", "SP", "OP", "HMAC", "SHA", "SMTP", "IMAP", "UTC", "ID", "URL", "DE", "IT", "NL", "EN"}


# -- no English left in a reader's report ---------------------------------------------------------------------


@pytest.mark.parametrize("language", READERS)
def test_the_setup_report_gives_the_title_and_the_dice_commitment_in_the_readers_words(
    tmp_path: Path, language: str
) -> None:
    archive = Archive.in_folder(tmp_path)
    new_game(archive, tmp_path, NewGameOptions("rome1", "coe-classic", SEATS, languages={"Egyptus": language}))
    report = stored_report(archive, "rome1", 0, None, language)
    private = stored_report(archive, "rome1", 0, "Egyptus")
    title = "Conquest of the Empire, Classic edition (2005)"
    assert gettext(language, title) != title
    assert report.startswith(gettext(language, title)) and private.startswith(gettext(language, title))
    assert "ommitment" not in report and "Seed" not in report
    welcome = (tmp_path / "games" / "rome1" / "outbox" / "welcome-Egyptus.txt").read_text()
    assert title not in welcome and "ommitment" not in welcome


def conqueror_sentences(events: tuple[Event, ...], language: str) -> str:
    """The report sentences of Conqueror events in `language` (templates/conqueror/events.j2)."""
    template = environment(language).from_string(
        '{% from "conqueror/events.j2" import sentence %}{% for e in events %}{{ sentence(e) }}\n{% endfor %}'
    )
    return template.render(events=events)


@pytest.mark.parametrize("language", ("en", *READERS))
def test_ER_8_18_free_men_are_told_in_a_sentence_with_the_readers_keyword(language: str) -> None:
    gaul = army("a", "O", infantry=2, elite=FREE_MEN, heroes={"warden": 0})
    outcome, _ = run(battle(gaul, army("d", "X", infantry=3)), [ONE, ONE], {"a": Plan(free_men=True)})
    events = tuple(Event(f"battle_{e.what}", None, {"rule": e.rule, **dict(e.data)}) for e in outcome.events)
    told = conqueror_sentences(events, language)  # as battle_setup.battle_events reports them
    assert gettext(language, "%(player)s's Free Men join the battle (%(rule)s).", player="a", rule="ER-8.18") in told
    assert "True" not in told and (language == "en" or "Free Men" not in told)
    if language != "en":
        assert written(language, "freemen").casefold() in told.casefold()  # the word he orders them with (ER-14.15)
        assert "attacker" not in told and "defender" not in told and " infantry" not in told  # ER-8.14, ER-8.22


@pytest.mark.parametrize("language", READERS)
def test_C_1_1_map_labels_give_the_units_as_the_reader_orders_them(language: str) -> None:
    state = start()
    legion(state, "MOE", 1, inf=2, cav=1, cat=1)
    svg = render_map_for_turn("coe-classic", snapshot_text(state), "[]", language=language)
    units = " ".join(f"{n} {written(language, kind)}" for n, kind in ((2, "infantry"), (1, "cavalry"), (1, "catapult")))
    assert f"G1 · {units}" in svg


@pytest.mark.parametrize("language", READERS)
def test_ER_0_3_the_map_names_the_independents_in_the_readers_words(conqueror_game: Pbem, language: str) -> None:
    archive = Archive.open(conqueror_game.data, conqueror_game.db)
    with archive.session() as session:
        game = db.find_game(session, "er1")
        svg = turn_map(game_ruleset(game), game, db.get_turn(session, game, 2), language)
    assert gettext(language, "held by the independents") in svg  # ER-2.3
    assert f"{written(language, 'independents').lower()}: " in svg and "independent:" not in svg
    assert f">{written(language, 'independents').lower()}</text>" in svg and ">independent<" not in svg  # legend


@pytest.mark.parametrize("language", READERS)
def test_ER_5_14_ER_12_6_buildings_are_named_by_the_readers_keywords(language: str) -> None:
    built = (
        Event("district_built", "aurel", {"district": "granary", "site": None, "price": 4}),
        Event("megaproject_built", "aurel", {"kind": "temple", "card": "t1", "slot": "district", "price": 9}),
    )
    told = conqueror_sentences(built, language)
    said = told.casefold()  # keywords are read in any case: the sentence's "Kornspeicher" is typed KORNSPEICHER
    assert written(language, "granary").casefold() in said and written(language, "temple").casefold() in said
    assert "granary" not in told and "temple" not in told


@pytest.mark.parametrize("language", READERS)
def test_the_reports_words_for_a_game_and_a_seat_are_the_keywords_or_no_board_word(language: str) -> None:
    game = gettext(language, "Game %(game)s - public report", game="rome1").split()[0]
    assert keyword_of().get(game.casefold()) == "GAME"  # "Partie rome1" is typed PARTIE rome1
    seats = gettext(language, "You play %(seat)s. Seats: %(seats)s.", seat="x", seats="y").casefold()
    turn = gettext(
        language, "judged as the position stands now; alternatives are tried again when the seat's turn comes (ER-14.6)"
    ).casefold()
    for text in (seats, turn):  # a seat is a player, never the word for a board slot or space (ER-5.12)
        assert written(language, "slot").casefold() not in text and written(language, "space").casefold() not in text


def test_C_9_1_dutch_tribute_is_one_word_in_the_table_and_the_sentence() -> None:
    collected = gettext(
        "nl", "%(seat)s collects %(amount)s talents of tribute; treasury %(treasury)s", seat="x", amount=1, treasury=1
    )
    assert gettext("nl", "Tribute").casefold() in collected.casefold()


@pytest.mark.parametrize("language", READERS)
def test_C_15_a_default_shown_in_the_readers_words_can_be_typed_back_as_the_answer(language: str) -> None:
    """A notice shows a decision's default translated ("Vorgabe: weiterkämpfen"): that word is an answer too."""
    for word, keyword in (("continue", "CONTINUE"), ("kill", "KILL"), ("ransom", "RANSOM"), ("retreat", "RETREAT")):
        shown = engine_text(language, word)
        assert keyword_of().get(shown.casefold()) == keyword, (word, shown)
    assert retreat_answer(engine_text(language, "continue")) is None
    assert parse_captive_choice(engine_text(language, "kill")) == "kill"


@pytest.mark.parametrize("language", READERS)
def test_O_6_11_a_1984_target_is_named_in_the_readers_words(language: str) -> None:
    from tests.test_coe_1984_battles import ATT, DEF, answer, contest, decisions, events, play

    state = contest(att={"generals": [1], "infantry": 2}, dfn={"generals": [1], "infantry": 1, "cavalry": 1})
    for said in (written(language, "cavalry"), engine_text(language, "cavalry")):  # KAV, or Kavallerie as shown
        result = play(state, dice=[5, 1, 4], answers=answer(ATT, battle_THR_1_target=said))
        assert [e["answer"] for e in events(result, "answer_refused")] == []
        assert decisions(result, "target")[0] == (ATT, "battle.THR.1.target", "cavalry", "answer")
    assert DEF


@pytest.mark.parametrize("language", ("en", *READERS))
def test_ER_13_6_an_effect_that_gives_coins_vp_food_or_cards_says_so_in_words(language: str) -> None:
    given = tuple(
        Event("effect_applied", "aurel", {"source": "harvest", "op": op, "n": 2})
        for op in ("coins", "vp", "food", "draw_tactic")
    )
    told = conqueror_sentences(given, language)
    assert not [op for op in ("coins 2", "vp 2", "food 2", "draw_tactic") if op in told], told
    coins = ("%(source)s: %(seat)s gets %(n)s coin (ER-13.6).", "%(source)s: %(seat)s gets %(n)s coins (ER-13.6).")
    assert plural_gettext(language, *coins, 2, in_ruleset="conqueror-er", source="harvest", seat="aurel", n=2) in told


@pytest.mark.parametrize("language", READERS)
def test_ER_13_6_the_source_of_an_effect_and_the_independents_are_named_in_the_readers_words(language: str) -> None:
    told = conqueror_sentences(
        (
            Event("effect_applied", "aurel", {"source": "chronicle blight", "op": "food", "n": -1}),
            Event("effect_applied", "aurel", {"source": "aurel dynasty", "op": "coins", "n": 1}),
            Event("battle_unit_lost", None, {"player": "independent", "kind": "infantry", "rule": "ER-8.22"}),
            Event("battle", "thal", {"area": "GAR", "from": "THA", "defender": "independent", "units": {}}),
        ),
        language,
    )
    assert gettext(language, "chronicle card %(card)s", card="blight") in told
    assert gettext(language, "%(faction)s's dynasty card", faction="aurel") in told
    assert "chronicle blight" not in told and "aurel dynasty" not in told and "independent " not in told
    assert gettext(language, "the independent army") in told  # ER-8.31


def test_ER_14_a_decision_and_standing_orders_are_written_back_in_the_readers_keywords() -> None:
    told = conqueror_sentences(
        (
            Event(
                "decision",
                "kesh",
                {
                    "source": "default",
                    "rule": "ER-14.18",
                    "question": "where?",
                    "choice": "RETREAT TO ORO",
                    "key": "k",
                },
            ),
            Event("standing_orders_kept", "kesh", {"orders": ["CASUALTIES thal, aurel", "EXCESS ARC, INF, CAV"]}),
        ),
        "nl",
    )
    assert "TERUGTOCHT NAAR ORO" in told and "SLACHTOFFERS thal, aurel" in told and "OVERSCHOT BOOG, INF, CAV" in told


def test_ER_14_12_a_german_notice_suggests_its_answer_in_german_keywords_and_takes_it_back(
    pbem: Pbem, tmp_path: Path
) -> None:
    from tests.test_conqueror_asks import due_step, thal_attacks_pel

    number = thal_attacks_pel(pbem, tmp_path, "--language", "kesh=de")
    assert pbem("adjudicate", "er1", "--now").exit_code == 0
    notice = (pbem.data / "games" / "er1" / "outbox" / f"decisions-turn-{number:04d}-kesh.txt").read_text()
    suggested = f"{written('de', 'reinforce')} {written('de', 'never')}"
    assert f"ANTWORT battle.PEL.1.reinforce: {suggested}" in notice  # ER-14.12, as kesh writes his orders
    answer = pbem.orders("kesh", number, f"ANSWER battle.PEL.1.reinforce: {suggested}", game="er1")
    assert pbem("answer", "er1", str(answer)).exit_code == 0
    assert pbem("adjudicate", "er1", "--defaults").exit_code == 0
    assert due_step(pbem)[0] > number
    private = (pbem.data / "games" / "er1" / f"turn-{number:04d}" / "report-kesh.txt").read_text()
    assert "is not usable" not in private and "nicht verwendbar" not in private


@pytest.mark.parametrize("language", ("en", *READERS))
def test_C_5_22_the_map_tooltip_of_a_loaded_galley_gives_its_cargo_as_the_reader_orders_it(language: str) -> None:
    state = start(ruleset="coe-1984")
    place(state, "AEG", "Macedonia", owner=False, generals=[3], infantry=2, galleys=[1])
    state.force("AEG", "Macedonia").aboard = {1: Cargo(generals=[3], infantry=2)}
    svg = render_map_for_turn("coe-1984", snapshot_text(state), "[]", language=language)
    pieces = f"G3 2 {written(language, 'infantry')}"
    assert gettext(language, "aboard galley %(number)s: %(pieces)s", number=1, pieces=pieces) in svg


# -- Each ruleset's own keywords, over the shared table -------------------------------------------------------------


def bids_copy(root: Path, keywords: str) -> Path:
    """tests/rulesets/sealed_bids under PBEM_RULESETS `root`, with `keywords` as its keywords.toml."""
    folder = root / "sealed_bids"
    shutil.copytree(Path(__file__).parent / "rulesets" / "sealed_bids", folder, ignore=shutil.ignore_patterns("__py*"))
    (folder / "keywords.toml").write_text(keywords, encoding="utf-8")
    return folder


def test_a_ruleset_keyword_spelt_like_a_shared_one_is_refused_naming_the_file_the_key_and_the_spelling(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = bids_copy(tmp_path, '[bid]\nen = ["BID"]\nde = ["SPIEL"]\n')  # SPIEL is the shared GAME
    monkeypatch.setenv("PBEM_RULESETS", str(tmp_path))
    with pytest.raises(KeywordTableError) as refused:
        keyword_table("sealed_bids")
    assert str(folder / "keywords.toml") in str(refused.value) and "[bid]" in str(refused.value)
    assert "'SPIEL' already spells GAME" in str(refused.value)
    assert keyword_of()["spiel"] == "GAME" and "BID" not in keyword_table()  # every other game's words still read
    bids_copy(tmp_path / "again", '[game]\nen = ["ROUND"]\n')
    monkeypatch.setenv("PBEM_RULESETS", str(tmp_path / "again"))
    with pytest.raises(KeywordTableError, match=r"\[game\] is already a keyword of .*grammar.keywords\.toml"):
        keyword_table("sealed_bids")


def test_two_rulesets_may_spell_different_keywords_alike_and_each_parser_reads_its_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("PBEM_RULESETS", str(Path(__file__).parent / "rulesets"))
    assert keyword_of("sealed_bids")["biete"] == "BID" and keyword_of("coe-classic")["biete"] == "OFFER"
    bids = parse_orders("SPIEL g ZUG 2 SPIELER North PASSWORT x\nBIETE Lion\n", load_ruleset("sealed-bids"))
    assert bids.errors == () and [o.card for o in bids.orders] == ["Lion"]  # type: ignore[attr-defined]


def test_a_rulesets_table_holds_the_shared_words_and_its_own_and_no_other_games() -> None:
    coe, conqueror = keyword_table("coe-classic"), keyword_table("conqueror-er")
    assert {"GAME", "PASSWORD", "PRESS", "ANSWER", "HELP"} <= set(coe) & set(conqueror)
    assert "CAESAR" in coe and "CAESAR" not in conqueror and "RECRUIT" in conqueror and "RECRUIT" not in coe
    assert keyword_table("coe-1984") == coe  # the 1984 edition names the Classic file ([words] keywords)
    assert written("de", "move", "conqueror-er") == written("de", "move", "coe-classic") == "ZIEHE"


def test_a_syntax_error_names_and_suggests_only_the_keywords_of_the_game_played() -> None:
    text = "GAME g TURN 1 PLAYER Italia PASSWORD x\nRECRUT 2 INF AT ITA\n"
    error = parse_orders(text, load_ruleset("coe-classic")).errors[0].message
    assert "RECRUIT" not in error and "MOVE" in error  # RECRUIT is Conqueror's: not a keyword of this game


@pytest.mark.parametrize(
    ("words", "said"),
    [
        ('keywords = "../nowhere.toml"', "[words] keywords names no file"),
        ("keywords = 3", "[words] keywords must be a path relative to the ruleset's folder"),
        ("locale = []", "[words] locale must be a path relative to the ruleset's folder"),
        ('pieces = "bid"', "[words] pieces must be a list of keyword names"),
    ],
)
def test_a_wrong_words_table_of_a_ruleset_toml_is_refused_naming_the_file_and_the_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, words: str, said: str
) -> None:
    folder = bids_copy(tmp_path, '[bid]\nen = ["BID"]\n')
    toml = folder / "ruleset.toml"
    toml.write_text(toml.read_text(encoding="utf-8") + f"\n[words]\n{words}\n", encoding="utf-8")
    monkeypatch.setenv("PBEM_RULESETS", str(tmp_path))
    with pytest.raises(KeywordTableError) as refused:
        keyword_table("sealed_bids")
    assert str(toml) in str(refused.value) and said in str(refused.value)
