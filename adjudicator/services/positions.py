"""Reading a stored position: the one place the services turn a snapshot text of the archive into a state."""

from __future__ import annotations

import json
from typing import Any

from adjudicator.rulesets import Ruleset


def stored_state(ruleset: Ruleset, text: str) -> Any:
    """The position of a snapshot text the archive holds, read by the ruleset. One that offers the optional
    `read_stored_snapshot` checks a text it checked before only once per process (a tick reads a game's position
    several times)."""
    reader = getattr(ruleset, "read_stored_snapshot", None)
    return reader(text) if reader is not None else ruleset.read_snapshot(json.loads(text))
