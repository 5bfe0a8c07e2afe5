"""Statuses are one StrEnum each, used by models, schemas, the console and storage alike."""

from __future__ import annotations

from api.schemas.matches import MatchRead
from api.schemas.webhooks import DeliveryQuery, DeliverySchema
from console.deliveries import STATUSES
from domain.models import DeliveryStatus, MatchStatus


def test_match_read_documents_the_match_statuses() -> None:
    assert list(MatchRead().fields["status"].validate.choices) == ["pending", "active", "completed"]  # type: ignore[union-attr]
    assert [status.value for status in MatchStatus] == ["pending", "active", "completed"]


def test_delivery_schemas_and_console_use_the_delivery_statuses() -> None:
    expected = ["pending", "delivering", "delivered", "failed"]
    assert [status.value for status in DeliveryStatus] == expected
    assert list(DeliverySchema().fields["status"].validate.choices) == expected  # type: ignore[union-attr]
    # the list filter adds `failing` (contract: failed, or pending again after a failed attempt)
    assert list(DeliveryQuery().fields["status"].validate.choices) == [*expected, "failing"]  # type: ignore[union-attr]
    assert [s for s in STATUSES if s != "failing"] == expected


def test_a_status_is_its_plain_string_on_the_wire() -> None:
    active: str = MatchStatus.ACTIVE  # a StrEnum member is a str, equal to its value
    assert active == "active" and f"{DeliveryStatus.FAILED}" == "failed"
