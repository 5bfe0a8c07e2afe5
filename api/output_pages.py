"""Public output pages (contract §10), outside /api/v1: `/outputs/{key}` (HTML) and `/outputs/{key}/state` (JSON).

No credential: the key in the path is the secret. Pages poll the state with `If-None-Match`; an unchanged state
is a 304 served from a small cache keyed by the store's version, so a few hundred open pages cost the server a
dictionary lookup each (docs/decisions.md, "Outputs: conditional polling").
"""

from __future__ import annotations

import functools
import hashlib

import orjson
from flask import Blueprint, Response, render_template, request

from api import errors
from api.context import CourtsideFlask, KeptFeed, holds_current, now, services, unit_of_work
from api.platform import wanted_wait
from api.read_cache import ReadCache
from domain.errors import NotFound
from domain.event_day.estimates import Estimator
from domain.ids import hash_secret
from domain.public import outputs as svc
from domain.public.feeds import OutputFeed

blp = Blueprint("output_pages", __name__, template_folder="templates")
BACKGROUNDS = ("transparent", "dark", "light")
LINK_TABLES = ("outputs",)  # a write there (rotate, remove) refuses every cached state at once
FEED_HEADERS = (("Cache-Control", "no-cache"), ("Access-Control-Allow-Origin", "*"))
NOT_FOUND_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not found</title></head>
<body style="font-family:sans-serif;background:#0a0f1c;color:#aab4c8;display:flex;align-items:center;
justify-content:center;height:100vh;margin:0"><p>This output link does not exist (it may have been rotated).</p>
</body></html>"""


def _cache() -> ReadCache:
    return services().output_states


def _state(key: str, *, fresh: bool = False) -> tuple[str, bytes]:
    """The output's state as (etag, JSON body); NotFound for an unknown or rotated key. A miss builds the states of
    every output of the broadcast at once and keeps them all: after a change, one build serves every link."""
    ctx = services()
    version = getattr(ctx.store, "version", None)
    stamp = None if version is None else (version, now().strftime("%Y%m%d%H%M"))
    key_hash = hash_secret(key)
    links = ctx.store.versions(*LINK_TABLES)
    cached: tuple[str, bytes] | None = _cache().get(key_hash, stamp, guard=links, fresh=fresh) \
        if stamp is not None else None
    if cached is not None:
        return cached
    with unit_of_work() as uow:
        output = svc.output_by_key(uow, key=key)
        estimator = Estimator(uow, now=now(), default_minutes=ctx.settings.default_match_minutes)
        outputs = svc.broadcast_outputs(uow, broadcast_id=output.broadcast_id) if stamp is not None else [output]
        states = svc.broadcast_output_states(uow, outputs,
                                             estimates=estimator.starts)
    if key_hash not in states:  # its court went with a patch in the same instant
        raise NotFound("No such output.")
    entries = {built: _entry(state) for built, state in states.items()}
    if stamp is not None:
        for built, entry in entries.items():
            _cache().put(built, stamp, entry, guard=links)
    return entries[key_hash]


def _entry(state: OutputFeed) -> tuple[str, bytes]:
    """A state as served: its version tag (a hash of what it shows) and its JSON body carrying that version."""
    version_tag = hashlib.sha256(orjson.dumps(state)).hexdigest()[:24]
    return version_tag, orjson.dumps({**state, "version": version_tag})


@blp.route("/outputs/<string:key>/state", methods=["GET"])
def output_state(key: str) -> Response:
    """The state feed: JSON with an ETag; `If-None-Match` answers 304 while nothing changed."""
    try:
        version, body = _state(key, fresh=wanted_wait(request.headers.get("Prefer")) is not None)
    except NotFound:
        return errors.error_response(404, "not_found", "No such output.")
    etag = f'"{version}"'
    headers = {"ETag": etag, **dict(FEED_HEADERS)}
    if holds_current(request.headers.get("If-None-Match"), etag):
        return Response(status=304, headers=headers)
    return Response(body, status=200, mimetype="application/json", headers=headers)


@blp.route("/outputs/<string:key>", methods=["GET"])
def output_page(key: str) -> Response:
    """The self-contained page (no external assets) that renders the state and follows it live."""
    try:
        version, body = _state(key)
    except NotFound:
        return Response(NOT_FOUND_PAGE, status=404, mimetype="text/html")
    state = orjson.loads(body)
    design = state["design"]
    default = "transparent" if design == "lowerthird" else "dark"
    bg = request.args.get("bg", default)
    bg = bg if bg in BACKGROUNDS else default
    html = render_template(
        "output.html", title=state.get("court", {}).get("label") or state["broadcast"]["name"] or "Courtside",
        bg=bg, full=design in ("court", "venue"),
        state_json=body.decode().replace("<", "\\u003c"), feed_url=f"{key}/state",
    )
    return Response(html, mimetype="text/html", headers={
        "Cache-Control": "no-store", "Referrer-Policy": "no-referrer",
        "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; script-src 'nonce-{nonce}'; "
                                   "connect-src 'self'; img-src 'self' data:",
    })


def _key_of(path: str) -> str | None:
    """The output key of `/outputs/{key}/state`, else None."""
    if not (path.startswith("/outputs/") and path.endswith("/state")):
        return None
    return path[len("/outputs/"):-len("/state")]


def _kept_feed(app: CourtsideFlask, path: str, fresh: bool = False) -> KeptFeed | None:
    """The kept state of `/outputs/{key}/state` (built for the current store version, or within
    `output_max_stale` of it with the links unchanged), so hundreds of open pages cost the API next to nothing
    (`CourtsideFlask.kept_feed_answer`); None when it is not kept."""
    key = _key_of(path)
    if key is None:
        return None
    ctx = app.services
    version = getattr(ctx.store, "version", None)
    if version is None:
        return None
    stamp = (version, ctx.clock.now().strftime("%Y%m%d%H%M"))
    entry = ctx.output_states.get(hash_secret(key), stamp, guard=ctx.store.versions(*LINK_TABLES), fresh=fresh)
    return None if entry is None else KeptFeed(entry[0], entry[1], FEED_HEADERS)


def _build_feed(app: CourtsideFlask, path: str) -> bool:
    """Build the output's state for the store as it is now (the server's feed builder); False: not an output."""
    key = _key_of(path)
    if key is None:
        return False
    with app.test_request_context(path):
        try:
            _state(key, fresh=True)
        except NotFound:
            pass  # rotated or removed meanwhile: the held poll is answered 404 by the app when its wait ends
    return True


def install(app: CourtsideFlask) -> None:
    app.register_blueprint(blp)
    app.feed_checks.append(functools.partial(_kept_feed, app))
    app.feed_builders.append(functools.partial(_build_feed, app))
