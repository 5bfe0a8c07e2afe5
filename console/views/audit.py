"""Audit: who changed what, when, and why (contract §16), newest first, with the API's filters (what kind of
record, which record, who, since when). Each entry's before and after are shown whole on request."""

from __future__ import annotations

from datetime import UTC, datetime, time

import streamlit as st

from console import history
from console.ui import client, load, plain, show_flash

TARGETS = {"": "Anything", "match": "Matches", "table": "Court queues", "link": "Links", "output": "Output links",
           "key": "Operator key", "connection": "Connections and developer keys", "app": "Apps",
           "roster": "Sign-ups", "draw": "Draws", "person": "Check-ins", "broadcast": "Event settings"}
ACTORS = {"": "Anyone", "operator": "Operator", "partner": "Partner", "scorer": "Scorer links",
          "registration": "Sign-up pages", "system": "Courtside"}
SHOWN = 200

st.title("Audit")
show_flash()
st.caption("Every change to matches, draws, check-ins, event settings, links, keys, apps and connections, with who "
           "made it and why. Entries are chained by hashes: `courtside audit verify` checks that none was changed, "
           "removed or reordered.")
api = client()
first, second, third = st.columns(3)
target_type = first.selectbox("Record", list(TARGETS), format_func=TARGETS.__getitem__, key="audit_target")
actor_kind = second.selectbox("Who", list(ACTORS), format_func=ACTORS.__getitem__, key="audit_actor")
target_id = third.text_input("Record ID", key="audit_target_id", max_chars=500,
                             placeholder="mat_…, scorer:tbl_…, conn_…").strip()
use_since = st.toggle("Only since", key="audit_use_since")
since: str | None = None
if use_since:
    day_column, time_column = st.columns(2)
    day = day_column.date_input("Day", key="audit_since_day")
    moment = time_column.time_input("Time (UTC)", value=time(0, 0), key="audit_since_time")
    since = datetime.combine(day, moment, tzinfo=UTC).isoformat().replace("+00:00", "Z")

entries = load(api.audit, target_type=target_type or None, target_id=target_id or None,
               actor_kind=actor_kind or None, since=since, max_items=SHOWN)
if entries is not None:
    if not entries:
        st.info("No entry matches these filters.")
    else:
        labels = {t["id"]: t["label"] for t in load(api.tables) or []}
        st.caption(f"{len(entries)} newest entries" + (f" (at most {SHOWN})" if len(entries) >= SHOWN else ""))
        st.dataframe(history.rows(entries, labels, record=True), hide_index=True, width="stretch")
        by_seq = {e["seq"]: e for e in entries}
        seq = st.selectbox("Entry", list(by_seq), key="audit_entry",
                           format_func=lambda s: f"#{s} · {history.what(by_seq[s])} · {by_seq[s]['target']['id']}")
        chosen = by_seq[seq]
        st.markdown(f"**{plain(history.what(chosen))}** by {plain(history.who(chosen, labels))}, request "
                    f"{plain(chosen.get('requestID') or '-')}")
        before, after = st.columns(2)
        before.caption("Before")
        before.json(chosen.get("before"))
        after.caption("After")
        after.json(chosen.get("after"))
        st.caption(f"hash {chosen['hash']} · previous {chosen['prevHash']}")
