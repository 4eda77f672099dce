"""A new game is one folder: the sealed-bids test ruleset copied under another name, with its own keywords and its
own catalogue changed, plays through the commands with no core file touched. Rule IDs B-n are in
tests/rulesets/sealed_bids/game.py."""

from __future__ import annotations

import json
import shutil
from email.message import EmailMessage
from pathlib import Path

import pytest

from adjudicator.orders.keywords import keyword_table
from tests.conftest import Pbem
from tests.test_conqueror_resolve_files import stored_steps

ORIGINAL = Path(__file__).parent / "rulesets" / "sealed_bids"
SEATS = {"North": "north@example.org", "East": "east@example.org"}


def copied_ruleset(root: Path) -> Path:
    """tests/rulesets/sealed_bids as the ruleset `auction`: its name, its keyword and one German text changed."""
    folder = root / "auction"
    shutil.copytree(ORIGINAL, folder, ignore=shutil.ignore_patterns("__pycache__"))
    toml = folder / "ruleset.toml"
    text = toml.read_text(encoding="utf-8").replace('name = "sealed_bids"', 'name = "auction"')
    toml.write_text(text.replace('aliases = ["sealed-bids", "bids"]', 'aliases = ["auction-house"]'), encoding="utf-8")
    (folder / "keywords.toml").write_text(
        '[bid]\nen = ["TENDER"]\nde = ["GEBOT"]\nit = ["OFFERTA"]\nnl = ["BOD"]\n', encoding="utf-8"
    )
    po = folder / "locale" / "de" / "LC_MESSAGES" / "messages.po"
    german = po.read_text(encoding="utf-8").replace('msgstr "Deine Hand: %(cards)s."', 'msgstr "Im Beutel: %(cards)s."')
    po.write_text(german, encoding="utf-8")
    return folder


class Auction:
    def __init__(self, data: Path) -> None:
        self.pbem = Pbem(data)
        self.data = data
        self.game = data / "games" / "auc1"

    def run(self, *args: str, code: int = 0, data: bool = True) -> str:
        result = self.pbem(*args, data=data)
        assert result.exit_code == code, result.output
        return result.output

    def mail(self, seat: str, number: int, body: str) -> Path:
        message = EmailMessage()
        message["From"] = SEATS[seat]
        message["To"] = "moderator@example.org"
        message["Subject"] = "orders"
        message["Message-ID"] = f"<{seat}.{number}@players.example.org>"
        message.set_content(body)
        path = self.data.parent / f"{seat}-{number}.eml"
        path.write_bytes(bytes(message))
        return path

    def outbox(self, to: str) -> str:
        rows = self.pbem.sql(f"SELECT subject, body FROM outbox WHERE \"to\" = '{to}' ORDER BY id")
        return "\n".join(f"{subject}\n{body}" for subject, body in rows)

    def whole(self, path: Path) -> Path:
        """The whole position after the last stored step (every hand: what the file interface plays from)."""
        path.write_text(stored_steps(self.data, "auc1")[-1].after, encoding="utf-8")
        return path

    def hand(self, step: int, seat: str) -> list[str]:
        snapshot = json.loads((self.game / f"turn-{step:04d}" / f"snapshot-{seat}.json").read_text())
        return list(snapshot["private"][seat]["hand"])


def test_a_copied_ruleset_folder_plays_through_the_commands_with_its_own_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    copied_ruleset(tmp_path / "rulesets")
    monkeypatch.setenv("PBEM_RULESETS", str(tmp_path / "rulesets"))
    assert keyword_table("auction")["BID"]["en"] == ("TENDER",)  # its own table: shared words and its keyword
    assert "GAME" in keyword_table("auction") and "MOVE" not in keyword_table("auction")
    table = Auction(tmp_path / "data")
    assert "auction" in table.pbem("rulesets", data=False).output
    seats = [a for seat, mail in SEATS.items() for a in ("--seat", f"{seat}={mail}")]
    made = table.run("new", "auc1", "--ruleset", "auction-house", *seats, "--language", "North=de")
    passwords = {p[0]: p[1] for line in made.splitlines() if len(p := line.split()) == 2 and p[0] in SEATS}
    assert "resolved" in table.run("tick")  # step 1, the deal (B-1)
    north, east = table.hand(1, "North"), table.hand(1, "East")
    private = (table.game / "turn-0001" / "report-North.txt").read_text()
    assert f"Im Beutel: {', '.join(north)}." in private  # the copy's catalogue, not the original's "Deine Hand"
    assert "GEBOT <Karte>" in private  # its keyword, in the reader's language, and its text "card" translated

    # North mails in German keywords: a card not in the hand is refused in German from the ruleset's catalogue
    header = f"SPIEL auc1 ZUG 2 SPIELER North PASSWORT {passwords['North']}"
    table.run("ingest", str(table.mail("North", 1, f"{header}\nGEBOT Dragon\nGEBOT {north[0]}\n")))
    receipt = table.outbox(SEATS["North"])
    assert "Dragon ist nicht auf deiner Hand" in receipt and "(B-2)" in receipt

    # East's orders: the original keyword BID is no keyword of this ruleset; TENDER is
    east_orders = tmp_path / "east.txt"
    east_orders.write_text(f"GAME auc1 TURN 2 PLAYER East PASSWORD {passwords['East']}\nBID {east[0]}\n")
    refused = table.run("check", str(east_orders), "--game", "auc1", code=1)
    assert "unexpected 'BID' (did you mean BOD?)" in refused  # its nearest keyword: the Dutch BOD
    east_orders.write_text(f"GAME auc1 TURN 2 PLAYER East PASSWORD {passwords['East']}\nTENDER {east[0]}\n")
    assert "accepted" in table.run("check", str(east_orders), "--state", str(table.whole(tmp_path / "after-1.json")))
    assert "accepted" in table.run("submit", "auc1", str(east_orders))
    assert "orders received" in table.run("status", "auc1")

    assert "resolved" in table.run("tick")  # every seat is in: step 2 resolves (B-3)
    assert "B-3" in table.run("report", "auc1")
    assert "0 problems" in table.run("verify", "auc1")

    # the file interface: the last round from the snapshot and one orders file per seat
    north_file, east_file = tmp_path / "north.txt", tmp_path / "east3.txt"
    north_file.write_text(f"GAME auc1 TURN 3 PLAYER North PASSWORD x\nGEBOT {table.hand(2, 'North')[0]}\n")
    east_file.write_text(f"GAME auc1 TURN 3 PLAYER East PASSWORD x\nTENDER {table.hand(2, 'East')[0]}\n")
    out = tmp_path / "out"
    state = str(table.whole(tmp_path / "after-2.json"))
    table.run(
        "resolve",
        "--state",
        state,
        "--orders",
        str(north_file),
        "--orders",
        str(east_file),
        "--out",
        str(out),
        data=False,
    )
    assert "The hands are shown (B-6)" in (out / "report.txt").read_text()

    # a mail command of the shared table (HILFE), answered with the ruleset's order forms in the seat's words
    table.run("ingest", str(table.mail("North", 2, f"HILFE auc1\nSPIELER North PASSWORT {passwords['North']}\n")))
    help_reply = table.outbox(SEATS["North"]).split("Dragon ist nicht auf deiner Hand")[-1]
    assert "GEBOT Lion" in help_reply and "biete verdeckt eine Karte deiner Hand" in help_reply


def test_a_ruleset_without_its_own_order_forms_answers_help_with_where_the_forms_are(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """help-orders.txt.j2 is optional in a ruleset's templates: HELP then points to the orders template of the
    seat's latest report, instead of failing on a missing file."""
    folder = copied_ruleset(tmp_path / "rulesets")
    (folder / "templates" / "help-orders.txt.j2").unlink()
    monkeypatch.setenv("PBEM_RULESETS", str(tmp_path / "rulesets"))
    table = Auction(tmp_path / "data")
    seats = [a for seat, mail in SEATS.items() for a in ("--seat", f"{seat}={mail}")]
    made = table.run("new", "auc1", "--ruleset", "auction", *seats)
    passwords = {p[0]: p[1] for line in made.splitlines() if len(p := line.split()) == 2 and p[0] in SEATS}
    table.run("ingest", str(table.mail("North", 1, f"HELP auc1\nPLAYER North PASSWORD {passwords['North']}\n")))
    reply = table.outbox(SEATS["North"])
    assert "Orders of Sealed bids (a test ruleset), one per line below the order header:" in reply
    assert "the orders template at the end of your latest report" in reply
