"""The open statuses of players' reports (contract §21, `ReportStatus`) and what a match's cancellation does to them.

Kept apart from `domain.public.personal` (which makes and settles reports) because the services that delete a
match (`domain.match.matches`, a court's removal in `domain.partner.broadcasts`) sit below it.
"""

from __future__ import annotations

import dataclasses
from datetime import datetime
from typing import Any

from domain.access import audit
from domain.access.audit_records import AuditAction, TargetType
from domain.models import Match, PlayerReport, ReportStatus
from domain.ports import UnitOfWork

#: A report still to settle, by the opponent or the desk.
OPEN = (ReportStatus.WAITING, ReportStatus.DISPUTED)


def cancel_reports(uow: UnitOfWork, match: Match, *, now: datetime) -> None:
    """The match is cancelled (deleted): its open reports are `cancelled`, never confirmed later (by the server's
    job or the desk) as the result of a match that no longer exists. One `report.cancelled` entry each."""
    for report in uow.player_reports.find(match_id=match.id):
        if report.status not in OPEN:
            continue
        before = dataclasses.replace(report)
        report.status = ReportStatus.CANCELLED
        uow.player_reports.put(report)
        audit.record(uow, account_id=match.account_id, action=AuditAction.REPORT_CANCELLED,
                     target=(TargetType.MATCH, match.id), before=audited(before), after=audited(report), now=now)


def report_view(report: PlayerReport) -> dict[str, Any]:
    """A report as §21 shows it to the desk."""
    return {"reportID": report.id, "matchID": report.match_id, "gameScores": report.games,
            "reportedBy": report.reported_by, "status": report.status, "reportedOn": report.reported_on}


def audited(report: PlayerReport) -> dict[str, Any]:
    """A report as its audit entries keep it: the desk's view and who settled it."""
    return report_view(report) | {"settledBy": report.settled_by}
