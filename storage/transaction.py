"""A transaction of the embedded store (`storage.engine.Store`): reads see its own staged writes, nothing reaches
disk or memory before `Store` commits it. Split from `storage/engine.py` (issue 36: no product file over 800
lines); it knows the store only through `TableSource`, the four things it reads, so this module imports nothing
of the engine and the engine builds a `Transaction` over itself.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping
from typing import Any, Protocol

import orjson
from sortedcontainers import SortedList

from storage.port import Ordering, StorageError, index_key

Doc = dict[str, Any]


def _copy(doc: Mapping[str, Any]) -> Doc:
    """A deep copy through JSON, so no caller ever holds a stored document and only JSON gets stored."""
    result: Doc = orjson.loads(orjson.dumps(doc))
    return result


class TableSource(Protocol):
    """What a transaction reads of its store (`storage.engine.Store` is one): the live tables, their index buckets
    and orderings, the adapters' hints, and the creation counter a new document takes its `seq` from."""

    remembered: dict[str, Any]
    _doc_seq: int

    def _raw(self, name: str) -> dict[str, Doc]: ...

    def _bucket(self, name: str, field: str | tuple[str, ...], value: Any) -> dict[str, None]: ...

    def _ordering(self, name: str, index: str, spec: Ordering) -> Ordering: ...


class Transaction:
    """Reads see this transaction's own staged writes; nothing reaches disk or memory before commit."""

    def __init__(self, store: TableSource) -> None:
        self._store = store
        self.staged: dict[tuple[str, str], Doc | None] = {}
        # What an adapter learned in an earlier committed transaction (`remembered`) and what this one teaches the
        # next ones once it commits (`remember`): hints an adapter checks before relying on them.
        self.remembered: Mapping[str, Any] = store.remembered
        self.remember: dict[str, Any] = {}
        self.finished = False
        self.reads = 0  # documents looked at (the store adds them up in `Store.reads`)

    def _current(self, table: str, key: str) -> Doc | None:
        if self.finished:
            raise StorageError("This transaction is over; open a new one.")
        if (table, key) in self.staged:
            return self.staged[(table, key)]
        return self._store._raw(table).get(key)

    def get(self, table: str, key: str) -> Doc | None:
        doc = self._current(table, key)
        self.reads += 1
        return None if doc is None else _copy(doc)

    def put(self, table: str, key: str, doc: Mapping[str, Any]) -> Doc:
        """Stage a whole-document write; a new document gets the next creation `seq`, an old one keeps its own."""
        stored = _copy(doc)
        self._stage(table, key, stored)
        return _copy(stored)

    def put_all(self, table: str, docs: Mapping[str, Mapping[str, Any]]) -> None:
        """Stage whole-document writes of many documents (by key) as `put` does, copied in one go and returning
        nothing (a draw's parts, the real matches of a new draw)."""
        copies: list[Doc] = orjson.loads(orjson.dumps(list(docs.values())))
        for key, stored in zip(docs, copies, strict=True):
            self._stage(table, key, stored)

    def _stage(self, table: str, key: str, stored: Doc) -> None:
        """Stage our own copy of a document; a new one gets the next creation `seq`, an old one keeps its own."""
        previous = self._current(table, key)
        if previous is not None and previous.get("seq"):
            stored["seq"] = previous["seq"]
        elif not stored.get("seq"):
            self._store._doc_seq += 1
            stored["seq"] = self._store._doc_seq
        self.staged[(table, key)] = stored

    def delete(self, table: str, key: str) -> None:
        self._current(table, key)
        self.staged[(table, key)] = None

    def find(self, table: str, **equals: Any) -> list[Doc]:
        """Documents whose fields equal `equals`, in creation order; uses the smallest index bucket."""
        if self.finished:
            raise StorageError("This transaction is over; open a new one.")
        raw = self._store._raw(table)
        if len(equals) > 1:  # the index of exactly these fields: only the matching documents are looked at
            fields = tuple(sorted(equals))
            candidates: Mapping[str, Any] = self._store._bucket(table, fields, tuple(equals[f] for f in fields))
        elif equals:
            [(field, value)] = equals.items()
            candidates = self._store._bucket(table, field, value)
        else:
            candidates = raw
        keys = list(candidates)
        keys.extend(key for (name, key) in self.staged if name == table and key not in candidates)
        found = []
        for key in keys:
            doc = self.staged[(table, key)] if (table, key) in self.staged else raw.get(key)
            if doc is not None and all(doc.get(f) == v for f, v in equals.items()):
                found.append(doc)
        self.reads += len(keys)
        found.sort(key=lambda doc: doc.get("seq", 0))
        return [_copy(doc) for doc in found]

    @contextlib.contextmanager
    def savepoint(self) -> Iterator[None]:
        """If the block raises, the writes it staged are dropped (earlier ones stay) and the exception goes on."""
        if self.finished:
            raise StorageError("This transaction is over; open a new one.")
        kept = dict(self.staged)  # staged documents are never changed in place, so a shallow copy is enough
        try:
            yield
        except BaseException:
            self.staged.clear()
            self.staged.update(kept)
            raise

    # ----------------------------------------------------------------- ordered indexes
    def _ordered_view(
        self, table: str, index: str, spec: Ordering, group: tuple[Any, ...],
    ) -> tuple[Ordering, SortedList, dict[str, Doc | None], dict[str, Doc]]:
        """The committed entries of a group, plus this transaction's staged writes to the table."""
        if self.finished:
            raise StorageError("This transaction is over; open a new one.")
        ordering = self._store._ordering(table, index, spec)
        group = tuple(index_key(value) for value in group)
        staged = {key: doc for (name, key), doc in self.staged.items() if name == table}
        return ordering, ordering.groups.get(group) or SortedList(), staged, self._store._raw(table)

    def rank(self, table: str, index: str, spec: Ordering, key: str) -> int | None:
        """0-based place of a document in its group of an ordered index, or None when it is not in the index."""
        ordering = self._store._ordering(table, index, spec)
        doc = self._current(table, key)
        group = ordering.group_of(doc)
        if doc is None or group is None:
            return None
        _, entries, staged, raw = self._ordered_view(table, index, spec, group)
        mine = ordering.entry(key, doc)
        rank = int(entries.bisect_left(mine))
        for other, new in staged.items():  # O(staged): a staged write may move a document across `mine`
            old = raw.get(other)
            if ordering.group_of(old) == group and ordering.entry(other, old) < mine:  # type: ignore[arg-type]
                rank -= 1
            if new is not None and ordering.group_of(new) == group and ordering.entry(other, new) < mine:
                rank += 1
        return rank

    def ordered(
        self, table: str, index: str, spec: Ordering, group: tuple[Any, ...], *, start: int = 0,
        stop: int | None = None, last: bool = False, low: tuple[Any, ...] | None = None,
    ) -> list[Doc]:
        """Documents of one group of an ordered index, in order: `[start:stop]`, or only the last one (`last`).
        With `low` (values of the first sort fields) only the documents sorted at or after it count: a range read,
        found by bisection (the matches of a court completed since a moment)."""
        ordering, entries, staged, raw = self._ordered_view(table, index, spec, group)
        floor = None if low is None else tuple((value is not None, value) for value in low)
        begin = 0 if floor is None else int(entries.bisect_left(floor))
        if not staged:
            if last:
                picked = entries[-1:] if len(entries) > begin else []
            else:
                picked = entries[begin + start:None if stop is None else begin + max(stop, start)]
            self.reads += len(picked)
            return [_copy(raw[entry[-1]]) for entry in picked]
        # Each staged key hides at most one committed entry: read that many more, then merge the staged ones.
        if last:
            window = entries[max(begin, len(entries) - (len(staged) + 1)):]
        else:
            window = entries[begin:None if stop is None else begin + stop + len(staged)]
        docs = {entry[-1]: raw[entry[-1]] for entry in window if entry[-1] not in staged}
        mine = tuple(index_key(v) for v in group)
        docs.update({key: doc for key, doc in staged.items()
                     if doc is not None and ordering.group_of(doc) == mine
                     and (floor is None or ordering.entry(key, doc) >= floor)})
        merged = sorted(docs.items(), key=lambda item: ordering.entry(*item))
        picked_docs = merged[-1:] if last else merged[start:stop]
        self.reads += len(window) + len(staged)
        return [_copy(doc) for _, doc in picked_docs]

    def ordered_count(self, table: str, index: str, spec: Ordering, group: tuple[Any, ...]) -> int:
        """How many documents one group of an ordered index holds in this transaction's view."""
        ordering, entries, staged, raw = self._ordered_view(table, index, spec, group)
        group = tuple(index_key(value) for value in group)
        total = len(entries)
        for key, new in staged.items():
            total -= ordering.group_of(raw.get(key)) == group
            total += new is not None and ordering.group_of(new) == group
        return total

    def count(self, table: str) -> int:
        """How many documents the table holds, this transaction's staged writes included."""
        raw = self._store._raw(table)
        total = len(raw)
        for (name, key), doc in self.staged.items():
            if name == table:
                total += (doc is not None) - (key in raw)
        return total
