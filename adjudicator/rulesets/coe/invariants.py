"""Facts that hold after every resolved turn; tests and `pbem verify` check them."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from adjudicator.rulesets.coe.economy import shared_on_board, shared_units, tribute_value, units_on_board
from adjudicator.rulesets.coe.state import GameState
from adjudicator.rulesets.coe.vocabulary import UNIT_KINDS

if TYPE_CHECKING:
    from adjudicator.rulesets.coe.ruleset import CoeRuleset


@dataclass
class _Pieces:
    """One seat's pieces on the board, summed over the areas."""

    units: dict[str, int] = field(default_factory=lambda: dict.fromkeys(UNIT_KINDS, 0))
    galleys: list[int] = field(default_factory=list)
    generals: list[int] = field(default_factory=list)
    caesars: int = 0


def broken_invariants(ruleset: CoeRuleset, state: GameState) -> list[str]:
    """Every invariant the state breaks, in words (an empty list when all hold)."""
    board, limits = ruleset.board, ruleset.data["limits"]
    units_per_galley = ruleset.data["movement"]["units_per_leader"]
    shared = shared_units(ruleset)
    problems = []
    # Each seat's pieces on the board, gathered in one pass over the areas (instead of one pass per seat and
    # count: pbem verify checks every turn); lists are in area order, as the passes per seat made them.
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
    for seat, player in state.players.items():
        mine = on_board.get(seat, _Pieces())  # empty: the seat has no force on the board
        if player.treasury < 0:
            problems.append(f"{seat}: treasury {player.treasury} is negative")
        if not player.eliminated and player.tribute != tribute_value(ruleset, state, seat):
            problems.append(
                f"{seat}: tribute {player.tribute} is not provinces + cities "
                f"({tribute_value(ruleset, state, seat)}) (C-9.1)"
            )
        if player.eliminated and seat in on_board:
            problems.append(f"{seat}: eliminated but still has pieces on the board (C-8.8)")
        for kind in UNIT_KINDS if not shared else ():
            count = mine.units[kind]
            if count > limits[kind] + player.inherited.get(kind, 0):
                problems.append(f"{seat}: {count} {kind} exceed the limit {limits[kind]} (C-1.1)")
        galleys = mine.galleys
        if len(galleys) > limits["galley"] + player.inherited.get("galley", 0):
            problems.append(f"{seat}: {len(galleys)} galleys exceed the limit (C-1.1)")
        for number, times in Counter(galleys).items():
            if times > 1:
                problems.append(f"{seat}: galley {number} is in {times} places")
        generals = mine.generals + [c.general for p in state.players.values() for c in p.captives if c.owner == seat]
        for number, times in Counter(generals).items():
            if times > 1:
                problems.append(f"{seat}: general G{number} is in {times} places")
        caesars = mine.caesars
        if caesars > 1 or (caesars == 0 and not player.eliminated) or (caesars and player.eliminated):
            problems.append(f"{seat}: {caesars} Caesars on the board")
        if any(c.owner == seat for c in player.captives):
            problems.append(f"{seat}: holds his own general prisoner (C-8.9)")
    for kind in UNIT_KINDS if shared else ():  # O-1.2: one supply of uncoloured units for all players
        if units_on_board(state, kind) > limits[kind]:
            problems.append(f"{units_on_board(state, kind)} {kind} exceed the shared supply of {limits[kind]} (O-1.2)")
    for kind in ("city", "fortification", "road"):
        if shared_on_board(state, kind) > limits[kind]:
            problems.append(f"{shared_on_board(state, kind)} {kind} pieces exceed the pool of {limits[kind]} (C-1.2)")
    for code, area in state.areas.items():
        land = board.is_land(code)
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
            if force.galleys and land and not board.coasts(code):
                problems.append(f"{code}: {seat}'s galleys in a province without coast (C-5.16)")
            for number, cargo in force.aboard.items():
                if number not in force.galleys:
                    problems.append(f"{code}: {seat}'s cargo aboard a galley {number} that is not there")
                if cargo.units > units_per_galley:
                    problems.append(f"{code}: {seat}'s galley {number} carries {cargo.units} units (C-5.22)")
                if cargo.units and not (cargo.caesar or cargo.generals):
                    problems.append(f"{code}: {seat}'s galley {number} carries units without a leader (C-5.23)")
            if not land:
                aboard = {k: sum(getattr(c, k) for c in force.aboard.values()) for k in UNIT_KINDS}
                leaders = sorted(g for c in force.aboard.values() for g in c.generals)
                if (
                    any(aboard[k] != getattr(force, k) for k in UNIT_KINDS)
                    or leaders != sorted(force.generals)
                    or sum(c.caesar for c in force.aboard.values()) != force.caesar
                ):
                    problems.append(f"{code}: {seat}'s land pieces at sea are not all aboard galleys (C-5.17)")
            elif force.aboard and any(not c.is_empty() for c in force.aboard.values()):
                problems.append(f"{code}: {seat}'s pieces still aboard in a province (C-5.26)")
    return problems
