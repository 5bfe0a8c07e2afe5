"""Rosters (contract §9a): individual and team rosters; an individual roster's self-registration switch with its
sign-up link, QR code to print for the desk, and who signed up. A roster made for a broadcast becomes that
broadcast's player list (its courts pick players from it) when the broadcast has none yet."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from console.phone import show_sign_ups
from console.ui import (
    act,
    client,
    confirmed,
    field_errors,
    form_key,
    form_problem,
    load,
    plain,
    show_flash,
    submit,
    warn_if_loopback,
)
from domain.models import RosterType

ROSTER_TYPES = {RosterType.INDIVIDUAL.value: "Individual players", RosterType.TEAM.value: "Teams"}

st.title("Rosters")
show_flash()
st.caption("A roster is who plays: an **individual** roster has its own player list (see Players) and can let "
           "players sign up themselves from their phone; a **team** roster groups players into teams.")
api = client()

broadcasts = load(api.broadcasts) or []
names = {b["id"]: b["name"] for b in broadcasts}

with st.expander("New roster", expanded=False):
    with st.form("roster_new", clear_on_submit=False):
        form_problem("rn")
        name = st.text_input("Name", max_chars=120, key=form_key("rn", "name"))
        field_errors("rn", "name")
        kind = st.radio("Type", list(ROSTER_TYPES), horizontal=True, key=form_key("rn", "type"),
                        format_func=ROSTER_TYPES.__getitem__)
        broadcast = st.selectbox("For broadcast", [""] + list(names), key=form_key("rn", "broadcast"),
                                 format_func=lambda i: names.get(i, "None"),
                                 help="Its player list becomes the broadcast's list when the broadcast has none.")
        open_now = st.checkbox("Players may sign up themselves (individual rosters)", key=form_key("rn", "self"))
        if st.form_submit_button("Create roster"):
            body: dict[str, Any] = {"name": name.strip(), "type": kind}
            if broadcast:
                body["broadcastID"] = broadcast
            if open_now and kind == RosterType.INDIVIDUAL:
                body["selfRegistrationEnabled"] = True
            submit("rn", api.create_roster, body, done=f"Roster {plain(name.strip())} created.")

rosters = load(api.rosters)
if rosters is not None and not rosters:
    st.info("No rosters yet: create one above.")
if not rosters:
    st.stop()

st.dataframe(pd.DataFrame([{
    "Name": r["name"], "Type": r.get("rosterType"), "Players": r.get("playerCount", 0),
    "Self-registration": "on" if r.get("selfRegistrationEnabled") else "off",
} for r in rosters]), hide_index=True, width="stretch")

by_id = {r["id"]: r for r in rosters}
roster_id = st.selectbox("Roster", list(by_id), key="roster_pick", format_func=lambda i: by_id[i]["name"])
roster = by_id[roster_id]

with st.form(f"roster_rename_{roster_id}"):
    new_name = st.text_input("Name", value=roster["name"], max_chars=120, key=f"roster_name_{roster_id}")
    if st.form_submit_button("Rename roster"):
        if new_name.strip() and new_name.strip() != roster["name"]:
            act(api.update_roster, roster_id, {"name": new_name.strip()}, done=f"Roster {plain(new_name)} renamed.")
        else:
            st.info("Nothing changed.")

if roster.get("rosterType") != RosterType.INDIVIDUAL:
    st.caption("Team rosters have no self-registration: players join a team through its player list.")
else:
    enabled = bool(roster.get("selfRegistrationEnabled"))
    wanted = st.toggle("Self-registration: players sign up from their phone", value=enabled,
                       key=f"roster_self_{roster_id}")
    if wanted != enabled:
        act(api.update_roster, roster_id, {"selfRegistrationEnabled": wanted},
            done=f"Self-registration of {plain(roster['name'])} is {'on' if wanted else 'off'}.")
    if enabled:
        lists = {pl["id"]: pl for pl in load(api.player_lists) or []}
        link = load(api.registration_link, roster_id) or {}
        warn_if_loopback([link.get("url") or ""])
        show_sign_ups(api, roster, lists.get((roster.get("source") or {}).get("playerListID", "")))
        if confirmed("New sign-up link", key=f"roster_rotate_{roster_id}",
                     question="Give this roster a new sign-up link? The old link and its printed QR code stop "
                              "working at once."):
            act(api.rotate_registration_link, roster_id, done=f"{plain(roster['name'])}: new sign-up link.")
    else:
        st.caption("Self-registration is off: nobody can sign up, and the sign-up link shows \"page not found\". "
                   "Turning it on brings the same link back.")
