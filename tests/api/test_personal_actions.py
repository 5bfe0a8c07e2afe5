"""Contract §21: what a player does through their own link. Self check-in (on and off), recorded with the
`player` actor; reports, confirmations and disputes follow in this file."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from tests.api.test_personal_links import Day
from tests.conftest import Api


@pytest.fixture
def day(operator: Api, app: Flask) -> Day:
    response = operator.post("/operator/broadcasts", json={
        "name": "Club Day", "tables": [{"label": "Court 1"}, {"label": "Court 3"}]})
    assert response.status_code == 201, response.json
    return Day(operator, app.test_client(), response.json["data"])


def event_day(day: Day, **settings: Any) -> None:
    response = day.operator.patch(f"/operator/broadcasts/{day.id}", json={"eventDay": settings})
    assert response.status_code == 200, response.json


def test_self_check_in_off_is_refused_and_changes_nothing(day: Day) -> None:
    day.match("Ann Lee", "Bo Kim")
    url = day.link("Ann Lee")["url"]
    before = day.operator.get("/operator/audit").json["data"][0]["seq"]
    refused = day.client.post(day.path(url) + "/check-in")
    assert refused.status_code == 409 and refused.json["error"]["code"] == "self_check_in_off"
    assert day.data(url)["person"]["checkedIn"] is False
    assert day.operator.get("/operator/audit").json["data"][0]["seq"] == before


def test_self_check_in_checks_the_person_in_as_the_player(day: Day) -> None:
    day.match("Ann Lee", "Bo Kim")
    event_day(day, selfCheckIn=True, requireCheckIn=True)
    url = day.link("Ann Lee")["url"]
    assert day.data(url)["selfCheckIn"] is True
    answer = day.client.post(day.path(url) + "/check-in")
    assert answer.status_code == 200, answer.json
    assert answer.json["data"]["person"]["checkedIn"] is True
    assert answer.json["data"]["version"] == day.state(url).headers["ETag"].strip('"')
    rows = {p["name"]: p for p in day.operator.get(f"/operator/broadcasts/{day.id}/people").json["data"]}
    assert rows["Ann Lee"]["checkedIn"] is True and rows["Bo Kim"]["checkedIn"] is False
    entry = day.operator.get("/operator/audit").json["data"][0]
    assert entry["action"] == "person.checked_in"
    assert entry["actor"] == {"kind": "player", "id": day.person("Ann Lee")}
    assert entry["target"] == {"type": "person", "id": day.person("Ann Lee")}
    players = day.operator.get("/operator/audit", query_string={"actorKind": "player"}).json["data"]
    assert [e["seq"] for e in players] == [entry["seq"]]
    again = day.client.post(day.path(url) + "/check-in")  # once in, a second tap changes nothing
    assert again.status_code == 200
    assert day.operator.get("/operator/audit").json["data"][0]["seq"] == entry["seq"]
