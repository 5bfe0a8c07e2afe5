"""Bulk match sync, assignment and cancellation: per-item results in request order, 200/207/400 (contract §2)."""
# ruff: noqa: F811 - the fixtures `courts` and `courts_factory` come from tests.api.test_matches

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.api.test_matches import Courts, courts, courts_factory, set_status  # noqa: F401 - fixtures

pytestmark = pytest.mark.usefixtures("courts")


def results(response: Any) -> list[tuple[int, str, int]]:
    return [(r["index"], r["externalID"], r["status"]) for r in response.json["data"]["results"]]


# ------------------------------------------------------------------------------------------------ bulk sync
def test_bulk_sync_all_succeed_is_200_with_results_in_request_order(courts: Courts) -> None:
    courts.sync("old")
    body = {"matches": [courts.body("b1"), courts.body("c1", table=1), courts.body("b2"),
                        courts.body("old", eventName="replaced")]}
    response = courts.api.post("/matches/bulk", json=body)
    assert response.status_code == 200
    data = response.json["data"]
    assert data["succeeded"] == 4 and data["failed"] == 0
    assert results(response) == [(0, "b1", 200), (1, "c1", 200), (2, "b2", 200), (3, "old", 200)]
    positions = {r["externalID"]: r["data"]["queuePosition"] for r in data["results"]}
    assert positions == {"old": 1, "b1": 2, "b2": 3, "c1": 1}
    assert all("error" not in r for r in data["results"])
    assert data["results"][3]["data"]["eventName"] == "replaced"
    assert courts.queue(0) == ["old", "b1", "b2"] and courts.queue(1) == ["c1"]


def test_bulk_sync_with_failing_items_is_207_and_applies_the_others(
    courts_factory: Callable[..., Courts], courts: Courts,
) -> None:
    other = courts_factory()
    locked = courts.sync("locked", eventName="Original")
    set_status(courts.store, locked["id"], "active")
    body = {"matches": [
        courts.body("ok1"),
        courts.body("locked", eventName="changed"),
        courts.body("foreign") | {"tableID": other.tables[0]},
        courts.body("nowhere") | {"tableID": "tbl_missing"},
        courts.body("ghost", playerA={"externalID": "ghost"}),
        courts.body("nolist") | {"playerListExternalID": "pl-missing"},
        courts.body("ok2", table=1),
    ]}
    response = courts.api.post("/matches/bulk", json=body)
    assert response.status_code == 207
    data = response.json["data"]
    assert data["succeeded"] == 2 and data["failed"] == 5
    assert results(response) == [(0, "ok1", 200), (1, "locked", 409), (2, "foreign", 403), (3, "nowhere", 404),
                                 (4, "ghost", 400), (5, "nolist", 404), (6, "ok2", 200)]
    codes = [r.get("error", {}).get("code") for r in data["results"]]
    assert codes == [None, "match_locked", "table_not_managed", "not_found", "unknown_player", "not_found", None]
    assert all(r["error"]["message"] and "data" not in r for r in data["results"] if r["status"] != 200)
    assert courts.get("locked")["eventName"] == "Original"
    assert [m["externalID"] for m in courts.api.get("/matches").json["data"]] == ["locked", "ok1", "ok2"]


@pytest.mark.parametrize("matches", [
    [],
    "not a list",
    [{"externalID": "x"}],
    ["m1"],
])
def test_malformed_bulk_sync_is_400_and_applies_nothing(courts: Courts, matches: Any) -> None:
    response = courts.api.post("/matches/bulk", json={"matches": matches})
    assert response.status_code == 400 and response.json["error"]["code"] == "validation_failed"


def test_bulk_sync_with_one_malformed_item_applies_nothing(courts: Courts) -> None:
    body = {"matches": [courts.body("good"), courts.body("bad", bestOf=4)]}
    response = courts.api.post("/matches/bulk", json=body)
    assert response.status_code == 400 and response.json["error"]["code"] == "validation_failed"
    assert courts.api.get("/matches").json["data"] == []


def test_bulk_sync_limits_and_duplicates(courts: Courts) -> None:
    too_many = {"matches": [courts.body(f"m{i}") for i in range(101)]}
    assert courts.api.post("/matches/bulk", json=too_many).status_code == 400
    duplicate = courts.api.post("/matches/bulk", json={"matches": [courts.body("d"), courts.body("d", table=1)]})
    assert duplicate.status_code == 400 and duplicate.json["error"]["code"] == "validation_failed"
    assert courts.api.get("/matches").json["data"] == []
    extra = courts.api.post("/matches/bulk", json={"matches": [courts.body("x")], "dryRun": True})
    assert extra.status_code == 400
    hundred = courts.api.post("/matches/bulk", json={"matches": [courts.body(f"m{i}") for i in range(100)]})
    assert hundred.status_code == 200 and hundred.json["data"]["succeeded"] == 100
    assert [r["data"]["queuePosition"] for r in hundred.json["data"]["results"]] == list(range(1, 101))


# ------------------------------------------------------------------------------------------------ bulk move
def test_bulk_move_keeps_request_order_within_each_destination(courts: Courts) -> None:
    for name in ("a", "b", "c", "d"):
        courts.sync(name)
    courts.sync("x", table=1)
    body = {"matches": [{"externalID": "c", "tableID": courts.tables[1]},
                        {"externalID": "b", "tableID": courts.tables[0]},  # already there: unchanged
                        {"externalID": "a", "tableID": courts.tables[1]}]}
    response = courts.api.patch("/matches/bulk", json=body)
    assert response.status_code == 200
    assert response.json["data"]["succeeded"] == 3 and response.json["data"]["failed"] == 0
    assert results(response) == [(0, "c", 200), (1, "b", 200), (2, "a", 200)]
    assert [r["data"]["queuePosition"] for r in response.json["data"]["results"]] == [2, 1, 3]
    assert courts.queue(0) == ["b", "d"] and courts.queue(1) == ["x", "c", "a"]


def test_bulk_move_with_failing_items_is_207(courts_factory: Callable[..., Courts], courts: Courts) -> None:
    other = courts_factory()
    other.sync("theirs")
    courts.sync("a")
    courts.sync("b")
    done = courts.sync("done")
    set_status(courts.store, done["id"], "completed")
    body = {"matches": [{"externalID": "a", "tableID": courts.tables[1]},
                        {"externalID": "done", "tableID": courts.tables[1]},
                        {"externalID": "theirs", "tableID": courts.tables[1]},
                        {"externalID": "b", "tableID": other.tables[0]},
                        {"externalID": "b", "tableID": courts.tables[0]}]}
    response = courts.api.patch("/matches/bulk", json=body)
    assert response.status_code == 400  # duplicate externalID: malformed
    body["matches"].pop()
    body["matches"][3] = {"externalID": "b", "tableID": "tbl_missing"}
    response = courts.api.patch("/matches/bulk", json=body)
    assert response.status_code == 207
    assert results(response) == [(0, "a", 200), (1, "done", 409), (2, "theirs", 404), (3, "b", 404)]
    assert response.json["data"]["succeeded"] == 1 and response.json["data"]["failed"] == 3
    body["matches"][3] = {"externalID": "b", "tableID": other.tables[0]}
    response = courts.api.patch("/matches/bulk", json=body)
    assert results(response)[3] == (3, "b", 403)
    assert response.json["data"]["results"][3]["error"]["code"] == "table_not_managed"
    assert courts.queue(0) == ["b"] and courts.queue(1) == ["a"]
    assert other.get("theirs")["tableID"] == other.tables[0]


@pytest.mark.parametrize("item", [{"externalID": "a"}, {"tableID": "t"}, {"externalID": "a", "tableID": "t", "x": 1},
                                  {"externalID": 5, "tableID": "t"}])
def test_malformed_bulk_move_is_400(courts: Courts, item: dict[str, Any]) -> None:
    courts.sync("a")
    response = courts.api.patch("/matches/bulk", json={"matches": [item]})
    assert response.status_code == 400 and response.json["error"]["code"] == "validation_failed"
    assert courts.api.patch("/matches/bulk", json={"matches": []}).status_code == 400


# ------------------------------------------------------------------------------------------------ bulk cancel
def test_bulk_cancel_all_succeed(courts: Courts) -> None:
    for name in ("a", "b", "c"):
        courts.sync(name)
    response = courts.api.post("/matches/bulk/cancel", json={"externalIDs": ["c", "a"]})
    assert response.status_code == 200
    assert response.json["data"] == {
        "results": [{"index": 0, "externalID": "c", "status": 200, "data": {"externalID": "c", "deleted": True}},
                    {"index": 1, "externalID": "a", "status": 200, "data": {"externalID": "a", "deleted": True}}],
        "succeeded": 2, "failed": 0,
    }
    assert courts.queue() == ["b"]


def test_bulk_cancel_with_failing_items_is_207(courts_factory: Callable[..., Courts], courts: Courts) -> None:
    other = courts_factory()
    other.sync("theirs")
    courts.sync("a")
    live = courts.sync("live")
    set_status(courts.store, live["id"], "active")
    response = courts.api.post("/matches/bulk/cancel", json={"externalIDs": ["live", "a", "theirs", "never"]})
    assert response.status_code == 207
    assert results(response) == [(0, "live", 409), (1, "a", 200), (2, "theirs", 404), (3, "never", 404)]
    assert [r.get("error", {}).get("code") for r in response.json["data"]["results"]] == [
        "match_locked", None, "not_found", "not_found"]
    assert courts.get("live")["status"] == "active" and other.get("theirs")["status"] == "pending"


@pytest.mark.parametrize("ids", [[], ["a", "a"], [""], [1], "a"])
def test_malformed_bulk_cancel_is_400_and_cancels_nothing(courts: Courts, ids: Any) -> None:
    courts.sync("a")
    response = courts.api.post("/matches/bulk/cancel", json={"externalIDs": ids})
    assert response.status_code == 400 and response.json["error"]["code"] == "validation_failed"
    assert courts.queue() == ["a"]
    too_many = courts.api.post("/matches/bulk/cancel", json={"externalIDs": [f"m{i}" for i in range(101)]})
    assert too_many.status_code == 400
