"""The odds of the battles a campaign turn's orders would start (a receipt prints them), as the attacker can know
them: his orders carried out as the receipt's check carries them out (campaign.check_campaign: moves into empty or
own areas made, each attack assumed to fail, so that a later order finds its units back home), and the exact odds
(odds.battle_odds) of each battle as it would start.

What the attacker cannot know never shapes the figure. The other players' standing orders are their secret
(ER-14): the defender's defence plan (ER-14.14), loss priority, casualty order and retreats, and every other
player's reinforcement (ER-14.12), so the defender is taken to follow the defaults of ER-14: he plays no card, uses
no Free Men, joins no reinforcement, and nobody else reinforces a side. His hand and face-down heroes are hidden
too; they could only count through a plan he sent, so playing none they count for nothing (what he could hold
is not enumerated: the cards of a hand do not say which of them a plan would play). The attacker's own plan
(heroes, tactic cards, Free Men, his reinforcement) and standing orders count, and so does everything on the map.
An independent army's top automa card is unknown to all: each card of the deck counts by its share (ER-8.31)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from adjudicator.engine.vocabulary import AttackOdds
from adjudicator.orders.keywords import written
from adjudicator.rulesets.conqueror import battle_types as bt
from adjudicator.rulesets.conqueror import campaign
from adjudicator.rulesets.conqueror.battle_setup import leave_kind, standing_of
from adjudicator.rulesets.conqueror.data import RULESET, Units
from adjudicator.rulesets.conqueror.orders import KIND_KEYWORDS, UNIT_KINDS, Move, Transport
from adjudicator.rulesets.conqueror.state import GameState

if TYPE_CHECKING:
    from adjudicator.rulesets.conqueror.game import ConquerorGame


def attack_odds(rules: ConquerorGame, state: GameState, seat: str, orders: Any) -> list[AttackOdds]:
    """The odds of each battle `seat`'s campaign orders would start, in the order written, each distinct battle
    once."""
    from adjudicator.rulesets.conqueror import rounds, setup

    given = campaign.orders_of(orders)
    step = rounds.due(state)
    if step is None or step.phase != rounds.CAMPAIGN or seat not in step.seats:
        return []  # attacks are orders of the seat's own campaign turn (ER-7.1)
    if not any(isinstance(order, (Move, Transport)) for order in given):
        return []  # no move, no battle: no position is played
    seen = as_seen_by(state, seat)
    turn = campaign.Turn(fought=[])
    options = setup.options_from_json(state.options)
    for order in given:
        campaign.carry_out(seen, rules.data, options, seat, order, turn)
    found: dict[str, AttackOdds] = {}
    for attack, battle in turn.fought or []:
        key = repr((replace(battle, cards=None), attack.plan))  # the cards are the game's: the same in each
        if key not in found:
            line = _line(seen, rules, attack, battle)
            if line is not None:
                found[key] = line
    return list(found.values())


def as_seen_by(state: GameState, seat: str) -> GameState:
    """A copy of the position with nothing `seat` cannot see: the others' hands, face-down heroes and standing
    orders taken away (ER-14), the automa deck in a fixed order (only its cards are known, ER-8.31)."""
    seen = state.copy()
    for other, player in seen.players.items():
        if other != seat:
            player.hand, player.heroes_down, player.standing = [], [], {}
    seen.decks.automa = sorted(seen.decks.automa)
    seen.decks.tactics, seen.decks.chronicles = [], []
    return seen


def _line(seen: GameState, rules: ConquerorGame, attack: campaign.Attack, battle: bt.Battle) -> AttackOdds | None:
    """One battle's receipt line; None for a battle whose odds cannot be computed before it is fought (a plan the
    battle refuses, or a `manual` effect awaiting the moderator's ruling, ER-13.6): its verdict or the battle
    says why."""
    from adjudicator.rulesets.conqueror.odds import battle_odds

    plan = attack.plan
    mine = bt.Plan(plan.heroes, plan.tactics, free_men=plan.free_men, leave_behind=leave_kind(plan))
    try:
        odds = battle_odds(battle, {attack.seat: mine}, standing_of(seen, rules.data, battle))
    except bt.BattleError:
        return None
    lost = odds.expected_losses
    return AttackOdds(
        battle.area,
        _attacker_text(attack, battle),
        _defender_text(battle),
        float(odds.attacker_wins),
        float(lost.get(attack.seat, 0)),
        float(lost.get(battle.defender_id, 0)),
    )


def _units(counts: dict[str, int], elite: bool = False) -> str:
    """Units as the order language writes them (English keywords: the CoE receipt's forces read alike)."""
    parts = [f"{counts[k]} {written('en', KIND_KEYWORDS[k], RULESET)}" for k in UNIT_KINDS if counts.get(k)]
    return " ".join([*parts, written("en", "ELITE", RULESET)] if elite else parts)


def _army(army: bt.Army) -> str:
    return _units({k: army.count(k) for k in UNIT_KINDS}, army.elite is not None)


def _attacker_text(attack: campaign.Attack, battle: bt.Battle) -> str:
    """The attacking army, its reinforcement (ER-8.4) and the cards its plan plays (ER-8.12, ER-8.13)."""
    text = _army(battle.attacker)
    for joined in battle.reinforcements:
        if joined.side == bt.ATTACKER:
            text += f" + {_army(joined.army)} {written('en', 'FROM', RULESET)} {joined.army.area}"
    cards = [*attack.plan.heroes, *attack.plan.tactics]
    return text + (f" ({', '.join(cards)})" if cards else "")


def _defender_text(battle: bt.Battle) -> str:
    """Who defends with what: a faction's army, or an independent army (ER-8.31); the fort (ER-2.6)."""
    if battle.defender is not None:
        text = f"{battle.defender.player} {_army(battle.defender)}".rstrip()
    else:
        units = battle.independent or Units()
        text = f"{bt.INDEPENDENT} {_units({k: units.of(k) for k in ('cavalry', 'infantry', 'archer')})}"
    return text + (f", {battle.fort} fort" if battle.fort not in ("none", "blanked") else "")
