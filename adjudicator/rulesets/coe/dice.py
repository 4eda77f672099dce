"""Conquest of the Empire's Classic combat die as a dice file may write it (C-1.8): faces 1 and 2 are infantry,
3 cavalry, 4 catapult, 5 galley, 6 blank."""

from __future__ import annotations

COMBAT_DIE_SYMBOLS = {
    "inf": 1,
    "infantry": 1,
    "cav": 3,
    "cavalry": 3,
    "cat": 4,
    "catapult": 4,
    "gal": 5,
    "galley": 5,
    "blank": 6,
}
