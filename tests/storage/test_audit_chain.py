"""`courtside audit verify` and `courtside audit export` (contract §16) on both backends: the real CLI walks the
stored chain; an entry changed, removed or reordered in storage is found (exit 1, the first bad seq)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from domain.access import audit, auth
from domain.access.audit_records import AuditAction, TargetType
from domain.clock import FixedClock
from domain.settings import Settings
from storage.audit_log import key_of
from storage.backend import AnyStore, open_store
from storage.repository import unit_of_work
from tests.conftest import OPERATOR_KEY
from tests.server_process import ROOT

BOTH_BACKENDS = True
ENTRIES = 6


@pytest.fixture
def filled(settings: Settings, store: AnyStore, clock: FixedClock) -> Iterator[tuple[Settings, str]]:
    """A store whose account has six entries (developer keys created, as the operator would); closed again so
    the CLI can open it."""
    with unit_of_work(store, actor=audit.Actor(audit.ActorKind.OPERATOR, "opk_test")) as uow:
        account = uow.accounts.find()[0].id
        for n in range(ENTRIES):
            auth.create_developer_key(uow, account_id=account, name=f"key {n}", scopes=None, now=clock.now(),
                                      ttl_seconds=3600)
            clock.advance(1)
    store.close()
    yield settings, account


def courtside(settings: Settings, *args: str, umask: int = -1) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("COURTSIDE_")}
    if settings.database_url:
        env["COURTSIDE_DATABASE_URL"] = settings.database_url
    return subprocess.run([sys.executable, "-m", "cli.main", *args, "--data-dir", str(settings.data_dir)], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=120, umask=umask)


def verify(settings: Settings) -> tuple[int, dict[str, Any]]:
    result = courtside(settings, "audit", "verify")
    return result.returncode, json.loads(result.stdout)


def tamper(settings: Settings, account: str, change: Callable[[dict[int, dict[str, Any]]], object]) -> None:
    """Change the stored entry documents the way someone with access to the files or the database could."""
    store = open_store(settings)
    try:
        with store.transaction() as tx:
            docs = {doc["number"]: doc for doc in tx.find("audit", account_id=account)}
            for doc in docs.values():
                tx.delete("audit", doc["id"])
        change(docs)
        with store.transaction() as tx:
            for doc in docs.values():
                tx.put("audit", doc["id"], doc)
    finally:
        store.close()


def head_of(settings: Settings, account: str) -> dict[str, Any]:
    """The last entry's seq and hash, read from the entries themselves."""
    store = open_store(settings)
    try:
        with store.transaction() as tx:
            last = max(tx.find("audit", account_id=account), key=lambda doc: doc["number"])
    finally:
        store.close()
    return {"seq": last["number"], "hash": last["hash"]}


def test_verify_counts_an_intact_chain_prints_its_head_and_exits_0(filled: tuple[Settings, str]) -> None:
    settings, account = filled
    assert verify(settings) == (0, {"entries": ENTRIES, "intact": True, "head": head_of(settings, account)})


def test_verify_finds_the_newest_entries_removed(filled: tuple[Settings, str]) -> None:
    """Issue 37, point 3: the head is kept apart, so removing the newest entries (a clean, shorter chain) is
    found: the first removed seq is bad, and the head printed is the one kept."""
    settings, account = filled
    head = head_of(settings, account)
    tamper(settings, account, lambda docs: [docs.pop(ENTRIES), docs.pop(ENTRIES - 1)] and None)
    code, report = verify(settings)
    assert (code, report["intact"], report["firstBadSeq"], report["head"]) == (1, False, ENTRIES - 1, head)


def test_the_next_change_after_a_removal_does_not_hide_it(filled: tuple[Settings, str], clock: FixedClock) -> None:
    """The next change takes the seq after the kept head, never a removed entry's seq again."""
    settings, account = filled
    tamper(settings, account, lambda docs: docs.pop(ENTRIES) and None)
    store = open_store(settings)
    try:
        _record(store, account, 1, clock)
    finally:
        store.close()
    code, report = verify(settings)
    assert (code, report["firstBadSeq"]) == (1, ENTRIES)


def test_verify_finds_a_changed_entry(filled: tuple[Settings, str]) -> None:
    settings, account = filled

    def change(docs: dict[int, dict[str, Any]]) -> None:
        docs[4]["after"]["appName"] = "someone else"

    tamper(settings, account, change)
    code, report = verify(settings)
    assert (code, report["intact"], report["firstBadSeq"]) == (1, False, 4)


def test_verify_finds_a_removed_entry(filled: tuple[Settings, str]) -> None:
    settings, account = filled
    tamper(settings, account, lambda docs: docs.pop(3) and None)
    code, report = verify(settings)
    assert (code, report["firstBadSeq"]) == (1, 3)


def test_verify_finds_reordered_entries(filled: tuple[Settings, str]) -> None:
    settings, account = filled

    def swap(docs: dict[int, dict[str, Any]]) -> None:  # entry 2 now stands where 5 was, and 5 where 2 was
        two, five = docs[2], docs[5]
        two["number"], five["number"] = 5, 2
        two["id"], five["id"] = key_of(account, 5), key_of(account, 2)

    tamper(settings, account, swap)
    code, report = verify(settings)
    assert (code, report["firstBadSeq"]) == (1, 2)


def test_export_writes_every_entry_as_json_lines_that_verify_by_hand(filled: tuple[Settings, str],
                                                                      tmp_path: Path) -> None:
    settings, _ = filled
    out = tmp_path / "audit.jsonl"
    result = courtside(settings, "audit", "export", "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {"out": str(out), "entries": ENTRIES}
    assert out.stat().st_mode & 0o777 == 0o600  # §16: the log is no one else's to read (it was 0644)
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [line["seq"] for line in lines] == list(range(1, ENTRIES + 1))
    assert {line["action"] for line in lines} == {"key.created"}
    assert audit.walk("", (audit.from_view("", line) for line in lines)).intact
    assert OPERATOR_KEY not in out.read_text(encoding="utf-8")


def _record(store: AnyStore, account: str, n: int, clock: FixedClock) -> None:
    with unit_of_work(store) as uow:
        audit.record(uow, account_id=account, action=AuditAction.MATCH_SCORED, target=(TargetType.MATCH, f"t{n}"),
                     after={"n": n},
                     now=clock.now())


def test_two_processes_appending_in_turn_keep_one_gapless_chain(settings: Settings, store: AnyStore,
                                                                clock: FixedClock) -> None:
    """Each store remembers its own last entry (PostgreSQL: a hint checked in the insert itself); when the other
    process appended meanwhile, the entry is built again on the real head, without a lost race."""
    with unit_of_work(store) as uow:
        account = uow.accounts.find()[0].id
    other = open_store(settings) if settings.database_url else store
    try:
        for n in range(12):
            _record(store if n % 3 else other, account, n, clock)
        with unit_of_work(store) as uow:
            entries = list(audit.chain(uow, account))
    finally:
        if other is not store:
            other.close()
    assert [e.seq for e in entries] == list(range(1, 13))
    assert audit.walk(account, iter(entries)).intact
    assert [e.after for e in entries] == [{"n": n} for n in range(12)]


def test_an_entry_rolled_back_with_its_savepoint_leaves_no_gap(store: AnyStore, clock: FixedClock) -> None:
    with unit_of_work(store) as uow:
        account = uow.accounts.find()[0].id
    _record(store, account, 0, clock)
    with unit_of_work(store) as uow:
        with pytest.raises(RuntimeError), uow.savepoint():
            audit.record(uow, account_id=account, action=AuditAction.MATCH_SCORED, target=(TargetType.MATCH, "gone"),
                         after={"n": -1},
                         now=clock.now())
            raise RuntimeError("this item fails")
        audit.record(uow, account_id=account, action=AuditAction.MATCH_SCORED, target=(TargetType.MATCH, "kept"),
                     after={"n": 1},
                     now=clock.now())
    _record(store, account, 2, clock)
    with unit_of_work(store) as uow:
        entries = list(audit.chain(uow, account))
    assert [(e.seq, e.after) for e in entries] == [(1, {"n": 0}), (2, {"n": 1}), (3, {"n": 2})]
    assert audit.walk(account, iter(entries)).intact


def test_an_export_from_before_heads_were_kept_imports_with_its_head(filled: tuple[Settings, str],
                                                                      tmp_path: Path) -> None:
    """An export without `audit_heads` documents (made before the head was kept apart) imports with the head of
    its chain, so verify checks the chain's end from then on."""
    settings, account = filled
    head = head_of(settings, account)
    exported = tmp_path / "old.jsonl"
    assert courtside(settings, "export", "--out", str(exported)).returncode == 0
    lines = [line for line in exported.read_text(encoding="utf-8").splitlines() if '"table":"audit_heads"' not in line]
    assert len(lines) < len(exported.read_text(encoding="utf-8").splitlines())
    exported.write_text("\n".join(lines) + "\n", encoding="utf-8")
    target = settings.with_(data_dir=tmp_path / "copy")
    if settings.database_url:  # the same database, emptied: import needs an empty store
        store = open_store(settings)
        try:
            with store.transaction() as tx:
                for table in ("audit", "audit_heads", "accounts", "credentials", "connections", "apps"):
                    for doc in tx.find(table):
                        tx.delete(table, doc["id"])
        finally:
            store.close()
        target = settings
    imported = courtside(target, "import", str(exported))
    assert imported.returncode == 0, imported.stderr
    assert verify(target) == (0, {"entries": ENTRIES, "intact": True, "head": head})


@pytest.mark.parametrize("command", [("export",), ("audit", "export")])
def test_exports_are_0600_whatever_the_umask_or_a_temp_file_left_before(
        filled: tuple[Settings, str], tmp_path: Path, command: tuple[str, ...]) -> None:
    """§16: `courtside export` (webhook secrets, players' emails) and `audit export` write their files 0600, also
    under umask 000 and over a world-readable temp file an interrupted run left."""
    settings, _ = filled
    out = tmp_path / "out.jsonl"
    stale = out.with_name(out.name + ".tmp")
    stale.write_text("left over")
    os.chmod(stale, 0o666)
    result = courtside(settings, *command, "--out", str(out), umask=0)
    assert result.returncode == 0, result.stderr
    assert out.stat().st_mode & 0o777 == 0o600
    assert out.read_text(encoding="utf-8").count("\n") >= ENTRIES
