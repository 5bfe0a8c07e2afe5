"""Contract §19: `POST /operator/matches/{id}/result` records a whole result from a paper sheet in one request,
on a pending or active match; scores checked like complete and correction; the draw fed; one audit entry; events;
no duration; §14's rules do not apply; a completed match is 409 match_locked. Every test runs on both backends."""

from __future__ import annotations

from typing import Any

import pytest

from domain.clock import FixedClock
from tests.api.test_draws import create, draw_matches, make_courts, read
from tests.conftest import Api

Json = dict[str, Any]


def new_match(operator: Api, table: str, a: str = "Ann Lee", b: str = "Bo Chen", best_of: int = 3) -> Json:
    made = operator.post("/operator/matches", json={"tableID": table, "playerA": {"manualName": a},
                                                    "playerB": {"manualName": b}, "bestOf": best_of})
    assert made.status_code == 201, made.json
    return dict(made.json["data"])


@pytest.fixture
def courts(operator: Api) -> list[str]:
    return make_courts(operator, 2)[1]


def result(operator: Api, match_id: str, body: Json) -> Any:
    return operator.post(f"/operator/matches/{match_id}/result", json=body)


def audit_of(operator: Api, match_id: str) -> list[Json]:
    got = operator.get(f"/operator/audit?limit=100&targetType=match&targetID={match_id}")
    assert got.status_code == 200, got.json
    return list(got.json["data"])


def test_a_pending_match_is_started_and_completed_in_one_request(operator: Api, courts: list[str],
                                                                  clock: FixedClock) -> None:
    match = new_match(operator, courts[0])
    answer = result(operator, match["id"], {"gameScores": [{"a": 11, "b": 7}, {"a": 8, "b": 11}, {"a": 11, "b": 9}],
                                            "reason": "sheet from court 1"})
    assert answer.status_code == 200, answer.json
    data = answer.json["data"]
    assert data["status"] == "completed" and data["resultType"] == "played"
    assert data["score"] == {"a": 2, "b": 1} and "startedOn" not in data
    assert data["completedOn"] == "2026-11-21T10:00:00.000Z"
    listed = operator.get(f"/operator/matches?status=completed&tableID={courts[0]}").json["data"]
    assert [m["id"] for m in listed] == [match["id"]] and listed[0]["resultType"] == "played"
    entries = audit_of(operator, match["id"])
    assert entries[0]["action"] == "match.result_entered" and entries[0]["reason"] == "sheet from court 1"
    assert [e["action"] for e in entries] == ["match.result_entered", "match.created"]
    results = operator.get(f"/operator/results?broadcastID={_broadcast(operator)}")
    row = results.json["data"][0]
    assert row["games"] == "11-7 8-11 11-9" and row["minutes"] is None and row["startedOn"] is None


def _broadcast(operator: Api) -> str:
    return str(operator.get("/operator/broadcasts").json["data"][0]["id"])


def test_an_active_match_keeps_its_start_and_takes_the_typed_games(operator: Api, courts: list[str]) -> None:
    match = new_match(operator, courts[0])
    started = operator.post(f"/operator/matches/{match['id']}/start").json["data"]
    answer = result(operator, match["id"], {"gameScores": [{"a": 3, "b": 11}, {"a": 9, "b": 11}], "winnerSide": "b"})
    assert answer.status_code == 200, answer.json
    assert answer.json["data"]["startedOn"] == started["startedOn"]
    assert answer.json["data"]["score"] == {"a": 0, "b": 2}


def test_the_rules_of_section_14_do_not_hold_back_a_result_that_already_happened(
        operator: Api, courts: list[str]) -> None:
    busy = new_match(operator, courts[0], "Ann Lee", "Cy Diaz")
    assert operator.post(f"/operator/matches/{busy['id']}/start").status_code == 200
    waiting = new_match(operator, courts[1], "Ann Lee", "Bo Chen")
    broadcast = _broadcast(operator)
    assert operator.patch(f"/operator/broadcasts/{broadcast}", json={
        "eventDay": {"requireCheckIn": True}}).status_code == 200
    answer = result(operator, waiting["id"], {"gameScores": [{"a": 11, "b": 2}, {"a": 11, "b": 5}]})
    assert answer.status_code == 200, answer.json


@pytest.mark.parametrize(("body", "code", "status", "where"), [
    ({"gameScores": [{"a": 11, "b": 7}]}, "match_undecided", 409, None),
    ({"gameScores": [{"a": 15, "b": 3}, {"a": 11, "b": 3}]}, "validation_failed", 400, "gameScores"),
    ({"gameScores": [{"a": 11, "b": 3}, {"a": 11, "b": 3}, {"a": 11, "b": 3}]}, "validation_failed", 400,
     "gameScores"),
    ({"gameScores": [{"a": 11, "b": 3}, {"a": 11, "b": 3}], "winnerSide": "b"}, "validation_failed", 400,
     "winnerSide"),
    ({"gameScores": [], "resultType": "walkover"}, "validation_failed", 400, "winnerSide"),
    ({"gameScores": [{"a": 11, "b": 3}], "resultType": "walkover", "winnerSide": "a"}, "validation_failed", 400,
     "gameScores"),
    ({"gameScores": [{"a": 11, "b": 3}, {"a": 11, "b": 3}], "resultType": "retired", "winnerSide": "b"},
     "validation_failed", 400, "gameScores"),
    ({"gameScores": [{"a": 11, "b": 3}], "resultType": "finished"}, "validation_failed", 400, "resultType"),
    ({"gameScores": [{"a": 11, "b": 3}], "reason": "x" * 501}, "validation_failed", 400, "reason"),
])
def test_a_bad_result_is_refused_and_changes_nothing(operator: Api, courts: list[str], body: Json, code: str,
                                                     status: int, where: str | None) -> None:
    match = new_match(operator, courts[0])
    answer = result(operator, match["id"], body)
    assert (answer.status_code, answer.json["error"]["code"]) == (status, code), answer.json
    if where is not None:
        assert where in answer.json["error"]["details"]["json"]
    after = operator.get(f"/operator/matches?tableID={courts[0]}").json["data"][0]
    assert after["status"] == "pending" and after["scoreVersion"] == match["scoreVersion"]
    assert [e["action"] for e in audit_of(operator, match["id"])] == ["match.created"]


def test_walkover_and_retirement_name_their_winner(operator: Api, courts: list[str]) -> None:
    walk = new_match(operator, courts[0])
    done = result(operator, walk["id"], {"gameScores": [], "resultType": "walkover", "winnerSide": "b",
                                         "reason": "did not come"})
    assert done.status_code == 200, done.json
    assert (done.json["data"]["resultType"], done.json["data"]["winnerSide"]) == ("walkover", "b")
    retired = new_match(operator, courts[1], "Cy Diaz", "Di Evans")
    done = result(operator, retired["id"], {"gameScores": [{"a": 11, "b": 4}, {"a": 2, "b": 6}],
                                            "resultType": "retired", "winnerSide": "a"})
    assert done.status_code == 200, done.json
    assert done.json["data"]["resultType"] == "retired" and done.json["data"]["gameScores"][1] == {"a": 2, "b": 6}
    games = {r["sideA"]: r["games"] for r in operator.get(
        f"/operator/results?broadcastID={_broadcast(operator)}").json["data"]}
    assert games == {"Ann Lee": "w/o", "Cy Diaz": "11-4 2-6 ret."}


def test_a_completed_match_is_locked_and_a_repeated_op_id_answers_the_first_answer(
        operator: Api, courts: list[str]) -> None:
    match = new_match(operator, courts[0])
    body = {"gameScores": [{"a": 11, "b": 3}, {"a": 11, "b": 5}], "opID": "desk-1"}
    first = result(operator, match["id"], body)
    again = result(operator, match["id"], body)
    assert again.status_code == 200 and again.json == first.json
    other = result(operator, match["id"], {"gameScores": [{"a": 3, "b": 11}, {"a": 5, "b": 11}]})
    assert other.status_code == 409 and other.json["error"]["code"] == "match_locked"
    assert result(operator, "mat_unknown", body | {"opID": "desk-2"}).status_code == 404


def test_events_started_then_completed_reach_the_partner(partner: Api, operator: Api) -> None:
    assert partner.patch("/webhooks/configuration", json={"url": "http://127.0.0.1:9/hook"}).status_code == 200
    broadcast = partner.post("/broadcasts", json={"name": "Partner day", "tables": [{"label": "T1"}]}).json["data"]
    assert partner.put("/player-lists", json={"externalID": "pl", "name": "P", "players": [
        {"externalID": "p1", "firstName": "Ann", "lastName": "Lee"}]}).status_code == 200
    made = partner.put("/matches", json={"externalID": "m1", "tableID": broadcast["tables"][0]["id"],
                                         "playerListExternalID": "pl", "playerA": {"externalID": "p1"},
                                         "playerB": {"manualName": "Bo Chen"}, "bestOf": 1}).json["data"]
    assert result(operator, made["id"], {"gameScores": [{"a": 11, "b": 9}]}).status_code == 200
    events = [d["eventType"] for d in partner.get("/webhooks").json["data"]]
    assert events[:2] == ["match.completed", "match.started"]


def test_a_draw_is_fed_from_the_pool_and_the_typed_result_has_no_duration(operator: Api) -> None:
    broadcast, courts = make_courts(operator, 2)
    draw = create(operator, broadcast, "single_elimination", 4)
    first = [dm for dm in draw_matches(draw) if dm["matchID"]]
    assert len(first) == 2
    for dm in first:
        answer = result(operator, dm["matchID"], {"gameScores": [{"a": 11, "b": 6}]})
        assert answer.status_code == 200, answer.json
        assert answer.json["data"]["tableID"] is None
    final = [dm for dm in draw_matches(read(operator, draw["id"])) if dm["matchID"] and dm["status"] == "ready"]
    assert len(final) == 1
    assert [p["id"] for p in operator.get(f"/operator/broadcasts/{broadcast}/pool").json["data"]] \
        == [final[0]["matchID"]]


def test_results_typed_in_on_started_matches_never_count_toward_typical_durations(
        operator: Api, courts: list[str], clock: FixedClock) -> None:
    for n in range(3):
        match = new_match(operator, courts[0], f"Ann {n}", f"Bo {n}", best_of=1)
        assert operator.post(f"/operator/matches/{match['id']}/start").status_code == 200
        clock.advance(600)
        assert result(operator, match["id"], {"gameScores": [{"a": 11, "b": n}]}).status_code == 200
    court = next(c for c in operator.get("/operator/tables").json["data"] if c["id"] == courts[0])
    assert court["typicalMinutes"] == 30.0  # no real duration: table tennis's typical match (§9, §20)
    rows = operator.get(f"/operator/results?broadcastID={_broadcast(operator)}").json["data"]
    assert [r["minutes"] for r in rows] == [None, None, None] and all(r["startedOn"] for r in rows)


def test_the_way_on_of_a_refused_correction_stop_the_started_match_then_correct(operator: Api) -> None:
    """§19: a correction refused as downstream_started goes through once the started match is stopped: back to
    pending in the court pool, its draw match ready again, its games kept in the audit log."""
    broadcast, courts = make_courts(operator, 2)
    draw = create(operator, broadcast, "single_elimination", 4)
    semis = [dm["matchID"] for dm in draw["rounds"][0]["drawMatches"]]
    for match_id in semis:
        assert result(operator, match_id, {"gameScores": [{"a": 11, "b": 4}]}).status_code == 200
    final = operator.post(f"/operator/tables/{courts[0]}/start-next").json["data"]
    assert operator.post(f"/operator/matches/{final['id']}/point", json={"side": "a", "version": final[
        "scoreVersion"]}).status_code == 200
    flip = {"gameScores": [{"a": 4, "b": 11}], "reason": "sides swapped", "confirmDrawChange": True}
    refused = operator.post(f"/operator/matches/{semis[0]}/score", json=flip)
    assert refused.status_code == 409 and refused.json["error"]["code"] == "downstream_started"
    stopped = operator.post(f"/operator/matches/{final['id']}/stop")
    assert stopped.status_code == 200, stopped.json
    data = stopped.json["data"]
    assert (data["status"], data["tableID"], data["gameScores"]) == ("pending", None, [])
    assert "startedOn" not in data
    assert [m["id"] for m in operator.get(f"/operator/broadcasts/{broadcast}/pool").json["data"]] == [final["id"]]
    entry = audit_of(operator, final["id"])[0]
    assert entry["action"] == "match.stopped" and entry["before"]["gameScores"] == [{"a": 1, "b": 0}]
    assert read(operator, draw["id"])["rounds"][1]["drawMatches"][0]["status"] == "ready"
    corrected = operator.post(f"/operator/matches/{semis[0]}/score", json=flip)
    assert corrected.status_code == 200, corrected.json
    loser_of_semi = next(dm for dm in draw["rounds"][0]["drawMatches"] if dm["matchID"] == semis[0])["slots"][1]
    final_now = read(operator, draw["id"])["rounds"][1]["drawMatches"][0]
    assert final_now["slots"][0]["entryID"] == loser_of_semi["entryID"]
    again = operator.post(f"/operator/matches/{final['id']}/stop")
    assert again.status_code == 409 and again.json["error"]["code"] == "match_not_active"


def test_a_stopped_match_of_no_draw_goes_to_the_front_of_its_courts_queue(operator: Api, courts: list[str]) -> None:
    first = new_match(operator, courts[0])
    second = new_match(operator, courts[0], "Cy Diaz", "Di Evans")
    assert operator.post(f"/operator/matches/{first['id']}/start").status_code == 200
    assert operator.post(f"/operator/matches/{first['id']}/stop").status_code == 200
    queue = next(c for c in operator.get("/operator/tables").json["data"] if c["id"] == courts[0])["queue"]
    assert [m["id"] for m in queue] == [first["id"], second["id"]]


def test_a_result_typed_for_a_pool_match_ends_when_typed_and_its_players_rest(operator: Api,
                                                                               clock: FixedClock) -> None:
    """Issue 51: a result typed for a draw's match that never started on the server (still in the court pool)
    ends when it is typed, for rest (§14): start-next skips its players until their rest is over."""
    broadcast_id, courts = make_courts(operator, 1)
    patched = operator.patch(f"/operator/broadcasts/{broadcast_id}", json={"eventDay": {"restMinutes": 30}})
    assert patched.status_code == 200, patched.json
    draw = create(operator, broadcast_id, "round_robin", 4)
    assert draw["rounds"][0]["number"] == 1
    for dm in draw["rounds"][0]["drawMatches"]:
        typed = result(operator, dm["matchID"], {"gameScores": [{"a": 11, "b": 4}]})
        assert typed.status_code == 200, typed.json
    clock.advance(5 * 60)
    held = operator.post(f"/operator/tables/{courts[0]}/start-next")
    assert held.status_code == 409, held.json
    assert held.json["error"]["code"] == "nothing_startable"
    skipped = held.json["error"]["details"]["skipped"]
    assert skipped and {s["reason"] for s in skipped} == {"player_resting"}
    assert {s["until"] for s in skipped} == {"2026-11-21T10:30:00.000Z"}
    clock.advance(25 * 60)
    assert operator.post(f"/operator/tables/{courts[0]}/start-next").status_code == 200
