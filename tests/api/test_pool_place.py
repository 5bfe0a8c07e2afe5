"""Contract §13 (issue 37, point 10): a pool match moved onto a court's queue and back into the pool keeps its
place (the time it first became ready), ahead of matches that became ready after it."""

from __future__ import annotations

from domain.clock import FixedClock
from tests.api.test_draws import create, make_courts
from tests.conftest import Api


def pool_ids(operator: Api, broadcast_id: str) -> list[str]:
    return [m["id"] for m in operator.get(f"/operator/broadcasts/{broadcast_id}/pool?limit=100").json["data"]]


def test_a_pool_match_moved_onto_a_court_and_back_keeps_its_place(operator: Api, clock: FixedClock) -> None:
    broadcast_id, courts = make_courts(operator, 2)
    create(operator, broadcast_id, "single_elimination", 4, name="Early")
    clock.advance(600)
    create(operator, broadcast_id, "single_elimination", 4, name="Later", entries=[
        {"players": [{"manualName": f"Later {i}"}], "seed": i + 1} for i in range(4)])
    before = pool_ids(operator, broadcast_id)
    assert len(before) == 4
    clock.advance(600)
    first = before[0]
    assert operator.post(f"/operator/matches/{first}/move", json={"tableID": courts[1]}).status_code == 200
    assert pool_ids(operator, broadcast_id) == before[1:]
    clock.advance(600)
    back = operator.post(f"/operator/matches/{first}/move", json={"tableID": None})
    assert back.status_code == 200, back.json
    assert pool_ids(operator, broadcast_id) == before
    started = operator.post(f"/operator/tables/{courts[0]}/start-next")
    assert started.status_code == 200 and started.json["data"]["id"] == first
