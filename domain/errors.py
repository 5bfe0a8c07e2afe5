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


#: Every `error.code` an error envelope can carry (the document's enum of `ErrorDetail.code`);
#: tests/contract/test_openapi.py checks that every code the source raises is here.
ERROR_CODES: tuple[str, ...] = (
    # 400
    "bad_request", "validation_failed", "invalid_cursor", "invalid_request_id", "invalid_event_id",
    "idempotency_key_required", "invalid_idempotency_key", "duplicate_table", "duplicate_match", "duplicate_player",
    "conflicting_patch", "roster_type_immutable", "roster_not_individual", "unknown_player", "unknown_court",
    "ambiguous_court", "webhook_url_not_allowed", "csrf_failed",
    # OAuth (RFC 6749 section 5.2 and 4.1.2.1)
    "invalid_request", "invalid_grant", "unsupported_grant_type", "invalid_scope", "unauthorized_client",
    "access_denied",
    # 401, 403, 404, 405
    "authentication_required", "invalid_token", "invalid_client", "forbidden", "insufficient_scope",
    "table_not_managed", "house_connection", "report_own", "not_found", "method_not_allowed",
    # 409
    "conflict", "match_locked", "match_undecided", "match_not_pending", "match_not_active", "match_cancelled",
    "match_decided", "match_exists", "match_in_pool", "match_in_draw", "table_busy", "webhook_not_configured",
    "idempotency_key_reused", "delivery_in_progress", "player_busy", "player_resting", "not_checked_in",
    "not_before", "queue_empty", "all_players_busy", "nothing_startable", "nothing_to_undo", "stale_state",
    "player_exists", "player_in_use", "draw_exists", "draw_started", "downstream_started", "draw_change_required",
    "draw_match_not_open", "entry_not_withdrawn", "self_check_in_off", "self_report_off", "report_settled",
    "already_registered", "registration_full",
    # 413, 415, 429, 431, 500, 503
    "payload_too_large", "request_header_too_large", "unsupported_media_type", "rate_limited", "internal_error", "busy",
)
