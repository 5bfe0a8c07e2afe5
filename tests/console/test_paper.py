"""The console's way to paper (contract §9a print views): the Court board, Results, Check-in and Phones pages each
offer their A4 sheet as a download, fetched from the API's print view with the operator key when clicked."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from streamlit.testing.v1 import AppTest

from console.client import ConsoleClient
from console.paper import fetch_sheet, file_name
from tests.console.conftest import Operator
from tests.server_process import ServerProcess

Console = Callable[[str], AppTest]


def seed(operator_api: Operator, name: str = "Club Open") -> dict[str, Any]:
    """Two courts: Cy Day beat Di Fox on Court 2; Ann Lee v Bo Chen queued on Court 1."""
    broadcast = operator_api.data("POST", "/operator/broadcasts", {
        "name": name, "tables": [{"label": "Court 1"}, {"label": "Court 2"}]})
    for court, a, b in ((0, "Ann Lee", "Bo Chen"), (1, "Cy Day", "Di Fox")):
        match = operator_api.data("POST", "/operator/matches", {
            "tableID": broadcast["tables"][court]["id"], "playerA": {"manualName": a},
            "playerB": {"manualName": b}, "bestOf": 1})
    operator_api.data("POST", f"/operator/matches/{match['id']}/start")
    operator_api.data("POST", f"/operator/matches/{match['id']}/complete", {"gameScores": [{"a": 11, "b": 6}]})
    return dict(broadcast)


def buttons(app: AppTest) -> list[str]:
    return [str(button.label) for button in app.get("download_button")]  # type: ignore[union-attr]  # streamlit


def test_each_page_offers_its_sheet_to_print(console: Console, operator_api: Operator) -> None:
    seed(operator_api)
    for page, label in (("views/court_board.py", "Print court schedules (A4)"),
                        ("views/results.py", "Print results (A4)"),
                        ("views/check_in.py", "Print sign-in sheet (A4)"),
                        ("views/phones.py", "Print QR codes (A4)")):
        app = console(page)
        assert not app.exception, (page, app.exception)
        assert label in buttons(app), (page, buttons(app))


def test_with_two_broadcasts_each_button_names_its_broadcast(console: Console, operator_api: Operator) -> None:
    seed(operator_api, "Saturday")
    seed(operator_api, "Sunday")
    assert {"Print court schedules of Saturday (A4)", "Print court schedules of Sunday (A4)"} <= set(
        buttons(console("views/court_board.py")))
    assert {"Print QR codes of Saturday (A4)", "Print QR codes of Sunday (A4)"} <= set(
        buttons(console("views/phones.py")))


def test_a_sheet_is_the_apis_print_view_fetched_with_the_operator_key(server: ServerProcess,
                                                                      operator_api: Operator) -> None:
    broadcast = seed(operator_api)
    api = ConsoleClient(f"http://127.0.0.1:{server.port}", server.operator_key)
    scorer = operator_api.data("GET", f"/operator/tables/{broadcast['tables'][1]['id']}/scorer")["url"]
    qr = fetch_sheet(api, broadcast["id"], "qr").decode()
    assert "@page { size: A4 portrait;" in qr and scorer in qr and qr.count("<svg") == 2
    schedules = fetch_sheet(api, broadcast["id"], "schedules").decode()
    assert schedules.count('<section class="sheet">') == 2 and "Ann Lee" in schedules
    assert "Bo Chen" in fetch_sheet(api, broadcast["id"], "sign-in").decode()
    assert "<b>Cy Day</b>" in fetch_sheet(api, broadcast["id"], "results").decode()


def test_a_sheet_that_cannot_be_made_says_why_instead_of_failing(server: ServerProcess) -> None:
    api = ConsoleClient(f"http://127.0.0.1:{server.port}", server.operator_key)
    page = fetch_sheet(api, "brd_gone", "results").decode()
    assert "Could not make the results: No broadcast &#x27;brd_gone&#x27;." in page


def test_sheet_file_names_say_what_and_which_event() -> None:
    assert file_name("schedules", "Club Open 2026") == "court-schedules-club-open-2026.html"
    assert file_name("sign-in", "Sören's <Cup>") == "sign-in-sheet-s-ren-s-cup.html"
    assert file_name("qr", "!!!") == "qr-codes-event.html"
