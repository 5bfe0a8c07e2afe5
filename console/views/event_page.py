"""Event page: the broadcast's one public link for every player and spectator (contract §15), its QR code and a
printable A4 poster; open, close and new link."""

from __future__ import annotations

import streamlit as st

from console.phone import event_poster, qr_png
from console.ui import act, client, confirmed, load, plain, show_flash, warn_if_loopback

st.title("Event page")
show_flash()
api = client()
st.caption("One link and one QR code for everyone at the venue: every court now, each player's next match with "
           "court and time (\"Called to Court 3\"), the draws and the results. It shows names, clubs, scores and "
           "times only. Phones must reach this server: run `courtside up --host 0.0.0.0` on the venue network, "
           "or set `COURTSIDE_PUBLIC_URL`.")

broadcasts = load(api.broadcasts)
if broadcasts is not None and not broadcasts:
    st.info("No broadcasts yet: create one on the Broadcasts page first.")
elif broadcasts:
    by_id = {b["id"]: b for b in broadcasts}
    chosen = st.selectbox("Broadcast", list(by_id), key="event_pick", format_func=lambda i: by_id[i]["name"])
    name = by_id[chosen]["name"]
    link = load(api.event_page, chosen)
    if link is not None:
        warn_if_loopback([link["url"]])
        left, right = st.columns([1, 2])
        with left:
            st.image(qr_png(link["url"]), width=240, caption="Scan for your next match")
        with right:
            if link["enabled"]:
                st.success("The event page is open.", icon=":material/check_circle:")
            else:
                st.warning("The event page is closed: its link answers \"not found\" until you open it.",
                           icon=":material/block:")
            st.code(link["url"], language=None, wrap_lines=True)
            if link["enabled"]:
                st.link_button("Open the event page", link["url"], icon=":material/open_in_new:")
                if st.button("Close the page", key="event_close"):
                    act(api.set_event_page, chosen, "disable", done=f"{plain(name)}: event page closed.")
            elif st.button("Open the page", key="event_open", type="primary"):
                act(api.set_event_page, chosen, "enable", done=f"{plain(name)}: event page open.")
            st.download_button("Printable A4 poster (QR code and link)", event_poster(name, link["url"]),
                               file_name="event-page-poster.html", mime="text/html", icon=":material/print:")
            if confirmed("New link", key="event_rotate",
                         question="Give the event page a new link? Printed posters and shared links stop working."):
                act(api.set_event_page, chosen, "rotate", done=f"{plain(name)}: the event page has a new link.")
