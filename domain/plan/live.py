"""Keeping to the order of play during the day (contract §20 "Keeping to it").

A planned time is a not-before (less the plan's `earlyMinutes`); start-next takes a court's planned matches in
planned order, and a match planned for another court only when it runs more than 15 minutes late; estimates are
the later of the planned start and the court's real free time; each court tells how late it runs. Pure functions
of a broadcast's stored plan and matches (no storage).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from domain.clock import parse_iso
from domain.models import Broadcast, Match

LATE_ELSEWHERE = timedelta(minutes=15)  # a match planned for another court may start here once this late
SHOWN_LATE = timedelta(minutes=5)  # a court running less late than this is on time (docs/decisions.md)


def plan_key(match: Match) -> str:
    """A match's key in the plan: its draw match's ID for a draw's match, else its own."""
    return match.draw_match_id or match.id


def planned(broadcast: Broadcast | None, match: Match) -> tuple[str, datetime] | None:
    """The court and start the plan gives the match, if any."""
    if broadcast is None or not broadcast.planned:
        return None
    where = broadcast.planned.get(plan_key(match))
    return None if where is None else (where["table_id"], parse_iso(where["planned_on"]))


def not_before(broadcast: Broadcast | None, match: Match) -> datetime | None:
    """The earliest moment start-next may start the match: its planned start less `earlyMinutes`."""
    found = planned(broadcast, match)
    if found is None or broadcast is None:
        return None
    return found[1] - timedelta(minutes=int((broadcast.plan or {}).get("early_minutes", 0)))


def follow_plan(broadcast: Broadcast | None, table_id: str, candidates: Sequence[Match], *,
                now: datetime) -> list[Match]:
    """Start-next's candidates for a court, as the plan orders them: called ones first (as before), then the
    court's planned matches in planned order, then matches the plan does not place, then matches planned for
    another court that run more than 15 minutes late (others are left to their own court)."""
    if broadcast is None or not broadcast.planned:
        return list(candidates)
    called = [m for m in candidates if m.called_on]
    here: list[tuple[datetime, Match]] = []
    unplanned: list[Match] = []
    late: list[tuple[datetime, Match]] = []
    for match in candidates:
        if match.called_on:
            continue
        found = planned(broadcast, match)
        if found is None:
            unplanned.append(match)
        elif found[0] == table_id:
            here.append((found[1], match))
        elif found[1] + LATE_ELSEWHERE < now:
            late.append((found[1], match))
    ordered = [m for _, m in sorted(here, key=lambda pair: pair[0])]
    return called + ordered + unplanned + [m for _, m in sorted(late, key=lambda pair: pair[0])]


def court_delay(broadcast: Broadcast | None, table_id: str, *, free_at: datetime | None,
                upcoming: Sequence[Match]) -> int | None:
    """How many minutes late the court runs: the expected end of its match in play after its next planned match's
    planned start (None without a plan for it, 0 when on time or less than 5 minutes late). An empty court
    (`free_at` None: nothing in play) runs late by nothing: its next match may start now (issue 51)."""
    starts = [found[1] for m in upcoming if (found := planned(broadcast, m)) is not None and found[0] == table_id]
    if not starts:
        return None
    if free_at is None:
        return 0
    late = free_at - min(starts)
    return int(late.total_seconds() // 60) if late >= SHOWN_LATE else 0


def late_text(label: str, minutes: int | None) -> str | None:
    """"Court 3: 25 min late", or None when on time."""
    return f"{label}: {minutes} min late" if minutes else None
