"""Politics (ER-5.4 to ER-5.24): one agent action per player in turn order, then the extra actions of ER-5.6.

By mail (ER-14.6) each seat sends its agent action with fall-backs: "AGENT TRADE WITH kesh ELSE
GRANARY ELSE UPGRADE CAVALRY". When the seat's turn comes, the first alternative that is legal then is taken;
every alternative refused before it gets its reason with the rule ID. None legal, or none sent: a pass (ER-5.4's
Resolution: the agent stays home).

Agent spaces are named `trade:<partner>`, `district:<kind>:<1|2>`, `upgrade:<type>:<1|2>` and, with Seas of
Destiny, `megaproject:<kind>:<1|2>` (Player.agent; the fourth action is seas.py's, ER-5.24).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from adjudicator.engine.vocabulary import N_, Event, OrderResult, visible_to
from adjudicator.rulesets.conqueror.data import GameData, MapSide, PlayerBoard
from adjudicator.rulesets.conqueror.effects_apply import apply_trigger, standing_effects
from adjudicator.rulesets.conqueror.effects_triggers import discount, extra_action, gained
from adjudicator.rulesets.conqueror.orders import (
    INDEPENDENTS,
    UPGRADE_CARDS,
    AgentAction,
    AgentChoice,
    Build,
    Megaproject,
    Trade,
)
from adjudicator.rulesets.conqueror.orders import Upgrade as UpgradeOrder
from adjudicator.rulesets.conqueror.state import GameState, Player, controller, fort_of

SECOND_SPACE_SURCHARGE: Final = 2  # ER-5.12, ER-5.19
MAX_UPGRADES: Final = 4  # ER-5.23


class Refused(Exception):
    """An alternative that cannot be taken now: the reason and the rule."""

    def __init__(self, rule: str, reason: str) -> None:
        super().__init__(reason)
        self.rule, self.reason = rule, reason


@dataclass
class Taken:
    """An alternative that can be taken: the agent space it uses, and how to carry it out."""

    space: str
    events: list[Event]


def board_of(state: GameState, data: GameData, faction: str) -> PlayerBoard:
    player = state.players[faction]
    return data.factions[faction].board(player.board) or data.factions[faction].standard


def occupied(state: GameState, faction: str, space: str) -> bool:
    """ER-5.5: another player's agent stands on `space`."""
    return any(p.agent == space for f, p in state.players.items() if f != faction and not p.eliminated)


def play_politics(
    state: GameState, data: GameData, given: dict[str, Sequence[object]], results: dict[str, list[OrderResult]]
) -> list[Event]:
    """ER-5.4: each player in turn order takes its agent action; then ER-5.6's extra actions, in turn order."""
    events: list[Event] = []
    for player in state.players.values():
        player.trade_bans.clear()  # ER-5.10b binds for one round only
    for faction in state.in_play():
        results.setdefault(faction, []).extend(_later_agent_lines(given.get(faction, ())))
    for faction in state.in_play():
        action = _agent_order(given.get(faction, ()), extra=False)
        events += take_action(state, data, faction, action, results.setdefault(faction, []), first=None)
    last = len(data.tracks.trade[state.mode])
    for faction in state.in_play():
        action = _agent_order(given.get(faction, ()), extra=True)
        if action is None:
            continue  # ER-14.7: no extra action given is a pass
        if state.players[faction].trade < last and not extra_action(state, data, faction):  # or ER-13.6's op
            results.setdefault(faction, []).append(
                _refusal(action, "ER-5.6", N_("the extra agent action needs the trade marker on the last trade space"))
            )
            continue
        player = state.players[faction]
        first, player.agent = player.agent, None  # ER-5.6's Resolution: the agent leaves its first space
        events += take_action(state, data, faction, action, results.setdefault(faction, []), first=first)
        if player.agent is None:  # ER-5.6: no extra action was taken, so the agent never left its first space
            player.agent = first
    return events


def _later_agent_lines(orders: Sequence[object]) -> list[OrderResult]:
    """ER-5.4, ER-5.6: one agent action and one extra action a round; a later line of either is refused, naming
    the line that counts (so that every line sent gets its verdict)."""
    refused = []
    for extra, rule in ((False, "ER-5.4"), (True, "ER-5.6")):
        lines = [o for o in orders if isinstance(o, AgentAction) and o.extra == extra]
        for later in lines[1:]:
            why = (
                N_("one extra action a round: line %(line)s is the one", line=lines[0].line)
                if extra
                else N_("one agent action a round: line %(line)s is the one", line=lines[0].line)
            )
            refused.append(_refusal(later, rule, why))
    return refused


def _agent_order(orders: Sequence[object], *, extra: bool) -> AgentAction | None:
    return next((o for o in orders if isinstance(o, AgentAction) and o.extra == extra), None)


def _refusal(order: AgentAction, rule: str, reason: str) -> OrderResult:
    return OrderResult(order.line, order.text, False, reason, rule)


def take_action(
    state: GameState,
    data: GameData,
    faction: str,
    action: AgentAction | None,
    results: list[OrderResult],
    first: str | None,
) -> list[Event]:
    """The first legal alternative of `action` (ER-14.6); `first`: the space of the first action, which an extra
    action may not take again (ER-5.6)."""
    if action is None or not action.choices:
        if action is not None:
            results.append(OrderResult(action.line, action.text, True, N_("the agent stays home (ER-5.4)")))
        return [Event("agent_passed", faction, {"extra": first is not None})]
    refusals: list[tuple[int, Refused]] = []
    for index, choice in enumerate(action.choices, 1):
        try:
            taken = _try(state, data, faction, choice, first)
        except Refused as refused:
            refusals.append((index, refused))
            continue
        state.players[faction].agent = taken.space
        note = _listed(refusals, N_("choice %(index)s taken", index=index))
        results.append(OrderResult(action.line, action.text, True, note))
        return taken.events
    results.append(OrderResult(action.line, action.text, False, _listed(refusals, N_("so a pass")), "ER-14.6"))
    return [Event("agent_passed", faction, {"extra": first is not None})]


def _listed(refusals: list[tuple[int, Refused]], outcome: str) -> str:
    """ER-14.6: each refused choice with its reason and rule, then the outcome; one message per choice, so that the
    receipt reads in the player's language (adjudicator/render/i18n.py `engine_text`: a reason holds no " (" before
    its rule, so that the rule is found)."""
    for index, refused in reversed(refusals):
        outcome = N_(
            "choice %(index)s: %(reason)s (%(rule)s); %(outcome)s",
            index=index,
            rule=refused.rule,
            reason=refused.reason,
            outcome=outcome,
        )
    return outcome


def _try(state: GameState, data: GameData, faction: str, choice: AgentChoice, first: str | None) -> Taken:
    if isinstance(choice, Trade):
        return _trade(state, data, faction, choice, first)
    if isinstance(choice, Build):
        return _build(state, data, faction, choice, first)
    if isinstance(choice, UpgradeOrder):
        return _upgrade(state, data, faction, choice, first)
    assert isinstance(choice, Megaproject)
    from adjudicator.rulesets.conqueror import seas  # seas.py builds on this module's agent spaces

    return seas.build(state, data, faction, choice, first)


def free_space(state: GameState, faction: str, prefix: str, wanted: int | None, first: str | None) -> str:
    """ER-5.5, ER-5.12, ER-5.19: the space asked for, or the first free one of the two."""
    for number in (wanted,) if wanted else (1, 2):
        space = f"{prefix}:{number}"
        if space == first and wanted:
            raise Refused("ER-5.6", N_("the extra action must take another space than the first action"))
        if not occupied(state, faction, space) and space != first:
            return space
    if wanted:
        raise Refused("ER-5.5", N_("space %(wanted)s is taken by another player's agent", wanted=wanted))
    raise Refused("ER-5.5", N_("both spaces are taken by other players' agents"))


def surcharge(space: str | None) -> int:
    """ER-5.16: +2 on an action's second space; none without an agent space (ER-3.11's purchases)."""
    return SECOND_SPACE_SURCHARGE if space is not None and space.endswith(":2") else 0


def cards_on(state: GameState, faction: str, slot: str) -> int:
    """How many of `faction`'s megaproject cards (Seas of Destiny) take a `slot` (district or upgrade, ER-12.6)."""
    if state.seas is None:
        return 0
    return sum(1 for taken in state.seas.built.get(faction, {}).values() if taken == slot)


def free_slots(state: GameState, data: GameData, faction: str, slot: str) -> int:
    """ER-1.4, ER-5.13, ER-5.20: the free district or upgrade slots; megaproject cards take them too (ER-12.6)."""
    player, board = state.players[faction], board_of(state, data, faction)
    if slot == "district":
        return board.district_slots - sum(player.districts.values()) - cards_on(state, faction, slot)
    return board.upgrade_slots - len(player.upgrades) - cards_on(state, faction, slot)


# -- A. trade (ER-5.7 to ER-5.10) --------------------------------------------------------------------------------


def _trade(state: GameState, data: GameData, faction: str, choice: Trade, first: str | None) -> Taken:
    partner = choice.partner
    if partner == faction:
        raise Refused("ER-5.7", N_("a player never trades on its own faction's space"))
    if partner != INDEPENDENTS and (partner not in state.players or state.players[partner].eliminated):
        raise Refused("ER-5.7", N_("%(partner)s is no faction of a player in the game", partner=partner))
    space = f"trade:{partner}"
    if space == first:
        raise Refused("ER-5.6", N_("the extra action must take another space than the first action"))
    if occupied(state, faction, space):
        raise Refused("ER-5.5", N_("the trade space of %(partner)s is taken", partner=partner))
    return Taken(space, trade(state, data, faction, partner) + _ports(state, data, faction))


def _ports(state: GameState, data: GameData, faction: str) -> list[Event]:
    """ER-5.11: with Seas of Destiny each port pays when the agent goes on the trade board (seas.py)."""
    from adjudicator.rulesets.conqueror import seas

    return seas.port_income(state, data, faction)


def trade(state: GameState, data: GameData, faction: str, partner: str) -> list[Event]:
    """ER-5.8 to ER-5.10: the marker moves one space right (it stays on the last) and the space's benefits apply."""
    player = state.players[faction]
    track = data.tracks.trade[state.mode]
    player.trade = min(player.trade + 1, len(track))
    space = track[player.trade - 1]
    player.coins += space.coins
    vp = space.vp if player.trade < len(track) else 0  # ER-5.8: the last space's VP count once, at game end
    player.vp += vp
    player.discount = player.discount or space.discount  # ER-5.9a
    events = [
        Event(
            "traded",
            faction,
            {"partner": partner, "space": player.trade, "coins": space.coins, "vp": vp, "discount": space.discount},
        )
    ]
    if partner != INDEPENDENTS:
        state.players[partner].coins += 1  # ER-5.10a
        events.append(Event("trade_partner_paid", partner, {"from": faction, "coins": 1}))
        if space.look:  # ER-5.9b: a private notice to the trading seat only
            other = state.players[partner]
            seen = {"partner": partner, "hand": list(other.hand), "heroes": list(other.heroes_down)}
            events.append(Event("hand_seen", faction, seen, visible_to([faction])))
    player.trade_bans.append(partner)  # ER-5.10b
    other = partner if partner != INDEPENDENTS else None
    sources = [(f"trade space {player.trade}", e) for e in space.effects]  # ER-5.9: the space's own effects
    events += apply_trigger(state, data, faction, "immediate", sources, other)
    sources += standing_effects(state, data, faction)
    events += gained(state, data, faction, space.coins) + (gained(state, data, other, 1) if other else [])
    return events + apply_trigger(state, data, faction, "on_trade", sources, other)


# -- B. civil districts (ER-5.12 to ER-5.17) ---------------------------------------------------------------------


def district_price(player: Player, data: GameData, kind: str, space: str | None) -> int:
    """ER-5.16: the price of this player's nth build of `kind`, +2 on the second space, -1 with the discount."""
    prices = data.tracks.districts[kind]
    price = prices[min(player.builds.get(kind, 0), len(prices) - 1)] + surcharge(space)
    return max(0, price - (1 if player.discount else 0))


def _build(state: GameState, data: GameData, faction: str, choice: Build, first: str | None) -> Taken:
    space = free_space(state, faction, f"district:{choice.district}", choice.space, first)
    return Taken(space, build_district(state, data, faction, choice, space))


def build_district(state: GameState, data: GameData, faction: str, choice: Build, space: str | None) -> list[Event]:
    """ER-5.13, ER-5.14: check and carry out a build on agent `space` (None: no agent space, ER-3.11's purchases;
    no surcharge then); a Refused naming the rule when a condition fails."""
    player = state.players[faction]
    kind = choice.district
    if kind != "fort" and free_slots(state, data, faction, "district") <= 0:
        raise Refused("ER-5.13", N_("no free civil district slot on the player board"))
    price = max(0, district_price(player, data, kind, space) - discount(state, data, faction, "district"))
    if player.coins < price:
        raise Refused(
            "ER-5.13",
            N_(
                "the %(kind)s costs %(price)s coins and %(faction)s holds %(coins)s",
                kind=kind,
                price=price,
                faction=faction,
                coins=player.coins,
            ),
        )
    site = None
    if kind == "fort":
        if state.supply.fort_markers <= 0:
            raise Refused("ER-5.13", N_("no fort marker is left in the supply"))
        site = _fort_site(state, data, faction, choice.site)
    elif state.supply.districts.get(kind, 0) <= 0:
        raise Refused("ER-15.12", N_("no %(kind)s card is left in the supply", kind=kind))
    player.coins -= price
    player.builds[kind] = player.builds.get(kind, 0) + 1
    if site is not None:
        state.supply.fort_markers -= 1
        state.fort_markers.append(site)
    else:
        state.supply.districts[kind] -= 1
        player.districts[kind] = player.districts.get(kind, 0) + 1
    data_ = {"district": kind, "price": price, "space": int(space[-1]) if space else None, "site": site}
    built = [Event("district_built", faction, data_)]
    return built + apply_trigger(state, data, faction, "on_build", standing_effects(state, data, faction))


def _fort_site(state: GameState, data: GameData, faction: str, wanted: str | None) -> str:
    """ER-5.14: a land area the player controls with no fort (printed and unblanked, or built)."""
    side = data.map_for(state.players_count)

    def fits(area: str) -> bool:
        controlled = controller(state, side, area) == faction
        return side.areas[area].land and controlled and fort_of(state, side, area) == "none"

    unfit = N_("%(wanted)s is not a land area %(faction)s controls without a fort", wanted=wanted, faction=faction)
    return pick_site(side, wanted, fits, "ER-5.14", unfit, N_("no controlled land area without a fort"))


def pick_site(
    side: MapSide, wanted: str | None, fits: Callable[[str], bool], rule: str, unfit: str, none_left: str
) -> str:
    """The area `wanted` if it `fits`, else a Refused citing `rule`; none wanted: the lowest area id that fits
    (fort sites ER-5.14, wharf sites ER-12.9)."""
    if wanted is not None:
        if wanted not in side.areas:
            raise Refused("ER-2.1", N_("%(wanted)s is no area of the %(side)s board", wanted=wanted, side=side.side))
        if not fits(wanted):
            raise Refused(rule, unfit)
        return wanted
    sites = sorted(area for area in side.areas if fits(area))
    if not sites:
        raise Refused(rule, none_left)
    return sites[0]


# -- C. unit upgrades (ER-5.18 to ER-5.23) -----------------------------------------------------------------------


def _upgrade(state: GameState, data: GameData, faction: str, choice: UpgradeOrder, first: str | None) -> Taken:
    space = free_space(state, faction, f"upgrade:{choice.unit}", choice.space, first)
    return Taken(space, buy_upgrade(state, data, faction, choice, space))


def buy_upgrade(state: GameState, data: GameData, faction: str, choice: UpgradeOrder, space: str | None) -> list[Event]:
    """ER-5.20 to ER-5.23: check and carry out an upgrade on agent `space` (None: no agent space, ER-3.11's
    purchases; no surcharge then); a Refused naming the rule when a condition fails."""
    player = state.players[faction]
    if len(player.upgrades) >= MAX_UPGRADES:
        raise Refused("ER-5.23", N_("%(faction)s already owns %(most)s upgrades", faction=faction, most=MAX_UPGRADES))
    if free_slots(state, data, faction, "upgrade") <= 0:
        raise Refused("ER-5.20", N_("no free upgrade slot on the player board: megaprojects take slots too"))
    of_type = UPGRADE_CARDS[choice.unit]
    if choice.card is not None and choice.card in player.upgrades:
        raise Refused("ER-5.23", N_("%(faction)s already owns %(card)s", faction=faction, card=choice.card))
    lacking = [card for card in of_type if card not in player.upgrades]
    if not lacking:
        raise Refused("ER-5.23", N_("%(faction)s owns every %(unit)s upgrade", faction=faction, unit=choice.unit))
    if choice.card is not None and state.supply.upgrades.get(choice.card, 0) <= 0:
        raise Refused("ER-5.20", N_("no %(card)s card is left in the supply", card=choice.card))
    left = [c for c in lacking if state.supply.upgrades.get(c, 0) > 0]
    if not left:
        raise Refused("ER-5.20", N_("no %(unit)s upgrade card it lacks is left in the supply", unit=choice.unit))
    prices = data.tracks.upgrades[choice.unit]
    owned = len(of_type) - len(lacking)
    price = prices[min(owned, len(prices) - 1)] + surcharge(space)  # ER-5.22: no trade discount
    price = max(0, price - discount(state, data, faction, "upgrade"))  # an effect's discount (ER-13.6)
    if player.coins < price:
        raise Refused(
            "ER-5.20",
            N_(
                "the upgrade costs %(price)s coins and %(faction)s holds %(coins)s",
                price=price,
                faction=faction,
                coins=player.coins,
            ),
        )
    if choice.card is None and len(left) > 1:  # the type alone names a card only when one is left to take
        raise Refused("ER-9.4", N_("name the upgrade card: %(cards)s", cards=", ".join(left)))
    card = choice.card or left[0]
    player.coins -= price
    player.upgrades.append(card)
    state.supply.upgrades[card] -= 1
    return [Event("upgrade_bought", faction, {"upgrade": card, "unit": choice.unit, "price": price})]
