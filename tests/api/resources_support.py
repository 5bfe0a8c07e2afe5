"""Small builders shared by the account-resource tests (broadcasts, lists, teams, tables, pagination)."""

from __future__ import annotations

from typing import Any

from tests.conftest import Api


def player(external_id: str, **fields: Any) -> dict[str, Any]:
    return {"externalID": external_id, "firstName": f"First {external_id}", "lastName": "Last"} | fields


def make_broadcast(api: Api, courts: int = 2, **fields: Any) -> dict[str, Any]:
    body = {"name": "Club Open", "tables": [{"label": f"Court {i + 1}"} for i in range(courts)]} | fields
    response = api.post("/broadcasts", json=body)
    assert response.status_code == 201, response.json
    data: dict[str, Any] = response.json["data"]
    return data


def table_ids(api: Api, courts: int = 2) -> list[str]:
    return [court["id"] for court in make_broadcast(api, courts)["tables"]]


def sync_list(api: Api, external_id: str = "list-1", players: list[dict[str, Any]] | None = None,
              **fields: Any) -> dict[str, Any]:
    body = {"externalID": external_id, "name": f"List {external_id}",
            "players": players if players is not None else [player("p1"), player("p2")]} | fields
    response = api.put("/player-lists", json=body)
    assert response.status_code == 200, response.json
    data: dict[str, Any] = response.json["data"]
    return data


def queue_match(api: Api, external_id: str, table_id: str, list_external_id: str = "list-1") -> dict[str, Any]:
    body = {"externalID": external_id, "tableID": table_id, "playerListExternalID": list_external_id}
    response = api.put("/matches", json=body)
    assert response.status_code == 200, response.json
    data: dict[str, Any] = response.json["data"]
    return data


def walk(api: Api, path: str, limit: int) -> list[dict[str, Any]]:
    """Every item of a list endpoint, page by page through `nextCursor`; asserts no page repeats an item."""
    items: list[dict[str, Any]] = []
    cursor: str | None = None
    while True:
        query = f"?limit={limit}" + (f"&cursor={cursor}" if cursor else "")
        response = api.get(path + query)
        assert response.status_code == 200, response.json
        assert len(response.json["data"]) <= limit
        items.extend(response.json["data"])
        cursor = response.json["nextCursor"]
        if cursor is None:
            break
    ids = [item["id"] for item in items]
    assert len(ids) == len(set(ids))
    return items


def error_code(response: Any) -> str:
    return str(response.json["error"]["code"])
