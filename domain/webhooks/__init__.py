"""Webhooks: per-connection configuration, signing secrets, and the delivery state machine.

Pure services. Sending is a dependency (`Sender`) and so is name resolution (`Resolver`); `scheduler/` supplies
the real ones. A delivery moves `pending` -> `delivering` (claimed; the attempt runs OUTSIDE any transaction)
-> `delivered` | `pending` (next attempt scheduled) | `failed` (schedule exhausted, or 410 Gone).

The retry schedule is "seconds after the previous attempt": entry 0 is the delay of the first attempt, entry n
the delay after the n-th attempt, so its length is the number of automatic attempts. Each delay gets +-10%
jitter. A `Retry-After` on 429/503 is honoured up to the following slot: the next attempt waits at least the
scheduled delay, and at most the larger of that and the slot after it.

The package holds one concern per module: `types` (vocabulary and dependencies), `urls` (destinations, secrets,
signatures), `config` (a connection's configuration), `deliveries` (reads), `machine` (the delivery state
machine), `manual` (test events and retries). Everything is importable from `domain.webhooks` as before.
"""

from __future__ import annotations

from domain.events import record_event as record_event
from domain.webhooks.config import (
    WebhookChange as WebhookChange,
)
from domain.webhooks.config import (
    configure as configure,
)
from domain.webhooks.config import (
    get_configuration as get_configuration,
)
from domain.webhooks.config import (
    rotate_secret as rotate_secret,
)
from domain.webhooks.deliveries import (
    get_delivery as get_delivery,
)
from domain.webhooks.deliveries import (
    list_deliveries as list_deliveries,
)
from domain.webhooks.machine import (
    claim_due as claim_due,
)
from domain.webhooks.machine import (
    next_delay as next_delay,
)
from domain.webhooks.machine import (
    parse_retry_after as parse_retry_after,
)
from domain.webhooks.machine import (
    perform_attempt as perform_attempt,
)
from domain.webhooks.machine import (
    record_outcome as record_outcome,
)
from domain.webhooks.machine import (
    recover_interrupted as recover_interrupted,
)
from domain.webhooks.machine import (
    release as release,
)
from domain.webhooks.manual import (
    DeliveryRetry as DeliveryRetry,
)
from domain.webhooks.manual import (
    WebhookTest as WebhookTest,
)
from domain.webhooks.manual import (
    begin_retry as begin_retry,
)
from domain.webhooks.manual import (
    begin_test as begin_test,
)
from domain.webhooks.manual import (
    retry_failing as retry_failing,
)
from domain.webhooks.types import (
    EVENT_ID as EVENT_ID,
)
from domain.webhooks.types import (
    EVENT_ID_PATTERN as EVENT_ID_PATTERN,
)
from domain.webhooks.types import (
    JITTER as JITTER,
)
from domain.webhooks.types import (
    SECRET_PREFIX as SECRET_PREFIX,
)
from domain.webhooks.types import (
    TEST_EVENT as TEST_EVENT,
)
from domain.webhooks.types import (
    URL_MAX as URL_MAX,
)
from domain.webhooks.types import (
    URL_PATTERN as URL_PATTERN,
)
from domain.webhooks.types import (
    USER_AGENT as USER_AGENT,
)
from domain.webhooks.types import (
    Attempt as Attempt,
)
from domain.webhooks.types import (
    Outcome as Outcome,
)
from domain.webhooks.types import (
    Resolver as Resolver,
)
from domain.webhooks.types import (
    Sender as Sender,
)
from domain.webhooks.types import (
    SendResult as SendResult,
)
from domain.webhooks.urls import (
    UrlGuard as UrlGuard,
)
from domain.webhooks.urls import (
    new_webhook_secret as new_webhook_secret,
)
from domain.webhooks.urls import (
    signed_headers as signed_headers,
)
from domain.webhooks.urls import (
    valid_url as valid_url,
)
