"""Every rule of contract §20 checked on a plan, independently of the planner (it shares only the data model).

The planner must pass it (the property test); hand moves are never refused, so the grid and every move show what
it finds as conflicts, in words, with their severity (a court double-booked and a match before its feeder are
errors, the rest warnings).
"""

from __future__ import annotations

from collections import defaultdict
from datetime import tzinfo

from domain.plan.model import Conflict, Day, Kind, Plan, Problem, Severity, Slot, from_minute
from domain.plan.persons import Paths, limited, most_matches, over_limit


def clock(minute: int, zone: tzinfo) -> str:
    """A minute as the local time of day, "10:40"."""
    return from_minute(minute).astimezone(zone).strftime("%H:%M")


class _Words:
    def __init__(self, problem: Problem) -> None:
        self.problem = problem
        self.items = {item.key: item for item in problem.items}

    def court(self, court: str) -> str:
        return self.problem.court_labels.get(court, court)

    def match(self, key: str) -> str:
        item = self.items.get(key)
        return item.label if item is not None and item.label else key

    def person(self, person: str) -> str:
        return self.problem.person_labels.get(person, person)

    def at(self, slot: Slot) -> str:
        return f"{clock(slot.start, self.problem.zone)} on {self.court(slot.court)}"


def _day_holding(days: tuple[Day, ...], slot: Slot) -> Day | None:
    for day in days:
        if day.start <= slot.start and slot.end <= day.end and slot.court in day.courts:
            return day
    return None


def _coverage(problem: Problem, plan: Plan) -> list[Conflict]:
    found = []
    for item in problem.items:
        placed = item.key in plan.slots
        reason = plan.unplaced.get(item.key)
        if placed == (reason is not None) or (reason is not None and not reason.strip()):
            found.append(Conflict(Kind.NOT_PLANNED, (item.key,), f"{item.key} is neither placed nor reported"))
    return found


def _own(problem: Problem, plan: Plan, words: _Words) -> list[Conflict]:
    """Each slot alone: its length, its day and court, now, its persons' not-before and rest."""
    found = []
    for key, slot in plan.slots.items():
        item = words.items.get(key)
        if item is None:
            continue
        fixed = key in problem.fixed
        if not fixed and slot.end != slot.start + item.minutes:
            found.append(Conflict(Kind.OUTSIDE_DAY, (key,), f"{words.match(key)} is planned for "
                                  f"{slot.end - slot.start} minutes, not its {item.minutes}"))
        if fixed:
            continue
        if _day_holding(problem.days, slot) is None or (item.courts is not None and slot.court not in item.courts):
            found.append(Conflict(Kind.OUTSIDE_DAY, (key,),
                                  f"{words.match(key)} at {words.at(slot)} is outside the planned days and courts"))
        elif slot.start < problem.now and key not in problem.pinned:
            found.append(Conflict(Kind.OUTSIDE_DAY, (key,), f"{words.match(key)} is planned in the past"))
        late = [p for p in sorted(item.persons & problem.not_before.keys())
                if slot.start < problem.not_before[p]] if problem.not_before else []
        if late:
            until = max(problem.not_before[p] for p in late)
            found.append(Conflict(Kind.NOT_BEFORE, (key,), f"{words.match(key)} at {words.at(slot)} is before "
                                  f"{clock(until, problem.zone)}, the time a player may not play before"))
        tired = [p for p in sorted(item.persons & problem.free_from.keys())
                 if slot.start < problem.free_from[p]] if problem.free_from else []
        if tired:
            until = max(problem.free_from[p] for p in tired)
            found.append(Conflict(Kind.REST, (key,), f"{words.match(key)} at {words.at(slot)} is before a "
                                  f"player's rest ends at {clock(until, problem.zone)}"))
    return found


def _courts(problem: Problem, plan: Plan, words: _Words) -> list[Conflict]:
    found = []
    by_court: dict[str, list[tuple[Slot, str]]] = defaultdict(list)
    for key, slot in plan.slots.items():
        by_court[slot.court].append((slot, key))
    for court, placed in by_court.items():
        placed.sort(key=lambda pair: (pair[0].start, pair[1]))
        for i, (slot, key) in enumerate(placed):
            for other, other_key in placed[i + 1:]:
                if other.start >= slot.end:
                    break
                found.append(Conflict(Kind.DOUBLE_BOOKED, (key, other_key), f"{words.court(court)} has two matches at "
                                      f"{clock(other.start, problem.zone)}: {words.match(key)} and "
                                      f"{words.match(other_key)}"))
    return found


def _order(problem: Problem, plan: Plan, words: _Words) -> list[Conflict]:
    """Feeders first (with rest), and round r of a stage no earlier than every match of round r - 1."""
    found = []
    known = {item.key for item in problem.items}
    rounds: dict[tuple[str, int], list[str]] = defaultdict(list)
    for item in problem.items:
        if item.stage is not None:
            rounds[(item.stage, item.round)].append(item.key)
    for item in problem.items:
        slot = plan.slots.get(item.key)
        if slot is None or item.key in problem.fixed:
            continue
        for feeder in item.feeders:
            if feeder not in known:
                continue
            before = plan.slots.get(feeder)
            if before is None:
                found.append(Conflict(Kind.BEFORE_FEEDER, (feeder, item.key), f"{words.match(item.key)} is planned "
                                      f"but {words.match(feeder)}, which feeds it, is not"))
            elif slot.start < before.end:
                found.append(Conflict(Kind.BEFORE_FEEDER, (feeder, item.key), f"{words.match(item.key)} at "
                                      f"{words.at(slot)} starts before {words.match(feeder)}, which feeds it, ends "
                                      f"at {clock(before.end, problem.zone)}"))
            elif slot.start < before.end + problem.rest:
                found.append(Conflict(Kind.REST, (feeder, item.key), f"{words.match(item.key)} at {words.at(slot)} "
                                      f"leaves less than {problem.rest} minutes of rest after {words.match(feeder)}"))
        if item.stage is None:
            continue
        for other in rounds.get((item.stage, item.round - 1), []):
            before = plan.slots.get(other)
            if before is None or slot.start < before.start:
                found.append(Conflict(Kind.ROUND_ORDER, (other, item.key), f"{words.match(item.key)} is planned "
                                      f"before {words.match(other)} of the round before"))
    return found


def _persons(problem: Problem, plan: Plan, words: _Words) -> list[Conflict]:
    """Nobody twice at once, nor before their rest is over, and no more matches on a day than their daily limit
    (who could play which match: `domain.plan.persons`)."""
    found = []
    seen: set[tuple[str, str, Kind]] = set()
    paths = Paths(words.items)
    busy: dict[str, list[tuple[int, str, int]]] = defaultdict(list)  # person -> (start, key, end)
    on_day: dict[tuple[str, str], list[str]] = defaultdict(list)
    checks_limits = limited(problem.limits)
    for key, slot in plan.slots.items():
        item = words.items.get(key)
        if item is None:
            continue
        entry = (slot.start, key, slot.end)
        for person in item.persons:
            busy[person].append(entry)
        if not checks_limits:  # daily limits are counted only when there are some
            continue
        day = next((d for d in problem.days if d.start <= slot.start < d.end), None)
        if day is not None:
            for person in item.persons:
                on_day[(person, day.date)].append(key)
    rest = problem.rest
    for person, placed in busy.items():
        if len(placed) < 2:  # one match: nothing to clash with
            continue
        placed.sort()
        for i, (_, key, end) in enumerate(placed):
            for j in range(i + 1, len(placed)):
                other_start, other_key, _ = placed[j]
                if other_start >= end + rest:
                    break
                if key in problem.fixed and other_key in problem.fixed:
                    continue
                if not paths.share(words.items[key], words.items[other_key], person):
                    continue
                kind = Kind.PERSON_TWICE if other_start < end else Kind.REST
                pair = (min(key, other_key), max(key, other_key), kind)
                if pair in seen:
                    continue
                seen.add(pair)
                who, first, second = words.person(person), words.match(key), words.match(other_key)
                if kind is Kind.PERSON_TWICE:
                    message = (f"{who} may be due on two courts at {clock(other_start, problem.zone)}: "
                               f"{first} and {second}")
                else:
                    message = f"{who} has less than {problem.rest} minutes of rest between {first} and {second}"
                found.append(Conflict(kind, (key, other_key), message))
    for (person, date), keys in on_day.items():
        counts = most_matches(person, keys, words.items)
        broken = over_limit(counts, problem.limits)
        if broken is not None:
            what, limit = broken
            label = "matches" if what == "total" else f"{what} matches"
            found.append(Conflict(Kind.DAILY_LIMIT, tuple(sorted(keys)), f"{words.person(person)} can play "
                                  f"{counts[what]} {label} on {date}, more than the limit of {limit}"))
    return found


def check(problem: Problem, plan: Plan) -> list[Conflict]:
    """Every broken rule of the plan, errors first."""
    words = _Words(problem)
    found = [*_coverage(problem, plan), *_own(problem, plan, words), *_courts(problem, plan, words),
             *_order(problem, plan, words), *_persons(problem, plan, words)]
    return sorted(found, key=lambda c: (c.severity != Severity.ERROR, c.kind, c.keys))
