"""The order of play's person rule over HTTP (contract §20, sharpened with §24): within one draw two matches share a
person only when the same entry can play both, so the winners' and the losers' match of the same pair of earlier
matches are planned at once on two courts; a club day of a consolation draw, a play-off draw and round robin
groups with play-offs is placed in full when the day is long enough. On both backends."""

from __future__ import annotations

from typing import Any

import pytest

from tests.api.test_draws import create, draw_matches, make_courts
from tests.api.test_plan import grid, plan, settle, slots
from tests.api.test_plan_feeders import assert_after_groups, set_rest
from tests.conftest import Api

Json = dict[str, Any]
pytestmark = pytest.mark.parametrize("settings", [{"time_zone": "Europe/Berlin"}], indirect=True)
LONG_DAY = {"date": "2026-11-21", "start": "11:00", "end": "23:00"}  # 10:00-22:00 UTC; the clock says 10:00 UTC


def named(prefix: str, count: int) -> list[Json]:
    return [{"players": [{"manualName": f"{prefix} {i + 1}"}], "seed": i + 1} for i in range(count)]


def pairs_of_outcomes(draw: Json) -> list[tuple[str, str]]:
    """(winners' match, losers' match) of every pair of matches whose winners meet and whose losers meet."""
    fed: dict[tuple[frozenset[str], str], str] = {}
    for dm in draw_matches(draw):
        origins = [slot["from"] or {} for slot in dm["slots"]]
        if all(o.get("drawMatchID") for o in origins) and len({o["outcome"] for o in origins}) == 1:
            fed[(frozenset(o["drawMatchID"] for o in origins), origins[0]["outcome"])] = dm["id"]
    return [(fed[(pair, "winner")], fed[(pair, "loser")]) for pair, outcome in fed
            if outcome == "winner" and (pair, "loser") in fed]


@pytest.mark.parametrize("fmt", ["playoff_all", "consolation"])
def test_the_winners_and_the_losers_match_of_one_pair_are_planned_at_once(operator: Api, fmt: str) -> None:
    broadcast_id, courts = make_courts(operator, 4)
    draw = create(operator, broadcast_id, fmt, 8, entries=named("Ann", 8))
    settle(operator, broadcast_id, matchMinutes={"default": 30})
    answer = plan(operator, broadcast_id)
    assert answer["unplaced"] == []
    view = grid(operator, broadcast_id)
    assert view["conflicts"] == []
    placed = slots(view)
    pairs = pairs_of_outcomes(draw)
    assert pairs  # the four first-round matches make two such pairs
    at_once = [(w, lost) for w, lost in pairs if placed[w]["plannedOn"] == placed[lost]["plannedOn"]]
    assert at_once, [(placed[w]["plannedOn"], placed[lost]["plannedOn"]) for w, lost in pairs]
    # a hand move of a losers' match beside its winners' match is no conflict either
    winners, losers = pairs[0]
    court = next(c for c in courts if c != placed[winners]["tableID"])
    moved = operator.post(f"/operator/draw-matches/{losers}/plan",
                          json={"tableID": court, "plannedOn": placed[winners]["plannedOn"]})
    assert moved.status_code == 200, moved.json
    assert not [c for c in moved.json["data"]["conflicts"] if c["kind"] in ("person_twice", "rest")]


def test_a_match_and_the_one_its_winner_plays_next_still_share_a_person(operator: Api) -> None:
    broadcast_id, courts = make_courts(operator, 2)
    draw = create(operator, broadcast_id, "playoff_all", 4, entries=named("Bo", 4))
    settle(operator, broadcast_id, matchMinutes={"default": 30})
    plan(operator, broadcast_id)
    placed = slots(grid(operator, broadcast_id))
    first = next(dm for dm in draw_matches(draw) if dm["status"] == "ready")
    final = first["next"]["winner"]["drawMatchID"]
    later = "2026-11-21T16:00:00Z"
    operator.post(f"/operator/draw-matches/{final}/plan", json={"tableID": courts[0], "plannedOn": later})
    moved = operator.post(f"/operator/draw-matches/{first['id']}/plan",
                          json={"tableID": courts[1], "plannedOn": later})
    assert moved.status_code == 200, moved.json
    kinds = {c["kind"] for c in moved.json["data"]["conflicts"]}
    assert {"before_feeder", "person_twice"} <= kinds, kinds
    assert placed


def test_a_club_day_is_placed_in_full_when_the_day_is_long_enough(operator: Api) -> None:
    broadcast_id, _ = make_courts(operator, 4)
    create(operator, broadcast_id, "consolation", 16, name="Consolation", entries=named("Cy", 16))
    create(operator, broadcast_id, "playoff_all", 8, name="Play-offs", entries=named("Di", 8))
    groups = create(operator, broadcast_id, "round_robin_playoff", 12, name="Groups", entries=named("Ed", 12),
                    groupCount=3)
    set_rest(operator, broadcast_id, 30)
    settle(operator, broadcast_id, days=[LONG_DAY], matchMinutes={"default": 40})
    answer = plan(operator, broadcast_id)
    assert answer["unplaced"] == [] and answer["placed"] >= 60
    view = grid(operator, broadcast_id)
    assert view["conflicts"] == []
    assert_after_groups(groups, slots(view), rest=30)
