"""Scoring tables as a partner sees them: the courts it manages, and which of its player lists each one uses.

A table is managed by the connection that created its broadcast (or was handed it by the operator). A table of
the account that the caller does not manage is `403 table_not_managed`; one not in the account is `404`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from domain.access import audit
from domain.access.audit_records import AuditAction, TargetType
from domain.access.auth import house_connection
from domain.bulk import check_unique, each
from domain.clock import iso
from domain.errors import DomainError
from domain.match.matches import managed_table  # one rule for reads, assignments and match queuing
from domain.models import Table
from domain.pagination import paginate
from domain.partner.player_lists import own_list
from domain.ports import UnitOfWork


@dataclass(frozen=True)
class ListAssignment:
    """A validated `PATCH /tables/{tableID}` body: the player list the table uses (`None` clears it)."""

    player_list_external_id: str | None


@dataclass(frozen=True)
class TableAssignment(ListAssignment):
    """One item of `PATCH /tables/bulk`: a table and the player list it uses."""

    table_id: str


def list_tables(
    uow: UnitOfWork, *, account_id: str, connection_id: str, limit: int | None, cursor: str | None
) -> tuple[list[Table], str | None]:
    """The tables the caller manages, in creation order."""
    tables = [t for t in uow.tables.find(manager_connection_id=connection_id) if t.account_id == account_id]
    return paginate(tables, seq=lambda item: item.seq, limit=limit, cursor=cursor)


def assign_player_list(
    uow: UnitOfWork, *, account_id: str, connection_id: str, table_id: str, assignment: ListAssignment,
    now: datetime,
) -> Table:
    """Point a managed table at one of the caller's player lists (404 otherwise), or clear it with None."""
    table = managed_table(uow, account_id=account_id, connection_id=connection_id, table_id=table_id)
    player_list_external_id = assignment.player_list_external_id
    if player_list_external_id is not None:
        own_list(uow, connection_id=connection_id, external_id=player_list_external_id)
    before = table.player_list_external_id
    table.player_list_external_id, table.updated_on = player_list_external_id, iso(now)
    if before != player_list_external_id:  # a court of a broadcast (§16, with §18-§22)
        audit.record(uow, account_id=account_id, action=AuditAction.COURT_CHANGED, target=(TargetType.TABLE, table.id),
                     before={"playerListExternalID": before}, after={"playerListExternalID": player_list_external_id},
                     now=now)
    return uow.tables.put(table)


def operator_assign_player_list(
    uow: UnitOfWork, *, account_id: str, table_id: str, assignment: ListAssignment, now: datetime,
) -> Table:
    """The console's court player list (contract §9a): a court of a house-managed broadcast takes one of the
    house connection's lists; a partner's court is read-only here (`403 table_not_managed`), other IDs 404."""
    house = house_connection(uow, account_id=account_id, now=now)
    return assign_player_list(uow, account_id=account_id, connection_id=house.id, table_id=table_id,
                              assignment=assignment, now=now)


def assign_many(
    uow: UnitOfWork, *, account_id: str, connection_id: str, items: Sequence[TableAssignment], now: datetime
) -> list[Table | DomainError]:
    """Bulk assignment, in request order: each item applies or fails alone (`domain.bulk.each`).

    A tableID named twice makes the whole batch `400 duplicate_table` before anything is applied.
    """
    check_unique([item.table_id for item in items], field="tables", member="tableID", code="duplicate_table",
                 message="Table '{key}' appears more than once.")
    return each(uow, items, lambda item: assign_player_list(
        uow, account_id=account_id, connection_id=connection_id, table_id=item.table_id, assignment=item, now=now,
    ))
