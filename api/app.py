"""The app factory: platform rules (request IDs, body limits, envelopes, rate-limit headers) and routes."""

from __future__ import annotations

import functools
import json
import re
import time
from typing import Any

import orjson
from flask import Flask, Response, current_app, g, jsonify, request, send_from_directory
from flask.json.provider import DefaultJSONProvider
from swagger_ui_bundle import swagger_ui_path
from werkzeug.middleware.proxy_fix import ProxyFix

from api import errors, event_pages, openapi, output_pages, page_security, personal_pages, phone_pages
from api.blueprint import takes_json_body
from api.bootstrap import Services
from api.context import CourtsideFlask, services
from api.platform import (
    PREFIX,
    REQUEST_ID_CHARACTERS,
    REQUEST_ID_MAX,
    REQUEST_ID_MIN,
    log_access,
    new_request_id,
    takes_form_body,
    valid_request_id,
)
from api.routes import (
    broadcasts,
    connection,
    health,
    matches,
    oauth,
    operator,
    operator_audit,
    operator_draws,
    operator_event,
    operator_matches,
    operator_outputs,
    operator_people,
    operator_personal,
    operator_phone,
    operator_plan,
    operator_print,
    operator_resources,
    operator_webhooks,
    player_lists,
    rosters,
    tables,
    teams,
    webhooks,
)
from api.security import quota_headers
from api.smorest_adapter import CourtsideApi
from api.version import package_version
from domain import text
from domain.errors import Invalid


def _openapi_config(app: Flask) -> None:
    app.config.update(
        API_TITLE="Courtside",
        API_VERSION=package_version(),
        OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX=PREFIX,
        OPENAPI_JSON_PATH="openapi.json",
        OPENAPI_SWAGGER_UI_PATH="docs",
        OPENAPI_SWAGGER_UI_URL=f"{PREFIX}/docs/assets/",
        API_SPEC_OPTIONS={
            "servers": [{"url": "/"}],
            "info": {"description": "Courtside partner and operator API."},
            "components": {
                "securitySchemes": {
                    "oauth2": {
                        "type": "oauth2",
                        "description": "OAuth access token (`svc_token_...`), sent as a bearer token.",
                        "flows": {
                            "authorizationCode": {
                                "authorizationUrl": f"{PREFIX}/oauth/authorize",
                                "tokenUrl": f"{PREFIX}/oauth/token",
                                "refreshUrl": f"{PREFIX}/oauth/token",
                                "scopes": {},
                            }
                        },
                    },
                    "developerKey": {
                        "type": "http", "scheme": "bearer",
                        "description": "Personal developer key (`svc_test_...`), all partner routes.",
                    },
                    "operatorKey": {
                        "type": "http", "scheme": "bearer",
                        "description": "Operator key (`svc_op_...`), operator routes only.",
                    },
                }
            },
        },
    )


def _check_request() -> Response | None:
    """Platform rules that run before routing: the request ID header and the body's size and type."""
    g.started = time.perf_counter()
    environ = request.environ
    given = environ.get("HTTP_SERVICE_REQUEST_ID")
    if given is not None and not valid_request_id(given):
        g.request_id = new_request_id()
        return errors.error_response(
            400, "invalid_request_id",
            f"Service-Request-ID must be {REQUEST_ID_MIN} to {REQUEST_ID_MAX} characters of {REQUEST_ID_CHARACTERS}",
        )
    g.request_id = given or new_request_id()
    settings = services().settings
    if _header_bytes(environ) > settings.max_header_bytes:
        return errors.error_response(
            431, "request_header_too_large", f"The request headers are larger than {settings.max_header_bytes} bytes."
        )
    if not environ.get("CONTENT_LENGTH") and environ.get("HTTP_TRANSFER_ENCODING") is None:
        return _check_text(False)  # no body: only the path and query to check (most requests)
    length = request.content_length
    if length is not None and length > settings.max_body_bytes:
        return errors.error_response(
            413, "payload_too_large", f"The request body is larger than {settings.max_body_bytes} bytes."
        )
    has_body = bool(length) or request.headers.get("Transfer-Encoding") == "chunked"
    if request.method in {"POST", "PUT", "PATCH"} and has_body:
        allowed = {"application/json"}
        if takes_form_body(request.path):
            allowed.add("application/x-www-form-urlencoded")
        if request.mimetype not in allowed:
            return errors.error_response(
                415, "unsupported_media_type", "Send the body as application/json."
            )
    if has_body and not takes_form_body(request.path) and not _takes_json_body():
        return _refuse_unexpected_body()
    return _check_text(has_body)


SIGN_UP_PREFIX = "/register/"


def _check_text(has_body: bool) -> Response | None:
    """No NUL or bidi control character in any string a client sends (contract §8a): path, query, JSON body and
    form, each checked once here, so no route, schema or storage ever sees one (400 naming the field).
    The public sign-up form answers on its own page instead (`domain.event_day.registration` applies the same rule)."""
    found: dict[str, Any] = {}
    if not text.is_clean(request.path):
        found["path"] = {name: [text.MESSAGE] for name, value in (request.view_args or {}).items()
                         if isinstance(value, str) and not text.is_clean(value)} or {"path": [text.MESSAGE]}
    if request.query_string and (query := text.problems(request.args.to_dict(flat=False))):
        found["query"] = {name: [text.MESSAGE] for name in query}
    if has_body and request.mimetype == "application/json":
        raw = request.get_data(cache=True, as_text=True)
        if text.FORBIDDEN_IN_JSON.search(raw) and (body := text.problems({"": request.get_json(silent=True)})):
            found["json"] = body.get("", {"": [text.MESSAGE]}) if isinstance(body.get(""), dict) else body
    elif has_body and request.form and not request.path.startswith(SIGN_UP_PREFIX):
        if form := text.problems(request.form.to_dict(flat=False)):
            found["form"] = {name: [text.MESSAGE] for name in form}
    if not found:
        return None
    return errors.error_response(400, "validation_failed", "The request contains NUL or bidirectional control "
                                 "characters.", details=found)


def _header_bytes(environ: dict[str, Any]) -> int:
    """About how many bytes the request's headers took on the wire (`Name: value\r\n` each), from the WSGI
    environ directly (building werkzeug's header view on every request costs more than the count)."""
    total = 0
    for key, value in environ.items():
        if key.startswith("HTTP_"):
            total += len(key) - 1 + len(value)
        elif key in ("CONTENT_TYPE", "CONTENT_LENGTH") and value:
            total += len(key) + 4 + len(value)
    return total


def _takes_json_body() -> bool:
    """Whether the matched view declares a JSON body (`@blp.arguments`); unmatched routes answer 404/405 later."""
    view = current_app.view_functions.get(request.endpoint or "")
    if view is None:
        return True
    return takes_json_body(view)


def _refuse_unexpected_body() -> Response | None:
    """Strict bodies everywhere: an operation that takes none accepts only an empty JSON object, or an empty body
    (a JSON content type with no bytes is no body, as on the operations that take one: decisions.md)."""
    if not request.get_data(cache=True):
        return None
    body = request.get_json(silent=True)
    if body is None:
        return errors.error_response(400, "bad_request", "The request body is not valid JSON.")
    if body == {}:
        return None
    fields = {name: ["Unknown field."] for name in body} if isinstance(body, dict) else {
        "_schema": ["This operation takes no request body."]}
    return errors.error_response(400, "validation_failed", "This operation takes no request body.", {"json": fields})


def _finish_response(response: Response) -> Response:
    response.headers["Service-Request-ID"] = getattr(g, "request_id", None) or new_request_id()
    for name, value in quota_headers().items():
        response.headers[name] = value
    if services().settings.access_log:  # a queued record: the log thread formats, redacts keys and writes it
        started = g.get("started")
        ms = (time.perf_counter() - started) * 1000 if started is not None else 0.0
        log_access(request.method, request.path, response.status_code, ms, response.headers["Service-Request-ID"])
    return response


class StrictJSONProvider(DefaultJSONProvider):
    """Parses request bodies with orjson: lone surrogates, invalid UTF-8 and nesting deeper than 1,024 are refused
    (`ValueError`, so Flask answers 400), and so are integers beyond 64 bits (orjson would turn them into floats,
    and storage can hold neither). Responses are written by orjson too (keys in the order the code builds them),
    falling back to Flask's serializer for what orjson does not know."""

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        if kwargs:
            return super().dumps(obj, **kwargs)
        try:
            return orjson.dumps(obj).decode()
        except TypeError:
            return super().dumps(obj)

    def response(self, *args: Any, **kwargs: Any) -> Response:
        obj = self._prepare_response_obj(args, kwargs)
        try:
            body = orjson.dumps(obj) + b"\n"
        except TypeError:
            return super().response(*args, **kwargs)  # type: ignore[return-value]
        return Response(body, mimetype=self.mimetype)

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        parsed = orjson.loads(s)
        # orjson reads an integer beyond 64 bits as a float: such a body is read again exactly and refused. An
        # integer beyond 64 bits has 19 digits or more, so a text without 19 digits in a row holds none (and the
        # parsed body is not walked: a big body's walk cost more than its parse).
        if _NINETEEN_DIGITS.search(s.encode() if isinstance(s, str) else s) and _holds_float(parsed):
            _refuse_huge_integers(s)
        return parsed


_NINETEEN_DIGITS = re.compile(rb"[0-9]{19}")


def _holds_float(value: Any) -> bool:
    """Whether a parsed body holds a float anywhere (iterative: bodies may nest up to orjson's 1,024 levels)."""
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, float):
            return True
        if isinstance(item, dict):
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return False


def _int64(text: str) -> int:
    number = int(text)
    if not -(2**63) <= number < 2**64:
        raise ValueError("An integer in the body is beyond 64 bits.")
    return number


def _refuse_huge_integers(s: str | bytes) -> None:
    try:
        json.loads(s, parse_int=_int64)
    except RecursionError as exc:  # orjson allowed the depth; the stdlib may not
        raise ValueError("The body is nested too deeply.") from exc


def _answer_kept_feeds(app: CourtsideFlask, wsgi_app: Any) -> Any:
    """Answer a public feed's poll from its kept snapshot before Flask sees it (`CourtsideFlask.kept_feed_answer`).
    The server (`cli/serving.py`) answers most of them even earlier, in its network loop; this covers any other
    WSGI server."""

    def middleware(environ: dict[str, Any], start_response: Any) -> Any:
        answer = app.kept_feed_answer(environ.get("REQUEST_METHOD", ""), environ.get("PATH_INFO", ""),
                                      environ.get("HTTP_IF_NONE_MATCH"), environ.get("HTTP_SERVICE_REQUEST_ID"))
        if answer is None:
            return wsgi_app(environ, start_response)
        start_response(answer.status, answer.headers)
        return [answer.body]

    return middleware


def _partner_document_view(app: Flask, api: CourtsideApi) -> None:
    """`GET /openapi.json?audience=partner` (also `?scope=partner`): the document without the operator routes, for a
    partner's generator; without the parameter, the whole document as flask-smorest serves it."""
    whole = app.view_functions["api-docs.openapi_json"]

    @functools.wraps(whole)
    def document() -> Any:
        unknown = set(request.args) - {"audience", "scope"}
        audience = request.args.get("audience", request.args.get("scope"))
        if unknown or (audience is not None and audience not in openapi.AUDIENCES):
            named = sorted(unknown) or ["audience" if "audience" in request.args else "scope"]
            raise Invalid("The query is not valid.", details={"query": {
                name: [f"Must be one of: {', '.join(openapi.AUDIENCES)}." if name in ("audience", "scope")
                       else "Unknown field."] for name in named}})
        if audience is None:
            return whole()
        return jsonify(openapi.partner_document(api.spec.to_dict()))

    app.view_functions["api-docs.openapi_json"] = document


def create_app(services: Services) -> CourtsideFlask:
    """The WSGI app over services built by `api.bootstrap.bootstrap`. Starts no threads: `serve` starts the
    dispatcher beside it."""
    settings = services.settings
    app = CourtsideFlask("courtside")
    app.services = services
    app.json = StrictJSONProvider(app)
    app.config["MAX_CONTENT_LENGTH"] = settings.max_body_bytes
    app.config["COURTSIDE_CHECK_RESPONSES"] = settings.check_responses
    app.json.sort_keys = False
    _openapi_config(app)
    api = CourtsideApi(app)
    api.on_first_read(functools.partial(openapi.install, api, settings=settings))
    for module in (health, oauth, connection, broadcasts, rosters, player_lists, teams, tables, matches,
                   webhooks, operator, operator_resources, operator_matches, operator_webhooks, operator_outputs,
                   operator_phone, operator_audit, operator_event, operator_people, operator_draws,
                   operator_print, operator_personal, operator_plan):
        api.register_blueprint(module.blp, url_prefix=PREFIX)
    _partner_document_view(app, api)
    app.add_url_rule(
        f"{PREFIX}/docs/assets/<path:filename>", "swagger_assets",
        lambda filename: send_from_directory(str(swagger_ui_path), filename),
    )
    app.feed_checks = []
    app.feed_builders = []
    output_pages.install(app)
    event_pages.install(app)
    personal_pages.install(app)
    app.wsgi_app = _answer_kept_feeds(app, app.wsgi_app)  # type: ignore[method-assign]
    phone_pages.install(app)
    app.before_request(_check_request)
    app.after_request(_finish_response)
    page_security.install(app)
    if settings.trusted_proxies:  # outermost: links, rate limits and logs all see the client's forwarded view
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=settings.trusted_proxies,  # type: ignore[method-assign]
                                x_proto=settings.trusted_proxies, x_host=settings.trusted_proxies,
                                x_port=settings.trusted_proxies)
    errors.register(app)
    return app
