"""The format engine, table by table (contract §18): games to N won by 2 (or capped), best-of-N, sets of games
with tiebreaks and match tiebreaks, tennis points, and the whole-score check naming the item at fault."""

from __future__ import annotations

from typing import Any

import pytest

from domain.errors import Conflict, Invalid
from domain.match import formats, scoring
from domain.match.formats import PRESETS, FinalSet, GameRule, GamesFormat, Score, SetsFormat


def tt(best_of: int = 5, points: int = 11) -> GamesFormat:
    """Table tennis as the server played it before formats: games to `points`, won by 2."""
    return GamesFormat(best_of=best_of, game=GameRule(points, 2, None))


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
    assert formats.item_problem(tt(points=points), 0, game) is None
    assert formats.item_winner(tt(points=points), 0, game) == winner


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
        formats.check(tt(points=points), [game], final=False)
    assert raised.value.code == "validation_failed"
    assert list(raised.value.details["json"]["gameScores"]) == ["0"]


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
        return formats.check(tt(best_of), games, final=final)
    except (Invalid, Conflict) as error:
        return error.code


@pytest.mark.parametrize(("games", "best_of", "live", "final"), SEQUENCES)
def test_game_score_sequences(games: list[dict[str, int]], best_of: int, live: Any, final: Any) -> None:
    assert outcome(games, best_of, final=False) == live
    assert outcome(games, best_of, final=True) == final


def test_score_counts_finished_games_only() -> None:
    assert formats.won(tt(), [g(11, 7), g(9, 11), g(10, 9)]) == {"a": 1, "b": 1}
    assert formats.winner(tt(), [g(11, 7)] * 3) == "a"
    assert formats.winner(tt(), [g(11, 7)] * 2) is None


@pytest.mark.parametrize(("value", "expected"), [(1, 1), (5, 5), ("7", 7), ("11", 11)])
def test_best_of_accepts_positive_odd_numbers_and_digit_strings(value: Any, expected: int) -> None:
    assert scoring.parse_best_of(value) == expected


@pytest.mark.parametrize("value", [0, 2, -1, -3, "4", "five", "", " 5", "5.0", 5.0, 3.5, True, None, [5], "٣"])
def test_best_of_rejects_everything_else(value: Any) -> None:
    with pytest.raises(Invalid):
        scoring.parse_best_of(value)


@pytest.mark.parametrize(("best_of", "needed"), [(1, 1), (3, 2), (5, 3), (7, 4)])
def test_games_needed_is_more_than_half(best_of: int, needed: int) -> None:
    assert formats.needed(tt(best_of)) == needed


def s_(a: int, b: int, tiebreak: tuple[int, int] | None = None) -> dict[str, Any]:
    item: dict[str, Any] = {"a": a, "b": b}
    if tiebreak is not None:
        item["tiebreak"] = {"a": tiebreak[0], "b": tiebreak[1]}
    return item


# format, items, the check's answer (won items, or the error code), with final=True
WHOLE_SCORES: list[tuple[str, list[dict[str, Any]], Any]] = [
    ("badminton", [g(21, 19), g(30, 29)], {"a": 2, "b": 0}),
    ("badminton", [g(21, 19), g(29, 30)], "match_undecided"),
    ("badminton", [g(21, 19), g(31, 29)], "validation_failed"),  # 30 wins: the game ended at 30-29
    ("badminton", [g(21, 19), g(30, 27)], "validation_failed"),  # at 29-27 the game was already won
    ("badminton", [g(21, 19), g(22, 20), g(1, 0)], "validation_failed"),  # decided before the third game
    ("badminton_15", [g(15, 13), g(21, 20)], {"a": 2, "b": 0}),
    ("squash", [g(11, 9), g(12, 14), g(11, 0), g(11, 2)], {"a": 3, "b": 1}),
    ("volleyball", [g(25, 23), g(23, 25), g(25, 20), g(18, 25), g(15, 13)], {"a": 3, "b": 2}),
    ("volleyball", [g(25, 23), g(23, 25), g(25, 20), g(18, 25), g(25, 10)], "validation_failed"),  # over at 15-10
    ("volleyball", [g(25, 23), g(23, 25), g(25, 20), g(18, 25), g(25, 23)], {"a": 3, "b": 2}),  # 15 win by 2
    ("volleyball", [g(25, 13), g(15, 13), g(25, 20)], "validation_failed"),  # 15-13 does not end a game to 25
    ("beach_volleyball", [g(21, 17), g(19, 21), g(16, 14)], {"a": 2, "b": 1}),
    ("tennis", [s_(6, 4), s_(7, 6, (7, 4))], {"a": 2, "b": 0}),
    ("tennis", [s_(6, 4), s_(4, 6), s_(7, 5)], {"a": 2, "b": 1}),
    ("tennis", [s_(6, 4), s_(7, 6)], "validation_failed"),  # 7-6 without its tiebreak
    ("tennis", [s_(6, 4), s_(8, 6)], "validation_failed"),  # a tiebreak at 6-6
    ("tennis", [s_(6, 4), s_(7, 4)], "validation_failed"),  # ended at 6-4
    ("tennis", [s_(6, 4), s_(7, 6, (6, 8))], "validation_failed"),  # the tiebreak's winner lost the set
    ("tennis", [s_(6, 4), s_(7, 6, (8, 7))], "validation_failed"),  # a tiebreak is won by 2
    ("tennis", [s_(6, 4), s_(7, 6, (12, 10))], {"a": 2, "b": 0}),
    ("tennis", [s_(6, 4), s_(6, 3), s_(1, 0)], "validation_failed"),  # decided after two sets
    ("tennis", [s_(6, 4), s_(5, 3)], "match_undecided"),
    ("tennis_match_tiebreak", [s_(6, 4), s_(3, 6), s_(1, 0, (10, 8))], {"a": 2, "b": 1}),
    ("tennis_match_tiebreak", [s_(6, 4), s_(3, 6), s_(7, 5)], "validation_failed"),  # a match tiebreak, not a set
    ("tennis_match_tiebreak", [s_(6, 4), s_(3, 6), s_(1, 0, (10, 9))], "validation_failed"),
    ("padel_golden_point", [s_(6, 0), s_(6, 0)], {"a": 2, "b": 0}),
]


@pytest.mark.parametrize(("name", "items", "expected"), WHOLE_SCORES)
def test_whole_scores_are_checked_under_their_format(name: str, items: list[dict[str, Any]], expected: Any) -> None:
    try:
        answer: Any = formats.check(PRESETS[name], items, final=True)
    except (Invalid, Conflict) as error:
        answer = error.code
    assert answer == expected


def test_an_advantage_final_set_is_played_on_past_the_tiebreak() -> None:
    fmt = SetsFormat(best_of=3, final_set=FinalSet.ADVANTAGE)
    assert formats.check(fmt, [s_(6, 4), s_(4, 6), s_(12, 10)], final=True) == {"a": 2, "b": 1}
    with pytest.raises(Invalid):  # the first sets still have their tiebreak
        formats.check(fmt, [s_(8, 6), s_(4, 6), s_(12, 10)], final=True)


def test_a_refused_score_names_the_item_at_fault() -> None:
    with pytest.raises(Invalid) as raised:
        formats.check(PRESETS["badminton"], [g(21, 19), g(31, 29)], final=True)
    assert raised.value.details == {"json": {"gameScores": {"1": [
        "a game to 21 ends as soon as a side leads by 2 or reaches 30."]}}}


def play(name: str, points: str, score: Score | None = None) -> Score:
    return formats.replay(PRESETS[name], score or Score(), points)


def test_tennis_points_are_called_15_30_40_deuce_and_advantage() -> None:
    fmt = PRESETS["tennis"]
    assert formats.point_labels(fmt, play("tennis", "a")) == {"a": "15", "b": "0"}
    assert formats.point_labels(fmt, play("tennis", "aab")) == {"a": "30", "b": "15"}
    deuce = play("tennis", "aaabbb")
    assert formats.point_labels(fmt, deuce) == {"a": "40", "b": "40"}
    assert formats.point_labels(fmt, play("tennis", "b", deuce)) == {"a": "40", "b": "AD"}
    assert formats.point_labels(fmt, play("tennis", "ba", deuce)) == {"a": "40", "b": "40"}
    won = play("tennis", "aa", deuce)
    assert won.items == ({"a": 1, "b": 0},) and won.current == (0, 0)


def test_a_golden_point_decides_the_game_at_deuce() -> None:
    deuce = play("padel_golden_point", "aaabbb")
    assert formats.point_labels(PRESETS["padel_golden_point"], deuce) == {"a": "40", "b": "40"}
    assert play("padel_golden_point", "b", deuce).items == ({"a": 0, "b": 1},)


def test_a_set_at_6_6_goes_to_a_tiebreak_counted_in_digits() -> None:
    six_all = play("tennis", "aaaabbbb" * 6)
    assert six_all.items == ({"a": 6, "b": 6},)
    tiebreak = play("tennis", "aab", six_all)
    assert formats.in_tiebreak(PRESETS["tennis"], tiebreak)
    assert formats.point_labels(PRESETS["tennis"], tiebreak) == {"a": "2", "b": "1"}
    done = play("tennis", "aaaaa", tiebreak)
    assert done.items == ({"a": 7, "b": 6, "tiebreak": {"a": 7, "b": 1}},)
    assert formats.score_text(PRESETS["tennis"], done.items) == "7-6(1)"


def test_a_match_tiebreak_replaces_the_deciding_set() -> None:
    one_set_all = play("tennis_match_tiebreak", "aaaa" * 6 + "bbbb" * 6)
    decider = play("tennis_match_tiebreak", "ab" * 9 + "aa", one_set_all)
    assert decider.items[2] == {"a": 1, "b": 0, "tiebreak": {"a": 11, "b": 9}}
    assert formats.winner(PRESETS["tennis_match_tiebreak"], decider.items) == "a"
    assert formats.score_text(PRESETS["tennis_match_tiebreak"], decider.items) == "6-0 0-6 [11-9]"


def test_undo_crosses_a_set_boundary() -> None:
    log = "aaaa" * 6 + "b"
    after = play("tennis", log)
    back = formats.undo(PRESETS["tennis"], after, list(log), Score())
    assert back == play("tennis", log[:-1]) and back.items == ({"a": 6, "b": 0},)
    back = formats.undo(PRESETS["tennis"], back, list(log[:-1]), Score())
    assert back.items == ({"a": 5, "b": 0},) and back.current == (3, 0)


def test_a_point_on_a_decided_match_is_409_match_decided() -> None:
    with pytest.raises(Conflict) as refused:
        play("badminton", "a" * 42 + "a")
    assert refused.value.code == "match_decided"


@pytest.mark.parametrize(("name", "words"), [
    ("badminton", "Best of 3 games to 21, win by 2, 30 wins"),
    ("volleyball", "Best of 5 games to 25, win by 2; deciding game to 15, win by 2"),
    ("tennis_match_tiebreak", "Best of 3 sets of 6 games, tiebreak to 7 at 6-6, deciding set a match tiebreak to 10"),
    ("padel_golden_point", "Best of 3 sets of 6 games, tiebreak to 7 at 6-6, golden point at deuce"),
])
def test_formats_are_described_in_plain_words(name: str, words: str) -> None:
    assert formats.describe(PRESETS[name]) == words


@pytest.mark.parametrize("value", ["squash", {"kind": "games", "bestOf": 3, "pointsToWin": 15, "winBy": 2,
                                               "cap": 21}, {"kind": "sets", "bestOf": 5, "noAd": True}])
def test_a_format_round_trips_through_its_object(value: Any) -> None:
    fmt, _ = formats.parse(value)
    assert formats.parse(formats.to_json(fmt))[0] == fmt


@pytest.mark.parametrize(("value", "field"), [
    ("hockey", "scoring"), ({"kind": "games", "bestOf": 4, "pointsToWin": 11}, "bestOf"),
    ({"kind": "games", "bestOf": 3, "pointsToWin": 21, "cap": 20}, "cap"),
    ({"kind": "sets", "bestOf": 3, "gamesToWin": 6, "tiebreakAt": 5}, "tiebreakAt"),
    ({"kind": "sets", "bestOf": 3, "finalSet": "sudden"}, "finalSet"), ({"kind": "curling"}, "kind"),
    ({"kind": "games", "bestOf": 3, "pointsToWin": 21, "colour": "red"}, "colour"),
])
def test_a_bad_format_is_400_naming_the_field(value: Any, field: str) -> None:
    with pytest.raises(Invalid) as raised:
        formats.parse(value)
    problems = raised.value.details["json"]["scoring"]
    assert field in problems or field == "scoring"


def test_the_legacy_settings_shape_the_server_default() -> None:
    assert scoring.server_default().format == PRESETS["table_tennis"]
    assert scoring.server_default(points=21).format == tt(points=21)
    assert scoring.server_default("badminton").name == "badminton"
    assert scoring.server_default("badminton", best_of=5).format.best_of == 5


def test_a_desk_writes_a_match_tiebreak_as_its_points() -> None:
    fmt = PRESETS["tennis_match_tiebreak"]
    typed = [s_(6, 4), s_(3, 6), s_(10, 8)]
    assert formats.as_written(fmt, typed)[2] == {"a": 1, "b": 0, "tiebreak": {"a": 10, "b": 8}}
    assert formats.check(fmt, formats.as_written(fmt, typed), final=True) == {"a": 2, "b": 1}
    assert formats.as_written(PRESETS["tennis"], typed) == typed  # a third set, not a match tiebreak
