"""Routes of /broadcasts: the account's broadcasts and their courts (scopes `broadcasts.read` / `.write`)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from api.blueprint import Blueprint
from api.context import caller, now, services, unit_of_work
from api.idempotency import idempotent
from api.schemas.common import Deleted, PageQuery, envelope, list_envelope
from api.schemas.resources import BroadcastCreate, BroadcastPatch, BroadcastRead
from api.security import requires
from domain import views
from domain.partner import broadcasts

blp = Blueprint("broadcasts", __name__, description="Broadcasts and their courts")


@blp.route("/broadcasts", methods=["GET"])
@requires("broadcasts.read")
@blp.arguments(PageQuery, location="query")
@blp.response(200, list_envelope(BroadcastRead))
def list_broadcasts(query: dict[str, Any]) -> dict[str, Any]:
    """List the account's broadcasts, oldest first."""
    with unit_of_work() as uow:
        page, cursor = broadcasts.list_broadcasts(
            uow, account_id=caller().account_id, limit=query.get("limit"), cursor=query.get("cursor")
        )
        return {"data": [views.broadcast_view(uow, b) for b in page], "nextCursor": cursor}


@blp.route("/broadcasts", methods=["POST"])
@requires("broadcasts.write")
@idempotent
@blp.arguments(BroadcastCreate)
@blp.response(201, envelope(BroadcastRead))
def create_broadcast(new: broadcasts.NewBroadcast) -> dict[str, Any]:
    """Create a broadcast with 1 to 50 courts; the calling connection manages its tables."""
    principal = caller()
    with unit_of_work() as uow:
        broadcast = broadcasts.create_broadcast(
            uow, account_id=principal.account_id, new=replace(new, manager_connection_id=principal.connection_id),
            now=now(),
        )
        return {"data": views.broadcast_view(uow, broadcast)}


@blp.route("/broadcasts/<broadcast_id>", methods=["GET"])
@requires("broadcasts.read")
@blp.response(200, envelope(BroadcastRead))
def get_broadcast(broadcast_id: str) -> dict[str, Any]:
    """Read a broadcast with its courts and their outputs."""
    with unit_of_work() as uow:
        broadcast = broadcasts.get_broadcast(uow, account_id=caller().account_id, broadcast_id=broadcast_id)
        return {"data": views.broadcast_view(uow, broadcast)}


@blp.route("/broadcasts/<broadcast_id>", methods=["PATCH"])
@requires("broadcasts.write")
@blp.arguments(BroadcastPatch)
@blp.response(200, envelope(BroadcastRead))
def patch_broadcast(change: broadcasts.BroadcastChange, broadcast_id: str) -> dict[str, Any]:
    """Change a broadcast; `tables` replaces the whole court configuration."""
    with unit_of_work() as uow:
        broadcast = broadcasts.patch_broadcast(
            uow, account_id=caller().account_id, broadcast_id=broadcast_id, change=change, now=now(),
            server=services().rules.scoring, connection_id=caller().connection_id,
        )
        return {"data": views.broadcast_view(uow, broadcast)}


@blp.route("/broadcasts/<broadcast_id>", methods=["DELETE"])
@requires("broadcasts.write")
@blp.response(200, envelope(Deleted))
def delete_broadcast(broadcast_id: str) -> dict[str, Any]:
    """Delete a broadcast, its courts and its managed output links."""
    with unit_of_work() as uow:
        broadcast = broadcasts.delete_broadcast(uow, account_id=caller().account_id, broadcast_id=broadcast_id,
                                                connection_id=caller().connection_id, now=now())
    return {"data": {"id": broadcast.id, "deleted": True}}
