"""One contract for every store the unit of work runs on: the in-memory store of the domain tests
(`storage/memory.py`), the TinyDB data dir and PostgreSQL (issue 36, point 5).

Each test runs on each store (PostgreSQL when `COURTSIDE_TEST_BACKENDS` names it), through the typed repositories
the services use (`storage.repository.unit_of_work`), so a domain test that passes on memory passes on the real
stores: commit and rollback, savepoints, creation order, `find` on one or several fields, the court queue and the
completed matches as ordered reads, an account's tables in pages, vocabularies read back as enums, the audit chain.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from domain.access import audit
from domain.access.audit_records import AuditAction, TargetType
from domain.models import Account, Match, MatchStatus, Table
from storage.backend import AnyStore
from storage.engine import Store
from storage.memory import MemoryStore
from storage.repository import unit_of_work
from tests.conftest import selected_backends

STORES = ["memory", *selected_backends()]
AT = "2026-11-21T10:00:00Z"
NOW = datetime(2026, 11, 21, 10, 0, tzinfo=UTC)


@pytest.fixture(params=STORES)
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[AnyStore]:
    opened: AnyStore
    if request.param == "memory":
        opened = MemoryStore()
    elif request.param == "tinydb":
        opened = Store(tmp_path / "data")
    else:
        from storage.postgres import PgStore

        opened = PgStore(request.getfixturevalue("pg_cluster").reused_database(), pool_size=2, listen=False)
    yield opened
    opened.close()


def account(key: str, name: str | None = None) -> Account:
    return Account(id=key, name=name or key.title(), created_on=AT)


def table(key: str, account_id: str = "acc") -> Table:
    return Table(id=key, account_id=account_id, broadcast_id="brd", label=key.upper(), created_on=AT, updated_on=AT)


def match(key: str, *, table_id: str = "t1", order: int = 0, status: MatchStatus = MatchStatus.PENDING,
          completed_on: str | None = None, **more: Any) -> Match:
    return Match(id=key, scheduled_match_id=f"sm-{key}", account_id="acc", connection_id="con", external_id=key,
                 table_id=table_id, player_list_external_id="pl", status=status, queue_order=order,
                 scheduled_on=AT, created_on=AT, updated_on=AT, completed_on=completed_on, **more)


def test_a_committed_record_reads_back_equal_with_a_creation_seq(store: AnyStore) -> None:
    with unit_of_work(store) as uow:
        stored = uow.accounts.put(account("a1", "Club A"))
        assert stored.seq > 0
    with unit_of_work(store) as uow:
        assert uow.accounts.get("a1") == Account(id="a1", name="Club A", created_on=AT, seq=stored.seq)
        assert uow.accounts.get("nobody") is None


def test_a_rewrite_keeps_the_creation_seq_and_a_new_record_gets_a_later_one(store: AnyStore) -> None:
    with unit_of_work(store) as uow:
        first = uow.accounts.put(account("a1"))
        second = uow.accounts.put(account("a2"))
    with unit_of_work(store) as uow:
        again = uow.accounts.put(account("a1", "Renamed"))
    assert second.seq > first.seq
    assert again.seq == first.seq
    with unit_of_work(store) as uow:
        assert [(a.id, a.name) for a in uow.accounts.find()] == [("a1", "Renamed"), ("a2", "A2")]


def test_a_block_that_raises_commits_nothing(store: AnyStore) -> None:
    with unit_of_work(store) as uow:
        uow.accounts.put(account("kept"))
    with pytest.raises(RuntimeError, match="boom"), unit_of_work(store) as uow:
        uow.accounts.put(account("lost"))
        uow.accounts.delete("kept")
        raise RuntimeError("boom")
    with unit_of_work(store) as uow:
        assert [a.id for a in uow.accounts.find()] == ["kept"]


def test_reads_inside_a_unit_of_work_see_its_own_writes_and_deletes(store: AnyStore) -> None:
    with unit_of_work(store) as uow:
        uow.accounts.put(account("a1"))
        uow.accounts.put(account("a2"))
    with unit_of_work(store) as uow:
        uow.accounts.delete("a1")
        uow.accounts.put(account("a3"))
        assert uow.accounts.get("a1") is None
        assert [a.id for a in uow.accounts.find()] == ["a2", "a3"]
        assert [a.id for a in uow.accounts.find(name="A3")] == ["a3"]


def test_a_record_read_is_a_copy_the_caller_may_change(store: AnyStore) -> None:
    with unit_of_work(store) as uow:
        uow.tables.put(replace(table("t1"), scoreboard_ids=["s1"]))
    with unit_of_work(store) as uow:
        read = uow.tables.get("t1")
        assert read is not None and read.scoreboard_ids == ["s1"]
        read.scoreboard_ids.append("changed")
        again = uow.tables.get("t1")
        assert again is not None and again.scoreboard_ids == ["s1"]


def test_find_on_several_fields_returns_only_the_records_matching_all_in_creation_order(store: AnyStore) -> None:
    with unit_of_work(store) as uow:
        uow.matches.put(match("m1", table_id="t1", status=MatchStatus.COMPLETED, completed_on=AT))
        uow.matches.put(match("m2", table_id="t2", status=MatchStatus.ACTIVE))
        uow.matches.put(match("m3", table_id="t1", status=MatchStatus.ACTIVE))
        uow.matches.put(match("m4", table_id="t1", status=MatchStatus.ACTIVE))
    with unit_of_work(store) as uow:
        found = uow.matches.find(table_id="t1", status=MatchStatus.ACTIVE)
        assert [m.id for m in found] == ["m3", "m4"]
        assert uow.matches.find(table_id="t3") == []
        assert uow.matches.find(table_id="t1", status=MatchStatus.PENDING) == []


def test_vocabularies_read_back_as_their_enum_members(store: AnyStore) -> None:
    with unit_of_work(store) as uow:
        uow.matches.put(match("m1", status=MatchStatus.ACTIVE))
    with unit_of_work(store) as uow:
        read = uow.matches.get("m1")
        assert read is not None
        assert read.status is MatchStatus.ACTIVE


def test_a_savepoint_that_raises_drops_only_its_own_writes(store: AnyStore) -> None:
    with unit_of_work(store) as uow:
        uow.accounts.put(account("before"))
        uow.new_event_ids.append("evt-before")
        with pytest.raises(ValueError), uow.savepoint():
            uow.accounts.put(account("inside"))
            uow.accounts.delete("before")
            uow.new_event_ids.append("evt-inside")
            raise ValueError("item refused")
        assert uow.new_event_ids == ["evt-before"]
        uow.accounts.put(account("after"))
    with unit_of_work(store) as uow:
        assert [a.id for a in uow.accounts.find()] == ["before", "after"]


def test_put_all_stores_every_record_in_one_write(store: AnyStore) -> None:
    with unit_of_work(store) as uow:
        uow.accounts.put_all([account("a1"), account("a2"), account("a3")])
    with unit_of_work(store) as uow:
        assert [a.id for a in uow.accounts.find()] == ["a1", "a2", "a3"]
        assert all(a.seq > 0 for a in uow.accounts.find())


def test_the_queue_is_pending_matches_by_queue_order_then_creation(store: AnyStore) -> None:
    with unit_of_work(store) as uow:
        uow.matches.put(match("late", order=5))
        uow.matches.put(match("first", order=1))
        uow.matches.put(match("tie", order=5))
        uow.matches.put(match("busy", order=0, status=MatchStatus.ACTIVE))
        uow.matches.put(match("other", order=0, table_id="t2"))
    with unit_of_work(store) as uow:
        assert [m.id for m in uow.matches.queue("t1")] == ["first", "late", "tie"]
        assert [m.id for m in uow.matches.queue("t1", start=1, stop=2)] == ["late"]
        last = uow.matches.queue_last("t1")
        assert last is not None and last.id == "tie"
        assert uow.matches.queue_length("t1") == 3
        assert uow.matches.queue_position("tie") == 3
        assert uow.matches.queue_position("busy") is None
        assert uow.matches.queue_last("t9") is None
        assert uow.matches.queue_length("t9") == 0


def test_the_queue_reads_see_the_unit_of_works_own_moves(store: AnyStore) -> None:
    with unit_of_work(store) as uow:
        for order, key in enumerate(("m1", "m2", "m3")):
            uow.matches.put(match(key, order=order))
    with unit_of_work(store) as uow:
        uow.matches.put(match("m3", order=-1))  # moved to the front
        uow.matches.put(match("m1", order=0, status=MatchStatus.ACTIVE))  # started: out of the queue
        uow.matches.put(match("m4", order=9))
        assert [m.id for m in uow.matches.queue("t1")] == ["m3", "m2", "m4"]
        assert uow.matches.queue_position("m2") == 2
        assert uow.matches.queue_length("t1") == 3
        last = uow.matches.queue_last("t1")
        assert last is not None and last.id == "m4"


def test_completed_matches_read_by_completion_time_with_since_and_last(store: AnyStore) -> None:
    with unit_of_work(store) as uow:
        for key, done in (("m1", "2026-11-21T10:30:00Z"), ("m2", "2026-11-21T10:10:00Z"),
                          ("m3", "2026-11-21T10:50:00Z")):
            uow.matches.put(match(key, status=MatchStatus.COMPLETED, completed_on=done))
        uow.matches.put(match("m4", status=MatchStatus.ACTIVE))
    with unit_of_work(store) as uow:
        assert [m.id for m in uow.matches.completed(table_id="t1")] == ["m2", "m1", "m3"]
        assert [m.id for m in uow.matches.completed(table_id="t1", since="2026-11-21T10:30:00Z")] == ["m1", "m3"]
        assert [m.id for m in uow.matches.completed(table_id="t1", last=2)] == ["m1", "m3"]
        assert uow.matches.completed(table_id="t2") == []
        with pytest.raises(ValueError, match="No index of completed matches"):
            uow.matches.completed(broadcast_id="brd")


def test_an_accounts_tables_read_in_pages_of_creation_order(store: AnyStore) -> None:
    with unit_of_work(store) as uow:
        made = [uow.tables.put(table(f"t{i}")) for i in range(5)]
        uow.tables.put(table("elsewhere", account_id="other"))
    with unit_of_work(store) as uow:
        first = uow.tables.account_page("acc", after_seq=None, limit=2)
        assert [t.id for t in first] == ["t0", "t1"]
        rest = uow.tables.account_page("acc", after_seq=first[-1].seq, limit=10)
        assert [t.id for t in rest] == ["t2", "t3", "t4"]
        assert [t.id for t in uow.tables.account_page("other", after_seq=None, limit=10)] == ["elsewhere"]
        assert uow.tables.account_page("acc", after_seq=made[-1].seq, limit=10) == []


def test_the_audit_chain_appends_and_reads_its_head(store: AnyStore) -> None:
    with unit_of_work(store) as uow:
        uow.accounts.put(account("acc"))
        audit.record(uow, account_id="acc", action=AuditAction.MATCH_CREATED, target=(TargetType.MATCH, "m1"),
                     before=None,
                     after={"id": "m1"}, now=NOW)
        audit.record(uow, account_id="acc", action=AuditAction.MATCH_STARTED, target=(TargetType.MATCH, "m1"),
                     before={"status": "pending"}, after={"status": "active"}, now=NOW)
    with unit_of_work(store) as uow:
        entries = uow.audit.oldest("acc", after_seq=0, limit=10)
        assert [(e.seq, e.action, e.before, e.after) for e in entries] == [
            (1, "match.created", None, {"id": "m1"}), (2, "match.started", {"status": "pending"}, {"status": "active"})]
        assert entries[1].prev_hash == entries[0].hash
        head = uow.audit.head("acc")  # what the next entry follows: its seq and hash
        assert head is not None and (head.seq, head.hash) == (2, entries[1].hash)
        assert uow.audit.head("nobody") is None


def test_the_store_version_moves_on_a_write_only(store: AnyStore) -> None:
    before = store.version
    with unit_of_work(store) as uow:
        uow.accounts.get("a1")
    assert store.version == before
    with unit_of_work(store) as uow:
        uow.accounts.put(account("a1"))
    assert store.version > before
