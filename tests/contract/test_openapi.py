"""The OpenAPI document at /api/v1/openapi.json: valid, complete, and truthful about the platform's rules."""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from marshmallow import fields, validate
from openapi_spec_validator import validate as validate_openapi

from api.app import _openapi_config, create_app
from api.blueprint import Blueprint
from api.bootstrap import bootstrap
from api.openapi import PUBLIC_PATHS, install
from api.operation_ids import OPERATION_IDS
from api.platform import PREFIX
from api.schemas.common import Strict
from api.smorest_adapter import CourtsideApi
from api.version import package_version
from domain.clock import FixedClock
from domain.models import MATCH_EVENTS, SCOPES, SUBSCRIBABLE_EVENTS
from domain.settings import Settings
from domain.webhooks import EVENT_ID_PATTERN
from storage.engine import Store
from tests.conftest import ROOT, Api
from tests.contract.examples_session import EXAMPLES, record
from tests.openapi_validation import validator
from tests.responses import json_of

METHODS = {"get", "put", "post", "patch", "delete"}
ENVELOPE_REF = "#/components/schemas/ErrorEnvelope"


@pytest.fixture
def document(app: Flask) -> dict[str, Any]:
    response = app.test_client().get("/api/v1/openapi.json")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    body = response.json
    assert isinstance(body, dict)
    return body


def operations(document: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, item in document["paths"].items():
        for method, operation in item.items():
            if method in METHODS:
                yield path, method, operation


def resolve(document: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        section, kind, name = node["$ref"].removeprefix("#/").split("/")
        node = document[section][kind][name]
    return node


def flask_path(rule: str) -> str:
    return re.sub(r"<(?:[a-z]+:)?([A-Za-z_]+)>", r"{\1}", rule)


def test_document_is_valid_openapi_3(document: dict[str, Any]) -> None:
    validate_openapi(document)
    assert document["openapi"].startswith("3.")
    assert document["info"]["version"] == package_version()


def test_the_lazy_document_is_flask_smorests_eager_one(app: Flask, document: dict[str, Any]) -> None:
    """`CourtsideApi` documents the blueprints on the document's first read, through flask-smorest's public
    surface only: the served document is the one flask-smorest's own `Api.register_blueprint` builds eagerly (same
    blueprints, same order), and `current_api` finds the app's Api inside any route's request (what
    `register_blueprint` records). Fails loudly if a flask-smorest release changes what we copy of it."""
    from flask_smorest import Api, current_api

    ours = app.extensions["flask-smorest"]["apis"][""]["ext_obj"]
    assert isinstance(ours, CourtsideApi)

    class EagerApi(Api):  # type: ignore[misc]
        ERROR_SCHEMA = CourtsideApi.ERROR_SCHEMA

    plain = Flask("eager")
    _openapi_config(plain)
    eager = EagerApi(plain)
    install(eager, settings=Settings())
    for name in app.extensions["flask-smorest"]["blp_name_to_api"]:
        eager.register_blueprint(app.blueprints[name], url_prefix=PREFIX)
    assert json.dumps(eager.spec.to_dict()) == json.dumps(document)
    with app.test_request_context(f"{PREFIX}/health"):
        assert current_api._get_current_object() is ours


def test_document_needs_no_credential_and_carries_a_request_id(app: Flask) -> None:
    response = app.test_client().get("/api/v1/openapi.json")
    assert response.status_code == 200
    assert response.headers["Service-Request-ID"]


def test_every_route_under_api_v1_is_documented(app: Flask, document: dict[str, Any]) -> None:
    missing = []
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/v1/"):
            continue
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            item = document["paths"].get(flask_path(rule.rule), {})
            if method.lower() not in item:
                missing.append(f"{method} {rule.rule}")
    assert missing == []


def test_every_documented_operation_exists(app: Flask, document: dict[str, Any]) -> None:
    routes = {(flask_path(rule.rule), method.lower()) for rule in app.url_map.iter_rules()
              for method in rule.methods or set()}
    assert [f"{m} {p}" for p, m, _ in operations(document) if (p, m) not in routes] == []


def test_every_operation_states_its_security(document: dict[str, Any]) -> None:
    for path, method, operation in operations(document):
        assert "security" in operation, f"{method} {path}"
        if path in PUBLIC_PATHS:
            assert operation["security"] == [], f"{method} {path}"
        elif path.startswith("/api/v1/operator/"):
            assert operation["security"] == [{"operatorKey": []}], f"{method} {path}"
        else:
            schemes = {name for requirement in operation["security"] for name in requirement}
            assert schemes == {"oauth2", "developerKey"}, f"{method} {path}"


def test_partner_operations_name_a_known_scope(document: dict[str, Any]) -> None:
    declared = document["components"]["securitySchemes"]["oauth2"]["flows"]["authorizationCode"]["scopes"]
    assert set(declared) == set(SCOPES)
    for path, method, operation in operations(document):
        for requirement in operation["security"]:
            for scope in requirement.get("oauth2", []):
                assert scope in declared, f"{method} {path}: {scope}"
                assert f"`{scope}`" in operation["description"]


def test_public_operations_are_exactly_health_docs_and_oauth(document: dict[str, Any]) -> None:
    public = {path for path, _, operation in operations(document) if operation["security"] == []}
    assert public == {path for path in PUBLIC_PATHS if path in document["paths"]}
    assert {"/api/v1/health", "/api/v1/openapi.json", "/api/v1/docs"} <= public


def test_every_error_response_is_the_envelope(document: dict[str, Any]) -> None:
    for path, method, operation in operations(document):
        for status, response in operation["responses"].items():
            if status == "default" or int(status) >= 400:
                content = resolve(document, response)["content"]
                assert content["application/json"]["schema"] == {"$ref": ENVELOPE_REF}, f"{method} {path} {status}"
    envelope = document["components"]["schemas"]["ErrorEnvelope"]
    assert envelope["required"] == ["error"]
    body = resolve(document, envelope["properties"]["error"])
    assert set(body["required"]) == {"code", "message"}


def test_platform_errors_are_documented_per_operation(document: dict[str, Any]) -> None:
    for path, method, operation in operations(document):
        statuses = set(operation["responses"])
        label = f"{method} {path}"
        assert {"400", "default"} <= statuses, label
        if "requestBody" in operation or method in {"post", "put", "patch"}:
            assert {"413", "415"} <= statuses, label
        if operation["security"]:
            assert {"401", "429"} <= statuses, label
        if any(requirement.get("oauth2") for requirement in operation["security"]):
            assert "403" in statuses, label
        if "{" in path:
            assert "404" in statuses, label


def test_rate_limited_and_unauthenticated_responses_document_their_headers(document: dict[str, Any]) -> None:
    too_many = document["components"]["responses"]["TooManyRequests"]["headers"]
    assert {"Retry-After", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"} <= set(too_many)
    assert "WWW-Authenticate" in document["components"]["responses"]["Unauthorized"]["headers"]


def test_every_response_documents_the_request_id_and_authenticated_successes_the_quota(
    document: dict[str, Any],
) -> None:
    for path, method, operation in operations(document):
        for status, response in operation["responses"].items():
            resolved = resolve(document, response)
            if not status.startswith(("2", "4", "5", "d")):
                continue
            assert "Service-Request-ID" in resolved["headers"], f"{method} {path} {status}"
            if status.startswith("2") and operation["security"]:
                assert {"RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"} <= set(resolved["headers"])


def test_every_operation_accepts_the_request_id_header(document: dict[str, Any]) -> None:
    parameter = document["components"]["parameters"]["ServiceRequestID"]
    assert parameter["in"] == "header" and parameter["name"] == "Service-Request-ID"
    assert parameter["schema"]["minLength"] == 8 and parameter["schema"]["maxLength"] == 120
    for path, method, operation in operations(document):
        refs = [p.get("$ref") for p in operation.get("parameters", [])]
        assert "#/components/parameters/ServiceRequestID" in refs, f"{method} {path}"


def _objects(document: dict[str, Any], schema: dict[str, Any], seen: set[str]) -> Iterator[dict[str, Any]]:
    """Every object schema reachable from `schema` (through refs, items, properties and combinators)."""
    if "$ref" in schema:
        if schema["$ref"] in seen:
            return
        seen.add(schema["$ref"])
    schema = resolve(document, schema)
    if schema.get("type") == "object" and "properties" in schema:
        yield schema
    for child in (schema.get("items"), schema.get("additionalProperties")):
        if isinstance(child, dict):
            yield from _objects(document, child, seen)
    for child in schema.get("properties", {}).values():
        yield from _objects(document, child, seen)
    for key in ("allOf", "anyOf", "oneOf"):
        for child in schema.get(key, []):
            yield from _objects(document, child, seen)


#: Contract §2: the OAuth endpoints ignore unrecognized parameters (RFC 6749 §3.1, §3.2); every other body is strict.
OPEN_BODIES = {"/api/v1/oauth/token"}


def test_request_bodies_reject_unknown_properties(document: dict[str, Any]) -> None:
    for path, method, operation in operations(document):
        for media in operation.get("requestBody", {}).get("content", {}).values():
            for obj in _objects(document, media["schema"], set()):
                if path in OPEN_BODIES:
                    assert obj.get("additionalProperties") is not False, f"{method} {path}: {obj}"
                else:
                    assert obj.get("additionalProperties") is False, f"{method} {path}: {obj}"


def test_token_response_is_not_wrapped(document: dict[str, Any]) -> None:
    operation = document["paths"]["/api/v1/oauth/token"]["post"]
    schema = resolve(document, operation["responses"]["200"]["content"]["application/json"]["schema"])
    assert "data" not in schema["properties"]
    assert {"access_token", "token_type", "expires_in", "refresh_token", "scope"} <= set(schema["required"])
    assert set(operation["requestBody"]["content"]) == {"application/json", "application/x-www-form-urlencoded"}


def test_bulk_operations_document_207_with_the_200_body(document: dict[str, Any]) -> None:
    bulk = [(p, m, op) for p, m, op in operations(document) if p.endswith(("/bulk", "/bulk/cancel"))]
    for path, method, operation in bulk:
        ok, partial = operation["responses"]["200"], operation["responses"]["207"]
        ok_media, partial_media = ok["content"]["application/json"], partial["content"]["application/json"]
        assert partial_media["schema"] == ok_media["schema"], f"{method} {path}"
        # each status shows its own example: nothing failed, and some item failed
        assert ok_media["example"]["data"]["failed"] == 0 < partial_media["example"]["data"]["failed"]


def test_webhook_payloads_are_documented(document: dict[str, Any]) -> None:
    hooks = document["x-webhooks"]
    assert set(hooks) == {*SUBSCRIBABLE_EVENTS, "integration.test"}
    for event, item in hooks.items():
        body = item["post"]["requestBody"]["content"]["application/json"]["schema"]
        schema = resolve(document, body)
        assert {"id", "type", "createdOn", "connectionID", "data"} <= set(schema["required"])
        assert event in schema["properties"]["type"]["enum"]
        headers = {p["name"] for p in item["post"]["parameters"]}
        assert headers == {"webhook-id", "webhook-timestamp", "webhook-signature"}
        example = item["post"]["requestBody"]["content"]["application/json"]["example"]
        assert example["type"] == event
        validator({**body, "components": document["components"]}).validate(example)


# ------------------------------------------------------------------------------------------ contract §23
#: Names a published client already calls (contract §23): they never change within /api/v1.
PINNED_OPERATION_IDS = {
    ("get", "/api/v1/matches"): "listMatches",
    ("put", "/api/v1/matches"): "syncMatch",
    ("post", "/api/v1/matches"): "createMatch",
    ("get", "/api/v1/matches/{external_id}"): "getMatch",
    ("post", "/api/v1/matches/bulk"): "syncMatches",
    ("post", "/api/v1/webhooks/secret/rotate"): "rotateWebhookSecret",
    ("post", "/api/v1/webhooks/test"): "sendWebhookTest",
    ("put", "/api/v1/player-lists"): "syncPlayerList",
    ("post", "/api/v1/broadcasts"): "createBroadcast",
    ("post", "/api/v1/operator/matches/{match_id}/start"): "operatorStartMatch",
}


def test_every_operation_has_a_stable_unique_camel_case_operation_id(document: dict[str, Any]) -> None:
    seen: dict[str, tuple[str, str]] = {}
    for path, method, operation in operations(document):
        name = operation.get("operationId")
        assert name and re.fullmatch(r"[a-z][a-zA-Z0-9]*", name), (method, path, name)
        assert name not in seen, f"{name}: {seen.get(name)} and {(method, path)}"
        seen[name] = (method, path)
        short = path.removeprefix(PREFIX)
        assert (method.upper(), short) in OPERATION_IDS, (
            f"{method.upper()} {short} has no name in api/operation_ids.py (a derived {name!r} is not stable)")
        assert name.startswith("operator") == short.startswith("/operator/"), name
    for (method, path), name in PINNED_OPERATION_IDS.items():
        assert document["paths"][path][method]["operationId"] == name
    documented = {(m.upper(), p.removeprefix(PREFIX)) for p, m, _ in operations(document)}
    assert set(OPERATION_IDS) <= documented, "api/operation_ids.py names routes that no longer exist"


def test_schema_names_say_request_or_response(document: dict[str, Any]) -> None:
    schemas = document["components"]["schemas"]
    assert {"MatchSync", "MatchRead", "BulkSyncResult", "BulkCancelResult"} <= set(schemas)
    assert not {"MatchBulkBody", "CancelBulkBody", "ImportBody", "ErrorBody"} & set(schemas)
    bulk = resolve(document, document["paths"]["/api/v1/matches/bulk"]["post"]["responses"]["200"])
    envelope = resolve(document, bulk["content"]["application/json"]["schema"])
    assert envelope["properties"]["data"]["$ref"].endswith("/BulkSyncResult")


def test_every_create_documents_the_idempotency_key(document: dict[str, Any]) -> None:
    creates = [("post", "/broadcasts"), ("post", "/rosters"), ("post", "/matches"), ("post", "/matches/bulk"),
               ("post", "/operator/broadcasts"), ("post", "/operator/player-lists"), ("post", "/operator/rosters"),
               ("post", "/operator/matches"), ("post", "/operator/matches/import"), ("post", "/operator/draws"),
               ("post", "/operator/keys"), ("post", "/operator/apps"),
               ("post", "/operator/player-lists/{list_id}/players"),
               ("post", "/operator/player-lists/{list_id}/players/import")]
    for method, path in creates:
        parameters = document["paths"][PREFIX + path][method]["parameters"]
        [key] = [p for p in parameters if isinstance(p, dict) and p.get("name") == "Idempotency-Key"]
        assert (key["in"], key["required"], key["schema"]["minLength"], key["schema"]["maxLength"]) == (
            "header", False, 8, 200)


def test_docs_ui_is_served_without_a_cdn(app: Flask) -> None:
    page = app.test_client().get("/api/v1/docs")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "/api/v1/docs/assets/" in html
    assert "https://" not in html
    asset = app.test_client().get("/api/v1/docs/assets/swagger-ui-bundle.js")
    assert asset.status_code == 200


def test_fields_and_schemas_can_state_what_marshmallow_cannot() -> None:
    """`OPENAPI` on a field or schema class, and URL validation, reach the document."""
    class Ranking(fields.Field[Any]):
        OPENAPI = {"oneOf": [{"type": "number"}, {"type": "string", "maxLength": 500}]}

    class Change(Strict):
        OPENAPI = {"minProperties": 1}
        ranking = Ranking()
        logoURL = fields.String(validate=validate.URL())

    flask_app = Flask("probe")
    _openapi_config(flask_app)
    api = CourtsideApi(flask_app)
    install(api, settings=Settings())
    blp = Blueprint("probe", __name__)

    @blp.route("/probe", methods=["PATCH"])
    @blp.arguments(Change)
    @blp.response(200)
    def probe(body: dict[str, Any]) -> None:
        """Probe."""

    api.register_blueprint(blp, url_prefix="/api/v1")
    schema = api.spec.to_dict()["components"]["schemas"]["Change"]
    assert schema["minProperties"] == 1
    assert schema["additionalProperties"] is False
    assert schema["properties"]["ranking"]["oneOf"][1] == {"type": "string", "maxLength": 500}
    assert schema["properties"]["logoURL"]["format"] == "uri"


def test_stored_webhook_payloads_match_their_documented_schemas(
    document: dict[str, Any], partner: Api, operator: Api
) -> None:
    """The four match events and the test event, as really recorded, validate against `x-webhooks`."""
    configured = partner.patch("/webhooks/configuration", json={"url": "http://127.0.0.1:9/hook"})
    assert configured.status_code == 200, configured.json
    tables = partner.post("/broadcasts", json={"name": "Open", "tables": [{"label": "Court 1"}]})
    assert tables.status_code == 201, tables.json
    table_id = tables.json["data"]["tables"][0]["id"]
    players = [{"externalID": f"p{n}", "firstName": f"Player{n}", "lastName": "Test"} for n in (1, 2)]
    listed = partner.put("/player-lists", json={"externalID": "pl-1", "name": "Entrants", "players": players})
    assert listed.status_code == 200, listed.json
    match = partner.put("/matches", json={
        "externalID": "m-1", "tableID": table_id, "playerListExternalID": "pl-1", "bestOf": 3,
        "playerA": {"externalID": "p1"}, "playerB": {"externalID": "p2"},
    })
    assert match.status_code == 200, match.json
    match_id = match.json["data"]["id"]
    won = [{"a": 11, "b": 7}, {"a": 11, "b": 9}]
    for action, body in (("start", None), ("score", {"gameScores": won[:1]}), ("complete", {"gameScores": won}),
                         ("score", {"gameScores": [{"a": 11, "b": 5}, {"a": 11, "b": 9}]})):
        answer = operator.post(f"/operator/matches/{match_id}/{action}", json=body)
        assert answer.status_code == 200, (action, answer.json)
    partner.post("/webhooks/test")

    deliveries = partner.get("/webhooks", query_string={"limit": 100}).json["data"]
    assert {d["eventType"] for d in deliveries} == {*MATCH_EVENTS, "integration.test"}
    components = {"components": document["components"]}
    for delivery in deliveries:
        ref = document["x-webhooks"][delivery["eventType"]]["post"]["requestBody"]["content"]["application/json"]
        schema = {**ref["schema"], **components}
        validator(schema).validate(delivery["payload"])


def _body(document: dict[str, Any], method: str, path: str) -> dict[str, Any]:
    operation = document["paths"][f"/api/v1{path}"][method]
    return resolve(document, operation["requestBody"]["content"]["application/json"]["schema"])


def _bounds(schema: dict[str, Any], *keys: str) -> tuple[Any, ...]:
    return tuple(schema.get(key) for key in keys)


def test_document_states_the_limits_of_the_spec(document: dict[str, Any]) -> None:
    """api-v1.md "Limits" and contract §2 string bounds, as the document states them."""
    for path, method, operation in operations(document):
        for parameter in operation.get("parameters", []):
            if parameter.get("name") == "limit":
                assert _bounds(parameter["schema"], "minimum", "maximum") == (1, 100), f"{method} {path}"
    broadcast = _body(document, "post", "/broadcasts")["properties"]
    assert _bounds(broadcast["tables"], "minItems", "maxItems") == (1, 50)
    assert _bounds(broadcast["name"], "minLength", "maxLength") == (1, 120)
    assert broadcast["description"]["maxLength"] == 800
    for method, path, member in (("post", "/matches/bulk", "matches"), ("patch", "/matches/bulk", "matches"),
                                 ("post", "/matches/bulk/cancel", "externalIDs"), ("patch", "/tables/bulk", "tables")):
        assert _bounds(_body(document, method, path)["properties"][member], "minItems", "maxItems") == (1, 100)
    for path in ("/player-lists/{external_id}", "/teams/{external_id}"):
        patch = _body(document, "patch", path)
        assert patch["properties"]["upsert"]["maxItems"] == 500
        assert _bounds(patch["properties"]["removeExternalIDs"], "maxItems", "uniqueItems") == (500, True)
        assert _bounds(patch["properties"]["name"], "minLength", "maxLength") == (1, 120)
        assert patch.get("minProperties") == 1
    assert _body(document, "patch", "/player-lists/{external_id}")["properties"]["description"]["maxLength"] == 800
    team = _body(document, "patch", "/teams/{external_id}")["properties"]
    assert (team["jerseyColor"]["maxLength"], team["logoURL"]["maxLength"]) == (120, 1000)
    config = _body(document, "patch", "/webhooks/configuration")["properties"]["events"]
    assert config["uniqueItems"] is True and set(config["items"]["enum"]) == set(SUBSCRIBABLE_EVENTS)
    assert _body(document, "post", "/webhooks/retry")["properties"]["eventID"]["pattern"] == "^[a-f0-9]{40}$"
    rotate = document["paths"]["/api/v1/webhooks/secret/rotate"]["post"]["parameters"]
    key = next(p for p in rotate if p.get("name") == "Idempotency-Key")
    assert key["in"] == "header" and _bounds(key["schema"], "minLength", "maxLength") == (8, 200)
    token = document["paths"]["/api/v1/oauth/token"]["post"]["requestBody"]["content"]
    verifier = resolve(document, token["application/json"]["schema"])["properties"]["code_verifier"]
    assert _bounds(verifier, "minLength", "maxLength", "pattern") == (43, 128, "^[A-Za-z0-9._~-]+$")
    request_id = document["components"]["parameters"]["ServiceRequestID"]["schema"]
    assert _bounds(request_id, "minLength", "maxLength") == (8, 120)


def test_undocumented_methods_are_405_with_the_documented_ones_in_allow(
    app: Flask, document: dict[str, Any]
) -> None:
    """A URL answers the methods of its documented path; a concrete path is matched before a templated one (OpenAPI),
    so `GET /tables/bulk` is a 405 with `Allow: PATCH`, not the read of a table whose ID is "bulk" (issue 47.14)."""
    templates = [(re.compile("^" + re.sub(r"\\{[^}]+\\}", "[^/]+", re.escape(path)) + "$"), item)
                 for path, item in document["paths"].items()]
    client = app.test_client()
    for path in document["paths"]:
        url = re.sub(r"\{[^}]+\}", "x", path)
        own = document["paths"][path] if "{" not in path else None
        documented = {method.upper() for pattern, item in templates if pattern.match(url)
                      for method in item if method in METHODS} if own is None else \
            {method.upper() for method in own if method in METHODS}
        for method in sorted({"GET", "PUT", "POST", "PATCH", "DELETE"} - documented):
            response = client.open(url, method=method)
            assert response.status_code == 405, f"{method} {path}"
            assert response.get_json()["error"]["code"] == "method_not_allowed"
            allowed = set(response.headers["Allow"].replace(" ", "").split(","))
            assert allowed - {"HEAD", "OPTIONS"} == documented, f"{method} {path}"


def test_bodies_naming_another_resource_document_404_but_bulk_bodies_do_not(document: dict[str, Any]) -> None:
    paths = document["paths"]
    for method, path in (("put", "/matches"), ("post", "/matches"), ("post", "/broadcasts")):
        assert resolve(document, paths[f"/api/v1{path}"][method]["responses"]["404"])["content"], path
    for method, path in (("post", "/matches/bulk"), ("patch", "/matches/bulk"), ("patch", "/tables/bulk")):
        assert "404" not in paths[f"/api/v1{path}"][method]["responses"], path


def test_limits_and_the_retry_schedule_are_stated_from_the_settings_the_app_enforces(
    settings: Settings, store: Store, clock: FixedClock,
) -> None:
    """The body limit and the retry schedule come from the settings (not copied by hand), and so does 413."""
    tuned = dataclasses.replace(settings, max_body_bytes=64 * 1024, webhook_retry_schedule=(0, 90, 600, 7200))
    app = create_app(bootstrap(tuned, store, clock=clock))
    document = json_of(app.test_client().get(f"{PREFIX}/openapi.json"))
    assert document["components"]["responses"]["PayloadTooLarge"]["description"].endswith("larger than 64 KiB.")
    assert "at most\n64 KiB (`413`)" in document["info"]["description"]
    for event in (*MATCH_EVENTS, "integration.test"):
        assert "retried (0, 90 s, 10 min, 2 h); 410" in document["x-webhooks"][event]["post"]["description"]
    too_big = app.test_client().post(f"{PREFIX}/broadcasts", data=b"{" + b" " * (64 * 1024) + b"}",
                                      content_type="application/json")
    assert too_big.status_code == 413 and json_of(too_big)["error"]["code"] == "payload_too_large"


def test_default_document_states_one_mib_and_the_contract_schedule(document: dict[str, Any]) -> None:
    assert document["components"]["responses"]["PayloadTooLarge"]["description"].endswith("larger than 1 MiB.")
    assert ("retried (0, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h); 410"
            in document["x-webhooks"]["match.started"]["post"]["description"])


def test_event_id_pattern_is_the_one_the_code_enforces(document: dict[str, Any]) -> None:
    for name in ("MatchEvent", "ResultUpdatedEvent", "TestEvent"):
        assert document["components"]["schemas"][name]["properties"]["id"]["pattern"] == EVENT_ID_PATTERN
    assert _body(document, "post", "/webhooks/retry")["properties"]["eventID"]["pattern"] == EVENT_ID_PATTERN


def test_no_private_flask_smorest_attribute_is_read() -> None:
    """`_apidoc` is flask-smorest's own business: our code uses its public decorators only."""
    sources = [path for folder in ("api", "domain", "storage", "scheduler", "cli") for path in
               (ROOT / folder).rglob("*.py") if "_apidoc" in path.read_text()]
    assert sources == []


def _bodies(document: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """(operationId, "request" or a 2xx status, its JSON media object) of every operation but the document's own."""
    for path, _method, operation in operations(document):
        if path == f"{PREFIX}/openapi.json":
            continue
        body = operation.get("requestBody", {}).get("content", {}).get("application/json")
        if body is not None:
            yield operation["operationId"], "request", body
        for status, response in operation["responses"].items():
            media = response.get("content", {}).get("application/json") if isinstance(response, dict) else None
            if status.startswith("2") and media is not None:
                yield operation["operationId"], status, media


def test_every_request_and_answer_body_has_an_example_of_its_schema(document: dict[str, Any]) -> None:
    """Contract §23: the examples are what a real session sent and got (api/examples.json), and each one validates
    against the schema the server checks requests with and documents answers by."""
    components = {"components": document["components"]}
    checked = 0
    for name, where, media in _bodies(document):
        assert "example" in media, f"{name} {where}: no example (add a step to tests/contract/examples_session.py)"
        validator({**media["schema"], **components}).validate(media["example"])
        checked += 1
    assert checked > 150


def test_the_examples_session_still_runs_and_gives_every_example() -> None:
    """The session behind api/examples.json runs against today's server, and gives an example of each body the
    committed file has (regenerate it with `python -m tests.contract.examples_session`)."""
    recorded = record()
    committed = json.loads(EXAMPLES.read_text())
    shape = {name: ("request" in kept, sorted(kept["responses"])) for name, kept in recorded.items()}
    assert shape == {name: ("request" in kept, sorted(kept["responses"])) for name, kept in committed.items()}
    assert "svc_test_" not in EXAMPLES.read_text().replace("svc_test_EXAMPLE", "")


def test_an_idempotent_create_documents_its_409(document: dict[str, Any]) -> None:
    """The 409 of a reused key is documented by the operation itself, not only by `default`."""
    for path, method, operation in operations(document):
        parameters = [p for p in operation.get("parameters", []) if isinstance(p, dict)]
        if any(p.get("name") == "Idempotency-Key" for p in parameters):
            conflict = resolve(document, operation["responses"]["409"])
            assert "idempotency_key_reused" in conflict["description"], (method, path)


def _schema_nodes(node: Any, where: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every schema-like dict in the document (any dict), with where it is."""
    if isinstance(node, dict):
        yield where, node
        for key, value in node.items():
            yield from _schema_nodes(value, f"{where}/{key}")
    elif isinstance(node, list):
        for index, item in enumerate(node):
            yield from _schema_nodes(item, f"{where}[{index}]")


def test_every_timestamp_is_a_date_time(document: dict[str, Any]) -> None:
    """A generated client types a read's `createdOn`, `startedOn`, ... as a date-time, not a plain string."""
    missing = [f"{where}.{name}" for where, node in _schema_nodes(document)
               for name, prop in (node.get("properties") or {}).items()
               if isinstance(prop, dict) and name.endswith("On") and prop.get("type") == "string"
               and prop.get("format") != "date-time"]
    assert not missing


def test_a_nullable_reference_is_that_schema_or_null(document: dict[str, Any]) -> None:
    """OpenAPI 3.0: `allOf: [{$ref}]` + `nullable: true`, which a generator types as `MatchRead | None`; never an
    `anyOf` with an anonymous nullable object beside the reference."""
    anonymous = [where for where, node in _schema_nodes(document)
                 if any(alternative == {"type": "object", "nullable": True} for alternative in node.get("anyOf", []))]
    assert not anonymous
    active = document["components"]["schemas"]["TableRead"]["properties"]["activeMatch"]
    assert active == {"allOf": [{"$ref": "#/components/schemas/MatchRead"}], "nullable": True}


def _untitled(node: Any) -> Any:
    if isinstance(node, dict):
        return {key: _untitled(value) for key, value in node.items() if key != "title"}
    if isinstance(node, list):
        return [_untitled(item) for item in node]
    return node


def test_no_two_component_schemas_are_copies(document: dict[str, Any]) -> None:
    """One schema each: a generator makes one class per component, so equal components are duplicate classes."""
    seen: dict[str, str] = {}
    copies = []
    for name, schema in document["components"]["schemas"].items():
        key = json.dumps(_untitled(schema), sort_keys=True)
        if key in seen:
            copies.append((seen[key], name))
        seen.setdefault(key, name)
    assert not copies


def test_each_scoring_format_is_one_referenced_component(document: dict[str, Any]) -> None:
    """`GamesFormat`, `SetsFormat`, `GameRule` and `ScoringPreset` are components; every body and read refers to
    them, so a generator makes one class each, not one per body (`BroadcastCreateSetsFormat`, ...)."""
    schemas = document["components"]["schemas"]
    assert {"GamesFormat", "SetsFormat", "GameRule", "ScoringPreset"} <= set(schemas)
    inline = [where for where, node in _schema_nodes(document)
              if {"pointsToWin", "gamesToWin"} & set(node.get("properties") or {})
              and where not in ("/components/schemas/GamesFormat", "/components/schemas/SetsFormat",
                                "/components/schemas/GameRule")]
    assert not inline
    games, sets = ({"$ref": f"#/components/schemas/{name}"} for name in ("GamesFormat", "SetsFormat"))
    for name in ("MatchRead", "DrawRead", "BroadcastRead", "OperatorBroadcastRead", "ScoringFormatRead"):
        assert schemas[name]["properties"]["scoring"]["oneOf"] == [games, sets], name
    for name in ("BroadcastCreate", "OperatorMatchCreate", "DrawCreateBody", "ScheduleRow"):
        assert schemas[name]["properties"]["scoring"]["oneOf"] == [
            {"$ref": "#/components/schemas/ScoringPreset"}, games, sets], name


def _raised_codes() -> set[str]:
    """Every `error.code` the source can put in an envelope: `code="..."` (a raise or an error class),
    `error_response(<status>, "...")`, the codes of bare HTTP errors and of a refused start (`BlockReason`)."""
    from api.errors import HTTP_CODES
    from domain.models import BlockReason

    found = {*HTTP_CODES.values(), *(reason.value for reason in BlockReason)}
    for folder in ("api", "domain", "storage", "scheduler"):
        for path in (ROOT / folder).rglob("*.py"):
            text = path.read_text()
            found |= set(re.findall(r"\bcode\s*=\s*\"([a-z_]+)\"", text))
            found |= set(re.findall(r"error_response\(\s*\d+,\s*\"([a-z_]+)\"", text))
    return found


def test_the_error_code_is_an_enum_of_every_code(document: dict[str, Any]) -> None:
    """A generated client can match on `error.code`: the envelope's `code` lists every code the server gives."""
    detail = resolve(document, resolve(document, document["components"]["schemas"]["ErrorEnvelope"])
                     ["properties"]["error"])
    documented = set(detail["properties"]["code"]["enum"])
    assert {"player_in_use", "table_busy", "validation_failed", "internal_error"} <= documented
    assert not _raised_codes() - documented


@pytest.mark.parametrize(("name", "code"), [
    ("patchBroadcast", "table_busy"), ("deleteBroadcast", "table_busy"), ("operatorPatchBroadcast", "table_busy"),
    ("operatorDeleteBroadcast", "table_busy"), ("operatorStartMatch", "table_busy"),
    ("syncPlayerList", "player_in_use"), ("patchPlayerList", "player_in_use"),
])
def test_an_operation_lists_the_conflicts_it_can_give(document: dict[str, Any], name: str, code: str) -> None:
    """`409 table_busy` (a court in play removed) and `409 player_in_use` (a player of a pending match removed) are
    in the operations that give them, with the envelope."""
    operation = next(op for _, _, op in operations(document) if op["operationId"] == name)
    conflict = resolve(document, operation["responses"]["409"])
    assert f"`{code}`" in conflict["description"] or code in conflict["description"]
    assert conflict["content"]["application/json"]["schema"] == {"$ref": ENVELOPE_REF}


@pytest.mark.parametrize("query", ["audience=partner", "scope=partner"])
def test_the_partner_document_leaves_out_the_operator_routes(
    app: Flask, document: dict[str, Any], query: str,
) -> None:
    response = app.test_client().get(f"/api/v1/openapi.json?{query}")
    assert response.status_code == 200
    partner = response.json
    assert isinstance(partner, dict)
    validate_openapi(partner)
    assert not [path for path in partner["paths"] if path.startswith(f"{PREFIX}/operator")]
    assert "operatorKey" not in partner["components"]["securitySchemes"]
    kept = {op["operationId"] for _, _, op in operations(partner)}
    partner_routes = {op["operationId"] for path, _, op in operations(document)
                      if not path.startswith(f"{PREFIX}/operator")}
    assert kept == partner_routes
    assert {"listMatches", "syncMatch", "rotateWebhookSecret"} <= kept
    assert "OperatorBroadcastRead" not in partner["components"]["schemas"]
    assert {"MatchRead", "GamesFormat", "ErrorEnvelope", "MatchEvent"} <= set(partner["components"]["schemas"])
    assert partner["x-webhooks"] == document["x-webhooks"]
    refs = {where for where, node in _schema_nodes(partner) if isinstance(node.get("$ref"), str)
            and node["$ref"].startswith("#/") and not _resolvable(partner, node["$ref"])}
    assert not refs


def _resolvable(document: dict[str, Any], ref: str) -> bool:
    node: Any = document
    for part in ref.removeprefix("#/").split("/"):
        if not isinstance(node, dict) or part not in node:
            return False
        node = node[part]
    return True


@pytest.mark.parametrize("query", ["audience=operator", "scope=everyone", "audience=partner&x=1"])
def test_an_unknown_audience_is_refused(app: Flask, query: str) -> None:
    response = app.test_client().get(f"/api/v1/openapi.json?{query}")
    assert response.status_code == 400
    assert json_of(response)["error"]["code"] == "validation_failed"
