"""Console parts of contract §9 with AppTest against a real server: estimates, busy warnings and highlights on
the board, one-click Start next (the start-next endpoint), the New match form, the import page, results."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import openpyxl
from streamlit.testing.v1 import AppTest

from tests.conftest import ROOT
from tests.console.conftest import Operator, Partner, texts
from tests.console.test_pages import click, court_setup, pick, press

Console = Callable[[str], AppTest]
SAMPLE = ROOT / "docs" / "sample-schedule.csv"


def type_name(app: AppTest, key: str, text: str) -> None:
    """Type a name that is not an option into a selectbox that accepts new options (as a browser sends it;
    AppTest only knows picking, so the typed text joins the options it sends from)."""
    box = app.selectbox(key=key)
    if text not in box.options:
        box.options.append(text)
    box.set_value(text)


def operator_broadcast(operator_api: Operator, labels: list[str]) -> dict[str, str]:
    """An operator's broadcast (managed by the house connection); table ids by label."""
    made = operator_api.data("POST", "/operator/broadcasts", {"name": "Saturday Open",
                                                              "tables": [{"label": x} for x in labels]})
    return {t["label"]: t["id"] for t in made["tables"]}


def test_board_shows_estimates_busy_players_and_highlights_and_start_next_skips_busy(
    console: Console, partner: Partner, operator_api: Operator,
) -> None:
    tables = court_setup(partner)
    live = partner.match("live", tables["Court 1"], "p1", "p2")
    operator_api.data("POST", f"/operator/matches/{live['id']}/start")
    partner.match("blocked", tables["Court 2"], "p1", "p3")
    partner.match("free", tables["Court 2"], "p3", "p4")
    app = console("views/court_board.py")
    markdown = texts(app, "markdown")
    assert any(re.search(r"Expected end: \d\d:\d\d$", text) for text in markdown), markdown
    assert ":orange-background[:material/hourglass_top: **Free court: 2 matches waiting**]" in markdown
    queue = next(text for text in markdown if text.startswith("1. Ann Lee vs Cy Day"))
    assert re.match(r"1\. Ann Lee vs Cy Day · blocked · about \d\d:\d\d  \n   :orange\[:material/warning: "
                    r"Ann Lee is playing on Court 1\]\n2\. Cy Day vs Di Fox · free · about \d\d:\d\d$", queue), queue
    start_next = f"start_next_{tables['Court 2']}"
    assert app.button(key=start_next).label == "Start next: Cy Day vs Di Fox · free"
    click(app, start_next)  # one click: the start-next endpoint skips the match with a busy player
    court = operator_api.tables()["Court 2"]
    assert court["activeMatch"]["externalID"] == "free"
    assert [m["externalID"] for m in court["queue"]] == ["blocked"]


def test_start_next_is_off_when_every_waiting_match_has_a_busy_player(
    console: Console, partner: Partner, operator_api: Operator,
) -> None:
    tables = court_setup(partner)
    live = partner.match("live", tables["Court 1"], "p1", "p2")
    operator_api.data("POST", f"/operator/matches/{live['id']}/start")
    partner.match("blocked", tables["Court 2"], "p2", "p3")
    app = console("views/court_board.py")
    button = app.button(key=f"start_next_{tables['Court 2']}")
    assert button.disabled and button.label == "Start next: no waiting match may start now"


def test_new_match_form_queues_a_match_with_a_listed_and_a_typed_player(
    console: Console, partner: Partner, operator_api: Operator,
) -> None:
    tables = court_setup(partner)
    partner.call("PATCH", f"/tables/{tables['Court 1']}", {"playerListExternalID": "club"})
    app = console("views/court_board.py")
    pick(app, "nm_court", tables["Court 1"])
    [a_key] = [box.key for box in app.selectbox if box.key and box.key.startswith("new_match_playerA_")]
    assert list(app.selectbox(key=a_key).options) == ["Ann Lee", "Bo Kim", "Cy Day", "Di Fox"]
    app.selectbox(key=a_key).set_value("Ann Lee")
    [b_key] = [box.key for box in app.selectbox if box.key and box.key.startswith("new_match_playerB_")]
    type_name(app, b_key, "Walk In Guest")
    [round_key] = [t.key for t in app.text_input if t.key and t.key.startswith("new_match_round")]
    app.text_input(key=round_key).input("Final")
    press(app, "Add to the queue")
    assert "Queued Ann Lee vs Walk In Guest on Court 1." in texts(app, "success")
    [queued] = operator_api.tables()["Court 1"]["queue"]
    assert queued["participants"] == {"playerA": {"externalID": "p1"}, "playerB": {"manualName": "Walk In Guest"}}
    assert queued["matchRound"] == "Final" and queued["playerA"] == "Ann Lee"


def test_new_match_form_shows_the_refusal_next_to_the_field_and_keeps_the_input(
    console: Console, operator_api: Operator,
) -> None:
    tables = operator_broadcast(operator_api, ["Court 1"])
    app = console("views/court_board.py")
    pick(app, "nm_court", tables["Court 1"])
    [a_key] = [box.key for box in app.selectbox if box.key and box.key.startswith("new_match_playerA_")]
    [b_key] = [box.key for box in app.selectbox if box.key and box.key.startswith("new_match_playerB_")]
    type_name(app, a_key, "Ann Lee")
    type_name(app, b_key, "ann lee")
    press(app, "Add to the queue")
    assert "Same player as playerA." in texts(app, "error")
    assert app.selectbox(key=b_key).value == "ann lee"  # what was typed is still there
    assert operator_api.tables()["Court 1"]["queue"] == []


def test_import_page_previews_the_sample_csv_and_queues_it_with_one_click(
    console: Console, operator_api: Operator,
) -> None:
    operator_broadcast(operator_api, ["Court 1", "Court 2", "Court 3", "Court 4"])
    app = console("views/import_schedule.py")
    app.file_uploader(key="import_file").set_value(("sample-schedule.csv", SAMPLE.read_bytes(), "text/csv"))
    app.run()
    assert not app.exception, app.exception
    assert "12 matches ready to queue." in texts(app, "success")
    preview = app.dataframe[0].value
    assert list(preview["Problem"]) == [""] * 12 and list(preview["Row"]) == list(range(2, 14))
    assert all(t["queue"] == [] for t in operator_api.tables().values())  # a preview queues nothing
    press(app, "Queue 12 matches")
    assert "Queued 12 matches on Saturday Open." in texts(app, "success")
    assert [len(t["queue"]) for t in operator_api.tables().values()] == [3, 3, 3, 3]
    assert not [b for b in app.button if b.label == "Queue 12 matches"]  # the same upload is not queued twice


def test_import_page_shows_each_rows_problem_and_queues_nothing(console: Console, operator_api: Operator) -> None:
    operator_broadcast(operator_api, ["Court 1"])
    sheet = b"Court,Player A,Player B\nCourt 1,Ann,Bo\nCourt 9,Cy,Di\nCourt 1,Ed,Ed\n"
    app = console("views/import_schedule.py")
    app.file_uploader(key="import_file").set_value(("day.csv", sheet, "text/csv"))
    app.run()
    problems = list(app.dataframe[0].value["Problem"])
    assert problems[0] == "" and problems[1].startswith("No court 'Court 9' in this broadcast.")
    assert problems[2].startswith("playerB is the same player as playerA.")
    assert "2 of 3 rows have a problem" in texts(app, "error")[0]
    assert app.button(key="import_queue").disabled
    assert operator_api.tables()["Court 1"]["queue"] == []


def test_import_page_names_rows_with_a_missing_cell_and_refuses_more_than_1000_rows(
    console: Console, operator_api: Operator,
) -> None:
    operator_broadcast(operator_api, ["Court 1"])
    app = console("views/import_schedule.py")
    app.file_uploader(key="import_file").set_value(("day.csv", b"court,playerA,playerB\nCourt 1,Ann,\n", "text/csv"))
    app.run()
    assert list(app.dataframe[0].value["Problem"]) == ["playerB: Missing data for required field."]
    big = "court,playerA,playerB\n" + "".join(f"Court 1,A{i},B{i}\n" for i in range(10_000))
    app.file_uploader(key="import_file").set_value(("big.csv", big.encode(), "text/csv"))
    app.run()
    assert "This sheet has 10,000 rows; an import takes at most 1,000. Split it into several files." in texts(
        app, "error")


def test_results_page_shows_the_table_and_offers_the_csv(console: Console, operator_api: Operator) -> None:
    tables = operator_broadcast(operator_api, ["Court 1"])
    made = operator_api.data("POST", "/operator/matches", {"tableID": tables["Court 1"],
                                                           "playerA": {"manualName": "Ann Lee"},
                                                           "playerB": {"manualName": "Bo Chan"}})
    operator_api.data("POST", f"/operator/matches/{made['id']}/start")
    operator_api.data("POST", f"/operator/matches/{made['id']}/complete", {"gameScores": [{"a": 11, "b": 4}] * 3})
    app = console("views/results.py")
    frame = app.dataframe[0].value
    assert list(frame.columns) == ["Court", "Event", "Round", "Side A", "Side B", "Games", "Games won", "Winner",
                                   "Finished", "Minutes"]
    assert frame.iloc[0]["Games"] == "11-4 11-4 11-4" and frame.iloc[0]["Winner"] == "Ann Lee"
    assert [b.label for b in app.get("download_button")] == ["Print results (A4)",  # type: ignore[union-attr]
                                                             "Download results of Saturday Open (CSV)"]


def test_import_page_reads_an_excel_sheet(console: Console, operator_api: Operator, tmp_path: Path) -> None:
    operator_broadcast(operator_api, ["Court 1", "Court 2"])
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(["Court", "Player A", "Player B", "Best of"])
    sheet.append(["Court 1", "Ann Lee", "Bo Chan", 3])
    sheet.append(["Court 2", "Cy Diaz", "Dee Evans", None])
    book.save(tmp_path / "day.xlsx")
    app = console("views/import_schedule.py")
    app.file_uploader(key="import_file").set_value(
        ("day.xlsx", (tmp_path / "day.xlsx").read_bytes(),
         "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"))
    app.run()
    assert not app.exception, app.exception
    assert "2 matches ready to queue." in texts(app, "success")
    press(app, "Queue 2 matches")
    court1 = operator_api.tables()["Court 1"]["queue"]
    assert [(m["playerA"], m["playerB"], m["bestOf"]) for m in court1] == [("Ann Lee", "Bo Chan", 3)]


def test_a_club_calls_the_next_match_early_while_the_court_is_in_play(console: Console,
                                                                      operator_api: Operator) -> None:
    """Issue 51, point 10: Call was offered only when the match could start; a club calls the next players while
    the court is still in play."""
    tables = operator_broadcast(operator_api, ["Court 1"])
    live = operator_api.data("POST", "/operator/matches", {"tableID": tables["Court 1"],
                                                           "playerA": {"manualName": "Ann Lee"},
                                                           "playerB": {"manualName": "Bo Kim"}})
    waiting = operator_api.data("POST", "/operator/matches", {"tableID": tables["Court 1"],
                                                              "playerA": {"manualName": "Cy Day"},
                                                              "playerB": {"manualName": "Di Fox"}})
    operator_api.data("POST", f"/operator/matches/{live['id']}/start")
    app = console("views/court_board.py")
    assert not app.exception, app.exception
    button = app.button(key=f"call_{tables['Court 1']}")
    assert button.label == "Call next early: Cy Day vs Di Fox"
    button.click().run()
    assert not app.exception, app.exception
    called = next(m for m in operator_api.data("GET", "/operator/matches?status=pending") if m["id"] == waiting["id"])
    assert called["calledOn"] is not None
    assert not [b for b in app.button if b.key == f"call_{tables['Court 1']}"]  # called once: no second button
