"""Fixed-window rate limiting (60-second windows), keyed by connection or client address."""

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


# Counts one request of `key` in `window` where every process sees it; returns the count including it.
SharedCount = Callable[[str, int, int], int]


class RateLimiter:
    """Counts requests per key in fixed windows aligned to the clock's minute boundaries."""

    def __init__(self, clock: Clock, *, shared: SharedCount | None = None) -> None:
        self._clock = clock
        self._shared = shared
        self._lock = threading.Lock()
        self._windows: dict[str, tuple[int, int]] = {}

    def hit(self, key: str, limit: int) -> Quota:
        moment = self._clock.now().timestamp()
        window = int(moment // WINDOW_SECONDS)
        reset = max(1, math.ceil((window + 1) * WINDOW_SECONDS - moment))
        if self._shared is not None:
            count = self._shared(key, window, limit)
            allowed = count <= limit
            return Quota(limit=limit, remaining=max(0, limit - count), reset=reset, allowed=allowed)
        with self._lock:
            current, count = self._windows.get(key, (window, 0))
            if current != window:
                count = 0
            allowed = count < limit
            if allowed:
                count += 1
            self._windows[key] = (window, count)
            if len(self._windows) > 10_000:
                self._windows = {k: v for k, v in self._windows.items() if v[0] == window}
        return Quota(limit=limit, remaining=max(0, limit - count), reset=reset, allowed=allowed)
