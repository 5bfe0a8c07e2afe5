"""Every console page, driven with Streamlit's AppTest against a real `courtside serve` (operator API only)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import requests
from streamlit.testing.v1 import AppTest

from tests.console.conftest import APP, Operator, Partner, texts
from tests.server_process import ServerProcess, free_port
from tests.webhook_receiver import Receiver

Console = Callable[[str], AppTest]
PAGES = ("views/court_board.py", "views/scoring.py", "views/deliveries.py", "views/integrations.py",
         "views/broadcasts.py", "views/import_schedule.py", "views/results.py", "views/rosters.py",
         "views/players.py")


def court_setup(partner: Partner, labels: tuple[str, ...] = ("Court 1", "Court 2")) -> dict[str, str]:
    """A broadcast with courts, the club list, and table ids by label."""
    broadcast = partner.broadcast("Club Open", list(labels))
    partner.players()
    return {t["label"]: t["id"] for t in broadcast["tables"]}


def pick(app: AppTest, key: str, value: Any) -> AppTest:
    """Choose an option of a selectbox by its value."""
    box = app.selectbox(key=key)
    box.set_value(value).run()
    assert not app.exception, app.exception
    return app


def press(app: AppTest, label: str) -> AppTest:
    """Press the button (or form submit button) with this label."""
    next(button for button in app.button if button.label == label).click().run()
    assert not app.exception, app.exception
    return app


def click(app: AppTest, key: str) -> AppTest:
    app.button(key=key).click().run()
    assert not app.exception, app.exception
    return app


# ------------------------------------------------------------------ failures show as messages
def test_unreachable_api_shows_one_clear_message_on_every_page(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COURTSIDE_API_URL", f"http://127.0.0.1:{free_port()}")
    monkeypatch.setenv("COURTSIDE_OPERATOR_KEY", "svc_op_whatever")
    app = AppTest.from_file(APP, default_timeout=60).run()
    for page in PAGES:
        app.switch_page(page).run()
        assert not app.exception
        errors = texts(app, "error")
        assert len(errors) == 1
        assert errors[0].startswith("Cannot reach the Courtside API at http://127.0.0.1:")


def test_wrong_operator_key_shows_the_api_refusal(server: ServerProcess, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COURTSIDE_API_URL", f"http://127.0.0.1:{server.port}")
    monkeypatch.setenv("COURTSIDE_OPERATOR_KEY", "svc_op_not-the-key")
    app = AppTest.from_file(APP, default_timeout=60).run()
    for page in PAGES:
        app.switch_page(page).run()
        assert not app.exception
        [error] = texts(app, "error")
        assert error.startswith("The API refused the operator key:") and "HTTP 401" not in error, error


def test_missing_operator_key_says_where_to_put_it(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("COURTSIDE_API_URL", f"http://127.0.0.1:{free_port()}")
    monkeypatch.delenv("COURTSIDE_OPERATOR_KEY", raising=False)
    monkeypatch.setenv("COURTSIDE_DATA_DIR", str(tmp_path / "nowhere"))
    app = AppTest.from_file(APP, default_timeout=60).run()
    assert texts(app, "error") == [
        "No operator key: set COURTSIDE_OPERATOR_KEY or COURTSIDE_DATA_DIR (the folder with operator.key). "
        "Reload the page to try again."
    ]


def test_a_console_with_sign_in_asks_for_the_operator_key_first(
    server: ServerProcess, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
) -> None:
    """Structure issue, defect 3: beyond loopback the console shows nothing before the operator key is given."""
    monkeypatch.setenv("COURTSIDE_API_URL", f"http://127.0.0.1:{server.port}")
    monkeypatch.setenv("COURTSIDE_CONSOLE_SIGN_IN", "true")
    monkeypatch.delenv("COURTSIDE_OPERATOR_KEY", raising=False)
    monkeypatch.setenv("COURTSIDE_DATA_DIR", str(server.data_dir))  # the key file is there, and must not be used
    app = AppTest.from_file(APP, default_timeout=60)
    app.run()
    assert not app.exception, app.exception
    assert [t.value for t in app.title] == ["Courtside console"]
    assert "Court board" not in [t.value for t in app.title]
    app.text_input(key="sign_in_key").input("svc_op_wrong")
    press(app, "Sign in")
    assert any("refused the operator key" in text for text in texts(app, "error")), texts(app, "error")
    app.text_input(key="sign_in_key").input(server.operator_key)
    press(app, "Sign in")
    assert "Court board" in [t.value for t in app.title]


def test_empty_account_shows_what_to_do_on_every_page(console: Console) -> None:
    expected = {
        "views/court_board.py": "No courts yet. Create a broadcast with courts on the Broadcasts page.",
        "views/scoring.py": "No courts yet. Create a broadcast with courts on the Broadcasts page.",
        "views/deliveries.py": "No deliveries match these filters.",
        "views/integrations.py": "No apps registered yet.",
        "views/broadcasts.py": "No broadcasts yet: create one below.",
        "views/import_schedule.py": "No broadcast yet: create one with its courts on the Broadcasts page first.",
        "views/results.py": "No broadcast yet.",
        "views/rosters.py": "No rosters yet: create one above.",
        "views/players.py": "No player lists yet: create one above",
    }
    for page, message in expected.items():
        app = console(page)
        assert not texts(app, "error"), texts(app, "error")
        assert any(info.startswith(message) for info in texts(app, "info")), (page, texts(app, "info"))


# ------------------------------------------------------------------ court board
def test_court_board_shows_each_table_with_match_in_play_score_and_queue_in_order(
    console: Console, partner: Partner, operator_api: Operator,
) -> None:
    tables = court_setup(partner)
    first = partner.match("m1", tables["Court 1"], "p1", "p2", matchRound="R1")
    partner.match("m2", tables["Court 1"], "p3", "p4", matchRound="R2")
    partner.match("m3", tables["Court 1"], "p1", "p3", matchRound="R3")
    operator_api.data("POST", f"/operator/matches/{first['id']}/start")
    operator_api.data("POST", f"/operator/matches/{first['id']}/score", {"gameScores": [{"a": 11, "b": 7},
                                                                                        {"a": 4, "b": 2}]})
    app = console("views/court_board.py")
    markdown = [re.sub(r"\d\d:\d\d", "HH:MM", text) for text in texts(app, "markdown")]  # estimates: see
    assert markdown[:4] == [                                                                # test_event_day
        "#### Court 1",
        "**In play:** Ann Lee vs Bo Kim  \nGames won: 1–0 · Game 2 points: 4–2  \nExpected end: HH:MM",
        "1. Cy Day vs Di Fox · R2 · m2 · about HH:MM\n2. Ann Lee vs Cy Day · R3 · m3 · about HH:MM",
        "#### Court 2",
    ]
    assert "_No match in play_" in markdown
    assert "2 courts · 1 match in play · 2 waiting" in texts(app, "caption")
    assert [h.value for h in app.subheader][0] == "Club Open"  # courts grouped under their broadcast


def test_court_board_starts_the_next_match_of_the_queue(console: Console, partner: Partner,
                                                        operator_api: Operator) -> None:
    tables = court_setup(partner)
    partner.match("m1", tables["Court 1"])
    partner.match("m2", tables["Court 1"], "p3", "p4")
    app = console("views/court_board.py")
    start_next = f"start_next_{tables['Court 1']}"
    assert app.button(key=start_next).label == "Start next: Ann Lee vs Bo Kim · m1"  # on the court's own card
    assert not [b for b in app.button if b.key == f"start_next_{tables['Court 2']}"]  # nobody waits there
    click(app, start_next)  # one click from opening the board
    court = operator_api.tables()["Court 1"]
    assert court["activeMatch"]["externalID"] == "m1"
    assert [m["externalID"] for m in court["queue"]] == ["m2"]
    assert "Started Ann Lee vs Bo Kim · m1 on Court 1." in texts(app, "success")
    assert not [b for b in app.button if b.key == start_next]  # one match in play per table


def test_court_board_reorders_the_queue(console: Console, partner: Partner, operator_api: Operator) -> None:
    tables = court_setup(partner)
    ids = [partner.match(f"m{i}", tables["Court 1"])["id"] for i in (1, 2, 3)]
    app = console("views/court_board.py")
    pick(app, "board_match", ids[2])
    app.run()  # a refresh keeps the selection being made
    assert app.selectbox(key="board_match").value == ids[2]
    click(app, "board_top")
    assert [m["externalID"] for m in operator_api.tables()["Court 1"]["queue"]] == ["m3", "m1", "m2"]
    pick(app, "board_match", ids[0])
    click(app, "board_down")
    assert [m["externalID"] for m in operator_api.tables()["Court 1"]["queue"]] == ["m3", "m2", "m1"]
    assert "Queue of Court 1 reordered." in texts(app, "success")
    pick(app, "board_match", ids[2])
    assert app.button(key="board_up").disabled is True  # already first


def test_court_board_moves_a_match_to_the_end_of_another_tables_queue(
    console: Console, partner: Partner, operator_api: Operator,
) -> None:
    tables = court_setup(partner)
    moving = partner.match("m1", tables["Court 1"])
    partner.match("m2", tables["Court 2"], "p3", "p4")
    app = console("views/court_board.py")
    pick(app, "board_match", moving["id"])
    pick(app, "board_destination", tables["Court 2"])
    press(app, "Move match")
    board = operator_api.tables()
    assert board["Court 1"]["queue"] == []
    assert [m["externalID"] for m in board["Court 2"]["queue"]] == ["m2", "m1"]
    assert "Moved Ann Lee vs Bo Kim · m1 to the end of Court 2's queue." in texts(app, "success")


def test_court_board_cancels_a_pending_match(console: Console, partner: Partner, operator_api: Operator) -> None:
    tables = court_setup(partner)
    partner.match("m1", tables["Court 1"])
    partner.match("m2", tables["Court 1"], "p3", "p4")
    app = console("views/court_board.py")
    click(app, "board_cancel")  # asks first (contract §9a): nothing is cancelled yet
    assert "Cancel Ann Lee vs Bo Kim · m1? It leaves the queue for good." in texts(app, "warning")
    click(app, "board_cancel_no")
    assert len(operator_api.tables()["Court 1"]["queue"]) == 2 and not texts(app, "warning")
    click(app, "board_cancel")
    click(app, "board_cancel_yes")
    assert [m["externalID"] for m in operator_api.tables()["Court 1"]["queue"]] == ["m2"]
    assert "Cancelled Ann Lee vs Bo Kim · m1." in texts(app, "success")


def test_court_board_controls_follow_a_change_made_elsewhere(console: Console, partner: Partner,
                                                             operator_api: Operator) -> None:
    tables = court_setup(partner)
    match = partner.match("m1", tables["Court 1"])
    app = console("views/court_board.py")
    assert app.button(key="board_cancel").disabled is False
    operator_api.data("POST", f"/operator/matches/{match['id']}/start")  # a scoring device started it meanwhile
    app.run()
    assert not [b for b in app.button if b.key == f"start_next_{tables['Court 1']}"]
    assert "No match waiting on this court." in texts(app, "caption")
    assert "Manage a court" in texts(app, "subheader") and app.selectbox(key="board_table").label == "Court"
    assert not [b for b in app.button if b.key == "board_cancel"]  # a match in play can no longer be cancelled
    assert texts(app, "markdown")[1].startswith("**In play:** Ann Lee vs Bo Kim  \nGames won: 0–0 · Game 1 points: 0–0")


def test_court_board_shows_partner_text_as_text_not_markdown(console: Console, partner: Partner) -> None:
    """Console-trial issue, item 9: no bold, links or remote images from partner strings."""
    broadcast = partner.broadcast("**Open** ![px](http://tracker.example/p.png)", ["**bold** court"])
    partner.players()
    partner.match("m1", broadcast["tables"][0]["id"], eventName="[click](http://evil.example)")
    app = console("views/court_board.py")
    rendered = texts(app, "markdown") + [h.value for h in app.subheader]
    assert "#### \\*\\*bold\\*\\* court" in rendered
    assert any("\\!\\[px\\]\\(http\\://tracker\\.example/p\\.png\\)" in text for text in rendered)
    assert any("\\[click\\]\\(http\\://evil\\.example\\)" in text for text in rendered)
    assert not any("](http" in text.replace("\\]\\(http", "") for text in rendered)


# ------------------------------------------------------------------ scoring
def started_match(partner: Partner, operator_api: Operator, **extra: Any) -> tuple[dict[str, str], dict[str, Any]]:
    tables = court_setup(partner)
    match = partner.match("m1", tables["Court 1"], **extra)
    operator_api.data("POST", f"/operator/matches/{match['id']}/start")
    return tables, match


def test_scoring_point_buttons_and_undo_update_the_live_score(console: Console, partner: Partner,
                                                              operator_api: Operator) -> None:
    started_match(partner, operator_api)
    app = console("views/scoring.py")
    assert app.button(key="undo").disabled is True
    click(app, "point_a")
    click(app, "point_a")
    click(app, "point_b")
    assert operator_api.tables()["Court 1"]["activeMatch"]["gameScores"] == [{"a": 2, "b": 1}]
    assert [m.value for m in app.metric] == ["0", "2", "0", "1"]  # games A, game A, games B, game B
    click(app, "undo")
    assert operator_api.tables()["Court 1"]["activeMatch"]["gameScores"] == [{"a": 2, "b": 0}]
    assert "Last point undone." in texts(app, "success")


def test_scoring_plays_a_best_of_three_to_completion(console: Console, partner: Partner,
                                                     operator_api: Operator) -> None:
    started_match(partner, operator_api, bestOf=3)
    app = console("views/scoring.py")
    assert "Ann Lee vs Bo Kim · m1 · Best of 3 games to 11, win by 2" in texts(app, "caption")
    for _ in range(11):
        click(app, "point_a")
    for _ in range(10):
        click(app, "point_b")
        click(app, "point_a")
    click(app, "point_a")  # 11-10 is not a game (win by 2)
    assert [m.value for m in app.metric] == ["1", "11", "0", "10"]
    assert "**Games so far** (Ann Lee first): 11-0" in texts(app, "markdown")
    click(app, "point_a")  # 12-10: game and match
    assert [m.value for m in app.metric] == ["2", "0"]  # games won only: no "Game 3" once decided
    assert [b.key for b in app.button if b.key in ("point_a", "point_b", "undo")] == []  # only "Complete"
    assert "Ann Lee wins 2–0. Complete the match to record it." in texts(app, "success")
    click(app, "complete")
    assert operator_api.tables()["Court 1"]["activeMatch"] is None
    assert "Completed Ann Lee vs Bo Kim · m1: 11-0, 12-10." in texts(app, "success")
    # the page stays on the court just completed: its result and "Start next"
    assert app.selectbox(key="scoring_table").value == operator_api.tables()["Court 1"]["id"]
    assert any(text.startswith("Last result on Court 1: Ann Lee won 11-0, 12-10") for text in texts(app, "info"))
    assert app.button(key="scoring_start_next").disabled is True  # nothing waiting on Court 1


def test_scoring_stays_on_the_court_just_completed_while_another_court_plays(
    console: Console, partner: Partner, operator_api: Operator,
) -> None:
    tables, match = started_match(partner, operator_api, bestOf=1)
    other = partner.match("m2", tables["Court 2"], a="p3", b="p4")
    operator_api.data("POST", f"/operator/matches/{other['id']}/start")
    app = console("views/scoring.py")
    assert app.selectbox(key="scoring_table").value == tables["Court 1"]
    operator_api.data("POST", f"/operator/matches/{match['id']}/score", {"gameScores": [{"a": 10, "b": 2}]})
    app.run()
    click(app, "point_a")
    click(app, "complete")
    assert app.selectbox(key="scoring_table").value == tables["Court 1"]
    # the picker names the court alone (a keyed picker kept "Court 1 · in play" after the match was completed);
    # the courts' state is said beside it, as it is now
    assert app.selectbox(key="scoring_table").format_func(tables["Court 1"]) == "Court 1"
    assert "In play: Court 2 · free: Court 1" in texts(app, "caption")
    assert [b.key for b in app.button if b.key in ("point_a", "point_b")] == []  # Court 2's buttons are not here
    assert operator_api.tables()["Court 2"]["activeMatch"]["gameScores"] == []


def test_scoring_follows_changes_made_elsewhere_and_adds_a_tap_to_the_servers_score(
    console: Console, partner: Partner, operator_api: Operator,
) -> None:
    _, match = started_match(partner, operator_api)
    app = console("views/scoring.py")
    assert [m.value for m in app.metric] == ["0", "0", "0", "0"]
    operator_api.data("POST", f"/operator/matches/{match['id']}/score", {"gameScores": [{"a": 9, "b": 3}]})
    click(app, "point_a")  # tapped on a page that still showed 0-0
    assert operator_api.tables()["Court 1"]["activeMatch"]["gameScores"] == [{"a": 10, "b": 3}]
    assert [m.value for m in app.metric] == ["0", "10", "0", "3"]
    operator_api.data("POST", f"/operator/matches/{match['id']}/score", {"gameScores": [{"a": 10, "b": 4}]})
    app.run()  # what the page's timed refresh does
    assert [m.value for m in app.metric] == ["0", "10", "0", "4"]


def test_scoring_corrects_a_completed_result(console: Console, partner: Partner, operator_api: Operator,
                                             receiver: Receiver) -> None:
    partner.webhook(receiver.url)
    _, match = started_match(partner, operator_api, bestOf=3)
    operator_api.data("POST", f"/operator/matches/{match['id']}/complete",
                      {"gameScores": [{"a": 11, "b": 3}, {"a": 11, "b": 4}]})
    app = console("views/scoring.py")
    app.selectbox(key="correct_pick").select(match["id"]).run()
    app.text_input(key=f"correct_games_{match['id']}").input("3-11, 4-11").run()
    click(app, "correct_save")
    assert texts(app, "warning") == ["This correction changes the winner from Ann Lee to Bo Kim."]
    assert operator_api.data("GET", "/operator/matches?status=completed")[0]["gameScores"][0] == {"a": 11, "b": 3}
    app.text_input(key=f"correct_reason_{match['id']}").input("Sides swapped on the sheet").run()
    click(app, "correct_confirm")
    assert "Result corrected: Ann Lee vs Bo Kim · m1 3-11, 4-11." in texts(app, "success")
    assert texts(app, "warning") == []  # the question is answered: it no longer shows (QA walk-through)
    assert not [button for button in app.button if button.key == "correct_confirm"]
    # only the court-side taps are big: "Yes, change the winner" was drawn in 2rem bold too (QA walk-through)
    style = next(m.value for m in app.markdown if str(m.value).startswith("<style>"))
    assert "kind='primary'" not in style and ".st-key-point_a button p" in style
    receiver.wait_for(3)  # started, completed, result_updated
    deliveries = operator_api.data("GET", "/operator/webhooks?eventType=match.result_updated")
    assert deliveries[0]["payload"]["data"]["match"]["score"] == {"a": 0, "b": 2}


def test_scoring_correction_refuses_unreadable_scores_without_calling_the_api(
    console: Console, partner: Partner, operator_api: Operator,
) -> None:
    _, match = started_match(partner, operator_api, bestOf=3)
    operator_api.data("POST", f"/operator/matches/{match['id']}/complete",
                      {"gameScores": [{"a": 11, "b": 3}, {"a": 11, "b": 4}]})
    app = console("views/scoring.py")
    app.selectbox(key="correct_pick").select(match["id"]).run()
    app.text_input(key=f"correct_games_{match['id']}").input("11 to 3").run()
    click(app, "correct_save")
    assert texts(app, "error") == ["Could not read '11' at the start: type each game as 21-15 or 21:15."]
    app.text_input(key=f"correct_games_{match['id']}").input("11-3, 5-4").run()
    click(app, "correct_save")  # impossible under the rule: the API refuses it
    [refusal] = texts(app, "error")  # the message alone: no "(validation_failed, HTTP 400)"
    assert refusal and "validation_failed" not in refusal and "HTTP 4" not in refusal, refusal
    assert "This is a bug" not in refusal, refusal


def test_a_result_decided_by_a_match_tiebreak_is_corrected_as_it_is_shown(
    console: Console, operator_api: Operator,
) -> None:
    """Issue 51: the correction is pre-filled "6-4, 3-6, [10-7]"; an edit of it saves, and "10-8" in the match
    tiebreak's place reads as its points; a score the format refuses is said in words, never a crash."""
    broadcast = operator_api.data("POST", "/operator/broadcasts", {
        "name": "Club day", "tables": [{"label": "Court 1"}], "scoring": "tennis_match_tiebreak"})
    match = operator_api.data("POST", "/operator/matches", {
        "tableID": broadcast["tables"][0]["id"], "playerA": {"manualName": "Ann Lee"},
        "playerB": {"manualName": "Bo Kim"}})
    operator_api.data("POST", f"/operator/matches/{match['id']}/result", {"gameScores": [
        {"a": 6, "b": 4}, {"a": 3, "b": 6}, {"a": 1, "b": 0, "tiebreak": {"a": 10, "b": 7}}]})
    app = console("views/scoring.py")
    app.selectbox(key="correct_pick").select(match["id"]).run()
    field = app.text_input(key=f"correct_games_{match['id']}")
    assert field.value == "6-4, 3-6, [10-7]"
    field.input("6-4, 3-6, [10-8]").run()
    click(app, "correct_save")
    assert "Result corrected: Ann Lee vs Bo Kim 6-4, 3-6, [10-8]." in texts(app, "success"), texts(app, "error")
    app.text_input(key=f"correct_games_{match['id']}").input("6-4, 3-6, 10-9").run()
    click(app, "correct_save")
    [refusal] = texts(app, "error")
    assert refusal.startswith("Set 3:") and "This is a bug" not in refusal, refusal
    app.text_input(key=f"correct_games_{match['id']}").input("6-4, 3-6, 12-10").run()
    click(app, "correct_save")
    assert operator_api.data("GET", "/operator/matches?status=completed")[0]["gameScores"][2] == {
        "a": 1, "b": 0, "tiebreak": {"a": 12, "b": 10}}


# ------------------------------------------------------------------ deliveries
def test_deliveries_lists_filters_shows_payload_and_retries(console: Console, partner: Partner,
                                                            operator_api: Operator, receiver: Receiver) -> None:
    partner.webhook(receiver.url)
    _, match = started_match(partner, operator_api)
    operator_api.settled_deliveries(1)
    app = console("views/deliveries.py")
    frame = app.dataframe[0].value
    assert list(frame["eventType"]) == ["match.started"]
    assert list(frame["status"]) == ["delivered"]
    assert [m.value for m in app.metric][:4] == ["1", "1", "0", "0"]
    payload = json.loads(app.json[0].value)
    assert (payload["type"], payload["data"]["match"]["id"]) == ("match.started", match["id"])
    pick(app, "dlv_status", "failed")
    assert texts(app, "info")[0].startswith("No deliveries match these filters.")
    pick(app, "dlv_status", "(all)")
    click(app, "dlv_retry")
    event_id = frame["eventID"][0]
    assert operator_api.data("GET", f"/operator/webhooks/{event_id}")["attemptCount"] == 2
    assert f"Delivery {event_id} delivered." in texts(app, "success")


# ------------------------------------------------------------------ integrations
def test_integrations_registers_an_app_and_shows_its_secret_once(console: Console) -> None:
    app = console("views/integrations.py")
    app.text_input(key="app_name").input("Club site")
    app.text_area(key="app_uris").input("https://club.example/callback")
    press(app, "Register app")
    shown = [str(j.value) for j in app.json]
    assert any("clientSecret" in value for value in shown)
    assert "App registered." in texts(app, "success")
    click(app, "_new_app_secret_dismiss")
    assert not any("clientSecret" in str(j.value) for j in app.json)
    assert list(app.dataframe[0].value["name"]) == ["Club site"]


def test_integrations_creates_a_developer_key_and_revokes_a_connection(console: Console,
                                                                      operator_api: Operator) -> None:
    app = console("views/integrations.py")
    app.text_input(key="key_name").input("scorer")
    app.text_input(key="key_scope").input("matches.read")
    press(app, "Create developer key")
    key = next(str(j.value) for j in app.json if "svc_test_" in str(j.value))
    assert "matches.read" in key
    connections = [c for c in operator_api.data("GET", "/operator/connections") if c["kind"] != "house"]
    assert [c["scopes"] for c in connections] == [["matches.read"]]
    assert list(app.selectbox(key="conn_pick").options) == [f"scorer · {connections[0]['connectionID']}"]
    click(app, "conn_revoke")
    assert not operator_api.data("GET", "/operator/connections")[1].get("revokedOn")  # it asks first
    click(app, "conn_revoke_yes")
    assert operator_api.data("GET", "/operator/connections")[1]["revokedOn"]
    assert f"Connection {connections[0]['connectionID']} revoked." in texts(app, "success")


# ------------------------------------------------------------------ broadcasts, rosters, player lists
def test_a_refused_broadcast_form_shows_field_reasons_and_keeps_what_was_typed(
    console: Console, operator_api: Operator,
) -> None:
    """Console-trial issue, item 12: the API's per-field reasons next to the fields; nothing typed is lost."""
    app = console("views/broadcasts.py")
    courts = "\n".join(f"Court {i}" for i in range(1, 50)) + "\n" + "x" * 130  # 50 courts, the last too long
    app.text_input(key="bc_name_0").input("Saturday Open")
    app.text_area(key="bc_courts_0").input(courts)
    press(app, "Create broadcast")
    assert operator_api.data("GET", "/operator/broadcasts") == []
    errors = texts(app, "error")
    assert any(text.startswith("The request is not valid") for text in errors), errors
    assert "Court line 50: Length must be between 1 and 120." in errors  # right under the courts field
    assert app.text_area(key="bc_courts_0").value == courts  # the 50 typed court names are still there
    assert app.text_input(key="bc_name_0").value == "Saturday Open"


def test_broadcasts_create_edit_and_hand_over(console: Console, partner: Partner, operator_api: Operator) -> None:
    app = console("views/broadcasts.py")
    app.text_input(key="bc_name_0").input("Saturday Open")
    app.text_area(key="bc_courts_0").input("Court A\nCourt B")
    press(app, "Create broadcast")
    assert "Broadcast Saturday Open created." in texts(app, "success")
    assert app.text_input(key="bc_name_1").value == ""  # a fresh form after a success
    broadcast = operator_api.data("GET", "/operator/broadcasts")[0]
    assert [t["label"] for t in broadcast["tables"]] == ["Court A", "Court B"]
    assert list(app.dataframe[0].value["courts"]) == ["Court A, Court B"]
    outputs = operator_api.data("GET", f"/operator/broadcasts/{broadcast['id']}/outputs")
    assert sorted((o["kind"], o["tableLabel"], o["design"]) for o in outputs if o["kind"] == "court") == [
        ("court", "Court A", "classic"), ("court", "Court B", "classic")]  # a stream overlay per court by default
    app.text_area(key=f"bc_edit_courts_{broadcast['id']}").input("Court A1\nCourt B\nCourt C")
    press(app, "Save broadcast")
    edited = operator_api.data("GET", "/operator/broadcasts")[0]
    assert [t["label"] for t in edited["tables"]] == ["Court A1", "Court B", "Court C"]
    assert [t["id"] for t in edited["tables"]][:2] == [t["id"] for t in broadcast["tables"]]
    pick(app, "bc_handover_to", partner.connection_id)
    click(app, "bc_handover")
    assert operator_api.data("GET", "/operator/broadcasts")[0]["managerConnectionID"] == partner.connection_id
    assert {t["label"]: t["managerConnectionID"] for t in operator_api.data("GET", "/operator/tables")} == {
        "Court A1": partner.connection_id, "Court B": partner.connection_id, "Court C": partner.connection_id,
    }


def test_player_lists_add_and_remove_manual_players(console: Console, partner: Partner,
                                                    operator_api: Operator) -> None:
    partner.players()
    app = console("views/players.py")
    frame = app.dataframe[0].value
    assert list(frame["Name"]) == ["Ann Lee", "Bo Kim", "Cy Day", "Di Fox"] and set(frame["From"]) == {"partner"}
    next(t for t in app.text_input if t.label == "First name").input("Eve")
    next(t for t in app.text_input if t.label == "Last name").input("Ray")
    press(app, "Add player")
    assert "Eve Ray added." in texts(app, "success")
    players = operator_api.data("GET", "/operator/player-lists")[0]["players"]
    manual = [p for p in players if p["source"] == "manual"]
    assert [(p["firstName"], p["lastName"]) for p in manual] == [("Eve", "Ray")]
    click(app, "players_remove")  # asks first (contract §9a)
    assert len(operator_api.data("GET", "/operator/player-lists")[0]["players"]) == 5
    click(app, "players_remove_yes")
    assert "Eve Ray removed." in texts(app, "success")
    assert [p["source"] for p in operator_api.data("GET", "/operator/player-lists")[0]["players"]] == ["mapped"] * 4


def test_player_lists_warn_before_adding_a_second_player_with_the_same_name(
    console: Console, partner: Partner, operator_api: Operator,
) -> None:
    partner.players()
    app = console("views/players.py")
    next(t for t in app.text_input if t.label == "First name").input("ann")
    next(t for t in app.text_input if t.label == "Last name").input(" LEE ")
    press(app, "Add player")
    assert any("already in this list" in text for text in texts(app, "warning"))
    assert [p["source"] for p in operator_api.data("GET", "/operator/player-lists")[0]["players"]] == ["mapped"] * 4
    next(t for t in app.text_input if t.label == "First name").input("Ann")
    next(t for t in app.text_input if t.label == "Last name").input("Lee")
    next(c for c in app.checkbox if c.label.startswith("Add even if")).check()
    press(app, "Add player")
    assert "Ann Lee added." in texts(app, "success")
    assert [p["source"] for p in operator_api.data("GET", "/operator/player-lists")[0]["players"]][-1] == "manual"


def test_a_bug_on_a_page_shows_one_message_not_a_traceback() -> None:
    def page() -> None:
        from console.ui import no_traceback

        with no_traceback("the test page"):
            raise KeyError("label")

    app = AppTest.from_function(page, default_timeout=60).run()
    assert not app.exception
    assert texts(app, "error") == [
        "The console could not show the test page (KeyError: 'label'). This is a bug; the details are in the "
        "console's log."
    ]


def test_scoring_counts_games_with_the_servers_rule_not_the_consoles_environment(
    server_factory: Callable[..., ServerProcess], monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A server playing games to 5: the console (no COURTSIDE_POINTS_PER_GAME of its own) follows it."""
    server = server_factory(env={"COURTSIDE_POINTS_PER_GAME": "5", "COURTSIDE_DEFAULT_BEST_OF": "3"})
    monkeypatch.delenv("COURTSIDE_POINTS_PER_GAME", raising=False)
    monkeypatch.setenv("COURTSIDE_API_URL", f"http://127.0.0.1:{server.port}")
    monkeypatch.setenv("COURTSIDE_OPERATOR_KEY", server.operator_key)
    partner, operator_api = Partner(server, server.developer_key()), Operator(server)
    started_match(partner, operator_api)
    app = AppTest.from_file(APP, default_timeout=60)
    app.run()
    app.switch_page("views/scoring.py").run()
    assert any("Best of 3 games to 5, win by 2" in caption.value for caption in app.caption)
    for _ in range(5):
        click(app, "point_a")
    assert "Ann Lee wins" not in " ".join(texts(app, "success"))
    live = operator_api.tables()["Court 1"]["activeMatch"]
    assert live["gameScores"] == [{"a": 5, "b": 0}] and live["score"] == {"a": 1, "b": 0}


def test_console_undo_never_erases_a_phone_point_made_after_the_console_tap(console: Console, partner: Partner,
                                                                          operator_api: Operator) -> None:
    tables, _match = started_match(partner, operator_api)
    app = console("views/scoring.py")
    click(app, "point_a")
    link = operator_api.data("GET", f"/operator/tables/{tables['Court 1']}/scorer")["url"]
    seen = requests.get(link + "/state", timeout=30).json()["data"]["version"]
    phone = requests.post(link + "/point", json={"version": seen, "side": "b"}, timeout=30)
    assert phone.status_code == 200, phone.text
    click(app, "undo")  # pressed on the page that still showed 1-0
    assert operator_api.tables()["Court 1"]["activeMatch"]["gameScores"] == [{"a": 1, "b": 1}]
    assert any("changed" in text for text in texts(app, "error")), texts(app, "error")


def test_a_console_tap_and_a_phone_tap_on_one_match_show_two_devices_scoring(console: Console, partner: Partner,
                                                                            operator_api: Operator) -> None:
    """§17: the board and the scoring page say "2 devices scoring" while more than one client wrote to the match
    in the last 60 s: here this console session (its own deviceID) and a scorer phone."""
    tables, _match = started_match(partner, operator_api)
    app = console("views/scoring.py")
    click(app, "point_a")
    assert not any("devices scoring" in text for text in texts(app, "warning"))
    link = operator_api.data("GET", f"/operator/tables/{tables['Court 1']}/scorer")["url"]
    seen = requests.get(link + "/state", timeout=30).json()["data"]["version"]
    phone = requests.post(link + "/point", json={"version": seen, "side": "b", "deviceID": "phone-1"}, timeout=30)
    assert phone.status_code == 200 and phone.json()["data"]["devicesScoring"] == 2, phone.text
    app.run()
    assert any(text.startswith("2 devices scoring this match") for text in texts(app, "warning")), texts(app, "warning")
    board = console("views/court_board.py")
    assert any("**2 devices scoring**" in text for text in texts(board, "markdown")), texts(board, "markdown")


def test_court_board_says_how_late_a_court_runs_against_the_order_of_play(console: Console,
                                                                           operator_api: Operator) -> None:
    """Issue 51: "Court 1: N min late" showed on the event page, never on the console's board."""
    broadcast = operator_api.data("POST", "/operator/broadcasts", {"name": "Club day",
                                                                   "tables": [{"label": "Court 1"}]})
    court = broadcast["tables"][0]["id"]
    first, second = (operator_api.data("POST", "/operator/matches", {
        "tableID": court, "playerA": {"manualName": a}, "playerB": {"manualName": b}})
        for a, b in (("Ann Lee", "Bo Kim"), ("Cy Day", "Di Ray")))
    operator_api.data("POST", f"/operator/matches/{first['id']}/start")
    now = datetime.now(UTC).replace(second=0, microsecond=0)
    operator_api.data("POST", f"/operator/matches/{second['id']}/plan", {
        "tableID": court, "plannedOn": (now - timedelta(minutes=10)).isoformat().replace("+00:00", "Z")})
    table = operator_api.data("GET", "/operator/tables")[0]
    assert table["late"], table
    app = console("views/court_board.py")
    assert not app.exception, app.exception
    minutes = f"{table['lateMinutes']} min late"
    assert any("Court 1" in str(m.value) and minutes in str(m.value) for m in app.markdown), app.markdown
