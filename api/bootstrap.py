"""The composition root: `bootstrap` builds an app's `Services` once, for `serve`, tests and benches alike.

Everything a request needs that does not change between requests is made here, once: the rate limiter, the
scoring rules, the token lifetimes, the webhook attempt runner (sender, URL guard, jitter), the dispatcher that
shares that runner, the output pages' state cache and the decoded draws. `create_app(services)` binds them to the
Flask app; request code reaches them through `api.context.services()`.
"""

from __future__ import annotations

import random as random_module
from collections.abc import Callable
from dataclasses import dataclass

from api.read_cache import ReadCache
from domain import webhooks
from domain.access.oauth import TokenLifetimes
from domain.access.ratelimit import RateLimiter
from domain.clock import Clock, SystemClock
from domain.draws.cache import DecodedDraws
from domain.match.matches import Rules
from domain.match.scoring import server_default
from domain.settings import Settings
from scheduler.attempts import AttemptRunner
from scheduler.dispatcher import Dispatcher
from scheduler.mailer import TIMEOUT, SmtpSender
from scheduler.sender import http_send, resolve_host
from storage.backend import AnyStore


@dataclass(frozen=True)
class Services:
    """The dependencies of one app, built once by `bootstrap`."""

    store: AnyStore
    settings: Settings
    clock: Clock
    limiter: RateLimiter
    rules: Rules
    lifetimes: TokenLifetimes
    runner: AttemptRunner
    url_guard: webhooks.UrlGuard  # the runner's: which webhook URLs may be configured and called
    dispatcher: Dispatcher
    output_states: ReadCache  # the output pages' states, at most `output_max_stale` behind under writes
    event_snapshots: ReadCache  # the event pages' snapshots (contract §15), at most `event_max_stale` behind
    reads: ReadCache  # principals and match reads, while their tables take no write
    draws: DecodedDraws  # draws decoded as of their stored version (the units of work of requests borrow it)
    audit_enabled: bool = True  # every change writes an audit entry; only benchmarks measuring its cost say no

    def wake_dispatcher(self) -> None:
        """A unit of work recorded events: ask for a dispatch pass (nothing happens until `serve` starts it)."""
        self.dispatcher.wake()


def _mailer(settings: Settings) -> SmtpSender | None:
    """The players' mail sender (§21) when both `COURTSIDE_SMTP_URL` and `COURTSIDE_MAIL_FROM` are set."""
    if settings.smtp_url and settings.mail_from:
        return SmtpSender(settings.smtp_url, settings.mail_from, TIMEOUT)
    return None


def bootstrap(
    settings: Settings, store: AnyStore, *, clock: Clock | None = None, sender: webhooks.Sender = http_send,
    resolve: webhooks.Resolver = resolve_host, random: Callable[[], float] = random_module.random,
    audit_enabled: bool = True,
) -> Services:
    """Build the services over an open store. Tests pass a fixed clock and their own sender, resolver or jitter."""
    clock = clock or SystemClock()
    runner = AttemptRunner(store, settings, clock, sender=sender, resolve=resolve, random=random)
    shared_count = getattr(store, "hit_window", None)  # PostgreSQL: one count for every process
    rules = Rules(scoring=server_default(settings.scoring, points=settings.points_per_game,
                                         best_of=settings.default_best_of))
    return Services(
        store=store, settings=settings, clock=clock, limiter=RateLimiter(clock, shared=shared_count),
        rules=rules,
        lifetimes=TokenLifetimes(access=settings.access_token_ttl, refresh=settings.refresh_token_ttl),
        runner=runner, url_guard=runner.guard, dispatcher=Dispatcher(store, settings, clock, runner=runner,
                                                                        rules=rules, mailer=_mailer(settings)),
        output_states=ReadCache(max_stale=settings.output_max_stale),
        event_snapshots=ReadCache(max_stale=settings.event_max_stale),
        reads=ReadCache(), draws=DecodedDraws(), audit_enabled=audit_enabled,
    )
