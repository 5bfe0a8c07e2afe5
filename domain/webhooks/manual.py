"""Deliveries someone asked for: a test event, a retry now, and retrying every failing delivery of a connection."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from domain.clock import iso
from domain.errors import Conflict, NotFound
from domain.events import record_event
from domain.match.scoring import Scoring
from domain.match.scoring import of_broadcast_record as scoring_of
from domain.models import Delivery, DeliveryStatus, EventType, WebhookConfig
from domain.ports import UnitOfWork
from domain.views import Reader
from domain.webhooks.config import _active_connection
from domain.webhooks.deliveries import get_delivery, is_failing
from domain.webhooks.machine import _attempting, _claim, _one_attempt_at_a_time
from domain.webhooks.samples import sample_data, sample_data_in, sample_of_match
from domain.webhooks.types import TEST_EVENT, Attempt
from domain.webhooks.urls import UrlGuard, new_webhook_secret


@dataclass(frozen=True)
class WebhookTest:
    """A validated `POST /webhooks/test` body: which event to send a sample of (None: `integration.test`), and
    optionally which of the caller's matches it is built from (`id`)."""

    event_type: EventType | None = None
    match_id: str | None = None


@dataclass(frozen=True)
class DeliveryRetry:
    """A validated `POST /webhooks/retry` body: the delivery to attempt again now."""

    event_id: str


def _destination(uow: UnitOfWork, *, connection_id: str, guard: UrlGuard) -> WebhookConfig:
    config = uow.webhook_configs.get(connection_id)
    if config is None or not config.url:
        raise Conflict("No webhook URL is configured.", code="webhook_not_configured")
    guard.check(config.url)
    return config


def _sample(uow: UnitOfWork, *, account_id: str, connection_id: str, test: WebhookTest,
            server: Scoring | None) -> dict[str, Any]:
    """The `data` of a test event: `integration.test`'s, the named match's read (404 unless it is the
    caller's), or a sample in the scoring format of the caller's most recently changed broadcast."""
    if test.event_type is None:
        return sample_data(TEST_EVENT)
    if test.match_id is not None:
        match = uow.matches.get(test.match_id)
        if match is None or match.account_id != account_id or match.connection_id != connection_id:
            raise NotFound(f"No match '{test.match_id}' of this connection.")
        return sample_of_match(test.event_type, Reader(uow).read(match))
    broadcasts = uow.broadcasts.find(account_id=account_id)
    own = [broadcast for broadcast in broadcasts if broadcast.manager_connection_id == connection_id]
    latest = max(own or broadcasts, key=lambda broadcast: (broadcast.updated_on, broadcast.seq), default=None)
    scoring = (scoring_of(latest) if latest is not None else None) or server
    if scoring is None:
        return sample_data(test.event_type, test=True)
    return sample_data_in(test.event_type, scoring.format, scoring.name)


def begin_test(
    uow: UnitOfWork, *, account_id: str, connection_id: str, now: datetime, guard: UrlGuard, owner: str | None = None,
    test: WebhookTest = WebhookTest(), server: Scoring | None = None,
) -> tuple[Delivery, Attempt | None]:
    """Persist a test delivery for the connection and claim it for an attempt right now: `integration.test`, or
    a signed sample of `test.event_type` (contract §23: whatever the connection's `events`, `"test": true`),
    built from `test.match_id`'s read when named, else in the format of the caller's latest broadcast (else the
    `server` format).

    While another attempt of the connection is under way the delivery stays pending, due now, and no claim is
    returned: the dispatcher sends it when the connection is free (one attempt per connection at a time).
    """
    _active_connection(uow, account_id=account_id, connection_id=connection_id)
    config = _destination(uow, connection_id=connection_id, guard=guard)
    if config.secret is None:  # a URL always comes with a secret; be safe with older records
        config.secret = new_webhook_secret()
        uow.webhook_configs.put(config)
    data = _sample(uow, account_id=account_id, connection_id=connection_id, test=test, server=server)
    busy = connection_id in _attempting(uow)
    delivery = record_event(uow, account_id=account_id, connection_id=connection_id,
                            event_type=test.event_type or TEST_EVENT, data=data, now=now, force=True)
    if delivery is None:
        raise RuntimeError("a forced event is always recorded")
    return delivery, None if busy else _claim(uow, delivery, config, owner=owner)


def begin_retry(
    uow: UnitOfWork, *, event_id: str, account_id: str, connection_id: str | None, guard: UrlGuard,
    owner: str | None = None,
) -> Attempt:
    """Claim a persisted delivery for a manual attempt now, with the current URL and secret; `owner` is the
    process making it (as for the dispatcher's claims)."""
    delivery = get_delivery(uow, event_id=event_id, account_id=account_id, connection_id=connection_id)
    if delivery.status == DeliveryStatus.DELIVERING:
        raise Conflict("The delivery is being attempted right now.", code="delivery_in_progress")
    _one_attempt_at_a_time(uow, connection_id=delivery.connection_id)
    config = _destination(uow, connection_id=delivery.connection_id, guard=guard)
    if config.secret is None:
        config.secret = new_webhook_secret()
        uow.webhook_configs.put(config)
    return _claim(uow, delivery, config, manual=True, owner=owner)


def retry_failing(uow: UnitOfWork, *, account_id: str, connection_id: str, now: datetime) -> int:
    """Make every failing delivery of a connection (failed, or pending after an error) due now, oldest first.

    The dispatcher then sends them one at a time, as ever; returns how many were put back.
    """
    connection = uow.connections.get(connection_id)
    if connection is None or connection.account_id != account_id:
        raise NotFound(f"No connection '{connection_id}'.")
    config = uow.webhook_configs.get(connection_id)
    if config is None or not config.url:
        raise Conflict("No webhook URL is configured.", code="webhook_not_configured")
    failing = [d for d in uow.deliveries.find(connection_id=connection_id) if is_failing(d)]
    for delivery in failing:
        delivery.status, delivery.next_attempt_on = DeliveryStatus.PENDING, iso(now)
        uow.deliveries.put(delivery)
    return len(failing)
