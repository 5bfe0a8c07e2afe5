"""The API's contract through a real `courtside serve` process, on TinyDB and on PostgreSQL: live scoring with a
kill -9 and a restart, and headers too large for the server's own reader. (They were API tests; `make test-fast`
starts no server process.)"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import requests

from tests.server_process import ServerProcess
from tests.webhook_receiver import Receiver

BOTH_BACKENDS = True  # contract §12: these servers run on TinyDB and on PostgreSQL


def test_live_scoring_end_to_end_on_a_real_server(server_factory: Callable[..., ServerProcess]) -> None:
    """A real `courtside serve`: partner queues matches over HTTP, the server is killed (-9) and restarted, the
    operator plays a match through, and a real receiver gets every match event signed (Standard Webhooks)."""
    receiver = Receiver().start()
    try:
        server = server_factory()
        key = server.developer_key()
        session = requests.Session()
        session.headers["Authorization"] = f"Bearer {key}"

        def partner(method: str, path: str, body: Any = None, expect: int = 200) -> Any:
            response = session.request(method, server.base + path, json=body, timeout=30)
            assert response.status_code == expect, response.text
            return response.json()

        tables = [t["id"] for t in partner("POST", "/broadcasts", {"name": "Club night", "tables": [
            {"label": "Court 1"}, {"label": "Court 2"}]}, expect=201)["data"]["tables"]]
        partner("PUT", "/player-lists", {"externalID": "pl", "name": "Entrants", "players": [
            {"externalID": "p1", "firstName": "Ada"}, {"externalID": "p2", "firstName": "Grace"}]})
        secret = partner("PATCH", "/webhooks/configuration", {"url": receiver.url})["data"]["webhook_secret"]
        batch = [{"externalID": f"m{n}", "tableID": tables[0], "playerListExternalID": "pl",
                  "playerA": {"externalID": "p1"}, "playerB": {"externalID": "p2"}, "bestOf": "3"} for n in range(3)]
        assert partner("POST", "/matches/bulk", {"matches": batch})["data"]["succeeded"] == 3

        server.kill()  # SIGKILL after the acknowledged write
        server.start()
        queue = partner("GET", f"/tables/{tables[0]}")["data"]["queue"]
        assert [(m["externalID"], m["queuePosition"]) for m in queue] == [("m0", 1), ("m1", 2), ("m2", 3)]

        match_id = queue[0]["id"]
        steps = [("start", None), ("score", {"gameScores": [{"a": 11, "b": 8}, {"a": 3, "b": 1}]}),
                 ("complete", {"gameScores": [{"a": 11, "b": 8}, {"a": 11, "b": 9}]}),
                 ("score", {"gameScores": [{"a": 11, "b": 8}, {"a": 9, "b": 11}, {"a": 11, "b": 4}]})]
        for action, body in steps:
            response = server.operator_call("POST", f"/operator/matches/{match_id}/{action}", body)
            assert response.status_code == 200, response.text
        final = partner("GET", "/matches/m0")["data"]
        assert final["status"] == "completed" and final["score"] == {"a": 2, "b": 1}
        assert [m["externalID"] for m in partner("GET", f"/tables/{tables[0]}")["data"]["queue"]] == ["m1", "m2"]

        events = [received.verify(secret) for received in receiver.wait_for(4)]
        by_type = {event["type"]: event for event in events}
        assert sorted(by_type) == ["match.completed", "match.result_updated", "match.score_updated",
                                   "match.started"]
        assert by_type["match.result_updated"]["data"]["match"] == final
        assert by_type["match.result_updated"]["data"]["previous"] == {
            "gameScores": [{"a": 11, "b": 8}, {"a": 11, "b": 9}], "score": {"a": 2, "b": 0}}
        assert by_type["match.score_updated"]["data"]["match"]["score"] == {"a": 1, "b": 0}
        connection = partner("GET", "/connection")["data"]["connectionID"]
        assert {event["connectionID"] for event in events} == {connection}
    finally:
        receiver.stop()


def test_oversized_headers_through_the_real_server_get_the_json_envelope(
    server_factory: Any,
) -> None:
    server: ServerProcess = server_factory()
    response = requests.get(server.base + "/health", headers={"X-Padding": "a" * 300_000}, timeout=30)
    assert response.status_code == 431
    assert response.headers["Content-Type"].startswith("application/json")
    assert response.json()["error"]["code"] == "request_header_too_large"
