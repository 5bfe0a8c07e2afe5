"""The desk's result text (contract §19): the three ways a desk writes games, tiebreaks in brackets, and a
problem said in words, never an exception of another kind."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.match import formats
from domain.match.result_text import ResultTextError, format_games, parse_games, read_score, tiebreak_of


def test_the_three_ways_of_the_contract() -> None:
    games = [{"a": 21, "b": 15}, {"a": 18, "b": 21}, {"a": 21, "b": 9}]
    assert parse_games("21-15 18-21 21-9") == games
    assert parse_games("21:15, 18:21, 21:9") == games
    assert parse_games("6-4 7-6(4)") == [{"a": 6, "b": 4}, {"a": 7, "b": 6, "tiebreak": {"a": 7, "b": 4}}]


@pytest.mark.parametrize(("text", "games"), [
    ("6-7(5) 6-3", [{"a": 6, "b": 7, "tiebreak": {"a": 5, "b": 7}}, {"a": 6, "b": 3}]),
    ("7-6(6)", [{"a": 7, "b": 6, "tiebreak": {"a": 8, "b": 6}}]),
    ("7-6 (10)", [{"a": 7, "b": 6, "tiebreak": {"a": 12, "b": 10}}]),
    ("  11 - 7 ;11\u20139/ 3:11  ", [{"a": 11, "b": 7}, {"a": 11, "b": 9}, {"a": 3, "b": 11}]),
])
def test_spacing_dashes_and_tiebreaks(text: str, games: list[dict[str, Any]]) -> None:
    assert parse_games(text) == games


@pytest.mark.parametrize(("text", "words"), [
    ("", "Type the games"),
    ("  , ", "Type the games"),
    ("21-15 x", "Could not read 'x' after game 1"),
    ("w/o", "Could not read 'w/o' at the start"),
    ("21-15-18", "Game 1 runs into what follows"),
    ("6-6(4)", "Game 1: 6-6 has no winner"),
    ("21", "Could not read '21' at the start"),
])
def test_a_problem_is_said_in_words(text: str, words: str) -> None:
    with pytest.raises(ResultTextError) as refused:
        parse_games(text)
    assert words in refused.value.message


points = st.integers(min_value=0, max_value=999)


@st.composite
def game_lists(draw: st.DrawFn) -> list[dict[str, Any]]:
    games: list[dict[str, Any]] = []
    for _ in range(draw(st.integers(min_value=1, max_value=9))):
        a, b = draw(points), draw(points)
        game: dict[str, Any] = {"a": a, "b": b}
        if a != b and draw(st.booleans()):
            game["tiebreak"] = tiebreak_of(a, b, draw(st.integers(min_value=0, max_value=99)))
        games.append(game)
    return games


@given(game_lists(), st.sampled_from([" ", ", ", ";", " / ", "  "]), st.sampled_from(["-", ":", " - ", "\u2013"]))
def test_what_a_desk_writes_reads_back_as_the_same_games(games: list[dict[str, Any]], apart: str,
                                                         joined: str) -> None:
    assert parse_games(format_games(games)) == games
    text = apart.join(format_games([g]).replace("-", joined, 1) for g in games)
    assert parse_games(text) == games


@given(st.text(max_size=40))
def test_any_text_is_games_or_a_problem_in_words(text: str) -> None:
    try:
        games = parse_games(text)
    except ResultTextError as refused:
        assert refused.message and refused.message[0].isupper()
    else:
        assert games and all(set(g) <= {"a", "b", "tiebreak"} for g in games)


@given(st.integers(min_value=0, max_value=99), st.booleans())
def test_the_tiebreak_winner_wins_by_two_to_at_least_seven(loser: int, a_won: bool) -> None:
    tiebreak = tiebreak_of(7, 6, loser) if a_won else tiebreak_of(6, 7, loser)
    won, lost = (tiebreak["a"], tiebreak["b"]) if a_won else (tiebreak["b"], tiebreak["a"])
    assert lost == loser and won >= 7 and won - lost >= 2 and (won == 7 or won - lost == 2)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(sorted(formats.PRESETS)), st.lists(st.sampled_from("ab"), max_size=400))
def test_every_score_the_display_rule_writes_reads_back_as_the_same_games(name: str, points: list[str]) -> None:
    """Issue 51: one way to write every score. For every preset, the games of any match played point by point, as
    the display rule writes them ("6-4, 3-6, [10-7]"), read back under the format as the same games."""
    fmt = formats.PRESETS[name]
    score = formats.Score()
    for side in points:
        if formats.winner(fmt, score.items) is not None:
            break
        score = formats.play(fmt, score, side)
    items = [formats.copy_item(item) for item in score.items]
    if not items:
        return
    assert read_score(formats.score_text(fmt, items), fmt) == items
    assert read_score(", ".join(formats.item_text(fmt, i, item) for i, item in enumerate(items)), fmt) == items


@pytest.mark.parametrize("text", ["6-4, 3-6, [10-7]", "6-4 3-6 10-7", "6-4, 3-6, [10:7]"])
def test_a_match_tiebreak_is_read_however_it_is_typed(text: str) -> None:
    fmt = formats.PRESETS["tennis_match_tiebreak"]
    decided = {"a": 1, "b": 0, "tiebreak": {"a": 10, "b": 7}}
    assert read_score(text, fmt) == [{"a": 6, "b": 4}, {"a": 3, "b": 6}, decided]
    assert read_score("4-6 6-3 [7-10]", fmt)[-1] == {"a": 0, "b": 1, "tiebreak": {"a": 7, "b": 10}}
    assert read_score("4-6 6-3 7-10", fmt)[-1] == {"a": 0, "b": 1, "tiebreak": {"a": 7, "b": 10}}
    formats.check(fmt, read_score(text, fmt), final=True)  # the server's check takes it


def test_a_tiebreak_to_10_in_brackets_is_won_at_10() -> None:
    fmt = formats.from_json({"kind": "sets", "bestOf": 3, "gamesToWin": 6, "tiebreakAt": 6, "tiebreakTo": 10,
                             "finalSet": "tiebreak", "noAd": False})
    assert read_score("7-6(3)", fmt) == [{"a": 7, "b": 6, "tiebreak": {"a": 10, "b": 3}}]
