"""The game options of Empires of the Ancient World (EAW-11.7): the data's [options] with the `--option key=value`
pairs of `pbem new` applied. Every wrong pair is named at once; the game has no modes. The bounds here are the
ones the data check (loader.py) holds game-data.toml's options to."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields, replace
from types import MappingProxyType
from typing import Any, Final

from adjudicator.errors import PbemError
from adjudicator.rulesets.empires.data import OPTION_CHOICES, PLAYERS, GameData, Options

# Number options and their bounds: EAW-4.3 (round IV still has an action round), EAW-3.1 (markers per player at
# game start), EAW-10.6 (VP per plunder marker).
OPTION_BOUNDS: Final[Mapping[str, tuple[int, int]]] = MappingProxyType(
    {"action_rounds_first": (4, 20), "start_markers": (1, 10), "plunder_vp": (0, 10)}
)
OPTION_RULES: Final[Mapping[str, str]] = MappingProxyType(
    {
        "threshold": "EAW-0.4",
        "start_markers": "EAW-3.1",
        "start_markers_count": "EAW-3.9",
        "action_rounds_first": "EAW-4.3",
        "leader_melee_bonus": "EAW-8.2",
        "ambush_scope": "EAW-8.2",
        "marker_choice": "EAW-8.4",
        "trade_reach": "EAW-7.30",
        "last_province": "EAW-2.8",
        "diplomacy_reach": "EAW-7.12",
        "loss_selection": "EAW-8.8",
        "plunder_spendable": "EAW-8.13",
        "upkeep_timing": "EAW-10.5",
        "plunder_vp": "EAW-10.6",
        "tie_break": "EAW-10.8",
    }
)
UNSET_WORDS: Final = ("unset", "none", "")  # plunder_vp: back to "not set" (EAW-10.6 scores 0 and reports it)


class OptionsError(PbemError, ValueError):
    """`--option` pairs (or a mode) the game refuses: the message names each."""


def game_options(data: GameData, mode: str | None = None, pairs: Mapping[str, str] | None = None) -> Options:
    """The data's options with `pairs` applied (EAW-11.7); OptionsError naming every wrong pair at once."""
    problems: list[str] = []
    if mode is not None:
        problems.append(f"mode {mode!r}: Empires of the Ancient World has no modes")
    known = {f.name for f in fields(Options)}
    changes: dict[str, Any] = {}
    for key, text in (pairs or {}).items():
        if not isinstance(text, str):  # a damaged stored option: options are the texts --option gave
            problems.append(f"{key}={text!r}: not a text")
        elif key not in known:
            problems.append(f"{key}: no such option (options: {', '.join(sorted(known))})")
        else:
            try:
                changes[key] = option_value(key, text, data.options)
            except ValueError as wrong:
                problems.append(f"{key}={text}: {wrong}")
    if problems:
        raise OptionsError("game options: " + "; ".join(problems))
    return replace(data.options, **changes)


def option_value(key: str, text: str, current: Options | None = None) -> Any:
    """The value of option `key` written as `text`; ValueError saying what to write."""
    word = text.strip().casefold()
    rule = OPTION_RULES.get(key, "EAW-11.7")
    if key in OPTION_CHOICES:
        choices = OPTION_CHOICES[key]
        if word not in choices:
            raise ValueError(f"choose one of {', '.join(choices)} ({rule})")
        return word
    if key == "start_markers":
        return start_markers(word, (current or Options()).start_markers)
    if key == "plunder_vp" and word in UNSET_WORDS:
        return None
    return whole(word, key)


def start_markers(word: str, current: Mapping[int, int]) -> Mapping[int, int]:
    """EAW-3.1: `players:markers` pairs such as 3:7,4:6,5:5 (players not named keep their number)."""
    found = dict(current)
    for part in word.split(","):
        players, colon, markers = part.partition(":")
        if not colon or not players.strip().isdigit() or int(players.strip()) not in PLAYERS:
            raise ValueError("write players:markers pairs for 3 to 5 players, e.g. 3:7,4:6,5:5 (EAW-3.1)")
        found[int(players.strip())] = whole(markers, "start_markers")
    return MappingProxyType(dict(sorted(found.items())))


def whole(word: str, key: str) -> int:
    """The whole number `word` within the bounds of option `key`; ValueError naming them."""
    low, high = OPTION_BOUNDS[key]
    digits = word.strip()
    if not digits.isascii() or not digits.isdigit() or len(digits) > 6 or not low <= int(digits) <= high:
        raise ValueError(f"write a whole number from {low} to {high} ({OPTION_RULES[key]})")
    return int(digits)
