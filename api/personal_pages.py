"""A player's own page (contract §21), outside /api/v1 and reached by its key alone.

- `GET /me/{key}`: the phone-first page, with the person's state already in its HTML (a JSON data block; the
  Content-Security-Policy lets only `/me/assets/me.js` run), the event page's rules (§15): no CDN, no IDs but the
  page's own.
- `GET /me/{key}/state`: the state, with an `ETag`; `If-None-Match` answers 304 while nothing changed.
- `POST /me/{key}/check-in`: self check-in (while the broadcast allows it); `POST /me/{key}/matches/{matchID}/report`,
  `POST /me/{key}/reports/{reportID}/confirm` and `.../dispute`: results by the players. Each recorded with the
  `player` actor.

The state is built once per change of the store (and minute: estimates move) and kept per link, so a page polling
an unchanged event costs a lookup (§8a's "one snapshot per version").
"""

from __future__ import annotations

import functools
import hashlib
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson
from flask import Blueprint, Response, render_template, request
from marshmallow import ValidationError, fields, post_load, validate

from api import errors
from api.bootstrap import Services
from api.context import CourtsideFlask, actor, holds_current, now, services, unit_of_work
from api.event_pages import FEED_HEADERS, PAGE_HEADERS, _stamp
from api.schemas.common import Strict
from api.schemas.matches import OP_ID, GameScoreBody
from domain.access.audit_records import ActorKind
from domain.errors import Invalid, NotFound, RateLimited
from domain.event_day.estimates import Estimator
from domain.ids import hash_secret
from domain.models import Broadcast
from domain.plan.published import published_order
from domain.ports import UnitOfWork
from domain.public import personal
from domain.public.event_page import OrderRead

blp = Blueprint("personal_pages", __name__, template_folder="templates")
ASSETS = Path(__file__).parent / "templates"
ME_SCRIPT = "me.js"


@dataclass(frozen=True)
class _Kept:
    etag: str
    body: bytes


def _tag(value: Any) -> str:
    return hashlib.sha256(orjson.dumps(value)).hexdigest()[:24]


_VIEW_BUILD = threading.Lock()  # after a write, the first poll builds the broadcast's view; the others wait for it


def _order(ctx: Services) -> OrderRead:
    """The published order of play (§20) as the event page reads it: its planned courts and times on the cards."""
    return functools.partial(published_order, now=now(), zone=ctx.settings.zone())


def _build(uow: UnitOfWork, key: str, *, kept_at: tuple[Any, Any] | None = None) -> _Kept:
    """The person's state as served (body and ETag), read in `uow`. `kept_at` (stamp, guard): the broadcast's
    view may come from, and goes to, the cache at that stamp (a poll); without it the view is read in `uow` (an
    action answers what it just changed)."""
    ctx = services()
    broadcast, person_id = personal.person_by_key(uow, key=key)
    estimator = Estimator(uow, now=now(), default_minutes=ctx.settings.default_match_minutes)
    view = None if kept_at is None else _view(uow, broadcast, estimator, kept_at)
    state = personal.personal_state(uow, broadcast, person_id, estimator=estimator, now=now(), view=view,
                                    order=_order(ctx))
    version = _tag(state)
    return _Kept(etag=version, body=orjson.dumps({"data": {"version": version, **state}}))


def _view(uow: UnitOfWork, broadcast: Broadcast, estimator: Estimator, kept_at: tuple[Any, Any]
          ) -> personal.BroadcastView:
    """The broadcast's view (people and cards) shared by all its personal pages: built once per stamp, by one
    request while the others polling meanwhile wait for it (§8a's one snapshot per version)."""
    ctx = services()
    stamp, guard = kept_at
    cache_key = ("me-view", broadcast.id)
    view: personal.BroadcastView | None = ctx.event_snapshots.get(cache_key, stamp, guard=guard)
    if view is None:
        with _VIEW_BUILD:
            view = ctx.event_snapshots.get(cache_key, stamp, guard=guard)
            if view is None:
                view = personal.broadcast_view(uow, broadcast, estimator=estimator, now=now(), order=_order(ctx))
                ctx.event_snapshots.put(cache_key, stamp, view, guard=guard)
    return view


def _kept(key: str) -> _Kept:
    """The page's state: kept while the store and the minute are unchanged, else built once. NotFound for an
    unknown or rotated link."""
    ctx = services()
    stamp, guard = _stamp(ctx)
    cache_key = ("me", hash_secret(key))
    kept: _Kept | None = ctx.event_snapshots.get(cache_key, stamp, guard=guard)
    if kept is None:
        with unit_of_work() as uow:
            kept = _build(uow, key, kept_at=(stamp, guard))
        ctx.event_snapshots.put(cache_key, stamp, kept, guard=guard)
    return kept


def _missing_page() -> Response:
    html = render_template("phone_missing.html", what="page")
    return Response(html, status=404, mimetype="text/html", headers=PAGE_HEADERS)


def _missing() -> Response:
    return errors.error_response(404, "not_found", "No such page.")


@blp.route("/me/<string:key>", methods=["GET"])
def me_page(key: str) -> Response:
    """The person's page: called-up banner, match in play, next matches, results; state in the HTML."""
    try:
        kept = _kept(key)
    except NotFound:
        return _missing_page()
    state = orjson.loads(kept.body)["data"]
    html = render_template("me.html", state=state, state_json=kept.body.decode().replace("<", "\\u003c"))
    return Response(html, mimetype="text/html", headers=PAGE_HEADERS)


@blp.route("/me/<string:key>/state", methods=["GET"])
def me_state(key: str) -> Response:
    """The person's state feed (`{"data": {"version", "person", "called", "current", "next", "results", ...}}`)."""
    try:
        kept = _kept(key)
    except NotFound:
        return _missing()
    tag = f'"{kept.etag}"'
    headers = {"ETag": tag, **FEED_HEADERS}
    if holds_current(request.headers.get("If-None-Match"), tag):
        return Response(status=304, headers=headers)
    return Response(kept.body, status=200, mimetype="application/json", headers=headers)


def act(key: str, action: Callable[..., None]) -> Response:
    """Run one of the person's actions in one unit of work, recorded with the `player` actor (their personID);
    answer the new state. Rate-limited per link (§8a); 404 alike for an unknown key."""
    ctx = services()
    quota = ctx.limiter.hit(f"personal:{hash_secret(key)}", ctx.settings.scorer_rate_limit)
    if not quota.allowed:
        raise RateLimited("Too many requests from this page; wait a moment.", retry_after=quota.reset)
    try:
        with unit_of_work() as uow:
            broadcast, person_id = personal.person_by_key(uow, key=key)
            uow.actor = actor(ActorKind.PLAYER, person_id)
            action(uow, broadcast, person_id)
            kept = _build(uow, key)
    except NotFound as missing:
        if str(missing) == "No such page.":
            return _missing()
        raise
    return Response(kept.body, status=200, mimetype="application/json", headers=FEED_HEADERS)


@blp.route("/me/<string:key>/check-in", methods=["POST"])
def me_check_in(key: str) -> Response:
    """Check in through the link (`409 self_check_in_off` while the event does not allow it)."""
    return act(key, lambda uow, broadcast, person_id: personal.self_check_in(uow, broadcast, person_id, now=now()))


class ReportBody(Strict):
    gameScores = fields.List(fields.Nested(GameScoreBody), required=True, validate=validate.Length(min=1, max=99))
    opID = OP_ID

    @post_load
    def to_command(self, data: dict[str, Any], **_: Any) -> personal.Report:
        return personal.Report(game_scores=data["gameScores"], op_id=data.get("opID"))


def _report_body() -> personal.Report:
    """The request's body as a report (400 `validation_failed` naming the field; 400 `bad_request` for a body that
    is not JSON at all, as on every other route)."""
    body = request.get_json(silent=True)
    if body is None and request.get_data(cache=True):
        raise Invalid("The request body is not valid JSON.", code="bad_request")
    try:
        report: personal.Report = ReportBody().load({} if body is None else body)
    except ValidationError as exc:
        raise Invalid("The report is not valid.", details={"json": exc.messages}) from exc
    return report


def _estimator(uow: UnitOfWork) -> Estimator:
    return Estimator(uow, now=now(), default_minutes=services().settings.default_match_minutes)


def _json_view(view: Callable[..., Response]) -> Callable[..., Response]:
    view.takes_json_body = True  # type: ignore[attr-defined]  # the platform lets a JSON body through
    return view


@blp.route("/me/<string:key>/matches/<string:match_id>/report", methods=["POST"])
@_json_view
def me_report(key: str, match_id: str) -> Response:
    """Report the games of one's match (`409 self_report_off`, `match_locked`, `match_not_active`; 404 for someone
    else's match)."""
    report = _report_body()
    return act(key, lambda uow, broadcast, person_id: personal.report_result(
        uow, broadcast, person_id, match_id=match_id, report=report, estimator=_estimator(uow), now=now(),
        rules=services().rules))


def _settle(key: str, report_id: str, *, confirm: bool) -> Response:
    return act(key, lambda uow, broadcast, person_id: personal.settle_report(
        uow, broadcast, person_id, report_id=report_id, confirm=confirm, estimator=_estimator(uow), now=now(),
        rules=services().rules))


@blp.route("/me/<string:key>/reports/<string:report_id>/confirm", methods=["POST"])
def me_confirm(key: str, report_id: str) -> Response:
    """Confirm the opponent's report: the result is recorded (§19)."""
    return _settle(key, report_id, confirm=True)


@blp.route("/me/<string:key>/reports/<string:report_id>/dispute", methods=["POST"])
def me_dispute(key: str, report_id: str) -> Response:
    """Dispute the opponent's report: the desk settles it."""
    return _settle(key, report_id, confirm=False)


@blp.route("/me/assets/me.js", methods=["GET"])
def me_script() -> Response:
    """The page's one script (served from here, so the page's policy needs no inline script)."""
    return Response((ASSETS / ME_SCRIPT).read_bytes(), mimetype="text/javascript",
                    headers={"Cache-Control": "public, max-age=300"})


def install(app: CourtsideFlask) -> None:
    app.register_blueprint(blp)
