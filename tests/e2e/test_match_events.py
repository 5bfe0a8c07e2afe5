"""The four match events through a real server: each arrives, signed, at the connection that owns the match
when it is subscribed (all four when `events` was never set), and is not recorded or sent otherwise."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
import requests

from domain.models import MATCH_EVENTS
from tests.eventually import eventually
from tests.server_process import ServerProcess
from tests.webhook_receiver import Receiver, running_receiver

BOTH_BACKENDS = True  # contract §12: these servers run on TinyDB and on PostgreSQL

ENV = {"COURTSIDE_WEBHOOK_RETRY_SCHEDULE": "0,0.2,0.4", "COURTSIDE_WEBHOOK_POLL_SECONDS": "0.2"}
PLAYERS = [{"externalID": "p1", "firstName": "Ada"}, {"externalID": "p2", "firstName": "Grace"}]
WIN = [{"a": 11, "b": 7}, {"a": 11, "b": 9}, {"a": 11, "b": 5}]
CORRECTED = [{"a": 11, "b": 7}, {"a": 11, "b": 8}]  # the second game corrected (a repeat changes nothing)


@pytest.fixture
def server(server_factory: Callable[..., ServerProcess]) -> ServerProcess:
    return server_factory(env=ENV)


@pytest.fixture
def receivers() -> Iterator[list[Receiver]]:
    made = [running_receiver(), running_receiver()]
    yield [next(generator) for generator in made]
    for generator in made:
        next(generator, None)


class Partner:
    """A developer-key connection with a court, a player list and a webhook receiver."""

    def __init__(self, server: ServerProcess, receiver: Receiver, events: list[str] | None) -> None:
        self.server = server
        self.headers = {"Authorization": f"Bearer {server.developer_key()}"}
        self.receiver = receiver
        body: dict[str, Any] = {"url": receiver.url} | ({"events": events} if events is not None else {})
        self.secret = self.ok("PATCH", "/webhooks/configuration", body)["webhook_secret"]
        self.table = self.ok("POST", "/broadcasts", {"name": "Open", "tables": [{"label": "Court 1"}]},
                             status=201)["tables"][0]["id"]
        self.ok("PUT", "/player-lists", {"externalID": "pl-1", "name": "Entrants", "players": PLAYERS})

    def ok(self, method: str, path: str, body: Any = None, status: int = 200) -> Any:
        response = requests.request(method, self.server.base + path, json=body, headers=self.headers, timeout=30)
        assert response.status_code == status, response.text
        return response.json()["data"]

    def play(self, external_id: str) -> str:
        """Queue a match, then start, score, complete and correct it as the operator."""
        match = self.ok("PUT", "/matches", {"externalID": external_id, "tableID": self.table,
                                             "playerListExternalID": "pl-1", "playerA": {"externalID": "p1"},
                                             "playerB": {"externalID": "p2"}, "bestOf": 3})
        for action, body in (("start", None), ("score", {"gameScores": WIN[:1]}),
                             ("complete", {"gameScores": WIN[:2]}), ("score", {"gameScores": CORRECTED[:2]})):
            response = self.server.operator_call("POST", f"/operator/matches/{match['id']}/{action}", body)
            assert response.status_code == 200, response.text
        return str(match["id"])

    def settled_deliveries(self) -> list[dict[str, Any]] | None:
        """Every recorded delivery, oldest first, once none is waiting."""
        deliveries = list(reversed(self.ok("GET", "/webhooks?limit=100")))
        return deliveries if all(d["status"] == "delivered" for d in deliveries) else None


def test_each_match_event_arrives_when_subscribed_and_not_otherwise(
    server: ServerProcess, receivers: list[Receiver],
) -> None:
    everything = Partner(server, receivers[0], events=None)
    completed_only = Partner(server, receivers[1], events=["match.completed"])
    mine = everything.play("m-all")
    theirs = completed_only.play("m-completed")

    deliveries = eventually(everything.settled_deliveries)
    assert [d["eventType"] for d in deliveries] == list(MATCH_EVENTS)
    received = sorted(everything.receiver.wait_for(4), key=lambda r: r.json["createdOn"])
    assert len(everything.receiver.received) == 4
    by_id = {d["eventID"]: d for d in deliveries}
    for request in received:
        event = request.verify(everything.secret)
        assert event == by_id[request.headers["webhook-id"]]["payload"]
        assert event["data"]["match"]["id"] == mine
    types = {request.json["type"]: request.json["data"] for request in received}
    assert types["match.started"]["match"]["status"] == "active"
    assert types["match.score_updated"]["match"]["gameScores"] == WIN[:1]
    assert types["match.completed"]["match"]["status"] == "completed"
    assert types["match.result_updated"]["previous"]["gameScores"] == WIN[:2]
    assert types["match.result_updated"]["match"]["gameScores"] == CORRECTED[:2]

    only = eventually(completed_only.settled_deliveries)
    assert [d["eventType"] for d in only] == ["match.completed"]
    [request] = completed_only.receiver.wait_for(1)
    assert request.verify(completed_only.secret)["data"]["match"]["id"] == theirs
    assert len(completed_only.receiver.received) == 1


def test_unsubscribed_connection_without_url_records_nothing(server: ServerProcess, receivers: list[Receiver]) -> None:
    partner = Partner(server, receivers[0], events=[])
    partner.play("m-none")
    assert partner.ok("GET", "/webhooks") == []
    partner.ok("PATCH", "/webhooks/configuration", {"url": None, "events": list(MATCH_EVENTS)})
    partner.play("m-no-url")
    assert partner.ok("GET", "/webhooks") == []
    assert partner.receiver.received == []
