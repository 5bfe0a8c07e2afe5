"""Routes of /teams: the connection's teams, each backed by a team roster (`teams.*` scopes)."""

from __future__ import annotations

from typing import Any

from api.blueprint import Blueprint
from api.context import caller, now, unit_of_work
from api.schemas.common import PageQuery, envelope, list_envelope
from api.schemas.resources import TeamPatch, TeamRead, TeamSync
from api.security import requires
from domain import views
from domain.partner import player_lists

blp = Blueprint("teams", __name__, description="Teams synchronized from the partner system")


@blp.route("/teams", methods=["GET"])
@requires("teams.read")
@blp.arguments(PageQuery, location="query")
@blp.response(200, list_envelope(TeamRead))
def list_teams(query: dict[str, Any]) -> dict[str, Any]:
    """The connection's teams, oldest first."""
    with unit_of_work() as uow:
        page, cursor = player_lists.list_teams(
            uow, connection_id=caller().connection_id or "", limit=query.get("limit"), cursor=query.get("cursor")
        )
        return {"data": [views.team_view(uow, team) for team in page], "nextCursor": cursor}


@blp.route("/teams", methods=["PUT"])
@requires("teams.write")
@blp.arguments(TeamSync)
@blp.response(200, envelope(TeamRead))
def sync_team(sync: player_lists.SyncTeam) -> dict[str, Any]:
    """Create or replace a team by `externalID`; its backing team roster follows name, logo and colour."""
    principal = caller()
    with unit_of_work() as uow:
        team = player_lists.sync_team(
            uow, account_id=principal.account_id, connection_id=principal.connection_id or "", sync=sync, now=now(),
        )
        return {"data": views.team_view(uow, team)}


@blp.route("/teams/<external_id>", methods=["GET"])
@requires("teams.read")
@blp.response(200, envelope(TeamRead))
def get_team(external_id: str) -> dict[str, Any]:
    """Read one of the connection's teams with its players and roster."""
    with unit_of_work() as uow:
        team = player_lists.own_team(uow, connection_id=caller().connection_id or "", external_id=external_id)
        return {"data": views.team_view(uow, team)}


@blp.route("/teams/<external_id>", methods=["PATCH"])
@requires("teams.write")
@blp.arguments(TeamPatch)
@blp.response(200, envelope(TeamRead))
def patch_team(change: player_lists.TeamChange, external_id: str) -> dict[str, Any]:
    """Upsert or remove mapped players, or change name, jersey colour or logo; returns the whole team."""
    with unit_of_work() as uow:
        team = player_lists.patch_team(
            uow, connection_id=caller().connection_id or "", external_id=external_id, change=change, now=now()
        )
        return {"data": views.team_view(uow, team)}
