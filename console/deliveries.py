"""Pure helpers of the delivery monitor: the table, the chart series and the failure rate."""

from __future__ import annotations

from typing import Any

import pandas as pd

from domain.models import DeliveryStatus, EventType

#: "failing" is what the monitor calls a pending delivery whose last attempt failed: it is retrying after errors.
FAILING = "failing"
STATUSES = (DeliveryStatus.PENDING.value, FAILING, DeliveryStatus.DELIVERING.value, DeliveryStatus.DELIVERED.value,
            DeliveryStatus.FAILED.value)
API_STATUS = {FAILING: DeliveryStatus.PENDING.value}
EVENT_TYPES = tuple(event.value for event in EventType)
COLORS = {DeliveryStatus.PENDING.value: "#9e9e9e", FAILING: "#e8772e", DeliveryStatus.DELIVERING.value: "#f4a000",
          DeliveryStatus.DELIVERED.value: "#2e9d4f", DeliveryStatus.FAILED.value: "#d33c3c"}


def shown_status(delivery: dict[str, Any]) -> str:
    """The status an operator reads: `failing` for a delivery retrying after an error, else the API's."""
    if delivery.get("status") == DeliveryStatus.PENDING.value and delivery.get("lastError"):
        return FAILING
    return str(delivery.get("status"))


def with_shown_status(deliveries: list[dict[str, Any]], wanted: str | None = None) -> list[dict[str, Any]]:
    """The deliveries with `status` as shown (failing included), only those of `wanted` if given."""
    shown = [delivery | {"status": shown_status(delivery)} for delivery in deliveries]
    return [d for d in shown if wanted is None or d["status"] == wanted]
COLUMNS = ("createdOn", "eventType", "status", "attemptCount", "connectionID", "lastError", "nextAttemptOn", "eventID")


def table_of(deliveries: list[dict[str, Any]]) -> pd.DataFrame:
    """One row per delivery, the columns an operator scans first."""
    frame = pd.DataFrame(deliveries)
    for column in COLUMNS:
        if column not in frame:
            frame[column] = None
    return frame[list(COLUMNS)]


def failure_rate(deliveries: list[dict[str, Any]]) -> float | None:
    """Failing or failed ÷ (those + delivered); None while no delivery was attempted to an end or an error."""
    failed = sum(1 for d in deliveries if shown_status(d) in (DeliveryStatus.FAILED.value, FAILING))
    settled = failed + sum(1 for d in deliveries if d.get("status") == DeliveryStatus.DELIVERED.value)
    return failed / settled if settled else None


def _bucket(span: pd.Timedelta) -> str:
    if span <= pd.Timedelta(hours=3):
        return "min"
    if span <= pd.Timedelta(days=3):
        return "h"
    return "D"


def over_time(deliveries: list[dict[str, Any]]) -> pd.DataFrame:
    """Deliveries per time bucket (minute, hour or day, by the span shown), one column per status."""
    created = pd.to_datetime(pd.Series([d.get("createdOn") for d in deliveries]), utc=True, format="ISO8601")
    frame = pd.DataFrame({"createdOn": created, "status": [d.get("status") for d in deliveries]}).dropna()
    if frame.empty:
        return pd.DataFrame(columns=list(STATUSES))
    bucket = _bucket(frame["createdOn"].max() - frame["createdOn"].min())
    frame["time"] = frame["createdOn"].dt.floor(bucket).dt.tz_localize(None)
    counts = frame.pivot_table(index="time", columns="status", values="createdOn", aggfunc="count", fill_value=0)
    return counts.reindex(columns=[s for s in STATUSES if s in counts.columns]).astype(int)


def failure_rate_over_time(counts: pd.DataFrame) -> pd.Series:
    """Per time bucket of `over_time`: failed ÷ (delivered + failed); buckets with nothing settled are left out."""
    delivered = counts["delivered"] if "delivered" in counts else 0
    failed = (counts["failed"] if "failed" in counts else 0) + (counts["failing"] if "failing" in counts else 0)
    settled = delivered + failed
    if isinstance(settled, int):
        return pd.Series(dtype=float, name="failure rate")
    rate = (failed / settled.where(settled > 0)).dropna()
    return rate.rename("failure rate")
