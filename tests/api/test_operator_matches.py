"""Contract §9: the house connection, POST /operator/matches and POST /operator/matches/import."""
# ruff: noqa: F811 - the fixtures `courts` and `courts_factory` come from tests.api.test_matches

from __future__ import annotations

from typing import Any

import pytest

from domain.access.auth import bootstrap
from domain.clock import FixedClock
from storage.engine import Store
from storage.repository import unit_of_work
from tests.api.test_matches import Courts, courts, courts_factory  # noqa: F401 - fixtures
from tests.api.test_scoring_routes import call
from tests.conftest import OPERATOR_KEY, Api


def house(operator: Api) -> dict[str, Any]:
    [found] = [c for c in operator.get("/operator/connections").json["data"] if c["kind"] == "house"]
    return dict(found)


def create(operator: Api, body: dict[str, Any]) -> Any:
    return operator.post("/operator/matches", json=body)


def imported(operator: Api, broadcast_id: str, rows: list[dict[str, Any]], dry_run: bool = False) -> Any:
    return operator.post("/operator/matches/import", json={"broadcastID": broadcast_id, "rows": rows,
                                                           "dryRun": dry_run})


@pytest.fixture
def event(operator: Api) -> dict[str, Any]:
    """An operator's broadcast with two courts (managed by the house)."""
    response = operator.post("/operator/broadcasts", json={"name": "Club day",
                                                           "tables": [{"label": "Court 1"}, {"label": "Court 2"}]})
    assert response.status_code == 201, response.json
    return dict(response.json["data"])


def queue_of(operator: Api, table_id: str) -> list[dict[str, Any]]:
    [court] = [t for t in operator.get("/operator/tables").json["data"] if t["id"] == table_id]
    return list(court["queue"])


# ------------------------------------------------------------------------------------------------ house
def test_house_connection_is_listed_and_cannot_be_revoked(operator: Api) -> None:
    found = house(operator)
    assert found["appID"] == "house" and found["revokedOn"] is None and found["webhookURL"] is None
    response = operator.delete(f"/operator/connections/{found['connectionID']}")
    assert response.status_code == 409 and response.json["error"]["code"] == "house_connection"
    assert house(operator)["revokedOn"] is None


def test_bootstrap_creates_one_house_connection_also_on_an_existing_store(store: Store, clock: FixedClock) -> None:
    with unit_of_work(store) as uow:  # an older data dir: the account exists, the house does not
        for connection in uow.connections.find(kind="house"):
            uow.connections.delete(connection.id)
    with unit_of_work(store) as uow:
        bootstrap(uow, operator_key=OPERATOR_KEY, now=clock.now())
        bootstrap(uow, operator_key=OPERATOR_KEY, now=clock.now())
    with unit_of_work(store) as uow:
        assert len(uow.connections.find(kind="house")) == 1


# ------------------------------------------------------------------------------------------------ create
def test_create_mints_an_external_id_and_queues_at_the_end_with_manual_names(
    operator: Api, event: dict[str, Any],
) -> None:
    table = event["tables"][0]["id"]
    first = create(operator, {"tableID": table, "playerA": {"manualName": "Ann Lee"},
                              "playerB": {"manualName": "Bo Chan"}, "matchRound": "R1", "bestOf": 3})
    assert first.status_code == 201, first.json
    data = first.json["data"]
    assert data["externalID"].startswith("op_") and data["status"] == "pending" and data["queuePosition"] == 1
    assert data["playerA"] == "Ann Lee" and data["bestOf"] == 3 and "playerListExternalID" not in data
    second = create(operator, {"tableID": table, "externalID": "final", "playerA": {"manualName": "Cy"}})
    assert second.status_code == 201 and second.json["data"]["queuePosition"] == 2
    assert [m["externalID"] for m in queue_of(operator, table)] == [data["externalID"], "final"]
    again = create(operator, {"tableID": table, "externalID": "final"})
    assert again.status_code == 409 and again.json["error"]["code"] == "match_exists"


def test_create_uses_the_courts_player_list_and_refuses_unknown_players(courts: Courts, operator: Api) -> None:
    assert courts.api.patch(f"/tables/{courts.tables[0]}",
                          json={"playerListExternalID": "pl-1"}).status_code == 200
    made = create(operator, {"tableID": courts.tables[0], "playerA": {"externalID": "p1"},
                             "playerB": {"manualName": "Walk In"}})
    assert made.status_code == 201, made.json
    assert made.json["data"]["playerA"] == "Ada Lovelace" and made.json["data"]["playerListExternalID"] == "pl-1"
    unknown = create(operator, {"tableID": courts.tables[0], "playerA": {"externalID": "nobody"}})
    assert unknown.status_code == 400 and unknown.json["error"]["code"] == "unknown_player"
    assert set(unknown.json["error"]["details"]) == {"playerA"}
    no_list = create(operator, {"tableID": courts.tables[1], "playerA": {"externalID": "p1"}})
    assert no_list.status_code == 400 and no_list.json["error"]["code"] == "unknown_player"
    named = create(operator, {"tableID": courts.tables[1], "playerListExternalID": "pl-1",
                              "playerA": {"externalID": "p2"}})
    assert named.status_code == 201 and named.json["data"]["playerA"] == "Grace Hopper"


def test_house_match_player_is_busy_against_the_partners_match(courts: Courts, operator: Api) -> None:
    live = courts.sync("live", 0, playerA={"externalID": "p1"}, playerB={"externalID": "p2"})
    assert call(operator, "start", live["id"]).status_code == 200
    made = create(operator, {"tableID": courts.tables[1], "playerListExternalID": "pl-1",
                             "playerA": {"externalID": "p1"}, "playerB": {"manualName": "Zed"}}).json["data"]
    response = call(operator, "start", made["id"])
    assert response.status_code == 409 and response.json["error"]["code"] == "player_busy"


def test_create_refuses_bad_input_with_400_404_and_the_same_player_twice(operator: Api, event: dict[str, Any]) -> None:
    table = event["tables"][0]["id"]
    assert create(operator, {"tableID": "tbl_nope"}).status_code == 404
    assert create(operator, {"tableID": table, "playerListExternalID": "nope"}).status_code == 404
    bad = create(operator, {"tableID": table, "bestOf": 4})
    assert bad.status_code == 400 and bad.json["error"]["code"] == "validation_failed"
    assert create(operator, {"playerA": {"manualName": "x"}}).status_code == 400
    twice = create(operator, {"tableID": table, "playerA": {"manualName": "Ann"}, "playerB": {"manualName": " ann "}})
    assert twice.status_code == 400 and twice.json["error"]["code"] == "duplicate_player"
    assert queue_of(operator, table) == []


def test_house_matches_lock_once_started_and_record_no_webhook_events(operator: Api, event: dict[str, Any]) -> None:
    table = event["tables"][0]["id"]
    made = create(operator, {"tableID": table, "playerA": {"manualName": "A"}, "playerB": {"manualName": "B"}})
    assert call(operator, "start", made.json["data"]["id"]).status_code == 200
    moved = operator.post(f"/operator/matches/{made.json['data']['id']}/move", json={"tableID": table})
    assert moved.status_code == 409 and moved.json["error"]["code"] == "match_locked"
    assert operator.get("/operator/webhooks").json["data"] == []


# ------------------------------------------------------------------------------------------------ import
ROWS = [
    {"court": "Court 1", "playerA": "Ann Lee", "playerB": "Bo Chan", "round": "R1", "event": "Open", "bestOf": "3"},
    {"court": "court 2", "playerA": "Cy Diaz", "playerB": "Di Eve", "playerA2": "Ed Fox", "playerB2": "Flo Gum",
     "scheduledOn": "2026-11-21T11:00:00Z"},
]


def test_import_queues_every_row_in_order_with_200(operator: Api, event: dict[str, Any]) -> None:
    response = imported(operator, event["id"], ROWS)
    assert response.status_code == 200, response.json
    body = response.json["data"]
    assert (body["succeeded"], body["failed"], body["queued"]) == (2, 0, 2)
    assert [r["index"] for r in body["results"]] == [0, 1] and all(r["status"] == 200 for r in body["results"])
    first, second = (r["data"] for r in body["results"])
    assert first["tableID"] == event["tables"][0]["id"] and first["matchRound"] == "R1" and first["bestOf"] == 3
    assert first["eventName"] == "Open" and first["participants"]["playerA"] == {"manualName": "Ann Lee"}
    assert second["isDoubles"] is True and second["startTime"] == "2026-11-21T11:00:00.000Z"
    assert [m["id"] for m in queue_of(operator, event["tables"][1]["id"])] == [second["id"]]


def test_import_dry_run_checks_and_queues_nothing(operator: Api, event: dict[str, Any]) -> None:
    response = imported(operator, event["id"], ROWS, dry_run=True)
    assert response.status_code == 200 and response.json["data"]["queued"] == 0
    assert response.json["data"]["results"][0]["data"]["queuePosition"] == 1
    assert queue_of(operator, event["tables"][0]["id"]) == []


def test_import_with_a_bad_row_is_207_per_row_and_queues_nothing(operator: Api, event: dict[str, Any]) -> None:
    rows = [*ROWS, {"court": "Court 9", "playerA": "X", "playerB": "Y"}, {"court": "Court 1", "playerA": "Same",
                                                                         "playerB": "same"}]
    response = imported(operator, event["id"], rows)
    assert response.status_code == 207
    body = response.json["data"]
    assert (body["succeeded"], body["failed"], body["queued"]) == (2, 2, 0)
    assert [r["status"] for r in body["results"]] == [200, 200, 400, 400]
    assert body["results"][2]["error"]["code"] == "unknown_court" and "court" in body["results"][2]["error"]["details"]
    assert body["results"][3]["error"]["code"] == "duplicate_player"
    assert queue_of(operator, event["tables"][0]["id"]) == [] and queue_of(operator, event["tables"][1]["id"]) == []


def test_import_matches_names_of_the_courts_player_list(courts: Courts, operator: Api) -> None:
    assert courts.api.patch(f"/tables/{courts.tables[0]}",
                          json={"playerListExternalID": "pl-1"}).status_code == 200
    broadcast_id = courts.api.get(f"/tables/{courts.tables[0]}").json["data"]["broadcastID"]
    response = imported(operator, broadcast_id, [{"court": "Court 1", "playerA": "  ada   LOVELACE",
                                                  "playerB": "Ada Byron"}])
    assert response.status_code == 200, response.json
    match = response.json["data"]["results"][0]["data"]
    assert match["participants"] == {"playerA": {"externalID": "p1"}, "playerB": {"manualName": "Ada Byron"}}


def test_import_refuses_a_malformed_body_or_more_than_1000_rows_with_400(operator: Api, event: dict[str, Any]) -> None:
    too_many = imported(operator, event["id"], [ROWS[0]] * 1001)
    assert too_many.status_code == 400 and too_many.json["error"]["code"] == "validation_failed"
    assert "rows" in too_many.json["error"]["details"]["json"]
    missing = imported(operator, event["id"], [{"court": "Court 1", "playerA": "A"}])
    assert missing.status_code == 400 and missing.json["error"]["details"]["json"]["rows"]["0"]["playerB"]
    assert imported(operator, event["id"], []).status_code == 400
    assert imported(operator, "brd_nope", ROWS).status_code == 404
    assert queue_of(operator, event["tables"][0]["id"]) == []


def test_import_of_1000_rows_is_accepted(operator: Api, event: dict[str, Any]) -> None:
    rows = [{"court": f"Court {1 + i % 2}", "playerA": f"A{i}", "playerB": f"B{i}"} for i in range(1000)]
    response = imported(operator, event["id"], rows)
    assert response.status_code == 200 and response.json["data"]["queued"] == 1000
    assert len(queue_of(operator, event["tables"][0]["id"])) == 500
