"""Decoded draws kept between requests, owned by the app's `Services` (`api.bootstrap`) and lent to each unit of
work (`UnitOfWork.draw_cache`): completing a match of a running draw then reads no draw match and decodes nothing."""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from domain.draws.model import Draw
from domain.models import DrawRecord


@dataclass
class Held:
    """A draw loaded to be changed: the engine's draw, and the marks of its parts as stored (`codec.marks_of`, what
    `store.save` compares with; empty when none is stored yet)."""

    draw: Draw
    marks: dict[str, Any]


class DecodedDraws:
    """Draws decoded or saved, each as of one stored version (`DrawRecord.version`, a random ID new at every write,
    so a version names one state on every backend and in every process).

    A draw is handed to one caller at a time (`take` removes it): who changes it owns it until `save` keeps it again
    under the new version, which is only ever found once that version is committed (a rolled-back one is never
    stored, so never asked for); who fails on the way simply leaves it out, and the next one reads it from storage."""

    def __init__(self, size: int = 16) -> None:
        self._lock = threading.Lock()
        self._kept: OrderedDict[str, tuple[str, Held]] = OrderedDict()
        self._size = size

    def take(self, record: DrawRecord) -> Held | None:
        """The kept draw of this record's version (removed from the cache), or None."""
        with self._lock:
            kept = self._kept.pop(record.id, None)
        return kept[1] if kept is not None and record.version and kept[0] == record.version else None

    def keep(self, record: DrawRecord, held: Held, *, replace: bool = True) -> None:
        """Keep `held` as the draw of the record's version (the least recently kept goes beyond `size`)."""
        with self._lock:
            if not replace and record.id in self._kept:
                return
            self._kept[record.id] = (record.version, held)
            self._kept.move_to_end(record.id)
            while len(self._kept) > self._size:
                self._kept.popitem(last=False)

    def clear(self) -> None:
        """Forget every kept draw (the next reads decode from storage, as a new process would)."""
        with self._lock:
            self._kept.clear()
