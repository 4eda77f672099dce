"""Conqueror: Empire Rises's order language: its grammar files and the builder that makes its orders (orders.py).

The shared parser (adjudicator/orders) loads grammar/common.lark and games/conqueror-er/orders.lark and calls
`ConquerorBuilder`'s methods while Lark parses a line. Names are resolved against one edition's GameData: areas
(codes or names of the map side in play), factions (ids or names) and cards (hero and tactic ids or names), each
with "did you mean" when it names nothing.

Wiring into a ruleset (ruleset.py): `grammar_files` returns `grammar_files()`, and `order_builder()` returns
`order_builder(language)` for an `OrderLanguage(data, side)`, which also gives `board` and `lookup_seat`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, ClassVar

from adjudicator.engine.board import Board
from adjudicator.engine.vocabulary import N_
from adjudicator.orders.builder import (
    CommonBuilder,
    LineProblem,
    MailOrders,
    closest,
    either,
    number_value,
    quote,
    values,
)
from adjudicator.orders.keywords import display, in_english
from adjudicator.orders.sets import Order
from adjudicator.orders.tables import Token
from adjudicator.resources import resource_dir
from adjudicator.rulesets.conqueror.data import RULESET, GameData
from adjudicator.rulesets.conqueror.orders import (
    INDEPENDENTS,
    UPGRADE_UNIT,
    WHARF,
    AgentAction,
    BattlePlan,
    BlockFilter,
    Build,
    CasualtyOrder,
    DefencePlan,
    Dynasty,
    Food,
    FreeMen,
    LossPriority,
    Megaproject,
    Move,
    Pay,
    Purchase,
    RecruitElite,
    RecruitHero,
    RecruitUnits,
    Reinforce,
    Reinforcement,
    RetreatPriority,
    TemporaryCapital,
    Trade,
    Transport,
    Troops,
    TurnOrder,
    Upgrade,
)

_KINDS = {"CAVALRY": "cavalry", "INFANTRY": "infantry", "ARCHER": "archer", "SHIP": "ship", "SIEGE": "siege"}
_LOSS_KINDS = {**_KINDS, "ELITE": "elite"}
_STANDARD = ("cavalry", "infantry", "archer")  # the units the food limit counts (ER-5.31)
_DISTRICTS = {"GRANARY": "granary", "BAZAAR": "bazaar", "ACADEMY": "academy", "FORTIFICATION": "fort"}
_UPGRADES = {"CAVALRY": "cavalry", "INFANTRY": "infantry", "ARCHER": "archer", "MARINE": "marine"}
_MEGAPROJECTS = {"WONDER": "wonder", "TEMPLE": "temple", "PORT": "port"}
_SLOTS = {"DISTRICT": "district", "UPGRADE": "upgrade"}
MIN_PREFIX = 3  # the shortest beginning of a name that names it
MAX_BLOCK_STRENGTH = 5  # ER-12.5: only an army of total strength 5 or less can be blocked

# A group of units as the builder passes it on: the units, and the column of each kind (to point at it).
_Group = tuple[Troops, dict[str, int]]
# A plan clause: (field of BattlePlan, value, column of its keyword).
_Clause = tuple[str, Any, int]


def grammar_files() -> tuple[Path, ...]:
    """The grammar files of the order language, in the order they are joined."""
    return resource_dir("grammar") / "common.lark", resource_dir("games") / "conqueror-er" / "orders.lark"


def _key(text: str) -> str:
    """How names are compared: case-folded, with spaces and underscores as hyphens ("Shield Wall" = shield-wall)."""
    return "-".join(text.replace("_", " ").replace("-", " ").casefold().split())


@dataclass(frozen=True)
class NameMessages:
    """What a line is told about one kind of name: a whole sentence each, so that it reads in the player's language."""

    unknown: str
    unknown_near: str
    ambiguous: str
    twice: str


FACTION_MESSAGES = NameMessages(
    N_("unknown faction %(name)s"),
    N_("unknown faction %(name)s (did you mean %(hint)s?)"),
    N_("faction %(name)s is ambiguous: %(labels)s"),
    N_("faction %(name)s is named twice"),
)
HERO_MESSAGES = NameMessages(
    N_("unknown hero %(name)s"),
    N_("unknown hero %(name)s (did you mean %(hint)s?)"),
    N_("hero %(name)s is ambiguous: %(labels)s"),
    N_("hero %(name)s is named twice"),
)
UPGRADE_MESSAGES = NameMessages(
    N_("unknown upgrade card %(name)s"),
    N_("unknown upgrade card %(name)s (did you mean %(hint)s?)"),
    N_("upgrade card %(name)s is ambiguous: %(labels)s"),
    N_("upgrade card %(name)s is named twice"),
)
TACTIC_MESSAGES = NameMessages(
    N_("unknown tactic card %(name)s"),
    N_("unknown tactic card %(name)s (did you mean %(hint)s?)"),
    N_("tactic card %(name)s is ambiguous: %(labels)s"),
    N_("tactic card %(name)s is named twice"),
)


class Names:
    """One kind of named thing (factions, heroes, tactic cards): id and name -> id, with unique prefixes."""

    def __init__(self, messages: NameMessages, entries: Iterable[tuple[str, str]]) -> None:
        self.messages = messages
        self.labels: dict[str, str] = {}
        self.keys: dict[str, set[str]] = {}
        for ident, name in entries:
            self.labels[ident] = ident if _key(name) == _key(ident) else f"{ident} ({name})"
            for key in (_key(ident), _key(name)):
                self.keys.setdefault(key, set()).add(ident)

    def lookup(self, text: str) -> list[str]:
        key = _key(text)
        if not key:
            return []
        if key in self.keys:
            return sorted(self.keys[key])
        if len(key) < MIN_PREFIX:  # "A" or "DA" would read like a keyword (TO, FROM) where both may stand
            return []
        return sorted({i for k, idents in self.keys.items() if k.startswith(key) for i in idents})

    def resolve(self, text: str, column: int) -> str:
        found = self.lookup(text)
        if len(found) == 1:
            return found[0]
        if found:
            labels = ", ".join(self.labels[i] for i in found[:8])
            raise LineProblem(column, self.messages.ambiguous % {"name": quote(text), "labels": labels}, "ambiguous")
        near = closest(_key(text), self.keys)
        if near:
            hint = either([self.labels[i] for i in near])
            raise LineProblem(column, self.messages.unknown_near % {"name": quote(text), "hint": hint})
        raise LineProblem(column, self.messages.unknown % {"name": quote(text)})


class OrderLanguage:
    """What the shared parser needs of a ruleset to read this game's orders for one edition's data and map side:
    `grammar_files`, `order_builder()`, `board` and `lookup_seat` (adjudicator/orders/parser.py), and the `name`
    whose keyword table it reads (games/conqueror-er/keywords.toml)."""

    name = RULESET

    def __init__(self, data: GameData, side: str | None = None) -> None:
        self.data = data
        # without a side, the largest map: every area a game of this edition can name
        chosen = side or max(data.maps, key=lambda s: len(data.maps[s].areas))
        self.map = data.maps[chosen]
        self.board: Board = self.map.board
        self.grammar_files = grammar_files()
        self.factions = Names(FACTION_MESSAGES, ((f.id, f.name) for f in data.factions.values()))
        self.heroes = Names(HERO_MESSAGES, ((h.id, h.name) for h in data.cards.heroes))
        self.tactics = Names(TACTIC_MESSAGES, ((t.id, t.name) for t in data.cards.tactics))
        self.upgrades = Names(UPGRADE_MESSAGES, ((card, card) for card in UPGRADE_UNIT))  # ER-9.4

    @property
    def seat_names(self) -> tuple[str, ...]:
        return tuple(self.data.factions)

    def lookup_seat(self, text: str) -> list[str]:
        return self.factions.lookup(text)

    def order_builder(self) -> ConquerorBuilder:
        return order_builder(self)


def order_builder(language: OrderLanguage) -> ConquerorBuilder:
    """The builder the shared parser calls while it parses this game's orders."""
    return ConquerorBuilder(language)


class ConquerorBuilder(MailOrders, CommonBuilder):
    """Builds Conqueror: Empire Rises orders while Lark parses (no parse tree)."""

    described: ClassVar[dict[str, str]] = {
        **CommonBuilder.described,
        "SEAT": "a faction",
        "CARD": "a hero or tactic card",
        "QUOTED": "a quoted name",
    }

    def __init__(self, language: OrderLanguage) -> None:
        super().__init__(language)  # type: ignore[arg-type]  # the parser needs only board and lookup_seat
        self.context = language

    # names ------------------------------------------------------------------------------------------------------

    def seat(self, c: list[Token]) -> str:
        token = c[0]
        word = token[1:-1].strip() if token.type == "QUOTED" else str(token)
        return self.context.factions.resolve(word, token.column)

    def card(self, c: list[Token]) -> tuple[str, int]:
        token = c[0]
        return (token[1:-1].strip() if token.type == "QUOTED" else str(token)), token.column

    def cards(self, c: list[Any]) -> list[tuple[str, int]]:
        return list(values(c))

    def _cards(self, names: Names, cards: list[tuple[str, int]]) -> tuple[str, ...]:
        found: list[str] = []
        for word, column in cards:
            ident = names.resolve(word, column)
            if ident in found:
                raise LineProblem(column, names.messages.twice % {"name": ident})
            found.append(ident)
        return tuple(found)

    # units --------------------------------------------------------------------------------------------------------

    def troop(self, c: list[Token]) -> tuple[str, int, int]:
        if c[-1].type == "ELITE":
            _one_elite(c)
            return "elite", 1, c[0].column
        return _KINDS[c[1].type], number_value(c[0]), c[0].column

    def troops(self, c: list[Any]) -> _Group:
        counts: dict[str, int] = {}
        columns: dict[str, int] = {}
        for kind, count, column in c:
            if kind == "elite" and kind in counts:
                raise LineProblem(
                    column,
                    N_("%(elite)s is named twice: a faction has one elite unit", elite=display("ELITE", RULESET)),
                )
            counts[kind] = counts.get(kind, 0) + count
            columns.setdefault(kind, column)
        elite = bool(counts.pop("elite", 0))
        return Troops(**counts, elite=elite), columns

    # Politics (ER-5.4 to ER-5.29, ER-12.6 to ER-12.10) --------------------------------------------------------------

    def space(self, c: list[Token]) -> int:
        number = number_value(c[1])
        if number not in (1, 2):
            raise LineProblem(
                c[1].column, N_("every agent action has spaces 1 and 2, not %(number)s (ER-5.12)", number=number)
            )
        return number

    def trade(self, c: list[Any]) -> Trade:
        partner = c[2]
        return Trade(INDEPENDENTS if isinstance(partner, Token) else partner)

    def build(self, c: list[Any]) -> Build:
        return Build(_DISTRICTS[c[0].type], space=c[1] if len(c) > 1 else None)

    def build_fort(self, c: list[Any]) -> Build:
        site = c[2]
        if not self.board.is_land(site):
            raise LineProblem(c[1].column, N_("a fort is placed on a land area, not on %(site)s (ER-5.14)", site=site))
        return Build("fort", site=site, space=c[3] if len(c) > 3 else None)

    def upgrade(self, c: list[Any]) -> Upgrade:
        return Upgrade(_UPGRADES[c[1].type], space=c[2] if len(c) > 2 else None)

    def upgrade_card(self, c: list[Any]) -> Upgrade:
        word, column = c[1]
        card = self.context.upgrades.resolve(word, column)
        return Upgrade(UPGRADE_UNIT[card], space=c[2] if len(c) > 2 else None, card=card)

    def megaproject(self, c: list[Any]) -> Megaproject:
        slot = next((_SLOTS[t.type] for t in c[1:] if isinstance(t, Token) and t.type in _SLOTS), None)
        space = next((x for x in c if isinstance(x, int) and not isinstance(x, Token)), None)
        return Megaproject(_MEGAPROJECTS[c[0].type], slot=slot, space=space)

    def wharf(self, c: list[Any]) -> Megaproject:
        site = c[2]
        if not self.board.is_land(site):
            raise LineProblem(
                c[1].column, N_("a wharf stands on a coastal land area, not on %(site)s (ER-12.9)", site=site)
            )
        ships_at = c[4] if len(c) > 4 and isinstance(c[3], Token) else None
        if ships_at is not None and self.board.is_land(ships_at):
            raise LineProblem(
                c[3].column, N_("the wharf's ships go to a sea area, not to %(ships_at)s (ER-12.9)", ships_at=ships_at)
            )
        space = c[-1] if isinstance(c[-1], int) else None
        return Megaproject("wharf", site=site, ships_at=ships_at, space=space)

    def agent(self, c: list[Any]) -> Callable[..., Order]:
        choices = values(c)
        for index, choice in enumerate(choices):
            if choice in choices[:index]:
                column = [t for t in c if isinstance(t, Token) and t.type == "ELSE"][index - 1].column
                raise LineProblem(column, N_("the same choice is named twice"))
        return partial(AgentAction, choices=choices, extra=c[0].type == "EXTRA")

    def agent_pass(self, c: list[Any]) -> Callable[..., Order]:
        return partial(AgentAction, choices=(), extra=c[0].type == "EXTRA")

    def buy(self, c: list[Any]) -> Callable[..., Order]:
        """ER-3.11: up to 2 items; the same type twice is allowed (the second pays the 2nd build's price)."""
        items = values(c)
        if len(items) > 2:
            raise LineProblem(
                c[0].column, N_("at most 2 purchases before round 1, not %(count)s (ER-3.11)", count=len(items))
            )
        if any(item.space for item in items):
            raise LineProblem(
                c[0].column,
                N_(
                    "purchases before round 1 take no agent %(kw_space)s (ER-3.11)",
                    **in_english("space", ruleset=RULESET),
                ),
            )
        return partial(Purchase, items=items)

    # Preparation (ER-6, ER-5.32, ER-5.33, ER-12.16) ------------------------------------------------------------------

    def recruit_units(self, c: list[Any]) -> list[Callable[..., Order]]:
        (troops, columns), area = c[0], c[2]
        if troops.ship:
            raise LineProblem(columns["ship"], N_("ships are not recruited: they come with a wharf (ER-12.9)"))
        made: list[Callable[..., Order]] = []
        if troops.elite:
            made.append(partial(RecruitElite, area=area))
        if troops.count > troops.elite:
            made.append(
                partial(
                    RecruitUnits,
                    area=area,
                    troops=Troops(troops.cavalry, troops.infantry, troops.archer, siege=troops.siege),
                )
            )
        return made

    def recruit_elite(self, c: list[Any]) -> list[Callable[..., Order]]:
        _one_elite(c)
        return [partial(RecruitElite, area=None)]

    def recruit_hero(self, c: list[Any]) -> list[Callable[..., Order]]:
        word, column = c[1]
        return [partial(RecruitHero, hero=self.context.heroes.resolve(word, column))]

    def recruit(self, c: list[Any]) -> list[Callable[..., Order]]:
        made = [make for item in values(c) for make in item]
        heroes = [m.keywords["hero"] for m in made if m.func is RecruitHero]
        elites = [m for m in made if m.func is RecruitElite]
        if len(set(heroes)) < len(heroes) or len(elites) > 1:
            twice = display("ELITE", RULESET) if len(elites) > 1 else next(h for h in heroes if heroes.count(h) > 1)
            raise LineProblem(c[0].column, N_("%(twice)s is recruited twice", twice=twice))
        return made

    def food_use(self, c: list[Any]) -> Callable[..., Order]:
        return partial(Food, action="use")

    def food_store(self, c: list[Any]) -> Callable[..., Order]:
        return partial(Food, action="no_store" if len(c) > 2 else "store")

    def priority(self, c: list[Any]) -> Callable[..., Order]:
        scope = c[0].type.lower()
        kinds: list[str] = []
        for token in c[1:]:
            if not isinstance(token, Token) or token.type not in _LOSS_KINDS:
                continue
            kind = _LOSS_KINDS[token.type]
            if kind in kinds:
                raise LineProblem(token.column, N_("%(name)s is listed twice", name=quote(str(token))))
            if scope == "excess" and kind not in _STANDARD:
                raise LineProblem(
                    token.column,
                    N_("only cavalry, infantry and archers count against the food limit (ER-5.31, ER-6.2)"),
                )
            kinds.append(kind)
        return partial(LossPriority, scope=scope, kinds=tuple(kinds))

    # Campaign (ER-7, ER-8, ER-12.12) -----------------------------------------------------------------------------

    def plan_leaving(self, c: list[Any]) -> _Clause:
        troops, columns = c[1]
        if troops.count != 1:
            raise LineProblem(
                min(columns.values(), default=c[0].column), N_("an attacker leaves at most 1 unit behind (ER-8.24)")
            )
        return "leave", troops, c[0].column

    def plan_heroes(self, c: list[Any]) -> _Clause:
        return "heroes", self._cards(self.context.heroes, c[1]), c[0].column

    def plan_tactics(self, c: list[Any]) -> _Clause:
        return "tactics", self._cards(self.context.tactics, c[1]), c[0].column

    def plan_reinforce(self, c: list[Any]) -> _Clause:
        troops = c[3][0] if len(c) > 3 else None
        return "reinforce", Reinforcement(c[2], troops), c[0].column

    def plan_freemen(self, c: list[Any]) -> _Clause:
        return "free_men", True, c[0].column

    def _plan(self, clauses: list[_Clause]) -> BattlePlan:
        fields: dict[str, Any] = {}
        for name, value, column in clauses:
            if name in fields:
                raise LineProblem(column, N_("this part of the battle plan is given twice"))
            fields[name] = value
        return BattlePlan(**fields)

    def move(self, c: list[Any]) -> Callable[..., Order]:
        troops, columns = c[1]
        areas = [x for x in c[2:] if isinstance(x, str) and not isinstance(x, Token)]
        clauses = [x for x in c if isinstance(x, tuple) and len(x) == 3]
        attack = c[0].type == "ATTACK"
        if len(areas) > 3:
            raise LineProblem(c[0].column, N_("a unit moves at most twice in a turn (Thoroughbred, ER-7.2, ER-7.3)"))
        if clauses and not attack:
            raise LineProblem(
                clauses[0][2],
                N_(
                    "a battle plan goes with %(attack)s, not %(move)s (ER-14.10)",
                    attack=display("ATTACK", RULESET),
                    move=display("MOVE", RULESET),
                ),
            )
        plan = self._plan(clauses)
        _check_leave(plan, troops, clauses)
        return partial(Move, troops=troops, start=areas[0], path=tuple(areas[1:]), attack=attack, plan=plan)

    def transport(self, c: list[Any]) -> Callable[..., Order]:
        troops, columns = c[1]
        start, sea, end = (x for x in c[2:] if isinstance(x, str) and not isinstance(x, Token))
        if troops.ship or troops.siege:
            kind = "ship" if troops.ship else "siege"
            raise LineProblem(columns[kind], N_("ships carry cavalry, infantry, archers and the elite (ER-12.12)"))
        if self.board.is_land(sea) or not self.board.is_land(start) or not self.board.is_land(end):
            raise LineProblem(c[0].column, N_("a transport goes from land by a sea area to land (ER-12.12)"))
        clauses = [x for x in c if isinstance(x, tuple) and len(x) == 3]
        plan = self._plan(clauses)
        _check_leave(plan, troops, clauses)
        return partial(Transport, troops=troops, start=start, sea=sea, end=end, plan=plan)

    # standing orders of battle (ER-14.11 to ER-14.19) ----------------------------------------------------------------

    def defence(self, c: list[Any]) -> Callable[..., Order]:
        clauses = [x for x in c if isinstance(x, tuple) and len(x) == 3]
        leaving = next((column for name, _, column in clauses if name == "leave"), None)
        if leaving is not None:
            raise LineProblem(leaving, N_("only an attacker leaves a unit behind (ER-8.24)"))
        area = c[2] if isinstance(c[1], Token) and c[1].type == "AT" else None
        return partial(DefencePlan, area=area, plan=self._plan(clauses))

    def retreat(self, c: list[Any]) -> Callable[..., Order]:
        ships = any(isinstance(t, Token) and t.type == "SHIP" for t in c)
        after = {x.type: c[i + 1] for i, x in enumerate(c[:-1]) if isinstance(x, Token)}
        origin = after.get("FROM")
        to_at = next(i for i, x in enumerate(c) if isinstance(x, Token) and x.type == "TO")
        targets: list[str] = []
        for item in c[to_at + 1 :]:
            if isinstance(item, Token) and item.type == "WHARF":
                if not ships:
                    raise LineProblem(
                        item.column,
                        N_("only ships retreat to their %(wharf)s (ER-14.19)", wharf=display("WHARF", RULESET)),
                    )
                target, column = WHARF, item.column
            elif isinstance(item, Token):
                continue
            else:
                target, column = item, c[to_at].column
            if target in targets:
                raise LineProblem(column, N_("%(target)s is listed twice", target=target))
            targets.append(target)
        return partial(RetreatPriority, origin=origin, targets=tuple(targets), ships=ships)

    def reinforce(self, c: list[Any]) -> Callable[..., Order]:
        against = c[1].type == "VS" if isinstance(c[1], Token) else False
        rest = c[2:] if against else c[1:]
        troops = rest[3][0] if len(rest) > 3 else None
        return partial(Reinforce, seat=rest[0], origin=rest[2], troops=troops, against=against)

    def reinforce_never(self, c: list[Any]) -> Callable[..., Order]:
        return partial(Reinforce, never=True)

    def block(self, c: list[Any]) -> Callable[..., Order]:
        after = {x.type: c[i + 1] for i, x in enumerate(c[:-1]) if isinstance(x, Token)}
        factions = c[1] if len(c) > 1 and not isinstance(c[1], Token) else ()
        strength = None
        if "MAX" in after:
            strength = number_value(after["MAX"])
            if strength > MAX_BLOCK_STRENGTH:
                raise LineProblem(
                    after["MAX"].column,
                    N_("only an army of strength %(most)s or less can be blocked (ER-12.5)", most=MAX_BLOCK_STRENGTH),
                )
        return partial(
            BlockFilter,
            factions=_once(factions, c[0].column),
            max_strength=strength,
            targets=_once(after.get("TO", ()), c[0].column),
        )

    def block_never(self, c: list[Any]) -> Callable[..., Order]:
        return partial(BlockFilter, never=True)

    def casualties(self, c: list[Any]) -> Callable[..., Order]:
        return partial(CasualtyOrder, seats=_once(c[1], c[0].column))

    def freemen_use(self, c: list[Any]) -> Callable[..., Order]:
        return partial(FreeMen, use=True)

    def freemen_never(self, c: list[Any]) -> Callable[..., Order]:
        return partial(FreeMen, use=False)

    # New Year and any time (ER-14.3 to ER-14.5, ER-14.20) ------------------------------------------------------------

    def capital(self, c: list[Any]) -> Callable[..., Order]:
        areas = _once(c[1], c[0].column)
        sea = [a for a in areas if not self.board.is_land(a)]
        if sea:
            raise LineProblem(
                c[0].column, N_("a temporary capital stands on a land area, not on %(sea)s (ER-11.1)", sea=sea[0])
            )
        return partial(TemporaryCapital, areas=areas)

    def turn_order(self, c: list[Any]) -> Callable[..., Order]:
        return partial(TurnOrder, seats=_once(c[1], c[0].column))

    def dynasty(self, c: list[Any]) -> Callable[..., Order]:
        return partial(Dynasty, area=c[2] if len(c) > 2 else None)

    def pay(self, c: list[Any]) -> Callable[..., Order]:
        return partial(Pay, coins=number_value(c[1]), to=c[-1])

    # every game's ---------------------------------------------------------------------------------------------------


def _one_elite(c: list[Token]) -> None:
    """`ELITE` or `1 ELITE`: any other count is refused (ER-1.4: a faction has one elite unit)."""
    if len(c) > 1 and number_value(c[0]) != 1:
        raise LineProblem(
            c[0].column, N_("a faction has one elite unit, not %(number)s (ER-1.4)", number=number_value(c[0]))
        )


def _once(names: tuple[str, ...], column: int) -> tuple[str, ...]:
    """`names` if none repeats; a repeated area or faction is refused."""
    twice = next((n for i, n in enumerate(names) if n in names[:i]), None)
    if twice is not None:
        raise LineProblem(column, N_("%(twice)s is listed twice", twice=twice))
    return tuple(names)


def _check_leave(plan: BattlePlan, troops: Troops, clauses: list[_Clause]) -> None:
    """ER-8.24: the unit left behind is one of the attacking army."""
    leave = plan.leave
    if leave is None:
        return
    if any(leave.of(kind) > troops.of(kind) for kind in ("cavalry", "infantry", "archer", "ship", "siege", "elite")):
        column = next(column for name, _, column in clauses if name == "leave")
        raise LineProblem(column, N_("the unit left behind must be one of the attacking army (ER-8.24)"))
