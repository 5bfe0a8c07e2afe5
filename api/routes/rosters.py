"""Routes of /rosters: the account's individual and team rosters (scopes `rosters.read` / `.write`)."""

from __future__ import annotations

from typing import Any

from api.blueprint import Blueprint
from api.context import caller, now, unit_of_work
from api.idempotency import idempotent
from api.schemas.common import Deleted, PageQuery, envelope, list_envelope
from api.schemas.resources import RosterCreate, RosterPatch, RosterRead
from api.security import requires
from domain import views
from domain.partner import rosters

blp = Blueprint("rosters", __name__, description="Rosters and their managed backing player lists")


@blp.route("/rosters", methods=["GET"])
@requires("rosters.read")
@blp.arguments(PageQuery, location="query")
@blp.response(200, list_envelope(RosterRead))
def list_rosters(query: dict[str, Any]) -> dict[str, Any]:
    """List the account's rosters, oldest first."""
    return roster_page(query)


def roster_page(query: dict[str, Any]) -> dict[str, Any]:
    """One page of the caller's account rosters (rosters belong to the account: partners and operator alike)."""
    with unit_of_work() as uow:
        page, cursor = rosters.list_rosters(
            uow, account_id=caller().account_id, limit=query.get("limit"), cursor=query.get("cursor")
        )
        return {"data": [views.roster_view(uow, r) for r in page], "nextCursor": cursor}


@blp.route("/rosters", methods=["POST"])
@requires("rosters.write")
@idempotent
@blp.arguments(RosterCreate)
@blp.response(201, envelope(RosterRead))
def create_roster(new: rosters.NewRoster) -> dict[str, Any]:
    """Create a roster and its managed backing player list."""
    with unit_of_work() as uow:
        roster = rosters.create_roster(uow, account_id=caller().account_id, new=new, now=now())
        return {"data": views.roster_view(uow, roster)}


@blp.route("/rosters/<roster_id>", methods=["GET"])
@requires("rosters.read")
@blp.response(200, envelope(RosterRead))
def get_roster(roster_id: str) -> dict[str, Any]:
    """Read a roster with its managed source (`playerListID`, `playerCount`)."""
    with unit_of_work() as uow:
        roster = rosters.get_roster(uow, account_id=caller().account_id, roster_id=roster_id)
        return {"data": views.roster_view(uow, roster)}


@blp.route("/rosters/<roster_id>", methods=["PATCH"])
@requires("rosters.write")
@blp.arguments(RosterPatch)
@blp.response(200, envelope(RosterRead))
def patch_roster(change: rosters.RosterChange, roster_id: str) -> dict[str, Any]:
    """Change a roster; `rosterType` only when equal to the current type."""
    with unit_of_work() as uow:
        roster = rosters.patch_roster(uow, account_id=caller().account_id, roster_id=roster_id, change=change,
                                      now=now())
        return {"data": views.roster_view(uow, roster)}


@blp.route("/rosters/<roster_id>", methods=["DELETE"])
@requires("rosters.write")
@blp.response(200, envelope(Deleted))
def delete_roster(roster_id: str) -> dict[str, Any]:
    """Delete a roster and its backing player list."""
    with unit_of_work() as uow:
        roster = rosters.delete_roster(uow, account_id=caller().account_id, roster_id=roster_id, now=now())
    return {"data": {"id": roster.id, "deleted": True}}
