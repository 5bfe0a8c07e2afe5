"""The Results entry page's rules apart from Streamlit (contract §19), and how a completed match's result reads in
the correction picker (issue 35: a walkover read "no points yet")."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from console.results_entry import (
    POOL,
    choices,
    decided_body,
    entry_rows,
    filtered,
    placeholder,
    played_body,
    result_words,
    saved_words,
    unfinished,
)
from domain.match.result_text import ResultTextError
from tests.console.conftest import Operator


def match(match_id: str, a: str, b: str, **extra: Any) -> dict[str, Any]:
    return {"id": match_id, "playerA": a, "playerB": b} | extra


def test_rows_are_each_courts_match_in_play_then_its_queue_then_the_pool_of_that_broadcast_only() -> None:
    tables: list[dict[str, Any]] = [
        {"broadcastID": "b1", "label": "Court 1", "activeMatch": match("m1", "Ann", "Bo"),
         "queue": [match("m2", "Cy", "Di", eventName="Open", matchRound="Final")]},
        {"broadcastID": "b2", "label": "Elsewhere", "activeMatch": match("x", "X", "Y"), "queue": []},
    ]
    rows = entry_rows(tables, [match("m3", "Ed", "Flo", playerB2="Gus", eventName="Open", matchRound="Semi")], "b1")
    assert [(r.id, r.court, r.playing) for r in rows] == [("m1", "Court 1", True), ("m2", "Court 1", False),
                                                          ("m3", POOL, False)]
    assert rows[2].sides == "Ed vs Flo / Gus" and rows[0].where == "Court 1 · playing"
    assert choices(rows, "round") == ["Final", "Semi"] and choices(rows, "court") == ["Court 1", POOL]
    assert [r.id for r in filtered(rows, court=None, draw="Open", round_name="Semi")] == ["m3"]
    assert [r.id for r in filtered(rows, court="Court 1", draw=None, round_name=None)] == ["m1", "m2"]


def test_bodies_from_a_typed_line_and_from_the_w_o_and_ret_buttons() -> None:
    assert played_body("11-7, 11:9") == {"gameScores": [{"a": 11, "b": 7}, {"a": 11, "b": 9}]}
    assert decided_body("walkover", "b", "11-7") == {"gameScores": [], "resultType": "walkover", "winnerSide": "b"}
    assert decided_body("retired", "a", "11-4 2-6") == {
        "gameScores": [{"a": 11, "b": 4}, {"a": 2, "b": 6}], "resultType": "retired", "winnerSide": "a"}
    with pytest.raises(ResultTextError):
        played_body("eleven-seven")


def test_a_result_reads_with_its_winner_and_w_o_or_ret() -> None:
    played = match("m", "Ann", "Bo", gameScores=[{"a": 11, "b": 7}, {"a": 11, "b": 9}], score={"a": 2, "b": 0})
    walked = match("m", "Ann", "Bo", playerB2="Cy", gameScores=[], score={"a": 0, "b": 0}, resultType="walkover",
                   winnerSide="b")
    retired = match("m", "Ann", "Bo", gameScores=[{"a": 11, "b": 4}, {"a": 2, "b": 6}], score={"a": 1, "b": 0},
                    resultType="retired", winnerSide="b")
    assert result_words(played) == "11-7, 11-9"
    assert result_words(walked) == "w/o · Bo / Cy wins"
    assert result_words(retired) == "11-4, 2-6 ret. · Bo wins"
    assert saved_words(played) == "Saved: Ann beat Bo 11-7 11-9"
    assert saved_words(walked) == "Saved: Bo / Cy beat Ann w/o"
    assert saved_words(retired) == "Saved: Bo beat Ann 4-11 6-2 ret."  # as the winner calls it (issue 51)


TENNIS = {"kind": "sets", "bestOf": 3, "gamesToWin": 6, "tiebreakAt": 6, "tiebreakTo": 7, "finalSet": "tiebreak",
          "noAd": False}


def test_a_result_is_said_from_the_winners_side_tiebreaks_too() -> None:
    """Issue 51, point 10: "Saved: Tom Harris beat Pierre Dubois 4-6 6-7(3)"."""
    lost = match("m", "Pierre Dubois", "Tom Harris", scoring=TENNIS, winnerSide="b", score={"a": 0, "b": 2},
                 gameScores=[{"a": 4, "b": 6}, {"a": 6, "b": 7, "tiebreak": {"a": 3, "b": 7}}])
    assert saved_words(lost) == "Saved: Tom Harris beat Pierre Dubois 6-4 7-6(3)"


def test_the_example_line_is_in_the_matchs_own_sport() -> None:
    """Issue 51, point 10: "21-15 18-21 21-9" was the example on a tennis day."""
    assert placeholder(match("m", "A", "B", scoring=TENNIS)) == "6-4 3-6 6-3"
    table_tennis = {"kind": "games", "bestOf": 5, "pointsToWin": 11, "winBy": 2, "cap": None}
    assert placeholder(match("m", "A", "B", scoring=table_tennis)) == "11-5 8-11 11-2"
    badminton = {"kind": "games", "bestOf": 3, "pointsToWin": 21, "winBy": 2, "cap": 30}
    assert placeholder(match("m", "A", "B", scoring=badminton)) == "21-15 18-21 21-12"


def test_a_line_that_decides_no_winner_is_not_a_result() -> None:
    """Issue 51, point 10: Ret. after typing the games first saved them as a full result, which was refused."""
    assert unfinished([{"a": 6, "b": 4}, {"a": 2, "b": 1}], match("m", "A", "B", scoring=TENNIS))
    assert not unfinished([{"a": 6, "b": 4}, {"a": 6, "b": 1}], match("m", "A", "B", scoring=TENNIS))


def test_the_results_page_offers_the_history_of_a_result_typed_in_from_the_pool(
        console: Callable[[str], AppTest], operator_api: Operator) -> None:
    """A draw's match typed in at the desk never had a court: the Results page's history picker still has it."""
    broadcast = operator_api.data("POST", "/operator/broadcasts", {"name": "Club day", "tables": [
        {"label": "Court 1"}]})
    draw = operator_api.data("POST", "/operator/draws", {
        "broadcastID": broadcast["id"], "name": "Open", "format": "single_elimination", "bestOf": 1,
        "entries": [{"players": [{"manualName": f"Player {i}"}], "seed": i} for i in range(1, 5)]})
    first, second = (dm["matchID"] for dm in draw["rounds"][0]["drawMatches"])
    operator_api.data("POST", f"/operator/matches/{first}/result", {"gameScores": [{"a": 11, "b": 4}]})
    operator_api.data("POST", f"/operator/matches/{second}/result", {"gameScores": [], "resultType": "walkover",
                                                                      "winnerSide": "b"})
    app = console("views/results.py")
    assert not app.exception, app.exception
    picker = app.selectbox(key=f"results_history_{broadcast['id']}")
    assert sorted(picker.options) == sorted(["Player 1 vs Player 4 · Semifinal · Open 11-4",
                                             "Player 2 vs Player 3 · Semifinal · Open w/o · Player 3 wins"])
