"""Webhooks through the services on the in-memory unit of work (contract §6, §23): configuration and its secret,
events recorded in the match's unit of work (the outbox), claims, outcomes and the retry schedule, manual
retries and test deliveries."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest

from domain.clock import iso
from domain.errors import Conflict, Invalid, NotFound
from domain.models import DeliveryStatus, EventType
from domain.webhooks import config as hooks_config
from domain.webhooks import deliveries, machine, manual
from domain.webhooks.types import Outcome, SendResult
from domain.webhooks.urls import UrlGuard
from tests.domain.world import World

GUARD = UrlGuard(allow_private=True, resolve=lambda host: ["127.0.0.1"])
SCHEDULE = (10.0, 60.0)  # entry 0: the first attempt's delay; entry n: the delay after the n-th attempt


@pytest.fixture
def world() -> World:
    return World()


def configure(world: World, connection: str, **change: Any) -> dict[str, Any]:
    with world.uow() as uow:
        return hooks_config.configure(uow, account_id=world.account_id, connection_id=connection, now=world.now,
                                      change=hooks_config.WebhookChange(**change), guard=GUARD)


def subscribed_partner(world: World, **change: Any) -> str:
    partner = world.partner()
    configure(world, partner, url="https://receiver.example/hook", **change)
    return partner


def partner_match(world: World, partner: str) -> Any:
    """A pending match "m1" of the partner, on a court of its own broadcast."""
    _, (court,) = world.broadcast(manager=partner)
    return world.sync(court, "m1", connection=partner)


def claim(world: World, limit: int = 10) -> list[Any]:
    with world.uow() as uow:
        claims, _ = machine.claim_due(uow, now=world.now, limit=limit)
    return claims


def outcome(world: World, event_id: str, status: int | None, **more: Any) -> Any:
    with world.uow() as uow:
        return machine.record_outcome(uow, event_id=event_id, now=world.now, schedule=SCHEDULE,
                                      random=lambda: 0.5, outcome=Outcome(started=world.now, status=status, **more))


def test_the_first_url_creates_a_secret_shown_once(world: World) -> None:
    partner = world.partner()
    first = configure(world, partner, url="https://receiver.example/hook")
    assert first["webhook_secret"].startswith("whsec_")
    again = configure(world, partner, url="https://receiver.example/other")
    assert "webhook_secret" not in again
    assert world.audit_actions()[-1] == "webhook.configured"


def test_an_unknown_event_type_is_refused(world: World) -> None:
    partner = world.partner()
    with pytest.raises(Invalid) as refused:
        configure(world, partner, url="https://receiver.example/hook", events=["match.exploded"])
    assert list(refused.value.details["json"]) == ["events"]


def test_a_relative_url_is_refused(world: World) -> None:
    partner = world.partner()
    with pytest.raises(Invalid) as refused:
        configure(world, partner, url="/hook")
    assert refused.value.details == {"json": {"url": ["Not a valid absolute http(s) URL."]}}


def test_a_private_address_is_refused_unless_allowed(world: World) -> None:
    partner = world.partner()
    strict = UrlGuard(allow_private=False, resolve=lambda host: ["10.0.0.7"])
    with pytest.raises(Invalid) as refused, world.uow() as uow:
        hooks_config.configure(uow, account_id=world.account_id, connection_id=partner, now=world.now,
                               change=hooks_config.WebhookChange(url="https://inside.example/hook"), guard=strict)
    assert refused.value.code == "webhook_url_not_allowed"


def test_configuring_an_unknown_connection_is_not_found(world: World) -> None:
    with pytest.raises(NotFound, match="No active connection"):
        configure(world, "conn_nope", url="https://receiver.example/hook")


def test_a_match_event_is_recorded_in_the_matchs_unit_of_work(world: World) -> None:
    partner = subscribed_partner(world)
    made = partner_match(world, partner)
    world.start(made)
    assert world.events() == [("match.started", made.id)]
    with world.uow() as uow:
        [delivery] = uow.deliveries.find()
    assert (delivery.status, delivery.next_attempt_on, delivery.connection_id) == (
        DeliveryStatus.PENDING, iso(world.now), partner)
    body = json.loads(delivery.body)
    assert (body["type"], body["data"]["match"]["externalID"]) == ("match.started", "m1")


def test_a_connection_without_a_url_receives_nothing(world: World) -> None:
    partner = world.partner()
    world.start(partner_match(world, partner))
    assert world.events() == []


def test_only_subscribed_event_types_are_recorded(world: World) -> None:
    partner = subscribed_partner(world, events=[EventType.MATCH_COMPLETED])
    made = world.start(partner_match(world, partner))
    world.complete(made)
    assert world.events() == [("match.completed", made.id)]


def test_the_whole_life_of_a_match_is_three_events_in_order(world: World) -> None:
    partner = subscribed_partner(world)
    made = world.start(partner_match(world, partner))
    world.score(made, [{"a": 5, "b": 3}])
    world.complete(made)
    assert [kind for kind, _ in world.events()] == ["match.started", "match.score_updated", "match.completed"]


def test_a_claim_marks_the_delivery_delivering_with_the_url_and_secret(world: World) -> None:
    partner = subscribed_partner(world)
    world.start(partner_match(world, partner))
    [attempt] = claim(world)
    assert (attempt.connection_id, attempt.url, attempt.manual) == (partner, "https://receiver.example/hook", False)
    assert attempt.secret.startswith("whsec_")
    with world.uow() as uow:
        assert uow.deliveries.get(attempt.event_id).status == DeliveryStatus.DELIVERING  # type: ignore[union-attr]


def test_one_connection_has_one_attempt_at_a_time(world: World) -> None:
    partner = subscribed_partner(world)
    made = world.start(partner_match(world, partner))
    world.score(made, [{"a": 1, "b": 0}])
    assert len(claim(world)) == 1
    assert claim(world) == []  # the second waits while the first is attempted


def test_a_delivered_outcome_ends_the_delivery(world: World) -> None:
    partner = subscribed_partner(world)
    world.start(partner_match(world, partner))
    [attempt] = claim(world)
    done = outcome(world, attempt.event_id, 204)
    assert (done.status, done.delivered_on, done.next_attempt_on, done.attempt_count) == (
        DeliveryStatus.DELIVERED, iso(world.now), None, 1)


def test_a_failed_attempt_is_due_again_after_the_schedules_delay(world: World) -> None:
    partner = subscribed_partner(world)
    world.start(partner_match(world, partner))
    [attempt] = claim(world)
    again = outcome(world, attempt.event_id, 500)
    assert again.status == DeliveryStatus.PENDING
    assert again.next_attempt_on == iso(world.now + timedelta(seconds=60))  # jitter 0 at random() 0.5
    assert again.last_error is not None and "500" in again.last_error


def test_the_schedule_exhausted_fails_the_delivery(world: World) -> None:
    partner = subscribed_partner(world)
    world.start(partner_match(world, partner))
    for _ in SCHEDULE:
        world.clock.advance(120)
        [attempt] = claim(world)
        last = outcome(world, attempt.event_id, None, error="connection refused")
    assert (last.status, last.next_attempt_on, last.attempt_count) == (DeliveryStatus.FAILED, None, 2)


def test_410_gone_fails_the_delivery_at_once(world: World) -> None:
    partner = subscribed_partner(world)
    world.start(partner_match(world, partner))
    [attempt] = claim(world)
    assert outcome(world, attempt.event_id, 410).status == DeliveryStatus.FAILED


def test_an_interrupted_claim_is_due_again_with_a_note(world: World) -> None:
    partner = subscribed_partner(world)
    world.start(partner_match(world, partner))
    [attempt] = claim(world)
    with world.uow() as uow:
        assert machine.recover_interrupted(uow, now=world.now) == 1
        delivery = uow.deliveries.get(attempt.event_id)
    assert delivery is not None and delivery.status == DeliveryStatus.PENDING
    assert delivery.attempts[-1] == {"attemptedOn": iso(world.now), "error": "interrupted"}


def test_a_live_owners_claim_is_not_recovered(world: World) -> None:
    partner = subscribed_partner(world)
    world.start(partner_match(world, partner))
    with world.uow() as uow:
        machine.claim_due(uow, now=world.now, limit=1, owner="proc-1")
    with world.uow() as uow:
        assert machine.recover_interrupted(uow, now=world.now, live_owners={"proc-1"}) == 0


def test_a_manual_retry_of_a_failed_delivery_leaves_the_schedule(world: World) -> None:
    partner = subscribed_partner(world)
    world.start(partner_match(world, partner))
    [attempt] = claim(world)
    outcome(world, attempt.event_id, 410)
    with world.uow() as uow:
        retry = manual.begin_retry(uow, event_id=attempt.event_id, account_id=world.account_id,
                                   connection_id=partner, guard=GUARD)
    assert retry.manual is True
    with world.uow() as uow:
        after = machine.record_outcome(uow, event_id=attempt.event_id, now=world.now, schedule=SCHEDULE,
                                       random=lambda: 0.5, manual=True, outcome=Outcome(started=world.now, status=500))
    assert (after.status, after.manual_attempts, after.attempt_count) == (DeliveryStatus.FAILED, 1, 2)


def test_a_retry_while_an_attempt_runs_is_in_progress(world: World) -> None:
    partner = subscribed_partner(world)
    world.start(partner_match(world, partner))
    [attempt] = claim(world)
    with pytest.raises(Conflict) as refused, world.uow() as uow:
        manual.begin_retry(uow, event_id=attempt.event_id, account_id=world.account_id, connection_id=partner,
                           guard=GUARD)
    assert refused.value.code == "delivery_in_progress"


def test_retry_failing_puts_every_failing_delivery_back_now(world: World) -> None:
    partner = subscribed_partner(world)
    world.start(partner_match(world, partner))
    [attempt] = claim(world)
    outcome(world, attempt.event_id, 410)
    world.clock.advance(60)
    with world.uow() as uow:
        assert manual.retry_failing(uow, account_id=world.account_id, connection_id=partner, now=world.now) == 1
        delivery = uow.deliveries.get(attempt.event_id)
    assert delivery is not None
    assert (delivery.status, delivery.next_attempt_on) == (DeliveryStatus.PENDING, iso(world.now))


def test_retry_failing_without_a_url_is_not_configured(world: World) -> None:
    partner = world.partner()
    with pytest.raises(Conflict) as refused, world.uow() as uow:
        manual.retry_failing(uow, account_id=world.account_id, connection_id=partner, now=world.now)
    assert refused.value.code == "webhook_not_configured"


def test_a_test_delivery_is_recorded_and_claimed_at_once(world: World) -> None:
    partner = subscribed_partner(world, events=[EventType.MATCH_COMPLETED])
    with world.uow() as uow:
        delivery, attempt = manual.begin_test(uow, account_id=world.account_id, connection_id=partner,
                                              now=world.now, guard=GUARD)
    assert delivery.event_type == "integration.test"
    assert attempt is not None and attempt.event_id == delivery.id


def test_a_delivery_of_another_connection_is_not_found(world: World) -> None:
    partner = subscribed_partner(world)
    world.start(partner_match(world, partner))
    [attempt] = claim(world)
    other = world.partner("Other")
    with pytest.raises(NotFound), world.uow() as uow:
        deliveries.get_delivery(uow, event_id=attempt.event_id, account_id=world.account_id, connection_id=other)


def test_rotating_the_secret_needs_a_key_and_answers_it_again(world: World) -> None:
    partner = subscribed_partner(world)
    with pytest.raises(Invalid) as missing, world.uow() as uow:
        hooks_config.rotate_secret(uow, account_id=world.account_id, connection_id=partner, idempotency_key=None,
                                   now=world.now)
    assert missing.value.code == "idempotency_key_required"
    with world.uow() as uow:
        first = hooks_config.rotate_secret(uow, account_id=world.account_id, connection_id=partner,
                                           idempotency_key="rotation-0001", now=world.now)
    with world.uow() as uow:
        again = hooks_config.rotate_secret(uow, account_id=world.account_id, connection_id=partner,
                                           idempotency_key="rotation-0001", now=world.now)
    assert again == first
    assert world.audit_actions()[-1] == "webhook.secret_rotated"


def test_an_older_rotations_key_is_reused(world: World) -> None:
    partner = subscribed_partner(world)
    for key in ("rotation-0001", "rotation-0002"):
        with world.uow() as uow:
            hooks_config.rotate_secret(uow, account_id=world.account_id, connection_id=partner,
                                       idempotency_key=key, now=world.now)
    with pytest.raises(Conflict) as refused, world.uow() as uow:
        hooks_config.rotate_secret(uow, account_id=world.account_id, connection_id=partner,
                                   idempotency_key="rotation-0001", now=world.now)
    assert refused.value.code == "idempotency_key_reused"


def test_an_attempt_is_signed_and_a_429_takes_its_retry_after(world: World) -> None:
    partner = subscribed_partner(world)
    world.start(partner_match(world, partner))
    [attempt] = claim(world)
    sent: list[dict[str, str]] = []

    def sender(url: str, body: bytes, headers: dict[str, str], timeout: float) -> SendResult:
        sent.append(headers)
        return SendResult(status=429, retry_after="30")

    result = machine.perform_attempt(attempt, sender=sender, now=world.now, timeout=5, guard=GUARD)
    assert (result.status, result.retry_after) == (429, 30.0)
    assert sent[0]["webhook-id"] == attempt.event_id
    assert sent[0]["webhook-signature"].startswith("v1,")
