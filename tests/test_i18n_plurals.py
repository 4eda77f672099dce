"""Counts agree in number in every language: the Conqueror: Empire Rises report sentences (templates/conqueror) and a
receipt's count line, rendered from a real game in German, Italian and Dutch with a count of 1 and of several
("1 Münze", "3 Münzen"; "1 accettato, 2 respinti"). The events are stored with their counts as numbers, so the
sentence takes its form when it is rendered: older archives read the same way."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from adjudicator.archive import Archive
from adjudicator.archive import queries as db
from adjudicator.engine.vocabulary import Event
from adjudicator.render import environment
from adjudicator.services.reports import stored_report
from tests.conftest import Pbem
from tests.test_conqueror_plans_cli import PLANS
from tests.test_conqueror_receipts_i18n import mailed
from tests.test_i18n_as_read import start

READERS = {"kesh": "de", "aurel": "it", "thal": "nl"}  # as tests/test_i18n_as_read.py starts the game
# a count written with both forms at once, as the sentences were before they had plural forms
BOTH_FORMS = re.compile(r"\w\((n|e|en|s)\)|\w/(e|i)\b|eenheid/eenheden")


def sentences(language: str, events: Iterable[Event]) -> list[str]:
    """The report sentences of Conqueror events in `language` (templates/conqueror/events.j2), one per event."""
    template = environment(language).from_string(
        '{% from "conqueror/events.j2" import sentence %}{% for e in events %}{{ sentence(e) }}\n{% endfor %}'
    )
    return [line.strip() for line in template.render(events=list(events)).splitlines() if line.strip()]


def stored_events(pbem: Pbem, kinds: set[str]) -> dict[str, Event]:
    """The first event of each of `kinds` in the game's stored turns (its real data)."""
    found: dict[str, Event] = {}
    with Archive.open(pbem.data, pbem.db).session() as session:
        for row in db.turns(session, db.find_game(session, "er1")):
            for event in json.loads(row.events_json):
                if event["kind"] in kinds and event["kind"] not in found:
                    found[event["kind"]] = Event(event["kind"], event.get("seat"), event["data"])
    return found


def counted(event: Event, **counts: Any) -> Event:
    return Event(event.kind, event.seat, {**event.data, **counts})


@pytest.mark.parametrize("language", ["de", "it", "nl"])
def test_ER_3_5_ER_5_2_the_setup_and_taxation_sentences_of_a_real_game_agree_with_their_counts(
    pbem: Pbem, tmp_path: Path, language: str
) -> None:
    """The tactic cards dealt (ER-3.5: 1 card each, many left in the deck) and the taxes (ER-5.2: several coins) as
    the game's public report gives them, then the same events with the other count."""
    start(pbem, tmp_path)
    seat = next(s for s, spoken in READERS.items() if spoken == language)
    report = "\n".join(stored_report(Archive.open(pbem.data, pbem.db), "er1", n, None, language) for n in (1, 2))
    events = stored_events(pbem, {"tactics_dealt", "taxes"})
    dealt, taxes = events["tactics_dealt"], events["taxes"]
    assert dealt.data["each"] == 1 and dealt.data["deck"] > 1 and taxes.data["coins"] > 1  # the real counts
    deck, coins = dealt.data["deck"], taxes.data["coins"]
    one_card, cards_left = {
        "de": ("zieht 1 Karte;", f"{deck} Karten bleiben im Stapel"),
        "it": ("pesca 1 carta;", f"nel mazzo restano {deck} carte"),
        "nl": ("trekt 1 kaart;", f"er blijven {deck} kaarten in de stapel"),
    }[language]
    assert one_card in report and cards_left in report
    taxed = {"de": f"{taxes.seat} erhält {coins} Münzen", "it": f"riscuote {coins} monete", "nl": f"int {coins} munten"}
    assert taxed[language] in report
    assert not BOTH_FORMS.search(report), seat
    # the same sentences with the other count
    told = " ".join(sentences(language, [counted(dealt, each=2, deck=1), counted(taxes, coins=1)]))
    other = {
        "de": ("zieht 2 Karten;", "1 Karte bleibt im Stapel", "erhält 1 Münze und"),
        "it": ("pesca 2 carte;", "nel mazzo resta 1 carta", "riscuote 1 moneta e"),
        "nl": ("trekt 2 kaarten;", "er blijft 1 kaart in de stapel", "int 1 munt en"),
    }[language]
    assert all(text in told for text in other), told


# The sentences a tester read in real mails (ER-5.8, ER-6.10, ER-0.7, ER-13.6), with a count of 1 and of 3.
SEEN = {
    "traded": {
        "de": ("aurel handelt mit kesh: Handelsfeld 2, 1 Münze, 0 SP (ER-5.8).", "3 Münzen, 0 SP"),
        "it": ("aurel commercia con kesh: casella commercio 2, 1 moneta, 0 PV (ER-5.8).", "3 monete, 0 PV"),
        "nl": ("aurel handelt met kesh: handelsvak 2, 1 munt, 0 OP (ER-5.8).", "3 munten, 0 OP"),
    },
    "hero_recruited": {
        "de": (
            "thal rekrutiert für 1 Münze einen Helden und hat nun 1 verdeckten Helden (ER-6.10).",
            "3 verdeckte Helden",
        ),
        "it": ("thal recluta un eroe per 1 moneta e ora ha 1 eroe coperto (ER-6.10).", "3 eroi coperti"),
        "nl": ("thal rekruteert een held voor 1 munt en heeft nu 1 gedekte held (ER-6.10).", "3 gedekte helden"),
    },
    "coins_paid": {
        "de": ("aurel zahlt 1 Münze an kesh (ER-0.7).", "zahlt 3 Münzen an"),
        "it": ("aurel paga 1 moneta a kesh (ER-0.7).", "paga 3 monete a"),
        "nl": ("aurel betaalt 1 munt aan kesh (ER-0.7).", "betaalt 3 munten aan"),
    },
    "effect_applied": {
        "de": ("Chronikkarte busy-markets: kesh erhält 1 Münze (ER-13.6).", "erhält 3 Münzen (ER-13.6)"),
        "it": ("carta cronaca busy-markets: kesh riceve 1 moneta (ER-13.6).", "riceve 3 monete (ER-13.6)"),
        "nl": ("kroniekkaart busy-markets: kesh krijgt 1 munt (ER-13.6).", "krijgt 3 munten (ER-13.6)"),
    },
}


@pytest.mark.parametrize("language", ["de", "it", "nl"])
def test_ER_5_8_ER_6_10_trades_heroes_payments_and_card_coins_agree_with_their_counts(language: str) -> None:
    one = [
        Event("traded", "aurel", {"partner": "kesh", "space": 2, "coins": 1, "vp": 0}),
        Event("hero_recruited", "thal", {"price": 1, "held": 1}),
        Event("coins_paid", "aurel", {"coins": 1, "to": "kesh"}),
        Event("effect_applied", "kesh", {"source": "chronicle busy-markets", "op": "coins", "n": 1}),
    ]
    many = [
        counted(one[0], coins=3),
        counted(one[1], price=3, held=3),
        counted(one[2], coins=3),
        counted(one[3], n=3),
    ]
    assert sentences(language, one) == [SEEN[e.kind][language][0] for e in one]
    for event, text in zip(many, sentences(language, many), strict=True):
        assert SEEN[event.kind][language][1] in text, text


RECEIPT_LINES = {
    "de": "1 angenommen, 2 abgelehnt, 1 nicht verstanden.",
    "it": "1 accettato, 2 respinti, 1 non compreso.",
    "nl": "1 aanvaard, 2 afgewezen, 1 niet begrepen.",
}


def test_ER_4_1_a_receipts_counts_agree_each_with_its_number(pbem: Pbem, tmp_path: Path) -> None:
    """A plans order set of one standing order accepted, two orders rejected (ER-4.4.2, ER-4.1) and a line not
    understood (ER-5.12), mailed by a German, an Italian and a Dutch player."""
    start(pbem, tmp_path)
    for seat, language in READERS.items():
        body = mailed(
            pbem, seat, PLANS, "LOSSES ARC, INF, CAV", "ORDER aurel", "MOVE 1 INF: AUR -> SOL", "AGENT BAZAAR SPACE 3"
        )
        assert RECEIPT_LINES[language] in body.splitlines(), (language, body)
