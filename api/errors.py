"""The one place that turns errors into the envelope `{"error": {"code", "message", "details"?}}`."""

from __future__ import annotations

import functools
import logging
from typing import Any

from flask import Flask, Response, current_app, g, jsonify, request
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException, MethodNotAllowed
from werkzeug.routing import Map

from domain import errors
from storage.port import WriteConflict

log = logging.getLogger("courtside.api")

STATUS_OF: list[tuple[type[errors.DomainError], int]] = [
    (errors.InsufficientScope, 403),
    (errors.RateLimited, 429),
    (errors.Unauthenticated, 401),
    (errors.InvalidClient, 401),
    (errors.Forbidden, 403),
    (errors.NotFound, 404),
    (errors.Conflict, 409),
    (errors.Invalid, 400),
    (errors.DomainError, 400),
]

HTTP_CODES = {
    400: "bad_request",
    401: "authentication_required",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "payload_too_large",
    415: "unsupported_media_type",
    429: "rate_limited",
}


def error_response(status: int, code: str, message: str, details: Any = None,
                   headers: dict[str, str] | None = None) -> Response:
    body: dict[str, Any] = {"code": code, "message": message}
    if details is not None:
        body["details"] = details
    response = jsonify({"error": body})
    response.status_code = status
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


def status_of(error: errors.DomainError) -> int:
    return next(status for kind, status in STATUS_OF if isinstance(error, kind))


def _www_authenticate(error: errors.DomainError) -> dict[str, str]:
    if isinstance(error, errors.InsufficientScope):
        return {"WWW-Authenticate": f'Bearer error="insufficient_scope", scope="{error.scope}"'}
    if isinstance(error, errors.Unauthenticated):
        if error.code == "authentication_required":
            return {"WWW-Authenticate": 'Bearer realm="courtside"'}
        return {"WWW-Authenticate": 'Bearer realm="courtside", error="invalid_token"'}
    if isinstance(error, errors.InvalidClient):
        return {"WWW-Authenticate": 'Basic realm="courtside"'}
    if isinstance(error, errors.RateLimited):
        return {"Retry-After": str(error.retry_after)}
    return {}


def handle_domain_error(error: errors.DomainError) -> Response:
    return error_response(status_of(error), error.code, error.message, error.details, _www_authenticate(error))


def handle_http_exception(error: HTTPException) -> Response:
    status = error.code or 500
    data = getattr(error, "data", None) or {}
    if status in (400, 422) and "messages" in data:
        if isinstance(getattr(error, "exc", None), ValidationError):
            return error_response(400, "validation_failed", "The request is not valid.", data["messages"])
        return error_response(400, "bad_request", "The request body is not valid JSON.", data["messages"])
    headers: dict[str, str] = {}
    if status == 405:
        headers["Allow"] = ", ".join(allowed_methods(getattr(error, "valid_methods", None) or []))
    if status >= 500:
        return handle_unexpected(error)
    message = error.description or error.name
    if status == 404:
        message = "No such resource."
    return error_response(status, HTTP_CODES.get(status, "bad_request"), message, headers=headers)


@functools.cache
def _fixed_paths(url_map: Map) -> dict[str, frozenset[str]]:
    """The methods of each path without parameters (`/tables/bulk`), as the API document lists them."""
    methods: dict[str, set[str]] = {}
    for rule in url_map.iter_rules():
        if not rule.arguments:
            methods.setdefault(rule.rule, set()).update(rule.methods or ())
    return {path: frozenset(found) for path, found in methods.items()}


def allowed_methods(routed: list[str]) -> list[str]:
    """A 405's `Allow`: a fixed path's own methods, not those of the `/{id}` route its last segment also matches
    (`DELETE /tables/bulk` allows PATCH, as documented, not the GET of a table named "bulk"); else the router's."""
    own = _fixed_paths(current_app.url_map).get(request.path)
    return sorted(own if own is not None else routed)


def refuse_other_methods_on_fixed_paths() -> None:
    """A concrete path is matched before a templated one (OpenAPI): `GET /tables/bulk` is a 405, as the document
    lists only PATCH there, not the read of a table whose ID is "bulk" that the router would otherwise find."""
    own = _fixed_paths(current_app.url_map).get(request.path)
    if own is not None and request.method not in own:
        raise MethodNotAllowed(valid_methods=sorted(own))


def handle_busy(error: WriteConflict) -> Response:
    """A unit of work lost its race with other processes every time it was retried (PostgreSQL): try again."""
    log.warning("request %s %s gave up after repeated write conflicts", request.method, request.path)
    return error_response(503, "busy", "Too many concurrent changes to the same data; retry in a moment.",
                          headers={"Retry-After": "1"})


def handle_unexpected(error: Exception) -> Response:
    """A bug: log it with the request ID, answer without internals."""
    log.error("unhandled error in %s %s (request %s)", request.method, request.path,
              getattr(g, "request_id", "-"), exc_info=error)
    return error_response(500, "internal_error", "Something went wrong on our side.")


def register(app: Flask) -> None:
    app.before_request(refuse_other_methods_on_fixed_paths)
    app.register_error_handler(errors.DomainError, handle_domain_error)
    app.register_error_handler(HTTPException, handle_http_exception)
    app.register_error_handler(WriteConflict, handle_busy)
    app.register_error_handler(Exception, handle_unexpected)
