"""Order parsing throughput on a 10,000-line turn file. Target: at least 20,000 orders/s.

Run from the repository root: python -m bench.parse [--lines 10000] [--runs 5] [--way fused|public|lark]
Reports the median of the runs (the figure judged against the target) and their spread (best and worst).
--way picks the loop each line goes through (orders/lalr.py): the fused loop (what the parser uses), Lark's
public API alone (PublicParser: what it falls back to), or Lark.parse; everything else is the same.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from adjudicator.orders import parse_turn_file
from adjudicator.orders import parser as order_parser
from adjudicator.orders.lalr import PublicParser
from adjudicator.rulesets import Ruleset, load_ruleset

TARGET = 20_000  # orders per second
LINES = [
    "MOVE G2 WITH 3 INF 2 CAV: ITA -> NAR -> GER",
    "MOVE CAESAR: ITA => NEA",
    "SAIL GALLEY 1: ITA -> TYR -> SIC CARRYING G1 WITH 4 INF",
    "BUY 4 INF, 1 GALLEY AT ITA COAST ADR, CITY AT NAR, ROAD NAR-ITA",
    "DESTROY CITY NEA",
    "LOSSES CAV, INF, CAT",
    "RETREAT FROM NAR TO ITA WHEN UNITS < 3",
    "CAPTIVES RANSOM",
    "NAVAL TYR VS Egyptus",
    "PRESS TO Egyptus: shall we talk?",
]


def turn_file(lines: int) -> str:
    header = "GAME bench TURN 1 PLAYER Italia PASSWORD x"
    body = [LINES[i % len(LINES)] for i in range(lines - 1)]
    return "\n".join([header, *body]) + "\n"


class _LarkParse:
    """A line parser that calls Lark.parse (the custom lexer's lex, Lark's own loop)."""

    def __init__(self, public: PublicParser) -> None:
        self.lark, self.described = public.lark, public.described

    def parse(self, line: str, start: str) -> Any:
        return self.lark.parse(line, start=start)


def use_way(ruleset: Ruleset, way: str) -> None:
    """Make the parser send `ruleset`'s lines through the loop `way` names (the parser's cache, for this run)."""
    if way == "fused":
        return
    _, lark, fused = order_parser._entry(ruleset)
    public = PublicParser(lark, fused.described)
    order_parser._PARSERS[id(ruleset)] = (ruleset, lark, public if way == "public" else _LarkParse(public))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--lines", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--way", choices=["fused", "public", "lark"], default="fused")
    options = parser.parse_args()
    lines = options.lines
    ruleset = load_ruleset("coe-classic")
    text = turn_file(lines)
    parse_turn_file("GAME b TURN 1 PLAYER Italia PASSWORD x\nBUY 1 INF\n", ruleset)  # build the parser once
    use_way(ruleset, options.way)
    times = []
    for _ in range(max(1, options.runs)):
        start = time.perf_counter()
        (block,) = parse_turn_file(text, ruleset)
        times.append(time.perf_counter() - start)
    assert not block.errors and len(block.orders) == lines - 1
    median = statistics.median(times)
    rate = (lines - 1) / median
    way = "" if options.way == "fused" else f"{options.way} loop: "  # the parser's own loop: no prefix
    print(
        way
        + f"{lines - 1} orders in {median * 1000:.0f} ms (median of {len(times)} runs; spread {min(times) * 1000:.0f}"
        f"-{max(times) * 1000:.0f} ms, {(lines - 1) / max(times):,.0f}-{(lines - 1) / min(times):,.0f} orders/s): "
        f"{rate:,.0f} orders/s (target >= {TARGET:,}: {'met' if rate >= TARGET else 'NOT met'})"
    )


if __name__ == "__main__":
    main()
