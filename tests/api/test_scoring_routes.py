"""Operator court board and live scoring: start, score, complete, move, cancel, reorder (contract §6)."""
# ruff: noqa: F811 - the fixtures `courts` and `courts_factory` come from tests.api.test_matches

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.api.test_matches import Courts, courts, courts_factory  # noqa: F401 - fixtures
from tests.conftest import Api

WIN = [{"a": 11, "b": 7}, {"a": 9, "b": 11}, {"a": 11, "b": 5}, {"a": 12, "b": 10}]


def subscribe(api: Api) -> None:
    """Give the connection a webhook URL (all match events); the app under test runs no dispatcher."""
    response = api.patch("/webhooks/configuration", json={"url": "http://127.0.0.1:9/hooks"})
    assert response.status_code == 200, response.json


def events(api: Api) -> list[dict[str, Any]]:
    """The connection's recorded events, oldest first: `{"type", "data"}` of each payload (without the order
    fields `sequence` and `occurredOn`, tested in test_partner_integration.py)."""
    response = api.get("/webhooks?limit=100")
    assert response.status_code == 200, response.json
    payloads = [d["payload"] for d in reversed(response.json["data"])]
    return [{"type": p["type"], "data": {key: value for key, value in p["data"].items()
                                         if key not in ("sequence", "occurredOn")}} for p in payloads]


def call(operator: Api, action: str, match_id: str, body: dict[str, Any] | None = None) -> Any:
    return operator.post(f"/operator/matches/{match_id}/{action}", json=body if body is not None else None)


@pytest.fixture
def live(courts: Courts, operator: Api) -> dict[str, Any]:
    """A subscribed partner's match `m1` (best of 5), started by the operator."""
    subscribe(courts.api)
    match = courts.sync("m1", playerA={"externalID": "p1"}, playerB={"externalID": "p2"})
    response = call(operator, "start", match["id"])
    assert response.status_code == 200, response.json
    return dict(response.json["data"])


# ------------------------------------------------------------------------------------------------ start
def test_start_makes_a_pending_match_active_and_emits_match_started(courts: Courts, live: dict[str, Any]) -> None:
    assert live["status"] == "active" and live["isActive"] is True and live["isComplete"] is False
    assert live["queuePosition"] is None
    assert courts.get("m1") == live
    [started] = events(courts.api)
    assert started == {"type": "match.started", "data": {"match": live}}


def test_one_active_match_per_table_409_table_busy(courts: Courts, operator: Api, live: dict[str, Any]) -> None:
    second = courts.sync("m2")
    response = call(operator, "start", second["id"])
    assert response.status_code == 409 and response.json["error"]["code"] == "table_busy"
    assert courts.get("m2")["status"] == "pending" and courts.get("m2")["queuePosition"] == 1
    other_table = courts.sync("m3", table=1)
    assert call(operator, "start", other_table["id"]).status_code == 200


def test_start_on_a_match_that_is_not_pending_is_409(courts: Courts, operator: Api, live: dict[str, Any]) -> None:
    again = call(operator, "start", live["id"])
    assert again.status_code == 409 and again.json["error"]["code"] == "match_not_pending"
    assert call(operator, "complete", live["id"], {"gameScores": WIN}).status_code == 200
    done = call(operator, "start", live["id"])
    assert done.status_code == 409 and done.json["error"]["code"] == "match_not_pending"
    missing = call(operator, "start", "mat_missing")
    assert missing.status_code == 404 and missing.json["error"]["code"] == "not_found"


# ------------------------------------------------------------------------------------------------ score
def test_score_on_an_active_match_replaces_scores_and_emits_score_updated(
    courts: Courts, operator: Api, live: dict[str, Any],
) -> None:
    response = call(operator, "score", live["id"], {"gameScores": [{"a": 11, "b": 7}, {"a": 4, "b": 6}]})
    assert response.status_code == 200
    data = response.json["data"]
    assert data["gameScores"] == [{"a": 11, "b": 7}, {"a": 4, "b": 6}]
    assert data["score"] == {"a": 1, "b": 0}  # the game in progress counts for nobody yet
    assert data["status"] == "active"
    replaced = call(operator, "score", live["id"], {"gameScores": [{"a": 11, "b": 13}]}).json["data"]
    assert replaced["gameScores"] == [{"a": 11, "b": 13}] and replaced["score"] == {"a": 0, "b": 1}
    assert [e["type"] for e in events(courts.api)] == ["match.started", "match.score_updated",
                                                       "match.score_updated"]
    assert events(courts.api)[-1]["data"] == {"match": replaced}


@pytest.mark.parametrize("games", [
    [{"a": 15, "b": 3}],                      # past 11 without a 2-point finish
    [{"a": 13, "b": 10}],
    [{"a": -1, "b": 3}],
    [{"a": 5, "b": 3}, {"a": 11, "b": 2}],    # an unfinished game before the last
    [{"a": 11, "b": 1}] * 3 + [{"a": 0, "b": 1}],  # a game after the match was decided
    [{"a": 11, "b": 1}] * 6,
])
def test_impossible_scores_are_400_and_change_nothing(
    courts: Courts, operator: Api, live: dict[str, Any], games: list[dict[str, int]],
) -> None:
    response = call(operator, "score", live["id"], {"gameScores": games})
    assert response.status_code == 400 and response.json["error"]["code"] == "validation_failed"
    assert courts.get("m1")["gameScores"] == []
    assert [e["type"] for e in events(courts.api)] == ["match.started"]


@pytest.mark.parametrize("body", [
    {}, {"gameScores": [{"a": "11", "b": 3}]}, {"gameScores": [{"a": 11.5, "b": 3}]},
    {"gameScores": [{"a": True, "b": 3}]}, {"gameScores": [{"a": 11}]}, {"gameScores": [{"a": 11, "b": 3, "c": 1}]},
    {"gameScores": [], "extra": 1},
])
def test_malformed_score_body_is_400(operator: Api, live: dict[str, Any], body: dict[str, Any]) -> None:
    response = call(operator, "score", live["id"], body)
    assert response.status_code == 400 and response.json["error"]["code"] == "validation_failed"


def test_score_or_complete_on_a_pending_match_is_409_match_not_active(courts: Courts, operator: Api) -> None:
    match = courts.sync("m1")
    scored = call(operator, "score", match["id"], {"gameScores": [{"a": 1, "b": 0}]})
    assert scored.status_code == 409 and scored.json["error"]["code"] == "match_not_active"
    completed = call(operator, "complete", match["id"], {"gameScores": WIN})
    assert completed.status_code == 409 and completed.json["error"]["code"] == "match_not_active"
    assert courts.get("m1")["status"] == "pending"


# ------------------------------------------------------------------------------------------------ complete
def test_complete_with_a_decided_result(courts: Courts, operator: Api, clock: Any, live: dict[str, Any]) -> None:
    clock.advance(90)
    response = call(operator, "complete", live["id"], {"gameScores": WIN})
    assert response.status_code == 200
    data = response.json["data"]
    assert data["status"] == "completed" and data["isComplete"] is True and data["isActive"] is False
    assert data["score"] == {"a": 3, "b": 1} and data["completedOn"] == "2026-11-21T10:01:30.000Z"
    assert data["queuePosition"] is None
    assert events(courts.api)[-1] == {"type": "match.completed", "data": {"match": data}}
    again = call(operator, "complete", live["id"], {"gameScores": WIN})  # a repeat: answered, nothing changes
    assert again.status_code == 200 and again.json["data"] == data
    assert events(courts.api)[-1] == {"type": "match.completed", "data": {"match": data}}
    other = call(operator, "complete", live["id"], {"gameScores": WIN[:2] + [{"a": 11, "b": 0}]})
    assert other.status_code == 409 and other.json["error"]["code"] == "match_not_active"


def test_complete_uses_the_live_scores_when_no_body_scores(courts: Courts, operator: Api,
                                                           live: dict[str, Any]) -> None:
    call(operator, "score", live["id"], {"gameScores": WIN[:3]})
    undecided = call(operator, "complete", live["id"], {})
    assert undecided.status_code == 409 and undecided.json["error"]["code"] == "match_undecided"
    call(operator, "score", live["id"], {"gameScores": WIN})
    response = operator.post(f"/operator/matches/{live['id']}/complete")
    assert response.status_code == 200 and response.json["data"]["score"] == {"a": 3, "b": 1}


@pytest.mark.parametrize("games", [[], [{"a": 11, "b": 2}, {"a": 11, "b": 2}], [{"a": 11, "b": 2}] * 2 + [{"a": 3,
                                                                                                          "b": 1}]])
def test_complete_without_a_winner_is_409_match_undecided(
    courts: Courts, operator: Api, live: dict[str, Any], games: list[dict[str, int]],
) -> None:
    response = call(operator, "complete", live["id"], {"gameScores": games})
    assert response.status_code == 409 and response.json["error"]["code"] == "match_undecided"
    assert courts.get("m1")["status"] == "active"


def test_best_of_of_the_match_decides_when_it_is_won(courts: Courts, operator: Api) -> None:
    match = courts.sync("short", bestOf=1)
    call(operator, "start", match["id"])
    response = call(operator, "complete", match["id"], {"gameScores": [{"a": 3, "b": 11}]})
    assert response.status_code == 200 and response.json["data"]["score"] == {"a": 0, "b": 1}


# ------------------------------------------------------------------------------------------------ correction
def test_score_on_a_completed_match_is_a_correction_with_the_previous_result(
    courts: Courts, operator: Api, live: dict[str, Any],
) -> None:
    call(operator, "complete", live["id"], {"gameScores": WIN})
    corrected = [{"a": 11, "b": 7}, {"a": 11, "b": 9}, {"a": 11, "b": 5}]
    response = call(operator, "score", live["id"], {"gameScores": corrected})
    assert response.status_code == 200
    data = response.json["data"]
    assert data["status"] == "completed" and data["score"] == {"a": 3, "b": 0}
    assert events(courts.api)[-1] == {
        "type": "match.result_updated",
        "data": {"match": data, "previous": {"gameScores": WIN, "score": {"a": 3, "b": 1}}},
    }
    undecided = call(operator, "score", live["id"], {"gameScores": corrected[:2]})
    assert undecided.status_code == 409 and undecided.json["error"]["code"] == "match_undecided"
    assert courts.get("m1")["gameScores"] == corrected


# ------------------------------------------------------------------------------------------------ queue work
def test_operator_move_cancel_and_reorder(courts_factory: Callable[..., Courts], operator: Api) -> None:
    one, two = courts_factory(), courts_factory()
    a, b, c = (one.sync(name) for name in ("a", "b", "c"))
    moved = operator.post(f"/operator/matches/{a['id']}/move", json={"tableID": two.tables[0]})
    assert moved.status_code == 200  # the operator may put any match on any table of the account
    assert moved.json["data"]["tableID"] == two.tables[0] and moved.json["data"]["queuePosition"] == 1
    unknown = operator.post(f"/operator/matches/{b['id']}/move", json={"tableID": "tbl_missing"})
    assert unknown.status_code == 404
    reordered = operator.put(f"/operator/tables/{one.tables[0]}/queue", json={"matchIDs": [c["id"], b["id"]]})
    assert reordered.status_code == 200
    assert [m["externalID"] for m in reordered.json["data"]["queue"]] == ["c", "b"]
    assert one.queue() == ["c", "b"]
    for wrong in ([c["id"]], [c["id"], b["id"], a["id"]], [c["id"], c["id"]], [b["id"], "mat_x"]):
        response = operator.put(f"/operator/tables/{one.tables[0]}/queue", json={"matchIDs": wrong})
        assert response.status_code == 400 and response.json["error"]["code"] == "validation_failed"
    assert one.queue() == ["c", "b"]
    cancelled = operator.post(f"/operator/matches/{c['id']}/cancel")
    assert cancelled.status_code == 200 and cancelled.json == {"data": {"id": c["id"], "deleted": True}}
    assert one.queue() == ["b"]
    assert operator.post(f"/operator/matches/{c['id']}/cancel").status_code == 404


def test_operator_cannot_move_or_cancel_a_locked_match(courts: Courts, operator: Api, live: dict[str, Any]) -> None:
    moved = operator.post(f"/operator/matches/{live['id']}/move", json={"tableID": courts.tables[1]})
    assert moved.status_code == 409 and moved.json["error"]["code"] == "match_locked"
    cancelled = operator.post(f"/operator/matches/{live['id']}/cancel")
    assert cancelled.status_code == 409 and cancelled.json["error"]["code"] == "match_locked"


def test_court_board_shows_every_table_with_every_connections_matches(
    courts_factory: Callable[..., Courts], operator: Api,
) -> None:
    one, two = courts_factory(), courts_factory()
    first = one.sync("a")
    one.sync("b")
    two.sync("z")
    call(operator, "start", first["id"])
    response = operator.get("/operator/tables")
    assert response.status_code == 200 and response.json["nextCursor"] is None
    board = {t["id"]: t for t in response.json["data"]}
    assert set(board) == set(one.tables + two.tables)
    court = board[one.tables[0]]
    assert court["activeMatch"]["externalID"] == "a" and [m["externalID"] for m in court["queue"]] == ["b"]
    assert court["managerConnectionID"] and court["managerConnectionID"] != board[two.tables[0]]["managerConnectionID"]
    assert [m["externalID"] for m in board[two.tables[0]]["queue"]] == ["z"]
    assert set(court) == {"id", "label", "broadcastID", "playerListExternalID", "activeMatch", "queue",
                          "managerConnectionID", "courtPlayerListID", "typicalMinutes", "attention"}
    page = operator.get("/operator/tables?limit=3")
    assert len(page.json["data"]) == 3 and page.json["nextCursor"]


def test_operator_lists_the_accounts_matches_newest_first_filtered_by_status_and_table(
    courts_factory: Callable[..., Courts], operator: Api,
) -> None:
    one, two = courts_factory(), courts_factory()
    first = one.sync("a")
    one.sync("b", table=1)
    two.sync("z")
    call(operator, "start", first["id"])
    call(operator, "complete", first["id"], {"gameScores": WIN})
    everything = operator.get("/operator/matches")
    assert everything.status_code == 200 and everything.json["nextCursor"] is None
    assert [m["externalID"] for m in everything.json["data"]] == ["z", "b", "a"]
    completed = operator.get("/operator/matches?status=completed").json["data"]
    assert [(m["externalID"], m["status"], m["score"]) for m in completed] == [("a", "completed", {"a": 3, "b": 1})]
    on_table = operator.get(f"/operator/matches?tableID={one.tables[1]}").json["data"]
    assert [m["externalID"] for m in on_table] == ["b"]
    first_page = operator.get("/operator/matches?limit=2")
    assert [m["externalID"] for m in first_page.json["data"]] == ["z", "b"]
    rest = operator.get(f"/operator/matches?limit=2&cursor={first_page.json['nextCursor']}")
    assert [m["externalID"] for m in rest.json["data"]] == ["a"] and rest.json["nextCursor"] is None
    bad = operator.get("/operator/matches?status=finished")
    assert bad.status_code == 400 and bad.json["error"]["code"] == "validation_failed"
    assert courts_factory().api.get("/operator/matches").status_code == 401


def test_operator_routes_refuse_partner_credentials(courts: Courts) -> None:
    match = courts.sync("m1")
    response = courts.api.post(f"/operator/matches/{match['id']}/start")
    assert response.status_code == 401 and response.json["error"]["code"] == "invalid_token"
    assert courts.api.get("/operator/tables").status_code == 401


def test_scoring_events_go_only_to_the_matchs_connection(
    courts_factory: Callable[..., Courts], operator: Api,
) -> None:
    one, two = courts_factory(), courts_factory()
    subscribe(one.api)
    subscribe(two.api)
    match = two.sync("theirs")
    call(operator, "start", match["id"])
    assert events(one.api) == []
    assert [e["type"] for e in events(two.api)] == ["match.started"]


@pytest.mark.parametrize(("settings", "points"), [({}, 11), ({"points_per_game": 21}, 21)], indirect=["settings"])
def test_operator_reads_the_servers_scoring_rules(points: int, operator: Api, partner: Api) -> None:
    assert operator.get("/operator/rules").json == {"data": {
        "pointsPerGame": points, "defaultBestOf": 5, "scoring": {"kind": "games", "bestOf": 5, "pointsToWin": points,
                                                                 "winBy": 2, "cap": None},
        "scoringName": "table_tennis" if points == 11 else None}}
    assert partner.get("/operator/rules").status_code == 401
