"""The Courtside operator console: `streamlit run console/app.py` (or `courtside console` / `courtside up`)."""

from __future__ import annotations

import streamlit as st

from console.client import ConsoleError
from console.ui import client

st.set_page_config(page_title="Courtside console", page_icon="🏓", layout="wide")

PAGES = [
    st.Page("views/court_board.py", title="Court board", icon="🏟️", url_path="board", default=True),
    st.Page("views/scoring.py", title="Scoring", icon="🏓", url_path="scoring"),
    st.Page("views/deliveries.py", title="Deliveries", icon="📬", url_path="deliveries"),
    st.Page("views/integrations.py", title="Integrations", icon="🔌", url_path="integrations"),
    st.Page("views/broadcasts.py", title="Broadcasts and rosters", icon="📺", url_path="broadcasts"),
]

page = st.navigation(PAGES)
api = client()
st.sidebar.caption(f"API: {api.api_url}")
try:
    api.health()
except ConsoleError as exc:
    # One clear message instead of every page failing call by call.
    st.sidebar.caption("🔴 API unreachable")
    st.title("Courtside console")
    st.error(f"{exc} The console retries when you reload the page.", icon="⚠️")
    st.stop()
if not api.operator_key:
    st.title("Courtside console")
    st.error("No operator key: set COURTSIDE_OPERATOR_KEY, or COURTSIDE_DATA_DIR to the folder with operator.key.",
             icon="🔑")
    st.stop()
st.sidebar.caption("🟢 connected")
page.run()
