"""Reads kept while the tables they were built from take no write (the store counts writes per table).

A partner polling a match that has not changed, or a credential presented again, gets the same answer without a
unit of work. The table versions are read before the answer is built, so a write landing meanwhile only makes
the entry look older than it is (rebuilt on the next request), never newer.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from storage.backend import AnyStore


class ReadCache:
    def __init__(self, store: AnyStore, *, limit: int = 10_000) -> None:
        self._store = store
        self._limit = limit
        self._entries: dict[Hashable, tuple[tuple[int, ...], Any]] = {}

    def read(self, key: Hashable, tables: tuple[str, ...], build: Callable[[], Any]) -> Any:
        """The cached answer for `key` while `tables` took no write since it was built; else `build()` (kept)."""
        versions = self._store.versions(*tables)
        found = self._entries.get(key)
        if found is not None and found[0] == versions:
            return found[1]
        value = build()
        if len(self._entries) >= self._limit:
            self._entries.clear()
        self._entries[key] = (versions, value)
        return value
