"""Setup (EAW-3): the state of a new game, the deal (step 1, resolved when the game is made) and the sealed placement
(step 2), with the defaults of EAW-12.1, EAW-12.13 and EAW-12.14 for a seat without orders or whose lists are used up.

Dice (EAW-0.5): the display shuffle (hidden), the first setup player, the home-army draws in setup order (hidden),
the start player.

Events (data keys; `rule` in each):
- `deal`: display (the 6 cards face up), deck (cards left in the deck) (EAW-3.5)
- `first_setup_player`: seat, order (the setup order) (EAW-3.6)
- `start_province` seat: area, half, source ("order" | "default") (EAW-3.7, EAW-12.1)
- `home_army` seat, private: group, cards (EAW-3.8); `home_army_drawn` seat, public: half (EAW-3.8)
- `setup_marker` seat: area, markers (now there), source (EAW-3.9, EAW-12.13)
- `setup_marker_skipped` seat: reason (no control marker left in its stock, EAW-1.2)
- `setup_fort` seat: area, source (EAW-3.10, EAW-12.14); `setup_fort_skipped` seat: reason
- `start_player` seat (EAW-3.11)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import fields, replace
from types import MappingProxyType
from typing import Any

from adjudicator.engine.vocabulary import N_, OrderResult
from adjudicator.errors import PbemError
from adjudicator.orders.keywords import in_english
from adjudicator.orders.sets import Answer, Language, OrderSet, Press
from adjudicator.rulesets.empires import standing
from adjudicator.rulesets.empires.data import (
    DISPLAY_SIZE,
    HOME_GROUPS,
    NORTH,
    PLAYERS,
    STARTERS_PER_HALF,
    GameData,
    Options,
)
from adjudicator.rulesets.empires.orders import STANDING_ORDERS, FortChoice, PlaceChoice, StartChoice, canonical
from adjudicator.rulesets.empires.play import Play
from adjudicator.rulesets.empires.state import DEAL, PLACEMENT, REVOLT, Control, GameState, Player

SEAT_COLOURS = ("red", "blue", "green", "yellow", "white")  # EAW-3.5: one colour per player
LIST_RULES: dict[type, str] = {StartChoice: "EAW-3.7", PlaceChoice: "EAW-3.9", FortChoice: "EAW-3.10"}


class SetupError(PbemError, ValueError):
    """The setup rules refuse a seat list: the message names the rule."""


# -- options as the state keeps them (JSON) ----------------------------------------------------------------------


def options_json(options: Options) -> dict[str, Any]:
    """The options as JSON (state.options): start_markers with text keys."""
    found: dict[str, Any] = {}
    for f in fields(Options):
        value = getattr(options, f.name)
        found[f.name] = {str(k): v for k, v in value.items()} if isinstance(value, Mapping) else value
    return found


def options_from_json(data: Mapping[str, Any], fallback: Options) -> Options:
    """The options a state was made with (state.options); `fallback` for a state that keeps none."""
    if not data:
        return fallback
    known = {f.name for f in fields(Options)}
    changes: dict[str, Any] = {k: v for k, v in data.items() if k in known}
    if "start_markers" in changes:
        changes["start_markers"] = MappingProxyType({int(k): int(v) for k, v in changes["start_markers"].items()})
    return replace(fallback, **changes)


# -- the new game (EAW-3.4, EAW-3.5) ----------------------------------------------------------------------------


def initial_state(data: GameData, options: Options, game: str, seats: list[str], digest: str = "") -> GameState:
    """The state before the deal: 3 to 5 seats in seating order (EAW-3.3, EAW-3.4), each with its pieces (EAW-1.2,
    EAW-3.5: None is unlimited) and an empty warehouse (EAW-3.12)."""
    if len(seats) not in PLAYERS:
        raise SetupError(f"Empires of the Ancient World takes 3 to 5 players, not {len(seats)} (EAW-3.4)")
    if len(set(seats)) != len(seats):
        raise SetupError(f"a seat is named twice: {', '.join(seats)} (EAW-3.3)")
    pieces = data.pieces
    players = {
        seat: Player(
            seat, stock_control=pieces.control_markers, stock_trade=pieces.trade_markers, stock_forts=pieces.forts
        )
        for seat in seats
    }
    state = GameState(game=game, seats=list(seats), players=players, options=options_json(options))
    state.phase, state.data_digest = DEAL, digest
    return state


def play_deal(play: Play) -> None:
    """Step 1: EAW-3.5 shuffle the general deck (hidden) and lay out 6 cards; EAW-3.6 the first setup player."""
    state, data = play.state, play.data
    deck = play.shuffle(list(data.general_deck), "general deck")
    state.display, state.deck = deck[:DISPLAY_SIZE], deck[DISPLAY_SIZE:]
    state.home_groups = {half: [g for g in groups if data.home_army(g)] for half, groups in HOME_GROUPS.items()}
    play.say("deal", None, display=list(state.display), deck=len(state.deck), rule="EAW-3.5")
    first = play.roll("first setup player", "EAW-3.6", faces=len(state.seats))
    state.first_setup_player = state.seats[first - 1]
    play.say("first_setup_player", state.first_setup_player, order=state.setup_order(), rule="EAW-3.6")
    state.phase = PLACEMENT


# -- the placement step (EAW-3.7 to EAW-3.11) --------------------------------------------------------------------


def choices_of(orders: OrderSet | None, kind: type) -> list[str]:
    """The areas of every order of `kind` in the set, in the order written."""
    if orders is None:
        return []
    return [area for order in orders.orders if isinstance(order, kind) for area in order.areas]


def area_id(data: GameData, text: str) -> str | None:
    """An area named by its id or an unambiguous name prefix."""
    if text in data.map.areas:
        return text
    found = data.map.lookup(text)
    return found[0] if len(found) == 1 else None


def _start_legal(play: Play, seat: str, area: str) -> bool:
    """EAW-3.7: a land province nobody holds, in a half that has not yet taken three starting players."""
    found = play.data.map.areas.get(area)
    if found is None or not found.is_province or play.state.controller(area) is not None:
        return False
    starters = [p for p in play.state.players.values() if p.half == found.half]
    return len(starters) < STARTERS_PER_HALF


def _best(play: Play, areas: Iterable[str]) -> str | None:
    """The area of the highest VP value, the lowest id among equals (EAW-12.1, EAW-12.13, EAW-12.14 defaults)."""
    ranked = sorted(areas, key=lambda a: (-play.data.map.areas[a].value, a))
    return ranked[0] if ranked else None


def _first_legal(play: Play, wanted: Iterable[str], legal: Any) -> str | None:
    for text in wanted:
        area = area_id(play.data, text)
        if area is not None and legal(area):
            return area
    return None


def place_start(play: Play, seat: str, wanted: list[str]) -> None:
    """EAW-3.7 with EAW-12.1 (the first legal province of the list, else the legal one of the highest value), then
    EAW-3.8: the home army drawn unseen from the groups of that half, without replacement."""
    state, data = play.state, play.data
    area = _first_legal(play, wanted, lambda a: _start_legal(play, seat, a))
    source = "order"
    if area is None:
        area, source = _best(play, (a for a in data.map.areas if _start_legal(play, seat, a))), "default"
    if area is None:  # a map without room: the data check should make this impossible
        raise PbemError(f"EAW-3.7: no land province is left for {seat}'s start")
    player = state.players[seat]
    _put_marker(state, seat, area)
    player.half = data.map.areas[area].half
    play.say("start_province", seat, area=area, half=player.half, source=source, rule="EAW-3.7")
    half = player.half or NORTH
    groups = state.home_groups.get(half, [])
    if not groups:
        raise PbemError(f"EAW-3.8: no home army of the {half} is left for {seat}")
    group = play.pick(f"home army {seat}", list(groups), hidden=True)
    groups.remove(group)
    player.home_group = group
    player.hand = list(data.home_army(group)) + player.hand
    play.tell(seat, "home_army", seat, group=group, cards=list(data.home_army(group)), rule="EAW-3.8")
    play.say("home_army_drawn", seat, half=half, rule="EAW-3.8")


def _put_marker(state: GameState, seat: str, area: str) -> None:
    player = state.players[seat]
    held = state.control.get(area)
    if held is None:
        state.control[area] = Control(seat, 1)
    else:
        held.markers += 1
    if player.stock_control is not None:
        player.stock_control -= 1


def _marker_legal(play: Play, seat: str, area: str) -> bool:
    """EAW-3.9: an area nobody controls, next to one of the seat's (ordinary adjacency, not the Mediterranean rule);
    sea areas only when named (EAW-2.11)."""
    state, game_map = play.state, play.data.map
    found = game_map.areas.get(area)
    if found is None or state.controller(area) is not None or (found.is_sea and not found.named):
        return False
    return any(state.controller(n) == seat for n in game_map.neighbours(area))


def markers_to_place(state: GameState, options: Options) -> int:
    """EAW-3.1, EAW-3.9: the further markers each player places after the starting one."""
    count = options.start_markers.get(len(state.seats), 10 - len(state.seats))
    return count if options.start_markers_count == "additional" else max(count - 1, 0)


def place_marker(play: Play, seat: str, wanted: list[str]) -> None:
    """One further marker (EAW-3.9, EAW-12.13): the first legal area of the list, else the legal area of the highest
    value; with no legal area at all, one more marker in an area it controls (the first of its list it controls, else
    the one with the fewest markers, lowest id)."""
    state, data = play.state, play.data
    player = state.players[seat]
    if player.stock_control is not None and player.stock_control <= 0:
        play.say("setup_marker_skipped", seat, reason="no control marker left", rule="EAW-1.2")
        return
    area = _first_legal(play, wanted, lambda a: _marker_legal(play, seat, a))
    source = "order"
    if area is None:
        area, source = _best(play, (a for a in data.map.areas if _marker_legal(play, seat, a))), "default"
    if area is None:
        own = state.controlled(seat)
        area = _first_legal(play, wanted, lambda a: a in own)
        source = "order" if area is not None else "default"
        if area is None and own:
            area = min(own, key=lambda a: (state.markers(a), a))
    if area is None:
        play.say("setup_marker_skipped", seat, reason="no area", rule="EAW-3.9")
        return
    _put_marker(state, seat, area)
    play.say("setup_marker", seat, area=area, markers=state.markers(area), source=source, rule="EAW-3.9")


def place_fort(play: Play, seat: str, wanted: list[str]) -> None:
    """EAW-3.10 with EAW-12.14: a fort under one of its markers in a land province (the first legal of the list, else
    the controlled province of the highest value)."""
    state, data = play.state, play.data
    player = state.players[seat]
    if player.stock_forts is not None and player.stock_forts <= 0:
        play.say("setup_fort_skipped", seat, reason="no fort left", rule="EAW-1.2")
        return

    def legal(area: str) -> bool:
        found = data.map.areas.get(area)
        return found is not None and found.is_province and state.controller(area) == seat and area not in state.forts

    area = _first_legal(play, wanted, legal)
    source = "order"
    if area is None:
        area, source = _best(play, (a for a in state.controlled(seat) if legal(a))), "default"
    if area is None:
        play.say("setup_fort_skipped", seat, reason="no province", rule="EAW-3.10")
        return
    state.forts[area] = seat
    if player.stock_forts is not None:
        player.stock_forts -= 1
    play.say("setup_fort", seat, area=area, source=source, rule="EAW-3.10")


def play_placement(play: Play, orders: Mapping[str, OrderSet | None]) -> None:
    """Step 2, sealed: the seats' START, PLACE and FORT lists resolved in setup order (EAW-3.7 to EAW-3.10), then
    the start player (EAW-3.11); standing battle plans sent with them are kept. Game round I begins."""
    state = play.state
    order = state.setup_order()
    for seat in order:
        for given in orders.get(seat).orders if orders.get(seat) is not None else ():  # type: ignore[union-attr]
            standing.store(state.players[seat], given)
    for seat in order:
        place_start(play, seat, choices_of(orders.get(seat), StartChoice))
    wanted = {seat: choices_of(orders.get(seat), PlaceChoice) for seat in order}
    for _ in range(markers_to_place(state, play.options)):
        for seat in order:
            place_marker(play, seat, wanted[seat])
    for seat in order:
        place_fort(play, seat, choices_of(orders.get(seat), FortChoice))
    start = play.roll("start player", "EAW-3.11", faces=len(state.seats))
    state.start_player = state.seats[start - 1]
    play.say("start_player", state.start_player, rule="EAW-3.11")
    state.phase, state.round = REVOLT, 1


# -- receipts (the placement step) -------------------------------------------------------------------------------


def check_setup(data: GameData, orders: OrderSet | None) -> list[OrderResult]:
    """The verdict on each order of a placement mail: START names land provinces (EAW-3.7), PLACE areas that may be
    taken (EAW-3.9, EAW-2.11), FORT provinces (EAW-3.10); standing battle plans are kept (EAW-12). Whether an area is
    still free is judged when the step resolves, in setup order."""
    results: list[OrderResult] = []
    for order in orders.orders if orders is not None else ():
        if isinstance(order, (StartChoice, PlaceChoice, FortChoice)):
            results += _check_areas(data, order)
        elif isinstance(order, STANDING_ORDERS):
            results.append(OrderResult(order.line, order.text, True, N_("kept as a standing order"), "EAW-12"))
        elif isinstance(order, (Answer, Press, Language)):
            continue
        else:
            reason = N_(
                "not an order of the placement step: send %(kw_start)s, %(kw_place)s and %(kw_fort)s lists",
                **in_english("start", "place", "fort", ruleset="empires-aw"),
            )
            results.append(OrderResult(order.line, order.text, False, reason, "EAW-3.7"))
    return results


def _check_areas(data: GameData, order: StartChoice | PlaceChoice | FortChoice) -> list[OrderResult]:
    """EAW-12.1, EAW-12.13, EAW-12.14: the step takes a list's areas in order and skips those it can never take, so
    the verdict says just that: the part used accepted, each area skipped rejected with its rule; a list of nothing
    that can be taken is rejected (the default applies)."""
    rule = LIST_RULES[type(order)]
    skipped = {text: why for text in order.areas if (why := _never_taken(data, order, text)) is not None}
    if len(skipped) == len(order.areas):
        whole = len(skipped) == 1
        return [
            OrderResult(order.line, order.text if whole else text, False, reason, why_rule)
            for text, (reason, why_rule) in skipped.items()
        ]
    if not skipped:
        return [OrderResult(order.line, order.text, True, "", rule)]
    used = replace(order, areas=tuple(a for a in order.areas if a not in skipped))
    return [
        OrderResult(order.line, canonical(used), True, "", rule),
        *(OrderResult(order.line, text, False, reason, why) for text, (reason, why) in skipped.items()),
    ]


def _never_taken(data: GameData, order: StartChoice | PlaceChoice | FortChoice, text: str) -> tuple[str, str] | None:
    """Why the placement can never take the area `text` names for `order` (reason, rule), None when it may."""
    rule = LIST_RULES[type(order)]
    area = area_id(data, text)
    if area is None:
        return N_("no area %(area)s on the map", area=text), rule
    found = data.map.areas[area]
    if not found.is_province and not isinstance(order, PlaceChoice):
        return N_("%(area)s is not a land province", area=area), rule
    if found.is_sea and not found.named:
        return unnamed_sea(data, area), "EAW-2.11"
    return None


def named_seas(data: GameData) -> list[str]:
    """EAW-2.11: the sea areas that may be taken at setup."""
    return sorted(a.id for a in data.map.areas.values() if a.is_sea and a.named)


def unnamed_sea(data: GameData, area: str) -> str:
    """EAW-2.11: why an unnamed sea is refused, naming the seas that may be taken (the map labels every sea)."""
    why = N_("%(area)s is an unnamed sea, which cannot be taken at setup", area=area)
    return N_("%(why)s; the seas that may be taken at setup: %(seas)s", why=why, seas=", ".join(named_seas(data)))
