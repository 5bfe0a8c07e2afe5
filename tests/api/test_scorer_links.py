"""Court scorer links (contract §11): operator list/rotate/revoke, the phone page's actions through the domain
services (events too), one writer per state version (409 stale_state), scope to one table, rate limit."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from domain.clock import FixedClock
from tests.api.resources_support import make_broadcast, player, sync_list
from tests.conftest import Api
from tests.responses import json_of


@pytest.fixture
def phone(app: Flask) -> FlaskClient:
    """An anonymous phone: scorer pages need no credential."""
    return app.test_client()


def scorer_path(operator: Api, table_id: str) -> str:
    response = operator.get(f"/operator/tables/{table_id}/scorer")
    assert response.status_code == 200, response.json
    return "/" + str(json_of(response)["data"]["url"]).split("/", 3)[3]


@pytest.fixture
def courts(partner: Api) -> list[str]:
    broadcast = make_broadcast(partner, 2)
    sync_list(partner, players=[player(f"p{i}") for i in range(1, 7)])
    ids = [t["id"] for t in broadcast["tables"]]
    for external_id, table_id in (("m1", ids[0]), ("m2", ids[0]), ("m3", ids[1])):
        body = {"externalID": external_id, "tableID": table_id, "playerListExternalID": "list-1", "bestOf": 3,
                "playerA": {"externalID": f"p{int(external_id[1]) * 2 - 1}"},
                "playerB": {"externalID": f"p{int(external_id[1]) * 2}"}}
        assert partner.put("/matches", json=body).status_code == 200
    return ids


def state(phone: FlaskClient, path: str) -> dict[str, Any]:
    response = phone.get(path + "/state")
    assert response.status_code == 200, response.get_data(as_text=True)
    data: dict[str, Any] = json_of(response)["data"]
    return data


def act(phone: FlaskClient, path: str, action: str, version: str, **body: Any) -> Any:
    return phone.post(f"{path}/{action}", json={"version": version, **body})


def point(phone: FlaskClient, path: str, side: str) -> dict[str, Any]:
    response = act(phone, path, "point", state(phone, path)["version"], side=side)
    assert response.status_code == 200, response.json
    data: dict[str, Any] = response.json["data"]
    return data


def test_every_table_has_a_scorer_link_listed_for_the_operator(operator: Api, courts: list[str]) -> None:
    read = operator.get(f"/operator/tables/{courts[0]}/scorer").json["data"]
    assert list(read) == ["tableID", "tableLabel", "url", "createdOn"]
    assert read["tableID"] == courts[0] and read["tableLabel"] == "Court 1"
    assert read["url"].startswith("http://localhost/score/scr_") and len(read["url"].split("/score/scr_")[1]) >= 32
    assert operator.get(f"/operator/tables/{courts[0]}/scorer").json["data"] == read  # stable across reads
    assert operator.get(f"/operator/tables/{courts[1]}/scorer").json["data"]["url"] != read["url"]
    assert operator.get("/operator/tables/tbl_nope/scorer").status_code == 404


def test_the_page_arrives_with_label_and_state_in_its_html(operator: Api, phone: FlaskClient,
                                                           courts: list[str]) -> None:
    path = scorer_path(operator, courts[0])
    page = phone.get(path)
    assert page.status_code == 200 and page.mimetype == "text/html"
    html = page.get_data(as_text=True)
    assert "Court 1" in html and "Up next: First p1 Last vs First p2 Last" in html
    assert page.headers["Cache-Control"] == "no-store" and page.headers["Referrer-Policy"] == "no-referrer"


def test_a_whole_match_is_scored_from_the_phone_and_the_partner_reads_the_result(
        operator: Api, partner: Api, phone: FlaskClient, courts: list[str]) -> None:
    path = scorer_path(operator, courts[0])
    started = act(phone, path, "start-next", state(phone, path)["version"])
    assert started.status_code == 200, started.json
    assert started.json["data"]["match"]["status"] == "active"
    assert started.json["data"]["match"]["sides"][0]["names"] == ["First p1 Last"]
    for _ in range(11):
        point(phone, path, "a")
    after_game = point(phone, path, "b")
    assert after_game["match"]["games"] == [{"a": 11, "b": 0}, {"a": 0, "b": 1}]
    undone = act(phone, path, "undo", after_game["version"])
    assert undone.status_code == 200 and undone.json["data"]["match"]["games"] == [{"a": 11, "b": 0}]
    assert undone.json["data"]["match"]["currentGame"] is None
    early = act(phone, path, "complete", undone.json["data"]["version"])
    assert early.status_code == 409 and early.json["error"]["code"] == "match_undecided"
    for _ in range(11):
        last = point(phone, path, "a")
    assert last["match"]["decided"] is True and last["match"]["sides"][0]["games"] == 2
    refused = act(phone, path, "point", last["version"], side="b")
    assert refused.status_code == 409 and refused.json["error"]["code"] == "match_decided"
    done = act(phone, path, "complete", last["version"])
    assert done.status_code == 200 and done.json["data"]["match"] is None
    assert done.json["data"]["upNext"][0]["sides"][0]["names"] == ["First p3 Last"]
    [match] = [m for m in partner.get("/matches").json["data"] if m["externalID"] == "m1"]
    assert match["status"] == "completed"
    assert match["gameScores"] == [{"a": 11, "b": 0}, {"a": 11, "b": 0}]




def test_two_phones_one_stale_the_second_write_is_refused_and_nothing_counts_twice(
        operator: Api, phone: FlaskClient, app: Flask, courts: list[str]) -> None:
    path = scorer_path(operator, courts[0])
    other = app.test_client()
    act(phone, path, "start-next", state(phone, path)["version"])
    seen = state(other, path)["version"]
    assert point(phone, path, "a")["match"]["currentGame"] == {"a": 1, "b": 0}
    stale = act(other, path, "point", seen, side="a")
    assert stale.status_code == 409 and stale.json["error"]["code"] == "stale_state"
    retry = act(phone, path, "point", seen, side="a")  # a phone retrying after the network dropped
    assert retry.status_code == 409 and retry.json["error"]["code"] == "stale_state"
    assert state(other, path)["match"]["currentGame"] == {"a": 1, "b": 0}


def test_an_operator_change_makes_the_phone_state_stale(operator: Api, phone: FlaskClient, courts: list[str]) -> None:
    path = scorer_path(operator, courts[0])
    started = act(phone, path, "start-next", state(phone, path)["version"]).json["data"]
    match_id = operator.get(f"/operator/matches?tableID={courts[0]}&status=active").json["data"][0]["id"]
    assert operator.post(f"/operator/matches/{match_id}/score",
                         json={"gameScores": [{"a": 3, "b": 2}]}).status_code == 200
    stale = act(phone, path, "point", started["version"], side="b")
    assert stale.status_code == 409 and stale.json["error"]["code"] == "stale_state"
    assert state(phone, path)["match"]["currentGame"] == {"a": 3, "b": 2}


def test_undo_takes_back_only_points_of_this_link(operator: Api, phone: FlaskClient, courts: list[str]) -> None:
    path = scorer_path(operator, courts[0])
    started = act(phone, path, "start-next", state(phone, path)["version"]).json["data"]
    nothing = act(phone, path, "undo", started["version"])
    assert nothing.status_code == 409 and nothing.json["error"]["code"] == "nothing_to_undo"
    point(phone, path, "b")
    back = act(phone, path, "undo", state(phone, path)["version"])
    assert back.status_code == 200 and back.json["data"]["match"]["games"] == []
    assert back.json["data"]["match"]["canUndo"] is False


def test_a_link_of_table_1_never_reaches_table_2(operator: Api, phone: FlaskClient, courts: list[str]) -> None:
    first, second = scorer_path(operator, courts[0]), scorer_path(operator, courts[1])
    act(phone, second, "start-next", state(phone, second)["version"])
    point(phone, second, "a")
    one = state(phone, first)
    assert one["court"]["label"] == "Court 1" and one["match"] is None
    act(phone, first, "start-next", one["version"])
    point(phone, first, "b")
    assert state(phone, second)["match"]["currentGame"] == {"a": 1, "b": 0}
    assert state(phone, first)["match"]["sides"][0]["names"] == ["First p1 Last"]
    body = phone.get(first + "/state").get_data(as_text=True)
    for secret in ("tbl_", "mat_", "scr_", "externalID", "p1\"", "acct"):
        assert secret not in body


def test_rotated_and_revoked_links_answer_404_at_once(operator: Api, phone: FlaskClient, courts: list[str]) -> None:
    old = scorer_path(operator, courts[0])
    rotated = operator.post(f"/operator/tables/{courts[0]}/scorer/rotate")
    assert rotated.status_code == 200
    new = "/" + rotated.json["data"]["url"].split("/", 3)[3]
    assert new != old
    assert phone.get(old).status_code == 404 and phone.get(old + "/state").status_code == 404
    assert act(phone, old, "start-next", "x").status_code == 404
    assert phone.get(new + "/state").status_code == 200
    revoked = operator.delete(f"/operator/tables/{courts[0]}/scorer")
    assert revoked.status_code == 200 and revoked.json["data"]["url"] is None
    assert operator.get(f"/operator/tables/{courts[0]}/scorer").json["data"]["url"] is None
    assert phone.get(new).status_code == 404 and json_of(phone.get(new + "/state"))["error"]["code"] == "not_found"
    again = operator.post(f"/operator/tables/{courts[0]}/scorer/rotate").json["data"]["url"]
    assert again is not None and phone.get("/" + again.split("/", 3)[3]).status_code == 200


def test_unknown_keys_and_another_accounts_tables_are_404(operator: Api, phone: FlaskClient,
                                                          courts: list[str]) -> None:
    path = scorer_path(operator, courts[0])
    assert phone.get(path[:-1] + ("A" if path[-1] != "A" else "B")).status_code == 404
    assert phone.get("/score/out_" + path.split("/score/scr_")[1]).status_code == 404
    assert phone.get("/score/scr_").status_code == 404


@pytest.mark.parametrize("settings", [{"scorer_rate_limit": 3}], indirect=True)
def test_actions_are_rate_limited_per_link(operator: Api, phone: FlaskClient, courts: list[str]) -> None:
    first, second = scorer_path(operator, courts[0]), scorer_path(operator, courts[1])
    codes = [act(phone, first, "undo", "v").status_code for _ in range(4)]
    assert codes[:3] == [409, 409, 409] and codes[3] == 429
    limited = act(phone, first, "undo", "v")
    assert limited.json["error"]["code"] == "rate_limited" and int(limited.headers["Retry-After"]) > 0
    assert act(phone, second, "undo", "v").status_code == 409  # another link has its own budget


def test_actions_check_their_body(operator: Api, phone: FlaskClient, courts: list[str]) -> None:
    path = scorer_path(operator, courts[0])
    missing = phone.post(path + "/point", json={"side": "a"})
    assert missing.status_code == 400 and json_of(missing)["error"]["details"]["json"]["version"]
    act(phone, path, "start-next", state(phone, path)["version"])
    wrong = act(phone, path, "point", state(phone, path)["version"], side="c")
    assert wrong.status_code == 400 and wrong.json["error"]["code"] == "validation_failed"
    assert state(phone, path)["match"]["games"] == []


@pytest.mark.parametrize(("action", "body", "field"), [
    ("point", {"side": "c"}, "side"),
    ("point", {}, "side"),
    ("point", {"side": "a", "opID": "op-1\n"}, "opID"),
    ("point", {"side": "a", "opID": ""}, "opID"),
    ("undo", {"opID": 7}, "opID"),
    ("retire", {"winnerSide": "x"}, "winnerSide"),
    ("retire", {"side": "a"}, "winnerSide"),
    ("complete", {"version": 3}, "version"),
    ("start-next", {"version": ""}, "version"),
])
def test_a_scorer_action_with_a_bad_field_is_400_naming_it_and_changes_nothing(
        operator: Api, phone: FlaskClient, courts: list[str], action: str, body: dict[str, Any], field: str) -> None:
    """Each action's body is read as one typed command before anything runs: 400 `validation_failed` naming the
    field, the court's state as it was."""
    path = scorer_path(operator, courts[0])
    assert act(phone, path, "start-next", state(phone, path)["version"]).status_code == 200
    before = state(phone, path)
    refused = phone.post(f"{path}/{action}", json={"version": before["version"], **body})
    assert refused.status_code == 400, refused.json
    error = json_of(refused)["error"]
    assert error["code"] == "validation_failed" and list(error["details"]["json"]) == [field]
    assert state(phone, path) == before


@pytest.mark.parametrize("body", [[], "point", 5])
def test_a_scorer_action_whose_body_is_not_an_object_is_400(operator: Api, phone: FlaskClient, courts: list[str],
                                                          body: Any) -> None:
    path = scorer_path(operator, courts[0])
    refused = phone.post(path + "/start-next", json=body)
    assert refused.status_code == 400 and json_of(refused)["error"]["code"] == "validation_failed"


def test_a_scorer_action_ignores_keys_the_page_may_add(operator: Api, phone: FlaskClient, courts: list[str]) -> None:
    """The scorer page's body is ours, not a partner's: a key it adds later does not break older servers."""
    path = scorer_path(operator, courts[0])
    assert act(phone, path, "start-next", state(phone, path)["version"], queuedAt="12:00").status_code == 200
    scored = act(phone, path, "point", state(phone, path)["version"], side="b", opID="tap-1", tappedAt=1)
    assert scored.status_code == 200 and scored.json["data"]["match"]["games"] == [{"a": 0, "b": 1}]


@pytest.mark.parametrize("settings", [{"public_url": "http://192.168.1.20:8000"}], indirect=True)
def test_links_use_the_address_phones_reach(operator: Api, partner: Api, courts: list[str]) -> None:
    url = operator.get(f"/operator/tables/{courts[0]}/scorer").json["data"]["url"]
    assert url.startswith("http://192.168.1.20:8000/score/scr_")


def test_up_on_every_interface_gives_phone_links_the_network_address() -> None:
    from cli.serve import lan_address, phone_settings
    from domain.settings import Settings

    assert phone_settings(Settings(host="127.0.0.1"), 8000).public_url is None
    assert phone_settings(Settings(host="0.0.0.0"), 8000).public_url == f"http://{lan_address()}:8000"
    given = Settings(host="0.0.0.0", public_url="http://courts.local:8000")
    assert phone_settings(given, 8000).public_url == "http://courts.local:8000"


def test_phone_actions_raise_the_same_events_as_the_operator_routes(operator: Api, partner: Api, phone: FlaskClient,
                                                                     courts: list[str]) -> None:
    assert partner.patch("/webhooks/configuration", json={"url": "https://hooks.example.com/c"}).status_code == 200
    path = scorer_path(operator, courts[0])
    act(phone, path, "start-next", state(phone, path)["version"])
    for _ in range(11):
        point(phone, path, "a")
    undone = act(phone, path, "undo", state(phone, path)["version"])
    assert undone.status_code == 200
    for _ in range(12):
        point(phone, path, "a")
    assert act(phone, path, "complete", state(phone, path)["version"]).status_code == 200
    kinds = [d["eventType"] for d in reversed(operator.get("/operator/webhooks?limit=100").json["data"])]
    assert kinds == ["match.started"] + ["match.score_updated"] * (11 + 1 + 12) + ["match.completed"]


def board_court(operator: Api, table_id: str) -> dict[str, Any]:
    courts = operator.get("/operator/tables?limit=100")
    assert courts.status_code == 200, courts.json
    return dict(next(court for court in courts.json["data"] if court["id"] == table_id))


def test_two_phones_scoring_one_court_are_two_devices_scoring_for_sixty_seconds(
        operator: Api, phone: FlaskClient, courts: list[str], clock: FixedClock) -> None:
    """§17: the board and the scorer page count the clients that wrote to the match in the last 60 s; two
    phones on one link are two (each names its own deviceID), one phone tapping again stays one."""
    path = scorer_path(operator, courts[0])
    started = act(phone, path, "start-next", state(phone, path)["version"])
    assert started.status_code == 200, started.json
    assert started.json["data"]["devicesScoring"] == 0
    for _ in range(2):
        tapped = act(phone, path, "point", state(phone, path)["version"], side="a", deviceID="phone-one")
        assert tapped.status_code == 200, tapped.json
    assert tapped.json["data"]["devicesScoring"] == 1
    assert board_court(operator, courts[0])["activeMatch"]["devicesScoring"] == 1
    clock.advance(seconds=30)
    tapped = act(phone, path, "point", state(phone, path)["version"], side="b", deviceID="phone-two")
    assert tapped.json["data"]["devicesScoring"] == 2
    assert state(phone, path)["devicesScoring"] == 2
    assert board_court(operator, courts[0])["activeMatch"]["devicesScoring"] == 2
    clock.advance(seconds=31)  # phone-one's last tap is now 61 s old
    assert state(phone, path)["devicesScoring"] == 1
    assert board_court(operator, courts[0])["activeMatch"]["devicesScoring"] == 1


def test_the_console_and_a_phone_are_two_devices_and_the_state_etag_follows_the_count(
        operator: Api, phone: FlaskClient, courts: list[str], clock: FixedClock) -> None:
    """An operator point (the console's) and a phone's point are two clients; the scorer feed's ETag changes
    when the count does, with no write (time alone), so a polling phone sees it, while its `version` (what a tap
    names) stays: a tap based on it is not refused as stale."""
    path = scorer_path(operator, courts[0])
    assert act(phone, path, "start-next", state(phone, path)["version"]).status_code == 200
    match = board_court(operator, courts[0])["activeMatch"]
    console = operator.post(f"/operator/matches/{match['id']}/point",
                            json={"side": "a", "version": match["scoreVersion"], "deviceID": "console-1"})
    assert console.status_code == 200, console.json
    tapped = act(phone, path, "point", state(phone, path)["version"], side="b", deviceID="phone-one")
    assert tapped.json["data"]["devicesScoring"] == 2
    etag = phone.get(path + "/state").headers["ETag"]
    assert phone.get(path + "/state", headers={"If-None-Match": etag}).status_code == 304
    version = state(phone, path)["version"]
    clock.advance(seconds=61)
    changed = phone.get(path + "/state", headers={"If-None-Match": etag})
    assert changed.status_code == 200 and json_of(changed)["data"]["devicesScoring"] == 0
    assert json_of(changed)["data"]["version"] == version
    assert act(phone, path, "point", version, side="a", deviceID="phone-one").status_code == 200


@pytest.mark.parametrize("device", ["", "x" * 65, "bad id", 7, "phone-1\n"])
def test_a_bad_device_id_is_400_and_counts_nothing(operator: Api, phone: FlaskClient, courts: list[str],
                                                   device: Any) -> None:
    path = scorer_path(operator, courts[0])
    assert act(phone, path, "start-next", state(phone, path)["version"]).status_code == 200
    before = state(phone, path)
    refused = act(phone, path, "point", before["version"], side="a", deviceID=device)
    assert refused.status_code == 400 and refused.json["error"]["code"] == "validation_failed"
    assert state(phone, path) == before


def test_start_next_on_the_phone_takes_from_the_court_pool_as_the_console_does(
        operator: Api, phone: FlaskClient) -> None:
    """Issue 35: the phone showed "Nothing waiting in the queue" (Start next disabled) while draw matches waited in
    the court pool. The phone's up-next is the court's queue, else the pool's first match this court may take; the
    page's own HTML (a reload) says the same."""
    made = operator.post("/operator/broadcasts", json={"name": "Club day", "tables": [{"label": "Court 1"}]})
    court = made.json["data"]["tables"][0]["id"]
    entries = [{"players": [{"manualName": f"Player {i}"}], "seed": i} for i in range(1, 5)]
    draw = operator.post("/operator/draws", json={"broadcastID": made.json["data"]["id"], "name": "Open",
                                                  "format": "single_elimination", "entries": entries, "bestOf": 1})
    assert draw.status_code == 201, draw.json
    pool = operator.get(f"/operator/broadcasts/{made.json['data']['id']}/pool").json["data"]
    path = scorer_path(operator, court)
    shown = state(phone, path)
    assert [s["names"] for s in shown["upNext"][0]["sides"]] == [[pool[0]["playerA"]], [pool[0]["playerB"]]]
    page = phone.get(path).get_data(as_text=True)
    assert f"Up next: {pool[0]['playerA']} vs {pool[0]['playerB']}" in page
    assert '<button id="start" >' in page or '<button id="start">' in page
    started = act(phone, path, "start-next", shown["version"])
    assert started.status_code == 200, started.json
    active = operator.get(f"/operator/matches?status=active&tableID={court}").json["data"]
    assert [m["id"] for m in active] == [pool[0]["id"]]
    own = operator.post("/operator/matches", json={"tableID": court, "playerA": {"manualName": "Ann Lee"},
                                                   "playerB": {"manualName": "Bo Chen"}, "bestOf": 1})
    assert own.status_code == 201
    assert state(phone, path)["upNext"][0]["sides"][0]["names"] == ["Ann Lee"]  # the court's own queue first


def test_the_phones_up_next_is_the_match_start_next_starts(operator: Api, phone: FlaskClient) -> None:
    """Issue 51: the phone said "Up next: Zoë Ångström vs Hannah Kim" and Start next started another match (the
    first one's player was still playing elsewhere). What the phone says is next is what it starts."""
    made = operator.post("/operator/broadcasts", json={"name": "Club day",
                                                       "tables": [{"label": "Court 1"}, {"label": "Court 2"}]})
    one, two = [t["id"] for t in made.json["data"]["tables"]]

    def queued(court: str, a: str, b: str) -> str:
        created = operator.post("/operator/matches", json={"tableID": court, "playerA": {"manualName": a},
                                                           "playerB": {"manualName": b}, "bestOf": 1})
        assert created.status_code == 201, created.json
        return str(created.json["data"]["id"])

    elsewhere = queued(two, "Zoë Ångström", "Ivy Orr")
    assert operator.post(f"/operator/matches/{elsewhere}/start").status_code == 200
    queued(one, "Zoë Ångström", "Hannah Kim")
    free = queued(one, "Grace Taylor", "Chloé Lefèvre")
    path = scorer_path(operator, one)
    shown = state(phone, path)
    assert [s["names"] for s in shown["upNext"][0]["sides"]] == [["Grace Taylor"], ["Chloé Lefèvre"]]
    assert "Up next: Grace Taylor vs Chloé Lefèvre" in phone.get(path).get_data(as_text=True)
    started = act(phone, path, "start-next", shown["version"])
    assert started.status_code == 200, started.json
    assert operator.get(f"/operator/matches?status=active&tableID={one}").json["data"][0]["id"] == free
