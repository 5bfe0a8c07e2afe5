"""The CP-SAT yardstick of the order of play's benchmark (`bench/cp_sat_plan.py`, contract §20 "Quality and
speed") finds the known best plan of toy problems, and what it finds passes the product's checker. OR-Tools is a
bench-only dependency (the `bench` extra): without it these tests are skipped."""

from __future__ import annotations

import pytest

pytest.importorskip("ortools")

from bench.cp_sat_plan import solve  # noqa: E402
from domain.plan.checker import check  # noqa: E402
from domain.plan.model import Day, Item, Limits, Problem  # noqa: E402

DAY = Day(date="2026-12-05", start=540, end=1260, courts=("c1", "c2"))  # minutes: 09:00-21:00 of a day


def test_two_semifinals_and_their_final_end_after_the_rest_at_the_least() -> None:
    """Two courts, three 30-minute matches, 10 minutes rest: both semifinals at 09:00, the final at 09:40."""
    items = (Item(key="sf1", minutes=30, persons=frozenset({"a", "b"}), known=frozenset({"a", "b"}), draw="d",
                  stage="d/main", round=1),
             Item(key="sf2", minutes=30, persons=frozenset({"c", "d"}), known=frozenset({"c", "d"}), draw="d",
                  stage="d/main", round=1),
             Item(key="final", minutes=30, persons=frozenset("abcd"), feeders=("sf1", "sf2"), draw="d",
                  stage="d/main", round=2))
    problem = Problem(items=items, days=(DAY,), now=480, rest=10)
    found = solve(problem, seconds=10)
    assert (found.optimal, found.placed, found.ends) == (True, 3, {"2026-12-05": 610})
    assert found.plan.slots["final"].start == 580
    assert check(problem, found.plan) == []


def test_one_person_in_three_draws_plays_one_match_after_another_with_rest_between() -> None:
    """Across draws every match a person might play clashes: 3 x 30 minutes and 2 x 15 of rest, on two courts."""
    items = tuple(Item(key=f"m{i}", minutes=30, persons=frozenset({"ann", f"x{i}"}), known=frozenset({f"x{i}"}),
                       draw=f"d{i}") for i in range(3))
    problem = Problem(items=items, days=(DAY,), now=480, rest=15)
    found = solve(problem, seconds=10)
    assert (found.optimal, found.placed, found.ends) == (True, 3, {"2026-12-05": 540 + 120})
    assert check(problem, found.plan) == []


def test_a_daily_limit_leaves_out_the_matches_beyond_it() -> None:
    """A known player in three matches with a daily total of 2: one stays unplaced, the other two side by side."""
    items = tuple(Item(key=f"m{i}", minutes=30, persons=frozenset({"ann", f"x{i}"}), known=frozenset({"ann", f"x{i}"}),
                       draw=None) for i in range(3))
    problem = Problem(items=items, days=(DAY,), now=480, limits=Limits(total=2))
    found = solve(problem, seconds=10)
    assert (found.optimal, found.placed, found.ends) == (True, 2, {"2026-12-05": 600})
    assert [c.kind for c in check(problem, found.plan)] == []
