"""Results entry (contract §19): the desk types in results from the umpires' paper sheets. One row per match in
play or waiting (filter by court, draw, round), one text field each ("21-15 18-21 21-9", "21:15, 18:21, 21:9",
"6-4 7-6(4)"): Enter saves it and puts the cursor on the next row; W/O and Ret. ask for the winner. A line that
cannot be read, or a result the server refuses, is said on its row and nothing is saved."""

from __future__ import annotations

import json

import streamlit as st
import streamlit.components.v1 as components

from console.client import ConsoleError
from console.results_entry import (
    Row,
    choices,
    decided_body,
    entry_rows,
    filtered,
    placeholder,
    played_body,
    saved_words,
    unfinished,
)
from console.ui import FLASH, client, load, plain, show_flash, side_name
from domain.match.result_text import ResultTextError

ANY = "Any"
PROBLEMS = "results_entry_problems"
FOCUS = "results_entry_focus"

st.title("Results entry")
st.caption("Type the games as on the umpire's sheet and press Enter: 21-15 18-21 21-9 · 21:15, 18:21, 21:9 · "
           "6-4 7-6(4). The cursor moves to the next match.")
show_flash()
api = client()
problems: dict[str, str] = st.session_state.setdefault(PROBLEMS, {})


def field_key(row: Row) -> str:
    return f"result_text_{row.id}"


def _send(row: Row, body: dict[str, object], after: str | None) -> None:
    """Save one result; on success the cursor goes to `after`, on a refusal it stays on the row, which says why."""
    try:
        saved = api.enter_result(row.id, body)
    except ConsoleError as exc:
        problems[row.id] = str(exc)
        st.session_state[FOCUS] = row.id
        return
    problems.pop(row.id, None)
    st.session_state[FLASH] = saved_words(saved)
    st.session_state[FOCUS] = after


def save_typed(row: Row, after: str | None) -> None:
    """Enter in a row's field: read the line, then save it (a blank line saves nothing)."""
    text = str(st.session_state.get(field_key(row)) or "")
    if not text.strip():
        problems.pop(row.id, None)
        return
    try:
        body = played_body(text, row.match)
    except ResultTextError as exc:
        problems[row.id] = exc.message
        st.session_state[FOCUS] = row.id
        return
    if unfinished(body["gameScores"], row.match):  # a retirement's games: kept for Ret., not saved as a result
        problems[row.id] = ("These games decide no winner: for a retirement press Ret. and pick who wins; for a "
                            "walkover W/O.")
        st.session_state[FOCUS] = row.id
        return
    _send(row, body, after)


def save_decided(row: Row, kind: str, winner_side: str, after: str | None) -> None:
    """A W/O or Ret. button's winner: a walkover (no games) or a retirement (with the games typed, if any)."""
    try:
        body = decided_body(kind, winner_side, str(st.session_state.get(field_key(row)) or ""), row.match)
    except ResultTextError as exc:
        problems[row.id] = f"The games before the retirement: {exc.message}"
        return
    _send(row, body, after)


def winner_buttons(row: Row, kind: str, after: str | None) -> None:
    question = "Who wins the walkover?" if kind == "walkover" else "Who wins (the other side retired)?"
    st.caption(question)
    for side in ("a", "b"):
        st.button(f"{side_name(row.match, side)} wins", key=f"{kind}_{side}_{row.id}", width="stretch", wrap=True,
                  on_click=save_decided, args=(row, kind, side, after))


def focus(label: str) -> None:
    """Put the cursor in the field labelled `label` (Streamlit keeps no focus across a run)."""
    nonce = st.session_state.get("results_entry_nonce", 0) + 1
    st.session_state["results_entry_nonce"] = nonce
    components.html(f"""<script>/* {nonce} */
const label = {json.dumps(label)};
function put() {{
  const field = [...window.parent.document.querySelectorAll('input[type="text"]')]
    .find(input => input.getAttribute('aria-label') === label);
  if (field) {{ field.focus(); }} else {{ setTimeout(put, 100); }}
}}
put();
</script>""", height=0)


broadcasts = load(api.broadcasts)
if broadcasts is not None and not broadcasts:
    st.info("No broadcast yet: make one on the Broadcasts page.")
if not broadcasts:
    st.stop()
by_id = {b["id"]: b for b in broadcasts}
broadcast_id = str(st.selectbox("Broadcast", list(by_id), format_func=lambda i: str(by_id[i]["name"]),
                                key="results_entry_broadcast") if len(by_id) > 1 else broadcasts[0]["id"])
tables = load(api.tables)
pool = load(api.pool, broadcast_id)
if tables is None or pool is None:
    st.stop()
rows = entry_rows(tables, pool, broadcast_id)
columns = st.columns(3)
picked: dict[str, str | None] = {}
for column, (attribute, title) in zip(columns, (("court", "Court"), ("draw", "Draw"), ("round", "Round")),
                                      strict=True):
    options = [ANY, *choices(rows, attribute)]
    kept = st.session_state.get(f"results_entry_{attribute}")
    if kept and kept not in options:  # the round just entered keeps its filter: "every result is in"
        options.append(kept)
    value = column.selectbox(title, options, key=f"results_entry_{attribute}")
    picked[attribute] = None if value in (None, ANY) else str(value)
shown = filtered(rows, court=picked["court"], draw=picked["draw"], round_name=picked["round"])
if not shown:
    st.info("No match is in play or waiting here: every result is in.")
    st.stop()
st.caption(f"{len(shown)} matches in play or waiting")
wanted = st.session_state.pop(FOCUS, shown[0].id if "results_entry_started" not in st.session_state else None)
st.session_state["results_entry_started"] = True
ids = [row.id for row in shown]
focus_label: str | None = None
for index, row in enumerate(shown):
    after = ids[index + 1] if index + 1 < len(ids) else None
    with st.container(border=True):
        where, field, walkover, retired = st.columns([4, 4, 1, 1], vertical_alignment="center")
        where.markdown(f"**{plain(row.sides)}**  \n{plain(row.where)}")
        label = f"Result of {row.sides} ({row.court})"
        field.text_input(label, key=field_key(row), label_visibility="collapsed", placeholder=placeholder(row.match),
                         on_change=save_typed, args=(row, after))
        with walkover.popover("W/O", width="stretch"):
            winner_buttons(row, "walkover", after)
        with retired.popover("Ret.", width="stretch"):
            winner_buttons(row, "retired", after)
        if row.id in problems:
            st.error(f"Not saved: {problems[row.id]}", icon=":material/error:")
        if row.id == wanted:
            focus_label = label
if wanted is not None and focus_label is None:  # the row after the one saved is gone (filtered): the first
    focus_label = f"Result of {shown[0].sides} ({shown[0].court})"
if focus_label is not None:
    focus(focus_label)
