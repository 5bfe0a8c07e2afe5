"""The webhooks' vocabulary: constants, and the dependencies the services take (a `Sender`, a `Resolver`) with
what an attempt needs and gives (`Attempt`, `Outcome`)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Protocol

from domain.models import DeliveryStatus, EventType

EVENT_ID_PATTERN = "^[a-f0-9]{40}$"
EVENT_ID = re.compile(EVENT_ID_PATTERN)
_PORT = r"(?:6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[0-9]{1,4})"
#: What a webhook URL looks like (also the documented `pattern`): http(s), a host name or IPv4 address, an
#: optional port, then anything without whitespace. Bracketed IPv6 literals are accepted besides (`valid_url`).
# "Not whitespace" as Python and ECMAScript (the published pattern's reader) both mean it: `\S` differs between them
# on U+001C-U+001F, U+0085 and U+FEFF, so those are named and refused on both sides.
_NOT_SPACE = r"[^\s\x1c-\x1f\x85\ufeff]"
URL_PATTERN = rf"^https?://[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?(?::{_PORT})?(?:[/?#]{_NOT_SPACE}*)?$"
_URL = re.compile(URL_PATTERN.removesuffix("$"))
_IPV6_URL = re.compile(rf"https?://\[([0-9A-Fa-f:.]+)\](?::{_PORT})?(?:[/?#]{_NOT_SPACE}*)?")
TEST_EVENT = EventType.INTEGRATION_TEST
SECRET_PREFIX = "whsec_"
KEY_MIN, KEY_MAX = 8, 200
URL_MAX = 1000
JITTER = 0.10
USER_AGENT = "Courtside-Webhooks/1.0 (+https://www.standardwebhooks.com/)"


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


class DeliveryFilter(StrEnum):
    """What `GET /webhooks?status=` takes: a delivery state (`DeliveryStatus`), or `failing` (failed, or pending
    after a failed attempt: `domain.webhooks.deliveries.is_failing`)."""

    PENDING = DeliveryStatus.PENDING.value
    DELIVERING = DeliveryStatus.DELIVERING.value
    DELIVERED = DeliveryStatus.DELIVERED.value
    FAILED = DeliveryStatus.FAILED.value
    FAILING = "failing"
