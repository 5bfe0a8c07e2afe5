"""The only code that knows documents on disk.

Documents live in in-memory TinyDB tables. Every committed transaction is first appended as one line to an
fsynced journal (whole-document puts and deletes), then applied in memory, so a write costs O(changed
documents) and survives `kill -9` once acknowledged. When the journal outgrows the last snapshot it is
compacted: the tables are written to a temp file, fsynced, atomically renamed over `db.json` (a plain TinyDB
JSON file) and the directory is fsynced. On start the snapshot is loaded and the journal replayed; a torn last
line (a crash mid-append) is dropped. An OS lock on the data dir keeps a second process out.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import orjson
from filelock import FileLock, Timeout
from tinydb import TinyDB
from tinydb.storages import MemoryStorage
from tinydb.table import Document, Table

Doc = dict[str, Any]
SNAPSHOT = "db.json"
JOURNAL = "journal.jsonl"
LOCK = "courtside.lock"
META_TABLE = "_meta"


class DataDirBusy(RuntimeError):
    """Another process already owns this data dir."""


class _InPlaceTable(Table):
    """A TinyDB table keyed by our own string IDs, updated in place.

    TinyDB's stock `_update_table` copies the whole table twice per write (O(n)); in memory that is pure
    waste, so updates here touch only the documents they change.
    """

    document_id_class = str  # type: ignore[assignment]

    def _update_table(self, updater: Callable[[dict[Any, Mapping[Any, Any]]], None]) -> None:
        tables = self._storage.read()
        assert tables is not None
        updater(tables.setdefault(self.name, {}))
        self.clear_cache()


def _copy(doc: Mapping[str, Any]) -> Doc:
    """A deep copy, so no caller ever holds a stored document."""
    result: Doc = orjson.loads(orjson.dumps(doc))
    return result


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class Store:
    """One data dir, owned by this process. All access is serialized by one re-entrant lock."""

    def __init__(self, data_dir: Path, *, compact_bytes: int = 16 * 1024 * 1024) -> None:
        self.data_dir = Path(data_dir)
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self._os_lock = FileLock(str(self.data_dir / LOCK))
        try:
            self._os_lock.acquire(timeout=0)
        except Timeout as exc:
            raise DataDirBusy(
                f"The data dir {self.data_dir} is already in use by another Courtside process."
            ) from exc
        self._lock = threading.RLock()
        self._compact_bytes = compact_bytes
        self._db = TinyDB(storage=MemoryStorage)
        self._db.table_class = _InPlaceTable
        self._db.storage.write({})
        self._tables: dict[str, Table] = {}
        self._indexes: dict[tuple[str, str], dict[Any, dict[str, None]]] = {}
        self._journal_seq = 0
        self._doc_seq = 0
        self._snapshot_size = 0
        self._load()
        self._journal = open(self.data_dir / JOURNAL, "ab")  # noqa: SIM115 - lives as long as the store
        self.closed = False

    # ----------------------------------------------------------------- loading
    def _table(self, name: str) -> Table:
        table = self._tables.get(name)
        if table is None:
            table = self._tables[name] = self._db.table(name, cache_size=0)
        return table

    def _all(self) -> dict[str, dict[str, Doc]]:
        tables: dict[str, dict[str, Doc]] | None = self._db.storage.read()
        assert tables is not None
        return tables

    def _raw(self, name: str) -> dict[str, Doc]:
        return self._all().setdefault(name, {})

    def _load(self) -> None:
        snapshot = self.data_dir / SNAPSHOT
        if snapshot.exists():
            data = snapshot.read_bytes()
            self._snapshot_size = len(data)
            tables: dict[str, dict[str, Doc]] = orjson.loads(data) if data else {}
            meta = tables.pop(META_TABLE, {}).get("1", {})
            self._journal_seq = int(meta.get("journalSeq", 0))
            for name, docs in tables.items():
                self._table(name)
                self._raw(name).update(docs)
        self._replay()
        self._doc_seq = max(
            (int(doc.get("seq", 0)) for docs in self._all().values() for doc in docs.values()), default=0
        )

    def _replay(self) -> None:
        path = self.data_dir / JOURNAL
        if not path.exists():
            return
        good_until = 0
        with open(path, "rb") as journal:
            for line in journal:
                if not line.endswith(b"\n"):
                    break  # torn tail: the write was never acknowledged
                try:
                    entry = orjson.loads(line)
                except orjson.JSONDecodeError:
                    break
                good_until += len(line)
                if entry["s"] <= self._journal_seq:
                    continue  # already in the snapshot
                self._apply(entry["ops"])
                self._journal_seq = entry["s"]
        if good_until != path.stat().st_size:
            with open(path, "r+b") as journal:
                journal.truncate(good_until)
                journal.flush()
                os.fsync(journal.fileno())

    # ----------------------------------------------------------------- writing
    def _apply(self, ops: list[list[Any]]) -> None:
        for name, key, doc in ops:
            table = self._table(name)
            raw = self._raw(name)
            old = raw.get(key)
            if old is not None:
                self._unindex(name, key, old)
                table.remove(doc_ids=[key])
            if doc is not None:
                table.insert(Document(doc, doc_id=key))
                self._index(name, key, doc)

    def _commit(self, staged: dict[tuple[str, str], Doc | None]) -> None:
        ops = [[name, key, doc] for (name, key), doc in staged.items()]
        line = orjson.dumps({"s": self._journal_seq + 1, "ops": ops}) + b"\n"
        self._journal.write(line)
        self._journal.flush()
        os.fsync(self._journal.fileno())
        self._journal_seq += 1
        self._apply(ops)
        if self._journal.tell() > max(self._compact_bytes, self._snapshot_size):
            self.compact()

    def compact(self) -> None:
        """Write an atomic snapshot of every table and start an empty journal."""
        with self._lock:
            tables: dict[str, Any] = dict(self._all())
            tables[META_TABLE] = {"1": {"journalSeq": self._journal_seq}}
            data = orjson.dumps(tables)
            temp = self.data_dir / (SNAPSHOT + ".tmp")
            with open(temp, "wb") as out:
                out.write(data)
                out.flush()
                os.fsync(out.fileno())
            os.replace(temp, self.data_dir / SNAPSHOT)
            _fsync_dir(self.data_dir)
            self._snapshot_size = len(data)
            self._journal.truncate(0)
            self._journal.seek(0)
            self._journal.flush()
            os.fsync(self._journal.fileno())

    # ----------------------------------------------------------------- indexes
    def _index(self, name: str, key: str, doc: Doc) -> None:
        for (table, field), index in self._indexes.items():
            if table == name:
                index.setdefault(doc.get(field), {})[key] = None

    def _unindex(self, name: str, key: str, doc: Doc) -> None:
        for (table, field), index in self._indexes.items():
            if table == name:
                index.get(doc.get(field), {}).pop(key, None)

    def _index_for(self, name: str, field: str) -> dict[Any, dict[str, None]]:
        index = self._indexes.get((name, field))
        if index is None:
            index = {}
            for key, doc in self._raw(name).items():
                index.setdefault(doc.get(field), {})[key] = None
            self._indexes[(name, field)] = index
        return index

    # ----------------------------------------------------------------- access
    @contextlib.contextmanager
    def transaction(self) -> Iterator[Transaction]:
        """Serialize with every other access; commit the staged writes on success, drop them on error."""
        with self._lock:
            if self.closed:
                raise RuntimeError("store is closed")
            tx = Transaction(self)
            yield tx
            if tx.staged:
                self._commit(tx.staged)

    def close(self) -> None:
        """Compact, close the journal and release the data dir."""
        with self._lock:
            if self.closed:
                return
            self.compact()
            self._journal.close()
            self.closed = True
            self._os_lock.release()


class Transaction:
    """Reads see this transaction's own staged writes; nothing reaches disk or memory before commit."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self.staged: dict[tuple[str, str], Doc | None] = {}

    def get(self, table: str, key: str) -> Doc | None:
        if (table, key) in self.staged:
            staged = self.staged[(table, key)]
            return None if staged is None else _copy(staged)
        doc = self._store._raw(table).get(key)
        return None if doc is None else _copy(doc)

    def put(self, table: str, key: str, doc: Mapping[str, Any]) -> Doc:
        """Stage a whole-document write; a new document gets the next creation `seq`."""
        stored = _copy(doc)
        previous = self.get(table, key)
        if previous is not None and previous.get("seq"):
            stored["seq"] = previous["seq"]
        elif not stored.get("seq"):
            self._store._doc_seq += 1
            stored["seq"] = self._store._doc_seq
        self.staged[(table, key)] = stored
        return _copy(stored)

    def delete(self, table: str, key: str) -> None:
        self.staged[(table, key)] = None

    def find(self, table: str, **equals: Any) -> list[Doc]:
        """Documents whose fields equal `equals`, in creation order (an index per first field)."""
        raw = self._store._raw(table)
        if equals:
            field, value = next(iter(equals.items()))
            keys: Any = list(self._store._index_for(table, field).get(value, {}))
        else:
            keys = list(raw)
        keys = set(keys) | {key for (name, key) in self.staged if name == table}
        found = []
        for key in keys:
            doc = self.staged[(table, key)] if (table, key) in self.staged else raw.get(key)
            if doc is not None and all(doc.get(f) == v for f, v in equals.items()):
                found.append(doc)
        found.sort(key=lambda doc: doc.get("seq", 0))
        return [_copy(doc) for doc in found]

    def count(self, table: str) -> int:
        return len(self._store._raw(table))
