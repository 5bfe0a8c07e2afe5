"""Broadcast outputs (contract §10): managed links, their life across patch/delete/rotate, designs, the page and
the state feed (ETag/304), and that neither page nor feed leaks IDs or credentials."""

from __future__ import annotations

import re
from typing import Any, cast

import orjson
import pytest
from flask import Flask
from flask.testing import FlaskClient

from api.context import CourtsideFlask, FeedAnswer
from tests.api.resources_support import make_broadcast, sync_list
from tests.conftest import OPERATOR_KEY, Api
from tests.eventually import eventually
from tests.responses import json_of

PLAYERS: list[dict[str, Any]] = [
    {"externalID": "p1", "firstName": "Maximiliana", "lastName": "Oberschleissheimer-Konstantinopoulou",
     "clubName": "TTC Riverside", "country": "DE", "imageURL": "https://img.example.com/max.png",
     "rating": 2150},
    {"externalID": "p2", "firstName": "Bo", "lastName": "Lee", "country": "KR"},
    {"externalID": "p3", "firstName": "Ana", "lastName": "Silva", "clubName": "Porto TT"},
    {"externalID": "p4", "firstName": "Jan", "lastName": "Novak"},
]


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """An anonymous browser: output pages need no credential."""
    return app.test_client()


def outputs(operator: Api, broadcast_id: str) -> list[dict[str, Any]]:
    response = operator.get(f"/operator/broadcasts/{broadcast_id}/outputs")
    assert response.status_code == 200, response.json
    assert response.json["nextCursor"] is None
    return list(response.json["data"])


def path_of(output: dict[str, Any]) -> str:
    return "/" + str(output["url"]).split("/", 3)[3]


def state(client: FlaskClient, output: dict[str, Any]) -> Any:
    return client.get(path_of(output) + "/state")


def court_outputs(operator: Api, broadcast_id: str) -> dict[tuple[str, str], dict[str, Any]]:
    return {(o["tableLabel"], o["scoreboardID"]): o for o in outputs(operator, broadcast_id) if o["kind"] == "court"}


def test_every_court_scoreboard_gets_an_output_and_the_broadcast_one_venue_display(partner: Api, operator: Api) -> None:
    broadcast = make_broadcast(partner, 2, scoreboardIDs=["classic", "lowerthird"])
    listed = outputs(operator, broadcast["id"])
    assert [(o["kind"], o["tableLabel"], o["scoreboardID"], o["design"]) for o in listed] == [
        ("court", "Court 1", "classic", "classic"), ("court", "Court 1", "lowerthird", "lowerthird"),
        ("court", "Court 2", "classic", "classic"), ("court", "Court 2", "lowerthird", "lowerthird"),
        ("venue", None, None, "classic"),
    ]
    for output in listed:
        assert list(output) == ["id", "kind", "tableID", "tableLabel", "scoreboardID", "design", "url", "createdOn"]
        assert output["id"].startswith("outp_")
        assert re.fullmatch(r"http://localhost/outputs/out_[A-Za-z0-9_-]{32,}", output["url"])
    assert [o["tableID"] for o in listed[:4]] == [t["id"] for t in broadcast["tables"] for _ in range(2)]
    assert len({o["url"] for o in listed}) == 5


def test_partner_reads_never_contain_output_keys(partner: Api, operator: Api) -> None:
    broadcast = make_broadcast(partner, 2, scoreboardIDs=["classic"])
    keys = [o["url"].rsplit("/", 1)[1] for o in outputs(operator, broadcast["id"])]
    for read in (partner.get(f"/broadcasts/{broadcast['id']}"), partner.get("/broadcasts"), partner.get("/tables")):
        assert read.status_code == 200
        assert not any(key in read.get_data(as_text=True) for key in keys)
        assert "out_" not in read.get_data(as_text=True)


def test_any_other_scoreboard_id_renders_classic(partner: Api, operator: Api) -> None:
    broadcast = make_broadcast(partner, 1, defaultScoreboardID="club-tv")
    [court, _venue] = outputs(operator, broadcast["id"])
    assert court["scoreboardID"] == "club-tv" and court["design"] == "classic"


def test_scoreboards_lists_the_three_designs(operator: Api) -> None:
    response = operator.get("/operator/scoreboards")
    assert response.status_code == 200
    assert [d["id"] for d in response.json["data"]] == ["classic", "lowerthird", "court"]
    assert all(d["description"] for d in response.json["data"])


def test_outputs_need_the_operator_key(partner: Api, client: FlaskClient) -> None:
    broadcast = make_broadcast(partner, 1)
    assert partner.get(f"/operator/broadcasts/{broadcast['id']}/outputs").status_code in (401, 403)
    assert client.get(f"/api/v1/operator/broadcasts/{broadcast['id']}/outputs").status_code == 401


def test_unknown_broadcast_or_output_is_404(operator: Api) -> None:
    assert operator.get("/operator/broadcasts/brd_nope/outputs").json["error"]["code"] == "not_found"
    response = operator.post("/operator/outputs/outp_nope/rotate")
    assert response.status_code == 404 and response.json["error"]["code"] == "not_found"


def test_a_kept_pair_keeps_its_link_a_removed_pair_or_court_is_404_at_once(
        partner: Api, operator: Api, client: FlaskClient) -> None:
    broadcast = make_broadcast(partner, 2, scoreboardIDs=["classic", "court"])
    before = court_outputs(operator, broadcast["id"])
    venue = outputs(operator, broadcast["id"])[-1]
    court1, court2 = broadcast["tables"]
    response = partner.patch(f"/broadcasts/{broadcast['id']}", json={
        "scoreboardIDs": ["classic", "lowerthird"], "tables": [{"id": court1["id"], "label": "Centre"}]})
    assert response.status_code == 200, response.json
    after = court_outputs(operator, broadcast["id"])
    assert set(after) == {("Centre", "classic"), ("Centre", "lowerthird")}
    assert after[("Centre", "classic")]["url"] == before[("Court 1", "classic")]["url"]  # kept pair, kept link
    assert after[("Centre", "classic")]["id"] == before[("Court 1", "classic")]["id"]
    assert state(client, after[("Centre", "classic")]).json["court"] == {"label": "Centre"}
    for gone in (before[("Court 1", "court")], before[("Court 2", "classic")], before[("Court 2", "court")]):
        assert state(client, gone).status_code == 404
        assert client.get(path_of(gone)).status_code == 404
    assert outputs(operator, broadcast["id"])[-1]["url"] == venue["url"]  # one venue display, kept


def test_deleting_a_broadcast_deletes_every_output_link(partner: Api, operator: Api, client: FlaskClient) -> None:
    broadcast = make_broadcast(partner, 2, scoreboardIDs=["classic"])
    listed = outputs(operator, broadcast["id"])
    assert partner.delete(f"/broadcasts/{broadcast['id']}").status_code == 200
    for output in listed:
        assert state(client, output).status_code == 404
    assert operator.get(f"/operator/broadcasts/{broadcast['id']}/outputs").status_code == 404


def test_rotate_gives_a_new_url_and_the_old_one_is_404_at_once(partner: Api, operator: Api,
                                                                client: FlaskClient) -> None:
    broadcast = make_broadcast(partner, 1, scoreboardIDs=["court"])
    [court, venue] = outputs(operator, broadcast["id"])
    assert state(client, court).status_code == 200
    response = operator.post(f"/operator/outputs/{court['id']}/rotate")
    assert response.status_code == 200, response.json
    rotated = response.json["data"]
    assert rotated["id"] == court["id"] and rotated["url"] != court["url"] and rotated["design"] == "court"
    assert state(client, court).status_code == 404
    assert client.get(path_of(court)).status_code == 404
    assert state(client, rotated).status_code == 200
    assert outputs(operator, broadcast["id"]) == [rotated, venue]


def test_unknown_keys_are_a_plain_404_page_and_404_json(client: FlaskClient) -> None:
    for key in ("out_" + "x" * 43, "nope", "out_", "out_" + "é" * 10, "out_" + "y" * 500):
        page = client.get(f"/outputs/{key}")
        assert page.status_code == 404 and page.mimetype == "text/html"
        assert "Traceback" not in page.get_data(as_text=True)
        feed = client.get(f"/outputs/{key}/state")
        assert feed.status_code == 404 and json_of(feed)["error"]["code"] == "not_found"


def _live_match(partner: Api, operator: Api, table_id: str) -> dict[str, Any]:
    sync_list(partner, "pl", players=PLAYERS)
    body = {"externalID": "m1", "tableID": table_id, "playerListExternalID": "pl", "eventName": "Open Doubles",
            "matchRound": "Final", "isDoubles": True, "playerA": {"externalID": "p1"}, "playerA2": {"externalID": "p3"},
            "playerB": {"externalID": "p2"}, "playerB2": {"manualName": "Guest Player"}}
    match = partner.put("/matches", json=body).json["data"]
    assert operator.post(f"/operator/matches/{match['id']}/start").status_code == 200
    return dict(match)


def test_feed_shows_both_partners_club_or_country_games_and_points(partner: Api, operator: Api,
                                                                 client: FlaskClient) -> None:
    broadcast = make_broadcast(partner, 1, scoreboardIDs=["classic"])
    [court, venue] = outputs(operator, broadcast["id"])
    match = _live_match(partner, operator, broadcast["tables"][0]["id"])
    games = [{"a": 11, "b": 7}, {"a": 5, "b": 3}]
    assert operator.post(f"/operator/matches/{match['id']}/score", json={"gameScores": games}).status_code == 200
    response = state(client, court)
    assert response.status_code == 200 and response.mimetype == "application/json"
    feed = response.json
    assert list(feed) == ["design", "kind", "broadcast", "court", "match", "upNext", "version"]
    assert feed["design"] == "classic" and feed["kind"] == "court" and feed["court"] == {"label": "Court 1"}
    assert feed["match"] == {
        "sides": [
            {"names": ["Maximiliana Oberschleissheimer-Konstantinopoulou", "Ana Silva"],
             "team": "TTC Riverside / Porto TT", "games": 1},
            {"names": ["Bo Lee", "Guest Player"], "team": "KR", "games": 0},
        ],
        "kind": "games", "games": games, "finished": games[:1], "finishedText": "11-7", "scoreText": "11-7 5-3",
        "currentGame": {"a": 5, "b": 3},
        "currentSet": None, "status": "active", "event": "Open Doubles",
        "round": "Final", "bestOf": 5, "startedOn": feed["match"]["startedOn"],
    }
    assert response.headers["ETag"] == f'"{feed["version"]}"'
    venue_feed = state(client, venue).json
    assert list(venue_feed) == ["design", "kind", "broadcast", "courts", "version"]
    assert venue_feed["courts"][0]["label"] == "Court 1" and venue_feed["courts"][0]["match"] == feed["match"]


def test_idle_court_shows_up_next_then_the_court_label(partner: Api, operator: Api, client: FlaskClient) -> None:
    broadcast = make_broadcast(partner, 1, scoreboardIDs=["court"])
    [court, venue] = outputs(operator, broadcast["id"])
    empty = state(client, court).json
    assert empty["match"] is None and empty["upNext"] == [] and empty["court"] == {"label": "Court 1"}
    sync_list(partner, "pl", players=PLAYERS)
    for n in range(3):
        partner.put("/matches", json={"externalID": f"q{n}", "tableID": broadcast["tables"][0]["id"],
                                      "playerListExternalID": "pl", "playerA": {"externalID": "p2"},
                                      "playerB": {"manualName": f"Guest {n}"}})
    queued = state(client, court).json
    assert queued["match"] is None
    assert [n["sides"][1]["names"] for n in queued["upNext"]] == [["Guest 0"]]
    assert set(queued["upNext"][0]) == {"sides", "event", "round", "estimatedStartOn", "notBefore", "calledOn"}
    assert [[n["sides"][1]["names"] for n in c["upNext"]] for c in state(client, venue).json["courts"]] == [
        [["Guest 0"], ["Guest 1"]]]


def test_venue_display_says_called_to_the_court_until_the_match_starts(partner: Api, operator: Api,
                                                                       client: FlaskClient) -> None:
    """Contract §14: a called match shows "Called to {court}" on the venue display until it starts."""
    broadcast = make_broadcast(partner, 1)
    [venue] = outputs(operator, broadcast["id"])
    sync_list(partner, "pl", players=PLAYERS)
    for n in range(2):
        partner.put("/matches", json={"externalID": f"c{n}", "tableID": broadcast["tables"][0]["id"],
                                      "playerListExternalID": "pl", "playerA": {"externalID": "p2"},
                                      "playerB": {"manualName": f"Guest {n}"}})
    before = state(client, venue).json
    assert [n["calledOn"] for n in before["courts"][0]["upNext"]] == [None, None]
    second = partner.get("/matches/c1").json["data"]["id"]
    called = operator.post(f"/operator/matches/{second}/call")
    assert called.status_code == 200, called.json
    after = state(client, venue).json
    assert after["version"] != before["version"]
    assert [n["calledOn"] for n in after["courts"][0]["upNext"]] == [None, called.json["data"]["calledOn"]]
    assert "Called to " in client.get(path_of(venue)).get_data(as_text=True)
    assert operator.post(f"/operator/matches/{second}/start").status_code == 200
    assert [n["calledOn"] for n in state(client, venue).json["courts"][0]["upNext"]] == [None]


def test_state_answers_304_while_nothing_changed_then_200_after_a_point(partner: Api, operator: Api,
                                                                      client: FlaskClient) -> None:
    broadcast = make_broadcast(partner, 1, scoreboardIDs=["lowerthird"])
    [court, _venue] = outputs(operator, broadcast["id"])
    match = _live_match(partner, operator, broadcast["tables"][0]["id"])
    first = state(client, court)
    etag = first.headers["ETag"]
    unchanged = client.get(path_of(court) + "/state", headers={"If-None-Match": etag})
    assert unchanged.status_code == 304 and unchanged.headers["ETag"] == etag and unchanged.get_data() == b""
    partner.put("/player-lists", json={"externalID": "other", "name": "Other", "players": []})  # unrelated write
    assert client.get(path_of(court) + "/state", headers={"If-None-Match": etag}).status_code == 304
    operator.post(f"/operator/matches/{match['id']}/score", json={"gameScores": [{"a": 1, "b": 0}]})
    changed = client.get(path_of(court) + "/state", headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag
    assert json_of(changed)["match"]["currentGame"] == {"a": 1, "b": 0}


def test_a_kept_state_is_served_with_the_body_and_headers_the_view_gave(partner: Api, operator: Api,
                                                                       client: FlaskClient) -> None:
    """§8a: after the first poll built the state, later polls (a page holding an older state, or none) are
    answered from memory before the app routes them: byte for byte the view's body, with the view's headers."""
    broadcast = make_broadcast(partner, 1, scoreboardIDs=["lowerthird"])
    [court, _venue] = outputs(operator, broadcast["id"])
    _live_match(partner, operator, broadcast["tables"][0]["id"])
    built = state(client, court)
    for again in (client.get(path_of(court) + "/state", headers={"If-None-Match": '"an-older-state"'}),
                  client.get(path_of(court) + "/state")):
        assert again.status_code == 200 and again.get_data() == built.get_data()
        assert sorted(again.headers.keys()) == sorted(built.headers.keys())
        for name in ("ETag", "Content-Type", "Content-Length", "Cache-Control", "Access-Control-Allow-Origin",
                     "X-Content-Type-Options"):
            assert again.headers[name] == built.headers[name], name


def test_after_a_change_one_poll_builds_the_state_of_every_output_of_the_broadcast(
        partner: Api, operator: Api, client: FlaskClient) -> None:
    """§8a "rebuilt once per change": the first poll after a point builds the states of all the broadcast's links in
    one pass, so the other links' polls are answered from memory, each with what its own view would show."""
    broadcast = make_broadcast(partner, 2, scoreboardIDs=["lowerthird", "classic"])
    links = outputs(operator, broadcast["id"])
    assert len(links) == 5  # 2 courts x 2 scoreboards, and the venue display
    match = _live_match(partner, operator, broadcast["tables"][0]["id"])
    operator.post(f"/operator/matches/{match['id']}/score", json={"gameScores": [{"a": 3, "b": 1}]})
    app = cast(CourtsideFlask, client.application)
    assert all(app.kept_feed_answer("GET", path_of(o) + "/state", None) is None for o in links)

    def one_poll_kept_them_all() -> list[FeedAnswer] | None:  # PostgreSQL's store learns of commits a moment later
        assert state(client, links[0]).status_code == 200
        kept = [app.kept_feed_answer("GET", path_of(o) + "/state", None) for o in links[1:]]
        return None if None in kept else [k for k in kept if k is not None]

    kept = eventually(one_poll_kept_them_all, timeout=10)
    shown = [orjson.loads(answer.body) for answer in kept]
    assert all(answer.status == "200 OK" for answer in kept)
    assert shown == [state(client, output).json for output in links[1:]]
    assert shown[-1]["courts"][0]["match"]["currentGame"] == {"a": 3, "b": 1}  # the venue display


def test_completion_changes_the_feed(partner: Api, operator: Api, client: FlaskClient) -> None:
    broadcast = make_broadcast(partner, 1)
    [venue] = outputs(operator, broadcast["id"])  # no scoreboard ID anywhere: only the venue display
    match = _live_match(partner, operator, broadcast["tables"][0]["id"])
    playing = state(client, venue).json
    final = [{"a": 11, "b": 3}] * 3
    assert operator.post(f"/operator/matches/{match['id']}/complete", json={"gameScores": final}).status_code == 200
    done = state(client, venue).json
    assert playing["courts"][0]["match"] is not None and done["courts"][0]["match"] is None
    assert done["version"] != playing["version"]


def test_page_is_self_contained_html_with_designs_and_backgrounds(partner: Api, operator: Api,
                                                                 client: FlaskClient) -> None:
    broadcast = make_broadcast(partner, 1, scoreboardIDs=["classic", "lowerthird", "court"])
    listed = outputs(operator, broadcast["id"])
    expected_bg = {"classic": "dark", "lowerthird": "transparent", "court": "dark"}
    for output in listed[:3]:
        page = client.get(path_of(output))
        html = page.get_data(as_text=True)
        assert page.status_code == 200 and page.mimetype == "text/html"
        assert f'class="bg-{expected_bg[output["design"]]}' in html
        assert not re.search(r"(src|href)=\"?https?://|@import|url\(http|fonts\.googleapis", html)
        assert "default-src 'none'" in page.headers["Content-Security-Policy"]
        for bg in ("transparent", "dark", "light"):
            assert f'class="bg-{bg}' in client.get(path_of(output) + f"?bg={bg}").get_data(as_text=True)
        assert f'class="bg-{expected_bg[output["design"]]}' in client.get(
            path_of(output) + "?bg=purple").get_data(as_text=True)


def test_page_and_feed_leak_no_ids_or_credentials(partner: Api, operator: Api, client: FlaskClient) -> None:
    broadcast = make_broadcast(partner, 1, scoreboardIDs=["classic"])
    [court, venue] = outputs(operator, broadcast["id"])
    match = _live_match(partner, operator, broadcast["tables"][0]["id"])
    secrets = [broadcast["id"], broadcast["tables"][0]["id"], match["id"], match["scheduledMatchID"], court["id"],
               venue["id"], "img.example.com", "2150", OPERATOR_KEY, partner.token or "", "svc_", "outp_", "tbl_",
               "mat_",
               "brd_", '"m1"', '"p1"', '"pl"']
    for output in (court, venue):
        key = output["url"].rsplit("/", 1)[1]
        for body in (client.get(path_of(output)).get_data(as_text=True),
                     client.get(path_of(output) + "/state").get_data(as_text=True)):
            assert not [secret for secret in secrets if secret in body]
            assert body.count(key) <= 1  # the page names its own feed, nothing else
