"""Manual players never collide with mapped ones, and completed matches keep the names they were played under
(console-trial issue, items 1 and 2)."""
# ruff: noqa: F811 - the fixtures `courts` and `courts_factory` come from tests.api.test_matches

from __future__ import annotations

from typing import Any

from tests.api.test_matches import Courts, courts, courts_factory  # noqa: F401 - fixtures
from tests.api.test_scoring_routes import WIN, call, events, subscribe
from tests.conftest import Api


def list_id(operator: Api, external_id: str = "pl-1") -> str:
    lists = operator.get("/operator/player-lists").json["data"]
    return str(next(item["id"] for item in lists if item.get("externalID") == external_id))


def add_manual(operator: Api, list_id: str, **player: Any) -> Any:
    return operator.post(f"/operator/player-lists/{list_id}/players", json=player)


def test_a_manual_player_with_a_mapped_players_external_id_is_409_naming_the_player(
    courts: Courts, operator: Api,
) -> None:
    target = list_id(operator)
    before = operator.get("/operator/player-lists").json["data"]
    response = add_manual(operator, target, externalID="p1", firstName="Mallory", lastName="Taken")
    assert response.status_code == 409
    error = response.json["error"]
    assert error["code"] == "player_exists"
    assert error["details"]["externalID"] == "p1"
    mapped = next(p for p in courts.api.get("/player-lists/pl-1").json["data"]["players"] if p["externalID"] == "p1")
    assert error["details"]["name"] == f"{mapped['firstName']} {mapped['lastName']}"
    assert operator.get("/operator/player-lists").json["data"] == before  # nothing stored


def test_match_reads_and_payloads_keep_the_mapped_player(courts: Courts, operator: Api) -> None:
    subscribe(courts.api)
    match = courts.sync("m1", playerA={"externalID": "p1"}, playerB={"externalID": "p2"})
    pending_name = match["playerA"]
    add_manual(operator, list_id(operator), externalID="p1", firstName="Mallory", lastName="Taken")
    assert courts.get("m1")["playerA"] == pending_name


def test_a_completed_match_keeps_the_names_it_was_played_under(courts: Courts, operator: Api) -> None:
    subscribe(courts.api)
    match = courts.sync("m1", playerA={"externalID": "p1"}, playerB={"externalID": "p2"})
    played_as = match["playerA"]
    assert call(operator, "start", match["id"]).status_code == 200
    assert call(operator, "complete", match["id"], {"gameScores": WIN}).status_code == 200
    renamed = courts.api.patch("/player-lists/pl-1", json={"upsert": [
        {"externalID": "p1", "firstName": "Someone", "lastName": "Else"}]})
    assert renamed.status_code == 200, renamed.json
    assert courts.get("m1")["playerA"] == played_as
    corrected = call(operator, "score", match["id"], {"gameScores": WIN[:3] + [{"a": 11, "b": 3}]})
    assert corrected.status_code == 200 and corrected.json["data"]["playerA"] == played_as
    result_updated = events(courts.api)[-1]
    assert result_updated["type"] == "match.result_updated"
    assert result_updated["data"]["match"]["playerA"] == played_as


def test_a_manual_player_needs_a_name(courts: Courts, operator: Api) -> None:
    response = add_manual(operator, list_id(operator), externalID="new-one")
    assert response.status_code == 400
    assert response.json["error"]["code"] == "validation_failed"
    assert "firstName" in response.json["error"]["details"]["json"]
    blank = add_manual(operator, list_id(operator), firstName="  ")
    assert blank.status_code == 400


def test_a_manual_player_with_a_new_external_id_or_none_is_added(courts: Courts, operator: Api) -> None:
    target = list_id(operator)
    assert add_manual(operator, target, externalID="walk-in", firstName="Ann", lastName="Lee").status_code == 201
    assert add_manual(operator, target, firstName="Bo", lastName="Ng").status_code == 201
    again = add_manual(operator, target, externalID="walk-in", firstName="Ann", lastName="Lee")
    assert again.status_code == 409 and again.json["error"]["code"] == "player_exists"


def test_a_partner_player_synced_after_a_manual_entry_with_its_id_names_the_partners_match(
    courts: Courts, operator: Api,
) -> None:
    assert add_manual(operator, list_id(operator), externalID="p9", firstName="Walk", lastName="In").status_code == 201
    upserted = courts.api.patch("/player-lists/pl-1", json={"upsert": [
        {"externalID": "p9", "firstName": "Real", "lastName": "Entrant"}]})
    assert upserted.status_code == 200, upserted.json
    match = courts.sync("m9", playerA={"externalID": "p9"}, playerB={"externalID": "p2"})
    assert match["playerA"] == "Real Entrant"
