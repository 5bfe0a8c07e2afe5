"""Contract §8: a data dir missing its snapshot, or whose journal skips entries, is refused at start with a
message naming the file; damaged files end in one-line errors; a failed compaction leaves no temp file behind
(hardening issue, items 2 and 6). Real stores in temp dirs."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from storage.engine import JOURNAL, SNAPSHOT, StorageError, Store, StoreDamaged
from tests.server_process import free_port

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "data"


def put(store: Store, key: str, **doc: Any) -> None:
    with store.transaction() as tx:
        tx.put("things", key, doc)


def keys(store: Store) -> list[str]:
    with store.transaction() as tx:
        return [doc["name"] for doc in tx.find("things")]


def test_a_new_store_has_its_snapshot_before_any_write(data_dir: Path) -> None:
    store = Store(data_dir)
    try:
        assert (data_dir / SNAPSHOT).is_file()
    finally:
        store.close()


def test_a_missing_snapshot_after_a_clean_close_is_refused_naming_the_file(data_dir: Path) -> None:
    store = Store(data_dir)
    put(store, "a", name="a")
    store.close()  # compacts: everything is in db.json, the journal is empty
    (data_dir / SNAPSHOT).unlink()
    with pytest.raises(StoreDamaged, match=r"db\.json is missing"):
        Store(data_dir)
    assert not (data_dir / SNAPSHOT).exists()  # nothing was started over it


def test_a_missing_snapshot_with_a_compacted_journal_is_refused(data_dir: Path) -> None:
    store = Store(data_dir)
    put(store, "a", name="a")
    store.compact()
    put(store, "b", name="b")  # journal now starts at entry 2
    store.close = lambda: None  # type: ignore[method-assign]  # a crash: no final compaction
    store._os_lock.release()
    os.close(store._journal_fd)
    (data_dir / SNAPSHOT).unlink()
    with pytest.raises(StoreDamaged, match=r"db\.json is missing.*starts at entry 2"):
        Store(data_dir)


def test_a_journal_line_cut_from_the_middle_is_refused(data_dir: Path) -> None:
    store = Store(data_dir, compact_bytes=1 << 30)
    for key in "abc":
        put(store, key, name=key)
    os.close(store._journal_fd)
    store._os_lock.release()
    journal = data_dir / JOURNAL
    lines = journal.read_bytes().splitlines(keepends=True)
    journal.write_bytes(lines[0] + lines[2])  # entry 2 is gone
    with pytest.raises(StoreDamaged, match=r"journal\.jsonl skips from entry 1 to 3"):
        Store(data_dir)


def test_a_data_dir_from_before_snapshots_at_birth_still_opens(data_dir: Path) -> None:
    """A journal that starts at entry 1 holds everything, snapshot or not (no gap)."""
    store = Store(data_dir, compact_bytes=1 << 30)
    put(store, "a", name="a")
    os.close(store._journal_fd)
    store._os_lock.release()
    (data_dir / SNAPSHOT).unlink()
    reopened = Store(data_dir)
    try:
        assert keys(reopened) == ["a"]
    finally:
        reopened.close()


@pytest.mark.parametrize("damage", ["snapshot_is_a_directory", "journal_is_a_directory", "tables_of_wrong_type",
                                    "meta_of_wrong_type"])
def test_a_damaged_data_dir_fails_with_one_line_naming_the_file(data_dir: Path, damage: str) -> None:
    Store(data_dir).close()
    snapshot, journal = data_dir / SNAPSHOT, data_dir / JOURNAL
    if damage == "snapshot_is_a_directory":
        snapshot.unlink()
        snapshot.mkdir()
        named = SNAPSHOT
    elif damage == "journal_is_a_directory":
        journal.unlink()
        journal.mkdir()
        named = JOURNAL
    elif damage == "tables_of_wrong_type":
        snapshot.write_text('{"things": [1, 2, 3]}')
        named = SNAPSHOT
    else:
        snapshot.write_text('{"_meta": {"1": {"journalSeq": "seven"}}}')
        named = SNAPSHOT
    with pytest.raises(StoreDamaged) as raised:
        Store(data_dir)
    assert named in str(raised.value) and "\n" not in str(raised.value)


def test_serve_refuses_a_missing_snapshot_with_a_message_and_no_traceback(data_dir: Path) -> None:
    init = [sys.executable, "-m", "cli.main", "init", "--data-dir", str(data_dir)]
    assert subprocess.run(init, cwd=ROOT, capture_output=True, timeout=60).returncode == 0
    (data_dir / SNAPSHOT).unlink()
    serve = [sys.executable, "-m", "cli.main", "serve", "--data-dir", str(data_dir), "--port", str(free_port())]
    refused = subprocess.run(serve, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert refused.returncode != 0
    assert "db.json" in refused.stderr and "Traceback" not in refused.stderr
    assert not (data_dir / SNAPSHOT).exists()


def test_a_failed_compaction_leaves_no_temp_file(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = Store(data_dir)
    put(store, "a", name="a")

    def no_space(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", no_space)
    with pytest.raises(OSError):
        store.compact()
    monkeypatch.undo()
    assert not (data_dir / (SNAPSHOT + ".tmp")).exists()
    store.close()
    assert isinstance(StoreDamaged("x"), StorageError)


def test_a_data_dir_whose_store_files_are_all_gone_is_refused(data_dir: Path) -> None:
    init = [sys.executable, "-m", "cli.main", "init", "--data-dir", str(data_dir)]
    assert subprocess.run(init, cwd=ROOT, capture_output=True, timeout=60).returncode == 0
    (data_dir / SNAPSHOT).unlink()
    (data_dir / JOURNAL).unlink()
    serve = [sys.executable, "-m", "cli.main", "serve", "--data-dir", str(data_dir), "--port", str(free_port())]
    refused = subprocess.run(serve, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert refused.returncode != 0
    assert "holds no account" in refused.stderr and "Traceback" not in refused.stderr
