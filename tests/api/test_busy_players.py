"""Contract §9: busy players and start-next. A player is busy while in an active match on another table (same
list player, or the same manual name trimmed and case-insensitive); starting such a match is `409 player_busy`
unless forced; start-next skips matches with a busy player."""
# ruff: noqa: F811 - the fixtures `courts` and `courts_factory` come from tests.api.test_matches

from __future__ import annotations

from typing import Any

from tests.api.test_matches import Courts, courts, courts_factory  # noqa: F401 - fixtures
from tests.api.test_scoring_routes import call
from tests.conftest import Api


def start_next(operator: Api, table_id: str) -> Any:
    return operator.post(f"/operator/tables/{table_id}/start-next")


def playing(courts: Courts, operator: Api, a: dict[str, str], b: dict[str, str], table: int = 0) -> dict[str, Any]:
    match = courts.sync(f"live-{table}", table, playerA=a, playerB=b)
    assert call(operator, "start", match["id"]).status_code == 200
    return match


def test_starting_a_match_with_a_player_busy_elsewhere_is_409_naming_players_and_tables(
    courts: Courts, operator: Api,
) -> None:
    playing(courts, operator, {"externalID": "p1"}, {"externalID": "p2"})
    waiting = courts.sync("next", 1, playerA={"externalID": "p1"}, playerB={"externalID": "p3"})
    response = call(operator, "start", waiting["id"])
    assert response.status_code == 409
    error = response.json["error"]
    assert error["code"] == "player_busy"
    assert error["details"] == {"players": [waiting["playerA"]], "tableIDs": [courts.tables[0]]}
    assert courts.get("next")["status"] == "pending"  # nothing changed


def test_force_starts_it_anyway(courts: Courts, operator: Api) -> None:
    playing(courts, operator, {"externalID": "p1"}, {"externalID": "p2"})
    waiting = courts.sync("next", 1, playerA={"externalID": "p1"}, playerB={"externalID": "p3"})
    response = call(operator, "start", waiting["id"], {"force": True})
    assert response.status_code == 200 and response.json["data"]["status"] == "active"


def test_manual_names_are_compared_trimmed_and_case_insensitive(courts: Courts, operator: Api) -> None:
    playing(courts, operator, {"manualName": "Ann Walker"}, {"manualName": "Bo"})
    waiting = courts.sync("next", 1, playerA={"manualName": "  ann WALKER "}, playerB={"manualName": "Cy"})
    response = call(operator, "start", waiting["id"])
    assert response.status_code == 409 and response.json["error"]["code"] == "player_busy"


def test_doubles_partners_count_too(courts: Courts, operator: Api) -> None:
    match = courts.sync("live", 0, playerA={"externalID": "p1"}, playerA2={"externalID": "p2"},
                        playerB={"externalID": "p3"}, playerB2={"externalID": "p4"}, isDoubles=True)
    assert call(operator, "start", match["id"]).status_code == 200
    waiting = courts.sync("next", 1, playerA={"manualName": "Zed"}, playerB={"externalID": "p4"})
    response = call(operator, "start", waiting["id"])
    assert response.status_code == 409 and response.json["error"]["details"]["players"] == [waiting["playerB"]]


def test_a_free_player_is_not_busy_and_a_finished_match_frees_its_players(courts: Courts, operator: Api) -> None:
    live = playing(courts, operator, {"externalID": "p1"}, {"externalID": "p2"})
    waiting = courts.sync("next", 1, playerA={"externalID": "p1"}, playerB={"externalID": "p3"})
    assert call(operator, "complete", live["id"], {"gameScores": [{"a": 11, "b": 1}] * 3}).status_code == 200
    assert call(operator, "start", waiting["id"]).status_code == 200


def test_start_next_skips_a_match_with_a_busy_player(courts: Courts, operator: Api) -> None:
    playing(courts, operator, {"externalID": "p1"}, {"externalID": "p2"})
    courts.sync("blocked", 1, playerA={"externalID": "p1"}, playerB={"externalID": "p3"})
    courts.sync("free", 1, playerA={"externalID": "p3"}, playerB={"externalID": "p4"})
    response = start_next(operator, courts.tables[1])
    assert response.status_code == 200
    assert response.json["data"]["externalID"] == "free"
    assert courts.get("blocked")["queuePosition"] == 1


def test_start_next_409s(courts: Courts, operator: Api) -> None:
    empty = start_next(operator, courts.tables[1])
    assert empty.status_code == 409 and empty.json["error"]["code"] == "queue_empty"
    playing(courts, operator, {"externalID": "p1"}, {"externalID": "p2"})
    courts.sync("waits", 0, playerA={"externalID": "p3"}, playerB={"externalID": "p4"})
    busy_table = start_next(operator, courts.tables[0])
    assert busy_table.status_code == 409 and busy_table.json["error"]["code"] == "table_busy"
    courts.sync("blocked", 1, playerA={"externalID": "p2"}, playerB={"externalID": "p3"})
    blocked = start_next(operator, courts.tables[1])
    assert blocked.status_code == 409 and blocked.json["error"]["code"] == "all_players_busy"
    missing = start_next(operator, "tbl_missing")
    assert missing.status_code == 404 and missing.json["error"]["code"] == "not_found"


def test_start_next_is_operator_only(courts: Courts) -> None:
    response = courts.api.post(f"/operator/tables/{courts.tables[0]}/start-next")
    assert response.status_code == 401
