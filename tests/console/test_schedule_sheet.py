"""Reading a schedule sheet into import rows (console/board.py): column names as people write them, empty cells
left out, numbers from Excel as typed, and what the sheet lacks said in words."""

from __future__ import annotations

import math
from datetime import UTC, datetime

import pandas as pd

from console.board import (
    attention_text,
    blocked_text,
    busy_text,
    next_startable,
    participant,
    player_names,
    schedule_rows,
)


def test_columns_match_ignoring_case_spaces_and_underscores() -> None:
    frame = pd.DataFrame({"Court": ["Court 1"], "Player A": ["Ann Lee"], "player_b": ["Bo"], "Best of": ["3"],
                          "Round": [""], "Notes": ["bring water"]})
    rows, problems = schedule_rows(frame)
    assert rows == [{"court": "Court 1", "playerA": "Ann Lee", "playerB": "Bo", "bestOf": "3"}]
    assert problems == ["Column 'Notes' is not used (known: court, playerA, playerB, playerA2, playerB2, round, "
                        "event, bestOf, time)."]


def test_excel_numbers_and_empty_cells() -> None:
    frame = pd.DataFrame({"court": ["Court 1", "Court 2"], "playerA": ["A", "C"], "playerB": ["B", math.nan],
                          "bestOf": [5.0, math.nan]})
    rows, problems = schedule_rows(frame)
    assert rows == [{"court": "Court 1", "playerA": "A", "playerB": "B", "bestOf": "5"},
                    {"court": "Court 2", "playerA": "C"}]
    assert problems == []


def test_missing_required_columns_are_named() -> None:
    _, problems = schedule_rows(pd.DataFrame({"court": ["Court 1"], "playerA": ["A"]}))
    assert problems == ["The sheet needs the column playerB."]


def test_board_words_for_busy_players_and_the_match_start_next_starts() -> None:
    busy = {"id": "m1", "busyPlayers": [{"name": "Ann Lee", "tableID": "t3", "tableLabel": "Court 3"},
                                        {"name": "Bo", "tableID": "t1", "tableLabel": "Court 1"}]}
    free = {"id": "m2", "busyPlayers": []}
    assert busy_text(busy) == "Ann Lee is playing on Court 3; Bo is playing on Court 1"
    assert busy_text(free) == ""
    assert next_startable([busy, free]) is free and next_startable([busy]) is None


def test_new_match_players_are_picked_from_the_list_or_typed() -> None:
    names = player_names({"players": [{"externalID": "p1", "firstName": "Ann", "lastName": "Lee"},
                                      {"externalID": "p2", "firstName": "Bo"}]})
    assert names == {"Ann Lee": "p1", "Bo": "p2"}
    assert participant("Ann Lee", names) == {"externalID": "p1"}
    assert participant("  Walk   In ", names) == {"manualName": "Walk In"}
    assert participant("", names) is None and participant(None, names) is None


def test_board_words_for_each_reason_a_match_waits() -> None:
    def waiting(reason: str, **extra: object) -> dict[str, object]:
        return {"blockedBy": {"reason": reason, "players": ["Ann Lee", "Bo Chen"]} | extra, "busyPlayers": []}

    assert blocked_text(waiting("not_checked_in")) == "Not checked in: Ann Lee, Bo Chen"
    assert blocked_text(waiting("player_resting", until="2026-11-21T10:10:00.000Z")).startswith(
        "Ann Lee, Bo Chen resting until ")
    assert blocked_text(waiting("not_before", until="2026-11-21T14:00:00.000Z")).startswith("Not before ")
    assert blocked_text({"blockedBy": None}) == ""
    called = {"blockedBy": None, "calledOn": "2026-11-21T10:00:00.000Z"}
    first = {"blockedBy": None}
    assert next_startable([waiting("not_checked_in"), first, called]) is called
    assert next_startable([waiting("not_checked_in"), first]) is first


def test_a_start_column_sends_a_time_of_day_as_time_and_a_full_moment_as_scheduled_on() -> None:
    frame = pd.DataFrame({"court": ["Court 1", "Court 2", "Court 3"], "playerA": ["A", "C", "E"],
                          "playerB": ["B", "D", "F"], "Time": ["14:00", "9:30:00", "2026-11-21T14:00:00+01:00"]})
    rows, problems = schedule_rows(frame)
    assert problems == []
    assert [{k: v for k, v in r.items() if k in ("time", "scheduledOn")} for r in rows] == [
        {"time": "14:00"}, {"time": "9:30:00"}, {"scheduledOn": "2026-11-21T14:00:00+01:00"}]


def test_a_free_court_whose_matches_all_wait_for_their_time_is_not_highlighted() -> None:
    now = datetime(2026, 11, 21, 10, 0, tzinfo=UTC)
    timed = {"blockedBy": {"reason": "not_before", "players": [], "until": "2026-11-21T14:00:00.000Z"}}
    busy = {"blockedBy": {"reason": "player_busy", "players": ["Ann Lee"]}}
    assert attention_text({"attention": "waiting", "queue": [timed, timed]}, now=now) == ""
    assert attention_text({"attention": "waiting", "queue": [timed, busy]}, now=now) == \
        "Free court: 2 matches waiting"
    assert attention_text({"attention": "waiting", "queue": [{"blockedBy": None}]}, now=now) == \
        "Free court: 1 match waiting"
