"""`courtside audit verify` and `audit export` run offline only read the data dir (contract §16, decisions.md): no
compaction, no torn tail cut, no lock file written, no mode tightened; also on a tampered copy, whose journal is
the evidence. The data dirs are made by the real app (operator API over a real store in a temp dir), with the
journal not yet compacted."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest

from domain.settings import Settings
from storage.backend import AnyStore
from storage.engine import JOURNAL, LOCK, DataDirBusy, ReadOnlyStore, StorageError, Store
from tests.conftest import Api
from tests.server_process import ROOT

KEYS = 3
FileState = tuple[bytes, int, int]  # content, mtime (ns), mode


def courtside(data_dir: Path, *args: str, command: str = "audit") -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("COURTSIDE_")}
    return subprocess.run([sys.executable, "-m", "cli.main", command, *args, "--data-dir", str(data_dir)], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=120)


def state(data_dir: Path) -> dict[str, FileState]:
    """Every entry of the data dir (the listing) with its bytes, mtime and mode, and the dir's own mtime and mode."""
    found = {".": (b"", data_dir.stat().st_mtime_ns, data_dir.stat().st_mode)}
    for path in sorted(data_dir.iterdir()):
        found[path.name] = (path.read_bytes(), path.stat().st_mtime_ns, path.stat().st_mode)
    return found


@pytest.fixture
def live(operator: Api, settings: Settings) -> Path:
    """The data dir of a running app (its store open): the operator made developer keys, the journal holds them."""
    for n in range(KEYS):
        response = operator.post("/operator/keys", json={"name": f"k{n}"})
        assert response.status_code == 201, response.json
    journal = settings.data_dir / JOURNAL
    assert b'"audit"' in journal.read_bytes()  # not compacted: the entries are in the journal
    return settings.data_dir


def _copy(live: Path, tmp_path: Path, *, keep_lock: bool) -> Path:
    copy = tmp_path / "copy"
    shutil.copytree(live, copy)  # a backup taken while the server ran (QA: `cp -r`), modes and mtimes kept
    if not keep_lock:
        (copy / LOCK).unlink()
    return copy


def _stopped(live: Path, tmp_path: Path, store: AnyStore) -> Path:
    store.close()  # the server stopped: its lock file stays behind, unlocked
    assert (live / LOCK).exists()
    return live


def _torn_tail(live: Path, tmp_path: Path, store: AnyStore) -> Path:
    copy = _copy(live, tmp_path, keep_lock=False)
    with open(copy / JOURNAL, "ab") as journal:  # a crash mid-append: the store's next start cuts it off
        journal.write(b'{"s": 99, "g": 99, "ops": [["audit"')
    return copy


def _loose_modes(live: Path, tmp_path: Path, store: AnyStore) -> Path:
    copy = _copy(live, tmp_path, keep_lock=True)
    os.chmod(copy, 0o755)  # as an older version left it: the store's next start tightens these
    for path in copy.iterdir():
        os.chmod(path, 0o644)
    return copy


DATA_DIRS: dict[str, Callable[[Path, Path, AnyStore], Path]] = {
    "copy without its lock file": lambda live, tmp_path, store: _copy(live, tmp_path, keep_lock=False),
    "copy with its lock file": lambda live, tmp_path, store: _copy(live, tmp_path, keep_lock=True),
    "stopped server's data dir": _stopped,
    "copy with a torn journal tail": _torn_tail,
    "copy with loose modes": _loose_modes,
}


@pytest.mark.parametrize("kind", list(DATA_DIRS))
def test_offline_verify_and_export_change_nothing_in_the_data_dir(kind: str, live: Path, store: AnyStore,
                                                                  tmp_path: Path) -> None:
    data_dir = DATA_DIRS[kind](live, tmp_path, store)
    before = state(data_dir)
    verified = courtside(data_dir, "verify")
    assert verified.returncode == 0, verified.stderr
    assert json.loads(verified.stdout)["intact"] is True
    out = tmp_path / "audit.jsonl"
    exported = courtside(data_dir, "export", "--out", str(out))
    assert exported.returncode == 0, exported.stderr
    assert json.loads(exported.stdout)["entries"] == json.loads(verified.stdout)["entries"] >= KEYS
    assert state(data_dir) == before


@pytest.mark.parametrize("kind", list(DATA_DIRS))
def test_the_data_dirs_export_changes_nothing_in_it(kind: str, live: Path, store: AnyStore, tmp_path: Path) -> None:
    """`courtside export` (the whole store, for a move or a backup) reads the data dir as the audit commands do."""
    data_dir = DATA_DIRS[kind](live, tmp_path, store)
    before = state(data_dir)
    out = tmp_path / "store.jsonl"
    exported = courtside(data_dir, "--out", str(out), command="export")
    assert exported.returncode == 0, exported.stderr
    assert json.loads(exported.stdout)["documents"] > KEYS and out.stat().st_size > 0
    assert state(data_dir) == before


def _tamper_journal(data_dir: Path, seq: int) -> None:
    """Change audit entry `seq` where the journal holds it, as someone with the files could."""
    lines = (data_dir / JOURNAL).read_bytes().splitlines(keepends=True)
    changed = 0
    for n, line in enumerate(lines):
        entry: dict[str, Any] = orjson.loads(line)
        for table, _key, doc in entry["ops"]:
            if table == "audit" and doc is not None and doc["number"] == seq:
                doc["reason"] = "nothing to see"
                changed += 1
        lines[n] = orjson.dumps(entry) + b"\n"
    assert changed == 1
    (data_dir / JOURNAL).write_bytes(b"".join(lines))


def test_offline_verify_of_a_tampered_copy_reports_the_break_and_keeps_the_evidence(live: Path,
                                                                                   tmp_path: Path) -> None:
    copy = _copy(live, tmp_path, keep_lock=False)
    _tamper_journal(copy, 2)
    before = state(copy)
    verified = courtside(copy, "verify")
    assert verified.returncode == 1, verified.stderr
    report = json.loads(verified.stdout)
    assert (report["intact"], report["firstBadSeq"]) == (False, 2)
    exported = courtside(copy, "export", "--out", str(tmp_path / "audit.jsonl"))
    assert exported.returncode == 0, exported.stderr
    assert state(copy) == before
    again = courtside(copy, "verify")  # the evidence is still in the journal: the same verdict
    assert (again.returncode, json.loads(again.stdout)) == (1, report)


def test_offline_verify_of_a_missing_data_dir_creates_nothing(tmp_path: Path) -> None:
    missing = tmp_path / "nothing-here"
    verified = courtside(missing, "verify")
    assert verified.returncode != 0
    assert "nothing-here" in verified.stderr
    assert not missing.exists()


def test_a_read_only_store_reads_what_was_committed_and_refuses_writes(tmp_path: Path) -> None:
    writer = Store(tmp_path / "data")
    with writer.transaction() as tx:
        tx.put("things", "a", {"n": 1})
    copy = tmp_path / "copy"
    shutil.copytree(tmp_path / "data", copy)  # the line is in the journal only
    writer.close()
    before = state(copy)
    reader = ReadOnlyStore(copy)
    try:
        with reader.transaction() as tx:
            assert [doc["n"] for doc in tx.find("things")] == [1]
        with pytest.raises(StorageError, match="read-only"), reader.transaction() as tx:
            tx.put("things", "b", {"n": 2})
        with pytest.raises(StorageError, match="read-only"):
            reader.compact()
        with reader.transaction() as tx:
            assert tx.get("things", "b") is None
    finally:
        reader.close()
    assert state(copy) == before


def test_a_read_only_store_and_a_store_keep_each_other_out(tmp_path: Path) -> None:
    """A server (a `Store`) owns the data dir: read-only is busy (the CLI then asks the server's API). A read-only
    store holds a shared lock: no server starts and compacts under it, other readers may; once closed, one can."""
    data_dir = tmp_path / "data"
    server = Store(data_dir)
    try:
        with pytest.raises(DataDirBusy):
            ReadOnlyStore(data_dir)
    finally:
        server.close()
    reader = ReadOnlyStore(data_dir)
    try:
        with pytest.raises(DataDirBusy):
            Store(data_dir)
        ReadOnlyStore(data_dir).close()
    finally:
        reader.close()
    Store(data_dir).close()


def test_a_server_starting_while_a_copy_without_lock_file_is_read_makes_it_busy(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    Store(tmp_path / "data").close()
    (tmp_path / "data" / LOCK).unlink()
    started: list[Store] = []
    read_files = ReadOnlyStore._read_files

    def read_while_a_server_starts(self: ReadOnlyStore) -> None:
        if not started:
            started.append(Store(tmp_path / "data"))  # creates and holds courtside.lock
        read_files(self)

    monkeypatch.setattr(ReadOnlyStore, "_read_files", read_while_a_server_starts)
    try:
        with pytest.raises(DataDirBusy):
            ReadOnlyStore(tmp_path / "data")
    finally:
        started[0].close()
