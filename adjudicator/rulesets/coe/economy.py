"""Money and building: tribute (C-9), city destruction (C-10), purchases and inflation (C-11),
placement of new pieces (C-12)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from adjudicator.engine.vocabulary import N_, Rejected
from adjudicator.orders.keywords import in_english
from adjudicator.rulesets.coe.movement import stacking_leaders
from adjudicator.rulesets.coe.orders import Buy, DestroyCity, Purchase
from adjudicator.rulesets.coe.state import GameState
from adjudicator.rulesets.coe.turn import Turn
from adjudicator.rulesets.coe.vocabulary import UNIT_ABBREVIATIONS, UNIT_KINDS

if TYPE_CHECKING:
    from adjudicator.rulesets.coe.ruleset import CoeRuleset


def tribute_value(ruleset: CoeRuleset, state: GameState, seat: str) -> int:
    """Provinces controlled plus 5 per city controlled; fortifications add nothing (C-9.1)."""
    city = ruleset.data["city"]["tribute"]
    return sum(
        ruleset.board.value(code) + (city if area.city else 0)
        for code, area in state.areas.items()
        if area.owner == seat
    )


def refresh_tribute(turn: Turn) -> None:
    """Move every tribute marker to its value (C-9.2) and note inflation triggers (C-11.6)."""
    ruleset = turn.rules
    state = turn.state
    # every seat in play summed in one pass over the areas, as tribute_value sums each (refreshed several times a turn)
    city, value = ruleset.data["city"]["tribute"], ruleset.board.value
    tributes = {seat: 0 for seat, player in state.players.items() if not player.eliminated}
    for code, area in state.areas.items():
        if area.owner in tributes:
            tributes[area.owner] += value(code) + (city if area.city else 0)
    for seat, tribute in tributes.items():
        state.players[seat].tribute = tribute
    thresholds: list[int] = ruleset.data["inflation"]["thresholds"]
    for level, threshold in enumerate(thresholds, 1):
        triggered = level <= state.inflation or any(p["level"] == level for p in state.inflation_pending)
        if triggered:
            continue
        for seat in state.in_play():
            if state.players[seat].tribute >= threshold:
                state.inflation_pending.append({"level": level, "seat": seat})
                turn.event(
                    "inflation_triggered",
                    seat,
                    level=level,
                    threshold=threshold,
                    tribute=state.players[seat].tribute,
                    rule=ruleset.rule("11.6"),
                )
                break


def start_inflation(turn: Turn) -> None:
    """Levels triggered by the active seat take effect as its turn begins (C-11.7, C-11.8). In the 1984 edition
    (inflation_timing "next_turn", O-10.8) every level triggered before this player-turn takes effect as it
    begins, whoever triggered it: so from the turn after the trigger, and both levels at once mean triple
    prices at once."""
    state = turn.state
    due = pending_for(turn.rules, state, turn.seat)
    for level in sorted(p["level"] for p in due):
        if level > state.inflation:
            state.inflation = level
            turn.event("inflation", turn.seat, level=level, rule=turn.rules.rule("11.7"))
    state.inflation_pending = [p for p in state.inflation_pending if p not in due]


def pending_for(ruleset: CoeRuleset, state: GameState, seat: str) -> list[dict[str, Any]]:
    """The inflation levels triggered but not in force that take effect as `seat`'s player-turn begins: those it
    triggered (C-11.7), in the 1984 edition every one (O-10.8)."""
    if ruleset.edition("inflation_timing") == "next_turn":
        return list(state.inflation_pending)
    return [p for p in state.inflation_pending if p["seat"] == seat]


def level_in_turn(ruleset: CoeRuleset, state: GameState, seat: str) -> int:
    """The inflation level in force in `seat`'s next player-turn (its orders template's prices)."""
    return max([state.inflation, *(p["level"] for p in pending_for(ruleset, state, seat))])


def collect_tribute(turn: Turn) -> None:
    """Phase 3: the treasury grows by the tribute value (C-9.3)."""
    player = turn.state.players[turn.seat]
    player.treasury += player.tribute
    turn.event("tribute", turn.seat, amount=player.tribute, treasury=player.treasury)


def destroy_city(turn: Turn, order: DestroyCity) -> str:
    """Phase 4: remove an own city with its fortification and roads; tribute falls by 5 (C-10.1, C-10.2)."""
    area = turn.state.areas.get(order.area)
    if area is None or area.city is None:
        raise Rejected(turn.rules.rule("10.1"), N_("there is no city in %(area)s", area=order.area))
    if area.owner != turn.seat:
        raise Rejected(turn.rules.rule("10.1"), N_("the city in %(area)s is not yours", area=order.area))
    if turn.rules.edition("stacking"):
        check_city_not_needed(turn, order.area)
    for other in area.roads:
        turn.state.area(other).roads.remove(order.area)
    turn.event(
        "city_destroyed", turn.seat, area=order.area, fortified=area.city == "fortified", roads=sorted(area.roads)
    )
    area.city = None
    area.roads = []
    refresh_tribute(turn)
    return N_("city destroyed")


def check_city_not_needed(turn: Turn, code: str) -> None:
    """1984 (O-9.2): a city that leads combat units beyond its owner's Caesar and generals there (O-5.7) may
    not be destroyed."""
    per_leader: int = turn.rules.data["movement"]["units_per_leader"]
    force = turn.state.area(code).units.get(turn.seat)
    units = force.units if force else 0
    leaders = stacking_leaders(turn.state, turn.seat, code, city=False)
    if units > per_leader * leaders:
        raise Rejected(
            "O-9.2",
            N_(
                "the city in %(area)s leads your combat units there: %(units)s combat units "
                "with %(leaders)s Caesar or general(s) would break the limit of %(most)s per "
                "leader (O-5.7)",
                area=code,
                units=units,
                leaders=leaders,
                most=per_leader,
            ),
        )


# -- Phase 5 and 6: purchase and placement ---------------------------------------------------------------


def item_text(item: Purchase) -> str:
    """How a purchase item reads in a verdict."""
    name = UNIT_ABBREVIATIONS.get(item.piece, item.piece.replace("_", " ").upper())
    if item.piece == "road":
        return f"ROAD {item.at}-{item.to}"
    where = f" AT {item.at}" if item.at else ""
    coast = f" COAST {item.coast}" if item.coast else ""
    return f"{item.count} {name}{where}{coast}" if item.piece in (*UNIT_KINDS, "galley") else f"{name}{where}"


def price(ruleset: CoeRuleset, state: GameState, piece: str) -> int:
    """Current price: base price times the multiplier of the level in force (C-11.9)."""
    return ruleset.data["prices"][piece] * ruleset.data["inflation"]["multipliers"][state.inflation]


def shared_units(ruleset: CoeRuleset) -> bool:
    """1984 (O-1.2): infantry, cavalry and catapults are uncoloured, one supply for all players."""
    return ruleset.edition("units_pool") == "shared"


def units_on_board(state: GameState, kind: str) -> int:
    """Combat units of `kind` of every player on the board (the shared pools of O-1.2)."""
    return sum(getattr(f, kind) for a in state.areas.values() for f in a.units.values())


def on_board(state: GameState, seat: str, kind: str) -> int:
    """How many pieces of `kind` of the seat's colour are on the board (C-1.1)."""
    if kind == "galley":
        return sum(len(a.units[seat].galleys) for a in state.areas.values() if seat in a.units)
    return sum(getattr(a.units[seat], kind) for a in state.areas.values() if seat in a.units)


def shared_on_board(state: GameState, kind: str) -> int:
    """Shared pieces on the board: cities, fortifications, roads (C-1.2)."""
    if kind == "city":
        return sum(1 for a in state.areas.values() if a.city)
    if kind == "fortification":
        return sum(1 for a in state.areas.values() if a.city == "fortified")
    return sum(len(a.roads) for a in state.areas.values()) // 2


def buy(turn: Turn, order: Buy) -> None:
    """Each item of a BUY order is paid and placed at once, in the order written (C-11, C-12.9)."""
    for item in order.items:
        turn.attempt(order, lambda item=item: buy_item(turn, item), text=f"BUY {item_text(item)}")


def buy_item(turn: Turn, item: Purchase) -> str:
    ruleset = turn.rules
    state, seat = turn.state, turn.seat
    player = state.players[seat]
    if item.count < 1:
        raise Rejected(ruleset.rule("11.1"), N_("the number bought must be at least 1"))
    if item.piece not in (*UNIT_KINDS, "galley") and item.count != 1:
        raise Rejected(
            ruleset.rule("12.6"), N_("buy one %(piece)s per site, naming its site", piece=item.piece.replace("_", " "))
        )
    cost = price(ruleset, state, item.piece) * item.count
    place = PLACERS[item.piece]
    place(turn, item, dry_run=True)  # C-11.5: only what can be placed legally may be bought
    if cost > player.treasury:
        raise Rejected(
            ruleset.rule("11.1"),
            N_("costs %(cost)s talents, treasury holds %(treasury)s", cost=cost, treasury=player.treasury),
        )
    player.treasury -= cost
    where = place(turn, item, dry_run=False)
    turn.event("bought", seat, piece=item.piece, count=item.count, cost=cost, where=where, treasury=player.treasury)
    return N_("%(cost)s talents, placed %(where)s", cost=cost, where=where)


def _check_supply(turn: Turn, kind: str, count: int) -> None:
    ruleset = turn.rules
    limit = ruleset.data["limits"][kind]
    if kind in ("city", "fortification", "road"):
        free = limit - shared_on_board(turn.state, kind)
        pool = N_("the shared pool")
        rule = ruleset.rule("1.2")
    elif kind in UNIT_KINDS and shared_units(ruleset):  # O-1.2, O-10.4: every player's units count
        free = limit - units_on_board(turn.state, kind)
        pool = N_("the shared supply")
        rule = "O-1.2"
    else:
        # C-1.7: pieces taken over from an eliminated player do not count against the own colour's limits
        taken_over = turn.state.players[turn.seat].inherited.get(kind, 0)
        free = limit - (on_board(turn.state, turn.seat, kind) - taken_over)
        pool = N_("your supply")
        rule = ruleset.rule("1.1")
    if count > free:
        raise Rejected(
            ruleset.rule("11.4"),
            N_(
                "%(pool)s has only %(count)s %(kind)s left (limit %(limit)s, %(rule)s)",
                pool=pool,
                count=max(free, 0),
                kind=kind,
                limit=limit,
                rule=rule,
            ),
        )


def _home_held(turn: Turn, what: str) -> str:
    ruleset = turn.rules
    home = turn.state.players[turn.seat].home
    if turn.state.area(home).owner != turn.seat:
        raise Rejected(
            ruleset.rule("12.5"),
            N_(
                "new %(what)s are placed only in your home province %(home)s, which you do not control",
                what=what,
                home=home,
            ),
        )
    return home


def place_units(turn: Turn, item: Purchase, dry_run: bool) -> str:
    """New combat units go to the original home province while it is controlled (C-12.2, C-12.5)."""
    home = _home_held(turn, N_("combat units"))
    if item.at not in (None, home):
        raise Rejected(
            turn.rules.rule("12.2"),
            N_("new combat units are placed in your home province %(home)s, not %(area)s", home=home, area=item.at),
        )
    _check_supply(turn, item.piece, item.count)
    if turn.rules.edition("stacking"):
        check_room_at_home(turn, home, item.count)
    if not dry_run:
        force = turn.state.force(home, turn.seat)
        setattr(force, item.piece, getattr(force, item.piece) + item.count)
    return home


def check_room_at_home(turn: Turn, home: str, count: int) -> None:
    """1984 (O-11.2): new combat units at home stay within 7 per leader there, the city counting as one."""
    per_leader: int = turn.rules.data["movement"]["units_per_leader"]
    force = turn.state.area(home).units.get(turn.seat)
    units = force.units if force else 0
    leaders = stacking_leaders(turn.state, turn.seat, home)
    room = max(per_leader * leaders - units, 0)
    if count > room:
        raise Rejected(
            "O-11.2",
            N_(
                "%(home)s has room for %(room)s more combat units: %(units)s there with "
                "%(leaders)s leader(s), at most %(most)s per leader, your city counting as one "
                "(O-5.7)",
                home=home,
                room=room,
                units=units,
                leaders=leaders,
                most=per_leader,
            ),
        )


def galley_site(turn: Turn, item: Purchase) -> tuple[str, str | None]:
    """Province and coast for new galleys (C-12.3, C-12.4, defaults C-15.16)."""
    ruleset = turn.rules
    board, state = ruleset.board, turn.state
    home = state.players[turn.seat].home
    sites: list[str] = ruleset.data.get("galley_sites", {}).get(home, [])
    if sites:  # C-12.4: Mesopotamia builds its galleys in Syria or Armenia, whichever it controls
        held = [s for s in sites if state.area(s).owner == turn.seat]
        if item.at is not None and item.at not in sites:
            raise Rejected(
                ruleset.rule("12.4"),
                N_("your galleys are placed in %(sites)s, not %(area)s", sites=" or ".join(sites), area=item.at),
            )
        if item.at is not None and item.at not in held:
            raise Rejected(ruleset.rule("12.4"), N_("you do not control %(area)s", area=item.at))
        if not held:
            raise Rejected(
                ruleset.rule("12.4"),
                N_("you control none of %(sites)s, so you cannot place galleys", sites=", ".join(sites)),
            )
        province = item.at or held[0]
    else:
        province = _home_held(turn, N_("galleys"))
        if item.at not in (None, province):
            raise Rejected(
                ruleset.rule("12.3"),
                N_("new galleys are placed in your home province %(home)s, not %(area)s", home=province, area=item.at),
            )
    coasts = board.coasts(province)
    if not coasts:
        raise Rejected(ruleset.rule("12.3"), N_("%(area)s has no coast", area=province))
    if item.coast is None:
        return province, min(coasts[0])  # C-15.16: the first coast in the board data
    coast = board.coast_of(province, item.coast)
    if coast is None:
        raise Rejected(ruleset.rule("12.3"), N_("%(area)s has no coast on %(sea)s", area=province, sea=item.coast))
    return province, coast


def place_galleys(turn: Turn, item: Purchase, dry_run: bool) -> str:
    province, coast = galley_site(turn, item)
    _check_supply(turn, "galley", item.count)
    limit = turn.rules.data["limits"]["galley"]
    if not dry_run:
        used = {g for a in turn.state.areas.values() if turn.seat in a.units for g in a.units[turn.seat].galleys}
        # C-1.7: galleys taken over carry numbers too, so new ones may need numbers above the limit
        free = [n for n in range(1, limit + len(used) + item.count + 1) if n not in used][: item.count]
        force = turn.state.force(province, turn.seat)
        force.galleys.extend(free)
        if len(turn.rules.board.coasts(province)) > 1 and coast:
            force.galley_coasts.update({n: coast for n in free})
    split = len(turn.rules.board.coasts(province)) > 1
    return N_("%(area)s (coast %(sea)s)", area=province, sea=coast) if split else province


def _own_land(turn: Turn, area: str | None, what: str, rule: str) -> str:
    ruleset = turn.rules
    if area is None:
        raise Rejected(
            ruleset.rule("15.16"), N_("name the site: %(what)s %(kw_at)s <province>", what=what, **in_english("at"))
        )
    if not ruleset.board.is_land(area):
        raise Rejected(ruleset.rule(rule), N_("%(area)s is a sea zone", area=area))
    if turn.state.area(area).owner != turn.seat:
        raise Rejected(ruleset.rule(rule), N_("you do not control %(area)s", area=area))
    return area


def place_city(turn: Turn, item: Purchase, dry_run: bool) -> str:
    """A city goes to a controlled province without one; tribute +5 at once (C-12.6, C-9.2)."""
    site = _own_land(turn, item.at, "CITY", "12.6")
    if turn.state.area(site).city:
        raise Rejected(turn.rules.rule("12.6"), N_("%(area)s already has a city", area=site))
    _check_supply(turn, "city", 1)
    if item.piece == "fortified_city":
        _check_supply(turn, "fortification", 1)
    if not dry_run:
        turn.state.area(site).city = "fortified" if item.piece == "fortified_city" else "city"
        refresh_tribute(turn)
    return site


def place_fortification(turn: Turn, item: Purchase, dry_run: bool) -> str:
    """A fortification goes under an own city that has none (C-11.3, C-12.7)."""
    site = _own_land(turn, item.at, "FORTIFICATION", "12.7")
    city = turn.state.area(site).city
    if city is None:
        raise Rejected(turn.rules.rule("12.7"), N_("%(area)s has no city to fortify", area=site))
    if city == "fortified":
        raise Rejected(turn.rules.rule("12.7"), N_("the city in %(area)s is already fortified", area=site))
    _check_supply(turn, "fortification", 1)
    if not dry_run:
        turn.state.area(site).city = "fortified"
    return site


def place_road(turn: Turn, item: Purchase, dry_run: bool) -> str:
    """A road joins two own cities across a land border, never a strait or the sea (C-12.8)."""
    ruleset = turn.rules
    if item.at is None or item.to is None:
        raise Rejected(
            ruleset.rule("15.16"), N_("name both cities: %(kw_road)s <province>-<province>", **in_english("road"))
        )
    for end in (item.at, item.to):
        _own_land(turn, end, "ROAD", "12.8")
        if not turn.state.area(end).city:
            raise Rejected(ruleset.rule("12.8"), N_("%(area)s has no city", area=end))
    if not ruleset.board.land_border(item.at, item.to):
        raise Rejected(
            ruleset.rule("12.8"),
            N_(
                "%(area)s and %(other)s share no land border (roads never cross straits or the sea)",
                area=item.at,
                other=item.to,
            ),
        )
    if item.to in turn.state.area(item.at).roads:
        raise Rejected(
            ruleset.rule("12.8"), N_("a road already joins %(area)s and %(other)s", area=item.at, other=item.to)
        )
    _check_supply(turn, "road", 1)
    if not dry_run:
        turn.state.area(item.at).roads.append(item.to)
        turn.state.area(item.to).roads.append(item.at)
    return f"{item.at}-{item.to}"


PLACERS = {
    "infantry": place_units,
    "cavalry": place_units,
    "catapult": place_units,
    "galley": place_galleys,
    "city": place_city,
    "fortified_city": place_city,
    "fortification": place_fortification,
    "road": place_road,
}
