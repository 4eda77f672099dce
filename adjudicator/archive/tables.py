"""The names of the archive's tables, and of the columns read without SQLAlchemy (lean.py): the one source that the
sqlmodel rows (models.py) and the lean reader both take them from. The tables keep the names they had in every
archive made before the Row classes."""

from __future__ import annotations

GAME = "game"
SEAT = "seat"
TURN = "turn"
ORDER_SET = "orderset"
DECISION = "decision"
MESSAGE = "message"
OUTBOX = "outbox"
OBSERVER = "observer"

# The columns lean.py reads, by table (tests/test_lean_archive.py checks each against models.py).
LEAN_COLUMNS = {GAME: ("id", "name", "ruleset", "pace"), TURN: ("game_id", "number", "superseded", "state_json")}
