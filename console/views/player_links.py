"""Players' links (contract §21): the event's switches (self check-in, self-report, confirm minutes), each person's
own link with its QR code and a new link, and the player cards to print."""

from __future__ import annotations

import streamlit as st

from console.check_in import label
from console.paper import print_button
from console.phone import qr_png
from console.player_links import Switches, confirm_words, switches_of
from console.ui import act, client, confirmed, load, plain, show_flash, warn_if_loopback

st.title("Players' links")
show_flash()
api = client()
st.caption("Each player has their own page: their next match and court, \"Called to Court 3\" within seconds, "
           "and (when you allow it) checking in and reporting their score from their phone. Hand out the link "
           "or print the player cards; a new link stops the old one at once.")

broadcasts = load(api.broadcasts)
if broadcasts is not None and not broadcasts:
    st.info("No broadcasts yet: create one on the Broadcasts page first.")
elif broadcasts:
    by_id = {b["id"]: b for b in broadcasts}
    chosen = st.selectbox("Broadcast", list(by_id), key="me_broadcast", format_func=lambda i: by_id[i]["name"])
    broadcast = by_id[chosen]
    now = switches_of(broadcast)

    st.subheader("What players may do from their page")
    self_check_in = st.toggle("Players check themselves in", value=now.self_check_in, key=f"me_checkin_{chosen}")
    self_report = st.toggle("Players report their results", value=now.self_report, key=f"me_report_{chosen}",
                            help="The opponent confirms on their page; a dispute goes to the desk "
                                 "(\"Results to check\" on the Court board).")
    minutes = st.number_input("Confirm an unanswered report after (minutes; 0: never)", min_value=0,
                              max_value=120, step=5, value=now.confirm_minutes, key=f"me_minutes_{chosen}")
    st.caption(confirm_words(int(minutes)))
    wanted = Switches(self_check_in, self_report, int(minutes))
    if st.button("Save", key="me_save", type="primary", disabled=wanted == now):
        act(api.set_event_day, chosen, wanted.body(), done=f"{plain(broadcast['name'])}: players' page rules saved.")

    st.subheader("Each player's link")
    people = load(api.people, chosen) or []
    if not people:
        st.caption("Nobody yet: players appear here once they are in a match of this broadcast.")
    else:
        by_person = {p["personID"]: p for p in people}
        person = st.selectbox("Player", list(by_person), key=f"me_person_{chosen}",
                              format_func=lambda i: label(by_person[i]))
        link = load(api.personal_link, chosen, person)
        if link is not None:
            warn_if_loopback([link["url"]])
            left, right = st.columns([1, 2])
            name = by_person[person]["name"]
            with left:
                st.image(qr_png(link["url"]), width=200, caption=f"{name}: scan for your page")
            with right:
                st.code(link["url"], language=None, wrap_lines=True)
                st.link_button("Open their page", link["url"], icon=":material/open_in_new:")
                if confirmed("New link", key=f"me_rotate_{person}",
                             question=f"Give {plain(name)} a new link? Their printed card and the old link stop "
                                      "working."):
                    act(api.rotate_personal_link, chosen, person, done=f"{plain(name)} has a new link.")
        print_button(api, broadcast, "player-cards")
