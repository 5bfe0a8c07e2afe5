"""Results: every completed match of a broadcast (court, event, round, sides, games, winner, minutes), as a table
and as the API's CSV download."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from console.board import clock_time
from console.history import match_history
from console.paper import print_button
from console.results_entry import result_words
from console.scoring import score_line
from console.ui import client, load, match_label, plain, show_flash

COLUMNS = {"court": "Court", "event": "Event", "round": "Round", "sideA": "Side A", "sideB": "Side B",
           "games": "Games", "won": "Games won", "winnerNames": "Winner", "finished": "Finished",
           "minutes": "Minutes"}

st.title("Results")
show_flash()
api = client()
broadcasts = load(api.broadcasts)
tables = load(api.tables) or []
completed = load(api.completed_matches) or [] if broadcasts else []
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
    courts = {t["id"] for t in tables if t.get("broadcastID") == broadcast["id"]}
    # a draw's match decided without a court (typed in from the pool, a walkover) belongs here too
    draws = {d["id"] for d in load(api.draws, broadcast["id"]) or []}
    done = {m["id"]: m for m in completed if m.get("tableID") in courts or (m.get("drawID") or "") in draws}
    if done:
        labels = {i: f"{match_label(m)} {result_words(m) or score_line(m['gameScores'], m)}" for i, m in done.items()}
        picked = st.selectbox("Match history", list(done), key=f"results_history_{broadcast['id']}",
                              format_func=labels.__getitem__)
        match_history(done[picked], key=f"results_{broadcast['id']}",
                      labels={t["id"]: t["label"] for t in tables})
    print_button(api, broadcast, "results")
    named = load(api.results_csv_named, broadcast["id"])
    if named is not None:
        csv, csv_name = named
        st.download_button(f"Download results of {plain(broadcast['name'])} (CSV)", csv,
                           key=f"results_{broadcast['id']}", file_name=csv_name,
                           mime="text/csv", icon=":material/download:")
