"""The order of play's feeders over HTTP (contract §20, sharpened with §24): a slot that comes from a group's rank
is fed by every match of that group, so no knockout or play-off match is planned before its groups end (plus
rest), and a hand move of one before them is a `before_feeder` error. On both backends."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest

from tests.api.test_draws import create, draw_matches, make_courts
from tests.api.test_plan import grid, plan, settle, slots
from tests.conftest import Api

Json = dict[str, Any]
pytestmark = pytest.mark.parametrize("settings", [{"time_zone": "Europe/Berlin"}], indirect=True)
REST = 10


def when(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))


def groups_behind(draw: Json) -> dict[str, set[str]]:
    """Per draw match outside the groups: the groups whose ranks can reach it (through every slot's origin)."""
    by_id = {dm["id"]: dm for dm in draw_matches(draw)}
    found: dict[str, set[str]] = {}

    def behind(dm: Json) -> set[str]:
        if dm["id"] not in found:
            groups: set[str] = set()
            for slot in dm["slots"]:
                origin = slot["from"] or {}
                if origin.get("group"):
                    groups.add(origin["group"])
                elif origin.get("drawMatchID"):
                    groups |= behind(by_id[origin["drawMatchID"]])
            found[dm["id"]] = groups
        return found[dm["id"]]

    return {dm["id"]: behind(dm) for dm in by_id.values() if dm["group"] is None}


def set_rest(operator: Api, broadcast_id: str, minutes: int = REST) -> None:
    patched = operator.patch(f"/operator/broadcasts/{broadcast_id}", json={"eventDay": {"restMinutes": minutes}})
    assert patched.status_code == 200, patched.json


def assert_after_groups(draw: Json, placed: dict[str, Json], *, rest: int = REST) -> int:
    """Every planned knockout or play-off match starts after the last match of each group behind it ends, plus
    rest; the number of such matches."""
    group_ends: dict[str, datetime] = {}
    for dm in draw_matches(draw):
        if dm["group"] is not None:
            slot = placed[dm["id"]]
            end = when(slot["plannedOn"]) + timedelta(minutes=slot["minutes"])
            group_ends[dm["group"]] = max(group_ends.get(dm["group"], end), end)
    checked = 0
    for dm_id, groups in groups_behind(draw).items():
        if dm_id not in placed:
            continue
        assert groups, dm_id
        start = when(placed[dm_id]["plannedOn"])
        for group in groups:
            assert start >= group_ends[group] + timedelta(minutes=rest), (dm_id, group, start, group_ends[group])
        checked += 1
    return checked


@pytest.mark.parametrize("fmt, count, options", [
    ("groups_knockout", 8, {"groupCount": 2, "advancePerGroup": 2}),
    ("round_robin_playoff", 12, {"groupCount": 3}),
])
def test_no_knockout_or_play_off_match_is_planned_before_its_groups_end(operator: Api, fmt: str, count: int,
                                                                         options: Json) -> None:
    broadcast_id, _ = make_courts(operator, 4)
    draw = create(operator, broadcast_id, fmt, count, **options)
    set_rest(operator, broadcast_id)
    settle(operator, broadcast_id, matchMinutes={"default": 30})
    answer = plan(operator, broadcast_id)
    assert answer["unplaced"] == []
    view = grid(operator, broadcast_id)
    assert view["conflicts"] == []
    placed = slots(view)
    assert assert_after_groups(draw, placed) >= 3


def test_a_hand_move_before_its_groups_end_is_a_before_feeder_error(operator: Api) -> None:
    broadcast_id, courts = make_courts(operator, 4)
    draw = create(operator, broadcast_id, "groups_knockout", 8, groupCount=2, advancePerGroup=2)
    settle(operator, broadcast_id, matchMinutes={"default": 30})
    plan(operator, broadcast_id)
    placed = slots(grid(operator, broadcast_id))
    first_group_match = min((dm for dm in draw_matches(draw) if dm["group"] is not None),
                            key=lambda dm: placed[dm["id"]]["plannedOn"])
    quarter = next(dm_id for dm_id in groups_behind(draw) if dm_id in placed)
    moved = operator.post(f"/operator/draw-matches/{quarter}/plan",
                          json={"tableID": courts[3], "plannedOn": placed[first_group_match["id"]]["plannedOn"]})
    assert moved.status_code == 200, moved.json
    feeders = [c for c in moved.json["data"]["conflicts"] if c["kind"] == "before_feeder"]
    assert feeders and all(c["severity"] == "error" and c["drawMatchIDs"] == [quarter] for c in feeders)
    group_match_ids = {dm["matchID"] for dm in draw_matches(draw) if dm["group"] is not None}
    assert {c["matchIDs"][0] for c in feeders} <= group_match_ids
    assert first_group_match["matchID"] in {c["matchIDs"][0] for c in feeders}


def test_a_place_fed_by_the_loser_of_a_bye_is_never_planned(operator: Api) -> None:
    broadcast_id, courts = make_courts(operator, 4)
    draw = create(operator, broadcast_id, "round_robin_playoff", 12, groupCount=3)
    settle(operator, broadcast_id, matchMinutes={"default": 30})
    answer = plan(operator, broadcast_id)
    assert answer["placed"] == 18 + 4 * 2 and answer["unplaced"] == []  # no "Place 3", "Place 6", …
    placed = slots(grid(operator, broadcast_id))
    never = [dm["id"] for rnd in draw["rounds"] if rnd["name"].startswith("Place ") for dm in rnd["drawMatches"]]
    assert len(never) == 4 and not set(never) & set(placed)
    moved = operator.post(f"/operator/draw-matches/{never[0]}/plan",
                          json={"tableID": courts[0], "plannedOn": "2026-11-21T18:00:00Z"})
    assert moved.status_code == 409 and moved.json["error"]["code"] == "match_not_pending"
