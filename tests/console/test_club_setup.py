"""Contract §9a in the console: a schedule's start times (a `Time` column on the chosen day) previewed and kept as
each match's "not before", shown on the court board."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, timedelta

from streamlit.testing.v1 import AppTest

from console.board import clock_time
from domain.clock import parse_iso
from tests.console.conftest import Operator, texts
from tests.console.test_event_day import operator_broadcast
from tests.console.test_pages import press

Console = Callable[[str], AppTest]


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
