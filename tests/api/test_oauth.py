"""OAuth (api-v1 "Authentication", contract §3): apps, the approve step, code + PKCE exchange, refresh, revocation."""

from __future__ import annotations

import base64
import hashlib
import logging
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from flask import Flask

from api.app import create_app
from api.bootstrap import bootstrap
from domain.clock import FixedClock
from domain.models import SCOPES
from domain.settings import Settings
from storage.engine import Store
from tests.conftest import OPERATOR_KEY, Api

REDIRECT = "https://partner.example/callback"
VERIFIER = "verifier-" + "a1B2c3D4e5" * 4  # 49 characters of the allowed alphabet
OTHER_VERIFIER = "verifier-" + "z9Y8x7W6v5" * 4


def challenge_of(verifier: str) -> str:
    """RFC 7636 S256, computed here independently of the service."""
    return base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).decode().rstrip("=")


CHALLENGE = challenge_of(VERIFIER)


def register(operator: Api, *, scope: str | None = None, legacy: bool | None = None,
             name: str = "Scoreboard Pro", redirects: list[str] | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"name": name, "redirectURIs": redirects or [REDIRECT, "http://127.0.0.1:9/cb?x=1"]}
    if scope is not None:
        body["scope"] = scope
    if legacy is not None:
        body["legacy"] = legacy
    response = operator.post("/operator/apps", json=body)
    assert response.status_code == 201, response.json
    return dict(response.json["data"])


def approve(operator: Api, app: dict[str, Any], **extra: Any) -> Any:
    body = {"clientID": app["clientID"], "redirectURI": REDIRECT, "codeChallenge": CHALLENGE} | extra
    return operator.post("/operator/oauth/approve", json={k: v for k, v in body.items() if v is not None})


def code_for(operator: Api, app: dict[str, Any], **extra: Any) -> str:
    response = approve(operator, app, **extra)
    assert response.status_code == 200, response.json
    return str(response.json["data"]["code"])


def token_request(client: Api, app: dict[str, Any] | None, *, as_json: bool = False, **fields: Any) -> Any:
    body = ({"client_id": app["clientID"], "client_secret": app["clientSecret"]} if app else {}) | fields
    body = {k: v for k, v in body.items() if v is not None}
    if as_json:
        return client.post("/oauth/token", token=None, json=body)
    return client.post("/oauth/token", token=None, data=body)


def exchange(client: Api, app: dict[str, Any], code: str, verifier: str | None = VERIFIER, **fields: Any) -> Any:
    fields = {"redirect_uri": REDIRECT} | fields
    return token_request(client, app, grant_type="authorization_code", code=code, code_verifier=verifier, **fields)


def refresh(client: Api, app: dict[str, Any], refresh_token: str, **fields: Any) -> Any:
    return token_request(client, app, grant_type="refresh_token", refresh_token=refresh_token, **fields)


def tokens(operator: Api, app: dict[str, Any], **approve_extra: Any) -> dict[str, Any]:
    response = exchange(operator, app, code_for(operator, app, **approve_extra))
    assert response.status_code == 200, response.json
    return dict(response.json)


def bearer(operator: Api, token: str) -> Api:
    return Api(operator.client, token)


def assert_error(response: Any, status: int, code: str) -> None:
    assert response.status_code == status, response.json
    assert response.json["error"]["code"] == code
    assert response.json["error"]["message"]


@pytest.fixture
def app_(operator: Api) -> dict[str, Any]:
    return register(operator)


# ---------------------------------------------------------------- apps
def test_registering_an_app_shows_the_client_secret_once(operator: Api) -> None:
    created = register(operator, scope="matches.write matches.read")
    assert set(created) == {"appID", "clientID", "clientSecret", "name", "redirectURIs", "scopes"}
    assert created["appID"].startswith("app_")
    assert created["scopes"] == ["matches.read", "matches.write"]
    assert created["redirectURIs"] == [REDIRECT, "http://127.0.0.1:9/cb?x=1"]
    listed = operator.get("/operator/apps")
    assert listed.status_code == 200
    assert listed.json["nextCursor"] is None
    assert listed.json["data"] == [{
        "appID": created["appID"], "clientID": created["clientID"], "name": "Scoreboard Pro",
        "redirectURIs": created["redirectURIs"], "scopes": ["matches.read", "matches.write"], "legacy": False,
        "createdOn": "2026-11-21T10:00:00.000Z",
    }]
    assert created["clientSecret"] not in listed.get_data(as_text=True)


def test_app_without_scope_may_ask_for_every_scope(operator: Api) -> None:
    assert register(operator)["scopes"] == list(SCOPES)


def test_apps_are_listed_oldest_first_in_pages(operator: Api) -> None:
    names = [register(operator, name=f"app {i}")["name"] for i in range(3)]
    first = operator.get("/operator/apps?limit=2")
    second = operator.get(f"/operator/apps?limit=2&cursor={first.json['nextCursor']}")
    assert [a["name"] for a in first.json["data"] + second.json["data"]] == names
    assert second.json["nextCursor"] is None


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"name": "x", "redirectURIs": [REDIRECT], "scope": "matches.write nope.read"}, "invalid_scope"),
        ({"name": "x", "redirectURIs": [REDIRECT], "scope": ""}, "invalid_scope"),
        ({"name": "x", "redirectURIs": ["ftp://partner.example/cb"]}, "validation_failed"),
        ({"name": "x", "redirectURIs": ["https://partner.example/cb#frag"]}, "validation_failed"),
        ({"name": "x", "redirectURIs": ["/relative"]}, "validation_failed"),
        ({"name": "x", "redirectURIs": []}, "validation_failed"),
        ({"name": "", "redirectURIs": [REDIRECT]}, "validation_failed"),
        ({"name": "x" * 121, "redirectURIs": [REDIRECT]}, "validation_failed"),
        ({"name": "x", "redirectURIs": [REDIRECT], "legacy": "yes"}, "validation_failed"),
        ({"name": "x", "redirectURIs": [REDIRECT], "clientSecret": "mine"}, "validation_failed"),
    ],
)
def test_invalid_app_registration_is_400_and_creates_nothing(operator: Api, body: dict[str, Any], code: str) -> None:
    assert_error(operator.post("/operator/apps", json=body), 400, code)
    assert operator.get("/operator/apps").json["data"] == []


def test_partner_credentials_cannot_register_apps(partner: Api) -> None:
    assert_error(partner.post("/operator/apps", json={"name": "x", "redirectURIs": [REDIRECT]}), 401, "invalid_token")


# ---------------------------------------------------------------- approve
def test_approve_returns_a_code_and_the_redirect_with_state(operator: Api, app_: dict[str, Any]) -> None:
    response = approve(operator, app_, state="xyz 1")
    assert response.status_code == 200
    data = response.json["data"]
    assert set(data) == {"code", "redirectURL"}
    target = urlsplit(data["redirectURL"])
    assert f"{target.scheme}://{target.netloc}{target.path}" == REDIRECT
    assert parse_qs(target.query) == {"code": [data["code"]], "state": ["xyz 1"]}


def test_approve_keeps_the_registered_query_of_the_redirect_uri(operator: Api, app_: dict[str, Any]) -> None:
    response = approve(operator, app_, redirectURI="http://127.0.0.1:9/cb?x=1")
    query = parse_qs(urlsplit(response.json["data"]["redirectURL"]).query)
    assert query == {"x": ["1"], "code": [response.json["data"]["code"]]}


@pytest.mark.parametrize(
    ("extra", "status", "code"),
    [
        ({"redirectURI": "https://partner.example/other"}, 400, "invalid_request"),
        ({"redirectURI": REDIRECT + "/"}, 400, "invalid_request"),
        ({"clientID": "client_unknown"}, 404, "not_found"),
        ({"codeChallenge": None}, 400, "invalid_request"),
        ({"codeChallenge": "too-short"}, 400, "invalid_request"),
        ({"codeChallenge": CHALLENGE[:-1] + "="}, 400, "invalid_request"),
        ({"codeChallengeMethod": "plain"}, 400, "validation_failed"),
        ({"codeChallenge": None, "codeChallengeMethod": "S256"}, 400, "invalid_request"),
        ({"scope": "matches.read webhooks.write"}, 400, "invalid_scope"),
        ({"scope": "matches.read unknown.scope"}, 400, "invalid_scope"),
        ({"scope": " "}, 400, "invalid_scope"),
        ({"nonce": "n"}, 400, "validation_failed"),
    ],
)
def test_approve_refuses_bad_requests(operator: Api, extra: dict[str, Any], status: int, code: str) -> None:
    app = register(operator, scope="matches.read matches.write")
    assert_error(approve(operator, app, **extra), status, code)


def test_approve_accepts_an_explicit_s256_method(operator: Api, app_: dict[str, Any]) -> None:
    code = code_for(operator, app_, codeChallengeMethod="S256")
    assert exchange(operator, app_, code).status_code == 200


def test_legacy_app_may_use_the_consent_page_without_pkce(operator: Api) -> None:
    legacy = register(operator, legacy=True)
    form = authorize_query(legacy, code_challenge=None, code_challenge_method=None) | {
        "operator_key": OPERATOR_KEY, "decision": "approve"}
    response = operator.post("/oauth/authorize", token=None, data=form)
    assert response.status_code == 302
    code = parse_qs(urlsplit(response.headers["Location"]).query)["code"][0]
    assert exchange(operator, legacy, code, verifier=None).status_code == 200


def test_approve_needs_the_operator_key(partner: Api, operator: Api, app_: dict[str, Any]) -> None:
    body = {"clientID": app_["clientID"], "redirectURI": REDIRECT, "codeChallenge": CHALLENGE}
    assert_error(partner.post("/operator/oauth/approve", json=body), 401, "invalid_token")


# ---------------------------------------------------------------- authorization code exchange
def test_code_with_pkce_becomes_an_unwrapped_token_response(operator: Api) -> None:
    app = register(operator, scope="matches.read matches.write tables.read")
    response = exchange(operator, app, code_for(operator, app, scope="tables.read matches.read"))
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "no-store"
    body = response.json
    assert set(body) == {"access_token", "token_type", "expires_in", "refresh_token", "scope", "connection_id"}
    assert body["access_token"].startswith("svc_token_")
    assert body["refresh_token"].startswith("svc_refresh_")
    assert body["token_type"] == "Bearer"
    assert body["expires_in"] == 3600
    assert body["scope"] == "tables.read matches.read"
    assert body["connection_id"].startswith("conn_")
    me = bearer(operator, body["access_token"]).get("/connection")
    assert me.status_code == 200
    assert me.json["data"] == {
        "appID": app["appID"], "appName": "Scoreboard Pro", "approvedOn": "2026-11-21T10:00:00.000Z",
        "connectionID": body["connection_id"], "scopes": ["tables.read", "matches.read"],
        "tokenExpiresOn": "2026-11-21T11:00:00.000Z",
    }


def test_approval_without_scope_grants_all_of_the_apps_scopes(operator: Api) -> None:
    app = register(operator, scope="webhooks.read matches.read")
    assert tokens(operator, app)["scope"] == "matches.read webhooks.read"


def test_json_body_works_like_a_form_body(operator: Api, app_: dict[str, Any]) -> None:
    response = exchange(operator, app_, code_for(operator, app_), as_json=True)
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "no-store"


def test_client_credentials_may_come_in_http_basic(operator: Api, app_: dict[str, Any]) -> None:
    basic = base64.b64encode(f"{app_['clientID']}:{app_['clientSecret']}".encode()).decode()
    body = {"grant_type": "authorization_code", "code": code_for(operator, app_), "code_verifier": VERIFIER,
            "redirect_uri": REDIRECT}
    response = operator.post("/oauth/token", token=None, data=body, headers={"Authorization": f"Basic {basic}"})
    assert response.status_code == 200, response.json


def test_basic_and_body_client_secret_together_are_invalid_request(operator: Api, app_: dict[str, Any]) -> None:
    basic = base64.b64encode(f"{app_['clientID']}:{app_['clientSecret']}".encode()).decode()
    body = {"grant_type": "authorization_code", "code": code_for(operator, app_), "code_verifier": VERIFIER,
            "client_secret": app_["clientSecret"]}
    response = operator.post("/oauth/token", token=None, data=body, headers={"Authorization": f"Basic {basic}"})
    assert_error(response, 400, "invalid_request")


@pytest.mark.parametrize(
    "credentials",
    [
        {"client_secret": "svc_secret_wrong"},
        {"client_id": "client_unknown"},
        {"client_secret": None},
        {"client_id": None, "client_secret": None},
    ],
)
def test_wrong_client_credentials_are_401_invalid_client(
    operator: Api, app_: dict[str, Any], credentials: dict[str, Any]
) -> None:
    code = code_for(operator, app_)
    body = {"grant_type": "authorization_code", "code": code, "code_verifier": VERIFIER,
            "client_id": app_["clientID"], "client_secret": app_["clientSecret"]} | credentials
    response = token_request(operator, None, **body)
    assert_error(response, 401, "invalid_client")
    assert exchange(operator, app_, code).status_code == 200  # the failed attempt did not use the code


def test_malformed_basic_credentials_are_401_invalid_client(operator: Api, app_: dict[str, Any]) -> None:
    body = {"grant_type": "authorization_code", "code": code_for(operator, app_), "code_verifier": VERIFIER}
    response = operator.post("/oauth/token", token=None, data=body, headers={"Authorization": "Basic !!!"})
    assert_error(response, 401, "invalid_client")
    assert response.headers["WWW-Authenticate"] == 'Basic realm="courtside"'


def test_wrong_basic_client_secret_is_401_with_a_basic_challenge(operator: Api, app_: dict[str, Any]) -> None:
    basic = base64.b64encode(f"{app_['clientID']}:svc_secret_wrong".encode()).decode()
    body = {"grant_type": "authorization_code", "code": code_for(operator, app_), "code_verifier": VERIFIER}
    response = operator.post("/oauth/token", token=None, data=body, headers={"Authorization": f"Basic {basic}"})
    assert_error(response, 401, "invalid_client")
    assert response.headers["WWW-Authenticate"] == 'Basic realm="courtside"'


def test_code_is_single_use_and_a_replay_revokes_what_it_issued(operator: Api, app_: dict[str, Any]) -> None:
    code = code_for(operator, app_)
    first = exchange(operator, app_, code)
    assert first.status_code == 200
    assert_error(exchange(operator, app_, code), 400, "invalid_grant")
    assert_error(bearer(operator, first.json["access_token"]).get("/connection"), 401, "invalid_token")
    assert_error(refresh(operator, app_, first.json["refresh_token"]), 400, "invalid_grant")


def test_code_expires_after_ten_minutes(operator: Api, app_: dict[str, Any], clock: FixedClock) -> None:
    code = code_for(operator, app_)
    clock.advance(600)
    assert_error(exchange(operator, app_, code), 400, "invalid_grant")
    fresh = code_for(operator, app_)
    clock.advance(599)
    assert exchange(operator, app_, fresh).status_code == 200


def test_code_is_bound_to_its_client(operator: Api, app_: dict[str, Any]) -> None:
    other = register(operator, name="Other app")
    code = code_for(operator, app_)
    assert_error(exchange(operator, other, code), 400, "invalid_grant")
    assert exchange(operator, app_, code).status_code == 200


def test_code_is_bound_to_its_redirect_uri(operator: Api, app_: dict[str, Any]) -> None:
    code = code_for(operator, app_)
    assert_error(exchange(operator, app_, code, redirect_uri="http://127.0.0.1:9/cb?x=1"), 400, "invalid_grant")
    assert exchange(operator, app_, code).status_code == 200


def test_redirect_uri_is_required_at_the_token_endpoint(operator: Api, app_: dict[str, Any]) -> None:
    """RFC 6749 §4.1.3: the authorization request carried redirect_uri, so the exchange must carry the same one."""
    code = code_for(operator, app_)
    assert_error(exchange(operator, app_, code, redirect_uri=None), 400, "invalid_request")
    assert exchange(operator, app_, code).status_code == 200  # the code was not spent by the refused request


def test_unknown_code_is_invalid_grant(operator: Api, app_: dict[str, Any]) -> None:
    assert_error(exchange(operator, app_, "svc_code_made-up"), 400, "invalid_grant")


@pytest.mark.parametrize(
    ("verifier", "code"),
    [
        (None, "invalid_request"),
        ("a" * 42, "invalid_request"),
        ("a" * 129, "invalid_request"),
        ("a" * 42 + "+", "invalid_request"),
        ("a" * 42 + " ", "invalid_request"),
        (OTHER_VERIFIER, "invalid_grant"),
    ],
)
def test_pkce_verifier_rules(operator: Api, app_: dict[str, Any], verifier: str | None, code: str) -> None:
    pkce_code = code_for(operator, app_)
    assert_error(exchange(operator, app_, pkce_code, verifier=verifier), 400, code)
    assert exchange(operator, app_, pkce_code).status_code == 200


def test_verifier_of_128_characters_is_accepted(operator: Api, app_: dict[str, Any]) -> None:
    verifier = "A-._~" * 25 + "xyz"
    response = exchange(operator, app_, code_for(operator, app_, codeChallenge=challenge_of(verifier)),
                        verifier=verifier)
    assert response.status_code == 200


def test_legacy_app_may_skip_pkce_but_then_no_verifier_is_accepted(operator: Api) -> None:
    legacy = register(operator, legacy=True)
    no_challenge = code_for(operator, legacy, codeChallenge=None)
    assert_error(exchange(operator, legacy, no_challenge, verifier=VERIFIER), 400, "invalid_request")
    assert exchange(operator, legacy, no_challenge, verifier=None).status_code == 200
    with_challenge = code_for(operator, legacy)
    assert_error(exchange(operator, legacy, with_challenge, verifier=None), 400, "invalid_request")
    assert exchange(operator, legacy, with_challenge).status_code == 200


@pytest.mark.parametrize(
    ("fields", "status", "code"),
    [
        ({}, 400, "invalid_request"),
        ({"grant_type": "client_credentials"}, 400, "unsupported_grant_type"),
        ({"grant_type": "password"}, 400, "unsupported_grant_type"),
        # RFC 6749 §3.2: unrecognized parameters are ignored, so the grant type is what is refused
        ({"grant_type": "password", "username": "ann", "password": "pw"}, 400, "unsupported_grant_type"),
        ({"grant_type": "authorization_code"}, 400, "invalid_request"),
        ({"grant_type": "refresh_token"}, 400, "invalid_request"),
        ({"grant_type": "authorization_code", "code": "c", "nonce": "1"}, 400, "invalid_grant"),  # nonce: ignored
    ],
)
def test_malformed_token_requests(
    operator: Api, app_: dict[str, Any], fields: dict[str, Any], status: int, code: str
) -> None:
    response = token_request(operator, app_, **fields)
    assert_error(response, status, code)
    assert response.headers["Cache-Control"] == "no-store"


def test_json_token_request_with_non_string_field_is_validation_failed(operator: Api, app_: dict[str, Any]) -> None:
    response = token_request(operator, app_, as_json=True, grant_type="authorization_code", code=7)
    assert_error(response, 400, "validation_failed")
    assert response.json["error"]["details"] == {"json": {"code": ["Not a valid string."]}}


def test_repeated_form_parameter_is_invalid_request(operator: Api, app_: dict[str, Any]) -> None:
    body = f"grant_type=authorization_code&code=a&code=b&client_id={app_['clientID']}"
    response = operator.post("/oauth/token", token=None, data=body,
                             content_type="application/x-www-form-urlencoded")
    assert_error(response, 400, "invalid_request")


def test_token_endpoint_refuses_other_content_types(operator: Api) -> None:
    response = operator.post("/oauth/token", token=None, data="grant_type=x", content_type="text/plain")
    assert_error(response, 415, "unsupported_media_type")


def test_token_endpoint_rejects_unparsable_json(operator: Api) -> None:
    response = operator.post("/oauth/token", token=None, data="{nope", content_type="application/json")
    assert_error(response, 400, "bad_request")


def test_token_endpoint_is_rate_limited_per_client_ip(settings: Settings, store: Store, clock: FixedClock) -> None:
    limited = create_app(bootstrap(settings.with_(token_rate_limit=3), store, clock=clock))
    client = Api(limited.test_client())
    statuses = [client.post("/oauth/token", data={"grant_type": "password"}).status_code for _ in range(3)]
    assert statuses == [400, 400, 400]
    blocked = client.post("/oauth/token", data={"grant_type": "password"})
    assert_error(blocked, 429, "rate_limited")
    assert blocked.headers["Retry-After"] == "60"
    assert blocked.headers["RateLimit-Limit"] == "3"
    assert blocked.headers["RateLimit-Remaining"] == "0"
    other_ip = client.post("/oauth/token", data={"grant_type": "password"},
                           environ_base={"REMOTE_ADDR": "10.0.0.9"})
    assert other_ip.status_code == 400
    clock.advance(60)
    assert client.post("/oauth/token", data={"grant_type": "password"}).status_code == 400


def test_credentials_stay_out_of_the_logs(
    operator: Api, app_: dict[str, Any], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    code = code_for(operator, app_)
    issued = exchange(operator, app_, code).json
    refresh(operator, app_, issued["refresh_token"])
    for secret in (code, VERIFIER, app_["clientSecret"], issued["access_token"], issued["refresh_token"],
                   OPERATOR_KEY):
        assert secret not in caplog.text


# ---------------------------------------------------------------- refresh
def test_refresh_rotates_the_refresh_token(operator: Api, app_: dict[str, Any], clock: FixedClock) -> None:
    first = tokens(operator, app_)
    clock.advance(1800)
    second = refresh(operator, app_, first["refresh_token"])
    assert second.status_code == 200
    assert second.headers["Cache-Control"] == "no-store"
    assert second.json["refresh_token"] != first["refresh_token"]
    assert second.json["access_token"] != first["access_token"]
    assert second.json["connection_id"] == first["connection_id"]
    assert second.json["scope"] == first["scope"]
    me = bearer(operator, second.json["access_token"]).get("/connection")
    assert me.json["data"]["tokenExpiresOn"] == "2026-11-21T11:30:00.000Z"
    assert refresh(operator, app_, second.json["refresh_token"]).status_code == 200


def test_replayed_refresh_token_revokes_the_whole_family(operator: Api, app_: dict[str, Any]) -> None:
    first = tokens(operator, app_)
    second = refresh(operator, app_, first["refresh_token"]).json
    assert_error(refresh(operator, app_, first["refresh_token"]), 400, "invalid_grant")
    for access in (first["access_token"], second["access_token"]):
        assert_error(bearer(operator, access).get("/connection"), 401, "invalid_token")
    assert_error(refresh(operator, app_, second["refresh_token"]), 400, "invalid_grant")


def test_family_revocation_spares_other_authorizations(operator: Api, app_: dict[str, Any]) -> None:
    stolen = tokens(operator, app_)
    other = tokens(operator, app_)
    refresh(operator, app_, stolen["refresh_token"])
    assert refresh(operator, app_, stolen["refresh_token"]).status_code == 400
    assert bearer(operator, other["access_token"]).get("/connection").status_code == 200
    assert refresh(operator, app_, other["refresh_token"]).status_code == 200


def test_refresh_can_narrow_but_never_widen_scope(operator: Api) -> None:
    app = register(operator, scope="matches.read matches.write tables.read")
    issued = tokens(operator, app, scope="matches.read matches.write")
    widened = refresh(operator, app, issued["refresh_token"], scope="matches.read tables.read")
    assert_error(widened, 400, "invalid_scope")
    narrowed = refresh(operator, app, issued["refresh_token"], scope="matches.read")
    assert narrowed.status_code == 200
    assert narrowed.json["scope"] == "matches.read"
    assert_error(refresh(operator, app, narrowed.json["refresh_token"], scope="matches.write"), 400, "invalid_scope")
    assert_error(refresh(operator, app, narrowed.json["refresh_token"], scope=" "), 400, "invalid_scope")


def test_refresh_token_lives_thirty_days(operator: Api, app_: dict[str, Any], clock: FixedClock) -> None:
    issued = tokens(operator, app_)
    clock.advance(30 * 24 * 3600 - 1)
    kept = refresh(operator, app_, issued["refresh_token"])
    assert kept.status_code == 200
    clock.advance(30 * 24 * 3600)
    assert_error(refresh(operator, app_, kept.json["refresh_token"]), 400, "invalid_grant")


def test_refresh_token_is_bound_to_its_client(operator: Api, app_: dict[str, Any]) -> None:
    issued = tokens(operator, app_)
    other = register(operator, name="Other")
    assert_error(refresh(operator, other, issued["refresh_token"]), 400, "invalid_grant")
    assert refresh(operator, app_, issued["refresh_token"]).status_code == 200


@pytest.mark.parametrize("presented", ["svc_refresh_unknown", "access"])
def test_unknown_or_wrong_kind_refresh_token_is_invalid_grant(
    operator: Api, app_: dict[str, Any], presented: str
) -> None:
    issued = tokens(operator, app_)
    value = issued["access_token"] if presented == "access" else presented
    assert_error(refresh(operator, app_, value), 400, "invalid_grant")


def test_access_token_ttl_follows_the_setting(settings: Settings, store: Store, clock: FixedClock) -> None:
    flask_app: Flask = create_app(bootstrap(settings.with_(access_token_ttl=120), store, clock=clock))
    operator = Api(flask_app.test_client(), OPERATOR_KEY)
    app = register(operator)
    issued = tokens(operator, app)
    assert issued["expires_in"] == 120
    clock.advance(119)
    assert bearer(operator, issued["access_token"]).get("/connection").status_code == 200
    clock.advance(1)
    assert_error(bearer(operator, issued["access_token"]).get("/connection"), 401, "invalid_token")


# ---------------------------------------------------------------- connections
def test_reapproving_the_same_app_reuses_its_connection_with_new_scopes(operator: Api) -> None:
    app = register(operator, scope="matches.read matches.write tables.read")
    first = tokens(operator, app, scope="matches.read")
    second = tokens(operator, app, scope="matches.read tables.read")
    assert second["connection_id"] == first["connection_id"]
    listed = [c for c in operator.get("/operator/connections").json["data"] if c["kind"] == "oauth"]
    assert listed == [{
        "connectionID": first["connection_id"], "appID": app["appID"], "appName": "Scoreboard Pro",
        "kind": "oauth", "scopes": ["tables.read", "matches.read"], "approvedOn": "2026-11-21T10:00:00.000Z",
        "tokenExpiresOn": "2026-11-21T11:00:00.000Z", "revokedOn": None, "webhookURL": None,
    }]


def test_a_narrower_reapproval_caps_what_older_refresh_tokens_get(operator: Api) -> None:
    app = register(operator, scope="matches.read matches.write tables.read")
    wide = tokens(operator, app, scope="matches.read matches.write")
    tokens(operator, app, scope="matches.read tables.read")
    renewed = refresh(operator, app, wide["refresh_token"])
    assert renewed.status_code == 200
    assert renewed.json["scope"] == "matches.read"
    gone = tokens(operator, app, scope="tables.read")
    assert gone["scope"] == "tables.read"
    assert_error(refresh(operator, app, renewed.json["refresh_token"]), 400, "invalid_grant")


def test_connections_list_developer_keys_too(operator: Api, partner: Api, app_: dict[str, Any]) -> None:
    issued = tokens(operator, app_)
    listed = operator.get("/operator/connections").json
    assert [(c["kind"], c["appID"]) for c in listed["data"]] == [
        ("house", "house"), ("developer_key", "developer-key"), ("oauth", app_["appID"]),
    ]
    assert listed["data"][2]["connectionID"] == issued["connection_id"]
    assert listed["nextCursor"] is None


def test_operator_revokes_a_connection_and_all_its_tokens(
    operator: Api, app_: dict[str, Any], clock: FixedClock
) -> None:
    issued = tokens(operator, app_)
    clock.advance(5)
    response = operator.delete(f"/operator/connections/{issued['connection_id']}")
    assert response.status_code == 200
    assert response.json == {"data": {"id": issued["connection_id"], "deleted": True}}
    assert_error(bearer(operator, issued["access_token"]).get("/connection"), 401, "invalid_token")
    assert_error(refresh(operator, app_, issued["refresh_token"]), 400, "invalid_grant")
    listed = operator.get("/operator/connections").json["data"]
    assert listed[-1]["revokedOn"] == "2026-11-21T10:00:05.000Z"
    assert_error(operator.delete(f"/operator/connections/{issued['connection_id']}"), 404, "not_found")
    assert_error(operator.delete("/operator/connections/conn_unknown"), 404, "not_found")
    again = tokens(operator, app_)
    assert again["connection_id"] != issued["connection_id"]


# ---------------------------------------------------------------- consent page
def authorize_query(app: dict[str, Any], **overrides: str | None) -> dict[str, str]:
    query = {"response_type": "code", "client_id": app["clientID"], "redirect_uri": REDIRECT,
             "scope": "matches.read", "state": "st-1", "code_challenge": CHALLENGE,
             "code_challenge_method": "S256"} | overrides
    return {k: v for k, v in query.items() if v is not None}


def test_consent_page_shows_app_name_and_scopes_without_credentials(operator: Api, app_: dict[str, Any]) -> None:
    page = operator.get("/oauth/authorize", token=None, query_string=authorize_query(app_))
    assert page.status_code == 200
    assert page.mimetype == "text/html"
    html = page.get_data(as_text=True)
    assert "Scoreboard Pro" in html and "matches.read" in html and "matches.write" not in html
    assert 'name="operator_key"' in html
    assert page.headers["X-Frame-Options"] == "DENY"
    assert page.headers["Cache-Control"] == "no-store"


def test_authorize_ignores_parameters_it_does_not_know(operator: Api, app_: dict[str, Any]) -> None:
    """RFC 6749 §3.1: the authorization endpoint MUST ignore unrecognized request parameters."""
    extra = {"nonce": "n-1", "prompt": "consent", "login_hint": "ann", "x_custom": "1"}
    page = operator.get("/oauth/authorize", token=None, query_string=authorize_query(app_) | extra)
    assert page.status_code == 200
    assert "Scoreboard Pro" in page.get_data(as_text=True)
    form = authorize_query(app_) | extra | {"operator_key": OPERATOR_KEY, "decision": "approve"}
    response = operator.post("/oauth/authorize", token=None, data=form)
    assert response.status_code == 302
    query = parse_qs(urlsplit(response.headers["Location"]).query)
    assert query["state"] == ["st-1"] and set(query) == {"code", "state"}
    assert exchange(operator, app_, query["code"][0]).status_code == 200


def test_consent_page_escapes_the_app_name(operator: Api) -> None:
    app = register(operator, name="<script>alert(1)</script>")
    html = operator.get("/oauth/authorize", token=None, query_string=authorize_query(app)).get_data(as_text=True)
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;" in html


def test_consent_approve_redirects_with_code_and_state(operator: Api, app_: dict[str, Any]) -> None:
    form = authorize_query(app_) | {"operator_key": OPERATOR_KEY, "decision": "approve"}
    response = operator.post("/oauth/authorize", token=None, data=form)
    assert response.status_code == 302
    target = urlsplit(response.headers["Location"])
    assert f"{target.scheme}://{target.netloc}{target.path}" == REDIRECT
    query = parse_qs(target.query)
    assert query["state"] == ["st-1"]
    issued = exchange(operator, app_, query["code"][0])
    assert issued.status_code == 200
    assert issued.json["scope"] == "matches.read"


def test_consent_deny_redirects_with_access_denied(operator: Api, app_: dict[str, Any]) -> None:
    form = authorize_query(app_) | {"operator_key": OPERATOR_KEY, "decision": "deny"}
    response = operator.post("/oauth/authorize", token=None, data=form)
    assert response.status_code == 302
    assert response.headers["Location"] == REDIRECT + "?error=access_denied&state=st-1"


def test_consent_needs_a_valid_operator_key(operator: Api, partner: Api, app_: dict[str, Any]) -> None:
    for key in ("svc_op_wrong", partner.token, ""):
        form = authorize_query(app_) | {"operator_key": key, "decision": "approve"}
        response = operator.post("/oauth/authorize", token=None, data=form)
        assert response.status_code == 401
        assert "Location" not in response.headers
        assert "operator key was not accepted" in response.get_data(as_text=True)


@pytest.mark.parametrize(
    ("overrides", "status"),
    [
        ({"redirect_uri": "https://attacker.example/cb"}, 400),
        ({"redirect_uri": REDIRECT + "?extra=1"}, 400),
        ({"redirect_uri": None}, 400),
        ({"client_id": "client_unknown"}, 404),
        ({"client_id": None}, 404),
    ],
)
def test_consent_with_unknown_client_or_unregistered_redirect_never_redirects(
    operator: Api, app_: dict[str, Any], overrides: dict[str, str | None], status: int
) -> None:
    for method, extra in (("GET", {}), ("POST", {"operator_key": OPERATOR_KEY, "decision": "approve"})):
        params = authorize_query(app_, **overrides) | extra
        kwargs = {"query_string": params} if method == "GET" else {"data": params}
        response = operator.request(method, "/oauth/authorize", token=None, **kwargs)
        assert response.status_code == status
        assert "Location" not in response.headers
        assert response.mimetype == "text/html"


def test_repeated_authorization_parameter_shows_an_error_page(operator: Api, app_: dict[str, Any]) -> None:
    query = "&".join(f"{k}={v}" for k, v in authorize_query(app_).items()) + "&redirect_uri=https://evil.example/"
    response = operator.get("/oauth/authorize?" + query, token=None)
    assert response.status_code == 400
    assert "Location" not in response.headers


def test_consent_with_neither_approve_nor_deny_shows_the_page_again(operator: Api, app_: dict[str, Any]) -> None:
    form = authorize_query(app_) | {"operator_key": OPERATOR_KEY, "decision": "maybe"}
    response = operator.post("/oauth/authorize", token=None, data=form)
    assert response.status_code == 400
    assert "Choose Approve or Deny" in response.get_data(as_text=True)


@pytest.mark.parametrize(
    ("overrides", "error"),
    [
        ({"response_type": "token"}, "unsupported_response_type"),
        ({"response_type": None}, "invalid_request"),
        ({"scope": "matches.read nope.read"}, "invalid_scope"),
        ({"code_challenge": None, "code_challenge_method": None}, "invalid_request"),
        ({"code_challenge_method": "plain"}, "invalid_request"),
        ({"code_challenge_method": None}, "invalid_request"),
        ({"code_challenge": None}, "invalid_request"),
    ],
)
def test_consent_reports_other_errors_to_the_registered_redirect(
    operator: Api, app_: dict[str, Any], overrides: dict[str, str | None], error: str
) -> None:
    response = operator.get("/oauth/authorize", token=None, query_string=authorize_query(app_, **overrides))
    assert response.status_code == 302
    query = parse_qs(urlsplit(response.headers["Location"]).query)
    assert query["error"] == [error]
    assert query["state"] == ["st-1"]
    assert "code" not in query


@pytest.mark.parametrize("as_json", [False, True])
def test_token_endpoint_ignores_unrecognized_parameters_so_a_password_grant_is_unsupported(
    operator: Api, app_: dict[str, Any], as_json: bool,
) -> None:
    """RFC 6749 §3.2 (contract §2): unknown parameters are ignored; `grant_type` decides the answer."""
    response = token_request(operator, app_, as_json=as_json, grant_type="password", username="ann",
                             password="secret")
    assert_error(response, 400, "unsupported_grant_type")


def test_code_exchange_with_extra_parameters_still_succeeds(operator: Api, app_: dict[str, Any]) -> None:
    code = code_for(operator, app_)
    assert exchange(operator, app_, code, resource="https://api.example", audience="x").status_code == 200


def test_authorize_ignores_unrecognized_parameters(operator: Api, app_: dict[str, Any]) -> None:
    """RFC 6749 §3.1: the consent page still shows for a request with extra parameters."""
    query = authorize_query(app_) | {"prompt": "consent", "nonce": "n-1"}
    response = operator.get("/oauth/authorize", query_string=query, token=None)
    assert response.status_code == 200
    assert response.mimetype == "text/html"
