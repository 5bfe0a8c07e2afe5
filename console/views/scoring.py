"""Scoring: one court at a time, its match in play with point buttons, undo and complete; then its result and
"Start next"; below, corrections of completed results.

The court picker lists every court and keeps the operator's choice, so completing a match never moves the page to
another court. The score part refreshes itself every couple of seconds (changes made on another device or through
the API show up). Scoring is by operations only (contract §17): a tap is the `point` operation on the server's
score of the moment, Undo is the `undo` operation naming the `scoreVersion` this page shows, so a point scored on
another device in between is never erased (the undo is refused as stale instead). The game and match state shown
is the scoring rule's (console/scoring.py).
"""

from __future__ import annotations

import uuid
from typing import Any

import streamlit as st

from console.board import blocked_text, busy_text, next_startable
from console.client import ApiError, ConsoleError
from console.history import match_history
from console.results_entry import result_words
from console.scoring import (
    MatchState,
    Side,
    court_states,
    describe,
    finished_games,
    match_state,
    parse_games,
    score_line,
)
from console.ui import (
    FLASH,
    act,
    client,
    load,
    match_label,
    no_traceback,
    plain,
    show_flash,
    show_problem,
    side_name,
)

SHOWN = "_shown_score_version"  # match id -> the scoreVersion the page last showed (undo names it)
PENDING_CORRECTION = "_pending_correction"  # (match id, games) waiting for "Yes, change the winner"
REFUSED_CORRECTION = "_refused_correction"  # (match id, draw match ids): started matches the correction waits for
REFRESH_SECONDS = 2

BIG_BUTTONS = ("point_a", "point_b", "complete", "scoring_start_next")  # the court-side taps, nothing else
st.markdown(
    "<style>" + ", ".join(f".st-key-{key} button p" for key in BIG_BUTTONS)
    + " {font-size: 2rem; font-weight: 700;}</style>",
    unsafe_allow_html=True,
)
st.title("Scoring")
show_flash()
api = client()


def current_match(table_id: str) -> dict[str, Any] | None:
    """The court's match in play as the server has it now."""
    tables = {t["id"]: t for t in api.tables()}
    active = tables.get(table_id, {}).get("activeMatch")
    return dict(active) if active else None


def device() -> str:
    """This console session's own device ID: two browsers scoring one match count as two (§17)."""
    return str(st.session_state.setdefault("_device_id", "console-" + uuid.uuid4().hex[:24]))


def tap(table_id: str, match_id: str, side: Side) -> None:
    """One point for `side` through the point operation, on the server's score of this moment (contract §17):
    the server adds the point, so no whole score read earlier is ever written back."""
    fresh = load(current_match, table_id)
    if fresh is None or fresh["id"] != match_id:
        st.warning("This match is no longer in play on this court; the page now shows the court as it is.")
        return
    if act(api.add_point, match_id, side, version=fresh["scoreVersion"], op_id=uuid.uuid4().hex,
           device_id=device(), done="Point added.",
           rerun=False) is not None:
        st.session_state.pop("_flash", None)
        st.rerun()


def undo(match_id: str, seen: int) -> None:
    """Take back the last point of the match as the operator saw it (`seen`: the `scoreVersion` the page showed
    when Undo was pressed): a point scored elsewhere since makes the undo stale (409 stale_state, nothing
    changed) instead of erasing that point."""
    if act(api.undo_point, match_id, version=seen, op_id=uuid.uuid4().hex, device_id=device(),
           done="Last point undone.", rerun=False) is not None:
        st.rerun()


def games_so_far(match: dict[str, Any], state: MatchState) -> None:
    """Every finished game (set), one line, side A first, as a club writes it ("21-15, 18-21", "6-4, 7-6(4)")."""
    items = match.get("gameScores") or []
    finished = items if state.decided or state.game_number > len(items) else items[:-1]
    if finished:
        st.markdown(f"**{state.unit.capitalize()} so far** ({plain(side_name(match, 'a'))} first): "
                    + score_line(finished, match))


def scoreboard(table: dict[str, Any], match: dict[str, Any]) -> None:
    """The live score of a match in play: point buttons and undo while it is open, only "Complete" once decided."""
    scores = [dict(game) for game in match.get("gameScores") or []]
    shown: dict[str, int] = st.session_state.setdefault(SHOWN, {})
    seen = shown.get(match["id"], match["scoreVersion"])  # what the operator looked at when pressing a button
    shown[match["id"]] = match["scoreVersion"]
    state = match_state(match)
    st.caption(f"{plain(match_label(match))} · {describe(match)}")
    if (match.get("devicesScoring") or 0) > 1:
        st.warning(f"{int(match['devicesScoring'])} devices scoring this match in the last minute: "
                   "each tap adds one point on the server's score, so none is lost, but agree who scores.")
    left, right = st.columns(2)
    for column, side in ((left, "a"), (right, "b")):
        with column:
            st.subheader(plain(side_name(match, side)))
            st.metric(f"{state.unit.capitalize()} won", state.games[side])
            if not state.decided and state.set_games is not None:
                st.metric(f"Set {state.game_number} games", state.set_games[side])
                st.metric("Points", state.current[side])
            elif not state.decided:
                st.metric(f"Game {state.game_number} points", state.current[side])
    games_so_far(match, state)
    if state.decided:
        assert state.winner is not None
        loser = "b" if state.winner == "a" else "a"
        st.success(f"{plain(side_name(match, state.winner))} wins {state.games[state.winner]}–"
                   f"{state.games[loser]}. Complete the match to record it.")
        if st.button("Complete match", key="complete", type="primary", width="stretch"):
            result = act(api.complete_match, match["id"], finished_games(scores),
                         done=f"Completed {plain(match_label(match))}: "
                              f"{score_line(finished_games(scores), match)}.",
                         rerun=False)
            if result is not None:
                st.rerun()
        return
    left, right = st.columns(2)
    for column, side in ((left, "a"), (right, "b")):
        side_key: Side = "a" if side == "a" else "b"
        # wrap: a column truncates a label by default, and "+1 Ann Lee / Bo Chen" lost the partner (issue 35)
        if column.button(f"+1 {plain(side_name(match, side))}", key=f"point_{side}", type="primary", width="stretch",
                         wrap=True):
            tap(table["id"], match["id"], side_key)
    if st.button("Undo last point", key="undo", disabled=not scores, width="stretch"):
        undo(match["id"], seen)


def free_court(table: dict[str, Any]) -> None:
    """A court with no match in play: its last result here, and "Start next" for the first queued match."""
    done = [m for m in load(api.completed_matches) or [] if m.get("tableID") == table["id"]]
    if done:
        last = max(done, key=lambda m: m.get("completedOn") or "")
        winner = "a" if (last.get("score") or {}).get("a", 0) > (last.get("score") or {}).get("b", 0) else "b"
        st.info(f"Last result on {plain(table['label'])}: {plain(side_name(last, winner))} won "
                f"{score_line(last.get('gameScores') or [], last)} ({plain(match_label(last))}).")
    queue = table.get("queue") or []
    startable = next_startable(queue)  # what the start-next endpoint starts: the first with every player free
    pool = [] if queue else load(api.pool, table["broadcastID"]) or []  # a draw's matches waiting for a court
    if startable:
        st.markdown(f"**Up next:** {plain(match_label(startable))}")
    elif pool:  # start-next takes the first pool match this court may play (contract §13); the API picks it
        startable = next_startable(pool)
        waiting = f"{len(pool)} {'match' if len(pool) == 1 else 'matches'} of the draws waiting for a court"
        if startable:
            st.markdown(f"**Up next from the court pool** ({waiting})")
        else:
            st.warning(f"No match of the court pool may start now ({waiting}): "
                       f"{plain(blocked_text(pool[0]) or busy_text(pool[0]))}.", icon=":material/warning:")
    elif queue:
        st.warning(f"Every waiting match has a busy player: {plain(busy_text(queue[0]))}.", icon=":material/warning:")
    else:
        st.caption("No match waiting on this court.")
    if st.button("Start next", key="scoring_start_next", type="primary", disabled=startable is None,
                 width="stretch") and startable is not None:
        started = act(api.start_next, table["id"], done="", rerun=False)
        if started is not None:
            st.session_state[FLASH] = f"Started {plain(match_label(started))} on {plain(table['label'])}."
            st.rerun()


@st.fragment(run_every=REFRESH_SECONDS)
def court(table_id: str) -> None:
    """The chosen court, re-read from the server on every refresh."""
    with no_traceback("the score"):
        tables = load(api.tables)
        table = next((t for t in tables or [] if t["id"] == table_id), None)
        if table is None:
            return
        active = table.get("activeMatch")
        if active:
            scoreboard(table, active)
        else:
            free_court(table)


tables = load(api.tables)
if tables is not None and not tables:
    st.info("No courts yet. Create a broadcast with courts on the Broadcasts page.")
elif tables:
    by_id = {t["id"]: t for t in tables}
    # the court's label alone: a keyed picker keeps showing the text its option had when picked, so a state in
    # it ("in play") went stale once the match was completed; the state is said beside it, fresh on every run
    table_id = st.selectbox("Court", list(by_id), key="scoring_table", format_func=lambda i: by_id[i]["label"])
    st.caption(court_states(tables))
    court(table_id)
    if by_id[table_id].get("activeMatch"):
        match_history(by_id[table_id]["activeMatch"], key="scoring_live",
                      labels={t["id"]: t["label"] for t in tables})


# ------------------------------------------------------------------ corrections
def winner_of(games: list[dict[str, Any]], match: dict[str, Any]) -> str | None:
    state = match_state(match | {"gameScores": games})
    return None if state.winner is None else side_name(match, state.winner)


def started_after(match: dict[str, Any]) -> list[str]:
    """The draw matches a draw match's result feeds that have started or been played (a correction changing its
    winner is refused then, `downstream_started`, contract §13); [] outside a draw."""
    if not match.get("drawID") or not match.get("drawMatchID"):
        return []
    draw = load(api.draw, match["drawID"])
    by_id = {dm["id"]: dm for r in (draw or {}).get("rounds", []) for dm in r["drawMatches"]}
    fed = [link["drawMatchID"] for link in (by_id.get(match["drawMatchID"], {}).get("next") or {}).values() if link]
    return [i for i in fed if by_id.get(i, {}).get("status") in ("active", "complete")]


def way_on(match: dict[str, Any], draw_match_ids: list[str]) -> None:
    """A refused correction (`downstream_started`): which match has started, and the way on of §19: stop it (back
    to waiting, its games kept in the audit log), then correct this result again."""
    draw = load(api.draw, match["drawID"]) if match.get("drawID") else None
    by_id = {dm["id"]: (r["name"], dm) for r in (draw or {}).get("rounds", []) for dm in r["drawMatches"]}
    names = {e["id"]: e["name"] for e in (draw or {}).get("entries", [])}
    courts = {str((t.get("activeMatch") or {}).get("id")): t["label"] for t in tables or []}
    # Stop is offered only when stopping makes the correction possible: every match in the way is one in play. A
    # match already played cannot be stopped, so then nothing is offered (issue 51: a quarterfinal was pulled off
    # court for nothing, the correction refused again for a consolation match already played).
    blocking = [by_id.get(i, ("", {}))[1] for i in draw_match_ids]
    stoppable = all(dm.get("status") == "active" and dm.get("matchID") for dm in blocking)
    for draw_match_id in draw_match_ids:
        round_name, dm = by_id.get(draw_match_id, ("", {}))
        sides = " vs ".join(names.get(s.get("entryID") or "", "?") for s in dm.get("slots", []))
        if dm.get("status") == "active" and dm.get("matchID") and not stoppable:
            where = courts.get(dm["matchID"], "a court")
            st.error(f"Not changed: {plain(sides)} ({plain(round_name)}), which this result leads to, has already "
                     f"started on {plain(where)}. Stopping it would not help: a match this result leads to has "
                     "already been played (below).", icon=":material/block:")
        elif dm.get("status") == "active" and dm.get("matchID"):
            where = courts.get(dm["matchID"], "a court")
            st.error(f"Not changed: {plain(sides)} ({plain(round_name)}), which this result leads to, has already "
                     f"started on {plain(where)}. To correct this result, stop that match first: it goes back to "
                     "waiting for a court and its games so far stay in the audit log. Then save the correction "
                     "again.", icon=":material/block:")
            if st.button(f"Stop {sides} and put it back to waiting", key=f"correct_stop_{dm['matchID']}"):
                st.session_state.pop(REFUSED_CORRECTION, None)
                act(api.stop_match, dm["matchID"], done=f"Stopped {sides}: it waits for a court again. Now save "
                                                        "the correction.")
        elif dm.get("status") == "complete":
            st.error(f"Not changed: {plain(sides)} ({plain(round_name)}), which this result leads to, has already "
                     "been played. Its result stands; this one cannot change who went on.", icon=":material/block:")


st.divider()
st.subheader("Correct a completed result")
recent = load(api.completed_matches)
if recent:
    by_match = {m["id"]: m for m in recent}
    match_id = st.selectbox("Completed match (newest first)", list(by_match), key="correct_pick",
                            format_func=lambda i: f"{match_label(by_match[i])} {result_words(by_match[i])}")
    chosen = by_match[match_id]
    games_text = st.text_input("Corrected games (side A-side B, comma-separated)", key=f"correct_games_{match_id}",
                               value=score_line(chosen["gameScores"], chosen), placeholder="11-7, 9-11, 11-5")

    match_history(chosen, key="correct", labels={t["id"]: t["label"] for t in tables or []})
    reason = st.text_input("Reason for the correction (kept in the audit log)", key=f"correct_reason_{match_id}",
                           max_chars=500, placeholder="e.g. the umpire's sheet says 11-9 in game 3").strip()

    def save(games: list[dict[str, int]], *, new_winner: bool = False) -> None:
        st.session_state.pop(PENDING_CORRECTION, None)
        # the operator confirmed the new winner, so a draw's match moves them on (contract §13)
        try:
            fixed = api.score_match(match_id, games, reason=reason or None,
                                    confirm_draw_change=new_winner and bool(chosen.get("drawID")))
        except ApiError as exc:
            if exc.code != "downstream_started":  # a refused score is said in words, never a crash (issue 51)
                show_problem(exc)
                return
            st.session_state[REFUSED_CORRECTION] = (match_id, list((exc.details or {}).get("drawMatchIDs") or []))
            st.rerun()
        except ConsoleError as exc:
            show_problem(exc)
            fixed = None
        if fixed is not None:  # a fresh run: the question and the old score in the picker go
            st.session_state[FLASH] = (f"Result corrected: {plain(match_label(fixed))} "
                                       f"{score_line(fixed.get('gameScores') or [], fixed)}.")
            st.rerun()

    if st.button("Save corrected result", key="correct_save"):
        try:
            games = parse_games(games_text, chosen)
        except ValueError as exc:
            st.error(str(exc))
        else:
            before, after = winner_of(chosen["gameScores"], chosen), winner_of(games, chosen)
            before = side_name(chosen, chosen["winnerSide"]) if chosen.get("winnerSide") else before
            started = started_after(chosen) if before and after and before != after else []
            st.session_state.pop(REFUSED_CORRECTION, None)
            if started:  # said now, before any question: the draw cannot follow until that match is stopped
                st.session_state[REFUSED_CORRECTION] = (match_id, started)
            elif before and after and before != after:
                st.session_state[PENDING_CORRECTION] = (match_id, games)
            else:
                save(games)
    pending = st.session_state.get(PENDING_CORRECTION)
    if pending and pending[0] == match_id:
        before, after = winner_of(chosen["gameScores"], chosen), winner_of(pending[1], chosen)
        moves_on = (f" The draw {plain(chosen.get('eventName') or '')} follows the new result ({plain(after)} goes on "
                    "in a knockout, standings change in a group)." if chosen.get("drawID") else "")
        st.warning(f"This correction changes the winner from {plain(before)} to {plain(after)}.{moves_on}")
        yes, no = st.columns(2)
        if yes.button("Yes, change the winner", key="correct_confirm", type="primary"):
            if reason:
                save(pending[1], new_winner=True)
            else:  # a changed winner is the disputed moment of the day: the log must say why
                st.error("Give the reason for changing the winner above, then confirm again.")
        if no.button("Keep the recorded winner", key="correct_keep"):
            st.session_state.pop(PENDING_CORRECTION, None)
            st.rerun()
    refused = st.session_state.get(REFUSED_CORRECTION)
    if refused and refused[0] == match_id:
        way_on(chosen, refused[1])
elif recent is not None:
    st.info("No completed matches yet.")
