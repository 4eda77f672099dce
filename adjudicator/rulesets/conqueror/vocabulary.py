"""The effect vocabulary of ER-13.6: every card, ability, track space and chronicle is a list of effects
`{op, args, when, if, who, duration}`. This module holds the vocabulary's own lists (ops with their typed
arguments, triggers, `who`, durations, conditions, unit selectors, places, counters) and reads the short
forms the data files write (`on_food_le(2)`, `area_fort(large)`, `own.cavalry`, `area(VAL)`) into typed
values. A form it cannot read gives its problem (a Say), never an exception."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from adjudicator.rulesets.conqueror import problems as p
from adjudicator.rulesets.conqueror.problems import Say

# -- triggers (`when`), ER-13.6 and its extra triggers ----------------------------------------------------------
TRIGGERS: Final = (
    "immediate",
    "taxation",
    "new_year",
    "preparation",
    "campaign_turn",
    "battle.reinforce",
    "battle.volley",
    "battle.melee",
    "battle.casualties",
    "battle.after_win",
    "end_of_round",
    "game_end",
    "on_gain_coins",
    "on_trade",
    "on_food_le",
    "next_round",
    "on_build",
)
TRIGGERS_WITH_NUMBER: Final = frozenset({"on_food_le"})  # on_food_le(n): when food supply drops to n or less
WHO: Final = ("self", "opponent", "side", "partner", "all")
DURATIONS: Final = ("instant", "battle", "turn", "round", "game")

# -- unit selectors `<own|enemy|side>.<type>`, places, counters ------------------------------------------------
SELECTOR_SIDES: Final = ("own", "enemy", "side")
SELECTOR_TYPES: Final = ("cavalry", "infantry", "archer", "elite", "ship", "siege", "any")
UNIT_KINDS: Final = ("cavalry", "infantry", "archer", "elite", "ship", "siege")  # ER-0.3
STANDARD_UNITS: Final = ("cavalry", "infantry", "archer")  # ER-0.3: the standard units
UPGRADES: Final = (  # ER-9.4: the ten unit-upgrade cards, each bought once per player (ER-5.23)
    "heavy_cavalry",
    "thoroughbred",
    "aggression",
    "discipline",
    "long_spears",
    "elite_armor",
    "naval_mastery",
    "amphibious_assault",
    "rapid_aim",
    "deadly_aim",
)
PLACES: Final = ("capital", "any_controlled", "large_fort", "fort", "area")
# what `per` of coins/vp counts; `name/k` counts one per full k (ER-5.3: income/5)
COUNTERS: Final = (
    "income",
    "coins",
    "casualties_inflicted",
    "land_areas",
    "districts",
    "upgrades",
    "megaprojects",
    "wonders",
    "temples",
    "ports",
    "forts",
    "large_forts",
    "small_forts",
    "capitals",
)
FORT_CHOICES: Final = ("none", "small", "large", "any")
REGIONS: Final = ("europe",)  # ER-2.10


@dataclass(frozen=True)
class Trigger:
    name: str
    n: int | None = None  # on_food_le(n)


@dataclass(frozen=True)
class UnitSelector:
    side: str  # own | enemy | side
    type: str  # cavalry | infantry | archer | elite | ship | siege | any


@dataclass(frozen=True)
class UnitCount:
    """own_units(infantry>=2): at least `n` units of `type`."""

    type: str
    n: int


@dataclass(frozen=True)
class FortLimit:
    """forts_le(large=1, small=2): at most `large` large and `small` small forts (ER-11.5)."""

    large: int
    small: int


@dataclass(frozen=True)
class Place:
    kind: str  # capital | any_controlled | large_fort | fort | area
    area: str | None = None  # area(<id>)


@dataclass(frozen=True)
class Counter:
    name: str
    per: int = 1  # coins/3: one per full 3


@dataclass(frozen=True)
class Condition:
    name: str
    value: None | int | str | UnitCount | FortLimit = None


ArgValue = int | bool | str | UnitSelector | Place | Counter

# -- conditions `if` (all must hold) ---------------------------------------------------------------------------
# name -> what its brackets hold: None (no brackets), "int", "fort", "region", "units" (type>=n), "unit", "forts"
CONDITIONS: Final[dict[str, str | None]] = {
    "attacking": None,
    "defending": None,
    "at_sea": None,
    "on_land": None,
    "from_sea": None,
    "area_fort": "fort",
    "own_capital": None,
    "region": "region",
    "own_units": "units",
    "enemy_units": "units",
    "accompanied_by": "unit",
    "won": None,
    "margin_ge": "int",
    "enemy_strength_ge": "int",
    "holds_stored_food": None,
    "food_le": "int",
    "round_ge": "int",
    "forts_le": "forts",
    "margin_gt": "int",
}


# -- operations and their typed arguments -----------------------------------------------------------------------
@dataclass(frozen=True)
class Arg:
    """One argument of an op: its kind ("int", "bool", "text", "selector", "counter", "place", "unit", or
    "choice" with its `choices`), whether it must be given, and its default otherwise."""

    kind: str
    required: bool = True
    default: ArgValue | None = None
    choices: tuple[str, ...] = ()


N = Arg("int")
OPS: Final[dict[str, dict[str, Arg]]] = {
    "strength": {"n": N, "per": Arg("selector", False), "cap": Arg("int", False)},
    "unit_strength": {"type": Arg("unit"), "n": N},
    "casualties": {"n": N, "unblockable": Arg("bool", False, False)},
    "shields": {"n": N},
    "self_removal": {"type": Arg("unit"), "n": N},
    "archer_dice": {"n": N},
    "archer_hit_on": {"k": N},
    "reroll": {"what": Arg("choice", choices=("volley_miss", "melee_die")), "n": N},
    "coins": {"n": N, "per": Arg("counter", False)},
    "vp": {"n": N, "per": Arg("counter", False)},
    "food": {"n": N, "respect_limit": Arg("bool", False, True)},
    "recruit": {
        "type": Arg("unit"),
        "n": N,
        "where": Arg("place"),
        "respect_food": Arg("bool", False, True),
        "cost": Arg("int", False, 0),
    },
    "draw_tactic": {"n": N},
    "discount": {"target": Arg("choice", choices=("district", "megaproject", "hero", "elite", "upgrade")), "n": N},
    "look_hand": {"target": Arg("choice", choices=("partner", "opponent"))},
    "extra_agent_action": {},
    "move_twice": {"units": Arg("selector")},
    "forbid_attack": {"target": Arg("choice", choices=("faction", "independents"))},
    "block_move": {"max_strength": N, "cost": N},
    "rerecruit": {"target": Arg("choice", choices=("heroes", "elite"))},
    "defence_bonus": {"n": N},
    "unit_flag": {"flag": Arg("choice", choices=("archer", "cavalry", "infantry"))},
    "manual": {"text": Arg("text")},
}
EFFECT_KEYS: Final = frozenset({"op", "when", "if", "who", "duration", "text"})  # besides the op's arguments

_CALL = re.compile(r"^([a-z_.]+)(?:\((.*)\))?$")
_NUMBER = re.compile(r"^-?\d+$")
BRACKET_MOST: Final = 999  # a number in brackets (a margin, a strength, a round, food, units, per k): 3 digits


def _too_large(text: str) -> Say | None:
    """A number in brackets beyond BRACKET_MOST either way (read before int(), which refuses over 4300 digits)."""
    digits = text.strip().lstrip("-")
    if len(digits) > 3:
        return Say(p.OUT_OF_RANGE, {"value": text.strip()[:12], "low": -BRACKET_MOST, "high": BRACKET_MOST})
    return None


def split_call(text: str) -> tuple[str, str | None]:
    """`name(inner)` -> (name, inner); `name` -> (name, None); anything else -> ("", None)."""
    found = _CALL.match(text.strip())
    return (found.group(1), found.group(2)) if found else ("", None)


def one_of(value: str, choices: tuple[str, ...]) -> Say:
    return Say(p.NOT_ONE_OF, {"value": repr(value), "choices": ", ".join(choices)})


def read_trigger(text: str) -> Trigger | Say:
    """A `when` value, or the problem with it."""
    name, inner = split_call(text)
    if name not in TRIGGERS:
        return one_of(text, TRIGGERS)
    if name in TRIGGERS_WITH_NUMBER:
        if inner is None or not _NUMBER.match(inner.strip()):
            return Say(p.NEEDS_NUMBER, {"name": name})
        return _too_large(inner) or Trigger(name, int(inner))
    if inner is not None:
        return Say(p.NO_BRACKETS, {"name": name})
    return Trigger(name)


def read_selector(text: str) -> UnitSelector | Say:
    side, _, kind = text.partition(".")
    if side not in SELECTOR_SIDES or kind not in SELECTOR_TYPES:
        return Say(p.NO_SELECTOR, {"value": repr(text)})
    return UnitSelector(side, kind)


def read_place(text: str, areas: frozenset[str]) -> Place | Say:
    """A place; area(<id>) must name an area of a board side (`areas`)."""
    name, inner = split_call(text)
    if name not in PLACES:
        return one_of(text, ("capital", "any_controlled", "large_fort", "fort", "area(<id>)"))
    if name != "area":
        return Say(p.NO_BRACKETS, {"name": name}) if inner is not None else Place(name)
    if inner is None or not inner.strip():
        return Say(p.NEEDS_AREA)
    if inner.strip() not in areas:
        return Say(p.NO_AREA, {"value": repr(inner.strip())})
    return Place("area", inner.strip())


def read_counter(text: str) -> Counter | Say:
    name, _, per = text.partition("/")
    if name not in COUNTERS:
        return one_of(name, COUNTERS)
    whole = per.isascii() and per.isdigit()  # int() takes "²" for no number
    too_large = _too_large(per) if whole else None
    if too_large:
        return too_large
    if per and (not whole or int(per) < 1):
        return Say(p.BAD_COUNTER, {"value": repr(text)})
    return Counter(name, int(per) if per else 1)


def read_condition(text: str) -> Condition | Say:
    """One condition of an `if` list, or the problem with it."""
    name, inner = split_call(text)
    if name not in CONDITIONS:
        return one_of(text, tuple(CONDITIONS))
    form = CONDITIONS[name]
    if form is None:
        return Say(p.NO_BRACKETS, {"name": name}) if inner is not None else Condition(name)
    if inner is None:
        return Say(p.NEEDS_VALUE, {"name": name, "form": _FORM_EXAMPLES[form]})
    value = _condition_value(form, inner.strip())
    return value if isinstance(value, Say) else Condition(name, value)


_FORM_EXAMPLES = {
    "int": "(4)",
    "fort": "(none|small|large|any)",
    "region": "(europe)",
    "units": "(infantry>=2)",
    "unit": "(infantry)",
    "forts": "(large=1, small=2)",
}


def _condition_value(form: str, inner: str) -> int | str | UnitCount | FortLimit | Say:
    if form == "int":
        if not _NUMBER.match(inner):
            return Say(p.NOT_A_NUMBER, {"value": repr(inner)})
        return _too_large(inner) or int(inner)
    if form == "fort":
        return inner if inner in FORT_CHOICES else one_of(inner, FORT_CHOICES)
    if form == "region":
        return inner if inner in REGIONS else one_of(inner, REGIONS)
    if form == "unit":
        return inner if inner in UNIT_KINDS else one_of(inner, UNIT_KINDS)
    if form == "units":
        kind, sep, count = inner.partition(">=")
        if not sep or kind.strip() not in (*UNIT_KINDS, "any") or not _NUMBER.match(count.strip()):
            return Say(p.BAD_UNIT_COUNT, {"value": repr(inner)})
        return _too_large(count) or UnitCount(kind.strip(), int(count))
    return _fort_limit(inner)


def _fort_limit(inner: str) -> FortLimit | Say:
    parts = dict(part.strip().partition("=")[::2] for part in inner.split(","))
    if set(parts) != {"large", "small"} or not all(_NUMBER.match(v.strip()) for v in parts.values()):
        return Say(p.BAD_FORT_LIMIT, {"value": repr(inner)})
    large, small = parts["large"], parts["small"]
    return _too_large(large) or _too_large(small) or FortLimit(int(large), int(small))
