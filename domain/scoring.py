"""Table-tennis scoring rules: games to N points won by 2, best-of-N matches, score derived from game scores.

A game is *finished* once a side has at least N points and leads by 2. While a match is live its last game may
still be in progress (e.g. 5-3 or 10-10); every earlier game must be finished. A score no rally sequence can
produce (15-3 with N = 11, negative points) is impossible (400 `validation_failed`). Once a side has won more
than half of `bestOf` games the match is decided and no further game may follow.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.errors import Conflict, Invalid
from domain.models import Side

Game = dict[str, int]


def parse_best_of(value: Any) -> int:
    """`bestOf` as the API accepts it: a positive odd integer, as a number or a string of digits."""
    if isinstance(value, bool):
        raise Invalid("bestOf must be a positive odd integer.")
    if isinstance(value, str) and value.isascii() and value.isdigit():
        value = int(value)
    if not isinstance(value, int) or value < 1 or value % 2 == 0:
        raise Invalid("bestOf must be a positive odd integer.")
    return value


def games_needed(best_of: int) -> int:
    """Games a side must win to take a best-of-`best_of` match (more than half)."""
    return best_of // 2 + 1


def _invalid(index: int, message: str) -> Invalid:
    return Invalid(f"Game {index + 1}: {message}", details={"json": {"gameScores": {str(index): [message]}}})


def game_winner(game: Game, *, points: int) -> str | None:
    """"a" or "b" for a finished game, None while it is in progress. Assumes the game is possible."""
    high, low = max(game["a"], game["b"]), min(game["a"], game["b"])
    if high >= points and high - low >= 2:
        return "a" if game["a"] > game["b"] else "b"
    return None


def check_game(game: Game, *, points: int, index: int = 0) -> None:
    """Raise `Invalid` for a score no game can reach: negative points, or past N without a 2-point finish."""
    a, b = game.get("a"), game.get("b")
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (a, b)):
        raise _invalid(index, "points must be integers.")
    assert isinstance(a, int) and isinstance(b, int)
    if a < 0 or b < 0:
        raise _invalid(index, "points cannot be negative.")
    high, low = max(a, b), min(a, b)
    if high > points and high - low > 2:
        raise _invalid(index, f"a game past {points} points ends as soon as a side leads by 2.")


def score(game_scores: Sequence[Game], *, points: int) -> dict[str, int]:
    """Games won by each side (finished games only)."""
    won = {"a": 0, "b": 0}
    for game in game_scores:
        winner = game_winner(game, points=points)
        if winner:
            won[winner] += 1
    return won


def match_winner(game_scores: Sequence[Game], *, points: int, best_of: int) -> str | None:
    """The side that has won more than half of `best_of` games, or None."""
    won = score(game_scores, points=points)
    need = games_needed(best_of)
    return next((side for side in Side if won[side] >= need), None)


def check_game_scores(game_scores: Sequence[Game], *, points: int, best_of: int, final: bool) -> dict[str, int]:
    """Validate a whole list of game scores and return the derived score.

    `final` (completing, or correcting a completed match): every game finished and the match decided,
    else `409 match_undecided`. Otherwise only the last game may be in progress.
    """
    need = games_needed(best_of)
    won = {"a": 0, "b": 0}
    for index, game in enumerate(game_scores):
        check_game(game, points=points, index=index)
        if max(won.values()) >= need:
            raise _invalid(index, f"the match was already decided (best of {best_of}).")
        winner = game_winner(game, points=points)
        if winner is None:
            if index != len(game_scores) - 1:
                raise _invalid(index, "only the last game can be unfinished.")
            continue
        won[winner] += 1
    if final and max(won.values()) < need:
        raise Conflict(
            f"No side has won {need} of {best_of} games yet; the match cannot be completed.",
            code="match_undecided",
        )
    return won
