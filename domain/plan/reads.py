"""The order of play's reads (contract §20), declared (issue 36, point 2): the grid, a hand move's answer, a plan
run's answer and the conflicts. Each is a `TypedDict`, so mypy checks every key the service writes, and
`tests/api/test_read_shapes.py` checks each against the schema the OpenAPI document shows (`api/schemas/plan.py`).
(No `from __future__ import annotations` here: `NotRequired` must be seen when the class is made.)
"""

from typing import NotRequired, TypedDict


class Shown(TypedDict):
    """What the grid shows of a planned match besides its time: the sides' names, its event and round."""

    names: list[str]
    event: str | None
    round: str | None


class PlanSlotRead(Shown):
    """A planned match: when, how long, on which court; its match or draw match (one of them, or both)."""

    plannedOn: str
    minutes: int
    tableID: str
    matchID: NotRequired[str]
    drawMatchID: NotRequired[str]


class PlanCourtRead(TypedDict):
    tableID: str
    label: str
    slots: list[PlanSlotRead]


class PlanGridDayRead(TypedDict):
    date: str
    courts: list[PlanCourtRead]


class ConflictRead(TypedDict):
    """A conflict of the plan, in words, with the matches and draw matches it concerns."""

    severity: str
    kind: str
    matchIDs: list[str]
    drawMatchIDs: list[str]
    message: str


class NotPlacedRead(Shown):
    """A match to plan that has no place in the plan: what it is and how long it takes, so it can be named and
    placed by hand (issue 46: 26 lines "Not placed: ..." named no match)."""

    minutes: int
    matchID: NotRequired[str]
    drawMatchID: NotRequired[str]


class PlanGridRead(TypedDict):
    """`GET /operator/broadcasts/{id}/plan`: per day, per court, its slots in time order; every conflict; every
    match still to plan that has no place."""

    days: list[PlanGridDayRead]
    conflicts: list[ConflictRead]
    unplaced: list[NotPlacedRead]


class MoveRead(TypedDict):
    """A hand move's answer: the moved slot and every conflict of the plan after it (never refused)."""

    slot: PlanSlotRead
    conflicts: list[ConflictRead]


class UnplacedRead(NotPlacedRead):
    """A match a plan run could not place, and why."""

    reason: str


class NeededRead(TypedDict):
    """When the days cannot hold every match: the last day's end that would hold them at these lengths."""

    date: str
    end: str


class PlannedDayRead(TypedDict):
    date: str
    end: str | None  # the last planned end of the day, None when nothing is planned on it


class PlanResultRead(TypedDict):
    """A plan run's answer: how many were placed, which were not and why, each day's last end."""

    placed: int
    unplaced: list[UnplacedRead]
    days: list[PlannedDayRead]
    needed: NotRequired[NeededRead]  # only when some match is unplaced and a longer last day would hold them
