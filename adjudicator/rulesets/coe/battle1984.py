"""Phase 2 of the 1984 edition: single shots at named targets with target numbers and combat advantage
(O-6.4 to O-6.27)."""

from __future__ import annotations

from adjudicator.engine.turn import Turn
from adjudicator.engine.vocabulary import NotSupportedYet


def fight_land_battle(turn: Turn, code: str, attacker: str, defender: str) -> None:
    """A 1984 land battle (O-6.4 to O-6.22)."""
    raise NotSupportedYet(turn.rules.rule("6.1"), "1984 land battles are not adjudicated yet")


def fight_naval_battle(turn: Turn, zone: str, attacker: str, defender: str) -> None:
    """A 1984 naval battle (O-6.23 to O-6.27)."""
    raise NotSupportedYet(turn.rules.rule("7.1"), "1984 naval battles are not adjudicated yet")
