"""A server killed with SIGKILL while a delivery is claimed (receiver hanging) delivers it after a restart,
with the same eventID: the delivery records, not the scheduler's memory, are the truth."""

from __future__ import annotations

import signal
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import requests

from tests.eventually import eventually
from tests.server_process import ServerProcess
from tests.webhook_receiver import Receiver, Reply, running_receiver

BOTH_BACKENDS = True  # contract §12: these servers run on TinyDB and on PostgreSQL

ENV = {"COURTSIDE_WEBHOOK_RETRY_SCHEDULE": "0,0.2,0.4", "COURTSIDE_WEBHOOK_POLL_SECONDS": "0.2",
       "COURTSIDE_WEBHOOK_TIMEOUT": "60"}


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    yield from running_receiver()


def test_claimed_delivery_survives_sigkill_and_is_delivered_after_restart(
    server_factory: Callable[..., ServerProcess], receiver: Receiver,
) -> None:
    first = server_factory(env=ENV)
    key = first.developer_key()
    headers = {"Authorization": f"Bearer {key}"}

    def call(server: ServerProcess, method: str, path: str, body: Any = None) -> requests.Response:
        return requests.request(method, server.base + path, json=body, headers=headers, timeout=30)

    secret = call(first, "PATCH", "/webhooks/configuration", {"url": receiver.url}).json()["data"]["webhook_secret"]
    receiver.reply(500, Reply(hang=True))
    response = call(first, "POST", "/webhooks/test")
    assert response.status_code == 202
    event_id = response.json()["data"]["eventID"]
    receiver.wait_for(2)  # the dispatcher's attempt is hanging
    assert call(first, "GET", f"/webhooks/{event_id}").json()["data"]["status"] == "delivering"
    assert first.kill(signal.SIGKILL) == -signal.SIGKILL

    second = server_factory(data_dir=first.data_dir, env=ENV)

    def delivered() -> dict[str, object] | None:
        data = call(second, "GET", f"/webhooks/{event_id}").json()["data"]
        return data if data["status"] == "delivered" else None

    final = eventually(delivered)
    assert final["eventID"] == event_id
    assert final["attemptCount"] == 2  # the interrupted attempt never finished, so it is not counted
    third = receiver.wait_for(3)[2]
    assert third.headers["webhook-id"] == event_id
    assert third.verify(secret)["id"] == event_id
    operator_read = second.operator_call("GET", f"/operator/webhooks/{event_id}").json()["data"]
    assert [attempt.get("error") for attempt in operator_read["attempts"]] == ["HTTP 500", "interrupted", None]


def test_sigterm_does_not_wait_for_a_hanging_receiver_and_the_delivery_is_sent_after_restart(
    server_factory: Callable[..., ServerProcess], receiver: Receiver,
) -> None:
    first = server_factory(env=ENV)
    headers = {"Authorization": f"Bearer {first.developer_key()}"}

    def call(server: ServerProcess, method: str, path: str, body: Any = None) -> requests.Response:
        return requests.request(method, server.base + path, json=body, headers=headers, timeout=30)

    secret = call(first, "PATCH", "/webhooks/configuration", {"url": receiver.url}).json()["data"]["webhook_secret"]
    receiver.reply(500, Reply(hang=True))
    event_id = call(first, "POST", "/webhooks/test").json()["data"]["eventID"]
    receiver.wait_for(2)
    assert first.kill(signal.SIGTERM) == 0  # a clean stop although the attempt (timeout 60 s) still hangs
    assert first.log_path is not None and "stopped cleanly" in first.log_path.read_text()

    second = server_factory(data_dir=first.data_dir, env=ENV)

    def delivered() -> dict[str, Any] | None:
        data = call(second, "GET", f"/webhooks/{event_id}").json()["data"]
        return data if data["status"] == "delivered" else None

    assert eventually(delivered)["attemptCount"] == 2
    assert receiver.wait_for(3)[2].verify(secret)["id"] == event_id
