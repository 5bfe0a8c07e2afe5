"""Phones: each court's scorer link with its QR code (rotate, revoke, one printable sheet) and each roster's
sign-up link with its QR code and the players who signed up."""

from __future__ import annotations

from typing import Any

import streamlit as st

from console.paper import print_button
from console.phone import qr_png
from console.ui import act, client, confirmed, load, plain, show_flash, warn_if_loopback

st.title("Phones: scorers and sign-ups")
show_flash()
api = client()

st.caption("Hand each umpire the QR code of their court: the link can score that court's matches and nothing "
           "else. Phones must reach this server: run `courtside up --host 0.0.0.0` on the venue network "
           "(that exposes the API and the console to everyone on it).")

st.subheader("Scorer links")
tables = load(api.tables) or []
links: list[dict[str, Any]] = []
for table in tables:
    link = load(api.scorer_link, table["id"])
    if link is not None:
        links.append(link)
warn_if_loopback([link["url"] for link in links if link.get("url")])
if not links:
    st.info("No courts yet: create a broadcast with courts first.")
else:
    broadcasts = load(api.broadcasts) or []
    for broadcast in broadcasts:  # one A4 sheet per event: its courts' codes, sign-up and event page
        print_button(api, broadcast, "qr", named=len(broadcasts) > 1)
    columns = st.columns(4)
    for index, link in enumerate(links):
        with columns[index % 4], st.container(border=True):
            st.markdown(f"#### {plain(link['tableLabel'])}")
            if link["url"]:
                st.image(qr_png(link["url"]), width=180)
                st.code(link["url"], language=None, wrap_lines=True)
            else:
                st.caption("Revoked: rotate to give this court a new link.")
            court = plain(link["tableLabel"])
            if confirmed("Rotate", key=f"rotate_{link['tableID']}", help="A new link; the old one stops at once.",
                         question=f"Give {court} a new scorer link? The old link and its printed QR code stop "
                                  "working at once."):
                act(api.rotate_scorer_link, link["tableID"], done=f"{link['tableLabel']}: new scorer link.")
            if link["url"] and confirmed("Revoke", key=f"revoke_{link['tableID']}", help="The link stops at once.",
                                         question=f"Revoke {court}'s scorer link? Phones scoring it stop at once."):
                act(api.revoke_scorer_link, link["tableID"], done=f"{link['tableLabel']}: scorer link revoked.")
