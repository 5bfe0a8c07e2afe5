"""The one person rule on the pages (issue 36): the scorer page, the output pages and the event page join a
side's names as every read does, through the server's `side` filter and the `side_join` it hands the scripts;
no template or script writes the join itself (tests/test_architecture.py greps for that)."""

from __future__ import annotations

import json

from flask import Flask

from domain.names import SIDE_JOIN
from tests.api.test_outputs import outputs, path_of
from tests.api.test_scorer_links import scorer_path
from tests.conftest import Api

SCRIPT_JOIN = f"var SIDE_JOIN = {json.dumps(SIDE_JOIN)};"


def doubles_court(operator: Api) -> tuple[str, str]:
    made = operator.post("/operator/broadcasts", json={"name": "Club Open", "tables": [{"label": "Court 1"}]})
    assert made.status_code == 201, made.json
    broadcast_id, table_id = made.json["data"]["id"], made.json["data"]["tables"][0]["id"]
    queued = operator.post("/operator/matches", json={
        "tableID": table_id, "isDoubles": True, "playerA": {"manualName": "Ann Lee"},
        "playerA2": {"manualName": "Cy Day"}, "playerB": {"manualName": "Bo Kim"},
        "playerB2": {"manualName": "Di Fox"}})
    assert queued.status_code == 201, queued.json
    return broadcast_id, table_id


def test_the_scorer_page_joins_each_side_by_the_rule(operator: Api, app: Flask) -> None:
    _, table_id = doubles_court(operator)
    html = app.test_client().get(scorer_path(operator, table_id)).get_data(as_text=True)
    assert "Up next: Ann Lee / Cy Day vs Bo Kim / Di Fox" in html
    started = operator.post(f"/operator/tables/{table_id}/start-next")
    assert started.status_code == 200, started.json
    html = app.test_client().get(scorer_path(operator, table_id)).get_data(as_text=True)
    assert '<div class="who" id="who-a">Ann Lee / Cy Day</div>' in html
    assert '<button id="retire-b">Bo Kim / Di Fox wins</button>' in html
    assert SCRIPT_JOIN in html  # what the page's script joins the sides of the states it polls with


def test_the_output_and_event_pages_hand_their_scripts_the_rules_join(operator: Api, app: Flask) -> None:
    broadcast_id, _ = doubles_court(operator)
    client = app.test_client()
    for output in outputs(operator, broadcast_id):
        page = client.get(path_of(output))
        assert page.status_code == 200 and SCRIPT_JOIN in page.get_data(as_text=True), output["kind"]
    enabled = operator.post(f"/operator/broadcasts/{broadcast_id}/event-page/enable")
    assert enabled.status_code == 200, enabled.json
    page = client.get("/event/" + enabled.json["data"]["url"].rsplit("/event/", 1)[1])
    assert page.status_code == 200 and f'<body data-side-join="{SIDE_JOIN}">' in page.get_data(as_text=True)
    script = client.get("/event/assets/event.js").get_data(as_text=True)
    assert 'getAttribute("data-side-join")' in script and "names.join(SIDE_JOIN)" in script
