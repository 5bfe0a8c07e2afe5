"""Operator routes for players' own links (contract §21): each person's personal link, read and rotated."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from marshmallow import Schema, fields

from api.blueprint import Blueprint
from api.context import caller, now, public_root, unit_of_work
from api.schemas.common import envelope
from api.security import requires
from domain import personal
from domain.models import Link

blp = Blueprint("operator_personal", __name__, description="Operator: players' own links")

Json = dict[str, Any]
LINK = "/operator/broadcasts/<string:broadcast_id>/people/<string:person_id>/link"


class PersonalLinkRead(Schema):
    personID = fields.String(required=True)
    url = fields.String(required=True, metadata={"description": "{root}/me/{key}: the key is the only secret"})
    createdOn = fields.String(required=True)


def _link(action: Callable[..., Link], broadcast_id: str, person_id: str) -> Json:
    with unit_of_work() as uow:
        link = action(uow, account_id=caller().account_id, broadcast_id=broadcast_id, person_id=person_id,
                      now=now())
        return {"data": personal.personal_view(link, root=public_root())}


@blp.route(LINK, methods=["GET"])
@requires(operator=True)
@blp.response(200, envelope(PersonalLinkRead))
@blp.alt_response(404, response="DEFAULT_ERROR")
def get_personal_link(broadcast_id: str, person_id: str) -> Json:
    """The person's own link (made on first read): their page of matches, check-in and results."""
    return _link(personal.personal_link, broadcast_id, person_id)


@blp.route(LINK + "/rotate", methods=["POST"])
@requires(operator=True)
@blp.response(200, envelope(PersonalLinkRead))
@blp.alt_response(404, response="DEFAULT_ERROR")
def rotate_personal_link(broadcast_id: str, person_id: str) -> Json:
    """Give the person a new link; the old one answers 404 at once."""
    return _link(personal.rotate_personal_link, broadcast_id, person_id)
