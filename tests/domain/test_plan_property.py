"""The order of play (contract §20, sharpened with §24) on random events: draws of every format with players
shared between them, part played, planned, then checked by a checker written here from the draws themselves, not
the product's (not its items' feeders nor its person rule): courts one match at a time; every match within a day,
on its courts, not before now; a match after every match feeding it (a group's rank: every match of the group)
plus rest; a person never twice at once nor without rest across draws (every match they might reach), within a
draw for a known entry; round r of a stage no earlier than round r - 1; matches that certainly cannot be played
not planned."""

from __future__ import annotations

import itertools
from collections import defaultdict
from dataclasses import dataclass

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from domain.draws import engine
from domain.draws.formats.base import DrawSpec, EntrySpec
from domain.draws.model import (
    Draw,
    DrawFormat,
    DrawMatch,
    DrawMatchStatus,
    DrawPlayer,
    Options,
    Outcome,
    ResultType,
    Score,
)
from domain.draws.model import Slot as DrawSlot
from domain.errors import Invalid
from domain.plan.draw_items import draw_items
from domain.plan.model import Day, Plan, Problem
from domain.plan.scheduler import plan

PROPERTY = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FORMATS = [DrawFormat.GROUPS_KNOCKOUT, DrawFormat.ROUND_ROBIN_PLAYOFF, DrawFormat.CONSOLATION, DrawFormat.FEED_IN,
           DrawFormat.PLAYOFF_ALL, DrawFormat.DOUBLE_ELIMINATION, DrawFormat.SINGLE_ELIMINATION,
           DrawFormat.ROUND_ROBIN]
NINE = 29_000_000  # some minute of some morning
_IDS = itertools.count(1)


def _new_id(prefix: str) -> str:
    return f"{prefix}_{next(_IDS)}"


@dataclass
class Event:
    draws: list[Draw]
    minutes: dict[str, int]  # draw ID -> its matches' minutes
    problem: Problem


@st.composite
def events(draw: st.DrawFn) -> Event:
    people = [f"Player {i}" for i in range(draw(st.integers(8, 24)))]
    draws: list[Draw] = []
    minutes: dict[str, int] = {}
    items = []
    for index in range(draw(st.integers(1, 3))):
        fmt = draw(st.sampled_from(FORMATS))
        doubles = draw(st.booleans())
        size = draw(st.integers(4, min(12, len(people) // (2 if doubles else 1))))
        chosen = draw(st.permutations(people))
        entries = [EntrySpec(players=[DrawPlayer(name=n) for n in chosen[2 * i:2 * i + 2]] if doubles
                             else [DrawPlayer(name=chosen[i])]) for i in range(size)]
        groups = draw(st.integers(1, max(1, size // 4))) if fmt in (DrawFormat.GROUPS_KNOCKOUT,
                                                                     DrawFormat.ROUND_ROBIN_PLAYOFF) else None
        spec = DrawSpec(broadcast_id="brd_1", name=f"Draw {index}", format=fmt, entries=entries, group_count=groups,
                        options=Options(random_seed=draw(st.integers(0, 99)),
                                        advance_per_group=draw(st.integers(1, 2))))
        try:
            made = engine.make_draw(spec, draw_id=_new_id("drw"), created_on="2026-01-01T00:00:00Z", new_id=_new_id)
        except Invalid:
            assume(False)
            raise
        for _ in range(draw(st.integers(0, size))):  # part played: known entries further on, groups finished
            ready = [dm for dm in made.ordered_matches() if dm.status == DrawMatchStatus.READY]
            if not ready:
                break
            engine.record_result(made, draw(st.sampled_from(ready)).id, winner_slot=draw(st.integers(0, 1)),
                                 result_type=ResultType.PLAYED, score=Score(1, 0), new_id=_new_id)
        draws.append(made)
        minutes[made.id] = draw(st.integers(20, 60))
        items += draw_items(made, minutes=minutes[made.id], order=index * 100_000).items
    courts = [f"tbl_{i}" for i in range(draw(st.integers(1, 5)))]
    days = []
    for d in range(draw(st.integers(1, 2))):
        start = NINE + d * 1440
        days.append(Day(date=f"2026-12-0{5 + d}", start=start, end=start + draw(st.integers(120, 900)),
                        courts=tuple(draw(st.lists(st.sampled_from(courts), min_size=1, unique=True)))))
    problem = Problem(items=tuple(items), days=tuple(days), now=NINE + draw(st.integers(-30, 30)),
                      rest=draw(st.integers(0, 30)))
    return Event(draws=draws, minutes=minutes, problem=problem)


class Facts:
    """What the draws say, read here apart from the product: who can reach each match, what feeds it, whether it
    can be played at all."""

    def __init__(self, draw: Draw) -> None:
        self.draw = draw
        self.by_group: dict[str, list[DrawMatch]] = defaultdict(list)
        for dm in draw.matches.values():
            if dm.group is not None:
                self.by_group[dm.group].append(dm)
        self.groups = {g.name: g for g in draw.groups}

    def empty(self, slot: DrawSlot) -> bool:
        """Certainly never filled."""
        if slot.closed:
            return True
        source = slot.source
        if slot.entry_id is not None or source is None or source.draw_match_id is None:
            return False
        before = self.draw.matches[source.draw_match_id]
        if before.status in (DrawMatchStatus.COMPLETE, DrawMatchStatus.ACTIVE):
            return False
        if before.status == DrawMatchStatus.BYE:
            return source.outcome == Outcome.LOSER
        gone = [self.empty(s) for s in before.slots]
        return any(gone) if source.outcome == Outcome.LOSER else all(gone)

    def playable(self, dm: DrawMatch) -> bool:
        return dm.status not in (DrawMatchStatus.COMPLETE, DrawMatchStatus.BYE) and not any(
            self.empty(s) for s in dm.slots)

    def entries(self, dm: DrawMatch) -> set[str]:
        found: set[str] = set()
        for slot in dm.slots:
            if slot.entry_id is not None:
                found.add(slot.entry_id)
            elif slot.source is not None and slot.source.group is not None:
                found |= set(self.groups[slot.source.group].entry_ids)
            elif slot.source is not None and slot.source.draw_match_id is not None and not self.empty(slot):
                found |= self.entries(self.draw.matches[slot.source.draw_match_id])
        return found

    def persons(self, entry_ids: set[str]) -> set[str]:
        return {p.name.casefold() for e in entry_ids for p in self.draw.entry(e).players}

    def feeders(self, dm: DrawMatch) -> set[str]:
        """Playable matches whose results fill its slots: through byes; a group's rank: every match of the group."""
        found: set[str] = set()
        for slot in dm.slots:
            source = slot.source
            if slot.entry_id is not None or source is None:
                continue
            if source.group is not None:
                found |= {g.id for g in self.by_group[source.group] if self.playable(g)}
            elif source.draw_match_id is not None:
                before = self.draw.matches[source.draw_match_id]
                found |= {before.id} if self.playable(before) else self.feeders(before)
        return found


def independent_check(event: Event, made: Plan) -> list[str]:
    """Every broken rule of §20, in words (empty: none)."""
    problem, broken = event.problem, []
    rest = problem.rest
    slots = made.slots
    facts = {d.id: Facts(d) for d in event.draws}
    where = {dm.id: (d, dm) for d in event.draws for dm in d.matches.values()}
    playable = {key for d in event.draws for key, dm in d.matches.items() if facts[d.id].playable(dm)}
    for key in playable:
        if key not in slots and not made.unplaced.get(key, "").strip():
            broken.append(f"{key} neither planned nor told why")
    for key in slots:
        if key not in playable:
            broken.append(f"{key} cannot be played but is planned")
    for key, slot in slots.items():
        draw, _ = where[key]
        if slot.end - slot.start != event.minutes[draw.id]:
            broken.append(f"{key} has the wrong length")
        if not any(d.start <= slot.start and slot.end <= d.end and slot.court in d.courts for d in problem.days):
            broken.append(f"{key} is outside every day")
        if slot.start < problem.now:
            broken.append(f"{key} starts before now")
    by_court: dict[str, list[tuple[int, int, str]]] = defaultdict(list)
    for key, slot in slots.items():
        by_court[slot.court].append((slot.start, slot.end, key))
    for court, row in by_court.items():
        row.sort()
        for (_, end, a), (start, _, b) in itertools.pairwise(row):
            if start < end:
                broken.append(f"{a} and {b} at once on {court}")
    for key, slot in slots.items():
        draw, dm = where[key]
        for feeder in facts[draw.id].feeders(dm):
            if feeder not in slots:
                broken.append(f"{key} is planned, its feeder {feeder} is not")
            elif slot.start < slots[feeder].end + rest:
                broken.append(f"{key} starts before its feeder {feeder} ends, plus rest")
    rounds: dict[tuple[str, str, int], list[str]] = defaultdict(list)
    for key in slots:
        draw, dm = where[key]
        rounds[(draw.id, dm.stage, dm.round_number)].append(key)
    for (draw_id, stage, number), keys in rounds.items():
        before = rounds.get((draw_id, stage, number - 1), [])
        for key in keys:
            if any(slots[key].start < slots[b].start for b in before):
                broken.append(f"{key} starts before a match of the round before")
    potential: dict[str, set[str]] = {}
    known: dict[str, set[str]] = {}
    for key in slots:
        draw, dm = where[key]
        potential[key] = facts[draw.id].persons(facts[draw.id].entries(dm))
        known[key] = facts[draw.id].persons(set(dm.entry_ids()))
    keys = sorted(slots, key=lambda k: slots[k].start)
    for i, a in enumerate(keys):
        for b in keys[i + 1:]:
            if slots[b].start >= slots[a].end + rest:
                break
            same_draw = where[a][0].id == where[b][0].id
            shared = known[a] & known[b] if same_draw else potential[a] & potential[b]
            if shared:
                broken.append(f"{sorted(shared)} in {a} and {b} without rest between")
    return broken


@PROPERTY
@given(events())
def test_every_plan_of_a_random_event_keeps_every_rule(event: Event) -> None:
    made = plan(event.problem)
    assert independent_check(event, made) == []
