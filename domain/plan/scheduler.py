"""The planner (contract §20): greedy list scheduling by critical path, a few passes, the best kept.

One pass: items become eligible once everything before them (their feeders, and every item of the previous round
of their draw's stage) is decided; of the eligible ones the item that ranks first goes next (they wait in a heap),
at the earliest time any court it may use has room for it on some day, its persons are free and rested (who could
play both: `domain.plan.persons`), and daily limits and not-before hold; of the courts free at that time, the one
idle for the shortest time before it (best fit: no court is left with a gap too short for a match while another
would have fitted). Placing into gaps is allowed: each rule is checked against everything already placed in both
directions, so a later choice never breaks an earlier one. An item that finds no room on any day is left unplaced
with the true reason in words (never placed outside a day); items behind it are then unplaced too, naming it.

The passes (`passes`) differ in the rank and the grid. Ranks: the longest chain of work still behind the item
(critical path) first; then that chain plus half the busiest of its persons' own chain of matches (across draws:
a player in singles, groups and doubles is the bottleneck, not a bracket); ties by the stable `order`. Grid: when
every match has one length and the rest is no whole number of them (20-minute matches, 15 minutes of rest), the
first passes start matches only on whole matches from the day's start (`grid_of`), so courts are not left with
gaps no match fits; then a pass by critical path on any minute; then, for the draw with the fewest minutes of
those that share players with another (`DRAWS_FIRST`), a pass with that draw's matches first. Passes stop once
one places everything by the one-day bound (`_bound`); a pass gives up once it ends after one that placed
everything. Each pass is deterministic, so the plan is too: the best pass wins (most placed, then the earliest
day ends), the first on a tie.
"""

from __future__ import annotations

import bisect
import heapq
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import partial

from domain.plan.checker import clock
from domain.plan.model import Day, Item, Plan, Problem, Slot
from domain.plan.persons import limited, most_matches, over_limit, scope

Round = tuple[str, int]  # (stage, round)
Rank = Mapping[str, float]  # key -> how urgent (larger first)

FOREVER = 1 << 40  # minutes: beyond any day
#: The share of a person's own chain of matches in the second pass's rank (see the module's docstring). Few
#: passes, so planning stays cheaper than making the draws (§20).
PERSON_SHARE = 0.5
#: At most this many draws sharing players are tried first, one pass each, the shortest first: each pass costs
#: as much as a fifth or more of the rest of planning (and planning must stay cheaper than making the draws).
DRAWS_FIRST = 1


@dataclass(frozen=True)
class _Shape:
    """What every pass needs of the problem, made once: feeders in the problem, the rounds of each stage (keys in
    the problem's order), each item's previous round when it has items, and each item's critical-path tail."""

    items: dict[str, Item]
    feeders: dict[str, tuple[str, ...]]
    rounds: dict[Round, list[str]]
    previous: dict[str, Round]
    tail: dict[str, int]
    floors: dict[str, tuple[int, str, bool]]  # key -> the latest of its persons' rest and not-before: (start, who,
    # whether a not-before), the first person (by key) on a tie, rest before not-before


def _floors(problem: Problem) -> dict[str, tuple[int, str, bool]]:
    floors: dict[str, tuple[int, str, bool]] = {}
    if not problem.free_from and not problem.not_before:
        return floors
    for item in problem.items:
        best: tuple[int, str, bool] | None = None
        for person in sorted(item.persons):
            for not_before, times in ((False, problem.free_from), (True, problem.not_before)):
                if person in times and (best is None or times[person] > best[0]):
                    best = (times[person], person, not_before)
        if best is not None:
            floors[item.key] = best
    return floors


def _shape(problem: Problem) -> _Shape:
    items = {item.key: item for item in problem.items}
    rounds: dict[Round, list[str]] = defaultdict(list)
    for item in problem.items:
        if item.stage is not None:
            rounds[(item.stage, item.round)].append(item.key)
    feeders: dict[str, tuple[str, ...]] = {}
    previous: dict[str, Round] = {}
    for item in problem.items:
        feeders[item.key] = tuple(dict.fromkeys(k for k in item.feeders if k in items and k != item.key))
        if item.stage is not None and (item.stage, item.round - 1) in rounds:
            previous[item.key] = (item.stage, item.round - 1)
    return _Shape(items=items, feeders=feeders, rounds=dict(rounds), previous=previous,
                  tail=_tails(problem, items, feeders, rounds, previous), floors=_floors(problem))


def _tails(problem: Problem, items: Mapping[str, Item], feeders: Mapping[str, tuple[str, ...]],
           rounds: Mapping[Round, list[str]], previous: Mapping[str, Round]) -> dict[str, int]:
    """Per item: the longest chain of minutes from its start to the end of everything that must follow it (an
    item it feeds starts after its end and the rest; an item of the next round no earlier than its start)."""
    fed: dict[str, list[str]] = defaultdict(list)
    for key, before in feeders.items():
        for pred in before:
            fed[pred].append(key)
    next_round: dict[Round, list[str]] = defaultdict(list)
    for key, round_ in previous.items():
        next_round[round_].append(key)
    memo: dict[str, int] = {}
    round_memo: dict[Round, int] = {}
    visiting: set[str] = set()

    def of_round(round_: Round) -> int:
        if round_ not in round_memo:
            round_memo[round_] = max((tail(k) for k in next_round.get(round_, ())), default=0)
        return round_memo[round_]

    def tail(key: str) -> int:
        if key in memo:
            return memo[key]
        minutes = items[key].minutes
        if key in visiting:  # a cycle cannot come from draws; never loop on one
            return minutes
        visiting.add(key)
        best = minutes
        for succ in fed.get(key, ()):
            best = max(best, minutes + problem.rest + tail(succ))
        item = items[key]
        if item.stage is not None:
            best = max(best, of_round((item.stage, item.round)))
        visiting.discard(key)
        memo[key] = best
        return best

    return {key: tail(key) for key in items}


def _loads(problem: Problem, shape: _Shape) -> dict[str, int]:
    """Per person: the minutes of the most matches they can play (across draws) and the rest after each."""
    mine: dict[str, list[str]] = defaultdict(list)
    for item in problem.items:
        for person in item.persons:
            mine[person].append(item.key)
    loads = {}
    for person, keys in mine.items():
        minutes = max(shape.items[k].minutes for k in keys) + problem.rest
        loads[person] = most_matches(person, keys, shape.items)["total"] * minutes
    return loads


def grid_of(problem: Problem) -> int:
    """The grid the first passes start matches on: the match length when every match to plan has one length and
    the rest is no whole number of them (else 1: any minute). Starting at a person's end plus rest (09:35 after a
    20-minute match at 09:00 and 15 minutes of rest) would leave a court idle 15 minutes that no match fits: on
    the grid every court's matches follow each other, the rest is kept by waiting for the next whole match."""
    lengths = {item.minutes for item in problem.items if item.key not in problem.fixed
               and item.key not in problem.pinned}
    if len(lengths) != 1:
        return 1
    grid = lengths.pop()
    return grid if grid > 1 and problem.rest % grid else 1


def _shared_draws(problem: Problem) -> list[str]:
    """The draws that have a person in common with another draw, the fewest minutes of matches first (ties: the
    problem's order): the shortest run of a shared player's possible matches frees them soonest."""
    scopes: dict[str, set[str]] = defaultdict(set)  # person -> the draws they may play in
    order: dict[str, int] = {}
    minutes: dict[str, int] = defaultdict(int)
    for item in problem.items:
        if item.draw is None:
            continue
        order.setdefault(item.draw, len(order))
        minutes[item.draw] += item.minutes
        for person in item.persons:
            scopes[person].add(item.draw)
    shared = {draw for draws in scopes.values() if len(draws) > 1 for draw in draws}
    return sorted(shared, key=lambda draw: (minutes[draw], order[draw]))


def passes(problem: Problem, shape: _Shape | None = None) -> Iterator[tuple[Rank, int]]:
    """Each pass's rank and grid, in turn (see the module's docstring); made lazily. On the grid when there is one
    (`grid_of`): by critical path, then with the share of the persons' chains; then by critical path on any
    minute; then, for the first `DRAWS_FIRST` draws that share players with another (the shortest first), that
    draw's matches first (by the persons' rank among them: a player in three draws plays one draw's run of
    possible matches, not all three interleaved, each blocking the others)."""
    shape = shape or _shape(problem)
    grid = grid_of(problem)
    yield shape.tail, grid
    loads = _loads(problem, shape)
    by_persons = {item.key: shape.tail[item.key] + PERSON_SHARE * max((loads[p] for p in item.persons), default=0)
                  for item in problem.items}
    yield by_persons, grid
    if grid > 1:
        yield shape.tail, 1
    above = max(by_persons.values(), default=0) + 1
    for draw in _shared_draws(problem)[:DRAWS_FIRST]:
        yield {item.key: by_persons[item.key] + (above if item.draw == draw else 0) for item in problem.items}, grid


class _Board:
    """What is placed so far: each court's busy intervals, each person's (potential ones per draw, known ones per
    person and draw: the person rule of `domain.plan.persons`), sorted; and each person's items per day."""

    def __init__(self, problem: Problem, items: Mapping[str, Item], could_break: frozenset[str],
                 grid: int = 1) -> None:
        self.problem = problem
        self.grid = grid  # starts on whole multiples of it from the day's start (1: any minute)
        self.items = items
        self.courts: dict[str, list[tuple[int, int]]] = defaultdict(list)
        self.overlapping: set[str] = set()  # courts double-booked by hand: checked interval by interval
        self.gaps: dict[str, list[tuple[int, int]]] = {}  # court -> its free times (none too short for a match)
        self.shortest = min((item.minutes for item in items.values()), default=1)
        self.persons: dict[str, dict[str, list[tuple[int, int]]]] = {}  # person -> draw (scope) -> intervals
        self.known: dict[tuple[str, str], list[tuple[int, int]]] = {}  # (person, scope) -> known intervals
        self.on_day: dict[tuple[str, str], list[str]] = defaultdict(list)  # (person, date) -> keys
        self.limited = limited(problem.limits)
        self.could_break = could_break  # the persons who could break a daily limit at all

    def day_of(self, slot: Slot) -> Day | None:
        for day in self.problem.days:
            if day.start <= slot.start < day.end:
                return day
        return None

    def add(self, item: Item, slot: Slot) -> None:
        interval = (slot.start, slot.end)
        intervals = self.courts[slot.court]
        if slot.court in self.overlapping or not self.court_free(slot.court, slot.start, slot.end):
            self.overlapping.add(slot.court)  # its gaps are no longer kept: checked match by match
        else:
            self._take(slot.court, slot.start, slot.end)
        bisect.insort(intervals, interval)
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
        for person in sorted(item.persons & self.could_break):
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
        intervals = self.courts[court]
        if court in self.overlapping:
            return all(e <= start or s >= end for s, e in intervals)
        at = bisect.bisect_left(intervals, (end,))  # intervals[:at] start before the end
        return at == 0 or intervals[at - 1][1] <= start

    def _gaps(self, court: str) -> list[tuple[int, int]]:
        gaps = self.gaps.get(court)
        if gaps is None:
            gaps = self.gaps[court] = [(-FOREVER, FOREVER)]
        return gaps

    def _take(self, court: str, start: int, end: int) -> None:
        """The court's gap holding `start`-`end` split around it (a part too short for any match dropped)."""
        gaps = self._gaps(court)
        at = bisect.bisect_right(gaps, (start, FOREVER)) - 1
        before, after = gaps[at]
        kept = [(s, e) for s, e in ((before, start), (end, after)) if e - s >= self.shortest]
        gaps[at:at + 1] = kept

    def starts(self, personal: list[int], court: str, earliest: int, minutes: int,
               day: Day) -> Iterator[tuple[int, int]]:
        """The start times worth trying on a court from `earliest`, ascending, at which the court is free for
        `minutes` within the day, each with how long the court stands idle before it: the start of each of the
        court's gaps, and each time of `personal` (sorted: every end plus rest of a person's match) within one."""
        end = day.end
        if court in self.overlapping:  # double-booked by hand: every time, checked one by one
            intervals = self.courts[court]
            at = bisect.bisect_left(intervals, (earliest,))
            times = {earliest, *personal, *(e for _, e in intervals[max(0, at - 1):])}
            for t in sorted(times):
                if earliest <= t and t + minutes <= end and self.court_free(court, t, t + minutes):
                    ended = max((e for _, e in intervals if e <= t), default=day.start)
                    yield t, t - max(ended, day.start)
            return
        gaps = self._gaps(court)
        grid = self.grid
        last = end - minutes  # the latest start
        for at in range(max(0, bisect.bisect_right(gaps, (earliest, FOREVER)) - 1), len(gaps)):
            opens, closes = gaps[at]
            free = opens if opens > earliest else earliest
            if grid > 1:
                free += -(free - day.start) % grid
            if free > last:
                return
            latest = closes - minutes if closes < end else last
            if free > latest:
                continue
            idle_from = opens if opens > day.start else day.start
            yield free, free - idle_from
            if personal and personal[-1] > free:
                tried = free
                for i in range(bisect.bisect_right(personal, free), len(personal)):
                    t = personal[i]
                    if grid > 1:
                        t += -(t - day.start) % grid
                    if t > latest:
                        break
                    if t > tried:
                        tried = t
                        yield t, t - idle_from

    def blocking(self, clash: list[tuple[str, list[tuple[int, int]]]], start: int, end: int) -> str | None:
        """A person who plays or rests from `start` to `end` (of the item's `clashing` intervals), or None."""
        rest = self.problem.rest
        for person, intervals in clash:
            if not all(e + rest <= start or end + rest <= s for s, e in intervals):
                return person
        return None


Cause = Callable[[], str]


def _fed_until(problem: Problem, label: str, end: int) -> str:
    rest = f" and {problem.rest} minutes of rest" if problem.rest else ""
    return f"{label}, which feeds it, ends at {clock(end, problem.zone)}{rest}"


def _round_from(problem: Problem, label: str, start: int) -> str:
    return f"{label} of the round before starts at {clock(start, problem.zone)}"


def _rests_until(problem: Problem, person: str, start: int) -> str:
    return f"{problem.person_labels.get(person, person)} rests until {clock(start, problem.zone)}"


def _not_before(problem: Problem, person: str, start: int) -> str:
    return f"{problem.person_labels.get(person, person)} may not play before {clock(start, problem.zone)}"


def _earliest(problem: Problem, shape: _Shape, item: Item, slots: Mapping[str, Slot],
              round_start: Callable[[Round], tuple[int, str | None]]) -> tuple[int, Cause | None]:
    """The earliest start the item's own rules allow, before courts and other items are looked at, and what set
    it, put in words only when asked (None: now)."""
    start, cause = problem.now, None
    items = shape.items
    for key in shape.feeders[item.key]:
        if slots[key].end + problem.rest > start:
            start = slots[key].end + problem.rest
            cause = partial(_fed_until, problem, items[key].label or key, slots[key].end)
    previous = shape.previous.get(item.key)
    if previous is not None:
        latest, latest_key = round_start(previous)
        if latest_key is not None and latest > start:
            start = latest
            cause = partial(_round_from, problem, items[latest_key].label or latest_key, latest)
    floor = shape.floors.get(item.key)
    if floor is not None and floor[0] > start:
        start, person, not_before = floor
        cause = partial(_not_before if not_before else _rests_until, problem, person, start)
    return start, cause


def _windows(clash: list[tuple[str, list[tuple[int, int]]]], minutes: int,
             rest: int) -> tuple[list[int], list[int]]:
    """The starts a match of `minutes` may not take for its persons' matches (`clash`): from a match's start less
    the rest and the minutes (exclusive) to its end plus the rest, merged into sorted disjoint windows (their
    openings and closings, a start blocked when an opening is at or before it and its closing after it)."""
    opens: list[int] = []
    closes: list[int] = []
    for low, high in sorted((s - rest - minutes + 1, e + rest) for _, intervals in clash for s, e in intervals):
        if closes and low <= closes[-1]:
            closes[-1] = max(closes[-1], high)
        else:
            opens.append(low)
            closes.append(high)
    return opens, closes


def _place(problem: Problem, board: _Board, item: Item, earliest: int,
           cause: Cause | None) -> Slot | tuple[str, bool]:
    """The earliest slot on any day and court for the item, on the court idle the shortest before it, or why there
    is none (the true cause, in words: the time its feeders or players allow, a player's daily limit, a player
    playing or resting, the days full) and whether longer days might hold it (not when a daily limit alone
    kept it off every day that had room, nor when none of its courts plays)."""
    usable = False
    roomy = False  # some day has the item's minutes after its earliest start
    cramped = False  # some day does not
    limited_by: str | None = None
    blocked_by: str | None = None
    best: Slot | None = None
    idle = 0
    clash = list(board.clashing(item))
    personal = sorted({e + problem.rest for _, intervals in clash for _, e in intervals})
    opens, closes = _windows(clash, item.minutes, problem.rest)
    first_blocked: tuple[int, int] | None = None
    for day in sorted(problem.days, key=lambda d: d.start):
        courts = [c for c in day.courts if item.courts is None or c in item.courts]
        if not courts:
            continue
        usable = True
        if best is not None and best.start <= day.start:
            break
        if max(earliest, day.start) + item.minutes > day.end:
            cramped = True
            continue
        roomy = True
        over = board.over_limit(item, day)
        if over is not None:
            limited_by = limited_by or over
            continue
        for court in courts:
            for start, gap in board.starts(personal, court, max(earliest, day.start), item.minutes, day):
                end = start + item.minutes
                if best is not None and start > best.start:
                    break
                at = bisect.bisect_right(opens, start) - 1
                if at < 0 or start >= closes[at]:  # no person of it plays or rests then
                    if best is None or start < best.start or gap < idle:
                        best, idle = Slot(court, start, end), gap
                    break
                first_blocked = first_blocked or (start, end)
    if best is not None:
        return best
    if first_blocked is not None:
        blocked_by = board.blocking(clash, *first_blocked)
    names = problem.person_labels
    full = f"no court has {item.minutes} free minutes left on any planned day"
    if not usable:
        return "none of the courts it may use plays on a planned day", False
    if not roomy and cause is not None:
        return f"{cause()}: after that {full}", True
    if limited_by is not None and blocked_by is None:
        return f"{names.get(limited_by, limited_by)}'s daily limit is reached on every day with room", cramped
    if blocked_by is not None:
        return (f"{names.get(blocked_by, blocked_by)} plays or rests whenever a court has {item.minutes} free "
                "minutes", True)
    return full, True


def _could_break(problem: Problem, shape: _Shape) -> frozenset[str]:
    """The persons who could break a daily limit at all: the most matches they can play, all on one day, over it
    (the count only grows with more matches, so nobody else needs counting)."""
    if not limited(problem.limits):
        return frozenset()
    mine: dict[str, list[str]] = defaultdict(list)
    for item in problem.items:
        for person in item.persons:
            mine[person].append(item.key)
    return frozenset(person for person, keys in mine.items()
                     if over_limit(most_matches(person, keys, shape.items), problem.limits) is not None)


@dataclass(frozen=True)
class _Order:
    """Which items wait on which, the same for every pass (made once): the items each one releases, how many
    feeders and previous rounds each still waits on, each round's items still to decide, each round's next."""

    fed: dict[str, list[str]]
    left: dict[str, int]
    round_left: dict[Round, int]
    waiting: dict[Round, list[str]]


def _order(problem: Problem, shape: _Shape) -> _Order:
    decided = {key for key in [*problem.fixed, *problem.pinned] if key in shape.items}
    fed: dict[str, list[str]] = defaultdict(list)  # key -> the items waiting on it
    left: dict[str, int] = {}  # key -> how many feeders and previous rounds are still to decide
    round_left: dict[Round, int] = defaultdict(int)  # a round -> its items still to decide
    waiting: dict[Round, list[str]] = defaultdict(list)  # a round -> the items of the next one
    for key, round_ in shape.previous.items():
        if key not in decided:
            waiting[round_].append(key)
    for item in problem.items:
        if item.key not in decided and item.stage is not None:
            round_left[(item.stage, item.round)] += 1
    for item in problem.items:
        key = item.key
        if key in decided:
            continue
        before = [k for k in shape.feeders[key] if k not in decided]
        for k in before:
            fed[k].append(key)
        previous = shape.previous.get(key)
        left[key] = len(before) + (1 if previous is not None and round_left[previous] else 0)
    return _Order(fed=dict(fed), left=left, round_left=dict(round_left), waiting=dict(waiting))


def _pass(problem: Problem, shape: _Shape, order: _Order, rank: Rank, could_break: frozenset[str],
          grid: int = 1, beat: int | None = None) -> Plan | None:
    """One greedy pass in the rank's order, starting matches on the grid (see the module's docstring); None, given
    up, as soon as it places a match ending after `beat` (the one day's end of a pass that placed everything: this
    one can no longer be better)."""
    items = shape.items
    board = _Board(problem, items, could_break, grid)
    slots: dict[str, Slot] = {}
    for key, slot in [*problem.fixed.items(), *problem.pinned.items()]:
        if key in items and key not in slots:
            slots[key] = slot
            board.add(items[key], slot)
    unplaced: dict[str, str] = {}
    left = dict(order.left)
    round_left = dict(order.round_left)
    ready: list[tuple[float, int, str]] = [(-rank[key], items[key].order, key) for key, n in left.items() if not n]
    heapq.heapify(ready)  # (-rank, order, key) of items whose every item before is decided
    decided: dict[Round, tuple[int, str | None, str | None]] = {}  # round -> (latest start, its key, an unplaced)

    def round_start(round_: Round) -> tuple[int, str | None]:
        return round_info(round_)[:2]

    def round_info(round_: Round) -> tuple[int, str | None, str | None]:
        if round_ not in decided:
            latest, latest_key, missing = -1, None, None
            for k in shape.rounds[round_]:
                if k in slots and slots[k].start > latest:
                    latest, latest_key = slots[k].start, k
                elif k in unplaced and missing is None:
                    missing = k
            decided[round_] = (latest, latest_key, missing)
        return decided[round_]

    def release(key: str) -> None:
        left[key] -= 1
        if not left[key]:
            heapq.heappush(ready, (-rank[key], items[key].order, key))

    placed = 0
    short_of_time = False
    while ready:
        key = heapq.heappop(ready)[2]
        chosen = items[key]
        missing = next((k for k in shape.feeders[key] if k in unplaced), None)
        previous = shape.previous.get(key)
        before_it = round_info(previous)[2] if previous is not None else None
        if missing is not None:
            unplaced[key] = f"{items[missing].label or missing}, which feeds it, could not be placed"
        elif before_it is not None:
            unplaced[key] = f"{items[before_it].label or before_it} of the round before could not be placed"
        else:
            earliest, cause = _earliest(problem, shape, chosen, slots, round_start)
            found = _place(problem, board, chosen, earliest, cause)
            if isinstance(found, tuple):
                unplaced[key], wanting = found
                short_of_time = short_of_time or wanting
            else:
                if beat is not None and found.end > beat:
                    return None
                slots[key] = found
                board.add(chosen, found)
                placed += 1
        for successor in order.fed.get(key, ()):
            release(successor)
        if chosen.stage is not None:
            round_ = (chosen.stage, chosen.round)
            round_left[round_] -= 1
            if not round_left[round_]:
                for successor in order.waiting.get(round_, ()):
                    release(successor)
    for key in left:  # only a cycle of feeders leaves items never ready
        if key not in slots and key not in unplaced:
            unplaced[key] = "its feeders form a cycle"
    return Plan(slots=slots, unplaced=unplaced, placed=placed, short_of_time=short_of_time)


def _score(problem: Problem, made: Plan) -> tuple[int, int, int]:
    """How good a pass is, smaller better: items left out, then the days' lengths (to their last ends), then the
    sum of every end (the earlier the better when the days tie)."""
    last: dict[int, int] = {}
    for slot in made.slots.values():
        for index, day in enumerate(problem.days):
            if day.start <= slot.start < day.end:
                last[index] = max(last.get(index, slot.end), slot.end)
                break
    lengths = sum(end - problem.days[index].start for index, end in last.items())
    return len(made.unplaced), lengths, sum(slot.end for slot in made.slots.values())


def _bound(problem: Problem, shape: _Shape) -> int | None:
    """The earliest end any plan of one day from scratch can have (None: more days, or matches already placed):
    the longest chain of work from now or the day's start, and the matches spread over the courts (whole matches
    per court when every match has one length: 205 matches of 20 minutes on 8 courts need 26 rounds, 520
    minutes). A pass that places everything by then is as good as any: the others are not tried."""
    if len(problem.days) != 1 or problem.fixed or problem.pinned or not problem.items:
        return None
    day = problem.days[0]
    opens = max(problem.now, day.start)
    courts = len(day.courts) or 1
    lengths = {item.minutes for item in problem.items}
    if len(lengths) == 1:
        spread = -(-len(problem.items) // courts) * lengths.pop()
    else:
        spread = -(-sum(item.minutes for item in problem.items) // courts)
    return opens + max(spread, max(shape.tail.values()))


def plan(problem: Problem, *, most: int | None = None) -> Plan:
    """Place every item of the problem that is neither fixed nor pinned (see the module's docstring): the best
    of the passes (`most`: at most that many; None: every one of `passes`)."""
    shape = _shape(problem)
    could_break = _could_break(problem, shape)
    best: Plan | None = None
    best_score: tuple[int, int, int] | None = None
    bound = _bound(problem, shape)
    order = _order(problem, shape)
    for index, (rank, grid) in enumerate(passes(problem, shape)):
        if most is not None and index >= most:
            break
        beat = (max((slot.end for slot in best.slots.values()), default=None)
                if best is not None and not best.unplaced and len(problem.days) == 1 else None)
        made = _pass(problem, shape, order, rank, could_break, grid, beat)
        if made is None:
            continue
        score = _score(problem, made)
        if best_score is None or score < best_score:
            best, best_score = made, score
        if bound is not None and not made.unplaced and max(slot.end for slot in made.slots.values()) <= bound:
            break
    assert best is not None
    return best
