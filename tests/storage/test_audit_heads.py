"""A data dir from before the audit head was kept apart (contract §16) gets its heads when a server opens it, so
`audit verify` checks the chain's end from then on (PostgreSQL's come with migration 6)."""

from __future__ import annotations

from pathlib import Path

from domain.access import audit
from domain.access.audit_records import AuditAction, TargetType
from domain.access.auth import bootstrap
from domain.clock import FixedClock
from domain.settings import Settings
from storage.audit_log import HEADS
from storage.backend import open_store
from storage.repository import unit_of_work
from tests.conftest import OPERATOR_KEY


def test_a_data_dir_without_heads_gets_them_at_open(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "data")
    clock = FixedClock()
    store = open_store(settings)
    try:
        with unit_of_work(store) as uow:
            bootstrap(uow, operator_key=OPERATOR_KEY, now=clock.now())
        with unit_of_work(store) as uow:
            account = uow.accounts.find()[0].id
            for n in range(3):
                audit.record(uow, account_id=account, action=AuditAction.MATCH_SCORED,
                             target=(TargetType.MATCH, f"t{n}"), after={"n": n}, now=clock.now())
        with store.transaction() as tx:
            tx.delete(HEADS, account)  # as an older version left it
        with unit_of_work(store) as uow:
            assert uow.audit.kept_head(account) is None
            last = list(audit.chain(uow, account))[-1]
    finally:
        store.close()
    store = open_store(settings)
    try:
        with unit_of_work(store) as uow:
            assert uow.audit.kept_head(account) == (3, last.hash)
    finally:
        store.close()
