"""Properties of the one format engine (`domain.match.formats`, contract §18), for any format and any points.

- any sequence of points keeps the score valid under the format;
- undoing k points returns exactly to the score k points earlier, across game and set boundaries;
- the match ends exactly when a side has won more than half of `bestOf`, and no point is taken after;
- a score the check accepts can be reached point by point, and (enumerated exhaustively for small formats) one it
  refuses cannot.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.errors import Conflict, Invalid
from domain.match import formats
from domain.match.formats import FinalSet, Format, GameRule, GamesFormat, Score, SetsFormat

game_rules = st.builds(
    lambda points, win_by, extra: GameRule(points, win_by, None if extra is None else points + extra),
    st.integers(1, 25), st.sampled_from([1, 2]), st.one_of(st.none(), st.integers(1, 9)))
games_formats = st.builds(GamesFormat, best_of=st.sampled_from([1, 3, 5, 7]), game=game_rules,
                          deciding=st.one_of(st.none(), game_rules))
sets_formats = st.builds(
    lambda best_of, games, tiebreak, tiebreak_to, final, no_ad: SetsFormat(
        best_of=best_of, games_to_win=games, tiebreak_at=games if tiebreak else None, tiebreak_to=tiebreak_to,
        final_set=final, no_ad=no_ad),
    st.sampled_from([1, 3, 5]), st.integers(4, 8), st.booleans(), st.sampled_from([7, 10]),
    st.sampled_from(list(FinalSet)), st.booleans())
any_format = st.one_of(games_formats, sets_formats, st.sampled_from(list(formats.PRESETS.values())))
sides = st.lists(st.sampled_from("ab"), max_size=400)


def played(fmt: Format, points: list[str]) -> list[Score]:
    """Every score from the start, one per point, until the match is decided (later points are not played)."""
    scores = [Score()]
    for side in points:
        if formats.winner(fmt, scores[-1].items) is not None:
            break
        scores.append(formats.play(fmt, scores[-1], side))
    return scores


def current_is_valid(fmt: Format, score: Score) -> bool:
    """The points of the game in play are an unfinished game (sets kind; a games score has none)."""
    if isinstance(fmt, GamesFormat):
        return score.current == (0, 0)
    if not score.items or formats.item_winner(fmt, len(score.items) - 1, score.items[-1]) is not None:
        return score.current == (0, 0)
    last = score.items[-1]
    rule = fmt.point_rule(len(score.items) - 1, (last["a"], last["b"]))
    return rule.winner(*score.current) is None and min(score.current) >= 0


@settings(max_examples=300, deadline=None)
@given(any_format, sides)
def test_any_points_keep_the_score_valid(fmt: Format, points: list[str]) -> None:
    for score in played(fmt, points):
        formats.check(fmt, score.items, final=False)
        assert current_is_valid(fmt, score)


@settings(max_examples=300, deadline=None)
@given(any_format, sides, st.integers(0, 400))
def test_undoing_k_points_returns_to_the_score_k_points_earlier(fmt: Format, points: list[str], k: int) -> None:
    scores = played(fmt, points)
    log = points[:len(scores) - 1]
    k = min(k, len(log))
    score = scores[-1]
    for taken in range(1, k + 1):
        score = formats.undo(fmt, score, log[:len(log) - taken + 1], Score())
        assert score == scores[-1 - taken]
    if isinstance(fmt, GamesFormat) and log:  # a games score is also walked back without its base
        assert formats.undo(fmt, scores[-1], log, None) == scores[-2]


@settings(max_examples=300, deadline=None)
@given(any_format, sides)
def test_the_match_ends_exactly_when_a_side_has_won_more_than_half(fmt: Format, points: list[str]) -> None:
    scores = played(fmt, points)
    for score in scores:
        count = formats.won(fmt, score.items)
        decided = max(count.values()) > fmt.best_of / 2
        assert (formats.winner(fmt, score.items) is not None) == decided
    last = scores[-1]
    if formats.winner(fmt, last.items) is not None:
        assert formats.check(fmt, last.items, final=True) == formats.won(fmt, last.items)
        with pytest.raises(Conflict) as refused:
            formats.play(fmt, last, "a")
        assert refused.value.code == "match_decided"
    elif last.items:
        with pytest.raises(Conflict) as undecided:
            formats.check(fmt, last.items, final=True)
        assert undecided.value.code == "match_undecided"


# ----------------------------------------------------------------------------------------------- reachability
def alternate(a: int, b: int) -> list[str]:
    """Points reaching a-b with the lead as small as it can be all the way (then the rest of the larger side)."""
    low = min(a, b)
    return ["a", "b"] * low + ["a" if a > b else "b"] * (max(a, b) - low)


def finish(a: int, b: int, winner: str | None) -> list[str]:
    """Points reaching a-b, the winner's point last when the unit is won."""
    if winner is None:
        return alternate(a, b)
    return alternate(a - (winner == "a"), b - (winner == "b")) + [winner]


def points_to(fmt: Format, items: list[dict[str, Any]], current: tuple[int, int] = (0, 0)) -> list[str]:
    """A sequence of points that reaches the score (the check accepted it)."""
    out: list[str] = []
    for index, item in enumerate(items):
        side = formats.item_winner(fmt, index, item)
        if isinstance(fmt, GamesFormat):
            out += finish(item["a"], item["b"], side)
            continue
        tiebreak = item.get("tiebreak")
        games = (item["a"] - (tiebreak is not None and side == "a"), item["b"] - (tiebreak is not None and side == "b"))
        game_points = fmt.point_rule(index, (0, 0)).points_to_win if not fmt.is_match_tiebreak(index) else 0
        for game_side in finish(*games, None if tiebreak is not None else side):
            out += [game_side] * game_points
        if tiebreak is not None:
            out += finish(tiebreak["a"], tiebreak["b"], side)
    return out + alternate(*current)


def item_lists(values: range, tiebreaks: list[tuple[int, int]] | None, count: int) -> Iterator[list[dict[str, Any]]]:
    """Every list of up to `count` items with `a`, `b` from `values` (and sets with each of `tiebreaks`)."""
    singles: list[dict[str, Any]] = [{"a": a, "b": b} for a in values for b in values]
    if tiebreaks is not None:  # a tiebreak only on sets a game apart or level (the others are refused alike)
        singles += [{"a": a, "b": b, "tiebreak": {"a": x, "b": y}} for a in values for b in values
                    if abs(a - b) <= 1 or (a, b) == (5, 3) for x, y in tiebreaks]
    for n in range(count + 1):
        yield from (list(combo) for combo in itertools.product(singles, repeat=n))


def key_of(fmt: Format, items: list[dict[str, Any]] | tuple[dict[str, Any], ...]) -> str:
    """A score's items as compared: a last item at 0-0 is the next game or set not yet begun (a whole score
    written may carry it), the same score as without it."""
    items = list(items)
    if items and items[-1] == {"a": 0, "b": 0} and (
            len(items) == 1 or formats.item_winner(fmt, len(items) - 2, items[-2]) is not None) and (
            formats.winner(fmt, items[:-1]) is None):
        items.pop()
    return repr(items)


def accepted(fmt: Format, items: list[dict[str, Any]]) -> bool:
    try:
        formats.check(fmt, items, final=False)
    except Invalid:
        return False
    return True


def reachable_states(fmt: Format, *, limit: int) -> set[str]:
    """Every score (items, and the points of the game in play) that some sequence of at most `limit` points reaches."""
    seen: dict[str, Score] = {}
    frontier = [Score()]
    for _ in range(limit + 1):
        following: list[Score] = []
        for score in frontier:
            key = repr(score)
            if key in seen:
                continue
            seen[key] = score
            if formats.winner(fmt, score.items) is None:
                following += [formats.play(fmt, score, side) for side in "ab"]
        frontier = following
    return {key_of(fmt, score.items) for score in seen.values()}


SMALL_GAMES = [GamesFormat(best_of=3, game=GameRule(3, 2, 5)), GamesFormat(best_of=3, game=GameRule(2, 1, None)),
               GamesFormat(best_of=3, game=GameRule(3, 2, None), deciding=GameRule(2, 2, 4))]


@pytest.mark.parametrize("fmt", SMALL_GAMES, ids=formats.describe)
def test_games_the_check_accepts_are_exactly_those_points_reach(fmt: GamesFormat) -> None:
    limit = 16
    reached = reachable_states(fmt, limit=limit)
    for items in item_lists(range(0, 6), None, 3):
        if sum(i["a"] + i["b"] for i in items) > limit:
            continue
        assert accepted(fmt, items) == (key_of(fmt, items) in reached), items


SMALL_SETS = [SetsFormat(best_of=3, games_to_win=4, tiebreak_at=4, tiebreak_to=7),
              SetsFormat(best_of=3, games_to_win=4, tiebreak_at=None, final_set=FinalSet.ADVANTAGE),
              SetsFormat(best_of=3, games_to_win=4, tiebreak_at=4, final_set=FinalSet.MATCH_TIEBREAK)]


def next_game(fmt: SetsFormat, score: Score) -> tuple[int, tuple[int, int]]:
    """The set index and its games so far, for the game the next point opens or continues."""
    if not score.items or formats.item_winner(fmt, len(score.items) - 1, score.items[-1]) is not None:
        return len(score.items), (0, 0)
    last = score.items[-1]
    return len(score.items) - 1, (last["a"], last["b"])


def set_level_states(fmt: SetsFormat, *, games: int) -> set[str]:
    """Every sets score (its items) reachable when each game is won 4-0 and each tiebreak by any finished score
    up to 12 points."""
    seen: dict[str, Score] = {}
    frontier = [Score()]
    for _ in range(games + 1):
        following: list[Score] = []
        for score in frontier:
            key = repr(score)
            if key in seen:
                continue
            seen[key] = score
            if formats.winner(fmt, score.items) is not None:
                continue
            index, so_far = next_game(fmt, score)
            rule = fmt.point_rule(index, so_far)
            if fmt.in_tiebreak(index, so_far):
                for x, y in itertools.product(range(13), repeat=2):
                    side = rule.winner(x, y)
                    if side is not None and rule.problem(x, y, finished=True) is None:
                        following.append(formats.replay(fmt, score, finish(x, y, side)))
            else:
                following += [formats.replay(fmt, score, [side] * rule.points_to_win) for side in "ab"]
        frontier = following
    return {key_of(fmt, score.items) for score in seen.values()}


TIEBREAKS = [(0, 0), (7, 4), (4, 7), (7, 6), (8, 6), (6, 8), (10, 8), (12, 10), (9, 3), (11, 10), (6, 4)]


@pytest.mark.parametrize("fmt", SMALL_SETS, ids=formats.describe)
def test_sets_the_check_accepts_are_exactly_those_games_reach(fmt: SetsFormat) -> None:
    reached = set_level_states(fmt, games=24)
    for items in item_lists(range(0, 7), TIEBREAKS, 2):
        assert accepted(fmt, items) == (key_of(fmt, items) in reached), items


@settings(max_examples=300, deadline=None)
@given(any_format, sides)
def test_every_score_the_check_accepts_is_reached_point_by_point(fmt: Format, points: list[str]) -> None:
    """Scores reached by play are accepted; and from the accepted score alone, a point sequence reaches it."""
    score = played(fmt, points)[-1]
    assert accepted(fmt, list(score.items))
    again = formats.replay(fmt, Score(), points_to(fmt, list(score.items), score.current))
    assert again == score
