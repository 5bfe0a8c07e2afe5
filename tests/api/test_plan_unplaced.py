"""Issue 46, point 5 (contract §20): when the days cannot hold every match, each unplaced match is named (sides,
event, round, length) with its reason, the answer says the last day's end that would hold them all at these lengths,
the grid lists the matches without a place, and one of them can be placed by hand. On both backends."""

from __future__ import annotations

from typing import Any

import pytest

from tests.api.test_draws import create, draw_matches, make_courts
from tests.api.test_plan import grid, plan, slots
from tests.conftest import Api

pytestmark = pytest.mark.parametrize("settings", [{"time_zone": "Europe/Berlin"}], indirect=True)
SHORT_DAY = {"date": "2026-11-21", "start": "12:00", "end": "13:30"}  # 11:00-12:30 UTC; the clock says 10:00 UTC


def test_a_day_too_short_names_each_unplaced_match_and_the_end_that_would_hold_them(operator: Api) -> None:
    broadcast_id, courts = make_courts(operator, 2)
    knockout = create(operator, broadcast_id, "single_elimination", 8, name="Singles")
    patched = operator.patch(f"/operator/broadcasts/{broadcast_id}",
                             json={"plan": {"days": [SHORT_DAY], "matchMinutes": {"default": 30}}})
    assert patched.status_code == 200, patched.json
    answer = plan(operator, broadcast_id)
    # 2 courts x 3 rows of 30 minutes: the four quarterfinals and both semifinals; the final is left out
    assert answer["placed"] == 6
    [final] = answer["unplaced"]
    assert final["names"] == ["Winner of SF-1", "Winner of SF-2"] and final["event"] == "Singles"
    assert final["round"] == "Final" and final["minutes"] == 30 and final["drawMatchID"]
    assert final["reason"].strip()
    assert answer["needed"] == {"date": "2026-11-21", "end": "2026-11-21T13:00:00.000Z"}  # one more row: 14:00 local

    view: dict[str, Any] = grid(operator, broadcast_id)
    assert [(u["drawMatchID"], u["names"], u["minutes"]) for u in view["unplaced"]] == [
        (final["drawMatchID"], ["Winner of SF-1", "Winner of SF-2"], 30)]
    moved = operator.post(f"/operator/draw-matches/{final['drawMatchID']}/plan",
                          json={"tableID": courts[0], "plannedOn": "2026-11-21T12:30:00Z"})
    assert moved.status_code == 200, moved.json
    after = grid(operator, broadcast_id)
    assert after["unplaced"] == [] and slots(after)[final["drawMatchID"]]["tableID"] == courts[0]
    assert {dm["id"] for dm in draw_matches(knockout)} == set(slots(after))


def test_a_day_that_holds_everything_says_nothing_is_needed(operator: Api) -> None:
    broadcast_id, _ = make_courts(operator, 2)
    create(operator, broadcast_id, "single_elimination", 4, name="Singles")
    operator.patch(f"/operator/broadcasts/{broadcast_id}",
                   json={"plan": {"days": [SHORT_DAY], "matchMinutes": {"default": 30}}})
    answer = plan(operator, broadcast_id)
    assert answer["unplaced"] == [] and "needed" not in answer
    assert grid(operator, broadcast_id)["unplaced"] == []
