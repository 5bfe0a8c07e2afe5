"""How good the order of play is (contract §20 "Quality and speed", issue 46): the planner's passes on the
benchmark's events built from draws directly (`bench/bench_plan_quality.py` holds them against CP-SAT over HTTP),
the grid of whole matches, best fit, the one-day bound, and whether longer days might hold what was left out."""

from __future__ import annotations

import itertools

from domain.draws import engine
from domain.draws.formats.base import DrawSpec, EntrySpec
from domain.draws.model import DrawFormat, DrawPlayer, Options
from domain.plan.checker import check
from domain.plan.draw_items import draw_items
from domain.plan.model import Day, Item, Limits, Problem, Slot
from domain.plan.scheduler import grid_of, plan
from tests.domain.test_plan import NINE, _day, _item, make_draw

COURTS = tuple(f"c{i}" for i in range(1, 9))
_IDS = itertools.count(1)

Drawn = tuple[DrawFormat, list[str], list[str] | None, int | None]  # format, names, partners, groups


def _id(prefix: str) -> str:
    return f"{prefix}_{next(_IDS)}"


def _items(*draws: Drawn, minutes: int) -> tuple[Item, ...]:
    """The draws as the benchmark makes them: entries seeded by position, random seed 46."""
    items: list[Item] = []
    for index, (fmt, names, partners, groups) in enumerate(draws):
        entries = [EntrySpec(players=[DrawPlayer(name=n)] + ([DrawPlayer(name=partners[i])] if partners else []),
                             seed=i + 1) for i, n in enumerate(names)]
        spec = DrawSpec(broadcast_id="brd_1", name=f"D{index}", format=fmt, entries=entries, group_count=groups,
                        options=Options(random_seed=46))
        made = engine.make_draw(spec, draw_id=_id("drw"), created_on="2026-01-01T00:00:00Z", new_id=_id)
        items += draw_items(made, minutes=minutes, order=index * 1000).items
    return tuple(items)


def _one_day(items: tuple[Item, ...], courts: int, *, rest: int = 0, limits: Limits | None = None) -> Problem:
    day = Day(date="2026-12-05", start=NINE, end=NINE + 12 * 60, courts=COURTS[:courts])
    return Problem(items=items, days=(day,), now=NINE - 60, rest=rest, limits=limits or Limits())


def _length(problem: Problem) -> tuple[int, int]:
    made = plan(problem)
    assert check(problem, made) == []
    return len(made.unplaced), max(slot.end for slot in made.slots.values()) - NINE


def _names(prefix: str, count: int) -> list[str]:
    return [f"{prefix} {i}" for i in range(1, count + 1)]


def test_a_205_match_day_with_rest_off_the_match_length_is_packed_to_its_bound() -> None:
    """A 64-entry knockout, a 32-entry double elimination and eight groups of 5 on 8 courts, 20-minute matches and
    15 minutes of rest: 26 whole matches per court, 520 minutes (CP-SAT's best in 60 s), on the grid of 20."""
    items = _items((DrawFormat.SINGLE_ELIMINATION, _names("K", 64), None, None),
                   (DrawFormat.DOUBLE_ELIMINATION, _names("E", 32), None, None),
                   (DrawFormat.ROUND_ROBIN, _names("G", 40), None, 8), minutes=20)
    problem = _one_day(items, 8, rest=15)
    assert grid_of(problem) == 20
    assert _length(problem) == (0, 520)


def test_players_in_three_draws_go_first() -> None:
    """The benchmark's shared event (§20's reference event with 12 players in two or three of its draws): the pass
    that weighs each player's own chain of matches ends by 16:00 (CP-SAT's best in 60 s), where critical path
    alone ends at 16:30."""
    shared = _names("X", 12)
    singles, groups, doubles = _names("S", 32), _names("G", 16), _names("D", 16)
    singles[:12], groups[:8], doubles[:4], doubles[4:8] = shared, shared[:8], shared[:4], shared[8:12]
    items = _items((DrawFormat.SINGLE_ELIMINATION, singles, None, None), (DrawFormat.ROUND_ROBIN, groups, None, 4),
                   (DrawFormat.SINGLE_ELIMINATION, doubles, _names("D Partner", 16), None), minutes=30)
    assert _length(_one_day(items, 6))[1] <= 420


def test_a_club_day_with_a_daily_limit_leaves_out_only_what_the_limit_forbids() -> None:
    """A 16-entry consolation draw, an 8-entry play-off draw and 12 entries in 3 groups with play-offs, 4 courts,
    40-minute matches, 30 minutes of rest, a daily limit of 4: the play-off finals of group players who could
    play a fifth match stay out, for the limit alone (longer days would not hold them), the rest by 18:50."""
    items = _items((DrawFormat.CONSOLATION, _names("C", 16), None, None),
                   (DrawFormat.PLAYOFF_ALL, _names("P", 8), None, None),
                   (DrawFormat.ROUND_ROBIN_PLAYOFF, _names("R", 12), None, 3), minutes=40)
    problem = _one_day(items, 4, rest=30, limits=Limits(total=4))
    made = plan(problem)
    assert check(problem, made) == []
    assert len(made.unplaced) == 4 and not made.short_of_time
    assert all("daily limit" in reason for reason in made.unplaced.values())
    assert max(slot.end for slot in made.slots.values()) - NINE <= 590


def test_a_full_day_says_longer_days_might_hold_the_rest() -> None:
    problem = Problem(items=(_item("a"), _item("b"), _item("c")), days=(_day(1, "c1"),), now=NINE)
    made = plan(problem)
    assert len(made.unplaced) == 1 and made.short_of_time


def test_the_grid_only_when_rest_is_no_whole_number_of_matches_of_one_length() -> None:
    day = (_day(),)
    assert grid_of(Problem(items=(_item("a", minutes=20), _item("b", minutes=20)), days=day, now=NINE,
                           rest=15)) == 20
    assert grid_of(Problem(items=(_item("a", minutes=20), _item("b", minutes=20)), days=day, now=NINE,
                           rest=40)) == 1
    assert grid_of(Problem(items=(_item("a", minutes=20), _item("b", minutes=30)), days=day, now=NINE,
                           rest=15)) == 1


def test_a_pass_off_the_grid_wins_when_it_ends_sooner() -> None:
    """Two semifinals and a final, 30-minute matches, 20 minutes of rest: on the grid the final would wait until
    10:00; any minute lets it start at 09:50."""
    problem = Problem(items=(_item("a", "x"), _item("b", "y"), _item("f", "x,y", feeders=("a", "b"))),
                      days=(_day(),), now=NINE, rest=20)
    assert grid_of(problem) == 30
    assert plan(problem).slots["f"].start == NINE + 50


def test_best_fit_takes_the_court_idle_the_shortest() -> None:
    """Court 1 is free from 09:00, court 2 from 09:30 (a fixed match): a match that may start at 09:30 goes to
    court 2, keeping court 1's long gap whole."""
    problem = Problem(items=(_item("fixed", "z"), _item("a", "x"), _item("b", "x")),
                      days=(_day(2, "c1,c2"),), now=NINE, fixed={"fixed": Slot("c2", NINE, NINE + 30)},
                      not_before={"x": NINE + 30})
    made = plan(problem)
    assert made.slots["a"].court == "c2" and made.slots["a"].start == NINE + 30


def test_planning_is_deterministic() -> None:
    items = _items((DrawFormat.CONSOLATION, _names("C", 16), None, None),
                   (DrawFormat.ROUND_ROBIN_PLAYOFF, _names("R", 12), None, 3), minutes=40)
    problem = _one_day(items, 4, rest=30, limits=Limits(total=4))
    assert plan(problem) == plan(problem)


def test_a_court_double_booked_by_hand_is_gone_around() -> None:
    """Two matches pinned by hand at once on court 1 (a conflict the operator made): the planner's own matches
    keep clear of both, checking that court match by match."""
    pinned = {"p1": Slot("c1", NINE, NINE + 30), "p2": Slot("c1", NINE + 15, NINE + 45)}
    problem = Problem(items=(_item("p1", "u"), _item("p2", "v"), *(_item(k, k) for k in "abcd")),
                      days=(_day(3, "c1"),), now=NINE, pinned=pinned)
    made = plan(problem)
    assert [c.kind.value for c in check(problem, made)] == ["double_booked"]
    assert sorted(made.slots[k].start - NINE for k in "abcd") == [45, 75, 105, 135]


def test_a_draw_shared_by_players_goes_first_when_that_ends_sooner() -> None:
    """The shared event made without seeds (doubles partners named after their players): interleaving the three
    draws ends at 16:30 at best (by critical path 17:00), as each of a shared player's possible matches blocks
    the other draws; the doubles draw first ends at 15:30, CP-SAT's best in 40 s."""
    shared = _names("X", 12)
    singles, groups, doubles = _names("S", 32), _names("G", 16), _names("D", 16)
    singles[:12], groups[:8], doubles[:4], doubles[4:8] = shared, shared[:8], shared[:4], shared[8:12]
    items: list[Item] = []
    for index, (fmt, names, pairs, count) in enumerate([(DrawFormat.SINGLE_ELIMINATION, singles, False, None),
                                                        (DrawFormat.ROUND_ROBIN, groups, False, 4),
                                                        (DrawFormat.SINGLE_ELIMINATION, doubles, True, None)]):
        made = make_draw(fmt, names, doubles=pairs, seed=46, groups=count)
        items += draw_items(made, minutes=30, order=index * 1000).items
    assert _length(_one_day(tuple(items), 6)) == (0, 390)
