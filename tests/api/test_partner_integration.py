"""Issue 50, a partner's integration from the docs alone (contract §23, "Added with §24"), over HTTP on both
backends: externalIDs every route reaches, events in order, `match.reset`, samples of one's own match, partner
recovery of failing deliveries, and the small breaks of the first integration."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote

import orjson
import pytest

from domain.clock import FixedClock
from domain.settings import Settings
from scheduler.dispatcher import Dispatcher
from storage.backend import AnyStore
from tests.api.test_matches import PLAYERS, make_player_list, make_tables
from tests.conftest import ROOT, Api
from tests.webhook_receiver import Receiver, Reply, running_receiver

BAD_EXTERNAL_IDS = ["club/2026/m1", "/m1", "", " m1", "m1 ", "m\n1", "m\x7f1", "x" * 201]


WIN_A = [{"a": 11, "b": 5}, {"a": 11, "b": 6}, {"a": 11, "b": 7}]
RETRIES = {"webhook_retry_schedule": (0.0, 2.0, 4.0)}


@pytest.fixture
def clock() -> FixedClock:
    """Real time at the start, so that the Standard Webhooks verifier accepts the signatures' timestamps."""
    return FixedClock(datetime.now(UTC).replace(microsecond=0))


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    yield from running_receiver()


@pytest.fixture
def dispatcher(settings: Settings, store: AnyStore, clock: FixedClock) -> Dispatcher:
    """The real dispatcher's passes, run on the test thread (`run_due`), never started."""
    return Dispatcher(store, settings, clock)


@pytest.fixture
def tables(partner: Api) -> list[str]:
    made = make_tables(partner)
    make_player_list(partner)
    return made


def refused_field(response: Any) -> dict[str, Any]:
    assert response.status_code == 400, response.json
    assert response.json["error"]["code"] == "validation_failed"
    details: dict[str, Any] = response.json["error"]["details"]["json"]
    return details


# ------------------------------------------------------------------------------------------------ externalIDs
@pytest.mark.parametrize("external_id", BAD_EXTERNAL_IDS)
def test_a_match_external_id_with_a_slash_control_or_surrounding_space_is_refused(
        partner: Api, tables: list[str], external_id: str) -> None:
    body = {"externalID": external_id, "tableID": tables[0], "playerListExternalID": "pl-1"}
    assert "externalID" in refused_field(partner.put("/matches", json=body))
    assert "externalID" in refused_field(partner.post("/matches", json=body))
    bulk = partner.post("/matches/bulk", json={"matches": [body]})
    assert bulk.status_code == 400, bulk.json
    assert partner.get("/matches").json["data"] == []


@pytest.mark.parametrize("external_id", BAD_EXTERNAL_IDS)
def test_list_team_and_player_external_ids_follow_the_same_rule(partner: Api, external_id: str) -> None:
    good = {"externalID": "p1", "firstName": "Ada"}
    bad = {"externalID": external_id, "firstName": "Ada"}
    assert "externalID" in refused_field(partner.put("/player-lists", json={
        "externalID": external_id, "name": "List", "players": [good]}))
    assert "players" in refused_field(partner.put("/player-lists", json={
        "externalID": "pl", "name": "List", "players": [bad]}))
    assert "externalID" in refused_field(partner.put("/teams", json={
        "externalID": external_id, "name": "Team", "players": [good]}))
    assert "players" in refused_field(partner.put("/teams", json={
        "externalID": "t", "name": "Team", "players": [bad]}))
    make_player_list(partner, "pl")
    assert "upsert" in refused_field(partner.patch("/player-lists/pl", json={"upsert": [bad]}))
    assert partner.get("/teams").json["data"] == []
    assert [p["externalID"] for p in partner.get("/player-lists/pl").json["data"]["players"]] == [
        p["externalID"] for p in PLAYERS]


def test_an_operator_named_player_or_match_follows_the_same_rule(operator: Api, partner: Api,
                                                                  tables: list[str]) -> None:
    lists = operator.get("/operator/player-lists").json["data"]
    list_id = lists[0]["id"]
    assert "externalID" in refused_field(operator.post(f"/operator/player-lists/{list_id}/players", json={
        "externalID": "a/b", "firstName": "Ada"}))
    assert "externalID" in refused_field(operator.post("/operator/matches", json={
        "externalID": "a/b", "tableID": tables[0]}))


@pytest.mark.parametrize("external_id", ["club-2026-m1", "Spiel 1 (Halle 2)", "x" * 200, "m:1?#%"])
def test_every_route_reaches_an_allowed_external_id(partner: Api, tables: list[str], external_id: str) -> None:
    body = {"externalID": external_id, "tableID": tables[0], "playerListExternalID": "pl-1"}
    assert partner.put("/matches", json=body).status_code == 200
    path = f"/matches/{quote(external_id, safe='')}"
    assert partner.get(path).json["data"]["externalID"] == external_id
    assert partner.patch(path, json={"tableID": tables[1]}).status_code == 200
    assert partner.delete(path).json["data"] == {"externalID": external_id, "deleted": True}
    assert partner.get(path).status_code == 404


# ------------------------------------------------------------------------------------------------ order
def sync(partner: Api, tables: list[str], external_id: str, table: int = 0, a: str = "p1",
         b: str = "p2") -> dict[str, Any]:
    body = {"externalID": external_id, "tableID": tables[table], "playerListExternalID": "pl-1",
            "playerA": {"externalID": a}, "playerB": {"externalID": b}}
    response = partner.put("/matches", json=body)
    assert response.status_code == 200, response.json
    return dict(response.json["data"])


def received(receiver: Receiver, secret: str) -> list[tuple[str, str, int]]:
    """(type, match externalID, sequence) of every request the receiver got, in arrival order."""
    return [(p["type"], p["data"]["match"]["externalID"], p["data"]["sequence"])
            for p in (request.verify(secret) for request in receiver.received)]


def test_every_event_carries_its_sequence_and_when_it_happened(
        partner: Api, operator: Api, tables: list[str], receiver: Receiver, clock: FixedClock) -> None:
    partner.patch("/webhooks/configuration", json={"url": receiver.url})
    match = sync(partner, tables, "m1")
    operator.post(f"/operator/matches/{match['id']}/start")
    clock.advance(5)
    operator.post(f"/operator/matches/{match['id']}/score", json={"gameScores": [{"a": 3, "b": 1}]})
    operator.post(f"/operator/matches/{match['id']}/complete", json={"gameScores": WIN_A})
    deliveries = list(reversed(partner.get("/webhooks").json["data"]))
    assert [d["eventType"] for d in deliveries] == ["match.started", "match.score_updated", "match.completed"]
    assert [d["payload"]["data"]["sequence"] for d in deliveries] == [1, 2, 3]
    assert [d["payload"]["data"]["occurredOn"] for d in deliveries] == [
        deliveries[0]["createdOn"], deliveries[1]["createdOn"], deliveries[1]["createdOn"]]
    assert deliveries[0]["payload"]["data"]["occurredOn"] != deliveries[1]["payload"]["data"]["occurredOn"]
    other = sync(partner, tables, "m2", 1, "p3", "p4")
    operator.post(f"/operator/matches/{other['id']}/start")
    [started] = partner.get("/webhooks?limit=1").json["data"]
    assert started["payload"]["data"]["sequence"] == 1  # per match


@pytest.mark.parametrize("settings", [RETRIES], indirect=True)
def test_a_later_event_waits_while_an_earlier_one_of_its_match_is_retrying(
        partner: Api, operator: Api, tables: list[str], receiver: Receiver, clock: FixedClock,
        dispatcher: Dispatcher) -> None:
    secret = partner.patch("/webhooks/configuration", json={"url": receiver.url}).json["data"]["webhook_secret"]
    receiver.default = Reply(503)  # the receiver is down
    match = sync(partner, tables, "m1")
    operator.post(f"/operator/matches/{match['id']}/start")
    assert dispatcher.run_due() == 1  # match.started fails, retried in 2 s
    operator.post(f"/operator/matches/{match['id']}/complete", json={"gameScores": WIN_A})
    other = sync(partner, tables, "m2", 1, "p3", "p4")
    receiver.default = Reply(200)
    operator.post(f"/operator/matches/{other['id']}/start")
    assert dispatcher.run_due() == 1  # m2's start is not held up; m1's completion waits for m1's start
    assert received(receiver, secret) == [("match.started", "m1", 1), ("match.started", "m2", 1)]
    clock.advance(3)  # the receiver is back and the retry falls due
    assert dispatcher.run_due() == 2
    assert received(receiver, secret)[2:] == [("match.started", "m1", 1), ("match.completed", "m1", 2)]
    statuses = {(d["eventType"], d["payload"]["data"]["match"]["externalID"]): d["status"]
                for d in partner.get("/webhooks").json["data"]}
    assert set(statuses.values()) == {"delivered"}


@pytest.mark.parametrize("settings", [{"webhook_retry_schedule": (0.0,)}], indirect=True)
def test_a_failed_event_holds_up_nothing(
        partner: Api, operator: Api, tables: list[str], receiver: Receiver, dispatcher: Dispatcher) -> None:
    partner.patch("/webhooks/configuration", json={"url": receiver.url})
    receiver.reply(500)
    match = sync(partner, tables, "m1")
    operator.post(f"/operator/matches/{match['id']}/start")
    assert dispatcher.run_due() == 1
    operator.post(f"/operator/matches/{match['id']}/complete", json={"gameScores": WIN_A})
    assert dispatcher.run_due() == 1
    statuses = [(d["eventType"], d["status"]) for d in partner.get("/webhooks").json["data"]]
    assert statuses == [("match.completed", "delivered"), ("match.started", "failed")]


# ------------------------------------------------------------------------------------------------ match.reset
def resets(partner: Api) -> list[dict[str, Any]]:
    return [d["payload"]["data"] for d in partner.get("/webhooks?eventType=match.reset").json["data"]]


def version(match_id: str, partner: Api) -> int:
    """The partner's match's `scoreVersion` (its only match on the account)."""
    [match] = [m for m in partner.get("/matches").json["data"] if m["id"] == match_id]
    return int(match["scoreVersion"])


def point(operator: Api, match_id: str, side: str, partner: Api) -> dict[str, Any]:
    body = {"side": side, "version": version(match_id, partner)}
    response = operator.post(f"/operator/matches/{match_id}/point", json=body)
    assert response.status_code == 200, response.json
    return dict(response.json["data"])


def undo(operator: Api, match_id: str, partner: Api) -> dict[str, Any]:
    response = operator.post(f"/operator/matches/{match_id}/undo", json={"version": version(match_id, partner)})
    assert response.status_code == 200, response.json
    return dict(response.json["data"])


def test_a_stop_sends_match_reset_with_the_read_before(
        partner: Api, operator: Api, tables: list[str], receiver: Receiver) -> None:
    partner.patch("/webhooks/configuration", json={"url": receiver.url, "events": ["match.started", "match.reset"]})
    match = sync(partner, tables, "m1")
    operator.post(f"/operator/matches/{match['id']}/start")
    operator.post(f"/operator/matches/{match['id']}/score", json={"gameScores": [{"a": 11, "b": 3}, {"a": 2, "b": 1}]})
    before = partner.get("/matches/m1").json["data"]
    assert operator.post(f"/operator/matches/{match['id']}/stop").status_code == 200
    after = partner.get("/matches/m1").json["data"]
    [reset] = resets(partner)
    assert reset["match"] == after and reset["previous"] == before
    assert (after["status"], after["gameScores"], before["status"]) == ("pending", [], "active")
    assert reset["sequence"] == 2  # after match.started (1); the unsubscribed score update took no number


def test_an_undo_that_reopens_a_finished_game_sends_match_reset(
        partner: Api, operator: Api, tables: list[str], receiver: Receiver) -> None:
    partner.patch("/webhooks/configuration", json={"url": receiver.url, "events": ["match.reset"]})
    match = sync(partner, tables, "m1")
    operator.post(f"/operator/matches/{match['id']}/start")
    operator.post(f"/operator/matches/{match['id']}/score", json={"gameScores": [{"a": 10, "b": 3}]})
    closed = point(operator, match["id"], "a", partner)  # 11-3: the first game is finished
    assert closed["score"] == {"a": 1, "b": 0}
    point(operator, match["id"], "b", partner)  # opens the second game
    undo(operator, match["id"], partner)  # takes back the second game's point: nothing finished reopens
    assert resets(partner) == []
    reopened = undo(operator, match["id"], partner)  # back to 10-3: the first game is open again
    [reset] = resets(partner)
    assert reset["match"]["gameScores"] == reopened["gameScores"] == [{"a": 10, "b": 3}]
    assert reset["previous"]["gameScores"] == [{"a": 11, "b": 3}] and reset["previous"]["score"] == {"a": 1, "b": 0}


def test_an_undo_that_reopens_a_tennis_game_sends_match_reset(
        partner: Api, operator: Api, tables: list[str], receiver: Receiver) -> None:
    partner.patch("/webhooks/configuration", json={"url": receiver.url, "events": ["match.reset"]})
    tennis = partner.post("/broadcasts", json={"name": "Tennis", "tables": [{"label": "Court 1"}], "scoring": "tennis"})
    match = sync(partner, [tennis.json["data"]["tables"][0]["id"]], "m1")
    operator.post(f"/operator/matches/{match['id']}/start")
    for _ in range(3):
        point(operator, match["id"], "a", partner)
    undo(operator, match["id"], partner)  # 40-0 back to 30-0: no game reopens
    assert resets(partner) == []
    point(operator, match["id"], "a", partner)
    game = point(operator, match["id"], "a", partner)  # the game: 1-0
    assert game["gameScores"] == [{"a": 1, "b": 0}]
    undo(operator, match["id"], partner)
    [reset] = resets(partner)
    assert reset["match"]["gameScores"] == [{"a": 0, "b": 0}] and reset["previous"]["gameScores"] == [{"a": 1, "b": 0}]


def test_match_reset_is_opt_in(partner: Api, operator: Api, tables: list[str], receiver: Receiver) -> None:
    partner.patch("/webhooks/configuration", json={"url": receiver.url})
    match = sync(partner, tables, "m1")
    operator.post(f"/operator/matches/{match['id']}/start")
    operator.post(f"/operator/matches/{match['id']}/stop")
    assert resets(partner) == []
    assert partner.get("/webhooks/configuration").json["data"]["events"] == [
        "match.started", "match.score_updated", "match.completed", "match.result_updated"]


# ------------------------------------------------------------------------------------------------ samples
def test_a_sample_of_the_callers_own_match_is_that_matchs_read(
        partner: Api, operator: Api, tables: list[str], receiver: Receiver) -> None:
    secret = partner.patch("/webhooks/configuration", json={"url": receiver.url, "events": []}).json["data"][
        "webhook_secret"]
    match = sync(partner, tables, "m1")
    operator.post(f"/operator/matches/{match['id']}/start")
    operator.post(f"/operator/matches/{match['id']}/complete", json={"gameScores": WIN_A})
    read = partner.get("/matches/m1").json["data"]
    for event_type in ("match.completed", "match.result_updated", "match.reset"):
        response = partner.post("/webhooks/test", json={"type": event_type, "matchID": match["id"]})
        assert response.status_code == 200, response.json
        data = receiver.received[-1].verify(secret)["data"]
        assert data["match"] == read and data["test"] is True and data["sequence"] == 0
    assert data["previous"] == read
    result = partner.get("/webhooks?eventType=match.result_updated").json["data"][0]["payload"]["data"]
    assert result["previous"] == {"gameScores": read["gameScores"], "score": read["score"]}


def test_a_sample_of_another_connections_match_is_404(
        partner: Api, operator: Api, new_partner: Any, tables: list[str], receiver: Receiver) -> None:
    match = sync(partner, tables, "m1")
    other = new_partner(name="other")
    other.patch("/webhooks/configuration", json={"url": receiver.url})
    for match_id in (match["id"], "mat_missing"):
        response = other.post("/webhooks/test", json={"type": "match.started", "matchID": match_id})
        assert response.status_code == 404 and response.json["error"]["code"] == "not_found"
    assert receiver.received == []
    refused = other.post("/webhooks/test", json={"matchID": match["id"]})
    assert refused.status_code == 400 and refused.json["error"]["code"] == "validation_failed"


@pytest.mark.parametrize("event_type", ["match.started", "match.score_updated", "match.completed",
                                        "match.result_updated", "match.reset"])
def test_a_sample_without_a_match_is_in_the_format_of_the_latest_broadcast(
        partner: Api, receiver: Receiver, clock: FixedClock, event_type: str) -> None:
    partner.patch("/webhooks/configuration", json={"url": receiver.url})
    partner.post("/broadcasts", json={"name": "Badminton", "tables": [{"label": "Court 1"}], "scoring": "badminton"})
    clock.advance(60)
    partner.post("/broadcasts", json={"name": "Tennis", "tables": [{"label": "Court 1"}], "scoring": "tennis"})
    data = partner.post("/webhooks/test", json={"type": event_type}).json["data"]["payload"]["data"]
    match = data["match"]
    assert (match["scoringName"], match["scoring"]["kind"], match["bestOf"]) == ("tennis", "sets", 3)
    if match["status"] == "completed":
        assert match["score"][match["winnerSide"]] == 2
        assert any("tiebreak" in item for item in match["gameScores"]) or len(match["gameScores"]) in (2, 3)
    if match["status"] == "active":
        assert set(match["currentGame"]) == {"a", "b"}
    for item in match["gameScores"]:
        assert max(item["a"], item["b"]) <= 7
    badminton = partner.get("/broadcasts").json["data"][0]
    clock.advance(60)
    partner.patch(f"/broadcasts/{badminton['id']}", json={"name": "Badminton Open"})  # now the latest changed
    latest = partner.post("/webhooks/test", json={"type": event_type}).json["data"]["payload"]["data"]["match"]
    assert (latest["scoringName"], latest["bestOf"]) == ("badminton", 3)


# ------------------------------------------------------------------------------------------------ recovery
@pytest.mark.parametrize("settings", [RETRIES], indirect=True)
def test_a_partner_lists_and_retries_its_own_failing_deliveries(
        partner: Api, new_partner: Any, receiver: Receiver, dispatcher: Dispatcher) -> None:
    partner.patch("/webhooks/configuration", json={"url": receiver.url})
    other = new_partner(name="other")
    other.patch("/webhooks/configuration", json={"url": receiver.url})
    receiver.reply(410, 500)
    gone = partner.post("/webhooks/test").json["data"]  # failed (410)
    erroring = partner.post("/webhooks/test").json["data"]  # pending after an error
    fine = partner.post("/webhooks/test").json["data"]  # delivered
    receiver.reply(500)
    others = other.post("/webhooks/test").json["data"]  # another connection's failing delivery
    listed = partner.get("/webhooks?status=failing")
    assert listed.status_code == 200
    assert [d["eventID"] for d in listed.json["data"]] == [erroring["eventID"], gone["eventID"]]
    assert fine["status"] == "delivered"
    response = partner.post("/webhooks/retry-failing")
    assert response.status_code == 200
    assert response.json == {"data": {"retried": 2}}
    assert dispatcher.run_due() == 2  # the other connection's stays where its schedule put it
    assert partner.get("/webhooks?status=failing").json["data"] == []
    assert [d["eventID"] for d in other.get("/webhooks?status=failing").json["data"]] == [others["eventID"]]


def test_retry_failing_without_a_url_is_409(partner: Api) -> None:
    response = partner.post("/webhooks/retry-failing")
    assert response.status_code == 409 and response.json["error"]["code"] == "webhook_not_configured"


# ------------------------------------------------------------------------------------------------ replays
def test_a_repeated_idempotent_answer_says_it_is_replayed(partner: Api, operator: Api) -> None:
    body = {"name": "Open", "tables": [{"label": "Court 1"}]}
    key = {"Idempotency-Key": "create-open-0001"}
    first = partner.post("/broadcasts", json=body, headers=key)
    assert first.status_code == 201 and "Idempotent-Replayed" not in first.headers
    again = partner.post("/broadcasts", json=body, headers=key)
    assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
    assert again.get_data() == first.get_data()
    unkeyed = partner.post("/broadcasts", json=body)
    assert "Idempotent-Replayed" not in unkeyed.headers
    desk = {"name": "Desk", "tables": [{"label": "D1"}]}
    made = operator.post("/operator/broadcasts", json=desk, headers=key)
    assert made.status_code == 201 and "Idempotent-Replayed" not in made.headers  # keys are per caller
    assert operator.post("/operator/broadcasts", json=desk, headers=key).headers["Idempotent-Replayed"] == "true"


# ------------------------------------------------------------------------------------------------ small breaks
@pytest.mark.parametrize("best_of", [7, "7", 9])
def test_a_sets_match_best_of_seven_is_refused(partner: Api, operator: Api, best_of: Any) -> None:
    make_player_list(partner)
    tennis = partner.post("/broadcasts", json={"name": "Tennis", "tables": [{"label": "Court 1"}],
                                               "scoring": "tennis"}).json["data"]["tables"][0]["id"]
    body = {"externalID": "m1", "tableID": tennis, "playerListExternalID": "pl-1", "bestOf": best_of}
    assert list(refused_field(partner.put("/matches", json=body))) == ["bestOf"]
    assert list(refused_field(operator.post("/operator/matches", json={"tableID": tennis, "bestOf": best_of}))) == [
        "bestOf"]
    assert partner.get("/matches").json["data"] == []
    assert partner.put("/matches", json=body | {"bestOf": 5}).json["data"]["bestOf"] == 5


@pytest.mark.parametrize(("path", "query"), [
    ("/matches", "status=pending"), ("/matches", "limit=2&tableID=x"), ("/tables", "broadcastID=x"),
    ("/player-lists", "name=Entrants"), ("/teams", "q=x"), ("/broadcasts", "Limit=2"), ("/rosters", "page=2"),
    ("/webhooks", "type=match.started"), ("/operator/matches", "externalID=m1"), ("/operator/audit", "who=me"),
    ("/operator/webhooks", "event=match.started")])
def test_an_unknown_query_parameter_is_400_naming_it(partner: Api, operator: Api, path: str, query: str) -> None:
    api = operator if path.startswith("/operator") else partner
    response = api.get(f"{path}?{query}")
    assert response.status_code == 400, response.json
    assert response.json["error"]["code"] == "validation_failed"
    unknown = query.split("&")[-1].split("=")[0]
    assert response.json["error"]["details"]["query"] == {unknown: ["Unknown field."]}
    assert api.get(f"{path}?limit=2").status_code == 200


@pytest.mark.parametrize(("given", "stored"), [
    ("2026-11-28t10:00:00z", "2026-11-28T10:00:00.000Z"), ("2026-11-28T10:00:00Z", "2026-11-28T10:00:00.000Z"),
    ("2026-11-28T11:00:00.5+01:00", "2026-11-28T10:00:00.500Z"),
    ("2026-11-28t05:30:00-04:30", "2026-11-28T10:00:00.000Z"),
    ("2026-11-28T10:00:00.123456789Z", "2026-11-28T10:00:00.123Z")])
def test_rfc3339_date_times_are_read_in_full(partner: Api, tables: list[str], given: str, stored: str) -> None:
    body = {"externalID": "m1", "tableID": tables[0], "playerListExternalID": "pl-1", "startTime": given}
    response = partner.put("/matches", json=body)
    assert response.status_code == 200, response.json
    assert response.json["data"]["startTime"] == stored


@pytest.mark.parametrize("given", ["2026-11-28 10:00:00Z", "2026-11-28T10:00:00+0100", "2026-11-28T10:00:00",
                                   "2026-11-28", "2026-11-28T10:00Z", "28.11.2026 10:00", "2026-11-28T25:00:00Z"])
def test_a_date_time_that_is_not_rfc3339_with_an_offset_is_refused(
        partner: Api, tables: list[str], given: str) -> None:
    body = {"externalID": "m1", "tableID": tables[0], "playerListExternalID": "pl-1", "startTime": given}
    assert list(refused_field(partner.put("/matches", json=body))) == ["startTime"]
    assert partner.get("/matches").json["data"] == []


def test_one_version_number(partner: Api) -> None:
    packaged = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    served = partner.get("/health", token=None).json["data"]["version"]
    documented = partner.get("/openapi.json", token=None).json["info"]["version"]
    assert served == documented == packaged


#: Docs written for the team itself (decisions, architecture, measurements) may name the spec's sections; every
#: other page is read by partners and operators, who cannot read the contract (docs/decisions.md).
TEAM_DOCS = {"decisions.md", "architecture.md", "performance.md"}
CONTRACT_CITATION = re.compile(r"(?<!RFC \d{4} )§\s?\d+[a-z]?(?![\d.])")  # not RFC 6749 §3.1


def test_neither_the_document_nor_the_docs_cite_the_contract(partner: Api) -> None:
    document = partner.get("/openapi.json", token=None).get_data(as_text=True)
    assert CONTRACT_CITATION.findall(orjson.dumps(orjson.loads(document)).decode()) == []
    cited = {str(path.relative_to(ROOT)): CONTRACT_CITATION.findall(path.read_text())
             for path in (ROOT / "docs").rglob("*.md") if path.name not in TEAM_DOCS}
    assert {path: found for path, found in cited.items() if found} == {}


def test_events_of_one_change_are_numbered_in_order(
        partner: Api, operator: Api, tables: list[str], receiver: Receiver) -> None:
    """A result typed in from paper on a pending match starts and completes it in one unit of work."""
    partner.patch("/webhooks/configuration", json={"url": receiver.url})
    match = sync(partner, tables, "m1")
    response = operator.post(f"/operator/matches/{match['id']}/result", json={"gameScores": WIN_A})
    assert response.status_code == 200, response.json
    deliveries = reversed(partner.get("/webhooks").json["data"])
    events = [(d["eventType"], d["payload"]["data"]["sequence"]) for d in deliveries]
    assert events == [("match.started", 1), ("match.completed", 2)]
