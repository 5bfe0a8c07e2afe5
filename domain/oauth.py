"""OAuth 2.0 for partner apps: registration, the consent (approve) step, and the token endpoint's grants.

Codes, access tokens and refresh tokens are random secrets stored only by hash. One approval starts a token
*family* (`family_id`): the code, and every access and refresh token descended from it. Presenting a consumed
code or refresh token again revokes that whole family. Those refusals must still change state, so the grant
services return a `Refused` outcome (committed by the caller's unit of work) instead of raising.
"""

from __future__ import annotations

import base64
import hashlib
import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from domain.auth import Principal, authenticate, parse_scopes, revoke_connection
from domain.clock import iso
from domain.errors import DomainError, Invalid, InvalidClient, NotFound, Unauthenticated
from domain.ids import hash_secret, new_id, new_secret, same_secret
from domain.models import SCOPES, App, AuthorizationCode, Connection, Credential
from domain.ports import UnitOfWork

VERIFIER = re.compile(r"^[A-Za-z0-9._~-]{43,128}$")
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
class Issued:
    """A successful token request: the RFC 6749 §5.1 response members."""

    access_token: str
    refresh_token: str
    expires_in: int
    scopes: list[str]
    connection_id: str

    def as_response(self) -> dict[str, object]:
        return {
            "access_token": self.access_token, "token_type": "Bearer", "expires_in": self.expires_in,
            "refresh_token": self.refresh_token, "scope": " ".join(self.scopes),
            "connection_id": self.connection_id,
        }


@dataclass(frozen=True)
class Refused:
    """A token request refused after changing state (a replay revoked a family): raise `error` after commit."""

    error: DomainError


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


# ---------------------------------------------------------------- apps
def _check_redirect_uri(uri: str) -> None:
    """Registered redirect URIs are absolute http(s) URLs without a fragment (RFC 6749 §3.1.2)."""
    if not re.fullmatch(REDIRECT_URI_PATTERN, uri):
        raise Invalid(
            f"Redirect URI {uri!r} must be an absolute http(s) URL without a fragment.",
            details={"json": {"redirectURIs": ["Must be an absolute http(s) URL without a fragment."]}},
        )


def register_app(
    uow: UnitOfWork, *, account_id: str, name: str, redirect_uris: list[str], scope: str | None,
    legacy: bool = False, now: datetime,
) -> tuple[App, str]:
    """Register a partner app; returns it and its client secret, which is shown only this once."""
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
    return app, secret


def list_apps(uow: UnitOfWork, *, account_id: str) -> list[App]:
    """The account's apps, oldest first."""
    return uow.apps.find(account_id=account_id)


def _app_by_client_id(uow: UnitOfWork, client_id: str | None) -> App | None:
    found = uow.apps.find(client_id=client_id) if client_id else []
    return found[0] if found else None


def authenticate_client(uow: UnitOfWork, *, client_id: str | None, client_secret: str | None) -> App:
    """The app whose client credentials these are, or 401 `invalid_client`."""
    app = _app_by_client_id(uow, client_id)
    if app is None or not client_secret or not same_secret(client_secret, app.client_secret_hash):
        raise InvalidClient("Client authentication failed.")
    return app


# ---------------------------------------------------------------- consent
def check_authorization(
    uow: UnitOfWork, *, client_id: str | None, redirect_uri: str | None, scope: str | None,
    code_challenge: str | None, code_challenge_method: str | None = None, response_type: str | None = "code",
    account_id: str | None = None,
) -> AuthorizationCheck:
    """Check an authorization request (the consent page and `POST /operator/oauth/approve` share this)."""
    app = _app_by_client_id(uow, client_id)
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
    uow: UnitOfWork, *, account_id: str, client_id: str, redirect_uri: str, scope: str | None,
    code_challenge: str | None, code_challenge_method: str | None = None, state: str | None = None,
    now: datetime, code_ttl: int = 600,
) -> tuple[str, str]:
    """The operator approves: a single-use code bound to the app and redirect URI; returns it and the redirect."""
    check = check_authorization(
        uow, client_id=client_id, redirect_uri=redirect_uri, scope=scope, code_challenge=code_challenge,
        code_challenge_method=code_challenge_method, account_id=account_id,
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
        )
    )
    return code, with_query(check.redirect_uri, code=code, state=state)


# ---------------------------------------------------------------- token grants
def s256(verifier: str) -> str:
    """The PKCE S256 challenge of a verifier."""
    return base64.urlsafe_b64encode(hashlib.sha256(verifier.encode("ascii")).digest()).decode().rstrip("=")


def _revoke_family(uow: UnitOfWork, family_id: str | None, now: datetime) -> None:
    """Revoke every access and refresh token of one authorization."""
    if family_id is None:
        return
    for credential in uow.credentials.find(family_id=family_id):
        if credential.revoked_on is None:
            credential.revoked_on = iso(now)
            uow.credentials.put(credential)


def _issue(
    uow: UnitOfWork, *, connection: Connection, scopes: list[str], family_id: str, now: datetime,
    lifetimes: TokenLifetimes,
) -> Issued:
    """A new access and refresh token pair in `family_id`; the connection tracks the access token's expiry."""
    access, refresh = new_secret("svc_token"), new_secret("svc_refresh")
    access_expires = iso(now + timedelta(seconds=lifetimes.access))
    for secret, kind, expires in (
        (access, "access", access_expires),
        (refresh, "refresh", iso(now + timedelta(seconds=lifetimes.refresh))),
    ):
        uow.credentials.put(
            Credential(
                id=hash_secret(secret), kind=kind, account_id=connection.account_id, connection_id=connection.id,
                scopes=scopes, created_on=iso(now), expires_on=expires, family_id=family_id,
            )
        )
    connection.token_expires_on = access_expires
    uow.connections.put(connection)
    return Issued(access, refresh, lifetimes.access, scopes, connection.id)


def _installation(uow: UnitOfWork, *, app: App, scopes: list[str], approved_on: str) -> Connection:
    """The app's active connection on the account, with the newly approved scopes; a new one if none."""
    for connection in uow.connections.find(app_id=app.id):
        if connection.account_id == app.account_id and connection.revoked_on is None:
            connection.scopes, connection.approved_on, connection.app_name = scopes, approved_on, app.name
            return connection
    return Connection(
        id=new_id("conn"), account_id=app.account_id, app_id=app.id, app_name=app.name, kind="oauth",
        scopes=scopes, approved_on=approved_on,
    )


def exchange_code(
    uow: UnitOfWork, *, client_id: str | None, client_secret: str | None, code: str | None,
    code_verifier: str | None, redirect_uri: str | None, now: datetime, lifetimes: TokenLifetimes,
) -> Issued | Refused:
    """`grant_type=authorization_code`: a valid code, presented once by its client, becomes tokens."""
    app = authenticate_client(uow, client_id=client_id, client_secret=client_secret)
    if not code:
        raise Invalid("code is required.", code="invalid_request")
    stored = uow.codes.get(hash_secret(code))
    if stored is None or stored.app_id != app.id:
        raise Invalid("The authorization code is not valid.", code="invalid_grant")
    if stored.used_on is not None:
        _revoke_family(uow, stored.family_id, now)
        return Refused(Invalid("The authorization code was already used; its tokens are revoked.",
                               code="invalid_grant"))
    if stored.expires_on <= iso(now):
        raise Invalid("The authorization code has expired.", code="invalid_grant")
    if redirect_uri is None:  # RFC 6749 §4.1.3: required when the authorization request carried it (ours always do)
        raise Invalid("redirect_uri is required: the one of the authorization request.", code="invalid_request")
    if redirect_uri != stored.redirect_uri:
        raise Invalid("redirect_uri does not match the authorization request.", code="invalid_grant")
    if stored.code_challenge is None:
        if code_verifier is not None:
            raise Invalid("code_verifier given for an authorization without a code_challenge.",
                          code="invalid_request")
    else:
        if code_verifier is None or not VERIFIER.match(code_verifier):
            raise Invalid("code_verifier must be 43 to 128 characters of A-Z a-z 0-9 . _ ~ -.",
                          code="invalid_request")
        if not same_secret(s256(code_verifier), hash_secret(stored.code_challenge)):
            raise Invalid("code_verifier does not match the code_challenge.", code="invalid_grant")
    connection = _installation(uow, app=app, scopes=stored.scopes, approved_on=stored.created_on)
    stored.used_on, stored.connection_id = iso(now), connection.id
    uow.codes.put(stored)
    assert stored.family_id is not None
    return _issue(uow, connection=connection, scopes=stored.scopes, family_id=stored.family_id, now=now,
                  lifetimes=lifetimes)


def refresh(
    uow: UnitOfWork, *, client_id: str | None, client_secret: str | None, refresh_token: str | None,
    scope: str | None, now: datetime, lifetimes: TokenLifetimes,
) -> Issued | Refused:
    """`grant_type=refresh_token`: single use, rotated; a replay revokes the family; never widens scope."""
    app = authenticate_client(uow, client_id=client_id, client_secret=client_secret)
    if not refresh_token:
        raise Invalid("refresh_token is required.", code="invalid_request")
    stored = uow.credentials.get(hash_secret(refresh_token))
    connection = uow.connections.get(stored.connection_id or "") if stored is not None else None
    if stored is None or stored.kind != "refresh" or connection is None or connection.app_id != app.id:
        raise Invalid("The refresh token is not valid.", code="invalid_grant")
    if stored.consumed_on is not None:
        _revoke_family(uow, stored.family_id, now)
        return Refused(Invalid("The refresh token was already used; its token family is revoked.",
                               code="invalid_grant"))
    if stored.revoked_on is not None or connection.revoked_on is not None:
        raise Invalid("The refresh token is revoked.", code="invalid_grant")
    if stored.expires_on is not None and stored.expires_on <= iso(now):
        raise Invalid("The refresh token has expired.", code="invalid_grant")
    asked = parse_scopes(scope, allowed=stored.scopes) or list(stored.scopes)  # None: keep what was granted
    scopes = [name for name in asked if name in connection.scopes]  # a later, narrower approval also caps
    if not scopes:
        raise Invalid("The connection no longer grants any of these scopes.", code="invalid_grant")
    stored.consumed_on = iso(now)
    uow.credentials.put(stored)
    return _issue(uow, connection=connection, scopes=scopes, family_id=stored.family_id or new_id("fam"),
                  now=now, lifetimes=lifetimes)


# ---------------------------------------------------------------- connections
def list_connections(uow: UnitOfWork, *, account_id: str) -> list[Connection]:
    """Every connection of the account (OAuth installations and developer keys, revoked ones too)."""
    return uow.connections.find(account_id=account_id)


def disconnect(uow: UnitOfWork, *, account_id: str, connection_id: str, now: datetime) -> Connection:
    """The operator revokes a connection and all its tokens (404 if unknown or already revoked)."""
    return revoke_connection(uow, connection_id=connection_id, account_id=account_id, now=now)

