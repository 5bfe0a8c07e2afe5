"""Rosters: individual and team rosters with their managed backing player list (api-v1 Roster, contract §5)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.api.resources_support import error_code
from tests.conftest import OPERATOR_KEY, Api


def _create(api: Api, **fields: Any) -> dict[str, Any]:
    response = api.post("/rosters", json={"name": "Juniors", "rosterType": "individual"} | fields)
    assert response.status_code == 201, response.json
    data: dict[str, Any] = response.json["data"]
    return data


def _backing(operator: Api, list_id: str) -> dict[str, Any] | None:
    lists = operator.get("/operator/player-lists").json["data"]
    return next((item for item in lists if item["id"] == list_id), None)


def test_create_individual_roster_creates_its_backing_list(partner: Api, operator: Api) -> None:
    response = partner.post("/rosters", json={
        "name": "Juniors", "rosterType": "individual", "description": "U15", "selfRegistrationEnabled": True})
    assert response.status_code == 201
    data = response.json["data"]
    assert data["id"].startswith("ros_")
    assert data == {
        "id": data["id"], "name": "Juniors", "description": "U15", "rosterType": "individual", "playerCount": 0,
        "selfRegistrationEnabled": True, "createdOn": "2026-11-21T10:00:00.000Z",
        "updatedOn": "2026-11-21T10:00:00.000Z",
        "source": {"playerListID": data["source"]["playerListID"], "playerCount": 0},
    }
    backing = _backing(operator, data["source"]["playerListID"])
    assert backing is not None
    assert backing["rosterID"] == data["id"]
    assert backing["connectionID"] is None
    assert "externalID" not in backing


def test_create_team_roster_with_logo_and_colour(partner: Api) -> None:
    data = _create(partner, name="Falcons", rosterType="team", teamLogoURL="https://example.com/f.png",
                   teamJerseyColor="#ff0000")
    assert data["rosterType"] == "team"
    assert data["teamLogoURL"] == "https://example.com/f.png"
    assert data["teamJerseyColor"] == "#ff0000"
    assert "selfRegistrationEnabled" not in data


def test_self_registration_is_for_individual_rosters_only(partner: Api) -> None:
    response = partner.post("/rosters", json={"name": "T", "rosterType": "team", "selfRegistrationEnabled": True})
    assert response.status_code == 400
    assert error_code(response) == "validation_failed"
    assert partner.get("/rosters").json["data"] == []
    team = _create(partner, rosterType="team")
    response = partner.patch(f"/rosters/{team['id']}", json={"selfRegistrationEnabled": False})
    assert response.status_code == 400
    assert error_code(response) == "validation_failed"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"rosterType": "individual"}, "name"),
        ({"name": "R"}, "rosterType"),
        ({"name": "R", "rosterType": "squad"}, "rosterType"),
        ({"name": "", "rosterType": "team"}, "name"),
        ({"name": "x" * 121, "rosterType": "team"}, "name"),
        ({"name": "R", "rosterType": "team", "description": "d" * 801}, "description"),
        ({"name": "R", "rosterType": "individual", "selfRegistrationEnabled": "yes"}, "selfRegistrationEnabled"),
        ({"name": "R", "rosterType": "individual", "selfRegistrationEnabled": 1}, "selfRegistrationEnabled"),
        ({"name": "R", "rosterType": "team", "teamLogoURL": "not a url"}, "teamLogoURL"),
        ({"name": "R", "rosterType": "team", "teamLogoURL": "https://e.com/" + "x" * 1000}, "teamLogoURL"),
        ({"name": "R", "rosterType": "team", "teamJerseyColor": "c" * 121}, "teamJerseyColor"),
        ({"name": "R", "rosterType": "team", "coach": "Sam"}, "coach"),
    ],
)
def test_invalid_roster_body_is_400(partner: Api, body: dict[str, Any], field: str) -> None:
    response = partner.post("/rosters", json=body)
    assert response.status_code == 400
    assert error_code(response) == "validation_failed"
    assert field in response.json["error"]["details"]["json"]
    assert partner.get("/rosters").json["data"] == []


def test_read_and_list(partner: Api) -> None:
    first, second = _create(partner), _create(partner, name="Falcons", rosterType="team")
    assert partner.get(f"/rosters/{first['id']}").json == {"data": first}
    listed = partner.get("/rosters")
    assert listed.status_code == 200
    assert listed.json == {"data": [first, second], "nextCursor": None}


def test_unknown_roster_is_404(partner: Api) -> None:
    assert partner.get("/rosters/ros_missing").status_code == 404
    assert partner.patch("/rosters/ros_missing", json={"name": "x"}).status_code == 404
    response = partner.delete("/rosters/ros_missing")
    assert response.status_code == 404
    assert error_code(response) == "not_found"


def test_patch_changes_fields_and_renames_the_backing_list(partner: Api, operator: Api, clock: Any) -> None:
    data = _create(partner)
    clock.advance(5)
    response = partner.patch(f"/rosters/{data['id']}", json={
        "name": "Seniors", "description": "Over 40", "selfRegistrationEnabled": False, "rosterType": "individual"})
    assert response.status_code == 200
    patched = response.json["data"]
    assert patched["name"] == "Seniors" and patched["description"] == "Over 40"
    assert patched["selfRegistrationEnabled"] is False
    assert patched["updatedOn"] == "2026-11-21T10:00:05.000Z"
    backing = _backing(operator, data["source"]["playerListID"])
    assert backing is not None and backing["name"] == "Seniors"


def test_patch_with_another_roster_type_is_roster_type_immutable(partner: Api) -> None:
    data = _create(partner)
    response = partner.patch(f"/rosters/{data['id']}", json={"rosterType": "team", "name": "Changed"})
    assert response.status_code == 400
    assert error_code(response) == "roster_type_immutable"
    assert partner.get(f"/rosters/{data['id']}").json["data"] == data


@pytest.mark.parametrize("body", [{}, {"name": ""}, {"rosterType": "squad"}, {"unknown": True}])
def test_invalid_patch_is_400(partner: Api, body: dict[str, Any]) -> None:
    data = _create(partner)
    response = partner.patch(f"/rosters/{data['id']}", json=body)
    assert response.status_code == 400
    assert error_code(response) == "validation_failed"


def test_player_count_follows_the_backing_list(partner: Api, operator: Api) -> None:
    data = _create(partner)
    list_id = data["source"]["playerListID"]
    added = operator.post(f"/operator/player-lists/{list_id}/players", json={"firstName": "Ana"})
    assert added.status_code == 201
    read = partner.get(f"/rosters/{data['id']}").json["data"]
    assert read["playerCount"] == 1
    assert read["source"] == {"playerListID": list_id, "playerCount": 1}


def test_delete_removes_the_roster_and_its_backing_list(partner: Api, operator: Api) -> None:
    data = _create(partner)
    response = partner.delete(f"/rosters/{data['id']}")
    assert response.status_code == 200
    assert response.json == {"data": {"id": data["id"], "deleted": True}}
    assert partner.get(f"/rosters/{data['id']}").status_code == 404
    assert _backing(operator, data["source"]["playerListID"]) is None


def test_rosters_belong_to_the_account(partner: Api, new_partner: Callable[..., Api], operator: Api) -> None:
    data = _create(partner)
    other = new_partner(name="second")
    assert other.get("/rosters").json["data"] == [data]
    assert other.patch(f"/rosters/{data['id']}", json={"name": "Shared"}).status_code == 200
    assert operator.get("/operator/rosters").json["data"][0]["name"] == "Shared"
    assert other.delete(f"/rosters/{data['id']}").status_code == 200
    assert partner.get("/rosters").json["data"] == []


def test_roster_scopes(new_partner: Callable[..., Api]) -> None:
    reader = new_partner(scope="rosters.read")
    assert reader.get("/rosters").status_code == 200
    response = reader.post("/rosters", json={"name": "R", "rosterType": "team"})
    assert response.status_code == 403
    assert response.json["error"]["details"] == {"requiredScope": "rosters.write"}
    assert new_partner(scope="broadcasts.read").get("/rosters").status_code == 403


def test_operator_key_is_refused_on_partner_routes(partner: Api) -> None:
    response = partner.get("/rosters", token=OPERATOR_KEY)
    assert response.status_code == 401
    assert error_code(response) == "invalid_token"
