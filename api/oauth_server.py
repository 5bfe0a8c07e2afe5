"""The token endpoint's OAuth 2.0 protocol on authlib's server-side grants (RFC 6749, RFC 7636, RFC 9700).

authlib runs the protocol: client authentication (HTTP Basic or the body), the `authorization_code` grant with
PKCE and the `refresh_token` grant. This module adapts it to Courtside: the request is built from parameters the
view already parsed (form or JSON), storage is `domain.access.oauth` over one unit of work (codes and tokens by hash,
token families, connections), and authlib's answer becomes our body or typed error. The few rules authlib does not
keep are marked "ours" (docs/decisions.md, "The token endpoint on authlib").
"""

from __future__ import annotations

import hmac
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from authlib.oauth2.rfc6749 import (
    AuthorizationCodeGrant,
    AuthorizationCodeMixin,
    AuthorizationServer,
    ClientMixin,
    InvalidClientError,
    InvalidGrantError,
    InvalidRequestError,
    OAuth2Request,
    RefreshTokenGrant,
    TokenMixin,
)
from authlib.oauth2.rfc6749.requests import BasicOAuth2Payload
from authlib.oauth2.rfc6749.util import extract_basic_authorization
from authlib.oauth2.rfc6750 import BearerTokenGenerator
from authlib.oauth2.rfc7636 import CodeChallenge, create_s256_code_challenge
from werkzeug.datastructures import Headers

from domain.access import oauth
from domain.errors import Invalid, InvalidClient
from domain.ids import new_secret, same_secret
from domain.models import App, AuthorizationCode, Connection, Credential
from domain.ports import UnitOfWork

AUTH_METHODS = ["client_secret_basic", "client_secret_post"]
# authlib logs every issued token at DEBUG ("Issue token {...}"): those records are never made.
logging.getLogger("authlib").setLevel(logging.INFO)


# ---------------------------------------------------------------- our records as authlib's models
@dataclass
class Client(ClientMixin):  # type: ignore[misc]  # authlib ships no type information
    """A registered app: a confidential client whose secret is checked against its hash in constant time."""

    app: App

    def check_client_secret(self, client_secret: str) -> bool:
        return same_secret(client_secret, self.app.client_secret_hash)

    def check_endpoint_auth_method(self, method: str, endpoint: str) -> bool:
        return method in AUTH_METHODS

    def check_grant_type(self, grant_type: str) -> bool:
        return True  # every app may use both grants

    def get_allowed_scope(self, scope: str) -> str:
        return scope  # the grants have decided the scope


@dataclass
class Code(AuthorizationCodeMixin):  # type: ignore[misc]  # authlib ships no type information
    record: AuthorizationCode
    code_challenge_method = "S256"  # the approve step takes S256 challenges only

    def get_redirect_uri(self) -> str:
        return self.record.redirect_uri

    def get_scope(self) -> str:
        return " ".join(self.record.scopes)


@dataclass
class Refresh(TokenMixin):  # type: ignore[misc]  # authlib ships no type information
    record: Credential
    connection: Connection

    def check_client(self, client: Client) -> bool:
        return True  # oauth.refresh_to_use found it for this client's app only

    def get_scope(self) -> str:
        return " ".join(self.record.scopes)


class TokenRequest(OAuth2Request):  # type: ignore[misc]  # authlib ships no type information
    """A token request as authlib's grants read it, from the parameters the view parsed (form or JSON body).

    Ours: `OAuth2Request.__init__` refuses a plain-http URL unless the AUTHLIB_INSECURE_TRANSPORT variable is set,
    and Courtside serves http on a laptop or LAN; so this sets the attributes that `__init__` sets, without that
    check (authlib is pinned to the minor version this follows).
    """

    client: Any  # a Client, once authenticated
    user: Any  # the Connection the tokens are for
    authorization_code: Code | None
    refresh_token: Refresh | None

    def __init__(self, params: dict[str, Any], headers: Headers) -> None:
        self.method, self.uri, self.headers, self._body, self._scope = "POST", "", headers, None, None
        self.payload = BasicOAuth2Payload(params)
        self.client = self.auth_method = self.user = self.credential = None
        self.authorization_code = self.refresh_token = None

    @property
    def form(self) -> dict[str, Any]:
        answer: dict[str, Any] = self.payload.data
        return answer


# ---------------------------------------------------------------- grants
class S256(CodeChallenge):  # type: ignore[misc]  # authlib ships no type information
    """PKCE with S256 only (`Code.code_challenge_method`), compared in constant time."""

    CODE_CHALLENGE_METHODS = {
        "S256": lambda verifier, challenge: hmac.compare_digest(create_s256_code_challenge(verifier), challenge),
    }

    def get_authorization_code_challenge(self, authorization_code: Code) -> str | None:
        return authorization_code.record.code_challenge


class CodeGrant(AuthorizationCodeGrant):  # type: ignore[misc]  # authlib ships no type information
    """`grant_type=authorization_code`: a code, presented once by its client, becomes a connection's tokens."""

    server: TokenServer

    def query_authorization_code(self, code: str, client: Client) -> Code:
        with self.server.revoking_replays():
            record = oauth.code_to_exchange(self.server.uow, code=code, app_id=client.app.id, now=self.server.now)
        if self.request.payload.redirect_uri is None:  # ours: authlib answers invalid_grant
            raise InvalidRequestError("redirect_uri is required: the one of the authorization request.")
        return Code(record)

    def authenticate_user(self, authorization_code: Code) -> Connection:
        return oauth.installation(self.server.uow, app=self.request.client.app, code=authorization_code.record,
                                  now=self.server.now)

    def delete_authorization_code(self, authorization_code: Code) -> None:
        oauth.spend_code(self.server.uow, authorization_code.record, connection_id=self.request.user.id,
                         now=self.server.now)


class RefreshGrant(RefreshTokenGrant):  # type: ignore[misc]  # authlib ships no type information
    """`grant_type=refresh_token`: single use and rotated; never wider than granted or than the connection now."""

    TOKEN_ENDPOINT_AUTH_METHODS = AUTH_METHODS
    INCLUDE_NEW_REFRESH_TOKEN = True
    server: TokenServer

    def authenticate_refresh_token(self, refresh_token: str) -> Refresh:
        with self.server.revoking_replays():
            return Refresh(*oauth.refresh_to_use(self.server.uow, token=refresh_token,
                                                 app_id=self.request.client.app.id, now=self.server.now))

    def authenticate_user(self, refresh_token: Refresh) -> Connection:
        return refresh_token.connection

    def issue_token(self, user: Connection, refresh_token: Refresh) -> dict[str, Any]:
        scopes = oauth.refreshed_scopes(refresh_token.record, user, self.request.payload.scope)
        answer: dict[str, Any] = self.generate_token(user=user, scope=" ".join(scopes), include_refresh_token=True)
        return answer

    def revoke_old_credential(self, refresh_token: Refresh) -> None:
        oauth.spend_refresh(self.server.uow, refresh_token.record, now=self.server.now)


# ---------------------------------------------------------------- the server
class TokenServer(AuthorizationServer):  # type: ignore[misc]  # authlib ships no type information
    """authlib's authorization server for one token request over one unit of work; answers `(status, body)`."""

    def __init__(self, uow: UnitOfWork, *, now: datetime, lifetimes: oauth.TokenLifetimes) -> None:
        super().__init__()
        self.uow, self.now, self.lifetimes = uow, now, lifetimes
        self.register_grant(CodeGrant, [S256()])
        self.register_grant(RefreshGrant)
        self.register_token_generator("default", BearerTokenGenerator(
            lambda **_: new_secret("svc_token"), lambda **_: new_secret("svc_refresh"),
            lambda client, grant_type: lifetimes.access,
        ))

    def query_client(self, client_id: str) -> Client | None:
        app = oauth.app_by_client_id(self.uow, client_id)
        return Client(app) if app is not None else None

    def authenticate_client(self, request: TokenRequest, methods: list[str], endpoint: str = "token") -> Client:
        """Ours: client credentials come in HTTP Basic or in the body, never both (authlib takes either)."""
        if request.headers.get("Authorization", "").lower().startswith("basic "):
            try:
                basic_id, _ = extract_basic_authorization(request.headers)
            except ValueError:  # ours: authlib's parser lets a bad encoding or a missing value through
                raise InvalidClientError("Malformed HTTP Basic client credentials.", status_code=401) from None
            if "client_secret" in request.form or request.form.get("client_id", basic_id) != basic_id:
                raise InvalidRequestError("Send client credentials either with HTTP Basic or in the body, not both.")
        answer: Client = super().authenticate_client(request, methods, endpoint)
        return answer

    def save_token(self, token: dict[str, Any], request: TokenRequest) -> None:
        granted = request.authorization_code or request.refresh_token  # what the tokens descend from
        assert granted is not None
        oauth.save_tokens(
            self.uow, connection=request.user, access=token["access_token"], refresh=token["refresh_token"],
            scopes=token["scope"].split(), family_id=granted.record.family_id, now=self.now, lifetimes=self.lifetimes,
        )
        token["connection_id"] = request.user.id  # ours: the member naming the connection (contract §3)

    @contextmanager
    def revoking_replays(self) -> Iterator[None]:
        """A spent code or refresh token presented again revokes its family: committed, then refused."""
        try:
            yield
        except oauth.Replayed as replay:
            oauth.revoke_family(self.uow, replay.family_id, self.now)
            raise InvalidGrantError(replay.message) from None

    def create_token_response(self, request: TokenRequest | None = None) -> tuple[int, dict[str, Any]]:
        answer: tuple[int, dict[str, Any]]
        if request is not None and request.payload.grant_type is None:  # ours: authlib says unsupported_grant_type
            answer = self.handle_error_response(request, InvalidRequestError("grant_type is required."))
        else:
            answer = super().create_token_response(request)
        return answer

    def create_oauth2_request(self, request: TokenRequest) -> TokenRequest:
        return request

    def handle_response(self, status: int, body: dict[str, Any], headers: object) -> tuple[int, dict[str, Any]]:
        return status, body

    def send_signal(self, name: str, *args: object, **kwargs: object) -> None:
        """No signals: nothing listens."""


def token_body(status: int, body: dict[str, Any]) -> dict[str, Any]:
    """authlib's answer as ours: the RFC 6749 §5.1 body (not wrapped), or the refusal raised as a typed error."""
    if status == 200:
        return body
    code = body["error"]
    if code == "invalid_client":  # always 401, and the same words for an unknown client and a wrong secret
        raise InvalidClient("Client authentication failed.")
    raise Invalid(body.get("error_description") or f"The token request was refused ({code}).", code=code)
