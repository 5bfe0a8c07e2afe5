"""A store that lives in memory only, for domain tests: the same transaction interface as `storage.engine.Store`
(so `storage.repository.unit_of_work` gives the `domain.ports.UnitOfWork` every service runs on), with no data
dir, journal, lock file or fsync.

A transaction is the engine's own `storage.transaction.Transaction` over `MemoryStore` (its `TableSource`):
reads see the transaction's staged writes, a savepoint drops what its block staged, and commit applies the staged
documents to plain dicts at once. Indexes are not kept: a `find` scans its table and an ordered read sorts its
group on each call, which is what a test's few hundred documents need. `tests/storage/test_store_contract.py`
runs one contract on this store, the TinyDB data dir and PostgreSQL, so a domain test passing here means the same
on the real stores.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from typing import Any

from storage.port import Ordering, StorageError, index_key
from storage.transaction import Doc, Transaction


class MemoryStore:
    """Tables of documents in dicts; one transaction at a time (a re-entrant lock), committed whole or not at all."""

    def __init__(self) -> None:
        self._tables: dict[str, dict[str, Doc]] = {}
        self._lock = threading.RLock()
        self._doc_seq = 0
        self._version = 0
        self._table_versions: dict[str, int] = {}
        self.remembered: dict[str, Any] = {}
        self.closed = False
        self.reads = 0

    # ------------------------------------------------------------------ what a Transaction reads (TableSource)
    def _raw(self, name: str) -> dict[str, Doc]:
        return self._tables.get(name) or {}

    def _bucket(self, name: str, field: str | tuple[str, ...], value: Any) -> dict[str, None]:
        """Keys whose `field` (or sorted tuple of fields) equals `value`: a scan, as no index is kept."""
        if isinstance(field, tuple):
            wanted = tuple(index_key(v) for v in value)
            return {key: None for key, doc in self._raw(name).items()
                    if tuple(index_key(doc.get(f)) for f in field) == wanted}
        return {key: None for key, doc in self._raw(name).items() if index_key(doc.get(field)) == index_key(value)}

    def _ordering(self, name: str, index: str, spec: Ordering) -> Ordering:
        """The ordered index `spec` of the committed documents, built afresh (nothing is kept between calls)."""
        ordering = Ordering(group=spec.group_fields, sort=spec.sort_fields, where=spec.where)
        for key, doc in self._raw(name).items():
            ordering.add(key, doc)
        return ordering

    # ------------------------------------------------------------------ the store interface
    @contextlib.contextmanager
    def transaction(self) -> Iterator[Transaction]:
        """One transaction: its staged writes are applied when the block ends normally, dropped if it raises."""
        with self._lock:
            if self.closed:
                raise StorageError("The store is closed.")
            tx = Transaction(self)
            try:
                yield tx
                if tx.staged:
                    self._commit(tx.staged)
                self.remembered.update(tx.remember)
            finally:
                tx.finished = True
                self.reads += tx.reads

    def _commit(self, staged: dict[tuple[str, str], Doc | None]) -> None:
        for (table, key), doc in staged.items():
            docs = self._tables.setdefault(table, {})
            if doc is None:
                docs.pop(key, None)
            else:
                docs[key] = doc
            self._table_versions[table] = self._table_versions.get(table, 0) + 1
        self._version += 1

    def versions(self, *tables: str) -> tuple[int, ...]:
        """How many writes each table has taken (a cache of what they hold is valid while these stay the same)."""
        return tuple(self._table_versions.get(name, 0) for name in tables)

    @property
    def version(self) -> int:
        """How many transactions have changed data so far."""
        return self._version

    def close(self) -> None:
        self.closed = True
