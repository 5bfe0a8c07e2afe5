"""Roster self-registration (contract §11): the operator's sign-up link, the public form with its CSRF token,
duplicate check, per-address rate limit, 1,000 cap, the flag turning the page off and on, and partner patches
that keep self-registered players (spec rule 2)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.conftest import Api


@pytest.fixture
def visitor(app: Flask) -> FlaskClient:
    return app.test_client()


def make_roster(partner: Api, **fields: Any) -> dict[str, Any]:
    body = {"name": "Club Championship", "rosterType": "individual", "selfRegistrationEnabled": True} | fields
    response = partner.post("/rosters", json=body)
    assert response.status_code == 201, response.json
    data: dict[str, Any] = response.json["data"]
    return data


def sign_up_path(operator: Api, roster_id: str) -> str:
    response = operator.get(f"/operator/rosters/{roster_id}/registration")
    assert response.status_code == 200, response.json
    return "/" + str(response.json["data"]["url"]).split("/", 3)[3]


def submit(visitor: FlaskClient, path: str, **fields: str) -> Any:
    page = visitor.get(path)
    assert page.status_code == 200
    token = re.search(r'name="csrf" value="([^"]+)"', page.get_data(as_text=True))
    assert token is not None
    return visitor.post(path, data={"csrf": token.group(1)} | fields)


def players(operator: Api, partner: Api, roster: dict[str, Any]) -> list[dict[str, Any]]:
    response = operator.get("/operator/player-lists?limit=100")
    assert response.status_code == 200, response.json
    [found] = [item for item in response.json["data"] if item["id"] == roster["source"]["playerListID"]]
    return list(found["players"])


def test_the_operator_lists_and_rotates_the_sign_up_link(operator: Api, partner: Api, visitor: FlaskClient) -> None:
    roster = make_roster(partner)
    read = operator.get(f"/operator/rosters/{roster['id']}/registration").json["data"]
    assert list(read) == ["rosterID", "rosterName", "enabled", "url", "signUps", "createdOn"]
    assert read["enabled"] is True and read["signUps"] == 0
    assert re.fullmatch(r"http://localhost/register/reg_[A-Za-z0-9_-]{32,}", read["url"])
    old = "/" + read["url"].split("/", 3)[3]
    rotated = operator.post(f"/operator/rosters/{roster['id']}/registration/rotate").json["data"]
    assert rotated["url"] != read["url"]
    assert visitor.get(old).status_code == 404
    assert visitor.get("/" + rotated["url"].split("/", 3)[3]).status_code == 200
    team = partner.post("/rosters", json={"name": "Teams", "rosterType": "team"}).json["data"]
    refused = operator.get(f"/operator/rosters/{team['id']}/registration")
    assert refused.status_code == 409 and refused.json["error"]["code"] == "roster_not_individual"


def test_a_sign_up_adds_a_self_player_and_raises_player_count(operator: Api, partner: Api,
                                                               visitor: FlaskClient) -> None:
    roster = make_roster(partner)
    path = sign_up_path(operator, roster["id"])
    page = visitor.get(path)
    assert "Club Championship" in page.get_data(as_text=True)
    assert page.headers["Cache-Control"] == "no-store"
    done = submit(visitor, path, firstName=" Ana ", lastName="Silva", clubName="Porto TT", country="PT",
                  gender="female")
    assert done.status_code == 201 and "You're in, <b>Ana Silva</b>" in done.get_data(as_text=True)
    assert partner.get(f"/rosters/{roster['id']}").json["data"]["source"]["playerCount"] == 1
    [added] = players(operator, partner, roster)
    assert added["source"] == "self"
    assert {k: added[k] for k in ("firstName", "lastName", "clubName", "country", "gender")} == {
        "firstName": "Ana", "lastName": "Silva", "clubName": "Porto TT", "country": "PT", "gender": "female"}
    assert operator.get(f"/operator/rosters/{roster['id']}/registration").json["data"]["signUps"] == 1


def test_the_form_needs_its_csrf_token(operator: Api, partner: Api, visitor: FlaskClient, app: Flask) -> None:
    roster = make_roster(partner)
    path = sign_up_path(operator, roster["id"])
    no_token = visitor.post(path, data={"firstName": "Ana", "lastName": "Silva"})
    assert no_token.status_code == 403 and "expired" in no_token.get_data(as_text=True)
    visitor.get(path)
    forged = visitor.post(path, data={"csrf": "guess", "firstName": "Ana", "lastName": "Silva"})
    assert forged.status_code == 403
    page = app.test_client().get(path).get_data(as_text=True)  # another browser's token, without its cookie
    token = re.search(r'name="csrf" value="([^"]+)"', page)
    assert token is not None
    assert app.test_client().post(path, data={"csrf": token.group(1), "firstName": "A", "lastName": "B"}
                                  ).status_code == 403
    assert partner.get(f"/rosters/{roster['id']}").json["data"]["source"]["playerCount"] == 0


def test_names_are_required_and_duplicates_refused_clearly(operator: Api, partner: Api,
                                                           visitor: FlaskClient) -> None:
    path = sign_up_path(operator, make_roster(partner)["id"])
    missing = submit(visitor, path, firstName="Ana", lastName="  ")
    assert missing.status_code == 400 and "Required." in missing.get_data(as_text=True)
    assert submit(visitor, path, firstName="Ana", lastName="Silva").status_code == 201
    again = submit(visitor, path, firstName="ANA", lastName="silva ")
    assert again.status_code == 409
    assert "ANA silva is already on this roster." in again.get_data(as_text=True)


@pytest.mark.parametrize("settings", [{"registration_rate_limit": 2}], indirect=True)
def test_sign_ups_are_rate_limited_per_address(operator: Api, partner: Api, visitor: FlaskClient,
                                               app: Flask) -> None:
    path = sign_up_path(operator, make_roster(partner)["id"])
    assert submit(visitor, path, firstName="A", lastName="One").status_code == 201
    assert submit(visitor, path, firstName="B", lastName="Two").status_code == 201
    limited = submit(visitor, path, firstName="C", lastName="Three")
    assert limited.status_code == 429 and int(limited.headers["Retry-After"]) > 0
    other = app.test_client()
    page = other.get(path, environ_base={"REMOTE_ADDR": "10.0.0.9"}).get_data(as_text=True)
    token = re.search(r'name="csrf" value="([^"]+)"', page)
    assert token is not None
    assert other.post(path, data={"csrf": token.group(1), "firstName": "D", "lastName": "Four"},
                      environ_base={"REMOTE_ADDR": "10.0.0.9"}).status_code == 201


def test_sign_ups_stop_at_1000_per_roster(operator: Api, partner: Api, visitor: FlaskClient, app: Flask) -> None:
    roster = make_roster(partner)
    path = sign_up_path(operator, roster["id"])
    from domain.event_day.registration import MAX_SIGN_UPS
    from storage.repository import unit_of_work
    with unit_of_work(app.services.store) as uow:  # type: ignore[attr-defined]
        backing = uow.player_lists.get(roster["source"]["playerListID"])
        assert backing is not None
        backing.players = [{"id": f"ply_{i}", "firstName": "P", "lastName": str(i), "source": "self"}
                           for i in range(MAX_SIGN_UPS - 1)]
        uow.player_lists.put(backing)
    assert MAX_SIGN_UPS == 1000
    assert submit(visitor, path, firstName="Last", lastName="One").status_code == 201
    full = submit(visitor, path, firstName="Too", lastName="Late")
    assert full.status_code == 409 and "full" in full.get_data(as_text=True)


def test_the_flag_off_makes_the_page_404_and_on_brings_the_same_link_back(
        operator: Api, partner: Api, visitor: FlaskClient) -> None:
    roster = make_roster(partner)
    path = sign_up_path(operator, roster["id"])
    assert partner.patch(f"/rosters/{roster['id']}", json={"selfRegistrationEnabled": False}).status_code == 200
    assert visitor.get(path).status_code == 404
    assert visitor.post(path, data={"firstName": "A", "lastName": "B"}).status_code == 404
    assert operator.get(f"/operator/rosters/{roster['id']}/registration").json["data"]["enabled"] is False
    assert partner.patch(f"/rosters/{roster['id']}", json={"selfRegistrationEnabled": True}).status_code == 200
    assert visitor.get(path).status_code == 200


def test_partner_patches_keep_self_registered_players(operator: Api, partner: Api, visitor: FlaskClient) -> None:
    roster = make_roster(partner)
    assert submit(visitor, sign_up_path(operator, roster["id"]), firstName="Ana", lastName="Silva").status_code == 201
    patched = partner.patch(f"/rosters/{roster['id']}", json={"name": "Renamed", "description": "Open to all"})
    assert patched.status_code == 200
    assert patched.json["data"]["source"]["playerCount"] == 1
    assert [p["lastName"] for p in players(operator, partner, roster)] == ["Silva"]


def test_partner_reads_never_contain_the_sign_up_key(operator: Api, partner: Api) -> None:
    roster = make_roster(partner)
    key = sign_up_path(operator, roster["id"]).rsplit("/", 1)[1]
    for read in (partner.get(f"/rosters/{roster['id']}"), partner.get("/rosters")):
        assert key not in read.get_data(as_text=True) and "reg_" not in read.get_data(as_text=True)
