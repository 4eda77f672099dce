"""The order parser's loop over plain tables, without Lark: a one-shot `pbem check` or `pbem ingest` parses a few
lines, and importing Lark and loading its parser cost it more than the parsing.

Lark builds the LALR tables of a grammar once (orders/parser.py `_entry`, orders/lalr.py `Driver`); `tables_of`
turns them, the lexer's terminals and the rule callbacks (described by the builder method each one calls and
Lark's wrappers around it) into plain data, which the cache folder keeps per grammar, keywords, builder class
and Lark version (resources.kept). `TableDriver` runs the same shifts, reductions and lexer decisions from them
(`Loop`, shared with lalr.py's `Driver`), and hands a line it cannot lex or parse to the Lark-built parser, so that
every syntax error is still Lark's own, worded as before.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any, TypeVar

# A lexer's context: the regex of a parser state (its accepted terminals first) and the terminals it accepts.
Scanner = tuple[re.Pattern[str], frozenset[str]]
# A reduction, precomputed: (number of children, the rule's name, the rule's callback or None for no call).
Reduce = tuple[int, str, Callable[[list[Any]], Any] | None]
TABLES_FORMAT = 1  # of the kept tables: a change makes them again


class Token(str):
    """A token of an order line, with the fields of Lark's Token (type, value, positions): what a builder's
    `isinstance(x, Token)` asks. The lexers make `PlainToken`s, or Lark's own Token class where Lark is loaded
    (lalr.py `_Token`, a subclass of both), so that a ruleset's builder may test for either."""

    __slots__ = ()
    type: str
    value: Any
    start_pos: int | None
    end_pos: int | None
    line: int | None
    end_line: int | None
    column: int | None
    end_column: int | None

    @classmethod
    def new_borrow_pos(cls, type_: str, value: Any, borrow_t: Token) -> Token:
        """A token of `type_` and `value` at `borrow_t`'s place (as Lark's Token.new_borrow_pos)."""
        made = str.__new__(type(borrow_t), value)
        made.type, made.value = type_, value
        made.start_pos, made.end_pos = borrow_t.start_pos, borrow_t.end_pos
        made.line, made.end_line = borrow_t.line, borrow_t.end_line
        made.column, made.end_column = borrow_t.column, borrow_t.end_column
        return made


Made = TypeVar("Made", bound=Token)


def new_token(cls: type[Made], kind: str, value: str, start: int, end: int) -> Made:
    """A token of one order line (line 1) from `start` to `end`: the `__new__` of the lexers' token classes, which
    skips Lark's argument checks (the lexers make many tokens)."""
    token = str.__new__(cls, value)
    token.type, token.value = kind, value
    token.start_pos, token.end_pos = start, end
    token.line = token.end_line = 1
    token.column, token.end_column = start + 1, end + 1
    return token


class PlainToken(Token):
    """A token made without Lark; compares as Lark's Token does (equal text, and equal type if both are tokens)."""

    __slots__ = ("type", "value", "start_pos", "end_pos", "line", "end_line", "column", "end_column")

    __new__ = new_token

    def __repr__(self) -> str:
        return f"Token({self.type!r}, {self.value!r})"

    def __deepcopy__(self, memo: Any) -> PlainToken:
        """A copy with Lark's Token's deep copy's fields (its end positions are not copied)."""
        return _placed(self.type, self.value, self.start_pos, self.line, self.column)

    def __reduce__(self) -> tuple[Any, ...]:
        fields = (self.start_pos, self.line, self.column, self.end_line, self.end_column, self.end_pos)
        return _placed, (self.type, self.value, *fields)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Token) and self.type != other.type:
            return False
        return str.__eq__(self, other)

    __hash__ = str.__hash__


def _placed(
    kind: str,
    value: Any,
    start_pos: int | None,
    line: int | None,
    column: int | None,
    end_line: int | None = None,
    end_column: int | None = None,
    end_pos: int | None = None,
) -> PlainToken:
    """A PlainToken with the positions given (copies and pickles)."""
    made = str.__new__(PlainToken, value)
    made.type, made.value, made.start_pos, made.end_pos = kind, value, start_pos, end_pos
    made.line, made.column, made.end_line, made.end_column = line, column, end_line, end_column
    return made


def token_class() -> type[Token]:
    """The class of the tokens the lexers make: Lark's (lalr.py `_Token`) once Lark is loaded, as a ruleset's
    builder that imports it may test tokens for Lark's class; else PlainToken."""
    if "lark" in sys.modules:
        from adjudicator.orders.lalr import _Token

        return _Token
    return PlainToken


class Scanners:
    """The contextual lexer's data: the terminals that are no keywords (name, regex; in the order they are
    tried), the ignored ones, those that can read a keyword (`wordish`) and the keyword spellings; and one
    regex per set of terminals a parser state accepts, compiled once per process."""

    def __init__(
        self, terminals: list[tuple[str, str]], ignore: frozenset[str], wordish: frozenset[str], keywords: dict
    ) -> None:
        self.terminals = terminals
        self.ignore = ignore
        self.wordish = wordish
        self.keywords = keywords
        # Whitespace is skipped inside every token's regex: one match per token, not two.
        self.skip = "|".join(regex for name, regex in terminals if name == "WS")
        self.by_accepts: dict[frozenset[str], Scanner] = {}
        self.patterns: dict[tuple[str, ...], re.Pattern[str]] = {}  # by the terminals tried first

    def scanner(self, accepts: frozenset[str]) -> Scanner:
        """The scanner of a parser state that accepts `accepts`: one regex of all terminals, those it accepts
        first, then the rest (for error messages); compiled once for each set of accepted terminals, which many
        states share (their keywords differ)."""
        found = self.by_accepts.get(accepts)
        if found is None:
            first = tuple(n for n, _ in self.terminals if n in accepts or n in self.ignore)
            pattern = self.patterns.get(first)
            if pattern is None:
                regexes = dict(self.terminals)
                rest = [n for n, _ in self.terminals if n not in first]
                alternatives = "|".join(f"(?P<{name}>{regexes[name]})" for name in (*first, *rest))
                pattern = re.compile(f"(?:{self.skip})?(?:{alternatives})" if self.skip else alternatives)
                self.patterns[first] = pattern
            found = self.by_accepts[accepts] = (pattern, accepts)
        return found

    def tokens(self, line: str, context: Callable[[], Scanner], make: type[Token]) -> Iterator[Token]:
        """The tokens of `line`; `context()` gives the scanner of the parser's current state before each one.
        Raises NoToken where no terminal matches (the caller raises Lark's error)."""
        text = line.rstrip()  # so that the last token's match ends the text
        end = len(text)
        pos = 0
        ignore, wordish, keywords = self.ignore, self.wordish, self.keywords
        while pos < end:
            scanner, accepts = context()
            m = scanner.match(text, pos)
            if m is None:
                raise NoToken(end - len(text[pos:].lstrip()), accepts)
            kind = m.lastgroup
            pos = m.end()
            if kind in ignore:
                continue
            value = m.group(kind)
            if kind in wordish:
                keyword = keywords.get(value.casefold())
                if keyword is not None and (keyword in accepts or kind not in accepts):
                    kind = keyword
            yield make(kind, value, pos - len(value), pos)  # type: ignore[call-arg]


class NoToken(Exception):
    """No terminal matches at `pos` (of the line without its trailing blanks); `accepts` were expected there."""

    def __init__(self, pos: int, accepts: frozenset[str]) -> None:
        super().__init__(pos)
        self.pos = pos
        self.accepts = accepts


def accepted(actions: dict[str, Any]) -> frozenset[str]:
    """The terminals a parser state accepts (its actions' upper-case symbols)."""
    return frozenset(name for name in actions if name.isupper())


class Loop:
    """Lark's LALR loop and the order lexer fused into one loop over plain tables: state -> symbol -> the next
    state (a shift or goto), a Reduce, or None where Lark's loop would fail an assertion (a token shifted into an
    end state). A line it cannot lex or parse goes to `failed`, which gives what Lark gives for it."""

    actions: dict[int, dict[str, int | Reduce | None]]
    start_states: dict[str, int]
    end_states: dict[str, int]
    scan: Scanners
    token: type[Token]

    def failed(self, line: str, start: str) -> Any:
        raise NotImplementedError

    def parse(self, line: str, start: str) -> Any:
        """What Lark's parse of `line` from rule `start` returns; raises what it raises."""
        # Hot loop: names are bound to locals on purpose. The lexing part is Scanners.tokens, inlined.
        scan, make = self.scan, self.token
        scanners, ignore, wordish, keywords = self.scanners, scan.ignore, scan.wordish, scan.keywords
        actions, new_str = self.actions, str.__new__
        end_state = self.end_states[start]
        state = self.start_states[start]
        state_stack = [state]
        value_stack: list[Any] = []
        text = line.rstrip()
        end = len(text)
        pos = 0
        while True:
            if pos < end:
                scanner, accepts = scanners.get(state) or self._scanner(state)
                m = scanner.match(text, pos)
                if m is None:
                    return self.failed(line, start)  # raises Lark's UnexpectedCharacters
                kind = m.lastgroup
                pos = m.end()
                if kind in ignore:
                    continue
                value = m.group(kind)
                if kind in wordish:
                    keyword = keywords.get(value.casefold())
                    if keyword is not None and (keyword in accepts or kind not in accepts):
                        kind = keyword
                # new_token(make, kind, value, begin, pos), inlined: the call would cost more than its work
                begin = pos - len(value)
                token = new_str(make, value)
                token.type, token.value = kind, value
                token.start_pos, token.end_pos = begin, pos
                token.line = token.end_line = 1
                token.column, token.end_column = begin + 1, pos + 1
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
                return self.failed(line, start)  # raises Lark's exception
            state = action
            state_stack.append(state)
            value_stack.append(token)

    @property
    def scanners(self) -> dict[int, Scanner]:
        """Parser state -> its scanner, as far as made."""
        return self.__dict__.setdefault("_scanners", {})

    def _scanner(self, state: int) -> Scanner:
        scanner = self.scanners[state] = self.scan.scanner(accepted(self.actions[state]))  # type: ignore[arg-type]
        return scanner


# -- the callbacks as data ------------------------------------------------------------------------------------------
# A rule's callback is the builder's method of the rule's name (or the builder's __default__, which makes a Lark
# Tree), wrapped by Lark (lark/parse_tree_builder.py) in: ExpandSingleChild ("1": a ?rule's single child is the
# value), ChildFilterLALR ("f": which children are passed, with None for missing [optional] parts) or
# ChildFilterLALR_NoPlaceholders ("n"). A recipe is (("m" or "d", name), the wrappers outermost first).


class _ExpandSingleChild:
    def __init__(self, node_builder: Callable[[list[Any]], Any]) -> None:
        self.node_builder = node_builder

    def __call__(self, children: list[Any]) -> Any:
        return children[0] if len(children) == 1 else self.node_builder(children)


class _ChildFilter:
    """Lark's ChildFilterLALR (with placeholders) and ChildFilterLALR_NoPlaceholders (add_none always 0)."""

    def __init__(
        self, to_include: tuple[tuple[int, bool, int], ...], append_none: int, node_builder: Callable[..., Any]
    ) -> None:
        self.to_include = to_include
        self.append_none = append_none
        self.node_builder = node_builder

    def __call__(self, children: list[Any]) -> Any:
        filtered: list[Any] = []
        for i, to_expand, add_none in self.to_include:
            if add_none:
                filtered += [None] * add_none
            if to_expand:
                if filtered:
                    filtered += children[i].children
                else:  # as Lark: the expanded child's own list
                    filtered = children[i].children
            else:
                filtered.append(children[i])
        if self.append_none:
            filtered += [None] * self.append_none
        return self.node_builder(filtered)


def _default(builder: Any, name: str, children: list[Any]) -> Any:
    return builder.__default__(name, children, None)  # as Lark calls a Transformer's default


class _Inlined:
    """The value of a rule whose name starts with '_' (Lark's rules for `x+` and `x*`, and inlined rules) without a
    method: its parent's child filter takes its children in its place (Lark's `_should_expand`), so no Lark Tree
    is needed for it."""

    __slots__ = ("data", "children")

    def __init__(self, data: str, children: list[Any]) -> None:
        self.data, self.children = data, children


def callback(builder: Any, recipe: tuple[Any, ...]) -> Callable[[list[Any]], Any]:
    """The callback a recipe describes, calling `builder`."""
    (kind, name), wrappers = recipe
    if kind == "m":
        made: Callable[[list[Any]], Any] = getattr(builder, name)
    else:
        made = partial(_Inlined, name) if name.startswith("_") else partial(_default, builder, name)
    for wrapper in reversed(wrappers):
        if wrapper[0] == "1":
            made = _ExpandSingleChild(made)
        else:
            made = _ChildFilter(wrapper[1], wrapper[2], made)
    return made


def recipe_of(made: Any, builder: Any) -> tuple[Any, ...] | None:
    """The recipe of a callback Lark made for `builder`, or None when it is not one `callback` can make again."""
    from lark.parse_tree_builder import ChildFilterLALR, ChildFilterLALR_NoPlaceholders, ExpandSingleChild

    wrappers: list[tuple[Any, ...]] = []
    while True:
        kind = type(made)
        if kind is ExpandSingleChild:
            wrappers.append(("1",))
        elif kind is ChildFilterLALR:
            wrappers.append(("f", tuple(tuple(x) for x in made.to_include), made.append_none))
        elif kind is ChildFilterLALR_NoPlaceholders:
            wrappers.append(("f", tuple((i, expand, 0) for i, expand in made.to_include), 0))
        else:
            break
        made = made.node_builder
    if getattr(made, "__self__", None) is builder and getattr(builder, made.__name__, None) == made:
        return ("m", made.__name__), tuple(wrappers)
    default = getattr(made, "func", None)
    if (
        isinstance(made, partial)
        and getattr(default, "__name__", "") == "default_callback"
        and len(made.args) == 1
        and not made.keywords
        and getattr(type(builder), "__default__", None) is not None
    ):
        return ("d", made.args[0]), tuple(wrappers)
    return None


def tables_of(driver: Any, builder: Any) -> dict[str, Any] | None:
    """A built lalr.py `Driver` as plain data (marshal): its table with each reduction's recipe, its start and end
    states and its lexer's terminals; None when a callback cannot be described (the Lark-built parser is used)."""
    recipes: dict[Any, int] = {}
    listed: list[tuple[Any, ...]] = []
    states: dict[int, dict[str, Any]] = {}
    for state, row in driver.actions.items():
        plain: dict[str, Any] = {}
        for symbol, action in row.items():
            if type(action) is tuple:
                size, origin, _ = action
                recipe = recipe_of(driver.rules[state, symbol], builder)
                if recipe is None:
                    return None
                number = recipes.setdefault(recipe, len(listed))
                if number == len(listed):
                    listed.append(recipe)
                action = (size, origin, number)
            plain[symbol] = action
        states[state] = plain
    scan: Scanners = driver.lexer.scan
    return {
        "format": TABLES_FORMAT,
        "states": states,
        "recipes": listed,
        "start": dict(driver.start_states),
        "end": dict(driver.end_states),
        "terminals": list(scan.terminals),
        "ignore": sorted(scan.ignore),
        "wordish": sorted(scan.wordish),
    }


class TableDriver(Loop):
    """The fused loop over kept tables (`tables_of`), calling `builder`; `fallback()` gives the Lark-built parser
    that parses a line this loop cannot (its errors are Lark's)."""

    ruleset_name: str | None = None  # whose keywords errors name (parser.py)

    def __init__(
        self,
        tables: dict[str, Any],
        builder: Any,
        keywords: dict[str, str],
        fallback: Callable[[], Any],
    ) -> None:
        self.fallback = fallback
        self.described = builder.described
        self.token = token_class()
        self.scan = Scanners(
            [tuple(t) for t in tables["terminals"]],  # type: ignore[misc]
            frozenset(tables["ignore"]),
            frozenset(tables["wordish"]),
            keywords,
        )
        made = [callback(builder, recipe) for recipe in tables["recipes"]]
        self.start_states, self.end_states = tables["start"], tables["end"]
        self.actions = {}
        for state, row in tables["states"].items():
            self.actions[state] = {
                symbol: action if type(action) is not tuple else _reduction(action, tables["recipes"], made)
                for symbol, action in row.items()
            }

    def failed(self, line: str, start: str) -> Any:
        return self.fallback().parse(line, start)


def _reduction(action: tuple[int, str, int], recipes: list[Any], made: list[Any]) -> Reduce:
    size, origin, number = action
    wrappers = recipes[number][1]
    # a ?rule reduced from its single child returns that child: nothing to call (as lalr.py's Driver)
    return size, origin, None if size == 1 and wrappers and wrappers[0][0] == "1" else made[number]
