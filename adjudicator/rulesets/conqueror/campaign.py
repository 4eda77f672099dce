"""One seat's campaign turn (ER-7.1): its MOVE, ATTACK and TRANSPORT orders carried out one at a time in the
order written (ER-7.11), each battle resolved at once (ER-8.1) by battle.resolve_battle on the inputs
battle_setup.py builds; at the end of the turn the seat's units are readied (ER-7.1, ER-7.6).

`check_campaign` gives each order's verdict for the receipt on a copy of the state (moves into empty or own
areas carried out, attacks assumed to fail, since their dice are not rolled yet)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from adjudicator.engine.chance import Dice
from adjudicator.engine.decisions import Decisions
from adjudicator.engine.decisions import take as take_decision  # campaign's own take moves units
from adjudicator.engine.vocabulary import N_, Event, OrderResult
from adjudicator.orders.sets import Answer, Language, Order, Press
from adjudicator.rulesets.conqueror import battle_types as bt
from adjudicator.rulesets.conqueror import rounds
from adjudicator.rulesets.conqueror.asks import (
    NO_BLOCK,
    NO_REINFORCEMENT,
    Choices,
    Found,
    battle_needs,
    key_part,
    read_order,
    shown,
)
from adjudicator.rulesets.conqueror.battle import resolve_battle
from adjudicator.rulesets.conqueror.battle_setup import (
    Attack,
    Choose,
    Decide,
    apply_outcome,
    attack_survivors,
    build_battle,
    fits,
    plans,
    standing_of,
    standing_sites,
    temporary_capitals,
)
from adjudicator.rulesets.conqueror.battle_types import BattleError
from adjudicator.rulesets.conqueror.data import GameData, Options
from adjudicator.rulesets.conqueror.effects_apply import cards_in_force
from adjudicator.rulesets.conqueror.effects_triggers import campaign_turn as campaign_turn_effects
from adjudicator.rulesets.conqueror.effects_triggers import turn_ended
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
    thoroughbred_units,
    wanted,
)
from adjudicator.rulesets.conqueror.orders import (
    BattlePlan,
    BlockFilter,
    Move,
    Purchase,
    Reinforce,
    TemporaryCapital,
    Transport,
)
from adjudicator.rulesets.conqueror.rulings import BadAnswer, Need, rule_on
from adjudicator.rulesets.conqueror.standing import standing_orders
from adjudicator.rulesets.conqueror.state import INDEPENDENT, GameState, capital_owner

FREE = (Press, Language, Answer)  # orders of every mail, not moves: the services handle them


@dataclass(kw_only=True)
class Turn(Decisions):
    """What a campaign turn resolves with besides the state: the dice (None: only checking, for a receipt), the
    answers to its decisions, ask mode and the decisions already settled (Decisions); the step's events so far
    (where a decision arises), the units blocked this turn (ER-15.21) and each blocker's filters for it
    (ER-14.11), the Thoroughbred units that moved once and may move again (ER-7.3, ER-15.8), the battles fought
    in each area (their decisions' keys)."""

    chance: Dice | None = None
    events: list[Event] = field(default_factory=list)
    blocked: dict[str, dict[str, int]] = field(default_factory=dict)  # area -> units blocked this turn (ER-15.21)
    filters: dict[str, tuple[Any, ...]] = field(default_factory=dict)  # blocker -> its BLOCK filters this turn
    once: dict[str, dict[str, int]] = field(default_factory=dict)  # area -> Thoroughbred units with a move left
    hoped: dict[str, dict[str, int]] = field(default_factory=dict)  # checking: Thoroughbred units entering if won
    battles: dict[str, int] = field(default_factory=dict)
    capitals: int = 0
    fought: list[tuple[Attack, bt.Battle]] | None = None  # checking for odds: each attack's battle as it would start

    @property
    def checking(self) -> bool:
        return self.chance is None

    @property
    def rolls(self) -> int:
        return len(self.chance.log) if self.chance is not None else 0

    def spare(self, state: GameState, area: str) -> dict[str, int]:
        """ER-7.3, ER-15.8: the exhausted Thoroughbred units in `area` that may still make their second move."""
        army = state.army.get(area)
        once = self.once.get(area, {})
        return {k: min(n, army.exhausted.get(k, 0)) for k, n in once.items() if army is not None and n > 0}


def orders_of(orders: Any) -> list[Order]:
    """The orders of a seat's order set (None: no orders, ER-14.10: the turn ends)."""
    if orders is None:
        return []
    return list(getattr(orders, "orders", orders))


def play_campaign(
    state: GameState, data: GameData, options: Options, seat: str, orders: Any, turn: Turn
) -> tuple[list[Event], list[OrderResult]]:
    """ER-7.1: `seat`'s campaign turn on `state` (changed in place); then the next seat's turn, or the end of
    the round. ER-14.11: the blockers decide first, at the start of the turn."""
    turn.events = [Event("campaign_turn", seat, {"round": state.round})]
    turn.events += temporary_capitals(state, data, capital_chooser(state, data, turn))  # ER-11.1 at a turn's start
    turn.events += campaign_turn_effects(state, data, seat)  # ER-13.6 `campaign_turn` (effects_triggers.py)
    playing = state.in_play()
    after = playing[playing.index(seat) + 1 :] if seat in playing else []
    block_decisions(state, data, seat, turn)
    results = [carry_out(state, data, options, seat, order, turn) for order in orders_of(orders)]
    turn_ended(state)  # card effects for this turn end with it (ER-8.14 reading, effects_apply.py)
    ready(state, seat)
    next_turn(state, after)
    return turn.events, results


def carry_out(state: GameState, data: GameData, options: Options, seat: str, order: Order, turn: Turn) -> OrderResult:
    """One order (ER-7.11): refused with the rule, or carried out with every battle it starts (its events go to
    `turn.events`; only checking: an attack's units go back to their area as if it failed)."""
    if isinstance(order, FREE):
        return OrderResult(order.line, order.text, True)
    if state.players[seat].eliminated:
        return refused(order, Refusal("ER-4.7", N_("%(seat)s is out of the game", seat=seat)))
    if isinstance(order, Move):
        moving = check_move(state, data, seat, order, turn.spare(state, order.start))
        refusal = moving or later_checks(state, data, seat, order)
        if refusal is not None:
            hoped = hoped_for(state, data, seat, order, turn) if moving is not None else None
            return hoped or refused(order, refusal)
        stopped = blocking(state, data, seat, order.start, order.path[-1], wanted(order.troops), turn)
        if stopped is not None:
            return refused(order, stopped)
        move(state, data, options, seat, order, turn)
        return OrderResult(order.line, order.text, True)
    if isinstance(order, Transport):
        refusal = (
            check_transport(state, data, seat, order)
            or check_plan(state, data, seat, order.plan, order.end)
            or attack_ban(state, data, seat, order.end)
        )
        if refusal is not None:
            return refused(order, refusal)
        stopped = blocking(state, data, seat, order.start, order.end, wanted(order.troops), turn)
        if stopped is not None:
            return refused(order, stopped)
        transport(state, data, options, seat, order, turn)
        return OrderResult(order.line, order.text, True)
    # ER-7.1: the campaign takes moves, attacks and transports; name the step the order belongs to
    where = N_("before round 1 (ER-3.11)") if isinstance(order, Purchase) else N_("the plans step (ER-4.1)")
    return refused(order, Refusal("ER-7.1", N_("this order belongs to %(where)s, not the campaign step", where=where)))


def refused(order: Order, refusal: Refusal) -> OrderResult:
    return OrderResult(order.line, order.text, False, refusal.reason, refusal.rule)


def hoped_for(state: GameState, data: GameData, seat: str, order: Move, turn: Turn) -> OrderResult | None:
    """A receipt's verdict on a Thoroughbred second move from an area an earlier attack of the order set tries to
    win (ER-15.8): accepted if that attack is won (its dice are not rolled yet)."""
    hoped = turn.hoped.get(order.start, {})
    units = wanted(order.troops)
    if not turn.checking or len(order.path) != 1 or any(hoped.get(k, 0) < n for k, n in units.items()):
        return None
    if order.path[0] not in data.map_for(state.players_count).board.neighbours(order.start):
        return None  # refused as it stands (ER-7.2: not adjacent)
    refusal = later_checks(state, data, seat, order)  # the second line's own plan and bans still count
    if refusal is not None:
        return refused(order, refusal)
    for kind, n in units.items():
        hoped[kind] -= n
    return OrderResult(
        order.line, order.text, True, N_("if the attack on %(start)s is won (ER-15.8)", start=order.start)
    )


def later_checks(state: GameState, data: GameData, seat: str, order: Move) -> Refusal | None:
    """A move's checks after its units' (check_move): its battle plan (ER-8.4, ER-8.12, ER-8.13) and the bans on
    attacking its first area (ER-7.7, ER-13.6, ER-15.4, ER-15.5)."""
    return check_plan(state, data, seat, order.plan, order.path[0]) or attack_ban(state, data, seat, order.path[0])


def block_decisions(state: GameState, data: GameData, seat: str, turn: Turn) -> None:
    """ER-12.5, ER-14.11: at the start of `seat`'s turn each player whose board can block and who can pay decides
    its filters for this turn: the answer (one BLOCK line), else its standing BLOCK lines, else no block. The
    decision is the blocker's own (a private event, as every decision)."""
    for blocker in state.in_play():
        effects = block_effects(state, data, blocker) if blocker != seat else []
        if not effects:
            continue
        kept = tuple(o for o in standing_orders(state, data, blocker) if isinstance(o, BlockFilter))
        turn.filters[blocker] = kept
        if turn.checking or state.players[blocker].coins < min(e.number("cost") for e in effects):
            continue
        need = Need(
            blocker,
            f"block.{key_part(seat)}",
            N_("%(seat)s's campaign turn begins: which of its armies do you block this turn (ER-12.5)?", seat=seat),
            "ER-14.11",
            show=lambda filters: "; ".join(shown(f) for f in filters),
        )

        def read(text: str, blocker: str = blocker) -> tuple[Any, ...]:
            return (read_order(data, blocker, text, BlockFilter, "ER-14.11"),)

        taken = take_decision(need.decision((NO_BLOCK,), kept or None, read), turn, (len(turn.events), turn.rolls))
        choice, events = taken.value, taken.events
        turn.filters[blocker] = choice
        turn.events += events


def blocking(
    state: GameState, data: GameData, seat: str, start: str, target: str, units: dict[str, int], turn: Turn
) -> Refusal | None:
    """ER-7.9, ER-12.5, ER-14.11: before an army moves, a player whose board can block (op `block_move`) and whose
    BLOCK filters for this turn match (the mover's faction, the target area, strength at most the filter's and
    the ability's maximum) pays the cost and stops it; the units stay blocked for the rest of the turn (ER-15.21),
    whatever the army does next. Units already blocked cannot move either. Only checking: no block is foreseen."""
    if turn.checking:
        return None
    held = turn.blocked.get(start, {})
    army = state.army.get(start)
    if held and army is not None:
        spare = turn.spare(state, start)
        free = {k: army.count(k) - army.exhausted.get(k, 0) + spare.get(k, 0) - held.get(k, 0) for k in units}
        if any(free[k] < n for k, n in units.items()):
            return Refusal("ER-15.21", N_("units in %(start)s are blocked for this turn", start=start))
    strength = block_strength(state, data, seat, units)
    for blocker in state.in_play():
        if blocker == seat:
            continue
        for effect in block_effects(state, data, blocker):
            cost, most = effect.number("cost"), effect.number("max_strength")
            player = state.players[blocker]
            filters = turn.filters.get(blocker, ())
            if player.coins < cost or not matches(filters, seat, target, strength, most):
                continue
            player.coins -= cost
            mine = turn.blocked.setdefault(start, {})
            for kind, n in units.items():
                mine[kind] = mine.get(kind, 0) + n
            data_ = {"seat": seat, "area": start, "target": target, "units": units, "cost": cost}
            turn.events.append(Event("blocked", blocker, data_))
            return Refusal(
                "ER-12.5", N_("%(blocker)s blocks the army in %(start)s (ER-12.5)", blocker=blocker, start=start)
            )
    return None


def block_effects(state: GameState, data: GameData, faction: str) -> list[Any]:
    """The `block_move` effects of the faction's board ability (ER-12.4: Persia's alternative board) and of the
    cards it played that are in force (ER-8.14)."""
    player = state.players[faction]
    board = data.factions[faction].board(player.board) or data.factions[faction].standard
    cards = [effect for _, effect in cards_in_force(data, player.in_force)]
    return [effect for effect in (*board.ability, *cards) if effect.op == "block_move"]


def matches(filters: tuple[Any, ...], seat: str, target: str, strength: int, most: int) -> bool:
    """ER-14.11: one of the blocker's BLOCK filters for this turn fits (none, or BLOCK NEVER: no block, the
    default)."""
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
            return Refusal("ER-8.12", N_("%(seat)s has no recruited, unused hero %(hero)s", seat=seat, hero=hero))
    for tactic in set(plan.tactics):
        if plan.tactics.count(tactic) > player.hand.count(tactic):
            return Refusal("ER-8.13", N_("%(seat)s holds no tactic card %(tactic)s to play", seat=seat, tactic=tactic))
    wish = plan.reinforce
    if wish is None:
        return None
    side = data.map_for(state.players_count)
    army = state.army.get(wish.origin)
    if wish.origin not in side.board.neighbours(target):
        return Refusal(
            "ER-8.4",
            N_(
                "%(origin)s is not adjacent to %(target)s: it cannot reinforce there", origin=wish.origin, target=target
            ),
        )
    if army is None or army.owner != seat:
        return Refusal(
            "ER-8.4", N_("%(seat)s has no units in %(origin)s to reinforce with", seat=seat, origin=wish.origin)
        )
    units = wanted(wish.troops) if wish.troops is not None else {}
    for kind, n in units.items():
        if army.count(kind) - army.exhausted.get(kind, 0) < n:
            return Refusal(
                "ER-8.4",
                N_(
                    "a reinforcing army's units must all be active: %(n)s %(kind)s in %(origin)s",
                    n=n,
                    kind=kind,
                    origin=wish.origin,
                ),
            )
    if wish.troops is None and all(army.exhausted.get(k, 0) >= n for k, n in army.units.items()):
        return Refusal("ER-8.4", N_("no active unit in %(origin)s to reinforce with", origin=wish.origin))
    if side.areas[target].land and units.get("ship"):
        return Refusal("ER-12.13", N_("ships never reinforce a land battle"))
    return None


def move(state: GameState, data: GameData, options: Options, seat: str, order: Move, turn: Turn) -> None:
    """ER-7.2 to ER-7.4, ER-15.8: step by step; an attack resolves at once, and a second step follows only
    if it was won and the units entered. The units are exhausted after their last step (ER-7.2, ER-7.3); after a
    one-step order, Thoroughbred units on their first move keep their second (`Turn.once`), wherever they are."""
    units, here = wanted(order.troops), order.start
    fresh = lift_second_movers(state, data, seat, here, units, turn)
    ended: list[tuple[str, dict[str, int]]] = []
    for number, area in enumerate(order.path):
        if number:  # a Thoroughbred second step (ER-7.3, ER-15.8) moves the units that arrived
            units = entered(state, seat, here, units)
            banned = attack_ban(state, data, seat, area)
            if banned is not None:
                turn.events.append(Event("move_stopped", seat, {"area": area, "reason": banned.reason}))
            if not units or banned is not None:
                return
        what = kind_of_step(state, data, seat, area)
        if what == ATTACK:
            attack = Attack(seat, here, area, units, order.plan)
            units, back = fight(state, data, options, attack, turn)
            ended = [(area, units), (here, back)]
            if not units:
                break
        else:
            take(state, here, units)
            put(state, area, seat, units, units)
            turn.events.append(
                Event("moved" if what == JOIN else "occupied", seat, {"from": here, "to": area, "units": units})
            )
            ended = [(area, units)]
        here = area
    if len(order.path) == 1:
        keep_second_moves(turn, fresh, ended)


def lift_second_movers(
    state: GameState, data: GameData, seat: str, area: str, units: dict[str, int], turn: Turn
) -> dict[str, int]:
    """Which of `units` move for the first time this turn: active ones first, then those with a second move left
    (ER-7.3), whose exhaustion is lifted for this move. Returns the Thoroughbred units on their first move."""
    army = state.army[area]
    fast = thoroughbred_units(state, data, seat)
    spare = turn.spare(state, area)
    fresh: dict[str, int] = {}
    for kind, n in units.items():
        first = min(n, army.count(kind) - army.exhausted.get(kind, 0))
        second = min(n - first, spare.get(kind, 0))
        if second:
            army.exhausted[kind] -= second
            turn.once[area][kind] -= second
        if first and kind in fast:
            fresh[kind] = first
    army.exhausted = {k: v for k, v in army.exhausted.items() if v}
    return fresh


def keep_second_moves(turn: Turn, fresh: dict[str, int], ended: list[tuple[str, dict[str, int]]]) -> None:
    """ER-7.3, ER-15.8: Thoroughbred units that made their first move keep one more, where they ended (in a
    conquered area, or back where an attack came from)."""
    for kind, n in fresh.items():
        for area, units in ended:
            kept = min(n, units.get(kind, 0))
            if kept:
                mine = turn.once.setdefault(area, {})
                mine[kind] = mine.get(kind, 0) + kept
                n -= kept


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


def transport(state: GameState, data: GameData, options: Options, seat: str, order: Transport, turn: Turn) -> None:
    """ER-12.12: the carrying ship and the units are exhausted; into an enemy-held land area it is an attack
    from the starting area (retreat there) and from the sea (Amphibious Assault)."""
    units = wanted(order.troops)
    ships = -(-sum(units.values()) // 2)
    exhaust(state, order.sea, {"ship": ships})
    if kind_of_step(state, data, seat, order.end) == ATTACK:
        attack = Attack(seat, order.start, order.end, units, order.plan, via=order.sea)
        fight(state, data, options, attack, turn)
        return
    take(state, order.start, units)
    put(state, order.end, seat, units, units)
    data_ = {"from": order.start, "sea": order.sea, "to": order.end, "units": units}
    turn.events.append(Event("transported", seat, data_))


def fight(
    state: GameState, data: GameData, options: Options, attack: Attack, turn: Turn
) -> tuple[dict[str, int], dict[str, int]]:
    """ER-8: the battle of `attack`, resolved at once with the step's dice and applied to the state, its decisions
    taken (ER-14: answer, standing order, default; asked in ask mode) where they arise. Returns the attacking
    units that entered the area (none: the attack failed or no one survived) and those back where they came
    from. A blocking `manual` effect (ER-13.6) takes the ruling answered, else its default (rulings.py)."""
    turn.battles[attack.target] = turn.battles.get(attack.target, 0) + 1
    prefix = f"battle.{key_part(attack.target)}.{turn.battles[attack.target]}"
    decide = None if turn.checking else reinforcement_decider(state, data, options, attack, prefix, turn)
    battle = build_battle(state, data, options, attack, decide)
    if battle.defender is not None:  # ER-15.4: attacked first by a trade partner, the defender is free of its ban
        bans = getattr(state.players[battle.defender.player], "trade_bans", [])
        if attack.seat in bans:
            bans.remove(attack.seat)
    for joined in battle.reinforcements:  # ER-8.6: reinforcing units are exhausted at once
        reinforcing = units_of(joined.army)
        exhaust(state, joined.army.area, reinforcing)
        unblock(turn, joined.army.area, reinforcing)
    take(state, attack.origin, attack.units)  # ER-8.3: the attacking army is on its way
    if turn.chance is None:  # checking only (turn.checking): the attack is assumed to fail
        if turn.fought is not None:
            turn.fought.append((attack, battle))
        put(state, attack.origin, attack.seat, attack.units, attack.units)
        hope(state, data, attack, turn)
        return {}, dict(attack.units)
    chance = turn.chance
    choices = Choices(data, prefix, turn)
    choices.gather(battle)
    chosen = {
        p: replace(plan, free_men=choices.free_men.get(p, plan.free_men))
        for p, plan in plans(state, data, battle, attack.plan).items()
    }
    orders = {p: choices.standing(p, kept) for p, kept in standing_of(state, data, battle).items()}
    rolled = len(chance.log)
    try:
        outcome = resolve_battle(battle, chosen, orders, chance)
    except BattleError as error:  # a plan the battle refuses: the attack is not made
        put(state, attack.origin, attack.seat, attack.units, {})
        turn.events.append(Event("attack_refused", attack.seat, {"area": attack.target, "reason": str(error)}))
        return {}, {}
    if not outcome.finished:  # ER-13.6: a manual effect before the result: answer, else the default
        rulings, ruled = rule_on(outcome.pending, turn, len(turn.events), len(chance.log))
        turn.events += ruled
        outcome = resolve_battle(battle, chosen, orders, chance, rulings)
    happened = apply_outcome(state, data, attack, battle, outcome, chance)
    needs = battle_needs(state, data, choices, battle, outcome, happened, chance.log[rolled:], chosen)
    turn.events += with_decisions(happened, needs, len(turn.events), rolled)
    turn.events += temporary_capitals(state, data, capital_chooser(state, data, turn))
    turn.events += rounds.eliminate(state, data)  # ER-4.7: at once
    army = state.army.get(attack.target)
    entered_ = dict(attack.units) if outcome.conquered and army is not None and army.owner == attack.seat else {}
    survivors = attack_survivors(attack, outcome)
    moved_in = next((dict(m.units) for m in outcome.moves if m.player == attack.seat and m.to == attack.target), {})
    back = {k: n - moved_in.get(k, 0) for k, n in survivors.items() if n - moved_in.get(k, 0) > 0}
    return (moved_in if entered_ else {}), back


def with_decisions(happened: list[Event], needs: list[Found], base: int, rolled: int) -> list[Event]:
    """The battle's events with each open decision's events put where it arose; each decision taken there knows
    its place in the step (`base`: the index of the battle's first event) and the rolls made before it."""
    out: list[Event] = []
    cursor = 0
    for need in needs:
        out += happened[cursor : need.at]
        cursor = need.at
        out += need.take((base + len(out), rolled + need.rolls))
    return out + happened[cursor:]


def reinforcement_decider(
    state: GameState, data: GameData, options: Options, attack: Attack, prefix: str, turn: Turn
) -> Decide:
    """ER-14.12: a player who could reinforce the battle decides: the answer (one REINFORCE line, or REINFORCE
    NEVER), else its standing reinforcement that fits, else REINFORCE NEVER if kept, else the default: no. A question
    keeps the position before the battle, for the odds of its answers (decision_odds.py)."""
    from adjudicator.rulesets.conqueror.decision_odds import ReinforcementPoint

    defender = defender_of(state, data, attack.target)

    def decide(faction: str, standing: tuple[Reinforce, bt.Reinforcement] | None) -> bt.Reinforcement | None:
        need = Need(
            faction,
            f"{prefix}.reinforce",
            N_(
                "%(seat)s attacks %(target)s from %(origin)s: do you reinforce a side, and from where?",
                seat=attack.seat,
                target=attack.target,
                origin=attack.origin,
            ),
            "ER-14.12",
            shown,
        )
        never = next((o for o in standing_orders(state, data, faction) if isinstance(o, Reinforce) and o.never), None)

        def read(text: str) -> Reinforce:
            order = read_order(data, faction, text, Reinforce, "ER-14.12")
            joined = order if order.never else fits(state, data, attack, defender, faction, order)
            if isinstance(joined, str):
                raise BadAnswer(N_("%(answer)s cannot be taken: %(reason)s", answer=repr(text.strip()), reason=joined))
            return order

        kept = standing[0] if standing is not None else never
        where = (len(turn.events), turn.rolls)
        point = lambda: ReinforcementPoint(state.copy(), attack, options)  # noqa: E731
        taken = take_decision(need.decision(NO_REINFORCEMENT, kept, read), turn, where, point)
        choice, events = taken.value, taken.events
        turn.events += events
        if choice.never:
            return None
        if standing is not None and choice is standing[0]:
            return standing[1]
        joined = fits(state, data, attack, defender, faction, choice)
        return joined if isinstance(joined, bt.Reinforcement) else None

    return decide


def defender_of(state: GameState, data: GameData, area: str) -> str | None:
    """The player defending `area` (its army's owner, or the owner of a capital without units); None against an
    independent army."""
    held = state.army.get(area)
    if held is not None and held.total:
        return None if held.owner == INDEPENDENT else held.owner
    return capital_owner(state, data.map_for(state.players_count), area)


def capital_chooser(state: GameState, data: GameData, turn: Turn) -> Choose:
    """ER-14.5: where a temporary capital goes (ER-11.1, ER-11.3): the answer (one CAPITAL line: its first area
    that may be chosen), else the standing CAPITAL list, else the default; asked only with two areas or more."""

    def choose(faction: str, sites: list[str], default: str, offset: int) -> tuple[str, list[Event]]:
        listed = next((a for a in standing_sites(state, data, faction) if a in sites), None)
        if len(sites) < 2:
            return listed or default, []
        turn.capitals += 1
        need = Need(
            faction,
            f"capital.{turn.capitals}",
            N_("where does your temporary capital go (%(sites)s)?", sites=", ".join(sites)),
            "ER-14.5",
            shown,
        )

        def read(text: str) -> TemporaryCapital:
            order = read_order(data, faction, text, TemporaryCapital, "ER-14.5")
            if not any(a in sites for a in order.areas):
                raise BadAnswer(
                    N_(
                        "%(answer)s: the temporary capital goes to one of %(sites)s (ER-11.1)",
                        answer=repr(text.strip()),
                        sites=", ".join(sites),
                    )
                )
            return order

        kept = TemporaryCapital(areas=(listed,)) if listed else None
        where = (len(turn.events) + offset, turn.rolls)
        taken = take_decision(need.decision(TemporaryCapital(areas=(default,)), kept, read), turn, where)
        choice, events = taken.value, taken.events
        return next(a for a in choice.areas if a in sites), events

    return choose


def unblock(turn: Turn, area: str, units: dict[str, int]) -> None:
    """ER-12.5: blocked units may still reinforce; those that do are exhausted, and no longer counted as held
    back by the block (the others of the army stay free to move, ER-15.21)."""
    held = turn.blocked.get(area)
    for kind, n in units.items():
        if held and held.get(kind):
            held[kind] = max(0, held[kind] - n)


def hope(state: GameState, data: GameData, attack: Attack, turn: Turn) -> None:
    """Checking only (a receipt): the Thoroughbred units of an attack would enter its area if it is won."""
    fast = thoroughbred_units(state, data, attack.seat)
    mine = turn.hoped.setdefault(attack.target, {})
    for kind, n in attack.units.items():
        if kind in fast:
            mine[kind] = mine.get(kind, 0) + n


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
    trial, turn = state.copy(), Turn()
    return [carry_out(trial, data, options, seat, order, turn) for order in orders]
