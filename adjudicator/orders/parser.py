"""The order-language parser every game shares: order mails -> order sets, and errors players can read.

A ruleset names its grammar files and supplies the builder of its orders (the protocol's `grammar_files` and
`order_builder`); this module loads the grammar with Lark, lexes keywords in four languages, handles the header,
end mark and comments of an order set, and explains syntax errors with line, column and "did you mean".
"""

from __future__ import annotations

import difflib
import re
import sys
import threading
import unicodedata
from collections.abc import Callable
from functools import cache, cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from adjudicator.orders.builder import CommonBuilder, LineProblem, either, quote
from adjudicator.orders.keywords import (
    KEYWORD_LANGUAGES,
    UnknownLanguage,
    display,
    keyword_of,
    keyword_table,
    language_code,
    spellings,
    terminal_declarations,
)
from adjudicator.orders.sets import Header, Order, OrderError, OrderSet, Withdraw
from adjudicator.orders.tables import TableDriver, tables_of
from adjudicator.resources import kept

# Lark is loaded where a parser is built from the grammar or a syntax error is explained: a line parsed from kept
# tables (tables.py) needs none of it.
if TYPE_CHECKING:
    from lark import Lark
    from lark.exceptions import UnexpectedInput

    from adjudicator.orders.lalr import Driver, PublicParser
    from adjudicator.rulesets import Ruleset

Languages = Callable[[], tuple[str, ...]]  # the keyword languages to suggest from, the writer's first


def _english_first() -> tuple[str, ...]:
    return KEYWORD_LANGUAGES


HEADER_FORMAT = "GAME <game> TURN <n> PLAYER <seat> PASSWORD <password>"
MISSING_HEADER = f"missing header: the first order line must be '{HEADER_FORMAT}'"

# How errors name the punctuation of common.lark.
_SYMBOLS = {
    "_AT_LEAST": ">=",
    "_COMMA": "','",
    "_COLON": ":",
    "_ARROW": "->",
    "_ROAD_ARROW": "=>",
    "_DASH": "-",
    "_LESS": "<",
}


# ---------------------------------------------------------------------------------------------- parser


@cache
def grammar_text(files: tuple[Path, ...], ruleset: str | None = None) -> str:
    """The full grammar: the declarations of `ruleset`'s keywords, then the grammar files it names."""
    parts = [terminal_declarations(ruleset)] + [path.read_text(encoding="utf-8") for path in files]
    return "\n".join(parts)


_PARSERS: dict[int, tuple[Ruleset, Lark, Driver | PublicParser]] = {}
_PARSERS_LOCK = threading.Lock()


def _entry(ruleset: Ruleset) -> tuple[Ruleset, Lark, Driver | PublicParser]:
    """The LALR parser for `ruleset` and its line parser (lalr.py), built once from the ruleset's grammar files and
    builder (the protocol's `grammar_files` and `order_builder`; the builder resolves that ruleset's names)."""
    entry = _PARSERS.get(id(ruleset))
    if entry is None or entry[0] is not ruleset:
        with _PARSERS_LOCK:
            entry = _PARSERS.get(id(ruleset))
            if entry is None or entry[0] is not ruleset:
                from lark import Lark

                from adjudicator.orders.lalr import OrderLexer, line_parser

                builder: CommonBuilder = ruleset.order_builder()
                parser = Lark(
                    grammar_text(tuple(ruleset.grammar_files), ruleset.name),
                    parser="lalr",
                    lexer=OrderLexer.of(ruleset.name),  # the lexer reads this ruleset's keyword table
                    start=["header", "order"],
                    cache=True,
                    transformer=builder,
                )
                # keeping the ruleset in the entry keeps its id from being reused by another
                line = line_parser(parser, builder.described)
                line.ruleset_name = ruleset.name  # errors name and suggest this ruleset's keywords
                entry = _PARSERS[id(ruleset)] = (ruleset, parser, line)
    return entry


_LINES: dict[int, tuple[Ruleset, TableDriver | Driver | PublicParser]] = {}
_LINES_LOCK = threading.Lock()  # taken before _PARSERS_LOCK, where the tables are made from the Lark-built parser


def _line_parser(ruleset: Ruleset) -> TableDriver | Driver | PublicParser:
    """The line parser of `ruleset`: the fused loop over its tables as kept in the cache folder (tables.py), without
    Lark; where none are kept, they are made from the Lark-built parser (`_entry`) and kept for the next process;
    where they cannot be (a callback tables.py cannot make again), the Lark-built parser itself."""
    entry = _LINES.get(id(ruleset))
    if entry is None or entry[0] is not ruleset:
        with _LINES_LOCK:
            entry = _LINES.get(id(ruleset))
            if entry is None or entry[0] is not ruleset:
                entry = _LINES[id(ruleset)] = (ruleset, _table_parser(ruleset) or _entry(ruleset)[2])
    return entry[1]


def _table_parser(ruleset: Ruleset) -> TableDriver | None:
    builder: CommonBuilder = ruleset.order_builder()
    words = keyword_of(ruleset.name)
    source = "\0".join(
        [
            grammar_text(tuple(ruleset.grammar_files), ruleset.name),
            ruleset.name,
            f"{type(builder).__module__}.{type(builder).__qualname__}",
            " ".join(sorted(name for name in dir(type(builder)) if not name.startswith("__"))),
            repr(sorted(words.items())),
            _lark_version(),
        ]
    )

    def made() -> dict[str, Any] | None:
        from adjudicator.orders.lalr import Driver

        _, lark, line = _entry(ruleset)
        return tables_of(line, lark.options.transformer) if isinstance(line, Driver) else None

    tables = kept("lalr-tables", source.encode(), made)
    if tables is None:
        return None
    parser = TableDriver(tables, builder, words, lambda: _entry(ruleset)[2])
    parser.ruleset_name = ruleset.name  # errors name and suggest this ruleset's keywords
    return parser


@cache
def _lark_version() -> str:
    """The version line of the installed Lark, read without importing it (the tables are Lark's)."""
    for folder in sys.path:
        path = Path(folder or ".") / "lark" / "__init__.py"
        if path.is_file():
            return next((line for line in path.read_text().splitlines() if "__version__" in line), str(path))
    return ""


def shadowed_names(ruleset: Ruleset) -> list[str]:
    """Keyword spellings that hide an area or seat where the parser accepts both (there should be none)."""
    from adjudicator.orders.lalr import parse_states

    states = parse_states(_entry(ruleset)[1])
    found = set()
    for actions in states.values():
        for kind, lookup in (("AREA", ruleset.board.lookup), ("SEAT", ruleset.lookup_seat)):
            if kind not in actions:
                continue
            for name in (n for n in actions if n in keyword_table(ruleset.name)):
                for spelling in spellings(name, ruleset.name):
                    if len(hits := lookup(spelling)) == 1:
                        found.add(f"{spelling} ({name}) hides {kind.lower()} {hits[0]}")
    return sorted(found)


def _expected(names: set[str] | frozenset[str], described: dict[str, str], ruleset: str | None = None) -> str:
    """Plain words for what the parser expected: 'an area, a number or one of: WITH, :'."""
    words = [text for name, text in described.items() if name in names]
    table = keyword_table(ruleset)
    keywords = sorted(display(n, ruleset) for n in names if n in table)
    keywords += [text for name, text in _SYMBOLS.items() if name in names]
    if "$END" in names:
        keywords.append("the end of the line")
    if len(keywords) > 1:
        words.append("one of: " + ", ".join(keywords))
    else:
        words += keywords
    return either(words) if words else "nothing more"


def _suggest(
    word: str, names: set[str] | frozenset[str], languages: tuple[str, ...], ruleset: str | None = None
) -> str | None:
    """The accepted keyword spelling nearest to `word`, among the keywords expected there: of the first of
    `languages` that has one close enough (the writer's language first: BAZZAR is BAZAAR in English, BAZAR in
    Italian)."""
    table = keyword_table(ruleset)
    typed = word.upper()
    for language in languages:
        candidates = sorted({s for n in names if n in table for s in table[n][language]})
        if not candidates:
            continue
        close = difflib.get_close_matches(typed, candidates, n=len(candidates), cutoff=0.6)
        if close:
            # of the close ones, the fewest slips of the pen: ZIEEH is ZIEHE with two letters swapped, not ZIELE,
            # which difflib rates as close; its order breaks a tie
            return min(close, key=lambda spelling: _slips(typed, spelling))
    return None


def _slips(typed: str, meant: str) -> int:
    """How many letters were left out, added, changed or swapped with their neighbour to write `meant` as `typed`
    (the optimal string alignment distance)."""
    rows = [list(range(len(meant) + 1))]
    for i, a in enumerate(typed, 1):
        row = [i]
        for j, b in enumerate(meant, 1):
            row.append(min(rows[-1][j] + 1, row[j - 1] + 1, rows[-1][j - 1] + (a != b)))
            if i > 1 and j > 1 and a == meant[j - 2] and typed[i - 2] == b:
                row[j] = min(row[j], rows[-2][j - 2] + 1)
        rows.append(row)
    return rows[-1][-1]


@cache
def _languages_of_spelling() -> dict[str, tuple[str, ...]]:
    """Case-folded keyword spelling -> the languages that write it."""
    found: dict[str, list[str]] = {}
    for by_language in keyword_table().values():
        for language, words in by_language.items():
            for word in words:
                found.setdefault(word.casefold(), []).append(language)
    return {word: tuple(dict.fromkeys(languages)) for word, languages in found.items()}


def writers_languages(lines: list[str]) -> tuple[str, ...]:
    """Every keyword language, the order set's writer's most likely first: a LANGUAGE line's language, then the
    languages of the most keywords written in the set (header included); English first on a tie."""
    count = dict.fromkeys(KEYWORD_LANGUAGES, 0)
    of_spelling = _languages_of_spelling()
    for line in lines:
        words = re.findall(r"\w+", line.split("#", 1)[0])
        if len(words) > 1 and keyword_of().get(words[0].casefold()) == "LANGUAGE":
            try:
                count[language_code(words[1])] += len(line)  # said outright: more than any count of words
            except UnknownLanguage:
                pass
        for word in words:
            for language in of_spelling.get(word.casefold(), ()):
                count[language] += 1
    return tuple(sorted(KEYWORD_LANGUAGES, key=lambda language: -count[language]))


def _really_expected(e: UnexpectedInput, names: set[str] | frozenset[str]) -> set[str] | frozenset[str]:
    """The terminals the parser could really take next.

    An LALR state may list more (lookaheads merged from other orders: FOR after 'MOVE G1'), so each
    is tried on a copy of the parser; only on errors, so the cost does not matter.
    """
    from lark import Token
    from lark.exceptions import UnexpectedInput

    from adjudicator.orders.lalr import _Token

    interactive = getattr(e, "interactive_parser", None)
    if interactive is None:
        return names
    real = set()
    for name in names:
        probe = interactive.copy()
        try:
            probe.feed_token(Token.__new__(_Token, name, ""))  # Lark's Token(name, ""), of the lexer's class
        except (UnexpectedInput, LineProblem):
            continue
        real.add(name)
    return real or names


def _syntax_problem(
    e: UnexpectedInput,
    line: str,
    start: str,
    described: dict[str, str],
    languages: Languages,
    ruleset: str | None = None,
) -> LineProblem:
    """Turn Lark's exception into a message that names the offending text."""
    from lark.exceptions import UnexpectedCharacters, UnexpectedToken

    if isinstance(e, UnexpectedToken):
        token = e.token
        expected = _really_expected(e, e.expected)
        if token.type == "$END":
            # $END borrows the position of the last token read
            last = line[token.start_pos : token.end_pos] if token.end_pos else ""
            after = f" after {quote(last)}" if last else ""
            what = "header" if start == "header" else "order"
            column = token.end_column or len(line) + 1
            return LineProblem(column, f"incomplete {what}: expected {_expected(expected, described, ruleset)}{after}")
        word = str(token)
        hint = None
        if token.type not in expected and token.type not in keyword_table(ruleset):
            hint = _suggest(word, expected, languages(), ruleset)
        if hint:
            return LineProblem(token.column, f"unexpected {quote(word)} (did you mean {hint}?)")
        return LineProblem(
            token.column, f"unexpected {quote(word)}: expected {_expected(expected, described, ruleset)}"
        )
    if isinstance(e, UnexpectedCharacters):
        rest = line[e.pos_in_stream :]
        word = rest.split(None, 1)[0] if rest.strip() else rest[:1]
        expected = _really_expected(e, e.allowed or set())
        return LineProblem(e.column, f"unexpected {quote(word)}: expected {_expected(expected, described, ruleset)}")
    return LineProblem(1, "this line could not be understood")


def _parse_line(
    parser: TableDriver | Driver | PublicParser, line: str, start: str, languages: Languages = _english_first
) -> Any:
    """Parse one line; raises LineProblem for anything wrong with it (suggestions in `languages` first)."""
    try:
        return parser.parse(line, start=start)
    except LineProblem:
        raise
    except Exception as e:  # a player's line must never stop the whole order set
        lark = sys.modules.get("lark.exceptions")  # loaded by the parser that raised a syntax error
        if lark is not None and isinstance(e, lark.UnexpectedInput):
            ruleset = getattr(parser, "ruleset_name", None)
            raise _syntax_problem(e, line, start, parser.described, languages, ruleset) from None
        raise LineProblem(1, f"this line could not be understood ({type(e).__name__})") from e


# ---------------------------------------------------------------------------------------------- sets


def _lines(text: str) -> list[str]:
    """Lines as players see them: numbered from 1, without line ends, Unicode-normalised."""
    if text.startswith("\ufeff"):
        text = text[1:]
    return [unicodedata.normalize("NFC", line.rstrip("\r")) for line in text.split("\n")]


def _is_content(line: str) -> bool:
    stripped = line.strip()
    return bool(stripped) and not stripped.startswith("#")


_FIRST_WORD = re.compile(r"\s*(\w+)")


# The marks below take the keyword table (keyword_of()) from a caller that reads many lines: looking it up reads the
# environment, once per line otherwise.


def _is_header(line: str, words: dict[str, str] | None = None) -> bool:
    m = _FIRST_WORD.match(line)
    return m is not None and (words or keyword_of()).get(m.group(1).casefold()) == "GAME"


_END_MARK = re.compile(r"\s*(\w+)\s*\.?\s*(#.*)?")


def _is_end(line: str, words: dict[str, str] | None = None) -> bool:
    """END (ENDE, FINE, EINDE) alone on a line: the orders end there, a signature may follow."""
    m = _END_MARK.fullmatch(line)
    return m is not None and (words or keyword_of()).get(m.group(1).casefold()) == "END"


def _is_withdraw(line: str, words: dict[str, str] | None = None) -> bool:
    """WITHDRAW (WIDERRUFEN, ANNULLA, INTREKKEN) alone on a line: the seat takes back its orders for the turn."""
    m = _END_MARK.fullmatch(line)
    return m is not None and (words or keyword_of()).get(m.group(1).casefold()) == "WITHDRAW"


def _before_end(lines: list[str], start: int = 0, words: dict[str, str] | None = None) -> list[str]:
    """The lines up to the first end mark at or after `start` (all lines when there is none)."""
    words = words or keyword_of()
    end = next((i for i in range(start, len(lines)) if _is_end(lines[i], words)), len(lines))
    return lines[:end]


def _error(number: int, column: int, message: str, line: str, kind: str = "invalid") -> OrderError:
    return OrderError(number, column, message, kind, line.strip())


class _SetBuilder:
    """Collects one seat's header, orders and errors."""

    def __init__(self, ruleset: Ruleset, lines: list[str]) -> None:
        self.parser = _line_parser(ruleset)
        self.lines = lines
        self.header: Header | None = None
        self.orders: list[Order] = []
        self.errors: list[OrderError] = []
        self.words = keyword_of()

    @cached_property
    def writers_languages(self) -> tuple[str, ...]:
        return writers_languages(self.lines)  # worked out only when a syntax error needs a suggestion

    def languages(self) -> tuple[str, ...]:
        return self.writers_languages

    def add_header(self, number: int, line: str) -> None:
        try:
            self.header = _parse_line(self.parser, line, "header", self.languages)(line=number)
        except LineProblem as p:
            self.errors.append(_error(number, p.column, p.message, line, p.kind))

    def add_order(self, number: int, line: str) -> None:
        if _is_withdraw(line, self.words):  # every game's, like the end mark: no ruleset grammar needs to know it
            self.orders.append(Withdraw(line=number, text=line.strip()))
            return
        try:
            made = _parse_line(self.parser, line, "order", self.languages)
        except LineProblem as p:
            self.errors.append(_error(number, p.column, p.message, line, p.kind))
            return
        text = line.strip()
        for make in made if isinstance(made, list) else [made]:
            self.orders.append(make(line=number, text=text))

    def result(self, source: str) -> OrderSet:
        return OrderSet(self.header, tuple(self.orders), tuple(sorted(self.errors, key=_error_key)), source)


def _error_key(e: OrderError) -> tuple[int, int]:
    return e.line, e.column


def _missing_header(builder: _SetBuilder, lines: list[str], first: int) -> None:
    number = next((first + i for i, line in enumerate(lines) if _is_content(line)), first)
    text = lines[number - first] if number - first < len(lines) else ""
    builder.errors.append(_error(number, 1, MISSING_HEADER, text))


def _stray(builder: _SetBuilder, number: int, line: str) -> None:
    builder.errors.append(_error(number, 1, "text before the GAME header line belongs to no order set", line))


def parse_orders(text: str, ruleset: Ruleset) -> OrderSet:
    """Parse one seat's order set; every problem becomes an OrderError, good lines are kept."""
    lines = _lines(text)
    words = keyword_of()
    header_at = next((i for i, line in enumerate(lines) if _is_header(line, words)), None)
    lines = _before_end(lines, header_at or 0, words)
    builder = _SetBuilder(ruleset, lines)
    if header_at is None:
        _missing_header(builder, lines, 1)
    for i, line in enumerate(lines):
        if not _is_content(line):
            continue
        if header_at is not None and i < header_at:
            _stray(builder, i + 1, line)
        elif i == header_at:
            builder.add_header(i + 1, line)
        elif _is_header(line, words):
            builder.errors.append(
                _error(i + 1, 1, "a second header: send each seat's orders as a separate order set", line)
            )
        else:
            builder.add_order(i + 1, line)
    return builder.result(text)


def split_blocks(text: str) -> list[tuple[int, str]]:
    """Split a turn file into (first line number, text) blocks, each starting at a GAME header line.

    Lines before the first header form a first block of their own when they hold more than blank
    lines and comments; a text without any header is one block.
    """
    lines = _lines(text)
    starts = [i for i, line in enumerate(lines) if _is_header(line)]
    if not starts:
        return [(1, "\n".join(lines))]
    blocks = []
    if any(_is_content(line) for line in lines[: starts[0]]):
        blocks.append((1, "\n".join(lines[: starts[0]])))
    for begin, end in zip(starts, [*starts[1:], len(lines)], strict=True):
        blocks.append((begin + 1, "\n".join(lines[begin:end])))
    return blocks


def parse_turn_file(text: str, ruleset: Ruleset) -> list[OrderSet]:
    """Parse a file holding several seats' order sets; line numbers count from the top of the file."""
    blocks = split_blocks(text)
    stray: list[tuple[int, str]] = []
    if not _is_header(blocks[0][1].split("\n", 1)[0]) and len(blocks) > 1:
        first, preamble = blocks.pop(0)
        stray = [(first + i, line) for i, line in enumerate(preamble.split("\n")) if _is_content(line)]
    sets = []
    for first, block in blocks:
        lines = _before_end(block.split("\n"))
        builder = _SetBuilder(ruleset, lines)
        for number, line in stray:
            _stray(builder, number, line)
        stray = []
        if _is_header(lines[0]):
            builder.add_header(first, lines[0])
            body = list(enumerate(lines[1:], first + 1))
        else:
            _missing_header(builder, lines, first)
            body = list(enumerate(lines, first))
        for number, line in body:
            if _is_content(line):
                builder.add_order(number, line)
        sets.append(builder.result(block))
    return sets
