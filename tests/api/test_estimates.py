"""Contract §9 estimates on the court board (GET /operator/tables): `estimatedStartOn` of each queued match,
`expectedEndOn` of the active one, the broadcast's `typicalMinutes` (median of its last 20 durations, else
COURTSIDE_DEFAULT_MATCH_MINUTES), `attention` (overdue / waiting), and `busyPlayers` of queued matches."""
# ruff: noqa: F811 - the fixtures `courts` and `courts_factory` come from tests.api.test_matches

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from flask import Flask

from api.app import create_app
from api.bootstrap import bootstrap as build_services
from domain.clock import FixedClock, iso
from domain.settings import Settings
from storage.engine import Store
from tests.api.test_matches import Courts, courts, courts_factory  # noqa: F401 - fixtures
from tests.api.test_scoring_routes import call
from tests.conftest import OPERATOR_KEY, Api

# the server's COURTSIDE_DEFAULT_MATCH_MINUTES, when set, overrides each format's typical match (contract §9)
pytestmark = pytest.mark.parametrize("settings", [{"default_match_minutes": 20}], indirect=True)

WIN = {"gameScores": [{"a": 11, "b": 3}] * 3}


def board(operator: Api) -> dict[str, dict[str, Any]]:
    response = operator.get("/operator/tables")
    assert response.status_code == 200, response.json
    return {court["id"]: court for court in response.json["data"]}


def at(clock: FixedClock, minutes: float) -> str:
    return iso(clock.now() + timedelta(minutes=minutes))


def play(courts: Courts, operator: Api, external_id: str, minutes: float, table: int = 0) -> dict[str, Any]:
    """A match started now and completed `minutes` later (the clock moves)."""
    match = courts.sync(external_id, table)
    assert call(operator, "start", match["id"]).status_code == 200
    courts.clock.advance(minutes * 60)
    completed = call(operator, "complete", match["id"], WIN)
    assert completed.status_code == 200, completed.json
    return dict(completed.json["data"])


def test_free_court_estimates_its_queue_from_now_with_the_default_and_says_waiting(
    courts: Courts, operator: Api,
) -> None:
    for name in ("q1", "q2", "q3"):
        courts.sync(name)
    court = board(operator)[courts.tables[0]]
    assert court["activeMatch"] is None and court["typicalMinutes"] == 20.0
    assert [m["estimatedStartOn"] for m in court["queue"]] == [at(courts.clock, 0), at(courts.clock, 20),
                                                                at(courts.clock, 40)]
    assert court["attention"] == "waiting"
    empty = board(operator)[courts.tables[1]]
    assert empty["attention"] is None and empty["queue"] == []


def test_active_match_has_expected_end_and_the_queue_follows_it(courts: Courts, operator: Api) -> None:
    live = courts.sync("live")
    courts.sync("next")
    started = call(operator, "start", live["id"]).json["data"]
    assert started["startedOn"] == iso(courts.clock.now())  # match reads carry startedOn once started
    courts.clock.advance(5 * 60)
    court = board(operator)[courts.tables[0]]
    assert court["activeMatch"]["expectedEndOn"] == at(courts.clock, 15)
    assert court["queue"][0]["estimatedStartOn"] == at(courts.clock, 15)
    assert court["attention"] is None
    assert "estimatedStartOn" not in court["activeMatch"] and "expectedEndOn" not in court["queue"][0]


def test_typical_duration_is_the_median_of_the_broadcasts_completed_matches(courts: Courts, operator: Api) -> None:
    play(courts, operator, "d1", 10)
    play(courts, operator, "d2", 30, table=1)  # the other court of the same broadcast counts too
    play(courts, operator, "d3", 14)
    courts.sync("q1", 1)
    courts.sync("q2", 1)
    court = board(operator)[courts.tables[1]]
    assert court["typicalMinutes"] == 14.0
    assert [m["estimatedStartOn"] for m in court["queue"]] == [at(courts.clock, 0), at(courts.clock, 14)]


def test_results_typed_in_after_the_fact_do_not_make_a_0_minute_typical_duration(
    courts: Courts, operator: Api,
) -> None:
    for index in range(5):
        play(courts, operator, f"typed{index}", 0)
    assert board(operator)[courts.tables[0]]["typicalMinutes"] == 20.0  # the default, not 0
    for index in range(3):
        play(courts, operator, f"real{index}", 16)
    assert board(operator)[courts.tables[0]]["typicalMinutes"] == 16.0


def test_only_the_last_20_completed_matches_count(courts: Courts, operator: Api) -> None:
    for index in range(3):
        play(courts, operator, f"long{index}", 60)
    for index in range(20):
        play(courts, operator, f"short{index}", 12)
    assert board(operator)[courts.tables[0]]["typicalMinutes"] == 12.0


def test_another_broadcasts_history_does_not_count(
    courts_factory: Callable[..., Courts], operator: Api,
) -> None:
    one, two = courts_factory(), courts_factory()
    for index in range(3):
        play(one, operator, f"slow{index}", 50)
    assert board(operator)[two.tables[0]]["typicalMinutes"] == 20.0
    assert board(operator)[one.tables[0]]["typicalMinutes"] == 50.0


def test_match_over_one_and_a_half_typical_durations_is_overdue_and_expected_to_end_now(
    courts: Courts, operator: Api,
) -> None:
    live = courts.sync("live")
    courts.sync("next")
    call(operator, "start", live["id"])
    courts.clock.advance(30 * 60)
    court = board(operator)[courts.tables[0]]
    assert court["attention"] is None and court["activeMatch"]["expectedEndOn"] == at(courts.clock, 0)
    courts.clock.advance(1)
    court = board(operator)[courts.tables[0]]
    assert court["attention"] == "overdue"
    assert court["queue"][0]["estimatedStartOn"] == at(courts.clock, 0)


def test_queued_match_names_its_busy_players_and_where_they_play(courts: Courts, operator: Api) -> None:
    live = courts.sync("live", 0, playerA={"externalID": "p1"}, playerB={"externalID": "p2"})
    call(operator, "start", live["id"])
    courts.sync("blocked", 1, playerA={"externalID": "p1"}, playerB={"manualName": "Walk In"})
    courts.sync("free", 1, playerA={"externalID": "p3"}, playerB={"externalID": "p4"})
    queue = board(operator)[courts.tables[1]]["queue"]
    assert queue[0]["busyPlayers"] == [{"name": "Ada Lovelace", "tableID": courts.tables[0], "tableLabel": "Court 1"}]
    assert queue[1]["busyPlayers"] == []


def test_default_match_minutes_comes_from_the_environment(settings: Settings, store: Store, clock: FixedClock) -> None:
    assert Settings.from_env({"COURTSIDE_DEFAULT_MATCH_MINUTES": "12.5"}).default_match_minutes == 12.5
    app: Flask = create_app(build_services(settings.with_(default_match_minutes=12.5), store, clock=clock))
    operator = Api(app.test_client(), OPERATOR_KEY)
    partner = Api(app.test_client(), operator.post("/operator/keys", json={"name": "p"}).json["data"]["key"])
    tables = partner.post("/broadcasts", json={"name": "B", "tables": [{"label": "C1"}]}).json["data"]["tables"]
    assert board(operator)[tables[0]["id"]]["typicalMinutes"] == 12.5
