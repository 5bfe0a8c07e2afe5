"""The court pool with estimates (contract §13): each pool match's `estimatedStartOn` is when a court should be
free for it: in pool order, the court that comes free first after its own queue, for one typical match."""

from __future__ import annotations

from datetime import timedelta

from domain.clock import FixedClock, iso
from tests.conftest import Api


def test_pool_matches_take_the_courts_as_they_come_free(operator: Api, clock: FixedClock) -> None:
    made = operator.post("/operator/broadcasts", json={"name": "Open", "tables": [{"label": "Court 1"},
                                                                                  {"label": "Court 2"}]})
    assert made.status_code == 201, made.json
    broadcast = made.json["data"]
    court_1 = broadcast["tables"][0]["id"]
    friendly = operator.post("/operator/matches", json={"tableID": court_1, "playerA": {"manualName": "Zoe Ash"},
                                                        "playerB": {"manualName": "Yan Bo"}})
    assert operator.post(f"/operator/matches/{friendly.json['data']['id']}/start").status_code == 200
    draw = operator.post("/operator/draws", json={
        "broadcastID": broadcast["id"], "name": "Open", "format": "single_elimination", "bestOf": 1, "randomSeed": 7,
        "entries": [{"players": [{"manualName": f"Player {n}"}], "seed": n} for n in range(1, 9)]})
    assert draw.status_code == 201, draw.json
    pool = operator.get(f"/operator/broadcasts/{broadcast['id']}/pool")
    assert pool.status_code == 200, pool.json
    now = clock.now()
    # typical match: 20 minutes (no history yet); Court 2 is free now, Court 1 in 20 minutes
    assert [m["estimatedStartOn"] for m in pool.json["data"]] == [
        iso(now + timedelta(minutes=minutes)) for minutes in (0, 20, 20, 40)]
