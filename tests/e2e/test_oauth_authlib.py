"""A standard OAuth client (authlib's requests OAuth2Session) against a real `courtside serve` process."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
import requests
from authlib.common.security import generate_token
from authlib.integrations.requests_client import OAuth2Session

from tests.eventually import eventually
from tests.server_process import ServerProcess

BOTH_BACKENDS = True  # contract §12: these servers run on TinyDB and on PostgreSQL

REDIRECT = "http://127.0.0.1:9/oauth/callback"
SCOPE = "matches.read tables.read"


@pytest.fixture
def server(server_factory: Callable[..., ServerProcess]) -> ServerProcess:
    """With the access log on, so a test can see every request logged and no secret in the log."""
    return server_factory(env={"COURTSIDE_ACCESS_LOG": "true"})


def register_app(server: ServerProcess, **extra: Any) -> dict[str, Any]:
    response = server.operator_call("POST", "/operator/apps", {
        "name": "Authlib partner", "redirectURIs": [REDIRECT], "scope": "matches.read matches.write tables.read",
    } | extra)
    assert response.status_code == 201, response.text
    return dict(response.json()["data"])


@pytest.fixture
def session_factory() -> Iterator[Callable[..., OAuth2Session]]:
    sessions: list[OAuth2Session] = []

    def make(app: dict[str, Any], **kwargs: Any) -> OAuth2Session:
        session = OAuth2Session(app["clientID"], app["clientSecret"], scope=SCOPE, redirect_uri=REDIRECT,
                                code_challenge_method="S256", **kwargs)
        sessions.append(session)
        return session

    yield make
    for session in sessions:
        session.close()


def test_authorization_code_with_pkce_refresh_and_api_call(
    server: ServerProcess, session_factory: Callable[..., OAuth2Session]
) -> None:
    app = register_app(server)
    client = session_factory(app, token_endpoint_auth_method="client_secret_post")
    verifier = generate_token(64)
    url, state = client.create_authorization_url(server.base + "/oauth/authorize", code_verifier=verifier)
    asked = {key: values[0] for key, values in parse_qs(urlsplit(url).query).items()}
    assert asked["code_challenge_method"] == "S256"

    approved = server.operator_call("POST", "/operator/oauth/approve", {
        "clientID": asked["client_id"], "redirectURI": asked["redirect_uri"], "scope": asked["scope"],
        "state": asked["state"], "codeChallenge": asked["code_challenge"],
    })
    assert approved.status_code == 200, approved.text
    token = client.fetch_token(server.base + "/oauth/token", authorization_response=approved.json()["data"]
                               ["redirectURL"], code_verifier=verifier, state=state)
    assert token["token_type"] == "Bearer"
    assert token["access_token"].startswith("svc_token_")
    assert token["scope"] == "tables.read matches.read"

    me = client.get(server.base + "/connection", timeout=10)
    assert me.status_code == 200, me.text
    assert me.json()["data"]["connectionID"] == token["connection_id"]
    assert me.json()["data"]["appID"] == app["appID"]
    assert client.get(server.base + "/matches", timeout=10).status_code == 200
    forbidden = client.put(server.base + "/matches", json={}, timeout=10)
    assert forbidden.status_code == 403
    assert forbidden.json()["error"]["code"] == "insufficient_scope"

    old_refresh = token["refresh_token"]
    renewed = client.refresh_token(server.base + "/oauth/token", refresh_token=old_refresh)
    assert renewed["refresh_token"] != old_refresh
    assert renewed["access_token"] != token["access_token"]
    assert client.get(server.base + "/connection", timeout=10).status_code == 200

    replay = requests.post(server.base + "/oauth/token", timeout=10, data={
        "grant_type": "refresh_token", "refresh_token": old_refresh,
        "client_id": app["clientID"], "client_secret": app["clientSecret"],
    })
    assert replay.status_code == 400
    assert replay.json()["error"]["code"] == "invalid_grant"
    assert client.get(server.base + "/connection", timeout=10).status_code == 401

    assert server.log_path is not None
    log_path = server.log_path
    def logged() -> str | None:  # records reach the file through the log thread, a moment later
        text = log_path.read_text()
        return text if "GET /api/v1/connection 401" in text else None

    log = eventually(logged)
    assert "POST /api/v1/oauth/token 200" in log
    secrets = (app["clientSecret"], verifier, approved.json()["data"]["code"], old_refresh, token["access_token"],
               renewed["refresh_token"], renewed["access_token"], server.operator_key)
    assert not [secret for secret in secrets if secret in log]


def test_consent_page_over_http_with_basic_client_auth(
    server: ServerProcess, session_factory: Callable[..., OAuth2Session]
) -> None:
    app = register_app(server)
    client = session_factory(app, token_endpoint_auth_method="client_secret_basic")
    verifier = generate_token(48)
    url, state = client.create_authorization_url(server.base + "/oauth/authorize", code_verifier=verifier)
    page = requests.get(url, timeout=10)
    assert page.status_code == 200
    assert "Authlib partner" in page.text
    asked = {key: values[0] for key, values in parse_qs(urlsplit(url).query).items()}
    decided = requests.post(server.base + "/oauth/authorize", timeout=10, allow_redirects=False,
                            data=asked | {"operator_key": server.operator_key, "decision": "approve"})
    assert decided.status_code == 302
    assert decided.headers["Location"].startswith(REDIRECT + "?code=")
    token = client.fetch_token(server.base + "/oauth/token", authorization_response=decided.headers["Location"],
                               code_verifier=verifier, state=state)
    assert token["expires_in"] == 3600
    assert client.get(server.base + "/connection", timeout=10).json()["data"]["scopes"] == [
        "tables.read", "matches.read",
    ]
