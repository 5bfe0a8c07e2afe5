"""Contract §9: GET /operator/results?broadcastID=...&format=csv|json — every completed match of a broadcast."""

# ruff: noqa: F811 - the fixture `event` comes from tests.api.test_operator_matches
from __future__ import annotations

import csv
import io
from typing import Any

from tests.api.test_operator_matches import create, event  # noqa: F401 - fixture
from tests.api.test_scoring_routes import call
from tests.conftest import Api

COLUMNS = ["court", "event", "round", "sideA", "sideB", "games", "gamesA", "gamesB", "winner", "winnerNames",
           "startedOn", "completedOn", "minutes", "format"]


def played(operator: Api, clock: Any, table_id: str, a: str, b: str, games: list[tuple[int, int]],
           minutes: float, **extra: Any) -> None:
    made = create(operator, {"tableID": table_id, "playerA": {"manualName": a}, "playerB": {"manualName": b}}
                  | extra).json["data"]
    assert call(operator, "start", made["id"]).status_code == 200
    clock.advance(minutes * 60)
    done = call(operator, "complete", made["id"], {"gameScores": [{"a": x, "b": y} for x, y in games]})
    assert done.status_code == 200, done.json


def test_results_json_lists_completed_matches_oldest_first(operator: Api, event: dict[str, Any], clock: Any) -> None:
    court1, court2 = (t["id"] for t in event["tables"])
    played(operator, clock, court1, "Ann Lee", "Bo Chan", [(11, 7), (9, 11), (11, 5), (11, 3)], 21.5,
           eventName="Open", matchRound="Final")
    played(operator, clock, court2, "Cy", "Di", [(3, 11), (4, 11), (5, 11)], 10)
    create(operator, {"tableID": court1, "playerA": {"manualName": "Still"}, "playerB": {"manualName": "Waiting"}})
    response = operator.get(f"/operator/results?broadcastID={event['id']}")
    assert response.status_code == 200
    assert response.json["nextCursor"] is None
    first, second = response.json["data"]
    assert list(first) == COLUMNS
    assert first | {"startedOn": None, "completedOn": None} == {
        "court": "Court 1", "event": "Open", "round": "Final", "sideA": "Ann Lee", "sideB": "Bo Chan",
        "games": "11-7 9-11 11-5 11-3", "gamesA": 3, "gamesB": 1, "winner": "A", "winnerNames": "Ann Lee",
        "startedOn": None, "completedOn": None, "minutes": 21.5, "format": "table_tennis",
    }
    assert first["completedOn"] < second["completedOn"]
    assert (second["court"], second["winner"], second["winnerNames"], second["minutes"]) == ("Court 2", "B", "Di", 10.0)


def test_results_csv_is_an_attachment_with_a_header_row(operator: Api, event: dict[str, Any], clock: Any) -> None:
    played(operator, clock, event["tables"][0]["id"], "Ann Lee", "Bo, Chan", [(11, 1)] * 3, 12)
    response = operator.get(f"/operator/results?broadcastID={event['id']}&format=csv")
    assert response.status_code == 200
    assert response.mimetype == "text/csv"
    assert response.headers["Content-Disposition"] == 'attachment; filename="results-club-day-2026-11-21.csv"'
    assert response.mimetype_params == {"charset": "utf-8"} and response.get_data().startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(response.get_data().decode("utf-8-sig"))))
    assert rows[0] == [*COLUMNS, "audit"]
    assert rows[1][:10] == ["Court 1", "", "", "Ann Lee", "Bo, Chan", "11-1 11-1 11-1", "3", "0", "A", "Ann Lee"]
    assert rows[1][12] == "12.0" and len(rows) == 2
    head = operator.get("/operator/audit/head").json["data"]  # §16: the file anchors the audit log
    assert rows[1][rows[0].index("audit")] == head["line"] == f"Audit {head['seq']} · {head['hash'][:12]}…"
    assert head["seq"] > 0


def test_results_bad_query_is_400_and_unknown_broadcast_404(operator: Api, event: dict[str, Any]) -> None:
    assert operator.get("/operator/results").status_code == 400
    bad = operator.get(f"/operator/results?broadcastID={event['id']}&format=xml")
    assert bad.status_code == 400 and bad.json["error"]["code"] == "validation_failed"
    missing = operator.get("/operator/results?broadcastID=brd_nope")
    assert missing.status_code == 404 and missing.json["error"]["code"] == "not_found"
    assert operator.get(f"/operator/results?broadcastID={event['id']}").json == {"data": [], "nextCursor": None}


def test_results_need_the_operator_key(app: Any, event: dict[str, Any]) -> None:
    assert Api(app.test_client(), None).get(f"/operator/results?broadcastID={event['id']}").status_code == 401


def test_results_csv_keeps_accents_for_excel_and_names_the_file_after_the_event_and_day(
        operator: Api, clock: Any) -> None:
    """Issue 35: Excel on Windows showed "ZoÃ«" without a BOM; the file was named after the broadcast's ID."""
    made = operator.post("/operator/broadcasts", json={"name": "Zoë's Cup: Ünter-Club Open!", "tables": [
        {"label": "Court 1"}]}).json["data"]
    played(operator, clock, made["tables"][0]["id"], "Zoë Faure", "Bo Chan", [(11, 1)] * 3, 12)
    response = operator.get(f"/operator/results?broadcastID={made['id']}&format=csv")
    assert response.headers["Content-Disposition"] == \
        'attachment; filename="results-zoe-s-cup-unter-club-open-2026-11-21.csv"'
    body = response.get_data()
    assert body.startswith("\ufeffcourt,".encode()) and "Zoë Faure".encode() in body
