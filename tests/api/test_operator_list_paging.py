"""Contract §2 on the operator lists that used to answer everything with `nextCursor: null`: the people of a
broadcast, its draws, its court pool, its outputs and the scoreboard designs page like every other list (`limit`
1-100, default 50, `nextCursor` to the next page, `400 invalid_cursor`), through the one `domain.pagination`."""

from __future__ import annotations

from typing import Any

import pytest

from domain.pagination import encode_cursor
from tests.api.resources_support import error_code, make_broadcast
from tests.conftest import Api

Json = dict[str, Any]

#: each list, and what identifies one of its items
LISTS = {"people": "personID", "draws": "id", "pool": "id", "outputs": "id", "scoreboards": "id"}


def path_of(name: str, broadcast_id: str) -> str:
    return {"people": f"/operator/broadcasts/{broadcast_id}/people",
            "draws": f"/operator/draws?broadcastID={broadcast_id}",
            "pool": f"/operator/broadcasts/{broadcast_id}/pool",
            "outputs": f"/operator/broadcasts/{broadcast_id}/outputs",
            "scoreboards": "/operator/scoreboards"}[name]


def with_query(path: str, query: str) -> str:
    return path + ("&" if "?" in path else "?") + query


def draw(operator: Api, broadcast_id: str, name: str, players: list[str]) -> Json:
    made = operator.post("/operator/draws", json={
        "broadcastID": broadcast_id, "name": name, "format": "round_robin", "bestOf": 1, "randomSeed": 3,
        "entries": [{"players": [{"manualName": player}]} for player in players]})
    assert made.status_code == 201, made.json
    return dict(made.json["data"])


@pytest.fixture
def broadcast_id(partner: Api, operator: Api) -> str:
    """Two courts with two scoreboards each (5 outputs), three round-robin draws of 3 players (9 people, 9 matches
    in the pool)."""
    broadcast = make_broadcast(partner, 2, scoreboardIDs=["classic", "lowerthird"])
    for number in range(3):
        draw(operator, broadcast["id"], f"Group {number + 1}", [f"Player {number}{i}" for i in range(3)])
    return str(broadcast["id"])


def walk(api: Api, path: str, limit: int, key: str) -> list[Json]:
    """Every item of a list, page by page through `nextCursor`; no page is longer than `limit`, none repeats."""
    items: list[Json] = []
    cursor: str | None = None
    for _ in range(100):
        response = api.get(with_query(path, f"limit={limit}" + (f"&cursor={cursor}" if cursor else "")))
        assert response.status_code == 200, response.json
        assert 1 <= len(response.json["data"]) <= limit
        items.extend(response.json["data"])
        cursor = response.json["nextCursor"]
        if cursor is None:
            break
    assert len({item[key] for item in items}) == len(items)
    return items


@pytest.mark.parametrize("name", list(LISTS))
def test_limit_one_gives_one_item_and_a_cursor_to_the_next(operator: Api, broadcast_id: str, name: str) -> None:
    path = path_of(name, broadcast_id)
    everything = operator.get(with_query(path, "limit=100")).json
    assert len(everything["data"]) >= 3 and everything["nextCursor"] is None
    first = operator.get(with_query(path, "limit=1"))
    assert first.status_code == 200, first.json
    assert first.json["data"] == everything["data"][:1]
    assert first.json["nextCursor"] is not None
    second = operator.get(with_query(path, f"limit=1&cursor={first.json['nextCursor']}"))
    assert second.json["data"] == everything["data"][1:2]
    assert walk(operator, path, 1, LISTS[name]) == everything["data"]
    assert walk(operator, path, 2, LISTS[name]) == everything["data"]


def test_the_lists_keep_their_orders(operator: Api, broadcast_id: str) -> None:
    names = [row["name"] for row in walk(operator, path_of("people", broadcast_id), 2, "personID")]
    assert names == sorted(names) and len(names) == 9
    draws = walk(operator, path_of("draws", broadcast_id), 1, "id")
    assert [d["name"] for d in draws] == ["Group 1", "Group 2", "Group 3"]
    outputs = walk(operator, path_of("outputs", broadcast_id), 2, "id")
    assert [(o["kind"], o["tableLabel"], o["scoreboardID"]) for o in outputs][-1][0] == "venue"
    assert len(outputs) == 5


@pytest.mark.parametrize("name", list(LISTS))
@pytest.mark.parametrize("cursor", ["zzz", "not-a-cursor!", "e30", encode_cursor(3)[:-2] + "~~"])
def test_a_cursor_that_cannot_be_decoded_is_400_invalid_cursor(operator: Api, broadcast_id: str, name: str,
                                                              cursor: str) -> None:
    response = operator.get(with_query(path_of(name, broadcast_id), f"cursor={cursor}"))
    assert response.status_code == 400, response.json
    assert error_code(response) == "invalid_cursor"


@pytest.mark.parametrize(("name", "cursor"), [
    ("people", encode_cursor(3)), ("pool", encode_cursor("player 01")), ("outputs", encode_cursor(2)),
    ("draws", encode_cursor("Group 1")), ("scoreboards", encode_cursor((0, 1)))])
def test_a_well_formed_cursor_not_issued_by_this_list_is_400_invalid_cursor(
        operator: Api, broadcast_id: str, name: str, cursor: str) -> None:
    """A cursor is bound to the list that gave it (contract §23): a well-formed one of another list, or one made
    up, is `400 invalid_cursor`."""
    response = operator.get(with_query(path_of(name, broadcast_id), f"cursor={cursor}"))
    assert response.status_code == 400, response.json
    assert response.json["error"]["code"] == "invalid_cursor"


@pytest.mark.parametrize("name", list(LISTS))
@pytest.mark.parametrize("limit", ["0", "101", "-1", "two"])
def test_a_bad_limit_is_400_validation_failed(operator: Api, broadcast_id: str, name: str, limit: str) -> None:
    response = operator.get(with_query(path_of(name, broadcast_id), f"limit={limit}"))
    assert response.status_code == 400, response.json
    assert error_code(response) == "validation_failed"
    assert "limit" in response.json["error"]["details"]["query"]


def test_people_default_to_pages_of_fifty(operator: Api) -> None:
    made = operator.post("/operator/broadcasts", json={"name": "Big day", "tables": [{"label": "Court 1"}]})
    assert made.status_code == 201, made.json
    broadcast_id, table_id = made.json["data"]["id"], made.json["data"]["tables"][0]["id"]
    for i in range(26):
        queued = operator.post("/operator/matches", json={
            "tableID": table_id, "playerA": {"manualName": f"A{i:02}"}, "playerB": {"manualName": f"B{i:02}"}})
        assert queued.status_code == 201, queued.json
    path = path_of("people", broadcast_id)
    first = operator.get(path)
    assert len(first.json["data"]) == 50 and first.json["nextCursor"] is not None
    rest = operator.get(f"{path}?cursor={first.json['nextCursor']}")
    assert [row["name"] for row in rest.json["data"]] == ["B24", "B25"] and rest.json["nextCursor"] is None


def test_a_pool_walk_neither_skips_nor_repeats_when_a_match_leaves_the_pool(operator: Api, partner: Api,
                                                                           broadcast_id: str) -> None:
    path = path_of("pool", broadcast_id)
    everything = [m["id"] for m in operator.get(f"{path}?limit=100").json["data"]]
    first = operator.get(f"{path}?limit=3").json
    court = operator.get("/operator/tables?limit=100").json["data"][0]["id"]
    started = operator.post(f"/operator/tables/{court}/start-next", json={})
    assert started.status_code == 200, started.json
    assert started.json["data"]["id"] == everything[0]  # the pool's first match left the pool
    rest = walk(operator, f"{path}?cursor={first['nextCursor']}", 100, "id")
    assert [m["id"] for m in first["data"]] + [m["id"] for m in rest] == everything
