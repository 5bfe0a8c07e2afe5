"""Issue 46 (contract §20): a slot whose entry is not known yet says where it comes from, made from the draw's
structure: "Winner of R16-1", "Loser of SF-2", "1st of group A"; never "To be decided" where the source is known."""

from __future__ import annotations

from domain.draws.labels import match_code, ordinal, slot_label
from domain.draws.model import Draw, DrawFormat, Stage
from tests.domain.test_draw_engine import make


def labels_of_round(draw: Draw, stage: Stage, size: int) -> list[list[str]]:
    """The slot labels of the stage's round that has `size` matches, in match order."""
    chosen = next(r for r in draw.rounds if r.stage == stage and len(r.draw_match_ids) == size)
    return [[slot_label(draw, s) for s in draw.matches[i].slots] for i in chosen.draw_match_ids]


def test_a_knockouts_later_rounds_name_the_winners_they_wait_for() -> None:
    draw = make(DrawFormat.SINGLE_ELIMINATION, 16)
    assert labels_of_round(draw, Stage.MAIN, 4) == [["Winner of R16-1", "Winner of R16-2"],
                                                    ["Winner of R16-3", "Winner of R16-4"],
                                                    ["Winner of R16-5", "Winner of R16-6"],
                                                    ["Winner of R16-7", "Winner of R16-8"]]
    assert labels_of_round(draw, Stage.MAIN, 1) == [["Winner of SF-1", "Winner of SF-2"]]
    final = next(m for m in draw.matches.values() if m.stage == Stage.MAIN and m.next_winner is None)
    assert match_code(draw, final) == "F"


def test_a_first_round_names_its_entries() -> None:
    draw = make(DrawFormat.SINGLE_ELIMINATION, 8)
    names = [label for pair in labels_of_round(draw, Stage.MAIN, 4) for label in pair]
    assert sorted(names) == sorted(f"P{i}" for i in range(8))


def test_a_third_place_match_names_the_semifinal_losers() -> None:
    draw = make(DrawFormat.SINGLE_ELIMINATION, 8, third_place=True)
    third = next(m for m in draw.matches.values() if m.stage == Stage.THIRD_PLACE)
    assert [slot_label(draw, s) for s in third.slots] == ["Loser of SF-1", "Loser of SF-2"]


def test_group_ranks_name_their_group() -> None:
    draw = make(DrawFormat.GROUPS_KNOCKOUT, 8, group_count=2)
    first = [slot_label(draw, s) for m in draw.matches.values() if m.stage == Stage.MAIN for s in m.slots]
    assert set(first) >= {"1st of group A", "2nd of group B"} and "To be decided" not in first


def test_ordinals() -> None:
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st"]
