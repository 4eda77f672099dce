"""The order parser's public loop (orders/lalr.py `PublicParser`: Lark's public API alone) gives what `Lark.parse`
gives, and the messages players read are the same through it as through the fused loop; `line_parser` takes the
fused loop with the pinned Lark and the public loop where the fused loop does not apply (a token callback)."""

from __future__ import annotations

from typing import Any

import pytest
from lark import Lark, Token

from adjudicator.orders.builder import LineProblem
from adjudicator.orders.lalr import Driver, OrderLexer, PublicParser, line_parser
from adjudicator.orders.parser import _entry, _parse_line, grammar_text
from adjudicator.rulesets import load_ruleset
from adjudicator.rulesets.coe.parse import CoeBuilder
from tests.test_fast_paths import RULESETS, _lines, _outcome

STARTS = ("order", "header")


def _message(parser: Driver | PublicParser, line: str, start: str) -> Any:
    """What a player reads of a line: the orders it makes, or the column, message and kind of its problem."""
    try:
        made = _parse_line(parser, line, start)
    except LineProblem as p:
        return p.column, p.message, p.kind
    items = made if isinstance(made, list) else [made]
    return [(m.func, m.args, m.keywords) for m in items]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_fused_loop_runs_with_the_pinned_lark(ruleset: str) -> None:
    assert isinstance(_entry(load_ruleset(ruleset))[2], Driver)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_public_loop_parses_as_lark(ruleset: str) -> None:
    _, lark, driver = _entry(load_ruleset(ruleset))
    public = PublicParser(lark, driver.described)
    for line in _lines():
        for start in STARTS:
            ours = _outcome(lambda line=line, start=start: public.parse(line, start))
            theirs = _outcome(lambda line=line, start=start: lark.parse(line, start=start))
            assert ours == theirs, line


@pytest.mark.parametrize("ruleset", RULESETS)
def test_players_read_the_same_through_either_loop(ruleset: str) -> None:
    _, lark, driver = _entry(load_ruleset(ruleset))
    public = PublicParser(lark, driver.described)
    errors = 0
    for line in _lines():
        for start in STARTS:
            fused = _message(driver, line, start)
            assert _message(public, line, start) == fused, line
            errors += isinstance(fused, tuple)
    assert errors > 300  # the lines hold many errors: did-you-mean, unexpected words, incomplete orders


class _CountingBuilder(CoeBuilder):
    """A builder with a token callback (Lark calls it at each NUMBER it shifts), which the fused loop refuses."""

    def NUMBER(self, token: Token) -> Token:  # noqa: N802 - Lark names a token callback after its terminal
        self.numbers += 1
        return token

    numbers = 0


def test_a_grammar_the_fused_loop_cannot_run_falls_back_to_the_public_loop() -> None:
    ruleset = load_ruleset("coe-classic")
    builder = _CountingBuilder(ruleset)
    lark = Lark(
        grammar_text(tuple(ruleset.grammar_files)),
        parser="lalr",
        lexer=OrderLexer,
        start=list(STARTS),
        transformer=builder,
    )
    parser = line_parser(lark, builder.described)
    assert type(parser) is PublicParser
    move = parser.parse("MOVE G2 WITH 3 INF 2 CAV: ITA -> NAR", "order")
    assert builder.numbers == 2
    assert move(line=2, text="") == _entry(ruleset)[2].parse("MOVE G2 WITH 3 INF 2 CAV: ITA -> NAR", "order")(
        line=2, text=""
    )
    assert _message(parser, "MOVE G2 WTH 3 INF: ITA -> NAR", "order") == (
        9,
        "unexpected 'WTH' (did you mean WITH?)",
        "invalid",
    )
