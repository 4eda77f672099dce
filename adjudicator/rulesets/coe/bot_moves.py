"""The self-play bot (bot.py): its MOVE and SAIL orders (Phase 1, C-5)."""

from __future__ import annotations

from typing import Any

from adjudicator.rulesets.coe.bot_view import BotView, Units, order_leader, order_troops
from adjudicator.rulesets.coe.state import Cargo
from adjudicator.rulesets.coe.vocabulary import UNIT_KINDS


class MovingBot(BotView):
    """Leaders march with combat units, make road journeys, sail galleys with cargo and land it."""

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
                self.lines.append(f"MOVE {order_leader(leader)}: {code} -> {rng.choice(onward)}")

    def march(self, start: str, group: list[int], free: Units, spare: list[int]) -> None:
        """MOVE orders of the leaders in `group` with some of the free combat units of `start`: a road journey now
        and then (C-5.12), else a land move."""
        roads = self.road_targets(start)
        if roads and self.rng.random() < 0.4:
            self.road_march(start, group, free, roads)
        else:
            self.land_march(start, group, free, spare)

    def road_march(self, start: str, group: list[int], free: Units, roads: list[str]) -> None:
        """A road journey to an own city (C-5.12, C-5.13), now and then with a land move after it: 2 MP, so
        cavalry only (C-5.2, C-5.14)."""
        rng = self.rng
        total = sum(free.values())
        target = self.pick([(c, self.score(start, c, total) + 0.5) for c in roads])
        units = self.take_units(free, rng.randint(0, min(total, self.per_leader * len(group))))
        steps = [f"=> {target}"]
        end = target
        if not units["infantry"] and not units["catapult"] and not self.enemy_units(target) and rng.random() < 0.3:
            second = self.onward(start, target, sum(units.values()))
            if second is not None:
                steps.append(f"-> {second}")
                end = second
        if not self.move_fits(start, end, group, units):
            self.give_back(free, units)
            return
        self.lines.append(f"MOVE {order_troops(group, units)}: {start} {' '.join(steps)}")
        self.shift(start, end, group, units)

    def land_march(self, start: str, group: list[int], free: Units, spare: list[int]) -> None:
        """A land move into a neighbour (C-5.2), into an enemy army with all the group may lead (C-5.6), and with
        cavalry only now and then a second step."""
        rng = self.rng
        total = sum(free.values())
        neighbours = sorted(self.board.land_neighbours(start))
        strength = min(total, self.per_leader * len(group))
        target = self.pick([(c, self.score(start, c, strength)) for c in neighbours])
        if target is None:
            return
        attack = bool(self.enemy_units(target))
        if attack:
            count = self.attack_strength(target, group, spare, total)
        else:
            count = rng.randint(1, strength) if strength and rng.random() < 0.85 else 0
        cavalry_only = count <= free["cavalry"] and rng.random() < 0.3
        units = self.take_units(free, count, ("cavalry",) if cavalry_only else UNIT_KINDS)
        steps = [target]
        if not attack and not units["infantry"] and not units["catapult"] and rng.random() < 0.35:
            second = self.onward(start, target, sum(units.values()))
            if second is not None:
                steps.append(second)
        end = steps[-1]
        if not self.move_fits(start, end, group, units) or (0 in group and not sum(units.values())):
            self.give_back(free, units)  # the Caesar never travels alone
            return
        self.write_march(start, group, units, steps)
        self.shift(start, end, group, units)
        if rng.random() < 0.02 and units["infantry"]:  # infantry has 1 MP only: refused (C-5.2)
            onward = sorted(self.board.land_neighbours(end))
            if onward:
                self.lines.append(f"MOVE {order_leader(group[0])} WITH 1 INF: {end} -> {rng.choice(onward)}")

    def attack_strength(self, target: str, group: list[int], spare: list[int], total: int) -> int:
        """The units sent against an enemy army: all the group may lead (C-5.6); a second leader joins the group
        now and then to bring more."""
        strength = min(total, self.per_leader * len(group))
        needed = self.enemy_units(target) + 2
        while strength < needed and spare and total > strength and self.rng.random() < 0.7:
            group.append(spare.pop())  # a second leader brings more units to the battle
            strength = min(total, self.per_leader * len(group))
        return strength

    def onward(self, start: str, via: str, strength: int) -> str | None:
        """A second land step from `via`, not back to `start` (2 MP: cavalry, C-5.2)."""
        onward = sorted(self.board.land_neighbours(via) - {start})
        return self.pick([(c, self.score(via, c, strength)) for c in onward])

    def move_fits(self, start: str, end: str, group: list[int], units: Units) -> bool:
        """1984: both ends keep the stacking limit (O-5.7)."""
        moved = sum(units.values())
        return self.fits(start, -moved, -len(group)) and self.fits(end, moved, len(group))

    def write_march(self, start: str, group: list[int], units: Units, steps: list[str]) -> None:
        """The MOVE order; two steps now and then as two orders, the MP carried over (C-5.2)."""
        troops = order_troops(group, units)
        if len(steps) == 2 and self.rng.random() < 0.5:
            self.lines.append(f"MOVE {troops}: {start} -> {steps[0]}")
            self.lines.append(f"MOVE {troops}: {steps[0]} -> {steps[1]}")
        else:
            self.lines.append(f"MOVE {troops}: {start} " + " ".join(f"-> {c}" for c in steps))

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
        cargo = f" CARRYING {order_troops(crew, units)}" if crew or strength else ""
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
        force = self.state.areas[zone].units[self.seat]
        for galley in sorted(force.galleys):
            if self.rng.random() < 0.2:
                continue
            self.sail_galley(zone, galley, force.aboard.get(galley))

    def sail_galley(self, zone: str, galley: int, cargo: Cargo | None) -> None:
        """One galley at sea: a route picked among the landings, seas and passages open to it (C-5.18)."""
        strength = cargo.units if cargo else 0
        leaders = sorted(([0] if cargo and cargo.caesar else []) + (cargo.generals if cargo else []))
        route = self.pick(self.sea_routes(zone, strength, len(leaders)))
        if route is None:
            return
        self.lines.append(f"SAIL GALLEY {galley}: {zone} -> {' -> '.join(route)}")
        self.galleys_at[zone].discard(galley)
        self.galleys_at.setdefault(route[-1], set()).add(galley)
        carried = {k: getattr(cargo, k) for k in UNIT_KINDS} if cargo else dict.fromkeys(UNIT_KINDS, 0)
        self.shift(zone, route[-1], leaders, carried)
        self.put_in(zone, galley, route, leaders)

    def sea_routes(self, zone: str, strength: int, leaders: int) -> list[tuple[Any, float]]:
        """Routes from the sea zone `zone`, weighted: a landing next to it, another sea (where 1984 galleys stop
        among others' galleys, O-5.28) and a landing beyond, or through a province and out again."""
        board = self.board
        lands = sorted(c for c in board.adjacency[zone] if board.is_land(c))
        options: list[tuple[Any, float]] = [((c,), 2 * self.landing_score(zone, c, strength, leaders)) for c in lands]
        for sea in sorted(board.sea_neighbours(zone)):
            options.append(((sea,), 0.4 + 2 * len(self.enemy_galleys(sea))))
            if self.stop_at_galleys and self.enemy_galleys(sea):
                continue
            for land in sorted(c for c in board.adjacency[sea] if board.is_land(c)):
                options.append(((sea, land), self.landing_score(sea, land, strength, leaders)))
        for land in lands:  # through an own or neutral province and out again, the cargo staying aboard
            if self.owner(land) in (None, self.seat) and not self.enemy_units(land):
                coast = next((c for c in board.coasts(land) if zone in c), frozenset())
                options += [((land, sea), 0.15) for sea in sorted(coast)]
        return options

    def put_in(self, zone: str, galley: int, route: tuple[str, ...], leaders: list[int]) -> None:
        """A galley that ends in a province: its leaders came ashore (C-5.25); one that put in to an own province
        from the next sea has MP left to pick pieces up there (C-5.24)."""
        board, end = self.board, route[-1]
        if not board.is_land(end):
            return
        self.landed.setdefault(end, []).extend(leaders)
        if len(route) == 1 and self.owner(end) == self.seat and not self.enemy_units(end):
            coast = next((c for c in board.coasts(end) if zone in c), frozenset())
            self.arrived.setdefault(end, []).append((galley, sorted(coast), 1))
