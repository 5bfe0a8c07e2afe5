"""Contract §8: every bad input gets a 4xx with the envelope, never a 500, and nothing is stored: lone
surrogates, integers beyond 64 bits, JSON nested thousands deep (body routes and routes that take none),
oversized headers (hardening issue, item 4). The real app over real storage."""

from __future__ import annotations

from typing import Any

import pytest

from storage.engine import Store
from tests.conftest import Api

DEEP = b"[" * 10_000 + b"]" * 10_000
DEEP_OBJECT = b'{"a":' * 5_000 + b"1" + b"}" * 5_000
SURROGATE = b'"\\ud800"'
HUGE = b"100000000000000000000000"


def raw(api: Api, method: str, path: str, body: bytes, token: str | None = "default",
        content_type: str = "application/json") -> Any:
    return api.request(method, path, data=body, token=token, headers={"Content-Type": content_type})


def documents(store: Store) -> dict[str, int]:
    with store.transaction() as tx:
        return {name: tx.count(name) for name in ("broadcasts", "tables", "player_lists", "matches", "rosters")}


def assert_400(response: Any) -> None:
    assert response.status_code == 400, response.get_data()
    assert set(response.json["error"]) >= {"code", "message"}
    assert response.json["error"]["code"] in {"bad_request", "validation_failed"}


@pytest.mark.parametrize("body", [
    b'{"name": ' + SURROGATE + b', "tables": [{"label": "Court 1"}]}',
    b'{"name": "Open", "tables": [{"label": "\\udfff court"}]}',
    b'{"name": "Open", "description": "ok \\ud83d", "tables": [{"label": "Court 1"}]}',
    DEEP, DEEP_OBJECT,
], ids=["surrogate-name", "low-surrogate-label", "half-pair-description", "deep-array", "deep-object"])
def test_hostile_json_on_a_body_route_is_400_and_stores_nothing(partner: Api, store: Store, body: bytes) -> None:
    before = documents(store)
    assert_400(raw(partner, "POST", "/broadcasts", body))
    assert documents(store) == before


@pytest.mark.parametrize("field", ["ranking", "rating"])
@pytest.mark.parametrize("number", [HUGE, b"-100000000000000000000000", b"18446744073709551616",
                                    b"-9223372036854775809"])
def test_integers_beyond_64_bits_are_400_and_store_nothing(
    partner: Api, store: Store, field: str, number: bytes,
) -> None:
    before = documents(store)
    body = (b'{"externalID": "club", "name": "Club", "players": [{"externalID": "p1", "firstName": "Ann", "'
            + field.encode() + b'": ' + number + b"}]}")
    assert_400(raw(partner, "PUT", "/player-lists", body))
    assert documents(store) == before


@pytest.mark.parametrize(("method", "path"), [("GET", "/broadcasts"), ("DELETE", "/connection"),
                                              ("POST", "/webhooks/test")])
def test_hostile_json_on_a_route_that_takes_no_body_is_400(partner: Api, method: str, path: str) -> None:
    for body in (DEEP, b'{"\\ud800": 1}', b"{" + b'"a": ' + HUGE + b"}"):
        response = raw(partner, method, path, body)
        assert response.status_code == 400, (body[:20], response.get_data())
        assert response.json["error"]["code"] in {"bad_request", "validation_failed"}
    assert partner.get("/connection").status_code == 200  # the DELETE never ran


@pytest.mark.parametrize("field", ["client_secret", "code", "refresh_token", "client_id", "code_verifier"])
def test_surrogates_at_the_token_endpoint_without_credentials_are_400(app: Any, field: str) -> None:
    anonymous = Api(app.test_client())
    grant = "refresh_token" if field == "refresh_token" else "authorization_code"
    body = b'{"grant_type": "' + grant.encode() + b'", "' + field.encode() + b'": "x\\ud800"}'
    response = raw(anonymous, "POST", "/oauth/token", body, token=None)
    assert response.status_code == 400
    assert response.json["error"]["code"] in {"bad_request", "invalid_request"}


def test_a_deeply_nested_operator_body_is_400(operator: Api, store: Store) -> None:
    before = documents(store)
    assert_400(raw(operator, "POST", "/operator/broadcasts", DEEP))
    assert documents(store) == before


def test_oversized_headers_get_431_with_the_envelope(partner: Api) -> None:
    response = partner.get("/broadcasts", headers={"X-Padding": "a" * 70_000})
    assert response.status_code == 431
    assert response.json["error"]["code"] == "request_header_too_large"
    assert response.headers["Service-Request-ID"]
