"""Webhooks: per-connection configuration, signing secrets, and the delivery state machine.

Pure services. Sending is a dependency (`Sender`) and so is name resolution (`Resolver`); `scheduler/` supplies
the real ones. A delivery moves `pending` -> `delivering` (claimed; the attempt runs OUTSIDE any transaction)
-> `delivered` | `pending` (next attempt scheduled) | `failed` (schedule exhausted, or 410 Gone).

The retry schedule is "seconds after the previous attempt": entry 0 is the delay of the first attempt, entry n
the delay after the n-th attempt, so its length is the number of automatic attempts. Each delay gets +-10%
jitter. A `Retry-After` on 429/503 is honoured up to the following slot: the next attempt waits at least the
scheduled delay, and at most the larger of that and the slot after it.
"""

from __future__ import annotations

import base64
import ipaddress
import re
import secrets
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email.utils import parsedate_to_datetime
from typing import Any, Protocol
from urllib.parse import urlsplit

from standardwebhooks import Webhook

from domain.clock import iso, parse_iso
from domain.commands import UNSET
from domain.errors import Conflict, Invalid, NotFound
from domain.events import record_event
from domain.ids import hash_secret
from domain.models import MATCH_EVENTS, Delivery, DeliveryStatus, WebhookConfig
from domain.pagination import paginate
from domain.ports import UnitOfWork
from domain.special_addresses import globally_reachable
from domain.views import webhook_config_view

EVENT_ID_PATTERN = "^[a-f0-9]{40}$"
EVENT_ID = re.compile(EVENT_ID_PATTERN)
_PORT = r"(?:6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[0-9]{1,4})"
#: What a webhook URL looks like (also the documented `pattern`): http(s), a host name or IPv4 address, an
#: optional port, then anything without whitespace. Bracketed IPv6 literals are accepted besides (`valid_url`).
URL_PATTERN = rf"^https?://[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?(?::{_PORT})?(?:[/?#]\S*)?$"
_URL = re.compile(URL_PATTERN.removesuffix("$"))
_IPV6_URL = re.compile(rf"https?://\[([0-9A-Fa-f:.]+)\](?::{_PORT})?(?:[/?#]\S*)?")
DELIVERY_STATUSES = tuple(DeliveryStatus)
TEST_EVENT = "integration.test"
SECRET_PREFIX = "whsec_"
KEY_MIN, KEY_MAX = 8, 200
URL_MAX = 1000
JITTER = 0.10
USER_AGENT = "Courtside-Webhooks/1.0 (+https://www.standardwebhooks.com/)"


# ------------------------------------------------------------------------------------------ dependencies
@dataclass(frozen=True)
class SendResult:
    """What a sender observed: an HTTP status (and its Retry-After header), or a transport error."""

    status: int | None = None
    error: str | None = None  # "timeout", "connection refused", ...
    retry_after: str | None = None


class Sender(Protocol):
    def __call__(self, url: str, body: bytes, headers: dict[str, str], timeout: float) -> SendResult: ...


Resolver = Callable[[str], list[str]]  # host name -> IP address strings (raises OSError when unknown)


@dataclass(frozen=True)
class Attempt:
    """A claimed delivery and everything needed to attempt it without touching storage."""

    event_id: str
    connection_id: str
    url: str
    secret: str
    body: str
    manual: bool = False  # a retry someone asked for (never moves the automatic schedule)


@dataclass(frozen=True)
class Outcome:
    """The result of one attempt, recorded by `record_outcome`."""

    started: datetime
    status: int | None = None
    error: str | None = None
    retry_after: float | None = None  # seconds, from a 429/503 answer

    @property
    def delivered(self) -> bool:
        return self.status is not None and 200 <= self.status < 300

    @property
    def description(self) -> str | None:
        """`lastError` for this attempt, None when it was delivered."""
        if self.delivered:
            return None
        return self.error or f"HTTP {self.status}"


# ------------------------------------------------------------------------------------------ URLs and secrets
def new_webhook_secret(token_bytes: Callable[[int], bytes] = secrets.token_bytes) -> str:
    """`whsec_` + standard base64 of 32 random bytes (the Standard Webhooks secret format)."""
    return SECRET_PREFIX + base64.b64encode(token_bytes(32)).decode()


def _blocked(address: str) -> bool:
    """Anything the IANA special-purpose registries do not mark globally reachable (loopback, private,
    link-local, shared 100.64/10, documentation, benchmarking, reserved, ...) or multicast: the table in
    `domain/special_addresses.py`, never the interpreter's `ipaddress` flags (contract §8a).

    IPv4 addresses carried inside IPv6 (mapped `::ffff:a.b.c.d`, 6to4 `2002::/16`, Teredo) are judged by the IPv4
    address they carry.
    """
    ip: ipaddress.IPv4Address | ipaddress.IPv6Address = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address):
        carried = ip.ipv4_mapped or ip.sixtofour or (ip.teredo[1] if ip.teredo else None)
        if carried is not None:
            return _blocked(str(carried))
    return not globally_reachable(ip)


def valid_url(url: str) -> bool:
    """An absolute http(s) URL of at most 1000 characters (`URL_PATTERN`, or a bracketed IPv6 literal host)."""
    if len(url) > URL_MAX:
        return False
    if _URL.fullmatch(url):
        return True
    literal = _IPV6_URL.fullmatch(url)
    if literal is None:
        return False
    try:
        ipaddress.IPv6Address(literal.group(1))
    except ValueError:
        return False
    return True


@dataclass(frozen=True)
class UrlGuard:
    """Which webhook URLs may be called: checked when a URL is configured and again before every attempt (the
    host may resolve elsewhere by then). Built once from the settings; `resolve` is the DNS lookup."""

    allow_private: bool
    resolve: Resolver

    def check(self, url: str) -> None:
        """An absolute http(s) URL; unless private addresses are allowed, none of its addresses is internal
        (400 `webhook_url_not_allowed`)."""
        if not valid_url(url):
            raise Invalid("The webhook URL must be an absolute http(s) URL of at most 1000 characters.",
                          details={"json": {"url": ["Not a valid absolute http(s) URL."]}})
        if self.allow_private:
            return
        host = urlsplit(url).hostname or ""
        try:
            addresses = [host] if _is_ip(host) else self.resolve(host)
        except OSError as exc:
            raise Invalid(f"The webhook host {host} does not resolve.", code="webhook_url_not_allowed") from exc
        if not addresses or any(_blocked(address) for address in addresses):
            raise Invalid(f"The webhook URL {url} points to an address that is not globally routable.",
                          code="webhook_url_not_allowed")


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def signed_headers(*, event_id: str, body: str, secret: str, now: datetime) -> dict[str, str]:
    """The Standard Webhooks headers of one attempt, signed with `secret` at `now`."""
    timestamp = datetime.fromtimestamp(int(now.timestamp()), tz=UTC)
    return {
        "webhook-id": event_id,
        "webhook-timestamp": str(int(timestamp.timestamp())),
        "webhook-signature": Webhook(secret).sign(event_id, timestamp, body),
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
    }


# ------------------------------------------------------------------------------------------ configuration
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


def configure(
    uow: UnitOfWork, *, account_id: str, connection_id: str, now: datetime, guard: UrlGuard,
    url: str | None = UNSET, events: Sequence[str] = UNSET,
) -> dict[str, Any]:
    """Set the URL (None removes it) and/or subscriptions. The first URL creates the secret, returned once."""
    _active_connection(uow, account_id=account_id, connection_id=connection_id)
    config = _config(uow, account_id=account_id, connection_id=connection_id, now=now)
    if url is not UNSET and url is not None:
        guard.check(url)
    if events is not UNSET:
        unknown = [event for event in events if event not in MATCH_EVENTS]
        if unknown or len(set(events)) != len(events):
            raise Invalid("events must be unique match event types.",
                          details={"json": {"events": [f"Unique values among {', '.join(MATCH_EVENTS)}."]}})
        config.events = list(events)
    if url is not UNSET:
        config.url = url
    created_secret = None
    if config.url and config.secret is None:
        config.secret = created_secret = new_webhook_secret()
    config.updated_on = iso(now)
    uow.webhook_configs.put(config)
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
    config.secret = new_webhook_secret()
    config.rotations.append({"keyHash": key_hash, "rotatedOn": iso(now)})
    config.updated_on = iso(now)
    uow.webhook_configs.put(config)
    return {"webhook_secret": config.secret, "rotatedOn": iso(now)}


# ------------------------------------------------------------------------------------------ delivery reads


def list_deliveries(
    uow: UnitOfWork, *, account_id: str, connection_id: str | None = None, status: str | None = None,
    event_type: str | None = None, limit: int | None = None, cursor: str | None = None,
) -> tuple[list[Delivery], str | None]:
    """Deliveries newest first (of one connection, or of the whole account), filtered, one page."""
    if connection_id is not None:
        found = uow.deliveries.find(connection_id=connection_id)
    else:
        found = uow.deliveries.find(account_id=account_id)
    chosen = [
        delivery for delivery in reversed(found)
        if delivery.account_id == account_id
        and (status is None or delivery.status == status)
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


# ------------------------------------------------------------------------------------------ the state machine
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

    Each connection offers its oldest due delivery; connections with the lowest `rank` go first (the
    dispatcher ranks by when it last served them, so no receiver starves the others). Returns the claims and
    when the earliest not-yet-due pending delivery falls due (None if none); due ones left unclaimed (limit,
    busy connection) are for the next pass. A pending delivery whose connection has no URL stays pending.
    """
    due_by = iso(now)
    busy_connections = set(busy_connections) | _attempting(uow)
    pending = sorted(uow.deliveries.find(status=DeliveryStatus.PENDING), key=lambda d: (d.next_attempt_on or "", d.seq))
    heads: dict[str, Delivery] = {}
    next_due: datetime | None = None
    for delivery in pending:
        due = delivery.next_attempt_on or due_by
        if due > due_by:
            next_due = parse_iso(due) if next_due is None else next_due
        elif delivery.connection_id not in busy_connections and delivery.connection_id not in heads:
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


# ------------------------------------------------------------------------------------------ test and retry
def _destination(uow: UnitOfWork, *, connection_id: str, guard: UrlGuard) -> WebhookConfig:
    config = uow.webhook_configs.get(connection_id)
    if config is None or not config.url:
        raise Conflict("No webhook URL is configured.", code="webhook_not_configured")
    guard.check(config.url)
    return config


def begin_test(
    uow: UnitOfWork, *, account_id: str, connection_id: str, now: datetime, guard: UrlGuard, owner: str | None = None,
) -> tuple[Delivery, Attempt | None]:
    """Persist an `integration.test` delivery for the connection and claim it for an attempt right now.

    While another attempt of the connection is under way the delivery stays pending, due now, and no claim is
    returned: the dispatcher sends it when the connection is free (one attempt per connection at a time).
    """
    _active_connection(uow, account_id=account_id, connection_id=connection_id)
    config = _destination(uow, connection_id=connection_id, guard=guard)
    if config.secret is None:  # a URL always comes with a secret; be safe with older records
        config.secret = new_webhook_secret()
        uow.webhook_configs.put(config)
    busy = connection_id in _attempting(uow)
    delivery = record_event(
        uow, account_id=account_id, connection_id=connection_id, event_type=TEST_EVENT,
        data={"message": "This is a test event from Courtside."}, now=now, force=True,
    )
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
    failing = [d for d in uow.deliveries.find(connection_id=connection_id)
               if d.status == DeliveryStatus.FAILED or (d.status == DeliveryStatus.PENDING and d.last_error)]
    for delivery in failing:
        delivery.status, delivery.next_attempt_on = DeliveryStatus.PENDING, iso(now)
        uow.deliveries.put(delivery)
    return len(failing)

