"""Which store a process opens: PostgreSQL when `COURTSIDE_DATABASE_URL` is set, else the embedded TinyDB data dir.

Both offer the same transaction interface (`transaction()`, `version`, `close()`), so the repositories, the unit of
work and every service run on either unchanged.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar, Union
from urllib.parse import urlsplit, urlunsplit

from domain.settings import Settings
from storage.port import WriteConflict

if TYPE_CHECKING:
    from storage.engine import Store, Transaction
    from storage.memory import MemoryStore
    from storage.postgres import PgStore, PgTransaction

AnyStore = Union["Store", "PgStore", "MemoryStore"]
AnyTransaction = Union["Transaction", "PgTransaction"]


def open_store(settings: Settings, *, read_only: bool = False) -> AnyStore:
    """Open the configured store (raises `storage.engine.StorageError` with a message saying what to do).

    `read_only`: for a command that only reads, offline; the data dir is read into memory and nothing in it
    changes (`storage.engine.ReadOnlyStore`; `DataDirBusy` while a server owns it). PostgreSQL opens as usual:
    reading it changes nothing."""
    if settings.database_url:
        from storage.postgres import PgStore

        return PgStore(settings.database_url, pool_size=settings.threads + 4)
    from storage.engine import ReadOnlyStore, Store

    if read_only:
        return ReadOnlyStore(settings.data_dir)
    store = Store(settings.data_dir, compact_bytes=settings.journal_compact_bytes)
    _keep_audit_heads(store)
    _move_player_records(store)
    return store


def _keep_audit_heads(store: AnyStore) -> None:
    """A data dir from before the audit head was kept apart (§16) gets its heads, once, at open (PostgreSQL's
    come with its migration)."""
    from storage.audit_log import keep_missing_heads

    with store.transaction() as tx:
        keep_missing_heads(tx)


def _move_player_records(store: AnyStore) -> None:
    """A data dir from before players' reports and mail had their own tables (§21) moves them there, once, at
    open (PostgreSQL's come with its migration)."""
    from storage.player_records import move_player_records

    with store.transaction() as tx:
        move_player_records(tx)


def describe(settings: Settings) -> str:
    """Where this process keeps its data, for the startup line: the data dir, or the database URL without its
    password (the log must never carry a secret)."""
    if not settings.database_url:
        return f"data dir {settings.data_dir.resolve()}"
    parts = urlsplit(settings.database_url)
    host = parts.hostname or ""
    netloc = f"{parts.username}@{host}" if parts.username else host
    if parts.port:
        netloc += f":{parts.port}"
    return f"database {urlunsplit(parts._replace(netloc=netloc, query=''))}"


T = TypeVar("T")
ATTEMPTS = 20  # a busy PostgreSQL account (every change also moves its audit head, §16) loses more races at once


def retrying(work: Callable[[], T], *, attempts: int = ATTEMPTS) -> T:
    """Run `work`, again (after a short random pause) while it loses races; the last `WriteConflict` goes on."""
    for attempt in range(1, attempts + 1):
        try:
            return work()
        except WriteConflict:
            if attempt == attempts:
                raise
            time.sleep(random.uniform(0, 0.005 * 2 ** min(attempt, 6)))
    raise AssertionError("unreachable")
