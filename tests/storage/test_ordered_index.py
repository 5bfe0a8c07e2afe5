"""The store's ordered index (court queues) against a reference model: sorting every document by hand.

Random transactions put and delete documents (changing their group, sort fields and whether they are indexed);
inside a transaction, with its writes still staged, and after it commits (and after a restart, which rebuilds
the index from disk), every rank, slice, last element and count must equal what a plain sort says.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from storage.engine import Ordering, Store, Transaction

SPEC = Ordering(group=("table_id",), sort=("queue_order", "seq"), where={"status": "pending"})
GROUPS = ("t1", "t2")
KEYS = [f"m{n}" for n in range(8)]

documents = st.fixed_dictionaries({
    "table_id": st.sampled_from(GROUPS),
    "queue_order": st.integers(min_value=0, max_value=4),
    "status": st.sampled_from(("pending", "pending", "active")),
})
writes = st.lists(st.tuples(st.sampled_from(KEYS), st.none() | documents), min_size=1, max_size=6)


def reference(tx: Transaction, group: str) -> list[dict[str, Any]]:
    """The group as a plain sort of the documents this transaction sees says it must be."""
    found = [doc for doc in tx.find("matches") if doc["table_id"] == group and doc["status"] == "pending"]
    return sorted(found, key=lambda doc: (doc["queue_order"], doc["seq"], doc["id"]))


def check(tx: Transaction) -> None:
    for group in GROUPS:
        expected = reference(tx, group)
        ids = [doc["id"] for doc in expected]
        assert [d["id"] for d in tx.ordered("matches", "queue", SPEC, (group,))] == ids
        assert tx.ordered_count("matches", "queue", SPEC, (group,)) == len(ids)
        last = tx.ordered("matches", "queue", SPEC, (group,), last=True)
        assert [d["id"] for d in last] == ids[-1:]
        for start, stop in ((0, 2), (1, 3), (2, None), (0, 0)):
            page = tx.ordered("matches", "queue", SPEC, (group,), start=start, stop=stop)
            assert [d["id"] for d in page] == ids[start:stop]
        for rank, key in enumerate(ids):
            assert tx.rank("matches", "queue", SPEC, key) == rank
        # a find on several fields (their own index, issue 42) finds what a scan does, in creation order
        by_seq = sorted(expected, key=lambda doc: doc["seq"])
        assert tx.find("matches", table_id=group, status="pending") == by_seq
        # range reads: from a sort value on (issue 42), alone, sliced, or the last one
        for low in (0, 2, 3, 5):
            above = [doc["id"] for doc in expected if doc["queue_order"] >= low]
            ranged = tx.ordered("matches", "queue", SPEC, (group,), low=(low,))
            assert [d["id"] for d in ranged] == above
            page = tx.ordered("matches", "queue", SPEC, (group,), low=(low,), start=1, stop=3)
            assert [d["id"] for d in page] == above[1:3]
            last = tx.ordered("matches", "queue", SPEC, (group,), low=(low,), last=True)
            assert [d["id"] for d in last] == above[-1:]
    indexed = {doc["id"] for group in GROUPS for doc in reference(tx, group)}
    for key in KEYS:
        if key not in indexed:
            assert tx.rank("matches", "queue", SPEC, key) is None


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(writes, min_size=1, max_size=8), st.lists(st.booleans(), min_size=8, max_size=8))
def test_ordered_index_matches_a_plain_sort_while_staged_committed_and_reloaded(
    tmp_path_factory: pytest.TempPathFactory, transactions: list[list[tuple[str, dict[str, Any] | None]]],
    fail: list[bool],
) -> None:
    with tempfile.TemporaryDirectory(dir=tmp_path_factory.getbasetemp()) as directory:  # where tmp_path is
        store = Store(Path(directory) / "data")
        try:
            for number, batch in enumerate(transactions):
                try:
                    with store.transaction() as tx:
                        check(tx)  # builds the index on first use, then keeps it
                        for key, doc in batch:
                            if doc is None:
                                tx.delete("matches", key)
                            else:
                                tx.put("matches", key, doc | {"id": key})
                            check(tx)  # staged writes merged into every answer
                        if fail[number]:
                            raise RuntimeError("roll back")
                except RuntimeError:
                    pass
                with store.transaction() as tx:
                    check(tx)  # committed (or rolled back: the index never saw the staged writes)
            store.close()
            store = Store(Path(directory) / "data")
            with store.transaction() as tx:
                check(tx)  # rebuilt from the snapshot and journal
        finally:
            store.close()
