"""Keeping to the order of play (contract §20): a planned time is a not-before (less `earlyMinutes`), start-next
takes a court's planned matches in planned order and another court's only when more than 15 minutes late,
estimates are the later of plan and reality, and the board tells how late each court runs. On both backends."""

from __future__ import annotations

from typing import Any

import pytest

from domain.clock import FixedClock
from tests.api.test_draws import complete, create, draw_matches
from tests.api.test_plan import grid, plan, settle, slots
from tests.conftest import Api

Json = dict[str, Any]
pytestmark = pytest.mark.parametrize("settings", [{"time_zone": "Europe/Berlin"}], indirect=True)


def planned_semis(operator: Api, **settings: Any) -> tuple[str, list[str], list[Json]]:
    """Two courts, a 4-entry knockout planned: both semifinals at 11:00 UTC (one per court), the final after."""
    made = operator.post("/operator/broadcasts", json={"name": "Club day",
                                                       "tables": [{"label": "Court 1"}, {"label": "Court 2"}]})
    broadcast_id, courts = made.json["data"]["id"], [t["id"] for t in made.json["data"]["tables"]]
    knockout = create(operator, broadcast_id, "single_elimination", 4, name="Singles")
    settle(operator, broadcast_id, matchMinutes={"default": 30}, **settings)
    plan(operator, broadcast_id)
    placed = slots(grid(operator, broadcast_id))
    semis = sorted((placed[dm["id"]] for dm in draw_matches(knockout) if dm["status"] == "ready"),
                   key=lambda s: courts.index(s["tableID"]))
    assert [(s["tableID"], s["plannedOn"]) for s in semis] == [(courts[0], "2026-11-21T11:00:00.000Z"),
                                                               (courts[1], "2026-11-21T11:00:00.000Z")]
    return broadcast_id, courts, semis


def test_a_planned_time_is_a_not_before_and_estimates_follow_the_plan(operator: Api, clock: FixedClock) -> None:
    broadcast_id, courts, semis = planned_semis(operator)
    early = operator.post(f"/operator/tables/{courts[0]}/start-next")
    assert early.status_code == 409 and early.json["error"]["code"] == "nothing_startable"
    assert {s["reason"] for s in early.json["error"]["details"]["skipped"]} == {"not_before"}
    assert early.json["error"]["details"]["skipped"][0]["until"] == "2026-11-21T11:00:00.000Z"
    pool = operator.get(f"/operator/broadcasts/{broadcast_id}/pool").json["data"]
    assert {m["estimatedStartOn"] for m in pool} == {"2026-11-21T11:00:00.000Z"}  # not 10:00, when courts are free
    forced = operator.post(f"/operator/matches/{semis[0]['matchID']}/move", json={"tableID": courts[0]})
    assert forced.status_code == 200, forced.json
    started = operator.post(f"/operator/matches/{semis[0]['matchID']}/start", json={"force": True})
    assert started.status_code == 200, started.json


def test_early_minutes_let_a_match_start_before_its_time(operator: Api, clock: FixedClock) -> None:
    broadcast_id, courts, semis = planned_semis(operator, earlyMinutes=60)
    started = operator.post(f"/operator/tables/{courts[0]}/start-next")
    assert started.status_code == 200, started.json
    assert started.json["data"]["id"] == semis[0]["matchID"]


def test_start_next_follows_the_plan_and_a_late_match_moves_court(operator: Api, clock: FixedClock) -> None:
    broadcast_id, courts, semis = planned_semis(operator)
    clock.advance(3600)  # 11:00 UTC
    first = operator.post(f"/operator/tables/{courts[1]}/start-next")
    assert first.status_code == 200 and first.json["data"]["id"] == semis[1]["matchID"]  # court 2's, not pool's 1st
    clock.advance(5 * 60)
    complete(operator, semis[1]["matchID"])
    not_yet = operator.post(f"/operator/tables/{courts[1]}/start-next")
    assert not_yet.status_code == 409 and not_yet.json["error"]["code"] == "queue_empty"  # court 1's is not late
    clock.advance(10 * 60)  # 11:15: court 1 has not started its match; 15 minutes is not "more than 15"
    board = {c["id"]: c for c in operator.get("/operator/tables").json["data"]}
    # an empty court runs late by nothing (issue 51): its match may start there now
    assert board[courts[0]]["lateMinutes"] == 0 and board[courts[0]]["late"] is None
    assert operator.post(f"/operator/tables/{courts[1]}/start-next").json["error"]["code"] == "queue_empty"
    clock.advance(10 * 60)  # 11:25
    board = {c["id"]: c for c in operator.get("/operator/tables").json["data"]}
    assert board[courts[0]]["late"] is None
    moved = operator.post(f"/operator/tables/{courts[1]}/start-next")
    assert moved.status_code == 200 and moved.json["data"]["id"] == semis[0]["matchID"]
    assert moved.json["data"]["tableID"] == courts[1]


def test_a_court_on_time_is_not_late(operator: Api, clock: FixedClock) -> None:
    broadcast_id, courts, semis = planned_semis(operator)
    clock.advance(3600 + 3 * 60)
    board = {c["id"]: c for c in operator.get("/operator/tables").json["data"]}
    assert board[courts[0]]["lateMinutes"] == 0 and board[courts[0]]["late"] is None


def test_a_court_whose_match_in_play_runs_into_its_planned_next_is_late_and_an_empty_one_never(
        operator: Api, clock: FixedClock) -> None:
    """Issue 51: a court is late by how far its match in play runs past its next planned match's time; an empty
    court never shows "N min late"."""
    broadcast_id, courts, semis = planned_semis(operator)
    friendly = operator.post("/operator/matches", json={
        "tableID": courts[0], "playerA": {"manualName": "Zoe Ash"}, "playerB": {"manualName": "Yan Bo"}})
    clock.advance(40 * 60)  # 10:40: the friendly starts, 30 minutes (the plan's matchMinutes) until 11:10
    assert operator.post(f"/operator/matches/{friendly.json['data']['id']}/start").status_code == 200
    clock.advance(5 * 60)
    board = {c["id"]: c for c in operator.get("/operator/tables").json["data"]}
    assert board[courts[0]]["typicalMinutes"] == 30
    assert board[courts[0]]["lateMinutes"] == 10 and board[courts[0]]["late"] == "Court 1: 10 min late"
    clock.advance(45 * 60)  # 11:30: Court 2 has not started its semifinal, and nothing plays there
    board = {c["id"]: c for c in operator.get("/operator/tables").json["data"]}
    assert board[courts[1]]["late"] is None and board[courts[0]]["late"] == "Court 1: 30 min late"
