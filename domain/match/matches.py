"""Scheduled matches: partner sync, move and cancel over court queues; the operator's live scoring lifecycle.

States: pending -> active -> completed. Only pending matches change through the partner API; active and
completed ones are locked (`409 match_locked`). Every service checks everything before it writes, so a
failure (caught per item by bulk operations) leaves nothing behind.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any, TypeVar

from domain.access import audit
from domain.access.audit_records import AuditAction, TargetType
from domain.bulk import check_unique
from domain.clock import iso
from domain.draws import hooks as draw_hooks
from domain.draws import pool as draw_pool
from domain.errors import Conflict, Forbidden, Invalid, NotFound
from domain.event_day.availability import Availability
from domain.events import record_event
from domain.ids import new_id
from domain.match import reports, scorers, scoring
from domain.match.formats import copy_item
from domain.match.scoring import SERVER_DEFAULT, Scoring
from domain.models import POOL, BlockReason, EventType, Match, MatchResultType, MatchStatus, Side, Table
from domain.pagination import paginate
from domain.partner import queues
from domain.partner.cancellations import match_cancelled
from domain.partner.queues import SIDES
from domain.plan import live as plan_live
from domain.ports import UnitOfWork
from domain.views import Reader

T = TypeVar("T")
R = TypeVar("R")


@dataclass(frozen=True)
class MatchSync:
    """A validated match sync body (PUT/POST /matches, PATCH replacement, one bulk item)."""

    external_id: str
    table_id: str
    player_list_external_id: str
    participants: dict[str, dict[str, str]] = field(default_factory=dict)
    event_name: str | None = None
    match_round: str | None = None
    match_details: str | None = None
    start_time: str | None = None
    best_of: int | None = None
    is_doubles: bool | None = None
    scoring: Scoring | None = None  # the operator's match or import row sets its own format (contract §18)


@dataclass(frozen=True)
class MatchMove:
    """A validated move body (`PATCH /matches/{externalID}` with only `tableID`): the table to queue it on."""

    table_id: str


@dataclass(frozen=True)
class MatchAssignment(MatchMove):
    """One item of `PATCH /matches/bulk`: which match moves to which table."""

    external_id: str


@dataclass(frozen=True)
class Rules:
    """The server's scoring format (settings `scoring`, `points_per_game`, `default_best_of`; contract §18): the
    format of a match whose draw and broadcast set none."""

    scoring: Scoring = SERVER_DEFAULT


# ----------------------------------------------------------------------------------------------- commands
# Validated operator bodies (api/schemas builds them); the services take their typed fields.
@dataclass(frozen=True)
class StartMatch:
    """`POST /operator/matches/{id}/start`: `force` starts it even if a player may not start now."""

    force: bool = False


@dataclass(frozen=True)
class ScoreWrite:
    """`POST /operator/matches/{id}/score`: the game scores (each `{"a", "b"}`), based on `version` if given."""

    game_scores: list[dict[str, int]]
    op_id: str | None = None
    reason: str | None = None
    version: int | None = None
    confirm_draw_change: bool = False


@dataclass(frozen=True)
class Completion:
    """`POST /operator/matches/{id}/complete`: optionally the final game scores."""

    game_scores: list[dict[str, int]] | None = None


@dataclass(frozen=True)
class OperatorMove:
    """`POST /operator/matches/{id}/move`: the destination table (None: back to a draw's court pool)."""

    table_id: str | None


@dataclass(frozen=True)
class QueueOrder:
    """`PUT /operator/tables/{id}/queue`: the table's pending matches in their new order."""

    match_ids: list[str]


# ----------------------------------------------------------------------------------------------- lookups
def managed_table(uow: UnitOfWork, *, account_id: str, table_id: str, connection_id: str | None) -> Table:
    """The table, if it exists in the account (404) and the caller manages it (403); operator: None."""
    table = uow.tables.get(table_id)
    if table is None or table.account_id != account_id:
        raise NotFound(f"No table with ID '{table_id}'.")
    if connection_id is not None and table.manager_connection_id != connection_id:
        raise Forbidden(f"Table '{table_id}' is not managed by this connection.", code="table_not_managed")
    return table


def find_match(uow: UnitOfWork, *, connection_id: str, external_id: str) -> Match:
    """The connection's match with this externalID (404 for unknown, cancelled or another connection's)."""
    found = uow.matches.find(external_id=external_id, connection_id=connection_id)
    if not found:
        raise NotFound(f"No match with externalID '{external_id}'.")
    return found[0]


def get_match(uow: UnitOfWork, *, account_id: str, match_id: str) -> Match:
    """A match of the account by its `id` (operator routes)."""
    match = uow.matches.get(match_id)
    if match is None or match.account_id != account_id:
        raise NotFound(f"No match with ID '{match_id}'.")
    return match


def _require_pending(match: Match) -> None:
    if match.status != MatchStatus.PENDING:
        raise Conflict(
            f"Match '{match.external_id}' is {match.status} and locked; it cannot be changed.", code="match_locked"
        )


class QueueEnds:
    """Hands out the next `queue_order` at the end of each table's queue.

    The end of each table's queue is looked up once per instance (in the queue's ordered index); bulk
    operations share one instance across their items (one unit of work).
    """

    def __init__(self, uow: UnitOfWork) -> None:
        self._uow = uow
        self._last: dict[str, int] = {}

    def append(self, table_id: str) -> int:
        if table_id not in self._last:
            last = self._uow.matches.queue_last(table_id)
            self._last[table_id] = last.queue_order if last is not None else 0
        self._last[table_id] += 1
        return self._last[table_id]


# ----------------------------------------------------------------------------------------------- partner
def _check_players(uow: UnitOfWork, *, connection_id: str, sync: MatchSync) -> None:
    found = uow.player_lists.find(external_id=sync.player_list_external_id, connection_id=connection_id)
    if not found:
        raise NotFound(f"No player list with externalID '{sync.player_list_external_id}'.")
    known = {p.get("externalID") for p in found[0].players if p.get("externalID")}
    unknown = {
        side: [f"Player '{ref['externalID']}' is not in player list '{sync.player_list_external_id}'."]
        for side, ref in sync.participants.items() if ref.get("externalID") and ref["externalID"] not in known
    }
    if unknown:
        raise Invalid("A player is not in the match's player list.", code="unknown_player", details=unknown)


def sync_match(
    uow: UnitOfWork, *, account_id: str, connection_id: str, sync: MatchSync, now: datetime, rules: Rules,
    ends: QueueEnds | None = None,
) -> Match:
    """Create a pending match at the end of its table's queue, or replace the pending one with this externalID.

    A replacement keeps its queue position unless `tableID` changes (then it goes to the end of that queue); one
    that restates the match as it is changes nothing (`updatedOn` kept, no entry) and answers it.
    """
    existing = uow.matches.find(external_id=sync.external_id, connection_id=connection_id)
    current = existing[0] if existing else None
    if current is not None:
        _require_pending(current)
    managed_table(uow, account_id=account_id, table_id=sync.table_id, connection_id=connection_id)
    _check_players(uow, connection_id=connection_id, sync=sync)
    stamp = iso(now)
    if current is not None and current.table_id == sync.table_id:
        queue_order, scheduled_on = current.queue_order, current.scheduled_on
    else:
        queue_order, scheduled_on = (ends or QueueEnds(uow)).append(sync.table_id), stamp
    match = Match(
        id=current.id if current else new_id("mat"),
        scheduled_match_id=current.scheduled_match_id if current else new_id("sm"),
        account_id=account_id, connection_id=connection_id, external_id=sync.external_id,
        table_id=sync.table_id, player_list_external_id=sync.player_list_external_id, status=MatchStatus.PENDING,
        queue_order=queue_order, scheduled_on=scheduled_on,
        created_on=current.created_on if current else stamp, updated_on=stamp,
        participants={side: dict(sync.participants[side]) for side in SIDES if side in sync.participants},
        event_name=sync.event_name, match_round=sync.match_round, match_details=sync.match_details,
        start_time=sync.start_time, best_of=sync.best_of, is_doubles=sync.is_doubles,
        seq=current.seq if current else 0,
    )
    scoring.assign(match, scoring.scoring_for(uow, table_id=sync.table_id, record=None, own=None,
                                              server=rules.scoring))
    scoring.check_best_of(match)
    if current is not None and match == dataclasses.replace(current, updated_on=stamp):
        return current
    stored = uow.matches.put(match)
    audit.record(uow, account_id=account_id, action=AuditAction.MATCH_SYNCED, target=(TargetType.MATCH, stored.id),
                 before=current, after=stored, now=now)
    return stored


def _move(uow: UnitOfWork, match: Match, table: Table, now: datetime, ends: QueueEnds | None) -> Match:
    _require_pending(match)
    if match.table_id == table.id:
        return match  # already there: success, position unchanged
    before = dataclasses.replace(match)
    match.queue_order = (ends or QueueEnds(uow)).append(table.id)
    match.table_id = table.id
    match.scheduled_on = match.updated_on = iso(now)
    moved = uow.matches.put(match)
    audit.record(uow, account_id=match.account_id, action=AuditAction.MATCH_MOVED, target=(TargetType.MATCH, match.id),
                 before=before, after=moved, now=now)
    return moved


def move_match(
    uow: UnitOfWork, *, account_id: str, connection_id: str, external_id: str, table_id: str, now: datetime,
    ends: QueueEnds | None = None,
) -> Match:
    """Move the connection's pending match to the end of a table it manages."""
    match = find_match(uow, connection_id=connection_id, external_id=external_id)
    _require_pending(match)
    table = managed_table(uow, account_id=account_id, table_id=table_id, connection_id=connection_id)
    return _move(uow, match, table, now, ends)


def _cancel(uow: UnitOfWork, match: Match, now: datetime, *, by_operator: bool = False) -> Match:
    _require_pending(match)
    if by_operator:
        match_cancelled(uow, match, now=now)
    reports.cancel_reports(uow, match, now=now)
    uow.matches.delete(match.id)
    audit.record(uow, account_id=match.account_id, action=AuditAction.MATCH_CANCELLED,
                 target=(TargetType.MATCH, match.id), before=match, now=now)
    return match


def cancel_draw_match(uow: UnitOfWork, match: Match, *, now: datetime) -> Match:
    """Cancel a pending match of a draw being deleted (contract §13)."""
    return _cancel(uow, match, now)


def remove_undone_walkover(uow: UnitOfWork, match: Match, *, now: datetime) -> Match:
    """Remove the real match of a draw's walkover that a replacement undid (contract §22): the walkover is no
    result any more (it leaves the results, their CSV and print); the audit log keeps it (`match.cancelled`)."""
    uow.matches.delete(match.id)
    audit.record(uow, account_id=match.account_id, action=AuditAction.MATCH_CANCELLED,
                 target=(TargetType.MATCH, match.id), before=match, now=now)
    return match


def cancel_match(uow: UnitOfWork, *, connection_id: str, external_id: str, now: datetime) -> Match:
    """Cancel (remove) the connection's pending match."""
    return _cancel(uow, find_match(uow, connection_id=connection_id, external_id=external_id), now)


def list_matches(
    uow: UnitOfWork, *, connection_id: str, limit: int | None, cursor: str | None,
) -> tuple[list[Match], str | None]:
    """The connection's matches in creation order, one page."""
    return paginate(uow.matches.find(connection_id=connection_id), seq=lambda m: m.seq, limit=limit, cursor=cursor)


def account_matches(
    uow: UnitOfWork, *, account_id: str, status: str | None, table_id: str | None, limit: int | None,
    cursor: str | None, draw_id: str | None = None,
) -> tuple[list[Match], str | None]:
    """Every connection's matches on the account (operator view), optionally one status, table or draw, newest
    first."""
    equals: dict[str, str] = {"account_id": account_id}
    if status is not None:
        equals["status"] = status
    if table_id is not None:
        equals["table_id"] = table_id
    if draw_id is not None:
        equals["draw_id"] = draw_id
    found = sorted(uow.matches.find(**equals), key=lambda m: m.seq, reverse=True)
    return paginate(found, seq=lambda m: m.seq, limit=limit, cursor=cursor, newest_first=True)


# ----------------------------------------------------------------------------------------------- operator
def _emit(uow: UnitOfWork, match: Match, event_type: EventType, now: datetime, rules: Rules, **extra: Any) -> None:
    data = {"match": Reader(uow).read(match)} | extra
    record_event(uow, account_id=match.account_id, connection_id=match.connection_id, event_type=event_type,
                 data=data, now=now)


def announce_reset(uow: UnitOfWork, match: Match, *, previous: dict[str, Any], now: datetime) -> None:
    """`match.reset` (contract §23, opt-in): the match was stopped back to pending, or an undo reopened a finished
    game or set; `data` is the match read after and `previous`, its read before."""
    record_event(uow, account_id=match.account_id, connection_id=match.connection_id,
                 event_type=EventType.MATCH_RESET, data={"match": Reader(uow).read(match), "previous": previous},
                 now=now)


def start_match(
    uow: UnitOfWork, *, account_id: str, match_id: str, now: datetime, rules: Rules, force: bool = False,
) -> Match:
    """pending -> active; a table plays one match at a time (`409 table_busy`). Emits `match.started`.

    With `force=False` a match that may not start now is refused with the reason of contract §14: `player_busy`
    (naming the players and tables), `player_resting` (until when), `not_checked_in`, `not_before`.
    """
    match = get_match(uow, account_id=account_id, match_id=match_id)
    if match.status != MatchStatus.PENDING:
        raise Conflict(f"Match '{match_id}' is {match.status}, not pending.", code="match_not_pending")
    if match.table_id == POOL:
        raise Conflict(f"Match '{match_id}' waits in the court pool: move it to a table, or start-next a table.",
                       code="match_in_pool")
    _require_free_table(uow, match.table_id)
    if not force:
        block = Availability(uow, account_id=account_id, now=now).block(match)
        if block is not None:
            raise Conflict(block.message(), code=block.reason, details=block.details())
    return _start(uow, match, now=now, rules=rules)


def _require_free_table(uow: UnitOfWork, table_id: str) -> None:
    in_play = uow.matches.find(table_id=table_id, status=MatchStatus.ACTIVE)
    if in_play:
        raise Conflict(f"Table '{table_id}' is already playing match '{in_play[0].id}'.", code="table_busy")


def next_candidates(uow: UnitOfWork, table_id: str) -> list[Match]:
    """A table's waiting matches in the order start-next tries them: called ones first (earliest call first),
    then the queue in order (contract §14)."""
    queue = uow.matches.queue(table_id)
    called = sorted((m for m in queue if m.called_on), key=lambda m: m.called_on or "")
    return called + [m for m in queue if not m.called_on]


def start_candidates(uow: UnitOfWork, table: Table, *, now: datetime) -> list[Match]:
    """Every match start-next may take on the table, in the order it tries them: the table's own (called first),
    then the court pool's this court may use, as the order of play orders them (§13, §14, §20)."""
    return plan_live.follow_plan(uow.broadcasts.get(table.broadcast_id), table.id,
                                 next_candidates(uow, table.id) + draw_pool.pool_for_table(uow, table), now=now)


def up_next(uow: UnitOfWork, table: Table, *, now: datetime) -> Match | None:
    """The match start-next would start on the table now (the phone's "Up next", issue 51): the first candidate
    nothing holds back; when every one waits, the first candidate (it is the next once its wait is over)."""
    candidates = start_candidates(uow, table, now=now)
    availability = Availability(uow, account_id=table.account_id, now=now)
    return next((m for m in candidates if availability.block(m) is None), candidates[0] if candidates else None)


def start_next(uow: UnitOfWork, *, account_id: str, table_id: str, now: datetime, rules: Rules) -> Match:
    """Start the first waiting match of a table that may start now (contract §9, §14), preferring a called one.

    None may: `409 all_players_busy` when every one waits for a busy player, else `409 nothing_startable`; both
    with `details.skipped` (`matchID`, `reason`, `players`, `until`?)."""
    table = uow.tables.get(table_id)
    if table is None or table.account_id != account_id:
        raise NotFound(f"No table '{table_id}'.")
    _require_free_table(uow, table_id)
    candidates = start_candidates(uow, table, now=now)
    if not candidates:
        raise Conflict(f"No match is waiting on table '{table_id}' or in the court pool.", code="queue_empty")
    availability = Availability(uow, account_id=account_id, now=now)
    skipped: list[dict[str, Any]] = []
    for match in candidates:
        block = availability.block(match)
        if block is None:
            if match.table_id == POOL:  # the table's own queue came first; a pool match takes this table
                match.table_id = table_id
            return _start(uow, match, now=now, rules=rules)
        skipped.append({"matchID": match.id} | block.view())
    if all(skip["reason"] == BlockReason.PLAYER_BUSY for skip in skipped):
        raise Conflict("Every waiting match has a player still playing on another table.", code="all_players_busy",
                       details={"skipped": skipped})
    raise Conflict("No waiting match may start now: see why each was skipped.", code="nothing_startable",
                   details={"skipped": skipped})


def _start(uow: UnitOfWork, match: Match, *, now: datetime, rules: Rules, on_server: bool = True) -> Match:
    before = dataclasses.replace(match)
    match.status = MatchStatus.ACTIVE
    match.updated_on = iso(now)
    if on_server:  # a result typed in from paper was played elsewhere: no start time, no duration (§19)
        match.started_on = match.updated_on
    match.score_version += 1
    match = uow.matches.put(match)
    draw_hooks.on_started(uow, match, now=now)
    _emit(uow, match, EventType.MATCH_STARTED, now, rules)
    if on_server:  # a typed-in result writes its one entry, match.result_entered, when it completes
        audit.record(uow, account_id=match.account_id, action=AuditAction.MATCH_STARTED,
                     target=(TargetType.MATCH, match.id), before=before, after=match, now=now)
    return match


def check_version(match: Match, version: int | None) -> None:
    """`409 stale_state` when a write names a `scoreVersion` that is not the match's current one (§17)."""
    if version is not None and version != match.score_version:
        raise Conflict(f"The score changed on another device (version {version} is now {match.score_version}); "
                       "nothing was changed.",
                       code="stale_state", details={"matchID": match.id})


def _games(game_scores: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Scores as a match keeps them: each `{"a", "b"}` (and a set's `tiebreak`), nothing else."""
    return [copy_item(g) for g in game_scores]


@dataclass(frozen=True)
class LiveScore:
    """What a point writes beside the items: the points since the last whole score (`log`), the score they were
    played from (`base`, which undo replays them from) and the points of the game in play (sets formats)."""

    log: list[str]
    current: dict[str, int] | None = None
    base: dict[str, Any] | None = None


def score_match(
    uow: UnitOfWork, *, account_id: str, match_id: str, game_scores: list[dict[str, int]], now: datetime,
    rules: Rules, reason: str | None = None, action: AuditAction | None = None, version: int | None = None,
    live: LiveScore | None = None, confirm_draw_change: bool = False, device: str | None = None,
) -> Match:
    """Replace the game scores of an active match (`match.score_updated`), or correct a completed one
    (`match.result_updated` with the previous result; it must stay decided). A correction to the scores the
    match already has changes nothing (no entry, no event, `scoreVersion` and `updatedOn` kept) and answers it.

    `version`, when given, must be the match's `score_version` (else `409 stale_state`, contract §17). A whole
    score written clears the point history undo walks back and the game in play; the point engine
    (`domain.match.points`) passes them as `live`. The audit entry is `match.scored`, or `match.corrected` with the
    `reason` given; `action` names a finer one (a scorer's `match.point`). The writer (the unit of work's actor,
    and the client's own `device` when it names one) is noted among the match's recent scorers ("2 devices
    scoring", §17)."""
    reason = audit.check_reason(reason)
    match = get_match(uow, account_id=account_id, match_id=match_id)
    check_version(match, version)
    if match.status == MatchStatus.PENDING:
        raise Conflict(f"Match '{match_id}' has not started.", code="match_not_active")
    completed = match.status == MatchStatus.COMPLETED
    scoring.check(match, game_scores, final=completed)
    if completed and _games(game_scores) == match.game_scores:
        return match  # a correction to the result it already has changes nothing: no entry, event or version
    previous = {"gameScores": match.game_scores, "score": scoring.won(match)}
    before = dataclasses.replace(match)
    match.game_scores = _games(game_scores)
    match.point_log = list(live.log) if live is not None else []
    match.current_game = live.current if live is not None and live.current != {"a": 0, "b": 0} else None
    match.point_base = live.base if live is not None else None
    writer = f"{uow.actor.kind}:{uow.actor.id}" + (f":{device}" if device else "")
    match.scorers = scorers.noted_scorer(match.scorers, writer, now)
    match.score_version += 1
    match.updated_on = iso(now)
    match = uow.matches.put(match)
    if completed:
        draw_hooks.on_corrected(uow, match, confirm=confirm_draw_change, now=now, server=rules.scoring)
        _emit(uow, match, EventType.MATCH_RESULT_UPDATED, now, rules, previous=previous)
    else:
        _emit(uow, match, EventType.MATCH_SCORE_UPDATED, now, rules)
    audit.record(uow, account_id=account_id,
                 action=action or (AuditAction.MATCH_CORRECTED if completed else AuditAction.MATCH_SCORED),
                 target=(TargetType.MATCH, match.id), before=before, after=match, reason=reason, now=now)
    return match


def complete_match(
    uow: UnitOfWork, *, account_id: str, match_id: str, game_scores: list[dict[str, int]] | None, now: datetime,
    rules: Rules,
) -> Match:
    """active -> completed with a decided result (`409 match_undecided` otherwise). Emits `match.completed`.

    Completing again a match played to its end, with no scores or the ones it has, is answered as it is and
    changes nothing; other scores on a completed match are a correction (`score`), `409 match_not_active` here."""
    match = get_match(uow, account_id=account_id, match_id=match_id)
    if _completed_as(match, game_scores):
        return match
    if match.status != MatchStatus.ACTIVE:
        raise Conflict(f"Match '{match_id}' is {match.status}, not active.", code="match_not_active")
    final = match.game_scores if game_scores is None else _games(game_scores)
    scoring.check(match, final, final=True)
    before = dataclasses.replace(match)
    match.game_scores = final
    return _finish(uow, match, before=before, now=now, rules=rules, action=AuditAction.MATCH_COMPLETED)


def _completed_as(match: Match, game_scores: list[dict[str, int]] | None) -> bool:
    """Whether the match is already completed, played out, with these scores (None: whichever it has)."""
    return (match.status == MatchStatus.COMPLETED and match.result_type is None
            and (game_scores is None or _games(game_scores) == match.game_scores))


class WalkoverReason(StrEnum):
    """Why a match was decided without being played to the end (contract §14)."""

    NO_SHOW = "no_show"
    RETIRED = "retired"
    WITHDRAWN = "withdrawn"
    INJURY = "injury"


@dataclass(frozen=True)
class Walkover:
    """`POST /operator/matches/{id}/walkover`: the winner's side and why the match was not played out."""

    winner_side: Side
    reason: WalkoverReason


def record_walkover(
    uow: UnitOfWork, *, account_id: str, match_id: str, winner_side: str, reason: WalkoverReason, now: datetime,
    rules: Rules,
) -> Match:
    """Complete a pending match as a walkover, or an active one as a retirement (keeping the games played), for
    `winner_side`; no decided score is needed. Emits `match.completed` (contract §14)."""
    match = get_match(uow, account_id=account_id, match_id=match_id)
    if match.status == MatchStatus.COMPLETED:
        raise Conflict(f"Match '{match_id}' is already completed.", code="match_locked")
    before = dataclasses.replace(match)
    walkover = match.status == MatchStatus.PENDING
    match.result_type = MatchResultType.WALKOVER if walkover else MatchResultType.RETIRED
    match.result_reason = str(reason)
    match.winner_side = Side(winner_side)
    return _finish(uow, match, before=before, now=now, rules=rules,
                   action=AuditAction.MATCH_WALKOVER if walkover else AuditAction.MATCH_RETIRED, reason=str(reason))


def _finish(uow: UnitOfWork, match: Match, *, before: Match, now: datetime, rules: Rules,
            action: AuditAction, reason: str | None = None) -> Match:
    """The one way a match becomes completed (played, walkover or retirement): names frozen as played,
    `match.completed` emitted and the audit entry written, in the caller's unit of work."""
    match.status = MatchStatus.COMPLETED
    match.recorded_names = queues.side_names(match, queues.player_list_of(uow, match))  # history stays as played
    match.completed_on = match.updated_on = iso(now)
    match.score_version += 1
    match.point_log, match.current_game, match.point_base = [], None, None
    match = uow.matches.put(match)
    draw_hooks.on_completed(uow, match, now=now, server=rules.scoring)
    _emit(uow, match, EventType.MATCH_COMPLETED, now, rules)
    audit.record(uow, account_id=match.account_id, action=action, target=(TargetType.MATCH, match.id), before=before,
                 after=match, reason=reason, now=now)
    return match


def start_for_entry(uow: UnitOfWork, match: Match, *, now: datetime, rules: Rules) -> Match:
    """A pending match whose result is typed in starts without the §14 rules or a start time (contract §19):
    `match.started` is emitted and its draw match follows, in the caller's unit of work."""
    return _start(uow, match, now=now, rules=rules, on_server=False)


def finish_entered(uow: UnitOfWork, match: Match, *, before: Match, now: datetime, rules: Rules,
                   reason: str | None) -> Match:
    """Complete a match whose result was typed in (contract §19): the `match.result_entered` entry."""
    return _finish(uow, match, before=before, now=now, rules=rules, action=AuditAction.MATCH_RESULT_ENTERED,
                   reason=reason)


def operator_move_match(
    uow: UnitOfWork, *, account_id: str, match_id: str, table_id: str | None, now: datetime,
) -> Match:
    """Move any pending match of the account to the end of any table of the account; a draw's match also back
    into the court pool (`table_id` None, contract §13)."""
    match = get_match(uow, account_id=account_id, match_id=match_id)
    _require_pending(match)
    if table_id is None:
        if not match.draw_id:
            raise Invalid("Only a draw's match goes into the court pool.", details={"json": {"tableID": [
                "null is only for a draw's match"]}})
        before = dataclasses.replace(match)
        match.table_id = POOL
        match.queue_order = draw_pool.pool_order_of(uow, match)
        # back in its place (§13): the pool orders by the time it first became ready, when its real match was made
        match.scheduled_on = match.created_on
        match.updated_on = iso(now)
        match = uow.matches.put(match)
        audit.record(uow, account_id=account_id, action=AuditAction.MATCH_MOVED, target=(TargetType.MATCH, match.id),
                     before=before, after=match, now=now)
        return match
    table = managed_table(uow, account_id=account_id, table_id=table_id, connection_id=None)
    if match.draw_id:
        allowed = draw_pool.allowed_tables(uow, match)
        if allowed is not None and table.id not in allowed:
            raise Invalid(f"Draw match cannot use table '{table.id}' (not in the draw's tableIDs).",
                          details={"json": {"tableID": ["not one of the draw's courts"]}})
    return _move(uow, match, table, now, None)


def call_match(uow: UnitOfWork, *, account_id: str, match_id: str, now: datetime) -> Match:
    """Call a pending match's players to its court (contract §14): `calledOn` is set (again, when called twice)."""
    match = get_match(uow, account_id=account_id, match_id=match_id)
    if match.status != MatchStatus.PENDING:
        raise Conflict(f"Match '{match.id}' is {match.status}; only a pending match is called.",
                       code="match_not_pending")
    before = dataclasses.replace(match)
    match.called_on = match.updated_on = iso(now)
    match = uow.matches.put(match)
    audit.record(uow, account_id=match.account_id, action=AuditAction.MATCH_CALLED, target=(TargetType.MATCH, match.id),
                 before=before, after=match, now=now)
    return match


def operator_cancel_match(uow: UnitOfWork, *, account_id: str, match_id: str, now: datetime) -> Match:
    """Cancel any pending match of the account (not a draw's: withdraw the entry, or delete the draw)."""
    match = get_match(uow, account_id=account_id, match_id=match_id)
    if match.draw_id:
        raise Conflict("A draw's match is not cancelled alone: withdraw an entry, or delete the draw.",
                       code="match_in_draw")
    return _cancel(uow, match, now, by_operator=True)


def reorder_queue(
    uow: UnitOfWork, *, account_id: str, table_id: str, match_ids: list[str], now: datetime,
) -> Table:
    """Put a table's pending matches in the given order; `match_ids` must be exactly those matches."""
    table = managed_table(uow, account_id=account_id, table_id=table_id, connection_id=None)
    check_unique(match_ids, field="matchIDs")
    queue = uow.matches.queue(table.id)
    if {m.id for m in queue} != set(match_ids):
        raise Invalid(
            "matchIDs must list exactly the pending matches of the table.",
            details={"json": {"matchIDs": [f"expected the {len(queue)} pending matches of table '{table_id}'"]}},
        )
    by_id = {m.id: m for m in queue}
    for order, match_id in enumerate(match_ids, start=1):
        match = by_id[match_id]
        if match.queue_order != order:
            match.queue_order = order
            match.updated_on = iso(now)
            uow.matches.put(match)
    if [m.id for m in queue] != match_ids:
        audit.record(uow, account_id=account_id, action=AuditAction.TABLE_QUEUE_REORDERED,
                     target=(TargetType.TABLE, table.id),
                     before={"queue": [m.id for m in queue]}, after={"queue": list(match_ids)}, now=now)
    return table
