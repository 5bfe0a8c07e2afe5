"""Operator routes for account resources: broadcasts and handover, every player list, manual players, rosters."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.api.resources_support import error_code, make_broadcast, player, sync_list
from tests.conftest import Api

BODY = {"name": "Open", "tables": [{"label": "Court 1"}]}


def _connection_id(api: Api) -> str:
    return str(api.get("/connection").json["data"]["connectionID"])


def test_operator_creates_a_broadcast_managed_by_a_connection(operator: Api, partner: Api) -> None:
    conn = _connection_id(partner)
    response = operator.post("/operator/broadcasts", json=BODY | {"managerConnectionID": conn})
    assert response.status_code == 201
    data = response.json["data"]
    assert data["managerConnectionID"] == conn
    assert data["tableCount"] == 1
    assert [t["id"] for t in partner.get("/tables").json["data"]] == [data["tables"][0]["id"]]
    assert partner.get(f"/broadcasts/{data['id']}").json["data"] == {
        k: v for k, v in data.items() if k not in ("managerConnectionID", "eventDay", "plan")}


def test_operator_broadcast_without_manager_is_managed_by_the_house_connection(operator: Api, partner: Api) -> None:
    data = operator.post("/operator/broadcasts", json=BODY).json["data"]
    [house] = [c for c in operator.get("/operator/connections").json["data"] if c["kind"] == "house"]
    assert data["managerConnectionID"] == house["connectionID"]
    response = partner.get(f"/tables/{data['tables'][0]['id']}")
    assert response.status_code == 403
    assert error_code(response) == "table_not_managed"


def test_unknown_or_revoked_manager_is_404(operator: Api, new_partner: Callable[..., Api]) -> None:
    assert operator.post("/operator/broadcasts", json=BODY | {"managerConnectionID": "conn_x"}).status_code == 404
    gone = new_partner(name="gone")
    conn = _connection_id(gone)
    assert gone.delete("/connection").status_code == 200
    response = operator.post("/operator/broadcasts", json=BODY | {"managerConnectionID": conn})
    assert response.status_code == 404
    assert operator.get("/operator/broadcasts").json["data"] == []


def test_operator_lists_patches_and_deletes_broadcasts(operator: Api, partner: Api) -> None:
    made = make_broadcast(partner)
    listed = operator.get("/operator/broadcasts").json
    assert listed["nextCursor"] is None
    assert listed["data"][0]["managerConnectionID"] == _connection_id(partner)
    patched = operator.patch(f"/operator/broadcasts/{made['id']}", json={"name": "By operator"})
    assert patched.status_code == 200
    assert patched.json["data"]["name"] == "By operator"
    response = operator.delete(f"/operator/broadcasts/{made['id']}")
    assert response.json == {"data": {"id": made["id"], "deleted": True}}
    assert operator.patch(f"/operator/broadcasts/{made['id']}", json={"name": "x"}).status_code == 404


def test_handover_to_unknown_connection_is_404(operator: Api, partner: Api) -> None:
    made = make_broadcast(partner)
    response = operator.post(f"/operator/broadcasts/{made['id']}/handover", json={"connectionID": "conn_nope"})
    assert response.status_code == 404
    response = operator.post("/operator/broadcasts/brd_nope/handover", json={"connectionID": _connection_id(partner)})
    assert response.status_code == 404
    assert operator.post(f"/operator/broadcasts/{made['id']}/handover", json={}).status_code == 400


def test_operator_lists_every_player_list_with_internal_details(operator: Api, partner: Api) -> None:
    synced = sync_list(partner, "club", [player("p1")])
    roster = partner.post("/rosters", json={"name": "R", "rosterType": "individual"}).json["data"]
    data = operator.get("/operator/player-lists").json["data"]
    assert [item["id"] for item in data] == [synced["id"], roster["source"]["playerListID"]]
    assert data[0]["connectionID"] == _connection_id(partner) and data[0]["rosterID"] is None
    assert data[0]["players"][0]["connectionID"] == _connection_id(partner)
    assert data[1]["rosterID"] == roster["id"] and data[1]["connectionID"] is None


def test_add_and_remove_a_manual_player(operator: Api, partner: Api) -> None:
    synced = sync_list(partner, "club", [player("p1")])
    response = operator.post(f"/operator/player-lists/{synced['id']}/players",
                             json={"firstName": "Walk", "lastName": "In", "ranking": "12"})
    assert response.status_code == 201
    manual = response.json["data"]["players"][-1]
    assert manual["source"] == "manual" and manual["id"].startswith("ply_")
    assert manual["externalID"] == manual["id"]  # so a schedule or a match can name this player (contract §9a)
    assert partner.get("/player-lists/club").json["data"]["players"][-1] == {
        "externalID": manual["id"], "firstName": "Walk", "lastName": "In", "ranking": "12", "source": "manual"}
    removed = operator.delete(f"/operator/player-lists/{synced['id']}/players/{manual['id']}")
    assert removed.status_code == 200
    assert [p["externalID"] for p in removed.json["data"]["players"]] == ["p1"]


def test_only_manual_players_can_be_removed(operator: Api, partner: Api) -> None:
    synced = sync_list(partner, "club", [player("p1")])
    for player_id in ("p1", "ply_missing"):
        response = operator.delete(f"/operator/player-lists/{synced['id']}/players/{player_id}")
        assert response.status_code == 404
        assert error_code(response) == "not_found"
    assert operator.delete("/operator/player-lists/pl_missing/players/ply_x").status_code == 404


@pytest.mark.parametrize("body", [{"firstName": "f" * 121}, {"nickname": "x"}, {"externalID": ""},
                                  {"ranking": False}, []])
def test_invalid_manual_player_is_400(operator: Api, partner: Api, body: Any) -> None:
    synced = sync_list(partner, "club", [])
    response = operator.post(f"/operator/player-lists/{synced['id']}/players", json=body)
    assert response.status_code == 400
    assert error_code(response) == "validation_failed"
    assert partner.get("/player-lists/club").json["data"]["players"] == []


def test_manual_player_on_an_unknown_list_is_404(operator: Api) -> None:
    assert operator.post("/operator/player-lists/pl_missing/players", json={"firstName": "A"}).status_code == 404


def test_operator_lists_rosters(operator: Api, partner: Api) -> None:
    roster = partner.post("/rosters", json={"name": "R", "rosterType": "team"}).json["data"]
    assert operator.get("/operator/rosters").json == {"data": [roster], "nextCursor": None}


@pytest.mark.parametrize("path", ["/operator/broadcasts", "/operator/player-lists", "/operator/rosters"])
def test_partner_credentials_are_refused_on_operator_routes(partner: Api, path: str) -> None:
    response = partner.get(path)
    assert response.status_code == 401
    assert error_code(response) == "invalid_token"
