"""The audit log in a club's words (found by the QA walk-through in a browser): no record or key IDs, no raw field
names, no bookkeeping fields in a match's history or on the Audit page."""

from __future__ import annotations

from typing import Any

from console import history

LABELS = {"tbl_1": "Court 1", "tbl_2": "Court 2", "conn_1": "LeagueApp", "ros_1": "Spring League",
          "mat_1": "Ann Lee vs Bo Chen (Court 1)"}


def entry(**fields: Any) -> dict[str, Any]:
    return {"seq": 7, "at": "2026-11-26T06:12:00Z", "action": "match.point", "reason": None,
            "actor": {"kind": "operator", "id": "opk_f7ee7ad9"}, "target": {"type": "match", "id": "mat_1"},
            "before": None, "after": None} | fields


def test_the_actor_is_named_as_a_club_knows_it() -> None:
    assert history.who(entry(), LABELS) == "Operator (console)"
    assert history.who(entry(actor={"kind": "scorer", "id": "tbl_2"}), LABELS) == "Scorer phone, Court 2"
    assert history.who(entry(actor={"kind": "partner", "id": "conn_1"}), LABELS) == "LeagueApp"
    assert history.who(entry(actor={"kind": "partner", "id": "conn_9"}), LABELS) == "Partner app"
    assert history.who(entry(actor={"kind": "registration", "id": "ros_1"}), LABELS) == "Sign-up page of Spring League"
    assert history.who(entry(actor={"kind": "system", "id": "scheduler"}), LABELS) == "Courtside"


def test_the_record_is_named_by_its_players_and_court_never_by_its_id() -> None:
    match = {"id": "mat_1", "playerA": "Ann Lee", "playerB": "Bo Chen", "tableID": "tbl_1"}
    assert history.match_name(match, LABELS) == "Ann Lee vs Bo Chen (Court 1)"
    assert history.match_name(match | {"tableID": None}, LABELS) == "Ann Lee vs Bo Chen"
    assert history.record_name({"type": "match", "id": "mat_1"}, LABELS) == "Ann Lee vs Bo Chen (Court 1)"
    assert history.record_name({"type": "link", "id": "scorer:tbl_2"}, LABELS) == "Scorer link of Court 2"
    assert history.record_name({"type": "match", "id": "mat_gone"}, LABELS) == "a match"
    row = history.rows([entry()], LABELS, record=True)[0]
    assert (row["Record"], row["Who"]) == ("Ann Lee vs Bo Chen (Court 1)", "Operator (console)")


def test_a_change_is_said_in_words_without_bookkeeping_fields() -> None:
    point = entry(before={"gameScores": [{"a": 11, "b": 7}, {"a": 9, "b": 11}], "pointLog": ["a"], "scoreVersion": 3,
                          "updatedOn": "x", "scorers": [], "seq": 4},
                  after={"gameScores": [{"a": 11, "b": 7}, {"a": 11, "b": 9}], "pointLog": ["a", "a"],
                         "scoreVersion": 4, "updatedOn": "y", "scorers": ["s"], "seq": 5})
    assert history.change(point, LABELS) == "score 11-7, 9-11 → 11-7, 11-9"
    started = entry(before={"status": "pending"}, after={"status": "active", "startedOn": "2026-11-26T06:10:00Z"})
    assert history.change(started, LABELS) == "status waiting → in play; changed start time"
    moved = entry(before={"tableID": "tbl_1"}, after={"tableID": "tbl_2", "queuePosition": 3})
    assert history.change(moved, LABELS) == "court Court 1 → Court 2; changed place in the queue"
    pinned = entry(before={"tableID": None}, after={"tableID": "tbl_1"})
    assert history.change(pinned, LABELS) == "court pool → Court 1"
    assert history.what(entry(action="draw.completed")) == "Draw completed"
    assert history.what(entry(action="draw.reseeded")) == "Draw reseeded"
    created = entry(after={"id": "mat_1", "status": "pending", "tableID": "tbl_1"})
    assert history.change(created, LABELS) == "new; status waiting; court Court 1"
    won = entry(before={"winnerSide": None, "checkedIn": False}, after={"winnerSide": "a", "checkedIn": True})
    assert history.change(won, LABELS) == "checked in no → yes; winner none → side A"
