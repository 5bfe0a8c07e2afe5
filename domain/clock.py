"""Time as the domain sees it: an injectable clock and the one timestamp format of the API."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Protocol


class Clock(Protocol):
    def now(self) -> datetime: ...


class SystemClock:
    """The real clock (UTC)."""

    def now(self) -> datetime:
        return datetime.now(UTC)


class FixedClock:
    """A clock for tests: set and advance it by hand."""

    def __init__(self, start: datetime | None = None) -> None:
        self.current = start or datetime(2026, 11, 21, 10, 0, tzinfo=UTC)

    def now(self) -> datetime:
        return self.current

    def advance(self, seconds: float) -> None:
        self.current += timedelta(seconds=seconds)


def iso(moment: datetime) -> str:
    """ISO 8601 UTC with milliseconds and `Z`; fixed width, so such strings also sort by time."""
    return moment.astimezone(UTC).isoformat(timespec="milliseconds")[:-6] + "Z"  # "+00:00" -> "Z"; C-fast


def parse_iso(text: str) -> datetime:
    """Inverse of `iso` (also accepts any ISO 8601 offset)."""
    return datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(UTC)
