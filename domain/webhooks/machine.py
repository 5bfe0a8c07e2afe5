"""The delivery state machine: claim due deliveries, attempt them outside any transaction, record the outcome and
schedule the next attempt (with jitter and Retry-After), recover claims of processes that are gone."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from datetime import UTC, datetime, timedelta
from email.utils import parsedate_to_datetime

from domain.clock import iso, parse_iso
from domain.errors import Conflict, Invalid, NotFound
from domain.models import Delivery, DeliveryStatus, WebhookConfig
from domain.ports import UnitOfWork
from domain.webhooks.types import JITTER, Attempt, Outcome, Sender
from domain.webhooks.urls import UrlGuard, signed_headers


def _claim(
    uow: UnitOfWork, delivery: Delivery, config: WebhookConfig, *, manual: bool = False, owner: str | None = None,
) -> Attempt:
    """Mark the delivery `delivering` (by `owner`, the claiming process) and capture the URL and secret."""
    if not (config.url and config.secret):
        raise Conflict("No webhook URL is configured.", code="webhook_not_configured")
    if delivery.status == DeliveryStatus.FAILED:
        delivery.next_attempt_on = None  # a failed delivery has no automatic attempt left
    delivery.status = DeliveryStatus.DELIVERING
    delivery.claimed_by = owner
    uow.deliveries.put(delivery)
    return Attempt(event_id=delivery.id, connection_id=delivery.connection_id, url=config.url,
                   secret=config.secret, body=delivery.body, manual=manual)


def claim_due(
    uow: UnitOfWork, *, now: datetime, limit: int, busy_connections: set[str] | frozenset[str] = frozenset(),
    rank: Callable[[str], float] = lambda connection_id: 0, owner: str | None = None,
) -> tuple[list[Attempt], datetime | None]:
    """Claim up to `limit` due pending deliveries, at most one per connection and none of `busy_connections`.

    Each connection offers its oldest due delivery that is in turn (no earlier event of its match is still
    open: a match's events go in `sequence` order); connections with the lowest `rank` go first (the
    dispatcher ranks by when it last served them, so no receiver starves the others). Returns the claims and
    when the earliest not-yet-due pending delivery falls due (None if none); due ones left unclaimed (limit,
    busy connection) are for the next pass. A pending delivery whose connection has no URL stays pending.
    """
    due_by = iso(now)
    delivering = uow.deliveries.find(status=DeliveryStatus.DELIVERING)
    busy_connections = set(busy_connections) | {delivery.connection_id for delivery in delivering}
    pending = sorted(uow.deliveries.find(status=DeliveryStatus.PENDING), key=lambda d: (d.next_attempt_on or "", d.seq))
    first = _first_open(pending + delivering)
    heads: dict[str, Delivery] = {}
    next_due: datetime | None = None
    for delivery in pending:
        due = delivery.next_attempt_on or due_by
        if due > due_by:
            next_due = parse_iso(due) if next_due is None else next_due
        elif (delivery.connection_id not in busy_connections and delivery.connection_id not in heads
              and _in_turn(delivery, first)):
            heads[delivery.connection_id] = delivery
    claims: list[Attempt] = []
    for connection_id in sorted(heads, key=rank):  # stable: ties keep due-time order
        if len(claims) >= limit:
            break
        config = uow.webhook_configs.get(connection_id)
        if config is None or not config.url or not config.secret:
            continue
        claims.append(_claim(uow, heads[connection_id], config, owner=owner))
    return claims, next_due


def _first_open(deliveries: Sequence[Delivery]) -> dict[tuple[str, str], str]:
    """Per connection and match, the event ID of its earliest open (pending or delivering) event."""
    first: dict[tuple[str, str], Delivery] = {}
    for delivery in deliveries:
        if delivery.match_id is None:
            continue
        key = (delivery.connection_id, delivery.match_id)
        known = first.get(key)
        if known is None or (delivery.sequence, delivery.seq) < (known.sequence, known.seq):
            first[key] = delivery
    return {key: delivery.id for key, delivery in first.items()}


def _in_turn(delivery: Delivery, first: dict[tuple[str, str], str]) -> bool:
    """Contract §23: a match's events reach a connection in `sequence` order, so a later one waits while an
    earlier one of the same match is open (retrying); events of other matches and test events never wait."""
    return delivery.match_id is None or first.get((delivery.connection_id, delivery.match_id)) == delivery.id


def _attempting(uow: UnitOfWork) -> set[str]:
    """Connections with an attempt under way (a dispatcher worker or a request thread holds a claim)."""
    return {delivery.connection_id for delivery in uow.deliveries.find(status=DeliveryStatus.DELIVERING)}


def _one_attempt_at_a_time(uow: UnitOfWork, *, connection_id: str) -> None:
    """A connection has at most one attempt under way, so a slow receiver holds at most one thread."""
    if connection_id in _attempting(uow):
        raise Conflict("Another delivery of this connection is being attempted right now; try again when it ends.",
                       code="delivery_in_progress")


def recover_interrupted(
    uow: UnitOfWork, *, now: datetime, live_owners: Collection[str] = (), keep_unowned: bool = False,
) -> int:
    """After a crash: claimed deliveries whose attempt never finished are due again now (same eventID).

    Claims of `live_owners` (processes still running, sharing a PostgreSQL store) are theirs and stay; so do
    claims without an owner (a request thread's manual attempt) when `keep_unowned`."""
    interrupted = [delivery for delivery in uow.deliveries.find(status=DeliveryStatus.DELIVERING)
                   if (delivery.claimed_by is None and not keep_unowned)
                   or (delivery.claimed_by is not None and delivery.claimed_by not in live_owners)]
    for delivery in interrupted:
        release(uow, event_id=delivery.id, now=now, note="interrupted")
    return len(interrupted)


def release(uow: UnitOfWork, *, event_id: str, now: datetime, note: str | None = None) -> None:
    """Give a claimed delivery back (its attempt never ran): pending, due now."""
    delivery = uow.deliveries.get(event_id)
    if delivery is None or delivery.status != DeliveryStatus.DELIVERING:
        return
    delivery.status = DeliveryStatus.PENDING
    delivery.next_attempt_on = iso(now)
    if note:
        delivery.attempts.append({"attemptedOn": iso(now), "error": note})
    uow.deliveries.put(delivery)


def next_delay(
    attempt_count: int, schedule: Sequence[float], *, retry_after: float | None, random: Callable[[], float],
) -> float | None:
    """Seconds until the next automatic attempt after `attempt_count` attempts; None when exhausted."""
    if attempt_count >= len(schedule):
        return None
    slot = schedule[attempt_count]
    delay = slot * (1 + JITTER * (2 * random() - 1))
    if retry_after is not None:
        ceiling = max(schedule[attempt_count:attempt_count + 2])
        delay = max(delay, min(retry_after, ceiling))
    return max(delay, 0.0)


def parse_retry_after(value: str | None, *, now: datetime) -> float | None:
    """A Retry-After header (delta seconds or an HTTP date) in seconds from `now`."""
    if not value:
        return None
    text = value.strip()
    if text.isdigit():
        return float(text)
    try:
        when = parsedate_to_datetime(text)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max((when - now).total_seconds(), 0.0)


def perform_attempt(
    attempt: Attempt, *, sender: Sender, now: datetime, timeout: float, guard: UrlGuard,
) -> Outcome:
    """Sign with the captured secret and POST once. Runs outside any transaction; never raises for the wire."""
    try:
        guard.check(attempt.url)
    except Invalid as exc:
        return Outcome(started=now, error=f"{exc.code}: {exc.message}")
    headers = signed_headers(event_id=attempt.event_id, body=attempt.body, secret=attempt.secret, now=now)
    result = sender(attempt.url, attempt.body.encode(), headers, timeout)
    retry_after = None
    if result.status in (429, 503):
        retry_after = parse_retry_after(result.retry_after, now=now)
    return Outcome(started=now, status=result.status, error=result.error, retry_after=retry_after)


def record_outcome(
    uow: UnitOfWork, *, event_id: str, outcome: Outcome, now: datetime, schedule: Sequence[float],
    random: Callable[[], float], manual: bool = False,
) -> Delivery:
    """Count the attempt and move the delivery on: delivered, pending (next slot), or failed.

    A failed `manual` attempt (a retry someone asked for) leaves the automatic schedule as it was: the delivery
    keeps its next automatic attempt (or stays failed), and the slots count automatic attempts only.
    """
    delivery = uow.deliveries.get(event_id)
    if delivery is None:
        raise NotFound("No such webhook delivery.")
    delivery.attempt_count += 1
    delivery.manual_attempts += 1 if manual else 0
    delivery.attempted_on = iso(outcome.started)
    delivery.attempts.append({
        "attemptedOn": iso(outcome.started), "statusCode": outcome.status, "error": outcome.description,
    })
    if outcome.delivered:
        delivery.status, delivery.delivered_on = DeliveryStatus.DELIVERED, iso(now)
        delivery.next_attempt_on = delivery.last_error = None
        return uow.deliveries.put(delivery)
    delivery.last_error = outcome.description
    if manual and outcome.status != 410:
        delivery.status = DeliveryStatus.PENDING if delivery.next_attempt_on else DeliveryStatus.FAILED
        return uow.deliveries.put(delivery)
    delay = None if outcome.status == 410 else next_delay(
        delivery.attempt_count - delivery.manual_attempts, schedule, retry_after=outcome.retry_after, random=random
    )
    if delay is None:
        delivery.status, delivery.next_attempt_on = DeliveryStatus.FAILED, None
    else:
        delivery.status = DeliveryStatus.PENDING
        delivery.next_attempt_on = iso(now + timedelta(seconds=delay))
    return uow.deliveries.put(delivery)
