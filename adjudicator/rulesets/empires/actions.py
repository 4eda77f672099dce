"""One action of a player (EAW-7): a plan line's alternatives, the EAW-12.2 default and the free action after a
rout (EAW-8.11, EAW-12.9, EAW-13.9).

`take_action(play, seat, line)`: the first alternative `refusal` accepts is taken; each refused one before it is
told to the seat alone with its rule and reason (a fall-back tells of the player's plans). None accepted, or no
line: the EAW-12.2 default, a control marker in the controlled province with the fewest markers (lowest id).
**Resolution** (a player without a province): the controlled sea area so chosen; a player who controls nothing, or
has no control marker left in stock, loses the action (EAW-4.2: no passing, the turn is used).

Free action: after an attack whose attacker routed the defender, the attack's `then` alternatives (EAW-12.9), else
the decision `free.<area>` (answer: a plan line; default: the EAW-12.2 default); a free action never earns another
(EAW-13.9).

Events:
- `alternative_refused` (private to the seat): index (1-based), action (its order text), reason, rule
- `default_action` seat: rule EAW-12.2 (why: "no_plan" | "all_refused"), then the action's own events
- `action_lost` seat: rule EAW-12.2 (the default had no site)
- `free_action` seat: area, rule EAW-12.9 (before the free action's own events)"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

from adjudicator.engine.decisions import BadAnswer
from adjudicator.engine.vocabulary import N_, Rejected
from adjudicator.rulesets.empires import attack as attacks
from adjudicator.rulesets.empires import diplomacy as diplomacies
from adjudicator.rulesets.empires import forts_control, recruit, trade
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
    canonical,
)
from adjudicator.rulesets.empires.play import Play

FREE_RULE = "EAW-12.9"


# each action's check (whether it can be taken now, changing nothing) and its play (after the check accepted it;
# `free`: it is itself a free action, EAW-13.9)
Check = Callable[[Play, str, Any], Rejected | None]
Perform = Callable[[Play, str, Any, bool], None]
KINDS: Final[dict[type, tuple[Check, Perform]]] = {
    Attack: (attacks.attack_refusal, attacks.attack),
    Diplomacy: (diplomacies.diplomacy_refusal, lambda p, s, a, _free: diplomacies.diplomacy(p, s, a)),
    Recruit: (recruit.recruit_refusal, lambda p, s, a, _free: recruit.recruit(p, s, a)),
    Disband: (recruit.disband_refusal, lambda p, s, a, _free: recruit.disband(p, s, a)),
    BuildFort: (forts_control.fort_refusal, lambda p, s, a, _free: forts_control.build_fort(p, s, a)),
    PlaceTrade: (trade.trade_refusal, lambda p, s, a, _free: trade.place_trade(p, s, a)),
    PlaceControl: (forts_control.control_refusal, lambda p, s, a, _free: forts_control.place_control(p, s, a)),
}


def refusal(play: Play, seat: str, action: Action) -> Rejected | None:
    """Whether `seat` can take `action` now (EAW-7), without changing anything: the refusal with its rule, or None."""
    kind = KINDS.get(type(action))
    if kind is None:
        return Rejected("EAW-7.41", N_("this is not one of the five actions"))
    return kind[0](play, seat, action)


def perform(play: Play, seat: str, action: Action, free: bool = False) -> None:
    """Carry out an action `refusal` accepted; `free`: it is itself a free action (no second one, EAW-13.9)."""
    kind = KINDS.get(type(action))
    if kind is not None:
        kind[1](play, seat, action, free)


def default_action(play: Play, seat: str) -> PlaceControl | None:
    """EAW-12.2: a control marker in the controlled province with the fewest markers (lowest id); None when the
    seat controls nothing or has no marker left."""
    site = forts_control.default_site(play, seat)
    if site is None or forts_control.no_marker_left(play, seat) is not None:
        return None
    return PlaceControl(site)


def chosen(play: Play, seat: str, alternatives: Sequence[Action]) -> Action | None:
    """The first alternative that can be taken now, telling the seat why each one before it cannot."""
    for index, action in enumerate(alternatives, 1):
        refused = refusal(play, seat, action)
        if refused is None:
            return action
        play.tell(
            seat,
            "alternative_refused",
            seat,
            index=index,
            action=order_text(action),
            reason=refused.reason,
            rule=refused.rule,
        )
    return None


def take_action(play: Play, seat: str, line: PlanLine | None) -> None:
    """Play one action of `seat` (EAW-7): the first legal alternative of `line`, else the EAW-12.2 default."""
    _take(play, seat, line.alternatives if line is not None else (), free=False)


def _take(play: Play, seat: str, alternatives: Sequence[Action], free: bool) -> None:
    action = chosen(play, seat, alternatives)
    if action is None:
        action = default_action(play, seat)
        why = "all_refused" if alternatives else "no_plan"
        if action is None:
            play.say("action_lost", seat, why=why, rule="EAW-12.2")
            return
        play.say("default_action", seat, why=why, action=order_text(action), rule="EAW-12.2")
    perform(play, seat, action, free)


def free_action(play: Play, seat: str, area: str, then: Sequence[Action]) -> None:
    """EAW-8.11, EAW-12.9: the routing attacker's free action, at once; it never earns another (EAW-13.9)."""
    play.say("free_action", seat, area=area, rule=FREE_RULE)
    alternatives: Sequence[Action] = then
    if not alternatives:
        fallback = default_action(play, seat)
        default: tuple[Action, ...] = (fallback,) if fallback is not None else ()
        alternatives = play.decide(
            seat,
            f"free.{area}",
            N_("Your free action after the rout in %(area)s (a plan line)", area=area),
            FREE_RULE,
            default,
            read=lambda text: read_free(play, text, default),
            show=line_text,
        )
    _take(play, seat, alternatives, free=True)


def read_free(play: Play, text: str, default: tuple[Action, ...]) -> tuple[Action, ...]:
    """A free action's answer: a plan line, or the default as the question shows it. With no action to default to
    (EAW-12.2: no marker left, or nothing controlled) that is a bare "CONTROL", which is no plan line, yet it is the
    documented default and so an answer taken (the action is lost, as by default)."""
    if not default and text.strip().casefold() == line_text(default).casefold():
        return default
    return read_line(play, text)


def read_line(play: Play, text: str) -> tuple[Action, ...]:
    """An ANSWER's text as a plan line, read by the order language (parse.py read_action_line, EAW-12.9)."""
    try:
        from adjudicator.rulesets.empires.parse import OrderLanguage, read_action_line  # the orders engineer's
    except ImportError as missing:
        raise BadAnswer(N_("a free action cannot be read here (EAW-12.9)")) from missing
    try:
        return tuple(read_action_line(text, OrderLanguage(play.data, play.state.seats)))
    except BadAnswer:
        raise
    except ValueError as bad:  # the reader's BadActionLine names the problem, its column and EAW-12.9
        raise BadAnswer(str(bad)) from bad


# -- order texts (receipts, refusals, the free action's default answer) ------------------------------------------
def order_text(action: Action, language: str = "en") -> str:
    """The action as a plan line writes it, in `language`'s keywords (orders.canonical: it reads back as the same
    action); events keep English, which the reports write in each reader's keywords."""
    return canonical(action, language)


def line_text(alternatives: Sequence[Action]) -> str:
    """A plan line of `alternatives` (EAW-12.2: joined by ELSE), as an answer writes it."""
    return canonical(PlanLine(tuple(alternatives))) if alternatives else "CONTROL"
