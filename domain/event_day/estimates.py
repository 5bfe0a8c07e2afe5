"""Estimates (contract §9): when each queued match should start and when the active one should end.

The typical duration of a broadcast's match is the median of `completedOn - startedOn` over its last 20 completed
matches that took at least 3 minutes (a result typed in after the fact is not a 0-minute match, contract §9a); while
fewer than 3 such durations exist, each match's own typical match (its plan minutes, else its format's
`typicalMinutes` of §20: tennis 90, badminton 40, ...), or `COURTSIDE_DEFAULT_MATCH_MINUTES` when the server sets
it. The overdue warning uses the same typical length. On a court the active
match ends at its start plus the typical duration, or now if that moment has passed; each queued match starts when
the one before it is expected to end (a free court starts its first queued match now). A match with a `notBefore`
(a schedule's start time, §9a) is not expected before it, and the matches behind it move up meanwhile, as
start-next skips a match whose time has not come.

`typical_duration` and `court_times` are pure (records and times in, times out); `Estimator` reads a unit of work
and remembers each broadcast's typical duration, so a board of many courts reads the history once per broadcast.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from statistics import median

from domain.clock import iso, parse_iso
from domain.match import formats, scoring
from domain.models import Attention, Broadcast, Match, Table
from domain.partner.queues import active_match
from domain.plan import live as plan_live
from domain.plan.settings import match_minutes
from domain.ports import UnitOfWork

HISTORY = 20  # completed matches the typical duration looks back on
SHORTEST = timedelta(minutes=3)  # a shorter duration was typed in after the fact: not a real match length
FEWEST = 3  # real durations needed before the median replaces the default
OVERDUE_FACTOR = 1.5  # a match in play for longer than this many typical durations is overdue


@dataclass(frozen=True)
class CourtTimes:
    """A court's estimates: `starts` maps each queued match's id to its estimated start."""

    typical: timedelta
    expected_end: datetime | None
    starts: dict[str, datetime]
    attention: Attention | None


def typical_duration(completed: Iterable[Match], *, default: timedelta, history: int = HISTORY) -> timedelta:
    """Median of the last `history` real durations (by `completedOn`; under 3 minutes and results typed in from
    paper left out, §19), `default` while fewer than 3 exist."""
    timed = sorted((m for m in completed if m.started_on and m.completed_on and not m.typed_in),
                   key=lambda m: m.completed_on or "")
    durations = [parse_iso(m.completed_on or "") - parse_iso(m.started_on or "") for m in timed]
    recent = [d for d in durations if d >= SHORTEST][-history:]
    if len(recent) < FEWEST:
        return default
    return timedelta(seconds=median(d.total_seconds() for d in recent))


def court_times(*, active: Match | None, queue: Sequence[Match], typical: timedelta, now: datetime,
                planned_for: Callable[[Match], datetime | None] = lambda _: None,
                typical_of: Callable[[Match], timedelta] | None = None) -> CourtTimes:
    """Expected end of the active match, estimated start of each queued one, and whether the court needs attention.
    `typical_of`: each match's own typical length (default: `typical` for all); the court's `typical` is its active
    match's."""
    length = typical_of or (lambda _: typical)
    expected_end: datetime | None = None
    attention: Attention | None = None
    if active is not None:
        typical = length(active)
        started = parse_iso(active.started_on) if active.started_on else now
        expected_end = max(started + typical, now)
        if now - started > typical * OVERDUE_FACTOR:
            attention = Attention.OVERDUE
    elif queue:
        attention = Attention.WAITING
    starts: dict[str, datetime] = {}
    moment = expected_end or now
    waiting = [(m, _later(parse_iso(m.not_before) if m.not_before else None, planned_for(m))) for m in queue]
    while waiting:  # as start-next does: the first match in queue order whose time has come (§9a, §14)
        index = next((i for i, (_, at) in enumerate(waiting) if at is None or at <= moment), None)
        if index is None:  # every waiting match has a later time: the court waits for the earliest
            moment = min(at for _, at in waiting if at is not None)
            continue
        match, _ = waiting.pop(index)
        starts[match.id] = moment
        moment += length(match)
    return CourtTimes(typical=typical, expected_end=expected_end, starts=starts, attention=attention)


def pool_starts(*, courts_free: Mapping[str, datetime], pool: Sequence[Match], typical: timedelta,
                now: datetime, courts_of: Callable[[Match], Collection[str] | None] = lambda _: None,
                planned_for: Callable[[Match], datetime | None] = lambda _: None,
                typical_of: Callable[[Match], timedelta] | None = None,
                waits_for: Mapping[str, Collection[str]] | None = None) -> dict[str, datetime]:
    """When each match of a court pool (§13) should start: in pool order (start-next's), each takes the court it
    may use (`courts_of`: its draw's `tableIDs`, None for any) that comes free first after its own queue, for one
    typical match, and waits for its own time (`notBefore`) and for the end of the pool matches it `waits_for` (its
    draw's earlier round, §20). A match no court may take gets no estimate. Blocks that lift by themselves (rest,
    check-in) are not foreseen."""
    free = {court: max(moment, now) for court, moment in courts_free.items()}
    starts: dict[str, datetime] = {}
    ends: dict[str, datetime] = {}
    for match in pool:
        allowed = courts_of(match)
        usable = [court for court in free if allowed is None or court in allowed]
        if not usable:
            continue
        court = min(usable, key=lambda c: free[c])  # the first court to come free; ties: the broadcast's order
        moment = free[court]
        at = _later(parse_iso(match.not_before) if match.not_before else None, planned_for(match))
        before = [ends[other] for other in (waits_for or {}).get(match.id, ()) if other in ends]
        at = _later(at, max(before, default=None))
        if at is not None and at > moment:
            moment = at
        starts[match.id] = moment
        ends[match.id] = free[court] = moment + (typical_of(match) if typical_of is not None else typical)
    return starts


def _later(first: datetime | None, second: datetime | None) -> datetime | None:
    """The later of two optional moments: a schedule's `notBefore` and a planned start (§20)."""
    return max((m for m in (first, second) if m is not None), default=None)


class Estimator:
    """Estimates over one unit of work at one moment; each broadcast's history is read once."""

    def __init__(self, uow: UnitOfWork, *, now: datetime, default_minutes: float | None) -> None:
        self.uow = uow
        self.now = now
        self.default = None if default_minutes is None else timedelta(minutes=default_minutes)
        self._typical: dict[str, timedelta | None] = {}
        self._broadcasts: dict[str, Broadcast | None] = {}

    def _broadcast(self, broadcast_id: str) -> Broadcast | None:
        if broadcast_id not in self._broadcasts:
            self._broadcasts[broadcast_id] = self.uow.broadcasts.get(broadcast_id)
        return self._broadcasts[broadcast_id]

    def _measured(self, broadcast_id: str) -> timedelta | None:
        """The median of the broadcast's last real durations, None while fewer than 3 (its courts read once)."""
        if broadcast_id not in self._typical:
            completed = [m for table in self.uow.tables.find(broadcast_id=broadcast_id) for m in self._recent(table.id)]
            self._typical[broadcast_id] = typical_duration(completed, default=timedelta(0)) or None
        return self._typical[broadcast_id]

    def typical_of(self, broadcast_id: str) -> Callable[[Match], timedelta]:
        """Each match's typical length (§9): the broadcast's measured one, else the server's
        `COURTSIDE_DEFAULT_MATCH_MINUTES` when set, else the match's own typical match (its plan minutes, else its
        format's `typicalMinutes`, §20): a tennis match is 90 minutes, not 20 (issue 51)."""
        measured = self._measured(broadcast_id) or self.default
        if measured is not None:
            return lambda _: measured
        plan = (broadcast.plan if (broadcast := self._broadcast(broadcast_id)) is not None else None)

        def own(match: Match) -> timedelta:
            return timedelta(minutes=match_minutes(plan, scoring.format_of(match), scoring.sport_of(match),
                                                   match.draw_id))

        return own

    def planned_for(self, broadcast_id: str) -> Callable[[Match], datetime | None]:
        """A match's planned start in its broadcast's order of play (§20: estimates are the later of the planned
        start and the court's real free time)."""
        broadcast = self._broadcast(broadcast_id)

        def start(match: Match) -> datetime | None:
            found = plan_live.planned(broadcast, match)
            return found[1] if found is not None else None

        return start

    def _recent(self, table_id: str) -> list[Match]:
        """The table's latest completed matches, enough to hold its last `HISTORY` real durations (or all it has):
        an indexed read from the newest back, so a court's long history (or the account's) is not read."""
        wanted = HISTORY
        while True:
            found = self.uow.matches.completed(table_id=table_id, last=wanted)
            real = sum(1 for m in found if m.started_on and m.completed_on
                       and parse_iso(m.completed_on) - parse_iso(m.started_on) >= SHORTEST)
            if real >= HISTORY or len(found) < wanted:
                return found
            wanted *= 4

    def typical(self, broadcast_id: str) -> timedelta:
        """The broadcast's typical match duration: measured, else the server's default when set, else the
        broadcast's own typical match (its plan's default minutes, else its format's `typicalMinutes`)."""
        measured = self._measured(broadcast_id) or self.default
        if measured is not None:
            return measured
        broadcast = self._broadcast(broadcast_id)
        own = scoring.of_broadcast_record(broadcast) if broadcast is not None else None
        fmt, name = (own.format, own.name) if own is not None else (
            formats.PRESETS[formats.DEFAULT_NAME], formats.DEFAULT_NAME)
        return timedelta(minutes=match_minutes(broadcast.plan if broadcast else None, fmt, name, None))

    def court(self, table: Table, *, active: Match | None, queue: Sequence[Match]) -> CourtTimes:
        """The court's times, given its active match and queue as the caller already read them: each match for
        its own typical length; the court's `typical` is its active match's, else its next match's."""
        typical_of = self.typical_of(table.broadcast_id)
        typical = typical_of(queue[0]) if active is None and queue else self.typical(table.broadcast_id)
        return court_times(active=active, queue=queue, typical=typical, now=self.now,
                           planned_for=self.planned_for(table.broadcast_id), typical_of=typical_of)

    def pool(self, broadcast_id: str, pool: Sequence[Match],
             courts_of: Callable[[Match], Collection[str] | None] = lambda _: None,
             waits_for: Mapping[str, Collection[str]] | None = None) -> dict[str, str]:
        """Estimated start (ISO) of each court-pool match of the broadcast, by match id (§13 "with estimates");
        `courts_of` names the courts a match may use (its draw's `tableIDs`), `waits_for` the pool matches of its
        draw's earlier round a match waits for (`draws.pool.held_back`)."""
        if not pool:
            return {}
        typical, typical_of = self.typical(broadcast_id), self.typical_of(broadcast_id)
        courts_free = {}
        for table in self.uow.tables.find(broadcast_id=broadcast_id):
            queue = self.uow.matches.queue(table.id)
            times = self.court(table, active=active_match(self.uow, table.id), queue=queue)
            last = max(times.starts.items(), default=None, key=lambda pair: pair[1])
            courts_free[table.id] = (last[1] + typical_of(next(m for m in queue if m.id == last[0]))
                                     if last is not None else times.expected_end or self.now)
        starts = pool_starts(courts_free=courts_free, pool=pool, typical=typical, now=self.now, courts_of=courts_of,
                             planned_for=self.planned_for(broadcast_id), typical_of=typical_of,
                             waits_for=waits_for)
        return {match_id: iso(moment) for match_id, moment in starts.items()}

    def starts(self, table: Table) -> dict[str, str]:
        """Estimated start (ISO) of each queued match of the table, by match id (what output pages show)."""
        times = self.court(table, active=active_match(self.uow, table.id), queue=self.uow.matches.queue(table.id))
        return {match_id: iso(moment) for match_id, moment in times.starts.items()}
