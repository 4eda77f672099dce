"""Self-play: a bot that writes random, mostly legal orders for any seat of a Conquest of the Empire ruleset, and
whole games played from them with verifiable dice (for tests, benchmarks and `pbem selfplay`).

The bot reads the position and the board: leaders march with combat units into adjacent provinces (into enemy
armies too, so that battles happen), make road journeys, sail galleys with cargo and land it; it buys within its
treasury, builds cities, fortifications and roads, gives standing orders, now and then declares a naval battle,
offers or accepts a ransom and sends press. It does not play the rules through, so the engine refuses some of its
orders (with reasons), as it would a hasty player's. Deterministic for a given random.Random state: whatever it
draws from is sorted first.

CoeBot is the bot as the Ruleset protocol's member `bot`: services/selfplay.py plays archived games with it
(`pbem selfplay`); play_game below plays in memory, without the archive (tests, benchmarks).
"""

from __future__ import annotations

import hashlib
import random
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from adjudicator.engine.chance import CHAIN_LENGTH, KeyedDice, chain_keys, orders_digest
from adjudicator.engine.decisions import Question, default_answers
from adjudicator.orders import parse_orders
from adjudicator.rulesets.coe.ruleset import CoeRuleset, coe_ruleset
from adjudicator.rulesets.coe.state import Force, GameState
from adjudicator.rulesets.coe.turn import TurnResult, coming_turns, resolve
from adjudicator.rulesets.coe.vocabulary import UNIT_ABBREVIATIONS, UNIT_KINDS

Units = dict[str, int]
BATTLE_EVENTS = ("battle", "naval_battle")
PRESS = (
    "Ave!",
    "Our legions march for peace.",
    "Let us share the sea.",
    "Beware the ides.",
    "Rome was not built in a day.",
    "Alea iacta est.",
    "Your provinces look lovely.",
    "Truce?",
)


# -- the bot ------------------------------------------------------------------------------------------------


def random_orders(
    ruleset: CoeRuleset, state: GameState, seat: str, rng: random.Random, password: str = "selfplay"
) -> str:
    """An order text (header and order lines) of plausible, mostly legal random orders for `seat`'s coming
    player-turn in `state`. The same rng state gives the same text."""
    number = coming_turns(state).get(seat, state.turn + 1)
    return _Bot(ruleset, state, seat, rng).orders(f"GAME {state.game} TURN {number} PLAYER {seat} PASSWORD {password}")


@dataclass(frozen=True)
class CoeBot:
    """The bot as the Ruleset protocol's member `bot` (engine/protocol.py Bot), for self-play through the services
    (services/selfplay.py)."""

    battle_events: tuple[str, ...] = BATTLE_EVENTS

    def seats(self, ruleset: CoeRuleset, count: int) -> list[str]:
        return seats_in_play(ruleset, count)

    def orders(self, ruleset: CoeRuleset, state: GameState, seat: str, header: str, rng: random.Random) -> str:
        return _Bot(ruleset, state, seat, rng).orders(header)

    def answers(
        self,
        ruleset: CoeRuleset,
        state: GameState,
        seat: str,
        header: str,
        asked: Sequence[Question],
        rng: random.Random,
    ) -> str:
        """Each decision answered with the default its notice shows (C-15): a player who reads and agrees."""
        return default_answers(header, asked)

    def winner(self, ruleset: CoeRuleset, state: GameState) -> str | None:
        return state.winner


def _leader(number: int) -> str:
    return "CAESAR" if number == 0 else f"G{number}"


def _units_text(units: Units) -> str:
    return " ".join(f"{units[k]} {UNIT_ABBREVIATIONS[k]}" for k in UNIT_KINDS if units.get(k))


def _troops_text(leaders: Iterable[int], units: Units) -> str:
    named = ", ".join(_leader(n) for n in leaders)
    counted = _units_text(units)
    return f"{named} WITH {counted}" if named and counted else named or counted


class _Bot:
    """One seat's orders for one player-turn, planned against a projection of its own pieces."""

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

    # -- the orders -----------------------------------------------------------------------------------------

    def orders(self, header: str) -> str:
        if self.rng.random() < 0.03:
            return header + "\n"  # now and then nothing at all
        self.standing_orders()
        for code in sorted(self.galleys_at):
            if not self.board.is_land(code) and self.galleys_at[code]:
                self.sail_from_sea(code)
        for code in sorted(c for c, a in self.state.areas.items() if self.board.is_land(c) and self.seat in a.units):
            self.land_area(code)
        self.retreat_orders()
        self.naval_declarations()
        if len(self.battles) > 1 and self.rng.random() < 0.4:
            order = list(self.battles)
            self.rng.shuffle(order)
            self.lines.append(f"BATTLES {', '.join(order)}")
        self.answers()
        self.destroy_city()
        spent = self.ransoms()
        self.purchases(spent)
        self.press()
        self.concede()
        self.mistake()
        return "\n".join([header, *self.lines]) + "\n"

    # movement

    def land_area(self, code: str) -> None:
        rng = self.rng
        force = self.state.areas[code].units.get(self.seat)
        if force is None or self.enemy_units(code):
            return
        free = {k: getattr(force, k) for k in UNIT_KINDS}
        leaders = sorted(force.leaders)
        rng.shuffle(leaders)
        if 0 in leaders and rng.random() < 0.85:  # the Caesar mostly stays, with a garrison
            leaders.remove(0)
            self.take_units(free, rng.randint(3, 8))
        # galleys lying here, and galleys that came in from the sea this turn with MP left (to pick pieces up)
        galleys = [(g, self.coast_seas(code, force, g), 2) for g in sorted(force.galleys)]
        galleys += self.arrived.get(code, [])
        while galleys:
            fleet = [galleys.pop(0)]
            if rng.random() >= 0.55:
                continue
            if galleys and len(leaders) > 1 and rng.random() < 0.25 and set(fleet[0][1]) & set(galleys[0][1]):
                fleet.append(galleys.pop(0))  # two galleys sail together, a leader on each
            crew = [leaders.pop() for _ in fleet if leaders and rng.random() < 0.8]
            self.sail_from_land(code, fleet, crew, free)
        while leaders:
            leader = leaders.pop()
            if leader or rng.random() < 0.5:
                self.march(code, [leader], free, leaders)
        if self.landed.get(code) and rng.random() < 0.1:
            # pieces that came ashore this turn may not move on by land (C-5.25): a hasty player's order
            leader = self.landed[code][0]
            onward = sorted(self.board.land_neighbours(code))
            if onward:
                self.lines.append(f"MOVE {_leader(leader)}: {code} -> {rng.choice(onward)}")

    def march(self, start: str, group: list[int], free: Units, spare: list[int]) -> None:
        """MOVE orders of the leaders in `group` with some of the free combat units of `start`."""
        rng = self.rng
        total = sum(free.values())
        roads = self.road_targets(start)
        if roads and rng.random() < 0.4:
            target = self.pick([(c, self.score(start, c, total) + 0.5) for c in roads])
            units = self.take_units(free, rng.randint(0, min(total, self.per_leader * len(group))))
            steps = [f"=> {target}"]
            end = target
            if (
                not units["infantry"] and not units["catapult"] and not self.enemy_units(target) and rng.random() < 0.3
            ):  # a road journey and a land move: 2 MP (C-5.14)
                onward = sorted(self.board.land_neighbours(target) - {start})
                second = self.pick([(c, self.score(target, c, sum(units.values()))) for c in onward])
                if second is not None:
                    steps.append(f"-> {second}")
                    end = second
            if not self.fits(start, -sum(units.values()), -len(group)) or not self.fits(
                end, sum(units.values()), len(group)
            ):
                self.give_back(free, units)
                return
            self.lines.append(f"MOVE {_troops_text(group, units)}: {start} {' '.join(steps)}")
            self.shift(start, end, group, units)
            return
        neighbours = sorted(self.board.land_neighbours(start))
        attack = [c for c in neighbours if self.enemy_units(c)]
        strength = min(total, self.per_leader * len(group))
        target = self.pick([(c, self.score(start, c, strength)) for c in neighbours])
        if target is None:
            return
        if target in attack:
            needed = self.enemy_units(target) + 2
            while strength < needed and spare and total > strength and rng.random() < 0.7:
                group.append(spare.pop())  # a second leader brings more units to the battle
                strength = min(total, self.per_leader * len(group))
            count = strength
        else:
            count = rng.randint(1, strength) if strength and rng.random() < 0.85 else 0
        cavalry_only = count <= free["cavalry"] and rng.random() < 0.3
        units = self.take_units(free, count, ("cavalry",) if cavalry_only else UNIT_KINDS)
        steps = [target]
        if target not in attack and not units["infantry"] and not units["catapult"] and rng.random() < 0.35:
            onward = sorted(self.board.land_neighbours(target) - {start})
            moved = sum(units.values())
            second = self.pick([(c, self.score(target, c, moved)) for c in onward])
            if second is not None:
                steps.append(second)
        end = steps[-1]
        moved = sum(units.values())
        if (
            not self.fits(start, -moved, -len(group))
            or not self.fits(end, moved, len(group))
            or (0 in group and not moved)
        ):  # the Caesar never travels alone
            self.give_back(free, units)
            return
        troops = _troops_text(group, units)
        if len(steps) == 2 and rng.random() < 0.5:  # the same pieces in two orders, MP carried over (C-5.2)
            self.lines.append(f"MOVE {troops}: {start} -> {steps[0]}")
            self.lines.append(f"MOVE {troops}: {steps[0]} -> {steps[1]}")
        else:
            self.lines.append(f"MOVE {troops}: {start} " + " ".join(f"-> {c}" for c in steps))
        self.shift(start, end, group, units)
        if rng.random() < 0.02 and units["infantry"]:  # infantry has 1 MP only: refused (C-5.2)
            onward = sorted(self.board.land_neighbours(end))
            if onward:
                self.lines.append(f"MOVE {_leader(group[0])} WITH 1 INF: {end} -> {rng.choice(onward)}")

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

    def sail_from_land(self, start: str, fleet: list[tuple[int, list[str], int]], crew: list[int], free: Units) -> None:
        """SAIL galleys from a province, with leaders and units aboard when there are any (C-5.22 to C-5.24)."""
        rng = self.rng
        units = dict.fromkeys(UNIT_KINDS, 0)
        if crew and sum(free.values()):
            most = min(self.per_leader * len(crew), sum(free.values()))
            units = self.take_units(free, rng.randint(0 if rng.random() < 0.1 else 1, most))
        strength = sum(units.values())
        seas = sorted(set.intersection(*(set(seas) for _, seas, _ in fleet)))
        mp = min(left for _, _, left in fleet)
        if not self.fits(start, -strength, -len(crew)) or not seas:
            self.give_back(free, units)
            crew.clear()
            return
        sea = self.pick([(s, 1.0 + 3 * len(self.enemy_galleys(s))) for s in seas])
        route = [sea]
        if mp > 1 and not (self.stop_at_galleys and self.enemy_galleys(sea)):
            lands = sorted(c for c in self.board.adjacency[sea] if self.board.is_land(c) and c != start)
            options: list[tuple[Any, float]] = [(c, self.landing_score(sea, c, strength, len(crew))) for c in lands]
            options += [(s, 0.5 + 2 * len(self.enemy_galleys(s))) for s in sorted(self.board.sea_neighbours(sea))]
            options.append((None, 0.7))
            onward = self.pick(options)
            if onward is not None:
                route.append(onward)
        cargo = f" CARRYING {_troops_text(crew, units)}" if crew or strength else ""
        numbers = [g for g, _, _ in fleet]
        self.lines.append(f"SAIL GALLEY {', '.join(map(str, numbers))}: {start} -> {' -> '.join(route)}{cargo}")
        self.galleys_at[start].difference_update(numbers)
        self.galleys_at.setdefault(route[-1], set()).update(numbers)
        self.shift(start, route[-1], crew, units)
        if self.board.is_land(route[-1]):
            self.landed.setdefault(route[-1], []).extend(crew)

    def sail_from_sea(self, zone: str) -> None:
        """Galleys at sea sail on, landing what they carry, passing through own provinces, or stay (maybe to
        fight there); an empty galley may put in to a province to pick pieces up there (C-5.24)."""
        board = self.board
        force = self.state.areas[zone].units[self.seat]
        for galley in sorted(force.galleys):
            if self.rng.random() < 0.2:
                continue
            cargo = force.aboard.get(galley)
            strength = cargo.units if cargo else 0
            leaders = sorted(([0] if cargo and cargo.caesar else []) + (cargo.generals if cargo else []))
            lands = sorted(c for c in board.adjacency[zone] if board.is_land(c))
            options: list[tuple[Any, float]] = [
                ((c,), 2 * self.landing_score(zone, c, strength, len(leaders))) for c in lands
            ]
            for sea in sorted(board.sea_neighbours(zone)):
                options.append(((sea,), 0.4 + 2 * len(self.enemy_galleys(sea))))
                if self.stop_at_galleys and self.enemy_galleys(sea):
                    continue
                for land in sorted(c for c in board.adjacency[sea] if board.is_land(c)):
                    options.append(((sea, land), self.landing_score(sea, land, strength, len(leaders))))
            for land in lands:  # through an own or neutral province and out again, the cargo staying aboard
                if self.owner(land) in (None, self.seat) and not self.enemy_units(land):
                    coast = next((c for c in board.coasts(land) if zone in c), frozenset())
                    options += [((land, sea), 0.15) for sea in sorted(coast)]
            route = self.pick(options)
            if route is None:
                continue
            self.lines.append(f"SAIL GALLEY {galley}: {zone} -> {' -> '.join(route)}")
            self.galleys_at[zone].discard(galley)
            self.galleys_at.setdefault(route[-1], set()).add(galley)
            carried = {k: getattr(cargo, k) for k in UNIT_KINDS} if cargo else dict.fromkeys(UNIT_KINDS, 0)
            self.shift(zone, route[-1], leaders, carried)
            end = route[-1]
            if board.is_land(end):
                self.landed.setdefault(end, []).extend(leaders)
                if len(route) == 1 and self.owner(end) == self.seat and not self.enemy_units(end):
                    coast = next((c for c in board.coasts(end) if zone in c), frozenset())
                    self.arrived.setdefault(end, []).append((galley, sorted(coast), 1))

    # combat

    def naval_declarations(self) -> None:
        """Classic (C-7.1): declare a naval battle where own galleys meet others' at the end of movement. In the
        1984 edition the battles are compulsory (O-6.2); a declaration there is only now and then."""
        for zone in sorted(c for c, g in self.galleys_at.items() if g and not self.board.is_land(c)):
            others = self.enemy_galleys(zone)
            chance = 0.6 if self.classic else 0.05
            if others and self.rng.random() < chance:
                against = self.rng.choice(others)
                self.lines.append(
                    f"NAVAL {zone} VS {against}" if len(others) > 1 or self.rng.random() < 0.5 else f"NAVAL {zone}"
                )

    def retreat_orders(self) -> None:
        rng = self.rng
        for code in self.battles:
            if rng.random() < 0.25:
                own = sorted(c for c in self.board.land_neighbours(code) if self.owner(c) == self.seat)
                to = f" TO {rng.choice(own)}" if own and rng.random() < 0.7 else ""
                if not self.classic and rng.random() < 0.5:
                    self.lines.append(f"RETREAT FROM {code}{to} WHEN ENEMY ADVANTAGE >= {rng.randint(1, 3)}")
                elif rng.random() < 0.3:
                    self.lines.append(f"RETREAT FROM {code}{to} WHEN UNITS < ENEMY")
                else:
                    self.lines.append(f"RETREAT FROM {code}{to} WHEN UNITS < {rng.randint(1, 4)}")

    def standing_orders(self) -> None:
        rng = self.rng
        kinds = ["INF", "CAV", "CAT"]
        for word in ("LOSSES", "BATTLELEGION", "PURSUIT"):
            if rng.random() < 0.06:
                rng.shuffle(kinds)
                self.lines.append(f"{word} {', '.join(kinds[: rng.randint(1, 3)])}")
        if rng.random() < 0.05:
            choice = rng.choice(["NEVER", "WHEN UNITS < 2", "WHEN CAESAR AND UNITS < 3", "WHEN UNITS < ENEMY"])
            self.lines.append(f"RETREAT {choice}")
        if rng.random() < 0.06:
            others = [s for s in self.state.in_play() if s != self.seat]
            of = f" OF {rng.choice(others)}" if others and rng.random() < 0.4 else ""
            self.lines.append(f"CAPTIVES {rng.choice(['RANSOM', 'RANSOM', 'KILL'])}{of}")
        if rng.random() < 0.03:
            own = sorted(c for c, a in self.state.areas.items() if a.owner == self.seat)
            if own:
                self.lines.append(f"FREED TO {', '.join(rng.sample(own, min(2, len(own))))}")
        if self.classic and rng.random() < 0.04:
            naval = ["EMPTY", "LOADED", "GENERALS", "CAESAR"]
            rng.shuffle(naval)
            self.lines.append(f"NAVAL LOSSES {', '.join(naval)}")
        if not self.classic and rng.random() < 0.08:
            targets = ["CAT", "CAV", "INF", "GALLEY"]
            rng.shuffle(targets)
            self.lines.append(f"TARGETS {', '.join(targets[: rng.randint(1, 4)])}")

    # phases 4 to 6

    def destroy_city(self) -> None:
        cities = sorted(
            c for c, a in self.state.areas.items() if a.owner == self.seat and a.city and c != self.player.home
        )
        if cities and self.rng.random() < 0.02:
            self.lines.append(f"DESTROY CITY {self.rng.choice(cities)}")

    def ransoms(self) -> int:
        """Ransom offers and acceptances (C-13.1, C-15.17); returns the talents the seat may pay. An offer mostly
        meets the other side's standing acceptance (the bot peeks at it), now and then it is a shot in the dark."""
        rng, state, seat = self.rng, self.state, self.seat
        paying = 0

        def accepted(other: str, owner: str, general: int) -> int | None:
            for wish in state.players[other].standing.get("ransom_accept", []):
                if (wish["owner"], wish["general"]) == (owner, general):
                    return int(wish["talents"])
            return None

        for captive in self.player.captives:  # as holder: the owner pays
            owner, general = captive.owner, captive.general
            if state.players[owner].eliminated:
                continue
            if rng.random() < 0.5:
                self.lines.append(f"RANSOM ACCEPT {owner} G{general} MIN {rng.choice([0, 10, 20, 30])}")
            most = accepted(owner, owner, general)
            if most is not None and rng.random() < 0.8:
                price = min(most, state.players[owner].treasury)
                self.lines.append(f"RANSOM OFFER {owner} G{general} FOR {rng.randint(0, max(price, 0))}")
            elif rng.random() < 0.15:
                price = rng.randint(0, max(0, min(40, state.players[owner].treasury)))
                self.lines.append(f"RANSOM OFFER {owner} G{general} FOR {price}")
        for holder, player in state.players.items():  # as owner: the seat pays
            for captive in player.captives:
                if captive.owner != seat or holder == seat:
                    continue
                if rng.random() < 0.5:
                    self.lines.append(
                        f"RANSOM ACCEPT {seat} G{captive.general} MIN {rng.randint(0, max(0, self.player.treasury))}"
                    )
                least = accepted(holder, seat, captive.general)
                if least is not None and least <= self.player.treasury - paying and rng.random() < 0.8:
                    price = least
                elif rng.random() < 0.15 and self.player.treasury > paying:
                    price = rng.randint(0, min(40, self.player.treasury - paying))
                else:
                    continue
                paying += price
                self.lines.append(f"RANSOM OFFER {seat} G{captive.general} FOR {price}")
        return paying

    def concede(self) -> None:
        """Late in a game a weak seat may concede to the strongest (C-14.2)."""
        tributes = {s: self.state.players[s].tribute for s in self.state.in_play()}
        strongest = max(sorted(tributes), key=lambda s: tributes[s])
        if (
            strongest != self.seat
            and self.state.round > 8
            and tributes[self.seat] * 4 < tributes[strongest]
            and self.rng.random() < 0.15
        ):
            self.lines.append(f"CONCEDE TO {strongest}")

    def answers(self) -> None:
        """The mover may answer his own turn's battle decisions in advance (ANSWER, C-15)."""
        rng = self.rng
        for code in self.battles:
            if rng.random() > 0.1:
                continue
            own = sorted(c for c in self.board.land_neighbours(code) if self.owner(c) == self.seat)
            round_ = rng.randint(1, 2)
            choices = [f"battle.{code}.{round_}.retreat: continue"]
            if own:
                choices.append(f"battle.{code}.{round_}.retreat: retreat to {rng.choice(own)}")
            if self.classic:
                choices += [
                    f"battle.{code}.{round_}.losses: cav, inf, cat",
                    f"battle.{code}.{round_}.legion: inf",
                    f"battle.{code}.pursuit: inf",
                ]
            self.lines.append(f"ANSWER {rng.choice(choices)}")

    def purchases(self, reserved: int) -> None:
        """A BUY order within the treasury after tribute: units, a galley, a city, a fortification, a road."""
        rng, state, seat, data = self.rng, self.state, self.seat, self.ruleset.data
        level = max(
            [state.inflation] + [p["level"] for p in state.inflation_pending if not self.classic or p["seat"] == seat]
        )
        multiplier = data["inflation"]["multipliers"][level]
        prices = {k: v * multiplier for k, v in data["prices"].items()}
        budget = self.player.treasury + self.player.tribute - reserved
        if rng.random() < 0.12:
            budget //= 3  # saving
        items: list[str] = []
        own = sorted(c for c, a in state.areas.items() if a.owner == seat and self.board.is_land(c))
        cities = [c for c in own if state.areas[c].city]

        def afford(piece: str, count: int = 1) -> bool:
            nonlocal budget
            if prices[piece] * count > budget:
                return False
            budget -= prices[piece] * count
            return True

        pool = data["limits"]["city"] - sum(1 for a in state.areas.values() if a.city)
        sites = [c for c in own if not state.areas[c].city] if pool > 0 else []
        if sites and rng.random() < 0.35:
            site = self.pick([(c, 1.0 + self.board.value(c)) for c in sites])
            fortified = rng.random() < 0.15
            if afford("fortified_city" if fortified else "city"):
                items.append(f"{'FORTIFIED CITY' if fortified else 'CITY'} AT {site}")
                cities.append(site)
        roads = [
            (a, b)
            for a in cities
            for b in cities
            if a < b and self.board.land_border(a, b) and b not in state.areas[a].roads
        ]
        if roads and rng.random() < 0.5 and afford("road"):
            a, b = rng.choice(roads)
            items.append(f"ROAD {a}-{b}")
        plain = [c for c in cities if state.areas[c].city == "city"]
        if plain and rng.random() < 0.1 and afford("fortification"):
            items.append(f"FORTIFICATION AT {rng.choice(plain)}")
        items += self.buy_galley(afford)
        items += self.buy_units(afford, budget)
        if not items:
            return
        if len(items) > 2 and rng.random() < 0.5:
            cut = rng.randint(1, len(items) - 1)
            self.lines.append("BUY " + ", ".join(items[:cut]))
            self.lines.append("BUY " + ", ".join(items[cut:]))
        else:
            self.lines.append("BUY " + ", ".join(items))

    def buy_galley(self, afford: Callable[..., bool]) -> list[str]:
        state, seat, home = self.state, self.seat, self.player.home
        sites = self.ruleset.data.get("galley_sites", {}).get(home, [home])
        held = [s for s in sites if self.owner(s) == seat and self.board.coasts(s)]
        galleys = sum(len(a.units[seat].galleys) for a in state.areas.values() if seat in a.units)
        limit = self.ruleset.data["limits"]["galley"] + self.player.inherited.get("galley", 0)
        if not held or galleys >= limit or self.rng.random() > (0.45 if galleys < 2 else 0.15):
            return []
        count = self.rng.randint(1, min(2, limit - galleys))
        if not afford("galley", count):
            return []
        site = self.rng.choice(held)
        coasts = self.board.coasts(site)
        text = f"{count} GALLEY"
        if site != home or self.rng.random() < 0.3:
            text += f" AT {site}"
            if len(coasts) > 1:
                text += f" COAST {self.rng.choice(sorted(self.rng.choice(coasts)))}"
        return [text]

    def buy_units(self, afford: Callable[..., bool], budget: int) -> list[str]:
        state, seat, home, data = self.state, self.seat, self.player.home, self.ruleset.data
        if self.owner(home) != seat:
            return []
        limits = data["limits"]
        shared = self.ruleset.edition("units_pool") == "shared"
        left = {}
        for kind in UNIT_KINDS:
            if shared:
                used = sum(getattr(f, kind) for a in state.areas.values() for f in a.units.values())
                left[kind] = limits[kind] - used
            else:
                used = sum(getattr(a.units[seat], kind) for a in state.areas.values() if seat in a.units)
                left[kind] = limits[kind] + self.player.inherited.get(kind, 0) - used
        room = 99
        if self.stacking:
            at_home = sum(self.units.get(home, {}).values())
            leaders = len(self.leaders.get(home, ())) + (1 if state.areas[home].city else 0)
            room = max(0, self.per_leader * leaders - at_home)
        bought = dict.fromkeys(UNIT_KINDS, 0)
        for _ in range(12):
            if room <= 0:
                break
            kind = self.rng.choices(UNIT_KINDS, [6, 3, 1])[0]
            if left[kind] > 0 and afford(kind):
                bought[kind] += 1
                left[kind] -= 1
                room -= 1
        return [f"{n} {UNIT_ABBREVIATIONS[k]}" for k, n in bought.items() if n]

    def press(self) -> None:
        rng = self.rng
        if rng.random() < 0.08:
            others = [s for s in self.state.players if s != self.seat]
            if others and rng.random() < 0.6:
                self.lines.append(f"PRESS TO {rng.choice(others)}: {rng.choice(PRESS)}")
            else:
                self.lines.append(f"BROADCAST: {rng.choice(PRESS)}")

    def mistake(self) -> None:
        """Now and then an order a hasty player writes: the engine must refuse it with a reason."""
        rng = self.rng
        if rng.random() > 0.05:
            return
        lands = sorted(c for c in self.board.areas if self.board.is_land(c))
        far = rng.choice(lands)
        choice = rng.randrange(4)
        if choice == 0:
            self.lines.append(f"MOVE G1 WITH 2 INF: {rng.choice(lands)} -> {far}")
        elif choice == 1:
            self.lines.append("BUY 40 INF, 3 CAT")
        elif choice == 2:
            self.lines.append(f"SAIL GALLEY 7: {far} -> {rng.choice(lands)}")
        else:
            self.lines.append(f"DESTROY CITY {far}")


# -- whole games --------------------------------------------------------------------------------------------


@dataclass
class SelfPlayTurn:
    """One resolved player-turn of a self-play game."""

    number: int
    seat: str
    orders: str
    result: TurnResult
    not_understood: int = 0  # order lines the parser could not read

    @property
    def state(self) -> GameState:
        return self.result.state

    @property
    def accepted(self) -> int:
        return sum(r.accepted for r in self.result.order_results)

    @property
    def rejected(self) -> int:
        return sum(not r.accepted for r in self.result.order_results)

    @property
    def battles(self) -> int:
        return sum(e.kind in BATTLE_EVENTS for e in self.result.events)


@dataclass
class SelfPlayResult:
    ruleset: str
    seats: list[str]
    seed: int
    initial: GameState
    turns: list[SelfPlayTurn] = field(default_factory=list)

    @property
    def states(self) -> list[GameState]:
        """The initial state, then the state after each turn."""
        return [self.initial, *(t.state for t in self.turns)]

    @property
    def results(self) -> list[TurnResult]:
        return [t.result for t in self.turns]

    @property
    def orders(self) -> list[str]:
        return [t.orders for t in self.turns]

    @property
    def final(self) -> GameState:
        return self.turns[-1].state if self.turns else self.initial

    @property
    def winner(self) -> str | None:
        return self.final.winner

    @property
    def accepted(self) -> int:
        return sum(t.accepted for t in self.turns)

    @property
    def rejected(self) -> int:
        return sum(t.rejected for t in self.turns)

    @property
    def battles(self) -> int:
        return sum(t.battles for t in self.turns)


def seats_in_play(ruleset: CoeRuleset, count: int) -> list[str]:
    """The seats in play for `count` players (C-3.1, O-3.1)."""
    homes = ruleset.data["setup"]["homes"]
    if str(count) not in homes:
        raise ValueError(f"{ruleset.name} is for {min(map(int, homes))} to {max(map(int, homes))} players, not {count}")
    return [ruleset.seat_of_home(home) or home for home in homes[str(count)]]


def turn_rng(seed: int, number: int) -> random.Random:
    """The bot's random stream for one player-turn of a game (independent of the dice)."""
    return random.Random(f"pbem-selfplay:{seed}:{number}")


def dice_secret(seed: int) -> bytes:
    """The secret of a self-play game's dice chain, made from its seed."""
    return hashlib.sha256(f"pbem-selfplay-dice:{seed}".encode()).digest()


def play_game(
    ruleset_name: str,
    seats: list[str],
    seed: int,
    max_turns: int,
    on_turn: Callable[[SelfPlayTurn], None] | None = None,
    game: str = "selfplay",
) -> SelfPlayResult:
    """Play up to `max_turns` player-turns from the initial position (fewer when somebody wins), each seat
    ordering with random_orders; dice come from a KeyedDice stream keyed from the seed (as the archive's),
    decisions take their standing orders or defaults. `on_turn` sees each turn as it is resolved."""
    ruleset = coe_ruleset(ruleset_name)
    state = ruleset.initial_state(game, list(seats))
    result = SelfPlayResult(ruleset.name, list(state.players), seed, state)
    last = min(state.turn + max_turns, CHAIN_LENGTH - 1)
    keys = chain_keys(dice_secret(seed), last)
    while state.active is not None and state.turn < last:
        seat, number = state.active, state.turn + 1
        text = random_orders(ruleset, state, seat, turn_rng(seed, number))
        orders = parse_orders(text, ruleset)
        dice = KeyedDice(key=keys[number], orders_hash=orders_digest([text]))
        turn = SelfPlayTurn(number, seat, text, resolve(ruleset, state, orders, dice), len(orders.errors))
        result.turns.append(turn)
        if on_turn is not None:
            on_turn(turn)
        state = turn.state
    return result
