"""Broadcasts and their courts. Each court is a `Table` managed by the broadcast's manager connection.

Broadcasts belong to the account: every connection of it lists and changes them (contract §4). Supplying
`tables` replaces the whole court configuration: courts named by `id` are kept (relabelled, re-pointed), courts
without `id` are created, omitted courts are removed. Decisions (documented in docs/partner-quickstart.md):
- an `id` that is not a court of this broadcast is `404 not_found` (`details.tableIDs`): the body names a
  resource that does not exist there, like an unknown list or table elsewhere; naming one court twice is
  `400 validation_failed`;
- removing a court (or deleting the broadcast) while a match is active on it is `409 table_busy`, nothing
  changed; pending matches queued on a removed court are cancelled with it; completed ones stay as history;
- `defaultPlayerListID` must name a roster-backed player list of the account, else `404 not_found`;
- a court shows its own `scoreboardIDs`, else the broadcast's `scoreboardIDs`, else `defaultScoreboardID`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from domain.access import audit
from domain.access.audit_records import AuditAction, TargetType
from domain.access.auth import house_connection
from domain.clock import iso
from domain.commands import UNSET, changed_fields, given
from domain.errors import Conflict, Forbidden, Invalid, NotFound
from domain.ids import new_id
from domain.match import reports, scoring
from domain.match.scoring import Scoring
from domain.models import POOL, Broadcast, Match, MatchStatus, ScoringSource, Table
from domain.names import stored_name
from domain.pagination import paginate
from domain.plan import settings as plan_settings
from domain.ports import UnitOfWork
from domain.public import links, outputs


@dataclass(frozen=True)
class Court:
    """One court of a broadcast's configuration: `id` keeps an existing court, none creates one."""

    label: str
    id: str | None = None
    scoreboard_ids: list[str] | None = None


@dataclass(frozen=True)
class NewBroadcast:
    """A validated create body; `manager_connection_id` is the connection that will manage its courts."""

    name: str
    tables: list[Court]
    description: str | None = None
    default_player_list_id: str | None = None
    default_scoreboard_id: str | None = None
    scoreboard_ids: list[str] | None = None
    manager_connection_id: str | None = None
    scoring: Scoring | None = None  # the default format of its matches (contract §18); None: the server's


@dataclass(frozen=True)
class BroadcastChange:
    """A validated patch body: `UNSET` keeps a field, `None` clears an optional one; `tables` replaces them all."""

    name: str = UNSET
    description: str | None = UNSET
    default_player_list_id: str | None = UNSET
    default_scoreboard_id: str | None = UNSET
    scoreboard_ids: list[str] | None = UNSET
    tables: list[Court] = UNSET
    require_check_in: bool = UNSET  # event day (contract §14), operator only
    rest_minutes: int = UNSET
    self_check_in: bool = UNSET  # players' own links (contract §21)
    self_report: bool = UNSET
    self_report_confirm_minutes: int = UNSET
    scoring: Scoring | None = UNSET  # None: back to the server's format
    plan: dict[str, Any] = UNSET  # the order of play's settings (contract §20), replaced whole


def event_day(broadcast: Broadcast) -> dict[str, Any]:
    """The broadcast's event-day settings as the operator read shows them (contract §14, §21)."""
    return {"requireCheckIn": broadcast.require_check_in, "restMinutes": broadcast.rest_minutes,
            "selfCheckIn": broadcast.self_check_in, "selfReport": broadcast.self_report,
            "selfReportConfirmMinutes": broadcast.self_report_confirm_minutes}


def get_broadcast(uow: UnitOfWork, *, account_id: str, broadcast_id: str) -> Broadcast:
    broadcast = uow.broadcasts.get(broadcast_id)
    if broadcast is None or broadcast.account_id != account_id:
        raise NotFound(f"No broadcast '{broadcast_id}'.")
    return broadcast


def _check_default_list(uow: UnitOfWork, *, account_id: str, list_id: str | None) -> None:
    if list_id is None:
        return
    found = uow.player_lists.get(list_id)
    if found is None or found.account_id != account_id or found.roster_id is None:
        raise NotFound(f"No roster-backed player list '{list_id}'.")


def _check_connection(uow: UnitOfWork, *, account_id: str, connection_id: str) -> None:
    connection = uow.connections.get(connection_id)
    if connection is None or connection.account_id != account_id or connection.revoked_on is not None:
        raise NotFound(f"No active connection '{connection_id}'.")


def court_scoreboards(broadcast: Broadcast, table: Table) -> list[str]:
    """The scoreboards a court shows: its own, else the broadcast's, else the broadcast's default one."""
    if table.scoreboard_ids:
        return list(table.scoreboard_ids)
    if broadcast.scoreboard_ids:
        return list(broadcast.scoreboard_ids)
    return [broadcast.default_scoreboard_id] if broadcast.default_scoreboard_id else []


#: Told of each pending match a removed court takes with it, before it goes (the operator's removals emit
#: `match.cancelled`, contract §23: `domain.partner.cancellations`).
Cancelled = Callable[[Match], None] | None


def _clear_court(uow: UnitOfWork, table: Table, cancelled: Cancelled = None, *, now: datetime) -> None:
    """Remove a court: 409 `table_busy` while a match is active on it; its pending queue goes with it."""
    matches = uow.matches.find(table_id=table.id)
    if any(match.status == MatchStatus.ACTIVE for match in matches):
        raise Conflict(f"Court '{table.label}' has an active match.", code="table_busy",
                       details={"tableID": table.id})
    for match in matches:
        if match.status == MatchStatus.PENDING:
            if cancelled is not None:
                cancelled(match)
            reports.cancel_reports(uow, match, now=now)
            uow.matches.delete(match.id)
    _close_link(uow, f"scorer:{table.id}")
    uow.tables.delete(table.id)


def _close_link(uow: UnitOfWork, link_id: str) -> None:
    """A removed court's scorer link or a deleted broadcast's event page link goes with it (§8a: closed at once,
    as a rotation closes it): the links table's write refuses every kept snapshot of its page at once, and no
    link is left that names nothing (one could not be closed any more)."""
    if uow.links.get(link_id) is not None:
        uow.links.delete(link_id)


def _configure_courts(uow: UnitOfWork, broadcast: Broadcast, courts: Sequence[Court], *, now: datetime,
                      cancelled: Cancelled = None) -> None:
    """Replace the court configuration (see the module docstring)."""
    current = {table_id: uow.tables.get(table_id) for table_id in broadcast.table_ids}
    named = [court.id for court in courts if court.id is not None]
    unknown = [court_id for court_id in named if court_id not in current]
    if unknown:
        raise NotFound(f"No court '{unknown[0]}' in this broadcast.", details={"tableIDs": unknown})
    twice = sorted({court_id for court_id in named if named.count(court_id) > 1})
    if twice:
        raise Invalid("Each court may be named only once.", details={"json": {"tables": {"id": twice}}})
    for table_id, table in current.items():
        if table is not None and table_id not in named:
            _clear_court(uow, table, cancelled, now=now)
    table_ids = []
    for court in courts:
        table = current.get(court.id or "") or Table(
            id=new_id("tbl"), account_id=broadcast.account_id, broadcast_id=broadcast.id, label=court.label,
            created_on=iso(now), updated_on=iso(now), manager_connection_id=broadcast.manager_connection_id,
            internal_id=new_id("int"), dynamic_url_id=new_id("dyn"),
        )
        table.label, table.scoreboard_ids, table.updated_on = court.label, court.scoreboard_ids, iso(now)
        table_ids.append(uow.tables.put(table).id)
    broadcast.table_ids = table_ids


def _refresh_output_links(uow: UnitOfWork, broadcast: Broadcast, *, now: datetime) -> None:
    """One managed output link per court output and one venue display (contract §10; never in partner reads)."""
    courts = [(table, court_scoreboards(broadcast, table)) for table in _tables(uow, broadcast)]
    outputs.sync_outputs(uow, broadcast=broadcast, courts=courts, now=now)


def _tables(uow: UnitOfWork, broadcast: Broadcast) -> list[Table]:
    return [table for table in (uow.tables.get(tid) for tid in broadcast.table_ids) if table is not None]


#: The event day's settings (contract §14): audited as `broadcast.event_settings_changed`, apart from the rest.
EVENT_SETTINGS = ("requireCheckIn", "restMinutes", "selfCheckIn", "selfReport", "selfReportConfirmMinutes")


def _audited(uow: UnitOfWork, broadcast: Broadcast) -> dict[str, Any]:
    """What the audit log keeps of a broadcast: its fields and its courts (id, label, scoreboards, list)."""
    courts = [{"id": t.id, "label": t.label, "scoreboardIDs": t.scoreboard_ids,
               "playerListExternalID": t.player_list_external_id} for t in _tables(uow, broadcast)]
    return {**audit.snapshot(broadcast), "courts": courts}


def create_broadcast(uow: UnitOfWork, *, account_id: str, new: NewBroadcast, now: datetime) -> Broadcast:
    """A broadcast with 1-50 courts, managed by `new.manager_connection_id` (the creating connection)."""
    _check_default_list(uow, account_id=account_id, list_id=new.default_player_list_id)
    if new.manager_connection_id is not None:
        _check_connection(uow, account_id=account_id, connection_id=new.manager_connection_id)
    broadcast = Broadcast(
        id=new_id("brd"), account_id=account_id, name=stored_name(new.name), table_ids=[], created_on=iso(now),
        updated_on=iso(now), manager_connection_id=new.manager_connection_id, description=new.description,
        default_player_list_id=new.default_player_list_id, default_scoreboard_id=new.default_scoreboard_id,
        scoreboard_ids=new.scoreboard_ids, scoring=new.scoring.json() if new.scoring else None,
        scoring_name=new.scoring.name if new.scoring else None,
    )
    _configure_courts(uow, broadcast, new.tables, now=now)
    _refresh_output_links(uow, broadcast, now=now)
    stored = uow.broadcasts.put(broadcast)
    audit.record(uow, account_id=account_id, action=AuditAction.BROADCAST_CREATED,
                 target=(TargetType.BROADCAST, broadcast.id), after=_audited(uow, stored), now=now)
    return stored


def operator_create_broadcast(uow: UnitOfWork, *, account_id: str, new: NewBroadcast, now: datetime) -> Broadcast:
    """The operator's broadcast: managed by `new.manager_connection_id`, else by the house connection (§9)."""
    if new.manager_connection_id is None:
        new = replace(new, manager_connection_id=house_connection(uow, account_id=account_id, now=now).id)
    return create_broadcast(uow, account_id=account_id, new=new, now=now)


def _require_manager(broadcast: Broadcast, connection_id: str | None, doing: str) -> None:
    """Courts (and with them queued matches) change only through the managing connection, or the operator (None)."""
    if connection_id is not None and broadcast.manager_connection_id != connection_id:
        raise Forbidden(f"Only the connection that manages broadcast '{broadcast.id}' may {doing}.",
                        code="table_not_managed")


def _follow_format(uow: UnitOfWork, broadcast: Broadcast, server: Scoring, *, now: datetime) -> None:
    """The broadcast's pending matches that take its format (none of their own or their draw's) follow a change
    of it (contract §18); a started match keeps the format it started with."""
    resolved = scoring.resolve(own=None, draw=None, server=server, broadcast=scoring.of_broadcast_record(broadcast))
    pending = [m for table_id in broadcast.table_ids for m in uow.matches.queue(table_id)]
    for record in uow.draws.find(account_id=broadcast.account_id, broadcast_id=broadcast.id):
        pending += [m for m in uow.matches.find(draw_id=record.id, status=MatchStatus.PENDING) if m.table_id == POOL]
    for match in pending:
        if match.scoring_source in (ScoringSource.MATCH, ScoringSource.DRAW):
            continue
        scoring.assign(match, resolved)
        match.updated_on = iso(now)
        uow.matches.put(match)


def patch_broadcast(
    uow: UnitOfWork, *, account_id: str, broadcast_id: str, change: BroadcastChange, now: datetime,
    server: Scoring, connection_id: str | None = None, cancelled: Cancelled = None,
) -> Broadcast:
    """Change any of the write fields (at least one); `null` clears an optional one. `server` is the server's
    format, which the pending matches take when `scoring` is cleared.

    `connection_id` is the calling partner connection (None for the operator): changing `tables` needs the
    managing connection (contract §4), the other fields any connection of the account.
    """
    if not changed_fields(change):
        raise Invalid("Give at least one property to change.")
    broadcast = get_broadcast(uow, account_id=account_id, broadcast_id=broadcast_id)
    if given(change.tables):
        _require_manager(broadcast, connection_id, "change its tables")
    audited_before = _audited(uow, broadcast)
    if given(change.default_player_list_id):
        _check_default_list(uow, account_id=account_id, list_id=change.default_player_list_id)
        broadcast.default_player_list_id = change.default_player_list_id
    if given(change.name):
        broadcast.name = stored_name(change.name)
    if given(change.description):
        broadcast.description = change.description
    if given(change.default_scoreboard_id):
        broadcast.default_scoreboard_id = change.default_scoreboard_id
    if given(change.scoreboard_ids):
        broadcast.scoreboard_ids = change.scoreboard_ids
    if given(change.tables):
        _configure_courts(uow, broadcast, change.tables, now=now, cancelled=cancelled)
    if given(change.plan):
        draw_ids = {d.id for d in uow.draws.find(account_id=account_id, broadcast_id=broadcast.id)}
        broadcast.plan = plan_settings.checked(change.plan, broadcast=broadcast, draw_ids=draw_ids)
        plan_settings.note_published(broadcast)
    settings_before = event_day(broadcast)
    if given(change.require_check_in):
        broadcast.require_check_in = change.require_check_in
    if given(change.rest_minutes):
        broadcast.rest_minutes = change.rest_minutes
    if given(change.self_check_in):
        broadcast.self_check_in = change.self_check_in
    if given(change.self_report):
        broadcast.self_report = change.self_report
    if given(change.self_report_confirm_minutes):
        broadcast.self_report_confirm_minutes = change.self_report_confirm_minutes
    if given(change.scoring):
        broadcast.scoring = change.scoring.json() if change.scoring else None
        broadcast.scoring_name = change.scoring.name if change.scoring else None
        _follow_format(uow, broadcast, server, now=now)
    _refresh_output_links(uow, broadcast, now=now)
    broadcast.updated_on = iso(now)
    stored = uow.broadcasts.put(broadcast)
    settings_after = event_day(broadcast)
    if settings_after != settings_before:  # the event day's settings (contract §14): their own entry
        audit.record(uow, account_id=account_id, action=AuditAction.BROADCAST_EVENT_SETTINGS_CHANGED,
                     target=(TargetType.BROADCAST, broadcast.id), before=settings_before, after=settings_after, now=now)
    rest_before, rest_after = ({k: v for k, v in fields.items() if k not in (*EVENT_SETTINGS, "updatedOn")}
                               for fields in (audited_before, _audited(uow, stored)))
    if rest_before != rest_after:  # the broadcast and its courts (§16, with §18-§22)
        audit.record(uow, account_id=account_id, action=AuditAction.BROADCAST_CHANGED,
                     target=(TargetType.BROADCAST, broadcast.id), before=rest_before, after=rest_after, now=now)
    return stored


def delete_broadcast(
    uow: UnitOfWork, *, account_id: str, broadcast_id: str, now: datetime, connection_id: str | None = None,
    cancelled: Cancelled = None,
) -> Broadcast:
    """Delete the broadcast, its courts and its managed output links (409 `table_busy` if a court is in play).

    A partner connection (`connection_id`) must manage it (403 `table_not_managed`); the operator passes None.
    """
    broadcast = get_broadcast(uow, account_id=account_id, broadcast_id=broadcast_id)
    _require_manager(broadcast, connection_id, "delete it")
    audit.record(uow, account_id=account_id, action=AuditAction.BROADCAST_DELETED,
                 target=(TargetType.BROADCAST, broadcast.id), before=_audited(uow, broadcast), now=now)
    for table in _tables(uow, broadcast):
        _clear_court(uow, table, cancelled, now=now)
    links.close_broadcast_links(uow, account_id=broadcast.account_id, broadcast_id=broadcast.id)
    outputs.delete_outputs(uow, broadcast_id=broadcast.id)
    for report in uow.player_reports.find(broadcast_id=broadcast.id):  # players' reports and mail (§21) go with it
        uow.player_reports.delete(report.id)
    for message in uow.mail.find(broadcast_id=broadcast.id):
        uow.mail.delete(message.id)
    uow.broadcasts.delete(broadcast.id)
    return broadcast


@dataclass(frozen=True)
class BroadcastHandover:
    """A validated handover body: the connection that manages the broadcast's courts from now on."""

    connection_id: str


def hand_over(
    uow: UnitOfWork, *, account_id: str, broadcast_id: str, handover: BroadcastHandover, now: datetime
) -> Broadcast:
    """Operator: the broadcast's courts are now managed by `handover.connection_id` (an active connection).

    A court's player-list assignment named the previous manager's list, so it is cleared on a change of hands.
    """
    connection_id = handover.connection_id
    _check_connection(uow, account_id=account_id, connection_id=connection_id)
    broadcast = get_broadcast(uow, account_id=account_id, broadcast_id=broadcast_id)
    audit.record(uow, account_id=account_id, action=AuditAction.BROADCAST_HANDED_OVER,
                 target=(TargetType.BROADCAST, broadcast.id),
                 before={"managerConnectionID": broadcast.manager_connection_id},
                 after={"managerConnectionID": connection_id}, now=now)
    for table in _tables(uow, broadcast):
        if table.manager_connection_id != connection_id:
            table.manager_connection_id, table.player_list_external_id = connection_id, None
            table.updated_on = iso(now)
            uow.tables.put(table)
    broadcast.manager_connection_id, broadcast.updated_on = connection_id, iso(now)
    return uow.broadcasts.put(broadcast)


def list_broadcasts(
    uow: UnitOfWork, *, account_id: str, limit: int | None, cursor: str | None
) -> tuple[list[Broadcast], str | None]:
    return paginate(uow.broadcasts.find(account_id=account_id), seq=lambda item: item.seq, limit=limit,
                    cursor=cursor)


