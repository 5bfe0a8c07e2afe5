"""An empty body sent as `application/json` is no body, on every route (docs/decisions.md "An empty JSON body is
no body"): a route whose body is optional takes it as `{}`, one with required fields names them (400
validation_failed), and a body that is there but does not parse stays 400 bad_request (contract §2)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from tests.conftest import Api

EMPTY: dict[str, Any] = {"data": b"", "content_type": "application/json"}


@dataclass
class Courts:
    operator: Api
    broadcast_id: str
    tables: list[str]

    def match(self, table: int = 0) -> str:
        made = self.operator.post("/operator/matches", json={
            "tableID": self.tables[table], "playerA": {"manualName": f"A {table}"},
            "playerB": {"manualName": f"B {table}"}, "bestOf": 1})
        assert made.status_code == 201, made.json
        return str(made.json["data"]["id"])


def make_courts(operator: Api) -> Courts:
    made = operator.post("/operator/broadcasts", json={"name": "Bodies", "tables": [{"label": "C1"}, {"label": "C2"}]})
    assert made.status_code == 201, made.json
    return Courts(operator, made.json["data"]["id"], [t["id"] for t in made.json["data"]["tables"]])


@pytest.fixture
def courts(operator: Api) -> Courts:
    return make_courts(operator)


def test_start_complete_call_start_next_and_enable_take_an_empty_json_body(courts: Courts) -> None:
    operator = courts.operator
    first = courts.match()
    started = operator.post(f"/operator/matches/{first}/start", **EMPTY)
    assert started.status_code == 200, started.json
    assert started.json["data"]["status"] == "active"
    undecided = operator.post(f"/operator/matches/{first}/complete", **EMPTY)  # as `{}`: no scores, 0-0
    assert (undecided.status_code, undecided.json["error"]["code"]) == (409, "match_undecided")
    second = courts.match(1)
    called = operator.post(f"/operator/matches/{second}/call", **EMPTY)
    assert called.status_code == 200 and called.json["data"]["calledOn"]
    taken = operator.post(f"/operator/tables/{courts.tables[1]}/start-next", **EMPTY)
    assert taken.status_code == 200 and taken.json["data"]["id"] == second
    enabled = operator.post(f"/operator/broadcasts/{courts.broadcast_id}/event-page/enable", **EMPTY)
    assert enabled.status_code == 200 and enabled.json["data"]["enabled"] is True


@pytest.mark.parametrize("route", ["start", "complete", "move", "call"])
def test_an_empty_json_body_answers_as_an_empty_object(operator: Api, route: str) -> None:
    """The route answers the empty body exactly as it answers `{}` (same status, same code), each on a fresh
    broadcast."""
    answers = []
    bodies: list[dict[str, Any]] = [EMPTY, {"json": {}}]
    for body in bodies:
        response = operator.post(f"/operator/matches/{make_courts(operator).match()}/{route}", **body)
        answers.append((response.status_code, (response.json.get("error") or {}).get("code")))
    assert answers[0] == answers[1]
    assert answers[0][1] != "bad_request"


def test_an_empty_json_body_on_a_route_with_required_fields_names_them(courts: Courts) -> None:
    response = courts.operator.post(f"/operator/matches/{courts.match()}/move", **EMPTY)
    assert response.status_code == 400, response.json
    assert response.json["error"]["code"] == "validation_failed"
    assert "tableID" in response.json["error"]["details"]["json"]


@pytest.mark.parametrize("route", ["start", "call", "move"])
@pytest.mark.parametrize("raw", [b" ", b"\n", b"{"])
def test_a_json_body_that_does_not_parse_stays_400_bad_request(courts: Courts, route: str, raw: bytes) -> None:
    response = courts.operator.post(f"/operator/matches/{courts.match()}/{route}", data=raw,
                                    content_type="application/json")
    assert response.status_code == 400, response.json
    assert response.json["error"]["code"] == "bad_request"
