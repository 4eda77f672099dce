"""Decisions taken outside one's own turn (C-15): an answer, else a standing order, else the default, taken by
the engine's `take` (adjudicator/engine/decisions.py); here, how Conquest of the Empire's answers read and how its
standing orders are kept.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from adjudicator.engine.vocabulary import N_, visible_to
from adjudicator.rulesets.coe.orders import Captives, FreedTo, Order, Priority, RetreatRule
from adjudicator.rulesets.coe.state import GameState
from adjudicator.rulesets.coe.turn import Turn
from adjudicator.rulesets.coe.vocabulary import UNIT_KINDS, WORDS

if TYPE_CHECKING:
    from adjudicator.engine.decisions import BadAnswer

T = TypeVar("T")
Pick = tuple[str, int | None]  # a unit kind and at most how many of it at that place (None: all there are)

UNIT_WORDS = {
    "inf": "infantry",
    "infantry": "infantry",
    "cav": "cavalry",
    "cavalry": "cavalry",
    "cat": "catapult",
    "catapult": "catapult",
    "catapults": "catapult",
}
_UNIT_KEYWORDS = {"INFANTRY": "infantry", "CAVALRY": "cavalry", "CATAPULT": "catapult"}


# The engine's decisions (engine/decisions.py) are imported where a decision is taken or an answer refused:
# checking an order set that meets none (`pbem check`) spent some 4% of its start-up making their classes.


def __getattr__(name: str) -> Any:
    if name == "BadAnswer":  # read from here too
        from adjudicator.engine.decisions import BadAnswer

        return BadAnswer
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def bad_answer(*reason: Any) -> BadAnswer:
    """engine/decisions.py's BadAnswer(*reason): an answer that cannot be read or does not fit its decision."""
    from adjudicator.engine.decisions import BadAnswer

    return BadAnswer(*reason)


@dataclass(frozen=True)
class Point:
    """Where a pending decision arose (the engine's Pending.position), for the odds of its choices: the turn's
    position then, and what the battle holds beside it: in 1984, the attacking units that came by sea and are left
    (O-6.17), and the province a retreat goes to by default (O-14.7)."""

    state: GameState
    by_sea: Mapping[str, int] = field(default_factory=dict)
    retreat_to: str | None = None
    # a Classic losses question (C-15.6): the asked seat's battle legion and the hits it takes; the attacker, asked
    # after both rolls, also knows the hits the defender takes, and the defender's losses of the round where they
    # were his to see (the defender had no choice of legion or losses)
    legion: Mapping[str, int] = field(default_factory=dict)
    hits: int = 0
    enemy_hits: int = 0
    enemy_losses: Mapping[str, int] | None = None
    # a naval battle's defender (its attacker is the seat whose turn it is); in a Classic naval losses question
    # (C-15.10) the asked seat's hits are in `hits`, the defender's of the round in `enemy_hits` when the attacker is
    # asked
    defender: str = ""


def decide(
    turn: Turn,
    seat: str,
    key: str,
    question: str,
    default: T,
    standing: T | None,
    parse: Callable[[str], T],
    rule: str,
    show: Callable[[T], str] = str,
    at: Callable[[], Point] | None = None,
) -> T:
    """Take one decision of `seat` with the engine's take (C-15): answer for `key`, else standing order, else
    default. Its events are the seat's own (vocabulary.SEAT_PRIVATE_KINDS: the kind gives the visibility). `at`: the
    Point a pending decision keeps, where the caller knows more than the position (by default the position alone)."""
    from adjudicator.engine.decisions import Decision, take

    decision = Decision(
        seat=seat,
        key=key,
        question=question,
        rule=rule,
        default=default,
        standing=standing,
        read=parse,
        show=show,
        visible_to=visible_to([seat]),
        visible_by_kind=True,
    )
    taken = take(decision, turn, (len(turn.events), len(turn.dice.log)), at or (lambda: Point(turn.state.copy())))
    turn.events += taken.events
    return taken.value


def complete_priority(kinds: Sequence[str]) -> list[str]:
    """A priority naming some unit kinds, the others appended in the order INF, CAV, CAT."""
    seen = list(dict.fromkeys(k for k in kinds if k in UNIT_KINDS))
    return seen + [k for k in UNIT_KINDS if k not in seen]


def unit_kind(word: str) -> str | None:
    """The unit kind a word of an answer names: inf, cavalry, or a keyword of any language (KAV, FANTERIA)."""
    from adjudicator.orders.keywords import keyword_of  # the keyword table is plain data; no parser is loaded

    kind = UNIT_WORDS.get(word.casefold())
    return kind if kind is not None else _UNIT_KEYWORDS.get(keyword_of(WORDS).get(word.casefold(), ""))


def retreat_answer(text: str) -> list[str] | None:
    """CONTINUE -> None; RETREAT [TO] <area> -> the areas named (none: the first destination), in the keywords of
    any language, as the question names them in the reader's (C-15.7, O-14.7)."""
    from adjudicator.orders.keywords import in_english, keyword_of

    words = text.replace(",", " ").split()
    first = keyword_of(WORDS).get(words[0].casefold()) if words else None
    if first == "CONTINUE":
        return None
    if first != "RETREAT":
        raise bad_answer(
            N_(
                "answer %(kw_continue)s or %(kw_retreat)s [%(kw_to)s] <area>",
                **in_english("continue", "retreat", "to", ruleset=WORDS),
            )
        )
    return [w.upper() for w in words[1:] if keyword_of(WORDS).get(w.casefold()) != "TO"]


def parse_unit_choice(text: str) -> list[Pick]:
    """'cav, inf' or '4 inf 1 cav' or '4 infantry, 1 cavalry, infantry': unit kinds in order, each with an
    optional count (C-6.9: any mix of units)."""
    from adjudicator.orders.keywords import in_english

    picks: list[Pick] = []
    count: int | None = None
    for word in text.replace(",", " ").split():
        if word.isdigit() and count is None:
            count = int(word)
            continue
        kind = unit_kind(word)
        if kind is None:
            raise bad_answer(
                N_(
                    "%(word)s is not a unit kind (%(kw_infantry)s, %(kw_cavalry)s, %(kw_catapult)s)",
                    word=repr(word),
                    **in_english(*UNIT_KINDS, ruleset=WORDS),
                )
            )
        picks.append((kind, count))
        count = None
    if count is not None:
        raise bad_answer(
            N_(
                "the count %(count)s names no unit kind (%(kw_infantry)s, %(kw_cavalry)s, %(kw_catapult)s)",
                count=count,
                **in_english(*UNIT_KINDS, ruleset=WORDS),
            )
        )
    return picks


def check_choice(picks: Sequence[Pick], pool: dict[str, int], count: int, what: str) -> None:
    """An answer with counts must fit: no more of a kind than `pool` has, and exactly `count` units when every
    entry has a count (C-6.9, C-6.5)."""
    for kind in UNIT_KINDS:
        named = sum(n or 0 for k, n in picks if k == kind)
        if named > pool.get(kind, 0):
            raise bad_answer(
                N_(
                    "%(count)s %(kind)s named, but %(what)s has only %(have)s",
                    count=named,
                    kind=kind,
                    what=what,
                    have=pool.get(kind, 0),
                )
            )
    if picks and all(n is not None for _, n in picks) and sum(n or 0 for _, n in picks) != count:
        raise bad_answer(N_("name %(count)s unit(s), not %(named)s", count=count, named=sum(n or 0 for _, n in picks)))


def complete_choice(picks: Sequence[Pick]) -> list[Pick]:
    """Picks followed by every unit kind not yet named without a count, in the order INF, CAV, CAT: so that
    units beyond the counts are still chosen (C-15.5, C-15.6, C-15.9)."""
    chosen: list[Pick] = []
    unlimited: set[str] = set()
    for kind, n in picks:
        if kind in unlimited or kind not in UNIT_KINDS:
            continue  # none of that kind is left after an entry without a count
        chosen.append((kind, n))
        if n is None:
            unlimited.add(kind)
    return chosen + [(k, None) for k in UNIT_KINDS if k not in unlimited]


def show_choice(picks: Sequence[Pick]) -> str:
    """'infantry, cavalry, catapult', or with counts '4 infantry, 1 cavalry, infantry, ...'."""
    return ", ".join(kind if n is None else f"{n} {kind}" for kind, n in picks)


def standing_picks(values: Sequence[Any]) -> list[Pick]:
    """A stored standing priority as picks: a kind name, or {"kind": ..., "count": n} for an entry with a count."""
    return [(v["kind"], int(v["count"])) if isinstance(v, dict) else (str(v), None) for v in values]


def stored_priority(order: Priority) -> list[Any]:
    """How Player.standing keeps a priority: kind names as ever; an entry with a count as {"kind", "count"}."""
    if not order.counts:
        return list(order.values)
    return [v if n is None else {"kind": v, "count": n} for v, n in zip(order.values, order.counts, strict=True)]


def standing(turn: Turn, seat: str, kind: str) -> Any:
    """A seat's standing order of one kind (None when it gave none)."""
    return turn.state.players[seat].standing.get(kind)


def record_standing_order(standing: dict[str, Any], order: Order) -> None:
    """Keep a standing order in a player's `standing` dict, replacing the earlier one of its kind (C-15)."""
    if isinstance(order, Priority):
        standing[order.kind] = stored_priority(order)
    elif isinstance(order, RetreatRule):
        rules = [r for r in standing.get("retreat", []) if r.get("from") != order.origin]
        rules.append(
            {
                "from": order.origin,
                "condition": order.condition,
                "threshold": order.threshold,
                "to": list(order.destinations),
            }
        )
        standing["retreat"] = rules
    elif isinstance(order, Captives):
        standing.setdefault("captives", {})[order.owner or "*"] = order.choice
    elif isinstance(order, FreedTo):
        standing["freed"] = list(order.areas)
