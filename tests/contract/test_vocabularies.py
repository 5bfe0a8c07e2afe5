"""Closed vocabularies (issue 24, item 2): each is ONE StrEnum of `domain.models`, and the document and the server
agree with it. The OpenAPI document lists exactly the enum's values wherever the field appears (request bodies,
reads, query parameters, webhook bodies), and every value the server returns for the field is a member.

Runs on both storage backends: the values read back come from storage.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Iterator
from enum import StrEnum
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from domain.clock import FixedClock
from domain.match.matches import WalkoverReason
from domain.models import (
    MATCH_EVENTS,
    SUBSCRIBABLE_EVENTS,
    Attention,
    BlockReason,
    ConnectionKind,
    DeliveryStatus,
    DrawStatus,
    EventType,
    MailStatus,
    MatchResultType,
    MatchStatus,
    OutputKind,
    PlayerSource,
    ReportStatus,
    RosterType,
    Side,
)
from domain.webhooks.machine import claim_due
from domain.webhooks.types import DeliveryFilter
from storage.backend import AnyStore
from storage.repository import unit_of_work
from tests.conftest import ROOT, Api
from tests.responses import json_of
from tests.webhook_receiver import Receiver, running_receiver

BOTH_BACKENDS = True

#: Where the document names each vocabulary: `Schema.property` (`[]`: the items of an array), or
#: `METHOD /path?parameter` for a query parameter. Every listed place must carry exactly the vocabulary's values
#: (and null where the field is nullable).
DOCUMENTED: dict[str, tuple[Iterable[StrEnum], list[str]]] = {
    "EventType": (EventType, ["Delivery.eventType", "OperatorDelivery.eventType"]),
    "SUBSCRIBABLE_EVENTS": (SUBSCRIBABLE_EVENTS, ["WebhookConfig.events[]", "WebhookConfigPatch.events[]",
                                                  "WebhookTestBody.type"]),
    "DeliveryStatus": (DeliveryStatus, ["Delivery.status", "OperatorDelivery.status"]),
    "DeliveryFilter": (DeliveryFilter, ["GET /webhooks?status", "GET /operator/webhooks?status"]),
    "RosterType": (RosterType, ["RosterCreate.rosterType", "RosterPatch.rosterType", "RosterRead.rosterType",
                                "OperatorRosterCreate.type"]),
    "PlayerSource": (PlayerSource, ["PlayerRead.source", "OperatorPlayerRead.source"]),
    "OutputKind": (OutputKind, ["OutputRead.kind"]),
    "MatchStatus": (MatchStatus, ["MatchRead.status", "GET /operator/matches?status"]),
    "BlockReason": (BlockReason, ["BlockedBy.reason"]),
    "Attention": (Attention, ["OperatorTableRead.attention"]),
    "Side": (Side, ["PointBody.side", "MatchRead.winnerSide", "WalkoverBody.winnerSide"]),
    "MatchResultType": (MatchResultType, ["MatchRead.resultType"]),
    "WalkoverReason": (WalkoverReason, ["WalkoverBody.reason"]),
    "ConnectionKind": (ConnectionKind, ["OperatorConnection.kind"]),
    "MailStatus": (MailStatus, ["MailRead.status", "GET /operator/mail?status"]),
    "ReportStatus": (ReportStatus, ["ReportRead.status", "GET /operator/broadcasts/{broadcast_id}/reports?status"]),
    "DrawStatus": (DrawStatus, ["DrawRead.status"]),
}


def values(vocabulary: Iterable[StrEnum]) -> list[str]:
    return [member.value for member in vocabulary]


@pytest.fixture
def document(app: Flask) -> dict[str, Any]:
    body = json_of(app.test_client().get("/api/v1/openapi.json"))
    assert isinstance(body, dict)
    return body


def documented_enum(document: dict[str, Any], place: str) -> Any:
    if " " in place:
        method, target = place.split(" ")
        path, name = target.split("?")
        parameters = document["paths"][f"/api/v1{path}"][method.lower()]["parameters"]
        [parameter] = [p for p in parameters if p.get("in") == "query" and p.get("name") == name]
        return parameter["schema"].get("enum")
    schema, prop = place.split(".")
    node = document["components"]["schemas"][schema]["properties"][prop.removesuffix("[]")]
    enum = (node["items"] if prop.endswith("[]") else node).get("enum")
    return enum if not node.get("nullable") else [value for value in enum if value is not None] + [None]


@pytest.mark.parametrize("name", list(DOCUMENTED))
def test_the_document_lists_exactly_the_vocabularys_values(document: dict[str, Any], name: str) -> None:
    vocabulary, places = DOCUMENTED[name]
    nullable = {place for place in places if documented_enum(document, place)[-1:] == [None]}
    assert {place: documented_enum(document, place) for place in places} == {
        place: values(vocabulary) + ([None] if place in nullable else []) for place in places}


#: Closed lists the API may spell out by hand: protocol words (OAuth 2.0, PKCE, the consent form) and the results
#: export's own choices, none of them a vocabulary of the domain.
HAND_WRITTEN = {("authorization_code", "refresh_token"), ("S256",), ("code",), ("approve", "deny"), ("json", "csv"),
                ("A", "B")}


def _literal_lists(tree: ast.AST) -> Iterator[tuple[int, tuple[object, ...]]]:
    """Lists of constants given to `OneOf(...)` or as an `"enum"` value."""
    for node in ast.walk(tree):
        listed: ast.expr | None = None
        if isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", None)) == "OneOf":
            listed = node.args[0] if node.args else None
        elif isinstance(node, ast.Dict):
            listed = next((v for k, v in zip(node.keys, node.values, strict=True)
                           if isinstance(k, ast.Constant) and k.value == "enum"), None)
        if isinstance(listed, ast.List | ast.Tuple) and all(isinstance(e, ast.Constant) for e in listed.elts):
            yield listed.lineno, tuple(e.value for e in listed.elts if isinstance(e, ast.Constant))


def test_no_schema_spells_a_vocabulary_by_hand() -> None:
    """A schema builds a vocabulary's field from its StrEnum (`Vocabulary(TheEnum)`); a list of string literals in
    `OneOf` or an `enum` is a copy that drifts (a player's `source` once documented without `self`)."""
    found = [(f"{path.relative_to(ROOT)}:{line}", listed) for path in sorted((ROOT / "api").rglob("*.py"))
             for line, listed in _literal_lists(ast.parse(path.read_text()))]
    assert found and [(place, listed) for place, listed in found if listed not in HAND_WRITTEN] == []


def test_each_event_type_has_one_documented_webhook_body(document: dict[str, Any]) -> None:
    """`x-webhooks` names every event type once, and the body schemas' `type` enums split EventType between
    them (the subscribable ones are SUBSCRIBABLE_EVENTS: the seed's four in the order a match emits them, then the
    opt-in ones)."""
    assert list(document["x-webhooks"]) == values(EventType)
    types = [value for name in ("MatchEvent", "ResultUpdatedEvent", "ResetEvent", "TestEvent")
             for value in document["components"]["schemas"][name]["properties"]["type"]["enum"]]
    assert sorted(types) == sorted(values(EventType))
    assert values(SUBSCRIBABLE_EVENTS) == [e for e in values(EventType) if e != EventType.INTEGRATION_TEST]


def test_a_request_outside_a_vocabulary_is_400_naming_its_values(partner: Api) -> None:
    response = partner.post("/rosters", json={"name": "Club", "rosterType": "mixed"})
    assert response.status_code == 400
    assert response.json["error"]["details"]["json"]["rosterType"] == ["Must be one of: individual, team."]
    events = partner.patch("/webhooks/configuration", json={"events": ["match.started", "integration.test"]})
    assert events.status_code == 400
    assert events.json["error"]["details"]["json"]["events"] == {
        "1": ["Must be one of: match.started, match.score_updated, match.completed, match.result_updated, "
              "match.cancelled, match.called, match.reset."]}


# ------------------------------------------------------------------------------------ what the server returns
@pytest.fixture
def receiver() -> Iterator[Receiver]:
    yield from running_receiver()


def ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, response.json
    return response.json["data"]


def test_roster_types_the_server_returns_are_roster_types(partner: Api, operator: Api) -> None:
    ok(partner.post("/rosters", json={"name": "Singles", "rosterType": "individual"}), 201)
    ok(operator.post("/operator/rosters", json={"name": "Desk", "type": "individual"}), 201)
    team = ok(partner.put("/teams", json={"externalID": "falcons", "name": "Falcons", "players": []}))
    assert team["roster"]["rosterType"] == RosterType.TEAM
    returned = [roster["rosterType"] for roster in ok(partner.get("/rosters"))]
    returned += [roster["rosterType"] for roster in ok(operator.get("/operator/rosters"))]
    assert set(returned) == set(values(RosterType))


def test_player_sources_the_server_returns_are_player_sources(partner: Api, operator: Api, app: Flask) -> None:
    ok(partner.put("/player-lists", json={"externalID": "pl-1", "name": "Entrants", "players": [
        {"externalID": "p1", "firstName": "Ana", "lastName": "Silva"}]}))
    roster = ok(partner.post("/rosters", json={"name": "Club", "rosterType": "individual",
                                               "selfRegistrationEnabled": True}), 201)
    backing = roster["source"]["playerListID"]
    ok(operator.post(f"/operator/player-lists/{backing}/players", json={"firstName": "Bo", "lastName": "Lee"}), 201)
    url = ok(operator.get(f"/operator/rosters/{roster['id']}/registration"))["url"]
    sign_up(app.test_client(), "/" + url.split("/", 3)[3], firstName="Cy", lastName="Park")
    lists = ok(operator.get("/operator/player-lists"))
    returned = [player["source"] for found in lists for player in found["players"]]
    returned += [player["source"] for player in ok(partner.get("/player-lists/pl-1"))["players"]]
    assert set(returned) == set(values(PlayerSource))


def sign_up(visitor: FlaskClient, path: str, **fields: str) -> None:
    page = visitor.get(path)
    token = re.search(r'name="csrf" value="([^"]+)"', page.get_data(as_text=True))
    assert page.status_code == 200 and token is not None
    assert visitor.post(path, data={"csrf": token.group(1)} | fields).status_code == 201


def test_output_kinds_the_server_returns_are_output_kinds(partner: Api, operator: Api, app: Flask) -> None:
    broadcast = ok(partner.post("/broadcasts", json={"name": "Open", "scoreboardIDs": ["classic"],
                                                     "tables": [{"label": "Court 1"}]}), 201)
    outputs = ok(operator.get(f"/operator/broadcasts/{broadcast['id']}/outputs"))
    assert [output["kind"] for output in outputs] == [OutputKind.COURT, OutputKind.VENUE]
    pages = [json_of(app.test_client().get("/" + output["url"].split("/", 3)[3] + "/state")) for output in outputs]
    assert [page["kind"] for page in pages] == values(OutputKind)


def test_event_types_and_delivery_states_the_server_returns_are_members(
    partner: Api, operator: Api, receiver: Receiver, store: AnyStore, clock: FixedClock,
) -> None:
    ok(partner.patch("/webhooks/configuration", json={"url": receiver.url}))
    table_id = ok(partner.post("/broadcasts", json={"name": "Open", "tables": [{"label": "Court 1"}]}),
                  201)["tables"][0]["id"]
    players = [{"externalID": f"p{n}", "firstName": f"Player{n}", "lastName": "Test"} for n in (1, 2)]
    ok(partner.put("/player-lists", json={"externalID": "pl-1", "name": "Entrants", "players": players}))
    match_id = ok(partner.put("/matches", json={
        "externalID": "m-1", "tableID": table_id, "playerListExternalID": "pl-1", "bestOf": 3,
        "playerA": {"externalID": "p1"}, "playerB": {"externalID": "p2"}}))["id"]
    won = [{"a": 11, "b": 7}, {"a": 11, "b": 9}]
    for action, body in (("start", None), ("score", {"gameScores": won[:1]}), ("complete", {"gameScores": won}),
                         ("score", {"gameScores": [{"a": 11, "b": 5}, {"a": 11, "b": 9}]})):
        ok(operator.post(f"/operator/matches/{match_id}/{action}", json=body))
    assert ok(partner.post("/webhooks/test"))["status"] == DeliveryStatus.DELIVERED
    assert ok(partner.post("/webhooks/test", json={"type": "match.cancelled"}))["status"] == DeliveryStatus.DELIVERED
    assert ok(partner.post("/webhooks/test", json={"type": "match.called"}))["status"] == DeliveryStatus.DELIVERED
    assert ok(partner.post("/webhooks/test", json={"type": "match.reset"}))["status"] == DeliveryStatus.DELIVERED
    receiver.reply(410)  # gone: no retry left
    assert ok(partner.post("/webhooks/test"), 202)["status"] == DeliveryStatus.FAILED
    with unit_of_work(store) as uow:  # what the dispatcher does first: claim the oldest due delivery
        claims, _ = claim_due(uow, now=clock.now(), limit=1)
    assert len(claims) == 1

    deliveries = ok(partner.get("/webhooks", query_string={"limit": 100}))
    deliveries += ok(operator.get("/operator/webhooks", query_string={"limit": 100}))
    assert {d["eventType"] for d in deliveries} == set(values(EventType))
    assert {d["status"] for d in deliveries} == set(values(DeliveryStatus))
    assert {d["payload"]["type"] for d in deliveries} == set(values(EventType))
    assert ok(partner.get("/webhooks/configuration"))["events"] == values(MATCH_EVENTS)


def test_result_types_and_sides_the_server_returns_are_members(partner: Api, operator: Api) -> None:
    table_id = ok(partner.post("/broadcasts", json={"name": "Open", "tables": [{"label": "Court 1"}]}),
                  201)["tables"][0]["id"]
    players = [{"externalID": f"p{n}", "firstName": f"Player{n}", "lastName": "Test"} for n in (1, 2)]
    ok(partner.put("/player-lists", json={"externalID": "pl-1", "name": "Entrants", "players": players}))
    ids = [ok(partner.put("/matches", json={
        "externalID": f"m-{n}", "tableID": table_id, "playerListExternalID": "pl-1", "bestOf": 3,
        "playerA": {"externalID": "p1"}, "playerB": {"externalID": "p2"}}))["id"] for n in (1, 2, 3)]
    walked = ok(operator.post(f"/operator/matches/{ids[0]}/walkover", json={"winnerSide": "b", "reason": "no_show"}))
    ok(operator.post(f"/operator/matches/{ids[1]}/start", json=None))
    ok(operator.post(f"/operator/matches/{ids[1]}/point", json={"side": "a", "version": 1}))
    retired = ok(operator.post(f"/operator/matches/{ids[1]}/walkover", json={"winnerSide": "a", "reason": "injury"}))
    typed = ok(operator.post(f"/operator/matches/{ids[2]}/result", json={"gameScores": [{"a": 11, "b": 3}] * 2}))
    assert typed["resultType"] == MatchResultType.PLAYED
    assert (walked["resultType"], walked["winnerSide"]) == (MatchResultType.WALKOVER, Side.B)
    assert (retired["resultType"], retired["winnerSide"]) == (MatchResultType.RETIRED, Side.A)
    reads = ok(partner.get("/matches", query_string={"limit": 100}))
    assert {m["resultType"] for m in reads if "resultType" in m} == set(values(MatchResultType))
    assert {m["winnerSide"] for m in reads if "winnerSide" in m} == set(values(Side))
    assert {m["status"] for m in reads} <= set(values(MatchStatus))


def test_connection_kinds_the_server_returns_are_members(partner: Api, operator: Api) -> None:
    ok(operator.post("/operator/broadcasts", json={"name": "Desk", "tables": [{"label": "Court 1"}]}), 201)
    ok(partner.get("/connection"))
    kinds = [connection["kind"] for connection in ok(operator.get("/operator/connections"))]
    assert set(kinds) == {ConnectionKind.DEVELOPER_KEY, ConnectionKind.HOUSE}
    assert set(kinds) <= set(values(ConnectionKind))
