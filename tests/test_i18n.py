"""Reports, receipts, notices and the site in English, German, Italian and Dutch (gettext catalogues in locale/),
with the order keywords of the reader's language; a seat's language is set at `pbem new` or by a LANGUAGE order.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import NamedTuple

import pytest
from babel.messages.pofile import read_po
from sqlmodel import select

from adjudicator.archive import Archive
from adjudicator.archive.models import Outbox, Seat
from adjudicator.mail.inbound import Incoming
from adjudicator.mailroom import ingest, tick
from adjudicator.moderator import new_game, stored_report, submit, write_game_site
from adjudicator.orders import parse_orders
from adjudicator.orders.keywords import KEYWORD_LANGUAGES, written
from adjudicator.render.i18n import gettext
from adjudicator.resources import resource_dir
from adjudicator.rulesets import load_ruleset

SEATS = {"Macedonia": "mac@example.org", "Egyptus": "egy@example.org", "Hispania": "his@example.org"}
PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def catalogue(language: str):  # type: ignore[no-untyped-def]
    with (resource_dir("locale") / language / "LC_MESSAGES" / "messages.po").open("rb") as source:
        return read_po(source, locale=language)


def template_ids() -> set[str]:
    with (resource_dir("locale") / "messages.pot").open("rb") as source:
        return {m.id for m in read_po(source) if m.id}


@pytest.mark.parametrize("language", [lang for lang in KEYWORD_LANGUAGES if lang != "en"])
def test_every_message_is_translated_with_its_placeholders(language: str) -> None:
    messages = {m.id: m for m in catalogue(language) if m.id}
    assert set(messages) == template_ids(), "run pybabel update (see adjudicator/render/i18n.py)"
    for msgid, message in messages.items():
        assert message.string, f"{language}: {msgid!r} is not translated"
        assert sorted(PLACEHOLDER.findall(message.string)) == sorted(PLACEHOLDER.findall(msgid)), msgid
        assert message.string[:1].isspace() == msgid[:1].isspace(), msgid  # fragments keep their spaces
        assert "fuzzy" not in message.flags, msgid


class Game(NamedTuple):
    archive: Archive
    passwords: dict[str, str]


@pytest.fixture
def game(tmp_path: Path) -> Game:
    """rome1 with Egyptus reading German; Macedonia and Hispania English."""
    archive = Archive.in_folder(tmp_path)
    made = new_game(archive, tmp_path, "rome1", "coe-classic", SEATS, languages={"Egyptus": "Deutsch"})
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
    lines = [f"{written('de', 'move')} G1 {written('de', 'with')} 2 {written('de', 'infantry')}: MAC -> THR",
             f"{written('de', 'buy')} 2 {written('de', 'infantry')}, {written('de', 'city')} {written('de', 'at')} THR"]
    orders = parse_orders("SPIEL rome1 ZUG 1 SPIELER Macedonia PASSWORT x\n" + "\n".join(lines) + "\n", ruleset)
    assert not orders.errors and len(orders.orders) == 2


def test_a_language_order_changes_the_seats_language_from_that_receipt_on(game: Game) -> None:
    archive, password = game.archive, game.passwords["Macedonia"]
    text = f"PARTITA rome1 TURNO 1 GIOCATORE Macedonia PASSWORD {password}\nLINGUA italiano\nCOMPRA 1 FANTERIA\n"
    outcome = ingest(archive, Incoming("<it@test>", SEATS["Macedonia"], "", "ordini", text, text))
    assert outcome == "orders stored"
    with archive.session() as session:
        assert session.exec(select(Seat).where(Seat.seat == "Macedonia")).one().language == "it"
        receipt = session.exec(select(Outbox)).all()[-1]
    assert receipt.subject == "[rome1] " + gettext("it", "Receipt for turn %(turn)s", turn=1)
    assert gettext("it", "Your order set is stored.") in receipt.body
    assert gettext("it", "accepted") + ": 10 talents" in receipt.body  # the engine's reason stays English


def test_report_mails_come_in_each_seats_language(tmp_path: Path, game: Game) -> None:
    archive, password = game.archive, game.passwords["Macedonia"]
    submit(archive, "rome1", f"GAME rome1 TURN 1 PLAYER Macedonia PASSWORD {password}\nBUY 1 INF\n")
    tick(archive, tmp_path)
    with archive.session() as session:
        mails = {m.to: m for m in session.exec(select(Outbox).where(Outbox.map_svg != "")).all()}  # report mails
    german, english = mails[SEATS["Egyptus"]], mails[SEATS["Macedonia"]]
    assert german.subject == "[rome1] " + gettext("de", "Report, turn %(turn)s", turn=1)
    assert gettext("de", "Orders received from %(seat)s.", seat="Macedonia") in german.body
    assert "Orders received from Macedonia." in english.body
    assert 'lang="de"' in german.html and ">Stadt<" in german.map_svg and ">city<" in english.map_svg


def test_the_site_and_a_stored_report_in_dutch(tmp_path: Path, game: Game) -> None:
    write_game_site(game.archive, "rome1", tmp_path / "site", language="nl")
    index = (tmp_path / "site" / "index.html").read_text()
    assert '<html lang="nl">' in index and gettext("nl", "Checking the dice") in index
    assert gettext("nl", "Turn %(number)s: setup", number=0) in stored_report(game.archive, "rome1", 0, None, "nl")
    assert gettext("de", "Treasury %(treasury)s, tribute %(tribute)s.", treasury=0, tribute=0)[:8] in \
        stored_report(game.archive, "rome1", 0, "Egyptus")  # a private report comes in the seat's own language


def test_an_unknown_language_is_refused_naming_the_choices(tmp_path: Path) -> None:
    archive = Archive.in_folder(tmp_path)
    with pytest.raises(Exception, match="unknown language 'klingon'; choose one of en .English., de .Deutsch."):
        new_game(archive, tmp_path, "g", "coe-classic", SEATS, languages={"Egyptus": "klingon"})
    orders = parse_orders("GAME g TURN 1 PLAYER Egyptus PASSWORD x\nLANGUAGE klingon\n", load_ruleset("coe-classic"))
    assert [e.located for e in orders.errors] == [
        "line 2, column 10: unknown language 'klingon'; choose one of en (English), de (Deutsch), it (Italiano), "
        "nl (Nederlands)"]
