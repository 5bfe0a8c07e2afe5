"""Feed-forward (contract §13): what a draw does when one of its real matches starts, stops, completes or is
corrected.

`domain.match.matches` calls these inside the unit of work that changes the match, whichever path did it
(operator API, console, scorer link, walkover), so a draw moves on in the same transaction. Storage of the draw is
`domain.draws.store`, its real matches `domain.draws.real_matches`, the court pool `domain.draws.pool`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from domain.access import audit
from domain.access.audit_records import AuditAction, TargetType
from domain.clock import iso
from domain.draws import engine, store
from domain.draws.model import DrawMatchStatus, ResultType, Score
from domain.draws.real_matches import make_real_matches, participants
from domain.errors import Conflict
from domain.ids import new_id
from domain.match import scoring
from domain.models import Match, MatchResultType, MatchStatus, Side
from domain.ports import UnitOfWork

#: How a match that was not played out enters its draw.
DRAW_RESULTS = {MatchResultType.WALKOVER: ResultType.WALKOVER, MatchResultType.RETIRED: ResultType.RETIRED}


def on_started(uow: UnitOfWork, match: Match, *, now: datetime) -> None:
    """The draw match follows its real match into play."""
    record = store.record_of(uow, match)
    if record is None or match.draw_match_id is None:
        return
    held = store.load(uow, record)
    engine.mark_active(held.draw, match.draw_match_id)
    store.save(uow, record, held, now)


def on_stopped(uow: UnitOfWork, match: Match, *, now: datetime) -> None:
    """The draw match follows its real match back to waiting (a stopped match, contract §19)."""
    record = store.record_of(uow, match)
    if record is None or match.draw_match_id is None:
        return
    held = store.load(uow, record)
    engine.mark_ready(held.draw, match.draw_match_id)
    store.save(uow, record, held, now)


def _winner_slot(match: Match) -> int | None:
    side = scoring.winner(match)
    return None if side is None else (0 if side == Side.A else 1)


def _score(match: Match) -> Score:
    games = scoring.won(match)
    return Score(games_a=games.get("a", 0), games_b=games.get("b", 0),
                 points_a=sum(int(g.get("a", 0)) for g in match.game_scores),
                 points_b=sum(int(g.get("b", 0)) for g in match.game_scores))


def on_completed(uow: UnitOfWork, match: Match, *, now: datetime, server: scoring.Scoring) -> None:
    """Feed-forward: the draw match is decided, winner and loser move on, ready draw matches get their real
    matches in the pool, standings and the next Swiss round follow; all in the caller's unit of work."""
    record = store.record_of(uow, match)
    if record is None or match.draw_match_id is None:
        return
    held = store.load(uow, record)
    draw = held.draw
    dm = draw.matches[match.draw_match_id]
    slot = _winner_slot(match)
    if dm.status not in (DrawMatchStatus.READY, DrawMatchStatus.ACTIVE) or slot is None:
        store.release(uow, record, held)  # already decided (a withdrawal walked it over), or no winner
        return
    result = DRAW_RESULTS.get(match.result_type, ResultType.PLAYED) if match.result_type else ResultType.PLAYED
    engine.record_result(draw, dm.id, winner_slot=slot, result_type=result, score=_score(match),
                         new_id=new_id)
    make_real_matches(uow, record, draw, house_id=match.connection_id, now=now, server=server)
    before_status = record.status
    store.save(uow, record, held, now)
    if before_status != draw.status:
        audit.record(uow, account_id=record.account_id, action=AuditAction.DRAW_COMPLETED,
                     target=(TargetType.DRAW, record.id), before={"status": str(before_status)},
                     after={"status": str(draw.status)}, now=now)


def _change_view(change: engine.Change) -> dict[str, Any]:
    return {"drawMatchID": change.draw_match_id, "slot": change.slot, "oldEntryID": change.old_entry_id,
            "newEntryID": change.new_entry_id}


def on_corrected(uow: UnitOfWork, match: Match, *, confirm: bool, now: datetime, server: scoring.Scoring
                 ) -> None:
    """A completed draw match's result is corrected: a changed winner moves on only if nothing it feeds has
    started (`409 downstream_started`), and only with `confirmDrawChange` (else `409 draw_change_required` with
    what would change, changing nothing)."""
    record = store.record_of(uow, match)
    if record is None or match.draw_match_id is None:
        return
    held = store.load(uow, record)
    draw = held.draw
    dm = draw.matches[match.draw_match_id]
    slot = _winner_slot(match)
    if slot is None or dm.status != DrawMatchStatus.COMPLETE:
        store.release(uow, record, held)
        return
    changes = engine.correction_changes(draw, dm.id, winner_slot=slot)
    if changes and not confirm:
        raise Conflict("This correction changes who goes on in the draw; confirm with confirmDrawChange.",
                       code="draw_change_required",
                       details={"drawMatches": [_change_view(c) for c in changes]})
    applied = engine.apply_correction(draw, dm.id, winner_slot=slot, score=_score(match),
                                      new_id=new_id)
    for change in applied:
        target = draw.matches[change.draw_match_id]
        if target.match_id is None:
            continue
        real = uow.matches.get(target.match_id)
        if real is not None and real.status == MatchStatus.PENDING:
            real.participants = participants(draw, target)
            real.updated_on = iso(now)
            uow.matches.put(real)
    make_real_matches(uow, record, draw, house_id=match.connection_id, now=now, server=server)
    store.save(uow, record, held, now)
