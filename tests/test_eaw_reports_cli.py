"""The reports of a game of Empires of the Ancient World made and played through pbem's commands on the example
data (`pbem new --game-data`, `submit`, `adjudicate`, `report`, `site`): the real archive, the stored snapshots and
the services' report rendering, in English and in a seat's language."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from adjudicator.resources import resource_dir
from tests.conftest import Pbem

EXAMPLE = resource_dir("games") / "empires-aw" / "example-data"
SEATS = {"red": "r@example.org", "blue": "b@example.org", "green": "g@example.org"}


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Pbem:
    """eaw1 made with an option, red's placement mailed, the placement adjudicated (blue and green by default),
    which runs on to the plans step of round I (revolts and income need no orders). The tests only read it."""
    pbem = Pbem(tmp_path_factory.mktemp("eaw-cli") / "data")
    seats = [a for seat, mail in SEATS.items() for a in ("--seat", f"{seat}={mail}")]
    made = pbem("new", "eaw1", "--ruleset", "empires-aw", "--game-data", str(EXAMPLE), *seats)
    assert made.exit_code == 0, made.output
    for line in made.output.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] in SEATS:
            pbem.passwords[parts[0]] = parts[1]
    placement = pbem.orders("red", 2, "START NLR, BRE", "PLACE EMS, LVT", "FORT NLR", game="eaw1")
    assert pbem("submit", "eaw1", str(placement)).exit_code == 0
    done = pbem("adjudicate", "eaw1", "--now")
    assert done.exit_code == 0, done.output
    return pbem


def report(pbem: Pbem, *args: str) -> str:
    result = pbem("report", "eaw1", *args)
    assert result.exit_code == 0, result.output
    return result.output


def red_hand(pbem: Pbem) -> list[str]:
    """The card instances red's report lists as its hand."""
    text = report(pbem, "--seat", "red", "--language", "en")
    return re.findall(r"^  .* \[([\w#-]+)\]: ", text.split("Your hand")[1].split("Your home army")[0], re.M)


def test_EAW_3_8_reds_report_shows_its_home_army_and_the_public_report_none_of_it(played: Pbem) -> None:
    hand = red_hand(played)
    assert hand, "red's home army"
    red = report(played, "--seat", "red", "--language", "en")
    assert re.search(r"Your home army is group [A-F] \(EAW-3\.8\)", red)
    public = report(played)
    assert "Game round I of 4; next: the plans of the round." in public
    assert "NLR " in public and "red, 1 control marker; fort of red" in public
    for card in hand:
        assert f"[{card}]" not in public and card not in report(played, "--seat", "blue", "--language", "en")
    assert re.search(
        r"\n  red \((north|south)\): 0 VP; warehouse \d+ trade markers; plunder 0; cards in hand " + str(len(hand)),
        public,
    )


def test_EAW_11_7_the_stored_reports_name_the_example_datas_plunder_rate(played: Pbem) -> None:
    public = report(played)
    assert "Plunder scores 1 VP per marker (plunder_vp, EAW-10.6)." in public
    assert "Resolutions in force where the rules are silent (EAW-10.9): tie_break = shared (EAW-10.8)" in public


def test_the_seats_report_ends_with_its_plans_template_in_its_language(played: Pbem) -> None:
    red = report(played, "--seat", "red", "--language", "de")
    assert "\nSPIEL eaw1 ZUG " in red and "privater Bericht für red" in red


def test_the_site_shows_the_standings_and_no_hidden_card(played: Pbem, tmp_path: Path) -> None:
    out = tmp_path / "site"
    assert played("site", "eaw1", "--out", str(out)).exit_code == 0
    pages = "".join(p.read_text(encoding="utf-8") for p in sorted(out.glob("*.html")))
    assert 'id="standings"' in pages
    for card in red_hand(played):
        assert card not in pages
