"""The court board: the operator's table reads with what an event day needs (contract §9).

Each court is the table read (active match and whole queue) plus, from one moment `now`:
- `activeMatch.expectedEndOn` and each queued match's `estimatedStartOn` (domain.event_day.estimates);
- each queued match's `busyPlayers`: who of its players is on another court right now, and where;
- each queued match's `blockedBy`: why it may not start now (busy, resting, not checked in, not before: §14), or null;
- `courtPlayerListID`: the court's player list (assigned to the table, else the broadcast's default), or null;
- `activeMatch.devicesScoring`: clients that wrote to its score in the last 60 s (§17);
- `typicalMinutes` of its broadcast, and `attention`: `overdue` (the match in play runs over 1.5x typical),
  `waiting` (no match in play, matches queued), or null;
- with an order of play (§20): `lateMinutes` and `late` ("Court 3: 25 min late"; null when on time).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from domain.clock import iso
from domain.draws import pool as draw_pool
from domain.event_day.availability import Availability
from domain.event_day.estimates import Estimator
from domain.event_day.schedule import court_player_list
from domain.match.scorers import devices_scoring
from domain.models import Broadcast, Match, Table
from domain.pagination import DEFAULT_LIMIT, decode_key, encode_cursor, paginate
from domain.partner.queues import active_match
from domain.plan import live as plan_live
from domain.ports import UnitOfWork
from domain.views import Reader


def court_page(uow: UnitOfWork, *, account_id: str, limit: int | None, cursor: str | None
               ) -> tuple[list[Table], str | None]:
    """A page of the account's courts in creation order (the board's list envelope): read from an index, so a page
    costs its own courts however many the account has (issue 42). A cursor that is not a creation `seq` (one of
    another list) pages as `paginate` would, over every table."""
    after = None if cursor is None else decode_key(cursor)
    if after is not None and not isinstance(after, int):
        return paginate(uow.tables.find(account_id=account_id), seq=lambda t: t.seq, limit=limit, cursor=cursor)
    size = limit or DEFAULT_LIMIT
    found = uow.tables.account_page(account_id, after_seq=after, limit=size + 1)
    page = found[:size]
    return page, encode_cursor(page[-1].seq) if len(found) > size else None


class Board:
    """Presents courts of one account at one moment; history and players on court are read once."""

    def __init__(self, uow: UnitOfWork, *, account_id: str, now: datetime, default_minutes: float | None,
                 estimates: bool = True) -> None:
        self.uow = uow
        self.reader = Reader(uow)
        self.estimator = Estimator(uow, now=now, default_minutes=default_minutes) if estimates else None
        self.availability = Availability(uow, account_id=account_id, now=now)
        self.now = now
        self._labels: dict[str, str] = {}
        self._broadcasts: dict[str, Broadcast | None] = {}
        self._pools: dict[str, list[Match]] = {}

    def _label(self, table_id: str) -> str:
        if table_id not in self._labels:
            table = self.uow.tables.get(table_id)
            self._labels[table_id] = table.label if table else table_id
        return self._labels[table_id]

    def court(self, table: Table) -> dict[str, Any]:
        """The operator table read of one court."""
        active = active_match(self.uow, table.id)
        queue = self.uow.matches.queue(table.id)
        court = self.reader.court(table, active=active, queue=queue)
        court["managerConnectionID"] = table.manager_connection_id
        players = court_player_list(self.uow, table)
        court["courtPlayerListID"] = players.id if players else None
        if active is not None and court["activeMatch"] is not None:
            court["activeMatch"]["devicesScoring"] = devices_scoring(active, self.now)
        for match, read in zip(queue, court["queue"], strict=True):
            busy = self.availability.busy(match)
            read["busyPlayers"] = [
                {"name": read.get(side, side), "tableID": table_id, "tableLabel": self._label(table_id)}
                for side, table_id in busy
            ]
            blocks = self.availability.blocks(match, busy=busy)
            read["blockedBy"] = blocks[0].view() if blocks else None
            read["blockedByAll"] = [block.view() for block in blocks]
        if self.estimator is None:
            return court
        times = self.estimator.court(table, active=active, queue=queue)
        if court["activeMatch"] is not None and times.expected_end is not None:
            court["activeMatch"]["expectedEndOn"] = iso(times.expected_end)
        for match, read in zip(queue, court["queue"], strict=True):
            read["estimatedStartOn"] = iso(times.starts[match.id])
        court["typicalMinutes"] = round(times.typical.total_seconds() / 60, 1)
        court["attention"] = None if times.attention is None else times.attention.value
        broadcast = self._broadcast(table.broadcast_id)
        if broadcast is not None and broadcast.planned:
            late = plan_live.court_delay(broadcast, table.id, free_at=times.expected_end,
                                         upcoming=[*queue, *self._pool(broadcast)])
            court["lateMinutes"] = late
            court["late"] = plan_live.late_text(table.label, late)
        return court

    def _broadcast(self, broadcast_id: str) -> Broadcast | None:
        if broadcast_id not in self._broadcasts:
            self._broadcasts[broadcast_id] = self.uow.broadcasts.get(broadcast_id)
        return self._broadcasts[broadcast_id]

    def _pool(self, broadcast: Broadcast) -> list[Match]:
        """The broadcast's court pool, read once (its matches may be planned for this court)."""
        if broadcast.id not in self._pools:
            self._pools[broadcast.id] = draw_pool.pool_matches(self.uow, account_id=broadcast.account_id,
                                                                broadcast_id=broadcast.id)
        return self._pools[broadcast.id]
