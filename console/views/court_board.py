"""Court board: every table with its match in play, live score and queue; start, move, reorder, cancel.

The board refreshes itself in a fragment every 2 seconds, grouped by broadcast; each free court's card carries its
own one-click "Start next", refreshed with the card. The queue controls (reorder, move, cancel) live outside that
fragment, so a selection being made is never reset by a refresh.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from console.board import Where, queue_after
from console.scoring import match_state
from console.ui import act, best_of, client, load, match_label, no_traceback, plain, show_flash, side_name

REFRESH_SECONDS = 2  # any change made anywhere shows within 3 s
BOARD = "_board_tables"

st.title("Court board")
show_flash()
auto = st.toggle("Refresh automatically", value=True, key="board_auto",
                 help=f"Reload the board every {REFRESH_SECONDS} seconds.")


def count(number: int, one: str, many: str) -> str:
    """`1 match`, `2 matches`."""
    return f"{number} {one if number == 1 else many}"


def table_card(table: dict[str, Any], rules: dict[str, int]) -> None:
    """One table: label, the match in play (games won, then the points of the game in play), "Start next" when
    the court is free and someone waits, then the queue in order. Partner text is shown as text, never Markdown."""
    with st.container(border=True):
        st.markdown(f"#### {plain(table['label'])}")
        active = table.get("activeMatch")
        queue = table.get("queue") or []
        if active:
            scores = active.get("gameScores") or []
            state = match_state(scores, best_of=best_of(active, default=rules["defaultBestOf"]),
                                points=rules["pointsPerGame"])
            line = (f"**In play:** {plain(side_name(active, 'a'))} vs {plain(side_name(active, 'b'))}  \n"
                    f"Games won: {state.games['a']}–{state.games['b']}")
            if not state.decided:
                line += f" · Game {state.game_number} points: {state.current['a']}–{state.current['b']}"
            st.markdown(line)
        else:
            st.markdown("_No match in play_")
            if queue and st.button(f"Start next: {match_label(queue[0])}", key=f"start_next_{table['id']}",
                                   type="primary", width="stretch"):
                act(client().start_match, queue[0]["id"],
                    done=f"Started {plain(match_label(queue[0]))} on {plain(table['label'])}.")
        if queue:
            st.markdown("\n".join(f"{i}. {plain(match_label(m))}" for i, m in enumerate(queue, start=1)))
        else:
            st.caption("Queue empty")


@st.fragment(run_every=REFRESH_SECONDS if auto else None)
def board() -> None:
    with no_traceback("the court board"):
        show_board()


def show_board() -> None:
    api = client()
    tables = load(api.tables)
    st.session_state[BOARD] = tables
    if tables is None:
        return
    if not tables:
        st.info("No tables yet. Create a broadcast with courts on the Broadcasts page.")
        return
    rules = load(api.rules) or {"pointsPerGame": 11, "defaultBestOf": 5}
    names = {b["id"]: b["name"] for b in load(api.broadcasts) or []}
    in_play = sum(1 for t in tables if t.get("activeMatch"))
    waiting = sum(len(t.get("queue") or []) for t in tables)
    st.caption(f"{count(len(tables), 'table', 'tables')} · {count(in_play, 'match', 'matches')} in play · "
               f"{waiting} waiting")
    for broadcast_id in dict.fromkeys(t.get("broadcastID") for t in tables):
        courts = [t for t in tables if t.get("broadcastID") == broadcast_id]
        st.subheader(plain(names.get(broadcast_id or "", "Courts")))
        columns = st.columns(3)
        for index, table in enumerate(courts):
            with columns[index % 3]:
                table_card(table, rules)


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
                act(api.reorder_queue, table_id, new_order, done=f"Queue of {plain(table['label'])} reordered.")
        if cancel.button("Cancel match", key="board_cancel", width="stretch"):
            act(api.cancel_match, match_id, done=f"Cancelled {plain(match_label(match))}.")

        others = {t["id"]: t["label"] for t in tables if t["id"] != table_id}
        if others:
            with st.form("board_move_form", border=False):
                destination = st.selectbox("Move to table", list(others), key="board_destination",
                                           format_func=lambda i: others[i])
                if st.form_submit_button("Move match"):
                    act(api.move_match, match_id, destination,
                        done=f"Moved {plain(match_label(match))} to the end of {plain(others[destination])}'s queue.")
