"""Contract §8a, blank names: a name or label that is empty after trimming (spaces, zero-width and other format
characters) is `400 validation_failed` naming the field, on every path (partner, operator, import, draw, sign-up),
and nothing is stored."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from domain.names import BLANK_MESSAGE, CONTROL_MESSAGE, is_blank
from tests.api.resources_support import player
from tests.api.test_self_registration import make_roster, sign_up_path, submit
from tests.conftest import Api

BLANK = ["   ", "\u200b", " \u2060\ufeff ", "\u00ad", "\u3000\u200d"]
#: Characters of no visible category, or of one that shows nothing (issue 47): tag characters, a musical and an
#: Egyptian format control, the braille blank.
INVISIBLE_ALONE = ["\U000e0001", "\U000e0020", "\U000e007f", "\U000e0041\U000e0042", "\U0001d173", "\U00013430",
                   "\u2800", " \u2800 "]


def refused(response: Any) -> dict[str, Any]:
    assert response.status_code == 400, response.get_data(as_text=True)[:300]
    assert response.json["error"]["code"] == "validation_failed"
    return dict(response.json["error"]["details"])


def test_the_rule() -> None:
    assert all(is_blank(name) for name in [*BLANK, *INVISIBLE_ALONE, ""])
    assert not any(is_blank(name) for name in ["A", " Ann ", "\u200bLee", "\U0001f600", "é", "\u2800A", "!", "1"])


@pytest.mark.parametrize("name", INVISIBLE_ALONE)
def test_invisible_characters_alone_are_refused_as_a_name_a_label_and_a_broadcast_name(
        operator: Api, partner: Api, name: str) -> None:
    assert refused(operator.post("/operator/broadcasts", json={"name": name, "tables": [{"label": "C"}]})) == {
        "json": {"name": [BLANK_MESSAGE]}}
    assert refused(operator.post("/operator/broadcasts", json={"name": "Day", "tables": [{"label": name}]})) == {
        "json": {"tables": {"0": {"label": [BLANK_MESSAGE]}}}}
    broadcast = operator.post("/operator/broadcasts", json={"name": "Day", "tables": [{"label": "C"}]}).json["data"]
    assert refused(operator.post("/operator/matches", json={
        "tableID": broadcast["tables"][0]["id"], "playerA": {"manualName": name}, "playerB": {"manualName": "Bo"}}
    )) == {"json": {"playerA": {"manualName": [BLANK_MESSAGE]}}}
    assert refused(partner.put("/player-lists", json={
        "externalID": "pl", "name": "List", "players": [player("p1", firstName=name, lastName="")]})) == {
        "json": {"players": {"0": {"firstName": [BLANK_MESSAGE]}}}}
    assert operator.get("/operator/matches").json["data"] == []
    assert [b["name"] for b in operator.get("/operator/broadcasts").json["data"]] == ["Day"]


@pytest.mark.parametrize("label", ["Court\r\n3", "Court 3\n", "\tCourt 3", "Court\x073", "Court\x853"])
def test_a_court_label_with_a_control_character_is_refused_at_create_and_patch(operator: Api, label: str) -> None:
    """A label is one line (a call-up mail's subject carries it): CR, LF, TAB and the other controls are 400."""
    assert refused(operator.post("/operator/broadcasts", json={"name": "Day", "tables": [{"label": label}]})) == {
        "json": {"tables": {"0": {"label": [CONTROL_MESSAGE]}}}}
    broadcast = operator.post("/operator/broadcasts", json={"name": "Day", "tables": [{"label": "C"}]}).json["data"]
    court = broadcast["tables"][0]["id"]
    assert refused(operator.patch(f"/operator/broadcasts/{broadcast['id']}", json={
        "tables": [{"id": court, "label": label}]})) == {"json": {"tables": {"0": {"label": [CONTROL_MESSAGE]}}}}
    (kept,) = operator.get("/operator/broadcasts").json["data"]
    assert [t["label"] for t in kept["tables"]] == ["C"]


@pytest.mark.parametrize("name", BLANK)
def test_operator_names_and_labels(operator: Api, name: str) -> None:
    assert refused(operator.post("/operator/broadcasts", json={"name": name, "tables": [{"label": "C"}]})) == {
        "json": {"name": [BLANK_MESSAGE]}}
    assert refused(operator.post("/operator/broadcasts", json={"name": "Day", "tables": [{"label": name}]})) == {
        "json": {"tables": {"0": {"label": [BLANK_MESSAGE]}}}}
    broadcast = operator.post("/operator/broadcasts", json={"name": "Day", "tables": [{"label": "C"}]}).json["data"]
    details = refused(operator.post("/operator/matches", json={
        "tableID": broadcast["tables"][0]["id"], "playerA": {"manualName": name}, "playerB": {"manualName": "Bo"}}))
    assert details == {"json": {"playerA": {"manualName": [BLANK_MESSAGE]}}}
    assert operator.get("/operator/matches").json["data"] == []
    assert [b["name"] for b in operator.get("/operator/broadcasts").json["data"]] == ["Day"]


@pytest.mark.parametrize("name", BLANK[:2])
def test_partner_sync_names(partner: Api, name: str) -> None:
    details = refused(partner.put("/player-lists", json={
        "externalID": "pl", "name": "List", "players": [player("p1"), player("p2", lastName=name)]}))
    assert details == {"json": {"players": {"1": {"lastName": [BLANK_MESSAGE]}}}}
    assert refused(partner.put("/player-lists", json={"externalID": "pl", "name": name, "players": []})) == {
        "json": {"name": [BLANK_MESSAGE]}}
    assert partner.get("/player-lists").json["data"] == []
    ok = partner.put("/player-lists", json={"externalID": "pl", "name": "L", "players": [player("p1", lastName="")]})
    assert ok.status_code == 200, ok.json  # an optional name left empty is not a blank one


@pytest.mark.parametrize("name", BLANK[:2])
def test_draw_entries_and_import_rows(operator: Api, name: str) -> None:
    broadcast = operator.post("/operator/broadcasts", json={"name": "Day", "tables": [{"label": "C"}]}).json["data"]
    details = refused(operator.post("/operator/draws", json={
        "broadcastID": broadcast["id"], "name": "Open", "format": "round_robin",
        "entries": [{"players": [{"manualName": "Ann"}]}, {"players": [{"manualName": name}]}]}))
    assert details == {"json": {"entries": {"1": {"players": {"0": {"manualName": [BLANK_MESSAGE]}}}}}}
    details = refused(operator.post("/operator/draws", json={
        "broadcastID": broadcast["id"], "name": name, "format": "round_robin",
        "entries": [{"players": [{"manualName": "Ann"}]}, {"players": [{"manualName": "Bo"}]}]}))
    assert details == {"json": {"name": [BLANK_MESSAGE]}}
    details = refused(operator.post("/operator/matches/import", json={
        "broadcastID": broadcast["id"], "dryRun": False,
        "rows": [{"court": "C", "playerA": "Ann", "playerB": name}]}))
    assert details == {"json": {"rows": {"0": {"playerB": [BLANK_MESSAGE]}}}}
    assert operator.get(f"/operator/draws?broadcastID={broadcast['id']}").json["data"] == []
    assert operator.get("/operator/matches").json["data"] == []


def test_sign_up_form(operator: Api, partner: Api, app: Flask) -> None:
    roster = make_roster(partner)
    path = sign_up_path(operator, roster["id"])
    page = submit(app.test_client(), path, firstName="\u200b", lastName="Silva")
    assert page.status_code == 400 and page.mimetype == "text/html"
    assert BLANK_MESSAGE.split(" (")[0] in page.get_data(as_text=True)
    assert partner.get(f"/rosters/{roster['id']}").json["data"]["playerCount"] == 0


def test_draw_player_names_its_property(operator: Api) -> None:
    """A 121-character manualName is told so, not that the player has the wrong shape (issue 37, point 12)."""
    broadcast = operator.post("/operator/broadcasts", json={"name": "Day", "tables": [{"label": "C"}]}).json["data"]
    details = refused(operator.post("/operator/draws", json={
        "broadcastID": broadcast["id"], "name": "Open", "format": "round_robin",
        "entries": [{"players": [{"manualName": "A" * 121}]}, {"players": [{"manualName": "Bo"}]}]}))
    assert details == {"json": {"entries": {"0": {"players": {"0": {
        "manualName": ["Length must be between 1 and 120."]}}}}}}
