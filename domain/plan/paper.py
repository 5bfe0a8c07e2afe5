"""The order of play on paper (contract §20): A4, one page per day, courts as columns, times as rows."""

from __future__ import annotations

from collections import defaultdict
from datetime import date, datetime, tzinfo
from typing import Any

from domain.clock import iso
from domain.match.scoring import Scoring
from domain.partner.broadcasts import get_broadcast
from domain.plan import service
from domain.plan.model import from_minute
from domain.plan.reads import Shown
from domain.ports import UnitOfWork

PER_PAGE = 6  # courts side by side on one A4 portrait page; more courts continue on the next page of that day


def order_sheet(uow: UnitOfWork, *, account_id: str, broadcast_id: str, now: datetime, server: Scoring,
                zone: tzinfo) -> dict[str, Any]:
    """The sheet: per day (and per group of six courts), a row per planned start time, a cell per court."""
    broadcast = get_broadcast(uow, account_id=account_id, broadcast_id=broadcast_id)
    built = service.build(uow, broadcast, now=now, server=server, zone=zone)
    plan = service.stored_plan(built, broadcast)
    labels = built.problem.court_labels
    by_day: dict[str, dict[tuple[str, str], str]] = defaultdict(dict)  # date -> (time, court) -> what
    courts_of: dict[str, list[str]] = defaultdict(list)
    for day in built.problem.days:
        courts_of[day.date] = list(day.courts)
    for key, slot in plan.slots.items():
        moment = from_minute(slot.start).astimezone(zone)
        when = moment.date().isoformat()
        shown = built.shown.get(key) or Shown(names=[], event=None, round=None)
        what = " v ".join(shown["names"])
        detail = " · ".join(str(x) for x in (shown["event"], shown["round"]) if x)
        by_day[when][(moment.strftime("%H:%M"), slot.court)] = f"{what}\n{detail}" if detail else what
        if slot.court not in courts_of[when]:
            courts_of[when].append(slot.court)
    pages = []
    for when in sorted(by_day):
        courts = courts_of[when]
        times = sorted({t for t, _ in by_day[when]})
        for start in range(0, len(courts), PER_PAGE):
            group = courts[start:start + PER_PAGE]
            pages.append({"title": f"{date.fromisoformat(when):%A} {date.fromisoformat(when).day} "
                                   f"{date.fromisoformat(when):%B %Y}",
                          "courts": [labels.get(c, c) for c in group],
                          "rows": [{"time": t, "cells": [by_day[when].get((t, c), "") for c in group]}
                                   for t in times if any((t, c) in by_day[when] for c in group)]})
    unplaced = []  # the matches still to plan without a place: listed after the grid, never left out (issue 46)
    for item in built.problem.items:
        if item.key not in plan.slots:
            shown = built.shown.get(item.key) or Shown(names=[], event=None, round=None)
            detail = " · ".join(str(x) for x in (shown["event"], shown["round"]) if x)
            unplaced.append(" v ".join(shown["names"]) + (f" · {detail}" if detail else ""))
    return {"event": broadcast.name, "printedOn": iso(now), "pages": pages, "unplaced": unplaced}
