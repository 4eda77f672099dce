"""The game data of Conqueror: Empire Rises (ER-13) as typed, frozen values that the rules engine reads directly:
the map per board side (ER-13.1), the factions (ER-13.2), tracks and price boards (ER-13.3), the cards
(ER-13.4), the options for the spec's gaps (ER-13.5) and the effects of ER-13.6 (vocabulary.py).

loader.py reads a data folder into these values and names every problem; template.py writes a folder to fill in."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final

from adjudicator.engine.board import BRIDGE, RIVER, Board
from adjudicator.rulesets.conqueror.vocabulary import ArgValue, Condition, Counter, Place, Trigger, UnitSelector

RULESET: Final = "conqueror-er"
MODES: Final = ("imperator", "conquest")  # ER-3.1 (ER-3.13: `imperator` is the stable identifier)
PLAYER_COUNTS: Final = (3, 4, 5, 6)  # ER-3.2
SIDE_OF: Final = {3: "3-4", 4: "3-4", 5: "5-6", 6: "5-6"}  # ER-3.2: the board side used at each player count
SIDES: Final = ("3-4", "5-6")
FORTS: Final = ("none", "small", "large")  # ER-2.6
LINK_KINDS: Final = (RIVER, BRIDGE)  # ER-2.2: the Danube, and bridges
DISTRICTS: Final = ("granary", "bazaar", "fort", "academy")  # ER-5.12
UPGRADE_TYPES: Final = ("cavalry", "infantry", "archer", "marine")  # ER-5.18
MEGAPROJECTS: Final = ("wonder", "temple", "port", "wharf")  # ER-12.6: wharf is built but no card
MEGAPROJECT_CARDS: Final = ("wonder", "temple", "port")  # ER-12.1
BOARD_KINDS: Final = ("standard", "alternative")  # ER-3.7, ER-12.3
EMPTY: Mapping[str, Any] = MappingProxyType({})

# -- bounds: what play can use (docs/conqueror-data.md gives each next to its value) -------------------------------
# A number beyond its bound is refused by the check, naming file, key and rule: a game with it would never end
# (rounds), or its coins, units and cards would grow past anything a board or a report can show.
ROUNDS_MOST: Final = 20  # ER-3.1: 10 and 5 rounds are printed; twice the longer mode
COINS_MOST: Final = 20  # ER-5.2: one source of income (base income 3, an area's coins, a trade space, a temple)
VP_MOST: Final = 30  # ER-10.3, ER-5.9, ER-12.7: one source of victory points
PRICE_MOST: Final = 50  # ER-5.16, ER-5.22, ER-6.10, ER-6.13, ER-12.6: one price, a hero's or elite's cost
STRENGTH_MOST: Final = 10  # ER-8.16: one card's or elite's strength (the die adds 1 to 4)
SLOTS_MOST: Final = 10  # ER-1.4: district and upgrade slots of a board (4 printed; 10 upgrade cards exist)
UNITS_MOST: Final = 60  # ER-1.1: one unit type in a barracks, a start area or an independent army
FOOD_MOST: Final = 10  # ER-2.5: the food of one area
FOOD_TRACK_MOST: Final = 100  # ER-5.31: entries of the food track (food supply 0 to 99)
STANDARD_UNITS_MOST: Final = 3 * UNITS_MOST  # ER-5.31: an entry of the food track: every barracks unit at most
TRADE_SPACES: Final = (2, 20)  # ER-5.8: a trade moves the marker one space right, so two spaces at least
CASUALTIES_MOST: Final = 10  # ER-8.32: an automa card's casualties
TACTIC_CARDS: Final = 38  # ER-1.2: the deck, so also the most copies of one card and the largest hand limit
EFFECT_MOST: Final = 20  # ER-13.6: an effect's number (n, cap) either way; a count of units, cards or dice
OPTION_BOUNDS: Final = {  # ER-13.5: the options that are numbers, in game-data.toml and `pbem new --option`
    "dynasty_first_round": (1, ROUNDS_MOST),  # ER-11.5: a round
    "hand_limit": (0, TACTIC_CARDS),  # ER-1.2
    "amphibious_assault": (0, STRENGTH_MOST),  # ER-9.4
    "temple_coins": (0, COINS_MOST),  # ER-12.8
    "temple_vp": (0, VP_MOST),  # ER-12.8
    "port_coins": (0, COINS_MOST),  # ER-12.10
}


def frozen(mapping: Mapping[Any, Any]) -> Mapping[Any, Any]:
    return MappingProxyType(dict(mapping))


# -- effects (ER-13.6) -------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Effect:
    """One effect: `op` with its typed `args` (vocabulary.OPS), its trigger, who it concerns, how long it lasts
    and the conditions that must all hold. `key` addresses its text for the private overlay (ER-13.7)."""

    op: str
    args: Mapping[str, ArgValue]
    when: Trigger
    who: str = "self"
    duration: str = "instant"
    conditions: tuple[Condition, ...] = ()
    text: str = ""
    key: str = ""

    def number(self, name: str) -> int:
        value = self.args[name]
        assert isinstance(value, int)
        return value

    def selector(self, name: str) -> UnitSelector | None:
        value = self.args.get(name)
        return value if isinstance(value, UnitSelector) else None

    def counter(self, name: str) -> Counter | None:
        value = self.args.get(name)
        return value if isinstance(value, Counter) else None

    def place(self, name: str) -> Place | None:
        value = self.args.get(name)
        return value if isinstance(value, Place) else None


Effects = tuple[Effect, ...]


# -- the map (ER-13.1) -------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Units:
    """Standard units by type (ER-0.3)."""

    cavalry: int = 0
    infantry: int = 0
    archer: int = 0

    def of(self, kind: str) -> int:
        return int(getattr(self, kind))

    @property
    def total(self) -> int:
        return self.cavalry + self.infantry + self.archer


@dataclass(frozen=True)
class Area:
    """The attributes the rules read of one area (the engine Board keeps its links and position)."""

    code: str
    name: str
    land: bool
    fort: str = "none"  # ER-2.6: none | small | large
    capital: str | None = None  # ER-2.6: the faction whose capital this is
    food: int = 0  # ER-2.5, ER-5.30
    coins: int = 0  # ER-2.5, ER-5.2
    europe: bool = False  # ER-2.10
    wharf_site: bool = False  # ER-12.9: coastal for wharves (a river does not count)


@dataclass(frozen=True)
class IndependentArmy:
    """ER-3.8: an independent army placed at setup."""

    area: str
    units: Units


@dataclass(frozen=True)
class MapSide:
    """One side of the board (ER-3.2): the engine board with typed links, the areas' attributes, the forts
    blanked per player count (ER-3.4) and the independent armies per player count (ER-3.8)."""

    side: str
    board: Board
    areas: Mapping[str, Area]
    blanked: Mapping[int, tuple[str, ...]] = field(default_factory=lambda: EMPTY)
    independents: Mapping[int, tuple[IndependentArmy, ...]] = field(default_factory=lambda: EMPTY)

    def capital_of(self, faction: str) -> str | None:
        return next((a.code for a in self.areas.values() if a.capital == faction), None)

    def fort_at(self, code: str, players: int) -> str:
        """The fort of area `code` in a game of `players`: a blank marker covers it all game (ER-2.7)."""
        return "none" if code in self.blanked.get(players, ()) else self.areas[code].fort

    def river(self) -> frozenset[str]:
        """The areas the Danube joins (ER-2.2)."""
        return frozenset(code for link in self.board.links if link.kind == RIVER for code in (link.a, link.b))

    def bridges(self) -> tuple[tuple[str, str], ...]:
        return tuple((link.a, link.b) for link in self.board.links if link.kind == BRIDGE)


# -- factions (ER-13.2) ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Elite:
    """ER-6.7, ER-6.13, ER-9.2: the elite unit of a player board."""

    name: str
    types: frozenset[str]  # cavalry / infantry / archer (ER-6.8)
    strength: int
    cost: int
    cost_confirmed: bool = True  # False: the pre-release default of ER-6.13, to be confirmed
    effects: Effects = ()
    text: str = ""
    key: str = ""


@dataclass(frozen=True)
class Start:
    """Starting units in one area (ER-3.7)."""

    area: str
    units: Units


@dataclass(frozen=True)
class PlayerBoard:
    """A player board (standard, or one of the two alternative boards of Seas of Destiny, ER-12.3, ER-12.4)."""

    id: str
    kind: str  # standard | alternative
    base_income: int  # ER-5.2
    district_slots: int  # ER-1.4
    upgrade_slots: int  # ER-1.4, ER-5.20
    barracks: Units  # ER-1.1 (ships and siege engines: ER-12.2)
    ability: Effects  # ER-9.1, ER-12.4
    elite: Elite
    start: Mapping[tuple[str, int], tuple[Start, ...]]  # (mode, players) -> ER-3.7
    text: str = ""
    key: str = ""


@dataclass(frozen=True)
class Faction:
    id: str
    name: str
    boards: tuple[PlayerBoard, ...]
    dynasty: Effects  # ER-11.5: the front, used once
    dynasty_back: Effects  # ER-11.6: the passive back
    text: str = ""
    key: str = ""

    @property
    def standard(self) -> PlayerBoard:
        return next(board for board in self.boards if board.kind == "standard")

    def board(self, board_id: str) -> PlayerBoard | None:
        return next((board for board in self.boards if board.id == board_id), None)


@dataclass(frozen=True)
class Setup:
    """ER-3.3 factions by player count, ER-3.9 the initial turn order and the hourglass."""

    factions_by_players: Mapping[int, tuple[str, ...]]
    turn_order: tuple[str, ...]
    start_player: str


# -- tracks and price boards (ER-13.3) --------------------------------------------------------------------------
@dataclass(frozen=True)
class TradeSpace:
    """ER-5.8, ER-5.9: one space of the trade track."""

    coins: int = 0
    vp: int = 0
    discount: bool = False
    look: bool = False
    redeploy: bool = False
    effects: Effects = ()


@dataclass(frozen=True)
class Scoring:
    """ER-10.3's values that the source lost (Data)."""

    vp_per_district: int
    vp_per_upgrade: int
    upgrade_bonus_count: int
    upgrade_bonus_vp: int
    temporary_capital_vp: int


@dataclass(frozen=True)
class Tracks:
    trade: Mapping[str, tuple[TradeSpace, ...]]  # mode -> spaces, space 1 first (ER-3.7)
    food: tuple[int, ...]  # food supply -> the most standard units allowed (ER-5.31)
    rounds: Mapping[str, int]  # mode -> rounds (ER-3.1)
    districts: Mapping[str, tuple[int, ...]]  # ER-5.16
    upgrades: Mapping[str, tuple[int, ...]]  # ER-5.22
    megaprojects: Mapping[str, tuple[int, ...]]  # ER-12.6
    scoring: Scoring

    def max_units(self, food: int) -> int:
        """ER-5.31: the most standard units a food supply allows (past the track's end, its last value)."""
        return self.food[max(0, min(food, len(self.food) - 1))]


# -- cards (ER-13.4) ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Hero:
    id: str
    faction: str
    name: str
    cost: int  # ER-6.10
    strength: int  # ER-8.16b
    effects: Effects
    text: str = ""
    key: str = ""


@dataclass(frozen=True)
class Tactic:
    id: str
    name: str
    count: int  # copies in the deck
    strength: int  # ER-8.16c
    effects: Effects
    text: str = ""
    key: str = ""


@dataclass(frozen=True)
class Automa:
    """ER-8.31, ER-8.32: strength +1 to +3 and casualties for the player's side."""

    id: str
    strength: int
    casualties: int
    unblockable: bool = False
    text: str = ""
    key: str = ""


@dataclass(frozen=True)
class Chronicle:
    """ER-3.6, ER-4.4: level I to III, its effects for the round."""

    id: str
    name: str
    level: int
    effects: Effects
    text: str = ""
    key: str = ""


@dataclass(frozen=True)
class Megaproject:
    """ER-12.6 to ER-12.10: a wonder, temple or port card."""

    id: str
    type: str
    vp: int
    effects: Effects
    text: str = ""
    key: str = ""


@dataclass(frozen=True)
class Cards:
    heroes: tuple[Hero, ...]
    tactics: tuple[Tactic, ...]
    automa: tuple[Automa, ...]
    chronicles: tuple[Chronicle, ...]
    megaprojects: tuple[Megaproject, ...]


# -- options for the gaps (ER-13.5); each default is the spec's Resolution --------------------------------------
@dataclass(frozen=True)
class Options:
    mode: str = "imperator"  # ER-3.1
    chronicle_round1: bool | None = None  # ER-4.5: None = by mode (off in Imperator, on in Conquest)
    dynasty_first_round: Mapping[str, int] = field(
        default_factory=lambda: frozen({"imperator": 2, "conquest": 2})
    )  # ER-11.5
    long_spears_cap: str = "per_unit"  # ER-9.4: per_unit | per_side
    hand_limit: int = 0  # ER-1.2, ER-13.5: 0 = no limit
    amphibious_assault: int = 3  # ER-9.4
    temple_coins: int = 3  # ER-12.8
    temple_vp: int = 3  # ER-12.8
    port_coins: int = 1  # ER-12.10
    seas_of_destiny: bool = False  # ER-0.8: the optional module (section 12), set at `pbem new`
    boards: str = ""  # ER-3.7, ER-12.3, ER-14.1: "faction:board,..." the moderator assigns; others standard

    def chronicle_in_round1(self, mode: str) -> bool:
        return self.chronicle_round1 if self.chronicle_round1 is not None else mode == "conquest"


# -- the whole -------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class GameData:
    """One edition's data: what `pbem data check` found complete (ER-13)."""

    edition: str
    example: bool
    maps: Mapping[str, MapSide]  # board side -> map
    factions: Mapping[str, Faction]
    setup: Setup
    tracks: Tracks
    cards: Cards
    options: Options
    private_texts: Mapping[str, str] = field(
        default_factory=lambda: EMPTY
    )  # ER-13.7: the moderator's printed wording, by key

    def map_for(self, players: int) -> MapSide:
        return self.maps[SIDE_OF[players]]

    def wording(self, key: str, shared: str) -> str:
        """The text to show for `key`: the moderator's private wording if given (ER-13.7), else ours."""
        return self.private_texts.get(key, shared)

    def unconfirmed_defaults(self) -> list[str]:
        """The faction boards whose elite cost is still ER-6.13's pre-release default."""
        return [
            f"{faction.id}/{board.id}"
            for faction in self.factions.values()
            for board in faction.boards
            if not board.elite.cost_confirmed
        ]
