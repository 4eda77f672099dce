"""Orders of Empires of the Ancient World written back as lines (`canonical`: reports, the orders template, answers)
parse to the same orders in each of the four keyword languages; a plan line survives its JSON (Player.plan); a FORT
line is read as the step it is sent to needs it (EAW-12.14 in the placement step, EAW-7.25 in a plan)."""

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
    for_step,
)
from adjudicator.rulesets.empires.parse import OrderLanguage
from tests.eaw_helpers import small_data

ORDERS: list[Order] = [
    StartChoice(("ITA", "GAL", "SIC")),
    PlaceChoice(("MCE", "SIC")),
    FortChoice(("ITA", "GAL")),
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
    line = ORDERS[3]
    assert isinstance(line, PlanLine)
    assert PlanLine.from_json(replace(line, line=4, text="x").to_json()) == replace(line, line=4, text="x")


def test_EAW_12_14_fort_lines_as_each_step_reads_them() -> None:
    one = PlanLine((BuildFort("ITA"),), line=3, text="FORT ITA")
    assert for_step(one, placement=True) == FortChoice(("ITA",), line=3, text="FORT ITA")
    assert for_step(one, placement=False) is one
    listed = FortChoice(("ITA", "GAL"), line=3, text="FORT ITA, GAL")
    assert for_step(listed, placement=True) is listed
    assert for_step(listed, placement=False) == PlanLine(
        (BuildFort("ITA"), BuildFort("GAL")), line=3, text="FORT ITA, GAL"
    )
    other = PlanLine((BuildFort("ITA"), PlaceControl("ITA")))
    assert for_step(other, placement=True) is other
