"""Conqueror: Empire Rises orders as typed, frozen values: what the parser (parse.py) makes and the engine reads.

One class per decision of ER-14 that a player gives in writing. Names are already resolved against the game data:
areas are area codes, seats are faction ids, heroes and tactic cards are card ids. `canonical(order, language)`
writes an order back as one line of the order language (the parser reads it as the same order), in any of the
four keyword languages.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from adjudicator.orders.keywords import written
from adjudicator.orders.sets import Answer, Language, Order, Press
from adjudicator.rulesets.conqueror.data import RULESET

# Unit kinds in the order that texts write them; the keyword of each (grammar/keywords.toml).
UNIT_KINDS = ("cavalry", "infantry", "archer", "ship", "siege")
KIND_KEYWORDS = {"cavalry": "CAVALRY", "infantry": "INFANTRY", "archer": "ARCHER", "ship": "SHIP", "siege": "SIEGE"}
LOSS_KEYWORDS = {**KIND_KEYWORDS, "elite": "ELITE"}
DISTRICT_KEYWORDS = {"granary": "GRANARY", "bazaar": "BAZAAR", "academy": "ACADEMY", "fort": "FORTIFICATION"}
UPGRADE_KEYWORDS = {"cavalry": "CAVALRY", "infantry": "INFANTRY", "archer": "ARCHER", "marine": "MARINE"}
# ER-9.4: the upgrade cards of each unit type (their ids), in the table's order
UPGRADE_CARDS = {
    "cavalry": ("heavy_cavalry", "thoroughbred", "aggression"),
    "infantry": ("discipline", "long_spears", "elite_armor"),
    "archer": ("rapid_aim", "deadly_aim"),
    "marine": ("naval_mastery", "amphibious_assault"),
}
UPGRADE_UNIT = {card: unit for unit, cards in UPGRADE_CARDS.items() for card in cards}
MEGAPROJECT_KEYWORDS = {"wonder": "WONDER", "temple": "TEMPLE", "port": "PORT", "wharf": "WHARF"}
SLOT_KEYWORDS = {"district": "DISTRICT", "upgrade": "UPGRADE"}
INDEPENDENTS = "independents"  # the trade partner of the Independent Nations (ER-5.7)
WHARF = "wharf"  # a ship's retreat to its own wharf (ER-14.19)

Words = Callable[[str], str]  # keyword name -> its spelling in the writer's language


@dataclass(frozen=True)
class Troops:
    """Units of one seat that act together (ER-0.3): counts per kind, and the seat's one elite unit."""

    cavalry: int = 0
    infantry: int = 0
    archer: int = 0
    ship: int = 0
    siege: int = 0
    elite: bool = False

    @property
    def count(self) -> int:
        return self.cavalry + self.infantry + self.archer + self.ship + self.siege + self.elite

    def of(self, kind: str) -> int:
        return int(getattr(self, kind))

    def text(self, w: Words) -> str:
        parts = [f"{self.of(kind)} {w(KIND_KEYWORDS[kind])}" for kind in UNIT_KINDS if self.of(kind)]
        return " ".join([*parts, w("ELITE")] if self.elite else parts)


# -- Politics (ER-5.4 to ER-5.29, ER-12.6 to ER-12.10) ---------------------------------------------------------------


@dataclass(frozen=True)
class Trade:
    """ER-5.7: trade with a faction in play, or with the Independent Nations (`INDEPENDENTS`)."""

    partner: str

    def text(self, w: Words) -> str:
        partner = w("INDEPENDENTS") if self.partner == INDEPENDENTS else self.partner
        return f"{w('TRADE')} {w('WITH')} {partner}"


def _space(space: int | None, w: Words) -> str:
    return f" {w('SPACE')} {space}" if space else ""


@dataclass(frozen=True)
class Build:
    """ER-5.12 to ER-5.17: a civil district; a fort names its site (ER-5.14). `space`: 1 or 2, None = the first
    free one (the second costs 2 coins more, ER-5.12)."""

    district: str
    site: str | None = None
    space: int | None = None

    def text(self, w: Words) -> str:
        site = f" {w('AT')} {self.site}" if self.site else ""
        return f"{w(DISTRICT_KEYWORDS[self.district])}{site}{_space(self.space, w)}"


@dataclass(frozen=True)
class Upgrade:
    """ER-5.18 to ER-5.23: an upgrade card of a unit type, named by its id (`card`, ER-9.4), or by the type alone
    (None: taken only when one card of the type is left to take)."""

    unit: str
    space: int | None = None
    card: str | None = None

    def text(self, w: Words) -> str:
        name = self.card or w(UPGRADE_KEYWORDS[self.unit])
        return f"{w('UPGRADE')} {name}{_space(self.space, w)}"


@dataclass(frozen=True)
class Megaproject:
    """ER-12.6 to ER-12.10: a wonder, temple or port on a `slot` (district or upgrade; None = the adjudicator's
    pick), or a wharf at `site` with its ships put in `ships_at` (None = the adjudicator's pick, ER-12.9)."""

    kind: str
    slot: str | None = None
    site: str | None = None
    ships_at: str | None = None
    space: int | None = None

    def text(self, w: Words) -> str:
        words = [w(MEGAPROJECT_KEYWORDS[self.kind])]
        if self.slot:
            words += [w("SLOT"), w(SLOT_KEYWORDS[self.slot])]
        if self.site:
            words += [w("AT"), self.site]
        if self.ships_at:
            words += [w("SHIP"), self.ships_at]
        return " ".join(words) + _space(self.space, w)


AgentChoice = Trade | Build | Upgrade | Megaproject


@dataclass(frozen=True)
class AgentAction(Order):
    """ER-5.4, ER-14.6: the first of `choices` that can be taken in the seat's turn; none (or none possible) is a
    pass. `extra`: the extra action of the last trade space, taken after everyone else (ER-5.6, ER-14.7)."""

    choices: tuple[AgentChoice, ...]
    extra: bool = False


@dataclass(frozen=True)
class Purchase(Order):
    """ER-3.11, ER-14.2: Conquest mode's purchases before round 1 (at most 2 districts or upgrades)."""

    items: tuple[Build | Upgrade, ...]


# -- Preparation (ER-6, ER-5.32, ER-5.33, ER-12.16) -------------------------------------------------------------------


@dataclass(frozen=True)
class RecruitUnits(Order):
    """ER-6.3: what the fort in `area` produces (standard units), or siege engines placed there (ER-12.16)."""

    area: str
    troops: Troops


@dataclass(frozen=True)
class RecruitElite(Order):
    """ER-6.7: the elite unit, in the capital, else in `area` (None: the adjudicator's pick)."""

    area: str | None = None


@dataclass(frozen=True)
class RecruitHero(Order):
    """ER-6.10, ER-6.12: a hero card of the seat's faction, by id."""

    hero: str


@dataclass(frozen=True)
class Food(Order):
    """ER-5.32, ER-5.33: `use` the stored-food marker, `store` one if allowed, or `no_store`."""

    action: str


@dataclass(frozen=True)
class LossPriority(Order):
    """ER-14.13, ER-14.17 (`losses`): which own units take hits and casualties first; ER-14.8 (`excess`): which
    standard units leave when over the food limit (ER-6.2). Kinds not named follow in the default order."""

    scope: str  # losses | excess
    kinds: tuple[str, ...]


# -- Campaign (ER-7, ER-8, ER-12.12) -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Reinforcement:
    """ER-8.4: the one army a principal adds to its own side: units from `origin` (None = every active one)."""

    origin: str
    troops: Troops | None = None


@dataclass(frozen=True)
class BattlePlan:
    """What a principal decides for a battle ahead (ER-14.14): heroes and tactic cards to play, the unit left in
    the area attacked from after a win (ER-8.24), its own reinforcement (ER-8.4) and Free Men (ER-8.18)."""

    heroes: tuple[str, ...] = ()
    tactics: tuple[str, ...] = ()
    leave: Troops | None = None
    reinforce: Reinforcement | None = None
    free_men: bool = False

    def text(self, w: Words) -> str:
        words = []
        if self.leave:
            words.append(f"{w('LEAVING')} {self.leave.text(w)}")
        if self.heroes:
            words.append(f"{w('HERO')} {', '.join(self.heroes)}")
        if self.tactics:
            words.append(f"{w('TACTICS')} {', '.join(self.tactics)}")
        if self.reinforce:
            troops = f" {self.reinforce.troops.text(w)}" if self.reinforce.troops else ""
            words.append(f"{w('REINFORCE')} {w('FROM')} {self.reinforce.origin}{troops}")
        if self.free_men:
            words.append(w("FREEMEN"))
        return " ".join(words)


@dataclass(frozen=True)
class Move(Order):
    """ER-7.2, ER-7.3: units from `start` along `path` (a second step: Thoroughbred). `attack`: the mover says
    it expects a battle and gives its `plan` (ER-14.10); the engine decides by ER-7.4 what is an attack."""

    troops: Troops
    start: str
    path: tuple[str, ...]
    attack: bool = False
    plan: BattlePlan = BattlePlan()


@dataclass(frozen=True)
class Transport(Order):
    """ER-12.12: units carried from land `start` by the seat's ships in `sea` to land `end` (an attack there if it
    is enemy-held, with `plan`)."""

    troops: Troops
    start: str
    sea: str
    end: str
    plan: BattlePlan = BattlePlan()


# -- standing orders of battle (ER-14.11 to ER-14.19) ------------------------------------------------------------------


@dataclass(frozen=True)
class DefencePlan(Order):
    """ER-14.14 (SO): the plan the seat defends with at `area` (None: everywhere it has no plan of its own)."""

    area: str | None
    plan: BattlePlan


@dataclass(frozen=True)
class RetreatPriority(Order):
    """ER-14.18 (units) and ER-14.19 (`ships`): the retreat areas to try in order, from `origin` (None: from
    anywhere); `WHARF` stands for the ship's own wharf."""

    origin: str | None
    targets: tuple[str, ...]
    ships: bool = False


@dataclass(frozen=True)
class Reinforce(Order):
    """ER-8.4, ER-14.12 (SO): join `seat`'s side (or, `against`, the side fighting `seat`) with units from
    `origin` (None: all active ones) in battles next to it. `never`: no standing reinforcement."""

    seat: str | None = None
    origin: str | None = None
    troops: Troops | None = None
    against: bool = False
    never: bool = False


@dataclass(frozen=True)
class BlockFilter(Order):
    """ER-12.5, ER-14.11 (SO): block an army of one of `factions` (any, if empty) of strength at most
    `max_strength` (ER-12.5's 5 if None) moving into one of `targets` (anywhere, if empty). `never`: no block."""

    factions: tuple[str, ...] = ()
    max_strength: int | None = None
    targets: tuple[str, ...] = ()
    never: bool = False


@dataclass(frozen=True)
class CasualtyOrder(Order):
    """ER-8.22, ER-14.16 (SO): the players of an opposing side to assign hits and casualties to, first to last."""

    seats: tuple[str, ...]


@dataclass(frozen=True)
class FreeMen(Order):
    """ER-8.18, ER-14.15 (SO): use Gaul's Free Men in every battle where they can be used, or never."""

    use: bool


# -- New Year and any time ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TemporaryCapital(Order):
    """ER-11.1, ER-11.3, ER-14.5 (SO): where to place (or move) the temporary capital, first possible area first."""

    areas: tuple[str, ...]


@dataclass(frozen=True)
class TurnOrder(Order):
    """ER-4.4, ER-14.3: the hourglass holder's turn order for the round."""

    seats: tuple[str, ...]


@dataclass(frozen=True)
class Dynasty(Order):
    """ER-11.5, ER-14.4: trigger the dynasty card; `area`: where a unit it brings is placed (None: the default)."""

    area: str | None = None


@dataclass(frozen=True)
class Pay(Order):
    """ER-0.7, ER-14.20: coins given to another seat, at once and for good."""

    coins: int
    to: str


# -- canonical text ------------------------------------------------------------------------------------------------


def canonical(order: Order, language: str = "en") -> str:
    """`order` as one line of the order language in `language`'s keywords; it parses back to the same order."""

    def w(name: str) -> str:
        return written(language, name, RULESET)

    return _TEXT[type(order)](order, w)


def _agent(o: AgentAction, w: Words) -> str:
    head = f"{w('EXTRA')} {w('AGENT')}" if o.extra else w("AGENT")
    if not o.choices:
        return f"{head} {w('PASS')}"
    return f"{head} " + f" {w('ELSE')} ".join(choice.text(w) for choice in o.choices)


def _plan_suffix(plan: BattlePlan, w: Words) -> str:
    text = plan.text(w)
    return f" {text}" if text else ""


def _move(o: Move, w: Words) -> str:
    path = "".join(f" -> {area}" for area in o.path)
    return f"{w('ATTACK' if o.attack else 'MOVE')} {o.troops.text(w)}: {o.start}{path}{_plan_suffix(o.plan, w)}"


def _transport(o: Transport, w: Words) -> str:
    return f"{w('TRANSPORT')} {o.troops.text(w)}: {o.start} -> {o.sea} -> {o.end}{_plan_suffix(o.plan, w)}"


def _defence(o: DefencePlan, w: Words) -> str:
    at = f" {w('AT')} {o.area}" if o.area else ""
    return f"{w('DEFENCE')}{at} {o.plan.text(w)}"


def _retreat(o: RetreatPriority, w: Words) -> str:
    words = [w("RETREAT")] + ([w("SHIP")] if o.ships else []) + ([w("FROM"), o.origin] if o.origin else [])
    targets = ", ".join(w("WHARF") if t == WHARF else t for t in o.targets)
    return " ".join([*words, w("TO"), targets])


def _reinforce(o: Reinforce, w: Words) -> str:
    if o.never:
        return f"{w('REINFORCE')} {w('NEVER')}"
    side = f"{w('VS')} {o.seat}" if o.against else str(o.seat)
    troops = f" {o.troops.text(w)}" if o.troops else ""
    return f"{w('REINFORCE')} {side} {w('FROM')} {o.origin}{troops}"


def _block(o: BlockFilter, w: Words) -> str:
    if o.never:
        return f"{w('BLOCK')} {w('NEVER')}"
    words = [w("BLOCK")]
    if o.factions:
        words.append(", ".join(o.factions))
    if o.max_strength is not None:
        words += [w("MAX"), str(o.max_strength)]
    if o.targets:
        words += [w("TO"), ", ".join(o.targets)]
    return " ".join(words)


def _food(o: Food, w: Words) -> str:
    return {"use": f"{w('FOOD')} {w('USE')}", "store": f"{w('FOOD')} {w('STORE')}"}.get(
        o.action, f"{w('FOOD')} {w('NO')} {w('STORE')}"
    )


def _recruit_units(o: RecruitUnits, w: Words) -> str:
    return f"{w('RECRUIT')} {o.troops.text(w)} {w('AT')} {o.area}"


def _recruit_elite(o: RecruitElite, w: Words) -> str:
    return f"{w('RECRUIT')} {w('ELITE')}" + (f" {w('AT')} {o.area}" if o.area else "")


def _press(o: Press, w: Words) -> str:
    return f"{w('PRESS')} {w('TO')} {o.to}: {o.message}" if o.to else f"{w('BROADCAST')}: {o.message}"


_TEXT: dict[type, Callable[[object, Words], str]] = {  # type: ignore[dict-item]
    AgentAction: _agent,
    Purchase: lambda o, w: f"{w('BUY')} " + ", ".join(item.text(w) for item in o.items),
    RecruitUnits: _recruit_units,
    RecruitElite: _recruit_elite,
    RecruitHero: lambda o, w: f"{w('RECRUIT')} {w('HERO')} {o.hero}",
    Food: _food,
    LossPriority: lambda o, w: f"{w(o.scope.upper())} " + ", ".join(w(LOSS_KEYWORDS[k]) for k in o.kinds),
    Move: _move,
    Transport: _transport,
    DefencePlan: _defence,
    RetreatPriority: _retreat,
    Reinforce: _reinforce,
    BlockFilter: _block,
    CasualtyOrder: lambda o, w: f"{w('CASUALTIES')} " + ", ".join(o.seats),
    FreeMen: lambda o, w: f"{w('FREEMEN')} {w('USE' if o.use else 'NEVER')}",
    TemporaryCapital: lambda o, w: f"{w('CAPITAL')} " + ", ".join(o.areas),
    TurnOrder: lambda o, w: f"{w('ORDER')} " + ", ".join(o.seats),
    Dynasty: lambda o, w: w("DYNASTY") + (f" {w('AT')} {o.area}" if o.area else ""),
    Pay: lambda o, w: f"{w('PAY')} {o.coins} {w('COINS')} {w('TO')} {o.to}",
    Press: _press,
    Language: lambda o, w: f"{w('LANGUAGE')} {o.code}",
    Answer: lambda o, w: f"{w('ANSWER')} {o.key}: {o.value}",
}
