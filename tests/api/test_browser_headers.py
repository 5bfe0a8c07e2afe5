"""Contract §8a, browser headers: `nosniff` on every response; HTML pages with a Content-Security-Policy whose
script-src has no 'unsafe-inline' (each inline script carries the response's nonce) and `Referrer-Policy:
no-referrer`; a scorer's refusal shows no internal ID."""

from __future__ import annotations

import re
from typing import Any

from flask import Flask

from tests.conftest import Api
from tests.responses import json_of


def _path(url: str) -> str:
    return "/" + url.split("/", 3)[3]


def pages(operator: Api) -> dict[str, str]:
    """One of each HTML page: output, venue display, scorer, sign-up, event page, docs UI, consent page."""
    broadcast = operator.post("/operator/broadcasts", json={"name": "Day", "tables": [{"label": "Court 1"}]})
    data = broadcast.json["data"]
    outputs = operator.get(f"/operator/broadcasts/{data['id']}/outputs").json["data"]
    scorer = operator.get(f"/operator/tables/{data['tables'][0]['id']}/scorer").json["data"]["url"]
    event = operator.post(f"/operator/broadcasts/{data['id']}/event-page/enable").json["data"]["url"]
    return {"output": _path(outputs[0]["url"]), "venue": _path(outputs[-1]["url"]), "scorer": _path(scorer),
            "event": _path(event), "docs": "/api/v1/docs"}


def test_every_response_says_nosniff(operator: Api, app: Flask) -> None:
    client = app.test_client()
    found = pages(operator)
    responses: list[Any] = [client.get("/api/v1/health"), client.get("/api/v1/nothing-here"),
                            operator.get("/operator/tables"), client.get("/api/v1/openapi.json")]
    responses += [client.get(path) for path in found.values()]
    state = client.get(found["output"] + "/state")
    responses += [state, client.get(found["output"] + "/state", headers={"If-None-Match": state.headers["ETag"]})]
    assert responses[-1].status_code == 304
    for response in responses:
        assert response.headers.get("X-Content-Type-Options") == "nosniff", response.request.path
        assert response.headers.get("Service-Request-ID")


def test_html_pages_allow_only_their_own_nonced_scripts(operator: Api, app: Flask) -> None:
    client = app.test_client()
    for name, path in pages(operator).items():
        response = client.get(path)
        assert response.status_code == 200 and response.mimetype == "text/html", name
        policy = response.headers["Content-Security-Policy"]
        script_src = re.search(r"script-src ([^;]*)", policy)
        assert script_src is not None and "unsafe-inline" not in script_src.group(1), (name, policy)
        assert response.headers["Referrer-Policy"] == "no-referrer", name
        html = response.get_data(as_text=True)
        nonces = re.findall(r"'nonce-([^']+)'", script_src.group(1))
        for tag in re.findall(r"<script\b[^>]*>", html):
            if "src=" in tag or 'type="application/json"' in tag:
                continue
            assert nonces and f'nonce="{nonces[0]}"' in tag, (name, tag)
        again = client.get(path).headers["Content-Security-Policy"]
        assert re.findall(r"'nonce-([^']+)'", again) != nonces or not nonces  # a fresh nonce each time


def test_a_scorers_refusal_shows_no_internal_id(operator: Api, app: Flask) -> None:
    broadcast = operator.post("/operator/broadcasts", json={"name": "Day", "tables": [{"label": "Court 1"}]})
    table = broadcast.json["data"]["tables"][0]["id"]
    made = operator.post("/operator/matches", json={"tableID": table, "playerA": {"manualName": "Ann"},
                                                    "playerB": {"manualName": "Bo"}})
    assert operator.post(f"/operator/matches/{made.json['data']['id']}/start").status_code == 200
    path = _path(operator.get(f"/operator/tables/{table}/scorer").json["data"]["url"])
    phone = app.test_client()
    live = json_of(phone.get(path + "/state"))["data"]
    operator.post("/operator/matches", json={"tableID": table, "playerA": {"manualName": "Cy"},
                                             "playerB": {"manualName": "Di"}})
    refused = phone.post(path + "/start-next", json={"version": json_of(phone.get(path + "/state"))["data"]["version"]})
    assert refused.status_code == 409 and json_of(refused)["error"]["code"] == "table_busy"
    text = refused.get_data(as_text=True)
    assert not re.search(r"\b(tbl|mat|brd|op|sm)_[A-Za-z0-9]", text), text
    assert live["match"] is not None
