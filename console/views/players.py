"""Players (contract §9a): the club's player lists and their players: new list, add, edit, remove (asks first),
and a CSV or Excel sheet of players, previewed row by row with the names already in the list shown, then added
with one click. Partner lists are read-only here: their players belong to the partner's sync."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from console.board import MAX_ROWS, left_out_text, player_rows, rating_value, repeated_in_sheet
from console.client import ConsoleError
from console.sheets import dry_run, read_sheet
from console.ui import (
    FLASH,
    act,
    client,
    confirmed,
    field_errors,
    form_key,
    form_problem,
    load,
    plain,
    show_flash,
    show_problem,
    submit,
)
from domain.addresses import needs_smtputf8
from domain.models import PlayerSource
from domain.names import full_name, name_key

#: The operator edits these; mapped players belong to a partner's sync.
EDITABLE = (PlayerSource.MANUAL.value, PlayerSource.SELF.value)
SOURCES = {PlayerSource.MANUAL.value: "added here", PlayerSource.SELF.value: "signed up",
           PlayerSource.MAPPED.value: "partner"}
FIELDS = (("firstName", "First name"), ("lastName", "Last name"), ("clubName", "Club"), ("country", "Country"),
          ("gender", "Gender"), ("email", "Email"), ("rating", "Rating"))
PREVIEW = "_players_preview"  # {"key", "rows", "result"} of the sheet last checked
DONE = "_players_imported"  # the key of the sheet last added, so the same upload is not added twice

st.title("Players")
show_flash()
st.caption("Your player lists: the players of a court's list are picked by name in the New match form and in a "
           "schedule sheet. Every roster has its own list; a list of your own can be chosen for a court on the "
           "Broadcasts page.")
api = client()


def same_name(player: dict[str, Any], first: str, last: str) -> bool:
    """The same person by name: first and last name each the same under the name rule (`names.name_key`)."""
    return all(name_key(str(player.get(field) or "")) == name_key(value)
               for field, value in (("firstName", first), ("lastName", last)))


#: Fields that are not plain text: an email is checked as one (so it is never sent empty), a rating is a number.
TYPED = ("email", "rating")


def typed(player: dict[str, str]) -> dict[str, Any]:
    """A player's typed fields as the API takes them: a rating that reads as a number is sent as one."""
    return {k: rating_value(v) if k == "rating" else v for k, v in player.items()}


with st.expander("New player list"):
    with st.form("players_new_list", clear_on_submit=False):
        form_problem("pln")
        list_name = st.text_input("Name", max_chars=120, key=form_key("pln", "name"))
        field_errors("pln", "name")
        if st.form_submit_button("Create player list"):
            submit("pln", api.create_player_list, list_name.strip(),
                   done=f"Player list {plain(list_name.strip())} created.")

lists = load(api.player_lists)
if lists is not None and not lists:
    st.info("No player lists yet: create one above, or a roster on the Rosters page (it comes with its list).")
if not lists:
    st.stop()

by_id = {pl["id"]: pl for pl in lists}
list_id = st.selectbox("Player list", list(by_id), key="players_list",
                       format_func=lambda i: f"{by_id[i]['name']} ({by_id[i].get('playerCount', 0)} players)")
chosen = by_id[list_id]
players = chosen.get("players") or []
st.markdown(f"#### {plain(chosen['name'])}: {len(players)} {'player' if len(players) == 1 else 'players'}")
if players:
    table = pd.DataFrame([{"Name": full_name(p), "Club": p.get("clubName") or "", "Country": p.get("country") or "",
                           "Gender": p.get("gender") or "", "Email": p.get("email") or "",
                           "Rating": "" if p.get("rating") is None else str(p["rating"]),
                           "From": SOURCES.get(p.get("source", ""), "")}
                          for p in players])
    st.dataframe(table, hide_index=True, width="stretch", height=35 * (min(len(table), 15) + 1) + 3)
    strict = [full_name(p) for p in players if p.get("email") and needs_smtputf8(str(p["email"]))]
    if strict:
        st.warning(f"{', '.join(plain(name) for name in strict)}: the address has letters outside A-Z before the "
                   "@, which only a mail server offering SMTPUTF8 takes. If the call-up mail fails (Mail page), "
                   "ask for another address.", icon=":material/mail:")
else:
    st.caption("No players in this list yet: add them below or import a sheet.")

add, edit, sheet = st.tabs(["Add a player", "Edit or remove", "Import a sheet"])

# ------------------------------------------------------------------ add
with add, st.form(f"players_add_{list_id}", clear_on_submit=True):
    first, last = st.columns(2)
    first_name = first.text_input("First name", max_chars=120)
    last_name = last.text_input("Last name", max_chars=120)
    club, country, gender = st.columns(3)
    club_name = club.text_input("Club", max_chars=120)
    country_code = country.text_input("Country", max_chars=120)
    gender_text = gender.text_input("Gender", max_chars=120)
    mail, rating, ext = st.columns(3)
    email = mail.text_input("Email (for call-up mail)", max_chars=254)
    rating_text = rating.text_input("Rating (seeds draws)", max_chars=40)
    external = ext.text_input("External ID (optional)", max_chars=500)
    twice = st.checkbox("Add even if a player with this name is already in the list", key=f"pl_twice_{list_id}")
    if st.form_submit_button("Add player"):
        player = {"firstName": first_name, "lastName": last_name, "clubName": club_name, "country": country_code,
                  "gender": gender_text, "email": email, "rating": rating_text, "externalID": external}
        if [p for p in players if same_name(p, first_name, last_name)] and not twice:
            st.warning(f"{plain(first_name.strip())} {plain(last_name.strip())} is already in this list. "
                       "Tick \"Add even if...\" to add a second player with that name.")
        else:
            act(api.add_player, list_id, typed({k: v.strip() for k, v in player.items() if v.strip()}),
                done=f"{plain(first_name.strip())} {plain(last_name.strip())} added.".replace("  ", " "))

# ------------------------------------------------------------------ edit, remove
with edit:
    editable = {str(p["id"]): p for p in players if p.get("source") in EDITABLE and p.get("id")}
    if not editable:
        st.caption("Players added here or signed up can be edited; this list has none (a partner's players "
                   "change through the partner's system).")
    else:
        player_id = st.selectbox("Player", list(editable), key="players_edit_pick",
                                 format_func=lambda i: f"{full_name(editable[i])} ({SOURCES[editable[i]['source']]})")
        current = editable[player_id]
        with st.form(f"players_edit_{player_id}"):
            values = {field: st.text_input(label, value=str(current.get(field) or ""), max_chars=120,
                                           key=f"players_edit_{field}_{player_id}") for field, label in FIELDS}
            if st.form_submit_button("Save player"):
                changes = typed({f: v.strip() for f, v in values.items()
                                 if v.strip() != str(current.get(f) or "") and (v.strip() or f not in TYPED)})
                if changes:
                    act(api.edit_player, list_id, player_id, changes,
                        done=f"{plain(full_name(current | changes))} saved.")
                else:
                    st.info("Nothing changed.")
        if confirmed("Remove player", key="players_remove",
                     question=f"Remove {plain(full_name(current))} from {plain(chosen['name'])}? Matches already "
                              "made keep the name."):
            act(api.remove_player, list_id, player_id, done=f"{plain(full_name(current))} removed.")

# ------------------------------------------------------------------ import a sheet
with sheet:
    st.caption("One row a player: **firstName** and **lastName** (or one **name** column), and optionally "
               "**club**, **country**, **gender**, **email** (for call-up mail) and **rating** (seeds draws). A "
               "name already in the list is shown and left out. See docs/sample-players.csv.")
    upload = st.file_uploader("Players (CSV or Excel)", type=["csv", "xlsx"], key="players_file")
    frame = read_sheet(upload) if upload is not None else None
    if frame is not None and upload is not None:
        rows, sheet_problems = player_rows(frame)
        for problem in sheet_problems:
            st.warning(problem, icon=":material/warning:")
        key = (list_id, getattr(upload, "file_id", upload.name), len(rows))
        if len(rows) > MAX_ROWS:
            st.error(f"This sheet has {len(rows):,} rows; an import takes at most {MAX_ROWS:,}. Split it into "
                     "several files.", icon=":material/error:")
        elif not rows:
            st.warning("The sheet has no rows.", icon=":material/warning:")
        elif st.session_state.get(DONE) == key:
            st.caption("This sheet has been added.")
        elif not sheet_problems or all(p.startswith("Column") for p in sheet_problems):
            preview = st.session_state.get(PREVIEW)
            if not preview or preview["key"] != key:
                result = dry_run(lambda: api.import_players(list_id, rows, dry_run=True), rows)
                preview = {"key": key, "rows": rows, "result": result}
                st.session_state[PREVIEW] = preview
            result = preview["result"]
            duplicate = [code == "player_exists" for code in result["codes"]]
            other_problems = sum(1 for problem, dup in zip(result["problems"], duplicate, strict=True)
                                 if problem and not dup)
            shown = pd.DataFrame(rows).reindex(columns=[f for f, _ in FIELDS]).astype(object).fillna("")
            shown.columns = [label for _, label in FIELDS]
            shown.insert(0, "Row", range(2, len(rows) + 2))  # as numbered in a spreadsheet, under its header
            repeated = repeated_in_sheet(rows, result["results"]) if result["results"] else [False] * len(rows)
            shown["Problem"] = [("Twice in this sheet (left out)" if again else "Already in the list (left out)")
                                if dup else problem
                                for problem, dup, again in zip(result["problems"], duplicate, repeated, strict=True)]
            if result.get("message"):
                st.error(result["message"], icon=":material/error:")
            fresh = [row for row, dup in zip(rows, duplicate, strict=True) if not dup]
            if other_problems or result.get("message"):
                st.error(f"{other_problems} of {len(rows)} rows have a problem: fix them in the sheet and upload "
                         "it again. Nothing is added until every row is valid.", icon=":material/error:")
            elif any(duplicate):
                in_sheet = sum(1 for dup, again in zip(duplicate, repeated, strict=True) if dup and again)
                st.warning(left_out_text(sum(duplicate) - in_sheet, in_sheet, len(rows), len(fresh),
                                         plain(chosen["name"])), icon=":material/content_copy:")
            else:
                st.success(f"{len(rows)} {'player' if len(rows) == 1 else 'players'} ready to add.",
                           icon=":material/check_circle:")
            st.dataframe(shown, hide_index=True, width="stretch", height=35 * (min(len(shown), 20) + 1) + 3)
            ready = not other_problems and not result.get("message") and bool(fresh)
            label = f"Add {len(fresh)} {'player' if len(fresh) == 1 else 'players'}"
            if st.button(label, key="players_import", type="primary", disabled=not ready):
                try:
                    done = api.import_players(list_id, fresh, dry_run=False)
                except ConsoleError as exc:
                    show_problem(exc)
                else:
                    st.session_state.pop(PREVIEW, None)
                    if done["imported"]:
                        st.session_state[DONE] = key
                        st.session_state[FLASH] = f"Added {done['imported']} players to {plain(chosen['name'])}."
                        st.rerun()
                    else:
                        st.error("Nothing was added: the list changed since the check; upload the sheet again.",
                                 icon=":material/error:")
