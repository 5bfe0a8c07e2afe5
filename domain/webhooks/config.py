"""A connection's webhook configuration: read, set (URL, events) and rotate its signing secret."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from domain.access import audit
from domain.access.audit_records import AuditAction, TargetType
from domain.clock import iso
from domain.commands import UNSET, given
from domain.errors import Conflict, Invalid, NotFound
from domain.ids import hash_secret
from domain.models import SUBSCRIBABLE_EVENTS, EventType, WebhookConfig
from domain.ports import UnitOfWork
from domain.views import webhook_config_view
from domain.webhooks.types import KEY_MAX, KEY_MIN
from domain.webhooks.urls import UrlGuard, new_webhook_secret


def _config(uow: UnitOfWork, *, account_id: str, connection_id: str, now: datetime) -> WebhookConfig:
    found = uow.webhook_configs.get(connection_id)
    if found is not None:
        return found
    return WebhookConfig(id=connection_id, account_id=account_id, created_on=iso(now), updated_on=iso(now))


def _active_connection(uow: UnitOfWork, *, account_id: str, connection_id: str) -> None:
    connection = uow.connections.get(connection_id)
    if connection is None or connection.account_id != account_id or connection.revoked_on is not None:
        raise NotFound("No active connection.")


def get_configuration(uow: UnitOfWork, *, connection_id: str) -> dict[str, Any]:
    return webhook_config_view(uow.webhook_configs.get(connection_id))


@dataclass(frozen=True)
class WebhookChange:
    """A validated `PATCH /webhooks/configuration` body (`UNSET`: not in the request; a `None` URL removes it)."""

    url: str | None = UNSET
    events: Sequence[EventType] = UNSET


def configure(
    uow: UnitOfWork, *, account_id: str, connection_id: str, change: WebhookChange, now: datetime, guard: UrlGuard,
) -> dict[str, Any]:
    """Set the URL (None removes it) and/or subscriptions. The first URL creates the secret, returned once."""
    _active_connection(uow, account_id=account_id, connection_id=connection_id)
    config = _config(uow, account_id=account_id, connection_id=connection_id, now=now)
    before = replace(config, events=None if config.events is None else list(config.events),
                     rotations=list(config.rotations))
    url, events = change.url, change.events
    if given(url) and url is not None:
        guard.check(url)
    if given(events):
        unknown = [event for event in events if event not in SUBSCRIBABLE_EVENTS]
        if unknown or len(set(events)) != len(events):
            raise Invalid("events must be unique match event types.",
                          details={"json": {"events": [f"Unique values among {', '.join(SUBSCRIBABLE_EVENTS)}."]}})
        config.events = [EventType(event) for event in events]
    if given(url):
        config.url = url
    created_secret = None
    if config.url and config.secret is None:
        config.secret = created_secret = new_webhook_secret()
    config.updated_on = iso(now)
    uow.webhook_configs.put(config)
    audit.record(uow, account_id=account_id, action=AuditAction.WEBHOOK_CONFIGURED,
                 target=(TargetType.CONNECTION, connection_id),
                 before=before, after=config, now=now)  # the secret is written as "…"
    read = webhook_config_view(config)
    if created_secret is not None:
        read["webhook_secret"] = created_secret
    return read


def rotate_secret(
    uow: UnitOfWork, *, account_id: str, connection_id: str, idempotency_key: str | None, now: datetime,
) -> dict[str, str]:
    """Replace the signing secret now. The latest rotation's key returns the current secret; older keys 409."""
    if idempotency_key is None or idempotency_key == "":
        raise Invalid("The Idempotency-Key header is required.", code="idempotency_key_required")
    if not KEY_MIN <= len(idempotency_key) <= KEY_MAX:
        raise Invalid("Idempotency-Key must be 8 to 200 characters.", code="invalid_idempotency_key")
    _active_connection(uow, account_id=account_id, connection_id=connection_id)
    config = _config(uow, account_id=account_id, connection_id=connection_id, now=now)
    key_hash = hash_secret(idempotency_key)
    if config.rotations and config.rotations[-1]["keyHash"] == key_hash and config.secret:
        return {"webhook_secret": config.secret, "rotatedOn": config.rotations[-1]["rotatedOn"]}
    if any(rotation["keyHash"] == key_hash for rotation in config.rotations):
        raise Conflict("This Idempotency-Key belongs to an older rotation.", code="idempotency_key_reused")
    previous = config.rotations[-1]["rotatedOn"] if config.rotations else None
    config.secret = new_webhook_secret()
    config.rotations.append({"keyHash": key_hash, "rotatedOn": iso(now)})
    config.updated_on = iso(now)
    uow.webhook_configs.put(config)
    audit.record(uow, account_id=account_id, action=AuditAction.WEBHOOK_SECRET_ROTATED,
                 target=(TargetType.CONNECTION, connection_id),
                 before={"rotatedOn": previous}, after={"rotatedOn": iso(now), "secret": config.secret}, now=now)
    return {"webhook_secret": config.secret, "rotatedOn": iso(now)}
