"""The console's Check-in page (contract §14): type a few letters and pick the name to check a player in, counts of
present and expected, undo, the event-day rules, and the printable sign-in sheet."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from streamlit.testing.v1 import AppTest

from console.check_in import counts, label, now_text
from tests.console.conftest import Operator, Partner

Console = Callable[[str], AppTest]


def seed(operator_api: Operator, partner: Partner) -> str:
    broadcast = operator_api.data("POST", "/operator/broadcasts", {"name": "Club Open",
                                                                  "tables": [{"label": "Court 1"}]})
    for a, b in (("Ann Lee", "Bo Chen"), ("Cy Diaz", "Di Evans")):
        operator_api.data("POST", "/operator/matches", {"tableID": broadcast["tables"][0]["id"],
                                                        "playerA": {"manualName": a}, "playerB": {"manualName": b}})
    return str(broadcast["id"])


def test_a_player_is_checked_in_by_picking_their_name(console: Console, partner: Partner,
                                                       operator_api: Operator) -> None:
    broadcast_id = seed(operator_api, partner)
    app = console("views/check_in.py")
    assert not app.exception, app.exception
    assert app.metric[0].value == "0 / 4"
    pick = app.selectbox(key="checkin_pick_0")
    assert pick.options == ["Ann Lee", "Bo Chen", "Cy Diaz", "Di Evans"]
    ann = next(p["personID"] for p in operator_api.data("GET", f"/operator/broadcasts/{broadcast_id}/people")
               if p["name"] == "Ann Lee")
    pick.set_value(ann).run()
    assert not app.exception, app.exception
    people = operator_api.data("GET", f"/operator/broadcasts/{broadcast_id}/people")
    assert [p["name"] for p in people if p["checkedIn"]] == ["Ann Lee"]
    assert app.metric[0].value == "1 / 4"
    assert "Ann Lee is checked in." in [s.value for s in app.success]
    again = app.selectbox(key="checkin_pick_1")
    assert again.options == ["Bo Chen", "Cy Diaz", "Di Evans"]


def test_the_event_day_rules_are_saved_from_the_page(console: Console, partner: Partner,
                                                     operator_api: Operator) -> None:
    broadcast_id = seed(operator_api, partner)
    app = console("views/check_in.py")
    app.toggle(key="rule_checkin").set_value(True)
    app.number_input(key="rule_rest").set_value(15)
    app.button(key="rule_save").click().run()
    assert not app.exception, app.exception
    read = next(b for b in operator_api.data("GET", "/operator/broadcasts") if b["id"] == broadcast_id)
    assert read["eventDay"] == {"requireCheckIn": True, "restMinutes": 15, "selfCheckIn": False, "selfReport": False,
                                "selfReportConfirmMinutes": read["eventDay"]["selfReportConfirmMinutes"]}


def test_counts_and_labels() -> None:
    people: list[dict[str, Any]] = [{"name": "Ann <Lee>", "club": "TTC", "checkedIn": True},
              {"name": "Bo Chen", "club": None, "checkedIn": False}]
    assert counts(people) == (1, 2)
    assert label(people[0]) == "Ann <Lee> · TTC" and label(people[1]) == "Bo Chen"


def test_the_now_column_calls_nobody_here_who_has_not_checked_in() -> None:
    """Found by the QA walk-through: with "Start only players who checked in" off, everyone not on court showed
    "here" next to an empty Here column."""
    person = {"status": "free", "checkedIn": False, "tableLabel": None}
    assert now_text(person) == "not checked in"
    assert now_text(person | {"checkedIn": True}) == "here"
    assert now_text({"status": "playing", "checkedIn": False, "tableLabel": "Court 2"}) == "playing (Court 2)"
    assert now_text({"status": "absent", "checkedIn": False, "tableLabel": None}) == "not here yet"
