"""Battle stacks (EAW-8.1, EAW-8.15, EAW-8.20, EAW-8.21, EAW-9.2, EAW-12.6): which cards may be stacked in each
battle type, whether a stack is legal, and the default stack. Pure functions of the cards: battle.py forms the
stacks of a battle with them and odds.py enumerates the stacks an owner could form.

Readings (each a Resolution of the spec):
- Eligible: army and empire cards of the hand; personality cards never (EAW-8.1, EAW-7.22). A siege admits no
  mounted card (EAW-8.15); a naval stack admits only the categories EAW-8.20 names (sword, spear, foot, archer,
  artillery, galley): the list reads as exhaustive, so mounted and other cards stay ashore.
- Size: an open battle takes min(5, eligible cards), a siege min(3, eligible cards) (EAW-8.1, EAW-8.15, EAW-13.12:
  a short stack is all a player has, and a stack shorter than that is refused); a naval stack takes 1 to 5 cards
  (EAW-8.20 "up to 5"; none when the player has no eligible card).
- Order: open battle fast cards above slow ones unless the player has a `stack_order_free` effect (military
  leader, EAW-8.1); siege and naval any order.
- Default (EAW-12.6): the eligible cards of highest base value (EAW-8.21), fast first then slow (each highest
  first); with free order, by value highest first; ties by card id, then instance."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Final

from adjudicator.engine.vocabulary import N_
from adjudicator.rulesets.empires.data import (
    ARMY,
    EMPIRE,
    FAST,
    NAVAL_STACK,
    OPEN_STACK,
    SIEGE_STACK,
    Card,
    GameData,
    base_id,
)

OPEN, SIEGE, NAVAL = "open", "siege", "naval"  # the battle types (EAW-9.2; orders.SITUATIONS)
SIZES: Final = {OPEN: OPEN_STACK, SIEGE: SIEGE_STACK, NAVAL: NAVAL_STACK}
# EAW-8.20: at most one card of each of these groups at sea; galleys without limit
NAVAL_GROUPS: Final = (("sword", "spear"), ("foot", "archer"), ("artillery",))
NAVAL_CATEGORIES: Final = frozenset({"sword", "spear", "foot", "archer", "artillery", "galley"})
RULE_OF: Final = {OPEN: "EAW-8.1", SIEGE: "EAW-8.15", NAVAL: "EAW-8.20"}


def eligible(data: GameData, hand: Iterable[str], kind: str) -> list[str]:
    """The instances of `hand` that may be stacked in a battle of `kind`, in hand order."""
    found = []
    for instance in hand:
        card = data.card(instance)
        if card.kind not in (ARMY, EMPIRE):
            continue  # EAW-8.1, EAW-7.22: personality cards are never stacked
        if kind == SIEGE and card.mounted:
            continue  # EAW-8.15
        if kind == NAVAL and card.category not in NAVAL_CATEGORIES:
            continue  # EAW-8.20
        found.append(instance)
    return found


def instances(hand: Sequence[str], ids: Iterable[str]) -> tuple[str, ...] | None:
    """The hand's instances for the card ids `ids` (one instance each, copies alike), None when the hand lacks one."""
    left = list(hand)
    chosen = []
    for card_id in ids:
        match = next((i for i in left if base_id(i) == base_id(card_id)), None)
        if match is None:
            return None
        left.remove(match)
        chosen.append(match)
    return tuple(chosen)


def problem(data: GameData, hand: Sequence[str], kind: str, stack: Sequence[str], free_order: bool) -> str | None:
    """Why `stack` (instances, top first) breaks its battle's restrictions (EAW-9.2), None when it is legal."""
    rule = RULE_OF[kind]
    can = eligible(data, hand, kind)
    for instance in stack:
        if instance not in can:
            card = data.card(instance)
            return N_("%(card)s cannot be stacked in this battle (%(rule)s)", card=card.name, rule=rule)
    size = SIZES[kind]
    if len(stack) > size:
        return N_("a stack of %(n)s cards is more than %(size)s (%(rule)s)", n=len(stack), size=size, rule=rule)
    if kind == NAVAL:
        if not stack and can:
            return N_("a naval stack needs at least one card (%(rule)s)", rule=rule)
        for group in NAVAL_GROUPS:
            if sum(data.card(i).category in group for i in stack) > 1:
                return N_("at most one %(group)s card at sea (%(rule)s)", group=" or ".join(group), rule=rule)
        return None
    wanted = min(size, len(can))
    if len(stack) < wanted:
        return N_(
            "a stack of %(n)s cards where %(wanted)s can be stacked (%(rule)s)", n=len(stack), wanted=wanted, rule=rule
        )
    if kind == OPEN and not free_order:
        speeds = [data.card(i).speed == FAST for i in stack]
        if speeds != sorted(speeds, reverse=True):
            return N_("fast cards go above slow ones without a military leader (%(rule)s)", rule=rule)
    return None


def by_value(data: GameData) -> Callable[[str], tuple[int, str, str]]:
    """The sort key of EAW-8.21: base value highest first, then card id and instance."""

    def key(instance: str) -> tuple[int, str, str]:
        card = data.card(instance)
        return (-card.value, card.id, instance)

    return key


def default(data: GameData, hand: Sequence[str], kind: str, free_order: bool) -> tuple[str, ...]:
    """EAW-12.6, EAW-8.21: the default stack of a battle of `kind`."""
    key = by_value(data)
    ranked = sorted(eligible(data, hand, kind), key=key)
    if kind == NAVAL:
        chosen: list[str] = []
        for instance in ranked:
            card = data.card(instance)
            group = next((g for g in NAVAL_GROUPS if card.category in g), None)
            if group is not None and any(data.card(i).category in group for i in chosen):
                continue
            chosen.append(instance)
            if len(chosen) == NAVAL_STACK:
                break
        return tuple(chosen)
    chosen = ranked[: SIZES[kind]]
    if kind == OPEN and not free_order:
        fast = [i for i in chosen if data.card(i).speed == FAST]
        return tuple(fast + [i for i in chosen if i not in fast])
    return tuple(chosen)


def card_named(data: GameData, word: str) -> Card | None:
    """The card a word names: its data id or its name (case does not matter)."""
    key = word.strip().casefold()
    return next((c for c in data.cards.values() if key in (c.id.casefold(), c.name.casefold())), None)


def read_cards(data: GameData, text: str) -> tuple[str, ...]:
    """Card ids from a list written with commas or spaces (an answer, a standing order, `pbem odds`); a ValueError
    names the word that is no card."""
    words = [w for part in text.replace(";", ",").split(",") for w in ([part.strip()] if part.strip() else [])]
    found: list[str] = []
    for word in words:
        card = card_named(data, word)
        if card is not None:
            found.append(card.id)
            continue
        for piece in word.split():  # "pike pike archer"
            single = card_named(data, piece)
            if single is None:
                raise ValueError(N_("%(word)s is no card of this game (EAW-11.3)", word=repr(piece)))
            found.append(single.id)
    return tuple(found)
