"""Deliveries through a real `courtside serve` process: the dispatcher retries on the (compressed) schedule,
ends `failed`, delivers after a failure, and a hanging receiver blocks neither the API nor other receivers."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import requests
from werkzeug.serving import make_server

from tests.conftest import ROOT
from tests.eventually import eventually
from tests.server_process import ServerProcess, free_port
from tests.webhook_receiver import Receiver, Reply, running_receiver

BOTH_BACKENDS = True  # contract §12: these servers run on TinyDB and on PostgreSQL

ENV = {"COURTSIDE_WEBHOOK_RETRY_SCHEDULE": "0,0.2,0.4", "COURTSIDE_WEBHOOK_POLL_SECONDS": "0.2",
       "COURTSIDE_WEBHOOK_TIMEOUT": "20"}


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    yield from running_receiver()


@pytest.fixture
def second_receiver() -> Iterator[Receiver]:
    yield from running_receiver()


class Partner:
    """A developer-key client of a running server."""

    def __init__(self, server: ServerProcess) -> None:
        self.base = server.base
        self.headers = {"Authorization": f"Bearer {server.developer_key()}"}

    def call(self, method: str, path: str, body: Any = None) -> requests.Response:
        return requests.request(method, self.base + path, json=body, headers=self.headers, timeout=30)

    def configure(self, url: str) -> str:
        response = self.call("PATCH", "/webhooks/configuration", {"url": url})
        assert response.status_code == 200, response.text
        return str(response.json()["data"]["webhook_secret"])

    def delivery(self, event_id: str) -> dict[str, Any]:
        response = self.call("GET", f"/webhooks/{event_id}")
        assert response.status_code == 200, response.text
        return dict(response.json()["data"])

    def settled(self, event_id: str) -> dict[str, Any] | None:
        delivery = self.delivery(event_id)
        return delivery if delivery["status"] in ("delivered", "failed") else None


@pytest.fixture
def server(server_factory: Callable[..., ServerProcess]) -> ServerProcess:
    return server_factory(env=ENV)


def test_retries_follow_the_schedule_and_end_failed(server: ServerProcess, receiver: Receiver) -> None:
    partner = Partner(server)
    secret = partner.configure(receiver.url)
    receiver.default = Reply(500)
    response = partner.call("POST", "/webhooks/test")
    assert response.status_code == 202
    event_id = response.json()["data"]["eventID"]
    final = eventually(lambda: partner.settled(event_id))
    assert (final["status"], final["attemptCount"], final["lastError"]) == ("failed", 3, "HTTP 500")
    assert "nextAttemptOn" not in final
    requests_seen = receiver.wait_for(3)
    assert len(requests_seen) == 3
    assert [request.verify(secret)["id"] for request in requests_seen] == [event_id] * 3


def test_a_failed_first_attempt_is_delivered_by_the_dispatcher(server: ServerProcess, receiver: Receiver) -> None:
    partner = Partner(server)
    secret = partner.configure(receiver.url)
    receiver.reply(503)
    event_id = partner.call("POST", "/webhooks/test").json()["data"]["eventID"]
    final = eventually(lambda: partner.settled(event_id))
    assert (final["status"], final["attemptCount"]) == ("delivered", 2)
    assert receiver.wait_for(2)[1].verify(secret)["type"] == "integration.test"


def test_gone_stops_the_dispatcher_retrying(server: ServerProcess, receiver: Receiver) -> None:
    partner = Partner(server)
    partner.configure(receiver.url)
    receiver.reply(500, 410)
    event_id = partner.call("POST", "/webhooks/test").json()["data"]["eventID"]
    final = eventually(lambda: partner.settled(event_id))
    assert (final["status"], final["attemptCount"], final["lastError"]) == ("failed", 2, "HTTP 410")
    assert len(receiver.received) == 2


def test_a_hanging_receiver_blocks_neither_the_api_nor_other_receivers(
    server: ServerProcess, receiver: Receiver, second_receiver: Receiver,
) -> None:
    stuck, healthy = Partner(server), Partner(server)
    stuck.configure(receiver.url)
    secret = healthy.configure(second_receiver.url)
    receiver.reply(500, Reply(hang=True))
    hanging = stuck.call("POST", "/webhooks/test").json()["data"]["eventID"]
    receiver.wait_for(2)  # the dispatcher's retry is now hanging inside the receiver
    assert stuck.delivery(hanging)["status"] == "delivering"
    busy = stuck.call("POST", "/webhooks/retry", {"eventID": hanging})
    assert (busy.status_code, busy.json()["error"]["code"]) == (409, "delivery_in_progress")
    second_receiver.reply(500)
    other = healthy.call("POST", "/webhooks/test").json()["data"]["eventID"]
    assert eventually(lambda: healthy.settled(other))["status"] == "delivered"
    assert second_receiver.wait_for(2)[1].verify(secret)["id"] == other
    assert requests.get(server.base + "/health", timeout=5).status_code == 200
    receiver.release()
    assert eventually(lambda: stuck.settled(hanging))["status"] == "delivered"


def documented_receiver_source() -> str:
    """The Python receiver example of docs/webhooks.md, verbatim."""
    text = (ROOT / "docs" / "webhooks.md").read_text()
    section = text.split("## Receiver example", 1)[1]
    return section.split("```python\n", 1)[1].split("```", 1)[0]


def test_the_documented_receiver_verifies_deliveries(
    server: ServerProcess, monkeypatch: pytest.MonkeyPatch,
) -> None:
    port = free_port()
    partner = Partner(server)
    secret = partner.configure(f"http://127.0.0.1:{port}/courtside")
    monkeypatch.setenv("COURTSIDE_WEBHOOK_SECRET", secret)
    example: dict[str, Any] = {"__name__": "receiver_example"}
    exec(compile(documented_receiver_source(), "docs/webhooks.md", "exec"), example)  # noqa: S102
    http = make_server("127.0.0.1", port, example["app"], threaded=True)
    thread = threading.Thread(target=http.serve_forever, daemon=True)
    thread.start()
    try:
        delivered = partner.call("POST", "/webhooks/test")
        assert delivered.status_code == 200, delivered.text
        event_id = delivered.json()["data"]["eventID"]
        assert partner.call("POST", "/webhooks/retry", {"eventID": event_id}).json()["data"]["attemptCount"] == 2
        assert [event["id"] for event in example["events"]] == [event_id]  # the duplicate was dropped
        forged = requests.post(f"http://127.0.0.1:{port}/courtside", data=b'{"id": "x"}', timeout=5,
                               headers={"webhook-id": "x", "webhook-timestamp": "1", "webhook-signature": "v1,AA=="})
        assert forged.status_code == 400
    finally:
        http.shutdown()


def test_private_addresses_are_refused_when_the_server_disallows_them(
    server_factory: Callable[..., ServerProcess], receiver: Receiver,
) -> None:
    guarded = server_factory(env=ENV | {"COURTSIDE_WEBHOOK_ALLOW_PRIVATE": "false"})
    partner = Partner(guarded)
    for url in (receiver.url, "http://localhost:9/hook", "http://10.0.0.1/hook", "http://169.254.169.254/"):
        response = partner.call("PATCH", "/webhooks/configuration", {"url": url})
        assert (response.status_code, response.json()["error"]["code"]) == (400, "webhook_url_not_allowed"), url
    assert partner.call("GET", "/webhooks/configuration").json()["data"]["url"] is None
    assert receiver.received == []
