"""Contract §9a, schedules carry times: an import row's `scheduledOn`, or its `time` (HH:MM on the broadcast's day in
the event's time zone, `COURTSIDE_TIME_ZONE`), is kept as the match's `notBefore`; start and start-next do not start
it earlier (§14), the board's estimates do not promise it earlier and the output pages show it."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from domain.clock import FixedClock
from domain.settings import Settings, SettingsError
from tests.api.test_outputs import outputs, state
from tests.api.test_scorer_links import scorer_path
from tests.api.test_self_registration import submit
from tests.conftest import Api
from tests.responses import json_of

BERLIN = pytest.mark.parametrize("settings", [{"time_zone": "Europe/Berlin"}], indirect=True)


@pytest.fixture
def broadcast(operator: Api) -> dict[str, Any]:
    response = operator.post("/operator/broadcasts", json={
        "name": "Club Open", "tables": [{"label": "Court 1"}, {"label": "Court 2"}]})
    assert response.status_code == 201, response.json
    return dict(response.json["data"])


def import_rows(operator: Api, broadcast: dict[str, Any], rows: list[dict[str, Any]], **body: Any) -> Any:
    return operator.post("/operator/matches/import", json={"broadcastID": broadcast["id"], "rows": rows,
                                                           "dryRun": False} | body)


def queue(operator: Api, broadcast: dict[str, Any], court: int = 0) -> list[dict[str, Any]]:
    tables = operator.get("/operator/tables?limit=100").json["data"]
    return list(next(t for t in tables if t["id"] == broadcast["tables"][court]["id"])["queue"])


def row(a: str, b: str, **extra: Any) -> dict[str, Any]:
    return {"court": "Court 1", "playerA": a, "playerB": b} | extra


# ------------------------------------------------------------------------------------------------ the time column
@BERLIN
def test_a_time_is_placed_on_the_given_day_in_the_event_time_zone(operator: Api, broadcast: dict[str, Any]) -> None:
    response = import_rows(operator, broadcast, [row("Ann Lee", "Bo Chen", time="14:00"),
                                                 row("Cy Diaz", "Di Evans", time="9:30")], day="2026-11-22")
    assert response.status_code == 200, response.json
    read = [r["data"] for r in response.json["data"]["results"]]
    # Berlin is UTC+1 in November: 14:00 there is 13:00Z
    assert [m["notBefore"] for m in read] == ["2026-11-22T13:00:00.000Z", "2026-11-22T08:30:00.000Z"]
    assert [m["startTime"] for m in read] == ["2026-11-22T13:00:00.000Z", "2026-11-22T08:30:00.000Z"]
    assert [m["notBefore"] for m in queue(operator, broadcast)] == ["2026-11-22T13:00:00.000Z",
                                                                    "2026-11-22T08:30:00.000Z"]


@BERLIN
def test_without_a_day_a_time_falls_on_today_in_the_event_time_zone(
        operator: Api, broadcast: dict[str, Any], clock: FixedClock) -> None:
    clock.advance(seconds=13 * 3600 + 30 * 60)  # 2026-11-21T23:30Z: already the 22nd in Berlin
    response = import_rows(operator, broadcast, [row("Ann Lee", "Bo Chen", time="10:00:00")])
    assert response.status_code == 200, response.json
    assert response.json["data"]["results"][0]["data"]["notBefore"] == "2026-11-22T09:00:00.000Z"


@pytest.mark.parametrize("settings", [{"time_zone": "UTC"}], indirect=True)
def test_a_dry_run_shows_the_time_and_queues_nothing(operator: Api, broadcast: dict[str, Any]) -> None:
    response = import_rows(operator, broadcast, [row("Ann Lee", "Bo Chen", time="14:00")], dryRun=True)
    assert response.status_code == 200
    assert response.json["data"]["results"][0]["data"]["notBefore"] == "2026-11-21T14:00:00.000Z"
    assert response.json["data"]["queued"] == 0 and queue(operator, broadcast) == []


@pytest.mark.parametrize("time", ["25:00", "14h", "14:60", "", "14:00\n", "14:00x"])
def test_a_time_that_is_not_a_time_of_day_is_400(operator: Api, broadcast: dict[str, Any], time: str) -> None:
    response = import_rows(operator, broadcast, [row("Ann Lee", "Bo Chen", time=time)])
    assert response.status_code == 400
    assert response.json["error"]["code"] == "validation_failed"
    assert "time" in response.json["error"]["details"]["json"]["rows"]["0"]
    assert queue(operator, broadcast) == []


def test_time_and_scheduled_on_together_are_400(operator: Api, broadcast: dict[str, Any]) -> None:
    response = import_rows(operator, broadcast, [row("Ann Lee", "Bo Chen", time="14:00",
                                                     scheduledOn="2026-11-21T14:00:00Z")])
    assert response.status_code == 400
    assert response.json["error"]["details"]["json"]["rows"]["0"]["time"] == ["Give scheduledOn or time, not both."]


def test_a_day_that_is_not_a_date_is_400(operator: Api, broadcast: dict[str, Any]) -> None:
    response = import_rows(operator, broadcast, [row("Ann Lee", "Bo Chen", time="14:00")], day="22.11.2026")
    assert response.status_code == 400
    assert "day" in response.json["error"]["details"]["json"]


def test_an_unknown_time_zone_is_refused_at_start_with_its_variable() -> None:
    with pytest.raises(SettingsError, match="COURTSIDE_TIME_ZONE"):
        Settings.from_env({"COURTSIDE_TIME_ZONE": "Mars/Olympus"})
    assert Settings.from_env({"COURTSIDE_TIME_ZONE": "Europe/Berlin"}).time_zone == "Europe/Berlin"


# ------------------------------------------------------------------------------------------------ start-next
@pytest.mark.parametrize("settings", [{"time_zone": "UTC"}], indirect=True)
def test_start_next_skips_a_match_before_its_time_and_starts_it_at_its_time(
        operator: Api, broadcast: dict[str, Any], clock: FixedClock) -> None:
    assert import_rows(operator, broadcast, [row("Ann Lee", "Bo Chen", time="14:00")]).status_code == 200
    table = broadcast["tables"][0]["id"]
    [waiting] = queue(operator, broadcast)
    assert waiting["blockedBy"] == {"reason": "not_before", "players": ["Ann Lee", "Bo Chen"],
                                    "until": "2026-11-21T14:00:00.000Z"}
    refused = operator.post(f"/operator/tables/{table}/start-next")
    assert refused.status_code == 409 and refused.json["error"]["code"] == "nothing_startable"
    assert refused.json["error"]["details"]["skipped"] == [
        {"matchID": waiting["id"], "reason": "not_before", "players": ["Ann Lee", "Bo Chen"],
         "until": "2026-11-21T14:00:00.000Z"}]
    clock.advance(seconds=4 * 3600 - 1)  # 13:59:59
    assert operator.post(f"/operator/tables/{table}/start-next").status_code == 409
    clock.advance(seconds=1)  # 14:00
    started = operator.post(f"/operator/tables/{table}/start-next")
    assert started.status_code == 200, started.json
    assert started.json["data"]["id"] == waiting["id"] and started.json["data"]["startedOn"] == \
        "2026-11-21T14:00:00.000Z"


@pytest.mark.parametrize("settings", [{"time_zone": "UTC"}], indirect=True)
def test_start_next_starts_an_untimed_match_behind_a_timed_one(operator: Api, broadcast: dict[str, Any]) -> None:
    assert import_rows(operator, broadcast, [row("Ann Lee", "Bo Chen", time="14:00"),
                                             row("Cy Diaz", "Di Evans")]).status_code == 200
    started = operator.post(f"/operator/tables/{broadcast['tables'][0]['id']}/start-next")
    assert started.status_code == 200 and started.json["data"]["playerA"] == "Cy Diaz"


# ------------------------------------------------------------------------------------------------ board, outputs
@pytest.mark.parametrize("settings", [{"time_zone": "UTC", "default_match_minutes": 20}], indirect=True)
def test_estimates_do_not_promise_a_match_before_its_time(operator: Api, broadcast: dict[str, Any]) -> None:
    assert import_rows(operator, broadcast, [row("Ann Lee", "Bo Chen"), row("Cy Diaz", "Di Evans", time="14:00"),
                                             row("Ed Fox", "Flo Gu")]).status_code == 200
    # now 10:00: the first at once, the third after it (start-next skips the second until 14:00), the second at 14:00
    assert [m["estimatedStartOn"] for m in queue(operator, broadcast)] == [
        "2026-11-21T10:00:00.000Z", "2026-11-21T14:00:00.000Z", "2026-11-21T10:20:00.000Z"]


@pytest.mark.parametrize("settings", [{"time_zone": "UTC", "default_match_minutes": 20}], indirect=True)
def test_a_timed_match_waits_for_the_court_when_the_matches_before_it_run_past_its_time(
        operator: Api, broadcast: dict[str, Any]) -> None:
    rows = [row(f"A{n} X", f"B{n} Y") for n in range(3)] + [row("Cy Diaz", "Di Evans", time="10:30")]
    assert import_rows(operator, broadcast, rows).status_code == 200
    assert [m["estimatedStartOn"][11:16] for m in queue(operator, broadcast)] == ["10:00", "10:20", "10:40", "11:00"]


@pytest.mark.parametrize("settings", [{"time_zone": "UTC"}], indirect=True)
def test_output_pages_show_the_time(operator: Api, broadcast: dict[str, Any], app: Flask) -> None:
    assert import_rows(operator, broadcast, [row("Ann Lee", "Bo Chen", time="14:00")]).status_code == 200
    venue = next(o for o in outputs(operator, broadcast["id"]) if o["kind"] == "venue")
    feed = state(app.test_client(), venue)
    assert feed.status_code == 200
    [up_next] = feed.json["courts"][0]["upNext"]
    assert up_next["notBefore"] == "2026-11-21T14:00:00.000Z"
    assert up_next["estimatedStartOn"] == "2026-11-21T14:00:00.000Z"


# ------------------------------------------------------------------------------------------------ the club's players
def test_imported_and_signed_up_players_are_the_lists_players_in_a_schedule(
        operator: Api, broadcast: dict[str, Any], app: Flask) -> None:
    """A player the club imports or who signs up gets its `id` as `externalID`, so a schedule naming them refers to
    the list's player (club, country, check-in as one person), not to a typed name (contract §9a)."""
    roster = operator.post("/operator/rosters", json={"broadcastID": broadcast["id"], "name": "Entries",
                                                      "type": "individual", "selfRegistrationEnabled": True})
    assert roster.status_code == 201, roster.json
    list_id = roster.json["data"]["source"]["playerListID"]
    imported = operator.post(f"/operator/player-lists/{list_id}/players/import", json={
        "rows": [{"firstName": "Ann", "lastName": "Lee", "clubName": "Riverside"}], "dryRun": False})
    assert imported.status_code == 200, imported.json
    [ann] = [r["data"] for r in imported.json["data"]["results"]]
    assert ann["externalID"] == ann["id"] and ann["id"].startswith("ply_")
    path = "/" + operator.get(f"/operator/rosters/{roster.json['data']['id']}/registration").json["data"]["url"] \
        .split("/", 3)[3]
    assert submit(app.test_client(), path, firstName="Mima", lastName="Ito").status_code == 201
    response = import_rows(operator, broadcast, [row("ann lee", "Mima  Ito"), row("Walk In", "Ann Lee")])
    assert response.status_code == 200, response.json
    players = {p["firstName"]: p for p in operator.get("/operator/player-lists").json["data"][0]["players"]}
    assert players["Mima"]["source"] == "self" and players["Mima"]["externalID"] == players["Mima"]["id"]
    first, second = (r["data"] for r in response.json["data"]["results"])
    assert first["participants"] == {"playerA": {"externalID": ann["id"]},
                                     "playerB": {"externalID": players["Mima"]["externalID"]}}
    assert (first["playerA"], first["playerB"]) == ("Ann Lee", "Mima Ito")
    assert second["participants"]["playerA"] == {"manualName": "Walk In"}


@BERLIN
def test_the_scorer_page_shows_when_the_next_match_may_start(operator: Api, broadcast: dict[str, Any],
                                                             app: Flask) -> None:
    assert import_rows(operator, broadcast, [row("Ann Lee", "Bo Chen", time="14:00")]).status_code == 200
    phone = app.test_client()
    path = scorer_path(operator, broadcast["tables"][0]["id"])
    html = phone.get(path).get_data(as_text=True)
    assert "Up next: Ann Lee vs Bo Chen · not before 14:00" in html  # in the event's zone, before any script
    assert json_of(phone.get(path + "/state"))["data"]["upNext"][0]["notBefore"] == "2026-11-21T13:00:00.000Z"


def test_the_operator_removes_a_sign_up_and_the_roster_counts_one_less(operator: Api, app: Flask) -> None:
    roster = operator.post("/operator/rosters", json={"name": "Entries", "type": "individual",
                                                      "selfRegistrationEnabled": True}).json["data"]
    url = operator.get(f"/operator/rosters/{roster['id']}/registration").json["data"]["url"]
    assert submit(app.test_client(), "/" + url.split("/", 3)[3], firstName="Mickey", lastName="Mouse"
                  ).status_code == 201
    list_id = roster["source"]["playerListID"]
    [prank] = operator.get("/operator/player-lists").json["data"][0]["players"]
    removed = operator.delete(f"/operator/player-lists/{list_id}/players/{prank['id']}")
    assert removed.status_code == 200 and removed.json["data"]["players"] == []
    assert operator.get("/operator/rosters").json["data"][0]["playerCount"] == 0
    again = operator.delete(f"/operator/player-lists/{list_id}/players/{prank['id']}")
    assert again.status_code == 404 and again.json["error"]["code"] == "not_found"


@BERLIN
def test_a_time_on_a_day_out_of_range_is_that_rows_error(operator: Api, broadcast: dict[str, Any]) -> None:
    response = import_rows(operator, broadcast, [row("Ann Lee", "Bo Chen", time="00:30")], day="0001-01-01")
    assert response.status_code == 207
    assert response.json["data"]["results"][0]["error"]["details"] == {"time": ["Out of range."]}
    assert queue(operator, broadcast) == []


def test_the_document_says_a_row_gives_scheduled_on_or_time_not_both(operator: Api) -> None:
    document = operator.get("/openapi.json").json
    row = document["components"]["schemas"]["ScheduleRow"]
    assert row["not"] == {"required": ["scheduledOn", "time"]}
    assert row["properties"]["time"]["pattern"]
