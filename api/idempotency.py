"""`@idempotent`: the `Idempotency-Key` header on every create (contract §23; the rule is
`domain/partner/idempotency.py`).

Put below `@requires` (the caller is known) and above `@blp.arguments` (a body that fails validation is a 400 and
nothing is remembered). A create that shows a secret once uses `@idempotent_hiding("field", …)`: its remembered
answer keeps those fields as null (no live credential in the store), and so does its replay. The view's own unit
of work joins the one opened here (`api.context.unit_of_work`), so the create and its remembered answer commit
together. Only successful answers are remembered: a refused create changed nothing, and its retry is judged anew.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar, cast

import orjson
from flask import Response, current_app, g, request

from api.blueprint import Blueprint
from api.context import caller, now, unit_of_work
from domain.partner import idempotency
from domain.webhooks.types import KEY_MAX, KEY_MIN

F = TypeVar("F", bound=Callable[..., Any])

HEADER = "Idempotency-Key"
#: On an answer given again for a repeated key (absent on a first answer).
REPLAYED = "Idempotent-Replayed"
PARAMETER = {
    "in": "header", "name": HEADER, "required": False,
    "schema": {"type": "string", "minLength": KEY_MIN, "maxLength": KEY_MAX},
    "description": "Optional. The same key with the same body within 24 hours answers the first answer again "
                   "(status and body, with the header `Idempotent-Replayed: true`) and creates nothing; with "
                   "another body it is `409 idempotency_key_reused`. "
                   "Kept per caller and route.",
}


def fingerprint() -> str:
    """The request body as a JSON value (key order and spacing do not count), hashed; raw bytes otherwise."""
    raw = request.get_data(cache=True)
    try:
        value = orjson.loads(raw) if raw else None
        canonical = orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    except orjson.JSONDecodeError:
        canonical = raw
    return hashlib.sha256(canonical).hexdigest()


def _scope() -> str:
    principal = caller()
    who = principal.connection_id if principal.connection_id else f"operator:{principal.key_id or 'operator'}"
    return f"{who}\n{request.method} {request.path}"


def idempotent(view: F) -> F:
    """Make a create view honour `Idempotency-Key` (see the module docstring)."""
    return _idempotent(view, secrets=())


def idempotent_hiding(*secrets: str) -> Callable[[F], F]:
    """`idempotent` for a create whose answer shows a secret once (a developer key, an app's client secret):
    the remembered answer has each of `secrets` (fields of `data`) as null, so no live credential is kept in the
    store of answers; a replay answers the rest of the first answer with those fields null."""

    def decorate(view: F) -> F:
        return _idempotent(view, secrets=secrets)

    return decorate


def without_secrets(body: str, secrets: tuple[str, ...]) -> str:
    """The answer's JSON with each of `secrets` in its `data` replaced by null (the body unchanged without any)."""
    if not secrets:
        return body
    document = orjson.loads(body)
    data = document.get("data") if isinstance(document, dict) else None
    if isinstance(data, dict):
        for name in secrets:
            if name in data:
                data[name] = None
    return orjson.dumps(document).decode() + ("\n" if body.endswith("\n") else "")


def _idempotent(view: F, *, secrets: tuple[str, ...]) -> F:
    @wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        key = request.headers.get(HEADER)
        if key is None:
            return view(*args, **kwargs)
        idempotency.check_key(key)
        account_id, scope, body, moment = caller().account_id, _scope(), fingerprint(), now()
        with unit_of_work() as uow:
            known = idempotency.remembered(uow, account_id=account_id, scope=scope, key=key, fingerprint=body,
                                           now=moment)
            if known is not None:  # the first answer again, marked as such (contract §23)
                return Response(known.body, status=known.status, mimetype="application/json",
                                headers={REPLAYED: "true"})
            g.joined_unit_of_work = uow
            try:
                response = current_app.make_response(view(*args, **kwargs))
            finally:
                g.pop("joined_unit_of_work", None)
            if 200 <= response.status_code < 300:
                idempotency.remember(uow, account_id=account_id, scope=scope, key=key, fingerprint=body,
                                     answer=idempotency.Answer(response.status_code, without_secrets(
                                         response.get_data(as_text=True), secrets)),
                                     now=moment)
            return response

    return cast(F, Blueprint.doc(parameters=[PARAMETER])(wrapper))
