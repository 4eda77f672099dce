"""The words German, Italian and Dutch players type and read: the keyword table says what a reader understands,
and the word a report uses for a thing is a keyword the player can type for it."""

from __future__ import annotations

from functools import cache

import pytest

from adjudicator.orders import parse_orders
from adjudicator.orders.keywords import keyword_of, keyword_table, written
from adjudicator.orders.sets import OrderSet
from adjudicator.render.i18n import gettext
from adjudicator.resources import resource_dir
from adjudicator.rulesets.conqueror.loader import load_folder
from adjudicator.rulesets.conqueror.parse import OrderLanguage

READERS = ("de", "it", "nl")


@cache
def conqueror_language() -> OrderLanguage:
    return OrderLanguage(load_folder(resource_dir("games") / "conqueror-er" / "example-data"))


def conqueror_orders(language: str, *lines: str) -> OrderSet:
    header = " ".join(
        f"{written(language, word)} {value}"
        for word, value in (("game", "er1"), ("turn", "2"), ("player", "aurel"), ("password", "x"))
    )
    return parse_orders("\n".join([header, *lines]), conqueror_language())  # type: ignore[arg-type]


# -- keywords that mislead ----------------------------------------------------------------------------------------


def test_ER_8_1_german_attack_is_written_as_an_attack_and_grab_is_no_keyword() -> None:
    assert written("de", "attack") == "ANGRIFF"
    assert "greife" not in keyword_of()  # "grab": a German reader would not guess an attack
    orders = conqueror_orders("de", "ANGRIFF 2 INF: AUR -> MIR")
    assert not orders.errors and len(orders.orders) == 1


def test_ER_5_32_dutch_store_is_not_hit() -> None:
    assert written("nl", "store") == "OPSLAAN"
    assert "sla" not in keyword_of()  # "hit": a Dutch reader would not guess storing food
    orders = conqueror_orders("nl", "VOEDSEL OPSLAAN")
    assert not orders.errors and len(orders.orders) == 1


@pytest.mark.parametrize("language", READERS)
def test_ER_5_12_the_reports_word_for_an_agent_space_and_a_board_slot_is_its_keyword(language: str) -> None:
    space = gettext(language, "space %(wanted)s is taken by another player's agent", wanted=2).casefold()
    slot = gettext(language, "no free %(wanted)s slot on the player board", wanted="x").casefold()
    assert written(language, "space").casefold() in space
    assert written(language, "slot").casefold() not in space
    assert written(language, "slot").casefold() in slot
    assert written(language, "space").casefold() not in slot


@pytest.mark.parametrize("language", READERS)
def test_C_1_1_unit_kinds_are_abbreviated_alike_in_every_language(language: str) -> None:
    for kind in ("infantry", "cavalry", "catapult"):
        abbreviation = written(language, kind)
        assert len(abbreviation) <= 4, (kind, abbreviation)
        assert abbreviation in keyword_table()[kind.upper()][language]
