"""Contract §8a, stored names: NFC with whitespace collapsed on every path, partner syncs included (issue 37,
point 7: a partner's "Van   Dyke" and decomposed "Léa" were kept as sent)."""

from __future__ import annotations

from tests.api.resources_support import player
from tests.conftest import Api

DECOMPOSED = "Le\u0301a"  # "Léa" with a combining accent


def test_partner_list_sync_and_patch_store_names_in_the_stored_form(partner: Api, operator: Api) -> None:
    response = partner.put("/player-lists", json={"externalID": "pl", "name": "  Club   List ", "players": [
        player("p1", firstName=DECOMPOSED, lastName="Van   Dyke", clubName=" Tennis  Club ")]})
    assert response.status_code == 200, response.json
    data = response.json["data"]
    assert data["name"] == "Club List"
    [stored] = data["players"]
    assert (stored["firstName"], stored["lastName"], stored["clubName"]) == ("Léa", "Van Dyke", "Tennis Club")
    patched = partner.patch("/player-lists/pl", json={"name": "New\u00a0 Name",
                                                      "upsert": [player("p2", firstName=" Ann\t Lee ")]})
    assert patched.status_code == 200, patched.json
    assert patched.json["data"]["name"] == "New Name"
    assert [p["firstName"] for p in patched.json["data"]["players"]] == ["Léa", "Ann Lee"]
    assert partner.get("/player-lists/pl").json["data"]["players"][0]["firstName"] == "Léa"


def test_partner_team_sync_stores_names_in_the_stored_form(partner: Api) -> None:
    response = partner.put("/teams", json={"externalID": "t", "name": "Van  Dyke  Falcons",
                                           "players": [player("p1", lastName="Van   Dyke")]})
    assert response.status_code == 200, response.json
    data = response.json["data"]
    assert data["name"] == data["roster"]["name"] == "Van Dyke Falcons"
    assert data["players"][0]["lastName"] == "Van Dyke"


def test_operator_and_partner_broadcasts_rosters_and_manual_players(operator: Api, partner: Api) -> None:
    made = operator.post("/operator/broadcasts", json={"name": " Club   Day ", "tables": [{"label": "C"}]})
    assert made.status_code == 201, made.json
    assert made.json["data"]["name"] == "Club Day"
    roster = partner.post("/rosters", json={"name": f"Open  {DECOMPOSED}", "rosterType": "individual"})
    assert roster.status_code == 201, roster.json
    assert roster.json["data"]["name"] == "Open Léa"
    house = operator.post("/operator/player-lists", json={"name": "House"})
    assert house.status_code == 201, house.json
    added = operator.post(f"/operator/player-lists/{house.json['data']['id']}/players",
                          json={"firstName": DECOMPOSED, "lastName": "Van   Dyke"})
    assert added.status_code == 201, added.json
    assert [(p["firstName"], p["lastName"]) for p in added.json["data"]["players"]] == [("Léa", "Van Dyke")]
