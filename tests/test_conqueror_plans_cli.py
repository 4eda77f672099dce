"""A whole plans step of a 3-seat game through the CLI: `pbem submit` for each seat (receipts citing rules),
`pbem check`, `pbem adjudicate`, the reports' sentences, `pbem verify`, and the leak test: no face-down hero or
hand card of a seat in the public outputs or another seat's."""

from __future__ import annotations

from pathlib import Path

from adjudicator.rulesets.conqueror.loader import load_folder
from tests.conftest import Pbem
from tests.test_conqueror_new import EXAMPLE, data_copy, new_er, whole_snapshot

SEATS3 = {"kesh": "k@example.org", "aurel": "a@example.org", "thal": "t@example.org"}
PLANS = 3  # setup is step 1, taxation step 2 (imperator: no chronicle in round 1, ER-4.5)


def start(pbem: Pbem, tmp_path: Path, *options: str, taxation: bool = True) -> None:
    """er1 for three seats (`options`: more of `pbem new`'s), with Taxation resolved (ER-5.2) unless not
    `taxation`: the plans step due."""
    created = new_er(pbem, data_copy(tmp_path), *options, seats=SEATS3)
    assert created.startswith("0\n"), created
    for line in created.splitlines():  # each seat's password, as `pbem new` prints it
        parts = line.split()
        if len(parts) == 2 and parts[0] in SEATS3:
            pbem.passwords[parts[0]] = parts[1]
    if taxation:
        assert pbem("adjudicate", "er1", "--now").exit_code == 0


def submit(pbem: Pbem, seat: str, *lines: str) -> str:
    result = pbem("submit", "er1", str(pbem.orders(seat, PLANS, *lines, game="er1")))
    assert result.exit_code == 0, result.output
    return result.output


def test_ER_4_plans_sent_before_taxation_is_resolved_get_their_verdicts(pbem: Pbem, tmp_path: Path) -> None:
    """A new game waits at Taxation (step 2, nobody orders in it) until the clock runs: the plans mailed back at
    once, for step 3, are judged as the position stands, line by line, not answered with no verdict at all."""
    start(pbem, tmp_path, taxation=False)
    checked = pbem("check", "--game", "er1", str(pbem.orders("thal", PLANS, "RECRUIT 1 CAV AT KES", "LOSSES INF")))
    assert "rejected (ER-6.3)" in checked.output and "kept as a standing order" in checked.output, checked.output
    assert "1 accepted, 1 rejected, 0 not understood." in checked.output


def test_ER_5_ER_6_a_plans_step_for_three_seats_by_submit_and_adjudicate(pbem: Pbem, tmp_path: Path) -> None:
    start(pbem, tmp_path)
    receipt = submit(pbem, "kesh", "AGENT UPGRADE CAVALRY ELSE TRADE WITH aurel", "RECRUIT 1 CAV AT AUR", "LOSSES INF")
    assert "ER-5.20" in receipt and "tried again when the seat's turn comes" in receipt
    assert "rejected (ER-6.3)" in receipt and "kept as a standing order" in receipt
    receipt = submit(pbem, "aurel", "AGENT TRADE WITH kesh", "RECRUIT HERO Maren", "ORDER aurel")
    assert "rejected (ER-4.4.2)" in receipt
    submit(pbem, "thal", "AGENT TRADE WITH aurel ELSE BAZAAR", "RECRUIT 2 INF AT THA")
    checked = pbem("check", "--game", "er1", str(pbem.orders("thal", PLANS, "RECRUIT 1 CAV AT KES", game="er1")))
    assert checked.exit_code == 1 and "rejected (ER-6.3)" in checked.output and "Nothing was stored" in checked.output
    adjudicated = pbem("adjudicate", "er1", "--now")
    assert adjudicated.exit_code == 0, adjudicated.output
    after = whole_snapshot(pbem, PLANS)
    factions = after["public"]["factions"]
    assert factions["kesh"]["agent"] == "trade:aurel" and factions["kesh"]["trade"] == 2
    assert factions["aurel"]["agent"] == "trade:kesh"
    assert factions["thal"]["agent"] == "district:bazaar:1"  # kesh took aurel's trade space first (ER-5.5)
    assert factions["thal"]["districts"] == {"bazaar": 1} and after["private"]["aurel"]["heroes_down"] == ["aurel-2"]
    assert after["public"]["army"]["THA"]["units"]["infantry"] == 4 and after["public"]["phase"] == "campaign"
    turn = pbem.data / "games" / "er1" / f"turn-{PLANS:04d}"
    public = (turn / "report.txt").read_text(encoding="utf-8")
    assert "kesh trades with aurel: trade space 2" in public and "thal builds a bazaar for 3 coins" in public
    assert "thal recruits 2 infantry in THA (ER-6.3)" in public and "aurel recruits a hero for 2 coins" in public
    own = (turn / "report-aurel.txt").read_text(encoding="utf-8")
    assert "You recruit the hero Maren Shieldwife (aurel-2)" in own
    assert "LOSSES INF" in (turn / "report-kesh.txt").read_text(encoding="utf-8")
    verified = pbem("verify", "er1")
    assert verified.exit_code == 0 and "0 problems" in verified.output, verified.output


def test_leak_no_hero_or_card_of_a_seat_in_public_outputs_or_another_seats(pbem: Pbem, tmp_path: Path) -> None:
    start(pbem, tmp_path)
    data = load_folder(EXAMPLE)
    heroes = {h.id: h.name for h in data.cards.heroes}
    tactics = {t.id: t.name for t in data.cards.tactics}
    hands = {seat: part["hand"] for seat, part in whole_snapshot(pbem, PLANS - 1)["private"].items()}
    submit(pbem, "kesh", "RECRUIT HERO Harro", f"DEFENCE TACTICS {hands['kesh'][0]}")
    submit(pbem, "aurel", "RECRUIT HERO Maren")
    submit(pbem, "thal", "RECRUIT HERO Kleon")
    assert pbem("adjudicate", "er1", "--now").exit_code == 0
    secret = {"kesh": ["kesh-3", heroes["kesh-3"]], "aurel": ["aurel-2", heroes["aurel-2"]]}
    secret["thal"] = ["thal-3", heroes["thal-3"]]
    others = {seat: {c for s, cards in hands.items() if s != seat for c in cards} for seat in hands}
    secret["kesh"] += [c for card in hands["kesh"] if card not in others["kesh"] for c in (card, tactics[card])]
    game = pbem.data / "games" / "er1"
    site = tmp_path / "site"
    assert pbem("site", "er1", "--out", str(site)).exit_code == 0
    public = [p for p in game.rglob("*") if p.is_file() and p.name in ("report.txt", "snapshot.json")]
    public += [p for p in site.rglob("*") if p.is_file()]
    checked = 0
    for seat, names in secret.items():
        own = (game / f"turn-{PLANS:04d}" / f"report-{seat}.txt").read_text(encoding="utf-8")
        assert names[1] in own  # its own hero, by name
        files = public + [p for p in game.rglob("*") if p.is_file() and seat not in p.name and "-" in p.name]
        for path in files:
            text = path.read_text(encoding="utf-8")
            for name in names:
                assert name not in text, f"{name} of {seat} in {path}"
                checked += 1
    assert checked > 0
