"""The order of play's planner (contract §20) against its independent checker, for random draws, courts, days,
rest and limits; then exact cases for each rule, the lower bound and the checker's words."""

from __future__ import annotations

import itertools
import random
from datetime import UTC, datetime
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.draws import engine
from domain.draws.formats.base import DrawSpec, EntrySpec
from domain.draws.model import Draw, DrawFormat, DrawPlayer, Options
from domain.plan.bound import lower_bound
from domain.plan.checker import check
from domain.plan.draw_items import draw_items
from domain.plan.model import Day, Item, Kind, Limits, Plan, Problem, Slot, to_minute
from domain.plan.scheduler import plan

PROPERTY = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
_COUNTER = itertools.count(1)
NINE = to_minute(datetime(2026, 12, 5, 9, 0, tzinfo=UTC))


def _ids(prefix: str) -> str:
    return f"{prefix}_{next(_COUNTER)}"


def make_draw(fmt: DrawFormat, names: list[str], *, doubles: bool, seed: int, groups: int | None = None) -> Draw:
    entries = [EntrySpec(players=[DrawPlayer(name=n)] + ([DrawPlayer(name=n + " Jr")] if doubles else []))
               for n in names]
    spec = DrawSpec(broadcast_id="brd_1", name=f"D{seed}", format=fmt, entries=entries, group_count=groups,
                    options=Options(random_seed=seed))
    return engine.make_draw(spec, draw_id=_ids("drw"), created_on="2026-01-01T00:00:00Z", new_id=_ids)


FORMATS = [DrawFormat.SINGLE_ELIMINATION, DrawFormat.ROUND_ROBIN, DrawFormat.GROUPS_KNOCKOUT,
           DrawFormat.DOUBLE_ELIMINATION, DrawFormat.SWISS]


@st.composite
def problems(draw: st.DrawFn) -> Problem:
    people = [f"Player {i}" for i in range(draw(st.integers(4, 30)))]
    courts = [f"tbl_{i}" for i in range(draw(st.integers(1, 6)))]
    items: list[Item] = []
    for d in range(draw(st.integers(1, 3))):
        fmt = draw(st.sampled_from(FORMATS))
        size = draw(st.integers(2, min(16, len(people))))
        chosen = draw(st.permutations(people))[:size]  # a player may be in several draws: conflicts across draws
        made = make_draw(fmt, chosen, doubles=draw(st.booleans()), seed=d,
                         groups=draw(st.integers(1, max(1, size // 3))) if fmt == DrawFormat.ROUND_ROBIN else None)
        own = draw(st.one_of(st.none(), st.lists(st.sampled_from(courts), min_size=1, max_size=3, unique=True)))
        items += draw_items(made, minutes=draw(st.integers(5, 90)), order=len(items) * 1000,
                            courts=tuple(own) if own else None).items
    days = []
    for d in range(draw(st.integers(1, 3))):
        start = NINE + d * 1440 + draw(st.integers(0, 120))
        day_courts = draw(st.lists(st.sampled_from(courts), min_size=1, max_size=len(courts), unique=True))
        days.append(Day(date=f"2026-12-0{5 + d}", start=start, end=start + draw(st.integers(60, 720)),
                        courts=tuple(day_courts)))
    limit = st.one_of(st.none(), st.integers(1, 6))
    not_before = {p: NINE + draw(st.integers(0, 600)) for p in people if draw(st.integers(0, 5)) == 0}
    return Problem(items=tuple(items), days=tuple(days), now=NINE + draw(st.integers(-60, 60)),
                   rest=draw(st.integers(0, 60)), limits=Limits(draw(limit), draw(limit), draw(limit)),
                   not_before=not_before)


@PROPERTY
@given(problems())
def test_every_plan_passes_the_checker_and_nothing_is_placed_outside_a_day(problem: Problem) -> None:
    made = plan(problem)
    assert check(problem, made) == []
    assert set(made.slots) | set(made.unplaced) == {item.key for item in problem.items}
    assert made.placed == len(made.slots)
    for slot in made.slots.values():
        assert any(d.start <= slot.start and slot.end <= d.end and slot.court in d.courts for d in problem.days)
    assert all(reason.strip() for reason in made.unplaced.values())


def _item(key: str, persons: str = "", *, minutes: int = 30, **kw: Any) -> Item:
    who = frozenset(p for p in persons.split(",") if p)
    return Item(key=key, minutes=minutes, persons=who, known=who, **kw)


def _day(hours: int = 12, courts: str = "c1,c2") -> Day:
    return Day(date="2026-12-05", start=NINE, end=NINE + hours * 60, courts=tuple(courts.split(",")))


def test_feeders_first_with_rest_and_courts_one_at_a_time() -> None:
    problem = Problem(items=(_item("a", "x"), _item("b", "y"), _item("f", "x,y", feeders=("a", "b"))),
                      days=(_day(),), now=NINE, rest=20)
    made = plan(problem)
    assert made.slots["a"] == Slot("c1", NINE, NINE + 30) and made.slots["b"] == Slot("c2", NINE, NINE + 30)
    assert made.slots["f"].start == NINE + 50
    assert check(problem, made) == []


def test_a_person_is_never_twice_at_once_nor_before_rest_not_before_and_daily_limit() -> None:
    problem = Problem(items=(_item("a", "x"), _item("b", "x"), _item("c", "x"), _item("d", "z")),
                      days=(_day(2),), now=NINE, rest=10, limits=Limits(total=2), not_before={"z": NINE + 45})
    made = plan(problem)
    starts = sorted(made.slots[k].start for k in ("a", "b", "c") if k in made.slots)
    assert starts == [NINE, NINE + 40]
    assert list(made.unplaced.values()) == ["x's daily limit is reached on every day with room"]
    assert made.slots["d"].start == NINE + 45
    assert check(problem, made) == []


def test_earlier_rounds_first_and_unplaced_spread_to_what_follows() -> None:
    problem = Problem(items=(_item("r1a", minutes=60, stage="s", round=1), _item("r1b", minutes=60, stage="s", round=1),
                             _item("r2", minutes=60, stage="s", round=2, feeders=("r1a", "r1b"))),
                      days=(_day(1, "c1"),), now=NINE)
    made = plan(problem)
    assert made.slots == {"r1a": Slot("c1", NINE, NINE + 60)}
    assert made.unplaced == {"r1b": "no court has 60 free minutes left on any planned day",
                             "r2": "r1b, which feeds it, could not be placed"}


def test_fixed_matches_stay_and_others_go_around_them() -> None:
    problem = Problem(items=(_item("live", "x"), _item("next", "x")), days=(_day(courts="c1"),), now=NINE + 10,
                      fixed={"live": Slot("c1", NINE, NINE + 30)})
    made = plan(problem)
    assert made.slots == {"live": Slot("c1", NINE, NINE + 30), "next": Slot("c1", NINE + 30, NINE + 60)}
    assert made.placed == 1


def test_the_checker_names_each_conflict_with_its_severity() -> None:
    problem = Problem(items=(_item("a", "ann", label="Ann v Bo"), _item("b", "ann", label="Ann v Cy"),
                             _item("c", "dee", label="Dee v Ed", feeders=("a",))),
                      days=(_day(),), now=NINE, rest=15, limits=Limits(total=1), court_labels={"c1": "Court 1"},
                      person_labels={"ann": "Ann Lee"})
    hand = Plan(slots={"a": Slot("c1", NINE, NINE + 30), "b": Slot("c2", NINE + 10, NINE + 40),
                       "c": Slot("c1", NINE + 20, NINE + 50)}, unplaced={})
    found = {(c.kind, str(c.severity), c.keys): c.message for c in check(problem, hand)}
    assert found[(Kind.DOUBLE_BOOKED, "error", ("a", "c"))] == "Court 1 has two matches at 09:20: Ann v Bo and Dee v Ed"
    assert found[(Kind.BEFORE_FEEDER, "error", ("a", "c"))].startswith("Dee v Ed at 09:20 on Court 1 starts before")
    assert found[(Kind.PERSON_TWICE, "warning", ("a", "b"))] == (
        "Ann Lee may be due on two courts at 09:10: Ann v Bo and Ann v Cy")
    assert (Kind.DAILY_LIMIT, "warning", ("a", "b")) in found
    late = Plan(slots={"a": Slot("c1", NINE + 700, NINE + 730), "b": Slot("c2", NINE + 100, NINE + 130)},
                unplaced={"c": "no room"})
    kinds = {c.kind for c in check(problem, late)}
    assert Kind.OUTSIDE_DAY in kinds


def test_lower_bound_is_the_larger_of_spread_and_chain() -> None:
    items = (_item("a", minutes=30), _item("b", minutes=30), _item("c", minutes=30, feeders=("a",)),
             _item("d", minutes=30, feeders=("c",)))
    assert lower_bound(Problem(items=items, days=(_day(courts="c1,c2,c3,c4"),), now=NINE)) == 90
    assert lower_bound(Problem(items=items, days=(_day(courts="c1"),), now=NINE)) == 120


def test_waiting_draw_matches_count_every_entry_that_can_reach_them() -> None:
    made = make_draw(DrawFormat.SINGLE_ELIMINATION, [f"P{i}" for i in range(8)], doubles=False,
                     seed=random.randint(0, 9))
    items = {i.key: i for i in draw_items(made, minutes=30).items}
    final = next(i for i in items.values()
                 if len(i.feeders) == 2 and all(len(items[f].feeders) == 2 for f in i.feeders))
    assert len(final.persons) == 8 and final.known == frozenset()
    first = [i for i in items.values() if not i.feeders]
    assert len(first) == 4 and all(len(i.persons) == 2 == len(i.known) for i in first)
