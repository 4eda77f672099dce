"""Ransom agreements (C-13.1 to C-13.3, C-15.17) and concession (C-14.2)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from adjudicator.engine.vocabulary import N_, Rejected
from adjudicator.rulesets.coe.orders import Concede, RansomAccept, RansomOffer
from adjudicator.rulesets.coe.state import Captive
from adjudicator.rulesets.coe.turn import Turn

if TYPE_CHECKING:
    pass


def record_acceptance(turn: Turn, order: RansomAccept) -> str:
    """A standing acceptance: as holder, the least talents taken; as owner, the most talents paid."""
    holder = holder_of(turn, order.owner, order.general)
    if holder is None:
        raise Rejected(
            turn.rules.rule("13.1"),
            N_("nobody holds %(owner)s's G%(general)s prisoner", owner=order.owner, general=order.general),
        )
    if turn.seat not in (holder, order.owner):
        raise Rejected(
            turn.rules.rule("13.1"),
            N_(
                "you are neither the holder (%(holder)s) nor the owner of %(owner)s's G%(general)s",
                holder=holder,
                owner=order.owner,
                general=order.general,
            ),
        )
    accepts = turn.state.players[turn.seat].standing.setdefault("ransom_accept", [])
    accepts[:] = [a for a in accepts if (a["owner"], a["general"]) != (order.owner, order.general)]
    accepts.append({"owner": order.owner, "general": order.general, "talents": order.min_talents})
    return N_("standing acceptance recorded")


def holder_of(turn: Turn, owner: str, general: int) -> str | None:
    for seat, player in turn.state.players.items():
        if any((c.owner, c.general) == (owner, general) for c in player.captives):
            return seat
    return None


def ransom(turn: Turn, order: RansomOffer) -> str:
    """Phase 6: the offer is executed at once when it meets the other party's standing acceptance.

    The general goes back to its owner; in return the owner's side pays the talents. Prisoners named in
    the offer must be held by the active player, who returns them with the deal (C-13.2).
    """
    ruleset = turn.rules
    state, seat = turn.state, turn.seat
    rule = ruleset.rule
    holder = holder_of(turn, order.owner, order.general)
    if holder is None:
        raise Rejected(
            rule("13.1"), N_("nobody holds %(owner)s's G%(general)s prisoner", owner=order.owner, general=order.general)
        )
    if seat not in (holder, order.owner):
        raise Rejected(
            rule("13.1"),
            N_(
                "you are neither the holder (%(holder)s) nor the owner of %(owner)s's G%(general)s",
                holder=holder,
                owner=order.owner,
                general=order.general,
            ),
        )
    other = order.owner if seat == holder else holder
    mine = state.players[seat].captives
    named = [(order.owner, order.general), *order.prisoners]
    if len(set(named)) != len(named):
        raise Rejected(rule("13.2"), N_("a general is named twice in the offer"))
    for owner, general in order.prisoners:
        if Captive(owner, general) not in mine:
            raise Rejected(rule("13.2"), N_("you do not hold %(owner)s's G%(general)s", owner=owner, general=general))
        if owner != other:  # C-13.1, C-13.2: an agreement between two players returns only their prisoners
            raise Rejected(
                rule("13.2"),
                N_(
                    "%(owner)s's G%(general)s is no part of an agreement with %(other)s",
                    owner=owner,
                    general=general,
                    other=other,
                ),
            )
    payer = order.owner
    if state.players[payer].treasury < order.talents:
        raise Rejected(
            rule("13.3"), N_("%(seat)s does not have %(talents)s talents", seat=payer, talents=order.talents)
        )
    returned = [(order.owner, order.general), *order.prisoners]
    for owner, _ in returned:
        home = state.players[owner].home
        if state.area(home).owner != owner:
            raise Rejected(
                rule("13.3"),
                N_(
                    "%(seat)s does not control his home province %(home)s: a returned "
                    "general cannot be placed there (%(rule)s)",
                    seat=owner,
                    home=home,
                    rule=rule("12.5"),
                ),
            )
    accepted = next(
        (
            a
            for a in state.players[other].standing.get("ransom_accept", [])
            if (a["owner"], a["general"]) == (order.owner, order.general)
        ),
        None,
    )
    if accepted is None:
        raise Rejected(
            rule("15.17"),
            N_(
                "%(seat)s has no standing acceptance for %(owner)s's G%(general)s",
                seat=other,
                owner=order.owner,
                general=order.general,
            ),
        )
    fair = order.talents >= accepted["talents"] if other == holder else order.talents <= accepted["talents"]
    if not fair:
        raise Rejected(
            rule("15.17"),
            N_("%(seat)s accepts at least %(talents)s talents", seat=other, talents=accepted["talents"])
            if other == holder
            else N_("%(seat)s accepts at most %(talents)s talents", seat=other, talents=accepted["talents"]),
        )
    state.players[payer].treasury -= order.talents
    state.players[holder].treasury += order.talents
    for owner, general in returned:
        keeper = holder_of(turn, owner, general)
        assert keeper is not None
        state.players[keeper].captives.remove(Captive(owner, general))
        state.force(state.players[owner].home, owner).generals.append(general)
    state.players[other].standing["ransom_accept"].remove(accepted)
    turn.event(
        "ransomed",
        seat,
        other=other,
        talents=order.talents,
        payer=payer,
        generals=[f"{o} G{g}" for o, g in returned],
        rule=rule("13.3"),
    )
    return N_("agreed with %(seat)s", seat=other)


def concede(turn: Turn, order: Concede) -> str:
    """C-14.2: the game ends when every other remaining player has conceded to the same player."""
    state = turn.state
    if order.to == turn.seat:
        raise Rejected(turn.rules.rule("14.2"), N_("you cannot concede to yourself"))
    if order.to not in state.players or state.players[order.to].eliminated:
        raise Rejected(turn.rules.rule("14.2"), N_("%(seat)s is not in the game", seat=order.to))
    state.players[turn.seat].conceded_to = order.to
    turn.event("conceded", turn.seat, to=order.to, rule=turn.rules.rule("14.2"))
    others = [s for s in state.in_play() if s != order.to]
    if all(state.players[s].conceded_to == order.to for s in others):
        state.winner = order.to
        turn.event("victory", order.to, rule=turn.rules.rule("14.2"))
    return N_("conceded to %(seat)s", seat=order.to)
