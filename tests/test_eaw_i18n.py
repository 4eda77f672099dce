"""Empires of the Ancient World in German, Italian and Dutch (its own catalogue, games/empires-aw/locale): a game
made through the services with one seat in each language, its orders sent by mail, its first game round played;
the welcome, the receipts, the report mails and the stored reports come in each seat's language, with no sentence of
the game left in English."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import NamedTuple

import pytest
from babel.messages.pofile import read_po
from sqlmodel import select

from adjudicator.archive import Archive
from adjudicator.archive import queries as db
from adjudicator.archive.models import OutboxRow
from adjudicator.mail.inbound import Incoming
from adjudicator.render.i18n import engine_text, gettext
from adjudicator.resources import resource_dir
from adjudicator.services.deadlines import tick
from adjudicator.services.games import NewGameOptions, new_game
from adjudicator.services.mailbox import ingest
from adjudicator.services.reports import stored_report
from adjudicator.services.selfplay import SelfPlayStep, play_archived_game

RULESET = "empires-aw"
CATALOGUE = resource_dir("games") / RULESET / "locale"
# one seat in each language; the addresses are the seats' mail
SEATS = {"red": "red@example.org", "blue": "blue@example.org", "green": "green@example.org"}
LANGUAGES = {"blue": "de", "green": "it", "red": "nl"}
PLACEMENT = {  # EAW-12.1, EAW-12.13, EAW-12.14 on the example map
    "blue": "START NLR, LVT\nPLACE LVT, KYR, THB\nFORT NLR",
    "green": "START BRE, COR\nPLACE COR, PEL\nFORT BRE",
    "red": "START SAB, OPH\nFORT SAB",
}
PLANS = {  # EAW-12.2: one action a line, fall-backs with ELSE; blue's plan holds a line that cannot be read
    "blue": "RECRUIT BEST\nATTACK DSA FROM KYR ELSE CONTROL CRS\nTRADE CMS, COR\nATTACK XYZ FROM KYR\nDIPLOMACY DUN",
    "green": "ATTACK PEL FROM COR ELSE CONTROL COR\nRECRUIT BEST\nTRADE CMS",
    "red": "ATTACK ORS FROM SIL ELSE CONTROL SAB\nATTACK NLR FROM SAB ELSE RECRUIT BEST",
}
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd+]+")


class Played(NamedTuple):
    folder: Path  # the data folder: archive.sqlite and games/


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    """The game through its placement and the first game round's plans, every order set sent by mail."""
    folder = tmp_path_factory.mktemp("eaw-i18n")
    archive = Archive.in_folder(folder)
    data = resource_dir("games") / RULESET / "example-data"
    with pytest.MonkeyPatch.context() as patch:  # the game's seed, so that its dice are the same on every run
        patch.setattr("adjudicator.services.games.secrets.token_bytes", lambda n=32: bytes(range(n)))
        made = new_game(archive, folder, NewGameOptions("e1", RULESET, SEATS, languages=LANGUAGES, game_data=data))
    for turn, orders in ((2, PLACEMENT), (4, PLANS)):
        for seat, lines in orders.items():
            text = f"GAME e1 TURN {turn} PLAYER {seat} PASSWORD {made.passwords[seat]}\n{lines}\n"
            mail = Incoming(f"<{seat}-{turn}@test>", SEATS[seat], "", "orders", text, text)
            assert ingest(archive, mail).text == "orders stored"
        tick(archive, folder)
    return Played(folder)


class SelfPlayed(NamedTuple):
    archive: Archive
    seats: list[str]
    steps: list[SelfPlayStep]


@pytest.fixture(scope="module")
def selfplayed(tmp_path_factory: pytest.TempPathFactory) -> SelfPlayed:
    """A whole game played by the bot through the services (battles, sieges, revolts, scorings), in English."""
    folder = tmp_path_factory.mktemp("eaw-i18n-selfplay")
    archive, seats = Archive.open(folder, None), ["red", "blue", "green"]
    # the game's seed, so that its dice are the same on every run: one whose game meets each kind of event below
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("adjudicator.services.games.secrets.token_bytes", lambda n=32: bytes(range(1, n + 1)))
        steps = play_archived_game(
            archive, folder, "sp", RULESET, seats, 7, 200, pace="round", options={"action_rounds_first": "4"}
        )
    return SelfPlayed(archive, seats, steps)


@pytest.fixture
def archive(played: Played, tmp_path: Path) -> Iterator[Archive]:
    """A copy of the played game's archive, so that a test may change it."""
    shutil.copytree(played.folder, tmp_path, dirs_exist_ok=True)
    yield Archive.in_folder(tmp_path)


def mails(archive: Archive, seat: str) -> list[OutboxRow]:
    with archive.session() as session:
        return list(session.exec(select(OutboxRow).where(OutboxRow.to == SEATS[seat]).order_by(OutboxRow.id)).all())


@cache
def translations(language: str) -> dict[str, str]:
    """msgid -> its translation; a message with plural forms gives each English form all its translated forms."""
    with (CATALOGUE / language / "LC_MESSAGES" / "messages.po").open("rb") as source:
        messages = [m for m in read_po(source, locale=language) if m.id]
    found = {}
    for message in messages:
        forms = message.id if isinstance(message.id, tuple) else (message.id,)
        said = message.string if isinstance(message.string, tuple) else (message.string,)
        found |= dict.fromkeys(forms, " ".join(said))
    return found


@cache
def english_fragments(language: str) -> frozenset[str]:
    """The English wording of the game's messages: each literal part of a msgid (between its placeholders, without
    its rule IDs) of three words or more that no translation of `language` keeps as it is (option names do)."""
    translated = " ".join(translations(language).values())
    found = set()
    for msgid in translations(language):
        for literal in PLACEHOLDER.split(msgid)[::2]:
            part = re.sub(r"\(?EAW-[\d.]+(, |\)|;)?", "", literal).strip(" ,;:.()")
            if len(re.findall(r"\b[A-Za-z]{2,}\b", part)) >= 3 and part not in translated:
                found.add(part)
    return frozenset(found)


def shown(language: str, msgid: str) -> re.Pattern[str]:
    """The translation of `msgid` with any value in its placeholders: a sentence as the reports show it."""
    parts = PLACEHOLDER.split(translations(language)[msgid])
    return re.compile("".join(re.escape(p) if i % 2 == 0 else r"[\w, ]+?" for i, p in enumerate(parts)))


def english_left(text: str, language: str) -> list[str]:
    """The English wording of the game's messages found in `text`."""
    return sorted(f for f in english_fragments(language) if f in text)


def test_the_english_wording_is_found_in_an_english_report(archive: Archive) -> None:
    """The check below finds English where there is English: the public report of the round is English."""
    english = stored_report(archive, "e1", 5, None, "en")
    assert "Game round I of 4; next: the actions." in english
    assert len(english_left(english, "de")) >= 10
    assert "alternative 1 can never be taken: PEL is not adjacent to COR" in stored_report(
        archive, "e1", 4, "green", "en"
    )


@pytest.mark.parametrize(("seat", "language"), sorted(LANGUAGES.items()))
def test_EAW_4_2_the_reports_of_the_round_come_in_the_seats_language_with_no_english_sentence_left(
    archive: Archive, seat: str, language: str
) -> None:
    with archive.session() as session:  # the deal, placement, plans and the action turns the plans ordered
        numbers = db.turn_numbers(session, db.find_game(session, "e1"))
    assert numbers == list(range(len(numbers))) and len(numbers) > 10
    for number in numbers[1:]:
        public = stored_report(archive, "e1", number, None, language)
        private = stored_report(archive, "e1", number, seat, language)
        assert english_left(public, language) == [], (number, public)
        assert english_left(private, language) == [], (number, private)
    public = stored_report(archive, "e1", 5, None, language)
    assert gettext(language, "Display (EAW-7.20):", in_ruleset=RULESET) in public
    assert gettext(language, "Game round %(round)s of 4; next: %(phase)s.", in_ruleset=RULESET)[:10] in public
    assert shown(language, "Start player: %(seat)s; action order %(order)s (EAW-4.2).").search(public)
    assert shown(language, "Round %(round)s, action round %(action_round)s: %(seat)s acts (EAW-4.2).").search(public)
    assert "Display (EAW-7.20):" not in public and "acts (EAW-4.2)" not in public


@pytest.mark.parametrize(("seat", "language"), sorted(LANGUAGES.items()))
def test_EAW_12_2_the_receipts_of_the_plans_come_in_the_seats_language(
    archive: Archive, seat: str, language: str
) -> None:
    receipt = next(
        m for m in mails(archive, seat) if m.subject.endswith(gettext(language, "Receipt for turn %(turn)s", turn=4))
    )
    assert english_left(receipt.body, language) == [], receipt.body
    judged = gettext(
        language,
        "as the position stands now, alternative %(n)s (%(action)s) would be taken; the line is judged again when "
        "its turn comes (EAW-12.2)",
        in_ruleset=RULESET,
    )
    assert gettext(language, "accepted") + ": " + judged.split("%(n)s")[0] in receipt.body
    assert "accepted:" not in receipt.body


def test_EAW_12_2_the_german_receipt_names_the_default_a_plan_line_would_get_in_german(archive: Archive) -> None:
    body = next(m for m in mails(archive, "blue") if "4" in m.subject and "Bestätigung" in m.subject).body
    assert "DIPLOMACY DUN" in body  # the line as the player wrote it
    assert (
        "angenommen: nach dem jetzigen Stand ist keine Alternative möglich und die Vorgabe wäre (ein Kontrollmarker, "
        "EAW-12.2)" in body
    )


@pytest.mark.parametrize(("seat", "language"), sorted(LANGUAGES.items()))
def test_the_welcome_and_the_placement_template_come_in_the_seats_language(
    archive: Archive, seat: str, language: str
) -> None:
    welcome, *_ = mails(archive, seat)
    report = stored_report(archive, "e1", 1, seat, language)
    assert english_left(welcome.body, language) == [] and english_left(report, language) == []
    own = gettext(language, "your starting province (EAW-12.1)", in_ruleset=RULESET)
    assert own in report and "your starting province" not in report


@pytest.mark.parametrize("language", ["de", "it", "nl"])
def test_EAW_1_2_an_engine_text_stored_in_english_reads_in_the_readers_language(language: str) -> None:
    stored = "the hand holds 7 cards, the limit"  # a refusal's reason as the archive keeps it
    assert engine_text(language, stored, RULESET) == translations(language)[
        "the hand holds %(held)s cards, the limit"
    ] % {"held": 7}
    assert engine_text(language, stored, RULESET) != stored


def test_EAW_12_2_a_receipt_naming_an_alternative_that_can_never_be_taken_is_translated_whole(
    archive: Archive,
) -> None:
    receipt = stored_report(
        archive, "e1", 4, "green", "it"
    )  # green's first alternative attacks a province not adjacent
    assert english_left(receipt, "it") == []


@pytest.mark.parametrize("language", ["de", "it", "nl"])
def test_EAW_10_8_every_report_of_a_whole_game_reads_in_the_language_asked_with_no_english_sentence_left(
    selfplayed: SelfPlayed, language: str
) -> None:
    kinds = {kind for step in selfplayed.steps for kind in step.events}
    assert {"battle_won", "routed", "siege_chosen", "scoring", "revolt", "game_ended"} <= kinds  # the game met them
    seat = selfplayed.seats[["de", "it", "nl"].index(language)]  # one seat's private reports in each language
    for step in selfplayed.steps:
        for reader in (None, seat):
            text = stored_report(selfplayed.archive, "sp", step.number, reader, language)
            assert english_left(text, language) == [], (step.number, reader, text)
    last = stored_report(selfplayed.archive, "sp", selfplayed.steps[-1].number, None, language)
    assert gettext(language, "Final scores (EAW-10.8)", in_ruleset=RULESET) in last
    assert shown(
        language,
        "%(seat)s: control %(control)s, trade %(trade)s, plunder %(plunder)s, upkeep %(upkeep)s: %(total)s VP.",
    ).search(last)
