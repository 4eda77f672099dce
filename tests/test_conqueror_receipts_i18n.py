"""Conqueror: Empire Rises receipts in the player's language: the refusal reasons, the ER-14.6 list of an agent
action's alternatives and the order language's own parse messages are gettext messages (N_), stored in English and
read in German or Italian with their rule IDs, through the real mail path (ingest -> receipt in the outbox)."""

from __future__ import annotations

from pathlib import Path

from sqlmodel import select

from adjudicator.archive import Archive
from adjudicator.archive.models import OutboxRow
from adjudicator.mail.inbound import Incoming
from adjudicator.render.i18n import engine_text, gettext
from adjudicator.services.mailbox import ingest
from tests.conftest import Pbem
from tests.test_conqueror_asks import play_until
from tests.test_conqueror_plans_cli import PLANS, SEATS3
from tests.test_conqueror_plans_cli import start as three_seats


def start(pbem: Pbem, tmp_path: Path) -> None:
    """A 3-seat game: kesh reads German, aurel Italian, thal English; taxation resolved, the plans step due."""
    three_seats(pbem, tmp_path, "--language", "kesh=de", "--language", "aurel=it")


def mailed(pbem: Pbem, seat: str, turn: int, *lines: str) -> str:
    """The seat mails an order set (English keywords: every keyword language is read); the receipt it is sent."""
    text = f"GAME er1 TURN {turn} PLAYER {seat} PASSWORD {pbem.passwords[seat]}\n" + "\n".join(lines) + "\n"
    archive = Archive.open(pbem.data, pbem.db)
    outcome = ingest(archive, Incoming(f"<{seat}-{turn}@test>", SEATS3[seat], "", "orders", text, text)).text
    assert outcome == "orders stored", outcome
    with archive.session() as session:
        receipt = session.exec(select(OutboxRow)).all()[-1]
    assert receipt.to == SEATS3[seat]
    return receipt.body


def rejected(language: str, rule: str, reason: str) -> str:
    return gettext(language, "rejected (%(rule)s): %(reason)s", rule=rule, reason=reason)


def not_understood(language: str, column: int, problem: str) -> str:
    return gettext(language, "not understood (column %(column)s): %(problem)s", column=column, problem=problem)


def test_ER_14_6_a_german_players_alternatives_preparation_and_syntax_errors_read_in_german(
    pbem: Pbem, tmp_path: Path
) -> None:
    start(pbem, tmp_path)
    body = mailed(
        pbem,
        "kesh",
        PLANS,
        "AGENT UPGRADE CAVALRY ELSE TRADE WITH aurel",  # kesh holds 6 coins: the upgrade costs 8 (ER-5.20)
        "RECRUIT 1 CAV AT AUR",  # aurel's capital (ER-6.3)
        "AGENT BAZAAR SPACE 3",  # spaces 1 and 2 only (ER-5.12)
        "RECRUIT HERO Zzzqq",  # no such hero
    )
    upgrade = gettext(
        "de", "the upgrade costs %(price)s coins and %(faction)s holds %(coins)s", price=8, faction="kesh", coins=6
    )
    assert upgrade == "die Verbesserung kostet 8 Münzen und kesh hat 6"
    taken = gettext("de", "choice %(index)s taken", index=2)
    listed = gettext(
        "de",
        "choice %(index)s: %(reason)s (%(rule)s); %(outcome)s",
        index=1,
        reason=upgrade,
        rule="ER-5.20",
        outcome=taken,
    )
    assert listed == "Wahl 1: die Verbesserung kostet 8 Münzen und kesh hat 6 (ER-5.20); Wahl 2 genommen"
    assert gettext("de", "accepted") + ": " + listed + "; nach dem jetzigen Stand beurteilt" in body
    assert "(ER-14.6)" in body and "choice 1" not in body and "judged as" not in body
    assert rejected("de", "ER-6.3", "kesh kontrolliert AUR nicht") in body
    assert not_understood("de", 20, "jede Agentenaktion hat die Felder 1 und 2, nicht 3 (ER-5.12)") in body
    assert not_understood("de", 14, "unbekannter Held 'Zzzqq'") in body


def test_ER_4_1_an_italian_players_refusals_and_syntax_error_read_in_italian_and_an_english_seat_keeps_english(
    pbem: Pbem, tmp_path: Path
) -> None:
    start(pbem, tmp_path)
    body = mailed(pbem, "aurel", PLANS, "ORDER aurel", "MOVE 1 INF: AUR -> SOL", "AGENT BAZAAR SPACE 3")
    assert rejected("it", "ER-4.4.2", "solo chi ha la clessidra lo stabilisce") in body
    where = "questo ordine non appartiene alla fase dei piani, ma a: fase della campagna (ER-7)"
    assert rejected("it", "ER-4.1", where) in body  # the value (the step) is a message of its own
    assert not_understood("it", 20, "ogni azione dell'agente ha le caselle 1 e 2, non 3 (ER-5.12)") in body
    english = mailed(pbem, "thal", PLANS, "ORDER thal", "AGENT BAZAAR SPACE 3")
    assert "rejected (ER-4.4.2): only the hourglass holder sets it" in english
    assert "not understood (column 20): every agent action has spaces 1 and 2, not 3 (ER-5.12)" in english


def test_ER_7_2_a_german_players_campaign_move_is_refused_in_german(pbem: Pbem, tmp_path: Path) -> None:
    start(pbem, tmp_path)
    number = play_until(pbem, 1, "kesh", {})  # kesh's campaign turn of round 1
    body = mailed(pbem, "kesh", number, "MOVE 9 INF: KES -> DUN")
    assert rejected("de", "ER-7.2", "in KES stehen 2 Infanterie von kesh, nicht 9") in body  # INF in German words
    assert "not 9" not in body


def test_ER_14_6_the_choice_list_and_the_plans_note_translate_part_by_part() -> None:
    """ER-14.6's list as stored (English), read in Dutch: each reason and the outcome are messages of their own."""
    stored = (
        "choice 1: no wharf marker is left in the supply (ER-12.1); "
        "choice 2: the trade space of thal is taken (ER-5.5); so a pass"
    )
    dutch = engine_text("nl", stored)
    assert dutch == (
        "keuze 1: er is geen werffiche meer in de reserve (ER-12.1); "
        "keuze 2: het handelsvak van thal is bezet (ER-5.5); dus een pas"
    )
    note = (
        "kesh holds 3 coins; judged as the position stands now; players before you in seating order buy first (ER-3.11)"
    )
    assert engine_text("it", note).startswith("kesh ha 3 monete; giudicato sulla posizione attuale;")
