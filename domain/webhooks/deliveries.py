"""Delivery reads: a connection's (or the account's) deliveries, one by event ID."""

from __future__ import annotations

from domain.errors import Invalid, NotFound
from domain.models import Delivery, DeliveryStatus
from domain.pagination import paginate
from domain.ports import UnitOfWork
from domain.webhooks.types import EVENT_ID, DeliveryFilter


def is_failing(delivery: Delivery) -> bool:
    """A delivery that did not get through: failed, or pending again after a failed attempt (what "Retry all
    failing" and `POST /webhooks/retry-failing` make due now)."""
    return delivery.status == DeliveryStatus.FAILED or (
        delivery.status == DeliveryStatus.PENDING and bool(delivery.last_error))


def list_deliveries(
    uow: UnitOfWork, *, account_id: str, connection_id: str | None = None, status: str | None = None,
    event_type: str | None = None, limit: int | None = None, cursor: str | None = None,
) -> tuple[list[Delivery], str | None]:
    """Deliveries newest first (of one connection, or of the whole account), filtered (`status` is a state or
    `failing`), one page."""
    if connection_id is not None:
        found = uow.deliveries.find(connection_id=connection_id)
    else:
        found = uow.deliveries.find(account_id=account_id)
    chosen = [
        delivery for delivery in reversed(found)
        if delivery.account_id == account_id
        and (status is None or delivery.status == status or (status == DeliveryFilter.FAILING and is_failing(delivery)))
        and (event_type is None or delivery.event_type == event_type)
    ]
    return paginate(chosen, seq=lambda delivery: delivery.seq, limit=limit, cursor=cursor, newest_first=True)


def get_delivery(uow: UnitOfWork, *, event_id: str, account_id: str, connection_id: str | None = None) -> Delivery:
    """One delivery of the connection (or of the account, for the operator): 400 malformed ID, 404 unknown."""
    if not EVENT_ID.match(event_id):
        raise Invalid("eventID must be 40 lowercase hexadecimal characters.", code="invalid_event_id")
    delivery = uow.deliveries.get(event_id)
    if delivery is None or delivery.account_id != account_id or (
        connection_id is not None and delivery.connection_id != connection_id
    ):
        raise NotFound("No such webhook delivery.")
    return delivery
