"""Planning computes outside the store's lock (issue 47.5: on TinyDB a 2,016-match planning held every other caller
for its 8 s): it reads, computes with no lock held, then writes after reading again; if what it read changed
meanwhile, the plan is made again from what is stored then. Over the real app on both backends; the planner is the
real one, wrapped only to act while it computes."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask

from domain.plan import service
from tests.api.test_draws import create, make_courts
from tests.api.test_plan import plan, settle
from tests.conftest import Api

pytestmark = pytest.mark.parametrize("settings", [{"time_zone": "Europe/Berlin"}], indirect=True)


def while_computing(monkeypatch: pytest.MonkeyPatch, action: Callable[[], None]) -> list[threading.Thread]:
    """Run `action` in another thread during the first planning's computation and wait for it there (at most
    20 s): the thread is left alive only if the computation held what `action` needs."""
    real = service.compute_plan
    done: list[threading.Thread] = []

    def wrapped(work: service.PlanWork) -> service.PlanMade:
        if not done:
            other = threading.Thread(target=action, daemon=True)
            done.append(other)
            other.start()
            other.join(timeout=20)
        return real(work)

    monkeypatch.setattr(service, "compute_plan", wrapped)
    return done


def test_another_callers_write_completes_while_a_plan_is_computed(
    operator: Api, app: Flask, monkeypatch: pytest.MonkeyPatch,
) -> None:
    broadcast_id, _ = make_courts(operator, 2)
    create(operator, broadcast_id, "single_elimination", 8, name="Singles")
    settle(operator, broadcast_id, matchMinutes={"default": 30})
    elsewhere, _ = make_courts(operator, 1, name="Elsewhere")
    answers: list[int] = []

    def rename() -> None:
        answers.append(Api(app.test_client(), operator.token).patch(
            f"/operator/broadcasts/{elsewhere}", json={"name": "Renamed"}).status_code)

    others = while_computing(monkeypatch, rename)
    assert plan(operator, broadcast_id)["placed"] == 7
    assert not others[0].is_alive() and answers == [200]  # it did not wait for the planning to end


def test_a_plan_whose_inputs_changed_meanwhile_is_made_again_from_what_is_stored(
    operator: Api, app: Flask, monkeypatch: pytest.MonkeyPatch,
) -> None:
    broadcast_id, courts = make_courts(operator, 2)
    create(operator, broadcast_id, "single_elimination", 8, name="Singles")
    settle(operator, broadcast_id, matchMinutes={"default": 30})
    added: list[Any] = []

    def add_a_match() -> None:
        added.append(Api(app.test_client(), operator.token).post("/operator/matches", json={
            "tableID": courts[0], "bestOf": 1, "playerA": {"manualName": "Late A"},
            "playerB": {"manualName": "Late B"}}).json["data"]["id"])

    others = while_computing(monkeypatch, add_a_match)
    answer = plan(operator, broadcast_id)
    assert not others[0].is_alive()
    assert answer["placed"] == 7 + 1 and answer["unplaced"] == []  # the match added meanwhile is in the plan
    view = operator.get(f"/operator/broadcasts/{broadcast_id}/plan").json["data"]
    planned = {s.get("matchID") for d in view["days"] for c in d["courts"] for s in c["slots"]}
    assert added[0] in planned
