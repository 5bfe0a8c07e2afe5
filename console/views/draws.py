"""Draws (contract §13): make a draw from typed or pasted lines or a player list, preview it, save it; the running
draw as a bracket and group tables, the court pool, start the free courts, withdraw an entry, delete, print."""

from __future__ import annotations

import math
import random
from typing import Any

import pandas as pd
import streamlit as st

from console.board import blocked_text, clock_time
from console.client import ApiError, ConsoleError
from console.draws import (
    FORMATS,
    RANKED,
    STEPS,
    TIEBREAKS,
    Games,
    bracket_html,
    entry_names,
    finished,
    games_won,
    genders,
    list_entries,
    lucky_losers,
    parse_entries,
    player_name,
    print_sheet,
    rating_seeds,
    replaceable,
    replacement_body,
    still_in,
)
from console.format_picker import format_picker
from console.paper import file_name
from console.scoring import sport_name
from console.ui import act, client, load, plain, show_flash, show_problem, side_name

st.title("Draws")
show_flash()
api = client()


def versus(match: dict[str, Any]) -> str:
    """`Ann Lee / Bo Chen v Cy Diaz / Di Evans`: both sides, doubles partners included (issue 35)."""
    return f"{side_name(match, 'a')} v {side_name(match, 'b')}"


def fresh_seed() -> int:
    return random.randint(1, 2**31 - 1)


def draw_games(draw: dict[str, Any]) -> Games:
    """Games won in the draw's matches in play or played (the bracket shows them next to each name)."""
    wanted = {dm["matchID"] for rnd in draw["rounds"] for dm in rnd["drawMatches"]
              if dm.get("matchID") and dm["status"] in ("active", "complete")}
    if not wanted:
        return {}
    found = [m for m in api.pages("/operator/matches", drawID=draw["id"], max_items=5000) if m["id"] in wanted]
    return games_won(found)


def start_free_courts(tables: list[dict[str, Any]]) -> int:
    """start-next on every court with nothing playing; the number of matches started."""
    started = 0
    for table in tables:
        if table.get("activeMatch"):
            continue
        try:
            api.start_next(table["id"])
        except ApiError as exc:
            if exc.code in ("queue_empty", "nothing_startable", "all_players_busy", "table_busy"):
                continue
            raise
        started += 1
    return started


broadcasts = load(api.broadcasts)
if broadcasts is not None and not broadcasts:
    st.info("No broadcasts yet: create one on the Broadcasts page first.")
    st.stop()
if not broadcasts:
    st.stop()
by_id = {b["id"]: b for b in broadcasts}
chosen = st.selectbox("Broadcast", list(by_id), key="draws_broadcast", format_func=lambda i: by_id[i]["name"])
broadcast = by_id[chosen]
courts = {t["id"]: t for t in (load(api.tables) or []) if t["broadcastID"] == chosen}
draws = load(api.draws, chosen) or []
if "draws_next" in st.session_state:  # a draw just saved is the one to show
    st.session_state["draws_pick"] = st.session_state.pop("draws_next")

# ------------------------------------------------------------------ a new draw
turn = st.session_state.setdefault("draws_turn", 0)  # a new turn empties the form once a draw is saved
st.session_state.setdefault("draws_new", not draws)
if st.toggle("New draw", key="draws_new"):
    seed = st.session_state.setdefault("draws_seed", fresh_seed())
    name = st.text_input("Name", value=f"Draw {len(draws) + 1}" if draws else "Singles", max_chars=100,
                         key=f"draws_name_{turn}")
    fmt = st.selectbox("Format", list(FORMATS), format_func=FORMATS.__getitem__, key=f"draws_format_{turn}")
    source = st.radio("Entries", ["Type or paste", "From a player list"], horizontal=True,
                      key=f"draws_source_{turn}")
    entries: list[dict[str, Any]] = []
    if source == "Type or paste":
        text = st.text_area("One entry a line: name, then optionally seed and club (tab, ; or , between them). "
                            "Doubles: Ann Lee / Bo Kim", height=200, key=f"draws_text_{turn}",
                            placeholder="Ann Lee, 1, TTC Nord\nBo Kim, 2\nCy Day, TTC Süd")
        parsed = parse_entries(text)
        for problem in parsed.problems:
            st.error(problem, icon=":material/error:")
        entries = parsed.entries
    else:
        lists = load(api.player_lists) or []
        if not lists:
            st.info("No player lists yet: add one on the Players page.")
        else:
            list_by_id = {pl["id"]: pl for pl in lists}
            list_id = st.selectbox("Player list", list(list_by_id), key=f"draws_list_{turn}",
                                   format_func=lambda i: f"{list_by_id[i]['name']} ({len(list_by_id[i]['players'])})")
            players = {str(p["externalID"]): p for p in list_by_id[list_id]["players"] if p.get("externalID")}
            written = genders(list_by_id[list_id])
            only = st.selectbox("Players of", [None, *written], key=f"draws_gender_{list_id}_{turn}",
                                format_func=lambda g: "every gender" if g is None else f"gender {g}",
                                disabled=not written, help="Pick the list's players of one gender at once (a "
                                "men's draw from a club list); the Players box below can still add or take any.")
            chosen_players = st.multiselect("Players", list(players),
                                            default=[i for i in players if only in (None, players[i].get("gender"))],
                                            key=f"draws_players_{list_id}_{turn}_{only}",
                                            format_func=lambda i: player_name(players[i]))
            rated = st.number_input("Seed the best-rated players", 0, len(chosen_players), 0,
                                    key=f"draws_rated_{list_id}_{turn}", help="Seeds 1, 2, ... by the players' "
                                    "ratings (Players page); 0: seeds by hand below. Each seed can still be changed.")
            by_rating = rating_seeds(list_by_id[list_id], chosen_players, int(rated))
            doubles = st.checkbox("Doubles: pick each player's partner", key=f"draws_doubles_{list_id}_{turn}")
            seeds: dict[str, int | None] = {}
            partners: dict[str, str | None] = {}
            with st.expander("Seeds" + (" and partners" if doubles else ""), expanded=doubles):
                partnered: dict[str, str] = {}
                for external_id in chosen_players:
                    person = player_name(players[external_id])
                    if external_id in partnered:
                        st.caption(f"{person}: plays with {partnered[external_id]}")
                        continue
                    who, seed_box, partner_box = st.columns([3, 1, 3], vertical_alignment="center")
                    who.markdown(plain(person))
                    choices = [None, *range(1, len(chosen_players) + 1)]
                    seeds[external_id] = seed_box.selectbox(
                        f"Seed of {person}", choices, label_visibility="collapsed",
                        index=choices.index(by_rating.get(external_id)),
                        key=f"draws_seed_{external_id}_{turn}_{rated}", format_func=lambda s: "no seed" if s is None
                        else f"seed {s}")
                    if doubles:
                        others = [i for i in chosen_players if i != external_id and i not in partnered
                                  and not partners.get(i)]
                        partners[external_id] = partner_box.selectbox(
                            f"Partner of {person}", others, index=None, placeholder="Pick the partner",
                            label_visibility="collapsed", key=f"draws_partner_{external_id}_{turn}",
                            format_func=lambda i: player_name(players[i]))
                        if partners[external_id]:
                            partnered[str(partners[external_id])] = person
            picked = list_entries(list_by_id[list_id], chosen_players, seeds=seeds, partners=partners,
                                  doubles=doubles)
            for problem in picked.problems:
                st.error(problem, icon=":material/error:")
            entries = picked.entries
    st.caption(f"{len(entries)} entries")

    options: dict[str, Any] = {}
    left, middle, right = st.columns(3)
    if fmt in ("round_robin", "groups_knockout", "round_robin_playoff"):
        default_groups = 1 if fmt == "round_robin" else max(1, math.ceil(len(entries) / 4))
        options["groupCount"] = int(left.number_input("Groups", min_value=1, max_value=128, value=default_groups,
                                                      key=f"draws_groups_{fmt}_{turn}"))
    if fmt == "groups_knockout":
        options["advancePerGroup"] = int(middle.number_input("Advance from each group", min_value=1, max_value=4,
                                                             value=2, key=f"draws_advance_{turn}"))
    if fmt == "single_elimination":
        options["thirdPlace"] = left.checkbox("Third-place match", key=f"draws_third_{turn}")
    if fmt == "feed_in":
        options["feedInRounds"] = int(left.number_input("Main rounds whose losers feed the consolation", min_value=1,
                                                        max_value=7, value=2, key=f"draws_feed_{turn}"))
    if fmt == "double_elimination":
        options["grandFinalReset"] = left.checkbox("Second final if the losers' winner takes the first",
                                                   key=f"draws_reset_{turn}")
    if fmt == "swiss":
        options["rounds"] = int(left.number_input("Rounds", min_value=1, max_value=255,
                                                  value=max(1, math.ceil(math.log2(max(2, len(entries))))),
                                                  key=f"draws_rounds_{turn}"))
    if fmt in RANKED:
        rule = right.selectbox("Tie-break rule", list(TIEBREAKS), format_func=TIEBREAKS.__getitem__,
                               key=f"draws_tiebreak_{turn}", help="How entries level on wins are ranked: the "
                                    "federation's rule, or steps of your own in the order picked.")
        options["tiebreak"] = rule if rule != "custom" else st.multiselect(
            "Tie-break steps, in the order picked", list(STEPS), format_func=STEPS.__getitem__,
            default=["wins", "head_to_head"], key=f"draws_steps_{turn}") or ["wins"]
    broadcast_sport = next((b.get("scoringName") or ("custom" if b.get("scoring") else None)
                            for b in load(api.broadcasts) or [] if b["id"] == chosen), None)
    sport_ok, sport = format_picker(f"draws_sport_{turn}", inherit="The broadcast's" + (
        f" ({sport_name(broadcast_sport)})" if broadcast_sport else ""))
    if sport is not None:
        options["scoring"] = sport
    table_ids = st.multiselect("Courts this draw may use", list(courts), default=list(courts),
                               key=f"draws_courts_{turn}", format_func=lambda i: courts[i]["label"])
    if table_ids and len(table_ids) < len(courts):
        options["tableIDs"] = table_ids
    options["separateClubs"] = st.checkbox("Keep players of one club apart where possible", value=True,
                                           key=f"draws_clubs_{turn}")

    body = {"broadcastID": chosen, "name": name.strip(), "format": fmt, "entries": entries, "randomSeed": seed
            } | options
    go = st.columns([1, 1, 1, 3])
    if go[0].button("Preview", key="draws_preview", type="primary", icon=":material/visibility:",
                    disabled=len(entries) < 2 or not sport_ok):
        try:
            st.session_state["draws_previewed"] = (body, api.preview_draw(body))
        except ConsoleError as exc:
            show_problem(exc)
    if go[1].button("Shuffle again", key="draws_shuffle", icon=":material/shuffle:",
                    help="A new random placement of the unseeded entries (seeds stay in their places)."):
        st.session_state["draws_seed"] = fresh_seed()
        st.session_state.pop("draws_previewed", None)
        st.rerun()
    previewed = st.session_state.get("draws_previewed")
    if previewed is not None:
        shown_body, preview = previewed
        if shown_body != body:
            st.info("The form changed since the preview: preview again before saving.", icon=":material/info:")
        else:
            if go[2].button("Save the draw", key="draws_save", type="primary", icon=":material/save:"):
                made = act(api.create_draw, body, rerun=False, done=f"{plain(body['name'])} is saved and running: "
                                                                     "its matches wait for a court.")
                if made is not None:
                    for key in ("draws_previewed", "draws_seed", "draws_new"):
                        st.session_state.pop(key, None)
                    st.session_state["draws_turn"] = turn + 1
                    st.session_state["draws_next"] = made["id"]
                    st.rerun()
            st.caption("Preview: nothing is saved yet.")
            st.html(bracket_html(preview))

# ------------------------------------------------------------------ a running draw
if draws:
    draw_by_id = {d["id"]: d for d in draws}
    if st.session_state.get("draws_pick") not in draw_by_id:
        st.session_state["draws_pick"] = draws[-1]["id"]
    picked = st.selectbox("Draw", list(draw_by_id), key="draws_pick",
                          format_func=lambda i: f"{draw_by_id[i]['name']} · {FORMATS[draw_by_id[i]['format']]}")
    draw = draw_by_id[picked]
    games = load(draw_games, draw) or {}
    names = entry_names(draw)
    matches = [dm for rnd in draw["rounds"] for dm in rnd["drawMatches"]]
    done = sum(1 for dm in matches if dm["status"] in ("complete", "bye"))
    first, second, third = st.columns(3)
    first.metric("Entries", len(draw["entries"]))
    second.metric("Matches decided", f"{done} / {len(matches)}")
    third.metric("Status", "Complete" if draw["status"] == "complete" else "Running")

    free = [t for t in courts.values() if not t.get("activeMatch")]
    over = finished(draw)  # a complete draw has nothing left to withdraw from or delete
    pool = load(api.pool, chosen) or []  # the broadcast's pool: other draws may still wait for a court
    buttons = st.columns([2, 2, 3])
    if over and not pool:
        buttons[0].caption("Every match of this draw is decided.")
    elif buttons[0].button(f"Start the free courts ({len(free)})", key="draws_start_free", icon=":material/play_arrow:",
                           wrap=True,
                         disabled=not free, help="start-next on every court with nothing playing: its own queue "
                                                 "first, then the court pool."):
        act(start_free_courts, free, done="Started the next matches on the free courts.")
    buttons[1].download_button(
        "Print the draw (A4)", data=print_sheet(draw, str(broadcast["name"]), games), icon=":material/print:",
        file_name=file_name("results", f"{draw['name']} {broadcast['name']}").replace("results-", "draw-"),
        mime="text/html", on_click="ignore", key=f"draws_print_{draw['id']}", wrap=True,
        help="An A4 page, black on white, without controls: open the file and print it (Ctrl+P).")

    st.html(bracket_html(draw, games=games))

    st.subheader(f"Waiting for a court ({len(pool)})")
    if pool:
        st.dataframe(pd.DataFrame([{
            "Event": m.get("eventName") or "", "Round": m.get("matchRound") or "",
            "Match": versus(m),
            "Estimated start": clock_time(m.get("estimatedStartOn")),
            "Held back": blocked_text(m)} for m in pool]),
            hide_index=True, width="stretch")
        waiting = {m["id"]: m for m in pool}
        pin_match, pin_court, pin_go = st.columns([3, 2, 1], vertical_alignment="bottom")
        pinned = pin_match.selectbox("Pin a waiting match to a court", list(waiting), index=None,
                                     key="draws_pin_match", placeholder="Pick a match",
                                     format_func=lambda i: versus(waiting[i]))
        court = pin_court.selectbox("Court", list(courts), index=None, key="draws_pin_court",
                                    format_func=lambda i: courts[i]["label"], placeholder="Pick a court")
        if pin_go.button("Pin", key="draws_pin_go", disabled=pinned is None or court is None,
                         help="The match joins that court's queue (its own queue goes before the pool)."):
            assert pinned is not None and court is not None
            act(api.move_match, pinned, court,
                done=f"{plain(versus(waiting[pinned]))} is queued on "
                     f"{plain(courts[court]['label'])}.")
    else:
        st.caption("No match is waiting for a court.")

    if not over:
        with st.expander("Withdraw an entry"):
            in_draw = set(still_in(draw))
            active = {e["id"]: e for e in draw["entries"] if e["id"] in in_draw}
            leaving = st.selectbox("Entry", list(active), index=None, key="draws_withdraw_pick",
                                   format_func=lambda i: names[i], placeholder="Pick the entry that withdraws")
            if leaving is not None:
                st.warning(f"{plain(names[leaving])} withdraws: each of their matches not yet played is a walkover "
                           "for the opponent. This cannot be undone.", icon=":material/warning:")
                if st.button(f"Yes, withdraw {names[leaving]}", key="draws_withdraw_go", type="primary"):
                    act(api.withdraw_entry, draw["id"], leaving, done=f"{plain(active[leaving]['name'])} withdrew.")
        withdrawn = replaceable(draw)
        if withdrawn:
            with st.expander("Replace a withdrawn entry"):
                place = st.selectbox("Withdrawn entry", withdrawn, index=None, key="draws_replace_pick",
                                     format_func=lambda i: names[i], placeholder="Pick the entry to replace")
                losers = lucky_losers(draw)
                lucky = st.selectbox("Lucky loser (out of this draw)", losers, index=None, key="draws_replace_lucky",
                                     format_func=lambda i: names[i], placeholder="Pick a player who lost",
                                     disabled=not losers)
                typed = st.text_input("Or a reserve's name (doubles: Ann Lee / Bo Kim)", key="draws_replace_name",
                                      disabled=lucky is not None)
                if st.button("Replace", key="draws_replace_go", type="primary",
                             disabled=place is None or (lucky is None and not typed.strip()),
                             help="The new entry takes the withdrawn entry's place: its walkovers whose next match "
                                  "has not started are played again."):
                    assert place is not None
                    body = replacement_body(draw, lucky_loser=lucky, typed=typed)
                    newcomer = names[lucky] if lucky is not None else typed.strip()
                    act(api.replace_entry, draw["id"], place, body,
                        done=f"{plain(newcomer)} takes the place of {plain(names[place])}.")
        with st.expander("Delete this draw"):
            st.warning("Deleting cancels the draw's matches that have not started. A draw with a started match "
                       "stays.", icon=":material/warning:")
            sure = st.checkbox(f"Yes, delete {draw['name']}", key="draws_delete_sure")
            if st.button("Delete the draw", key="draws_delete_go", disabled=not sure):
                st.session_state.pop("draws_pick", None)
                act(api.delete_draw, draw["id"], done=f"{plain(draw['name'])} is deleted.")
