"""The scoring rules, table by table: games to 11 won by 2, best-of-N, derived score, impossible scores."""

from __future__ import annotations

from typing import Any

import pytest

from domain import scoring
from domain.errors import Conflict, Invalid


def g(a: int, b: int) -> dict[str, int]:
    return {"a": a, "b": b}


# game, points, winner (None: in progress)
GAMES = [
    (g(11, 0), 11, "a"),
    (g(11, 9), 11, "a"),
    (g(9, 11), 11, "b"),
    (g(11, 10), 11, None),
    (g(10, 10), 11, None),
    (g(12, 10), 11, "a"),
    (g(14, 16), 11, "b"),
    (g(5, 3), 11, None),
    (g(0, 0), 11, None),
    (g(21, 19), 21, "a"),
    (g(11, 5), 21, None),
    (g(15, 14), 11, None),
]


@pytest.mark.parametrize(("game", "points", "winner"), GAMES)
def test_game_winner(game: dict[str, int], points: int, winner: str | None) -> None:
    scoring.check_game(game, points=points)
    assert scoring.game_winner(game, points=points) == winner


IMPOSSIBLE_GAMES = [
    (g(15, 3), 11),
    (g(12, 5), 11),
    (g(13, 10), 11),
    (g(3, 14), 11),
    (g(-1, 4), 11),
    (g(4, -2), 11),
    (g(25, 11), 21),
    ({"a": "11", "b": 3}, 11),
    ({"a": True, "b": 3}, 11),
]


@pytest.mark.parametrize(("game", "points"), IMPOSSIBLE_GAMES)
def test_impossible_game_is_invalid(game: dict[str, Any], points: int) -> None:
    with pytest.raises(Invalid) as raised:
        scoring.check_game(game, points=points)
    assert raised.value.code == "validation_failed"


# game scores, best of, live result (score) or the error raised when live, final result or error
SEQUENCES: list[tuple[list[dict[str, int]], int, Any, Any]] = [
    ([], 5, {"a": 0, "b": 0}, "match_undecided"),
    ([g(11, 7)], 5, {"a": 1, "b": 0}, "match_undecided"),
    ([g(11, 7), g(3, 2)], 5, {"a": 1, "b": 0}, "match_undecided"),
    ([g(11, 7), g(7, 11), g(11, 9), g(12, 10)], 5, {"a": 3, "b": 1}, {"a": 3, "b": 1}),
    ([g(7, 11), g(7, 11), g(7, 11)], 5, {"a": 0, "b": 3}, {"a": 0, "b": 3}),
    ([g(11, 7), g(11, 7)], 3, {"a": 2, "b": 0}, {"a": 2, "b": 0}),
    ([g(11, 7)], 1, {"a": 1, "b": 0}, {"a": 1, "b": 0}),
    ([g(11, 7), g(7, 11), g(11, 7), g(7, 11), g(11, 13)], 5, {"a": 2, "b": 3}, {"a": 2, "b": 3}),
    ([g(11, 7), g(7, 11), g(11, 7), g(7, 11), g(10, 10)], 5, {"a": 2, "b": 2}, "match_undecided"),
    # games after the match was decided
    ([g(11, 7)] * 3 + [g(0, 1)], 5, "validation_failed", "validation_failed"),
    ([g(11, 7)] * 3 + [g(11, 7)], 5, "validation_failed", "validation_failed"),
    ([g(11, 7)] * 2 + [g(11, 7)], 3, "validation_failed", "validation_failed"),
    # an unfinished game before the last one
    ([g(5, 3), g(11, 3)], 5, "validation_failed", "validation_failed"),
    ([g(11, 10), g(11, 3)], 5, "validation_failed", "validation_failed"),
    # an impossible game anywhere
    ([g(11, 3), g(15, 2)], 5, "validation_failed", "validation_failed"),
]


def outcome(games: list[dict[str, int]], best_of: int, *, final: bool) -> Any:
    try:
        return scoring.check_game_scores(games, points=11, best_of=best_of, final=final)
    except (Invalid, Conflict) as error:
        return error.code


@pytest.mark.parametrize(("games", "best_of", "live", "final"), SEQUENCES)
def test_game_score_sequences(games: list[dict[str, int]], best_of: int, live: Any, final: Any) -> None:
    assert outcome(games, best_of, final=False) == live
    assert outcome(games, best_of, final=True) == final


def test_score_counts_finished_games_only() -> None:
    assert scoring.score([g(11, 7), g(9, 11), g(10, 9)], points=11) == {"a": 1, "b": 1}
    assert scoring.match_winner([g(11, 7)] * 3, points=11, best_of=5) == "a"
    assert scoring.match_winner([g(11, 7)] * 2, points=11, best_of=5) is None


@pytest.mark.parametrize(("value", "expected"), [(1, 1), (5, 5), ("7", 7), ("11", 11)])
def test_best_of_accepts_positive_odd_numbers_and_digit_strings(value: Any, expected: int) -> None:
    assert scoring.parse_best_of(value) == expected


@pytest.mark.parametrize("value", [0, 2, -1, -3, "4", "five", "", " 5", "5.0", 5.0, 3.5, True, None, [5], "٣"])
def test_best_of_rejects_everything_else(value: Any) -> None:
    with pytest.raises(Invalid):
        scoring.parse_best_of(value)


@pytest.mark.parametrize(("best_of", "needed"), [(1, 1), (3, 2), (5, 3), (7, 4)])
def test_games_needed_is_more_than_half(best_of: int, needed: int) -> None:
    assert scoring.games_needed(best_of) == needed
