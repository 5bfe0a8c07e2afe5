"""Routes of /player-lists: the connection's own lists, keyed by its externalIDs (`player_lists.*` scopes)."""

from __future__ import annotations

from typing import Any

from api.blueprint import Blueprint
from api.context import caller, now, unit_of_work
from api.schemas.common import PageQuery, envelope, list_envelope
from api.schemas.resources import PlayerListPatch, PlayerListRead, PlayerListSync
from api.security import requires
from domain import views
from domain.partner import player_lists

blp = Blueprint("player_lists", __name__, description="Player lists synchronized from the partner system")


@blp.route("/player-lists", methods=["GET"])
@requires("player_lists.read")
@blp.arguments(PageQuery, location="query")
@blp.response(200, list_envelope(PlayerListRead))
def list_player_lists(query: dict[str, Any]) -> dict[str, Any]:
    """The connection's player lists: the whole set without `limit`/`cursor`, else one page."""
    with unit_of_work() as uow:
        page, cursor = player_lists.list_lists(
            uow, connection_id=caller().connection_id or "", limit=query.get("limit"), cursor=query.get("cursor")
        )
    return {"data": [views.player_list_view(item) for item in page], "nextCursor": cursor}


@blp.route("/player-lists", methods=["PUT"])
@requires("player_lists.write")
@blp.arguments(PlayerListSync)
@blp.response(200, envelope(PlayerListRead))
def sync_player_list(sync: player_lists.SyncPlayerList) -> dict[str, Any]:
    """Create or replace a list by `externalID`; its mapped players become exactly `players`."""
    principal = caller()
    with unit_of_work() as uow:
        player_list = player_lists.sync_list(
            uow, account_id=principal.account_id, connection_id=principal.connection_id or "", sync=sync, now=now(),
        )
    return {"data": views.player_list_view(player_list)}


@blp.route("/player-lists/<external_id>", methods=["GET"])
@requires("player_lists.read")
@blp.response(200, envelope(PlayerListRead))
def get_player_list(external_id: str) -> dict[str, Any]:
    """Read one of the connection's lists with its players."""
    with unit_of_work() as uow:
        player_list = player_lists.own_list(uow, connection_id=caller().connection_id or "",
                                            external_id=external_id)
    return {"data": views.player_list_view(player_list)}


@blp.route("/player-lists/<external_id>", methods=["PATCH"])
@requires("player_lists.write")
@blp.arguments(PlayerListPatch)
@blp.response(200, envelope(PlayerListRead))
def patch_player_list(change: player_lists.PlayerListChange, external_id: str) -> dict[str, Any]:
    """Upsert or remove mapped players, rename or re-describe; returns the whole list."""
    with unit_of_work() as uow:
        player_list = player_lists.patch_list(
            uow, connection_id=caller().connection_id or "", external_id=external_id, change=change, now=now()
        )
    return {"data": views.player_list_view(player_list)}
