"""The typed draw read (contract §13, issue 36 point 2): built once from a draw, serialised by one function, parsed
back by one (the console's), and the play-off sub-brackets grouped once for the event page and the console."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from domain.draws.model import DrawFormat, DrawMatchStatus, Stage
from domain.draws.read import draw_from_json, draw_json, draw_read, playoff_brackets
from tests.domain.test_draw_engine import PROPERTY, make, play_out

SCORING = {"kind": "games", "pointsToWin": 11}


@PROPERTY
@given(fmt=st.sampled_from(list(DrawFormat)), n=st.integers(4, 24), seed=st.integers(0, 2**16),
       played=st.booleans(), doubles=st.booleans())
def test_a_draw_read_parsed_back_from_its_json_is_the_same_read(fmt: DrawFormat, n: int, seed: int, played: bool,
                                                                doubles: bool) -> None:
    draw = make(fmt, n, seeds=min(4, n), doubles=doubles, random_seed=seed, rounds=3 if fmt == DrawFormat.SWISS else 0)
    if played:
        play_out(draw, random.Random(seed))
    read = draw_read(draw, scoring=SCORING, scoring_name="To 11")
    assert draw_from_json(draw_json(read)) == read
    assert draw_json(draw_from_json(draw_json(read))) == draw_json(read)


def test_the_json_has_the_spec_fields_in_order_and_first_place_only_on_play_off_rounds() -> None:
    draw = make(DrawFormat.PLAYOFF_ALL, 8, random_seed=2)
    shown = draw_json(draw_read(draw, scoring=None, scoring_name=None))
    assert list(shown) == ["id", "broadcastID", "name", "format", "status", "createdOn", "scoring", "scoringName",
                           "entries", "tiebreak", "groups", "rounds", "placings"]
    assert shown["scoring"] is None and shown["tiebreak"] is None
    assert list(shown["rounds"][0]["drawMatches"][0]) == [
        "id", "number", "group", "slots", "status", "matchID", "winnerEntryID", "loserEntryID", "resultType", "next"]
    assert all("firstPlace" in r for r in shown["rounds"])
    plain = draw_json(draw_read(make(DrawFormat.SINGLE_ELIMINATION, 8, random_seed=2), scoring=None,
                                scoring_name=None))
    assert all("firstPlace" not in r for r in plain["rounds"])
    assert plain["entries"][0]["players"] == [{"manualName": "P0"}]


def test_play_off_rounds_group_into_sub_brackets_by_winners_links_ordered_by_their_best_place() -> None:
    draw = make(DrawFormat.PLAYOFF_ALL, 16, random_seed=3)
    groups = playoff_brackets(draw_read(draw, scoring=None, scoring_name=None))
    assert [[rnd.name for rnd in group] for group in groups] == [
        ["Places 3-4"], ["Places 5-8", "Places 5-6"], ["Places 7-8"], ["Places 9-16", "Places 9-12", "Places 9-10"],
        ["Places 11-12"], ["Places 13-16", "Places 13-14"], ["Places 15-16"]]
    assert all(rnd.stage == Stage.PLAYOFF for group in groups for rnd in group)
    assert [group[0].first_place for group in groups] == [3, 5, 7, 9, 11, 13, 15]


def test_play_off_places_beyond_the_entries_are_not_a_sub_bracket() -> None:
    read = draw_read(make(DrawFormat.PLAYOFF_ALL, 12, random_seed=3), scoring=None, scoring_name=None)
    firsts = [group[0].first_place for group in playoff_brackets(read)]
    assert firsts == [3, 5, 7, 9, 11]
    byes = [dm for rnd in read.rounds for dm in rnd.draw_matches if dm.status == DrawMatchStatus.BYE]
    assert byes, "12 entries in a bracket of 16 leave byes"
