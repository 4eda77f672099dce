"""Diplomatic attacks (EAW-7.10 to EAW-7.13, EAW-13.14, EAW-2.8, EAW-12.10).

Reach (EAW-7.12): from any area the player controls, by option `diplomacy_reach`: `mediterranean` (ordinary
adjacency and the Mediterranean rule of EAW-2.3) | `land_only` (board.diplomacy_route); no crossing or sea rolls.

- Takeover of a neutral area: pay 2 and roll 2+ (the `diplomacy` roll_mod), EAW-7.10; with a diplomat's
  `diplomacy_takeover` (EAW-11.6: cost n, roll k or 0 for none; 1 and no roll in the rules) instead, EAW-7.11 (a).
- Removal (REMOVE, EAW-7.11 b): a diplomat's `diplomacy_remove` (target k, per_marker n, max_markers m; 6, +1, 3 in
  the rules): pay 0 to m markers (EAW-12.10: unnamed, as many as the warehouse allows up to m), roll d6 + n per
  marker (+ the `diplomacy` roll_mod) against k+; one marker of the other player goes back to its stock; an area
  left neutral is taken over at once (EAW-7.11 b), one with markers left stays its owner's (EAW-13.14). A player's
  only province is refused under last_province = all (EAW-2.8, EAW-13.18).
Payments come before the roll and are lost on a failure (EAW-7.10, EAW-7.11).

Events (public): `diplomacy` seat: target, remove, paid, rule; `paid`; `roll` purpose diplomacy | diplomat_remove;
`diplomacy_failed` seat: target, rule; `marker_removed` seat: area, owner, left, rule EAW-7.11; `marker_added`."""

from __future__ import annotations

from adjudicator.engine.vocabulary import N_, Rejected
from adjudicator.rulesets.empires.board import diplomacy_route, is_last_province, unknown_area
from adjudicator.rulesets.empires.data import COSTS, ROLLS, Effect
from adjudicator.rulesets.empires.economy import pay, spendable
from adjudicator.rulesets.empires.forts_control import add_marker, cannot_pay, no_marker_left, remove_marker
from adjudicator.rulesets.empires.orders import Diplomacy
from adjudicator.rulesets.empires.play import Play


def takeover_terms(play: Play, seat: str) -> tuple[int, int, str]:
    """EAW-7.10, EAW-7.11 (a): the cost, the roll needed (0: none) and the rule, the diplomat's when it has one."""
    effects = play.effects_of(seat, "diplomacy_takeover")
    if effects:
        effect = effects[0]
        return effect.number("cost", 1), effect.number("roll", 0), "EAW-7.11"
    return COSTS["diplomacy"], ROLLS["diplomacy"], "EAW-7.10"


def remove_effect(play: Play, seat: str) -> Effect | None:
    """EAW-7.11 (b): the diplomat's removal, None without one."""
    found = play.effects_of(seat, "diplomacy_remove")
    return found[0] if found else None


def remove_payment(play: Play, seat: str, action: Diplomacy, effect: Effect) -> int:
    """EAW-12.10: the markers paid: as ordered, else as many as the warehouse allows up to the maximum (3)."""
    most = effect.number("max_markers", 3)
    if action.pay is not None:
        return action.pay
    return min(most, spendable(play, seat))


def reaches(play: Play, seat: str, target: str) -> bool:
    """EAW-7.12: `target` is adjacent, by the option diplomacy_reach, to an area `seat` controls."""
    reach = play.options.diplomacy_reach
    return any(diplomacy_route(play.data.map, a, target, reach) for a in play.state.controlled(seat))


def diplomacy_refusal(play: Play, seat: str, action: Diplomacy) -> Rejected | None:
    state, target = play.state, action.target
    if found := unknown_area(play.data.map, target):
        return found
    if not reaches(play, seat, target):
        return Rejected(
            "EAW-7.12",
            N_(
                "%(area)s is not adjacent to an area %(seat)s controls (diplomacy_reach %(reach)s)",
                area=target,
                seat=seat,
                reach=play.options.diplomacy_reach,
            ),
        )
    owner = state.controller(target)
    if not action.remove:
        if owner is not None:
            return Rejected(
                "EAW-7.10", N_("%(area)s is not neutral: diplomacy takes over only a neutral area", area=target)
            )
        cost, _, rule = takeover_terms(play, seat)
        return no_marker_left(play, seat) or cannot_pay(play, seat, cost, rule, N_("diplomacy"))
    effect = remove_effect(play, seat)
    if effect is None:
        return Rejected("EAW-7.11", N_("removing a marker needs a diplomat"))
    if owner is None or owner == seat:
        return Rejected("EAW-7.11", N_("%(area)s holds no control marker of another player", area=target))
    if play.options.last_province == "all" and is_last_province(state, play.data.map, target):
        return Rejected(
            "EAW-2.8", N_("%(area)s is the only province of %(owner)s and cannot be attacked", area=target, owner=owner)
        )
    most = effect.number("max_markers", 3)
    paid = remove_payment(play, seat, action, effect)
    if not 0 <= paid <= most:
        return Rejected("EAW-7.11", N_("the diplomat pays 0 to %(most)s markers, not %(paid)s", most=most, paid=paid))
    return cannot_pay(play, seat, paid, "EAW-6.3", N_("the diplomat's removal"))


def diplomacy(play: Play, seat: str, action: Diplomacy) -> None:
    target = action.target
    if not action.remove:
        cost, needed, rule = takeover_terms(play, seat)
        play.say("diplomacy", seat, target=target, remove=False, paid=cost, rule=rule)
        pay(play, seat, cost, rule, "diplomacy")
        if needed and not play.succeeds("diplomacy", needed, rule, seat, play.roll_bonus(seat, "diplomacy")):
            play.say("diplomacy_failed", seat, target=target, rule=rule)
            return
        add_marker(play, seat, target, rule)
        return
    effect = remove_effect(play, seat)
    assert effect is not None  # diplomacy_refusal accepted the action
    paid = remove_payment(play, seat, action, effect)
    play.say("diplomacy", seat, target=target, remove=True, paid=paid, rule="EAW-7.11")
    pay(play, seat, paid, "EAW-7.11", "diplomacy")
    bonus = paid * effect.number("per_marker", 1) + play.roll_bonus(seat, "diplomacy")
    needed = effect.number("target", ROLLS["diplomat_remove"])
    if not play.succeeds("diplomat_remove", needed, "EAW-7.11", seat, bonus):
        play.say("diplomacy_failed", seat, target=target, rule="EAW-7.11")
        return
    owner = remove_marker(play, target)
    left = play.state.markers(target)
    play.say("marker_removed", seat, area=target, owner=owner, left=left, rule="EAW-7.11" if not left else "EAW-13.14")
    if not left and no_marker_left(play, seat) is None:
        add_marker(play, seat, target, "EAW-7.11")
