"""Issue 48 point 5: a round's name and its short form are made at display from the draw's structure (stage,
number, matches, the places a play-off round decides) by `domain/draws/labels.py`, over every draw format; the
stored rounds carry no name, and a draw stored with names still reads."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.draws import codec
from domain.draws.formats import FORMATS
from domain.draws.labels import RoundShape, draw_round_names, draw_round_shapes, round_names, round_short_names
from domain.draws.model import Draw, DrawFormat, Stage
from domain.draws.read import draw_from_json, draw_json, draw_read, short_round_names
from domain.errors import Conflict, Invalid
from tests.domain.test_draw_engine import PROPERTY, make


def shorts(draw: Draw) -> list[str]:
    return round_short_names(draw.format, draw_round_shapes(draw), entries=len(draw.entries),
                             group_sizes=[len(g.entry_ids) for g in draw.groups])


TABLE = [
    (DrawFormat.ROUND_ROBIN, 4, {}, None, [("Round 1", "R1"), ("Round 2", "R2"), ("Round 3", "R3")]),
    (DrawFormat.SINGLE_ELIMINATION, 16, {"third_place": True}, None,
     [("Round of 16", "R16"), ("Quarterfinal", "QF"), ("Semifinal", "SF"), ("Final", "F"), ("Third place", "3rd")]),
    (DrawFormat.DOUBLE_ELIMINATION, 8, {"grand_final_reset": True}, None,
     [("Quarterfinal", "QF"), ("Semifinal", "SF"), ("Winners final", "R3"), ("Losers round 1", "R1"),
      ("Losers round 2", "R2"), ("Losers round 3", "R3"), ("Losers final", "R4"), ("Final", "F"),
      ("Final (reset)", "R2")]),
    (DrawFormat.DOUBLE_ELIMINATION, 32, {}, None,
     [("Winners round of 32", "R1"), ("Winners round of 16", "R2"), ("Quarterfinal", "QF"), ("Semifinal", "SF"),
      ("Winners final", "R5")] + [(f"Losers round {i}", f"R{i}") for i in range(1, 8)]
     + [("Losers final", "R8"), ("Final", "F")]),
    (DrawFormat.GROUPS_KNOCKOUT, 8, {}, 2,
     [("Round 1", "R1"), ("Round 2", "R2"), ("Round 3", "R3"), ("Semifinal", "SF"), ("Final", "F")]),
    (DrawFormat.SWISS, 8, {}, None, [("Round 1", "R1")]),
    (DrawFormat.CONSOLATION, 16, {}, None,
     [("Round of 16", "R16"), ("Quarterfinal", "QF"), ("Semifinal", "SF"), ("Final", "F"),
      ("Consolation quarterfinal", "CQF"), ("Consolation semifinal", "CSF"), ("Consolation final", "CF")]),
    (DrawFormat.FEED_IN, 8, {}, None,
     [("Quarterfinal", "QF"), ("Semifinal", "SF"), ("Final", "F"), ("Consolation round 1", "R1"),
      ("Consolation round 2", "R2"), ("Consolation final", "CF")]),
    (DrawFormat.PLAYOFF_ALL, 6, {}, None,
     [("Quarterfinal", "QF"), ("Semifinal", "SF"), ("Places 5-6", "P5-6"), ("Final", "F"), ("Places 3-4", "P3-4"),
      ("Places 5-6", "P5-6"), ("Places 7-8", "P7-8")]),
    (DrawFormat.ROUND_ROBIN_PLAYOFF, 12, {}, 5,  # ranks: 5 winners (1-5), 5 runners-up (6-10), 2 thirds (11-12)
     [("Round 1", "R1"), ("Round 2", "R2"), ("Round 3", "R3"), ("Places 1-5", "P1-5"), ("Places 1-4", "P1-4"),
      ("Place 5", "P5"), ("Places 1-2", "P1-2"), ("Places 3-4", "P3-4"), ("Place 5", "P5"), ("Places 7-8", "P7-8"),
      ("Places 6-10", "P6-10"), ("Places 6-9", "P6-9"), ("Place 10", "P10"), ("Places 6-7", "P6-7"),
      ("Places 8-9", "P8-9"), ("Place 10", "P10"), ("Places 12-13", "P12-13"), ("Places 11-12", "P11-12")]),
]


def test_the_table_covers_every_draw_format() -> None:
    assert {row[0] for row in TABLE} == set(FORMATS) == set(DrawFormat)


@pytest.mark.parametrize(("fmt", "entries", "options", "groups", "expected"), TABLE,
                         ids=[f"{row[0]}-{row[1]}" for row in TABLE])
def test_each_formats_rounds_are_named_from_their_structure(fmt: DrawFormat, entries: int, options: dict[str, bool],
                                                            groups: int | None,
                                                            expected: list[tuple[str, str]]) -> None:
    draw = make(fmt, entries, group_count=groups, **options)  # type: ignore[arg-type]
    assert list(zip(draw_round_names(draw), shorts(draw), strict=True)) == expected


@PROPERTY
@given(fmt=st.sampled_from(list(DrawFormat)), entries=st.integers(min_value=2, max_value=70),
       groups=st.sampled_from([None, 2, 3, 5]), third_place=st.booleans(), reset=st.booleans())
def test_every_round_of_every_format_has_a_name_and_a_short_form(fmt: DrawFormat, entries: int, groups: int | None,
                                                                 third_place: bool, reset: bool) -> None:
    try:
        draw = make(fmt, entries, group_count=groups, third_place=third_place, grand_final_reset=reset)
    except (Invalid, Conflict):
        return
    names, short = draw_round_names(draw), shorts(draw)
    assert len(names) == len(short) == len(draw.rounds)
    assert all(names) and all(short)
    for rnd, name, code in zip(draw.rounds, names, short, strict=True):
        if rnd.stage == Stage.MAIN and fmt != DrawFormat.DOUBLE_ELIMINATION:
            matches = len(rnd.draw_match_ids)
            assert code == {1: "F", 2: "SF", 4: "QF"}.get(matches, f"R{matches * 2}")
        if rnd.stage in (Stage.GROUP, Stage.SWISS):
            assert (name, code) == (f"Round {rnd.number}", f"R{rnd.number}")
    # the read names them alike, and its short forms are the same from the read as from the draw
    read = draw_read(draw, scoring=None, scoring_name=None)
    assert [r.name for r in read.rounds] == names
    assert [r["name"] for r in draw_json(read)["rounds"]] == names
    assert short_round_names(draw_from_json(draw_json(read))) == short


def test_rounds_are_stored_without_a_name_and_a_stored_name_is_ignored() -> None:
    draw = make(DrawFormat.SINGLE_ELIMINATION, 8)
    state = codec.to_state(draw)
    assert all("name" not in r for r in state["rounds"])
    for rnd in state["rounds"]:  # a draw stored before issue 48 point 5 carried English names
        rnd["name"] = "Old words"
    assert draw_round_names(codec.from_state(state)) == ["Quarterfinal", "Semifinal", "Final"]


def test_a_language_step_swaps_words_in_one_place() -> None:
    """The names are made from plain structure, so any caller (a later language step too) gets them from here."""
    shapes = [RoundShape(Stage.MAIN, 1, 8), RoundShape(Stage.MAIN, 2, 4), RoundShape(Stage.THIRD_PLACE, 1, 1)]
    assert round_names("single_elimination", shapes, entries=16) == ["Round of 16", "Quarterfinal", "Third place"]
