"""Contract §9a in the console: everything a club sets up, over the operator API only. Players (new list, add,
edit, remove after a confirmation, a CSV/Excel sheet previewed with its duplicate rows shown), Rosters (individual
and team, the self-registration switch with its link, QR code and sign-up count, a new link after a confirmation),
each court's player list on the Broadcasts page, and a schedule's start times (a `Time` column on the chosen day)
previewed and kept as each match's "not before", shown on the court board."""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from datetime import date, timedelta
from typing import Any

import openpyxl
import requests
from streamlit.testing.v1 import AppTest

from console.board import clock_time
from domain.clock import parse_iso
from tests.conftest import ROOT
from tests.console.conftest import Operator, Partner, texts
from tests.console.test_event_day import operator_broadcast
from tests.console.test_pages import click, press

Console = Callable[[str], AppTest]
SAMPLE_PLAYERS = ROOT / "docs" / "sample-players.csv"


def house_list(operator_api: Operator, name: str = "Club members") -> dict[str, Any]:
    return dict(operator_api.data("POST", "/operator/player-lists", {"name": name}))


def players_of(operator_api: Operator, list_id: str) -> list[dict[str, Any]]:
    return list(next(pl for pl in operator_api.data("GET", "/operator/player-lists") if pl["id"] == list_id)
                ["players"])


def sign_up(url: str, first: str, last: str) -> int:
    """One sign-up on the public page, as a phone sends it (with the form's CSRF token)."""
    session = requests.Session()
    token = re.search(r'name="csrf" value="([^"]+)"', session.get(url, timeout=10).text)
    assert token is not None
    return session.post(url, data={"csrf": token.group(1), "firstName": first, "lastName": last},
                        timeout=10).status_code


# ------------------------------------------------------------------------------------------------ players
def test_players_page_creates_a_list(console: Console, operator_api: Operator) -> None:
    app = console("views/players.py")
    next(t for t in app.text_input if t.label == "Name").input("Club members")
    press(app, "Create player list")
    assert "Player list Club members created." in texts(app, "success")
    assert [pl["name"] for pl in operator_api.data("GET", "/operator/player-lists")] == ["Club members"]


def test_players_page_imports_the_sample_sheet_with_a_preview(console: Console, operator_api: Operator) -> None:
    listed = house_list(operator_api)
    app = console("views/players.py")
    app.file_uploader(key="players_file").set_value(("players.csv", SAMPLE_PLAYERS.read_bytes(), "text/csv"))
    app.run()
    assert not app.exception, app.exception
    assert "24 players ready to add." in texts(app, "success")
    preview = app.dataframe[-1].value
    assert list(preview.columns) == ["Row", "First name", "Last name", "Club", "Country", "Gender", "Email", "Rating",
                                     "Problem"]
    assert list(preview["Row"])[:2] == [2, 3] and preview.iloc[0]["Club"] == "TTC Riverside"
    assert players_of(operator_api, listed["id"]) == []  # a preview adds nothing
    press(app, "Add 24 players")
    assert "Added 24 players to Club members." in texts(app, "success")
    players = players_of(operator_api, listed["id"])
    assert len(players) == 24 and {p["source"] for p in players} == {"manual"}
    assert (players[0]["firstName"], players[0]["lastName"], players[0]["clubName"], players[0]["country"],
            players[0]["gender"]) == ("Ann", "Lee", "TTC Riverside", "GB", "F")
    assert not [b for b in app.button if b.key == "players_import"]  # the same upload is not added twice


def test_players_page_shows_the_names_already_in_the_list_and_adds_only_the_new_ones(
    console: Console, operator_api: Operator, tmp_path: Any,
) -> None:
    listed = house_list(operator_api)
    operator_api.data("POST", f"/operator/player-lists/{listed['id']}/players", {"firstName": "Ann", "lastName": "Lee"})
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(["Name", "Club"])
    for row in (["ann  LEE", "Riverside"], ["Bo Chen", "Riverside"], ["Mary Ann Cruz", None], ["Bo Chen", None]):
        sheet.append(row)
    data = io.BytesIO()
    book.save(data)
    app = console("views/players.py")
    app.file_uploader(key="players_file").set_value(
        ("players.xlsx", data.getvalue(), "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"))
    app.run()
    assert not app.exception, app.exception
    preview = app.dataframe[-1].value
    assert list(preview["First name"]) == ["ann", "Bo", "Mary Ann", "Bo"]
    # the second Bo Chen is not in the list: he is in the sheet twice (QA walk-through: both said "in the list")
    assert list(preview["Problem"]) == ["Already in the list (left out)", "", "", "Twice in this sheet (left out)"]
    assert ("1 of 4 players is already in Club members and 1 row repeats a name from higher up in the sheet: "
            "they are left out; 2 new.") in texts(app, "warning")
    press(app, "Add 2 players")
    assert [(p["firstName"], p["lastName"]) for p in players_of(operator_api, listed["id"])] == [
        ("Ann", "Lee"), ("Bo", "Chen"), ("Mary Ann", "Cruz")]


def test_players_page_refuses_a_sheet_with_a_bad_row_and_names_it(console: Console, operator_api: Operator) -> None:
    listed = house_list(operator_api)
    app = console("views/players.py")
    app.file_uploader(key="players_file").set_value(
        ("players.csv", b"firstName,lastName\nAnn,Lee\nBo,\n", "text/csv"))
    app.run()
    assert list(app.dataframe[-1].value["Problem"]) == ["", "lastName: Missing data for required field."]
    assert any(e.startswith("1 of 2 rows have a problem") for e in texts(app, "error"))
    assert app.button(key="players_import").disabled
    assert players_of(operator_api, listed["id"]) == []


def test_players_page_imports_email_and_rating_columns(console: Console, operator_api: Operator) -> None:
    """Issue 51, point 8: the import said "Column 'email' is not used" and "Column 'rating' is not used"."""
    listed = house_list(operator_api)
    app = console("views/players.py")
    app.file_uploader(key="players_file").set_value(
        ("players.csv", b"firstName,lastName,E-mail,Rating\nAnn,Lee,ann@example.org,1850\nBo,Chen,,4.5\n",
         "text/csv"))
    app.run()
    assert not app.exception, app.exception
    assert not [w for w in texts(app, "warning") if "is not used" in w]
    preview = app.dataframe[-1].value
    assert list(preview["Email"]) == ["ann@example.org", ""] and list(preview["Rating"]) == [1850, 4.5]
    press(app, "Add 2 players")
    ann, bo = players_of(operator_api, listed["id"])
    assert (ann["email"], ann["rating"], bo["rating"]) == ("ann@example.org", 1850, 4.5) and "email" not in bo


def test_players_page_adds_and_edits_a_players_email_and_rating(console: Console, operator_api: Operator) -> None:
    listed = house_list(operator_api)
    app = console("views/players.py")
    for label, value in (("First name", "Ann"), ("Last name", "Lee"), ("Email (for call-up mail)", "ann@example.org"),
                         ("Rating (seeds draws)", "1850")):
        next(t for t in app.text_input if t.label == label).input(value)
    press(app, "Add player")
    assert "Ann Lee added." in texts(app, "success")
    [player] = players_of(operator_api, listed["id"])
    assert (player["email"], player["rating"]) == ("ann@example.org", 1850)
    app.text_input(key=f"players_edit_email_{player['id']}").input("ann.lee@example.org")
    app.text_input(key=f"players_edit_rating_{player['id']}").input("1900.5")
    press(app, "Save player")
    [player] = players_of(operator_api, listed["id"])
    assert (player["email"], player["rating"]) == ("ann.lee@example.org", 1900.5)
    assert app.dataframe[0].value.iloc[0]["Rating"] == "1900.5"


def test_players_page_says_at_entry_which_addresses_need_smtputf8(console: Console, operator_api: Operator) -> None:
    """Issue 47.10: a non-ASCII name before the @ reaches the player only through a server offering SMTPUTF8."""
    listed = house_list(operator_api)
    app = console("views/players.py")
    for label, value in (("First name", "Jörg"), ("Last name", "Bär"),
                         ("Email (for call-up mail)", "jörg@bär.example")):
        next(t for t in app.text_input if t.label == label).input(value)
    press(app, "Add player")
    assert "Jörg Bär added." in texts(app, "success")
    [warning] = [w for w in texts(app, "warning") if "SMTPUTF8" in w]
    assert warning.startswith("Jörg Bär: the address has letters outside A-Z before the @")
    operator_api.data("POST", f"/operator/player-lists/{listed['id']}/players",
                      {"firstName": "Ann", "lastName": "Lee", "email": "ann@bär.example"})
    app.run()
    assert [w for w in texts(app, "warning") if "SMTPUTF8" in w] == [warning]  # an IDNA domain alone is fine


def test_players_page_edits_a_player(console: Console, operator_api: Operator) -> None:
    listed = house_list(operator_api)
    operator_api.data("POST", f"/operator/player-lists/{listed['id']}/players", {"firstName": "Ann", "lastName": "Le"})
    app = console("views/players.py")
    player_id = players_of(operator_api, listed["id"])[0]["id"]
    app.text_input(key=f"players_edit_lastName_{player_id}").input("Lee")
    app.text_input(key=f"players_edit_clubName_{player_id}").input("Riverside")
    press(app, "Save player")
    assert "Ann Lee saved." in texts(app, "success")
    [player] = players_of(operator_api, listed["id"])
    assert (player["lastName"], player["clubName"]) == ("Lee", "Riverside")


def test_partner_players_are_read_only_here(console: Console, partner: Partner) -> None:
    partner.players()
    app = console("views/players.py")
    assert not [b for b in app.button if b.key == "players_remove"]
    assert any(c.startswith("Players added here or signed up can be edited") for c in texts(app, "caption"))


# ------------------------------------------------------------------------------------------------ rosters
def test_rosters_page_creates_an_individual_roster_open_to_sign_ups_with_its_link_qr_and_count(
    console: Console, operator_api: Operator,
) -> None:
    operator_broadcast(operator_api, ["Court 1"])
    app = console("views/rosters.py")
    next(t for t in app.text_input if t.label == "Name").input("Open entries")
    next(s for s in app.selectbox if s.label == "For broadcast").set_value(
        operator_api.data("GET", "/operator/broadcasts")[0]["id"])
    next(c for c in app.checkbox if c.label.startswith("Players may sign up")).check()
    press(app, "Create roster")
    assert "Roster Open entries created." in texts(app, "success")
    [roster] = operator_api.data("GET", "/operator/rosters")
    assert (roster["rosterType"], roster["selfRegistrationEnabled"]) == ("individual", True)
    assert operator_api.data("GET", "/operator/broadcasts")[0]["defaultPlayerListID"] == \
        roster["source"]["playerListID"]
    url = operator_api.data("GET", f"/operator/rosters/{roster['id']}/registration")["url"]
    assert url in [c.value for c in app.code] and len(app.get("image")) == 1  # the link and its QR code
    assert any(e.label == "Sign-ups: Open entries (0)" for e in app.expander)
    assert any(w.startswith("These links name this computer only") for w in texts(app, "warning"))
    assert sign_up(url, "Mima", "Ito") == 201
    app.run()
    assert any(e.label == "Sign-ups: Open entries (1)" for e in app.expander)
    # who signed up, in the desk's words: no field names, no "None" for what they left out (QA walk-through)
    assert app.dataframe[-1].value.to_dict("records") == [
        {"First name": "Mima", "Last name": "Ito", "Club": "", "Country": "", "Gender": ""}]


def test_rosters_page_switches_self_registration_off_and_on_and_asks_before_a_new_link(
    console: Console, operator_api: Operator,
) -> None:
    roster = operator_api.data("POST", "/operator/rosters", {"name": "Singles", "type": "individual",
                                                             "selfRegistrationEnabled": True})
    url = operator_api.data("GET", f"/operator/rosters/{roster['id']}/registration")["url"]
    app = console("views/rosters.py")
    app.toggle(key=f"roster_self_{roster['id']}").set_value(False).run()
    assert "Self-registration of Singles is off." in texts(app, "success")
    assert requests.get(url, timeout=10).status_code == 404
    off = [c for c in texts(app, "caption") if c.startswith("Self-registration is off")]
    assert off and "404" not in off[0] and "page not found" in off[0], off  # in words, not an HTTP status
    app.toggle(key=f"roster_self_{roster['id']}").set_value(True).run()
    assert requests.get(url, timeout=10).status_code == 200  # the same link comes back
    click(app, f"roster_rotate_{roster['id']}")
    assert requests.get(url, timeout=10).status_code == 200  # it asks first
    click(app, f"roster_rotate_{roster['id']}_yes")
    assert "Singles: new sign-up link." in texts(app, "success")
    assert requests.get(url, timeout=10).status_code == 404


def test_rosters_page_creates_a_team_roster_without_self_registration(console: Console,
                                                                     operator_api: Operator) -> None:
    app = console("views/rosters.py")
    next(t for t in app.text_input if t.label == "Name").input("League teams")
    next(r for r in app.radio if r.label == "Type").set_value("team")  # a form: sent with its submit
    press(app, "Create roster")
    [roster] = operator_api.data("GET", "/operator/rosters")
    assert roster["rosterType"] == "team"
    assert not [t for t in app.toggle]
    assert any(c.startswith("Team rosters have no self-registration") for c in texts(app, "caption"))


# ------------------------------------------------------------------------------------------------ courts
def test_broadcasts_page_chooses_a_courts_player_list(console: Console, operator_api: Operator) -> None:
    tables = operator_broadcast(operator_api, ["Court 1", "Court 2"])
    listed = house_list(operator_api, "Juniors")
    app = console("views/broadcasts.py")
    box = app.selectbox(key=f"court_list_{tables['Court 2']}")
    assert box.value == "" and box.format_func("") == "The broadcast's list (none)"
    box.set_value(listed["externalID"])
    press(app, "Save court player lists")
    assert "Court player lists of Saturday Open saved." in texts(app, "success")
    courts = operator_api.tables()
    assert (courts["Court 1"]["playerListExternalID"], courts["Court 2"]["playerListExternalID"]) == (
        None, listed["externalID"])
    app.selectbox(key=f"court_list_{tables['Court 2']}").set_value("")
    press(app, "Save court player lists")
    assert operator_api.tables()["Court 2"]["playerListExternalID"] is None


def test_a_partners_broadcast_keeps_its_courts_lists(console: Console, partner: Partner) -> None:
    partner.broadcast("Club Open", ["Court 1"])
    app = console("views/broadcasts.py")
    assert "A partner manages this broadcast: its system chooses the courts' lists." in texts(app, "caption")


# ------------------------------------------------------------------------------------------------ schedule times
def test_import_page_places_a_time_column_on_the_chosen_day_and_the_board_shows_it(
    console: Console, operator_api: Operator,
) -> None:
    operator_broadcast(operator_api, ["Court 1"])
    sheet = b"Court,Player A,Player B,Time\nCourt 1,Ann Lee,Bo Chen,23:30\nCourt 1,Cy Diaz,Di Evans,\n"
    app = console("views/import_schedule.py")
    app.file_uploader(key="import_file").set_value(("day.csv", sheet, "text/csv"))
    app.run()
    assert not app.exception, app.exception
    assert app.date_input(key="import_day").value == date.today()
    day = date.today() + timedelta(days=30)
    app.date_input(key="import_day").set_value(day).run()
    preview = app.dataframe[0].value
    assert list(preview["time"]) == ["23:30", ""] and list(preview["Not before"]) == ["23:30", ""]
    assert "2 matches ready to queue." in texts(app, "success")
    press(app, "Queue 2 matches")
    queue = operator_api.tables()["Court 1"]["queue"]
    first = queue[0]["notBefore"]
    assert clock_time(first) == "23:30" and parse_iso(first).astimezone().date() == day
    assert "notBefore" not in queue[1]
    assert queue[0]["blockedBy"]["reason"] == "not_before"
    board = console("views/court_board.py")
    assert any("Not before 23:30" in m.value.replace("\\", "") for m in board.markdown)
    assert any(b.label == "Start next: Cy Diaz vs Di Evans" for b in board.button)


# ------------------------------------------------------------------------------------------------ confirmations
def test_deleting_a_broadcast_asks_first(console: Console, operator_api: Operator) -> None:
    operator_broadcast(operator_api, ["Court 1"])
    app = console("views/broadcasts.py")
    click(app, "bc_delete")
    assert "Delete Saturday Open with its courts, queues and output links?" in texts(app, "warning")
    click(app, "bc_delete_no")
    assert len(operator_api.data("GET", "/operator/broadcasts")) == 1
    click(app, "bc_delete")
    click(app, "bc_delete_yes")
    assert "Broadcast Saturday Open deleted." in texts(app, "success")
    assert operator_api.data("GET", "/operator/broadcasts") == []


def test_importing_a_sheet_again_leaves_out_the_matches_already_queued_unless_asked(
    console: Console, operator_api: Operator,
) -> None:
    operator_broadcast(operator_api, ["Court 1"])
    first = b"court,playerA,playerB\nCourt 1,Ann Lee,Bo Chen\n"
    app = console("views/import_schedule.py")
    app.file_uploader(key="import_file").set_value(("day.csv", first, "text/csv"))
    app.run()
    press(app, "Queue 1 match")
    again = first + b"Court 1,Cy Diaz,Di Evans\n"
    app.file_uploader(key="import_file").set_value(("day-2.csv", again, "text/csv"))
    app.run()
    assert "1 of 2 matches are already queued on their court (the same sides): they are left out." in texts(
        app, "warning")
    assert list(app.dataframe[0].value["Problem"]) == ["Already queued on this court (left out)", ""]
    press(app, "Queue 1 match")
    queue = operator_api.tables()["Court 1"]["queue"]
    assert [(m["playerA"], m["playerB"]) for m in queue] == [("Ann Lee", "Bo Chen"), ("Cy Diaz", "Di Evans")]
    app.file_uploader(key="import_file").set_value(("day-3.csv", first, "text/csv"))
    app.run()
    assert app.button(key="import_queue").disabled  # nothing new in it
    app.checkbox(key="import_again").check().run()
    assert list(app.dataframe[0].value["Problem"]) == ["Already queued: queued again"]
    press(app, "Queue 1 match")
    assert [m["playerA"] for m in operator_api.tables()["Court 1"]["queue"]] == ["Ann Lee", "Cy Diaz", "Ann Lee"]
