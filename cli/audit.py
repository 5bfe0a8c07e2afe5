"""`courtside audit verify` and `audit export` (contract §16): walk the chain of the data dir or database, or of
the running server through its API when the data dir is in use. Offline they only read: the data dir is left
exactly as it was (no compaction, no torn tail cut, no lock file written), so a tampered one keeps its evidence."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from cli.data_dir import open_private
from cli.errors import CliError
from domain.settings import Settings


def _audit_chains(settings: Settings) -> Iterator[tuple[str, Iterator[Any], tuple[int, str], bool]]:
    """Each account's audit chain, oldest first, with the head kept apart from it and whether entries newer than
    that head are expected: from the store (the data dir, or COURTSIDE_DATABASE_URL; head and entries in one
    transaction), or, while a server owns the data dir, from that server's operator API (the head read first, so
    changes made meanwhile may follow it). The hashes are checked here either way."""
    from domain.access import audit
    from storage.backend import open_store
    from storage.engine import DataDirBusy, StorageError
    from storage.repository import unit_of_work

    try:
        store = open_store(settings, read_only=True)  # offline, nothing in the data dir changes
    except DataDirBusy:
        head, views = _served_audit(settings)
        yield "", (audit.from_view("", view) for view in reversed(views)), head, True
        return
    except StorageError as exc:
        raise CliError(str(exc)) from exc
    try:
        with unit_of_work(store) as uow:
            for account in uow.accounts.find():
                yield account.id, audit.chain(uow, account.id), audit.kept_head(uow, account.id), False
    finally:
        store.close()


def _served_audit(settings: Settings) -> tuple[tuple[int, str], list[dict[str, Any]]]:
    """The running server's audit head, then every entry of its account, newest first, over its operator API."""
    from console.client import ConsoleClient, ConsoleError

    if not settings.api_url:
        raise CliError("The data dir is in use by a running server whose address is not recorded in it: pass "
                       "--api-url.")
    client = ConsoleClient.from_settings(settings)
    try:
        head = client.data("GET", "/operator/audit/head")
        return (int(head["seq"]), str(head["hash"])), client.all("/operator/audit", max_items=10**9)
    except ConsoleError as exc:
        raise CliError(f"The data dir is in use by a running server, and its API answered: {exc}") from exc


def audit_verify(settings: Settings) -> tuple[dict[str, Any], bool]:
    """Walk every account's chain to the head kept apart from it: the entry count and the head, and the first bad
    `seq` of a chain that was changed, had an entry removed (the newest too) or reordered. Returns the report and
    whether every chain is intact."""
    from domain.access import audit

    total, bad, heads = 0, None, []
    for account_id, chain, head, newer_allowed in _audit_chains(settings):
        verdict = audit.walk(account_id, chain, head, newer_allowed=newer_allowed)
        total += verdict.count
        heads.append({"seq": head[0], "hash": head[1]})
        if not verdict.intact and bad is None:
            bad = verdict
    shown: dict[str, Any] = {"head": heads[0]} if len(heads) == 1 else {"heads": heads}
    if bad is None:
        return {"entries": total, "intact": True, **shown}, True
    return {"entries": total, "intact": False, "firstBadSeq": bad.first_bad, "accountID": bad.account_id or None,
            **shown}, False


def audit_export(settings: Settings, out: Path) -> dict[str, Any]:
    """Write every entry (oldest first) to `out` as JSON lines, one entry per line as the API shows it."""
    from domain.access import audit

    temp = out.with_name(out.name + ".tmp")
    count = 0
    with open_private(temp) as file:  # §16: 0600
        for _account_id, chain, _head, _newer in _audit_chains(settings):
            for entry in chain:
                file.write(audit.canonical(entry.view()) + b"\n")
                count += 1
    os.replace(temp, out)
    return {"out": str(out), "entries": count}
