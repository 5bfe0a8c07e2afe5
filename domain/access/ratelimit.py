"""Fixed-window rate limiting (60-second windows unless a caller names another length), keyed by connection or
client address."""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from dataclasses import dataclass

from domain.clock import Clock

WINDOW_SECONDS = 60


@dataclass(frozen=True)
class Quota:
    """What the `RateLimit-*` headers report after one request."""

    limit: int
    remaining: int
    reset: int  # seconds until the window resets
    allowed: bool


# Counts one request of `key` in the window starting at that epoch second, where every process sees it (count
# False: only reads it); returns the count including it.
SharedCount = Callable[[str, int, int, bool], int]


class RateLimiter:
    """Counts requests per key in fixed windows aligned to the clock's minute boundaries."""

    def __init__(self, clock: Clock, *, shared: SharedCount | None = None) -> None:
        self._clock = clock
        self._shared = shared
        self._lock = threading.Lock()
        self._windows: dict[str, tuple[int, int]] = {}

    def hit(self, key: str, limit: int, *, window_seconds: int = WINDOW_SECONDS) -> Quota:
        """Count one request of `key`; refused (not counted) once `limit` were counted in this window."""
        return self._count(key, limit, window_seconds, count=True)

    def peek(self, key: str, limit: int, *, window_seconds: int = WINDOW_SECONDS) -> Quota:
        """Whether one more request of `key` would be allowed now, counting nothing (for limits whose count
        depends on the outcome, as sign-ups and failed sign-ups)."""
        return self._count(key, limit, window_seconds, count=False)

    def _count(self, key: str, limit: int, window_seconds: int, *, count: bool) -> Quota:
        moment = self._clock.now().timestamp()
        start = int(moment // window_seconds) * window_seconds
        reset = max(1, math.ceil(start + window_seconds - moment))
        if self._shared is not None:
            seen = self._shared(key, start, limit, count)
            allowed = seen <= limit if count else seen < limit
            return Quota(limit=limit, remaining=max(0, limit - seen), reset=reset, allowed=allowed)
        with self._lock:
            current, seen = self._windows.get(key, (start, 0))
            if current != start:
                seen = 0
            allowed = seen < limit
            if allowed and count:
                seen += 1
                self._windows[key] = (start, seen)
            if len(self._windows) > 10_000:  # keys of finished windows go (no growth with random keys)
                now = int(moment)
                self._windows = {k: v for k, v in self._windows.items() if v[0] + 3600 > now}
        return Quota(limit=limit, remaining=max(0, limit - seen), reset=reset, allowed=allowed)
