"""The self-play bot (bot.py): its BUY orders (Phase 5, C-11)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from adjudicator.rulesets.coe.bot_view import BotView
from adjudicator.rulesets.coe.vocabulary import UNIT_ABBREVIATIONS, UNIT_KINDS


@dataclass
class _Purse:
    """What the seat may still spend on its BUY order, at the prices after inflation (C-11.1, C-11.9)."""

    prices: dict[str, int]
    budget: int

    def afford(self, piece: str, count: int = 1) -> bool:
        """Pay for `count` pieces when the money is there."""
        if self.prices[piece] * count > self.budget:
            return False
        self.budget -= self.prices[piece] * count
        return True


class BuyingBot(BotView):
    """The bot's BUY order: units, galleys, a city, a fortification, a road (C-11)."""

    def purchases(self, reserved: int) -> None:
        """A BUY order within the treasury after tribute: units, a galley, a city, a fortification, a road."""
        rng, state, seat = self.rng, self.state, self.seat
        purse = _Purse(self.prices(), self.player.treasury + self.player.tribute - reserved)
        if rng.random() < 0.12:
            purse.budget //= 3  # saving
        own = sorted(c for c, a in state.areas.items() if a.owner == seat and self.board.is_land(c))
        cities = [c for c in own if state.areas[c].city]
        items = self.buy_city(purse, own, cities)
        items += self.buy_road(purse, cities)
        items += self.buy_fortification(purse, cities)
        items += self.buy_galley(purse.afford)
        items += self.buy_units(purse.afford, purse.budget)
        self.write_buy(items)

    def prices(self) -> dict[str, int]:
        """The price list after inflation; in Classic a level the seat itself triggered counts from its own turn
        (C-11.7 to C-11.9)."""
        state, data = self.state, self.ruleset.data
        level = max(
            [state.inflation]
            + [p["level"] for p in state.inflation_pending if not self.classic or p["seat"] == self.seat]
        )
        multiplier = data["inflation"]["multipliers"][level]
        return {k: v * multiplier for k, v in data["prices"].items()}

    def buy_city(self, purse: _Purse, own: list[str], cities: list[str]) -> list[str]:
        """Now and then a city, sometimes fortified, while the pool has one (C-1.2, C-11.4); it joins `cities`."""
        rng, state = self.rng, self.state
        pool = self.ruleset.data["limits"]["city"] - sum(1 for a in state.areas.values() if a.city)
        sites = [c for c in own if not state.areas[c].city] if pool > 0 else []
        if not sites or rng.random() >= 0.35:
            return []
        site = self.pick([(c, 1.0 + self.board.value(c)) for c in sites])
        fortified = rng.random() < 0.15
        if not purse.afford("fortified_city" if fortified else "city"):
            return []
        cities.append(site)
        return [f"{'FORTIFIED CITY' if fortified else 'CITY'} AT {site}"]

    def buy_road(self, purse: _Purse, cities: list[str]) -> list[str]:
        """Now and then a road between two own cities that border each other (C-11.2)."""
        state = self.state
        roads = [
            (a, b)
            for a in cities
            for b in cities
            if a < b and self.board.land_border(a, b) and b not in state.areas[a].roads
        ]
        if roads and self.rng.random() < 0.5 and purse.afford("road"):
            a, b = self.rng.choice(roads)
            return [f"ROAD {a}-{b}"]
        return []

    def buy_fortification(self, purse: _Purse, cities: list[str]) -> list[str]:
        """Now and then a fortification for a plain city (C-11.3)."""
        plain = [c for c in cities if self.state.areas[c].city == "city"]
        if plain and self.rng.random() < 0.1 and purse.afford("fortification"):
            return [f"FORTIFICATION AT {self.rng.choice(plain)}"]
        return []

    def write_buy(self, items: list[str]) -> None:
        """One BUY order, or now and then two."""
        if not items:
            return
        if len(items) > 2 and self.rng.random() < 0.5:
            cut = self.rng.randint(1, len(items) - 1)
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
