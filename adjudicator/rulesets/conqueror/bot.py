"""Conqueror: Empire Rises's bot (the Ruleset protocol's member `bot`, engine/protocol.py Bot): random but
legal-looking orders in the game's order language (games/conqueror-er/orders.lark), so that `pbem selfplay` plays
games to their end through the services. It knows only what its seat may know: the public position and its own
hand and heroes (hidden information). It reads prices from the game's data (districts, upgrades,
the elite, heroes) and writes standing orders of battle (defence plans, retreats, reinforcements, casualty order,
temporary capital, block filters), coin transfers, and attack plans with heroes, tactic cards, a unit left behind
and its own reinforcement. With Seas of Destiny (ER-12) it also builds megaprojects on a slot it picks and a wharf
with its ships (ER-12.6, ER-12.9), recruits siege engines (ER-12.16), moves ships and writes transports (ER-12.12).
Some of its orders are still refused (a space taken by an earlier seat, a card spent in an earlier battle): self-play
meets the refusals as a hasty player would."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from adjudicator.engine.decisions import Question, default_answers
from adjudicator.rulesets.conqueror import rounds
from adjudicator.rulesets.conqueror.campaign import block_effects
from adjudicator.rulesets.conqueror.movement import SHIP_CAPACITY, active, attack_ban
from adjudicator.rulesets.conqueror.politics import MAX_UPGRADES, UPGRADE_CARDS, board_of, district_price, free_slots
from adjudicator.rulesets.conqueror.preparation import hero_price
from adjudicator.rulesets.conqueror.seas import SIEGE_COST, SLOTS, megaproject_price
from adjudicator.rulesets.conqueror.state import (
    SEAS_BARRACKS,
    controlled_areas,
    controller,
    food_limit,
    fort_of,
    standard_units,
    units_of,
)

if TYPE_CHECKING:
    from adjudicator.rulesets.conqueror.data import GameData, MapSide
    from adjudicator.rulesets.conqueror.game import ConquerorGame
    from adjudicator.rulesets.conqueror.state import GameState

KEYWORD = {"cavalry": "CAV", "infantry": "INF", "archer": "ARC"}  # the standard land units (ER-0.3)
MOVED = {**KEYWORD, "siege": "SIEGE"}  # the land units a bot moves (ER-0.3, ER-12.16)
PURCHASES = (
    "BUY BAZAAR",
    "BUY GRANARY, BAZAAR",
    "BUY UPGRADE discipline",
    "BUY ACADEMY AND UPGRADE rapid_aim",
)  # ER-3.11
STANDING = ("LOSSES ARCHER, INF, CAV", "LOSSES INF, ARCHER, CAV", "EXCESS ARCHER, INF, CAV", "FREEMEN NEVER")


@dataclass(frozen=True)
class ConquerorBot:
    battle_events: tuple[str, ...] = ("battle_result",)  # one per battle fought (battle_setup.py)

    def seats(self, ruleset: ConquerorGame, count: int) -> list[str]:
        """The factions the data puts in play at `count` players (ER-3.2: three to six; ER-3.3)."""
        if count not in ruleset.data.setup.factions_by_players:
            raise ValueError(f"{ruleset.name} is for 3 to 6 players (ER-3.2), not {count}")
        return list(ruleset.data.setup.factions_by_players[count])

    def orders(self, ruleset: ConquerorGame, state: GameState, seat: str, header: str, rng: random.Random) -> str:
        step = ruleset.due(state)
        lines: list[str] = []
        if step is not None and step.phase == rounds.PLANS:
            lines = plans_orders(ruleset, state, seat, rng)
        elif step is not None and step.phase == rounds.PURCHASES:
            lines = [rng.choice(PURCHASES)] if rng.random() < 0.8 else []  # none: ER-14.2's default
        elif step is not None and step.phase == rounds.CAMPAIGN:
            lines = campaign_orders(ruleset, state, seat, rng)
        return "\n".join([header, *lines]) + "\n"

    def seat_orders(self, ruleset: ConquerorGame, state: GameState, seat: str, header: str, rng: random.Random) -> str:
        """The self-play orders: they read only what the seat may know and hold no press or concession."""
        return self.orders(ruleset, state, seat, header, rng)

    def answers(
        self,
        ruleset: ConquerorGame,
        state: GameState,
        seat: str,
        header: str,
        asked: Sequence[Question],
        rng: random.Random,
    ) -> str:
        """Every decision asked (ER-14) gets its default answer: the documented default is always a legal one."""
        return default_answers(header, asked)

    def winner(self, ruleset: ConquerorGame, state: GameState) -> str | None:
        """The one winner once the game has ended (ER-10); none on a shared victory."""
        return state.winners[0] if state.ended and len(state.winners) == 1 else None


def side_of(ruleset: ConquerorGame, state: GameState) -> MapSide:
    return ruleset.data.map_for(state.players_count)  # ER-3.2


# -- the sealed plans mail (ER-5, ER-6, ER-14) ----------------------------------------------------------------------


def plans_orders(ruleset: ConquerorGame, state: GameState, seat: str, rng: random.Random) -> list[str]:
    """The sealed plans mail: an agent action with fall-backs priced from the data (ER-5, ER-14.6), a coin
    transfer now and then (ER-0.7), recruitment within the coins left (ER-6), and standing orders of battle
    (ER-14.5, ER-14.8, ER-14.11 to ER-14.18)."""
    data = ruleset.data
    coins = state.players[seat].coins
    agent, cost = agent_order(state, data, seat, rng)
    lines = [agent]
    pay = pay_order(state, seat, coins - cost, rng)
    if pay is not None:
        lines.append(pay[0])
        cost += pay[1]
    recruit = recruit_order(ruleset, state, seat, coins - cost, rng)
    if recruit:
        lines.append(recruit)
    return lines + standing_orders(ruleset, state, seat, rng)


def agent_order(state: GameState, data: GameData, seat: str, rng: random.Random) -> tuple[str, int]:
    """A random agent action among those the seat can pay even on the dearer space (ER-5.12, ER-5.19: +2), up
    to three, a trade last as a free fall-back (ER-14.6); sometimes a pass (ER-5.4). Returns the order and the
    most it may cost."""
    if rng.random() < 0.1:
        return "AGENT PASS", 0
    coins = state.players[seat].coins
    priced = [(text, price) for text, price in purchases(state, data, seat) if price + SURCHARGE <= coins]
    chosen = rng.sample(priced, min(len(priced), 2))
    if state.seas is not None:
        grand = [(text, price) for text, price in megaprojects(state, data, seat, rng) if price + SURCHARGE <= coins]
        if grand and rng.random() < 0.6:
            chosen = [rng.choice(grand), *chosen[:1]]
    partners = [f for f in state.in_play() if f != seat] + ["INDEPENDENTS"]
    trade = (f"TRADE WITH {rng.choice(partners)}", 0)
    chosen.insert(0, trade) if rng.random() < 0.3 else chosen.append(trade)
    cost = max(price + SURCHARGE for _text, price in chosen)
    return "AGENT " + " ELSE ".join(text for text, _ in chosen), cost


SURCHARGE = 2  # ER-5.12, ER-5.19: the second space of a district or unit type


def purchases(state: GameState, data: GameData, seat: str) -> list[tuple[str, int]]:
    """The districts and upgrades the seat may still buy, each at its first-space price from the data (ER-5.13,
    ER-5.16, ER-5.20, ER-5.22, ER-5.23)."""
    player = state.players[seat]
    found: list[tuple[str, int]] = []
    if free_slots(state, data, seat, "district") > 0:  # megaproject cards take slots too (ER-12.6)
        for kind in ("granary", "bazaar", "academy"):
            if state.supply.districts.get(kind, 0) > 0:
                found.append((kind.upper(), district_price(player, data, kind, f"district:{kind}:1")))
    site = fort_site(state, data, seat)
    if site is not None and state.supply.fort_markers > 0:
        found.append((f"FORTIFICATION AT {site}", district_price(player, data, "fort", "district:fort:1")))
    if len(player.upgrades) < MAX_UPGRADES and free_slots(state, data, seat, "upgrade") > 0:
        for unit, cards in UPGRADE_CARDS.items():
            lacking = [c for c in cards if c not in player.upgrades and state.supply.upgrades.get(c, 0) > 0]
            if lacking:
                prices = data.tracks.upgrades[unit]
                owned = len(cards) - len([c for c in cards if c not in player.upgrades])
                found.append((f"UPGRADE {lacking[0]}", prices[min(owned, len(prices) - 1)]))  # named (ER-9.4)
    return found


def megaprojects(state: GameState, data: GameData, seat: str, rng: random.Random) -> list[tuple[str, int]]:
    """Seas of Destiny's agent action (ER-5.24, ER-12.6): a wonder, temple or port card left in the supply on a
    free slot picked at random, and the seat's one wharf (ER-12.9), each at its first-space price from the data."""
    seas, player = state.seas, state.players[seat]
    if seas is None:
        return []
    found: list[tuple[str, int]] = []
    slots = [slot for slot in SLOTS if free_slots(state, data, seat, slot) > 0]
    kinds = {card.type for card in data.cards.megaprojects if card.id in seas.cards}
    for kind in sorted(kinds):
        if slots:
            slot = rng.choice(slots)
            price = megaproject_price(player, data, kind, f"megaproject:{kind}:1")
            found.append((f"{kind.upper()} SLOT {slot.upper()}", price))
    wharf = wharf_order(state, data, seat, rng)
    if wharf is not None:
        found.append((wharf, megaproject_price(player, data, "wharf", "megaproject:wharf:1")))
    return found


def wharf_order(state: GameState, data: GameData, seat: str, rng: random.Random) -> str | None:
    """ER-12.9: the seat's wharf on a controlled coastal land area without one, its 2 ships into a sea area next
    to it that holds no enemy (none free: the adjudicator puts them on the wharf)."""
    seas = state.seas
    if seas is None or seat in seas.wharves or seas.wharf_markers <= 0:
        return None
    side = data.map_for(state.players_count)
    taken = set(seas.wharves.values())
    coast = [a for a in controlled_areas(state, side, seat) if side.areas[a].land and side.areas[a].wharf_site]
    sites = [a for a in coast if a not in taken]
    if not sites:
        return None
    site = rng.choice(sorted(sites))
    waters = sorted(a for a in side.board.neighbours(site) if not side.areas[a].land and not enemy_at(state, a, seat))
    return f"WHARF AT {site}" + (f" SHIP {rng.choice(waters)}" if waters else "")


def enemy_at(state: GameState, area: str, seat: str) -> bool:
    army = state.army.get(area)
    return army is not None and army.total > 0 and army.owner != seat


def fort_site(state: GameState, data: GameData, seat: str) -> str | None:
    """A controlled land area without a fort, for a fort marker (ER-5.14)."""
    side = data.map_for(state.players_count)
    sites = [a for a in controlled_areas(state, side, seat) if side.areas[a].land and fort_of(state, side, a) == "none"]
    return min(sites) if sites else None


def pay_order(state: GameState, seat: str, spare: int, rng: random.Random) -> tuple[str, int] | None:
    """Now and then a small coin transfer to another player (ER-0.7, ER-14.20)."""
    others = [f for f in state.in_play() if f != seat]
    if spare < 4 or not others or rng.random() >= 0.15:
        return None
    coins = rng.randint(1, min(3, spare // 4))
    return f"PAY {coins} TO {rng.choice(others)}", coins


def recruit_order(ruleset: ConquerorGame, state: GameState, seat: str, coins: int, rng: random.Random) -> str | None:
    """Standard units in some of the seat's forts, free (ER-6.6) within the food limit (ER-6.5) and what each
    fort produces (ER-6.3), from the barracks (ER-6.4); the elite and a hero when the coins left pay their price
    from the data (ER-6.7, ER-6.10, ER-5.15)."""
    data = ruleset.data
    items = unit_items(ruleset, state, seat, rng)
    player = state.players[seat]
    elite = board_of(state, data, seat).elite.cost
    academy = player.districts.get("academy", 0) > 0
    if (player.elite == "board" or (player.elite == "lost" and academy)) and elite <= coins and rng.random() < 0.6:
        items.append("ELITE")
        coins -= elite
    if state.seas is not None:
        coins -= siege_items(ruleset, state, seat, items, coins, rng)
    hero = hero_choice(state, data, seat, coins, rng)
    if hero is not None:
        items.append(f"HERO {hero}")
    return "RECRUIT " + ", ".join(items) if items else None


def unit_items(ruleset: ConquerorGame, state: GameState, seat: str, rng: random.Random) -> list[str]:
    side = side_of(ruleset, state)
    player = state.players[seat]
    forts = [a for a in controlled_areas(state, side, seat) if fort_of(state, side, a) != "none"]
    forts += [a for a in [player.temporary_capital] if a and a not in forts]
    room = food_limit(state, ruleset.data, seat) - standard_units(state, seat)
    left = barracks_left(ruleset, state, seat)
    items: list[str] = []
    for area in rng.sample(sorted(forts), len(forts)):
        fort = "large" if area == player.temporary_capital else fort_of(state, side, area)  # ER-11.2
        kind, count = fort_troops(fort, rng)
        count = min(count, left[kind], room)
        if count <= 0:
            continue
        items.append(f"{count} {KEYWORD[kind]} AT {area}")
        room -= count
        left[kind] -= count
    return items


def siege_items(
    ruleset: ConquerorGame, state: GameState, seat: str, items: list[str], coins: int, rng: random.Random
) -> int:
    """ER-12.16, ER-12.18: now and then siege engines in a controlled large fort, 4 coins each, while the barracks
    has some never recruited; written into that fort's recruit item if it has one. Returns their price."""
    assert state.seas is not None
    side = side_of(ruleset, state)
    left = SEAS_BARRACKS["siege"] - state.seas.siege_recruited.get(seat, 0)
    count = min(left, coins // SIEGE_COST, rng.choice((1, 1, 2)))
    forts = sorted(a for a in controlled_areas(state, side, seat) if fort_of(state, side, a) == "large")
    if count <= 0 or not forts or rng.random() >= 0.4:
        return 0
    area = rng.choice(forts)
    here = next((i for i, item in enumerate(items) if item.endswith(f" AT {area}")), None)
    if here is None:
        items.append(f"{count} SIEGE AT {area}")
    else:
        items[here] = items[here].replace(" AT ", f" {count} SIEGE AT ")
    return count * SIEGE_COST


def barracks_left(ruleset: ConquerorGame, state: GameState, seat: str) -> dict[str, int]:
    """ER-6.4: the standard units still in the barracks."""
    barracks = board_of(state, ruleset.data, seat).barracks
    return {kind: barracks.of(kind) - units_of(state, seat, kind) for kind in KEYWORD}


def fort_troops(fort: str, rng: random.Random) -> tuple[str, int]:
    """What one fort may produce (ER-6.3): a large one 1 cavalry or 2 foot, a small one 1 foot."""
    foot = rng.choice(("infantry", "infantry", "archer"))
    if fort == "large" and rng.random() < 0.3:
        return "cavalry", 1
    return foot, rng.choice((1, 2)) if fort == "large" else 1


def hero_choice(state: GameState, data: GameData, seat: str, coins: int, rng: random.Random) -> str | None:
    """A hero of the seat's faction not yet recruited nor discarded that the coins pay (ER-6.10, ER-5.15)."""
    player = state.players[seat]
    held = {*player.heroes_down, *player.heroes_up, *player.heroes_discarded}
    free = [h.id for h in data.cards.heroes if h.faction == seat and h.id not in held]
    free = [h for h in free if hero_price(state, data, seat, h) <= coins]
    return rng.choice(free) if free and rng.random() < 0.5 else None


# -- standing orders of battle (ER-14.5, ER-14.8, ER-14.11 to ER-14.18) ---------------------------------------------


def standing_orders(ruleset: ConquerorGame, state: GameState, seat: str, rng: random.Random) -> list[str]:
    """Now and then a standing order: losses and excess priorities, a defence plan with the seat's cards, a
    retreat list, a reinforcement of another seat, the casualty order, a temporary-capital list and, for a
    board that can block (ER-12.5), the block filters."""
    side = side_of(ruleset, state)
    lines = [rng.choice(STANDING)] if rng.random() < 0.3 else []
    writers = (defence_order, retreat_order, reinforce_order, casualties_order, capital_order, block_order)
    for writer in writers:
        line = writer(ruleset, state, side, seat, rng)
        if line is not None:
            lines.append(line)
    return lines


def own_areas(state: GameState, seat: str) -> list[str]:
    return sorted(a for a, army in state.army.items() if army.owner == seat and army.total > 0)


def cards_plan(state: GameState, seat: str, rng: random.Random, heroes: set[str], hand: list[str]) -> str:
    """HERO and TACTICS parts of a battle plan from the seat's own cards (ER-8.12, ER-8.13), each card once."""
    player = state.players[seat]
    parts = []
    ready = sorted({*player.heroes_down, *player.heroes_up} - heroes)
    if ready and rng.random() < 0.5:
        hero = rng.choice(ready)
        heroes.add(hero)
        parts.append(f"HERO {hero}")
    if hand and rng.random() < 0.5:
        card = rng.choice(hand)
        hand.remove(card)
        parts.append(f"TACTICS {card}")
    return "".join(f" {p}" for p in parts)


def defence_order(ruleset: ConquerorGame, state: GameState, side: MapSide, seat: str, rng: random.Random) -> str | None:
    """ER-14.14: a defence plan for one of the seat's areas, with cards and a reinforcement from next door."""
    areas = own_areas(state, seat)
    if not areas or rng.random() >= 0.3:
        return None
    area = rng.choice(areas)
    plan = cards_plan(state, seat, rng, set(), sorted(state.players[seat].hand))
    helpers = [n for n in areas if n in side.board.neighbours(area)]
    if helpers and rng.random() < 0.5:
        plan += f" REINFORCE FROM {rng.choice(helpers)}"
    return f"DEFENCE AT {area}{plan}" if plan else None


def retreat_order(ruleset: ConquerorGame, state: GameState, side: MapSide, seat: str, rng: random.Random) -> str | None:
    """ER-14.18: where the seat's army in one area retreats, land areas next to it first."""
    areas = own_areas(state, seat)
    if not areas or rng.random() >= 0.2:
        return None
    area = rng.choice(areas)
    near = sorted(n for n in side.board.neighbours(area) if side.board.areas[n].is_land)
    if not near:
        return None
    return f"RETREAT FROM {area} TO " + ", ".join(rng.sample(near, min(2, len(near))))


def reinforce_order(
    ruleset: ConquerorGame, state: GameState, side: MapSide, seat: str, rng: random.Random
) -> str | None:
    """ER-14.12: join another seat's side (or the side against it) from one of the seat's areas; now and then
    REINFORCE NEVER clears them."""
    areas, others = own_areas(state, seat), [f for f in state.in_play() if f != seat]
    draw = rng.random()
    if draw < 0.05:
        return "REINFORCE NEVER"
    if not areas or not others or draw >= 0.25:
        return None
    against = "VS " if rng.random() < 0.5 else ""
    return f"REINFORCE {against}{rng.choice(others)} FROM {rng.choice(areas)}"


def casualties_order(
    ruleset: ConquerorGame, state: GameState, side: MapSide, seat: str, rng: random.Random
) -> str | None:
    """ER-14.16: the order in which an opposing side's players take casualties."""
    others = [f for f in state.in_play() if f != seat]
    if len(others) < 2 or rng.random() >= 0.1:
        return None
    return "CASUALTIES " + ", ".join(rng.sample(others, len(others)))


def capital_order(ruleset: ConquerorGame, state: GameState, side: MapSide, seat: str, rng: random.Random) -> str | None:
    """ER-14.5: a priority list for the temporary capital, always when the seat's capital is held by another
    faction (ER-11.1), else now and then."""
    land = [a for a in controlled_areas(state, side, seat) if side.areas[a].land and side.areas[a].capital != seat]
    capital = next((a for a, x in side.areas.items() if x.capital == seat), None)
    lost = capital is not None and controller(state, side, capital) not in (seat, None)
    if not land or not (lost or rng.random() < 0.1):
        return None
    return "CAPITAL " + ", ".join(rng.sample(sorted(land), min(2, len(land))))


def block_order(ruleset: ConquerorGame, state: GameState, side: MapSide, seat: str, rng: random.Random) -> str | None:
    """ER-14.11: block filters, only for a board whose ability blocks (ER-12.5)."""
    if not block_effects(state, ruleset.data, seat) or rng.random() >= 0.5:
        return None
    others = [f for f in state.in_play() if f != seat]
    return f"BLOCK {rng.choice(others)} MAX 5" if others else None


# -- the campaign mail (ER-7, ER-8) ---------------------------------------------------------------------------------


def campaign_orders(ruleset: ConquerorGame, state: GameState, seat: str, rng: random.Random) -> list[str]:
    """Moves and attacks to adjacent land areas (ER-7, ER-8), each source area used once; an attack now and then
    carries a battle plan: heroes and tactic cards of the seat (ER-8.12, ER-8.13, each card once), a unit left
    behind (ER-8.24) and the seat's own reinforcement from another area next to the target (ER-8.4)."""
    side = side_of(ruleset, state)
    lines: list[str] = []
    hand = sorted(state.players[seat].hand)
    heroes: set[str] = set()
    used: set[str] = set()
    carried: dict[str, int] = {}  # ships exhausted by transports, by sea area (ER-12.12)
    if state.seas is not None:
        lines += transport_orders(ruleset, state, side, seat, used, carried, rng)
    for area in own_areas(state, seat):
        if area in used or rng.random() < 0.4:
            continue
        troops = movable(state, area, rng)
        targets = sorted(n for n in side.board.neighbours(area) if side.board.areas[n].is_land)
        if not troops or not targets:
            continue
        target = rng.choice(targets)
        used.add(area)
        there = state.army.get(target)
        if there is None or there.owner == seat or there.total == 0:
            lines.append(f"MOVE {troops}: {area} -> {target}")
            continue
        if there.owner in state.players[seat].trade_bans:
            continue  # ER-5.10b: no attack on a partner traded with this round
        plan = cards_plan(state, seat, rng, heroes, hand) + leaving(troops, rng)
        plan += helper(state, side, seat, area, target, used, rng)
        lines.append(f"ATTACK {troops}: {area} -> {target}{plan}")
    if state.seas is not None:
        lines += ship_moves(ruleset, state, side, seat, carried, rng)
    return lines


def active_ships(state: GameState, area: str) -> int:
    return active(state.army[area], "ship")


def fleets(state: GameState, side: MapSide, seat: str) -> list[str]:
    """The sea areas where the seat has active ships (ER-12.11)."""
    return [a for a in own_areas(state, seat) if not side.areas[a].land and active_ships(state, a) > 0]


def transport_orders(
    ruleset: ConquerorGame,
    state: GameState,
    side: MapSide,
    seat: str,
    used: set[str],
    carried: dict[str, int],
    rng: random.Random,
) -> list[str]:
    """ER-12.12: now and then the seat's ships in a sea area carry up to 2 units each from one of its land areas
    next to that sea to another land area next to it (an attack if enemy-held; not on a partner traded with,
    ER-5.10b). The area carried from is then used."""
    data = ruleset.data
    lines: list[str] = []
    for sea in fleets(state, side, seat):
        coast = sorted(a for a in side.board.neighbours(sea) if side.areas[a].land)
        starts = [a for a in coast if a not in used and a in state.army and state.army[a].owner == seat]
        starts = [a for a in starts if any(active(state.army[a], kind) for kind in MOVED)]
        if not starts or rng.random() >= 0.7:
            continue
        start = rng.choice(starts)
        ends = [a for a in coast if a != start and attack_ban(state, data, seat, a) is None]
        if not ends:
            continue
        end = rng.choice(ends)
        ships = active_ships(state, sea)
        troops = movable(state, start, rng, SHIP_CAPACITY * ships)
        used.add(start)
        count = sum(int(word) for word in troops.split()[::2])
        carried[sea] = -(-count // SHIP_CAPACITY)
        lines.append(f"TRANSPORT {troops}: {start} -> {sea} -> {end}")
    return lines


def ship_moves(
    ruleset: ConquerorGame, state: GameState, side: MapSide, seat: str, carried: dict[str, int], rng: random.Random
) -> list[str]:
    """ER-12.11: now and then the seat's ships not used by a transport move into an adjacent sea area, from the
    sea or from its wharf; into an enemy-held sea it is an attack."""
    lines: list[str] = []
    docks = [a for a in own_areas(state, seat) if side.areas[a].land and active_ships(state, a) > 0]
    for area in [*fleets(state, side, seat), *docks]:
        ships = active_ships(state, area) - carried.get(area, 0)
        waters = sorted(a for a in side.board.neighbours(area) if not side.areas[a].land)
        waters = [a for a in waters if attack_ban(state, ruleset.data, seat, a) is None]
        if ships <= 0 or not waters or rng.random() >= 0.5:
            continue
        target = rng.choice(waters)
        verb = "ATTACK" if enemy_at(state, target, seat) else "MOVE"
        lines.append(f"{verb} {rng.randint(1, ships)} SHIP: {area} -> {target}")
    return lines


def leaving(troops: str, rng: random.Random) -> str:
    """ER-8.24: 1 unit of the attacking army to stay behind after a win (the attack has 2 units or more)."""
    parts = troops.split()
    counts = {parts[i + 1]: int(parts[i]) for i in range(0, len(parts) - 1, 2) if parts[i].isdigit()}
    if sum(counts.values()) < 2 or rng.random() >= 0.3:
        return ""
    return f" LEAVING 1 {rng.choice(sorted(counts))}"


def helper(
    state: GameState, side: MapSide, seat: str, origin: str, target: str, used: set[str], rng: random.Random
) -> str:
    """ER-8.4, ER-8.5: the attacker's own reinforcement from another of its areas next to the target whose units
    are all still active (the area is then used: its units are exhausted)."""
    if rng.random() >= 0.4:
        return ""
    near = [
        a
        for a in own_areas(state, seat)
        if a not in used
        and a != origin
        and a in side.board.neighbours(target)
        and not any(state.army[a].exhausted.values())
    ]
    if not near:
        return ""
    area = rng.choice(near)
    used.add(area)
    return f" REINFORCE FROM {area}"


def movable(state: GameState, area: str, rng: random.Random, most: int | None = None) -> str:
    """Some of the ready land units in `area` (ER-7.2: exhausted units stay), at most `most` of them, as the
    order language writes them."""
    army = state.army[area]
    parts = []
    room = most
    for kind, word in MOVED.items():
        free = active(army, kind) if room is None else min(active(army, kind), room)
        if free > 0:
            count = rng.randint(1, free)
            parts.append(f"{count} {word}")
            room = None if room is None else room - count
    return " ".join(parts)


BOT = ConquerorBot()
