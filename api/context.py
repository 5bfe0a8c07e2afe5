"""What a request handler reaches for: the store's unit of work, the clock, the settings, the caller."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import cast

from flask import Flask, current_app, g
from flask.typing import ResponseReturnValue

from api.bootstrap import Services
from domain.auth import Principal
from storage.backend import retrying
from storage.repository import StoreUnitOfWork
from storage.repository import unit_of_work as store_unit_of_work


class CourtsideFlask(Flask):
    """The Flask app with the `Services` it was built with (`create_app`); nothing else is looked up per request."""

    services: Services

    def dispatch_request(self) -> ResponseReturnValue:
        """Run the view; one whose unit of work lost a race with another process (PostgreSQL) runs again whole."""
        return retrying(super().dispatch_request)


def services() -> Services:
    """The services of the app serving this request."""
    return cast(CourtsideFlask, current_app).services


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
