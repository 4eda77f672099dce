"""Conqueror: Empire Rises's bot (the Ruleset protocol's member `bot`, engine/protocol.py Bot): random but
legal-looking orders in the game's order language (games/conqueror-er/orders.lark), so that `pbem selfplay` plays
games to their end through the services. It knows only what its seat may know: the public position and its own
hand (hidden information, issue 14 item 5). Some of its orders are refused (a price it cannot pay, a fort already
used): self-play meets the refusals as a hasty player would."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from adjudicator.rulesets.conqueror import rounds
from adjudicator.rulesets.conqueror.state import controlled_areas, food_limit, fort_of, standard_units

if TYPE_CHECKING:
    from adjudicator.rulesets.conqueror.data import MapSide
    from adjudicator.rulesets.conqueror.game import ConquerorGame
    from adjudicator.rulesets.conqueror.state import GameState

KEYWORD = {"cavalry": "CAV", "infantry": "INF", "archer": "ARC"}  # the land units a bot moves (ER-0.3)
AGENT_CHOICES = ("GRANARY", "BAZAAR", "ACADEMY", "UPGRADE INFANTRY", "UPGRADE CAVALRY", "UPGRADE ARCHER")
PURCHASES = ("BUY BAZAAR", "BUY GRANARY, BAZAAR", "BUY UPGRADE INFANTRY", "BUY ACADEMY AND UPGRADE ARCHER")  # ER-3.11
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

    def answers(
        self,
        ruleset: ConquerorGame,
        state: GameState,
        seat: str,
        header: str,
        asked: Sequence[Mapping[str, str]],
        rng: random.Random,
    ) -> str:
        """Every decision asked (ER-14) gets its default answer: the documented default is always a legal one."""
        return "\n".join([header, *(f"ANSWER {d['key']}: {d['default']}" for d in asked)]) + "\n"

    def winner(self, ruleset: ConquerorGame, state: GameState) -> str | None:
        """The one winner once the game has ended (ER-10); none on a shared victory."""
        return state.winners[0] if state.ended and len(state.winners) == 1 else None


def side_of(ruleset: ConquerorGame, state: GameState) -> MapSide:
    return ruleset.data.map_for(state.players_count)  # ER-3.2


def plans_orders(ruleset: ConquerorGame, state: GameState, seat: str, rng: random.Random) -> list[str]:
    """The sealed plans mail: an agent action with fall-backs (ER-5, ER-14.6), recruitment (ER-6) and now and
    then a standing order (ER-14.8, ER-14.15)."""
    lines = [agent_order(state, seat, rng)]
    recruit = recruit_order(ruleset, state, seat, rng)
    if recruit:
        lines.append(recruit)
    if rng.random() < 0.3:
        lines.append(rng.choice(STANDING))
    return lines


def agent_order(state: GameState, seat: str, rng: random.Random) -> str:
    """A random agent action, two fall-backs behind it (ER-14.6); sometimes a trade or a pass (ER-5.4, ER-5.7)."""
    draw = rng.random()
    if draw < 0.1:
        return "AGENT PASS"
    choices = rng.sample(AGENT_CHOICES, 3)
    partners = [f for f in state.in_play() if f != seat]
    if draw < 0.4 and partners:
        choices[0] = f"TRADE WITH {rng.choice(partners)}"
    return "AGENT " + " ELSE ".join(choices)


def recruit_order(ruleset: ConquerorGame, state: GameState, seat: str, rng: random.Random) -> str | None:
    """Recruit in some of the seat's forts what the fort produces (ER-6.3: a small fort one infantry or archer, a
    large one a cavalry or two foot), within the food limit (ER-6.2) and the coins by a rough count of 2 a unit."""
    side = side_of(ruleset, state)
    forts = [a for a in controlled_areas(state, side, seat) if fort_of(state, side, a) != "none"]
    room = min(food_limit(state, ruleset.data, seat) - standard_units(state, seat), state.players[seat].coins // 2)
    items: list[str] = []
    for area in rng.sample(sorted(forts), len(forts)):
        troops = fort_troops(fort_of(state, side, area), rng)
        count = int(troops.split()[0])
        if count > room:
            break
        items.append(f"{troops} AT {area}")
        room -= count
    return "RECRUIT " + ", ".join(items) if items else None


def fort_troops(fort: str, rng: random.Random) -> str:
    """What one fort may produce (ER-6.3)."""
    foot = rng.choice(("INF", "INF", "ARC"))
    if fort == "large" and rng.random() < 0.3:
        return "1 CAV"
    return f"{rng.choice((1, 2)) if fort == 'large' else 1} {foot}"


def campaign_orders(ruleset: ConquerorGame, state: GameState, seat: str, rng: random.Random) -> list[str]:
    """Moves and attacks to adjacent land areas (ER-7, ER-8), each source area used once; an attack now and then
    carries a tactic card of the hand in its battle plan (ER-8.13)."""
    side = side_of(ruleset, state)
    lines: list[str] = []
    hand = sorted(set(state.players[seat].hand))
    for area in sorted(a for a, army in state.army.items() if army.owner == seat):
        if rng.random() < 0.4:
            continue
        troops = movable(state, area, rng)
        targets = sorted(n for n in side.board.neighbours(area) if side.board.areas[n].is_land)
        if not troops or not targets:
            continue
        target = rng.choice(targets)
        there = state.army.get(target)
        if there is None or there.owner == seat or there.total == 0:
            lines.append(f"MOVE {troops}: {area} -> {target}")
            continue
        if there.owner in state.players[seat].trade_bans:
            continue  # ER-5.10b: no attack on a partner traded with this round
        plan = f" TACTICS {rng.choice(hand)}" if hand and rng.random() < 0.5 else ""
        lines.append(f"ATTACK {troops}: {area} -> {target}{plan}")
    return lines


def movable(state: GameState, area: str, rng: random.Random) -> str:
    """Some of the ready land units in `area` (ER-7.2: exhausted units stay), as the order language writes them."""
    army = state.army[area]
    parts = []
    for kind, word in KEYWORD.items():
        ready = army.count(kind) - army.exhausted.get(kind, 0)
        if ready > 0:
            parts.append(f"{rng.randint(1, ready)} {word}")
    return " ".join(parts)


BOT = ConquerorBot()
