"""POST /webhooks/secret/rotate: Idempotency-Key rules, and which secret later deliveries verify with."""

from __future__ import annotations

import base64
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from standardwebhooks import WebhookVerificationError

from api.app import create_app
from api.bootstrap import bootstrap
from domain import webhooks
from domain.clock import FixedClock, iso
from domain.errors import NotFound
from domain.settings import Settings
from scheduler.dispatcher import Dispatcher
from storage.engine import Store
from storage.repository import unit_of_work
from tests.conftest import Api
from tests.webhook_receiver import Receiver, running_receiver


def fixed_random() -> float:
    return 0.5


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock(datetime.now(UTC).replace(microsecond=0))


@pytest.fixture
def settings(tmp_path: Path, database_url: str | None) -> Settings:
    return Settings(data_dir=tmp_path / "data", database_url=database_url,
                    webhook_retry_schedule=(0, 1, 1), webhook_timeout=2.0)


@pytest.fixture
def app(settings: Settings, store: Store, clock: FixedClock) -> Flask:
    made = create_app(bootstrap(settings, store, clock=clock, random=fixed_random))
    return made


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    yield from running_receiver()


def rotate(partner: Api, key: str | None) -> Any:
    headers = {} if key is None else {"Idempotency-Key": key}
    return partner.post("/webhooks/secret/rotate", headers=headers)


def test_missing_key_is_400_idempotency_key_required(partner: Api) -> None:
    response = rotate(partner, None)
    assert (response.status_code, response.json["error"]["code"]) == (400, "idempotency_key_required")


@pytest.mark.parametrize("key", ["short", "1234567", "k" * 201])
def test_out_of_bounds_key_is_400_invalid_idempotency_key(partner: Api, key: str) -> None:
    response = rotate(partner, key)
    assert (response.status_code, response.json["error"]["code"]) == (400, "invalid_idempotency_key")
    assert partner.get("/webhooks/configuration").json["data"]["secretConfigured"] is False


@pytest.mark.parametrize("key", ["12345678", "k" * 200])
def test_keys_of_8_to_200_characters_are_accepted(partner: Api, key: str) -> None:
    assert rotate(partner, key).status_code == 200


def test_first_rotation_creates_the_secret(partner: Api, clock: FixedClock) -> None:
    response = rotate(partner, "rotation-0001")
    assert response.status_code == 200
    data = response.json["data"]
    assert set(data) == {"webhook_secret", "rotatedOn"}
    assert data["rotatedOn"] == iso(clock.now())
    assert len(base64.b64decode(data["webhook_secret"].removeprefix("whsec_"))) == 32
    assert data["webhook_secret"].startswith("whsec_")
    assert partner.get("/webhooks/configuration").json["data"]["secretConfigured"] is True


def test_same_key_returns_the_same_secret_and_an_older_key_is_409(partner: Api, clock: FixedClock) -> None:
    first = rotate(partner, "rotation-0001").json["data"]
    clock.advance(5)
    assert rotate(partner, "rotation-0001").json["data"] == first  # a retried request
    second = rotate(partner, "rotation-0002")
    assert second.status_code == 200
    assert second.json["data"]["webhook_secret"] != first["webhook_secret"]
    assert second.json["data"]["rotatedOn"] == iso(clock.now())
    reused = rotate(partner, "rotation-0001")
    assert (reused.status_code, reused.json["error"]["code"]) == (409, "idempotency_key_reused")
    assert rotate(partner, "rotation-0002").json["data"] == second.json["data"]


def test_keys_are_per_connection_and_stored_only_as_hashes(
    partner: Api, new_partner: Callable[..., Api], store: Store,
) -> None:
    other = new_partner()
    mine = rotate(partner, "shared-key-123").json["data"]["webhook_secret"]
    theirs = rotate(other, "shared-key-123").json["data"]["webhook_secret"]
    assert mine != theirs
    with unit_of_work(store) as uow:
        stored = [config.rotations for config in uow.webhook_configs.find()]
    assert "shared-key-123" not in repr(stored)
    assert all(set(rotation) == {"keyHash", "rotatedOn"} for rotations in stored for rotation in rotations)


def test_rotation_needs_webhooks_write(new_partner: Callable[..., Api]) -> None:
    reader = new_partner(scope="webhooks.read")
    response = rotate(reader, "rotation-0001")
    assert (response.status_code, response.json["error"]["code"]) == (403, "insufficient_scope")


def test_rotation_without_an_active_connection_is_not_found(store: Store, clock: FixedClock) -> None:
    with unit_of_work(store) as uow, pytest.raises(NotFound):
        webhooks.rotate_secret(uow, account_id="acc_x", connection_id="conn_gone", idempotency_key="rotation-01",
                               now=clock.now())


def test_later_deliveries_verify_only_with_the_new_secret(partner: Api, receiver: Receiver) -> None:
    old = partner.patch("/webhooks/configuration", json={"url": receiver.url}).json["data"]["webhook_secret"]
    partner.post("/webhooks/test")
    new = rotate(partner, "rotation-0001").json["data"]["webhook_secret"]
    assert partner.post("/webhooks/test").status_code == 200
    before, after = receiver.received
    assert before.verify(old)
    assert after.verify(new)["type"] == "integration.test"
    with pytest.raises(WebhookVerificationError):
        after.verify(old)


def test_pending_deliveries_and_retries_use_the_new_secret(
    partner: Api, receiver: Receiver, store: Store, settings: Settings, clock: FixedClock,
) -> None:
    old = partner.patch("/webhooks/configuration", json={"url": receiver.url}).json["data"]["webhook_secret"]
    receiver.reply(500, 500)
    first = partner.post("/webhooks/test").json["data"]["eventID"]
    second = partner.post("/webhooks/test").json["data"]["eventID"]
    new = rotate(partner, "rotation-0001").json["data"]["webhook_secret"]
    assert partner.post("/webhooks/retry", json={"eventID": first}).json["data"]["status"] == "delivered"
    clock.advance(1)
    assert Dispatcher(store, settings, clock, random=fixed_random).run_due() == 1  # the automatic retry
    retried = receiver.received[2:]
    assert [request.headers["webhook-id"] for request in retried] == [first, second]
    for request in retried:
        assert request.verify(new)
        with pytest.raises(WebhookVerificationError):
            request.verify(old)
