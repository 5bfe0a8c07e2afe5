"""A unit of work that loses a race (PostgreSQL) runs again whole; one that always loses is a 503 `busy`."""

from __future__ import annotations

from flask import Flask

from storage.backend import ATTEMPTS
from storage.port import WriteConflict
from tests.responses import json_of


def test_a_view_that_keeps_losing_races_is_retried_then_503_busy_with_retry_after(app: Flask) -> None:
    calls: list[int] = []

    def always_conflicts() -> str:
        calls.append(1)
        raise WriteConflict("lost a race")

    app.add_url_rule("/api/v1/_conflict", "conflict", always_conflicts)
    response = app.test_client().get("/api/v1/_conflict")
    assert response.status_code == 503
    assert response.json == {"error": {"code": "busy", "message": json_of(response)["error"]["message"]}}
    assert response.headers["Retry-After"] == "1"
    assert len(calls) == ATTEMPTS


def test_a_view_that_loses_one_race_succeeds_on_its_retry(app: Flask) -> None:
    calls: list[int] = []

    def conflicts_once() -> dict[str, str]:
        calls.append(1)
        if len(calls) == 1:
            raise WriteConflict("lost a race")
        return {"data": "ok"}

    app.add_url_rule("/api/v1/_once", "once", conflicts_once)
    response = app.test_client().get("/api/v1/_once")
    assert response.status_code == 200
    assert response.json == {"data": "ok"}
    assert len(calls) == 2
