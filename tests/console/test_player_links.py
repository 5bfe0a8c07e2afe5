"""The console's part of contract §21, with AppTest against a real server: the Players' links page (the switches,
each person's link and QR code, a new link), the court board's "Results to check" with the desk's accept, and the
players' mail beside Deliveries with its failures."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import requests
from streamlit.testing.v1 import AppTest

from console.player_links import Switches, mail_counts, mail_table, switches_of, to_check
from tests.console.conftest import Operator, texts
from tests.eventually import eventually
from tests.server_process import ServerProcess, free_port

Console = Callable[[str], AppTest]


@pytest.fixture
def server(server_factory: Callable[..., ServerProcess]) -> ServerProcess:
    """A real server whose players' mail goes to an SMTP port nobody listens on: every message fails."""
    return server_factory(env={"COURTSIDE_SMTP_URL": f"smtp://127.0.0.1:{free_port()}",
                               "COURTSIDE_MAIL_FROM": "desk@club.example"})


def club_day(operator_api: Operator, members: str | None = None) -> dict[str, Any]:
    """Court 1 and Court 3 (on the `members` list if given); Ann Lee v Bo Kim on Court 3 (best of one game)."""
    broadcast = operator_api.data("POST", "/operator/broadcasts", {
        "name": "Club Day", "tables": [{"label": "Court 1"}, {"label": "Court 3"}]})
    if members:
        operator_api.data("PATCH", f"/operator/tables/{broadcast['tables'][1]['id']}",
                          {"playerListExternalID": members})
    match = operator_api.data("POST", "/operator/matches", {
        "tableID": broadcast["tables"][1]["id"], "playerA": {"manualName": "Ann Lee"},
        "playerB": {"manualName": "Bo Kim"}, "bestOf": 1})
    return {"broadcast": broadcast, "match": match}


def person(operator_api: Operator, broadcast_id: str, name: str) -> str:
    people = operator_api.data("GET", f"/operator/broadcasts/{broadcast_id}/people")
    return str(next(p["personID"] for p in people if p["name"] == name))


def test_the_switches_are_saved_from_the_players_links_page_and_leave_the_other_rules(
        console: Console, operator_api: Operator) -> None:
    day = club_day(operator_api)
    broadcast_id = day["broadcast"]["id"]
    operator_api.data("PATCH", f"/operator/broadcasts/{broadcast_id}", {"eventDay": {"restMinutes": 20}})
    app = console("views/player_links.py")
    assert app.button(key="me_save").disabled  # nothing changed yet
    app.toggle(key=f"me_checkin_{broadcast_id}").set_value(True)
    app.toggle(key=f"me_report_{broadcast_id}").set_value(True)
    app.number_input(key=f"me_minutes_{broadcast_id}").set_value(0).run()
    assert "A report waits until the opponent or the desk acts." in texts(app, "caption")
    app.button(key="me_save").click().run()
    assert not app.exception, app.exception
    read = next(b for b in operator_api.data("GET", "/operator/broadcasts") if b["id"] == broadcast_id)
    assert read["eventDay"] == {"requireCheckIn": False, "restMinutes": 20, "selfCheckIn": True, "selfReport": True,
                                "selfReportConfirmMinutes": 0}
    assert "Club Day: players' page rules saved." in texts(app, "success")


def test_each_persons_link_shows_with_its_qr_and_a_new_link_kills_the_old(
        console: Console, operator_api: Operator, server: ServerProcess) -> None:
    day = club_day(operator_api)
    broadcast_id = day["broadcast"]["id"]
    bo = person(operator_api, broadcast_id, "Bo Kim")
    app = console("views/player_links.py")
    box = app.selectbox(key=f"me_person_{broadcast_id}")
    assert box.options == ["Ann Lee", "Bo Kim"]
    box.set_value(bo).run()
    link = operator_api.data("GET", f"/operator/broadcasts/{broadcast_id}/people/{bo}/link")["url"]
    assert [code.value for code in app.code] == [link]
    assert len(app.get("image")) == 1  # the QR code
    assert requests.get(link + "/state", timeout=10).json()["data"]["person"]["name"] == "Bo Kim"

    app.button(key=f"me_rotate_{bo}").click().run()
    app.button(key=f"me_rotate_{bo}_yes").click().run()
    assert not app.exception, app.exception
    assert "Bo Kim has a new link." in texts(app, "success")
    new = operator_api.data("GET", f"/operator/broadcasts/{broadcast_id}/people/{bo}/link")["url"]
    assert new != link and [code.value for code in app.code] == [new]
    assert requests.get(link + "/state", timeout=10).status_code == 404
    assert requests.get(new + "/state", timeout=10).status_code == 200


def report(server: ServerProcess, link: str, match_id: str, games: list[dict[str, int]]) -> dict[str, Any]:
    answer = requests.post(f"{link}/matches/{match_id}/report", json={"gameScores": games}, timeout=10)
    assert answer.status_code == 200, answer.text
    return dict(answer.json()["data"])


def playing(operator_api: Operator) -> tuple[dict[str, Any], dict[str, str]]:
    """Club day with self-report on (never confirmed by the server) and Ann Lee v Bo Kim in play; the links."""
    day = club_day(operator_api)
    broadcast_id = day["broadcast"]["id"]
    operator_api.data("PATCH", f"/operator/broadcasts/{broadcast_id}",
                      {"eventDay": {"selfReport": True, "selfReportConfirmMinutes": 0}})
    operator_api.data("POST", f"/operator/matches/{day['match']['id']}/start")
    links = {name: operator_api.data("GET", f"/operator/broadcasts/{broadcast_id}/people/"
                                            f"{person(operator_api, broadcast_id, name)}/link")["url"]
             for name in ("Ann Lee", "Bo Kim")}
    return day, links


def match_read(operator_api: Operator, day: dict[str, Any], match_id: str) -> dict[str, Any]:
    listed = operator_api.data("GET", "/operator/matches?limit=100")
    return dict(next(m for m in listed if m["id"] == match_id))


def test_the_board_lists_a_report_to_check_and_the_desk_accepts_it(
        console: Console, operator_api: Operator, server: ServerProcess) -> None:
    day, links = playing(operator_api)
    match_id = day["match"]["id"]
    made = report(server, links["Ann Lee"], match_id, [{"a": 11, "b": 6}])
    report_id = made["reports"][0]["reportID"]
    app = console("views/court_board.py")
    assert "Results to check (1)" in texts(app, "subheader")
    assert ":blue-background[Court 3 · Ann Lee vs Bo Kim\\: 11\\-6 by Ann Lee · waiting for the opponent]" in texts(
        app, "markdown")
    accept = app.button(key=f"accept_{report_id}")
    assert accept.label == "Accept 11-6"
    accept.click().run()
    assert not app.exception, app.exception
    assert "Recorded Ann Lee vs Bo Kim: 11\\-6." in texts(app, "success")
    read = match_read(operator_api, day, match_id)
    assert read["status"] == "completed" and read["gameScores"] == [{"a": 11, "b": 6}]
    assert operator_api.data("GET", f"/operator/broadcasts/{day['broadcast']['id']}/reports")[0]["status"] == \
        "confirmed"
    assert "Results to check (1)" not in texts(app, "subheader")


def test_a_disputed_report_is_settled_with_the_desks_own_games(
        console: Console, operator_api: Operator, server: ServerProcess) -> None:
    day, links = playing(operator_api)
    match_id = day["match"]["id"]
    report(server, links["Ann Lee"], match_id, [{"a": 11, "b": 6}])
    theirs = report(server, links["Bo Kim"], match_id, [{"a": 6, "b": 11}])
    assert [r["status"] for r in theirs["reports"]] == ["disputed", "disputed"]
    app = console("views/court_board.py")
    assert "Results to check (2)" in texts(app, "subheader")
    newest = theirs["reports"][0]["reportID"]
    assert any(text.startswith(":red-background[Court 3 · Ann Lee vs Bo Kim\\: 6\\-11 by Bo Kim · disputed")
               for text in texts(app, "markdown"))
    app.text_input(key=f"accept_games_{newest}").input("7-3").run()
    app.button(key=f"accept_own_{newest}").click().run()
    assert not app.exception, app.exception
    assert texts(app, "error") == ["No side has won 1 of 1 games yet; the match cannot be completed."]
    assert match_read(operator_api, day, match_id)["status"] == "active"
    app.text_input(key=f"accept_games_{newest}").input("9-11").run()
    app.button(key=f"accept_own_{newest}").click().run()
    assert not app.exception, app.exception
    read = match_read(operator_api, day, match_id)
    assert (read["status"], read["gameScores"], read["winnerSide"]) == ("completed", [{"a": 9, "b": 11}], "b")


def test_failing_players_mail_shows_beside_deliveries(console: Console, operator_api: Operator) -> None:
    house = operator_api.data("POST", "/operator/player-lists", {"name": "Members"})
    operator_api.data("POST", f"/operator/player-lists/{house['id']}/players",
                      {"firstName": "Ann", "lastName": "Lee", "email": "ann@example.org"})
    day = club_day(operator_api, house["id"])
    operator_api.data("POST", f"/operator/matches/{day['match']['id']}/call")
    eventually(lambda: operator_api.data("GET", "/operator/mail?status=failing"), timeout=30)
    app = console("views/deliveries.py")
    (error,) = [text for text in texts(app, "error") if text.startswith("Players' mail")]
    assert error.startswith("Players' mail: 1 failing (retried automatically). Last error: ")
    assert app.expander[0].label == "Players' mail: 0 sent · 0 pending · 1 failing"
    shown = app.dataframe[0].value
    assert list(shown["To"]) == ["ann@example.org"] and list(shown["Status"]) == ["failing"]
    assert list(shown["Subject"]) == ["Called to Court 3 – Ann Lee v Bo Kim"]


def test_the_pure_helpers() -> None:
    assert switches_of({"eventDay": {"requireCheckIn": True}}) == Switches(False, False, 10)
    assert Switches(True, False, 0).body() == {"selfCheckIn": True, "selfReport": False,
                                               "selfReportConfirmMinutes": 0}
    tables = [{"label": "Court 3", "activeMatch": {"id": "op_m1", "playerA": "Ann Lee", "playerB": "Bo Kim"},
               "queue": []}]
    reports = [{"reportID": "r2", "matchID": "op_m1", "gameScores": [{"a": 11, "b": 6}], "reportedBy": "p1",
                "status": "waiting"},
               {"reportID": "r1", "matchID": "m9", "gameScores": [{"a": 11, "b": 6}], "reportedBy": "p9",
                "status": "confirmed"},
               {"reportID": "r0", "matchID": "gone", "gameScores": [{"a": 3, "b": 11}], "reportedBy": "p9",
                "status": "disputed"},
               {"reportID": "rc", "matchID": "cancelled", "gameScores": [{"a": 3, "b": 11}], "reportedBy": "p9",
                "status": "cancelled"}]
    rows = to_check(reports, tables, [{"personID": "p1", "name": "Ann Lee"}])
    assert [row.line for row in rows] == [
        "Court 3 · Ann Lee vs Bo Kim: 11-6 by Ann Lee · waiting for the opponent",
        "a match no longer on a court: 3-11 by a player · disputed by the opponent"]
    messages = [{"status": "sent", "to": "a@x"}, {"status": "failing", "to": "b@x", "lastError": "refused"}]
    assert mail_counts(messages) == {"pending": 0, "failing": 1, "sent": 1}
    assert list(mail_table(messages)["To"]) == ["b@x", "a@x"]
