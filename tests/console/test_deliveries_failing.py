"""The delivery monitor while a receiver fails (console-trial issue, items 10 and 11): deliveries retrying after
errors count and filter as failing, a manual retry shows its real outcome, and "Retry all failing" sends them
again once the receiver is back. A real server with a real schedule (retries 10 minutes apart), a real receiver."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.console.conftest import Operator, Partner, texts
from tests.console.test_pages import Console, click, pick, started_match
from tests.eventually import eventually
from tests.server_process import ServerProcess
from tests.webhook_receiver import Receiver, Reply


@pytest.fixture
def server(server_factory: Callable[..., ServerProcess]) -> ServerProcess:
    return server_factory(env={"COURTSIDE_WEBHOOK_RETRY_SCHEDULE": "0,600,600", "COURTSIDE_WEBHOOK_TIMEOUT": "5"})


def failing_delivery(partner: Partner, operator_api: Operator, receiver: Receiver) -> dict[str, object]:
    receiver.default = Reply(500)
    partner.webhook(receiver.url)
    started_match(partner, operator_api)
    receiver.wait_for(1)
    deliveries = eventually(lambda: [d for d in operator_api.data("GET", "/operator/webhooks") if d.get("lastError")])
    assert [(d["status"], d["lastError"]) for d in deliveries] == [("pending", "HTTP 500")]
    return dict(deliveries[0])


def test_a_delivery_retrying_after_errors_counts_and_filters_as_failing(
    console: Console, partner: Partner, operator_api: Operator, receiver: Receiver,
) -> None:
    failing_delivery(partner, operator_api, receiver)
    app = console("views/deliveries.py")
    assert list(app.dataframe[0].value["status"]) == ["failing"]
    metrics = {m.label: m.value for m in app.metric}
    assert metrics["Failing (retrying)"] == "1" and metrics["Failure rate"] == "100%"
    pick(app, "dlv_status", "failing")
    assert list(app.dataframe[0].value["status"]) == ["failing"]
    pick(app, "dlv_status", "pending")
    assert texts(app, "info")[0].startswith("No deliveries match these filters.")


def test_retry_now_shows_the_real_outcome_and_keeps_the_schedule(
    console: Console, partner: Partner, operator_api: Operator, receiver: Receiver,
) -> None:
    delivery = failing_delivery(partner, operator_api, receiver)
    app = console("views/deliveries.py")
    click(app, "dlv_retry")
    assert not texts(app, "success")
    assert any("The retry failed too (HTTP 500)" in text and str(delivery["nextAttemptOn"]) in text
               for text in texts(app, "error")), texts(app, "error")
    after = operator_api.data("GET", f"/operator/webhooks/{delivery['eventID']}")
    assert (after["attemptCount"], after["nextAttemptOn"]) == (2, delivery["nextAttemptOn"])


def test_retry_all_failing_sends_them_again_once_the_receiver_is_back(
    console: Console, partner: Partner, operator_api: Operator, receiver: Receiver,
) -> None:
    failing_delivery(partner, operator_api, receiver)
    app = console("views/deliveries.py")
    pick(app, "dlv_connection", partner.connection_id)
    assert any(f"Webhook URL: {receiver.url}" == text for text in texts(app, "text"))
    receiver.default = Reply(200)
    click(app, "dlv_retry_failing")
    assert "1 failing deliveries will be sent again now." in texts(app, "success")
    settled = operator_api.settled_deliveries(1)
    assert [d["status"] for d in settled] == ["delivered"]
