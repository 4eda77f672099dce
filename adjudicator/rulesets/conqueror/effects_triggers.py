"""The round's triggers of ER-13.6 and the questions the rules ask of effects in force outside battle.

Triggers, fired by rounds.py in the round's order (ER-4.1, ER-4.4, ER-4.6):
- `taxation`: other income of ER-5.2 (ability, dynasty, chronicle), then the counter `income/k` on that total
  (ER-5.3, Persia: +1 per full 5 of the phase's income, before the bonus);
- `new_year` and a chronicle's `immediate` when it is drawn (ER-4.4.4: it applies to all players);
- `on_food_le(n)`: checked once a round after Taxation (its Resolution: food matters from Preparation on, and a
  supply that dropped during the campaign counts at the next Preparation, ER-15.11); the food lasts the round;
- `end_of_round` (ER-4.6 (3), ER-11.6: the dynasty's loss before the card flips), `next_round` (at the start
  of the next round, its source still read as in the round it belonged to), `game_end` (VP and coins at final
  scoring, ER-10.3).
Durations: an effect of a standing source (ability, dynasty, chronicle) lasts while its source is in force (the
chronicle ends with its round, ER-4.4.4; the dynasty front with its round, ER-11.6); food gained for a round is
`food_bonus`, cleared at the end of the round (rounds.py); `turn`, `round` and `game` of a read op are the
source's own span, since those sources are all in force for a whole round at least. A played card's effects
outside battle (ER-8.14 reading, effects_apply.played_cards) are recorded with their own span: `turn_ended` and
`round_ended` end them.

Read ops (effects_apply.READ_OPS): `discount(...)`, `extra_action(...)`, `rerecruit(...)`, `moves_twice(...)`,
`attack_forbidden(...)` answer them where prices, agent actions, recruitment and moves are judged.
"""

from __future__ import annotations

from collections.abc import Iterator

from adjudicator.engine.vocabulary import Event
from adjudicator.rulesets.conqueror import battle_types as bt
from adjudicator.rulesets.conqueror.data import Effect, GameData
from adjudicator.rulesets.conqueror.effects_apply import (
    CONDITIONS,
    apply_effect,
    apply_trigger,
    chronicle_in_force,
    count,
    expire,
    gained_coins,
    holds,
    played_cards,
    standing_effects,
)
from adjudicator.rulesets.conqueror.state import GameState, food_supply
from adjudicator.rulesets.conqueror.vocabulary import UNIT_KINDS

# -- taxation (ER-5.2, ER-5.3) -------------------------------------------------------------------------------------


def taxation(state: GameState, data: GameData, faction: str, base: int) -> tuple[int, list[Event]]:
    """The Taxation income of `faction` from its printed income `base` (ER-5.2): other income first, then what
    counts `income/k` on that total (ER-5.3); other ops with the trigger `taxation` are applied as they are."""
    sources = [(s, e) for s, e in standing_effects(state, data, faction) if e.when.name == "taxation"]
    events: list[Event] = []
    total = base
    for later in (False, True):  # ER-5.3: the bonus is computed on the total before it
        phase_total = total
        for source, effect in sources:
            if _counts_income(effect) != later:
                continue
            coins = _income_coins(state, data, faction, effect, phase_total)
            if coins is None:
                events += apply_effect(state, data, faction, source, effect, None, phase_total)
            elif coins:
                total += coins
                events.append(Event("effect_applied", faction, {"source": source, "op": "coins", "n": coins}))
    return total, events


def _counts_income(effect: Effect) -> bool:
    counter = effect.counter("per")
    return counter is not None and counter.name == "income"


def _income_coins(state: GameState, data: GameData, faction: str, effect: Effect, income: int) -> int | None:
    """The coins a `coins` effect adds to this Taxation (0: its condition fails); None: not a plain coin gain."""
    if effect.op != "coins" or effect.who != "self" or any(c.name not in CONDITIONS for c in effect.conditions):
        return None
    if not all(holds(state, data, faction, c.name, c.value) for c in effect.conditions):
        return 0
    return effect.number("n") * count(state, data, faction, effect, income)


# -- New Year (ER-4.4.4), food (ER-11.6), end of round (ER-4.6), next round, game end (ER-10.3) --------------------


def new_year(state: GameState, data: GameData, drawn: bool) -> list[Event]:
    """ER-4.4.4: a chronicle just `drawn` applies its `immediate` effects to every player; then every player's
    `new_year` effects (chronicle, ability, dynasty)."""
    events: list[Event] = []
    chronicle = chronicle_in_force(state, data)
    for faction in state.in_play():
        if drawn and chronicle is not None:
            own = [(s, e) for s, e in standing_effects(state, data, faction) if s == f"chronicle {chronicle.id}"]
            events += apply_trigger(state, data, faction, "immediate", own)
        events += apply_trigger(state, data, faction, "new_year", standing_effects(state, data, faction))
    return events


def food_passives(state: GameState, data: GameData) -> list[Event]:
    """`on_food_le(n)` (ER-11.6's passive dynasty bonus): a player whose food supply is n or less gets it."""
    side = data.map_for(state.players_count)
    events: list[Event] = []
    for faction in state.in_play():
        for source, effect in standing_effects(state, data, faction):
            if effect.when.name == "on_food_le" and food_supply(state, side, faction) <= (effect.when.n or 0):
                events += apply_effect(state, data, faction, source, effect, None)
    return events


def campaign_turn(state: GameState, data: GameData, seat: str) -> list[Event]:
    """ER-13.6 `campaign_turn`: at the start of `seat`'s campaign turn (ER-7.1), its effects with that trigger
    (the read ops among them, e.g. move_twice, are read while its turn is judged)."""
    return apply_trigger(state, data, seat, "campaign_turn", standing_effects(state, data, seat))


def end_of_round(state: GameState, data: GameData) -> list[Event]:
    """ER-4.6 (3): every player's `end_of_round` effects (ER-11.6: the dynasty's loss, while the card is face up)."""
    events: list[Event] = []
    for faction in state.in_play():
        events += apply_trigger(state, data, faction, "end_of_round", standing_effects(state, data, faction))
    return events


def next_round(state: GameState, data: GameData) -> list[Event]:
    """`next_round`: the effects that wait for the next round, at its start (before the chronicle of the ended
    round leaves play)."""
    events: list[Event] = []
    for faction in state.in_play():
        events += apply_trigger(state, data, faction, "next_round", standing_effects(state, data, faction))
    return events


def game_end_points(state: GameState, data: GameData, faction: str) -> tuple[int, int]:
    """ER-10.3 with `game_end` effects: the (VP, coins) they add at final scoring (coins count before the 1 VP
    per 5). Read only: final scoring may be asked several times (ER-10.1's tie-break)."""
    vp = coins = 0
    for _, effect in standing_effects(state, data, faction):
        if effect.when.name != "game_end" or effect.op not in ("vp", "coins") or effect.who != "self":
            continue
        if all(c.name in CONDITIONS and holds(state, data, faction, c.name, c.value) for c in effect.conditions):
            n = effect.number("n") * count(state, data, faction, effect)
            vp, coins = (vp + n, coins) if effect.op == "vp" else (vp, coins + n)
    return vp, coins


def cards_played(state: GameState, data: GameData, battle: bt.Battle, outcome: bt.BattleOutcome) -> list[Event]:
    """ER-8.14: the cards revealed in `battle` bring their effects outside battle into force (effects_apply.py,
    `played_cards`); none if the council of war was not held (ER-8.26: no card was played)."""
    defender = battle.defender.player if battle.defender is not None else None
    sides = {battle.attacker.player: (bt.ATTACKER, defender)}
    if defender is not None:
        sides[defender] = (bt.DEFENDER, battle.attacker.player)
    events: list[Event] = []
    for owner, (side, opponent) in sides.items():
        cards = [
            *outcome.heroes_face_up.get(owner, ()),
            *outcome.heroes_discarded.get(owner, ()),
            *outcome.tactics_discarded.get(owner, ()),
        ]
        if owner in state.players and cards:
            events += played_cards(state, data, owner, opponent, cards, outcome.winner == side)
    return events


def turn_ended(state: GameState) -> None:
    """ER-7.1: a campaign turn ended: the card effects of span `turn` end with it (ER-8.14 reading)."""
    expire(state, ("turn",))


def round_ended(state: GameState) -> None:
    """ER-4.6: the round ended: the card effects of span `turn` and `round` end with it (ER-8.14 reading)."""
    expire(state, ("turn", "round"))


# -- read ops: asked where the rules judge -------------------------------------------------------------------------


def _in_force(state: GameState, data: GameData, faction: str, op: str) -> Iterator[Effect]:
    """The effects of `op` in force for `faction` now whose conditions hold (ER-13.6)."""
    if faction not in state.players:
        return
    for _, effect in standing_effects(state, data, faction):
        if effect.op != op or effect.who not in ("self", "all"):
            continue
        if all(c.name in CONDITIONS and holds(state, data, faction, c.name, c.value) for c in effect.conditions):
            yield effect


def discount(state: GameState, data: GameData, faction: str, target: str) -> int:
    """ER-13.6 `discount`: coins off the price of a district, megaproject, hero, elite or upgrade."""
    return sum(e.number("n") for e in _in_force(state, data, faction, "discount") if e.args["target"] == target)


def extra_action(state: GameState, data: GameData, faction: str) -> bool:
    """ER-13.6 `extra_agent_action`: one more agent action after all others, as ER-5.6 grants it."""
    return any(True for _ in _in_force(state, data, faction, "extra_agent_action"))


def rerecruit(state: GameState, data: GameData, faction: str, target: str) -> bool:
    """ER-13.6 `rerecruit`: discarded heroes, or the lost elite, may be recruited again (as an Academy allows)."""
    return any(e.args["target"] == target for e in _in_force(state, data, faction, "rerecruit"))


def moves_twice(state: GameState, data: GameData, faction: str, kind: str) -> bool:
    """ER-13.6 `move_twice`: units of `kind` selected by `own.<kind>` or `own.any` move or attack twice."""
    for effect in _in_force(state, data, faction, "move_twice"):
        selector = effect.selector("units")
        if selector is not None and selector.side == "own" and selector.type in (kind, "any"):
            return True
    return False


def attack_forbidden(state: GameState, data: GameData, faction: str, target: str) -> bool:
    """ER-13.6 `forbid_attack`: `faction` may not attack `target` ("faction": any player, "independents")."""
    return any(e.args["target"] == target for e in _in_force(state, data, faction, "forbid_attack"))


def gained(state: GameState, data: GameData, faction: str, coins: int) -> list[Event]:
    """Any coins gained outside an effect (Taxation, trade): `on_gain_coins` (effects_apply.gained_coins)."""
    return gained_coins(state, data, faction, coins)


def twice_kinds(state: GameState, data: GameData, faction: str) -> frozenset[str]:
    """The unit kinds of `faction` that `move_twice` lets move or attack twice (ER-7.3 as Thoroughbred does)."""
    return frozenset(kind for kind in UNIT_KINDS if moves_twice(state, data, faction, kind))
