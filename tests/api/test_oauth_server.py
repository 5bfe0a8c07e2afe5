"""The token endpoint on authlib (api/oauth_server.py): the rules Courtside keeps itself (docs/decisions.md)."""

from __future__ import annotations

import base64
from typing import Any

import pytest

from tests.api.test_oauth import REDIRECT, VERIFIER, assert_error, code_for, exchange, refresh, register, tokens
from tests.conftest import Api


@pytest.fixture
def app_(operator: Api) -> dict[str, Any]:
    return register(operator)


def basic(app: dict[str, Any], secret: str | None = None) -> dict[str, str]:
    pair = f"{app['clientID']}:{secret or app['clientSecret']}".encode()
    return {"Authorization": "Basic " + base64.b64encode(pair).decode()}


def test_plain_http_on_a_lan_address_needs_no_authlib_variable(
    operator: Api, app_: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """authlib refuses http URLs other than loopback unless AUTHLIB_INSECURE_TRANSPORT is set; we build the request."""
    monkeypatch.delenv("AUTHLIB_INSECURE_TRANSPORT", raising=False)
    client = {"client_id": app_["clientID"], "client_secret": app_["clientSecret"]}
    body = client | {"grant_type": "authorization_code", "code": code_for(operator, app_), "code_verifier": VERIFIER,
                     "redirect_uri": REDIRECT}
    response = operator.post("/oauth/token", token=None, data=body, base_url="http://192.168.1.20:8000")
    assert response.status_code == 200, response.json
    body = client | {"grant_type": "refresh_token", "refresh_token": response.json["refresh_token"]}
    renewed = operator.post("/oauth/token", token=None, data=body, base_url="http://courtside.lan:8000")
    assert renewed.status_code == 200, renewed.json


def test_refresh_accepts_http_basic_client_credentials(operator: Api, app_: dict[str, Any]) -> None:
    """authlib's refresh grant takes only HTTP Basic by default; ours takes the body (above) or Basic."""
    issued = tokens(operator, app_)
    response = operator.post("/oauth/token", token=None, headers=basic(app_),
                             data={"grant_type": "refresh_token", "refresh_token": issued["refresh_token"]})
    assert response.status_code == 200, response.json
    assert response.json["connection_id"] == issued["connection_id"]


def test_refresh_with_basic_and_body_credentials_is_invalid_request(operator: Api, app_: dict[str, Any]) -> None:
    issued = tokens(operator, app_)
    body = {"grant_type": "refresh_token", "refresh_token": issued["refresh_token"], "client_id": "client_other"}
    assert_error(operator.post("/oauth/token", token=None, headers=basic(app_), data=body), 400, "invalid_request")
    assert refresh(operator, app_, issued["refresh_token"]).status_code == 200  # the refused request spent nothing


def test_unknown_client_and_wrong_secret_get_the_same_answer(operator: Api, app_: dict[str, Any]) -> None:
    """authlib says 400 and "does not exist" for an unknown client in the body: ours is 401, in the same words."""
    code = code_for(operator, app_)
    fields = {"grant_type": "authorization_code", "code": code, "code_verifier": VERIFIER, "redirect_uri": REDIRECT}
    unknown = operator.post("/oauth/token", token=None,
                            data=fields | {"client_id": "client_unknown", "client_secret": app_["clientSecret"]})
    wrong = operator.post("/oauth/token", token=None,
                          data=fields | {"client_id": app_["clientID"], "client_secret": "svc_secret_wrong"})
    for response in (unknown, wrong):
        assert_error(response, 401, "invalid_client")
        assert response.headers["WWW-Authenticate"] == 'Basic realm="courtside"'
    assert unknown.json == wrong.json


@pytest.mark.parametrize("as_json", [False, True])
def test_missing_grant_type_is_invalid_request(operator: Api, app_: dict[str, Any], as_json: bool) -> None:
    """authlib answers unsupported_grant_type; RFC 6749 §5.2 calls a missing required parameter invalid_request."""
    body = {"client_id": app_["clientID"], "client_secret": app_["clientSecret"], "code": "svc_code_x"}
    response = operator.post("/oauth/token", token=None, **({"json": body} if as_json else {"data": body}))
    assert_error(response, 400, "invalid_request")
    assert response.headers["Cache-Control"] == "no-store"


def test_replayed_code_without_redirect_uri_still_revokes_its_tokens(operator: Api, app_: dict[str, Any]) -> None:
    """Replay detection comes before the redirect_uri rule: a spent code revokes, whatever else is wrong."""
    code = code_for(operator, app_)
    first = exchange(operator, app_, code).json
    assert_error(exchange(operator, app_, code, redirect_uri=None), 400, "invalid_grant")
    assert_error(operator.get("/connection", token=first["access_token"]), 401, "invalid_token")


def test_json_refresh_request_rotates_like_a_form_one(operator: Api, app_: dict[str, Any]) -> None:
    issued = tokens(operator, app_)
    body = {"grant_type": "refresh_token", "refresh_token": issued["refresh_token"],
            "client_id": app_["clientID"], "client_secret": app_["clientSecret"]}
    renewed = operator.post("/oauth/token", token=None, json=body)
    assert renewed.status_code == 200, renewed.json
    assert set(renewed.json) == {"access_token", "token_type", "expires_in", "refresh_token", "scope", "connection_id"}
    assert_error(operator.post("/oauth/token", token=None, json=body), 400, "invalid_grant")
    assert_error(operator.get("/connection", token=renewed.json["access_token"]), 401, "invalid_token")


def test_basic_credentials_that_are_not_utf8_are_401_invalid_client(operator: Api, app_: dict[str, Any]) -> None:
    """authlib's Basic parser lets a UnicodeDecodeError through; ours answers it like any malformed Basic."""
    body = {"grant_type": "authorization_code", "code": code_for(operator, app_), "code_verifier": VERIFIER,
            "redirect_uri": REDIRECT}
    headers = {"Authorization": "Basic " + base64.b64encode(b"\xff\xfe:\xff").decode()}
    response = operator.post("/oauth/token", token=None, data=body, headers=headers)
    assert_error(response, 401, "invalid_client")
    assert response.headers["WWW-Authenticate"] == 'Basic realm="courtside"'
