"""Contract §9a: a club sets up rosters and player lists from the console through operator routes."""
# ruff: noqa: F811 - the fixture `visitor` comes from tests.api.test_self_registration

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from tests.api.resources_support import error_code, make_broadcast, player, sync_list
from tests.api.test_self_registration import sign_up_path, submit, visitor  # noqa: F401 - fixture
from tests.conftest import Api

BODY = {"name": "Club day", "tables": [{"label": "Court 1"}, {"label": "Court 2"}]}


def test_operator_creates_an_individual_roster_with_its_backing_player_list(operator: Api) -> None:
    response = operator.post("/operator/rosters", json={"name": "Club members", "type": "individual",
                                                        "selfRegistrationEnabled": True})
    assert response.status_code == 201, response.json
    roster = response.json["data"]
    assert roster["name"] == "Club members"
    assert roster["rosterType"] == "individual"
    assert roster["selfRegistrationEnabled"] is True
    assert roster["source"]["playerCount"] == 0
    lists = operator.get("/operator/player-lists").json["data"]
    backing = next(item for item in lists if item["id"] == roster["source"]["playerListID"])
    assert backing["rosterID"] == roster["id"]
    assert operator.get("/operator/rosters").json["data"][0]["id"] == roster["id"]


def test_operator_roster_with_a_broadcast_becomes_its_default_player_list(operator: Api) -> None:
    broadcast = operator.post("/operator/broadcasts", json=BODY).json["data"]
    roster = operator.post("/operator/rosters", json={"broadcastID": broadcast["id"], "name": "Entries",
                                                      "type": "individual"}).json["data"]
    read = operator.get("/operator/broadcasts").json["data"][0]
    assert read["defaultPlayerListID"] == roster["source"]["playerListID"]


def test_operator_roster_for_an_unknown_broadcast_is_404_and_creates_nothing(operator: Api) -> None:
    response = operator.post("/operator/rosters", json={"broadcastID": "brd_other", "name": "X",
                                                        "type": "individual"})
    assert response.status_code == 404
    assert error_code(response) == "not_found"
    assert operator.get("/operator/rosters").json["data"] == []
    assert operator.get("/operator/player-lists").json["data"] == []


def test_operator_team_roster_refuses_self_registration_with_400(operator: Api) -> None:
    response = operator.post("/operator/rosters", json={"name": "Team", "type": "team",
                                                        "selfRegistrationEnabled": True})
    assert response.status_code == 400
    assert operator.get("/operator/rosters").json["data"] == []
    team = operator.post("/operator/rosters", json={"name": "Team", "type": "team"})
    assert team.status_code == 201
    assert team.json["data"]["rosterType"] == "team"


def test_operator_roster_body_needs_name_and_type(operator: Api) -> None:
    assert operator.post("/operator/rosters", json={"name": "No type"}).status_code == 400
    assert operator.post("/operator/rosters", json={"type": "individual"}).status_code == 400
    assert operator.post("/operator/rosters", json={"name": "X", "type": "club"}).status_code == 400


def test_operator_patches_a_roster_name_and_self_registration(operator: Api) -> None:
    roster = operator.post("/operator/rosters", json={"name": "Members", "type": "individual"}).json["data"]
    response = operator.patch(f"/operator/rosters/{roster['id']}", json={"selfRegistrationEnabled": True})
    assert response.status_code == 200
    assert response.json["data"]["selfRegistrationEnabled"] is True
    renamed = operator.patch(f"/operator/rosters/{roster['id']}", json={"name": "Saturday members"})
    assert renamed.json["data"]["name"] == "Saturday members"
    assert renamed.json["data"]["selfRegistrationEnabled"] is True
    assert operator.patch(f"/operator/rosters/{roster['id']}", json={}).status_code == 400


def test_operator_patch_of_an_unknown_roster_is_404(operator: Api) -> None:
    response = operator.patch("/operator/rosters/ros_nope", json={"name": "X"})
    assert response.status_code == 404
    assert error_code(response) == "not_found"


def test_partner_cannot_use_operator_roster_routes(partner: Api) -> None:
    assert partner.post("/operator/rosters", json={"name": "X", "type": "individual"}).status_code in (401, 403)


def test_operator_creates_a_house_player_list(operator: Api) -> None:
    response = operator.post("/operator/player-lists", json={"name": "Saturday ladder"})
    assert response.status_code == 201, response.json
    created = response.json["data"]
    assert created["name"] == "Saturday ladder"
    assert created["playerCount"] == 0 and created["players"] == []
    assert created["externalID"] == created["id"]
    assert created["rosterID"] is None
    [house] = [c for c in operator.get("/operator/connections").json["data"] if c["kind"] == "house"]
    assert created["connectionID"] == house["connectionID"]
    assert [item["id"] for item in operator.get("/operator/player-lists").json["data"]] == [created["id"]]
    added = operator.post(f"/operator/player-lists/{created['id']}/players",
                          json={"firstName": "Ada", "lastName": "Lovelace"})
    assert added.status_code == 201
    assert added.json["data"]["playerCount"] == 1


def test_operator_player_list_needs_a_name(operator: Api) -> None:
    assert operator.post("/operator/player-lists", json={}).status_code == 400
    assert operator.post("/operator/player-lists", json={"name": "   "}).status_code == 400
    assert operator.get("/operator/player-lists").json["data"] == []


def test_partner_broadcasts_are_untouched_by_an_operator_roster_without_broadcast(operator: Api,
                                                                                   partner: Api) -> None:
    made = make_broadcast(partner)
    operator.post("/operator/rosters", json={"name": "Members", "type": "individual"})
    assert partner.get(f"/broadcasts/{made['id']}").json["data"].get("defaultPlayerListID") is None


def _house_list(operator: Api, name: str = "Members") -> dict[str, Any]:
    return dict(operator.post("/operator/player-lists", json={"name": name}).json["data"])


def _manual(operator: Api, list_id: str, **player: Any) -> dict[str, Any]:
    players = operator.post(f"/operator/player-lists/{list_id}/players", json=player).json["data"]["players"]
    return dict(players[-1])


def test_operator_edits_a_manual_player(operator: Api) -> None:
    listed = _house_list(operator)
    ada = _manual(operator, listed["id"], firstName="Ada", lastName="Lovelace")
    response = operator.patch(f"/operator/player-lists/{listed['id']}/players/{ada['id']}",
                              json={"lastName": "King", "clubName": "Analytical TC"})
    assert response.status_code == 200, response.json
    [edited] = response.json["data"]["players"]
    assert edited == {**ada, "lastName": "King", "clubName": "Analytical TC"}


def test_operator_edits_a_self_registered_player(operator: Api, visitor: FlaskClient) -> None:
    roster = operator.post("/operator/rosters", json={"name": "Open", "type": "individual",
                                                      "selfRegistrationEnabled": True}).json["data"]
    signed = submit(visitor, sign_up_path(operator, roster["id"]), firstName="Grace", lastName="Hopper")
    assert signed.status_code < 400
    list_id = roster["source"]["playerListID"]
    players = next(p for p in operator.get("/operator/player-lists").json["data"] if p["id"] == list_id)["players"]
    [grace] = players
    assert grace["source"] == "self"
    response = operator.patch(f"/operator/player-lists/{list_id}/players/{grace['id']}", json={"clubName": "Navy"})
    assert response.status_code == 200
    assert response.json["data"]["players"][0]["clubName"] == "Navy"


def test_editing_a_player_into_another_players_name_is_409_player_exists(operator: Api) -> None:
    listed = _house_list(operator)
    _manual(operator, listed["id"], firstName="Ada", lastName="Lovelace")
    bob = _manual(operator, listed["id"], firstName="Bob", lastName="Smith")
    response = operator.patch(f"/operator/player-lists/{listed['id']}/players/{bob['id']}",
                              json={"firstName": "ADA", "lastName": "lovelace"})
    assert response.status_code == 409
    assert error_code(response) == "player_exists"
    after = next(p for p in operator.get("/operator/player-lists").json["data"] if p["id"] == listed["id"])
    assert after["players"][1] == bob


def test_editing_needs_a_visible_first_name_and_one_field(operator: Api) -> None:
    listed = _house_list(operator)
    ada = _manual(operator, listed["id"], firstName="Ada")
    path = f"/operator/player-lists/{listed['id']}/players/{ada['id']}"
    assert operator.patch(path, json={"firstName": "  "}).status_code == 400
    assert operator.patch(path, json={}).status_code == 400
    assert operator.patch(path, json={"nickname": "x"}).status_code == 400


def test_editing_an_unknown_or_mapped_player_is_404(operator: Api, partner: Api) -> None:
    listed = _house_list(operator)
    assert operator.patch(f"/operator/player-lists/{listed['id']}/players/ply_nope",
                          json={"firstName": "X"}).status_code == 404
    assert operator.patch("/operator/player-lists/pl_nope/players/ply_nope",
                          json={"firstName": "X"}).status_code == 404
    sync_list(partner, "pl-1", [player("p1")])
    partner_list = next(p for p in operator.get("/operator/player-lists").json["data"]
                        if p.get("externalID") == "pl-1")
    mapped = partner_list["players"][0]
    response = operator.patch(f"/operator/player-lists/{partner_list['id']}/players/{mapped.get('id', 'p1')}",
                              json={"firstName": "X"})
    assert response.status_code == 404


def test_operator_assigns_a_house_list_to_a_court_and_clears_it(operator: Api) -> None:
    broadcast = operator.post("/operator/broadcasts", json=BODY).json["data"]
    table_id = broadcast["tables"][0]["id"]
    listed = _house_list(operator)
    response = operator.patch(f"/operator/tables/{table_id}", json={"playerListExternalID": listed["externalID"]})
    assert response.status_code == 200, response.json
    read = response.json["data"]
    assert read["id"] == table_id and read["broadcastID"] == broadcast["id"]
    assert read["playerListExternalID"] == listed["externalID"]
    assert read["activeMatch"] is None and read["queue"] == []
    court = next(t for t in operator.get("/operator/tables").json["data"] if t["id"] == table_id)
    assert court["playerListExternalID"] == listed["externalID"]
    cleared = operator.patch(f"/operator/tables/{table_id}", json={"playerListExternalID": None})
    assert cleared.status_code == 200 and cleared.json["data"]["playerListExternalID"] is None


def test_operator_court_list_must_be_a_house_list_and_the_table_the_accounts(operator: Api, partner: Api) -> None:
    broadcast = operator.post("/operator/broadcasts", json=BODY).json["data"]
    table_id = broadcast["tables"][0]["id"]
    sync_list(partner, "pl-1", [player("p1")])
    response = operator.patch(f"/operator/tables/{table_id}", json={"playerListExternalID": "pl-1"})
    assert response.status_code == 404
    missing = operator.patch("/operator/tables/tbl_nope", json={"playerListExternalID": None})
    assert missing.status_code == 404 and error_code(missing) == "not_found"
    assert operator.patch(f"/operator/tables/{table_id}", json={}).status_code == 400


def test_a_partners_court_is_read_only_for_the_operator(operator: Api, partner: Api) -> None:
    made = make_broadcast(partner)
    table_id = partner.get("/tables").json["data"][0]["id"]
    listed = _house_list(operator)
    response = operator.patch(f"/operator/tables/{table_id}", json={"playerListExternalID": listed["externalID"]})
    assert response.status_code == 403
    assert error_code(response) == "table_not_managed"
    assert partner.get(f"/tables/{table_id}").json["data"]["playerListExternalID"] is None
    assert made["id"]


def _import(operator: Api, list_id: str, rows: list[dict[str, Any]], *, dry_run: bool = False) -> Any:
    return operator.post(f"/operator/player-lists/{list_id}/players/import", json={"rows": rows, "dryRun": dry_run})


SHEET = [{"firstName": "Ada", "lastName": "Lovelace", "clubName": "Analytical TC", "country": "GB"},
         {"firstName": "Grace", "lastName": "Hopper", "gender": "F"}]


def test_a_player_import_adds_every_row_as_a_manual_player(operator: Api) -> None:
    listed = _house_list(operator)
    response = _import(operator, listed["id"], SHEET)
    assert response.status_code == 200, response.json
    body = response.json["data"]
    assert (body["succeeded"], body["failed"], body["imported"]) == (2, 0, 2)
    assert [r["index"] for r in body["results"]] == [0, 1]
    assert body["results"][0]["data"]["clubName"] == "Analytical TC"
    assert body["results"][0]["data"]["source"] == "manual"
    stored = next(p for p in operator.get("/operator/player-lists").json["data"] if p["id"] == listed["id"])
    assert stored["playerCount"] == 2
    assert [r["data"] for r in body["results"]] == stored["players"]


def test_a_dry_run_checks_and_stores_nothing(operator: Api) -> None:
    listed = _house_list(operator)
    response = _import(operator, listed["id"], SHEET, dry_run=True)
    assert response.status_code == 200
    assert response.json["data"]["imported"] == 0 and response.json["data"]["succeeded"] == 2
    stored = next(p for p in operator.get("/operator/player-lists").json["data"] if p["id"] == listed["id"])
    assert stored["players"] == []


def test_a_name_already_in_the_list_or_sheet_is_a_row_error_and_nothing_is_added(operator: Api) -> None:
    listed = _house_list(operator)
    _manual(operator, listed["id"], firstName="Ada", lastName="Lovelace")
    rows = [{"firstName": "ADA", "lastName": "lovelace"}, {"firstName": "Bob", "lastName": "Smith"},
            {"firstName": "bob", "lastName": "SMITH"}]
    response = _import(operator, listed["id"], rows)
    assert response.status_code == 207
    results = response.json["data"]["results"]
    assert [r["status"] for r in results] == [409, 200, 409]
    assert results[0]["error"]["code"] == "player_exists"
    assert results[0]["error"]["details"]["name"] == "Ada Lovelace"
    assert results[2]["error"]["code"] == "player_exists"
    assert response.json["data"]["imported"] == 0 and response.json["data"]["failed"] == 2
    stored = next(p for p in operator.get("/operator/player-lists").json["data"] if p["id"] == listed["id"])
    assert [p["firstName"] for p in stored["players"]] == ["Ada"]


def test_a_malformed_row_or_more_than_1000_rows_is_400_for_the_whole_sheet(operator: Api) -> None:
    listed = _house_list(operator)
    missing = _import(operator, listed["id"], [SHEET[0], {"firstName": "NoLast"}])
    assert missing.status_code == 400
    assert error_code(missing) == "validation_failed"
    unknown = _import(operator, listed["id"], [{"firstName": "A", "lastName": "B", "handedness": "left"}])
    assert unknown.status_code == 400
    rated = _import(operator, listed["id"], [{"firstName": "A", "lastName": "B", "rating": 3}], dry_run=True)
    assert rated.status_code == 200, rated.json  # a sheet's rating column (issue 51, point 8)
    too_many = [{"firstName": f"P{i}", "lastName": "X"} for i in range(1001)]
    assert _import(operator, listed["id"], too_many).status_code == 400
    assert _import(operator, listed["id"], []).status_code == 400
    stored = next(p for p in operator.get("/operator/player-lists").json["data"] if p["id"] == listed["id"])
    assert stored["players"] == []


def test_1000_rows_import_at_once(operator: Api) -> None:
    listed = _house_list(operator)
    rows = [{"firstName": f"Player{i}", "lastName": "Club"} for i in range(1000)]
    response = _import(operator, listed["id"], rows)
    assert response.status_code == 200
    assert response.json["data"]["imported"] == 1000


def test_importing_into_an_unknown_list_is_404(operator: Api) -> None:
    response = _import(operator, "pl_nope", SHEET)
    assert response.status_code == 404
    assert error_code(response) == "not_found"


def _schedule(operator: Api, broadcast_id: str, rows: list[dict[str, Any]]) -> Any:
    return operator.post("/operator/matches/import", json={"broadcastID": broadcast_id, "dryRun": False,
                                                           "rows": rows})


def test_re_importing_a_pending_match_is_a_duplicate_match_row_error_unless_allowed(operator: Api) -> None:
    broadcast = operator.post("/operator/broadcasts", json=BODY).json["data"]
    rows = [{"court": "Court 1", "playerA": "Ann Lee", "playerB": "Bo Chen"},
            {"court": "Court 2", "playerA": "Cy Dunn", "playerB": "Di Ekk"}]
    assert _schedule(operator, broadcast["id"], rows).status_code == 200
    again = _schedule(operator, broadcast["id"], [
        {"court": "Court 1", "playerA": "bo chen", "playerB": "ANN LEE"},  # same sides, either order, any case
        {"court": "Court 2", "playerA": "Cy Dunn", "playerB": "Fay Gold"}])
    assert again.status_code == 207
    results = again.json["data"]["results"]
    assert [r["status"] for r in results] == [409, 200]
    assert results[0]["error"]["code"] == "duplicate_match"
    assert again.json["data"]["queued"] == 0
    queues = {t["id"]: t["queue"] for t in operator.get("/operator/tables").json["data"]}
    assert [len(queues[t["id"]]) for t in broadcast["tables"]] == [1, 1]
    allowed = _schedule(operator, broadcast["id"], [rows[0] | {"allowDuplicate": True}])
    assert allowed.status_code == 200 and allowed.json["data"]["queued"] == 1


def test_the_same_sides_on_another_court_are_not_a_duplicate(operator: Api) -> None:
    broadcast = operator.post("/operator/broadcasts", json=BODY).json["data"]
    row = {"court": "Court 1", "playerA": "Ann Lee", "playerB": "Bo Chen"}
    assert _schedule(operator, broadcast["id"], [row]).status_code == 200
    assert _schedule(operator, broadcast["id"], [row | {"court": "Court 2"}]).status_code == 200
