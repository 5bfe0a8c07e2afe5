"""Court board: every table with its match in play, live score and queue; start, move, reorder, cancel.

The board refreshes itself in a fragment every few seconds; the controls live outside that fragment, so a
selection being made is never reset by a refresh.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from console.board import Where, queue_after
from console.scoring import score_line
from console.ui import act, client, load, match_label, no_traceback, show_flash, side_name

REFRESH_SECONDS = 5
BOARD = "_board_tables"

st.title("Court board")
show_flash()
auto = st.toggle("Refresh automatically", value=True, key="board_auto",
                 help=f"Reload the board every {REFRESH_SECONDS} seconds.")


def table_card(table: dict[str, Any]) -> None:
    """One table: label, match in play with its score, then the queue in order."""
    with st.container(border=True):
        st.markdown(f"#### {table['label']}")
        active = table.get("activeMatch")
        if active:
            score = active.get("score") or {"a": 0, "b": 0}
            st.markdown(
                f"**In play:** {side_name(active, 'a')} **{score['a']}–{score['b']}** {side_name(active, 'b')}  \n"
                f"Games: {score_line(active.get('gameScores') or [])}"
            )
        else:
            st.markdown("_No match in play_")
        queue = table.get("queue") or []
        if queue:
            st.markdown("\n".join(f"{i}. {match_label(m)}" for i, m in enumerate(queue, start=1)))
        else:
            st.caption("Queue empty")


@st.fragment(run_every=REFRESH_SECONDS if auto else None)
def board() -> None:
    with no_traceback("the court board"):
        show_board()


def show_board() -> None:
    tables = load(client().tables)
    st.session_state[BOARD] = tables
    if tables is None:
        return
    if not tables:
        st.info("No tables yet. Create a broadcast with courts on the Broadcasts page.")
        return
    in_play = sum(1 for t in tables if t.get("activeMatch"))
    waiting = sum(len(t.get("queue") or []) for t in tables)
    st.caption(f"{len(tables)} tables · {in_play} matches in play · {waiting} waiting")
    columns = st.columns(3)
    for index, table in enumerate(tables):
        with columns[index % 3]:
            table_card(table)


board()

tables: list[dict[str, Any]] | None = st.session_state.get(BOARD)
if tables:
    st.divider()
    st.subheader("Manage a table")
    by_id = {t["id"]: t for t in tables}
    table_id = st.selectbox("Table", list(by_id), key="board_table", format_func=lambda i: by_id[i]["label"])
    table = by_id[table_id]
    queue = table.get("queue") or []
    api = client()

    if st.button("Start next match", key="board_start", type="primary",
                 disabled=bool(table.get("activeMatch")) or not queue,
                 help="Start the first match of the queue (one match in play per table)."):
        act(api.start_match, queue[0]["id"], done=f"Started {match_label(queue[0])} on {table['label']}.")

    if not queue:
        st.caption("No pending matches on this table.")
    else:
        by_match = {m["id"]: m for m in queue}
        match_id = st.selectbox("Pending match", list(by_match), key="board_match",
                                format_func=lambda i: f"{by_match[i].get('queuePosition')}. {match_label(by_match[i])}")
        match = by_match[match_id]
        order = [m["id"] for m in queue]
        up, down, top, cancel = st.columns(4)
        moves: tuple[tuple[Any, str, Where], ...] = (
            (up, "Move up", "up"), (down, "Move down", "down"), (top, "To the front", "top"),
        )
        for column, label, where in moves:
            new_order = queue_after(order, match_id, where)
            if column.button(label, key=f"board_{where}", disabled=new_order == order, width="stretch"):
                act(api.reorder_queue, table_id, new_order, done=f"Queue of {table['label']} reordered.")
        if cancel.button("Cancel match", key="board_cancel", width="stretch"):
            act(api.cancel_match, match_id, done=f"Cancelled {match_label(match)}.")

        others = {t["id"]: t["label"] for t in tables if t["id"] != table_id}
        if others:
            with st.form("board_move_form", border=False):
                destination = st.selectbox("Move to table", list(others), key="board_destination",
                                           format_func=lambda i: others[i])
                if st.form_submit_button("Move match"):
                    act(api.move_match, match_id, destination,
                        done=f"Moved {match_label(match)} to the end of {others[destination]}'s queue.")
