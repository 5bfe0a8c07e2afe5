"""The PostgreSQL schema covers the storage port: every repository of the unit of work has its table."""

from __future__ import annotations

from storage import audit_log, pg_schema
from storage.repository import StoreUnitOfWork, _Repo


def test_every_repository_of_the_unit_of_work_has_a_postgres_table() -> None:
    tables = {value.table for value in vars(StoreUnitOfWork).values() if isinstance(value, _Repo)}
    tables |= {audit_log.TABLE, audit_log.HEADS}  # the audit log's own adapter (storage/audit_log.py)
    assert tables == set(pg_schema.TABLES) == set(pg_schema.COLUMNS)
