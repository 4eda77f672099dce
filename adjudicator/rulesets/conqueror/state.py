"""The state of a game of Conqueror: Empire Rises (ER-1 to ER-12) and the rules derived from it.

The state has three parts, as the snapshot envelope (engine/envelope.py, schema 2) keeps them:
- public: round, mode, phase, turn order, hourglass, per faction coins, VP, trade marker, districts, upgrades,
  face-up heroes, agent, temporary capital, dynasty, stored food, the units on the map, supplies, discards and
  how many cards each hand and deck holds;
- private, per seat: its tactic hand and its face-down heroes (ER-6.10: others know only how many);
- secret: the order of the tactic, automa and chronicle decks (ER-3.5, ER-3.6).

The derived rules are named functions below: control (ER-2.3, ER-2.4, ER-2.5), forts (ER-2.6 to ER-2.8), food
supply (ER-2.9, ER-5.30, ER-5.31). The state holds ids only; what an id means is the game data's (data.py).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Final

from adjudicator.rulesets.conqueror.data import DISTRICTS, GameData, MapSide
from adjudicator.rulesets.conqueror.vocabulary import STANDARD_UNITS, UNIT_KINDS, UPGRADES

INDEPENDENT: Final = "independent"  # ER-0.3: the white units of the Independent Nations
UNIT_TYPES: Final = UNIT_KINDS  # ER-0.3
STANDARD: Final = STANDARD_UNITS  # ER-0.3: the units the food track counts (ER-5.31)
HERO_HAND, HERO_FACE_UP, HERO_DISCARDED = "hand", "face_up", "discarded"  # ER-6.11
DYNASTY_UNUSED, DYNASTY_ACTIVE, DYNASTY_FLIPPED = "unused", "active", "flipped"  # ER-11.5, ER-11.6
FOOD_NONE, FOOD_HELD, FOOD_IN_USE = "none", "held", "in_use"  # ER-5.32, ER-5.33
SEAS_BARRACKS: Final = {"ship": 2, "siege": 2}  # ER-12.2: added to each barracks with Seas of Destiny


@dataclass
class Army:
    """The units of one owner (a faction or INDEPENDENT) in one area, by type, and how many of them are
    exhausted (ER-7.2). ER-2.4: an area holds at most one army."""

    owner: str
    units: dict[str, int] = field(default_factory=dict)
    exhausted: dict[str, int] = field(default_factory=dict)

    def count(self, kind: str) -> int:
        return self.units.get(kind, 0)

    @property
    def total(self) -> int:
        return sum(self.units.values())

    @property
    def standard(self) -> int:
        return sum(self.units.get(kind, 0) for kind in STANDARD)

    def add(self, kind: str, count: int) -> None:
        """Add `count` units of `kind` (negative: remove). Units removed beyond the active ones were exhausted
        ones: exhaustion outlives the round (ER-15.3), so it is capped by the units left (ER-7.2)."""
        self.units[kind] = self.units.get(kind, 0) + count
        if self.units[kind] <= 0:
            self.units.pop(kind)
        if self.exhausted.get(kind, 0) > self.count(kind):
            self.exhausted[kind] = self.count(kind)
            if not self.exhausted[kind]:
                self.exhausted.pop(kind)


@dataclass
class Player:
    """One faction's pieces and holdings (ER-1.4, ER-3.7). Its hand and face-down heroes are private."""

    faction: str
    board: str = "standard"  # ER-3.7, ER-12.4: the player board used
    coins: int = 0  # ER-1.3: unlimited
    vp: int = 0  # VP gained during play (trade, ER-5.9); the rest is counted at game end (ER-10.3)
    trade: int = 1  # ER-3.7: the trade marker's space, 1 first
    discount: bool = False  # ER-5.9a
    districts: dict[str, int] = field(default_factory=dict)  # district cards on the board (ER-5.14)
    builds: dict[str, int] = field(default_factory=dict)  # builds per district type, for prices (ER-5.16)
    upgrades: list[str] = field(default_factory=list)  # ER-5.21, ER-5.23
    elite: str = "board"  # board | recruited | lost (ER-6.7, ER-6.9)
    heroes_up: dict[str, int] = field(default_factory=dict)  # face-up heroes -> battles used (ER-6.11)
    heroes_discarded: list[str] = field(default_factory=list)  # ER-6.11, ER-6.12
    hand: list[str] = field(default_factory=list)  # private: tactic cards (ER-3.5)
    heroes_down: list[str] = field(default_factory=list)  # private: recruited heroes held face down (ER-6.10)
    agent: str | None = None  # None: on the player board (ER-4.4.3)
    temporary_capital: str | None = None  # ER-11.1
    dynasty: str = DYNASTY_UNUSED  # ER-11.5, ER-11.6
    stored_food: str = FOOD_NONE  # ER-5.32, ER-5.33
    food_bonus: int = 0  # food for this round from other effects (dynasty, chronicle), ER-5.30
    eliminated: bool = False  # ER-4.7
    trade_bans: list[str] = field(default_factory=list)  # ER-5.10b: partners it traded with this round
    standing: dict[str, str] = field(default_factory=dict)  # private: standing orders by key, as order lines
    in_force: list[str] = field(default_factory=list)  # card effects in force: "card:index:duration" (ER-8.14)


@dataclass
class Supply:
    """The common supply (ER-1.2, ER-3.5): N of each district card, upgrade card, fort marker and stored-food
    marker, N being the number of players."""

    districts: dict[str, int] = field(default_factory=dict)  # granary, bazaar, academy -> cards left
    upgrades: dict[str, int] = field(default_factory=dict)
    fort_markers: int = 0
    food_markers: int = 0


@dataclass
class Decks:
    """The decks: their order is secret (top card first), discards and the chronicle in force are public."""

    tactics: list[str] = field(default_factory=list)
    automa: list[str] = field(default_factory=list)
    chronicles: list[str] = field(default_factory=list)
    tactic_discards: list[str] = field(default_factory=list)
    automa_discards: list[str] = field(default_factory=list)
    chronicle: str | None = None  # the chronicle card in force this round (ER-4.4.4)
    chronicles_done: list[str] = field(default_factory=list)


@dataclass
class Seas:
    """Seas of Destiny's pieces (section 12), present only in a game that uses the module (ER-0.8): the
    megaproject cards left in supply (wonders highest first, ER-12.7), the wharf markers left, each player's
    megaproject cards with the slot each takes (ER-12.6), the wonders in the order built (ER-12.7), each
    player's wharf (ER-12.9; the marker stays when its area is taken, ER-12.14) and the siege engines each player
    has recruited so far (ER-12.18: an eliminated one is out of the game, so at most 2 ever)."""

    cards: list[str] = field(default_factory=list)
    wharf_markers: int = 0
    built: dict[str, dict[str, str]] = field(default_factory=dict)  # faction -> card -> district | upgrade
    wonders: list[str] = field(default_factory=list)
    wharves: dict[str, str] = field(default_factory=dict)  # faction -> area
    siege_recruited: dict[str, int] = field(default_factory=dict)


@dataclass
class GameState:
    """A game of Empire Rises: public, private per seat, secret (module docstring)."""

    game: str
    mode: str  # ER-3.1: imperator | conquest
    players_count: int  # ER-3.2
    seating: tuple[str, ...]  # ER-3.10: the seating order (clockwise), default the initial turn order
    turn_order: list[str]  # ER-4.2
    hourglass: str  # ER-3.9, ER-4.4.1: the start-player marker
    players: dict[str, Player]
    army: dict[str, Army] = field(default_factory=dict)  # area -> the one army in it (ER-2.4)
    fort_markers: list[str] = field(default_factory=list)  # areas with a built fort (ER-5.14)
    supply: Supply = field(default_factory=Supply)
    decks: Decks = field(default_factory=Decks)
    options: dict[str, object] = field(default_factory=dict)  # the game options (ER-13.5) as set at `pbem new`
    round: int = 1  # ER-3.5: the round marker starts on round 1
    phase: str = "setup"  # the step due next (rounds.py)
    campaign_index: int = 0  # the turn-order index of the next campaign turn (ER-7.1)
    steps_done: int = 0
    winners: list[str] = field(default_factory=list)  # ER-10.1 to ER-10.5; set when the game ends
    ended: bool = False
    # ER-10.3 at the game's end: faction -> score item (rounds.SCORE_ITEMS) -> {"count": n, "vp": v}
    final_scores: dict[str, dict[str, dict[str, int]]] = field(default_factory=dict)
    seas: Seas | None = None  # ER-0.8: Seas of Destiny's pieces, None in a game without the module
    data_digest: str = ""  # ER-13: the digest of the game's data (engine/envelope.py data_digest), "" if unknown

    def copy(self) -> GameState:
        return copied(self)

    @property
    def seats(self) -> tuple[str, ...]:
        return self.seating

    def in_play(self) -> list[str]:
        """The factions not eliminated, in turn order (ER-4.7)."""
        return [faction for faction in self.turn_order if not self.players[faction].eliminated]


# -- copies ----------------------------------------------------------------------------------------------------
# The state is plain data: these dataclasses, dicts, lists and tuples of them, and strings, numbers, booleans and
# None. A copy made by walking that shape is the same as copy.deepcopy's and as dataclasses.asdict's, several
# times faster (a step copies the state, and its checks copy it again per seat; every snapshot reads it whole).
ATOMS: Final = frozenset({str, int, float, bool, type(None)})
STATE_CLASSES: Final = frozenset({Army, Player, Supply, Decks, Seas, GameState})


def copied(value: Any) -> Any:
    """A deep copy of plain state data (anything else is handed to copy.deepcopy)."""
    kind = type(value)
    if kind in ATOMS:
        return value
    # most members are atoms: taken as they are without a call each (a copy is made per check and per snapshot);
    # a container of atoms alone (a hand, an army's units) is copied in one call, its members' types checked in C
    if kind is dict:
        if ATOMS.issuperset(map(type, value.values())):
            return value.copy()
        return {k: v if type(v) in ATOMS else copied(v) for k, v in value.items()}
    if kind is list:
        if ATOMS.issuperset(map(type, value)):
            return value.copy()
        return [v if type(v) in ATOMS else copied(v) for v in value]
    if kind is tuple:
        return tuple(v if type(v) in ATOMS else copied(v) for v in value)
    if kind in STATE_CLASSES:
        new = object.__new__(kind)
        new.__dict__.update({k: v if type(v) in ATOMS else copied(v) for k, v in value.__dict__.items()})
        return new
    return copy.deepcopy(value)


def plain(value: Any) -> dict[str, Any]:
    """dataclasses.asdict of a state dataclass: its fields in order, copied."""
    members = value.__dict__
    return {name: v if type(v := members[name]) in ATOMS else copied(v) for name in value.__dataclass_fields__}


# -- control (ER-2.3, ER-2.4, ER-2.5) ---------------------------------------------------------------------------


def capital_owner(state: GameState, side: MapSide, area: str) -> str | None:
    """The faction in play whose capital or temporary capital `area` is (ER-2.6, ER-11.2)."""
    owner = side.areas[area].capital
    if owner in state.players and not state.players[owner].eliminated:
        return owner
    return next((f for f, p in state.players.items() if p.temporary_capital == area and not p.eliminated), None)


def controller(state: GameState, side: MapSide, area: str) -> str | None:
    """ER-2.3: who controls `area`: the owner of the units in it (a faction or INDEPENDENT); else the owner of a
    capital (or temporary capital, ER-11.2) with no units in it (ER-2.3's Resolution: control returns at once
    when the enemy leaves); else nobody."""
    army = state.army.get(area)
    if army is not None and army.total > 0:
        return army.owner
    return capital_owner(state, side, area)


def controlled_areas(state: GameState, side: MapSide, faction: str) -> list[str]:
    """ER-2.5: the areas whose resources `faction` gets: those `controller` gives it, read in one pass (the
    players' temporary capitals looked up once, the first player's where two name one area, as capital_owner)."""
    army = state.army
    alive, temporary = _in_play_and_temporary(state)
    found = []
    for area, capital in _capitals(side):
        units = army.get(area)
        if units is not None and sum(units.units.values()) > 0:  # Army.total, asked without the property's call
            held: str | None = units.owner
        elif capital in alive:
            held = capital
        else:
            held = temporary.get(area)
        if held == faction:
            found.append(area)
    return found


def controllers(state: GameState, side: MapSide) -> dict[str, str | None]:
    """Each area of the side (in its order) with its `controller` (ER-2.3), as controlled_areas reads it, in one
    pass for every faction."""
    army = state.army
    alive, temporary = _in_play_and_temporary(state)
    found: dict[str, str | None] = {}
    for area, capital in _capitals(side):
        units = army.get(area)
        if units is not None and sum(units.units.values()) > 0:
            found[area] = units.owner
        else:
            found[area] = capital if capital in alive else temporary.get(area)
    return found


def _in_play_and_temporary(state: GameState) -> tuple[set[str], dict[str, str]]:
    """The factions in play, and each temporary capital's area with its faction (the first player's where two
    name one area, as capital_owner)."""
    alive: set[str] = set()
    temporary: dict[str, str] = {}
    for f, p in state.players.items():
        if not p.eliminated:
            alive.add(f)
            if p.temporary_capital is not None:
                temporary.setdefault(p.temporary_capital, f)
    return alive, temporary


# Each map side's areas with their capital's faction, in the side's order: (id(side)) -> (the side, the pairs).
# controlled_areas reads them thousands of times a step.
_CAPITALS: dict[int, tuple[MapSide, tuple[tuple[str, str | None], ...]]] = {}


def _capitals(side: MapSide) -> tuple[tuple[str, str | None], ...]:
    kept = _CAPITALS.get(id(side))
    if kept is None or kept[0] is not side:
        kept = _CAPITALS[id(side)] = (side, tuple((area, a.capital) for area, a in side.areas.items()))
        if len(_CAPITALS) > 64:
            del _CAPITALS[next(iter(_CAPITALS))]
    return kept[1]


def has_units(state: GameState, faction: str) -> bool:
    return any(army.owner == faction and army.total > 0 for army in state.army.values())


# -- forts (ER-2.6 to ER-2.8) -----------------------------------------------------------------------------------


def fort_of(state: GameState, side: MapSide, area: str) -> str:
    """ER-2.6, ER-2.7: none, small or large. A blank covers the printed fort all game (ER-2.7's Resolution); a
    built fort marker is a small fort in every respect (ER-2.6)."""
    if area in state.fort_markers:
        return "small"
    return side.fort_at(area, state.players_count)


def fort_count(state: GameState, side: MapSide, faction: str) -> int:
    """ER-2.8: the controlled areas with a fort, capitals included. A temporary capital adds none unless its
    area has a fort (ER-2.8's Resolution)."""
    return sum(1 for area in controlled_areas(state, side, faction) if fort_of(state, side, area) != "none")


def large_and_small_forts(state: GameState, side: MapSide, faction: str) -> tuple[int, int]:
    """The large and small forts `faction` controls (ER-11.5's dynasty condition, ER-11.1)."""
    kinds = [fort_of(state, side, area) for area in controlled_areas(state, side, faction)]
    return kinds.count("large"), kinds.count("small")


# -- food (ER-2.9, ER-5.30 to ER-5.33) --------------------------------------------------------------------------


def food_supply(state: GameState, side: MapSide, faction: str) -> int:
    """ER-5.30: food of the controlled areas + 1 per Granary + 1 for a temporary capital + 1 while a stored-food
    marker is in use + the round's other effects."""
    player = state.players[faction]
    food = sum(side.areas[area].food for area in controlled_areas(state, side, faction))
    food += player.districts.get("granary", 0)
    food += 1 if player.temporary_capital is not None else 0
    food += 1 if player.stored_food == FOOD_IN_USE else 0
    return food + player.food_bonus


def standard_units(state: GameState, faction: str) -> int:
    """ER-5.31: the standard units on the map (elite, ships and siege engines do not count)."""
    return sum(army.standard for army in state.army.values() if army.owner == faction)


def food_limit(state: GameState, data: GameData, faction: str) -> int:
    """ER-5.31: the most standard units the food supply allows."""
    return data.tracks.max_units(food_supply(state, data.map_for(state.players_count), faction))


def units_of(state: GameState, faction: str, kind: str) -> int:
    """`faction`'s units of `kind` on the map."""
    return sum(army.count(kind) for army in state.army.values() if army.owner == faction)


# -- invariants ---------------------------------------------------------------------------------------------------


def broken(state: GameState, data: GameData) -> list[str]:
    """What breaks the rules' invariants in `state` (empty: all hold)."""
    side = data.map_for(state.players_count)
    problems: list[str] = []
    for area, army in state.army.items():
        if area not in side.areas:
            problems.append(f"units in {area}, which is no area of the {side.side} board (ER-2.1)")
            continue
        if army.owner != INDEPENDENT and army.owner not in state.players:
            problems.append(f"{area}: units of {army.owner}, which is not in the game (ER-3.3)")
        if any(count < 0 for count in army.units.values()) or any(k not in UNIT_TYPES for k in army.units):
            problems.append(f"{area}: a wrong unit count {army.units} (ER-0.3)")
        if any(army.exhausted.get(k, 0) > army.count(k) or v < 0 for k, v in army.exhausted.items()):
            problems.append(f"{area}: more units exhausted than present (ER-7.2)")
        if not side.areas[area].land and army.owner == INDEPENDENT:
            problems.append(f"{area}: an independent army at sea (ER-3.8)")
    counted = _units_by_owner(state)
    problems += _piece_limits(state, data, counted)
    problems += _supply_limits(state, data)
    problems += _card_limits(state, data)
    problems += _seas_limits(state, data, counted)
    return problems


def _units_by_owner(state: GameState) -> dict[tuple[str, str], int]:
    """units_of of every owner and kind, read in one pass over the map (the limits ask for each)."""
    counted: dict[tuple[str, str], int] = {}
    for army in state.army.values():
        for kind, count in army.units.items():
            counted[(army.owner, kind)] = counted.get((army.owner, kind), 0) + count
    return counted


def _piece_limits(state: GameState, data: GameData, counted: dict[tuple[str, str], int]) -> list[str]:
    """ER-1.1: no more units than the barracks hold; ER-1.2: one elite per faction."""
    problems = []
    for faction, player in state.players.items():
        board = data.factions[faction].board(player.board) or data.factions[faction].standard
        for kind in STANDARD:
            if counted.get((faction, kind), 0) > board.barracks.of(kind):
                problems.append(f"{faction} has more {kind} on the map than its barracks hold (ER-1.1)")
        elites = counted.get((faction, "elite"), 0)
        if elites > 1 or (elites == 1) != (player.elite == "recruited"):
            problems.append(f"{faction}: {elites} elite units on the map, elite {player.elite} (ER-1.2, ER-6.7)")
        if player.stored_food not in (FOOD_NONE, FOOD_HELD, FOOD_IN_USE):
            problems.append(f"{faction}: stored food {player.stored_food!r} (ER-5.32)")
        if len(player.upgrades) > 4 or len(set(player.upgrades)) != len(player.upgrades):
            problems.append(f"{faction}: upgrades {player.upgrades} (ER-5.23: at most 4, none twice)")
    return problems


def _supply_limits(state: GameState, data: GameData) -> list[str]:
    """ER-1.2, ER-3.5: N of each district card, upgrade card, fort marker and stored-food marker in all."""
    n = state.players_count
    problems = []
    for kind in DISTRICTS:
        if kind == "fort":
            continue
        held = sum(p.districts.get(kind, 0) for p in state.players.values())
        if held + state.supply.districts.get(kind, 0) != n:
            problems.append(f"{kind} cards: {held} built + {state.supply.districts.get(kind, 0)} in supply != {n}")
    for name in UPGRADES:
        held = sum(name in p.upgrades for p in state.players.values())
        if held + state.supply.upgrades.get(name, 0) != n:
            problems.append(f"{name} upgrade cards: {held} owned + {state.supply.upgrades.get(name, 0)} != {n}")
    if len(state.fort_markers) + state.supply.fort_markers != n or len(set(state.fort_markers)) != len(
        state.fort_markers
    ):
        problems.append(f"fort markers: {state.fort_markers} built + {state.supply.fort_markers} in supply != {n}")
    held = sum(p.stored_food != FOOD_NONE for p in state.players.values())
    if held + state.supply.food_markers != n:
        problems.append(f"stored-food markers: {held} held + {state.supply.food_markers} in supply != {n}")
    return problems


def _card_limits(state: GameState, data: GameData) -> list[str]:
    """Every card is in exactly one place: a deck, a hand, a discard pile, in force or done."""
    decks = state.decks
    problems = []
    tactics = decks.tactics + decks.tactic_discards + [c for p in state.players.values() for c in p.hand]
    expected = sorted(t.id for t in data.cards.tactics for _ in range(t.count))
    if decks.tactics or any(p.hand for p in state.players.values()):
        if sorted(tactics) != expected:
            problems.append(f"tactic cards: {len(tactics)} in play, not the deck's {len(expected)} (ER-1.2)")
    automa = decks.automa + decks.automa_discards
    if automa and sorted(automa) != sorted(a.id for a in data.cards.automa):
        problems.append("automa cards: the deck and discards are not the 5 cards (ER-1.2)")
    chronicles = decks.chronicles + decks.chronicles_done + ([decks.chronicle] if decks.chronicle else [])
    if len(set(chronicles)) != len(chronicles):
        problems.append("a chronicle card is in play twice (ER-3.6)")
    for faction, player in state.players.items():
        heroes = player.heroes_down + list(player.heroes_up) + player.heroes_discarded
        own = {h.id for h in data.cards.heroes if h.faction == faction}
        if len(set(heroes)) != len(heroes) or not set(heroes) <= own:
            problems.append(f"{faction}: heroes {heroes} are not its own, or held twice (ER-6.10)")
        if any(uses != 1 for uses in player.heroes_up.values()):
            problems.append(f"{faction}: a face-up hero with uses other than 1 (ER-6.11)")
    return problems


def _seas_limits(state: GameState, data: GameData, counted: dict[tuple[str, str], int]) -> list[str]:
    """ER-0.8, ER-12.1, ER-12.2, ER-12.18: ships and siege engines only with Seas of Destiny, 2 of each per
    barracks; N megaproject cards of each type and N wharf markers, each in one place."""
    seas, n = state.seas, state.players_count
    problems = []
    for faction, player in state.players.items():
        board = data.factions[faction].board(player.board)
        if board is not None and board.kind == "alternative" and seas is None:
            problems.append(f"{faction} plays {player.board}: alternative boards need Seas of Destiny (ER-12.3)")
        for kind, most in SEAS_BARRACKS.items():
            if counted.get((faction, kind), 0) > (most if seas is not None else 0):
                problems.append(f"{faction} has more {kind} units on the map than its barracks hold (ER-12.2)")
        if seas is not None and counted.get((faction, "siege"), 0) > seas.siege_recruited.get(faction, 0):
            problems.append(f"{faction}: more siege engines on the map than recruited (ER-12.16)")
    side = data.map_for(state.players_count)
    for area, army in state.army.items():
        on_land = area in side.areas and side.areas[area].land
        if army.count("ship") and on_land and (seas is None or seas.wharves.get(army.owner) != area):
            problems.append(f"{area}: ships on land, which is not {army.owner}'s wharf (ER-12.9, ER-12.11)")
    if seas is None:
        return problems
    cards = seas.cards + [card for held in seas.built.values() for card in held]
    types = {card.id: card.type for card in data.cards.megaprojects}
    if len(set(cards)) != len(cards) or any(card not in types for card in cards):
        problems.append(f"megaproject cards {sorted(cards)}: unknown or in two places (ER-12.1)")
    elif any([types[c] for c in cards].count(kind) != n for kind in ("wonder", "temple", "port")):
        problems.append(f"megaproject cards: not {n} of each type in all (ER-12.1)")
    if len(seas.wharves) + seas.wharf_markers != n or len(set(seas.wharves.values())) != len(seas.wharves):
        problems.append(f"wharf markers: {seas.wharves} built + {seas.wharf_markers} in supply != {n} (ER-12.1)")
    return problems


# -- snapshots (engine/envelope.py, schema 2) -------------------------------------------------------------------


def public_part(state: GameState) -> dict[str, Any]:
    """What every player and observer may see: hands and decks only as counts (ER-6.10)."""
    part = {
        "mode": state.mode,
        "players": state.players_count,
        "seating": list(state.seating),
        "turn_order": list(state.turn_order),
        "hourglass": state.hourglass,
        "round": state.round,
        "phase": state.phase,
        "campaign_index": state.campaign_index,
        "options": dict(state.options),
        "factions": {f: _public_player(p) for f, p in state.players.items()},
        "army": {
            area: {"owner": a.owner, "units": dict(a.units), "exhausted": dict(a.exhausted)}
            for area, a in sorted(state.army.items())
        },
        "fort_markers": list(state.fort_markers),
        "supply": plain(state.supply),
        "decks": {
            "tactics": len(state.decks.tactics),
            "automa": len(state.decks.automa),
            "chronicles": len(state.decks.chronicles),
            "tactic_discards": list(state.decks.tactic_discards),
            "automa_discards": list(state.decks.automa_discards),
            "chronicle": state.decks.chronicle,
            "chronicles_done": list(state.decks.chronicles_done),
        },
        "winners": list(state.winners),
        "ended": state.ended,
    } | ({"seas": plain(state.seas)} if state.seas is not None else {})  # written only with the module (ER-0.8)
    if state.final_scores:  # written only once the game has ended (ER-10.3)
        part["final_scores"] = copy.deepcopy(state.final_scores)
    return part


PRIVATE_FIELDS: Final = ("hand", "heroes_down", "standing")


def _public_player(player: Player) -> dict[str, Any]:
    members = player.__dict__  # plain() without the private fields, which are not copied to be left out
    data = {
        name: v if type(v := members[name]) in ATOMS else copied(v)
        for name in Player.__dataclass_fields__
        if name not in PRIVATE_FIELDS
    }
    if not player.in_force:  # written only when some card effect is in force: older snapshots read back the same
        del data["in_force"]
    data["hand_size"] = len(player.hand)
    data["heroes_down_count"] = len(player.heroes_down)
    return data


def private_part(player: Player) -> dict[str, Any]:
    """One seat's own hidden part: its tactic hand, face-down heroes and standing orders (a defensive battle
    plan names the cards it will play, ER-14.14)."""
    part: dict[str, Any] = {"hand": list(player.hand), "heroes_down": list(player.heroes_down)}
    if player.standing:  # written only when given, so that older snapshots read back the same
        part["standing"] = dict(player.standing)
    return part


def secret_part(state: GameState) -> dict[str, Any]:
    """No seat's: the order of the decks (top card first)."""
    decks = state.decks
    return {"tactics": list(decks.tactics), "automa": list(decks.automa), "chronicles": list(decks.chronicles)}


def read_state(
    game: str, step: int, public: dict[str, Any], private: dict[str, Any], secret: dict[str, Any]
) -> GameState:
    """The state from the whole snapshot's parts (a KeyError or TypeError names what is missing or wrong)."""
    players = {}
    for faction, data in public["factions"].items():
        fields = {k: v for k, v in data.items() if k not in ("hand_size", "heroes_down_count")}
        player = Player(**fields)
        own = private.get(faction, {})
        player.hand, player.heroes_down = list(own.get("hand", [])), list(own.get("heroes_down", []))
        player.standing = dict(own.get("standing", {}))
        players[faction] = player
    decks = public["decks"]
    return GameState(
        game=game,
        mode=public["mode"],
        players_count=public["players"],
        seating=tuple(public["seating"]),
        turn_order=list(public["turn_order"]),
        hourglass=public["hourglass"],
        players=players,
        army={area: Army(a["owner"], dict(a["units"]), dict(a["exhausted"])) for area, a in public["army"].items()},
        fort_markers=list(public["fort_markers"]),
        supply=Supply(**public["supply"]),
        decks=Decks(
            tactics=list(secret.get("tactics", [])),
            automa=list(secret.get("automa", [])),
            chronicles=list(secret.get("chronicles", [])),
            tactic_discards=list(decks["tactic_discards"]),
            automa_discards=list(decks["automa_discards"]),
            chronicle=decks["chronicle"],
            chronicles_done=list(decks["chronicles_done"]),
        ),
        options=dict(public["options"]),
        round=public["round"],
        phase=public["phase"],
        campaign_index=public["campaign_index"],
        steps_done=step,
        winners=list(public["winners"]),
        ended=public["ended"],
        final_scores=copy.deepcopy(public.get("final_scores", {})),
        seas=Seas(**public["seas"]) if "seas" in public else None,
    )
