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
from typing import TYPE_CHECKING, Final

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

if TYPE_CHECKING:
    from adjudicator.rulesets.empires.parse import Cards

OPEN, SIEGE, NAVAL = "open", "siege", "naval"  # the battle types (EAW-9.2; orders.SITUATIONS)
SIZES: Final = {OPEN: OPEN_STACK, SIEGE: SIEGE_STACK, NAVAL: NAVAL_STACK}
# EAW-8.20: at most one card of each of these groups at sea; galleys without limit
NAVAL_GROUPS: Final = (("sword", "spear"), ("foot", "archer"), ("artillery",))
# EAW-8.20: each group as the refusal says it, a msgid of its own, so that the reader gets it in his language
NAVAL_GROUP_NAMES: Final = {
    ("sword", "spear"): N_("sword or spear"),
    ("foot", "archer"): N_("foot soldier or archer"),
    ("artillery",): N_("artillery"),
}
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


def missing(hand: Sequence[str], ids: Iterable[str]) -> list[str]:
    """The card ids of `ids` the hand cannot supply (a copy each)."""
    left = [base_id(i) for i in hand]
    lacking = []
    for card_id in ids:
        if base_id(card_id) in left:
            left.remove(base_id(card_id))
        else:
            lacking.append(base_id(card_id))
    return lacking


def problem(
    data: GameData,
    hand: Sequence[str],
    kind: str,
    stack: Sequence[str],
    free_order: bool,
    can: Sequence[str] | None = None,
) -> str | None:
    """Why `stack` (instances, top first) breaks its battle's restrictions (EAW-9.2), None when it is legal; `can`:
    the hand's eligible instances, when the caller has them already (odds.py tries many stacks of one hand)."""
    rule = RULE_OF[kind]
    can = eligible(data, hand, kind) if can is None else can
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
                return N_("at most one %(group)s card at sea (%(rule)s)", group=NAVAL_GROUP_NAMES[group], rule=rule)
        return None
    wanted = min(size, len(can))
    if len(stack) == 1 < wanted:  # stored in English: one card has its own msgid, read singular in every language
        return N_("a stack of one card where %(wanted)s can be stacked (%(rule)s)", wanted=wanted, rule=rule)
    if len(stack) < wanted:
        return N_(
            "a stack of %(n)s cards where %(wanted)s can be stacked (%(rule)s)", n=len(stack), wanted=wanted, rule=rule
        )
    if kind == OPEN and not free_order:
        speeds = [data.card(i).speed == FAST for i in stack]
        if speeds != sorted(speeds, reverse=True):
            return N_("fast cards go above slow ones without a military leader (%(rule)s)", rule=rule)
    return None


def refusal(data: GameData, hand: Sequence[str], kind: str, ids: Sequence[str], free_order: bool) -> str | None:
    """EAW-8.21: why a battle of `kind` refuses the stack of card ids `ids` (top first) from `hand` as a whole: a card
    not in hand, or a restriction of EAW-9.2 (`problem`); None when it takes the stack."""
    chosen = instances(hand, ids)
    if chosen is None:
        return N_("%(cards)s: not in hand (%(rule)s)", cards=", ".join(missing(hand, ids)), rule="EAW-8.21")
    return problem(data, hand, kind, chosen, free_order)


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
    """The card a word names as the order language reads it (parse.py): its data id or name, or a unique prefix of
    either (case does not matter); None when it names no card or several."""
    found = _cards(data).lookup(word)
    return data.cards[found[0]] if len(found) == 1 else None


def read_cards(data: GameData, text: str) -> tuple[str, ...]:
    """Card ids from a list written with commas or spaces (an answer, `pbem odds`), read as the order language
    reads a card (a name of several words between commas); a ValueError names the word that is no card, with the
    order language's "did you mean"."""
    from adjudicator.orders.builder import LineProblem

    found: list[str] = []
    for part in (p.strip() for p in text.replace(";", ",").split(",")):
        if not part:
            continue
        whole = card_named(data, part)
        if whole is not None:
            found.append(whole.id)
            continue
        for piece in part.split():  # "pike pike archer"
            try:
                found.append(_cards(data).resolve(piece, 0))
            except LineProblem as problem:
                raise ValueError(N_("%(problem)s (EAW-11.3)", problem=problem.message)) from problem
    return tuple(found)


_CARDS: dict[int, tuple[GameData, object]] = {}


def _cards(data: GameData) -> Cards:
    """The order language's card names of `data` (built once per data set)."""
    from adjudicator.rulesets.empires.parse import Cards

    kept = _CARDS.get(id(data))
    if kept is None or kept[0] is not data:
        if len(_CARDS) > 32:  # a long run binds few data sets; tests make many
            _CARDS.clear()
        kept = _CARDS[id(data)] = (data, Cards(data.cards.values()))
    return kept[1]  # type: ignore[return-value]


def plan_problem(data: GameData, cards: Sequence[str], situation: str | None) -> str | None:
    """What a receipt can say of a standing STACK plan (EAW-12.6, EAW-8.21) before any battle: the rules of its
    battle type that do not depend on the hand at the time (size, mounted cards in a siege, the naval limits,
    personality cards); None when nothing is wrong yet. The battle checks the rest (cards held, order)."""
    stack = numbered(cards)
    if situation in SIZES:
        found = problem(data, stack, situation, stack, free_order=True)
        if found is not None:
            return found
    for instance in stack:
        card = data.card(instance)
        if card.kind not in (ARMY, EMPIRE):
            return N_("%(card)s cannot be stacked in this battle (%(rule)s)", card=card.name, rule="EAW-8.1")
    return None


def numbered(ids: Sequence[str]) -> tuple[str, ...]:
    """Instances for card ids as a hand would hold them (`pike`, `pike#2`, ...)."""
    seen: dict[str, int] = {}
    found = []
    for card_id in ids:
        seen[card_id] = seen.get(card_id, 0) + 1
        found.append(card_id if seen[card_id] == 1 else f"{card_id}#{seen[card_id]}")
    return tuple(found)
