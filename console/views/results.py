"""Results: every completed match of a broadcast (court, event, round, sides, games, winner, minutes), as a table
and as the API's CSV download."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from console.board import clock_time
from console.ui import client, load, plain, show_flash

COLUMNS = {"court": "Court", "event": "Event", "round": "Round", "sideA": "Side A", "sideB": "Side B",
           "games": "Games", "won": "Games won", "winnerNames": "Winner", "finished": "Finished",
           "minutes": "Minutes"}

st.title("Results")
show_flash()
api = client()
broadcasts = load(api.broadcasts)
if broadcasts is not None and not broadcasts:
    st.info("No broadcast yet.")
for broadcast in broadcasts or []:
    st.subheader(plain(broadcast["name"]))
    rows = load(api.results, broadcast["id"])
    if rows is None:
        continue
    if not rows:
        st.caption("No completed match yet.")
        continue
    frame = pd.DataFrame(rows)
    frame["won"] = frame["gamesA"].astype(str) + "–" + frame["gamesB"].astype(str)
    frame["finished"] = frame["completedOn"].map(clock_time)
    st.dataframe(frame[list(COLUMNS)].rename(columns=COLUMNS), hide_index=True, width="stretch")
    csv = load(api.results_csv, broadcast["id"])
    if csv is not None:
        st.download_button(f"Download results of {broadcast['name']} (CSV)", csv, key=f"results_{broadcast['id']}",
                           file_name=f"results-{broadcast['id']}.csv", mime="text/csv",
                           icon=":material/download:")
