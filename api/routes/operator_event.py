"""Operator routes for the public event page (contract §15): the broadcast's one link for players and spectators."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from marshmallow import Schema, fields

from api.blueprint import Blueprint
from api.context import caller, now, public_root, unit_of_work
from api.schemas.common import envelope
from api.security import requires
from domain import views
from domain.models import Link
from domain.public import event_page

blp = Blueprint("operator_event", __name__, description="Operator: the public event page of a broadcast")

Json = dict[str, Any]
EVENT_PAGE = "/operator/broadcasts/<string:broadcast_id>/event-page"


class EventPageRead(Schema):
    broadcastID = fields.String(required=True)
    enabled = fields.Boolean(required=True, metadata={"description": "the page answers 404 while false"})
    url = fields.String(required=True, metadata={"description": "{root}/event/{key}: the key is the only secret"})
    createdOn = fields.String(required=True)


def _link(action: Callable[..., Link], broadcast_id: str) -> Json:
    with unit_of_work() as uow:
        link = action(uow, account_id=caller().account_id, broadcast_id=broadcast_id, now=now())
        return {"data": views.event_page_view(link, root=public_root())}


def _route(rule: str, method: str) -> Callable[[Callable[..., Json]], Callable[..., Json]]:
    def declare(view: Callable[..., Json]) -> Callable[..., Json]:
        view = blp.alt_response(404, response="DEFAULT_ERROR")(view)
        view = blp.response(200, envelope(EventPageRead))(view)
        return blp.route(rule, methods=[method])(requires(operator=True)(view))

    return declare


@_route(EVENT_PAGE, "GET")
def get_event_page(broadcast_id: str) -> Json:
    """The broadcast's event-page link (made, closed, on first read) and whether it is open."""
    return _link(event_page.event_link, broadcast_id)


@_route(EVENT_PAGE + "/enable", "POST")
def enable_event_page(broadcast_id: str) -> Json:
    """Open the event page (the same link as before it was closed); an open page is answered as it is."""
    return _link(event_page.enable_event_page, broadcast_id)


@_route(EVENT_PAGE + "/disable", "POST")
def disable_event_page(broadcast_id: str) -> Json:
    """Close the event page: its link answers 404 at once; enabling again brings the same link back. A closed
    page is answered as it is."""
    return _link(event_page.disable_event_page, broadcast_id)


@_route(EVENT_PAGE + "/rotate", "POST")
def rotate_event_page(broadcast_id: str) -> Json:
    """Give the event page a new link; the old one answers 404 at once."""
    return _link(event_page.rotate_event_page, broadcast_id)
