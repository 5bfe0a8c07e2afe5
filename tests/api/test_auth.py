"""Bearer authentication on API routes (contract §3): statuses, error codes and WWW-Authenticate values."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from domain.clock import FixedClock
from domain.models import SCOPES
from tests.api.test_oauth import register, tokens
from tests.conftest import OPERATOR_KEY, Api

NO_CREDENTIAL = 'Bearer realm="courtside"'
BAD_CREDENTIAL = 'Bearer realm="courtside", error="invalid_token"'


def assert_401(response: Any, code: str, challenge: str) -> None:
    assert response.status_code == 401, response.json
    assert response.json["error"]["code"] == code
    assert response.headers["WWW-Authenticate"] == challenge


@pytest.mark.parametrize("header", [None, "", "Bearer", "Bearer   ", "Basic c3ZjX3Rlc3Q6eA==", "svc_test_abc"])
def test_missing_credential_is_authentication_required(partner: Api, header: str | None) -> None:
    headers = {} if header is None else {"Authorization": header}
    response = partner.get("/connection", token=None, headers=headers)
    assert_401(response, "authentication_required", NO_CREDENTIAL)


@pytest.mark.parametrize(
    "credential",
    [
        "not-a-known-kind",
        "svc_test_unknown-key-0123456789abcdefghijklmnopqrstu",
        "svc_token_unknown-token-0123456789abcdefghijklmnopqr",
        "svc_refresh_a-refresh-token-is-no-bearer-credential",
        "svc_test_",
    ],
)
def test_malformed_or_unknown_credential_is_invalid_token(partner: Api, credential: str) -> None:
    assert_401(partner.get("/connection", token=credential), "invalid_token", BAD_CREDENTIAL)


def test_bearer_scheme_is_case_insensitive(partner: Api) -> None:
    response = partner.get("/connection", token=None, headers={"Authorization": f"bearer {partner.token}"})
    assert response.status_code == 200


def test_operator_key_is_refused_on_partner_routes(operator: Api) -> None:
    assert_401(operator.get("/connection"), "invalid_token", BAD_CREDENTIAL)
    assert_401(operator.get("/matches"), "invalid_token", BAD_CREDENTIAL)


def test_partner_credentials_are_refused_on_operator_routes(partner: Api, operator: Api) -> None:
    assert_401(partner.get("/operator/apps"), "invalid_token", BAD_CREDENTIAL)
    assert_401(partner.post("/operator/keys", json={}), "invalid_token", BAD_CREDENTIAL)
    access = tokens(operator, register(operator))["access_token"]
    assert_401(partner.get("/operator/connections", token=access), "invalid_token", BAD_CREDENTIAL)


def test_operator_routes_without_credential_are_authentication_required(operator: Api) -> None:
    assert_401(operator.get("/operator/apps", token=None), "authentication_required", NO_CREDENTIAL)


def test_unknown_operator_key_is_invalid_token(operator: Api) -> None:
    assert_401(operator.get("/operator/apps", token=OPERATOR_KEY + "x"), "invalid_token", BAD_CREDENTIAL)


def test_missing_scope_is_403_insufficient_scope(new_partner: Callable[..., Api]) -> None:
    reader = new_partner(scope="matches.read")
    response = reader.post("/matches", json={})
    assert response.status_code == 403
    assert response.json["error"]["code"] == "insufficient_scope"
    assert response.json["error"]["details"] == {"requiredScope": "matches.write"}
    assert response.headers["WWW-Authenticate"] == 'Bearer error="insufficient_scope", scope="matches.write"'
    assert reader.get("/matches").status_code == 200


def test_oauth_token_without_the_scope_is_403(operator: Api) -> None:
    app = register(operator, scope="matches.read matches.write")
    access = tokens(operator, app, scope="matches.read")["access_token"]
    client = Api(operator.client, access)
    assert client.get("/matches").status_code == 200
    response = client.put("/matches", json={})
    assert response.status_code == 403
    assert response.headers["WWW-Authenticate"] == 'Bearer error="insufficient_scope", scope="matches.write"'


def test_scope_is_checked_after_the_credential(new_partner: Callable[..., Api]) -> None:
    reader = new_partner(scope="matches.read")
    assert_401(reader.post("/matches", json={}, token="svc_test_nope"), "invalid_token", BAD_CREDENTIAL)


def test_expired_access_token_is_invalid_token(operator: Api, clock: FixedClock) -> None:
    access = tokens(operator, register(operator))["access_token"]
    clock.advance(3599)
    assert Api(operator.client, access).get("/connection").status_code == 200
    clock.advance(1)
    assert_401(Api(operator.client, access).get("/connection"), "invalid_token", BAD_CREDENTIAL)


def test_developer_key_expires_after_ninety_days(new_partner: Callable[..., Api], clock: FixedClock) -> None:
    key = new_partner()
    info = key.get("/connection").json["data"]
    assert info["tokenExpiresOn"] == "2027-02-19T10:00:00.000Z"  # 2026-11-21 + 90 days
    clock.advance(90 * 24 * 3600 - 1)
    assert key.get("/connection").status_code == 200
    clock.advance(1)
    assert_401(key.get("/connection"), "invalid_token", BAD_CREDENTIAL)


def test_get_connection_of_a_developer_key(new_partner: Callable[..., Api]) -> None:
    key = new_partner(scope="matches.read webhooks.read", name="Laptop key")
    response = key.get("/connection")
    assert response.status_code == 200
    data = response.json["data"]
    assert data["appID"] == "developer-key"
    assert data["appName"] == "Laptop key"
    assert data["connectionID"].startswith("conn_")
    assert data["scopes"] == ["matches.read", "webhooks.read"]
    assert data["approvedOn"] == "2026-11-21T10:00:00.000Z"


@pytest.mark.parametrize("scope", ["", "   ", "matches.read nope.write"])
def test_developer_key_with_no_or_unknown_scope_is_refused(operator: Api, scope: str) -> None:
    response = operator.post("/operator/keys", json={"scope": scope})
    assert response.status_code == 400
    assert response.json["error"]["code"] == "invalid_scope"


def test_developer_key_gets_all_scopes_by_default(partner: Api) -> None:
    assert partner.get("/connection").json["data"]["scopes"] == list(SCOPES)


def test_delete_connection_revokes_the_key(partner: Api) -> None:
    info = partner.get("/connection").json["data"]
    response = partner.delete("/connection")
    assert response.status_code == 200
    assert response.json == {"data": {"id": info["connectionID"], "deleted": True}}
    assert_401(partner.get("/connection"), "invalid_token", BAD_CREDENTIAL)
    assert_401(partner.delete("/connection"), "invalid_token", BAD_CREDENTIAL)


def test_delete_connection_revokes_every_token_of_an_oauth_connection(operator: Api) -> None:
    app = register(operator)
    first = tokens(operator, app)
    second = tokens(operator, app)
    assert first["connection_id"] == second["connection_id"]
    assert Api(operator.client, first["access_token"]).delete("/connection").status_code == 200
    for access in (first["access_token"], second["access_token"]):
        assert_401(Api(operator.client, access).get("/connection"), "invalid_token", BAD_CREDENTIAL)
    refreshed = operator.post("/oauth/token", token=None, data={
        "grant_type": "refresh_token", "refresh_token": second["refresh_token"],
        "client_id": app["clientID"], "client_secret": app["clientSecret"],
    })
    assert refreshed.status_code == 400
    assert refreshed.json["error"]["code"] == "invalid_grant"


def test_revoking_one_connection_leaves_others_working(new_partner: Callable[..., Api]) -> None:
    first, second = new_partner(), new_partner()
    first.delete("/connection")
    assert second.get("/connection").status_code == 200


def test_authenticated_responses_carry_rate_limit_headers(partner: Api) -> None:
    response = partner.get("/connection")
    assert response.headers["RateLimit-Limit"] == "120"
    assert response.headers["RateLimit-Remaining"] == "119"
    assert 1 <= int(response.headers["RateLimit-Reset"]) <= 60


def test_oauth_connections_use_the_oauth_rate_limit(operator: Api) -> None:
    access = tokens(operator, register(operator))["access_token"]
    response = Api(operator.client, access).get("/connection")
    assert response.headers["RateLimit-Limit"] == "600"
