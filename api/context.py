"""What a request handler reaches for: the store's unit of work, the clock, the settings, the caller."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import cast

from flask import Flask, current_app, g, has_request_context, request
from flask.typing import ResponseReturnValue

from api.bootstrap import Services
from api.platform import new_request_id, valid_request_id
from domain.access.audit import SYSTEM, Actor, ActorKind
from domain.access.auth import Principal
from storage.backend import retrying
from storage.repository import StoreUnitOfWork
from storage.repository import unit_of_work as store_unit_of_work


@dataclass(frozen=True)
class FeedAnswer:
    """A whole HTTP answer to a feed poll: status line, headers (with Content-Length, so the connection stays
    open, §8a) and body."""

    status: str
    headers: list[tuple[str, str]]
    body: bytes

    @property
    def request_id(self) -> str:
        """The answer's `Service-Request-ID` (the access log names it)."""
        return next((value for name, value in self.headers if name == "Service-Request-ID"), "")


@dataclass(frozen=True)
class KeptFeed:
    """A public feed's current state as kept in memory: its ETag (unquoted), JSON body and own headers."""

    etag: str
    body: bytes
    headers: tuple[tuple[str, str], ...]

    def answer(self, if_none_match: str | None, request_id: str | None = None) -> FeedAnswer:
        """`304` when `If-None-Match` holds the current ETag, else `200` with the body; the headers the view's
        response would carry (the view answers a feed whose snapshot is not kept yet), with the client's own
        `Service-Request-ID` (already checked) or a new one."""
        tag = f'"{self.etag}"'
        headers = [("ETag", tag), *self.headers, ("X-Content-Type-Options", "nosniff"),
                   ("Service-Request-ID", request_id or new_request_id())]
        if holds_current(if_none_match, tag):
            return FeedAnswer("304 Not Modified", [*headers, ("Content-Length", "0")], b"")
        return FeedAnswer("200 OK", [*headers, ("Content-Type", "application/json"),
                                     ("Content-Length", str(len(self.body)))], self.body)


def holds_current(if_none_match: str | None, etag: str) -> bool:
    """Whether a request's `If-None-Match` names the current `etag` (quoted) by RFC 9110's weak comparison
    (`W/"x"` is `"x"`), or is `*` (the feed always has a current state): then the answer is `304`."""
    if not if_none_match:
        return False
    held = [tag.strip() for tag in if_none_match.split(",")]
    return "*" in held or any(tag.removeprefix("W/") == etag for tag in held)


class CourtsideFlask(Flask):
    """The Flask app with the `Services` it was built with (`create_app`); nothing else is looked up per request."""

    services: Services
    # the public feeds' kept answers: path -> the feed's current snapshot in memory, or None (not a feed, not kept)
    feed_checks: list[Callable[[str, bool], KeptFeed | None]]
    feed_builders: list[Callable[[str], bool]]

    def kept_feed_answer(self, method: str, path: str, if_none_match: str | None,
                         request_id: str | None = None, *, fresh: bool = False) -> FeedAnswer | None:
        """The answer to a public feed's poll from its kept snapshot (`304` when the page holds the current ETag,
        else `200` with the kept body), without a view, a unit of work or a worker thread (§8a); None when the
        request must go on (not a feed, its snapshot not built for the current state, or a `Service-Request-ID`
        the platform answers `400 invalid_request_id`). A valid client request ID is echoed (§2). `fresh`: only a
        state built for the store as it is now (a held poll's look), not one a feed's `max_stale` behind."""
        if method != "GET" or (request_id is not None and not valid_request_id(request_id)):
            return None
        for check in self.feed_checks:
            kept = check(path, fresh)
            if kept is not None:
                return kept.answer(if_none_match, request_id)
        return None

    def build_kept_feed(self, path: str) -> None:
        """Build and keep the state of the feed at `path` for the store as it is now (the server's feed builder
        thread calls it for the polls its network loop holds, so that none of them waits for a worker)."""
        for build in self.feed_builders:
            if build(path):
                return

    def kept_feed_stamp(self) -> Hashable:
        """What moves when a kept feed may have changed: the store's version and the clock's minute (the feeds'
        states show times). The server's network loop looks at the polls it holds when this moves."""
        return getattr(self.services.store, "version", None), self.services.clock.now().strftime("%Y%m%d%H%M")

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


def request_id() -> str | None:
    """This request's `Service-Request-ID` (None outside a request)."""
    return getattr(g, "request_id", None) if has_request_context() else None


def actor(kind: ActorKind | None = None, id: str | None = None) -> Actor:
    """Who this request acts as: `kind`/`id` when given (a scorer link's table, a sign-up page's roster), else
    the authenticated caller (the operator key's ID, or the partner's connection ID); with this request's ID."""
    if kind is not None and id is not None:
        return Actor(kind, id, request_id())
    principal: Principal | None = getattr(g, "principal", None) if has_request_context() else None
    if principal is None:
        return Actor(SYSTEM.kind, SYSTEM.id, request_id())
    if principal.is_operator:
        return Actor(ActorKind.OPERATOR, principal.key_id or "operator", request_id())
    return Actor(ActorKind.PARTNER, principal.connection_id or "", request_id())


@contextmanager
def unit_of_work(acting: Actor | None = None) -> Iterator[StoreUnitOfWork]:
    """One atomic unit of work, its changes made by `acting` (default: this request's caller, `actor()`); wakes
    the webhook dispatcher when it recorded new events. Inside an idempotent create the create's unit of work is
    joined instead, so that the create and its remembered answer commit together."""
    joined: StoreUnitOfWork | None = g.get("joined_unit_of_work") if has_request_context() else None
    if joined is not None:  # inside an idempotent create (api/idempotency.py): its one unit of work
        yield joined
        return
    ctx = services()
    with store_unit_of_work(ctx.store, actor=acting or actor(), audit_enabled=ctx.audit_enabled,
                            draw_cache=ctx.draws) as uow:
        yield uow
    if uow.new_event_ids:
        ctx.wake_dispatcher()


def public_root() -> str:
    """The root of every public link and QR code (outputs, scorer, sign-up, event page; contract §8a):
    `COURTSIDE_PUBLIC_URL`, else this request's scheme and host (as the trusted proxies forwarded them)."""
    return (services().settings.public_url or request.host_url).rstrip("/") + "/"
