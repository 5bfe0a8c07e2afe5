"""Time as the domain sees it: an injectable clock and the one timestamp format of the API."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone
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


#: An RFC 3339 `date-time` (section 5.6) in full: `T` and `Z` in either case, any fraction of a second, `Z` or a
#: `±HH:MM` offset. What bodies and queries accept; nothing else (no space for `T`, no `+0100`, no bare date).
_RFC3339 = re.compile(r"(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?"
                      r"(?:([Zz])|([+-])(\d{2}):(\d{2}))?", re.ASCII)


class NoOffset(ValueError):
    """A date-time without `Z` or an offset: never read as UTC (contract §23)."""


def parse_rfc3339(text: str) -> datetime:
    """An aware datetime from an RFC 3339 date-time; `NoOffset` without an offset, `ValueError` for anything else
    (a leap second `:60` is read as the second before, Python has none)."""
    found = _RFC3339.fullmatch(text)
    if found is None:
        raise ValueError("not an RFC 3339 date-time")
    year, month, day, hour, minute, second = (int(part) for part in found.group(1, 2, 3, 4, 5, 6))
    fraction, zulu, sign, off_hours, off_minutes = found.group(7, 8, 9, 10, 11)
    if zulu is None and sign is None:
        raise NoOffset("a date-time without an offset")
    if zulu is not None:
        zone = UTC
    else:
        if int(off_hours) > 23 or int(off_minutes) > 59:
            raise ValueError("offset out of range")
        delta = timedelta(hours=int(off_hours), minutes=int(off_minutes))
        zone = timezone(-delta if sign == "-" else delta)
    micro = int((fraction or "0")[:6].ljust(6, "0"))
    return datetime(year, month, day, hour, minute, min(second, 59), micro, tzinfo=zone)
