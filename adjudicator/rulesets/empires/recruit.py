"""Recruit from the display, or disband (EAW-7.20 to EAW-7.23, EAW-12.3, EAW-13.17, EAW-13.22, EAW-13.24).

The order's priority list (EAW-12.3) names card ids, categories, personality types or BEST (the highest value, the
first such in the display); an empty list is BEST (the EAW-12.3 default). A card may be taken when: a personality
of a type the player does not hold yet, merchants excepted (EAW-7.22, EAW-13.24); an army card labelled N or S
only by a player controlling a province of that half (EAW-7.23, EAW-13.22; sea areas do not count); an army card
only below the hand limit of the data (EAW-1.2, data.pieces.hand_limit; None: none).
REFRESH pays 1 and replaces the whole display first (EAW-7.20; the replaced cards are discarded); REFRESH IF NONE
does so only when no card of the list can be taken. Having paid, the player must take one: the first of the list,
else the best it may take (EAW-7.20). Without refresh, an order none of whose cards can be taken is refused (so that
a fall-back is tried, EAW-12.2). A personality is played face up at once (EAW-7.22). The display is refilled to 6
from the deck; an empty deck is made of the shuffled discards (hidden), and with none the display stays short.

Disband (EAW-7.21): discard one army card of the hand, refused while an identical card (the same data entry) is
face up in the display (EAW-13.17); personality and empire cards are never discarded.

Events (public): `display_refreshed` seat: cards, rule EAW-7.20; `card_recruited` seat: card, personality, rule;
`recruit_nothing` seat: rule EAW-7.20; `deck_reshuffled`: cards (how many), rule EAW-7.20; `display_refilled`:
cards, short, rule EAW-7.20; `card_disbanded` seat: card, rule EAW-7.21; `paid`."""

from __future__ import annotations

from adjudicator.engine.vocabulary import N_, Rejected
from adjudicator.rulesets.empires.board import provinces_of
from adjudicator.rulesets.empires.data import (
    ARMY,
    COSTS,
    DISPLAY_SIZE,
    EMPIRE,
    MERCHANT,
    NORTH,
    PERSONALITY,
    SOUTH,
    base_id,
)
from adjudicator.rulesets.empires.economy import pay
from adjudicator.rulesets.empires.forts_control import cannot_pay
from adjudicator.rulesets.empires.orders import REFRESH_IF_NONE, REFRESH_YES, Disband, Recruit
from adjudicator.rulesets.empires.play import Play

BEST = "best"
HALF_OF_LABEL = {"N": NORTH, "S": SOUTH}


def may_take(play: Play, seat: str, instance: str) -> Rejected | None:
    """Whether `seat` may take this display card (EAW-7.22, EAW-7.23, the hand limit)."""
    card = play.data.card(instance)
    player = play.state.players[seat]
    if card.kind == PERSONALITY:
        if card.personality != MERCHANT and play.has_personality(seat, card.personality or ""):
            return Rejected("EAW-7.22", N_("%(seat)s already holds a %(type)s", seat=seat, type=card.personality or ""))
        return None
    half = HALF_OF_LABEL.get(card.label or "")
    if half is not None:
        halves = {play.data.map.areas[a].half for a in provinces_of(play.state, play.data.map, seat)}
        if half not in halves:
            return Rejected(
                "EAW-7.23",
                N_(
                    "%(card)s is labelled %(label)s and %(seat)s controls no province there",
                    card=card.id,
                    label=card.label or "",
                    seat=seat,
                ),
            )
    limit = play.data.pieces.hand_limit
    if limit is not None and len(player.hand) >= limit:
        return Rejected("EAW-1.2", N_("the hand holds %(held)s cards, the limit", held=len(player.hand)))
    return None


def matches(play: Play, instance: str, want: str) -> bool:
    """EAW-12.3: a card id, a category of an army card, or a personality type."""
    card = play.data.card(instance)
    key = want.casefold()
    if key in (card.id.casefold(), (card.personality or "").casefold()):
        return True
    return card.kind != PERSONALITY and key == card.category.casefold()


def best(play: Play, seat: str, display: list[str]) -> str | None:
    """EAW-12.3: the highest-value card `seat` may take (the first such in the display)."""
    takeable = [i for i in display if may_take(play, seat, i) is None]
    return max(takeable, key=lambda i: play.data.card(i).value, default=None)


def pick(play: Play, seat: str, wants: tuple[str, ...], display: list[str]) -> str | None:
    """EAW-12.3: the first of the list that the display holds and `seat` may take; an empty list is BEST."""
    for want in wants or (BEST,):
        if want.casefold() == BEST:
            found = best(play, seat, display)
        else:
            found = next((i for i in display if matches(play, i, want) and may_take(play, seat, i) is None), None)
        if found is not None:
            return found
    return None


def can_refresh(play: Play) -> bool:
    return bool(play.state.deck or play.state.discards or play.state.display)


def recruit_refusal(play: Play, seat: str, action: Recruit) -> Rejected | None:
    found = pick(play, seat, action.wants, play.state.display)
    refresh = action.refresh == REFRESH_YES or (action.refresh == REFRESH_IF_NONE and found is None)
    if refresh:
        if not can_refresh(play):
            return Rejected("EAW-7.20", N_("the display, the deck and the discards are empty"))
        return cannot_pay(play, seat, COSTS["refresh"], "EAW-7.20", N_("refreshing the display"))
    if found is not None:
        return None
    if not action.wants:
        return Rejected("EAW-7.20", N_("%(seat)s may take no card of the display", seat=seat))
    return Rejected(
        "EAW-12.3", N_("no card of the display matches %(wants)s and may be taken", wants=", ".join(action.wants))
    )


def draw(play: Play) -> str | None:
    """The deck's top card; an empty deck is first made of the shuffled discards (EAW-7.20, hidden)."""
    state = play.state
    if not state.deck and state.discards:
        state.deck = play.shuffle(list(state.discards), "deck reshuffle")
        state.discards = []
        play.say("deck_reshuffled", cards=len(state.deck), rule="EAW-7.20")
    return state.deck.pop(0) if state.deck else None


def refill(play: Play) -> list[str]:
    """EAW-7.20: the display back to 6 (short when deck and discards are out); the cards drawn."""
    drawn: list[str] = []
    while len(play.state.display) < DISPLAY_SIZE:
        card = draw(play)
        if card is None:
            break
        play.state.display.append(card)
        drawn.append(card)
    return drawn


def recruit(play: Play, seat: str, action: Recruit) -> None:
    state = play.state
    found = pick(play, seat, action.wants, state.display)
    if action.refresh == REFRESH_YES or (action.refresh == REFRESH_IF_NONE and found is None):
        pay(play, seat, COSTS["refresh"], "EAW-7.20", "refresh")
        state.discards.extend(state.display)
        state.display = []
        refill(play)
        play.say("display_refreshed", seat, cards=list(state.display), rule="EAW-7.20")
        # having paid, the player must take one (EAW-7.20)
        found = pick(play, seat, action.wants, state.display) or best(play, seat, state.display)
    if found is None:
        play.say("recruit_nothing", seat, rule="EAW-7.20")
        return
    state.display.remove(found)
    card = play.data.card(found)
    player = state.players[seat]
    if card.kind == PERSONALITY:
        player.personalities.append(found)  # face up at once (EAW-7.22)
    else:
        player.hand.append(found)
    play.say(
        "card_recruited",
        seat,
        card=found,
        personality=card.kind == PERSONALITY,
        rule="EAW-7.22" if card.kind == PERSONALITY else "EAW-7.20",
    )
    drawn = refill(play)
    play.say("display_refilled", cards=drawn, short=len(state.display) < DISPLAY_SIZE, rule="EAW-7.20")


def disband_refusal(play: Play, seat: str, action: Disband) -> Rejected | None:
    entry = play.data.cards.get(base_id(action.card))
    if entry is None:
        return Rejected("EAW-7.21", N_("%(card)s is not a card of the game", card=action.card))
    if entry.kind == PERSONALITY:
        return Rejected("EAW-7.21", N_("personality cards are never discarded"))
    if entry.kind == EMPIRE:
        return Rejected("EAW-7.21", N_("home-army (empire) cards are never discarded"))
    if _held(play, seat, entry.id) is None:
        return Rejected("EAW-7.21", N_("%(seat)s holds no %(card)s", seat=seat, card=action.card))
    if any(play.data.card(i).id == entry.id for i in play.state.display):
        return Rejected(
            "EAW-13.17",
            N_("an identical %(card)s lies face up in the display: it cannot be discarded", card=action.card),
        )
    return None


def _held(play: Play, seat: str, card_id: str) -> str | None:
    hand = play.state.players[seat].hand
    return next((i for i in reversed(hand) if play.data.card(i).id == card_id and play.data.card(i).kind == ARMY), None)


def disband(play: Play, seat: str, action: Disband) -> None:
    instance = _held(play, seat, base_id(action.card))
    assert instance is not None  # disband_refusal accepted the action
    play.state.players[seat].hand.remove(instance)
    play.state.discards.append(instance)
    play.say("card_disbanded", seat, card=instance, rule="EAW-7.21")
