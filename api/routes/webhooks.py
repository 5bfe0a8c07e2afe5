"""Partner routes of /webhooks: configuration, delivery reads, test event, manual retry, secret rotation."""

from __future__ import annotations

from typing import Any

from flask import request

from api.blueprint import Blueprint
from api.context import caller, now, services, unit_of_work
from api.schemas.common import envelope, list_envelope
from api.schemas.webhooks import (
    DeliveryQuery,
    DeliverySchema,
    RetriedSchema,
    SecretRotationSchema,
    WebhookConfigPatch,
    WebhookConfigSchema,
    WebhookRetryBody,
    WebhookTestBody,
)
from api.security import requires
from domain import views, webhooks
from domain.models import Delivery, DeliveryStatus

blp = Blueprint("webhooks", __name__, description="Webhook configuration and deliveries")

EVENT_ID_PARAMETER = {"in": "path", "name": "event_id", "required": True,
                      "schema": {"type": "string", "pattern": webhooks.EVENT_ID_PATTERN}}
IDEMPOTENCY_KEY_DOC = {
    "in": "header", "name": "Idempotency-Key", "required": True,
    "schema": {"type": "string", "minLength": 8, "maxLength": 200},
}


def attempt_now(claim: webhooks.Attempt) -> Delivery:
    """Send a delivery claimed by the request's transaction, after that transaction committed (with the app's
    attempt runner, built once by `bootstrap`)."""
    return services().runner.run(claim)


def _connection() -> tuple[str, str]:
    principal = caller()
    return principal.account_id, principal.connection_id or ""


@blp.route("/webhooks", methods=["GET"])
@requires("webhooks.read")
@blp.arguments(DeliveryQuery, location="query")
@blp.response(200, list_envelope(DeliverySchema))
def list_deliveries(query: dict[str, Any]) -> dict[str, Any]:
    """Persisted deliveries of this connection, newest first (filters `status`, also `failing`, and
    `eventType`)."""
    account_id, connection_id = _connection()
    with unit_of_work() as uow:
        page, cursor = webhooks.list_deliveries(
            uow, account_id=account_id, connection_id=connection_id, status=query.get("status"),
            event_type=query.get("eventType"), limit=query.get("limit"), cursor=query.get("cursor"),
        )
    return {"data": [views.delivery_view(delivery) for delivery in page], "nextCursor": cursor}


@blp.route("/webhooks/configuration", methods=["GET"])
@requires("webhooks.read")
@blp.response(200, envelope(WebhookConfigSchema))
def get_configuration() -> dict[str, Any]:
    """The destination URL and subscribed events of this connection."""
    with unit_of_work() as uow:
        return {"data": webhooks.get_configuration(uow, connection_id=_connection()[1])}


@blp.route("/webhooks/configuration", methods=["PATCH"])
@requires("webhooks.write")
@blp.arguments(WebhookConfigPatch)
@blp.response(200, envelope(WebhookConfigSchema))
def patch_configuration(change: webhooks.WebhookChange) -> dict[str, Any]:
    """Set the URL and/or events; the first URL creates the signing secret, returned once as `webhook_secret`."""
    account_id, connection_id = _connection()
    with unit_of_work() as uow:
        return {"data": webhooks.configure(uow, account_id=account_id, connection_id=connection_id, change=change,
                                           now=now(), guard=services().url_guard)}


@blp.route("/webhooks/test", methods=["POST"])
@requires("webhooks.write")
@blp.arguments(WebhookTestBody, required=False)
@blp.response(200, envelope(DeliverySchema), description="Delivered on the first attempt.")
@blp.alt_response(202, schema=envelope(DeliverySchema), success=True,
                  description="The first attempt failed, or another attempt of this connection is under way; "
                              "the delivery is pending (queued for the dispatcher).")
@blp.alt_response(404, response="DEFAULT_ERROR")
@blp.alt_response(409, response="DEFAULT_ERROR")
def send_test(test: webhooks.WebhookTest) -> tuple[dict[str, Any], int]:
    """Persist and send a signed test event now: `integration.test`, or with `{"type"}` a sample of that match
    event (`"test": true` in `data`, whatever the connection's `events`): with `matchID` that match's read, else
    in the scoring format of your latest broadcast. 200 delivered, 202 queued for retry."""
    account_id, connection_id = _connection()
    with unit_of_work() as uow:
        delivery, claim = webhooks.begin_test(uow, account_id=account_id, connection_id=connection_id, now=now(),
                                              guard=services().url_guard, owner=services().dispatcher.owner,
                                              test=test, server=services().rules.scoring)
    if claim is not None:
        delivery = attempt_now(claim)
    return {"data": views.delivery_view(delivery)}, 200 if delivery.status == DeliveryStatus.DELIVERED else 202


@blp.route("/webhooks/retry", methods=["POST"])
@requires("webhooks.write")
@blp.arguments(WebhookRetryBody)
@blp.response(200, envelope(DeliverySchema))
@blp.alt_response(404, response="DEFAULT_ERROR")
@blp.alt_response(409, response="DEFAULT_ERROR")
def retry_delivery(retry: webhooks.DeliveryRetry) -> dict[str, Any]:
    """Attempt a persisted delivery again now, with the current secret; 200 whatever the outcome."""
    account_id, connection_id = _connection()
    with unit_of_work() as uow:
        claim = webhooks.begin_retry(uow, event_id=retry.event_id, account_id=account_id,
                                     connection_id=connection_id, guard=services().url_guard,
                                     owner=services().dispatcher.owner)
    return {"data": views.delivery_view(attempt_now(claim))}


@blp.route("/webhooks/retry-failing", methods=["POST"])
@requires("webhooks.write")
@blp.response(200, envelope(RetriedSchema))
@blp.alt_response(409, response="DEFAULT_ERROR")
def retry_failing() -> dict[str, Any]:
    """Make every failing delivery of this connection (failed, or pending after a failed attempt; listed by
    `GET /webhooks?status=failing`) due now, e.g. once your receiver is back; they go out one at a time, each
    match's events in order. `409 webhook_not_configured` without a URL."""
    account_id, connection_id = _connection()
    with unit_of_work() as uow:
        retried = webhooks.retry_failing(uow, account_id=account_id, connection_id=connection_id, now=now())
    services().wake_dispatcher()
    return {"data": {"retried": retried}}


@blp.route("/webhooks/secret/rotate", methods=["POST"])
@requires("webhooks.write")
@blp.doc(parameters=[IDEMPOTENCY_KEY_DOC])
@blp.response(200, envelope(SecretRotationSchema))
@blp.alt_response(404, response="DEFAULT_ERROR")
@blp.alt_response(409, response="DEFAULT_ERROR")
def rotate_secret() -> dict[str, Any]:
    """Replace the signing secret now (idempotent per `Idempotency-Key`); the secret is shown only here."""
    account_id, connection_id = _connection()
    with unit_of_work() as uow:
        return {"data": webhooks.rotate_secret(
            uow, account_id=account_id, connection_id=connection_id,
            idempotency_key=request.headers.get("Idempotency-Key"), now=now(),
        )}


@blp.route("/webhooks/<string:event_id>", methods=["GET"], parameters=[EVENT_ID_PARAMETER])
@requires("webhooks.read")
@blp.response(200, envelope(DeliverySchema))
@blp.alt_response(404, response="DEFAULT_ERROR")
def get_delivery(event_id: str) -> dict[str, Any]:
    """One persisted delivery of this connection (400 `invalid_event_id` for a malformed ID)."""
    account_id, connection_id = _connection()
    with unit_of_work() as uow:
        delivery = webhooks.get_delivery(uow, event_id=event_id, account_id=account_id, connection_id=connection_id)
    return {"data": views.delivery_view(delivery)}
