"""The published order of play on the public event page (contract §20 "Published", §15): nothing while it is not
published; then Order of play per day and court with times, planned times in My matches, "Time changed" for a
move of more than 15 minutes, and how late each court runs. Names, courts and times only: no IDs."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from domain.clock import FixedClock
from tests.api.test_draws import create, draw_matches
from tests.api.test_event_page import ID_PATTERN
from tests.api.test_plan import DAY, grid, plan, settle, slots
from tests.conftest import Api

Json = dict[str, Any]
pytestmark = pytest.mark.parametrize("settings", [{"time_zone": "Europe/Berlin"}], indirect=True)


def page(operator: Api, app: Flask) -> tuple[str, list[str], Json, Any]:
    made = operator.post("/operator/broadcasts", json={"name": "Club day",
                                                       "tables": [{"label": "Court 1"}, {"label": "Court 2"}]})
    broadcast_id, courts = made.json["data"]["id"], [t["id"] for t in made.json["data"]["tables"]]
    knockout = create(operator, broadcast_id, "single_elimination", 4, name="Singles")
    settle(operator, broadcast_id, matchMinutes={"default": 30})
    plan(operator, broadcast_id)
    url = operator.post(f"/operator/broadcasts/{broadcast_id}/event-page/enable").json["data"]["url"]
    return broadcast_id, courts, knockout, (app.test_client(), "/event/" + url.rsplit("/event/", 1)[1])


def state(client: Any, path: str) -> Json:
    got = client.get(path + "/state")
    assert got.status_code == 200
    return dict(got.json["data"])


def mine(client: Any, path: str, name: str) -> Json:
    person = next(p for p in state(client, path)["people"] if p["name"] == name)
    got = client.get(f"{path}/people/{person['personID']}")
    assert got.status_code == 200
    return dict(got.json["data"])


def test_an_unpublished_plan_shows_nowhere_public(operator: Api, app: Flask) -> None:
    broadcast_id, courts, knockout, (client, path) = page(operator, app)
    shown = state(client, path)
    assert "orderOfPlay" not in shown and all("late" not in c for c in shown["courts"])
    assert "plannedOn" not in mine(client, path, "Player 1")["next"]
    assert 'id="order-tab" class="hidden"' in client.get(path).get_data(as_text=True)


def test_published_the_page_has_the_order_of_play_and_my_planned_times(operator: Api, app: Flask,
                                                                         clock: FixedClock) -> None:
    broadcast_id, courts, knockout, (client, path) = page(operator, app)
    settle(operator, broadcast_id, matchMinutes={"default": 30}, published=True)
    shown = state(client, path)
    order = shown["orderOfPlay"]
    assert [d["date"] for d in order] == [DAY["date"]]
    assert [c["label"] for c in order[0]["courts"]] == ["Court 1", "Court 2"]
    listed = [s for c in order[0]["courts"] for s in c["slots"]]
    assert len(listed) == 3 and {s["round"] for s in listed} == {"Semifinal", "Final"}
    final = next(s for s in listed if s["round"] == "Final")
    assert final["names"] == ["Winner of SF-1", "Winner of SF-2"] and final["plannedOn"] == "2026-11-21T11:30:00.000Z"
    assert not ID_PATTERN.search(str(order)) and "dm_" not in str(order)
    next_match = mine(client, path, "Player 1")["next"]
    assert next_match["plannedOn"] == "2026-11-21T11:00:00.000Z" and next_match["plannedCourt"] in ("Court 1",
                                                                                                    "Court 2")
    assert next_match["timeChanged"] is None
    assert 'id="order-tab" class="hidden"' not in client.get(path).get_data(as_text=True)
    # a move of 15 minutes is no change to tell; one of more is "Time changed"
    semi = next(dm for dm in draw_matches(knockout) if dm["status"] == "ready" and any(
        e["name"] == "Player 1" for e in knockout["entries"] if e["id"] in [s["entryID"] for s in dm["slots"]]))
    where = slots(grid(operator, broadcast_id))[semi["id"]]
    small = operator.post(f"/operator/matches/{semi['matchID']}/plan",
                          json={"tableID": where["tableID"], "plannedOn": "2026-11-21T11:15:00Z"})
    assert small.status_code == 200
    assert mine(client, path, "Player 1")["next"]["timeChanged"] is None
    big = operator.post(f"/operator/matches/{semi['matchID']}/plan",
                        json={"tableID": where["tableID"], "plannedOn": "2026-11-21T12:00:00Z"})
    assert big.status_code == 200
    changed = mine(client, path, "Player 1")["next"]
    assert changed["timeChanged"] == {"from": "2026-11-21T11:00:00.000Z", "to": "2026-11-21T12:00:00.000Z"}
    assert changed["plannedOn"] == "2026-11-21T12:00:00.000Z"
    # a court running late says so on the page: its match in play runs past its planned next (an empty court
    # is never late, issue 51)
    other = next(c for c in courts if c != where["tableID"])
    label = "Court 1" if other == courts[0] else "Court 2"
    friendly = operator.post("/operator/matches", json={
        "tableID": other, "playerA": {"manualName": "Zoe Ash"}, "playerB": {"manualName": "Yan Bo"}})
    clock.advance(50 * 60)  # 10:50 UTC: a friendly of 30 minutes starts, in play until 11:20
    assert operator.post(f"/operator/matches/{friendly.json['data']['id']}/start").status_code == 200
    late = {c["label"]: c["late"] for c in state(client, path)["courts"]}
    assert late[label] == f"{label}: 20 min late"
    assert late["Court 1" if label == "Court 2" else "Court 2"] is None
