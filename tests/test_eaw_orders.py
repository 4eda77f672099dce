"""Orders of Empires of the Ancient World written back as lines (`canonical`: reports, the orders template, answers)
parse to the same orders in each of the four keyword languages; a plan line survives its JSON (Player.plan); a FORT
line is both the starting fort (EAW-12.14) and a plan line (EAW-7.25)."""

from __future__ import annotations

from dataclasses import replace
from functools import cache

import pytest

from adjudicator.orders import KEYWORD_LANGUAGES, parse_orders
from adjudicator.orders.sets import Order
from adjudicator.rulesets.empires.orders import (
    REFRESH_IF_NONE,
    REFRESH_YES,
    AmbushOrder,
    Attack,
    BuildFort,
    DefendOrder,
    Diplomacy,
    Disband,
    FortChoice,
    LossesOrder,
    MarkersOrder,
    PlaceChoice,
    PlaceControl,
    PlaceTrade,
    PlanLine,
    Recruit,
    StackOrder,
    StartChoice,
    TradeTarget,
    canonical,
)
from adjudicator.rulesets.empires.parse import OrderLanguage
from tests.eaw_helpers import small_data

ORDERS: list[Order] = [
    StartChoice(("ITA", "GAL", "SIC")),
    PlaceChoice(("MCE", "SIC")),
    FortChoice(("ITA", "GAL")),
    FortChoice(("SIC",)),
    PlanLine(
        (
            Attack("GAL", "RAE", ("pike", "archer"), then=(PlaceTrade((TradeTarget("GAL"),)), Recruit(("best",)))),
            Attack("SIC", "ITA"),
        )
    ),
    PlanLine((Diplomacy("NUM"), Diplomacy("NUM", remove=True, pay=0), Diplomacy("EGY", remove=True))),
    PlanLine((Recruit(("archer", "spear", "best"), REFRESH_IF_NONE), Recruit((), REFRESH_YES), Recruit())),
    PlanLine((Disband("pike"), BuildFort("GAL"), PlaceControl("GAL"))),
    PlanLine((PlaceTrade((TradeTarget("GAL"), TradeTarget("RAE", "blue"), TradeTarget("ITA", ""))),)),
    DefendOrder(True, "GAL"),
    DefendOrder(False),
    AmbushOrder(True, "ITA"),
    AmbushOrder(False),
    StackOrder(("galley", "catapult"), "naval", "defend"),
    StackOrder(("pike",)),
    MarkersOrder(True),
    MarkersOrder(False),
    LossesOrder(("archer", "pike")),
]


@cache
def language() -> OrderLanguage:
    return OrderLanguage(small_data(), seats=("red", "blue", "green"))


@pytest.mark.parametrize("code", KEYWORD_LANGUAGES)
def test_EAW_12_every_order_written_back_parses_to_itself(code: str) -> None:
    lines = [canonical(order, code) for order in ORDERS]
    result = parse_orders("\n".join(["GAME g TURN 1 PLAYER red PASSWORD x", *lines]), language())
    assert not result.errors, [e.located for e in result.errors]
    assert [replace(o, line=0, text="") for o in result.orders] == ORDERS


def test_EAW_12_lines_are_written_in_the_readers_keywords() -> None:
    order = PlanLine((Attack("GAL", "RAE", ("pike",)), PlaceControl("RAE")))
    assert canonical(order) == "ATTACK GAL FROM RAE WITH pike ELSE CONTROL RAE"
    assert canonical(order, "de") == "ANGRIFF GAL AUS RAE MIT pike SONST KONTROLLE RAE"
    assert canonical(StackOrder(("pike",), "siege", "defend"), "it") == "PILA ASSEDIO DIFENDI: pike"


def test_EAW_12_2_a_plan_line_survives_its_json() -> None:
    line = next(o for o in ORDERS if type(o) is PlanLine)
    assert isinstance(line, PlanLine)
    assert PlanLine.from_json(replace(line, line=4, text="x").to_json()) == replace(line, line=4, text="x")


def test_EAW_12_14_a_fort_line_kept_in_a_plan_is_a_plan_line_of_forts() -> None:
    line = FortChoice(("ITA", "GAL"), line=3, text="FORT ITA, GAL")
    assert PlanLine.from_json(line.to_json()) == PlanLine(
        (BuildFort("ITA"), BuildFort("GAL")), line=3, text="FORT ITA, GAL"
    )
    assert canonical(PlanLine((BuildFort("ITA"), BuildFort("GAL")))) == "FORT ITA ELSE FORT GAL"
    assert canonical(FortChoice(("ITA", "GAL")), "nl") == "FORT ITA, GAL"
