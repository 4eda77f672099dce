"""Receipts line by line, for every ruleset: every line sent gets a verdict, a line of several items gets one
verdict per item naming it, the line is echoed as the player wrote it, and the receipt and the seat's private
report number the lines alike (through the real mail path: ingest -> receipt in the outbox -> adjudicate)."""

from __future__ import annotations

from pathlib import Path

from adjudicator.render.i18n import plural_gettext
from tests.conftest import Pbem
from tests.test_conqueror_plans_cli import PLANS
from tests.test_conqueror_receipts_i18n import mailed, start


def verdicts_of(body: str, line: int) -> list[str]:
    """The lines of a receipt or report under `line N`: the echo first, then its verdicts."""
    lines = body.splitlines()
    heads = (["line", str(line)], ["Zeile", str(line)])
    at = next(i for i, text in enumerate(lines) if text.strip().split()[:2] in heads)
    found = [lines[at]]
    for text in lines[at + 1 :]:
        if not text.startswith("             "):
            break
        found.append(text.strip())
    return found


def test_ER_5_32_food_no_store_gets_its_verdict_in_the_receipt(pbem: Pbem, tmp_path: Path) -> None:
    start(pbem, tmp_path)
    body = mailed(pbem, "thal", PLANS, "FOOD NO STORE")
    echo, *verdicts = verdicts_of(body, 2)
    assert echo.endswith("FOOD NO STORE")
    assert verdicts == ["accepted: no stored-food marker is taken this round (ER-5.32)"]
    assert "1 accepted, 0 rejected, 0 not understood." in body


def test_ER_6_1_a_recruit_line_of_two_items_gets_a_verdict_per_item_naming_it(pbem: Pbem, tmp_path: Path) -> None:
    start(pbem, tmp_path)
    body = mailed(pbem, "thal", PLANS, "RECRUIT 2 INF AT THA, 1 CAV AT KES")  # KES is kesh's (ER-6.3)
    echo, *verdicts = verdicts_of(body, 2)
    assert echo.endswith("RECRUIT 2 INF AT THA, 1 CAV AT KES")  # the line once, as written
    assert verdicts == [
        "RECRUIT 2 INF AT THA: accepted",
        "RECRUIT 1 CAV AT KES: rejected (ER-6.3): thal does not control KES",
    ]
    assert body.count("line   2") == 1
    assert pbem("adjudicate", "er1", "--now").exit_code == 0
    own = (pbem.data / "games" / "er1" / f"turn-{PLANS:04d}" / "report-thal.txt").read_text(encoding="utf-8")
    assert verdicts_of(own, 2) == [echo, *verdicts]  # the private report shows the line and its items alike


def test_ER_6_1_a_german_recruit_line_is_echoed_as_written_in_an_english_receipt(pbem: Pbem, tmp_path: Path) -> None:
    start(pbem, tmp_path)
    body = mailed(pbem, "thal", PLANS, "REKRUTIERE 2 INF IN THA")
    echo, *verdicts = verdicts_of(body, 2)
    assert echo.endswith("REKRUTIERE 2 INF IN THA") and verdicts == ["accepted"]


def test_ER_4_3_the_receipt_and_the_private_report_number_the_lines_alike(pbem: Pbem, tmp_path: Path) -> None:
    """The plans step is sealed: the seats' order sets are resolved together, and each seat's verdicts keep the
    numbers of its own mail (the second seat's lines were counted after the first seat's)."""
    start(pbem, tmp_path)
    mailed(pbem, "kesh", PLANS, "# my plans", "AGENT BAZAAR", "LOSSES INF")
    body = mailed(pbem, "thal", PLANS, "", "AGENT ACADEMY", "FOOD NO STORE")
    assert verdicts_of(body, 3)[0].endswith("AGENT ACADEMY")
    assert pbem("adjudicate", "er1", "--now").exit_code == 0
    turn = pbem.data / "games" / "er1" / f"turn-{PLANS:04d}"
    own = (turn / "report-thal.txt").read_text(encoding="utf-8")
    assert verdicts_of(own, 3)[0].endswith("AGENT ACADEMY")
    assert verdicts_of(own, 4) == [
        "  line   4  FOOD NO STORE",
        "accepted: no stored-food marker is taken this round (ER-5.32)",
    ]
    kesh = (turn / "report-kesh.txt").read_text(encoding="utf-8")
    assert verdicts_of(kesh, 3)[0].endswith("AGENT BAZAAR")


def test_ER_5_14_the_report_names_the_district_built_in_a_whole_sentence(pbem: Pbem, tmp_path: Path) -> None:
    start(pbem, tmp_path)
    mailed(pbem, "thal", PLANS, "AGENT ACADEMY")
    assert pbem("adjudicate", "er1", "--now").exit_code == 0
    turn = pbem.data / "games" / "er1" / f"turn-{PLANS:04d}"
    public = (turn / "report.txt").read_text(encoding="utf-8")
    assert "thal builds an academy for 4 coins (ER-5.14)." in public and "a academy" not in public
    academy = (
        "%(seat)s builds an academy for %(price)s coin (ER-5.14).",
        "%(seat)s builds an academy for %(price)s coins (ER-5.14).",
    )
    german = plural_gettext("de", *academy, 4, in_ruleset="conqueror-er", seat="thal", price=4)
    assert german == "thal baut eine Akademie für 4 Münzen (ER-5.14)."


def test_C_11_a_buy_line_in_german_keywords_is_echoed_as_written_with_a_verdict_per_item(pbem: Pbem) -> None:
    pbem.new_game()
    receipt = pbem("submit", "rome1", str(pbem.orders("Macedonia", 1, "KAUFE 1 GALEERE IN MAC, 2 INF IN MAC")))
    assert receipt.exit_code == 0, receipt.output
    echo, *verdicts = verdicts_of(receipt.output, 2)
    assert echo.endswith("KAUFE 1 GALEERE IN MAC, 2 INF IN MAC") and "BUY" not in echo
    assert len(verdicts) == 2
    assert verdicts[0].startswith("BUY 1 GALLEY AT MAC: ") and verdicts[1].startswith("BUY 2 INF AT MAC: ")
    assert pbem("adjudicate", "rome1", "--now").exit_code == 0
    own = (pbem.data / "games" / "rome1" / "turn-0001" / "report-Macedonia.txt").read_text(encoding="utf-8")
    assert verdicts_of(own, 2) == [echo, *verdicts]  # the private report: the same line, as written, and items


def test_ER_5_4_ER_5_6_a_second_agent_line_gets_its_verdict_naming_the_line_that_counts(
    pbem: Pbem, tmp_path: Path
) -> None:
    start(pbem, tmp_path)
    body = mailed(pbem, "thal", PLANS, "AGENT ACADEMY", "AGENT GRANARY", "EXTRA AGENT BAZAAR", "EXTRA AGENT GRANARY")
    assert verdicts_of(body, 3)[1:] == ["rejected (ER-5.4): one agent action a round: line 2 is the one"]
    assert verdicts_of(body, 5)[1:] == ["rejected (ER-5.6): one extra action a round: line 4 is the one"]
    assert "not understood" not in verdicts_of(body, 4)[1] and len(verdicts_of(body, 4)) == 2
