"""Attack a province or sea area (EAW-7.1 to EAW-7.4, EAW-13.1, EAW-13.2, EAW-13.18, EAW-2.8).

The target must be adjacent to an area the attacker controls (ordinary adjacency or the Mediterranean rule,
EAW-2.3) and not its own; a player's only province is never a target (EAW-2.8 under both `last_province` options,
EAW-13.18; its sea areas are), nor is any attack made without a control marker left in stock to place (EAW-1.2).
The order names the origin; without one the adjudicator takes the controlled area
whose route needs the fewest rolls (lowest id).

Rolls in the order of EAW-0.5, each only if needed, each failure spending the action: the mountain/strait roll
(2+, EAW-7.2; the `mountain` roll_mod), the sea movement (4+, +1 for a sea lane, +1 next to a controlled sea area,
EAW-7.3; the `sea_move` roll_mod), the neutral-province roll (3+, EAW-7.4; the `neutral` roll_mod). A province or
sea area of another player is a battle (battle.fight, EAW-8); a rout by the attacker earns the free action
(actions.free_action, EAW-8.11), never from a free action (EAW-13.9).

Events (public):
- `attack` seat: target, origin, crossing (kinds crossed), mediterranean, free, rule EAW-7.1
- `roll` (play.succeeds) purpose crossing | sea_move | neutral
- `attack_failed` seat: target, roll (the purpose that failed), rule
- `area_taken` seat: target, rule EAW-7.4 (then `marker_added`)
- `no_second_free_action` seat: area, rule EAW-13.9"""

from __future__ import annotations

from adjudicator.engine.vocabulary import N_, Rejected
from adjudicator.rulesets.empires.board import Route, attack_route, is_last_province, unknown_area, unreachable
from adjudicator.rulesets.empires.data import ROLLS, SEA
from adjudicator.rulesets.empires.forts_control import add_marker, no_marker_left
from adjudicator.rulesets.empires.orders import Attack
from adjudicator.rulesets.empires.play import Play


def needs_sea_move(play: Play, route: Route) -> bool:
    """EAW-7.3: the target is a sea area, the connection a sea lane, or the route the Mediterranean rule."""
    return play.data.map.areas[route.target].kind == SEA or route.sea_lane or route.mediterranean


def sea_move_bonus(play: Play, seat: str, route: Route) -> int:
    """EAW-7.3: +1 for a sea lane; +1 when the lane's sea is the player's or borders one of its sea areas, or (no
    lane) when the target borders a sea area of the player (ordinary adjacency); plus the `sea_move` roll_mod."""
    game_map, state = play.data.map, play.state
    own_seas = {a for a in state.controlled(seat) if game_map.areas[a].kind == SEA}
    bonus = play.roll_bonus(seat, "sea_move")
    if route.sea_lane:
        bonus += 1
    if route.sea_lane and route.sea is not None:
        near = route.sea in own_seas or any(n in own_seas for n in game_map.neighbours(route.sea))
    else:
        near = any(n in own_seas for n in game_map.neighbours(route.target))
    return bonus + (1 if near else 0)


def rolls_needed(play: Play, route: Route) -> int:
    """How many rolls the route needs before the target (for choosing an origin)."""
    return int(route.rolled_crossing) + int(needs_sea_move(play, route))


def route_of(play: Play, seat: str, action: Attack) -> Route | None:
    """The route of the order's origin, or (no origin named) the controlled area's with the fewest rolls."""
    game_map = play.data.map
    if action.origin:
        return attack_route(game_map, action.origin, action.target)
    routes = [r for a in play.state.controlled(seat) if (r := attack_route(game_map, a, action.target)) is not None]
    return min(routes, key=lambda r: (rolls_needed(play, r), r.origin), default=None)


def attack_refusal(play: Play, seat: str, action: Attack) -> Rejected | None:
    game_map, state = play.data.map, play.state
    target = action.target
    if found := unknown_area(game_map, target):
        return found
    if state.controller(target) == seat:
        return Rejected("EAW-7.1", N_("%(area)s is already controlled by %(seat)s", area=target, seat=seat))
    if action.origin:
        if found := unknown_area(game_map, action.origin):
            return found
        if state.controller(action.origin) != seat:
            return Rejected(
                "EAW-7.1", N_("the origin %(area)s is not controlled by %(seat)s", area=action.origin, seat=seat)
            )
        if found := unreachable(game_map, action.origin, target):
            return found
    elif route_of(play, seat, action) is None:
        return Rejected("EAW-7.1", N_("%(area)s is not adjacent to any area %(seat)s controls", area=target, seat=seat))
    if is_last_province(state, game_map, target):
        return Rejected(
            "EAW-2.8",
            N_(
                "%(area)s is the only province of %(owner)s and cannot be attacked",
                area=target,
                owner=state.controller(target),
            ),
        )
    # EAW-1.2: a won attack places a control marker (EAW-7.4, EAW-8.9), so one must be left in stock
    return no_marker_left(play, seat)


def attack(play: Play, seat: str, action: Attack, free: bool = False) -> None:
    route = route_of(play, seat, action)
    assert route is not None  # attack_refusal accepted the action
    target = action.target
    play.say(
        "attack",
        seat,
        target=target,
        origin=route.origin,
        crossing=sorted(route.kinds),
        mediterranean=route.mediterranean,
        free=free,
        rule="EAW-7.1",
    )
    if route.rolled_crossing and not play.succeeds(
        "crossing", ROLLS["crossing"], "EAW-7.2", seat, play.roll_bonus(seat, "mountain")
    ):
        play.say("attack_failed", seat, target=target, roll="crossing", rule="EAW-7.2")
        return
    if needs_sea_move(play, route) and not play.succeeds(
        "sea_move", ROLLS["sea_move"], "EAW-7.3", seat, sea_move_bonus(play, seat, route)
    ):
        play.say("attack_failed", seat, target=target, roll="sea_move", rule="EAW-7.3")
        return
    owner = play.state.controller(target)
    if owner is None:
        if play.data.map.areas[target].kind != SEA and not play.succeeds(
            "neutral", ROLLS["neutral"], "EAW-7.4", seat, play.roll_bonus(seat, "neutral")
        ):
            play.say("attack_failed", seat, target=target, roll="neutral", rule="EAW-7.4")
            return
        play.say("area_taken", seat, target=target, rule="EAW-7.4")
        add_marker(play, seat, target, "EAW-7.4")
        return
    from adjudicator.rulesets.empires.battle import fight  # the battles engineer's module (EAW-8)

    outcome = fight(play, seat, target, action, route.kinds)
    if not outcome.rout_by_attacker:
        return
    if free:
        play.say("no_second_free_action", seat, area=target, rule="EAW-13.9")
        return
    from adjudicator.rulesets.empires.actions import free_action

    free_action(play, seat, target, action.then)
