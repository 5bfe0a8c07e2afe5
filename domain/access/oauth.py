"""OAuth 2.0 for partner apps: registration, the consent (approve) step, and the token endpoint's grants.

Codes, access tokens and refresh tokens are random secrets stored only by hash. One approval starts a token
*family* (`family_id`): the code, and every access and refresh token descended from it. Presenting a consumed
code or refresh token again revokes that whole family (`Replayed`, `revoke_family`). The token endpoint's protocol
(grants, PKCE, client authentication) is authlib's, in `api/oauth_server.py`; these are the storage rules it calls.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from domain.access import audit
from domain.access.audit_records import AuditAction, TargetType
from domain.access.auth import Principal, authenticate, parse_scopes, revoke_connection
from domain.clock import iso
from domain.errors import DomainError, Invalid, NotFound, Unauthenticated
from domain.ids import hash_secret, new_id, new_secret
from domain.models import SCOPES, App, AuthorizationCode, Connection, ConnectionKind, Credential, CredentialKind
from domain.ports import UnitOfWork

# A registered redirect URI: absolute http(s), a DNS name or IPv4 host, no fragment (RFC 6749 §3.1.2).
REDIRECT_URI_PATTERN = r"^https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?([/?][^#\s\x00-\x1f\x7f]*)?$"
# One or more known scopes separated by spaces.
SCOPE_PATTERN = r"^ *(SCOPE)( +(SCOPE))* *$".replace("SCOPE", "|".join(re.escape(name) for name in SCOPES))
S256_CHALLENGE = re.compile(r"^[A-Za-z0-9_-]{43}$")  # base64url (no padding) of a SHA-256 digest
MAX_REDIRECT_URIS = 10


@dataclass(frozen=True)
class TokenLifetimes:
    """Seconds each kind of token lives (settings `access_token_ttl`, `refresh_token_ttl`)."""

    access: int = 3600
    refresh: int = 30 * 24 * 3600


@dataclass(frozen=True)
class AuthorizationCheck:
    """An authorization request, checked. `problem` is None when it may be approved.

    `can_redirect` says whether the problem may be reported to `redirect_uri` (the client and the exact
    redirect URI are known); otherwise it is shown to the operator and never redirected.
    """

    app: App | None
    redirect_uri: str
    scopes: list[str]
    code_challenge: str | None
    problem: DomainError | None = None
    can_redirect: bool = False


@dataclass(frozen=True)
class NewApp:
    """A validated `POST /operator/apps` body: `scope` space-separated (all scopes when None); a `legacy` app
    may authorize without PKCE."""

    name: str
    redirect_uris: list[str]
    scope: str | None = None
    legacy: bool = False


@dataclass(frozen=True)
class Approval:
    """The operator's consent to an authorization request (`POST /operator/oauth/approve`, or the consent
    page's form)."""

    client_id: str
    redirect_uri: str
    scope: str | None = None
    code_challenge: str | None = None
    code_challenge_method: str | None = None
    state: str | None = None


# ---------------------------------------------------------------- apps
def _check_redirect_uri(uri: str) -> None:
    """Registered redirect URIs are absolute http(s) URLs without a fragment (RFC 6749 §3.1.2)."""
    if not re.fullmatch(REDIRECT_URI_PATTERN, uri):
        raise Invalid(
            f"Redirect URI {uri!r} must be an absolute http(s) URL without a fragment.",
            details={"json": {"redirectURIs": ["Must be an absolute http(s) URL without a fragment."]}},
        )


def register_app(uow: UnitOfWork, *, account_id: str, new: NewApp, now: datetime) -> tuple[App, str]:
    """Register a partner app; returns it and its client secret, which is shown only this once."""
    name, redirect_uris, scope, legacy = new.name, new.redirect_uris, new.scope, new.legacy
    if not 1 <= len(redirect_uris) <= MAX_REDIRECT_URIS:
        raise Invalid(f"Register 1 to {MAX_REDIRECT_URIS} redirect URIs.")
    for uri in redirect_uris:
        _check_redirect_uri(uri)
    scopes = parse_scopes(scope)
    if scopes is None:
        scopes = list(SCOPES)
    secret = new_secret("svc_secret")
    app = uow.apps.put(
        App(
            id=new_id("app"), account_id=account_id, name=name, client_id=new_id("client"),
            client_secret_hash=hash_secret(secret), redirect_uris=list(dict.fromkeys(redirect_uris)),
            scopes=scopes, created_on=iso(now), legacy=legacy,
        )
    )
    audit.record(uow, account_id=account_id, action=AuditAction.APP_CREATED, target=(TargetType.APP, app.id),
                 after=app, now=now)
    return app, secret


def list_apps(uow: UnitOfWork, *, account_id: str) -> list[App]:
    """The account's apps, oldest first."""
    return uow.apps.find(account_id=account_id)


def app_by_client_id(uow: UnitOfWork, client_id: str | None) -> App | None:
    """The app registered with this client ID, if any."""
    found = uow.apps.find(client_id=client_id) if client_id else []
    return found[0] if found else None


# ---------------------------------------------------------------- consent
def check_authorization(
    uow: UnitOfWork, *, client_id: str | None, redirect_uri: str | None, scope: str | None,
    code_challenge: str | None, code_challenge_method: str | None = None, response_type: str | None = "code",
    account_id: str | None = None,
) -> AuthorizationCheck:
    """Check an authorization request (the consent page and `POST /operator/oauth/approve` share this)."""
    app = app_by_client_id(uow, client_id)
    if app is None or (account_id is not None and app.account_id != account_id):
        return AuthorizationCheck(None, redirect_uri or "", [], None, NotFound("Unknown client_id."))
    if not redirect_uri or redirect_uri not in app.redirect_uris:
        problem = Invalid("redirect_uri does not match a URI registered for this app.", code="invalid_request")
        return AuthorizationCheck(app, redirect_uri or "", [], None, problem)

    def refuse(message: str, code: str = "invalid_request") -> AuthorizationCheck:
        return AuthorizationCheck(app, redirect_uri, [], None, Invalid(message, code=code), can_redirect=True)

    if not response_type:
        return refuse("response_type is required.")
    if response_type != "code":
        return refuse("Only response_type=code is supported.", "unsupported_response_type")
    if scope is not None and not scope.split():
        return refuse("scope is empty; omit it to ask for all of the app's scopes.", "invalid_scope")
    wanted = scope.split() if scope is not None else list(app.scopes)
    outside = sorted(set(wanted) - set(app.scopes))
    if outside:
        return refuse(f"Scope not registered for this app: {' '.join(outside)}.", "invalid_scope")
    scopes = [name for name in SCOPES if name in wanted]
    if code_challenge is None:
        if code_challenge_method is not None:
            return refuse("code_challenge_method without code_challenge.")
        if not app.legacy:
            return refuse("A PKCE code_challenge (S256) is required.")
    else:
        if code_challenge_method != "S256":  # absent means "plain" (RFC 7636 §4.3), which we refuse
            return refuse("code_challenge_method must be S256 (plain is not supported).")
        if not S256_CHALLENGE.match(code_challenge):
            return refuse("code_challenge must be the base64url SHA-256 of the verifier (43 characters).")
    return AuthorizationCheck(app, redirect_uri, scopes, code_challenge)


def with_query(uri: str, **params: str | None) -> str:
    """`uri` with `params` (those not None) added to its query, keeping the query it already has."""
    parts = urlsplit(uri)
    query = parse_qsl(parts.query, keep_blank_values=True)
    query += [(key, value) for key, value in params.items() if value is not None]
    return urlunsplit(parts._replace(query=urlencode(query)))


def error_redirect(
    check: AuthorizationCheck, *, code: str, state: str | None, description: str | None = None
) -> str:
    """Where a refused or denied authorization sends the browser (RFC 6749 §4.1.2.1)."""
    return with_query(check.redirect_uri, error=code, error_description=description, state=state)


def operator_for(uow: UnitOfWork, *, operator_key: str | None, now: datetime) -> Principal | None:
    """The operator signing in on the consent page, or None when the key is not accepted."""
    try:
        return authenticate(uow, credential=operator_key, operator=True, now=now)
    except Unauthenticated:
        return None


def approve(
    uow: UnitOfWork, *, account_id: str, approval: Approval, now: datetime, approved_by: str, code_ttl: int = 600,
) -> tuple[str, str]:
    """The operator approves: a single-use code bound to the app and redirect URI; returns it and the redirect.
    `approved_by` (the operator key's ID) is kept with the code: the connection it makes names that operator."""
    state = approval.state
    check = check_authorization(
        uow, client_id=approval.client_id, redirect_uri=approval.redirect_uri, scope=approval.scope,
        code_challenge=approval.code_challenge, code_challenge_method=approval.code_challenge_method,
        account_id=account_id,
    )
    if check.problem is not None:
        raise check.problem
    assert check.app is not None
    code = new_secret("svc_code")
    uow.codes.put(
        AuthorizationCode(
            id=hash_secret(code), app_id=check.app.id, account_id=check.app.account_id,
            redirect_uri=check.redirect_uri, scopes=check.scopes, expires_on=iso(now + timedelta(seconds=code_ttl)),
            created_on=iso(now), code_challenge=check.code_challenge, family_id=new_id("fam"),
            approved_by=approved_by,
        )
    )
    return code, with_query(check.redirect_uri, code=code, state=state)


# ---------------------------------------------------------------- token grants (protocol: api/oauth_server.py)
class Replayed(Invalid):
    """A spent code or refresh token presented again: the caller revokes `family_id` (`revoke_family`), commits
    that, and refuses (RFC 6749 §4.1.2, RFC 9700 §4.14.2)."""

    code = "invalid_grant"

    def __init__(self, message: str, *, family_id: str | None) -> None:
        super().__init__(message)
        self.family_id = family_id


def code_to_exchange(uow: UnitOfWork, *, code: str, app_id: str, now: datetime) -> AuthorizationCode:
    """The stored code `app_id` may exchange now; `Replayed` if spent, else `invalid_grant` if not usable."""
    stored = uow.codes.get(hash_secret(code))
    if stored is None or stored.app_id != app_id:
        raise Invalid("The authorization code is not valid.", code="invalid_grant")
    if stored.used_on is not None:
        raise Replayed("The authorization code was already used; its tokens are revoked.", family_id=stored.family_id)
    if stored.expires_on <= iso(now):
        raise Invalid("The authorization code has expired.", code="invalid_grant")
    return stored


def refresh_to_use(uow: UnitOfWork, *, token: str, app_id: str, now: datetime) -> tuple[Credential, Connection]:
    """The refresh token `app_id` may use now and its connection; `Replayed` if spent, else `invalid_grant`."""
    stored = uow.credentials.get(hash_secret(token))
    connection = uow.connections.get(stored.connection_id or "") if stored is not None else None
    if stored is None or stored.kind != CredentialKind.REFRESH or connection is None or connection.app_id != app_id:
        raise Invalid("The refresh token is not valid.", code="invalid_grant")
    if stored.consumed_on is not None:
        raise Replayed("The refresh token was already used; its token family is revoked.", family_id=stored.family_id)
    if stored.revoked_on is not None or connection.revoked_on is not None:
        raise Invalid("The refresh token is revoked.", code="invalid_grant")
    if stored.expires_on is not None and stored.expires_on <= iso(now):
        raise Invalid("The refresh token has expired.", code="invalid_grant")
    return stored, connection


def refreshed_scopes(refresh: Credential, connection: Connection, scope: str | None) -> list[str]:
    """What a refresh grants: the asked (or granted) scopes, never wider, capped by the connection's current ones."""
    asked = parse_scopes(scope, allowed=refresh.scopes) or list(refresh.scopes)  # None: keep what was granted
    scopes = [name for name in asked if name in connection.scopes]  # a later, narrower approval also caps
    if not scopes:
        raise Invalid("The connection no longer grants any of these scopes.", code="invalid_grant")
    return scopes


def revoke_family(uow: UnitOfWork, family_id: str | None, now: datetime) -> None:
    """Revoke every access and refresh token of one authorization."""
    if family_id is None:
        return
    for credential in uow.credentials.find(family_id=family_id):
        if credential.revoked_on is None:
            credential.revoked_on = iso(now)
            uow.credentials.put(credential)


def installation(uow: UnitOfWork, *, app: App, code: AuthorizationCode, now: datetime) -> Connection:
    """The app's active connection on the account, with the code's approved scopes; a new one if none.

    The audit entry (`connection.approved`) names the operator who approved the code as its actor (the request is
    the app's exchange); a code from before approvers were kept names the connection."""
    before: Connection | None = None
    for connection in uow.connections.find(app_id=app.id):
        if connection.account_id == app.account_id and connection.revoked_on is None:
            before = replace(connection)
            connection.scopes, connection.approved_on, connection.app_name = code.scopes, code.created_on, app.name
            break
    else:
        connection = Connection(
            id=new_id("conn"), account_id=app.account_id, app_id=app.id, app_name=app.name, kind=ConnectionKind.OAUTH,
            scopes=code.scopes, approved_on=code.created_on,
        )
    actor = (audit.Actor(audit.ActorKind.OPERATOR, code.approved_by, uow.actor.request_id) if code.approved_by
             else audit.Actor(audit.ActorKind.PARTNER, connection.id, uow.actor.request_id))
    audit.record(uow, account_id=app.account_id, action=AuditAction.CONNECTION_APPROVED,
                 target=(TargetType.CONNECTION, connection.id), before=before, after=connection, now=now, actor=actor)
    return connection


def spend_code(uow: UnitOfWork, code: AuthorizationCode, *, connection_id: str, now: datetime) -> None:
    """The code is used (kept, not deleted, so that a replay can revoke what it issued)."""
    code.used_on, code.connection_id = iso(now), connection_id
    uow.codes.put(code)


def spend_refresh(uow: UnitOfWork, refresh: Credential, *, now: datetime) -> None:
    """The refresh token is used (rotation): presenting it again is a replay."""
    refresh.consumed_on = iso(now)
    uow.credentials.put(refresh)


def save_tokens(
    uow: UnitOfWork, *, connection: Connection, access: str, refresh: str, scopes: list[str],
    family_id: str | None, now: datetime, lifetimes: TokenLifetimes,
) -> None:
    """Store a new access and refresh token pair (by hash) in `family_id`; the connection tracks the access expiry."""
    access_expires, family = iso(now + timedelta(seconds=lifetimes.access)), family_id or new_id("fam")
    for secret, kind, expires in (
        (access, CredentialKind.ACCESS, access_expires),
        (refresh, CredentialKind.REFRESH, iso(now + timedelta(seconds=lifetimes.refresh))),
    ):
        uow.credentials.put(
            Credential(
                id=hash_secret(secret), kind=kind, account_id=connection.account_id, connection_id=connection.id,
                scopes=scopes, created_on=iso(now), expires_on=expires, family_id=family,
            )
        )
    connection.token_expires_on = access_expires
    uow.connections.put(connection)


# ---------------------------------------------------------------- connections
def list_connections(uow: UnitOfWork, *, account_id: str) -> list[Connection]:
    """Every connection of the account (OAuth installations and developer keys, revoked ones too)."""
    return uow.connections.find(account_id=account_id)


def disconnect(uow: UnitOfWork, *, account_id: str, connection_id: str, now: datetime) -> Connection:
    """The operator revokes a connection and all its tokens (404 if unknown or already revoked)."""
    return revoke_connection(uow, connection_id=connection_id, account_id=account_id, now=now)

