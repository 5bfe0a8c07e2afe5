"""The order of play (contract §20) as plain data: what is to be planned, and a plan.

Times are whole minutes since the Unix epoch (UTC): the planner and the checker only add and compare them, and the
adapter (`domain.plan.inputs`) turns timestamps into minutes and back. Nothing here knows storage or draws.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, tzinfo
from enum import StrEnum

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def to_minute(moment: datetime) -> int:
    """Whole minutes since the epoch (seconds dropped: a plan is in minutes)."""
    return int((moment - EPOCH).total_seconds() // 60)


def next_minute(moment: datetime) -> int:
    """The next whole minute at or after the moment (contract §20: no planned start before now; a plan made at
    16:32:40 starts nothing before 16:33)."""
    minute = to_minute(moment)
    return minute if EPOCH + timedelta(minutes=minute) >= moment else minute + 1


def from_minute(minute: int) -> datetime:
    return EPOCH + timedelta(minutes=minute)


@dataclass(frozen=True)
class Day:
    """One day of play: its courts between `start` and `end` (minutes)."""

    date: str  # YYYY-MM-DD, local
    start: int
    end: int
    courts: tuple[str, ...]


@dataclass(frozen=True)
class Item:
    """One match to plan (a real match or a draw match still waiting for its players).

    `persons` are everyone who can still reach it (known players and, while a slot is open, every entry that can
    still fill it): they count for "never twice at once", rest, not-before and daily limits as `domain.plan.persons`
    says (within one `draw`, only when one entry can play both). `known` are its known players. `feeders` are the
    items whose result fills it; `stage` + `round` give "earlier rounds first" (round r of a draw's stage after
    every match of round r - 1).
    """

    key: str
    minutes: int
    persons: frozenset[str] = frozenset()
    known: frozenset[str] = frozenset()
    doubles: bool = False
    courts: tuple[str, ...] | None = None  # the courts it may use; None: any court of the day
    feeders: tuple[str, ...] = ()
    stage: str | None = None  # "<drawID>/<stage>": rounds are ordered within one
    round: int = 0
    order: int = 0  # a stable tie-break (draw creation order, round, number)
    label: str = ""  # how messages name it ("Men's singles, Round of 16: Ann Lee v Bo Kim")
    draw: str | None = None  # the draw it belongs to; None: a match of its own


@dataclass(frozen=True)
class Slot:
    """Where and when an item is planned: a court, from `start` to `end` (minutes)."""

    court: str
    start: int
    end: int


@dataclass(frozen=True)
class Limits:
    """At most this many matches of a known player on one day (None: no limit)."""

    singles: int | None = None
    doubles: int | None = None
    total: int | None = None


@dataclass(frozen=True)
class Problem:
    """Everything one planning needs. `fixed` items (called or started) stay where they are; `pinned` ones (placed
    by hand, kept on re-planning) too, but they are the operator's choice, so conflicts they make are reported."""

    items: tuple[Item, ...]
    days: tuple[Day, ...]
    now: int
    rest: int = 0
    limits: Limits = Limits()
    not_before: Mapping[str, int] = field(default_factory=dict)  # person -> earliest start
    free_from: Mapping[str, int] = field(default_factory=dict)  # person -> resting until (completed matches)
    fixed: Mapping[str, Slot] = field(default_factory=dict)
    pinned: Mapping[str, Slot] = field(default_factory=dict)
    court_labels: Mapping[str, str] = field(default_factory=dict)
    person_labels: Mapping[str, str] = field(default_factory=dict)
    zone: tzinfo = UTC


@dataclass
class Plan:
    """A planning's outcome: every item's slot (fixed and pinned ones included), and those that found none with
    the reason in words. `placed` counts the items this planning placed (not the fixed ones); `short_of_time`: some
    item was left out for want of time, so longer days might hold it (not when only daily limits left items out)."""

    slots: dict[str, Slot]
    unplaced: dict[str, str]
    placed: int = 0
    short_of_time: bool = False


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"


class Kind(StrEnum):
    DOUBLE_BOOKED = "double_booked"
    BEFORE_FEEDER = "before_feeder"
    PERSON_TWICE = "person_twice"
    REST = "rest"
    DAILY_LIMIT = "daily_limit"
    NOT_BEFORE = "not_before"
    OUTSIDE_DAY = "outside_day"
    ROUND_ORDER = "round_order"  # the checker's own: not one of the contract's conflict kinds (docs/decisions.md)
    NOT_PLANNED = "not_planned"  # the checker's own: an item neither placed nor reported unplaced, or both


SEVERITY = {Kind.DOUBLE_BOOKED: Severity.ERROR, Kind.BEFORE_FEEDER: Severity.ERROR, Kind.NOT_PLANNED: Severity.ERROR}


@dataclass(frozen=True)
class Conflict:
    kind: Kind
    keys: tuple[str, ...]
    message: str

    @property
    def severity(self) -> Severity:
        return SEVERITY.get(self.kind, Severity.WARNING)
