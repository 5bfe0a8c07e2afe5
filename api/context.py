"""What a request handler reaches for: the store's unit of work, the clock, the settings, the caller."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime

from flask import current_app, g

from domain.auth import Principal
from domain.clock import Clock
from domain.ratelimit import RateLimiter
from domain.settings import Settings
from storage.engine import Store
from storage.repository import StoreUnitOfWork
from storage.repository import unit_of_work as store_unit_of_work


@dataclass
class Services:
    """The dependencies of one app, created by `create_app` and stored on it."""

    store: Store
    settings: Settings
    clock: Clock
    limiter: RateLimiter
    wake_dispatcher: Callable[[], None] = field(default=lambda: None)


def services() -> Services:
    found: Services = current_app.extensions["courtside"]
    return found


def now() -> datetime:
    return services().clock.now()


def caller() -> Principal:
    """The authenticated principal of this request (set by `api.security`)."""
    principal: Principal = g.principal
    return principal


@contextmanager
def unit_of_work() -> Iterator[StoreUnitOfWork]:
    """One atomic unit of work; wakes the webhook dispatcher when it recorded new events."""
    ctx = services()
    with store_unit_of_work(ctx.store) as uow:
        yield uow
    if uow.new_event_ids:
        ctx.wake_dispatcher()
