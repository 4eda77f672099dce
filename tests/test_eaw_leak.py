"""Empires of the Ancient World's hidden cards (EAW-1.4, EAW-3.8, EAW-8.4, EAW-8.10) in a self-played game's files: a
card in a seat's hand that was never shown in public (a home-army card, EAW-3.8; a recruited copy; a stack card not
revealed, EAW-8.10) is named by no file another seat or the public reads: the public report and snapshot of every
step, the other seats' private reports and snapshots. Card instances are what is checked (not single letters or
area ids, which the map and the data make public), so the check is exact.

One short game (action_rounds_first = 4, EAW-4.3) is played once per module through the services."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from adjudicator.archive import Archive
from adjudicator.archive import queries as db
from adjudicator.rulesets import load_ruleset
from adjudicator.rulesets.empires.data import EMPIRE
from adjudicator.rulesets.empires.game import EmpiresGame
from adjudicator.services.selfplay import play_archived_game, playable
from tests.test_conformance import fixed_secrets

GAME = "hidden"
OPTIONS = {"action_rounds_first": "4"}


def mentions(text: str, item: str) -> bool:
    return re.search(rf"(?<![\w#-]){re.escape(item)}(?![\w#-])", text) is not None


Played = tuple[EmpiresGame, Path, dict[int, dict[str, list[str]]], dict[int, str]]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    """The game, its folder, each stored step's hands (seat -> card instances) from the whole snapshots, and the card
    instances each step's public events revealed."""
    data = tmp_path_factory.mktemp("eaw-leak")
    rules, _ = playable(load_ruleset("empires-aw"), None, None, OPTIONS)
    assert isinstance(rules, EmpiresGame)
    archive = Archive.open(data, None)
    with fixed_secrets("eaw-leak"):  # the same game every run
        play_archived_game(archive, data, GAME, "empires-aw", ["red", "blue", "green"], 4, 40, options=OPTIONS)
    with archive.session() as session:
        rows = db.turns(session, db.find_game(session, GAME))
        hands = {
            row.number: {seat: part["hand"] for seat, part in json.loads(row.state_json)["private"].items()}
            for row in rows
        }
        revealed = {row.number: " ".join(_revealed(row.events_json)) for row in rows}
    return rules, data, hands, revealed


def _revealed(events_json: str) -> list[str]:
    """The card instances a step's public events show: a battle's reveal names the copy (EAW-8.4), a recruit the copy
    taken from the display (EAW-7.20), which the reports name by its card, copies being alike (EAW-13.17)."""
    return [
        e["data"]["instance"] if e["kind"] == "card_revealed" else e["data"]["card"]
        for e in json.loads(events_json)
        if "visible_to" not in e
        and (
            (e["kind"] == "card_revealed" and "instance" in e["data"])
            or (e["kind"] == "card_recruited" and "card" in e["data"])
        )
    ]


def secret(rules: EmpiresGame, instance: str) -> bool:
    """An instance that only its holder can know by name: a home-army card, or a copy (`id#n`) of a general card."""
    return "#" in instance or rules.data.card(instance).kind == EMPIRE


def test_EAW_3_8_no_hand_card_reaches_another_seat_or_the_public_until_it_is_shown(
    played: Played,
) -> None:
    rules, data, hands, revealed = played
    folders = sorted((data / "games" / GAME).glob("turn-*"))
    assert len(folders) > 10
    shown = ""  # every public text so far: a card revealed in battle (EAW-8.4) is public from then on
    checked = seen_by_owner = 0
    for folder in folders:
        number = int(folder.name.split("-")[1])
        shown += (folder / "report.txt").read_text(encoding="utf-8") + f" {revealed.get(number, '')}\n"
        public = [folder / "report.txt", folder / "snapshot.json"]
        for seat, hand in hands.get(number, {}).items():
            hidden = [card for card in hand if secret(rules, card) and not mentions(shown, card)]
            readers = [*public, *(p for p in folder.glob("*-*.*") if not p.stem.endswith(f"-{seat}"))]
            for path in readers:
                text = path.read_text(encoding="utf-8")
                leaked = [card for card in hidden if mentions(text, card)]
                assert not leaked, f"{seat}'s {leaked} in {path}"
                checked += 1
            own = folder / f"report-{seat}.txt"
            seen_by_owner += own.is_file() and any(mentions(own.read_text(encoding="utf-8"), c) for c in hidden)
    assert checked > 100
    assert seen_by_owner  # the check finds what it looks for: the holders' own reports name their hidden cards
