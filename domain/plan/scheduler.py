"""The planner (contract §20): a greedy list scheduler by critical path.

Items become eligible once everything before them (their feeders, and every item of the previous round of their
draw's stage) is placed; of the eligible ones the item with the longest chain of work still behind it goes first
(ties: the stable `order`; the eligible wait in a heap), at the earliest time any court it may use has room for
it on some day, its persons are free and rested (who could play both: `domain.plan.persons`), and daily limits
and not-before hold. Placing into gaps is allowed: each rule is checked
against everything already placed in both directions, so a later choice never breaks an earlier one. An item that
finds no room on any day is left unplaced with the true reason in words (never placed outside a day); items
behind it are then unplaced too, naming it.
"""

from __future__ import annotations

import bisect
import heapq
from collections import defaultdict
from collections.abc import Iterable, Iterator

from domain.plan.checker import clock
from domain.plan.model import Day, Item, Plan, Problem, Slot
from domain.plan.persons import limited, most_matches, over_limit, scope


def predecessors(problem: Problem) -> tuple[dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]]:
    """Per item: its feeders in the problem, and the items of the previous round of its stage."""
    keys = {item.key for item in problem.items}
    by_round: dict[tuple[str, int], list[str]] = defaultdict(list)
    for item in problem.items:
        if item.stage is not None:
            by_round[(item.stage, item.round)].append(item.key)
    feeders: dict[str, tuple[str, ...]] = {}
    earlier: dict[str, tuple[str, ...]] = {}
    for item in problem.items:
        feeders[item.key] = tuple(k for k in item.feeders if k in keys and k != item.key)
        earlier[item.key] = tuple(by_round.get((item.stage, item.round - 1), ())) if item.stage is not None else ()
    return feeders, earlier


def tails(problem: Problem) -> dict[str, int]:
    """Per item: the longest chain of minutes from its start to the end of everything that must follow it."""
    feeders, earlier = predecessors(problem)
    after: dict[str, list[tuple[str, bool]]] = defaultdict(list)  # key -> (successor, fed by it)
    for key, fed_by in feeders.items():
        for pred in fed_by:
            after[pred].append((key, True))
    for key, before in earlier.items():
        for pred in before:
            after[pred].append((key, False))
    minutes = {item.key: item.minutes for item in problem.items}
    memo: dict[str, int] = {}
    visiting: set[str] = set()

    def tail(key: str) -> int:
        if key in memo:
            return memo[key]
        if key in visiting:  # a cycle cannot come from draws; never loop on one
            return minutes[key]
        visiting.add(key)
        best = minutes[key]
        for succ, fed in after[key]:
            best = max(best, minutes[key] + problem.rest + tail(succ) if fed else tail(succ))
        visiting.discard(key)
        memo[key] = best
        return best

    return {item.key: tail(item.key) for item in problem.items}


class _Board:
    """What is placed so far: each court's busy intervals, each person's (potential ones per draw, known ones per
    person and draw: the person rule of `domain.plan.persons`), sorted; and each person's items per day."""

    def __init__(self, problem: Problem) -> None:
        self.problem = problem
        self.items = {item.key: item for item in problem.items}
        self.courts: dict[str, list[tuple[int, int]]] = defaultdict(list)
        self.persons: dict[str, dict[str, list[tuple[int, int]]]] = {}  # person -> draw (scope) -> intervals
        self.known: dict[tuple[str, str], list[tuple[int, int]]] = {}  # (person, scope) -> known intervals
        self.on_day: dict[tuple[str, str], list[str]] = defaultdict(list)  # (person, date) -> keys
        self.limited = limited(problem.limits)

    def day_of(self, slot: Slot) -> Day | None:
        for day in self.problem.days:
            if day.start <= slot.start < day.end:
                return day
        return None

    def add(self, item: Item, slot: Slot) -> None:
        interval = (slot.start, slot.end)
        bisect.insort(self.courts[slot.court], interval)
        own = scope(item)
        for person in item.persons:
            bisect.insort(self.persons.setdefault(person, {}).setdefault(own, []), interval)
        for person in item.known:
            bisect.insort(self.known.setdefault((person, own), []), interval)
        day = self.day_of(slot) if self.limited else None
        if day is not None:
            for person in item.persons:
                self.on_day[(person, day.date)].append(item.key)

    def over_limit(self, item: Item, day: Day) -> str | None:
        """A person whose daily limit the item would break on that day (the most matches they can play), or None."""
        if not self.limited:
            return None
        for person in sorted(item.persons):
            counts = most_matches(person, [*self.on_day.get((person, day.date), ()), item.key], self.items)
            if over_limit(counts, self.problem.limits) is not None:
                return person
        return None

    def clashing(self, item: Item) -> Iterator[tuple[str, list[tuple[int, int]]]]:
        """Each person's intervals the item must keep clear of (with rest): their matches in other draws, and in
        its own draw those of their own entry (a match that follows on the entry's path waits for its feeder)."""
        own = scope(item)
        for person in item.persons:
            for where, intervals in self.persons.get(person, {}).items():
                if where != own:
                    yield person, intervals
        for person in item.known:
            mine = self.known.get((person, own))
            if mine:
                yield person, mine

    def court_free(self, court: str, start: int, end: int) -> bool:
        return all(e <= start or s >= end for s, e in self.courts[court])

    def blocking(self, clash: list[tuple[str, list[tuple[int, int]]]], start: int, end: int) -> str | None:
        """A person who plays or rests from `start` to `end` (of the item's `clashing` intervals), or None."""
        rest = self.problem.rest
        for person, intervals in clash:
            if not all(e + rest <= start or end + rest <= s for s, e in intervals):
                return person
        return None

    def candidates(self, clash: list[tuple[str, list[tuple[int, int]]]], court: str, earliest: int) -> list[int]:
        """Start times worth trying on a court: the earliest, and every end of a court's or a person's match."""
        times = {earliest}
        times.update(e for _, e in self.courts[court] if e > earliest)
        rest = self.problem.rest
        for _, intervals in clash:
            times.update(e + rest for _, e in intervals if e + rest > earliest)
        return sorted(times)


def _earliest(problem: Problem, board: _Board, item: Item, slots: dict[str, Slot], feeders: Iterable[str],
              earlier: Iterable[str]) -> tuple[int, str | None]:
    """The earliest start the item's own rules allow, before courts and other items are looked at, and what set
    it in words (None: now)."""
    start, cause = problem.now, None
    words = problem.person_labels
    zone = problem.zone
    for key in feeders:
        if slots[key].end + problem.rest > start:
            start = slots[key].end + problem.rest
            rest = f" and {problem.rest} minutes of rest" if problem.rest else ""
            cause = f"{board.items[key].label or key}, which feeds it, ends at {clock(slots[key].end, zone)}{rest}"
    for key in earlier:
        if slots[key].start > start:
            start = slots[key].start
            cause = f"{board.items[key].label or key} of the round before starts at {clock(start, zone)}"
    for person in sorted(item.persons):
        if problem.free_from.get(person, start) > start:
            start = problem.free_from[person]
            cause = f"{words.get(person, person)} rests until {clock(start, zone)}"
        if problem.not_before.get(person, start) > start:
            start = problem.not_before[person]
            cause = f"{words.get(person, person)} may not play before {clock(start, zone)}"
    return start, cause


def _place(problem: Problem, board: _Board, item: Item, earliest: int, cause: str | None) -> Slot | str:
    """The earliest slot on any day and court for the item, or why there is none (the true cause, in words: the
    time its feeders or players allow, a player's daily limit, a player playing or resting, the days full)."""
    usable = False
    roomy = False  # some day has the item's minutes after its earliest start
    limited_by: str | None = None
    blocked_by: str | None = None
    best: Slot | None = None
    clash = list(board.clashing(item))
    for day in sorted(problem.days, key=lambda d: d.start):
        courts = [c for c in day.courts if item.courts is None or c in item.courts]
        if not courts:
            continue
        usable = True
        if best is not None and best.start <= day.start:
            break
        if max(earliest, day.start) + item.minutes > day.end:
            continue
        roomy = True
        over = board.over_limit(item, day)
        if over is not None:
            limited_by = limited_by or over
            continue
        for court in courts:
            for start in board.candidates(clash, court, max(earliest, day.start)):
                end = start + item.minutes
                if end > day.end or (best is not None and start >= best.start):
                    break
                if not board.court_free(court, start, end):
                    continue
                person = board.blocking(clash, start, end)
                if person is None:
                    best = Slot(court, start, end)
                    break
                blocked_by = blocked_by or person
    if best is not None:
        return best
    names = problem.person_labels
    full = f"no court has {item.minutes} free minutes left on any planned day"
    if not usable:
        return "none of the courts it may use plays on a planned day"
    if not roomy and cause is not None:
        return f"{cause}: after that {full}"
    if limited_by is not None and blocked_by is None:
        return f"{names.get(limited_by, limited_by)}'s daily limit is reached on every day with room"
    if blocked_by is not None:
        return f"{names.get(blocked_by, blocked_by)} plays or rests whenever a court has {item.minutes} free minutes"
    return full


def plan(problem: Problem) -> Plan:
    """Place every item of the problem that is neither fixed nor pinned (see the module's docstring)."""
    feeders, earlier = predecessors(problem)
    tail = tails(problem)
    items = {item.key: item for item in problem.items}
    board = _Board(problem)
    slots: dict[str, Slot] = {}
    for key, slot in [*problem.fixed.items(), *problem.pinned.items()]:
        if key in items and key not in slots:
            slots[key] = slot
            board.add(items[key], slot)
    unplaced: dict[str, str] = {}
    after: dict[str, list[str]] = defaultdict(list)  # key -> the items waiting on it
    left: dict[str, int] = {}  # key -> how many items before it are still to decide
    ready: list[tuple[int, int, str]] = []  # (-tail, order, key) of items whose every item before is decided
    for item in problem.items:
        if item.key in slots:
            continue
        before = {k for k in (*feeders[item.key], *earlier[item.key]) if k not in slots}
        left[item.key] = len(before)
        for k in before:
            after[k].append(item.key)
        if not before:
            heapq.heappush(ready, (-tail[item.key], item.order, item.key))
    placed = 0
    while ready:
        key = heapq.heappop(ready)[2]
        chosen = items[key]
        missing = next((k for k in feeders[key] if k in unplaced), None)
        before_it = next((k for k in earlier[key] if k in unplaced), None)
        if missing is not None:
            unplaced[key] = f"{items[missing].label or missing}, which feeds it, could not be placed"
        elif before_it is not None:
            unplaced[key] = f"{items[before_it].label or before_it} of the round before could not be placed"
        else:
            earliest, cause = _earliest(problem, board, chosen, slots, feeders[key], earlier[key])
            found = _place(problem, board, chosen, earliest, cause)
            if isinstance(found, str):
                unplaced[key] = found
            else:
                slots[key] = found
                board.add(chosen, found)
                placed += 1
        for successor in after[key]:
            left[successor] -= 1
            if not left[successor]:
                heapq.heappush(ready, (-tail[successor], items[successor].order, successor))
    for key in left:  # only a cycle of feeders leaves items never ready
        if key not in slots and key not in unplaced:
            unplaced[key] = "its feeders form a cycle"
    return Plan(slots=slots, unplaced=unplaced, placed=placed)
