"""Operator routes for draws and the court pool (contract §13, operator key only; see docs/draws.md)."""

from __future__ import annotations

from typing import Any

from api.blueprint import Blueprint
from api.context import caller, now, services, unit_of_work
from api.idempotency import idempotent
from api.routes.matches import rules
from api.schemas.common import DeletedByID, PageQuery, envelope, list_envelope
from api.schemas.draws import DrawCreateBody, DrawQuery, DrawRead, DrawReplaceBody, PoolMatchRead
from api.security import requires
from domain.draws import service as draws
from domain.draws.service import NewDraw, NewEntry

blp = Blueprint("operator_draws", __name__, description="Operator: draws and the court pool")

Json = dict[str, Any]


def _account() -> str:
    return caller().account_id


@blp.route("/operator/draws", methods=["POST"])
@requires(operator=True)
@idempotent
@blp.arguments(DrawCreateBody)
@blp.response(201, envelope(DrawRead), as_built=True)
@blp.alt_response(400, response="DEFAULT_ERROR", description="validation_failed (the same person twice, seeds, "
                                                             "group sizes, tableIDs), unknown_player.")
@blp.alt_response(404, response="DEFAULT_ERROR", description="Unknown broadcast.")
@blp.alt_response(409, response="DEFAULT_ERROR", description="draw_exists: the broadcast has a draw of that name.")
def create_draw(body: NewDraw) -> tuple[Json, int]:
    """Make a draw in one of its formats (round robin, knockout, groups, Swiss, double elimination and the club
    day's); every draw match whose entries are known gets its real match (a house match) in the court pool
    (contract §13)."""
    with unit_of_work() as uow:
        record = draws.create_draw(uow, account_id=_account(), new=body, now=now(),
                                   server=rules().scoring)
        return {"data": draws.draw_view(uow, record)}, 201


@blp.route("/operator/draws/preview", methods=["POST"])
@requires(operator=True)
@blp.arguments(DrawCreateBody)
@blp.response(200, envelope(DrawRead), as_built=True)
@blp.alt_response(400, response="DEFAULT_ERROR", description="As creating the draw would answer.")
@blp.alt_response(404, response="DEFAULT_ERROR", description="Unknown broadcast.")
@blp.alt_response(409, response="DEFAULT_ERROR", description="draw_exists: the broadcast has a draw of that name.")
def preview_draw(body: NewDraw) -> Json:
    """The draw that `POST /operator/draws` with this body would make (the same checks; the same placement for the
    same `randomSeed`), stored nowhere: no draw, no match, no audit entry. Its IDs are never kept."""
    with unit_of_work() as uow:
        return {"data": draws.preview_draw(uow, account_id=_account(), new=body, now=now())}


@blp.route("/operator/draws", methods=["GET"])
@requires(operator=True)
@blp.arguments(DrawQuery, location="query")
@blp.response(200, list_envelope(DrawRead), as_built=True)
@blp.alt_response(404, response="DEFAULT_ERROR", description="Unknown broadcast.")
def list_draws(query: Json) -> Json:
    """The broadcast's draws, oldest first."""
    with unit_of_work() as uow:
        found, cursor = draws.draws_page(uow, account_id=_account(), broadcast_id=query["broadcastID"],
                                         limit=query.get("limit"), cursor=query.get("cursor"))
        return {"data": [draws.draw_view(uow, d) for d in found], "nextCursor": cursor}


@blp.route("/operator/draws/<string:draw_id>", methods=["GET"])
@requires(operator=True)
@blp.response(200, envelope(DrawRead), as_built=True)
@blp.alt_response(404, response="DEFAULT_ERROR")
def get_draw(draw_id: str) -> Json:
    """One draw as it stands: entries, groups with standings, rounds of draw matches, placings."""
    with unit_of_work() as uow:
        return {"data": draws.draw_view(uow, draws.get_draw(uow, account_id=_account(), draw_id=draw_id))}


@blp.route("/operator/draws/<string:draw_id>", methods=["DELETE"])
@requires(operator=True)
@blp.response(200, envelope(DeletedByID))
@blp.alt_response(404, response="DEFAULT_ERROR")
@blp.alt_response(409, response="DEFAULT_ERROR", description="draw_started: one of its matches has started.")
def delete_draw(draw_id: str) -> Json:
    """Delete a draw none of whose matches has started; its pending matches are cancelled."""
    with unit_of_work() as uow:
        record = draws.delete_draw(uow, account_id=_account(), draw_id=draw_id, now=now())
    return {"data": {"id": record.id, "deleted": True}}


@blp.route("/operator/draws/<string:draw_id>/entries/<string:entry_id>/withdraw", methods=["POST"])
@requires(operator=True)
@blp.response(200, envelope(DrawRead), as_built=True)
@blp.alt_response(404, response="DEFAULT_ERROR")
def withdraw_entry(draw_id: str, entry_id: str) -> Json:
    """The entry withdraws: each of its matches not yet complete is a walkover for the opponent, as it becomes
    ready; in round robin and Swiss its played results stand. An entry already withdrawn is answered with the
    draw as it is."""
    with unit_of_work() as uow:
        record = draws.withdraw_entry(uow, account_id=_account(), draw_id=draw_id, entry_id=entry_id, now=now(),
                                      rules=rules())
        return {"data": draws.draw_view(uow, record)}


@blp.route("/operator/draws/<string:draw_id>/entries/<string:entry_id>/replace", methods=["POST"])
@requires(operator=True)
@blp.arguments(DrawReplaceBody)
@blp.response(200, envelope(DrawRead), as_built=True)
@blp.alt_response(400, response="DEFAULT_ERROR", description="validation_failed (a person already in the draw, "
                                                             "another number of players), unknown_player.")
@blp.alt_response(404, response="DEFAULT_ERROR")
@blp.alt_response(409, response="DEFAULT_ERROR", description="entry_not_withdrawn; downstream_started: a match "
                                                             "it would change has started (nothing changed).")
def replace_entry(body: NewEntry, draw_id: str, entry_id: str) -> Json:
    """A withdrawn entry's place is taken by a new entry (a lucky loser or reserve; contract §22): the walkovers
    given for the withdrawn entry whose next match has not started are undone, back to ready with the new entry."""
    with unit_of_work() as uow:
        record = draws.replace_entry(uow, account_id=_account(), draw_id=draw_id, entry_id=entry_id, entry=body,
                                     now=now(), rules=rules())
        return {"data": draws.draw_view(uow, record)}


@blp.route("/operator/broadcasts/<string:broadcast_id>/pool", methods=["GET"])
@requires(operator=True)
@blp.arguments(PageQuery, location="query")
@blp.response(200, list_envelope(PoolMatchRead))
@blp.alt_response(404, response="DEFAULT_ERROR")
def broadcast_pool(query: Json, broadcast_id: str) -> Json:
    """The court pool: draw matches waiting for any free court, in the order start-next takes them (earlier
    round, then the time it became ready, then draw creation, then number), with `blockedBy` when the start rules
    hold one back."""
    with unit_of_work() as uow:
        settings = services().settings
        data, cursor = draws.broadcast_pool(uow, account_id=_account(), broadcast_id=broadcast_id, now=now(),
                                            default_minutes=settings.default_match_minutes,
                                            limit=query.get("limit"), cursor=query.get("cursor"))
    return {"data": data, "nextCursor": cursor}
