"""The campaign's decisions of ER-14 that a seat may be asked by mail (the table's PD): 14.5 temporary capital,
14.11 Persian block, 14.12 reinforcement by others, 14.13/14.17 which units are lost, 14.15 Free Men, 14.16
casualty assignment, 14.18 defender's retreat, 14.19 ship retreat.

An answer is written as the standing order's own line (`ANSWER battle.MIR.1.retreat: RETREAT TO SOL`), read with
the game's order language, and holds for that one decision. The choices inside a battle are given to the battle
before it is fought (answer, else standing order, else default: `Choices`); once it is fought, the decisions that
were open (a real choice: two kinds of units to lose, two areas to retreat to ...) are found in its outcome at
the point where each arose (`battle_needs`), and each becomes a decision event, asked in ask mode when it fell to
its default."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from adjudicator.engine.decisions import Asking, answer_to, take
from adjudicator.engine.vocabulary import N_, Event
from adjudicator.orders.keywords import in_english
from adjudicator.orders.sets import Order
from adjudicator.rulesets.conqueror import battle_types as bt
from adjudicator.rulesets.conqueror.data import GameData
from adjudicator.rulesets.conqueror.orders import (
    BlockFilter,
    CasualtyOrder,
    FreeMen,
    LossPriority,
    Reinforce,
    RetreatPriority,
    canonical,
)
from adjudicator.rulesets.conqueror.rulings import BadAnswer, Need
from adjudicator.rulesets.conqueror.state import GameState

LOSSES, ASSIGN, FREE_MEN, RETREAT, SHIP_RETREAT, REINFORCE = (
    "losses",
    "assign",
    "freemen",
    "retreat",
    "ship_retreat",
    "reinforce",
)
NO_BLOCK = BlockFilter(never=True)
NO_REINFORCEMENT = Reinforce(never=True)
FREE_MEN_NOT_USED = FreeMen(use=False)


def key_part(text: str) -> str:
    """An id as a part of a decision key (letters, digits and _ only: grammar/common.lark DECISION_KEY)."""
    return re.sub(r"\W", "_", text)


def read_order(data: GameData, seat: str, text: str, kind: type, rule: str) -> Any:
    """An answer: one order line of `kind` in the game's order language (any of its keyword languages)."""
    from adjudicator.orders import parse_orders
    from adjudicator.rulesets.conqueror.standing import language

    parsed = parse_orders(f"GAME g TURN 1 PLAYER {seat} PASSWORD x\n{text.strip()}", language(data))
    if parsed.errors:
        raise BadAnswer(
            N_(
                "%(answer)s cannot be read: %(problem)s (%(rule)s)",
                answer=repr(text.strip()),
                problem=parsed.errors[0].message,
                rule=rule,
            )
        )
    found = list(parsed.orders)
    if len(found) != 1 or not isinstance(found[0], kind):
        raise BadAnswer(
            N_(
                "%(answer)s: the answer is one line like the standing order of %(rule)s",
                answer=repr(text.strip()),
                rule=rule,
            )
        )
    return found[0]


def shown(order: Order) -> str:
    """A choice written as its answer line (English keywords)."""
    return canonical(order, "en")


# -- choices given to the battle before it is fought --------------------------------------------------------------
@dataclass
class Choices:
    """What the answers of one battle's decisions say (by seat), read before the battle; a wrong answer is simply
    not used here (the decision after the battle refuses it with its reason)."""

    data: GameData
    prefix: str  # battle.<area>.<n>
    decisions: Asking
    losses: dict[str, tuple[str, ...]] = field(default_factory=dict)
    assign: dict[str, tuple[str, ...]] = field(default_factory=dict)  # assigner -> seats
    retreat: dict[str, tuple[str, ...]] = field(default_factory=dict)
    ship_retreat: dict[str, tuple[str, ...]] = field(default_factory=dict)
    free_men: dict[str, bool] = field(default_factory=dict)

    def key(self, what: str) -> str:
        """The key of this battle's decision `what` (the ANSWER line names it)."""
        return f"{self.prefix}.{what}"

    def read(self, seat: str, what: str, kind: type, rule: str) -> Any | None:
        """`seat`'s answer to this battle's decision `what`, read as one `kind` order line; None if none or wrong."""
        text = answer_to(self.decisions, seat, self.key(what))
        if text is None:
            return None
        try:
            return read_order(self.data, seat, text, kind, rule)
        except BadAnswer:
            return None

    def gather(self, battle: bt.Battle) -> None:
        """Read the answers of the decisions the battle may open: each player's losses and retreats, each side's
        assignment from the seat that assigns it (ER-14.16), each principal's Free Men (ER-14.15)."""
        principals = [battle.attacker.player, *([battle.defender.player] if battle.defender is not None else [])]
        for seat in sorted(battle_units(battle)):
            loss = self.read(seat, LOSSES, LossPriority, "ER-14.17")
            if loss is not None and loss.scope == "losses":
                self.losses[seat] = loss.kinds
            for what, found in ((RETREAT, self.retreat), (SHIP_RETREAT, self.ship_retreat)):
                way = self.read(seat, what, RetreatPriority, "ER-14.18")
                if way is not None and way.ships == (what == SHIP_RETREAT):
                    found[seat] = way.targets
        for side in (bt.ATTACKER, bt.DEFENDER) if battle.defender is not None else (bt.ATTACKER,):
            seat = assigner_of(battle, side)  # an answer to the other side's key is no answer (asked of another)
            order = self.read(seat, f"{ASSIGN}_{side}", CasualtyOrder, "ER-14.16")
            if order is not None:
                self.assign[seat] = order.seats + self.assign.get(seat, ())
        for seat in principals:
            use = self.read(seat, FREE_MEN, FreeMen, "ER-14.15")
            if use is not None:
                self.free_men[seat] = use.use

    def standing(self, seat: str, kept: bt.Standing) -> bt.Standing:
        """The seat's standing orders of this battle with the answers put first (ER-14: answer > standing)."""
        return bt.Standing(
            self.losses.get(seat, kept.loss_priority),
            self.assign.get(seat, ()) + kept.assign_order,
            self.retreat.get(seat, ()) + kept.retreat,
            self.ship_retreat.get(seat, ()) + kept.ship_retreat,
        )


# -- the decisions found in a battle once it is fought ------------------------------------------------------------
@dataclass(frozen=True)
class Found:
    """An open decision of the battle: at event `at` of the battle's events, after `rolls` dice of the battle;
    `take` makes it (its events)."""

    at: int
    rolls: int
    need: Need
    take: Callable[[tuple[int, int]], list[Event]]


def battle_units(battle: bt.Battle) -> dict[str, dict[str, int]]:
    """Each player's units in the battle by kind (the attacking, defending and reinforcing armies)."""
    armies = [
        battle.attacker,
        *([battle.defender] if battle.defender else []),
        *(r.army for r in battle.reinforcements),
    ]
    found: dict[str, dict[str, int]] = {}
    for army in armies:
        mine = found.setdefault(army.player, dict.fromkeys(bt.KINDS, 0))
        for kind in bt.KINDS:
            mine[kind] += army.count(kind)
    return found


def rolls_before(log: list[tuple[str, Any]], rule: str, side: str) -> int:
    """The battle's dice drawn before its losses of `rule` on `side` (ER-0.5): a volley hit on the attacker's side
    follows the defender's volley dice, on the defender's side both volleys; casualties follow every die."""
    if rule != "ER-8.11":
        return len(log)
    first = "volley defender" if side == bt.ATTACKER else "volley"
    count = 0
    for purpose, _ in log:
        if not str(purpose).startswith(first):
            break
        count += 1
    return count


def assigner_of(battle: bt.Battle, side: str) -> str:
    """ER-8.22, ER-14.16: who hands `side`'s losses to its players: the opposing principal; against an independent
    army the attacking principal (battle_losses.assign)."""
    if side == bt.DEFENDER or battle.defender is None:
        return battle.attacker.player
    return battle.defender.player


def side_of(battle: bt.Battle, seat: str) -> str:
    """The side `seat` fights on: a principal's, or the side its reinforcement joined."""
    if seat == battle.attacker.player:
        return bt.ATTACKER
    if battle.defender is not None and seat == battle.defender.player:
        return bt.DEFENDER
    return next(r.side for r in battle.reinforcements if r.army.player == seat)


def lost_events(events: list[Event], seat: str) -> list[int]:
    """The indexes of the battle's events where `seat` loses a unit to hits or casualties (not Free Men)."""
    return [
        i
        for i, e in enumerate(events)
        if e.kind == "battle_unit_lost"
        and e.data.get("player") == seat
        and e.data.get("rule") in ("ER-8.11", "ER-8.22")
    ]


def battle_needs(
    state: GameState,
    data: GameData,
    choices: Choices,
    battle: bt.Battle,
    outcome: bt.BattleOutcome,
    events: list[Event],
    log: list[tuple[str, Any]],
    plans: Mapping[str, bt.Plan],
) -> list[Found]:
    """The open decisions of a fought battle, in the order they arose: per side the assignment among its players
    (ER-14.16) and each player's losses (ER-14.13, ER-14.17), Free Men (ER-14.15), the retreats (ER-14.18,
    ER-14.19)."""
    found = [
        *loss_needs(state, data, choices, battle, events, log, plans),
        *free_men_needs(state, data, choices, battle, events, log, plans),
    ]
    found += retreat_needs(state, data, choices, battle, outcome, events, log)
    return sorted(found, key=lambda f: f.at)


def kept(state: GameState, data: GameData, seat: str, kind: type, test: Callable[[Any], bool] = lambda _: True) -> Any:
    """The seat's first standing order of `kind` that passes `test` (ER-14: it decides when there is no answer)."""
    from adjudicator.rulesets.conqueror.standing import standing_orders

    return next((o for o in standing_orders(state, data, seat) if isinstance(o, kind) and test(o)), None)


def loss_needs(
    state: GameState,
    data: GameData,
    choices: Choices,
    battle: bt.Battle,
    events: list[Event],
    log: list[tuple[str, Any]],
    plans: Mapping[str, bt.Plan],
) -> list[Found]:
    """ER-14.16, ER-14.17: at a player's first loss to hits or casualties, which units go when it has two kinds or
    more and does not lose them all; before the first loss of a side of several players, the assignment."""
    units = battle_units(battle)
    found: list[Found] = []  # the assignment first: it comes before a player's choice at the same loss
    for side in (bt.ATTACKER, bt.DEFENDER):
        found += assign_needs(state, data, choices, battle, events, log, side, units, plans)
    for seat, mine in units.items():
        lost = lost_events(events, seat)
        if not lost or seat == bt.INDEPENDENT:
            continue
        first = lost[0]
        freed = [e for e in events[:first] if e.kind == "battle_unit_lost" and e.data.get("player") == seat]
        left = dict(mine)
        for e in freed:
            left[str(e.data["kind"])] -= 1
        if sum(1 for n in left.values() if n) < 2 or len(lost) >= sum(left.values()):
            continue
        rule = str(events[first].data["rule"])
        rolls = rolls_before(log, rule, side_of(battle, seat))
        need = Need(
            seat,
            choices.key(LOSSES),
            N_("which of your units in the battle at %(area)s are lost first?", area=battle.area),
            "ER-14.17",
            shown,
        )
        standing = kept(state, data, seat, LossPriority, lambda o: o.scope == "losses")
        default = LossPriority(scope="losses", kinds=bt.LOSS_PRIORITY)
        point = battle_point(state, data, battle, seen_plans(plans, events, first, seat), log[:rolls], seat)
        taken = taker(choices, need, standing, default, read_losses(data, seat), point)
        found.append(Found(first, rolls, need, taken))
    return found


def seen_plans(plans: Mapping[str, bt.Plan], events: list[Event], at: int, seat: str) -> dict[str, bt.Plan]:
    """The plans `seat` knows at event `at` of a battle: every principal's once the council revealed them (ER-8.14),
    else his own alone."""
    if any(e.kind == "battle_council" for e in events[:at]):
        return dict(plans)
    return {player: plan for player, plan in plans.items() if player == seat}


def taker(
    choices: Choices,
    need: Need,
    standing: Any,
    default: Any,
    read: Callable[[str], Any],
    position: Callable[[], Any] | None = None,
) -> Callable[[tuple[int, int]], list[Event]]:
    """The decision taken when the battle's events reach it (Found.take): only its events are kept, as the battle
    was fought with the answer or standing order already (Choices). `position`: what a pending one keeps."""
    return lambda where: take(need.decision(default, standing, read), choices.decisions, where, position).events


def read_losses(data: GameData, seat: str) -> Callable[[str], Any]:
    """How `seat`'s answer to its losses is read: one LOSSES line (ER-14.17)."""

    def read(text: str) -> Any:
        order = read_order(data, seat, text, LossPriority, "ER-14.17")
        if order.scope != "losses":
            raise BadAnswer(
                N_(
                    "%(answer)s: the answer is a %(kw_losses)s line (ER-14.17)",
                    answer=repr(text.strip()),
                    **in_english("losses"),
                )
            )
        return order

    return read


def assign_needs(
    state: GameState,
    data: GameData,
    choices: Choices,
    battle: bt.Battle,
    events: list[Event],
    log: list[tuple[str, Any]],
    side: str,
    units: dict[str, dict[str, int]],
    plans: Mapping[str, bt.Plan],
) -> list[Found]:
    """ER-14.16: the opposing principal (against an independent army the attacker) hands the side's losses to its
    players, when the side has several players and does not lose every unit."""
    players = list(dict.fromkeys(p for p in units if p != bt.INDEPENDENT and side_of(battle, p) == side))
    if len(players) < 2:
        return []
    assigner = assigner_of(battle, side)
    hits = sorted(i for p in players for i in lost_events(events, p))
    if not hits or len(hits) >= sum(sum(units[p].values()) for p in players):
        return []
    rule = str(events[hits[0]].data["rule"])
    need = Need(
        assigner,
        choices.key(f"{ASSIGN}_{side}"),
        N_(
            "in which order do the players of the %(side)s's side at %(area)s (%(players)s) take its losses?",
            side=side,
            area=battle.area,
            players=", ".join(players),
        ),
        "ER-14.16",
        shown,
    )
    standing = kept(state, data, assigner, CasualtyOrder, lambda o: any(p in o.seats for p in players))
    default = CasualtyOrder(seats=tuple(players))

    def read(text: str) -> Any:
        order = read_order(data, assigner, text, CasualtyOrder, "ER-14.16")
        if not any(p in order.seats for p in players):
            raise BadAnswer(
                N_(
                    "%(answer)s names none of %(players)s (ER-14.16)",
                    answer=repr(text.strip()),
                    players=", ".join(players),
                )
            )
        return order

    at, rolls = hits[0], rolls_before(log, rule, side)
    point = battle_point(state, data, battle, seen_plans(plans, events, at, assigner), log[:rolls], assigner)
    return [Found(at, rolls, need, taker(choices, need, standing, default, read, point))]


def free_men_needs(
    state: GameState,
    data: GameData,
    choices: Choices,
    battle: bt.Battle,
    events: list[Event],
    log: list[tuple[str, Any]],
    plans: Mapping[str, bt.Plan],
) -> list[Found]:
    """ER-14.15: after the reveal (the council of war, ER-8.14), a principal whose elite may add +2 by removing one
    of its standard infantry (ER-8.18) and still can (the elite and a standard infantry unit on its side)."""
    councils = [i for i, e in enumerate(events) if e.kind == "battle_council"]
    if not councils:
        return []
    found: list[Found] = []
    units = battle_units(battle)
    for army in (battle.attacker, battle.defender):
        if army is None or army.elite is None or not any(e.op == "self_removal" for e in army.elite.effects):
            continue
        seat = army.player
        mine = dict(units.get(seat, {}))
        for e in events[: councils[-1]]:
            if e.kind == "battle_unit_lost" and e.data.get("player") == seat:
                mine[str(e.data["kind"])] -= 1
        if not mine.get("elite") or not mine.get("infantry"):
            continue
        used = [i for i, e in enumerate(events) if e.kind == "battle_free_men" and e.data.get("player") == seat]
        at = used[0] if used else councils[-1] + 1
        need = Need(
            seat,
            choices.key(FREE_MEN),
            N_(
                "does your elite add +2 at %(area)s, removing one of your standard infantry (ER-8.18)?",
                area=battle.area,
            ),
            "ER-14.15",
            shown,
        )
        plan = plans.get(seat, bt.NO_PLAN)
        standing = kept(state, data, seat, FreeMen)
        if plan.free_men and seat not in choices.free_men:
            standing = FreeMen(use=True)  # given with the attack or in the defence plan
        read = lambda text, s=seat: read_order(data, s, text, FreeMen, "ER-14.15")  # noqa: E731
        rolls = sum(1 for purpose, _ in log if str(purpose).startswith("volley"))
        point = battle_point(state, data, battle, plans, log[:rolls], seat)
        found.append(Found(at, rolls, need, taker(choices, need, standing, FREE_MEN_NOT_USED, read, point)))
    return found


def battle_point(
    state: GameState,
    data: GameData,
    battle: bt.Battle,
    plans: Mapping[str, bt.Plan],
    rolled: list[tuple[str, Any]],
    seat: str,
) -> Callable[[], Any]:
    """What a question in the middle of a battle keeps (decision_odds.BattlePoint): the battle, the plans `seat`
    knows, the faces of the battle's dice rolled before it, and the standing orders of battle as `seat` knows them."""

    def point() -> Any:
        from adjudicator.rulesets.conqueror.attack_odds import as_seen_by
        from adjudicator.rulesets.conqueror.battle_setup import standing_of
        from adjudicator.rulesets.conqueror.decision_odds import BattlePoint

        known = tuple(int(face) for _, face in rolled)
        return BattlePoint(battle, dict(plans), known, standing_of(as_seen_by(state, seat), data, battle))

    return point


def retreat_needs(
    state: GameState,
    data: GameData,
    choices: Choices,
    battle: bt.Battle,
    outcome: bt.BattleOutcome,
    events: list[Event],
    log: list[tuple[str, Any]],
) -> list[Found]:
    """ER-14.18, ER-14.19: the beaten defender's army, and its ships apart, retreat to one of two areas or more."""
    found: list[Found] = []
    for move in outcome.moves:
        if len(move.options) < 2 or move.to is None:
            continue
        ships = move.why == "ER-12.14"
        at = next(
            (
                i
                for i, e in enumerate(events)
                if e.kind == "battle_retreat"
                and e.seat == move.player
                and e.data.get("to") == move.to
                and ("ship" in e.data.get("units", {})) == ships
            ),
            len(events),
        )
        what, rule = (SHIP_RETREAT, "ER-14.19") if ships else (RETREAT, "ER-14.18")
        seat, options = move.player, move.options
        need = Need(
            seat,
            choices.key(what),
            (
                N_(
                    "where do your ships beaten in %(area)s retreat (%(options)s)?",
                    area=battle.area,
                    options=", ".join(options),
                )
                if ships
                else N_(
                    "where do your units beaten in %(area)s retreat (%(options)s)?",
                    area=battle.area,
                    options=", ".join(options),
                )
            ),
            rule,
            shown,
        )
        from adjudicator.rulesets.conqueror.standing import battle_standing

        listed = battle_standing(state, data, seat, battle.area)
        wanted = listed.ship_retreat if ships else listed.retreat
        chosen = next((a for a in wanted if a in options), None)
        standing = RetreatPriority(origin=None, targets=(chosen,), ships=ships) if chosen else None
        default = RetreatPriority(origin=None, targets=(move.to,), ships=ships)  # where the battle sent it

        def read(
            text: str, seat: str = seat, options: tuple[str, ...] = options, ships: bool = ships, rule: str = rule
        ) -> Any:
            order = read_order(data, seat, text, RetreatPriority, rule)
            if order.ships != ships or not any(t in options for t in order.targets):
                raise BadAnswer(
                    N_(
                        "%(answer)s: the retreat goes to one of %(options)s (%(rule)s)",
                        answer=repr(text.strip()),
                        options=", ".join(options),
                        rule=rule,
                    )
                )
            return order

        found.append(Found(at, len(log), need, taker(choices, need, standing, default, read)))
    return found
