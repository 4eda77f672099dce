"""What every game's order language shares: order sets, keywords, Lark loading, errors players can read.

The parser's names load Lark on first use, so that a module needing only the order types starts fast.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from adjudicator.orders.keywords import KEYWORD_LANGUAGES

if TYPE_CHECKING:
    from adjudicator.orders.parser import MISSING_HEADER, parse_orders, parse_turn_file, split_blocks

__all__ = ["KEYWORD_LANGUAGES", "MISSING_HEADER", "parse_orders", "parse_turn_file", "split_blocks"]
_PARSER_NAMES = {"MISSING_HEADER", "parse_orders", "parse_turn_file", "split_blocks"}


def __getattr__(name: str) -> Any:
    if name in _PARSER_NAMES:
        from adjudicator.orders import parser

        return getattr(parser, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
