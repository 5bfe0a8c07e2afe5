"""Routes of /tables: the scoring tables the connection manages (scopes `tables.read` / `tables.write`)."""

from __future__ import annotations

from typing import Any

from api.blueprint import Blueprint
from api.bulk import bulk_response
from api.context import caller, now, unit_of_work
from api.routes.matches import reader
from api.schemas.common import PageQuery, envelope, list_envelope
from api.schemas.matches import TableRead
from api.schemas.resources import BulkTableAssign, BulkTableOutcome, TableAssign
from api.security import requires
from domain.match.matches import managed_table
from domain.partner import tables

blp = Blueprint("tables", __name__, description="Scoring tables managed by the connection")


@blp.route("/tables", methods=["GET"])
@requires("tables.read")
@blp.arguments(PageQuery, location="query")
@blp.response(200, list_envelope(TableRead))
def list_tables(query: dict[str, Any]) -> dict[str, Any]:
    """The tables the connection manages, each with its active match and queue (its own matches only)."""
    principal = caller()
    with unit_of_work() as uow:
        page, cursor = tables.list_tables(
            uow, account_id=principal.account_id, connection_id=principal.connection_id or "",
            limit=query.get("limit"), cursor=query.get("cursor"),
        )
        read = reader(uow)
        data = [read.table(table, connection_id=principal.connection_id) for table in page]
    return {"data": data, "nextCursor": cursor}


@blp.route("/tables/bulk", methods=["PATCH"])
@requires("tables.write")
@blp.arguments(BulkTableAssign)
@blp.response(200, envelope(BulkTableOutcome), description="every assignment succeeded")
@blp.alt_response(207, schema=envelope(BulkTableOutcome), description="some assignments failed (see results)")
def assign_tables(items: list[tables.TableAssignment]) -> tuple[dict[str, Any], int]:
    """Assign player lists to several tables; per-table results in request order (a failing item alone is undone)."""
    principal = caller()
    with unit_of_work() as uow:
        outcomes = tables.assign_many(uow, account_id=principal.account_id,
                                      connection_id=principal.connection_id or "", items=items, now=now())
        read = reader(uow)
        return bulk_response(outcomes, key_field="tableID", keys=[item.table_id for item in items],
                             present=lambda table: read.table(table, connection_id=principal.connection_id))


@blp.route("/tables/<table_id>", methods=["GET"])
@requires("tables.read")
@blp.response(200, envelope(TableRead))
def get_table(table_id: str) -> dict[str, Any]:
    """A managed table with its active match and queue (the connection's scheduled matches only)."""
    principal = caller()
    with unit_of_work() as uow:
        table = managed_table(uow, account_id=principal.account_id,
                                     connection_id=principal.connection_id or "", table_id=table_id)
        return {"data": reader(uow).table(table, connection_id=principal.connection_id)}


@blp.route("/tables/<table_id>", methods=["PATCH"])
@requires("tables.write")
@blp.arguments(TableAssign)
@blp.response(200, envelope(TableRead))
def assign_table(assignment: tables.ListAssignment, table_id: str) -> dict[str, Any]:
    """Assign one of the connection's player lists to a managed table (`null` clears it)."""
    principal = caller()
    with unit_of_work() as uow:
        table = tables.assign_player_list(
            uow, account_id=principal.account_id, connection_id=principal.connection_id or "", table_id=table_id,
            assignment=assignment, now=now(),
        )
        return {"data": reader(uow).table(table, connection_id=principal.connection_id)}
