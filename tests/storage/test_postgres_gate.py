"""PostgreSQL: a unit of work that lost a race runs again alone, so a retry cannot lose again (storage/postgres.py).

Every transaction holds the advisory lock `GATE` shared; the next transaction of a thread whose last one lost a
race takes it exclusively before it begins: it waits for the transactions under way, and others wait for it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest

from storage.port import WriteConflict
from storage.postgres import PgStore
from tests.pg_cluster import Cluster

MATCH = {"account_id": "acc_1", "connection_id": "con_1", "external_id": "m1", "table_id": "tbl_1",
         "status": "pending", "queue_order": 1}


@pytest.fixture
def store(pg_cluster: Cluster) -> Iterator[PgStore]:
    opened = PgStore(pg_cluster.new_database(), listen=False)
    yield opened
    opened.close()


def lose_a_race(store: PgStore) -> None:
    """A transaction of this thread fails as a lost race (a second match with the same externalID)."""
    with store.transaction() as tx:
        tx.put("matches", "mat_1", MATCH)
    with pytest.raises(WriteConflict), store.transaction() as tx:
        tx.put("matches", "mat_2", MATCH)


class Holder:
    """A transaction on another thread, open (it has read, so it holds the gate shared) until `release()`."""

    def __init__(self, store: PgStore) -> None:
        self.began = threading.Event()
        self._release = threading.Event()
        self.thread = threading.Thread(target=self._run, args=(store,), daemon=True)
        self.thread.start()
        assert self.began.wait(10)

    def _run(self, store: PgStore) -> None:
        with store.transaction() as tx:
            tx.get("matches", "mat_1")
            self.began.set()
            self._release.wait(10)

    def release(self) -> None:
        self._release.set()
        self.thread.join(10)


def wait_to_begin(store: PgStore) -> float:
    """Seconds this thread's next transaction waited before it began."""
    began = time.monotonic()
    with store.transaction() as tx:
        waited = time.monotonic() - began
        tx.get("matches", "mat_1")
    return waited


def test_the_retry_after_a_lost_race_waits_for_transactions_under_way_and_runs_alone(store: PgStore) -> None:
    lose_a_race(store)
    holder = Holder(store)
    threading.Timer(0.5, holder.release).start()
    assert wait_to_begin(store) >= 0.4  # the retry began only once the open transaction ended


def test_a_transaction_that_did_not_lose_runs_beside_others(store: PgStore) -> None:
    with store.transaction() as tx:
        tx.put("matches", "mat_1", MATCH)
    holder = Holder(store)
    try:
        assert wait_to_begin(store) < 5  # both hold the gate shared (the holder stays open for 10 s)
    finally:
        holder.release()


def test_after_a_retry_that_succeeded_the_thread_runs_beside_others_again(store: PgStore) -> None:
    lose_a_race(store)
    assert wait_to_begin(store) < 5  # the retry, alone, with nothing under way; it succeeds
    holder = Holder(store)
    try:
        assert wait_to_begin(store) < 5
    finally:
        holder.release()


def test_a_transaction_inside_a_retry_on_the_same_thread_does_not_wait_for_it(store: PgStore) -> None:
    lose_a_race(store)
    with store.transaction() as outer:  # alone: holds the gate exclusively
        outer.get("matches", "mat_1")
        with store.transaction() as inner:  # would wait for ever if it asked for the gate
            assert inner.get("matches", "mat_1") is not None


def test_a_lost_race_inside_another_transaction_makes_the_next_one_run_alone(store: PgStore) -> None:
    with store.transaction() as tx:
        tx.put("matches", "mat_1", MATCH)
    with pytest.raises(WriteConflict), store.transaction() as outer:
        outer.get("matches", "mat_1")
        with store.transaction() as inner:
            inner.put("matches", "mat_2", MATCH)  # the same externalID: lost
    holder = Holder(store)
    threading.Timer(0.5, holder.release).start()
    assert wait_to_begin(store) >= 0.4
