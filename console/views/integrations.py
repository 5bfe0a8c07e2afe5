"""Integrations: partner apps (client secret shown once), connections and revoke, developer keys (shown once)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from console.ui import act, client, confirmed, load, one_time_secret, show_flash
from domain.models import ConnectionKind

NEW_APP, NEW_KEY = "_new_app_secret", "_new_developer_key"

st.title("Integrations")
show_flash()
api = client()

st.subheader("Apps")
one_time_secret(NEW_APP, "Client secret of the new app")
apps = load(api.apps)
if apps is not None:
    if apps:
        st.dataframe(pd.DataFrame(apps), hide_index=True, width="stretch")
    else:
        st.info("No apps registered yet.")
with st.form("app_form", clear_on_submit=True):
    st.markdown("**Register an app**")
    name = st.text_input("Name", max_chars=120, key="app_name")
    uris = st.text_area("Redirect URIs (one a line)", key="app_uris")
    scope = st.text_input("Scopes (space-separated; all when empty)", key="app_scope")
    if st.form_submit_button("Register app"):
        created = act(api.create_app, name.strip(), [u.strip() for u in uris.splitlines() if u.strip()],
                      scope.strip() or None, done="App registered.", rerun=False)
        if created is not None:
            st.session_state[NEW_APP] = created
            st.rerun()

st.subheader("Connections")
connections = load(api.connections)
if connections is not None:
    if not connections:
        st.info("No connections yet: approve an app or create a developer key.")
    else:
        frame = pd.DataFrame(connections)
        if "scopes" in frame:
            frame["scopes"] = frame["scopes"].map(lambda s: " ".join(s or []))
        st.dataframe(frame, hide_index=True, width="stretch")
        st.caption("The house connection holds the matches and broadcasts made here in the console; it stays.")
        live = {c["connectionID"]: c for c in connections
                if not c.get("revokedOn") and c.get("kind") != ConnectionKind.HOUSE}
        if live:
            picked = st.selectbox("Connection", list(live), key="conn_pick",
                                  format_func=lambda i: f"{live[i].get('appName') or live[i].get('kind')} · {i}")
            if confirmed("Revoke connection", key="conn_revoke",
                         question=f"Revoke connection {picked} and all of its tokens? Its app stops at once."):
                act(api.revoke_connection, picked, done=f"Connection {picked} revoked.")

st.subheader("Developer keys")
one_time_secret(NEW_KEY, "New developer key")
with st.form("key_form", clear_on_submit=True):
    key_name = st.text_input("Name", max_chars=120, key="key_name")
    key_scope = st.text_input("Scopes (space-separated; all when empty)", key="key_scope")
    if st.form_submit_button("Create developer key"):
        made = act(api.create_key, key_name.strip() or None, key_scope.strip() or None,
                   done="Developer key created.", rerun=False)
        if made is not None:
            st.session_state[NEW_KEY] = made
            st.rerun()
