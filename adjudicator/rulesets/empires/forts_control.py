"""Build a fort (EAW-7.25, EAW-2.5) and place a control marker (EAW-7.40, EAW-7.41), the EAW-12.2 default's site
(EAW-12.12), and the pieces every action spends: control markers from stock (EAW-1.2) and the refusal of a payment
the warehouse cannot make (EAW-6.3; the payment itself is the flow's economy.pay).

Events (public):
- `fort_built` seat: area, cost, rule (EAW-7.25)
- `marker_added` seat: area, markers (now there), rule (EAW-7.40, EAW-12.2)
- `paid` (economy.pay) seat: markers, plunder, warehouse, purpose, rule (EAW-6.3)"""

from __future__ import annotations

from adjudicator.engine.vocabulary import N_, Rejected
from adjudicator.rulesets.empires.board import not_a_province
from adjudicator.rulesets.empires.data import COSTS
from adjudicator.rulesets.empires.economy import pay, spendable
from adjudicator.rulesets.empires.orders import BuildFort, PlaceControl
from adjudicator.rulesets.empires.play import Play
from adjudicator.rulesets.empires.state import Control


# -- payments (EAW-6.3: economy.pay and economy.spendable of the flow) -------------------------------------------
def cannot_pay(play: Play, seat: str, markers: int, rule: str, purpose: str) -> Rejected | None:
    """EAW-6.3: a refusal when the warehouse cannot pay `markers`."""
    held = spendable(play, seat)
    if held >= markers:
        return None
    return Rejected(
        rule,
        N_(
            "%(purpose)s costs %(cost)s trade markers and the warehouse holds %(held)s",
            purpose=purpose,
            cost=markers,
            held=held,
        ),
    )


# -- control markers (EAW-1.2, EAW-2.4) -------------------------------------------------------------------------
def no_marker_left(play: Play, seat: str) -> Rejected | None:
    """EAW-1.2: a control marker must come from the player's stock (None in the data: unlimited)."""
    if play.state.players[seat].stock_control == 0:
        return Rejected("EAW-1.2", N_("no control marker is left in stock"))
    return None


def add_marker(play: Play, seat: str, area: str, rule: str) -> None:
    """One control marker of `seat` from stock into `area` (which is neutral or the seat's, EAW-2.4)."""
    player = play.state.players[seat]
    if player.stock_control is not None:
        player.stock_control -= 1
    held = play.state.control.get(area)
    if held is None:
        play.state.control[area] = held = Control(seat, 0)
    held.markers += 1
    play.say("marker_added", seat, area=area, markers=held.markers, rule=rule)


def remove_marker(play: Play, area: str) -> str:
    """One control marker out of `area`, back to its owner's stock (EAW-7.11 b); the owner."""
    held = play.state.control[area]
    owner = held.seat
    held.markers -= 1
    if held.markers <= 0:
        del play.state.control[area]
    stock = play.state.players[owner]
    if stock.stock_control is not None:
        stock.stock_control += 1
    return owner


# -- EAW-7.40: a control marker ---------------------------------------------------------------------------------
def control_refusal(play: Play, seat: str, action: PlaceControl) -> Rejected | None:
    if play.state.controller(action.area) != seat:
        return Rejected(
            "EAW-7.40",
            N_("%(area)s is not controlled by %(seat)s: a marker is added only there", area=action.area, seat=seat),
        )
    return no_marker_left(play, seat)


def place_control(play: Play, seat: str, action: PlaceControl) -> None:
    add_marker(play, seat, action.area, "EAW-7.40")


def default_site(play: Play, seat: str) -> str | None:
    """EAW-12.2: the controlled province with the fewest markers (lowest id); without a province, the controlled
    sea area so chosen; None when the seat controls nothing."""
    held = play.state.controlled(seat)
    provinces = [a for a in held if play.data.map.areas[a].is_province]
    choices = provinces or held
    if not choices:
        return None
    return min(choices, key=lambda a: (play.state.markers(a), a))


# -- EAW-7.25: a fort -------------------------------------------------------------------------------------------
def fort_cost(play: Play, seat: str) -> int:
    """EAW-7.25: 4 trade markers, or the engineer's fort_cost (EAW-11.6; 2 in the rules)."""
    costs = [e.number() for e in play.effects_of(seat, "fort_cost")]
    return min([COSTS["fort"], *costs])


def fort_refusal(play: Play, seat: str, action: BuildFort) -> Rejected | None:
    if found := not_a_province(play.data.map, action.area):
        return found
    if play.state.controller(action.area) != seat:
        return Rejected("EAW-7.25", N_("%(area)s is not controlled by %(seat)s", area=action.area, seat=seat))
    if action.area in play.state.forts:
        return Rejected("EAW-2.5", N_("%(area)s already holds a fort: a province holds at most one", area=action.area))
    if play.state.players[seat].stock_forts == 0:
        return Rejected("EAW-1.2", N_("no fort is left in stock"))
    return cannot_pay(play, seat, fort_cost(play, seat), "EAW-7.25", N_("a fort"))


def build_fort(play: Play, seat: str, action: BuildFort) -> None:
    cost = fort_cost(play, seat)
    pay(play, seat, cost, "EAW-7.25", "fort")
    player = play.state.players[seat]
    if player.stock_forts is not None:
        player.stock_forts -= 1
    play.state.forts[action.area] = seat
    play.say("fort_built", seat, area=action.area, cost=cost, rule="EAW-7.25")
