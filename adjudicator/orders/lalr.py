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

from lark import Lark, Token
from lark.exceptions import UnexpectedCharacters, UnexpectedInput
from lark.lexer import Lexer, LexerState

from adjudicator.orders.keywords import keyword_of, keyword_table

# A lexer's context: the regex of a parser state (its accepted terminals first) and the terminals it accepts.
_Scanner = tuple[re.Pattern[str], frozenset[str]]


class _Token(Token):
    """A Lark token built without Lark's argument checks (the lexer makes many of them)."""

    __slots__ = ()

    def __new__(cls, kind: str, value: str, start: int, end: int) -> _Token:
        token = str.__new__(cls, value)
        token.type, token.value = kind, value
        token.start_pos, token.end_pos = start, end
        token.line = token.end_line = 1
        token.column, token.end_column = start + 1, end + 1
        return token


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
        self.terminals = sorted(
            (t for t in conf.terminals if t.name not in keywords),
            key=lambda t: (-t.priority, -t.pattern.max_width, -len(t.pattern.value), t.name),
        )
        self.keywords = keyword_of(self.ruleset)
        # Whitespace is skipped inside every token's regex: one match per token, not two.
        self.skip = "|".join(t.pattern.to_regexp() for t in self.terminals if t.name == "WS")
        # Terminals that can read a keyword (AREA, SECRET, ...): the lexer decides which one it is.
        self.wordish = frozenset(
            t.name
            for t in self.terminals
            if any(map(re.compile(t.pattern.to_regexp()).fullmatch, self.keywords))  # one compile per terminal
        )
        self.scanners: dict[Any, _Scanner] = {}  # parser state number -> its scanner
        self.rows: dict[int, tuple[dict[str, Any], _Scanner]] = {}  # id(a state's actions) -> them, their scanner

    def _scanner(self, state: Any, actions: dict[str, Any]) -> _Scanner:
        """The scanner of parser state `state` (whose actions are `actions`), made once."""
        scanner = self.scanners[state] = self._compile(actions)
        return scanner

    def row_scanner(self, actions: dict[str, Any]) -> _Scanner:
        """The scanner of the state whose actions are `actions`, as an interactive parser's choices() gives them.

        choices() gives the parse table's own row, the same dict at every visit of a state: it is known by
        its id, checked to be the same dict (an id may be reused when a dict is not kept).
        """
        entry = self.rows.get(id(actions))
        if entry is None or entry[0] is not actions:
            if len(self.rows) > 10_000:  # rows not kept by the parser (another Lark): never grow without end
                self.rows.clear()
            entry = self.rows[id(actions)] = (actions, self._compile(actions))
        return entry[1]

    def _compile(self, actions: dict[str, Any]) -> _Scanner:
        """One regex per parser state: accepted terminals first, then the rest (for error messages)."""
        accepts = frozenset(name for name in actions if name.isupper())
        first = [t for t in self.terminals if t.name in accepts or t.name in self.ignore]
        rest = [t for t in self.terminals if t not in first]
        alternatives = "|".join(f"(?P<{t.name}>{t.pattern.to_regexp()})" for t in first + rest)
        pattern = re.compile(f"(?:{self.skip})?(?:{alternatives})" if self.skip else alternatives)
        return pattern, accepts

    def tokens(self, line: str, context: Callable[[], _Scanner]) -> Iterator[Token]:
        """The tokens of `line`; `context()` gives the scanner of the parser's current state before each one."""
        text = line.rstrip()  # so that the last token's match ends the text
        end = len(text)
        pos = 0
        ignore, wordish, keywords = self.ignore, self.wordish, self.keywords
        while pos < end:
            scanner, accepts = context()
            m = scanner.match(text, pos)
            if m is None:
                pos = end - len(text[pos:].lstrip())
                raise UnexpectedCharacters(text, pos, 1, pos + 1, allowed=accepts)
            kind = m.lastgroup
            pos = m.end()
            if kind in ignore:
                continue
            value = m.group(kind)
            if kind in wordish:
                keyword = keywords.get(value.casefold())
                if keyword is not None and (keyword in accepts or kind not in accepts):
                    kind = keyword
            yield _Token(kind, value, pos - len(value), pos)

    def lex(self, lexer_state: LexerState, parser_state: Any) -> Iterator[Token]:
        """What `Lark.parse` calls (tests compare both loops with it); the parser state is Lark's."""
        states, stack, scanners = parser_state.parse_conf.states, parser_state.state_stack, self.scanners

        def context() -> _Scanner:
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


# A reduction, precomputed: (number of children, the rule's name, the rule's callback or None for no call).
_Reduce = tuple[int, str, Callable[[list[Any]], Any] | None]

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


class Driver:
    """Lark's LALR loop and OrderLexer fused into one loop, over Lark's own parse table and rule callbacks.

    Per token, Lark's loop resumes the lexer's generator and calls feed_token, which asserts, hashes the
    Rule objects to find their callbacks and reads attributes: about a third of all parsing time. This does
    the same shifts and reductions, with the same lexer decisions and callbacks, from plain precomputed
    tables. A line it cannot lex or parse is parsed again by `PublicParser`, so that every syntax error, its
    message and its interactive parser (used to explain it) are exactly Lark's.
    """

    ruleset_name: str | None = None  # whose keywords errors name (parser.py)

    def __init__(self, lark: Lark, public: PublicParser) -> None:
        # Lark's internals: imported here, so that a Lark without them falls back to the public loop
        from lark.parse_tree_builder import ExpandSingleChild
        from lark.parsers.lalr_analysis import Shift

        self.lark = lark
        self.public = public
        self.described = public.described
        self.lexer = public.lexer
        parser = lark.parser.parser.parser  # lark.parsers.lalr_parser._Parser
        table, callbacks = parser.parse_table, parser.callbacks
        # Lark calls a token callback (a builder method named after a terminal) at each shift; this loop does not
        if any(isinstance(key, str) for key in callbacks):
            raise TypeError("the fused loop calls no token callbacks")
        self.lark_states = table.states
        self.start_states: dict[str, int] = dict(table.start_states)
        self.end_states: dict[str, int] = dict(table.end_states)
        ends = set(self.end_states.values())
        # state -> symbol -> the next state (a shift or goto) or a _Reduce; None where Lark's loop would
        # fail an assertion (a token shifted into an end state), so that Lark reports it.
        self.actions: dict[int, dict[str, int | _Reduce | None]] = {}
        for state, acts in table.states.items():
            row: dict[str, int | _Reduce | None] = {}
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
            self.actions[state] = row

    def parse(self, line: str, start: str) -> Any:
        """What `self.lark.parse(line, start=start)` returns; raises what it raises."""
        # Hot loop: names are bound to locals on purpose. The lexing part is OrderLexer.lex, inlined.
        lexer = self.lexer
        scanners, ignore, wordish, keywords = lexer.scanners, lexer.ignore, lexer.wordish, lexer.keywords
        actions = self.actions
        end_state = self.end_states[start]
        state = self.start_states[start]
        state_stack = [state]
        value_stack: list[Any] = []
        text = line.rstrip()  # as in OrderLexer.lex
        end = len(text)
        pos = 0
        while True:
            if pos < end:
                scanner, accepts = scanners.get(state) or lexer._scanner(state, self.lark_states[state])
                m = scanner.match(text, pos)
                if m is None:
                    return self.public.parse(line, start)  # raises Lark's UnexpectedCharacters
                kind = m.lastgroup
                pos = m.end()
                if kind in ignore:
                    continue
                value = m.group(kind)
                if kind in wordish:
                    keyword = keywords.get(value.casefold())
                    if keyword is not None and (keyword in accepts or kind not in accepts):
                        kind = keyword
                token = _Token(kind, value, pos - len(value), pos)
            else:
                kind = "$END"
            # feed the token: reduce as often as needed, then shift it (at the end: accept)
            action = actions[state].get(kind)
            while type(action) is tuple:
                size, origin, callback = action
                if callback is None:  # the value on the stack stays
                    del state_stack[-1]
                elif size:
                    children = value_stack[-size:]
                    del state_stack[-size:]
                    del value_stack[-size:]
                    value_stack.append(callback(children))
                else:
                    value_stack.append(callback([]))
                state = actions[state_stack[-1]][origin]  # type: ignore[assignment]
                state_stack.append(state)
                if state == end_state and kind == "$END":
                    return value_stack[-1]
                action = actions[state].get(kind)
            if action is None or kind == "$END":
                # a syntax error, or what Lark's loop would fail an assertion on (a shifted $END)
                return self.public.parse(line, start)  # raises Lark's exception
            state = action
            state_stack.append(state)
            value_stack.append(token)
