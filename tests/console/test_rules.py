"""The console's pure pieces: a match read's score in its format as the buttons and the board show it, queue
reordering, delivery statistics."""

from __future__ import annotations

from typing import Any

import pytest

from console.board import queue_after
from console.deliveries import failure_rate, failure_rate_over_time, over_time, table_of
from console.scoring import finished_games, match_state, parse_games, score_line
from domain.match import formats

TT = {"kind": "games", "bestOf": 5, "pointsToWin": 11, "winBy": 2, "cap": None}
TENNIS = {"kind": "sets", "bestOf": 3, "gamesToWin": 6, "tiebreakAt": 6, "tiebreakTo": 7, "finalSet": "tiebreak",
          "noAd": False}


def read(games: list[dict[str, Any]], scoring: dict[str, Any] | None = None, **fields: Any) -> dict[str, Any]:
    """A match read as the console gets it: its games and its resolved format."""
    return {"gameScores": games, "scoring": scoring or TT} | fields


def test_the_match_is_decided_by_more_than_half_of_best_of() -> None:
    scores = [{"a": 11, "b": 3}, {"a": 5, "b": 11}, {"a": 11, "b": 9}]
    state = match_state(read(scores, TT | {"bestOf": 3}))
    assert (state.games, state.winner, state.decided, state.unit) == ({"a": 2, "b": 1}, "a", True, "games")
    undecided = match_state(read(scores))
    assert (undecided.winner, undecided.game_number, undecided.current) == (None, 4, {"a": "0", "b": "0"})


def test_the_game_in_play_is_the_unfinished_last_game() -> None:
    state = match_state(read([{"a": 11, "b": 3}, {"a": 4, "b": 7}]))
    assert (state.games, state.game_number, state.current) == ({"a": 1, "b": 0}, 2, {"a": "4", "b": "7"})


def test_a_badminton_game_goes_to_21_and_30_wins() -> None:
    badminton = {"kind": "games", "bestOf": 3, "pointsToWin": 21, "winBy": 2, "cap": 30}
    assert match_state(read([{"a": 30, "b": 29}], badminton)).games == {"a": 1, "b": 0}
    assert match_state(read([{"a": 21, "b": 20}], badminton)).games == {"a": 0, "b": 0}


def test_a_tennis_match_shows_sets_the_set_in_play_and_the_point_as_called() -> None:
    state = match_state(read([{"a": 6, "b": 4}, {"a": 3, "b": 2}], TENNIS, currentGame={"a": "40", "b": "AD"}))
    assert (state.unit, state.games, state.game_number) == ("sets", {"a": 1, "b": 0}, 2)
    assert state.set_games == {"a": 3, "b": 2} and state.current == {"a": "40", "b": "AD"}
    assert score_line([{"a": 6, "b": 4}, {"a": 7, "b": 6, "tiebreak": {"a": 7, "b": 4}}], read([], TENNIS)) == (
        "6-4, 7-6(4)")


def test_completion_drops_an_unstarted_last_game() -> None:
    assert finished_games([{"a": 11, "b": 3}, {"a": 0, "b": 0}]) == [{"a": 11, "b": 3}]


def test_typed_scores_are_parsed_or_refused_with_a_reason() -> None:
    assert parse_games("11-7, 9-11;11-5") == [{"a": 11, "b": 7}, {"a": 9, "b": 11}, {"a": 11, "b": 5}]
    assert parse_games("11:7") == [{"a": 11, "b": 7}]  # the one reading of every page (result_text)
    with pytest.raises(ValueError, match="Could not read 'x' after game 1"):
        parse_games("11-7 x")
    with pytest.raises(ValueError, match="Type the games"):
        parse_games(" , ")
    assert score_line([{"a": 11, "b": 7}, {"a": 2, "b": 0}]) == "11-7, 2-0"
    assert score_line([]) == "no points yet"


def test_a_match_tiebreak_result_as_shown_is_read_back_by_the_correction() -> None:
    """Issue 51: the correction is pre-filled "6-4, 3-6, [10-7]"; that, "[7-10]" and "10-7" all read."""
    match = {"scoring": formats.to_json(formats.PRESETS["tennis_match_tiebreak"])}
    games: list[dict[str, Any]] = [{"a": 6, "b": 4}, {"a": 3, "b": 6}, {"a": 1, "b": 0, "tiebreak": {"a": 10, "b": 7}}]
    assert score_line(games, match) == "6-4, 3-6, [10-7]"
    assert parse_games("6-4, 3-6, [10-7]", match) == games
    assert parse_games("6-4, 3-6, 10-7", match) == games
    assert parse_games("6-4, 3-6, [7-10]", match)[-1] == {"a": 0, "b": 1, "tiebreak": {"a": 7, "b": 10}}


def test_queue_moves_up_down_and_to_the_front() -> None:
    order = ["m1", "m2", "m3"]
    assert queue_after(order, "m3", "top") == ["m3", "m1", "m2"]
    assert queue_after(order, "m2", "up") == ["m2", "m1", "m3"]
    assert queue_after(order, "m2", "down") == ["m1", "m3", "m2"]
    assert queue_after(order, "m1", "up") == order
    assert queue_after(order, "m3", "down") == order


def delivery(status: str, created: str, **extra: str) -> dict[str, str]:
    return {"status": status, "createdOn": created, "eventType": "match.completed", "eventID": "e" * 40} | extra


def test_failure_rate_is_failed_among_settled_deliveries() -> None:
    assert failure_rate([]) is None
    assert failure_rate([delivery("pending", "2026-01-01T10:00:00Z")]) is None
    rows = [delivery(s, "2026-01-01T10:00:00Z") for s in ("delivered", "delivered", "delivered", "failed", "pending")]
    assert failure_rate(rows) == 0.25


def test_deliveries_over_time_are_counted_per_bucket_and_status() -> None:
    rows = [
        delivery("delivered", "2026-01-01T10:00:05.000Z"), delivery("failed", "2026-01-01T10:00:40.000Z"),
        delivery("delivered", "2026-01-01T10:02:00.000Z"),
    ]
    counts = over_time(rows)
    assert list(counts.columns) == ["delivered", "failed"]
    assert [str(t) for t in counts.index] == ["2026-01-01 10:00:00", "2026-01-01 10:02:00"]
    assert counts.to_dict("list") == {"delivered": [1, 1], "failed": [1, 0]}
    assert failure_rate_over_time(counts).to_list() == [0.5, 0.0]
    assert failure_rate_over_time(over_time([delivery("pending", "2026-01-01T10:00:00Z")])).empty
    spread = over_time([delivery("delivered", "2026-01-01T10:00:00Z"), delivery("delivered", "2026-01-01T20:30:00Z")])
    assert [str(t) for t in spread.index] == ["2026-01-01 10:00:00", "2026-01-01 20:00:00"]  # hourly buckets


def test_delivery_table_has_the_same_columns_whatever_the_records_carry() -> None:
    frame = table_of([delivery("pending", "2026-01-01T10:00:00Z", lastError="HTTP 500")])
    assert list(frame.columns) == ["createdOn", "eventType", "status", "attemptCount", "connectionID", "lastError",
                                   "nextAttemptOn", "eventID"]
    assert frame["lastError"][0] == "HTTP 500"
