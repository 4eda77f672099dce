"""Conquest of the Empire's order language: its grammar files and the builder that makes its orders.

The shared parser (adjudicator/orders) loads common.lark and coe.lark and calls `CoeBuilder`'s methods while
Lark parses a line; each builds one order (Move, Sail, Buy ...) with areas and seats already resolved.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar

from adjudicator.engine.vocabulary import N_
from adjudicator.orders.builder import (
    CommonBuilder,
    LineProblem,
    MailOrders,
    int_of_digits,
    number_value,
    quote,
    values,
)
from adjudicator.orders.keywords import display
from adjudicator.orders.tables import Token
from adjudicator.rulesets.coe.orders import (
    CAESAR,
    BattleOrder,
    Buy,
    Captives,
    Concede,
    DestroyCity,
    FreedTo,
    Homes,
    Move,
    NavalBattle,
    Order,
    Priority,
    Purchase,
    RansomAccept,
    RansomOffer,
    RetreatRule,
    Sail,
    Step,
    Troops,
)
from adjudicator.rulesets.coe.vocabulary import WORDS

if TYPE_CHECKING:
    from adjudicator.rulesets import Ruleset

# The grammar files of grammar/, in order: the shared part, then the orders of Conquest of the Empire.
GRAMMAR_FILES = ("common.lark", "coe.lark")

_UNIT_KINDS = {"INFANTRY": "infantry", "CAVALRY": "cavalry", "CATAPULT": "catapult"}
_PIECES = {
    **_UNIT_KINDS,
    "GALLEY": "galley",
    "CITY": "city",
    "FORTIFICATION": "fortification",
    "FORTIFIED_CITY": "fortified_city",
}
_NAVAL_KINDS = {"EMPTY": "empty", "LOADED": "loaded", "GENERALS": "generals", "CAESAR": "caesar"}


def order_builder(ruleset: Ruleset) -> CoeBuilder:
    """The builder the shared parser calls while it parses this ruleset's orders."""
    return CoeBuilder(ruleset)


class CoeBuilder(MailOrders, CommonBuilder):
    """Builds Conquest of the Empire's orders while Lark parses (no parse tree)."""

    described: ClassVar[dict[str, str]] = {**CommonBuilder.described, "GEN_ID": "a general (G1, G2, ...)"}

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__(ruleset)
        own = int(ruleset.data.get("limits", {}).get("generals", 4))
        # generals taken over from eliminated players are numbered on after one's own (C-8.8)
        self.generals, self.most_generals = own, own * len(ruleset.seats)

    # troops -------------------------------------------------------------------------------------

    def general(self, c: list[Token]) -> tuple[int, int]:
        # (number, column): the column lets a later check point at this general
        if c[0].type == "GEN_ID":
            shown, number = str(c[0]), int_of_digits(c[0][1:])
        else:
            shown, number = f"{c[0]} {c[1]}", number_value(c[1], minimum=0)
        if not 1 <= number <= self.most_generals:
            raise LineProblem(
                c[0].column,
                f"unknown leader {quote(shown)}: generals are G1 to G{self.generals} "
                f"(G{self.generals + 1} to G{self.most_generals} when taken over)",
            )
        return number, c[0].column

    def leader(self, c: list[Any]) -> tuple[int, int]:
        token = c[0]
        return (CAESAR, token.column) if isinstance(token, Token) else token

    def leaders(self, c: list[Any]) -> tuple[int, ...]:
        seen: list[int] = []
        for number, column in values(c):
            if number in seen:
                raise LineProblem(column, f"leader {_leader_name(number)} is named twice")
            seen.append(number)
        return tuple(seen)

    def unit(self, c: list[Token]) -> tuple[str, int]:
        return _UNIT_KINDS[c[1].type], number_value(c[0])

    def units(self, c: list[Any]) -> dict[str, int]:
        counts: dict[str, int] = {}
        for kind, count in values(c):
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
            raise LineProblem(
                column,
                f"{display('LEAVING', WORDS)} drops pieces on the way; at the end of the move every piece stops anyway",
            )
        return partial(Move, troops=c[1], start=c[2], steps=tuple(step for step, _ in c[3:]))

    def sail(self, c: list[Any]) -> Callable[..., Order]:
        galleys = tuple(number_value(t) for t in c if isinstance(t, Token) and t.type == "NUMBER")
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
        count = number_value(c[0]) if c[0].type == "NUMBER" else 1
        piece = c[1] if c[0].type == "NUMBER" else c[0]
        sites = values(c)
        coast = next((t for t in c if isinstance(t, Token) and t.type == "COAST"), None)
        if coast is not None and piece.type != "GALLEY":
            raise LineProblem(coast.column, f"{display('COAST', WORDS)} names the coast of a new galley, not a {piece}")
        at = sites[0] if sites else None
        return Purchase(_PIECES[piece.type], count, at=at, coast=sites[1] if len(sites) > 1 else None)

    def road_item(self, c: list[Any]) -> Purchase:
        if c[0].type == "NUMBER" and number_value(c[0]) != 1:
            raise LineProblem(c[0].column, f"a {display('ROAD', WORDS)} joins two cities: buy one road per item")
        at, to = c[-1]
        return Purchase("road", 1, at=at, to=to)

    def leader_item(self, c: list[Any]) -> Purchase:
        # read so that the refusal can cite the rule rather than list what may be bought (C-1.5, O-10.5)
        leader = next(t for t in c if isinstance(t, Token) and t.type in ("GENERAL", "GENERALS", "CAESAR"))
        rule = self.ruleset.rule("1.5")
        raise LineProblem(leader.column, N_("Caesars and generals are never bought (%(rule)s)", rule=rule))

    def road_ends(self, c: list[Any]) -> tuple[str, str]:
        at, to = values(c)
        return at, to

    def buy(self, c: list[Any]) -> Callable[..., Order]:
        return partial(Buy, items=tuple(x for x in c[1:] if isinstance(x, Purchase)))

    def pick(self, c: list[Token]) -> tuple[int | None, Token]:
        """One entry of a priority: a unit kind with an optional count (4 INF)."""
        return (None, c[0]) if len(c) == 1 else (number_value(c[0]), c[1])

    def priority(self, c: list[Any]) -> Callable[..., Order]:
        picks = [x for x in c[1:] if isinstance(x, tuple)]
        unlimited: set[str] = set()
        for count, token in picks:  # after an entry without a count no unit of that kind is left
            kind = _UNIT_KINDS[token.type]
            if kind in unlimited:
                raise LineProblem(token.column, f"{quote(str(token))} is listed twice")
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
        return "enemy_advantage_at_least", number_value(c[-1], minimum=0)

    def units_below(self, c: list[Token]) -> tuple[str, int]:
        return "units_below", number_value(c[-1])

    def below_enemy(self, c: list[Token]) -> tuple[str, None]:
        return "below_enemy", None

    def caesar_and_units_below(self, c: list[Token]) -> tuple[str, int]:
        return "caesar_and_units_below", number_value(c[-1])

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
        return "talents", number_value(c[0], minimum=0), c[0].column

    def prisoner(self, c: list[Any]) -> tuple[str, tuple[str, int], int]:
        return "prisoner", (c[0], c[1][0]), 0

    def ransom_offer(self, c: list[Any]) -> Callable[..., Order]:
        talents: int | None = None
        prisoners: list[tuple[str, int]] = []
        for kind, value, column in (x for x in c[5:] if isinstance(x, tuple)):
            if kind == "prisoner":
                prisoners.append(value)
            elif talents is not None:
                raise LineProblem(column, "talents are given twice in one offer")
            else:
                talents = value
        return partial(RansomOffer, owner=c[2], general=c[3][0], talents=talents or 0, prisoners=tuple(prisoners))

    def ransom_accept(self, c: list[Any]) -> Callable[..., Order]:
        minimum = number_value(c[5], minimum=0) if len(c) > 5 else 0
        return partial(RansomAccept, owner=c[2], general=c[3][0], min_talents=minimum)

    def concede(self, c: list[Any]) -> Callable[..., Order]:
        return partial(Concede, to=c[2])


def _kinds(tokens: list[Any], names: dict[str, str]) -> tuple[str, ...]:
    seen: list[str] = []
    for token in tokens:
        if isinstance(token, Token) and token.type in names:
            if names[token.type] in seen:
                raise LineProblem(token.column, f"{quote(str(token))} is listed twice")
            seen.append(names[token.type])
    return tuple(seen)


def _leader_name(number: int) -> str:
    return display("CAESAR", WORDS) if number == CAESAR else f"G{number}"
