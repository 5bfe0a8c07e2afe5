"""Scoring as operations (contract §17): operator `point` and `undo` with `scoreVersion`, `score` with `version`
refusing stale writes (409 stale_state with the current read), and one engine shared with the scorer page."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.api.test_scorer_links import act, courts, scorer_path, state  # noqa: F401 (fixture)
from tests.conftest import Api


@pytest.fixture
def live(operator: Api, courts: list[str]) -> dict[str, Any]:  # noqa: F811
    """The first court's first match, started."""
    match_id = operator.get(f"/operator/matches?tableID={courts[0]}&status=pending").json["data"][0]["id"]
    started = operator.post(f"/operator/matches/{match_id}/start")
    assert started.status_code == 200, started.json
    data: dict[str, Any] = started.json["data"]
    return data


def read(operator: Api, match: dict[str, Any]) -> dict[str, Any]:
    """The match's current read from the operator list of its table."""
    [found] = [m for m in operator.get(f"/operator/matches?tableID={match['tableID']}").json["data"]
               if m["id"] == match["id"]]
    return dict(found)


def tap(operator: Api, match_id: str, side: str, version: int) -> Any:
    return operator.post(f"/operator/matches/{match_id}/point", json={"side": side, "version": version})


def test_every_match_read_carries_score_version(operator: Api, partner: Api, courts: list[str]) -> None:  # noqa: F811
    for read in operator.get(f"/operator/matches?tableID={courts[0]}").json["data"]:
        assert read["scoreVersion"] == 0
    for read in partner.get("/matches").json["data"]:
        assert isinstance(read["scoreVersion"], int)


def test_start_and_every_point_raise_score_version_by_one(operator: Api, live: dict[str, Any]) -> None:
    assert live["scoreVersion"] == 1
    first = tap(operator, live["id"], "a", 1)
    assert first.status_code == 200 and first.json["data"]["scoreVersion"] == 2
    assert first.json["data"]["gameScores"] == [{"a": 1, "b": 0}]
    second = tap(operator, live["id"], "b", 2)
    assert second.json["data"]["gameScores"] == [{"a": 1, "b": 1}] and second.json["data"]["scoreVersion"] == 3
    assert read(operator, live)["scoreVersion"] == 3


def test_point_on_an_old_version_is_409_stale_state_with_the_current_read(operator: Api,
                                                                          live: dict[str, Any]) -> None:
    assert tap(operator, live["id"], "a", 1).status_code == 200
    stale = tap(operator, live["id"], "b", 1)
    assert stale.status_code == 409 and stale.json["error"]["code"] == "stale_state"
    current = stale.json["error"]["details"]["match"]
    assert current["id"] == live["id"] and current["scoreVersion"] == 2
    assert current["gameScores"] == [{"a": 1, "b": 0}]
    assert read(operator, live)["gameScores"] == [{"a": 1, "b": 0}]


def test_score_with_an_old_version_is_409_stale_state_and_changes_nothing(operator: Api,
                                                                          live: dict[str, Any]) -> None:
    tap(operator, live["id"], "a", 1)
    stale = operator.post(f"/operator/matches/{live['id']}/score",
                          json={"gameScores": [{"a": 5, "b": 5}], "version": 1})
    assert stale.status_code == 409 and stale.json["error"]["code"] == "stale_state"
    assert stale.json["error"]["details"]["match"]["gameScores"] == [{"a": 1, "b": 0}]
    fresh = operator.post(f"/operator/matches/{live['id']}/score",
                          json={"gameScores": [{"a": 5, "b": 5}], "version": 2})
    assert fresh.status_code == 200 and fresh.json["data"]["scoreVersion"] == 3
    unversioned = operator.post(f"/operator/matches/{live['id']}/score", json={"gameScores": [{"a": 6, "b": 5}]})
    assert unversioned.status_code == 200 and unversioned.json["data"]["scoreVersion"] == 4


def test_undo_takes_back_the_last_point_whoever_scored_it(operator: Api, phone_client: FlaskClient,
                                                          courts: list[str], live: dict[str, Any]) -> None:  # noqa: F811
    tap(operator, live["id"], "a", 1)
    path = scorer_path(operator, courts[0])
    by_phone = act(phone_client, path, "point", state(phone_client, path)["version"], side="b")
    assert by_phone.status_code == 200, by_phone.json
    version = read(operator, live)["scoreVersion"]
    undone = operator.post(f"/operator/matches/{live['id']}/undo", json={"version": version})
    assert undone.status_code == 200 and undone.json["data"]["gameScores"] == [{"a": 1, "b": 0}]
    again = operator.post(f"/operator/matches/{live['id']}/undo", json={"version": version + 1})
    assert again.status_code == 200 and again.json["data"]["gameScores"] == []
    nothing = operator.post(f"/operator/matches/{live['id']}/undo", json={"version": version + 2})
    assert nothing.status_code == 409 and nothing.json["error"]["code"] == "nothing_to_undo"


def test_undo_on_an_old_version_is_stale_and_keeps_the_newer_point(operator: Api, live: dict[str, Any]) -> None:
    tap(operator, live["id"], "a", 1)
    tap(operator, live["id"], "b", 2)  # another device's point after the console read version 2
    stale = operator.post(f"/operator/matches/{live['id']}/undo", json={"version": 2})
    assert stale.status_code == 409 and stale.json["error"]["code"] == "stale_state"
    assert read(operator, live)["gameScores"] == [{"a": 1, "b": 1}]


def test_a_whole_score_written_leaves_nothing_to_undo(operator: Api, live: dict[str, Any]) -> None:
    tap(operator, live["id"], "a", 1)
    operator.post(f"/operator/matches/{live['id']}/score", json={"gameScores": [{"a": 3, "b": 2}], "version": 2})
    nothing = operator.post(f"/operator/matches/{live['id']}/undo", json={"version": 3})
    assert nothing.status_code == 409 and nothing.json["error"]["code"] == "nothing_to_undo"


def test_point_refusals(operator: Api, courts: list[str], live: dict[str, Any]) -> None:  # noqa: F811
    bad_side = operator.post(f"/operator/matches/{live['id']}/point", json={"side": "c", "version": 1})
    assert bad_side.status_code == 400 and bad_side.json["error"]["code"] == "validation_failed"
    no_version = operator.post(f"/operator/matches/{live['id']}/point", json={"side": "a"})
    assert no_version.status_code == 400 and no_version.json["error"]["code"] == "validation_failed"
    pending = operator.get(f"/operator/matches?tableID={courts[0]}&status=pending").json["data"][0]
    not_active = tap(operator, pending["id"], "a", pending["scoreVersion"])
    assert not_active.status_code == 409 and not_active.json["error"]["code"] == "match_not_active"
    missing = tap(operator, "mat_nope", "a", 0)
    assert missing.status_code == 404
    version = 1
    for _ in range(22):  # best of 3: 11-0, 11-0
        version = tap(operator, live["id"], "a", version).json["data"]["scoreVersion"]
    decided = tap(operator, live["id"], "a", version)
    assert decided.status_code == 409 and decided.json["error"]["code"] == "match_decided"


@pytest.fixture
def phone_client(app: Flask) -> FlaskClient:
    return app.test_client()


# ------------------------------------------------------------------------------------------------ opID (§17)
def test_a_retried_point_opid_answers_the_first_answer_and_counts_once(operator: Api,
                                                                       live: dict[str, Any]) -> None:
    body = {"side": "a", "version": 1, "opID": "tap-1"}
    first = operator.post(f"/operator/matches/{live['id']}/point", json=body)
    again = operator.post(f"/operator/matches/{live['id']}/point", json=body)  # its version is stale by now
    assert first.status_code == again.status_code == 200
    assert again.json == first.json
    assert read(operator, live)["gameScores"] == [{"a": 1, "b": 0}] and read(operator, live)["scoreVersion"] == 2


def test_a_retried_undo_opid_undoes_once(operator: Api, live: dict[str, Any]) -> None:
    tap(operator, live["id"], "a", 1)
    tap(operator, live["id"], "a", 2)
    body = {"version": 3, "opID": "undo-1"}
    first = operator.post(f"/operator/matches/{live['id']}/undo", json=body)
    again = operator.post(f"/operator/matches/{live['id']}/undo", json=body)
    assert first.status_code == again.status_code == 200 and again.json == first.json
    assert read(operator, live)["gameScores"] == [{"a": 1, "b": 0}]


def test_a_retried_score_opid_changes_nothing(operator: Api, live: dict[str, Any]) -> None:
    body = {"gameScores": [{"a": 4, "b": 2}], "version": 1, "opID": "whole-1"}
    first = operator.post(f"/operator/matches/{live['id']}/score", json=body)
    tap(operator, live["id"], "b", 2)
    again = operator.post(f"/operator/matches/{live['id']}/score", json=body)
    assert first.status_code == again.status_code == 200 and again.json == first.json
    assert read(operator, live)["gameScores"] == [{"a": 4, "b": 3}]


def test_a_new_opid_is_a_new_operation(operator: Api, live: dict[str, Any]) -> None:
    operator.post(f"/operator/matches/{live['id']}/point", json={"side": "a", "version": 1, "opID": "x1"})
    second = operator.post(f"/operator/matches/{live['id']}/point", json={"side": "a", "version": 2, "opID": "x2"})
    assert second.status_code == 200 and second.json["data"]["gameScores"] == [{"a": 2, "b": 0}]


def test_opids_are_remembered_for_24_hours(operator: Api, clock: Any, live: dict[str, Any]) -> None:
    body = {"side": "a", "version": 1, "opID": "day-old"}
    operator.post(f"/operator/matches/{live['id']}/point", json=body)
    clock.advance(23 * 3600)
    assert operator.post(f"/operator/matches/{live['id']}/point", json=body).status_code == 200
    assert read(operator, live)["scoreVersion"] == 2
    clock.advance(2 * 3600)  # forgotten: the same request is a new operation, on a stale version now
    late = operator.post(f"/operator/matches/{live['id']}/point", json=body)
    assert late.status_code == 409 and late.json["error"]["code"] == "stale_state"
    fresh = operator.post(f"/operator/matches/{live['id']}/point", json=body | {"version": 2})
    assert fresh.status_code == 200 and fresh.json["data"]["gameScores"] == [{"a": 2, "b": 0}]


@pytest.mark.parametrize("op_id", ["", "a" * 65, "has space", "semi;colon", 7])
def test_an_opid_that_is_not_1_to_64_url_safe_characters_is_400(operator: Api, live: dict[str, Any],
                                                                 op_id: Any) -> None:
    bad = operator.post(f"/operator/matches/{live['id']}/point", json={"side": "a", "version": 1, "opID": op_id})
    assert bad.status_code == 400 and bad.json["error"]["code"] == "validation_failed"
    assert read(operator, live)["scoreVersion"] == 1


@pytest.mark.parametrize("field", ["opID", "deviceID"])
def test_an_opid_or_device_id_ending_in_a_newline_is_400(operator: Api, live: dict[str, Any], field: str) -> None:
    """The whole value must be URL-safe characters (a pattern's `$` alone would let a final newline through)."""
    bad = operator.post(f"/operator/matches/{live['id']}/point", json={"side": "a", "version": 1, field: "op-1\n"})
    assert bad.status_code == 400 and list(bad.json["error"]["details"]["json"]) == [field]
    assert read(operator, live)["scoreVersion"] == 1


def test_a_retried_scorer_page_opid_answers_the_first_answer_and_counts_once(
        operator: Api, phone_client: FlaskClient, courts: list[str], live: dict[str, Any]) -> None:  # noqa: F811
    path = scorer_path(operator, courts[0])
    seen = state(phone_client, path)["version"]
    first = act(phone_client, path, "point", seen, side="b", opID="phone-1")
    again = act(phone_client, path, "point", seen, side="b", opID="phone-1")
    assert first.status_code == again.status_code == 200 and again.json == first.json
    assert read(operator, live)["gameScores"] == [{"a": 0, "b": 1}]
    bad = act(phone_client, path, "point", state(phone_client, path)["version"], side="b", opID="no way")
    assert bad.status_code == 400 and bad.json["error"]["code"] == "validation_failed"


def test_an_opid_counts_once_on_its_match_through_any_route(
        operator: Api, phone_client: FlaskClient, courts: list[str], live: dict[str, Any]) -> None:  # noqa: F811
    """Issue 37, point 4: the same opID on the scorer link and then the operator route (and the other way round)
    applies once; the second route answers the match as it then is, in its own shape."""
    path = scorer_path(operator, courts[0])
    by_phone = act(phone_client, path, "point", state(phone_client, path)["version"], side="b", opID="both-1")
    assert by_phone.status_code == 200, by_phone.json
    version = read(operator, live)["scoreVersion"]
    by_desk = operator.post(f"/operator/matches/{live['id']}/point", json={"side": "b", "version": version,
                                                                           "opID": "both-1"})
    assert by_desk.status_code == 200, by_desk.json
    assert by_desk.json["data"]["id"] == live["id"] and by_desk.json["data"]["gameScores"] == [{"a": 0, "b": 1}]
    assert by_desk.json["data"] == read(operator, live)  # the operator read, as the match is now
    desk_first = operator.post(f"/operator/matches/{live['id']}/point", json={"side": "a", "version": version,
                                                                              "opID": "both-2"})
    assert desk_first.json["data"]["gameScores"] == [{"a": 1, "b": 1}]
    phone_again = act(phone_client, path, "point", state(phone_client, path)["version"], side="a", opID="both-2")
    assert phone_again.status_code == 200, phone_again.json
    assert phone_again.json["data"] == state(phone_client, path)  # the phone's shape, as the court is now
    undo = act(phone_client, path, "undo", state(phone_client, path)["version"], opID="both-2")
    assert undo.status_code == 200
    assert read(operator, live)["gameScores"] == [{"a": 1, "b": 1}] and read(operator, live)["scoreVersion"] == 3
