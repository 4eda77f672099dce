"""The test ruleset of the game-neutral core (tests/rulesets/sealed_bids/) played through the CLI and the services, as
a moderator plays Conquest of the Empire: sealed steps wait for every seat, receipts and private reports go only
to their seat, and no card of a hand reaches a public output or another seat before the reveal (B-6). Rule IDs
B-n are in tests/rulesets/sealed_bids/game.py."""

from __future__ import annotations

import json
import re
from email.message import EmailMessage
from pathlib import Path

import pytest

from adjudicator.archive import Archive
from adjudicator.archive import queries as db
from adjudicator.engine.chance import KeyedDice, commitment, hidden_turn_key
from adjudicator.rulesets import load_ruleset
from tests.conftest import Pbem

RULESETS = Path(__file__).parent / "rulesets"
SEATS = {"North": "north@example.org", "East": "east@example.org", "South": "south@example.org"}
OBSERVER = "fan@example.org"


class Table:
    """A sealed-bids game run with `pbem` commands against one data folder."""

    def __init__(self, data: Path) -> None:
        self.pbem = Pbem(data)
        self.data = data

    def run(self, *args: str) -> str:
        result = self.pbem(*args)
        assert result.exit_code == 0, result.output
        return result.output

    def refused(self, *args: str) -> str:
        result = self.pbem(*args)
        assert result.exit_code != 0, result.output
        return result.output

    def new(self) -> None:
        seats = [a for seat, mail in SEATS.items() for a in ("--seat", f"{seat}={mail}")]
        output = self.run("new", "bids1", "--ruleset", "sealed-bids", *seats, "--observers", "closed")
        for line in output.splitlines():
            parts = line.split()
            if len(parts) == 2 and parts[0] in SEATS:
                self.pbem.passwords[parts[0]] = parts[1]
        self.run("gm", "observe", "bids1", OBSERVER)

    def folder(self, step: int) -> Path:
        return self.data / "games" / "bids1" / f"turn-{step:04d}"

    def hands(self, step: int) -> dict[str, list[str]]:
        """Each seat's hand after `step`, as its own snapshot file shows it."""
        return {
            seat: json.loads((self.folder(step) / f"snapshot-{seat}.json").read_text())["private"][seat]["hand"]
            for seat in SEATS
        }

    def bid(self, seat: str, step: int, card: str) -> str:
        return self.run("submit", "bids1", str(self.pbem.orders(seat, step, f"BID {card}", game="bids1")))

    def mail_bid(self, seat: str, step: int, card: str, tmp: Path) -> str:
        message = EmailMessage()
        message["From"] = SEATS[seat]
        message["To"] = "moderator@example.org"
        message["Subject"] = "my bid"
        message["Message-ID"] = f"<{seat}.{step}@players.example.org>"
        password = self.pbem.passwords[seat]
        message.set_content(f"GAME bids1 TURN {step} PLAYER {seat} PASSWORD {password}\nBID {card}\n")
        path = tmp / f"{seat}-{step}.eml"
        path.write_bytes(bytes(message))
        return self.run("ingest", str(path))

    def mails(self) -> list[tuple[str, str]]:
        """Every queued mail (address, subject and body)."""
        rows = self.pbem.sql('SELECT "to", subject, body FROM outbox ORDER BY id')
        return [(str(to), f"{subject}\n{body}") for to, subject, body in rows]

    def public_files(self) -> dict[Path, str]:
        """What anybody may read: every step's public report and public snapshot, and the site."""
        game = self.data / "games" / "bids1"
        found = {p: p.read_text() for p in game.glob("turn-*/report.txt")}
        found |= {p: p.read_text() for p in game.glob("turn-*/snapshot.json")}
        site = self.data / "site"
        self.run("site", "bids1", "--out", str(site))
        found |= {p: p.read_text() for p in site.rglob("*") if p.is_file()}
        return found


def mentions(text: str, card: str) -> bool:
    return re.search(rf"\b{card}\b", text) is not None


@pytest.fixture
def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Table:
    monkeypatch.setenv("PBEM_RULESETS", str(RULESETS))
    table = Table(tmp_path / "data")
    table.new()
    return table


def assert_no_leak(table: Table, hands: dict[str, list[str]], mails: list[tuple[str, str]]) -> None:
    """No card held in a hand appears in a public output, in another seat's private report or snapshot, or in a
    mail to another seat or to the observer."""
    public = table.public_files()
    for holder, cards in hands.items():
        for card in cards:
            for path, text in public.items():
                assert not mentions(text, card), f"{holder}'s {card} leaks into {path}"
            for to, text in mails:
                if to != SEATS[holder]:
                    assert not mentions(text, card), f"{holder}'s {card} leaks into a mail to {to}"
            for other in SEATS:
                if other == holder:
                    continue
                for name in (f"report-{other}.txt", f"snapshot-{other}.json"):
                    for path in (table.data / "games" / "bids1").glob(f"turn-*/{name}"):
                        assert not mentions(path.read_text(), card), f"{holder}'s {card} leaks into {path}"


def test_a_sealed_bids_game_through_the_cli_shows_each_hand_only_to_its_seat(table: Table, tmp_path: Path) -> None:
    assert "bids1" in table.run("games")
    assert "resolved" in table.run("tick")  # step 1, the deal (B-1): nobody orders in it
    hands = table.hands(1)
    assert len({card for cards in hands.values() for card in cards}) == 9  # B-1: three cards each, none twice
    for seat, cards in hands.items():  # each seat's own report and mail show its hand
        report = (table.folder(1) / f"report-{seat}.txt").read_text()
        assert all(mentions(report, card) for card in cards)
        assert any(to == SEATS[seat] and all(mentions(text, c) for c in cards) for to, text in table.mails())
    assert_no_leak(table, hands, table.mails())

    # step 2, sealed (B-2): North bids by file, East by mail; the step waits for South
    receipt = table.bid("North", 2, hands["North"][0])
    assert "accepted" in receipt
    table.mail_bid("East", 2, hands["East"][0], tmp_path)
    waiting = table.refused("adjudicate", "bids1")
    assert "South" in waiting and "North" not in waiting and "East" not in waiting
    assert "resolved" not in table.run("tick")  # before the deadline a sealed step waits for every seat
    status = table.run("status", "bids1")
    assert re.search(r"North +turn 2: orders received", status) and re.search(r"South +turn 2: NO ORDERS YET", status)
    mails = table.mails()
    north_bid = hands["North"][0]
    for to, text in mails:  # North's sealed bid reaches nobody else before the step resolves
        assert to == SEATS["North"] or not mentions(text, north_bid), f"North's bid reaches {to}"
    assert not mentions(status, north_bid) and not mentions(table.run("status", "bids1"), hands["East"][0])
    assert_no_leak(table, hands, mails)

    table.bid("South", 2, hands["South"][-1])
    assert "resolved" in table.run("tick")  # every seat is in: the step resolves before its deadline
    report = (table.folder(2) / "report.txt").read_text()
    assert all(mentions(report, hands[seat][index]) for seat, index in (("North", 0), ("East", 0), ("South", -1)))
    hands = table.hands(2)
    assert all(len(cards) == 2 for cards in hands.values())
    assert_no_leak(table, hands, table.mails())

    # step 3, the last round: South sends nothing; the moderator resolves with --now, South bids its lowest (B-4)
    table.bid("North", 3, hands["North"][0])
    table.bid("East", 3, hands["East"][1])
    assert "Turn 3 (North, East, South) resolved" in table.run("adjudicate", "bids1", "--now")
    final = (table.folder(3) / "report.txt").read_text()
    assert "Orders received from North, East." in final and "No orders received from South" in final
    assert "The hands are shown (B-6)" in final
    # the game is over: its report reveals the seed, from which anybody checks the commitment and the hidden deal
    seed = bytes.fromhex(re.search(r"its dice seed is ([0-9a-f]{64})", final)[1])  # type: ignore[index]
    with Archive.open(table.data, None).session() as session:
        game = db.find_game(session, "bids1")
        deal = next(row for row in db.turns(session, game) if row.number == 1)
    assert commitment(seed) == game.commitment and hidden_turn_key(seed, 1).hex() == deal.hidden_key
    assert "dice seed" not in (table.folder(2) / "report.txt").read_text()  # not before the end
    assert "B-6" in table.run("report", "bids1")
    verified = table.run("verify", "bids1")
    assert "turn 3 (North, East, South): replay matches" in verified and "0 problems" in verified, verified
    south = (table.folder(3) / "report-South.txt").read_text()
    assert "You sent no orders for this turn." in south and "Your hand: Boar." not in final


def test_a_sealed_step_refuses_nothing_it_may_take_and_verify_replays_the_shuffle(table: Table) -> None:
    table.run("adjudicate", "bids1")
    hands = table.hands(1)
    refused = table.refused(
        "submit", "bids1", str(table.pbem.orders("North", 3, f"BID {hands['North'][0]}", game="bids1"))
    )
    assert "TURN 3" in refused
    receipt = table.bid("South", 2, "Dragon")
    assert "rejected (B-2)" in receipt
    output = table.run("verify", "bids1")
    assert "turn 1" in output and "replay matches" in output


def test_B_1_the_deal_is_a_hidden_draw_that_the_revealed_turn_key_cannot_recompute(table: Table) -> None:
    table.run("adjudicate", "bids1")
    report = (table.folder(1) / "report.txt").read_text()
    with Archive.open(table.data, None).session() as session:
        game = db.find_game(session, "bids1")
        deal = next(row for row in db.turns(session, game) if row.number == 1)
        seed = bytes.fromhex(game.seed)
    assert deal.turn_key in report and "no dice were rolled" in report  # the key is public, the deal's draws not
    assert deal.dice_json == "[]" and len(json.loads(deal.hidden_dice_json)) == 11
    assert deal.hidden_key == hidden_turn_key(seed, 1).hex()
    everything_public = "".join(table.public_files().values()) + "".join(text for _, text in table.mails())
    assert deal.hidden_key not in everything_public
    # the public stream of the revealed key would have dealt other hands: nothing public recomputes the deal
    public_stream = KeyedDice(key=bytes.fromhex(deal.turn_key), orders_hash=deal.orders_hash)
    dealt = public_stream.shuffle([card.name for card in load_ruleset("sealed-bids").rules.deck], "deck")
    assert [dealt[0:3], dealt[3:6], dealt[6:9]] != [table.hands(1)[seat] for seat in SEATS]
    assert "0 problems" in table.run("verify", "bids1")
