"""Scoring operations' answers are kept 24 hours (contract §17) and then forgotten by the hourly job, so the
table holds about a day of taps, not every tap ever made; both backends."""

from __future__ import annotations

from domain.clock import FixedClock
from domain.match import operations
from storage.backend import AnyStore
from storage.repository import unit_of_work
from tests.conftest import Api


def test_answers_older_than_a_day_are_forgotten_and_younger_ones_still_answer_a_retry(
        operator: Api, store: AnyStore, clock: FixedClock) -> None:
    made = operator.post("/operator/broadcasts", json={"name": "Open", "tables": [{"label": "Court 1"}]})
    assert made.status_code == 201, made.json
    match = operator.post("/operator/matches", json={"tableID": made.json["data"]["tables"][0]["id"],
                                                     "playerA": {"manualName": "Ann Lee"},
                                                     "playerB": {"manualName": "Bo Chen"}})
    assert match.status_code == 201, match.json
    match_id = match.json["data"]["id"]
    started = operator.post(f"/operator/matches/{match_id}/start")
    assert started.status_code == 200, started.json
    tap = {"side": "a", "version": started.json["data"]["scoreVersion"], "opID": "tap-1"}
    first = operator.post(f"/operator/matches/{match_id}/point", json=tap)
    assert first.status_code == 200, first.json

    clock.advance(seconds=23 * 3600)
    with unit_of_work(store) as uow:
        assert operations.forget_expired(uow, now=clock.now()) == 0
    again = operator.post(f"/operator/matches/{match_id}/point", json=tap)  # a retry: the first answer again
    assert again.status_code == 200 and again.json["data"]["gameScores"] == [{"a": 1, "b": 0}]

    clock.advance(seconds=2 * 3600)
    with unit_of_work(store) as uow:
        assert operations.forget_expired(uow, now=clock.now()) == 1
    with unit_of_work(store) as uow:
        assert uow.operations.find() == []
