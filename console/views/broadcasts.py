"""Broadcasts and rosters: create and edit broadcasts and their courts, hand one to a connection, rosters,
and the manual players of a player list."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from console.phone import show_sign_ups
from console.ui import act, client, field_errors, form_key, form_problem, load, plain, show_flash, submit

st.title("Broadcasts and rosters")
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
            "manager": b.get("managerConnectionID"), "id": b["id"], "updatedOn": b.get("updatedOn"),
        } for b in broadcasts])
        st.dataframe(overview, hide_index=True, width="stretch")

def court_line(path: str) -> str:
    """`tables.3.label` -> `Court line 4: `."""
    parts = path.split(".")
    return f"Court line {int(parts[1]) + 1}: " if len(parts) > 1 and parts[1].isdigit() else ""


with st.expander("New broadcast", expanded=not broadcasts):
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
            submit("bc", api.create_broadcast, body, done=f"Broadcast {plain(name.strip())} created.")

if broadcasts:
    st.markdown("**Edit a broadcast**")
    by_id = {b["id"]: b for b in broadcasts}
    chosen = st.selectbox("Broadcast", list(by_id), key="bc_pick", format_func=lambda i: by_id[i]["name"])
    current = by_id[chosen]
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
        sure = st.checkbox("Yes, delete this broadcast and its courts", key="bc_delete_confirm")
        if st.button("Delete broadcast", key="bc_delete", disabled=not sure):
            act(api.delete_broadcast, chosen, done=f"Broadcast {plain(current['name'])} deleted.")

# ------------------------------------------------------------------ rosters
st.subheader("Rosters")
rosters = load(api.rosters)
if rosters is not None:
    if rosters:
        st.dataframe(pd.DataFrame(rosters), hide_index=True, width="stretch")
    else:
        st.info("No rosters yet.")
    open_rosters = [r for r in rosters if r.get("rosterType") == "individual" and r.get("selfRegistrationEnabled")]
    if open_rosters:
        sign_up_lists = {item["id"]: item for item in load(api.player_lists) or []}
        for roster in open_rosters:
            show_sign_ups(api, roster, sign_up_lists.get(roster["source"]["playerListID"]))

# ------------------------------------------------------------------ player lists
def same_name(player: dict[str, Any], first: str, last: str) -> bool:
    """The same person by name: first and last name equal, trimmed and case-insensitive."""
    return all(str(player.get(field) or "").strip().casefold() == value.strip().casefold()
               for field, value in (("firstName", first), ("lastName", last)))


st.subheader("Player lists")
lists = load(api.player_lists)
if lists is not None and not lists:
    st.info("No player lists yet: partners sync them, and every roster has one.")
elif lists:
    lists_by_id = {pl["id"]: pl for pl in lists}
    list_id = st.selectbox("Player list", list(lists_by_id), key="pl_pick",
                           format_func=lambda i: f"{lists_by_id[i]['name']} ({lists_by_id[i].get('playerCount', 0)})")
    players = lists_by_id[list_id].get("players") or []
    if players:
        st.dataframe(pd.DataFrame(players), hide_index=True, width="stretch")
    else:
        st.caption("No players in this list.")
    manual = {str(p.get("id") or p.get("externalID")): p for p in players if p.get("source") == "manual"}
    if manual:
        gone = st.selectbox("Manual player", list(manual), key="pl_remove_pick",
                            format_func=lambda i: " ".join(filter(None, (manual[i].get("firstName"),
                                                                         manual[i].get("lastName")))) or i)
        if st.button("Remove manual player", key="pl_remove"):
            act(api.remove_player, list_id, gone, done="Player removed.")
    with st.form(f"pl_add_{list_id}", clear_on_submit=True):
        st.markdown("**Add a manual player**")
        first, last = st.columns(2)
        first_name = first.text_input("First name", max_chars=120)
        last_name = last.text_input("Last name", max_chars=120)
        country, club = st.columns(2)
        country_code = country.text_input("Country", max_chars=120)
        club_name = club.text_input("Club", max_chars=120)
        external = st.text_input("External ID (optional)", max_chars=500)
        twice = st.checkbox("Add even if a player with this name is already in the list", key=f"pl_twice_{list_id}")
        if st.form_submit_button("Add player"):
            player = {"firstName": first_name, "lastName": last_name, "country": country_code,
                      "clubName": club_name, "externalID": external}
            same = [p for p in players if same_name(p, first_name, last_name)]
            if same and not twice:
                st.warning(f"{plain(first_name.strip())} {plain(last_name.strip())} is already in this list. "
                           "Tick \"Add even if...\" to add a second player with that name.")
            else:
                act(api.add_player, list_id, {k: v.strip() for k, v in player.items() if v.strip()},
                    done="Player added.")
