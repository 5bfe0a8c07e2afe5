"""Player lists: idempotent sync by externalID, patch, reads, bounds, and the "mapped players only" rule."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from storage.engine import Store
from storage.repository import unit_of_work
from tests.api.resources_support import error_code, player, sync_list
from tests.conftest import Api


def _externals(data: dict[str, Any]) -> list[str | None]:
    return [p.get("externalID") for p in data["players"]]


def test_put_creates_the_list_and_returns_it_whole(partner: Api) -> None:
    response = partner.put("/player-lists", json={
        "externalID": "club-a", "name": "Club A", "description": "All members",
        "players": [player("p1", ranking=3, rating="1500", country="NL", firstNameInitial=True), player("p2")],
    })
    assert response.status_code == 200
    data = response.json["data"]
    assert data["id"].startswith("pl_")
    assert data == {
        "id": data["id"], "externalID": "club-a", "name": "Club A", "description": "All members",
        "playerCount": 2,
        "players": [
            {"externalID": "p1", "firstName": "First p1", "lastName": "Last", "ranking": 3, "rating": "1500",
             "country": "NL", "firstNameInitial": True, "source": "mapped"},
            {"externalID": "p2", "firstName": "First p2", "lastName": "Last", "source": "mapped"},
        ],
        "createdOn": "2026-11-21T10:00:00.000Z", "updatedOn": "2026-11-21T10:00:00.000Z",
    }
    assert partner.get("/player-lists/club-a").json == {"data": data}


def test_put_twice_with_one_external_id_leaves_one_record_with_the_new_players(partner: Api, clock: Any) -> None:
    first = sync_list(partner, "club-a", [player("p1"), player("p2")])
    clock.advance(30)
    second = sync_list(partner, "club-a", [player("p3")], name="Renamed")
    assert second["id"] == first["id"]
    assert second["name"] == "Renamed"
    assert _externals(second) == ["p3"]
    assert second["createdOn"] == first["createdOn"]
    assert second["updatedOn"] == "2026-11-21T10:00:30.000Z"
    assert [item["id"] for item in partner.get("/player-lists").json["data"]] == [first["id"]]
    again = sync_list(partner, "club-a", [player("p3")], name="Renamed")
    assert again["players"] == second["players"]


def test_put_without_description_clears_it(partner: Api) -> None:
    sync_list(partner, "club-a", description="first")
    assert "description" not in sync_list(partner, "club-a")


def _too_many(count: int) -> list[dict[str, str]]:
    return [{"externalID": f"p{i}"} for i in range(count)]


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"externalID": None}, "externalID"),
        ({"externalID": ""}, "externalID"),
        ({"name": ""}, "name"),
        ({"name": "n" * 121}, "name"),
        ({"description": "d" * 801}, "description"),
        ({"players": None}, "players"),
        ({"players": _too_many(5001)}, "players"),
        ({"players": [{"firstName": "no id"}]}, "players"),
        ({"players": [{"externalID": "p1", "firstName": "f" * 121}]}, "players"),
        ({"players": [{"externalID": "p1", "imageURL": "u" * 1001}]}, "players"),
        ({"players": [{"externalID": "p1", "country": "c" * 501}]}, "players"),
        ({"players": [{"externalID": "p1", "ranking": True}]}, "players"),
        ({"players": [{"externalID": "p1", "rating": [1]}]}, "players"),
        ({"players": [{"externalID": "p1", "firstNameInitial": "true"}]}, "players"),
        ({"players": [{"externalID": "p1", "nickname": "Ace"}]}, "players"),
        ({"players": [{"externalID": "p1"}, {"externalID": "p1"}]}, "players"),
        ({"owner": "me"}, "owner"),
    ],
)
def test_invalid_sync_body_is_400_and_applies_nothing(partner: Api, change: dict[str, Any], field: str) -> None:
    body = {"externalID": "club-a", "name": "Club A", "players": [player("p1")]} | change
    body = {key: value for key, value in body.items() if value is not None}
    response = partner.put("/player-lists", json=body)
    assert response.status_code == 400
    assert error_code(response) == "validation_failed"
    assert field in response.json["error"]["details"]["json"]
    assert partner.get("/player-lists").json["data"] == []


def test_five_thousand_players_are_accepted(partner: Api) -> None:
    assert sync_list(partner, "big", _too_many(5000))["playerCount"] == 5000


def test_unknown_list_is_404(partner: Api) -> None:
    assert partner.get("/player-lists/nope").status_code == 404
    response = partner.patch("/player-lists/nope", json={"name": "x"})
    assert response.status_code == 404
    assert error_code(response) == "not_found"


def test_patch_upserts_in_place_appends_new_and_removes(partner: Api, clock: Any) -> None:
    sync_list(partner, "club-a", [player("p1"), player("p2"), player("p3")])
    clock.advance(1)
    response = partner.patch("/player-lists/club-a", json={
        "upsert": [{"externalID": "p2", "lastName": "Replaced"}, player("p4")],
        "removeExternalIDs": ["p1", "not-mapped"],
    })
    assert response.status_code == 200
    data = response.json["data"]
    assert _externals(data) == ["p2", "p3", "p4"]
    assert data["players"][0] == {"externalID": "p2", "lastName": "Replaced", "source": "mapped"}
    assert data["playerCount"] == 3
    assert data["updatedOn"] == "2026-11-21T10:00:01.000Z"
    assert partner.get("/player-lists/club-a").json["data"] == data


def test_patch_name_and_description_only(partner: Api) -> None:
    before = sync_list(partner, "club-a")
    data = partner.patch("/player-lists/club-a", json={"name": "New", "description": "Desc"}).json["data"]
    assert (data["name"], data["description"]) == ("New", "Desc")
    assert data["players"] == before["players"]


def test_patch_with_one_external_id_in_upsert_and_remove_is_conflicting_patch(partner: Api) -> None:
    before = sync_list(partner, "club-a")
    response = partner.patch("/player-lists/club-a", json={
        "upsert": [player("p1")], "removeExternalIDs": ["p1"], "name": "Never"})
    assert response.status_code == 400
    assert error_code(response) == "conflicting_patch"
    assert partner.get("/player-lists/club-a").json["data"] == before


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, None),
        ({"upsert": _too_many(501)}, "upsert"),
        ({"removeExternalIDs": [f"p{i}" for i in range(501)]}, "removeExternalIDs"),
        ({"removeExternalIDs": ["p1", "p1"]}, "removeExternalIDs"),
        ({"upsert": [{"externalID": "p9"}, {"externalID": "p9"}]}, "upsert"),
        ({"upsert": [{"lastName": "no id"}]}, "upsert"),
        ({"name": ""}, "name"),
        ({"name": "n" * 121}, "name"),
        ({"description": "d" * 801}, "description"),
        ({"players": []}, "players"),
    ],
)
def test_invalid_patch_is_400_and_applies_nothing(partner: Api, body: dict[str, Any], field: str | None) -> None:
    before = sync_list(partner, "club-a")
    response = partner.patch("/player-lists/club-a", json=body)
    assert response.status_code == 400
    assert error_code(response) == "validation_failed"
    if field is not None:
        assert field in response.json["error"]["details"]["json"]
    assert partner.get("/player-lists/club-a").json["data"] == before


def test_patch_at_the_bounds_is_accepted(partner: Api) -> None:
    sync_list(partner, "club-a", [])
    response = partner.patch("/player-lists/club-a", json={
        "upsert": _too_many(500), "name": "n" * 120, "description": "d" * 800})
    assert response.status_code == 200
    assert response.json["data"]["playerCount"] == 500
    response = partner.patch("/player-lists/club-a", json={"removeExternalIDs": [f"p{i}" for i in range(500)]})
    assert response.json["data"]["playerCount"] == 0


def test_manual_entries_survive_sync_and_patch(partner: Api, operator: Api) -> None:
    data = sync_list(partner, "club-a", [player("p1")])
    added = operator.post(f"/operator/player-lists/{data['id']}/players",
                          json={"externalID": "w1", "firstName": "Walk-in"})
    assert added.status_code == 201
    synced = sync_list(partner, "club-a", [player("p2")])
    assert [(p.get("externalID"), p["source"]) for p in synced["players"]] == [("p2", "mapped"), ("w1", "manual")]
    patched = partner.patch("/player-lists/club-a", json={"removeExternalIDs": ["w1", "p2"]}).json["data"]
    assert patched["players"] == [{"externalID": "w1", "firstName": "Walk-in", "source": "manual"}]
    emptied = sync_list(partner, "club-a", [])
    assert emptied["playerCount"] == 1


def test_players_mapped_by_another_connection_survive_sync_and_patch(partner: Api, store: Store) -> None:
    data = sync_list(partner, "club-a", [player("p1")])
    foreign = {"externalID": "x1", "firstName": "Foreign", "source": "mapped", "connectionID": "conn_other"}
    with unit_of_work(store) as uow:
        record = uow.player_lists.get(data["id"])
        assert record is not None
        record.players.append(foreign)
        uow.player_lists.put(record)
    synced = sync_list(partner, "club-a", [player("x1")])
    assert [p["externalID"] for p in synced["players"]] == ["x1", "x1"]
    patched = partner.patch("/player-lists/club-a", json={"removeExternalIDs": ["x1"]}).json["data"]
    assert patched["players"] == [{"externalID": "x1", "firstName": "Foreign", "source": "mapped"}]
    with unit_of_work(store) as uow:
        record = uow.player_lists.get(data["id"])
        assert record is not None and record.players == [foreign]


def test_player_list_scopes(new_partner: Callable[..., Api]) -> None:
    reader = new_partner(scope="player_lists.read")
    assert reader.get("/player-lists").status_code == 200
    body = {"externalID": "a", "name": "A", "players": []}
    for response in (reader.put("/player-lists", json=body), reader.patch("/player-lists/a", json={"name": "b"})):
        assert response.status_code == 403
        assert response.json["error"]["details"] == {"requiredScope": "player_lists.write"}
    writer = new_partner(scope="player_lists.write")
    assert writer.put("/player-lists", json=body).status_code == 200
    response = writer.get("/player-lists/a")
    assert response.status_code == 403
    assert response.json["error"]["details"] == {"requiredScope": "player_lists.read"}


PLAYER_BOUNDS = [("externalID", 200), ("firstName", 120), ("lastName", 120), ("country", 500), ("clubName", 120),
                 ("gender", 500), ("imageURL", 1000), ("jerseyColor", 120), ("ranking", 500), ("rating", 500)]


@pytest.mark.parametrize(("field", "longest"), PLAYER_BOUNDS)
def test_each_player_string_is_bounded(partner: Api, field: str, longest: int) -> None:
    at_bound = {"externalID": "p1", field: "x" * longest}
    response = partner.put("/player-lists", json={"externalID": "l", "name": "L", "players": [at_bound]})
    assert response.status_code == 200
    assert response.json["data"]["players"][0][field] == "x" * longest
    over = {"externalID": "p1", field: "x" * (longest + 1)}
    response = partner.patch("/player-lists/l", json={"upsert": [over]})
    assert response.status_code == 400
    assert error_code(response) == "validation_failed"
    assert field in response.json["error"]["details"]["json"]["upsert"]["0"]


@pytest.mark.parametrize("value", [0, -3, 1500.5, "A", ""])
def test_ranking_and_rating_take_a_number_or_a_string(partner: Api, value: object) -> None:
    data = sync_list(partner, "l", [{"externalID": "p1", "ranking": value, "rating": value}])
    assert data["players"][0]["ranking"] == value and data["players"][0]["rating"] == value
