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
with st.sidebar:
    api = client()
    st.caption(f"API: {api.api_url}")
    try:
        api.health()
        st.caption("🟢 connected")
    except ConsoleError:
        st.caption("🔴 API unreachable")
page.run()
