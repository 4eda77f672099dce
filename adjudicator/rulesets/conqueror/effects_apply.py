"""Applying effects of the ER-13.6 vocabulary outside battle: the ops that change holdings (coins, vp, food,
recruit, draw_tactic, look_hand) when their trigger comes, and the ops that are read where they matter (discount,
extra_agent_action, move_twice, forbid_attack, block_move, rerecruit, unit_flag, defence_bonus: effects_triggers.py
answers the questions the rules ask of them). The round's triggers (taxation, new_year, end_of_round, next_round,
game_end, on_food_le) are fired by effects_triggers.py; the plans step fires on_trade, on_build, preparation and
immediate; battle*.py applies the battle triggers. Besides the standing sources (ability, dynasty, elite,
chronicle), the built megaproject cards' effects (ER-12.8, ER-12.10) and the played cards' effects outside battle
(ER-8.14 reading, `played_cards`) are in force.

An effect this module cannot carry out (`manual`, a `who` or condition without meaning outside battle) is reported
as a `manual_effect` event for the moderator to apply by hand (ER-13.6: `manual`), never silently dropped.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Final

from adjudicator.engine.vocabulary import N_, Event, visible_to
from adjudicator.rulesets.conqueror.data import Chronicle, Effect, GameData
from adjudicator.rulesets.conqueror.state import (
    DYNASTY_ACTIVE,
    DYNASTY_FLIPPED,
    FOOD_NONE,
    STANDARD,
    Army,
    GameState,
    capital_owner,
    controlled_areas,
    food_limit,
    food_supply,
    fort_count,
    fort_of,
    large_and_small_forts,
    standard_units,
    units_of,
)
from adjudicator.rulesets.conqueror.vocabulary import FortLimit

CHANGING_OPS: Final = ("coins", "vp", "food", "draw_tactic", "recruit", "look_hand")
# ops read where they matter (effects_triggers.py, battle*.py): their trigger only reports them in force
READ_OPS: Final = (
    "discount",
    "extra_agent_action",
    "move_twice",
    "forbid_attack",
    "block_move",
    "rerecruit",
    "unit_flag",
    "defence_bonus",
    "unit_strength",
)
APPLIED_WHO: Final = ("self", "partner", "all")


def standing_effects(state: GameState, data: GameData, faction: str) -> list[tuple[str, Effect]]:
    """The effects in force for `faction` besides cards played: its board's ability (ER-9.1), its dynasty card
    (front while active ER-11.5, back once flipped ER-11.6), its elite's while recruited (ER-9.2) and the
    chronicle card of the round (ER-4.4.4). The
    chronicle applies to all players: each reads it for itself (its `who = all` is this faction), so that it is
    applied once per player, not once per player per player."""
    player = state.players[faction]
    key = (id(data), faction, player.board, player.dynasty, player.elite, state.decks.chronicle)
    kept = _STANDING.get(key)
    if kept is None or kept[0] is not data:
        kept = _STANDING[key] = (data, tuple(_fixed_effects(state, data, faction)))
        if len(_STANDING) > STANDING_KEPT:
            del _STANDING[next(iter(_STANDING))]
    return [*kept[1], *megaproject_effects(state, data, faction), *cards_in_force(data, player.in_force)]


# The part of standing_effects that the game's data, the faction's board, dynasty and elite and the round's
# chronicle decide: (id(data), faction, board, dynasty, elite, chronicle) -> (the data, the effects). The rules ask
# for it thousands of times a step (every price, move and check). Oldest first, bounded.
_STANDING: dict[tuple[int, str, str, str, str, str | None], tuple[GameData, tuple[tuple[str, Effect], ...]]] = {}
STANDING_KEPT = 256


def _fixed_effects(state: GameState, data: GameData, faction: str) -> list[tuple[str, Effect]]:
    player = state.players[faction]
    found = data.factions[faction]
    board = found.board(player.board) or found.standard
    effects = [(f"{faction} ability", e) for e in board.ability]
    if player.dynasty == DYNASTY_ACTIVE:
        effects += [(f"{faction} dynasty", e) for e in found.dynasty]
    elif player.dynasty == DYNASTY_FLIPPED:
        effects += [(f"{faction} dynasty", e) for e in found.dynasty_back]
    if player.elite == "recruited":  # the elite's effects outside battle, while it is on the map (ER-6.7)
        effects += [(f"{faction} elite", e) for e in board.elite.effects]
    chronicle = chronicle_in_force(state, data)
    if chronicle is not None:
        own = [replace(e, who="self") if e.who == "all" else e for e in chronicle.effects]
        effects += [(f"chronicle {chronicle.id}", e) for e in own]
    return effects


# -- megaproject cards (Seas of Destiny, ER-12.6 to ER-12.10) ----------------------------------------------------


def megaproject_effects(state: GameState, data: GameData, faction: str) -> list[tuple[str, Effect]]:
    """ER-12.8, ER-12.10: Data overrides the temple and port values: the effects of the megaproject cards
    `faction` has built are in force (taxation, on_trade, game_end, ...). A card without effects is paid by the
    options instead (seas.py: temple_coins, temple_vp, port_coins)."""
    if state.seas is None:
        return []
    cards = {card.id: card for card in data.cards.megaprojects}
    built = [cards[c] for c in state.seas.built.get(faction, {}) if c in cards]
    return [(f"megaproject {card.id}", effect) for card in built for effect in card.effects]


def megaprojects_of(state: GameState, data: GameData, faction: str, kind: str | None = None) -> int:
    """The megaproject cards of `kind` (wonder, temple, port; None: all) `faction` has built (ER-12.6)."""
    if state.seas is None:
        return 0
    types = {card.id: card.type for card in data.cards.megaprojects}
    return sum(1 for card in state.seas.built.get(faction, {}) if kind is None or types.get(card) == kind)


# -- cards' effects outside battle (ER-8.14, ER-13.6 duration) ---------------------------------------------------
# Reading: a hero or tactic card's effects come into force when the card is played, that is revealed in a battle
# (ER-8.14). Those with a battle trigger act in that battle (battle*.py); the others are recorded for the player
# they concern (`who`: self, the opposing principal, or all) and then read like any effect in force until their
# `duration` ends: `turn` with the campaign turn it was played in, `round` with the round, `game` never; `instant`
# ones are carried out at once. A face-down hero takes force only at its reveal: nothing is known before.
SPANS: Final = ("turn", "round", "game")


def lasting(effect: Effect) -> bool:
    """A `battle.after_win` read op with a span (a ban for the round): in force after the battle it was won."""
    return effect.op in READ_OPS and effect.duration in SPANS and effect.when.name == "battle.after_win"


def card_effects(data: GameData, card: str) -> tuple[Effect, ...]:
    """The effects of hero or tactic card `card` (none for an unknown id)."""
    found = next((c for c in (*data.cards.heroes, *data.cards.tactics) if c.id == card), None)
    return found.effects if found is not None else ()


def cards_in_force(data: GameData, entries: Iterable[str]) -> list[tuple[str, Effect]]:
    """The recorded card effects ("card:index:duration"), each for the player that holds the record: an effect
    for the opponent or for all was recorded on each player it concerns, so it reads as its own there."""
    found: list[tuple[str, Effect]] = []
    for entry in entries:
        card, index, _ = entry.rsplit(":", 2)
        effects = card_effects(data, card)
        if int(index) < len(effects):
            effect = effects[int(index)]
            found.append((f"card {card}", replace(effect, who="self") if effect.who in ("opponent", "all") else effect))
    return found


def played_cards(
    state: GameState, data: GameData, owner: str, opponent: str | None, cards: Iterable[str], after_win: bool
) -> list[Event]:
    """ER-8.14: the cards `owner` revealed in a battle against `opponent` (None: an independent army) bring their
    effects outside battle into force; `after_win`: the owner won, so its `battle.after_win` read ops with a
    span (a ban for the round, ER-13.6) are recorded too."""
    events: list[Event] = []
    for card in cards:
        for index, effect in enumerate(card_effects(data, card)):
            if effect.when.name.startswith("battle.") and not (lasting(effect) and after_win):
                continue
            # block_move is its owner's power; its `who` names whose armies it stops (ER-12.5)
            who = "self" if effect.op == "block_move" else effect.who
            for target in _card_targets(state, owner, opponent, who):
                events += _take_force(state, data, target, card, index, effect)
    return events


def _card_targets(state: GameState, owner: str, opponent: str | None, who: str) -> list[str]:
    if who == "opponent":
        return [opponent] if opponent in state.players else []
    if who == "all":
        return state.in_play()
    return [owner]  # self; side and partner have no meaning here: the effect reports itself when it fires


def _take_force(state: GameState, data: GameData, target: str, card: str, index: int, effect: Effect) -> list[Event]:
    """Carry out an `instant` effect now; record any other one for its span (once: a card played again renews
    it)."""
    source = f"card {card}"
    if effect.duration not in SPANS:
        own = replace(effect, who="self")
        return apply_effect(state, data, target, source, own, None)
    player = state.players[target]
    player.in_force = [e for e in player.in_force if not e.startswith(f"{card}:{index}:")]
    player.in_force.append(f"{card}:{index}:{effect.duration}")
    return [Event("effect_in_force", target, {"source": source, "op": effect.op, "duration": effect.duration})]


def expire(state: GameState, spans: Iterable[str]) -> None:
    """The recorded card effects whose span ended (`turn`: a campaign turn ended; `round`: the round)."""
    ended = tuple(spans)
    for player in state.players.values():
        player.in_force = [e for e in player.in_force if e.rsplit(":", 1)[1] not in ended]


def chronicle_in_force(state: GameState, data: GameData) -> Chronicle | None:
    """The chronicle card of this round (ER-4.4.4), if one is in force."""
    return next((c for c in data.cards.chronicles if c.id == state.decks.chronicle), None)


def apply_trigger(
    state: GameState,
    data: GameData,
    faction: str,
    trigger: str,
    sources: Iterable[tuple[str, Effect]],
    partner: str | None = None,
    income: int = 0,
) -> list[Event]:
    """Apply the effects of `sources` whose `when` is `trigger`, for `faction` (and its trade `partner`);
    `income`: this Taxation's income, for the counter `income/k` (ER-5.3)."""
    events: list[Event] = []
    for source, effect in sources:
        if effect.when.name == trigger:
            events += apply_effect(state, data, faction, source, effect, partner, income)
    return events


def apply_effect(
    state: GameState,
    data: GameData,
    faction: str,
    source: str,
    effect: Effect,
    partner: str | None,
    income: int = 0,
) -> list[Event]:
    targets = _targets(state, faction, effect.who, partner)
    problem = _unsupported(effect)
    if problem is not None:
        text = data.wording(effect.key, effect.text)
        return [Event("manual_effect", faction, {"source": source, "op": effect.op, "text": text, "why": problem})]
    if not all(holds(state, data, faction, condition.name, condition.value) for condition in effect.conditions):
        return []
    if effect.op in READ_OPS:  # read where it matters while its source is in force (effects_triggers.py)
        return []
    events: list[Event] = []
    for target in targets:
        events += _carry_out(state, data, target, source, effect, partner, income)
    return events


def _targets(state: GameState, faction: str, who: str, partner: str | None) -> list[str]:
    if who == "self":
        return [faction]
    if who == "partner":
        return [partner] if partner in state.players else []
    if who == "all":
        return state.in_play()
    return []


def _unsupported(effect: Effect) -> str | None:
    """Why the effect needs the moderator outside battle (None: it is applied or read)."""
    if effect.op == "manual":
        return N_("a manual effect")
    if effect.op not in (*CHANGING_OPS, *READ_OPS):
        return N_("op %(op)s has a meaning only in battle", op=effect.op)
    if effect.op in CHANGING_OPS and effect.who not in APPLIED_WHO:
        return N_("who = %(who)s names a battle's side or opponent", who=effect.who)
    if effect.op == "recruit" and str(effect.args["type"]) not in STANDARD:
        return N_("only standard units are recruited by an effect (ER-6.1)")
    if any(c.name not in CONDITIONS for c in effect.conditions):
        return N_("a condition that has a meaning only in battle")
    return None


def _carry_out(
    state: GameState, data: GameData, target: str, source: str, effect: Effect, partner: str | None, income: int
) -> list[Event]:
    if effect.op == "draw_tactic":
        return draw_tactics(state, data, target, source, effect.number("n"))
    if effect.op == "recruit":
        return recruit(state, data, target, source, effect)
    if effect.op == "look_hand":
        return look_hand(state, target, source, partner if effect.args["target"] == "partner" else None)
    player = state.players[target]
    n = effect.number("n") * count(state, data, target, effect, income)
    if effect.op == "coins":
        n = max(n, -player.coins)  # a loss takes at most what the player holds (ER-1.3: no debt)
        player.coins += n
        events = [Event("effect_applied", target, {"source": source, "op": effect.op, "n": n})]
        return events + gained_coins(state, data, target, n)
    if effect.op == "vp":
        player.vp += n
    else:  # food: for this round (ER-5.30: other effects); respect_limit keeps it within the food track
        n = food_change(state, data, target, n, bool(effect.args.get("respect_limit", True)))
        player.food_bonus += n
    return [Event("effect_applied", target, {"source": source, "op": effect.op, "n": n})]


def food_change(state: GameState, data: GameData, faction: str, n: int, respect_limit: bool) -> int:
    """ER-13.6 `respect_limit`: a gain stops at the food track's last entry (more food allows no more units)."""
    if not respect_limit or n <= 0:
        return n
    supply = food_supply(state, data.map_for(state.players_count), faction)
    return max(0, min(n, len(data.tracks.food) - 1 - supply))


def gained_coins(state: GameState, data: GameData, faction: str, coins: int) -> list[Event]:
    """ER-13.6 `on_gain_coins`: the effects that answer any coins gained; their own coins trigger nothing more
    (no recursion)."""
    if coins <= 0:
        return []
    events: list[Event] = []
    for source, effect in standing_effects(state, data, faction):
        if effect.when.name == "on_gain_coins" and effect.op == "coins":
            if all(holds(state, data, faction, c.name, c.value) for c in effect.conditions):
                state.players[faction].coins += effect.number("n")
                events.append(
                    Event("effect_applied", faction, {"source": source, "op": "coins", "n": effect.number("n")})
                )
        elif effect.when.name == "on_gain_coins":
            events += apply_effect(state, data, faction, source, effect, None)
    return events


def draw_tactics(state: GameState, data: GameData, faction: str, source: str, n: int) -> list[Event]:
    """The deck's top cards (its order is secret, ER-3.5); their names only to the drawer (ER-6.10)."""
    drawn = [state.decks.tactics.pop(0) for _ in range(min(n, len(state.decks.tactics)))]
    state.players[faction].hand += drawn
    names = [next(t.name for t in data.cards.tactics if t.id == card) for card in drawn]
    return [
        Event("effect_applied", faction, {"source": source, "op": "draw_tactic", "n": len(drawn)}),
        Event("tactic_drawn", faction, {"card": ", ".join(drawn), "name": ", ".join(names)}, visible_to([faction])),
    ]


def look_hand(state: GameState, looker: str, source: str, partner: str | None) -> list[Event]:
    """ER-13.6 `look_hand` (ER-5.9b): the partner's tactic hand and face-down heroes, to the looker only. Outside
    battle there is no opponent: only a trade partner's hand can be seen."""
    if partner is None or partner not in state.players:
        return [Event("effect_applied", looker, {"source": source, "op": "look_hand", "n": 0})]
    other = state.players[partner]
    seen = {"partner": partner, "hand": list(other.hand), "heroes": list(other.heroes_down)}
    return [Event("hand_seen", looker, seen, visible_to([looker]))]


# -- recruit (ER-13.6, ER-1.1, ER-5.31) --------------------------------------------------------------------------


def recruit(state: GameState, data: GameData, faction: str, source: str, effect: Effect) -> list[Event]:
    """`n` units of `type` from the barracks (ER-1.1) to `where`; with `respect_food` no more standard units than
    the food limit allows (ER-5.31); `cost` coins each, as far as the coins go. Nothing placeable: a note why."""
    kind, wanted, cost = str(effect.args["type"]), effect.number("n"), effect.number("cost")
    player = state.players[faction]
    board = data.factions[faction].board(player.board) or data.factions[faction].standard
    room = board.barracks.of(kind) - units_of(state, faction, kind)
    if effect.args.get("respect_food", True):
        room = min(room, food_limit(state, data, faction) - standard_units(state, faction))
    if cost > 0:
        room = min(room, player.coins // cost)
    area = recruit_site(state, data, faction, effect)
    n = max(0, min(wanted, room)) if area is not None else 0
    data_ = {"source": source, "op": "recruit", "n": n, "type": kind, "area": area or ""}
    if n == 0:
        why = N_("no site for it") if area is None else N_("no unit in the barracks, food or coins for it")
        return [Event("effect_applied", faction, {**data_, "why": why})]
    player.coins -= n * cost
    state.army.setdefault(area, Army(faction)).add(kind, n)  # type: ignore[arg-type]
    return [Event("effect_applied", faction, data_)]


def recruit_site(state: GameState, data: GameData, faction: str, effect: Effect) -> str | None:
    """Where the units go (`where`): an area the faction controls (ER-2.5) and whose army is its own (ER-2.4).
    A choice of several (ER-14.4's default): the one with most own units, then the lowest area id (as ER-14.5)."""
    side = data.map_for(state.players_count)
    place = effect.place("where")
    kind = place.kind if place is not None else "any_controlled"

    def fits(area: str) -> bool:
        army = state.army.get(area)
        if not side.areas[area].land or (army is not None and army.total and army.owner != faction):
            return False
        if kind == "capital":
            return capital_owner(state, side, area) == faction
        if kind == "large_fort":
            return fort_of(state, side, area) == "large"
        if kind == "fort":
            return fort_of(state, side, area) != "none"
        if kind == "area":
            return place is not None and area == place.area
        return True

    sites = [a for a in controlled_areas(state, side, faction) if fits(a)]
    if not sites:
        return None
    return min(sites, key=lambda a: (-(state.army[a].total if a in state.army else 0), a))


# -- counters (`per`) and conditions (`if`) read outside battle --------------------------------------------------

CONDITIONS: Final = ("holds_stored_food", "round_ge", "food_le", "forts_le", "own_capital")


def count(state: GameState, data: GameData, faction: str, effect: Effect, income: int = 0) -> int:
    """How many times an effect counts: 1, or its counter `per` (`name/k`: one per full k)."""
    counter = effect.counter("per")
    if counter is None:
        return 1
    return counted(state, data, faction, counter.name, income) // max(1, counter.per)


def counted(state: GameState, data: GameData, faction: str, name: str, income: int = 0) -> int:
    """The value of counter `name` for `faction` now (ER-13.6)."""
    side = data.map_for(state.players_count)
    player = state.players[faction]
    areas = controlled_areas(state, side, faction)
    if name == "income":
        return income
    if name == "coins":
        return player.coins
    if name == "districts":
        return sum(player.districts.values())
    if name == "upgrades":
        return len(player.upgrades)
    if name == "forts":
        return fort_count(state, side, faction)
    if name in ("large_forts", "small_forts"):
        return sum(fort_of(state, side, a) == name.split("_")[0] for a in areas)
    if name == "land_areas":
        return sum(side.areas[a].land for a in areas)
    if name == "capitals":
        return sum(side.areas[a].capital is not None for a in areas)
    if name in ("wonders", "temples", "ports"):  # Seas of Destiny (ER-12.6): 0 in a game without it
        return megaprojects_of(state, data, faction, name[:-1])
    if name == "megaprojects":  # every megaproject built: the cards and the wharf (ER-12.6)
        wharf = state.seas is not None and faction in state.seas.wharves
        return megaprojects_of(state, data, faction) + (1 if wharf else 0)
    return 0  # casualties_inflicted: battle only (battle_losses.py)


def holds(state: GameState, data: GameData, faction: str, name: str, arg: object) -> bool:
    """Whether condition `name(arg)` holds for `faction` now (the conditions of CONDITIONS)."""
    side = data.map_for(state.players_count)
    player = state.players[faction]
    if name == "holds_stored_food":
        return player.stored_food != FOOD_NONE
    if name == "forts_le":  # ER-11.5's dynasty condition
        assert isinstance(arg, FortLimit)
        large, small = large_and_small_forts(state, side, faction)
        return large <= arg.large and small <= arg.small
    if name == "round_ge":
        return state.round >= int(arg)  # type: ignore[call-overload]
    if name == "own_capital":
        return any(side.areas[a].capital == faction for a in controlled_areas(state, side, faction))
    return food_supply(state, side, faction) <= int(arg)  # type: ignore[call-overload]
