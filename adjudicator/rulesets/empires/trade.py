"""Place trade markers (EAW-7.30, EAW-7.31, EAW-2.6, EAW-12.11, EAW-12.15).

2 markers from the warehouse, +n per merchant's `trade_place` (EAW-11.6), one at a time, one per target of the
order in its order. Reach (ordinary adjacency, never the Mediterranean rule): option `trade_reach` = `chain` (in or
next to an area the player controls or holding one of its trade markers, this action's included, EAW-13.19) |
`controlled_only` (in or next to an area it controls). A full area (its markers of all players = its value, EAW-2.6,
EAW-13.20) is skipped unless the target says DISPLACE (EAW-12.11): then a d6 + the merchants' `displace` bonus, 5+,
removes one marker of the named player (default: the one with most markers there, ties the next in seating order
after the placer, EAW-12.15) back to its owner's stock and places the marker; a failure sends the marker to the
placer's stock (EAW-7.31) and counts as placed. A refused target keeps its marker in the warehouse (EAW-7.30).
Plunder is never placed (EAW-8.13, EAW-13.25).

Events (public):
- `trade_placed` seat: area, rule (EAW-7.30)
- `trade_skipped` seat: area, reason, rule (a refused target, EAW-7.30, EAW-12.11)
- `trade_displaced` seat: area, owner, rule (EAW-7.31)
- `trade_lost` seat: area, rule (a failed displacement: the marker goes to stock, EAW-7.31)
- `roll` (play.succeeds) for each displacement, in placement order (EAW-0.5)"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from adjudicator.engine.vocabulary import N_, Rejected
from adjudicator.rulesets.empires.board import touches, unknown_area
from adjudicator.rulesets.empires.data import ROLLS, TRADE_PLACED
from adjudicator.rulesets.empires.economy import return_trade
from adjudicator.rulesets.empires.orders import PlaceTrade, TradeTarget
from adjudicator.rulesets.empires.play import Play


def markers_to_place(play: Play, seat: str) -> int:
    """EAW-7.30: 2, +n per merchant (trade_place), at most what the warehouse holds (own markers only, EAW-13.25)."""
    allowed = TRADE_PLACED + sum(e.number() for e in play.effects_of(seat, "trade_place"))
    return min(allowed, play.state.players[seat].warehouse)


def markers_in(play: Play, area: str) -> int:
    """EAW-2.6: the trade markers of all players in `area`."""
    return sum(play.state.trade.get(area, {}).values())


def is_full(play: Play, area: str) -> bool:
    """EAW-2.6, EAW-13.20: full when the markers number as many as the area's value."""
    return markers_in(play, area) >= play.data.map.areas[area].value


def displaced_owner(play: Play, seat: str, target: TradeTarget) -> str | None:
    """EAW-12.15: the named player if it has a marker there, else the player with most markers there, ties the
    next in seating order after the placer; None when no other player has one."""
    there = {s: n for s, n in play.state.trade.get(target.area, {}).items() if n > 0 and s != seat}
    if target.displace and target.displace in there:
        return target.displace
    if not there:
        return None
    seats = play.state.seats
    after = seats.index(seat) if seat in seats else 0
    order = {s: (i - after - 1) % len(seats) for i, s in enumerate(seats)}
    return min(there, key=lambda s: (-there[s], order.get(s, len(seats))))


@dataclass(frozen=True)
class Step:
    """One target as the walk through the order judges it: `refused` (stays in the warehouse), else `displace`
    (a roll against that owner) or a plain placement."""

    target: TradeTarget
    refused: Rejected | None = None
    displace: str | None = None


def _reach(play: Play, seat: str, placed: set[str]) -> set[str]:
    held = set(play.state.controlled(seat))
    if play.options.trade_reach == "chain":
        held |= {a for a, by in play.state.trade.items() if by.get(seat, 0) > 0} | placed
    return held


def judge(play: Play, seat: str, target: TradeTarget, placed: set[str]) -> Step:
    """Whether `target` can take a marker now (`placed`: this action's areas so far, for the chain, EAW-13.19)."""
    area = target.area
    if found := unknown_area(play.data.map, area):
        return Step(target, found)
    if not touches(play.data.map, area, _reach(play, seat, placed)):
        if play.options.trade_reach == "chain":
            reason = N_(
                "%(area)s is neither in nor next to an area %(seat)s controls or trades in", area=area, seat=seat
            )
        else:
            reason = N_("%(area)s is neither in nor next to an area %(seat)s controls", area=area, seat=seat)
        return Step(target, Rejected("EAW-7.30", reason))
    if not is_full(play, area):
        return Step(target)
    if target.displace is None:
        return Step(target, Rejected("EAW-12.11", N_("%(area)s is full and the order does not displace", area=area)))
    owner = displaced_owner(play, seat, target)
    if owner is None:
        return Step(
            target, Rejected("EAW-7.31", N_("%(area)s is full of %(seat)s's own markers", area=area, seat=seat))
        )
    return Step(target, displace=owner)


def walk(play: Play, seat: str, action: PlaceTrade) -> Iterator[Step]:
    """The targets as judged in order, assuming each accepted one receives its marker (for the refusal)."""
    placed: set[str] = set()
    for target in action.targets:
        step = judge(play, seat, target, placed)
        if step.refused is None:
            placed.add(target.area)
        yield step


def trade_refusal(play: Play, seat: str, action: PlaceTrade) -> Rejected | None:
    """EAW-7.30: refused when the warehouse holds none of the player's own markers, or no target can take one."""
    if play.state.players[seat].warehouse <= 0:
        return Rejected("EAW-7.30", N_("the warehouse holds no trade marker of %(seat)s to place", seat=seat))
    steps = list(walk(play, seat, action))
    if not steps:
        return Rejected("EAW-7.30", N_("the order names no area"))
    if all(s.refused is not None for s in steps):
        return steps[0].refused
    return None


def place_trade(play: Play, seat: str, action: PlaceTrade) -> None:
    player = play.state.players[seat]
    left = markers_to_place(play, seat)
    placed: set[str] = set()
    for target in action.targets:
        if left <= 0:
            break
        step = judge(play, seat, target, placed)
        area = target.area
        if step.refused is not None:
            play.say("trade_skipped", seat, area=area, reason=step.refused.reason, rule=step.refused.rule)
            continue
        left -= 1
        player.warehouse -= 1
        if step.displace is not None:
            bonus = play.roll_bonus(seat, "displace")
            if not play.succeeds("displace", ROLLS["displace"], "EAW-7.31", seat, bonus):
                return_trade(play.state, seat, 1)
                play.say("trade_lost", seat, area=area, rule="EAW-7.31")
                continue
            there = play.state.trade[area]
            there[step.displace] -= 1
            if not there[step.displace]:
                del there[step.displace]
            return_trade(play.state, step.displace, 1)
            play.say("trade_displaced", seat, area=area, owner=step.displace, rule="EAW-7.31")
        play.state.trade.setdefault(area, {})
        play.state.trade[area][seat] = play.state.trade[area].get(seat, 0) + 1
        placed.add(area)
        play.say("trade_placed", seat, area=area, rule="EAW-7.30")
