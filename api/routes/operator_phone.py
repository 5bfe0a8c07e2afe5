"""Operator routes for the phone pages (contract §11): court scorer links and roster sign-up links."""

from __future__ import annotations

from typing import Any

from flask import request
from marshmallow import Schema, fields

from api.blueprint import Blueprint
from api.context import caller, now, services, unit_of_work
from api.schemas.common import envelope
from api.security import requires
from domain import registration, scorer, views

blp = Blueprint("operator_phone", __name__, description="Operator: court scorer links and roster sign-up links")

Json = dict[str, Any]


def _root() -> str:
    """Where phones reach this server: `COURTSIDE_PUBLIC_URL` (set by `up --host 0.0.0.0`), else this request's."""
    return services().settings.public_url or request.host_url


class ScorerLinkRead(Schema):
    tableID = fields.String(required=True)
    tableLabel = fields.String(required=True, allow_none=True)
    url = fields.String(required=True, allow_none=True,
                        metadata={"description": "the scorer page; its key is the only secret; null once revoked"})
    createdOn = fields.String(required=True)


class RegistrationLinkRead(Schema):
    rosterID = fields.String(required=True)
    rosterName = fields.String(required=True, allow_none=True)
    enabled = fields.Boolean(required=True, metadata={"description": "the roster's selfRegistrationEnabled"})
    url = fields.String(required=True, allow_none=True, metadata={"description": "the public sign-up page"})
    signUps = fields.Integer(required=True)
    createdOn = fields.String(required=True)



@blp.route("/operator/tables/<string:table_id>/scorer", methods=["GET"])
@requires(operator=True)
@blp.response(200, envelope(ScorerLinkRead))
@blp.alt_response(404, response="DEFAULT_ERROR")
def get_scorer_link(table_id: str) -> Json:
    """The table's scorer link (made on first read; `url` is null once revoked)."""
    with unit_of_work() as uow:
        link = scorer.scorer_link(uow, account_id=caller().account_id, table_id=table_id, now=now())
        return {"data": views.scorer_link_view(uow, link, root=_root())}


@blp.route("/operator/tables/<string:table_id>/scorer/rotate", methods=["POST"])
@requires(operator=True)
@blp.response(200, envelope(ScorerLinkRead))
@blp.alt_response(404, response="DEFAULT_ERROR")
def rotate_scorer_link(table_id: str) -> Json:
    """Give the table a new scorer link (also after a revoke); the old one answers 404 at once."""
    with unit_of_work() as uow:
        link = scorer.rotate_scorer_link(uow, account_id=caller().account_id, table_id=table_id, now=now())
        return {"data": views.scorer_link_view(uow, link, root=_root())}


@blp.route("/operator/tables/<string:table_id>/scorer", methods=["DELETE"])
@requires(operator=True)
@blp.response(200, envelope(ScorerLinkRead))
@blp.alt_response(404, response="DEFAULT_ERROR")
def revoke_scorer_link(table_id: str) -> Json:
    """Revoke the table's scorer link: it answers 404 at once; rotate to make a new one."""
    with unit_of_work() as uow:
        link = scorer.revoke_scorer_link(uow, account_id=caller().account_id, table_id=table_id, now=now())
        return {"data": views.scorer_link_view(uow, link, root=_root())}


@blp.route("/operator/rosters/<string:roster_id>/registration", methods=["GET"])
@requires(operator=True)
@blp.response(200, envelope(RegistrationLinkRead))
@blp.alt_response(404, response="DEFAULT_ERROR")
@blp.alt_response(409, description="roster_not_individual")
def get_registration_link(roster_id: str) -> Json:
    """The individual roster's sign-up link (made on first read), whether it is open, and how many signed up."""
    with unit_of_work() as uow:
        link = registration.registration_link(uow, account_id=caller().account_id, roster_id=roster_id, now=now())
        return {"data": views.registration_link_view(uow, link, root=_root())}


@blp.route("/operator/rosters/<string:roster_id>/registration/rotate", methods=["POST"])
@requires(operator=True)
@blp.response(200, envelope(RegistrationLinkRead))
@blp.alt_response(404, response="DEFAULT_ERROR")
@blp.alt_response(409, description="roster_not_individual")
def rotate_registration_link(roster_id: str) -> Json:
    """Give the roster a new sign-up link; the old one answers 404 at once."""
    with unit_of_work() as uow:
        link = registration.rotate_registration_link(uow, account_id=caller().account_id, roster_id=roster_id,
                                                     now=now())
        return {"data": views.registration_link_view(uow, link, root=_root())}
