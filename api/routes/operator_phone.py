"""Operator routes for the phone pages (contract §11): court scorer links and roster sign-up links."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from marshmallow import Schema, fields

from api.blueprint import Blueprint
from api.context import caller, now, public_root, unit_of_work
from api.schemas.common import envelope
from api.security import requires
from domain import views
from domain.event_day import registration
from domain.match import scorer

blp = Blueprint("operator_phone", __name__, description="Operator: court scorer links and roster sign-up links")

Json = dict[str, Any]




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


View = Callable[..., Json]


def _link_route(rule: str, method: str, read: type[Schema], *conflicts: str) -> Callable[[View], View]:
    """Declare one phone-link route: the operator key, `200` with the link (`read`), `404`, and each `409` code."""

    def declare(view: View) -> View:
        for code in conflicts:
            view = blp.alt_response(409, description=code)(view)
        view = blp.alt_response(404, response="DEFAULT_ERROR")(view)
        view = blp.response(200, envelope(read))(view)
        return blp.route(rule, methods=[method])(requires(operator=True)(view))

    return declare


def _link(action: Callable[..., Any], show: Callable[..., Json], **target: str) -> Json:
    """Run one link action (read, rotate or revoke) of the caller's account in a unit of work; its view."""
    with unit_of_work() as uow:
        link = action(uow, account_id=caller().account_id, now=now(), **target)
        return {"data": show(uow, link, root=public_root())}


SCORER = "/operator/tables/<string:table_id>/scorer"
REGISTRATION = "/operator/rosters/<string:roster_id>/registration"


@_link_route(SCORER, "GET", ScorerLinkRead)
def get_scorer_link(table_id: str) -> Json:
    """The table's scorer link (made on first read; `url` is null once revoked)."""
    return _link(scorer.scorer_link, views.scorer_link_view, table_id=table_id)


@_link_route(SCORER + "/rotate", "POST", ScorerLinkRead)
def rotate_scorer_link(table_id: str) -> Json:
    """Give the table a new scorer link (also after a revoke); the old one answers 404 at once."""
    return _link(scorer.rotate_scorer_link, views.scorer_link_view, table_id=table_id)


@_link_route(SCORER, "DELETE", ScorerLinkRead)
def revoke_scorer_link(table_id: str) -> Json:
    """Revoke the table's scorer link: it answers 404 at once; rotate to make a new one. A revoked link is
    answered as it is."""
    return _link(scorer.revoke_scorer_link, views.scorer_link_view, table_id=table_id)


@_link_route(REGISTRATION, "GET", RegistrationLinkRead, "roster_not_individual")
def get_registration_link(roster_id: str) -> Json:
    """The individual roster's sign-up link (made on first read), whether it is open, and how many signed up."""
    return _link(registration.registration_link, views.registration_link_view, roster_id=roster_id)


@_link_route(REGISTRATION + "/rotate", "POST", RegistrationLinkRead, "roster_not_individual")
def rotate_registration_link(roster_id: str) -> Json:
    """Give the roster a new sign-up link; the old one answers 404 at once."""
    return _link(registration.rotate_registration_link, views.registration_link_view, roster_id=roster_id)
