"""Order-language parser: order mails -> typed orders (engine.orders), and errors players can read."""

from __future__ import annotations

import difflib
import re
import threading
import unicodedata
from collections.abc import Callable, Iterator
from functools import cache, partial
from typing import Any

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken
from lark.lexer import Lexer, LexerState
from lark.parse_tree_builder import ExpandSingleChild
from lark.parsers.lalr_analysis import Shift

from adjudicator.orders.keywords import (
    UnknownLanguage,
    display,
    keyword_of,
    keyword_table,
    language_code,
    spellings,
    terminal_declarations,
)
from adjudicator.resources import resource_dir
from adjudicator.rulesets import Ruleset
from adjudicator.rulesets.coe.orders import (
    CAESAR,
    Answer,
    BattleOrder,
    Buy,
    Captives,
    Concede,
    DestroyCity,
    FreedTo,
    Header,
    Homes,
    Language,
    Move,
    NavalBattle,
    Order,
    OrderError,
    OrderSet,
    Press,
    Priority,
    Purchase,
    RansomAccept,
    RansomOffer,
    RetreatRule,
    Sail,
    Step,
    Troops,
)

HEADER_FORMAT = "GAME <game> TURN <n> PLAYER <seat> PASSWORD <password>"
MISSING_HEADER = f"missing header: the first order line must be '{HEADER_FORMAT}'"
GRAMMAR_FILES = ("common.lark", "coe.lark")
MAX_NUMBER = 9999  # more than any game needs; stops absurd counts early

_UNIT_KINDS = {"INFANTRY": "infantry", "CAVALRY": "cavalry", "CATAPULT": "catapult"}
_PIECES = {
    **_UNIT_KINDS,
    "GALLEY": "galley",
    "CITY": "city",
    "FORTIFICATION": "fortification",
    "FORTIFIED_CITY": "fortified_city",
}
_NAVAL_KINDS = {"EMPTY": "empty", "LOADED": "loaded", "GENERALS": "generals", "CAESAR": "caesar"}

# How errors name the terminals that are not keywords.
_DESCRIBED = {
    "AREA": "an area",
    "SEAT": "a seat",
    "NUMBER": "a number",
    "GEN_ID": "a general (G1, G2, ...)",
    "GAME_NAME": "a game name",
    "DECISION_KEY": "a decision key (e.g. battle.NAR.1.retreat)",
    "SECRET": "a password",
    "MESSAGE": "':' and the message",
}
_SYMBOLS = {
    "_AT_LEAST": ">=",
    "_COMMA": "','",
    "_COLON": ":",
    "_ARROW": "->",
    "_ROAD_ARROW": "=>",
    "_DASH": "-",
    "_LESS": "<",
}


class _Problem(Exception):
    """What is wrong with one line, and where: bad syntax, an unknown or ambiguous name, a bad number."""

    def __init__(self, column: int, message: str, kind: str = "invalid") -> None:
        super().__init__(message)
        self.column = column
        self.message = message
        self.kind = kind


def _quote(text: str, limit: int = 40) -> str:
    """Show a piece of a player's line in a message; escapes make control characters visible."""
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    return f"'{text}'" if text.isprintable() else repr(text)


def _either(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


# ---------------------------------------------------------------------------------------------- lexer


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


class _OrderLexer(Lexer):
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


# ---------------------------------------------------------------------------------------------- builder


class _Builder(Transformer):
    """Builds orders while Lark parses (no parse tree); resolves areas and seats against one ruleset."""

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__()
        self.ruleset = ruleset
        self.board = ruleset.board
        own = int(ruleset.data.get("limits", {}).get("generals", 4))
        # generals taken over from eliminated players are numbered on after one's own (C-8.8)
        self.generals, self.most_generals = own, own * len(ruleset.seats)
        self.area_cache: dict[str, list[str]] = {}
        self.area_words = self._area_words()

    # names --------------------------------------------------------------------------------------

    def _area_words(self) -> dict[str, set[str]]:
        """Case-folded codes, names and aliases -> area codes, for 'did you mean' suggestions."""
        words: dict[str, set[str]] = {}
        for code, info in self.board.areas.items():
            for word in (code, info.name, *info.aliases):
                words.setdefault(word.casefold(), set()).add(code)
        return words

    def _area_label(self, code: str) -> str:
        return f"{code} {self.board.name(code)}"

    def _lookup_area(self, word: str) -> list[str]:
        key = word.casefold()
        found = self.area_cache.get(key)
        if found is None:
            found = self.board.lookup(word) if key else []
            if len(self.area_cache) < 10_000:  # garbage input must not grow the cache without end
                self.area_cache[key] = found
        return found

    def area(self, c: list[Token]) -> str:
        token = c[0]
        word = token[1:-1].strip() if token.type == "QUOTED" else str(token)
        found = self._lookup_area(word)
        if len(found) == 1:
            return found[0]
        if found:
            labels = [self._area_label(code) for code in found]
            more = ", ..." if len(labels) > 8 else ""
            raise _Problem(
                token.column, f"area {_quote(word)} is ambiguous: {', '.join(labels[:8])}{more}", "ambiguous"
            )
        codes = _closest(word.casefold(), self.area_words)
        hint = f" (did you mean {_either([self._area_label(c) for c in codes])}?)" if codes else ""
        # a misspelt keyword where an area may also stand (NAVAL LOSES) is read as an area
        keyword = [] if codes else difflib.get_close_matches(word.upper(), _all_spellings(), n=1, cutoff=0.8)
        if keyword:
            hint = f" (did you mean {keyword[0]}?)"
        raise _Problem(token.column, f"unknown area {_quote(word)}{hint}")

    def seat(self, c: list[Token]) -> str:
        token = c[0]
        word = token[1:-1].strip() if token.type == "QUOTED" else str(token)
        found = self.ruleset.lookup_seat(word) if word else []
        if len(found) == 1:
            return found[0]
        if found:
            raise _Problem(token.column, f"seat {_quote(word)} is ambiguous: {', '.join(found)}", "ambiguous")
        names = {s.name.casefold(): s.name for s in self.ruleset.seats}
        names.update({s.home.casefold(): s.name for s in self.ruleset.seats})
        close = _closest(word.casefold(), {k: {v} for k, v in names.items()})
        if close:
            hint = f" (did you mean {_either(close)}?)"
        else:
            hint = f"; the seats are {', '.join(self.ruleset.seat_names)}"
        raise _Problem(token.column, f"unknown seat {_quote(word)}{hint}")

    def areas(self, c: list[Any]) -> tuple[str, ...]:
        return _values(c)

    def seats(self, c: list[Any]) -> tuple[str, ...]:
        return _values(c)

    # troops -------------------------------------------------------------------------------------

    def general(self, c: list[Token]) -> tuple[int, int]:
        # (number, column): the column lets a later check point at this general
        if c[0].type == "GEN_ID":
            shown, number = str(c[0]), _int(c[0][1:])
        else:
            shown, number = f"{c[0]} {c[1]}", _number(c[1], minimum=0)
        if not 1 <= number <= self.most_generals:
            raise _Problem(
                c[0].column,
                f"unknown leader {_quote(shown)}: generals are G1 to G{self.generals} "
                f"(G{self.generals + 1} to G{self.most_generals} when taken over)",
            )
        return number, c[0].column

    def leader(self, c: list[Any]) -> tuple[int, int]:
        token = c[0]
        return (CAESAR, token.column) if isinstance(token, Token) else token

    def leaders(self, c: list[Any]) -> tuple[int, ...]:
        seen: list[int] = []
        for number, column in _values(c):
            if number in seen:
                raise _Problem(column, f"leader {_leader_name(number)} is named twice")
            seen.append(number)
        return tuple(seen)

    def unit(self, c: list[Token]) -> tuple[str, int]:
        return _UNIT_KINDS[c[1].type], _number(c[0])

    def units(self, c: list[Any]) -> dict[str, int]:
        counts: dict[str, int] = {}
        for kind, count in _values(c):
            counts[kind] = counts.get(kind, 0) + count
        return counts

    def troops(self, c: list[Any]) -> Troops:
        leaders: tuple[int, ...] = ()
        counts: dict[str, int] = {}
        for child in c:
            if isinstance(child, tuple):
                leaders = child
            elif isinstance(child, dict):
                counts = child
        return Troops(leaders, **counts)

    # orders -------------------------------------------------------------------------------------

    def leaving(self, c: list[Any]) -> tuple[Troops, int]:
        return c[1], c[0].column

    # a step is (Step, column of its LEAVING or 0)
    def land_step(self, c: list[Any]) -> tuple[Step, int]:
        leave, column = c[1] if len(c) > 1 else (None, 0)
        return Step("land", c[0], leave), column

    def road_step(self, c: list[Any]) -> tuple[Step, int]:
        leave, column = c[1] if len(c) > 1 else (None, 0)
        return Step("road", c[0], leave), column

    def move(self, c: list[Any]) -> Callable[..., Order]:
        last, column = c[-1]
        if last.leave is not None:
            raise _Problem(
                column, f"{display('LEAVING')} drops pieces on the way; at the end of the move every piece stops anyway"
            )
        return partial(Move, troops=c[1], start=c[2], steps=tuple(step for step, _ in c[3:]))

    def sail(self, c: list[Any]) -> Callable[..., Order]:
        galleys = tuple(_number(t) for t in c if isinstance(t, Token) and t.type == "NUMBER")
        areas = tuple(x for x in c if isinstance(x, str) and not isinstance(x, Token))
        cargo = c[-1] if isinstance(c[-1], Troops) else None
        return partial(Sail, galleys=galleys, start=areas[0], route=areas[1:], cargo=cargo)

    def naval(self, c: list[Any]) -> Callable[..., Order]:
        return partial(NavalBattle, zone=c[1], against=c[3] if len(c) > 3 else None)

    def naval_losses(self, c: list[Any]) -> Callable[..., Order]:
        return partial(Priority, kind="naval_losses", values=_kinds(c[2:], _NAVAL_KINDS))

    def battles(self, c: list[Any]) -> Callable[..., Order]:
        return partial(BattleOrder, areas=c[1])

    def destroy(self, c: list[Any]) -> Callable[..., Order]:
        return partial(DestroyCity, area=c[2])

    def fortified_city(self, c: list[Token]) -> Token:
        return Token.new_borrow_pos("FORTIFIED_CITY", f"{c[0]} {c[1]}", c[0])

    def piece_item(self, c: list[Any]) -> Purchase:
        count = _number(c[0]) if c[0].type == "NUMBER" else 1
        piece = c[1] if c[0].type == "NUMBER" else c[0]
        sites = _values(c)
        coast = next((t for t in c if isinstance(t, Token) and t.type == "COAST"), None)
        if coast is not None and piece.type != "GALLEY":
            raise _Problem(coast.column, f"{display('COAST')} names the coast of a new galley, not a {piece}")
        at = sites[0] if sites else None
        return Purchase(_PIECES[piece.type], count, at=at, coast=sites[1] if len(sites) > 1 else None)

    def road_item(self, c: list[Any]) -> Purchase:
        if c[0].type == "NUMBER" and _number(c[0]) != 1:
            raise _Problem(c[0].column, f"a {display('ROAD')} joins two cities: buy one road per item")
        at, to = c[-1]
        return Purchase("road", 1, at=at, to=to)

    def road_ends(self, c: list[Any]) -> tuple[str, str]:
        at, to = _values(c)
        return at, to

    def buy(self, c: list[Any]) -> Callable[..., Order]:
        return partial(Buy, items=tuple(x for x in c[1:] if isinstance(x, Purchase)))

    def pick(self, c: list[Token]) -> tuple[int | None, Token]:
        """One entry of a priority: a unit kind with an optional count (4 INF)."""
        return (None, c[0]) if len(c) == 1 else (_number(c[0]), c[1])

    def priority(self, c: list[Any]) -> Callable[..., Order]:
        picks = [x for x in c[1:] if isinstance(x, tuple)]
        unlimited: set[str] = set()
        for count, token in picks:  # after an entry without a count no unit of that kind is left
            kind = _UNIT_KINDS[token.type]
            if kind in unlimited:
                raise _Problem(token.column, f"{_quote(str(token))} is listed twice")
            if count is None:
                unlimited.add(kind)
        counts = tuple(count for count, _ in picks)
        return partial(
            Priority,
            kind=c[0].type.lower(),
            values=tuple(_UNIT_KINDS[t.type] for _, t in picks),
            counts=counts if any(n is not None for n in counts) else (),
        )

    def targets(self, c: list[Any]) -> Callable[..., Order]:
        return partial(Priority, kind="targets", values=_kinds(c[1:], {**_UNIT_KINDS, "GALLEY": "galley"}))

    def enemy_advantage_at_least(self, c: list[Token]) -> tuple[str, int]:
        return "enemy_advantage_at_least", _number(c[-1], minimum=0)

    def units_below(self, c: list[Token]) -> tuple[str, int]:
        return "units_below", _number(c[-1])

    def below_enemy(self, c: list[Token]) -> tuple[str, None]:
        return "below_enemy", None

    def caesar_and_units_below(self, c: list[Token]) -> tuple[str, int]:
        return "caesar_and_units_below", _number(c[-1])

    def retreat(self, c: list[Any]) -> Callable[..., Order]:
        # the value after each keyword: FROM area, TO areas, WHEN condition (NEVER has none)
        after = {x.type: c[i + 1] for i, x in enumerate(c[:-1]) if isinstance(x, Token)}
        origin, targets = after.get("FROM"), after.get("TO", ())
        kind, threshold = after.get("WHEN", ("never", None))
        return partial(RetreatRule, condition=kind, threshold=threshold, origin=origin, destinations=targets)

    def captives(self, c: list[Any]) -> Callable[..., Order]:
        return partial(Captives, choice=c[1].type.lower(), owner=c[3] if len(c) > 3 else None)

    def freed(self, c: list[Any]) -> Callable[..., Order]:
        return partial(FreedTo, areas=c[2])

    def homes(self, c: list[Any]) -> Callable[..., Order]:
        return partial(Homes, areas=c[1])

    def talents(self, c: list[Token]) -> tuple[str, int, int]:
        return "talents", _number(c[0], minimum=0), c[0].column

    def prisoner(self, c: list[Any]) -> tuple[str, tuple[str, int], int]:
        return "prisoner", (c[0], c[1][0]), 0

    def ransom_offer(self, c: list[Any]) -> Callable[..., Order]:
        talents: int | None = None
        prisoners: list[tuple[str, int]] = []
        for kind, value, column in (x for x in c[5:] if isinstance(x, tuple)):
            if kind == "prisoner":
                prisoners.append(value)
            elif talents is not None:
                raise _Problem(column, "talents are given twice in one offer")
            else:
                talents = value
        return partial(RansomOffer, owner=c[2], general=c[3][0], talents=talents or 0, prisoners=tuple(prisoners))

    def ransom_accept(self, c: list[Any]) -> Callable[..., Order]:
        minimum = _number(c[5], minimum=0) if len(c) > 5 else 0
        return partial(RansomAccept, owner=c[2], general=c[3][0], min_talents=minimum)

    def concede(self, c: list[Any]) -> Callable[..., Order]:
        return partial(Concede, to=c[2])

    def press(self, c: list[Any]) -> list[Callable[..., Order]]:
        message = c[-1]
        text = message[1:].strip()
        if not text:
            raise _Problem(message.column, "the message after ':' is empty")
        seats: tuple[str | None, ...] = c[2] if len(c) > 3 else (None,)
        return [partial(Press, to=seat, message=text) for seat in dict.fromkeys(seats)]

    def language(self, c: list[Any]) -> Callable[..., Order]:
        try:
            return partial(Language, code=language_code(str(c[1])))
        except UnknownLanguage as unknown:
            raise _Problem(c[1].column, str(unknown)) from None

    def answer(self, c: list[Any]) -> Callable[..., Order]:
        text = c[2][1:].strip()
        if not text:
            raise _Problem(c[2].column, "the answer after ':' is empty")
        return partial(Answer, key=str(c[1]), value=text)

    def header(self, c: list[Any]) -> Callable[..., Header]:
        return partial(Header, game=str(c[1]), turn=_number(c[3], minimum=0), player=c[5], password=str(c[7]))


def _closest(word: str, choices: dict[str, set[str]]) -> list[str]:
    """What `word` probably meant: the values of the closest keys (nearly as close as the best)."""
    scored = []
    matcher = difflib.SequenceMatcher(b=word)
    for key, values in choices.items():
        matcher.set_seq1(key)
        if matcher.real_quick_ratio() >= 0.6 and matcher.quick_ratio() >= 0.6:
            ratio = matcher.ratio()
            if ratio >= 0.6:
                scored.append((ratio, key, values))
    if not scored:
        return []
    best = max(r for r, _, _ in scored)
    near = sorted((item for item in scored if item[0] >= best - 0.05), key=lambda x: (-x[0], x[1]))
    return list(dict.fromkeys(v for _, _, values in near for v in sorted(values)))[:3]


@cache
def _all_spellings() -> list[str]:
    return [s for name in keyword_table() for s in spellings(name)]


def _values(children: list[Any]) -> tuple[Any, ...]:
    """The children that are not keyword tokens (areas, seats, built values)."""
    return tuple(x for x in children if not isinstance(x, Token))


def _int(digits: str) -> int:
    # int() refuses very long digit strings; anything that long is too large anyway
    return int(digits) if len(digits) <= 9 else MAX_NUMBER + 1


def _number(token: Token, minimum: int = 1) -> int:
    value = -1 if token.startswith("-") else _int(token)
    if value < minimum:
        what = "a positive number" if minimum == 1 else "a number of at least 0"
        raise _Problem(token.column, f"{_quote(str(token))} is not {what}")
    if value > MAX_NUMBER:
        raise _Problem(token.column, f"{_quote(str(token))} is too large")
    return value


def _kinds(tokens: list[Any], names: dict[str, str]) -> tuple[str, ...]:
    seen: list[str] = []
    for token in tokens:
        if isinstance(token, Token) and token.type in names:
            if names[token.type] in seen:
                raise _Problem(token.column, f"{_quote(str(token))} is listed twice")
            seen.append(names[token.type])
    return tuple(seen)


def _leader_name(number: int) -> str:
    return display("CAESAR") if number == CAESAR else f"G{number}"


# ---------------------------------------------------------------------------------------------- parser


@cache
def grammar_text() -> str:
    """The full grammar: generated keyword declarations, then the grammar files."""
    folder = resource_dir("grammar")
    parts = [terminal_declarations()] + [(folder / n).read_text(encoding="utf-8") for n in GRAMMAR_FILES]
    return "\n".join(parts)


_PARSERS: dict[int, tuple[Ruleset, Lark, _Driver]] = {}
_PARSERS_LOCK = threading.Lock()


def _entry(ruleset: Ruleset) -> tuple[Ruleset, Lark, _Driver]:
    """The LALR parser for `ruleset` and its driver, built once (its builder resolves that ruleset's areas and
    seats)."""
    entry = _PARSERS.get(id(ruleset))
    if entry is None or entry[0] is not ruleset:
        with _PARSERS_LOCK:
            entry = _PARSERS.get(id(ruleset))
            if entry is None or entry[0] is not ruleset:
                parser = Lark(
                    grammar_text(),
                    parser="lalr",
                    lexer=_OrderLexer,
                    start=["header", "order"],
                    cache=True,
                    transformer=_Builder(ruleset),
                )
                # keeping the ruleset in the entry keeps its id from being reused by another
                entry = _PARSERS[id(ruleset)] = (ruleset, parser, _Driver(parser))
    return entry


def _parser(ruleset: Ruleset) -> Lark:
    """The Lark LALR parser for `ruleset`."""
    return _entry(ruleset)[1]


# A reduction, precomputed: (number of children, the rule's name, the rule's callback or None for no call).
_Reduce = tuple[int, str, Callable[[list[Any]], Any] | None]


class _Driver:
    """Lark's LALR loop and _OrderLexer fused into one loop, over Lark's own parse table and rule callbacks.

    Per token, Lark's loop resumes the lexer's generator and calls feed_token, which asserts, hashes the
    Rule objects to find their callbacks and reads attributes: about half of all parsing time. This does
    the same shifts and reductions, with the same lexer decisions and callbacks, from plain precomputed
    tables. A line it cannot lex or parse is parsed again by Lark itself, so that every syntax error, its
    message and its interactive parser (used to explain it) are exactly Lark's.
    """

    def __init__(self, lark: Lark) -> None:
        self.lark = lark
        frontend = lark.parser
        self.lexer: _OrderLexer = frontend.lexer
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
        # Hot loop: names are bound to locals on purpose. The lexing part is _OrderLexer.lex, inlined.
        lexer = self.lexer
        scanners, ignore, wordish, keywords = lexer.scanners, lexer.ignore, lexer.wordish, lexer.keywords
        actions = self.actions
        end_state = self.end_states[start]
        state = self.start_states[start]
        state_stack = [state]
        value_stack: list[Any] = []
        text = line.rstrip()  # as in _OrderLexer.lex
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


def shadowed_names(ruleset: Ruleset) -> list[str]:
    """Keyword spellings that hide an area or seat where the parser accepts both (there should be none)."""
    states = _parser(ruleset).parser.parser.parser.parse_table.states
    found = set()
    for actions in states.values():
        for kind, lookup in (("AREA", ruleset.board.lookup), ("SEAT", ruleset.lookup_seat)):
            if kind not in actions:
                continue
            for name in (n for n in actions if n in keyword_table()):
                for spelling in spellings(name):
                    if len(hits := lookup(spelling)) == 1:
                        found.add(f"{spelling} ({name}) hides {kind.lower()} {hits[0]}")
    return sorted(found)


def _expected(names: set[str] | frozenset[str]) -> str:
    """Plain words for what the parser expected: 'an area, a number or one of: WITH, :'."""
    words = [text for name, text in _DESCRIBED.items() if name in names]
    table = keyword_table()
    keywords = sorted(display(n) for n in names if n in table)
    keywords += [text for name, text in _SYMBOLS.items() if name in names]
    if "$END" in names:
        keywords.append("the end of the line")
    if len(keywords) > 1:
        words.append("one of: " + ", ".join(keywords))
    else:
        words += keywords
    return _either(words) if words else "nothing more"


def _suggest(word: str, names: set[str] | frozenset[str]) -> str | None:
    """The accepted keyword spelling nearest to `word`, among the keywords expected there."""
    table = keyword_table()
    candidates = [s for n in names if n in table for s in spellings(n)]
    close = difflib.get_close_matches(word.upper(), candidates, n=1, cutoff=0.6)
    return close[0] if close else None


def _really_expected(e: UnexpectedInput, names: set[str] | frozenset[str]) -> set[str] | frozenset[str]:
    """The terminals the parser could really take next.

    An LALR state may list more (lookaheads merged from other orders: FOR after 'MOVE G1'), so each
    is tried on a copy of the parser; only on errors, so the cost does not matter.
    """
    interactive = getattr(e, "interactive_parser", None)
    if interactive is None:
        return names
    real = set()
    for name in names:
        probe = interactive.copy()
        try:
            probe.feed_token(Token(name, ""))
        except (UnexpectedInput, _Problem):
            continue
        real.add(name)
    return real or names


def _syntax_problem(e: UnexpectedInput, line: str, start: str) -> _Problem:
    """Turn Lark's exception into a message that names the offending text."""
    if isinstance(e, UnexpectedToken):
        token = e.token
        expected = _really_expected(e, e.expected)
        if token.type == "$END":
            # $END borrows the position of the last token read
            last = line[token.start_pos : token.end_pos] if token.end_pos else ""
            after = f" after {_quote(last)}" if last else ""
            what = "header" if start == "header" else "order"
            column = token.end_column or len(line) + 1
            return _Problem(column, f"incomplete {what}: expected {_expected(expected)}{after}")
        word = str(token)
        hint = None
        if token.type not in expected and token.type not in keyword_table():
            hint = _suggest(word, expected)
        if hint:
            return _Problem(token.column, f"unexpected {_quote(word)} (did you mean {hint}?)")
        return _Problem(token.column, f"unexpected {_quote(word)}: expected {_expected(expected)}")
    if isinstance(e, UnexpectedCharacters):
        rest = line[e.pos_in_stream :]
        word = rest.split(None, 1)[0] if rest.strip() else rest[:1]
        expected = _really_expected(e, e.allowed or set())
        return _Problem(e.column, f"unexpected {_quote(word)}: expected {_expected(expected)}")
    return _Problem(1, "this line could not be understood")


def _parse_line(parser: _Driver, line: str, start: str) -> Any:
    """Parse one line; raises _Problem for anything wrong with it."""
    try:
        return parser.parse(line, start=start)
    except _Problem:
        raise
    except UnexpectedInput as e:
        raise _syntax_problem(e, line, start) from None
    except Exception as e:  # a player's line must never stop the whole order set
        raise _Problem(1, f"this line could not be understood ({type(e).__name__})") from e


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


def _is_header(line: str) -> bool:
    m = _FIRST_WORD.match(line)
    return m is not None and keyword_of().get(m.group(1).casefold()) == "GAME"


_END_MARK = re.compile(r"\s*(\w+)\s*\.?\s*(#.*)?")


def _is_end(line: str) -> bool:
    """END (ENDE, FINE, EINDE) alone on a line: the orders end there, a signature may follow."""
    m = _END_MARK.fullmatch(line)
    return m is not None and keyword_of().get(m.group(1).casefold()) == "END"


def _before_end(lines: list[str], start: int = 0) -> list[str]:
    """The lines up to the first end mark at or after `start` (all lines when there is none)."""
    end = next((i for i in range(start, len(lines)) if _is_end(lines[i])), len(lines))
    return lines[:end]


def _error(number: int, column: int, message: str, line: str, kind: str = "invalid") -> OrderError:
    return OrderError(number, column, message, kind, line.strip())


class _SetBuilder:
    """Collects one seat's header, orders and errors."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.parser = _entry(ruleset)[2]
        self.header: Header | None = None
        self.orders: list[Order] = []
        self.errors: list[OrderError] = []

    def add_header(self, number: int, line: str) -> None:
        try:
            self.header = _parse_line(self.parser, line, "header")(line=number)
        except _Problem as p:
            self.errors.append(_error(number, p.column, p.message, line, p.kind))

    def add_order(self, number: int, line: str) -> None:
        try:
            made = _parse_line(self.parser, line, "order")
        except _Problem as p:
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
    builder = _SetBuilder(ruleset)
    header_at = next((i for i, line in enumerate(lines) if _is_header(line)), None)
    lines = _before_end(lines, header_at or 0)
    if header_at is None:
        _missing_header(builder, lines, 1)
    for i, line in enumerate(lines):
        if not _is_content(line):
            continue
        if header_at is not None and i < header_at:
            _stray(builder, i + 1, line)
        elif i == header_at:
            builder.add_header(i + 1, line)
        elif _is_header(line):
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
        builder = _SetBuilder(ruleset)
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
