"""The PostgreSQL store: the same transaction interface as `storage.engine.Store`, so the repositories, the unit
of work and every service run on it unchanged.

One unit of work is one SERIALIZABLE transaction on a pooled connection. Serializable snapshot isolation makes
every read-check-write of the domain (one active match per table, single-use refresh tokens and codes, one
record per externalID) as safe across processes as the single lock of the embedded store; a transaction that
loses a race fails with a serialization failure (or a unique violation on the constraints that back the
invariants) and is reported as `storage.port.WriteConflict`, which the callers retry whole
(`storage.backend.retrying`). Every committing
transaction that wrote sends `NOTIFY courtside_changes`; each process listens, so `version` (the change
counter the live pages and the console poll) moves within milliseconds of a write made by any process.

Serializable snapshot isolation tracks reads per index page, and at event sizes a table's entries share a few
pages, so units of work on different matches still abort each other now and then; under a burst a unit of work
could lose every retry. So a unit of work runs again alone after it lost a race: every transaction holds the
advisory lock `GATE` shared; the thread's next one (the retry) takes it exclusively before it begins, waits for the
transactions under way to end, runs with no other and cannot lose again.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
import uuid
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import orjson
import psycopg
from psycopg import errors as pg_errors
from psycopg.rows import tuple_row
from psycopg.types.json import Jsonb, set_json_loads
from psycopg_pool import ConnectionPool

from storage import pg_schema
from storage.port import Ordering, StorageError, WriteConflict

Doc = dict[str, Any]
CHANNEL = "courtside_changes"
#: TCP keepalives on the listening connection: a silently dead network path (a venue's router, a failover that
#: sends no reset) is noticed within about 10 s instead of the kernel's two hours; then caches re-check.
LISTEN_KEEPALIVE: dict[str, Any] = {
    "keepalives": 1, "keepalives_idle": 5, "keepalives_interval": 2, "keepalives_count": 3}
# A process's identity while it runs: the `application_name` of every session it opens (`courtside/<random>`), so
# it stays alive while any of them is connected and keeps its name when a broken session is opened again.
APP_PREFIX = "courtside/"
DOC = "doc || jsonb_build_object('seq', seq)"  # the stored document with its creation `seq`

log = logging.getLogger("courtside.storage")


class SchemaOutdated(StorageError):
    """The database's schema is older than this Courtside (or missing): `courtside db upgrade` fixes it."""


RETRYABLE = (pg_errors.SerializationFailure, pg_errors.DeadlockDetected, pg_errors.UniqueViolation)
GATE = 0x636F757276  # advisory lock key: held shared by every unit of work, exclusively by a retry after a lost race


def _dumps(value: Any) -> str:
    return orjson.dumps(value).decode()


RATE_ROW_LIFE = 3600  # seconds a rate-limit row outlives its window's start (windows are at most 10 minutes)


class PgStore:
    """A PostgreSQL database shared by any number of Courtside processes."""

    def __init__(self, url: str, *, pool_size: int = 10, listen: bool = True) -> None:
        self.url = url
        try:
            with psycopg.connect(url, autocommit=True) as conn:
                version = pg_schema.current_version(conn)
        except psycopg.OperationalError as exc:
            raise StorageError(f"Cannot connect to the database at COURTSIDE_DATABASE_URL: {exc}".strip()) from exc
        if version < pg_schema.LATEST:
            raise SchemaOutdated(
                f"The database schema is at version {version}, this Courtside needs version {pg_schema.LATEST}: "
                "run `courtside db upgrade` first."
            )
        if version > pg_schema.LATEST:
            raise SchemaOutdated(
                f"The database schema is at version {version}, newer than this Courtside knows "
                f"({pg_schema.LATEST}): run a newer Courtside."
            )
        self.claim_owner: str | None = f"{APP_PREFIX}{uuid.uuid4().hex}" if listen else None
        self._app_name = self.claim_owner or APP_PREFIX.rstrip("/")
        self._pool = ConnectionPool(url, min_size=1, max_size=max(2, pool_size), open=True, configure=_configure,
                                    kwargs={"autocommit": False, "application_name": self._app_name})
        self._version = 0
        self._table_versions: dict[str, int] = {}
        self._version_lock = threading.Lock()
        self.remembered: dict[str, Any] = {}  # adapters' hints from committed transactions (see PgTransaction)
        self.reads = 0  # rows of documents this process's transactions read (what a request costs, in tests)
        self._thread = threading.local()  # per thread: `depth` of open transactions, whether the last one `lost`
        self.closed = False
        self._listener: threading.Thread | None = None
        self._listen_conn: psycopg.Connection | None = None
        if listen:
            self._listen_conn = psycopg.connect(url, autocommit=True, application_name=self._app_name,
                                                **LISTEN_KEEPALIVE)
            self._listen_conn.execute(f"LISTEN {CHANNEL}")
            self._listener = threading.Thread(target=self._listen, name="courtside-listen", daemon=True)
            self._listener.start()

    # ----------------------------------------------------------------- change notifications
    def _bump(self, tables: Iterable[str] = pg_schema.TABLES) -> None:
        with self._version_lock:
            self._version += 1
            for table in tables:
                self._table_versions[table] = self._table_versions.get(table, 0) + 1

    def _listen(self) -> None:
        """Count every change any process commits (one NOTIFY per writing transaction)."""
        conn = self._listen_conn
        assert conn is not None
        while not self.closed:
            try:
                for notify in conn.notifies(timeout=0.25):
                    self._bump(notify.payload.split(",") if notify.payload else pg_schema.TABLES)
            except psycopg.Error:
                if self.closed:
                    return
                log.warning("lost the change listener's connection; reconnecting")
                self._bump()  # a change may have been missed: let every cache re-check
                time.sleep(0.5)
                with contextlib.suppress(psycopg.Error):
                    conn = psycopg.connect(self.url, autocommit=True, application_name=self._app_name,
                                           **LISTEN_KEEPALIVE)
                    self._listen_conn = conn
                    conn.execute(f"LISTEN {CHANNEL}")
                    self._bump()  # and every change committed while nobody listened: re-check once more
        with contextlib.suppress(psycopg.Error):
            conn.close()

    def live_owners(self) -> set[str]:
        """The claim owners of every Courtside process connected now (by any of its sessions)."""
        with self._pool.connection() as conn:
            rows = conn.execute("SELECT DISTINCT application_name FROM pg_stat_activity "
                                "WHERE starts_with(application_name, %s)", (APP_PREFIX,)).fetchall()
            conn.rollback()
        return {str(row[0]) for row in rows}

    def versions(self, *tables: str) -> tuple[int, ...]:
        """Per table, a counter that moves whenever any process commits a write to it (keys read caches)."""
        return tuple(self._table_versions.get(name, 0) for name in tables)

    @property
    def version(self) -> int:
        """A counter that moves whenever any process commits a change (cheap change detection for caches)."""
        return self._version

    # ----------------------------------------------------------------- access
    @contextlib.contextmanager
    def transaction(self) -> Iterator[PgTransaction]:
        """One SERIALIZABLE transaction: committed on success, rolled back on error; a lost race is `WriteConflict`.

        The first transaction of a thread after it lost a race runs alone (see the module's docstring); one opened
        inside another on the same thread takes no lock (the outer one holds it)."""
        if self.closed:
            raise StorageError("The store is closed.")
        here = self._thread
        depth: int = getattr(here, "depth", 0)
        alone = depth == 0 and getattr(here, "lost", False)
        with self._pool.connection() as conn:
            if alone:
                _session_lock(conn, "pg_advisory_lock")
            tx = PgTransaction(conn, gate=depth == 0 and not alone, remembered=self.remembered)
            here.depth = depth + 1
            try:
                try:
                    yield tx
                    if tx.written:
                        conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, ",".join(sorted(tx.written))))
                    conn.commit()
                except BaseException:
                    with contextlib.suppress(psycopg.Error):
                        conn.rollback()
                    raise
                finally:
                    tx.finished = True
                    self.reads += tx.reads
            except RETRYABLE as exc:
                here.lost = True
                self.remembered.clear()  # a hint may be what lost the race: the retry reads the truth
                raise WriteConflict(f"The transaction lost a race with another one: {type(exc).__name__}") from exc
            except WriteConflict:  # a transaction opened inside this one lost: so did this one
                here.lost = True
                raise
            except BaseException:
                here.lost = False
                raise
            else:
                here.lost = False
            finally:
                here.depth = depth
                if alone:
                    _session_lock(conn, "pg_advisory_unlock")
        if tx.written:
            self._bump(tx.written)  # this process's own caches at once; the NOTIFY moves them again, harmlessly
        self.remembered.update(tx.remember)  # committed: what adapters learned may be assumed next time

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True  # the listener sees it within its 0.25 s wait and closes its connection
        self._pool.close()

    def follow_imported_seq(self) -> None:
        """After an import that kept its documents' `seq`: new documents are numbered after every one of them."""
        tables = " UNION ALL ".join(f"SELECT max(seq) AS seq FROM {table}" for table in pg_schema.TABLES)
        with self._pool.connection() as conn, conn.transaction():
            conn.execute(f"SELECT setval('doc_seq', greatest(coalesce(max(seq), 0), 1)) FROM ({tables}) s".encode())

    # ----------------------------------------------------------------- shared counters
    def hit_window(self, key: str, window: int, limit: int, count: bool = True) -> int:
        """Count one request in a rate-limit window (starting at epoch second `window`) shared by every process;
        returns the count after it (`count=False`: only read it).

        A request over the limit is not counted (the count stops at `limit + 1`, telling the caller no). A new
        window row prunes every row older than an hour, of any key (contract §8a: the table does not grow with
        the distinct random keys of anonymous callers)."""
        with self._pool.connection() as conn:
            conn.autocommit = True
            try:
                if not count:
                    found = conn.execute("SELECT count FROM rate_windows WHERE key = %s AND window_start = %s",
                                         (key, window)).fetchone()
                    return int(found[0]) if found else 0
                row = conn.execute(
                    "INSERT INTO rate_windows AS w (key, window_start, count) VALUES (%s, %s, 1) "
                    "ON CONFLICT (key, window_start) DO UPDATE SET count = least(w.count + 1, %s) "
                    "RETURNING count", (key, window, limit + 1),
                ).fetchone()
                if row and int(row[0]) == 1:  # a new window: drop every finished one
                    conn.execute("DELETE FROM rate_windows WHERE window_start < %s", (window - RATE_ROW_LIFE,))
            finally:
                conn.autocommit = False
        return int(row[0]) if row else limit + 1


def _session_lock(conn: psycopg.Connection, function: str) -> None:
    """Take or give back the exclusive `GATE` outside any transaction (so a retry's snapshot is taken after it); a
    connection that fails to give it back is closed, which gives it back (the pool then drops it)."""
    try:
        conn.autocommit = True
        conn.execute(f"SELECT {function}(%s)".encode(), (GATE,))
        conn.autocommit = False
    except psycopg.Error:
        conn.close()
        if function == "pg_advisory_lock":
            raise


def _configure(conn: psycopg.Connection) -> None:
    conn.isolation_level = psycopg.IsolationLevel.SERIALIZABLE
    conn.autocommit = False
    # jsonb keeps a number as `numeric` and gives 1e308 back as a 309-digit integer, which json.loads reads as an
    # int no JSON writer of the app can write (a 500 on every read of it); orjson reads one beyond 64 bits as the
    # float it was (issue 47).
    set_json_loads(orjson.loads, conn)


class PgTransaction:
    """Reads see this transaction's own writes (they are in the database transaction)."""

    def __init__(self, conn: psycopg.Connection, *, gate: bool = False,
                 remembered: Mapping[str, Any] | None = None) -> None:
        self._conn = conn
        self._gate = gate  # take `GATE` shared with the first statement (before its snapshot matters)
        self.written: set[str] = set()
        self.finished = False
        self._savepoints = 0
        # What an adapter learned in an earlier committed transaction of this process (`remembered`, read-only
        # here) and what this one will teach the next ones once it commits (`remember`): a hint an adapter checks
        # in the same statement that relies on it, never the truth (another process may have moved on).
        self.remembered: Mapping[str, Any] = remembered or {}
        self.remember: dict[str, Any] = {}
        self.reads = 0  # rows of documents read (the store adds them up in `PgStore.reads`)

    def _execute(self, sql: str, params: Any = None) -> psycopg.Cursor[Any]:
        if self.finished:
            raise StorageError("This transaction is over; open a new one.")
        cursor = self._conn.cursor(row_factory=tuple_row)
        if self._gate:
            self._gate = False
            cursor.execute(b"SELECT pg_advisory_xact_lock_shared(%s)", (GATE,))
        return cursor.execute(sql.encode(), params)

    def get(self, table: str, key: str) -> Doc | None:
        row = self._execute(f"SELECT {DOC} FROM {_t(table)} WHERE id = %s", (key,)).fetchone()
        self.reads += 1
        return None if row is None else dict(row[0])

    def put(self, table: str, key: str, doc: Mapping[str, Any]) -> Doc:
        """Write a whole document; a new one gets the next creation `seq`, an old one keeps its own."""
        stored = orjson.loads(orjson.dumps(doc))
        given = stored.pop("seq", None) or None
        params = {"id": key, "seq": given, "doc": Jsonb(stored)}
        row = self._execute(
            f"INSERT INTO {_t(table)} AS t (id, seq, doc) "
            "VALUES (%(id)s, coalesce(%(seq)s, nextval('doc_seq')), %(doc)s) "
            f"ON CONFLICT (id) DO UPDATE SET doc = EXCLUDED.doc RETURNING {DOC}",
            params,
        ).fetchone()
        self.written.add(table)
        assert row is not None
        return dict(row[0])

    def put_all(self, table: str, docs: Mapping[str, Mapping[str, Any]]) -> None:
        """Write many whole documents (by key) as `put` does, in one statement (new ones get their creation `seq`
        in the order given)."""
        if not docs:
            return
        stored = orjson.loads(orjson.dumps(list(docs.values())))
        seqs = [doc.pop("seq", None) or None for doc in stored]
        self._execute(
            f"INSERT INTO {_t(table)} AS t (id, seq, doc) "
            "SELECT id, coalesce(seq, nextval('doc_seq')), doc "
            "FROM unnest(%s::text[], %s::bigint[], %s::jsonb[]) WITH ORDINALITY AS given(id, seq, doc, n) "
            "ORDER BY n ON CONFLICT (id) DO UPDATE SET doc = EXCLUDED.doc",
            (list(docs), seqs, [Jsonb(doc) for doc in stored]),
        )
        self.written.add(table)

    def insert(self, table: str, key: str, doc: Mapping[str, Any], *, unless: str | None = None,
               params: tuple[Any, ...] = ()) -> bool:
        """Add a new document (never replacing one): a key or unique index another transaction took is a unique
        violation, so the unit of work loses the race and runs again (`WriteConflict`). With `unless` (an SQL condition,
        with `params`), nothing is added while it holds; returns whether the document was added."""
        stored = orjson.loads(orjson.dumps(doc))
        stored.pop("seq", None)
        if unless is None:
            self._execute(f"INSERT INTO {_t(table)} (id, seq, doc) VALUES (%s, nextval('doc_seq'), %s)",
                          (key, Jsonb(stored)))
        else:
            cursor = self._execute(
                f"INSERT INTO {_t(table)} (id, seq, doc) SELECT %s, nextval('doc_seq'), %s "
                f"WHERE NOT ({unless})", (key, Jsonb(stored), *params))
            if cursor.rowcount != 1:
                return False
        self.written.add(table)
        return True

    def insert_all(self, table: str, docs: Mapping[str, Mapping[str, Any]]) -> None:
        """Add many new documents (by key, never replacing one) in one statement, as `insert` without `unless`
        adds one: a key or unique index another transaction took is a unique violation (`WriteConflict`)."""
        if not docs:
            return
        stored = orjson.loads(orjson.dumps(list(docs.values())))
        for doc in stored:
            doc.pop("seq", None)
        self._execute(
            f"INSERT INTO {_t(table)} (id, seq, doc) SELECT id, nextval('doc_seq'), doc "
            "FROM unnest(%s::text[], %s::jsonb[]) WITH ORDINALITY AS given(id, doc, n) ORDER BY n",
            (list(docs), [Jsonb(doc) for doc in stored]),
        )
        self.written.add(table)

    def rows(self, sql: str, params: Any = None) -> list[tuple[Any, ...]]:
        """The rows of a query of this transaction (for the adapters with their own SQL, `storage.audit_log`)."""
        rows = self._execute(sql, params).fetchall()
        self.reads += len(rows)
        return rows

    def delete(self, table: str, key: str) -> None:
        self._execute(f"DELETE FROM {_t(table)} WHERE id = %s", (key,))
        self.written.add(table)

    def find(self, table: str, **equals: Any) -> list[Doc]:
        """Documents whose fields equal `equals`, in creation order (real columns where the table has them)."""
        where, params = _where(table, equals)
        rows = self._execute(f"SELECT {DOC} FROM {_t(table)}{where} ORDER BY seq", params).fetchall()
        self.reads += len(rows)
        return [dict(row[0]) for row in rows]

    def count(self, table: str) -> int:
        row = self._execute(f"SELECT count(*) FROM {_t(table)}").fetchone()
        return int(row[0]) if row else 0

    @contextlib.contextmanager
    def savepoint(self) -> Iterator[None]:
        """If the block raises, its writes are rolled back (earlier ones stay) and the exception goes on."""
        self._savepoints += 1
        name = f"sp{self._savepoints}"
        self._execute(f"SAVEPOINT {name}")
        try:
            yield
        except BaseException:
            with contextlib.suppress(psycopg.Error):
                self._execute(f"ROLLBACK TO SAVEPOINT {name}")
            raise
        self._execute(f"RELEASE SAVEPOINT {name}")

    # ----------------------------------------------------------------- ordered indexes (table queues)
    def _group_where(self, table: str, spec: Ordering, group: tuple[Any, ...]) -> tuple[str, list[Any]]:
        return _where(table, {**spec.where, **dict(zip(spec.group_fields, group, strict=True))})

    def _order(self, table: str, spec: Ordering, direction: str = "") -> str:
        return ", ".join([*(f"{_expr(table, field)}{direction}" for field in spec.sort_fields),
                          f"id{direction}"])

    def rank(self, table: str, index: str, spec: Ordering, key: str) -> int | None:
        """0-based place of a document in its group of the ordered index; None when it is not in it. A count over
        the partial index `matches_queue` of the entries before it (see docs/decisions.md)."""
        doc = self.get(table, key)
        group = spec.group_of(doc)
        if doc is None or group is None:
            return None
        where, params = self._group_where(table, spec, tuple(doc.get(field) for field in spec.group_fields))
        sort = [_expr(table, field) for field in spec.sort_fields]
        values = [_dumps(doc.get(field)) for field in spec.sort_fields]
        row = self._execute(
            f"SELECT count(*) FROM {_t(table)}{where} AND ({', '.join(sort)}, id) < "
            f"({', '.join(_cast(table, field) for field in spec.sort_fields)}, %s)",
            [*params, *values, key],
        ).fetchone()
        return int(row[0]) if row else 0

    def ordered(
        self, table: str, index: str, spec: Ordering, group: tuple[Any, ...], *, start: int = 0,
        stop: int | None = None, last: bool = False, low: tuple[Any, ...] | None = None,
    ) -> list[Doc]:
        """Documents of one group of the ordered index, in order: `[start:stop]`, or only the last one (`last`);
        with `low`, only those whose first sort fields are at or after it (a range over the index)."""
        where, params = self._group_where(table, spec, group)
        if low is not None:
            fields = spec.sort_fields[:len(low)]
            where += (f" AND ({', '.join(_expr(table, field) for field in fields)}) >= "
                      f"({', '.join(_cast(table, field) for field in fields)})")
            params = [*params, *(_dumps(value) for value in low)]
        if last:
            page = f" ORDER BY {self._order(table, spec, ' DESC')} LIMIT 1"
        else:
            start = max(start, 0)
            limit = "" if stop is None else f" LIMIT {max(int(stop) - start, 0)}"
            page = f" ORDER BY {self._order(table, spec)}{limit} OFFSET {int(start)}"
        rows = self._execute(f"SELECT {DOC} FROM {_t(table)}{where}{page}", params).fetchall()
        self.reads += len(rows)
        return [dict(row[0]) for row in rows]

    def ordered_count(self, table: str, index: str, spec: Ordering, group: tuple[Any, ...]) -> int:
        where, params = self._group_where(table, spec, group)
        row = self._execute(f"SELECT count(*) FROM {_t(table)}{where}", params).fetchone()
        return int(row[0]) if row else 0


def _t(table: str) -> str:
    if table not in pg_schema.COLUMNS:
        raise StorageError(f"Unknown table {table!r}.")
    return table


def _expr(table: str, field: str) -> str:
    """The SQL for one document field: its real column when the table has one, else its jsonb value."""
    if field == "seq":
        return "seq"
    if field in pg_schema.COLUMNS[table]:
        return field
    if not field.isidentifier():
        raise StorageError(f"Bad field name {field!r}.")
    return f"(doc->'{field}')"


def _cast(table: str, field: str) -> str:
    """A parameter placeholder comparable with `_expr` given the field's value as JSON text."""
    if field == "seq":
        return "(%s::jsonb)::bigint"
    if field in pg_schema.COLUMNS[table]:
        return "(%s::jsonb #>> '{}')"
    return "%s::jsonb"


def _where(table: str, equals: Mapping[str, Any]) -> tuple[str, list[Any]]:
    clauses: list[str] = []
    params: list[Any] = []
    for field, value in equals.items():
        expr = _expr(table, field)
        if field in pg_schema.COLUMNS[table] and (value is None or isinstance(value, str)):
            if value is None:
                clauses.append(f"{expr} IS NULL")
            else:
                clauses.append(f"{expr} = %s")
                params.append(str(value))  # a StrEnum member as its value
        elif field in pg_schema.COLUMNS[table]:
            clauses.append(f"(doc->'{field}') = %s::jsonb")
            params.append(_dumps(value))
        elif value is None:
            clauses.append(f"coalesce({expr}, 'null'::jsonb) = 'null'::jsonb")
        else:
            clauses.append(f"{expr} = %s::jsonb")
            params.append(_dumps(value))
    return (" WHERE " + " AND ".join(clauses)) if clauses else " WHERE true", params
