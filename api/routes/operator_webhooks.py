"""Operator routes over every webhook delivery of the account (operator key only)."""

from __future__ import annotations

from typing import Any

from marshmallow import fields

from api.blueprint import Blueprint
from api.context import caller, now, services, unit_of_work
from api.routes.webhooks import EVENT_ID_PARAMETER, attempt_now
from api.schemas.common import Strict, envelope, list_envelope
from api.schemas.webhooks import OperatorDeliveryQuery, OperatorDeliverySchema
from api.security import requires
from domain import views, webhooks

blp = Blueprint("operator_webhooks", __name__, description="Operator: webhook deliveries")


@blp.route("/operator/webhooks", methods=["GET"])
@requires(operator=True)
@blp.arguments(OperatorDeliveryQuery, location="query")
@blp.response(200, list_envelope(OperatorDeliverySchema))
def list_deliveries(query: dict[str, Any]) -> dict[str, Any]:
    """Every delivery of the account, newest first (filters `status`, `eventType`, `connectionID`)."""
    with unit_of_work() as uow:
        page, cursor = webhooks.list_deliveries(
            uow, account_id=caller().account_id, connection_id=query.get("connectionID"),
            status=query.get("status"), event_type=query.get("eventType"), limit=query.get("limit"),
            cursor=query.get("cursor"),
        )
    return {"data": [views.delivery_view(delivery, operator=True) for delivery in page], "nextCursor": cursor}


@blp.route("/operator/webhooks/<string:event_id>", methods=["GET"], parameters=[EVENT_ID_PARAMETER])
@requires(operator=True)
@blp.response(200, envelope(OperatorDeliverySchema))
@blp.alt_response(404, response="DEFAULT_ERROR")
def get_delivery(event_id: str) -> dict[str, Any]:
    """One delivery with its connection and every attempt."""
    with unit_of_work() as uow:
        delivery = webhooks.get_delivery(uow, event_id=event_id, account_id=caller().account_id)
    return {"data": views.delivery_view(delivery, operator=True)}


@blp.route("/operator/webhooks/<string:event_id>/retry", methods=["POST"], parameters=[EVENT_ID_PARAMETER])
@requires(operator=True)
@blp.response(200, envelope(OperatorDeliverySchema))
@blp.alt_response(404, response="DEFAULT_ERROR")
@blp.alt_response(409, response="DEFAULT_ERROR")
def retry_delivery(event_id: str) -> dict[str, Any]:
    """Attempt the delivery again now with its connection's current secret; 200 whatever the outcome."""
    with unit_of_work() as uow:
        claim = webhooks.begin_retry(uow, event_id=event_id, account_id=caller().account_id, connection_id=None,
                                     guard=services().url_guard, owner=services().dispatcher.owner)
    return {"data": views.delivery_view(attempt_now(claim), operator=True)}


class RetryFailingSchema(Strict):
    connectionID = fields.String(required=True)
    retried = fields.Integer(required=True, metadata={"description": "failing deliveries made due now"})


@blp.route("/operator/connections/<connection_id>/webhooks/retry-failing", methods=["POST"])
@requires(operator=True)
@blp.response(200, envelope(RetryFailingSchema))
@blp.alt_response(404, response="DEFAULT_ERROR")
@blp.alt_response(409, response="DEFAULT_ERROR")
def retry_failing(connection_id: str) -> dict[str, Any]:
    """Make every failing delivery of a connection (failed, or retrying after errors) due now, e.g. once its
    receiver is back; the dispatcher sends them one at a time, oldest first."""
    with unit_of_work() as uow:
        retried = webhooks.retry_failing(uow, account_id=caller().account_id, connection_id=connection_id,
                                         now=now())
    services().wake_dispatcher()
    return {"data": {"connectionID": connection_id, "retried": retried}}
