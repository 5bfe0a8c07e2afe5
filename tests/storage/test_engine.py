"""The store keeps every committed write, nothing else, through reopen, compaction and crashes.

A crash is simulated two ways: copying the data dir's files while the store is open (exactly what the disk
holds at that moment, since every write goes straight to the OS), and real child processes that SIGKILL
themselves or hit a real file size limit.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from tinydb import TinyDB
from tinydb.table import Table

from storage.engine import JOURNAL, SNAPSHOT, DataDirBusy, JournalCorrupt, StorageError, Store

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "data"


@pytest.fixture
def store(data_dir: Path) -> Iterator[Store]:
    opened = Store(data_dir)
    yield opened
    opened.close()


def crash_copy(source: Path, dest: Path) -> Path:
    """The files a crash at this moment would leave behind (the OS lock dies with the process)."""
    dest.mkdir(parents=True)
    for path in source.iterdir():
        if path.name != "courtside.lock":
            shutil.copy2(path, dest / path.name)
    return dest


def birth_snapshot(data_dir: Path) -> bool:
    """The snapshot is still the empty one every store is born with (nothing compacted into it yet)."""
    return bool(orjson.loads((data_dir / SNAPSHOT).read_bytes()) == {"_meta": {"1": {"journalSeq": 0, "docSeq": 0}}})


def put(store: Store, table: str, key: str, **doc: Any) -> dict[str, Any]:
    with store.transaction() as tx:
        return tx.put(table, key, doc)


def everything(store: Store, *tables: str) -> dict[str, list[dict[str, Any]]]:
    with store.transaction() as tx:
        return {table: tx.find(table) for table in tables}


def run_child(script: str, data_dir: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", script, str(data_dir)], cwd=ROOT, capture_output=True, text=True, timeout=60
    )


# ---------------------------------------------------------------- transactions
def test_committed_transaction_is_visible_to_the_next(store: Store) -> None:
    with store.transaction() as tx:
        tx.put("matches", "m1", {"id": "m1", "status": "queued"})
        tx.put("matches", "m2", {"id": "m2", "status": "queued"})
    with store.transaction() as tx:
        assert tx.get("matches", "m1") == {"id": "m1", "status": "queued", "seq": 1}
        assert tx.count("matches") == 2


def test_raising_transaction_changes_nothing_in_memory_or_on_disk(store: Store, data_dir: Path) -> None:
    put(store, "matches", "m1", id="m1", status="queued")
    journal_size = (data_dir / JOURNAL).stat().st_size
    with pytest.raises(ValueError), store.transaction() as tx:
        tx.put("matches", "m1", {"id": "m1", "status": "live"})
        tx.put("matches", "m2", {"id": "m2", "status": "queued"})
        tx.delete("matches", "m1")
        raise ValueError("a rule failed half-way")
    assert (data_dir / JOURNAL).stat().st_size == journal_size
    with store.transaction() as tx:
        assert tx.get("matches", "m1") == {"id": "m1", "status": "queued", "seq": 1}
        assert tx.get("matches", "m2") is None
        assert tx.find("matches", status="live") == []
        assert tx.count("matches") == 1


def test_reads_inside_a_transaction_see_its_own_staged_writes(store: Store) -> None:
    put(store, "teams", "t1", id="t1", club="a")
    put(store, "teams", "t2", id="t2", club="a")
    with store.transaction() as tx:
        tx.put("teams", "t3", {"id": "t3", "club": "a"})
        tx.delete("teams", "t1")
        tx.put("teams", "t2", {"id": "t2", "club": "b"})
        assert tx.get("teams", "t1") is None
        assert [doc["id"] for doc in tx.find("teams", club="a")] == ["t3"]
        assert [doc["id"] for doc in tx.find("teams")] == ["t2", "t3"]
        assert tx.count("teams") == 2


def test_a_finished_transaction_cannot_be_used_again(store: Store) -> None:
    with store.transaction() as tx:
        tx.put("teams", "t1", {"id": "t1"})
    with pytest.raises(StorageError):
        tx.put("teams", "t2", {"id": "t2"})
    with pytest.raises(StorageError):
        tx.find("teams")


def test_a_closed_store_refuses_transactions(data_dir: Path) -> None:
    opened = Store(data_dir)
    opened.close()
    opened.close()  # closing twice is harmless
    with pytest.raises(StorageError), opened.transaction():
        pass


def test_documents_are_deep_copies_both_ways(store: Store) -> None:
    given: dict[str, Any] = {"id": "m1", "games": [{"a": 1}], "meta": {"court": "1"}}
    with store.transaction() as tx:
        returned = tx.put("matches", "m1", given)
    given["games"][0]["a"] = 99
    given["meta"]["court"] = "changed"
    returned["games"].append({"a": 2})
    with store.transaction() as tx:
        got = tx.get("matches", "m1")
        assert got == {"id": "m1", "games": [{"a": 1}], "meta": {"court": "1"}, "seq": 1}
        got["games"][0]["a"] = 7
        tx.find("matches")[0]["meta"]["court"] = "changed"
    with store.transaction() as tx:
        assert tx.get("matches", "m1") == {"id": "m1", "games": [{"a": 1}], "meta": {"court": "1"}, "seq": 1}


def test_a_document_that_is_not_json_fails_at_put_and_changes_nothing(store: Store) -> None:
    with pytest.raises(TypeError), store.transaction() as tx:
        tx.put("teams", "t1", {"id": "t1"})
        tx.put("teams", "t2", {"id": "t2", "bad": object()})
    assert everything(store, "teams") == {"teams": []}


def test_concurrent_transactions_from_threads_are_serialized(store: Store) -> None:
    def work(worker: int) -> None:
        for n in range(50):
            with store.transaction() as tx:
                counter = tx.get("counters", "c") or {"id": "c", "value": 0}
                counter["value"] += 1
                tx.put("counters", "c", counter)
                tx.put("items", f"{worker}-{n}", {"worker": worker})

    threads = [threading.Thread(target=work, args=(worker,)) for worker in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    with store.transaction() as tx:
        assert tx.get("counters", "c")["value"] == 200  # type: ignore[index]
        assert tx.count("items") == 200


# ---------------------------------------------------------------- creation order
def test_seq_follows_creation_order_and_survives_updates(store: Store) -> None:
    assert put(store, "teams", "b", name="B")["seq"] == 1
    assert put(store, "teams", "a", name="A")["seq"] == 2
    assert put(store, "teams", "b", name="B2", seq=77)["seq"] == 1
    with store.transaction() as tx:
        assert [(doc["name"], doc["seq"]) for doc in tx.find("teams")] == [("B2", 1), ("A", 2)]


def test_seq_is_never_reused_after_the_newest_document_is_deleted_and_the_store_reopened(data_dir: Path) -> None:
    opened = Store(data_dir)
    put(opened, "teams", "a", name="A")
    put(opened, "teams", "b", name="B")
    with opened.transaction() as tx:
        tx.delete("teams", "b")
    crashed = crash_copy(data_dir, data_dir.parent / "crashed")
    opened.close()
    for directory in (data_dir, crashed):  # from the snapshot and from the journal
        reopened = Store(directory)
        assert put(reopened, "teams", "c", name="C")["seq"] == 3
        reopened.close()


# ---------------------------------------------------------------- indexes
def test_find_follows_updates_that_change_the_indexed_field_and_deletes(store: Store) -> None:
    for n in range(6):
        put(store, "matches", f"m{n}", table_id="t1" if n % 2 else "t2", status="queued")
    with store.transaction() as tx:
        assert [doc["seq"] for doc in tx.find("matches", table_id="t1")] == [2, 4, 6]
    put(store, "matches", "m1", table_id="t2", status="live")
    with store.transaction() as tx:
        tx.delete("matches", "m3")
    put(store, "matches", "m0", table_id="t1", status="queued")
    with store.transaction() as tx:
        assert [doc["seq"] for doc in tx.find("matches", table_id="t1")] == [1, 6]
        assert [doc["seq"] for doc in tx.find("matches", table_id="t2")] == [2, 3, 5]
        assert [doc["seq"] for doc in tx.find("matches", table_id="t2", status="live")] == [2]
        assert [doc["seq"] for doc in tx.find("matches", status="queued", table_id="t2")] == [3, 5]
        assert tx.find("matches", table_id="nope") == []
        assert [doc["seq"] for doc in tx.find("matches", missing=None)] == [1, 2, 3, 5, 6]


def test_find_matches_list_and_object_values_and_keeps_indexing_them(store: Store) -> None:
    put(store, "apps", "a1", scopes=["matches.read"], owner={"id": 1})
    with store.transaction() as tx:
        assert tx.find("apps", scopes=["matches.read"])[0]["seq"] == 1
        assert tx.find("apps", owner={"id": 1})[0]["seq"] == 1
    put(store, "apps", "a2", scopes=["matches.write"], owner="x")
    put(store, "apps", "a1", scopes="all", owner={"id": 2})
    with store.transaction() as tx:
        assert tx.find("apps", scopes=["matches.read"]) == []
        assert [doc["seq"] for doc in tx.find("apps", scopes="all")] == [1]
        assert [doc["seq"] for doc in tx.find("apps", owner="x")] == [2]


def test_indexes_are_rebuilt_the_same_after_reopen(data_dir: Path) -> None:
    opened = Store(data_dir)
    for n in range(10):
        put(opened, "credentials", f"c{n}", connection_id=f"k{n % 3}")
    opened.close()
    reopened = Store(data_dir)
    with reopened.transaction() as tx:
        assert [doc["seq"] for doc in tx.find("credentials", connection_id="k1")] == [2, 5, 8]
    reopened.close()


# ---------------------------------------------------------------- durability and replay
def test_every_commit_survives_a_crash_and_replays_in_order(store: Store, data_dir: Path) -> None:
    put(store, "teams", "a", name="A")
    put(store, "teams", "b", name="B")
    put(store, "teams", "a", name="A2")
    with store.transaction() as tx:
        tx.delete("teams", "b")
        tx.put("teams", "c", {"name": "C"})
    assert birth_snapshot(data_dir)  # no compaction yet: all of it comes from the journal
    reopened = Store(crash_copy(data_dir, data_dir.parent / "crashed"))
    assert everything(reopened, "teams") == everything(store, "teams") == {
        "teams": [{"name": "A2", "seq": 1}, {"name": "C", "seq": 3}]
    }
    reopened.close()


def test_writes_acknowledged_before_a_sigkill_are_all_there(data_dir: Path) -> None:
    script = """
import os, signal, sys
from pathlib import Path
from storage.engine import Store
store = Store(Path(sys.argv[1]))
for n in range(200):
    with store.transaction() as tx:
        tx.put("keys", f"k{n}", {"n": n})
        if n % 10 == 9:
            tx.delete("keys", f"k{n - 5}")
    print(n, flush=True)
os.kill(os.getpid(), signal.SIGKILL)
"""
    result = run_child(script, data_dir)
    assert result.returncode == -9, result.stderr
    assert result.stdout.split()[-1] == "199"
    reopened = Store(data_dir)
    with reopened.transaction() as tx:
        keys = {doc["n"] for doc in tx.find("keys")}
    assert keys == {n for n in range(200) if n % 10 != 4}
    reopened.close()


def test_a_torn_last_line_is_dropped_and_cut_off_the_file(store: Store, data_dir: Path) -> None:
    put(store, "teams", "a", name="A")
    put(store, "teams", "b", name="B")
    crashed = crash_copy(data_dir, data_dir.parent / "crashed")
    good_size = (crashed / JOURNAL).stat().st_size
    with open(crashed / JOURNAL, "ab") as journal:
        journal.write(b'{"s":3,"q":3,"ops":[["teams","c",{"name":"C","se')
    reopened = Store(crashed)
    assert (crashed / JOURNAL).stat().st_size == good_size
    assert everything(reopened, "teams") == everything(store, "teams")
    put(reopened, "teams", "d", name="D")  # appends after the cut, never behind half a line
    reopened.close()
    with open(crashed / JOURNAL, "rb") as journal:
        assert journal.read() == b""  # compacted at close
    again = Store(crashed)
    assert [doc["name"] for doc in everything(again, "teams")["teams"]] == ["A", "B", "D"]
    again.close()


def test_a_zero_filled_tail_with_a_newline_is_dropped(store: Store, data_dir: Path) -> None:
    put(store, "teams", "a", name="A")
    crashed = crash_copy(data_dir, data_dir.parent / "crashed")
    good_size = (crashed / JOURNAL).stat().st_size
    with open(crashed / JOURNAL, "ab") as journal:
        journal.write(b"\0" * 40 + b"\n" + b"\0" * 10)
    reopened = Store(crashed)
    assert (crashed / JOURNAL).stat().st_size == good_size
    assert everything(reopened, "teams") == {"teams": [{"name": "A", "seq": 1}]}
    reopened.close()


def test_damage_before_the_last_line_refuses_to_open_and_keeps_the_file(store: Store, data_dir: Path) -> None:
    put(store, "teams", "a", name="A")
    put(store, "teams", "b", name="B")
    crashed = crash_copy(data_dir, data_dir.parent / "crashed")
    lines = (crashed / JOURNAL).read_bytes().splitlines(keepends=True)
    damaged = lines[0][:10] + b"#" + lines[0][11:] + lines[1]
    (crashed / JOURNAL).write_bytes(damaged)
    with pytest.raises(JournalCorrupt, match="damaged at byte 0"):
        Store(crashed)
    assert (crashed / JOURNAL).read_bytes() == damaged
    Store(data_dir.parent / "other").close()  # the failed open released nothing it should keep


def journal_line(seq: int, first_unsynced: int, key: str) -> bytes:
    return orjson.dumps({"s": seq, "g": first_unsynced, "q": seq, "ops": [["teams", key, {"name": key, "seq": seq}]]})


def test_an_unsynced_group_cut_short_by_a_power_loss_is_dropped(data_dir: Path) -> None:
    Store(data_dir).close()
    # Line 1 was durable; lines 2 and 3 were written as one group whose fsync never finished: the disk kept
    # line 3's page but not line 2's. Nothing of the group was acknowledged, so both go, like a torn tail.
    durable = journal_line(1, 1, "a") + b"\n"
    (data_dir / JOURNAL).write_bytes(durable + b"\0" * 30 + b"\n" + journal_line(3, 2, "c") + b"\n")
    reopened = Store(data_dir)
    assert everything(reopened, "teams") == {"teams": [{"name": "a", "seq": 1}]}
    assert (data_dir / JOURNAL).read_bytes() == durable
    reopened.close()


def test_damage_to_a_line_a_later_line_knew_durable_refuses_to_open(data_dir: Path) -> None:
    Store(data_dir).close()
    # Line 3 was written after line 2 was known durable (g = 3): line 2 was acknowledged, its loss is damage.
    journal = journal_line(1, 1, "a") + b"\n" + b"\0" * 30 + b"\n" + journal_line(3, 3, "c") + b"\n"
    (data_dir / JOURNAL).write_bytes(journal)
    with pytest.raises(JournalCorrupt, match="damaged at byte"):
        Store(data_dir)
    assert (data_dir / JOURNAL).read_bytes() == journal


@pytest.fixture
def disk_data_dir() -> Iterator[Path]:
    """A data dir on a disk, not on the memory file system the tests' temp dirs use (tests/conftest.py): commits
    share an fsync only where an fsync takes time."""
    with tempfile.TemporaryDirectory(dir="/var/tmp", prefix="courtside-test-") as tmp:
        yield Path(tmp) / "data"


def test_concurrent_writers_share_fsyncs_and_every_acknowledged_write_survives_sigkill(
        disk_data_dir: Path) -> None:
    data_dir = disk_data_dir
    script = """
import os, signal, sys, threading
from pathlib import Path
from storage.engine import Store
store = Store(Path(sys.argv[1]))
printing = threading.Lock()

def writer(w):
    for n in range(25):
        with store.transaction() as tx:
            tx.put("keys", f"w{w}-{n}", {"w": w, "n": n})
        with printing:
            print(f"w{w}-{n}", flush=True)  # acknowledged: the transaction returned

threads = [threading.Thread(target=writer, args=(w,)) for w in range(16)]
for thread in threads:
    thread.start()
for thread in threads[:8]:
    thread.join()
with printing:  # whole lines only: a writer thread may still be printing
    print("flushes", store.flushes, flush=True)
os.kill(os.getpid(), signal.SIGKILL)  # while half the writers may still be writing
"""
    result = run_child(script, data_dir)
    assert result.returncode == -9, result.stderr
    lines = result.stdout.split("\n")
    acknowledged = {line for line in lines if line.startswith("w")}
    flushes = int(next(line for line in lines if line.startswith("flushes")).split()[1])
    assert len(acknowledged) >= 8 * 25
    assert flushes < len(acknowledged)  # one fsync served several commits
    reopened = Store(data_dir)
    with reopened.transaction() as tx:
        stored = {f"w{doc['w']}-{doc['n']}" for doc in tx.find("keys")}
    assert acknowledged <= stored
    reopened.close()


def test_a_failed_append_is_cut_off_so_later_writes_replay(data_dir: Path) -> None:
    """A real short write: the journal hits the process file size limit (RLIMIT_FSIZE) half-way."""
    script = """
import resource, signal, sys
from pathlib import Path
from storage.engine import JOURNAL, Store, StorageError
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
store = Store(Path(sys.argv[1]))
with store.transaction() as tx:
    tx.put("teams", "a", {"name": "A"})
size = (Path(sys.argv[1]) / JOURNAL).stat().st_size
resource.setrlimit(resource.RLIMIT_FSIZE, (size + 100, resource.RLIM_INFINITY))
try:
    with store.transaction() as tx:
        tx.put("teams", "big", {"name": "x" * 1000})
except StorageError as exc:
    print("failed:", exc.__cause__.__class__.__name__)
print("size after failure:", (Path(sys.argv[1]) / JOURNAL).stat().st_size == size)
with store.transaction() as tx:
    tx.put("teams", "b", {"name": "B"})
print("acknowledged")
resource.setrlimit(resource.RLIMIT_FSIZE, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
import os
os.kill(os.getpid(), signal.SIGKILL)
"""
    result = run_child(script, data_dir)
    assert result.stdout.splitlines() == ["failed: OSError", "size after failure: True", "acknowledged"], (
        result.stdout + result.stderr
    )
    reopened = Store(data_dir)
    with reopened.transaction() as tx:
        assert [doc["name"] for doc in tx.find("teams")] == ["A", "B"]
    reopened.close()


def test_a_failed_compaction_does_not_fail_the_acknowledged_write(data_dir: Path) -> None:
    """The snapshot cannot be written (file size limit): the write stays acknowledged in the journal."""
    script = """
import resource, signal, sys
from pathlib import Path
from storage.engine import Store
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
store = Store(Path(sys.argv[1]), compact_bytes=300)
for n in range(3):
    with store.transaction() as tx:
        tx.put("teams", f"t{n}", {"name": "x" * 100})
resource.setrlimit(resource.RLIMIT_FSIZE, (1000, resource.RLIM_INFINITY))
for n in range(3, 8):
    with store.transaction() as tx:
        tx.put("teams", f"t{n}", {"name": "x" * 100})
    print("acknowledged", n, flush=True)
import os
os.kill(os.getpid(), signal.SIGKILL)
"""
    result = run_child(script, data_dir)
    assert result.stdout.splitlines()[-1] == "acknowledged 7", result.stdout + result.stderr
    assert "compaction failed" in result.stderr
    reopened = Store(data_dir)
    assert reopened_count(reopened, "teams") == 8
    reopened.close()


def reopened_count(store: Store, table: str) -> int:
    with store.transaction() as tx:
        return tx.count(table)


# ---------------------------------------------------------------- compaction
def apply_workload(store: Store, model: dict[str, dict[str, Any]], rounds: int) -> None:
    """Puts, updates and deletes in a fixed pattern; `model` tracks what must be stored."""
    for n in range(rounds):
        with store.transaction() as tx:
            key = f"k{n % 37}"
            if n % 5 == 4 and key in model:
                tx.delete("items", key)
                del model[key]
            else:
                stored = tx.put("items", key, {"n": n, "group": n % 3, "payload": "p" * (n % 50)})
                model[key] = stored


def test_compaction_then_replay_equals_replay_of_the_whole_journal(tmp_path: Path) -> None:
    compacting = Store(tmp_path / "compacting", compact_bytes=2_000)
    journal_only = Store(tmp_path / "journal-only", compact_bytes=10**9)
    model: dict[str, dict[str, Any]] = {}
    apply_workload(compacting, model, 400)
    apply_workload(journal_only, {}, 400)
    assert (tmp_path / "compacting" / SNAPSHOT).exists()
    assert birth_snapshot(tmp_path / "journal-only")
    assert (tmp_path / "compacting" / JOURNAL).stat().st_size < 4_000
    expected = sorted(model.values(), key=lambda doc: doc["seq"])
    crashed = [crash_copy(tmp_path / name, tmp_path / f"{name}-crashed") for name in ("compacting", "journal-only")]
    for directory in crashed:
        reopened = Store(directory)
        assert everything(reopened, "items") == {"items": expected}
        with reopened.transaction() as tx:
            assert tx.find("items", group=1) == [doc for doc in expected if doc["group"] == 1]
        reopened.close()
    compacting.close()
    journal_only.close()


def test_crash_between_snapshot_rename_and_journal_truncation_replays_nothing_twice(
    store: Store, data_dir: Path, tmp_path: Path
) -> None:
    model: dict[str, dict[str, Any]] = {}
    apply_workload(store, model, 60)
    old_journal = (data_dir / JOURNAL).read_bytes()
    store.compact()
    assert (data_dir / JOURNAL).read_bytes() == b""
    crashed = crash_copy(data_dir, tmp_path / "crashed")
    (crashed / JOURNAL).write_bytes(old_journal)  # the snapshot is in place, the journal not yet emptied
    reopened = Store(crashed)
    expected = {"items": sorted(model.values(), key=lambda doc: doc["seq"])}
    assert everything(reopened, "items") == expected
    apply_workload(reopened, model, 10)  # later writes continue the journal sequence
    after = crash_copy(crashed, tmp_path / "after")
    again = Store(after)
    assert everything(again, "items") == {"items": sorted(model.values(), key=lambda doc: doc["seq"])}
    again.close()
    reopened.close()


def test_writes_committed_while_the_snapshot_is_written_stay_in_the_journal(
    store: Store, data_dir: Path, tmp_path: Path
) -> None:
    """The snapshot file is written outside the store lock; lines committed meanwhile are kept, not cut."""
    model: dict[str, dict[str, Any]] = {}
    apply_workload(store, model, 30)
    tables, cut = store._snapshot_begin()
    at_begin = orjson.dumps(tables)
    apply_workload(store, model, 7)  # commits while the snapshot is on its way to disk
    assert orjson.dumps(tables) == at_begin  # the copy is a point in time: commits replace documents whole
    during = (data_dir / JOURNAL).read_bytes()[cut:]
    mid_way = crash_copy(data_dir, tmp_path / "mid-way")  # old journal, old or no snapshot
    data = orjson.dumps(tables)
    store._snapshot_write(data)
    just_renamed = crash_copy(data_dir, tmp_path / "just-renamed")  # new snapshot, whole old journal
    store._snapshot_finish(len(data), cut)
    before_last = {"items": sorted(model.values(), key=lambda doc: doc["seq"])}
    assert (data_dir / JOURNAL).read_bytes() == during
    assert not (data_dir / (JOURNAL + ".tmp")).exists()
    apply_workload(store, model, 5)  # appends go to the new journal file
    expected = {"items": sorted(model.values(), key=lambda doc: doc["seq"])}
    assert everything(store, "items") == expected
    after = crash_copy(data_dir, tmp_path / "after")
    for directory, state in ((after, expected), (mid_way, before_last), (just_renamed, before_last)):
        reopened = Store(directory)
        assert everything(reopened, "items") == state, directory.name
        reopened.close()


def test_threads_writing_through_frequent_compactions_lose_nothing(data_dir: Path, tmp_path: Path) -> None:
    store = Store(data_dir, compact_bytes=500)

    def work(worker: int) -> None:
        for n in range(100):
            with store.transaction() as tx:
                tx.put("items", f"{worker}-{n % 30}", {"worker": worker, "n": n})

    threads = [threading.Thread(target=work, args=(worker,)) for worker in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    live = everything(store, "items")
    assert len(live["items"]) == 120
    last_n = {n % 30: n for n in range(100)}
    assert sorted((doc["worker"], doc["n"]) for doc in live["items"]) == sorted(
        (worker, n) for worker in range(4) for n in last_n.values()
    )
    reopened = Store(crash_copy(data_dir, tmp_path / "crashed"))
    assert everything(reopened, "items") == live
    reopened.close()
    store.close()


def test_a_leftover_temp_snapshot_from_a_crash_is_ignored_and_removed(store: Store, data_dir: Path) -> None:
    put(store, "teams", "a", name="A")
    crashed = crash_copy(data_dir, data_dir.parent / "crashed")
    (crashed / (SNAPSHOT + ".tmp")).write_bytes(b'{"teams": {"a": {"na')
    reopened = Store(crashed)
    assert everything(reopened, "teams") == {"teams": [{"name": "A", "seq": 1}]}
    assert not (crashed / (SNAPSHOT + ".tmp")).exists()
    reopened.close()


def test_one_write_appends_only_the_documents_it_changed(store: Store, data_dir: Path) -> None:
    with store.transaction() as tx:
        for n in range(2_000):
            tx.put("items", f"k{n}", {"n": n})
    before = (data_dir / JOURNAL).stat().st_size
    put(store, "items", "k5", n=-5)
    line = (data_dir / JOURNAL).read_bytes()[before:]
    assert json.loads(line) == {"s": 2, "g": 2, "q": 2000, "ops": [["items", "k5", {"n": -5, "seq": 6}]]}


def test_the_snapshot_is_a_json_file_tinydb_can_open(store: Store, data_dir: Path) -> None:
    put(store, "teams", "t1", name="A")
    put(store, "matches", "m1", status="queued")
    store.compact()
    snapshot = json.loads((data_dir / SNAPSHOT).read_text())
    assert snapshot["teams"] == {"t1": {"name": "A", "seq": 1}}

    class StringIds(Table):
        document_id_class = str  # type: ignore[assignment]

    db = TinyDB(data_dir / SNAPSHOT, access_mode="r")
    db.table_class = StringIds
    assert db.tables() == {"teams", "matches", "_meta"}
    string_id: Any = "m1"  # TinyDB's stubs say int; our tables use string IDs
    assert db.table("matches").get(doc_id=string_id) == {"status": "queued", "seq": 2}
    string_id = "1"
    assert db.table("_meta").get(doc_id=string_id) == {"journalSeq": 2, "docSeq": 2}
    db.close()


def test_an_unreadable_snapshot_fails_with_a_clear_error(data_dir: Path) -> None:
    data_dir.mkdir()
    (data_dir / SNAPSHOT).write_bytes(b"{not json")
    with pytest.raises(StorageError, match="not readable JSON"):
        Store(data_dir)


# ---------------------------------------------------------------- ownership
def test_a_second_store_on_the_same_data_dir_is_refused(store: Store, data_dir: Path) -> None:
    with pytest.raises(DataDirBusy, match="already in use"):
        Store(data_dir)
    store.close()
    Store(data_dir).close()


def test_the_data_dir_lock_is_released_by_close_from_another_thread(data_dir: Path) -> None:
    opened = Store(data_dir)
    closer = threading.Thread(target=opened.close)
    closer.start()
    closer.join()
    Store(data_dir).close()


def test_a_store_in_another_process_is_refused(store: Store, data_dir: Path) -> None:
    script = """
import sys
from pathlib import Path
from storage.engine import DataDirBusy, Store
try:
    Store(Path(sys.argv[1]))
except DataDirBusy as exc:
    print("busy:", exc)
"""
    result = run_child(script, data_dir)
    assert result.stdout.startswith("busy: The data dir"), result.stdout + result.stderr
    assert os.path.exists(data_dir / "courtside.lock")
