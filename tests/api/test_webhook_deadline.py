"""Contract §8: one overall deadline per webhook attempt, and a misbehaving receiver never holds more than one
request thread per connection (hardening issue, item 1; structure issue, defect 1).

Real receivers on 127.0.0.1 (a trickler that answers one byte at a time), the real app over real storage.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from flask import Flask

from api.app import create_app
from api.bootstrap import bootstrap
from domain import webhooks
from domain.clock import FixedClock
from domain.events import record_event
from domain.models import EventType
from domain.settings import Settings
from scheduler.sender import http_send
from storage.engine import Store
from storage.repository import unit_of_work
from tests.conftest import Api
from tests.webhook_receiver import Receiver, Reply, Trickler, running_receiver


@pytest.fixture
def trickler() -> Iterator[Trickler]:
    started = Trickler(interval=0.25)  # the whole answer would take about a minute
    yield started
    started.stop()


@pytest.fixture
def settings(tmp_path: Path, database_url: str | None) -> Settings:
    return Settings(data_dir=tmp_path / "data", database_url=database_url, webhook_timeout=1.0)


@pytest.fixture
def app(settings: Settings, store: Store, clock: FixedClock) -> Flask:
    return create_app(bootstrap(settings, store, clock=clock))


def configure(partner: Api, url: str) -> None:
    response = partner.patch("/webhooks/configuration", json={"url": url})
    assert response.status_code == 200, response.json


def test_trickling_receiver_ends_in_timeout_at_the_overall_deadline(trickler: Trickler) -> None:
    started = time.monotonic()
    result = http_send(trickler.url, b"{}", {"Content-Type": "application/json"}, 1.0)
    assert result.error == "timeout" and result.status is None
    # a bound far below the minute the trickled answer would take: the deadline is per attempt, not per read
    assert time.monotonic() - started < 10


def test_concurrent_test_events_hold_one_attempt_per_connection(partner: Api, trickler: Trickler) -> None:
    configure(partner, trickler.url)
    with ThreadPoolExecutor(max_workers=6) as pool:
        answers = list(pool.map(lambda _: partner.post("/webhooks/test"), range(6)))
    assert [a.status_code for a in answers] == [202] * 6
    assert trickler.most_at_once == 1 and trickler.connections == 1
    statuses = sorted(a.json["data"]["status"] for a in answers)
    assert statuses == ["pending"] * 6
    attempted = [a.json["data"] for a in answers if a.json["data"]["attemptCount"] == 1]
    assert len(attempted) == 1 and attempted[0]["lastError"] == "timeout"


def test_retry_while_the_connection_has_an_attempt_under_way_is_409(
    partner: Api, store: Store, receiver_hanging: Receiver,
) -> None:
    configure(partner, receiver_hanging.url)
    with ThreadPoolExecutor(max_workers=1) as pool:
        first = pool.submit(partner.post, "/webhooks/test")
        receiver_hanging.wait_for(1)
        connection_id = _connection_id(partner)
        with unit_of_work(store) as uow:
            account_id = uow.connections.get(connection_id).account_id  # type: ignore[union-attr]
            other = record_event(uow, account_id=account_id, connection_id=connection_id,
                                          event_type=EventType.INTEGRATION_TEST, data={"message": "x"},
                                          now=FixedClock().now(), force=True)
        assert other is not None
        response = partner.post("/webhooks/retry", json={"eventID": other.id})
        receiver_hanging.release()
        assert first.result().status_code == 200
    assert response.status_code == 409
    assert response.json["error"]["code"] == "delivery_in_progress"


def test_dispatcher_does_not_claim_a_connection_with_a_request_thread_attempt(
    partner: Api, store: Store, clock: FixedClock, receiver_hanging: Receiver,
) -> None:
    configure(partner, receiver_hanging.url)
    connection_id = _connection_id(partner)
    with unit_of_work(store) as uow:
        account_id = uow.connections.get(connection_id).account_id  # type: ignore[union-attr]
        held, claim = webhooks.begin_test(uow, account_id=account_id, connection_id=connection_id, now=clock.now(),
                                          guard=webhooks.UrlGuard(allow_private=True, resolve=lambda host: []))
        assert claim is not None  # the request thread holds this one
        record_event(uow, account_id=account_id, connection_id=connection_id,
                              event_type=EventType.INTEGRATION_TEST, data={"message": "x"}, now=clock.now(), force=True)
    with unit_of_work(store) as uow:
        claims, _ = webhooks.claim_due(uow, now=clock.now(), limit=8)
    assert claims == []


@pytest.fixture
def receiver_hanging() -> Iterator[Receiver]:
    yield from running_receiver(Reply(hang=True))


def _connection_id(partner: Api) -> str:
    return str(partner.get("/connection").json["data"]["connectionID"])
