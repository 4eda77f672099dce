"""The order parser's two loops: a contextual lexer for keywords in four languages, fed to Lark's LALR parser
through its public API (`PublicParser`), or fused with a copy of Lark's LALR loop (`Driver`, the fast path).

`PublicParser` uses only Lark's public API: `Lark.parse_interactive`, the interactive parser's `choices()`
(which terminals the current state takes: the lexer's context), `feed_token` and `feed_eof`, and Lark's
exceptions with their `interactive_parser`. It gives exactly what `Lark.parse` gives, errors included, but it
is about 1.5 times slower than the fused loop (python -m bench.parse --way public), which a big turn file or a
tick of many games feels. So `Driver` is this project's one reader of Lark's internals (the parse table, the
rule callbacks): it does the same shifts and reductions from plain tables, and hands every line it cannot lex
or parse to `PublicParser`, so that every syntax error is Lark's own. `line_parser` falls back to
`PublicParser` alone where Lark's internals are not as the fused loop expects (another Lark version, a token
callback): slower, never wrong. tests/test_fast_paths.py and tests/test_public_parser.py check that both loops
agree with `Lark.parse` on hundreds of lines.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

from lark import Lark
from lark import Token as LarkToken
from lark.exceptions import UnexpectedCharacters, UnexpectedInput
from lark.lexer import Lexer, LexerState

from adjudicator.orders.keywords import keyword_of, keyword_table
from adjudicator.orders.tables import Loop, NoToken, Reduce, Scanner, Scanners, Token, accepted, new_token


class _Token(LarkToken, Token):
    """A Lark token built without Lark's argument checks (the lexer makes many of them); also a tables.Token, which
    the rulesets' builders test for."""

    __slots__ = ()

    __new__ = new_token

    def __deepcopy__(self, memo: Any) -> _Token:
        """Lark's copy (an interactive parser copies its values when it explains an error), of this class."""
        return LarkToken.__new__(_Token, self.type, self.value, self.start_pos, self.line, self.column)


class OrderLexer(Lexer):
    """Contextual lexer: non-keyword terminals come from the grammar, keywords from the keyword table.

    Like Lark's contextual lexer it prefers what the parser accepts in its current state, but it reads
    a word once and looks it up in a dict instead of trying one regex per keyword: much faster.
    Lark builds it from the grammar (the `lexer=` option, Lark's custom-lexer interface).
    """

    __future_interface__ = 2
    ruleset: str | None = None  # whose keyword table it reads (`of`)

    @classmethod
    @cache
    def of(cls, ruleset: str) -> type[OrderLexer]:
        """The lexer of `ruleset`'s keywords: a subclass, as Lark builds its lexer from a class; its name is stable,
        so that Lark's grammar cache, which names the lexer class, is found again by the next process."""
        name = "OrderLexer_" + re.sub(r"\W", "_", ruleset)
        # kept as a module name: Lark pickles its options, the lexer class among them, by name
        made = globals()[name] = type(name, (cls,), {"ruleset": ruleset, "__module__": cls.__module__})
        return made

    def __init__(self, conf: Any) -> None:
        keywords = keyword_table(self.ruleset)
        self.ignore = frozenset(conf.ignore)
        terminals = sorted(
            (t for t in conf.terminals if t.name not in keywords),
            key=lambda t: (-t.priority, -t.pattern.max_width, -len(t.pattern.value), t.name),
        )
        self.keywords = keyword_of(self.ruleset)
        # Terminals that can read a keyword (AREA, SECRET, ...): the lexer decides which one it is.
        self.wordish = frozenset(
            t.name
            for t in terminals
            if any(map(re.compile(t.pattern.to_regexp()).fullmatch, self.keywords))  # one compile per terminal
        )
        self.scan = Scanners(
            [(t.name, t.pattern.to_regexp()) for t in terminals], self.ignore, self.wordish, self.keywords
        )
        self.scanners: dict[Any, Scanner] = {}  # parser state number -> its scanner
        self.rows: dict[int, tuple[dict[str, Any], Scanner]] = {}  # id(a state's actions) -> them, their scanner

    def _scanner(self, state: Any, actions: dict[str, Any]) -> Scanner:
        """The scanner of parser state `state` (whose actions are `actions`), made once."""
        scanner = self.scanners[state] = self.scan.scanner(accepted(actions))
        return scanner

    def row_scanner(self, actions: dict[str, Any]) -> Scanner:
        """The scanner of the state whose actions are `actions`, as an interactive parser's choices() gives them.

        choices() gives the parse table's own row, the same dict at every visit of a state: it is known by
        its id, checked to be the same dict (an id may be reused when a dict is not kept).
        """
        entry = self.rows.get(id(actions))
        if entry is None or entry[0] is not actions:
            if len(self.rows) > 10_000:  # rows not kept by the parser (another Lark): never grow without end
                self.rows.clear()
            entry = self.rows[id(actions)] = (actions, self.scan.scanner(accepted(actions)))
        return entry[1]

    def tokens(self, line: str, context: Callable[[], Scanner]) -> Iterator[Token]:
        """The tokens of `line`; `context()` gives the scanner of the parser's current state before each one."""
        try:
            yield from self.scan.tokens(line, context, _Token)
        except NoToken as stop:
            text = line.rstrip()
            raise UnexpectedCharacters(text, stop.pos, 1, stop.pos + 1, allowed=stop.accepts) from None

    def lex(self, lexer_state: LexerState, parser_state: Any) -> Iterator[Token]:
        """What `Lark.parse` calls (tests compare both loops with it); the parser state is Lark's."""
        states, stack, scanners = parser_state.parse_conf.states, parser_state.state_stack, self.scanners

        def context() -> Scanner:
            state = stack[-1]
            return scanners.get(state) or self._scanner(state, states[state])

        return self.tokens(lexer_state.text.text, context)


class PublicParser:
    """Parses one line through Lark's public API alone, with the order lexer; gives what `Lark.parse` gives.

    The builder's callbacks run inside Lark's loop (the `transformer=` option): no parse tree is built.
    """

    ruleset_name: str | None = None  # whose keywords errors name (parser.py)

    def __init__(self, lark: Lark, described: dict[str, str]) -> None:
        self.lark = lark
        self.described = described  # how errors name the terminals that are not keywords
        # the lexer Lark built from OrderLexer, as an interactive parser carries it
        self.lexer: OrderLexer = lark.parse_interactive(start=lark.options.start[0]).lexer_thread.lexer

    def parse(self, line: str, start: str) -> Any:
        """What `self.lark.parse(line, start=start)` returns; raises what it raises."""
        interactive = self.lark.parse_interactive(start=start)
        row_scanner, choices = self.lexer.row_scanner, interactive.choices
        token = None
        try:
            for token in self.lexer.tokens(line, lambda: row_scanner(choices())):
                interactive.feed_token(token)
            return interactive.feed_eof(token)  # $END borrows the last token's position, as in Lark.parse
        except UnexpectedInput as e:
            e.interactive_parser = interactive  # as Lark.parse does: where the parse stopped, to explain it
            raise


# What a Lark whose internals differ from those the fused loop reads would raise while it is built.
_OTHER_INTERNALS = (ImportError, AttributeError, AssertionError, KeyError, TypeError, ValueError)


def line_parser(lark: Lark, described: dict[str, str]) -> Driver | PublicParser:
    """The fused loop over `lark`'s tables, or Lark's public loop where those tables are not as it expects."""
    public = PublicParser(lark, described)
    try:
        return Driver(lark, public)
    except _OTHER_INTERNALS:
        return public


def parse_states(lark: Lark) -> dict[int, dict[str, Any]]:
    """Every state of `lark`'s parse table: its actions by symbol (Lark's internals; for checks of the keywords)."""
    return lark.parser.parser.parser.parse_table.states


class Driver(Loop):
    """Lark's LALR loop and OrderLexer fused into one loop (tables.py `Loop`), over Lark's own parse table and rule
    callbacks.

    Per token, Lark's loop resumes the lexer's generator and calls feed_token, which asserts, hashes the
    Rule objects to find their callbacks and reads attributes: about a third of all parsing time. This does
    the same shifts and reductions, with the same lexer decisions and callbacks, from plain precomputed
    tables. A line it cannot lex or parse is parsed again by `PublicParser`, so that every syntax error, its
    message and its interactive parser (used to explain it) are exactly Lark's.
    """

    ruleset_name: str | None = None  # whose keywords errors name (parser.py)
    token = _Token

    def __init__(self, lark: Lark, public: PublicParser) -> None:
        # Lark's internals: imported here, so that a Lark without them falls back to the public loop
        from lark.parse_tree_builder import ExpandSingleChild
        from lark.parsers.lalr_analysis import Shift

        self.lark = lark
        self.public = public
        self.described = public.described
        self.lexer = public.lexer
        self.scan = self.lexer.scan
        self._scanners = self.lexer.scanners  # shared with the lexer Lark runs: the same parse table
        parser = lark.parser.parser.parser  # lark.parsers.lalr_parser._Parser
        table, callbacks = parser.parse_table, parser.callbacks
        # Lark calls a token callback (a builder method named after a terminal) at each shift; this loop does not
        if any(isinstance(key, str) for key in callbacks):
            raise TypeError("the fused loop calls no token callbacks")
        self.start_states: dict[str, int] = dict(table.start_states)
        self.end_states: dict[str, int] = dict(table.end_states)
        ends = set(self.end_states.values())
        # state -> symbol -> the next state (a shift or goto) or a Reduce; None where Lark's loop would
        # fail an assertion (a token shifted into an end state), so that Lark reports it.
        self.actions: dict[int, dict[str, int | Reduce | None]] = {}
        self.rules: dict[tuple[int, str], Any] = {}  # (state, symbol) -> the Lark rule its Reduce reduces
        for state, acts in table.states.items():
            row: dict[str, int | Reduce | None] = {}
            for symbol, (action, arg) in acts.items():
                if action is Shift:
                    row[symbol] = None if symbol.isupper() and arg in ends else arg
                else:
                    size, callback = len(arg.expansion), callbacks[arg]
                    # a ?rule reduced from its single child returns that child: nothing to call
                    row[symbol] = (
                        size,
                        arg.origin.name,
                        None if size == 1 and type(callback) is ExpandSingleChild else callback,
                    )
                    self.rules[state, symbol] = callbacks[arg]
            self.actions[state] = row

    def failed(self, line: str, start: str) -> Any:
        return self.public.parse(line, start)  # raises Lark's exception
