"""The output pages' state cache (contract §10): rendered states by key hash, one per app, built by `bootstrap`."""

from __future__ import annotations

import threading
from typing import Any


class StateCache:
    """Rendered states by key hash, valid while the store's version and the minute (estimates move) stay."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._stamp: Any = None
        self._entries: dict[str, tuple[str, bytes]] = {}

    def get(self, stamp: Any, key_hash: str) -> tuple[str, bytes] | None:
        with self._lock:
            if stamp is None or stamp != self._stamp:
                return None
            return self._entries.get(key_hash)

    def put(self, stamp: Any, key_hash: str, entry: tuple[str, bytes]) -> None:
        with self._lock:
            if stamp != self._stamp:
                self._stamp, self._entries = stamp, {}
            if stamp is not None:
                self._entries[key_hash] = entry
