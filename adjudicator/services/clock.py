"""Time as the services read it."""

from __future__ import annotations

from datetime import UTC, datetime


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def parse_time(text: str) -> datetime:
    return datetime.fromisoformat(text)
