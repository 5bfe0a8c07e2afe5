"""Answers kept while what they were built from has not changed: one mechanism for every cached read.

The store counts writes (per table, and in all); a cached answer carries the `stamp` it was built at (those
counts, plus anything else it depends on) and is served while the stamp is unchanged. The stamp is read before
the answer is built, so a write landing meanwhile only makes the entry look older than it is (rebuilt on the next
request), never newer. Uses:
- principals and partner match reads (`Services.reads`): stamp = the write counts of the tables they read;
- the output pages' states (`Services.output_states`, contract §10): stamp = the store's write count and the
  minute (estimates move). Under a stream of writes (a scorer posting points on ten courts) every write would make
  every page's next poll rebuild its state, so such an entry also stays good for `max_stale` seconds after it was
  built, as long as its `guard` (the outputs table's write count) is unchanged: a rotated or removed link is
  refused at once, and a change still shows within the poll interval plus `max_stale` (docs/decisions.md,
  "Outputs").
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from typing import Any, NamedTuple

MAX_ENTRIES = 10_000


class _Entry(NamedTuple):
    stamp: Hashable
    guard: Hashable
    built_at: float
    value: Any


class ReadCache:
    def __init__(self, *, max_stale: float = 0.0, monotonic: Callable[[], float] = time.monotonic,
                 limit: int = MAX_ENTRIES) -> None:
        self._max_stale = max_stale
        self._monotonic = monotonic
        self._limit = limit
        self._entries: dict[Hashable, _Entry] = {}  # single dict operations: safe across request threads

    def get(self, key: Hashable, stamp: Hashable, *, guard: Hashable = None, fresh: bool = False) -> Any | None:
        """The value kept for `key` if built at `stamp` (or, unless `fresh`, within `max_stale` under the same
        `guard`: a held poll waits for the state as it is now, not one `max_stale` behind)."""
        found = self._entries.get(key)
        if found is None:
            return None
        if found.stamp == stamp:
            return found.value
        if (self._max_stale and not fresh and found.guard == guard
                and self._monotonic() - found.built_at < self._max_stale):
            return found.value
        return None

    def put(self, key: Hashable, stamp: Hashable, value: Any, *, guard: Hashable = None) -> None:
        if len(self._entries) >= self._limit:
            self._entries.clear()
        self._entries[key] = _Entry(stamp, guard, self._monotonic(), value)

    def read(self, key: Hashable, stamp: Hashable, build: Callable[[], Any]) -> Any:
        """The kept value for `key` while `stamp` is unchanged; else `build()`, kept."""
        found = self.get(key, stamp)
        if found is not None:
            return found
        value = build()
        self.put(key, stamp, value)
        return value
