"""Results from paper (contract §19): the desk types in a whole result, one request, one transaction.

A pending or active match is completed with the result as it happened elsewhere: a pending one is started and
completed at once (its `startedOn` stays null, so it has no duration and never counts toward typical durations),
the busy, rest and check-in rules of §14 do not apply (the match was already played), its draw is fed (§13) and
one audit entry `match.result_entered` keeps the reason. The scores go through the match's one whole-score check
(`domain.match.scoring.check`, under the match's format, contract §18), the same one as complete and correction.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from domain.access import audit
from domain.access.audit_records import AuditAction, TargetType
from domain.clock import iso
from domain.draws import hooks as draw_hooks
from domain.draws import pool as draw_pool
from domain.errors import Conflict, Invalid
from domain.match import formats, scoring
from domain.match import matches as svc
from domain.models import POOL, Match, MatchResultType, MatchStatus, Side
from domain.ports import UnitOfWork
from domain.views import Reader


@dataclass(frozen=True)
class ResultEntry:
    """`POST /operator/matches/{id}/result`: the games as played, how the match ended, who won (walkover and
    retired only need it; for a played result it must agree with the games), and why (kept in the audit log)."""

    game_scores: list[dict[str, Any]]
    result_type: MatchResultType = MatchResultType.PLAYED
    winner_side: Side | None = None
    reason: str | None = None
    op_id: str | None = None


def _field(name: str, message: str) -> Invalid:
    return Invalid(message, details={"json": {name: [message]}})


def _winner_of(won: dict[str, int]) -> Side:
    return Side.A if won["a"] > won["b"] else Side.B


def _checked(match: Match, entry: ResultEntry, rules: svc.Rules) -> tuple[list[dict[str, Any]], Side | None]:
    """The games to keep and the winner to note (None: the games decide it), or the error, before any write."""
    games = [formats.copy_item(g) for g in entry.game_scores]  # a set keeps its tiebreak (§18)
    if entry.result_type == MatchResultType.PLAYED:
        won = scoring.check(match, games, final=True)
        if entry.winner_side is not None and entry.winner_side != _winner_of(won):
            raise _field("winnerSide", f"The games give the match to side {_winner_of(won)}, not "
                                       f"{entry.winner_side}.")
        return games, None
    if entry.winner_side is None:
        raise _field("winnerSide", f"A {entry.result_type} result needs winnerSide ('a' or 'b').")
    if entry.result_type == MatchResultType.WALKOVER:
        if games:
            raise _field("gameScores", "A walkover has no games: send gameScores [] (a match begun and "
                                       "abandoned is 'retired').")
        return [], entry.winner_side
    scoring.check(match, games, final=False)
    try:
        scoring.check(match, games, final=True)
    except Conflict:  # undecided: as a retirement should be
        return games, entry.winner_side
    raise _field("gameScores", "These games already decide the match: enter it as played, not retired.")


def enter_result(
    uow: UnitOfWork, *, account_id: str, match_id: str, entry: ResultEntry, now: datetime, rules: svc.Rules,
) -> Match:
    """Record a whole result typed in from paper on a pending or active match (`409 match_locked` once
    completed; corrections stay §6's). Emits `match.started` for a pending match, then `match.completed`."""
    reason = audit.check_reason(entry.reason)
    match = svc.get_match(uow, account_id=account_id, match_id=match_id)
    if match.status == MatchStatus.COMPLETED:
        raise Conflict(f"Match '{match_id}' is already completed; change its result with a correction.",
                       code="match_locked")
    games, winner = _checked(match, entry, rules)
    before = dataclasses.replace(match)
    if match.status == MatchStatus.PENDING:
        match = svc.start_for_entry(uow, match, now=now, rules=rules)
    match.game_scores = games
    match.result_type = entry.result_type
    match.winner_side = winner
    match.typed_in = True
    return svc.finish_entered(uow, match, before=before, now=now, rules=rules, reason=reason)


def stop_match(uow: UnitOfWork, *, account_id: str, match_id: str, now: datetime) -> Match:
    """The way on of a refused correction (`downstream_started`, contract §19): an active match goes back to
    pending, its games cleared and kept in the `match.stopped` audit entry (and `match.reset` for its partner). A
    draw's match goes back into the court pool (its place kept) and its draw match waits again; another goes to
    the front of its court's queue."""
    match = svc.get_match(uow, account_id=account_id, match_id=match_id)
    if match.status != MatchStatus.ACTIVE:
        raise Conflict(f"Match '{match_id}' is {match.status}; only a match in play is stopped.",
                       code="match_not_active")
    before = dataclasses.replace(match)
    previous = Reader(uow).read(match)
    match.status = MatchStatus.PENDING
    match.game_scores, match.point_log, match.scorers = [], [], {}
    match.current_game = match.point_base = None
    match.started_on = None
    match.score_version += 1
    match.updated_on = iso(now)
    if match.draw_id:
        match.table_id = POOL
        match.queue_order = draw_pool.pool_order_of(uow, match)
    else:
        first = uow.matches.queue(match.table_id, stop=1)
        match.queue_order = (first[0].queue_order - 1) if first else 1
    match = uow.matches.put(match)
    draw_hooks.on_stopped(uow, match, now=now)
    svc.announce_reset(uow, match, previous=previous, now=now)
    audit.record(uow, account_id=account_id, action=AuditAction.MATCH_STOPPED, target=(TargetType.MATCH, match.id),
                 before=before, after=match, now=now)
    return match
