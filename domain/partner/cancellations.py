"""`match.cancelled` (contract §23): a partner's match that the operator cancelled, or took away with a court or
a broadcast, is announced to the partner, who opted in. A partner's own cancels and deletes announce nothing
(it knows). The event is recorded before the match goes, with the match read as it last was."""

from __future__ import annotations

from datetime import datetime

from domain.events import record_event
from domain.match.scoring import Scoring
from domain.models import Broadcast, EventType, Match
from domain.partner import broadcasts
from domain.partner.broadcasts import BroadcastChange
from domain.ports import UnitOfWork
from domain.views import Reader


def match_cancelled(uow: UnitOfWork, match: Match, *, now: datetime) -> None:
    """Record `match.cancelled` for the match's connection (when it is subscribed), the match as it last was."""
    record_event(uow, account_id=match.account_id, connection_id=match.connection_id,
                 event_type=EventType.MATCH_CANCELLED, data={"match": Reader(uow).read(match)}, now=now)


def operator_patch_broadcast(
    uow: UnitOfWork, *, account_id: str, broadcast_id: str, change: BroadcastChange, now: datetime, server: Scoring,
) -> Broadcast:
    """The operator changes a broadcast; pending matches of courts it removes are announced as cancelled."""
    return broadcasts.patch_broadcast(uow, account_id=account_id, broadcast_id=broadcast_id, change=change, now=now,
                                      server=server, cancelled=lambda match: match_cancelled(uow, match, now=now))


def operator_delete_broadcast(uow: UnitOfWork, *, account_id: str, broadcast_id: str, now: datetime) -> Broadcast:
    """The operator deletes a broadcast; its courts' pending matches are announced as cancelled."""
    return broadcasts.delete_broadcast(uow, account_id=account_id, broadcast_id=broadcast_id, now=now,
                                       cancelled=lambda match: match_cancelled(uow, match, now=now))
