"""Broadcasts: create, read, list, patch (court configuration), delete, bounds and scopes (api-v1 Broadcast)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.api.resources_support import error_code, make_broadcast, queue_match, sync_list
from tests.conftest import Api


def test_create_returns_201_with_courts_outputs_and_counts(partner: Api) -> None:
    response = partner.post("/broadcasts", json={
        "name": "Club Open", "description": "Finals day", "scoreboardIDs": ["sb-main", "sb-side"],
        "defaultScoreboardID": "sb-main",
        "tables": [{"label": "Court 1"}, {"label": "Court 2", "scoreboardIDs": ["sb-c2"]}],
    })
    assert response.status_code == 201
    data = response.json["data"]
    assert data["id"].startswith("brd_")
    assert data["name"] == "Club Open"
    assert data["description"] == "Finals day"
    assert data["defaultScoreboardID"] == "sb-main"
    assert data["scoreboardIDs"] == ["sb-main", "sb-side"]
    assert data["createdOn"] == data["updatedOn"] == "2026-11-21T10:00:00.000Z"
    assert data["tableCount"] == 2
    assert data["outputCount"] == 3
    first, second = data["tables"]
    assert first["id"].startswith("tbl_") and second["id"].startswith("tbl_")
    assert first == {"id": first["id"], "label": "Court 1", "scoreboardIDs": [],
                     "outputs": [{"scoreboardID": "sb-main"}, {"scoreboardID": "sb-side"}]}
    assert second == {"id": second["id"], "label": "Court 2", "scoreboardIDs": ["sb-c2"],
                      "outputs": [{"scoreboardID": "sb-c2"}]}


def test_court_without_any_scoreboard_has_empty_outputs(partner: Api) -> None:
    data = make_broadcast(partner, courts=1)
    assert data["tables"][0]["outputs"] == []
    assert data["outputCount"] == 0
    assert data["tableCount"] == 1


def test_court_falls_back_to_default_scoreboard(partner: Api) -> None:
    data = make_broadcast(partner, courts=1, defaultScoreboardID="sb-default")
    assert data["tables"][0]["outputs"] == [{"scoreboardID": "sb-default"}]


def test_reads_never_show_internal_or_dynamic_url_identifiers(partner: Api) -> None:
    data = make_broadcast(partner)
    read = partner.get(f"/broadcasts/{data['id']}").json["data"]
    assert read == data
    for court in read["tables"]:
        assert set(court) == {"id", "label", "scoreboardIDs", "outputs"}
    assert "managerConnectionID" not in read and "outputLinkIDs" not in read


def test_fifty_courts_are_accepted(partner: Api) -> None:
    assert make_broadcast(partner, courts=50)["tableCount"] == 50


def _court_bodies(count: int) -> list[dict[str, str]]:
    return [{"label": f"Court {i}"} for i in range(count)]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"name": "B", "tables": []}, "tables"),
        ({"name": "B", "tables": _court_bodies(51)}, "tables"),
        ({"name": "B"}, "tables"),
        ({"tables": _court_bodies(1)}, "name"),
        ({"name": "", "tables": _court_bodies(1)}, "name"),
        ({"name": "x" * 121, "tables": _court_bodies(1)}, "name"),
        ({"name": 7, "tables": _court_bodies(1)}, "name"),
        ({"name": "B", "description": "d" * 801, "tables": _court_bodies(1)}, "description"),
        ({"name": "B", "tables": [{"label": ""}]}, "tables"),
        ({"name": "B", "tables": [{"label": "x" * 121}]}, "tables"),
        ({"name": "B", "tables": [{}]}, "tables"),
        ({"name": "B", "tables": [{"label": "C", "colour": "red"}]}, "tables"),
        ({"name": "B", "tables": _court_bodies(1), "scoreboardIDs": ["a", "a"]}, "scoreboardIDs"),
        ({"name": "B", "tables": _court_bodies(1), "scoreboardIDs": "a"}, "scoreboardIDs"),
        ({"name": "B", "tables": _court_bodies(1), "venue": "Hall"}, "venue"),
    ],
)
def test_invalid_create_body_is_400_and_creates_nothing(partner: Api, body: dict[str, Any], field: str) -> None:
    response = partner.post("/broadcasts", json=body)
    assert response.status_code == 400
    assert error_code(response) == "validation_failed"
    assert field in response.json["error"]["details"]["json"]
    assert partner.get("/broadcasts").json["data"] == []


def test_court_id_in_create_is_404_because_no_court_exists_yet(partner: Api) -> None:
    response = partner.post("/broadcasts", json={"name": "B", "tables": [{"id": "tbl_nope", "label": "C"}]})
    assert response.status_code == 404
    assert error_code(response) == "not_found"
    assert response.json["error"]["details"] == {"tableIDs": ["tbl_nope"]}
    assert partner.get("/broadcasts").json["data"] == []


def test_unknown_broadcast_is_404(partner: Api) -> None:
    for method in ("GET", "DELETE"):
        response = partner.request(method, "/broadcasts/brd_missing")
        assert response.status_code == 404
        assert error_code(response) == "not_found"
    response = partner.patch("/broadcasts/brd_missing", json={"name": "x"})
    assert response.status_code == 404


def test_list_returns_broadcasts_oldest_first(partner: Api) -> None:
    first, second = make_broadcast(partner), make_broadcast(partner, name="Second")
    response = partner.get("/broadcasts")
    assert response.status_code == 200
    assert [b["id"] for b in response.json["data"]] == [first["id"], second["id"]]
    assert response.json["nextCursor"] is None
    assert response.json["data"][0] == first


def test_patch_changes_fields_and_updated_on(partner: Api, clock: Any) -> None:
    data = make_broadcast(partner)
    clock.advance(60)
    response = partner.patch(f"/broadcasts/{data['id']}", json={"name": "Renamed", "scoreboardIDs": ["sb"]})
    assert response.status_code == 200
    patched = response.json["data"]
    assert patched["name"] == "Renamed"
    assert patched["updatedOn"] == "2026-11-21T10:01:00.000Z"
    assert patched["createdOn"] == data["createdOn"]
    assert patched["outputCount"] == 2
    assert [court["id"] for court in patched["tables"]] == [court["id"] for court in data["tables"]]


def test_patch_null_clears_optional_fields(partner: Api) -> None:
    data = make_broadcast(partner, description="d", defaultScoreboardID="sb", scoreboardIDs=["x"])
    patched = partner.patch(f"/broadcasts/{data['id']}", json={
        "description": None, "defaultScoreboardID": None, "scoreboardIDs": None}).json["data"]
    assert "description" not in patched and "defaultScoreboardID" not in patched
    assert patched["scoreboardIDs"] == []


@pytest.mark.parametrize("body", [{}, {"name": ""}, {"name": None}, {"tables": []}, {"extra": 1}])
def test_invalid_patch_is_400(partner: Api, body: dict[str, Any]) -> None:
    data = make_broadcast(partner)
    response = partner.patch(f"/broadcasts/{data['id']}", json=body)
    assert response.status_code == 400
    assert error_code(response) == "validation_failed"
    assert partner.get(f"/broadcasts/{data['id']}").json["data"] == data


def test_patch_tables_keeps_named_courts_creates_new_and_removes_omitted(partner: Api) -> None:
    data = make_broadcast(partner, courts=3)
    one, _two, three = (court["id"] for court in data["tables"])
    response = partner.patch(f"/broadcasts/{data['id']}", json={"tables": [
        {"id": three, "label": "Centre court", "scoreboardIDs": ["sb-centre"]},
        {"label": "Court 4"},
        {"id": one, "label": "Court 1"},
    ]})
    assert response.status_code == 200
    courts = response.json["data"]["tables"]
    assert [court["id"] for court in courts[:1] + courts[2:]] == [three, one]
    assert courts[0]["label"] == "Centre court" and courts[0]["scoreboardIDs"] == ["sb-centre"]
    assert courts[1]["id"] not in {court["id"] for court in data["tables"]}
    assert courts[1]["id"].startswith("tbl_")
    assert response.json["data"]["tableCount"] == 3
    table_ids = {table["id"] for table in partner.get("/tables").json["data"]}
    assert table_ids == {court["id"] for court in courts}


@pytest.mark.parametrize("foreign", ["tbl_unknown", "other-broadcast"])
def test_patch_with_a_court_id_of_no_court_here_is_404_and_changes_nothing(partner: Api, foreign: str) -> None:
    data = make_broadcast(partner)
    if foreign == "other-broadcast":
        foreign = make_broadcast(partner)["tables"][0]["id"]
    response = partner.patch(f"/broadcasts/{data['id']}", json={"tables": [
        {"id": data["tables"][0]["id"], "label": "Kept"}, {"id": foreign, "label": "Stolen"}]})
    assert response.status_code == 404
    assert error_code(response) == "not_found"
    assert response.json["error"]["details"] == {"tableIDs": [foreign]}
    assert partner.get(f"/broadcasts/{data['id']}").json["data"] == data


def test_patch_naming_one_court_twice_is_400(partner: Api) -> None:
    data = make_broadcast(partner)
    court = data["tables"][0]["id"]
    response = partner.patch(f"/broadcasts/{data['id']}", json={"tables": [
        {"id": court, "label": "A"}, {"id": court, "label": "B"}]})
    assert response.status_code == 400
    assert error_code(response) == "validation_failed"
    assert response.json["error"]["details"] == {"json": {"tables": {"id": [court]}}}
    assert partner.get(f"/broadcasts/{data['id']}").json["data"] == data


def _active_match_on(partner: Api, operator: Api, table_id: str) -> dict[str, Any]:
    sync_list(partner)
    match = queue_match(partner, "m-active", table_id)
    started = operator.post(f"/operator/matches/{match['id']}/start")
    assert started.status_code == 200, started.json
    return match


def test_removing_a_court_with_an_active_match_is_409_table_busy(partner: Api, operator: Api) -> None:
    data = make_broadcast(partner)
    busy, free = (court["id"] for court in data["tables"])
    _active_match_on(partner, operator, busy)
    response = partner.patch(f"/broadcasts/{data['id']}", json={"tables": [{"id": free, "label": "Only"}]})
    assert response.status_code == 409
    assert error_code(response) == "table_busy"
    assert response.json["error"]["details"] == {"tableID": busy}
    assert partner.get(f"/broadcasts/{data['id']}").json["data"] == data


def test_removing_a_court_cancels_its_pending_queue(partner: Api) -> None:
    data = make_broadcast(partner)
    gone, kept = (court["id"] for court in data["tables"])
    sync_list(partner)
    queue_match(partner, "m-pending", gone)
    response = partner.patch(f"/broadcasts/{data['id']}", json={"tables": [{"id": kept, "label": "Court 2"}]})
    assert response.status_code == 200
    assert partner.get("/matches/m-pending").status_code == 404
    assert partner.get(f"/tables/{gone}").status_code == 404


def test_delete_returns_id_and_removes_broadcast_and_tables(partner: Api) -> None:
    data = make_broadcast(partner)
    response = partner.delete(f"/broadcasts/{data['id']}")
    assert response.status_code == 200
    assert response.json == {"data": {"id": data["id"], "deleted": True}}
    assert partner.get(f"/broadcasts/{data['id']}").status_code == 404
    for court in data["tables"]:
        assert partner.get(f"/tables/{court['id']}").status_code == 404
    assert partner.get("/tables").json["data"] == []
    assert partner.delete(f"/broadcasts/{data['id']}").status_code == 404


def test_delete_with_an_active_match_is_409_and_keeps_everything(partner: Api, operator: Api) -> None:
    data = make_broadcast(partner)
    _active_match_on(partner, operator, data["tables"][0]["id"])
    response = partner.delete(f"/broadcasts/{data['id']}")
    assert response.status_code == 409
    assert error_code(response) == "table_busy"
    assert partner.get(f"/broadcasts/{data['id']}").json["data"] == data


def test_default_player_list_must_be_roster_backed(partner: Api) -> None:
    roster = partner.post("/rosters", json={"name": "Juniors", "rosterType": "individual"}).json["data"]
    backing = roster["source"]["playerListID"]
    data = make_broadcast(partner, defaultPlayerListID=backing)
    assert data["defaultPlayerListID"] == backing
    partner_list = sync_list(partner)["id"]
    for bad in (partner_list, "pl_unknown"):
        response = partner.post("/broadcasts", json={"name": "B", "tables": [{"label": "C"}],
                                                     "defaultPlayerListID": bad})
        assert response.status_code == 404
        assert error_code(response) == "not_found"
    response = partner.patch(f"/broadcasts/{data['id']}", json={"defaultPlayerListID": "pl_unknown"})
    assert response.status_code == 404


def test_deleting_the_roster_clears_the_default_player_list(partner: Api) -> None:
    roster = partner.post("/rosters", json={"name": "Juniors", "rosterType": "individual"}).json["data"]
    data = make_broadcast(partner, defaultPlayerListID=roster["source"]["playerListID"])
    assert partner.delete(f"/rosters/{roster['id']}").status_code == 200
    assert "defaultPlayerListID" not in partner.get(f"/broadcasts/{data['id']}").json["data"]


def test_every_connection_of_the_account_sees_and_changes_broadcasts(
    partner: Api, new_partner: Callable[..., Api]
) -> None:
    data = make_broadcast(partner)
    other = new_partner(name="second")
    assert [b["id"] for b in other.get("/broadcasts").json["data"]] == [data["id"]]
    assert other.patch(f"/broadcasts/{data['id']}", json={"name": "By other"}).status_code == 200
    assert partner.get(f"/broadcasts/{data['id']}").json["data"]["name"] == "By other"
    assert other.delete(f"/broadcasts/{data['id']}").status_code == 403  # contract §4: only its manager deletes
    assert partner.delete(f"/broadcasts/{data['id']}").status_code == 200


def test_read_scope_cannot_write(new_partner: Callable[..., Api]) -> None:
    reader = new_partner(scope="broadcasts.read")
    assert reader.get("/broadcasts").status_code == 200
    response = reader.post("/broadcasts", json={"name": "B", "tables": [{"label": "C"}]})
    assert response.status_code == 403
    assert error_code(response) == "insufficient_scope"
    assert response.json["error"]["details"] == {"requiredScope": "broadcasts.write"}
    writer = new_partner(scope="broadcasts.write")
    assert writer.get("/broadcasts").status_code == 403
    assert writer.post("/broadcasts", json={"name": "B", "tables": [{"label": "C"}]}).status_code == 201


def test_no_credential_is_401(partner: Api) -> None:
    response = partner.get("/broadcasts", token=None)
    assert response.status_code == 401
    assert error_code(response) == "authentication_required"


def test_string_and_array_bounds_are_accepted_at_the_limit(partner: Api) -> None:
    data = make_broadcast(partner, courts=1, name="n" * 120, description="d" * 800, defaultScoreboardID="s" * 500,
                          scoreboardIDs=[f"sb-{i}" for i in range(100)])
    assert data["outputCount"] == 100
    patched = partner.patch(f"/broadcasts/{data['id']}", json={"tables": [
        {"id": data["tables"][0]["id"], "label": "l" * 120, "scoreboardIDs": ["x" * 500]}]}).json["data"]
    assert patched["tables"][0]["label"] == "l" * 120
    assert patched["outputCount"] == 1


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"defaultScoreboardID": "s" * 501}, "defaultScoreboardID"),
        ({"defaultPlayerListID": ""}, "defaultPlayerListID"),
        ({"scoreboardIDs": [f"sb-{i}" for i in range(101)]}, "scoreboardIDs"),
        ({"scoreboardIDs": ["x" * 501]}, "scoreboardIDs"),
        ({"tables": [{"label": "C", "scoreboardIDs": ["a", "a"]}]}, "tables"),
        ({"tables": [{"label": "C", "id": ""}]}, "tables"),
    ],
)
def test_over_the_limit_is_400(partner: Api, change: dict[str, Any], field: str) -> None:
    response = partner.post("/broadcasts", json={"name": "B", "tables": [{"label": "C"}]} | change)
    assert response.status_code == 400
    assert field in response.json["error"]["details"]["json"]
