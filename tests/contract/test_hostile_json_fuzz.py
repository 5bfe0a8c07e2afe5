"""Hostile JSON text against every operation of the OpenAPI document (hardening issue: the fuzz layer that would
have found the 500s of item 4). Hypothesis generates bodies that JSON-schema-driven fuzzers never produce: lone
surrogates in strings and keys, integers beyond 64 bits, nesting thousands deep, duplicate keys. Every answer must
be below 500 and carry the error envelope when it is an error; the store stays readable and serializable.

The real app over real storage (one per module, so every example hits the same growing store).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api.app import create_app
from api.bootstrap import bootstrap as build_services
from domain.access.auth import bootstrap
from domain.clock import FixedClock
from domain.settings import Settings
from storage.backend import open_store
from storage.engine import Store
from storage.repository import unit_of_work
from tests.conftest import OPERATOR_KEY
from tests.responses import json_of

LONE_SURROGATES = st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)
HUGE_INTEGERS = st.one_of(st.integers(min_value=2**64, max_value=2**200),
                          st.integers(min_value=-(2**200), max_value=-(2**63) - 1))
# NUL and the bidi controls of contract §8a: PostgreSQL cannot store a NUL (it was a 500 there).
FORBIDDEN = st.sampled_from(["\x00", *map(chr, range(0x202A, 0x202F)), *map(chr, range(0x2066, 0x206A))])
HOSTILE_TEXT = st.builds(lambda a, s, b: a + s + b, st.text(max_size=8), st.one_of(LONE_SURROGATES, FORBIDDEN),
                         st.text(max_size=8))
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(), HUGE_INTEGERS, st.text(max_size=10), HOSTILE_TEXT)
FIELDS = st.sampled_from(["name", "externalID", "tables", "label", "players", "ranking", "rating", "bestOf",
                          "tableID", "playerA", "gameScores", "url", "events", "eventID", "grant_type", "code",
                          "client_secret", "refresh_token", "upsert", "force", "rows"])
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.one_of(FIELDS, HOSTILE_TEXT), inner, max_size=5)),
    max_leaves=12,
)


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=True)  # lone surrogates become `\\udXXX` escapes, as an attacker sends


DEEP = st.integers(min_value=600, max_value=12_000).flatmap(lambda depth: st.sampled_from([
    "[" * depth + "]" * depth, '{"a":' * depth + "1" + "}" * depth, '{"name":' + "[" * depth + "]" * depth + "}",
]))
DUPLICATE_KEYS = st.builds(lambda key, a, b: "{" + f"{_dumps(key)}: {_dumps(a)}, {_dumps(key)}: {_dumps(b)}" + "}",
                           FIELDS, VALUES, VALUES)
HOSTILE_JSON = st.one_of(VALUES.map(_dumps), DEEP, DUPLICATE_KEYS)


def _operations(app: Flask) -> list[tuple[str, str, bool]]:
    document = json_of(app.test_client().get("/api/v1/openapi.json"))
    found = []
    for path, item in document["paths"].items():
        for method, operation in item.items():
            if method not in {"get", "post", "put", "patch", "delete"}:
                continue
            operator = any("operatorKey" in entry for entry in operation.get("security", []))
            found.append((method.upper(), re.sub(r"\{[^}]+\}", "x_1", path), operator))
    return sorted(found)


@pytest.fixture(scope="module", params=["tinydb", "postgres"])
def app(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    """The app on each backend (contract §8a: no 5xx on either)."""
    data_dir = Path(tmp_path_factory.mktemp("fuzz")) / "data"
    database_url = request.getfixturevalue("pg_cluster").new_database() if request.param == "postgres" else None
    settings = Settings(data_dir=data_dir, dev_key_rate_limit=10**9, token_rate_limit=10**9,
                        database_url=database_url)
    store = open_store(settings)
    with unit_of_work(store) as uow:
        bootstrap(uow, operator_key=OPERATOR_KEY, now=FixedClock().now())
    made = create_app(build_services(settings, store, clock=FixedClock()))
    yield made
    store.close()
    if database_url is None:
        Store(data_dir).close()  # the data dir still opens: nothing unserializable reached the journal


@pytest.fixture(scope="module")
def partner_key(app: Flask) -> str:
    response = app.test_client().post("/api/v1/operator/keys", json={"name": "fuzz"},
                                      headers={"Authorization": f"Bearer {OPERATOR_KEY}"})
    return str(json_of(response)["data"]["key"])


def test_the_document_lists_operations_of_both_audiences(app: Flask) -> None:
    operations = _operations(app)
    assert len(operations) > 40
    assert any(operator for _, _, operator in operations) and any(not operator for _, _, operator in operations)


def _check(client: FlaskClient, method: str, path: str, token: str | None, body: str) -> None:
    headers = {"Content-Type": "application/json"} | ({"Authorization": f"Bearer {token}"} if token else {})
    response = client.open(path, method=method, data=body.encode("utf-8", "surrogatepass"), headers=headers)
    assert response.status_code < 500, (method, path, body[:80], response.get_data()[:200])
    if response.status_code >= 400 and response.mimetype == "application/json":
        error = orjson.loads(response.get_data())["error"]
        assert set(error) <= {"code", "message", "details"} and error["code"] and error["message"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                   HealthCheck.too_slow])
@given(body=HOSTILE_JSON, pick=st.integers(min_value=0))
def test_hostile_json_never_gets_a_5xx_on_any_operation(app: Flask, partner_key: str, body: str, pick: int) -> None:
    operations = _operations_cache(app)
    method, path, operator = operations[pick % len(operations)]
    _check(app.test_client(), method, path, OPERATOR_KEY if operator else partner_key, body)


@pytest.mark.parametrize("body", ['"\\ud800"', '{"name": "\\udc00"}', "[" * 5000 + "]" * 5000,
                                  '{"ranking": 100000000000000000000000}', '{"name": "a\\u0000b"}',
                                  '{"players": [{"manualName": "\\u202eevil"}]}'])
def test_every_operation_answers_each_classic_hostile_body_below_500(app: Flask, partner_key: str, body: str) -> None:
    client = app.test_client()
    for method, path, operator in _operations_cache(app):
        _check(client, method, path, OPERATOR_KEY if operator else partner_key, body)


_CACHE: dict[int, list[tuple[str, str, bool]]] = {}


def _operations_cache(app: Flask) -> list[tuple[str, str, bool]]:
    if id(app) not in _CACHE:
        _CACHE[id(app)] = _operations(app)
    return _CACHE[id(app)]
