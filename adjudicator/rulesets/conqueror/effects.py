"""Reading effect lists (ER-13.6) from data tables: each effect is a table with `op`, the op's arguments by name,
`when`, `if`, `who`, `duration` and an optional `text` in our own words (ER-13.7)."""

from __future__ import annotations

from typing import Any, Final

from adjudicator.rulesets.conqueror import problems as p
from adjudicator.rulesets.conqueror.data import EFFECT_MOST, PRICE_MOST, Effect, Effects, frozen
from adjudicator.rulesets.conqueror.problems import Say
from adjudicator.rulesets.conqueror.reader import Table
from adjudicator.rulesets.conqueror.vocabulary import (
    DURATIONS,
    EFFECT_KEYS,
    OPS,
    UNIT_KINDS,
    WHO,
    Arg,
    ArgValue,
    Condition,
    Trigger,
    read_condition,
    read_counter,
    read_place,
    read_selector,
    read_trigger,
)

RULE = "ER-13.6"
# ER-13.6: the bounds of an op's numbers (data.py). A signed n adds or takes away (strength, coins, vp, food); the
# others count units, cards, dice or shields, so they are never negative.
SIGNED: Final = frozenset({"strength", "unit_strength", "coins", "vp", "food", "defence_bonus"})
BOUNDS: Final = {
    "n": (0, EFFECT_MOST),
    "cap": (0, EFFECT_MOST),
    "k": (1, 6),  # ER-0.4: a face of the six-sided die
    "cost": (0, PRICE_MOST),
    "max_strength": (0, 99),  # ER-8.16: the strength of an army, in two digits
}


def read_effects(table: Table, name: str, areas: frozenset[str], key: str, default: Any = None) -> Effects:
    """The effect list `name` of `table` (`default` when absent; None: it must be given); `key` is the owner's
    text key: each effect's text key is `key.name.i` (ER-13.7)."""
    tables = table.tables(name, RULE) if default is None else table.tables(name, RULE, default)
    found = []
    for index, item in enumerate(tables):
        effect = read_effect(item, areas, f"{key}.{name}.{index}")
        table.report.text_keys.add(effect.key)
        found.append(effect)
    return tuple(found)


def read_effect(table: Table, areas: frozenset[str], key: str) -> Effect:
    op = table.text("op", RULE)
    if op and op not in OPS:
        table.problem("op", RULE, p.UNKNOWN_OP, value=repr(op), choices=", ".join(OPS))
        op = ""
    when = _trigger(table)
    duration_default = "battle" if when.name.startswith("battle.") else "instant"
    args = _arguments(table, op, areas) if op else {}
    table.only((*EFFECT_KEYS, *OPS.get(op, {})) if op else (*EFFECT_KEYS, *table.data), RULE)
    return Effect(
        op=op,
        args=frozen(args),
        when=when,
        who=table.choice("who", RULE, WHO, "self"),
        duration=table.choice("duration", RULE, DURATIONS, duration_default),
        conditions=_conditions(table),
        text=table.text("text", "ER-13.7", ""),
        key=key,
    )


def _trigger(table: Table) -> Trigger:
    text = table.text("when", RULE)
    if not text:
        return Trigger("")
    found = read_trigger(text)
    if isinstance(found, Say):
        table.problem("when", RULE, found.msgid, **found.values)
        return Trigger("")
    return found


def _conditions(table: Table) -> tuple[Condition, ...]:
    found = []
    for index, text in enumerate(table.strings("if", RULE, [])):
        condition = read_condition(text)
        if isinstance(condition, Say):
            table.problem(f"if[{index}]", RULE, condition.msgid, **condition.values)
        else:
            found.append(condition)
    return tuple(found)


def _arguments(table: Table, op: str, areas: frozenset[str]) -> dict[str, ArgValue]:
    args: dict[str, ArgValue] = {}
    for name, arg in OPS[op].items():
        if name not in table.data:
            if arg.required:
                table.problem(name, RULE, p.OP_ARGUMENT_MISSING, op=op, arg=name)
            elif arg.default is not None:
                args[name] = arg.default
            continue
        value = _argument(table, name, arg, areas)
        if arg.kind == "int" and isinstance(value, int):
            low, high = BOUNDS.get(name, (0, EFFECT_MOST))
            low = -high if name == "n" and op in SIGNED else low
            if not low <= value <= high:
                table.problem(name, RULE, p.OUT_OF_RANGE, value=value, low=low, high=high)
                continue
        if value is not None:
            args[name] = value
    return args


def _argument(table: Table, name: str, arg: Arg, areas: frozenset[str]) -> ArgValue | None:
    """One argument read by its kind; a problem and None when it is wrong."""
    if arg.kind == "int":
        return table.value(name, RULE, int)
    if arg.kind == "bool":
        return table.value(name, RULE, bool)
    if arg.kind == "text":
        return table.text(name, RULE) or None
    if arg.kind in ("choice", "unit"):
        return table.choice(name, RULE, arg.choices if arg.kind == "choice" else UNIT_KINDS) or None
    text = table.text(name, RULE)
    if not text:
        return None
    found: ArgValue | Say
    if arg.kind == "selector":
        found = read_selector(text)
    elif arg.kind == "counter":
        found = read_counter(text)
    else:
        found = read_place(text, areas)
    if isinstance(found, Say):
        table.problem(name, RULE, found.msgid, **found.values)
        return None
    return found
