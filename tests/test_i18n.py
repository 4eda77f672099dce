"""Reports, receipts, notices and the site in English, German, Italian and Dutch (gettext catalogues in locale/),
with the order keywords of the reader's language; a seat's language is set at `pbem new` or by a LANGUAGE order.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import NamedTuple

import pytest
from babel.messages.pofile import read_po
from sqlmodel import select

from adjudicator.archive import Archive
from adjudicator.archive.models import OutboxRow, SeatRow
from adjudicator.mail.inbound import Incoming
from adjudicator.orders import parse_orders
from adjudicator.orders.keywords import KEYWORD_LANGUAGES, written
from adjudicator.render.i18n import engine_text, gettext
from adjudicator.resources import resource_dir
from adjudicator.rulesets import load_ruleset
from adjudicator.rulesets.coe.economy import tribute_value
from adjudicator.rulesets.coe.state import snapshot_text
from adjudicator.services.adjudication import adjudicate
from adjudicator.services.deadlines import tick
from adjudicator.services.games import NewGameOptions, new_game
from adjudicator.services.mailbox import ingest
from adjudicator.services.orders import submit
from adjudicator.services.reports import queued_maps, stored_report, write_game_site
from tests.helpers import classic, place, start

SEATS = {"Macedonia": "mac@example.org", "Egyptus": "egy@example.org", "Hispania": "his@example.org"}
PLACEHOLDER = re.compile(r"%\((\w+)\)s")


RULESETS = Path(__file__).parent / "rulesets"
# Every catalogue: the core's, and each ruleset's own (games/<ruleset>/locale, tests/rulesets/<ruleset>/locale).
CATALOGUES = [resource_dir("locale")] + sorted(
    [*resource_dir("games").glob("*/locale"), *RULESETS.glob("*/locale")], key=lambda p: p.parent.name
)


def catalogue(language: str, folder: Path | None = None):  # type: ignore[no-untyped-def]
    with ((folder or resource_dir("locale")) / language / "LC_MESSAGES" / "messages.po").open("rb") as source:
        return read_po(source, locale=language)


def template_ids(folder: Path | None = None) -> set[str]:
    with ((folder or resource_dir("locale")) / "messages.pot").open("rb") as source:
        return {m.id for m in read_po(source) if m.id}


# the core's catalogue is in every language; a ruleset's may cover fewer
@pytest.mark.parametrize(
    ("folder", "language"),
    [
        pytest.param(folder, lang, id=f"{folder.parent.name}-{lang}")
        for folder in CATALOGUES
        for lang in KEYWORD_LANGUAGES
        if lang != "en" and (folder == CATALOGUES[0] or (folder / lang).is_dir())
    ],
)
def test_every_message_is_translated_with_its_placeholders(folder: Path, language: str) -> None:
    read = catalogue(language, folder)
    messages = {m.id: m for m in read if m.id}
    assert set(messages) == template_ids(folder), f"{folder}: run pybabel update (see adjudicator/render/i18n.py)"
    for msgid, message in messages.items():
        # a message with a count (ngettext) has its singular and plural msgids and a form per plural of the language
        ids = msgid if isinstance(msgid, tuple) else (msgid,)
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        assert len(forms) == (read.num_plurals if message.pluralizable else 1), msgid
        for form in forms:
            assert form, f"{folder} {language}: {msgid!r} is not translated"
            assert all(sorted(PLACEHOLDER.findall(form)) == sorted(PLACEHOLDER.findall(i)) for i in ids), msgid
            assert form[:1].isspace() == ids[0][:1].isspace(), msgid  # fragments keep their spaces
        assert "fuzzy" not in message.flags, msgid


def test_the_catalogues_of_every_ruleset_are_checked() -> None:
    assert {p.parent.name for p in CATALOGUES[1:]} >= {"coe-classic", "conqueror-er", "sealed_bids"}


class Game(NamedTuple):
    archive: Archive
    passwords: dict[str, str]


@pytest.fixture
def game(tmp_path: Path) -> Game:
    """rome1 with Egyptus reading German; Macedonia and Hispania English."""
    archive = Archive.in_folder(tmp_path)
    made = new_game(archive, tmp_path, NewGameOptions("rome1", "coe-classic", SEATS, languages={"Egyptus": "Deutsch"}))
    return Game(archive, made.passwords)


def test_a_seat_given_a_language_at_new_gets_its_welcome_and_reports_in_it(tmp_path: Path, game: Game) -> None:
    folder = tmp_path / "games" / "rome1"
    welcome = (folder / "outbox" / "welcome-Egyptus.txt").read_text()
    assert "SPIEL rome1 ZUG <n> SPIELER Egyptus PASSWORT" in welcome  # the header in German keywords
    assert gettext("de", "Your password is: %(password)s", password="x")[:-1] in welcome
    private = (folder / "turn-0000" / "report-Egyptus.txt").read_text()
    assert gettext("de", "Game %(game)s - private report for %(seat)s", game="rome1", seat="Egyptus") in private
    assert "ZIEHE G1 MIT 2 INF" in private and "KAUFE" in private  # the orders template in German keywords
    assert "MOVE G1 WITH 2 INF" in (folder / "turn-0000" / "report-Hispania.txt").read_text()
    assert "Game rome1 - public report" in (folder / "turn-0000" / "report.txt").read_text()


def test_the_german_orders_template_parses_as_orders() -> None:
    ruleset = load_ruleset("coe-classic")
    lines = [
        f"{written('de', 'move')} G1 {written('de', 'with')} 2 {written('de', 'infantry')}: MAC -> THR",
        f"{written('de', 'buy')} 2 {written('de', 'infantry')}, {written('de', 'city')} {written('de', 'at')} THR",
    ]
    orders = parse_orders("SPIEL rome1 ZUG 1 SPIELER Macedonia PASSWORT x\n" + "\n".join(lines) + "\n", ruleset)
    assert not orders.errors and len(orders.orders) == 2


def test_a_language_order_changes_the_seats_language_from_that_receipt_on(game: Game) -> None:
    archive, password = game.archive, game.passwords["Macedonia"]
    text = f"PARTITA rome1 TURNO 1 GIOCATORE Macedonia PASSWORD {password}\nLINGUA italiano\nCOMPRA 1 FANTERIA\n"
    outcome = ingest(archive, Incoming("<it@test>", SEATS["Macedonia"], "", "ordini", text, text)).text
    assert outcome == "orders stored"
    with archive.session() as session:
        assert session.exec(select(SeatRow).where(SeatRow.seat == "Macedonia")).one().language == "it"
        receipt = session.exec(select(OutboxRow)).all()[-1]
    assert receipt.subject == "[rome1] " + gettext("it", "Receipt for turn %(turn)s", turn=1)
    assert gettext("it", "Your order set is stored.") in receipt.body
    assert (
        gettext("it", "accepted") + ": " + gettext("it", "%(cost)s talents, placed %(where)s", cost=10, where="MAC")
        in receipt.body
    )  # the engine's reason too


def test_report_mails_come_in_each_seats_language(tmp_path: Path, game: Game) -> None:
    archive, password = game.archive, game.passwords["Macedonia"]
    submit(archive, "rome1", f"GAME rome1 TURN 1 PLAYER Macedonia PASSWORD {password}\nBUY 1 INF\n")
    tick(archive, tmp_path)
    with archive.session() as session:
        mails = {m.to: m for m in session.exec(select(OutboxRow).where(OutboxRow.map_turn != "")).all()}  # report mails
    german, english = mails[SEATS["Egyptus"]], mails[SEATS["Macedonia"]]
    assert german.subject == "[rome1] " + gettext("de", "Report, turn %(turn)s", turn=1)
    assert gettext("de", "Orders received from %(seat)s.", seat="Macedonia") in german.body
    assert "Orders received from Macedonia." in english.body
    drawn = queued_maps(archive)  # each mail's map is drawn, in its language, when it is sent
    assert 'lang="de"' in german.html and ">Stadt<" in drawn(german) and ">city<" in drawn(english)


def test_the_site_and_a_stored_report_in_dutch(tmp_path: Path, game: Game) -> None:
    write_game_site(game.archive, "rome1", tmp_path / "site", language="nl")
    index = (tmp_path / "site" / "index.html").read_text()
    assert '<html lang="nl">' in index and gettext("nl", "Checking the dice") in index
    assert gettext("nl", "Turn %(number)s: setup", number=0) in stored_report(game.archive, "rome1", 0, None, "nl")
    assert gettext("de", "Treasury %(treasury)s, tribute %(tribute)s.", treasury=0, tribute=0)[:8] in stored_report(
        game.archive, "rome1", 0, "Egyptus"
    )  # a private report comes in the seat's own language


def test_an_unknown_language_is_refused_naming_the_choices(tmp_path: Path) -> None:
    archive = Archive.in_folder(tmp_path)
    with pytest.raises(Exception, match="unknown language 'klingon'; choose one of en .English., de .Deutsch."):
        new_game(archive, tmp_path, NewGameOptions("g", "coe-classic", SEATS, languages={"Egyptus": "klingon"}))
    orders = parse_orders("GAME g TURN 1 PLAYER Egyptus PASSWORD x\nLANGUAGE klingon\n", load_ruleset("coe-classic"))
    assert [e.located for e in orders.errors] == [
        "line 2, column 10: unknown language 'klingon'; choose one of en (English), de (Deutsch), it (Italiano), "
        "nl (Nederlands)"
    ]


# -- the engine's texts (verdicts, questions, troop lists): stored in English, shown in the reader's language ----


def engine_msgids() -> set[str]:
    """Every message the engine and the rule functions build their texts from (N_ in engine/ and rulesets/)."""
    from babel.messages.extract import extract_from_dir

    import adjudicator

    package = Path(adjudicator.__file__).parent
    found = set()
    for folder in ("engine", "rulesets"):
        for _, _, message, _, _ in extract_from_dir(package / folder, [("**.py", "python")], keywords={"N_": None}):
            found.add(message)
    return found


@pytest.mark.parametrize("language", [lang for lang in KEYWORD_LANGUAGES if lang != "en"])
def test_every_engine_text_translates_back_from_its_english_form(language: str) -> None:
    messages: dict[str, str] = {}  # the core's catalogue, then each ruleset's (render/i18n.py)
    for folder in (f for f in CATALOGUES if (f / language).is_dir()):
        messages |= {m.id: m.string for m in catalogue(language, folder) if m.id and m.id not in messages}
    msgids = engine_msgids()
    assert len(msgids) > 100 and "you have only %(count)s %(kind)s in %(area)s" in msgids
    for msgid in msgids:
        assert messages.get(msgid), f"{language}: {msgid!r} is not translated"
        assert sorted(PLACEHOLDER.findall(messages[msgid])) == sorted(PLACEHOLDER.findall(msgid)), msgid
        values = {name: f"X{index}" for index, name in enumerate(dict.fromkeys(PLACEHOLDER.findall(msgid)))}
        keywords = {name: written("en", name[3:]) for name in values if name.startswith("kw_")}  # kw_kill: KILL
        english = msgid % (values | keywords)  # as the archive stores it; the renderer finds its msgid and values again
        readers = {name: written(language, name[3:]) for name in keywords}  # TÖTE for a German reader
        assert engine_text(language, english) == messages[msgid] % (values | readers), msgid


@pytest.mark.parametrize(
    ("ruleset", "english", "kinds"),
    [
        ("coe-classic", "Egyptus 1 INF 2 CAV", ("infantry", "cavalry")),  # a seat's name before his units
        ("conqueror-er", "1 CAV 2 ARC (rally)", ("cavalry", "archer")),  # a note after them
        ("conqueror-er", "4 INF 2 SHIP ELITE", ("infantry", "ship", "elite")),  # a keyword after them
        # an army and the one that joins it from an area (ER-8.4)
        ("conqueror-er", "kesh 2 INF + 1 CAV 1 ARC FROM THA", ("infantry", "cavalry", "archer", "from")),
    ],
)
def test_a_force_in_an_odds_line_is_written_in_the_readers_keywords(
    ruleset: str, english: str, kinds: tuple[str, ...]
) -> None:
    for language in ("de", "it", "nl"):
        words = [written(language, kind, ruleset) for kind in kinds]
        keywords = re.findall(r"\b(?:INF|CAV|ARC|SHIP|ELITE|FROM)\b", english)
        expected = english
        for keyword, word in zip(keywords, words, strict=True):
            expected = re.sub(rf"\b{keyword}\b", word, expected, count=1)
        assert engine_text(language, english, ruleset) == expected


def test_an_empires_defender_in_an_odds_line_is_told_in_the_readers_language() -> None:
    held = "blue (4 cards, 3 possible home armies)"  # his hand's size, and how many home armies he could hold
    assert engine_text("de", held, "empires-aw") == "blue (4 Karten, 3 mögliche Heimatarmeen)"
    assert engine_text("nl", "blue (4 cards)", "empires-aw") == "blue (4 kaarten)"


def test_values_inside_engine_texts_are_translated_too_and_english_stays_as_stored() -> None:
    stored = "only 2 infantry in MAC may embark: the others made a land move this turn"
    assert engine_text("en", stored) == stored
    assert engine_text("de", stored) == gettext(
        "de",
        "only %(count)s %(kind)s in %(area)s may embark: the others made a land move this turn",
        count=2,
        kind=gettext("de", "infantry"),
        area="MAC",
    )
    troops = (
        f"{gettext('de', 'Caesar')}, G2 {written('de', 'with').lower()} 3 {written('de', 'infantry')} "
        f"1 {written('de', 'cavalry')}"
    )
    assert engine_text("de", "Caesar, G2 with 3 INF 1 CAV") == troops  # a troop list in the reader's keywords
    assert engine_text("nl", "galley 1, galley 3") == ", ".join(
        gettext("nl", "galley %(number)s", number=n) for n in (1, 3)
    )
    assert engine_text("it", "Egyptus, Hispania") == "Egyptus, Hispania"  # names and codes are no engine text


def two_german_seats(tmp_path: Path) -> Game:
    """rome1 asking for decisions, Macedonia and Egyptus reading German: Macedonia's G1 with 4 INF 2 CAV in
    Moesia next to Egyptus's G1 with 5 INF 2 CAV in Thracia (Egyptus must choose 6 of 7 for his battle legion,
    C-6.5), and Egyptus's G2 alone in Dalmatia, where Macedonia's G3 can capture him (C-5.31)."""
    state = start()
    state.areas["MAC"].units["Macedonia"].generals = [3, 4]
    state.areas["EGY"].units["Egyptus"].generals = [3, 4]
    place(state, "MOE", "Macedonia", generals=[1], infantry=4, cavalry=2)
    place(state, "THR", "Egyptus", generals=[1], infantry=5, cavalry=2)
    place(state, "DAL", "Egyptus", generals=[2])
    for seat in state.players:
        state.players[seat].tribute = tribute_value(classic(), state, seat)
    archive = Archive.in_folder(tmp_path)
    made = new_game(
        archive,
        tmp_path,
        NewGameOptions(
            "rome1",
            "coe-classic",
            SEATS,
            decisions="ask",
            position=snapshot_text(state),
            languages={"Macedonia": "de", "Egyptus": "de"},
        ),
    )
    return Game(archive, made.passwords)


def mails_to(archive: Archive, seat: str) -> list[OutboxRow]:
    with archive.session() as session:
        return list(session.exec(select(OutboxRow).where(OutboxRow.to == SEATS[seat]).order_by(OutboxRow.id)).all())


ENGLISH_ENGINE_TEXT = (
    "you have only",
    "talents, placed",
    "treasury holds",
    " with 4 INF",
    "which 6 units",
    "battle legion",
    "captured general",
    "or retreat",
    "hit(s)",
    "-> continue",
)


def test_item_16_a_german_game_shows_every_engine_text_in_german(tmp_path: Path) -> None:
    archive, passwords = two_german_seats(tmp_path)
    de = {k: written("de", k) for k in ("infantry", "cavalry", "buy", "with")}
    orders = (
        f"SPIEL rome1 ZUG 1 SPIELER Macedonia PASSWORT {passwords['Macedonia']}\n"
        "ZIEHE G1 MIT 4 INF 2 KAV: MOE -> THR\nZIEHE G3 MIT 1 INF: MAC -> DAL\nZIEHE G4 MIT 9 INF: MAC -> THR\n"
        "KAUFE 1 INF, STADT IN HIS\n"
    )
    assert (
        ingest(archive, Incoming("<de@test>", SEATS["Macedonia"], "", "Befehle", orders, orders)).text
        == "orders stored"
    )
    receipt = mails_to(archive, "Macedonia")[-1].body
    assert (
        gettext(
            "de", "you have only %(count)s %(kind)s in %(area)s", count=4, kind=gettext("de", "infantry"), area="MAC"
        )
        in receipt
    )  # C-5.3
    assert f"{de['buy']} 1 {de['infantry']}" in receipt  # the item the tool composed, in German keywords
    assert gettext("de", "%(cost)s talents, placed %(where)s", cost=10, where="MAC") in receipt
    assert gettext("de", "you do not control %(area)s", area="HIS") in receipt  # C-12.6

    assert "waiting for decisions" in " ".join(tick(archive, tmp_path).lines)  # C-15: the turn asks first
    legion = gettext("de", "which %(count)s units form your battle legion in %(area)s?", count=6, area="THR")
    capture = gettext(
        "de", "kill %(owner)s's captured general G%(general)s or hold him for ransom?", owner="Egyptus", general=2
    )
    troops = gettext(
        "de", "%(leaders)s with %(units)s", leaders="G1", units=f"4 {de['infantry']} 2 {written('de', 'cavalry')}"
    )
    # the first decision, capturing G2 in DAL during the movement, is asked alone
    notice_macedonia = mails_to(archive, "Macedonia")[-1].body
    assert capture in notice_macedonia and legion not in notice_macedonia  # C-8.4
    assert (
        gettext("de", "%(seat)s moves %(troops)s: %(route)s", seat="Macedonia", troops=troops, route="MOE -> THR")
        in notice_macedonia
    )

    adjudicate(archive, tmp_path, "rome1", defaults=True)
    tick(archive, tmp_path)
    mail, mail_macedonia = mails_to(archive, "Egyptus")[-1], mails_to(archive, "Macedonia")[-1]
    assert mail.subject == "[rome1] " + gettext("de", "Report, turn %(turn)s", turn=1)
    private = stored_report(archive, "rome1", 1, "Macedonia")
    assert (
        gettext(
            "de",
            "Round %(round)s: battle legions %(seat)s %(legion)s, %(defender)s %(defender_legion)s",
            round=1,
            seat="Macedonia",
            legion=f"4 {de['infantry']} 2 {de['cavalry']}",
            defender="Egyptus",
            defender_legion=f"5 {de['infantry']} 1 {de['cavalry']}",
        )
        in mail.body
    )
    assert legion in mail.body and f"5 {de['infantry']} 1 {de['cavalry']}" in mail.body  # C-6.5, Egyptus's own
    assert troops in queued_maps(archive)(mail)
    assert capture in mail_macedonia.body  # C-8.4, Macedonia's decision, in Macedonia's private report
    assert (
        gettext(
            "de", "you have only %(count)s %(kind)s in %(area)s", count=4, kind=gettext("de", "infantry"), area="MAC"
        )
        in private
    )
    for text in (receipt, notice_macedonia, mail.body, mail_macedonia.body, private):
        assert not [phrase for phrase in ENGLISH_ENGINE_TEXT if phrase in text]
    english = mails_to(archive, "Hispania")[-1].body  # an English reader gets the engine's texts as stored
    assert "Macedonia moves G1 with 4 INF 2 CAV: MOE -> THR" in english
    assert "battle legions Macedonia 4 INF 2 CAV, Egyptus 5 INF 1 CAV" in english


def test_a_rulesets_catalogue_comes_before_the_cores_and_its_engine_texts_translate_from_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "sealed_bids"
    shutil.copytree(RULESETS / "sealed_bids", folder, ignore=shutil.ignore_patterns("__pycache__"))
    po = folder / "locale" / "de" / "LC_MESSAGES" / "messages.po"
    po.write_text(po.read_text().replace('msgstr "dein Passwort"', 'msgstr "dein Kennwort"'))
    monkeypatch.setenv("PBEM_RULESETS", str(tmp_path))
    assert gettext("de", "your password", in_ruleset="sealed_bids") == "dein Kennwort"  # its own first
    assert gettext("de", "your password", in_ruleset="coe-classic") == "dein Passwort"  # the core's
    assert gettext("de", "your password") == "dein Passwort"  # no ruleset named: the core's first
    stored = "Dragon is not in your hand"  # a verdict's reason as the archive keeps it (B-2)
    assert engine_text("de", stored, "sealed_bids") == engine_text("de", stored) == "Dragon ist nicht auf deiner Hand"
    assert engine_text("de", stored, "coe-classic") == stored  # not a text of that game
