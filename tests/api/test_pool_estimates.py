"""The court pool with estimates (contract §13): each pool match's `estimatedStartOn` is when a court should be
free for it: in pool order, the court that comes free first after its own queue, for one typical match."""

from __future__ import annotations

from datetime import timedelta

import pytest

from domain.clock import FixedClock, iso
from tests.conftest import Api

# the server's COURTSIDE_DEFAULT_MATCH_MINUTES, when set, overrides each format's typical match (contract §9)
pytestmark = pytest.mark.parametrize("settings", [{"default_match_minutes": 20}], indirect=True)


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


def test_a_draw_limited_to_one_court_is_estimated_on_that_court_only(operator: Api, clock: FixedClock) -> None:
    """The draw's `tableIDs`: its pool matches wait for Court 2 even while Court 1 stands free, one typical match
    after another; another draw on every court takes Court 1 at once."""
    made = operator.post("/operator/broadcasts", json={"name": "Open", "tables": [{"label": "Court 1"},
                                                                                  {"label": "Court 2"}]})
    assert made.status_code == 201, made.json
    broadcast = made.json["data"]
    court_2 = broadcast["tables"][1]["id"]

    def draw(name: str, **options: object) -> None:
        body = {"broadcastID": broadcast["id"], "name": name, "format": "single_elimination", "bestOf": 1,
                "randomSeed": 7, "entries": [{"players": [{"manualName": f"{name} {n}"}]} for n in range(1, 5)]}
        made = operator.post("/operator/draws", json=body | options)
        assert made.status_code == 201, made.json

    draw("Juniors", tableIDs=[court_2])
    draw("Seniors")
    pool = operator.get(f"/operator/broadcasts/{broadcast['id']}/pool")
    assert pool.status_code == 200, pool.json
    now = clock.now()
    by_event = sorted((m["eventName"], m["estimatedStartOn"]) for m in pool.json["data"])
    # Juniors' two first-round matches on Court 2 only: now and after one typical match (20 minutes);
    # Seniors' two: Court 1 now, then Court 1 again (Court 2 is free only at 40 minutes)
    assert by_event == [("Juniors", iso(now)), ("Juniors", iso(now + timedelta(minutes=20))),
                        ("Seniors", iso(now)), ("Seniors", iso(now + timedelta(minutes=20)))]
