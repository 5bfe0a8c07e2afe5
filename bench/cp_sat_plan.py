"""The best order of play Google OR-Tools' CP-SAT finds for a planner's problem (contract §20, "Quality and speed"):
the yardstick `bench.bench_plan_quality` holds Courtside's plan against. A bench-only tool: OR-Tools is the `bench`
extra (`pip install 'ortools>=9.10'`), never a product dependency.

The model is written from the rules of §20 as `domain.plan.checker` tells them, not from the planner: every item
(`domain.plan.model.Problem.items`) is placed at most once, on one day, on one of that day's courts it may use,
starting no earlier than now, its persons' not-before and rest after completed matches, and ending within the day;

- a court holds one match at a time;
- a placed item's feeders are placed, and it starts after each one's end plus the rest;
- a placed item of round r of a stage has every item of round r - 1 placed, starting no later than it;
- two items one person could both play (`domain.plan.persons.Paths.share`, the product's notion of who can play a
  match) are apart by the rest at least;
- daily limits: the most matches a person can play on a day (`domain.plan.persons.most_matches`, modelled as the
  known matches plus the longest chain of the others, per draw) stay within each limit.

The objective is lexicographic: as many items placed as possible, then the smallest sum over days of each day's
end (minutes from the day's start; one day: the makespan). Courts are identical when every item may use every
court and every day has the same ones: then one cumulative constraint stands for the courts (an interval graph at
most `courts` deep can always be given courts, which `solve` does afterwards); else every item chooses its court.
Fixed and pinned items (called, started, placed by hand) are not modelled: a bench plans from scratch.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from ortools.sat.python import cp_model

from domain.plan.model import Day, Item, Plan, Problem, Slot
from domain.plan.persons import Paths, limited, most_matches, over_limit, scope

INSTALL = "OR-Tools is a bench-only dependency: pip install 'ortools>=9.10' (or pip install -e '.[bench]')"


@dataclass
class Optimum:
    """What CP-SAT found: `plan` (courts given), each day's end (None: nothing that day), whether it proved the
    optimum, and its bound on the sum of the days' lengths (minutes) with as many placed as it found (0 when it
    did not prove that no more can be placed)."""

    plan: Plan
    ends: dict[str, int | None]
    optimal: bool
    status: str
    seconds: float
    bound: float
    objective: float
    placed: int = 0


class _Model:
    def __init__(self, problem: Problem, *, every: bool) -> None:
        if problem.fixed or problem.pinned:
            raise ValueError("the CP-SAT yardstick plans from scratch: fixed and pinned items are not modelled")
        self.problem, self.every = problem, every
        self.model = cp_model.CpModel()
        self.items = {item.key: item for item in problem.items}
        self.start: dict[str, cp_model.IntVar] = {}
        self.end: dict[str, cp_model.IntVar] = {}
        self.present: dict[str, cp_model.IntVar] = {}
        self.on_day: dict[tuple[str, int], cp_model.IntVar] = {}  # (key, day index) -> placed that day
        self.on_court: dict[tuple[str, str], cp_model.IntVar] = {}  # (key, court) -> placed on it (not uniform)
        self.interval: dict[str, cp_model.IntervalVar] = {}
        self.rested: dict[str, cp_model.IntervalVar] = {}  # the item and the rest after it
        self.paths = Paths(self.items)
        courts = {frozenset(day.courts) for day in problem.days}
        self.uniform = len(courts) == 1 and all(
            item.courts is None or set(item.courts) >= set(problem.days[0].courts) for item in problem.items)

    def _earliest(self, item: Item) -> int:
        problem = self.problem
        return max([problem.now, *(problem.not_before.get(p, 0) for p in item.persons),
                    *(problem.free_from.get(p, 0) for p in item.persons)])

    def _courts(self, item: Item, day: Day) -> tuple[str, ...]:
        return tuple(c for c in day.courts if item.courts is None or c in item.courts)

    def items_and_days(self) -> None:
        problem, model = self.problem, self.model
        horizon = max((day.end for day in problem.days), default=problem.now)
        for item in problem.items:
            key, earliest = item.key, self._earliest(item)
            start = model.new_int_var(min(earliest, horizon), horizon, f"start {key}")
            end = model.new_int_var(min(earliest, horizon), horizon + item.minutes, f"end {key}")
            present = model.new_bool_var(f"placed {key}")
            if self.every:
                model.add(present == 1)
            model.add(end == start + item.minutes)
            days = []
            for index, day in enumerate(problem.days):
                if not self._courts(item, day) or max(earliest, day.start) + item.minutes > day.end:
                    continue
                chosen = model.new_bool_var(f"{key} on {day.date}")
                model.add(start >= max(earliest, day.start)).only_enforce_if(chosen)
                model.add(end <= day.end).only_enforce_if(chosen)
                self.on_day[(key, index)] = chosen
                days.append(chosen)
            model.add(sum(days) == present)
            self.start[key], self.end[key], self.present[key] = start, end, present
            self.interval[key] = model.new_optional_interval_var(start, item.minutes, end, present, f"play {key}")
            rested_end = model.new_int_var(0, horizon + item.minutes + problem.rest, f"rested {key}")
            self.rested[key] = model.new_optional_interval_var(start, item.minutes + problem.rest, rested_end,
                                                               present, f"play and rest {key}")

    def courts(self) -> None:
        problem, model = self.problem, self.model
        if self.uniform:
            if problem.days:
                model.add_cumulative(list(self.interval.values()), [1] * len(self.interval),
                                     len(problem.days[0].courts))
            return
        by_court: dict[str, list[cp_model.IntervalVar]] = defaultdict(list)
        for item in problem.items:
            key = item.key
            usable = sorted({c for index, day in enumerate(problem.days) if (key, index) in self.on_day
                             for c in self._courts(item, day)})
            chosen = []
            for court in usable:
                on = model.new_bool_var(f"{key} on {court}")
                self.on_court[(key, court)] = on
                chosen.append(on)
                by_court[court].append(model.new_optional_interval_var(
                    self.start[key], item.minutes, self.end[key], on, f"{key} at {court}"))
                for index, day in enumerate(problem.days):
                    if (key, index) in self.on_day and court not in self._courts(item, day):
                        model.add_bool_or([on.Not(), self.on_day[(key, index)].Not()])
            model.add(sum(chosen) == self.present[key])
        for intervals in by_court.values():
            model.add_no_overlap(intervals)

    def order(self) -> None:
        """Feeders first (plus rest) and round r of a stage no earlier than every item of round r - 1."""
        problem, model = self.problem, self.model
        rounds: dict[tuple[str, int], list[str]] = defaultdict(list)
        for item in problem.items:
            if item.stage is not None:
                rounds[(item.stage, item.round)].append(item.key)
        for item in problem.items:
            key, present = item.key, self.present[item.key]
            for feeder in item.feeders:
                if feeder not in self.items or feeder == key:
                    continue
                model.add_implication(present, self.present[feeder])
                model.add(self.start[key] >= self.end[feeder] + problem.rest).only_enforce_if(present)
            if item.stage is None:
                continue
            for other in rounds.get((item.stage, item.round - 1), []):
                model.add_implication(present, self.present[other])
                model.add(self.start[key] >= self.start[other]).only_enforce_if(present)

    def _implied(self, a: str, b: str) -> bool:
        """One feeds the other at some distance: the feeder rule (with rest) already keeps them apart."""
        return a in self.paths.behind(b) or b in self.paths.behind(a)

    def persons(self) -> None:
        """Two items one person could play both are apart by the rest: a no-overlap of the items with their rest
        after them, over every set of a person's items any two of which clash (else pair by pair)."""
        model = self.model
        of_person: dict[str, list[Item]] = defaultdict(list)
        for item in self.problem.items:
            for person in item.persons:
                of_person[person].append(item)
        sets: set[frozenset[str]] = set()
        pairs: set[tuple[str, str]] = set()
        for person, mine in of_person.items():
            clash = [(a.key, b.key) for i, a in enumerate(mine) for b in mine[i + 1:]
                     if self.paths.share(a, b, person)]
            needed = [(a, b) for a, b in clash if not self._implied(a, b)]
            if not needed:
                continue
            if len(clash) == len(mine) * (len(mine) - 1) // 2:
                sets.add(frozenset(item.key for item in mine))
            else:
                pairs.update((min(a, b), max(a, b)) for a, b in needed)
        for keys in sets:
            model.add_no_overlap([self.rested[key] for key in sorted(keys)])
        for a, b in sorted(pairs):
            if any(a in keys and b in keys for keys in sets):
                continue
            model.add_no_overlap([self.rested[a], self.rested[b]])

    def daily_limits(self) -> None:
        """Per person and day: per draw, the known items that day plus the longest chain (through feeders) of the
        others that day; summed by kind, within each limit. Only persons who could break a limit at all."""
        problem = self.problem
        if not limited(problem.limits):
            return
        of_person: dict[str, list[Item]] = defaultdict(list)
        for item in problem.items:
            for person in item.persons:
                of_person[person].append(item)
        for person, mine in of_person.items():
            if not _could_break(person, mine, problem):
                continue
            for index, day in enumerate(problem.days):
                self._limit_on(person, mine, index, day)

    def _limit_on(self, person: str, mine: list[Item], index: int, day: Day) -> None:
        model, limits = self.model, self.problem.limits
        n = len(mine)
        today = {item.key: self.on_day.get((item.key, index)) for item in mine}
        maybe = {item.key: item for item in mine if person not in item.known}
        chain: dict[str, cp_model.IntVar] = {}
        for item in sorted(maybe.values(), key=lambda i: len(self.paths.behind(i.key))):
            here = today[item.key]
            var = model.new_int_var(0, n, f"chain {person} {item.key} {day.date}")
            chain[item.key] = var
            if here is None:
                model.add(var == 0)
                continue
            longest = model.new_int_var(0, n, f"longest before {person} {item.key} {day.date}")
            before: list[cp_model.LinearExprT] = [chain[f] for f in item.feeders if f in chain]
            model.add_max_equality(longest, before or [0])
            model.add(var == longest + 1).only_enforce_if(here)
            model.add(var == 0).only_enforce_if(here.Not())
        counts: dict[str, list[cp_model.LinearExprT]] = {"singles": [], "doubles": [], "total": []}
        draws: dict[str, list[Item]] = defaultdict(list)
        for item in mine:
            draws[scope(item)].append(item)
        for in_draw in draws.values():
            known: list[cp_model.LinearExprT] = [here for i in in_draw if i.key not in maybe
                                                 and (here := today[i.key]) is not None]
            chains: list[cp_model.LinearExprT] = [chain[i.key] for i in in_draw if i.key in maybe]
            longest = model.new_int_var(0, n, f"chain {person} {scope(in_draw[0])} {day.date}")
            model.add_max_equality(longest, chains or [0])
            count = cp_model.LinearExpr.sum([*known, longest])
            counts["doubles" if in_draw[0].doubles else "singles"].append(count)
            counts["total"].append(count)
        for kind, limit in (("singles", limits.singles), ("doubles", limits.doubles), ("total", limits.total)):
            if limit is not None and counts[kind]:
                model.add(sum(counts[kind]) <= limit)

    def objective(self) -> list[cp_model.IntVar]:
        """Unplaced items first (each weighs more than every day's length), then each day's end."""
        problem, model = self.problem, self.model
        ends = []
        for index, day in enumerate(problem.days):
            end = model.new_int_var(day.start, day.end, f"end of {day.date}")
            for item in problem.items:
                chosen = self.on_day.get((item.key, index))
                if chosen is not None:
                    model.add(end >= self.end[item.key]).only_enforce_if(chosen)
            ends.append(end)
        weight = sum(day.end - day.start for day in problem.days) + 1  # more than all days' lengths together
        unplaced = len(problem.items) - sum(self.present.values())
        # branch on the earliest start first, at its least value: a list schedule, found at once, then improved
        model.add_decision_strategy([self.start[item.key] for item in problem.items],
                                    cp_model.CHOOSE_LOWEST_MIN, cp_model.SELECT_MIN_VALUE)
        model.minimize(weight * unplaced + sum(end - day.start for end, day in zip(ends, problem.days, strict=True)))
        return ends


def _could_break(person: str, mine: list[Item], problem: Problem) -> bool:
    """Whether the person could exceed a daily limit with all their items on one day."""
    items = {item.key: item for item in mine}
    return over_limit(most_matches(person, list(items), items), problem.limits) is not None


def build_model(problem: Problem, *, every: bool = False) -> _Model:
    """The CP-SAT model of the problem (see the module's docstring); `every`: every item must be placed."""
    made = _Model(problem, every=every)
    made.items_and_days()
    made.courts()
    made.order()
    made.persons()
    made.daily_limits()
    return made


def _give_courts(problem: Problem, times: dict[str, tuple[int, int]]) -> dict[str, Slot]:
    """Identical courts: each item, by start, to the first of the day's courts free by then."""
    slots: dict[str, Slot] = {}
    for day in problem.days:
        free = dict.fromkeys(day.courts, day.start)
        for key, (start, end) in sorted(times.items(), key=lambda pair: (pair[1][0], pair[0])):
            if not day.start <= start < day.end:
                continue
            court = min(day.courts, key=lambda c: (free[c] > start, free[c]))
            if free[court] > start:
                raise AssertionError(f"more matches at once than courts at {start}")
            slots[key] = Slot(court, start, end)
            free[court] = end
    return slots


def _run(made: _Model, seconds: float, workers: int) -> tuple[cp_model.CpSolver, cp_model.CpSolverStatus]:
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = seconds
    solver.parameters.num_workers = workers
    return solver, solver.solve(made.model)


def solve(problem: Problem, *, seconds: float = 60.0, workers: int = 1) -> Optimum:
    """The best plan CP-SAT finds in `seconds` (in all) on `workers` (see the module's docstring). First with every
    item placed (a much stronger model: its bound is the day's length); only when that is proved impossible, with
    items left out (the rest of the time)."""
    made = build_model(problem, every=True)
    ends = made.objective()
    solver, status = _run(made, seconds, workers)
    spent = solver.wall_time
    if status == cp_model.INFEASIBLE and seconds - spent > 0:
        made = build_model(problem, every=False)
        ends = made.objective()
        solver, status = _run(made, seconds - spent, workers)
        spent += solver.wall_time
    name = solver.status_name(status)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        unplaced = {item.key: f"CP-SAT: {name}" for item in problem.items}
        return Optimum(plan=Plan(slots={}, unplaced=unplaced), ends={d.date: None for d in problem.days},
                       optimal=False, status=name, seconds=spent, bound=0.0, objective=float("nan"))
    times = {key: (solver.value(made.start[key]), solver.value(made.end[key]))
             for key in made.present if solver.boolean_value(made.present[key])}
    if made.uniform:
        slots = _give_courts(problem, times)
    else:
        slots = {key: Slot(court, *times[key]) for (key, court), on in made.on_court.items()
                 if solver.boolean_value(on)}
    unplaced = {item.key: "not placed by CP-SAT" for item in problem.items if item.key not in slots}
    day_ends: dict[str, int | None] = {}
    for index, day in enumerate(problem.days):
        used = [times[key][1] for key in times if (key, index) in made.on_day
                and solver.boolean_value(made.on_day[(key, index)])]
        day_ends[day.date] = max(used) if used else None
    assert len(ends) == len(problem.days)
    weight = sum(day.end - day.start for day in problem.days) + 1  # as `_Model.objective` weighs an unplaced item
    bound = max(0.0, solver.best_objective_bound - weight * len(unplaced))
    return Optimum(plan=Plan(slots=slots, unplaced=unplaced, placed=len(slots)), ends=day_ends,
                   optimal=status == cp_model.OPTIMAL, status=name, seconds=spent,
                   bound=bound, objective=solver.objective_value, placed=len(slots))
