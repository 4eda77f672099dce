"""The order parser's loop over kept tables (orders/tables.py `TableDriver`): it reads every line as the fused loop
over Lark's own tables does, errors included (each word for word Lark's), and a process that parses good orders
from kept tables does not load Lark."""

from __future__ import annotations

import copy
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from adjudicator.orders.lalr import Driver
from adjudicator.orders.parser import _entry, _line_parser
from adjudicator.orders.tables import PlainToken, TableDriver, Token
from adjudicator.rulesets import load_ruleset
from tests.test_fast_paths import RULESETS, _lines, _outcome
from tests.test_public_parser import STARTS, _message


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_table_loop_reads_every_line_as_the_fused_loop(ruleset: str) -> None:
    rules = load_ruleset(ruleset)
    table = _line_parser(rules)
    _, lark, driver = _entry(rules)
    assert isinstance(table, TableDriver) and isinstance(driver, Driver)
    errors = 0
    for line in _lines():
        for start in STARTS:
            assert _outcome(lambda line=line, start=start: table.parse(line, start)) == _outcome(
                lambda line=line, start=start: lark.parse(line, start=start)
            ), line
            said = _message(table, line, start)
            assert said == _message(driver, line, start), line
            errors += isinstance(said, tuple)
    assert errors > 300  # the lines hold many errors: did-you-mean, unexpected words, incomplete orders


def test_tokens_are_the_builders_token_class_either_way() -> None:
    from lark import Token as LarkToken

    rules = load_ruleset("coe-classic")
    table, driver = _line_parser(rules), _entry(rules)[2]
    assert isinstance(table, TableDriver) and isinstance(driver, Driver)
    for parser in (table, driver):
        made = parser.parse("MOVE G1 WITH 2 INF: MAC -> THR", "order")
        assert made(line=1, text="") == table.parse("MOVE G1 WITH 2 INF: MAC -> THR", "order")(line=1, text="")
    token = table.token("AREA", "MAC", 0, 3)  # Lark is loaded in this process: a token of both classes
    assert isinstance(token, Token) and isinstance(token, LarkToken)
    plain = PlainToken("AREA", "MAC", 0, 3)
    assert plain == "MAC" and not plain == PlainToken("SEAT", "MAC", 0, 3) and repr(plain) == "Token('AREA', 'MAC')"
    assert (plain == PlainToken("SEAT", "MAC", 0, 3)) == (LarkToken("AREA", "MAC") == LarkToken("SEAT", "MAC"))
    copied, lark_copied = copy.deepcopy(plain), copy.deepcopy(token)
    assert (copied.type, copied.value, copied.column, copied.end_pos) == ("AREA", "MAC", 1, None)
    assert (lark_copied.type, lark_copied.column, lark_copied.end_pos, type(lark_copied)) == (
        "AREA",
        1,
        None,
        type(token),
    )
    unpickled = pickle.loads(pickle.dumps(plain))
    assert (type(unpickled), unpickled.type, unpickled.end_column) == (PlainToken, "AREA", 4)
    borrowed = Token.new_borrow_pos("FORTIFIED_CITY", "MAC X", plain)
    assert (borrowed.type, borrowed.column, borrowed.end_pos, type(borrowed)) == ("FORTIFIED_CITY", 1, 3, PlainToken)


PROGRAM = """
import sys
from adjudicator.orders import parse_orders
from adjudicator.rulesets import load_ruleset
rules = load_ruleset(sys.argv[1])
good = parse_orders("GAME g TURN 1 PLAYER Macedonia PASSWORD x\\nMOVE G1 WITH 2 INF: MAC -> THR\\nBUY 1 INF\\n", rules)
print(len(good.orders), len(good.errors), "lark" in sys.modules)
bad = parse_orders("GAME g TURN 1 PLAYER Macedonia PASSWORD x\\nMOVE G1 WTH 2 INF: MAC -> THR\\n", rules)
print([e.message for e in bad.errors], "lark" in sys.modules)
"""


@pytest.mark.parametrize("ruleset", RULESETS)
def test_good_orders_from_kept_tables_load_no_lark(ruleset: str, tmp_path: Path) -> None:
    env = os.environ | {"XDG_CACHE_HOME": str(tmp_path)}

    def run() -> list[str]:
        done = subprocess.run(
            [sys.executable, "-c", PROGRAM, ruleset], capture_output=True, text=True, env=env, check=True, timeout=60
        )
        return done.stdout.splitlines()

    first = run()  # makes the tables with Lark and keeps them
    assert first[0] == "2 0 True" and list(tmp_path.glob("pbem/lalr-tables/*.marshal"))
    second = run()
    assert second[0] == "2 0 False"  # the kept tables, no Lark
    assert second[1] == first[1] == """["unexpected 'WTH' (did you mean WITH?)"] True"""  # errors are Lark's
