"""Contract §16 as widened with §18-§22 (issue 37, point 9): broadcasts and their courts, rosters, player lists
and players, webhook settings and secret rotation each write one audit entry naming who made the change, in the
change's transaction, with the chain intact. Every test runs on TinyDB and PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.api.resources_support import player
from tests.api.test_audit import assert_chain, entries, one_new_entry
from tests.conftest import Api

Step = tuple[str, Callable[[], Any], str]


def run(operator: Api, steps: list[Step]) -> list[dict[str, Any]]:
    """Each step makes one change: exactly one new entry, with that action and actor kind."""
    made = []
    for action, change, actor_kind in steps:
        count = len(entries(operator))
        response = change()
        assert response.status_code in (200, 201), (action, response.get_data(as_text=True)[:300])
        entry = one_new_entry(operator, count)
        assert (entry["action"], entry["actor"]["kind"]) == (action, actor_kind)
        made.append(entry)
    assert_chain(entries(operator))
    return made


def test_broadcasts_and_their_courts(operator: Api, partner: Api) -> None:
    made: dict[str, Any] = {}

    def create() -> Any:
        response = operator.post("/operator/broadcasts", json={"name": "Day", "tables": [{"label": "Court 1"}]})
        made.update(response.json["data"])
        return response

    def patch(body: dict[str, Any]) -> Callable[[], Any]:
        return lambda: operator.patch(f"/operator/broadcasts/{made['id']}", json=body)

    connection = partner.get("/connection").json["data"]["connectionID"]
    created, renamed, courts, _, _ = run(operator, [
        ("broadcast.created", create, "operator"),
        ("broadcast.changed", patch({"name": "Club Day"}), "operator"),
        ("broadcast.changed", lambda: operator.patch(f"/operator/broadcasts/{made['id']}", json={
            "tables": [{"id": made["tables"][0]["id"], "label": "Centre"}, {"label": "Court 2"}]}), "operator"),
        ("broadcast.handed_over", lambda: operator.post(f"/operator/broadcasts/{made['id']}/handover",
                                                        json={"connectionID": connection}), "operator"),
        ("broadcast.deleted", lambda: operator.delete(f"/operator/broadcasts/{made['id']}"), "operator"),
    ])
    assert created["target"] == {"type": "broadcast", "id": made["id"]}
    assert [c["label"] for c in created["after"]["courts"]] == ["Court 1"]
    assert (renamed["before"]["name"], renamed["after"]["name"]) == ("Day", "Club Day")
    assert [c["label"] for c in courts["after"]["courts"]] == ["Centre", "Court 2"]
    assert [c["label"] for c in courts["before"]["courts"]] == ["Court 1"]
    settings = run(operator, [("broadcast.created", create, "operator"),
                              ("broadcast.event_settings_changed", patch({"eventDay": {"restMinutes": 5}}),
                               "operator")])[1]
    assert (settings["before"], settings["after"]) == ({"restMinutes": 0}, {"restMinutes": 5})


def test_partner_broadcasts_courts_lists_teams_and_rosters(partner: Api, operator: Api) -> None:
    made: dict[str, Any] = {}

    def create() -> Any:
        response = partner.post("/broadcasts", json={"name": "Open", "tables": [{"label": "Court 1"}]})
        made.update(response.json["data"])
        return response

    roster: dict[str, Any] = {}

    def new_roster() -> Any:
        response = partner.post("/rosters", json={"name": "Squad", "rosterType": "individual"})
        roster.update(response.json["data"])
        return response

    synced, _, _, _, _, team, _, _, _, _ = run(operator, [
        ("player_list.synced", lambda: partner.put("/player-lists", json={
            "externalID": "pl", "name": "List", "players": [player("p1"), player("p2")]}), "partner"),
        ("player_list.changed", lambda: partner.patch("/player-lists/pl", json={"upsert": [player("p3")]}),
         "partner"),
        ("broadcast.created", create, "partner"),
        ("court.changed", lambda: partner.patch(f"/tables/{made['tables'][0]['id']}",
                                                json={"playerListExternalID": "pl"}), "partner"),
        ("broadcast.deleted", lambda: partner.delete(f"/broadcasts/{made['id']}"), "partner"),
        ("team.synced", lambda: partner.put("/teams", json={"externalID": "t", "name": "Falcons",
                                                            "players": [player("p1")]}), "partner"),
        ("team.changed", lambda: partner.patch("/teams/t", json={"name": "Hawks"}), "partner"),
        ("roster.created", new_roster, "partner"),
        ("roster.changed", lambda: partner.patch(f"/rosters/{roster['id']}", json={"name": "Team"}), "partner"),
        ("roster.deleted", lambda: partner.delete(f"/rosters/{roster['id']}"), "partner"),
    ])
    assert synced["before"] is None and synced["after"]["players"] == 2 and synced["after"]["name"] == "List"
    assert team["after"]["name"] == "Falcons"


def test_house_lists_and_players(operator: Api) -> None:
    made: dict[str, Any] = {}

    def create() -> Any:
        response = operator.post("/operator/player-lists", json={"name": "Club"})
        made.update(response.json["data"])
        return response

    def add() -> Any:
        response = operator.post(f"/operator/player-lists/{made['id']}/players",
                                 json={"firstName": "Ann", "lastName": "Lee"})
        made["player"] = response.json["data"]["players"][-1]["id"]
        return response

    created, added, changed, imported, removed = run(operator, [
        ("player_list.created", create, "operator"),
        ("player.created", add, "operator"),
        ("player.changed", lambda: operator.patch(f"/operator/player-lists/{made['id']}/players/{made['player']}",
                                                  json={"lastName": "Li"}), "operator"),
        ("player.imported", lambda: operator.post(f"/operator/player-lists/{made['id']}/players/import", json={
            "dryRun": False, "rows": [{"firstName": "Bo", "lastName": "Chan"}, {"firstName": "Cy", "lastName": "Do"}]}),
         "operator"),
        ("player.deleted", lambda: operator.delete(f"/operator/player-lists/{made['id']}/players/{made['player']}"),
         "operator"),
    ])
    assert added["target"] == {"type": "player", "id": made["player"]}
    assert (added["after"]["firstName"], added["after"]["playerListID"]) == ("Ann", made["id"])
    assert (changed["before"]["lastName"], changed["after"]["lastName"]) == ("Lee", "Li")
    assert len(imported["after"]["playerIDs"]) == 2
    assert removed["before"]["lastName"] == "Li"


def test_webhook_settings_and_secret_rotation(partner: Api, operator: Api) -> None:
    configured, rotated = run(operator, [
        ("webhook.configured", lambda: partner.patch("/webhooks/configuration",
                                                     json={"url": "https://hooks.example.com/courtside"}), "partner"),
        ("webhook.secret_rotated", lambda: partner.post("/webhooks/secret/rotate",
                                                        headers={"Idempotency-Key": "rotation-0001"}), "partner"),
    ])
    assert configured["after"]["url"] == "https://hooks.example.com/courtside"
    assert configured["after"]["secret"] == rotated["after"]["secret"] == "…"  # never the secret itself
    secret = partner.post("/webhooks/secret/rotate", headers={"Idempotency-Key": "rotation-0001"})
    assert secret.json["data"]["webhook_secret"] not in str(entries(operator))


def test_a_partner_sync_or_patch_names_the_players_it_added_changed_and_removed(partner: Api, operator: Api) -> None:
    """§16: an entry for a change to players names them (externalIDs), not only how many there are."""
    synced, resynced, patched = run(operator, [
        ("player_list.synced", lambda: partner.put("/player-lists", json={
            "externalID": "pl", "name": "List", "players": [player("p1"), player("p2"), player("p3")]}), "partner"),
        ("player_list.synced", lambda: partner.put("/player-lists", json={
            "externalID": "pl", "name": "List", "players": [player("p1"), player("p2", lastName="Other"),
                                                           player("p4")]}), "partner"),
        ("player_list.changed", lambda: partner.patch("/player-lists/pl", json={
            "upsert": [player("p5"), player("p1", firstName="Ann")], "removeExternalIDs": ["p4"]}), "partner"),
    ])
    assert (synced["after"]["playersAdded"], synced["after"]["playersChanged"], synced["after"]["playersRemoved"]) \
        == (["p1", "p2", "p3"], [], [])
    assert (resynced["after"]["playersAdded"], resynced["after"]["playersChanged"],
            resynced["after"]["playersRemoved"]) == (["p4"], ["p2"], ["p3"])
    assert (patched["after"]["playersAdded"], patched["after"]["playersChanged"],
            patched["after"]["playersRemoved"]) == (["p5"], ["p1"], ["p4"])
