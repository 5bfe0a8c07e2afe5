"""The console's pure pieces: the scoring rule as the buttons apply it, queue reordering, delivery statistics."""

from __future__ import annotations

import pytest

from console.board import queue_after
from console.deliveries import failure_rate, failure_rate_over_time, over_time, table_of
from console.scoring import add_point, finished_games, match_state, parse_games, score_line
from domain.scoring import game_winner


@pytest.mark.parametrize(("a", "b", "winner"), [
    (11, 9, "a"), (9, 11, "b"), (11, 10, None), (12, 10, "a"), (10, 12, "b"), (15, 14, None), (0, 0, None),
])
def test_a_game_goes_to_eleven_won_by_two(a: int, b: int, winner: str | None) -> None:
    assert game_winner({"a": a, "b": b}, points=11) == winner


def test_a_point_after_a_finished_game_opens_the_next_game() -> None:
    assert add_point([{"a": 11, "b": 5}], "b", best_of=5) == [{"a": 11, "b": 5}, {"a": 0, "b": 1}]
    assert add_point([], "a", best_of=5) == [{"a": 1, "b": 0}]
    assert add_point([{"a": 10, "b": 10}], "a", best_of=5) == [{"a": 11, "b": 10}]


def test_the_match_is_decided_by_more_than_half_of_best_of_and_then_takes_no_more_points() -> None:
    scores = [{"a": 11, "b": 3}, {"a": 5, "b": 11}, {"a": 11, "b": 9}]
    state = match_state(scores, best_of=3)
    assert (state.games, state.winner, state.needed, state.decided) == ({"a": 2, "b": 1}, "a", 2, True)
    assert add_point(scores, "b", best_of=3) == scores
    undecided = match_state(scores, best_of=5)
    assert (undecided.winner, undecided.game_number, undecided.current) == (None, 4, {"a": 0, "b": 0})


def test_the_game_in_play_is_the_unfinished_last_game() -> None:
    state = match_state([{"a": 11, "b": 3}, {"a": 4, "b": 7}], best_of=5)
    assert (state.games, state.game_number, state.current) == ({"a": 1, "b": 0}, 2, {"a": 4, "b": 7})


def test_points_per_game_is_the_server_setting() -> None:
    assert game_winner({"a": 21, "b": 19}, points=21) == "a"
    assert game_winner({"a": 11, "b": 5}, points=21) is None


def test_completion_drops_an_unstarted_last_game() -> None:
    assert finished_games([{"a": 11, "b": 3}, {"a": 0, "b": 0}]) == [{"a": 11, "b": 3}]


def test_typed_scores_are_parsed_or_refused_with_a_reason() -> None:
    assert parse_games("11-7, 9-11;11-5") == [{"a": 11, "b": 7}, {"a": 9, "b": 11}, {"a": 11, "b": 5}]
    with pytest.raises(ValueError, match="'11:7' is not a game score like 11-7"):
        parse_games("11:7")
    with pytest.raises(ValueError, match="enter at least one game"):
        parse_games(" , ")
    assert score_line([{"a": 11, "b": 7}, {"a": 2, "b": 0}]) == "11-7, 2-0"
    assert score_line([]) == "no points yet"


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
