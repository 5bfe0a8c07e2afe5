"""Broadcasts and courts: create and edit broadcasts and their courts, hand one to a connection, delete one
(asks first), and choose each court's player list (contract §9a). Rosters and players have their own pages."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from console.format_picker import format_picker
from console.scoring import sport_name
from console.ui import act, client, confirmed, field_errors, form_key, form_problem, load, plain, show_flash, submit
from domain.models import ConnectionKind

st.title("Broadcasts and courts")
show_flash()
api = client()


def split(text: str, sep: str | None = None) -> list[str]:
    return [part.strip() for part in text.split(sep) if part.strip()]


def courts_after(existing: list[dict[str, Any]], labels: list[str]) -> list[dict[str, Any]]:
    """Court write objects for the edited labels: line N keeps court N's ID (and scoreboards)."""
    courts: list[dict[str, Any]] = []
    for index, label in enumerate(labels):
        court: dict[str, Any] = {"label": label}
        if index < len(existing):
            court["id"] = existing[index]["id"]
            if existing[index].get("scoreboardIDs"):
                court["scoreboardIDs"] = existing[index]["scoreboardIDs"]
        courts.append(court)
    return courts


# ------------------------------------------------------------------ broadcasts
st.subheader("Broadcasts")
broadcasts = load(api.broadcasts)
if broadcasts is not None:
    if not broadcasts:
        st.info("No broadcasts yet: create one below.")
    else:
        overview = pd.DataFrame([{
            "name": b["name"], "courts": ", ".join(t["label"] for t in b.get("tables") or []),
            "sport": sport_name(b["scoringName"]) if b.get("scoringName") else "custom" if b.get("scoring")
            else "server's",
            "manager": b.get("managerConnectionID"), "id": b["id"], "updatedOn": b.get("updatedOn"),
        } for b in broadcasts])
        st.dataframe(overview, hide_index=True, width="stretch")

def court_line(path: str) -> str:
    """`tables.3.label` -> `Court line 4: `."""
    parts = path.split(".")
    return f"Court line {int(parts[1]) + 1}: " if len(parts) > 1 and parts[1].isdigit() else ""


with st.expander("New broadcast", expanded=not broadcasts):
    server = load(api.rules) or {}
    server_sport = sport_name(server.get("scoringName") or "") if server.get("scoringName") else "custom"
    sport_ok, sport = format_picker("bc_new", inherit=f"The server's ({server_sport})")
    with st.form("broadcast_new", clear_on_submit=False):  # a refused form keeps what was typed
        form_problem("bc")
        name = st.text_input("Name", max_chars=120, key=form_key("bc", "name"))
        field_errors("bc", "name")
        description = st.text_area("Description", max_chars=800, key=form_key("bc", "description"))
        field_errors("bc", "description")
        courts = st.text_area("Courts (one label a line, 1 to 50)", key=form_key("bc", "courts"))
        field_errors("bc", "tables", court_line)
        boards = st.text_input(
            "Scoreboard IDs (comma-separated)", value="classic", key=form_key("bc", "boards"),
            help="Each court gets a live scoreboard page per ID for a stream or a screen (Outputs page): "
                 "classic, lowerthird, court. Clear it for none.")
        field_errors("bc", "scoreboardIDs")
        if st.form_submit_button("Create broadcast"):
            body: dict[str, Any] = {"name": name.strip(), "tables": [{"label": c} for c in split(courts, "\n")]}
            if description.strip():
                body["description"] = description.strip()
            if split(boards, ","):
                body["scoreboardIDs"] = split(boards, ",")
            if sport is not None:
                body["scoring"] = sport
            if sport_ok:
                submit("bc", api.create_broadcast, body, done=f"Broadcast {plain(name.strip())} created.")
            else:
                st.error("Finish the scoring format above first.")

if broadcasts:
    st.markdown("**Edit a broadcast**")
    by_id = {b["id"]: b for b in broadcasts}
    chosen = st.selectbox("Broadcast", list(by_id), key="bc_pick", format_func=lambda i: by_id[i]["name"])
    current = by_id[chosen]
    now_sport = current.get("scoringName") or current.get("scoring")
    sport_ok, sport = format_picker(f"bc_edit_{chosen}", current=now_sport,
                                    inherit="The server's" + (" (now)" if now_sport is None else ""))
    with st.form(f"broadcast_edit_{chosen}"):
        new_name = st.text_input("Name", value=current["name"], max_chars=120, key=f"bc_edit_name_{chosen}")
        new_description = st.text_area("Description", value=current.get("description") or "", max_chars=800)
        existing = current.get("tables") or []
        court_text = st.text_area("Courts (one label a line)", value="\n".join(t["label"] for t in existing),
                                  key=f"bc_edit_courts_{chosen}",
                                  help="Line N renames court N (it keeps its ID and queue); extra lines add courts, "
                                       "removed lines delete the last courts.")
        if st.form_submit_button("Save broadcast"):
            patch: dict[str, Any] = {}
            if new_name.strip() != current["name"]:
                patch["name"] = new_name.strip()
            if new_description.strip() != (current.get("description") or ""):
                patch["description"] = new_description.strip()
            tables = courts_after(existing, split(court_text, "\n"))
            if tables != courts_after(existing, [t["label"] for t in existing]):
                patch["tables"] = tables
            if sport != now_sport and sport_ok:  # its waiting matches follow; matches in play keep theirs
                patch["scoring"] = sport
            if patch:
                act(api.update_broadcast, chosen, patch, done=f"Broadcast {plain(new_name.strip())} saved.")
            else:
                st.info("Nothing changed.")

    connections = [c for c in load(api.connections) or [] if not c.get("revokedOn")]
    hand, remove = st.columns(2)
    with hand:
        if connections:
            names = {c["connectionID"]: f"{c.get('appName') or c.get('kind')} · {c['connectionID']}"
                     for c in connections}
            target = st.selectbox("Hand over to connection", list(names), key="bc_handover_to",
                                  format_func=lambda i: names[i])
            if st.button("Hand over", key="bc_handover"):
                act(api.hand_over, chosen, target, done=f"{plain(current['name'])} is now managed by {target}.")
        else:
            st.caption("No connection to hand this broadcast to.")
    with remove:
        if confirmed("Delete broadcast", key="bc_delete",
                     question=f"Delete {plain(current['name'])} with its courts, queues and output links?"):
            act(api.delete_broadcast, chosen, done=f"Broadcast {plain(current['name'])} deleted.")

# ------------------------------------------------------------------ courts: which player list each uses
if broadcasts:
    st.subheader("Courts: player lists")
    st.caption("A court's players are picked by name from its player list (New match form, schedule sheets). "
               "Without a list of its own, a court uses the broadcast's list (a roster made for the broadcast).")
    house = next((c["connectionID"] for c in load(api.connections) or [] if c.get("kind") == ConnectionKind.HOUSE),
                 None)
    all_lists = load(api.player_lists) or []
    own = {pl["externalID"]: pl["name"] for pl in all_lists if house and pl.get("connectionID") == house
           and pl.get("externalID")}
    list_names = {pl["id"]: pl["name"] for pl in all_lists}
    default = list_names.get(current.get("defaultPlayerListID") or "", "none")
    courts_now = {t["id"]: t for t in load(api.tables) or [] if t.get("broadcastID") == chosen}
    if current.get("managerConnectionID") not in (None, house):
        st.caption("A partner manages this broadcast: its system chooses the courts' lists.")
    elif not courts_now:
        st.caption("This broadcast has no courts.")
    else:
        with st.form(f"court_lists_{chosen}"):
            picks: dict[str, str] = {}
            for table_id, table in courts_now.items():
                options = [""] + list(own)
                now_using = table.get("playerListExternalID") or ""
                if now_using not in options:
                    options.append(now_using)
                picks[table_id] = str(st.selectbox(
                    plain(table["label"]), options, index=options.index(now_using), key=f"court_list_{table_id}",
                    format_func=lambda x: own.get(x, x) if x else f"The broadcast's list ({default})"))
            if st.form_submit_button("Save court player lists"):
                changed = {t: pick for t, pick in picks.items()
                           if pick != (courts_now[t].get("playerListExternalID") or "")}
                for table_id, pick in changed.items():
                    if act(api.set_court_player_list, table_id, pick or None, rerun=False,
                           done=f"Court player lists of {plain(current['name'])} saved.") is None:
                        break
                else:
                    if changed:
                        st.rerun()
                    st.info("Nothing changed.")
