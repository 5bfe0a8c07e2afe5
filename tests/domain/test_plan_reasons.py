"""What the order of play leaves out and why (contract §20, sharpened with §24): a match that certainly cannot be
played is not planned; an unplaced match's reason names the true cause: an unplaced feeder, the time its feeders
or players allow, a named player's rest, playing or daily limit, or the day full."""

from __future__ import annotations

from domain.draws.labels import round_names_by_match
from domain.draws.model import DrawFormat
from domain.plan.draw_items import draw_items
from domain.plan.model import Day, Limits, Problem, Slot
from domain.plan.scheduler import plan
from tests.domain.test_plan import NINE, _day, _item, make_draw


def test_a_place_fed_by_the_loser_of_a_bye_is_no_match_to_plan() -> None:
    made = make_draw(DrawFormat.ROUND_ROBIN_PLAYOFF, [f"P{i}" for i in range(12)], doubles=False, seed=1, groups=3)
    items = draw_items(made, minutes=30).items
    rounds = round_names_by_match(made)
    assert len(items) == 18 + 4 * 2  # every group match; per rank its one first-round match and its final
    assert not [i for i in items if rounds[i.key].startswith("Place ")]
    assert len([r for r in rounds.values() if r.startswith("Place ")]) == 4  # "Place 3", "Place 6", …: no match


def test_a_feeder_that_could_not_be_placed_is_named() -> None:
    problem = Problem(items=(_item("a", "x", minutes=90, label="Ann v Bo"), _item("f", feeders=("a",))),
                      days=(_day(1, "c1"),), now=NINE)
    assert plan(problem).unplaced == {"a": "no court has 90 free minutes left on any planned day",
                                      "f": "Ann v Bo, which feeds it, could not be placed"}


def test_a_feeder_ending_too_late_is_named_with_its_end() -> None:
    problem = Problem(items=(_item("a", minutes=40, label="Ann v Bo"), _item("f", minutes=30, feeders=("a",))),
                      days=(_day(1, "c1"),), now=NINE, rest=10)
    assert plan(problem).unplaced == {"f": "Ann v Bo, which feeds it, ends at 09:40 and 10 minutes of rest: after "
                                           "that no court has 30 free minutes left on any planned day"}


def test_a_players_not_before_and_rest_are_named() -> None:
    problem = Problem(items=(_item("a", "ann"), _item("b", "bo")), days=(_day(1),), now=NINE,
                      not_before={"ann": NINE + 45}, free_from={"bo": NINE + 50},
                      person_labels={"ann": "Ann Lee", "bo": "Bo Kim"})
    assert plan(problem).unplaced == {
        "a": "Ann Lee may not play before 09:45: after that no court has 30 free minutes left on any planned day",
        "b": "Bo Kim rests until 09:50: after that no court has 30 free minutes left on any planned day"}


def test_a_player_playing_or_resting_is_named() -> None:
    problem = Problem(items=(_item("a", "ann"), _item("b", "ann")), days=(Day("2026-12-05", NINE, NINE + 45,
                                                                              ("c1", "c2")),),
                      now=NINE, rest=5, person_labels={"ann": "Ann Lee"})
    made = plan(problem)
    assert made.slots == {"a": Slot("c1", NINE, NINE + 30)}
    assert made.unplaced == {"b": "Ann Lee plays or rests whenever a court has 30 free minutes"}


def test_a_players_daily_limit_is_named_and_a_full_day_said_so() -> None:
    problem = Problem(items=(_item("a", "ann"), _item("b", "ann"), _item("c", "cy"), _item("d", "di")),
                      days=(_day(1, "c1"),), now=NINE, limits=Limits(total=1), person_labels={"ann": "Ann Lee"})
    made = plan(problem)
    assert made.unplaced["b"] == "Ann Lee's daily limit is reached on every day with room"
    assert made.unplaced["d"] == "no court has 30 free minutes left on any planned day"


def test_the_round_before_is_named_when_it_decides() -> None:
    late = Problem(items=(_item("r1a", minutes=60, stage="s", round=1, label="R1 one"),
                          _item("r1b", minutes=60, stage="s", round=1, label="R1 two"),
                          _item("r2", minutes=90, stage="s", round=2)),
                   days=(Day("2026-12-05", NINE, NINE + 120, ("c1",)),), now=NINE)
    assert plan(late).unplaced == {"r2": "R1 two of the round before starts at 10:00: after that no court has 90 "
                                         "free minutes left on any planned day"}
    missing = Problem(items=(_item("r1a", minutes=60, stage="s", round=1, label="R1 one"),
                             _item("r1b", minutes=90, stage="s", round=1, label="R1 two"),
                             _item("r2", minutes=30, stage="s", round=2)),
                      days=(Day("2026-12-05", NINE, NINE + 60, ("c1", "c2")),), now=NINE)
    assert plan(missing).unplaced == {"r1b": "no court has 90 free minutes left on any planned day",
                                      "r2": "R1 two of the round before could not be placed"}


def test_a_match_whose_courts_play_on_no_day_says_so() -> None:
    problem = Problem(items=(_item("a", courts=("c9",)),), days=(_day(),), now=NINE)
    assert plan(problem).unplaced == {"a": "none of the courts it may use plays on a planned day"}
