"""Operator routes for broadcast outputs (contract §10): managed links, rotation and the built-in designs."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields

from api.blueprint import Blueprint
from api.context import caller, now, public_root, unit_of_work
from api.schemas.common import PageQuery, Vocabulary, envelope, list_envelope
from api.security import requires
from domain import views
from domain.models import OutputKind
from domain.public import outputs as svc

blp = Blueprint("operator_outputs", __name__, description="Operator: scoreboard outputs and venue displays")

Json = dict[str, Any]


class OutputRead(Schema):
    id = fields.String(required=True)
    kind = Vocabulary(OutputKind, required=True)
    tableID = fields.String(required=True, allow_none=True)
    tableLabel = fields.String(required=True, allow_none=True)
    scoreboardID = fields.String(required=True, allow_none=True)
    design = fields.String(required=True, metadata={"enum": list(svc.DESIGNS)})
    url = fields.String(required=True, metadata={"description": "the public page; its key is the only secret"})
    createdOn = fields.String(required=True)


class ScoreboardRead(Schema):
    id = fields.String(required=True)
    description = fields.String(required=True)




@blp.route("/operator/broadcasts/<string:broadcast_id>/outputs", methods=["GET"])
@requires(operator=True)
@blp.arguments(PageQuery, location="query")
@blp.response(200, list_envelope(OutputRead))
def list_outputs(query: Json, broadcast_id: str) -> Json:
    """The broadcast's managed output links: one per court x scoreboard ID, then its venue display."""
    with unit_of_work() as uow:
        found, cursor = svc.outputs_page(uow, account_id=caller().account_id, broadcast_id=broadcast_id,
                                         limit=query.get("limit"), cursor=query.get("cursor"))
        return {"data": [views.output_view(uow, o, root=public_root()) for o in found], "nextCursor": cursor}


@blp.route("/operator/outputs/<string:output_id>/rotate", methods=["POST"])
@requires(operator=True)
@blp.response(200, envelope(OutputRead))
@blp.alt_response(404, response="DEFAULT_ERROR")
def rotate_output(output_id: str) -> Json:
    """Give the output a new link; the old one answers 404 at once."""
    with unit_of_work() as uow:
        output = svc.rotate_output(uow, account_id=caller().account_id, output_id=output_id, now=now())
        return {"data": views.output_view(uow, output, root=public_root())}


@blp.route("/operator/scoreboards", methods=["GET"])
@requires(operator=True)
@blp.arguments(PageQuery, location="query")
@blp.response(200, list_envelope(ScoreboardRead))
def list_scoreboards(query: Json) -> Json:
    """The built-in designs a scoreboard ID can name (any other ID renders `classic`)."""
    designs, cursor = svc.designs_page(limit=query.get("limit"), cursor=query.get("cursor"))
    return {"data": designs, "nextCursor": cursor}
