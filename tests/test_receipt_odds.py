"""Odds in the receipt: for every battle a seat's orders would fight, its receipt gives the exact odds and the
expected losses, computed on what the seat can know (its own pieces and standing orders, the defender's public
pieces), the same figures the ruleset's odds give for those forces; nothing hidden from it shapes them."""

from __future__ import annotations

from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path

import pytest

from adjudicator.orders import parse_orders
from adjudicator.rulesets import load_ruleset
from adjudicator.rulesets.coe.economy import tribute_value
from adjudicator.rulesets.coe.odds import land_odds, naval_odds
from adjudicator.rulesets.coe.odds_chain import Odds
from adjudicator.rulesets.coe.state import GameState
from adjudicator.services.orders import check_state_orders
from tests.conftest import Pbem
from tests.helpers import place, start
from tests.test_coe_classic_naval import duel

ATTACK = "MOVE G1 WITH 4 INF, 1 CAV: MAC -> THR"
HEADER = "GAME test TURN 1 PLAYER Macedonia PASSWORD x"


def border_war(ruleset: str, defender_standing: dict[str, object] | None = None) -> GameState:
    """Macedonia with 4 INF 1 CAV at home, Egyptus with 2 INF 2 CAV next door in Thracia (THR)."""
    state = start(ruleset=ruleset)
    place(state, "MAC", "Macedonia", infantry=4, cavalry=1)
    place(state, "THR", "Egyptus", infantry=2, cavalry=2)
    state.players["Egyptus"].standing = dict(defender_standing or {})
    rules = load_ruleset(ruleset)
    for seat, player in state.players.items():
        player.tribute = tribute_value(rules, state, seat)
    return state


def receipt(ruleset: str, state: GameState, *lines: str) -> str:
    snapshot = load_ruleset(ruleset).snapshot_text(state)
    return check_state_orders(snapshot, "\n".join([HEADER, *lines]) + "\n").text


def odds_line(text: str) -> str:
    found = [line.strip() for line in text.splitlines() if " you win " in line]
    assert len(found) == 1, text
    return found[0]


def expected_line(odds: Odds, area: str = "THR") -> str:
    """The receipt's line of Macedonia's attack on Egyptus in `area` for the odds the odds function gives."""
    return (
        f"{area}: {odds.attacker} against Egyptus {odds.defender}: you win {100 * float(odds.attacker_wins):.1f}%; "
        f"expected losses: yours {float(sum(odds.attacker_losses.values())):.2f}, "
        f"his {float(sum(odds.defender_losses.values())):.2f}"
    )


@pytest.mark.parametrize("ruleset", ["coe-classic", "coe-1984"])
def test_coe_receipt_gives_the_odds_the_odds_function_gives_for_the_same_forces(ruleset: str) -> None:
    odds = land_odds(
        ruleset,
        {"infantry": 4, "cavalry": 1, "leaders": 1},
        {"infantry": 2, "cavalry": 2, "fortified": False},
        {"losses": ["cavalry"]},
        area="THR",
    )
    line = odds_line(receipt(ruleset, border_war(ruleset), "LOSSES CAV, INF", ATTACK))
    assert line == expected_line(odds)


SECRET_STANDING: dict[str, dict[str, object]] = {  # the defender's standing orders that would change the figure
    "coe-classic": {
        "losses": ["cavalry"],
        "retreat": [{"from": None, "condition": "units_below", "threshold": 3, "to": []}],
    },
    "coe-1984": {"targets": ["cavalry", "infantry"]},  # O-14.4: his units shoot the attacker's cavalry first
}


@pytest.mark.parametrize("ruleset", ["coe-classic", "coe-1984"])
def test_coe_odds_never_read_the_defenders_private_standing_orders(ruleset: str) -> None:
    """C-15: Egyptus's standing orders are his secret; a receipt with them and one without say the same."""
    secret = SECRET_STANDING[ruleset]
    with_secret = odds_line(receipt(ruleset, border_war(ruleset, secret), ATTACK))
    assert with_secret == odds_line(receipt(ruleset, border_war(ruleset), ATTACK))
    leaked = land_odds(
        ruleset, {"infantry": 4, "cavalry": 1, "leaders": 1}, {"infantry": 2, "cavalry": 2}, None, secret, area="THR"
    )
    assert with_secret != expected_line(leaked)  # read, they would change the figure


def test_coe_a_declared_naval_battle_has_its_odds_with_the_cargo_aboard() -> None:
    """C-7.1: the fleets in the Aegean, each galley with what it carries (public pieces), as naval_odds takes them."""
    state = duel()
    rules = load_ruleset("coe-classic")
    for seat, player in state.players.items():
        player.tribute = tribute_value(rules, state, seat)
    odds = naval_odds(
        "coe-classic",
        [{"infantry": 2, "cavalry": 0, "catapult": 0, "generals": 1, "caesar": False}],
        [{"infantry": 3, "cavalry": 0, "catapult": 0, "generals": 1, "caesar": False}],
    )
    assert odds_line(receipt("coe-classic", state, "NAVAL AEG")) == expected_line(odds, "AEG")


@pytest.mark.parametrize("cut_off", [False, True])
def test_coe_1984_odds_know_whether_the_attacker_has_a_province_to_retreat_into(cut_off: bool) -> None:
    """O-6.16: the attacker retreats only into an adjacent province he controls; with his home lost to Hispania,
    Thracia (THR) has none, and his standing RETREAT order never fires."""
    state = border_war("coe-1984")
    if cut_off:
        state.area("MAC").owner = "Hispania"
    rules = load_ruleset("coe-1984")
    orders = parse_orders(f"{HEADER}\nRETREAT WHEN UNITS < 3\n{ATTACK}\n", rules)
    [found] = rules.attack_odds(state, "Macedonia", 1, orders)
    odds = land_odds(
        "coe-1984",
        {"infantry": 4, "cavalry": 1, "leaders": 1},
        {"infantry": 2, "cavalry": 2},
        {"retreat": [{"from": None, "condition": "units_below", "threshold": 3, "to": []}]},
        area="THR",
        attacker_can_retreat=not cut_off,
    )
    assert (found.wins, found.attacker_losses) == (float(odds.attacker_wins), float(sum(odds.attacker_losses.values())))


def test_coe_orders_without_an_attack_have_no_odds() -> None:
    text = receipt("coe-classic", border_war("coe-classic"), "MOVE G1 WITH 4 INF: MAC -> DAL")
    assert "accepted" in text and " you win " not in text and "odds" not in text


def test_coe_odds_reach_the_player_by_mail(pbem: Pbem, tmp_path: Path) -> None:
    position = tmp_path / "snapshot.json"
    position.write_text(load_ruleset("coe-classic").snapshot_text(border_war("coe-classic")), encoding="utf-8")
    created = pbem(
        "new", "war", "--ruleset", "coe-classic", "--from-snapshot", str(position),
        *(a for seat, address in SEAT_MAILS.items() for a in ("--seat", f"{seat}={address}")),
    )  # fmt: skip
    assert created.exit_code == 0, created.output
    password = next(w[1] for w in map(str.split, created.output.splitlines()) if len(w) == 2 and w[0] == "Macedonia")
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = SEAT_MAILS["Macedonia"], "gm@example.org", "orders"
    message.set_content(f"GAME war TURN 1 PLAYER Macedonia PASSWORD {password}\n{ATTACK}\n")
    mail = tmp_path / "orders.eml"
    mail.write_bytes(bytes(message))
    assert pbem("ingest", str(mail)).exit_code == 0
    assert pbem("send", "--eml-dir", str(tmp_path / "sent")).exit_code == 0
    receipts = [
        parsed.get_body(("plain",)).get_content()
        for path in sorted((tmp_path / "sent").glob("*.eml"))
        if "Receipt" in (parsed := BytesParser(policy=policy.default).parsebytes(path.read_bytes()))["Subject"]
    ]
    assert len(receipts) == 1
    assert odds_line(receipts[0]) == odds_line(receipt("coe-classic", border_war("coe-classic"), ATTACK))


SEAT_MAILS = {"Macedonia": "mac@example.org", "Egyptus": "egy@example.org", "Hispania": "his@example.org"}


def test_a_receipt_nobody_reads_is_made_without_odds() -> None:
    """The bot's orders at the tick and a turn file's order sets are checked with no receipt shown: their battles'
    odds, which cost more than the verdicts, are not computed (store_order_set with_odds=False)."""
    from adjudicator.services.orders import checked_receipt

    rules, state = load_ruleset("coe-classic"), border_war("coe-classic")
    orders = parse_orders("\n".join([HEADER, ATTACK]) + "\n", rules)
    shown = checked_receipt("test", "turn", rules, state, orders, "Macedonia", 1)
    unread = checked_receipt("test", "turn", rules, state, orders, "Macedonia", 1, with_odds=False)
    assert [odds.area for odds in shown.odds] == ["THR"] and unread.odds == []
    assert unread.results == shown.results


@pytest.mark.parametrize(
    ("language", "forces"),
    [
        ("de", "THR: 4 INF 1 KAV, 1 Anführer gegen Egyptus 2 INF 2 KAV: "),
        ("it", "THR: 4 FANT 1 CAV, 1 comandante contro Egyptus 2 FANT 2 CAV: "),
    ],
)
def test_coe_odds_name_the_forces_in_the_readers_words(language: str, forces: str) -> None:
    snapshot = load_ruleset("coe-classic").snapshot_text(border_war("coe-classic"))
    text = check_state_orders(snapshot, f"{HEADER}\n{ATTACK}\n").text_in(language)
    assert forces in text, text
