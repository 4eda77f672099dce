"""The order language: parse order mails and turn files into typed orders (engine.orders)."""

from adjudicator.orders.keywords import KEYWORD_LANGUAGES
from adjudicator.orders.parser import MISSING_HEADER, parse_orders, parse_turn_file, split_blocks

__all__ = ["KEYWORD_LANGUAGES", "MISSING_HEADER", "parse_orders", "parse_turn_file", "split_blocks"]
