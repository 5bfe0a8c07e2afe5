"""The storage port: what both stores (`storage.engine.Store`, embedded TinyDB, and `storage.postgres.PgStore`)
share and what callers above them may catch, with no store behind it. Both backends import this module and
nothing of each other; `storage.backend` picks one of them at start (so no storage module imports a module that
imports it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sortedcontainers import SortedList


class StorageError(RuntimeError):
    """Storage cannot do what was asked; the message says why and what to do."""


class WriteConflict(RuntimeError):
    """A transaction lost a race with another one (PostgreSQL: serialization failure, deadlock, unique
    violation): nothing of it was applied, and running the whole unit of work again is safe
    (`storage.backend.retrying`). Not `domain.errors.Conflict` (a 409 the domain decides): this one is retried, and
    answered 503 `busy` only when every retry lost."""


class _Unhashable:
    """Index bucket of documents whose indexed field holds a list or object (never equal to a scalar)."""


UNHASHABLE = _Unhashable()


def index_key(value: Any) -> Any:
    try:
        hash(value)
    except TypeError:
        return UNHASHABLE
    return value


class Ordering:
    """An ordered index over one table: documents whose `where` fields match, grouped by the values of `group`
    and sorted by `sort` (then key). Rank, length and slices of a group cost O(log n) (plus what is returned),
    which is what a court queue needs: where a match stands and what comes first, without reading the queue."""

    def __init__(self, *, group: tuple[str, ...], sort: tuple[str, ...], where: Mapping[str, Any]) -> None:
        self.group_fields, self.sort_fields, self.where = group, sort, dict(where)
        self.groups: dict[tuple[Any, ...], SortedList] = {}

    def group_of(self, doc: Mapping[str, Any] | None) -> tuple[Any, ...] | None:
        """The group a document is in, or None when it is not indexed (absent, or `where` does not match)."""
        if doc is None or any(doc.get(field) != value for field, value in self.where.items()):
            return None
        return tuple(index_key(doc.get(field)) for field in self.group_fields)

    def entry(self, key: str, doc: Mapping[str, Any]) -> tuple[Any, ...]:
        values = tuple(doc.get(field) for field in self.sort_fields)
        return (*((value is not None, value) for value in values), key)

    def add(self, key: str, doc: Mapping[str, Any]) -> None:
        group = self.group_of(doc)
        if group is not None:
            self.groups.setdefault(group, SortedList()).add(self.entry(key, doc))

    def discard(self, key: str, doc: Mapping[str, Any]) -> None:
        group = self.group_of(doc)
        entries = self.groups.get(group) if group is not None else None
        if entries is not None:
            entries.discard(self.entry(key, doc))
            if not entries:
                del self.groups[group]  # type: ignore[arg-type]


