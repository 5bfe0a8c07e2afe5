"""Contract §23, a partner developer's first day, over HTTP on both backends: idempotent creates, the winner of
every completed match, date-times with an offset, players in use, sample events and `match.cancelled`."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from marshmallow import EXCLUDE

from api.schemas.matches import MatchRead
from domain.clock import FixedClock
from domain.models import SUBSCRIBABLE_EVENTS, EventType
from tests.api.test_matches import PLAYERS, make_player_list, make_tables
from tests.conftest import Api
from tests.webhook_receiver import Receiver, closed_port_url, running_receiver

WIN_A = [{"a": 11, "b": 5}, {"a": 11, "b": 6}, {"a": 11, "b": 7}]
WIN_B = [{"a": 5, "b": 11}, {"a": 6, "b": 11}, {"a": 7, "b": 11}]


@pytest.fixture
def clock() -> FixedClock:
    """Real time at the start, so that the Standard Webhooks verifier accepts the signatures' timestamps."""
    return FixedClock(datetime.now(UTC).replace(microsecond=0))


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    yield from running_receiver()


def keyed(key: str) -> dict[str, str]:
    return {"Idempotency-Key": key}


def match_body(tables: list[str], external_id: str, a: str = "p1", b: str = "p2") -> dict[str, Any]:
    return {"externalID": external_id, "tableID": tables[0], "playerListExternalID": "pl-1",
            "playerA": {"externalID": a}, "playerB": {"externalID": b}}


@pytest.fixture
def tables(partner: Api) -> list[str]:
    made = make_tables(partner)
    make_player_list(partner)
    return made


def sync(partner: Api, tables: list[str], external_id: str, a: str = "p1", b: str = "p2") -> dict[str, Any]:
    response = partner.put("/matches", json=match_body(tables, external_id, a, b))
    assert response.status_code == 200, response.json
    return dict(response.json["data"])


# ------------------------------------------------------------------------------------------ idempotent creates
def test_a_create_retried_with_its_key_answers_the_first_answer_and_creates_nothing(partner: Api) -> None:
    body = {"name": "Open", "tables": [{"label": "Court 1"}]}
    first = partner.post("/broadcasts", json=body, headers=keyed("create-open-0001"))
    assert first.status_code == 201
    again = partner.post("/broadcasts", json=body, headers=keyed("create-open-0001"))
    assert again.status_code == 201
    assert again.get_data() == first.get_data()
    # the same JSON value written otherwise (key order, spacing) is the same body
    respelled = partner.post("/broadcasts", data='{ "tables": [{"label": "Court 1"}],  "name": "Open" }',
                             content_type="application/json", headers=keyed("create-open-0001"))
    assert (respelled.status_code, respelled.get_data()) == (201, first.get_data())
    assert [b["id"] for b in partner.get("/broadcasts").json["data"]] == [first.json["data"]["id"]]


def test_the_first_answer_is_answered_even_after_the_thing_changed(partner: Api) -> None:
    body = {"name": "Open", "tables": [{"label": "Court 1"}]}
    first = partner.post("/broadcasts", json=body, headers=keyed("create-open-0002"))
    broadcast_id = first.json["data"]["id"]
    assert partner.patch(f"/broadcasts/{broadcast_id}", json={"name": "Renamed"}).status_code == 200
    again = partner.post("/broadcasts", json=body, headers=keyed("create-open-0002"))
    assert (again.status_code, again.json["data"]["name"]) == (201, "Open")


def test_the_same_key_with_another_body_is_409_and_creates_nothing(partner: Api) -> None:
    first = partner.post("/broadcasts", json={"name": "Open", "tables": [{"label": "C1"}]}, headers=keyed("key-00003"))
    other = partner.post("/broadcasts", json={"name": "Other", "tables": [{"label": "C1"}]}, headers=keyed("key-00003"))
    assert other.status_code == 409
    assert other.json["error"]["code"] == "idempotency_key_reused"
    assert [b["id"] for b in partner.get("/broadcasts").json["data"]] == [first.json["data"]["id"]]


def test_keys_are_kept_per_caller_and_per_route(partner: Api, new_partner: Callable[..., Api]) -> None:
    body = {"name": "Open", "tables": [{"label": "C1"}]}
    mine = partner.post("/broadcasts", json=body, headers=keyed("shared-key-1"))
    theirs = new_partner(name="other").post("/broadcasts", json=body, headers=keyed("shared-key-1"))
    assert theirs.status_code == 201 and theirs.json["data"]["id"] != mine.json["data"]["id"]
    roster = partner.post("/rosters", json={"name": "Open", "rosterType": "individual"}, headers=keyed("shared-key-1"))
    assert roster.status_code == 201 and roster.json["data"]["id"].startswith("ros_")
    assert len(partner.get("/broadcasts").json["data"]) == 2  # the account's: one each


@pytest.mark.parametrize("key", ["short", "k" * 201, ""])
def test_a_key_out_of_bounds_is_400_and_creates_nothing(partner: Api, key: str) -> None:
    response = partner.post("/broadcasts", json={"name": "Open", "tables": [{"label": "C1"}]}, headers=keyed(key))
    assert response.status_code == 400
    assert response.json["error"]["code"] == "invalid_idempotency_key"
    assert partner.get("/broadcasts").json["data"] == []


def test_a_key_is_forgotten_after_24_hours(partner: Api, clock: FixedClock) -> None:
    body = {"name": "Open", "tables": [{"label": "C1"}]}
    first = partner.post("/broadcasts", json=body, headers=keyed("day-old-key"))
    clock.advance(24 * 3600 - 1)
    assert partner.post("/broadcasts", json=body, headers=keyed("day-old-key")).get_data() == first.get_data()
    clock.advance(1)
    later = partner.post("/broadcasts", json=body, headers=keyed("day-old-key"))
    assert later.status_code == 201 and later.json["data"]["id"] != first.json["data"]["id"]


def test_a_refused_create_is_not_remembered(partner: Api) -> None:
    tables = make_tables(partner)
    body = match_body(tables, "m1")
    refused = partner.post("/matches", json=body, headers=keyed("match-m1-key"))
    assert (refused.status_code, refused.json["error"]["code"]) == (404, "not_found")  # no list pl-1 yet
    make_player_list(partner)
    created = partner.post("/matches", json=body, headers=keyed("match-m1-key"))
    assert created.status_code == 200 and created.json["data"]["externalID"] == "m1"


def test_bulk_and_operator_creates_are_idempotent(partner: Api, operator: Api, tables: list[str]) -> None:
    bulk = {"matches": [match_body(tables, "b1"), match_body(tables, "b2", "p3", "p4")]}
    first = partner.post("/matches/bulk", json=bulk, headers=keyed("bulk-key-1"))
    assert first.status_code == 200
    assert partner.post("/matches/bulk", json=bulk, headers=keyed("bulk-key-1")).get_data() == first.get_data()
    connections = len(operator.get("/operator/connections").json["data"])
    key = operator.post("/operator/keys", json={"name": "app"}, headers=keyed("op-key-create"))
    again = operator.post("/operator/keys", json={"name": "app"}, headers=keyed("op-key-create"))
    assert (key.status_code, again.status_code) == (201, 201)
    assert again.json["data"] == key.json["data"] | {"key": None}  # the secret is not kept for a replay
    assert len(operator.get("/operator/connections").json["data"]) == connections + 1
    made = operator.post("/operator/broadcasts", json={"name": "Desk", "tables": [{"label": "D1"}]},
                         headers=keyed("op-broadcast"))
    assert operator.post("/operator/broadcasts", json={"name": "Desk", "tables": [{"label": "D1"}]},
                         headers=keyed("op-broadcast")).get_data() == made.get_data()
    assert [b["name"] for b in operator.get("/operator/broadcasts").json["data"]].count("Desk") == 1


# ------------------------------------------------------------------------------------------ the winner
def test_every_completed_match_says_who_won(partner: Api, operator: Api, tables: list[str]) -> None:
    pending = sync(partner, tables, "m1")
    assert "winnerSide" not in pending
    sync(partner, tables, "m2", "p3", "p4")
    started = operator.post(f"/operator/matches/{pending['id']}/start").json["data"]
    assert "winnerSide" not in started
    done = operator.post(f"/operator/matches/{pending['id']}/complete", json={"gameScores": WIN_B})
    assert done.status_code == 200 and done.json["data"]["winnerSide"] == "b"
    assert partner.get("/matches/m1").json["data"]["winnerSide"] == "b"
    second = partner.get("/matches/m2").json["data"]["id"]
    operator.post(f"/operator/matches/{second}/start")
    operator.post(f"/operator/matches/{second}/complete", json={"gameScores": WIN_A})
    assert partner.get("/matches/m2").json["data"]["winnerSide"] == "a"
    listed = {m["externalID"]: m["winnerSide"] for m in operator.get("/operator/matches").json["data"]}
    assert listed == {"m1": "b", "m2": "a"}


def test_the_completed_event_carries_the_winner(
    partner: Api, operator: Api, tables: list[str], receiver: Receiver,
) -> None:
    partner.patch("/webhooks/configuration", json={"url": receiver.url, "events": ["match.completed"]})
    match = sync(partner, tables, "m1")
    operator.post(f"/operator/matches/{match['id']}/start")
    operator.post(f"/operator/matches/{match['id']}/complete", json={"gameScores": WIN_A})
    [delivery] = partner.get("/webhooks?eventType=match.completed").json["data"]
    assert delivery["payload"]["data"]["match"]["winnerSide"] == "a"


# ------------------------------------------------------------------------------------------ date-times
@pytest.mark.parametrize("route", ["/operator/matches", "/matches"])
def test_a_date_time_without_an_offset_names_the_field(
    partner: Api, operator: Api, tables: list[str], route: str,
) -> None:
    caller = operator if route.startswith("/operator") else partner
    response = caller.post(route, json=match_body(tables, "m1") | {"startTime": "2026-11-28T10:00:00"})
    assert response.status_code == 400
    assert response.json["error"]["code"] == "validation_failed"
    assert list(response.json["error"]["details"]["json"]) == ["startTime"]
    assert partner.get("/matches").json["data"] == []


# ------------------------------------------------------------------------------------------ players in use
def test_a_sync_may_not_remove_a_player_named_by_an_open_match(
    partner: Api, operator: Api, tables: list[str],
) -> None:
    m1, m2 = sync(partner, tables, "m1", "p1", "p2"), sync(partner, tables, "m2", "p3", "p1")
    operator.post(f"/operator/matches/{m1['id']}/start")  # active counts as pending does
    kept = [p for p in PLAYERS if p["externalID"] not in ("p1", "p3")]
    response = partner.put("/player-lists", json={"externalID": "pl-1", "name": "Entrants", "players": kept})
    assert response.status_code == 409
    error = response.json["error"]
    assert error["code"] == "player_in_use"
    assert error["details"] == {"players": ["p1", "p3"], "matchIDs": sorted([m1["id"], m2["id"]])}
    players = [p["externalID"] for p in partner.get("/player-lists/pl-1").json["data"]["players"]]
    assert players == [p["externalID"] for p in PLAYERS]  # nothing changed
    patch = partner.patch("/player-lists/pl-1", json={"removeExternalIDs": ["p3"], "name": "Changed"})
    assert patch.status_code == 409
    assert patch.json["error"]["details"] == {"players": ["p3"], "matchIDs": [m2["id"]]}
    assert partner.get("/player-lists/pl-1").json["data"]["name"] == "Entrants"


def test_players_no_open_match_names_may_go(partner: Api, operator: Api, tables: list[str]) -> None:
    m1 = sync(partner, tables, "m1", "p1", "p2")
    assert partner.patch("/player-lists/pl-1", json={"removeExternalIDs": ["p5"]}).status_code == 200
    operator.post(f"/operator/matches/{m1['id']}/start")
    operator.post(f"/operator/matches/{m1['id']}/complete", json={"gameScores": WIN_A})
    removed = partner.patch("/player-lists/pl-1", json={"removeExternalIDs": ["p1", "p2"]})
    assert removed.status_code == 200  # a completed match keeps the names it was played with
    assert partner.get("/matches/m1").json["data"]["playerA"] == "Ada Lovelace"


# ------------------------------------------------------------------------------------------ sample events
@pytest.mark.parametrize("event_type", [e.value for e in SUBSCRIBABLE_EVENTS])
def test_a_sample_of_every_event_is_sent_signed_whatever_the_subscription(
    partner: Api, receiver: Receiver, event_type: str,
) -> None:
    secret = partner.patch("/webhooks/configuration",
                           json={"url": receiver.url, "events": []}).json["data"]["webhook_secret"]
    response = partner.post("/webhooks/test", json={"type": event_type})
    assert response.status_code == 200, response.json
    delivery = response.json["data"]
    assert (delivery["eventType"], delivery["status"]) == (event_type, "delivered")
    [request] = receiver.received
    payload = request.verify(secret)
    assert payload == delivery["payload"] and payload["type"] == event_type
    data = payload["data"]
    assert data["test"] is True
    assert MatchRead(unknown=EXCLUDE).validate(data["match"]) == {}
    assert set(data["match"]) >= {"id", "externalID", "status", "participants", "score", "gameScores",
                                  "eventName", "matchRound", "startTime", "bestOf", "playerA", "playerB"}
    assert ("previous" in data) == (event_type in ("match.result_updated", "match.reset"))
    if event_type in ("match.completed", "match.result_updated"):
        assert data["match"]["status"] == "completed" and data["match"]["winnerSide"] in ("a", "b")


def test_without_a_body_the_test_is_integration_test(partner: Api, receiver: Receiver) -> None:
    partner.patch("/webhooks/configuration", json={"url": receiver.url})
    delivery = partner.post("/webhooks/test").json["data"]
    assert delivery["eventType"] == "integration.test"
    assert set(delivery["payload"]["data"]) == {"message", "sequence", "occurredOn"}
    assert delivery["payload"]["data"]["sequence"] == 0


@pytest.mark.parametrize("body", [{"type": "integration.test"}, {"type": "match.exploded"}, {"kind": "x"}])
def test_an_unknown_sample_type_is_400(partner: Api, receiver: Receiver, body: dict[str, str]) -> None:
    partner.patch("/webhooks/configuration", json={"url": receiver.url})
    response = partner.post("/webhooks/test", json=body)
    assert response.status_code == 400
    assert response.json["error"]["code"] == "validation_failed"
    assert receiver.received == []


# ------------------------------------------------------------------------------------------ match.cancelled
def cancelled_events(partner: Api) -> list[dict[str, Any]]:
    return [d["payload"] for d in partner.get(f"/webhooks?eventType={EventType.MATCH_CANCELLED}").json["data"]]


def test_match_cancelled_is_opt_in(partner: Api, operator: Api, tables: list[str]) -> None:
    assert partner.get("/webhooks/configuration").json["data"]["events"] == [
        "match.started", "match.score_updated", "match.completed", "match.result_updated"]
    partner.patch("/webhooks/configuration", json={"url": closed_port_url()})
    match = sync(partner, tables, "m1")
    assert operator.post(f"/operator/matches/{match['id']}/cancel").status_code == 200
    assert cancelled_events(partner) == []


def test_the_operator_cancelling_a_partner_match_is_announced(
    partner: Api, operator: Api, tables: list[str],
) -> None:
    config = partner.patch("/webhooks/configuration", json={"url": closed_port_url(), "events": ["match.cancelled"]})
    assert config.json["data"]["events"] == ["match.cancelled"]
    match = sync(partner, tables, "m1")
    assert operator.post(f"/operator/matches/{match['id']}/cancel").status_code == 200
    [event] = cancelled_events(partner)
    assert event["type"] == "match.cancelled"
    assert (event["data"]["match"]["id"], event["data"]["match"]["externalID"]) == (match["id"], "m1")
    # the partner's own cancels and deletes announce nothing
    sync(partner, tables, "m2")
    assert partner.delete("/matches/m2").status_code == 200
    sync(partner, tables, "m3")
    assert partner.post("/matches/bulk/cancel", json={"externalIDs": ["m3"]}).status_code == 200
    assert len(cancelled_events(partner)) == 1


def test_the_operator_deleting_a_broadcast_announces_its_pending_matches(
    partner: Api, operator: Api, tables: list[str],
) -> None:
    partner.patch("/webhooks/configuration", json={"url": closed_port_url(), "events": ["match.cancelled"]})
    ids = {sync(partner, tables, f"m{n}")["id"] for n in range(3)}
    broadcast_id = partner.get("/broadcasts").json["data"][0]["id"]
    assert operator.delete(f"/operator/broadcasts/{broadcast_id}").status_code == 200
    assert {e["data"]["match"]["id"] for e in cancelled_events(partner)} == ids


def test_the_operator_removing_a_court_announces_its_pending_matches(
    partner: Api, operator: Api, tables: list[str],
) -> None:
    partner.patch("/webhooks/configuration", json={"url": closed_port_url(), "events": ["match.cancelled"]})
    gone = sync(partner, tables, "m1")
    partner.put("/matches", json=match_body([tables[1]], "m2"))
    broadcast_id = partner.get("/broadcasts").json["data"][0]["id"]
    response = operator.patch(f"/operator/broadcasts/{broadcast_id}", json={"tables": [{"id": tables[1],
                                                                                       "label": "Court 2"}]})
    assert response.status_code == 200, response.json
    assert [e["data"]["match"]["id"] for e in cancelled_events(partner)] == [gone["id"]]


def test_a_partner_deleting_its_broadcast_announces_nothing(partner: Api, tables: list[str]) -> None:
    partner.patch("/webhooks/configuration", json={"url": closed_port_url(), "events": ["match.cancelled"]})
    sync(partner, tables, "m1")
    broadcast_id = partner.get("/broadcasts").json["data"][0]["id"]
    assert partner.delete(f"/broadcasts/{broadcast_id}").status_code == 200
    assert cancelled_events(partner) == []


def test_a_schedule_row_without_an_offset_names_its_field(operator: Api) -> None:
    made = operator.post("/operator/broadcasts", json={"name": "Club day", "tables": [{"label": "Court 1"}]})
    response = operator.post("/operator/matches/import", json={
        "broadcastID": made.json["data"]["id"], "dryRun": False,
        "rows": [{"court": "Court 1", "playerA": "Ann Lee", "playerB": "Bo Kim", "scheduledOn": "2026-11-28T14:00"}]})
    assert response.status_code == 400
    assert response.json["error"]["code"] == "validation_failed"
    assert list(response.json["error"]["details"]["json"]["rows"]["0"]) == ["scheduledOn"]
    assert operator.get("/operator/matches").json["data"] == []
