"""Empires of the Ancient World's bot (the Ruleset protocol's member `bot`, engine/protocol.py Bot): orders in the
game's order language (games/empires-aw/orders.lark), written by orders.canonical, so that `pbem selfplay` and
`pbem demo --ruleset empires-aw` play whole games through the services, by mail at the pace of one plans mail per
game round.

It knows only what its seat may know: the public position (map, display, warehouses, personalities) and its own
hand (hidden information, EAW-1.4, EAW-3.8); it never reads the deck, another hand, another plan or the home
armies not drawn. Orders it writes:
- placement (EAW-12.1, 12.13, 12.14): START, PLACE and FORT priority lists (sometimes none: the defaults);
- plans (EAW-12.2): a FULL plan, one line per action round left, each with fall-backs (ELSE): attacks on weak
  neighbours with a stack and sometimes a free action (THEN), diplomacy (a diplomat's removal with a payment),
  recruits with a priority list and refresh, disbands, forts, trade where it can score, control markers where
  revolts threaten; and standing battle plans (EAW-12.4 to EAW-12.8). Spending is budgeted from the warehouse,
  so later lines stay payable;
- a step of its own when its plan ran out: the rest of the round's actions.
Everything is varied by the step's random stream, so that self-play meets every action, battle type and decision."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from adjudicator.engine.chance import GivenDice
from adjudicator.engine.decisions import Question
from adjudicator.rulesets.empires.actions import refusal
from adjudicator.rulesets.empires.board import attack_route, is_last_province, touches
from adjudicator.rulesets.empires.data import (
    ARMY,
    CATEGORIES,
    COSTS,
    EMPIRE,
    PERSONALITY_TYPES,
    PLAYERS,
    SEA,
    base_id,
)
from adjudicator.rulesets.empires.orders import (
    REFRESH_IF_NONE,
    REFRESH_NO,
    REFRESH_YES,
    Action,
    AmbushOrder,
    Attack,
    BuildFort,
    DefendOrder,
    Diplomacy,
    Disband,
    FortChoice,
    LossesOrder,
    MarkersOrder,
    PlaceChoice,
    PlaceControl,
    PlaceTrade,
    PlanLine,
    Recruit,
    StackOrder,
    StartChoice,
    TradeTarget,
    canonical,
)
from adjudicator.rulesets.empires.play import Play
from adjudicator.rulesets.empires.setup import SEAT_COLOURS
from adjudicator.rulesets.empires.state import ACTION, PLACEMENT, PLANS

if TYPE_CHECKING:
    from adjudicator.rulesets.empires.game import EmpiresGame
    from adjudicator.rulesets.empires.state import GameState

# How often a plan line's first choice is of each kind (EAW-7): attacks and trade are the game's heart.
WEIGHTS: dict[str, int] = {"attack": 9, "diplomacy": 3, "recruit": 4, "disband": 1, "fort": 2, "trade": 5, "control": 2}


@dataclass(frozen=True)
class EmpiresBot:
    """`plan_lines`: the most lines a plans mail holds (None: a full plan); a short plan makes the game wait for
    the seat when it runs out (EAW-12.2), as a hasty player's would."""

    battle_events: tuple[str, ...] = ("battle_begins",)  # one per battle fought (battle.py)
    plan_lines: int | None = None

    def seats(self, ruleset: EmpiresGame, count: int) -> list[str]:
        """EAW-3.4: 3 to 5 players, in the colours' order."""
        if count not in PLAYERS:
            raise ValueError(f"{ruleset.name} is for 3 to 5 players (EAW-3.4), not {count}")
        return list(SEAT_COLOURS[:count])

    def orders(self, ruleset: EmpiresGame, state: GameState, seat: str, header: str, rng: random.Random) -> str:
        step = ruleset.due(state)
        lines: list[str] = []
        if step is not None and step.phase == PLACEMENT:
            lines = placement_orders(ruleset, state, seat, rng)
        elif step is not None and step.phase in (PLANS, ACTION):
            view = View(ruleset, state, seat)
            # EAW-4.3: every action left in the round (a waiting action step: this action and the rest)
            count = ruleset.options_of(state).action_rounds(state.round) - state.players[seat].actions_taken
            if self.plan_lines is not None:
                count = min(count, self.plan_lines)
            lines = plan_orders(view, max(count, 1), rng)
            if step.phase == PLANS or rng.random() < 0.2:
                lines += standing_orders(view, rng)
        return "\n".join([header, *lines]) + "\n"

    def seat_orders(self, ruleset: EmpiresGame, state: GameState, seat: str, header: str, rng: random.Random) -> str:
        """The self-play orders with a full plan (a short one would leave the seat waiting): they read only what the
        seat may know and hold no press."""
        return replace(self, plan_lines=None).orders(ruleset, state, seat, header, rng)

    def answers(
        self,
        ruleset: EmpiresGame,
        state: GameState,
        seat: str,
        header: str,
        asked: Sequence[Question],
        rng: random.Random,
    ) -> str:
        """Each decision asked (EAW-12): the choice ones (siege, ambush, markers) answered either way, a free
        action (EAW-12.9) sometimes with a plan line of its own; the rest with their defaults (always legal)."""
        view = View(ruleset, state, seat)
        lines = [header]
        for question in asked:
            lines.append(f"ANSWER {question.key}: {answer_text(view, question, rng)}")
        return "\n".join(lines) + "\n"

    def winner(self, ruleset: EmpiresGame, state: GameState) -> str | None:
        """The one winner once the game has ended (EAW-10.8); none on a shared win."""
        return state.winners[0] if ruleset.due(state) is None and len(state.winners) == 1 else None


BOT = EmpiresBot()


def answer_text(view: View, question: Question, rng: random.Random) -> str:
    kind, _, area = question.key.partition(".")
    if kind == "siege":
        return rng.choice(("siege", "open"))
    if kind == "ambush":
        return rng.choice(("yes", "no"))
    if kind == "marker":
        return rng.choice(("push", "pull"))
    if kind == "free" and rng.random() < 0.6:
        # EAW-13.9: a free action earns no other, so its attack carries no THEN (read_line refuses one, and the
        # seat, asked again, would write the same answer); drawn as before, so other answers stay as they were
        attack = view.attack(rng)
        free = replace(attack, then=()) if attack is not None else None
        alternatives = [a for a in (free, view.control(rng)) if a is not None]
        if alternatives:
            return canonical(PlanLine(tuple(alternatives)))
    return question.default


# -- what the seat sees ---------------------------------------------------------------------------------------------


class View:
    """The position as `seat` may know it, with the action checks of the rules (actions.refusal) on a copy of it:
    the checks read only the map, the display, warehouses, personalities and the seat's own hand."""

    def __init__(self, ruleset: EmpiresGame, state: GameState, seat: str) -> None:
        self.data, self.state, self.seat = ruleset.data, state, seat
        self.play = Play(state.copy(), ruleset.data, ruleset.options_of(state), GivenDice([]))
        self.player = state.players[seat]
        self.budget = self.player.warehouse  # what the plan may still spend (EAW-6.3)

    @property
    def areas(self) -> list[str]:
        return self.state.controlled(self.seat)

    def legal(self, action: Action) -> bool:
        return refusal(self.play, self.seat, action) is None

    def frontier(self) -> list[str]:
        """Areas next to the seat's (ordinary adjacency and the Mediterranean rule, EAW-2.3) not its own."""
        mine = set(self.areas)
        found = {
            target
            for origin in mine
            for target in self.data.map.areas
            if target not in mine and attack_route(self.data.map, origin, target) is not None
        }
        return sorted(found)

    def personalities(self) -> set[str]:
        return {self.data.card(c).personality or "" for c in self.player.personalities}

    def strength(self, seat: str | None) -> int:
        """A crude measure of a player's might: markers on the map (public)."""
        return sum(held.markers for held in self.state.control.values() if held.seat == seat)

    # -- one action of each kind, or None when there is none to take ------------------------------------------
    def attack(self, rng: random.Random) -> Attack | None:
        """EAW-7.1: a weak neighbour (neutral, or a rival with few markers there), from an origin with a route,
        sometimes with a stack (EAW-12.6) and a free action after a rout (EAW-12.9)."""
        state, game_map = self.state, self.data.map
        targets = [t for t in self.frontier() if not is_last_province(state, game_map, t)]
        if not targets:
            return None
        weights = [5 if state.controller(t) is None else 8 // state.markers(t) + 1 for t in targets]
        target = rng.choices(targets, weights)[0]
        origins = [a for a in self.areas if attack_route(game_map, a, target) is not None]
        origin = rng.choice(origins)
        stack: tuple[str, ...] = ()
        if state.controller(target) is not None and rng.random() < 0.5:
            stack = self.stack(SEA if game_map.areas[target].kind == SEA else "open", rng)
        then: tuple[Action, ...] = ()
        if state.controller(target) is not None and rng.random() < 0.5:
            # EAW-12.9: the free action after a rout; an attack onward from the area won (EAW-13.9: never a second)
            onward = [n for n in game_map.neighbours(target) if state.controller(n) not in (None, self.seat)]
            first = Attack(rng.choice(onward), target) if onward and rng.random() < 0.5 else self.trade_on(target)
            then = tuple(a for a in (first, PlaceControl(target)) if a is not None)
        return Attack(target, origin, stack, then)

    def stack(self, kind: str, rng: random.Random) -> tuple[str, ...]:
        """Battle cards from the hand, by id, top first: up to 5 (3 for a siege), fast first (EAW-8.1), no mounted
        card in a siege (EAW-8.15); sometimes shuffled (refused unless free order: EAW-8.21's default)."""
        cards = [self.data.card(i) for i in self.player.hand]
        cards = [c for c in cards if c.kind in (ARMY, EMPIRE) and not (kind == "siege" and c.mounted)]
        size = 3 if kind == "siege" else 5
        cards.sort(key=lambda c: (c.speed != "fast", -c.value, c.id))
        if kind == SEA:  # EAW-8.20: galleys, and at most one card of each other class
            kept = [c for c in cards if c.category == "galley"]
            for classes in (("sword", "spear"), ("foot", "archer"), ("artillery",)):
                kept += [c for c in cards if c.category in classes][:1]
            cards = sorted(kept, key=lambda c: -c.value)
        chosen = cards[:size]
        if rng.random() < 0.15:
            rng.shuffle(chosen)
        return tuple(c.id for c in chosen)

    def diplomacy(self, rng: random.Random) -> Diplomacy | None:
        """EAW-7.10, EAW-7.11: a neutral neighbour; with a diplomat sometimes a rival's marker (paying 0-3)."""
        if "diplomat" in self.personalities() and rng.random() < 0.5:
            rivals = [t for t in self.frontier() if self.state.controller(t) not in (None, self.seat)]
            if rivals:
                pay = rng.choice((None, 0, 1, 2, 3))
                paid = min(self.budget, 3) if pay is None else pay
                if paid <= self.budget:
                    self.budget -= paid
                    return Diplomacy(rng.choice(rivals), remove=True, pay=pay)
        cost = 1 if "diplomat" in self.personalities() else COSTS["diplomacy"]
        neutral = [t for t in self.frontier() if self.state.controller(t) is None]
        if not neutral or cost > self.budget:
            return None
        self.budget -= cost
        return Diplomacy(rng.choice(neutral))

    def recruit(self, rng: random.Random) -> Recruit:
        """EAW-7.20, EAW-12.3: a priority list of card ids, categories, personality types or BEST."""
        pool = [base_id(c) for c in self.state.display] + list(CATEGORIES) + list(PERSONALITY_TYPES)
        wants = tuple(dict.fromkeys(rng.sample(pool, min(len(pool), rng.randint(1, 3)))))
        if rng.random() < 0.4:
            wants += ("best",)
        refresh = REFRESH_NO
        if self.budget >= COSTS["refresh"] and rng.random() < 0.3:
            refresh = rng.choice((REFRESH_YES, REFRESH_IF_NONE))
            self.budget -= COSTS["refresh"]
        return Recruit(wants, refresh)

    def disband(self, rng: random.Random) -> Disband | None:
        """EAW-7.21: a recruited army card of the hand none of whose twins is face up."""
        shown = {base_id(c) for c in self.state.display}
        cards = sorted({base_id(c) for c in self.player.hand if self.data.card(c).kind == ARMY} - shown)
        return Disband(rng.choice(cards)) if cards else None

    def fort(self, rng: random.Random) -> BuildFort | None:
        """EAW-7.25: a fort in one of the seat's provinces without one, when the budget pays it."""
        cost = 2 if "engineer" in self.personalities() else COSTS["fort"]
        sites = [a for a in self.areas if self.data.map.areas[a].kind != SEA and a not in self.state.forts]
        if not sites or cost > self.budget:
            return None
        self.budget -= cost
        return BuildFort(rng.choice(sites))

    def trade(self, rng: random.Random) -> PlaceTrade | None:
        """EAW-7.30, EAW-7.31: markers where they can win a majority (EAW-10.4): valuable areas in or next to the
        seat's, fewest rival markers first; into a full area sometimes with a displacement roll."""
        if self.budget <= 0:
            return None
        mine = self.areas
        reach = [a for a in self.data.map.areas if touches(self.data.map, a, mine)]
        if not reach:
            return None

        def worth(area: str) -> float:
            there = self.state.trade.get(area, {})
            rivals = max((n for s, n in there.items() if s != self.seat), default=0)
            return self.data.map.areas[area].value // 2 - rivals + there.get(self.seat, 0) * 0.1 + rng.random()

        reach.sort(key=worth, reverse=True)
        targets = []
        for area in reach[: rng.randint(2, 4)]:
            rivals = [s for s in self.state.trade.get(area, {}) if s != self.seat]
            displace = None
            if rivals and rng.random() < 0.5:
                displace = rng.choice(["", *rivals])
            targets.append(TradeTarget(area, displace))
        self.budget -= min(self.budget, len(targets))
        return PlaceTrade(tuple(targets))

    def trade_on(self, area: str) -> PlaceTrade | None:
        return PlaceTrade((TradeTarget(area),)) if self.budget > 0 else None

    def control(self, rng: random.Random) -> PlaceControl | None:
        """EAW-7.40: an extra marker where revolts threaten (a province of a revolt table without a fort and with
        one marker), else on a rival's border."""
        if not self.areas:
            return None
        listed = {p for table in self.data.revolts.tables.values() for row in table.values() for p in row}
        threatened = [a for a in self.areas if a in listed and a not in self.state.forts and self.state.markers(a) < 2]
        return PlaceControl(rng.choice(threatened or self.areas))


# -- placement (EAW-3.7 to EAW-3.10, EAW-12.1, EAW-12.13, EAW-12.14) ------------------------------------------------


def placement_orders(ruleset: EmpiresGame, state: GameState, seat: str, rng: random.Random) -> list[str]:
    """START, PLACE and FORT lists of the seat's own choosing, sometimes left out (the documented defaults)."""
    game_map = ruleset.data.map
    provinces = sorted(a.id for a in game_map.areas.values() if a.is_province and state.controller(a.id) is None)
    if rng.random() < 0.1:
        return []
    starts = rng.sample(provinces, min(len(provinces), rng.randint(2, 4)))
    if rng.random() < 0.5:
        starts.sort(key=lambda a: -game_map.areas[a].value)
    near = sorted({n for s in starts for n in game_map.neighbours(s)} - set(starts))
    places = rng.sample(near, min(len(near), rng.randint(3, 8)))
    orders: list[object] = [StartChoice(tuple(starts)), PlaceChoice(tuple(places))]
    if rng.random() < 0.8:
        forts = [a for a in [*starts, *places] if game_map.areas[a].is_province][:3]
        orders.append(FortChoice(tuple(forts)))
    return [canonical(order) for order in orders]  # type: ignore[arg-type]


# -- the plan of a game round (EAW-12.2) -------------------------------------------------------------------------


def plan_orders(view: View, count: int, rng: random.Random) -> list[str]:
    """`count` plan lines: each a first choice of a weighted kind, then one or two fall-backs of other kinds."""
    makers: dict[str, Callable[[random.Random], Action | None]] = {
        "attack": view.attack,
        "diplomacy": view.diplomacy,
        "recruit": view.recruit,
        "disband": view.disband,
        "fort": view.fort,
        "trade": view.trade,
        "control": view.control,
    }
    kinds = list(WEIGHTS)
    lines: list[str] = []
    for _ in range(count):
        first = rng.choices(kinds, [WEIGHTS[k] for k in kinds])[0]
        others = [k for k in kinds if k != first]
        rng.shuffle(others)
        alternatives: list[Action] = []
        for kind in [first, *others[: rng.randint(0, 2)]]:
            action = makers[kind](rng)
            if action is not None and action not in alternatives:
                alternatives.append(action)
        if not alternatives or rng.random() < 0.3:  # a sure last fall-back (EAW-12.2 default otherwise)
            last = view.control(rng)
            if last is not None and last not in alternatives:
                alternatives.append(last)
        if alternatives:
            lines.append(canonical(PlanLine(tuple(alternatives))))
        else:
            lines.append(canonical(PlanLine((Recruit(("best",)),))))
    return lines


def standing_orders(view: View, rng: random.Random) -> list[str]:
    """Standing battle plans (EAW-12.4 to EAW-12.8), some of them, either way."""
    orders: list[object] = []
    forts = [a for a in view.areas if a in view.state.forts]
    if rng.random() < 0.6:
        orders.append(DefendOrder(rng.random() < 0.6, rng.choice(forts) if forts and rng.random() < 0.5 else None))
    if rng.random() < 0.5:
        orders.append(AmbushOrder(rng.random() < 0.6))
    if rng.random() < 0.5:
        situation = rng.choice(("open", "siege", "naval", None))
        cards = view.stack({"naval": SEA, None: "open"}.get(situation, situation or "open"), rng)
        if cards:
            orders.append(StackOrder(cards, situation, rng.choice(("attack", "defend", None))))
    if rng.random() < 0.4:
        orders.append(MarkersOrder(rng.random() < 0.5))
    if rng.random() < 0.4:
        hand = sorted({base_id(c) for c in view.player.hand})
        if hand:
            orders.append(LossesOrder(tuple(rng.sample(hand, min(len(hand), 3)))))
    return [canonical(order) for order in orders]  # type: ignore[arg-type]
