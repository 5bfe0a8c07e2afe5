"""The order of play's person rule (contract §20, sharpened with §24): who could play which two matches, and daily
limits as the most matches a person can play on a day, not every match they might reach."""

from __future__ import annotations

from dataclasses import replace

from domain.draws.model import DrawFormat
from domain.plan.draw_items import draw_items
from domain.plan.model import Day, Limits, Problem
from domain.plan.persons import Paths, most_matches
from domain.plan.scheduler import plan
from tests.domain.test_plan import NINE, make_draw


def test_a_knockout_player_can_play_one_match_a_round_not_every_match_they_might_reach() -> None:
    made = make_draw(DrawFormat.SINGLE_ELIMINATION, [f"P{i}" for i in range(8)], doubles=False, seed=1)
    items = {i.key: i for i in draw_items(made, minutes=30).items}
    assert most_matches("p0", items, items) == {"singles": 3, "doubles": 0, "total": 3}


def test_a_group_player_counts_every_group_match_and_the_play_offs_after() -> None:
    made = make_draw(DrawFormat.ROUND_ROBIN_PLAYOFF, [f"P{i}" for i in range(12)], doubles=False, seed=1, groups=3)
    items = {i.key: i for i in draw_items(made, minutes=30).items}
    counts = {p: most_matches(p, items, items)["total"] for p in {p for i in items.values() for p in i.persons}}
    assert set(counts.values()) <= {4, 5} and 5 in counts.values()  # 3 group matches, then 1 or 2 play-offs


def test_across_draws_a_persons_matches_add_up_singles_and_doubles_apart() -> None:
    singles = make_draw(DrawFormat.SINGLE_ELIMINATION, [f"P{i}" for i in range(4)], doubles=False, seed=1)
    doubles = make_draw(DrawFormat.SINGLE_ELIMINATION, [f"P{i}" for i in range(4)], doubles=True, seed=2)
    items = {i.key: i for d in (singles, doubles) for i in draw_items(d, minutes=30).items}
    assert most_matches("p0", items, items) == {"singles": 2, "doubles": 2, "total": 4}


def test_the_winners_and_losers_match_of_one_pair_share_nobody_but_what_follows_does() -> None:
    made = make_draw(DrawFormat.PLAYOFF_ALL, [f"P{i}" for i in range(4)], doubles=False, seed=1)
    items = {i.key: i for i in draw_items(made, minutes=30).items}
    first = [i for i in items.values() if not i.feeders]
    final, third = [i for i in items.values() if i.feeders]
    paths = Paths(items)
    person = next(iter(first[0].known))
    assert not paths.share(final, third, person)
    assert paths.share(first[0], final, person) and paths.share(first[0], third, person)


def test_a_daily_limit_stops_the_match_a_player_could_be_one_too_many_in() -> None:
    made = make_draw(DrawFormat.SINGLE_ELIMINATION, [f"P{i}" for i in range(8)], doubles=False, seed=1)
    items = tuple(draw_items(made, minutes=30).items)
    day = Day(date="2026-12-05", start=NINE, end=NINE + 600, courts=("c1", "c2", "c3", "c4"))
    made_plan = plan(Problem(items=items, days=(day,), now=NINE, limits=Limits(total=2)))
    assert made_plan.placed == 6 and len(made_plan.unplaced) == 1  # the final: a third match for its players


def test_every_match_a_player_is_known_in_counts_in_a_draw_or_apart() -> None:
    made = make_draw(DrawFormat.ROUND_ROBIN, [f"P{i}" for i in range(4)], doubles=False, seed=1)
    items = {i.key: i for i in draw_items(made, minutes=30).items}
    assert most_matches("p0", items, items)["total"] == 3
    lone = {k: replace(i, draw=None) for k, i in items.items()}  # the broadcast's own matches: each one apart
    assert most_matches("p0", lone, lone)["total"] == 3
