"""Empires of the Ancient World's order language through the real mail path: a game made with `pbem new` on the
example data (SQLite archive), order mails read by `ingest`, receipts in the outbox in the seat's language; the
lines sent back are those the seat's own report offers (its orders template), uncommented.

The game is made once per module; each test works on a copy of its data folder."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from sqlmodel import select

from adjudicator.archive import Archive
from adjudicator.archive.models import OutboxRow
from adjudicator.archive.store import close_archives
from adjudicator.mail.inbound import Incoming
from adjudicator.orders import parse_orders
from adjudicator.render.i18n import gettext
from adjudicator.resources import resource_dir
from adjudicator.rulesets.empires.loader import load_folder
from adjudicator.rulesets.empires.orders import Action, PlanLine
from adjudicator.rulesets.empires.parse import OrderLanguage, language_of
from adjudicator.services.mailbox import ingest
from tests.conftest import Pbem

SEATS = {"red": "red@example.org", "blue": "blue@example.org", "green": "green@example.org"}
EXAMPLE_DATA = resource_dir("games") / "empires-aw" / "example-data"


@pytest.fixture(scope="module")
def created(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """The data folder of game g1 (blue reads German, green Italian) and the seats' passwords."""
    folder = tmp_path_factory.mktemp("eaw-mail") / "data"
    pbem = Pbem(folder)
    seats = [a for seat, mail in SEATS.items() for a in ("--seat", f"{seat}={mail}")]
    result = pbem(
        "new",
        "g1",
        "--ruleset",
        "empires-aw",
        "--game-data",
        str(EXAMPLE_DATA),
        "--pace",
        "round",
        "--language",
        "blue=de",
        "--language",
        "green=it",
        *seats,
    )
    assert result.exit_code == 0, result.output
    passwords = {p[0]: p[1] for p in (line.split() for line in result.output.splitlines()) if len(p) == 2}
    close_archives()
    return folder, {seat: passwords[seat] for seat in SEATS}


@pytest.fixture
def game(created: tuple[Path, dict[str, str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Pbem:
    monkeypatch.delenv("PBEM_DB", raising=False)
    folder, passwords = created
    shutil.copytree(folder, tmp_path / "data")
    pbem = Pbem(tmp_path / "data")
    pbem.passwords = dict(passwords)
    return pbem


def mailed(pbem: Pbem, seat: str, text: str, number: int = 1) -> str:
    """The seat's order mail read by ingest; the receipt it is sent."""
    archive = Archive.open(pbem.data, pbem.db)
    outcome = ingest(archive, Incoming(f"<{seat}-{number}@test>", SEATS[seat], "", "orders", text, text)).text
    assert outcome == "orders stored", outcome
    with archive.session() as session:
        receipt = session.exec(select(OutboxRow)).all()[-1]
    assert receipt.to == SEATS[seat]
    return receipt.body


def template_lines(pbem: Pbem, seat: str, language: str) -> tuple[str, list[str]]:
    """The header line and the example lines of the orders template at the end of the seat's latest report."""
    report = pbem("report", "g1", "--seat", seat).output
    lines = report.splitlines()
    header = next(line for line in lines if re.match(r"\w+ g1 \w+ \d+ \w+ " + seat + r" ", line))
    start = lines.index("# " + gettext(language, "Examples (remove the # to send one):"))
    examples = [line.removeprefix("#").strip() for line in lines[start + 1 :] if line.startswith("#   ")]
    return header, examples


def verdicts(receipt: str) -> list[str]:
    """The verdict of each line of a receipt (the line below each order line)."""
    lines = receipt.replace("=\n", "").splitlines()
    return [lines[i + 1].strip() for i, line in enumerate(lines[:-1]) if re.match(r"\s+\w+\s+\d+\s{2}", line)]


def with_password(header: str, pbem: Pbem, seat: str) -> str:
    return re.sub(r"<[^>]*>$", pbem.passwords[seat], header)


def test_EAW_12_1_a_german_placement_mail_is_read_line_by_line_with_did_you_mean_in_german(game: Pbem) -> None:
    header, examples = template_lines(game, "blue", "de")
    assert header.startswith("SPIEL g1 ZUG ") and examples[0].startswith("START ")
    text = "\n".join([with_password(header, game, "blue"), *examples, "FESTUNG Zzzz", "ANGRIF NLR AUS BRE"]) + "\n"
    receipt = mailed(game, "blue", text)
    assert verdicts(receipt).count(gettext("de", "accepted")) == len(examples), receipt
    assert "unknown area 'Zzzz'" in receipt
    assert "unexpected 'ANGRIF' (did you mean ANGRIFF?)" in receipt.replace("=\n", "")
    assert gettext("de", "not understood (column %(column)s): %(problem)s", column=1, problem="")[:10] in receipt


def test_EAW_12_2_an_italian_plans_mail_sent_back_from_the_report_is_accepted_whole(game: Pbem) -> None:
    assert game("adjudicate", "g1", "--now").exit_code == 0  # the placement on the EAW-12.1/12.13/12.14 defaults
    header, examples = template_lines(game, "green", "it")
    assert header.startswith("PARTITA g1 TURNO ") and len(examples) >= 5
    receipt = mailed(game, "green", "\n".join([with_password(header, game, "green"), *examples]) + "\n", 2)
    found = verdicts(receipt)
    assert len(found) == len(examples) and all(v.startswith(gettext("it", "accepted")) for v in found), receipt


def test_EAW_12_9_a_german_receipt_quotes_the_free_actions_alternatives_in_german_and_they_read_back(
    game: Pbem,
) -> None:
    assert game("adjudicate", "g1", "--now").exit_code == 0  # the placement on the EAW-12.1/12.13/12.14 defaults
    header, examples = template_lines(game, "blue", "de")
    attack = next(e for e in examples if e.startswith("ANGRIFF ")).split(" SONST ")[0]  # one blue can take now
    target = attack.split()[1]
    line = f"{attack} DANN HANDEL {target} ODER REKRUTIERE BESTE SONST KONTROLLE {target}"
    receipt = mailed(game, "blue", f"{with_password(header, game, 'blue')}\n{line}\n", 2).replace("=\n", "")
    quoted = re.search(r"[Aa]lternative 1 \((.+?)\)", receipt)  # the sentence is the catalogue's
    assert quoted is not None, receipt
    assert quoted[1] == f"{attack} DANN HANDEL {target} ODER REKRUTIERE BESTE"  # THEN ... OR, German keywords
    language = language_of(load_folder(EXAMPLE_DATA), tuple(SEATS))
    assert plan_line(quoted[1], language) == plan_line(line, language)[:1]


def plan_line(text: str, language: OrderLanguage) -> tuple[Action, ...]:
    """The alternatives of one plan line read by the order language."""
    (line,) = parse_orders(f"GAME g1 TURN 1 PLAYER blue PASSWORD x\n{text}\n", language).orders
    assert isinstance(line, PlanLine)
    return line.alternatives


def test_EAW_12_2_a_german_report_quotes_the_default_action_in_german_keywords(game: Pbem) -> None:
    assert game("adjudicate", "g1", "--now").exit_code == 0  # the placement
    assert game("adjudicate", "g1", "--now").exit_code == 0  # no plans: each action is the EAW-12.2 default
    sentence = gettext(
        "de",
        "%(seat)s has no planned action and takes the default: %(action)s (EAW-12.2).",
        in_ruleset="empires-aw",
        seat="blue",
        action="\0",
    )
    before, after = sentence.removeprefix("blue").split("\0")
    defaults: list[str] = []
    for turn in range(4, 9):  # the first action steps of round 1
        report = game("report", "g1", "--turn", str(turn), "--language", "de").output
        defaults += re.findall(re.escape(before) + "(.+?)" + re.escape(after), report)
    assert len(defaults) >= 3 and all(re.fullmatch(r"KONTROLLE [A-Z]{3}", d) for d in defaults), defaults
