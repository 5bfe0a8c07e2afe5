"""Webhook configuration, the test event, manual and automatic retries, reads and the private-address guard.

In-process app over real storage, real HTTP receivers on 127.0.0.1; only time is fake (the clock starts at the
real time so that `standardwebhooks` accepts the timestamps) and the jitter source is fixed (factor 1.0).
"""

from __future__ import annotations

import base64
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from flask import Flask
from standardwebhooks import WebhookVerificationError

from api.app import create_app
from api.bootstrap import bootstrap
from domain.clock import FixedClock, iso
from domain.models import MATCH_EVENTS, DeliveryStatus, EventType
from domain.settings import Settings
from scheduler.dispatcher import Dispatcher
from storage.engine import Store
from storage.repository import unit_of_work
from tests.conftest import Api
from tests.webhook_receiver import Receiver, Reply, closed_port_url, running_receiver

SCHEDULE = (0.0, 2.0, 4.0)


def fixed_random() -> float:
    return 0.5  # jitter factor exactly 1.0


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock(datetime.now(UTC).replace(microsecond=0))


@pytest.fixture
def settings(tmp_path: Path, database_url: str | None) -> Settings:
    return Settings(data_dir=tmp_path / "data", database_url=database_url,
                    webhook_retry_schedule=SCHEDULE, webhook_timeout=2.0)


@pytest.fixture
def app(settings: Settings, store: Store, clock: FixedClock) -> Flask:
    made = create_app(bootstrap(settings, store, clock=clock, random=fixed_random))
    return made


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    """A receiver on 127.0.0.1 answering 200 unless scripted otherwise."""
    yield from running_receiver()


@pytest.fixture
def dispatcher(settings: Settings, store: Store, clock: FixedClock) -> Dispatcher:
    """The real dispatcher's passes, run on the test thread (`run_due`), never started."""
    return Dispatcher(store, settings, clock, random=fixed_random)


def configure(partner: Api, url: str, **extra: object) -> str | None:
    response = partner.patch("/webhooks/configuration", json={"url": url, **extra})
    assert response.status_code == 200, response.json
    secret: str | None = response.json["data"].get("webhook_secret")
    return secret


def at(clock: FixedClock, seconds: float = 0) -> str:
    return iso(clock.now() + timedelta(seconds=seconds))


# ------------------------------------------------------------------------------------------ configuration
def test_configuration_before_any_patch_has_no_url_and_all_events(partner: Api) -> None:
    response = partner.get("/webhooks/configuration")
    assert response.status_code == 200
    assert response.json == {"data": {"url": None, "events": list(MATCH_EVENTS), "secretConfigured": False,
                                      "updatedOn": None}}


def test_first_url_creates_the_secret_and_returns_it_once(partner: Api, clock: FixedClock) -> None:
    first = partner.patch("/webhooks/configuration", json={"url": "https://hooks.example.com/courtside"})
    assert first.status_code == 200
    data = first.json["data"]
    secret = data.pop("webhook_secret")
    assert secret.startswith("whsec_") and len(base64.b64decode(secret.removeprefix("whsec_"))) == 32
    assert data == {"url": "https://hooks.example.com/courtside", "events": list(MATCH_EVENTS),
                    "secretConfigured": True, "updatedOn": at(clock)}
    second = partner.patch("/webhooks/configuration", json={"url": "https://hooks.example.com/v2"})
    assert "webhook_secret" not in second.json["data"]
    assert partner.get("/webhooks/configuration").json["data"]["url"] == "https://hooks.example.com/v2"


def test_events_patch_sets_a_unique_subset(partner: Api) -> None:
    response = partner.patch("/webhooks/configuration", json={"events": ["match.completed", "match.started"]})
    assert response.status_code == 200
    assert response.json["data"] == {"url": None, "events": ["match.completed", "match.started"],
                                     "secretConfigured": False, "updatedOn": response.json["data"]["updatedOn"]}
    assert partner.patch("/webhooks/configuration", json={"events": []}).json["data"]["events"] == []


@pytest.mark.parametrize("body", [
    {"events": ["match.started", "match.started"]},
    {"events": ["integration.test"]},
    {"events": "match.started"},
    {"url": "ftp://hooks.example.com/x"},
    {"url": "/relative/path"},
    {"url": "https://"},
    {"url": "https://hooks.example.com/" + "a" * 1000},
    {"url": 42},
    {"secret": "whsec_mine"},
])
def test_invalid_configuration_is_400_and_changes_nothing(partner: Api, body: dict[str, object]) -> None:
    response = partner.patch("/webhooks/configuration", json=body)
    assert response.status_code == 400
    assert response.json["error"]["code"] == "validation_failed"
    assert partner.get("/webhooks/configuration").json["data"]["secretConfigured"] is False


def test_configuration_needs_webhook_scopes(new_partner: Callable[..., Api]) -> None:
    reader = new_partner(scope="webhooks.read")
    assert reader.get("/webhooks/configuration").status_code == 200
    response = reader.patch("/webhooks/configuration", json={"url": "https://hooks.example.com/"})
    assert response.status_code == 403
    assert response.json["error"]["code"] == "insufficient_scope"
    assert new_partner(scope="matches.read").get("/webhooks").status_code == 403


# ------------------------------------------------------------------------------------------ private addresses
@pytest.fixture
def guarded(settings: Settings, store: Store, clock: FixedClock) -> tuple[Flask, dict[str, list[str]]]:
    """An app with COURTSIDE_WEBHOOK_ALLOW_PRIVATE=false and a DNS table the test controls."""
    dns: dict[str, list[str]] = {"hooks.example.com": ["93.184.216.34"], "intranet.example.com": ["10.1.2.3"],
                                 "carrier.example.com": ["100.100.1.1"]}

    def resolve(host: str) -> list[str]:
        if host not in dns:
            raise OSError("unknown host")
        return dns[host]

    made = create_app(bootstrap(settings.with_(webhook_allow_private=False), store, clock=clock, random=fixed_random,
                                resolve=resolve))
    return made, dns


@pytest.mark.parametrize("url", [
    "http://127.0.0.1:8080/hook", "http://localhost/hook", "http://10.0.0.7/hook", "http://192.168.1.2/hook",
    "http://172.16.0.1/hook", "http://169.254.169.254/latest", "http://[::1]/hook", "http://[fe80::1]/hook",
    "http://[::ffff:127.0.0.1]/hook", "https://intranet.example.com/hook", "https://nowhere.example.com/hook",
    # not globally routable though not "private" (hardening issue, item 5): shared 100.64/10, benchmarking,
    # IETF protocol assignments, 6to4 carrying a shared address, a name resolving into 100.64/10
    "http://100.64.0.1/hook", "http://100.127.255.254/hook", "http://198.18.0.1/hook", "http://192.0.0.1/hook",
    "http://[2002:6440:1::1]/hook", "https://carrier.example.com/hook",
    # the IANA registries, not the interpreter's flags (contract §8a): 3.11 calls 192.0.0.8 global
    "http://192.0.0.8/hook", "http://192.0.0.170/hook", "http://198.19.255.1/hook", "http://[64:ff9b:1::1]/hook",
    "http://[2001:db8::1]/hook", "http://[3fff::1]/hook", "http://[5f00::1]/hook", "http://[100::1]/hook",
    "http://224.0.0.1/hook", "http://[ff02::1]/hook", "http://240.0.0.1/hook", "http://[2001:2::1]/hook",
    # NAT64's well-known prefix carrying loopback and private space (issue 47): judged by the IPv4 inside
    "http://[64:ff9b::7f00:1]/hook", "http://[64:ff9b::a00:1]/hook", "http://[64:ff9b::127.0.0.1]/hook",
    "http://[64:ff9b::c0a8:101]/hook",
])
def test_private_urls_are_refused_when_not_allowed(
    guarded: tuple[Flask, dict[str, list[str]]], operator: Api, url: str,
) -> None:
    app, dns = guarded
    dns["localhost"] = ["127.0.0.1"]
    key = operator.post("/operator/keys", json={"name": "p"}).json["data"]["key"]
    partner = Api(app.test_client(), key)
    response = partner.patch("/webhooks/configuration", json={"url": url})
    assert response.status_code == 400
    assert response.json["error"]["code"] == "webhook_url_not_allowed"
    assert partner.get("/webhooks/configuration").json["data"]["url"] is None


def test_private_guard_also_applies_at_send_time(
    guarded: tuple[Flask, dict[str, list[str]]], operator: Api,
) -> None:
    app, dns = guarded
    partner = Api(app.test_client(), operator.post("/operator/keys", json={}).json["data"]["key"])
    assert partner.patch("/webhooks/configuration", json={"url": "https://hooks.example.com/h"}).status_code == 200
    dns["hooks.example.com"] = ["127.0.0.1"]  # the name now points inside
    response = partner.post("/webhooks/test")
    assert response.status_code == 400
    assert response.json["error"]["code"] == "webhook_url_not_allowed"
    assert partner.get("/webhooks").json["data"] == []


def test_private_urls_are_accepted_by_default(partner: Api, receiver: Receiver) -> None:
    assert partner.patch("/webhooks/configuration", json={"url": receiver.url}).status_code == 200


# ------------------------------------------------------------------------------------------ test event
def test_test_event_without_url_is_409(partner: Api) -> None:
    response = partner.post("/webhooks/test")
    assert response.status_code == 409
    assert response.json["error"]["code"] == "webhook_not_configured"


def test_test_event_delivered_on_first_attempt_is_200_and_verifies(
    partner: Api, receiver: Receiver, clock: FixedClock,
) -> None:
    secret = configure(partner, receiver.url)
    assert secret
    response = partner.post("/webhooks/test")
    assert response.status_code == 200
    delivery = response.json["data"]
    event_id = delivery["eventID"]
    connection_id = partner.get("/connection").json["data"]["connectionID"]
    assert delivery == {
        "attemptCount": 1, "eventID": event_id, "eventType": "integration.test", "status": "delivered",
        "payload": {"id": event_id, "type": "integration.test", "createdOn": at(clock),
                    "connectionID": connection_id, "data": {"message": delivery["payload"]["data"]["message"],
                                                              "sequence": 0, "occurredOn": at(clock)}},
        "attemptedOn": at(clock), "createdOn": at(clock), "deliveredOn": at(clock),
        "webhookCreatedOn": at(clock),
    }
    [request] = receiver.received
    assert request.verify(secret) == delivery["payload"]
    assert request.headers["webhook-id"] == event_id
    assert request.headers["webhook-timestamp"] == str(int(clock.now().timestamp()))
    assert request.headers["Content-Type"] == "application/json"
    assert request.headers["User-Agent"].startswith("Courtside-Webhooks/")
    assert partner.get(f"/webhooks/{event_id}").json == {"data": delivery}


def test_test_event_failed_first_attempt_is_202_and_queued(
    partner: Api, receiver: Receiver, clock: FixedClock,
) -> None:
    configure(partner, receiver.url)
    receiver.reply(500)
    response = partner.post("/webhooks/test")
    assert response.status_code == 202
    delivery = response.json["data"]
    assert (delivery["status"], delivery["attemptCount"], delivery["lastError"]) == ("pending", 1, "HTTP 500")
    assert delivery["nextAttemptOn"] == at(clock, SCHEDULE[1])
    assert "deliveredOn" not in delivery


# ------------------------------------------------------------------------------------------ automatic retries
def test_retries_follow_the_schedule_then_fail(
    partner: Api, receiver: Receiver, clock: FixedClock, dispatcher: Dispatcher,
) -> None:
    secret = configure(partner, receiver.url)
    assert secret
    receiver.default = Reply(500)
    event_id = partner.post("/webhooks/test").json["data"]["eventID"]
    clock.advance(1.9)
    assert dispatcher.run_due() == 0  # not due yet
    clock.advance(0.1)
    assert dispatcher.run_due() == 1
    second = partner.get(f"/webhooks/{event_id}").json["data"]
    assert (second["status"], second["attemptCount"], second["nextAttemptOn"]) == ("pending", 2, at(clock, 4))
    clock.advance(4)
    assert dispatcher.run_due() == 1
    final = partner.get(f"/webhooks/{event_id}").json["data"]
    assert (final["status"], final["attemptCount"], final["lastError"]) == ("failed", 3, "HTTP 500")
    assert "nextAttemptOn" not in final
    clock.advance(3600)
    assert dispatcher.run_due() == 0
    assert len(receiver.received) == 3
    assert {request.headers["webhook-id"] for request in receiver.received} == {event_id}
    assert all(request.verify(secret)["id"] == event_id for request in receiver.received)


def test_retry_then_success_is_delivered(
    partner: Api, receiver: Receiver, clock: FixedClock, dispatcher: Dispatcher,
) -> None:
    configure(partner, receiver.url)
    receiver.reply(503)
    event_id = partner.post("/webhooks/test").json["data"]["eventID"]
    clock.advance(2)
    dispatcher.run_due()
    delivery = partner.get(f"/webhooks/{event_id}").json["data"]
    assert (delivery["status"], delivery["attemptCount"], delivery["deliveredOn"]) == ("delivered", 2, at(clock))
    assert "lastError" not in delivery and "nextAttemptOn" not in delivery


def test_gone_stops_retries(partner: Api, receiver: Receiver, clock: FixedClock, dispatcher: Dispatcher) -> None:
    configure(partner, receiver.url)
    receiver.reply(410)
    response = partner.post("/webhooks/test")
    assert response.status_code == 202
    delivery = response.json["data"]
    assert (delivery["status"], delivery["lastError"]) == ("failed", "HTTP 410")
    assert "nextAttemptOn" not in delivery
    clock.advance(60)
    assert dispatcher.run_due() == 0
    assert len(receiver.received) == 1


@pytest.mark.parametrize(("status", "retry_after", "wait"), [
    (429, "3", 3.0),  # honoured: longer than the 2 s slot
    (503, "100", 4.0),  # capped at the following slot
    (503, "1", 2.0),  # never sooner than the slot
    (500, "3", 2.0),  # only 429 and 503 carry a meaningful Retry-After
])
def test_retry_after_is_honoured_up_to_the_next_slot(
    partner: Api, receiver: Receiver, clock: FixedClock, status: int, retry_after: str, wait: float,
) -> None:
    configure(partner, receiver.url)
    receiver.reply(Reply(status, headers={"Retry-After": retry_after}))
    delivery = partner.post("/webhooks/test").json["data"]
    assert delivery["nextAttemptOn"] == at(clock, wait)


def test_jitter_stays_within_ten_percent(settings: Settings, store: Store, clock: FixedClock) -> None:
    from domain.webhooks import next_delay

    assert next_delay(1, (0, 100), retry_after=None, random=lambda: 0.0) == pytest.approx(90)
    assert next_delay(1, (0, 100), retry_after=None, random=lambda: 0.999999) == pytest.approx(110, abs=1e-3)
    assert next_delay(2, (0, 100), retry_after=None, random=lambda: 0.5) is None


def test_transport_errors_are_described(partner: Api, receiver: Receiver, settings: Settings,
                                        store: Store, clock: FixedClock, operator: Api) -> None:
    configure(partner, closed_port_url())
    refused = partner.post("/webhooks/test")
    assert (refused.status_code, refused.json["data"]["lastError"]) == (202, "connection refused")

    slow = create_app(bootstrap(settings.with_(webhook_timeout=0.3), store, clock=clock, random=fixed_random))
    other = Api(slow.test_client(), operator.post("/operator/keys", json={}).json["data"]["key"])
    configure(other, receiver.url)
    receiver.reply(Reply(200, delay=2))
    timed_out = other.post("/webhooks/test")
    assert (timed_out.status_code, timed_out.json["data"]["lastError"]) == (202, "timeout")


def test_redirects_are_not_followed(partner: Api, receiver: Receiver) -> None:
    configure(partner, receiver.url)
    receiver.reply(Reply(302, headers={"Location": receiver.url + "/elsewhere"}))
    response = partner.post("/webhooks/test")
    assert (response.status_code, response.json["data"]["lastError"]) == (202, "HTTP 302")
    assert [request.path for request in receiver.received] == ["/hook"]


# ------------------------------------------------------------------------------------------ manual retry
def test_retry_validates_the_event_id(partner: Api) -> None:
    malformed = partner.post("/webhooks/retry", json={"eventID": "ABC"})
    assert (malformed.status_code, malformed.json["error"]["code"]) == (400, "invalid_event_id")
    unknown = partner.post("/webhooks/retry", json={"eventID": "a" * 40})
    assert (unknown.status_code, unknown.json["error"]["code"]) == (404, "not_found")
    for body in ({}, {"eventID": 7}, {"eventID": "a" * 40, "extra": 1}):
        response = partner.post("/webhooks/retry", json=body)
        assert (response.status_code, response.json["error"]["code"]) == (400, "validation_failed")


def test_retry_attempts_now_with_attempt_count_plus_one(
    partner: Api, receiver: Receiver, clock: FixedClock,
) -> None:
    configure(partner, receiver.url)
    receiver.reply(410)
    event_id = partner.post("/webhooks/test").json["data"]["eventID"]
    clock.advance(30)
    response = partner.post("/webhooks/retry", json={"eventID": event_id})
    assert response.status_code == 200
    delivery = response.json["data"]
    assert (delivery["status"], delivery["attemptCount"], delivery["attemptedOn"]) == ("delivered", 2, at(clock))
    receiver.reply(500)
    again = partner.post("/webhooks/retry", json={"eventID": event_id})
    assert again.status_code == 200  # whatever the outcome
    assert (again.json["data"]["attemptCount"], again.json["data"]["lastError"]) == (3, "HTTP 500")
    assert again.json["data"]["status"] == "failed"  # past the end of the 3-attempt schedule
    assert [r.headers["webhook-id"] for r in receiver.received] == [event_id] * 3


def test_retry_of_a_delivery_in_progress_is_409(partner: Api, receiver: Receiver, store: Store) -> None:
    configure(partner, receiver.url)
    event_id = partner.post("/webhooks/test").json["data"]["eventID"]
    with unit_of_work(store) as uow:
        delivery = uow.deliveries.get(event_id)
        assert delivery is not None
        delivery.status = DeliveryStatus.DELIVERING
        uow.deliveries.put(delivery)
    response = partner.post("/webhooks/retry", json={"eventID": event_id})
    assert (response.status_code, response.json["error"]["code"]) == (409, "delivery_in_progress")


def test_retry_without_url_is_409(partner: Api, receiver: Receiver) -> None:
    configure(partner, receiver.url)
    event_id = partner.post("/webhooks/test").json["data"]["eventID"]
    assert partner.patch("/webhooks/configuration", json={"url": None}).json["data"]["url"] is None
    response = partner.post("/webhooks/retry", json={"eventID": event_id})
    assert (response.status_code, response.json["error"]["code"]) == (409, "webhook_not_configured")


def test_another_connections_delivery_is_not_found(
    partner: Api, new_partner: Callable[..., Api], receiver: Receiver,
) -> None:
    configure(partner, receiver.url)
    event_id = partner.post("/webhooks/test").json["data"]["eventID"]
    stranger = new_partner()
    assert stranger.get(f"/webhooks/{event_id}").status_code == 404
    assert stranger.post("/webhooks/retry", json={"eventID": event_id}).status_code == 404
    assert stranger.get("/webhooks").json == {"data": [], "nextCursor": None}


# ------------------------------------------------------------------------------------------ reads
def test_get_delivery_rejects_a_malformed_id(partner: Api) -> None:
    for bad in ("123", "G" * 40, "a" * 41):
        response = partner.get(f"/webhooks/{bad}")
        assert (response.status_code, response.json["error"]["code"]) == (400, "invalid_event_id")
    assert partner.get("/webhooks/" + "0" * 40).json["error"]["code"] == "not_found"


def test_list_is_newest_first_filtered_and_paginated(
    partner: Api, receiver: Receiver, clock: FixedClock,
) -> None:
    configure(partner, receiver.url)
    receiver.reply(200, 500, 200)
    ids = []
    for _ in range(3):
        ids.append(partner.post("/webhooks/test").json["data"]["eventID"])
        clock.advance(1)
    listed = partner.get("/webhooks")
    assert listed.status_code == 200
    assert [d["eventID"] for d in listed.json["data"]] == ids[::-1]
    assert listed.json["nextCursor"] is None
    assert [d["eventID"] for d in partner.get("/webhooks?status=pending").json["data"]] == [ids[1]]
    assert [d["eventID"] for d in partner.get("/webhooks?status=delivered").json["data"]] == [ids[2], ids[0]]
    assert len(partner.get("/webhooks?eventType=integration.test").json["data"]) == 3
    assert partner.get("/webhooks?eventType=match.started").json["data"] == []
    first = partner.get("/webhooks?limit=2").json
    assert [d["eventID"] for d in first["data"]] == [ids[2], ids[1]]
    rest = partner.get(f"/webhooks?limit=2&cursor={first['nextCursor']}").json
    assert ([d["eventID"] for d in rest["data"]], rest["nextCursor"]) == ([ids[0]], None)
    for query in ("status=lost", "limit=0", "limit=101", "cursor=%%%"):
        response = partner.get(f"/webhooks?{query}")
        assert response.status_code == 400, query
    assert partner.get("/webhooks?cursor=nonsense").json["error"]["code"] == "invalid_cursor"


# ------------------------------------------------------------------------------------------ operator routes
def test_operator_sees_every_delivery_with_attempts_and_can_retry(
    partner: Api, new_partner: Callable[..., Api], operator: Api, receiver: Receiver,
) -> None:
    configure(partner, receiver.url)
    other = new_partner(name="other")
    configure(other, receiver.url)
    receiver.reply(500)
    first = partner.post("/webhooks/test").json["data"]
    second = other.post("/webhooks/test").json["data"]
    listed = operator.get("/operator/webhooks").json["data"]
    assert [d["eventID"] for d in listed] == [second["eventID"], first["eventID"]]
    partner_connection = partner.get("/connection").json["data"]["connectionID"]
    only = operator.get(f"/operator/webhooks?connectionID={partner_connection}&status=pending").json["data"]
    assert [d["eventID"] for d in only] == [first["eventID"]]
    read = operator.get(f"/operator/webhooks/{first['eventID']}").json["data"]
    assert read["connectionID"] == partner_connection
    assert read["attempts"] == [{"attemptedOn": first["attemptedOn"], "statusCode": 500, "error": "HTTP 500"}]
    retried = operator.post(f"/operator/webhooks/{first['eventID']}/retry")
    assert retried.status_code == 200
    assert (retried.json["data"]["status"], retried.json["data"]["attemptCount"]) == ("delivered", 2)
    assert operator.get("/operator/webhooks/" + "f" * 40).status_code == 404
    assert partner.get("/operator/webhooks").status_code == 401


def test_signature_does_not_verify_with_another_secret(partner: Api, receiver: Receiver) -> None:
    configure(partner, receiver.url)
    partner.post("/webhooks/test")
    with pytest.raises(WebhookVerificationError):
        receiver.received[0].verify("whsec_" + base64.b64encode(b"x" * 32).decode())


# ------------------------------------------------------------------------------------------ dispatcher claims
def test_claims_are_one_per_connection_least_recently_served_first(
    partner: Api, new_partner: Callable[..., Api], store: Store, clock: FixedClock, receiver: Receiver,
) -> None:
    from domain.events import record_event
    from domain.webhooks import Outcome, claim_due, record_outcome

    other = new_partner(name="other")
    configure(partner, receiver.url)
    configure(other, receiver.url)
    busy_id, quiet_id = (api.get("/connection").json["data"]["connectionID"] for api in (partner, other))
    with unit_of_work(store) as uow:
        account_id = uow.connections.get(busy_id).account_id  # type: ignore[union-attr]
        busy = [record_event(uow, account_id=account_id, connection_id=busy_id, event_type=EventType.MATCH_STARTED,
                             data={"n": n}, now=clock.now()) for n in range(3)]
        quiet = record_event(uow, account_id=account_id, connection_id=quiet_id, event_type=EventType.MATCH_STARTED,
                             data={}, now=clock.now())
        assert quiet is not None and all(busy)
    with unit_of_work(store) as uow:
        first, _ = claim_due(uow, now=clock.now(), limit=1)
        assert [claim.event_id for claim in first] == [busy[0].id]  # type: ignore[union-attr]
        served = {busy_id: 1}
        second, _ = claim_due(uow, now=clock.now(), limit=1, rank=lambda c: served.get(c, -1))
        assert [claim.event_id for claim in second] == [quiet.id]  # the other connection is not starved
        third, _ = claim_due(uow, now=clock.now(), limit=8, busy_connections={busy_id})
        assert third == []  # one in flight per connection
        fourth, _ = claim_due(uow, now=clock.now(), limit=8)
        assert fourth == []  # busy[0] is still being attempted: one attempt per connection, whoever holds it
        record_outcome(uow, event_id=busy[0].id, outcome=Outcome(started=clock.now(), status=200),  # type: ignore[union-attr]
                       now=clock.now(), schedule=SCHEDULE, random=fixed_random)
        fifth, _ = claim_due(uow, now=clock.now(), limit=8)
        assert [claim.event_id for claim in fifth] == [busy[1].id]  # type: ignore[union-attr]


def test_a_revoked_connection_records_no_events(partner: Api, receiver: Receiver, store: Store,
                                                clock: FixedClock) -> None:
    from domain.events import record_event

    configure(partner, receiver.url)
    connection_id = partner.get("/connection").json["data"]["connectionID"]
    assert partner.delete("/connection").status_code == 200
    with unit_of_work(store) as uow:
        account_id = uow.connections.get(connection_id).account_id  # type: ignore[union-attr]
        assert record_event(uow, account_id=account_id, connection_id=connection_id, event_type=EventType.MATCH_STARTED,
                            data={}, now=clock.now()) is None


def test_retry_after_accepts_seconds_and_http_dates() -> None:
    from domain.webhooks import parse_retry_after

    now = datetime(2026, 11, 21, 10, 0, tzinfo=UTC)
    assert parse_retry_after("120", now=now) == 120.0
    assert parse_retry_after("Sat, 21 Nov 2026 10:00:30 GMT", now=now) == 30.0
    assert parse_retry_after("Sat, 21 Nov 2026 09:00:00 GMT", now=now) == 0.0
    assert parse_retry_after("soon", now=now) is None
    assert parse_retry_after(None, now=now) is None


def test_url_null_removes_the_destination_and_keeps_the_secret(partner: Api) -> None:
    assert partner.patch("/webhooks/configuration", json={"url": "http://127.0.0.1:9/hooks"}).status_code == 200
    response = partner.patch("/webhooks/configuration", json={"url": None})
    assert response.status_code == 200
    assert response.json["data"]["url"] is None and response.json["data"]["secretConfigured"] is True
    assert "webhook_secret" not in response.json["data"]
    assert partner.post("/webhooks/test").status_code == 409


def test_shared_address_space_is_refused_at_send_time_too(
    guarded: tuple[Flask, dict[str, list[str]]], operator: Api,
) -> None:
    app, dns = guarded
    partner = Api(app.test_client(), operator.post("/operator/keys", json={}).json["data"]["key"])
    assert partner.patch("/webhooks/configuration", json={"url": "https://hooks.example.com/h"}).status_code == 200
    dns["hooks.example.com"] = ["100.64.12.34"]  # the name now points into carrier-grade NAT space
    response = partner.post("/webhooks/test")
    assert response.status_code == 400
    assert response.json["error"]["code"] == "webhook_url_not_allowed"


def test_a_manual_retry_during_an_outage_does_not_delay_the_automatic_schedule(
    partner: Api, receiver: Receiver, clock: FixedClock, dispatcher: Dispatcher,
) -> None:
    """Console-trial issue, item 11: a failed manual retry keeps the next automatic attempt where it was."""
    configure(partner, receiver.url)
    receiver.reply(500, 500)
    first = partner.post("/webhooks/test").json["data"]
    assert (first["status"], first["nextAttemptOn"]) == ("pending", at(clock, 2))
    clock.advance(1)
    retried = partner.post("/webhooks/retry", json={"eventID": first["eventID"]}).json["data"]
    assert (retried["status"], retried["attemptCount"], retried["lastError"]) == ("pending", 2, "HTTP 500")
    assert retried["nextAttemptOn"] == at(clock, 1)  # still the automatic slot, not pushed out
    clock.advance(1)
    assert dispatcher.run_due() == 1
    delivered = partner.get(f"/webhooks/{first['eventID']}").json["data"]
    assert (delivered["status"], delivered["attemptCount"]) == ("delivered", 3)


def test_operator_retries_every_failing_delivery_of_a_connection(
    partner: Api, operator: Api, receiver: Receiver, clock: FixedClock, dispatcher: Dispatcher,
) -> None:
    configure(partner, receiver.url)
    connection_id = partner.get("/connection").json["data"]["connectionID"]
    receiver.reply(410, 500)
    gone = partner.post("/webhooks/test").json["data"]  # failed (410)
    erroring = partner.post("/webhooks/test").json["data"]  # pending after an error
    assert (gone["status"], erroring["status"]) == ("failed", "pending")
    response = operator.post(f"/operator/connections/{connection_id}/webhooks/retry-failing")
    assert response.status_code == 200
    assert response.json["data"] == {"connectionID": connection_id, "retried": 2}
    assert dispatcher.run_due() == 2  # due now, one at a time for the connection
    statuses = {d["eventID"]: d["status"] for d in partner.get("/webhooks").json["data"]}
    assert statuses == {gone["eventID"]: "delivered", erroring["eventID"]: "delivered"}


def test_retry_failing_answers_404_for_an_unknown_connection_and_409_without_url(
    partner: Api, operator: Api,
) -> None:
    missing = operator.post("/operator/connections/conn_missing/webhooks/retry-failing")
    assert missing.status_code == 404 and missing.json["error"]["code"] == "not_found"
    connection_id = partner.get("/connection").json["data"]["connectionID"]
    unset = operator.post(f"/operator/connections/{connection_id}/webhooks/retry-failing")
    assert unset.status_code == 409 and unset.json["error"]["code"] == "webhook_not_configured"


def test_operator_connections_show_each_webhook_url(partner: Api, operator: Api, receiver: Receiver) -> None:
    configure(partner, receiver.url)
    connection_id = partner.get("/connection").json["data"]["connectionID"]
    listed = {c["connectionID"]: c for c in operator.get("/operator/connections").json["data"]}
    assert listed[connection_id]["webhookURL"] == receiver.url
