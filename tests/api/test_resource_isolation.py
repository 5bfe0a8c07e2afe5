"""Two connections on one account: lists, teams and tables are each connection's own (contract §4)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.api.resources_support import error_code, make_broadcast, player, sync_list
from tests.conftest import Api


@pytest.fixture
def pair(new_partner: Callable[..., Api]) -> tuple[Api, Api]:
    return new_partner(name="first"), new_partner(name="second")


def test_same_external_id_on_two_connections_makes_two_lists(pair: tuple[Api, Api]) -> None:
    first, second = pair
    mine = sync_list(first, "shared-id", [player("a")])
    theirs = sync_list(second, "shared-id", [player("b")])
    assert mine["id"] != theirs["id"]
    assert [p["externalID"] for p in first.get("/player-lists/shared-id").json["data"]["players"]] == ["a"]
    assert [p["externalID"] for p in second.get("/player-lists/shared-id").json["data"]["players"]] == ["b"]


def test_a_connection_cannot_see_or_change_another_connections_list(pair: tuple[Api, Api]) -> None:
    first, second = pair
    before = sync_list(first, "club", [player("a")])
    assert second.get("/player-lists").json == {"data": [], "nextCursor": None}
    for response in (second.get("/player-lists/club"), second.patch("/player-lists/club", json={"name": "Mine"})):
        assert response.status_code == 404
        assert error_code(response) == "not_found"
    assert first.get("/player-lists/club").json["data"] == before


def test_a_connection_cannot_see_or_change_another_connections_team(pair: tuple[Api, Api]) -> None:
    first, second = pair
    response = first.put("/teams", json={"externalID": "falcons", "name": "Falcons", "players": [player("a")]})
    before = response.json["data"]
    assert second.get("/teams").json == {"data": [], "nextCursor": None}
    for response in (second.get("/teams/falcons"), second.patch("/teams/falcons", json={"name": "Mine"})):
        assert response.status_code == 404
    assert first.get("/teams/falcons").json["data"] == before
    own = second.put("/teams", json={"externalID": "falcons", "name": "Other Falcons", "players": []}).json["data"]
    assert own["id"] != before["id"] and own["roster"]["id"] != before["roster"]["id"]


def test_a_connection_cannot_read_or_assign_another_connections_tables(pair: tuple[Api, Api]) -> None:
    first, second = pair
    broadcast = make_broadcast(first, courts=2)
    sync_list(second, "list-2")
    assert second.get("/tables").json == {"data": [], "nextCursor": None}
    table = broadcast["tables"][0]["id"]
    assert second.get(f"/tables/{table}").status_code == 403
    response = second.patch("/tables/bulk", json={"tables": [{"tableID": table, "playerListExternalID": "list-2"}]})
    assert response.status_code == 207
    assert response.json["data"]["results"][0]["error"]["code"] == "table_not_managed"
    assert first.get(f"/tables/{table}").json["data"]["playerListExternalID"] is None


def test_a_connection_cannot_assign_another_connections_list_to_its_table(pair: tuple[Api, Api]) -> None:
    first, second = pair
    table = make_broadcast(first, courts=1)["tables"][0]["id"]
    sync_list(second, "only-theirs")
    response = first.patch(f"/tables/{table}", json={"playerListExternalID": "only-theirs"})
    assert response.status_code == 404


def test_handover_moves_management_and_clears_the_old_assignment(
    pair: tuple[Api, Api], operator: Api
) -> None:
    first, second = pair
    broadcast = make_broadcast(first, courts=1)
    table = broadcast["tables"][0]["id"]
    sync_list(first, "list-1")
    assert first.patch(f"/tables/{table}", json={"playerListExternalID": "list-1"}).status_code == 200
    second_id = second.get("/connection").json["data"]["connectionID"]
    response = operator.post(f"/operator/broadcasts/{broadcast['id']}/handover", json={"connectionID": second_id})
    assert response.status_code == 200
    assert response.json["data"]["managerConnectionID"] == second_id
    assert first.get(f"/tables/{table}").status_code == 403
    data = second.get(f"/tables/{table}").json["data"]
    assert data["playerListExternalID"] is None
    assert [t["id"] for t in second.get("/tables").json["data"]] == [table]


def test_another_connection_cannot_change_a_broadcasts_tables_403(
    partner: Api, new_partner: Callable[..., Api],
) -> None:
    """Contract §4: changing `tables` needs the managing connection; the other fields any connection."""
    other = new_partner(name="other")
    broadcast = make_broadcast(partner)
    before = partner.get(f"/broadcasts/{broadcast['id']}").json["data"]
    response = other.patch(f"/broadcasts/{broadcast['id']}", json={"tables": [{"label": "Mine now"}]})
    assert response.status_code == 403
    assert response.json["error"]["code"] == "table_not_managed"
    assert partner.get(f"/broadcasts/{broadcast['id']}").json["data"] == before
    renamed = other.patch(f"/broadcasts/{broadcast['id']}", json={"name": "Renamed by a peer"})
    assert renamed.status_code == 200 and renamed.json["data"]["name"] == "Renamed by a peer"
    assert partner.patch(f"/broadcasts/{broadcast['id']}", json={"tables": [{"label": "One"}]}).status_code == 200


def test_another_connection_cannot_delete_a_broadcast_403(partner: Api, new_partner: Callable[..., Api]) -> None:
    other = new_partner(name="other")
    broadcast = make_broadcast(partner)
    response = other.delete(f"/broadcasts/{broadcast['id']}")
    assert response.status_code == 403
    assert response.json["error"]["code"] == "table_not_managed"
    assert partner.get(f"/broadcasts/{broadcast['id']}").status_code == 200
    assert partner.delete(f"/broadcasts/{broadcast['id']}").status_code == 200
