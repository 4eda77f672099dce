"""Reading a position: the one place the services turn snapshot data into a state, from a file (`pbem check --state`,
`pbem resolve`, `pbem new --from-snapshot`) or from the archive (adjudicate, tick, verify, reports, mail).

The ruleset's reader checks the whole before any of it is used: its shape against the documented schema, then its
rules (areas of the board, seats of the game, cards of the game's data, the invariants every turn keeps). A position
that fails is a PbemError naming the field path; nothing reads a position past this check."""

from __future__ import annotations

import json
from typing import Any

from adjudicator.engine.protocol import hides_information
from adjudicator.rulesets import Ruleset


def read_position(ruleset: Ruleset, data: Any) -> Any:
    """The position of snapshot JSON data from a file, checked by the ruleset (Ruleset.read_snapshot)."""
    return ruleset.read_snapshot(data)


def stored_state(ruleset: Ruleset, text: str) -> Any:
    """The position of a snapshot text the archive holds, read by the ruleset. One that offers the optional
    `read_stored_snapshot` checks a text it checked before only once per process (a tick reads a game's position
    several times); the checks are those of read_position, so an edited archive row is refused like a file."""
    reader = getattr(ruleset, "read_stored_snapshot", None)
    return reader(text) if reader is not None else read_position(ruleset, json.loads(text))


def partial_view(ruleset: Ruleset, state: Any, given: Any) -> bool:
    """Whether snapshot data `given` is the public or one seat's view of a game that hides cards (no private or
    secret part, or one seat's private part alone): it lacks the hands and decks a game goes on with (ER-6.10)."""
    if not hides_information(ruleset) or not isinstance(given, dict):
        return False
    whole = json.loads(ruleset.snapshot_text(state))
    return any(key not in given for key in whole) or set(given.get("private", {})) != set(whole.get("private", {}))
