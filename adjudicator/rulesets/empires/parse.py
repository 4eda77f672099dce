"""Empires of the Ancient World's order language: its grammar files and the builder that makes its orders (orders.py).

The shared parser (adjudicator/orders) loads grammar/common.lark and games/empires-aw/orders.lark and calls
`EmpiresBuilder`'s methods while Lark parses a line. Names are resolved against one game's data (EAW-11): areas by
id or name (or a prefix of either), cards by data id or name (or a prefix), seats by colour; a name that names
nothing gets "did you mean", an ambiguous one the list of what it may mean.

Wiring into the bound ruleset (game.py): `grammar_files`, `order_builder()` and `board` come from one
`OrderLanguage(data)`, which the shared parser may also be given in place of the ruleset (it has the members the
parser reads). `read_action_line(text, ruleset)` reads an ANSWER's text as the alternatives of one action (the free
action after a rout, EAW-12.9).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Final

from adjudicator.engine.board import COAST, LAND_BORDER, MOUNTAIN, SEA_LANE, STRAIT, AreaInfo, Board, Link
from adjudicator.engine.vocabulary import N_
from adjudicator.errors import PbemError
from adjudicator.orders.builder import CommonBuilder, LineProblem, MailOrders, closest, either, number_value, quote
from adjudicator.orders.keywords import display
from adjudicator.orders.tables import Token
from adjudicator.resources import resource_dir
from adjudicator.rulesets.empires import data as eaw
from adjudicator.rulesets.empires.orders import (
    REFRESH_IF_NONE,
    REFRESH_NO,
    REFRESH_YES,
    Action,
    AmbushOrder,
    Attack,
    BuildFort,
    DefendOrder,
    Diplomacy,
    Disband,
    FortChoice,
    LossesOrder,
    MarkersOrder,
    PlaceChoice,
    PlaceControl,
    PlaceTrade,
    PlanLine,
    Recruit,
    StackOrder,
    StartChoice,
    TradeTarget,
)

if TYPE_CHECKING:
    from adjudicator.orders.sets import Order

RULESET: Final = "empires-aw"
COLOURS: Final = ("red", "blue", "green", "yellow", "white")  # the seats when the data name no others
BEST: Final = "best"  # Recruit.wants: the card of highest value (EAW-12.3)
MIN_PREFIX: Final = 3  # the shortest beginning of a card name that names it
MAX_PAY: Final = 3  # EAW-7.11 b, EAW-12.10: 0 to 3 trade markers
STACK_SIZES: Final = {"open": eaw.OPEN_STACK, "siege": eaw.SIEGE_STACK, "naval": eaw.NAVAL_STACK}
COPY: Final = re.compile(r"\s*#\d+$")  # a copy number, as older reports showed it: copies are alike (EAW-13.17)
_SITUATIONS: Final = {"OPEN": "open", "SIEGE": "siege", "NAVAL": "naval"}
_SIDES: Final = {"ATTACK": "attack", "DEFEND": "defend"}
# the engine board's link kind of a connection (the first of its kinds in this order)
_LINK_KINDS: Final = (
    (eaw.STRAIT, STRAIT),
    (eaw.MOUNTAIN, MOUNTAIN),
    (eaw.SEA_LANE, SEA_LANE),
    (eaw.COAST, COAST),
    (eaw.WATER, SEA_LANE),
    (eaw.LAND, LAND_BORDER),
)


def grammar_files() -> tuple[Path, ...]:
    """The grammar files of the order language, in the order they are joined."""
    return resource_dir("grammar") / "common.lark", resource_dir("games") / RULESET / "orders.lark"


def _key(text: str) -> str:
    """How card names are compared: case-folded, with spaces and underscores as hyphens (Guard A = guard_a)."""
    return "-".join(text.replace("_", " ").replace("-", " ").casefold().split())


def map_board(game_map: eaw.GameMap) -> Board:
    """The data's map as the engine's board (areas by id with names and values; one link per connection)."""
    areas = {
        a.id: AreaInfo(a.id, a.name, "land" if a.is_province else "sea", a.value, x=a.x, y=a.y)
        for a in game_map.areas.values()
    }
    links = []
    for c in game_map.connections:
        kind = next((link for data_kind, link in _LINK_KINDS if data_kind in c.kinds), LAND_BORDER)
        links.append(Link(c.a, c.b, kind))
    return Board(areas, tuple(links))


class Cards:
    """The data's card entries: id and name -> id, with unique prefixes and "did you mean"."""

    def __init__(self, cards: Iterable[eaw.Card]) -> None:
        self.labels: dict[str, str] = {}
        self.keys: dict[str, set[str]] = {}
        for card in cards:
            self.labels[card.id] = card.id if _key(card.name) == _key(card.id) else f"{card.id} ({card.name})"
            for key in (_key(card.id), _key(card.name)):
                self.keys.setdefault(key, set()).add(card.id)

    def lookup(self, text: str) -> list[str]:
        key = _key(COPY.sub("", text))  # a copy (e_swords#2) is its card (EAW-12.6, EAW-13.17)
        if not key:
            return []
        if key in self.keys:
            return sorted(self.keys[key])
        if len(key) < MIN_PREFIX:
            return []
        return sorted({i for k, idents in self.keys.items() if k.startswith(key) for i in idents})

    def resolve(self, text: str, column: int) -> str:
        found = self.lookup(text)
        if len(found) == 1:
            return found[0]
        if found:
            labels = ", ".join(self.labels[i] for i in found[:8])
            raise LineProblem(
                column, N_("card %(name)s is ambiguous: %(labels)s", name=quote(text), labels=labels), "ambiguous"
            )
        near = closest(_key(text), self.keys)
        if near:
            hint = either([self.labels[i] for i in near])
            raise LineProblem(column, N_("unknown card %(name)s (did you mean %(hint)s?)", name=quote(text), hint=hint))
        raise LineProblem(column, N_("unknown card %(name)s", name=quote(text)))


class OrderLanguage:
    """What the shared parser needs of a ruleset to read this game's orders for one game's data: `grammar_files`,
    `order_builder()`, `board`, `lookup_seat` and `seat_names` (adjudicator/orders/parser.py), and the `name`
    whose keyword table it reads (games/empires-aw/keywords.toml). `seats`: the game's seat names (colours)."""

    name = RULESET

    def __init__(self, data: eaw.GameData, seats: Iterable[str] | None = None) -> None:
        self.data = data
        self.map = data.map
        self.board: Board = map_board(data.map)
        self.grammar_files = grammar_files()
        self.cards = Cards(data.cards.values())
        kinds = {c.category for c in data.cards.values() if c.kind != eaw.PERSONALITY}
        self.kinds = frozenset(kinds | set(eaw.PERSONALITY_TYPES))
        self.seat_names: tuple[str, ...] = tuple(seats) if seats is not None else COLOURS

    def lookup_seat(self, text: str) -> list[str]:
        """A seat by its colour, or a prefix of it (case does not matter)."""
        key = text.strip().casefold()
        if not key:
            return []
        exact = [s for s in self.seat_names if s.casefold() == key]
        return exact or [s for s in self.seat_names if s.casefold().startswith(key)]

    def order_builder(self) -> EmpiresBuilder:
        return EmpiresBuilder(self)


_LANGUAGES: dict[tuple[int, tuple[str, ...]], tuple[eaw.GameData, OrderLanguage]] = {}


def language_of(data: eaw.GameData, seats: Iterable[str] | None = None) -> OrderLanguage:
    """One OrderLanguage per game data and seats, kept: the shared parser builds its parser once per language, so
    that reading an answer or checking a template's examples does not build it again."""
    names = tuple(seats) if seats is not None else COLOURS
    key = (id(data), names)
    found = _LANGUAGES.get(key)
    if found is None or found[0] is not data:
        if len(_LANGUAGES) > 64:  # games of a long-running process: never grow without end
            _LANGUAGES.clear()
        found = _LANGUAGES[key] = (data, OrderLanguage(data, names))
    return found[1]


class EmpiresBuilder(MailOrders, CommonBuilder):
    """Builds Empires of the Ancient World orders while Lark parses (no parse tree)."""

    described: ClassVar[dict[str, str]] = {
        **CommonBuilder.described,
        "CARD": "a card",
        "QUOTED": "a quoted name",
    }

    def __init__(self, language: OrderLanguage) -> None:
        super().__init__(language)  # type: ignore[arg-type]  # the parser needs only board, name and lookup_seat
        self.context = language

    # names ------------------------------------------------------------------------------------------------------
    def _lookup_area(self, word: str) -> list[str]:
        """An area by its data id or name, or a prefix of either (GameMap.lookup)."""
        key = word.casefold()
        found = self.area_cache.get(key)
        if found is None:
            found = self.context.map.lookup(word) if key.strip() else []
            if len(self.area_cache) < 10_000:  # garbage input must not grow the cache without end
                self.area_cache[key] = found
        return found

    def seat(self, c: list[Token]) -> str:
        token = c[0]
        word = token[1:-1].strip() if token.type == "QUOTED" else str(token)
        found = self.context.lookup_seat(word)
        if len(found) == 1:
            return found[0]
        if found:
            raise LineProblem(
                token.column, N_("seat %(name)s is ambiguous: %(seats)s", name=quote(word), seats=", ".join(found))
            )
        near = closest(word.casefold(), {s.casefold(): {s} for s in self.context.seat_names})
        if near:
            raise LineProblem(
                token.column, N_("unknown seat %(name)s (did you mean %(hint)s?)", name=quote(word), hint=either(near))
            )
        raise LineProblem(
            token.column,
            N_(
                "unknown seat %(name)s; the seats are %(seats)s",
                name=quote(word),
                seats=", ".join(self.context.seat_names),
            ),
        )

    def card(self, c: list[Token]) -> tuple[str, int]:
        token = c[0]
        return (token[1:-1].strip() if token.type == "QUOTED" else str(token)), token.column

    def cards(self, c: list[Any]) -> tuple[str, ...]:
        return tuple(self.context.cards.resolve(word, column) for word, column in _named(c))

    # placement (EAW-3.7 to EAW-3.10, EAW-12.1, EAW-12.13, EAW-12.14) -----------------------------------------------
    def start(self, c: list[Any]) -> partial[Order]:
        areas = _once(c[1], c[0].column)
        sea = [a for a in areas if not self.context.map.areas[a].is_province]
        if sea:
            raise LineProblem(
                c[0].column, N_("a starting province is a land province, not %(sea)s (EAW-3.7)", sea=sea[0])
            )
        return partial(StartChoice, areas=areas)

    def place(self, c: list[Any]) -> partial[Order]:
        return partial(PlaceChoice, areas=_once(c[1], c[0].column))

    def fort_choice(self, c: list[Any]) -> partial[Order]:
        areas = _once(tuple(x for x in c if isinstance(x, str) and not isinstance(x, Token)), c[0].column)
        self._provinces(areas, c[0].column, "EAW-3.10")
        return partial(FortChoice, areas=areas)

    def _provinces(self, areas: Iterable[str], column: int, rule: str) -> None:
        sea = [a for a in areas if not self.context.map.areas[a].is_province]
        if sea:
            raise LineProblem(
                column, N_("a fort stands in a province, not in %(sea)s (%(rule)s)", sea=sea[0], rule=rule)
            )

    # actions (EAW-7, EAW-12.2 to EAW-12.15) -------------------------------------------------------------------------
    def plan_line(self, c: list[Any]) -> partial[Order]:
        alternatives = _without_sea_forts(tuple(x for x in c if not isinstance(x, Token)))
        if len(alternatives) == 1 and isinstance(alternatives[0], BuildFort):  # the starting fort too (EAW-12.14)
            return partial(FortChoice, areas=(alternatives[0].area,))
        return partial(PlanLine, alternatives=alternatives)

    def attack(self, c: list[Any]) -> Attack:
        after = _after(c)
        target, origin = c[1], c[3]
        if target == origin:
            raise LineProblem(c[2].column, N_("an attack comes from another area than its target (EAW-7.1)"))
        stack: tuple[str, ...] = after.get("WITH", ())
        if len(stack) > eaw.OPEN_STACK:
            raise LineProblem(
                c[4].column,
                N_(
                    "a battle stack holds at most %(most)s cards, not %(count)s (EAW-8.1)",
                    most=eaw.OPEN_STACK,
                    count=len(stack),
                ),
            )
        then_at = next((i for i, x in enumerate(c) if _is(x, "THEN")), len(c))
        then = _without_sea_forts(tuple(x for x in c[then_at + 1 :] if not isinstance(x, Token)))
        return Attack(target, origin, stack=stack, then=then)

    def free_attack(self, c: list[Any]) -> Attack:
        then = next((x for x in c if _is(x, "THEN")), None)
        if then is not None:
            raise LineProblem(then.column, N_("a free action earns no other free action (EAW-13.9)"))
        return self.attack(c)

    def diplomacy(self, c: list[Any]) -> Diplomacy:
        return Diplomacy(c[1])

    def diplomacy_remove(self, c: list[Any]) -> Diplomacy:
        pay = None
        if len(c) > 3:
            pay = number_value(c[4], minimum=0)
            if pay > MAX_PAY:
                raise LineProblem(
                    c[4].column,
                    N_("a diplomat pays 0 to %(most)s trade markers, not %(pay)s (EAW-7.11)", most=MAX_PAY, pay=pay),
                )
        return Diplomacy(c[2], remove=True, pay=pay)

    def recruit(self, c: list[Any]) -> Recruit:
        wants = next((x for x in c if isinstance(x, tuple)), ())
        refresh = next((x for x in c if isinstance(x, str) and not isinstance(x, Token)), REFRESH_NO)
        return Recruit(wants=wants, refresh=refresh)

    def wants(self, c: list[Any]) -> tuple[str, ...]:
        found: list[str] = []
        for item in c:
            if isinstance(item, Token) and item.type == "BEST":
                want, column = BEST, item.column
            elif isinstance(item, tuple):
                word, column = item
                want = self._want(word, column)
            else:
                continue
            if want in found:
                raise LineProblem(column, N_("%(name)s is listed twice", name=want))
            found.append(want)
        return tuple(found)

    def _want(self, word: str, column: int) -> str:
        """A card (id or name), else a category or personality type (EAW-12.3)."""
        key = _key(word)
        if key in self.context.cards.keys:
            return self.context.cards.resolve(word, column)
        if key in self.context.kinds:
            return key
        return self.context.cards.resolve(word, column)

    def refresh(self, c: list[Any]) -> str:
        return REFRESH_IF_NONE if len(c) > 1 else REFRESH_YES

    def disband(self, c: list[Any]) -> Disband:
        word, column = c[1]
        return Disband(self.context.cards.resolve(word, column))

    def build_fort(self, c: list[Any]) -> BuildFort:
        if not self.context.map.areas[c[1]].is_province:
            return _SeaFort(c[1], c[0].column)  # refused only when no alternative is left (_without_sea_forts)
        return BuildFort(c[1])

    def trade(self, c: list[Any]) -> PlaceTrade:
        targets = tuple(x for x in c if isinstance(x, TradeTarget))
        return PlaceTrade(targets)

    def trade_target(self, c: list[Any]) -> TradeTarget:
        if len(c) == 1:
            return TradeTarget(c[0])
        return TradeTarget(c[0], displace=c[2] if len(c) > 2 else "")

    def control(self, c: list[Any]) -> PlaceControl:
        return PlaceControl(c[1])

    # standing battle plans (EAW-12.4 to EAW-12.8) -------------------------------------------------------------------
    def defend(self, c: list[Any]) -> partial[Order]:
        area = c[3] if len(c) > 3 else None
        if area is not None and not self.context.map.areas[area].is_province:
            raise LineProblem(
                c[2].column, N_("a siege is fought in a fortified province, not in %(sea)s (EAW-8.15)", sea=area)
            )
        return partial(DefendOrder, siege=c[1].type == "SIEGE", area=area)

    def ambush(self, c: list[Any]) -> partial[Order]:
        return partial(AmbushOrder, ambush=c[1].type == "YES", area=c[3] if len(c) > 3 else None)

    def stack(self, c: list[Any]) -> partial[Order]:
        situation = next((_SITUATIONS[t.type] for t in c if _is(t, *_SITUATIONS)), None)
        side = next((_SIDES[t.type] for t in c if _is(t, *_SIDES)), None)
        cards: tuple[str, ...] = c[-1]
        most = STACK_SIZES[situation] if situation else max(STACK_SIZES.values())
        if len(cards) > most:
            rule = "EAW-8.15" if situation == "siege" else "EAW-8.1"
            raise LineProblem(
                c[0].column,
                N_(
                    "a battle stack holds at most %(most)s cards, not %(count)s (%(rule)s)",
                    most=most,
                    count=len(cards),
                    rule=rule,
                ),
            )
        return partial(StackOrder, cards=cards, situation=situation, side=side)

    def markers(self, c: list[Any]) -> partial[Order]:
        return partial(MarkersOrder, push=c[1].type == "PUSH")

    def losses(self, c: list[Any]) -> partial[Order]:
        return partial(LossesOrder, cards=c[1])


@dataclass(frozen=True)
class _SeaFort(BuildFort):
    """A fort at sea while its line is read: never legal (EAW-2.5), yet only the line's one alternative is refused
    for it; beside fall-backs it stays as a BuildFort, which the receipt names as never legal (checks.py)."""

    column: int = field(default=1, compare=False)


def _without_sea_forts(alternatives: tuple[Any, ...]) -> tuple[Any, ...]:
    """`alternatives` with each fort at sea a plain BuildFort; a fort at sea alone is refused (EAW-7.25, EAW-2.5)."""
    if len(alternatives) == 1 and isinstance(alternatives[0], _SeaFort):
        sea = alternatives[0]
        raise LineProblem(
            sea.column, N_("a fort stands in a province, not in %(sea)s (%(rule)s)", sea=sea.area, rule="EAW-7.25")
        )
    return tuple(BuildFort(a.area) if isinstance(a, _SeaFort) else a for a in alternatives)


def _is(item: Any, *types: str) -> bool:
    return isinstance(item, Token) and item.type in types


def _named(c: list[Any]) -> list[tuple[str, int]]:
    return [x for x in c if isinstance(x, tuple)]


def _after(c: list[Any]) -> dict[str, Any]:
    """Keyword -> the value that follows it in a rule's children."""
    return {x.type: c[i + 1] for i, x in enumerate(c[:-1]) if isinstance(x, Token)}


def _once(names: tuple[str, ...], column: int) -> tuple[str, ...]:
    """`names` if none repeats; a repeated area is refused."""
    twice = next((n for i, n in enumerate(names) if n in names[:i]), None)
    if twice is not None:
        raise LineProblem(column, N_("%(twice)s is listed twice", twice=twice))
    return tuple(names)


def written_in(text: str) -> str:
    """The language whose keywords `text` (a line as a player wrote it) uses most: the one to quote it back in
    (orders.canonical); English when none has more."""
    from adjudicator.orders.keywords import KEYWORD_LANGUAGES, keyword_table

    words = re.findall(r"\w+", text.upper())
    table = keyword_table(RULESET)

    def count(language: str) -> int:
        spelt = {s for spellings in table.values() for s in spellings[language]}
        return sum(word in spelt for word in words)

    return max(KEYWORD_LANGUAGES, key=count)  # the first of a tie: English


class BadActionLine(PbemError, ValueError):
    """An ANSWER's text that is not one action line of the order language."""


def read_action_line(text: str, ruleset: Any) -> tuple[Action, ...]:
    """An ANSWER's text read as one plan line (the free action after a rout, EAW-12.9): its alternatives in order.
    `ruleset`: the bound ruleset (or an OrderLanguage); any of its keyword languages. A text that is not one action
    line raises BadActionLine naming the problem."""
    from adjudicator.orders import parse_orders

    seat = ruleset.seat_names[0] if ruleset.seat_names else "red"
    parsed = parse_orders(f"GAME g TURN 1 PLAYER {seat} PASSWORD x\n{text.strip()}", ruleset)
    problems = [e for e in parsed.errors if e.line > 1]
    if problems:
        raise BadActionLine(
            N_(
                "%(answer)s cannot be read: column %(column)s: %(problem)s (EAW-12.9)",
                answer=repr(text.strip()),
                column=problems[0].column,
                problem=problems[0].message,
            )
        )
    found = list(parsed.orders)
    if len(found) == 1 and isinstance(found[0], PlanLine):
        if any(isinstance(a, Attack) and a.then for a in found[0].alternatives):
            raise BadActionLine(
                N_(
                    "%(answer)s: a free action earns no other free action (EAW-13.9)",
                    answer=repr(text.strip()),
                )
            )
        return found[0].alternatives
    raise BadActionLine(
        N_(
            "%(answer)s: the answer is one action, like a line of the plan, e.g. %(example)s (EAW-12.9)",
            answer=repr(text.strip()),
            example=f"{display('TRADE', RULESET)} ...",
        )
    )
