"""Request and response shapes of /webhooks and /operator/webhooks."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError, fields, post_load, validate, validates_schema

from api.schemas.common import PageQuery, Strict, Vocabulary, str_field
from domain.models import SUBSCRIBABLE_EVENTS, DeliveryStatus, EventType
from domain.webhooks import EVENT_ID_PATTERN, URL_MAX, URL_PATTERN, DeliveryRetry, WebhookChange, WebhookTest, valid_url
from domain.webhooks.types import DeliveryFilter

EVENT_ID_DOC = {"pattern": EVENT_ID_PATTERN, "description": "40 lowercase hexadecimal characters"}


def _absolute_http_url(value: str) -> None:
    if not valid_url(value):
        raise ValidationError("Not a valid absolute http(s) URL.")


class WebhookConfigPatch(Strict):
    """`url` (absolute http(s), <= 1000 characters; null removes it) and/or `events` (unique match events)."""

    url = fields.String(
        allow_none=True,
        validate=[validate.Length(max=URL_MAX), _absolute_http_url],
        metadata={"pattern": URL_PATTERN,
                  "description": "absolute http(s) URL (also a bracketed IPv6 literal host); null removes it"},
    )
    events = fields.List(Vocabulary(SUBSCRIBABLE_EVENTS), validate=validate.Length(max=len(SUBSCRIBABLE_EVENTS)),
                         metadata={"uniqueItems": True, "description": "never set: the four events "
                                   "match.started, match.score_updated, match.completed, match.result_updated; "
                                   "match.cancelled, match.called and match.reset only when named"})

    @post_load
    def to_command(self, data: dict[str, Any], **_: Any) -> WebhookChange:
        return WebhookChange(**data)


class WebhookConfigSchema(Schema):
    url = fields.String(required=True, allow_none=True)
    events = fields.List(Vocabulary(SUBSCRIBABLE_EVENTS), required=True)
    secretConfigured = fields.Boolean(required=True)
    updatedOn = fields.String(required=True, allow_none=True)
    webhook_secret = fields.String(metadata={"description": "only in the PATCH that created the secret; shown once"})


class WebhookTestBody(Strict):
    """Optional: `type` sends a signed sample of that event (`"test": true` in `data`); without it,
    `integration.test`."""

    type = Vocabulary(SUBSCRIBABLE_EVENTS, metadata={
        "description": "the event to send a sample of, whatever the connection's `events`"})
    matchID = str_field(min_length=1, metadata={
        "description": "one of your matches (its `id`): the sample is that match's read as it is now (404 for "
                       "another's); without it, a sample in the scoring format of your most recently changed "
                       "broadcast. Needs `type`."})

    @validates_schema
    def _match_needs_type(self, data: dict[str, Any], **_: Any) -> None:
        if "matchID" in data and "type" not in data:
            raise ValidationError("matchID needs a type.", field_name="type")

    @post_load
    def to_command(self, data: dict[str, Any], **_: Any) -> WebhookTest:
        return WebhookTest(event_type=EventType(data["type"]) if "type" in data else None,
                           match_id=data.get("matchID"))


class RetriedSchema(Schema):
    retried = fields.Integer(required=True, metadata={"description": "failing deliveries made due now"})


class WebhookRetryBody(Strict):
    eventID = str_field(required=True, metadata=EVENT_ID_DOC)

    @post_load
    def to_command(self, data: dict[str, Any], **_: Any) -> DeliveryRetry:
        return DeliveryRetry(event_id=data["eventID"])


class SecretRotationSchema(Schema):
    webhook_secret = fields.String(required=True, metadata={"description": "shown only in this response"})
    rotatedOn = fields.String(required=True)


class DeliverySchema(Schema):
    attemptCount = fields.Integer(required=True)
    eventID = fields.String(required=True, metadata=EVENT_ID_DOC)
    eventType = Vocabulary(EventType, required=True)
    payload = fields.Dict(required=True, metadata={"description": "the exact JSON body sent"})
    status = Vocabulary(DeliveryStatus, required=True)
    attemptedOn = fields.String()
    createdOn = fields.String()
    deliveredOn = fields.String()
    nextAttemptOn = fields.String()
    webhookCreatedOn = fields.String()
    lastError = fields.String()


class AttemptSchema(Schema):
    attemptedOn = fields.String(required=True)
    statusCode = fields.Integer(allow_none=True)
    error = fields.String(allow_none=True)


class OperatorDeliverySchema(DeliverySchema):
    connectionID = fields.String(required=True)
    attempts = fields.List(fields.Nested(AttemptSchema), required=True)


class DeliveryQuery(PageQuery):
    status = Vocabulary(DeliveryFilter, metadata={
        "description": "a delivery state, or `failing`: failed, or pending again after a failed attempt"})
    eventType = str_field()


class OperatorDeliveryQuery(DeliveryQuery):
    connectionID = str_field()
