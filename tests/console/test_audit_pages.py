"""The audit log in the console (contract §16): a match's history from the board, the scoring page and the
results page; the Audit page with its filters; a correction that changes the winner asks for a reason."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from streamlit.testing.v1 import AppTest

from tests.console.conftest import Operator, Partner, texts
from tests.console.test_pages import Console, click, started_match

WON = [{"a": 11, "b": 3}, {"a": 11, "b": 4}]


def history_of(app: AppTest, key: str) -> list[dict[str, Any]]:
    """Switch on a History toggle; the table it shows, oldest first."""
    app.toggle(key=key).set_value(True).run()
    assert not app.exception, app.exception
    frame = app.dataframe[-1].value
    return list(frame.to_dict("records"))


def completed_match(partner: Partner, operator_api: Operator) -> dict[str, Any]:
    _, match = started_match(partner, operator_api, bestOf=3)
    operator_api.data("POST", f"/operator/matches/{match['id']}/complete", {"gameScores": WON})
    return match


def test_a_winner_changing_correction_needs_a_reason_which_the_log_keeps(
    console: Console, partner: Partner, operator_api: Operator,
) -> None:
    match = completed_match(partner, operator_api)
    app = console("views/scoring.py")
    app.selectbox(key="correct_pick").select(match["id"]).run()
    app.text_input(key=f"correct_games_{match['id']}").input("3-11, 4-11").run()
    click(app, "correct_save")
    click(app, "correct_confirm")  # no reason yet
    assert "Give the reason for changing the winner above, then confirm again." in texts(app, "error")
    assert operator_api.data("GET", "/operator/matches?status=completed")[0]["gameScores"] == WON
    app.text_input(key=f"correct_reason_{match['id']}").input("Umpire's sheet: sides swapped").run()
    click(app, "correct_save")
    click(app, "correct_confirm")
    assert operator_api.data("GET", "/operator/matches?status=completed")[0]["gameScores"][0] == {"a": 3, "b": 11}
    [entry] = operator_api.data("GET", f"/operator/audit?actorKind=operator&targetID={match['id']}&limit=1")
    assert (entry["action"], entry["reason"]) == ("match.corrected", "Umpire's sheet: sides swapped")
    rows = history_of(app, f"history_correct_{match['id']}")
    assert [row["What"] for row in rows] == ["Synced by the partner", "Started", "Completed", "Result corrected"]
    assert rows[-1]["Reason"] == "Umpire's sheet: sides swapped"
    assert rows[-1]["Change"] == "score 11-3, 11-4 → 3-11, 4-11"
    assert rows[-1]["Who"] == "Operator (console)"
    assert "conn_" not in rows[0]["Who"] and rows[0]["Who"], rows[0]


def test_the_board_and_the_scoring_page_show_the_history_of_the_match_in_play(
    console: Console, partner: Partner, operator_api: Operator,
) -> None:
    tables, match = started_match(partner, operator_api)
    operator_api.data("POST", f"/operator/matches/{match['id']}/score", {"gameScores": [{"a": 5, "b": 2}]})
    board = console("views/court_board.py")
    board.selectbox(key="board_table").select(tables["Court 1"]).run()
    rows = history_of(board, f"history_board_active_{match['id']}")
    assert [(row["What"], row["Change"]) for row in rows] == [
        ("Synced by the partner", "new; status waiting; court Court 1"),
        ("Started", "status waiting → in play; changed start time"),
        ("Score set", "score no points yet → 5-2"),
    ]
    assert rows[1]["Who"] == "Operator (console)"
    scoring = console("views/scoring.py")
    assert [row["What"] for row in history_of(scoring, f"history_scoring_live_{match['id']}")] == [
        "Synced by the partner", "Started", "Score set"]


def test_the_results_page_shows_a_finished_matchs_history(console: Console, partner: Partner,
                                                          operator_api: Operator) -> None:
    match = completed_match(partner, operator_api)
    app = console("views/results.py")
    broadcast_id = operator_api.tables()["Court 1"]["broadcastID"]
    rows = history_of(app, f"history_results_{broadcast_id}_{match['id']}")
    assert [row["What"] for row in rows] == ["Synced by the partner", "Started", "Completed"]


def test_the_audit_page_lists_entries_newest_first_and_filters_them(
    console: Console, partner: Partner, operator_api: Operator,
) -> None:
    match = completed_match(partner, operator_api)
    app = console("views/audit.py")
    frame = app.dataframe[0].value
    assert list(frame["What"])[:3] == ["Completed", "Started", "Synced by the partner"]
    assert list(frame["#"]) == sorted(frame["#"], reverse=True)
    app.selectbox(key="audit_actor").select("partner").run()
    assert set(app.dataframe[0].value["What"]) == {  # the partner's broadcast and list too (§16, issue 37)
        "Synced by the partner", "Event created", "Player list synced by the partner"}
    app.selectbox(key="audit_actor").select("").run()
    app.selectbox(key="audit_target").select("match").run()
    pick = app.selectbox(key="audit_pick_match")
    assert pick.format_func(match["id"]) == "Ann Lee vs Bo Kim (Court 1)"  # by players and court, not by ID
    pick.select(match["id"]).run()
    frame = app.dataframe[0].value
    assert list(frame["What"]) == ["Completed", "Started", "Synced by the partner"]
    assert set(frame["Record"]) == {"Ann Lee vs Bo Kim (Court 1)"}
    assert set(frame["Who"]) >= {"Operator (console)"}
    assert not any(str(cell).startswith(("mat_", "opk_")) or "(opk_" in str(cell) or "pointLog" in str(cell)
                   for column in ("Record", "Who", "Change") for cell in frame[column])
    app.toggle(key="audit_use_since").set_value(True).run()
    app.date_input(key="audit_since_day").set_value(date.today() + timedelta(days=1)).run()
    assert "No entry matches these filters." in texts(app, "info")


def test_the_audit_page_exports_every_matching_entry(console: Console, partner: Partner,
                                                      operator_api: Operator) -> None:
    """Issue 51, point 10: the Audit page showed the newest 200 and had no export."""
    completed_match(partner, operator_api)
    total = len(operator_api.data("GET", "/operator/audit?limit=100"))
    app = console("views/audit.py")
    assert not app.get("download_button")  # made on request: every entry is read then
    app.button(key="audit_export").click().run()
    assert not app.exception, app.exception
    labels = [b.proto.label for b in app.get("download_button")]
    assert labels == [f"Download {total} entries (CSV)", f"Download {total} entries (JSON Lines)"]
    app.selectbox(key="audit_actor").select("partner").run()
    assert not app.get("download_button")  # another filter: the export is made again for it
