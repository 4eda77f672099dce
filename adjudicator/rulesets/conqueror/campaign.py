"""One seat's campaign turn (ER-7.1): its MOVE, ATTACK and TRANSPORT orders carried out one at a time in the
order written (ER-7.11), each battle resolved at once (ER-8.1) by battle.resolve_battle on the inputs
battle_setup.py builds; at the end of the turn the seat's units are readied (ER-7.1, ER-7.6).

`check_campaign` gives each order's verdict for the receipt on a copy of the state (moves into empty or own
areas carried out, attacks assumed to fail, since their dice are not rolled yet)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from adjudicator.engine.chance import Dice
from adjudicator.engine.vocabulary import Event, OrderResult
from adjudicator.orders.sets import Answer, Language, Order, Press
from adjudicator.rulesets.conqueror import rounds
from adjudicator.rulesets.conqueror.battle import resolve_battle
from adjudicator.rulesets.conqueror.battle_setup import Attack, apply_outcome, build_battle, plans, standing_of
from adjudicator.rulesets.conqueror.battle_types import BattleError
from adjudicator.rulesets.conqueror.data import GameData, Options
from adjudicator.rulesets.conqueror.effects_triggers import campaign_turn as campaign_turn_effects
from adjudicator.rulesets.conqueror.movement import (
    ATTACK,
    JOIN,
    Refusal,
    attack_ban,
    check_move,
    check_transport,
    exhaust,
    kind_of_step,
    put,
    ready,
    take,
    wanted,
)
from adjudicator.rulesets.conqueror.orders import BattlePlan, Move, Transport
from adjudicator.rulesets.conqueror.rulings import rule_on
from adjudicator.rulesets.conqueror.state import GameState

FREE = (Press, Language, Answer)  # orders of every mail, not moves: the services handle them


@dataclass
class Turn:
    """What a campaign turn resolves with besides the state: the dice, the answers to its decisions, ask mode
    and the decisions already settled; it collects the decisions still to ask (`pending`). `done`: events of
    the step before the order being carried out (where a pending decision arose)."""

    chance: Dice
    answers: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    ask: bool = False
    settled: frozenset[tuple[str, str]] = frozenset()
    pending: list[dict[str, Any]] = field(default_factory=list)
    done: int = 0
    blocked: dict[str, dict[str, int]] = field(default_factory=dict)  # area -> units blocked this turn (ER-15.21)


def orders_of(orders: Any) -> list[Order]:
    """The orders of a seat's order set (None: no orders, ER-14.10: the turn ends)."""
    if orders is None:
        return []
    return list(getattr(orders, "orders", orders))


def play_campaign(
    state: GameState, data: GameData, options: Options, seat: str, orders: Any, turn: Turn
) -> tuple[list[Event], list[OrderResult]]:
    """ER-7.1: `seat`'s campaign turn on `state` (changed in place); then the next seat's turn, or the end of
    the round."""
    events: list[Event] = [Event("campaign_turn", seat, {"round": state.round})]
    events += campaign_turn_effects(state, data, seat)  # ER-13.6 `campaign_turn` (effects_triggers.py)
    playing = state.in_play()
    after = playing[playing.index(seat) + 1 :] if seat in playing else []
    results: list[OrderResult] = []
    for order in orders_of(orders):
        turn.done = len(events)
        found, happened = carry_out(state, data, options, seat, order, turn)
        results.append(found)
        events += happened
    ready(state, seat)
    next_turn(state, after)
    return events, results


def carry_out(
    state: GameState, data: GameData, options: Options, seat: str, order: Order, turn: Turn | None
) -> tuple[OrderResult, list[Event]]:
    """One order (ER-7.11): refused with the rule, or carried out with every battle it starts (`turn` None:
    only checked, an attack's units go back to their area as if it failed)."""
    if isinstance(order, FREE):
        return OrderResult(order.line, order.text, True), []
    if state.players[seat].eliminated:
        return refused(order, Refusal("ER-4.7", f"{seat} is out of the game")), []
    if isinstance(order, Move):
        refusal = (
            check_move(state, data, seat, order)
            or check_plan(state, data, seat, order.plan, order.path[0])
            or attack_ban(state, data, seat, order.path[0])
        )
        if refusal is not None:
            return refused(order, refusal), []
        stopped, events = blocking(state, data, seat, order.start, order.path[-1], wanted(order.troops), turn)
        if stopped is not None:
            return refused(order, stopped), events
        return OrderResult(order.line, order.text, True), move(state, data, options, seat, order, turn)
    if isinstance(order, Transport):
        refusal = (
            check_transport(state, data, seat, order)
            or check_plan(state, data, seat, order.plan, order.end)
            or attack_ban(state, data, seat, order.end)
        )
        if refusal is not None:
            return refused(order, refusal), []
        stopped, events = blocking(state, data, seat, order.start, order.end, wanted(order.troops), turn)
        if stopped is not None:
            return refused(order, stopped), events
        return OrderResult(order.line, order.text, True), transport(state, data, options, seat, order, turn)
    name = type(order).__name__
    return refused(order, Refusal("ER-7.1", f"{name} is no campaign order: the campaign takes moves and attacks")), []


def refused(order: Order, refusal: Refusal) -> OrderResult:
    return OrderResult(order.line, order.text, False, refusal.reason, refusal.rule)


def blocking(
    state: GameState, data: GameData, seat: str, start: str, target: str, units: dict[str, int], turn: Turn | None
) -> tuple[Refusal | None, list[Event]]:
    """ER-7.9, ER-12.5, ER-14.11: before an army moves, a player whose board can block (op `block_move`) and whose
    standing BLOCK filters match (the mover's faction, the target area, strength at most the filter's and the
    ability's maximum) pays the cost and stops it; the units stay blocked for the rest of the turn (ER-15.21).
    Units already blocked cannot move either. `turn` None (a receipt): no block is foreseen."""
    if turn is None:
        return None, []
    held = turn.blocked.get(start, {})
    army = state.army.get(start)
    if held and army is not None:
        free = {k: army.count(k) - army.exhausted.get(k, 0) - held.get(k, 0) for k in units}
        if any(free[k] < n for k, n in units.items()):
            return Refusal("ER-15.21", f"units in {start} are blocked for this turn"), []
    strength = block_strength(state, data, seat, units)
    for blocker in state.in_play():
        if blocker == seat:
            continue
        for effect in block_effects(state, data, blocker):
            cost, most = effect.number("cost"), effect.number("max_strength")
            player = state.players[blocker]
            if player.coins < cost or not matches(state, data, blocker, seat, target, strength, most):
                continue
            player.coins -= cost
            mine = turn.blocked.setdefault(start, {})
            for kind, n in units.items():
                mine[kind] = mine.get(kind, 0) + n
            data_ = {"seat": seat, "area": start, "target": target, "units": units, "cost": cost}
            event = Event("blocked", blocker, data_)
            return Refusal("ER-12.5", f"{blocker} blocks the army in {start} (ER-12.5)"), [event]
    return None, []


def block_effects(state: GameState, data: GameData, faction: str) -> list[Any]:
    """The `block_move` effects of the faction's board ability (ER-12.4: Persia's alternative board)."""
    player = state.players[faction]
    board = data.factions[faction].board(player.board) or data.factions[faction].standard
    return [effect for effect in board.ability if effect.op == "block_move"]


def matches(state: GameState, data: GameData, blocker: str, seat: str, target: str, strength: int, most: int) -> bool:
    """ER-14.11: one of the blocker's standing BLOCK filters fits (none, or BLOCK NEVER: no block, the default)."""
    from adjudicator.rulesets.conqueror.orders import BlockFilter
    from adjudicator.rulesets.conqueror.standing import standing_orders

    filters = [o for o in standing_orders(state, data, blocker) if isinstance(o, BlockFilter)]
    if any(f.never for f in filters):
        return False
    for f in filters:
        limit = min(most, f.max_strength if f.max_strength is not None else most)
        if (not f.factions or seat in f.factions) and (not f.targets or target in f.targets) and strength <= limit:
            return True
    return False


BASE_STRENGTH = {"cavalry": 2, "infantry": 1, "archer": 0, "ship": 2, "siege": 0}  # ER-8.16a


def block_strength(state: GameState, data: GameData, seat: str, units: dict[str, int]) -> int:
    """ER-12.5's Resolution: the units' strengths with their owner's upgrades (Heavy Cavalry, Elite Armor), the
    elite's printed strength; no cards, dice or fort bonuses (Long Spears needs an enemy: none here)."""
    player = state.players[seat]
    board = data.factions[seat].board(player.board) or data.factions[seat].standard
    total = sum(BASE_STRENGTH.get(k, 0) * n for k, n in units.items())
    elite = units.get("elite", 0)
    total += board.elite.strength * elite
    cavalry = units.get("cavalry", 0) + (elite if "cavalry" in board.elite.types else 0)
    infantry = units.get("infantry", 0) + (elite if "infantry" in board.elite.types else 0)
    total += cavalry if "heavy_cavalry" in player.upgrades else 0
    return total + (infantry if "elite_armor" in player.upgrades else 0)


def check_plan(state: GameState, data: GameData, seat: str, plan: BattlePlan, target: str) -> Refusal | None:
    """The battle plan sent with an attack: recruited heroes not used twice (ER-8.12, ER-8.27), tactic cards in
    hand (ER-8.13), a reinforcement from one other adjacent area of own active units (ER-7.5, ER-8.4, ER-8.5)."""
    player = state.players[seat]
    for hero in plan.heroes:
        if hero not in player.heroes_down and hero not in player.heroes_up:
            return Refusal("ER-8.12", f"{seat} has no recruited, unused hero {hero}")
    for tactic in set(plan.tactics):
        if plan.tactics.count(tactic) > player.hand.count(tactic):
            return Refusal("ER-8.13", f"{seat} holds no tactic card {tactic} to play")
    wish = plan.reinforce
    if wish is None:
        return None
    side = data.map_for(state.players_count)
    army = state.army.get(wish.origin)
    if wish.origin not in side.board.neighbours(target):
        return Refusal("ER-8.4", f"{wish.origin} is not adjacent to {target}: it cannot reinforce there")
    if army is None or army.owner != seat:
        return Refusal("ER-8.4", f"{seat} has no units in {wish.origin} to reinforce with")
    units = wanted(wish.troops) if wish.troops is not None else {}
    for kind, n in units.items():
        if army.count(kind) - army.exhausted.get(kind, 0) < n:
            return Refusal("ER-8.4", f"a reinforcing army's units must all be active: {n} {kind} in {wish.origin}")
    if wish.troops is None and all(army.exhausted.get(k, 0) >= n for k, n in army.units.items()):
        return Refusal("ER-8.4", f"no active unit in {wish.origin} to reinforce with")
    if side.areas[target].land and units.get("ship"):
        return Refusal("ER-12.13", "ships never reinforce a land battle")
    return None


def move(state: GameState, data: GameData, options: Options, seat: str, order: Move, turn: Turn | None) -> list[Event]:
    """ER-7.2 to ER-7.4, ER-15.8: step by step; an attack resolves at once, and a second step follows only
    if it was won and the units entered. The units are exhausted after their last step (ER-7.2, ER-7.3)."""
    events: list[Event] = []
    units, here = wanted(order.troops), order.start
    for number, area in enumerate(order.path):
        if number:  # a Thoroughbred second step (ER-7.3, ER-15.8) moves the units that arrived
            units = entered(state, seat, here, units)
            banned = attack_ban(state, data, seat, area)
            if banned is not None:
                events.append(Event("move_stopped", seat, {"area": area, "reason": banned.reason}))
            if not units or banned is not None:
                return events
        what = kind_of_step(state, data, seat, area)
        if what == ATTACK:
            attack = Attack(seat, here, area, units, order.plan)
            happened, units = fight(state, data, options, attack, turn)
            events += happened
            if not units:
                return events
        else:
            take(state, here, units)
            put(state, area, seat, units, units)
            events.append(
                Event("moved" if what == JOIN else "occupied", seat, {"from": here, "to": area, "units": units})
            )
        here = area
    return events


def entered(state: GameState, seat: str, area: str, units: dict[str, int]) -> dict[str, int]:
    """The units of the order now in `area`, as the next step moves them (exhausted as they are: the next step
    of a Thoroughbred move lifts them from the exhausted ones, ER-7.3)."""
    army = state.army.get(area)
    if army is None or army.owner != seat:
        return {}
    moved = {k: min(n, army.count(k)) for k, n in units.items() if min(n, army.count(k))}
    for kind, n in moved.items():  # about to move again: no longer counted as exhausted in this area
        army.exhausted[kind] = max(0, army.exhausted.get(kind, 0) - n)
    army.exhausted = {k: v for k, v in army.exhausted.items() if v}
    return moved


def transport(
    state: GameState, data: GameData, options: Options, seat: str, order: Transport, turn: Turn | None
) -> list[Event]:
    """ER-12.12: the carrying ship and the units are exhausted; into an enemy-held land area it is an attack
    from the starting area (retreat there) and from the sea (Amphibious Assault)."""
    units = wanted(order.troops)
    ships = -(-sum(units.values()) // 2)
    exhaust(state, order.sea, {"ship": ships})
    if kind_of_step(state, data, seat, order.end) == ATTACK:
        attack = Attack(seat, order.start, order.end, units, order.plan, via=order.sea)
        return fight(state, data, options, attack, turn)[0]
    take(state, order.start, units)
    put(state, order.end, seat, units, units)
    return [Event("transported", seat, {"from": order.start, "sea": order.sea, "to": order.end, "units": units})]


def fight(
    state: GameState, data: GameData, options: Options, attack: Attack, turn: Turn | None
) -> tuple[list[Event], dict[str, int]]:
    """ER-8: the battle of `attack`, resolved at once with the step's dice and applied to the state. Returns the
    events and the attacking units that entered the area (none: the attack failed or no one survived).
    A blocking `manual` effect (ER-13.6) takes the ruling answered, else its default (rulings.py)."""
    battle = build_battle(state, data, options, attack)
    if battle.defender is not None:  # ER-15.4: attacked first by a trade partner, the defender is free of its ban
        bans = getattr(state.players[battle.defender.player], "trade_bans", [])
        if attack.seat in bans:
            bans.remove(attack.seat)
    for joined in battle.reinforcements:  # ER-8.6: reinforcing units are exhausted at once
        exhaust(state, joined.army.area, units_of(joined.army))
    take(state, attack.origin, attack.units)  # ER-8.3: the attacking army is on its way
    if turn is None:  # checking only: the attack is assumed to fail
        put(state, attack.origin, attack.seat, attack.units, attack.units)
        return [], {}
    chance = turn.chance
    chosen, orders = plans(state, data, battle, attack.plan), standing_of(state, data, battle)
    try:
        outcome = resolve_battle(battle, chosen, orders, chance)
    except BattleError as error:  # a plan the battle refuses: the attack is not made
        put(state, attack.origin, attack.seat, attack.units, {})
        return [Event("attack_refused", attack.seat, {"area": attack.target, "reason": str(error)})], {}
    events: list[Event] = []
    if not outcome.finished:  # ER-13.6: a manual effect before the result: answer, else the default
        rulings, events = rule_on(
            outcome.pending, turn.answers, turn.ask, turn.settled, turn.pending, turn.done, len(chance.log)
        )
        outcome = resolve_battle(battle, chosen, orders, chance, rulings)
    events += apply_outcome(state, data, attack, battle, outcome, chance)
    events += rounds.eliminate(state, data)  # ER-4.7: at once
    army = state.army.get(attack.target)
    return events, (dict(attack.units) if outcome.conquered and army is not None and army.owner == attack.seat else {})


def units_of(army: Any) -> dict[str, int]:
    """A battle army's units by kind."""
    units = {k: army.count(k) for k in ("cavalry", "infantry", "archer", "elite", "ship", "siege")}
    return {k: n for k, n in units.items() if n}


def next_turn(state: GameState, after: list[str]) -> None:
    """ER-7.1: the next player in turn order still in play (of those after the seat when its turn began) takes
    its turn; after the last, the round ends."""
    later = [f for f in after if not state.players[f].eliminated]
    if later:
        state.campaign_index = state.in_play().index(later[0])
    else:
        state.phase, state.campaign_index = rounds.END, 0


def check_campaign(
    state: GameState, data: GameData, options: Options, seat: str, orders: Iterable[Order]
) -> list[OrderResult]:
    """Each order's verdict, on a copy of the state (the receipt; nothing is rolled)."""
    trial = state.copy()
    return [carry_out(trial, data, options, seat, order, None)[0] for order in orders]
