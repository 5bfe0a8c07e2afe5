"""Operator routes for account resources: broadcasts (and handing them over), player lists, rosters.

Operator key only; the operator acts on the whole account (docs/operator-api.md).
"""

from __future__ import annotations

from typing import Any

from api.blueprint import Blueprint
from api.bulk import bulk_response
from api.context import caller, now, services, unit_of_work
from api.idempotency import idempotent
from api.routes.matches import reader
from api.routes.rosters import roster_page
from api.schemas.common import Deleted, PageQuery, envelope, list_envelope
from api.schemas.matches import TableRead
from api.schemas.resources import (
    Handover,
    ManualPlayer,
    OperatorBroadcastCreate,
    OperatorBroadcastPatch,
    OperatorBroadcastRead,
    OperatorPlayerListCreate,
    OperatorPlayerListRead,
    OperatorRosterCreate,
    OperatorRosterPatch,
    PlayerEdit,
    PlayerImport,
    PlayerImportResultEnvelope,
    RosterRead,
    TableAssign,
)
from api.security import requires
from domain import views
from domain.models import Broadcast
from domain.partner import broadcasts, cancellations, player_lists, rosters, tables
from domain.ports import UnitOfWork

blp = Blueprint("operator_resources", __name__, description="Operator: broadcasts, player lists, rosters")


def _broadcast(uow: UnitOfWork, broadcast: Broadcast) -> dict[str, Any]:
    return {"data": views.broadcast_view(uow, broadcast, internal=True)}


@blp.route("/operator/broadcasts", methods=["GET"])
@requires(operator=True)
@blp.arguments(PageQuery, location="query")
@blp.response(200, list_envelope(OperatorBroadcastRead))
def list_broadcasts(query: dict[str, Any]) -> dict[str, Any]:
    """Every broadcast of the account, with the connection that manages its tables."""
    with unit_of_work() as uow:
        page, cursor = broadcasts.list_broadcasts(
            uow, account_id=caller().account_id, limit=query.get("limit"), cursor=query.get("cursor")
        )
        data = [views.broadcast_view(uow, b, internal=True) for b in page]
    return {"data": data, "nextCursor": cursor}


@blp.route("/operator/broadcasts", methods=["POST"])
@requires(operator=True)
@idempotent
@blp.arguments(OperatorBroadcastCreate)
@blp.response(201, envelope(OperatorBroadcastRead))
def create_broadcast(new: broadcasts.NewBroadcast) -> dict[str, Any]:
    """Create a broadcast; its tables are managed by `managerConnectionID`, else by the house connection."""
    with unit_of_work() as uow:
        broadcast = broadcasts.operator_create_broadcast(uow, account_id=caller().account_id, new=new, now=now())
        return _broadcast(uow, broadcast)


@blp.route("/operator/broadcasts/<broadcast_id>", methods=["PATCH"])
@requires(operator=True)
@blp.arguments(OperatorBroadcastPatch)
@blp.response(200, envelope(OperatorBroadcastRead))
def patch_broadcast(change: broadcasts.BroadcastChange, broadcast_id: str) -> dict[str, Any]:
    """Change a broadcast; `tables` replaces the whole court configuration."""
    with unit_of_work() as uow:
        broadcast = cancellations.operator_patch_broadcast(uow, account_id=caller().account_id,
                                                           broadcast_id=broadcast_id, change=change, now=now(),
                                                           server=services().rules.scoring)
        return _broadcast(uow, broadcast)


@blp.route("/operator/broadcasts/<broadcast_id>", methods=["DELETE"])
@requires(operator=True)
@blp.response(200, envelope(Deleted))
def delete_broadcast(broadcast_id: str) -> dict[str, Any]:
    """Delete a broadcast with its courts and managed output links."""
    with unit_of_work() as uow:
        broadcast = cancellations.operator_delete_broadcast(uow, account_id=caller().account_id,
                                                            broadcast_id=broadcast_id, now=now())
    return {"data": {"id": broadcast.id, "deleted": True}}


@blp.route("/operator/broadcasts/<broadcast_id>/handover", methods=["POST"])
@requires(operator=True)
@blp.arguments(Handover)
@blp.response(200, envelope(OperatorBroadcastRead))
def hand_over(handover: broadcasts.BroadcastHandover, broadcast_id: str) -> dict[str, Any]:
    """Hand a broadcast's tables to another connection of the account."""
    with unit_of_work() as uow:
        broadcast = broadcasts.hand_over(uow, account_id=caller().account_id, broadcast_id=broadcast_id,
                                         handover=handover, now=now())
        return _broadcast(uow, broadcast)


@blp.route("/operator/player-lists", methods=["GET"])
@requires(operator=True)
@blp.arguments(PageQuery, location="query")
@blp.response(200, list_envelope(OperatorPlayerListRead))
def list_player_lists(query: dict[str, Any]) -> dict[str, Any]:
    """Every player list of the account (partner and roster-backed), with every player."""
    with unit_of_work() as uow:
        page, cursor = player_lists.account_lists(
            uow, account_id=caller().account_id, limit=query.get("limit"), cursor=query.get("cursor")
        )
    return {"data": [views.player_list_view(item, internal=True) for item in page], "nextCursor": cursor}


@blp.route("/operator/player-lists", methods=["POST"])
@requires(operator=True)
@idempotent
@blp.arguments(OperatorPlayerListCreate)
@blp.response(201, envelope(OperatorPlayerListRead))
def create_player_list(new: player_lists.NewHouseList) -> dict[str, Any]:
    """Create a club's own player list, owned by the house connection (`externalID` = its `id`)."""
    with unit_of_work() as uow:
        player_list = player_lists.create_house_list(uow, account_id=caller().account_id, new=new, now=now())
    return {"data": views.player_list_view(player_list, internal=True)}


@blp.route("/operator/player-lists/<list_id>/players", methods=["POST"])
@requires(operator=True)
@idempotent
@blp.arguments(ManualPlayer)
@blp.response(201, envelope(OperatorPlayerListRead))
@blp.alt_response(409, response="DEFAULT_ERROR", description="`player_exists`: the externalID is taken in this list.")
def add_manual_player(player: player_lists.NewManualPlayer, list_id: str) -> dict[str, Any]:
    """Add a manual entry to a list (`source: "manual"`); no connection's sync or patch removes it."""
    with unit_of_work() as uow:
        player_list = player_lists.add_manual_player(uow, account_id=caller().account_id, list_id=list_id,
                                                     player=player, now=now())
    return {"data": views.player_list_view(player_list, internal=True)}


@blp.route("/operator/player-lists/<list_id>/players/import", methods=["POST"])
@requires(operator=True)
@idempotent
@blp.arguments(PlayerImport)
@blp.response(200, PlayerImportResultEnvelope, description="Every row is valid (and added unless `dryRun`).")
@blp.alt_response(207, schema=PlayerImportResultEnvelope,
                  description="Some row failed (`player_exists`): nothing is added.")
@blp.alt_response(404, response="DEFAULT_ERROR", description="`not_found`: no player list of this account.")
def import_players(sheet: player_lists.PlayerSheet, list_id: str) -> tuple[dict[str, Any], int]:
    """Import a sheet of players into a list, all or nothing: each row a manual player; a name already in the list
    or in an earlier row (§8a's name rule) is that row's `409 player_exists`. `dryRun` only checks. At most 1,000
    rows (more is 400)."""
    with unit_of_work() as uow:
        outcomes, stored = player_lists.import_players(uow, account_id=caller().account_id, list_id=list_id,
                                                       sheet=sheet, now=now())
    answer, status = bulk_response(outcomes, key_field=None, keys=None, details=True, present=lambda p: p)
    answer["data"]["imported"] = len(outcomes) if stored else 0
    return answer, status


@blp.route("/operator/player-lists/<list_id>/players/<player_id>", methods=["PATCH"])
@requires(operator=True)
@blp.arguments(PlayerEdit)
@blp.response(200, envelope(OperatorPlayerListRead))
@blp.alt_response(404, response="DEFAULT_ERROR", description="`not_found`: no such list of this account, or no "
                  "manual or self-registered player of that `id` in it (mapped players are their connection's).")
@blp.alt_response(409, response="DEFAULT_ERROR", description="`player_exists`: the new name is another player's "
                  "of this list (§8a's name rule).")
def edit_player(edit: player_lists.PlayerChanges, list_id: str, player_id: str) -> dict[str, Any]:
    """Change a manual or self-registered player; the whole list comes back."""
    with unit_of_work() as uow:
        player_list = player_lists.edit_player(uow, account_id=caller().account_id, list_id=list_id,
                                               player_id=player_id, edit=edit, now=now())
    return {"data": views.player_list_view(player_list, internal=True)}


@blp.route("/operator/player-lists/<list_id>/players/<player_id>", methods=["DELETE"])
@requires(operator=True)
@blp.response(200, envelope(OperatorPlayerListRead))
def remove_manual_player(list_id: str, player_id: str) -> dict[str, Any]:
    """Remove a manual or self-registered entry by its `id` (mapped players belong to their connection: 404)."""
    with unit_of_work() as uow:
        player_list = player_lists.remove_manual_player(uow, account_id=caller().account_id, list_id=list_id,
                                                        player_id=player_id, now=now())
    return {"data": views.player_list_view(player_list, internal=True)}


@blp.route("/operator/rosters", methods=["GET"])
@requires(operator=True)
@blp.arguments(PageQuery, location="query")
@blp.response(200, list_envelope(RosterRead))
def list_rosters(query: dict[str, Any]) -> dict[str, Any]:
    """Every roster of the account."""
    return roster_page(query)


@blp.route("/operator/rosters", methods=["POST"])
@requires(operator=True)
@idempotent
@blp.arguments(OperatorRosterCreate)
@blp.response(201, envelope(RosterRead))
@blp.alt_response(404, response="DEFAULT_ERROR", description="`not_found`: `broadcastID` is not a broadcast of "
                  "this account.")
def create_roster(new: rosters.OperatorNewRoster) -> dict[str, Any]:
    """Create a roster and its backing player list; with `broadcastID`, that list becomes the broadcast's default
    player list when it has none."""
    with unit_of_work() as uow:
        roster = rosters.operator_create_roster(uow, account_id=caller().account_id, new=new, now=now())
        return {"data": views.roster_view(uow, roster)}


@blp.route("/operator/rosters/<roster_id>", methods=["PATCH"])
@requires(operator=True)
@blp.arguments(OperatorRosterPatch)
@blp.response(200, envelope(RosterRead))
@blp.alt_response(404, response="DEFAULT_ERROR", description="`not_found`: no roster of this account.")
def patch_roster(change: rosters.RosterChange, roster_id: str) -> dict[str, Any]:
    """Rename a roster or switch its self-registration (individual rosters only)."""
    with unit_of_work() as uow:
        roster = rosters.patch_roster(uow, account_id=caller().account_id, roster_id=roster_id, change=change,
                                      now=now())
        return {"data": views.roster_view(uow, roster)}


@blp.route("/operator/tables/<table_id>", methods=["PATCH"])
@requires(operator=True)
@blp.arguments(TableAssign)
@blp.response(200, envelope(TableRead))
@blp.alt_response(403, response="DEFAULT_ERROR", description="`table_not_managed`: a partner's court is read-only "
                  "here; its connection assigns its lists.")
@blp.alt_response(404, response="DEFAULT_ERROR", description="`not_found`: no table of this account, or no house "
                  "player list with that externalID.")
def assign_table(assignment: tables.ListAssignment, table_id: str) -> dict[str, Any]:
    """Choose which of the club's player lists a court of a house-managed broadcast uses (`null` clears it)."""
    with unit_of_work() as uow:
        table = tables.operator_assign_player_list(uow, account_id=caller().account_id, table_id=table_id,
                                                   assignment=assignment, now=now())
        return {"data": reader(uow).table(table, connection_id=None)}
