"""The odds of each answer to a campaign question that changes a battle (a decision notice prints them), reckoned
where the question arose (the engine's Pending.position), as the asked seat can know the battle then:

- Reinforce (ER-14.12), asked before the battle: not to reinforce, or to join a side with every active unit of an
  area next to it (ER-8.4). Nothing of the battle is revealed yet (ER-8.14): nobody's plan but the asked seat's
  own counts, nor any other player's reinforcement (each is his own decision).
- Free Men (ER-14.15), asked after the reveal (the council of war, ER-8.14) and the volleys: to use them or not,
  with the plans as revealed and the volley dice as they fell (odds.battle_odds `known`). The enemy's Free Men are
  his own decision: taken as his default, not used.
- Which units are lost first (ER-14.17) and in which order a side's players take its losses (ER-14.16), asked at
  the first loss: each order of the kinds (the players) there are, with the dice rolled so far as they fell, and
  the plans once the council revealed them (before it, only the asked seat's own). Orders that give the same figure
  are given once, by the first of them.

Everywhere the other players' standing orders are their secret (ER-14): they follow the defaults, as in a
receipt (attack_odds.py). A retreat (ER-14.18, ER-14.19) comes after the battle: no figure."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from itertools import permutations
from typing import TYPE_CHECKING

from adjudicator.engine.vocabulary import AttackOdds
from adjudicator.rulesets.conqueror import battle_types as bt
from adjudicator.rulesets.conqueror.battle_setup import Attack
from adjudicator.rulesets.conqueror.data import Options
from adjudicator.rulesets.conqueror.state import GameState

if TYPE_CHECKING:
    from adjudicator.rulesets.conqueror.game import ConquerorGame
    from adjudicator.rulesets.conqueror.odds import BattleOdds


@dataclass(frozen=True)
class ReinforcementPoint:
    """Where a reinforcement question arose (ER-14.12): the position before the battle, the attack, the options."""

    state: GameState
    attack: Attack
    options: Options


@dataclass(frozen=True)
class BattlePoint:
    """Where a question in the middle of a battle arose (ER-14.15 to ER-14.17): the battle, the plans the asked seat
    knows (all once the council revealed them, ER-8.14), the faces of the battle's dice rolled so far, and the
    players' standing orders of battle as he knows them (his own; the defaults for the others)."""

    battle: bt.Battle
    plans: Mapping[str, bt.Plan]
    known: tuple[int, ...]
    orders: Mapping[str, bt.Standing]


def decision_odds(rules: ConquerorGame, seat: str, key: str, point: object) -> list[tuple[str, AttackOdds]]:
    """The odds of each answer to `seat`'s question `key` (the module's docstring says which), each answer as its
    ANSWER line writes it; none for other questions, or without the point the question kept."""
    if key.endswith(".reinforce") and isinstance(point, ReinforcementPoint):
        return _reinforcement_odds(rules, seat, point)
    if not isinstance(point, BattlePoint):
        return []
    if key.endswith(".freemen"):
        return _free_men_odds(seat, point)
    if key.endswith(".losses"):
        return _orders_odds(seat, point, "loss_priority", _loss_orders(point.battle, seat))
    if ".assign_" in key:
        return _orders_odds(seat, point, "assign_order", _assign_orders(point.battle, key.rpartition("_")[2]))
    return []


def _reinforcement_odds(rules: ConquerorGame, seat: str, point: ReinforcementPoint) -> list[tuple[str, AttackOdds]]:
    """Not to reinforce, then each side `seat` may join from each area next to the battle (ER-8.4), in the order of
    the board's neighbours, attacker's side first."""
    from adjudicator.rulesets.conqueror.asks import NO_REINFORCEMENT, shown
    from adjudicator.rulesets.conqueror.attack_odds import as_seen_by
    from adjudicator.rulesets.conqueror.battle_setup import build_battle, fits, plans, standing_of
    from adjudicator.rulesets.conqueror.campaign import defender_of
    from adjudicator.rulesets.conqueror.odds import battle_odds
    from adjudicator.rulesets.conqueror.orders import BattlePlan, Reinforce

    data, seen = rules.data, as_seen_by(point.state, seat)
    attack = point.attack if point.attack.seat == seat else replace(point.attack, plan=BattlePlan())  # sealed
    defender = defender_of(seen, data, attack.target)
    choices: list[tuple[Reinforce, bt.Reinforcement | None]] = [(NO_REINFORCEMENT, None)]
    principals = [p for p in (attack.seat, defender) if p is not None]
    for area in data.map_for(seen.players_count).board.neighbours(attack.target):
        for wish in [Reinforce(seat=p, origin=area) for p in principals] if area != attack.origin else []:
            joined = fits(seen, data, attack, defender, seat, wish)
            if isinstance(joined, bt.Reinforcement):
                choices.append((wish, joined))
    found = []
    for wish, joined in choices:
        battle = build_battle(
            seen, data, point.options, attack, lambda faction, _, j=joined: j if faction == seat else None
        )
        known = plans(seen, data, battle, attack.plan)
        try:
            odds = battle_odds(battle, known, standing_of(seen, data, battle))
        except bt.BattleError:
            return []  # a `manual` effect awaiting the moderator's ruling (ER-13.6): no figure
        found.append((shown(wish), _line(battle, known, odds)))
    return found


def _loss_orders(battle: bt.Battle, seat: str) -> list[tuple[str, tuple[str, ...]]]:
    """Each order in which `seat` may lose the kinds of units he has in the battle (ER-14.17), from the default's
    on, as its LOSSES line and as the battle's loss priority (the kinds not named after, in the default order)."""
    from adjudicator.rulesets.conqueror.asks import battle_units, shown
    from adjudicator.rulesets.conqueror.orders import LossPriority

    kinds = [kind for kind in bt.LOSS_PRIORITY if battle_units(battle).get(seat, {}).get(kind)]
    found = []
    for order in permutations(kinds):
        priority = (*order, *(kind for kind in bt.LOSS_PRIORITY if kind not in order))
        found.append((shown(LossPriority(scope="losses", kinds=order)), priority))
    return found


def _assign_orders(battle: bt.Battle, side: str) -> list[tuple[str, tuple[str, ...]]]:
    """Each order in which the players of `side` may take its losses (ER-14.16), from the default's on."""
    from adjudicator.rulesets.conqueror.asks import battle_units, shown, side_of
    from adjudicator.rulesets.conqueror.orders import CasualtyOrder

    players = [p for p in battle_units(battle) if p != bt.INDEPENDENT and side_of(battle, p) == side]
    return [(shown(CasualtyOrder(seats=order)), order) for order in permutations(players)]


def _orders_odds(
    seat: str, point: BattlePoint, field: str, answers: list[tuple[str, tuple[str, ...]]]
) -> list[tuple[str, AttackOdds]]:
    """The battle played on from the dice rolled so far with each answer as `seat`'s standing order `field` of this
    battle (ER-14: an answer before a standing order); answers of the same figure once, by the first."""
    from adjudicator.rulesets.conqueror.odds import battle_odds

    found: dict[tuple[float, float, float], tuple[str, AttackOdds]] = {}
    for text, order in answers:
        orders = {**point.orders, seat: replace(point.orders.get(seat, bt.NO_ORDERS), **{field: order})}
        try:
            odds = battle_odds(point.battle, point.plans, orders, known=point.known)
        except bt.BattleError:
            return []
        line = _line(point.battle, point.plans, odds)
        found.setdefault((line.wins, line.attacker_losses, line.defender_losses), (text, line))
    return list(found.values())


def _free_men_odds(seat: str, point: BattlePoint) -> list[tuple[str, AttackOdds]]:
    """To use Free Men (ER-8.18) or not, the battle played on from the volleys as they fell."""
    from adjudicator.rulesets.conqueror.asks import shown
    from adjudicator.rulesets.conqueror.odds import battle_odds
    from adjudicator.rulesets.conqueror.orders import FreeMen

    found = []
    for use in (True, False):
        chosen = {player: replace(plan, free_men=use and player == seat) for player, plan in point.plans.items()}
        try:
            odds = battle_odds(point.battle, chosen, point.orders, known=point.known)
        except bt.BattleError:
            return []
        found.append((shown(FreeMen(use=use)), _line(point.battle, chosen, odds)))
    return found


def _line(battle: bt.Battle, plans: Mapping[str, bt.Plan], odds: BattleOdds) -> AttackOdds:
    """An odds line of the battle: the attacker's chance to win, and each side's expected losses, its principal's
    and its reinforcements' together."""
    from adjudicator.rulesets.conqueror.attack_odds import battle_texts

    sides = {battle.attacker.player: bt.ATTACKER}
    sides |= {battle.defender.player: bt.DEFENDER} if battle.defender is not None else {bt.INDEPENDENT: bt.DEFENDER}
    sides |= {joined.army.player: joined.side for joined in battle.reinforcements}
    lost = {bt.ATTACKER: 0.0, bt.DEFENDER: 0.0}
    for player, expected in odds.expected_losses.items():
        lost[sides.get(player, bt.DEFENDER)] += float(expected)
    attacker, defender = battle_texts(battle, plans)
    return AttackOdds(battle.area, attacker, defender, float(odds.attacker_wins), lost[bt.ATTACKER], lost[bt.DEFENDER])
