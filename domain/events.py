"""Recording domain events as webhook deliveries (the outbox). Webhook dispatch lives in `domain.webhooks`.

`record_event` is what other services call; it persists one delivery per event, before any attempt, only for
the connection that owns the subject, only if that connection has a URL and is subscribed.
"""

from __future__ import annotations

import secrets
from datetime import datetime
from typing import Any

import orjson

from domain.clock import iso
from domain.models import MATCH_EVENTS, Delivery, DeliveryStatus, EventType
from domain.ports import UnitOfWork


def new_event_id() -> str:
    """40 lowercase hex characters, random."""
    return secrets.token_hex(20)


def event_body(*, event_id: str, event_type: EventType, connection_id: str, data: dict[str, Any],
               now: datetime) -> str:
    """The exact bytes a delivery sends (and stores as its payload)."""
    payload = {"id": event_id, "type": event_type, "createdOn": iso(now), "connectionID": connection_id, "data": data}
    return orjson.dumps(payload).decode()


def next_sequence(uow: UnitOfWork, *, connection_id: str, match_id: str) -> int:
    """The `sequence` of the match's next event for the connection: one more than its latest (contract §23:
    strictly increasing over the match's events; gaps are allowed, so events nobody receives take no number)."""
    earlier = uow.deliveries.find(connection_id=connection_id, match_id=match_id)
    return max((delivery.sequence for delivery in earlier), default=0) + 1


def subscribed(uow: UnitOfWork, *, connection_id: str, event_type: EventType) -> bool:
    config = uow.webhook_configs.get(connection_id)
    if config is None or not config.url:
        return False
    events = list(MATCH_EVENTS) if config.events is None else config.events
    return event_type in events


def record_event(
    uow: UnitOfWork, *, account_id: str, connection_id: str, event_type: EventType, data: dict[str, Any],
    now: datetime, force: bool = False,
) -> Delivery | None:
    """Persist the event as a pending delivery, due now; None when the connection would not receive it.

    `data` gets the event's `sequence` among its match's events and `occurredOn` (the change's time, `now`); a
    test event (`"test": true`, or no match) has sequence 0 and is ordered after nothing.

    `force` records it whenever a URL is set (the test event is not subscribable).
    """
    config = uow.webhook_configs.get(connection_id)
    if config is None or not config.url:
        return None
    connection = uow.connections.get(connection_id)
    if connection is None or connection.revoked_on is not None:
        return None  # a disconnected installation receives nothing
    if not force and not subscribed(uow, connection_id=connection_id, event_type=event_type):
        return None
    event_id = new_event_id()
    match = data.get("match")
    match_id = None if data.get("test") or not isinstance(match, dict) else match.get("id")
    sequence = 0 if match_id is None else next_sequence(uow, connection_id=connection_id, match_id=match_id)
    data = data | {"sequence": sequence, "occurredOn": iso(now)}
    delivery = uow.deliveries.put(
        Delivery(
            id=event_id, account_id=account_id, connection_id=connection_id, event_type=event_type,
            body=event_body(event_id=event_id, event_type=event_type, connection_id=connection_id, data=data,
                            now=now),
            status=DeliveryStatus.PENDING, created_on=iso(now), next_attempt_on=iso(now),
            webhook_created_on=config.created_on, match_id=match_id, sequence=sequence,
        )
    )
    uow.new_event_ids.append(event_id)
    return delivery
