"""The self-play bot (bot.py): the position as it sees it, a projection of its own pieces after the moves it
has planned, and the weights it plans by."""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterable
from typing import Any

from adjudicator.rulesets.coe.ruleset import CoeRuleset
from adjudicator.rulesets.coe.state import Force, GameState
from adjudicator.rulesets.coe.vocabulary import UNIT_ABBREVIATIONS, UNIT_KINDS

Units = dict[str, int]


def order_leader(number: int) -> str:
    """A leader as the order language names him: CAESAR, G1 ..."""
    return "CAESAR" if number == 0 else f"G{number}"


def order_units(units: Units) -> str:
    """Combat units as orders count them: '3 INF 1 CAV'."""
    return " ".join(f"{units[k]} {UNIT_ABBREVIATIONS[k]}" for k in UNIT_KINDS if units.get(k))


def order_troops(leaders: Iterable[int], units: Units) -> str:
    """A group of pieces as orders write it: 'G1, G2 WITH 3 INF'."""
    named = ", ".join(order_leader(n) for n in leaders)
    counted = order_units(units)
    return f"{named} WITH {counted}" if named and counted else named or counted


class BotView:
    """One seat's view of the position for one player-turn, kept up to date with the moves it plans."""

    playing_a_seat = False  # True: it runs a seat of a real game (bot.py _SeatBot), not self-play

    def __init__(self, ruleset: CoeRuleset, state: GameState, seat: str, rng: random.Random) -> None:
        self.ruleset, self.board, self.state, self.seat, self.rng = ruleset, ruleset.board, state, seat, rng
        self.classic = ruleset.edition("combat") != "target_number"
        self.stacking = bool(ruleset.edition("stacking"))
        self.stop_at_galleys = bool(ruleset.edition("galleys_stop_at_enemy"))
        self.per_leader: int = ruleset.data["movement"]["units_per_leader"]
        self.player = state.players[seat]
        self.lines: list[str] = []
        # where the seat's pieces will be after the planned moves
        self.units: dict[str, Units] = {}
        self.leaders: dict[str, set[int]] = {}
        self.galleys_at: dict[str, set[int]] = {}
        for code, area in sorted(state.areas.items()):
            force = area.units.get(seat)
            if force is not None:
                self.units[code] = {k: getattr(force, k) for k in UNIT_KINDS}
                self.leaders[code] = set(force.leaders)
                self.galleys_at[code] = set(force.galleys)
        self.battles: list[str] = []
        self.arrived: dict[str, list[tuple[int, list[str], int]]] = {}  # galleys put in this turn, with MP left
        self.landed: dict[str, list[int]] = {}  # leaders that came ashore this turn
        self.distance = self._front_distance()

    # -- the position ---------------------------------------------------------------------------------------

    def owner(self, code: str) -> str | None:
        area = self.state.areas.get(code)
        return area.owner if area else None

    def enemy_units(self, code: str) -> int:
        area = self.state.areas.get(code)
        return sum(f.units for s, f in area.units.items() if s != self.seat) if area else 0

    def enemy_galleys(self, code: str) -> list[str]:
        area = self.state.areas.get(code)
        return sorted(s for s, f in area.units.items() if s != self.seat and f.galleys) if area else []

    def _front_distance(self) -> dict[str, int]:
        """Land steps from every province to the nearest one held or occupied by another player."""
        front = [
            c
            for c, a in sorted(self.state.areas.items())
            if self.board.is_land(c)
            and (a.owner not in (None, self.seat) or any(s != self.seat and f.units for s, f in a.units.items()))
        ]
        distance = dict.fromkeys(front, 0)
        queue = deque(front)
        while queue:
            code = queue.popleft()
            for other in sorted(self.board.land_neighbours(code)):
                if other not in distance:
                    distance[other] = distance[code] + 1
                    queue.append(other)
        return distance

    def fits(self, code: str, units: int, leaders: int) -> bool:
        """1984 (O-5.7): `code` after adding `units` and `leaders` (negative: removing) keeps 7 per leader."""
        if not self.stacking or not self.board.is_land(code):
            return True
        total = sum(self.units.get(code, {}).values()) + units
        if total <= 0:
            return True
        area = self.state.areas.get(code)
        city = 1 if area and area.city and (area.owner == self.seat or not self.enemy_units(code)) else 0
        return total <= self.per_leader * (len(self.leaders.get(code, ())) + leaders + city)

    def shift(self, start: str, end: str, leaders: list[int], units: Units) -> None:
        for kind, count in units.items():
            self.units[start][kind] -= count
            target = self.units.setdefault(end, dict.fromkeys(UNIT_KINDS, 0))
            target[kind] += count
        self.leaders[start] -= set(leaders)
        self.leaders.setdefault(end, set()).update(leaders)
        if self.enemy_units(end) and sum(units.values()) and end not in self.battles and self.board.is_land(end):
            self.battles.append(end)

    def score(self, start: str, code: str, strength: int) -> float:
        """How much the bot wants to send `strength` combat units from `start` into the province `code`."""
        enemies = self.enemy_units(code)
        if enemies:
            if not strength:
                return 0.0
            fort = 2 if (self.state.areas[code].city == "fortified") else 0
            ratio = strength / (enemies + fort)
            weight = 8.0 if ratio >= 1.3 else 3.0 if ratio >= 0.8 else 0.4
        elif self.owner(code) not in (None, self.seat):
            weight = 7.0 if strength else 0.3
        elif self.owner(code) is None:
            weight = (4.0 + self.board.value(code) / 5) if strength else 0.5
        else:
            weight = 1.0
        if self.distance.get(code, 99) < self.distance.get(start, 99):
            weight *= 1.6
        return weight

    def pick(self, options: list[tuple[Any, float]]) -> Any:
        options = [(o, w) for o, w in options if w > 0]
        if not options:
            return None
        return self.rng.choices([o for o, _ in options], [w for _, w in options])[0]

    def take_units(self, free: Units, count: int, kinds: tuple[str, ...] = UNIT_KINDS) -> Units:
        pool = [k for k in kinds for _ in range(free[k])]
        self.rng.shuffle(pool)
        taken = dict.fromkeys(UNIT_KINDS, 0)
        for kind in pool[:count]:
            taken[kind] += 1
            free[kind] -= 1
        return taken

    @staticmethod
    def give_back(free: Units, units: Units) -> None:
        for kind, count in units.items():
            free[kind] += count

    def road_targets(self, start: str) -> list[str]:
        """Own cities reachable from `start` along roads between own cities (C-5.12, C-5.13)."""
        area = self.state.areas.get(start)
        if area is None or not area.city or area.owner != self.seat or not area.roads:
            return []
        seen, queue = {start}, deque([start])
        while queue:
            city = queue.popleft()
            if city != start and self.enemy_units(city):
                continue
            for other in sorted(self.state.areas[city].roads):
                far = self.state.areas.get(other)
                if far is not None and far.owner == self.seat and far.city and other not in seen:
                    seen.add(other)
                    queue.append(other)
        return sorted(seen - {start})

    def coast_seas(self, code: str, force: Force, galley: int) -> list[str]:
        coasts = self.board.coasts(code)
        coast = force.galley_coasts.get(galley)
        if len(coasts) > 1 and coast is not None:
            for seas in coasts:
                if coast in seas:
                    return sorted(seas)
        return sorted(self.board.sea_neighbours(code))

    def landing_score(self, sea: str, code: str, strength: int, leaders: int) -> float:
        owner = self.owner(code)
        if strength == 0 and (self.enemy_units(code) or owner not in (None, self.seat)):
            return 0.0  # C-5.10, C-5.21: only combat units land in others' provinces
        if not self.fits(code, strength, leaders):
            return 0.0
        return self.score(sea, code, strength)
