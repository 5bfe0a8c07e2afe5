"""Teams: idempotent sync by externalID with a backing team roster kept in step (contract §5)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.api.resources_support import error_code, player
from tests.conftest import Api


def _sync(api: Api, external_id: str = "falcons", players: list[dict[str, Any]] | None = None,
          **fields: Any) -> dict[str, Any]:
    body = {"externalID": external_id, "name": "Falcons",
            "players": players if players is not None else [player("p1"), player("p2")]} | fields
    response = api.put("/teams", json=body)
    assert response.status_code == 200, response.json
    data: dict[str, Any] = response.json["data"]
    return data


def test_first_sync_creates_the_team_and_its_team_roster(partner: Api) -> None:
    data = _sync(partner, logoURL="https://example.com/f.png", jerseyColor="red")
    assert data["id"].startswith("team_")
    assert data["externalID"] == "falcons"
    assert data["name"] == "Falcons"
    assert data["logoURL"] == "https://example.com/f.png"
    assert data["jerseyColor"] == "red"
    assert data["playerCount"] == 2
    assert [p["externalID"] for p in data["players"]] == ["p1", "p2"]
    assert all(p["source"] == "mapped" for p in data["players"])
    roster = data["roster"]
    assert roster["id"].startswith("ros_")
    assert roster["rosterType"] == "team"
    assert (roster["name"], roster["teamLogoURL"], roster["teamJerseyColor"]) == (
        "Falcons", "https://example.com/f.png", "red")
    assert roster["playerCount"] == 2
    assert roster["source"]["playerCount"] == 2
    assert partner.get(f"/rosters/{roster['id']}").json["data"] == roster
    assert partner.get("/teams/falcons").json == {"data": data}


def test_sync_again_keeps_one_team_and_one_roster_in_step(partner: Api) -> None:
    first = _sync(partner)
    second = _sync(partner, players=[player("p3")], name="Falcons II", jerseyColor="blue")
    assert second["id"] == first["id"]
    assert second["roster"]["id"] == first["roster"]["id"]
    assert second["roster"]["name"] == "Falcons II"
    assert second["roster"]["teamJerseyColor"] == "blue"
    assert second["roster"]["playerCount"] == 1
    assert [p["externalID"] for p in second["players"]] == ["p3"]
    assert [t["id"] for t in partner.get("/teams").json["data"]] == [first["id"]]
    assert [r["id"] for r in partner.get("/rosters").json["data"]] == [first["roster"]["id"]]


def test_patch_upserts_removes_and_updates_the_roster(partner: Api) -> None:
    _sync(partner, players=[player("p1"), player("p2")])
    response = partner.patch("/teams/falcons", json={
        "upsert": [{"externalID": "p1", "jerseyColor": "gold"}, player("p3")], "removeExternalIDs": ["p2", "nope"],
        "name": "Hawks", "logoURL": "https://example.com/h.png", "jerseyColor": "green"})
    assert response.status_code == 200
    data = response.json["data"]
    assert data["players"] == [{"externalID": "p1", "jerseyColor": "gold", "source": "mapped"},
                               player("p3", source="mapped")]
    assert (data["name"], data["logoURL"], data["jerseyColor"]) == ("Hawks", "https://example.com/h.png", "green")
    roster = data["roster"]
    assert (roster["name"], roster["teamLogoURL"], roster["teamJerseyColor"]) == (
        "Hawks", "https://example.com/h.png", "green")
    assert roster["playerCount"] == 2


def test_conflicting_team_patch_is_400(partner: Api) -> None:
    before = _sync(partner)
    response = partner.patch("/teams/falcons", json={"upsert": [player("p1")], "removeExternalIDs": ["p1"]})
    assert response.status_code == 400
    assert error_code(response) == "conflicting_patch"
    assert partner.get("/teams/falcons").json["data"] == before


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, None),
        ({"name": ""}, "name"),
        ({"name": "n" * 121}, "name"),
        ({"jerseyColor": "c" * 121}, "jerseyColor"),
        ({"logoURL": "u" * 1001}, "logoURL"),
        ({"upsert": [{"externalID": f"p{i}"} for i in range(501)]}, "upsert"),
        ({"removeExternalIDs": ["a", "a"]}, "removeExternalIDs"),
        ({"description": "teams have none"}, "description"),
    ],
)
def test_invalid_team_patch_is_400(partner: Api, body: dict[str, Any], field: str | None) -> None:
    before = _sync(partner)
    response = partner.patch("/teams/falcons", json=body)
    assert response.status_code == 400
    assert error_code(response) == "validation_failed"
    if field is not None:
        assert field in response.json["error"]["details"]["json"]
    assert partner.get("/teams/falcons").json["data"] == before


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"name": ""}, "name"),
        ({"logoURL": "u" * 1001}, "logoURL"),
        ({"jerseyColor": "c" * 121}, "jerseyColor"),
        ({"players": [{"externalID": "p1"}, {"externalID": "p1"}]}, "players"),
        ({"description": "lists only"}, "description"),
    ],
)
def test_invalid_team_sync_is_400_and_creates_nothing(partner: Api, change: dict[str, Any], field: str) -> None:
    response = partner.put("/teams", json={"externalID": "t", "name": "T", "players": []} | change)
    assert response.status_code == 400
    assert error_code(response) == "validation_failed"
    assert field in response.json["error"]["details"]["json"]
    assert partner.get("/teams").json["data"] == []
    assert partner.get("/rosters").json["data"] == []


def test_unknown_team_is_404(partner: Api) -> None:
    assert partner.get("/teams/nope").status_code == 404
    assert partner.patch("/teams/nope", json={"name": "x"}).status_code == 404


def test_manual_team_members_survive_a_sync(partner: Api, operator: Api) -> None:
    data = _sync(partner, players=[player("p1")])
    list_id = data["roster"]["source"]["playerListID"]
    added = operator.post(f"/operator/player-lists/{list_id}/players", json={"firstName": "Guest"})
    assert added.status_code == 201
    assert [p["source"] for p in partner.get("/teams/falcons").json["data"]["players"]] == ["mapped", "manual"]
    synced = _sync(partner, players=[player("p2")])
    assert [(p["externalID"][:4], p["source"]) for p in synced["players"]] == [("p2", "mapped"), ("ply_", "manual")]
    assert synced["roster"]["playerCount"] == 2


def test_deleted_roster_reads_null_and_is_recreated_on_next_sync(partner: Api) -> None:
    data = _sync(partner)
    assert partner.delete(f"/rosters/{data['roster']['id']}").status_code == 200
    assert partner.get("/teams/falcons").json["data"]["roster"] is None
    again = _sync(partner)
    assert again["roster"]["id"] != data["roster"]["id"]
    assert again["roster"]["playerCount"] == 2


def test_team_scopes(new_partner: Callable[..., Api]) -> None:
    reader = new_partner(scope="teams.read")
    assert reader.get("/teams").status_code == 200
    response = reader.put("/teams", json={"externalID": "t", "name": "T", "players": []})
    assert response.status_code == 403
    assert response.json["error"]["details"] == {"requiredScope": "teams.write"}
    assert new_partner(scope="player_lists.read").get("/teams").status_code == 403


def test_a_huge_ranking_round_trips_through_either_store(partner: Api) -> None:
    """PostgreSQL's jsonb gave 1e308 back as a 309-digit integer that no JSON writer took: 500 (issue 47)."""
    body = {"externalID": "t-huge", "name": "Falcons", "players": [
        {"externalID": "p1", "firstName": "Ann", "lastName": "Lee", "ranking": 1e308}]}
    synced = partner.put("/teams", json=body)
    assert synced.status_code == 200, synced.get_data(as_text=True)[:300]
    assert synced.json["data"]["players"][0]["ranking"] == 1e308
    assert partner.get("/teams/t-huge").json["data"]["players"][0]["ranking"] == 1e308
