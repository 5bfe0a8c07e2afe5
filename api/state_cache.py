"""The output pages' state cache (contract §10): rendered states by key hash, one per app, built by `bootstrap`.

An entry is fresh while the store's version and the minute (estimates move) are those it was built at. Under a
stream of writes (a scorer posting points on ten courts) every write would make every page's next poll rebuild
its state, so an entry also stays good for `max_stale` seconds after it was built, as long as no output link
changed meanwhile (`links`: the outputs table's write count, so a rotated or removed link is refused at once):
each output's state is then rebuilt at most that often, and a change still shows within the poll interval plus
`max_stale` (well inside the 1 s of §10; docs/decisions.md, "Outputs").
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

Entry = tuple[str, bytes]  # (ETag, JSON body)
MAX_ENTRIES = 10_000


class StateCache:
    def __init__(self, *, max_stale: float = 0.0, monotonic: Callable[[], float] = time.monotonic) -> None:
        self._lock = threading.Lock()
        self._max_stale = max_stale
        self._monotonic = monotonic
        # key hash -> (stamp, links, built at, entry)
        self._entries: dict[str, tuple[Any, Any, float, Entry]] = {}

    def get(self, stamp: Any, links: Any, key_hash: str) -> Entry | None:
        if stamp is None:
            return None
        with self._lock:
            found = self._entries.get(key_hash)
        if found is None:
            return None
        built_stamp, built_links, built_at, entry = found
        if built_stamp == stamp or (built_links == links and self._monotonic() - built_at < self._max_stale):
            return entry
        return None

    def put(self, stamp: Any, links: Any, key_hash: str, entry: Entry) -> None:
        if stamp is None:
            return
        with self._lock:
            if len(self._entries) >= MAX_ENTRIES:
                self._entries.clear()
            self._entries[key_hash] = (stamp, links, self._monotonic(), entry)
