"""The fast path of the order parser: a contextual lexer for keywords in four languages, and Lark's LALR loop
fused with it.

This is the one module that reads Lark's internals (the parse table, the rule callbacks, the parser state's
stack); everything else uses Lark's public API. Lark's own loop (`Lark.parse`, or `parse_interactive` with
`feed_token`) gives the same results about 1.5 times slower, which a big turn file or a tick of many games
feels. Every line this loop cannot lex or parse is parsed again by `Lark.parse`, so that every syntax error is
Lark's own; tests/test_fast_paths.py checks that both agree on hundreds of lines.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

from lark import Lark, Token
from lark.exceptions import UnexpectedCharacters
from lark.lexer import Lexer, LexerState
from lark.parse_tree_builder import ExpandSingleChild
from lark.parsers.lalr_analysis import Shift

from adjudicator.orders.keywords import keyword_of, keyword_table


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
    """

    __future_interface__ = 2

    def __init__(self, conf: Any) -> None:
        keywords = keyword_table()
        self.ignore = frozenset(conf.ignore)
        self.terminals = sorted(
            (t for t in conf.terminals if t.name not in keywords),
            key=lambda t: (-t.priority, -t.pattern.max_width, -len(t.pattern.value), t.name),
        )
        self.keywords = keyword_of()
        # Whitespace is skipped inside every token's regex: one match per token, not two.
        self.skip = "|".join(t.pattern.to_regexp() for t in self.terminals if t.name == "WS")
        # Terminals that can read a keyword (AREA, SECRET, ...): the lexer decides which one it is.
        self.wordish = frozenset(
            t.name
            for t in self.terminals
            if any(map(re.compile(t.pattern.to_regexp()).fullmatch, self.keywords))  # one compile per terminal
        )
        self.scanners: dict[Any, tuple[re.Pattern[str], frozenset[str]]] = {}

    def _scanner(self, state: Any, actions: dict[str, Any]) -> tuple[re.Pattern[str], frozenset[str]]:
        """One regex per parser state: accepted terminals first, then the rest (for error messages)."""
        accepts = frozenset(name for name in actions if name.isupper())
        first = [t for t in self.terminals if t.name in accepts or t.name in self.ignore]
        rest = [t for t in self.terminals if t not in first]
        alternatives = "|".join(f"(?P<{t.name}>{t.pattern.to_regexp()})" for t in first + rest)
        pattern = re.compile(f"(?:{self.skip})?(?:{alternatives})" if self.skip else alternatives)
        self.scanners[state] = (pattern, accepts)
        return pattern, accepts

    def lex(self, lexer_state: LexerState, parser_state: Any) -> Iterator[Token]:
        # Hot loop: names are bound to locals on purpose.
        text = lexer_state.text.text.rstrip()  # so that the last token's match ends the text
        end = len(text)
        pos = 0
        states = parser_state.parse_conf.states
        stack = parser_state.state_stack
        scanners, ignore, wordish, keywords = self.scanners, self.ignore, self.wordish, self.keywords
        while pos < end:
            state = stack[-1]
            scanner, accepts = scanners.get(state) or self._scanner(state, states[state])
            m = scanner.match(text, pos)
            if m is None:
                pos = end - len(text[pos:].lstrip())
                raise UnexpectedCharacters(text, pos, 1, pos + 1, allowed=accepts, state=parser_state)
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


# A reduction, precomputed: (number of children, the rule's name, the rule's callback or None for no call).
_Reduce = tuple[int, str, Callable[[list[Any]], Any] | None]


class Driver:
    """Lark's LALR loop and OrderLexer fused into one loop, over Lark's own parse table and rule callbacks.

    Per token, Lark's loop resumes the lexer's generator and calls feed_token, which asserts, hashes the
    Rule objects to find their callbacks and reads attributes: about half of all parsing time. This does
    the same shifts and reductions, with the same lexer decisions and callbacks, from plain precomputed
    tables. A line it cannot lex or parse is parsed again by Lark itself, so that every syntax error, its
    message and its interactive parser (used to explain it) are exactly Lark's.
    """

    def __init__(self, lark: Lark, described: dict[str, str]) -> None:
        self.lark = lark
        self.described = described  # how errors name the terminals that are not keywords
        frontend = lark.parser
        self.lexer: OrderLexer = frontend.lexer
        parser = frontend.parser.parser  # lark.parsers.lalr_parser._Parser
        table, callbacks = parser.parse_table, parser.callbacks
        # the lexer's checks need no token callbacks (Lark calls them at a shift; there are none)
        assert not any(isinstance(key, str) for key in callbacks), "token callbacks are not supported"
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
                    return self.lark.parse(line, start=start)  # raises Lark's UnexpectedCharacters
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
                return self.lark.parse(line, start=start)  # raises Lark's exception
            state = action
            state_stack.append(state)
            value_stack.append(token)
