"""Facts that hold after every resolved turn; tests and `pbem verify` check them. They include the position's fit
to the ruleset that the pieces and purses do not already hold (snapshot_check.py fit_problems): seats, homes, piece
numbers, galleys' coasts, the players named, areas in standing orders, so that every replayed position is held to
it, not only those verify reads with every check."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING, NamedTuple

from adjudicator.rulesets.coe.economy import shared_on_board, shared_units, tribute_value, units_on_board
from adjudicator.rulesets.coe.snapshot_check import (
    FitFacts,
    coasts_fit,
    fit_facts,
    fit_problems,
    head_fits,
    numbers_fit,
    player_fits,
    roads_fit,
    with_reader_defaults,
)
from adjudicator.rulesets.coe.state import Area, Cargo, Force, GameState, to_snapshot
from adjudicator.rulesets.coe.vocabulary import UNIT_KINDS

if TYPE_CHECKING:
    from adjudicator.rulesets.coe.ruleset import CoeRuleset


class _Pieces:
    """One seat's pieces on the board, summed over the areas. (This module's helpers are plain classes and named
    tuples: making dataclasses' methods was a part of every command's start-up that checks a position.)"""

    __slots__ = ("units", "galleys", "generals", "caesars")

    def __init__(self) -> None:
        self.units: dict[str, int] = dict.fromkeys(UNIT_KINDS, 0)
        self.galleys: list[int] = []
        self.generals: list[int] = []
        self.caesars = 0


def broken_invariants(ruleset: CoeRuleset, state: GameState) -> list[str]:
    """Every invariant the state breaks, in words (an empty list when all hold)."""
    if _all_hold(ruleset, state):  # the common case, in one pass; the words are found only when one breaks
        return []
    return _breaches(ruleset, state)


def _breaches(ruleset: CoeRuleset, state: GameState) -> list[str]:
    """broken_invariants, each check on its own, in words."""
    on_board = _pieces_on_board(state)
    problems: list[str] = []
    for seat in state.players:
        problems += _seat_problems(ruleset, state, seat, on_board.get(seat))
    problems += _supply_problems(ruleset, state)
    for code, area in state.areas.items():
        problems += _area_problems(ruleset, state, code, area)
    return problems + fit_problems(with_reader_defaults(to_snapshot(state)), ruleset)


def _pieces_on_board(state: GameState) -> dict[str, _Pieces]:
    """Each seat's pieces on the board, gathered in one pass over the areas (instead of one pass per seat and
    count: pbem verify checks every turn); lists are in area order, as the passes per seat made them."""
    on_board: dict[str, _Pieces] = {}
    for area in state.areas.values():
        for seat, force in area.units.items():
            pieces = on_board.get(seat)
            if pieces is None:
                pieces = on_board[seat] = _Pieces()
            for kind in UNIT_KINDS:
                pieces.units[kind] += getattr(force, kind)
            pieces.galleys += force.galleys
            pieces.generals += force.generals
            pieces.caesars += force.caesar
    return on_board


def _seat_problems(ruleset: CoeRuleset, state: GameState, seat: str, pieces: _Pieces | None) -> list[str]:
    """One seat's treasury, tribute, piece limits and leaders (C-1.1, C-8.8, C-8.9, C-9.1)."""
    player = state.players[seat]
    mine = pieces or _Pieces()  # empty: the seat has no force on the board
    problems = _purse_problems(ruleset, state, seat)
    if player.eliminated and pieces is not None:
        problems.append(f"{seat}: eliminated but still has pieces on the board (C-8.8)")
    problems += _limit_problems(ruleset, state, seat, mine)
    problems += _leader_problems(state, seat, mine)
    return problems


def _purse_problems(ruleset: CoeRuleset, state: GameState, seat: str) -> list[str]:
    """A treasury is never negative; the tribute is provinces plus cities (C-9.1)."""
    player = state.players[seat]
    problems = []
    if player.treasury < 0:
        problems.append(f"{seat}: treasury {player.treasury} is negative")
    if not player.eliminated and player.tribute != tribute_value(ruleset, state, seat):
        owed = tribute_value(ruleset, state, seat)
        problems.append(f"{seat}: tribute {player.tribute} is not provinces + cities ({owed}) (C-9.1)")
    return problems


def _limit_problems(ruleset: CoeRuleset, state: GameState, seat: str, mine: _Pieces) -> list[str]:
    """A seat's own units and galleys stay within its limits, inherited pieces added (C-1.1); each galley is in
    one place."""
    limits, inherited = ruleset.data["limits"], state.players[seat].inherited
    problems = []
    for kind in () if shared_units(ruleset) else UNIT_KINDS:
        count = mine.units[kind]
        if count > limits[kind] + inherited.get(kind, 0):
            problems.append(f"{seat}: {count} {kind} exceed the limit {limits[kind]} (C-1.1)")
    if len(mine.galleys) > limits["galley"] + inherited.get("galley", 0):
        problems.append(f"{seat}: {len(mine.galleys)} galleys exceed the limit (C-1.1)")
    problems += [f"{seat}: galley {n} is in {times} places" for n, times in Counter(mine.galleys).items() if times > 1]
    return problems


def _leader_problems(state: GameState, seat: str, mine: _Pieces) -> list[str]:
    """Each general is in one place (on the board or a prisoner); one Caesar while the seat plays; nobody holds
    his own general prisoner (C-8.9)."""
    player = state.players[seat]
    captive = [c.general for p in state.players.values() for c in p.captives if c.owner == seat]
    problems = [
        f"{seat}: general G{n} is in {times} places"
        for n, times in Counter(mine.generals + captive).items()
        if times > 1
    ]
    caesars = mine.caesars
    if caesars > 1 or (caesars == 0 and not player.eliminated) or (caesars and player.eliminated):
        problems.append(f"{seat}: {caesars} Caesars on the board")
    if any(c.owner == seat for c in player.captives):
        problems.append(f"{seat}: holds his own general prisoner (C-8.9)")
    return problems


def _supply_problems(ruleset: CoeRuleset, state: GameState) -> list[str]:
    """The shared supplies: 1984 units (O-1.2), cities, fortifications and roads (C-1.2)."""
    limits = ruleset.data["limits"]
    problems = []
    for kind in UNIT_KINDS if shared_units(ruleset) else ():  # O-1.2: one supply of uncoloured units for all players
        if units_on_board(state, kind) > limits[kind]:
            problems.append(f"{units_on_board(state, kind)} {kind} exceed the shared supply of {limits[kind]} (O-1.2)")
    for kind in ("city", "fortification", "road"):
        if shared_on_board(state, kind) > limits[kind]:
            problems.append(f"{shared_on_board(state, kind)} {kind} pieces exceed the pool of {limits[kind]} (C-1.2)")
    return problems


def _area_problems(ruleset: CoeRuleset, state: GameState, code: str, area: Area) -> list[str]:
    """One area: owner, city and roads (C-0.8, C-9.7), one army per province (C-6.1), and each force's galleys."""
    land = ruleset.board.is_land(code)
    problems = []
    if area.owner is not None and not land:
        problems.append(f"{code}: a sea zone has an owner (C-0.8)")
    if area.city and not land:
        problems.append(f"{code}: a city at sea")
    for other in area.roads:
        if code not in state.area(other).roads or not area.city or not state.area(other).city:
            problems.append(f"{code}: road to {other} is not between two cities (C-9.7)")
    armies = [s for s, f in area.units.items() if f.units]
    if land and len(armies) > 1:
        problems.append(f"{code}: combat units of {', '.join(armies)} after the turn (C-6.1)")
    for seat, force in area.units.items():
        problems += _galley_problems(ruleset, code, seat, force)
    return problems


def _galley_problems(ruleset: CoeRuleset, code: str, seat: str, force: Force) -> list[str]:
    """A force's galleys and their cargo (C-5.16, C-5.17, C-5.22, C-5.23, C-5.26)."""
    land = ruleset.board.is_land(code)
    problems = []
    if force.galleys and land and not ruleset.board.coasts(code):
        problems.append(f"{code}: {seat}'s galleys in a province without coast (C-5.16)")
    for number, cargo in force.aboard.items():
        problems += _cargo_problems(ruleset, code, seat, force, number, cargo)
    if not land:
        if not _all_aboard(force):
            problems.append(f"{code}: {seat}'s land pieces at sea are not all aboard galleys (C-5.17)")
    elif force.aboard and any(not c.is_empty() for c in force.aboard.values()):
        problems.append(f"{code}: {seat}'s pieces still aboard in a province (C-5.26)")
    return problems


def _cargo_problems(ruleset: CoeRuleset, code: str, seat: str, force: Force, number: int, cargo: Cargo) -> list[str]:
    """What one galley carries: it is there, at most 7 units (C-5.22), units with a leader (C-5.23)."""
    problems = []
    if number not in force.galleys:
        problems.append(f"{code}: {seat}'s cargo aboard a galley {number} that is not there")
    if cargo.units > ruleset.data["movement"]["units_per_leader"]:
        problems.append(f"{code}: {seat}'s galley {number} carries {cargo.units} units (C-5.22)")
    if cargo.units and not (cargo.caesar or cargo.generals):
        problems.append(f"{code}: {seat}'s galley {number} carries units without a leader (C-5.23)")
    return problems


def _all_aboard(force: Force) -> bool:
    """At sea every land piece of a force is aboard one of its galleys (C-5.17)."""
    aboard = {k: sum(getattr(c, k) for c in force.aboard.values()) for k in UNIT_KINDS}
    leaders = sorted(g for c in force.aboard.values() for g in c.generals)
    return (
        all(aboard[k] == getattr(force, k) for k in UNIT_KINDS)
        and leaders == sorted(force.generals)
        and sum(c.caesar for c in force.aboard.values()) == force.caesar
    )


# -- all hold: the checks above in one pass, for a state that breaks none (verify and every turn check one a turn) --


class _Facts(NamedTuple):
    """What the one-pass check reads of a ruleset, gathered once."""

    land: frozenset[str]
    sea: frozenset[str]
    coastless: frozenset[str]  # provinces without a coast (C-5.16)
    value: dict[str, int]
    city: int  # tribute of a city (C-9.1)
    limits: dict[str, int]
    shared: bool  # 1984's one supply of units (O-1.2)
    per_leader: int  # units a galley carries (C-5.22)
    fit: FitFacts  # the position's fit to the ruleset


_FACTS: dict[int, tuple[CoeRuleset, _Facts | None]] = {}


def _facts(ruleset: CoeRuleset) -> _Facts | None:
    """The ruleset's facts (None when its data lacks one: the full check then runs, and names what it names)."""
    entry = _FACTS.get(id(ruleset))
    if entry is None or entry[0] is not ruleset:
        fit = fit_facts(ruleset)
        try:
            board = ruleset.board
            facts: _Facts | None = _Facts(
                land=frozenset(code for code in board.areas if board.is_land(code)),
                sea=frozenset(code for code in board.areas if not board.is_land(code)),
                coastless=frozenset(code for code in board.areas if board.is_land(code) and not board.coasts(code)),
                value={code: board.value(code) for code in board.areas},
                city=ruleset.data["city"]["tribute"],
                limits={kind: ruleset.data["limits"][kind] for kind in (*UNIT_KINDS, "galley", *_SHARED)},
                shared=shared_units(ruleset),
                per_leader=ruleset.data["movement"]["units_per_leader"],
                fit=fit,
            )
        except Exception:  # noqa: BLE001 (whatever is missing, the full check meets it as it always did)
            facts = None
        if fit is None:  # the fit's facts are missing: the same
            facts = None
        entry = _FACTS[id(ruleset)] = (ruleset, facts)  # the ruleset kept, so that its id is not reused
    return entry[1]


_SHARED = ("city", "fortification", "road")


def _all_hold(ruleset: CoeRuleset, state: GameState) -> bool:
    """True only when broken_invariants finds nothing: the same checks in one pass over the areas. Anything it is
    not sure of (a problem, an unknown area, a value of an unexpected type) is False, and the full check decides."""
    facts = _facts(ruleset)
    if facts is None:
        return False
    try:
        return _one_pass(facts, state)
    except Exception:  # noqa: BLE001 (the full check raises or names it, as it always did)
        return False


class _Totals:
    """What the one pass counts over the board, per seat and in all."""

    def __init__(self, seats: Iterable[str]) -> None:
        self.tribute = dict.fromkeys(seats, 0)
        self.units: dict[str, list[int]] = {}  # seat -> infantry, cavalry, catapult, caesars, over the board
        self.galleys: dict[str, list[int]] = {}
        self.generals: dict[str, list[int]] = {}
        self.cities = self.fortified = self.roads = 0


def _one_pass(facts: _Facts, state: GameState) -> bool:
    totals = _Totals(state.players)
    return (
        all(_area_holds(facts, state.areas, code, area, totals) for code, area in state.areas.items())
        and _limits_hold(facts, totals)
        and _players_hold(facts, state, totals)
    )


def _area_holds(facts: _Facts, areas: dict[str, Area], code: str, area: Area, totals: _Totals) -> bool:
    """One area's own rules, its counts added to `totals`."""
    land = code in facts.land
    if not land and code not in facts.sea:
        return False
    owner, city = area.owner, area.city
    if owner is not None:
        if not land or owner not in totals.tribute:
            return False  # C-0.8; the owner is a player
        totals.tribute[owner] += facts.value[code] + (facts.city if city else 0)
    if city:
        if not land:
            return False
        totals.cities += 1
        totals.fortified += city == "fortified"
    if area.roads:
        if not roads_fit(code, area.roads, facts.fit):
            return False
        totals.roads += len(area.roads)
        for other in area.roads:  # C-9.7
            there = areas.get(other)
            if there is None or not city or not there.city or code not in there.roads:
                return False
    army = False
    for seat, force in area.units.items():
        counts = totals.units.get(seat)
        if counts is None:
            if seat not in totals.tribute:
                return False  # a force of no player
            counts = totals.units[seat] = [0, 0, 0, 0]
            totals.galleys[seat] = []
            totals.generals[seat] = []
        infantry, cavalry, catapult = force.infantry, force.cavalry, force.catapult
        counts[0] += infantry
        counts[1] += cavalry
        counts[2] += catapult
        counts[3] += force.caesar
        totals.galleys[seat] += force.galleys
        totals.generals[seat] += force.generals
        if infantry + cavalry + catapult:
            if army and land:
                return False  # C-6.1
            army = True
        if not _force_holds(facts, code, land, force):
            return False
        if force.galley_coasts and not coasts_fit(code, force.galley_coasts, force.galleys, facts.fit):
            return False
    return True


def _force_holds(facts: _Facts, code: str, land: bool, force: Force) -> bool:
    """A force's galleys and what they carry."""
    if force.galleys and code in facts.coastless:
        return False  # C-5.16
    for number, cargo in force.aboard.items():
        units = cargo.units
        if number not in force.galleys or units > facts.per_leader or (units and not (cargo.caesar or cargo.generals)):
            return False  # C-5.22, C-5.23
    if land:
        return not (force.aboard and any(not c.is_empty() for c in force.aboard.values()))  # C-5.26
    afloat = force.aboard or force.infantry or force.cavalry or force.catapult or force.caesar or force.generals
    return not afloat or _all_aboard(force)  # C-5.17


def _limits_hold(facts: _Facts, totals: _Totals) -> bool:
    limits = facts.limits
    if totals.cities > limits["city"] or totals.fortified > limits["fortification"]:
        return False  # C-1.2
    if totals.roads // 2 > limits["road"]:
        return False  # C-1.2
    return not (
        facts.shared and any(sum(c[i] for c in totals.units.values()) > limits[k] for i, k in enumerate(UNIT_KINDS))
    )  # O-1.2


def _players_hold(facts: _Facts, state: GameState, totals: _Totals) -> bool:
    players, limits = state.players, facts.limits
    if not head_fits(players, state.active, state.winner, state.inflation_pending, facts.fit):
        return False
    held: dict[str, list[int]] = {}  # seat -> its generals held prisoner
    for seat, player in players.items():
        for captive in player.captives:
            if captive.owner == seat:
                return False  # C-8.9
            held.setdefault(captive.owner, []).append(captive.general)
    for seat, player in players.items():
        counts = totals.units.get(seat)
        if player.treasury < 0 or (not player.eliminated and player.tribute != totals.tribute[seat]):
            return False  # C-9.1
        others = (player.captor, player.conceded_to)
        captives = [(c.owner, c.general) for c in player.captives] if player.captives else ()
        if not player_fits(seat, player.home, others, captives, player.standing, players, facts.fit):
            return False
        if counts is None:
            if not player.eliminated or held.get(seat):  # no Caesar on the board
                return False
            continue
        if player.eliminated or counts[3] != 1:
            return False  # C-8.8: one Caesar while the seat plays
        inherited = player.inherited
        if not facts.shared and any(
            counts[i] > limits[kind] + inherited.get(kind, 0) for i, kind in enumerate(UNIT_KINDS)
        ):
            return False  # C-1.1
        mine, leaders = totals.galleys[seat], totals.generals[seat] + held.get(seat, [])
        if not numbers_fit(mine, facts.fit.galleys) or not numbers_fit(leaders, facts.fit.generals):
            return False  # the numbers of the seat's pieces, taken together
        if len(mine) > limits["galley"] + inherited.get("galley", 0) or len(set(mine)) != len(mine):
            return False
        if len(set(leaders)) != len(leaders):
            return False
    return True
