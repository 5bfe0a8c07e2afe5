"""Bearer authentication, scopes and rate limits, applied by the `requires` decorator on every route."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar, cast

from flask import g, request

from api.blueprint import Blueprint
from api.bootstrap import Services
from api.context import services
from domain.access.auth import Principal, authenticate, require_scope
from domain.clock import iso
from domain.errors import RateLimited
from domain.ids import hash_secret
from storage.repository import unit_of_work

F = TypeVar("F", bound=Callable[..., Any])

ERROR_REF = {"$ref": "#/components/responses/DEFAULT_ERROR"}
AUTH_ERRORS = {"401": ERROR_REF, "403": ERROR_REF, "429": ERROR_REF}


def bearer_credential() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        return None
    return value.strip()


AUTH_TABLES = ("credentials", "connections")


def _principal(ctx: Services, *, operator: bool) -> Principal:
    """The caller, from the read cache while no credential or connection has changed since it was read, else
    from the store (`domain.access.auth.authenticate`, which raises
    on anything not accepted, so nothing refused is kept).
    """
    credential = bearer_credential()
    now = ctx.clock.now()

    def build() -> Principal:
        with unit_of_work(ctx.store) as uow:
            return authenticate(uow, credential=credential, operator=operator, now=now)

    if not credential:
        return build()
    principal: Principal = ctx.reads.read(("principal", hash_secret(credential), operator),
                                          ctx.store.versions(*AUTH_TABLES), build)
    if principal.expires_on is not None and principal.expires_on <= iso(now):
        return build()  # expired since it was cached: refused the way the store refuses it
    return principal


def _authenticate(*, scope: str | None, operator: bool) -> None:
    ctx = services()
    principal = _principal(ctx, operator=operator)
    settings = ctx.settings
    if operator:
        key, limit = f"operator:{principal.account_id}", settings.rate_limit * 10
    elif principal.is_developer_key:
        key, limit = f"conn:{principal.connection_id}", settings.dev_key_rate_limit
    else:
        key, limit = f"conn:{principal.connection_id}", settings.rate_limit
    quota = g.quota if "quota" in g else ctx.limiter.hit(key, limit)  # a retried view counts once
    g.quota = quota
    if not quota.allowed:
        raise RateLimited("Too many requests; retry after the window resets.", retry_after=quota.reset)
    require_scope(principal, scope)
    g.principal = principal


def requires(scope: str | None = None, *, operator: bool = False) -> Callable[[F], F]:
    """Authenticate the caller (partner credential, or the operator key) before anything else runs."""

    def decorator(view: F) -> F:
        @wraps(view)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            _authenticate(scope=scope, operator=operator)
            return view(*args, **kwargs)

        if operator:
            security: list[dict[str, list[str]]] = [{"operatorKey": []}]
        else:
            security = [{"oauth2": [scope] if scope else []}, {"developerKey": []}]
        errors = {status: ref for status, ref in AUTH_ERRORS.items() if scope or status != "403"}
        documented: F = Blueprint.doc(security=security, responses=errors)(cast(F, wrapper))
        return documented

    return decorator


def quota_headers() -> dict[str, str]:
    """`RateLimit-*` headers for the response of an authenticated request."""
    quota = getattr(g, "quota", None)
    if quota is None:
        return {}
    return {
        "RateLimit-Limit": str(quota.limit),
        "RateLimit-Remaining": str(quota.remaining),
        "RateLimit-Reset": str(quota.reset),
    }
