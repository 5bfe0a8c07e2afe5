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

    def __init__(self, size: int = 16, *, derived_size: int = 64, hints_size: int = 100_000) -> None:
        self._lock = threading.Lock()
        self._kept: OrderedDict[str, tuple[str, Held]] = OrderedDict()
        self._size = size
        self._derived: OrderedDict[tuple[Any, ...], Any] = OrderedDict()
        self._derived_size = derived_size
        self._draw_of: OrderedDict[str, str] = OrderedDict()
        self._hints_size = hints_size

    def derived(self, key: tuple[Any, ...]) -> Any | None:
        """What a reader made of one stored version of a draw (its key names the draw, the version and what else
        it depends on), or None; e.g. the order of play's items of a draw (`domain.plan.service`)."""
        with self._lock:
            kept = self._derived.get(key)
            if kept is not None:
                self._derived.move_to_end(key)
            return kept

    def keep_derived(self, key: tuple[Any, ...], value: Any) -> None:
        """Keep `value` under `key` (frozen values only: every caller shares it)."""
        with self._lock:
            self._derived[key] = value
            while len(self._derived) > self._derived_size:
                self._derived.popitem(last=False)

    def note_draw_of(self, draw_match_ids: list[str], draw_id: str) -> None:
        """Remember which draw these draw matches are of: a hint for a later lookup, which checks it."""
        with self._lock:
            for draw_match_id in draw_match_ids:
                self._draw_of[draw_match_id] = draw_id
                self._draw_of.move_to_end(draw_match_id)
            while len(self._draw_of) > self._hints_size:
                self._draw_of.popitem(last=False)

    def draw_of(self, draw_match_id: str) -> str | None:
        """The draw a draw match was last seen in (a hint), or None."""
        with self._lock:
            return self._draw_of.get(draw_match_id)

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
            self._derived.clear()
            self._draw_of.clear()
