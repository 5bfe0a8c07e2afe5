"""The published order of play (contract §20 "Published"): what the public event page shows of the plan.

With `"published": true` the page gains the order of play (per day, per court, with times) and each player's
matches their planned time and court; a published time that moved by more than 15 minutes shows as "Time
changed". Names, courts and times only: no IDs (§15). An unpublished plan shows nowhere public.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timedelta, tzinfo
from typing import Any

from domain.clock import iso, parse_iso
from domain.match.scoring import SERVER_DEFAULT
from domain.models import Broadcast
from domain.plan import service
from domain.plan.model import from_minute
from domain.plan.reads import Shown
from domain.ports import UnitOfWork

CHANGED = timedelta(minutes=15)  # a published time that moved more than this shows as "Time changed"


@dataclass(frozen=True)
class Planned:
    """A pending match's place in the published order of play: when, on which court (its label), and the move
    of its time since first published (`{"from", "to"}`, more than 15 minutes) or None."""

    planned_on: str
    court: str
    time_changed: dict[str, str] | None


@dataclass
class Published:
    days: list[dict[str, Any]]  # the order of play, as the page shows it
    by_match: dict[str, Planned] = field(default_factory=dict)  # real match ID -> its place in the plan


def time_changed(broadcast: Broadcast, key: str, planned_on: str) -> dict[str, str] | None:
    """`{"from", "to"}` when the match's first published time moved more than 15 minutes, else None."""
    first = broadcast.published_times.get(key)
    if first is None or abs(parse_iso(planned_on) - parse_iso(first)) <= CHANGED:
        return None
    return {"from": first, "to": planned_on}


def published_order(uow: UnitOfWork, broadcast: Broadcast, *, now: datetime, zone: tzinfo) -> Published | None:
    """The broadcast's published order of play, or None while it is not published."""
    if not (broadcast.plan or {}).get("published"):
        return None
    built = service.build(uow, broadcast, now=now, server=SERVER_DEFAULT, zone=zone)
    plan = service.stored_plan(built, broadcast)
    labels = built.problem.court_labels
    by_day: dict[str, dict[str, list[tuple[int, dict[str, Any]]]]] = defaultdict(lambda: defaultdict(list))
    found = Published(days=[])
    for key, slot in plan.slots.items():
        planned_on = iso(from_minute(slot.start))
        changed = time_changed(broadcast, key, planned_on)
        shown = built.shown.get(key) or Shown(names=[], event=None, round=None)
        court = labels.get(slot.court, slot.court)
        date = from_minute(slot.start).astimezone(zone).date().isoformat()
        by_day[date][slot.court].append((slot.start, {
            "plannedOn": planned_on, "court": court, "event": shown["event"], "round": shown["round"],
            "names": list(shown["names"]), "timeChanged": changed}))
        match_id = built.match_ids.get(key)
        if match_id:
            found.by_match[match_id] = Planned(planned_on=planned_on, court=court, time_changed=changed)
    order = {court: index for index, court in enumerate(broadcast.table_ids)}
    for date in sorted(by_day):
        courts = sorted(by_day[date], key=lambda c: (order.get(c, len(order)), c))
        found.days.append({"date": date, "courts": [
            {"label": labels.get(c, c), "slots": [shown for _, shown in sorted(by_day[date][c], key=lambda p: p[0])]}
            for c in courts]})
    return found
