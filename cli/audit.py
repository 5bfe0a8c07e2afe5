"""`courtside audit verify` and `audit export` (contract §16): walk the chain of the data dir or database, or of
the running server through its API when the data dir is in use. Offline they only read: the data dir is left
exactly as it was (no compaction, no torn tail cut, no lock file written), so a tampered one keeps its evidence."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from cli.errors import CliError
from domain.settings import Settings


def _audit_chains(settings: Settings) -> Iterator[tuple[str, Iterator[Any]]]:
    """Each account's audit chain, oldest first: from the store (the data dir, or COURTSIDE_DATABASE_URL), or,
    while a server owns the data dir, from that server's operator API (the hashes are checked here either way)."""
    from domain import audit
    from storage.backend import open_store
    from storage.engine import DataDirBusy, StorageError
    from storage.repository import unit_of_work

    try:
        store = open_store(settings, read_only=True)  # offline, nothing in the data dir changes
    except DataDirBusy:
        yield "", (audit.from_view("", view) for view in reversed(_served_audit(settings)))
        return
    except StorageError as exc:
        raise CliError(str(exc)) from exc
    try:
        with unit_of_work(store) as uow:
            for account in uow.accounts.find():
                yield account.id, audit.chain(uow, account.id)
    finally:
        store.close()


def _served_audit(settings: Settings) -> list[dict[str, Any]]:
    """Every entry of the running server's account, newest first, over its operator API."""
    from console.client import ConsoleClient, ConsoleError

    client = ConsoleClient.from_settings(settings)
    try:
        return client.all("/operator/audit", max_items=10**9)
    except ConsoleError as exc:
        raise CliError(f"The data dir is in use by a running server, and its API answered: {exc}") from exc


def audit_verify(settings: Settings) -> tuple[dict[str, Any], bool]:
    """Walk every account's chain: the entry count, and the first bad `seq` of a chain that was changed, had an
    entry removed or reordered. Returns the report and whether every chain is intact."""
    from domain import audit

    total, bad = 0, None
    for account_id, chain in _audit_chains(settings):
        verdict = audit.walk(account_id, chain)
        total += verdict.count
        if not verdict.intact and bad is None:
            bad = verdict
    if bad is None:
        return {"entries": total, "intact": True}, True
    return {"entries": total, "intact": False, "firstBadSeq": bad.first_bad, "accountID": bad.account_id or None}, False


def audit_export(settings: Settings, out: Path) -> dict[str, Any]:
    """Write every entry (oldest first) to `out` as JSON lines, one entry per line as the API shows it."""
    from domain import audit

    temp = out.with_name(out.name + ".tmp")
    count = 0
    with open(temp, "wb") as file:
        for _account_id, chain in _audit_chains(settings):
            for entry in chain:
                file.write(audit.canonical(entry.view()) + b"\n")
                count += 1
    os.replace(temp, out)
    return {"out": str(out), "entries": count}
