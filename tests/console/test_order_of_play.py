"""The console's Order of play page (contract §20) over a real server: settings saved from the page, plan, the grid
with courts as columns and times as rows, a match moved into a conflict that is then named with its severity,
publish, and the A4 print view with one page per day."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, time, timedelta
from zoneinfo import ZoneInfo

from streamlit.testing.v1 import AppTest

from console.order_of_play import grid_frame, slot_words, sorted_conflicts, stamp
from tests.console.conftest import Operator, texts
from tests.console.test_draws_page import running_draw

Console = Callable[[str], AppTest]
TOMORROW = date.today() + timedelta(days=1)


def test_plan_move_into_a_conflict_publish_and_print(console: Console, operator_api: Operator) -> None:
    broadcast, draw = running_draw(operator_api)
    app = console("views/order_of_play.py")
    app.date_input(key="plan_day").set_value(TOMORROW)
    app.time_input(key="plan_start").set_value(time(10, 0))
    app.number_input(key="plan_minutes").set_value(30)
    app.button(key="plan_save").click().run()
    assert not app.exception, app.exception
    assert "Plan settings saved." in texts(app, "success")
    app.button(key="plan_go").click().run()
    assert not app.exception, app.exception
    assert any(t.startswith("3 matches placed.") for t in texts(app, "success"))
    frame = app.dataframe[0].value
    assert list(frame.columns) == ["Time", "Court 1", "Court 2"]
    assert list(frame["Time"]) == ["10:00", "10:30"]
    assert "No conflicts" in [h.value for h in app.subheader]
    final = next(dm for rnd in draw["rounds"] for dm in rnd["drawMatches"] if dm["status"] == "waiting")
    app.selectbox(key="move_match").set_value(final["id"]).run()
    grid = operator_api.data("GET", f"/operator/broadcasts/{broadcast['id']}/plan")
    planned = next(c["tableID"] for d in grid["days"]
                   for c in d["courts"] for slot in c["slots"] if slot.get("drawMatchID") == final["id"])
    assert app.selectbox(key=f"move_court_{final['id']}").value == planned  # the form shows the match's own court
    assert app.time_input(key=f"move_time_{final['id']}").value == time(10, 30)
    app.selectbox(key=f"move_court_{final['id']}").set_value(broadcast["tables"][0]["id"])
    app.time_input(key=f"move_time_{final['id']}").set_value(time(10, 0))
    app.button(key="FormSubmitter:plan_move-Move").click().run()
    assert not app.exception, app.exception
    errors = texts(app, "error")
    assert any(e.startswith("Error: Court 1 has two matches at 10:00") for e in errors), errors
    assert any("starts before" in e for e in errors)
    assert any(w.startswith("Warning: ") and "may be due on two courts" in w for w in texts(app, "warning"))
    app.button(key="plan_publish").click().run()
    assert not app.exception, app.exception
    # the event page is closed: "Published" alone said the players could see it (issue 51, point 10)
    assert any(t.startswith("Published, but the event page is closed") for t in texts(app, "success"))
    read = next(b for b in operator_api.data("GET", "/operator/broadcasts") if b["id"] == broadcast["id"])
    assert read["plan"]["published"] is True and read["plan"]["matchMinutes"] == {"default": 30}
    sheet = operator_api.server.operator_call("GET", f"/operator/broadcasts/{broadcast['id']}/print/order-of-play")
    assert sheet.status_code == 200 and sheet.headers["Content-Type"].startswith("text/html")
    page = sheet.text
    assert page.count('<section class="sheet">') == 1 and "<th>Court 1</th><th>Court 2</th>" in page
    assert '<td class="time">10:00</td>' in page and "<script" not in page and "Winner of SF-1 v Winner of SF-2" in page


def test_the_grid_words_and_times() -> None:
    zone = ZoneInfo("Europe/Berlin")
    day = {"date": "2026-11-21", "courts": [
        {"tableID": "t1", "label": "Court 1", "slots": [
            {"plannedOn": "2026-11-21T09:00:00.000Z", "names": ["Ann", "Bo"], "event": "Open", "round": "Final"}]},
        {"tableID": "t2", "label": "Court 2", "slots": []}]}
    frame = grid_frame(day, zone)
    assert frame.to_dict("records") == [{"Time": "10:00", "Court 1": "Ann v Bo · Open · Final", "Court 2": ""}]
    assert slot_words({"names": ["A", "B"], "event": None, "round": None}) == "A v B"
    assert stamp(date(2026, 11, 21), time(10, 40), zone) == "2026-11-21T09:40:00Z"
    assert [c["severity"] for c in sorted_conflicts([{"severity": "warning"}, {"severity": "error"}])] == [
        "error", "warning"]


def test_early_call_and_a_players_not_before_are_set_from_the_page(console: Console, operator_api: Operator) -> None:
    """Issue 51, point 8: no per-player "not before" and no early call in the console."""
    broadcast, _ = running_draw(operator_api)
    app = console("views/order_of_play.py")
    app.date_input(key="plan_day").set_value(TOMORROW)
    app.time_input(key="plan_start").set_value(time(10, 0))
    app.number_input(key="plan_minutes").set_value(30)
    app.number_input(key="plan_early").set_value(10)
    app.button(key="plan_save").click().run()
    assert not app.exception, app.exception
    people = {p["name"]: p["personID"] for p in operator_api.data("GET",
                                                                  f"/operator/broadcasts/{broadcast['id']}/people")}
    app.selectbox(key="nb_person").set_value(people["Player 1"])
    app.time_input(key="nb_time").set_value(time(11, 0))
    app.button(key="nb_add").click().run()
    assert not app.exception, app.exception
    assert "Player 1: not before 11:00. Plan again to apply it." in texts(app, "success")
    read = next(b for b in operator_api.data("GET", "/operator/broadcasts") if b["id"] == broadcast["id"])
    assert read["plan"]["earlyMinutes"] == 10
    assert read["plan"]["notBefore"] == [{"personID": people["Player 1"], "time": f"{TOMORROW.isoformat()}T11:00"}]
    app.button(key="plan_go").click().run()
    assert not app.exception, app.exception
    grid = operator_api.data("GET", f"/operator/broadcasts/{broadcast['id']}/plan")
    mine = [s for d in grid["days"] for c in d["courts"] for s in c["slots"] if "Player 1" in s["names"]]
    others = [s for d in grid["days"] for c in d["courts"] for s in c["slots"] if "Player 1" not in s["names"]]
    assert mine and others and min(s["plannedOn"] for s in mine) > min(s["plannedOn"] for s in others)
    app.selectbox(key="nb_person").set_value(people["Player 1"])
    app.button(key="nb_remove").click().run()
    assert not app.exception, app.exception
    read = next(b for b in operator_api.data("GET", "/operator/broadcasts") if b["id"] == broadcast["id"])
    assert read["plan"].get("notBefore", []) == []


def test_unplaced_matches_are_named_with_the_end_needed_and_placed_by_hand(console: Console,
                                                                           operator_api: Operator) -> None:
    """Issue 46, point 5: "Not placed: no court has 80 free minutes left" named no match, nothing said how long the
    day would need, and an unplaced match could not be placed by hand."""
    broadcast, draw = running_draw(operator_api)
    app = console("views/order_of_play.py")
    app.date_input(key="plan_day").set_value(TOMORROW)
    app.time_input(key="plan_start").set_value(time(10, 0))
    app.time_input(key="plan_end").set_value(time(10, 45))
    app.number_input(key="plan_minutes").set_value(30)
    app.button(key="plan_save").click().run()
    app.button(key="plan_go").click().run()
    assert not app.exception, app.exception
    warnings = texts(app, "warning")
    assert any(w.startswith("The days cannot hold every match at these lengths: 1 not placed. At these lengths the "
                            "last day needs until 11:00") for w in warnings), warnings
    assert any(w.startswith("Not placed: Winner of SF-1 v Winner of SF-2 · Open · Final (30 min): ")
               for w in warnings), warnings
    final = next(dm for rnd in draw["rounds"] for dm in rnd["drawMatches"] if dm["status"] == "waiting")
    sheet = operator_api.server.operator_call("GET", f"/operator/broadcasts/{broadcast['id']}/print/order-of-play")
    assert "Not placed yet (1)" in sheet.text
    assert "<li>Winner of SF-1 v Winner of SF-2 · Open · Final</li>" in sheet.text
    app.selectbox(key="move_match").set_value(final["id"]).run()
    assert not app.exception, app.exception
    app.time_input(key=f"move_time_{final['id']}").set_value(time(10, 30))
    app.button(key="FormSubmitter:plan_move-Move").click().run()
    assert not app.exception, app.exception
    grid = operator_api.data("GET", f"/operator/broadcasts/{broadcast['id']}/plan")
    assert grid["unplaced"] == []
    assert "Not placed yet" not in operator_api.server.operator_call(
        "GET", f"/operator/broadcasts/{broadcast['id']}/print/order-of-play").text
    assert final["id"] in {s.get("drawMatchID") for d in grid["days"] for c in d["courts"] for s in c["slots"]}
