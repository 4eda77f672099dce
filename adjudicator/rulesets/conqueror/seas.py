"""Seas of Destiny (section 12), the optional module (ER-0.8): set with `pbem new ... --option
seas_of_destiny=true`. Without it every order of the module is refused naming ER-0.8, and the state has no
`seas` part.

What the module adds, and where:
- setup (ER-3.12): N megaproject cards of each type (wonders highest first, the 7-VP ones removed until N remain,
  ER-12.1), N wharf markers, 2 ships and 2 siege engines in each barracks (ER-12.2, state.SEAS_BARRACKS);
- Politics' fourth agent action (ER-5.24, ER-12.6 to ER-12.10): a wonder, temple or port card on a free district
  or upgrade slot, or a wharf with its 2 ships; ports pay when the agent goes to the trade board (ER-5.11);
- Preparation: siege engines, 4 coins each, in a controlled large fort, besides the fort's production
  (ER-12.16), never again once eliminated (ER-12.18);
- Taxation: the temples' coins (ER-12.8); final scoring: wonders (ER-12.7), temples (ER-12.8), and each card as
  a district or an upgrade by its slot (ER-12.6);
- the battle reads whose wharf an area holds (ER-12.14: the marker stays when the area is taken; it is the
  owner's wharf again only while the owner controls the area) and the ships on it (ER-12.13, ER-15.19).

Megaproject agent spaces are named `megaproject:<kind>:<1|2>` (Player.agent)."""

from __future__ import annotations

from typing import Final

from adjudicator.engine.vocabulary import N_, Event
from adjudicator.rulesets.conqueror.data import GameData, MapSide, Options
from adjudicator.rulesets.conqueror.effects_apply import apply_trigger, megaprojects_of, standing_effects
from adjudicator.rulesets.conqueror.effects_triggers import discount  # ER-13.6: an effect's discount
from adjudicator.rulesets.conqueror.orders import Megaproject
from adjudicator.rulesets.conqueror.politics import Refused, Taken, free_slots, free_space, pick_site, surcharge
from adjudicator.rulesets.conqueror.state import (
    INDEPENDENT,
    SEAS_BARRACKS,
    Army,
    GameState,
    Player,
    Seas,
    controller,
    fort_of,
)

# The ER-12.18 refusal's text in archives made before it cited ER-12.2: marked so that it still translates.
FORMER_SIEGE_REFUSAL: Final = N_("%(faction)s has %(left)s siege engines left; an eliminated one is out of the game")
WONDER_VP: Final = (15, 11, 9)  # ER-12.7: the first, second and third wonder built in the game
LATER_WONDER_VP: Final = 7  # ER-12.7's Resolution ("47" read as 7)
SIEGE_COST: Final = 4  # ER-12.16
SLOTS: Final = ("district", "upgrade")  # ER-12.6
DEFAULTS: Final = Options()


def require(state: GameState, refusal: str) -> Seas:
    """The module's pieces, or `refusal` naming ER-0.8 (what a game without it cannot have)."""
    if state.seas is None:
        raise Refused("ER-0.8", refusal)
    return state.seas


def _option(state: GameState, name: str) -> int:
    """A value of ER-13.5 as set at `pbem new` (state.options), else the spec's Resolution."""
    value = state.options.get(name, getattr(DEFAULTS, name))
    assert isinstance(value, int), f"option {name}: {value!r}"
    return value


# -- setup (ER-3.12, ER-12.1, ER-12.2) ----------------------------------------------------------------------------


def new_seas(data: GameData, players: int) -> Seas:
    """ER-12.1: N cards of each type (wonders highest first: removing the 7-VP cards until N remain leaves the N
    highest) and N wharf markers. Temples and ports are alike: the first N of the data."""
    wonders = sorted((c for c in data.cards.megaprojects if c.type == "wonder"), key=lambda c: -c.vp)
    cards = [card.id for card in wonders[:players]]
    for kind in ("temple", "port"):
        cards += [card.id for card in data.cards.megaprojects if card.type == kind][:players]
    return Seas(cards=cards, wharf_markers=players)


# -- slots (ER-12.6, ER-5.13, ER-5.20) ------------------------------------------------------------------------------


def _slot(state: GameState, data: GameData, faction: str, wanted: str | None) -> str:
    """ER-12.6: the slot the order names; none named: a free district slot, else a free upgrade slot."""
    for slot in (wanted,) if wanted else SLOTS:
        if free_slots(state, data, faction, slot) > 0:
            return slot
    if wanted:
        raise Refused("ER-12.6", N_("no free %(wanted)s slot on the player board", wanted=wanted))
    raise Refused("ER-12.6", N_("no free district or upgrade slot on the player board"))


# -- the fourth agent action (ER-5.24, ER-12.6 to ER-12.10) -------------------------------------------------------


def megaproject_price(player: Player, data: GameData, kind: str, space: str) -> int:
    """ER-12.6 as ER-5.16: the price of this player's nth build of `kind`, +2 on the second space, -1 with the
    trade discount (ER-5.9a); never below 0."""
    prices = data.tracks.megaprojects[kind]
    price = prices[min(player.builds.get(kind, 0), len(prices) - 1)] + surcharge(space)
    return max(0, price - (1 if player.discount else 0))


def build(state: GameState, data: GameData, faction: str, choice: Megaproject, first: str | None) -> Taken:
    """ER-12.6: a wonder, temple or port card, or a wharf (ER-12.9)."""
    if choice.kind == "wharf":
        return _wharf(state, data, faction, choice, first)
    seas = require(state, N_("megaprojects belong to Seas of Destiny, which this game does not use"))
    player = state.players[faction]
    space = free_space(state, faction, f"megaproject:{choice.kind}", choice.space, first)
    slot = _slot(state, data, faction, choice.slot)
    price = max(0, megaproject_price(player, data, choice.kind, space) - discount(state, data, faction, "megaproject"))
    if player.coins < price:
        raise Refused(
            "ER-12.6",
            N_(
                "the %(kind)s costs %(price)s coins and %(faction)s holds %(coins)s",
                kind=choice.kind,
                price=price,
                faction=faction,
                coins=player.coins,
            ),
        )
    types = {card.id: card.type for card in data.cards.megaprojects}
    card = next((c for c in seas.cards if types.get(c) == choice.kind), None)  # wonders highest first (ER-12.7)
    if card is None:
        raise Refused("ER-12.6", N_("no %(kind)s card is left in the supply", kind=choice.kind))
    player.coins -= price
    player.builds[choice.kind] = player.builds.get(choice.kind, 0) + 1
    seas.cards.remove(card)
    seas.built.setdefault(faction, {})[card] = slot
    if choice.kind == "wonder":
        seas.wonders.append(card)
    built = {"kind": choice.kind, "card": card, "slot": slot, "price": price, "space": int(space[-1])}
    events = [Event("megaproject_built", faction, built)]
    events += apply_trigger(state, data, faction, "on_build", standing_effects(state, data, faction))
    return Taken(space, events)


def _wharf(state: GameState, data: GameData, faction: str, choice: Megaproject, first: str | None) -> Taken:
    """ER-12.6, ER-12.9: one wharf per player, no slot; its marker on a controlled coastal land area and the
    player's 2 ships into an adjacent sea area (or onto the wharf)."""
    seas = require(state, N_("wharves belong to Seas of Destiny, which this game does not use"))
    player = state.players[faction]
    space = free_space(state, faction, "megaproject:wharf", choice.space, first)
    if faction in seas.wharves:
        raise Refused("ER-12.6", N_("%(faction)s already has a wharf, and a player has at most one", faction=faction))
    if seas.wharf_markers <= 0:
        raise Refused("ER-12.1", N_("no wharf marker is left in the supply"))
    side = data.map_for(state.players_count)
    site = _wharf_site(state, side, faction, choice.site)
    ships_at = _ships_site(state, side, faction, site, choice.ships_at)
    price = max(0, megaproject_price(player, data, "wharf", space) - discount(state, data, faction, "megaproject"))
    if player.coins < price:
        raise Refused(
            "ER-12.6",
            N_(
                "the wharf costs %(price)s coins and %(faction)s holds %(coins)s",
                price=price,
                faction=faction,
                coins=player.coins,
            ),
        )
    player.coins -= price
    player.builds["wharf"] = player.builds.get("wharf", 0) + 1
    seas.wharf_markers -= 1
    seas.wharves[faction] = site
    ships = SEAS_BARRACKS["ship"]  # ER-12.2: the barracks' 2 ships; an eliminated ship is out (ER-12.14)
    army = state.army.setdefault(ships_at, Army(faction))
    army.add("ship", ships)
    placed = {"site": site, "ships": ships, "ships_at": ships_at, "price": price, "space": int(space[-1])}
    events = [Event("wharf_built", faction, placed)]
    events += apply_trigger(state, data, faction, "on_build", standing_effects(state, data, faction))
    return Taken(space, events)


def _wharf_site(state: GameState, side: MapSide, faction: str, wanted: str | None) -> str:
    """ER-12.9: a land area the player controls, coastal for wharves (a river does not count; Data), with no
    wharf marker yet; none named: the lowest area id."""
    taken = set(state.seas.wharves.values()) if state.seas is not None else set()

    def fits(area: str) -> bool:
        coastal = side.areas[area].land and side.areas[area].wharf_site
        return coastal and controller(state, side, area) == faction and area not in taken

    unfit = N_(
        "%(wanted)s is not a coastal land area %(faction)s controls without a wharf", wanted=wanted, faction=faction
    )
    return pick_site(side, wanted, fits, "ER-12.9", unfit, N_("no controlled coastal land area without a wharf"))


def _enemy_held(state: GameState, area: str, faction: str) -> bool:
    army = state.army.get(area)
    return army is not None and army.total > 0 and army.owner != faction


def _ships_site(state: GameState, side: MapSide, faction: str, site: str, wanted: str | None) -> str:
    """ER-12.9 and its Resolution: the sea area next to the wharf the player names (an enemy-held one only if
    every adjacent sea area is enemy-held, and then the ships go on the wharf); none named: the lowest free
    one, else the wharf itself."""
    seas = sorted(a for a in side.board.neighbours(site) if not side.areas[a].land)
    free = [a for a in seas if not _enemy_held(state, a, faction)]
    if wanted is None:
        return free[0] if free else site
    if wanted not in seas:
        raise Refused(
            "ER-12.9", N_("%(wanted)s is no sea area next to the wharf in %(site)s", wanted=wanted, site=site)
        )
    if _enemy_held(state, wanted, faction):
        if free:
            raise Refused(
                "ER-12.9",
                N_("%(wanted)s holds enemy units while %(free)s does not", wanted=wanted, free=", ".join(free)),
            )
        return site  # ER-12.9: the ships go on the wharf instead
    return wanted


def wharf_of(state: GameState, side: MapSide, area: str) -> str | None:
    """ER-12.14: whose wharf `area` holds: the marker's owner, only while it controls the area."""
    if state.seas is None:
        return None
    owner = next((f for f, site in state.seas.wharves.items() if site == area), None)
    return owner if owner is not None and controller(state, side, area) == owner else None


def wharf_ships(state: GameState, side: MapSide, area: str) -> dict[str, int]:
    """ER-12.13, ER-15.19: ships on a wharf in land `area` (they take no part in its land battle), by owner."""
    army = state.army.get(area)
    if army is None or not side.areas[area].land or army.count("ship") == 0 or army.owner == INDEPENDENT:
        return {}
    return {army.owner: army.count("ship")}


# -- income and scoring (ER-5.11, ER-12.7, ER-12.8, ER-12.10) -----------------------------------------------------


def cards_of_type(state: GameState, data: GameData, faction: str, kind: str) -> int:
    """How many megaproject cards of `kind` (wonder, temple, port) `faction` has built."""
    return megaprojects_of(state, data, faction, kind)


def by_option(state: GameState, data: GameData, faction: str, kind: str) -> int:
    """ER-12.8, ER-12.10: the temples or ports of `faction` paid by the options: those whose card has no effects
    (Data overrides: a card with effects acts through them, effects_apply.megaproject_effects)."""
    if state.seas is None:
        return 0
    plain = {card.id for card in data.cards.megaprojects if card.type == kind and not card.effects}
    return sum(1 for card in state.seas.built.get(faction, {}) if card in plain)


def port_income(state: GameState, data: GameData, faction: str) -> list[Event]:
    """ER-5.11, ER-12.10: each port of the player adds coins when its agent goes on the trade board (a port card
    with effects pays by them, its `on_trade` trigger: politics.trade)."""
    ports = by_option(state, data, faction, "port")
    if not ports:
        return []
    coins = ports * _option(state, "port_coins")
    state.players[faction].coins += coins
    return [Event("port_income", faction, {"ports": ports, "coins": coins, "rule": "ER-12.10"})]


def temple_income(state: GameState, data: GameData, faction: str) -> int:
    """ER-12.8 (its Resolution: coins; option temple_coins): each temple's coins in Taxation (a temple card with
    effects pays by them instead: its `taxation` effects, effects_triggers.taxation)."""
    return by_option(state, data, faction, "temple") * _option(state, "temple_coins")


def wonder_vp(order: int) -> int:
    """ER-12.7: the VP of the wonder built `order`-th in the game (0 first)."""
    return WONDER_VP[order] if order < len(WONDER_VP) else LATER_WONDER_VP


def megaproject_vp(state: GameState, data: GameData, faction: str) -> int:
    """ER-12.7, ER-12.8: the VP of `faction`'s wonders (by the order built in the game) and temples (option
    temple_vp) at game end. The slot a card takes counts as a district or an upgrade (cards_on, ER-12.6)."""
    if state.seas is None:
        return 0
    mine = state.seas.built.get(faction, {})
    wonders = sum(wonder_vp(order) for order, card in enumerate(state.seas.wonders) if card in mine)
    return wonders + by_option(state, data, faction, "temple") * _option(state, "temple_vp")


# -- siege engines (ER-12.16 to ER-12.18) ---------------------------------------------------------------------------


def check_siege(state: GameState, data: GameData, faction: str, area: str, count: int) -> int:
    """ER-12.16, ER-12.18: whether `count` siege engines may be recruited in `area` now; their price."""
    seas = require(state, N_("siege engines belong to Seas of Destiny, which this game does not use"))
    side = data.map_for(state.players_count)
    if controller(state, side, area) != faction or fort_of(state, side, area) != "large":
        raise Refused(
            "ER-12.16",
            N_(
                "siege engines go in a large fort %(faction)s controls; %(area)s is not one", faction=faction, area=area
            ),
        )
    left = SEAS_BARRACKS["siege"] - seas.siege_recruited.get(faction, 0)
    if count > left:
        raise Refused(  # the barracks' 2 are all there is (ER-12.2): none comes back once eliminated (ER-12.18)
            "ER-12.2",
            N_(
                "each barracks holds %(limit)s siege engines and %(faction)s has %(left)s left; an eliminated one is "
                "out of the game",
                limit=SEAS_BARRACKS["siege"],
                faction=faction,
                left=left,
            ),
        )
    price, coins = SIEGE_COST * count, state.players[faction].coins
    if coins < price:
        raise Refused(
            "ER-12.16",
            N_(
                "%(count)s siege engines cost %(price)s coins and %(faction)s holds %(coins)s",
                count=count,
                price=price,
                faction=faction,
                coins=coins,
            ),
        )
    return price


def recruit_siege(state: GameState, data: GameData, faction: str, area: str, count: int) -> list[Event]:
    """ER-12.16: pay and place the siege engines checked by `check_siege`; they do not count against food."""
    price = check_siege(state, data, faction, area, count)
    assert state.seas is not None
    state.players[faction].coins -= price
    state.seas.siege_recruited[faction] = state.seas.siege_recruited.get(faction, 0) + count
    state.army.setdefault(area, Army(faction)).add("siege", count)
    return [Event("siege_recruited", faction, {"area": area, "count": count, "price": price})]
