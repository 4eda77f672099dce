"""Time as the services read it: a clock handed to every operation that reads the time, so that a test (or a tick
that acts at one moment) can fix it. The command line uses the system clock."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Protocol


class Clock(Protocol):
    def now(self) -> datetime:
        """The time now, in UTC."""
        ...


class SystemClock:
    """The machine's clock."""

    def now(self) -> datetime:
        return datetime.now(UTC)


@dataclass(frozen=True)
class FixedClock:
    """A clock that always says `moment`: a tick acts at the moment it began; tests move time by hand."""

    moment: datetime

    def now(self) -> datetime:
        return self.moment


SYSTEM_CLOCK: Clock = SystemClock()


def timestamp(clock: Clock) -> str:
    """The clock's time as the archive stores it: ISO 8601 in UTC, to the second."""
    return clock.now().isoformat(timespec="seconds")


def parse_time(text: str) -> datetime:
    return datetime.fromisoformat(text)
