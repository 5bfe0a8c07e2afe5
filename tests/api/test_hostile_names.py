"""Contract §8a, hostile names: U+0000 and the bidi controls are 400 validation_failed naming the field through
every entry point (partner, operator, import, sign-up, OAuth form, query, path), on both backends, and nothing is
stored; one person, one name (busy check, import matching, duplicate sign-ups)."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.api.resources_support import make_broadcast, player, sync_list
from tests.api.test_self_registration import make_roster, sign_up_path, submit
from tests.conftest import Api

HOSTILE = ["Ann\u0000Lee", "Ann \u202eeeL", "\u2066Ann\u2069", "\u202aA", "x\u202d", "y\u2068"]
MESSAGE = "Must not contain NUL or bidirectional control characters (U+202A-U+202E, U+2066-U+2069)."


def refused(response: Any) -> dict[str, Any]:
    assert response.status_code == 400, response.get_data(as_text=True)[:300]
    assert response.json["error"]["code"] == "validation_failed"
    return dict(response.json["error"]["details"])


@pytest.mark.parametrize("name", HOSTILE)
def test_partner_player_sync_names_the_field(partner: Api, name: str) -> None:
    details = refused(partner.put("/player-lists", json={
        "externalID": "pl", "name": "List", "players": [player("p1"), player("p2", firstName=name)]}))
    assert details == {"json": {"players": {"1": {"firstName": [MESSAGE]}}}}
    assert partner.get("/player-lists").json["data"] == []


@pytest.mark.parametrize("name", HOSTILE[:2])
def test_operator_match_and_broadcast_names(operator: Api, name: str) -> None:
    broadcast = operator.post("/operator/broadcasts", json={"name": "Day", "tables": [{"label": "Court 1"}]})
    table = broadcast.json["data"]["tables"][0]["id"]
    details = refused(operator.post("/operator/matches", json={
        "tableID": table, "playerA": {"manualName": name}, "playerB": {"manualName": "Bo"}}))
    assert details == {"json": {"playerA": {"manualName": [MESSAGE]}}}
    assert refused(operator.post("/operator/broadcasts", json={"name": name, "tables": [{"label": "C"}]})) == {
        "json": {"name": [MESSAGE]}}
    patched = operator.patch(f"/operator/broadcasts/{broadcast.json['data']['id']}", json={"tables": [{"label": name}]})
    assert refused(patched) == {"json": {"tables": {"0": {"label": [MESSAGE]}}}}
    assert operator.get("/operator/matches").json["data"] == []


def test_import_rows_are_refused_whole(operator: Api) -> None:
    broadcast = operator.post("/operator/broadcasts", json={"name": "Day", "tables": [{"label": "Court 1"}]})
    details = refused(operator.post("/operator/matches/import", json={
        "broadcastID": broadcast.json["data"]["id"], "dryRun": False,
        "rows": [{"court": "Court 1", "playerA": "Ann", "playerB": "Bo"},
                 {"court": "Court 1", "playerA": "Cy\u0000", "playerB": "Di"}]}))
    assert details == {"json": {"rows": {"1": {"playerA": [MESSAGE]}}}}
    assert operator.get("/operator/matches").json["data"] == []


def test_keys_with_forbidden_characters_are_named_too(partner: Api) -> None:
    details = refused(partner.put("/player-lists", json={"externalID": "pl", "name": "L", "players": [],
                                                         "na\u0000me": 1}))
    assert details == {"json": {"na\u0000me": [MESSAGE]}}


def test_query_and_path_values(partner: Api, operator: Api) -> None:
    assert refused(operator.get("/operator/matches?tableID=tbl_%00")) == {"query": {"tableID": [MESSAGE]}}
    assert refused(partner.get("/matches/ext%00id")) == {"path": {"external_id": [MESSAGE]}}
    assert refused(partner.get("/player-lists/%E2%80%AEx")) == {"path": {"external_id": [MESSAGE]}}


def test_oauth_token_form(app: Flask) -> None:
    response = app.test_client().post("/api/v1/oauth/token", data={"grant_type": "authorization_code",
                                                                   "client_id": "app\u0000", "code": "x"})
    assert refused(response) == {"form": {"client_id": [MESSAGE]}}


def test_sign_up_form_names_the_field_on_its_page(operator: Api, partner: Api, app: Flask) -> None:
    roster = make_roster(partner)
    path = sign_up_path(operator, roster["id"])
    visitor: FlaskClient = app.test_client()
    page = submit(visitor, path, firstName="Ana\u202e", lastName="Silva")
    assert page.status_code == 400 and page.mimetype == "text/html"
    assert "Must not contain NUL" in page.get_data(as_text=True)
    assert partner.get(f"/rosters/{roster['id']}").json["data"]["playerCount"] == 0


def test_duplicate_sign_ups_follow_the_name_rule(operator: Api, partner: Api, app: Flask) -> None:
    roster = make_roster(partner)
    path = sign_up_path(operator, roster["id"])
    visitor: FlaskClient = app.test_client()
    assert submit(visitor, path, firstName="Ann", lastName="Lée").status_code == 201
    again = submit(visitor, path, firstName=" ann ", lastName="Le\u0301e")
    assert again.status_code == 409
    stored = [p for p in operator.get("/operator/player-lists").json["data"]
              if p["id"] == partner.get(f"/rosters/{roster['id']}").json["data"]["source"]["playerListID"]][0]
    assert [(p["firstName"], p["lastName"]) for p in stored["players"]] == [("Ann", "Lée")]


def test_stored_sign_up_names_are_nfc_with_whitespace_collapsed(operator: Api, partner: Api, app: Flask) -> None:
    roster = make_roster(partner)
    path = sign_up_path(operator, roster["id"])
    assert submit(app.test_client(), path, firstName="  Mary  Ann ", lastName="Le\u0301e").status_code == 201
    list_id = partner.get(f"/rosters/{roster['id']}").json["data"]["source"]["playerListID"]
    stored = [p for p in operator.get("/operator/player-lists").json["data"] if p["id"] == list_id][0]
    assert [(p["firstName"], p["lastName"]) for p in stored["players"]] == [("Mary Ann", "Lée")]


def test_one_person_two_spellings_is_busy(operator: Api) -> None:
    broadcast = operator.post("/operator/broadcasts", json={
        "name": "Day", "tables": [{"label": "Court 1"}, {"label": "Court 2"}]}).json["data"]
    tables = [t["id"] for t in broadcast["tables"]]

    def match(table: str, a: str) -> str:
        made = operator.post("/operator/matches", json={"tableID": table, "playerA": {"manualName": a},
                                                        "playerB": {"manualName": f"Opponent {table}"}})
        return str(made.json["data"]["id"])

    live, waiting = match(tables[0], "Ann Lée"), match(tables[1], "ann  Le\u0301e")
    assert operator.post(f"/operator/matches/{live}/start").status_code == 200
    response = operator.post(f"/operator/matches/{waiting}/start")
    assert response.status_code == 409 and response.json["error"]["code"] == "player_busy"


def test_import_matches_players_by_the_name_rule(operator: Api, partner: Api) -> None:
    sync_list(partner, players=[player("p1", firstName="Ann", lastName="Lée")])
    broadcast = make_broadcast(partner)
    table = broadcast["tables"][0]
    assert partner.patch(f"/tables/{table['id']}", json={"playerListExternalID": "list-1"}).status_code == 200
    response = operator.post("/operator/matches/import", json={"broadcastID": broadcast["id"], "dryRun": False,
                                                               "rows": [{"court": table["label"],
                                                                         "playerA": "ANN  le\u0301e",
                                                                         "playerB": "Walk In"}]})
    assert response.status_code == 200, response.json
    [match] = operator.get("/operator/matches").json["data"]
    assert match["participants"]["playerA"] == {"externalID": "p1"}


def test_import_courts_unknown_ambiguous_and_exact(operator: Api) -> None:
    broadcast = operator.post("/operator/broadcasts", json={
        "name": "Day", "tables": [{"label": "Court 1"}, {"label": "court  1"}, {"label": "Court 2"}]}).json["data"]

    def row(court: str) -> Any:
        return operator.post("/operator/matches/import", json={"broadcastID": broadcast["id"], "dryRun": True,
                                                               "rows": [{"court": court, "playerA": "A",
                                                                         "playerB": "B"}]})

    assert row("Court 9").json["data"]["results"][0]["error"]["code"] == "unknown_court"
    assert row("COURT 1").json["data"]["results"][0]["error"]["code"] == "ambiguous_court"
    assert row("Court 1").json["data"]["results"][0]["status"] == 200
    assert row("court   2").json["data"]["results"][0]["status"] == 200


@pytest.mark.parametrize("name", ["=HYPERLINK(\"http://evil\",\"x\")", "+1+2", "-2+3", "@SUM(A1)", "\tTab", "\rCR"])
def test_results_csv_never_carries_a_formula(operator: Api, name: str) -> None:
    label = "@" + name.strip() if name[0] in "\t\r" else name  # a label is one line (issue 47): no TAB or CR
    broadcast = operator.post("/operator/broadcasts", json={"name": "Day", "tables": [{"label": label}]}).json["data"]
    made = operator.post("/operator/matches", json={"tableID": broadcast["tables"][0]["id"], "bestOf": 1,
                                                    "playerA": {"manualName": "Ann"},
                                                    "playerB": {"manualName": "Bo"}, "eventName": name})
    match_id = made.json["data"]["id"]
    assert operator.post(f"/operator/matches/{match_id}/start").status_code == 200
    assert operator.post(f"/operator/matches/{match_id}/complete",
                         json={"gameScores": [{"a": 11, "b": 3}]}).status_code == 200
    body = operator.get(f"/operator/results?broadcastID={broadcast['id']}&format=csv").get_data().decode("utf-8-sig")
    [row] = list(csv.DictReader(io.StringIO(body)))
    assert row["court"] == "'" + label and row["event"] == "'" + name
    assert row["games"] == "11-3" and row["sideA"] == "Ann"
    data = operator.get(f"/operator/results?broadcastID={broadcast['id']}&format=json").json["data"]
    assert data[0]["court"] == label  # JSON keeps values unchanged
