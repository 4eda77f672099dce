"""Preparation (ER-6, with the food rules ER-5.32 and ER-5.33), resolved seat by seat in turn order (ER-4.3).

For each seat: a stored-food marker it uses (ER-5.33) counts first (ER-6.2's Resolution); then the excess over the
food limit leaves (ER-6.2: its EXCESS priority, else ER-14.8's archers, infantry, cavalry); then its recruitment
orders in the order written (ER-6.1: standard units per fort ER-6.3 to ER-6.6, the elite ER-6.7, heroes ER-6.10
to ER-6.12, with Seas of Destiny siege engines ER-12.16); last, food is stored if it may be and the seat did not
say FOOD NO STORE (ER-5.32, ER-14.9).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Final

from adjudicator.engine.vocabulary import N_, Event, OrderResult, visible_to
from adjudicator.orders.keywords import written
from adjudicator.rulesets.conqueror import seas
from adjudicator.rulesets.conqueror.data import GameData
from adjudicator.rulesets.conqueror.effects_apply import apply_trigger, standing_effects
from adjudicator.rulesets.conqueror.effects_triggers import discount, rerecruit
from adjudicator.rulesets.conqueror.orders import (
    LOSS_KEYWORDS,
    Food,
    LossPriority,
    RecruitElite,
    RecruitHero,
    RecruitUnits,
    canonical,
)
from adjudicator.rulesets.conqueror.politics import Refused, board_of
from adjudicator.rulesets.conqueror.state import (
    FOOD_HELD,
    FOOD_IN_USE,
    FOOD_NONE,
    STANDARD,
    Army,
    GameState,
    controller,
    food_limit,
    food_supply,
    fort_of,
    standard_units,
    units_of,
)

EXCESS_DEFAULT: Final = ("archer", "infantry", "cavalry")  # ER-14.8
HERO_ACADEMY_DISCOUNT: Final = 2  # ER-5.15
STORE_MARGIN: Final = 2  # ER-5.32


def play_preparation(
    state: GameState,
    data: GameData,
    given: dict[str, Sequence[object]],
    results: dict[str, list[OrderResult]],
    last: str | None = None,
) -> list[Event]:
    """Each seat in play prepares in turn order (ER-6); with `last`, none after that seat."""
    events: list[Event] = []
    for faction in state.in_play():
        events += prepare(state, data, faction, given.get(faction, ()), results.setdefault(faction, []))
        if faction == last:
            break
    return events


def prepare(
    state: GameState, data: GameData, faction: str, orders: Sequence[object], results: list[OrderResult]
) -> list[Event]:
    """One seat's Preparation, in the order of the module docstring."""
    events: list[Event] = []
    food = [o for o in orders if isinstance(o, Food)]
    for order in (o for o in food if o.action == "use"):
        events += _use_food(state, faction, order, results)
    events += remove_excess(state, data, faction, _excess_priority(state, faction, orders))
    # the `preparation` effects recruit too: after ER-6.2's check, or a unit beyond food would leave at once
    events += apply_trigger(state, data, faction, "preparation", standing_effects(state, data, faction))
    used: set[str] = set()  # ER-6.3: each fort produces once per Preparation
    lines = [getattr(o, "line", 0) for o in orders if isinstance(o, (RecruitUnits, RecruitElite, RecruitHero))]
    for order in orders:
        # an item of a line of several (RECRUIT 2 INF AT AUR, HERO aurel-2) is named in its verdict
        text = canonical(order) if lines.count(getattr(order, "line", 0)) > 1 else getattr(order, "text", "")
        try:
            if isinstance(order, RecruitUnits):
                events += recruit_units(state, data, faction, order, used)
            elif isinstance(order, RecruitElite):
                events += recruit_elite(state, data, faction, order.area)
            elif isinstance(order, RecruitHero):
                events += recruit_hero(state, data, faction, order.hero)
            else:
                continue
        except Refused as refused:
            results.append(OrderResult(order.line, text, False, refused.reason, refused.rule))  # type: ignore[attr-defined]
            continue
        results.append(OrderResult(order.line, text, True))  # type: ignore[attr-defined]
    stores, refusals = [o for o in food if o.action == "store"], [o for o in food if o.action == "no_store"]
    events += _store_food(state, data, faction, stores, refusals, results)
    return events


# -- food (ER-5.32, ER-5.33) ---------------------------------------------------------------------------------------


def _use_food(state: GameState, faction: str, order: Food, results: list[OrderResult]) -> list[Event]:
    player = state.players[faction]
    if player.stored_food != FOOD_HELD:
        results.append(
            OrderResult(
                order.line, order.text, False, N_("%(faction)s holds no stored-food marker", faction=faction), "ER-5.33"
            )
        )
        return []
    player.stored_food = FOOD_IN_USE  # +1 food supply this round; the marker returns at its end (ER-4.6)
    results.append(OrderResult(order.line, order.text, True, N_("food supply +1 this round (ER-5.33)")))
    return [Event("stored_food_used", faction, {})]


def food_needed(state: GameState, data: GameData, faction: str) -> int:
    """ER-5.32: the smallest food supply whose track entry allows the seat's current standard units."""
    units = standard_units(state, faction)
    return next((food for food, allowed in enumerate(data.tracks.food) if allowed >= units), len(data.tracks.food))


def may_store_food(state: GameState, data: GameData, faction: str) -> str | None:
    """Why `faction` may not take a stored-food marker now (None: it may), ER-5.32."""
    player = state.players[faction]
    if player.stored_food != FOOD_NONE:
        return N_("it already holds a stored-food marker (at most one)")
    if state.supply.food_markers <= 0:
        return N_("no stored-food marker is left in the supply")
    supply, needed = food_supply(state, data.map_for(state.players_count), faction), food_needed(state, data, faction)
    if supply - needed < STORE_MARGIN:
        return N_(
            "its food supply %(supply)s does not exceed the %(needed)s its units need by %(margin)s",
            supply=supply,
            needed=needed,
            margin=STORE_MARGIN,
        )
    return None


def _store_food(
    state: GameState, data: GameData, faction: str, asked: list[Food], refusals: list[Food], results: list[OrderResult]
) -> list[Event]:
    """ER-5.32 after the seat's recruiting (its Resolution); ER-14.9: stored if allowed unless refused."""
    reason = may_store_food(state, data, faction)
    for order in asked:
        if reason is None:
            results.append(OrderResult(order.line, order.text, True))
        else:
            results.append(OrderResult(order.line, order.text, False, reason, "ER-5.32"))
    kept = N_("no stored-food marker is taken this round (ER-5.32)")
    results += [OrderResult(order.line, order.text, True, kept) for order in refusals]
    if refusals or reason is not None:
        return []
    state.players[faction].stored_food = FOOD_HELD
    state.supply.food_markers -= 1
    return [Event("food_stored", faction, {})]


# -- excess units (ER-6.2, ER-14.8) ---------------------------------------------------------------------------------


def _excess_priority(state: GameState, faction: str, orders: Sequence[object]) -> tuple[str, ...]:
    """The EXCESS priority sent now, else the seat's standing one; the kinds not named follow ER-14.8's order."""
    sent = next((o.kinds for o in orders if isinstance(o, LossPriority) and o.scope == "excess"), None)
    if sent is None:
        sent = stored_kinds(state.players[faction].standing.get("EXCESS", ""))
    return tuple(sent) + tuple(k for k in EXCESS_DEFAULT if k not in sent)


def stored_kinds(line: str) -> tuple[str, ...]:
    """The kinds of a stored priority line ("EXCESS CAV, ARC": canonical English, plans.py)."""
    words = {written("en", LOSS_KEYWORDS[kind]).casefold(): kind for kind in STANDARD}
    _, _, rest = line.partition(" ")
    return tuple(words[w.strip().casefold()] for w in rest.split(",") if w.strip().casefold() in words)


def remove_excess(state: GameState, data: GameData, faction: str, priority: tuple[str, ...]) -> list[Event]:
    """ER-6.2: units over the food limit go back to the barracks, by `priority`, each from the area holding most
    of that kind (then the lowest area code)."""
    excess = standard_units(state, faction) - food_limit(state, data, faction)
    removed: dict[str, int] = {}
    for kind in priority:
        while excess > 0 and units_of(state, faction, kind) > 0:
            area = min(
                (a for a, army in state.army.items() if army.owner == faction and army.count(kind) > 0),
                key=lambda a: (-state.army[a].count(kind), a),
            )
            _take(state, area, kind)
            removed[kind] = removed.get(kind, 0) + 1
            excess -= 1
    return [Event("excess_removed", faction, {"units": removed})] if removed else []


def _take(state: GameState, area: str, kind: str) -> None:
    army = state.army[area]
    army.add(kind, -1)  # Army.add keeps the exhausted ones within the units left (ER-7.2, ER-15.3)
    if army.total == 0:
        del state.army[area]


def _place(state: GameState, faction: str, area: str, kind: str, count: int) -> None:
    army = state.army.setdefault(area, Army(faction))
    army.add(kind, count)


# -- recruitment (ER-6.3 to ER-6.12) --------------------------------------------------------------------------------


def recruit_units(state: GameState, data: GameData, faction: str, order: RecruitUnits, used: set[str]) -> list[Event]:
    """ER-6.3 to ER-6.6: the units one fort produces, placed in its area; siege engines named in the same order
    come besides that production (ER-12.16, seas.py): all of the order is taken, or none of it."""
    side = data.map_for(state.players_count)
    area, troops = order.area, order.troops
    if area not in side.areas:
        raise Refused("ER-2.1", N_("%(area)s is no area of the %(side)s board", area=area, side=side.side))
    if troops.siege:
        seas.check_siege(state, data, faction, area, troops.siege)
        if troops.cavalry + troops.infantry + troops.archer == 0:
            return seas.recruit_siege(state, data, faction, area, troops.siege)
        standard = recruit_units(state, data, faction, replace(order, troops=replace(troops, siege=0)), used)
        return standard + seas.recruit_siege(state, data, faction, area, troops.siege)
    if controller(state, side, area) != faction:
        raise Refused("ER-6.3", N_("%(faction)s does not control %(area)s", faction=faction, area=area))
    fort = "large" if state.players[faction].temporary_capital == area else fort_of(state, side, area)  # ER-11.2
    if fort == "none":
        raise Refused("ER-6.3", N_("%(area)s has no fort", area=area))
    if area in used:
        raise Refused("ER-6.3", N_("the fort in %(area)s has already produced units this Preparation", area=area))
    problem = _mix_problem(fort, troops.cavalry, troops.infantry + troops.archer)
    if problem:
        raise Refused("ER-6.3", problem)
    board = board_of(state, data, faction)
    for kind in STANDARD:
        wanted = troops.of(kind)
        left = board.barracks.of(kind) - units_of(state, faction, kind)
        if wanted > left:
            raise Refused("ER-6.4", N_("only %(left)s %(kind)s left in the barracks", left=left, kind=kind))
    count = troops.cavalry + troops.infantry + troops.archer
    limit = food_limit(state, data, faction)
    if standard_units(state, faction) + count > limit:
        have = standard_units(state, faction)
        raise Refused(
            "ER-6.5",
            N_(
                "the food supply allows %(limit)s standard units and %(faction)s has %(have)s",
                limit=limit,
                faction=faction,
                have=have,
            ),
        )
    used.add(area)
    for kind in STANDARD:
        if troops.of(kind):
            _place(state, faction, area, kind, troops.of(kind))
    units = {kind: troops.of(kind) for kind in STANDARD if troops.of(kind)}
    return [Event("units_recruited", faction, {"area": area, "units": units})]


def _mix_problem(fort: str, cavalry: int, foot: int) -> str | None:
    """ER-6.3: a large fort makes 1 cavalry or up to 2 infantry/archers; a small fort 1 infantry or archer."""
    if fort == "large":
        if (cavalry == 1 and foot == 0) or (cavalry == 0 and 1 <= foot <= 2):
            return None
        return N_("a large fort produces 1 cavalry, or 2 units that are infantry or archers")
    if cavalry == 0 and foot == 1:
        return None
    return N_("a small fort produces 1 infantry or 1 archer")


def recruit_elite(state: GameState, data: GameData, faction: str, wanted: str | None) -> list[Event]:
    """ER-6.7, ER-6.9: the elite unit, in the capital, else in a controlled area (the temporary capital too)."""
    player = state.players[faction]
    side = data.map_for(state.players_count)
    academy = player.districts.get("academy", 0) > 0
    if player.elite == "recruited":
        raise Refused("ER-1.2", N_("%(faction)s's elite unit is already on the map", faction=faction))
    if player.elite == "lost" and not academy and not rerecruit(state, data, faction, "elite"):
        raise Refused("ER-6.9", N_("an eliminated elite unit comes back only with an Academy"))
    cost = max(0, board_of(state, data, faction).elite.cost - discount(state, data, faction, "elite"))
    if player.coins < cost:
        raise Refused(
            "ER-6.7",
            N_(
                "the elite unit costs %(cost)s coins and %(faction)s holds %(coins)s",
                cost=cost,
                faction=faction,
                coins=player.coins,
            ),
        )
    capital = side.capital_of(faction)
    if capital is not None and controller(state, side, capital) == faction:
        area = capital
    else:
        own = sorted(a for a in side.areas if side.areas[a].land and controller(state, side, a) == faction)
        if wanted is not None and wanted not in own:
            raise Refused("ER-6.7", N_("%(faction)s does not control %(wanted)s", faction=faction, wanted=wanted))
        if not own:
            raise Refused("ER-6.7", N_("%(faction)s controls no land area to place its elite unit in", faction=faction))
        area = wanted or own[0]
    player.coins -= cost
    player.elite = "recruited"
    _place(state, faction, area, "elite", 1)
    return [Event("elite_recruited", faction, {"area": area, "cost": cost})]


def hero_price(state: GameState, data: GameData, faction: str, hero: str) -> int:
    """ER-6.10 and ER-5.15: the card's cost, 2 less with an Academy (never below 0)."""
    cost = next(h.cost for h in data.cards.heroes if h.id == hero)
    academy = state.players[faction].districts.get("academy", 0) > 0
    return max(0, cost - (HERO_ACADEMY_DISCOUNT if academy else 0) - discount(state, data, faction, "hero"))


def recruit_hero(state: GameState, data: GameData, faction: str, hero: str) -> list[Event]:
    """ER-6.10 to ER-6.12: a hero of the seat's faction, held face down (its name only in the seat's report)."""
    player = state.players[faction]
    card = next((h for h in data.cards.heroes if h.id == hero), None)
    if card is None or card.faction != faction:
        raise Refused("ER-6.10", N_("the hero is not one of %(faction)s's", faction=faction))
    if hero in player.heroes_down or hero in player.heroes_up:
        raise Refused("ER-6.10", N_("that hero is already recruited"))
    own = [h.id for h in data.cards.heroes if h.faction == faction]
    if hero in player.heroes_discarded:
        if player.districts.get("academy", 0) == 0 and not rerecruit(state, data, faction, "heroes"):
            raise Refused("ER-6.12", N_("a discarded hero comes back only with an Academy"))
        if len(player.heroes_discarded) < len(own):
            raise Refused("ER-6.12", N_("a discarded hero comes back only when all the faction's heroes are discarded"))
    price = hero_price(state, data, faction, hero)
    if player.coins < price:
        raise Refused(
            "ER-6.10",
            N_(
                "the hero costs %(price)s coins and %(faction)s holds %(coins)s",
                price=price,
                faction=faction,
                coins=player.coins,
            ),
        )
    player.coins -= price
    if hero in player.heroes_discarded:
        player.heroes_discarded.remove(hero)
    player.heroes_down.append(hero)
    named = {"hero": hero, "name": card.name, "price": price}
    return [
        Event("hero_recruited", faction, {"price": price, "held": len(player.heroes_down)}),  # ER-6.10: a count only
        Event("hero_recruited_private", faction, named, visible_to([faction])),
    ]
