"""The order of play over HTTP (contract §20): plan settings on the broadcast, planning every match still to play
(waiting draw matches included), the grid, hand moves that are never refused and always tell their conflicts,
re-planning that never moves a started match, and the refusals' envelopes. On both backends."""

from __future__ import annotations

from typing import Any

import pytest

from domain.clock import FixedClock
from tests.api.test_draws import complete, create, draw_matches, make_courts, read
from tests.conftest import Api

Json = dict[str, Any]
pytestmark = pytest.mark.parametrize("settings", [{"time_zone": "Europe/Berlin"}], indirect=True)
DAY = {"date": "2026-11-21", "start": "12:00", "end": "20:00"}  # 11:00-19:00 UTC; the clock says 10:00 UTC


def settle(operator: Api, broadcast_id: str, **plan: Any) -> Json:
    patched = operator.patch(f"/operator/broadcasts/{broadcast_id}", json={"plan": {"days": [DAY]} | plan})
    assert patched.status_code == 200, patched.json
    return dict(patched.json["data"])


def plan(operator: Api, broadcast_id: str, **body: Any) -> Json:
    made = operator.post(f"/operator/broadcasts/{broadcast_id}/plan", json=body)
    assert made.status_code == 200, made.json
    return dict(made.json["data"])


def grid(operator: Api, broadcast_id: str) -> Json:
    got = operator.get(f"/operator/broadcasts/{broadcast_id}/plan")
    assert got.status_code == 200, got.json
    return dict(got.json["data"])


def slots(view: Json) -> dict[str, Json]:
    return {s.get("drawMatchID") or s["matchID"]: s | {"tableID": c["tableID"]}
            for d in view["days"] for c in d["courts"] for s in c["slots"]}


def test_settings_are_kept_on_the_broadcast_and_checked(operator: Api) -> None:
    broadcast_id, courts = make_courts(operator, 2)
    read_back = settle(operator, broadcast_id, matchMinutes={"default": 25}, dailyLimit={"total": 3})
    assert read_back["plan"] == {"days": [DAY], "matchMinutes": {"default": 25}, "dailyLimit": {"total": 3},
                                 "earlyMinutes": 0, "published": False}
    for bad, field in (({"days": [DAY | {"tableIDs": ["tbl_nope"]}]}, "days"),
                       ({"days": [DAY | {"end": "11:00"}]}, "days"),
                       ({"days": [DAY], "matchMinutes": {"default": 4}}, "matchMinutes"),
                       ({"days": [DAY], "matchMinutes": {"drw_other": 30}}, "matchMinutes"),
                       ({"days": [DAY | {"start": "25:00"}]}, "days"),
                       ({"days": [DAY], "surprise": 1}, "surprise")):
        refused = operator.patch(f"/operator/broadcasts/{broadcast_id}", json={"plan": bad})
        assert refused.status_code == 400, (bad, refused.json)
        assert refused.json["error"]["code"] == "validation_failed"
        assert field in str(refused.json["error"]["details"])
    listed = operator.get("/operator/broadcasts").json["data"]
    assert next(b for b in listed if b["id"] == broadcast_id)["plan"]["matchMinutes"] == {"default": 25}


def test_planning_places_every_match_still_to_play_under_the_rules(operator: Api, clock: FixedClock) -> None:
    broadcast_id, courts = make_courts(operator, 3)
    knockout = create(operator, broadcast_id, "single_elimination", 8, name="Singles")
    groups = create(operator, broadcast_id, "round_robin", 4, name="Groups",
                    entries=[{"players": [{"manualName": f"Group {i}"}]} for i in range(4)])
    settle(operator, broadcast_id, matchMinutes={"default": 30})
    answer = plan(operator, broadcast_id)
    assert answer == {"placed": 7 + 6, "unplaced": [],
                      "days": [{"date": "2026-11-21", "end": answer["days"][0]["end"]}]}
    assert answer["days"][0]["end"] <= "2026-11-21T14:00:00.000Z"  # 13 x 30 min on 3 courts: 5 rows at most
    view = grid(operator, broadcast_id)
    assert view["conflicts"] == []
    placed = slots(view)
    assert set(placed) == {dm["id"] for dm in draw_matches(knockout) + draw_matches(groups)}
    assert [c["label"] for c in view["days"][0]["courts"]] == ["Court 1", "Court 2", "Court 3"]
    final = next(dm for dm in draw_matches(knockout) if dm["next"]["winner"] is None)
    assert placed[final["id"]]["names"] == ["Winner of SF-1", "Winner of SF-2"]  # issue 46: where they come from
    assert placed[final["id"]]["round"] == "Final" and placed[final["id"]]["event"] == "Singles"
    assert all(s["plannedOn"] >= "2026-11-21T11:00:00.000Z" and s["minutes"] == 30 for s in placed.values())
    first_round = [dm for dm in draw_matches(knockout) if dm["status"] == "ready"]
    assert all(placed[dm["id"]]["matchID"] == dm["matchID"] for dm in first_round)
    semis = [placed[dm["id"]] for dm in draw_matches(knockout) if dm["next"]["winner"] == {"drawMatchID": final["id"],
                                                                                           "slot": 0}
             or dm["next"]["winner"] == {"drawMatchID": final["id"], "slot": 1}]
    assert all(s["plannedOn"] < placed[final["id"]]["plannedOn"] for s in semis)
    dry = plan(operator, broadcast_id, dryRun=True)
    assert dry["placed"] == 13 and slots(grid(operator, broadcast_id)) == placed


def test_a_hand_move_is_never_refused_and_tells_every_conflict(operator: Api) -> None:
    broadcast_id, courts = make_courts(operator, 2)
    knockout = create(operator, broadcast_id, "single_elimination", 4, name="Singles")
    settle(operator, broadcast_id, matchMinutes={"default": 30})
    plan(operator, broadcast_id)
    placed = slots(grid(operator, broadcast_id))
    semis = [dm for dm in draw_matches(knockout) if dm["status"] == "ready"]
    final = next(dm for dm in draw_matches(knockout) if dm["status"] == "waiting")
    first = placed[semis[0]["id"]]
    moved = operator.post(f"/operator/draw-matches/{final['id']}/plan",
                          json={"tableID": first["tableID"], "plannedOn": first["plannedOn"]})
    assert moved.status_code == 200, moved.json
    assert moved.json["data"]["slot"]["plannedOn"] == first["plannedOn"]
    assert moved.json["data"]["slot"]["drawMatchID"] == final["id"]
    kinds = {(c["kind"], c["severity"]) for c in moved.json["data"]["conflicts"]}
    assert ("double_booked", "error") in kinds and ("before_feeder", "error") in kinds
    assert ("person_twice", "warning") in kinds
    booked = next(c for c in moved.json["data"]["conflicts"] if c["kind"] == "double_booked")
    assert booked["matchIDs"] == [semis[0]["matchID"]] and booked["drawMatchIDs"] == [final["id"]]
    assert booked["message"].startswith("Court ") and " has two matches at " in booked["message"]
    assert grid(operator, broadcast_id)["conflicts"] == moved.json["data"]["conflicts"]
    by_match = operator.post(f"/operator/matches/{semis[1]['matchID']}/plan",
                             json={"tableID": courts[1], "plannedOn": "2026-11-21T18:00:00Z"})
    assert by_match.status_code == 200 and by_match.json["data"]["slot"]["matchID"] == semis[1]["matchID"]
    # re-planning keeps hand-placed matches where they are (keepPlaced, the default), not counting them ...
    assert plan(operator, broadcast_id)["placed"] == 1
    assert slots(grid(operator, broadcast_id))[semis[1]["id"]]["plannedOn"] == "2026-11-21T18:00:00.000Z"
    # ... and places them again without it
    assert plan(operator, broadcast_id, keepPlaced=False)["placed"] == 3
    again = grid(operator, broadcast_id)
    assert again["conflicts"] == [] and slots(again)[semis[1]["id"]]["plannedOn"] < "2026-11-21T18:00:00.000Z"


def test_replanning_never_moves_a_started_match(operator: Api, clock: FixedClock) -> None:
    broadcast_id, courts = make_courts(operator, 2)
    knockout = create(operator, broadcast_id, "single_elimination", 4, name="Singles")
    settle(operator, broadcast_id, matchMinutes={"default": 30})
    plan(operator, broadcast_id)
    clock.advance(3600)  # 11:00 UTC, the day's start
    started = operator.post(f"/operator/tables/{courts[1]}/start-next")
    assert started.status_code == 200, started.json
    match_id = started.json["data"]["id"]
    clock.advance(600)
    answer = plan(operator, broadcast_id)
    assert answer["placed"] == 2  # the other semifinal and the final; the started one stays, not counted
    view = slots(grid(operator, broadcast_id))
    live = next(s for s in view.values() if s.get("matchID") == match_id)
    assert live["tableID"] == courts[1]
    others = [s for s in view.values() if s.get("matchID") != match_id]
    assert all(s["plannedOn"] >= "2026-11-21T11:10:00.000Z" for s in others)
    refused = operator.post(f"/operator/matches/{match_id}/plan",
                            json={"tableID": courts[0], "plannedOn": "2026-11-21T15:00:00Z"})
    assert refused.status_code == 409 and refused.json["error"]["code"] == "match_not_pending"
    complete(operator, match_id)
    done = next(dm for dm in draw_matches(read(operator, knockout["id"])) if dm["matchID"] == match_id)
    refused = operator.post(f"/operator/draw-matches/{done['id']}/plan",
                            json={"tableID": courts[0], "plannedOn": "2026-11-21T15:00:00Z"})
    assert refused.status_code == 409 and refused.json["error"]["code"] == "draw_match_not_open"


def test_refusals_have_the_error_envelope(operator: Api) -> None:
    broadcast_id, courts = make_courts(operator, 1)
    other_id, other_courts = make_courts(operator, 1, name="Other")
    knockout = create(operator, broadcast_id, "single_elimination", 2, name="Singles")
    no_days = operator.post(f"/operator/broadcasts/{broadcast_id}/plan", json={})
    assert no_days.status_code == 400 and no_days.json["error"]["code"] == "validation_failed"
    settle(operator, broadcast_id)
    for path, body, status, code in (
        ("/operator/broadcasts/brd_nope/plan", {}, 404, "not_found"),
        (f"/operator/broadcasts/{broadcast_id}/plan", {"dryRun": "yes"}, 400, "validation_failed"),
        (f"/operator/broadcasts/{broadcast_id}/plan", {"other": True}, 400, "validation_failed"),
        ("/operator/matches/mat_nope/plan", {"tableID": courts[0], "plannedOn": "2026-11-21T12:00:00Z"}, 404,
         "not_found"),
        ("/operator/draw-matches/dm_nope/plan", {"tableID": courts[0], "plannedOn": "2026-11-21T12:00:00Z"}, 404,
         "not_found"),
        (f"/operator/draw-matches/{draw_matches(knockout)[0]['id']}/plan",
         {"tableID": other_courts[0], "plannedOn": "2026-11-21T12:00:00Z"}, 400, "validation_failed"),
        (f"/operator/draw-matches/{draw_matches(knockout)[0]['id']}/plan",
         {"tableID": courts[0], "plannedOn": "noon"}, 400, "validation_failed"),
        (f"/operator/draw-matches/{draw_matches(knockout)[0]['id']}/plan",
         {"tableID": courts[0], "plannedOn": "2026-11-21T12:00:00"}, 400, "validation_failed"),
    ):
        answer = operator.post(path, json=body)
        assert answer.status_code == status, (path, body, answer.json)
        assert answer.json["error"]["code"] == code
    assert operator.get("/operator/broadcasts/brd_nope/plan").status_code == 404


def test_queued_matches_stay_on_their_court_and_not_before_and_daily_limits_hold(operator: Api) -> None:
    broadcast_id, courts = make_courts(operator, 2)
    made = [operator.post("/operator/matches", json={"tableID": courts[1], "playerA": {"manualName": a},
                                                     "playerB": {"manualName": b}}).json["data"]["id"]
            for a, b in (("Ann Lee", "Bo Kim"), ("Ann Lee", "Cy Day"), ("Ann Lee", "Di Fox"))]
    people = operator.get(f"/operator/broadcasts/{broadcast_id}/people").json["data"]
    ann = next(p["personID"] for p in people if p["name"] == "Ann Lee")
    settle(operator, broadcast_id, matchMinutes={"default": 30}, dailyLimit={"singles": 2},
           notBefore=[{"personID": ann, "time": "2026-11-21T13:00"}])  # 12:00 UTC
    answer = plan(operator, broadcast_id)
    assert answer["placed"] == 2
    assert answer["unplaced"] == [{"matchID": made[2], "names": ["Ann Lee", "Di Fox"], "event": None, "round": None,
                                   "minutes": 30, "reason": "Ann Lee's daily limit is reached on every day with room"}]
    assert "needed" not in answer  # a longer day would not hold it: the limit, not the day, leaves it out
    placed = slots(grid(operator, broadcast_id))
    assert {placed[m]["tableID"] for m in made[:2]} == {courts[1]}
    assert [placed[m]["plannedOn"] for m in made[:2]] == ["2026-11-21T12:00:00.000Z", "2026-11-21T12:30:00.000Z"]
    assert placed[made[0]]["names"] == ["Ann Lee", "Bo Kim"]


def match_of(operator: Api, match_id: str) -> Json:
    """The operator's read of one match (from the account's list)."""
    listed = operator.get("/operator/matches", query_string={"limit": 100})
    assert listed.status_code == 200, listed.json
    return dict(next(m for m in listed.json["data"] if m["id"] == match_id))


def test_match_reads_and_draw_matches_carry_their_planned_court_and_time(operator: Api) -> None:
    """§20: planning gives `plannedTableID` and `plannedOn` on match reads and draw matches; a hand move changes
    them; before any plan (and on a match the plan does not place) they are absent."""
    broadcast_id, courts = make_courts(operator, 2)
    knockout = create(operator, broadcast_id, "single_elimination", 4, name="Singles")
    queued = operator.post("/operator/matches", json={"tableID": courts[1], "playerA": {"manualName": "Cy Dunn"},
                                                      "playerB": {"manualName": "Di Eve"}})
    assert queued.status_code == 201, queued.json
    ready = [dm for dm in draw_matches(knockout) if dm["status"] == "ready"]
    before = match_of(operator, ready[0]["matchID"])
    assert "plannedOn" not in before and "plannedTableID" not in before
    assert all("plannedOn" not in dm for dm in draw_matches(read(operator, knockout["id"])))

    settle(operator, broadcast_id, matchMinutes={"default": 30})
    plan(operator, broadcast_id)
    placed = slots(grid(operator, broadcast_id))
    shown = {dm["id"]: dm for dm in draw_matches(read(operator, knockout["id"]))}
    assert {key: (dm["plannedTableID"], dm["plannedOn"]) for key, dm in shown.items()} == {
        key: (placed[key]["tableID"], placed[key]["plannedOn"]) for key in shown}
    for dm in ready:
        match = match_of(operator, dm["matchID"])
        assert (match["plannedTableID"], match["plannedOn"]) == (placed[dm["id"]]["tableID"],
                                                                 placed[dm["id"]]["plannedOn"])
    own = match_of(operator, queued.json["data"]["id"])
    assert (own["plannedTableID"], own["plannedOn"]) == (courts[1], placed[own["id"]]["plannedOn"])

    moved = operator.post(f"/operator/matches/{ready[0]['matchID']}/plan",
                          json={"tableID": courts[0], "plannedOn": "2026-11-21T17:30:00Z"})
    assert moved.status_code == 200, moved.json
    after = match_of(operator, ready[0]["matchID"])
    assert (after["plannedTableID"], after["plannedOn"]) == (courts[0], "2026-11-21T17:30:00.000Z")
    board = operator.get("/operator/tables").json["data"]
    queue = next(c for c in board if c["id"] == courts[1])["queue"]
    assert [m["plannedOn"] for m in queue] == [own["plannedOn"]]


def test_nothing_is_planned_before_the_next_whole_minute(operator: Api, clock: FixedClock) -> None:
    broadcast_id, _ = make_courts(operator, 2)
    knockout = create(operator, broadcast_id, "single_elimination", 4, name="Singles")
    settle(operator, broadcast_id, matchMinutes={"default": 30})
    clock.advance(5 * 3600 + 32 * 60 + 40)  # 15:32:40 UTC, 16:32:40 in Berlin: within the day
    answer = plan(operator, broadcast_id)
    assert answer["placed"] == 3
    placed = slots(grid(operator, broadcast_id))
    starts = sorted(s["plannedOn"] for s in placed.values())
    assert starts[0] == "2026-11-21T15:33:00.000Z"  # not 15:32:00, before now
    assert {placed[dm["id"]]["plannedOn"] for dm in draw_matches(knockout) if dm["status"] == "ready"} == {
        "2026-11-21T15:33:00.000Z"}


def newest(operator: Api) -> Json:
    return dict(operator.get("/operator/audit").json["data"][0])


def test_a_plan_and_each_hand_move_write_one_audit_entry_and_a_dry_run_none(operator: Api) -> None:
    """§16 lists "plan" among the changes to matches: planning a broadcast writes one entry naming each match
    (draw matches by their ID) whose court or time changed, a hand move one entry for its match; a dry run or a
    plan that changed nothing writes none."""
    broadcast_id, courts = make_courts(operator, 2)
    knockout = create(operator, broadcast_id, "single_elimination", 4, name="Singles")
    settle(operator, broadcast_id, matchMinutes={"default": 30})
    before = newest(operator)["seq"]
    plan(operator, broadcast_id, dryRun=True)
    assert newest(operator)["seq"] == before
    plan(operator, broadcast_id)
    placed = slots(grid(operator, broadcast_id))
    entry = newest(operator)
    assert entry["seq"] == before + 1
    assert (entry["action"], entry["target"], entry["actor"]["kind"]) == (
        "broadcast.planned", {"type": "broadcast", "id": broadcast_id}, "operator")
    ids = {dm["id"] for dm in draw_matches(knockout)}
    assert entry["before"] == {key: None for key in ids}
    assert {key: (where["tableID"], where["plannedOn"], where["byHand"]) for key, where in entry["after"].items()} \
        == {key: (placed[key]["tableID"], placed[key]["plannedOn"], False) for key in ids}
    plan(operator, broadcast_id)  # the same plan again: nothing changed
    assert newest(operator)["seq"] == before + 1

    final = next(dm for dm in draw_matches(knockout) if dm["status"] == "waiting")
    moved = operator.post(f"/operator/draw-matches/{final['id']}/plan",
                          json={"tableID": courts[1], "plannedOn": "2026-11-21T18:30:00Z"})
    assert moved.status_code == 200, moved.json
    entry = newest(operator)
    assert (entry["action"], entry["target"]) == ("match.planned", {"type": "draw_match", "id": final["id"]})
    assert entry["after"] == {final["id"]: {"tableID": courts[1], "plannedOn": "2026-11-21T18:30:00.000Z",
                                            "byHand": True}}
    assert entry["before"][final["id"]]["byHand"] is False
    semi = next(dm for dm in draw_matches(knockout) if dm["status"] == "ready")
    by_match = operator.post(f"/operator/matches/{semi['matchID']}/plan",
                             json={"tableID": courts[0], "plannedOn": "2026-11-21T17:00:00Z"})
    assert by_match.status_code == 200, by_match.json
    entry = newest(operator)
    assert (entry["action"], entry["target"]) == ("match.planned", {"type": "match", "id": semi["matchID"]})
    assert entry["after"][semi["id"]]["plannedOn"] == "2026-11-21T17:00:00.000Z"
    history = operator.get("/operator/audit", query_string={"targetID": semi["matchID"]}).json["data"]
    assert history[0]["seq"] == entry["seq"]
