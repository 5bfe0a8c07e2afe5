"""One attempt of a claimed delivery: send OUTSIDE any store transaction, then record the outcome.

Both the dispatcher's workers and the API's synchronous attempts (test event, manual retry) use this, so the
store lock is never held while a receiver is slow.
"""

from __future__ import annotations

import random as random_module
from collections.abc import Callable
from dataclasses import dataclass, field

from domain import webhooks
from domain.clock import Clock
from domain.models import Delivery
from domain.settings import Settings
from scheduler.sender import http_send, resolve_host
from storage.backend import AnyStore, retrying
from storage.repository import unit_of_work


@dataclass
class AttemptRunner:
    """The dependencies of an attempt: settings, clock, the sender, the URL guard and the jitter source."""

    store: AnyStore
    settings: Settings
    clock: Clock
    sender: webhooks.Sender = http_send
    resolve: webhooks.Resolver = resolve_host
    random: Callable[[], float] = field(default=random_module.random)
    guard: webhooks.UrlGuard = field(init=False)

    def __post_init__(self) -> None:
        self.guard = webhooks.UrlGuard(allow_private=self.settings.webhook_allow_private, resolve=self.resolve)

    def run(self, attempt: webhooks.Attempt) -> Delivery:
        """Attempt once (outside storage), then record the outcome in its own transaction."""
        try:
            outcome = webhooks.perform_attempt(
                attempt, sender=self.sender, now=self.clock.now(), timeout=self.settings.webhook_timeout,
                guard=self.guard,
            )
        except Exception as exc:  # a bug in sending must not leave the delivery claimed forever
            outcome = webhooks.Outcome(started=self.clock.now(), error=f"internal error: {type(exc).__name__}")

        def record() -> Delivery:
            with unit_of_work(self.store) as uow:
                return webhooks.record_outcome(
                    uow, event_id=attempt.event_id, outcome=outcome, now=self.clock.now(),
                    schedule=self.settings.webhook_retry_schedule, random=self.random, manual=attempt.manual,
                )

        return retrying(record)
