"""Contract §21: what a player does through their own link. Self check-in (on and off), recorded with the
`player` actor; reports, confirmations and disputes follow in this file."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from domain.clock import FixedClock
from storage.engine import Store
from storage.repository import unit_of_work
from tests.api.test_personal_links import Day
from tests.conftest import Api


@pytest.fixture
def day(operator: Api, app: Flask) -> Day:
    response = operator.post("/operator/broadcasts", json={
        "name": "Club Day", "tables": [{"label": "Court 1"}, {"label": "Court 3"}]})
    assert response.status_code == 201, response.json
    return Day(operator, app.test_client(), response.json["data"])


def event_day(day: Day, **settings: Any) -> None:
    response = day.operator.patch(f"/operator/broadcasts/{day.id}", json={"eventDay": settings})
    assert response.status_code == 200, response.json


def test_self_check_in_off_is_refused_and_changes_nothing(day: Day) -> None:
    day.match("Ann Lee", "Bo Kim")
    url = day.link("Ann Lee")["url"]
    before = day.operator.get("/operator/audit").json["data"][0]["seq"]
    refused = day.client.post(day.path(url) + "/check-in")
    assert refused.status_code == 409 and refused.json["error"]["code"] == "self_check_in_off"
    assert day.data(url)["person"]["checkedIn"] is False
    assert day.operator.get("/operator/audit").json["data"][0]["seq"] == before


def test_self_check_in_checks_the_person_in_as_the_player(day: Day) -> None:
    day.match("Ann Lee", "Bo Kim")
    event_day(day, selfCheckIn=True, requireCheckIn=True)
    url = day.link("Ann Lee")["url"]
    assert day.data(url)["selfCheckIn"] is True
    answer = day.client.post(day.path(url) + "/check-in")
    assert answer.status_code == 200, answer.json
    assert answer.json["data"]["person"]["checkedIn"] is True
    assert answer.json["data"]["version"] == day.state(url).headers["ETag"].strip('"')
    rows = {p["name"]: p for p in day.operator.get(f"/operator/broadcasts/{day.id}/people").json["data"]}
    assert rows["Ann Lee"]["checkedIn"] is True and rows["Bo Kim"]["checkedIn"] is False
    entry = day.operator.get("/operator/audit").json["data"][0]
    assert entry["action"] == "person.checked_in"
    assert entry["actor"] == {"kind": "player", "id": day.person("Ann Lee")}
    assert entry["target"] == {"type": "person", "id": day.person("Ann Lee")}
    players = day.operator.get("/operator/audit", query_string={"actorKind": "player"}).json["data"]
    assert [e["seq"] for e in players] == [entry["seq"]]
    again = day.client.post(day.path(url) + "/check-in")  # once in, a second tap changes nothing
    assert again.status_code == 200
    assert day.operator.get("/operator/audit").json["data"][0]["seq"] == entry["seq"]


WIN = [{"a": 11, "b": 5}, {"a": 11, "b": 7}, {"a": 11, "b": 2}]
OTHER = [{"a": 11, "b": 5}, {"a": 5, "b": 11}, {"a": 11, "b": 9}, {"a": 11, "b": 3}]


def reporting(day: Day, **settings: Any) -> tuple[dict[str, Any], str, str]:
    """Ann Lee v Bo Kim playing on Court 3, self-report on; the match and both links."""
    event_day(day, selfReport=True, **settings)
    match = day.match("Ann Lee", "Bo Kim", table=1)
    assert day.operator.post(f"/operator/matches/{match['id']}/start", json={"force": True}).status_code == 200
    return match, day.link("Ann Lee")["url"], day.link("Bo Kim")["url"]


def report(day: Day, url: str, match_id: str, games: list[dict[str, int]]) -> Any:
    return day.client.post(day.path(url) + f"/matches/{match_id}/report", json={"gameScores": games})


def match_read(day: Day, match_id: str) -> dict[str, Any]:
    listed = day.operator.get("/operator/matches", query_string={"limit": 100})
    assert listed.status_code == 200, listed.json
    return dict(next(m for m in listed.json["data"] if m["id"] == match_id))


def test_self_report_off_is_refused(day: Day) -> None:
    match = day.match("Ann Lee", "Bo Kim")
    refused = report(day, day.link("Ann Lee")["url"], match["id"], WIN)
    assert refused.status_code == 409 and refused.json["error"]["code"] == "self_report_off"
    assert day.operator.get(f"/operator/broadcasts/{day.id}/reports").json["data"] == []


def test_a_report_waits_for_the_opponent_who_confirms_it_as_the_result(day: Day) -> None:
    match, ann, bo = reporting(day)
    made = report(day, ann, match["id"], WIN)
    assert made.status_code == 200, made.json
    (mine,) = made.json["data"]["reports"]
    assert mine | {"reportID": None, "reportedOn": None} == {
        "reportID": None, "matchID": match["id"], "gameScores": WIN, "reportedBy": day.person("Ann Lee"),
        "status": "waiting", "reportedOn": None, "mine": True}
    theirs = day.data(bo)["reports"]
    assert [r["reportID"] for r in theirs] == [mine["reportID"]] and theirs[0]["mine"] is False
    assert match_read(day, match["id"])["status"] == "active"  # nothing recorded yet

    own = day.client.post(day.path(ann) + f"/reports/{mine['reportID']}/confirm")
    assert own.status_code == 409 and own.json["error"]["code"] == "report_own"
    confirmed = day.client.post(day.path(bo) + f"/reports/{mine['reportID']}/confirm")
    assert confirmed.status_code == 200, confirmed.json
    assert confirmed.json["data"]["reports"][0]["status"] == "confirmed"
    assert confirmed.json["data"]["results"][0]["matchID"] == match["id"]
    read = match_read(day, match["id"])
    assert read["status"] == "completed" and read["gameScores"] == WIN
    entries = day.operator.get("/operator/audit", query_string={"targetID": match["id"]}).json["data"]
    actions = [(e["action"], e["actor"]["kind"], e["actor"]["id"]) for e in entries]
    assert ("report.submitted", "player", day.person("Ann Lee")) in actions
    assert ("report.confirmed", "player", day.person("Bo Kim")) in actions
    entered = next(e for e in entries if e["action"] == "match.result_entered")
    assert entered["actor"] == {"kind": "player", "id": day.person("Bo Kim")}
    assert day.person("Ann Lee") in entered["reason"] and day.person("Bo Kim") in entered["reason"]
    again = report(day, bo, match["id"], WIN)
    assert again.status_code == 409 and again.json["error"]["code"] == "match_locked"


def test_the_same_games_from_the_other_side_confirm_and_different_ones_dispute(day: Day) -> None:
    match, ann, bo = reporting(day)
    report(day, ann, match["id"], WIN)
    disputed = report(day, bo, match["id"], OTHER)
    assert disputed.status_code == 200, disputed.json
    assert [r["status"] for r in disputed.json["data"]["reports"]] == ["disputed", "disputed"]
    desk = day.operator.get(f"/operator/broadcasts/{day.id}/reports", query_string={"status": "disputed"})
    assert desk.status_code == 200 and len(desk.json["data"]) == 2
    assert match_read(day, match["id"])["status"] == "active"

    second = day.match("Cy Diaz", "Di Evans")
    day.operator.post(f"/operator/matches/{second['id']}/start", json={"force": True})
    cy, di = day.link("Cy Diaz")["url"], day.link("Di Evans")["url"]
    report(day, cy, second["id"], WIN)
    same = report(day, di, second["id"], WIN)
    assert same.status_code == 200 and match_read(day, second["id"])["gameScores"] == WIN


def test_a_dispute_marks_the_report_and_the_desk_accepts_its_own_games(day: Day) -> None:
    match, ann, bo = reporting(day)
    rid = report(day, ann, match["id"], WIN).json["data"]["reports"][0]["reportID"]
    disputed = day.client.post(day.path(bo) + f"/reports/{rid}/dispute")
    assert disputed.status_code == 200 and disputed.json["data"]["reports"][0]["status"] == "disputed"
    entry = day.operator.get("/operator/audit").json["data"][0]
    assert entry["action"] == "report.disputed" and entry["actor"]["kind"] == "player"
    bad = day.operator.post(f"/operator/reports/{rid}/accept", json={"gameScores": [{"a": 11, "b": 5}]})
    assert bad.status_code == 409 and bad.json["error"]["code"] == "match_undecided"
    accepted = day.operator.post(f"/operator/reports/{rid}/accept", json={"gameScores": OTHER})
    assert accepted.status_code == 200, accepted.json
    assert accepted.json["data"]["status"] == "confirmed" and accepted.json["data"]["gameScores"] == OTHER
    assert match_read(day, match["id"])["gameScores"] == OTHER
    twice = day.operator.post(f"/operator/reports/{rid}/accept", json={})
    assert twice.status_code == 409 and twice.json["error"]["code"] == "report_settled"
    assert day.operator.post("/operator/reports/rpt_nope/accept", json={}).status_code == 404


def test_a_report_on_someone_elses_match_is_404_and_bad_games_are_400(day: Day) -> None:
    match, ann, _ = reporting(day)
    other = day.match("Cy Diaz", "Di Evans")
    assert report(day, ann, other["id"], WIN).status_code == 404
    assert report(day, ann, "mat_nope", WIN).status_code == 404
    bad = report(day, ann, match["id"], [{"a": 11, "b": 5}])
    assert bad.status_code == 409 and bad.json["error"]["code"] == "match_undecided"
    shape = day.client.post(day.path(ann) + f"/matches/{match['id']}/report", json={"gameScores": "11-5"})
    assert shape.status_code == 400 and shape.json["error"]["code"] == "validation_failed"
    assert day.operator.get(f"/operator/broadcasts/{day.id}/reports").json["data"] == []


def test_a_waiting_report_is_confirmed_by_the_server_after_the_minutes_given(day: Day, app: Flask,
                                                                            clock: FixedClock) -> None:
    match, ann, _ = reporting(day, selfReportConfirmMinutes=5)
    report(day, ann, match["id"], WIN)
    dispatcher = app.services.dispatcher  # type: ignore[attr-defined]
    clock.advance(4 * 60)
    assert dispatcher.confirm_due_reports() == 0
    assert match_read(day, match["id"])["status"] == "active"
    clock.advance(61)
    assert dispatcher.confirm_due_reports() == 1
    read = match_read(day, match["id"])
    assert read["status"] == "completed" and read["gameScores"] == WIN
    assert day.data(ann)["reports"][0]["status"] == "confirmed"
    entry = next(e for e in day.operator.get("/operator/audit").json["data"] if e["action"] == "report.confirmed")
    assert entry["actor"]["kind"] == "system"
    assert dispatcher.confirm_due_reports() == 0


def test_with_zero_minutes_a_report_waits_for_the_opponent_or_the_desk(day: Day, app: Flask,
                                                                        clock: FixedClock) -> None:
    match, ann, _ = reporting(day, selfReportConfirmMinutes=0)
    rid = report(day, ann, match["id"], WIN).json["data"]["reports"][0]["reportID"]
    clock.advance(24 * 3600)
    assert app.services.dispatcher.confirm_due_reports() == 0  # type: ignore[attr-defined]
    waiting = day.operator.get(f"/operator/broadcasts/{day.id}/reports", query_string={"status": "waiting"})
    assert [r["reportID"] for r in waiting.json["data"]] == [rid]
    accepted = day.operator.post(f"/operator/reports/{rid}/accept", json={})
    assert accepted.status_code == 200 and match_read(day, match["id"])["gameScores"] == WIN


@pytest.mark.parametrize("settings", [{"scorer_rate_limit": 3}], indirect=True)
def test_actions_through_a_link_are_rate_limited_per_link(day: Day) -> None:
    day.match("Ann Lee", "Bo Kim")
    event_day(day, selfCheckIn=True)
    ann, bo = day.link("Ann Lee")["url"], day.link("Bo Kim")["url"]
    answers = [day.client.post(day.path(ann) + "/check-in").status_code for _ in range(4)]
    assert answers == [200, 200, 200, 429]
    assert day.client.post(day.path(bo) + "/check-in").status_code == 200  # another link has its own count


def test_a_report_is_its_own_record_never_a_rewrite_of_the_broadcast_and_goes_with_it(day: Day, app: Flask) -> None:
    """A report writes its own table (a desk editing the broadcast meanwhile never races it); deleting the
    broadcast deletes its reports."""
    match, ann, bo = reporting(day)
    store = app.services.store  # type: ignore[attr-defined]
    before = store.versions("broadcasts", "player_reports")
    made = report(day, ann, match["id"], WIN)
    assert made.status_code == 200, made.json
    if isinstance(store, Store):  # PostgreSQL moves these counters late too, as other processes' NOTIFYs arrive
        after = store.versions("broadcasts", "player_reports")
        assert after[0] == before[0] and after[1] > before[1]
    rid = made.json["data"]["reports"][0]["reportID"]
    assert day.client.post(day.path(bo) + f"/reports/{rid}/confirm").status_code == 200
    with unit_of_work(store) as uow:
        assert [(r.id, r.status) for r in uow.player_reports.find(broadcast_id=day.id)] == [(rid, "confirmed")]
    deleted = day.operator.delete(f"/operator/broadcasts/{day.id}")
    assert deleted.status_code == 200, deleted.json
    with unit_of_work(store) as uow:
        assert uow.player_reports.find(broadcast_id=day.id) == []


def test_a_match_tiebreak_reported_as_its_points_is_read_as_the_set_it_decides(day: Day) -> None:
    """Issue 51, one way to write every score: the phone's set rows take a match tiebreak as "10 | 7", as the desk
    may type "10-7"; it is kept as the set 1-0 with those points, and shown "[10-7]"."""
    event_day(day, selfReport=True)
    match = day.match("Ann Lee", "Bo Kim", table=1, scoring="tennis_match_tiebreak")
    assert day.operator.post(f"/operator/matches/{match['id']}/start", json={"force": True}).status_code == 200
    ann, bo = day.link("Ann Lee")["url"], day.link("Bo Kim")["url"]
    made = report(day, ann, match["id"], [{"a": 6, "b": 4}, {"a": 3, "b": 6}, {"a": 10, "b": 7}])
    assert made.status_code == 200, made.json
    (mine,) = made.json["data"]["reports"]
    decided = [{"a": 6, "b": 4}, {"a": 3, "b": 6}, {"a": 1, "b": 0, "tiebreak": {"a": 10, "b": 7}}]
    assert mine["gameScores"] == decided
    assert day.client.post(day.path(bo) + f"/reports/{mine['reportID']}/confirm").status_code == 200
    assert match_read(day, match["id"])["gameScores"] == decided


def test_a_player_reports_only_a_match_in_play_first_on_its_court_or_called(day: Day) -> None:
    """§21: a report is for the person's match in play, a pending one first in its court's queue, or one they were
    called to. A match in the draws' court pool or queued behind another was never played: `409
    match_not_active`, nothing written; a completed one `409 match_locked`; a cancelled one is gone (404)."""
    event_day(day, selfReport=True, selfReportConfirmMinutes=5)
    first = day.match("Ann Lee", "Bo Kim")
    second = day.match("Ann Lee", "Cy Diaz", startTime="2027-03-01T10:00:00Z")
    called = day.match("Ann Lee", "Di Evans")
    assert day.operator.post(f"/operator/matches/{called['id']}/call").status_code == 200
    cancelled = day.match("Ann Lee", "Gil Ho")
    assert day.operator.post(f"/operator/matches/{cancelled['id']}/cancel").status_code == 200
    playing = day.match("Ann Lee", "Ed Fox", table=1)
    assert day.operator.post(f"/operator/matches/{playing['id']}/start", json={"force": True}).status_code == 200
    drawn = day.operator.post("/operator/draws", json={
        "broadcastID": day.id, "name": "Open", "format": "single_elimination", "bestOf": 5, "randomSeed": 7,
        "entries": [{"players": [{"manualName": "Ann Lee"}]}, {"players": [{"manualName": "Fay Gu"}]}]})
    assert drawn.status_code == 201, drawn.json
    (pooled,) = day.operator.get(f"/operator/broadcasts/{day.id}/pool").json["data"]
    done = day.match("Ann Lee", "Hal Ito", table=1)
    typed = day.operator.post(f"/operator/matches/{done['id']}/result", json={"gameScores": WIN})
    assert typed.status_code == 200, typed.json
    ann = day.link("Ann Lee")["url"]
    before = day.operator.get("/operator/audit").json["data"][0]["seq"]

    for refused, code in ((pooled, "match_not_active"), (second, "match_not_active"), (done, "match_locked")):
        answer = report(day, ann, refused["id"], WIN)
        assert (answer.status_code, answer.json["error"]["code"]) == (409, code), refused
    assert report(day, ann, cancelled["id"], WIN).status_code == 404
    assert day.operator.get(f"/operator/broadcasts/{day.id}/reports").json["data"] == []
    assert day.operator.get("/operator/audit").json["data"][0]["seq"] == before

    for allowed in (first, called, playing):
        answer = report(day, ann, allowed["id"], WIN)
        assert answer.status_code == 200, answer.json
    reported = {r["matchID"] for r in day.operator.get(f"/operator/broadcasts/{day.id}/reports").json["data"]}
    assert reported == {first["id"], called["id"], playing["id"]}


def audit_count(day: Day) -> int:
    return int(day.operator.get("/operator/audit").json["data"][0]["seq"])


def test_a_repeated_report_with_the_same_op_id_makes_one_report_and_one_entry(day: Day) -> None:
    match, ann, bo = reporting(day)
    path = day.path(ann) + f"/matches/{match['id']}/report"
    first = day.client.post(path, json={"gameScores": WIN, "opID": "ann-report-1"})
    assert first.status_code == 200, first.json
    seq = audit_count(day)
    again = day.client.post(path, json={"gameScores": WIN, "opID": "ann-report-1"})
    assert again.status_code == 200, again.json
    assert [r["reportID"] for r in again.json["data"]["reports"]] == \
        [r["reportID"] for r in first.json["data"]["reports"]]
    assert len(day.operator.get(f"/operator/broadcasts/{day.id}/reports").json["data"]) == 1
    assert audit_count(day) == seq
    # the opponent's same games confirm (the match completes); their retry answers 200, not match_locked
    theirs = day.path(bo) + f"/matches/{match['id']}/report"
    assert day.client.post(theirs, json={"gameScores": WIN, "opID": "bo-1"}).status_code == 200
    seq = audit_count(day)
    retried = day.client.post(theirs, json={"gameScores": WIN, "opID": "bo-1"})
    assert retried.status_code == 200, retried.json
    assert audit_count(day) == seq and match_read(day, match["id"])["status"] == "completed"


def test_a_waiting_report_on_a_cancelled_match_is_no_longer_waiting_and_accepting_it_is_409(
        day: Day, app: Flask, clock: FixedClock) -> None:
    event_day(day, selfReport=True, selfReportConfirmMinutes=5)
    match = day.match("Ann Lee", "Bo Kim")  # first on Court 1: reportable while pending
    ann, bo = day.link("Ann Lee")["url"], day.link("Bo Kim")["url"]
    rid = report(day, ann, match["id"], WIN).json["data"]["reports"][0]["reportID"]
    assert day.operator.post(f"/operator/matches/{match['id']}/cancel").status_code == 200
    listed = day.operator.get(f"/operator/broadcasts/{day.id}/reports").json["data"]
    assert [(r["reportID"], r["status"]) for r in listed] == [(rid, "cancelled")]
    waiting = day.operator.get(f"/operator/broadcasts/{day.id}/reports", query_string={"status": "waiting"})
    assert waiting.json["data"] == []
    history = day.operator.get("/operator/audit", query_string={"targetID": match["id"]}).json["data"]
    assert [e["action"] for e in history][:2] == ["match.cancelled", "report.cancelled"]
    assert (history[1]["before"], history[1]["after"]) == ({"status": "waiting"}, {"status": "cancelled"})
    accepted = day.operator.post(f"/operator/reports/{rid}/accept", json={})
    assert accepted.status_code == 409 and accepted.json["error"]["code"] == "match_cancelled"
    confirmed = day.client.post(day.path(bo) + f"/reports/{rid}/confirm")
    assert confirmed.status_code == 409 and confirmed.json["error"]["code"] == "match_cancelled"
    clock.advance(3600)
    assert app.services.dispatcher.confirm_due_reports() == 0  # type: ignore[attr-defined]


def test_a_waiting_report_on_a_removed_court_is_cancelled_with_its_match(day: Day) -> None:
    event_day(day, selfReport=True)
    match = day.match("Ann Lee", "Bo Kim", table=1)
    rid = report(day, day.link("Ann Lee")["url"], match["id"], WIN).json["data"]["reports"][0]["reportID"]
    kept = [{"id": day.tables[0], "label": "Court 1"}]
    assert day.operator.patch(f"/operator/broadcasts/{day.id}", json={"tables": kept}).status_code == 200
    listed = day.operator.get(f"/operator/broadcasts/{day.id}/reports").json["data"]
    assert [(r["reportID"], r["status"]) for r in listed] == [(rid, "cancelled")]


def test_disputing_a_stale_report_on_a_completed_match_is_locked_and_writes_nothing(day: Day) -> None:
    match, ann, bo = reporting(day)
    rid = report(day, ann, match["id"], WIN).json["data"]["reports"][0]["reportID"]
    typed = day.operator.post(f"/operator/matches/{match['id']}/result", json={"gameScores": OTHER})
    assert typed.status_code == 200, typed.json
    history = day.operator.get("/operator/audit", query_string={"targetID": match["id"]}).json["data"]
    for action in ("dispute", "confirm"):
        refused = day.client.post(day.path(bo) + f"/reports/{rid}/{action}")
        assert refused.status_code == 409 and refused.json["error"]["code"] == "match_locked"
    assert day.operator.get("/operator/audit", query_string={"targetID": match["id"]}).json["data"] == history
    assert day.operator.get(f"/operator/broadcasts/{day.id}/reports").json["data"][0]["status"] == "waiting"
    assert match_read(day, match["id"])["gameScores"] == OTHER
