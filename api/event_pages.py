"""The public event page (contract §15), outside /api/v1 and reached by its key alone.

- `GET /event/{key}`: the phone-first page, with the whole state already in its HTML (a JSON data block, which
  the Content-Security-Policy lets through: only `/event/assets/event.js` runs).
- `GET /event/{key}/state`: the page's state; `GET /event/{key}/people/{personID}`: one person's matches. Both
  with an `ETag`; `If-None-Match` answers 304 while nothing changed.

Every viewer shares one snapshot per page and version (§8a): it is built once after a change of the store and then
served from memory, so hundreds of phones polling an unchanged event cost a dictionary lookup each.
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
from flask import Blueprint, Response, render_template, request

from api import errors
from api.bootstrap import Services
from api.context import CourtsideFlask, KeptFeed, holds_current, now, services, unit_of_work
from api.platform import wanted_wait
from domain.errors import NotFound
from domain.event_day.estimates import Estimator
from domain.ids import hash_secret
from domain.plan.published import published_order
from domain.public import event_page as svc

blp = Blueprint("event_pages", __name__, template_folder="templates")
ASSETS = Path(__file__).parent / "templates"
LINK_TABLES = ("links",)  # a rotate, disable or enable refuses every kept snapshot at once
PAGE_HEADERS = {
    "Cache-Control": "no-store", "Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY",
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; script-src 'self'; "
                               "connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
}
FEED_HEADERS = {"Cache-Control": "no-cache"}


def _tag(value: Any) -> str:
    return hashlib.sha256(orjson.dumps(value)).hexdigest()[:24]


@dataclass
class _Kept:
    """One page's snapshot as served: its ETag and body, and each person's (made on first ask)."""

    etag: str
    body: bytes
    snapshot: svc.Snapshot
    people: dict[str, tuple[str, bytes]] = field(default_factory=dict)

    def person(self, person_id: str) -> tuple[str, bytes]:
        if person_id not in self.people:
            data = svc.person_state(self.snapshot, person_id)
            self.people[person_id] = (_tag(data), orjson.dumps({"data": data}))
        return self.people[person_id]


def _stamp(ctx: Services) -> tuple[Any, Any]:
    """What a kept snapshot is good for: the store's write count and the minute (estimates move); and its guard,
    the links table's write count (a rotate or close refuses it at once, whatever `event_max_stale` allows)."""
    return (getattr(ctx.store, "version", None), ctx.clock.now().strftime("%Y%m%d%H%M")), \
        ctx.store.versions(*LINK_TABLES)


def _kept(key: str, *, fresh: bool = False) -> _Kept:
    """The page's shared snapshot: from memory while the store is unchanged (and within the minute, since
    estimates move); else built once. NotFound for an unknown, rotated or closed link."""
    ctx = services()
    stamp, guard = _stamp(ctx)
    key_hash = hash_secret(key)
    kept: _Kept | None = ctx.event_snapshots.get(key_hash, stamp, guard=guard, fresh=fresh)
    if kept is not None:
        return kept
    with unit_of_work() as uow:
        broadcast = svc.broadcast_by_key(uow, key=key)
        estimator = Estimator(uow, now=now(), default_minutes=ctx.settings.default_match_minutes)
        order = functools.partial(published_order, now=now(), zone=ctx.settings.zone())
        snapshot = svc.event_snapshot(uow, broadcast, estimator=estimator, draws=svc.broadcast_draws(), order=order)
    version = _tag(snapshot.state)
    kept = _Kept(etag=version, body=orjson.dumps({"data": {"version": version, **snapshot.state}}),
                 snapshot=snapshot)
    ctx.event_snapshots.put(key_hash, stamp, kept, guard=guard)
    return kept


def _conditional(etag: str, body: bytes) -> Response:
    tag = f'"{etag}"'
    headers = {"ETag": tag, **FEED_HEADERS}
    if holds_current(request.headers.get("If-None-Match"), tag):
        return Response(status=304, headers=headers)
    return Response(body, status=200, mimetype="application/json", headers=headers)


def _not_found_page() -> Response:
    html = render_template("phone_missing.html", what="event page")
    return Response(html, status=404, mimetype="text/html", headers=PAGE_HEADERS)


@blp.route("/event/<string:key>", methods=["GET"])
def event_page(key: str) -> Response:
    """The page: Now, My matches, Draws, Results; the state is in the HTML before any script runs."""
    try:
        kept = _kept(key)
    except NotFound:
        return _not_found_page()
    state = orjson.loads(kept.body)["data"]
    html = render_template("event.html", state=state, state_json=kept.body.decode().replace("<", "\\u003c"))
    return Response(html, mimetype="text/html", headers=PAGE_HEADERS)


@blp.route("/event/<string:key>/state", methods=["GET"])
def event_state(key: str) -> Response:
    """The page's state feed (`{"data": {"version", "event", "courts", "waiting", "draws", "results", "people"}}`)."""
    try:
        kept = _kept(key, fresh=wanted_wait(request.headers.get("Prefer")) is not None)
    except NotFound:
        return errors.error_response(404, "not_found", "No such event page.")
    return _conditional(kept.etag, kept.body)


@blp.route("/event/<string:key>/people/<string:person_id>", methods=["GET"])
def person_state(key: str, person_id: str) -> Response:
    """One person's matches: current, next (court, estimate, call-up) and finished with scores."""
    try:
        etag, body = _kept(key).person(person_id)
    except NotFound:
        return errors.error_response(404, "not_found", "No such event page or person.")
    return _conditional(etag, body)


@blp.route("/event/assets/event.js", methods=["GET"])
def event_script() -> Response:
    """The page's one script (served from here, so the page's policy needs no inline script)."""
    return Response((ASSETS / "event.js").read_bytes(), mimetype="text/javascript",
                    headers={"Cache-Control": "public, max-age=300"})


def _kept_feed(app: CourtsideFlask, path: str, fresh: bool = False) -> KeptFeed | None:
    """The kept answer of `/event/{key}/state` or `.../people/{personID}` (a person's once someone asked for it),
    so 300 phones on the page cost a lookup each; None when it is not kept."""
    parts = path.split("/")  # "", "event", key, "state" | "people", personID
    state = len(parts) == 4 and parts[1] == "event" and parts[3] == "state"
    person = len(parts) == 5 and parts[1] == "event" and parts[3] == "people"
    if not (state or person):
        return None
    stamp, guard = _stamp(app.services)
    kept: _Kept | None = app.services.event_snapshots.get(hash_secret(parts[2]), stamp, guard=guard, fresh=fresh)
    if kept is None:
        return None
    etag, body = (kept.etag, kept.body) if state else kept.people.get(parts[4], ("", b""))
    return KeptFeed(etag, body, tuple(FEED_HEADERS.items())) if etag else None


def _build_feed(app: CourtsideFlask, path: str) -> bool:
    """Build the page's snapshot for the store as it is now (the server's feed builder); False: not this page's."""
    parts = path.split("/")
    if not (len(parts) in (4, 5) and parts[1] == "event" and parts[3] in ("state", "people")):
        return False
    with app.test_request_context(path):
        try:
            _kept(parts[2], fresh=True)
        except NotFound:
            pass  # rotated or closed meanwhile: the held poll is answered by the app when its wait ends
    return True


def install(app: CourtsideFlask) -> None:
    app.register_blueprint(blp)
    app.feed_checks.append(functools.partial(_kept_feed, app))
    app.feed_builders.append(functools.partial(_build_feed, app))
