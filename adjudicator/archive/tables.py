"""The names of the archive's tables and of their columns and indexes: the one source that the sqlmodel rows
(models.py) and the readers and writers without SQLAlchemy (lean.py, verify_rows.py, lean_mail.py) take them from.
The tables keep the names they had in every archive made before the Row classes."""

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

# Every column of each table, in the rows' order (tests/test_verify_rows.py holds them to models.py), those of them
# that the archive gives as booleans (SQLite stores 0/1), and the indexes of each table: an archive lacking one
# of them was made by an older version, which the archive (store.py) upgrades.
COLUMNS: dict[str, tuple[str, ...]] = {
    GAME: (
        *("id", "name", "ruleset", "pace", "seed", "commitment", "checkpoints", "status", "decisions"),
        *("decision_hours", "moderator", "deadline", "turn_hours", "reminder_hours", "check_sender"),
        *("anonymous_press", "nmr_alert", "bot_after", "paused", "created", "observers", "selfplay", "early"),
        *("away_days", "grace_hours", "wait_turn", "chain_head", "chain_turn", "game_data", "orders_hash_version"),
        *("chain_version", "ticks"),
    ),
    SEAT: (
        *("id", "game_id", "seat", "email", "password_hash", "pending_password_hash", "language", "missed"),
        *("reminded_for", "timezone", "resigned", "pending_email", "email_token_hash", "ready_for", "wait_for"),
        *("away_from", "away_until", "run_by_bot", "back_from_bot"),
    ),
    TURN: (
        *("id", "game_id", "number", "seat", "round", "orders_text", "orders_hash", "dice_source", "given_dice"),
        *("turn_key", "hidden_key", "hidden_dice_json", "orders_key", "state_json", "state_hash", "events_json"),
        *("results_json", "dice_json", "answers_json", "superseded", "mailed", "chain", "created", "dice_faces"),
        *("hidden_faces", "seat_orders"),
    ),
    ORDER_SET: ("id", "game_id", "turn", "seat", "text", "received", "replaced", "source"),
    DECISION: (
        *("id", "game_id", "turn", "seat", "key", "question", "default", "rule", "asked", "answer", "answered"),
        "notified",
    ),
    MESSAGE: ("id", "message_id", "received", "sender", "subject", "raw", "game", "seat", "outcome"),
    OUTBOX: (
        *("id", "game", "to", "subject", "body", "html", "map_svg", "created", "sent", "attempts", "error", "secret"),
        *("in_reply_to", "thread", "map_turn", "map_language", "record_turn"),
    ),
    OBSERVER: ("id", "game_id", "email", "language", "since", "confirmed", "token_hash"),
}
BOOLEANS: dict[str, frozenset[str]] = {
    GAME: frozenset({"check_sender", "anonymous_press", "paused", "selfplay"}),
    SEAT: frozenset({"run_by_bot", "back_from_bot"}),
    TURN: frozenset({"superseded", "mailed"}),
    ORDER_SET: frozenset({"replaced"}),
    DECISION: frozenset({"notified"}),
    MESSAGE: frozenset(),
    OUTBOX: frozenset(),
    OBSERVER: frozenset({"confirmed"}),
}
INDEXES: dict[str, frozenset[str]] = {
    GAME: frozenset({"ix_game_name"}),
    SEAT: frozenset({"ix_seat_game_id"}),
    TURN: frozenset({"ix_turn_game_id", "one_live_turn"}),
    ORDER_SET: frozenset({"ix_orderset_game_id", "one_current_order_set"}),
    DECISION: frozenset({"ix_decision_game_id"}),
    MESSAGE: frozenset({"ix_message_message_id"}),
    OUTBOX: frozenset(),
    OBSERVER: frozenset({"ix_observer_game_id"}),
}
