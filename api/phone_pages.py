"""Public phone pages (contract §11), outside /api/v1 and reached by their key alone.

- `/score/{key}`: a court's scorer page. `GET /score/{key}/state` is its state (JSON, ETag = version);
  `POST /score/{key}/point|undo|complete|start-next` act on that table only, naming the `version` they saw
  (`409 stale_state` otherwise). Actions are rate-limited per link.
- `/register/{key}`: a roster's sign-up form (CSRF token in a cookie and a hidden field, per-address rate limit).
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Callable
from typing import Any

from flask import Blueprint, Flask, Response, jsonify, render_template, request
from marshmallow import ValidationError

from api.context import actor, holds_current, now, services, unit_of_work
from api.errors import status_of
from api.schemas.matches import ScorerPointBody, ScorerRetireBody, ScorerTapBody
from domain.access.audit import ActorKind
from domain.access.ratelimit import RateLimiter
from domain.clock import parse_iso
from domain.errors import Conflict, DomainError, Forbidden, Invalid, NotFound, RateLimited
from domain.event_day import registration
from domain.ids import hash_secret
from domain.match import operations, scorer
from domain.match.scorer import ScorerTap
from domain.settings import Settings

blp = Blueprint("phone_pages", __name__, template_folder="templates")
CSRF_COOKIE = "courtside_csrf"
PAGE_HEADERS = {
    "Cache-Control": "no-store", "Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY",
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; script-src 'nonce-{nonce}'; "
                               "connect-src 'self'; img-src 'self' data:; form-action 'self'; "
                               "frame-ancestors 'none'",
}


def _not_found_page(what: str) -> Response:
    html = render_template("phone_missing.html", what=what)
    return Response(html, status=404, mimetype="text/html", headers=PAGE_HEADERS)


@blp.app_template_filter("clock")
def clock(moment: str | None) -> str:
    """`14:00`: an API timestamp as a time of day in the event's time zone (a schedule's start time, §9a)."""
    return parse_iso(moment).astimezone(services().settings.zone()).strftime("%H:%M") if moment else ""


# ------------------------------------------------------------------------------------------------ scorer
def _scorer_state(key: str) -> dict[str, Any]:
    with unit_of_work() as uow:
        link, table = scorer.scorer_by_key(uow, key=key)
        return scorer.scorer_state(uow, link, table, rules=services().rules, now=now())


def _etag(state: dict[str, Any]) -> str:
    """The state feed's ETag: the state's `version` and how many devices score (which time alone changes)."""
    return f'"{state["version"]}.{state.get("devicesScoring", 0)}"'


@blp.route("/score/<string:key>", methods=["GET"])
def scorer_page(key: str) -> Response:
    """The phone page, with the table's label and current state already in its HTML."""
    try:
        state = _scorer_state(key)
    except NotFound:
        return _not_found_page("scorer link")
    return Response(render_template("score.html", state=state, key=key), mimetype="text/html",
                    headers=PAGE_HEADERS)


@blp.route("/score/<string:key>/state", methods=["GET"])
def scorer_state(key: str) -> Response:
    """The court's state; `If-None-Match` with the current version answers 304."""
    state = _scorer_state(key)
    etag = _etag(state)
    headers = {"ETag": etag, "Cache-Control": "no-cache"}
    if holds_current(request.headers.get("If-None-Match"), etag):
        return Response(status=304, headers=headers)
    response = jsonify({"data": state})
    response.headers.update(headers)
    return response


Action = Callable[..., Any]
TAP, POINT, RETIRE = ScorerTapBody(), ScorerPointBody(), ScorerRetireBody()


def _tap(schema: ScorerTapBody) -> ScorerTap:
    """The request's body as the scorer action's typed command (400 `validation_failed` naming the field)."""
    body = request.get_json(silent=True)
    try:
        tap: ScorerTap = schema.load({} if body is None else body)
    except ValidationError as exc:
        raise Invalid("The scorer action is not valid.", details={"json": exc.messages}) from exc
    return tap


def _act(key: str, action: Action, schema: ScorerTapBody = TAP,
         **extra: Callable[[ScorerTap], Any]) -> Response:
    """Rate-limit per link, read the action's command, run the domain action (`extra` names its further
    arguments, each taken from the command), answer the new state."""
    ctx = services()
    quota = ctx.limiter.hit(f"scorer:{hash_secret(key)}", ctx.settings.scorer_rate_limit)
    if not quota.allowed:
        raise RateLimited("Too many taps on this court; wait a moment.", retry_after=quota.reset)
    tap = _tap(schema)
    arguments = {name: take(tap) for name, take in extra.items()}
    try:
        with unit_of_work() as uow:
            link, table = scorer.scorer_by_key(uow, key=key)
            uow.actor = actor(ActorKind.SCORER, table.id)  # what the link changes is recorded as its table's

            def state() -> dict[str, Any]:
                current, court = scorer.scorer_by_key(uow, key=key)
                return scorer.scorer_state(uow, current, court, rules=ctx.rules, now=now())

            def act() -> tuple[dict[str, Any], str]:
                acted = action(uow, key=key, version=tap.version, now=now(), rules=ctx.rules, **arguments)
                return state(), acted.id

            # a repeated opID answers the first answer again; one an operator route applied to the court's
            # match changes nothing either (contract §17: same match, any route)
            state_now = operations.once_on_court(
                uow, account_id=link.account_id, table_id=table.id, op_id=tap.op_id, now=now(), act=act,
                current=state, match_id=scorer.court_match_id(uow, table))
    except Conflict as refused:
        raise _for_the_phone(refused) from None
    return jsonify({"data": state_now})


PHONE_MESSAGES = {
    "table_busy": "A match is already being played on this court.",
    "queue_empty": "No match is waiting for this court.",
    "all_players_busy": "Every waiting match has a player still playing on another court.",
    "nothing_startable": "No waiting match may start yet: see the desk.",
    "match_not_active": "No match is being played on this court; start the next one.",
    "match_decided": "The match is decided; complete it.",
    "match_undecided": "The match is not decided yet.",
    "match_locked": "This match is already finished.",
}


def _for_the_phone(refused: Conflict) -> Conflict:
    """A refusal as the public scorer page may show it: display names and times, never an ID (contract §8a)."""
    def shown(item: Any) -> Any:
        return {k: v for k, v in item.items() if k in ("reason", "players", "until")} if isinstance(item, dict) \
            else item

    details = refused.details if isinstance(refused.details, dict) else {}
    kept = {key: value for key, value in details.items() if key in ("players", "until")}
    if isinstance(details.get("skipped"), list):
        kept["skipped"] = [shown(item) for item in details["skipped"]]
    return Conflict(PHONE_MESSAGES.get(refused.code, refused.message), code=refused.code, details=kept or None)


def _json_view(view: Callable[..., Response]) -> Callable[..., Response]:
    view.takes_json_body = True  # type: ignore[attr-defined]  # the platform lets a JSON body through
    return view


@blp.route("/score/<string:key>/point", methods=["POST"])
@_json_view
def add_point(key: str) -> Response:
    """+1 for side `a` or `b` in the current game."""
    return _act(key, scorer.add_point, POINT, side=lambda tap: tap.side, device=lambda tap: tap.device_id)


@blp.route("/score/<string:key>/undo", methods=["POST"])
@_json_view
def undo_point(key: str) -> Response:
    """Take back the last point of the match, whoever scored it."""
    return _act(key, scorer.undo_point, device=lambda tap: tap.device_id)


@blp.route("/score/<string:key>/complete", methods=["POST"])
@_json_view
def complete_match(key: str) -> Response:
    """Complete the decided match."""
    return _act(key, scorer.complete)


@blp.route("/score/<string:key>/retire", methods=["POST"])
@_json_view
def retire(key: str) -> Response:
    """Record a retirement of the match in play: `winnerSide` wins (contract §14)."""
    return _act(key, scorer.retire, RETIRE, winner_side=lambda tap: tap.winner_side)


@blp.route("/score/<string:key>/start-next", methods=["POST"])
@_json_view
def start_next(key: str) -> Response:
    """Start the court's next match (players busy elsewhere are skipped)."""
    return _act(key, scorer.start_next)


# ------------------------------------------------------------------------------------------------ sign-up
def _form_page(key: str, *, status: int = 200, error: str | None = None, fields: dict[str, list[str]] | None = None,
               done: dict[str, Any] | None = None) -> Response:
    with unit_of_work() as uow:
        roster, _backing = registration.roster_by_key(uow, key=key)
    token = secrets.token_urlsafe(32)
    html = render_template("register.html", roster=roster.name, token=token, error=error, fields=fields or {},
                           values=request.form if error else {}, done=done)
    response = Response(html, status=status, mimetype="text/html", headers=PAGE_HEADERS)
    response.set_cookie(CSRF_COOKIE, token, httponly=True, samesite="Strict", path=f"/register/{key}",
                        secure=request.is_secure)
    return response


@blp.route("/register/<string:key>", methods=["GET"])
def sign_up_page(key: str) -> Response:
    """The roster's sign-up form (404 while self-registration is off)."""
    try:
        return _form_page(key)
    except NotFound:
        return _not_found_page("sign-up page")


class _SignUpLimits:
    """Sign-ups per client address (contract §8a), counted by outcome: successful sign-ups and failed attempts
    have limits of their own in 10-minute windows, so a typo never locks a player out. The address is the one
    `COURTSIDE_TRUSTED_PROXIES` resolves (werkzeug's ProxyFix)."""

    WINDOW = 600

    def __init__(self, limiter: RateLimiter, settings: Settings, address: str) -> None:
        self.limiter, self.address = limiter, address
        self.limits = {True: settings.registration_rate_limit, False: settings.registration_failure_limit}

    def _key(self, succeeded: bool) -> str:
        return f"register:{'ok' if succeeded else 'failed'}:{self.address}"

    def check(self) -> None:
        for succeeded, limit in self.limits.items():
            quota = self.limiter.peek(self._key(succeeded), limit, window_seconds=self.WINDOW)
            if not quota.allowed:
                raise RateLimited("Too many sign-ups from this device; please wait a few minutes.",
                                  retry_after=quota.reset)

    def count(self, *, succeeded: bool) -> None:
        self.limiter.hit(self._key(succeeded), self.limits[succeeded], window_seconds=self.WINDOW)


@blp.route("/register/<string:key>", methods=["POST"])
def sign_up(key: str) -> Response:
    """Add the player to the roster (`source: "self"`); the page says what happened."""
    ctx = services()
    limits = _SignUpLimits(ctx.limiter, ctx.settings, request.remote_addr or "")
    try:
        limits.check()
        sent, held = request.form.get("csrf", ""), request.cookies.get(CSRF_COOKIE, "")
        if not sent or not held or not hmac.compare_digest(sent.encode(), held.encode()):
            raise Forbidden("This form has expired; please try again.", code="csrf_failed")
        form = registration.SignUp(**{name: request.form.get(field, "") for name, field in (
            ("first_name", "firstName"), ("last_name", "lastName"), ("club_name", "clubName"),
            ("country", "country"), ("gender", "gender"))})
        with unit_of_work() as uow:
            roster, _backing = registration.roster_by_key(uow, key=key)
            uow.actor = actor(ActorKind.REGISTRATION, roster.id)  # a sign-up is recorded as its roster's page
            _roster, player = registration.sign_up(uow, key=key, sign_up=form, now=now())
        limits.count(succeeded=True)
        return _form_page(key, status=201, done=player)
    except NotFound:
        return _not_found_page("sign-up page")
    except DomainError as error:  # the form page shows the reason; the status says it too
        if not isinstance(error, RateLimited):
            limits.count(succeeded=False)
        fields = error.details.get("form") if isinstance(error.details, dict) else None
        response = _form_page(key, status=status_of(error), error=error.message, fields=fields)
        if isinstance(error, RateLimited):
            response.headers["Retry-After"] = str(error.retry_after)
        return response


def install(app: Flask) -> None:
    app.register_blueprint(blp)
