"""Scoring: point buttons for each side and undo on a table's match in play; complete it; correct a result.

Each point sends the whole `gameScores` to the API (the server validates them and emits the webhook event);
the game and match state shown is the scoring rule's (console/scoring.py). Undo steps back through the scores
this session sent for the match.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from console.scoring import Side, add_point, finished_games, match_state, parse_games, score_line
from console.ui import act, best_of, client, load, match_label, show_flash, side_name

HISTORY = "_score_history"  # match id -> list of previous gameScores, newest last

st.markdown(
    "<style>div[data-testid='stButton'] button[kind='primary'] p {font-size: 2rem; font-weight: 700;}</style>",
    unsafe_allow_html=True,
)
st.title("Scoring")
show_flash()
api = client()
rules = load(api.rules)  # the server's scoring rule, so buttons count games as the server does
if rules is None:
    st.stop()
points, default_best_of = (rules or {})["pointsPerGame"], (rules or {})["defaultBestOf"]
history: dict[str, list[list[dict[str, int]]]] = st.session_state.setdefault(HISTORY, {})


def send_scores(match: dict[str, Any], scores: list[dict[str, int]], *, remember: bool = True) -> None:
    """Replace the match's scores; remember the previous ones for undo."""
    previous = [dict(game) for game in match.get("gameScores") or []]
    if act(api.score_match, match["id"], scores, done="Score saved.", rerun=False) is not None:
        if remember:
            history.setdefault(match["id"], []).append(previous)
        st.session_state.pop("_flash", None)
        st.rerun()


def scoreboard(match: dict[str, Any]) -> None:
    """The live score of a match in play, with the point, undo and complete buttons."""
    scores = [dict(game) for game in match.get("gameScores") or []]
    rule_best_of = best_of(match, default=default_best_of)
    state = match_state(scores, best_of=rule_best_of, points=points)
    st.caption(f"{match_label(match)} · best of {rule_best_of}, games to {points} (win by 2)")
    left, right = st.columns(2)
    for column, side in ((left, "a"), (right, "b")):
        with column:
            st.subheader(side_name(match, side))
            st.metric("Games", state.games[side])
            st.metric(f"Game {state.game_number}", state.current[side])
    if state.decided:
        assert state.winner is not None
        st.success(f"{side_name(match, state.winner)} wins {state.games[state.winner]}–"
                   f"{state.games['b' if state.winner == 'a' else 'a']}. Complete the match to record it.")
    left, right = st.columns(2)
    for column, side in ((left, "a"), (right, "b")):
        side_key: Side = "a" if side == "a" else "b"
        if column.button(f"+1 {side_name(match, side)}", key=f"point_{side}", type="primary",
                         disabled=state.decided, width="stretch"):
            send_scores(match, add_point(scores, side_key, best_of=rule_best_of, points=points))
    undo, complete = st.columns(2)
    steps = history.get(match["id"], [])
    if undo.button("Undo last point", key="undo", disabled=not steps, width="stretch"):
        if act(api.score_match, match["id"], steps[-1], done="Last point undone.", rerun=False) is not None:
            steps.pop()
            st.rerun()
    if complete.button("Complete match", key="complete", disabled=not state.decided, width="stretch"):
        result = act(api.complete_match, match["id"], finished_games(scores),
                     done=f"Completed {match_label(match)}: {score_line(finished_games(scores))}.", rerun=False)
        if result is not None:
            history.pop(match["id"], None)
            st.rerun()


tables = load(api.tables)
if tables is not None:
    playing = {t["id"]: t for t in tables if t.get("activeMatch")}
    if not playing:
        st.info("No match in play. Start one on the court board.")
    else:
        table_id = st.selectbox("Table", list(playing), key="scoring_table",
                                format_func=lambda i: f"{playing[i]['label']} · "
                                                      f"{match_label(playing[i]['activeMatch'])}")
        scoreboard(playing[table_id]["activeMatch"])

st.divider()
st.subheader("Correct a completed result")
recent = load(api.completed_matches)
if recent:
    by_id = {m["id"]: m for m in recent}
    match_id = st.selectbox("Completed match (newest first)", list(by_id), key="correct_pick",
                            format_func=lambda i: f"{match_label(by_id[i])} {score_line(by_id[i]['gameScores'])}")
    games_text = st.text_input("Corrected games (side A-side B, comma-separated)", key=f"correct_games_{match_id}",
                               value=score_line(by_id[match_id]["gameScores"]), placeholder="11-7, 9-11, 11-5")
    if st.button("Save corrected result", key="correct_save"):
        try:
            games = parse_games(games_text)
        except ValueError as exc:
            st.error(f"{exc}.")
        else:
            fixed = act(api.score_match, match_id, games, done="Result corrected.", rerun=False)
            if fixed is not None:
                st.success(f"Result corrected: {match_label(fixed)} {score_line(fixed.get('gameScores') or [])}.")
elif recent is not None:
    st.info("No completed matches yet.")
