"""Tables: the caller's managed courts, player-list assignment (single and bulk), 403/404 rules (contract §4)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.api.resources_support import error_code, make_broadcast, queue_match, sync_list, table_ids
from tests.conftest import Api


def test_get_tables_lists_managed_tables_with_an_empty_queue(partner: Api) -> None:
    broadcast = make_broadcast(partner)
    response = partner.get("/tables")
    assert response.status_code == 200
    assert response.json == {"data": [
        {"id": court["id"], "label": court["label"], "broadcastID": broadcast["id"], "playerListExternalID": None,
         "activeMatch": None, "queue": []}
        for court in broadcast["tables"]
    ], "nextCursor": None}


def test_table_read_shows_active_match_and_queue_in_order(partner: Api, operator: Api) -> None:
    table, _ = table_ids(partner)
    sync_list(partner)
    first = queue_match(partner, "m1", table)
    queue_match(partner, "m2", table)
    queue_match(partner, "m3", table)
    assert operator.post(f"/operator/matches/{first['id']}/start").status_code == 200
    data = partner.get(f"/tables/{table}").json["data"]
    assert data["activeMatch"]["externalID"] == "m1"
    assert data["activeMatch"]["status"] == "active"
    assert [(m["externalID"], m["queuePosition"]) for m in data["queue"]] == [("m2", 1), ("m3", 2)]


def test_table_read_shows_only_the_callers_matches(
    partner: Api, operator: Api, new_partner: Callable[..., Api]
) -> None:
    other = new_partner(name="second")
    other_conn = other.get("/connection").json["data"]["connectionID"]
    broadcast = make_broadcast(partner, courts=1)
    table = broadcast["tables"][0]["id"]
    sync_list(partner)
    queue_match(partner, "mine-before-handover", table)
    handed = operator.post(f"/operator/broadcasts/{broadcast['id']}/handover", json={"connectionID": other_conn})
    assert handed.status_code == 200
    sync_list(other)
    queue_match(other, "theirs", table)
    assert [m["externalID"] for m in other.get(f"/tables/{table}").json["data"]["queue"]] == ["theirs"]
    every = operator.get("/operator/tables").json["data"]
    assert [m["externalID"] for m in every[0]["queue"]] == ["mine-before-handover", "theirs"]


def test_table_of_the_account_not_managed_by_caller_is_403(partner: Api, new_partner: Callable[..., Api]) -> None:
    table, _ = table_ids(partner)
    other = new_partner(name="second")
    sync_list(other)
    assert other.get("/tables").json["data"] == []
    for response in (other.get(f"/tables/{table}"),
                     other.patch(f"/tables/{table}", json={"playerListExternalID": "list-1"})):
        assert response.status_code == 403
        assert error_code(response) == "table_not_managed"
    assert partner.get(f"/tables/{table}").json["data"]["playerListExternalID"] is None


def test_unknown_table_is_404(partner: Api) -> None:
    sync_list(partner)
    for response in (partner.get("/tables/tbl_missing"),
                     partner.patch("/tables/tbl_missing", json={"playerListExternalID": "list-1"})):
        assert response.status_code == 404
        assert error_code(response) == "not_found"


def test_assign_and_clear_a_player_list(partner: Api, clock: Any) -> None:
    table, _ = table_ids(partner)
    sync_list(partner, "list-1")
    response = partner.patch(f"/tables/{table}", json={"playerListExternalID": "list-1"})
    assert response.status_code == 200
    assert response.json["data"]["playerListExternalID"] == "list-1"
    assert partner.get(f"/tables/{table}").json["data"]["playerListExternalID"] == "list-1"
    cleared = partner.patch(f"/tables/{table}", json={"playerListExternalID": None})
    assert cleared.status_code == 200
    assert cleared.json["data"]["playerListExternalID"] is None


def test_assigning_a_list_that_is_not_the_callers_is_404(partner: Api, new_partner: Callable[..., Api]) -> None:
    table, _ = table_ids(partner)
    sync_list(new_partner(name="second"), "their-list")
    for name in ("their-list", "no-such-list"):
        response = partner.patch(f"/tables/{table}", json={"playerListExternalID": name})
        assert response.status_code == 404
        assert error_code(response) == "not_found"
    assert partner.get(f"/tables/{table}").json["data"]["playerListExternalID"] is None


@pytest.mark.parametrize(
    "body",
    [{}, {"playerListExternalID": 5}, {"playerListExternalID": ""}, {"playerListExternalID": "x" * 501},
     {"playerListExternalID": "list-1", "tableID": "tbl_x"}],
)
def test_invalid_assignment_body_is_400(partner: Api, body: dict[str, Any]) -> None:
    table, _ = table_ids(partner)
    sync_list(partner)
    response = partner.patch(f"/tables/{table}", json=body)
    assert response.status_code == 400
    assert error_code(response) == "validation_failed"


def test_bulk_assignment_all_succeeded_is_200_with_ordered_results(partner: Api) -> None:
    first, second = table_ids(partner)
    sync_list(partner, "list-1")
    response = partner.patch("/tables/bulk", json={"tables": [
        {"tableID": second, "playerListExternalID": "list-1"}, {"tableID": first, "playerListExternalID": None}]})
    assert response.status_code == 200
    body = response.json["data"]
    assert (body["succeeded"], body["failed"]) == (2, 0)
    assert [(r["index"], r["tableID"], r["status"]) for r in body["results"]] == [(0, second, 200), (1, first, 200)]
    assert body["results"][0]["data"]["playerListExternalID"] == "list-1"
    assert body["results"][0]["data"]["id"] == second
    assert "error" not in body["results"][0]


def test_bulk_assignment_with_failures_is_207_and_keeps_the_successes(
    partner: Api, new_partner: Callable[..., Api]
) -> None:
    mine, also_mine = table_ids(partner)
    other = new_partner(name="second")
    theirs = table_ids(other, courts=1)[0]
    sync_list(partner, "list-1")
    response = partner.patch("/tables/bulk", json={"tables": [
        {"tableID": mine, "playerListExternalID": "list-1"},
        {"tableID": "tbl_missing", "playerListExternalID": "list-1"},
        {"tableID": theirs, "playerListExternalID": "list-1"},
        {"tableID": also_mine, "playerListExternalID": "unknown-list"},
    ]})
    assert response.status_code == 207
    body = response.json["data"]
    assert (body["succeeded"], body["failed"]) == (1, 3)
    results = body["results"]
    assert [(r["index"], r["tableID"], r["status"]) for r in results] == [
        (0, mine, 200), (1, "tbl_missing", 404), (2, theirs, 403), (3, also_mine, 404)]
    assert [r.get("error", {}).get("code") for r in results] == [None, "not_found", "table_not_managed", "not_found"]
    assert all("data" not in r for r in results[1:])
    assert partner.get(f"/tables/{mine}").json["data"]["playerListExternalID"] == "list-1"
    assert partner.get(f"/tables/{also_mine}").json["data"]["playerListExternalID"] is None
    assert other.get(f"/tables/{theirs}").json["data"]["playerListExternalID"] is None


def test_bulk_with_a_duplicate_table_is_400_duplicate_table_and_applies_nothing(partner: Api) -> None:
    first, second = table_ids(partner)
    sync_list(partner)
    response = partner.patch("/tables/bulk", json={"tables": [
        {"tableID": first, "playerListExternalID": "list-1"},
        {"tableID": second, "playerListExternalID": "list-1"},
        {"tableID": first, "playerListExternalID": None},
    ]})
    assert response.status_code == 400
    assert error_code(response) == "duplicate_table"
    assert all(t["playerListExternalID"] is None for t in partner.get("/tables").json["data"])


def _items(tables: list[str]) -> list[dict[str, Any]]:
    return [{"tableID": table, "playerListExternalID": "list-1"} for table in tables]


@pytest.mark.parametrize(
    "body",
    [
        {"tables": []},
        {"tables": [{"tableID": f"tbl_{i}", "playerListExternalID": None} for i in range(101)]},
        {},
        {"tables": "all"},
        {"tables": [], "more": True},
    ],
)
def test_malformed_bulk_batch_is_400(partner: Api, body: dict[str, Any]) -> None:
    response = partner.patch("/tables/bulk", json=body)
    assert response.status_code == 400
    assert error_code(response) == "validation_failed"


@pytest.mark.parametrize(
    "bad_item",
    [
        {"tableID": "tbl_x"},
        {"playerListExternalID": "list-1"},
        {"tableID": 7, "playerListExternalID": "list-1"},
        {"tableID": "tbl_x", "playerListExternalID": "list-1", "extra": 1},
        {"tableID": "", "playerListExternalID": "list-1"},
    ],
)
def test_one_malformed_item_fails_the_whole_batch_before_anything_applies(
    partner: Api, bad_item: dict[str, Any]
) -> None:
    first, _ = table_ids(partner)
    sync_list(partner)
    response = partner.patch("/tables/bulk", json={"tables": _items([first]) + [bad_item]})
    assert response.status_code == 400
    assert error_code(response) == "validation_failed"
    assert "tables" in response.json["error"]["details"]["json"]
    assert partner.get(f"/tables/{first}").json["data"]["playerListExternalID"] is None


def test_bulk_accepts_one_hundred_tables(partner: Api) -> None:
    tables = table_ids(partner, courts=50) + table_ids(partner, courts=50)
    sync_list(partner)
    response = partner.patch("/tables/bulk", json={"tables": _items(tables)})
    assert response.status_code == 200
    assert response.json["data"]["succeeded"] == 100
    assert [r["tableID"] for r in response.json["data"]["results"]] == tables


def test_table_scopes(partner: Api, new_partner: Callable[..., Api]) -> None:
    reader = new_partner(scope="tables.read")
    assert reader.get("/tables").status_code == 200
    for response in (reader.patch("/tables/tbl_x", json={"playerListExternalID": None}),
                     reader.patch("/tables/bulk", json={"tables": _items(["tbl_x"])})):
        assert response.status_code == 403
        assert response.json["error"]["details"] == {"requiredScope": "tables.write"}
    assert new_partner(scope="tables.write").get("/tables").status_code == 403


@pytest.mark.parametrize("settings", [{"points_per_game": 5}], indirect=True)
def test_table_read_scores_games_with_the_servers_points_per_game(partner: Api, operator: Api) -> None:
    """A game 5-3 is won under a 5-point rule: the table read's score counts it like the match read does."""
    [table_id] = table_ids(partner, courts=1)
    sync_list(partner)
    match = queue_match(partner, "m1", table_id)
    assert operator.post(f"/operator/matches/{match['id']}/start").status_code == 200
    scored = operator.post(f"/operator/matches/{match['id']}/score", json={"gameScores": [{"a": 5, "b": 3}]})
    assert scored.status_code == 200, scored.json
    assert scored.json["data"]["score"] == {"a": 1, "b": 0}
    table = partner.get(f"/tables/{table_id}").json["data"]
    assert table["activeMatch"]["score"] == {"a": 1, "b": 0}
    listed = partner.get("/tables").json["data"][0]
    assert listed["activeMatch"]["score"] == {"a": 1, "b": 0}
