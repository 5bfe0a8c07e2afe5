"""The only code that knows documents on disk.

Documents live in in-memory TinyDB tables. Every committed transaction is first appended as one line to the
journal (whole-document puts and deletes), then applied in memory, so a write costs O(changed documents). The
journal is fsynced by group commit: a transaction returns only once an fsync that began after its line was
written has finished, and one fsync serves every line written before it began (the first waiter does it while
the others queue more lines), so concurrent writers share fsyncs and a write survives `kill -9` (and power
loss) once acknowledged. A read that saw a write whose fsync is still under way waits for it too, so nothing
not yet durable is ever answered. When the journal outgrows the last
snapshot it is compacted by the committing thread after it released the store lock: the tables are copied
(shallowly) under the lock, then serialized, written to a temp file, fsynced, atomically renamed over
`db.json` (a plain TinyDB JSON file) and the directory fsynced while other transactions go on; only then are
the journal lines the snapshot holds dropped (lines committed meanwhile are kept). The snapshot records the
last journal sequence number it contains, so a crash between the rename and the journal cut replays nothing twice.

On start the snapshot is loaded and the journal replayed; a torn tail (a crash mid-append) is dropped and cut
off the file, while damage in the middle of the journal stops the start with `JournalCorrupt` rather than
silently dropping acknowledged writes. Each line records `g`, the first line not yet known durable when it was
written: damage followed only by lines whose `g` is at or before the damaged line is an unsynced group cut short
by a power loss (none of it was acknowledged), so it is dropped like a torn tail.

A store has its snapshot from birth (an empty one is written before the journal is created), so a data dir whose
snapshot is gone, or whose journal does not continue the snapshot's sequence without a gap, is refused
(`StoreDamaged`) and never started empty. A failed append is cut off at once, so a later append never lands
behind half a line. An OS lock on the data dir keeps a second process out (`DataDirBusy`).

A transaction's reads and staged writes are `storage.transaction.Transaction`'s (a module of its own so neither
file outgrows 800 lines); it reaches the store's tables through the `TableSource` it declares.

`ReadOnlyStore` loads a data dir the same way for the offline commands that only read it (`courtside audit verify`
and `export`) and changes nothing on disk: no torn tail cut, no compaction, no lock file written, no mode changed.

Journal line: `{"s": <journal seq>, "g": <first seq not known durable>, "q": <last document seq>,
"ops": [[table, key, doc | null], ...]}`.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import logging
import os
import threading
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import orjson
from filelock import FileLock, Timeout
from tinydb import TinyDB
from tinydb.storages import MemoryStorage
from tinydb.table import Table

from storage.port import Ordering as Ordering
from storage.port import StorageError as StorageError
from storage.port import index_key
from storage.transaction import Doc
from storage.transaction import Transaction as Transaction  # re-exported: callers import it from here

Ops = list[list[Any]]
SNAPSHOT = "db.json"
JOURNAL = "journal.jsonl"
LOCK = "courtside.lock"
META_TABLE = "_meta"

log = logging.getLogger("courtside.storage")


class DataDirBusy(StorageError):
    """Another process already owns this data dir."""


class JournalCorrupt(StorageError):
    """The journal is damaged before its last line: refusing to guess which writes to keep."""


def _keep_private(data_dir: Path) -> None:
    """The data dir holds key hashes and webhook secrets: it is 0700 and its files 0600 (contract §8a), also a
    data dir made by an older version, whose files are tightened on start."""
    os.chmod(data_dir, 0o700)
    for path in data_dir.iterdir():
        if path.is_file() and path.stat().st_mode & 0o077:
            os.chmod(path, 0o600)


class StoreDamaged(StorageError):
    """A file of the data dir is missing or not what Courtside wrote: refusing to start on partial data."""


RESTORE_HINT = "restore the data dir from a backup (stop the server, copy the backup over it, start again)"


class StoreFailed(StorageError):
    """A journal append failed and could not be undone: the store refuses further writes."""


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


def _fsync_dir(path: Path) -> None:
    """Make a directory's entries (a created or renamed file) durable."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _write_all(fd: int, data: bytes) -> None:
    """`os.write` until every byte is written (a write may be short, e.g. at a size limit)."""
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def _valid_entry(line: bytes) -> dict[str, Any] | None:
    """The journal entry on this line, or None if the line is torn or not an entry."""
    try:
        entry = orjson.loads(line)
    except orjson.JSONDecodeError:
        return None
    if not isinstance(entry, dict) or not isinstance(entry.get("s"), int) or not isinstance(entry.get("ops"), list):
        return None
    if not isinstance(entry.get("g", 0), int):
        return None
    for op in entry["ops"]:
        if not (isinstance(op, list) and len(op) == 3 and isinstance(op[0], str) and isinstance(op[1], str)
                and (op[2] is None or isinstance(op[2], dict))):
            return None
    return entry


def _indexed(doc: Mapping[str, Any], field: str | tuple[str, ...]) -> Any:
    """The key a document has in the index of `field` (one field, or a tuple of fields)."""
    if isinstance(field, tuple):
        return tuple(index_key(doc.get(name)) for name in field)
    return index_key(doc.get(field))


class Store:
    """One data dir, owned by this process. All access is serialized by one re-entrant lock.

    Transactions do not nest: a transaction opened inside another (same thread) commits on its own.

    Four locks, one job each, always taken in this order (`_compact_lock` → `_lock` → `_journal_lock`):
    - `_os_lock` (a file lock on `courtside.lock`): one process per data dir; held from open to close.
    - `_compact_lock`: one compaction at a time (a snapshot being written); never taken while holding `_lock`.
    - `_lock` (re-entrant): the in-memory tables, indexes and sequence numbers; a transaction's reads and its
      commit (journal append + apply) run under it, so transactions are serializable.
    - `_journal_lock` (with the condition `_durable_changed`): the journal descriptor and the durable mark of
      group commit; the leader fsyncs without holding it or `_lock`.
    The store is not split in two classes: the journal, the tables and compaction share the sequence numbers
    these locks guard, and a split would move the ordering rule across objects without removing a lock.
    """

    def __init__(self, data_dir: Path, *, compact_bytes: int = 16 * 1024 * 1024) -> None:
        self.data_dir = Path(data_dir)
        created = not self.data_dir.exists()
        self.data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        if created:
            _fsync_dir(self.data_dir.resolve().parent)
        _keep_private(self.data_dir)
        # One job: keep a second process out of this data dir (released by `close`).
        self._os_lock = FileLock(str(self.data_dir / LOCK), mode=0o600, thread_local=False,
                                preserve_lock_file=True)
        try:
            self._os_lock.acquire(timeout=0)
        except Timeout as exc:
            raise DataDirBusy(
                f"The data dir {self.data_dir.resolve()} is already in use by another Courtside process "
                "(stop it first, or pass another --data-dir)."
            ) from exc
        self.closed = True
        try:
            self._open(compact_bytes)
        except BaseException:
            self._os_lock.release()
            raise
        self.closed = False

    def _open(self, compact_bytes: int) -> None:
        self._init_memory(compact_bytes)
        path = self.data_dir / JOURNAL
        if not (self.data_dir / SNAPSHOT).exists() and not path.exists():  # a new store: its snapshot first
            self._snapshot_write(orjson.dumps({META_TABLE: {"1": {"journalSeq": 0, "docSeq": 0}}}))
        self._read_files()
        existed = path.exists()
        try:
            self._journal_fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        except OSError as exc:
            raise StoreDamaged(f"Cannot open the journal {path}: {exc.strerror}; {RESTORE_HINT}.") from exc
        if not existed:
            _fsync_dir(self.data_dir)  # the journal's directory entry must be durable before any append
        self._journal_size = os.fstat(self._journal_fd).st_size
        os.fsync(self._journal_fd)  # lines a killed process left in the page cache are on disk from here on
        self._durable_seq = self._journal_seq
        self._compact_at = max(self._compact_bytes, self._snapshot_size)

    def _init_memory(self, compact_bytes: int) -> None:
        # One job: the in-memory state (tables, indexes, orderings, sequence numbers) and the commit order.
        self._lock = threading.RLock()
        self._compact_bytes = compact_bytes
        self._db = TinyDB(storage=MemoryStorage)
        self._db.table_class = _InPlaceTable
        self._db.storage.write({})
        self._tables: dict[str, Table] = {}
        # per table, per field (or sorted tuple of fields: a `find` on several): value(s) -> keys
        self._indexes: dict[str, dict[str | tuple[str, ...], dict[Any, dict[str, None]]]] = {}
        self._orderings: dict[str, dict[str, Ordering]] = {}  # built on first use, then kept up to date
        self._table_versions: dict[str, int] = {}  # writes applied per table since this process opened the store
        self._journal_seq = 0
        self._doc_seq = 0
        self._snapshot_size = 0
        # One job: one compaction at a time; taken before `_lock`, never after.
        self._compact_lock = threading.Lock()
        self.remembered: dict[str, Any] = {}  # adapters' hints from committed transactions (see Transaction)
        self._repair: Callable[[], None] | None = None  # what must succeed before the next append
        # Group commit. `_journal_lock` (taken after `_lock`, never before) guards the journal descriptor and the
        # durable mark; the leader of a group fsyncs without holding either lock.
        self._journal_lock = threading.Lock()
        self._durable_changed = threading.Condition(self._journal_lock)
        self._durable_seq = 0  # every journal line up to this one is on disk
        self._flushing = False
        self._flush_failed: OSError | None = None
        self.flushes = 0  # how many fsyncs group commit made (observability: fewer than commits under load)
        self.reads = 0  # documents transactions looked at (tests/storage/test_read_counts.py: what a request costs)

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
        """The stored documents of one table (the live dict: never hand it out)."""
        return self._all().get(name) or {}

    def _read_files(self) -> None:
        """Load the snapshot and replay the journal into memory (`StoreDamaged` when they cannot be read)."""
        try:
            self._load()
        except (OSError, ValueError, TypeError, AttributeError) as exc:
            raise StoreDamaged(f"Cannot read the data dir {self.data_dir.resolve()}: {exc}; {RESTORE_HINT}.") from exc

    def _load(self) -> None:
        self._drop_leftovers()
        snapshot = self.data_dir / SNAPSHOT
        if snapshot.exists():
            self._load_snapshot(snapshot)
        self._snapshot_missing = not snapshot.exists()
        self._replay()
        self._doc_seq = max(
            self._doc_seq,
            max((int(doc.get("seq", 0)) for docs in self._all().values() for doc in docs.values()), default=0),
        )

    def _load_snapshot(self, snapshot: Path) -> None:
        """Load `db.json`: a JSON object of tables, each an object of documents (objects), plus our meta."""
        if not snapshot.is_file():
            raise StoreDamaged(f"The snapshot {snapshot} is not a file; {RESTORE_HINT}.")
        data = snapshot.read_bytes()
        try:
            tables = orjson.loads(data)
        except orjson.JSONDecodeError as exc:
            raise StoreDamaged(f"The snapshot {snapshot} is not readable JSON; {RESTORE_HINT}.") from exc
        well_formed = isinstance(tables, dict) and all(
            isinstance(docs, dict) and all(isinstance(doc, dict) for doc in docs.values()) for docs in tables.values()
        )
        meta = tables.pop(META_TABLE, {}).get("1", {}) if well_formed else {}
        if not well_formed or not all(isinstance(meta.get(k, 0), int) for k in ("journalSeq", "docSeq")):
            raise StoreDamaged(f"The snapshot {snapshot} does not hold Courtside tables; {RESTORE_HINT}.")
        self._snapshot_size = len(data)
        self._journal_seq = int(meta.get("journalSeq", 0))
        self._doc_seq = int(meta.get("docSeq", 0))
        for name, docs in tables.items():
            self._table(name)
            self._all().setdefault(name, {}).update(docs)

    def _refuse_gap(self, path: Path, expected: int, found: int) -> None:
        snapshot = self.data_dir / SNAPSHOT
        if self._snapshot_missing:
            raise StoreDamaged(
                f"The snapshot {snapshot} is missing, and the journal {path} starts at entry {found}: starting "
                f"without it would lose entries 1-{found - 1}; {RESTORE_HINT}."
            )
        raise StoreDamaged(
            f"The journal {path} skips from entry {expected - 1} to {found} (acknowledged writes are missing); "
            f"{RESTORE_HINT}."
        )

    def _replay(self) -> None:
        """Apply the journal entries the snapshot lacks; cut off a torn tail; refuse a damaged middle."""
        path = self.data_dir / JOURNAL
        if not path.exists():
            return
        if not path.is_file():
            raise StoreDamaged(f"The journal {path} is not a file; {RESTORE_HINT}.")
        data = path.read_bytes()
        if self._snapshot_missing and not data.strip(b"\0\n "):
            raise StoreDamaged(
                f"The snapshot {self.data_dir / SNAPSHOT} is missing beside an existing journal {path}; "
                f"{RESTORE_HINT}. (Courtside never starts an empty store over an existing one.)"
            )
        previous: int | None = None
        good_until = 0
        while good_until < len(data):
            end = data.find(b"\n", good_until)
            entry = _valid_entry(data[good_until:end]) if end != -1 else None
            if entry is None:
                rest = [_valid_entry(line) for line in data[good_until:].split(b"\n")[1:]]
                later = [e for e in rest if e is not None]
                damaged = (previous if previous is not None else self._journal_seq) + 1
                if later and all(e.get("g", e["s"]) <= damaged for e in later):
                    log.warning("dropping an unsynced group of %d journal lines cut short in %s", len(later), path)
                elif later:
                    raise JournalCorrupt(
                        f"{path} is damaged at byte {good_until} but holds valid entries after it; "
                        "restore the data dir from a backup or move the damaged line out by hand."
                    )
                break  # a torn tail: that write was never acknowledged
            if previous is not None and entry["s"] != previous + 1:
                self._refuse_gap(path, previous + 1, entry["s"])
            if entry["s"] > self._journal_seq:  # else: already in the snapshot
                if entry["s"] != self._journal_seq + 1:
                    self._refuse_gap(path, self._journal_seq + 1, entry["s"])
                self._apply(entry["ops"])
                self._journal_seq = entry["s"]
                self._doc_seq = max(self._doc_seq, int(entry.get("q", 0)))
            previous = entry["s"]
            good_until = end + 1
        if good_until != len(data):
            self._drop_torn_tail(path, good_until, len(data) - good_until)

    def _drop_leftovers(self) -> None:
        """Remove the temp files of an interrupted compaction."""
        for leftover in (SNAPSHOT + ".tmp", JOURNAL + ".tmp"):
            (self.data_dir / leftover).unlink(missing_ok=True)

    def _drop_torn_tail(self, path: Path, keep: int, torn: int) -> None:
        """Cut the journal after its last whole line (`keep` bytes): appends must follow a whole line."""
        log.warning("dropping a torn journal tail of %d bytes in %s", torn, path)
        with open(path, "r+b") as journal:
            journal.truncate(keep)
            journal.flush()
            os.fsync(journal.fileno())

    # ----------------------------------------------------------------- writing
    def _apply(self, ops: Ops) -> None:
        """Put or delete whole documents; an update keeps its place, so tables stay in creation order."""
        tables = self._all()
        for name, key, doc in ops:
            self._table_versions[name] = self._table_versions.get(name, 0) + 1
            old = self._raw(name).get(key)
            if old is not None:
                self._unindex(name, key, old)
            if doc is None:
                self._table(name).remove(doc_ids=[key])
            else:  # TinyDB's insert costs a table update per document, its update merges fields: set in place
                tables.setdefault(name, {})[key] = doc
                self._index(name, key, doc)

    def _append(self, line: bytes) -> None:
        """Append one line (its fsync is group commit's); on failure cut the journal back so no half line stays
        behind. Called with `_journal_lock` held."""
        if self._repair is not None:
            try:
                self._repair()
            except OSError as exc:
                raise StoreFailed(
                    "A journal write failed earlier and could not be undone; free disk space and restart."
                ) from exc
            self._repair = None
        start = self._journal_size
        try:
            _write_all(self._journal_fd, line)
        except BaseException as exc:  # an OSError, or an interrupt mid-write
            fd = self._journal_fd

            def cut_back() -> None:
                os.ftruncate(fd, start)
                os.fsync(fd)

            try:
                cut_back()
            except OSError:
                self._repair = cut_back  # no append before the half line is gone
            if not isinstance(exc, OSError):
                raise
            raise StorageError(f"Could not write the journal: {exc}") from exc
        self._journal_size = start + len(line)

    def _commit(self, staged: dict[tuple[str, str], Doc | None]) -> None:
        """Under the store lock: write the transaction's line and apply it (its fsync comes after the lock)."""
        if self._flush_failed is not None:
            raise self._failed()
        ops = [[name, key, doc] for (name, key), doc in staged.items()]
        with self._journal_lock:
            seq = self._journal_seq + 1
            line = orjson.dumps({"s": seq, "g": self._durable_seq + 1, "q": self._doc_seq, "ops": ops}) + b"\n"
            self._append(line)
            self._journal_seq = seq
        self._apply(ops)

    def _failed(self) -> StoreFailed:
        return StoreFailed("The journal could not be made durable (fsync failed); restart the server.")

    def _wait_durable(self, seq: int) -> None:
        """Return once journal line `seq` is on disk: the first waiter fsyncs for everyone queued behind it."""
        with self._durable_changed:
            while True:
                if self._flush_failed is not None:
                    raise self._failed() from self._flush_failed
                if self._durable_seq >= seq:
                    return
                if not self._flushing:
                    break
                self._durable_changed.wait()
            self._flushing = True
            target, fd = self._journal_seq, os.dup(self._journal_fd)
        failed: OSError | None = None
        try:
            os.fsync(fd)  # outside every lock: other transactions write the next group meanwhile
        except OSError as exc:
            failed = exc
        finally:
            os.close(fd)
        with self._durable_changed:
            self._flushing = False
            self.flushes += 1
            if failed is not None:  # memory may hold writes the disk lost: refuse everything from now on
                log.error("journal fsync failed: %s", failed)
                self._flush_failed = failed
            else:
                self._durable_seq = max(self._durable_seq, target)
            self._durable_changed.notify_all()
        if failed is not None:
            raise self._failed() from failed

    def _mark_durable(self) -> None:
        """Everything written so far is on disk (a snapshot and a fsynced journal hold it)."""
        with self._durable_changed:
            self._durable_seq = self._journal_seq
            self._durable_changed.notify_all()

    def _compact_if_due(self) -> None:
        """After a commit, outside the store lock: compact when the journal has outgrown the snapshot."""
        if self._journal_size <= self._compact_at or not self._compact_lock.acquire(blocking=False):
            return  # not due, or another thread is compacting
        try:
            if self._journal_size > self._compact_at and not self.closed:
                self._compact()
        except OSError:  # every write is durable in the journal; try again after as many bytes more
            log.exception("compaction failed; the journal keeps every write")
            self._compact_at = self._journal_size + max(self._compact_bytes, self._snapshot_size)
        finally:
            self._compact_lock.release()

    def compact(self) -> None:
        """Write an atomic snapshot of every table, then drop the journal lines it holds (in that order)."""
        with self._compact_lock:
            self._compact()

    def _compact(self) -> None:
        tables, cut = self._snapshot_begin()
        data = orjson.dumps(tables)
        self._snapshot_write(data)
        self._snapshot_finish(len(data), cut)

    def _snapshot_begin(self) -> tuple[dict[str, Any], int]:
        """Under the store lock: a point-in-time copy of the tables and the journal length it covers.

        Shallow copies suffice: a stored document is never changed in place (a commit replaces it whole).
        """
        with self._lock:
            if self.closed:
                raise StorageError("The store is closed.")
            tables: dict[str, Any] = {name: dict(docs) for name, docs in self._all().items()}
            tables[META_TABLE] = {"1": {"journalSeq": self._journal_seq, "docSeq": self._doc_seq}}
            return tables, self._journal_size

    def _snapshot_write(self, data: bytes) -> None:
        """Without the store lock (transactions go on): temp file, fsync, atomic rename, fsync the dir."""
        temp = self.data_dir / (SNAPSHOT + ".tmp")
        try:
            with os.fdopen(os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "wb") as out:
                out.write(data)
                out.flush()
                os.fsync(out.fileno())
            os.replace(temp, self.data_dir / SNAPSHOT)
        except BaseException:
            temp.unlink(missing_ok=True)  # never leave the space that made it fail taken
            raise
        _fsync_dir(self.data_dir)  # the new snapshot is durable: only now may journal lines go

    def _snapshot_finish(self, snapshot_size: int, cut: int) -> None:
        """Under the store lock: drop the first `cut` journal bytes (now in the snapshot), keep the rest."""
        with self._lock:
            self._snapshot_size = snapshot_size
            self._compact_at = max(self._compact_bytes, snapshot_size)
            if self._repair is not None:
                return  # a half line may follow; the next append repairs first, a later compaction cuts
            if cut == self._journal_size:
                with self._journal_lock:
                    os.ftruncate(self._journal_fd, 0)
                    os.fsync(self._journal_fd)
                    self._journal_size = 0
                self._mark_durable()
                return
            path = self.data_dir / JOURNAL
            with open(path, "rb") as journal:  # lines committed while the snapshot was being written
                journal.seek(cut)
                tail = journal.read(self._journal_size - cut)
            temp = self.data_dir / (JOURNAL + ".tmp")
            temp.unlink(missing_ok=True)
            fd = os.open(temp, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_EXCL, 0o600)
            try:
                _write_all(fd, tail)
                os.fsync(fd)
                os.replace(temp, path)
            except BaseException:
                os.close(fd)
                temp.unlink(missing_ok=True)
                raise
            with self._journal_lock:  # a group leader fsyncs its own duplicate of the old descriptor
                os.close(self._journal_fd)
                self._journal_fd, self._journal_size = fd, len(tail)
            try:
                _fsync_dir(self.data_dir)
            except OSError:
                self._repair = functools.partial(_fsync_dir, self.data_dir)  # before any append lands in it
                raise
            self._mark_durable()

    # ----------------------------------------------------------------- indexes
    def _index(self, name: str, key: str, doc: Doc) -> None:
        for field, index in self._indexes.get(name, {}).items():
            index.setdefault(_indexed(doc, field), {})[key] = None
        for ordering in self._orderings.get(name, {}).values():
            ordering.add(key, doc)

    def _unindex(self, name: str, key: str, doc: Doc) -> None:
        for ordering in self._orderings.get(name, {}).values():
            ordering.discard(key, doc)
        for field, index in self._indexes.get(name, {}).items():
            value = _indexed(doc, field)
            bucket = index.get(value)
            if bucket is not None:
                bucket.pop(key, None)
                if not bucket:
                    del index[value]

    def _bucket(self, name: str, field: str | tuple[str, ...], value: Any) -> dict[str, None]:
        """Keys of the stored documents whose `field` may equal `value` (built once per table and field). `field`
        may be a sorted tuple of fields and `value` the tuple of their values: the index of a `find` on several
        fields at once, so that it reads only what it returns (a table's active match, not the table's history)."""
        fields = self._indexes.setdefault(name, {})
        index = fields.get(field)
        if index is None:
            index = fields[field] = {}
            for key, doc in self._raw(name).items():
                index.setdefault(_indexed(doc, field), {})[key] = None
        wanted = tuple(index_key(v) for v in value) if isinstance(field, tuple) else index_key(value)
        return index.get(wanted) or {}

    def _ordering(self, name: str, index: str, spec: Ordering) -> Ordering:
        """The named ordered index of a table, built from `spec` (one scan) on first use."""
        orderings = self._orderings.setdefault(name, {})
        ordering = orderings.get(index)
        if ordering is None:
            ordering = orderings[index] = Ordering(group=spec.group_fields, sort=spec.sort_fields, where=spec.where)
            for key, doc in self._raw(name).items():
                ordering.add(key, doc)
        return ordering

    # ----------------------------------------------------------------- access
    @contextlib.contextmanager
    def transaction(self) -> Iterator[Transaction]:
        """Serialize with every other access; commit the staged writes on success, drop them on error."""
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
            seen = self._journal_seq  # what this transaction wrote or could have read
        if self._durable_seq < seen:
            self._wait_durable(seen)
        self._compact_if_due()

    def versions(self, *tables: str) -> tuple[int, ...]:
        """How many writes each table has taken since the store opened: a cache of what they hold is valid while
        these stay the same."""
        return tuple(self._table_versions.get(name, 0) for name in tables)

    @property
    def version(self) -> int:
        """How many transactions have changed data so far (monotonic, survives restarts): cheap change detection."""
        return self._journal_seq

    def close(self) -> None:
        """Compact, close the journal and release the data dir."""
        with self._compact_lock, self._lock:
            if self.closed:
                return
            try:
                self._compact()
            except OSError:
                log.exception("compaction at close failed; the journal keeps every write")
                with contextlib.suppress(OSError):
                    os.fsync(self._journal_fd)
                    self._mark_durable()
            finally:
                self.closed = True
                os.close(self._journal_fd)
                self._os_lock.release()


def _shared_lock(path: Path, data_dir: Path) -> int | None:
    """A shared OS lock on an existing lock file, opened read-only (nothing is written), or None when there is no
    lock file; `DataDirBusy` while a server holds it (exclusively)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise StorageError(f"Cannot read the lock file {path}: {exc.strerror}.") from exc
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError as exc:
        os.close(fd)
        if isinstance(exc, BlockingIOError):
            raise DataDirBusy(f"The data dir {data_dir} is in use by a running Courtside server.") from exc
        raise StorageError(f"Cannot lock {path}: {exc.strerror}.") from exc
    return fd


class ReadOnlyStore(Store):
    """A data dir read into memory and never written, for the offline commands that only read it (`courtside
    audit verify` and `audit export`). The snapshot and the journal load as `Store` loads them (a torn tail is
    left out, not cut off), and nothing on disk changes: no file or directory is created, no mode tightened, no
    leftover removed, no compaction; a transaction that writes fails (`StorageError`).

    While open it holds a shared OS lock on an existing `courtside.lock` (opened read-only), so no server starts
    and compacts under it, and a server holding that lock makes it `DataDirBusy`. A copy without a lock file has
    nothing to lock; if a lock file appears while the files are read, they are read again under it.
    """

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = Path(data_dir)
        self.closed = True
        where = self.data_dir.resolve()
        if not (self.data_dir / SNAPSHOT).exists() and not (self.data_dir / JOURNAL).exists():
            raise StoreDamaged(f"The data dir {where} holds no Courtside store (no {SNAPSHOT}, no {JOURNAL}).")
        for _attempt in range(3):
            self._lock_fd = _shared_lock(self.data_dir / LOCK, where)
            try:
                self._init_memory(0)
                self._read_files()
            except BaseException:
                self._unlock()
                raise
            if self._lock_fd is not None or not (self.data_dir / LOCK).exists():
                break  # read under the lock, or no server could have started meanwhile
        else:
            raise DataDirBusy(f"A Courtside server is starting on the data dir {where}; try again.")
        self._durable_seq = self._journal_seq  # all of it is on disk: no read waits for an fsync
        self.closed = False

    def _unlock(self) -> None:
        if self._lock_fd is not None:
            os.close(self._lock_fd)  # closing the descriptor gives the shared lock back
            self._lock_fd = None

    def _drop_leftovers(self) -> None:
        """Left in place (they are never read)."""

    def _drop_torn_tail(self, path: Path, keep: int, torn: int) -> None:
        log.warning("leaving out a torn journal tail of %d bytes in %s (the file is not changed)", torn, path)

    def _commit(self, staged: dict[tuple[str, str], Doc | None]) -> None:
        raise StorageError(f"The data dir {self.data_dir.resolve()} is open read-only: nothing can be written.")

    def _compact_if_due(self) -> None:
        """Never: a read-only store writes no snapshot."""

    def compact(self) -> None:
        raise StorageError(f"The data dir {self.data_dir.resolve()} is open read-only: it is not compacted.")

    def close(self) -> None:
        """Give the lock back; nothing is written."""
        with self._lock:
            if not self.closed:
                self.closed = True
                self._unlock()
