"""Court board: every table with its match in play, live score and queue; start, move, reorder, cancel.

The board refreshes itself in a fragment every 2 seconds, grouped by broadcast; each free court's card carries its
own one-click "Start next", refreshed with the card. The queue controls (reorder, move, cancel) live outside that
fragment, so a selection being made is never reset by a refresh.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import streamlit as st

from console.board import (
    Where,
    attention_text,
    blocked_text,
    clock_time,
    next_startable,
    next_to_call,
    participant,
    player_names,
    pool_call,
    queue_after,
)
from console.history import match_history
from console.paper import print_button
from console.player_links import ToCheck, to_check
from console.results_entry import played_body
from console.scoring import match_state, sport_name
from console.ui import (
    act,
    client,
    confirmed,
    field_errors,
    form_key,
    form_problem,
    load,
    match_label,
    no_traceback,
    plain,
    show_flash,
    side_name,
    submit,
)
from domain.match.result_text import ResultTextError
from domain.models import Attention, BlockReason, OutputKind
from domain.names import side_name as joined
from domain.names import stored_name

REFRESH_SECONDS = 2  # any change made anywhere shows within 3 s
BOARD = "_board_tables"

st.title("Court board")
show_flash()
auto = st.toggle("Refresh automatically", value=True, key="board_auto",
                 help=f"Reload the board every {REFRESH_SECONDS} seconds.")


def count(number: int, one: str, many: str) -> str:
    """`1 match`, `2 matches`."""
    return f"{number} {one if number == 1 else many}"


def overlay_links(api: Any, broadcast_id: str | None) -> dict[str, list[dict[str, Any]]]:
    """The broadcast's court outputs by table ID (contract §10), for a link on each court's card."""
    found: dict[str, list[dict[str, Any]]] = {}
    for output in (load(api.outputs, broadcast_id) or []) if broadcast_id else []:
        if output.get("kind") == OutputKind.COURT and output.get("tableID"):
            found.setdefault(output["tableID"], []).append(output)
    return found


def table_card(table: dict[str, Any], now: datetime,
               overlays: list[dict[str, Any]] | None = None, pool: list[dict[str, Any]] | None = None) -> None:
    """One table: label, what needs attention (colour and words), the match in play with its expected end,
    "Start next" when the court is free and someone waits, then the queue with estimated starts and busy players.
    Partner text is shown as text, never Markdown."""
    with st.container(border=True):
        st.markdown(f"#### {plain(table['label'])}")
        attention = attention_text(table, now=now)
        if attention:
            overdue = table.get("attention") == Attention.OVERDUE
            colour, icon = ("red", "timer") if overdue else ("orange", "hourglass_top")
            st.markdown(f":{colour}-background[:material/{icon}: **{attention}**]")  # our words only
        if table.get("late"):  # against the order of play (§20): "Court 3: 25 min late", as the event page says
            st.markdown(f":orange-background[:material/schedule: **{plain(str(table['late']))}**]")
        active = table.get("activeMatch")
        queue = table.get("queue") or []
        if active:
            state = match_state(active)
            line = (f"**In play:** {plain(side_name(active, 'a'))} vs {plain(side_name(active, 'b'))}  \n"
                    f"{state.unit.capitalize()} won: {state.games['a']}–{state.games['b']}")
            if not state.decided and state.set_games is not None:
                line += (f" · Set {state.game_number}: {state.set_games['a']}–{state.set_games['b']}"
                         f" · {state.current['a']}–{state.current['b']}")
            elif not state.decided:
                line += f" · Game {state.game_number} points: {state.current['a']}–{state.current['b']}"
            if active.get("expectedEndOn"):
                line += f"  \nExpected end: {clock_time(active['expectedEndOn'])}"
            if (active.get("devicesScoring") or 0) > 1:  # two phones (or a phone and the console) on one match
                line += f"  \n:orange-background[**{int(active['devicesScoring'])} devices scoring**]"
            st.markdown(line)
            if queue:  # a club calls the next players while the court is still in play (issue 51)
                call_button(table, queue, early=True)
        else:
            st.markdown("_No match in play_")
            if queue:
                start_next_button(table, queue)
                call_button(table, queue)
            elif pool:
                pool_button(table, pool)
                pool_call_button(table, pool)
        if queue:
            st.markdown("\n".join(queue_line(i, m) for i, m in enumerate(queue, start=1)))
        else:
            st.caption("Queue empty")
        if overlays:  # our own URLs and design names: safe as Markdown links
            st.caption("Overlay: " + " · ".join(f"[{o['design']}]({o['url']})" for o in overlays))


def queue_line(position: int, match: dict[str, Any]) -> str:
    """`1. Ann Lee vs Bo Chan · R1 · ~14:05` and, under it, who of them is still playing elsewhere."""
    line = f"{position}. {plain(match_label(match))}"
    if match.get("estimatedStartOn"):
        line += f" · about {clock_time(match['estimatedStartOn'])}"
    if match.get("notBefore") and (match.get("blockedBy") or {}).get("reason") != BlockReason.NOT_BEFORE:
        line += f" · scheduled {clock_time(match['notBefore'])}"
    if match.get("calledOn"):
        line += "  \n   :blue-background[:material/campaign: **Called to this court**]"
    warning = blocked_text(match)
    if warning:
        line += f"  \n   :orange[:material/warning: {plain(warning)}]"
    return line


def start_next_button(table: dict[str, Any], queue: list[dict[str, Any]]) -> None:
    """One click starts the first waiting match whose players are all free (the API decides, as it does for
    any caller); when every waiting match has a busy player the button says so and is off."""
    startable = next_startable(queue)
    if startable is None:
        st.button("Start next: no waiting match may start now", key=f"start_next_{table['id']}",
                  width="stretch", disabled=True)
    elif st.button(f"Start next: {plain(match_label(startable))}", key=f"start_next_{table['id']}", type="primary",
                   width="stretch", wrap=True):
        act(client().start_next, table["id"],
            done=f"Started {plain(match_label(startable))} on {plain(table['label'])}.")


def pool_button(table: dict[str, Any], pool: list[dict[str, Any]]) -> None:
    """A free court with an empty queue takes the first match of the court pool that may use it (contract §13);
    the API picks it, as start-next does for any caller. While every pool match is held back (its list says why)
    the button says so and is off, as a court's own queue's is."""
    if next_startable(pool) is None:
        st.button("Start next: no waiting match may start now", key=f"start_pool_{table['id']}", width="stretch",
                  disabled=True)
    elif st.button("Start next from the pool", key=f"start_pool_{table['id']}", type="primary", width="stretch",
                   icon=":material/play_arrow:"):
        act(client().start_next, table["id"], done=f"Started the next pool match on {plain(table['label'])}.")


def pool_list(pool: list[dict[str, Any]]) -> None:
    """The broadcast's court pool, "waiting for a court", in start-next's order, with estimated starts."""
    if pool:
        st.markdown(f"**Waiting for a court ({len(pool)})**")
        st.markdown("\n".join(queue_line(i, m) for i, m in enumerate(pool, start=1)))


def pool_call_button(table: dict[str, Any], pool: list[dict[str, Any]]) -> None:
    """Call the pool's next match to this free court: it is queued here first (so the call-up names the court and
    Start next takes it), then its players are called (and mailed, where they have an email)."""
    chosen = pool_call(pool, str(table["id"]))
    if chosen is not None and st.button(f"Call {plain(match_label(chosen))} to {plain(table['label'])}",
                                        key=f"call_pool_{table['id']}", width="stretch", icon=":material/campaign:"):
        api = client()
        if act(api.move_match, chosen["id"], table["id"], rerun=False, done="") is not None:
            act(api.call_match, chosen["id"], done=f"Called {plain(match_label(chosen))} to {plain(table['label'])}.")


def call_button(table: dict[str, Any], queue: list[dict[str, Any]], *, early: bool = False) -> None:
    """Call the players of the match "Start next" would start, or, before it may start (the court in play, its time
    not come), the next one whose players are free: a club calls early (the venue display and the event page say
    "Called to {court}" until it starts)."""
    called = [m for m in queue if m.get("calledOn")]
    if early and called:  # already called: the next players are on their way
        return
    chosen = next_to_call(queue)
    if chosen is not None and not chosen.get("calledOn") and st.button(
            f"{'Call next early:' if early else 'Call'} {plain(match_label(chosen))}", key=f"call_{table['id']}",
            width="stretch", icon=":material/campaign:"):
        act(client().call_match, chosen["id"],
            done=f"Called {plain(match_label(chosen))} to {plain(table['label'])}.")


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
        st.info("No courts yet. Create a broadcast with courts on the Broadcasts page.")
        return
    names = {b["id"]: b["name"] for b in load(api.broadcasts) or []}
    in_play = sum(1 for t in tables if t.get("activeMatch"))
    pools = {b: (load(api.pool, b) or []) if b else [] for b in dict.fromkeys(t.get("broadcastID") for t in tables)}
    # a draw's match waiting for a court (the pool) waits as much as one queued on a court
    waiting = sum(len(t.get("queue") or []) for t in tables) + sum(len(pool) for pool in pools.values())
    st.caption(f"{count(len(tables), 'court', 'courts')} · {count(in_play, 'match', 'matches')} in play · "
               f"{waiting} waiting")
    for broadcast_id, pool in pools.items():
        courts = [t for t in tables if t.get("broadcastID") == broadcast_id]
        st.subheader(plain(names.get(broadcast_id or "", "Courts")))
        overlays = overlay_links(api, broadcast_id)
        columns = st.columns(3)
        now = datetime.now(UTC)
        for index, table in enumerate(courts):
            with columns[index % 3]:
                table_card(table, now, overlays.get(table["id"]), pool)
        pool_list(pool)


def new_match_form(tables: list[dict[str, Any]]) -> None:
    """"New match": a court, players picked from the court's player list or typed, round, event, best-of. It lives
    outside the refreshing board, so what is typed stays while the cards refresh."""
    form = "new_match"
    api = client()
    st.subheader("New match")
    by_id = {t["id"]: t for t in tables}
    table_id = st.selectbox("Court", list(by_id), key="nm_court", format_func=lambda i: plain(by_id[i]["label"]))
    court = by_id[table_id]
    lists = {pl["id"]: pl for pl in load(api.player_lists) or []}
    court_list = lists.get(court.get("courtPlayerListID") or "")
    names = player_names(court_list)
    form_problem(form)
    with st.form(form, border=True):
        if court_list:
            st.caption(f"Pick players of {plain(court_list.get('name', 'the court list'))} or type any name.")
        else:
            st.caption("This court has no player list: type the players' names.")
        cells: dict[str, str | None] = {}
        for column, sides in zip(st.columns(2), (("playerA", "playerA2"), ("playerB", "playerB2")), strict=True):
            with column:
                for side in sides:
                    label = {"playerA": "Player A", "playerA2": "Partner A (doubles)", "playerB": "Player B",
                             "playerB2": "Partner B (doubles)"}[side]
                    cells[side] = st.selectbox(label, list(names), index=None, accept_new_options=True,
                                               placeholder="Pick or type a name",
                                               key=form_key(form, f"{side}_{table_id}"))
                    field_errors(form, side)
        first, second, third = st.columns(3)
        match_round = first.text_input("Round", max_chars=500, key=form_key(form, "round"))
        event = second.text_input("Event", max_chars=500, key=form_key(form, "event"))
        presets = {p["name"]: p["description"] for p in load(api.scoring_formats) or []}
        sport = third.selectbox("Scoring", [None, *presets], key=form_key(form, "scoring"),
                                format_func=lambda key: "The broadcast's" if key is None else sport_name(key),
                                help="The match's own format; by default its broadcast's (or draw's).")
        if sport is not None:
            third.caption(presets[sport])
        field_errors(form, "scoring")
        if st.form_submit_button("Add to the queue", type="primary"):
            body: dict[str, Any] = {"tableID": table_id} | ({"scoring": sport} if sport else {})
            body |= {side: ref for side, cell in cells.items() if (ref := participant(cell, names))}
            body |= {key: value.strip() for key, value in (("matchRound", match_round), ("eventName", event))
                     if value.strip()}
            if "playerA2" in body or "playerB2" in body:
                body["isDoubles"] = True
            who = " vs ".join(joined(stored_name(c) for c in (cells.get(p), cells.get(p + "2")) if c)
                              for p in ("playerA", "playerB") if cells.get(p))
            submit(form, api.create_match, body,
                   done=f"Queued {plain(who or 'a match')} on {plain(court['label'])}.")


def report_card(row: ToCheck) -> None:
    """One report to check: where and what, "Accept" (the report's games) or the desk's own games."""
    api = client()
    with st.container(border=True):
        colour = "red" if row.status == "disputed" else "blue"
        st.markdown(f":{colour}-background[{plain(row.line)}]")
        accept, own, go = st.columns([2, 2, 1], vertical_alignment="bottom")
        if accept.button(f"Accept {row.games}", key=f"accept_{row.report_id}", type="primary", width="stretch"):
            act(api.accept_report, row.report_id, done=f"Recorded {plain(row.label)}: {plain(row.games)}.")
        typed = own.text_input("The desk's games", key=f"accept_games_{row.report_id}", placeholder="11-6 11-9",
                               help="When the players disagree: the games as the desk settles them.")
        if go.button("Record these", key=f"accept_own_{row.report_id}", disabled=not typed.strip(), width="stretch"):
            try:
                games = played_body(typed, row.match)["gameScores"]
            except ResultTextError as exc:
                st.error(str(exc), icon=":material/error:")
            else:
                act(api.accept_report, row.report_id, games, done=f"Recorded {plain(row.label)}: {plain(typed)}.")


@st.fragment(run_every=REFRESH_SECONDS if auto else None)
def results_to_check() -> None:
    """The players' reports still to settle (contract §21), refreshed like the board: the desk accepts one, or
    records its own games for a disputed one."""
    with no_traceback("the results to check"):
        api = client()
        tables: list[dict[str, Any]] = st.session_state.get(BOARD) or []
        rows: list[ToCheck] = []
        for broadcast_id in dict.fromkeys(t.get("broadcastID") for t in tables if t.get("broadcastID")):
            reports = [r for r in load(api.reports, broadcast_id) or [] if r["status"] != "confirmed"]
            if reports:
                rows += to_check(reports, tables, load(api.people, broadcast_id) or [])
        if rows:
            st.subheader(f"Results to check ({len(rows)})")
            for row in rows:
                report_card(row)


board()
results_to_check()

tables: list[dict[str, Any]] | None = st.session_state.get(BOARD)
if tables:
    shown = set(t.get("broadcastID") for t in tables)
    printable = [b for b in load(client().broadcasts) or [] if b["id"] in shown]
    for broadcast in printable:  # one page per court, to pin up beside it
        print_button(client(), broadcast, "schedules", named=len(printable) > 1)
    st.divider()
    new_match_form(tables)
    st.divider()
    st.subheader("Manage a court")
    by_id = {t["id"]: t for t in tables}
    table_id = st.selectbox("Court", list(by_id), key="board_table", format_func=lambda i: by_id[i]["label"])
    table = by_id[table_id]
    queue = table.get("queue") or []
    api = client()
    labels = {t["id"]: t["label"] for t in tables}
    if table.get("activeMatch"):
        st.markdown(f"**In play:** {plain(match_label(table['activeMatch']))}")
        match_history(table["activeMatch"], key="board_active", labels=labels)

    if not queue:
        st.caption("No match waiting on this court.")
    else:
        by_match = {m["id"]: m for m in queue}
        match_id = st.selectbox("Pending match", list(by_match), key="board_match",
                                format_func=lambda i: f"{by_match[i].get('queuePosition')}. {match_label(by_match[i])}")
        match = by_match[match_id]
        match_history(match, key="board_pending", labels=labels)
        order = [m["id"] for m in queue]
        up, down, top, cancel = st.columns(4)
        moves: tuple[tuple[Any, str, Where], ...] = (
            (up, "Move up", "up"), (down, "Move down", "down"), (top, "To the front", "top"),
        )
        for column, label, where in moves:
            new_order = queue_after(order, match_id, where)
            if column.button(label, key=f"board_{where}", disabled=new_order == order, width="stretch"):
                act(api.reorder_queue, table_id, new_order, done=f"Queue of {plain(table['label'])} reordered.")
        with cancel:
            if confirmed("Cancel match", key="board_cancel", width="stretch",
                         question=f"Cancel {plain(match_label(match))}? It leaves the queue for good."):
                act(api.cancel_match, match_id, done=f"Cancelled {plain(match_label(match))}.")

        others = {t["id"]: t["label"] for t in tables if t["id"] != table_id}
        if others:
            with st.form("board_move_form", border=False):
                destination = st.selectbox("Move to court", list(others), key="board_destination",
                                           format_func=lambda i: others[i])
                if st.form_submit_button("Move match"):
                    act(api.move_match, match_id, destination,
                        done=f"Moved {plain(match_label(match))} to the end of {plain(others[destination])}'s queue.")
