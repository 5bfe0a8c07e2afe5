"""Contract §9a: a club sets up rosters and player lists from the console through operator routes."""

from __future__ import annotations

from tests.api.resources_support import error_code, make_broadcast
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
