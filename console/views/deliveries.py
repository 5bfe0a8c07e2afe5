"""Deliveries: every webhook delivery, filterable; one delivery's payload and attempts; retry; a chart over time.

The failure rate is failed ÷ settled (delivered + failed) among the deliveries shown.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from console.client import MAX_DELIVERIES
from console.deliveries import (
    API_STATUS,
    COLORS,
    EVENT_TYPES,
    STATUSES,
    failure_rate,
    failure_rate_over_time,
    over_time,
    table_of,
    with_shown_status,
)
from console.mail_view import mail_section
from console.ui import act, client, load, plain, show_flash

ALL = "(all)"

st.title("Deliveries")
show_flash()
api = client()
mail_section(api)

connections = load(api.connections) or []
status_col, type_col, connection_col = st.columns(3)
status = status_col.selectbox("Status", [ALL, *STATUSES], key="dlv_status")
event_type = type_col.selectbox("Event type", [ALL, *EVENT_TYPES], key="dlv_type")
names = {c["connectionID"]: f"{c.get('appName') or c.get('kind', '')} · {c['connectionID']}" for c in connections}
connection = connection_col.selectbox("Connection", [ALL, *names], key="dlv_connection",
                                      format_func=lambda i: names.get(i, i))

if connection != ALL:
    chosen = next(c for c in connections if c["connectionID"] == connection)
    url_col, retry_col = st.columns([3, 1])
    url_col.text(f"Webhook URL: {chosen.get('webhookURL') or 'none set'}")
    if retry_col.button("Retry all failing", key="dlv_retry_failing", disabled=not chosen.get("webhookURL"),
                        help="Once the receiver is back: send every failing or failed delivery of this connection "
                             "again now, oldest first."):
        retried = act(api.retry_failing, connection, done="", rerun=False)
        if retried is not None:
            st.session_state["_flash"] = f"{retried['retried']} failing deliveries will be sent again now."
            st.rerun()
elif connections:
    with st.expander("Webhook URLs"):
        for item in connections:
            st.text(f"{names[item['connectionID']]}: {item.get('webhookURL') or 'none set'}")

raw = load(api.deliveries, status=None if status == ALL else API_STATUS.get(status, status),
           event_type=None if event_type == ALL else event_type,
           connection_id=None if connection == ALL else connection)
deliveries = None if raw is None else with_shown_status(raw, None if status == ALL else status)
if deliveries is not None and not deliveries:
    st.info("No deliveries match these filters. Events are delivered once a connection sets a webhook URL.")
elif deliveries:
    rate = failure_rate(deliveries)
    if len(deliveries) >= MAX_DELIVERIES:
        st.caption(f"Showing the newest {MAX_DELIVERIES} deliveries; narrow the filters to see older ones.")
    total, delivered, failing, failed, rate_metric = st.columns(5)
    total.metric("Deliveries", len(deliveries))
    delivered.metric("Delivered", sum(1 for d in deliveries if d["status"] == "delivered"))
    failing.metric("Failing (retrying)", sum(1 for d in deliveries if d["status"] == "failing"))
    failed.metric("Failed", sum(1 for d in deliveries if d["status"] == "failed"))
    rate_metric.metric("Failure rate", "n/a" if rate is None else f"{rate:.0%}",
                       help="(failing + failed) ÷ (delivered + failing + failed)")
    counts = over_time(deliveries)
    chart, rate_chart = st.columns([2, 1])
    with chart:
        st.markdown("**Deliveries over time, by status**")
        st.bar_chart(counts, y_label="deliveries", stack=True, color=[COLORS[c] for c in counts.columns])
    with rate_chart:
        st.markdown("**Failure rate over time**")
        rates = failure_rate_over_time(counts)
        draw = st.line_chart if len(rates) > 1 else st.scatter_chart  # one point draws no line
        draw(rates, y_label="failed ÷ settled", color=COLORS["failed"])
    st.dataframe(table_of(deliveries), hide_index=True, width="stretch")

    by_id: dict[str, dict[str, Any]] = {d["eventID"]: d for d in deliveries}
    event_id = st.selectbox("Delivery", list(by_id), key="dlv_pick",
                            format_func=lambda i: f"{by_id[i]['eventType']} · {by_id[i]['status']} · {i}")
    detail = load(api.delivery, event_id)
    if detail is not None:
        left, right = st.columns(2)
        with left:
            st.markdown(f"**{detail['eventType']}**: {detail['status']}, {detail.get('attemptCount', 0)} attempt(s)")
            if detail.get("lastError"):
                st.text(f"Last error: {detail['lastError']}")
            if st.button("Retry now", key="dlv_retry", disabled=detail["status"] == "delivering"):
                outcome = act(api.retry_delivery, event_id, done="", rerun=False)
                if outcome is not None and outcome["status"] == "delivered":
                    st.session_state["_flash"] = f"Delivery {event_id} delivered."
                    st.rerun()
                elif outcome is not None:
                    st.session_state.pop("_flash", None)
                    st.error(f"The retry failed too ({plain(outcome.get('lastError') or outcome['status'])}). "
                             + (f"The next automatic attempt stays at {outcome['nextAttemptOn']}."
                                if outcome.get("nextAttemptOn") else "No automatic attempt is left."))
            st.markdown("**Attempts**")
            attempts = detail.get("attempts") or []
            if attempts:
                st.dataframe(attempts, hide_index=True, width="stretch")
            else:
                st.caption("No attempt yet.")
        with right:
            st.markdown("**Payload**")
            st.json(detail.get("payload") or {})
