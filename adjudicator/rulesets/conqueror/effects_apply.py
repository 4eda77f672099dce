"""Applying effects of the ER-13.6 vocabulary outside battle: the economic ops (coins, vp, food, draw_tactic) for
the triggers of the plans step (on_trade, on_build, preparation, immediate). Shared: the campaign may use it too.

An effect this module cannot carry out (another op, a `who` or condition it does not read) is reported as a
`manual_effect` event for the moderator to apply by hand (ER-13.6: `manual`), never silently dropped.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from adjudicator.engine.vocabulary import Event, visible_to
from adjudicator.rulesets.conqueror.data import Effect, GameData
from adjudicator.rulesets.conqueror.state import (
    DYNASTY_ACTIVE,
    DYNASTY_FLIPPED,
    FOOD_NONE,
    GameState,
    controlled_areas,
    fort_count,
    fort_of,
    large_and_small_forts,
)
from adjudicator.rulesets.conqueror.vocabulary import FortLimit

APPLIED_OPS: Final = ("coins", "vp", "food", "draw_tactic")
APPLIED_WHO: Final = ("self", "partner", "all")


def standing_effects(state: GameState, data: GameData, faction: str) -> list[tuple[str, Effect]]:
    """The effects in force for `faction` besides cards played: its board's ability (ER-9.1), its dynasty card
    (front while active ER-11.5, back once flipped ER-11.6) and the chronicle card of the round (ER-4.4.4)."""
    player = state.players[faction]
    found = data.factions[faction]
    board = found.board(player.board) or found.standard
    effects = [(f"{faction} ability", e) for e in board.ability]
    if player.dynasty == DYNASTY_ACTIVE:
        effects += [(f"{faction} dynasty", e) for e in found.dynasty]
    elif player.dynasty == DYNASTY_FLIPPED:
        effects += [(f"{faction} dynasty", e) for e in found.dynasty_back]
    chronicle = next((c for c in data.cards.chronicles if c.id == state.decks.chronicle), None)
    if chronicle is not None:
        effects += [(f"chronicle {chronicle.id}", e) for e in chronicle.effects]
    return effects


def apply_trigger(
    state: GameState,
    data: GameData,
    faction: str,
    trigger: str,
    sources: Iterable[tuple[str, Effect]],
    partner: str | None = None,
) -> list[Event]:
    """Apply the effects of `sources` whose `when` is `trigger`, for `faction` (and its trade `partner`)."""
    events: list[Event] = []
    for source, effect in sources:
        if effect.when.name == trigger:
            events += apply_effect(state, data, faction, source, effect, partner)
    return events


def apply_effect(
    state: GameState, data: GameData, faction: str, source: str, effect: Effect, partner: str | None
) -> list[Event]:
    targets = _targets(state, faction, effect.who, partner)
    problem = _unsupported(effect, targets)
    if problem is not None:
        text = data.wording(effect.key, effect.text)
        return [Event("manual_effect", faction, {"source": source, "op": effect.op, "text": text, "why": problem})]
    if not all(_holds(state, data, faction, condition.name, condition.value) for condition in effect.conditions):
        return []
    events: list[Event] = []
    for target in targets:
        events += _carry_out(state, data, target, source, effect)
    return events


def _targets(state: GameState, faction: str, who: str, partner: str | None) -> list[str]:
    if who == "self":
        return [faction]
    if who == "partner":
        return [partner] if partner in state.players else []
    if who == "all":
        return state.in_play()
    return []


def _unsupported(effect: Effect, targets: list[str]) -> str | None:
    if effect.op == "manual":
        return "a manual effect"
    if effect.op not in APPLIED_OPS or effect.who not in APPLIED_WHO:
        return f"op {effect.op} for {effect.who} is not applied outside battle yet"
    if effect.counter("per") is not None and effect.counter("per").name not in _COUNTERS:  # type: ignore[union-attr]
        return f"counting per {effect.counter('per').name} is not built yet"  # type: ignore[union-attr]
    if any(c.name not in _CONDITIONS for c in effect.conditions):
        return "a condition not read outside battle yet"
    return None


def _carry_out(state: GameState, data: GameData, target: str, source: str, effect: Effect) -> list[Event]:
    player = state.players[target]
    n = effect.number("n") * _per(state, data, target, effect)
    if effect.op == "coins":
        player.coins += n
    elif effect.op == "vp":
        player.vp += n
    elif effect.op == "food":
        player.food_bonus += n  # ER-5.30: other effects, this round
    else:  # draw_tactic: the deck's top cards (its order is secret, ER-3.5); the names only to the drawer
        drawn = [state.decks.tactics.pop(0) for _ in range(min(n, len(state.decks.tactics)))]
        player.hand += drawn
        names = [next(t.name for t in data.cards.tactics if t.id == card) for card in drawn]
        return [
            Event("effect_applied", target, {"source": source, "op": effect.op, "n": len(drawn)}),
            Event("tactic_drawn", target, {"card": ", ".join(drawn), "name": ", ".join(names)}, visible_to([target])),
        ]
    return [Event("effect_applied", target, {"source": source, "op": effect.op, "n": n})]


# -- counters (`per`) and conditions (`if`) that the plans step reads --------------------------------------------

_COUNTERS: Final = ("districts", "upgrades", "forts", "large_forts", "small_forts", "land_areas", "coins")
_CONDITIONS: Final = ("holds_stored_food", "round_ge", "food_le", "forts_le")


def _per(state: GameState, data: GameData, faction: str, effect: Effect) -> int:
    counter = effect.counter("per")
    if counter is None:
        return 1
    side = data.map_for(state.players_count)
    player = state.players[faction]
    areas = controlled_areas(state, side, faction)
    counts = {
        "districts": sum(player.districts.values()),
        "upgrades": len(player.upgrades),
        "forts": fort_count(state, side, faction),
        "large_forts": sum(fort_of(state, side, a) == "large" for a in areas),
        "small_forts": sum(fort_of(state, side, a) == "small" for a in areas),
        "land_areas": sum(side.areas[a].land for a in areas),
        "coins": player.coins,
    }
    return counts[counter.name] // max(1, counter.per)


def _holds(state: GameState, data: GameData, faction: str, name: str, arg: object) -> bool:
    from adjudicator.rulesets.conqueror.state import food_supply

    player = state.players[faction]
    if name == "holds_stored_food":
        return player.stored_food != FOOD_NONE
    if name == "forts_le":  # ER-11.5's dynasty condition
        assert isinstance(arg, FortLimit)
        large, small = large_and_small_forts(state, data.map_for(state.players_count), faction)
        return large <= arg.large and small <= arg.small
    if name == "round_ge":
        return state.round >= int(arg)  # type: ignore[call-overload]
    return food_supply(state, data.map_for(state.players_count), faction) <= int(arg)  # type: ignore[call-overload]
