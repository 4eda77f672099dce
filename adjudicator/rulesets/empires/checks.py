"""Receipts of plan lines (EAW-12.2): `check_plan_line(play, seat, line) -> OrderResult`.

A plan line is judged again when its turn comes, against the position then, so a receipt refuses a line only when
the game's data rule out every alternative for good (an area or card the data do not know, a fort at sea, an origin
with no connection to the target even by the Mediterranean rule, a removal no diplomat of the data can make, a
recruit list naming nothing a card can be). Otherwise the line is accepted, and the receipt says which alternative
the position as it stands would take (or that the EAW-12.2 default would), and names the alternatives that can
never be taken. Makes no events; changes nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from adjudicator.engine.vocabulary import N_, OrderResult, Rejected
from adjudicator.orders.keywords import in_english
from adjudicator.rulesets.empires import battle_stacks as stacks
from adjudicator.rulesets.empires.actions import order_text, refusal
from adjudicator.rulesets.empires.board import LAND_KINDS, not_a_province, unknown_area, unreachable
from adjudicator.rulesets.empires.data import (
    CATEGORIES,
    EMPIRE,
    PERSONALITY,
    PERSONALITY_TYPES,
    SEA_LANE,
    GameData,
    base_id,
)
from adjudicator.rulesets.empires.orders import (
    Action,
    Attack,
    BuildFort,
    Diplomacy,
    Disband,
    PlaceControl,
    PlaceTrade,
    PlanLine,
    Recruit,
)
from adjudicator.rulesets.empires.parse import RULESET, written_in
from adjudicator.rulesets.empires.play import Play
from adjudicator.rulesets.empires.recruit import BEST


def _unknown_area(data: GameData, area: str) -> Rejected | None:
    return unknown_area(data.map, area)


def _land_reachable(data: GameData, target: str) -> bool:
    """EAW-7.12 land_only: some connection of the target is a land, mountain or strait border, not a sea lane."""
    return any(target in (c.a, c.b) and c.kinds <= LAND_KINDS and SEA_LANE not in c.kinds for c in data.map.connections)


def never_legal(play: Play, seat: str, action: Action) -> Rejected | None:
    """What the game's data rule out for good, whatever the position becomes."""
    check = _NEVER.get(type(action))
    if check is None:
        return Rejected("EAW-7.41", N_("this is not one of the five actions"))
    return check(play, seat, action)


def _never_attack(play: Play, seat: str, action: Attack) -> Rejected | None:
    data = play.data
    for area in (action.target, action.origin):
        if area and (found := _unknown_area(data, area)):
            return found
    if action.origin == action.target:
        return Rejected("EAW-7.1", N_("an area cannot attack itself"))
    if action.origin and (found := unreachable(data.map, action.origin, action.target)):
        return found
    unknown = [c for c in action.stack if c not in data.cards]
    if unknown:
        return Rejected("EAW-12.6", N_("%(cards)s: no such card", cards=", ".join(unknown)))
    return None


def _never_diplomacy(play: Play, seat: str, action: Diplomacy) -> Rejected | None:
    data = play.data
    if found := _unknown_area(data, action.target):
        return found
    if play.options.diplomacy_reach == "land_only" and not _land_reachable(data, action.target):
        return Rejected("EAW-7.12", N_("%(area)s has no land border: diplomacy_reach is land_only", area=action.target))
    if not action.remove:
        return None
    removals = [e for c in data.cards.values() for e in c.effects if e.code == "diplomacy_remove"]
    if not removals:
        return Rejected("EAW-7.11", N_("no card of this game can remove a marker by diplomacy"))
    most = max(e.number("max_markers", 3) for e in removals)
    if action.pay is not None and not 0 <= action.pay <= most:
        return Rejected(
            "EAW-7.11", N_("the diplomat pays 0 to %(most)s markers, not %(paid)s", most=most, paid=action.pay)
        )
    return None


def _never_recruit(play: Play, seat: str, action: Recruit) -> Rejected | None:
    known = {BEST, *CATEGORIES, *PERSONALITY_TYPES, *(c.casefold() for c in play.data.cards)}
    unknown = [w for w in action.wants if w.casefold() not in known]
    if unknown:
        return Rejected(
            "EAW-12.3",
            N_(
                "%(wants)s: neither a card, a category, a personality nor %(kw_best)s",
                wants=", ".join(unknown),
                **in_english("best", ruleset=RULESET),
            ),
        )
    return None


def _never_disband(play: Play, seat: str, action: Disband) -> Rejected | None:
    entry = play.data.cards.get(base_id(action.card))
    if entry is None:
        return Rejected("EAW-7.21", N_("%(card)s is not a card of the game", card=action.card))
    if entry.kind in (PERSONALITY, EMPIRE):
        return Rejected("EAW-7.21", N_("personality and home-army cards are never discarded"))
    return None


def _never_fort(play: Play, seat: str, action: BuildFort) -> Rejected | None:
    return _unknown_area(play.data, action.area) or not_a_province(play.data.map, action.area)


def _never_trade(play: Play, seat: str, action: PlaceTrade) -> Rejected | None:
    for target in action.targets:
        if found := _unknown_area(play.data, target.area):
            return found
        if target.displace and (target.displace not in play.state.seats or target.displace == seat):
            return Rejected("EAW-12.15", N_("%(owner)s is not another player of this game", owner=target.displace))
    return None


def _never_control(play: Play, seat: str, action: PlaceControl) -> Rejected | None:
    return _unknown_area(play.data, action.area)


_NEVER: Final[dict[type, Callable[[Play, str, Any], Rejected | None]]] = {
    Attack: _never_attack,
    Diplomacy: _never_diplomacy,
    Recruit: _never_recruit,
    Disband: _never_disband,
    BuildFort: _never_fort,
    PlaceTrade: _never_trade,
    PlaceControl: _never_control,
}


def check_plan_line(play: Play, seat: str, line: PlanLine) -> OrderResult:
    """The receipt of one plan line (EAW-12.2): refused only when no alternative can ever be taken."""
    never = [never_legal(play, seat, a) for a in line.alternatives]
    if line.alternatives and all(n is not None for n in never):
        first = next(n for n in never if n is not None)
        return OrderResult(line.line, line.text, False, first.reason, first.rule)
    now = next(
        (
            (i, a)
            for i, (a, n) in enumerate(zip(line.alternatives, never, strict=True), 1)
            if n is None and refusal(play, seat, a) is None
        ),
        None,
    )
    if now is not None:
        said = N_(
            "as the position stands now, alternative %(n)s (%(action)s) would be taken; the line is judged again "
            "when its turn comes (EAW-12.2)",
            n=now[0],
            action=order_text(now[1], written_in(line.text)),  # the keywords the player wrote the line in
        )
    else:
        said = N_(
            "as the position stands now, no alternative can be taken and the default would be (a control marker, "
            "EAW-12.2); the line is judged again when its turn comes"
        )
    for i, action in enumerate(line.alternatives, 1):
        stack = _refused_stack(play, seat, action) if never[i - 1] is None else None
        if stack is not None:
            said = N_(
                "%(said)s; the stack of alternative %(n)s would be refused as the position stands: %(why)s; the "
                "default stack would fight: %(cards)s (EAW-8.21)",
                said=said,
                n=i,
                why=stack[0],
                cards=stack[1],
            )
    for i, n in enumerate(never, 1):  # one engine text each, so that the renderer translates the whole
        if n is not None:
            said = N_(
                "%(said)s; alternative %(n)s can never be taken: %(why)s (%(rule)s)",
                said=said,
                n=i,
                why=n.reason,
                rule=n.rule,
            )
    return OrderResult(line.line, line.text, True, said, "EAW-12.2")


def _refused_stack(play: Play, seat: str, action: Action) -> tuple[str, str] | None:
    """EAW-8.21: why the battle an attack would fight now refuses its written stack, and the default stack that would
    fight instead (card ids); None without a written stack, without a battle now, or for a stack it takes. A fort's
    siege is the defender's secret (EAW-12.4): the battle judged is its default, open (a sea area: naval)."""
    if not isinstance(action, Attack) or not action.stack:
        return None
    defender = play.state.controller(action.target)
    if defender is None or defender == seat:
        return None
    kind = stacks.NAVAL if play.data.map.areas[action.target].is_sea else stacks.OPEN
    hand = play.state.players[seat].hand
    free = bool(play.effects_of(seat, "stack_order_free"))
    why = stacks.refusal(play.data, hand, kind, action.stack, free)
    if why is None:
        return None
    return why, ", ".join(base_id(i) for i in stacks.default(play.data, hand, kind, free))
