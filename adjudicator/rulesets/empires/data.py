"""The game data of Empires of the Ancient World as the rules read it: the moderator's map, revolt tables, cards,
pieces and options (EAW-11), checked by loader.py. The rules text lacks every printed value (EAW-10.9), so nothing
here is the printed game: the example data (games/empires-aw/example-data) is our own invention.

The state (state.py) holds ids only; what an id means is this data's."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Any, Final

EMPTY: Final[Mapping[str, Any]] = MappingProxyType({})

# -- the map (EAW-2, EAW-11.1) ----------------------------------------------------------------------------------
PROVINCE, SEA = "province", "sea"
NORTH, SOUTH = "north", "south"  # EAW-2.10: the halves; sea areas belong to neither
LAND, MOUNTAIN, STRAIT, SEA_LANE, COAST = "land", "mountain", "strait", "sea", "coast"  # EAW-2.1 connection kinds
WATER: Final = "water"  # two sea areas that border each other (the spec names no kind for it)
CONNECTION_KINDS: Final = (LAND, MOUNTAIN, STRAIT, SEA_LANE, COAST, WATER)
ROLLED_CROSSINGS: Final = frozenset({MOUNTAIN, STRAIT})  # EAW-7.2: a 2+ roll


@dataclass(frozen=True)
class Area:
    """A province or a sea area (EAW-2.1, EAW-11.1). `x`, `y`: where the map draws it (0 to 1000)."""

    id: str
    name: str
    kind: str  # PROVINCE | SEA
    value: int  # EAW-2.9: VP value and trade capacity (EAW-2.6)
    half: str | None = None  # EAW-2.10: NORTH | SOUTH for a province, None for a sea area
    amphora: bool = False  # EAW-2.7
    mediterranean_coast: bool = False  # EAW-2.2: a province bordering the Mediterranean
    mediterranean: bool = False  # EAW-2.2: one of the three Mediterranean sea areas
    named: bool = True  # EAW-2.11: a sea area that may be taken at setup
    northern_edge: bool = False  # EAW-2.9: a province on the map's northern edge (worth 2)
    x: int = 0
    y: int = 0

    @property
    def is_province(self) -> bool:
        return self.kind == PROVINCE

    @property
    def is_sea(self) -> bool:
        return self.kind == SEA


@dataclass(frozen=True)
class Connection:
    """An adjacency of two areas with its kinds (EAW-2.1): one connection may have several (a strait that is also a
    sea lane, EAW-13.2); `sea` is the sea area a sea lane crosses (EAW-7.3)."""

    a: str
    b: str
    kinds: frozenset[str]
    sea: str | None = None

    def other(self, area: str) -> str:
        return self.b if area == self.a else self.a


@dataclass(frozen=True)
class GameMap:
    areas: Mapping[str, Area]
    connections: tuple[Connection, ...]

    def connection(self, a: str, b: str) -> Connection | None:
        """The connection between two areas, or None (ordinary adjacency, EAW-2.1; not the Mediterranean rule)."""
        return self._links.get(frozenset((a, b)))

    @cached_property
    def _links(self) -> dict[frozenset[str], Connection]:
        """Each pair of connected areas -> its connection, made once per map."""
        return {frozenset((c.a, c.b)): c for c in self.connections}

    def neighbours(self, area: str) -> tuple[str, ...]:
        """The areas connected to `area`, sorted by id (ordinary adjacency)."""
        return tuple(sorted(c.other(area) for c in self.connections if area in (c.a, c.b)))

    @property
    def mediterranean_seas(self) -> tuple[str, ...]:
        return tuple(sorted(a.id for a in self.areas.values() if a.mediterranean))

    def lookup(self, text: str) -> list[str]:
        """The areas `text` may name: an id or a name, or a prefix of either (case does not matter)."""
        key = text.strip().casefold()
        exact = [a.id for a in self.areas.values() if key in (a.id.casefold(), a.name.casefold())]
        return exact or [
            a.id for a in self.areas.values() if a.id.casefold().startswith(key) or a.name.casefold().startswith(key)
        ]


@dataclass(frozen=True)
class RevoltTables:
    """EAW-5.1, EAW-11.2: which first-die results pick the north or the south table, and per table the provinces
    each second-die result lists (in the table's order, EAW-5.2)."""

    table_of: Mapping[int, str]  # 1-6 -> NORTH | SOUTH
    tables: Mapping[str, Mapping[int, tuple[str, ...]]]  # NORTH|SOUTH -> 1-6 -> provinces


# -- cards (EAW-1.3, EAW-1.4, EAW-8.5, EAW-11.3, EAW-11.6) ------------------------------------------------------
ARMY, EMPIRE, PERSONALITY = "army", "empire", "personality"
CATEGORIES: Final = ("sword", "spear", "foot", "archer", "mounted", "artillery", "galley", "other")
FAST, SLOW = "fast", "slow"
LEADER, ENGINEER, DIPLOMAT, MERCHANT = "leader", "engineer", "diplomat", "merchant"  # EAW-9.1
PERSONALITY_TYPES: Final = (LEADER, ENGINEER, DIPLOMAT, MERCHANT)
HOME_GROUPS: Final = {NORTH: ("A", "B", "C"), SOUTH: ("D", "E", "F")}  # EAW-1.4
# EAW-11.6: the effect codes a personality (or any card) may carry, each with its arguments
EFFECT_CODES: Final = (
    "stack_order_free",  # EAW-8.1
    "ambush",  # EAW-8.2
    "card_value",  # n, optional if: melee|ambush: melee cards +n (when: the option leader_melee_bonus, EAW-8.2)
    "fort_cost",  # n: a fort costs n (EAW-7.25)
    "capture_fort",  # EAW-8.9: a winning attacker keeps the fort
    "trade_income",  # n: EAW-6.1
    "trade_place",  # n: EAW-7.30
    "roll_mod",  # roll: sea_move|neutral|mountain|diplomacy|displace, n
    "diplomacy_takeover",  # cost: n, roll: 0 for none, else the k+ needed (EAW-7.11 a)
    "diplomacy_remove",  # target: k, per_marker: n, max_markers: m (EAW-7.11 b)
    "manual",  # text: the moderator decides (reported, no effect of its own)
)


@dataclass(frozen=True)
class Effect:
    code: str  # one of EFFECT_CODES
    args: Mapping[str, Any] = field(default_factory=lambda: EMPTY)

    def number(self, key: str = "n", default: int = 0) -> int:
        value = self.args.get(key, default)
        return int(value) if isinstance(value, int) else default


@dataclass(frozen=True)
class Card:
    """One card entry of the data (EAW-11.6); `count` copies of it are in play (instances `id`, `id#2`, ...)."""

    id: str
    name: str
    kind: str  # ARMY | EMPIRE | PERSONALITY
    category: str = "other"  # one of CATEGORIES (army and empire cards)
    speed: str = SLOW  # FAST | SLOW (EAW-8.1)
    mounted: bool = False  # EAW-8.15: not in sieges
    melee: bool = False  # EAW-8.2
    value: int = 0  # EAW-8.5
    value_vs: Mapping[str, int] = field(
        default_factory=lambda: EMPTY
    )  # EAW-8.5: value against an opposing card of that category
    value_roll: Mapping[int, int] = field(
        default_factory=lambda: EMPTY
    )  # EAW-8.5: d6 result -> value (replaces the value)
    roll_mod: int | None = None  # EAW-8.5: the value plus a d6 plus this (None: no die)
    label: str | None = None  # EAW-7.23: "N", "S" or None
    vp_cost: int = 0  # EAW-10.5
    home_group: str | None = None  # EAW-1.4: A-F for an empire card
    count: int = 1
    personality: str | None = None  # EAW-9.1: LEADER | ENGINEER | DIPLOMAT | MERCHANT
    effects: tuple[Effect, ...] = ()

    @property
    def rolls(self) -> bool:
        """Whether revealing it in battle rolls a die (EAW-8.5, EAW-0.5)."""
        return bool(self.value_roll) or self.roll_mod is not None

    def value_against(self, category: str | None, roll: int | None = None) -> int:
        """EAW-8.5: its value against an opposing card of `category` (None: an empty position), with its die."""
        if self.value_roll and roll is not None:
            return self.value_roll[roll]
        base = self.value_vs.get(category, self.value) if category is not None else self.value
        return base + (roll + self.roll_mod if self.roll_mod is not None and roll is not None else 0)


def base_id(instance: str) -> str:
    """The data id of a card instance (`pike#2` -> `pike`)."""
    return instance.split("#", 1)[0]


# -- pieces and options (EAW-1.2, EAW-11.4, EAW-11.5, EAW-11.7) --------------------------------------------------
@dataclass(frozen=True)
class Pieces:
    """EAW-1.2, EAW-11.4: pieces per player (None: not given, unlimited) and the hand limit (None: none)."""

    control_markers: int | None = None
    trade_markers: int | None = None
    forts: int | None = None
    hand_limit: int | None = None


# EAW-11.7: every option with its choices; the first is the default (the spec's resolution)
OPTION_CHOICES: Final[Mapping[str, tuple[str, ...]]] = MappingProxyType(
    {
        "threshold": ("ge", "gt"),  # EAW-0.4
        "start_markers_count": ("total", "additional"),  # EAW-3.9
        "leader_melee_bonus": ("ambush", "always"),  # EAW-8.2
        "ambush_scope": ("any_attack", "mountain_crossing"),  # EAW-8.2
        "marker_choice": ("push_first", "pull_first", "winner_chooses"),  # EAW-8.4
        "trade_reach": ("chain", "controlled_only"),  # EAW-7.30
        "last_province": ("all", "battle_only"),  # EAW-2.8
        "diplomacy_reach": ("mediterranean", "land_only"),  # EAW-7.12
        "loss_selection": ("random", "owner_chooses"),  # EAW-8.8
        "plunder_spendable": ("false", "true"),  # EAW-8.13
        "upkeep_timing": ("scoring", "every_round"),  # EAW-10.5
        "tie_break": ("shared", "most_control", "most_trade"),  # EAW-10.8
    }
)


@dataclass(frozen=True)
class Options:
    """The game options of EAW-11.7, each defaulting to the spec's resolution."""

    threshold: str = "ge"
    start_markers: Mapping[int, int] = field(
        default_factory=lambda: MappingProxyType({3: 7, 4: 6, 5: 5})
    )  # EAW-3.1: 10 - N
    start_markers_count: str = "total"
    action_rounds_first: int = 10  # EAW-4.3: 10, 9, 8, 7
    leader_melee_bonus: str = "ambush"
    ambush_scope: str = "any_attack"
    marker_choice: str = "push_first"
    trade_reach: str = "chain"
    last_province: str = "all"
    diplomacy_reach: str = "mediterranean"
    loss_selection: str = "random"
    plunder_spendable: str = "false"
    upkeep_timing: str = "scoring"
    plunder_vp: int | None = None  # EAW-10.6: None = not set by the moderator (scores 0, reported)
    tie_break: str = "shared"

    def action_rounds(self, game_round: int) -> int:
        """EAW-4.3: action rounds in game round 1-4, one fewer each round."""
        return self.action_rounds_first - (game_round - 1)

    def changed(self) -> dict[str, str]:
        """The options that differ from their defaults, as `key -> value` texts (reports name them, EAW-11.7)."""
        found: dict[str, str] = {}
        for key, default in DEFAULT_OPTIONS.items():
            value = getattr(self, key)
            if value != default:
                found[key] = option_text(value)
        return found


def option_text(value: Any) -> str:
    if isinstance(value, Mapping):
        return ",".join(f"{k}:{v}" for k, v in sorted(value.items()))
    return "unset" if value is None else str(value)


DEFAULT_OPTIONS: Final[Mapping[str, Any]] = MappingProxyType(
    {name: getattr(Options(), name) for name in Options.__dataclass_fields__}
)

DISPLAY_SIZE: Final = 6  # EAW-7.20
GAME_ROUNDS: Final = 4  # EAW-4.1
SCORED_ROUNDS: Final = (2, 3, 4)  # EAW-10.2
PLAYERS: Final = (3, 4, 5)  # EAW-3.4
STARTERS_PER_HALF: Final = 3  # EAW-3.7
BATTLE_MARKERS: Final = 3  # EAW-8.3
OPEN_STACK, SIEGE_STACK, NAVAL_STACK = 5, 3, 5  # EAW-8.1, EAW-8.15, EAW-8.20
INCOME_BASE: Final = 5  # EAW-6.1
TRADE_PLACED: Final = 2  # EAW-7.30
COSTS: Final = MappingProxyType(
    {"refresh": 1, "fort": 4, "diplomacy": 2, "rout_payment": 2}
)  # EAW-6.3, EAW-7.10, EAW-7.20, EAW-7.25, EAW-8.11
ROLLS: Final = MappingProxyType(
    {"crossing": 2, "sea_move": 4, "neutral": 3, "diplomacy": 2, "diplomat_remove": 6, "displace": 5}
)  # EAW-7.2, EAW-7.3, EAW-7.4, EAW-7.10, EAW-7.11, EAW-7.31 (each "n+", EAW-0.4)


@dataclass(frozen=True)
class GameData:
    """The moderator's data of one game (EAW-11): what `pbem data check` found complete."""

    example: bool  # the data set is our own invention (example-data), not the printed game
    map: GameMap
    revolts: RevoltTables
    cards: Mapping[str, Card]  # id -> entry: army, empire and personality cards
    pieces: Pieces
    options: Options
    notes: Mapping[str, str] = field(default_factory=lambda: EMPTY)  # the data's own remarks, by key

    def card(self, instance: str) -> Card:
        return self.cards[base_id(instance)]

    @property
    def general_deck(self) -> tuple[str, ...]:
        """Every instance of the general deck (army and personality cards), in data order (EAW-1.4 b)."""
        return tuple(i for c in self.cards.values() if c.kind != EMPIRE for i in instances_of(c))

    def home_army(self, group: str) -> tuple[str, ...]:
        """The instances of home-army group A-F (EAW-1.4 a)."""
        return tuple(i for c in self.cards.values() if c.home_group == group for i in instances_of(c))


def instances_of(card: Card) -> tuple[str, ...]:
    """The instances of a card entry: `id` for the first copy, `id#2` ... for the others."""
    return tuple(card.id if n == 1 else f"{card.id}#{n}" for n in range(1, card.count + 1))
