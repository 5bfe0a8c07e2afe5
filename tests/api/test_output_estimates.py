"""Output feeds carry estimates (contract §9 and §10) and follow corrections of the live score."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from flask.testing import FlaskClient

from domain.clock import FixedClock, iso
from tests.api.resources_support import make_broadcast, sync_list
from tests.api.test_outputs import PLAYERS, _live_match, client, outputs, path_of, state  # noqa: F401
from tests.conftest import Api
from tests.responses import json_of

# the server's COURTSIDE_DEFAULT_MATCH_MINUTES, when set, overrides each format's typical match (contract §9)
pytestmark = pytest.mark.parametrize("settings", [{"default_match_minutes": 20}], indirect=True)

DEFAULT_MINUTES = 20  # COURTSIDE_DEFAULT_MATCH_MINUTES


def queue(partner: Api, table_id: str, count: int) -> None:
    sync_list(partner, "pl", players=PLAYERS)
    for n in range(count):
        response = partner.put("/matches", json={"externalID": f"q{n}", "tableID": table_id,
                                                 "playerListExternalID": "pl", "playerA": {"externalID": "p2"},
                                                 "playerB": {"manualName": f"Guest {n}"}})
        assert response.status_code == 200, response.json


def test_an_idle_court_shows_when_its_next_match_should_start(
    partner: Api, operator: Api, client: FlaskClient, clock: FixedClock,  # noqa: F811
) -> None:
    broadcast = make_broadcast(partner, 1, scoreboardIDs=["court"])
    [court, venue] = outputs(operator, broadcast["id"])
    queue(partner, broadcast["tables"][0]["id"], 3)
    now = clock.now()
    assert [n["estimatedStartOn"] for n in state(client, court).json["upNext"]] == [iso(now)]  # free court: now
    venue_next = state(client, venue).json["courts"][0]["upNext"]
    assert [n["estimatedStartOn"] for n in venue_next] == [iso(now), iso(now + timedelta(minutes=DEFAULT_MINUTES))]


def test_behind_a_match_in_play_the_next_starts_when_it_is_expected_to_end(
    partner: Api, operator: Api, client: FlaskClient, clock: FixedClock,  # noqa: F811
) -> None:
    broadcast = make_broadcast(partner, 1, scoreboardIDs=["classic"])
    [_court, venue] = outputs(operator, broadcast["id"])
    table_id = broadcast["tables"][0]["id"]
    started = clock.now()
    _live_match(partner, operator, table_id)
    queue(partner, table_id, 1)
    clock.advance(5 * 60)
    court_state: dict[str, Any] = state(client, venue).json["courts"][0]
    assert court_state["match"] is not None
    expected = started + timedelta(minutes=DEFAULT_MINUTES)
    assert [n["estimatedStartOn"] for n in court_state["upNext"]] == [iso(expected)]


def test_a_corrected_score_replaces_the_one_on_the_page(
    partner: Api, operator: Api, client: FlaskClient,  # noqa: F811
) -> None:
    broadcast = make_broadcast(partner, 1, scoreboardIDs=["classic"])
    [court, _venue] = outputs(operator, broadcast["id"])
    match = _live_match(partner, operator, broadcast["tables"][0]["id"])
    operator.post(f"/operator/matches/{match['id']}/score", json={"gameScores": [{"a": 6, "b": 3}]})
    before = state(client, court)
    assert before.json["match"]["currentGame"] == {"a": 6, "b": 3}
    corrected = operator.post(f"/operator/matches/{match['id']}/score", json={"gameScores": [{"a": 5, "b": 3}]})
    assert corrected.status_code == 200
    after = client.get(path_of(court) + "/state", headers={"If-None-Match": before.headers["ETag"]})
    assert after.status_code == 200
    assert json_of(after)["match"]["currentGame"] == {"a": 5, "b": 3}
