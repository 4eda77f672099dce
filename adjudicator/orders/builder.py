"""What a ruleset's order builder shares: the rules of common.lark (header, areas, seats), numbers, the problems
of one line, and "did you mean" for names.

A ruleset's builder (rulesets/<game>/parse.py) subclasses `CommonBuilder` with a method per rule of its grammar;
Lark calls them while it parses (no parse tree), and each returns a value or raises `LineProblem`.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from functools import cache, partial
from typing import TYPE_CHECKING, Any, ClassVar

from adjudicator.orders.keywords import UnknownLanguage, keyword_table, language_code, spellings
from adjudicator.orders.sets import Answer, Header, Language, Order, Press
from adjudicator.orders.tables import Token

if TYPE_CHECKING:
    from adjudicator.rulesets import Ruleset

MAX_NUMBER = 9999  # more than any game needs; stops absurd counts early


class LineProblem(Exception):
    """What is wrong with one line, and where: bad syntax, an unknown or ambiguous name, a bad number."""

    def __init__(self, column: int, message: str, kind: str = "invalid") -> None:
        super().__init__(message)
        self.column = column
        self.message = message
        self.kind = kind


def quote(text: str, limit: int = 40) -> str:
    """Show a piece of a player's line in a message; escapes make control characters visible."""
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    return f"'{text}'" if text.isprintable() else repr(text)


def either(items: list[str]) -> str:
    """'A', 'A or B', 'A, B or C'."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def closest(word: str, choices: dict[str, set[str]]) -> list[str]:
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
def all_spellings(ruleset: str | None = None) -> list[str]:
    """Every spelling of every keyword of `ruleset`, in every language."""
    return [s for name in keyword_table(ruleset) for s in spellings(name, ruleset)]


def values(children: list[Any]) -> tuple[Any, ...]:
    """The children that are not keyword tokens (areas, seats, built values)."""
    return tuple([x for x in children if not isinstance(x, Token)])


def int_of_digits(digits: str) -> int:
    """The number `digits` write; int() refuses very long digit strings, and anything that long is too large."""
    return int(digits) if len(digits) <= 9 else MAX_NUMBER + 1


def number_value(token: Token, minimum: int = 1) -> int:
    """The value of a NUMBER token, at least `minimum` and at most MAX_NUMBER."""
    value = -1 if token.startswith("-") else int_of_digits(token)
    if value < minimum:
        what = "a positive number" if minimum == 1 else "a number of at least 0"
        raise LineProblem(token.column, f"{quote(str(token))} is not {what}")
    if value > MAX_NUMBER:
        raise LineProblem(token.column, f"{quote(str(token))} is too large")
    return value


class CommonBuilder:
    """The rules of common.lark: the header line, areas and seats resolved against one ruleset. Lark calls it as a
    Transformer (the `transformer=` option; orders/tables.py calls it from kept tables), without importing Lark."""

    # How errors name the terminals that are not keywords; a ruleset's builder adds its own.
    described: ClassVar[dict[str, str]] = {
        "AREA": "an area",
        "SEAT": "a seat",
        "NUMBER": "a number",
        "GAME_NAME": "a game name",
        "DECISION_KEY": "a decision key (e.g. battle.NAR.1.retreat)",
        "SECRET": "a password",
        "MESSAGE": "':' and the message",
    }

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self.board = ruleset.board
        self.area_cache: dict[str, list[str]] = {}
        self.seat_cache: dict[str, list[str]] = {}  # a seat's word -> ruleset.lookup_seat(word), read once
        self.area_words = self._area_words()

    def __default__(self, data: str, children: list[Any], meta: Any) -> Any:
        """A rule without a method of its own makes a parse tree node, as Lark's Transformer does."""
        from lark import Tree

        return Tree(data, children, meta)

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

    def _lookup_seat(self, word: str) -> list[str]:
        found = self.seat_cache.get(word)
        if found is None:
            found = self.ruleset.lookup_seat(word)
            if len(self.seat_cache) < 10_000:  # garbage input must not grow the cache without end
                self.seat_cache[word] = found
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
            raise LineProblem(
                token.column, f"area {quote(word)} is ambiguous: {', '.join(labels[:8])}{more}", "ambiguous"
            )
        codes = closest(word.casefold(), self.area_words)
        hint = f" (did you mean {either([self._area_label(c) for c in codes])}?)" if codes else ""
        # a misspelt keyword where an area may also stand (NAVAL LOSES) is read as an area
        spelt = all_spellings(self.ruleset.name)
        keyword = [] if codes else difflib.get_close_matches(word.upper(), spelt, n=1, cutoff=0.8)
        if keyword:
            hint = f" (did you mean {keyword[0]}?)"
        raise LineProblem(token.column, f"unknown area {quote(word)}{hint}")

    def seat(self, c: list[Token]) -> str:
        token = c[0]
        word = token[1:-1].strip() if token.type == "QUOTED" else str(token)
        found = self._lookup_seat(word) if word else []
        if len(found) == 1:
            return found[0]
        if found:
            raise LineProblem(token.column, f"seat {quote(word)} is ambiguous: {', '.join(found)}", "ambiguous")
        names = {s.name.casefold(): s.name for s in self.ruleset.seats}
        names.update({s.home.casefold(): s.name for s in self.ruleset.seats})
        close = closest(word.casefold(), {k: {v} for k, v in names.items()})
        if close:
            hint = f" (did you mean {either(close)}?)"
        else:
            hint = f"; the seats are {', '.join(self.ruleset.seat_names)}"
        raise LineProblem(token.column, f"unknown seat {quote(word)}{hint}")

    def areas(self, c: list[Any]) -> tuple[str, ...]:
        return values(c)

    def seats(self, c: list[Any]) -> tuple[str, ...]:
        return values(c)

    def header(self, c: list[Any]) -> Callable[..., Header]:
        return partial(Header, game=str(c[1]), turn=number_value(c[3], minimum=0), player=c[5], password=str(c[7]))


class MailOrders:
    """The orders every game's mail carries, for a builder whose grammar writes them as
    `press: PRESS (TO seats)? MESSAGE`, `language: LANGUAGE LANGUAGE_NAME` and `answer: ANSWER DECISION_KEY MESSAGE`."""

    def press(self, c: list[Any]) -> list[Callable[..., Order]]:
        message = c[-1]
        text = message[1:].strip()
        if not text:
            raise LineProblem(message.column, "the message after ':' is empty")
        seats: tuple[str | None, ...] = c[2] if len(c) > 3 else (None,)
        return [partial(Press, to=seat, message=text) for seat in dict.fromkeys(seats)]

    def language(self, c: list[Any]) -> Callable[..., Order]:
        try:
            return partial(Language, code=language_code(str(c[1])))
        except UnknownLanguage as unknown:
            raise LineProblem(c[1].column, str(unknown)) from None

    def answer(self, c: list[Any]) -> Callable[..., Order]:
        text = c[2][1:].strip()
        if not text:
            raise LineProblem(c[2].column, "the answer after ':' is empty")
        return partial(Answer, key=str(c[1]), value=text)
