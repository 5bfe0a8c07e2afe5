"""The Courtside operator console: `streamlit run console/app.py` (or `courtside console` / `courtside up`)."""

from __future__ import annotations

import streamlit as st

from console.client import ConsoleError
from console.ui import client, no_traceback

st.set_page_config(page_title="Courtside console", page_icon=":material/sports_tennis:", layout="wide")

PAGES = [
    st.Page("views/court_board.py", title="Court board", icon=":material/grid_view:", default=True),
    st.Page("views/check_in.py", title="Check-in", icon=":material/how_to_reg:", url_path="check-in"),
    st.Page("views/scoring.py", title="Scoring", icon=":material/scoreboard:", url_path="scoring"),
    st.Page("views/results_entry.py", title="Results entry", icon=":material/edit_note:", url_path="results-entry"),
    st.Page("views/import_schedule.py", title="Import schedule", icon=":material/upload_file:",
            url_path="import"),
    st.Page("views/draws.py", title="Draws", icon=":material/account_tree:", url_path="draws"),
    st.Page("views/order_of_play.py", title="Order of play", icon=":material/calendar_view_week:",
            url_path="order-of-play"),
    st.Page("views/results.py", title="Results", icon=":material/emoji_events:", url_path="results"),
    st.Page("views/deliveries.py", title="Deliveries", icon=":material/outbox:", url_path="deliveries"),
    st.Page("views/integrations.py", title="Integrations", icon=":material/hub:", url_path="integrations"),
    st.Page("views/broadcasts.py", title="Broadcasts and courts", icon=":material/live_tv:", url_path="broadcasts"),
    st.Page("views/rosters.py", title="Rosters", icon=":material/groups:", url_path="rosters"),
    st.Page("views/players.py", title="Players", icon=":material/person:", url_path="players"),
    st.Page("views/outputs.py", title="Outputs", icon=":material/cast:", url_path="outputs"),
    st.Page("views/phones.py", title="Phones", icon=":material/smartphone:", url_path="phones"),
    st.Page("views/event_page.py", title="Event page", icon=":material/qr_code_2:", url_path="event-page"),
    st.Page("views/player_links.py", title="Players' links", icon=":material/badge:", url_path="player-links"),
    st.Page("views/audit.py", title="Audit", icon=":material/history:", url_path="audit"),
]

page = st.navigation(PAGES)
api = client()
st.sidebar.caption(f"API: {api.api_url}")
try:
    api.check()
except ConsoleError as exc:
    # One clear message instead of every page failing call by call.
    st.sidebar.caption(":red[:material/cancel:] not connected")
    st.title("Courtside console")
    st.error(f"{exc} Reload the page to try again.", icon=":material/error:")
    st.stop()
st.sidebar.caption(":green[:material/check_circle:] connected")
with no_traceback(f"the {page.title} page"):
    page.run()
