"""The one small tree of typed errors that services raise; `api/` maps each kind to an HTTP status."""

from __future__ import annotations

from typing import Any


class DomainError(Exception):
    """Base of every rule violation a caller can cause. `code` is the envelope's `error.code`."""

    code = "bad_request"

    def __init__(self, message: str, *, code: str | None = None, details: Any = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.details = details


class Invalid(DomainError):
    """The request is malformed or breaks a rule of the request itself (400)."""

    code = "validation_failed"


class Unauthenticated(DomainError):
    """No credential, or one that is unknown, expired or revoked (401)."""

    code = "invalid_token"


class InvalidClient(DomainError):
    """Wrong application client credentials at the token endpoint (401)."""

    code = "invalid_client"


class Forbidden(DomainError):
    """Authenticated, but not allowed to do this (403)."""

    code = "forbidden"


class InsufficientScope(Forbidden):
    """The credential lacks the scope the route needs (403)."""

    code = "insufficient_scope"

    def __init__(self, scope: str) -> None:
        super().__init__(f"This request needs the scope '{scope}'.", details={"requiredScope": scope})
        self.scope = scope


class NotFound(DomainError):
    """The resource does not exist, or the caller may not know it exists (404)."""

    code = "not_found"


class Conflict(DomainError):
    """The resource's state forbids the change (409)."""

    code = "conflict"


class RateLimited(DomainError):
    """Too many requests in the current window (429)."""

    code = "rate_limited"

    def __init__(self, message: str, *, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after
