"""Order of play (contract §20): the day's plan as a grid (courts as columns, times as rows), plan and re-plan,
move a match to a court and time by hand with every conflict named and its severity, publish, print (A4)."""

from __future__ import annotations

from datetime import date, time

import streamlit as st

from console.order_of_play import (
    grid_frame,
    local,
    slots_of,
    sorted_conflicts,
    stamp,
    unplaced_of,
    unplaced_words,
)
from console.paper import print_button
from console.ui import act, client, load, plain, settings, show_flash

st.title("Order of play")
show_flash()
api = client()
zone = settings().zone()

broadcasts = load(api.broadcasts)
if broadcasts is not None and not broadcasts:
    st.info("No broadcasts yet: create one on the Broadcasts page first.")
elif broadcasts:
    by_id = {b["id"]: b for b in broadcasts}
    chosen = st.selectbox("Broadcast", list(by_id), key="plan_broadcast", format_func=lambda i: by_id[i]["name"])
    broadcast = by_id[chosen]
    current = broadcast.get("plan") or {}
    days = current.get("days") or []

    with st.expander("Plan settings", expanded=not days):
        first = days[0] if days else {}
        on = st.date_input("Day", value=date.fromisoformat(first["date"]) if first else date.today(), key="plan_day")
        start = st.time_input("From", value=time.fromisoformat(first.get("start", "09:00")), key="plan_start")
        end = st.time_input("Until", value=time.fromisoformat(first.get("end", "21:00")), key="plan_end")
        minutes = st.number_input("Minutes per match (0: each format's typical minutes)", min_value=0, max_value=480,
                                  step=5, value=int((current.get("matchMinutes") or {}).get("default", 0)),
                                  key="plan_minutes")
        early = st.number_input("Early call: a match may start this many minutes before its planned time",
                                min_value=0, max_value=120, step=5, value=int(current.get("earlyMinutes") or 0),
                                key="plan_early")
        if st.button("Save the settings", key="plan_save"):
            body = {k: v for k, v in current.items() if k not in ("days", "matchMinutes", "earlyMinutes")}
            body["days"] = [{"date": on.isoformat(), "start": start.strftime("%H:%M"), "end": end.strftime("%H:%M")},
                            *days[1:]]
            if minutes:
                body["matchMinutes"] = {**(current.get("matchMinutes") or {}), "default": int(minutes)}
            if early:
                body["earlyMinutes"] = int(early)
            act(api.set_plan_settings, chosen, body, done="Plan settings saved.")

    if days:
        with st.expander("Players not before a time"):
            people = {p["personID"]: p["name"] for p in load(api.people, chosen) or []}
            held = list(current.get("notBefore") or [])
            for row in held:
                st.markdown(f"- {plain(people.get(row['personID'], row['personID']))}: not before "
                            f"{row['time'].replace('T', ' ')}")
            if people:
                who = st.selectbox("Player", list(people), key="nb_person", format_func=lambda p: people[p])
                nb_day = st.date_input("Day", value=date.fromisoformat(days[0]["date"]), key="nb_day")
                nb_time = st.time_input("Not before", value=time(11, 0), key="nb_time", step=300)
                add_col, remove_col = st.columns(2)
                if add_col.button("Save the time", key="nb_add"):
                    rows = [r for r in held if r["personID"] != who]
                    rows.append({"personID": who, "time": f"{nb_day.isoformat()}T{nb_time:%H:%M}"})
                    act(api.set_plan_settings, chosen, {**current, "notBefore": rows},
                        done=f"{plain(people[who])}: not before {nb_time:%H:%M}. Plan again to apply it.")
                if remove_col.button("Remove the player's time", key="nb_remove",
                                     disabled=not any(r["personID"] == who for r in held)):
                    act(api.set_plan_settings, chosen,
                        {**current, "notBefore": [r for r in held if r["personID"] != who]},
                        done=f"{plain(people[who])} may play from the start of the day.")
            else:
                st.caption("No players in this broadcast yet.")

    left, middle, right = st.columns(3)
    keep = left.toggle("Keep matches placed by hand", value=True, key="plan_keep")
    if middle.button("Plan / re-plan", key="plan_go", type="primary", disabled=not days):
        answer = act(api.plan, chosen, keep_placed=keep, done="Planned.", rerun=False)
        if answer is not None:
            st.session_state["plan_answer"] = answer
            st.rerun()
    published = bool(current.get("published"))
    if right.button("Withdraw from the event page" if published else "Publish on the event page",
                    key="plan_publish", disabled=not days):
        page_open = bool((load(api.event_page, chosen) or {}).get("enabled"))
        act(api.set_plan_settings, chosen, {**current, "published": not published},
            done="Withdrawn: the event page no longer shows the order of play." if published
            else "Published: the event page shows the order of play." if page_open
            else "Published, but the event page is closed: open it on the Event page for players to see the order "
                 "of play.")
    answer = st.session_state.pop("plan_answer", None)
    if answer:
        ends = ", ".join(f"{d['date']} ends {local(d['end'], zone):%H:%M}" for d in answer["days"] if d["end"])
        st.success(f"{answer['placed']} matches placed. {ends}")
        if answer.get("needed"):
            needed = local(answer["needed"]["end"], zone)
            st.warning(f"The days cannot hold every match at these lengths: {len(answer['unplaced'])} not placed. "
                       f"At these lengths the last day needs until {needed:%H:%M}"
                       f"{'' if needed.date().isoformat() == answer['needed']['date'] else f' ({needed:%a %d %b})'}"
                       ": make it longer, the matches shorter, or place them by hand below.")
        for row in answer["unplaced"]:
            st.warning(unplaced_words(row))

    grid = load(api.plan_grid, chosen)
    if grid is not None:
        conflicts = sorted_conflicts(grid["conflicts"])
        st.subheader("Conflicts" if conflicts else "No conflicts")
        for conflict in conflicts:
            (st.error if conflict["severity"] == "error" else st.warning)(
                f"{conflict['severity'].capitalize()}: {conflict['message']}")
        for day in grid["days"]:
            st.subheader(f"{date.fromisoformat(day['date']):%A %d %B %Y}")
            st.dataframe(grid_frame(day, zone), hide_index=True, width="stretch")
        if grid.get("unplaced") and not answer:
            st.warning(f"{len(grid['unplaced'])} matches have no place yet: plan again, or place them by hand below.")
            for row in grid["unplaced"]:
                st.caption(unplaced_words(row))
        first_day = days[0] if days else {}
        day_start = stamp(date.fromisoformat(first_day["date"]), time.fromisoformat(first_day["start"]), zone) \
            if first_day else ""
        slots = slots_of(grid, zone)
        if day_start and broadcast["tables"]:
            slots |= unplaced_of(grid, broadcast["tables"][0]["id"], day_start)
        if slots:
            st.markdown("**Move a match**")
            picked = st.selectbox("Match", list(slots), key="move_match", format_func=lambda k: slots[k]["label"])
            with st.form("plan_move"):
                courts = {t["id"]: t["label"] for t in broadcast["tables"]}
                # keyed by the match picked: its own court and time are filled in (issue 51: the first move of a
                # club's day went to the wrong court, the form showing the first court whatever was picked)
                planned_at = local(slots[picked]["plannedOn"], zone)
                court_ids = list(courts)
                court = st.selectbox("Court", court_ids, key=f"move_court_{picked}", format_func=lambda t: courts[t],
                                     index=court_ids.index(slots[picked]["tableID"])
                                     if slots[picked]["tableID"] in courts else 0)
                when_day = st.date_input("Day", value=planned_at.date(), key=f"move_day_{picked}")
                when = st.time_input("Time", value=planned_at.time(), key=f"move_time_{picked}", step=300)
                if st.form_submit_button("Move"):
                    moved = act(api.move_planned, slots[picked], court, stamp(when_day, when, zone),
                                done="Moved.", rerun=False)
                    if moved is not None:
                        st.rerun()
        print_button(api, broadcast, "order-of-play")
