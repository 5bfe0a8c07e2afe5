"""Audit: who changed what, when, and why (contract §16), newest first, with the API's filters (what kind of
record, which one by its name, who, since when). Each entry's before and after are shown whole on request."""

from __future__ import annotations

import json
from datetime import UTC, datetime, time

import pandas as pd
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
known = history.records(api)
labels = history.flat(known)
first, second, third = st.columns(3)
target_type = first.selectbox("Record", list(TARGETS), format_func=TARGETS.__getitem__, key="audit_target")
actor_kind = second.selectbox("Who", list(ACTORS), format_func=ACTORS.__getitem__, key="audit_actor")
pickable = known.get(target_type) or {}
target_id = ""
if pickable:  # one record of the kind chosen, by its name (players and court for a match), never by its ID
    choices = {"": f"Every one of them ({len(pickable)})"} | dict(sorted(pickable.items(), key=lambda kv: kv[1]))
    target_id = third.selectbox(TARGETS[target_type], list(choices), format_func=choices.__getitem__,
                                key=f"audit_pick_{target_type}")
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
        st.caption(f"{len(entries)} newest entries" + (f" (at most {SHOWN})" if len(entries) >= SHOWN else ""))
        # every matching entry, not only the newest 200 shown (issue 51): as a table (CSV) and as the log keeps
        # them, hashes included (JSON Lines, what `courtside audit verify` checks)
        filters = (target_type, target_id, actor_kind, since)
        if st.button("Export every matching entry", key="audit_export", icon=":material/download:"):
            every = load(api.audit, target_type=target_type or None, target_id=target_id or None,
                         actor_kind=actor_kind or None, since=since, max_items=10_000_000)
            if every is not None:
                st.session_state["audit_exported"] = (filters, every)
        exported = st.session_state.get("audit_exported")
        if exported and exported[0] == filters:
            every = list(reversed(exported[1]))  # oldest first, as the chain runs
            csv_column, jsonl_column = st.columns(2)
            csv_column.download_button(
                f"Download {len(every)} entries (CSV)", key="audit_csv", mime="text/csv", file_name="audit.csv",
                data=pd.DataFrame(history.rows(every, labels, record=True)).to_csv(index=False).encode("utf-8-sig"))
            jsonl_column.download_button(
                f"Download {len(every)} entries (JSON Lines)", key="audit_jsonl", mime="application/x-ndjson",
                file_name="audit.jsonl",
                data="".join(json.dumps(entry, ensure_ascii=False) + "\n" for entry in every).encode("utf-8"))
        st.dataframe(history.rows(entries, labels, record=True), hide_index=True, width="stretch")
        by_seq = {e["seq"]: e for e in entries}
        seq = st.selectbox("Entry", list(by_seq), key="audit_entry",
                           format_func=lambda s: f"#{s} · {history.what(by_seq[s])} · "
                                                 f"{history.record_name(by_seq[s]['target'], labels)}")
        chosen = by_seq[seq]
        st.markdown(f"**{plain(history.what(chosen))}** of {plain(history.record_name(chosen['target'], labels))} "
                    f"by {plain(history.who(chosen, labels))}")
        st.caption(f"Change: {plain(history.change(chosen, labels) or '-')}")
        if chosen.get("reason"):  # in full: the table's cell cuts a long reason short (issue 35)
            st.markdown(f"**Reason:** {plain(chosen['reason'])}")
        with st.expander("Technical details (as the log keeps them)"):
            before, after = st.columns(2)
            before.caption("Before")
            before.json(chosen.get("before"))
            after.caption("After")
            after.json(chosen.get("after"))
            st.caption(f"record {chosen['target']['type']} {chosen['target']['id']} · actor "
                       f"{chosen['actor']['kind']} {chosen['actor']['id']} · request {chosen.get('requestID') or '-'}"
                       f" · hash {chosen['hash']} · previous {chosen['prevHash']}")
