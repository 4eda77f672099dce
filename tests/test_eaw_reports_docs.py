"""docs/players-empires.md: every order line of its examples is read by the order language of Empires of the Ancient
World (on the test map, whose area ids the guide uses), so that the guide shows only forms the tool accepts."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from adjudicator.orders import parse_orders
from adjudicator.rulesets.empires.parse import OrderLanguage
from tests.eaw_helpers import small_data

GUIDE = Path(__file__).parent.parent / "docs" / "players-empires.md"
FORMS = ("START", "PLACE", "FORT", "ATTACK", "DIPLOMACY", "RECRUIT", "DISBAND", "TRADE", "CONTROL", "DEFEND", "AMBUSH")
FORMS += ("STACK", "MARKERS", "LOSSES", "ANSWER")
HEADER = "GAME eaw1 TURN 3 PLAYER red PASSWORD s3cret"


def examples() -> list[str]:
    """The indented order lines of the guide, without their comments."""
    found = []
    for line in GUIDE.read_text(encoding="utf-8").splitlines():
        if re.match(rf"    ({'|'.join(FORMS)})\b", line):
            found.append(line.split("#", 1)[0].strip())
    return found


def test_the_guide_has_an_example_of_every_form() -> None:
    assert {line.split()[0] for line in examples()} == set(FORMS)


@pytest.mark.parametrize("line", examples())
def test_every_order_of_the_guide_is_read(line: str) -> None:
    language = OrderLanguage(small_data(), seats=("red", "blue", "green"))
    result = parse_orders(f"{HEADER}\n{line}\n", language)
    assert not result.errors, [e.located for e in result.errors]
    assert len(result.orders) == 1
