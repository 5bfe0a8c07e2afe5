"""Issue 50, a partner's integration from the docs alone (contract §23, "Added with §24"), over HTTP on both
backends: externalIDs every route reaches, events in order, `match.reset`, samples of one's own match, partner
recovery of failing deliveries, and the small breaks of the first integration."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import pytest

from tests.api.test_matches import PLAYERS, make_player_list, make_tables
from tests.conftest import Api

BAD_EXTERNAL_IDS = ["club/2026/m1", "/m1", "", " m1", "m1 ", "m\n1", "m\x7f1", "x" * 201]


@pytest.fixture
def tables(partner: Api) -> list[str]:
    made = make_tables(partner)
    make_player_list(partner)
    return made


def refused_field(response: Any) -> dict[str, Any]:
    assert response.status_code == 400, response.json
    assert response.json["error"]["code"] == "validation_failed"
    details: dict[str, Any] = response.json["error"]["details"]["json"]
    return details


# ------------------------------------------------------------------------------------------------ externalIDs
@pytest.mark.parametrize("external_id", BAD_EXTERNAL_IDS)
def test_a_match_external_id_with_a_slash_control_or_surrounding_space_is_refused(
        partner: Api, tables: list[str], external_id: str) -> None:
    body = {"externalID": external_id, "tableID": tables[0], "playerListExternalID": "pl-1"}
    assert "externalID" in refused_field(partner.put("/matches", json=body))
    assert "externalID" in refused_field(partner.post("/matches", json=body))
    bulk = partner.post("/matches/bulk", json={"matches": [body]})
    assert bulk.status_code == 400, bulk.json
    assert partner.get("/matches").json["data"] == []


@pytest.mark.parametrize("external_id", BAD_EXTERNAL_IDS)
def test_list_team_and_player_external_ids_follow_the_same_rule(partner: Api, external_id: str) -> None:
    good = {"externalID": "p1", "firstName": "Ada"}
    bad = {"externalID": external_id, "firstName": "Ada"}
    assert "externalID" in refused_field(partner.put("/player-lists", json={
        "externalID": external_id, "name": "List", "players": [good]}))
    assert "players" in refused_field(partner.put("/player-lists", json={
        "externalID": "pl", "name": "List", "players": [bad]}))
    assert "externalID" in refused_field(partner.put("/teams", json={
        "externalID": external_id, "name": "Team", "players": [good]}))
    assert "players" in refused_field(partner.put("/teams", json={
        "externalID": "t", "name": "Team", "players": [bad]}))
    make_player_list(partner, "pl")
    assert "upsert" in refused_field(partner.patch("/player-lists/pl", json={"upsert": [bad]}))
    assert partner.get("/teams").json["data"] == []
    assert [p["externalID"] for p in partner.get("/player-lists/pl").json["data"]["players"]] == [
        p["externalID"] for p in PLAYERS]


def test_an_operator_named_player_or_match_follows_the_same_rule(operator: Api, partner: Api,
                                                                  tables: list[str]) -> None:
    lists = operator.get("/operator/player-lists").json["data"]
    list_id = lists[0]["id"]
    assert "externalID" in refused_field(operator.post(f"/operator/player-lists/{list_id}/players", json={
        "externalID": "a/b", "firstName": "Ada"}))
    assert "externalID" in refused_field(operator.post("/operator/matches", json={
        "externalID": "a/b", "tableID": tables[0]}))


@pytest.mark.parametrize("external_id", ["club-2026-m1", "Spiel 1 (Halle 2)", "x" * 200, "m:1?#%"])
def test_every_route_reaches_an_allowed_external_id(partner: Api, tables: list[str], external_id: str) -> None:
    body = {"externalID": external_id, "tableID": tables[0], "playerListExternalID": "pl-1"}
    assert partner.put("/matches", json=body).status_code == 200
    path = f"/matches/{quote(external_id, safe='')}"
    assert partner.get(path).json["data"]["externalID"] == external_id
    assert partner.patch(path, json={"tableID": tables[1]}).status_code == 200
    assert partner.delete(path).json["data"] == {"externalID": external_id, "deleted": True}
    assert partner.get(path).status_code == 404
