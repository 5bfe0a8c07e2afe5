"""Check-in: the desk at the entrance. Type three letters, tap the name, done; counts of present and expected;
the event-day rules (check-in required, rest between matches); a printable sign-in sheet (contract §14)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from console.check_in import counts, label, now_text
from console.paper import print_button
from console.ui import act, client, load, plain, show_flash

st.title("Check-in")
show_flash()
api = client()

broadcasts = load(api.broadcasts)
if broadcasts is not None and not broadcasts:
    st.info("No broadcasts yet: create one on the Broadcasts page first.")
elif broadcasts:
    by_id = {b["id"]: b for b in broadcasts}
    chosen = st.selectbox("Broadcast", list(by_id), key="checkin_broadcast", format_func=lambda i: by_id[i]["name"])
    broadcast = by_id[chosen]
    people = load(api.people, chosen) or []
    present, expected = counts(people)
    left, right = st.columns(2)
    left.metric("Present", f"{present} / {expected}")
    rules = broadcast.get("eventDay") or {"requireCheckIn": False, "restMinutes": 0}
    right.metric("Start only checked-in players", "yes" if rules["requireCheckIn"] else "no")

    turn = st.session_state.setdefault("checkin_turn", 0)  # a new key empties the search after each check-in
    waiting = {p["personID"]: p for p in people if not p["checkedIn"]}
    picked = st.selectbox("Check in", list(waiting), index=None, key=f"checkin_pick_{turn}",
                          format_func=lambda i: label(waiting[i]),
                          placeholder="Type three letters of the name, then tap it",
                          help="Only players not yet checked in are listed.")
    if picked is not None:
        st.session_state["checkin_turn"] = turn + 1
        act(api.check_in, chosen, picked, done=f"{plain(waiting[picked]['name'])} is checked in.")

    if people:
        table = pd.DataFrame([{"Here": "✓" if p["checkedIn"] else "", "Name": p["name"], "Club": p.get("club") or "",
                               "Now": now_text(p)} for p in people])
        st.dataframe(table, hide_index=True, width="stretch")
        here = {p["personID"]: p for p in people if p["checkedIn"]}
        with st.expander("Undo a check-in"):
            gone = st.selectbox("Not here after all", list(here), index=None, key=f"checkout_pick_{turn}",
                                format_func=lambda i: label(here[i]), placeholder="Pick a name")
            if gone is not None and st.button("Mark as not here", key="checkout_go"):
                st.session_state["checkin_turn"] = turn + 1
                act(api.check_in, chosen, gone, False, done=f"{plain(here[gone]['name'])} is no longer checked in.")
        print_button(api, broadcast, "sign-in")
    else:
        st.caption("Nobody yet: players appear here once they are in a match of this broadcast.")

    with st.expander("Event-day rules"):
        require = st.toggle("Start only players who checked in", value=rules["requireCheckIn"], key="rule_checkin")
        rest = st.number_input("Rest between a player's matches (minutes)", min_value=0, max_value=240, step=5,
                               value=int(rules["restMinutes"]), key="rule_rest")
        if st.button("Save the rules", key="rule_save"):
            act(api.set_event_day, chosen, {"requireCheckIn": require, "restMinutes": int(rest)},
                done="Event-day rules saved.")
