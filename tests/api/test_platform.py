"""General rules of the spec: envelopes, request IDs, body rules, health, OpenAPI, rate limits."""

from __future__ import annotations

from typing import Any

import pytest

from api.app import create_app
from api.bootstrap import bootstrap
from tests.conftest import Api


def test_health_needs_no_credential_and_reports_version(partner: Api) -> None:
    response = partner.get("/health", token=None)
    assert response.status_code == 200
    assert response.json["data"]["status"] == "ok"
    assert isinstance(response.json["data"]["version"], str)


@pytest.mark.parametrize(
    ("method", "path", "status", "code"),
    [
        ("GET", "/no-such-route", 404, "not_found"),
        ("DELETE", "/health", 405, "method_not_allowed"),
        ("GET", "/connection", 401, "authentication_required"),
    ],
)
def test_errors_use_the_envelope_and_carry_a_request_id(
    partner: Api, method: str, path: str, status: int, code: str
) -> None:
    response = partner.request(method, path, token=None)
    assert response.status_code == status
    assert response.json["error"]["code"] == code
    assert isinstance(response.json["error"]["message"], str)
    assert response.headers["Service-Request-ID"]


def test_method_not_allowed_lists_allowed_methods(partner: Api) -> None:
    response = partner.delete("/health")
    assert response.status_code == 405
    assert "GET" in response.headers["Allow"]


@pytest.mark.parametrize(("method", "path", "allow"), [
    ("GET", "/tables/bulk", "OPTIONS, PATCH"),
    ("GET", "/webhooks/test", "OPTIONS, POST"),
    ("TRACE", "/tables/bulk", "OPTIONS, PATCH"),
    ("TRACE", "/matches/bulk", "OPTIONS, PATCH, POST"),
    ("PUT", "/webhooks/test", "OPTIONS, POST"),
    ("TRACE", "/operator/draws/preview", "OPTIONS, POST"),
])
def test_a_fixed_path_allows_only_its_documented_methods(partner: Api, operator: Api, method: str, path: str,
                                                        allow: str) -> None:
    """Not those of the `/{id}` route its last segment also matches (issue 47.14: `Allow` named GET on 6 paths)."""
    caller = operator if path.startswith("/operator/") else partner
    response = caller.request(method, path)
    assert response.status_code == 405
    assert response.json["error"]["code"] == "method_not_allowed"
    assert response.headers["Allow"] == allow


def test_valid_client_request_id_is_echoed(partner: Api) -> None:
    response = partner.get("/connection", headers={"Service-Request-ID": "abc:123-XYZ.ok"})
    assert response.headers["Service-Request-ID"] == "abc:123-XYZ.ok"


def test_minted_request_ids_differ(partner: Api) -> None:
    first = partner.get("/health").headers["Service-Request-ID"]
    second = partner.get("/health").headers["Service-Request-ID"]
    assert first and second and first != second


@pytest.mark.parametrize("bad", ["short", "x" * 121, "has space here", "slash/not/allowed"])
def test_invalid_client_request_id_is_400(partner: Api, bad: str) -> None:
    response = partner.get("/connection", headers={"Service-Request-ID": bad})
    assert response.status_code == 400
    assert response.json["error"]["code"] == "invalid_request_id"
    assert response.headers["Service-Request-ID"] != bad


def test_internal_error_is_500_envelope_without_internals(settings: Any, store: Any) -> None:
    app = create_app(bootstrap(settings, store))

    @app.route("/api/v1/boom")
    def boom() -> str:
        raise RuntimeError("secret internal detail")

    response = Api(app.test_client()).get("/boom")
    assert response.status_code == 500
    assert response.json["error"]["code"] == "internal_error"
    assert "secret" not in response.get_data(as_text=True)
    assert response.headers["Service-Request-ID"]


def test_body_over_one_mib_is_413(operator: Api) -> None:
    response = operator.post("/operator/keys", data=b"{" + b" " * (1024 * 1024 + 10) + b"}",
                             headers={"Content-Type": "application/json"})
    assert response.status_code == 413
    assert response.json["error"]["code"] == "payload_too_large"


def test_non_json_body_is_415(operator: Api) -> None:
    response = operator.post("/operator/keys", data="name=x", headers={"Content-Type": "text/plain"})
    assert response.status_code == 415
    assert response.json["error"]["code"] == "unsupported_media_type"


def test_unparseable_json_is_400_bad_request(operator: Api) -> None:
    response = operator.post("/operator/keys", data="{nope", headers={"Content-Type": "application/json"})
    assert response.status_code == 400
    assert response.json["error"]["code"] == "bad_request"


def test_unknown_property_is_400_validation_failed_with_details(operator: Api) -> None:
    response = operator.post("/operator/keys", json={"name": "x", "bogus": 1})
    assert response.status_code == 400
    assert response.json["error"]["code"] == "validation_failed"
    assert "bogus" in response.json["error"]["details"]["json"]


def test_openapi_document_is_served_without_credential(partner: Api) -> None:
    response = partner.get("/openapi.json", token=None)
    assert response.status_code == 200
    document = response.json
    assert document["info"]["version"] == partner.get("/health", token=None).json["data"]["version"]
    assert document["openapi"].startswith("3.")
    schemes = document["components"]["securitySchemes"]
    assert {"oauth2", "developerKey", "operatorKey"} <= set(schemes)
    assert "/api/v1/health" in document["paths"]
    operation = document["paths"]["/api/v1/connection"]["get"]
    assert {"oauth2": []} in operation["security"]
    assert "401" in operation["responses"]


def test_docs_ui_is_served_locally_without_cdn(partner: Api) -> None:
    page = partner.get("/docs", token=None)
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "/api/v1/docs/assets/swagger-ui-bundle.js" in html
    assert "http" not in html.split("<script")[1].split(">")[0]
    asset = partner.get("/docs/assets/swagger-ui-bundle.js", token=None)
    assert asset.status_code == 200


def test_authenticated_responses_carry_rate_limit_headers(partner: Api) -> None:
    response = partner.get("/connection")
    assert response.status_code == 200
    assert response.headers["RateLimit-Limit"] == "120"
    assert int(response.headers["RateLimit-Remaining"]) == 119
    assert 1 <= int(response.headers["RateLimit-Reset"]) <= 60


@pytest.mark.parametrize("settings", [{"dev_key_rate_limit": 3}], indirect=True)
def test_rate_limit_exceeded_is_429_with_retry_after(partner: Api) -> None:
    statuses = [partner.get("/connection").status_code for _ in range(4)]
    assert statuses == [200, 200, 200, 429]
    response = partner.get("/connection")
    assert response.status_code == 429
    assert response.json["error"]["code"] == "rate_limited"
    assert int(response.headers["Retry-After"]) >= 1
    assert response.headers["RateLimit-Remaining"] == "0"
    assert response.headers["RateLimit-Limit"] == "3"


@pytest.mark.parametrize("settings", [{"dev_key_rate_limit": 1}], indirect=True)
def test_rate_limit_window_resets(clock: Any, partner: Api) -> None:
    assert partner.get("/connection").status_code == 200
    assert partner.get("/connection").status_code == 429
    clock.advance(61)
    assert partner.get("/connection").status_code == 200


def test_operation_without_a_body_refuses_unknown_properties_with_400(partner: Api) -> None:
    key = {"Idempotency-Key": "platform-rotation-1"}
    response = partner.post("/webhooks/secret/rotate", json={"x": 1}, headers=key)
    assert response.status_code == 400
    assert response.json["error"] == {"code": "validation_failed", "message": "This operation takes no request body.",
                                      "details": {"json": {"x": ["Unknown field."]}}}
    assert partner.post("/webhooks/secret/rotate", json=[1], headers=key).json["error"]["code"] == "validation_failed"
    bad_json = partner.post("/webhooks/secret/rotate", data="{nope", headers={"Content-Type": "application/json"} | key)
    assert bad_json.status_code == 400 and bad_json.json["error"]["code"] == "bad_request"
    empty_object = partner.post("/webhooks/secret/rotate", json={}, headers=key)
    assert empty_object.status_code == 200 and empty_object.json["data"]["webhook_secret"].startswith("whsec_")


def test_delete_with_a_body_changes_nothing(partner: Api) -> None:
    created = partner.post("/broadcasts", json={"name": "Open", "tables": [{"label": "Court 1"}]})
    broadcast_id = created.json["data"]["id"]
    refused = partner.delete(f"/broadcasts/{broadcast_id}", json={"force": True})
    assert refused.status_code == 400 and refused.json["error"]["code"] == "validation_failed"
    assert partner.get(f"/broadcasts/{broadcast_id}").status_code == 200
    assert partner.delete(f"/broadcasts/{broadcast_id}").status_code == 200


def test_the_app_serves_with_the_services_bootstrap_built_once(settings: Any, store: Any, clock: Any) -> None:
    """One composition root: the app, its requests and the dispatcher share what `bootstrap` built."""
    from api.context import services

    built = bootstrap(settings, store, clock=clock)
    app = create_app(built)
    assert app.services is built
    assert built.dispatcher.runner is built.runner
    assert built.url_guard is built.runner.guard  # one webhook URL guard: configuration and every attempt
    assert built.url_guard.allow_private is settings.webhook_allow_private
    for _ in range(2):
        with app.test_request_context("/api/v1/health"):
            assert services() is built
    assert not app.extensions.get("courtside")
